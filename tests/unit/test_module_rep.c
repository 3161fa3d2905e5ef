/*
** tests/unit/test_module_rep.c — a loop's iterations written in one step (fst_em_repeat,
** fst_tw_repeat), as the module's rebuild writes the copies of a REP record
** (capture/modread/modstream.c): the trace must hold the records that giving every
** iteration's runs would. Two traces from the same pseudo-random walk: loops of 1 to 8 runs
** (a run: 1 to 20 plain instructions entered by a jump), 1 to 1000 iterations each, and
** between loops now and then a state change, an LPSW or an interruption, so that the
** emitter has something waiting and must refuse. One trace gives every run (fst_em_seq,
** or singly the first time and while refused); the other marks an iteration's end and,
** one iteration later, asks for the rest of the iterations in one step. Their frames may
** break at other places; their records, read back, must be the same one for one.
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

enum { NRUN = 40, NLOOP = 300, BASE = 0x20000 };

typedef struct run {
    uint64_t s;
    uint32_t k;
    uint8_t seen;
} run;

static uint64_t rng;
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
    static const uint8_t op[3] = { 0x1A, 0x5A, 0xD2 }; /* AR, A, MVC */
    int kind = (int)((addr >> 1) % 3);
    memset(ib, 0, 6);
    ib[0] = op[kind];
    ib[1] = (uint8_t)addr;
    return kind == 0 ? 2 : kind == 1 ? 4 : 6;
}

static void psw_at(uint8_t *psw, uint64_t ia)
{
    psw[5] = (uint8_t)(ia >> 16);
    psw[6] = (uint8_t)(ia >> 8);
    psw[7] = (uint8_t)ia;
}

/* One run, as the rebuild gives it: in one step once seen, else singly. */
static void give(fst_em *e, run *r, uint8_t *psw)
{
    uint64_t a = r->s, last = 0;
    uint8_t lib[6];
    int llen = 0;
    for (uint32_t i = 0; i < r->k; i++) {
        last = a;
        llen = code(a, lib);
        a += (uint64_t)llen;
    }
    psw_at(psw, last);
    if (r->seen && !fst_em_seq(e, psw, 8, FST_ARCH_S370, r->s, r->k, a, last, lib, llen))
        return;
    for (uint64_t ia = r->s; ia < a;) {
        uint8_t ib[6];
        int len = code(ia, ib);
        psw_at(psw, ia);
        fst_em_insn(e, psw, 8, FST_ARCH_S370, ib, len);
        ia += (uint64_t)len;
    }
    r->seen = 1;
}

static uint64_t repeated; /* iterations fst_em_repeat wrote */

static void write_trace(const char *path, uint64_t seed, int fast)
{
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_err err;
    fst_tw *w = fst_tw_open(path, hdr, &err);
    assert_non_null(w);
    fst_em *e = fst_em_new(w, 0);
    fst_em_regs_order(e, FST_EM_REGS_NONE);
    fst_em_cpu(e, 0);
    rng = seed;
    run runs[NRUN];
    uint64_t a = BASE;
    for (int i = 0; i < NRUN; i++) {
        runs[i] = (run){ a, (uint32_t)(1 + next_rand() % 20), 0 };
        a += 0x100;
    }
    uint8_t psw[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00 };
    for (int l = 0; l < NLOOP; l++) {
        uint64_t x = next_rand() % 10;
        if (x == 0)
            psw[1] ^= 0x01; /* problem state and back: a STATE record */
        else if (x == 1) { /* an LPSW waits for the CPU's next instruction */
            uint8_t ib[4] = { 0x82, 0x00, 0x00, 0x10 }, np[8];
            psw_at(psw, 0x10000);
            memcpy(np, psw, 8);
            fst_em_insn(e, psw, 8, FST_ARCH_S370, ib, 4);
            fst_em_operand(e, 0x10, np, 8);
        } else if (x == 2)
            fst_em_intr(e, FST_INTR_EXT, 0x1004);
        unsigned p = 1 + (unsigned)(next_rand() % 8);
        uint64_t n = 1 + next_rand() % 1000;
        run *body[8];
        for (unsigned j = 0; j < p; j++)
            body[j] = &runs[next_rand() % NRUN];
        fst_em_mark mk;
        int marked = 0;
        for (uint64_t i = 0; i < n; i++) {
            if (fast && i) {
                if (marked && !fst_em_repeat(e, &mk, n - i)) {
                    repeated += n - i;
                    break;
                }
                fst_em_mark_at(e, &mk);
                marked = 1;
            }
            for (unsigned j = 0; j < p; j++)
                give(e, body[j], psw);
        }
    }
    fst_em_finish(e);
    assert_int_equal(fst_em_failed(e), 0);
    fst_em_free(e);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
}

static int same_rec(const fst_rec *a, const fst_rec *b)
{
    return a->kind == b->kind && a->addr == b->addr && a->value == b->value && a->len == b->len &&
           !memcmp(a->bytes, b->bytes, a->len) && a->ilc == b->ilc && a->cls == b->cls && a->pswlen == b->pswlen &&
           !memcmp(a->psw, b->psw, a->pswlen) && a->cpu == b->cpu && a->state == b->state && a->code == b->code;
}

static void test_repeat_equals_iterations(void **state)
{
    (void)state;
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "/tmp/fst-modrep-%d-a.trace", (int)getpid());
    snprintf(p2, sizeof p2, "/tmp/fst-modrep-%d-b.trace", (int)getpid());
    write_trace(p1, 88172645463325252ull, 0);
    write_trace(p2, 88172645463325252ull, 1);
    fst_err err;
    fst_tr *a = fst_tr_open(p1, &err), *b = fst_tr_open(p2, &err);
    assert_non_null(a);
    assert_non_null(b);
    fst_rec ra, rb;
    uint64_t recs = 0, differ = 0;
    for (;;) {
        memset(&ra, 0, sizeof ra); /* the fields a kind leaves alone compare as 0 */
        memset(&rb, 0, sizeof rb);
        int ka = fst_tr_next(a, &ra, &err), kb = fst_tr_next(b, &rb, &err);
        assert_int_equal(ka, kb);
        if (ka <= 0)
            break;
        if (!same_rec(&ra, &rb) && differ++ == 0)
            fprintf(stderr, "record %llu differs: kind %d/%d at 0x%llX/0x%llX\n", (unsigned long long)recs, ra.kind,
                    rb.kind, (unsigned long long)ra.addr, (unsigned long long)rb.addr);
        recs++;
    }
    assert_int_equal(fst_tr_complete(a, NULL), 1);
    assert_int_equal(fst_tr_complete(b, NULL), 1);
    fst_tr_close(a);
    fst_tr_close(b);
    if (getenv("KEEP") == NULL) {
        unlink(p1);
        unlink(p2);
    }
    assert_int_equal(differ, 0);
    assert_true(recs > 1000000);   /* several frames */
    assert_true(repeated > 50000); /* most iterations went in one step */
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_repeat_equals_iterations) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
