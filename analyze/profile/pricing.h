/*
** analyze/profile/pricing.h — what fst-report must say about how the instructions were priced
** (issue 11: no instruction priced silently). From a profile's instruction mix and the
** clock that priced it: the instructions priced by a class rule (a row borrowed or
** summed, or a class row: analyze/cost/costrule.h), those priced at the default (a class
** median: the table had neither row nor rule), and those the decoder did not know (also
** at the default, reported apart). A mips clock prices everything at its rate: only the
** undecoded ones are then worth a word.
**
** Ownership: fst_pricing_of fills *s with arrays the caller frees with fst_pricing_free.
** Nothing here fails or prints.
*/
#ifndef FST_PRICING_H
#define FST_PRICING_H

#include "analyze/cost/clock.h"
#include "analyze/profile/profile.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_unpriced {
    const char *mnem;       /* the decoder's mnemonic */
    const char *code;       /* its opcode, POO notation */
    uint64_t insns;
    int how;                /* FST_PRICE_RULE or FST_PRICE_DEFAULT */
    const char *rule;       /* FST_PRICE_RULE: "AR", "CR+BRC", "@vector" */
} fst_unpriced;

typedef struct fst_pricing {
    uint64_t rule_insns, default_insns, undecoded_insns;
    fst_unpriced *ops;      /* the rule ones, then the default ones, most executed first */
    size_t nrule, ndefault;
    fst_opcount *undecoded; /* not decoded, most executed first */
    size_t nundecoded;
} fst_pricing;

void fst_pricing_of(fst_pricing *s, const fst_profile *p, const fst_clock *c);
void fst_pricing_free(fst_pricing *s);

/*
** The sentence for one kind (FST_PRICE_RULE, FST_PRICE_DEFAULT, or -1 for the undecoded
** ones), naming at most `max` opcodes, the rest counted:
**   "1200 instructions of 3 opcodes priced by a class rule, not from a row of the cost
**    table: AGFR ×600 as AR, LLGFR ×500 as LR, VA ×100 as @vector"
**   "12 instructions of 2 opcodes not decoded (priced at the default): B9FF ×10, E7FF ×2"
** Returns 0 and writes "" when there is none of that kind. snprintf truncation.
*/
int fst_pricing_say(const fst_pricing *s, int kind, size_t max, char *buf, size_t cap);

#endif
