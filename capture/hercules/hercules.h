/*
** capture/hercules/hercules.h — run Hercules on a standalone program, with tracing on.
**
** fst_herc_start writes a configuration, an IPL list and a start-up script into a
** private temporary folder, then starts `hercules -d -f hercules.cnf` in that folder
** (capture/hercules/child.h: no shell, its own process group, killed with fst however fst ends),
** with its log (stdout) on a pipe that the caller reads as it is produced. The script
** sets `traceopt`, turns tracing on (`t+`, with an optional range) and IPLs; the caller
** stops Hercules when the program has ended (capture/read/progend.h: every CPU that ran is in
** a disabled wait or stopped), read from the log. (Sampling, untraced: Hercules' automatic
** operator, `hao`, quits at the first disabled wait, HHCCP011I in 3.13, HHC00809I in 4.x.) Hercules' stderr goes to an unlinked file, shown to the user
** when something fails.
**
** Nothing from outside fst reaches the script or the configuration: every path in them
** is relative to the folder (TMPDIR never appears), and every value written there is one
** word of letters, digits and . _ / - or refused with an error naming it. The
** configuration also disables Hercules' `sh` command.
**
** While Hercules starts, the caller gives fst_herc_watch each piece of the log it reads.
** It says when the start-up failed (an error message of Hercules' before the script
** ended: a file the IPL could not load, an invalid IPL PSW, a script line refused)
** rather than letting a capture trace a program-check loop until its timeout, and it
** removes the folder as soon as Hercules has read all of it (the script ended, or an
** instruction was traced): a capture killed later leaves nothing behind.
**
** SDL Hercules 4.x (opts.ver, from capture/hercules/hercver.h) is driven as its own documentation
** and the fixtures of fixtures/hercules-4.9 show: `hercules -n -f hercules.cnf -r
** hercules.rc -o hercules.log`, its stdin a pipe fst keeps open (at the end of its stdin
** 4.x shuts down, before the program has run). From 4.6 on it traces with
** `tf ON "FILE=trace.tf" MAX=999G` into a FIFO that fst reads as Hercules writes it, so
** no trace byte reaches the disk however long the job. The file is closed when the program
** has ended (tf writes through a stdio buffer: the last records reach the FIFO only when
** the file is closed, so the trace cannot tell the end first), and the end of the FIFO is
** the end of the trace: with one CPU at its disabled wait (`hao tgt HHC00809I Processor
** CP00` / `hao cmd tf OFF`); with several, when Hercules says that no CPU runs any more
** (capture/hercules/herc4.c asks with `qproc` once a CPU's disabled wait is logged, then sends
** `tf OFF`: 4.x logs no SIGP stop, so a CPU that stops itself is seen no other way). Hercules cannot rewrite the file's header on a FIFO (fseek fails: its
** HHC00075E is expected) and tf stops at MAX bytes (999G, about 2.2 billion instructions
** at 448 bytes each): that is an error, with the instructions before it kept. A 4.x older
** than 4.6 has no tf: its text trace goes to the log, which then grows with the trace
** (about 158 bytes an instruction) until the capture ends and removes it.
**
** Ownership: fst_herc_finish waits for (or kills) Hercules and removes the folder, if
** still there. Errors: -1 with err set (Hercules missing, folder not writable, a value
** that cannot go into the script, exec failure).
*/
#ifndef FST_HERCULES_H
#define FST_HERCULES_H

#include "capture/hercules/child.h"
#include "capture/hercules/hercver.h"
#include "capture/hercules/ins.h"
#include "common/err.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The largest MAINSIZE (MB) Hercules 3.13 takes as it is: it computes the size in bytes
** as MAINSIZE * 1024 in 32 bits before widening, so 4194304 MB and up wrap (4 TiB becomes
** 0 bytes and the IPL loads nothing). The smallest is 2. Whether the host can give that
** much storage is Hercules' to say (HHCCF031S, a failed start-up). */
#define FST_HERC_MAINSIZE_MIN 2u
#define FST_HERC_MAINSIZE_MAX 4194303u

typedef struct fst_herc_opts {
    const char *hercules;   /* program to run; NULL = "hercules" from PATH */
    int arch;               /* FST_ARCH_* */
    const char *range;      /* "20000-2FFFF" or NULL for all addresses */
    const char *traceopt;   /* traditional | regsfirst | noregs */
    unsigned mainsize_mb;
    unsigned numcpu;
    unsigned httpport;      /* nonzero: no tracing, an HTTP server on this port instead
                               (fst-capture --sample, capture/sample/samplecap.h) */
    const char *httpauth;   /* with httpport: "USER PASSWORD" for HTTPPORT's AUTH, or NULL */
    int console;            /* 1: a console at 009 (3215-C) whose lines Hercules logs: a program's
                               JES2-like messages for fst-capture --job (capture/jobwin.h) */
    int probe;              /* 1: run `hercules --help=version` in the folder first, and drive
                               it as its banner says (capture/hercules/hercver.h); 0: as 3.13 */
    const char *ldmod;      /* fst's module (absolute path): loaded with LDMOD, no tracing;
                               its stream comes through a FIFO in the folder, read end
                               h->modfd (capture/modes/module.c) */
    const char *preload;    /* with ldmod: a library Hercules is started with (LD_PRELOAD) */
    const char *ldmod4, *preload4; /* the same for SDL Hercules 4.x (the probe says which
                               runs; NULL: ldmod and preload serve both) */
    const char *cards;      /* a file for the card reader at 00C (3505; 80-byte EBCDIC cards,
                               the last padded), copied into the folder; NULL: /dev/null */
    const char *modjob;     /* with ldmod: the module records only this job (the request beside
                               its FIFO, module.fifo.req: capture/module/fstmod_wire.h), or NULL */
} fst_herc_opts;

typedef struct fst_herc {
    fst_child proc;         /* proc.out: Hercules' stdout (the log), read end */
    int errfd;              /* Hercules' stderr (an unlinked file), -1 when none */
    char dir[256];          /* the temporary folder; "" once removed */
    size_t npieces;         /* image pieces copied into dir */
    const fst_ins *ins;     /* what the pieces are copies of (for messages) */
    int watching;           /* the start-up script has not ended yet */
    char line[256];         /* the log line being read while watching */
    size_t linelen;
    /* SDL Hercules 4.x (capture/hercules/herc4.c): the log is a file in the folder (-o), read as it
    ** grows; with `tf` the trace comes through a FIFO, else it is that log. */
    fst_herc_ver ver;       /* what the probe found (major 0: no banner, driven as 3.13) */
    int v4, tf;
    int ldmod;              /* fst's module is loaded (LDMOD): HDL's errors are not a failed start */
    int logfd, tffd;        /* -1 when not open */
    uint64_t tfgot;         /* bytes read from the FIFO */
    int gone;               /* Hercules has exited (asked of the process: 4.x closes its
                            ** stdout soon after start and runs on) */
    int start_failed;       /* fst_herc_read failed because the start-up did */
    int dwait;              /* the log showed a disabled wait (HHC00809I) ... */
    double dwait_at;        /* ... at this time (monotonic seconds) */
    int tfoff_sent;         /* fst asked for `tf OFF` itself */
    /* Several CPUs through tf (capture/hercules/herc4.c): the end is when no CPU runs, asked of
    ** Hercules with `qproc` (4.x logs no SIGP stop, and the trace's last records wait in
    ** its buffer until the file is closed), then fst closes the file. */
    unsigned ncpu;          /* CPUs configured */
    int anywait;            /* some CPU's disabled wait was logged (HHC00809I) */
    double ask_at, ask_every; /* the next `qproc`, and the interval after it */
    int q_open;             /* a qproc answer is being read ... */
    unsigned q_cpus, q_running; /* ... its CPUs, and those not stopped */
    int allstopped;         /* Hercules said no CPU runs (and fst closed the trace file) */
    int stuck;              /* fst_herc_finish: it closed its log but had not exited
                            ** FST_HERC_EXIT_MS later, and was killed */
    int modfd;              /* with opts.ldmod: the module's FIFO (module.fifo in the folder,
                               opened read-write before Hercules starts, so that the
                               module's open finds a reader), read end (else -1) */
    FILE *keep;             /* --keep-log: the log's text goes here (tf: the trace is binary) */
    char msg[256];          /* the log line being scanned (4.x) */
    size_t msglen;
} fst_herc;

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err);
/* fst's module, when the options load one: its path and its preloaded library for the
** Hercules the probe found (NULL: none). */
const char *fst_herc_ldmod(const fst_herc *h, const fst_herc_opts *o);
const char *fst_herc_preload(const fst_herc *h, const fst_herc_opts *o);
/* The next `n` bytes of Hercules' log; `traced`: an instruction has been traced. Returns
** 1 when the start-up failed (err holds Hercules' message), else 0. */
int fst_herc_watch(fst_herc *h, const char *buf, size_t n, int traced, fst_err *err);
/* SDL Hercules 4.x: the next piece of the trace (the tf FIFO, or the log for a 4.x without
** tf), waiting at most ~50 ms for it; meanwhile the log is read and watched (a failed
** start-up, tf's MAX reached). Returns the bytes (0: none yet), or -1 with err set;
** *eof = 1 once the trace has ended (Hercules closed the trace file, or exited). */
ssize_t fst_herc_read(fst_herc *h, char *buf, size_t cap, int *eof, fst_err *err);
/* SDL Hercules 4.x: the bytes its log file gained since the last call, without waiting
** (0: none), its lines watched as fst_herc_read does; *eof = 1 once Hercules has exited
** and its log has been read to the end. -1 with err set when the start-up failed
** (h->start_failed) or the log cannot be read. For a caller that does not trace
** (fst-capture --sample, capture/sample/samplecap.c): 4.x's stdout is not its log. */
ssize_t fst_herc_log(fst_herc *h, char *buf, size_t cap, int *eof, fst_err *err);
/* Kill Hercules (its whole process group) now. */
void fst_herc_kill(fst_herc *h);
/* How long Hercules may take to exit once its log has ended (3.13 takes well under 1 s). */
#define FST_HERC_EXIT_MS 10000
/* Wait for Hercules to end (at most FST_HERC_EXIT_MS, then kill it and set h->stuck);
** *status as from waitpid. Removes the folder; copies the last
** lines of Hercules' stderr into `tail` (may be NULL). */
void fst_herc_finish(fst_herc *h, int *status, char *tail, size_t tailcap);

#endif
