/* analyze/replay/replay.c — call reconstruction (DESIGN §3) per task and the event stream
** (events.h); see profile.h for the decisions taken where DESIGN is silent, tasks.h for
** which task runs, replay_int.h for how the replayer's files divide the work. */
#include "analyze/replay/replay_int.h"
#include "analyze/profile/holder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lean loop's flavours (lean_runs): 1 where the trace showed no registers yet, 2 where
** it did, each with LEAN_WANT where the charge in force may want its EXECs, which then go
** to a sink that takes them in batches (fst-report's diagnosis of the instructions outside
** any routine: a program with no map runs all its code outside one). */
enum { LEAN_WANT = 4 };

/* A task's instruction: calls and returns in its stack (DESIGN §3). */
static void run_insn(rp *x, rp_cpu *c, const fst_rec *rec, const fst_insn *d)
{
    fst_profile *p = x->p;
    size_t tid = c->task;
    rp_task *t = &x->t[tid];
    int branched = 0, was_branch = 0;
    if (t->have_prev) {
        was_branch = (t->prev.flags & FST_I_BRANCH) && (t->prev.flags & FST_I_CANBRANCH);
        branched = taken_to(&t->prev, rec->addr);
    }
    if (branched && was_branch) {
        branched_to(x, tid, rec, d);
        if ((t->prev.flags & FST_I_LINK) && t->prev.fmt == FST_FMT_RR)
            c->psp_call = find_entry_for(x, tid, rec->addr);   /* a call the trace may not have shown */
    }
    else if (t->n == 0 && !t->had_mainline && x->mainline_fixed) {
        size_t r = find_entry_for(x, tid, rec->addr); /* the mainline entered without a call */
        if (r != FST_NONE && p->r[r].mainline) {
            fst_rp_enter_mainline(x, tid, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            p->tasks[tid].mainline = r;
        }
    }
    t->prev = *d;
    t->prev_state = rec->state;
    t->have_prev = 1;
}

/* insn() for the common case, in a few tests: the task's next instruction on the CPU that
** ran its previous one, in the same state, with no interruption, gap, SVC or dispatch
** between them, no mainline to look for, nothing excluded and no supervisor row. Returns
** 0, having done nothing, when that is not the case. `run`: a SEQ run's first instruction,
** which seq_rest follows; it sets the task's prev (rp_task.prev) when the run ends, so
** that a run copies it once, not twice (cgen -O2: a run every 7.6 instructions). `lean`:
** for lean_runs (its flavour), which tested the rest already (lean_ok) and keeps the task's prev itself;
** l is then c's task's (fst_rp_lean_init), and d (a block's d[0]) is not copied into c->prev:
** the seq_rest that follows copies the run's last instruction there. Returns 2 where a branch may have called or returned or the charge
** changed (lean_runs then tests lean_still), else 1. */
static inline __attribute__((always_inline)) int insn_fast(rp *x, rp_cpu *c, const fst_rec *rec, const fst_insn *d, const fst_fx cost[2],
                                                           int run, int lean, rp_lean *l)
{
    int did = 1;
    if (!lean && (!c->ran || rec->state != c->prev_state || !x->plain))
        return 0;
    const fst_insn *pv = &c->prev;
    unsigned fl = pv->flags;
    int taken = (fl & FST_I_CANBRANCH) ? taken_to(pv, rec->addr) : 0;
    size_t owner;
    if (!lean && c->handler) {  /* handling, no dispatch due (c->ran) */
        exec_one(x, c, rec->cpu, pv, c->prev_cost[taken], taken);
        c->dispatch = is_lpsw(d);
        c->ran = !c->dispatch;
        owner = c->task == FST_NONE ? FST_NONE : top_owner(&x->t[c->task]);
    } else {                    /* the task's instruction; pv is the task's prev too (c->ran) */
        rp_task *t = lean ? l->t : &x->t[c->task];
        int branched = taken && (fl & FST_I_BRANCH);
        if (fl & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)) {
            if (pv->bytes[0] == 0x0A)
                return 0;       /* SVC: the task is suspended (fst_rp_check_flow) */
        } else if (rec->addr != fst_insn_next(pv))
            return 0;           /* an interruption the trace does not show (fst_rp_check_flow) */
        if (!lean && !branched && t->n == 0 && !t->had_mainline && x->mainline_fixed &&
            mainline_at(x, c->task, rec->addr))
            return 0;           /* the mainline entered without a call (run_insn) */
        if (lean && !(lean & LEAN_WANT)) {  /* no sink wants prev's EXEC (lean_still) */
            count_op(x->p, pv);
            exec_pend(c, 1, c->prev_cost[taken]);
        } else
            exec_one(x, c, rec->cpu, pv, c->prev_cost[taken], taken);
        if (branched && !lean)
            branched_to(x, c->task, rec, d);
        else if (branched && branch_matters(x, t, pv)) {
            if (!x->lean_frames || !fst_rp_lean_branch(x, c, l, rec->addr)) {
                t->prev = *pv;  /* what lean_runs keeps in c->prev only */
                fst_rp_branched_to(x, c->task, rec, d);
            }
            did = 2;
        }
        if (!run)
            t->prev = *d;
        owner = !lean || did == 2 ? top_owner(t) : FST_NONE;   /* lean: read below only then */
    }
    if (!lean || did == 2) {    /* lean: the frames the same, so are the owner and charge */
        int charged = owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
        if (owner != c->prev_owner || charged != c->prev_charged) {
            if (lean)
                fst_rp_lean_flush(x, c, l);
            else
                fst_rp_flush(x, c);
            did = 2;
        }
        c->prev_owner = owner;
        c->prev_charged = charged;
    }
    c->dirty |= d->wregs;   /* as insn(): the registers written since the trace last showed them */
    if (lean)
        return did;     /* d is the block's d[0]: lean_runs' seq_rest copies the run's last */
    c->prev = *d;
    c->prev_cost[0] = cost[0];
    c->prev_cost[1] = cost[1];
    return did;
}

static void insn(rp *x, const fst_rec *rec, const fst_insn *d, const fst_fx cost[2])
{
    fst_profile *p = x->p;
    rp_cpu *c = cpu_of(x, rec->cpu);
    x->nslow++;
    if (c->have_prev) {
        int can = (c->prev.flags & FST_I_CANBRANCH) != 0;
        exec_prev(x, c, rec->cpu, !can ? 0 : c->intr ? FST_TAKEN_UNKNOWN : taken_to(&c->prev, rec->addr));
    }
    if (c->task == FST_NONE && !c->handler) { /* the first instruction on this CPU */
        c->task = fst_tasks_start(x->ids, rec->addr, fst_rp_space_of(c, rec->state));
        fst_rp_task_room(x, c->task);
        x->t[c->task].started = 1;
        /* a trace that begins at a routine: its mainline. Not in a window of a running
        ** system: an entry there is where the attach landed (a call the window did not see,
        ** or a loop back to the entry), and the routine, made the mainline, would never
        ** return (a round of tests/e2e/modattach.sh's shares.s all charged to GAMMA, under
        ** 4.9); it is never entered, as a window begun inside it (the named mainline's entry
        ** is entered all the same: run_insn) */
        size_t r = x->midrun ? FST_NONE : find_entry_for(x, c->task, rec->addr);
        if (r != FST_NONE) {
            fst_rp_enter_mainline(x, c->task, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            p->tasks[c->task].mainline = r;
        }
    } else if (!c->handler)
        fst_rp_check_flow(x, c, rec);
    if (c->handler && (c->dispatch || (rec->state & FST_ST_PROBLEM)))
        fst_rp_dispatch(x, c, rec);
    size_t owner;
    if (!c->handler) {
        run_insn(x, c, rec, d);
        owner = top_owner(&x->t[c->task]);
    } else {
        c->dispatch = is_lpsw(d);
        owner = c->task == FST_NONE ? FST_NONE : top_owner(&x->t[c->task]);
    }
    if (!c->handler && !x->t[c->task].taint && x->bases && owner == FST_NONE && x->t[c->task].had_mainline)
        fst_rp_lost(x, c->task, rec->addr);  /* a task's code run with no frame: a switch not seen? */
    if (!c->handler && x->t[c->task].taint)
        fst_rp_uncertain(x, rec->addr, owner);
    else if (!c->handler && x->bases) { /* until the registers agree again (replay_task.c late_switch) */
        c->since[c->nsince & 63].addr = rec->addr;
        c->since[c->nsince & 63].owner = owner;
        c->nsince++;
    }
    int sup = !(rec->state & FST_ST_PROBLEM);
    x->sup_seen |= sup;
    if (sup && x->sup != FST_NONE)
        owner = x->sup;
    int excluded = x->may_exclude &&
                   ((owner != FST_NONE && p->r[owner].excluded) || (x->o->cpu_problem && sup) ||
                    (x->o->space_set && (c->task == FST_NONE || p->tasks[c->task].excluded)));
    int charged = excluded ? FST_CHARGE_EXCLUDED : owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
    if (c->prev_state != rec->state || c->prev_task != c->task || c->prev_owner != owner || c->prev_charged != charged)
        fst_rp_flush(x, c); /* what is pending was executed with the old ones */
    c->prev = *d;
    c->prev_cost[0] = cost[0];
    c->prev_cost[1] = cost[1];
    c->prev_state = rec->state;
    c->prev_task = c->task;
    c->have_prev = 1;
    c->prev_owner = owner;
    c->prev_charged = charged;
    c->intr = c->gap = 0;
    c->pgm = 0;
    c->ran = !c->handler || (!c->dispatch && !(rec->state & FST_ST_PROBLEM));
    c->dirty |= d->wregs;
    c->fresh = c->have_opnd = c->space_new = c->intr_cls = 0;
    c->gnow = 0;
    c->grbad = 0;
}

/* ---- SEQ runs, block by block ---- */

/* A task's instruction needs no look for its mainline: it has frames, had its mainline,
** or the mainline is not fixed by name. Else (a window begun inside the mainline the map
** names, which is never entered there) each instruction is looked at: mainline_at. */
static inline int task_flows_of(const rp *x, const rp_task *t)
{
    return t->n || t->had_mainline || !x->mainline_fixed;
}

static inline int task_flows(const rp *x, const rp_cpu *c)
{
    return task_flows_of(x, &x->t[c->task]);
}

/* Whether the instruction after c's previous one, in sequence and in the same state, needs
** none of insn()'s decisions: the previous one falls through (code.h fst_code_falls: plain,
** or a conditional branch the run did not take), no interruption, gap or dispatch is
** pending. Whether it enters the mainline is seq_rest's look (task_flows). */
static int flows_on(const rp *x, const rp_cpu *c)
{
    if (!c->have_prev || c->intr || c->gap || x->bases || x->tainted || !fst_code_falls(&c->prev))
        return 0;
    if (c->handler)
        return !c->dispatch && !(c->prev_state & FST_ST_PROBLEM);
    return 1;
}

/* flows_on after insn_fast took the run's first instruction: what insn_fast found true
** stays so. It ran with c->ran, which an interruption or GAP clears (and only insn(),
** clearing them, sets again), so c has a previous instruction and none is pending; it
** ran with x->plain, which a range trace's BASES and a guess's taint clear for good; in a
** handler it left c->ran as flows_on's answer (the state is the one c->ran was set in). */
static inline int flows_on_fast(const rp_cpu *c)
{
    if (!fst_code_falls(&c->prev))
        return 0;
    return c->handler ? c->ran : 1;
}

/* Of the m instructions d[i..i+m-1] of b, how many come before one at which task tid would
** enter a mainline (mainline_at): m when none would. */
static __attribute__((noinline)) uint32_t before_mainline(const rp *x, size_t tid, const fst_blk *b, uint32_t i, uint32_t m)
{
    if (b->e[i].d.addr > x->ml_hi || b->e[i + m - 1].d.addr < x->ml_lo)
        return m;
    for (uint32_t k = 0; k < m; k++)
        if (mainline_at(x, tid, b->e[i + k].d.addr))
            return k;
    return m;
}

/* Whether a memo records, noting blocks' counts as far as they go: a block that grows
** then counts as one built, which ends the recording (code.h fst_code_extend). */
static inline int recording(const rp *x)
{
    return x->memo.rec || x->chunk.rec || x->fold.mode == 1;
}

/* exec_n of a run's EXECs, d[k..k+n-1] of b; lean: no sink wants them (lean_ok), only the
** pending count. A sink that wants them gets them in a row (events.h: e->insn[0..n-1]),
** copied out of the block's entries: into the batch waiting where it has room (one copy,
** not a row's and then the batch's: with no map every instruction of a C program runs
** outside a routine, whose EXECs fst-report's diagnosis takes in batches). */
static inline __attribute__((always_inline)) void run_exec(rp *x, rp_cpu *c, uint16_t cpuno, const fst_blk *b,
                                                           uint32_t k, uint32_t n, fst_fx cost, int lean)
{
    if (lean || !x->want_exec[c->prev_charged]) {
        exec_pend(c, n, cost);  /* as exec_n does when no sink wants them */
        return;
    }
    fst_insn *at = batch_at(x, c, n, cost);
    if (at) {
        exec_pend(c, n, cost);
        for (uint32_t j = 0; j < n; j++)
            at[j] = b->e[k + j].d;
        return;
    }
    fst_insn row[FST_BLK_MAX];
    for (uint32_t j = 0; j < n; j++)
        row[j] = b->e[k + j].d;
    exec_n(x, c, cpuno, row, n, cost, 0);
}

/* c's previous instruction and its prices: a block's entry e's */
static inline __attribute__((always_inline)) void prev_from(rp_cpu *c, const fst_blk_ent *e)
{
    c->prev = e->d;
    c->prev_cost[0] = e->cost[0];
    c->prev_cost[1] = e->cost[1];
}

/* A SEQ run (rec: tracebin.h fst_tr_next_run) whose first instruction, d[0] of
** block b (code.h), insn() took: the rest of it, a block at a time while it flows on: then
** insn() would only move the previous instruction along, so the EXECs of a block are
** counted and priced together (one by one only for a sink that wants them). The reader is
** told once what was taken; what does not flow on is left to it and insn(). `lean`: for
** lean_runs (insn_fast took the first one; nothing records, no sink wants these EXECs, no
** look for the mainline: lean_ok), which keeps the task's prev itself; 1 where the trace
** showed no registers yet (x->regs), 2 where it did. */
static inline __attribute__((always_inline)) void seq_rest(rp *x, fst_tr *tr, const fst_rec *rec, rp_cpu *c,
                                                           fst_blk *b, int fast, int take, uint32_t *took_,
                                                           uint64_t *next_, int lean)
{
    uint16_t cpuno = rec->cpu;
    uint32_t left = (uint32_t)rec->value - 1, took = 1, i = 1;  /* the run's length (fst_tr_next_run) */
    uint64_t to = b->e[0].to;   /* where a TAKEN run ending at c->prev goes (code.h) */
    /* lean: the previous instruction is the block's entry pe (insn_fast's lean did not copy
    ** d[0]), copied into c->prev where the run leaves its block (the next block's look-up
    ** may build one in pe's slot) and at the run's end: one copy a run, not two */
    const fst_blk_ent *pe = &b->e[0];
    /* flows_on once: of what it looks at, only c->prev changes below (the loop does not
    ** call, return, handle or dispatch), so then only whether c->prev falls through. A
    ** branch not taken inside a run goes on here, not in a record-loop turn of its own:
    ** branchy code has one every few instructions (cgen -O2: -25 % replay time) */
    int on = left && (lean ? fst_code_falls(&pe->d) : fast ? flows_on_fast(c) : flows_on(x, c));
    /* a task that may fall into its mainline: before_mainline (mainline_fixed first: the
    ** common case costs a load) */
    int look = !lean && on && x->mainline_fixed && !c->handler && !task_flows(x, c);
    for (; on; on = left && fst_code_falls(lean ? &pe->d : &c->prev)) {
        if (i == b->n && !fst_code_extend(x->code, b, tr, recording(x))) {
            if (lean) {
                prev_from(c, pe);
                pe = NULL;
            }
            b = fst_code_block(x->code, tr, fst_insn_next(&c->prev), c->prev_state);
            i = 0;
            if (!b)
                break;  /* the reader says what is wrong */
        }
        /* the EXECs of prev and of d[i..last-1]; d[last] becomes prev */
        uint32_t m = b->n - i < left ? b->n - i : left;
        if (look && !(m = before_mainline(x, c->task, b, i, m)))
            break;      /* d[i] is left to insn(), which enters the mainline */
        uint32_t last = i + m - 1;
        int ch = c->prev_charged;
        if (!lean && x->fold.mode == 1 && b->fstamp != x->fold.rs.stamp)
            fst_rp_fold_touch(x, b);    /* its counts as they were, for the period recorded */
        if (!lean && x->want_exec[ch] && !x->takes_batch[ch]) {
            exec_prev(x, c, cpuno, 0);
            for (uint32_t k = i; k < last; k++)
                exec_one(x, c, cpuno, &b->e[k].d, b->e[k].cost[0], 0);
        } else {
            fst_fx run = b->e[last].sum - b->e[i].sum;    /* e[i].sum: fst_blk_sum(b, i), i < n */
            if (!lean && x->memo.rec && b->mstamp != x->memo.stamp)
                fst_rp_memo_touch(x, b);    /* its counts as they were, for the call recorded */
            if (!lean && x->chunk.rec && b->cstamp != x->chunk.stamp)
                fst_rp_chunk_touch(x, b);   /* the same, for a stretch recorded */
            if (i) { /* prev is d[i - 1]: one run, counted in the block */
                fst_blk_ran(b, i - 1, last);
                run_exec(x, c, cpuno, b, i - 1, m, (lean ? pe->cost[0] : c->prev_cost[0]) + run,
                         lean & LEAN_WANT ? 0 : lean);
            } else {
                count_op(x->p, &c->prev);
                fst_blk_ran(b, 0, last);
                if (lean && !(lean & LEAN_WANT))
                    exec_pend(c, 1, c->prev_cost[0]);
                else
                    exec_n(x, c, cpuno, &c->prev, 1, c->prev_cost[0], 0);
                if (m > 1)
                    run_exec(x, c, cpuno, b, 0, m - 1, run, lean & LEAN_WANT ? 0 : lean);
            }
        }
        /* as insn() does one by one (lean 1: none shown yet): d[0..i-1] ran in this run
        ** before (the block was entered at d[0]) and are in c->dirty already */
        if ((lean & 3) != 1 && x->regs)
            c->dirty |= b->wor[last];
        const fst_blk_ent *el = &b->e[last];
        to = el->to;
        if (lean)
            pe = el;
        else
            prev_from(c, el);
        if (!lean) {    /* lean: c->have_prev and c->ran are 1, c->handler 0 */
            c->have_prev = 1;
            if (c->handler)
                c->dispatch = is_lpsw(&c->prev);
            c->ran = !c->handler || (!c->dispatch && !(c->prev_state & FST_ST_PROBLEM));
        }
        left -= m;
        took += m;
        i = last + 1;
    }
    if (lean && pe)
        prev_from(c, pe);
    if (!lean && !c->handler) {  /* the task's prev too (insn_fast's `run`), as insn() sets it */
        rp_task *t = &x->t[c->task];
        t->prev = c->prev;
        t->have_prev = 1;
    }
    uint64_t next = fst_insn_next(&c->prev);   /* c->prev: the last one taken */
    if (take)
        fst_tr_seq_take_to(tr, took, next, to);
    *took_ = took;
    *next_ = next;
}

int fst_rp_run(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b, int take, uint32_t *took, uint64_t *next)
{
    int fast = 0 != insn_fast(x, cpu_of(x, rec->cpu), rec, &b->e[0].d, b->e[0].cost, 1, 0, NULL);
    if (!fast)
        insn(x, rec, &b->e[0].d, b->e[0].cost);
    seq_rest(x, tr, rec, &x->cpus[rec->cpu], b, fast, take, took, next, 0);
    return fast;
}

/* ---- the lean loop ---- */

/* The record loop's common case, in a loop of its own (lean_runs): one CPU running a task,
** not handling; nothing recorded (call memo, stretch, loop period), no window, no range
** trace's BASES, no guess made, no exclusion nor supervisor row (plain); the task has a
** frame or had its mainline (no look for it), and the charge in force wants no EXECs.
** There insn_fast and seq_rest test nothing of this again (their `lean`). What keeps it
** true while lean_runs goes: only SEQ runs come (any other record goes back to the record
** loop, as do a run in another state or on another CPU), and a call or return, which may
** change the frames and the charge, is followed by lean_still. The owner and charge in
** force are those of the task's frames when it begins (lean_ok), and stay so: insn_fast's
** lean looks at them again only after a call or return. */
static inline int lean_still(const rp *x, const rp_cpu *c, const rp_task *t, int want)
{
    return (!x->want_exec[c->prev_charged] || (want && x->takes_batch[c->prev_charged])) && task_flows_of(x, t) &&
           !x->tainted;
}

/* whether the next turn is one the stretches, the memo of calls and the folding pass by */
static inline int lean_turn(const rp *x, const rp_cpu *c)
{
    return x->fold.quiet && (x->chunk.quiet || !x->chunk.on) && (!fst_rp_memo_site(x, c) || fst_rp_memo_passes(x, c));
}

static inline int lean_ok(const rp *x)
{
    const rp_cpu *c = x->cpus;
    if (!(x->ncpu == 1 && lean_turn(x, c) && x->lean && x->plain && !x->bases && !x->memo.rec &&
          !x->chunk.rec && !x->fold.mode && x->win_edge == UINT64_MAX && c->ran && !c->handler && c->task != FST_NONE &&
          c->prev_task == c->task && lean_still(x, c, &x->t[c->task], 1)))
        return 0;
    size_t owner = top_owner(&x->t[c->task]);  /* what insn_fast's lean leaves as it is */
    return c->prev_owner == owner && c->prev_charged == (owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE);
}

enum { LEAN_TOP = 3 };  /* lean_runs: the record loop takes its next turn from the top */

/* Record-loop turns while lean_ok holds: each a SEQ run that the stretches, the memo of
** calls and the folding would pass by, their budgets counted down as the record loop's
** gates do (so that they look where they would have: the same figures, the same looks).
** Returns LEAN_TOP when the record loop's next turn is to be taken whole (one of them will
** look, or a run's charge wants its EXECs); else what fst_tr_next_run returned, rec read
** with the turn's gates passed, which the record loop handles (a record other than a SEQ
** run, or a run insn_fast's lean case does not take: nothing of it done). Perf: the gates
** and tests of the record loop, insn_fast and seq_rest that lean_ok settles were a third of
** the host instructions a run on branchy, call-heavy code (cgen -O2). */
static inline __attribute__((always_inline)) int lean_loop(rp *x, fst_tr *tr, fst_rec *out, fst_err *err,
                                                            int lean)
{
    /* out only at the end: its fields can stay in registers. As out was: a record other
    ** than a run leaves fields of its kind's alone (an INS op's the CPU), which the record
    ** loop reads as its own rec left them; left uninitialised, an instruction went to a
    ** CPU made up of stack bytes (valgrind: gen.py seed 37146's replay, one instruction's
    ** cost charged to the routine before, in some captures of it) */
    fst_rec r = *out, *rec = &r;
    rp_cpu *c = x->cpus;
    rp_lean l;
    fst_rp_lean_init(x, c->task, &l);
    rp_task *t = l.t;
    int k = LEAN_TOP, f;
    uint64_t w0 = x->win_at;
    /* the turns the stretches and the folding pass by from here (lean_turn): each counts
    ** one down; the folding's only where a run is taken (fst_rp_fold), put back at the end */
    uint64_t turns = x->fold.quiet, runs = 0, n = 0;
    if (x->chunk.on && x->chunk.quiet < turns)
        turns = x->chunk.quiet;
    while (n < turns) {
        if (fst_rp_memo_site(x, c) && !fst_rp_memo_pass(x, c))
            break;      /* the memo looks at this call (fst_rp_memo_wants) */
        n++;
        if ((k = fst_tr_next_run(tr, rec, err)) != 2 || rec->state != c->prev_state || rec->cpu)
            break;
        fst_blk *b = fst_code_block(x->code, tr, rec->addr, rec->state);
        if (!b || !(f = insn_fast(x, c, rec, &b->e[0].d, b->e[0].cost, 1, lean, &l)))
            break;
        runs++;             /* a run the folding passed by (fst_rp_fold): its quiet, at the end */
        uint32_t took;
        uint64_t next;
        int still = f == 1 || lean_still(x, c, t, lean & LEAN_WANT);
        if (still)
            seq_rest(x, tr, rec, c, b, 1, 1, &took, &next, lean);
        else {
            prev_from(c, &b->e[0]);     /* what insn_fast's lean left to seq_rest's */
            seq_rest(x, tr, rec, c, b, 1, 1, &took, &next, 0);
        }
        x->win_at += took;
        k = LEAN_TOP;
        if (!still)
            break;
    }
    x->chunk.quiet -= x->chunk.quiet < n ? x->chunk.quiet : (uint32_t)n;
    x->fold.quiet -= runs;
    t->prev = c->prev;  /* kept in c->prev only meanwhile (insn_fast's lean) */
    t->have_prev = 1;
    fst_rp_lean_told(x, &l);
    x->nlean += x->win_at - w0;
    x->nleanr += runs;
    if (k != LEAN_TOP)
        *out = r;
    return k;
}

/* lean_loop twice: with the registers' bookkeeping of seq_rest (a trace that shows them, as
** the module's under an operating system does), and without (one test a block less, which
** alone cost 3 % on cgen -O2: the loop's registers). */
static int lean_runs(rp *x, fst_tr *tr, fst_rec *out, fst_err *err)
{
    if (x->want_exec[x->cpus[0].prev_charged])
        return x->regs ? lean_loop(x, tr, out, err, 2 | LEAN_WANT) : lean_loop(x, tr, out, err, 1 | LEAN_WANT);
    return x->regs ? lean_loop(x, tr, out, err, 2) : lean_loop(x, tr, out, err, 1);
}

/* Registers the trace showed with the next instruction (tracebin.h REGS): the ones before
** go to pgr, and a change that none of the instructions since the last REGS could make
** says that another task runs now (replay_task.c, tasks.h). */
static void regs(rp *x, rp_cpu *c, const fst_rec *rec)
{
    uint16_t m = (uint16_t)rec->code, changed = 0, agreed = 0;
    int bases = rec->kind == FST_REC_BASES;
    uint64_t am = amask(rec->state);    /* BASES: address bits */
    memcpy(c->pgr, c->gr, sizeof c->gr);
    c->pgrv = c->grv;
    c->pdirty = c->dirty;
    for (int g = 0; g < 16; g++)
        if (m >> g & 1) {
            if ((c->grv >> g & 1) && ((c->gr[g] ^ rec->gr[g]) & (bases ? am : ~0ull)))
                changed |= (uint16_t)(1u << g);
            else if ((c->grv >> g & 1) && !(c->dirty >> g & 1) && (rec->gr[g] < x->p->lo || rec->gr[g] >= x->p->hi))
                agreed |= (uint16_t)(1u << g);  /* a register telling tasks apart agrees */
            c->gr[g] = rec->gr[g];
        }
    c->grv |= m;
    c->grbad = changed & (uint16_t)~c->dirty;
    if (agreed && !c->grbad)
        c->nsince = 0;  /* the same task still: no switch came before */
    c->dirty = bases ? c->dirty & (uint16_t)~m : 0;   /* a REGS shows every register */
    c->gnow = m;
    fst_rp_tent_regs(x, c, m, bases ? am : ~0ull);
    if (!c->grbad)
        c->psp_call = c->disp_entry = FST_NONE;
    c->fresh = 1;
    c->ran = 0;
    x->regs = 1;    /* the fast paths keep c->dirty as insn() does: a REGS stops them once (c->ran) */
    if (bases)      /* a range trace's bases: every instruction through insn() (its since ring, frames lost) */
        x->plain = 0;
    x->bases |= bases;
}

static void other(rp *x, const fst_rec *rec)
{
    rp_cpu *c = cpu_of(x, rec->cpu);
    fst_event e = { .cpu = rec->cpu, .state = rec->state };
    switch (rec->kind) {
    case FST_REC_PGMCHK:
        e.kind = FST_EV_INTERRUPT; e.cls = FST_EV_PGM; e.code = rec->code;
        c->intr = 1;
        c->ran = 0;
        c->pgm = rec->code ? rec->code : 1;
        break;
    case FST_REC_INTR:
        e.kind = FST_EV_INTERRUPT; e.cls = rec->cls; e.code = rec->code;
        if (rec->cls != FST_INTR_SVC) /* the SVC instruction itself shows it */
            c->intr = 1, c->ran = 0, c->intr_cls = rec->cls;
        break;
    case FST_REC_REGS:
    case FST_REC_BASES:
        regs(x, c, rec);
        return;
    case FST_REC_OPND:
        fst_rp_opnd(x, c, rec);
        c->ran = 0;     /* the next instruction may not continue the task (replay_task.c) */
        return;
    case FST_REC_OLDPSW:
        fst_rp_oldpsw(x, c, rec);
        return;
    case FST_REC_WAIT:
        e.kind = FST_EV_WAIT; e.cls = rec->cls;
        fst_rp_wait_state(x, c, rec);
        break;
    case FST_REC_LPSW:
        c->lpsw = rec->addr;
        c->lpsw_pswlen = rec->pswlen;
        memcpy(c->lpsw_psw, rec->psw, rec->pswlen);
        return;
    case FST_REC_CR:
        if (rec->cls == 1) {
            /* a CR1 a display showed changed under a running task (not its own LCTL): the
            ** range trace did not show the supervisor switch tasks */
            if (c->cr1_known && rec->value != c->cr1 && !c->handler && c->task != FST_NONE &&
                !(c->have_prev && c->prev.bytes[0] == 0xB7) && !(c->have_prev && c->prev.bytes[0] == 0xEB))
                c->space_new = 1, c->ran = 0;
            c->cr1 = rec->value;
            c->cr1_known = 1;
        }
        return;
    case FST_REC_GAP: /* tracing was off: the next jump is not the program's */
        for (size_t i = 0; i < x->ncpu; i++) {
            if (x->cpus[i].have_prev)
                exec_prev(x, &x->cpus[i], (uint16_t)i, FST_TAKEN_UNKNOWN);
            x->cpus[i].gap = 1;
            x->cpus[i].ran = 0;
        }
        e.kind = FST_EV_MARK;
        e.code = FST_MARK_GAP;
        break;
    default: return;
    }
    fst_rp_emit(x, &e, c->task);
}

static void finish(rp *x)
{
    for (size_t i = 0; i < x->ncpu; i++)
        if (x->cpus[i].have_prev)
            exec_prev(x, &x->cpus[i], (uint16_t)i, FST_TAKEN_UNKNOWN);
    for (size_t tid = 0; tid < x->nt; tid++) {
        x->p->open_frames += x->t[tid].n;
        while (x->t[tid].n)
            fst_rp_pop(x, tid, 0, FST_EV_RETURN, 1);
    }
}

int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, const fst_sink *sinks,
               size_t nsinks, fst_err *err)
{
    memset(p, 0, sizeof *p);
    p->mainline = -1;
    p->supervisor = o->supervisor;
    rp x = { .p = p, .o = o, .batch_cpu = FST_NONE, .win_edge = UINT64_MAX };
    fst_callgraph *cg = NULL;
    int rc = -1;
    if (fst_routines_build(p, tr, pm, o, err))
        goto out;
    fst_rp_build_hash(&x);
    x.may_exclude = o->cpu_problem || o->space_set;
    for (size_t r = 0; r < p->nr; r++)
        x.may_exclude |= p->r[r].excluded != 0;
    x.plain = !x.may_exclude && x.sup == FST_NONE;
    {
        const char *rg = fst_tr_header(tr, FST_HK_RANGE);
        x.ranged = rg && strcmp(rg, "all");
        const char *w = fst_tr_header(tr, FST_HK_WINDOW);
        const char *ws = fst_tr_header(tr, FST_HK_WINDOW_START);
        x.midrun = w && !strcmp(w, "attach") && !(ws && !strcmp(ws, "ipl"));
    }
    x.ids = fst_tasks_new();
    {
        const char *e = getenv("FST_REPLAY_NOLEAN");
        x.lean = !(e && *e && *e != '0');
    }
    {
        const char *e = getenv("FST_TASKS_DEBUG");
        x.debug = e && *e && *e != '0';
    }
    {
        const char *e = getenv("FST_REPLAY_FULLGRAPH");   /* the tests compare */
        cg = fst_callgraph_new(p, o->flat && !(e && *e && *e != '0'));
    }
    x.sinks = fst_xcalloc(nsinks + 1, sizeof *x.sinks);
    x.cg = cg;  /* CALL, RETURN, UNWIND: by direct calls (replay_int.h) */
    x.flat = fst_callgraph_is_flat(cg);
    x.sinks[0] = (fst_sink){ fst_callgraph_event, cg,
                             FST_WANT(FST_EV_INTERRUPT) | FST_WANT(FST_EV_WAIT) | FST_WANT(FST_EV_MARK) };
    for (size_t i = 0; i < nsinks; i++)
        x.sinks[i + 1] = sinks[i];
    x.nsinks = nsinks + 1;
    fst_rp_win_init(&x);
    fst_rp_sort_sinks(&x);
    x.code = fst_code_new(o->clock, fst_rp_count_ops, &x);
    p->op_insns = fst_xcalloc(fst_op_count(), sizeof *p->op_insns);
    fst_rp_fold_init(&x);
    fst_rp_win_nofold(&x);
    fst_rp_memo_init(&x);
    fst_rp_chunk_init(&x);
    fst_rp_cover_init(&x);
    fst_rec rec = { .kind = FST_REC_END };  /* every field set: lean_loop starts from it */
    int k;
    for (;;) {
        fst_tr_mark ma;
        int call = 0;
        if (lean_ok(&x) && (k = lean_runs(&x, tr, &rec, err)) != LEAN_TOP) {
            if (k <= 0)
                break;  /* rec read, its turn's gates passed */
        } else {
            if (x.memo.rec)
                fst_rp_memo_after(&x, tr);
            if (x.chunk.quiet)
                x.chunk.quiet--;
            else if (x.chunk.on && fst_rp_chunk_may(&x, tr) && fst_rp_chunk(&x, tr))
                continue;   /* runs replayed or memoized as a stretch */
            if (fst_rp_memo_wants(&x))
                call = fst_tr_mark_here(tr, &ma);   /* a call may come: where its bytes begin */
            if ((k = fst_tr_next_run(tr, &rec, err)) <= 0)
                break;
        }
        if (k == 2) {   /* a SEQ run (tracebin.h): its first instruction starts a block */
            if (call && fst_rp_memo_call(&x, tr, &rec, &ma))
                continue;
            if (fst_rp_folds(&x, tr, &rec))
                continue;
            fst_blk *b = fst_code_block(x.code, tr, rec.addr, rec.state);
            int f = b ? fst_rp_fold(&x, tr, &rec, b) : 0;   /* folding off: quiet for ever */
            if (f == 1)
                continue;
            if (f == 2)
                b = fst_code_block(x.code, tr, rec.addr, rec.state);
            if (b) {
                int fast = 0;
                if (x.win_at == x.win_edge) {   /* --window: this instruction is an edge */
                    if (fst_rp_win_edge(&x, &rec))
                        break;
                    insn(&x, &rec, &b->e[0].d, b->e[0].cost);
                } else if (!(fast = insn_fast(&x, cpu_of(&x, rec.cpu), &rec, &b->e[0].d, b->e[0].cost, 1, 0, NULL)))
                    insn(&x, &rec, &b->e[0].d, b->e[0].cost);
                if (x.win_edge - x.win_at < rec.value)
                    rec.value = x.win_edge - x.win_at;  /* the run is cut at the next edge */
                uint32_t took;
                uint64_t next;
                seq_rest(&x, tr, &rec, &x.cpus[rec.cpu], b, fast, 1, &took, &next, 0);
                x.win_at += took;
                continue;
            }
            if ((k = fst_tr_next(tr, &rec, err)) <= 0) /* no bytes there: the reader says so */
                break;
        }
        if (x.fold.mode)
            fst_rp_fold_break(&x, tr);
        if (x.memo.rec)
            fst_rp_memo_stop(&x);
        if (rec.kind == FST_REC_INSN) {
            const fst_code_ent *ce = fst_code_insn(x.code, rec.addr, rec.bytes, rec.state);
            if (x.win_at == x.win_edge) {
                if (fst_rp_win_edge(&x, &rec))
                    break;
                insn(&x, &rec, &ce->d, ce->cost);
            } else if (!insn_fast(&x, cpu_of(&x, rec.cpu), &rec, &ce->d, ce->cost, 0, 0, NULL))
                insn(&x, &rec, &ce->d, ce->cost);
            x.win_at++;
        } else
            other(&x, &rec);
    }
    fst_rp_memo_settle(&x);     /* the counters up to date, from here on read */
    if (getenv("FST_REPLAY_FOLD_STATS"))
        fprintf(stderr, "fst: replay: lean loop: %llu instructions in %llu runs\n", (unsigned long long)x.nlean,
                (unsigned long long)x.nleanr);
    if (k < 0)
        goto out;
    if (x.fold.mode)
        fst_rp_fold_break(&x, tr);
    finish(&x);
    fst_rp_flush_all(&x);
    fst_rp_fit_end(&x);
    fst_code_fold(x.code);
    const char *why;
    p->complete = fst_tr_complete(tr, &why);
    if (!p->complete)
        snprintf(p->incomplete, sizeof p->incomplete, "%s", why);
    if (fst_rp_win_end(&x, err) < 0)
        goto out;
    snprintf(p->clock, sizeof p->clock, "%s", fst_clock_name(o->clock));
    p->unmodeled = fst_clock_unmodeled(o->clock, p->op_insns);
    rc = fst_profile_check(p, err);
out:
    for (size_t i = 0; i < x.nt; i++) {
        free(x.t[i].f);
        free(x.t[i].routine);
        free(x.t[i].rets);
    }
    free(x.t);
    fst_tasks_free(x.ids);
    fst_callgraph_free(cg);
    free(x.sinks);
    for (size_t w = 0; w <= FST_EV_MARK + 1; w++)
        free(x.want[w]);
    free(x.hash);
    free(x.cpus);
    fst_rp_fold_free(&x);   /* before the code: its statistics count the blocks built */
    fst_rp_memo_free(&x);
    fst_rp_chunk_free(&x);
    fst_code_free(x.code);
    fst_holder_free(x.holder);
    free(x.fit_prologue);
    free(x.cover);
    fst_rp_tent_free(&x);
    if (rc < 0)
        fst_profile_free(p);   /* a failed replay leaves nothing to free (fst-diff goes on) */
    return rc;
}
