/*
** capture/read/jobwin.h — one job's window in a Hercules log: from JES2's
** `$HASP373 NAME STARTED` to `$HASP395 NAME ENDED` (fst-capture --job=NAME, issue 24).
**
** Under MVS 3.8J (TK4-, MVS/CE) JES2 writes these to the master console, and a console
** Hercules logs (TK4-'s and MVS/CE's integrated 3215-C/1052-C console, or the hardcopy
** log) shows them among the trace lines. The window passes on, as whole lines:
**   - before the job starts: only what Hercules says of its state (the banner's "Hercules
**     Version", the version, architecture-mode and trace-display messages of 3.13 and 4.x):
**     the version and the architecture stay known; every trace line, and every message of
**     an event (a program check, a wait, an interruption), is dropped;
**   - from the line that says the job started to the line that says it ended: everything,
**     less the register lines right after the start line (the rest of a display whose
**     instruction came before the window);
**   - after that: nothing (fst_jobwin_ended says so, and the capture ends there).
** The name is compared as JES2 prints it (upper case; the one given is upper-cased), and
** must be followed by a blank; the first start of the job opens the window (after `skip`
** starts of it: fst_jobwin_skip), and the end of that run closes it.
**
** Runs of a job in a log file (TK4-'s log grows all session: the run the user wants is
** usually the last): fst_jobwin_scan reads the file once and lists each run (its lines and
** the time its start line shows), so that the caller can choose one (the last, --run=N)
** and skip the ones before. A line longer than FST_JOBWIN_MAX_LINE is passed on in pieces
** when the window is open (the parser then says it is too long) and dropped otherwise.
**
** Ownership: the window owns its partial line. Errors: none of its own: `out` returning
** nonzero stops the feed and is returned.
*/
#ifndef FST_JOBWIN_H
#define FST_JOBWIN_H

#include "common/err.h"

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define FST_JOBWIN_MAX_LINE (64u << 10)

typedef struct fst_jobwin fst_jobwin;
typedef int (*fst_jobwin_out)(void *ctx, const char *data, size_t n);

/* NULL when the name is not a job name (1-8 characters, letters, digits, $ # @). */
fst_jobwin *fst_jobwin_new(const char *name);
/* Feed a piece of the log; what the window passes goes to out(ctx, ...) in whole lines. */
int fst_jobwin_feed(fst_jobwin *j, const char *buf, size_t n, fst_jobwin_out out, void *ctx);
/* The last line, if it had no newline (at the end of the input). */
int fst_jobwin_finish(fst_jobwin *j, fst_jobwin_out out, void *ctx);
int fst_jobwin_started(const fst_jobwin *j);
int fst_jobwin_ended(const fst_jobwin *j);
uint64_t fst_jobwin_start_line(const fst_jobwin *j);  /* line numbers of the two messages (0: not seen) */
uint64_t fst_jobwin_end_line(const fst_jobwin *j);
uint64_t fst_jobwin_lines(const fst_jobwin *j);       /* lines read */
const char *fst_jobwin_name(const fst_jobwin *j);
/* While the window waits: the last `$HASP373` line read (another job's start, or a run of
** this one skipped), from `$HASP373` on, at most FST_JOBWIN_OTHER - 1 printable characters;
** "" when none. For the message of a job that never started: its name mistyped, or a
** console that said nothing of any job. */
#define FST_JOBWIN_OTHER 96
const char *fst_jobwin_other(const fst_jobwin *j);
/* The first line read, the same way ("" before any). */
const char *fst_jobwin_first(const fst_jobwin *j);
/* The window opens at the (skip+1)-th start of the job, not the first. */
void fst_jobwin_skip(fst_jobwin *j, uint64_t skip);

/* One run of the job in a log: the lines of its start and end (end 0: the file ends before
** it does) and the time its start line shows (HH.MM.SS or HH:MM:SS, "" when none). */
typedef struct fst_jobrun {
    uint64_t start_line, end_line;
    char time[9];
} fst_jobrun;
/* The runs of job `name` in the file at path, in order: the first `cap` into runs, their
** number into *n. 0, or -1 with err set (the file cannot be read). */
int fst_jobwin_scan(const char *path, const char *name, fst_jobrun *runs, size_t cap, size_t *n, fst_err *err);

/* The Hercules automatic-operator (hao) rules that switch tracing on at the job's start
** and off at its end, as text for the Hercules console (a comment line first). */
void fst_jobwin_hao(const char *name, FILE *out);
void fst_jobwin_free(fst_jobwin *j);

#endif
