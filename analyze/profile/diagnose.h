/*
** analyze/profile/diagnose.h — what fst had to guess, and what looks wrong, said on stderr.
**
** A profile can be silently wrong when its input is: a map that names routines the trace
** never enters (wrong load point, wrong member), a trace with no storage image and no map
** (a log converted without --image: nothing can be named), a traced range that cuts
** through a routine (its instructions run, its entry never), frames unwound that no
** program abandoned, tasks fst had to guess. This module watches the event stream (a
** sink) and, after the replay, turns what it saw and the profile's counters into one
** line per finding, through `say` (fst-report prints them as warnings or notes).
**
** Ownership: fst_diag_new's result is freed by fst_diag_free. Nothing here fails.
*/
#ifndef FST_DIAGNOSE_H
#define FST_DIAGNOSE_H

#include "analyze/profile/events.h"
#include "analyze/profile/profile.h"
#include "model/progmodel.h"
#include "trace/tracebin.h"

typedef struct fst_diag fst_diag;

/* `pm`: the model given with --map, or NULL (then routines come from the storage image). */
fst_diag *fst_diag_new(const fst_pm *pm);
void fst_diag_event(void *ctx, const fst_event *e);
/* `say(warning, text)`: warning 1 for what may make the report wrong, 0 for information. */
void fst_diag_report(const fst_diag *d, const fst_profile *p, fst_tr *tr, void (*say)(int warning, const char *text));
void fst_diag_free(fst_diag *d);

/* Does the program model fit what ran? A map of another program, another version or another
** load point puts its names on the wrong code, which shows two ways:
**   - calls into the middle of its routines from others (fst_profile's misfit_*,
**     analyze/replay/replay_fit.c): 1 when they are at least 2 and at least a tenth of all calls;
**   - routines whose code ran while no call ever entered them (the diag's count of
**     instructions run inside a routine outside every frame): 1 when at least 2 routines
**     and at least as many as were entered. Not judged on a window of a running system or a
**     traced range (window=attach, range other than all: a routine running when the trace
**     began is never entered in it).
** Judged only for a model given with --map: the storage image's identifiers are where they
** are, and the code between them (an operating system's, a library's) is not theirs.
** 1 with msg saying the evidence (the caller adds what to do); 0 otherwise (fst_diag_report
** says what little there is as warnings). */
int fst_diag_misfit(const fst_diag *d, const fst_profile *p, fst_tr *tr, char *msg, size_t cap);

#endif
