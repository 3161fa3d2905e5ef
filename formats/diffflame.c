/* formats/diffflame.c — the differential flame graph of fst-diff; see diffflame.h. */
#include "formats/diffflame.h"
#include "formats/folded.h"
#include "formats/format.h"
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

extern const fst_format fst_format_folded;

enum { WIDTH = 1200, MARGIN = 10, ROW = 17, BAR = 15, TOP = 40 };

typedef struct dnode {
    char name[64];
    size_t parent, first, next;     /* first child, next sibling: index, 0 = none */
    uint64_t self[2], incl[2];      /* per side: ns or instructions */
    size_t depth;
    long double x;                  /* left edge, in B's unit */
} dnode;

struct fst_dflame {
    int insns;
    void *side[2];                  /* folded.c's aggregates */
    dnode *n;
    size_t nn, cap;
};

fst_dflame *fst_dflame_new(int insns)
{
    fst_dflame *f = fst_xcalloc(1, sizeof *f);
    fst_fctx fc = { 0 };
    fst_err err;
    f->insns = insns;
    for (int s = 0; s < 2; s++)
        f->side[s] = fst_format_folded.init(&fc, NULL, &err);   /* no options: it cannot fail */
    f->cap = 64;
    f->n = fst_xcalloc(f->cap, sizeof *f->n);
    f->nn = 1;          /* node 0: the root, "all" */
    snprintf(f->n[0].name, sizeof f->n[0].name, "all");
    return f;
}

void fst_dflame_sink(fst_dflame *f, int side, fst_sink *out)
{
    *out = (fst_sink){ fst_format_folded.event, f->side[side], FST_WANT_ALL };
}

/* The child of `parent` named `name`, made when there is none (siblings kept in name order). */
static size_t child(fst_dflame *f, size_t parent, const char *name)
{
    if (f->nn == f->cap) {  /* first: the links below point into the array */
        f->cap *= 2;
        f->n = fst_xrealloc(f->n, f->cap * sizeof *f->n);
    }
    size_t *link = &f->n[parent].first;
    for (; *link; link = &f->n[*link].next) {
        int c = strcmp(f->n[*link].name, name);
        if (!c)
            return *link;
        if (c > 0)
            break;
    }
    dnode *d = &f->n[f->nn];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->parent = parent;
    d->depth = f->n[parent].depth + 1;
    d->next = *link;
    *link = f->nn;
    return f->nn++;
}

void fst_dflame_take(fst_dflame *f, int side, const fst_profile *p)
{
    size_t ns;
    const fst_stacknode *s = fst_folded_nodes(f->side[side], &ns);
    size_t *map = fst_xcalloc(ns + 1, sizeof *map);  /* folded node -> merged node */
    for (size_t k = 1; k < ns; k++) {               /* parents before children */
        map[k] = child(f, map[s[k].parent], p->r[s[k].routine].name);
        f->n[map[k]].self[side] += f->insns ? s[k].insns : fst_fx_to_ns(s[k].cost);
    }
    free(map);
}

/* Inclusive figures (children after parents: backwards) and B's left edges (siblings in
** name order: the order of the sibling lists). Returns the deepest depth. */
static size_t layout(const fst_dflame *c)
{
    dnode *n = c->n;
    size_t deepest = 0;
    for (size_t k = 0; k < c->nn; k++)
        n[k].incl[0] = n[k].self[0], n[k].incl[1] = n[k].self[1];
    for (size_t k = c->nn; k-- > 1;)
        for (int s = 0; s < 2; s++)
            n[n[k].parent].incl[s] += n[k].incl[s];
    n[0].x = 0;
    for (size_t k = 0; k < c->nn; k++) {    /* a parent's edge is set before its children's */
        long double x = n[k].x;
        for (size_t j = n[k].first; j; j = n[j].next) {
            n[j].x = x;
            x += (long double)n[j].incl[1];
        }
        deepest = n[k].depth > deepest ? n[k].depth : deepest;
    }
    return deepest;
}

/* The change of b against a in tenths of a per cent, clipped to +-1000 (a new stack: +1000). */
static long long change(uint64_t a, uint64_t b)
{
    if (!a)
        return b ? 1000 : 0;
    long long t = (long long)(((__int128)b - (__int128)a) * 1000 / (__int128)a);
    return t > 1000 ? 1000 : t < -1000 ? -1000 : t;
}

/* red for growth, blue for shrinkage, a light grey for none: the stronger the larger the
** change (lo: the other two channels, 215 for the least change down to 40 for +-100 %) */
static void colour(long long ch, char buf[8])
{
    unsigned k = (unsigned)(ch < 0 ? -ch : ch), lo = 215 - k * 175 / 1000;
    if (ch > 0)
        snprintf(buf, 8, "#FF%02X%02X", lo, lo);
    else if (ch < 0)
        snprintf(buf, 8, "#%02X%02XFF", lo, lo);
    else
        snprintf(buf, 8, "#F2F2F2");
}

static int frame(FILE *out, const fst_dflame *c, size_t k, long double scale, size_t height)
{
    const dnode *d = &c->n[k];
    const char *u = c->insns ? "instructions" : "ns";
    long double x = MARGIN + d->x * scale, w = scale * (long double)d->incl[1];
    long double y = (long double)height - MARGIN - (long double)(d->depth + 1) * ROW;
    long long ch = change(d->incl[0], d->incl[1]);
    char col[8];
    colour(ch, col);
    int rc = fputs("<g><title>", out) < 0 || fst_put_xml(out, d->name, 64);
    rc |= fprintf(out, ": A %llu %s (self %llu), B %llu %s (self %llu), %s%lld.%lld%%%s</title>",
                  (unsigned long long)d->incl[0], u, (unsigned long long)d->self[0], (unsigned long long)d->incl[1], u,
                  (unsigned long long)d->self[1], ch < 0 ? "-" : "+", (ch < 0 ? -ch : ch) / 10, (ch < 0 ? -ch : ch) % 10,
                  !d->incl[0] ? " (new in B)" : ch == 1000 || ch == -1000 ? " or more" : "") < 0;
    rc |= fprintf(out, "<rect x=\"%.3Lf\" y=\"%.1Lf\" width=\"%.3Lf\" height=\"%d\" fill=\"%s\" stroke=\"#999999\" "
                       "stroke-width=\"0.5\" rx=\"2\"/>", x, y, w, BAR, col) < 0;
    size_t fit = w > 14 ? (size_t)((w - 6) / 7.2L) : 0;    /* 12px monospace: 7.2px a character */
    if (fit >= 2) {
        size_t len = strlen(d->name);
        rc |= fprintf(out, "<text x=\"%.3Lf\" y=\"%.1Lf\">", x + 3, y + 11.5L) < 0;
        rc |= fst_put_xml(out, d->name, len <= fit ? len : fit - 2);
        rc |= fputs(len <= fit ? "</text>" : "..</text>", out) < 0;
    }
    return rc | (fputs("</g>\n", out) < 0);
}

int fst_dflame_write_svg(const fst_dflame *f, FILE *out, const char *a, const char *b)
{
    size_t deepest = layout(f), gone = 0;
    for (size_t k = 1; k < f->nn; k++)
        gone += !f->n[k].incl[1] && f->n[k].incl[0] && (f->n[k].parent == 0 || f->n[f->n[k].parent].incl[1]);
    size_t height = TOP + 14 + (deepest + 1) * ROW + 2 * MARGIN;
    long double whole = (long double)f->n[0].incl[1];
    long double scale = whole > 0 ? (WIDTH - 2 * MARGIN) / whole : 0;
    int rc = fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%zu\" "
                          "viewBox=\"0 0 %d %zu\" font-family=\"monospace\" font-size=\"12\">\n"
                          "<rect width=\"100%%\" height=\"100%%\" fill=\"#FFFFFF\"/>\n"
                          "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">Differential flame graph: ",
                     WIDTH, height, WIDTH, height, WIDTH / 2) < 0;
    rc |= fst_put_xml(out, b, 120);
    rc |= fputs(" against ", out) < 0;
    rc |= fst_put_xml(out, a, 120);
    rc |= fprintf(out, "</text>\n<text x=\"%d\" y=\"42\" text-anchor=\"middle\">widths: B; red: grew against A, blue: "
                       "shrank; %zu stack%s of A only not drawn</text>\n", WIDTH / 2, gone, gone == 1 ? "" : "s") < 0;
    for (size_t k = 0; k < f->nn && !rc; k++)
        if (f->n[k].incl[1])
            rc |= frame(out, f, k, scale, height);
    rc |= fputs("</svg>\n", out) < 0;
    return rc ? -1 : 0;
}

int fst_dflame_write_folded(const fst_dflame *f, FILE *out)
{
    /* depth first, siblings in name order: the lines in the order of their stack text */
    size_t *path = fst_xcalloc(f->nn + 1, sizeof *path), depth = 0, k = f->n[0].first;
    int rc = 0;
    while (k && !rc) {
        path[depth] = k;
        const dnode *d = &f->n[k];
        if (d->self[0] || d->self[1]) {
            for (size_t i = 0; i <= depth && !rc; i++)
                rc = fprintf(out, "%s%s", i ? ";" : "", f->n[path[i]].name) < 0;
            rc |= fprintf(out, " %llu %llu\n", (unsigned long long)d->self[0], (unsigned long long)d->self[1]) < 0;
        }
        if (d->first) {
            depth++;
            k = d->first;
            continue;
        }
        while (k && !f->n[k].next)  /* up to the nearest stack with a next sibling */
            k = depth ? path[--depth] : 0;
        k = k ? f->n[k].next : 0;
    }
    free(path);
    return rc ? -1 : 0;
}

void fst_dflame_free(fst_dflame *f)
{
    if (!f)
        return;
    for (int s = 0; s < 2; s++)
        fst_format_folded.done(f->side[s]);
    free(f->n);
    free(f);
}
