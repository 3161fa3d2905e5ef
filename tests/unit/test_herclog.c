/* Unit tests of capture/herclog.c: PSW text in both Hercules spellings, the state word,
** and line classification on hand-made inputs (the fixtures are covered end to end in
** tests/e2e/capture_fixtures.sh). */
#include "capture/herclog.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psw_spellings),
        cmocka_unit_test(test_psw_state),
        cmocka_unit_test(test_classify_313),
        cmocka_unit_test(test_classify_49),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
