/* capture/sample/samplecap.c — see samplecap.h. */
#include "capture/sample/samplecap.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A port nothing listens on now: the kernel's choice for 127.0.0.1:0. Another program
** could take it before Hercules does; then the first request finds a server that does not
** know our password (or is not Hercules), and the capture fails saying so. */
static int free_port(unsigned *port, fst_err *err)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return fst_errno(err, "socket");
    struct sockaddr_in sa = { 0 };
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || getsockname(fd, (struct sockaddr *)&sa, &l) < 0) {
        close(fd);
        return fst_errno(err, "cannot find a free TCP port on 127.0.0.1");
    }
    close(fd);
    *port = ntohs(sa.sin_port);
    return 0;
}

static int random_hex(char *out, size_t nbytes, fst_err *err)
{
    uint8_t b[32];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || nbytes > sizeof b || read(fd, b, nbytes) != (ssize_t)nbytes) {
        if (fd >= 0)
            close(fd);
        return fst_errno(err, "/dev/urandom");
    }
    close(fd);
    for (size_t i = 0; i < nbytes; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    return 0;
}

/* What the hook watches while the sampler runs. */
typedef struct watch {
    const fst_samplecap *sc;
    int fd;                     /* Hercules' log, or -1 */
    fst_herc *herc;             /* own Hercules: its start-up is watched (fst_herc_watch) */
    char line[512];
    size_t ll;
    int wait_seen, eof, http_up, ipl_failed;
    fst_err ipl_err;            /* Hercules' message when the start-up failed */
    double t0;
} watch;

static void log_line(watch *w)
{
    w->line[w->ll] = 0;
    /* messages begin their line, after 4.x's time stamp "hh:mm:ss " (Hercules echoes the
    ** start-up script's "hao tgt HHCCP011I" too: that is not the message) */
    const char *m = w->line;
    if (strlen(m) > 9 && m[2] == ':' && m[5] == ':' && m[8] == ' ')
        m += 9;
    if (!strncmp(m, "HHCCP011I", 9) || !strncmp(m, "HHC00809I", 9))
        w->wait_seen = 1;   /* the disabled wait; the automatic operator quits now */
    if (!strncmp(m, "HHCHT006I", 9) || !strncmp(m, "HHC01803I", 9))
        w->http_up = 1;     /* "Waiting for HTTP requests on port" (4.x: "HTTP server waiting ...") */
    w->ll = 0;
}

/* New bytes of Hercules' log: its stdout (3.13), or its log file (4.x, capture/hercules/herc4.c:
** which also watches its start-up). 0 when none, -1 at its end (w->eof set) or when the
** start-up failed (w->ipl_failed set). */
static ssize_t log_bytes(watch *w, char *buf, size_t cap)
{
    if (w->herc && w->herc->v4) {
        int eof = 0;
        ssize_t n = fst_herc_log(w->herc, buf, cap, &eof, &w->ipl_err);
        if (n < 0) {
            if (w->herc->start_failed)
                w->ipl_failed = 1;
            else
                w->eof = 1; /* the log cannot be read: as if Hercules had ended (it is killed) */
            return -1;
        }
        if (eof)
            w->eof = 1;
        return eof ? -1 : n;
    }
    for (;;) {
        ssize_t n = read(w->fd, buf, cap);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) /* EAGAIN: nothing new */
            return 0;
        if (n == 0) {
            w->eof = 1;
            return -1;
        }
        /* a failed IPL (a piece not loaded, an invalid IPL PSW) leaves a stopped CPU
        ** whose PSW would be sampled until the timeout: it is an error at once, as in
        ** a traced capture */
        if (w->herc && fst_herc_watch(w->herc, buf, (size_t)n, 0, &w->ipl_err))
            w->ipl_failed = 1;
        return n;
    }
}

static const char *hook(void *ctx)
{
    watch *w = ctx;
    if (*w->sc->stop)
        return "interrupted";
    if (w->fd >= 0 && !w->eof && !w->ipl_failed) {
        char buf[8192];
        ssize_t n;
        while ((n = log_bytes(w, buf, sizeof buf)) > 0)
            for (ssize_t i = 0; i < n; i++) {
                if (buf[i] == '\n' || w->ll == sizeof w->line - 1)
                    log_line(w);
                else
                    w->line[w->ll++] = buf[i];
            }
    }
    if (w->ipl_failed)
        return "ipl-failed";
    if (w->wait_seen)
        return "disabled-wait";
    if (w->eof)
        return "hercules-exited";
    if (w->fd >= 0 && w->sc->timeout && now_s() - w->t0 > (double)w->sc->timeout)
        return "timeout";
    return NULL;
}

static int parse_attach(const char *s, char *host, size_t cap, unsigned *port, fst_err *err)
{
    const char *c = strrchr(s, ':');
    char *e;
    if (!c || c == s)
        return fst_errf(err, "--attach wants HOST:PORT, not '%s'", s);
    unsigned long p = strtoul(c + 1, &e, 10);
    if (!c[1] || *e || p < 1 || p > 65535)
        return fst_errf(err, "--attach=%s: '%s' is not a TCP port", s, c + 1);
    size_t n = (size_t)(c - s);
    if (s[0] == '[' && c[-1] == ']') { /* [::1]:8081 */
        s++;
        n -= 2;
    }
    if (n >= cap)
        return fst_errf(err, "--attach=%s: host name too long", s);
    memcpy(host, s, n);
    host[n] = 0;
    *port = (unsigned)p;
    return 0;
}

int fst_samplecap_run(const fst_samplecap *sc, fst_samplecap_result *res, fst_err *err)
{
    memset(res, 0, sizeof *res);
    res->end = "error";
    fst_http_addr addr;
    fst_herc herc = { .proc = { -1, -1, -1 }, .errfd = -1 };
    fst_herc_opts ho = sc->herc;
    char user[17], pass[33], auth[64];
    if (sc->attach) {
        char host[256];
        unsigned port = 0; /* set by parse_attach (gcc -O2 cannot see it) */
        if (parse_attach(sc->attach, host, sizeof host, &port, err) || fst_http_resolve(&addr, host, port, err))
            return -1;
        if (!sc->allow_remote && !fst_http_is_loopback(&addr))
            return fst_errf(err, "--attach=%s: not a loopback address; to sample a Hercules on another machine, "
                                 "say so with --remote", sc->attach);
    } else {
        if (free_port(&ho.httpport, err) || random_hex(user, 8, err) || random_hex(pass, 16, err))
            return -1;
        snprintf(auth, sizeof auth, "%s %s", user, pass);
        ho.httpauth = auth;
        if (fst_http_resolve(&addr, "127.0.0.1", ho.httpport, err) || fst_http_set_auth(&addr, user, pass, err))
            return -1;
    }

    char hz[16];
    snprintf(hz, sizeof hz, "%u", sc->hz);
    fst_kv hdr[] = { { FST_HK_SOURCE, "sample" }, { FST_HK_PROGRAM, sc->attach ? sc->attach : sc->program },
                     { FST_HK_COMMAND, sc->command }, { FST_HK_ARCH, fst_arch_name(ho.arch) },
                     { FST_HK_RANGE, sc->range ? sc->range : "all" }, { FST_HK_CLOCK, "host" },
                     { FST_HK_SAMPLE_HZ, hz }, { NULL, NULL } };
    fst_tw *w = fst_tw_open(sc->out, hdr, err);
    if (!w)
        return -1;
    for (size_t i = 0; sc->ins && i < sc->ins->n; i++)
        if (fst_tw_image(w, sc->ins->seg[i].addr, sc->ins->seg[i].data, sc->ins->seg[i].len, err)) {
            fst_tw_abandon(w);
            unlink(sc->out);
            return -1;
        }
    watch wt = { .sc = sc, .fd = -1, .t0 = now_s() };
    if (!sc->attach) {
        if (fst_herc_start(&herc, &ho, sc->ins, err)) {
            fst_tw_abandon(w);
            unlink(sc->out);
            fst_herc_finish(&herc, NULL, NULL, 0);
            return -1;
        }
        fcntl(herc.proc.out, F_SETFL, fcntl(herc.proc.out, F_GETFL) | O_NONBLOCK);
        wt.fd = herc.v4 ? herc.logfd : herc.proc.out; /* 4.x: -o, its log is a file */
        wt.herc = &herc;
    }
    /* own Hercules: the API when its banner says 4.7+; attached: tried, else the PSW page */
    fst_sample_opts so = { &addr, sc->hz, 2000, sc->attach ? 0 : 20000, ho.arch, sc->attach ? sc->seconds : 0, 1,
                           sc->have_range, sc->lo, sc->hi, hook, &wt,
                           sc->attach ? -1 : fst_herc_has_api(&herc.ver) };
    fst_err serr;
    int rc = fst_sample_run(w, &so, &res->st, &res->end, &serr);
    res->wall = now_s() - wt.t0;
    int status = 0;
    if (!sc->attach) {
        if (rc || strcmp(res->end, "hercules-exited"))
            fst_herc_kill(&herc);
        fst_herc_finish(&herc, &status, res->hercules_said, sizeof res->hercules_said);
        /* no answer and no "Waiting for HTTP requests" in the log while Hercules ran (refused
        ** for start_ms, or the program reached its disabled wait unsampled): a Hercules
        ** without an HTTP server. (One that ended is said below, with what it said.) */
        if (!wt.http_up && res->st.samples == 0 && !wt.ipl_failed &&
            (rc ? strstr(serr.msg, "connection refused") != NULL : !strcmp(res->end, "disabled-wait"))) {
            snprintf(serr.msg, sizeof serr.msg,
                     "Hercules' HTTP server never answered on 127.0.0.1:%u (Hercules did not say 'Waiting for HTTP "
                     "requests'): this Hercules may be built without one (HTTPPORT)%s", ho.httpport,
                     !strcmp(res->end, "disabled-wait") ? "; the program ran to its disabled wait unsampled"
                     : wt.eof ? "; Hercules ended" : "");
            rc = -1;
        }
    }
    /* a disabled wait seen in the log or in a sample ends the program; so does the user's
    ** Ctrl-C or --seconds for an attach (what was asked for) */
    res->complete = !rc && (!strcmp(res->end, "disabled-wait") || (sc->attach && (!strcmp(res->end, "seconds") ||
                                                                                 !strcmp(res->end, "interrupted"))));
    if (!strcmp(res->end, "disabled-wait"))
        res->st.disabled_wait = 1;
    if (!rc && wt.ipl_failed) { /* what was sampled is not the program: no trace */
        fst_tw_abandon(w);
        unlink(sc->out);
        return fst_errf(err, "%s: Hercules failed to start it: %s", sc->program, wt.ipl_err.msg);
    }
    if (res->st.samples == 0) {
        fst_tw_abandon(w);
        unlink(sc->out);
        if (rc)
            return fst_errf(err, "%s", serr.msg);
        if (!sc->attach && !strcmp(res->end, "hercules-exited"))
            return fst_errf(err, "Hercules ended before its HTTP server gave a sample%s%s",
                            res->hercules_said[0] ? "; Hercules said:\n" : "", res->hercules_said);
        return fst_errf(err, "no sample was taken (%s before the first answer)%s%s", res->end,
                        res->hercules_said[0] ? "; Hercules said:\n" : "", res->hercules_said);
    }
    char store[9][32];
    snprintf(store[0], 32, "%llu", (unsigned long long)res->st.wait_samples);
    snprintf(store[1], 32, "%llu", (unsigned long long)res->st.ns);
    snprintf(store[2], 32, "%llu", (unsigned long long)res->st.errors);
    snprintf(store[3], 32, "%llu", (unsigned long long)res->st.out_of_range);
    snprintf(store[4], 32, "%llu", (unsigned long long)res->st.requests);
    snprintf(store[5], 32, "%llu", (unsigned long long)res->st.rtt_ns_median);
    snprintf(store[6], 32, "%llu", (unsigned long long)res->st.rtt_ns_p99);
    snprintf(store[7], 32, "%llu", (unsigned long long)res->st.late);
    snprintf(store[8], 32, "%d", res->st.cr1);
    fst_kv ftr[] = { { "sample-wait-samples", store[0] }, { "sample-ns", store[1] }, { "sample-errors", store[2] },
                     { "sample-out-of-range", store[3] }, { "sample-requests", store[4] },
                     { "sample-rtt-median-ns", store[5] }, { "sample-rtt-p99-ns", store[6] },
                     { "sample-late", store[7] }, { "sample-cr1", store[8] }, { NULL, NULL } };
    const char *end = rc ? "http-error" : res->end;
    if (fst_tw_close(w, res->complete, end, ftr, err))
        return -1;
    if (rc)
        return fst_errf(err, "%s: %s keeps the %llu samples taken before, marked incomplete", serr.msg, sc->out,
                        (unsigned long long)res->st.samples);
    (void)status;
    return 0;
}
