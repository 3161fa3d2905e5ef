/*
** tests/unit/test_tracebin_run.c — trace/tracebin.h's run reader (fst_tr_next_run and
** fst_tr_seq_take, inline, with the reader's cursor) against fst_tr_next: the same
** instructions, records, end and errors, record for record, whatever the trace holds.
** The traces jump among 2, 3 and 4 targets (the fast path's JMP k <= 3, taken while the
** list of recent targets is still filling) and among 40 (JMP k up to 15, JMPA of 1, 2
** or 3 varint bytes: targets 24, 200 or 1024 bytes apart by seed), change state and CPU,
** are interrupted, modify their code, and are cut into frames at random
** points, right after a jump included (the JMP then ends a frame, its SEQ begins the
** next). Every byte of a version 1 op stream is then replaced, the frame's CRC made right
** again, and both readers must still agree: the same records up to the same error, with
** the same message and byte offset, or the same end.
*/
#include "trace/tracebin.h"
#include "common/bytes.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>

enum { A = 0x20000, NTARGET = 40, MAXEV = 40000 };

static char path[64], bad[80];

/* One record as a reader handed it out; an instruction of a run as the replay sees it. */
typedef struct ev {
    uint64_t addr;
    uint32_t state, code;
    uint16_t cpu;
    uint8_t kind, len;
} ev;

typedef struct outcome {
    ev *e;
    size_t n;
    int rc;               /* the last call's: 0 end, -1 error */
    char msg[800];
    int complete;
    uint64_t insns;       /* fst_tr_insns at the end */
} outcome;

static uint32_t seed;
static unsigned rnd(unsigned n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
}

/* A trace of about ninsn instructions: loops over 2, 3 and 4 targets and jumps among 40,
** in blocks of 1 to 5 instructions and now and then of 30 to 80 (at 64 the writer starts
** another SEQ op). */
static void make(const char *p, unsigned version, int ninsn, uint32_t s)
{
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(p, hdr, version, &err);
    assert_non_null(w);
    seed = s;
    uint32_t state = 0x0D;
    unsigned cpu = 0, loop = 4;
    int forced = -1;
    fst_tw_state(w, state);
    for (int n = 0; n < ninsn;) {
        unsigned r = rnd(1000);
        if (r < 5) {
            fst_tw_state(w, state ^= FST_ST_PROBLEM);
            continue;
        }
        if (r < 8) {
            fst_tw_cpu(w, cpu ^= 1);
            continue;
        }
        if (r < 11) {
            fst_tw_intr(w, FST_INTR_SVC, r);
            continue;
        }
        if (r < 13) {
            fst_tw_pgmchk(w, 4, 2);
            continue;
        }
        if (r < 40)
            loop = 2 + rnd(3);
        /* a block of 1 to 5 instructions at a target: of the loop's (k <= 3), or any */
        unsigned t = forced >= 0 ? (unsigned)forced : r < 900 ? n / 3 % loop : rnd(NTARGET);
        forced = -1;
        /* targets 1 KB apart (JMPA of 3 varint bytes), or 24 and 200 bytes (of 1 and 2:
        ** what the fast path takes, with the list of recent targets full) */
        uint64_t space = s % 3 == 1 ? 1024 : s % 3 == 2 ? 200 : 24;
        uint64_t at = A + (uint64_t)t * space;
        unsigned m = r % 23 ? 1 + (t + r) % 5 : 30 + rnd(50); /* SEQ 0 to 63, or two SEQs */
        /* the block's last instruction a BRC, BRAS or BRCL to the next block's target, often
        ** (TAKEN), or to elsewhere (the jump that follows is a JMP or JMPA) */
        int rel = rnd(3);
        unsigned t2 = r < 900 ? (n + m) / 3 % loop : rnd(NTARGET);
        uint64_t to = A + (uint64_t)t2 * space;
        if (rel)
            forced = (int)t2;   /* the next block is there */
        for (unsigned i = 0; i < m; i++, n++) {
            uint8_t b[6] = { (uint8_t)(i % 3 == 2 ? 0x58 : 0x18), (uint8_t)(t ^ i), 0x34, 0x56, 0, 0 };
            if (i == m - 1 && rel) {
                int64_t d = ((int64_t)(to - at) + (rnd(4) ? 0 : 8)) / 2;
                if (rel == 1) {
                    b[0] = 0xA7, b[1] = rnd(2) ? 0xF4 : 0x05;   /* BRC 15, BRAS 0 */
                    fst_put_be16(b + 2, (uint16_t)d);
                } else {
                    b[0] = 0xC0, b[1] = 0xF4;                   /* BRCL 15 */
                    fst_put_be32(b + 2, (uint32_t)d);
                }
            }
            if (rnd(400) == 0)
                b[1] ^= 0xFF;   /* the code changed */
            int len = b[0] < 0x40 ? 2 : b[0] < 0xC0 ? 4 : 6;
            assert_int_equal(fst_tw_insn(w, at, b, len), 0);
            at += (uint64_t)len;
            if (rnd(9) == 0)    /* a frame ends here: after a JMP, in a SEQ run */
                assert_int_equal(fst_tw_flush(w, &err), 0);
        }
    }
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
}

static void add(outcome *o, const fst_rec *rec, uint64_t addr, uint8_t len, uint32_t code)
{
    assert_true(o->n < MAXEV);
    o->e[o->n++] = (ev){ .addr = addr, .state = rec->state, .code = code, .cpu = rec->cpu,
                         .kind = (uint8_t)rec->kind, .len = len };
}

static void record(outcome *o, const fst_rec *rec)
{
    int insn = rec->kind == FST_REC_INSN, intr = rec->kind == FST_REC_PGMCHK || rec->kind == FST_REC_INTR;
    add(o, rec, insn ? rec->addr : 0, insn ? rec->len : 0, intr ? rec->code : 0);
}

/* A SEQ run (rec from fst_tr_next_run) taken as the replay takes it: bytes from
** fst_tr_code, chunks of 1 to 3 instructions handed back with fst_tr_seq_take; where the
** code cache holds none, the rest is left to fst_tr_next. Every other chunk or so with
** fst_tr_seq_take_to, its TAKEN target decoded here. */
static void take_run(fst_tr *r, const fst_rec *rec, outcome *o, unsigned *chunk)
{
    assert_int_equal(rec->kind, FST_REC_INSN);
    assert_int_equal(rec->len, 0);
    assert_true(rec->value >= 1);
    assert_int_equal(rec->value, fst_tr_seq_left(r));
    uint32_t left = (uint32_t)rec->value;
    uint64_t a = rec->addr;
    while (left) {
        uint32_t want = 1 + (*chunk)++ % 3, took = 0;
        if (want > left)
            want = left;
        uint8_t b[6];
        while (took < want) {
            int len = fst_tr_code(r, a, b);
            if (!len)
                break;
            add(o, rec, a, (uint8_t)len, 0);
            a += (uint64_t)len;
            took++;
        }
        if (took) {
            uint64_t before = fst_tr_insns(r);
            if (*chunk & 4)  /* b: the last one's bytes (a TAKEN's branch), or its target */
                fst_tr_seq_take(r, took, a, b);
            else    /* as the replay gives it, decoded with its block (code.h fst_blk.to) */
                fst_tr_seq_take_to(r, took, a, fst_tb_taken_to(b, a - (uint64_t)fst_insn_len(b[0]), rec->state));
            assert_int_equal(fst_tr_insns(r), before + took);
        }
        if (took < want)
            return;     /* no bytes at a: fst_tr_next says what is wrong */
        left -= took;
    }
    assert_int_equal(fst_tr_seq_left(r), 0);
}

static void read_all(const char *p, int runs, outcome *o)
{
    fst_err err;
    memset(&err, 0, sizeof err);
    o->n = 0;
    o->msg[0] = 0;
    o->complete = -1;
    o->insns = 0;
    fst_tr *r = fst_tr_open(p, &err);
    if (!r) {
        o->rc = -2;
        snprintf(o->msg, sizeof o->msg, "%s", err.msg);
        return;
    }
    fst_rec rec;
    unsigned chunk = 0;
    int k;
    for (;;) {
        k = runs ? fst_tr_next_run(r, &rec, &err) : fst_tr_next(r, &rec, &err);
        if (k <= 0)
            break;
        if (k == 2)
            take_run(r, &rec, o, &chunk);
        else
            record(o, &rec);
        if (runs && fst_tr_seq_left(r)) {   /* bytes missing inside the run */
            if ((k = fst_tr_next(r, &rec, &err)) <= 0)
                break;
            record(o, &rec);
        }
    }
    o->rc = k;
    if (k < 0)
        snprintf(o->msg, sizeof o->msg, "%s", err.msg);
    else
        o->complete = fst_tr_complete(r, NULL);
    o->insns = fst_tr_insns(r);
    fst_tr_close(r);
}

static void same(const outcome *a, const outcome *b, const char *what)
{
    if (a->rc != b->rc || strcmp(a->msg, b->msg) || a->complete != b->complete || a->n != b->n ||
        a->insns != b->insns)
        fail_msg("%s: fst_tr_next ended %d after %zu records, %llu instructions (%s); the run reader %d after "
                 "%zu, %llu (%s)", what, a->rc, a->n, (unsigned long long)a->insns, a->msg, b->rc, b->n,
                 (unsigned long long)b->insns, b->msg);
    for (size_t i = 0; i < a->n; i++) {
        const ev *x = &a->e[i], *y = &b->e[i];
        if (x->addr != y->addr || x->state != y->state || x->code != y->code || x->cpu != y->cpu ||
            x->kind != y->kind || x->len != y->len)
            fail_msg("%s: record %zu differs: kind %d at %llx, kind %d at %llx", what, i, a->e[i].kind,
                     (unsigned long long)a->e[i].addr, b->e[i].kind, (unsigned long long)b->e[i].addr);
    }
}

static outcome one, two;

static int setup(void **state)
{
    (void)state;
    one.e = calloc(MAXEV, sizeof *one.e);
    two.e = calloc(MAXEV, sizeof *two.e);
    return !one.e || !two.e;
}

static int teardown(void **state)
{
    (void)state;
    free(one.e);
    free(two.e);
    unlink(path);
    unlink(bad);
    return 0;
}

/* Whole traces, both versions, several seeds: the same records, and all of them. */
static void test_runs_read_what_next_reads(void **state)
{
    (void)state;
    for (unsigned version = 1; version <= 2; version++)
        for (uint32_t s = 1; s <= 6; s++) {
            make(path, version, 6000, s);
            read_all(path, 0, &one);
            read_all(path, 1, &two);
            char what[40];
            snprintf(what, sizeof what, "version %u seed %u", version, s);
            same(&one, &two, what);
            assert_int_equal(one.rc, 0);
            assert_int_equal(one.complete, 1);
            size_t insns = 0;
            for (size_t i = 0; i < one.n; i++)
                insns += one.e[i].kind == FST_REC_INSN;
            assert_int_equal(insns, one.insns);
            assert_true(one.insns >= 6000);
        }
}

/* Every op-stream byte of a version 1 trace replaced by one of a few values (a flipped
** bit, a JMP to each of the fast path's targets and beyond, a SEQ, a TAKEN, an unknown op), the
** frame's CRC made to match: the damage reaches the op decoder, and both readers agree. */
static void test_damaged_ops_read_alike(void **state)
{
    (void)state;
    make(path, 1, 700, 7);
    static uint8_t buf[1 << 18];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n < sizeof buf);
    static const int vals[] = { -1, 0x40, 0x43, 0x44, 0x4F, 0x00, 0x3F, 0x57, 0x80, 0x82, 0xBF, 0xC0, 0xFF };
    size_t frames = 0, tried = 0, errors = 0;
    for (size_t off = 8; off + 12 <= n; off += 12 + fst_get_le32(buf + off + 4)) {
        uint32_t len = fst_get_le32(buf + off + 4);
        if (memcmp(buf + off, "EVNT", 4))
            continue;
        frames++;
        for (size_t at = off + 8 + 8; at < off + 8 + len; at++)
            for (size_t v = 0; v < sizeof vals / sizeof vals[0]; v++) {
                uint8_t was = buf[at], crc[4];
                buf[at] = vals[v] < 0 ? was ^ 0x10 : (uint8_t)vals[v];
                if (buf[at] == was) {
                    buf[at] = was;
                    continue;
                }
                memcpy(crc, buf + off + 8 + len, 4);
                fst_put_le32(buf + off + 8 + len, (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf + off, 8 + len));
                f = fopen(bad, "wb");
                assert_non_null(f);
                assert_int_equal(fwrite(buf, 1, n, f), n);
                fclose(f);
                buf[at] = was;
                memcpy(buf + off + 8 + len, crc, 4);
                read_all(bad, 0, &one);
                read_all(bad, 1, &two);
                char what[60];
                snprintf(what, sizeof what, "byte %zu := 0x%02X", at, vals[v] < 0 ? was ^ 0x10 : vals[v]);
                same(&one, &two, what);
                tried++;
                errors += one.rc < 0;
            }
    }
    fprintf(stderr, "# %zu frames, %zu changes, %zu errors\n", frames, tried, errors);
    assert_true(frames >= 10);          /* the flushes cut it into many */
    assert_true(errors > tried / 4);    /* and most damage is an error (a changed SEQ length need not be) */
}

/* ---- repeated stretches (fst_tr_mark_here, fst_tr_mark_span, fst_tr_skip_repeats) ---- */

/* A loop of three blocks (2, 3 and 1 instructions at three targets) run iters times between
** a prologue and an epilogue, a frame ended every `flush` iterations (0: never). */
static void make_loop(const char *p, unsigned version, int iters, int flush)
{
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(p, hdr, version, &err);
    assert_non_null(w);
    fst_tw_state(w, 0x0D);
    static const uint8_t lr[6] = { 0x18, 0x12 };
    static const unsigned len[4] = { 3, 2, 3, 1 };
    for (int it = -1; it <= iters; it++)    /* -1: the prologue, iters: the epilogue */
        for (unsigned blk = 0; blk < 4; blk++) {
            if ((it < 0 || it == iters) != (blk == 0))
                continue;
            uint64_t at = A + (it == iters ? 0x8000 : 0) + blk * 0x100;
            for (unsigned i = 0; i < len[blk]; i++, at += 2)
                assert_int_equal(fst_tw_insn(w, at, lr, 2), 0);
            if (flush && blk == 3 && it % flush == flush - 1)
                assert_int_equal(fst_tw_flush(w, &err), 0);
        }
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
}

/* Read the loop trace with runs taken whole, marking the reader at the end of every
** iteration and skipping the iterations that repeat the one between the last two marks: the
** instructions, and their count, are those of reading it all; returns the iterations skipped. */
static uint64_t read_skipping(const char *p, outcome *o)
{
    fst_err err;
    fst_tr *r = fst_tr_open(p, &err);
    assert_non_null(r);
    o->n = 0;
    fst_rec rec;
    fst_tr_mark last, now;
    int have = 0, k;
    uint8_t ops[64];
    size_t nops = 0;
    uint64_t per = 0, skipped = 0;
    while ((k = fst_tr_next_run(r, &rec, &err)) > 0) {
        if (k == 1) {           /* the state at the start */
            record(o, &rec);
            continue;
        }
        uint64_t a = rec.addr;
        for (uint32_t i = 0; i < rec.value; i++, a += 2)
            add(o, &rec, a, 2, 0);
        uint8_t lb[6];
        assert_int_equal(fst_tr_code(r, a - 2, lb), 2);
        fst_tr_seq_take(r, (uint32_t)rec.value, a, lb);
        if (rec.addr != A + 3 * 0x100)
            continue;           /* not the end of an iteration */
        assert_true(fst_tr_mark_here(r, &now));
        if (!nops && have)
            nops = fst_tr_mark_span(&last, &now, ops, sizeof ops, &per);
        if (!nops) {
            last = now, have = 1;
            continue;
        }
        assert_int_equal(per, 6);   /* 2 + 3 + 1 instructions */
        uint64_t n = fst_tr_skip_repeats(r, &last, ops, nops, per);
        for (uint64_t i = 0; i < n; i++)  /* what reading them would have handed out */
            for (unsigned blk = 1; blk < 4; blk++)
                for (unsigned j = 0; j < (blk == 2 ? 3u : blk == 1 ? 2u : 1u); j++)
                    add(o, &rec, A + blk * 0x100 + 2 * j, 2, 0);
        skipped += n;
    }
    assert_int_equal(k, 0);
    o->insns = fst_tr_insns(r);
    fst_tr_close(r);
    return skipped;
}

static void test_repeats_skipped_as_read(void **state)
{
    (void)state;
    for (unsigned version = 1; version <= 2; version++)
        for (int flush = 0; flush <= 7; flush += 7) {
            make_loop(path, version, 500, flush);
            read_all(path, 0, &one);
            uint64_t n = read_skipping(path, &two);
            assert_int_equal(one.n, two.n);
            for (size_t i = 0; i < one.n; i++)
                if (one.e[i].addr != two.e[i].addr)
                    fail_msg("version %u, frames of %d iterations: instruction %zu at %llx, skipping %llx", version,
                             flush, i, (unsigned long long)one.e[i].addr, (unsigned long long)two.e[i].addr);
            assert_int_equal(one.insns, two.insns);
            assert_int_equal(one.insns, 3 + 500 * 6 + 3);
            /* one frame: all but the first few iterations (the list of recent targets fills,
            ** two marks span one) skipped in one go; frames of 7: within each */
            if (flush)
                assert_true(n >= 500 / 7 * 4 && n < 500);
            else if (n < 500 - 3 || n >= 500)
                fail_msg("version %u: %llu iterations skipped", version, (unsigned long long)n);
        }
}

/* fst_tr_mark_copy and fst_tr_skip_to (analyze/replay/replay_memo.c): the bytes of
** iterations 10-12, copied, are skipped at the end of iteration 20 after the next run was
** read (it is dropped): the reader hands out what reading iterations 21-23 would have, and
** a mark in another state, or a stretch whose bytes differ, moves nothing. */
static void test_stretch_skipped_to(void **state)
{
    (void)state;
    for (int flush = 0; flush <= 20; flush += 20) {
        make_loop(path, 2, 40, flush);
        read_all(path, 0, &one);
        fst_err err;
        fst_tr *r = fst_tr_open(path, &err);
        assert_non_null(r);
        fst_rec rec;
        fst_tr_mark a, b, at, mid;
        uint8_t ops[256];
        size_t nops = 0;
        uint64_t per = 0;
        int it = 0, k, skipped = 0, refused = 0;
        two.n = 0;
        while ((k = fst_tr_next_run(r, &rec, &err)) > 0) {
            if (k == 1) {
                record(&two, &rec);
                continue;
            }
            uint64_t x = rec.addr;
            for (uint32_t i = 0; i < rec.value; i++, x += 2)
                add(&two, &rec, x, 2, 0);
            uint8_t lb[6];
            assert_int_equal(fst_tr_code(r, x - 2, lb), 2);
            fst_tr_seq_take(r, (uint32_t)rec.value, x, lb);
            if (rec.addr == A + 0x100 && it == 25) {
                assert_true(fst_tr_mark_here(r, &mid));   /* inside an iteration: another state */
                refused += !fst_tr_skip_to(r, &mid, &a, ops, nops, &b);
            }
            if (rec.addr != A + 3 * 0x100)
                continue;
            it++;
            if (it == 10)
                assert_true(fst_tr_mark_here(r, &a));
            if (it == 13) {
                assert_true(fst_tr_mark_here(r, &b));
                nops = fst_tr_mark_copy(&a, &b, ops, sizeof ops, &per);
                assert_true(nops > 0);
                assert_int_equal(per, 3 * 6);
                uint64_t q;
                assert_int_equal(fst_tr_mark_copy(&a, &b, ops, nops - 1, &q), 0);  /* too long */
            }
            if (it == 20) {
                assert_true(fst_tr_mark_here(r, &at));
                assert_int_equal(fst_tr_next_run(r, &rec, &err), 2);  /* read, then dropped */
                if (!fst_tr_skip_to(r, &at, &a, ops, nops, &b))
                    fail_msg("frames of %d: not skipped", flush);
                skipped = 1;
                for (int i = 0; i < 3; i++, it++)   /* what reading them would have handed out */
                    for (unsigned blk = 1; blk < 4; blk++)
                        for (unsigned j = 0; j < (blk == 2 ? 3u : blk == 1 ? 2u : 1u); j++)
                            add(&two, &rec, A + blk * 0x100 + 2 * j, 2, 0);
            }
        }
        assert_int_equal(k, 0);
        two.insns = fst_tr_insns(r);
        fst_tr_close(r);
        assert_true(skipped);
        assert_int_equal(refused, 1);
        assert_int_equal(one.n, two.n);
        for (size_t i = 0; i < one.n; i++)
            if (one.e[i].addr != two.e[i].addr)
                fail_msg("frames of %d: instruction %zu at %llx, skipping %llx", flush, i,
                         (unsigned long long)one.e[i].addr, (unsigned long long)two.e[i].addr);
        assert_int_equal(one.insns, two.insns);
    }
}

/* The list of recent jump targets (fst_mru) against a plain move-to-front list of 16: the
** same addresses in the same order, and its buckets counting them, whatever the jumps (and
** a list that keeps 4, a trace's that says FST_HK_RECENT=4: the first 4 of them):
** among 6, 20 or 200 targets, some of them sharing a bucket, and with entries moved about
** in a[0..n-1] by the caller, as fst_tr_fast_skip puts back a stretch's recent targets. */
static void test_mru_is_a_list(void **state)
{
    (void)state;
    static const unsigned pools[] = { 6, 20, 200 };
    for (uint32_t s = 1; s <= 30; s++) {
        seed = s;
        unsigned npool = pools[s % 3];
        uint64_t pool[200];
        for (unsigned i = 0; i < npool; i++) {  /* a third of them in the bucket of the one before */
            do
                pool[i] = A + 2 * rnd(1u << 16);
            while (i % 3 == 2 && (pool[i] == pool[i - 1] || fst_mru_bucket(pool[i]) != fst_mru_bucket(pool[i - 1])));
        }
        fst_mru m, m4;   /* keeping 16, and keeping 4 (a trace that says FST_HK_RECENT=4) */
        memset(&m, 0, sizeof m);
        memset(&m4, 0, sizeof m4);
        m.cap = FST_TR_MRU;
        m4.cap = 4;
        uint64_t ref[FST_TR_MRU];
        int nref = 0;
        for (int it = 0; it < 20000; it++) {
            uint64_t to;
            if (m.n && rnd(4) == 0) { /* a[k] to the front by hand, k < min(n, 4) */
                int k = (int)rnd((unsigned)(m.n < 4 ? m.n : 4));
                to = m.a[k];
                for (int j = k; j > 0; j--)
                    m.a[j] = m.a[j - 1];
                m.a[0] = to;
                assert_int_equal(m4.a[k], to);
                for (int j = k; j > 0; j--)
                    m4.a[j] = m4.a[j - 1];
                m4.a[0] = to;
            } else {
                to = pool[rnd(npool)];
                fst_mru_front(&m, fst_mru_find(&m, to), to);
                fst_mru_front(&m4, fst_mru_find(&m4, to), to);
            }
            int k = 0;
            while (k < nref && ref[k] != to)
                k++;
            if (k == nref && nref < FST_TR_MRU)
                nref++;
            for (int j = k < FST_TR_MRU ? k : FST_TR_MRU - 1; j > 0; j--)
                ref[j] = ref[j - 1];
            ref[0] = to;
            assert_int_equal(m.n, nref);
            for (int j = 0; j < nref; j++)
                if (m.a[j] != ref[j])
                    fail_msg("seed %u, jump %d: entry %d is %llx, not %llx", (unsigned)s, it, j,
                             (unsigned long long)m.a[j], (unsigned long long)ref[j]);
            assert_int_equal(m4.n, nref < 4 ? nref : 4);
            for (int j = 0; j < m4.n; j++)  /* the first 4 of a list of 16 */
                if (m4.a[j] != ref[j])
                    fail_msg("seed %u, jump %d: entry %d of 4 is %llx, not %llx", (unsigned)s, it, j,
                             (unsigned long long)m4.a[j], (unsigned long long)ref[j]);
            unsigned in[FST_MRU_BUCKETS] = { 0 }, in4[FST_MRU_BUCKETS] = { 0 };
            for (int j = 0; j < nref; j++)
                in[fst_mru_bucket(ref[j])]++;
            for (int j = 0; j < m4.n; j++)
                in4[fst_mru_bucket(ref[j])]++;
            for (unsigned b = 0; b < FST_MRU_BUCKETS; b++) {
                assert_int_equal(m.in[b], in[b]);
                assert_int_equal(m4.in[b], in4[b]);
            }
        }
    }
}

/* A list of recent targets holding a[0..n-1], as the reader keeps one (cap of them). */
static void mru_of(fst_mru *m, int cap, const uint64_t *a, int n)
{
    memset(m, 0, sizeof *m);
    m->cap = cap;
    for (int i = n; i-- > 0;)
        fst_mru_front(m, -1, a[i]);
}

/* n distinct addresses of a pool of 8 (targets that come back, as in a loop among 6). */
static int pick_list(uint64_t *a, int n, const uint64_t *pool)
{
    for (int i = 0; i < n; i++) {
        int dup;
        do {
            a[i] = pool[rnd(8)];
            dup = 0;
            for (int j = 0; j < i; j++)
                dup |= a[j] == a[i];
        } while (dup);
    }
    return n;
}

/* What fst_tr_fast_deps says runs depend on and leave, against the list itself (fst_mru,
** as the reader moves it): from the start they were read from, and from any other start
** whose targets used are the same and where the JMPA targets are absent where it says, the
** same ops jump to the same addresses and leave the list it says; fst_tr_fast_skip puts
** that list in, its buckets counting it. Runs of SEQ, JMP k and JMPA (most to a target not
** in the list, as a writer writes them, some to one that is) over 8 targets, lists of 4
** kept, full or not. */
static void test_deps_say_what_moves(void **state)
{
    (void)state;
    uint64_t pool[8];
    for (int i = 0; i < 8; i++)
        pool[i] = A + 0x100 * (uint64_t)i;
    unsigned others = 0, alike = 0;
    for (uint32_t s = 1; s <= 3000; s++) {
        seed = s;
        uint64_t a0[4], a1[4], addr[8];
        fst_mru m0, m, m1;
        mru_of(&m0, 4, a0, pick_list(a0, (int)rnd(5), pool));
        m = m0;
        uint8_t ops[8 * 4];
        size_t nb = 0;
        uint32_t runs = 1 + rnd(8);
        for (uint32_t r = 0; r < runs; r++) {
            unsigned how = rnd(4);
            if (how == 1 && m.n) {    /* JMP k */
                int k = (int)rnd((unsigned)m.n);
                ops[nb++] = (uint8_t)(0x40 | k);
                addr[r] = m.a[k];
                fst_mru_front(&m, k, m.a[k]);
            } else if (how >= 2) {    /* JMPA: mostly a target not there */
                uint64_t to;
                do
                    to = pool[rnd(8)];
                while (fst_mru_find(&m, to) >= 0 && rnd(8));
                ops[nb++] = 0x50;
                ops[nb++] = (uint8_t)(1 + rnd(100));   /* a varint: where from, not read here */
                addr[r] = to;
                fst_mru_front(&m, fst_mru_find(&m, to), to);
            } else
                addr[r] = A + 0x1000 + r;
            ops[nb++] = (uint8_t)rnd(64);    /* SEQ */
        }
        fst_tr_deps d;
        assert_int_equal(fst_tr_fast_deps(ops, nb, &m0, addr, runs, &d), 1);
        assert_int_equal(d.runs, runs);
        uint64_t end[FST_TR_MRU];
        assert_int_equal(fst_tr_deps_list(&m0, d.used, d.front, d.nfront, end), m.n);
        assert_memory_equal(end, m.a, (size_t)m.n * sizeof *end);
        assert_int_equal(fst_tr_fast_deps(ops, nb, &m0, addr, runs - 1, &d), 0);   /* more runs than addresses */
        fst_tr_fast_deps(ops, nb, &m0, addr, runs, &d);
        for (int t = 0; t < 20; t++) {   /* other starts: the used the same */
            int n1 = (int)rnd(5);
            pick_list(a1, n1, pool);
            for (int i = 0; i < 4; i++)
                if (d.used >> i & 1) {
                    if (i >= n1)
                        n1 = i + 1;
                    for (int j = 0; j < 4; j++)    /* one place for that address */
                        if (j != i && a1[j] == a0[i])
                            a1[j] = a1[i];
                    a1[i] = a0[i];
                }
            pick_list(a1, 0, pool);
            int dup = 0;
            for (int i = 0; i < n1; i++)
                for (int j = 0; j < i; j++)
                    dup |= a1[i] == a1[j];
            if (dup)
                continue;
            mru_of(&m1, 4, a1, n1);
            fst_tr_at at = { ops, nb, 0, 0, 0, m1.n, m1.a, m1.in };
            int ok = 1;
            for (unsigned j = 0; j < d.nabsent; j++)
                ok &= fst_tr_fast_absent(&at, d.absent[j], d.among[j]);
            if (!ok)
                continue;
            others++;
            uint64_t want[FST_TR_MRU];
            int nw = fst_tr_deps_list(&m1, d.used, d.front, d.nfront, want);
            fst_tr_cursor c = { 0 };    /* the reader's cursor, as fst_tr_fast_skip moves it */
            c.p = ops;
            c.end = ops + nb;
            c.jm = m1;
            fst_tr_fast_skip((fst_tr *)(void *)&c, 0, 0, 0, d.used, d.front, d.nfront, d.nabsent);
            const uint8_t *p = ops;
            for (uint32_t r = 0; r < runs; r++, p++) {  /* the reader's moves from m1 */
                if ((*p & 0xF0) == 0x40) {
                    assert_true((int)(*p & 0x0F) < m1.n);
                    assert_int_equal(m1.a[*p & 0x0F], addr[r]);    /* the same place, the same target */
                    fst_mru_front(&m1, *p & 0x0F, addr[r]);
                    p++;
                } else if (*p == 0x50) {
                    fst_mru_front(&m1, fst_mru_find(&m1, addr[r]), addr[r]);
                    p += 2;
                }
            }
            assert_int_equal(nw, m1.n);
            assert_memory_equal(want, m1.a, (size_t)m1.n * sizeof *want);
            assert_int_equal(c.jm.n, m1.n);
            assert_memory_equal(c.jm.a, m1.a, (size_t)m1.n * sizeof *want);
            assert_memory_equal(c.jm.in, m1.in, sizeof m1.in);
            alike += memcmp(a1, a0, sizeof a0) != 0 || n1 != m0.n;
        }
    }
    assert_true(others > 10000);    /* the test took other starts, most of them not the one read */
    assert_true(alike > 5000);
}

/* The writer's jumps against a plain move-to-front list of 16 (the reader's, fst_mru): a
** jump to a target among its first 4 is a JMP k with that k, any other a JMPA. Read from a
** version 1 trace's op stream: jumps among 3 to 200 targets, one instruction at each.
** (A writer that kept its list wrong but still wrote JMPA where unsure would read back
** right and only grow the trace: the roundtrips above cannot tell.) */
static void test_writer_jumps_are_the_lists(void **state)
{
    (void)state;
    static const unsigned pools[] = { 3, 5, 9, 20, 200 };
    for (uint32_t s = 1; s <= 15; s++) {
        seed = s;
        unsigned npool = pools[s % 5];
        uint64_t pool[200];
        for (unsigned i = 0; i < npool; i++)
            pool[i] = A + 4 * (uint64_t)i + 4096 * rnd(64);  /* never the one after another's end */
        fst_err err;
        fst_tw *w = fst_tw_open_version(path, NULL, 1, &err);
        assert_non_null(w);
        enum { NJ = 6000 };
        static int want[NJ];
        uint64_t ref[FST_TR_MRU], last = 0;
        int nref = 0, nj = 0;
        const uint8_t lr[2] = { 0x18, 0x12 };
        while (nj < NJ) {
            uint64_t to = pool[rnd(npool)];
            if (to == last + 2)
                continue;
            int k = 0;
            while (k < nref && ref[k] != to)
                k++;
            want[nj++] = k < 4 && k < nref ? k : -1;
            if (k == nref && nref < FST_TR_MRU)
                nref++;
            for (int j = k < FST_TR_MRU ? k : FST_TR_MRU - 1; j > 0; j--)
                ref[j] = ref[j - 1];
            ref[0] = to;
            assert_int_equal(fst_tw_insn(w, to, lr, 2), 0);
            last = to;
        }
        assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        int got = 0;
        for (size_t at = 8; at + 8 <= n;) { /* frames: tag, u32 length, payload, u32 CRC */
            uint32_t len = fst_get_le32(buf + at + 4);
            assert_true(at + 12 + len <= n);
            if (!memcmp(buf + at, "EVNT", 4))
                for (const uint8_t *p = buf + at + 16, *e = buf + at + 8 + len; p < e;) {
                    uint8_t op = *p++;
                    if (op == 0x51)  /* INS, the two bytes of the LR */
                        p += 2;
                    else if (op == 0x50 || (op & 0xF0) == 0x40) {  /* JMPA (its varint), JMP k */
                        assert_true(got < NJ);
                        int k = op == 0x50 ? -1 : op & 0x0F;
                        if (k != want[got])
                            fail_msg("seed %u, jump %d: %s %d, not %d", (unsigned)s, got, k < 0 ? "JMPA" : "JMP",
                                     k, want[got]);
                        got++;
                        if (op == 0x50)
                            while (*p++ & 0x80)
                                ;
                    } else
                        assert_true(op < 0x40);  /* SEQ */
                }
            at += 12 + len;
        }
        assert_int_equal(got, NJ);
    }
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/fst-test-tracebin-run.%d", (int)getpid());
    snprintf(bad, sizeof bad, "%s.bad", path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_read_what_next_reads),
        cmocka_unit_test(test_damaged_ops_read_alike),
        cmocka_unit_test(test_repeats_skipped_as_read),
        cmocka_unit_test(test_stretch_skipped_to),
        cmocka_unit_test(test_mru_is_a_list),
        cmocka_unit_test(test_deps_say_what_moves),
        cmocka_unit_test(test_writer_jumps_are_the_lists),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
