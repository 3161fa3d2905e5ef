/* analyze/replay/replay_unc.c — what a guess of which task ran leaves uncertain (replay_int.h,
** tasks.h), and what later evidence settles.
**
** A guess (tasks.h: several candidates, or one that may merely resume anywhere) between
** tasks whose call states differ makes every candidate uncertain ("tainted"): from then on
** their calls and instructions are counted per routine as bounds (profile.h calls_unc,
** self_unc). A guess is often settled a few instructions later: the base registers a
** range trace without registers shows (tracebin.h BASES: a task's R13 is its own save area,
** its R12 its routine's base) match the chosen task's and none of the others'. Then it was
** no guess: what it made uncertain is taken back (the counters and flags as they were
** before it, kept in x->tent). A later instruction that contradicts the chosen task is a
** task switch (replay_task.c) and leaves the uncertainty where it is.
*/
#include "analyze/replay/replay_int.h"
#include "analyze/profile/holder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counters and flags a guess changes, as they were before it: until the next REGS or
** BASES of its task settles it, or the task is suspended. */
static void tentative(rp *x, size_t tid, const size_t *c, size_t n)
{
    rp_tent *k = &x->tent;
    fst_profile *p = x->p;
    if (x->t[tid].taint)
        return;         /* uncertain already: nothing to take back */
    if (n > k->cap) {
        k->cap = n;
        k->ids = fst_xrealloc(k->ids, n * sizeof *k->ids);
        k->taint = fst_xrealloc(k->taint, n * sizeof *k->taint);
    }
    if (!k->unc)
        k->unc = fst_xcalloc(2 * p->nr + 1, sizeof *k->unc);
    for (size_t i = 0; i < p->nr; i++) {
        k->unc[2 * i] = p->r[i].calls_unc;
        k->unc[2 * i + 1] = p->r[i].self_unc;
    }
    for (size_t i = 0; i < n; i++) {
        k->ids[i] = c[i];
        k->taint[i] = (uint8_t)(x->t[c[i]].taint | p->tasks[c[i]].uncertain << 1);
    }
    k->n = n;
    k->task = tid;
    k->dispatches = p->unc_dispatches;
    k->calls = p->unc_calls;
    k->insns = p->unc_insns;
    k->on = 1;
}

/* 1: the registers shown (m) match what was known of task id when it was suspended, one of
** them telling tasks apart (not an address of the program's code: replay_task.c); -1: one
** differs; 0: nothing to compare. */
static int known_match(rp *x, size_t id, uint16_t m, const uint64_t *gr, uint64_t am)
{
    const fst_task *t = fst_tasks_get(x->ids, id);
    uint16_t both = m & t->r.grv & (uint16_t)~t->r.grfree, tell = 0;
    if (!both)
        return 0;
    for (int g = 0; g < 16; g++)
        if (both >> g & 1) {
            if ((t->r.gr[g] ^ gr[g]) & am)
                return -1;
            if ((gr[g] & am) < x->p->lo || (gr[g] & am) >= x->p->hi)
                tell = 1;
        }
    return tell;
}

void fst_rp_tent_regs(rp *x, const rp_cpu *c, uint16_t m, uint64_t am)
{
    rp_tent *k = &x->tent;
    if (!k->on || c->handler || c->task != k->task)
        return;
    int mine = known_match(x, k->task, m, c->gr, am);
    if (mine <= 0) {
        k->on = mine == 0;  /* nothing to compare yet: wait; contradicted: a switch comes */
        return;
    }
    for (size_t i = 0; i < k->n; i++)
        if (k->ids[i] != k->task && known_match(x, k->ids[i], m, c->gr, am) >= 0)
            return;         /* another still fits: wait */
    fst_profile *p = x->p;  /* settled: it was no guess */
    for (size_t i = 0; i < p->nr; i++) {
        p->r[i].calls_unc = k->unc[2 * i];
        p->r[i].self_unc = k->unc[2 * i + 1];
    }
    for (size_t i = 0; i < k->n; i++) {
        x->t[k->ids[i]].taint = k->taint[i] & 1;
        p->tasks[k->ids[i]].uncertain = k->taint[i] >> 1;
    }
    p->unc_dispatches = k->dispatches;
    p->unc_calls = k->calls;
    p->unc_insns = k->insns;
    p->settled++;
    k->on = 0;
}

int fst_rp_taint(rp *x, size_t tid)
{
    int was = x->t[tid].taint;
    x->t[tid].taint = x->p->tasks[tid].uncertain = 1;
    x->tainted = 1;
    x->plain = 0;   /* insn_fast does not count uncertainty */
    return !was;
}

/* Whether some task is uncertain now. A task that appears for the first time then may be
** one of them: a guess that gave a suspended task's resumption to another leaves the true
** one looking new where it resumes (soak os266: a task of program G resumed inside a leaf
** after the guess put program M's mainline on its stack). Its instructions are then
** uncertain too, for the routine that holds them, which it never entered. */
int fst_rp_any_taint(const rp *x)
{
    for (size_t i = 0; x->tainted && i < x->nt; i++)
        if (x->t[i].taint)
            return 1;
    return 0;
}

void fst_rp_lost(rp *x, size_t tid, uint64_t addr)
{
    if (!x->holder)
        x->holder = fst_holder_new(x->p);
    if (fst_holder_of(x->holder, addr) == FST_NONE)
        return;     /* outside the program: the mainline has returned, as MVS's do */
    fst_rp_taint(x, tid);
    x->p->unc_dispatches++;
}

void fst_rp_tent_end(rp *x, size_t tid)
{
    if (x->tent.on && x->tent.task == tid)
        x->tent.on = 0;
}

void fst_rp_tent_free(rp *x)
{
    free(x->tent.ids);
    free(x->tent.taint);
    free(x->tent.unc);
}

/* Whether two tasks' call states are the same (their stacks frame for frame, their last
** instruction): which of them runs then changes no routine's figures, only the tasks'. */
static int same_state(const rp_task *a, const rp_task *b)
{
    if (a->n != b->n || a->have_prev != b->have_prev || a->had_mainline != b->had_mainline ||
        a->started != b->started || (a->have_prev && (a->prev.addr != b->prev.addr || a->prev_state != b->prev_state ||
                                                      memcmp(a->prev.bytes, b->prev.bytes, 6))))
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->f[i].owner != b->f[i].owner || a->f[i].ret != b->f[i].ret || a->f[i].mask != b->f[i].mask ||
            a->routine[i] != b->routine[i])
            return 0;
    return 1;
}

void fst_rp_uncertain(rp *x, uint64_t addr, size_t owner)
{
    fst_profile *p = x->p;
    if (!x->holder)
        x->holder = fst_holder_new(p);
    size_t h = fst_holder_of(x->holder, addr);
    if (owner != FST_NONE)
        p->r[owner].self_unc++;
    if (h != FST_NONE && h != owner)
        p->r[h].self_unc++;
    p->unc_insns++;
}

/* A guess between tasks whose call states differ: the figures of their routines are not
** certain from then on. Whichever it was, the other's stack may go on under the wrong
** task's calls and returns until the end (nothing in a trace without registers puts it
** right), so every instruction and call of those tasks from now on is counted as uncertain,
** for the routine charged and the one that holds it (fst_rp_uncertain), and a call across
** the suspension, to the routine that begins where the task resumes. With --timed=all the
** truth lies within these bounds (the code of a routine is its own); with the default
** timing an untimed routine's instructions go to a caller the wrong stack may not hold. */
void fst_rp_guessed(rp *x, size_t tid, uint64_t addr)
{
    size_t n;
    const size_t *c = fst_tasks_candidates(x->ids, &n);
    int same = n > 1;   /* one left: the other choice was a new task, whose state is none */
    for (size_t i = 0; i < n; i++)
        if (c[i] != tid) {
            fst_rp_task_room(x, c[i]);
            same &= same_state(&x->t[c[i]], &x->t[tid]);
        }
    if (x->debug)
        for (size_t i = 0; i < n; i++) {
            const rp_task *t = &x->t[c[i]];
            fprintf(stderr, "fst: tasks:   t%zu depth %zu prev %llX", c[i], t->n, (unsigned long long)t->prev.addr);
            for (size_t k = 0; k < t->n; k++)
                fprintf(stderr, " %zu@%llX", t->routine[k], (unsigned long long)t->f[k].ret);
            fprintf(stderr, "%s\n", same ? " (same)" : "");
        }
    if (same) {
        x->p->guessed_same++;
        return;
    }
    tentative(x, tid, c, n);
    for (size_t i = 0; i < n; i++)
        fst_rp_taint(x, c[i]);
    x->p->unc_dispatches++;
    size_t r = find_entry(x, addr);
    if (r != FST_NONE) {
        x->p->r[r].calls_unc++;
        x->p->unc_calls++;
    }
}

