/*
** analyze/clock.c — see clock.h.
**
** A model clock is an array indexed by the decoder's op id, so pricing an instruction
** is one index plus, for length-dependent rows, one multiply: the replayer calls it for
** every instruction. Figures are kept in picoseconds as read (exact for up to three
** decimals of ns) and turned into fx (512 per ps) per instruction, with no rounding.
*/
#include "analyze/clock.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { U_NONE, U_BYTE, U_REG, U_DIGIT };
enum { V_ANY, V_TAKEN, V_NOT, V_COUNT };
enum { CL_REG, CL_STOR, CL_SS, CL_COUNT };

typedef struct row {
    int64_t base_ps, per_ps;
    fst_fx flat;        /* U_NONE: the whole cost */
    uint8_t unit;
    uint8_t set;
    unsigned line;      /* where the row was (for duplicate messages) */
} row;

typedef struct entry {
    row v[V_COUNT];
    uint8_t pick[2];    /* the row for not taken [0] / taken [1] */
    uint8_t modeled;    /* 0: no row of its own: priced by a rule or the default, counted */
    uint8_t digit_l2;   /* "digit" counts the second operand (UNPK) */
    uint8_t how;        /* FST_PRICE_ROW, _RULE or _DEFAULT */
    const char *rule;   /* FST_PRICE_RULE: the rule (costrule.h) */
} entry;

enum { NCLASS = 8 };

struct fst_clock {
    int kind;
    char *name;
    fst_fx mips;              /* FST_CLOCK_MIPS: every instruction */
    entry *ents;              /* FST_CLOCK_MODEL: fst_op_count() entries */
    fst_fx dflt[CL_COUNT];    /* class medians, for unknown opcodes */
    row cls[NCLASS];          /* the table's class rows, as fst_cost_classes() names them */
    uint64_t *unmod;          /* per op id: priced without a row */
    fst_clock_stats st;
};

/* ---- numbers ---- */

/* Decimal nanoseconds ("57.2", "-1937.3") to picoseconds, rounded half away from zero
** at the picosecond. At most 1 second either way. */
static int parse_ps(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = 0, digits = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    int64_t ip = 0;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        if (ip > INT64_C(10000000000))
            return -2; /* keep going would overflow; far out of range anyway */
        ip = ip * 10 + (*p - '0');
    }
    int64_t frac = 0;
    int nfrac = 0, up = 0;
    if (*p == '.') {
        for (p++; isdigit((unsigned char)*p); p++, digits++, nfrac++) {
            if (nfrac < 3)
                frac = frac * 10 + (*p - '0');
            else if (nfrac == 3)
                up = *p >= '5';
        }
    }
    if (!digits || *p)
        return -1;
    for (int k = nfrac; k < 3; k++)
        frac *= 10;
    int64_t ps = ip * 1000 + frac + up;
    if (ps > INT64_C(1000000000000)) /* 1 s */
        return -2;
    *out = neg ? -ps : ps;
    return 0;
}

/* A MIPS rate "4.66" as num/den, den a power of ten; -1 if not a plain decimal. */
static int parse_rate(const char *s, uint64_t *num, uint64_t *den)
{
    const char *p = s;
    uint64_t n = 0, d = 1;
    int digits = 0;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        if (n > UINT64_C(100000000))
            return -1;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        int nf = 0;
        for (p++; isdigit((unsigned char)*p); p++, digits++, nf++) {
            if (nf == 9)
                return -1;
            n = n * 10 + (uint64_t)(*p - '0');
            d *= 10;
        }
    }
    if (!digits || *p)
        return -1;
    *num = n;
    *den = d;
    return 0;
}

static fst_fx ps_to_fx(int64_t ps)
{
    if (ps <= 0)
        return 0;
    if ((uint64_t)ps > UINT64_MAX / FST_FX_PER_PS)
        return UINT64_MAX;
    return (uint64_t)ps * FST_FX_PER_PS;
}

uint64_t fst_fx_to_tod(fst_fx x)
{
    return x / FST_FX_PER_TOD + (x % FST_FX_PER_TOD >= FST_FX_PER_TOD / 2);
}

double fst_fx_to_sec(fst_fx x)
{
    /* whole seconds and the rest separately, so large totals keep their fraction */
    return (double)(x / FST_FX_PER_SEC) + (double)(x % FST_FX_PER_SEC) / (double)FST_FX_PER_SEC;
}

/* ---- the spec ---- */

int fst_clock_parse(const char *spec, fst_clock_spec *out, fst_err *err)
{
    memset(out, 0, sizeof *out);
    if (!spec || !strcmp(spec, "model")) {
        out->kind = FST_CLOCK_MODEL;
        return 0;
    }
    if (!strncmp(spec, "model:", 6)) {
        if (!spec[6])
            return fst_errf(err, "clock '%s': missing the file name (model:FILE)", spec);
        out->kind = FST_CLOCK_MODEL;
        out->file = spec + 6;
        return 0;
    }
    if (!strcmp(spec, "mips"))
        return fst_errf(err, "clock 'mips': missing the rate (mips:R, e.g. mips:4.66)");
    if (!strncmp(spec, "mips:", 5)) {
        const char *r = spec + 5;
        if (!*r)
            return fst_errf(err, "clock '%s': missing the rate (mips:R, e.g. mips:4.66)", spec);
        if (parse_rate(r, &out->mips_num, &out->mips_den) < 0)
            return fst_errf(err, "clock '%s': bad rate '%s': expected a decimal number of MIPS "
                            "such as 4.66 (at most 9 decimals)", spec, r);
        /* 0.001 <= R <= 1000000 */
        if (out->mips_num > UINT64_C(1000000) * out->mips_den ||
            out->mips_num * 1000 < out->mips_den)
            return fst_errf(err, "clock '%s': rate %s out of range: it must be between 0.001 and "
                            "1000000 MIPS", spec, r);
        out->kind = FST_CLOCK_MIPS;
        return 0;
    }
    if (!*spec)
        return fst_errf(err, "clock '': empty (expected mips:R or model[:FILE])");
    return fst_errf(err, "clock '%s': unknown clock (expected mips:R or model[:FILE])", spec);
}

static char *xasprintf(const char *fmt, ...) FST_PRINTF(1, 2);
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = fst_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

fst_clock *fst_clock_new(const fst_clock_spec *spec, fst_err *err)
{
    if (spec->kind == FST_CLOCK_MODEL) {
        if (spec->file)
            return fst_clock_load(spec->file, err);
        char *path = fst_clock_default_model(err);
        if (!path)
            return NULL;
        fst_clock *c = fst_clock_load(path, err);
        free(path);
        if (c) { /* the shipped table, wherever it is installed: reports say just "model" */
            free(c->name);
            c->name = xasprintf("model");
        }
        return c;
    }
    if (spec->kind != FST_CLOCK_MIPS || !spec->mips_num || !spec->mips_den) {
        fst_errf(err, "clock: bad specification");
        return NULL;
    }
    fst_clock *c = fst_xcalloc(1, sizeof *c);
    c->kind = FST_CLOCK_MIPS;
    /* 1/R us = den/num us, to the nearest fx, ties up */
    uint64_t num = spec->mips_num, den = spec->mips_den;
    c->mips = (2 * FST_FX_PER_US * den + num) / (2 * num);
    /* the name as the rate reads: num/den with den a power of ten */
    uint64_t ip = num / den, fp = num % den;
    int places = 0;
    for (uint64_t d = den; d > 1; d /= 10)
        places++;
    if (places)
        c->name = xasprintf("mips:%llu.%0*llu", (unsigned long long)ip, places,
                            (unsigned long long)fp);
    else
        c->name = xasprintf("mips:%llu", (unsigned long long)ip);
    return c;
}

fst_clock *fst_clock_open(const char *spec, fst_err *err)
{
    fst_clock_spec s;
    if (fst_clock_parse(spec, &s, err) < 0)
        return NULL;
    return fst_clock_new(&s, err);
}

void fst_clock_free(fst_clock *c)
{
    if (!c)
        return;
    free(c->ents);
    free(c->unmod);
    free(c->name);
    free(c);
}

/* ---- the default table ---- */

static int readable(const char *path) { return access(path, R_OK) == 0; }

char *fst_clock_default_model(fst_err *err)
{
    static const char *const rel[] = { "/../share/fst/", "/../../../data/" };
    const char *v;
    char *p;

    if ((v = getenv("FST_DATA")) && *v) {
        p = xasprintf("%s/%s", v, FST_CLOCK_DEFAULT_FILE);
        if (readable(p))
            return p;
        free(p);
    }
    if ((v = getenv("FST_ROOT")) && *v) {
        p = xasprintf("%s/data/%s", v, FST_CLOCK_DEFAULT_FILE);
        if (readable(p))
            return p;
        free(p);
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                p = xasprintf("%s%s%s", exe, rel[i], FST_CLOCK_DEFAULT_FILE);
                if (readable(p))
                    return p;
                free(p);
            }
        }
    }
    p = xasprintf("data/%s", FST_CLOCK_DEFAULT_FILE);
    if (readable(p))
        return p;
    free(p);
    fst_errf(err, "clock 'model': the default cost table %s was not found (looked in "
             "$FST_DATA, $FST_ROOT/data, <program dir>/../share/fst, the build tree's data/, "
             "./data); give --clock=model:FILE or set FST_DATA to its folder",
             FST_CLOCK_DEFAULT_FILE);
    return NULL;
}

/* ---- the model table ---- */

enum { COL_MNEM, COL_OPCODE, COL_VARIANT, COL_UNIT, COL_BASE, COL_PER, COL_SOURCE, NCOL };
static const char *const colname[NCOL] = {
    "mnemonic", "opcode", "variant", "unit", "base_ns", "per_unit_ns", "source",
};

typedef struct loader {
    const char *path;
    fst_clock *c;
    fst_err *err;
    int failed;
    unsigned line;      /* physical line being read */
    unsigned rec_line;  /* the line the current record started on */
    char **f;           /* the current record's fields */
    size_t nf, cap;
    int have_header;
    size_t ncols;
    int col[NCOL];      /* field index of each known column, -1 when absent */
    size_t nrows;
} loader;

/* Record the first error, naming the file and the record's line; returns -1. */
static int lfail(loader *ld, const char *fmt, ...) FST_PRINTF(2, 3);
static int lfail(loader *ld, const char *fmt, ...)
{
    if (ld->failed)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fst_errf(ld->err, "%s:%u: %s", ld->path, ld->rec_line, msg);
    ld->failed = 1;
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static void on_field(void *s, size_t len, void *data)
{
    loader *ld = data;
    if (ld->nf == ld->cap) {
        ld->cap = ld->cap ? 2 * ld->cap : 16;
        ld->f = fst_xrealloc(ld->f, ld->cap * sizeof *ld->f);
    }
    char *v = fst_xmalloc(len + 1);
    if (len)
        memcpy(v, s, len);
    v[len] = 0;
    ld->f[ld->nf++] = v;
}

static int do_header(loader *ld)
{
    for (int k = 0; k < NCOL; k++)
        ld->col[k] = -1;
    for (size_t i = 0; i < ld->nf; i++) {
        const char *name = trim(ld->f[i]);
        for (int k = 0; k < NCOL; k++) {
            if (strcasecmp(name, colname[k]))
                continue;
            if (ld->col[k] >= 0)
                return lfail(ld, "column '%s' appears twice in the header", colname[k]);
            ld->col[k] = (int)i;
        }
    }
    if (ld->col[COL_MNEM] < 0)
        return lfail(ld, "missing column 'mnemonic' in the header (it needs at least "
                     "mnemonic and base_ns)");
    if (ld->col[COL_BASE] < 0)
        return lfail(ld, "missing column 'base_ns' in the header (it needs at least "
                     "mnemonic and base_ns)");
    ld->ncols = ld->nf;
    ld->have_header = 1;
    return 0;
}

static const char *field(loader *ld, int k)
{
    return ld->col[k] < 0 ? "" : trim(ld->f[ld->col[k]]);
}

static const char *const unitname[] = { "-", "byte", "reg", "digit" };
static const char *const variantname[] = { "(no variant)", "taken", "not-taken" };

/* A class row: "@vector,,,-,57.2,0,why": the figure of a class rule (costrule.h). */
static int do_class_row(loader *ld, const char *mn)
{
    const char *const *names = fst_cost_classes();
    int k = 0;
    while (names[k] && strcasecmp(names[k], mn))
        k++;
    if (!names[k])
        return lfail(ld, "unknown class '%s' (the classes are @control, @fp and @vector)", mn);
    if (*field(ld, COL_OPCODE) || *field(ld, COL_VARIANT))
        return lfail(ld, "class row %s: no opcode and no variant", names[k]);
    const char *us = field(ld, COL_UNIT), *bs = field(ld, COL_BASE), *ps = field(ld, COL_PER);
    if (*us && strcmp(us, "-"))
        return lfail(ld, "class row %s: unit '%s', a class row is flat (-)", names[k], us);
    int64_t base, per = 0;
    int rc = parse_ps(bs, &base);
    if (rc < 0 || base < 0)
        return lfail(ld, "class row %s: bad base_ns '%s'", names[k], bs);
    if (*ps && (parse_ps(ps, &per) < 0 || per != 0))
        return lfail(ld, "class row %s: per_unit_ns must be 0", names[k]);
    row *r = &ld->c->cls[k];
    if (r->set)
        return lfail(ld, "duplicate class row %s (first at line %u)", names[k], r->line);
    *r = (row){ .base_ps = base, .flat = ps_to_fx(base), .unit = U_NONE, .set = 1, .line = ld->rec_line };
    return 0;
}

static int do_row(loader *ld)
{
    if (ld->nf != ld->ncols)
        return lfail(ld, "%zu fields, the header has %zu", ld->nf, ld->ncols);

    const char *mn = field(ld, COL_MNEM);
    if (!*mn)
        return lfail(ld, "empty mnemonic");
    if (*mn == '@')
        return do_class_row(ld, mn);
    int op = fst_op_find(mn);
    if (op < 0)
        return lfail(ld, "unknown mnemonic '%s' (the decoder has no such instruction)", mn);
    const fst_opinfo *oi = fst_op_info((unsigned)op);

    const char *code = field(ld, COL_OPCODE);
    if (*code && strcasecmp(code, oi->code))
        return lfail(ld, "opcode %s does not match %s (%s)", code, oi->mnem, oi->code);

    const char *vs = field(ld, COL_VARIANT);
    int var;
    if (!*vs)
        var = V_ANY;
    else if (!strcasecmp(vs, "taken"))
        var = V_TAKEN;
    else if (!strcasecmp(vs, "not-taken") || !strcasecmp(vs, "not taken") ||
             !strcasecmp(vs, "nottaken"))
        var = V_NOT;
    else
        return lfail(ld, "unknown variant '%s' (expected empty, taken or not-taken)", vs);
    if (var != V_ANY && !(oi->flags & FST_I_BRANCH))
        return lfail(ld, "variant '%s' given for %s, which is not a branch", vs, oi->mnem);

    const char *us = field(ld, COL_UNIT);
    int unit = -1;
    if (!*us)
        unit = U_NONE;
    for (int k = 0; k < 4 && unit < 0; k++)
        if (!strcasecmp(us, unitname[k]))
            unit = k;
    if (unit < 0)
        return lfail(ld, "unknown unit '%s' (expected -, byte, reg or digit)", us);
    int applies = unit == U_NONE ||
                  (unit == U_BYTE && (oi->nlen > 0 || (oi->flags & FST_I_REGLEN))) ||
                  (unit == U_REG && (oi->flags & FST_I_REGLIST)) ||
                  (unit == U_DIGIT && oi->nlen == 2);
    if (!applies)
        return lfail(ld, "unit '%s' does not apply to %s (it has no such count)", us, oi->mnem);

    int64_t base, per = 0;
    const char *bs = field(ld, COL_BASE), *ps = field(ld, COL_PER);
    int rc = parse_ps(bs, &base);
    if (rc < 0)
        return lfail(ld, rc == -2 ? "base_ns '%s' out of range (at most 1 s)"
                                  : "bad number '%s' in base_ns", bs);
    if (*ps && (rc = parse_ps(ps, &per)) < 0)
        return lfail(ld, rc == -2 ? "per_unit_ns '%s' out of range (at most 1 s)"
                                  : "bad number '%s' in per_unit_ns", ps);
    if (unit == U_NONE && per != 0)
        return lfail(ld, "per_unit_ns %s given but the unit is '-'", ps);
    if (unit == U_NONE && base < 0)
        return lfail(ld, "negative base_ns %s with no unit", bs);

    entry *e = &ld->c->ents[op];
    row *r = &e->v[var];
    if (r->set)
        return lfail(ld, "duplicate row for %s %s (first at line %u)", oi->mnem,
                     variantname[var], r->line);
    r->set = 1;
    r->line = ld->rec_line;
    r->unit = (uint8_t)unit;
    r->base_ps = base;
    r->per_ps = per;
    r->flat = ps_to_fx(base);
    e->modeled = 1;
    e->digit_l2 = !strcmp(oi->mnem, "UNPK");
    ld->nrows++;
    return 0;
}

static void on_record(int term, void *data)
{
    (void)term;
    loader *ld = data;
    if (!ld->failed) {
        if (!ld->have_header)
            do_header(ld);
        else
            do_row(ld);
    }
    for (size_t i = 0; i < ld->nf; i++)
        free(ld->f[i]);
    ld->nf = 0;
}

static int class_of_fmt(int fmt)
{
    switch (fmt) {
    case FST_FMT_RR: case FST_FMT_RRE: case FST_FMT_RRF: case FST_FMT_RI: case FST_FMT_RIL:
    case FST_FMT_RIE: case FST_FMT_E: case FST_FMT_I: case FST_FMT_IE: case FST_FMT_VRR:
    case FST_FMT_VRI:
        return CL_REG;
    case FST_FMT_SS: case FST_FMT_SSE: case FST_FMT_SSF:
        return CL_SS;
    default:
        return CL_STOR;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t median(int64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_i64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The class medians: the default of an instruction with neither row nor rule. */
static void medians(fst_clock *c, int64_t med[CL_COUNT])
{
    unsigned nops = fst_op_count();
    int64_t *vals[CL_COUNT], *all = fst_xmalloc(nops * sizeof *all);
    size_t n[CL_COUNT] = { 0 }, nall = 0;
    for (int k = 0; k < CL_COUNT; k++)
        vals[k] = fst_xmalloc(nops * sizeof *vals[k]);
    for (unsigned op = 1; op < nops; op++) {
        entry *e = &c->ents[op];
        if (!e->modeled)
            continue;
        const row *r = e->v[V_ANY].set ? &e->v[V_ANY] : e->v[V_TAKEN].set ? &e->v[V_TAKEN]
                                                                          : &e->v[V_NOT];
        int k = class_of_fmt(fst_op_info(op)->fmt);
        vals[k][n[k]++] = r->base_ps;
        all[nall++] = r->base_ps;
    }
    int64_t mall = median(all, nall); /* nall > 0: the loader checked */
    for (int k = 0; k < CL_COUNT; k++) {
        med[k] = n[k] ? median(vals[k], n[k]) : mall;
        c->dflt[k] = ps_to_fx(med[k]);
        free(vals[k]);
    }
    free(all);
}

/* The rule of every op id (costrule.h; vector ones by default), or NULL. */
static const char **rules_by_op(void)
{
    unsigned nops = fst_op_count();
    const char **by = fst_xcalloc(nops, sizeof *by);
    size_t n;
    const fst_cost_rule *r = fst_cost_rules(&n);
    for (size_t i = 0; i < n; i++) {
        int op = fst_op_find(r[i].mnem);
        if (op > 0)
            by[op] = r[i].rule;
    }
    for (unsigned op = 1; op < nops; op++)
        if (!by[op])
            by[op] = fst_cost_rule_default(fst_op_info(op));
    return by;
}

static int class_index(const char *name)
{
    const char *const *names = fst_cost_classes();
    for (int k = 0; names[k] && k < NCLASS; k++)
        if (!strcasecmp(names[k], name))
            return k;
    return -1;
}

/* The sum of two flat entries, outcome by outcome (compare and branch: CR + BRC). */
static int sum_rows(entry *e, const entry *x, const entry *y)
{
    for (int t = 0; t < 2; t++) {
        const row *a = &x->v[x->pick[t]], *b = &y->v[y->pick[t]];
        if (a->unit != U_NONE || b->unit != U_NONE)
            return 0;
        int64_t ps = a->base_ps + b->base_ps;
        e->v[t ? V_TAKEN : V_NOT] = (row){ .base_ps = ps, .flat = ps_to_fx(ps), .unit = U_NONE, .set = 1 };
    }
    e->pick[0] = V_NOT;
    e->pick[1] = V_TAKEN;
    return 1;
}

/* Price op by its rule when the table allows: 1 when op has a row or a rule now. The
** instruction a rule names may itself be priced by its own rule (depth bounds chains). */
static int apply_rule(fst_clock *c, const char **rule_of, unsigned op, int depth)
{
    entry *e = &c->ents[op];
    const char *r = rule_of[op];
    if (e->how != FST_PRICE_DEFAULT)
        return 1;
    if (!r || depth > 4)
        return 0;
    if (r[0] == '@') {
        int k = class_index(r);
        if (k < 0 || !c->cls[k].set)
            return 0;
        e->v[V_ANY] = c->cls[k];
        e->pick[0] = e->pick[1] = V_ANY;
    } else {
        char a[16] = "", b[16] = "";
        const char *plus = strchr(r, '+');
        snprintf(a, sizeof a, "%.*s", plus ? (int)(plus - r) : (int)strlen(r), r);
        if (plus)
            snprintf(b, sizeof b, "%s", plus + 1);
        int x = fst_op_find(a), y = plus ? fst_op_find(b) : 0;
        if (x <= 0 || !apply_rule(c, rule_of, (unsigned)x, depth + 1))
            return 0;
        if (!plus) {
            const entry *ex = &c->ents[x];
            memcpy(e->v, ex->v, sizeof e->v);
            memcpy(e->pick, ex->pick, sizeof e->pick);
            e->digit_l2 = ex->digit_l2;
        } else if (y <= 0 || !apply_rule(c, rule_of, (unsigned)y, depth + 1) ||
                   !sum_rows(e, &c->ents[x], &c->ents[y])) {
            return 0;
        }
    }
    e->how = FST_PRICE_RULE;
    e->rule = r;
    return 1;
}

/* After loading: the row each outcome picks; then the class rules, then the class
** medians for the instructions without rows. */
static void finish(fst_clock *c)
{
    unsigned nops = fst_op_count();
    int64_t med[CL_COUNT];
    medians(c, med);
    for (unsigned op = 0; op < nops; op++) {
        entry *e = &c->ents[op];
        e->how = e->modeled ? FST_PRICE_ROW : FST_PRICE_DEFAULT;
        for (int t = 0; t < 2 && e->modeled; t++) {
            int want = t ? V_TAKEN : V_NOT, other = t ? V_NOT : V_TAKEN;
            e->pick[t] = (uint8_t)(e->v[want].set ? want : e->v[V_ANY].set ? V_ANY : other);
        }
    }
    const char **rule_of = rules_by_op();
    for (unsigned op = 1; op < nops; op++)
        apply_rule(c, rule_of, op, 0);
    free(rule_of);
    for (unsigned op = 0; op < nops; op++) {
        entry *e = &c->ents[op];
        if (e->how != FST_PRICE_DEFAULT)
            continue;
        int k = op ? class_of_fmt(fst_op_info(op)->fmt) : CL_REG;
        e->v[V_ANY] = (row){ .base_ps = med[k], .flat = c->dflt[k], .unit = U_NONE, .set = 1 };
        e->pick[0] = e->pick[1] = V_ANY;
    }
}

fst_clock *fst_clock_load(const char *path, fst_err *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fst_errno(err, "%s", path);
        return NULL;
    }
    fst_clock *c = fst_xcalloc(1, sizeof *c);
    c->kind = FST_CLOCK_MODEL;
    c->ents = fst_xcalloc(fst_op_count(), sizeof *c->ents);
    c->unmod = fst_xcalloc(fst_op_count(), sizeof *c->unmod);

    loader ld = { .path = path, .c = c, .err = err };
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fst_errf(err, "%s: cannot initialise the CSV parser", path);
        fclose(fp);
        fst_clock_free(c);
        return NULL;
    }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int inquote = 0; /* inside a quoted field that spans lines */
    while (!ld.failed && (len = getline(&buf, &cap, fp)) != -1) {
        ld.line++;
        if (!inquote) {
            /* a record starts here: comments and blank lines exist only between records */
            const char *s = buf;
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
                s++;
            if (*s == '#' || !*s)
                continue;
            ld.rec_line = ld.line;
        }
        for (ssize_t i = 0; i < len; i++)
            if (buf[i] == '"')
                inquote = !inquote;
        if (csv_parse(&p, buf, (size_t)len, on_field, on_record, &ld) != (size_t)len && !ld.failed) {
            ld.rec_line = ld.line; /* a quoting error is on this line */
            lfail(&ld, "malformed CSV: %s", csv_strerror(csv_error(&p)));
        }
    }
    if (!ld.failed && ferror(fp)) {
        fst_errno(err, "%s: read error", path);
        ld.failed = 1;
    }
    if (!ld.failed && csv_fini(&p, on_field, on_record, &ld) != 0 && !ld.failed)
        lfail(&ld, "malformed CSV: %s", csv_strerror(csv_error(&p)));
    csv_free(&p);
    for (size_t i = 0; i < ld.nf; i++)
        free(ld.f[i]);
    free(ld.f);
    free(buf);
    fclose(fp);

    if (!ld.failed && !ld.have_header) {
        fst_errf(err, "%s: no header line (expected mnemonic,opcode,variant,unit,base_ns,"
                 "per_unit_ns,source)", path);
        ld.failed = 1;
    } else if (!ld.failed && !ld.nrows) {
        fst_errf(err, "%s: no cost rows", path);
        ld.failed = 1;
    }
    if (ld.failed) {
        fst_clock_free(c);
        return NULL;
    }
    finish(c);
    c->name = xasprintf("model:%s", path);
    return c;
}

/* ---- pricing ---- */

static fst_fx price(const row *r, int64_t n)
{
    int64_t prod, ps;
    if (__builtin_mul_overflow(r->per_ps, n, &prod) || __builtin_add_overflow(r->base_ps, prod, &ps))
        ps = r->per_ps < 0 ? 0 : INT64_MAX;
    return ps_to_fx(ps);
}

fst_fx fst_clock_cost_n(fst_clock *c, const fst_insn *d, int taken, int64_t units)
{
    c->st.priced++;
    if (c->kind == FST_CLOCK_MIPS)
        return c->mips;
    if (d->op == FST_OP_UNKNOWN) {
        c->st.unmodeled++;
        c->unmod[0]++;
        return c->dflt[d->len == 2 ? CL_REG : d->len == 4 ? CL_STOR : CL_SS];
    }
    const entry *e = &c->ents[d->op];
    if (!e->modeled) {
        c->st.unmodeled++;
        c->unmod[d->op]++;
    }
    int t;
    if (!(d->flags & FST_I_CANBRANCH))
        t = 0;
    else if (!(d->flags & FST_I_COND))
        t = 1;
    else
        t = taken != 0; /* unknown: taken */
    const row *r = &e->v[e->pick[t]];
    if (r->unit == U_NONE)
        return r->flat;

    int64_t n = units;
    if (n < 0) {
        unsigned l1, l2;
        switch (r->unit) {
        case U_BYTE:
            if (fst_insn_lengths(d, &l1, &l2) > 0) {
                n = l1;
            } else { /* lengths in registers, unknown here; or a rule's row */
                c->st.no_length += (d->flags & FST_I_REGLEN) != 0;
                n = 0;
            }
            break;
        case U_REG:
            n = fst_insn_nregs(d);
            break;
        default: /* U_DIGIT; 0 for an instruction priced by a rule that has no digits */
            n = fst_insn_lengths(d, &l1, &l2) == 2 ? 2 * (int64_t)(e->digit_l2 ? l2 : l1) - 1 : 0;
            break;
        }
    }
    return price(r, n);
}

fst_fx fst_clock_cost(fst_clock *c, const fst_insn *d, int taken)
{
    return fst_clock_cost_n(c, d, taken, -1);
}

int fst_clock_kind(const fst_clock *c) { return c->kind; }
const char *fst_clock_name(const fst_clock *c) { return c->name; }
fst_fx fst_clock_mips_cost(const fst_clock *c) { return c->kind == FST_CLOCK_MIPS ? c->mips : 0; }
void fst_clock_stats_get(const fst_clock *c, fst_clock_stats *st) { *st = c->st; }

int fst_clock_how(const fst_clock *c, unsigned op, const char **rule)
{
    if (rule)
        *rule = NULL;
    if (c->kind == FST_CLOCK_MIPS)
        return FST_PRICE_RATE;
    if (op == FST_OP_UNKNOWN || op >= fst_op_count())
        return FST_PRICE_DEFAULT;
    const entry *e = &c->ents[op];
    if (rule && e->how == FST_PRICE_RULE)
        *rule = e->rule;
    return e->how;
}

const char *fst_clock_unmodeled_op(const fst_clock *c, size_t k, uint64_t *count)
{
    if (!c->unmod)
        return NULL;
    for (unsigned op = 0; op < fst_op_count(); op++) {
        if (!c->unmod[op])
            continue;
        if (k-- == 0) {
            if (count)
                *count = c->unmod[op];
            return fst_op_info(op)->mnem;
        }
    }
    return NULL;
}
