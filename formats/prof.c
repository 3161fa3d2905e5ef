/*
** formats/prof.c — the System V prof(1) listing (SVR3/SVR4 layout, notes/profformats.md
** §1.3):
**      %Time Seconds Cumsecs  #Calls   msec/call  Name
**       58.8    3.00    3.00       2   1500.      alpha
** with prof's printf formats: "%6.1f%8.2f%8.2f", then "%8ld%#*.*f" and padding when the
** routine was called (msec/call with 0 to 4 decimals: fewer for fewer calls, as prof's
** fprecision), else 22 blanks; then the name. One row per timed routine (untimed ones are
** transparent, as in every fst report); a row with no time and no calls only with --zero
** (prof -z). Sort orders as prof's -t (default), -c, -n, -a: --sort=time|calls|name|address,
** ties by address. --addresses prefixes the entry in hex (prof -x). --top, --percent-limit
** and --routine (formats/filter.h) leave rows out and a last line says what; a row whose
** figures a guess of which task ran could change ends with " ?", its bounds in a footnote
** (formats/uncertain.h).
**
** The numbers are the call graph's, exactly (not a sampled histogram): Seconds is the
** routine's self time, %Time its share of the profiled time = the sum of all routines' self
** time (what the profil clock would see between main's start and exit: fortstat's TOTAL),
** Cumsecs the running sum in the listed order. Every number is computed in integers from
** fst_fx and rounded half up at its last printed digit, so it agrees with the csv report.
*/
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/uncertain.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* num/den printed as printf's %W.Df (half up); `point`: '#' flag (a point even at D = 0). */
static void fixed(char *out, size_t size, int width, int dec, u128 num, u128 den, int point)
{
    u128 scale = 1;
    for (int i = 0; i < dec; i++)
        scale *= 10;
    u128 v = den ? (num * scale * 2 + den) / (den * 2) : 0;
    char frac[16] = "";
    if (dec)
        snprintf(frac, sizeof frac, "%0*llu", dec, (unsigned long long)(v % scale));
    char s[64];
    snprintf(s, sizeof s, "%llu%s%s", (unsigned long long)(v / scale), dec || point ? "." : "", frac);
    snprintf(out, size, "%*.*s", width, (int)(size ? size - 1 : 0), s);
}

static int fprecision(uint64_t count)
{
    return count < 10 ? 0 : count < 100 ? 1 : count < 1000 ? 2 : count < 10000 ? 3 : 4;
}

enum { BY_TIME, BY_CALLS, BY_NAME, BY_ADDR };
static const fst_profile *sort_prof;
static int sort_key;

static int cmp(const void *a, const void *b)
{
    const fst_routine *x = &sort_prof->r[*(const size_t *)a], *y = &sort_prof->r[*(const size_t *)b];
    int c = 0;
    if (sort_key == BY_TIME)
        c = x->self_cost > y->self_cost ? -1 : x->self_cost < y->self_cost;
    else if (sort_key == BY_CALLS)
        c = x->calls > y->calls ? -1 : x->calls < y->calls;
    else if (sort_key == BY_NAME)
        c = strcmp(x->name, y->name);
    return c ? c : x->entry < y->entry ? -1 : x->entry > y->entry;
}

typedef struct prof_opts {
    int key, zero, addr, digits;    /* digits: of Seconds and Cumsecs (--digits) */
} prof_opts;

static int options(const fst_fctx *fc, prof_opts *o, fst_err *err)
{
    static const char *const keys[] = { "time", "calls", "name", "address" };
    const char *s = fst_fopt(fc, "sort");
    o->key = BY_TIME;
    if (s) {
        o->key = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(s, keys[k]))
                o->key = k;
        if (o->key < 0)
            return fst_errf(err, "--sort: '%s' is not time, calls, name or address", s);
    }
    o->zero = fst_fopt(fc, "zero") != NULL;
    o->addr = fst_fopt(fc, "addresses") != NULL;
    return fst_digits_opt(fst_fopt(fc, "digits"), &o->digits, err);
}

static void *prof_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    prof_opts o;
    if (options(fc, &o, err) < 0)
        return NULL;
    return (void *)fc; /* nothing to keep: a non-NULL context says the options are good */
}

static int row(FILE *out, const prof_opts *o, const fst_routine *r, fst_fx total, fst_fx cum)
{
    char pct[48], sec[48], cs[48], per[96] = "";
    fixed(pct, sizeof pct, 6, 1, (u128)r->self_cost * 100, total, 0);
    fixed(sec, sizeof sec, 6 + o->digits, o->digits, r->self_cost, FST_FX_PER_SEC, 0);
    fixed(cs, sizeof cs, 6 + o->digits, o->digits, cum, FST_FX_PER_SEC, 0);
    if (r->calls) {
        int fd = fprecision(r->calls);
        char ms[48];
        fixed(ms, sizeof ms, fd + 8, fd, (u128)r->self_cost * 1000, (u128)r->calls * FST_FX_PER_SEC, 1);
        snprintf(per, sizeof per, "%8llu%s%*s", (unsigned long long)r->calls, ms, 6 - fd, " ");
    } else
        snprintf(per, sizeof per, "%22s", " ");
    if (o->addr && fprintf(out, "%8llx ", (unsigned long long)r->entry) < 0)
        return -1;
    char nm[sizeof r->name];
    return fprintf(out, "%s%s%s%s%s%s\n", pct, sec, cs, per, fst_printable(r->name, nm, sizeof nm), fst_unc_mark(r)) < 0
               ? -1 : 0;
}

static int unc_line(void *ctx, int first, const char *text)
{
    return fprintf(ctx, "%s%s\n", first ? "\n" : "", text) < 0;
}

static int prof_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    prof_opts o;
    if (options(fc, &o, err) < 0)
        return -1;
    size_t *ix = malloc((p->nr ? p->nr : 1) * sizeof *ix), n = 0;
    if (!ix)
        return fst_errno(err, "prof");
    fst_fx total = 0, cum = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed) {
            ix[n++] = i;
            total += p->r[i].self_cost;
        }
    sort_prof = p;
    sort_key = o.key;
    qsort(ix, n, sizeof *ix, cmp);
    fst_filter_left left;
    n = fst_filter_rows(fc->filter, p, ix, n, total, &left);
    char inc[320];
    int rc = fst_fmt_window(p, inc, sizeof inc) && fprintf(out, "%s\n", inc) < 0;  /* a part of the run */
    rc |= fst_fmt_incomplete(p, inc, sizeof inc) && fprintf(out, "%s\n", inc) < 0;
    if (fst_unc_any(p, ix, n))  /* fst had to guess which task ran: the rows it touched (uncertain.h) */
        rc |= fprintf(out, "%s\n", FST_UNC_HEADING) < 0;
    rc |= fprintf(out, "%s %%Time Seconds Cumsecs  #Calls   msec/call  Name\n", o.addr ? " Address " : "") < 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const fst_routine *r = &p->r[ix[k]];
        if (!o.zero && !r->self_cost && !r->calls)
            continue;
        cum += r->self_cost;
        rc = row(out, &o, r, total, cum);
    }
    if (!rc)
        rc = fst_unc_footnote(p, ix, n, unc_line, out);
    if (!rc && left.rows) { /* %Time stays the share of the whole: say what is not listed */
        char said[600], sec[48], pct[48];
        fst_filter_said(fc->filter, said, sizeof said);
        fixed(sec, sizeof sec, 0, o.digits, left.self_cost, FST_FX_PER_SEC, 0);
        fixed(pct, sizeof pct, 0, 1, (u128)left.self_cost * 100, total, 0);
        rc = fprintf(out, "%llu routine%s not listed (%s): %s%% of the time, %s seconds, %llu calls\n",
                     (unsigned long long)left.rows, left.rows == 1 ? "" : "s", said, pct, sec,
                     (unsigned long long)left.calls) < 0;
    }
    free(ix);
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static const fst_option prof_options[] = {
    { 0, "sort", "KEY", "time (default), calls, name or address: prof's -t, -c, -n, -a", 0 },
    { 0, "zero", NULL, "list routines with no calls and no time too (prof -z)", 0 },
    { 0, "addresses", NULL, "print each routine's entry address in hex (prof -x)", 0 },
    { 0, "digits", "N", "decimals of Seconds and Cumsecs (2-9; default 2)", 0 },
    { 0 }
};

const fst_format fst_format_prof = {
    "prof", "System V prof(1) listing: %Time Seconds Cumsecs #Calls msec/call Name", 0,
    prof_options, prof_init, NULL, prof_write, NULL, FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE,
    1,  /* flat: calls and self time */
};
