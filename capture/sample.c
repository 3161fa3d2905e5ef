/* capture/sample.c — see sample.h. */
#include "capture/sample.h"
#include "capture/emit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int fst_psw_page(const char *body, uint8_t psw[16], unsigned *len)
{
    const char *p = strstr(body, "PSW=");
    if (!p)
        return -1;
    p += 4;
    unsigned n = 0;
    /* words of 8 hex digits separated by single blanks; 2 words (8 bytes) or 4 (16) */
    for (;;) {
        for (int i = 0; i < 8; i++) {
            int h = hexval((unsigned char)p[i]);
            if (h < 0 || n >= 32)
                return -1;
            int l = hexval((unsigned char)p[++i]);
            if (l < 0)
                return -1;
            psw[n / 2] = (uint8_t)(h << 4 | l);
            n += 2;
        }
        p += 8;
        if (*p == ' ' && hexval((unsigned char)p[1]) >= 0)
            p++;
        else
            break;
    }
    if (hexval((unsigned char)*p) >= 0 || (n != 16 && n != 32))
        return -1;
    *len = n / 2;
    return 0;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
    uint64_t n = now_ns();
    if (t <= n)
        return;
    struct timespec ts = { (time_t)((t - n) / 1000000000u), (long)((t - n) % 1000000000u) };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        return; /* a signal: let the hook see it */
}

int fst_sample_run(fst_tw *w, const fst_sample_opts *o, fst_sample_stats *st, const char **end, fst_err *err)
{
    memset(st, 0, sizeof *st);
    *end = "unknown";
    uint64_t period = 1000000000u / (o->hz ? o->hz : FST_SAMPLE_DEFAULT_HZ);
    uint64_t t0 = now_ns(), next = t0, first = 0;
    unsigned misses = 0;
    uint64_t miss_since = 0;
    char body[4096];
    for (;;) {
        if (o->hook) {
            const char *why = o->hook(o->ctx);
            if (why) {
                *end = why;
                return 0;
            }
        }
        if (o->seconds && st->samples + st->out_of_range && now_ns() - first >= o->seconds * 1000000000u) {
            *end = "seconds";
            return 0;
        }
        sleep_until(next);
        uint64_t a = now_ns();
        next = (next + period > a) ? next + period : a + period; /* late: the next goes a period on, no burst */
        size_t blen;
        fst_err e;
        st->requests++;
        int rc = fst_http_get(o->addr, FST_SAMPLE_PATH, o->timeout_ms, body, sizeof body, &blen, &e);
        uint64_t b = now_ns();
        uint8_t psw[16];
        unsigned plen = 0;
        if (!rc && fst_psw_page(body, psw, &plen)) {
            rc = fst_errf(&e, "%s: answered, but not with Hercules' PSW page (no 'PSW=hhhhhhhh hhhhhhhh' in %s): "
                              "is this Hercules' HTTP server?", o->addr->name, FST_SAMPLE_PATH);
        }
        if (rc) {
            int first_one = st->samples + st->out_of_range == 0;
            int refused = strstr(e.msg, "connection refused") != NULL;
            if (first_one && refused && b - t0 < (uint64_t)o->start_ms * 1000000u) {
                next = b + 50 * 1000000u; /* the server is not up yet */
                continue;
            }
            if (first_one) {
                if (refused)
                    return fst_errf(err, "%s (waited %d ms for it)", e.msg, o->start_ms);
                return fst_errf(err, "%s", e.msg);
            }
            st->errors++;
            snprintf(st->last_error, sizeof st->last_error, "%.299s", e.msg);
            if (!misses++)
                miss_since = a;
            /* a few failures and two seconds: time for the hook to see Hercules end */
            if (misses > FST_SAMPLE_MAX_MISSES && b - miss_since > 2000000000u)
                return fst_errf(err, "%s (%u requests in a row failed, for %.1f s)", e.msg, misses,
                                (double)(b - miss_since) / 1e9);
            continue;
        }
        misses = 0;
        uint64_t rtt = b - a;
        st->rtt_ns_sum += rtt;
        if (rtt > st->rtt_ns_max)
            st->rtt_ns_max = rtt;
        uint64_t at = a + rtt / 2 - t0; /* the PSW was read somewhere in the round trip: its middle */
        if (!first)
            first = a;
        uint32_t state = fst_psw_state(psw, (int)plen, o->arch);
        int wait = (state & FST_ST_WAIT) != 0;
        int disabled = wait && !(state & (FST_ST_IOMASK | FST_ST_EXTMASK));
        uint64_t ia = fst_psw_ia(psw, (int)plen);
        if (o->have_range && !wait && (ia < o->lo || ia > o->hi)) {
            st->out_of_range++;
        } else {
            if (fst_tw_state(w, state) || fst_tw_sample(w, at, psw, plen))
                return fst_errf(err, "writing the trace failed");
            st->samples++;
            st->wait_samples += (uint64_t)wait;
        }
        st->ns = at;
        if (disabled && o->until_disabled_wait) {
            st->disabled_wait = 1;
            *end = "disabled-wait";
            return 0;
        }
    }
}
