/* analyze/replay_exec.c — the replayer's EXECs (replay_int.h): pending per CPU and added
** up in bulk, events to the sinks that want them, SEQ runs a block at a time. */
#include "analyze/replay_int.h"

#include <stdlib.h>
#include <string.h>

static const size_t no_stack[1];

rp_cpu *fst_rp_cpu_grow(rp *x, uint16_t n)
{
    size_t m = (size_t)n + 1;
    x->cpus = fst_xrealloc(x->cpus, m * sizeof *x->cpus);
    memset(x->cpus + x->ncpu, 0, (m - x->ncpu) * sizeof *x->cpus);
    for (size_t i = x->ncpu; i < m; i++)
        x->cpus[i].task = x->cpus[i].prev_task = FST_NONE;
    x->ncpu = m;
    return &x->cpus[n];
}

/* The EXECs pending on c: to the task's clock (events.h) and the call graph's profile. */
void fst_rp_flush(rp *x, rp_cpu *c)
{
    if (c->nbatch)  /* the last of the pending EXECs: emitted with the clocks they end at */
        fst_rp_batch_out(x);
    if (!c->pend_n)
        return;
    size_t tid = c->prev_task;
    if (tid != FST_NONE) {
        x->t[tid].insns += c->pend_n;
        x->t[tid].cost += c->pend_cost;
    }
    fst_callgraph_exec_n(x->p, tid == FST_NONE ? FST_NOTASK : (uint32_t)tid, c->prev_state, c->prev_charged,
                         c->prev_owner, c->pend_n, c->pend_cost);
    c->pend_n = 0;
    c->pend_cost = 0;
}

void fst_rp_flush_all(rp *x)
{
    for (size_t i = 0; i < x->ncpu; i++)
        fst_rp_flush(x, &x->cpus[i]);
}

/* To sinks: an event of task tid (FST_NONE: none), with the task's clocks, pending EXECs
** included. (The profile's sums get the pending ones later: sinks read the event.) */
void fst_rp_emit(rp *x, fst_event *e, size_t tid)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
    if (tid == FST_NONE) {
        e->stack = no_stack;
        e->depth = 0;
        e->task = FST_NOTASK;
        e->tinsns = 0;
        e->tcost = 0;
    } else {
        const rp_task *t = &x->t[tid];
        e->stack = t->routine;
        e->depth = t->n;
        e->task = (uint32_t)tid;
        e->tinsns = t->insns;
        e->tcost = t->cost;
        for (size_t i = 0; i < x->ncpu; i++)
            if (x->cpus[i].prev_task == tid) {
                e->tinsns += x->cpus[i].pend_n;
                e->tcost += x->cpus[i].pend_cost;
            }
    }
    e->profile = x->p;
    size_t k = e->kind == FST_EV_EXEC && e->charged == FST_CHARGE_OUTSIDE ? FST_EV_MARK + 1 : (size_t)e->kind;
    for (size_t i = 0; i < x->nwant[k]; i++)
        x->want[k][i].event(x->want[k][i].ctx, e);
}

void fst_rp_batch_out(rp *x)
{
    rp_cpu *c = &x->cpus[x->batch_cpu];
    fst_event *e = &c->exec;
    e->kind = FST_EV_EXEC;
    e->cpu = (uint16_t)x->batch_cpu;
    e->insn = c->batch;
    e->n = c->nbatch;
    e->state = c->prev_state;
    e->cost = c->batch_cost;
    e->taken = FST_TAKEN_UNKNOWN;
    e->routine = c->prev_owner;
    e->charged = c->prev_charged;
    x->batch_cpu = FST_NONE;
    c->nbatch = 0;
    c->batch_cost = 0;
    fst_rp_emit(x, e, c->prev_task);
}

void fst_rp_exec_event(rp *x, rp_cpu *c, uint16_t cpuno, const fst_insn *d, size_t n, fst_fx cost, int taken)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
    fst_event *e = &c->exec;
    if (x->batch[c->prev_charged] && n <= FST_RP_BATCH) {
        memcpy(c->batch, d, n * sizeof *d);
        c->nbatch = n;
        c->batch_cost = cost;
        x->batch_cpu = cpuno;
        return;
    }
    e->kind = FST_EV_EXEC;
    e->cpu = cpuno;
    e->insn = d;
    e->n = n;
    e->state = c->prev_state;
    e->cost = cost;
    e->taken = taken;
    e->routine = c->prev_owner;
    e->charged = c->prev_charged;
    fst_rp_emit(x, e, c->prev_task);
}

/* Who gets what (events.h FST_WANT_*): a list per kind, so that an instruction nobody
** but the call graph wants costs no loop over the sinks. */
void fst_rp_sort_sinks(rp *x)
{
    for (size_t k = 0; k <= FST_EV_MARK + 1; k++) {
        x->want[k] = fst_xcalloc(x->nsinks + 1, sizeof *x->want[k]);
        unsigned bit = k <= FST_EV_MARK ? FST_WANT(k) : FST_WANT(FST_EV_EXEC) | FST_WANT_EXEC_OUTSIDE;
        for (size_t i = 0; i < x->nsinks; i++)
            if (!x->sinks[i].kinds || (x->sinks[i].kinds & bit))
                x->want[k][x->nwant[k]++] = x->sinks[i];
    }
    x->want_exec[FST_CHARGE_ROUTINE] = x->want_exec[FST_CHARGE_EXCLUDED] = x->nwant[FST_EV_EXEC] != 0;
    x->want_exec[FST_CHARGE_OUTSIDE] = x->nwant[FST_EV_MARK + 1] != 0;
    for (int ch = 0; ch < 3; ch++) {
        size_t k = ch == FST_CHARGE_OUTSIDE ? FST_EV_MARK + 1 : FST_EV_EXEC;
        x->runs[ch] = x->batch[ch] = 1;
        for (size_t i = 0; i < x->nwant[k]; i++) {
            x->runs[ch] &= (x->want[k][i].kinds & (FST_WANT_EXEC_RUNS | FST_WANT_EXEC_BATCH)) != 0;
            x->batch[ch] &= (x->want[k][i].kinds & FST_WANT_EXEC_BATCH) != 0;
        }
    }
}

/* The instruction mix; an opcode the decoder does not know is counted by opcode, for
** fst-report to say which (rare: a linear search is enough). */
void fst_rp_count_unknown(fst_profile *p, const fst_insn *d, uint64_t n)
{
    uint32_t key = fst_opcode_key(d->bytes);
    size_t i = 0;
    while (i < p->nundecoded && p->undecoded[i].key != key)
        i++;
    if (i == p->nundecoded) {
        if (!(p->nundecoded & (p->nundecoded + 1)))   /* 0, 1, 3, 7...: grow */
            p->undecoded = fst_xrealloc(p->undecoded, (2 * p->nundecoded + 2) * sizeof *p->undecoded);
        p->undecoded[p->nundecoded++] = (fst_opcount){ key, 0 };
    }
    p->undecoded[i].insns += n;
}

/* The counts a block kept (code.h fst_blk_ran). */
void fst_rp_count_ops(void *ctx, const fst_insn *d, uint64_t n)
{
    fst_profile *p = ctx;
    p->op_insns[d->op] += n;
    if (d->op == FST_OP_UNKNOWN)
        fst_rp_count_unknown(p, d, n);
}

/* Instructions priced without a row of the cost model (by a class rule or the default):
** from the instruction mix, as fst-report's pricing lines count them (analyze/pricing.c). */
uint64_t fst_rp_unmodeled(const fst_profile *p, const fst_clock *clk)
{
    uint64_t n = 0;
    for (unsigned op = 0, nops = fst_op_count(); op < nops; op++)
        if (p->op_insns[op]) {
            int how = fst_clock_how(clk, op, NULL);
            n += how == FST_PRICE_RULE || how == FST_PRICE_DEFAULT ? p->op_insns[op] : 0;
        }
    return n;
}

/* Whether the instruction after c's previous one, in sequence and in the same state, needs
** none of insn()'s decisions: the previous one is plain (code.h), no interruption, gap or
** dispatch is pending, and the mainline is not looked for at every instruction. */
static int flows_on(const rp *x, const rp_cpu *c)
{
    if (!c->have_prev || c->intr || c->gap || !fst_code_plain(&c->prev))
        return 0;
    if (c->handler)
        return !c->dispatch && !(c->prev_state & FST_ST_PROBLEM);
    const rp_task *t = &x->t[c->task];
    return t->n || t->had_mainline || !x->mainline_fixed;
}

/* The rest of a SEQ run on CPU cpuno (tracebin.h fst_tr_seq_left), from instruction i of
** block b (code.h) on, a block at a time while it flows on: then insn() would only move the
** previous instruction along, so the EXECs of a block are counted and priced together
** (one by one only for a sink that wants them). What does not flow on is left to
** fst_tr_next and insn(). */
void fst_rp_seq_rest(rp *x, fst_tr *tr, uint16_t cpuno, fst_blk *b, uint32_t i)
{
    rp_cpu *c = &x->cpus[cpuno];
    uint32_t left;
    while ((left = fst_tr_seq_left(tr)) && flows_on(x, c)) {
        if (i == b->n) {
            b = fst_code_block(x->code, tr, fst_insn_next(&c->prev), c->prev_state);
            i = 0;
            if (!b)
                return; /* the reader says what is wrong */
        }
        /* the EXECs of prev and of d[i..last-1]; d[last] becomes prev */
        uint32_t m = b->n - i < left ? b->n - i : left, last = i + m - 1;
        int ch = c->prev_charged;
        if (x->want_exec[ch] && !x->runs[ch]) {
            exec_prev(x, c, cpuno, 0);
            for (uint32_t k = i; k < last; k++)
                exec_one(x, c, cpuno, &b->d[k], b->cost[k][0], 0);
        } else {
            count_op(x->p, &c->prev);
            fst_blk_ran(b, i, last);
            fst_fx run = b->sum[last] - b->sum[i];
            if (i) /* prev is d[i - 1]: one run */
                exec_n(x, c, cpuno, &b->d[i - 1], m, c->prev_cost[0] + run, 0);
            else {
                exec_n(x, c, cpuno, &c->prev, 1, c->prev_cost[0], 0);
                if (m > 1)
                    exec_n(x, c, cpuno, &b->d[0], m - 1, run, 0);
            }
        }
        c->prev = b->d[last];
        c->prev_cost[0] = b->cost[last][0];
        c->prev_cost[1] = b->cost[last][1];
        c->have_prev = 1;
        if (c->handler)
            c->dispatch = is_lpsw(&c->prev);
        c->ran = !c->handler || (!c->dispatch && !(c->prev_state & FST_ST_PROBLEM));
        if (!c->handler) {  /* the task's prev too */
            rp_task *t = &x->t[c->task];
            t->prev = c->prev;
            t->have_prev = 1;
        }
        fst_tr_seq_take(tr, m, fst_insn_next(&c->prev));
        i = last + 1;
    }
}
