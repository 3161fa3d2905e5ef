/* analyze/replay/code.c — see code.h. */
#include "analyze/replay/code.h"

#include "common/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NINSN_BITS 12   /* single instructions: a slot per halfword address (fst_code_slot) */
#define NINSN (1u << NINSN_BITS)
/* blocks: FST_CODE_NBLK (code.h), the same; a block is 2368 bytes */

fst_code *fst_code_new(fst_clock *clk, fst_code_count *count, void *ctx)
{
    fst_code *c = fst_xcalloc(1, sizeof *c);
    c->clk = clk;
    c->count = count;
    c->ctx = ctx;
    c->insn = fst_xcalloc(NINSN, sizeof *c->insn);
    /* zeroed and 64-byte aligned (fst_blk's entries are): calloc's pages are touched only
    ** when used, where aligned_alloc and a memset would touch all of them */
    c->blk_mem = fst_xcalloc(1, FST_CODE_NBLK * sizeof *c->blk + 64);
    c->blk = (fst_blk *)(((uintptr_t)c->blk_mem + 63) & ~(uintptr_t)63);
    c->used = fst_xcalloc(FST_CODE_NBLK, 1);
    c->usedlist = fst_xcalloc(FST_CODE_NBLK, sizeof *c->usedlist);
    return c;
}

void fst_code_free(fst_code *c)
{
    if (!c)
        return;
    free(c->insn);
    free(c->blk_mem);
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

/* A slot by address and bytes: instructions that differ at one address (an operating
** system's address spaces, whose private code lies at the same addresses, sent again at
** every switch) keep a slot each, not one taken from the other at every switch (a job of
** 16 000 tasks, tests/programs/mvsjob.s: 224 103 decodes for 1.3 M instructions). */
static size_t insn_slot(uint64_t addr, const uint8_t bytes[6])
{
    uint64_t b = 0;
    memcpy(&b, bytes, 6);
    return fst_code_slot(addr ^ ((b * 0x9E3779B97F4A7C15ull) >> 40 << 1), NINSN_BITS);
}

fst_code_ent *fst_code_insn(fst_code *c, uint64_t addr, const uint8_t bytes[6], uint32_t state)
{
    fst_code_ent *e = &c->insn[insn_slot(addr, bytes)];
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
            c->count(c->ctx, &b->e[k].d, n);
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
        fst_blk_ent *e = &b->e[b->n];
        fst_insn *d = &e->d;
        fst_decode(d, bytes, addr, b->state);
        e->cost[0] = fst_clock_cost(c->clk, d, 0);
        e->cost[1] = fst_clock_cost(c->clk, d, 1);
        e->sum = fst_blk_sum(b, b->n);
        e->to = fst_tb_taken_to(bytes, addr, b->state);
        b->wor[b->n] = (uint16_t)((b->n ? b->wor[b->n - 1] : 0) | d->wregs);
        b->n++;
        if (!fst_code_falls(d))
            break;
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
    append(c, b, tr, addr);
}

int fst_code_extend(fst_code *c, fst_blk *b, fst_tr *tr, int built)
{
    uint32_t n = b->n;
    if (n == FST_BLK_MAX || !fst_code_falls(&b->e[n - 1].d))
        return 0;
    append(c, b, tr, fst_insn_next(&b->e[n - 1].d));
    if (b->n == n)
        return 0;
    c->builds += built != 0;
    return 1;
}

/* Of addr's two slots: an empty one, else the one built longer ago. Both may hold addr:
** code that differs at one address by the address space it runs in (an operating system's
** private areas) keeps two versions, each taken again as long as its bytes are the code
** cache's (still_right). */
static size_t slot_for(const fst_code *c, uint64_t addr)
{
    size_t i = fst_code_slot(addr, FST_CODE_NBLK_BITS), j = i ^ FST_CODE_ALT;
    const fst_blk *a = &c->blk[i], *b = &c->blk[j];
    if (!a->n || !b->n)
        return a->n ? j : i;
    return a->born <= b->born ? i : j;
}

/* Whether b, at addr in state but of an older epoch, is what the code cache holds still: no
** instruction in its granules replaced since (tracebin.h fst_tr_code_same_since), or, where
** one was, the bytes of each of its instructions the cache's again (a task of another
** address space ran between). Then it needs no decoding: a job of 16 000 tasks
** (tests/programs/mvsjob.s), two kinds of code at the same addresses, moved the epoch at
** every dispatch and decoded 392 043 blocks again for 1.3 M instructions. */
static int still_right(const fst_blk *b, fst_tr *tr, uint64_t addr, uint32_t state)
{
    if (!b->n || b->addr != addr || b->state != state)
        return 0;
    if (fst_tr_code_same_since(tr, b->addr, b->e[b->n - 1].d.addr, b->epoch))
        return 1;
    for (uint32_t k = 0; k < b->n; k++) {
        const fst_insn *d = &b->e[k].d;
        uint8_t now[6];
        if (fst_tr_code(tr, d->addr, now) != d->len || memcmp(now, d->bytes, 6))
            return 0;
    }
    return 1;
}

fst_blk *fst_code_block_build(fst_code *c, fst_tr *tr, uint64_t addr, uint32_t state)
{
    if (c->settle)
        c->settle(c->ctx);
    size_t i = fst_code_slot(addr, FST_CODE_NBLK_BITS);
    for (int w = 0; w < 2; w++, i ^= FST_CODE_ALT) {
        fst_blk *b = &c->blk[i];
        if (b->n && b->epoch != fst_tr_code_epoch(tr) && still_right(b, tr, addr, state)) {
            /* as built again, for all that counts builds (the memos' keys: replay_int.h),
            ** but its instructions, prices and counts stay */
            b->epoch = fst_tr_code_epoch(tr);
            b->born = c->builds++;
            return b;
        }
    }
    i = slot_for(c, addr);
    fst_blk *b = &c->blk[i];
    build(c, b, tr, addr, state);
    if (!c->used[i])
        c->usedlist[c->nused++] = (uint16_t)i;
    c->used[i] = 1;
    b->born = c->builds++;
    return b->n ? b : NULL;
}

/* The entry's size is what puts a run's reads on few lines (code.h fst_blk_ent). */
_Static_assert(sizeof(fst_insn) == 32, "fst_insn: 32 bytes");
_Static_assert(sizeof(fst_blk_ent) == 64, "fst_blk_ent: one cache line");
