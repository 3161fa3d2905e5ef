/*
** tests/unit/test_modstream_loops.c — the reader of fst's module stream (capture/modread/
** modstream.h) on streams written here by hand: a loop given as a branch and a REP record
** rebuilds its instructions, a pattern of 20 branches copied by REP too; a module of another
** stream version is refused; a REP that copies branches never given, a SIGP record cut
** short, and a CPU whose records never found its start are errors that say so (with the
** byte offset where there is one); a CPU's records that come before the SIGP restart that
** starts it are held and then rebuilt.
*/
#include "capture/modread/modstream.h"
#include "capture/module/fstmod_wire.h"
#include "tests/unit/modwire_put.h"
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

/* The image: the IPL PSW at 0 (BC mode, 0x20000), and at 0x20000 AR, AR, BCT (a loop of
** 3 instructions), SIGP at 0x20008, then 16 more ARs; CPU 1's code at 0x20030: AR, BCT. */
static uint8_t low[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00 };
static uint8_t code[0x40];
static fst_image_seg segs[2];
static fst_ins ins = { segs, NULL, 2 };

typedef struct buf {
    uint8_t b[512];
    size_t n, start;
} buf;

static void put_v(buf *o, uint64_t v) { mw_put_v(o->b, &o->n, v); }

static void put_sv(buf *o, int64_t d) { mw_put_sv(o->b, &o->n, d); }

static void chunk_begin(buf *o, unsigned cpu) { o->start = mw_chunk_begin(o->b, &o->n, cpu); }

static void chunk_end(buf *o) { mw_chunk_end(o->b, o->n, o->start); }

static void hello(buf *o) { mw_hello(o->b, &o->n); }

typedef struct rig {
    char path[64];
    fst_tw *w;
    fst_em *e;
    fst_ms *m;
    fst_err err;
} rig;

static void rig_open(rig *r)
{
    memset(code, 0, sizeof code);
    for (unsigned a = 0; a < sizeof code; a += 2) { /* AR 0,1 everywhere, then the rest */
        code[a] = 0x1A;
        code[a + 1] = 0x01;
    }
    memcpy(code + 4, "\x46\x10\x20\x00", 4);    /* BCT at 0x20004 */
    memcpy(code + 8, "\xAE\x43\x00\x06", 4);    /* SIGP at 0x20008 */
    memcpy(code + 0x32, "\x46\x30\x20\x30", 4); /* CPU 1's BCT at 0x20032 */
    segs[0] = (fst_image_seg){ 0, sizeof low, low };
    segs[1] = (fst_image_seg){ 0x20000, sizeof code, code };
    snprintf(r->path, sizeof r->path, "/tmp/fst-modstream-%d.trace", (int)getpid());
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    r->w = fst_tw_open(r->path, hdr, &r->err);
    assert_non_null(r->w);
    r->e = fst_em_new(r->w, 0);
    r->m = fst_ms_new(r->e, &ins, FST_ARCH_S370);
}

static void rig_close(rig *r)
{
    fst_ms_free(r->m);
    fst_em_free(r->e);
    fst_tw_abandon(r->w);
    unlink(r->path);
}

static void test_loop_by_rep(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    hello(&o);
    chunk_begin(&o, 0);
    o.b[o.n++] = FSTMOD_OP_BR; /* BCT at 0x20004 back to 0x20000 */
    put_sv(&o, 0x20004);
    put_sv(&o, -4);
    o.b[o.n++] = FSTMOD_OP_REP; /* 9 more times */
    put_v(&o, 1);
    put_v(&o, 9);
    chunk_end(&o);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), 0);
    assert_int_equal(fst_em_getstats(r.e)->insns, 30); /* 10 iterations of AR, AR, BCT */
    assert_int_equal(fst_ms_events(r.m), 10);
    assert_int_equal(fst_ms_finish(r.m, &r.err), 0);
    rig_close(&r);
}

/* A pattern of 20 different branches (a FORTRAN mainline's calls are such a pattern), then
** REP 20 100: 5 more rounds of it, each instruction of the pattern's runs again. */
static void test_long_pattern_by_rep(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    hello(&o);
    chunk_begin(&o, 0);
    uint64_t last = 0, cur = 0x20000, insns = 0, round = 0;
    for (unsigned k = 0; k < 20; k++) {
        uint64_t at = 0x20014 + 2 * (k % 14), to = k < 14 ? 0x20010 : 0x20012;
        o.b[o.n++] = FSTMOD_OP_BR;
        put_sv(&o, (int64_t)(at - last));
        put_sv(&o, (int64_t)(to - at));
        last = to;
        insns += k ? (at - cur) / 2 + 1 : 9; /* from 0x20000: AR AR BCT SIGP, then ARs */
        cur = to;
    }
    for (unsigned k = 0; k < 20; k++) /* a round: from the last branch's target on */
        round += (0x20014 + 2 * (k % 14) - (k ? (k - 1 < 14 ? 0x20010 : 0x20012) : 0x20012)) / 2 + 1;
    o.b[o.n++] = FSTMOD_OP_REP;
    put_v(&o, 20);
    put_v(&o, 100);
    chunk_end(&o);
    assert_int_equal(fst_ms_hello(r.m, &(const char *){ NULL }), 0);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), 0);
    assert_int_equal(fst_em_getstats(r.e)->insns, insns + 5 * round);
    assert_int_equal(fst_ms_events(r.m), 120);
    assert_int_equal(fst_ms_finish(r.m, &r.err), 0);
    rig_close(&r);
}

/* A module of another fst (an older one left loaded in a running system) says another
** stream version in its hello: a refusal, naming both versions. */
static void test_hello_of_another_version(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    chunk_begin(&o, FSTMOD_CPU_MODULE);
    o.b[o.n++] = FSTMOD_OP_HELLO;
    o.n += (size_t)sprintf((char *)o.b + o.n, "fst-hercules313 %d REGS=1", FSTMOD_WIRE - 1);
    chunk_end(&o);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), 0);
    const char *text = NULL;
    assert_int_equal(fst_ms_hello(r.m, &text), -1);
    assert_non_null(strstr(text, "another fst"));
    char want[64];
    snprintf(want, sizeof want, "stream version %d, this fst-capture reads %d", FSTMOD_WIRE - 1, FSTMOD_WIRE);
    assert_non_null(strstr(text, want));
    rig_close(&r);
}

static void test_rep_of_nothing(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    hello(&o);
    chunk_begin(&o, 0);
    o.b[o.n++] = FSTMOD_OP_BR;
    put_sv(&o, 0x20004);
    put_sv(&o, -4);
    o.b[o.n++] = FSTMOD_OP_REP; /* 2 back: only one branch was given */
    put_v(&o, 2);
    put_v(&o, 5);
    chunk_end(&o);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), -1);
    assert_non_null(strstr(r.err.msg, "copies branches the stream never gave"));
    assert_non_null(strstr(r.err.msg, "byte "));
    rig_close(&r);
}

static void test_sigp_cut_short(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    hello(&o);
    chunk_begin(&o, 0);
    o.b[o.n++] = FSTMOD_OP_SIGP;
    put_sv(&o, 0x20008);
    put_v(&o, 6);
    put_v(&o, 1);
    o.b[o.n++] = 0; /* cc */
    o.b[o.n++] = 8; /* a PSW follows: but the chunk ends */
    chunk_end(&o);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), -1);
    assert_non_null(strstr(r.err.msg, "a SIGP record cut short"));
    rig_close(&r);
}

/* CPU 1's records first (its loop at 0x20030), then CPU 0's SIGP restart that starts it there */
static void cpu1_then_sigp(buf *o, int with_sigp)
{
    hello(o);
    chunk_begin(o, 1);
    o->b[o->n++] = FSTMOD_OP_BR; /* BCT at 0x20032 back to 0x20030, 4 times */
    put_sv(o, 0x20032);
    put_sv(o, -2);
    o->b[o->n++] = FSTMOD_OP_REP;
    put_v(o, 1);
    put_v(o, 3);
    chunk_end(o);
    if (!with_sigp)
        return;
    chunk_begin(o, 0);
    o->b[o->n++] = FSTMOD_OP_SIGP;
    put_sv(o, 0x20008);
    put_v(o, 6);
    put_v(o, 1);
    o->b[o->n++] = 0;
    o->b[o->n++] = 8;
    static const uint8_t psw[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x30 };
    memcpy(o->b + o->n, psw, 8);
    o->n += 8;
    chunk_end(o);
}

static void test_cpu_held_until_started(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    cpu1_then_sigp(&o, 1);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), 0);
    /* CPU 0: AR AR BCT SIGP (4); CPU 1: 4 iterations of AR, BCT (8) */
    assert_int_equal(fst_em_getstats(r.e)->insns, 12);
    assert_int_equal(fst_ms_finish(r.m, &r.err), 0);
    rig_close(&r);
}

static void test_cpu_never_started(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    buf o = { .n = 0 };
    cpu1_then_sigp(&o, 0);
    assert_int_equal(fst_ms_feed(r.m, o.b, o.n, &r.err), 0);
    assert_int_equal(fst_em_getstats(r.e)->insns, 0);
    assert_int_equal(fst_ms_finish(r.m, &r.err), -1);
    assert_non_null(strstr(r.err.msg, "CPU 1 ran"));
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_by_rep),
        cmocka_unit_test(test_long_pattern_by_rep),
        cmocka_unit_test(test_hello_of_another_version),
        cmocka_unit_test(test_rep_of_nothing),
        cmocka_unit_test(test_sigp_cut_short),
        cmocka_unit_test(test_cpu_held_until_started),
        cmocka_unit_test(test_cpu_never_started),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
