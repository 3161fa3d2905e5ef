/*
** tests/unit/test_modstream_sync.c — SYNC (fstmod_wire.h): a CPU's records that begin in a
** running system (fst-capture --via=module --attach, capture/modread/modattach.h). No
** storage image: the code is the pages sent. The trace of a CPU begins at SYNC's PSW
** address, with its registers (a REGS record before the first instruction) and its space
** (CR1 when DAT is on); a CPU whose trace had not started is not held for a SIGP restart
** when its chunk begins with SYNC; a SYNC again later starts the CPU over (a REP cannot
** copy branches from before it, a page sent before it is not its code); code never sent is
** an error naming the address. CONS (console lines, a job's window): each line once to the
** caller, whichever CPU brings it first, after the instructions before it; a cut at a line
** ends every CPU's records at its own copy of that line.
**
** The code: AR 1,2 (1A12) at 0x20000, BCR 15,3 (07F3) at 0x20002, branching back.
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

static void hello(buf *s)
{
    static const char h[] = "\x70" "fst-hercules313 2 test";
    const uint8_t c[8] = { FSTMOD_CHUNK, FSTMOD_CPU_MODULE, 0, 0, sizeof h - 1, 0, 0, 0 };
    memcpy(s->b, c, 8);
    memcpy(s->b + 8, h, sizeof h - 1);
    s->n = 8 + sizeof h - 1;
}

static void chunk(buf *s, unsigned cpu, const buf *ops)
{
    const uint8_t c[8] = { FSTMOD_CHUNK, (uint8_t)cpu, 0, 0, (uint8_t)ops->n, (uint8_t)(ops->n >> 8), 0, 0 };
    memcpy(s->b + s->n, c, 8);
    memcpy(s->b + s->n + 8, ops->b, ops->n);
    s->n += 8 + ops->n;
}

/* SYNC at address a: an EC PSW (DAT on when space says so), registers r * 16 + base. */
static void sync_op(buf *o, uint32_t a, uint64_t space, uint32_t base)
{
    uint8_t psw[8] = { space ? 0x04 : 0x00, 0x08, 0, 0, (uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8),
                       (uint8_t)a };
    o->b[o->n++] = FSTMOD_OP_SYNC;
    o->b[o->n++] = 8;
    memcpy(o->b + o->n, psw, 8);
    o->n += 8;
    put_v(o, space);
    for (unsigned r = 0; r < 16; r++)
        put_v(o, r * 16 + base);
}

static void page(buf *o, uint64_t space)
{
    o->b[o->n++] = FSTMOD_OP_CODE;
    o->b[o->n++] = FSTMOD_CODE_PAGE;
    put_v(o, space);
    put_v(o, 0x20);
    put_v(o, fstmod_code_set(space, 0x20) * FSTMOD_CODE_WAYS);
    memset(o->b + o->n, 0, FSTMOD_PAGE);
    memcpy(o->b + o->n, "\x1A\x12\x07\xF3", 4);
    o->n += FSTMOD_PAGE;
}

/* The BCR at 0x20002 to 0x20000, `last` being `from`. */
static void branch(buf *o, int64_t from)
{
    o->b[o->n++] = FSTMOD_OP_BR;
    put_sv(o, 0x20002 - from);
    put_sv(o, -2);
}

/* CONS at address a, line number seq, its text. */
static void cons(buf *o, int64_t a, int64_t from, uint64_t seq, const char *text)
{
    o->b[o->n++] = FSTMOD_OP_CONS;
    put_sv(o, a - from);
    put_v(o, seq);
    put_v(o, strlen(text));
    memcpy(o->b + o->n, text, strlen(text));
    o->n += strlen(text);
}

/* The console callback of the tests: the lines as "cpuN:TEXT" in ctx; cuts at "END". */
static char lines[256];
static int on_line(void *ctx, unsigned cpu, uint64_t seq, const char *text, size_t n)
{
    (void)ctx;
    size_t k = strlen(lines);
    snprintf(lines + k, sizeof lines - k, "%s%u:%llu:%.*s", k ? " " : "", cpu, (unsigned long long)seq, (int)n, text);
    return n == 3 && !memcmp(text, "END", 3);
}
static int console_on;

/* Feed s with no image; the trace as text: CPU switches, instructions (first bytes), R5 of
** each REGS record, CR1 values. The feed's result (and finish's) returned. */
static int run(const buf *s, char *out, size_t cap, fst_err *ferr)
{
    char path[] = "/tmp/fst-test-modsync-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    fst_ins ins = { NULL, NULL, 0 };
    fst_err err;
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open(path, hdr, &err);
    assert_non_null(w);
    fst_em *e = fst_em_new(w, 0);
    fst_ms *m = fst_ms_new(e, &ins, FST_ARCH_S370);
    if (console_on)
        fst_ms_on_console(m, on_line, NULL);
    int rc = fst_ms_feed(m, s->b, s->n, ferr);
    if (!rc)
        rc = fst_ms_finish(m, ferr);
    fst_em_finish(e);
    fst_ms_free(m);
    fst_em_free(e);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    size_t k = 0;
    out[0] = 0;
    while (fst_tr_next(r, &rec, &err) == 1 && k + 24 < cap) {
        const char *sep = k ? " " : "";
        if (rec.kind == FST_REC_INSN)
            k += (size_t)snprintf(out + k, cap - k, "%s%02X%02X", sep, rec.bytes[0], rec.bytes[1]);
        else if (rec.kind == FST_REC_CR)
            k += (size_t)snprintf(out + k, cap - k, "%sCR%u=%llX", sep, rec.cls, (unsigned long long)rec.value);
        else if (rec.kind == FST_REC_REGS)
            k += (size_t)snprintf(out + k, cap - k, "%sR5=%llX", sep, (unsigned long long)rec.gr[5]);
        else if (rec.kind == FST_REC_CPU)
            k += (size_t)snprintf(out + k, cap - k, "%scpu%u", sep, rec.cpu);
    }
    fst_tr_close(r);
    unlink(path);
    return rc;
}

static buf s, o;

static void test_sync_starts_a_cpu(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    hello(&s);
    o.n = 0;                        /* CPU 0, DAT off: starts at the BCR, mid-loop */
    sync_op(&o, 0x20002, 0, 0);
    page(&o, 0);
    branch(&o, 0x20002);
    branch(&o, 0x20000);
    chunk(&s, 0, &o);
    o.n = 0;                        /* CPU 1 (no SIGP restart started it), DAT on: at the AR */
    sync_op(&o, 0x20000, FSTMOD_SPACE_DAT | 0x22000, 1);
    page(&o, FSTMOD_SPACE_DAT | 0x22000);
    branch(&o, 0x20000);
    chunk(&s, 1, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), 0);
    assert_string_equal(got, "R5=50 07F3 1A12 07F3 cpu1 CR1=22000 R5=51 1A12 07F3");
}

static void test_sync_again_starts_over(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    hello(&s);
    o.n = 0;
    sync_op(&o, 0x20000, 0, 0);
    page(&o, 0);
    branch(&o, 0x20000);
    sync_op(&o, 0x20002, 0, 2);     /* a second session's start: from the BCR again */
    page(&o, 0);                    /* its pages again (the CPU's table starts empty) */
    branch(&o, 0x20002);
    chunk(&s, 0, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), 0);
    assert_string_equal(got, "R5=50 1A12 07F3 R5=52 07F3");
    /* a page sent before a SYNC is not the code after it */
    hello(&s);
    o.n = 0;
    sync_op(&o, 0x20000, 0, 0);
    page(&o, 0);
    branch(&o, 0x20000);
    sync_op(&o, 0x20002, 0, 2);
    branch(&o, 0x20002);
    chunk(&s, 0, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "CPU 0 executed at 0x20002, where no page the module sent holds code"));
    /* a REP right after SYNC copies branches from before it: refused */
    o.n = 0;
    hello(&s);
    sync_op(&o, 0x20000, 0, 0);
    page(&o, 0);
    branch(&o, 0x20000);
    sync_op(&o, 0x20000, 0, 0);
    o.b[o.n++] = FSTMOD_OP_REP;
    put_v(&o, 1);
    put_v(&o, 5);
    chunk(&s, 0, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "copies branches the stream never gave"));
}

static void test_console_lines(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    hello(&s);
    o.n = 0;                        /* CPU 0: the job's start line at its SYNC, then the end line */
    sync_op(&o, 0x20000, 0, 0);
    page(&o, 0);
    cons(&o, 0x20000, 0x20000, 1, "START");
    branch(&o, 0x20000);
    cons(&o, 0x20002, 0x20000, 2, "END"); /* after the AR: the BCR is not the job's */
    branch(&o, 0x20002);
    chunk(&s, 0, &o);
    o.n = 0;                        /* CPU 1 brings the same lines later: given once; cut at its own END */
    sync_op(&o, 0x20000, 0, 1);
    page(&o, 0);
    cons(&o, 0x20000, 0x20000, 1, "START");
    branch(&o, 0x20000);
    branch(&o, 0x20000);
    cons(&o, 0x20002, 0x20000, 2, "END");
    branch(&o, 0x20002);
    chunk(&s, 1, &o);
    o.n = 0;                        /* CPU 0's records after its cut: not in the trace */
    branch(&o, 0x20000);
    chunk(&s, 0, &o);
    lines[0] = 0;
    console_on = 1;
    assert_int_equal(run(&s, got, sizeof got, &err), 0);
    console_on = 0;
    assert_string_equal(got, "R5=50 1A12 07F3 1A12 cpu1 R5=51 1A12 07F3 1A12 07F3 1A12");
    assert_string_equal(lines, "0:1:START 0:2:END");
    /* a line cut short */
    hello(&s);
    o.n = 0;
    sync_op(&o, 0x20000, 0, 0);
    o.b[o.n++] = FSTMOD_OP_CONS;
    put_sv(&o, 0);
    put_v(&o, 1);
    put_v(&o, 40);
    memcpy(o.b + o.n, "short", 5);
    o.n += 5;
    chunk(&s, 0, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "a console line cut short"));
}

static void test_no_code_no_start(void **state)
{
    (void)state;
    char got[512];
    fst_err err;
    /* code never sent, no image: the address named */
    hello(&s);
    o.n = 0;
    sync_op(&o, 0x20000, 0, 0);
    branch(&o, 0x20000);
    chunk(&s, 0, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "CPU 0 executed at 0x20000, where no page the module sent holds code"));
    /* a CPU's records with neither SYNC nor a start: held, then said at the end */
    hello(&s);
    o.n = 0;
    branch(&o, 0x20000);
    chunk(&s, 2, &o);
    assert_int_equal(run(&s, got, sizeof got, &err), -1);
    assert_non_null(strstr(err.msg, "CPU 2 ran"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_starts_a_cpu),
        cmocka_unit_test(test_sync_again_starts_over),
        cmocka_unit_test(test_no_code_no_start),
        cmocka_unit_test(test_console_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
