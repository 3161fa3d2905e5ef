/* analyze/callgraph.c — the call-graph aggregate: per routine calls, self and inclusive
** time, per arc count and time. A sink of the event stream (analyze/events.h). */
#include "analyze/profile.h"

#include <stdlib.h>
#include <string.h>

typedef struct open_arc {
    size_t arc;
    fst_fx cost0;
    uint64_t insns0;
} open_arc;

struct fst_callgraph {
    fst_profile *p;
    uint32_t *depth;        /* per routine: frames of it now active (recursion) */
    fst_fx *cost0;          /* per routine: total cost when its outermost frame began */
    uint64_t *insns0;
    open_arc *arcs[64];     /* per CPU: the arc of every active frame (FST_NONE when none) */
    size_t narcs[64], caparcs[64];
};

fst_callgraph *fst_callgraph_new(fst_profile *p)
{
    fst_callgraph *cg = fst_xcalloc(1, sizeof *cg);
    cg->p = p;
    cg->depth = fst_xcalloc(p->nr + 1, sizeof *cg->depth);
    cg->cost0 = fst_xcalloc(p->nr + 1, sizeof *cg->cost0);
    cg->insns0 = fst_xcalloc(p->nr + 1, sizeof *cg->insns0);
    return cg;
}

void fst_callgraph_free(fst_callgraph *cg)
{
    if (!cg)
        return;
    for (int i = 0; i < 64; i++)
        free(cg->arcs[i]);
    free(cg->depth);
    free(cg->cost0);
    free(cg->insns0);
    free(cg);
}

static size_t arc_get(fst_profile *p, size_t caller, size_t callee)
{
    for (size_t i = p->narcs; i-- > 0;)
        if (p->arcs[i].caller == caller && p->arcs[i].callee == callee)
            return i;
    if (p->narcs == p->arccap) {
        p->arccap = p->arccap ? p->arccap * 2 : 64;
        p->arcs = fst_xrealloc(p->arcs, p->arccap * sizeof *p->arcs);
    }
    p->arcs[p->narcs] = (fst_arc){ caller, callee, 0, 0, 0 };
    return p->narcs++;
}

static void exec(fst_profile *p, const fst_event *e)
{
    p->total_cost += e->cost;
    p->total_insns++;
    if (e->charged == FST_CHARGE_EXCLUDED) {
        p->excluded_cost += e->cost;
        p->excluded_insns++;
    } else if (e->charged == FST_CHARGE_OUTSIDE) {
        p->outside_cost += e->cost;
        p->outside_insns++;
    } else {
        p->r[e->routine].self_cost += e->cost;
        p->r[e->routine].self_insns++;
    }
}

static void call(fst_callgraph *cg, const fst_event *e)
{
    fst_profile *p = cg->p;
    fst_routine *r = &p->r[e->routine];
    unsigned c = e->cpu % 64;
    size_t arc = FST_NONE;
    if (r->timed && e->counted) {
        r->calls++;
        arc = arc_get(p, e->caller, e->routine);
        p->arcs[arc].count++;
    }
    if (cg->narcs[c] == cg->caparcs[c]) {
        cg->caparcs[c] = cg->caparcs[c] ? cg->caparcs[c] * 2 : 64;
        cg->arcs[c] = fst_xrealloc(cg->arcs[c], cg->caparcs[c] * sizeof *cg->arcs[c]);
    }
    cg->arcs[c][cg->narcs[c]++] = (open_arc){ arc, p->total_cost, p->total_insns };
    if (cg->depth[e->routine]++ == 0) {
        cg->cost0[e->routine] = p->total_cost;
        cg->insns0[e->routine] = p->total_insns;
    }
}

static void ret(fst_callgraph *cg, const fst_event *e)
{
    fst_profile *p = cg->p;
    unsigned c = e->cpu % 64;
    if (--cg->depth[e->routine] == 0) {
        p->r[e->routine].incl_cost += p->total_cost - cg->cost0[e->routine];
        p->r[e->routine].incl_insns += p->total_insns - cg->insns0[e->routine];
    }
    open_arc a = cg->arcs[c][--cg->narcs[c]];
    if (a.arc == FST_NONE)
        return;
    for (size_t i = 0; i < cg->narcs[c]; i++) /* a recursion's time counts once: outermost */
        if (cg->arcs[c][i].arc == a.arc)
            return;
    p->arcs[a.arc].cost += p->total_cost - a.cost0;
    p->arcs[a.arc].insns += p->total_insns - a.insns0;
}

void fst_callgraph_event(void *ctx, const fst_event *e)
{
    fst_callgraph *cg = ctx;
    switch (e->kind) {
    case FST_EV_EXEC: exec(cg->p, e); break;
    case FST_EV_CALL: call(cg, e); break;
    case FST_EV_UNWIND: cg->p->unwinds++; /* fall through */
    case FST_EV_RETURN: ret(cg, e); break;
    case FST_EV_INTERRUPT:
        if (e->cls == FST_EV_PGM)
            cg->p->pgmchks++;
        else
            cg->p->intrs++;
        break;
    case FST_EV_WAIT: cg->p->waits++; break;
    case FST_EV_MARK: break;
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

void fst_profile_free(fst_profile *p)
{
    free(p->r);
    free(p->arcs);
    memset(p, 0, sizeof *p);
}
