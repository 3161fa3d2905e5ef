/* analyze/replay_task.c — which task a CPU runs (replay_int.h; the rules in profile.h, the
** identities in tasks.h): interruptions that suspend it, dispatches that resume one, wait
** states. */
#include "analyze/replay_int.h"
#include "capture/herclog.h"   /* fst_psw_ia */

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
        p->tasks[x->nt] = (fst_taskprof){ .id = (uint32_t)x->nt, .space = id->space, .first = id->first,
                                          .mainline = FST_NONE, .r = fst_xcalloc(p->nr + 1, sizeof(fst_taskroutine)) };
        x->nt++;
        p->ntasks = x->nt;
    }
}

/* Where the task resumes after an interruption right after its instruction `d`. */
static uint64_t resume_after(const rp_cpu *c, const fst_insn *d, int svc)
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
static void suspend(rp *x, rp_cpu *c, uint64_t resume, int intr)
{
    rp_task *t = &x->t[c->task];
    fst_tasks_suspend(x->ids, c->task, resume, t->have_prev ? amask(t->prev_state) : ~0ull,
                      t->have_prev ? (t->prev_state & FST_ST_PROBLEM) != 0 : 0);
    if (t->n && intr)
        x->p->intr_in_routine++;
}

void fst_rp_dispatch(rp *x, rp_cpu *c, const fst_rec *rec)
{
    int how, problem = (rec->state & FST_ST_PROBLEM) != 0;
    size_t tid = fst_tasks_dispatch(x->ids, rec->addr, fst_rp_space_of(c, rec->state), problem, c->lpsw, &how);
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
    fst_rp_task_room(x, tid);
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
            fst_rp_enter_mainline(x, tid, rec->cpu, r, rec->addr, ~0ull, ~0ull);
            x->p->tasks[tid].mainline = r;
        }
    }
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
    int to_sup = t->have_prev && (t->prev_state & FST_ST_PROBLEM) && !(rec->state & FST_ST_PROBLEM);
    if (c->intr || svc || to_sup) {
        suspend(x, c, t->have_prev ? resume_after(c, d, svc) : FST_RESUME_UNKNOWN, 1);
        c->handler = 1;
    } else if (t->have_prev && is_lpsw(d) && !(t->prev_state & FST_ST_PROBLEM) && (rec->state & FST_ST_PROBLEM)) {
        suspend(x, c, FST_RESUME_UNKNOWN, 0); /* the supervisor's first dispatch (the trace began in it) */
        c->handler = 1;
        fst_rp_dispatch(x, c, rec);
    } else if (t->have_prev && !(d->flags & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW)) &&
               rec->addr != fst_insn_next(d)) {
        suspend(x, c, fst_insn_next(d), 1);  /* handled where the range trace does not look */
        c->handler = 1;
        fst_rp_dispatch(x, c, rec);
    }
}

void fst_rp_wait_state(rp *x, rp_cpu *c, const fst_rec *rec)
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
