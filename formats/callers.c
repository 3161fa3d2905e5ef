/*
** formats/callers.c — who calls a routine (--format=callers --routine=NAME): gprof's parent
** lines, `perf report --children`'s callers, callgrind_annotate's callers. For each timed
** routine --routine names (a glob, repeatable), one line per caller:
**
**     CALLERS OF SUBA: 16 calls, 0.000056910 s inclusive (clock: ...)
**
**     CALLER          CALLS        TIME (S)   SHARE
**     MAIN               10     0.000035568   62.5%
**     SUBB                6     0.000021341   37.5%
**
** the caller's name, its calls to the routine, the time the routine spent for it (inclusive:
** its own and what it called, over those calls: the call graph's arc, analyze/profile/profile.h
** fst_arc), and that time's share of the routine's inclusive time, one decimal, in
** integers. `--unit=instructions` prints instructions instead of seconds. Callers are the
** nearest timed routine below (an untimed caller is transparent, as in every report);
** "(outside)" is a call from code no routine holds. Lines are ordered by time, largest
** first, then by name. A recursive call (the routine calling itself, directly) is a line of
** its own, marked: its time lies inside the other lines', so the lines then add up to more
** than the whole. The mainline's first entry is no call: it has no line.
** `--top=N` keeps the N heaviest callers, `--percent-limit=P` those of at least P per cent;
** a last line says what they left out.
**
** Ownership: nothing kept between calls. Errors: no --routine (init, before the replay),
** writing.
*/
#include "formats/format.h"
#include "formats/formats.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

typedef struct copts {
    int insns;                  /* --unit=instructions */
} copts;

static int options(const fst_fctx *fc, copts *o, fst_err *err)
{
    const char *u = fst_fopt(fc, "unit");
    if (u && strcmp(u, "ns") && strcmp(u, "instructions"))
        return fst_errf(err, "--unit: '%s': callers prints ns (seconds, the default) or instructions", u);
    o->insns = u && !strcmp(u, "instructions");
    if (!fst_filter_has_routine(fc->filter))
        return fst_errf(err, "--format=callers: whose callers? give --routine=NAME (a glob, repeatable)");
    return 0;
}

static void *callers_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    copts o;
    return options(fc, &o, err) < 0 ? NULL : (void *)fc;   /* non-NULL: the options are good */
}

static const fst_profile *sort_p;
static int sort_insns;
static const char *caller_name(const fst_profile *p, const fst_arc *a)
{
    return a->caller == FST_NONE ? "(outside)" : p->r[a->caller].name;
}
static int by_time(const void *x, const void *y)
{
    const fst_arc *a = &sort_p->arcs[*(const size_t *)x], *b = &sort_p->arcs[*(const size_t *)y];
    uint64_t wa = sort_insns ? a->insns : a->cost, wb = sort_insns ? b->insns : b->cost;
    if (wa != wb)
        return wa > wb ? -1 : 1;
    return strcmp(caller_name(sort_p, a), caller_name(sort_p, b));
}

static void figure(char *buf, size_t cap, int insns, uint64_t n, fst_fx x)
{
    if (insns)
        snprintf(buf, cap, "%llu", (unsigned long long)n);
    else
        fst_fmt_sec9(x, buf);
}

/* The arcs into routine i, heaviest first: a malloc'd array of arc indices, *n of them. */
static size_t *arcs_into(const fst_profile *p, size_t i, int insns, size_t *n)
{
    size_t *ix = fst_xcalloc(p->narcs + 1, sizeof *ix);
    *n = 0;
    for (size_t k = 0; k < p->narcs; k++)
        if (p->arcs[k].callee == i && p->arcs[k].count)
            ix[(*n)++] = k;
    sort_p = p;
    sort_insns = insns;
    qsort(ix, *n, sizeof *ix, by_time);
    return ix;
}

/* One routine's block: its heading, one line per caller, what --top/--percent-limit left out. */
static int block(FILE *out, const fst_profile *p, size_t i, const copts *o, const fst_filter *f)
{
    const fst_routine *r = &p->r[i];
    char whole[32], fig[32], nm[sizeof r->name];
    uint64_t all = o->insns ? r->incl_insns : r->incl_cost;
    figure(whole, sizeof whole, o->insns, r->incl_insns, r->incl_cost);
    size_t n, w = 8;
    size_t *ix = arcs_into(p, i, o->insns, &n);
    for (size_t k = 0; k < n; k++) {
        size_t l = strlen(fst_printable(caller_name(p, &p->arcs[ix[k]]), nm, sizeof nm));
        w = l > w ? l : w;
    }
    int rc = fprintf(out, "CALLERS OF %s: %llu call%s, %s %s inclusive (clock: %s)\n\n",
                     fst_printable(r->name, nm, sizeof nm), (unsigned long long)r->calls, r->calls == 1 ? "" : "s",
                     whole, o->insns ? "instructions" : "s", p->clock) < 0;
    char win[320];
    if (fst_fmt_window(p, win, sizeof win)) /* a part of the run (--window) */
        rc |= fprintf(out, "%s\n\n", win) < 0;
    rc |= fprintf(out, "%-*s  %10s  %14s  %6s\n", (int)w, "CALLER", "CALLS", o->insns ? "TIME (INSNS)" : "TIME (S)",
                  "SHARE") < 0;
    uint64_t left = 0, left_calls = 0, left_w = 0, shown = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const fst_arc *a = &p->arcs[ix[k]];
        uint64_t share = fst_filter_tenths(o->insns ? a->insns : a->cost, all);
        if ((f->top && shown == f->top) || share < f->limit_tenths) {
            left++;
            left_calls += a->count;
            left_w += o->insns ? a->insns : a->cost;
            continue;
        }
        shown++;
        figure(fig, sizeof fig, o->insns, a->insns, a->cost);
        rc = fprintf(out, "%-*s  %10llu  %14s  %3llu.%llu%%%s\n", (int)w,
                     fst_printable(caller_name(p, a), nm, sizeof nm), (unsigned long long)a->count, fig,
                     (unsigned long long)(share / 10), (unsigned long long)(share % 10),
                     a->caller == i ? "  (recursive: inside the lines above)" : "") < 0;
    }
    if (!rc && !n)
        rc = fprintf(out, "(no caller: %s)\n", r->mainline ? "the mainline is entered, not called"
                                                          : "it was never called") < 0;
    if (!rc && left) {
        char said[600];
        fst_filter_said(f, said, sizeof said);
        figure(fig, sizeof fig, o->insns, left_w, (fst_fx)left_w);
        rc = fprintf(out, "%llu caller%s not shown (%s): %llu calls, %s %s\n", (unsigned long long)left,
                     left == 1 ? "" : "s", said, (unsigned long long)left_calls, fig,
                     o->insns ? "instructions" : "s") < 0;
    }
    free(ix);
    return rc;
}

static int callers_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    copts o;
    if (options(fc, &o, err) < 0)
        return -1;
    int rc = 0, first = 1;
    for (size_t i = 0; i < p->nr && !rc; i++) {
        if (!p->r[i].timed || !fst_filter_keeps(fc->filter, p->r[i].name))
            continue;
        rc = (!first && fputc('\n', out) == EOF) || block(out, p, i, &o, fc->filter);
        first = 0;
    }
    if (!rc && !p->complete)
        rc = fprintf(out, "\nINCOMPLETE TRACE: %.120s\n", p->incomplete) < 0;
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static const fst_option callers_opts[] = {
    { 0, "unit", "U", "ns (seconds, the default) or instructions", 0 },
    { 0 },
};

const fst_format fst_format_callers = {
    "callers", "who calls the --routine routines: per caller its calls, the time spent for it and its share", 0,
    callers_opts, callers_init, NULL, callers_write, NULL, FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE,
};
