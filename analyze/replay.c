/* analyze/replay.c — call reconstruction (DESIGN §3) and the event stream (events.h);
** see profile.h for the decisions taken where DESIGN is silent. */
#include "analyze/decode.h"
#include "analyze/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCPU 64

typedef struct frame {
    size_t owner;     /* nearest timed routine: the routine itself when timed */
    uint64_t ret;     /* return address, masked to the call's addressing mode */
    uint64_t mask;
} frame;

/* Decoded instructions by address: loops run the same few addresses millions of times,
** and decoding was a third of the replay. Direct-mapped; the key is address, bytes, state. */
#define DCACHE 4096
typedef struct dcache_ent {
    uint64_t addr;
    uint32_t state;
    uint8_t bytes[6];
    uint8_t valid;
    uint8_t costed[2];      /* cost[taken] known: pricing was another eighth of the replay */
    uint8_t unmodeled;      /* the cost model has no row for it */
    fst_fx cost[2];
    fst_insn d;
} dcache_ent;

typedef struct cpu {
    frame *f;
    size_t *routine;  /* the routine of every frame: the `stack` of events */
    size_t n, cap;
    int have_prev;
    fst_insn prev;
    uint32_t prev_state;
    size_t prev_owner;      /* owner when prev executed: FST_NONE = outside */
    int prev_excluded;
    dcache_ent *prev_dc;    /* where prev was decoded (it may have been evicted since) */
    fst_event exec;         /* the EXEC event, reused: set up once, per instruction only
                               the fields that change (building one was a fifth of the replay) */
} cpu;


typedef struct rp {
    fst_profile *p;
    const fst_replay_opts *o;
    fst_sink *sinks;
    size_t nsinks;
    dcache_ent *dc;
    size_t *hash;       /* entry address -> routine index (open addressing) */
    size_t hcap;
    int mainline_fixed; /* the model named the mainline */
    uint64_t unmodeled; /* instructions priced without a model row */
    cpu cpus[MAXCPU];
} rp;

static void emit(rp *x, fst_event *e, const cpu *c)
{
    e->stack = c->routine;
    e->depth = c->n;
    e->profile = x->p;
    for (size_t i = 0; i < x->nsinks; i++)
        x->sinks[i].event(x->sinks[i].ctx, e);
}

/* ---- entry points ---- */

static size_t hslot(const rp *x, uint64_t a)
{
    return (size_t)((a >> 1) * 0x9E3779B97F4A7C15ull >> 24) & (x->hcap - 1);
}

static size_t find_entry(const rp *x, uint64_t a)
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
    for (size_t r = 0; r < x->p->nr; r++) {
        size_t i = hslot(x, x->p->r[r].entry);
        while (x->hash[i] != FST_NONE && x->p->r[x->hash[i]].entry != x->p->r[r].entry)
            i = (i + 1) & (x->hcap - 1);
        if (x->hash[i] == FST_NONE) /* two names at one address: the first in module order */
            x->hash[i] = r;
        if (x->p->r[r].mainline)
            x->mainline_fixed = 1;
    }
}

/* ---- the stack ---- */

static size_t top_owner(const cpu *c) { return c->n ? c->f[c->n - 1].owner : FST_NONE; }

static void push(rp *x, cpu *c, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask, int counted)
{
    size_t caller = top_owner(c);
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->f = fst_xrealloc(c->f, c->cap * sizeof *c->f);
        c->routine = fst_xrealloc(c->routine, c->cap * sizeof *c->routine);
    }
    size_t owner = x->p->r[r].timed ? r : caller;
    c->f[c->n] = (frame){ owner, ret & mask, mask };
    c->routine[c->n++] = r;
    fst_event e = { .kind = FST_EV_CALL, .cpu = cpuno, .routine = r, .owner = owner, .caller = caller,
                    .counted = counted, .site = site, .ret = ret & mask };
    emit(x, &e, c);
}

static void pop(rp *x, cpu *c, uint16_t cpuno, fst_ev_kind kind, uint32_t code)
{
    c->n--;
    fst_event e = { .kind = kind, .cpu = cpuno, .routine = c->routine[c->n], .owner = c->f[c->n].owner,
                    .code = code };
    emit(x, &e, c);
}

static int at_return(const frame *f, uint64_t addr)
{
    uint64_t a = addr & f->mask;
    return a >= f->ret && a - f->ret <= 16 && !((a - f->ret) & 3); /* B 4k(,14), k <= 4 */
}

/* After a taken branch: a return to the top frame, or to an older frame's (UNWIND). */
static void returns(rp *x, cpu *c, uint16_t cpuno, uint64_t addr)
{
    if (!c->n)
        return;
    if (at_return(&c->f[c->n - 1], addr)) {
        pop(x, c, cpuno, FST_EV_RETURN, 0);
        return;
    }
    for (size_t i = c->n - 1; i-- > 0;)
        if (at_return(&c->f[i], addr)) {
            while (c->n > i)
                pop(x, c, cpuno, FST_EV_UNWIND, 0);
            return;
        }
}

/* The cost of prev, from the decode cache when it still holds prev. */
static fst_fx price(rp *x, cpu *c, int taken)
{
    dcache_ent *d = c->prev_dc;
    int cached = taken >= 0 && d && d->valid && d->addr == c->prev.addr && d->state == c->prev_state &&
                 !memcmp(d->bytes, c->prev.bytes, 6);
    if (cached && d->costed[taken]) {
        x->unmodeled += d->unmodeled;
        return d->cost[taken];
    }
    fst_clock_stats before, after;
    fst_clock_stats_get(x->o->clock, &before);
    fst_fx cost = fst_clock_cost(x->o->clock, &c->prev, taken);
    fst_clock_stats_get(x->o->clock, &after);
    uint8_t unmodeled = after.unmodeled != before.unmodeled;
    x->unmodeled += unmodeled;
    if (cached) {
        d->cost[taken] = cost;
        d->costed[taken] = 1;
        d->unmodeled = unmodeled;
    }
    return cost;
}

/* The EXEC of the previous instruction, now that its successor shows whether it branched. */
static void exec_prev(rp *x, cpu *c, uint16_t cpuno, int taken)
{
    fst_event *e = &c->exec;
    e->kind = FST_EV_EXEC;
    e->cpu = cpuno;
    e->insn = &c->prev;
    e->state = c->prev_state;
    e->cost = price(x, c, taken);
    e->routine = c->prev_owner;
    e->charged = c->prev_excluded ? FST_CHARGE_EXCLUDED
               : c->prev_owner == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
    emit(x, e, c);
    c->have_prev = 0;
}

static dcache_ent *decode(rp *x, const fst_rec *rec)
{
    dcache_ent *e = &x->dc[(rec->addr >> 1) & (DCACHE - 1)];
    if (!e->valid || e->addr != rec->addr || e->state != rec->state || memcmp(e->bytes, rec->bytes, 6)) {
        fst_decode(&e->d, rec->bytes, rec->addr, rec->state);
        e->addr = rec->addr;
        e->state = rec->state;
        memcpy(e->bytes, rec->bytes, 6);
        e->valid = 1;
        e->costed[0] = e->costed[1] = 0;
    }
    return e;
}

static void insn(rp *x, const fst_rec *rec)
{
    fst_profile *p = x->p;
    cpu *c = &x->cpus[rec->cpu % MAXCPU];
    int branched = 0, was_branch = 0;
    if (c->have_prev) {
        branched = rec->addr != fst_insn_next(&c->prev);
        was_branch = (c->prev.flags & FST_I_BRANCH) && (c->prev.flags & FST_I_CANBRANCH);
        exec_prev(x, c, rec->cpu, (c->prev.flags & FST_I_CANBRANCH) ? branched : 0);
    }
    if (branched && was_branch) {
        size_t r = find_entry(x, rec->addr);
        if ((c->prev.flags & FST_I_LINK) && c->prev.link == 14 && r != FST_NONE) {
            int amode = fst_st_amode(c->prev_state);
            uint64_t mask = amode == 2 ? ~0ull : amode == 1 ? 0x7FFFFFFFull : 0xFFFFFFull;
            int first = p->mainline < 0 && c->n == 0 && (p->r[r].mainline || !x->mainline_fixed);
            if (first) {
                p->r[r].mainline = p->r[r].timed = 1;
                p->mainline = (int)r;
            }
            push(x, c, rec->cpu, r, c->prev.addr, fst_insn_next(&c->prev), mask, !first);
        } else
            returns(x, c, rec->cpu, rec->addr);
    } else if (c->n == 0 && p->mainline < 0 && x->mainline_fixed) {
        size_t r = find_entry(x, rec->addr); /* the mainline entered without a call */
        if (r != FST_NONE && p->r[r].mainline) {
            p->mainline = (int)r;
            push(x, c, rec->cpu, r, rec->addr, ~0ull, ~0ull, 0);
        }
    }
    c->prev_dc = decode(x, rec);
    c->prev = c->prev_dc->d;
    c->prev_state = rec->state;
    c->have_prev = 1;
    c->prev_owner = top_owner(c);
    c->prev_excluded = (c->prev_owner != FST_NONE && p->r[c->prev_owner].excluded) ||
                       (x->o->cpu_problem && !(rec->state & FST_ST_PROBLEM));
}

static void other(rp *x, const fst_rec *rec)
{
    cpu *c = &x->cpus[rec->cpu % MAXCPU];
    fst_event e = { .cpu = rec->cpu, .state = rec->state };
    switch (rec->kind) {
    case FST_REC_PGMCHK: e.kind = FST_EV_INTERRUPT; e.cls = FST_EV_PGM; e.code = rec->code; break;
    case FST_REC_INTR: e.kind = FST_EV_INTERRUPT; e.cls = rec->cls; e.code = rec->code; break;
    case FST_REC_WAIT: e.kind = FST_EV_WAIT; e.cls = rec->cls; break;
    case FST_REC_GAP: /* tracing was off: the next jump is not the program's */
        for (int i = 0; i < MAXCPU; i++)
            if (x->cpus[i].have_prev)
                exec_prev(x, &x->cpus[i], (uint16_t)i, FST_TAKEN_UNKNOWN);
        e.kind = FST_EV_MARK;
        e.code = FST_MARK_GAP;
        break;
    default: return;
    }
    emit(x, &e, c);
}

static void finish(rp *x)
{
    for (int i = 0; i < MAXCPU; i++) {
        cpu *c = &x->cpus[i];
        if (c->have_prev)
            exec_prev(x, c, (uint16_t)i, FST_TAKEN_UNKNOWN);
        x->p->open_frames += c->n;
        while (c->n)
            pop(x, c, (uint16_t)i, FST_EV_RETURN, 1);
    }
}

int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, const fst_sink *sinks,
               size_t nsinks, fst_err *err)
{
    memset(p, 0, sizeof *p);
    p->mainline = -1;
    rp x = { .p = p, .o = o };
    fst_callgraph *cg = NULL;
    int rc = -1;
    if (fst_routines_build(p, tr, pm, o, err))
        goto out;
    build_hash(&x);
    cg = fst_callgraph_new(p);
    x.sinks = fst_xcalloc(nsinks + 1, sizeof *x.sinks);
    x.sinks[0] = (fst_sink){ fst_callgraph_event, cg };
    for (size_t i = 0; i < nsinks; i++)
        x.sinks[i + 1] = sinks[i];
    x.nsinks = nsinks + 1;
    x.dc = fst_xcalloc(DCACHE, sizeof *x.dc);
    fst_rec rec;
    int k;
    while ((k = fst_tr_next(tr, &rec, err)) > 0) {
        if (rec.kind == FST_REC_INSN)
            insn(&x, &rec);
        else
            other(&x, &rec);
    }
    if (k < 0)
        goto out;
    finish(&x);
    const char *why;
    p->complete = fst_tr_complete(tr, &why);
    if (!p->complete)
        snprintf(p->incomplete, sizeof p->incomplete, "%s", why);
    snprintf(p->clock, sizeof p->clock, "%s", fst_clock_name(o->clock));
    p->unmodeled = x.unmodeled;
    rc = fst_profile_check(p, err);
out:
    for (int i = 0; i < MAXCPU; i++) {
        free(x.cpus[i].f);
        free(x.cpus[i].routine);
    }
    fst_callgraph_free(cg);
    free(x.sinks);
    free(x.hash);
    free(x.dc);
    return rc;
}
