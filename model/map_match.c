/* model/map_match.c — where a module was loaded, found by matching the program model with
** a storage image and/or the addresses a trace branched to (DESIGN §5). See progmodel.h.
**
** Each piece of evidence votes for candidate load points:
**   image   an identifier (47F0F0xx, length, name) at absolute A whose name is a routine of
**           the module at origin O votes for A - O;
**   trace   a target address A that is the start O of a routine (section or label) votes
**           for A - O ("hits"); a target inside the module's span at a candidate that is no
**           routine start counts against it ("misses"). With call targets (the addresses
**           branch-and-link instructions went to), the true load point hits every routine
**           entered and misses almost nothing; a load point shifted by the distance between
**           two routines hits fewer and misses more.
** Candidates must be multiples of the alignment and, for a confined trace, hold every
** address. The image decides when one candidate has all its votes, or at least two and
** twice as many as any other; the trace decides when one candidate has at least two hits,
** more hits than misses, and a better score (hits - misses) than every other. Anything
** else is an error that lists the candidates: ambiguous or inconsistent, never guessed.
*/
#include "model/progmodel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 100000000ull     /* addresses x routine starts we are willing to try */

typedef struct cand {
    uint64_t lp;
    unsigned img, hits, miss;
} cand;

/* Candidates by load point: open addressing into a growing array. */
typedef struct votes {
    cand *v;
    size_t n, cap;
    size_t *slot;               /* index + 1, 0 = empty */
    size_t nslot;
} votes;

static size_t hash(uint64_t x, size_t n)
{
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 17) & (n - 1);
}

static cand *vote_for(votes *t, uint64_t lp)
{
    if (2 * (t->n + 1) > t->nslot) {
        size_t ns = t->nslot ? 2 * t->nslot : 1024;
        size_t *s = fst_xcalloc(ns, sizeof *s);
        for (size_t i = 0; i < t->n; i++) {
            size_t h = hash(t->v[i].lp, ns);
            while (s[h])
                h = (h + 1) & (ns - 1);
            s[h] = i + 1;
        }
        free(t->slot);
        t->slot = s;
        t->nslot = ns;
    }
    size_t h = hash(lp, t->nslot);
    while (t->slot[h] && t->v[t->slot[h] - 1].lp != lp)
        h = (h + 1) & (t->nslot - 1);
    if (!t->slot[h]) {
        if (t->n == t->cap)
            t->v = fst_xrealloc(t->v, (t->cap = t->cap ? 2 * t->cap : 256) * sizeof *t->v);
        t->v[t->n] = (cand){ lp, 0, 0, 0 };
        t->slot[h] = ++t->n;
    }
    return &t->v[t->slot[h] - 1];
}

typedef struct job {
    const fst_pm *pm;
    const fst_pm_module *m;
    const fst_pm_evidence *ev;
    uint64_t align, extent;
    uint64_t *a;                /* the addresses, sorted, each once */
    size_t na;
    uint64_t amin, amax;
    char what[300];             /* "NAME of FILE" for messages */
} job;

static int is_routine(const fst_pm_sym *s)
{
    return s->type == FST_PM_SD || s->type == FST_PM_PC || s->type == FST_PM_LR;
}

/* qsort with nothing to sort: the arrays start NULL, and qsort(NULL, 0) is undefined
** (UBSan's nonnull-attribute check aborts on it). */
static void sort_n(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(v, n, size, cmp);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort v and drop repeats; returns the new count. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    sort_n(v, n, sizeof *v, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

static int setup(job *j, const fst_pm *pm, int module, const fst_pm_evidence *ev, fst_err *err)
{
    size_t n = fst_pm_nmodules(pm);
    memset(j, 0, sizeof *j);
    if (module < 0 && n != 1)
        return fst_errf(err, n ? "the program model has %zu modules: say which one" :
                        "the program model is empty", n);
    if (module >= (int)n)
        return fst_errf(err, "no module %d in the program model", module);
    j->pm = pm;
    j->m = fst_pm_module_at(pm, module < 0 ? 0 : (size_t)module);
    j->ev = ev;
    j->align = ev->align ? ev->align : 8;
    j->extent = j->m->has_total ? j->m->total : 0;
    for (size_t i = j->m->first; i < j->m->first + j->m->count; i++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, i);
        /* a routine holds its start even when the map gives it no length (a CSV's last
        ** section, 0): else a hit there lay past the extent, and its misses, the addresses
        ** inside less the hits, went below zero (misses(): an attached window, whose calls
        ** reached the last routine, was "ambiguous") */
        uint64_t end = s->origin + (uint64_t)(s->length ? s->length : is_routine(s) ? 2 : 0);
        if (s->type != FST_PM_PR && s->type != FST_PM_LR && end > j->extent)
            j->extent = end;
    }
    j->a = fst_xmalloc((ev->naddrs + 1) * sizeof *j->a);
    if (ev->naddrs)
        memcpy(j->a, ev->addrs, ev->naddrs * sizeof *j->a);
    j->na = sort_unique(j->a, ev->naddrs);
    j->amin = j->na ? j->a[0] : 0;
    j->amax = j->na ? j->a[j->na - 1] : 0;
    snprintf(j->what, sizeof j->what, "%s%s%s", j->m->name ? j->m->name : "",
             j->m->name ? " of " : "", j->m->file);
    return 0;
}

static int feasible(const job *j, uint64_t lp)
{
    if (lp % j->align)
        return 0;
    if (!j->ev->confined || !j->na || !j->extent)
        return 1;
    return lp <= j->amin && j->amax - lp < j->extent;
}

/* Image votes: each identifier votes once for every load point that puts a routine of that
** name under it. */
static void image_votes(job *j, votes *t)
{
    fst_id_hit *h;
    size_t n;
    fst_scan_ids(j->ev->image, j->ev->nimage, FST_SCAN_OS, &h, &n, NULL);
    for (size_t i = 0; i < n; i++) {
        uint64_t last = UINT64_MAX;
        for (size_t k = j->m->first; k < j->m->first + j->m->count; k++) {
            const fst_pm_sym *s = fst_pm_sym_at(j->pm, k);
            if (!is_routine(s) || strcmp(s->name, h[i].name) || h[i].addr < s->origin)
                continue;
            uint64_t lp = h[i].addr - s->origin;
            if (lp % j->align || lp == last)
                continue;
            vote_for(t, lp)->img++;
            last = lp;
        }
    }
    free(h);
}

/* Addresses in [lo, hi). */
static size_t count_in(const job *j, uint64_t lo, uint64_t hi)
{
    size_t a = 0, b = j->na;
    while (a < b) {                                    /* first >= lo */
        size_t m = a + (b - a) / 2;
        if (j->a[m] < lo) a = m + 1; else b = m;
    }
    size_t first = a;
    b = j->na;
    while (a < b) {                                    /* first >= hi */
        size_t m = a + (b - a) / 2;
        if (j->a[m] < hi) a = m + 1; else b = m;
    }
    return a - first;
}

/* The addresses inside the module at lp that are not routine starts (hits there). */
static unsigned misses(const job *j, uint64_t lp, unsigned hits)
{
    size_t in = count_in(j, lp, lp + j->extent);
    return in > hits ? (unsigned)(in - hits) : 0;
}

/* Trace votes: every (address, distinct routine origin) pair that lines up is a hit; then
** the misses of every candidate that has hits. */
static int trace_votes(job *j, votes *t, fst_err *err)
{
    size_t no = 0;
    uint64_t *o = fst_xmalloc((j->m->count + 1) * sizeof *o);
    for (size_t k = j->m->first; k < j->m->first + j->m->count; k++)
        if (is_routine(fst_pm_sym_at(j->pm, k)))
            o[no++] = fst_pm_sym_at(j->pm, k)->origin;
    no = sort_unique(o, no);
    if ((unsigned long long)j->na * no > MAX_PAIRS) {
        free(o);
        return fst_errf(err, "%s: %zu addresses x %zu routine starts is too many to match; "
                        "pass the call targets only", j->what, j->na, no);
    }
    for (size_t i = 0; i < j->na; i++)
        for (size_t k = 0; k < no && o[k] <= j->a[i]; k++)
            if (feasible(j, j->a[i] - o[k]))
                vote_for(t, j->a[i] - o[k])->hits++;
    free(o);
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].hits && j->extent)
            t->v[i].miss = misses(j, t->v[i].lp, t->v[i].hits);
    return 0;
}

static long score(const cand *c) { return (long)c->hits - (long)c->miss; }


static int by_img(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->img != y->img)
        return x->img > y->img ? -1 : 1;
    if (score(x) != score(y))
        return score(x) > score(y) ? -1 : 1;
    return x->lp < y->lp ? -1 : x->lp > y->lp;
}

static int by_score(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (score(x) != score(y))
        return score(x) > score(y) ? -1 : 1;
    if (x->hits != y->hits)
        return x->hits > y->hits ? -1 : 1;
    return x->lp < y->lp ? -1 : x->lp > y->lp;
}

/* "20000 (3 names), 31000 (1 name)" for the first few candidates. */
static void list(const cand *v, size_t n, int img, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && i < 4 && k + 80 < cap; i++) {
        if (img)
            k += (size_t)snprintf(buf + k, cap - k, "%s%" PRIX64 " (%u name%s)", i ? ", " : "",
                                  v[i].lp, v[i].img, v[i].img == 1 ? "" : "s");
        else
            k += (size_t)snprintf(buf + k, cap - k, "%s%" PRIX64 " (%u routine start%s, %u "
                                  "other address%s)", i ? ", " : "", v[i].lp, v[i].hits,
                                  v[i].hits == 1 ? "" : "s", v[i].miss, v[i].miss == 1 ? "" : "es");
    }
    if (n > 4)
        snprintf(buf + k, cap - k, " and %zu more", n - 4);
}

/* Keep the feasible candidates that have votes of the kind asked; returns their count. */
static size_t keep(const job *j, votes *t, int img)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        if ((img ? t->v[i].img : t->v[i].hits) && feasible(j, t->v[i].lp))
            t->v[n++] = t->v[i];
    return n;
}

static int trace_decides(const cand *v, size_t n)
{
    return n && v[0].hits >= 2 && score(&v[0]) >= 1 && (n == 1 || score(&v[0]) > score(&v[1]));
}

/* 1 and *lp when the image decides, 0 when it has nothing to say, -1 on bad evidence. */
static int decide_image(const job *j, votes *t, uint64_t *lp, fst_err *err)
{
    size_t had = 0;
    for (size_t i = 0; i < t->n; i++)
        had += t->v[i].img > 0;
    size_t n = keep(j, t, 1);
    char buf[600];
    sort_n(t->v, n, sizeof *t->v, by_img);
    if (n == 1 || (n > 1 && t->v[0].img >= 2 && t->v[0].img >= 2 * t->v[1].img)) {
        *lp = t->v[0].lp;
        return 1;
    }
    if (n > 1) {
        sort_n(t->v, n, sizeof *t->v, by_score);          /* the trace may tell them apart */
        if (trace_decides(t->v, n)) {
            *lp = t->v[0].lp;
            return 1;
        }
        sort_n(t->v, n, sizeof *t->v, by_img);
        list(t->v, n, 1, buf, sizeof buf);
        return fst_errf(err, "%s: ambiguous load point: routine names in the storage image "
                        "line up at %s", j->what, buf);
    }
    if (had)
        return fst_errf(err, "%s: inconsistent evidence: the routine names in the storage "
                        "image put the module where the executed addresses %" PRIX64 "-%" PRIX64
                        " do not fit", j->what, j->amin, j->amax);
    return 0;
}

/* A confined trace whose addresses leave room for one load point only. */
static int decide_span(const job *j, uint64_t *lp, fst_err *err)
{
    if (!j->ev->confined || !j->extent || !j->na)
        return 0;
    if (j->amax - j->amin >= j->extent)
        return fst_errf(err, "%s: inconsistent evidence: the executed addresses %" PRIX64 "-%"
                        PRIX64 " span more than the module's %" PRIX64 " bytes", j->what,
                        j->amin, j->amax, j->extent);
    uint64_t lo = j->amax + 1 >= j->extent ? j->amax + 1 - j->extent : 0;
    uint64_t hi = j->amin - j->amin % j->align;
    lo = (lo + j->align - 1) / j->align * j->align;
    if (lo > hi)
        return fst_errf(err, "%s: inconsistent evidence: no load point that is a multiple of %"
                        PRIX64 " holds the executed addresses %" PRIX64 "-%" PRIX64, j->what,
                        j->align, j->amin, j->amax);
    if (lo < hi)
        return 0;
    *lp = lo;
    return 1;
}

static int decide_trace(const job *j, votes *t, uint64_t *lp, fst_err *err)
{
    char buf[600];
    int rc = decide_span(j, lp, err);
    if (rc)
        return rc;
    size_t n = keep(j, t, 0);
    sort_n(t->v, n, sizeof *t->v, by_score);
    if (trace_decides(t->v, n)) {
        *lp = t->v[0].lp;
        return 1;
    }
    if (!n)
        return fst_errf(err, "%s: no load point fits: no executed address is the start of a "
                        "routine of the module", j->what);
    list(t->v, n, 0, buf, sizeof buf);
    return fst_errf(err, "%s: ambiguous load point: the executed addresses fit %s (pass the "
                    "call targets only, or give the load point)", j->what, buf);
}

int fst_pm_find_load_point(const fst_pm *pm, int module, const fst_pm_evidence *ev,
                           uint64_t *load_point, fst_err *err)
{
    job j;
    votes t = { 0 };
    int rc = setup(&j, pm, module, ev, err);
    if (rc == 0 && ev->nimage)
        image_votes(&j, &t);
    if (rc == 0 && j.na)
        rc = trace_votes(&j, &t, err);
    if (rc == 0 && ev->nimage)
        rc = decide_image(&j, &t, load_point, err);   /* 1 decided, 0 no image votes */
    if (rc == 0 && !j.na)
        /* say only what was looked at: a caller that gave no addresses (fst-report looks
        ** at the storage image only) must not read as if the trace had none (issue 16) */
        rc = fst_errf(err, "%s: no evidence for the load point: %s", j.what,
                      ev->nimage && ev->naddrs ? "no identifier in the storage image names a routine of the "
                                                 "module, and no executed address lines up with it"
                      : ev->nimage ? "no identifier in the storage image names a routine of the module"
                      : ev->naddrs ? "no storage image, and no executed address lines up with the module"
                      : "neither a storage image nor executed addresses were given");
    if (rc == 0)
        rc = decide_trace(&j, &t, load_point, err);
    free(j.a);
    free(t.v);
    free(t.slot);
    return rc < 0 ? -1 : 0;
}

int fst_pm_rank_load_points(const fst_pm *pm, int module, const fst_pm_evidence *ev, fst_pm_cand *out,
                            size_t max, size_t *n, fst_err *err)
{
    job j;
    votes t = { 0 };
    *n = 0;
    int rc = setup(&j, pm, module, ev, err);
    if (rc == 0 && j.na)
        rc = trace_votes(&j, &t, err);
    if (rc == 0) {
        size_t k = keep(&j, &t, 0);
        sort_n(t.v, k, sizeof *t.v, by_score);
        for (size_t i = 0; i < k && i < max; i++)
            out[(*n)++] = (fst_pm_cand){ t.v[i].lp, t.v[i].hits, t.v[i].miss };
    }
    free(j.a);
    free(t.v);
    free(t.slot);
    return rc < 0 ? -1 : 0;
}

int fst_pm_score_at(const fst_pm *pm, int module, const fst_pm_evidence *ev, uint64_t load_point,
                    fst_pm_cand *c, fst_err *err)
{
    job j;
    *c = (fst_pm_cand){ load_point, 0, 0 };
    if (setup(&j, pm, module, ev, err) < 0)
        return -1;
    uint64_t last = UINT64_MAX;
    for (size_t k = j.m->first; k < j.m->first + j.m->count; k++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, k);
        uint64_t a = load_point + s->origin;
        if (!is_routine(s) || a == last)
            continue;
        last = a;
        c->hits += count_in(&j, a, a + 1) > 0;
    }
    if (j.extent)
        c->miss = misses(&j, load_point, c->hits);
    free(j.a);
    return 0;
}

int fst_pm_check_load_point(const fst_pm *pm, int module, uint64_t load_point,
                            const fst_pm_evidence *ev, fst_err *err)
{
    job j;
    if (setup(&j, pm, module, ev, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; ev->confined && i < j.na && rc == 0; i++)
        if (j.a[i] < load_point || j.a[i] - load_point >= j.extent)
            rc = fst_errf(err, "%s: executed address %" PRIX64 " lies outside the module at "
                          "%" PRIX64 "-%" PRIX64, j.what, j.a[i], load_point,
                          load_point + j.extent);
    votes t = { 0 };
    if (rc == 0 && ev->nimage) {         /* what the image says must not contradict it */
        image_votes(&j, &t);
        size_t n = keep(&j, &t, 1), agree = 0;
        sort_n(t.v, n, sizeof *t.v, by_img);
        int decided = n == 1 || (n > 1 && t.v[0].img >= 2 && t.v[0].img >= 2 * t.v[1].img);
        for (size_t i = 0; i < n; i++)
            agree |= t.v[i].lp == load_point && (!decided || i == 0);
        if (n && !agree) {
            char buf[600];
            list(t.v, n, 1, buf, sizeof buf);
            rc = fst_errf(err, "%s: load point %" PRIX64 " does not match the storage image: "
                          "the routine names in it line up at %s", j.what, load_point, buf);
        }
    }
    free(j.a);
    free(t.v);
    free(t.slot);
    return rc;
}
