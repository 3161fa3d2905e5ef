/* scripts/outcomes.c — make bench's estimate of what a trace of a program's path must weigh
** (issue 33): the conditional branches' outcomes, coded one by one with adaptive counts (the
** code length an arithmetic coder would reach with that model, learning included), in bytes
** an instruction, under two models:
**   site       each branch its own coin (what bench.sh's annotate figure says from the final
**              counts, here learnt as it goes)
**   site+h16   each branch's coin chosen by its site and the outcomes of the 16 conditional
**              branches before it, whichever they were (a global history, as in a gshare
**              branch predictor; 8 and 12 outcomes give a little more)
** What a trace says besides the outcomes (returns, computed branches, interruptions) is left
** out, so a trace that keeps every outcome and models them no better than this cannot be
** smaller. Reads the trace with fst's reader, the first argv[2] instructions at most, and
** tells a conditional branch by fst's decoder (isa/decode.h FST_I_COND); prints "SITE
** SITE_H16 BRANCHES_PER_INSN". Not part of fst: a bench aid that bench.sh builds against
** the release library. Usage: outcomes TRACE [MAX_INSNS] */
#include "isa/decode.h"
#include "trace/tracebin.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HBITS 24    /* slots of the count table: 16 M of 16 bytes */

typedef struct {
    uint64_t key;   /* 0: free */
    uint32_t n0, n1;
} slot;

static slot *tab;

static slot *find(uint64_t key)
{
    size_t mask = ((size_t)1 << HBITS) - 1, i = (key * 0x9E3779B97F4A7C15ull) >> (64 - HBITS);
    while (tab[i].key && tab[i].key != key)
        i = (i + 1) & mask;
    tab[i].key = key;
    return &tab[i];
}

/* code one outcome in context key: its cost in bits (Krichevsky-Trofimov-like estimate) */
static double code(uint64_t key, int bit)
{
    slot *s = find(key);
    double p = ((bit ? s->n1 : s->n0) + 0.4) / (s->n0 + s->n1 + 0.8);
    if (bit)
        s->n1++;
    else
        s->n0++;
    return -log2(p);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: outcomes TRACE [MAX_INSNS]\n");
        return 2;
    }
    unsigned long long max = argc > 2 ? strtoull(argv[2], NULL, 10) : ~0ull, n = 0, nbr = 0;
    fst_err err;
    fst_tr *r = fst_tr_open(argv[1], &err);
    if (!r) {
        fprintf(stderr, "outcomes: %s\n", err.msg);
        return 2;
    }
    tab = calloc((size_t)1 << HBITS, sizeof *tab);
    if (!tab)
        return 2;
    fst_insn prev;
    int have = 0, rc = 1;
    uint64_t hist = 0;
    double site = 0, h16 = 0;
    fst_rec rec;
    while (n < max && (rc = fst_tr_next(r, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN) { /* an interruption, another CPU...: no outcome across it */
            have = 0;
            continue;
        }
        n++;
        if (have && (prev.flags & FST_I_COND) && (prev.flags & FST_I_CANBRANCH)) {
            int taken = rec.addr != fst_insn_next(&prev);
            site += code(prev.addr << 1, taken);
            h16 += code(prev.addr << 1 | 1 | (hist & 0xFFFF) << 40, taken);
            hist = hist << 1 | (uint64_t)taken;
            nbr++;
        }
        fst_decode(&prev, rec.bytes, rec.addr, rec.state);
        have = 1;
    }
    fst_tr_close(r);
    if (rc < 0) {
        fprintf(stderr, "outcomes: %s\n", err.msg);
        return 2;
    }
    if (!n)
        return 2;
    printf("%.4f %.4f %.3f\n", site / 8 / n, h16 / 8 / n, (double)nbr / n);
    return 0;
}
