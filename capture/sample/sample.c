/* capture/sample/sample.c — see sample.h. */
#include "capture/sample/sample.h"
#include "capture/read/emit.h"
#include "common/hex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int fst_psw_page(const char *body, uint8_t psw[16], unsigned *len)
{
    const char *p = strstr(body, "PSW=");
    if (!p)
        return -1;
    p += 4;
    unsigned n = 0; /* bytes */
    /* words of 8 hex digits separated by single blanks; 2 words (8 bytes) or 4 (16) */
    for (;;) {
        if (n >= 16 || strnlen(p, 8) < 8 || !fst_hex8_bytes(p, psw + n))
            return -1;
        n += 4;
        p += 8;
        if (*p == ' ' && fst_hexval((unsigned char)p[1]) >= 0)
            p++;
        else
            break;
    }
    if (fst_hexval((unsigned char)*p) >= 0 || (n != 8 && n != 16))
        return -1;
    *len = n;
    return 0;
}

/* "KEY": "hex" at or after p, within [p, end): the value's hex digits (their count in *n),
** or NULL. */
static const char *json_hex(const char *p, const char *end, const char *key, size_t *n)
{
    size_t kl = strlen(key);
    for (const char *q = p; q && q + kl < end; q = memchr(q + 1, '"', (size_t)(end - q - 1))) {
        if (*q != '"' || strncmp(q + 1, key, kl) || q[1 + kl] != '"')
            continue;
        const char *v = q + 2 + kl;
        while (v < end && (*v == ':' || *v == ' '))
            v++;
        if (v >= end || *v != '"')
            return NULL;
        v++;
        size_t k = 0;
        while (v + k < end && fst_hexval((unsigned char)v[k]) >= 0)
            k++;
        if (v + k >= end || v[k] != '"')
            return NULL;
        *n = k;
        return v;
    }
    return NULL;
}

int fst_cpus_page(const char *body, size_t len, unsigned *cpu, uint8_t psw[16], unsigned *pswlen, uint64_t *cr1,
                  size_t *bad)
{
    const char *end = body + len, *p = strstr(body, "{\"cpus\":[");
    *bad = 0;
    if (!p)
        return -1;
    for (p = strstr(p, "\"cpuid\":\"CPU"); p && p + 13 < end; p = strstr(p + 1, "\"cpuid\":\"CPU")) {
        *bad = (size_t)(p - body);
        const char *next = strstr(p + 1, "\"cpuid\":\"CPU");
        const char *oe = next && next < end ? next : end; /* this CPU's object (len bounds it too) */
        unsigned k = 0;
        const char *d = p + 13;
        while (d < oe && *d >= '0' && *d <= '9' && k < 100000)
            k = k * 10 + (unsigned)(*d++ - '0');
        if (d == p + 13 || d >= oe || *d != '"')
            return -1;
        const char *on = strstr(d, "\"online\":");
        if (!on || on >= oe)
            return -1;
        on += 9;
        while (on < oe && *on == ' ')
            on++;
        if (!strncmp(on, "false", 5))
            continue;
        if (strncmp(on, "true", 4))
            return *bad = (size_t)(on - body), -1;
        size_t np, nc;
        const char *h = json_hex(on, oe, "PSW", &np); /* 16 hex digits, z/Arch 32 */
        if (!h || (np != 16 && np != 32))
            return *bad = (size_t)((h ? h : on) - body), -1;
        for (size_t i = 0; i < np / 8; i++)
            if (!fst_hex8_bytes(h + 8 * i, psw + 4 * i))
                return *bad = (size_t)(h - body), -1;
        const char *crs = strstr(h, "\"control_registers\":{");
        const char *c1 = crs && crs < oe ? json_hex(crs, oe, "CR1", &nc) : NULL; /* 8, z/Arch 16 */
        if (!c1 || (nc != 8 && nc != 16))
            return *bad = (size_t)((c1 ? c1 : crs && crs < oe ? crs : h) - body), -1;
        uint64_t v = 0;
        for (size_t i = 0; i < nc; i++)
            v = v << 4 | (uint64_t)fst_hexval((unsigned char)c1[i]);
        *cpu = k;
        *pswlen = (unsigned)np / 2;
        *cr1 = v;
        return 0;
    }
    *bad = len;
    return -1;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleep until the absolute time t: the time spent before the call (a request, the hook)
** does not add to the period. A signal ends the sleep early, so that the hook sees it. */
static void sleep_until(uint64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };
    (void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

uint64_t fst_sample_next(uint64_t *sched, uint64_t period, uint64_t now)
{
    *sched += period;
    if (*sched + FST_SAMPLE_MAX_DEBT_NS < now) /* far behind (a stall): forgive the older debt */
        *sched = now - FST_SAMPLE_MAX_DEBT_NS;
    uint64_t soonest = now + period / 2;       /* behind: catch up at twice the rate at most */
    return *sched > soonest ? *sched : soonest;
}

/* Round trips in 50 us buckets; the last holds 50 ms and more. */
#define RTT_BUCKET_NS 50000u
#define RTT_BUCKETS 1001

static uint64_t rtt_quantile(const uint32_t *h, uint64_t n, unsigned permille)
{
    if (!n)
        return 0;
    uint64_t want = (n * permille + 999) / 1000, seen = 0; /* the smallest bucket holding that many */
    for (unsigned i = 0; i < RTT_BUCKETS; i++)
        if ((seen += h[i]) >= want)
            return (uint64_t)i * RTT_BUCKET_NS + RTT_BUCKET_NS / 2;
    return (uint64_t)RTT_BUCKETS * RTT_BUCKET_NS;
}

static int run_loop(fst_tw *w, const fst_sample_opts *o, fst_sample_stats *st, const char **end, uint32_t *hist,
                    fst_err *err)
{
    uint64_t period = 1000000000u / (o->hz ? o->hz : FST_SAMPLE_DEFAULT_HZ);
    uint64_t start = now_ns(), sched = start, go = start, t0 = 0;
    int have_first = 0;
    unsigned misses = 0;
    uint64_t miss_since = 0;
    int api = o->api;
    uint64_t cr1_now = 0;
    int cr1_written = 0;
    unsigned cpu_now = 0;
    size_t cap = 1u << 18; /* the API: ~1 KB a CPU, up to 128 CPUs (a PSW page: ~1 KB) */
    char *body = fst_xmalloc(cap);
    int rc_loop = 0;
    for (;;) {
        if (o->hook) {
            const char *why = o->hook(o->ctx);
            if (why) {
                *end = why;
                break;
            }
        }
        if (o->seconds && have_first && now_ns() - t0 >= o->seconds * 1000000000u) {
            *end = "seconds";
            break;
        }
        sleep_until(go);
        uint64_t a = now_ns();
        if (a < go) /* a signal woke us: let the hook look at it first */
            continue;
        if (have_first && a > sched + period)
            st->late++;
        go = fst_sample_next(&sched, period, a);
        size_t blen;
        fst_err e;
        st->requests++;
        int rc = fst_http_get(o->addr, api ? FST_SAMPLE_API_PATH : FST_SAMPLE_PATH, o->timeout_ms, body, cap, &blen,
                              &e);
        uint64_t b = now_ns();
        uint8_t psw[16];
        unsigned plen = 0, cpu = 0;
        uint64_t cr1 = 0;
        size_t bad = 0;
        int api_bad = !rc && api && fst_cpus_page(body, blen, &cpu, psw, &plen, &cr1, &bad);
        if (api < 0 && !have_first && ((rc && strstr(e.msg, "HTTP status 404")) || api_bad)) {
            api = 0; /* no API (3.13, a 4.x before 4.7; a server that answers anything with one
                     ** page): the PSW page, no CR1 */
            st->requests--;
            go = sched = b;
            continue;
        }
        if (api_bad) {
            rc = fst_errf(&e, "%s: %s, byte %zu: %s", o->addr->name, FST_SAMPLE_API_PATH, bad,
                          bad >= blen ? "no CPU is online"
                                      : "not the JSON of SDL Hercules 4.7+ ({\"cpus\":[{\"cpuid\":\"CPU0000\",\"online\": "
                                        "true,... \"PSW\": \"hex\",... \"CR1\": \"hex\"...)");
        } else if (!rc && !api && fst_psw_page(body, psw, &plen)) {
            rc = fst_errf(&e, "%s: answered, but not with Hercules' PSW page (no 'PSW=hhhhhhhh hhhhhhhh' in %s): "
                              "is this Hercules' HTTP server?", o->addr->name, FST_SAMPLE_PATH);
        }
        if (rc) {
            int refused = strstr(e.msg, "connection refused") != NULL;
            if (!have_first && refused && b - start < (uint64_t)o->start_ms * 1000000u) {
                go = sched = b + 50 * 1000000u; /* the server is not up yet */
                continue;
            }
            if (!have_first) {
                if (refused)
                    fst_errf(err, "%s (waited %d ms for it)", e.msg, o->start_ms);
                else
                    fst_errf(err, "%s", e.msg);
                rc_loop = -1;
                break;
            }
            st->errors++;
            snprintf(st->last_error, sizeof st->last_error, "%.299s", e.msg);
            if (!misses++)
                miss_since = a;
            /* a few failures and two seconds: time for the hook to see Hercules end */
            if (misses > FST_SAMPLE_MAX_MISSES && b - miss_since > 2000000000u) {
                fst_errf(err, "%s (%u requests in a row failed, for %.1f s)", e.msg, misses,
                         (double)(b - miss_since) / 1e9);
                rc_loop = -1;
                break;
            }
            continue;
        }
        misses = 0;
        uint64_t rtt = b - a;
        st->rtt_ns_sum += rtt;
        if (rtt > st->rtt_ns_max)
            st->rtt_ns_max = rtt;
        hist[rtt / RTT_BUCKET_NS < RTT_BUCKETS ? rtt / RTT_BUCKET_NS : RTT_BUCKETS - 1]++;
        /* host time counts from the first answered request: Hercules' start-up before
        ** it is not the program's time */
        if (!have_first) {
            have_first = 1;
            t0 = a;
        }
        uint64_t at = a + rtt / 2 - t0; /* the PSW was read somewhere in the round trip: its middle */
        uint32_t state = fst_psw_state(psw, (int)plen, o->arch);
        int wait = (state & FST_ST_WAIT) != 0;
        int disabled = wait && !(state & (FST_ST_IOMASK | FST_ST_EXTMASK));
        uint64_t ia = fst_psw_ia(psw, (int)plen);
        if (o->have_range && !wait && (ia < o->lo || ia > o->hi)) {
            st->out_of_range++;
        } else {
            /* the API: the CPU sampled and its CR1, as records before the sample when
            ** they change (the reader keeps them in force, as for a traced CR1) */
            int bad_write = api && cpu != cpu_now && fst_tw_cpu(w, cpu);
            cpu_now = api ? cpu : cpu_now;
            if (!bad_write && api && (!cr1_written || cr1 != cr1_now))
                bad_write = fst_tw_cr(w, 1, cr1);
            if (api) {
                cr1_now = cr1;
                cr1_written = 1;
                st->cr1 = 1;
                st->cpu = cpu;
            }
            if (bad_write || fst_tw_state(w, state) || fst_tw_sample(w, at, psw, plen)) {
                fst_errf(err, "writing the trace failed");
                rc_loop = -1;
                break;
            }
            st->samples++;
            st->wait_samples += (uint64_t)wait;
        }
        st->ns = at;
        if (disabled && o->until_disabled_wait) {
            st->disabled_wait = 1;
            *end = "disabled-wait";
            break;
        }
    }
    free(body);
    return rc_loop;
}

int fst_sample_run(fst_tw *w, const fst_sample_opts *o, fst_sample_stats *st, const char **end, fst_err *err)
{
    memset(st, 0, sizeof *st);
    *end = "unknown";
    uint32_t *hist = fst_xcalloc(RTT_BUCKETS, sizeof *hist);
    int rc = run_loop(w, o, st, end, hist, err);
    uint64_t n = 0;
    for (unsigned i = 0; i < RTT_BUCKETS; i++)
        n += hist[i];
    st->rtt_ns_median = rtt_quantile(hist, n, 500);
    st->rtt_ns_p99 = rtt_quantile(hist, n, 990);
    free(hist);
    return rc;
}
