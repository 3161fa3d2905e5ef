/*
** capture/modes/mode.h — the ways fst-capture captures, one file each behind one interface:
**   live.c    run a standalone program under Hercules (3.13: its text log through a pipe;
**             SDL 4.x: a tf file through a FIFO) and trace it to its end
**   log.c     convert a Hercules log or tf file (a file, a pipe, or one that grows: --follow)
**   sample.c  sample a program's PSW at full speed, or a Hercules the user runs (--attach)
**   module.c  run a standalone program under Hercules 3.13 with fst's module inside it
**             (--via=module): every instruction, no text trace; -1 when the module
**             cannot record, and the caller runs live.c instead; with --attach=FIFO, a
**             window of a Hercules the user runs with the module (no fallback there)
** live.c and log.c share the trace writing and the end-of-run report (stream.c).
**
** The caller (cmds/fst-capture.c) fills an fst_capopts from the command line, checks the
** options go together, loads the image (fst_capture_inputs) and calls one mode. A mode
** writes the trace named by `out`, says on stderr what happened (a summary unless quiet,
** every error and warning), and returns the exit status (FST_EXIT_*, common/err.h). It
** exits through fst_die only for what fails before anything ran (an output that cannot be
** created, Hercules that cannot start): nothing is left behind then. SIGINT, SIGTERM and
** SIGHUP end a capture cleanly with what it has (exit 130, the trace marked incomplete).
*/
#ifndef FST_CAPMODE_H
#define FST_CAPMODE_H

#include "capture/hercules/ins.h"

#include <stdint.h>

typedef struct fst_capopts {
    const char *out, *fromlog, *image, *range, *traceopt, *hercules, *keeplog;
    int arch, quiet, progress, follow, tf, pipe_in;
    uint64_t timeout, max, mainsize_mb, numcpu;
    int timeout_given;      /* --timeout was given (--via=module --attach: its own default) */
    int sample, remote;     /* --sample */
    unsigned hz;
    const char *attach;
    const char *auth_file;  /* --http-auth (with --attach) */
    const char *job;        /* --job=NAME: only its window of a text log (capture/read/jobwin.h) */
    uint64_t run;           /* --run=N: the job's Nth run in the log (0: the default, capture/modes/stream.c) */
    int hao;                /* --hao: print the hao rules of --job, nothing else */
    uint64_t seconds, lo, hi;
    int via_module;         /* the module records (--via=module, or --via not given: the default) */
    int via_given;          /* --via was given (else a fallback to the text trace is the default's) */
    const char *module;     /* --module=PATH, or NULL */
    const char *cards;      /* --cards=FILE: the deck in the card reader at 00C, or NULL */
    const char *console;    /* --console=FILE: with --attach --job, the console's lines from FILE, or NULL */
    char command[1024];     /* the command line, into the trace's header */
} fst_capopts;

/* The storage image of insfile (none: NULL), each piece checked against the storage the
** machine has, and the outputs checked against the inputs (no output may be an input, nor
** the same file twice). Dies on error: nothing has started yet. */
void fst_capture_inputs(const fst_capopts *c, const char *insfile, fst_ins *ins);

int fst_capture_live(fst_capopts *c, const char *program, const fst_ins *ins);
int fst_capture_log(fst_capopts *c, const fst_ins *ins);
int fst_capture_sample(fst_capopts *c, const char *program, const fst_ins *ins);
int fst_capture_module(fst_capopts *c, const char *program, const fst_ins *ins);
/* --via=module --attach=FIFO: a window of a running system (capture/modread/modattach.h). */
int fst_capture_modattach(fst_capopts *c, const fst_ins *ins);

#endif
