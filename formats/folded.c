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
** (outside) and (excluded) rows). In time units the lines are rounded so that their sum is
** exactly that total rounded (each line = round(running sum) - round(previous sum)).
** Lines are sorted by stack text (byte order), so the file is reproducible.
**
** The aggregate is a sink of the event stream: a tree of stacks (a trie keyed by parent
** node and routine) whose nodes hold the self instructions and cost of their stack.
** Ownership: the context (init) is freed by done. Errors: --unit's value (init); writing.
*/
#include "formats/format.h"
#include "formats/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
    size_t parent, routine;    /* root: parent = routine = FST_NONE */
    uint64_t insns;
    fst_fx cost;
} node;

typedef struct folded {
    fst_tunit unit;
    node *n;
    size_t nn, capn;
    size_t *hash;               /* open addressing: node index + 1, 0 = empty */
    size_t caph;
    size_t cur;                 /* the node of the current stack, FST_NONE = unknown */
    uint32_t cur_task;          /* whose stack it is */
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
    f->n[f->nn] = (node){ parent, routine, 0, 0 };
    f->hash[s] = f->nn + 1;
    return f->nn++;
}

/* The node of the timed routines of the event's stack; the charged routine on top. */
static size_t stack_node(folded *f, const fst_event *e)
{
    const fst_profile *p = e->profile;
    size_t at = 0, top = FST_NONE;
    for (size_t i = 0; i < e->depth; i++)
        if (e->stack[i] < p->nr && p->r[e->stack[i]].timed) {
            at = child(f, at, e->stack[i]);
            top = e->stack[i];
        }
    if (top != e->routine) /* defensive: the charged routine is the top timed one */
        at = child(f, at, e->routine);
    return at;
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
    f->n[0] = (node){ FST_NONE, FST_NONE, 0, 0 };
    f->nn = 1;
    f->cur = FST_NONE;
    return f;
}

static void folded_event(void *ctx, const fst_event *e)
{
    folded *f = ctx;
    if (e->kind != FST_EV_EXEC) {
        f->cur = FST_NONE;      /* the stack may have changed */
        return;
    }
    if (e->charged != FST_CHARGE_ROUTINE)
        return;
    if (f->cur == FST_NONE || f->cur_task != e->task) { /* tasks interleave: one stack each */
        f->cur = stack_node(f, e);
        f->cur_task = e->task;
    }
    f->n[f->cur].insns++;
    f->n[f->cur].cost += e->cost;
}

/* "A;B;C" of node k into a malloc'd string; ';' and blanks in names become '_', other
** control characters '?' (common/quote.h): one line per stack, ';' only between frames */
static char *path_of(const folded *f, const fst_profile *p, size_t k)
{
    size_t len = 0;
    for (size_t i = k; i; i = f->n[i].parent)
        len += strlen(p->r[f->n[i].routine].name) + 1;
    char *s = fst_xmalloc(len), *end = s + len - 1;  /* k != 0: len >= 1 */
    *end = 0;
    for (size_t i = k; i; i = f->n[i].parent) {
        const char *nm = p->r[f->n[i].routine].name;
        size_t l = strlen(nm);
        end -= l;
        for (size_t j = 0; j < l; j++)
            end[j] = (nm[j] == ';' || nm[j] == ' ' || nm[j] == '\t' || nm[j] == '\n') ? '_'
                   : (unsigned char)nm[j] < 0x20 || nm[j] == 0x7F ? '?' : nm[j];
        if (end > s)
            *--end = ';';
    }
    return s;
}

typedef struct line {
    char *text;
    size_t node;
} line;

static int by_text(const void *a, const void *b)
{
    return strcmp(((const line *)a)->text, ((const line *)b)->text);
}

static int folded_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    folded *f = ctx;
    line *l = fst_xcalloc(f->nn, sizeof *l);
    size_t nl = 0;
    for (size_t k = 1; k < f->nn; k++)
        if (f->n[k].insns)
            l[nl++] = (line){ path_of(f, p, k), k };
    qsort(l, nl, sizeof *l, by_text);
    fst_rounder r = { f->unit, 0, 0 };
    int rc = 0;
    for (size_t i = 0; i < nl; i++) {
        const node *k = &f->n[l[i].node];
        if (!rc && fprintf(out, "%s %llu\n", l[i].text, (unsigned long long)fst_rounder_next(&r, k->cost, k->insns)) < 0)
            rc = -1;
        free(l[i].text);
    }
    free(l);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static void folded_done(void *ctx)
{
    folded *f = ctx;
    if (!f)
        return;
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
    folded_opts, folded_init, folded_event, folded_write, folded_done,
};
