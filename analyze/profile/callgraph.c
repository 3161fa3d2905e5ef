/* analyze/profile/callgraph.c — the call-graph aggregate: per routine calls, self and inclusive
** time, per arc count and time, and the same per task (--by-task). A sink of the event
** stream (analyze/profile/events.h). Inclusive and arc times are measured on the task's own clock
** (events.h: tinsns, tcost), so a task preempted inside a routine is not charged for the
** tasks that ran meanwhile.
**
** Flat (fst_callgraph_new's `flat`, for a report that reads only calls and self figures:
** FORTSTAT, prof): a call counts its routine's calls and marks it entered, and that is all;
** no frame is kept, so a return does nothing (but count an unwind). What the full graph
** spends at a call and its return (the arc's look-up, the open frames of routine and arc,
** the frame pushed and popped, the inclusive sums) was 10 % of a call-heavy C program's
** replay (cgen seed 27938, a call every 19 instructions: 15.8 -> 14.1 G host instructions;
** 13.0 G since the replayer's lean loop counts a flat graph's calls itself, inline:
** fst_callgraph_count). */
#include "analyze/profile/profile.h"
#include "analyze/tasks/tasks.h"

#include "common/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct open_frame {
    size_t routine;
    size_t arc;             /* FST_NONE when the call did not count */
    int outer;              /* the outermost frame of its routine in the task */
    int outer_arc;          /* the outermost frame of its arc in the task */
    fst_fx cost0;           /* the task's clock at the call */
    uint64_t insns0;
    int excluded;           /* the task's space is not --space's: it counts nothing */
} open_frame;

typedef struct fst_cgstack {
    open_frame *f;
    size_t n, cap;
    size_t *open;           /* per routine: its open frames ("outermost" without scanning
                               the stack); made at the task's first call, as long as p->r */
    uint32_t *arcopen;      /* per arc (p->arcs' index): its open frames in the task, as
                               long as the arcs the task has entered (an array indexed by
                               arc: a map lookup per call and return was a tenth of them) */
    size_t narcopen;
} tstack;

#define ARC_CACHE 256

struct fst_callgraph {
    fst_profile *p;
    fst_map arcidx;         /* (caller, callee) -> index in p->arcs */
    /* arcs looked up lately, direct-mapped by their key (arc_get): a program calls from a
    ** few sites again and again, and the map's look-up was a tenth of a call's replay with
    ** every routine timed (cgen -O2, --timed=all; one entry, the last arc, held a loop's) */
    uint64_t ckey[ARC_CACHE];   /* key + 1, 0: empty */
    size_t carc[ARC_CACHE];
    tstack *t;              /* by task id */
    size_t nt;
    int flat;               /* calls counted only (the head) */
};

fst_callgraph *fst_callgraph_new(fst_profile *p, int flat)
{
    fst_callgraph *cg = fst_xcalloc(1, sizeof *cg);
    cg->p = p;
    cg->flat = flat;
    return cg;
}

void fst_callgraph_free(fst_callgraph *cg)
{
    if (!cg)
        return;
    for (size_t i = 0; i < cg->nt; i++) {
        free(cg->t[i].f);
        free(cg->t[i].open);
        free(cg->t[i].arcopen);
    }
    fst_map_free(&cg->arcidx);
    free(cg->t);
    free(cg);
}

void fst_callgraph_idle(fst_callgraph *cg, uint32_t task)
{
    if (task >= cg->nt || cg->t[task].n)
        return;
    tstack *s = &cg->t[task];
    free(s->f);
    free(s->open);
    free(s->arcopen);
    *s = (tstack){ 0 };
}

void fst_callgraph_restart(fst_callgraph *cg)
{
    for (size_t i = 0; i < cg->nt; i++) {
        tstack *s = &cg->t[i];
        s->n = 0;
        if (s->open)
            memset(s->open, 0, (cg->p->nr + 1) * sizeof *s->open);
        if (s->arcopen)
            memset(s->arcopen, 0, s->narcopen * sizeof *s->arcopen);
    }
    fst_map_free(&cg->arcidx);
    memset(&cg->arcidx, 0, sizeof cg->arcidx);
    cg->p->narcs = 0;
    memset(cg->ckey, 0, sizeof cg->ckey);
}

static inline tstack *stack_of(fst_callgraph *cg, uint32_t task)
{
    if (task >= cg->nt) {
        size_t n = (size_t)task + 1;
        cg->t = fst_xrealloc(cg->t, n * sizeof *cg->t);
        memset(cg->t + cg->nt, 0, (n - cg->nt) * sizeof *cg->t);
        cg->nt = n;
    }
    return &cg->t[task];
}

/* arc_get's look-up past the cache: the map, or a new arc. */
static size_t arc_find(fst_callgraph *cg, size_t slot, uint64_t key, size_t caller, size_t callee)
{
    fst_profile *p = cg->p;
    cg->ckey[slot] = key + 1;
    uint64_t *i = fst_map_put(&cg->arcidx, key, p->narcs);
    if (*i < p->narcs)
        return cg->carc[slot] = *i;
    if (p->narcs == p->arccap) {
        p->arccap = p->arccap ? p->arccap * 2 : 64;
        p->arcs = fst_xrealloc(p->arcs, p->arccap * sizeof *p->arcs);
    }
    p->arcs[p->narcs] = (fst_arc){ caller, callee, 0, 0, 0 };
    return cg->carc[slot] = p->narcs++;
}

/* The arc (caller, callee)'s index in p->arcs, made when new. Inline: the cache's answer
** costs less than a call. */
static inline size_t arc_get(fst_callgraph *cg, size_t caller, size_t callee)
{
    uint64_t key = (uint64_t)(caller == FST_NONE ? 0 : caller + 1) << 32 | callee;
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 56) & (ARC_CACHE - 1);
    if (cg->ckey[slot] == key + 1)
        return cg->carc[slot];
    return arc_find(cg, slot, key, caller, callee);
}

/* A call of routine: fst_callgraph_count's, and when it counts, its arc's, which it returns
** (FST_NONE when it does not count, or the graph is flat). Inline, as add_incl: a call and a return each take them
** (cgen's replay: +2 % host instructions as calls). */
static inline __attribute__((always_inline)) size_t count_call(fst_callgraph *cg, fst_cgtask *h, size_t routine,
                                                                size_t caller, int counted)
{
    if (!fst_callgraph_count(cg->p, h, routine, counted) || cg->flat)
        return FST_NONE;
    fst_profile *p = cg->p;
    size_t arc = arc_get(cg, caller, routine);
    p->arcs[arc].count++;
    return arc;
}

/* A frame's time, dn instructions costing dc, at its return: to its routine when it was the
** routine's outermost frame, to its arc when the arc's. */
static inline __attribute__((always_inline)) void add_incl(fst_profile *p, fst_cgtask *h, size_t routine, int outer,
                                                            size_t arc, int outer_arc, uint64_t dn, fst_fx dc)
{
    if (outer) {
        p->r[routine].incl_cost += dc;
        p->r[routine].incl_insns += dn;
        if (h->tp) {
            fst_taskroutine *tr = fst_cgtask_routines(p, h);
            tr[routine].incl_cost += dc;
            tr[routine].incl_insns += dn;
        }
    }
    if (arc != FST_NONE && outer_arc) {
        p->arcs[arc].cost += dc;
        p->arcs[arc].insns += dn;
    }
}

/* fst_callgraph_task, inline in the calls by task id (a stretch's hit plays its frames
** back by them: out of line, cgen seed 26598 took 2 % more host instructions) */
static inline __attribute__((always_inline)) void task_of(fst_callgraph *cg, uint32_t task, fst_cgtask *h)
{
    fst_profile *p = cg->p;
    h->s = stack_of(cg, task);
    h->tp = task < p->ntasks ? &p->tasks[task] : NULL;
    h->tr = h->tp ? h->tp->r : NULL;
    h->excluded = h->tp && h->tp->excluded;
}

void fst_callgraph_task(fst_callgraph *cg, uint32_t task, fst_cgtask *h)
{
    task_of(cg, task, h);
}

/* The calls of the call graph on a task's part h: inline in the calls by task id, and in
** the _in ones (profile.h). */
static inline __attribute__((always_inline)) void call_in(fst_callgraph *cg, fst_cgtask *h, size_t routine,
                                                           size_t caller, int counted, uint64_t tinsns, fst_fx tcost)
{
    fst_profile *p = cg->p;
    tstack *s = h->s;
    open_frame f = { routine, FST_NONE, 1, 1, tcost, tinsns, 0 };
    f.excluded = h->excluded;   /* another address space than --space's: nothing counts */
    f.arc = count_call(cg, h, routine, caller, counted);
    if (cg->flat)
        return;     /* no frame kept (the head) */
    /* a recursion's time counts once: outermost */
    if (!s->open)
        s->open = fst_xcalloc(p->nr + 1, sizeof *s->open);
    f.outer = !s->open[f.routine]++;
    if (f.arc != FST_NONE) {
        if (f.arc >= s->narcopen) {
            size_t n = p->arccap;   /* > f.arc */
            s->arcopen = fst_xrealloc(s->arcopen, n * sizeof *s->arcopen);
            memset(s->arcopen + s->narcopen, 0, (n - s->narcopen) * sizeof *s->arcopen);
            s->narcopen = n;
        }
        f.outer_arc = !s->arcopen[f.arc]++;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->f = fst_xrealloc(s->f, s->cap * sizeof *s->f);
    }
    s->f[s->n++] = f;
}

static inline __attribute__((always_inline)) void ret_in(fst_callgraph *cg, fst_cgtask *h, int unwind,
                                                          uint64_t tinsns, fst_fx tcost)
{
    fst_profile *p = cg->p;
    p->unwinds += unwind != 0;
    tstack *s = h->s;
    if (!s->n)
        return;     /* (flat: none kept) */
    open_frame f = s->f[--s->n];
    s->open[f.routine]--;
    if (f.arc != FST_NONE)
        s->arcopen[f.arc]--;
    add_incl(p, h, f.routine, f.outer && !f.excluded, f.arc, f.outer_arc, tinsns - f.insns0, tcost - f.cost0);
}

static inline __attribute__((always_inline)) void pair_in(fst_callgraph *cg, fst_cgtask *h, size_t routine,
                                                           size_t caller, int counted, uint64_t tinsns, fst_fx tcost,
                                                           uint64_t rinsns, fst_fx rcost)
{
    fst_profile *p = cg->p;
    const tstack *s = h->s;
    if (h->excluded)
        return;     /* fst_callgraph_call's excluded frame: nothing counts */
    size_t arc = count_call(cg, h, routine, caller, counted);
    if (cg->flat)
        return;
    /* outermost: no frame of the routine, or of the arc, open below (the open counts) */
    add_incl(p, h, routine, !s->open || !s->open[routine], arc, arc >= s->narcopen || !s->arcopen[arc],
             rinsns - tinsns, rcost - tcost);
}

void fst_callgraph_call_in(fst_callgraph *cg, fst_cgtask *h, size_t routine, size_t caller, int counted,
                           uint64_t tinsns, fst_fx tcost)
{
    call_in(cg, h, routine, caller, counted, tinsns, tcost);
}

void fst_callgraph_ret_in(fst_callgraph *cg, fst_cgtask *h, int unwind, uint64_t tinsns, fst_fx tcost)
{
    ret_in(cg, h, unwind, tinsns, tcost);
}

void fst_callgraph_pair_in(fst_callgraph *cg, fst_cgtask *h, size_t routine, size_t caller, int counted,
                           uint64_t tinsns, fst_fx tcost, uint64_t rinsns, fst_fx rcost)
{
    pair_in(cg, h, routine, caller, counted, tinsns, tcost, rinsns, rcost);
}

void fst_callgraph_call(fst_callgraph *cg, uint32_t task, size_t routine, size_t caller, int counted,
                        uint64_t tinsns, fst_fx tcost)
{
    fst_cgtask h;
    task_of(cg, task, &h);
    call_in(cg, &h, routine, caller, counted, tinsns, tcost);
}

void fst_callgraph_ret(fst_callgraph *cg, uint32_t task, int unwind, uint64_t tinsns, fst_fx tcost)
{
    fst_cgtask h;
    task_of(cg, task, &h);
    ret_in(cg, &h, unwind, tinsns, tcost);
}

void fst_callgraph_pair(fst_callgraph *cg, uint32_t task, size_t routine, size_t caller, int counted,
                        uint64_t tinsns, fst_fx tcost, uint64_t rinsns, fst_fx rcost)
{
    fst_cgtask h;
    task_of(cg, task, &h);
    pair_in(cg, &h, routine, caller, counted, tinsns, tcost, rinsns, rcost);
}

int fst_callgraph_is_flat(const fst_callgraph *cg)
{
    return cg->flat;
}

int fst_callgraph_open(const fst_callgraph *cg, uint32_t task, size_t routine)
{
    return task < cg->nt && cg->t[task].open && cg->t[task].open[routine];
}

int fst_callgraph_arc_open(const fst_callgraph *cg, uint32_t task, size_t arc)
{
    return task < cg->nt && arc < cg->t[task].narcopen && cg->t[task].arcopen[arc];
}

void fst_callgraph_event(void *ctx, const fst_event *e)
{
    fst_callgraph *cg = ctx;
    switch (e->kind) {
    case FST_EV_INTERRUPT:
        if (e->cls == FST_EV_PGM)
            cg->p->pgmchks++;
        else if (e->cls == FST_INTR_SVC)
            cg->p->svcs++;
        else
            cg->p->intrs++;
        break;
    case FST_EV_WAIT: cg->p->waits++; break;
    case FST_EV_MARK: break;
    default: break;   /* EXEC, CALL, RETURN, UNWIND: by direct calls (profile.h) */
    }
}

int fst_profile_check(const fst_profile *p, fst_err *err)
{
    fst_fx cost = p->outside_cost + p->excluded_cost;
    uint64_t n = p->outside_insns + p->excluded_insns;
    for (size_t i = 0; i < p->nr; i++) {
        cost += p->r[i].self_cost;
        n += p->r[i].self_insns;
    }
    if (cost != p->total_cost || n != p->total_insns)
        return fst_errf(err, "internal: time not conserved (%llu of %llu instructions accounted for)",
                        (unsigned long long)n, (unsigned long long)p->total_insns);
    return 0;
}

int fst_profile_space_check(const fst_profile *p, uint64_t space, fst_err *err)
{
    char list[400], nm[24];
    size_t len = 0, shown = 0;
    list[0] = 0;
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].space == space)
            return 0;
    for (size_t i = 0; i < p->ntasks && len + 1 < sizeof list; i++) {
        uint64_t sp = p->tasks[i].space, n = 0;
        size_t k = 0;
        while (k < i && p->tasks[k].space != sp)
            k++;
        if (k < i)
            continue;   /* listed already */
        for (size_t j = i; j < p->ntasks; j++)
            n += p->tasks[j].space == sp ? p->tasks[j].insns : 0;
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (%llu instructions)", shown++ ? ", " : "",
                                fst_space_name(sp, nm), (unsigned long long)n);
    }
    return fst_errf(err, "--space=%llX: no task ran in that address space; the trace shows %s",
                    (unsigned long long)space, shown ? list : "none");
}

void fst_profile_free(fst_profile *p)
{
    for (size_t i = 0; i < p->ntasks; i++)
        free(p->tasks[i].r);
    free(p->tasks);
    free(p->r);
    free(p->arcs);
    free(p->op_insns);
    free(p->undecoded);
    memset(p, 0, sizeof *p);
}
