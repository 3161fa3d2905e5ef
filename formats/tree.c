/*
** formats/tree.c — a text call tree (--format=tree), as gprof's call graph, `uftrace graph`
** and `perf report -g` print one: every calling context of the timed routines, outermost
** first, with its inclusive and self time, its calls and its share of the whole.
**
**     CALL TREE: 0.000082708 s in the timed routines (clock: ...)
**
**         INCL (S)      SELF (S)      CALLS   INCL%  ROUTINE
**      0.000082708   0.000012685          0  100.0%  *MAIN
**      0.000056910   0.000056910         16   68.8%  +- SUBA
**      0.000033299   0.000011958          3   40.3%  `- SUBB
**      0.000021341   0.000021341          3   25.8%     `- SUBA
**
** The contexts are folded.c's stacks (formats/folded.h): timed routines only (an untimed
** one is transparent, as in every report), one node per recursion level, every task's
** stacks merged from its mainline. A node's inclusive figure is its own and its
** descendants' self figures; so the outermost nodes of a routine (no ancestor of the same
** routine) add up to its inclusive figure in csv and callgrind, and every root to the
** whole (the sum of the timed routines' self figures, as folded's). `--unit=instructions`
** prints instructions instead of seconds (`ns`, the default: seconds to the nanosecond).
** The share is the node's inclusive figure over the whole, one decimal, in integers.
**
** Children are ordered by inclusive figure, largest first, then by name, then by routine
** index: the same trace always prints the same tree (golden/tree/). `--percent-limit=P`
** leaves out the contexts under P per cent (and what they called), `--depth=N` the ones
** deeper than N (a root is at depth 1), `--top=N` all but the N heaviest (formats/filter.h:
** the three are shared with the other listings); a last line says how many were left out.
** `--routine=NAME` (a glob, repeatable) takes the routines it names as the only roots:
** every outermost context of each merged into one, with what it called below (gprof's view
** of a routine's descendants); `--invert` with it draws the tree of their callers instead.
** Routines whose figures a guess of which task ran could change end with " ?", their bounds
** in a footnote (formats/uncertain.h).
**
** Ownership: the context is folded's (init/event/done); write allocates and frees its
** own. Errors: bad option values (init: before the replay), an unknown --routine (write),
** writing.
*/
#include "formats/folded.h"
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/jsonw.h"
#include "formats/uncertain.h"
#include "common/map.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

extern const fst_format fst_format_folded;

typedef struct tnode {
    size_t parent, routine;     /* root: parent = FST_NONE; the virtual top: routine = FST_NONE */
    uint64_t insns, calls, incl_insns;
    fst_fx cost, incl_cost;
    size_t first, nkids;        /* its children: kids[first .. first + nkids) */
} tnode;

typedef struct tree {
    tnode *n;
    size_t nn, cap;
    size_t *kids;
} tree;

typedef struct topts {
    int insns;                  /* --unit=instructions */
    uint64_t limit_tenths;      /* --percent-limit, in tenths of a per cent */
    uint64_t depth;             /* --depth, 0 = all */
    uint64_t top;               /* --top: the heaviest contexts, 0 = all */
    int invert;                 /* --invert: the tree of callers */
    const fst_filter *routine;  /* --routine: its roots, or NULL */
} topts;

static int options(const fst_fctx *fc, topts *o, fst_err *err)
{
    memset(o, 0, sizeof *o);
    const char *u = fst_fopt(fc, "unit");
    if (u && strcmp(u, "ns") && strcmp(u, "instructions"))
        return fst_errf(err, "--unit: '%s': the tree prints ns (seconds, the default) or instructions", u);
    o->insns = u && !strcmp(u, "instructions");
    o->limit_tenths = fc->filter ? fc->filter->limit_tenths : 0;
    o->top = fc->filter ? fc->filter->top : 0;
    const char *d = fst_fopt(fc, "depth");
    if (d && (fst_parse_u64(d, 10, &o->depth) || o->depth < 1 || o->depth > 100000))
        return fst_errf(err, "--depth: '%s' is not a number of levels from 1 to 100000", d);
    o->routine = fc->filter && fc->filter->npat ? fc->filter : NULL;
    o->invert = fst_fopt(fc, "invert") != NULL;
    if (o->invert && !o->routine)
        return fst_errf(err, "--invert: whose callers? give --routine=NAME (a glob, repeatable)");
    return 0;
}

static void *tree_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    topts o;
    if (options(fc, &o, err) < 0)
        return NULL;
    return fst_format_folded.init(fc, p, err);
}

static size_t add(tree *t, fst_map *idx, size_t parent, size_t routine)
{
    uint64_t *at = fst_map_put(idx, (uint64_t)parent << 32 ^ (uint64_t)routine, UINT64_MAX);
    if (*at != UINT64_MAX)
        return (size_t)*at;
    *at = t->nn;
    if (t->nn == t->cap) {
        t->cap = 2 * t->cap + 16;
        t->n = fst_xrealloc(t->n, t->cap * sizeof *t->n);
    }
    t->n[t->nn] = (tnode){ parent, routine, 0, 0, 0, 0, 0, 0, 0 };
    return t->nn++;
}

/* The first routine with r's name: the roots --routine merges (one name in two address
** spaces is one root). */
static size_t canon(const fst_profile *p, size_t r)
{
    for (size_t i = 0; i < r; i++)
        if (!strcmp(p->r[i].name, p->r[r].name))
            return i;
    return r;
}

/* The tree from folded's nodes: all of them below a virtual top (node 0), or with
** --routine only the outermost contexts of the routines it names and what is below them,
** each routine's merged under one root. Folded's parents come before their children, so
** one pass in index order maps them. */
static int build(tree *t, const fst_stacknode *s, size_t ns, const fst_profile *p, const fst_filter *root,
                 fst_err *err)
{
    t->n = fst_xcalloc(t->cap = ns + 2, sizeof *t->n);
    size_t *map = fst_xcalloc(ns + 1, sizeof *map);
    fst_map idx = { 0 };
    t->n[0] = (tnode){ FST_NONE, FST_NONE, 0, 0, 0, 0, 0, 0, 0 };
    t->nn = 1;
    map[0] = root ? FST_NONE : 0;
    int found = 0;
    for (size_t i = 1; i < ns; i++) {
        size_t up = map[s[i].parent];
        if (root && up == FST_NONE && fst_filter_keeps(root, p->r[s[i].routine].name))
            up = 0;                 /* an outermost context of a root: merged into it */
        else if (up == FST_NONE) {
            map[i] = FST_NONE;
            continue;
        }
        size_t k = add(t, &idx, up, root && up == 0 ? canon(p, s[i].routine) : s[i].routine);
        found |= root && up == 0;
        t->n[k].insns += s[i].insns;
        t->n[k].cost += s[i].cost;
        t->n[k].calls += s[i].calls;
        map[i] = k;
    }
    fst_map_free(&idx);
    free(map);
    if (root && !found) {
        free(t->n);
        t->n = NULL;
        return fst_errf(err, "--routine=%s: no timed routine of that name ran", root->pat[0]);
    }
    for (size_t i = t->nn; i-- > 1;) {   /* inclusive: children after parents */
        t->n[i].incl_insns += t->n[i].insns;
        t->n[i].incl_cost += t->n[i].cost;
        t->n[t->n[i].parent].incl_insns += t->n[i].incl_insns;
        t->n[t->n[i].parent].incl_cost += t->n[i].incl_cost;
    }
    return 0;
}


/* Whether stack node i is the outermost of its routine's name on its stack. */
static int outermost(const fst_stacknode *s, const fst_profile *p, size_t i)
{
    for (size_t j = s[i].parent; j && j != FST_NONE; j = s[j].parent)
        if (!strcmp(p->r[s[j].routine].name, p->r[s[i].routine].name))
            return 0;
    return 1;
}

/* One context of a root routine added to an inverted node: the root's figures there. */
static void charge(tnode *n, const fst_stacknode *c, uint64_t incl_insns, fst_fx incl_cost)
{
    n->insns += c->insns;
    n->cost += c->cost;
    n->calls += c->calls;
    n->incl_insns += incl_insns;
    n->incl_cost += incl_cost;
}

/* --invert: the tree of callers (gprof's parents, perf report --no-children's caller graph):
** one root per routine --routine names (its outermost contexts merged), below it the
** routines that called it, below each of those the routines that called that one, up to
** the mainline. Every node holds the root routine's own figures over the contexts it
** stands for (inclusive, self, calls), so a root's children add up to it. */
static int build_inverted(tree *t, const fst_stacknode *s, size_t ns, const fst_profile *p, const fst_filter *root,
                          fst_err *err)
{
    uint64_t *ii = fst_xcalloc(ns + 1, sizeof *ii);   /* every stack's inclusive figures */
    fst_fx *ic = fst_xcalloc(ns + 1, sizeof *ic);
    for (size_t i = ns; i-- > 1;) {
        ii[i] += s[i].insns;
        ic[i] += s[i].cost;
        ii[s[i].parent] += ii[i];
        ic[s[i].parent] += ic[i];
    }
    t->n = fst_xcalloc(t->cap = ns + 2, sizeof *t->n);
    t->n[0] = (tnode){ FST_NONE, FST_NONE, 0, 0, 0, 0, 0, 0, 0 };
    t->nn = 1;
    fst_map idx = { 0 };
    for (size_t i = 1; i < ns; i++) {
        if (!fst_filter_keeps(root, p->r[s[i].routine].name) || !outermost(s, p, i))
            continue;
        size_t k = add(t, &idx, 0, canon(p, s[i].routine));
        charge(&t->n[k], &s[i], ii[i], ic[i]);
        charge(&t->n[0], &s[i], ii[i], ic[i]);
        for (size_t j = s[i].parent; j; j = s[j].parent) {
            k = add(t, &idx, k, s[j].routine);
            charge(&t->n[k], &s[i], ii[i], ic[i]);
        }
    }
    fst_map_free(&idx);
    free(ii);
    free(ic);
    if (t->nn == 1) {
        free(t->n);
        t->n = NULL;
        return fst_errf(err, "--routine=%s: no timed routine of that name ran", root->pat[0]);
    }
    return 0;
}

static const tree *sort_t;
static const fst_profile *sort_p;
static int sort_insns;
static int by_weight(const void *a, const void *b)
{
    const tnode *x = &sort_t->n[*(const size_t *)a], *y = &sort_t->n[*(const size_t *)b];
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    uint64_t wx = sort_insns ? x->incl_insns : x->incl_cost, wy = sort_insns ? y->incl_insns : y->incl_cost;
    if (wx != wy)
        return wx > wy ? -1 : 1;
    int c = strcmp(sort_p->r[x->routine].name, sort_p->r[y->routine].name);
    if (c)
        return c;
    return x->routine != y->routine ? (x->routine < y->routine ? -1 : 1) : 0;
}

static void children(tree *t, const fst_profile *p, int insns)
{
    size_t m = t->nn - 1;
    t->kids = fst_xcalloc(m + 1, sizeof *t->kids);
    for (size_t i = 0; i < m; i++)
        t->kids[i] = i + 1;
    sort_t = t;
    sort_p = p;
    sort_insns = insns;
    qsort(t->kids, m, sizeof *t->kids, by_weight);
    for (size_t i = 0; i < m; i++) {
        tnode *up = &t->n[t->n[t->kids[i]].parent];
        if (!up->nkids)
            up->first = i;
        up->nkids++;
    }
}

/* tenths of a per cent, rounded half up, in integers */
static uint64_t tenths(uint64_t part, uint64_t whole)
{
    return whole ? (uint64_t)(((__uint128_t)part * 1000 + whole / 2) / whole) : 0;
}

static void figure(char *buf, size_t cap, int insns, uint64_t n, fst_fx x)
{
    if (insns)
        snprintf(buf, cap, "%llu", (unsigned long long)n);
    else
        fst_fmt_sec9(x, buf);
}

/* --top=N: the N heaviest contexts by inclusive figure. A parent weighs at least what its
** child does and comes first at a tie (parents have lower indices), so the set holds every
** ancestor of what it holds: a tree. NULL when every context is shown. */
static const tree *top_t;
static int top_insns;
static int by_incl(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    uint64_t wi = top_insns ? top_t->n[i].incl_insns : top_t->n[i].incl_cost;
    uint64_t wj = top_insns ? top_t->n[j].incl_insns : top_t->n[j].incl_cost;
    return wi != wj ? (wi > wj ? -1 : 1) : (i > j) - (i < j);
}

static unsigned char *top_set(const tree *t, int insns, uint64_t top)
{
    if (!top || top >= t->nn - 1)
        return NULL;
    size_t *ix = fst_xcalloc(t->nn, sizeof *ix);
    unsigned char *in = fst_xcalloc(t->nn, 1);
    for (size_t i = 1; i < t->nn; i++)
        ix[i - 1] = i;
    top_t = t;
    top_insns = insns;
    qsort(ix, t->nn - 1, sizeof *ix, by_incl);
    for (size_t k = 0; k < top; k++)
        in[ix[k]] = 1;
    free(ix);
    return in;
}

typedef struct frame {
    size_t node, next, depth;   /* next: the index in its kids still to print */
} frame;

static int print(FILE *out, const tree *t, const fst_profile *p, const topts *o, const unsigned char *shown,
                 uint64_t *hidden)
{
    uint64_t whole = o->insns ? t->n[0].incl_insns : t->n[0].incl_cost;
    size_t cap = 64, nst = 0;
    frame *st = fst_xmalloc(cap * sizeof *st);
    char *lead = fst_xmalloc(3 * cap + 1), in[32], self[32], nm[sizeof p->r[0].name];
    st[nst++] = (frame){ 0, 0, 0 };
    int rc = 0;
    while (nst && !rc) {
        frame *f = &st[nst - 1];
        const tnode *up = &t->n[f->node];
        if (f->next == up->nkids) {
            nst--;
            continue;
        }
        size_t k = t->kids[up->first + f->next++];
        const tnode *n = &t->n[k];
        int last = f->next == up->nkids;
        size_t depth = f->depth + 1;
        uint64_t share = tenths(o->insns ? n->incl_insns : n->incl_cost, whole);
        if (share < o->limit_tenths || (o->depth && depth > o->depth) || (shown && !shown[k])) {
            (*hidden)++;
            continue;
        }
        figure(in, sizeof in, o->insns, n->incl_insns, n->incl_cost);
        figure(self, sizeof self, o->insns, n->insns, n->cost);
        const fst_routine *r = &p->r[n->routine];
        /* the lead: "|  " or "   " per level above, then "+- " or "`- " (a root has none) */
        size_t ll = depth > 1 ? 3 * (depth - 2) : 0;
        if (depth > 1)
            memcpy(lead + ll, last ? "`- " : "+- ", 3), ll += 3;
        lead[ll] = 0;
        rc = fprintf(out, "%14s  %12s  %9llu  %3llu.%llu%%  %s%s%s%s\n", in, self, (unsigned long long)n->calls,
                     (unsigned long long)(share / 10), (unsigned long long)(share % 10), lead,
                     r->mainline && depth == 1 ? "*" : "", fst_printable(r->name, nm, sizeof nm), fst_unc_mark(r)) < 0;
        if (!n->nkids)
            continue;
        if (nst == cap) {
            cap *= 2;
            st = fst_xrealloc(st, cap * sizeof *st);
            lead = fst_xrealloc(lead, 3 * cap + 1);
        }
        if (depth > 1)  /* what the levels below draw in this one's column */
            memcpy(lead + 3 * (depth - 2), last ? "   " : "|  ", 3);
        st[nst++] = (frame){ k, 0, depth };
    }
    free(st);
    free(lead);
    return rc;
}

static int unc_line(void *ctx, int first, const char *text)
{
    return fprintf(ctx, "%s%s\n", first ? "\n" : "", text) < 0;
}

static int tree_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    topts o;
    if (options(fc, &o, err) < 0)
        return -1;
    size_t ns;
    const fst_stacknode *s = fst_folded_nodes(ctx, &ns);
    tree t = { 0 };
    if ((o.invert ? build_inverted(&t, s, ns, p, o.routine, err) : build(&t, s, ns, p, o.routine, err)) < 0)
        return -1;
    children(&t, p, o.insns);
    char whole[32], pats[600] = "";
    for (size_t k = 0, n = 0; o.routine && k < o.routine->npat && n + 80 < sizeof pats; k++)
        n += (size_t)snprintf(pats + n, sizeof pats - n, "%s%.64s", k ? ", " : "", o.routine->pat[k]);
    figure(whole, sizeof whole, o.insns, t.n[0].incl_insns, t.n[0].incl_cost);
    uint64_t hidden = 0;
    unsigned char *shown = top_set(&t, o.insns, o.top);
    int rc = fprintf(out, "%s%s%s: %s %s %s (clock: %s)\n\n", o.invert ? "CALLERS OF " : "CALL TREE",
                     o.routine && !o.invert ? " of " : "", pats, whole, o.insns ? "instructions" : "s",
                     o.invert ? "inclusive, every caller's share of it" : "in the timed routines", p->clock) < 0;
    char win[320];
    if (!rc && fst_fmt_window(p, win, sizeof win)) /* a part of the run (--window) */
        rc = fprintf(out, "%s\n\n", win) < 0;
    if (!rc && fst_unc_any(p, NULL, 0)) /* a guess of which task ran touched these routines (uncertain.h) */
        rc = fprintf(out, "%s\n\n", FST_UNC_HEADING) < 0;
    if (!rc)
        rc = fprintf(out, "%14s  %12s  %9s  %6s  %s\n", o.insns ? "INCL (INSNS)" : "INCL (S)",
                     o.insns ? "SELF (INSNS)" : "SELF (S)", "CALLS", "INCL%", o.invert ? "ROUTINE <- CALLER" : "ROUTINE") < 0;
    if (!rc)
        rc = print(out, &t, p, &o, shown, &hidden);
    if (!rc && hidden) {
        char why[200];
        snprintf(why, sizeof why, "%s%s%s%s%s", o.limit_tenths ? "under --percent-limit" : "",
                 o.limit_tenths && (o.depth || shown) ? " or " : "", o.depth ? "deeper than --depth" : "",
                 o.depth && shown ? " or " : "", shown ? "past --top" : "");
        rc = fprintf(out, "\n%llu %s not shown (%s), nor what %s %s\n", (unsigned long long)hidden,
                     hidden == 1 ? (o.invert ? "caller's context" : "calling context")
                                 : (o.invert ? "callers' contexts" : "calling contexts"),
                     why, hidden == 1 ? "it" : "they", o.invert ? "was called from" : "called") < 0;
    }
    free(shown);
    if (!rc)
        rc = fst_unc_footnote(p, NULL, 0, unc_line, out);
    if (!rc && !p->complete)
        rc = fprintf(out, "\nINCOMPLETE TRACE: %.120s\n", p->incomplete) < 0;
    free(t.n);
    free(t.kids);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static void tree_event(void *ctx, const fst_event *e) { fst_format_folded.event(ctx, e); }
static void tree_done(void *ctx) { fst_format_folded.done(ctx); }

static const fst_option tree_opts[] = {
    { 0, "depth", "N", "leave out the calling contexts deeper than N (a root is at depth 1)", 0 },
    { 0, "unit", "U", "ns (seconds, the default) or instructions", 0 },
    { 0, "invert", NULL, "the tree of callers of the --routine routines: who called them, and who called those", 0 },
    { 0 },
};

const fst_format fst_format_tree = {
    "tree", "a call tree: each calling context's inclusive and self time, calls and share", 0,
    tree_opts, tree_init, tree_event, tree_write, tree_done, FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE,
};
