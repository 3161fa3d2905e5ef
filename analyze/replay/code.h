/*
** analyze/replay/code.h — the replay's decoded code: each executed instruction is decoded and
** priced once per address, not once per execution (loops run the same few addresses
** millions of times; decoding and pricing were half of the replay).
**
** Two caches, both direct-mapped and of fixed size, so memory does not grow with the trace:
**   - single instructions (fst_code_insn), keyed by address, PSW state and bytes: for an
**     instruction the trace hands out with its bytes (fst_tr_next);
**   - straight-line blocks (fst_code_block), keyed by address, PSW state and the reader's
**     code epoch: for the instructions of a SEQ run (trace/tracebin.h fst_tr_seq_left),
**     never looked up one by one. A block is up to FST_BLK_MAX instructions in sequence,
**     read from the trace's code cache (fst_tr_code), all but the last of them *falling
**     through* (fst_code_falls: they cannot change the flow of control, or they are
**     conditional branches that a SEQ run through them did not take), with the sum of their
**     costs as not taken, so that a run through them is priced in one addition. It stops
**     early at an address the code cache does not know.
**
** What a block assumes (why it is sound): a SEQ instruction executes exactly the bytes
** the trace's code cache holds for its address (tracebin.h), that cache changes only
** by INS ops, and the reader's epoch changes whenever an INS replaces bytes it held. So
** a block decoded under the current epoch is what a SEQ run through it executes, even in
** a program that modifies its code (its INS ops change the epoch). A block of an older
** epoch is taken again, undecoded, when the code cache holds its bytes still: no INS
** replaced an instruction in its granules since (tracebin.h fst_tr_code_same_since), or
** each of its instructions' bytes is the cache's again (code of another address space
** back); else it is decoded again. Either counts as a block built (`builds`). An address's
** two slots may hold two versions of its code. The trace's storage image is never used: it
** is storage at IPL time. Decoding
** depends on the PSW state (architecture, addressing mode), hence the state in the key.
**
** Prices: every entry comes priced, not taken and taken (clock.h fst_clock_cost with
** taken 0 and 1): a caller copies both with the instruction, and needs the clock only for
** an outcome it does not know.
**
** Counts: a caller that runs d[i..j-1] of a block says so with fst_blk_ran (two additions,
** whatever the length); the counts reach the caller's `count` function (fst_code_new) per
** instruction, times executed, when the block's slot is taken by another block and at
** fst_code_fold. (The instruction mix is a sum: the order in which it is added up does not
** matter.)
**
** Ownership: fst_code_new / fst_code_free; a cache serves one reader (fst_tr), open
** while it is used. An entry returned stays where it is but is overwritten by a later
** lookup that maps to its slot: copy what you keep.
*/
#ifndef FST_CODE_H
#define FST_CODE_H

#include "analyze/cost/clock.h"
#include "isa/decode.h"
#include "trace/tracebin.h"

#include <string.h>

/* 32: gcc -O2 code's straight runs (cgen.py) went past 16 instructions in 4.2 M of 22.2 M
** runs, a second block each; with 32, 5-7 % less replay time there, the same elsewhere */
#define FST_BLK_MAX 32

typedef struct fst_code_ent {
    fst_insn d;
    uint32_t state;
    uint8_t valid;
    fst_fx cost[2];         /* not taken, taken */
} fst_code_ent;

/* A block's instruction with what a run ending or beginning at it reads, in one 64-byte
** entry: a run touches the block's first line (its key and ran[0]), its first entry and
** its last. Kept as arrays side by side (d[], cost[], sum[], to[]), a run's reads fell on
** some ten cache lines of a block of 2.6 KB; cgen seed 11111's replay missed the first-level
** cache 2.3 times a run in them (cachegrind), a fifth of its time. */
typedef struct fst_blk_ent {
    fst_insn d;             /* the instruction */
    fst_fx cost[2];         /* its prices, not taken and taken */
    fst_fx sum;             /* the cost of the block's instructions before it, not taken */
    uint64_t to;            /* where a TAKEN run ending at it goes (tracebin.h
                               fst_tb_taken_to: the reader's rule, from the same bytes) */
} fst_blk_ent;

typedef struct fst_blk {
    uint64_t addr;          /* of the first instruction */
    uint64_t epoch;         /* the reader's code epoch when decoded */
    uint32_t state;
    uint32_t n;             /* instructions; 0: an empty slot */
    uint64_t born;          /* fst_code's `builds` when built: of a slot's two, the older goes */
    uint64_t mstamp;        /* the replay's memo: the recording that took its counts (replay_memo.c) */
    uint64_t cstamp;        /* the same for a stretch of runs recorded (replay_chunk.c) */
    uint64_t fstamp;        /* the same for a loop's period recorded (replay_fold.c) */
    uint64_t ran[FST_BLK_MAX + 1];  /* executions, as differences (fst_blk_ran) */
    uint16_t wor[FST_BLK_MAX];  /* the registers d[0..k] may write (fst_insn.wregs ORed): a
                                   run enters a block at its first instruction, so what a run
                                   to d[k] wrote takes one OR, not one a instruction */
    _Alignas(64) fst_blk_ent e[FST_BLK_MAX];  /* the instructions, in a row (code.c aligns
                                                 the blocks to 64 bytes) */
} fst_blk;


/* `count(ctx, d, n)`: instruction d executed n more times (n > 0). */
typedef void fst_code_count(void *ctx, const fst_insn *d, uint64_t n);

/* Block slots: two ways, each block in its address's slot (fst_code_slot) or in the one
** half the cache away (FST_CODE_ALT), the one built longer ago giving way: code in one span
** of 32 KiB never takes its own blocks' slots. With 1024 direct-mapped slots (2 KB),
** branchy C of 4-12 KB (tests/cprogs/cgen.py) built its blocks again and again: 8-10 % of
** the replay's host instructions (valgrind). Direct-mapped, 8192 slots, one hot pair of a
** FORTRAN load module's 105 blocks met by chance (tests/loops/fortbig.py seed 303, 33 KiB)
** and took each other's slot at every turn: 50 887 blocks built, and each build ends the
** memos' recordings (they key on `builds`): replay 0.65 s, 0.16 s with both kept. Slots are
** calloc'd and touched only when used (usedlist): memory follows the code that runs. */
#define FST_CODE_NBLK_BITS 14
#define FST_CODE_NBLK (1u << FST_CODE_NBLK_BITS)
#define FST_CODE_ALT (FST_CODE_NBLK >> 1)

/* The cache; its fields are code.c's, here only for fst_code_block's inline lookup (a
** block that is there costs no call). */
typedef struct fst_code {
    fst_clock *clk;
    fst_code_count *count;
    void *ctx;
    struct fst_code_ent *insn;
    fst_blk *blk;       /* FST_CODE_NBLK slots, 64-byte aligned inside blk_mem */
    void *blk_mem;
    uint8_t *used;      /* per block slot: ever built */
    uint16_t *usedlist; /* those slots, in the order first built (nused of them): what
                           fst_code_fold and the folding's snapshot read, so the others' pages
                           are never touched and memory is what the code needs */
    size_t nused;
    const uint64_t *epoch;  /* the reader's epoch (fst_tr_code_epoch_at), set by the first
                               block built: a block is there only after one was */
    uint64_t builds;    /* blocks built so far (a folded loop builds none: replay_fold.c) */
    /* called before a block's counts are read (a block rebuilt in its slot, fst_code_fold):
    ** counts its owner holds back are added first (replay_chunk.c's hits); may be NULL */
    void (*settle)(void *ctx);
} fst_code;
fst_code *fst_code_new(fst_clock *clk, fst_code_count *count, void *ctx);
/* d[i..j-1] of b executed once more (i <= j <= b->n). */
static inline void fst_blk_ran(fst_blk *b, uint32_t i, uint32_t j)
{
    b->ran[i]++;
    b->ran[j]--;
}
/* The cost of b's first i instructions, not taken (i <= b->n), from entry i - 1, which a
** run taking d[i..] has read already (the previous instruction). */
static inline fst_fx fst_blk_sum(const fst_blk *b, uint32_t i)
{
    return i ? b->e[i - 1].sum + b->e[i - 1].cost[0] : 0;
}
/* Every block's counts to `count`, now (after c->settle). */
void fst_code_fold(fst_code *c);
void fst_code_free(fst_code *c);

/* An instruction that cannot change the flow of control: no branch that can be taken, no
** EX/EXRL, nothing that loads a PSW. The next one executes at its address + length. */
static inline int fst_code_plain(const fst_insn *d)
{
    return !(d->flags & (FST_I_CANBRANCH | FST_I_EXECUTE | FST_I_PSW));
}

/* An instruction after which a SEQ run goes on as after a plain one: plain, or a branch
** that only the condition code or a register decides (FST_I_COND) and that neither links,
** executes, loads a PSW nor may change the addressing mode. In a SEQ run it was not taken
** (the next instruction is at its address + length), so its successor needs no decision:
** no call, no return, the not-taken price (cost[0], what a block's sums hold). */
static inline int fst_code_falls(const fst_insn *d)
{
    return fst_code_plain(d) ||
           (d->flags & (FST_I_CANBRANCH | FST_I_COND | FST_I_LINK | FST_I_EXECUTE | FST_I_PSW | FST_I_AMODE)) ==
               (FST_I_CANBRANCH | FST_I_COND);
}

/* b, which ends at an instruction that falls through (the code cache knew no bytes after
** it when b was built: only what the trace has run is known, so a block built at a run's
** start ended where that run left the code), made longer by what the code cache knows
** now. Returns whether it grew. Its counts stay: the instructions added have none (ran[]
** is 0 past b->n), and what was counted at their addresses in the block after it stays
** there: counts go out per instruction (`count`), whichever block held it, and a run's
** price is a sum, however it is cut. So what the replay's memos hold of a run cut in
** two (counters' differences, sums) stays true, and `builds` need not move; but a
** recording that notes blocks' counts as far as they go must not see a block grow
** unawares: with `built`, the growth counts as a block built (`builds`), which ends it.
** A run that went on past such an end went through a second block at every execution
** (cgen seed 54004: 14.4 M of 22.2 M runs). */
int fst_code_extend(fst_code *c, fst_blk *b, fst_tr *tr, int built);

/* The decoded instruction `bytes` at addr in state. Never fails. */
fst_code_ent *fst_code_insn(fst_code *c, uint64_t addr, const uint8_t bytes[6], uint32_t state);
/* The block at addr in state, from tr's code cache; NULL when it knows no bytes at addr. */
fst_blk *fst_code_block_build(fst_code *c, fst_tr *tr, uint64_t addr, uint32_t state);
/* The slot of address addr in a direct-mapped cache of 2^bits halfwords: its halfword
** within the span of 2^(bits+1) bytes it lies in, XORed with a hash of that span's address
** (blocks: spans of 32 KiB). Code in one span never meets itself; code in two does only by
** chance. By the low bits alone (8192 slots then), a program whose routines lay 16 KiB
** apart, or 4 KiB apart over more than 16 KiB (a load module's routines, each page-aligned),
** had its hot blocks take each other's slots at every call: decoded and priced again each time (cgen seed
** 28485 with its functions 4 KiB apart: replay 11.0 s against 3.2 s in one page). */
static inline size_t fst_code_slot(uint64_t addr, unsigned bits)
{
    uint64_t above = (addr >> (bits + 1)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(((addr >> 1) ^ (above >> (64 - bits))) & ((1u << bits) - 1));
}

static inline int fst_code_is(const fst_code *c, const fst_blk *b, uint64_t addr, uint32_t state)
{
    return b->addr == addr && b->state == state && b->n && b->epoch == *c->epoch;
}

static inline fst_blk *fst_code_block(fst_code *c, fst_tr *tr, uint64_t addr, uint32_t state)
{
    size_t i = fst_code_slot(addr, FST_CODE_NBLK_BITS);
    fst_blk *b = &c->blk[i];
    if (fst_code_is(c, b, addr, state))
        return b;
    b = &c->blk[i ^ FST_CODE_ALT];
    if (fst_code_is(c, b, addr, state))
        return b;
    return fst_code_block_build(c, tr, addr, state);   /* built again: decoded anew */
}

#endif
