/* model/space_ev.c — the evidence of a trace's address spaces (mapspaces.h
** fst_space_evidence), read a run at a time.
**
** What is gathered is defined instruction by instruction (mapspaces.h), and was read so, a
** record built for every instruction: on a 2-second window of shares.s (420 M
** instructions) that took 4.5 s of fst-report's 6, three times the replay after it, and
** fst-report reads it whenever a map has no fixed load point, as every MVS job's
** linkage-editor listing has not. Read now:
**   - a SEQ run whole (tracebin.h fst_tr_next_run). Of its instructions only the entries
**     (47F0F0xx) matter, and whether one links 14: the last, or one before it, which its
**     fall-through follows in the same state, as `after` waits for: such a link adds
**     nothing and leaves no link pending (not even one made before the run in another
**     state). What a run holds is kept per (address, length, code epoch) in a
**     direct-mapped table (`runs`): each distinct run is decoded once.
**   - loops once a period and calls once a subtree: model/space_ev_skip.c, after each run.
** FST_SPACE_EV_RECORDS=1 in the environment reads record by record, nothing skipped, as the
** tests compare; tests/unit/test_space_ev.c holds the definition itself. */
#include "model/space_ev_int.h"

#include <stdlib.h>
#include <string.h>

/* What a run holds: its entries (at most MAXENT; a run with more is read record by record). */
enum { RUNS = 4096, MAXENT = 3 };
typedef struct run_info {
    uint64_t addr, epoch, next;     /* next: the address after its last instruction */
    uint64_t ent[MAXENT];
    uint32_t n;
    uint8_t nent, last[6];
    uint8_t links;                  /* 1: its last instruction links 14; 2: one before it does */
} run_info;

typedef struct pass {
    sv_pass sv;                     /* what the skips share (space_ev_int.h) */
    run_info *runs;
    struct { uint64_t addr; size_t space; } seen[256];  /* just added, by hash (space + 1, and 1 << 30
                                                           for a call target; 0: none) */
} pass;

/* A branch and link with link register 14: BALR, BASR, BASSM, BAL, BAS, BRAS, BRASL. */
static int links_14(const uint8_t *b)
{
    switch (b[0]) {
    case 0x05: case 0x0D: case 0x0C: case 0x45: case 0x4D:
        return (b[1] >> 4) == 14;
    case 0xA7: case 0xC0:
        return (b[1] >> 4) == 14 && (b[1] & 15) == 5;
    default:
        return 0;
    }
}

/* B xx(,15) over an identifier: 47F0F0xx, xx even and at least 8 */
static int entry_insn(const uint8_t *b, int len)
{
    return len == 4 && b[0] == 0x47 && b[1] == 0xF0 && b[2] == 0xF0 && b[3] >= 8 && !(b[3] & 1);
}

fst_space_ev *fst_sv_space_slow(sv_pass *ps, uint64_t space)
{
    for (size_t i = 0; i < ps->n; i++)
        if (ps->v[i].space == space)
            return &ps->v[ps->last = i];
    if (ps->n == ps->cap)
        ps->v = fst_xrealloc(ps->v, (ps->cap = ps->cap ? 2 * ps->cap : 8) * sizeof *ps->v);
    ps->v[ps->n] = (fst_space_ev){ .space = space };
    return &ps->v[ps->last = ps->n++];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort n addresses and drop repeats; how many are left. */
static size_t squeeze(uint64_t *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* a into the set *v of *n (room *cap): when full, squeeze first, and grow only when that
** leaves less than half free */
static void put(uint64_t **v, size_t *n, size_t *cap, uint64_t a)
{
    if (*n == *cap) {
        *n = squeeze(*v, *n);
        if (*n >= *cap / 2)
            *v = fst_xrealloc(*v, (*cap = *cap ? 2 * *cap : 256) * sizeof **v);
    }
    (*v)[(*n)++] = a;
}

/* A long trace repeats its calls: an address just added (by its hash, in this space, as a
** call target or not) is not added again. A call target goes to both sets. */
static void add_addr(pass *ps, fst_space_ev *s, uint64_t a, int call)
{
    size_t space = (size_t)(s - ps->sv.v) + 1 + ((size_t)call << 30);
    unsigned h = (unsigned)(((a ^ space) * 0x9E3779B97F4A7C15ull) >> 56);
    if (ps->seen[h].addr == a && ps->seen[h].space == space)
        return;
    ps->seen[h].addr = a;
    ps->seen[h].space = space;
    put(&s->addrs, &s->naddrs, &s->cap, a);
    if (call)
        put(&s->calls, &s->ncalls, &s->ccap, a);
}

cpu_st *fst_sv_cpu_slow(sv_pass *ps, uint16_t cpu)
{
    size_t nn = (size_t)cpu + 1;
    ps->cpu = fst_xrealloc(ps->cpu, nn * sizeof *ps->cpu);
    for (size_t i = ps->ncpu; i < nn; i++)
        ps->cpu[i] = (cpu_st){ 0, 0, NONE, 0 };
    ps->ncpu = nn;
    return &ps->cpu[cpu];
}

/* A run's first instruction (at addr, in state) after the CPU's pending link, if any. */
static void after_link(pass *ps, cpu_st *c, fst_space_ev *s, uint64_t addr, uint32_t state)
{
    if (c->after != NONE && state == c->state) {   /* a handler between: wait for the task */
        if (addr != c->after)
            add_addr(ps, s, addr, 1);
        c->after = NONE;
    }
}

/* One record, as the definition reads it. */
static void record(pass *ps, const fst_rec *r)
{
    cpu_st *c = fst_sv_cpu(&ps->sv, r->cpu);
    if (r->kind == FST_REC_CR && r->cls == 1) {
        c->cr1 = r->value;
        c->known = 1;
        return;
    }
    if (r->kind != FST_REC_INSN)
        return;
    fst_space_ev *s = fst_sv_space(&ps->sv, c, r->state);
    s->insns++;
    after_link(ps, c, s, r->addr, r->state);
    if (entry_insn(r->bytes, r->len))
        add_addr(ps, s, r->addr, 0);
    if (links_14(r->bytes)) {
        c->after = r->addr + r->len;
        c->state = r->state;
    }
}

/* What the run of n at addr holds, decoded from the reader's code cache; NULL when a run
** holds more entries than kept, or the cache lacks its bytes (the reader then says why). */
static const run_info *run_of(pass *ps, uint64_t addr, uint32_t n)
{
    run_info *ri = &ps->runs[((addr ^ (uint64_t)n << 40) * 0x9E3779B97F4A7C15ull) >> 52];
    uint64_t epoch = *ps->sv.epoch;
    if (ri->addr == addr && ri->n == n && ri->epoch == epoch)
        return ri;
    run_info t = { .addr = addr, .epoch = epoch, .n = n };
    uint64_t a = addr;
    uint8_t b[6];
    for (uint32_t i = 0; i < n; i++) {
        memset(b, 0, sizeof b);
        int len = fst_tr_code(ps->sv.tr, a, b);
        if (!len)
            return NULL;
        if (i + 1 < n && links_14(b))
            t.links = 2;
        if (entry_insn(b, len)) {
            if (t.nent == MAXENT)
                return NULL;
            t.ent[t.nent++] = a;
        }
        a += (uint64_t)len;
    }
    t.next = a;
    if (links_14(b))
        t.links = 1;
    memcpy(t.last, b, sizeof b);
    *ri = t;
    return ri;
}

/* A SEQ run (fst_tr_next_run's 2): taken whole. Returns -1 at an error the reader found
** reading it record by record. */
static int run(pass *ps, const fst_rec *r, fst_err *err)
{
    uint32_t n = (uint32_t)r->value;
    const run_info *ri = run_of(ps, r->addr, n);
    if (!ri) {
        fst_rec one;
        for (uint32_t i = 0; i < n; i++) {
            int rc = fst_tr_next(ps->sv.tr, &one, err);
            if (rc <= 0)
                return rc < 0 ? -1 : 0;
            record(ps, &one);
        }
        return 0;
    }
    cpu_st *c = fst_sv_cpu(&ps->sv, r->cpu);
    fst_space_ev *s = fst_sv_space(&ps->sv, c, r->state);
    s->insns += n;
    after_link(ps, c, s, r->addr, r->state);
    for (unsigned i = 0; i < ri->nent; i++)
        add_addr(ps, s, ri->ent[i], 0);
    if (ri->links == 1) {
        c->after = ri->next;
        c->state = r->state;
    } else if (ri->links) {
        c->after = NONE;    /* the link's fall-through came next, in the run */
    }
    fst_tr_seq_take(ps->sv.tr, n, ri->next, ri->last);
    return 0;
}

static int by_insns(const void *a, const void *b)
{
    const fst_space_ev *x = a, *y = b;
    return x->insns > y->insns ? -1 : x->insns < y->insns;
}

int fst_space_evidence(const char *path, fst_space_ev **out, size_t *n, fst_err *err)
{
    *out = NULL;
    *n = 0;
    fst_tr *tr = fst_tr_open(path, err);
    if (!tr)
        return -1;
    int rc = fst_space_evidence_tr(tr, out, n, err);
    fst_tr_close(tr);
    return rc;
}

int fst_space_evidence_tr(fst_tr *tr, fst_space_ev **out, size_t *n, fst_err *err)
{
    *out = NULL;
    *n = 0;
    pass *ps = fst_xcalloc(1, sizeof *ps);
    ps->sv.tr = tr;
    ps->sv.epoch = fst_tr_code_epoch_at(tr);
    ps->runs = fst_xcalloc(RUNS, sizeof *ps->runs);
    int slow = getenv("FST_SPACE_EV_RECORDS") != NULL;    /* record by record (the head) */
    fst_rec r;
    int rc;
    while ((rc = slow ? fst_tr_next(tr, &r, err) : fst_tr_next_run(tr, &r, err)) > 0) {
        if (rc == 1) {
            record(ps, &r);
            fst_sv_record(&ps->sv);
            continue;
        }
        if (run(ps, &r, err) < 0) {
            rc = -1;
            break;
        }
        fst_sv_after_run(&ps->sv, &r);
    }
    fst_sv_free(&ps->sv);
    free(ps->sv.cpu);
    free(ps->runs);
    fst_space_ev *v = ps->sv.v;
    *n = ps->sv.n;
    free(ps);
    if (rc < 0) {
        fst_space_evidence_free(v, *n);
        *n = 0;
        return -1;
    }
    for (size_t i = 0; i < *n; i++) {
        v[i].naddrs = squeeze(v[i].addrs, v[i].naddrs);
        v[i].ncalls = squeeze(v[i].calls, v[i].ncalls);
    }
    if (*n > 1)
        qsort(v, *n, sizeof *v, by_insns);
    *out = v;
    return 0;
}

void fst_space_evidence_free(fst_space_ev *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].addrs);
        free(v[i].calls);
    }
    free(v);
}
