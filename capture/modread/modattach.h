/*
** capture/modread/modattach.h — fst-capture --via=module --attach=FIFO: a window of a
** running system (MVS 3.8J under TK4- or MVS/CE, any S/370 system) recorded by
** fst's module inside a Hercules the user started and keeps running (docs/module.md, "A
** running system").
**
** The user starts Hercules once with the module loaded (`LDMOD /abs/lib/fst-hercules313.so`
** in the configuration, FST_MODULE_OUT=FIFO in its environment, and LD_PRELOAD of the
** interposer fst-hercules313-irq.so for external and I/O interruptions; 4.x the same with
** fst-hercules4*.so). The module writes nothing while no reader has the FIFO open (its
** wrappers are out of the opcode tables) and tries again as soon as the FIFO is opened
** (inotify) and every 0.2 s (capture/module/fstmod_attach.c,
** "attach and detach"). fst_modattach_run:
**   - makes the FIFO (mode 0600) when the path does not exist, or uses the FIFO there (any
**     other kind of file is an error: nothing is opened, nothing written); it leaves the
**     FIFO behind, for the next attach and for Hercules, which keeps its name;
**   - opens it for reading and waits at most hello_timeout seconds for the module's HELLO
**     (none: an error that says how to start Hercules with the module; no trace is made);
**     a module that refuses (REFUSE) is an error with its reason;
**   - then records, rebuilding every instruction from each CPU's SYNC on
**     (capture/modread/modstream.h), until `seconds` have passed, `max` instructions, the
**     stop flag (Ctrl-C), every CPU that ran in a disabled wait, or the module closing the
**     FIFO (end `fifo-closed`: Hercules ended; or the module gave up on a reader that took
**     nothing for 30 s, which Hercules' log says);
**   - closes the FIFO (the module detaches at its next write: EPIPE) and writes the trace,
**     marked as a window of a running system (header `window` = `attach`; the footer's
**     `end` says what ended it): whole for the window it covers (complete), as a sampled
**     --attach is. There is no storage image: the code is the pages the module sent (each
**     before the first op that runs in it); an instruction in code never sent is an error
**     that names the CPU and the address.
**
** The window begins in the middle of a running system: each CPU's first instruction is
** where its SYNC says (the instruction the module's first record after the reader came is
** about: a taken branch, SVC, LCTL, an interruption's point; after an LPSW or SSM, the
** instruction it went on with), with the registers and address space then, as a text trace switched on mid-run
** begins (`t+` at the console, --from-log of such a log). The replay takes it as it takes
** such a trace (analyze/profile/profile.h): the first instruction starts a task; calls already open
** at the window's start are not in its frames (their instructions, until they return, are
** outside the routines the trace saw entered, or are charged to the first routine entered
** when the model names the mainline; a task's first call is counted, as every other: no
** mainline begins in the window, replay_stack.c), also when the window begins at a routine's entry
** (the taken branch there was its first record), which a trace from the program's start
** takes for the task's mainline, and when a task is first dispatched at a routine's entry
** with R14 a return address inside the program (replay_task.c); calls open at its end are
** closed there
** (open_frames). So each routine's figures are exact for its calls that began and ended in
** the window; at each edge at most one call per routine and task is cut. A window the module
** began before any CPU had run an instruction (a reader there before the IPL: HELLO's
** " ran=0") is the run from its first record: the header says window-start=ipl, and the
** replay reads it as a program's capture (a routine at the first instruction, or the first
** entered with BALR 14, is the mainline).
**
** With a job (`job`): before opening the FIFO the request for it is written beside it
** (capture/modread/modjob.h); the module then records nothing, out of the system's way,
** until the console says the job started, and from there each CPU from a SYNC, the line
** first; the window ends at the console line that says the job ended (end `job-ended`;
** every CPU's records cut at that line), at Ctrl-C (no trace when the job never started),
** `seconds` (from the attach) or `max`. The trace's header says `window` = `job` and
** `job` = NAME. A later run of the job is not in it (one run a window: attach again).
**
** With a console file (`console`: a console Hercules does not log, a 3270 whose messages
** reach a hardcopy printer file, capture/read/confile.h) the module cannot see the lines:
** the file is followed from its end, the FIFO opened (no request) once the start line is in
** it, and the window ends when the end line is. The edges are as late as the file is behind
** the console, plus the module's start (microseconds after the FIFO is opened): instructions
** of the job's first fraction of a second are missed and some of what follows its end is in;
** the trace says so (header `job-console` = FILE, `job-edges` = `late`).
**
** Ownership: the caller owns the strings. Errors: -1 with err set; a trace begun is then
** kept readable, marked incomplete (never claiming to be whole), or removed when it holds
** no instruction. Memory: constant (capture/modread/modstream.h).
*/
#ifndef FST_MODATTACH_H
#define FST_MODATTACH_H

#include "capture/hercules/ins.h"
#include "common/err.h"

#include <signal.h>
#include <stdint.h>

typedef struct fst_modattach {
    const char *out;            /* the trace */
    const char *fifo;           /* FST_MODULE_OUT of the running Hercules */
    const char *command;        /* the command line, into the trace's header */
    uint64_t seconds;           /* record for this long (0: until stopped) */
    uint64_t max;               /* instructions, 0 = no limit */
    uint64_t hello_timeout;     /* seconds to wait for the module's HELLO */
    volatile sig_atomic_t *stop;
    const fst_ins *image;       /* --image: put into the trace (routines by their FORTRAN entries,
                                   DESIGN §3.1); never the code replayed (the pages sent are), or NULL */
    const char *job;            /* --job=NAME: only that job's window (below), or NULL */
    const char *console;        /* --console=FILE: with job, its lines from this file (below), or NULL */
    int quiet;                  /* no note while waiting for the job */
} fst_modattach;

typedef struct fst_modattach_result {
    const char *end;            /* seconds, interrupted, max-instructions, disabled-wait, fifo-closed,
                                   job-ended, error */
    int job_started;            /* with a job: its start line came */
    uint64_t lines;             /* console lines read */
    int made_fifo;              /* the FIFO did not exist: made here */
    char hello[256];            /* what the module said it is */
    uint64_t insns, events, stream_bytes, trace_bytes, code_pages, cpus, ns;
    int arch;                   /* the system's architecture, as the module said it (FST_ARCH_*) */
    uint64_t held;              /* bytes of records of CPUs that never said where they were (not
                                   in the trace: a SIGP restart's target whose start came before) */
} fst_modattach_result;

/* 0: the window was recorded (res says how it ended); -1: error (err). */
int fst_modattach_run(const fst_modattach *o, fst_modattach_result *res, fst_err *err);

#endif
