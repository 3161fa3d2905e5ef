/*
** tests/unit/test_modfeed.c — the module's stream fed from a FIFO with an eye on the clock
** (capture/modread/modfeed.h), on a pipe written here: a deadline already past feeds one
** slice of what was read and keeps the rest, which the next call feeds first; with no
** deadline all of it is fed, the same instructions as in one piece; the pipe's end is 1, a
** read that fails an error naming the FIFO.
*/
#include "capture/modread/modfeed.h"
#include "tests/unit/modwire_put.h"
#include "trace/tracebin.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* The image: the IPL PSW (BC mode, 0x20000) and at 0x20000 AR, AR, BCT back to 0x20000. */
static uint8_t low[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00 };
static uint8_t code[8] = { 0x1A, 0x01, 0x1A, 0x01, 0x46, 0x10, 0x20, 0x00 };
static fst_image_seg segs[2] = { { 0, sizeof low, low }, { 0x20000, sizeof code, code } };
static fst_ins ins = { segs, NULL, 2 };

enum { CHUNKS = 200, COPIES = 1000 };

/* HELLO, then CHUNKS chunks of CPU 0, each the BCT taken once and REP 1 COPIES: (1 +
** COPIES) iterations of 3 instructions a chunk; returns the bytes */
static size_t stream(uint8_t *b)
{
    size_t n = 0;
    mw_hello(b, &n);
    for (int k = 0; k < CHUNKS; k++) {
        size_t start = mw_chunk_begin(b, &n, 0);
        b[n++] = FSTMOD_OP_BR;
        mw_put_sv(b, &n, k ? 4 : 0x20004);  /* the branch at 0x20004, from the last one's target */
        mw_put_sv(b, &n, -4);
        b[n++] = FSTMOD_OP_REP;
        mw_put_v(b, &n, 1);
        mw_put_v(b, &n, COPIES);
        mw_chunk_end(b, n, start);
    }
    return n;
}

typedef struct rig {
    char path[64];
    int p[2];
    fst_tw *w;
    fst_em *e;
    fst_ms *m;
    fst_mf f;
    fst_err err;
} rig;

static void rig_open(rig *r)
{
    snprintf(r->path, sizeof r->path, "/tmp/fst-modfeed-%d.trace", (int)getpid());
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    r->w = fst_tw_open(r->path, hdr, &r->err);
    assert_non_null(r->w);
    r->e = fst_em_new(r->w, 0);
    r->m = fst_ms_new(r->e, &ins, FST_ARCH_S370);
    assert_int_equal(pipe(r->p), 0);
    fcntl(r->p[0], F_SETFL, fcntl(r->p[0], F_GETFL) | O_NONBLOCK);
    fst_mf_init(&r->f, r->p[0], "the test's FIFO", r->m, r->e);
}

static void rig_close(rig *r)
{
    fst_mf_free(&r->f);
    fst_ms_free(r->m);
    fst_em_free(r->e);
    fst_tw_abandon(r->w);
    unlink(r->path);
    close(r->p[0]);
    if (r->p[1] >= 0)
        close(r->p[1]);
}

static void test_deadline_keeps_the_rest(void **state)
{
    (void)state;
    static uint8_t b[CHUNKS * 32 + 64];
    size_t n = stream(b);
    assert_true(n > 2 * FST_MF_SLICE);
    rig r;
    rig_open(&r);
    assert_int_equal(write(r.p[1], b, n), (ssize_t)n);
    /* a deadline already past: one read, one slice fed, the rest kept */
    assert_int_equal(fst_mf_pump(&r.f, 0, &r.err), 0);
    assert_int_equal(r.f.bytes, n);
    assert_int_equal(r.f.off, FST_MF_SLICE);
    uint64_t some = fst_em_getstats(r.e)->insns;
    assert_true(some > 0 && some < 3ull * CHUNKS * (COPIES + 1));
    /* again: the next slice, nothing read */
    assert_int_equal(fst_mf_pump(&r.f, 0, &r.err), 0);
    assert_int_equal(r.f.off, 2 * FST_MF_SLICE);
    assert_true(fst_em_getstats(r.e)->insns > some);
    /* no deadline: the rest, and the pipe is empty (EAGAIN: 0) */
    assert_int_equal(fst_mf_pump(&r.f, UINT64_MAX, &r.err), 0);
    assert_int_equal(r.f.off, n);
    assert_int_equal(fst_em_getstats(r.e)->insns, 3ull * CHUNKS * (COPIES + 1));
    assert_int_equal(fst_ms_events(r.m), (uint64_t)CHUNKS * (COPIES + 1));
    /* the writer gone: the FIFO's end */
    close(r.p[1]);
    r.p[1] = -1;
    assert_int_equal(fst_mf_pump(&r.f, UINT64_MAX, &r.err), 1);
    assert_int_equal(fst_ms_finish(r.m, &r.err), 0);
    rig_close(&r);
}

static void test_read_error_named(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    r.f.fd = -1;    /* EBADF */
    assert_int_equal(fst_mf_pump(&r.f, UINT64_MAX, &r.err), -1);
    assert_non_null(strstr(r.err.msg, "the test's FIFO: read"));
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadline_keeps_the_rest),
        cmocka_unit_test(test_read_error_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
