/*
** capture/modes/module.c — fst-capture --via=module PROGRAM.ins: the program run under
** Hercules 3.13 with fst's module inside it instead of a text trace (capture/modread/
** modcap.h, docs/module.md); here the summary and the exit status, or -1 when the module
** cannot record (said in one warning line) and the caller takes the text trace instead.
*/
#include "capture/modes/mode_int.h"
#include "capture/modread/modattach.h"
#include "capture/modread/modcap.h"
#include "common/err.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int fst_capture_module(fst_capopts *c, const char *program, const fst_ins *ins)
{
    signal(SIGPIPE, SIG_IGN);
    fst_capture_catch_signals();
    /* --module=PATH: that one, whichever Hercules runs (HDL refuses one built for another) */
    char *mod = c->module ? realpath(c->module, NULL) : fst_modcap_default_module("fst-hercules313.so");
    char *mod4 = c->module ? (mod ? strdup(mod) : NULL) : fst_modcap_default_module("fst-hercules4.so");
    if (c->module && !mod)
        fst_warn("--module=%s: %s", c->module, strerror(errno));
    fst_modcap mc = { c->out, program, c->command, c->hercules, mod, mod4, ins, c->arch,
                      fst_capture_mainsize(c, ins), (unsigned)c->numcpu, c->timeout, c->max, &fst_capture_stopsig,
                      c->cards, FST_PGMLOOP_CHECKS, c->job };
    fst_modcap_result res;
    fst_err err;
    int rc = fst_modcap_run(&mc, &res, &err);
    free(mod);
    free(mod4);
    if (rc == 1) {
        if (c->via_given)
            fst_warn("--via=module: %s; taking Hercules' text trace instead", res.fallback);
        else
            fst_warn("fst's module cannot record here: %s; taking Hercules' text trace (--via=trace), about 1 000 "
                     "times slower", res.fallback);
        return -1;
    }
    if (rc < 0 && res.start_failed) { /* the text route's words (capture/modes/stream.c) */
        fst_error("%s: Hercules failed to start it: %s", program, err.msg);
        return FST_EXIT_FAIL;
    }
    if (rc < 0) {
        fst_error("%s%s%s", err.msg, res.said[0] ? "; Hercules said:\n" : "", res.said);
        return FST_EXIT_FAIL;
    }
    if (!strcmp(res.end, "program-check-loop"))
        return fst_capture_pgmloop(c, program, (unsigned long long)res.pgmchks, (unsigned long long)res.insns);
    if (c->job && !res.job_started) { /* the text route's words (capture/modes/stream.c) */
        char o[FST_JOBWIN_OTHER + 80];
        fst_capture_remove(c->out);
        fst_error("%s: no '$HASP373 %s STARTED' in %llu lines of its console (ended by %s%s): no trace (is it the "
                  "job's name?)", program, c->job, (unsigned long long)res.lines, res.end,
                  fst_capture_job_other(res.job_other, res.job_first, (unsigned long long)res.lines, o, sizeof o));
        return !strcmp(res.end, "interrupted") ? FST_EXIT_INTR : FST_EXIT_FAIL;
    }
    if (!res.complete) {
        fst_error("%s: %s holds the first %llu instructions and is marked incomplete",
                  !strcmp(res.end, "timeout") ? "timed out" : res.end, c->out, (unsigned long long)res.insns);
        return !strcmp(res.end, "interrupted") ? FST_EXIT_INTR : FST_EXIT_FAIL;
    }
    if (!c->quiet && c->job)
        fst_note("%s: the job %s, from its $HASP373 to its $HASP395 on the program's console", c->out, c->job);
    if (!c->quiet)
        fst_note("%s: %llu instructions, %llu program checks, %llu waits, ended by %s; %.3g bytes/instruction%s "
                 "(fst's module: %llu events, %llu stream bytes, %llu code pages)",
                 c->out, (unsigned long long)res.insns, (unsigned long long)res.pgmchks, (unsigned long long)res.waits,
                 res.end, res.insns ? (double)res.trace_bytes / (double)res.insns : 0.0,
                 res.packed_fast ? ", packed fast (few cores: FST_TRACE_PACK=small packs smaller)" : "",
                 (unsigned long long)res.events, (unsigned long long)res.stream_bytes,
                 (unsigned long long)res.code_pages);
    return FST_EXIT_OK;
}

/* --via=module --attach=FIFO: capture/modread/modattach.c does it; here the summary and the
** exit status, as --sample --attach has them: Ctrl-C ends a window without --seconds (exit
** 0), cuts one with --seconds short (the trace kept, exit 130). */
int fst_capture_modattach(fst_capopts *c, const fst_ins *ins)
{
    signal(SIGPIPE, SIG_IGN);
    fst_capture_catch_signals();
    fst_modattach o = { c->out, c->attach, c->command, c->seconds, c->max, c->timeout_given ? c->timeout : 10,
                        &fst_capture_stopsig, ins, c->job, c->console, c->quiet };
    fst_modattach_result res;
    fst_err err;
    int rc = fst_modattach_run(&o, &res, &err);
    if (strstr(res.hello, "interruptions=unseen"))
        fst_warn("%s: the module in that Hercules sees no external or I/O interruption (Hercules was started "
                 "without LD_PRELOAD of its fst-hercules*-irq.so): a window of a system that takes them ends at the "
                 "first with an error", c->attach);
    if (rc) {
        fst_error("%s", err.msg);
        return FST_EXIT_FAIL;
    }
    if (res.held)
        fst_warn("%s: %llu bytes of records of CPUs that never said where they were are not in it (a CPU started "
                 "by SIGP restart before the window)", c->out, (unsigned long long)res.held);
    double secs = (double)res.ns / 1e9;
    if (c->job && !res.job_started) {
        fst_error("%s --job=%s: the job did not start while fst-capture waited (%.1f s, ended by %s: %s); no trace "
                  "(attach before submitting the job)", c->attach, c->job, secs,
                  !strcmp(res.end, "interrupted") ? "a signal (Ctrl-C)" : res.end,
                  !strcmp(res.end, "fifo-closed") ? "Hercules ended, or its module gave up" : "nothing recorded");
        return !strcmp(res.end, "interrupted") ? FST_EXIT_INTR : FST_EXIT_FAIL;
    }
    if (c->job && strcmp(res.end, "job-ended")) {
        fst_error("%s: the job %s started but its window was cut by %s before it ended: the trace holds its first "
                  "%llu instructions and is marked so (end=%s)", c->out, c->job,
                  !strcmp(res.end, "interrupted") ? "a signal (Ctrl-C)" : res.end, (unsigned long long)res.insns,
                  res.end);
        return !strcmp(res.end, "interrupted") ? FST_EXIT_INTR : FST_EXIT_FAIL;
    }
    if (!c->quiet) {
        if (res.made_fifo)
            fst_note("%s: made the FIFO (it stays, for the next attach)", c->attach);
        if (c->job)
            fst_note("%s: the job %s, from its $HASP373 to its $HASP395 (its first run since the attach; for a later "
                     "run, attach again)%s", c->out, c->job,
                     c->console ? "; the edges as late as the console file was (job-edges=late)" : "");
        fst_note("%s: %s: %llu instructions in %.2f s from %llu CPU%s, ended by %s "
                 "(fst's module: %s; %llu events, %llu stream bytes, %llu code pages)",
                 c->out, c->job ? "the job's window" : "a window of the running system", (unsigned long long)res.insns,
                 secs, (unsigned long long)res.cpus, res.cpus == 1 ? "" : "s",
                 !strcmp(res.end, "interrupted") ? "a signal (Ctrl-C)" : res.end, res.hello,
                 (unsigned long long)res.events, (unsigned long long)res.stream_bytes,
                 (unsigned long long)res.code_pages);
    }
    if (!strcmp(res.end, "interrupted") && c->seconds) {
        fst_error("interrupted after %.2f of the %llu s asked: %s holds the window recorded so far", secs,
                  (unsigned long long)c->seconds, c->out);
        return FST_EXIT_INTR;
    }
    return FST_EXIT_OK;
}
