/*
** capture/modes/stream.c — a traced capture, live or from a log: the trace written as the
** input streams in, in constant memory, then closed with its footer, and the end reported
** (capture/modes/mode_int.h). The input is read by capture/read/herclog.h (text or tf).
*/
#include "capture/modes/mode_int.h"
#include "capture/read/herclog.h"
#include "capture/read/jobwin.h"
#include "common/err.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The input, as messages name it. */
static const char *src_name(const fst_capopts *c) { return c->fromlog ? c->fromlog : "Hercules' log"; }

static void progress(const fst_capopts *c, const fst_hlog *h, double t0, int last)
{
    if (!c->progress)
        return;
    if (last) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    double dt = fst_capture_now() - t0;
    uint64_t n = fst_hlog_getstats(h)->insns;
    fprintf(stderr, "\r\033[K%s: %llu instructions, %.0f k/s, %.1f s", fst_prog(), (unsigned long long)n,
            dt > 0 ? (double)n / dt / 1000 : 0.0, dt);
}


/* A live trace reaches its file at least this often (seconds), as whole frames: a capture
** killed outright (SIGKILL, a crash, a power cut) keeps everything but the last second. */

typedef struct pump_ctx {
    fst_capopts *c;
    fst_hlog *h;
    fst_jobwin *job;      /* --job, or NULL */
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
    if (fst_capture_stopsig)
        return "interrupted";
    if (p->job && fst_jobwin_ended(p->job))
        return "job-ended";
    if (p->herc && st->ended && !p->herc->tf) /* the program ended (capture/read/progend.h); every trace line */
        return "disabled-wait"; /* came before the message: Hercules is stopped (capture/hercules/hercules.c);
                                   4.x tf: read to the FIFO's end, where the file was closed */
    if (p->herc && p->c->timeout && fst_capture_now() - p->t0 > (double)p->c->timeout)
        return "timeout";
    if (st->limit_hit)
        return "max-instructions";
    /* a program-check loop (an empty or wrong image: the new PSW leads back to a failing
    ** instruction) would run to --timeout; a program's own checks are a few of its instructions */
    if (p->herc && st->pgmchks >= FST_PGMLOOP_CHECKS && st->pgmchks * 2 >= st->insns)
        return "program-check-loop";
    return NULL;
}

/* What the job's window passes on (capture/read/jobwin.h): to the log parser. */
static int to_parser(void *ctx, const char *data, size_t n)
{
    pump_ctx *p = ctx;
    return fst_hlog_feed(p->h, data, n, p->err);
}

/* A piece of the log: kept, parsed, and watched while Hercules starts. NULL, or why the
** capture ends. */
static const char *take(pump_ctx *p, const char *buf, size_t n)
{
    if (p->keep && !(p->herc && p->herc->tf) && fwrite(buf, 1, n, p->keep) != n) { /* tf: binary */
        fst_errno(p->err, "%s: cannot write", p->c->keeplog);
        return failure(p, "error");
    }
    if (p->job ? fst_jobwin_feed(p->job, buf, n, to_parser, p) : fst_hlog_feed(p->h, buf, n, p->err))
        return failure(p, "error");
    if (p->herc && p->herc->watching &&
        fst_herc_watch(p->herc, buf, n, fst_hlog_getstats(p->h)->insns > 0, p->err))
        return failure(p, "ipl-failed");
    return NULL;
}

/* Between reads: the periodic flush and the progress line. NULL, or "error". */
static const char *tick(pump_ctx *p)
{
    if (fst_capture_now() - p->flushed >= FST_TW_FLUSH_SECONDS) {
        p->flushed = fst_capture_now();
        if (fst_tw_flush(p->w, p->err))
            return failure(p, "error");
        if (p->keep)
            fflush(p->keep);
    }
    if (p->c->progress && fst_capture_now() - p->shown > 0.5) {
        p->shown = fst_capture_now();
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
        int v4 = p->herc && p->herc->v4, eof = 0; /* 4.x: capture/hercules/herc4.c reads and waits */
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
            fst_errno(p->err, "%s: cannot read", src_name(p->c));
            return failure(p, "error");
        }
        if (ready && n == 0 && !p->c->follow)
            return "eof";
        if (ready && n == 0) { /* --follow: the log file grows as Hercules writes it */
            if (fst_hlog_getstats(p->h)->ended) /* every CPU that ran has stopped */
                return "eof";
            if (p->c->timeout && fst_capture_now() - last_data > (double)p->c->timeout)
                return "idle";
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
        if (n > 0) {
            last_data = fst_capture_now();
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
static int tf_footer(const fst_tf *tf, const fst_capopts *c, const fst_hlog_stats *st, int complete, const char **end,
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

/* The trace file with its header and storage image; on failure (disk full) nothing is
** left of it. */
static fst_tw *open_trace(const fst_capopts *c, const char *program, const fst_ins *ins)
{
    fst_kv hdr[] = {
        { FST_HK_SOURCE, c->tf ? "tf" : c->fromlog ? "log" : "capture" },
        { FST_HK_PROGRAM, c->fromlog ? c->fromlog : program },
        { FST_HK_COMMAND, c->command },
        { FST_HK_RANGE, c->range ? c->range : "all" },
        { FST_HK_ARCH, fst_arch_name(c->arch) },
        { FST_HK_TRACEOPT, c->fromlog ? "unknown" : (c->traceopt ? c->traceopt : "noregs") },
        { FST_HK_CLOCK, "none" },
        { c->job ? FST_HK_WINDOW : NULL, "job" }, /* --job: the window is the job's, as the module's is */
        { FST_HK_JOB, c->job },
        { NULL, NULL },
    };
    fst_err err;
    fst_tw *w = fst_tw_open(c->out, hdr, &err);
    if (!w)
        fst_die_err(&err);
    for (size_t i = 0; i < ins->n; i++)
        if (fst_tw_image(w, ins->seg[i].addr, ins->seg[i].data, ins->seg[i].len, &err)) {
            fst_tw_abandon(w);
            fst_capture_remove(c->out);
            fst_die_err(&err);
        }
    return w;
}

void fst_capstream_open(fst_capstream *s, fst_capopts *c, const char *program, const fst_ins *ins)
{
    *s = (fst_capstream){ c, program, ins, NULL, NULL, NULL, -1 };
    /* Everything that can fail before the capture fails before Hercules starts: nothing
    ** to stop, no folder to remove. A write error is an error, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    s->w = open_trace(c, program, ins);
    if (c->keeplog && !(s->keep = fopen(c->keeplog, "w"))) {
        int e = errno;
        fst_tw_abandon(s->w);
        fst_capture_remove(c->out);
        fst_die("%s: cannot create: %s", c->keeplog, strerror(e));
    }
    fst_capture_catch_signals();
}

void fst_capstream_abandon(fst_capstream *s)
{
    fst_tw_abandon(s->w);
    fst_capture_remove(s->c->out);
    if (s->keep)
        fclose(s->keep);
}

/* Read the input to its end, then stop Hercules (its exit status and last words into
** status and tail). Returns why the capture ended. */
static const char *read_all(fst_capstream *s, fst_hlog *h, fst_jobwin *job, fst_err *err, int *failed, int *status,
                            char *tail, size_t cap)
{
    double t = fst_capture_now();
    if (s->herc)
        s->herc->keep = s->keep; /* 4.x with tf: the log is not the trace, and is kept as it is read */
    pump_ctx pc = { s->c, h, job, s->w, s->herc, s->keep, err, failed, t, t, t };
    const char *end = pump(&pc, s->in);
    progress(s->c, h, 0, 1);
    if (!*failed && job && fst_jobwin_finish(job, to_parser, &pc))
        *failed = 1;
    if (!*failed && fst_hlog_finish(h, err))
        *failed = 1;
    if (s->herc) {
        if (strcmp(end, "eof"))
            fst_herc_kill(s->herc);
        if (!strcmp(end, "disabled-wait")) /* stopped by us after the program ended */
            end = "eof";
        fst_herc_finish(s->herc, status, tail, cap);
    } else if (s->in > 0)
        close(s->in);
    if (s->keep)
        fclose(s->keep);
    return end;
}

/* Whether the trace holds what was asked for, and the end as the footer says it. */
static int completed(const fst_capstream *s, const fst_hlog_stats *st, const char **end)
{
    if (!strcmp(*end, "eof")) {
        if (st->ended || !s->herc) {
            *end = st->ended ? "disabled-wait" : "eof";
            return 1;
        }
        if (s->herc->tf && s->herc->allstopped) {
            *end = "disabled-wait"; /* 4.x tf, several CPUs: Hercules said none runs (a SIGP stop it does not log) */
            return 1;
        }
        *end = "hercules-exited";
        return 0;
    }
    /* N instructions; the input as written; the job */
    return !strcmp(*end, "max-instructions") || !strcmp(*end, "idle") || !strcmp(*end, "job-ended");
}

/* --job: a job that never started is an error (1); one whose end the input did not reach
** leaves the trace incomplete; one captured whole is said. */
static int job_end(const fst_capstream *s, const fst_jobwin *job, const fst_hlog_stats *st, const char **end,
                   int *complete, int said)
{
    const char *src = src_name(s->c);
    if (!job)
        return 0;
    if (!said && *complete && fst_jobwin_started(job) && !fst_jobwin_ended(job)) {
        *complete = 0;
        *end = "job-not-ended";
    }
    if (!said)
        return 0;
    if (!fst_jobwin_started(job)) {
        char o[FST_JOBWIN_OTHER + 80];
        fst_capture_remove(s->c->out);
        fst_error("%s: no '$HASP373 %s STARTED' in %llu lines: the job did not start while it was read (is its "
                  "console in this log?)%s", src, fst_jobwin_name(job), (unsigned long long)fst_jobwin_lines(job),
                  fst_capture_job_other(fst_jobwin_other(job), fst_jobwin_first(job), (unsigned long long)fst_jobwin_lines(job),
                                        o, sizeof o));
        return 1;
    }
    if (!strcmp(*end, "job-not-ended"))
        fst_warn("%s: the input ended after '$HASP373 %s STARTED' (line %llu) but before its '$HASP395 %s ENDED': "
                 "%s holds %llu instructions and is marked incomplete", src, fst_jobwin_name(job),
                 (unsigned long long)fst_jobwin_start_line(job), fst_jobwin_name(job), s->c->out,
                 (unsigned long long)st->insns);
    else if (!s->c->quiet && fst_jobwin_ended(job))
        fst_note("%s: the job %s, lines %llu to %llu of %s", s->c->out, fst_jobwin_name(job),
                 (unsigned long long)fst_jobwin_start_line(job), (unsigned long long)fst_jobwin_end_line(job), src);
    return 0;
}

/* The footer's keys from the reader's figures (kept in store). */
static int footer(const fst_hlog_stats *st, fst_kv *ftr, int nf, char store[][32])
{
    add_num(ftr, &nf, store, FST_FK_LINES, st->lines);
    add_num(ftr, &nf, store, FST_FK_UNKNOWN, st->unknown);
    add_num(ftr, &nf, store, FST_FK_MALFORMED, st->malformed);
    if (st->spliced)
        add_num(ftr, &nf, store, FST_FK_SPLICED, st->spliced);
    add_num(ftr, &nf, store, "redisplays", st->redisplays);
    ftr[nf++] = (fst_kv){ "traceopt-seen", st->traceopt };
    ftr[nf++] = (fst_kv){ FST_FK_RANGE, st->range[0] ? st->range : "all" };
    ftr[nf++] = (fst_kv){ FST_HK_HERCULES, st->hercules[0] ? st->hercules : "unknown" };
    ftr[nf++] = (fst_kv){ "arch-at-end", fst_arch_name(st->arch) };
    ftr[nf] = (fst_kv){ NULL, NULL };
    return nf;
}

/* A failed capture: what is left of the trace, said. */
static void failed_run(const fst_capstream *s, const fst_hlog *h, const fst_err *err, const char *end)
{
    const fst_hlog_stats *st = fst_hlog_getstats(h);
    fst_tw_abandon(s->w);
    if (!strcmp(end, "ipl-failed"))
        fst_error("%s: Hercules failed to start it: %s", s->program, err->msg);
    else
        fst_error("%s", err->msg);
    if (!st->insns)
        fst_capture_remove(s->c->out); /* nothing in it */
    else if (fst_hlog_tf(h)) /* a damaged trace file: what came before the damage stays readable */
        fst_note("%s keeps the %llu instructions read before that, marked incomplete (no footer)", s->c->out,
                 (unsigned long long)st->insns);
}

/* What the input's reader met: lines it could not read, lines run into each other. */
static void input_warnings(const char *src, const fst_hlog_stats *st)
{
    if (st->malformed)
        fst_warn("%s: line %llu: %llu trace line%s could not be read, an instruction may be missing there: '%s'",
                 src, (unsigned long long)st->first_malformed_line, (unsigned long long)st->malformed,
                 st->malformed == 1 ? "" : "s", st->first_malformed);
    if (st->spliced)
        fst_warn("%s: %llu of them are lines of several CPUs run into each other (Hercules 3.13 prints a trace "
                 "line in pieces, and other CPUs' pieces come between): the instructions in them are lost, so "
                 "this multi-CPU profile is not exact; trace several CPUs with SDL Hercules 4.x (--from-tf)",
                 src, (unsigned long long)st->spliced);
}

/* A capture that ended before the program did: the exit status, said. */
static int early_end(const fst_capstream *s, const fst_hlog_stats *st, const char *end, int status, const char *tail)
{
    const fst_capopts *c = s->c;
    if ((!strcmp(end, "timeout") || !strcmp(end, "idle")) && st->disabled_wait && !st->ended && st->running)
        fst_warn("a CPU loaded a disabled wait, but %u CPU(s) still ran when the %s ended: a program of several "
                 "CPUs ends only when none runs any more", st->running, !strcmp(end, "idle") ? "input" : "capture");
    if (!strcmp(end, "interrupted")) {
        fst_error("interrupted: %s holds the first %llu instructions and is marked incomplete", c->out,
                  (unsigned long long)st->insns);
        return FST_EXIT_INTR;
    }
    if (!strcmp(end, "program-check-loop"))
        return fst_capture_pgmloop(c, s->program, (unsigned long long)st->pgmchks, (unsigned long long)st->insns);
    if (!strcmp(end, "timeout")) {
        fst_error("timed out after %llu s: %s holds the first %llu instructions and is marked incomplete",
                  (unsigned long long)c->timeout, c->out, (unsigned long long)st->insns);
        return FST_EXIT_FAIL;
    }
    if (!strcmp(end, "hercules-exited") && s->herc->stuck) {
        fst_error("Hercules closed its log but did not exit within %d s, and was stopped, before the program "
                  "reached a disabled wait: %s holds %llu instructions and is marked incomplete%s%s",
                  FST_HERC_EXIT_MS / 1000, c->out, (unsigned long long)st->insns, tail[0] ? "; Hercules said:\n" : "",
                  tail);
        return FST_EXIT_FAIL;
    }
    if (!strcmp(end, "hercules-exited")) {
        fst_error("Hercules ended (status %d) before the program reached a disabled wait: %s holds %llu "
                  "instructions and is marked incomplete%s%s",
                  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), c->out,
                  (unsigned long long)st->insns, tail[0] ? "; Hercules said:\n" : "", tail);
        return FST_EXIT_FAIL;
    }
    return FST_EXIT_OK;
}

/* A tf file's own warnings, and the summary. */
static void summary(const fst_capstream *s, const fst_hlog *h, const char *src, const char *end, const char *tfwhy,
                    uint64_t bytes)
{
    const fst_hlog_stats *st = fst_hlog_getstats(h);
    const fst_tf *tf = fst_hlog_tf(h);
    if (tfwhy[0])
        fst_warn("%s: %s: %s holds %llu instructions and is marked incomplete", src, tfwhy, s->c->out,
                 (unsigned long long)st->insns);
    if (tf && fst_tf_getstats(tf)->warnings)
        fst_warn("%s: %s (%llu such)", src, fst_tf_getstats(tf)->first_warning,
                 (unsigned long long)fst_tf_getstats(tf)->warnings);
    if (tf && fst_tf_getstats(tf)->unknown)
        fst_warn("%s: byte %llu: %llu records of types this reader does not know were skipped (first: TF%05u)", src,
                 (unsigned long long)fst_tf_getstats(tf)->first_unknown_at,
                 (unsigned long long)fst_tf_getstats(tf)->unknown, fst_tf_getstats(tf)->first_unknown_type);
    if (s->c->quiet)
        return;
    fst_note("%s: %llu instructions, %llu program checks, %llu waits, ended by %s; %.3g bytes/instruction",
             s->c->out, (unsigned long long)st->insns, (unsigned long long)st->pgmchks, (unsigned long long)st->waits,
             end, st->insns ? (double)bytes / (double)st->insns : 0.0);
    if (st->unknown)
        fst_note("%s: %llu lines were neither trace nor Hercules messages (first, line %llu: '%s')", src,
                 (unsigned long long)st->unknown, (unsigned long long)st->first_unknown_line, st->first_unknown);
}

/* The trace closed (whole, or marked incomplete): the exit status. */
static int close_trace(fst_capstream *s, const fst_hlog *h, const char *src, const char *end, int complete,
                       int status, const char *tail, const char *tfwhy, fst_kv *ftr)
{
    const fst_capopts *c = s->c;
    const fst_hlog_stats *st = fst_hlog_getstats(h);
    fst_err err;
    uint64_t bytes = fst_tw_bytes(s->w);
    int code = FST_EXIT_OK;
    if (fst_tw_close(s->w, complete, end, ftr, &err)) {
        fst_error("%s", err.msg);
        code = FST_EXIT_FAIL;
    }
    input_warnings(src, st);
    if (code != FST_EXIT_OK)
        return code;
    if (st->insns == 0) {
        fst_capture_remove(c->out);
        if (c->fromlog)
            fst_error("%s: no traced instructions in %llu lines (was tracing on: 't+' before 'ipl'?)", src,
                      (unsigned long long)st->lines);
        else
            fst_error("Hercules traced no instruction: %s%s%s",
                      st->last_error[0] ? st->last_error : "the IPL failed or the program never ran",
                      tail[0] ? "; Hercules said:\n" : "", tail);
        return FST_EXIT_FAIL;
    }
    if ((code = early_end(s, st, end, status, tail)) == FST_EXIT_OK)
        summary(s, h, src, end, tfwhy, bytes);
    return code;
}

/* --job on a log file: which run of the job (jobwin.h fst_jobwin_scan). A file holding
** several is told (their lines and times); the last is taken, or --run=N; with --follow, the
** first one that has not ended in the file yet (the runs before are old: the log has grown
** all session). A pipe or a live run: the first one that comes, or the Nth (--run). 0, or 1
** after an error said. */
static int choose_run(const fst_capopts *c, fst_jobwin *job)
{
    struct stat sb;
    if (!c->fromlog || !strcmp(c->fromlog, "-") || stat(c->fromlog, &sb) || !S_ISREG(sb.st_mode)) {
        fst_jobwin_skip(job, c->run ? c->run - 1 : 0);
        return 0;
    }
    fst_jobrun runs[64];
    size_t n, shown = 0;
    fst_err err;
    if (fst_jobwin_scan(c->fromlog, c->job, runs, 64, &n, &err)) {
        fst_error("%s", err.msg);
        return 1;
    }
    uint64_t ended = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        ended += runs[i].end_line != 0;
    uint64_t take = c->run ? c->run : c->follow ? ended + 1 : n ? n : 1;
    char list[1024] = "";
    for (size_t i = 0; i < n && i < 64 && shown + 80 < sizeof list; i++) {
        char e[24] = "(not ended)";
        if (runs[i].end_line)
            snprintf(e, sizeof e, "%llu", (unsigned long long)runs[i].end_line);
        shown += (size_t)snprintf(list + shown, sizeof list - shown, "%s%zu: lines %llu-%s%s%s", i ? "; " : "", i + 1,
                                  (unsigned long long)runs[i].start_line, e, runs[i].time[0] ? " at " : "",
                                  runs[i].time);
    }
    if (c->run && c->run > n && !c->follow) {
        fst_error("--run=%llu: %s holds %zu run%s of %s%s%s", (unsigned long long)c->run, c->fromlog, n,
                  n == 1 ? "" : "s", fst_jobwin_name(job), n ? ": " : "", list);
        return 1;
    }
    if (n > 1 || (c->follow && ended))
        fst_note("%s holds %zu run%s of %s (%s): taking run %llu%s", c->fromlog, n, n == 1 ? "" : "s",
                 fst_jobwin_name(job), list, (unsigned long long)take,
                 c->run ? "" : c->follow ? ", the first not ended yet (--run=N for another)" : ", the last (--run=N for another)");
    fst_jobwin_skip(job, take - 1);
    return 0;
}

int fst_capstream_run(fst_capstream *s)
{
    fst_capopts *c = s->c;
    fst_err err;
    const char *src = src_name(c);
    fst_hlog *h = fst_hlog_new(s->w, src, c->arch, c->max);
    if (c->tf)
        fst_hlog_want_tf(h);
    int failed = 0, status = 0;
    char tail[2048] = "";
    fst_jobwin *job = c->job ? fst_jobwin_new(c->job) : NULL;
    if (job && choose_run(c, job)) {
        fst_tw_abandon(s->w);
        fst_capture_remove(c->out);
        fst_jobwin_free(job);
        fst_hlog_free(h);
        return FST_EXIT_FAIL;
    }
    const char *end = read_all(s, h, job, &err, &failed, &status, tail, sizeof tail);
    const fst_hlog_stats *st = fst_hlog_getstats(h);
    int complete = completed(s, st, &end), code;
    job_end(s, job, st, &end, &complete, 0);
    char store[24][32], tfwhy[300] = "";
    fst_kv ftr[32];
    int nf = 0;
    const fst_tf *tf = fst_hlog_tf(h);
    if (tf && !failed)
        complete = tf_footer(tf, c, st, complete, &end, ftr, &nf, store, tfwhy, sizeof tfwhy);
    footer(st, ftr, nf, store);
    if (failed) {
        failed_run(s, h, &err, end);
        input_warnings(src, st);
        code = FST_EXIT_FAIL;
    } else if (job && !fst_jobwin_started(job)) {
        fst_tw_abandon(s->w);
        code = job_end(s, job, st, &end, &complete, 1) ? FST_EXIT_FAIL : FST_EXIT_OK;
    } else {
        code = close_trace(s, h, src, end, complete, status, tail, tfwhy, ftr);
        if (code == FST_EXIT_OK)
            job_end(s, job, st, &end, &complete, 1);
    }
    fst_jobwin_free(job);
    fst_hlog_free(h);
    return code;
}
