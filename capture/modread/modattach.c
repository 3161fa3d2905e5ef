/* capture/modread/modattach.c — see modattach.h. */
#include "capture/modread/modattach.h"
#include "capture/modread/modpack.h"
#include "capture/hercules/ins.h"
#include "capture/modread/modfeed.h"
#include "capture/modread/modjob.h"
#include "capture/read/confile.h"
#include "capture/modread/modstream.h"
#include "capture/module/fstmod_wire.h"
#include "capture/read/emit.h"
#include "trace/tracebin.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int stopped(const fst_modattach *o)
{
    return o->stop && *o->stop;
}

/* The FIFO, made when missing, opened for reading without waiting for a writer. */
static int open_fifo(const fst_modattach *o, fst_modattach_result *res, fst_err *err)
{
    struct stat sb;
    if (stat(o->fifo, &sb)) {
        if (errno != ENOENT)
            return fst_errno(err, "--attach=%s", o->fifo);
        if (mkfifo(o->fifo, 0600))
            return fst_errno(err, "--attach=%s: cannot make the FIFO", o->fifo);
        res->made_fifo = 1;
    } else if (!S_ISFIFO(sb.st_mode)) {
        return fst_errf(err, "--attach=%s: not a FIFO (give the path Hercules' FST_MODULE_OUT names; fst-capture "
                             "makes the FIFO when nothing is there)", o->fifo);
    }
    int fd = open(o->fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fst_errno(err, "--attach=%s", o->fifo);
    return fd;
}

#define HELLO_MAX (FSTMOD_CHUNK_HDR + 512)

/* The module's first chunk (HELLO or REFUSE), read into buf (*n bytes: it and what came
** after it in the same read). 0, or -1 (err): no word from the module in time, a refusal,
** a stream that is not the module's. */
static int await_hello(const fst_modattach *o, int fd, uint8_t *buf, size_t cap, size_t *n, fst_err *err)
{
    uint64_t t0 = fst_mf_now();
    *n = 0;
    for (;;) {
        ssize_t k = read(fd, buf + *n, cap - *n);
        if (k < 0 && errno != EAGAIN && errno != EINTR)
            return fst_errno(err, "--attach=%s: read", o->fifo);
        if (k > 0)
            *n += (size_t)k;
        if (*n >= FSTMOD_CHUNK_HDR) {
            uint32_t len = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 | (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;
            if (buf[0] != FSTMOD_CHUNK || buf[1] != FSTMOD_CPU_MODULE || len == 0 || len > HELLO_MAX - FSTMOD_CHUNK_HDR)
                return fst_errf(err, "--attach=%s: what came first is not fst's module saying hello (another writer "
                                     "on the FIFO?)", o->fifo);
            if (*n >= FSTMOD_CHUNK_HDR + len) {
                if (buf[FSTMOD_CHUNK_HDR] == FSTMOD_OP_REFUSE)
                    return fst_errf(err, "--attach=%s: fst's module in that Hercules refuses to record: %.*s", o->fifo,
                                    (int)(len - 1), (const char *)buf + FSTMOD_CHUNK_HDR + 1);
                return 0;
            }
        }
        if (stopped(o))
            return fst_errf(err, "--attach=%s: interrupted before the module said a word", o->fifo);
        if (fst_mf_now() - t0 > o->hello_timeout * 1000000000ull)
            return fst_errf(err, "--attach=%s: no word from fst's module in %llu s: is Hercules running with it? "
                                 "Start Hercules with the line 'LDMOD /ABS/PATH/lib/fst-hercules313.so' in its "
                                 "configuration (SDL 4.x: fst-hercules4.so), FST_MODULE_OUT=%s in its environment "
                                 "and LD_PRELOAD=/ABS/PATH/lib/fst-hercules313-irq.so (4.x: fst-hercules4-irq.so) "
                                 "(docs/module.md, 'A running system')", o->fifo, (unsigned long long)o->hello_timeout,
                            o->fifo);
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL); /* no writer yet: read() says 0 at once */
    }
}

static void remove_regular(const char *path);

/* With --job: the module must have taken the request (HELLO says " job=NAME") and must see
** the console's lines (its interposer preloaded). 0, or -1 (err). */
static int job_refused(const fst_modattach *o, const char *hello, const char *name, fst_err *err)
{
    char want[16];
    snprintf(want, sizeof want, " job=%s", name);
    if (strstr(hello, " console=unseen"))
        return fst_errf(err, "--attach=%s --job: the module in that Hercules sees no console line (Hercules was started "
                             "without LD_PRELOAD=/ABS/PATH/lib/fst-hercules313-irq.so, 4.x: fst-hercules4-irq.so): start "
                             "it with the interposer (docs/mvs.md)", o->fifo);
    if (!strstr(hello, want))
        return fst_errf(err, "--attach=%s --job: the module in that Hercules did not take the request for job %s (a "
                             "module older than this fst-capture: '%s'); rebuild it and restart Hercules with it",
                        o->fifo, name, hello);
    return 0;
}

/* from_ipl: the module said no CPU had run when the session began (HELLO's " ran=0"). */
static fst_tw *open_trace(const fst_modattach *o, int arch, int from_ipl, fst_err *err)
{
    fst_kv hdr[] = {
        { FST_HK_SOURCE, "capture" },
        { FST_HK_PROGRAM, o->fifo },
        { FST_HK_COMMAND, o->command },
        { FST_HK_RANGE, "all" },
        { FST_HK_ARCH, fst_arch_name(arch) },
        { FST_HK_TRACEOPT, "none" },
        { FST_HK_CLOCK, "none" },
        { "via", "module" },
        { FST_HK_WINDOW, o->job ? "job" : "attach" },
        /* what follows ends at the first absent key: a job's keys, or where a window began */
        { o->job ? FST_HK_JOB : from_ipl ? FST_HK_WINDOW_START : NULL, o->job ? o->job : "ipl" },
        { o->job && o->console ? FST_HK_JOB_CONSOLE : NULL, o->console },
        { FST_HK_JOB_EDGES, "late (the console file's lines, read as they reached it)" },
        { NULL, NULL },
    };
    fst_tw *w = fst_tw_open(o->out, hdr, err);
    if (w && fst_modpack_fast(0))   /* the system's CPUs are not known here */
        fst_tw_pack_fast(w);
    for (size_t i = 0; w && o->image && i < o->image->n; i++)
        if (fst_tw_image(w, o->image->seg[i].addr, o->image->seg[i].data, o->image->seg[i].len, err)) {
            fst_tw_abandon(w);
            remove_regular(o->out);
            return NULL;
        }
    return w;
}

typedef struct win {
    const fst_modattach *o;
    fst_modattach_result *res;
    int fd;
    fst_tw *w;
    fst_em *em;
    fst_ms *ms;
    fst_modjob *job;    /* --job through the module's console lines, or NULL */
    fst_confile *cf;    /* --job through a console file, or NULL */
    fst_mf mf;          /* the stream from the FIFO, fed with an eye on the clock */
    char what[4200];    /* the FIFO in a read error: "--attach=PATH" */
} win;

/* What the FIFO holds now, waiting at most ms for it, fed until ms after the call at most
** (modfeed.h: a window ends on time). 1 at its end (the module closed it). */
static int pump(win *x, int ms, fst_err *err)
{
    uint64_t deadline = fst_mf_now() + (uint64_t)ms * 1000000ull;
    if (x->mf.off == x->mf.end) {   /* nothing left from the last read: wait for bytes */
        struct pollfd pf = { x->fd, POLLIN, 0 };
        if (poll(&pf, 1, ms) < 0 && errno != EINTR)
            return fst_errno(err, "poll");
    }
    uint64_t had = x->mf.bytes;
    int rc = fst_mf_pump(&x->mf, deadline, err);
    x->res->stream_bytes += x->mf.bytes - had;
    return rc;
}

/* What the module has sent out as the window ends, for 250 ms (a CPU's records leave it
** within 0.1 s: fstmod_stream.c STALE_NS) or until the FIFO's end; at a job's end line (cut), until every
** CPU has reached its own copy of it (the module sends a CPU's records at that line at
** once; a CPU in a wait has nothing on its way). 0, or -1 (err). */
static int drain(win *x, int cut, fst_err *err)
{
    int all = 0;
    for (uint64_t t1 = fst_mf_now(); !(cut && (fst_ms_cut(x->ms, &all), all)) && fst_mf_now() - t1 < 250000000ull;) {
        int rc = pump(x, 50, err);
        if (rc)
            return rc < 0 ? -1 : 0;
    }
    return 0;
}

/* Every CPU in a disabled wait with the window open through a console file: the file may not
** have the job's end line yet (Hercules' logger, or the printer, writes it after the CPU has
** gone on to its wait; on a busy machine well after). It is read for up to CONSOLE_LAG_NS
** more (a signal ends that): 1 when the end line came (the window ended by it, as it would
** have), 0 when not (the system ended before its job did: the trace says disabled-wait),
** -1 (err). */
#define CONSOLE_LAG_NS 2000000000ull
static int console_caught_up(win *x, fst_err *err)
{
    for (uint64_t t1 = fst_mf_now(); fst_mf_now() - t1 < CONSOLE_LAG_NS;) {
        if (fst_confile_poll(x->cf, err))
            return -1;
        if (fst_confile_ended(x->cf))
            return 1;
        if (stopped(x->o))
            break;
        struct timespec ts = { 0, 20000000 };
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* Until what ends the window; its name, or "error". */
static const char *record(win *x, fst_err *err)
{
    const fst_modattach *o = x->o;
    uint64_t t0 = fst_mf_now(), flushed = t0;
    for (;;) {
        const fst_em_stats *st = fst_em_getstats(x->em);
        if (fst_ms_cut(x->ms, NULL))
            return drain(x, 1, err) ? "error" : "job-ended";
        if (x->cf && fst_confile_poll(x->cf, err))
            return "error";
        if (x->cf && fst_confile_ended(x->cf))
            return drain(x, 0, err) ? "error" : "job-ended";
        if (st->ended) {
            int rc = x->cf ? console_caught_up(x, err) : 0;
            return rc < 0 ? "error" : rc ? "job-ended" : "disabled-wait";
        }
        if (st->limit_hit)
            return "max-instructions";
        if (stopped(o))
            return "interrupted";
        if (o->seconds && fst_mf_now() - t0 >= o->seconds * 1000000000ull)
            break;
        int rc = pump(x, 100, err);
        if (rc < 0)
            return "error";
        if (rc > 0)
            return "fifo-closed"; /* Hercules ended, or gave up on this reader (its log says) */
        if (fst_mf_now() - flushed >= (uint64_t)(FST_TW_FLUSH_SECONDS * 1e9)) { /* the window so far reaches its file */
            flushed = fst_mf_now();
            if (fst_tw_flush(x->w, err))
                return "error";
        }
        if (fst_em_failed(x->em)) { /* the writer's own message: where and why */
            if (!fst_tw_flush(x->w, err))
                fst_errf(err, "%s: cannot write the trace", o->out);
            return "error";
        }
    }
    return drain(x, 0, err) ? "error" : "seconds";
}

static void remove_regular(const char *path)
{
    struct stat sb;
    if (!stat(path, &sb) && S_ISREG(sb.st_mode))
        unlink(path);
}

static int close_trace(win *x, const char *end, fst_err *err)
{
    fst_modattach_result *res = x->res;
    char n1[32], n2[32], n3[32], n4[32];
    snprintf(n1, sizeof n1, "%llu", (unsigned long long)res->events);
    snprintf(n2, sizeof n2, "%llu", (unsigned long long)res->stream_bytes);
    snprintf(n3, sizeof n3, "%llu", (unsigned long long)res->code_pages);
    snprintf(n4, sizeof n4, "%llu", (unsigned long long)res->cpus);
    fst_kv ftr[] = { { FST_HK_HERCULES, strstr(res->hello, "hercules4") ? "4.x" : "3.13" }, { "via", "module" },
                     { "module-events", n1 }, { "module-bytes", n2 }, { "module-code-pages", n3 },
                     { "module-cpus-synced", n4 }, { "arch-at-end", fst_arch_name(res->arch) }, { NULL, NULL } };
    res->trace_bytes = fst_tw_bytes(x->w);
    /* a job's window is whole only to the job's end (a window of a running system: to its end) */
    return fst_tw_close(x->w, !x->o->job || !strcmp(end, "job-ended"), end, ftr, err);
}

/* --console=FILE: until its start line is in the file. NULL: it is; else what ended the
** wait (interrupted, seconds, error). */
static const char *await_console(const fst_modattach *o, fst_confile *cf, fst_err *err)
{
    uint64_t t0 = fst_mf_now();
    if (!o->quiet)
        fst_note("%s: waiting for the job %s to start, following %s for its $HASP373 (the window begins when the "
                 "line reaches the file: late by the file's delay and up to 0.2 s more)", o->fifo, o->job, o->console);
    for (;;) {
        if (fst_confile_poll(cf, err))
            return "error";
        if (fst_confile_started(cf))
            return NULL;
        if (stopped(o))
            return "interrupted";
        if (o->seconds && fst_mf_now() - t0 >= o->seconds * 1000000000ull)
            return "seconds";
        struct timespec ts = { 0, 20000000L };
        nanosleep(&ts, NULL);
    }
}

int fst_modattach_run(const fst_modattach *o, fst_modattach_result *res, fst_err *err)
{
    memset(res, 0, sizeof *res);
    res->end = "error";
    win x = { .o = o, .res = res, .fd = -1 };
    int requested = 0;
    uint8_t first[HELLO_MAX];
    size_t nfirst = 0;
    if (o->console) { /* the module sees no line: fst follows the file, attaches at the start line */
        if (!(x.cf = fst_confile_open(o->console, o->job, err)))
            goto fail;
        const char *why = await_console(o, x.cf, err);
        if (why) {
            res->end = why;
            fst_confile_close(x.cf);
            return strcmp(why, "error") ? 0 : -1;
        }
    } else if (o->job && !(x.job = fst_modjob_new(o->job))) {
        fst_errf(err, "--job wants a job name, not '%s'", o->job);
        goto fail;
    }
    /* the request beside the FIFO, before the module can see this reader: the job's, or
    ** none (a stale one must not hold this window back) */
    struct stat sb;
    if (!stat(o->fifo, &sb) && !S_ISFIFO(sb.st_mode)) {
        open_fifo(o, res, err); /* says what it is */
        goto fail;
    }
    if (fst_modjob_request(o->fifo, x.job ? o->job : NULL, err))
        goto fail;
    requested = 1;
    if ((x.fd = open_fifo(o, res, err)) < 0 || await_hello(o, x.fd, first, sizeof first, &nfirst, err))
        goto fail;
    uint32_t hl = (uint32_t)first[4] | (uint32_t)first[5] << 8;
    snprintf(res->hello, sizeof res->hello, "%.*s", (int)(hl - 1), (const char *)first + FSTMOD_CHUNK_HDR + 1);
    if (x.job && job_refused(o, res->hello, fst_modjob_name(x.job), err))
        goto fail;
    /* the architecture the module says Hercules was configured with (ARCHMODE) */
    const char *as = strstr(res->hello, " arch=");
    char an[16] = "S/370";
    if (as)
        sscanf(as + 6, "%15s", an);
    int arch = fst_arch_parse(an);
    if (arch < 0 || arch == FST_ARCH_UNKNOWN) {
        fst_errf(err, "--attach=%s: the module says an architecture fst does not know: '%s'", o->fifo, an);
        goto fail;
    }
    res->arch = arch;
    if (!(x.w = open_trace(o, arch, strstr(res->hello, " ran=0") != NULL, err)))
        goto fail;
    fst_ins none = { 0 };
    x.em = fst_em_new(x.w, o->max);
    x.ms = fst_ms_new(x.em, &none, arch);
    snprintf(x.what, sizeof x.what, "--attach=%s", o->fifo);
    fst_mf_init(&x.mf, x.fd, x.what, x.ms, x.em);
    if (x.job) {
        fst_ms_on_console(x.ms, fst_modjob_line, x.job);
        if (!o->quiet)
            fst_note("%s: waiting for the job %s to start (JES2's $HASP373 %s STARTED): submit it now; the system "
                     "runs at full speed meanwhile", o->fifo, fst_modjob_name(x.job), fst_modjob_name(x.job));
    }
    res->stream_bytes = nfirst;
    const char *end = "error";
    uint64_t t0 = fst_mf_now();
    if (!fst_ms_feed(x.ms, first, nfirst, err))
        end = record(&x, err);
    res->ns = fst_mf_now() - t0;
    close(x.fd); /* the module sees EPIPE at its next write: it detaches */
    x.fd = -1;
    fst_em_finish(x.em);
    const fst_em_stats *st = fst_em_getstats(x.em);
    res->insns = st->insns;
    res->events = fst_ms_events(x.ms);
    res->code_pages = fst_ms_pages(x.ms);
    res->cpus = fst_ms_syncs(x.ms);
    res->held = fst_ms_held(x.ms);
    res->lines = fst_ms_lines(x.ms);
    res->job_started = (x.job && fst_modjob_started(x.job)) || x.cf;
    res->end = end;
    fst_modjob_unrequest(o->fifo);
    int rc = 0;
    if (o->job && !res->job_started && strcmp(end, "error")) {
        /* nothing of the job: no trace (what ended the wait is the caller's to say) */
        fst_tw_abandon(x.w);
        remove_regular(o->out);
    } else if (!strcmp(end, "error")) {
        rc = -1;
        fst_tw_abandon(x.w); /* readable up to its last frame, marked cut short */
        if (!st->insns)
            remove_regular(o->out);
    } else if (close_trace(&x, end, err)) {
        rc = -1;
    }
    fst_mf_free(&x.mf);
    fst_ms_free(x.ms);
    fst_em_free(x.em);
    fst_modjob_free(x.job);
    fst_confile_close(x.cf);
    return rc;
fail:
    if (x.fd >= 0)
        close(x.fd);
    if (requested)
        fst_modjob_unrequest(o->fifo);
    fst_modjob_free(x.job);
    fst_confile_close(x.cf);
    return -1;
}
