/* capture/modread/modcap.c — see modcap.h. */
#include "capture/modread/modcap.h"
#include "capture/modread/modpack.h"
#include "capture/modread/modfeed.h"
#include "capture/modread/modjob.h"
#include "capture/modread/modstream.h"
#include "capture/read/emit.h"
#include "trace/tracebin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int exists(const char *p)
{
    struct stat sb;
    return !stat(p, &sb) && S_ISREG(sb.st_mode);
}

char *fst_modcap_default_module(const char *name)
{
    const char *env = getenv(strstr(name, "313") ? "FST_MODULE" : "FST_MODULE4");
    if (env && *env)
        return exists(env) ? realpath(env, NULL) : NULL;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = 0;
    static const char *const rel[] = { "/../lib/", "/../lib/fst/" };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char p[PATH_MAX + 64];
        snprintf(p, sizeof p, "%s%s%s", exe, rel[i], name);
        if (exists(p))
            return realpath(p, NULL);
    }
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct run {
    const fst_modcap *o;
    fst_modcap_result *res;
    fst_herc h;
    fst_tw *w;
    fst_em *em;
    fst_ms *ms;
    fst_mf mf;                  /* the stream from the module's FIFO, fed with an eye on the clock */
    char line[512];             /* the log line being read */
    size_t linelen;
    char hdl_error[256];        /* an HHCHD error HDL logged (LDMOD failed) */
    int script_done;            /* Hercules' start-up script has ended */
    fst_modjob *job;            /* --job, or NULL */
    uint64_t dwait_cpus;        /* CPUs (bit per CPU, mod 64) whose disabled wait Hercules logged */
} run;

/* Hercules' log: watched for a failed start and for HDL's word on the module. */
static int log_text(run *r, const char *buf, size_t n, fst_err *err)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (r->linelen < sizeof r->line - 1)
                r->line[r->linelen++] = buf[i];
            continue;
        }
        r->line[r->linelen] = 0;
        r->linelen = 0;
        /* 3.13: HHCHDnnnx; 4.x: HHC015nnx HDL: ... */
        const char *m = strstr(r->line, "HHCHD");
        if (!m && (m = strstr(r->line, "HHC015")) && !strstr(m, " HDL: "))
            m = NULL;
        if (m && !r->hdl_error[0] && (strstr(m, "failed") || m[8] == 'E'))
            snprintf(r->hdl_error, sizeof r->hdl_error, "%s", m);
        if (strstr(r->line, "HHCPN013I") || strstr(r->line, "HHC02264I"))
            r->script_done = 1;
        /* a CPU's disabled wait (3.13 "HHCCP011I CPU0000: Disabled wait state", 4.x "HHC00809I
        ** Processor CP00: disabled wait state"): the end of a program whose job never started */
        const char *d = strstr(r->line, "HHCCP011I CPU");
        unsigned cpu;
        if ((d && sscanf(d + 13, "%4x", &cpu) == 1) ||
            ((d = strstr(r->line, "HHC00809I Processor CP")) && strstr(d, "disabled wait") &&
             sscanf(d + 22, "%2x", &cpu) == 1))
            r->dwait_cpus |= 1ull << (cpu % 64);
    }
    /* HDL's refusal is an error message of Hercules' start-up, which the watch would take for
    ** a failed start: it is the module's fallback instead (await_hello) */
    if (!r->hdl_error[0] && r->h.watching && fst_herc_watch(&r->h, buf, n, 0, err))
        return -1;
    return 0;
}

/* A module's interposer for external and I/O interruptions: beside it, NAME-irq.so; NULL
** when there is none (or no module). */
static const char *irq_of(const char *module, char *buf, size_t cap)
{
    if (!module)
        return NULL;
    size_t ml = strlen(module);
    snprintf(buf, cap, "%.*s-irq.so", (int)(ml > 3 ? ml - 3 : ml), module);
    return exists(buf) ? buf : NULL;
}

static int fallback(run *r, const char *why)
{
    snprintf(r->res->fallback, sizeof r->res->fallback, "%s", why);
    return 1;
}

/* Read what is there of the log and the stream; wait at most ms milliseconds for it. The
** stream is fed for 100 ms at most (the rest at the next call), or, with ms 0, all that the
** FIFO holds (Hercules has gone, or logged a wait: nothing may be left behind).
** Returns -1 on error, 0 otherwise; *log_eof when Hercules closed its log. */
static int pump_once(run *r, int ms, int *log_eof, fst_err *err)
{
    static uint8_t buf[1 << 20];
    struct pollfd pf[2] = { { r->h.modfd, POLLIN, 0 }, { r->h.proc.out, POLLIN, 0 } };
    /* 4.x: the log is a file (capture/hercules/herc4.c), read after the stream, no poll */
    int left = r->mf.off < r->mf.end;  /* bytes read and not yet fed: no waiting */
    if (poll(pf, *log_eof || r->h.v4 ? 1 : 2, left ? 0 : ms) < 0 && errno != EINTR)
        return fst_errno(err, "poll");
    /* the stream first: it is what the capture is for; for 100 ms at most (modfeed.h: a
    ** timeout, Ctrl-C and the log are looked at again), the rest at the next call */
    r->mf.fd = r->h.modfd;
    uint64_t had = r->mf.bytes;
    int rc = fst_mf_pump(&r->mf, ms ? fst_mf_now() + 100000000ull : UINT64_MAX, err);
    r->res->stream_bytes += r->mf.bytes - had;
    if (rc < 0)
        return -1;
    if (!*log_eof && r->h.v4) {
        ssize_t n;
        while ((n = fst_herc_log(&r->h, (char *)buf, sizeof buf, log_eof, err)) > 0)
            if (log_text(r, (const char *)buf, (size_t)n, err))
                return -1;
        return n < 0 ? -1 : 0;
    }
    if (!*log_eof && (pf[1].revents & (POLLIN | POLLHUP))) {
        ssize_t n = read(r->h.proc.out, buf, sizeof buf);
        if (n == 0)
            *log_eof = 1;
        else if (n > 0 && log_text(r, (const char *)buf, (size_t)n, err))
            return -1;
    }
    return 0;
}

static fst_tw *open_trace(const fst_modcap *o, int *fast, fst_err *err)
{
    fst_kv hdr[] = {
        { FST_HK_SOURCE, "capture" },
        { FST_HK_PROGRAM, o->program },
        { FST_HK_COMMAND, o->command },
        { FST_HK_RANGE, "all" },
        { FST_HK_ARCH, fst_arch_name(o->arch) },
        { FST_HK_TRACEOPT, "none" },
        { FST_HK_CLOCK, "none" },
        { "via", "module" },
        { o->job ? FST_HK_WINDOW : NULL, "job" },
        { o->job ? FST_HK_JOB : NULL, o->job },
        { NULL, NULL },
    };
    fst_tw *w = fst_tw_open(o->out, hdr, err);
    if (!w)
        return NULL;
    if ((*fast = fst_modpack_fast(o->numcpu)))
        fst_tw_pack_fast(w);
    for (size_t i = 0; i < o->ins->n; i++)
        if (fst_tw_image(w, o->ins->seg[i].addr, o->ins->seg[i].data, o->ins->seg[i].len, err)) {
            fst_tw_abandon(w);
            return NULL;
        }
    return w;
}

static void remove_regular(const char *path)
{
    struct stat sb;
    if (!stat(path, &sb) && S_ISREG(sb.st_mode))
        unlink(path);
}

/* Until the module has said hello (1), refused or failed to load (fallback: 2), or the
** start failed (-1). */
static int await_hello(run *r, int *log_eof, fst_err *err)
{
    double t0 = now();
    for (;;) {
        if (pump_once(r, 50, log_eof, err))
            return -1;
        const char *text;
        int hello = fst_ms_hello(r->ms, &text);
        if (hello > 0)
            return 1;
        if (hello < 0) {
            char why[300];
            snprintf(why, sizeof why, "the module refused to record: %s", text);
            return fallback(r, why) + 1;
        }
        if (r->hdl_error[0]) {
            char why[300];
            snprintf(why, sizeof why, "Hercules did not load the module: %s", r->hdl_error);
            return fallback(r, why) + 1;
        }
        if (r->script_done || *log_eof || now() - t0 > 30)
            return fallback(r, *log_eof ? "Hercules ended before the module said a word"
                                        : "the module said nothing by the end of Hercules' start-up") + 1;
        if (r->o->stop && *r->o->stop)
            return fallback(r, "interrupted while Hercules started") + 1;
    }
}

/* The job's end line came: each other CPU's records up to its own copy of it (the module
** flushes them at that line), or 250 ms. */
static const char *job_end(run *r, int *log_eof, fst_err *err)
{
    int all = 0;
    for (double t0 = now(); !(fst_ms_cut(r->ms, &all), all) && now() - t0 < 0.25 && !*log_eof;)
        if (pump_once(r, 50, log_eof, err))
            return "error";
    return "job-ended";
}

/* With a job that has not started: every CPU in a disabled wait, as Hercules logs them. */
static int ended_unseen(const run *r)
{
    unsigned n = r->o->numcpu ? r->o->numcpu : 1;
    return r->job && !fst_modjob_started(r->job) && (uint64_t)__builtin_popcountll(r->dwait_cpus) >= (n < 64 ? n : 64);
}

static const char *capture_loop(run *r, int *log_eof, fst_err *err)
{
    double t0 = now(), flushed = t0;
    for (;;) {
        const fst_em_stats *st = fst_em_getstats(r->em);
        if (fst_ms_cut(r->ms, NULL))
            return job_end(r, log_eof, err);
        if (st->ended)
            return "disabled-wait";
        if (ended_unseen(r)) {
            /* the module sends a CPU's records at its wait before Hercules logs the wait: those
            ** in the FIFO now may still start the job */
            if (pump_once(r, 0, log_eof, err))
                return "error";
            if (ended_unseen(r))
                return "disabled-wait";
            continue;
        }
        if (st->limit_hit)
            return "max-instructions";
        if (r->o->pgmloop && st->pgmchks >= r->o->pgmloop && st->pgmchks * 2 >= st->insns)
            return "program-check-loop";
        if (r->o->stop && *r->o->stop)
            return "interrupted";
        if (r->o->timeout && now() - t0 > (double)r->o->timeout)
            return "timeout";
        if (*log_eof) { /* Hercules has gone: what the FIFO still holds, then the end */
            if (pump_once(r, 0, log_eof, err))
                return "error";
            return fst_em_getstats(r->em)->ended ? "disabled-wait" : "hercules-exited";
        }
        if (pump_once(r, 100, log_eof, err))
            return "error";
        if (now() - flushed >= FST_TW_FLUSH_SECONDS) { /* a slow program's trace reaches its file */
            flushed = now();
            if (fst_tw_flush(r->w, err))
                return "error";
        }
        if (fst_em_failed(r->em)) { /* the writer's own message: where and why */
            if (!fst_tw_flush(r->w, err))
                fst_errf(err, "%s: cannot write the trace", r->o->out);
            return "error";
        }
    }
}

int fst_modcap_run(const fst_modcap *o, fst_modcap_result *res, fst_err *err)
{
    memset(res, 0, sizeof *res);
    res->end = "error";
    if (!o->module && !o->module4)
        return snprintf(res->fallback, sizeof res->fallback, "no module (make builds lib/fst-hercules313.so when "
                        "scripts/hercules313.sh has configured Hercules 3.13's source, lib/fst-hercules4.so when "
                        "scripts/hercules4.sh --src has configured SDL Hercules 4.9's; or give --module=PATH)"), 1;
    run r = { .o = o, .res = res };
    if (o->job && !(r.job = fst_modjob_new(o->job))) {
        fst_errf(err, "--job wants a job name, not '%s'", o->job);
        return -1;
    }
    if (!(r.w = open_trace(o, &res->packed_fast, err))) {
        fst_modjob_free(r.job);
        remove_regular(o->out);
        return -1;
    }
    r.em = fst_em_new(r.w, o->max);
    r.ms = fst_ms_new(r.em, o->ins, o->arch);
    fst_mf_init(&r.mf, -1, "the module's FIFO", r.ms, r.em);
    /* its interposer for external and I/O interruptions: beside it, NAME-irq.so */
    char irq[PATH_MAX + 16], irq4[PATH_MAX + 16];
    fst_herc_opts ho = { .hercules = o->hercules, .arch = o->arch, .mainsize_mb = o->mainsize_mb,
                         .numcpu = o->numcpu ? o->numcpu : 1, .probe = 1, .ldmod = o->module,
                         .preload = irq_of(o->module, irq, sizeof irq), .ldmod4 = o->module4,
                         .preload4 = irq_of(o->module4, irq4, sizeof irq4), .cards = o->cards,
                         .console = o->job != NULL, .modjob = r.job ? fst_modjob_name(r.job) : NULL };
    int rc = -1, log_eof = 0, status = 0;
    const char *end = "error";
    if (fst_herc_start(&r.h, &ho, o->ins, err))
        goto out;
    if (!fst_herc_ldmod(&r.h, &ho)) {
        rc = fallback(&r, r.h.v4 ? "SDL Hercules 4.x: no module built for it (make builds lib/fst-hercules4.so "
                                   "when scripts/hercules4.sh --src has configured the 4.9 sources)"
                                 : "Hercules 3.13: no module built for it (make builds lib/fst-hercules313.so "
                                   "when scripts/hercules313.sh has configured its source)");
        goto out;
    }
    int hello = await_hello(&r, &log_eof, err);
    if (hello != 1) {
        rc = hello < 0 ? -1 : 1;
        goto out;
    }
    if (r.job) { /* the module must have taken the request, and see the console's lines */
        const char *text;
        fst_ms_hello(r.ms, &text);
        char want[16];
        snprintf(want, sizeof want, " job=%s", fst_modjob_name(r.job));
        if (strstr(text, " console=unseen") || !strstr(text, want)) {
            rc = fallback(&r, strstr(text, " console=unseen") ? "--job: the module sees no console line (no "
                                                                "interposer preloaded)"
                                                              : "--job: the module did not take the job's request");
            goto out;
        }
        fst_ms_on_console(r.ms, fst_modjob_line, r.job);
    }
    end = capture_loop(&r, &log_eof, err);
    if (!strcmp(end, "error"))
        goto out;
    /* (a capture stopped may have stopped a chunk half-way: what came is kept) */
    if (!strcmp(end, "disabled-wait") && fst_ms_finish(r.ms, err)) {
        end = "error";
        goto out;
    }
    if (!strcmp(end, "timeout") || !strcmp(end, "interrupted")) {
        /* what the module has sent out meanwhile: it sends a CPU's records within 0.1 s
        ** (capture/module/fstmod_stream.c, STALE_NS) */
        for (double t0 = now(); now() - t0 < 0.25 && !log_eof;)
            if (pump_once(&r, 50, &log_eof, err)) {
                end = "error";
                goto out;
            }
    }
    fst_em_finish(r.em);
    rc = 0;
out:
    fst_herc_kill(&r.h);
    fst_herc_finish(&r.h, &status, res->said, sizeof res->said);
    const fst_em_stats *st = fst_em_getstats(r.em);
    res->insns = st->insns;
    res->pgmchks = st->pgmchks;
    res->waits = st->waits;
    res->events = fst_ms_events(r.ms);
    res->code_pages = fst_ms_pages(r.ms);
    res->lines = fst_ms_lines(r.ms);
    res->start_failed = r.h.start_failed;
    res->job_started = r.job && fst_modjob_started(r.job);
    if (r.job) {
        snprintf(res->job_other, sizeof res->job_other, "%s", fst_modjob_other(r.job));
        snprintf(res->job_first, sizeof res->job_first, "%s", fst_modjob_first(r.job));
    }
    res->end = end;
    if (rc == 1 || (rc < 0 && !st->insns)) {
        fst_tw_abandon(r.w);
        remove_regular(o->out);
    } else if (rc < 0) {
        fst_tw_abandon(r.w); /* readable up to its last frame, marked cut short */
    } else {
        char n1[32], n2[32], n3[32];
        snprintf(n1, sizeof n1, "%llu", (unsigned long long)res->events);
        snprintf(n2, sizeof n2, "%llu", (unsigned long long)res->stream_bytes);
        snprintf(n3, sizeof n3, "%llu", (unsigned long long)res->code_pages);
        fst_kv ftr[] = { { FST_HK_HERCULES, r.h.v4 && r.h.ver.text[0] ? r.h.ver.text : "3.13" }, { "via", "module" },
                         { "module-events", n1 }, { "module-bytes", n2 }, { "module-code-pages", n3 },
                         { "arch-at-end", fst_arch_name(o->arch) }, { NULL, NULL } };
        res->complete = r.job ? !strcmp(end, "job-ended") || !strcmp(end, "max-instructions")
                              : !strcmp(end, "disabled-wait") || !strcmp(end, "max-instructions");
        res->trace_bytes = fst_tw_bytes(r.w);
        if (fst_tw_close(r.w, res->complete, end, ftr, err))
            rc = -1;
    }
    fst_mf_free(&r.mf);
    fst_ms_free(r.ms);
    fst_em_free(r.em);
    fst_modjob_free(r.job);
    return rc;
}
