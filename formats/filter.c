/* formats/filter.c — --top, --percent-limit and --routine for every format; see filter.h. */
#include "formats/filter.h"
#include "common/opt.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fst_filter_top(fst_filter *f, const char *s, fst_err *err)
{
    if (fst_parse_u64(s, 10, &f->top) || f->top < 1 || f->top > 1000000000)
        return fst_errf(err, "--top: '%s' is not a number of rows from 1 to 1000000000", s);
    return 0;
}

/* 0 to 100 with at most one decimal, read in integers (no floating point anywhere). */
int fst_filter_limit(fst_filter *f, const char *s, fst_err *err)
{
    char ip[16];
    const char *dot = strchr(s, '.');
    size_t il = dot ? (size_t)(dot - s) : strlen(s);
    uint64_t whole = 0, tenth = 0;
    int bad = il == 0 || il >= sizeof ip || (dot && (dot[1] < '0' || dot[1] > '9' || dot[2]));
    if (!bad) {
        memcpy(ip, s, il);
        ip[il] = 0;
        bad = fst_parse_u64(ip, 10, &whole) || (ip[0] == '0' && (ip[1] == 'x' || ip[1] == 'X'));
        tenth = dot ? (uint64_t)(dot[1] - '0') : 0;
    }
    if (bad || whole > 100 || whole * 10 + tenth > 1000)
        return fst_errf(err, "--percent-limit: '%s' is not a per cent from 0 to 100 (one decimal at most)", s);
    f->limit_tenths = whole * 10 + tenth;
    f->have_limit = 1;
    return 0;
}

int fst_filter_routine(fst_filter *f, const char *pattern, fst_err *err)
{
    if (!*pattern)
        return fst_errf(err, "--routine: an empty name");
    if (f->npat == FST_FILTER_MAXPAT)
        return fst_errf(err, "--routine: more than %d of them (a glob such as 'SUB*' names many)", FST_FILTER_MAXPAT);
    f->fold[f->npat] = 0;
    f->pat[f->npat++] = pattern;
    return 0;
}

static void upper(const char *s, char *buf, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        buf[i] = (char)toupper((unsigned char)s[i]);
    buf[i] = 0;
}

/* fnmatch's FNM_CASEFOLD is GNU's only: the case is folded here, both sides upper case. */
static int match1(const fst_filter *f, size_t k, const char *name)
{
    if (!f->fold[k])
        return !fnmatch(f->pat[k], name, 0);
    char pu[256], nu[256];
    upper(f->pat[k], pu, sizeof pu);
    upper(name, nu, sizeof nu);
    return !fnmatch(pu, nu, 0);
}

int fst_filter_keeps(const fst_filter *f, const char *name)
{
    if (!f || !f->npat)
        return 1;
    for (size_t k = 0; k < f->npat; k++)
        if (match1(f, k, name))
            return 1;
    return 0;
}

unsigned char *fst_filter_keep_table(const fst_filter *f, const fst_profile *p)
{
    fst_filter b = *f;
    fst_err ignored;
    fst_filter_bind(&b, p, 0, &ignored);
    unsigned char *keep = fst_xcalloc(p->nr + 1, 1);
    for (size_t i = 0; i < p->nr; i++)
        keep[i] = (unsigned char)fst_filter_keeps(&b, p->r[i].name);
    return keep;
}

static int matches_any(fst_filter *f, size_t k, const fst_profile *p, int untimed)
{
    for (size_t i = 0; i < p->nr; i++)
        if ((untimed || p->r[i].timed) && match1(f, k, p->r[i].name))
            return 1;
    return 0;
}

/* The names a pattern could have meant: the first few timed routines, for the message. */
static void some_names(const fst_profile *p, int untimed, char *buf, size_t cap)
{
    size_t n = 0, shown = 0;
    buf[0] = 0;
    for (size_t i = 0; i < p->nr && n + 80 < cap; i++) {
        if (!untimed && !p->r[i].timed)
            continue;
        if (shown == 8) {
            n += (size_t)snprintf(buf + n, cap - n, ", ...");
            break;
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s%.64s", shown++ ? ", " : "", p->r[i].name);
    }
}

int fst_filter_bind(fst_filter *f, const fst_profile *p, int untimed, fst_err *err)
{
    for (size_t k = 0; f && k < f->npat; k++) {
        if (matches_any(f, k, p, untimed))
            continue;
        f->fold[k] = 1; /* 'suba' for SUBA: FORTRAN names are upper case, users type lower */
        if (matches_any(f, k, p, untimed))
            continue;
        char names[700];
        some_names(p, untimed, names, sizeof names);
        return fst_errf(err, "--routine=%s: no %sroutine of the program has that name (%s: %s)", f->pat[k],
                        untimed ? "" : "timed ", untimed ? "its routines" : "the timed ones",
                        names[0] ? names : "none");
    }
    return 0;
}

static const fst_profile *by_p;
static int by_self(const void *a, const void *b)
{
    const fst_routine *x = &by_p->r[*(const size_t *)a], *y = &by_p->r[*(const size_t *)b];
    if (x->self_cost != y->self_cost)
        return x->self_cost > y->self_cost ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A row left out: counted, its figures added to what the listing says it left out. */
static void leave(fst_filter_left *left, const fst_routine *r)
{
    left->rows++;
    left->calls += r->calls;
    left->self_insns += r->self_insns;
    left->self_cost += r->self_cost;
}

size_t fst_filter_rows(const fst_filter *f, const fst_profile *p, size_t *ix, size_t n, fst_fx whole,
                       fst_filter_left *left)
{
    memset(left, 0, sizeof *left);
    if (!f)
        return n;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        const fst_routine *r = &p->r[ix[k]];
        if (fst_filter_keeps(f, r->name) && fst_filter_tenths(r->self_cost, whole) >= f->limit_tenths)
            ix[m++] = ix[k];
        else
            leave(left, r);
    }
    if (!f->top || m <= f->top)
        return m;
    /* the heaviest `top` by self time (ties: load-module order), kept in the listing's order */
    size_t *s = fst_xcalloc(m + 1, sizeof *s), kept = 0;
    unsigned char *keep = fst_xcalloc(p->nr + 1, 1);
    memcpy(s, ix, m * sizeof *s);
    by_p = p;
    qsort(s, m, sizeof *s, by_self);
    for (size_t k = 0; k < f->top; k++)
        keep[s[k]] = 1;
    for (size_t k = 0; k < m; k++) {
        const fst_routine *r = &p->r[ix[k]];
        if (keep[ix[k]])
            ix[kept++] = ix[k];
        else
            leave(left, r);
    }
    free(keep);
    free(s);
    return kept;
}

void fst_filter_said(const fst_filter *f, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    if (!f)
        return;
    for (size_t k = 0; k < f->npat && n + 90 < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, "%s--routine=%.64s", n ? " " : "", f->pat[k]);
    if (f->have_limit && n + 40 < cap)
        n += (size_t)snprintf(buf + n, cap - n, "%s--percent-limit=%llu.%llu", n ? " " : "",
                              (unsigned long long)(f->limit_tenths / 10), (unsigned long long)(f->limit_tenths % 10));
    if (f->top && n + 40 < cap)
        snprintf(buf + n, cap - n, "%s--top=%llu", n ? " " : "", (unsigned long long)f->top);
}

uint64_t fst_filter_tenths(uint64_t part, uint64_t whole)
{
    return whole ? (uint64_t)(((__uint128_t)part * 1000 + whole / 2) / whole) : 0;
}
