/*
** tests/unit/test_modstream_code.c — the reader's code pages (capture/modread/modstream.h,
** fstmod_wire.h CODE): a page the module sent is the code, in preference to the storage
** image; per address space (DAT off, or a CR1), whose CR1 goes into the trace; a page sent
** again replaces the bytes of later runs only; and what does not fit is an error naming
** the byte of the stream.
**
** The program: the image holds LR 1,2 (1812) and BCR 15,3 (07F3) at 0x20000; the module's
** pages say AR 1,2 (1A12) there for DAT off, LR 3,4 (1834) for the space of CR1 00022000.
** Each run is the two instructions, the BCR branching back to 0x20000.
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

typedef struct buf {
    uint8_t b[1 << 16];
    size_t n;
} buf;

static void put_v(buf *o, uint64_t v) { mw_put_v(o->b, &o->n, v); }

static void put_sv(buf *o, int64_t d) { mw_put_sv(o->b, &o->n, d); }

/* The chunk of ops `ops` for CPU cpu, after the module's hello. */
static void stream(buf *s, const buf *ops)
{
    static const char hello[] = "\x70" "fst-hercules313 3 test"; /* FSTMOD_WIRE */
    const uint8_t h[8] = { FSTMOD_CHUNK, FSTMOD_CPU_MODULE, 0, 0, sizeof hello - 1, 0, 0, 0 };
    memcpy(s->b, h, 8);
    memcpy(s->b + 8, hello, sizeof hello - 1);
    s->n = 8 + sizeof hello - 1;
    const uint8_t c[8] = { FSTMOD_CHUNK, 0, 0, 0, (uint8_t)ops->n, (uint8_t)(ops->n >> 8), 0, 0 };
    memcpy(s->b + s->n, c, 8);
    memcpy(s->b + s->n + 8, ops->b, ops->n);
    s->n += 8 + ops->n;
}

static void page(buf *o, uint64_t space, uint64_t pg, unsigned way, uint8_t b0, uint8_t b1)
{
    o->b[o->n++] = FSTMOD_OP_CODE;
    o->b[o->n++] = FSTMOD_CODE_PAGE;
    put_v(o, space);
    put_v(o, pg);
    put_v(o, fstmod_code_set(space, pg) * FSTMOD_CODE_WAYS + way);
    memset(o->b + o->n, 0, FSTMOD_PAGE);
    o->b[o->n] = b0;
    o->b[o->n + 1] = b1;
    o->b[o->n + 2] = 0x07;
    o->b[o->n + 3] = 0xF3;
    o->n += FSTMOD_PAGE;
}

static void space(buf *o, uint64_t sp)
{
    o->b[o->n++] = FSTMOD_OP_CODE;
    o->b[o->n++] = FSTMOD_CODE_SPACE;
    put_v(o, sp);
}

/* The BCR at 0x20002 branching to 0x20000: `last` is 0x20000 after the first. */
static void branch(buf *o, int first)
{
    o->b[o->n++] = FSTMOD_OP_BR;
    put_sv(o, first ? 0x20002 : 2);
    put_sv(o, -2);
}

static uint8_t ipl[8] = { 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00 };
static uint8_t prog[4] = { 0x18, 0x12, 0x07, 0xF3 };

/* Feed the stream; the trace's instructions (first bytes, as "1A12 07F3 ...") and CR1
** values into out; the feed's result (and its error) returned. */
static int run(const buf *s, char *out, size_t cap, fst_err *ferr)
{
    char path[] = "/tmp/fst-test-modcode-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    fst_image_seg seg[2] = { { 0, 8, ipl }, { 0x20000, 4, prog } };
    fst_ins ins = { seg, NULL, 2 };
    fst_err err;
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open(path, hdr, &err);
    assert_non_null(w);
    fst_em *e = fst_em_new(w, 0);
    fst_ms *m = fst_ms_new(e, &ins, FST_ARCH_S370);
    int rc = fst_ms_feed(m, s->b, s->n, ferr);
    fst_em_finish(e);
    fst_ms_free(m);
    fst_em_free(e);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    size_t k = 0;
    out[0] = 0;
    while (fst_tr_next(r, &rec, &err) == 1 && k + 16 < cap) {
        if (rec.kind == FST_REC_INSN)
            k += (size_t)snprintf(out + k, cap - k, "%s%02X%02X", k ? " " : "", rec.bytes[0], rec.bytes[1]);
        else if (rec.kind == FST_REC_CR)
            k += (size_t)snprintf(out + k, cap - k, "%sCR%u=%08llX", k ? " " : "", rec.cls,
                                  (unsigned long long)rec.value);
    }
    fst_tr_close(r);
    unlink(path);
    return rc;
}

static buf s, o;

static void test_pages_before_image_per_space(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    o.n = 0;
    branch(&o, 1);                              /* the image's code: LR, BCR */
    page(&o, 0, 0x20, 1, 0x1A, 0x12);           /* DAT off: AR 1,2 */
    branch(&o, 0);
    space(&o, FSTMOD_SPACE_DAT | 0x22000);      /* DAT on, CR1 00022000 */
    page(&o, FSTMOD_SPACE_DAT | 0x22000, 0x20, 0, 0x18, 0x34);
    branch(&o, 0);
    space(&o, 0);                               /* DAT off again: the page sent, not the image */
    branch(&o, 0);
    page(&o, 0, 0x20, 1, 0x05, 0x12);           /* sent again: BALR 1,2 from the next run on */
    branch(&o, 0);
    stream(&s, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), 0);
    assert_string_equal(got, "1812 07F3 1A12 07F3 CR1=00022000 1834 07F3 1A12 07F3 0512 07F3");
}

static void test_bad_code_records(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    /* a page for a slot of another set: the byte of its slot field named */
    o.n = 0;
    o.b[o.n++] = FSTMOD_OP_CODE;
    o.b[o.n++] = FSTMOD_CODE_PAGE;
    put_v(&o, 0);
    put_v(&o, 0x20);
    put_v(&o, ((fstmod_code_set(0, 0x20) + 1) % FSTMOD_CODE_SETS) * FSTMOD_CODE_WAYS);
    memset(o.b + o.n, 0, FSTMOD_PAGE);
    o.n += FSTMOD_PAGE;
    stream(&s, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "a code page record for a slot outside the page's set"));
    assert_non_null(strstr(err.msg, "byte "));
    /* a page cut short */
    o.n = 0;
    o.b[o.n++] = FSTMOD_OP_CODE;
    o.b[o.n++] = FSTMOD_CODE_PAGE;
    put_v(&o, 0);
    put_v(&o, 0x20);
    put_v(&o, fstmod_code_set(0, 0x20) * FSTMOD_CODE_WAYS);
    o.n += 100;
    stream(&s, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "a code page record cut short"));
    /* a kind the reader does not know */
    o.n = 0;
    o.b[o.n++] = FSTMOD_OP_CODE;
    o.b[o.n++] = 9;
    put_v(&o, 0);
    stream(&s, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "a code record of a kind the reader does not know"));
    /* DAT on, no page sent for the space: the space and the address named */
    o.n = 0;
    space(&o, FSTMOD_SPACE_DAT | 0x22040);
    branch(&o, 1);
    stream(&s, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "executed at 0x20000 in the address space of CR1 00022040, whose page the "
                                    "module did not send"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages_before_image_per_space),
        cmocka_unit_test(test_bad_code_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
