/*
** fst-capture — run a standalone program under Hercules and trace it, or convert a
** Hercules log; writes trace.bin (capture/tracebin.h) as the log streams in, in constant
** memory. Wiring only: the work is in capture/hercules.c, capture/herclog.c,
** capture/tracebin.c and capture/ins.c.
*/
#include "capture/herclog.h"
#include "capture/hercules.h"
#include "capture/imgcheck.h"
#include "capture/ins.h"
#include "capture/samplecap.h"
#include "capture/sniff.h"
#include "capture/tracebin.h"
#include "common/err.h"
#include "common/opt.h"
#include "common/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { O_OUT = 'o', O_QUIET = 'q', O_FROMLOG = 1000, O_IMAGE, O_ARCH, O_RANGE, O_TRACEOPT, O_HERC, O_TIMEOUT, O_MAX,
       O_KEEPLOG, O_MAINSIZE, O_NUMCPU, O_FOLLOW, O_FROMTF, O_SAMPLE, O_ATTACH, O_SECONDS, O_REMOTE };

static const fst_option options[] = {
    { 'o', "output", "TRACE", "write the trace to TRACE (default: PROGRAM.trace, or LOG.trace)", O_OUT },
    { 0, "from-log", "FILE", "convert a Hercules 3.13/4.x log instead of running Hercules ('-' = stdin)", O_FROMLOG },
    { 0, "from-tf", "FILE", "convert an SDL Hercules 4.x trace file (tf ON \"FILE=...\"; --from-log knows one too)", O_FROMTF },
    { 0, "image", "PROGRAM.ins", "with --from-log: the storage image to put into the trace", O_IMAGE },
    { 0, "arch", "MODE", "S/370 (the default for a capture; a log says its own), ESA/390 or z/Arch", O_ARCH },
    { 0, "range", "A-B", "trace only addresses A to B (hex), as Hercules' 't+ A-B'", O_RANGE },
    { 0, "traceopt", "MODE", "Hercules' trace display: noregs (default, fastest), traditional, regsfirst", O_TRACEOPT },
    { 0, "hercules", "PATH", "the Hercules program (default: hercules on PATH): 3.13, or SDL 4.x (tf into a FIFO), told by its banner", O_HERC },
    { 0, "timeout", "SEC", "stop Hercules after SEC seconds (default 300; 0 = never); --follow: SEC s without a new line", O_TIMEOUT },
    { 0, "max-instructions", "N", "stop after N traced instructions", O_MAX },
    { 0, "keep-log", "FILE", "also keep Hercules' text log in FILE", O_KEEPLOG },
    { 0, "mainsize", "MB", "main storage size, 2 to 4194303 (default: what the image needs, at least 2)", O_MAINSIZE },
    { 0, "numcpu", "N", "number of CPUs (default 1)", O_NUMCPU },
    { 0, "follow", NULL, "with --from-log=FILE: keep reading as Hercules writes the file, until the program "
                         "has ended (every CPU that ran in a disabled wait or stopped), Ctrl-C, or --timeout seconds "
                         "without a new line", O_FOLLOW },
    { 0, "sample", "[HZ]", "run the program untraced and sample its PSW HZ times a second (default 300) through "
                           "Hercules' HTTP server: LOGTIME at full speed, no calls (capture/sample.h)", O_SAMPLE },
    { 0, "attach", "HOST:PORT", "with --sample: sample a Hercules already running with an HTTP port (loopback; "
                                "another host with --remote), until Ctrl-C, --seconds or a disabled wait; Ctrl-C "
                                "keeps the trace whole and exits 0 (it is how an attach without --seconds ends)",
      O_ATTACH },
    { 0, "seconds", "N", "with --attach: sample for N seconds (a Ctrl-C before then keeps the trace, exit 130)",
      O_SECONDS },
    { 0, "remote", NULL, "with --attach: the host may be another machine", O_REMOTE },
    { 'q', "quiet", NULL, "no progress line and no summary", O_QUIET },
    { 0 }
};

static const fst_cmd cmd = {
    "fst-capture",
    "[options] [-o TRACE] PROGRAM.ins\n--sample[=HZ] [-o TRACE] PROGRAM.ins\n"
    "--sample[=HZ] --attach=HOST:PORT [--seconds=N] [--range=A-B] -o TRACE\n"
    "--from-log=FILE|- [--image=PROGRAM.ins] [-o TRACE]\n"
    "--from-tf=FILE|- [--image=PROGRAM.ins] [-o TRACE]",
    "Run a standalone S/370 program under Hercules with instruction tracing on, from IPL to\n"
    "its disabled wait (several CPUs: until every CPU that ran is in a disabled wait or\n"
    "stopped), and write the executed instructions to a compact trace file that\n"
    "fst-report turns into profiles. With --from-log, read a Hercules log instead (a file,\n"
    "or '-' for a pipe: hercules ... | fst-capture --from-log=- -o job.trace); with\n"
    "--from-tf, an SDL Hercules 4.x binary trace file (tf ON \"FILE=job.tf\", t+, t-, tf OFF).",
    options,
    "  0    done (also --attach without --seconds ended by Ctrl-C: its trace is whole)\n"
    "  2    error (a message says what; a trace begun is kept, marked incomplete)\n"
    "  130  interrupted (SIGINT, SIGTERM, SIGHUP): the trace so far is kept, marked incomplete\n",
};

enum { FST_PGMLOOP_CHECKS = 256 };   /* program checks, half the instructions or more: a loop */

static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

typedef struct capture {
    const char *out, *fromlog, *image, *range, *traceopt, *hercules, *keeplog;
    int arch, quiet, progress, follow, tf, pipe_in;
    uint64_t timeout, max, mainsize_mb, numcpu;
    int sample, remote;     /* --sample */
    unsigned hz;
    const char *attach;
    uint64_t seconds, lo, hi;
    char command[1024];
} capture;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress(const capture *c, const fst_hlog *h, double t0, int last)
{
    if (!c->progress)
        return;
    if (last) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    double dt = now() - t0;
    uint64_t n = fst_hlog_getstats(h)->insns;
    fprintf(stderr, "\r\033[K%s: %llu instructions, %.0f k/s, %.1f s", fst_prog(), (unsigned long long)n,
            dt > 0 ? (double)n / dt / 1000 : 0.0, dt);
}

/* "A-B": hex digits only (no blank, sign or 0x: the text goes into Hercules' script as
** it is), A <= B. */
static int range_ok(const char *s)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    const char *dash = s + strspn(s, hex);
    char lo[20];
    uint64_t a, b;
    if (*dash != '-' || dash == s || (size_t)(dash - s) >= sizeof lo || dash[1 + strspn(dash + 1, hex)])
        return 0;
    memcpy(lo, s, (size_t)(dash - s));
    lo[dash - s] = 0;
    return !fst_parse_u64(lo, 16, &a) && !fst_parse_u64(dash + 1, 16, &b) && a <= b;
}

static void parse_args(capture *c, int argc, char **argv, const char **program)
{
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    c->timeout = 300;
    c->numcpu = 1;
    c->arch = -1; /* not given: S/370 for a capture, learnt from the log for --from-log */
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_OUT: c->out = p.arg; break;
        case O_FROMLOG: c->fromlog = p.arg; break;
        case O_FROMTF: c->fromlog = p.arg; c->tf = 1; break; /* the log reader knows trace files */
        case O_IMAGE: c->image = p.arg; break;
        case O_ARCH:
            if ((c->arch = fst_arch_parse(p.arg)) < 0 || c->arch == FST_ARCH_UNKNOWN)
                fst_opt_fail(&p, "--arch wants S/370, ESA/390 or z/Arch, not '%s'", p.arg);
            break;
        case O_RANGE:
            if (!range_ok(p.arg))
                fst_opt_fail(&p, "--range wants A-B in hex with A <= B, not '%s'", p.arg);
            c->range = p.arg;
            sscanf(p.arg, "%" SCNx64 "-%" SCNx64, &c->lo, &c->hi); /* range_ok checked it */
            break;
        case O_SAMPLE:
            c->sample = 1;
            c->hz = p.arg ? (unsigned)fst_opt_u64(&p, 1, 10000) : FST_SAMPLE_DEFAULT_HZ;
            break;
        case O_ATTACH: c->attach = p.arg; break;
        case O_SECONDS: c->seconds = fst_opt_u64(&p, 1, 86400 * 365); break;
        case O_REMOTE: c->remote = 1; break;
        case O_TRACEOPT: {
            static const char *const modes[] = { "noregs", "traditional", "regsfirst", NULL };
            c->traceopt = fst_opt_choice(&p, "trace display", modes);
            break;
        }
        case O_HERC: c->hercules = p.arg; break;
        case O_TIMEOUT: c->timeout = fst_opt_u64(&p, 0, 86400 * 365); break;
        case O_MAX: c->max = fst_opt_u64(&p, 1, UINT64_MAX); break;
        case O_KEEPLOG: c->keeplog = p.arg; break;
        case O_MAINSIZE: c->mainsize_mb = fst_opt_u64(&p, FST_HERC_MAINSIZE_MIN, FST_HERC_MAINSIZE_MAX); break;
        case O_NUMCPU: c->numcpu = fst_opt_u64(&p, 1, 64); break;
        case O_FOLLOW: c->follow = 1; break;
        case O_QUIET: c->quiet = 1; break;
        }
    }
    int npos = argc - p.optind;
    if (c->out && !strcmp(c->out, "-"))   /* not a file named '-' (issue 16) */
        fst_opt_fail(&p, "-o -: a trace is written to a file (its end is rewritten when the run ends); "
                         "give a file name, then fst-report FILE");
    if ((c->attach || c->seconds || c->remote) && !c->sample)
        fst_opt_fail(&p, "--attach, --seconds and --remote go with --sample");
    if ((c->seconds || c->remote) && !c->attach)
        fst_opt_fail(&p, "--seconds and --remote go with --attach (a program of your own runs to its disabled wait)");
    if (c->sample && (c->fromlog || c->traceopt || c->max || c->keeplog || c->numcpu > 1))
        fst_opt_fail(&p, "--sample does not trace: --from-log, --from-tf, --traceopt, --max-instructions, "
                         "--keep-log and --numcpu do not go with it");
    if (c->sample && c->range && !c->attach)
        fst_opt_fail(&p, "--range goes with --attach when sampling (your own program's samples are all kept)");
    if (c->attach) {
        if (npos)
            fst_opt_fail(&p, "with --attach there is no program to run ('%s')", argv[p.optind]);
        if (!c->out)
            fst_opt_fail(&p, "with --attach, say where the trace goes with -o TRACE");
        npos = -1;
    }
    if (c->follow && (!c->fromlog || !strcmp(c->fromlog, "-")))
        fst_opt_fail(&p, "--follow goes with --from-log=FILE (a pipe is followed anyway)");
    if (npos < 0) {
        /* --attach: nothing to run */
    } else if (c->fromlog) {
        if (npos)
            fst_opt_fail(&p, "with --from-log, give the image as --image=PROGRAM.ins, not '%s'", argv[p.optind]);
        if (!c->out && !strcmp(c->fromlog, "-"))
            fst_opt_fail(&p, "reading a log from stdin: say where the trace goes with -o TRACE");
    } else {
        if (npos != 1)
            fst_opt_fail(&p, npos ? "one PROGRAM.ins at a time" : "which program? (PROGRAM.ins, or --from-log=FILE)");
        *program = argv[p.optind];
        if (c->image)
            fst_opt_fail(&p, "--image goes with --from-log");
    }
    size_t k = 0;
    for (int i = 0; i < argc && k < sizeof c->command - 1; i++)
        k += (size_t)snprintf(c->command + k, sizeof c->command - k, "%s%s", i ? " " : "", argv[i]);
    c->progress = !c->quiet && isatty(2);
}

/* PROGRAM.ins -> PROGRAM.trace in the current folder */
static char *default_out(const char *in)
{
    const char *b = strrchr(in, '/');
    b = b ? b + 1 : in;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *s = fst_xmalloc(n + 7);
    memcpy(s, b, n);
    memcpy(s + n, ".trace", 7);
    return s;
}

static uint64_t image_mb(const fst_ins *ins)
{
    uint64_t top = 0;
    for (size_t i = 0; i < ins->n; i++)
        if (ins->seg[i].addr + ins->seg[i].len > top)
            top = ins->seg[i].addr + ins->seg[i].len;
    uint64_t mb = (top + (1u << 20) - 1) >> 20;
    return mb < 2 ? 2 : mb;
}

/* A live trace reaches its file at least this often (seconds), as whole frames: a capture
** killed outright (SIGKILL, a crash, a power cut) keeps everything but the last second. */
#define FLUSH_EVERY 1.0

typedef struct pump_ctx {
    capture *c;
    fst_hlog *h;
    fst_tw *w;
    fst_herc *herc;       /* NULL for --from-log */
    FILE *keep;
    fst_err *err;
    int *failed;
    double t0, shown, flushed;
} pump_ctx;

static const char *failure(pump_ctx *p, const char *why)
{
    *p->failed = 1;
    return why;
}

/* Why the capture ends before the next read, or NULL. */
static const char *should_stop(pump_ctx *p)
{
    const fst_hlog_stats *st = fst_hlog_getstats(p->h);
    if (stop_signal)
        return "interrupted";
    if (p->herc && st->ended && !p->herc->tf) /* the program ended (capture/progend.h); every trace line */
        return "disabled-wait"; /* came before the message: Hercules is stopped (capture/hercules.c);
                                   4.x tf: read to the FIFO's end, where the file was closed */
    if (p->herc && p->c->timeout && now() - p->t0 > (double)p->c->timeout)
        return "timeout";
    if (st->limit_hit)
        return "max-instructions";
    /* a program-check loop (an empty or wrong image: the new PSW leads back to a failing
    ** instruction) would run to --timeout; a program's own checks are a few of its instructions */
    if (p->herc && st->pgmchks >= FST_PGMLOOP_CHECKS && st->pgmchks * 2 >= st->insns)
        return "program-check-loop";
    return NULL;
}

/* A piece of the log: kept, parsed, and watched while Hercules starts. NULL, or why the
** capture ends. */
static const char *take(pump_ctx *p, const char *buf, size_t n)
{
    if (p->keep && !(p->herc && p->herc->tf) && fwrite(buf, 1, n, p->keep) != n) { /* tf: binary */
        fst_errno(p->err, "%s: cannot write", p->c->keeplog);
        return failure(p, "error");
    }
    if (fst_hlog_feed(p->h, buf, n, p->err))
        return failure(p, "error");
    if (p->herc && p->herc->watching &&
        fst_herc_watch(p->herc, buf, n, fst_hlog_getstats(p->h)->insns > 0, p->err))
        return failure(p, "ipl-failed");
    return NULL;
}

/* Between reads: the periodic flush and the progress line. NULL, or "error". */
static const char *tick(pump_ctx *p)
{
    if (now() - p->flushed >= FLUSH_EVERY) {
        p->flushed = now();
        if (fst_tw_flush(p->w, p->err))
            return failure(p, "error");
        if (p->keep)
            fflush(p->keep);
    }
    if (p->c->progress && now() - p->shown > 0.5) {
        p->shown = now();
        progress(p->c, p->h, p->t0, 0);
    }
    return NULL;
}

/* Wait up to 250 ms for Hercules' log: 1 when there is something to read, 0 when not,
** -1 on error. */
static int log_ready(pump_ctx *p, int fd)
{
    struct pollfd pf = { fd, POLLIN, 0 };
    int r = poll(&pf, 1, 250);
    if (r < 0 && errno != EINTR) {
        fst_errno(p->err, "poll");
        return -1;
    }
    return r > 0;
}

/* Read everything from fd into the parser; returns the end reason. */
static const char *pump(pump_ctx *p, int fd)
{
    static char buf[1 << 20];
    const char *end = NULL;
    double last_data = p->t0;
    while (!(end = should_stop(p))) {
        int v4 = p->herc && p->herc->v4, eof = 0; /* 4.x: capture/herc4.c reads and waits */
        int ready = p->herc && !v4 ? log_ready(p, fd) : 1;
        if (ready < 0)
            return failure(p, "error");
        ssize_t n = v4 ? fst_herc_read(p->herc, buf, sizeof buf, &eof, p->err) : ready ? read(fd, buf, sizeof buf) : 0;
        if (v4 && (n < 0 || eof))
            return n < 0 ? failure(p, p->herc->start_failed ? "ipl-failed" : "error") : "eof";
        if (v4) /* 4.x: 0 bytes is "nothing yet" (eof said apart); 3.13: poll said whether */
            ready = n > 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && p->c->follow && (errno == EAGAIN || errno == EWOULDBLOCK))
            n = 0; /* a FIFO with nothing written yet: wait as for a file that does not grow */
        if (n < 0) {
            fst_errno(p->err, "%s: cannot read", p->c->fromlog ? p->c->fromlog : "Hercules' log");
            return failure(p, "error");
        }
        if (ready && n == 0 && !p->c->follow)
            return "eof";
        if (ready && n == 0) { /* --follow: the log file grows as Hercules writes it */
            if (fst_hlog_getstats(p->h)->ended) /* every CPU that ran has stopped */
                return "eof";
            if (p->c->timeout && now() - last_data > (double)p->c->timeout)
                return "idle";
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
        if (n > 0) {
            last_data = now();
            if (p->herc && (size_t)n < sizeof buf / 4) {
                /* Hercules writes a line at a time; waking up for each costs it more than
                ** the parsing does. Let the (enlarged) pipe fill a little between reads. */
                struct timespec ts = { 0, 3 * 1000 * 1000 };
                nanosleep(&ts, NULL);
            }
            if ((end = take(p, buf, (size_t)n)))
                return end;
        }
        if ((end = tick(p)))
            return end;
    }
    return end;
}

static void add_num(fst_kv *kv, int *n, char store[][32], const char *key, uint64_t v)
{
    snprintf(store[*n], 32, "%llu", (unsigned long long)v);
    kv[*n] = (fst_kv){ key, store[*n] };
    (*n)++;
}

/* A trace file's footer keys, and whether the trace is complete: a file cut short, or one
** Hercules never closed (killed), is not — unless it is read from a pipe (where Hercules
** cannot rewrite the header) or followed as Hercules writes it (--follow, or a live 4.x
** capture through a FIFO) and the program reached its
** disabled wait. */
static int tf_footer(const fst_tf *tf, const capture *c, const fst_hlog_stats *st, int complete, const char **end,
                     fst_kv *ftr, int *nf, char store[][32], char *why, size_t cap)
{
    const fst_tf_stats *ts = fst_tf_getstats(tf);
    add_num(ftr, nf, store, "tf-format", (uint64_t)ts->format);
    add_num(ftr, nf, store, "tf-bytes", ts->bytes);
    add_num(ftr, nf, store, "tf-records", ts->records);
    add_num(ftr, nf, store, "tf-instruction-records", ts->groups);
    add_num(ftr, nf, store, "tf-device-records", ts->device);
    add_num(ftr, nf, store, "tf-unknown-records", ts->unknown);
    add_num(ftr, nf, store, "tf-closed", (uint64_t)ts->closed);
    if (ts->closed)
        add_num(ftr, nf, store, "tf-header-instructions", ts->hdr_insns);
    /* not stopped early; --follow's idle end is the input as written: a writer killed
    ** inside a record, or before its disabled wait, left an incomplete file */
    int whole_input = !strcmp(*end, "eof") || !strcmp(*end, "disabled-wait") || !strcmp(*end, "idle");
    int open_ok = !ts->cut && !ts->closed && (c->pipe_in || ((c->follow || !c->fromlog) && st->ended));
    if (!complete || !whole_input || open_ok || fst_tf_complete(tf, why, cap)) {
        why[0] = 0;
        return complete;
    }
    *end = ts->cut || ts->closed ? "cut-short" : "not-closed";
    return 0;
}

/* Neither the trace nor the kept log may be a file the capture reads (the log, the IPL
** list, a piece of the image): they are created empty first. Nor the same file twice. */
static void check_outputs(const capture *c, const char *insfile, const fst_ins *ins)
{
    fst_err err;
    const char *in[] = { c->fromlog, insfile };
    if (fst_out_check("-o", c->out, in, 2, &err) < 0 || fst_out_check("--keep-log", c->keeplog, in, 2, &err) < 0 ||
        fst_out_check("-o", c->out, (const char *const *)ins->file, ins->n, &err) < 0 ||
        fst_out_check("--keep-log", c->keeplog, (const char *const *)ins->file, ins->n, &err) < 0 ||
        fst_out_check("--keep-log", c->keeplog, &c->out, 1, &err) < 0)
        fst_die_err(&err);
    if (c->keeplog && !strcmp(c->keeplog, c->out))
        fst_die("--keep-log=%s: the same file as the trace", c->keeplog);
}

/* Remove an output that holds nothing of use: only a regular file (never /dev/null, a
** FIFO or a device that -o named). */
static void remove_output(const char *path)
{
    struct stat sb;
    if (!stat(path, &sb) && S_ISREG(sb.st_mode))
        unlink(path);
}

/* --image with a log: the image must hold the code the log ran (capture/imgcheck.h); a
** trace of another program's image is removed, with an error. */
static int foreign_image(const char *image, const char *out)
{
    fst_imgcheck ck;
    fst_err err;
    char msg[sizeof err.msg];
    if (fst_image_check(out, 4096, &ck, &err) < 0 || !fst_image_foreign(&ck))
        return 0;   /* unreadable: its own error comes at fst-report */
    fst_image_say(&ck, image, out, msg, sizeof msg);
    remove_output(out);
    fst_error("%s", msg);
    return 1;
}

/* The trace file with its header and storage image; on failure (disk full) nothing is
** left of it. */
static fst_tw *open_trace(const capture *c, const char *program, const fst_ins *ins)
{
    fst_kv hdr[] = {
        { FST_HK_SOURCE, c->tf ? "tf" : c->fromlog ? "log" : "capture" },
        { FST_HK_PROGRAM, c->fromlog ? c->fromlog : program },
        { FST_HK_COMMAND, c->command },
        { FST_HK_RANGE, c->range ? c->range : "all" },
        { FST_HK_ARCH, fst_arch_name(c->arch) },
        { FST_HK_TRACEOPT, c->fromlog ? "unknown" : (c->traceopt ? c->traceopt : "noregs") },
        { FST_HK_CLOCK, "none" },
        { NULL, NULL },
    };
    fst_err err;
    fst_tw *w = fst_tw_open(c->out, hdr, &err);
    if (!w)
        fst_die_err(&err);
    for (size_t i = 0; i < ins->n; i++)
        if (fst_tw_image(w, ins->seg[i].addr, ins->seg[i].data, ins->seg[i].len, &err)) {
            fst_tw_abandon(w);
            remove_output(c->out);
            fst_die_err(&err);
        }
    return w;
}

/* The storage image of the .ins (NULL: none), each piece checked against the storage
** the machine has: S/370 16 MiB, ESA/390 2 GiB, z/Arch what Hercules 3.13 takes, or
** --mainsize. */
static void load_image(const capture *c, const char *insfile, fst_ins *ins)
{
    uint64_t maxstore = c->arch == FST_ARCH_S370 ? (16u << 20) : c->arch == FST_ARCH_ESA390 ? (2048ull << 20) : 0;
    const char *why = NULL;
    if (!c->fromlog && c->arch == FST_ARCH_ZARCH) { /* a log may come from a larger machine */
        maxstore = (uint64_t)FST_HERC_MAINSIZE_MAX << 20;
        why = "the most main storage Hercules 3.13 takes: 4194303 MB";
    }
    if (c->mainsize_mb) {
        maxstore = c->mainsize_mb << 20;
        why = NULL;
    }
    fst_err err;
    if (insfile && fst_ins_load(ins, insfile, maxstore, &err)) {
        char hint[1024];
        fst_sniff_hint(fst_sniff(insfile), insfile, hint, sizeof hint);
        if (hint[0])
            fst_die("%s: not a Hercules IPL list (.ins): %s", insfile, hint);
        if (why && strstr(err.msg, "does not fit"))
            fst_die("%s (%s)", err.msg, why);
        fst_die_err(&err);
    }
}

/* Start Hercules on the image; returns the read end of its log. On failure nothing is
** left: no Hercules, no folder, no trace file. */
static int start_hercules(const capture *c, const fst_ins *ins, fst_herc *herc, fst_tw *w, FILE *keep)
{
    fst_herc_opts ho = { c->hercules, c->arch, c->range, c->traceopt ? c->traceopt : "noregs",
                         (unsigned)(c->mainsize_mb ? c->mainsize_mb : image_mb(ins)), (unsigned)c->numcpu,
                         0, NULL, 1 }; /* 3.13 and 4.x are driven differently: the banner says which */
    fst_err err;
    if (fst_herc_start(herc, &ho, ins, &err)) {
        fst_herc_finish(herc, NULL, NULL, 0);
        fst_tw_abandon(w);
        remove_output(c->out);
        if (keep)
            fclose(keep);
        fst_die_err(&err);
    }
    if (!herc->ver.major)
        fst_warn("'%s' printed no version banner for --help=version: driving it as Hercules 3.13",
                 c->hercules ? c->hercules : "hercules");
    return herc->proc.out;
}

/* --sample: capture/samplecap.c does it; here the summary and the exit code. */
static int run_sample(const capture *c, const char *program, const fst_ins *ins)
{
    fst_samplecap sc = { 0 };
    sc.out = c->out;
    sc.program = program;
    sc.ins = c->attach ? NULL : ins;
    sc.herc = (fst_herc_opts){ c->hercules, c->arch, NULL, NULL,
                               (unsigned)(c->mainsize_mb ? c->mainsize_mb : image_mb(ins)), 1, 0, NULL,
                               1 }; /* 3.13 and 4.x are driven differently: the banner says which */
    sc.attach = c->attach;
    sc.allow_remote = c->remote;
    sc.hz = c->hz;
    sc.seconds = c->seconds;
    sc.timeout = c->timeout;
    sc.have_range = c->range != NULL;
    sc.lo = c->lo;
    sc.hi = c->hi;
    sc.range = c->range;
    sc.command = c->command;
    sc.stop = &stop_signal;
    fst_samplecap_result res;
    fst_err err;
    if (fst_samplecap_run(&sc, &res, &err)) {
        fst_error("%s", err.msg);
        if (res.hercules_said[0] && !strstr(err.msg, "Hercules said"))
            fprintf(stderr, "Hercules said:\n%s", res.hercules_said);
        return FST_EXIT_FAIL;
    }
    const fst_sample_stats *st = &res.st;
    double secs = (double)st->ns / 1e9;
    if (!res.complete) {
        fst_error("%s before the program reached a disabled wait: %s holds %llu samples and is marked incomplete%s%s",
                  !strcmp(res.end, "hercules-exited") ? "Hercules ended" : !strcmp(res.end, "timeout") ? "timed out"
                  : res.end, c->out, (unsigned long long)st->samples, res.hercules_said[0] ? "; Hercules said:\n" : "",
                  res.hercules_said);
        return !strcmp(res.end, "interrupted") ? FST_EXIT_INTR : FST_EXIT_FAIL;
    }
    if (!c->quiet) {
        fst_note("%s: %llu samples (%llu in a wait state) in %.2f s, %.0f a second (asked %u; %llu requests late by "
                 "more than a period), round trip %.2f ms median, %.2f ms 99th percentile, %.2f ms at most; "
                 "%llu failed requests; ended by %s",
                 c->out, (unsigned long long)st->samples, (unsigned long long)st->wait_samples, secs,
                 secs > 0 ? (double)st->samples / secs : 0.0, c->hz, (unsigned long long)st->late,
                 (double)st->rtt_ns_median / 1e6, (double)st->rtt_ns_p99 / 1e6, (double)st->rtt_ns_max / 1e6,
                 (unsigned long long)st->errors, !strcmp(res.end, "interrupted") ? "a signal (Ctrl-C)" : res.end);
        if (st->out_of_range)
            fst_note("%s: %llu samples outside --range=%s were not kept", c->out, (unsigned long long)st->out_of_range,
                     c->range);
        if (st->errors)
            fst_warn("%llu requests failed and were retried (last: %s)", (unsigned long long)st->errors, st->last_error);
        if (c->attach && st->cr1)
            fst_note("%s: each sample of CPU %u carries its address space (CR1, from /api/v1/cpus): fst-report "
                     "--space=CR1 profiles one", c->out, st->cpu);
        else if (c->attach)
            fst_note("%s: this Hercules has no /api/v1/cpus (3.13, or SDL Hercules before 4.7): the samples carry no "
                     "address space (CR1), so fst-report --space cannot split them", c->out);
    }
    /* --attach ends at Ctrl-C (or SIGTERM, SIGHUP) by design: the trace of what was
    ** sampled is whole (every sample written, the footer too) and kept. Without --seconds
    ** that is how the user ends it: exit 0, so that `fst-capture ... && fst-report ...`
    ** goes on. With --seconds the signal cut the interval asked for short: the trace is
    ** kept all the same, and the exit status says interrupted (130) to the script that
    ** asked for N seconds. */
    if (c->attach && !strcmp(res.end, "interrupted") && c->seconds) {
        fst_error("interrupted after %.2f of the %llu s asked: %s holds the %llu samples taken (complete for the "
                  "time sampled)", secs, (unsigned long long)c->seconds, c->out, (unsigned long long)st->samples);
        return FST_EXIT_INTR;
    }
    return FST_EXIT_OK;
}

/* SIGINT, TERM, HUP end the capture cleanly (stop_signal), with what it has. */
static void catch_signals(void)
{
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
    capture c = { 0 };
    const char *program = NULL;
    parse_args(&c, argc, argv, &program);
    if (c.arch < 0)
        c.arch = c.fromlog ? FST_ARCH_UNKNOWN : FST_ARCH_S370;
    fst_err err;
    fst_ins ins = { 0 };
    const char *insfile = c.fromlog ? c.image : program;
    load_image(&c, insfile, &ins);
    char *defout = NULL;
    if (!c.out)
        c.out = defout = default_out(c.fromlog ? c.fromlog : program);
    check_outputs(&c, insfile, &ins);
    if (c.sample) { /* no log and no trace writer here: capture/samplecap.c */
        signal(SIGPIPE, SIG_IGN);
        catch_signals();
        int code = run_sample(&c, program, &ins);
        fst_ins_free(&ins);
        free(defout);
        return code;
    }

    int in = -1;
    if (c.fromlog) {
        /* --follow: never block, not even in open() on a FIFO that has no writer yet: the
        ** idle --timeout must be able to end the wait */
        in = strcmp(c.fromlog, "-") ? open(c.fromlog, O_RDONLY | (c.follow ? O_NONBLOCK : 0)) : 0;
        if (in < 0)
            fst_die("%s: cannot open: %s", c.fromlog, strerror(errno));
        struct stat sb;
        c.pipe_in = fstat(in, &sb) || !S_ISREG(sb.st_mode); /* a pipe: a trace file's header is never rewritten */
    }
    /* Everything that can fail before the capture fails before Hercules starts: nothing
    ** to stop, no folder to remove. A write error is an error, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    fst_tw *w = open_trace(&c, program, &ins);
    FILE *keep = NULL;
    if (c.keeplog && !(keep = fopen(c.keeplog, "w"))) {
        int e = errno;
        fst_tw_abandon(w);
        remove_output(c.out);
        fst_die("%s: cannot create: %s", c.keeplog, strerror(e));
    }
    catch_signals();

    fst_herc herc = { .proc = { -1, -1, -1 }, .errfd = -1 };
    if (!c.fromlog) {
        in = start_hercules(&c, &ins, &herc, w, keep);
        c.pipe_in = herc.tf; /* 4.x: the trace file is a FIFO, whose header is never rewritten */
    }
    herc.keep = keep; /* 4.x with tf: the log is not the trace, and is kept as it is read */

    fst_hlog *h = fst_hlog_new(w, c.fromlog ? c.fromlog : "Hercules' log", c.arch, c.max);
    if (c.tf)
        fst_hlog_want_tf(h);
    int failed = 0;
    pump_ctx pc = { &c, h, w, c.fromlog ? NULL : &herc, keep, &err, &failed, now(), now(), now() };
    const char *end = pump(&pc, in);
    progress(&c, h, 0, 1);
    if (!failed && fst_hlog_finish(h, &err))
        failed = 1;
    const fst_hlog_stats *st = fst_hlog_getstats(h);
    char tail[2048] = "";
    int status = 0;
    if (!c.fromlog) {
        if (strcmp(end, "eof"))
            fst_herc_kill(&herc);
        if (!strcmp(end, "disabled-wait")) /* stopped by us after the program ended */
            end = "eof";
        fst_herc_finish(&herc, &status, tail, sizeof tail);
    } else if (in > 0)
        close(in);
    if (keep)
        fclose(keep);

    int complete = 0, code = FST_EXIT_OK;
    if (!strcmp(end, "eof")) {
        if (st->ended || c.fromlog) {
            complete = 1;
            end = st->ended ? "disabled-wait" : "eof";
        } else if (herc.tf && herc.allstopped) {
            complete = 1; /* 4.x tf, several CPUs: Hercules said none runs (a SIGP stop it does not log) */
            end = "disabled-wait";
        } else
            end = "hercules-exited";
    } else if (!strcmp(end, "max-instructions") || !strcmp(end, "idle"))
        complete = 1; /* what was asked for: N instructions; the whole log as written */

    char store[24][32], tfwhy[300] = "";
    fst_kv ftr[32];
    int nf = 0;
    const fst_tf *tf = fst_hlog_tf(h);
    if (tf && !failed)
        complete = tf_footer(tf, &c, st, complete, &end, ftr, &nf, store, tfwhy, sizeof tfwhy);
    add_num(ftr, &nf, store, FST_FK_LINES, st->lines);
    add_num(ftr, &nf, store, FST_FK_UNKNOWN, st->unknown);
    add_num(ftr, &nf, store, FST_FK_MALFORMED, st->malformed);
    if (st->spliced)
        add_num(ftr, &nf, store, FST_FK_SPLICED, st->spliced);
    add_num(ftr, &nf, store, "redisplays", st->redisplays);
    ftr[nf++] = (fst_kv){ "traceopt-seen", st->traceopt };
    ftr[nf++] = (fst_kv){ FST_HK_HERCULES, st->hercules[0] ? st->hercules : "unknown" };
    ftr[nf++] = (fst_kv){ "arch-at-end", fst_arch_name(st->arch) };
    ftr[nf] = (fst_kv){ NULL, NULL };
    uint64_t bytes = 0;
    if (failed) {
        fst_tw_abandon(w);
        if (!strcmp(end, "ipl-failed"))
            fst_error("%s: Hercules failed to start it: %s", program, err.msg);
        else
            fst_error("%s", err.msg);
        if (!st->insns)
            remove_output(c.out); /* nothing in it */
        else if (tf) /* a damaged trace file: what came before the damage stays readable */
            fst_note("%s keeps the %llu instructions read before that, marked incomplete (no footer)", c.out,
                     (unsigned long long)st->insns);
        code = FST_EXIT_FAIL;
    } else {
        bytes = fst_tw_bytes(w);
        if (fst_tw_close(w, complete, end, ftr, &err)) {
            fst_error("%s", err.msg);
            code = FST_EXIT_FAIL;
        }
    }
    const char *src = c.fromlog ? c.fromlog : "Hercules' log";
    if (st->malformed)
        fst_warn("%s: line %llu: %llu trace line%s could not be read, an instruction may be missing there: '%s'",
                 src, (unsigned long long)st->first_malformed_line, (unsigned long long)st->malformed,
                 st->malformed == 1 ? "" : "s", st->first_malformed);
    if (st->spliced)
        fst_warn("%s: %llu of them are lines of several CPUs run into each other (Hercules 3.13 prints a trace "
                 "line in pieces, and other CPUs' pieces come between): the instructions in them are lost, so "
                 "this multi-CPU profile is not exact; trace several CPUs with SDL Hercules 4.x (--from-tf)",
                 src, (unsigned long long)st->spliced);
    if (code == FST_EXIT_OK && st->insns == 0) {
        remove_output(c.out);
        if (c.fromlog)
            fst_error("%s: no traced instructions in %llu lines (was tracing on: 't+' before 'ipl'?)", src,
                      (unsigned long long)st->lines);
        else
            fst_error("Hercules traced no instruction: %s%s%s",
                      st->last_error[0] ? st->last_error : "the IPL failed or the program never ran",
                      tail[0] ? "; Hercules said:\n" : "", tail);
        code = FST_EXIT_FAIL;
    } else if (code == FST_EXIT_OK) {
        if ((!strcmp(end, "timeout") || !strcmp(end, "idle")) && st->disabled_wait && !st->ended && st->running)
            fst_warn("a CPU loaded a disabled wait, but %u CPU(s) still ran when the %s ended: a program of several "
                     "CPUs ends only when none runs any more", st->running, !strcmp(end, "idle") ? "input" : "capture");
        if (!strcmp(end, "interrupted")) {
            fst_error("interrupted: %s holds the first %llu instructions and is marked incomplete", c.out,
                      (unsigned long long)st->insns);
            code = FST_EXIT_INTR;
        } else if (!strcmp(end, "program-check-loop")) {
            fst_error("the program loops on program checks (%llu in its first %llu instructions): the IPL PSW or "
                      "the program-check new PSW at 68 leads to no program. Is %s the program, and do its files hold "
                      "what it lists (an empty or wrong .bin)?", (unsigned long long)st->pgmchks,
                      (unsigned long long)st->insns, program);
            remove_output(c.out);
            code = FST_EXIT_FAIL;
        } else if (!strcmp(end, "timeout")) {
            fst_error("timed out after %llu s: %s holds the first %llu instructions and is marked incomplete",
                      (unsigned long long)c.timeout, c.out, (unsigned long long)st->insns);
            code = FST_EXIT_FAIL;
        } else if (!strcmp(end, "hercules-exited") && herc.stuck) {
            fst_error("Hercules closed its log but did not exit within %d s, and was stopped, before the program "
                      "reached a disabled wait: %s holds %llu instructions and is marked incomplete%s%s",
                      FST_HERC_EXIT_MS / 1000, c.out, (unsigned long long)st->insns,
                      tail[0] ? "; Hercules said:\n" : "", tail);
            code = FST_EXIT_FAIL;
        } else if (!strcmp(end, "hercules-exited")) {
            fst_error("Hercules ended (status %d) before the program reached a disabled wait: %s holds %llu "
                      "instructions and is marked incomplete%s%s",
                      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), c.out,
                      (unsigned long long)st->insns, tail[0] ? "; Hercules said:\n" : "", tail);
            code = FST_EXIT_FAIL;
        }
    }
    if (code == FST_EXIT_OK && c.image && foreign_image(c.image, c.out))
        code = FST_EXIT_FAIL;
    if (code == FST_EXIT_OK && tfwhy[0])
        fst_warn("%s: %s: %s holds %llu instructions and is marked incomplete", src, tfwhy, c.out,
                 (unsigned long long)st->insns);
    if (code == FST_EXIT_OK && tf && fst_tf_getstats(tf)->warnings)
        fst_warn("%s: %s (%llu such)", src, fst_tf_getstats(tf)->first_warning,
                 (unsigned long long)fst_tf_getstats(tf)->warnings);
    if (code == FST_EXIT_OK && tf && fst_tf_getstats(tf)->unknown)
        fst_warn("%s: byte %llu: %llu records of types this reader does not know were skipped (first: TF%05u)", src,
                 (unsigned long long)fst_tf_getstats(tf)->first_unknown_at,
                 (unsigned long long)fst_tf_getstats(tf)->unknown, fst_tf_getstats(tf)->first_unknown_type);
    if (code == FST_EXIT_OK && !c.quiet) {
        fst_note("%s: %llu instructions, %llu program checks, %llu waits, ended by %s; %.3g bytes/instruction",
                 c.out, (unsigned long long)st->insns, (unsigned long long)st->pgmchks, (unsigned long long)st->waits,
                 end, st->insns ? (double)bytes / (double)st->insns : 0.0);
        if (st->unknown)
            fst_note("%s: %llu lines were neither trace nor Hercules messages (first, line %llu: '%s')", src,
                     (unsigned long long)st->unknown, (unsigned long long)st->first_unknown_line, st->first_unknown);
    }
    fst_hlog_free(h);
    fst_ins_free(&ins);
    free(defout);
    return code;
}
