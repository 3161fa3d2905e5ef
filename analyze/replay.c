/* analyze/replay.c — call reconstruction and time attribution; see profile.h. */
#include "analyze/decode.h"
#include "analyze/profile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCPU 64
#define NONE SIZE_MAX

typedef struct frame {
    size_t routine;   /* the routine entered */
    size_t owner;     /* nearest timed routine: itself when timed */
    uint64_t ret;     /* return address, masked to the call's addressing mode */
    uint64_t mask;
    size_t arc;
    fst_fx cost0;     /* total cost when it was entered */
    uint64_t insns0;
} frame;

typedef struct cpu {
    frame *f;
    size_t n, cap;
    int have_prev;
    fst_insn prev;
    size_t prev_owner;  /* owner when prev executed: NONE = outside */
    int prev_excluded;
} cpu;

/* Decoded instructions by address: loops run the same few addresses millions of times,
** and decoding was a third of the replay. Direct-mapped; the key is address, bytes, state. */
#define DCACHE 4096
typedef struct dcache_ent {
    uint64_t addr;
    uint32_t state;
    uint8_t bytes[6];
    uint8_t valid;
    fst_insn d;
} dcache_ent;

typedef struct rp {
    dcache_ent *dc;
    fst_profile *p;
    const fst_replay_opts *o;
    size_t *hash;       /* entry address -> routine index (open addressing) */
    size_t hcap;
    cpu cpus[MAXCPU];
    int mainline_fixed; /* the model named the mainline */
} rp;

/* ---- routine table ---- */

static size_t hslot(const rp *x, uint64_t a)
{
    return (size_t)((a >> 1) * 0x9E3779B97F4A7C15ull >> 24) & (x->hcap - 1);
}

static size_t find_entry(const rp *x, uint64_t a)
{
    for (size_t i = hslot(x, a);; i = (i + 1) & (x->hcap - 1)) {
        size_t r = x->hash[i];
        if (r == NONE || x->p->r[r].entry == a)
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
        x->hash[i] = NONE;
    for (size_t r = 0; r < x->p->nr; r++) {
        size_t i = hslot(x, x->p->r[r].entry);
        while (x->hash[i] != NONE && x->p->r[x->hash[i]].entry != x->p->r[r].entry)
            i = (i + 1) & (x->hcap - 1);
        if (x->hash[i] == NONE) /* two names at one address: the first in module order */
            x->hash[i] = r;
    }
}

static int same_name(const char *a, const char *b)
{
    return !strcmp(a, b);
}

static int routines_from_model(rp *x, fst_tr *tr, fst_pm *pm, fst_err *err)
{
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    fst_pm *own = NULL;
    if (!pm) { /* no map: the FORTRAN identifiers in the storage image name the routines */
        own = pm = fst_pm_new();
        fst_id_hit *hits = NULL;
        size_t nhits = 0;
        int rc = fst_scan_ids(seg, nseg, 0, &hits, &nhits, err);
        free(hits);
        if (rc < 0 || (nhits && fst_pm_from_image(pm, fst_tr_path(tr), seg, nseg, 0, err) < 0)) {
            fst_pm_free(own);
            return -1;
        }
    }
    fst_profile *p = x->p;
    p->r = fst_xcalloc(fst_pm_nsyms(pm) + 1, sizeof *p->r);
    int64_t mainline_addr = -1;
    for (size_t m = 0; m < fst_pm_nmodules(pm); m++) {
        const fst_pm_module *mod = fst_pm_module_at(pm, m);
        if (mod->has_entry && mod->has_load_point && mainline_addr < 0 && mod->kind != FST_MAP_IMAGE &&
            mod->kind != FST_MAP_NM)
            mainline_addr = (int64_t)(mod->load_point + mod->entry);
    }
    for (size_t i = 0; i < fst_pm_nsyms(pm); i++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, i);
        const fst_pm_module *mod = fst_pm_module_at(pm, (size_t)s->module);
        if (s->type == FST_PM_PR || !mod->has_load_point)
            continue;
        fst_routine *r = &p->r[p->nr++];
        snprintf(r->name, sizeof r->name, "%s", s->name);
        r->entry = s->addr;
        r->order = p->nr - 1;
        uint8_t id[16];
        char nm[9];
        if (fst_image_read(seg, nseg, r->entry, id, sizeof id) == 0) {
            int style = fst_ident_at(id, sizeof id, 0, nm);
            if ((style == FST_ID_FORTG || style == FST_ID_FORTH) && same_name(nm, r->name))
                r->fortran = style;
        }
        if ((int64_t)r->entry == mainline_addr) {
            r->mainline = 1;
            x->mainline_fixed = 1;
        }
    }
    fst_pm_free(own);
    return 0;
}

static int choose_timed(rp *x, fst_err *err)
{
    fst_profile *p = x->p;
    const fst_replay_opts *o = x->o;
    char (*names)[9] = NULL;
    size_t nn = 0;
    if (o->statin && fst_statin_read(o->statin, &names, &nn, err) < 0)
        return -1;
    for (size_t i = 0; i < p->nr; i++) {
        fst_routine *r = &p->r[i];
        if (o->timed_all)
            r->timed = 1;
        else if (o->statin) {
            for (size_t k = 0; k < nn; k++)
                if (same_name(names[k], r->name))
                    r->timed = 1;
        } else
            r->timed = r->fortran != 0;
        for (const char *const *e = o->exclude; e && *e; e++)
            if (same_name(*e, r->name))
                r->excluded = 1;
        if (r->mainline)
            r->timed = 1;
    }
    for (size_t k = 0; k < nn; k++) {
        int found = 0;
        for (size_t i = 0; i < p->nr && !found; i++)
            found = same_name(names[k], p->r[i].name);
        if (!found && o->warn) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: '%s' names no routine of the program", o->statin, names[k]);
            o->warn(msg);
        }
    }
    free(names);
    for (const char *const *e = o->exclude; e && *e; e++) {
        int found = 0;
        for (size_t i = 0; i < p->nr; i++)
            found |= same_name(*e, p->r[i].name);
        if (!found)
            return fst_errf(err, "--exclude=%s: no routine of that name", *e);
    }
    return 0;
}

/* ---- the stack ---- */

static size_t arc_get(fst_profile *p, size_t caller, size_t callee)
{
    for (size_t i = p->narcs; i-- > 0;) /* few arcs per program; recent ones last */
        if (p->arcs[i].caller == caller && p->arcs[i].callee == callee)
            return i;
    if (p->narcs == p->arccap) {
        p->arccap = p->arccap ? p->arccap * 2 : 64;
        p->arcs = fst_xrealloc(p->arcs, p->arccap * sizeof *p->arcs);
    }
    p->arcs[p->narcs] = (fst_arc){ caller, callee, 0, 0, 0 };
    return p->narcs++;
}

static size_t top_owner(const cpu *c) { return c->n ? c->f[c->n - 1].owner : NONE; }

static void push(rp *x, cpu *c, size_t r, uint64_t ret, uint64_t mask, int count)
{
    fst_profile *p = x->p;
    fst_routine *rt = &p->r[r];
    size_t caller = top_owner(c);
    size_t owner = rt->timed ? r : caller;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->f = fst_xrealloc(c->f, c->cap * sizeof *c->f);
    }
    frame *f = &c->f[c->n++];
    *f = (frame){ r, owner, ret & mask, mask, NONE, p->total_cost, p->total_insns };
    if (rt->timed && count) {
        rt->calls++;
        f->arc = arc_get(p, caller, r);
        p->arcs[f->arc].count++;
    }
    if (rt->depth++ == 0) {
        rt->incl_cost0 = p->total_cost;
        rt->incl_insns0 = p->total_insns;
    }
}

static void pop(rp *x, cpu *c)
{
    fst_profile *p = x->p;
    frame *f = &c->f[--c->n];
    fst_routine *rt = &p->r[f->routine];
    if (--rt->depth == 0) {
        rt->incl_cost += p->total_cost - rt->incl_cost0;
        rt->incl_insns += p->total_insns - rt->incl_insns0;
    }
    if (f->arc != NONE) {
        int outer = 1; /* the arc's time counts the outermost frame of a recursion only */
        for (size_t i = 0; i < c->n && outer; i++)
            outer = !(c->f[i].arc == f->arc);
        if (outer) {
            p->arcs[f->arc].cost += p->total_cost - f->cost0;
            p->arcs[f->arc].insns += p->total_insns - f->insns0;
        }
    }
}

/* After a taken branch: a return to the top frame (return address or +4k, k <= 4), or to
** an older frame's (UNWIND). */
static void returns(rp *x, cpu *c, uint64_t addr)
{
    if (!c->n)
        return;
    frame *t = &c->f[c->n - 1];
    uint64_t a = addr & t->mask;
    if (a >= t->ret && a - t->ret <= 16 && !((a - t->ret) & 3)) {
        pop(x, c);
        return;
    }
    for (size_t i = c->n - 1; i-- > 0;) {
        const frame *f = &c->f[i];
        uint64_t b = addr & f->mask;
        if (b >= f->ret && b - f->ret <= 16 && !((b - f->ret) & 3)) {
            while (c->n > i)
                pop(x, c);
            x->p->unwinds++;
            return;
        }
    }
}

static void charge(rp *x, cpu *c, int taken)
{
    fst_profile *p = x->p;
    fst_fx cost = fst_clock_cost(x->o->clock, &c->prev, taken);
    p->total_cost += cost;
    p->total_insns++;
    if (c->prev_excluded) {
        p->excluded_cost += cost;
        p->excluded_insns++;
    } else if (c->prev_owner == NONE) {
        p->outside_cost += cost;
        p->outside_insns++;
    } else {
        p->r[c->prev_owner].self_cost += cost;
        p->r[c->prev_owner].self_insns++;
    }
}

static void insn(rp *x, const fst_rec *rec)
{
    fst_profile *p = x->p;
    cpu *c = &x->cpus[rec->cpu % MAXCPU];
    int branched = 0;
    if (c->have_prev) {
        branched = rec->addr != fst_insn_next(&c->prev);
        charge(x, c, (c->prev.flags & FST_I_CANBRANCH) ? branched : 0);
    }
    if (branched && (c->prev.flags & FST_I_BRANCH) && (c->prev.flags & FST_I_CANBRANCH)) {
        size_t r = find_entry(x, rec->addr);
        if ((c->prev.flags & FST_I_LINK) && c->prev.link == 14 && r != NONE) {
            int amode = fst_st_amode(rec->state); /* a BALR changes no mode */
            uint64_t mask = amode == 2 ? ~0ull : amode == 1 ? 0x7FFFFFFFull : 0xFFFFFFull;
            int first = p->mainline < 0 && c->n == 0 && (p->r[r].mainline || !x->mainline_fixed);
            if (first) {
                p->r[r].mainline = p->r[r].timed = 1;
                p->mainline = (int)r;
            }
            push(x, c, r, fst_insn_next(&c->prev), mask, !first);
        } else
            returns(x, c, rec->addr);
    } else if (c->n == 0 && p->mainline < 0 && x->mainline_fixed) {
        size_t r = find_entry(x, rec->addr); /* the mainline entered without a call */
        if (r != NONE && p->r[r].mainline) {
            p->mainline = (int)r;
            push(x, c, r, ~0ull, ~0ull, 0);
        }
    }
    dcache_ent *e = &x->dc[(rec->addr >> 1) & (DCACHE - 1)];
    if (!e->valid || e->addr != rec->addr || e->state != rec->state || memcmp(e->bytes, rec->bytes, 6)) {
        fst_decode(&e->d, rec->bytes, rec->addr, rec->state);
        e->addr = rec->addr;
        e->state = rec->state;
        memcpy(e->bytes, rec->bytes, 6);
        e->valid = 1;
    }
    c->prev = e->d;
    c->have_prev = 1;
    c->prev_owner = top_owner(c);
    c->prev_excluded = (c->prev_owner != NONE && p->r[c->prev_owner].excluded) ||
                       (x->o->cpu_problem && !(rec->state & FST_ST_PROBLEM));
}

static int conservation(const fst_profile *p, fst_err *err)
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

int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, fst_err *err)
{
    memset(p, 0, sizeof *p);
    p->mainline = -1;
    rp x = { fst_xcalloc(DCACHE, sizeof(dcache_ent)), p, o, NULL, 0, { { 0 } }, 0 };
    int rc = -1;
    if (routines_from_model(&x, tr, pm, err) || choose_timed(&x, err))
        goto out;
    build_hash(&x);
    fst_rec rec;
    int k;
    while ((k = fst_tr_next(tr, &rec, err)) > 0) {
        switch (rec.kind) {
        case FST_REC_INSN: insn(&x, &rec); break;
        case FST_REC_PGMCHK: p->pgmchks++; break;
        case FST_REC_INTR: p->intrs++; break;
        case FST_REC_WAIT: p->waits++; break;
        case FST_REC_GAP: /* tracing was off: the next jump is not the program's */
            for (int i = 0; i < MAXCPU; i++)
                if (x.cpus[i].have_prev) {
                    charge(&x, &x.cpus[i], FST_TAKEN_UNKNOWN);
                    x.cpus[i].have_prev = 0;
                }
            break;
        default: break;
        }
    }
    if (k < 0)
        goto out;
    for (int i = 0; i < MAXCPU; i++) {
        cpu *c = &x.cpus[i];
        if (c->have_prev)
            charge(&x, c, FST_TAKEN_UNKNOWN);
        p->open_frames += c->n;
        while (c->n)
            pop(&x, c);
    }
    const char *why;
    p->complete = fst_tr_complete(tr, &why);
    if (!p->complete)
        snprintf(p->incomplete, sizeof p->incomplete, "%s", why);
    snprintf(p->clock, sizeof p->clock, "%s", fst_clock_name(o->clock));
    fst_clock_stats st;
    fst_clock_stats_get(o->clock, &st);
    p->unmodeled = st.unmodeled;
    rc = conservation(p, err);
out:
    for (int i = 0; i < MAXCPU; i++)
        free(x.cpus[i].f);
    free(x.hash);
    free(x.dc);
    return rc;
}

void fst_profile_free(fst_profile *p)
{
    free(p->r);
    free(p->arcs);
    memset(p, 0, sizeof *p);
}

int fst_statin_read(const char *path, char (**names)[9], size_t *n, fst_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fst_errno(err, "%s: cannot open", path);
    char line[512];
    size_t cap = 16, lineno = 0;
    *n = 0;
    *names = fst_xmalloc(cap * sizeof **names);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        if (len > 80) {
            fclose(f);
            free(*names);
            *names = NULL;
            return fst_errf(err, "%s:%zu: a STATIN card has 80 columns, this line has %zu", path, lineno, len);
        }
        if (len > 72) /* columns 73-80: sequence numbers */
            len = 72;
        char nm[9];
        size_t k = 0;
        for (size_t i = 0; i < len && k < 8; i++)
            if (line[i] != ' ' && line[i] != '\t')
                nm[k++] = (char)toupper((unsigned char)line[i]);
        if (!k)
            continue;
        nm[k] = 0;
        if (*n == cap)
            *names = fst_xrealloc(*names, (cap *= 2) * sizeof **names);
        memcpy((*names)[(*n)++], nm, 9);
    }
    fclose(f);
    return (int)*n;
}

/* 1 s = 4096e6 TOD units = 512e12 fx (analyze/clock.h) */
#define FX_PER_SEC 512000000000000ull

void fst_fmt_sec2(fst_fx x, char *buf)
{
    uint64_t cs = (x + FX_PER_SEC / 200) / (FX_PER_SEC / 100);
    if (cs >= 100)
        sprintf(buf, "%llu.%02llu", (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
    else
        sprintf(buf, ".%02llu", (unsigned long long)cs);
}

void fst_fmt_sec9(fst_fx x, char *buf)
{
    uint64_t ns = (x + FX_PER_SEC / 2000000000ull) / (FX_PER_SEC / 1000000000ull);
    sprintf(buf, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull), (unsigned long long)(ns % 1000000000ull));
}
