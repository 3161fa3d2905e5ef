/* formats/fortstat.c — FORTSTAT's STATOUT listing; see formats.h. */
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/uncertain.h"
#include "common/quote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One line; with ASA, padded to 132 characters after the control character. */
static int line(FILE *out, int asa, char cc, const char *text)
{
    if (asa)
        return fprintf(out, "%c%-132.132s\n", cc, text) < 0 ? -1 : 0;
    return fprintf(out, "%s\n", text) < 0 ? -1 : 0;
}

/* The decimals a short run needs: the fewest (3-9) at which the longest time shows two
** significant digits, when at two every routine's time rounds to .00; else 2. */
static int auto_digits(const fst_profile *p);
int fst_fortstat_digits(const fst_profile *p, const fst_fortstat_opts *o)
{
    return o->digits ? o->digits : auto_digits(p);
}

static int auto_digits(const fst_profile *p)
{
    fst_fx max = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed && p->r[i].self_cost > max)
            max = p->r[i].self_cost;
    if (!max || max >= FST_FX_PER_SEC / 200)
        return 2;
    int d = 3;
    for (fst_fx unit = FST_FX_PER_SEC / 1000; d < 9 && max < 10 * unit - unit / 2; unit /= 10)
        d++;
    return d;
}

static const fst_profile *sort_p;
static int sort_key;
static int by_key(const void *a, const void *b)
{
    const fst_routine *x = &sort_p->r[*(const size_t *)a], *y = &sort_p->r[*(const size_t *)b];
    int c = 0;
    if (sort_key == FST_FORTSTAT_BY_TIME)
        c = x->self_cost < y->self_cost ? 1 : x->self_cost > y->self_cost ? -1 : 0;
    else if (sort_key == FST_FORTSTAT_BY_CALLS)
        c = x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
    else if (sort_key == FST_FORTSTAT_BY_NAME)
        c = strcmp(x->name, y->name);
    return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* The timed routines in the order asked (address: load-module order, as FORTSTAT). */
static size_t *rows(const fst_profile *p, int key, size_t *n)
{
    size_t *ix = fst_xcalloc(p->nr + 1, sizeof *ix);
    *n = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed)
            ix[(*n)++] = i;
    sort_p = p;
    sort_key = key;
    if (key != FST_FORTSTAT_BY_ADDRESS)
        qsort(ix, *n, sizeof *ix, by_key);
    return ix;
}

/* "    45.3": a share of the total with one decimal, in integers, 8 columns. */
static void percent(char *buf, size_t cap, fst_fx part, fst_fx total)
{
    unsigned long long t = total ? (unsigned long long)(((__uint128_t)part * 1000 + total / 2) / total) : 0;
    snprintf(buf, cap, " %5llu.%llu", t / 10, t % 10);
}

/* formats/uncertain.h writes its footnote through this: a line of the listing. */
typedef struct lctx {
    FILE *out;
    int asa;
} lctx;
static int unc_line(void *ctx, int first, const char *text)
{
    const lctx *l = ctx;
    return line(l->out, l->asa, first ? '0' : ' ', text);
}

/* The rows --routine, --percent-limit and --top left out, as one row, so that the rows
** still add up to TOTAL. */
static int others(FILE *out, const fst_fortstat_opts *o, const fst_filter_left *left, int nw, int w, int digits,
                  fst_fx total)
{
    char buf[200], sec[32], pct[24] = "", name[40];
    fst_fmt_secn(left->self_cost, digits, sec);
    if (o->percent)
        percent(pct, sizeof pct, left->self_cost, total);
    snprintf(name, sizeof name, "(%llu OTHER%s)", (unsigned long long)left->rows, left->rows == 1 ? "" : "S");
    snprintf(buf, sizeof buf, " %-*s %10llu %*s%*s", nw, name, (unsigned long long)left->calls, w, sec,
             o->percent ? 8 : 0, pct);
    return line(out, o->asa, ' ', buf);
}

int fst_write_fortstat(FILE *out, const fst_profile *p, const fst_fortstat_opts *o)
{
    char buf[200], sec[32], pct[24] = "", nm[sizeof p->r[0].name];
    int digits = fst_fortstat_digits(p, o);
    int w = 12 + digits - 2;    /* the TIME (SEC) column, wider by each extra decimal */
    int nw = 8;                 /* the name column: FORTSTAT's 8, wider for a longer name */
    size_t n;
    size_t *ix = rows(p, o->sort, &n);
    fst_fx total = 0;
    uint64_t calls = 0;
    for (size_t k = 0; k < n; k++) {   /* TOTAL is every timed routine's, shown or not */
        total += p->r[ix[k]].self_cost;
        calls += p->r[ix[k]].calls;
    }
    fst_filter_left left;
    n = fst_filter_rows(o->filter, p, ix, n, total, &left);
    for (size_t k = 0; k < n; k++) {
        size_t len = strlen(fst_printable(p->r[ix[k]].name, nm, sizeof nm));
        if (len > (size_t)nw)
            nw = len > 40 ? 40 : (int)len;
    }
    if (left.rows && nw < 14)
        nw = 14;    /* "(N OTHERS)" */
    snprintf(buf, sizeof buf, "ROUTINE%*s  CALLED   TIME (SEC)", nw - 4, "");
    if (o->percent) /* over the column: the rows' length before it, then 8 columns */
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%*s%8s", nw + 13 + w - (int)strlen(buf), "", "%");
    if (!o->digits && digits > 2) /* a short run: say why the column is not FORTSTAT's */
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "   (%d decimals: every time rounds to .00 at 2)",
                 digits);
    int rc = line(out, o->asa, '1', buf);
    char inc[320];
    if (!rc && fst_fmt_window(p, inc, sizeof inc)) /* a part of the run (--window): said at the top */
        rc = line(out, o->asa, ' ', inc);
    if (!rc && fst_fmt_incomplete(p, inc, sizeof inc)) /* said at the top, and again at the end */
        rc = line(out, o->asa, ' ', inc);
    if (!rc && fst_unc_any(p, ix, n)) /* fst had to guess which task ran (analyze/tasks/tasks.h): the rows it touched */
        rc = line(out, o->asa, ' ', FST_UNC_HEADING);
    if (!rc)
        rc = line(out, o->asa, '0', "");
    for (size_t k = 0; k < n && !rc; k++) {
        const fst_routine *r = &p->r[ix[k]];
        fst_fmt_secn(r->self_cost, digits, sec);
        if (o->percent)
            percent(pct, sizeof pct, r->self_cost, total);
        snprintf(buf, sizeof buf, "%c%-*.*s %10llu %*s%*s%s", r->mainline ? '*' : ' ', nw, nw,
                 fst_printable(r->name, nm, sizeof nm), (unsigned long long)r->calls, w, sec, o->percent ? 8 : 0, pct,
                 fst_unc_mark(r));
        rc = line(out, o->asa, ' ', buf);
    }
    if (!rc && left.rows)
        rc = others(out, o, &left, nw, w, digits, total);
    if (!rc)
        rc = line(out, o->asa, ' ', "");
    fst_fmt_secn(total, digits, sec);
    if (o->percent)
        percent(pct, sizeof pct, total, total);
    snprintf(buf, sizeof buf, " %-*s %10llu %*s%*s", nw, "TOTAL", (unsigned long long)calls, w, sec, o->percent ? 8 : 0,
             pct);
    if (!rc)
        rc = line(out, o->asa, ' ', buf);
    lctx lc = { out, o->asa };
    if (!rc)
        rc = fst_unc_footnote(p, ix, n, unc_line, &lc);
    if (!rc && left.rows) {
        char said[600], msg[700];
        fst_filter_said(o->filter, said, sizeof said);
        snprintf(msg, sizeof msg, "(%llu OTHER%s): the timed routine%s %s left out", (unsigned long long)left.rows,
                 left.rows == 1 ? "" : "S", left.rows == 1 ? "" : "s", said);
        rc = line(out, o->asa, ' ', msg);
    }
    free(ix);
    if (!rc && fst_fmt_incomplete(p, inc, sizeof inc)) /* never a silently partial report */
        rc = line(out, o->asa, '0', inc);
    return rc;
}

static int options(const fst_fctx *fc, fst_fortstat_opts *o, fst_err *err)
{
    static const char *const keys[] = { "address", "time", "calls", "name" };
    memset(o, 0, sizeof *o);
    const char *s = fst_fopt(fc, "sort");
    if (s) {
        o->sort = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(s, keys[k]))
                o->sort = k;
        if (o->sort < 0)
            return fst_errf(err, "--sort: '%s' is not time, calls, name or address", s);
    }
    o->asa = fst_fopt(fc, "asa") != NULL;
    o->filter = fc->filter;
    const char *st = fst_fopt(fc, "statements");
    char *end;
    if (st && (strtol(st, &end, 10) < 1 || *end || strtol(st, NULL, 10) > 1000))
        return fst_errf(err, "--statements: the number of hottest routines to show, 1 to 1000, not '%s'", st);
    o->percent = fst_fopt(fc, "percent") != NULL;
    if (fst_digits_opt(fst_fopt(fc, "digits"), &o->digits, err) < 0)
        return -1;
    if (!fst_fopt(fc, "digits"))
        o->digits = 0; /* automatic */
    return 0;
}

static void *fortstat_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    fst_fortstat_opts o;
    return options(fc, &o, err) < 0 ? NULL : (void *)fc;  /* options good */
}

static int write_fortstat(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    fst_fortstat_opts o;
    if (options(fc, &o, err) < 0)
        return -1;
    const char *st = fst_fopt(fc, "statements");
    if (fst_write_fortstat(out, p, &o) ||
        (st && fst_write_fortstat_stmts(out, p, &o, fc->lines, fc->lrows, fc->nlrows, (int)strtol(st, NULL, 10))))
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static const fst_option fortstat_options[] = {
    { 0, "asa", NULL, "133-byte records with ASA carriage control, as STATOUT (RECFM=FBA)", 0 },
    { 0, "digits", "N", "decimals of the seconds (2-9; default 2, as FORTSTAT printed them, or more when every "
                        "time would round to .00, said in the header)", 0 },
    { 0, "percent", NULL, "a % column: each routine's share of the TOTAL", 0 },
    { 0, "statements", "N", "after TOTAL, the statements of the N hottest routines by time (needs --lines=FILE): "
      "executions, time, share and source text of each, hottest first", 0 },
    { 0, "sort", "KEY", "rows by time, calls, name or address (default: address, the load-module order)", 0 },
    { 0 }
};

const fst_format fst_format_fortstat = {
    "fortstat", "FORTSTAT's listing (1971): ROUTINE CALLED TIME (SEC), the mainline marked '*'", 0,
    fortstat_options, fortstat_init, NULL, write_fortstat, NULL, FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE,
    1,  /* flat: calls and self time */
};
