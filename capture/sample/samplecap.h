/*
** capture/sample/samplecap.h — fst-capture --sample: run a program untraced under Hercules, or
** attach to a Hercules the user runs, and sample its PSW (capture/sample/sample.h) into a trace.
**
** Own Hercules (attach == NULL): a free port on 127.0.0.1 is chosen, Hercules is started
** (capture/hercules/hercules.h) with `HTTPPORT port AUTH user password` — a random user and
** password for this run, kept only in the private configuration folder — and without
** tracing; its log is read as it comes (so that Hercules never blocks on a full pipe) for
** the disabled-wait message (HHCCP011I / HHC00809I), for its end, and for a failed
** start-up (fst_herc_watch: a piece the IPL could not load, an invalid IPL PSW — an error
** at once, naming the program and Hercules' message, and no trace). The trace holds the
** storage image of the program, as an exact capture's does, so that --map, names and the
** FORTRAN identifier scan work alike.
**
** Attach (attach = "HOST:PORT"): nothing is started, stopped or reconfigured; the address
** must be loopback unless `allow_remote` (the user named the host). Sampling ends after
** `seconds`, at Ctrl-C (the trace is then complete: the user ended it), or at a disabled
** wait. No storage image (give --map at report time).
**
** The trace is written all or nothing as far as it can be: with no sample at all it is
** removed; stopped by an error, a timeout or Hercules' death it keeps its samples and a
** footer with complete=0 and the reason (FST_FK_END), so no report takes it for whole.
**
** Errors: -1 with err set; *code is then the exit code (FST_EXIT_*).
*/
#ifndef FST_SAMPLECAP_H
#define FST_SAMPLECAP_H

#include "capture/hercules/hercules.h"
#include "capture/hercules/ins.h"
#include "capture/sample/sample.h"
#include "common/err.h"

#include <signal.h>

typedef struct fst_samplecap {
    const char *out;            /* the trace */
    const char *program;        /* the .ins file (NULL with attach) */
    const fst_ins *ins;         /* its image (NULL with attach) */
    fst_herc_opts herc;         /* own Hercules: how to run it (httpport is set here) */
    const char *attach;         /* "HOST:PORT" or NULL */
    int allow_remote;
    unsigned hz;
    uint64_t seconds;           /* attach: stop after (0 = until Ctrl-C or a disabled wait) */
    uint64_t timeout;           /* own Hercules: stop after (0 = never) */
    int have_range;
    uint64_t lo, hi;
    const char *range;          /* as given, for the header */
    const char *command;        /* for the header */
    volatile sig_atomic_t *stop;/* set by a signal handler */
} fst_samplecap;

typedef struct fst_samplecap_result {
    fst_sample_stats st;
    const char *end;
    int complete;
    double wall;                /* seconds from Hercules' start (or the attach) to the end */
    char hercules_said[2048];   /* Hercules' stderr tail when it failed */
} fst_samplecap_result;

int fst_samplecap_run(const fst_samplecap *sc, fst_samplecap_result *res, fst_err *err);

#endif
