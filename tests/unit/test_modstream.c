/*
** tests/unit/test_modstream.c — the module stream's task evidence (capture/module/fstmod_wire.h
** REGS, CR, OPND) through capture/modread/modstream.c into trace.bin: a hand-made stream of a
** small supervisor (LCTL 1, LM 0,15, LPSW to a problem-state task, an SVC, STM 0,15, LPSW to a
** disabled wait) must give the records a whole-system text trace with registers gives for it
** (tracebin.h CR, OPND, REGS: the registers that changed, before the next instruction), in
** that order; a record cut short or an op the reader does not know is an error naming the
** byte offset.
*/
#include "capture/modread/modstream.h"
#include "capture/module/fstmod_wire.h"
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

/* ---- the program: low core and the code at 0x20000 ---- */

static uint8_t low[0x600], code[0x40];

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void program(fst_ins *ins, fst_image_seg seg[2])
{
    memset(low, 0, sizeof low);
    memset(code, 0, sizeof code);
    put32(low + 0, 0x00080000), put32(low + 4, 0x00020000);       /* IPL PSW: EC, supervisor */
    put32(low + 0x60, 0x00080000), put32(low + 0x64, 0x00020020); /* SVC new PSW */
    static const uint8_t c[] = {
        0xB7, 0x11, 0x01, 0x00,     /* 20000 LCTL 1,1,X'100' */
        0x98, 0x0F, 0x02, 0x00,     /* 20004 LM 0,15,X'200' */
        0x82, 0x00, 0x03, 0x00,     /* 20008 LPSW X'300' */
        0x00, 0x00, 0x00, 0x00,
        0x1A, 0x12,                 /* 20010 AR 1,2 (problem state) */
        0x0A, 0x05,                 /* 20012 SVC 5 */
    };
    memcpy(code, c, sizeof c);
    static const uint8_t h[] = {
        0x90, 0x0F, 0x04, 0x00,     /* 20020 STM 0,15,X'400' */
        0x82, 0x00, 0x05, 0x00,     /* 20024 LPSW X'500' */
    };
    memcpy(code + 0x20, h, sizeof h);
    seg[0] = (fst_image_seg){ 0, sizeof low, low };
    seg[1] = (fst_image_seg){ 0x20000, sizeof code, code };
    ins->seg = seg;
    ins->file = NULL;
    ins->n = 2;
}

/* ---- the stream ---- */

typedef struct sb {
    uint8_t b[4096];
    size_t n;
} sb;

static void u8(sb *s, uint8_t v) { s->b[s->n++] = v; }
static void v(sb *s, uint64_t x)
{
    while (x >= 0x80) {
        u8(s, (uint8_t)(x | 0x80));
        x >>= 7;
    }
    u8(s, (uint8_t)x);
}
static void sv(sb *s, int64_t d) { v(s, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63)); }
static void psw(sb *s, uint32_t w0, uint32_t w1)
{
    u8(s, 8);
    put32(s->b + s->n, w0);
    put32(s->b + s->n + 4, w1);
    s->n += 8;
}
static void regs(sb *s, uint16_t mask, const uint32_t *gr)
{
    u8(s, FSTMOD_OP_REGS);
    u8(s, (uint8_t)mask);
    u8(s, (uint8_t)(mask >> 8));
    for (int r = 0; r < 16; r++)
        if (mask >> r & 1)
            v(s, gr[r]);
}

/* The ops of CPU 0 the module writes for the program (`last` as fstmod_wire.h says). */
static void ops(sb *s)
{
    uint32_t gr[16];
    for (int r = 0; r < 16; r++)
        gr[r] = 0x1000u + (uint32_t)r;
    u8(s, FSTMOD_OP_CR), sv(s, 0x20000), v(s, 0x100), u8(s, 0x11), v(s, 0x00ABC000);   /* last 20004 */
    u8(s, FSTMOD_OP_OPND), sv(s, 0), v(s, 0x200);                                       /* last 20008 */
    u8(s, FSTMOD_OP_LPSW), sv(s, 0), v(s, 0x300), psw(s, 0x00090000, 0x00020010);       /* last 20010 */
    regs(s, 0xFFFF, gr);
    u8(s, FSTMOD_OP_SVC), sv(s, 2), v(s, 5), psw(s, 0x00080000, 0x00020020);           /* last 20020 */
    gr[1] += gr[2];
    regs(s, 0x0002, gr);
    u8(s, FSTMOD_OP_OPND), sv(s, 0), v(s, 0x400);                                       /* last 20024 */
    u8(s, FSTMOD_OP_LPSW), sv(s, 0), v(s, 0x500), psw(s, 0x000A0000, 0);
}

static void chunk(sb *out, const sb *payload)
{
    uint8_t h[FSTMOD_CHUNK_HDR] = { FSTMOD_CHUNK, 0, 0, 0, (uint8_t)payload->n, (uint8_t)(payload->n >> 8), 0, 0 };
    memcpy(out->b + out->n, h, sizeof h);
    memcpy(out->b + out->n + sizeof h, payload->b, payload->n);
    out->n += sizeof h + payload->n;
}

/* The stream through a reader into a trace.bin at path: 0, or -1 with err. */
static int capture(const char *path, const sb *stream, fst_err *err)
{
    fst_ins ins;
    fst_image_seg seg[2];
    program(&ins, seg);
    fst_kv hdr[] = { { FST_HK_SOURCE, "capture" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open(path, hdr, err);
    assert_non_null(w);
    fst_em *e = fst_em_new(w, 0);
    fst_ms *m = fst_ms_new(e, &ins, FST_ARCH_S370);
    int rc = fst_ms_feed(m, stream->b, stream->n, err);
    if (!rc)
        rc = fst_ms_finish(m, err);
    fst_em_finish(e);
    fst_ms_free(m);
    fst_em_free(e);
    fst_err cerr;
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &cerr), 0);
    return rc;
}

static void test_task_evidence(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/fst-modstream-%d.trace", (int)getpid());
    sb p = { .n = 0 }, s = { .n = 0 };
    ops(&p);
    chunk(&s, &p);
    fst_err err;
    assert_int_equal(capture(path, &s, &err), 0);
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    /* what the records say, STATE and CPU left out: one line each */
    char got[2048] = "", line[128];
    fst_rec rec;
    while (fst_tr_next(r, &rec, &err) == 1) {
        switch (rec.kind) {
        case FST_REC_INSN: snprintf(line, sizeof line, "insn %llX\n", (unsigned long long)rec.addr); break;
        case FST_REC_CR: snprintf(line, sizeof line, "cr%u %llX\n", rec.cls, (unsigned long long)rec.value); break;
        case FST_REC_OPND: snprintf(line, sizeof line, "opnd %llX\n", (unsigned long long)rec.addr); break;
        case FST_REC_LPSW: snprintf(line, sizeof line, "lpsw %llX\n", (unsigned long long)rec.addr); break;
        case FST_REC_INTR: snprintf(line, sizeof line, "intr %u %u\n", rec.cls, rec.code); break;
        case FST_REC_WAIT: snprintf(line, sizeof line, "wait %u\n", rec.cls); break;
        case FST_REC_REGS:
            snprintf(line, sizeof line, "regs %04X r0 %llX r1 %llX r15 %llX\n", rec.code, (unsigned long long)rec.gr[0],
                     (unsigned long long)rec.gr[1], (unsigned long long)rec.gr[15]);
            break;
        default: line[0] = 0; break;
        }
        strncat(got, line, sizeof got - strlen(got) - 1);
    }
    fst_tr_close(r);
    unlink(path);
    const char *want = "insn 20000\n"
                       "cr1 ABC000\n"           /* LCTL 1,1: CR1, the address space */
                       "insn 20004\n"
                       "opnd 200\n"             /* LM 0,15 in supervisor state: its block */
                       "insn 20008\n"
                       "lpsw 300\n"
                       "regs FFFF r0 1000 r1 1001 r15 100F\n"  /* the dispatched task's, all at first */
                       "insn 20010\n"
                       "insn 20012\n"
                       "intr 5 5\n"             /* the SVC */
                       "regs 0002 r0 1000 r1 2003 r15 100F\n"  /* the one that changed: R1 */
                       "insn 20020\n"
                       "opnd 400\n"             /* STM 0,15 in supervisor state: where it saved them */
                       "insn 20024\n"
                       "lpsw 500\n"
                       "wait 0\n"
                       "wait 1\n";
    assert_string_equal(got, want);
}

/* A stream that ends inside the task evidence: each record cut at every byte is an error
** naming what was cut, never a crash or a silent success. */
static void test_cut_short(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/fst-modstream-%d-cut.trace", (int)getpid());
    static const struct {
        uint8_t op;
        const char *what;
    } cases[] = {
        { FSTMOD_OP_REGS, "a registers record cut short" },
        { FSTMOD_OP_CR, "an LCTL, LM or STM record cut short" },
        { FSTMOD_OP_OPND, "an LCTL, LM or STM record cut short" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sb whole = { .n = 0 };
        uint32_t gr[16] = { 0 };
        if (cases[i].op == FSTMOD_OP_REGS)
            regs(&whole, 0x8001, gr);
        else if (cases[i].op == FSTMOD_OP_CR)
            u8(&whole, FSTMOD_OP_CR), sv(&whole, 0x20000), v(&whole, 0x100), u8(&whole, 0x11), v(&whole, 0x00ABC000);
        else
            u8(&whole, FSTMOD_OP_OPND), sv(&whole, 0x20004), v(&whole, 0x200);
        for (size_t cut = 1; cut < whole.n; cut++) {
            sb p = whole, s = { .n = 0 };
            p.n = cut;
            chunk(&s, &p);
            fst_err err;
            assert_int_equal(capture(path, &s, &err), -1);
            assert_non_null(strstr(err.msg, cases[i].what));
            assert_non_null(strstr(err.msg, "fst module stream, byte "));
        }
    }
    /* an op this reader does not know (a module of another version) */
    sb p = { .n = 0 }, s = { .n = 0 };
    u8(&p, 0xEE);
    chunk(&s, &p);
    fst_err err;
    assert_int_equal(capture(path, &s, &err), -1);
    assert_non_null(strstr(err.msg, "an op the reader does not know"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task_evidence),
        cmocka_unit_test(test_cut_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
