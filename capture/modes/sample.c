/*
** capture/modes/sample.c — fst-capture --sample: capture/sample/samplecap.c does it; here
** the summary and the exit status (capture/modes/mode.h).
*/
#include "capture/modes/mode_int.h"
#include "capture/sample/samplecap.h"
#include "common/err.h"

#include <string.h>

/* --sample: capture/sample/samplecap.c does it; here the summary and the exit code. */
int fst_capture_sample(fst_capopts *c, const char *program, const fst_ins *ins)
{
    fst_samplecap sc = { 0 };
    sc.out = c->out;
    sc.program = program;
    sc.ins = c->attach ? NULL : ins;
    sc.herc = (fst_herc_opts){ c->hercules, c->arch, NULL, NULL, fst_capture_mainsize(c, ins), 1, 0, NULL,
                               0, 1 }; /* 3.13 and 4.x are driven differently: the banner says which */
    sc.herc.cards = c->cards;
    sc.attach = c->attach;
    sc.allow_remote = c->remote;
    sc.auth_file = c->auth_file;
    sc.hz = c->hz;
    sc.seconds = c->seconds;
    sc.timeout = c->timeout;
    sc.have_range = c->range != NULL;
    sc.lo = c->lo;
    sc.hi = c->hi;
    sc.range = c->range;
    sc.command = c->command;
    sc.stop = &fst_capture_stopsig;
    signal(SIGPIPE, SIG_IGN);
    fst_capture_catch_signals();
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

