/* Unit tests of capture/read/herclog.c: PSW text in both Hercules spellings, the state word,
** line classification on hand-made inputs, and the records that identify a task and an
** address space (SVC, LPSW, control register 1) on lines copied from the fixtures and
** notes/hercules-trace.md (the fixtures are covered end to end in
** tests/e2e/capture_fixtures.sh). */
#include "capture/read/herclog.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static void test_psw_spellings(void **state)
{
    (void)state;
    uint8_t a[16], b[16];
    /* 3.13 and 4.x print the same 8-byte PSW differently */
    assert_int_equal(fst_psw_parse("00080000 80020006", 17, a), 8);
    assert_int_equal(fst_psw_parse("0008000080020006", 16, b), 8);
    assert_memory_equal(a, b, 8);
    assert_int_equal(fst_psw_ia(a, 8), 0x20006);
    /* z/Architecture: 16 bytes, 64-bit address */
    assert_int_equal(fst_psw_parse("00000001 80000000 0000000000020010", 34, a), 16);
    assert_int_equal(fst_psw_parse("0000000180000000 0000000000020010", 33, b), 16);
    assert_memory_equal(a, b, 16);
    assert_int_equal(fst_psw_ia(a, 16), 0x20010);
    assert_int_equal(fst_st_amode(fst_psw_state(a, 16, FST_ARCH_ESA390)), 2);
    assert_int_equal(fst_st_arch(fst_psw_state(a, 16, FST_ARCH_ESA390)), FST_ARCH_ZARCH);
    /* not PSWs */
    assert_int_equal(fst_psw_parse("0008000 80020006", 16, a), 0);
    assert_int_equal(fst_psw_parse("00080000", 8, a), 0);
    assert_int_equal(fst_psw_parse("0008000G80020006", 16, a), 0);
}

static void test_psw_state(void **state)
{
    (void)state;
    uint8_t p[16];
    /* S/370 BC: 24-bit address in bytes 5-7, ILC/CC in byte 4 ignored */
    fst_psw_parse("00000000 C002000C", 17, p);
    assert_int_equal(fst_psw_ia(p, 8), 0x2000C);
    uint32_t st = fst_psw_state(p, 8, FST_ARCH_S370);
    assert_int_equal(st & FST_ST_EC, 0);
    assert_int_equal(fst_st_amode(st), 0);
    /* ESA/390, DAT on, 31-bit, problem state, key 8 */
    fst_psw_parse("04890000 8002000E", 17, p);
    st = fst_psw_state(p, 8, FST_ARCH_ESA390);
    assert_true(st & FST_ST_DAT);
    assert_true(st & FST_ST_PROBLEM);
    assert_int_equal((st >> FST_ST_KEY_SHIFT) & 0xF, 8);
    assert_int_equal(fst_st_amode(st), 1);
    /* ESA/390 24-bit */
    fst_psw_parse("00080000 00020020", 17, p);
    assert_int_equal(fst_st_amode(fst_psw_state(p, 8, FST_ARCH_ESA390)), 0);
}

static const char *tmp(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/fst-test-herclog.%d", (int)getpid());
    return path;
}

/* Feed text in pieces of `step` bytes; return the stats. */
static fst_hlog_stats feed(const char *text, size_t step)
{
    fst_err err;
    fst_tw *w = fst_tw_open(tmp(), NULL, &err);
    assert_non_null(w);
    fst_hlog *h = fst_hlog_new(w, "test.log", FST_ARCH_UNKNOWN, 0);
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i += step)
        assert_int_equal(fst_hlog_feed(h, text + i, i + step > n ? n - i : step, &err), 0);
    assert_int_equal(fst_hlog_finish(h, &err), 0);
    fst_hlog_stats st = *fst_hlog_getstats(h);
    fst_hlog_free(h);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    unlink(tmp());
    return st;
}

static const char log313[] =
    "HHCCP003I CPU0000 architecture mode ESA/390\n"
    "PSW=00080000 80020000 INST=0DC0         BASR  12,0                   branch_and_save_register\r\n"
    "PSW=00080000 80020002 INST=41100003     HHCAO001I Hercules Automatic Operator thread started;\n"
    "          tid=7FEE5DB156C0, pri=0, pid=6877\n"
    "LA    1,3(0,0)               load_address\n"
    "R:00000003:K:06=00 80020000 00000000 00000000 000000 ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000HHCPN013I EOF reached on SCRIPT file.\n"
    "PSW=00080000 80020030 INST=58203000     L     2,0(0,3)               load\n"
    "HHCCP014I CPU0000: Addressing exception CODE=0005 ILC=4\n"
    "PSW=00080000 80020034 INST=58203000     L     2,0(0,3)               load\n"
    "what is this\n"
    "PSW=00080000 8002004C INST=8200C04E     LPSW  78(12)                 load_program_status_word\n"
    "HHCCP043I Wait state PSW loaded: PSW=000A0000 80000000\n"
    "HHCCP011I CPU0000: Disabled wait state\n"
    "          HHCAO003I Firing command: 'quit'\n"
    "PSW=000A0000 80000000"; /* no newline at the end */

static void test_classify_313(void **state)
{
    (void)state;
    for (size_t step = 1; step <= 64; step *= 4) { /* lines split across feeds */
        fst_hlog_stats st = feed(log313, step);
        assert_int_equal(st.insns, 4);        /* BASR, LA (spliced), L, LPSW; not the re-display */
        assert_int_equal(st.redisplays, 1);
        assert_int_equal(st.pgmchks, 1);
        assert_int_equal(st.waits, 2);
        assert_true(st.disabled_wait);
        assert_int_equal(st.unknown, 1);
        assert_int_equal(st.first_unknown_line, 11);
        assert_string_equal(st.first_unknown, "what is this");
        assert_int_equal(st.malformed, 0);
        assert_int_equal(st.arch, FST_ARCH_ESA390);
        assert_int_equal(st.lines, 16);
    }
}

/* The PSW lines the fast reader takes and those it leaves to the slow one (herclog.c,
** psw_fast) must be read alike: an instruction, or a malformed line, never a mix. */
static void test_psw_line_shapes(void **state)
{
    (void)state;
    static const struct { const char *line; int insns, malformed; } cases[] = {
        { "PSW=00080000 00020000 INST=18CF", 1, 0 },                 /* ends after the digits */
        { "PSW=00080000 00020000 INST=18cf         LR    12,15", 1, 0 }, /* lower case */
        { "PSW=00080000 00020000 INST=5820C03C", 1, 0 },
        { "PSW=00080000 00020000 INST=EB00C08E002F LCTLG", 1, 0 },
        { "PSW=0008000000020000 INST=18CF         LR", 1, 0 },          /* 4.x */
        { "PSW=0008000000020000 INST=18CF", 1, 0 },                     /* 4.x, 30 bytes */
        { "PSW=00000001 80000000 0000000000020010 INST=B91700CC     LLGTR", 1, 0 },
        { "PSW=0000000180000000 0000000000020010 INST=B91700CC     LLGTR", 1, 0 },
        { "PSW=00080000 0002000G INST=18CF         LR", 0, 1 },
        { "PSW=00080000 00020000 INST=18CFF        LR", 0, 1 },          /* 5 digits */
        { "PSW=00080000 00020000 INST=18C", 0, 1 },
        { "PSW=00080000 00020000 INST=5820C0       L", 0, 1 },          /* 6 digits */
        { "PSW=00080000 00020000 INST=18CF5820     LR", 0, 1 },          /* 2-byte op, 8 digits */
        { "PSW=00080000 00020000 INST=5820         L", 0, 1 },           /* 4-byte op, 4 digits */
        { "PSW=00080000 00020000 INST=EB00C08E     LCTLG", 0, 1 },
        { "PSW=00080000 00020000INST=18CF         LR", 0, 1 },
        { "PSW=00080000 00020000 INSX=18CF         LR", 0, 1 },
        { "PSW=00080000 000200000 INST=18CF        LR", 0, 1 },          /* 9 digits */
        { "PSW=0008000 000200000 INST=18CF         LR", 0, 1 },
        { "PSW=00080000 \x80" "020000 INST=18CF        LR", 0, 1 },
        { "PSW=00000001 80000000 000000000002001 INST=B91700CC     LLGTR", 0, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[160];
        snprintf(text, sizeof text, "%s\n", cases[i].line);
        for (size_t step = 1; step <= 256; step *= 16) {
            fst_hlog_stats st = feed(text, step);
            if ((int)st.insns != cases[i].insns || (int)st.malformed != cases[i].malformed)
                fail_msg("%s: %d instructions, %d malformed", cases[i].line, (int)st.insns, (int)st.malformed);
        }
    }
}

/* A line that repeats the address of one read before (psw_fast remembers it) is read in
** full all the same: only the same digits give the same instruction. */
static void test_psw_line_repeats(void **state)
{
    (void)state;
    static const char text[] =
        "PSW=00080000 00020000 INST=18CF         LR    12,15\n"          /* read: remembered */
        "PSW=00080000 00020000 INST=18CF         LR    12,15\n"          /* the same: 2 */
        "PSW=00080000 00020000 INST=18CG         LR    12,15\n"          /* malformed 1 */
        "PSW=00080000 00020000 INST=18CFF        LR    12,15\n"          /* malformed 2 */
        "PSW=00080000 00020000 INST=18C          LR    12,15\n"          /* malformed 3 */
        "PSW=00080000 00020000 INST=5820C03C     L     2,60(0,12)\n"     /* other bytes: 3 */
        "PSW=00080000 00020000 INST=5820C03C5    L     2,60(0,12)\n"     /* malformed 4 */
        "PSW=00080000 00020000 INST=5820C03C     L     2,60(0,12)\n"     /* 4 */
        "PSW=00080000 00020000 INST=5820C03D     L     2,61(0,12)\n"     /* 5 */
        "PSW=00080000 0002000G INST=5820C03D     L     2,61(0,12)\n"     /* malformed 5 */
        "PSW=00080000 00020000 INST=EB00C08E002F LCTLG 0,0,142(12)\n"    /* 6 */
        "PSW=00080000 00020000 INST=EB00C08E002F LCTLG 0,0,142(12)\n"    /* 7 */
        "PSW=00080000 00020000 INST=EB00C08E002  LCTLG 0,0,142(12)\n"    /* malformed 6 */
        "PSW=00080000 00020000 INST=EB00C08E002FF LCTLG 0,0,142(12)\n"   /* malformed 7 */
        "PSW=00080000 00020000INST=EB00C08E002F LCTLG 0,0,142(12)\n"     /* malformed 8 */
        "PSW=00080000 00020000 INST=EB00C08E002F\n";                     /* 8: at the end */
    for (size_t step = 1; step <= 4096; step *= 8) {
        fst_hlog_stats st = feed(text, step);
        assert_int_equal(st.insns, 8);
        assert_int_equal(st.malformed, 8);
    }
}

static const char log49[] =
    "01:01:33 HHC00811I Processor CP00: architecture mode z/Arch\n"
    "01:01:33 HHC02324I CP00: PSW=0000000180000000 0000000000020010 INST=B91700CC     LLGTR 12,12                  x\n"
    "01:01:33 HHC02326I CP00: R:00000000000000CC:K:06=00000000 00000000 00000000 00000000  ................\n"
    "01:01:33 HHC02269I CP00: R0=0000000000000000 R1=0000000000000003 R2=0000000000000000 R3=0000000000020002\n"
    "01:01:34 HHC02324I CP01: PSW=0000000180000000 0000000000020014 INST=EB00C08E002F LCTLG 0,0,142(12)            x\n"
    "01:01:34 HHC00801I Processor CP01: Operation exception interruption code 0001 ilc 6\n"
    "01:01:34 HHC02324I CP01: PSW=0000000180000000 0000000000020014 INST=EB00C08E002F LCTLG 0,0,142(12)            x\n"
    "01:01:34 HHC02324I PSW=00080000ZZ020000 INST=0DC0\n"
    "01:01:34 HHC00809I Processor CP01: disabled wait state 00020001 80000000 0000000000000000\n";

static void test_classify_49(void **state)
{
    (void)state;
    fst_hlog_stats st = feed(log49, 4096);
    assert_int_equal(st.insns, 2);
    assert_int_equal(st.redisplays, 1);
    assert_int_equal(st.pgmchks, 1);
    assert_int_equal(st.malformed, 1);
    assert_int_equal(st.first_malformed_line, 8);
    assert_int_equal(st.unknown, 0);
    assert_true(st.disabled_wait);
    assert_int_equal(st.arch, FST_ARCH_ZARCH);
}

/* The records of the trace that `text` gives (fed in pieces of `step` bytes), one line
** each: "cpu kind fields". STATE, CPU and TIME records are left out. */
static int show_evidence;   /* records() prints REGS, BASES, OPND and OLDPSW too */

static fst_hlog_stats records(const char *text, size_t step, char *out, size_t cap)
{
    fst_err err;
    fst_tw *w = fst_tw_open(tmp(), NULL, &err);
    assert_non_null(w);
    fst_hlog *h = fst_hlog_new(w, "test.log", FST_ARCH_UNKNOWN, 0);
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i += step)
        assert_int_equal(fst_hlog_feed(h, text + i, i + step > n ? n - i : step, &err), 0);
    assert_int_equal(fst_hlog_finish(h, &err), 0);
    fst_hlog_stats st = *fst_hlog_getstats(h);
    fst_hlog_free(h);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_tr *r = fst_tr_open(tmp(), &err);
    assert_non_null(r);
    fst_rec rec;
    size_t len = 0;
    out[0] = 0;
    int k;
    while ((k = fst_tr_next(r, &rec, &err)) > 0) {
        char b[256];
        int o = snprintf(b, sizeof b, "%u ", rec.cpu);
        switch (rec.kind) {
        case FST_REC_INSN:
            o += snprintf(b + o, sizeof b - (size_t)o, "insn %llX ", (unsigned long long)rec.addr);
            for (int i = 0; i < rec.len; i++)
                o += snprintf(b + o, sizeof b - (size_t)o, "%02X", rec.bytes[i]);
            break;
        case FST_REC_PGMCHK: o += snprintf(b + o, sizeof b - (size_t)o, "pgmchk %X", rec.code); break;
        case FST_REC_INTR: o += snprintf(b + o, sizeof b - (size_t)o, "intr %u %u", rec.cls, rec.code); break;
        case FST_REC_WAIT: o += snprintf(b + o, sizeof b - (size_t)o, "wait %u", rec.cls); break;
        case FST_REC_GAP: o += snprintf(b + o, sizeof b - (size_t)o, "gap"); break;
        case FST_REC_LPSW:
            o += snprintf(b + o, sizeof b - (size_t)o, "lpsw %llX ", (unsigned long long)rec.addr);
            for (int i = 0; i < rec.pswlen; i++)
                o += snprintf(b + o, sizeof b - (size_t)o, "%02X", rec.psw[i]);
            break;
        case FST_REC_CR:
            o += snprintf(b + o, sizeof b - (size_t)o, "cr%u %llX", rec.cls, (unsigned long long)rec.value);
            break;
        case FST_REC_REGS:
        case FST_REC_BASES:
            if (!show_evidence)
                continue;
            o += snprintf(b + o, sizeof b - (size_t)o, "%s", rec.kind == FST_REC_REGS ? "regs" : "bases");
            for (int g = 0; g < 16; g++)
                if (rec.code >> g & 1)
                    o += snprintf(b + o, sizeof b - (size_t)o, " r%d=%llX", g, (unsigned long long)rec.gr[g]);
            break;
        case FST_REC_OPND:
            if (!show_evidence)
                continue;
            o += snprintf(b + o, sizeof b - (size_t)o, "opnd %llX", (unsigned long long)rec.addr);
            break;
        case FST_REC_OLDPSW:
            if (!show_evidence)
                continue;
            o += snprintf(b + o, sizeof b - (size_t)o, "oldpsw %llX ", (unsigned long long)rec.addr);
            for (int i = 0; i < rec.pswlen; i++)
                o += snprintf(b + o, sizeof b - (size_t)o, "%02X", rec.psw[i]);
            break;
        default: continue;
        }
        assert_true(len + (size_t)o + 2 < cap);
        len += (size_t)snprintf(out + len, cap - len, "%s\n", b);
    }
    assert_int_equal(k, 0);
    fst_tr_close(r);
    unlink(tmp());
    return st;
}

/* Hercules 3.13, S/370 BC (notes §2.3, bc_noregs.log) and DAT (dat_noregs.log): an SVC is
** an interruption; LPSW and LCTL 1 write what they loaded after the instruction; an LPSW
** that program-checks writes nothing, neither does its re-display's storage line. */
static const char svc_lpsw_313[] =
    "PSW=00000000 90020050 INST=0A05         SVC   5                      supervisor_call\n"
    "PSW=00000000 4002005E INST=82000020     LPSW  32(0)                  load_program_status_word\n"
    "R:00000020:K:06=00000005 50020052 00000000 00000000  ....&...........\n"
    "PSW=00000005 90020052 INST=0000         ????? ,                      ?\n"
    "HHCCP014I CPU0000: Operation exception CODE=0001 ILC=2\n"
    "PSW=00000001 50020054 INST=0000         ????? ,                      ?\n"
    "PSW=00080000 80020006 INST=B711C04A     LCTL  1,1,74(12)             load_control\n"
    "R:0002004C:K:06=00021000 00050010 41424344 45464748  ................\n"
    "PSW=00010001 9002005A INST=8200C066     LPSW  102(12)                load_program_status_word\n"
    "R:00020068:K:06=00020000 00000000 41424344 45464748  ................\n"
    "HHCCP014I CPU0000: Privileged-operation exception CODE=0002 ILC=4\n"
    "PSW=00010001 9002005E INST=8200C066     LPSW  102(12)                load_program_status_word\n"
    "R:00020068:K:06=00020000 00000000 41424344 45464748  ................\n"
    "PSW=00080000 80020028 INST=8200C03E     LPSW  62(12)                 load_program_status_word\n"
    "R:00020040:K:06=000A0000 80000BAD 00B000E0 00021000  .......[...\\....\n"
    "HHCCP043I Wait state PSW loaded: PSW=000A0000 80000BAD\n"
    "HHCCP011I CPU0000: Disabled wait state\n";

static void test_svc_lpsw_lctl_313(void **state)
{
    (void)state;
    static char out[4096];
    for (size_t step = 1; step <= 4096; step *= 8) {
        fst_hlog_stats st = records(svc_lpsw_313, step, out, sizeof out);
        assert_string_equal(out, "0 insn 20050 0A05\n"
                                 "0 intr 5 5\n"
                                 "0 insn 2005E 82000020\n"
                                 "0 lpsw 20 0000000550020052\n"
                                 "0 insn 20052 0000\n"
                                 "0 pgmchk 1\n"
                                 "0 insn 20006 B711C04A\n"
                                 "0 cr1 21000\n"
                                 "0 insn 2005A 8200C066\n"
                                 "0 pgmchk 2\n"
                                 "0 insn 20028 8200C03E\n"
                                 "0 lpsw 20040 000A000080000BAD\n"
                                 "0 wait 0\n"
                                 "0 wait 1\n");
        assert_int_equal(st.svcs, 1);
        assert_int_equal(st.intrs, 0); /* I/O and external only */
        assert_int_equal(st.insns, 6);
        assert_int_equal(st.pgmchks, 2);
        assert_int_equal(st.unknown + st.malformed, 0);
    }
}

/* traditional mode, DAT on (dat_traditional.log, notes §2.8): a CR block follows the
** registers. The first CR01 shown is written; the same value again is not; an LCTL that
** program-checks writes nothing, though its own (earlier) CR block comes before the
** check; LCTL r1,r3 wraps from 15 to 0. */
static const char crblock_313[] =
    "PSW=04080000 8002000E INST=41100003     LA    1,3(0,0)               load_address\n"
    "V:00000003:K:06=00 80020000 00000000 00000000 000000 ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "GR04=00000000  GR05=00000000  GR06=00000000  GR07=00000000\n"
    "GR08=00000000  GR09=00000000  GR10=00000000  GR11=00000000\n"
    "GR12=80020002  GR13=00000000  GR14=00000000  GR15=00000000\n"
    "CR00=00B000E0  CR01=00021000  CR02=00000000  CR03=00000000\n"
    "CR04=00000000  CR05=00000000  CR06=00000000  CR07=00000000\n"
    "CR08=00000000  CR09=00000000  CR10=00000000  CR11=00000000\n"
    "CR12=00000000  CR13=00000000  CR14=C2000000  CR15=00000000\n"
    "PSW=04090000 80020012 INST=B711C04A     LCTL  1,1,74(12)             load_control\n"
    "V:0002004C:K:06=00031000 00050010 41424344 45464748  ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "CR00=00B000E0  CR01=00021000  CR02=00000000  CR03=00000000\n"
    "HHCCP014I CPU0000: Privileged-operation exception CODE=0002 ILC=4\n"
    "PSW=04090000 80020016 INST=B711C04A     LCTL  1,1,74(12)             load_control\n"
    "V:0002004C:K:06=00031000 00050010 41424344 45464748  ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "CR00=00B000E0  CR01=00021000  CR02=00000000  CR03=00000000\n"
    "PSW=04080000 8002001A INST=B7F1C04A     LCTL  15,1,74(12)            load_control\n"
    "V:0002004C:K:06=00000000 00000000 00041000 45464748  ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "CR00=00B000E0  CR01=00021000  CR02=00000000  CR03=00000000\n"
    "PSW=04080000 8002001E INST=B700C04A     LCTL  0,0,74(12)             load_control\n"
    "V:0002004C:K:06=00000000 00000000 00041000 45464748  ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "CR00=00B000E0  CR01=00041000  CR02=00000000  CR03=00000000\n"
    "PSW=04080000 80020022 INST=B701C0FE     LCTL  0,1,254(12)            load_control\n"
    "V:00020FFC:K:06=00B000E0                             ....            \n"
    "PSW=04080000 80020026 INST=8200C0FE     LPSW  254(12)                load_program_status_word\n"
    "V:00050010: Translation exception 0011\n"
    "HHCCP014I CPU0000: Page-translation exception CODE=0011 ILC=4\n"
    "PSW=04080000 80020026 INST=8200C0FE     LPSW  254(12)                load_program_status_word\n"
    "V:00050010: Translation exception 0011\n";

static void test_cr_display_313(void **state)
{
    (void)state;
    static char out[4096];
    fst_hlog_stats st = records(crblock_313, 4096, out, sizeof out);
    assert_string_equal(out, "0 cr1 21000\n"           /* the first CR01 shown, before its instruction */
                             "0 insn 2000E 41100003\n"
                             "0 insn 20012 B711C04A\n"
                             "0 pgmchk 2\n"            /* no cr1 31000: the LCTL failed */
                             "0 insn 2001A B7F1C04A\n"
                             "0 cr1 41000\n"           /* CR15, CR0, CR1: CR1 is the third word */
                             "0 insn 2001E B700C04A\n" /* CR0 only; its display shows CR01=00041000, as written */
                             "0 insn 20022 B701C0FE\n" /* CR1's word is past the page end: not shown */
                             "0 insn 20026 8200C0FE\n"
                             "0 pgmchk 11\n");
    assert_string_equal(st.traceopt, "traditional");
    assert_int_equal(st.unknown + st.malformed, 0);
}

/* 3.13 writes "HHCCP014I " and the rest of a program check apart; another thread's whole
** message came between them in a generated system's log (tests/os seed 105, lines as
** Hercules wrote them): the program check is still read, and the copy of the instruction
** Hercules prints after it is still no record. */
static const char pgm_spliced_313[] =
    "PSW=07890000 0003000C INST=90ECD00C     STM   14,12,12(13)           store_multiple\n"
    "V:00080EA4: Translation exception 0011\n"
    "GR12=00000000  GR13=00080E98  GR14=0002F000  GR15=00030000\n"
    "HHCCP014I HHCPN013I EOF reached on SCRIPT file. Processing complete.\n"
    "CPU0000: Page-translation exception CODE=0011 ILC=4\n"
    "PSW=07890000 0003000C INST=90ECD00C     STM   14,12,12(13)           store_multiple\n"
    "V:00080EA4: Translation exception 0011\n"
    "GR12=00000000  GR13=00080E98  GR14=0002F000  GR15=00030000\n";

static void test_pgm_spliced_313(void **state)
{
    (void)state;
    static char out[1024];
    fst_hlog_stats st = records(pgm_spliced_313, 1024, out, sizeof out);
    assert_string_equal(out, "0 insn 3000C 90ECD00C\n"
                             "0 pgmchk 11\n");
    assert_int_equal(st.unknown + st.malformed + st.spliced, 0);
}

/* regsfirst mode: the CR block before a PSW line is the next instruction's, so an LCTL's
** value shows there before its record is due; it is written once. */
static const char regsfirst_313[] =
    "CR00=00B000E0  CR01=00021000  CR02=00000000  CR03=00000000\n"
    "\n"
    "PSW=04080000 80020006 INST=B711C04A     LCTL  1,1,74(12)             load_control\n"
    "V:0002004C:K:06=00031000 00050010 41424344 45464748  ................\n"
    "CR00=00B000E0  CR01=00031000  CR02=00000000  CR03=00000000\n"
    "\n"
    "PSW=04080000 8002000A INST=1812         LR    1,2                    load_register\n";

static void test_cr_regsfirst_313(void **state)
{
    (void)state;
    static char out[1024];
    fst_hlog_stats st = records(regsfirst_313, 4096, out, sizeof out);
    assert_string_equal(out, "0 cr1 21000\n"
                             "0 insn 20006 B711C04A\n"
                             "0 cr1 31000\n"
                             "0 insn 2000A 1812\n");
    assert_string_equal(st.traceopt, "regsfirst");
}

/* An LPSW whose new PSW points at storage that is not there: the check comes from the
** fetch at the new PSW (the re-display says "Instruction fetch error"), so the LPSW
** itself completed and its record is kept, before the program check. Both spellings. */
static const char fetcherr[] =
    "PSW=00080000 8002001A INST=8200C026     LPSW  38(12)                 load_program_status_word\n"
    "R:00020028:K:06=00080000 80F00000 00022000 00F00000  .......[.....0..\n"
    "HHCCP014I CPU0000: Addressing exception CODE=0005 ILC=4\n"
    "PSW=00080000 80F00004 Instruction fetch error\n"
    "01:01:34 HHC02324I PSW=000800008002001A INST=8200C026     LPSW  38(12)                 load_program_status_word\n"
    "01:01:34 HHC02326I R:00020028:K:06=00080000 80F00000 00022000 00F00000  .......[.....0..\n"
    "01:01:34 HHC00801I Processor CP00: Addressing exception interruption code 0005 ilc 2\n"
    "01:01:34 HHC02325E  Instruction fetch error\n";

static void test_lpsw_then_fetch_error(void **state)
{
    (void)state;
    static char out[1024];
    fst_hlog_stats st = records(fetcherr, 4096, out, sizeof out);
    assert_string_equal(out, "0 insn 2001A 8200C026\n"
                             "0 lpsw 20028 0008000080F00000\n"
                             "0 pgmchk 5\n"
                             "0 insn 2001A 8200C026\n"
                             "0 lpsw 20028 0008000080F00000\n"
                             "0 pgmchk 5\n");
    assert_int_equal(st.redisplays, 2);
}

/* SDL Hercules 4.x: V:...:R:...:K: storage lines (DAT on), HHC02271I CR lines, a z/Arch
** LPSWE with a 16-byte PSW (notes §3.3), an LCTLG that loads CR1 and z's "C1=". */
static const char log49_task[] =
    "01:01:34 HHC02324I PSW=040800008002002C INST=8200C03E     LPSW  62(12)                 load_program_status_word\n"
    "01:01:34 HHC02326I V:00020040:R:0000000000020040:K:06=04080000 80020100 00B000E0 00021000  .......[...\\....\n"
    "01:01:34 HHC02269I GR00=00000000 GR01=00000000 GR02=00000000 GR03=00000000\n"
    "01:01:34 HHC02271I CR00=00B000E0 CR01=00021000 CR02=00000000 CR03=00000000\n"
    "01:01:34 HHC02324I PSW=0408000080020100 INST=05EF         BALR  14,15                  branch_and_link_register\n"
    "01:01:34 HHC02271I CR00=00B000E0 CR01=00021000 CR02=00000000 CR03=00000000\n"
    "01:01:33 HHC00811I Processor CP00: architecture mode z/Arch\n"
    "01:01:33 HHC02324I PSW=0000000180000000 0000000000020014 INST=EB01C08E002F LCTLG 0,1,142(12)            load_control_long\n"
    "01:01:33 HHC02326I R:0000000000020090:K:06=00000000 000400E0 00000000 01234000  .......\\....i...\n"
    "01:01:33 HHC02271I C0=00000000000400E0 C1=0000000000000000 C2=0000000000000000 C3=0000000000000000\n"
    "01:01:33 HHC02324I PSW=0000000180000000 0000000000020076 INST=B2B20140     LPSWE 320(0)                 load_program_status_word_extended\n"
    "01:01:33 HHC02326I R:0000000000000140:K:06=00002001 80000000 00000000 0002006C  ...............%\n"
    "01:01:33 HHC02271I C0=00000000000400E0 C1=0000000001234000 C2=0000000000000000 C3=0000000000000000\n"
    "01:01:33 HHC02324I PSW=0000200180000000 000000000002006C INST=0000         ????? ,                      ?\n"
    "01:01:33 HHC00801I Processor CP00: Operation exception interruption code 0001 ilc 2\n"
    "01:01:33 HHC02324I PSW=0000200180000000 000000000002006C INST=0000         ????? ,                      ?\n";

static void test_task_records_49(void **state)
{
    (void)state;
    static char out[4096];
    fst_hlog_stats st = records(log49_task, 4096, out, sizeof out);
    /* registers after the instruction (traditional): an instruction's display (CR1 here) is
    ** written before it, the first one's too (held until its display has ended) */
    assert_string_equal(out, "0 cr1 21000\n"
                             "0 insn 2002C 8200C03E\n"
                             "0 lpsw 20040 0408000080020100\n"
                             "0 insn 20100 05EF\n"
                             "0 cr1 0\n" /* the LCTLG's own display: the value before it */
                             "0 insn 20014 EB01C08E002F\n"
                             "0 cr1 1234000\n"
                             "0 insn 20076 B2B20140\n"
                             "0 lpsw 140 0000200180000000000000000002006C\n"
                             "0 insn 2006C 0000\n"
                             "0 pgmchk 1\n");
    assert_int_equal(st.unknown + st.malformed, 0);
}

/* Two CPUs (3.13 prefixes): lines of CPU 1 come between CPU 0's LPSW and its storage
** line; CPU 0's record waits for CPU 0's next PSW line. */
static const char twocpu_313[] =
    "CPU0000:  PSW=00080000 80020044 INST=8200C04E     LPSW  78(12)                 load_program_status_word\n"
    "CPU0001:  PSW=00080000 80020000 INST=0DC0         BASR  12,0                   branch_and_save_register\n"
    "CPU0000:  R:00020050:K:06=00080000 80020100 8002002A 00F00000  .............0..\n"
    "CPU0001:  PSW=00080000 80020002 INST=0A07         SVC   7                      supervisor_call\n"
    "CPU0001: GR00=00000000  GR01=8002002A  GR02=00000000  GR03=00000000\n"
    "CPU0000:  PSW=00080000 80020100 INST=05EF         BALR  14,15                  branch_and_link_register\n";

static void test_two_cpus_313(void **state)
{
    (void)state;
    static char out[1024];
    records(twocpu_313, 4096, out, sizeof out);
    assert_string_equal(out, "0 insn 20044 8200C04E\n"
                             "1 insn 20000 0DC0\n"
                             "1 insn 20002 0A07\n"
                             "1 intr 5 7\n"
                             "0 lpsw 20050 0008000080020100\n"
                             "0 insn 20100 05EF\n");
}

/* A live two-CPU run under 3.13 (tests/programs/cpu1first.s): CPU 0's LPSW line was cut
** after its instruction by CPU 1's whole first line, and the LPSW's disassembly came two
** lines later on its own. Both instructions are read, nothing is counted lost. CPU 1 then
** loads its disabled wait first: not the program's end while CPU 0 runs; CPU 0's is. */
static const char cpu1first_313[] =
    "CPU0000:  PSW=00081000 00020030 INST=AE430006     SIGP  4,3,6(0)               signal_processor\n"
    "CPU0000:  R:00000006:K:06=0080 00000000 00000000 00000000 0000 ................\n"
    "CPU0000: SIGP Restart (06) CPU0001, PARM 00000000: CC 0\n"
    "CPU0000:  PSW=00080000 00020034 INST=8200C046     CPU0001:  PSW=00080000 00020080 INST=05C0         "
    "BALR  12,0                   branch_and_link_register\n"
    "CPU0001:  PSW=00080000 00020082 INST=41500064     LA    5,100(0,0)             load_address\n"
    "LPSW  70(12)                 load_program_status_word\n"
    "CPU0000:  R:00020048:K:06=010A0000 00000000 000A0000 00000000  ................\n"
    "HHCCP043I Wait state PSW loaded: PSW=010A0000 00000000\n"
    "CPU0001:  R:00000064:K:06=00BAD060 000A0000 00BAD068 000A0000  ..}-......}.....\n"
    "CPU0001:  PSW=00080000 0002008A INST=8200C00E     LPSW  14(12)                 load_program_status_word\n"
    "CPU0001:  R:00020090:K:06=000A0000 00000111 00000000 00000000  ................\n"
    "HHCCP043I Wait state PSW loaded: PSW=000A0000 00000111\n"
    "HHCCP011I CPU0001: Disabled wait state\n"
    "          PSW=000A0000 00000111\n";
static const char cpu1first_313_end[] =
    "CPU0000:  PSW=00080000 0002003C INST=4650C03A     BCT   5,58(0,12)             branch_on_count\n"
    "CPU0000:  R:0002003C:K:06=4650C03A 8200C04E 07070707 010A0000  .&{.b.{+........\n"
    "CPU0000:  PSW=00080000 00020040 INST=8200C04E     LPSW  78(12)                 load_program_status_word\n"
    "CPU0000:  R:00020050:K:06=000A0000 00000000 00080000 00020080  ................\n"
    "HHCCP043I Wait state PSW loaded: PSW=000A0000 00000000\n"
    "HHCCP011I CPU0000: Disabled wait state\n"
    "          PSW=000A0000 00000000\n";

static void test_split_line_and_end_313(void **state)
{
    (void)state;
    static char out[2048], both[4096];
    fst_hlog_stats st = records(cpu1first_313, 4096, out, sizeof out);
    assert_int_equal(st.insns, 5); /* SIGP, LPSW (0); BALR, LA, LPSW (1) */
    assert_int_equal(st.malformed, 0);
    assert_int_equal(st.spliced, 0);
    assert_int_equal(st.disabled_wait, 1);
    assert_int_equal(st.ended, 0); /* CPU 0 runs on */
    assert_int_equal(st.running, 1);
    assert_non_null(strstr(out, "0 insn 20034 8200C046\n"));
    assert_non_null(strstr(out, "1 insn 20080 05C0\n"));
    snprintf(both, sizeof both, "%s%s", cpu1first_313, cpu1first_313_end);
    st = records(both, 7, out, sizeof out);
    assert_int_equal(st.insns, 7);
    assert_int_equal(st.ended, 1);
    assert_int_equal(st.running, 0);
}

/* I/O interruptions: 3.13 prints the device as code=000C, 4.x as the channel subsystem
** and device, 0:000C (io370.h313-noregs.log, io370.hyp49-noregs.log): both are device C. */
static const char io_both[] =
    "HHCCP044I I/O interrupt code=000C CSW=00020030 0E000050\n"
    "14:06:12 HHC00804I Processor CP00: I/O interrupt code 0:000C CSW 00020030 0E000050\n";

static void test_io_code(void **state)
{
    (void)state;
    static char out[256];
    records(io_both, 4096, out, sizeof out);
    assert_string_equal(out, "0 intr 1 12\n0 intr 1 12\n");
}

/* The evidence of which task runs (tracebin.h): registers written before their instruction
** (a traditional display's instruction held until its registers are read), only the ones
** that changed; a branch followed by neither its fall-through nor its target (OPND); an
** LM 0,15 block in supervisor state (OPND); an old-PSW slot a handler shows (OLDPSW). */
static const char evidence_313[] =
    "PSW=07890000 00030000 INST=4780C010     BC    8,16(0,12)             branch_on_condition\n"
    "R:00030010:K:06=41100001 00000000 00000000 00000000  ................\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "GR04=00000000  GR05=00000000  GR06=00000000  GR07=00000000\n"
    "GR08=00000000  GR09=00000000  GR10=00000000  GR11=00000000\n"
    "GR12=00030000  GR13=00048100  GR14=00000000  GR15=00030000\n"
    "PSW=00080000 00020086 INST=D20710000018 MVC   0(8,1),24(0)           move_character\n"
    "R:00000400:K:00=00000000 00000000 00000000 00000000  ................\n"
    "R:00000018:K:00=07890000 00030004 00000000 00000000  ................\n"
    "GR00=00000000  GR01=00000400  GR02=00000000  GR03=00000000\n"
    "GR04=00000000  GR05=00000000  GR06=00000000  GR07=00000000\n"
    "GR08=00000000  GR09=00000000  GR10=00000000  GR11=00000000\n"
    "GR12=00030000  GR13=00048100  GR14=00000000  GR15=00030000\n"
    "PSW=00080000 0002008C INST=980F1008     LM    0,15,8(1)              load_multiple\n"
    "R:00000408:K:00=00000000 00000000 00000000 00000000  ................\n"
    "GR00=00000000  GR01=00000400  GR02=00000000  GR03=00000000\n"
    "GR04=00000000  GR05=00000000  GR06=00000000  GR07=00000000\n"
    "GR08=00000000  GR09=00000000  GR10=00000000  GR11=00000000\n"
    "GR12=00030000  GR13=00048100  GR14=00000000  GR15=00030000\n"
    "PSW=00080000 00020090 INST=1812         LR    1,2                    load_register\n"
    "GR00=00000000  GR01=00000000  GR02=00000000  GR03=00000000\n"
    "GR04=00000000  GR05=00000000  GR06=00000000  GR07=00000000\n"
    "GR08=00000000  GR09=00000000  GR10=00000000  GR11=00000000\n"
    "GR12=00030000  GR13=00048100  GR14=00000000  GR15=00030000\n";

static void test_evidence_313(void **state)
{
    (void)state;
    static char out[4096];
    show_evidence = 1;
    records(evidence_313, 4096, out, sizeof out);
    show_evidence = 0;
    assert_string_equal(out, "0 regs r0=0 r1=0 r2=0 r3=0 r4=0 r5=0 r6=0 r7=0 r8=0 r9=0 r10=0 r11=0 r12=30000 "
                             "r13=48100 r14=0 r15=30000\n"
                             "0 insn 30000 4780C010\n"
                             "0 opnd 30010\n"        /* neither 30004 nor 30010 came next */
                             "0 regs r1=400\n"
                             "0 insn 20086 D20710000018\n"
                             "0 oldpsw 18 0789000000030004\n" /* the external old PSW, shown by the MVC */
                             "0 insn 2008C 980F1008\n"
                             "0 opnd 408\n"          /* the block LM 0,15 restores from */
                             "0 regs r1=0\n"
                             "0 insn 20090 1812\n");
}

/* A traditional log that begins between an instruction and its registers (a job's window
** begins at the console's line, which Hercules wrote there; tests/os seed 148): the register
** lines before the first instruction are that earlier instruction's, followed by no blank
** line, so no sign of regsfirst (whose blocks each end with one): dropped, and the order
** is the traditional one, as the lines after the first instruction show. */
static const char cut_trad_313[] =
    "R:00020496:K:06=9D00 00094720 C49607FB 090204B8 2000 ......Do........\n"
    "GR00=00000000  GR01=00000640  GR02=00000003  GR03=000204A0\n"
    "GR12=00020000  GR13=000827A0  GR14=0002F000  GR15=000201E2\n"
    "PSW=00082000 00020496 INST=9D000009     TIO   9(0)                   test_io\n"
    "GR00=00000000  GR01=00000777  GR02=00000003  GR03=000204A0\n"
    "GR12=00020000  GR13=000827A0  GR14=0002F000  GR15=000201E2\n"
    "PSW=00081000 0002049A INST=4720C496     BC    2,1174(0,12)           branch_on_condition\n"
    "GR00=00000000  GR01=00000777  GR02=00000003  GR03=000204A0\n"
    "GR12=00020000  GR13=000827A0  GR14=0002F000  GR15=000201E2\n";

static void test_cut_traditional_313(void **state)
{
    (void)state;
    static char out[1024];
    show_evidence = 1;
    fst_hlog_stats st = records(cut_trad_313, 4096, out, sizeof out);
    show_evidence = 0;
    assert_string_equal(out, "0 regs r0=0 r1=777 r2=3 r3=204A0 r12=20000 r13=827A0 r14=2F000 r15=201E2\n"
                             "0 insn 20496 9D000009\n"
                             "0 insn 2049A 4720C496\n");
    assert_string_equal(st.traceopt, "traditional");
}

/* A range trace without registers: the base registers its operand addresses show (BASES),
** the ones that changed, before their instruction. */
static const char bases_313[] =
    "HHCPN040I Instruction tracing on range 30000-3ffff\n"
    "PSW=07890000 00030000 INST=47F0F00C     BC    15,12(0,15)            branch_on_condition\n"
    "R:0003000C:K:06=90ECD00C 00000000 00000000 00000000  ................\n"
    "PSW=07890000 0003000C INST=90ECD00C     STM   14,12,12(13)           store_multiple\n"
    "V:0004810C:K:06=00000000 00000000 00000000 00000000  ................\n"
    "PSW=07890000 00030010 INST=50D0D004     ST    13,4(0,13)             store\n"
    "V:00048104:K:06=00000000 00000000 00000000 00000000  ................\n";

static void test_bases_313(void **state)
{
    (void)state;
    static char out[1024];
    show_evidence = 1;
    records(bases_313, 4096, out, sizeof out);
    show_evidence = 0;
    assert_string_equal(out, "0 bases r15=30000\n"
                             "0 insn 30000 47F0F00C\n"
                             "0 bases r13=48100\n"
                             "0 insn 3000C 90ECD00C\n"
                             "0 insn 30010 50D0D004\n"); /* R13 the same: no BASES */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psw_spellings),
        cmocka_unit_test(test_psw_state),
        cmocka_unit_test(test_classify_313),
        cmocka_unit_test(test_psw_line_shapes),
        cmocka_unit_test(test_psw_line_repeats),
        cmocka_unit_test(test_classify_49),
        cmocka_unit_test(test_svc_lpsw_lctl_313),
        cmocka_unit_test(test_cr_display_313),
        cmocka_unit_test(test_pgm_spliced_313),
        cmocka_unit_test(test_cut_traditional_313),
        cmocka_unit_test(test_cr_regsfirst_313),
        cmocka_unit_test(test_lpsw_then_fetch_error),
        cmocka_unit_test(test_task_records_49),
        cmocka_unit_test(test_evidence_313),
        cmocka_unit_test(test_bases_313),
        cmocka_unit_test(test_two_cpus_313),
        cmocka_unit_test(test_split_line_and_end_313),
        cmocka_unit_test(test_io_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
