/* capture/hercules/herc4.c — SDL Hercules 4.x under fst: started with its own options, its log a
** file read as it grows, its binary trace (tf) a FIFO; see hercules.h. */
#include "capture/hercules/herc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux */
#endif

/* After the disabled wait is logged, how long hao's `tf OFF` may take before fst sends the
** command itself (on stdin), seconds. */
#define TFOFF_GRACE 3.0
/* Several CPUs: `qproc` at once when a disabled wait is logged, then at twice the
** interval each time (a CPU still running may run long), at most every QPROC_MAX s; from
** the first trace bytes on, every QPROC_MAX s (CPUs that all stop by SIGP log nothing). */
#define QPROC_FIRST 0.05
#define QPROC_MAX 2.0

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int open_in_dir(const fst_herc *h, const char *name, int flags, fst_err *err)
{
    char p[320];
    snprintf(p, sizeof p, "%s/%s", h->dir, name);
    int fd = open(p, flags | O_CLOEXEC, 0600);
    if (fd < 0)
        fst_errno(err, "%s: cannot open", p);
    return fd;
}

int fst_herc4_start(fst_herc *h, const fst_herc_opts *o, fst_err *err)
{
    /* the log: created empty here and opened for reading before Hercules writes it */
    int w = open_in_dir(h, "hercules.log", O_WRONLY | O_CREAT | O_EXCL, err);
    if (w < 0)
        return -1;
    close(w);
    if ((h->logfd = open_in_dir(h, "hercules.log", O_RDONLY, err)) < 0)
        return -1;
    if (h->tf) {
        /* the FIFO is opened for reading first (O_NONBLOCK: no writer yet), so that
        ** Hercules' fopen(..., "wb") at `tf ON` does not wait for a reader */
        char p[320];
        snprintf(p, sizeof p, "%s/trace.tf", h->dir);
        if (mkfifo(p, 0600))
            return fst_errno(err, "%s: cannot make a FIFO", p);
        if ((h->tffd = open_in_dir(h, "trace.tf", O_RDONLY | O_NONBLOCK, err)) < 0)
            return -1;
        fcntl(h->tffd, F_SETPIPE_SZ, 1 << 20); /* fewer wake-ups of both sides (best effort) */
    }
    h->ncpu = o->numcpu ? o->numcpu : 1;
    h->ask_every = QPROC_MAX;
    const char *prog = o->hercules ? o->hercules : "hercules";
    char *argv[] = { (char *)prog, "-n", "-f", "hercules.cnf", "-r", "hercules.rc", "-o", "hercules.log", NULL };
    /* fst's module (capture/module/fstmod.c): its FIFO, and its interposer preloaded */
    static char preload[PATH_MAX + 16];
    const char *pl = fst_herc_preload(h, o);
    if (pl)
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s", pl);
    /* FST_MODULE_FROM_IPL: the module's stream from IPL, no SYNC (capture/module/fstmod_wire.h) */
    char *env[] = { fst_herc_ldmod(h, o) ? "FST_MODULE_OUT=module.fifo" : NULL,
                    fst_herc_ldmod(h, o) ? "FST_MODULE_FROM_IPL=1" : NULL, pl ? preload : NULL, NULL };
    if (fst_herc_ldmod(h, o) && fst_herc_modfifo(h, o, err))
        return -1;
    if (fst_child_spawn_in(&h->proc, argv, h->dir, h->errfd, env[0] ? env : NULL, err)) {
        if (strstr(err->msg, ": not found"))
            fst_errf(err, "cannot run '%s': not found (give --hercules=PATH)", prog);
        return -1;
    }
    fcntl(h->proc.out, F_SETFL, fcntl(h->proc.out, F_GETFL) | O_NONBLOCK);
    h->watching = 1;
    return 0;
}

/* One whole line of the log. 1 when the capture must end with err set. */
static int log_line(fst_herc *h, const char *s, fst_err *err)
{
    if (h->watching && fst_herc_watch_line(h, s, err)) {
        h->start_failed = 1;
        return 1;
    }
    if (strstr(s, "HHC00809I Processor CP00:") && !h->dwait) { /* the IPL CPU's: hercules.c */
        h->dwait = 1;
        h->dwait_at = mono();
    }
    if (strstr(s, "HHC00809I Processor ")) { /* any CPU's: ask whether another still runs */
        h->anywait = 1;
        h->ask_at = mono();
        h->ask_every = QPROC_FIRST;
    }
    /* qproc's answer: HHC17007I, then "HHC17009I PROC CP01 * ..." per CPU ('-' started,
    ** ':' stopping, '*' stopped), then HHC17010I */
    const char *q;
    if (strstr(s, "HHC17007I ")) {
        h->q_open = 1;
        h->q_cpus = h->q_running = 0;
    } else if (h->q_open && (q = strstr(s, "HHC17009I PROC "))) {
        char state = 0;
        if (sscanf(q + 15, "%*s %c", &state) == 1) {
            h->q_cpus++;
            h->q_running += state != '*';
        }
    } else if (h->q_open && strstr(s, "HHC17010I ")) {
        h->q_open = 0;
        if (h->q_cpus && !h->q_running && !h->tfoff_sent && h->proc.in >= 0) {
            h->allstopped = 1; /* nothing can start a CPU again: the program has ended */
            h->tfoff_sent = 1;
            if (write(h->proc.in, "tf OFF\n", 7) < 0)
                h->tfoff_sent = 2;
        }
    }
    if (h->tf && strstr(s, "HHC02379I")) /* "Trace file MAX= reached; file closed, ..." */
        return fst_errf(err, "Hercules' trace file reached MAX=999G and tracing stopped (%s): the rest of the "
                             "program is not in the trace", s), 1;
    return 0;
}

/* New bytes of the log file: kept, scanned line by line. Returns the count (0 at its
** current end), or -1 with err set. */
static ssize_t read_log(fst_herc *h, char *buf, size_t cap, fst_err *err)
{
    ssize_t n = read(h->logfd, buf, cap);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : fst_errno(err, "Hercules' log: cannot read");
    if (n > 0 && h->keep && fwrite(buf, 1, (size_t)n, h->keep) != (size_t)n)
        return fst_errno(err, "the kept log: cannot write");
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (h->msglen < sizeof h->msg - 1)
                h->msg[h->msglen++] = buf[i]; /* a longer line is cut: its id is at its start */
            continue;
        }
        h->msg[h->msglen] = 0;
        h->msglen = 0;
        if (log_line(h, h->msg, err))
            return -1;
    }
    return n;
}

/* Hercules' stdout: with -o it says little (the log switch), but it must not fill. Its
** end says nothing: 4.x's logger closes its copy of stdout when -o moves the log to the
** file, ~10 ms after start, and Hercules runs on (logger.c). It is closed then, so that
** poll does not wake up for it again; whether Hercules has exited, the process says. */
static void drain_stdout(fst_herc *h)
{
    char junk[4096];
    ssize_t n;
    if (h->proc.out < 0)
        return;
    while ((n = read(h->proc.out, junk, sizeof junk)) > 0)
        ;
    if (n == 0) {
        close(h->proc.out);
        h->proc.out = -1;
    }
}

ssize_t fst_herc_log(fst_herc *h, char *buf, size_t cap, int *eof, fst_err *err)
{
    *eof = 0;
    drain_stdout(h);
    if (!h->gone && fst_child_exited(&h->proc))
        h->gone = 1;
    int gone = h->gone; /* before the last read: what it wrote before exiting is read */
    ssize_t n = read_log(h, buf, cap, err);
    if (n == 0 && gone)
        *eof = 1;
    return n;
}

ssize_t fst_herc_read(fst_herc *h, char *buf, size_t cap, int *eof, fst_err *err)
{
    static char logbuf[1 << 16];
    *eof = 0;
    drain_stdout(h);
    if (!h->gone && fst_child_exited(&h->proc))
        h->gone = 1;
    int gone = h->gone; /* before the last reads: what it wrote before exiting is read */
    ssize_t n = read_log(h, h->tf ? logbuf : buf, h->tf ? sizeof logbuf : cap, err);
    if (n < 0)
        return -1;
    if (!h->tf) { /* the log is the trace: a file that grows, so no poll says when */
        if (n == 0 && gone)
            *eof = 1;
        else if (n == 0)
            nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
        return n;
    }
    if (h->ncpu > 1 && !h->tfoff_sent && (h->anywait || h->tfgot) && mono() >= h->ask_at && h->proc.in >= 0) {
        /* several CPUs: does any still run? (the answer comes in the log; Hercules runs
        ** its commands one at a time, so two answers never mix) */
        if (write(h->proc.in, "qproc\n", 6) < 0)
            h->ask_every = QPROC_MAX;
        h->ask_at = mono() + h->ask_every;
        h->ask_every = h->ask_every * 2 < QPROC_MAX ? h->ask_every * 2 : QPROC_MAX;
    }
    if (h->ncpu == 1 && h->dwait && !h->tfoff_sent && mono() - h->dwait_at > TFOFF_GRACE && h->proc.in >= 0) {
        h->tfoff_sent = 1; /* hao did not close the file: ask on the console */
        if (write(h->proc.in, "tf OFF\n", 7) < 0)
            h->tfoff_sent = 2;
    }
    n = read(h->tffd, buf, cap);
    if (n > 0) {
        h->tfgot += (uint64_t)n;
        return n;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
        return fst_errno(err, "Hercules' trace FIFO: cannot read");
    /* 0 with no writer: before `tf ON` opened it, or after the file was closed */
    if ((n == 0 && h->tfgot) || gone) {
        *eof = 1;
        return 0;
    }
    struct pollfd pf[2] = { { h->proc.out, POLLIN, 0 }, { h->tffd, POLLIN, 0 } }; /* fd -1: ignored */
    if (poll(pf, h->tfgot ? 2 : 1, 50) < 0 && errno != EINTR)
        return fst_errno(err, "poll");
    return 0;
}
