/* analyze/replay/replay_win.c — --window=FROM:TO in the replay (analyze/replay/window.h, replay_int.h).
**
** The instructions before the window are replayed for their call state only: the sinks
** other than the call graph are muted (they hear nothing), and at the window's first
** instruction everything the profile counted is dropped, the call graph's open frames
** and arcs too. Then each task's open frames are announced again, bottom first, as CALLs
** that count no call: to the call graph (their inclusive time starts here) and to the
** sinks (a stack that was there when the window opened). At the window's end the open
** frames are closed (RETURN, code 1, as at a trace's end) and the replay stops.
**
** Exact at the instruction: the record loop cuts a SEQ run at an edge and hands the
** edge's instruction to insn() (never insn_fast), after fst_rp_win_edge gave its
** predecessor its EXEC (priced by the edge's instruction, as insn() would); folding is off.
** A CALL made by the instruction before the window (its BALR) comes after that EXEC, so it
** is in the window: a window that starts at a routine's entry counts that call.
** Several CPUs: another CPU's last instruction before the edge is priced only by its
** successor, which comes after the edge. When it cannot branch its price does not depend on
** that: its EXEC comes at the edge (as at a gap, analyze/replay/replay.c other()); when it is a
** branch the window cannot be cut there exactly, and the replay stops with an error.
*/
#include "analyze/replay/replay_int.h"
#include "analyze/replay/window.h"

#include <stdlib.h>
#include <string.h>

void fst_rp_win_init(rp *x)
{
    const fst_window *w = x->o->window;
    if (!w)
        return;
    x->win = 1;
    x->win_edge = w->from;
    x->win_nsinks = x->nsinks;
    x->nsinks = 1;      /* the call graph alone, until the window opens */
    fst_profile *p = x->p;
    p->window = 1;
    p->win_from = w->from;
    p->win_to = w->to;
    memcpy(p->win_spec, w->spec, sizeof p->win_spec);
}

void fst_rp_win_nofold(rp *x)
{
    if (!x->win)
        return;
    x->fold.on = 0;
    x->fold.quiet = x->fold.seen = UINT64_MAX;
}

/* Everything the profile counted: dropped (its routines, tasks and the model's fit stay). */
static void drop_figures(rp *x)
{
    fst_profile *p = x->p;
    for (size_t i = 0; i < p->nr; i++) {
        fst_routine *r = &p->r[i];
        r->calls = r->self_insns = r->incl_insns = r->calls_unc = r->self_unc = 0;
        r->self_cost = r->incl_cost = 0;
        r->entered = 0;
    }
    for (size_t t = 0; t < p->ntasks; t++) {
        fst_taskprof *tp = &p->tasks[t];
        tp->insns = tp->problem_insns = 0;
        tp->cost = 0;
        if (tp->r)
            memset(tp->r, 0, p->nr * sizeof *tp->r);
    }
    p->total_insns = p->outside_insns = p->excluded_insns = 0;
    p->total_cost = p->outside_cost = p->excluded_cost = 0;
    p->pgmchks = p->intrs = p->svcs = p->waits = p->unwinds = p->open_frames = 0;
    memset(p->op_insns, 0, fst_op_count() * sizeof *p->op_insns);
    p->nundecoded = 0;
    p->dispatches = p->new_tasks = p->guessed = p->intr_in_routine = p->guess_left = p->guessed_same = 0;
    p->inferred = p->redirected = p->reflected = p->unc_dispatches = p->unc_insns = p->unc_calls = p->settled = 0;
    /* a guess not settled yet: what it would take back is what was before it, none of the
    ** window's (replay_unc.c) */
    rp_tent *k = &x->tent;
    if (k->unc)
        memset(k->unc, 0, (2 * p->nr + 1) * sizeof *k->unc);
    k->dispatches = k->calls = k->insns = 0;
}

/* The frames open in task tid, announced again: CALLs that count no call. */
static void announce(rp *x, size_t tid, uint16_t cpuno)
{
    rp_task *t = &x->t[tid];
    size_t n = t->n;
    for (size_t k = 0; k < n; k++) {
        fst_event *e = &x->fev;
        e->kind = FST_EV_CALL;
        e->cpu = cpuno;
        e->routine = t->routine[k];
        e->owner = t->f[k].owner;
        e->caller = k ? t->f[k - 1].owner : FST_NONE;
        e->counted = 0;
        e->site = 0;
        e->ret = t->f[k].ret;
        e->code = 0;
        t->n = k + 1;   /* the event's stack: the frames up to this one */
        fst_rp_emit_frame(x, e, tid);
    }
    t->n = n;
}

static void open_window(rp *x, uint16_t cpuno)
{
    fst_rp_flush_all(x);
    fst_code_fold(x->code);     /* the blocks' counts, into the instruction mix dropped next */
    drop_figures(x);
    fst_callgraph_restart(x->cg);
    for (size_t k = 0; k <= FST_EV_MARK + 1; k++)
        free(x->want[k]);
    x->nsinks = x->win_nsinks;
    fst_rp_sort_sinks(x);
    for (size_t tid = 0; tid < x->nt; tid++)
        announce(x, tid, cpuno);
    x->win_open = 1;
    x->win_edge = x->o->window->to;
}

static void close_window(rp *x, uint16_t cpuno)
{
    for (size_t tid = 0; tid < x->nt; tid++)
        while (x->t[tid].n)
            fst_rp_pop(x, tid, cpuno, FST_EV_RETURN, 1);
}

int fst_rp_win_edge(rp *x, const fst_rec *rec)
{
    rp_cpu *c = cpu_of(x, rec->cpu);
    if (c->have_prev) {     /* as insn() begins */
        int can = (c->prev.flags & FST_I_CANBRANCH) != 0;
        exec_prev(x, c, rec->cpu, !can ? 0 : c->intr ? FST_TAKEN_UNKNOWN : taken_to(&c->prev, rec->addr));
    }
    for (size_t i = 0; i < x->ncpu; i++) {  /* another CPU's last instruction, taken before the edge */
        rp_cpu *o = &x->cpus[i];
        if (!o->have_prev)
            continue;
        if (o->prev.flags & FST_I_CANBRANCH) {  /* its price waits for its successor */
            x->win_cpus = 1;
            x->win_cpu = (uint16_t)i;
            x->win_addr = o->prev.addr;
            return 1;
        }
        exec_prev(x, o, (uint16_t)i, 0);    /* no branch: priced exactly now */
    }
    if (!x->win_open) {
        open_window(x, rec->cpu);
        return 0;
    }
    close_window(x, rec->cpu);
    return 1;
}

int fst_rp_win_end(rp *x, fst_err *err)
{
    if (!x->win)
        return 0;
    const fst_window *w = x->o->window;
    if (x->win_cpus)
        return fst_errf(err, "--window=%s: at instruction %llu, CPU %u's last instruction (at %llX) is a branch whose "
                        "successor, which says whether it was taken and so what it cost, comes after the edge: the "
                        "window cannot be cut there exactly (a trace of several CPUs: try an edge a few instructions "
                        "away)", w->spec, (unsigned long long)x->win_at, (unsigned)x->win_cpu,
                        (unsigned long long)x->win_addr);
    if (x->win_open && x->win_edge == x->win_at) {
        x->p->complete = 1; /* stopped at the window's end: all of it was there */
        x->p->incomplete[0] = 0;
        return 0;
    }
    return fst_window_check(w, x->win_at, err);
}
