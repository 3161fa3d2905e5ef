/* formats/annotate.c — the annotated assembler listing; see annotate.h. */
#include "formats/annotate.h"
#include "formats/formats.h"
#include "formats/stmtprof.h"
#include "analyze/profile/sampled.h"
#include "model/progmodel.h"
#include "common/bytes.h"
#include "common/map.h"
#include "common/quote.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef struct cell {       /* one address as executed for one routine */
    size_t fn;
    uint64_t addr, insns, taken, nottaken, unknown, line;
    fst_fx cost;
    uint32_t state;         /* the PSW state it ran in (a sampled listing decodes with it) */
    fst_insn d;             /* the instruction as first executed there */
} cell;

struct fst_annot {
    cell *c;
    size_t n, cap;
    fst_map *byfn;          /* per routine: address -> index in c */
    size_t nfn;
};

fst_annot *fst_annot_new(void) { return fst_xcalloc(1, sizeof(fst_annot)); }

void fst_annot_event(void *ctx, const fst_event *e)
{
    fst_annot *a = ctx;
    if (e->kind != FST_EV_EXEC || e->charged != FST_CHARGE_ROUTINE || e->routine == FST_NONE)
        return;
    size_t fn = e->routine;
    if (fn >= a->nfn) {
        a->byfn = fst_xrealloc(a->byfn, (fn + 1) * sizeof *a->byfn);
        memset(a->byfn + a->nfn, 0, (fn + 1 - a->nfn) * sizeof *a->byfn);
        a->nfn = fn + 1;
    }
    uint64_t *v = fst_map_put(&a->byfn[fn], e->insn->addr, UINT64_MAX);
    if (*v == UINT64_MAX) {
        if (a->n == a->cap) {
            a->cap = a->cap ? 2 * a->cap : 256;
            a->c = fst_xrealloc(a->c, a->cap * sizeof *a->c);
        }
        a->c[a->n] = (cell){ .fn = fn, .addr = e->insn->addr, .d = *e->insn, .state = e->state };
        *v = a->n++;
    }
    cell *c = &a->c[*v];
    c->insns++;
    c->cost += e->cost;
    if (e->taken == FST_TAKEN_UNKNOWN)
        c->unknown++;
    else if (e->taken)
        c->taken++;
    else
        c->nottaken++;
}

static cell *cell_of(const fst_annot *a, size_t fn, uint64_t addr)
{
    if (fn >= a->nfn)
        return NULL;
    uint64_t *v = fst_map_get(&a->byfn[fn], addr);
    return v ? &a->c[*v] : NULL;
}

uint64_t fst_annot_line(const fst_annot *a, size_t fn, uint64_t addr)
{
    cell *c = cell_of(a, fn, addr);
    return c ? c->line : 0;
}

void fst_annot_free(fst_annot *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nfn; i++)
        fst_map_free(&a->byfn[i]);
    free(a->byfn);
    free(a->c);
    free(a);
}

/* ---- writing ---- */

enum { MAX_DATA_LINES = 64 };   /* per run of data: a save-area stack is not the point */

typedef struct wr {
    FILE *out;
    uint64_t line;          /* lines written so far */
    int rc, color;
    int sampled;            /* samples, not executions (analyze/profile/sampled.h) */
    uint32_t state;         /* sampled: the PSW state of the routine being listed */
    const fst_image_seg *segs;
    size_t nseg;
    const fst_annot *a;
    const uint64_t *xs;     /* every executed address (any routine), sorted, unique */
    size_t nxs;
    const cell *const *by;  /* for each xs: one cell there (its instruction text) */
    const fst_fctx *fc;     /* --source: fc->lines and fc->lrows */
    size_t fn;              /* the routine being listed */
    size_t group;           /* --source: the statement group of the last line, SIZE_MAX - 1: none yet */
    fst_map rowof;          /* --source: the routine's rows by group (+1: FST_SP_NOSTMT is 0) */
} wr;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void emit(wr *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    w->rc |= vfprintf(w->out, fmt, ap) < 0;
    va_end(ap);
    w->rc |= fputc('\n', w->out) == EOF;
    w->line++;
}

static void hex(char *buf, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(buf + 2 * i, "%02X", b[i]);
    buf[2 * n] = 0;
}

/* "27.3%" of whole, for printing only */
static void share(char *buf, fst_fx part, fst_fx whole, uint64_t ipart, uint64_t iwhole)
{
    long double s = whole ? (long double)part / whole : iwhole ? (long double)ipart / iwhole : 0;
    snprintf(buf, 16, "%5.1Lf%%", 100 * s);
}

static const char *mark_of(int rank) { return rank == 1 ? ">>" : rank ? "> " : "  "; }
static const char *color_of(const wr *w, int rank)
{
    return !w->color || !rank ? "" : rank == 1 ? "\033[1;31m" : "\033[33m";
}

/* One instruction line: mark, address, offset, text, and R's figures there (c may be NULL:
** executed only for other routines). */
static void put_insn(wr *w, const fst_insn *d, const cell *c, const fst_routine *r, int rank, int in_range)
{
    char dis[64], hx[16], sec[32] = "", sh[16] = "", br[96] = "", off[16] = "";
    fst_disasm(d, dis, sizeof dis);
    char *ops = strchr(dis, ' ');
    if (ops)
        *ops++ = 0;
    hex(hx, d->bytes, d->len);
    if (in_range)
        snprintf(off, sizeof off, "+%05llX", (unsigned long long)(d->addr - r->entry));
    if (c) {
        fst_fmt_sec9(c->cost, sec);
        share(sh, c->cost, r->self_cost, c->insns, r->self_insns);
        if ((d->flags & FST_I_BRANCH) && (d->flags & FST_I_CANBRANCH)) {
            int n = snprintf(br, sizeof br, "taken %llu, not taken %llu", (unsigned long long)c->taken,
                             (unsigned long long)c->nottaken);
            if (c->unknown)
                snprintf(br + n, sizeof br - (size_t)n, ", unknown %llu", (unsigned long long)c->unknown);
        }
    }
    char execs[24] = "-";
    if (c)
        snprintf(execs, sizeof execs, "%llu", (unsigned long long)c->insns);
    if (w->sampled) {   /* a sample's time is the host's, and nothing says where a branch went */
        if (c)
            share(sh, 0, 0, c->insns, r->self_insns);
        emit(w, "%s%s%08llX %6s  %-14s  %-6s %-24s %12s %6s%s", color_of(w, rank), mark_of(rank),
             (unsigned long long)d->addr, off, hx, dis, ops ? ops : "", execs, sh, w->color && rank ? "\033[0m" : "");
        return;
    }
    emit(w, "%s%s%08llX %6s  %-14s  %-6s %-24s %12s %13s %6s  %s%s", color_of(w, rank), mark_of(rank),
         (unsigned long long)d->addr, off, hx, dis, ops ? ops : "", execs, sec, sh, br, w->color && rank ? "\033[0m" : "");
}

/* The FORTRAN identifier after a 47F0F00C entry (analyze: model/progmodel.h), as data. */
static uint64_t put_ident(wr *w, const fst_routine *r, uint64_t pos)
{
    uint8_t b[12];
    char name[9];
    if (fst_image_read(w->segs, w->nseg, r->entry, b, sizeof b) < 0)
        return pos;
    int style = fst_ident_at(b, sizeof b, 0, name);
    if (style != FST_ID_FORTG && style != FST_ID_FORTH)
        return pos;
    char hx[16];
    emit(w, "  %08llX +%05llX  %-14.2X  %-6s X'%02X'%-19s %12s   * FORTRAN %c identifier", (unsigned long long)pos,
         (unsigned long long)(pos - r->entry), b[4], "DC", b[4], "", "", style == FST_ID_FORTG ? 'G' : 'H');
    hex(hx, b + 5, 7);
    if (style == FST_ID_FORTG)
        emit(w, "  %08llX +%05llX  %-14s  %-6s CL7'%s'%*s %12s   * the name", (unsigned long long)(pos + 1),
             (unsigned long long)(pos + 1 - r->entry), hx, "DC", name, (int)(18 - strlen(name)), "", "");
    else
        emit(w, "  %08llX +%05llX  %-14s  %-6s XL7'%s' %12s   * the name %s, right-justified", (unsigned long long)(pos + 1),
             (unsigned long long)(pos + 1 - r->entry), hx, "DC", hx, "", name);
    return pos + 8;
}

/* Bytes that never executed, [pos, end), as DC: to a fullword boundary, then fullwords (a
** run of equal ones as one nXL4), then what is left. */
static void put_data(wr *w, const fst_routine *r, uint64_t pos, uint64_t end)
{
    for (int lines = 0; pos < end; lines++) {
        uint64_t left = end - pos;
        if (lines == MAX_DATA_LINES) {
            emit(w, "  %08llX +%05llX  * ... %llu more bytes of data", (unsigned long long)pos,
                 (unsigned long long)(pos - r->entry), (unsigned long long)left);
            return;
        }
        size_t n = pos % 4 ? 4 - pos % 4 : 4;
        if (n > left)
            n = (size_t)left;
        uint8_t b[4], nb[4];
        if (fst_image_read(w->segs, w->nseg, pos, b, n) < 0) {
            emit(w, "  %08llX +%05llX  * %llu bytes not in the trace's storage image", (unsigned long long)pos,
                 (unsigned long long)(pos - r->entry), (unsigned long long)left);
            return;
        }
        uint64_t reps = 1;
        while (n == 4 && pos + 4 * (reps + 1) <= end && !fst_image_read(w->segs, w->nseg, pos + 4 * reps, nb, 4) &&
               !memcmp(b, nb, 4))
            reps++;
        char hx[16], opnd[48];
        hex(hx, b, n);
        if (reps > 1)
            snprintf(opnd, sizeof opnd, "%lluXL4'%s'", (unsigned long long)reps, hx);
        else
            snprintf(opnd, sizeof opnd, "X'%s'", hx);
        uint32_t v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        if (n == 4 && reps == 1 && v && v < 0x01000000u)   /* a count or an address, not text */
            emit(w, "  %08llX +%05llX  %-14s  %-6s %-24s %12s   * F'%lu'", (unsigned long long)pos,
                 (unsigned long long)(pos - r->entry), hx, "DC", opnd, "", (unsigned long)v);
        else
            emit(w, "  %08llX +%05llX  %-14s  %-6s %s", (unsigned long long)pos, (unsigned long long)(pos - r->entry),
                 reps > 1 ? "" : hx, "DC", opnd);
        pos += n * reps;
    }
}

/* Sampled: bytes no sample fell on, [pos, end), are mostly code that ran unseen; decode
** them as instructions while the opcode is known and the text ends by `end` (the next
** sampled instruction). Returns where it stopped: the rest prints as data. */
static uint64_t put_sweep(wr *w, const fst_routine *r, uint64_t pos, uint64_t end)
{
    while (pos < end) {
        uint8_t b[6] = { 0 };
        if (fst_image_read(w->segs, w->nseg, pos, b, 2) < 0)
            return pos;
        size_t len = (size_t)fst_insn_len(b[0]);
        if (pos + len > end || fst_image_read(w->segs, w->nseg, pos, b, len) < 0)
            return pos;
        fst_insn d;
        fst_decode(&d, b, pos, w->state);
        if (d.op == FST_OP_UNKNOWN)
            return pos;
        put_insn(w, &d, NULL, r, 0, 1);
        pos += len;
        if (pos == r->entry + 4 && !memcmp(b, "\x47\xF0\xF0\x0C", 4))
            pos = put_ident(w, r, pos);
    }
    return pos;
}

static size_t first_at_or_after(const wr *w, uint64_t addr)
{
    size_t lo = 0, hi = w->nxs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->xs[mid] < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Where routine i's listing ends: the next routine's entry, the program's extent, the end
** of the image piece holding the entry; without an image, its last executed instruction. */
static uint64_t range_end(const wr *w, const fst_profile *p, size_t i)
{
    uint64_t lo = p->r[i].entry, hi = p->hi > lo ? p->hi : UINT64_MAX;
    for (size_t j = 0; j < p->nr; j++)
        if (p->r[j].entry > lo && p->r[j].entry < hi)
            hi = p->r[j].entry;
    for (size_t s = 0; s < w->nseg; s++)
        if (w->segs[s].addr <= lo && lo - w->segs[s].addr < w->segs[s].len) {
            uint64_t e = w->segs[s].addr + w->segs[s].len;
            return e < hi ? e : hi;
        }
    uint64_t last = lo;
    for (size_t k = first_at_or_after(w, lo); k < w->nxs && w->xs[k] < hi; k++)
        last = w->xs[k] + w->by[k]->d.len;
    return last;
}

/* The three hottest of routine fn's cells (by time, then executions): rank 1-3, else 0. */
static void hottest(const fst_annot *a, size_t fn, int sampled, const cell *top[3])
{
    top[0] = top[1] = top[2] = NULL;
    for (size_t i = 0; i < a->n; i++) {
        const cell *c = &a->c[i];
        if (c->fn != fn || !c->insns)
            continue;
        for (int k = 0; k < 3; k++)
            if (!top[k] || (sampled ? c->insns > top[k]->insns
                                       : c->cost > top[k]->cost || (c->cost == top[k]->cost && c->insns > top[k]->insns))) {
                memmove(top + k + 1, top + k, (size_t)(2 - k) * sizeof *top);
                top[k] = c;
                break;
            }
    }
}

static int rank_of(const cell *c, const cell *top[3])
{
    for (int k = 0; c && k < 3; k++)
        if (top[k] == c)
            return k + 1;
    return 0;
}

static int by_addr(const void *x, const void *y)
{
    const cell *const *a = x, *const *b = y;
    return (*a)->addr < (*b)->addr ? -1 : (*a)->addr > (*b)->addr;
}

static void put_head(wr *w, const fst_profile *p, size_t i)
{
    const fst_routine *r = &p->r[i];
    char nm[sizeof r->name], sec[32], sh[16];
    fst_fmt_sec9(r->self_cost, sec);
    share(sh, r->self_cost, p->total_cost, r->self_insns, p->total_insns);
    if (w->sampled) {
        share(sh, 0, 0, r->self_insns, p->total_insns);
        emit(w, "%s%s%s  entry %08llX%s  sampled: %llu samples (%s of the samples), about %s s of host time%s",
             w->color ? "\033[1m" : "", fst_printable(r->name, nm, sizeof nm), r->mainline ? " (mainline)" : "",
             (unsigned long long)r->entry, r->fortran == FST_ID_FORTG ? "  FORTRAN G" : r->fortran == FST_ID_FORTH ? "  FORTRAN H" : "",
             (unsigned long long)r->self_insns, sh, sec, w->color ? "\033[0m" : "");
        emit(w, "  %-8s %6s  %-14s  %-31s %12s %6s", "ADDRESS", "OFFSET", "HEX", "INSTRUCTION", "SAMPLES", "SHARE");
        return;
    }
    emit(w, "%s%s%s  entry %08llX%s%s  calls %llu  self %llu instructions, %s s (%s of the total)%s",
         w->color ? "\033[1m" : "", fst_printable(r->name, nm, sizeof nm), r->mainline ? " (mainline)" : "",
         (unsigned long long)r->entry, r->fortran == FST_ID_FORTG ? "  FORTRAN G" : r->fortran == FST_ID_FORTH ? "  FORTRAN H" : "",
         r->timed ? "" : "  untimed: its instructions are charged to its caller (--timed=all lists them here)",
         (unsigned long long)r->calls, (unsigned long long)r->self_insns, sec, sh, w->color ? "\033[0m" : "");
    emit(w, "  %-8s %6s  %-14s  %-31s %12s %13s %6s  %s", "ADDRESS", "OFFSET", "HEX", "INSTRUCTION", "EXECUTIONS",
         "TIME (S)", "SHARE", "BRANCH");
}

/* --source: before the first instruction of each statement (and again where its code
** resumes after another's), the statement: where, its text, and its figures in this
** routine (formats/stmtprof.h); statements sharing the code are named together. */
static void put_stmt(wr *w, const fst_profile *p, uint64_t addr)
{
    if (!w->fc || !w->fc->lrows)
        return;
    size_t g = fst_stmtprof_group_of(w->fc->lines, addr);
    if (g == w->group)
        return;
    w->group = g;
    const uint64_t *ri = fst_map_get(&w->rowof, (uint64_t)g + 1);
    const fst_stmtrow *row = ri ? &w->fc->lrows[*ri] : NULL;
    char figs[160] = "", sec[32], sh[16];
    if (row) {
        fst_fmt_sec9(row->cost, sec);
        share(sh, row->cost, p->r[w->fn].self_cost, row->insns, p->r[w->fn].self_insns);
        snprintf(figs, sizeof figs, "  executions %llu, %llu instructions, %s s (%s)", (unsigned long long)row->execs,
                 (unsigned long long)row->insns, sec, sh);
    }
    if (g == FST_SP_NOSTMT) {
        emit(w, "  ---- (no statement: the table has none for this code)%s", figs);
        return;
    }
    const fst_stmt_span *sp = fst_stmt_span_at(w->fc->lines, g);
    for (size_t k = 0; k < sp->n; k++) {
        const fst_stmt *st = fst_stmt_of(w->fc->lines, sp, k);
        const char *base = strrchr(st->file, '/');
        char txt[200];
        fst_printable(st->text ? st->text : "", txt, sizeof txt);
        emit(w, "  ---- %s:%u%s%s%s%s", base ? base + 1 : st->file, (unsigned)st->line,
             sp->n > 1 ? (k ? "  (shares this code)" : "  (shares this code with the next)") : "",
             k + 1 == sp->n ? figs : "", st->text ? ":  " : "", txt);
    }
}

/* Routine i: its range, then what is charged to it elsewhere, then its total. */
static void put_routine(wr *w, const fst_profile *p, size_t i)
{
    const fst_routine *r = &p->r[i];
    const cell *top[3];
    hottest(w->a, i, w->sampled, top);
    w->state = top[0] ? top[0]->state : 0;
    put_head(w, p, i);
    w->fn = i;
    w->group = SIZE_MAX - 1;
    fst_map_free(&w->rowof);
    memset(&w->rowof, 0, sizeof w->rowof);
    for (size_t k = 0; w->fc && w->fc->lrows && k < w->fc->nlrows; k++)   /* once per routine */
        if (w->fc->lrows[k].routine == i)
            *fst_map_put(&w->rowof, (uint64_t)w->fc->lrows[k].group + 1, 0) = k;
    uint64_t pos = r->entry, end = range_end(w, p, i), insns = 0;
    fst_fx cost = 0;
    size_t k = first_at_or_after(w, pos);
    while (pos < end) {
        if (k < w->nxs && w->xs[k] < pos) {   /* overlapping texts: keep the first */
            k++;
            continue;
        }
        if (k < w->nxs && w->xs[k] == pos) {
            cell *c = cell_of(w->a, i, pos);
            put_stmt(w, p, pos);
            if (c) {
                c->line = w->line + 1;
                insns += c->insns;
                cost += c->cost;
            }
            put_insn(w, &w->by[k]->d, c, r, rank_of(c, top), 1);
            pos += w->by[k++]->d.len;
            if (pos == r->entry + 4 && !memcmp(w->by[k - 1]->d.bytes, "\x47\xF0\xF0\x0C", 4) &&
                (k >= w->nxs || w->xs[k] != pos))
                pos = put_ident(w, r, pos);
            continue;
        }
        uint64_t next = k < w->nxs && w->xs[k] < end ? w->xs[k] : end;
        w->group = SIZE_MAX - 1;    /* data between: the next instruction names its statement */
        if (w->sampled && (pos = put_sweep(w, r, pos, next)) >= next)
            continue;
        put_data(w, r, pos, next);
        pos = next;
    }
    /* charged to it outside its range */
    size_t n = 0;
    cell **else_ = fst_xcalloc(w->a->n + 1, sizeof *else_);
    for (size_t j = 0; j < w->a->n; j++)
        if (w->a->c[j].fn == i && (w->a->c[j].addr < r->entry || w->a->c[j].addr >= end))
            else_[n++] = &w->a->c[j];
    if (n) {
        qsort(else_, n, sizeof *else_, by_addr);
        emit(w, "  * charged to %s, elsewhere (code of routines it calls that are not timed):", r->name);
        w->group = SIZE_MAX - 1;
        for (size_t j = 0; j < n; j++) {
            put_stmt(w, p, else_[j]->addr);
            else_[j]->line = w->line + 1;
            insns += else_[j]->insns;
            cost += else_[j]->cost;
            put_insn(w, &else_[j]->d, else_[j], r, rank_of(else_[j], top), 0);
        }
    }
    free(else_);
    char sec[32];
    fst_fmt_sec9(cost, sec);
    if (w->sampled)
        emit(w, "  total %llu samples%s", (unsigned long long)insns,
             insns == r->self_insns ? "" : "  (differs from the routine's self figures)");
    else
        emit(w, "  total %llu instructions, %s s%s", (unsigned long long)insns, sec,
             insns == r->self_insns && cost == r->self_cost ? "" : "  (differs from the routine's self figures)");
    emit(w, "%s", "");
}

static int by_addr_idx(const void *x, const void *y)
{
    const cell *const *a = x, *const *b = y;
    if ((*a)->addr != (*b)->addr)
        return (*a)->addr < (*b)->addr ? -1 : 1;
    return *a < *b ? -1 : *a > *b;
}

int fst_annot_write(fst_annot *a, FILE *out, const fst_fctx *fc, const fst_profile *p, const fst_filter *only,
                    int color, fst_err *err)
{
    wr w = { .out = out, .color = color, .sampled = p->sampled, .a = a,
             .fc = fc && fst_fopt(fc, "source") ? fc : NULL };
    if (fc->tr)
        w.segs = fst_tr_image(fc->tr, &w.nseg);
    char win[300];
    if (fst_fmt_window(p, win, sizeof win)) {   /* a part of the run (--window): said at the top */
        emit(&w, "* %s", win);
        emit(&w, "%s", "");
    }
    if (p->sampled) {
        emit(&w, "* A SAMPLED TRACE: %llu samples, %u a second. Per instruction: the samples that fell on it and",
             (unsigned long long)p->samples, p->sample_hz);
        emit(&w, "* their share of the routine's samples, not executions; no branch counts. The instructions");
        emit(&w, "* no sample fell on are decoded from the storage image (samples '-') until an opcode is unknown.");
        emit(&w, "* %s.", FST_SAMPLED_BIAS);
        emit(&w, "%s", "");
    }
    /* every executed address once, with one cell there for its text */
    const cell **by = fst_xcalloc(a->n + 1, sizeof *by);
    uint64_t *xs = fst_xcalloc(a->n + 1, sizeof *xs);
    for (size_t i = 0; i < a->n; i++)
        by[i] = &a->c[i];
    if (a->n)
        qsort(by, a->n, sizeof *by, by_addr_idx);
    size_t nx = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!nx || xs[nx - 1] != by[i]->addr) {
            by[nx] = by[i];
            xs[nx++] = by[i]->addr;
        }
    w.xs = xs;
    w.by = by;
    w.nxs = nx;
    size_t *ix = fst_xcalloc(p->nr + 1, sizeof *ix), n = 0;
    fst_fx whole = 0;
    for (size_t i = 0; i < p->nr; i++) {
        whole += p->r[i].timed ? p->r[i].self_cost : 0;
        if (fst_filter_has_routine(only) ? fst_filter_keeps(only, p->r[i].name) : p->r[i].timed && !p->r[i].excluded)
            ix[n++] = i;
    }
    fst_filter_left left;
    n = fst_filter_rows(only, p, ix, n, whole, &left);
    for (size_t k = 0; k < n; k++)
        put_routine(&w, p, ix[k]);
    if (left.rows && (only->top || only->have_limit)) {
        char said[700];
        fst_filter_said(only, said, sizeof said);
        emit(&w, "* %llu routine%s not listed (%s)", (unsigned long long)left.rows, left.rows == 1 ? "" : "s", said);
    }
    free(ix);
    free(by);
    free(xs);
    fst_map_free(&w.rowof);
    if (w.rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

/* ---- the format ---- */

static void *an_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)fc, (void)p, (void)err;
    return fst_annot_new();
}

static int an_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    /* colour only for a person at a terminal: not into a file, not when NO_COLOR is set */
    const char *nc = getenv("NO_COLOR");
    int color = !fc->out_path && isatty(fileno(out)) && !(nc && *nc);
    return fst_annot_write(ctx, out, fc, p, fc->filter, color, err);
}

static void an_done(void *ctx) { fst_annot_free(ctx); }

static const fst_option an_opts[] = {
    { 0, "source", NULL, "with --lines=FILE: each source statement (file:line, its text, executions, instructions "
      "and time in the routine) above its instructions; statements that share code are named together, code with "
      "none says so", 0 },
    { 0 },
};

const fst_format fst_format_annotate = {
    "annotate", "assembler listing of each timed routine: executions, time and branches per instruction (samples, for a sampled trace)", 0,
    an_opts, an_init, fst_annot_event, an_write, an_done,
    FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE | FST_FILTER_UNTIMED,
    1,  /* flat: its own aggregate, and calls and self figures */
};
