/*
** analyze/diagnose.h — what fst had to guess, and what looks wrong, said on stderr.
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

#include "analyze/events.h"
#include "analyze/profile.h"
#include "model/progmodel.h"
#include "trace/tracebin.h"

typedef struct fst_diag fst_diag;

/* `pm`: the model given with --map, or NULL (then routines come from the storage image). */
fst_diag *fst_diag_new(const fst_pm *pm);
void fst_diag_event(void *ctx, const fst_event *e);
/* `say(warning, text)`: warning 1 for what may make the report wrong, 0 for information. */
void fst_diag_report(const fst_diag *d, const fst_profile *p, fst_tr *tr, void (*say)(int warning, const char *text));
void fst_diag_free(fst_diag *d);

#endif
