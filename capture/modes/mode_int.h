/*
** capture/modes/mode_int.h — what the capture modes share (capture/modes/mode.h); not for
** other callers.
**
** A traced capture (live.c, log.c) is a stream: fst_capstream_open writes the trace's
** header and image and opens the kept log; the mode then gives it its input (a file
** descriptor, and the running Hercules for a live capture), and fst_capstream_run reads the
** input to its end, closes the trace with its footer and reports, returning the exit status.
*/
#ifndef FST_CAPMODE_INT_H
#define FST_CAPMODE_INT_H

#include "capture/hercules/hercules.h"
#include "capture/modes/mode.h"
#include "trace/tracebin.h"

#include <signal.h>
#include <stdio.h>

extern volatile sig_atomic_t fst_capture_stopsig;   /* the signal that ends the capture, or 0 */
void fst_capture_catch_signals(void);               /* SIGINT, TERM, HUP set fst_capture_stopsig */
void fst_capture_remove(const char *path);          /* a regular file only (never a device -o named) */
unsigned fst_capture_mainsize(const fst_capopts *c, const fst_ins *ins);  /* MB: --mainsize or the image's */
double fst_capture_now(void);
/* A program-check loop (an empty or wrong image: the new PSW leads back to a failing
** instruction) would run to --timeout; a program's own checks are a few of its instructions:
** at least FST_PGMLOOP_CHECKS checks and half the instructions or more is a loop. */
enum { FST_PGMLOOP_CHECKS = 256 };
/* The capture ended by such a loop: said (the image to look at), the trace removed;
** FST_EXIT_FAIL. */
int fst_capture_pgmloop(const fst_capopts *c, const char *program, unsigned long long pgmchks,
                        unsigned long long insns);

/* For a job that never started (--job): what its console said of jobs instead, as the end
** of the message ("; the last job start it showed: '$HASP373 X STARTED ...'", or, when it
** showed lines, "; it showed no job start ($HASP373), its first line: '...'"; else ""), into
** buf. other, first: fst_jobwin_other's and fst_jobwin_first's; lines: the console's lines
** read (the module sends none before the job's start line). */
const char *fst_capture_job_other(const char *other, const char *first, unsigned long long lines, char *buf,
                                  size_t cap);

typedef struct fst_capstream {
    fst_capopts *c;
    const char *program;    /* the .ins, or NULL */
    const fst_ins *ins;
    fst_tw *w;
    FILE *keep;             /* --keep-log, or NULL */
    fst_herc *herc;         /* the running Hercules, or NULL (a log) */
    int in;                 /* the input: Hercules' log, a file, a pipe */
} fst_capstream;

/* The trace with its header and image, and the kept log. Dies on error, leaving nothing. */
void fst_capstream_open(fst_capstream *s, fst_capopts *c, const char *program, const fst_ins *ins);
/* Give up before the run (Hercules did not start): remove what open made. */
void fst_capstream_abandon(fst_capstream *s);
int fst_capstream_run(fst_capstream *s);

#endif
