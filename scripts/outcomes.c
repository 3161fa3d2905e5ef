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
** smaller. Reads fst-dump's `insn` lines on standard input, at most argv[1] of them; prints
** "SITE SITE_H16 BRANCHES_PER_INSN". Not part of fst: a bench aid, built by bench.sh. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* a branch whose outcome depends on the condition code or a count: BC and BCR (mask not 0 or
** 15), BCT, BCTR (R2 not 0), BXH, BXLE, BRXH, BRXLE, BRC, BRCT(G), BRCL, compare and branch */
static int conditional(const uint8_t *b)
{
    int m = b[1] >> 4;
    switch (b[0]) {
    case 0x47: return m != 0 && m != 15;
    case 0x07: return m != 0 && m != 15 && (b[1] & 15) != 0;
    case 0x06: return (b[1] & 15) != 0;
    case 0x46: case 0x86: case 0x87: case 0x84: case 0x85: return 1;
    case 0xA7: return ((b[1] & 15) == 4 && m != 0 && m != 15) || (b[1] & 15) == 6 || (b[1] & 15) == 7;
    case 0xC0: return (b[1] & 15) == 4 && m != 0 && m != 15;
    case 0xEC: return b[5] == 0x76 || b[5] == 0x77 || b[5] == 0x7C || b[5] == 0x7D || b[5] == 0x7E ||
                      b[5] == 0x7F || b[5] == 0x64 || b[5] == 0x65;
    default: return 0;
    }
}

int main(int argc, char **argv)
{
    unsigned long long max = argc > 1 ? strtoull(argv[1], NULL, 10) : ~0ull, n = 0, nbr = 0;
    tab = calloc((size_t)1 << HBITS, sizeof *tab);
    if (!tab)
        return 1;
    char line[512];
    uint64_t prev = 0, plen = 0, hist = 0;
    uint8_t pb[6] = { 0 };
    int have = 0;
    double site = 0, h16 = 0;
    while (n < max && fgets(line, sizeof line, stdin)) {
        char *a = strstr(line, " addr="), *l = a ? strstr(a, " len=") : NULL, *b = l ? strstr(l, " bytes=") : NULL;
        if (strncmp(line, "insn ", 5) || !b)
            continue;
        uint64_t addr = strtoull(a + 6, NULL, 16);
        n++;
        if (have && conditional(pb)) {
            int taken = addr != prev + plen;
            site += code(prev << 1, taken);
            h16 += code(prev << 1 | 1 | (hist & 0xFFFF) << 40, taken);
            hist = hist << 1 | (uint64_t)taken;
            nbr++;
        }
        have = 1;
        prev = addr;
        plen = strtoull(l + 5, NULL, 10);
        memset(pb, 0, sizeof pb);
        for (int i = 0; i < 6 && b[7 + 2 * i] && b[8 + 2 * i] > ' '; i++) {
            char hx[3] = { b[7 + 2 * i], b[8 + 2 * i], 0 };
            pb[i] = (uint8_t)strtoul(hx, NULL, 16);
        }
    }
    if (!n)
        return 1;
    printf("%.4f %.4f %.3f\n", site / 8 / n, h16 / 8 / n, (double)nbr / n);
    return 0;
}
