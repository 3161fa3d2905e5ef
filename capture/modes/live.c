/*
** capture/modes/live.c — fst-capture PROGRAM.ins: run a standalone program under Hercules
** with tracing on and trace it to its end (capture/modes/mode.h). Hercules is driven by
** capture/hercules/hercules.h (3.13: its log through a pipe; SDL 4.x: a tf file through a
** FIFO, the banner says which); the trace is written as the log streams in (stream.c).
*/
#include "capture/modes/mode_int.h"
#include "common/err.h"

int fst_capture_live(fst_capopts *c, const char *program, const fst_ins *ins)
{
    fst_capstream s;
    fst_capstream_open(&s, c, program, ins);
    fst_herc herc = { .proc = { -1, -1, -1 }, .errfd = -1 };
    fst_herc_opts ho = { c->hercules, c->arch, c->range, c->traceopt ? c->traceopt : "noregs",
                         fst_capture_mainsize(c, ins), (unsigned)c->numcpu,
                         0, NULL, c->job != NULL, 1 }; /* 3.13 and 4.x: the banner says which */
    ho.cards = c->cards;
    fst_err err;
    if (fst_herc_start(&herc, &ho, ins, &err)) {
        /* nothing is left: no Hercules, no folder, no trace file */
        fst_herc_finish(&herc, NULL, NULL, 0);
        fst_capstream_abandon(&s);
        fst_die_err(&err);
    }
    if (!herc.ver.major)
        fst_warn("'%s' printed no version banner for --help=version: driving it as Hercules 3.13",
                 c->hercules ? c->hercules : "hercules");
    if (c->job && herc.tf) {
        fst_herc_kill(&herc);
        fst_herc_finish(&herc, NULL, NULL, 0);
        fst_capstream_abandon(&s);
        fst_die("--job: this Hercules (%s) traces into a tf file, which has no console lines: run it yourself with "
                "the rules of --job --hao, or give its text log to --from-log --job", herc.ver.text);
    }
    c->pipe_in = herc.tf; /* 4.x: the trace file is a FIFO, whose header is never rewritten */
    s.herc = &herc;
    s.in = herc.proc.out;
    return fst_capstream_run(&s);
}
