/* formats/fortstat_stmt.c — FORTSTAT's optional per-statement section (--statements=N,
** issue 34): where in its hottest routines the time went, statement by statement; see
** formats.h. FORTSTAT itself stopped at routines; this follows its listing's form. */
#include "formats/formats.h"
#include "formats/stmtprof.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_ROWS = 20 };

static int put(FILE *out, int asa, char cc, const char *text)
{
    if (asa)
        return fprintf(out, "%c%-132.132s\n", cc, text) < 0 ? -1 : 0;
    return fprintf(out, "%s\n", text) < 0 ? -1 : 0;
}

static const struct fst_stmtrow *const *sort_rows;
static int by_time(const void *a, const void *b)
{
    const fst_stmtrow *x = sort_rows[*(const size_t *)a], *y = sort_rows[*(const size_t *)b];
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    if (x->insns != y->insns)
        return x->insns < y->insns ? 1 : -1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* " 16.2": part of whole in tenths of a percent, integers only */
static void pct(char *buf, size_t cap, fst_fx part, fst_fx whole)
{
    unsigned long long t = whole ? (unsigned long long)(((__uint128_t)part * 1000 + whole / 2) / whole) : 0;
    if (t > 1000)
        t = 1000;   /* a part is never more than its whole: at most "100.0" */
    snprintf(buf, cap, "%5u.%u", (unsigned)(t / 10), (unsigned)(t % 10));
}

static int routine(FILE *out, const fst_profile *p, const fst_fortstat_opts *o, const fst_stmt_tab *t,
                   const fst_stmtrow *rows, size_t nrows, size_t ri, int digits)
{
    const fst_routine *r = &p->r[ri];
    const fst_stmtrow **mine = fst_xcalloc(nrows + 1, sizeof *mine);
    size_t n = 0, *ix = fst_xcalloc(nrows + 1, sizeof *ix);
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].routine == ri) {
            ix[n] = n;
            mine[n++] = &rows[i];
        }
    sort_rows = mine;
    if (n)
        qsort(ix, n, sizeof *ix, by_time);
    char buf[600], nm[sizeof r->name], sec[32], pc[16], file[256], line[64], txt[200];
    int w = 12 + digits - 2, rc;
    pct(pc, sizeof pc, r->self_cost, p->total_cost);
    const char *pcs = pc;
    while (*pcs == ' ')
        pcs++;
    snprintf(buf, sizeof buf, "STATEMENTS OF %s  (%s%% of TOTAL; executions, time and share of its time)",
             fst_printable(r->name, nm, sizeof nm), pcs);
    rc = o->asa ? 0 : put(out, 0, ' ', "");     /* ASA: '0' spaces it */
    if (!rc)
        rc = put(out, o->asa, '0', buf);
    snprintf(buf, sizeof buf, " %-24s %10s %*s %6s  %s", "STATEMENT", "EXECUTIONS", w, "TIME (SEC)", "%", "SOURCE");
    if (!rc)
        rc = put(out, o->asa, ' ', buf);
    fst_fx rest = 0;
    uint64_t rest_n = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const fst_stmtrow *s = mine[ix[k]];
        if (k >= MAX_ROWS) {
            rest += s->cost;
            rest_n++;
            continue;
        }
        fst_stmtprof_names(t, s->group, file, sizeof file, line, sizeof line);
        const char *base = strrchr(file, '/');
        char where[400];
        if (s->group == FST_SP_NOSTMT)
            snprintf(where, sizeof where, "(no statement)");
        else
            snprintf(where, sizeof where, "%s:%s", base ? base + 1 : file, line);
        const fst_stmt *st = s->group == FST_SP_NOSTMT ? NULL : fst_stmt_of(t, fst_stmt_span_at(t, s->group), 0);
        fst_printable(st && st->text ? st->text : "", txt, sizeof txt);
        const char *tx = txt;
        while (*tx == ' ' || *tx == '\t')
            tx++;
        fst_fmt_secn(s->cost, digits, sec);
        pct(pc, sizeof pc, s->cost, r->self_cost);
        snprintf(buf, sizeof buf, " %-24.24s %10llu %*s %6s  %.80s", where, (unsigned long long)s->execs, w, sec, pc, tx);
        rc = put(out, o->asa, ' ', buf);
    }
    if (!rc && rest_n) {
        fst_fmt_secn(rest, digits, sec);
        pct(pc, sizeof pc, rest, r->self_cost);
        snprintf(buf, sizeof buf, " %-24s %10s %*s %6s", "", "", w, sec, pc);
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "  (%llu more statements)", (unsigned long long)rest_n);
        rc = put(out, o->asa, ' ', buf);
    }
    free(mine);
    free(ix);
    return rc;
}

int fst_write_fortstat_stmts(FILE *out, const fst_profile *p, const fst_fortstat_opts *o, const fst_stmt_tab *t,
                             const fst_stmtrow *rows, size_t nrows, int nhot)
{
    if (!t || !rows)
        return 0;
    int digits = fst_fortstat_digits(p, o), rc = 0;
    size_t *ix = fst_xcalloc(p->nr + 1, sizeof *ix), n = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed && p->r[i].self_insns)
            ix[n++] = i;
    for (int k = 0; k < nhot && (size_t)k < n && !rc; k++) {   /* selection: the next hottest */
        size_t best = (size_t)k;
        for (size_t j = (size_t)k + 1; j < n; j++)
            if (p->r[ix[j]].self_cost > p->r[ix[best]].self_cost)
                best = j;
        size_t x = ix[k];
        ix[k] = ix[best];
        ix[best] = x;
        rc = routine(out, p, o, t, rows, nrows, ix[k], digits);
    }
    free(ix);
    return rc;
}
