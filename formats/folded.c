/*
** formats/folded.c — folded stacks for flame graphs (Brendan Gregg's flamegraph.pl,
** speedscope, and the like; notes/profformats.md §3.2).
**
** One line per distinct call stack that executed something itself:
**
**     MAIN;SUBB;SUBA 84000000
**
** the timed routines of the stack, outermost first, separated by ';', then a space and the
** stack's self count, an integer. `--unit` chooses the count: ns (default: the clock's
** time, rounded to the nanosecond), tod (TOD clock units, 1/4096 us) or instructions.
** Untimed routines are transparent (their instructions belong to the nearest timed routine
** below, as in every other report), so a stack lists timed routines only; a recursion
** gives one frame per level (RECUR;RECUR;RECUR). Instructions outside every routine and
** those of --exclude'd routines are not in any stack, so the counts add up to the sum of
** the timed routines' self figures (csv's self_instr / self_sec column without the
** (outside) and (excluded) rows). In time units the lines ending in one routine are
** rounded so that their sum is exactly its self time rounded once, csv's figure (each
** line = round(running sum) - round(previous sum), a running sum per routine); the whole
** is then within 1 ns per routine of the total rounded once.
** Lines are sorted by stack text (byte order), so the file is reproducible.
**
** The aggregate is a sink of the event stream: a tree of stacks (a trie keyed by parent
** node and routine) whose nodes hold the self instructions and cost of their stack.
** Ownership: the context (init) is freed by done. Errors: --unit's value (init); writing.
*/
#include "formats/format.h"
#include "formats/folded.h"
#include "formats/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef fst_stacknode node;

typedef struct tpath {          /* a task's stack of timed routines, as trie nodes */
    size_t *at;                 /* at[0] = root, at[i] = the node of the i timed routines */
    size_t n, cap;              /* n: how many timed routines are open */
} tpath;

typedef struct folded {
    fst_tunit unit;
    node *n;
    size_t nn, capn;
    size_t *hash;               /* open addressing: node index + 1, 0 = empty */
    size_t caph;
    tpath *t;                   /* by task + 1; [0]: no task. Kept up to date by CALL and
                                   RETURN events, so a call costs the same at any depth */
    size_t nt;
} folded;

static size_t hslot(const folded *f, size_t parent, size_t routine)
{
    uint64_t h = (uint64_t)parent * 0x9E3779B97F4A7C15ull ^ ((uint64_t)routine + 0x632BE59BD9B4E019ull);
    h ^= h >> 29;
    return (size_t)(h * 0xBF58476D1CE4E5B9ull) & (f->caph - 1);
}

static void grow(folded *f)
{
    free(f->hash);
    f->caph = f->caph ? f->caph * 2 : 1024;
    f->hash = fst_xcalloc(f->caph, sizeof *f->hash);
    for (size_t i = 1; i < f->nn; i++) {
        size_t s = hslot(f, f->n[i].parent, f->n[i].routine);
        while (f->hash[s])
            s = (s + 1) & (f->caph - 1);
        f->hash[s] = i + 1;
    }
}

static size_t child(folded *f, size_t parent, size_t routine)
{
    if (2 * (f->nn + 1) > f->caph)
        grow(f);
    size_t s = hslot(f, parent, routine);
    for (; f->hash[s]; s = (s + 1) & (f->caph - 1)) {
        const node *k = &f->n[f->hash[s] - 1];
        if (k->parent == parent && k->routine == routine)
            return f->hash[s] - 1;
    }
    if (f->nn == f->capn) {
        f->capn *= 2;
        f->n = fst_xrealloc(f->n, f->capn * sizeof *f->n);
    }
    f->n[f->nn] = (node){ parent, routine, 0, 0, 0 };
    f->hash[s] = f->nn + 1;
    return f->nn++;
}

static tpath *tpath_of(folded *f, uint32_t task)
{
    size_t k = task == FST_NOTASK ? 0 : (size_t)task + 1;
    if (k >= f->nt) {
        f->t = fst_xrealloc(f->t, (k + 1) * sizeof *f->t);
        memset(f->t + f->nt, 0, (k + 1 - f->nt) * sizeof *f->t);
        f->nt = k + 1;
    }
    tpath *t = &f->t[k];
    if (!t->cap) {
        t->cap = 64;
        t->at = fst_xmalloc(t->cap * sizeof *t->at);
        t->at[0] = 0;
    }
    return t;
}

/* A timed routine's frame pushed or popped: the task's node follows. */
static void follow(folded *f, const fst_event *e)
{
    tpath *t = tpath_of(f, e->task);
    if (e->kind == FST_EV_CALL) {
        if (t->n + 1 == t->cap) {
            t->cap *= 2;
            t->at = fst_xrealloc(t->at, t->cap * sizeof *t->at);
        }
        size_t at = child(f, t->at[t->n], e->routine);
        f->n[at].calls += e->counted != 0;
        t->at[++t->n] = at;
    } else if (t->n)
        t->n--;
}

static void *folded_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    int u = fst_tunit_parse(fst_fopt(fc, "unit"), FST_TU_NS);
    if (u < 0)
        return fst_errf(err, "--unit: '%s' is not instructions, ns or tod", fst_fopt(fc, "unit")), NULL;
    folded *f = fst_xcalloc(1, sizeof *f);
    f->unit = (fst_tunit)u;
    f->capn = 256;
    f->n = fst_xmalloc(f->capn * sizeof *f->n);
    f->n[0] = (node){ FST_NONE, FST_NONE, 0, 0, 0 };
    f->nn = 1;
    return f;
}

static void folded_event(void *ctx, const fst_event *e)
{
    folded *f = ctx;
    if (e->kind == FST_EV_CALL || e->kind == FST_EV_RETURN || e->kind == FST_EV_UNWIND) {
        if (e->profile->r[e->routine].timed)
            follow(f, e);
        return;
    }
    if (e->kind != FST_EV_EXEC || e->charged != FST_CHARGE_ROUTINE)
        return;
    tpath *t = tpath_of(f, e->task);
    size_t at = t->at[t->n];
    if (f->n[at].routine != e->routine) /* the charged routine is not on the stack: (supervisor) */
        at = child(f, at, e->routine);
    f->n[at].insns++;
    f->n[at].cost += e->cost;
}

/* A routine's name as a folded frame: ';' and blanks become '_', other control characters
** '?' (as common/quote.h does): ';' only between frames, one line per stack (malloc'd). */
static char *frame_name(const char *nm)
{
    char *s = fst_xmalloc(strlen(nm) + 1);
    size_t j = 0;
    for (; nm[j]; j++)
        s[j] = (nm[j] == ';' || nm[j] == ' ' || nm[j] == '\t' || nm[j] == '\n') ? '_'
             : (unsigned char)nm[j] < 0x20 || nm[j] == 0x7F ? '?' : nm[j];
    s[j] = 0;
    return s;
}

/* Lines come out in byte order of their text without building them all: a depth-first
** walk of the trie in which every node gives two items, its own line (key: its name) and
** its subtree's lines (key: its name and ';'), sorted by key among siblings. Every line of
** an item starts with its key and no frame name holds ';', so item order is line order. */
typedef struct item {
    const char *name;           /* the node's frame name */
    size_t parent, node;
    int subtree;
} item;

static int by_key(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    const unsigned char *p = (const unsigned char *)x->name, *q = (const unsigned char *)y->name;
    for (;; p++, q++) {
        int c = *p ? *p : x->subtree ? ';' : 0, d = *q ? *q : y->subtree ? ';' : 0;
        if (c != d || !*p || !*q)
            return c != d ? c - d : x->subtree - y->subtree;
    }
}

typedef struct walk {
    size_t pos, end, len;       /* items[pos..end) of one parent; its path's length */
} walk;

static int write_lines(FILE *out, const fst_profile *p, const folded *f, const node *nodes, char **nm)
{
    size_t ni = 2 * (f->nn - 1);
    item *it = fst_xmalloc((ni + 1) * sizeof *it);
    for (size_t k = 1; k < f->nn; k++) {
        const char *name = nm[f->n[k].routine];
        it[2 * (k - 1)] = (item){ name, f->n[k].parent, k, 0 };
        it[2 * (k - 1) + 1] = (item){ name, f->n[k].parent, k, 1 };
    }
    qsort(it, ni, sizeof *it, by_key);
    size_t *first = fst_xcalloc(f->nn, sizeof *first), *end = fst_xcalloc(f->nn, sizeof *end);
    for (size_t i = 0; i < ni; i++) {   /* node k's children: items first[k] .. end[k] */
        if (!i || it[i].parent != it[i - 1].parent)
            first[it[i].parent] = i;
        end[it[i].parent] = i + 1;
    }
    walk *st = fst_xmalloc(f->nn * sizeof *st);
    size_t nst = 0, cap = 256;
    char *buf = fst_xmalloc(cap);
    /* per leaf routine: the lines ending in a routine add up to its self time rounded once */
    fst_rounder *r = fst_xcalloc(p->nr + 1, sizeof *r);
    for (size_t i = 0; i <= p->nr; i++)
        r[i].unit = f->unit;
    int rc = 0;
    st[nst++] = (walk){ first[0], end[0], 0 };
    while (nst && !rc) {
        walk *w = &st[nst - 1];
        if (w->pos == w->end) {
            nst--;
            continue;
        }
        const item *x = &it[w->pos++];
        size_t l = strlen(x->name), len = w->len + (w->len > 0) + l;
        if (len + 1 > cap) {
            while (len + 1 > cap)
                cap *= 2;
            buf = fst_xrealloc(buf, cap);
        }
        if (w->len)
            buf[w->len] = ';';
        memcpy(buf + len - l, x->name, l);
        const node *k = &nodes[x->node];
        if (!x->subtree && k->insns)
            rc = fprintf(out, "%.*s %llu\n", (int)len, buf,
                         (unsigned long long)fst_rounder_next(&r[k->routine < p->nr ? k->routine : p->nr], k->cost,
                                                             k->insns)) < 0;
        else if (x->subtree && first[x->node] < end[x->node])
            st[nst++] = (walk){ first[x->node], end[x->node], len };
    }
    free(buf);
    free(r);
    free(st);
    free(first);
    free(end);
    free(it);
    return rc;
}

static int folded_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    folded *f = ctx;
    char **nm = fst_xcalloc(p->nr + 1, sizeof *nm);
    for (size_t i = 0; i < p->nr; i++)
        nm[i] = frame_name(p->r[i].name);
    size_t nn;
    node *through = fst_folded_through(f, p, fc->filter, &nn);   /* --routine */
    int rc = write_lines(out, p, f, through ? through : f->n, nm);
    free(through);
    for (size_t i = 0; i < p->nr; i++)
        free(nm[i]);
    free(nm);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

const fst_stacknode *fst_folded_nodes(const void *ctx, size_t *n)
{
    const folded *f = ctx;
    *n = f->nn;
    return f->n;
}

fst_stacknode *fst_folded_through(const void *ctx, const fst_profile *p, const fst_filter *flt, size_t *n)
{
    const folded *f = ctx;
    *n = f->nn;
    if (!fst_filter_has_routine(flt))
        return NULL;
    node *c = fst_xcalloc(f->nn + 1, sizeof *c);
    unsigned char *on = fst_xcalloc(f->nn + 1, 1);  /* a kept routine is on the stack */
    memcpy(c, f->n, f->nn * sizeof *c);
    for (size_t k = 1; k < f->nn; k++) {    /* parents before children */
        on[k] = on[c[k].parent] || fst_filter_keeps(flt, p->r[c[k].routine].name);
        if (!on[k])
            c[k].insns = 0, c[k].cost = 0;
    }
    free(on);
    return c;
}

static void folded_done(void *ctx)
{
    folded *f = ctx;
    if (!f)
        return;
    for (size_t i = 0; i < f->nt; i++)
        free(f->t[i].at);
    free(f->t);
    free(f->n);
    free(f->hash);
    free(f);
}

static const fst_option folded_opts[] = {
    { 0, "unit", "U", "ns (default) or tod (1/4096 us) for callgrind's time event; instructions, ns or tod for folded counts; instructions or ns for speedscope", 0 },
    { 0 },
};

const fst_format fst_format_folded = {
    "folded", "folded stacks for flame graphs: timed routines outermost first, ';'-separated, self count", 0,
    folded_opts, folded_init, folded_event, folded_write, folded_done, FST_FILTER_ROUTINE,
    1,  /* flat: its own aggregate (the stacks, from the events) */
};
