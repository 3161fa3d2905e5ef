/*
** formats/callgrind.c — the Callgrind profile format, version 1 (notes/profformats.md §3.1),
** for callgrind_annotate and KCachegrind.
**
** Positions are instruction addresses (`positions: instr`, hexadecimal); two events:
**   Ir    instructions executed (exact)
**   ns    the clock's time in nanoseconds (--unit=ns, the default), or `tod` in TOD clock
**         units of 1/4096 us (--unit=tod)
** One `fn=` per timed routine, in load-module order, with one cost line per address that
** executed (self cost), then its calls: `cfn=` callee, `calls=COUNT ENTRY`, and a line with
** the call site's address and the inclusive cost of those calls. Two pseudo-functions hold
** what no routine is charged with, so that the totals are fst's totals: "(outside)"
** (before the mainline is entered, after it returns) and "(excluded)" (--exclude, --cpu).
**
** Exactness, and what it takes:
**   - self: a routine's cost lines add up to csv's self_instr, and in time to csv's
**     self_sec in ns (the lines of a routine are rounded so that their sum is its self time
**     rounded as csv rounds: line = round(running sum) - round(previous running sum));
**   - summary/totals = the sum of every cost line (callgrind_annotate's PROGRAM TOTALS):
**     Ir = csv's (total) instructions; ns within 1 ns per routine of csv's (total) (each
**     routine's lines are rounded apart);
**   - calls: the counts of fst's arcs (caller = the nearest timed routine, as in csv);
**   - inclusive: callgrind_annotate --inclusive=yes takes a called routine's inclusive
**     cost as the sum of the costs of the calls *into* it. So a call's cost here is the time
**     of that call only when the callee was not already active on the CPU's stack, and 0
**     for a recursive call (a recursion's time counts once, as in fst's incl_instr). The sum
**     over the calls into a routine is then exactly csv's incl_instr, and in time exactly
**     csv's incl_sec in ns: the calls into a routine are rounded as one running sum, as
**     its lines are. The mainline, which nobody calls, gets its own cost plus its calls',
**     each rounded apart: within 1 ns per routine it calls of csv's incl_sec. An --exclude'd routine's own time
**     is under "(excluded)", not under it.
** The listing (formats/annotate.h): with -o FILE, the annotated assembler listing of the
** timed routines is written beside it as FILE.lst, and each timed routine's `fl=` names it,
** with `positions: instr line`: every cost line carries the line of its instruction in the
** listing, so callgrind_annotate --auto=yes and KCachegrind's source view show the
** annotated instructions. Lines of what the listing has not (outside, excluded) are 0,
** under `fl=(1) ???` (callgrind's "no source"). Written to standard output, the file has no listing and names
** the program, with `positions: instr`.
** With --lines (formats/stmtprof.h), the positions are source lines instead: `positions:
** instr line`, each function's `fl=` the source file of its first cost line, `fi=`/`fe=`
** where its cost lines move to another file (inlined code, an included file), each line the
** line (statement number, ISN) of the statement holding the address; code no statement
** holds is under `???`, line 0; code several statements share is put on the first of them.
** No listing is written then: KCachegrind's source view shows the sources.
** Ownership: the context is freed by done. Errors: --unit's value (init); writing.
*/
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/annotate.h"
#include "formats/jsonw.h"
#include "formats/stmtprof.h"
#include "common/outfile.h"
#include "common/map.h"
#include "common/quote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FN_OUTSIDE (SIZE_MAX - 1)
#define FN_EXCLUDED (SIZE_MAX - 2)

typedef struct cell {       /* self cost of one address in one function */
    size_t fn;
    uint64_t addr, insns;
    fst_fx cost;
} cell;

typedef struct crec {       /* calls from fn at site to callee */
    size_t fn, callee;
    uint64_t site, count, insns;
    fst_fx cost;
} crec;

typedef struct frame {
    size_t routine, rec;    /* rec: the crec of a counted call, or FST_NONE */
    int outer;              /* the routine was not active below: its time counts */
    uint64_t insns0;
    fst_fx cost0;
} frame;

typedef struct table {      /* a growing array with an open-addressing index */
    void *v;
    size_t n, cap, size;
    size_t *hash, caph;
} table;

typedef struct cg {
    fst_tunit unit;
    table cells, recs;
    struct fstack { frame *f; size_t n, cap; fst_map active; } *fr; /* by task: each its own
                                                stack; active: routine -> its open frames */
    size_t nfr;
    uint64_t insns;
    fst_fx cost;
    fst_annot *an;          /* the listing's aggregate, when there is a listing */
    const fst_filter *flt;  /* --routine, or NULL */
    unsigned char *keep;    /* per routine, kept by it (made at the first event); only the
                               stacks through a kept routine count (as folded's) */
    size_t nkeep;
} cg;

/* Whether an event's stack runs through a routine --routine keeps (its own routine, or one
** below it on the task's stack). */
static int through(const cg *g, const fst_event *e)
{
    if (!g->flt)
        return 1;
    if (e->routine < g->nkeep && g->keep[e->routine] && (e->kind != FST_EV_EXEC || e->charged == FST_CHARGE_ROUTINE))
        return 1;
    for (size_t i = 0; i < e->depth; i++)
        if (e->stack[i] < g->nkeep && g->keep[e->stack[i]])
            return 1;
    return 0;
}

static struct fstack *fstack_of(cg *g, uint32_t task)
{
    if (task >= g->nfr) {
        g->fr = fst_xrealloc(g->fr, ((size_t)task + 1) * sizeof *g->fr);
        memset(g->fr + g->nfr, 0, ((size_t)task + 1 - g->nfr) * sizeof *g->fr);
        g->nfr = (size_t)task + 1;
    }
    return &g->fr[task];
}

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) ^ (c * 0xBF58476D1CE4E5B9ull);
    h ^= h >> 31;
    return h * 0x94D049BB133111EBull;
}

static uint64_t key_of(const table *t, size_t i, int cells)
{
    if (cells) {
        const cell *c = (const cell *)t->v + i;
        return mix(c->fn, c->addr, 0);
    }
    const crec *r = (const crec *)t->v + i;
    return mix(r->fn, r->site, r->callee);
}

static void reindex(table *t, int cells)
{
    free(t->hash);
    t->caph = t->caph ? t->caph * 2 : 1024;
    t->hash = fst_xcalloc(t->caph, sizeof *t->hash);
    for (size_t i = 0; i < t->n; i++) {
        size_t s = key_of(t, i, cells) & (t->caph - 1);
        while (t->hash[s])
            s = (s + 1) & (t->caph - 1);
        t->hash[s] = i + 1;
    }
}

static size_t cell_get(cg *g, size_t fn, uint64_t addr)
{
    table *t = &g->cells;
    if (2 * (t->n + 1) > t->caph)
        reindex(t, 1);
    size_t s = mix(fn, addr, 0) & (t->caph - 1);
    for (; t->hash[s]; s = (s + 1) & (t->caph - 1)) {
        cell *c = (cell *)t->v + t->hash[s] - 1;
        if (c->fn == fn && c->addr == addr)
            return t->hash[s] - 1;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->v = fst_xrealloc(t->v, t->cap * sizeof(cell));
    }
    ((cell *)t->v)[t->n] = (cell){ fn, addr, 0, 0 };
    t->hash[s] = t->n + 1;
    return t->n++;
}

static size_t rec_get(cg *g, size_t fn, uint64_t site, size_t callee)
{
    table *t = &g->recs;
    if (2 * (t->n + 1) > t->caph)
        reindex(t, 0);
    size_t s = mix(fn, site, callee) & (t->caph - 1);
    for (; t->hash[s]; s = (s + 1) & (t->caph - 1)) {
        crec *r = (crec *)t->v + t->hash[s] - 1;
        if (r->fn == fn && r->site == site && r->callee == callee)
            return t->hash[s] - 1;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->v = fst_xrealloc(t->v, t->cap * sizeof(crec));
    }
    ((crec *)t->v)[t->n] = (crec){ fn, callee, site, 0, 0, 0 };
    t->hash[s] = t->n + 1;
    return t->n++;
}

static void *cg_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    int u = fst_tunit_parse(fst_fopt(fc, "unit"), FST_TU_NS);
    if (u < 0 || u == FST_TU_INSNS)
        return fst_errf(err, "--unit: '%s' is not ns or tod (callgrind always has Ir as well)", fst_fopt(fc, "unit")),
               NULL;
    cg *g = fst_xcalloc(1, sizeof *g);
    g->unit = (fst_tunit)u;
    if (fc->out_file && !fc->lines)    /* --lines: the positions are the sources' lines */
        g->an = fst_annot_new();
    if (fst_filter_has_routine(fc->filter))
        g->flt = fc->filter;    /* the routines it keeps: at the first event (keep_of) */
    return g;
}

static void on_exec(cg *g, const fst_event *e)
{
    if (!through(g, e))
        return;
    size_t fn = e->charged == FST_CHARGE_ROUTINE ? e->routine
              : e->charged == FST_CHARGE_OUTSIDE ? FN_OUTSIDE : FN_EXCLUDED;
    size_t i = cell_get(g, fn, e->insn->addr); /* may move the cells */
    cell *c = (cell *)g->cells.v + i;
    c->insns++;
    c->cost += e->cost;
    g->insns++;
    g->cost += e->cost;
}

static void on_call(cg *g, const fst_event *e)
{
    struct fstack *s = fstack_of(g, e->task);
    frame f = { e->routine, FST_NONE, 1, e->tinsns, e->tcost };  /* the task's clock */
    f.outer = !fst_map_get(&s->active, e->routine);
    fst_map_inc(&s->active, e->routine);
    if (e->counted && through(g, e)) {
        f.rec = rec_get(g, e->caller == FST_NONE ? FN_OUTSIDE : e->caller, e->site, e->routine);
        ((crec *)g->recs.v)[f.rec].count++;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->f = fst_xrealloc(s->f, s->cap * sizeof *s->f);
    }
    s->f[s->n++] = f;
}

static void on_return(cg *g, const fst_event *e)
{
    struct fstack *s = fstack_of(g, e->task);
    if (!s->n || s->f[s->n - 1].routine != e->routine)
        return; /* not a frame of a timed routine */
    frame f = s->f[--s->n];
    fst_map_dec(&s->active, f.routine);
    if (f.rec != FST_NONE && f.outer) {
        crec *r = (crec *)g->recs.v + f.rec;
        r->insns += e->tinsns - f.insns0;
        r->cost += e->tcost - f.cost0;
    }
}

static void cg_event(void *ctx, const fst_event *e)
{
    cg *g = ctx;
    const fst_profile *p = e->profile;
    if (g->flt && !g->keep) {
        g->keep = fst_filter_keep_table(g->flt, p);
        g->nkeep = p->nr;
    }
    if (g->an)
        fst_annot_event(g->an, e);
    switch (e->kind) {
    case FST_EV_EXEC: on_exec(g, e); break;
    case FST_EV_CALL:
        if (p->r[e->routine].timed)
            on_call(g, e);
        break;
    case FST_EV_RETURN:
    case FST_EV_UNWIND:
        if (p->r[e->routine].timed)
            on_return(g, e);
        break;
    default: break;
    }
}

static int by_fn_addr(const void *a, const void *b)
{
    const cell *x = a, *y = b;
    return x->fn != y->fn ? (x->fn < y->fn ? -1 : 1) : x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_rec(const void *a, const void *b)
{
    const crec *x = a, *y = b;
    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

typedef struct wr {
    FILE *out;
    const fst_profile *p;
    char *named;            /* per fn id: its name was given once */
    int rc;
    const fst_annot *an;    /* the listing written, or NULL */
    fst_rounder *into;      /* per routine: the calls into it, rounded as one sum */
    const fst_stmt_tab *lines; /* --lines: positions are source lines, files the sources */
    const char **files;     /* source files by id - 2 ((1) is "???": no statement) */
    char *fnamed;           /* per file id: its name was given once */
    size_t nfiles;
    int fl, cur;            /* the function's file (fl=) and the current one (fi=/fe=) */
} wr;

/* --lines: addr's source file id and line; (1) "???" and line 0 where no statement is.
** Statements sharing the code: the first of them (callgrind has one line per cost). */
static int src_of(wr *w, uint64_t addr, uint32_t *line)
{
    size_t g = fst_stmtprof_group_of(w->lines, addr);
    *line = 0;
    if (g == FST_SP_NOSTMT)
        return 1;
    const fst_stmt *s = fst_stmt_of(w->lines, fst_stmt_span_at(w->lines, g), 0);
    size_t k = 0;
    while (k < w->nfiles && w->files[k] != s->file)
        k++;
    if (k == w->nfiles)
        w->files[w->nfiles++] = s->file;
    *line = s->line;
    return (int)k + 2;
}

/* "KEY=(id) NAME" the first time a file is named, "KEY=(id)" after */
static void put_src(wr *w, const char *key, int id)
{
    char buf[1024];
    if (id == 1 || w->fnamed[id])
        w->rc |= fprintf(w->out, "%s=(%d)\n", key, id) < 0;
    else
        w->rc |= fprintf(w->out, "%s=(%d) %s\n", key, id, fst_printable(w->files[id - 2], buf, sizeof buf)) < 0;
    w->fnamed[id] = 1;
}

/* --lines: the cost line at addr is in another file than the one before: fi= (fe= back) */
static void switch_src(wr *w, uint64_t addr)
{
    uint32_t ln;
    int f = src_of(w, addr, &ln);
    if (f != w->cur)
        put_src(w, f == w->fl ? "fe" : "fi", f);
    w->cur = f;
}

/* " LINE" of addr in fn's listing, when the file has line positions */
static const char *line_of(wr *w, size_t fn, uint64_t addr, char buf[24])
{
    buf[0] = 0;
    uint32_t ln;
    if (w->lines) {
        src_of(w, addr, &ln);
        snprintf(buf, 24, " %u", (unsigned)ln);
    } else if (w->an)
        snprintf(buf, 24, " %llu", (unsigned long long)(fn < w->p->nr ? fst_annot_line(w->an, fn, addr) : 0));
    return buf;
}

/* fl=/cfi=: (2) the listing for a routine it lists, else (1) the program; with --lines, the
** source file of addr (the function's first cost line, the callee's entry) */
static void put_file(wr *w, const char *key, size_t fn, uint64_t addr)
{
    uint32_t ln;
    if (w->lines) {
        int f = src_of(w, addr, &ln);
        put_src(w, key, f);
        if (key[0] == 'f')
            w->fl = w->cur = f;
    } else if (w->an)
        w->rc |= fprintf(w->out, "%s=(%d)\n", key, fn < w->p->nr && w->p->r[fn].timed && !w->p->r[fn].excluded ? 2 : 1) < 0;
}

static size_t fn_id(const wr *w, size_t fn)
{
    return fn == FN_OUTSIDE ? w->p->nr + 1 : fn == FN_EXCLUDED ? w->p->nr + 2 : fn + 1;
}

/* "(id) NAME" the first time, "(id)" after */
static void put_fn(wr *w, const char *key, size_t fn)
{
    size_t id = fn_id(w, fn);
    char buf[sizeof w->p->r[0].name];   /* a name ends at the end of its line: no newline in it */
    const char *nm = fn == FN_OUTSIDE ? "(outside)" : fn == FN_EXCLUDED ? "(excluded)"
                   : fst_printable(w->p->r[fn].name, buf, sizeof buf);
    if (w->named[id])
        w->rc |= fprintf(w->out, "%s=(%zu)\n", key, id) < 0;
    else
        w->rc |= fprintf(w->out, "%s=(%zu) %s\n", key, id, nm) < 0;
    w->named[id] = 1;
}

static void put_fn_body(wr *w, const cg *g, size_t fn, const cell *c, size_t nc, const crec *r, size_t nr,
                        uint64_t sum[2])
{
    fst_rounder rd = { g->unit, 0, 0 };
    char ln[24];
    w->rc |= fprintf(w->out, "\n") < 0;
    put_file(w, "fl", fn, nc ? c[0].addr : nr ? r[0].site : 0);
    put_fn(w, "fn", fn);
    for (size_t i = 0; i < nc; i++) {
        uint64_t t = fst_rounder_next(&rd, c[i].cost, 0);
        if (w->lines)
            switch_src(w, c[i].addr);
        w->rc |= fprintf(w->out, "0x%llX%s %llu %llu\n", (unsigned long long)c[i].addr, line_of(w, fn, c[i].addr, ln),
                         (unsigned long long)c[i].insns, (unsigned long long)t) < 0;
        sum[0] += c[i].insns;
        sum[1] += t;
    }
    for (size_t i = 0; i < nr; i++) {
        char cl[24];
        uint64_t entry = w->p->r[r[i].callee].entry;
        if (w->lines)
            switch_src(w, r[i].site);
        put_file(w, "cfi", r[i].callee, entry);
        put_fn(w, "cfn", r[i].callee);
        w->rc |= fprintf(w->out, "calls=%llu 0x%llX%s\n0x%llX%s %llu %llu\n", (unsigned long long)r[i].count,
                         (unsigned long long)entry, line_of(w, r[i].callee, entry, cl), (unsigned long long)r[i].site,
                         line_of(w, fn, r[i].site, ln), (unsigned long long)r[i].insns,
                         (unsigned long long)fst_rounder_next(&w->into[r[i].callee], r[i].cost, 0)) < 0;
    }
}

/* the program's file name, one line whatever it holds (common/quote.h) */
static const char *program_of(const fst_fctx *fc, char *buf, size_t cap)
{
    const char *s = fc->tr ? fst_tr_header(fc->tr, FST_HK_PROGRAM) : NULL;
    if (!s || !*s)
        s = fc->trace_path ? fc->trace_path : "trace";
    const char *b = strrchr(s, '/');
    return fst_printable(b && b[1] ? b + 1 : s, buf, cap);
}

/* FILE.lst beside -o FILE, all or nothing (common/outfile.h); *name: its printable name */
static int write_listing(const cg *g, const fst_fctx *fc, const fst_profile *p, char **name, fst_err *err)
{
    size_t n = strlen(fc->out_file) + 5;
    char *path = fst_xmalloc(n);
    snprintf(path, n, "%s.lst", fc->out_file);
    fst_fctx lc = *fc;
    lc.out_path = lc.out_file = path;
    fst_out o;
    int rc = fst_out_open(&o, path, err);
    if (!rc && fst_annot_write(g->an, o.f, &lc, p, NULL, 0, err) < 0) {
        fst_out_abort(&o);
        rc = -1;
    } else if (!rc)
        rc = fst_out_close(&o, err);
    *name = fst_xmalloc(2 * n + 8);
    fst_printable(path, *name, 2 * n + 8);
    free(path);
    return rc;
}

static int cg_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    cg *g = ctx;
    char *lst = NULL;
    if (g->an && write_listing(g, fc, p, &lst, err) < 0) {
        free(lst);
        return -1;
    }
    cell *c = g->cells.v;
    crec *r = g->recs.v;
    if (g->cells.n)     /* the index is not used after this */
        qsort(c, g->cells.n, sizeof *c, by_fn_addr);
    if (g->recs.n)
        qsort(r, g->recs.n, sizeof *r, by_rec);
    /* the body first, into memory, since the summary line before it is its sum */
    char *body = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&body, &blen);
    if (!m)
        return fst_errno(err, "callgrind: out of memory");
    wr w = { m, p, fst_xcalloc(p->nr + 3, 1), 0, g->an, fst_xcalloc(p->nr + 1, sizeof(fst_rounder)), fc->lrows ? fc->lines : NULL,
             NULL, NULL, 0, 1, 1 };
    if (w.lines) {
        w.files = fst_xcalloc(fst_stmt_count(w.lines) + 1, sizeof *w.files);
        w.fnamed = fst_xcalloc(fst_stmt_count(w.lines) + 3, 1);
    }
    for (size_t i = 0; i < p->nr; i++)
        w.into[i].unit = g->unit;
    uint64_t sum[2] = { 0, 0 };
    char prog[512], trace[512];
    program_of(fc, prog, sizeof prog);
    fst_printable(fc->trace_path ? fc->trace_path : "", trace, sizeof trace);
    char clk[512];
    fst_printable(p->clock, clk, sizeof clk);
    if (w.lines)   /* source files are named as cost lines reach them */
        w.rc |= fprintf(m, "ob=(1) %s\nfl=(1) ???\n", prog) < 0;
    else if (lst)
        /* "???": callgrind's own name for no source, which callgrind_annotate --auto=yes
        ** does not look for */
        w.rc |= fprintf(m, "ob=(1) %s\nfl=(2) %s\nfl=(1) ???\n", prog, lst) < 0;
    else
        w.rc |= fprintf(m, "ob=(1) %s\nfl=(1) %s\n", prog, prog) < 0;
    free(lst);
    /* cells and recs are sorted by fn: routines by index, then (excluded), (outside) */
    size_t ic = 0, ir = 0;
    for (size_t k = 0; k < p->nr + 2; k++) {
        size_t fn = k < p->nr ? k : k == p->nr ? FN_EXCLUDED : FN_OUTSIDE;
        size_t c0 = ic, r0 = ir;
        while (ic < g->cells.n && c[ic].fn == fn)
            ic++;
        while (ir < g->recs.n && r[ir].fn == fn)
            ir++;
        if ((k < p->nr && p->r[k].timed) || ic > c0 || ir > r0)
            /* no cells or no calls: the table is NULL, and NULL + 0 is undefined in C */
            put_fn_body(&w, g, fn, ic > c0 ? c + c0 : NULL, ic - c0, ir > r0 ? r + r0 : NULL,
                        ir - r0, sum);
    }
    free(w.named);
    free(w.into);
    free(w.files);
    free(w.fnamed);
    int mrc = fclose(m);
    const char *u = g->unit == FST_TU_TOD ? "tod" : "ns";
    int rc = w.rc || mrc;
    char win[640] = "desc: ";   /* a part of the run (--window): KCachegrind shows desc lines */
    if (!fst_fmt_window(p, win + 6, 320))
        win[0] = 0;
    else
        strcat(win, "\n");
    if (g->flt) {               /* and the stacks kept (--routine) */
        size_t k = strlen(win);
        snprintf(win + k, sizeof win - k, "desc: Stacks: only those through ");
        k = strlen(win);
        fst_filter_said(fc->filter, win + k, sizeof win - k - 1);
        strcat(win, "\n");
    }
    if (!rc)
        rc = fprintf(out,
                     "# callgrind format\nversion: 1\ncreator: fst-report (fst, System/370 trace replay)\n"
                     "cmd: %s\ndesc: Trace: %s\ndesc: Clock: %s\n%spositions: instr%s\n"
                     "event: Ir : Instructions\nevent: %s : CPU time (%s)\nevents: Ir %s\n"
                     "summary: %llu %llu\ntotals: %llu %llu\n",
                     prog, trace, clk, win, g->an || fc->lrows ? " line" : "", u,
                     g->unit == FST_TU_TOD ? "TOD clock units, 1/4096 us" : "nanoseconds", u,
                     (unsigned long long)sum[0], (unsigned long long)sum[1], (unsigned long long)sum[0],
                     (unsigned long long)sum[1]) < 0;
    if (!rc && blen && fwrite(body, 1, blen, out) != blen)
        rc = 1;
    free(body);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static void cg_done(void *ctx)
{
    cg *g = ctx;
    if (!g)
        return;
    free(g->cells.v);
    free(g->cells.hash);
    free(g->recs.v);
    free(g->recs.hash);
    fst_annot_free(g->an);
    free(g->keep);
    for (size_t i = 0; i < g->nfr; i++) {
        free(g->fr[i].f);
        fst_map_free(&g->fr[i].active);
    }
    free(g->fr);
    free(g);
}

static const fst_option cg_opts[] = {
    { 0, "unit", "U", "ns (default) or tod (1/4096 us) for callgrind's time event; instructions, ns or tod for folded counts; instructions or ns for speedscope", 0 },
    { 0 },
};

const fst_format fst_format_callgrind = {
    "callgrind", "Callgrind profile (callgrind_annotate, KCachegrind): per-address Ir and time, exact calls", 0,
    cg_opts, cg_init, cg_event, cg_write, cg_done, FST_FILTER_ROUTINE,
};
