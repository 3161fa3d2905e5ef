/* analyze/replay/code.c — see code.h. */
#include "analyze/replay/code.h"

#include "common/err.h"

#include <stdlib.h>

#define NINSN_BITS 12   /* single instructions: a slot per halfword address (fst_code_slot) */
#define NINSN (1u << NINSN_BITS)
/* blocks: FST_CODE_NBLK (code.h), the same; a block is some 2.6 KB */

fst_code *fst_code_new(fst_clock *clk, fst_code_count *count, void *ctx)
{
    fst_code *c = fst_xcalloc(1, sizeof *c);
    c->clk = clk;
    c->count = count;
    c->ctx = ctx;
    c->insn = fst_xcalloc(NINSN, sizeof *c->insn);
    c->blk = fst_xcalloc(FST_CODE_NBLK, sizeof *c->blk);
    c->used = fst_xcalloc(FST_CODE_NBLK, 1);
    c->usedlist = fst_xcalloc(FST_CODE_NBLK, sizeof *c->usedlist);
    return c;
}

void fst_code_free(fst_code *c)
{
    if (!c)
        return;
    free(c->insn);
    free(c->blk);
    free(c->used);
    free(c->usedlist);
    free(c);
}

static void fill(fst_code *c, fst_code_ent *e, const uint8_t bytes[6], uint64_t addr, uint32_t state)
{
    fst_decode(&e->d, bytes, addr, state);
    e->state = state;
    e->valid = 1;
    e->cost[0] = fst_clock_cost(c->clk, &e->d, 0);
    e->cost[1] = fst_clock_cost(c->clk, &e->d, 1);
}

fst_code_ent *fst_code_insn(fst_code *c, uint64_t addr, const uint8_t bytes[6], uint32_t state)
{
    fst_code_ent *e = &c->insn[fst_code_slot(addr, NINSN_BITS)];
    if (!e->valid || e->d.addr != addr || e->state != state || memcmp(e->d.bytes, bytes, 6))
        fill(c, e, bytes, addr, state);
    return e;
}

/* The executions counted in b, to c->count; b's counts are 0 after. */
static void fold(fst_code *c, fst_blk *b)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < b->n; k++) {
        n += b->ran[k];   /* a prefix sum of differences (modulo 2^64: exact) */
        b->ran[k] = 0;
        if (n)
            c->count(c->ctx, &b->d[k], n);
    }
    b->ran[b->n] = 0;
}

void fst_code_fold(fst_code *c)
{
    if (c->settle)
        c->settle(c->ctx);
    for (size_t u = 0; u < c->nused; u++)
        fold(c, &c->blk[c->usedlist[u]]);
}

/* Decodes onto b from addr, b->n instructions there: instructions that fall through, up to
** and including the first that does not, while the code cache knows the bytes. */
static void append(fst_code *c, fst_blk *b, fst_tr *tr, uint64_t addr)
{
    uint8_t bytes[6];
    while (b->n < FST_BLK_MAX && fst_tr_code(tr, addr, bytes)) {
        fst_insn *d = &b->d[b->n];
        fst_decode(d, bytes, addr, b->state);
        b->cost[b->n][0] = fst_clock_cost(c->clk, d, 0);
        b->cost[b->n][1] = fst_clock_cost(c->clk, d, 1);
        b->to[b->n] = fst_tb_taken_to(bytes, addr, b->state);
        b->n++;
        if (!fst_code_falls(d))
            break;
        if (b->n < FST_BLK_MAX)
            b->sum[b->n] = b->sum[b->n - 1] + b->cost[b->n - 1][0];
        addr += d->len;
    }
}

/* Decode from addr (see append). */
static void build(fst_code *c, fst_blk *b, fst_tr *tr, uint64_t addr, uint32_t state)
{
    fold(c, b);
    b->addr = addr;
    b->state = state;
    b->epoch = fst_tr_code_epoch(tr);
    c->epoch = fst_tr_code_epoch_at(tr);
    b->n = 0;
    b->sum[0] = 0;
    append(c, b, tr, addr);
}

int fst_code_extend(fst_code *c, fst_blk *b, fst_tr *tr, int built)
{
    uint32_t n = b->n;
    if (n == FST_BLK_MAX || !fst_code_falls(&b->d[n - 1]))
        return 0;
    append(c, b, tr, fst_insn_next(&b->d[n - 1]));
    if (b->n == n)
        return 0;
    c->builds += built != 0;
    return 1;
}

/* Of addr's two slots: the one that held addr before (its code changed), else an empty one,
** else the one built longer ago. */
static size_t slot_for(const fst_code *c, uint64_t addr, uint32_t state)
{
    size_t i = fst_code_slot(addr, FST_CODE_NBLK_BITS), j = i ^ FST_CODE_ALT;
    const fst_blk *a = &c->blk[i], *b = &c->blk[j];
    if (a->n && a->addr == addr && a->state == state)
        return i;
    if (b->n && b->addr == addr && b->state == state)
        return j;
    if (!a->n || !b->n)
        return a->n ? j : i;
    return a->born <= b->born ? i : j;
}

fst_blk *fst_code_block_build(fst_code *c, fst_tr *tr, uint64_t addr, uint32_t state)
{
    size_t i = slot_for(c, addr, state);
    fst_blk *b = &c->blk[i];
    if (c->settle)
        c->settle(c->ctx);
    build(c, b, tr, addr, state);
    if (!c->used[i])
        c->usedlist[c->nused++] = (uint16_t)i;
    c->used[i] = 1;
    b->born = c->builds++;
    return b->n ? b : NULL;
}
