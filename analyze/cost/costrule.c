/*
** analyze/cost/costrule.c — the class rules of the cost model (costrule.h): the table by
** mnemonic, the class rows a table may define, and, once a table is loaded, the pricing
** of every opcode it has no row for: by its rule when the table allows, else at the
** default (the median of the table's rows of its class).
*/
#include "analyze/cost/clock_int.h"
#include "analyze/cost/costrule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RULE_(m, r) { #m, r },
static const fst_cost_rule rules[] = { RULES_ALL(RULE_) };

static const char *const classes[] = { "@control", "@fp", "@vector", NULL };

const fst_cost_rule *fst_cost_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

const char *const *fst_cost_classes(void) { return classes; }

const char *fst_cost_rule_default(const fst_opinfo *oi)
{
    /* vector instructions (E6xx, E7xx) without a rule of their own */
    if (oi->code[0] == 'E' && (oi->code[1] == '6' || oi->code[1] == '7') && oi->code[2])
        return "@vector";
    return NULL;
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

/* The k-th smallest of v[0..n) (k < n), v reordered so that v[0..k) are no larger: Wirth's
** selection, linear on average (sorting every class was a twentieth of the start-up). */
static int64_t nth(int64_t *v, size_t n, size_t k)
{
    ptrdiff_t l = 0, r = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (l < r) {
        int64_t x = v[kk];
        ptrdiff_t i = l, j = r;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                int64_t t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            r = j;
    }
    return v[kk];
}

/* As the sorted array's middle (the mean of the two middle values when n is even). */
static int64_t median(int64_t *v, size_t n)
{
    int64_t hi = nth(v, n, n / 2);
    if (n % 2)
        return hi;
    int64_t lo = v[0];   /* the largest of the lower half: v[0..n/2) */
    for (size_t i = 1; i < n / 2; i++)
        lo = v[i] > lo ? v[i] : lo;
    return (lo + hi) / 2;
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
static const char **rules_by_op(const fst_opnames *ix)
{
    unsigned nops = fst_op_count();
    const char **by = fst_xmalloc(nops * sizeof *by);
    by[0] = NULL;
    for (unsigned op = 1; op < nops; op++)  /* the default, then the rule of its own */
        by[op] = fst_cost_rule_default(fst_op_info(op));
    size_t n;
    const fst_cost_rule *r = fst_cost_rules(&n);
    for (size_t i = 0; i < n; i++) {
        int op = fst_opnames_find(ix, r[i].mnem);
        if (op > 0)
            by[op] = r[i].rule;
    }
    return by;
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

/* The first n bytes of s, cut to what a[16] holds, as snprintf would (a rule's names:
** snprintf was a fifth of the start-up, once per rule). */
static void copy_name(char a[16], const char *s, size_t n)
{
    n = n < 15 ? n : 15;
    memcpy(a, s, n);
    a[n] = 0;
}

/* What a rule text names, found once per text: ~970 rules name ~150 texts, so looking the
** names up for every rule was a fifth of the start-up. Keyed by the text's address (the
** rules' literals); two copies of one text are two keys, which costs a look-up, no more. */
typedef struct target {
    const char *rule;   /* NULL: a free slot */
    int16_t x, y;       /* "X" or "X+Y": op ids, -1 when the decoder has none (y 0 without
                           '+'); "@class": x the class index, -1 when unknown */
    int16_t plus;       /* "X+Y" */
} target;

enum { NTARGET = 512 };   /* zeroed at every start: no larger than the ~150 texts need */
typedef struct targets {
    target t[NTARGET];
    size_t n;
} targets;

static int class_index(const char *name)
{
    const char *const *names = fst_cost_classes();
    for (int k = 0; names[k] && k < NCLASS; k++)
        if (!strcasecmp(names[k], name))
            return k;
    return -1;
}

static target target_of(targets *m, const fst_opnames *ix, const char *r)
{
    size_t i = (size_t)(((uint64_t)(uintptr_t)r * UINT64_C(0x9E3779B97F4A7C15)) >> 55); /* 9 bits */
    for (; m->t[i].rule; i = (i + 1) % NTARGET)
        if (m->t[i].rule == r)
            return m->t[i];
    target t = { r, -1, 0, 0 };
    if (r[0] == '@') {
        t.x = (int16_t)class_index(r);
    } else {
        char a[16] = "", b[16] = "";
        const char *plus = strchr(r, '+');
        copy_name(a, r, plus ? (size_t)(plus - r) : strlen(r));
        if (plus)
            copy_name(b, plus + 1, strlen(plus + 1));
        t.x = (int16_t)fst_opnames_find(ix, a);   /* op ids < 4096 (fst_opnames) */
        t.y = (int16_t)(plus ? fst_opnames_find(ix, b) : 0);
        t.plus = plus != NULL;
    }
    if (m->n < NTARGET / 4 * 3) { /* room enough that a probe ends soon */
        m->t[i] = t;
        m->n++;
    }
    return t;
}

/* Price op by its rule when the table allows: 1 when op has a row or a rule now. The
** instruction a rule names may itself be priced by its own rule (depth bounds chains). */
static int apply_rule(fst_clock *c, const fst_opnames *ix, targets *m, const char **rule_of, unsigned op, int depth)
{
    entry *e = &c->ents[op];
    const char *r = rule_of[op];
    if (e->how != FST_PRICE_DEFAULT)
        return 1;
    if (!r || depth > 4)
        return 0;
    target t = target_of(m, ix, r);
    if (r[0] == '@') {
        if (t.x < 0 || !c->cls[t.x].set)
            return 0;
        e->v[V_ANY] = c->cls[t.x];
        e->pick[0] = e->pick[1] = V_ANY;
    } else {
        if (t.x <= 0 || !apply_rule(c, ix, m, rule_of, (unsigned)t.x, depth + 1))
            return 0;
        if (!t.plus) {
            const entry *ex = &c->ents[t.x];
            memcpy(e->v, ex->v, sizeof e->v);
            memcpy(e->pick, ex->pick, sizeof e->pick);
            e->digit_l2 = ex->digit_l2;
        } else if (t.y <= 0 || !apply_rule(c, ix, m, rule_of, (unsigned)t.y, depth + 1) ||
                   !sum_rows(e, &c->ents[t.x], &c->ents[t.y])) {
            return 0;
        }
    }
    e->how = FST_PRICE_RULE;
    e->rule = r;
    return 1;
}

/* After loading: the row each outcome picks; then the class rules, then the class
** medians for the instructions without rows. */
void fst_clock_resolve(fst_clock *c, const fst_opnames *ix)
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
    const char **rule_of = rules_by_op(ix);
    targets *m = fst_xcalloc(1, sizeof *m);
    for (unsigned op = 1; op < nops; op++)
        apply_rule(c, ix, m, rule_of, op, 0);
    free(m);
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

