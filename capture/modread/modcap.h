/*
** capture/modread/modcap.h — fst-capture --via=module: a standalone program run under Hercules 3.13
** with fst's module loaded (capture/module/fstmod.c, `LDMOD` in the configuration fst
** writes), no instruction tracing, the module's stream read from a FIFO in Hercules' folder
** and rebuilt into trace.bin (capture/modread/modstream.h) as it comes: constant memory, nothing on
** disk but the trace.
**
** When the module cannot record, nothing is written and the caller is told why, in one
** line, so that it can take the text trace instead (fst_modcap_run returns 1): no module
** file, a Hercules that is not 3.13 (SDL 4.x), LDMOD failing (HDL's structure-size check:
** "HHCHD011I Dependency check failed for REGS, size(...) expected(...)", or any other
** HHCHD error), the module refusing (its own checks, FSTMOD_OP_REFUSE), or no word from it
** by the end of Hercules' start-up script.
**
** With a job, the module records nothing until the program's console says the job started,
** and the capture ends at the line that says it ended (end `job-ended`, complete), as the
** text route's --job (capture/read/jobwin.h) cuts it; a program that ends first (Hercules
** logs every CPU's disabled wait) ends the capture (end `disabled-wait`, job_started 0 or
** the window incomplete). A module that cannot (no console line seen: its interposer
** missing) is a fallback.
**
** Ownership: the caller owns the image and the strings. Errors: -1 with err set (Hercules
** failed to start, the stream cannot be rebuilt, the trace cannot be written); the trace
** then keeps what came before, marked incomplete, or is removed when it holds nothing.
*/
#ifndef FST_MODCAP_H
#define FST_MODCAP_H

#include "capture/hercules/hercules.h"
#include "capture/hercules/ins.h"
#include "capture/read/jobwin.h"
#include "common/err.h"

#include <signal.h>
#include <stdint.h>

typedef struct fst_modcap {
    const char *out, *program, *command;
    const char *hercules;       /* NULL: hercules on PATH */
    const char *module;         /* the module's absolute path (Hercules 3.13's) */
    const char *module4;        /* the module for SDL Hercules 4.x, or NULL: none */
    const fst_ins *ins;
    int arch;
    unsigned mainsize_mb;
    unsigned numcpu;            /* CPUs (1 and up): CPU 0 is IPLed, the others start by SIGP restart */
    uint64_t timeout;           /* seconds, 0 = none */
    uint64_t max;               /* instructions, 0 = no limit */
    volatile sig_atomic_t *stop;
    const char *cards;          /* the deck in the card reader at 00C, or NULL */
    uint64_t pgmloop;           /* end as "program-check-loop" at this many program checks when they are half
                                   the instructions or more (0: never) */
    const char *job;            /* --job=NAME: only the job's window (capture/modread/modjob.h), or NULL;
                                   the program's console (009, a 3215-C) is configured for it */
} fst_modcap;

typedef struct fst_modcap_result {
    const char *end;            /* disabled-wait, timeout, interrupted, hercules-exited, max-instructions,
                                   program-check-loop, job-ended */
    int job_started;            /* with a job: its start line came (else nothing was recorded) */
    uint64_t lines;             /* console lines the module sent */
    char job_other[FST_JOBWIN_OTHER]; /* with a job that did not start: the last other start line, "" */
    char job_first[FST_JOBWIN_OTHER]; /* and the first line, "" */
    int complete;
    uint64_t insns, pgmchks, waits, events, stream_bytes, trace_bytes;
    uint64_t code_pages;        /* code pages the module sent (fstmod_wire.h CODE) */
    int packed_fast;            /* the trace packed fast: the host's cores are few (modpack.h) */
    int start_failed;           /* return -1: Hercules failed to start the program (err says how) */
    char fallback[320];         /* return 1: why the module did not record */
    char said[2048];            /* what Hercules said on stderr, when it failed */
} fst_modcap_result;

/* 0: captured (res says how it ended); 1: the module could not record, nothing written
** (res->fallback says why); -1: error (err). */
int fst_modcap_run(const fst_modcap *o, fst_modcap_result *res, fst_err *err);

/* The module fst-capture uses when --module is not given, by file name
** ("fst-hercules313.so", "fst-hercules4.so"): $FST_MODULE (3.13's) or $FST_MODULE4 (4.x's),
** else NAME in lib/ next to the folder of the running fst-capture (the build's
** BUILD/MODE/bin/../lib, an install's PREFIX/bin/../lib/fst); NULL when none exists. The
** string is the caller's to free. */
char *fst_modcap_default_module(const char *name);

#endif
