/*
** capture/sample/sample.h — LOGTIME for Hercules: sample the PSW of a running Hercules through
** its HTTP server (GET /cgi-bin/registers/psw) at a steady rate, and write each sample
** into a trace (trace/tracebin.h, op SAMPLE, with the state word before it).
**
** What a sample measures: where the emulated CPU was when Hercules' HTTP thread looked,
** so samples fall where Hercules spends *host* time, not where the modelled 370 spends
** its time (an instruction Hercules emulates slowly collects more samples than its
** 370 cost says). Reports say so.
**
** Hercules' answer is an HTML page with a line "PSW=hhhhhhhh hhhhhhhh" (S/370, ESA/390;
** 16-byte PSWs in four words). fst_psw_page parses it; anything else is not Hercules' page.
**
** The loop (fst_sample_run) asks on a fixed schedule of absolute deadlines, one every
** 1/hz s from the first request (clock_nanosleep TIMER_ABSTIME on CLOCK_MONOTONIC, so
** the time a request takes does not stretch the period). A late request (a slow answer,
** the host busy) is caught up without a burst: the requests after it go at most twice as
** often as asked until the schedule is met again, and a debt of more than a quarter of a
** second is forgiven (a host that stalled for that long is not made up for by a train of
** requests then). Hercules 3.13 closes the connection after each answer ("Connection:
** close", HTTP/1.0 even when asked for keep-alive), so each sample is one connection; its
** round trip is measured (median and 99th percentile in the stats). The loop runs until:
**   - a sample shows a disabled wait (wait bit, I/O and external interruptions masked):
**     the program ended; end = "disabled-wait", complete;
**   - `seconds` have passed (end = "seconds", complete: what was asked for);
**   - the caller's hook says so (Hercules ended, Ctrl-C): end = what the hook returns;
**   - the server stops answering or answers what is not a PSW page: -1 with err set.
** Before the first sample, connection refused is retried for `start_ms` (Hercules opens
** its port some time after it starts); any other failure of the first request is an
** error at once (a server that is not Hercules, a garbage or slow answer). After it,
** requests may fail (counted in `errors`) until more than FST_SAMPLE_MAX_MISSES in a row
** have failed over more than two seconds: then it is an error (the hook has had the time
** to see that Hercules ended, which is not one).
** A sample whose PSW has the wait bit is written all the same (a wait PSW, where the CPU
** waited) and counted in `wait_samples`: reports count waits apart, as LOGTIME did.
**
** Ownership: the caller owns w and closes it (complete or not) after the run.
** Errors: -1 with err set (the message names HOST:PORT); samples written before stay in w.
*/
#ifndef FST_SAMPLE_H
#define FST_SAMPLE_H

#include "capture/hercules/http.h"
#include "trace/tracebin.h"
#include "common/err.h"

#include <stdint.h>

#define FST_SAMPLE_PATH "/cgi-bin/registers/psw"
/* SDL Hercules 4.7 and later: every CPU's PSW, registers and CR0-CR15 as JSON in one
** answer (each CPU's read as it runs: not a snapshot of the machine). A sample from it
** carries CR1, the address space (written as a CR record before it when it changed), so
** that fst-report --space splits a sampled whole system by address space. 3.13 and a
** 4.x before 4.7 answer 404: their samples carry no CR1. */
#define FST_SAMPLE_API_PATH "/cgi-bin/api/v1/cpus"
#define FST_SAMPLE_DEFAULT_HZ 300   /* LOGTIME's rate (seed 003) */
#define FST_SAMPLE_MAX_MISSES 5

/* The schedule: *sched is the deadline of the request that went at `now` (nanoseconds,
** CLOCK_MONOTONIC); it becomes the next one's, a period on (never more than
** FST_SAMPLE_MAX_DEBT_NS behind now: an old debt is forgiven). Returns when the next
** request goes: its deadline, but not before now + period/2 (catching up, no burst). */
#define FST_SAMPLE_MAX_DEBT_NS 250000000u
uint64_t fst_sample_next(uint64_t *sched, uint64_t period, uint64_t now);

/* Parse Hercules' PSW page: 0 with psw/len (8 or 16) set, -1 when there is no PSW line. */
int fst_psw_page(const char *body, uint8_t psw[16], unsigned *len);
/* Parse 4.x's /api/v1/cpus answer: the first online CPU's number, PSW (len 8 or 16) and
** CR1. 0, or -1 with *bad the byte offset where the answer is not what Hercules writes
** ({"cpus":[{"cpuid":"CPU0000","online": true, ... "PSW": "hex", ...
** "control_registers":{"CR0": "hex","CR1": "hex", ...}, ...}, ...]}) or, when no CPU is
** online, its length. */
int fst_cpus_page(const char *body, size_t len, unsigned *cpu, uint8_t psw[16], unsigned *pswlen, uint64_t *cr1,
                  size_t *bad);

typedef struct fst_sample_opts {
    const fst_http_addr *addr;
    unsigned hz;                /* requests a second (1..10000) */
    int timeout_ms;             /* one request, connect to last byte */
    int start_ms;               /* how long "connection refused" is retried before the first sample */
    int arch;                   /* FST_ARCH_* of an 8-byte PSW */
    uint64_t seconds;           /* stop after this many seconds (0 = no limit) */
    int until_disabled_wait;    /* stop at a disabled wait */
    int have_range;             /* write only samples whose address is in [lo, hi] (others counted) */
    uint64_t lo, hi;
    /* called between requests (and while waiting): NULL to go on, or why to stop */
    const char *(*hook)(void *ctx);
    void *ctx;
    int api;                    /* 1: ask FST_SAMPLE_API_PATH (4.7+: CR1 with each sample);
                                   0: the PSW page; -1: the API, or the PSW page when the
                                   server answers 404 to it (an attached Hercules) */
} fst_sample_opts;

typedef struct fst_sample_stats {
    uint64_t requests, samples, wait_samples, out_of_range, errors;
    uint64_t ns;                /* host time from the first answered request's start to the last sample */
    uint64_t rtt_ns_sum, rtt_ns_max; /* request round trips */
    uint64_t rtt_ns_median, rtt_ns_p99; /* from a histogram of 50 us buckets (the last: 50 ms and more) */
    uint64_t late;              /* requests that went more than a period after their deadline */
    int disabled_wait;
    int cr1;                    /* the samples carry CR1 (asked through the API) */
    unsigned cpu;               /* the CPU sampled (the first online one; the API) */
    char last_error[300];     /* the last failed request's error (errors > 0) */
} fst_sample_stats;

int fst_sample_run(fst_tw *w, const fst_sample_opts *o, fst_sample_stats *st, const char **end, fst_err *err);

#endif
