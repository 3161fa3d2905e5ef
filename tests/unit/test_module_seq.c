/*
** tests/unit/test_module_seq.c — the one-step runs the module's rebuild uses
** (capture/modread/modstream.c): fst_tw_seq and fst_em_seq must write exactly what k calls
** of fst_tw_insn / fst_em_insn would. Two traces are written from the same pseudo-random
** program walk (straight runs of 1 to 300 instructions, each run once one by one first,
** then jumps among them, state changes, an LPSW and an interruption now and then so that
** the emitter has something waiting): one giving every instruction singly, the other the
** runs seen before in one step. The files must be the same byte for byte (frames, SEQ ops
** cut at 64, the instruction counts of the frames' headers); fst_em_seq must refuse (-1)
** while a record waits for the CPU, and then the instructions go singly. The same for runs
** in batches (fst_em_seqs), as the rebuild gives the runs the memo knows.
*/
#include "capture/read/emit.h"
#include "trace/tracebin.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

enum { NRUN = 50, BASE = 0x20000 };

typedef struct run {
    uint64_t s;
    uint32_t k;
    uint8_t seen;
} run;

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The plain instruction at addr: a length from the address (2, 4 or 6), its bytes. */
static int code(uint64_t addr, uint8_t ib[6])
{
    static const uint8_t op[3] = { 0x18, 0x58, 0xD2 }; /* LR, L, MVC: nothing the emitter treats apart */
    int kind = (int)((addr >> 1) % 3);
    memset(ib, 0, 6);
    ib[0] = op[kind];
    ib[1] = (uint8_t)addr;
    return kind == 0 ? 2 : kind == 1 ? 4 : 6;
}

static uint64_t run_end(const run *r, uint64_t *last, uint8_t ib[6], int *len)
{
    uint64_t a = r->s;
    for (uint32_t i = 0; i < r->k; i++) {
        *last = a;
        *len = code(a, ib);
        a += (uint64_t)*len;
    }
    return a;
}

static uint64_t taken; /* runs fst_em_seq took */
static uint64_t batched; /* runs fst_em_seqs took */

/* A run given one instruction at a time. */
static void singles(fst_em *e, uint8_t psw[8], const run *r, uint64_t end)
{
    for (uint64_t ia = r->s; ia < end;) {
        uint8_t ib[6];
        int len = code(ia, ib);
        psw[5] = (uint8_t)(ia >> 16);
        psw[6] = (uint8_t)(ia >> 8);
        psw[7] = (uint8_t)ia;
        fst_em_insn(e, psw, 8, FST_ARCH_S370, ib, len);
        ia += (uint64_t)len;
    }
}

/* mode 2: runs seen before wait in a batch, given in one fst_em_seqs before anything else
** reaches the emitter; where it refuses, each singly (as modstream.c's batch_flush). */
static fst_em_run batch[64];
static const run *batch_of[64];
static size_t nbatch;
static void flush(fst_em *e, uint8_t psw[8], uint64_t *refused)
{
    if (nbatch && !fst_em_seqs(e, psw, 8, FST_ARCH_S370, batch, nbatch))
        batched += nbatch;
    else
        for (size_t i = 0; i < nbatch; i++) {
            (*refused)++;
            singles(e, psw, batch_of[i], batch[i].next);
        }
    nbatch = 0;
}

static void write_trace(const char *path, int fast, uint64_t *refused)
{
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_err err;
    fst_tw *w = fst_tw_open(path, hdr, &err);
    assert_non_null(w);
    fst_em *e = fst_em_new(w, 0);
    fst_em_regs_order(e, FST_EM_REGS_NONE);
    fst_em_cpu(e, 0);
    run runs[NRUN];
    uint64_t a = BASE;
    for (int i = 0; i < NRUN; i++) {
        runs[i] = (run){ a, (uint32_t)(1 + next_rand() % 300), 0 };
        uint64_t last;
        uint8_t ib[6];
        int len;
        a = run_end(&runs[i], &last, ib, &len) + 0x100;
    }
    uint8_t psw[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00 };
    for (int step = 0; step < 60000; step++) { /* ~9 M instructions: several EVNT frames */
        run *r = &runs[next_rand() % NRUN];
        uint64_t x = next_rand() % 100;
        if (fast == 2 && (x < 6 || !r->seen || nbatch == 64 || step % 23 == 0)) /* not by next_rand: the walk stays mode 0's */
            flush(e, psw, refused);
        if (x < 3)
            psw[1] ^= 0x01; /* problem state and back: a STATE record */
        else if (x < 5) { /* an LPSW waits for the CPU's next instruction */
            uint8_t ib[4] = { 0x82, 0x00, 0x00, 0x10 }, np[8];
            psw[5] = 0x01; /* at 0x10000, below the runs */
            psw[6] = psw[7] = 0;
            memcpy(np, psw, 8);
            fst_em_insn(e, psw, 8, FST_ARCH_S370, ib, 4);
            fst_em_operand(e, 0x10, np, 8);
        } else if (x < 6)
            fst_em_intr(e, FST_INTR_EXT, 0x1004);
        uint64_t last = 0;
        uint8_t lib[6];
        int llen = 0;
        uint64_t end = run_end(r, &last, lib, &llen);
        if (fast == 2 && r->seen) {
            batch[nbatch] = (fst_em_run){ r->s, r->k, end, last, { 0 }, llen };
            memcpy(batch[nbatch].last_ib, lib, 6);
            batch_of[nbatch++] = r;
            continue;
        }
        if (fast == 1 && r->seen && !fst_em_seq(e, psw, 8, FST_ARCH_S370, r->s, r->k, end, last, lib, llen)) {
            taken++;
            continue;
        }
        if (fast && r->seen)
            (*refused)++;
        singles(e, psw, r, end);
        r->seen = 1;
    }
    if (fast == 2)
        flush(e, psw, refused);
    fst_em_finish(e);
    assert_int_equal(fst_em_failed(e), 0);
    fst_em_free(e);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The trace written one instruction at a time against the one written in mode `fast`. */
static void same_as_singles(int fast, uint64_t *refused)
{
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "/tmp/fst-modseq-%d-a.trace", (int)getpid());
    snprintf(p2, sizeof p2, "/tmp/fst-modseq-%d-b.trace", (int)getpid());
    uint64_t none = 0;
    uint64_t seed = rng;
    write_trace(p1, 0, &none);
    rng = seed;
    write_trace(p2, fast, refused);
    size_t n1, n2;
    char *a = slurp(p1, &n1), *b = slurp(p2, &n2);
    int same = n1 == n2 && !memcmp(a, b, n1);
    free(a);
    free(b);
    if (getenv("KEEP") == NULL) {
        unlink(p1);
        unlink(p2);
    }
    assert_true(same);
}

static void test_seq_equals_singles(void **state)
{
    (void)state;
    uint64_t refused = 0;
    same_as_singles(1, &refused);
    assert_true(refused > 0); /* the LPSWs and interruptions made it refuse, and the singles agreed */
    assert_true(taken > 50000);
}

/* fst_em_seqs: batches of 1 to 64 runs, cut where a state change, an LPSW, an interruption
** or a run not seen before comes (and every 23 steps), the same as singly. */
static void test_seqs_equal_singles(void **state)
{
    (void)state;
    uint64_t refused = 0;
    same_as_singles(2, &refused);
    assert_true(refused > 0); /* a batch right after an LPSW or an interruption is refused whole */
    assert_true(batched > 50000);
}

/* A frame's header counts the instructions before it, and a full run's SEQ op may be what
** begins it. Straight runs of 60 to 200 instructions looped (a FORTRAN routine's straight
** code: most end in a full run's op), given singly (`fast` 0) or in one step (1), over some
** 40 frames of version 1 (64 KiB): every frame must start where the reader's count is,
** and all the instructions be there. Before 2026-12-05 a frame begun by a full run's op
** said one instruction less than its ops held (the reader stops: "damaged file"). */
static void frames_at_full_runs(int fast)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fst-modseq-%d-f.trace", (int)getpid());
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_err err;
    fst_tw *w = fst_tw_open_version(path, hdr, 1, &err);
    assert_non_null(w);
    static const uint8_t lr[2] = { 0x18, 0x12 };
    uint64_t n = 200, lcg = 12345;
    for (uint64_t a = BASE; a < BASE + 2 * n; a += 2) /* all of them seen once */
        assert_int_equal(fst_tw_insn(w, a, lr, 2), 0);
    for (int it = 0; it < 300000; it++) {
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t k = 60 + (lcg >> 33) % 141, end = BASE + 2 * k;
        if (fast && (it & 1))
            assert_int_equal(fst_tw_seq(w, BASE, k, end, end - 2), 0);
        else
            for (uint64_t a = BASE; a < end; a += 2)
                assert_int_equal(fst_tw_insn(w, a, lr, 2), 0);
        n += k;
    }
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    uint64_t got = 0;
    int rc;
    while ((rc = fst_tr_next(r, &rec, &err)) > 0)
        got += rec.kind == FST_REC_INSN;
    if (rc < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(got, n);
    fst_tr_close(r);
    unlink(path);
}

static void test_frames_at_full_runs(void **state)
{
    (void)state;
    frames_at_full_runs(0);
    frames_at_full_runs(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_seq_equals_singles),
                                        cmocka_unit_test(test_seqs_equal_singles),
                                        cmocka_unit_test(test_frames_at_full_runs) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
