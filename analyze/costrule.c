/*
** analyze/costrule.c — the class rules of the cost model (costrule.h), for clock.c: by
** mnemonic, and the class rows a table may define.
*/
#include "analyze/clock.h"
#include "analyze/costrule.h"

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
