/*
** analyze/cost/clock.c — see clock.h: the --clock specs, the default table's whereabouts and
** pricing. The model table is read by clock_load.c; the class rules are costrule.c.
**
** A model clock is an array indexed by the decoder's op id, so pricing an instruction
** is one index plus, for length-dependent rows, one multiply: the replayer calls it for
** every instruction. Figures are kept in picoseconds as read (exact for up to three
** decimals of ns) and turned into fx (512 per ps) per instruction, with no rounding.
*/
#include "analyze/cost/clock_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- numbers ---- */

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
    if (op == FST_OP_UNKNOWN || op >= c->nops)
        return FST_PRICE_DEFAULT;
    const entry *e = &c->ents[op];
    if (rule && e->how == FST_PRICE_RULE)
        *rule = e->rule;
    return e->how;
}

uint64_t fst_clock_unmodeled(const fst_clock *c, const uint64_t *mix)
{
    uint64_t n = 0;
    for (unsigned op = 0, nops = fst_op_count(); op < nops; op++)
        if (mix[op]) {
            int how = fst_clock_how(c, op, NULL);
            n += how == FST_PRICE_RULE || how == FST_PRICE_DEFAULT ? mix[op] : 0;
        }
    return n;
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

