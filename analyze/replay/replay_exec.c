/* analyze/replay/replay_exec.c — the replayer's EXECs (replay_int.h): pending per CPU and added
** up in bulk, batches, events to the sinks that want them. */
#include "analyze/replay/replay_int.h"

#include <stdlib.h>
#include <string.h>

static const size_t no_stack[1];

rp_cpu *fst_rp_cpu_grow(rp *x, uint16_t n)
{
    size_t m = (size_t)n + 1;
    x->cpus = fst_xrealloc(x->cpus, m * sizeof *x->cpus);
    memset(x->cpus + x->ncpu, 0, (m - x->ncpu) * sizeof *x->cpus);
    for (size_t i = x->ncpu; i < m; i++)
        x->cpus[i].task = x->cpus[i].prev_task = x->cpus[i].psp_call = x->cpus[i].disp_entry = FST_NONE;
    x->ncpu = m;
    return &x->cpus[n];
}

/* The EXECs pending on c: to the task's clock (events.h) and the call graph's profile. */
void fst_rp_flush(rp *x, rp_cpu *c)
{
    /* c's batch: the last of its pending EXECs, emitted with the clocks they end at */
    if (x->batch_cpu != FST_NONE && c == &x->cpus[x->batch_cpu])
        fst_rp_batch_out(x);
    /* nothing pending: no instruction and no cost. A count of 0 may still hold a cost: a
    ** folded period whose pending differed at its two ends adds the difference, negative
    ** (modulo 2^64), at each period, and the first instructions after it bring the count
    ** back to 0 before the cost (gen.py seed 37146, tests/traces/loop37146.trace: a period
    ** began with 14 pending and ended with 9, two were folded, and one instruction's cost
    ** waited for SUB4's flush instead of SUB2's). */
    if (!c->pend_n && !c->pend_cost)
        return;
    if (x->chunk.rec)
        fst_rp_chunk_flush(x, c);
    fst_rp_charge(x, c, c->pend_n, c->pend_cost, c->prev_owner, c->prev_charged);
    c->pend_n = 0;
    c->pend_cost = 0;
}

void fst_rp_flush_all(rp *x)
{
    for (size_t i = 0; i < x->ncpu; i++)
        fst_rp_flush(x, &x->cpus[i]);
}

void fst_rp_to_sinks(rp *x, fst_event *e, size_t tid, size_t k)
{
    if (tid == FST_NONE) {
        e->stack = no_stack;
        e->depth = 0;
    } else {
        e->stack = x->t[tid].routine;
        e->depth = x->t[tid].n;
    }
    e->profile = x->p;
    e->other_space = x->o->space_set && (tid == FST_NONE || x->p->tasks[tid].excluded);
    e->unnamed = tid != FST_NONE && x->p->tasks[tid].unnamed;
    x->ndispatch++;
    if (k == FST_EV_MARK + 1) {
        x->nout_disp++;
        if (x->memo.rec)
            fst_rp_memo_out(x, e);  /* what a reuse of the call hands out again */
        if (x->fold.mode == 1)
            fst_rp_fold_out(x, e);  /* and a folded period */
    }
    const fst_sink *s = x->want[k], *end = s + x->nwant[k];
    for (; s < end; s++)
        s->event(s->ctx, e);
}

/* To sinks: an event of task tid (FST_NONE: none), with the task's clocks, pending EXECs
** included. (The profile's sums get the pending ones later: sinks read the event.) */
void fst_rp_emit(rp *x, fst_event *e, size_t tid)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
    if (tid == FST_NONE) {
        e->task = FST_NOTASK;
        e->tinsns = 0;
        e->tcost = 0;
    } else {
        e->task = (uint32_t)tid;
        fst_rp_task_clock(x, tid, &e->tinsns, &e->tcost);
    }
    fst_rp_to_sinks(x, e, tid, e->kind == FST_EV_EXEC && e->charged == FST_CHARGE_OUTSIDE ? FST_EV_MARK + 1 : (size_t)e->kind);
}

int fst_rp_out_add(fst_insn **v, size_t *n, size_t *cap, size_t max, const fst_event *e)
{
    if (*n + e->n > max)
        return -1;
    if (*n + e->n > *cap) {
        *cap = max;
        *v = fst_xrealloc(*v, *cap * sizeof **v);
    }
    memcpy(*v + *n, e->insn, e->n * sizeof *e->insn);
    *n += e->n;
    return 0;
}

void fst_rp_out_emit(rp *x, const fst_insn *v, size_t n, size_t tid)
{
    fst_event ev = { .kind = FST_EV_EXEC, .insn = v, .n = n, .state = x->cpus[0].prev_state,
                     .taken = FST_TAKEN_UNKNOWN, .routine = FST_NONE, .charged = FST_CHARGE_OUTSIDE };
    fst_rp_emit(x, &ev, tid);
}

void fst_rp_batch_out(rp *x)
{
    rp_cpu *c = &x->cpus[x->batch_cpu];
    fst_event *e = &c->exec;
    e->kind = FST_EV_EXEC;
    e->cpu = (uint16_t)x->batch_cpu;
    e->insn = x->batch;
    e->n = x->nbatch;
    e->state = c->prev_state;
    e->cost = x->batch_cost;
    e->taken = FST_TAKEN_UNKNOWN;
    e->routine = c->prev_owner;
    e->charged = c->prev_charged;
    x->batch_cpu = FST_NONE;
    x->nbatch = c->batch_room = 0;
    x->batch_cost = 0;
    fst_rp_emit(x, e, c->prev_task);
}

void fst_rp_exec_event(rp *x, rp_cpu *c, uint16_t cpuno, const fst_insn *d, size_t n, fst_fx cost, int taken)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
    fst_event *e = &c->exec;
    if (x->takes_batch[c->prev_charged] && n <= FST_RP_BATCH) {
        memcpy(x->batch, d, n * sizeof *d);
        x->nbatch = n;
        c->batch_room = FST_RP_BATCH - n;
        x->batch_cost = cost;
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
        x->nwant[k] = 0;    /* sorted again when a --window opens (replay_win.c) */
        unsigned bit = k <= FST_EV_MARK ? FST_WANT(k) : FST_WANT(FST_EV_EXEC) | FST_WANT_EXEC_OUTSIDE;
        for (size_t i = 0; i < x->nsinks; i++)
            if (!x->sinks[i].kinds || (x->sinks[i].kinds & bit))
                x->want[k][x->nwant[k]++] = x->sinks[i];
    }
    x->want_exec[FST_CHARGE_ROUTINE] = x->want_exec[FST_CHARGE_EXCLUDED] = x->nwant[FST_EV_EXEC] != 0;
    x->want_exec[FST_CHARGE_OUTSIDE] = x->nwant[FST_EV_MARK + 1] != 0;
    for (int ch = 0; ch < 3; ch++) {
        size_t k = ch == FST_CHARGE_OUTSIDE ? FST_EV_MARK + 1 : FST_EV_EXEC;
        x->takes_batch[ch] = 1;
        for (size_t i = 0; i < x->nwant[k]; i++)
            x->takes_batch[ch] &= (x->want[k][i].kinds & FST_WANT_EXEC_BATCH) != 0;
    }
    x->lean_frames = !x->nwant[FST_EV_CALL] && !x->nwant[FST_EV_RETURN] && !x->nwant[FST_EV_UNWIND] &&
                     !x->o->tail_calls;
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
    rp *x = ctx;
    fst_profile *p = x->p;
    p->op_insns[d->op] += n;
    if (fst_rp_gap_at(x, d->addr))
        fst_rp_gap_add(p, d->addr, n);
    if (d->op == FST_OP_UNKNOWN)
        fst_rp_count_unknown(p, d, n);
}
