/*
** tests/unit/test_decode.c — isa/decode: lengths, mnemonics, Hercules-style
** disassembly, and the branch classification of DESIGN §3, on instruction bytes taken
** from the Hercules fixture logs (../shared/fixtures/hercules-*).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "isa/decode.h"
#include "trace/tracebin.h"
#include "common/bytes.h"

#include <stdio.h>
#include <string.h>

/* PSW state words: architecture and addressing mode (trace/tracebin.h). */
#define ST370   ((uint32_t)FST_ARCH_S370)
#define ST390   ((uint32_t)FST_ARCH_ESA390 | 1u << FST_ST_AMODE_SHIFT)
#define ST390_24 ((uint32_t)FST_ARCH_ESA390)
#define STZ     ((uint32_t)FST_ARCH_ZARCH | 2u << FST_ST_AMODE_SHIFT)

static int unhex(const char *hex, uint8_t *b)
{
    int n = 0;
    memset(b, 0, 6);
    for (; hex[0] && hex[1] && n < 6; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        b[n++] = (uint8_t)v;
    }
    return n;
}

static fst_insn dec(const char *hex, uint64_t addr, uint32_t state)
{
    uint8_t b[6];
    fst_insn d;
    unhex(hex, b);
    fst_decode(&d, b, addr, state);
    return d;
}

static unsigned nregs(const char *hex, uint32_t state)
{
    fst_insn d = dec(hex, 0, state);
    return fst_insn_nregs(&d);
}

static const char *dis(const fst_insn *d)
{
    static char buf[64];
    fst_disasm(d, buf, sizeof buf);
    return buf;
}

/* Every distinct instruction the fixture logs trace (3.13 and 4.9), with the text
** Hercules printed for it (blanks collapsed; Hercules' "?????" and "SAM24 ," written as
** fst prints them: "?" and "SAM24"). */
static const struct {
    const char *hex;
    int arch;
    const char *text;
} fixture[] = {
    { "0000", FST_ARCH_S370, "?" },
    { "010C", FST_ARCH_ESA390, "SAM24" },
    { "010D", FST_ARCH_ESA390, "SAM31" },
    { "010E", FST_ARCH_ESA390, "SAM64" },
    { "05C0", FST_ARCH_S370, "BALR 12,0" },
    { "05E0", FST_ARCH_S370, "BALR 14,0" },
    { "07FE", FST_ARCH_S370, "BCR 15,14" },
    { "0A05", FST_ARCH_S370, "SVC 5" },
    { "0A07", FST_ARCH_ESA390, "SVC 7" },
    { "0A09", FST_ARCH_ESA390, "SVC 9" },
    { "0B01", FST_ARCH_ESA390, "BSM 0,1" },
    { "0DC0", FST_ARCH_S370, "BASR 12,0" },
    { "0DE0", FST_ARCH_ESA390, "BASR 14,0" },
    { "0DE3", FST_ARCH_S370, "BASR 14,3" },
    { "0DEF", FST_ARCH_S370, "BASR 14,15" },
    { "0E24", FST_ARCH_S370, "MVCL 2,4" },
    { "1F00", FST_ARCH_ESA390, "SLR 0,0" },
    { "1F22", FST_ARCH_ESA390, "SLR 2,2" },
    { "28F1", FST_ARCH_ESA390, "LDR 15,1" },
    { "2A44", FST_ARCH_ESA390, "ADR 4,4" },
    { "3820", FST_ARCH_S370, "LER 2,0" },
    { "3A20", FST_ARCH_S370, "AER 2,0" },
    { "41100001", FST_ARCH_S370, "LA 1,1(0,0)" },
    { "41100003", FST_ARCH_S370, "LA 1,3(0,0)" },
    { "4110C01E", FST_ARCH_ESA390, "LA 1,30(0,12)" },
    { "4110C026", FST_ARCH_S370, "LA 1,38(0,12)" },
    { "41200002", FST_ARCH_S370, "LA 2,2(0,0)" },
    { "4120C076", FST_ARCH_S370, "LA 2,118(0,12)" },
    { "41300008", FST_ARCH_S370, "LA 3,8(0,0)" },
    { "4140C06E", FST_ARCH_S370, "LA 4,110(0,12)" },
    { "41500008", FST_ARCH_S370, "LA 5,8(0,0)" },
    { "41505001", FST_ARCH_S370, "LA 5,1(0,5)" },
    { "4400C084", FST_ARCH_S370, "EX 0,132(0,12)" },
    { "4410C06E", FST_ARCH_ESA390, "EX 1,110(0,12)" },
    { "4410C07E", FST_ARCH_S370, "EX 1,126(0,12)" },
    { "4410C0B6", FST_ARCH_ESA390, "EX 1,182(0,12)" },
    { "4620C004", FST_ARCH_S370, "BCT 2,4(0,12)" },
    { "50100048", FST_ARCH_S370, "ST 1,72(0,0)" },
    { "5010C088", FST_ARCH_S370, "ST 1,136(0,12)" },
    { "5810C056", FST_ARCH_ESA390, "L 1,86(0,12)" },
    { "58203000", FST_ARCH_ESA390, "L 2,0(0,3)" },
    { "5820C04E", FST_ARCH_ESA390, "L 2,78(0,12)" },
    { "58302000", FST_ARCH_ESA390, "L 3,0(0,2)" },
    { "5830C01E", FST_ARCH_ESA390, "L 3,30(0,12)" },
    { "5830C032", FST_ARCH_S370, "L 3,50(0,12)" },
    { "5830C05A", FST_ARCH_ESA390, "L 3,90(0,12)" },
    { "58F0C02E", FST_ARCH_S370, "L 15,46(0,12)" },
    { "6040C09E", FST_ARCH_S370, "STD 4,158(0,12)" },
    { "6810C0BE", FST_ARCH_ESA390, "LD 1,190(0,12)" },
    { "6840C07E", FST_ARCH_ESA390, "LD 4,126(0,12)" },
    { "6840C096", FST_ARCH_S370, "LD 4,150(0,12)" },
    { "7800C08E", FST_ARCH_S370, "LE 0,142(0,12)" },
    { "82000020", FST_ARCH_S370, "LPSW 32(0)" },
    { "82000028", FST_ARCH_S370, "LPSW 40(0)" },
    { "8200C016", FST_ARCH_S370, "LPSW 22(12)" },
    { "8200C01E", FST_ARCH_S370, "LPSW 30(12)" },
    { "8200C026", FST_ARCH_S370, "LPSW 38(12)" },
    { "8200C02E", FST_ARCH_ESA390, "LPSW 46(12)" },
    { "8200C03E", FST_ARCH_ESA390, "LPSW 62(12)" },
    { "8200C04E", FST_ARCH_ESA390, "LPSW 78(12)" },
    { "8200C066", FST_ARCH_S370, "LPSW 102(12)" },
    { "90ECC0B6", FST_ARCH_S370, "STM 14,12,182(12)" },
    { "95C1C06E", FST_ARCH_S370, "CLI 110(12),193" },
    { "98ECC0B6", FST_ARCH_S370, "LM 14,12,182(12)" },
    { "9C00000C", FST_ARCH_S370, "SIO 12(0)" },
    { "A74B0001", FST_ARCH_ESA390, "AGHI 4,1" },
    { "AE020012", FST_ARCH_ESA390, "SIGP 0,2,18(0)" },
    { "B205C062", FST_ARCH_ESA390, "STCK 98(12)" },
    { "B205C086", FST_ARCH_ESA390, "STCK 134(12)" },
    { "B205C0A6", FST_ARCH_S370, "STCK 166(12)" },
    { "B205C0C6", FST_ARCH_ESA390, "STCK 198(12)" },
    { "B2B20140", FST_ARCH_ESA390, "LPSWE 320(0)" },
    { "B2B20150", FST_ARCH_ESA390, "LPSWE 336(0)" },
    { "B2B2C07E", FST_ARCH_ESA390, "LPSWE 126(12)" },
    { "B31A0011", FST_ARCH_ESA390, "ADBR 1,1" },
    { "B700C046", FST_ARCH_ESA390, "LCTL 0,0,70(12)" },
    { "B711C04A", FST_ARCH_ESA390, "LCTL 1,1,74(12)" },
    { "B904003C", FST_ARCH_ESA390, "LGR 3,12" },
    { "B91700CC", FST_ARCH_ESA390, "LLGTR 12,12" },
    { "C0E500000003", FST_ARCH_ESA390, "BRASL 14,*+6" },
    { "C6100000003B", FST_ARCH_ESA390, "EXRL 1,*+118" },
    { "D200C0CEC0A6", FST_ARCH_ESA390, "MVC 206(1,12),166(12)" },
    { "D207C05AC052", FST_ARCH_ESA390, "MVC 90(8,12),82(12)" },
    { "D207C066C05E", FST_ARCH_ESA390, "MVC 102(8,12),94(12)" },
    { "D207C076C06E", FST_ARCH_S370, "MVC 118(8,12),110(12)" },
    { "D207C0AEC0A6", FST_ARCH_ESA390, "MVC 174(8,12),166(12)" },
    { "D20F30003001", FST_ARCH_ESA390, "MVC 0(16,3),1(3)" },
    { "D5033000C022", FST_ARCH_ESA390, "CLC 0(4,3),34(12)" },
    { "D507C066C05E", FST_ARCH_ESA390, "CLC 102(8,12),94(12)" },
    { "D507C076C06E", FST_ARCH_S370, "CLC 118(8,12),110(12)" },
    { "D507C0AEC0A6", FST_ARCH_ESA390, "CLC 174(8,12),166(12)" },
    { "E340C0960004", FST_ARCH_ESA390, "LG 4,150(0,12)" },
    { "E340C09E0024", FST_ARCH_ESA390, "STG 4,158(0,12)" },
    { "EB00C08E002F", FST_ARCH_ESA390, "LCTLG 0,0,142(12)" },
    { "FA11C074C076", FST_ARCH_ESA390, "AP 116(2,12),118(2,12)" },
};

static void test_fixture_disasm(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fixture / sizeof fixture[0]; i++) {
        uint8_t b[6];
        int n = unhex(fixture[i].hex, b);
        fst_insn d;
        fst_decode(&d, b, 0x20000, (uint32_t)fixture[i].arch);
        assert_int_equal(d.len, n);
        assert_int_equal(d.len, fst_insn_len(b[0]));
        if (strcmp(dis(&d), fixture[i].text))
            fail_msg("%s: got '%s', Hercules printed '%s'", fixture[i].hex, dis(&d),
                     fixture[i].text);
    }
}

static void test_lengths_and_formats(void **state)
{
    (void)state;
    fst_insn d = dec("05EF", 0x20000, ST390);
    assert_string_equal(fst_insn_mnem(&d), "BALR");
    assert_int_equal(d.len, 2);
    assert_int_equal(d.fmt, FST_FMT_RR);
    assert_string_equal(fst_fmt_name(d.fmt), "RR");
    d = dec("58F0C008", 0x20000, ST390);
    assert_string_equal(dis(&d), "L 15,8(0,12)");
    assert_string_equal(fst_fmt_name(d.fmt), "RX");
    d = dec("D209D000E000", 0, ST390);
    assert_string_equal(dis(&d), "MVC 0(10,13),0(14)");
    assert_string_equal(fst_fmt_name(d.fmt), "SS");
    d = dec("E340C0960004", 0, STZ);
    assert_string_equal(fst_fmt_name(d.fmt), "RXY");
    d = dec("EB00C08E002F", 0, STZ);
    assert_string_equal(fst_fmt_name(d.fmt), "RSY");
    d = dec("B904003C", 0, STZ);
    assert_string_equal(fst_fmt_name(d.fmt), "RRE");
    d = dec("A74B0001", 0, STZ);
    assert_string_equal(fst_fmt_name(d.fmt), "RI");
    d = dec("C0E500000003", 0, STZ);
    assert_string_equal(fst_fmt_name(d.fmt), "RIL");
    d = dec("95C1C06E", 0, ST390);
    assert_string_equal(fst_fmt_name(d.fmt), "SI");
    d = dec("B205C0A6", 0, ST390);
    assert_string_equal(fst_fmt_name(d.fmt), "S");
    /* a 20-bit displacement is signed */
    d = dec("E3F0DFF8FF24", 0, STZ);
    assert_string_equal(dis(&d), "STG 15,-8(0,13)");
    /* the bytes past the length are cleared */
    uint8_t b[6] = { 0x18, 0x12, 0xAA, 0xBB, 0xCC, 0xDD };
    fst_decode(&d, b, 0, ST390);
    assert_int_equal(d.bytes[2], 0);
    assert_string_equal(dis(&d), "LR 1,2");
}

static void test_unknown_opcodes(void **state)
{
    (void)state;
    static const struct { const char *hex; int len; } u[] = {
        { "0000", 2 }, { "5200C000", 4 }, { "FF0000000000", 6 }, { "E30000000000", 6 },
        { "B2FE0000", 4 }, { "0100", 2 },
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        fst_insn d = dec(u[i].hex, 0x20000, ST390);
        assert_string_equal(fst_insn_mnem(&d), "?");
        assert_int_equal(d.op, FST_OP_UNKNOWN);
        assert_int_equal(d.fmt, FST_FMT_UNKNOWN);
        assert_int_equal(d.len, u[i].len);
        assert_int_equal(d.flags, 0);
        assert_string_equal(dis(&d), "?");
    }
    /* S/370 I/O opcodes exist in S/370 only */
    fst_insn d = dec("9C00000C", 0, ST390);
    assert_string_equal(fst_insn_mnem(&d), "?");
    d = dec("9C00000C", 0, ST370);
    assert_string_equal(fst_insn_mnem(&d), "SIO");
    d = dec("9D01000C", 0, ST370);
    assert_string_equal(fst_insn_mnem(&d), "CLRIO");
    d = dec("9C07000C", 0, ST370);
    assert_string_equal(fst_insn_mnem(&d), "?");
}

static void test_arch_dependent(void **state)
{
    (void)state;
    fst_insn d = dec("8420C010", 0x20000, ST370);
    assert_string_equal(fst_insn_mnem(&d), "WRD");
    assert_false(d.flags & FST_I_BRANCH);
    d = dec("8424FFFE", 0x20000, ST390);
    assert_string_equal(fst_insn_mnem(&d), "BRXH");
    assert_true(d.flags & FST_I_RELATIVE);
    assert_true(d.flags & FST_I_COND);
    assert_int_equal(d.target, 0x20000 - 4);
    assert_string_equal(dis(&d), "BRXH 2,4,*-4");
}

#define HAS(d, f) (((d).flags & (f)) == (f))

static void test_branch_and_link(void **state)
{
    (void)state;
    /* BALR 14,15: the call */
    fst_insn d = dec("05EF", 0x20000, ST390);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_LINK | FST_I_CANBRANCH));
    assert_false(d.flags & (FST_I_COND | FST_I_TARGET));
    assert_int_equal(d.link, 14);
    /* BALR r,0 loads the link and never branches: never a call */
    d = dec("05C0", 0x20000, ST390);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_LINK));
    assert_false(d.flags & FST_I_CANBRANCH);
    assert_int_equal(d.link, 12);
    assert_false(fst_insn_taken(&d, 0x20010));
    /* BASR 14,3 (fixture) and BASR 12,0 */
    d = dec("0DE3", 0x20000, ST390);
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH));
    assert_int_equal(d.link, 14);
    assert_string_equal(dis(&d), "BASR 14,3");
    d = dec("0DC0", 0x20000, ST390);
    assert_false(d.flags & FST_I_CANBRANCH);
    /* BAL 1,16(,12): link register 1, target needs R12 */
    d = dec("4510C010", 0x20000, ST370);
    assert_string_equal(dis(&d), "BAL 1,16(0,12)");
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH));
    assert_int_equal(d.link, 1);
    assert_false(d.flags & FST_I_TARGET);
    /* BAL 14,X'100' with no base and no index: the target is static */
    d = dec("45E00100", 0x20000, ST370);
    assert_true(HAS(d, FST_I_LINK | FST_I_TARGET));
    assert_int_equal(d.target, 0x100);
    /* BAS, BASSM */
    d = dec("4DE0C010", 0, ST390);
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH));
    d = dec("0CEF", 0, ST390);
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH | FST_I_AMODE));
    assert_int_equal(d.link, 14);
    d = dec("0CE0", 0, ST390);
    assert_false(d.flags & FST_I_CANBRANCH);
    /* BRAS 1,*+8: relative, static target */
    d = dec("A7150004", 0x20010, ST390);
    assert_string_equal(fst_insn_mnem(&d), "BRAS");
    assert_string_equal(dis(&d), "BRAS 1,*+8");
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH | FST_I_RELATIVE | FST_I_TARGET));
    assert_int_equal(d.link, 1);
    assert_int_equal(d.target, 0x20018);
    /* BRASL 14,*+6 (fixture), and backwards */
    d = dec("C0E500000003", 0x20040, STZ);
    assert_true(HAS(d, FST_I_LINK | FST_I_CANBRANCH | FST_I_TARGET));
    assert_int_equal(d.link, 14);
    assert_int_equal(d.target, 0x20046);
    d = dec("C0E5FFFFFFF0", 0x20040, STZ);
    assert_int_equal(d.target, 0x20020);
    assert_string_equal(dis(&d), "BRASL 14,*-32");
    /* not branch-and-link: BC, BCR, BSM */
    d = dec("47F0F00C", 0x20000, ST370);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH));
    assert_false(d.flags & (FST_I_LINK | FST_I_COND));
    d = dec("0B01", 0, ST390);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH | FST_I_AMODE));
    assert_false(d.flags & FST_I_LINK);
}

static void test_conditional(void **state)
{
    (void)state;
    /* 47F0F00C: the FORTRAN entry, B 12(,15): unconditional */
    fst_insn d = dec("47F0F00C", 0x20000, ST370);
    assert_int_equal(d.mask, 15);
    assert_true(d.flags & FST_I_CANBRANCH);
    assert_false(d.flags & FST_I_COND);
    assert_string_equal(dis(&d), "BC 15,12(0,15)");
    /* BE: conditional; BC 0 (NOP): never */
    d = dec("4780C010", 0x20000, ST370);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND));
    assert_int_equal(d.mask, 8);
    d = dec("4700C010", 0x20000, ST370);
    assert_false(d.flags & (FST_I_CANBRANCH | FST_I_COND));
    assert_true(d.flags & FST_I_BRANCH);
    /* BR 14 (fixture 07FE); BCR 0,14 and BCR 15,0 never branch; BNER 14 conditional */
    d = dec("07FE", 0x20000, ST370);
    assert_true(d.flags & FST_I_CANBRANCH);
    assert_false(d.flags & (FST_I_COND | FST_I_LINK));
    d = dec("070E", 0, ST370);
    assert_false(d.flags & FST_I_CANBRANCH);
    d = dec("07F0", 0, ST370);
    assert_false(d.flags & FST_I_CANBRANCH);
    d = dec("077E", 0, ST370);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND));
    /* BCT 2,4(0,12) (fixture); BCTR r,0 never branches */
    d = dec("4620C004", 0x20000, ST390);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND));
    d = dec("0660", 0, ST390);
    assert_false(d.flags & FST_I_CANBRANCH);
    d = dec("0665", 0, ST390);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND));
    /* BXH, BXLE */
    d = dec("8624C010", 0, ST370);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND));
    /* BRC: J, JNZ, NOP */
    d = dec("A7F4FFFE", 0x20010, ST390);
    assert_true(d.flags & FST_I_CANBRANCH);
    assert_false(d.flags & FST_I_COND);
    assert_int_equal(d.target, 0x2000C);
    assert_string_equal(dis(&d), "BRC 15,*-4");
    d = dec("A774FFFE", 0x20010, ST390);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND | FST_I_TARGET));
    d = dec("A7040010", 0x20010, ST390);
    assert_false(d.flags & (FST_I_CANBRANCH | FST_I_TARGET));
    /* BRCT, BRCL */
    d = dec("A716FFFC", 0x20010, ST390);
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND | FST_I_TARGET));
    assert_int_equal(d.target, 0x20008);
    d = dec("C0F400000100", 0x20000, STZ);
    assert_int_equal(d.target, 0x20200);
    assert_false(d.flags & FST_I_COND);
    /* compare and branch: mask 8 = equal; 14 = always */
    d = dec("EC1200108076", 0x20000, STZ);
    assert_string_equal(fst_insn_mnem(&d), "CRJ");
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND | FST_I_TARGET));
    assert_int_equal(d.target, 0x20020);
    assert_string_equal(dis(&d), "CRJ 1,2,8,*+32");
    d = dec("EC120010E076", 0x20000, STZ);
    assert_false(d.flags & FST_I_COND);
    /* taken: from the next address */
    d = dec("4780C010", 0x20000, ST370);
    assert_true(fst_insn_taken(&d, 0x20100));
    assert_false(fst_insn_taken(&d, 0x20004));
}

static void test_target_wraps_to_amode(void **state)
{
    (void)state;
    /* J *+8 at the top of 24-bit storage wraps to 0; in 31-bit mode it does not */
    fst_insn d = dec("A7F40004", 0xFFFFFC, ST390_24);
    assert_int_equal(d.target, 0x4);
    d = dec("A7F40004", 0xFFFFFC, ST390);
    assert_int_equal(d.target, 0x1000004);
    d = dec("A7F40004", 0x7FFFFFFC, ST390);
    assert_int_equal(d.target, 0x4);
    d = dec("A7F40004", 0xFFFFFFFC, STZ);
    assert_int_equal(d.target, 0x100000004ull);
}

static void test_execute_and_psw(void **state)
{
    (void)state;
    fst_insn d = dec("4410C07E", 0x20012, ST390);
    assert_true(d.flags & FST_I_EXECUTE);
    assert_false(d.flags & (FST_I_BRANCH | FST_I_CANBRANCH | FST_I_TARGET));
    d = dec("44100100", 0x20012, ST390);
    assert_true(HAS(d, FST_I_EXECUTE | FST_I_TARGET));
    assert_int_equal(d.target, 0x100);
    /* EXRL 1,*+118 (fixture): Hercules 3.13 printed "EXRL target ADDR=...200B8" */
    d = dec("C6100000003B", 0x20042, STZ);
    assert_true(HAS(d, FST_I_EXECUTE | FST_I_TARGET));
    assert_false(d.flags & FST_I_CANBRANCH);
    assert_int_equal(d.target, 0x200B8);
    static const char *const psw[] = { "0A05", "82000020", "B2B20140", "0101", "B2180000" };
    for (size_t i = 0; i < sizeof psw / sizeof psw[0]; i++) {
        d = dec(psw[i], 0, STZ);
        assert_true(d.flags & FST_I_PSW);
        assert_false(d.flags & FST_I_BRANCH);
    }
    d = dec("010C", 0, STZ);
    assert_true(d.flags & FST_I_AMODE);
    assert_false(d.flags & FST_I_BRANCH);
}

static void test_regs_and_lengths(void **state)
{
    (void)state;
    unsigned l1, l2;
    /* STM 14,12,12(13): 14, 15, 0..12 = 15 registers */
    fst_insn d = dec("90ECD00C", 0, ST370);
    assert_true(d.flags & FST_I_REGLIST);
    assert_int_equal(fst_insn_nregs(&d), 15);
    assert_int_equal(nregs("9823D000", ST370), 2);
    assert_int_equal(nregs("98FFD000", ST370), 1);
    assert_int_equal(nregs("98F0D000", ST370), 2);
    assert_int_equal(nregs("EB2FD0000004", STZ), 14); /* LMG 2,15 */
    assert_int_equal(nregs("5810C000", ST370), 0);
    /* MVC with L=9 moves 10 bytes */
    d = dec("D209C000C100", 0, ST370);
    assert_int_equal(fst_insn_lengths(&d, &l1, &l2), 1);
    assert_int_equal(l1, 10);
    /* AP 116(2,12),118(2,12) (fixture) */
    d = dec("FA11C074C076", 0, ST390);
    assert_int_equal(fst_insn_lengths(&d, &l1, &l2), 2);
    assert_int_equal(l1, 2);
    assert_int_equal(l2, 2);
    /* SRP: one length, the second nibble is the rounding digit */
    d = dec("F035C000003C", 0, ST390);
    assert_int_equal(fst_insn_lengths(&d, &l1, &l2), 1);
    assert_int_equal(l1, 4);
    assert_string_equal(dis(&d), "SRP 0(4,12),60(0),5");
    /* MVCL: lengths in registers */
    d = dec("0E24", 0, ST370);
    assert_true(d.flags & FST_I_REGLEN);
    assert_int_equal(fst_insn_lengths(&d, &l1, &l2), 0);
}

/* Instructions added with the z/Architecture tables, decoded by the POO's formats: the
** ones gcc emits for z196 (issue 11: they printed "?"), the compare-and-branch forms
** that are not relative, BRCTH, BIC (indirect: never a static target), and the S/370
** meaning of B200. */
static void test_z_additions(void **state)
{
    (void)state;
    static const struct { const char *hex, *text; } z[] = {
        { "E54C10000005", "MVHI 0(1),5" },   { "E548F0A0FFFF", "MVGHI 160(15),-1" },
        { "EB01F0A0006A", "ASI 160(15),1" },  { "EB12000300DF", "SLLK 1,2,3(0)" },
        { "EB12F00400DC", "SRAK 1,2,4(15)" }, { "EB18F0A000E2", "LOCG 1,160(15),8" },
        { "B9E28012", "LOCGR 1,2,8" },        { "E7123000F0F3", "VA 1,2,3,15" },
        { "E7123000FEF3", "VA 17,18,19,15" }, { "B3441052", "LEDBRA 5,1,2,0" },
        { "E31230040004", "LG 1,4(2,3)" },    { "E3F0DFF8FF24", "STG 15,-8(0,13)" },
        { "B9160012", "LLGFR 1,2" },          { "E3102000FF90", "LLGC 1,-4096(0,2)" },
    };
    for (size_t i = 0; i < sizeof z / sizeof z[0]; i++) {
        fst_insn d = dec(z[i].hex, 0x20000, STZ);
        if (strcmp(dis(&d), z[i].text))
            fail_msg("%s: got '%s', want '%s'", z[i].hex, dis(&d), z[i].text);
    }
    /* CRB 1,2,8,32(0): compare and branch to D4(B4), base 0 */
    fst_insn d = dec("EC12002080F6", 0x20000, STZ);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH | FST_I_COND | FST_I_TARGET));
    assert_false(d.flags & FST_I_RELATIVE);
    assert_int_equal(d.target, 0x20);
    assert_int_equal(d.mask, 8);
    d = dec("EC12002000F6", 0x20000, STZ); /* mask 0: never */
    assert_false(d.flags & FST_I_CANBRANCH);
    d = dec("EC12F020E0F6", 0x20000, STZ); /* mask 14: always; based on R15: no static target */
    assert_true(d.flags & FST_I_CANBRANCH);
    assert_false(d.flags & (FST_I_COND | FST_I_TARGET));
    /* CIB 1,5,8,64(0): the mask in the R3 position */
    d = dec("EC18004005FE", 0x20000, STZ);
    assert_string_equal(dis(&d), "CIB 1,5,8,64(0)");
    assert_true(HAS(d, FST_I_CANBRANCH | FST_I_COND | FST_I_TARGET));
    assert_int_equal(d.target, 0x40);
    /* BRCTH 1,*-4 */
    d = dec("CC16FFFFFFFE", 0x20010, STZ);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH | FST_I_COND | FST_I_RELATIVE | FST_I_TARGET));
    assert_int_equal(d.target, 0x2000C);
    /* BIC 15,16(0,0): branches to the doubleword at 16, not to 16 */
    d = dec("E3F000100047", 0x20000, STZ);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH));
    assert_false(d.flags & (FST_I_TARGET | FST_I_COND | FST_I_LINK));
    /* BSG: no branch when R2 is 0, as BAKR */
    d = dec("B2580012", 0, STZ);
    assert_true(HAS(d, FST_I_BRANCH | FST_I_CANBRANCH));
    d = dec("B2580010", 0, STZ);
    assert_false(d.flags & FST_I_CANBRANCH);
    /* B200: CONCS in S/370, LBEAR in z/Architecture */
    d = dec("B2000010", 0, ST370);
    assert_string_equal(dis(&d), "CONCS 16(0)");
    d = dec("B2000010", 0, STZ);
    assert_string_equal(dis(&d), "LBEAR 16(0)");
    /* the opcode of anything, known or not, for the "not decoded" report */
    uint8_t b[6] = { 0xE7, 0x00, 0, 0, 0, 0xFF };
    char op[5];
    fst_opcode_str(fst_opcode_key(b), op);
    assert_string_equal(op, "E7FF");
    b[0] = 0xA7, b[1] = 0x1F;
    fst_opcode_str(fst_opcode_key(b), op);
    assert_string_equal(op, "A7F");
    b[0] = 0x52;
    fst_opcode_str(fst_opcode_key(b), op);
    assert_string_equal(op, "52");
}

/* The S/370-only instructions, which binutils (ESA/390 and later) does not know, by the
** S/370 Principles of Operation (GA22-7000): RR SSK/ISK, SI WRD/RDD, S-format I/O and
** CONCS, DISCS, STIDC, RRB. In S/370 mode only where later architectures reassigned the
** opcode (84, 85, 9C-9F, B200, B201). */
static void test_s370_only(void **state)
{
    (void)state;
    static const struct { const char *hex, *text; int only370; } s[] = {
        { "0812", "SSK 1,2", 0 },          { "0912", "ISK 1,2", 0 },
        { "8420C010", "WRD 16(12),32", 1 }, { "8520C010", "RDD 16(12),32", 1 },
        { "9C00000C", "SIO 12(0)", 1 },     { "9C01000C", "SIOF 12(0)", 1 },
        { "9C02000C", "RIO 12(0)", 1 },     { "9D00000C", "TIO 12(0)", 1 },
        { "9D01000C", "CLRIO 12(0)", 1 },   { "9E00000C", "HIO 12(0)", 1 },
        { "9E01000C", "HDV 12(0)", 1 },     { "9F00000C", "TCH 12(0)", 1 },
        { "B2000010", "CONCS 16(0)", 1 },   { "B2010010", "DISCS 16(0)", 1 },
        { "B2030010", "STIDC 16(0)", 0 },   { "B2130010", "RRB 16(0)", 0 },
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        fst_insn d = dec(s[i].hex, 0x20000, ST370);
        if (strcmp(dis(&d), s[i].text))
            fail_msg("%s: got '%s', want '%s'", s[i].hex, dis(&d), s[i].text);
        assert_false(d.flags & FST_I_BRANCH);
        char mnem[8];
        sscanf(s[i].text, "%7s", mnem);
        d = dec(s[i].hex, 0x20000, ST390);
        if (s[i].only370 && !strcmp(fst_insn_mnem(&d), mnem))
            fail_msg("%s: %s in ESA/390 as well", s[i].hex, mnem);
    }
}

/* The tables agree with themselves: every opcode decodes back to its own entry, with
** the length its format has, and prints within 40 bytes. */
static void test_table_roundtrip(void **state)
{
    (void)state;
    static const int fmtlen[FST_FMT_COUNT] = {
        [FST_FMT_E] = 2, [FST_FMT_I] = 2, [FST_FMT_RR] = 2, [FST_FMT_RRE] = 4,
        [FST_FMT_RRF] = 4, [FST_FMT_RX] = 4, [FST_FMT_RXE] = 6, [FST_FMT_RXF] = 6,
        [FST_FMT_RXY] = 6, [FST_FMT_RS] = 4, [FST_FMT_RSY] = 6, [FST_FMT_RSI] = 4,
        [FST_FMT_RI] = 4, [FST_FMT_RIL] = 6, [FST_FMT_RIE] = 6, [FST_FMT_SI] = 4,
        [FST_FMT_SIY] = 6, [FST_FMT_S] = 4, [FST_FMT_SS] = 6, [FST_FMT_SSE] = 6,
        [FST_FMT_IE] = 4, [FST_FMT_MII] = 6, [FST_FMT_RIS] = 6, [FST_FMT_RRS] = 6,
        [FST_FMT_RSL] = 6, [FST_FMT_SIL] = 6, [FST_FMT_SMI] = 6, [FST_FMT_SSF] = 6,
        [FST_FMT_VRI] = 6, [FST_FMT_VRR] = 6, [FST_FMT_VRS] = 6, [FST_FMT_VRV] = 6,
        [FST_FMT_VRX] = 6, [FST_FMT_VSI] = 6,
    };
    unsigned n = fst_op_count();
    assert_true(n > 1200);
    assert_null(fst_op_info(n));
    for (unsigned op = 1; op < n; op++) {
        const fst_opinfo *oi = fst_op_info(op);
        uint8_t b[6];
        memset(b, 0xFF, sizeof b);
        unsigned code;
        size_t cl = strlen(oi->code);
        sscanf(oi->code, "%x", &code);
        if (cl == 2) {
            b[0] = (uint8_t)code;
        } else if (cl == 3) {
            b[0] = (uint8_t)(code >> 4);
            b[1] = (uint8_t)(0xF0 | (code & 0xF));
        } else if ((code >> 8) == 0xE3 || (code >> 8) == 0xE6 || (code >> 8) == 0xE7 ||
                   (code >> 8) == 0xEB || (code >> 8) == 0xEC || (code >> 8) == 0xED) {
            b[0] = (uint8_t)(code >> 8);
            b[5] = (uint8_t)code;
        } else {
            b[0] = (uint8_t)(code >> 8);
            b[1] = (uint8_t)code;
        }
        fst_insn d;
        fst_decode(&d, b, 0x20000, oi->arch370 ? ST370 : STZ);
        if (d.op != op)
            fail_msg("%s (%s) decodes as %s", oi->mnem, oi->code, fst_insn_mnem(&d));
        if (d.len != fmtlen[oi->fmt])
            fail_msg("%s: length %d, format %s has %d", oi->mnem, d.len, fst_fmt_name(oi->fmt),
                     fmtlen[oi->fmt]);
        char buf[64];
        int w = fst_disasm(&d, buf, sizeof buf);
        assert_true(w > 0 && w < 40);
        assert_int_equal(fst_op_find(oi->mnem), (int)op);
    }
    assert_int_equal(fst_op_find("balr"), fst_op_find("BALR"));
    assert_string_equal(fst_op_info((unsigned)fst_op_find("BRAS"))->code, "A75");
    assert_string_equal(fst_op_info((unsigned)fst_op_find("LG"))->code, "E304");
    assert_int_equal(fst_op_find("NOPE"), -1);
    assert_int_equal(fst_op_find("?"), -1);
}

static void test_disasm_truncates(void **state)
{
    (void)state;
    fst_insn d = dec("D207C076C06E", 0, ST390);
    char buf[8];
    int n = fst_disasm(&d, buf, sizeof buf);
    assert_int_equal(n, (int)strlen("MVC 118(8,12),110(12)"));
    assert_string_equal(buf, "MVC 118");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_disasm),
        cmocka_unit_test(test_lengths_and_formats),
        cmocka_unit_test(test_unknown_opcodes),
        cmocka_unit_test(test_arch_dependent),
        cmocka_unit_test(test_branch_and_link),
        cmocka_unit_test(test_conditional),
        cmocka_unit_test(test_target_wraps_to_amode),
        cmocka_unit_test(test_execute_and_psw),
        cmocka_unit_test(test_regs_and_lengths),
        cmocka_unit_test(test_z_additions),
        cmocka_unit_test(test_s370_only),
        cmocka_unit_test(test_table_roundtrip),
        cmocka_unit_test(test_disasm_truncates),
    };
    return cmocka_run_group_tests_name("decode", tests, NULL, NULL);
}
