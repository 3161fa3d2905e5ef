/* analyze/replay.c — call reconstruction (DESIGN §3) per task and the event stream
** (events.h); see profile.h for the decisions taken where DESIGN is silent, tasks.h for
** which task runs. */
#include "analyze/code.h"
#include "analyze/decode.h"
#include "analyze/profile.h"
#include "capture/herclog.h"   /* fst_psw_ia */
#include "common/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct frame {
    size_t owner;     /* nearest timed routine: the routine itself when timed */
    uint64_t ret;     /* return address, masked to the call's addressing mode; ~0: none */
    uint64_t mask;
} frame;

/* A task's call state: its stack and its previous instruction. */
typedef struct task {
    frame *f;
    size_t *routine;  /* the routine of every frame: the `stack` of events */
    size_t n, cap;
    fst_map rets;     /* low 24 bits of every frame's return address -> frames: a return
                         to an older frame is looked up, not searched for (depth-independent).
                         Counts stay at 0 (map.h _keep): one key per return address seen */
    int have_prev;
    fst_insn prev;
    uint32_t prev_state;
    int had_mainline;
    uint64_t insns;   /* its clock (events.h) */
    fst_fx cost;
} task;

typedef struct cpu {
    size_t task;            /* the task it runs, or works for while handling; FST_NONE: none */
    int handler;            /* handling an interruption (profile.h) */
    int dispatch;           /* the handler's last instruction loaded a PSW: the next is a dispatch */
    int intr;               /* an interruption record since the last instruction */
    uint32_t pgm;           /* its program-check code, 0 for other classes */
    int gap;                /* tracing was off since the last instruction */
    uint64_t lpsw;          /* operand of the last LPSW record, 0 = none */
    uint64_t cr1;
    int cr1_known;
    /* the last instruction, waiting for its successor to be priced */
    int have_prev;
    int ran;                /* no interruption, gap or wait came after prev, and either prev
                               was run for the task (not handling: it is the task's prev too)
                               or the handler goes on (no dispatch due): insn_fast may take
                               the next instruction */
    fst_insn prev;
    uint32_t prev_state;
    size_t prev_task;
    size_t prev_owner;      /* owner when prev executed: FST_NONE = outside */
    int prev_charged;       /* FST_CHARGE_* */
    fst_fx prev_cost[2];    /* prev's cost not taken, taken (code.h) */
    /* EXECs not yet added to the clocks and the profile, all of prev_task, prev_state,
    ** prev_owner and prev_charged: added at once when one of those changes (flush) and at
    ** the end; an event's clocks count them (emit) */
    uint64_t pend_n;
    fst_fx pend_cost;
    fst_event exec;         /* the EXEC event, reused: set up once, per instruction only
                               the fields that change (building one was a fifth of the replay) */
} cpu;

typedef struct rp {
    fst_profile *p;
    const fst_replay_opts *o;
    fst_sink *sinks;
    size_t nsinks;
    /* the sinks that want each event kind, in order; [NKINDS]: an EXEC charged outside */
    fst_sink *want[FST_EV_MARK + 2];
    size_t nwant[FST_EV_MARK + 2];
    int want_exec[3];   /* by FST_CHARGE_*: a sink wants those EXECs (the call graph is not asked) */
    int runs[3];        /* by FST_CHARGE_*: every sink that wants them takes runs (events.h) */
    fst_code *code;     /* decoded instructions and blocks (code.h) */
    size_t *hash;       /* entry address -> routine index (open addressing) */
    size_t hcap;
    int mainline_fixed; /* the model named the mainline */
    size_t sup;         /* the "(supervisor)" routine, FST_NONE unless --supervisor=row */
    fst_tasks *ids;     /* task identity (tasks.h) */
    task *t;            /* call state, by task id */
    size_t nt, tcap;
    cpu *cpus;          /* by CPU number (up to 65535, as trace.bin allows), grown on use */
    size_t ncpu;
    int may_exclude;    /* some routine excluded, --cpu=problem or an address space chosen */
    int plain;          /* nothing excluded and no supervisor row: insn_fast can apply */
} rp;

static const size_t no_stack[1];

static cpu *cpu_grow(rp *x, uint16_t n)
{
    size_t m = (size_t)n + 1;
    x->cpus = fst_xrealloc(x->cpus, m * sizeof *x->cpus);
    memset(x->cpus + x->ncpu, 0, (m - x->ncpu) * sizeof *x->cpus);
    for (size_t i = x->ncpu; i < m; i++)
        x->cpus[i].task = x->cpus[i].prev_task = FST_NONE;
    x->ncpu = m;
    return &x->cpus[n];
}

static inline cpu *cpu_of(rp *x, uint16_t n) { return n < x->ncpu ? &x->cpus[n] : cpu_grow(x, n); }

/* The EXECs pending on c: to the task's clock (events.h) and the call graph's profile. */
static void flush(rp *x, cpu *c)
{
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

static void flush_all(rp *x)
{
    for (size_t i = 0; i < x->ncpu; i++)
        flush(x, &x->cpus[i]);
}

/* To sinks: an event of task tid (FST_NONE: none), with the task's clocks, pending EXECs
** included. (The profile's sums get the pending ones later: sinks read the event.) */
static void emit(rp *x, fst_event *e, size_t tid)
{
    if (tid == FST_NONE) {
        e->stack = no_stack;
        e->depth = 0;
        e->task = FST_NOTASK;
        e->tinsns = 0;
        e->tcost = 0;
    } else {
        const task *t = &x->t[tid];
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

/* Who gets what (events.h FST_WANT_*): a list per kind, so that an instruction nobody
** but the call graph wants costs no loop over the sinks. */
static void sort_sinks(rp *x)
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
        x->runs[ch] = 1;
        for (size_t i = 0; i < x->nwant[k]; i++)
            x->runs[ch] &= (x->want[k][i].kinds & FST_WANT_EXEC_RUNS) != 0;
    }
}

/* ---- entry points ---- */

static size_t hslot(const rp *x, uint64_t a)
{
    return (size_t)((a >> 1) * 0x9E3779B97F4A7C15ull >> 24) & (x->hcap - 1);
}

static inline size_t find_entry(const rp *x, uint64_t a)
{
    for (size_t i = hslot(x, a);; i = (i + 1) & (x->hcap - 1)) {
        size_t r = x->hash[i];
        if (r == FST_NONE || x->p->r[r].entry == a)
            return r;
    }
}

static void build_hash(rp *x)
{
    x->hcap = 64;
    while (x->hcap < x->p->nr * 2)
        x->hcap *= 2;
    x->hash = fst_xmalloc(x->hcap * sizeof *x->hash);
    for (size_t i = 0; i < x->hcap; i++)
        x->hash[i] = FST_NONE;
    x->sup = FST_NONE;
    for (size_t r = 0; r < x->p->nr; r++) {
        if (!strcmp(x->p->r[r].name, FST_SUPERVISOR_NAME) && x->p->r[r].entry == UINT64_MAX) {
            x->sup = r;     /* a pseudo-routine: no address */
            continue;
        }
        size_t i = hslot(x, x->p->r[r].entry);
        while (x->hash[i] != FST_NONE && x->p->r[x->hash[i]].entry != x->p->r[r].entry)
            i = (i + 1) & (x->hcap - 1);
        if (x->hash[i] == FST_NONE) /* two names at one address: the first in module order */
            x->hash[i] = r;
        if (x->p->r[r].mainline)
            x->mainline_fixed = 1;
    }
}

/* ---- the stack of a task ---- */

static size_t top_owner(const task *t) { return t->n ? t->f[t->n - 1].owner : FST_NONE; }

/* Push routine r, called from `caller` (the owner on top, or a replaced frame's). */
static void push_from(rp *x, size_t tid, uint16_t cpuno, size_t r, size_t caller, uint64_t site, uint64_t ret,
                      uint64_t mask, int counted)
{
    task *t = &x->t[tid];
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->f = fst_xrealloc(t->f, t->cap * sizeof *t->f);
        t->routine = fst_xrealloc(t->routine, t->cap * sizeof *t->routine);
    }
    size_t owner = x->p->r[r].timed ? r : caller;
    t->f[t->n] = (frame){ owner, ret & mask, mask };
    t->routine[t->n++] = r;
    fst_map_inc_keep(&t->rets, ret & 0xFFFFFF);
    fst_event e = { .kind = FST_EV_CALL, .cpu = cpuno, .routine = r, .owner = owner, .caller = caller,
                    .counted = counted, .site = site, .ret = ret & mask };
    emit(x, &e, tid);
}

static void push(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask, int counted)
{
    push_from(x, tid, cpuno, r, top_owner(&x->t[tid]), site, ret, mask, counted);
}

static void pop(rp *x, size_t tid, uint16_t cpuno, fst_ev_kind kind, uint32_t code)
{
    task *t = &x->t[tid];
    t->n--;
    fst_map_dec_keep(&t->rets, t->f[t->n].ret & 0xFFFFFF);
    fst_event e = { .kind = kind, .cpu = cpuno, .routine = t->routine[t->n], .owner = t->f[t->n].owner,
                    .code = code };
    emit(x, &e, tid);
}

/* The mainline: a frame that counts no call; entered without a return address, it
** returns by leaving the program (profile.h). */
static void enter_mainline(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask)
{
    fst_profile *p = x->p;
    p->r[r].mainline = p->r[r].timed = 1;
    if (p->mainline < 0)
        p->mainline = (int)r;
    x->t[tid].had_mainline = 1;
    push(x, tid, cpuno, r, site, ret, mask, 0);
}

static int at_return(const frame *f, uint64_t addr)
{
    uint64_t a = addr & f->mask;
    return a >= f->ret && a - f->ret <= 16 && !((a - f->ret) & 3); /* B 4k(,14), k <= 4 */
}

/* Whether some open frame may have addr as its return address (+4k, k <= 4): the index
** answers for the common case, a branch that returns nowhere, without a scan. */
static int maybe_return(const task *t, uint64_t addr)
{
    for (uint64_t k = 0; k <= 16; k += 4)
        if (fst_map_positive(&t->rets, (addr - k) & 0xFFFFFF))
            return 1;
    return 0;
}

/* A branch that can return (DESIGN §3.3): its target comes from a register that can hold
** a return address — an RR branch (BR 14, BCR 15,14, BR 4, BSM 0,14) — or it is an RX
** branch based or indexed on the link register (B 4(,14)). Never BCTR (a loop), a relative
** branch (J, JNE, BRC, BRCL: compiled code's jumps to a function's exit label), a
** branch-and-link, or an RX branch on any other base (FORTRAN's B EXIT on its code base). */
static int returnlike(const fst_insn *d)
{
    if (d->flags & FST_I_LINK)
        return 0;
    if (d->fmt == FST_FMT_RR)
        return d->bytes[0] != 0x06; /* BCTR */
    return d->fmt == FST_FMT_RX && ((d->bytes[1] & 0x0F) == 14 || d->bytes[2] >> 4 == 14);
}

/* After a taken branch that is not a call: a return to the top frame, or to an older
** frame's (UNWIND), when the branch is return-like. */
static int returns(rp *x, size_t tid, uint16_t cpuno, uint64_t addr)
{
    task *t = &x->t[tid];
    if (!t->n || !returnlike(&t->prev))
        return 0;
    if (at_return(&t->f[t->n - 1], addr)) {
        pop(x, tid, cpuno, FST_EV_RETURN, 0);
        return 1;
    }
    for (size_t i = maybe_return(t, addr) ? t->n - 1 : 0; i-- > 0;) /* the nearest older frame */
        if (at_return(&t->f[i], addr)) {
            while (t->n > i)
                pop(x, tid, cpuno, FST_EV_UNWIND, 0);
            return 1;
        }
    if (t->n == 1 && t->f[0].ret == (~0ull & t->f[0].mask) && (addr < x->p->lo || addr >= x->p->hi)) {
        pop(x, tid, cpuno, FST_EV_RETURN, 0); /* the mainline leaves the program */
        return 1;
    }
    return 0;
}

/* --tail-calls: a branch without link to routine r's entry replaces the top frame
** (profile.h). The mainline's frame is never replaced: it has no caller to return to. */
static void tail_call(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site)
{
    task *t = &x->t[tid];
    if (t->n < 2 || t->routine[t->n - 1] == r)
        return;
    frame f = t->f[t->n - 1];
    pop(x, tid, cpuno, FST_EV_RETURN, 0);
    push_from(x, tid, cpuno, r, f.owner, site, f.ret, f.mask, 1);
}

/* ---- pricing ---- */

/* The cost of prev: priced when it was decoded, but for an outcome not known. */
static fst_fx price(const rp *x, const cpu *c, int taken)
{
    return taken >= 0 ? c->prev_cost[taken] : fst_clock_cost(x->o->clock, &c->prev, taken);
}

/* The instruction mix; an opcode the decoder does not know is counted by opcode, for
** fst-report to say which (rare: a linear search is enough). */
static void count_unknown(fst_profile *p, const fst_insn *d, uint64_t n)
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

static inline void count_op(fst_profile *p, const fst_insn *d)
{
    p->op_insns[d->op]++;
    if (d->op == FST_OP_UNKNOWN)
        count_unknown(p, d, 1);
}

/* The counts a block kept (code.h fst_blk_ran). */
static void count_ops(void *ctx, const fst_insn *d, uint64_t n)
{
    fst_profile *p = ctx;
    p->op_insns[d->op] += n;
    if (d->op == FST_OP_UNKNOWN)
        count_unknown(p, d, n);
}

/* Instructions priced without a row of the cost model (by a class rule or the default):
** from the instruction mix, as fst-report's pricing lines count them (analyze/pricing.c). */
static uint64_t unmodeled_insns(const fst_profile *p, const fst_clock *clk)
{
    uint64_t n = 0;
    for (unsigned op = 0, nops = fst_op_count(); op < nops; op++)
        if (p->op_insns[op]) {
            int how = fst_clock_how(clk, op, NULL);
            n += how == FST_PRICE_RULE || how == FST_PRICE_DEFAULT ? p->op_insns[op] : 0;
        }
    return n;
}

/* n EXECs on c, of d[0..n-1] in c's previous state, owner and task (n > 1: a run, for
** sinks that take them): pending (flush), and an event when a sink other than the call
** graph wants them. The instruction mix is counted by the caller. */
static inline void exec_n(rp *x, cpu *c, uint16_t cpuno, const fst_insn *d, size_t n, fst_fx cost, int taken)
{
    c->pend_n += n;
    c->pend_cost += cost;
    if (!x->want_exec[c->prev_charged])
        return;
    fst_event *e = &c->exec;
    e->kind = FST_EV_EXEC;
    e->cpu = cpuno;
    e->insn = d;
    e->n = n;
    e->state = c->prev_state;
    e->cost = cost;
    e->taken = taken;
    e->routine = c->prev_owner;
    e->charged = c->prev_charged;
    emit(x, e, c->prev_task);
}

static inline void exec_one(rp *x, cpu *c, uint16_t cpuno, const fst_insn *d, fst_fx cost, int taken)
{
    count_op(x->p, d);
    exec_n(x, c, cpuno, d, 1, cost, taken);
}

/* The EXEC of the previous instruction, now that its successor shows whether it branched. */
static inline void exec_prev(rp *x, cpu *c, uint16_t cpuno, int taken)
{
    exec_one(x, c, cpuno, &c->prev, price(x, c, taken), taken);
    c->have_prev = c->ran = 0;
}

/* Whether d, followed by an instruction at addr, branched. An unconditional branch always
** does, even to the next instruction (gcc's `jg f` at the end of a function that f
** follows): the address alone cannot show it. */
static int taken_to(const fst_insn *d, uint64_t addr)
{
    return addr != fst_insn_next(d) ||
           ((d->flags & (FST_I_BRANCH | FST_I_CANBRANCH | FST_I_COND)) == (FST_I_BRANCH | FST_I_CANBRANCH));
}

/* ---- tasks ---- */

static uint64_t amask(uint32_t state)
{
    int amode = fst_st_amode(state);
    return amode == 2 ? ~0ull : amode == 1 ? 0x7FFFFFFFull : 0xFFFFFFull;
}

static uint64_t space_of(const cpu *c, uint32_t state)
{
    if (!(state & FST_ST_DAT))
        return FST_SPACE_REAL;
    return c->cr1_known ? c->cr1 : FST_SPACE_UNKNOWN;
}

/* A task id from tasks.c: make room for its call state and its per-task profile. */
static void task_room(rp *x, size_t tid)
{
    fst_profile *p = x->p;
    while (x->nt <= tid) {
        if (x->nt == x->tcap) {
            x->tcap = x->tcap ? x->tcap * 2 : 16;
            x->t = fst_xrealloc(x->t, x->tcap * sizeof *x->t);
            p->tasks = fst_xrealloc(p->tasks, x->tcap * sizeof *p->tasks);
        }
        const fst_task *id = fst_tasks_get(x->ids, x->nt);
        x->t[x->nt] = (task){ 0 };
        p->tasks[x->nt] = (fst_taskprof){ .id = (uint32_t)x->nt, .space = id->space, .first = id->first,
                                          .mainline = FST_NONE, .r = fst_xcalloc(p->nr + 1, sizeof(fst_taskroutine)) };
        x->nt++;
        p->ntasks = x->nt;
    }
}

static int is_lpsw(const fst_insn *d) { return d->bytes[0] == 0x82 || (d->bytes[0] == 0xB2 && d->bytes[1] == 0xB2); }

/* Where the task resumes after an interruption right after its instruction `d`. */
static uint64_t resume_after(const cpu *c, const fst_insn *d, int svc)
{
    int branch = (d->flags & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)) != 0;
    if (svc)
        return fst_insn_next(d);
    if (c->pgm) {   /* nullifying: segment and page translation, the instruction again */
        unsigned k = c->pgm & 0xFF;
        if (k == 0x10 || k == 0x11)
            return branch ? FST_RESUME_UNKNOWN : d->addr; /* after a branch: the target's fetch */
    }
    return branch ? FST_RESUME_UNKNOWN : fst_insn_next(d);
}

/* The running task stops; `intr`: by an interruption (not a wait state). */
static void suspend(rp *x, cpu *c, uint64_t resume, int intr)
{
    task *t = &x->t[c->task];
    fst_tasks_suspend(x->ids, c->task, resume, t->have_prev ? amask(t->prev_state) : ~0ull,
                      t->have_prev ? (t->prev_state & FST_ST_PROBLEM) != 0 : 0);
    if (t->n && intr)
        x->p->intr_in_routine++;
}

static void dispatch(rp *x, cpu *c, const fst_rec *rec)
{
    int how, problem = (rec->state & FST_ST_PROBLEM) != 0;
    size_t tid = fst_tasks_dispatch(x->ids, rec->addr, space_of(c, rec->state), problem, c->lpsw, &how);
    if (tid == FST_NOTASK_ID) {
        const fst_task *cur = c->task != FST_NONE ? fst_tasks_get(x->ids, c->task) : NULL;
        if (!cur || !cur->suspended || cur->problem || cur->resume != FST_RESUME_UNKNOWN) {
            c->dispatch = 0;    /* the supervisor resumes its own work: still handling */
            return;
        }
        tid = c->task;  /* the supervisor-state task whose interruption it handled */
        fst_tasks_resume(x->ids, tid, c->lpsw);
        how = FST_TASK_BY_ELIMINATION;
    }
    task_room(x, tid);
    x->p->dispatches++;
    x->p->by_elimination += how == FST_TASK_BY_ELIMINATION;
    x->p->guessed += how == FST_TASK_GUESSED;
    x->p->tasks[tid].space = fst_tasks_get(x->ids, tid)->space;
    c->task = tid;
    c->handler = c->dispatch = 0;
    c->lpsw = 0;
    if (how == FST_TASK_NEW) {  /* a task entered at a routine: its mainline */
        size_t r = find_entry(x, rec->addr);
        if (r != FST_NONE) {
            enter_mainline(x, tid, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            x->p->tasks[tid].mainline = r;
        }
    }
}

/* Running a task: does this instruction continue it, or did an interruption come? */
static void check_flow(rp *x, cpu *c, const fst_rec *rec)
{
    task *t = &x->t[c->task];
    if (c->gap) {           /* tracing was off: the jump is not the program's */
        t->have_prev = 0;
        return;
    }
    const fst_insn *d = &t->prev;
    int svc = t->have_prev && d->bytes[0] == 0x0A;
    int to_sup = t->have_prev && (t->prev_state & FST_ST_PROBLEM) && !(rec->state & FST_ST_PROBLEM);
    if (c->intr || svc || to_sup) {
        suspend(x, c, t->have_prev ? resume_after(c, d, svc) : FST_RESUME_UNKNOWN, 1);
        c->handler = 1;
    } else if (t->have_prev && is_lpsw(d) && !(t->prev_state & FST_ST_PROBLEM) && (rec->state & FST_ST_PROBLEM)) {
        suspend(x, c, FST_RESUME_UNKNOWN, 0); /* the supervisor's first dispatch (the trace began in it) */
        c->handler = 1;
        dispatch(x, c, rec);
    } else if (t->have_prev && !(d->flags & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)) &&
               rec->addr != fst_insn_next(d)) {
        suspend(x, c, fst_insn_next(d), 1);  /* handled where the range trace does not look */
        c->handler = 1;
        dispatch(x, c, rec);
    }
}

/* A task's instruction: calls and returns in its stack (DESIGN §3). */
/* The task's previous instruction, a branch, was taken to rec: a call, a return, a tail call? */
static void branched_to(rp *x, size_t tid, const fst_rec *rec)
{
    fst_profile *p = x->p;
    task *t = &x->t[tid];
    size_t r = find_entry(x, rec->addr);
    if ((t->prev.flags & FST_I_LINK) && t->prev.link == 14 && r != FST_NONE) {
        uint64_t mask = amask(t->prev_state);
        if (!t->had_mainline && t->n == 0 && (p->r[r].mainline || !x->mainline_fixed)) {
            enter_mainline(x, tid, rec->cpu, r, t->prev.addr, fst_insn_next(&t->prev), mask);
            p->tasks[tid].mainline = r;
        } else
            push(x, tid, rec->cpu, r, t->prev.addr, fst_insn_next(&t->prev), mask, 1);
    } else if (!returns(x, tid, rec->cpu, rec->addr) && x->o->tail_calls && r != FST_NONE &&
               !(t->prev.flags & FST_I_LINK))
        tail_call(x, tid, rec->cpu, r, t->prev.addr);
}

static void run_insn(rp *x, cpu *c, const fst_rec *rec, const fst_insn *d)
{
    fst_profile *p = x->p;
    size_t tid = c->task;
    task *t = &x->t[tid];
    int branched = 0, was_branch = 0;
    if (t->have_prev) {
        was_branch = (t->prev.flags & FST_I_BRANCH) && (t->prev.flags & FST_I_CANBRANCH);
        branched = taken_to(&t->prev, rec->addr);
    }
    if (branched && was_branch)
        branched_to(x, tid, rec);
    else if (t->n == 0 && !t->had_mainline && x->mainline_fixed) {
        size_t r = find_entry(x, rec->addr); /* the mainline entered without a call */
        if (r != FST_NONE && p->r[r].mainline) {
            enter_mainline(x, tid, rec->cpu, r, rec->addr, ~0ull, ~0ull);
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
** 0, having done nothing, when that is not the case. */
static inline int insn_fast(rp *x, cpu *c, const fst_rec *rec, const fst_insn *d, const fst_fx cost[2])
{
    if (!c->ran || rec->state != c->prev_state || !x->plain)
        return 0;
    const fst_insn *pv = &c->prev;
    unsigned fl = pv->flags;
    int taken = (fl & FST_I_CANBRANCH) ? taken_to(pv, rec->addr) : 0;
    size_t owner;
    if (c->handler) {           /* handling, no dispatch due (c->ran) */
        exec_one(x, c, rec->cpu, pv, c->prev_cost[taken], taken);
        c->dispatch = is_lpsw(d);
        c->ran = !c->dispatch;
        owner = c->task == FST_NONE ? FST_NONE : top_owner(&x->t[c->task]);
    } else {                    /* the task's instruction; pv is the task's prev too (c->ran) */
        task *t = &x->t[c->task];
        int branched = taken && (fl & FST_I_BRANCH);
        if (fl & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)) {
            if (pv->bytes[0] == 0x0A)
                return 0;       /* SVC: the task is suspended (check_flow) */
        } else if (rec->addr != fst_insn_next(pv))
            return 0;           /* an interruption the trace does not show (check_flow) */
        if (!branched && t->n == 0 && !t->had_mainline && x->mainline_fixed)
            return 0;           /* the mainline entered without a call? (run_insn) */
        exec_one(x, c, rec->cpu, pv, c->prev_cost[taken], taken);
        if (branched)
            branched_to(x, c->task, rec);
        t->prev = *d;
        owner = top_owner(t);
    }
    int charged = owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
    if (owner != c->prev_owner || charged != c->prev_charged)
        flush(x, c);
    c->prev = *d;
    c->prev_cost[0] = cost[0];
    c->prev_cost[1] = cost[1];
    c->prev_owner = owner;
    c->prev_charged = charged;
    return 1;
}

static void insn(rp *x, const fst_rec *rec, const fst_insn *d, const fst_fx cost[2])
{
    fst_profile *p = x->p;
    cpu *c = cpu_of(x, rec->cpu);
    if (c->have_prev) {
        int can = (c->prev.flags & FST_I_CANBRANCH) != 0;
        exec_prev(x, c, rec->cpu, !can ? 0 : c->intr ? FST_TAKEN_UNKNOWN : taken_to(&c->prev, rec->addr));
    }
    if (c->task == FST_NONE && !c->handler) { /* the first instruction on this CPU */
        c->task = fst_tasks_start(x->ids, rec->addr, space_of(c, rec->state));
        task_room(x, c->task);
        size_t r = find_entry(x, rec->addr); /* a trace that begins at a routine: its mainline */
        if (r != FST_NONE) {
            enter_mainline(x, c->task, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            p->tasks[c->task].mainline = r;
        }
    } else if (!c->handler)
        check_flow(x, c, rec);
    if (c->handler && (c->dispatch || (rec->state & FST_ST_PROBLEM)))
        dispatch(x, c, rec);
    size_t owner;
    if (!c->handler) {
        run_insn(x, c, rec, d);
        owner = top_owner(&x->t[c->task]);
    } else {
        c->dispatch = is_lpsw(d);
        owner = c->task == FST_NONE ? FST_NONE : top_owner(&x->t[c->task]);
    }
    int sup = !(rec->state & FST_ST_PROBLEM);
    if (sup && x->sup != FST_NONE)
        owner = x->sup;
    int excluded = x->may_exclude &&
                   ((owner != FST_NONE && p->r[owner].excluded) || (x->o->cpu_problem && sup) ||
                    (x->o->space_set && (c->task == FST_NONE || p->tasks[c->task].space != x->o->space)));
    int charged = excluded ? FST_CHARGE_EXCLUDED : owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
    if (c->prev_state != rec->state || c->prev_task != c->task || c->prev_owner != owner || c->prev_charged != charged)
        flush(x, c); /* what is pending was executed with the old ones */
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
}

/* ---- SEQ runs, block by block ---- */

/* Whether the instruction after c's previous one, in sequence and in the same state, needs
** none of insn()'s decisions: the previous one is plain (code.h), no interruption, gap or
** dispatch is pending, and the mainline is not looked for at every instruction. */
static int flows_on(const rp *x, const cpu *c)
{
    if (!c->have_prev || c->intr || c->gap || !fst_code_plain(&c->prev))
        return 0;
    if (c->handler)
        return !c->dispatch && !(c->prev_state & FST_ST_PROBLEM);
    const task *t = &x->t[c->task];
    return t->n || t->had_mainline || !x->mainline_fixed;
}

/* The rest of a SEQ run on CPU cpuno (tracebin.h fst_tr_seq_left), from instruction i of
** block b (code.h) on, a block at a time while it flows on: then insn() would only move the
** previous instruction along, so the EXECs of a block are counted and priced together
** (one by one only for a sink that wants them). What does not flow on is left to
** fst_tr_next and insn(). */
static void seq_rest(rp *x, fst_tr *tr, uint16_t cpuno, fst_blk *b, uint32_t i)
{
    cpu *c = &x->cpus[cpuno];
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
            task *t = &x->t[c->task];
            t->prev = c->prev;
            t->have_prev = 1;
        }
        fst_tr_seq_take(tr, m, fst_insn_next(&c->prev));
        i = last + 1;
    }
}

static void wait_state(rp *x, cpu *c, const fst_rec *rec)
{
    if (c->task != FST_NONE && !c->handler) { /* the task waits where its wait PSW points */
        uint64_t ia = rec->pswlen ? fst_psw_ia(rec->psw, rec->pswlen) : FST_RESUME_UNKNOWN;
        suspend(x, c, ia, 0);
    }
    c->task = FST_NONE;
    c->handler = 1;
    c->dispatch = 0;
    c->ran = 0;
}

static void other(rp *x, const fst_rec *rec)
{
    cpu *c = cpu_of(x, rec->cpu);
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
            c->intr = 1, c->ran = 0;
        break;
    case FST_REC_WAIT:
        e.kind = FST_EV_WAIT; e.cls = rec->cls;
        wait_state(x, c, rec);
        break;
    case FST_REC_LPSW:
        c->lpsw = rec->addr;
        return;
    case FST_REC_CR:
        if (rec->cls == 1) {
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
    emit(x, &e, c->task);
}

static void finish(rp *x)
{
    for (size_t i = 0; i < x->ncpu; i++)
        if (x->cpus[i].have_prev)
            exec_prev(x, &x->cpus[i], (uint16_t)i, FST_TAKEN_UNKNOWN);
    for (size_t tid = 0; tid < x->nt; tid++) {
        x->p->open_frames += x->t[tid].n;
        while (x->t[tid].n)
            pop(x, tid, 0, FST_EV_RETURN, 1);
    }
}

int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, const fst_sink *sinks,
               size_t nsinks, fst_err *err)
{
    memset(p, 0, sizeof *p);
    p->mainline = -1;
    p->supervisor = o->supervisor;
    rp x = { .p = p, .o = o };
    fst_callgraph *cg = NULL;
    int rc = -1;
    if (fst_routines_build(p, tr, pm, o, err))
        goto out;
    build_hash(&x);
    x.may_exclude = o->cpu_problem || o->space_set;
    for (size_t r = 0; r < p->nr; r++)
        x.may_exclude |= p->r[r].excluded != 0;
    x.plain = !x.may_exclude && x.sup == FST_NONE;
    x.ids = fst_tasks_new();
    cg = fst_callgraph_new(p);
    x.sinks = fst_xcalloc(nsinks + 1, sizeof *x.sinks);
    x.sinks[0] = (fst_sink){ fst_callgraph_event, cg,
                             FST_WANT(FST_EV_CALL) | FST_WANT(FST_EV_RETURN) | FST_WANT(FST_EV_UNWIND) |
                                 FST_WANT(FST_EV_INTERRUPT) | FST_WANT(FST_EV_WAIT) | FST_WANT(FST_EV_MARK) };
    for (size_t i = 0; i < nsinks; i++)
        x.sinks[i + 1] = sinks[i];
    x.nsinks = nsinks + 1;
    sort_sinks(&x);
    x.code = fst_code_new(o->clock, count_ops, p);
    p->op_insns = fst_xcalloc(fst_op_count(), sizeof *p->op_insns);
    fst_rec rec;
    int k;
    while ((k = fst_tr_next(tr, &rec, err)) > 0) {
        fst_blk *b;
        if (rec.kind == FST_REC_INSN && fst_tr_seq_left(tr) && (b = fst_code_block(x.code, tr, rec.addr, rec.state))) {
            cpu *c = cpu_of(&x, rec.cpu);   /* a SEQ run: its first instruction starts a block */
            if (!insn_fast(&x, c, &rec, &b->d[0], b->cost[0]))
                insn(&x, &rec, &b->d[0], b->cost[0]);
            seq_rest(&x, tr, rec.cpu, b, 1);
        } else if (rec.kind == FST_REC_INSN)
        {
            const fst_code_ent *ce = fst_code_insn(x.code, rec.addr, rec.bytes, rec.state);
            if (!insn_fast(&x, cpu_of(&x, rec.cpu), &rec, &ce->d, ce->cost))
                insn(&x, &rec, &ce->d, ce->cost);
        }
        else
            other(&x, &rec);
    }
    if (k < 0)
        goto out;
    finish(&x);
    flush_all(&x);
    fst_code_fold(x.code);
    const char *why;
    p->complete = fst_tr_complete(tr, &why);
    if (!p->complete)
        snprintf(p->incomplete, sizeof p->incomplete, "%s", why);
    snprintf(p->clock, sizeof p->clock, "%s", fst_clock_name(o->clock));
    p->unmodeled = unmodeled_insns(p, o->clock);
    rc = fst_profile_check(p, err);
out:
    for (size_t i = 0; i < x.nt; i++) {
        free(x.t[i].f);
        free(x.t[i].routine);
        fst_map_free(&x.t[i].rets);
    }
    free(x.t);
    fst_tasks_free(x.ids);
    fst_callgraph_free(cg);
    free(x.sinks);
    for (size_t w = 0; w <= FST_EV_MARK + 1; w++)
        free(x.want[w]);
    free(x.hash);
    fst_code_free(x.code);
    free(x.cpus);
    if (rc < 0)
        fst_profile_free(p);   /* a failed replay leaves nothing to free (fst-diff goes on) */
    return rc;
}
