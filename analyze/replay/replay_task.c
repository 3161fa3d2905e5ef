/* analyze/replay/replay_task.c — which task a CPU runs (replay_int.h; the rules in profile.h, the
** identities in tasks.h): interruptions and task switches that suspend it, with what the
** trace shows of where and with what it can resume; dispatches that resume one, with what
** the trace shows of them; wait states. */
#include "analyze/replay/replay_int.h"
#include "trace/psw.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t fst_rp_space_of(const rp_cpu *c, uint32_t state)
{
    if (!(state & FST_ST_DAT))
        return FST_SPACE_REAL;
    return c->cr1_known ? c->cr1 : FST_SPACE_UNKNOWN;
}

/* A task id from tasks.c: make room for its call state and its per-task profile. */
void fst_rp_task_room(rp *x, size_t tid)
{
    fst_profile *p = x->p;
    while (x->nt <= tid) {
        if (x->nt == x->tcap) {
            x->tcap = x->tcap ? x->tcap * 2 : 16;
            x->t = fst_xrealloc(x->t, x->tcap * sizeof *x->t);
            p->tasks = fst_xrealloc(p->tasks, x->tcap * sizeof *p->tasks);
        }
        const fst_task *id = fst_tasks_get(x->ids, x->nt);
        x->t[x->nt] = (rp_task){ 0 };
        p->tasks[x->nt] = (fst_taskprof){ .id = (uint32_t)x->nt, .first = id->first, .mainline = FST_NONE };
        fst_rp_task_space(x, x->nt, id->space);
        x->nt++;
        p->ntasks = x->nt;
    }
}

/* Task tid stops running (tasks.h). With no frame open it keeps no stack: a task that
** ended is never seen to end (it stays suspended), and a system runs thousands of them,
** so their stacks (and the call graph's, as long as the map) are freed, made again at
** the task's next call. */
static void stop_task(rp *x, size_t tid, const fst_resume *r_)
{
    rp_task *t = &x->t[tid];
    fst_resume r = *r_;
    r.frames = t->n != 0;
    fst_tasks_suspend(x->ids, tid, &r);
    if (t->n)
        return;
    free(t->f);
    free(t->routine);
    free(t->rets);
    t->f = NULL;
    t->routine = NULL;
    t->rets = NULL;
    t->cap = 0;
    fst_callgraph_idle(x->cg, (uint32_t)tid);
}

void fst_rp_task_space(rp *x, size_t tid, uint64_t space)
{
    fst_taskprof *tp = &x->p->tasks[tid];
    tp->space = space;
    tp->excluded = !fst_replay_keeps_space(x->o, space);
    tp->unnamed = !fst_replay_names_space(x->o, space);
}

/* The registers as the trace showed them with d, the CPU's last instruction: the REGS
** record before the current instruction moved the ones before it to pgr. */
static const uint64_t *regs_at_prev(const rp_cpu *c, uint16_t *grv)
{
    *grv = c->fresh ? c->pgrv & (uint16_t)~c->pdirty : c->grv & (uint16_t)~c->dirty;
    return c->fresh ? c->pgr : c->gr;
}

/* The registers the dispatched instruction shows: a REGS trace's display, or the base
** registers its operands showed (a BASES trace: the rest belongs to the task before). */
static uint16_t regs_now(const rp *x, const rp_cpu *c) { return x->bases ? c->gnow : c->grv; }

/* Of those, the ones whose match tells tasks apart: in a BASES trace not the ones that hold
** an address of the program's code (a routine's base, R15 at its entry: every task running
** it has them), but a task's own save area (R13) or data. */
static uint16_t regs_tell(const rp *x, const rp_cpu *c)
{
    uint16_t m = regs_now(x, c);
    if (!x->bases)
        return m;
    for (int g = 0; g < 16; g++)
        if ((m >> g & 1) && c->gr[g] >= x->p->lo && c->gr[g] < x->p->hi)
            m &= (uint16_t)~(1u << g);
    return m;
}

/* BASES: what is known of the running task's registers is its own: after a dispatch, what
** was known when it was suspended (less what may have changed), and what it shows now. */
static void regs_of_task(rp *x, rp_cpu *c, size_t tid)
{
    if (!x->bases)
        return;
    const fst_task *t = fst_tasks_get(x->ids, tid);
    uint16_t keep = t->r.grv & (uint16_t)~t->r.grfree & (uint16_t)~c->gnow; /* a new task: none */
    for (int g = 0; g < 16; g++)
        if (keep >> g & 1)
            c->gr[g] = t->r.gr[g];
    c->grv = keep | c->gnow;
    c->dirty = 0;
}

/* Where branch d goes when taken, when the trace shows it: from the instruction itself
** (relative, no base), the operand line (OPND), or the register an RR branch names. */
static int branch_target(const rp_cpu *c, const fst_insn *d, uint32_t state, uint64_t *tg)
{
    if (d->flags & FST_I_TARGET) {
        *tg = d->target;
        return 1;
    }
    if (c->have_opnd) {
        *tg = c->opnd;
        return 1;
    }
    uint16_t v;
    const uint64_t *gr = regs_at_prev(c, &v);
    if (d->fmt == FST_FMT_RR || d->fmt == FST_FMT_RRE) {
        unsigned r = d->fmt == FST_FMT_RR ? d->bytes[1] & 0xF : d->bytes[3] & 0xF;
        if (v >> r & 1) {
            *tg = gr[r] & amask(state);
            return 1;
        }
    }
    if ((d->fmt == FST_FMT_RX || d->fmt == FST_FMT_RS) && !(d->fmt == FST_FMT_RX && (d->bytes[1] & 0xF))) {
        unsigned b = d->bytes[2] >> 4;  /* D(B) with its base register known (BASES) */
        if (b && (v >> b & 1)) {
            *tg = (gr[b] + ((uint64_t)(d->bytes[2] & 0xF) << 8 | d->bytes[3])) & amask(state);
            return 1;
        }
    }
    return 0;
}

/* Where a task whose last instruction was d can resume: kind SUSP_SVC after its SVC,
** SUSP_INTR after an interruption (c->pgm: a program check), SUSP_SWITCH a task switch
** seen only as a jump (a range trace). */
enum { SUSP_INTR, SUSP_SVC, SUSP_SWITCH };
static void resume_of(const rp_cpu *c, const rp_task *t, const fst_insn *d, uint32_t state, int kind, fst_resume *r)
{
    r->n = 0;
    r->anywhere = 0;
    r->mask = amask(state);
    r->problem = (state & FST_ST_PROBLEM) != 0;
    uint64_t next = fst_insn_next(d), tg;
    if (kind == SUSP_SVC) {
        r->at[r->n++] = next;
        return;
    }
    if (d->flags & (FST_I_EXECUTE | FST_I_PSW)) { /* what an EX executed, a PSW loaded: not shown */
        r->anywhere = 1;
        r->at[r->n++] = next;
        return;
    }
    if (!(d->flags & FST_I_CANBRANCH)) {
        /* nullified (a page or segment fault): d again; so may it be after an interruption
        ** the trace did not show (a switch seen by its jump, or a handler's instruction
        ** with no interruption record: a range trace's page fault) */
        unsigned k = c->pgm & 0xFF;
        if (kind == SUSP_INTR && c->pgm && (k == 0x10 || k == 0x11 || (k >= 0x38 && k <= 0x3B)))
            r->at[r->n++] = d->addr;    /* (or the fetch of the next one faulted) */
        else if ((kind == SUSP_INTR && !c->intr) || kind == SUSP_SWITCH) {
            r->weak |= 1u << r->n;      /* nothing shows a fault: as weak as anywhere */
            r->at[r->n++] = d->addr;
        }
        r->at[r->n++] = next;
        return;
    }
    if (branch_target(c, d, state, &tg))
        r->at[r->n++] = tg;
    else {  /* anywhere, most likely the caller after a return (exact beats anywhere: tasks.h) */
        r->anywhere = 1;
        if (t->n && returnlike(d) && t->f[t->n - 1].ret != (~0ull & t->f[t->n - 1].mask))
            r->at[r->n++] = t->f[t->n - 1].ret;
    }
    if ((d->flags & FST_I_COND) || r->n == 0) /* it may have fallen through */
        r->at[r->n++] = next;
    if (r->n == 2 && r->at[0] == r->at[1])
        r->n = 1;
}

/* The running task stops. Its registers: shown with the handler's first instruction (the
** current one, `exact`), or with its own last one, less what that may have written. */
static void suspend(rp *x, rp_cpu *c, int kind, int exact, int intr)
{
    rp_task *t = &x->t[c->task];
    fst_resume r = { 0 };
    if (t->have_prev)
        resume_of(c, t, &t->prev, t->prev_state, kind, &r);
    else
        r.anywhere = 1, r.mask = ~0ull;
    uint16_t v;
    const uint64_t *gr = exact ? (v = c->grv, c->gr) : regs_at_prev(c, &v);
    r.grv = v;
    memcpy(r.gr, gr, sizeof r.gr);
    if (!exact && t->have_prev)
        r.grfree = t->prev.wregs;
    if (t->have_prev && (t->prev.bytes[0] == 0x0A || (t->prev.flags & FST_I_LINK)))
        r.grfree |= 1u << 0 | 1u << 1 | 1u << 14 | 1u << 15;  /* an SVC's, or an untraced callee's, results */
    if (c->late) {  /* its last instructions may have been the other task's: where it resumes
                    ** and with what, unknown */
        r.n = 0;
        r.anywhere = 1;
        r.grv = 0;
    }
    stop_task(x, c->task, &r);
    fst_rp_tent_end(x, c->task);
    c->susp_cls = kind == SUSP_SVC ? FST_INTR_SVC : c->pgm ? FST_INTR_PGM_ : c->intr_cls;
    c->refined = 0;
    c->lmblk = 0;
    if (t->n && intr)
        x->p->intr_in_routine++;
}

/* An old-PSW slot (tracebin.h OLDPSW): 0 when addr is none, else the interruption class
** whose old PSW it holds. */
static int slot_class(uint64_t addr)
{
    static const int cls[5] = { FST_INTR_EXT, FST_INTR_SVC, FST_INTR_PGM_, FST_INTR_MCHK, FST_INTR_IO };
    if (addr >= 0x18 && addr <= 0x38 && !(addr & 7))
        return cls[(addr - 0x18) / 8];
    if (addr >= 0x130 && addr <= 0x170 && !(addr & 0xF))
        return cls[(addr - 0x130) / 16];
    return 0;
}

void fst_rp_oldpsw(rp *x, rp_cpu *c, const fst_rec *rec)
{
    if (!c->handler || c->task == FST_NONE || c->refined)
        return;
    fst_task *t = fst_tasks_get(x->ids, c->task);
    int cls = slot_class(rec->addr), want = c->susp_cls;
    /* the handler of an interruption the trace did not name (3.13: external or I/O) */
    int fits = want ? cls == want : cls == FST_INTR_EXT || cls == FST_INTR_IO || cls == FST_INTR_MCHK;
    if (t->suspended && fits && ((rec->psw[1] & 0x01) != 0) == t->r.problem)
        c->refined = fst_tasks_refine(x->ids, c->task, fst_psw_ia(rec->psw, rec->pswlen));
}

void fst_rp_opnd(rp *x, rp_cpu *c, const fst_rec *rec)
{
    c->opnd = rec->addr;
    c->have_opnd = 1;
    if (!c->have_prev || (c->prev_state & FST_ST_PROBLEM) || fst_insn_nregs(&c->prev) != 16)
        return;
    if (c->prev.bytes[0] == 0x98 || (c->prev.bytes[0] == 0xEB && c->prev.bytes[5] == 0x04))
        c->lmblk = rec->addr;   /* LM 0,15: the block a dispatcher restores from */
    else if (c->handler && c->task != FST_NONE && fst_tasks_get(x->ids, c->task)->suspended)
        fst_tasks_saved(x->ids, c->task, rec->addr);   /* STM 0,15: where the handler saved it */
}

/* The dispatch of d: which task, counted; NOTASK for a supervisor-state one no task
** accounts for. */
static size_t dispatch_of(rp *x, const fst_dispatch *d)
{
    int how;
    size_t left, tid = fst_tasks_dispatch(x->ids, d, &how, &left);
    if (tid == FST_NOTASK_ID)
        return tid;
    fst_rp_task_room(x, tid);
    x->p->dispatches++;
    x->p->new_tasks += how == FST_TASK_NEW;
    x->p->redirected += how == FST_TASK_REDIRECTED;
    if (how == FST_TASK_NEW && fst_rp_any_taint(x) && fst_rp_taint(x, tid))
        x->p->unc_dispatches++;    /* replay_unc.c: may be a task a guess misplaced */
    if (how == FST_TASK_GUESSED) {
        x->p->guessed++;
        x->p->guess_left += left;
        fst_rp_guessed(x, tid, d->addr);
    }
    fst_rp_task_space(x, tid, fst_tasks_get(x->ids, tid)->space);
    return tid;
}

/* The handler's LPSW loaded a problem-state PSW, but an interruption came before its first
** instruction (rec is the next handler's): that task was dispatched and is suspended again
** at once, where the PSW points, with the registers the dispatcher loaded. */
static int dispatched_interrupted(rp *x, rp_cpu *c, const fst_rec *rec)
{
    if ((rec->state & FST_ST_PROBLEM) || !c->lpsw || !c->lpsw_pswlen || !(c->lpsw_psw[1] & 0x01))
        return 0;
    uint32_t st = fst_psw_state(c->lpsw_psw, c->lpsw_pswlen, fst_st_arch(rec->state));
    uint64_t ia = fst_psw_ia(c->lpsw_psw, c->lpsw_pswlen);
    fst_dispatch d = { .addr = ia, .space = fst_rp_space_of(c, st), .problem = 1,
                       .lpsw = c->lpsw,
                       .lpsw_slot = slot_class(c->lpsw) != 0, .block = c->lmblk, .grv = c->grv,
                       .grtell = c->grv, .gr = c->gr, .entry = find_entry(x, ia) != FST_NONE };
    size_t tid = dispatch_of(x, &d);
    fst_resume r = { .at = { ia }, .n = 1, .mask = amask(st), .problem = 1, .grv = c->grv };
    memcpy(r.gr, c->gr, sizeof r.gr);
    stop_task(x, tid, &r);
    c->task = tid;
    c->susp_cls = c->intr_cls;
    c->refined = 1;     /* its PSW is known: an old PSW shown now is this one */
    c->lpsw = c->lmblk = 0;
    c->dispatch = 0;
    return 1;
}

/* Whether the registers shown for c's task say a call is in progress (at a task's first
** dispatch in a window of a running system: fst_rp_dispatch) */
static int in_call(const rp *x, const rp_cpu *c, uint32_t state)
{
    uint64_t r14 = c->gr[14] & amask(state);    /* 24-bit: BALR's ILC, CC and mask above */
    return (regs_now(x, c) >> 14 & 1) && !(c->dirty >> 14 & 1) && r14 != 0 && r14 >= x->p->lo && r14 < x->p->hi;
}

void fst_rp_dispatch(rp *x, rp_cpu *c, const fst_rec *rec)
{
    if (dispatched_interrupted(x, c, rec))
        return;     /* still handling, now for the task it dispatched */
    fst_dispatch d = { .addr = rec->addr, .space = fst_rp_space_of(c, rec->state),
                       .problem = (rec->state & FST_ST_PROBLEM) != 0,
                       .lpsw = c->lpsw,
                       .lpsw_slot = slot_class(c->lpsw) != 0, .block = c->lmblk, .grv = regs_now(x, c),
                       .grtell = regs_tell(x, c), .gr = c->gr, .not_plus1 = c->not_plus1,
                       .entry = find_entry(x, rec->addr) != FST_NONE };
    c->not_plus1 = 0;
    size_t tid = dispatch_of(x, &d);
    if (tid == FST_NOTASK_ID) {
        c->dispatch = 0;    /* the supervisor resumes its own work: still handling */
        return;
    }
    regs_of_task(x, c, tid);
    c->task = tid;
    c->handler = c->dispatch = 0;
    c->lpsw = c->lmblk = 0;
    c->nsince = 0;
    if (x->inferring) {
        x->inferring = 0;
        fst_rp_taint(x, tid);
    }
    size_t late = !c->late ? FST_NONE : c->psp_call != FST_NONE ? c->psp_call : c->disp_entry;
    c->late = 0;
    c->disp_entry = find_entry_for(x, tid, rec->addr);
    if (!x->t[tid].started) {   /* a task's first instruction, at a routine: its mainline, */
        x->t[tid].started = 1;
        /* but not in a window of a running system where R14 shows a call in progress: a
        ** task resumed at the entry of a routine it had called (an interruption right after
        ** the BALR, or a loop back to the entry) before the window began. A task starts its
        ** mainline with R14 outside the program's extent (lo..hi): MVS's CVTEXIT in the
        ** nucleus, the task exit of tests/programs/tasks.s and tests/os; a return address
        ** inside was left by a caller's BALR 14. The routine is then never entered, as when
        ** a window begins inside it; made the mainline, it would never return (every later
        ** instruction of the task charged to it: tests/e2e/modattach.sh's "tasks"). Not
        ** elsewhere: a trace that shows a task start shows it at its mainline's entry. */
        int resumed = x->midrun && in_call(x, c, rec->state);
        size_t r = resumed ? FST_NONE : find_entry_for(x, tid, rec->addr);
        if (r == FST_NONE && !resumed)
            r = late;   /* a switch seen late: it began at the routine entered just before */
        if (r != FST_NONE && x->t[tid].n == 0 && !x->t[tid].had_mainline) {
            fst_rp_enter_mainline(x, tid, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            x->p->tasks[tid].mainline = r;
        }
    }
}

/* Whether the task's last instruction d cannot be followed by one at addr in the same
** task: a jump no branch explains, a branch to neither its target nor its fall-through
** (the trace showing the target), or the capture saw such a jump (OPND). */
static int jump_breaks(rp *x, rp_cpu *c, const rp_task *t, const fst_rec *rec)
{
    const fst_insn *d = &t->prev;
    uint32_t state = t->prev_state;
    uint64_t addr = rec->addr;
    if (!(d->flags & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)))
        return addr != fst_insn_next(d);
    if (!(d->flags & FST_I_CANBRANCH))
        return 0;
    if (c->have_opnd)
        return 1;   /* the capture saw the branch followed by neither (tracebin.h OPND) */
    uint64_t tg, m = amask(state);
    if (branch_target(c, d, state, &tg))
        return (addr & m) != (tg & m) && (!(d->flags & FST_I_COND) || addr != fst_insn_next(d));
    /* a branch on a register the trace did not show: a call goes to a routine's entry, a
    ** return to the top frame's caller; when it went elsewhere, to where a suspended task
    ** resumes exactly, that task resumed (counted: an inference, not a certainty) */
    if (x->sup_seen)
        return 0;   /* the supervisor is traced: a switch would have shown its handler */
    int fits = (d->flags & FST_I_LINK) ? find_entry(x, addr) != FST_NONE
             : t->n && returnlike(d)    ? (addr & m) == (t->f[t->n - 1].ret & m)
                                        : 1;
    if (fits)
        return 0;
    if (!fst_tasks_resumes_at(x->ids, addr, fst_rp_space_of(c, rec->state), (rec->state & FST_ST_PROBLEM) != 0)) {
        /* a jump the branch may have made, or a new task that began there: the task goes on,
        ** uncertain from here (replay_unc.c) */
        if (fst_rp_taint(x, c->task))
            x->p->unc_dispatches++;
        return 0;
    }
    x->p->inferred++;
    fst_rp_taint(x, c->task);   /* an inference: both tasks are uncertain */
    x->inferring = 1;
    return 1;
}

/* A switch the base registers showed (a range trace without registers, tracebin.h BASES):
** it may have come a few instructions before, after a branch on a register the trace did not
** show, which the replay took for the task's own: like an inferred switch (jump_breaks), the
** two tasks' figures are uncertain from here on, and with them a call that branch may have
** been (replay_unc.c). */
static void late_switch(rp *x, rp_cpu *c)
{
    c->late = 1;
    x->p->inferred++;
    fst_rp_taint(x, c->task);
    x->inferring = 1;
    if (c->psp_call != FST_NONE) {
        x->p->r[c->psp_call].calls_unc++;
        x->p->unc_calls++;
    }
    /* the instructions since the registers last agreed, which the other task may have run */
    size_t n = c->nsince < 64 ? c->nsince : 64;
    for (size_t i = 0; i < n; i++)
        fst_rp_uncertain(x, c->since[(c->nsince - 1 - i) & 63].addr, c->since[(c->nsince - 1 - i) & 63].owner);
    c->nsince = 0;
}

/* Running a task: does this instruction continue it, or did an interruption come? */
void fst_rp_check_flow(rp *x, rp_cpu *c, const fst_rec *rec)
{
    rp_task *t = &x->t[c->task];
    if (c->gap) {           /* tracing was off: the jump is not the program's */
        t->have_prev = 0;
        return;
    }
    const fst_insn *d = &t->prev;
    int svc = t->have_prev && d->bytes[0] == 0x0A;
    if (svc && x->sup_seen && !x->ranged && !c->intr && !c->space_new &&
        (t->prev_state & FST_ST_PROBLEM) && (rec->state & FST_ST_PROBLEM)) {
        /* an SVC the supervisor did not take, where the trace shows the supervisor (it ran,
        ** and no range hides part of it): its interruption would have run the SVC new PSW's
        ** handler in supervisor state. So the SVC went to a handler of the task's own, in its
        ** space: Hercules' ECPS:VM assist reflects a virtual machine's SVC so under VM/370,
        ** to its CMS (tests/programs/vm.s, ASSIST). The task goes on there, its frames open:
        ** no suspension */
        x->p->reflected++;
        return;
    }
    int to_sup = t->have_prev && (t->prev_state & FST_ST_PROBLEM) && !(rec->state & FST_ST_PROBLEM);
    int dispatches = t->have_prev && is_lpsw(d) && !(t->prev_state & FST_ST_PROBLEM) &&
                     ((rec->state & FST_ST_PROBLEM) || (c->lpsw && c->lpsw_pswlen && (c->lpsw_psw[1] & 0x01)));
    if (dispatches) {   /* the supervisor's first dispatch (the trace began in it), maybe
                        ** interrupted before the task's first instruction */
        uint64_t blk = c->lmblk;    /* the dispatcher's LM, kept for the dispatch */
        suspend(x, c, SUSP_INTR, 1, 0);
        c->lmblk = blk;
        fst_tasks_get(x->ids, c->task)->r.anywhere = 0;  /* it resumes at none of its task's addresses */
        fst_tasks_get(x->ids, c->task)->r.n = 0;
        c->handler = 1;
        fst_rp_dispatch(x, c, rec);
    } else if (c->intr || svc || to_sup) {
        /* the handler's first instruction shows the task's registers; a problem-state one
        ** is already a task's (a range trace does not show the handler) */
        suspend(x, c, svc ? SUSP_SVC : SUSP_INTR, !(rec->state & FST_ST_PROBLEM), 1);
        c->handler = 1;
    } else if (t->have_prev && (c->grbad || c->space_new || jump_breaks(x, c, t, rec))) {
        if (x->debug)
            fprintf(stderr, "fst: tasks: t%zu: %llX after %llX: a switch (%s)\n", c->task, (unsigned long long)rec->addr,
                    (unsigned long long)d->addr, c->grbad ? "registers" : c->space_new ? "space" : "jump");
        if (c->grbad && x->bases)
            late_switch(x, c);
        if (c->grbad)   /* the registers say rec is not the task's: another resumes or begins */
            c->not_plus1 = c->task + 1;
        suspend(x, c, SUSP_SWITCH, 0, 1);  /* handled where the range trace does not look */
        c->handler = 1;
        fst_rp_dispatch(x, c, rec);
    }
}

void fst_rp_wait_state(rp *x, rp_cpu *c, const fst_rec *rec)
{
    if (c->task != FST_NONE && !c->handler) { /* the task waits where its wait PSW points */
        rp_task *t = &x->t[c->task];
        fst_resume r = { .mask = t->have_prev ? amask(t->prev_state) : ~0ull,
                         .problem = t->have_prev && (t->prev_state & FST_ST_PROBLEM) };
        if (rec->pswlen)
            r.at[r.n++] = fst_psw_ia(rec->psw, rec->pswlen);
        else
            r.anywhere = 1;
        stop_task(x, c->task, &r);
    }
    c->task = FST_NONE;
    c->handler = 1;
    c->dispatch = 0;
    c->ran = 0;
}
