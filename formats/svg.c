/*
** formats/svg.c — a flame graph drawn by fst itself (--format=svg): one self-contained SVG
** file, no script, no font or style sheet to fetch; any browser shows it.
**
** The stacks are folded.c's (formats/folded.h): timed routines outermost first, untimed
** ones transparent. A frame's width is its stack's inclusive time, from the exact fx sums
** (instructions when the clock gave no time), so every frame is drawn to scale against
** the whole run: the bottom bar "all" is the timed routines' self time added up (csv's
** self column without (outside) and (excluded)). Siblings are in name order, as
** flamegraph.pl draws them. Each frame's tooltip (<title>) gives the routine, its calls
** with this stack, its instructions (inclusive and self), its seconds and share; its label
** is the name, cut to fit the frame.
** Ownership: the context is folded's (init/done). Errors: writing.
*/
#include "formats/format.h"
#include "formats/folded.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

enum { WIDTH = 1200, MARGIN = 10, ROW = 17, BAR = 15, TOP = 40 };

extern const fst_format fst_format_folded;

static void *svg_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    return fst_format_folded.init(fc, p, err);
}

/* a warm colour from the name, the same in every graph */
static void colour(const char *name, char buf[8])
{
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    snprintf(buf, 8, "#%02X%02X%02X", 205 + h % 50, (h >> 8) % 180 + 40, (h >> 16) % 55);
}

typedef struct lay {
    uint64_t insns;         /* inclusive */
    fst_fx cost;
    long double x;          /* left edge, in the unit of the widths */
    size_t depth;
} lay;

static const fst_stacknode *sort_nodes;
static const fst_profile *sort_prof;
static int by_parent_name(const void *a, const void *b)
{
    const fst_stacknode *x = &sort_nodes[*(const size_t *)a], *y = &sort_nodes[*(const size_t *)b];
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    int c = strcmp(sort_prof->r[x->routine].name, sort_prof->r[y->routine].name);
    return c ? c : *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Inclusive sums (children after parents: walk backwards), then depths and left edges
** (siblings in name order, each group after its parent's). Returns the deepest depth. */
static size_t layout(const fst_stacknode *n, size_t nn, const fst_profile *p, lay *l, int by_time)
{
    for (size_t k = 0; k < nn; k++)
        l[k] = (lay){ n[k].insns, n[k].cost, 0, 0 };
    for (size_t k = nn; k-- > 1;) {
        l[n[k].parent].insns += l[k].insns;
        l[n[k].parent].cost += l[k].cost;
    }
    size_t *ord = fst_xmalloc(nn * sizeof *ord), m = 0, deepest = 0;
    for (size_t k = 1; k < nn; k++)
        ord[m++] = k;
    sort_nodes = n;
    sort_prof = p;
    if (m)
        qsort(ord, m, sizeof *ord, by_parent_name);
    long double *next = fst_xcalloc(nn, sizeof *next);   /* per parent: where its next child goes */
    for (size_t i = 0; i < m; i++) {
        size_t k = ord[i], par = n[k].parent;
        if (i == 0 || n[ord[i - 1]].parent != par)
            next[par] = l[par].x;
        l[k].x = next[par];
        next[par] += by_time ? (long double)l[k].cost : (long double)l[k].insns;
        l[k].depth = l[par].depth + 1;
        if (l[k].depth > deepest)
            deepest = l[k].depth;
    }
    free(next);
    free(ord);
    return deepest;
}

static int frame(FILE *out, const char *name, const lay *l, const fst_stacknode *nd, long double scale, size_t height,
                 fst_fx total)
{
    long double unit = scale;
    long double x = MARGIN + l->x * unit, w = unit * (long double)(total ? l->cost : l->insns);
    long double y = (long double)height - MARGIN - (long double)(l->depth + 1) * ROW;
    char c[8], sec[32];
    colour(name, c);
    fst_fmt_sec9(l->cost, sec);
    int rc = fputs("<g><title>", out) < 0 || fst_put_xml(out, name, 64);
    if (nd && nd->calls)
        rc |= fprintf(out, ": calls %llu,", (unsigned long long)nd->calls) < 0;
    else
        rc |= fputs(":", out) < 0;
    rc |= fprintf(out, " instructions %llu (self %llu), %s s (%.2Lf%%)</title>", (unsigned long long)l->insns,
                  (unsigned long long)(nd ? nd->insns : 0), sec,
                  total ? 100.0L * l->cost / total : 0.0L) < 0;
    rc |= fprintf(out, "<rect x=\"%.3Lf\" y=\"%.1Lf\" width=\"%.3Lf\" height=\"%d\" fill=\"%s\" rx=\"2\"/>", x, y, w, BAR,
                  c) < 0;
    size_t fit = w > 14 ? (size_t)((w - 6) / 7.2L) : 0;    /* 12px monospace: 7.2px a character */
    if (fit >= 2) {
        size_t len = strlen(name);
        rc |= fprintf(out, "<text x=\"%.3Lf\" y=\"%.1Lf\">", x + 3, y + 11.5L) < 0;
        rc |= fst_put_xml(out, name, len <= fit ? len : fit - 2);
        rc |= fputs(len <= fit ? "</text>" : "..</text>", out) < 0;
    }
    return rc | (fputs("</g>\n", out) < 0);
}

static int svg_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    size_t nn;
    fst_stacknode *through = fst_folded_through(ctx, p, fc->filter, &nn);  /* --routine */
    const fst_stacknode *n = through ? through : fst_folded_nodes(ctx, &nn);
    lay *l = fst_xmalloc((nn + 1) * sizeof *l);
    int by_time = 1;
    size_t deepest = layout(n, nn, p, l, 1);
    if (!l[0].cost) {   /* no time from the clock: draw instructions */
        by_time = 0;
        layout(n, nn, p, l, 0);
    }
    size_t height = TOP + (deepest + 1) * ROW + 2 * MARGIN;
    long double whole = by_time ? (long double)l[0].cost : (long double)l[0].insns;
    long double scale = whole > 0 ? (WIDTH - 2 * MARGIN) / whole : 0;
    char sec[32];
    fst_fmt_sec9(l[0].cost, sec);
    int rc = fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%zu\" "
                          "viewBox=\"0 0 %d %zu\" font-family=\"monospace\" font-size=\"12\">\n"
                          "<rect width=\"100%%\" height=\"100%%\" fill=\"#FFFFFF\"/>\n"
                          "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">Flame graph: ",
                     WIDTH, height, WIDTH, height, WIDTH / 2) < 0;
    const char *prog = fc->tr ? fst_tr_header(fc->tr, FST_HK_PROGRAM) : NULL;
    const char *base = prog ? strrchr(prog, '/') : NULL;
    rc |= fst_put_xml(out, base ? base + 1 : prog ? prog : fc->trace_path ? fc->trace_path : "trace", 80);
    rc |= fprintf(out, " \xE2\x80\x94 %llu instructions, %s s (", (unsigned long long)l[0].insns, sec) < 0;
    rc |= fst_put_xml(out, p->clock, 80);
    rc |= fputs(p->window ? "; " : "", out) < 0;
    if (p->window) { /* a part of the run (--window) */
        rc |= fputs("window ", out) < 0;
        rc |= fst_put_xml(out, p->win_spec, 80);
    }
    rc |= fputs(")</text>\n", out) < 0;
    rc |= frame(out, "all", &l[0], NULL, scale, height, by_time ? l[0].cost : 0);
    for (size_t k = 1; k < nn && !rc; k++)
        if (l[k].insns)
            rc |= frame(out, p->r[n[k].routine].name, &l[k], &n[k], scale, height, by_time ? l[0].cost : 0);
    rc |= fputs("</svg>\n", out) < 0;
    free(l);
    free(through);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static void svg_event(void *ctx, const fst_event *e) { fst_format_folded.event(ctx, e); }
static void svg_done(void *ctx) { fst_format_folded.done(ctx); }

const fst_format fst_format_svg = {
    "svg", "flame graph as a self-contained SVG: widths from exact time, tooltips with calls, instructions, seconds", 0,
    NULL, svg_init, svg_event, svg_write, svg_done, FST_FILTER_ROUTINE,
    1,  /* flat: its own aggregate (the stacks, from the events) */
};
