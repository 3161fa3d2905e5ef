/* analyze/profile/pricing.c — see pricing.h. */
#include "analyze/profile/pricing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_count(const void *a, const void *b)
{
    const fst_unpriced *x = a, *y = b;
    if (x->how != y->how)
        return x->how == FST_PRICE_RULE ? -1 : 1;
    return x->insns != y->insns ? (x->insns < y->insns ? 1 : -1) : strcmp(x->mnem, y->mnem);
}

static int by_count_key(const void *a, const void *b)
{
    const fst_opcount *x = a, *y = b;
    return x->insns != y->insns ? (x->insns < y->insns ? 1 : -1) : (x->key > y->key) - (x->key < y->key);
}

void fst_pricing_of(fst_pricing *s, const fst_profile *p, const fst_clock *c)
{
    memset(s, 0, sizeof *s);
    unsigned nops = fst_op_count();
    s->ops = fst_xcalloc(nops, sizeof *s->ops);
    size_t n = 0;
    for (unsigned op = 1; c && p->op_insns && op < nops; op++) {
        const char *rule;
        int how = fst_clock_how(c, op, &rule);
        if (!p->op_insns[op] || (how != FST_PRICE_RULE && how != FST_PRICE_DEFAULT))
            continue;
        const fst_opinfo *oi = fst_op_info(op);
        s->ops[n++] = (fst_unpriced){ oi->mnem, oi->code, p->op_insns[op], how, rule };
        if (how == FST_PRICE_RULE)
            s->nrule++, s->rule_insns += p->op_insns[op];
        else
            s->ndefault++, s->default_insns += p->op_insns[op];
    }
    qsort(s->ops, n, sizeof *s->ops, by_count);
    s->nundecoded = p->nundecoded;
    s->undecoded = fst_xcalloc(p->nundecoded + 1, sizeof *s->undecoded);
    if (p->nundecoded)
        memcpy(s->undecoded, p->undecoded, p->nundecoded * sizeof *s->undecoded);
    qsort(s->undecoded, s->nundecoded, sizeof *s->undecoded, by_count_key);
    for (size_t i = 0; i < s->nundecoded; i++)
        s->undecoded_insns += s->undecoded[i].insns;
}

void fst_pricing_free(fst_pricing *s)
{
    free(s->ops);
    free(s->undecoded);
    memset(s, 0, sizeof *s);
}

/* snprintf at buf + *len, keeping *len within cap */
static void add(char *buf, size_t cap, size_t *len, const char *fmt, ...) FST_PRINTF(4, 5);
static void add(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    *len = w < 0 ? cap : *len + (size_t)w;
}

int fst_pricing_say(const fst_pricing *s, int kind, size_t max, char *buf, size_t cap)
{
    size_t len = 0, n, first;
    uint64_t total;
    if (cap)
        buf[0] = 0;
    if (kind == FST_PRICE_RULE)
        n = s->nrule, first = 0, total = s->rule_insns;
    else if (kind == FST_PRICE_DEFAULT)
        n = s->ndefault, first = s->nrule, total = s->default_insns;
    else
        n = s->nundecoded, first = 0, total = s->undecoded_insns;
    if (!n)
        return 0;
    add(buf, cap, &len, "%llu instruction%s of %zu opcode%s %s: ", (unsigned long long)total,
        total == 1 ? "" : "s", n, n == 1 ? "" : "s",
        kind == FST_PRICE_RULE ? "priced by a class rule, not from a row of the cost table"
        : kind == FST_PRICE_DEFAULT ? "priced at the default (their class median): the cost table has "
                                      "neither a row nor a usable rule for them"
                                    : "not decoded (priced at the default)");
    for (size_t i = 0; i < n && i < max; i++) {
        if (kind == -1) {
            char op[5];
            fst_opcode_str(s->undecoded[i].key, op);
            add(buf, cap, &len, "%s%s \u00d7%llu", i ? ", " : "", op, (unsigned long long)s->undecoded[i].insns);
            continue;
        }
        const fst_unpriced *u = &s->ops[first + i];
        add(buf, cap, &len, "%s%s \u00d7%llu", i ? ", " : "", u->mnem, (unsigned long long)u->insns);
        if (kind == FST_PRICE_RULE)
            add(buf, cap, &len, " as %s", u->rule);
    }
    if (n > max)
        add(buf, cap, &len, ", and %zu more", n - max);
    return 1;
}
