/*
** tests/unit/test_code.c — analyze/replay/code.c's blocks against the trace reader: a SEQ run read
** a block at a time (fst_code_block, fst_tr_seq_take) is exactly the instructions written,
** also in a loop whose code is modified while it runs (the INS that changes it must make
** the block decoded before it stale: trace/tracebin.h fst_tr_code_epoch), and the
** block's prices are the clock's. fst_tr_next_run hands a SEQ run over whole, from its
** first instruction, and the blocks read from there are the instructions written. The
** blocks' slots spread code that lies in many pages (test_slots_spread), and two blocks
** with the same slot both stay (test_blocks_share_a_slot). A block cut short where the code
** cache knew no more grows when a run goes further (test_block_grows). Code elsewhere stays
** decoded when the loop's is modified (test_other_code_stays), and two versions of code at
** one address both stay (test_versions_stay).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/replay/code.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { ROUNDS = 10, CHANGE = 5, PER = 4, A = 0x20000 };

/* The loop: LR 1,2; AR 1,2 (SR 1,2 from round CHANGE on); LR 3,1; BCR 15,14 back to A. */
static const uint8_t lr12[2] = { 0x18, 0x12 }, ar12[2] = { 0x1A, 0x12 }, sr12[2] = { 0x1B, 0x12 },
                     lr31[2] = { 0x18, 0x31 }, bcr[2] = { 0x07, 0xFE };

static const uint8_t *written(int round, int i)
{
    static const uint8_t *const ins[PER] = { lr12, ar12, lr31, bcr };
    return i == 1 && round >= CHANGE ? sr12 : ins[i];
}

/* An S/370 trace written to a file of this process named by `what` (its name in path),
** in state 0. */
static fst_tw *writer(char *path, size_t size, const char *what)
{
    snprintf(path, size, "/tmp/fst-test-%s-%d.trace", what, (int)getpid());
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open(path, hdr, &err);
    assert_non_null(w);
    fst_tw_state(w, 0);
    return w;
}

static void make(char *path, size_t size, const char *what)
{
    fst_err err;
    fst_tw *w = writer(path, size, what);
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < PER; i++)
            assert_int_equal(fst_tw_insn(w, A + 2 * (uint64_t)i, written(r, i), 2), 0);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
}

/* What the blocks counted (fst_code_count), by address and instruction */
static uint64_t counted[PER][2];

static void count(void *ctx, const fst_insn *d, uint64_t n)
{
    (void)ctx;
    unsigned i = (unsigned)(d->addr - A) / 2;
    assert_true(i < PER);
    counted[i][d->bytes[0] == sr12[0]] += n;
}

static void test_blocks_follow_modified_code(void **state)
{
    (void)state;
    char path[64];
    make(path, sizeof path, "code");
    fst_err err;
    fst_clock *clk = fst_clock_open("mips:1", &err);
    assert_non_null(clk);
    fst_tr *tr = fst_tr_open(path, &err);
    assert_non_null(tr);
    fst_code *code = fst_code_new(clk, count, NULL);
    memset(counted, 0, sizeof counted);
    uint64_t direct[PER][2] = { { 0 } };    /* read with fst_tr_next */
    uint64_t seen = 0, blocks = 0, epoch0 = fst_tr_code_epoch(tr);
    fst_rec rec;
    int k;
    while ((k = fst_tr_next(tr, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN)
            continue;
        assert_int_equal(rec.addr, A + 2 * (seen % PER));
        assert_memory_equal(rec.bytes, written((int)(seen / PER), (int)(seen % PER)), 2);
        direct[seen % PER][rec.bytes[0] == sr12[0]]++;
        seen++;
        uint64_t next = rec.addr + rec.len;
        uint32_t left;
        while ((left = fst_tr_seq_left(tr))) {
            fst_blk *b = fst_code_block(code, tr, next, rec.state);
            assert_non_null(b);
            uint32_t m = b->n < left ? b->n : left;
            for (uint32_t i = 0; i < m; i++, seen++) {
                const fst_insn *d = &b->e[i].d;
                assert_int_equal(d->addr, A + 2 * (seen % PER));
                assert_memory_equal(d->bytes, written((int)(seen / PER), (int)(seen % PER)), 2);
                assert_int_equal(fst_code_plain(d), seen % PER != PER - 1);
                assert_true(b->e[i].cost[0] == fst_clock_cost(clk, d, 0) && b->e[i].cost[1] == fst_clock_cost(clk, d, 1));
                assert_true(b->e[i].to == fst_tb_taken_to(d->bytes, d->addr, rec.state));
                if (i + 1 < m)  /* plain ones summed */
                    assert_true(b->e[i + 1].sum == b->e[i].sum + b->e[i].cost[0] && fst_blk_sum(b, i + 1) == b->e[i + 1].sum);
            }
            fst_blk_ran(b, 0, m);
            next = b->e[m - 1].d.addr + b->e[m - 1].d.len;
            fst_tr_seq_take(tr, m, next, b->e[m - 1].d.bytes);
            blocks++;
        }
    }
    assert_int_equal(k, 0);
    assert_int_equal(seen, ROUNDS * PER);
    assert_true(blocks >= ROUNDS - 1);              /* runs were read a block at a time */
    assert_int_equal(fst_tr_code_epoch(tr), epoch0 + 1); /* one INS replaced known bytes */
    assert_int_equal(fst_tr_insns(tr), ROUNDS * PER);
    fst_code_fold(code);        /* counts kept in blocks, and in a block decoded again, all there */
    for (int i = 0; i < PER; i++) {
        uint64_t want_sr = i == 1 ? ROUNDS - CHANGE : 0;
        assert_int_equal(counted[i][0] + direct[i][0], ROUNDS - want_sr);
        assert_int_equal(counted[i][1] + direct[i][1], want_sr);
    }
    assert_true(counted[1][0] && counted[1][1]);
    const char *why;
    assert_true(fst_tr_complete(tr, &why));
    fst_code_free(code);
    fst_tr_close(tr);
    fst_clock_free(clk);
    unlink(path);
}

/* Reads tr to its end a block at a time (each SEQ run after its first instruction), as the
** replay does: `look` sees each block before its run is counted (next: the block's address;
** builds: code->builds before the look-up). */
typedef void block_look(fst_tr *tr, fst_code *code, const fst_blk *b, uint64_t next, uint64_t builds, void *ctx);

static void read_blocks(fst_tr *tr, fst_code *code, block_look *look, void *ctx)
{
    fst_err err;
    fst_rec rec;
    int k;
    while ((k = fst_tr_next(tr, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN)
            continue;
        uint64_t next = rec.addr + rec.len;
        uint32_t left;
        while ((left = fst_tr_seq_left(tr))) {
            uint64_t builds = code->builds;
            fst_blk *b = fst_code_block(code, tr, next, rec.state);
            assert_non_null(b);
            look(tr, code, b, next, builds, ctx);
            uint32_t m = b->n < left ? b->n : left;
            fst_blk_ran(b, 0, m);
            next = b->e[m - 1].d.addr + b->e[m - 1].d.len;
            fst_tr_seq_take(tr, m, next, b->e[m - 1].d.bytes);
        }
    }
    assert_int_equal(k, 0);
}

/* Code elsewhere stays decoded when code is modified (code.c still_right): a second piece of
** code, B, two granules away (tracebin.h FST_TR_GRANULE), runs before the loop at every
** round; the INS that changes the loop's AR moves the epoch, yet B's block is taken again as
** it was (its counts kept, never handed to `count` before the end), while the loop's is
** decoded anew. */
enum { B = A + (2u << FST_TR_GRANULE) };
static uint64_t counted_b;

static void count_b(void *ctx, const fst_insn *d, uint64_t n)
{
    (void)ctx;
    if (d->addr >= B)
        counted_b += n;
}

struct stays {
    const fst_blk *bb;      /* B's block, the first time */
    uint64_t b_runs, builds_at_change, epoch0;
};

static void look_b(fst_tr *tr, fst_code *code, const fst_blk *b, uint64_t next, uint64_t builds, void *ctx)
{
    struct stays *st = ctx;
    if (next != B + 2)
        return;             /* B's run after its first instruction */
    if (!st->bb)
        st->bb = b;
    assert_ptr_equal(b, st->bb);    /* the same block, never decoded again */
    assert_memory_equal(b->e[0].d.bytes, lr12, 2);
    if (fst_tr_code_epoch(tr) != st->epoch0 && !st->builds_at_change) {
        st->builds_at_change = code->builds;
        assert_int_equal(st->builds_at_change, builds + 1);  /* counted as built */
    }
    st->b_runs++;
}

static void test_other_code_stays(void **state)
{
    (void)state;
    char path[64];
    fst_err err;
    fst_tw *w = writer(path, sizeof path, "stays");
    for (int r = 0; r < ROUNDS; r++) {
        assert_int_equal(fst_tw_insn(w, B, lr31, 2), 0);
        assert_int_equal(fst_tw_insn(w, B + 2, lr12, 2), 0);
        assert_int_equal(fst_tw_insn(w, B + 4, bcr, 2), 0);
        for (int i = 0; i < PER; i++)
            assert_int_equal(fst_tw_insn(w, A + 2 * (uint64_t)i, written(r, i), 2), 0);
    }
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_clock *clk = fst_clock_open("mips:1", &err);
    fst_tr *tr = fst_tr_open(path, &err);
    assert_non_null(tr);
    fst_code *code = fst_code_new(clk, count_b, NULL);
    counted_b = 0;
    struct stays st = { NULL, 0, 0, fst_tr_code_epoch(tr) };
    read_blocks(tr, code, look_b, &st);
    uint64_t epoch0 = st.epoch0;
    assert_int_equal(fst_tr_code_epoch(tr), epoch0 + 1);
    assert_true(st.builds_at_change != 0);  /* B ran after the change */
    assert_int_equal(counted_b, 0);         /* B's counts stayed in its block */
    assert_true(fst_tr_code_same_since(tr, B, B + 4, epoch0));
    assert_false(fst_tr_code_same_since(tr, A, A + 6, epoch0));
    assert_true(fst_tr_code_same_since(tr, A, A + 6, epoch0 + 1));
    fst_code_fold(code);
    assert_int_equal(counted_b, 2 * st.b_runs);
    fst_code_free(code);
    fst_tr_close(tr);
    fst_clock_free(clk);
    unlink(path);
}

/* Code that differs at one address by the round (an operating system's address spaces: two
** kinds of task whose private code lies at the same addresses, sent again at every switch):
** both versions stay decoded (code.c still_right: its bytes the cache's again), in the
** address's two slots: no block's counts are handed to `count` before the end (a block
** decoded again hands its counts out first), and each version's add up. */
static uint64_t counted_v[2];

static void count_v(void *ctx, const fst_insn *d, uint64_t n)
{
    (void)ctx;
    if (d->addr == A + 2)
        counted_v[d->bytes[0] == sr12[0]] += n;
}

/* b's instructions are the bytes the code cache holds now */
static void look_now(fst_tr *tr, fst_code *code, const fst_blk *b, uint64_t next, uint64_t builds, void *ctx)
{
    (void)code, (void)next, (void)builds, (void)ctx;
    for (uint32_t i = 0; i < b->n; i++) {
        uint8_t now[6];
        assert_int_equal(fst_tr_code(tr, b->e[i].d.addr, now), b->e[i].d.len);
        assert_memory_equal(now, b->e[i].d.bytes, 6);
    }
}

static void test_versions_stay(void **state)
{
    (void)state;
    char path[64];
    fst_err err;
    fst_tw *w = writer(path, sizeof path, "versions");
    for (int r = 0; r < ROUNDS; r++)    /* AR 1,2 in even rounds, SR 1,2 in odd ones; twice a
                                           round: the second time a SEQ run through them */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < PER; i++)
                assert_int_equal(fst_tw_insn(w, A + 2 * (uint64_t)i, i == 1 && r % 2 ? sr12 : written(0, i), 2), 0);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_clock *clk = fst_clock_open("mips:1", &err);
    fst_tr *tr = fst_tr_open(path, &err);
    assert_non_null(tr);
    fst_code *code = fst_code_new(clk, count_v, NULL);
    counted_v[0] = counted_v[1] = 0;
    uint64_t epoch0 = fst_tr_code_epoch(tr);
    read_blocks(tr, code, look_now, NULL);
    assert_true(fst_tr_code_epoch(tr) > epoch0 + 2);   /* replaced again and again */
    assert_int_equal(counted_v[0] + counted_v[1], 0);  /* no block decoded again */
    fst_code_fold(code);
    /* each round's second AR or SR, in a run (the first is its INS, not a block's) */
    assert_int_equal(counted_v[0], ROUNDS / 2);
    assert_int_equal(counted_v[1], ROUNDS / 2);
    fst_code_free(code);
    fst_tr_close(tr);
    fst_clock_free(clk);
    unlink(path);
}

/* fst_tr_next_run: a run (2) hands out no instruction; the blocks from rec.addr are the
** instructions written, what is not a run (an INS) comes as from fst_tr_next. */
static void test_runs_whole(void **state)
{
    (void)state;
    char path[64];
    make(path, sizeof path, "runs");
    fst_err err;
    fst_clock *clk = fst_clock_open("mips:1", &err);
    fst_tr *tr = fst_tr_open(path, &err);
    assert_non_null(tr);
    fst_code *code = fst_code_new(clk, count, NULL);
    uint64_t seen = 0, runs = 0;
    fst_rec rec;
    int k;
    while ((k = fst_tr_next_run(tr, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN)
            continue;
        assert_int_equal(rec.addr, A + 2 * (seen % PER));
        if (k == 1) {   /* an INS: its bytes */
            assert_memory_equal(rec.bytes, written((int)(seen / PER), (int)(seen % PER)), 2);
            seen++;
            continue;
        }
        assert_int_equal(k, 2);
        runs++;
        assert_int_equal(rec.len, 0);
        uint32_t left = fst_tr_seq_left(tr);
        assert_true(left >= 1);
        assert_int_equal(rec.value, left);
        uint64_t next = rec.addr;
        while (left) {
            fst_blk *b = fst_code_block(code, tr, next, rec.state);
            assert_non_null(b);
            uint32_t m = b->n < left ? b->n : left;
            for (uint32_t i = 0; i < m; i++, seen++)
                assert_memory_equal(b->e[i].d.bytes, written((int)(seen / PER), (int)(seen % PER)), 2);
            next = b->e[m - 1].d.addr + b->e[m - 1].d.len;
            fst_tr_seq_take(tr, m, next, b->e[m - 1].d.bytes);
            left -= m;
            assert_int_equal(fst_tr_seq_left(tr), left);
        }
    }
    assert_int_equal(k, 0);
    assert_int_equal(seen, ROUNDS * PER);
    assert_true(runs >= ROUNDS - 1);
    assert_int_equal(fst_tr_insns(tr), ROUNDS * PER);
    fst_code_free(code);
    fst_tr_close(tr);
    fst_clock_free(clk);
    unlink(path);
}

/* fst_code_slot: the halfwords of one span (2^(bits+1) bytes) take every slot once; the same
** offsets in spans a span apart (page-aligned routines of a load module) seldom meet. By the
** low bits alone, routines a span apart met in every slot (the replay decoded their blocks
** again at every call: code.h). */
static void test_slots_spread(void **state)
{
    (void)state;
    enum { BITS = FST_CODE_NBLK_BITS, N = 1 << BITS };
    static unsigned char seen[N];
    memset(seen, 0, sizeof seen);
    for (uint64_t a = 0x24000; a < 0x24000 + 2 * (uint64_t)N; a += 2)
        seen[fst_code_slot(a, BITS)]++;
    for (size_t i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    /* 32 routines a span apart, each with its first 64 halfwords hot: few meet */
    unsigned met = 0;
    memset(seen, 0, sizeof seen);
    for (uint64_t r = 0; r < 32; r++)
        for (uint64_t h = 0; h < 64; h++)
            met += seen[fst_code_slot(0x20000 + r * 2 * (uint64_t)N + 2 * h, BITS)]++ != 0;
    assert_true(met < 2048 / 16);   /* by the low bits: 31 x 64 = 1984 */
}

static uint64_t shared_counted;
static void count_all(void *ctx, const fst_insn *d, uint64_t n)
{
    (void)ctx;
    (void)d;
    shared_counted += n;
}

/* Two blocks whose addresses have the same slot both stay (the cache's two ways: code.h):
** looked up in turn 100 times each, two builds, not 200; a third with that slot makes them
** give way in turn, and every execution counted in a block given away reaches `count`. */
static void test_blocks_share_a_slot(void **state)
{
    (void)state;
    uint64_t at[3] = { 0x20000, 0, 0 };
    size_t slot = fst_code_slot(at[0], FST_CODE_NBLK_BITS);
    for (int k = 1; k < 3; k++)     /* the same slot, in spans further up */
        for (uint64_t a = at[k - 1] + 2 * FST_CODE_NBLK;; a += 2)
            if (fst_code_slot(a, FST_CODE_NBLK_BITS) == slot) {
                at[k] = a;
                break;
            }
    char path[64];
    fst_err err;
    fst_tw *w = writer(path, sizeof path, "share");
    for (int k = 0; k < 3; k++) {   /* LR 1,2; BCR 15,14 at each */
        assert_int_equal(fst_tw_insn(w, at[k], lr12, 2), 0);
        assert_int_equal(fst_tw_insn(w, at[k] + 2, bcr, 2), 0);
    }
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_clock *clk = fst_clock_open("mips:1", &err);
    fst_tr *tr = fst_tr_open(path, &err);
    assert_non_null(tr);
    fst_rec rec;
    while (fst_tr_next(tr, &rec, &err) > 0) /* the reader learns the code */
        ;
    fst_code *code = fst_code_new(clk, count_all, NULL);
    shared_counted = 0;
    for (int i = 0; i < 200; i++) {
        fst_blk *b = fst_code_block(code, tr, at[i & 1], 0);
        assert_non_null(b);
        assert_int_equal(b->n, 2);
        assert_int_equal(b->addr, at[i & 1]);
        fst_blk_ran(b, 0, 2);
    }
    assert_int_equal(code->builds, 2);
    for (int i = 0; i < 300; i++) {
        fst_blk *b = fst_code_block(code, tr, at[i % 3], 0);
        assert_non_null(b);
        assert_int_equal(b->addr, at[i % 3]);
        fst_blk_ran(b, 0, 2);
    }
    assert_true(code->builds > 3);  /* three blocks, two ways */
    fst_code_fold(code);
    assert_int_equal(shared_counted, 2 * (200 + 300));
    fst_code_free(code);
    fst_tr_close(tr);
    fst_clock_free(clk);
    unlink(path);
}

/* A block built where the code cache knew no more than a run had gone (a conditional branch
** taken at its end) grows when a later run goes past that branch (fst_code_extend): its
** counts stay where they were, the instructions added start at none, and only with `built`
** does it count as a block built. */
static void test_block_grows(void **state)
{
    (void)state;
    /* LR 1,2; BC 8,0(0,15) taken back to A in the first two rounds; in the next three not
    ** taken, then LR 3,1; BCR 15,14 back to A */
    static const uint8_t bc8[4] = { 0x47, 0x80, 0xF0, 0x00 };
    char path[64];
    fst_err err;
    fst_tw *w = writer(path, sizeof path, "grow");
    for (int r = 0; r < 2; r++) {
        assert_int_equal(fst_tw_insn(w, A, lr12, 2), 0);
        assert_int_equal(fst_tw_insn(w, A + 2, bc8, 4), 0);
    }
    for (int r = 0; r < 3; r++) {
        assert_int_equal(fst_tw_insn(w, A, lr12, 2), 0);
        assert_int_equal(fst_tw_insn(w, A + 2, bc8, 4), 0);
        assert_int_equal(fst_tw_insn(w, A + 6, lr31, 2), 0);
        assert_int_equal(fst_tw_insn(w, A + 8, bcr, 2), 0);
    }
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    for (int built = 0; built < 2; built++) {
        fst_clock *clk = fst_clock_open("mips:1", &err);
        fst_tr *tr = fst_tr_open(path, &err);
        assert_non_null(tr);
        fst_code *code = fst_code_new(clk, count_all, NULL);
        shared_counted = 0;
        uint64_t seen = 0, grown = 0, direct = 0;
        fst_rec rec;
        int k;
        while ((k = fst_tr_next_run(tr, &rec, &err)) > 0) {
            if (rec.kind != FST_REC_INSN)
                continue;
            seen++;
            if (k == 1) {   /* an INS: counted here */
                direct++;
                continue;
            }
            uint32_t left = fst_tr_seq_left(tr);
            fst_blk *b = fst_code_block(code, tr, rec.addr, rec.state);
            assert_non_null(b);
            uint64_t builds = code->builds;
            if (b->n < left) {  /* the run goes past the block's end: it grows */
                assert_int_equal(b->n, 2);
                assert_int_equal(fst_code_extend(code, b, tr, built), 1);
                assert_int_equal(code->builds, builds + (uint64_t)built);
                grown++;
            }
            assert_true(left == 2 || left == 4);    /* the first round's LR, BC as a run too */
            assert_int_equal(b->n, grown ? 4 : 2);
            if (grown) {
                assert_int_equal(fst_code_extend(code, b, tr, built), 0);   /* ends at a BCR 15 */
                for (uint32_t i = 0; i < 4; i++)
                    assert_true(b->e[i].d.addr == (uint64_t)A + (i ? 2u + 4u * (i > 1) + 2u * (i > 2) : 0u));
                assert_true(b->e[3].sum == b->e[2].sum + b->e[2].cost[0]);
            }
            fst_blk_ran(b, 0, left);
            const fst_insn *l = &b->e[left - 1].d;
            fst_tr_seq_take(tr, left, l->addr + l->len, l->bytes);
            seen += left - 1;
        }
        assert_int_equal(k, 0);
        assert_int_equal(grown, 1);
        assert_int_equal(seen, 2 + 3 * 4 + 2);
        fst_code_fold(code);
        assert_int_equal(shared_counted + direct, seen);
        fst_code_free(code);
        fst_tr_close(tr);
        fst_clock_free(clk);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_follow_modified_code),
        cmocka_unit_test(test_runs_whole),
        cmocka_unit_test(test_slots_spread),
        cmocka_unit_test(test_blocks_share_a_slot),
        cmocka_unit_test(test_block_grows),
        cmocka_unit_test(test_other_code_stays),
        cmocka_unit_test(test_versions_stay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
