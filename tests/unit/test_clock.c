/*
** tests/unit/test_clock.c — analyze/cost/clock: --clock specs, exact fixed-point costs for
** mips:R, the P/390 model (flat, per-byte, per-register, per-digit, branch variants,
** register lengths, class medians for instructions without a row), and the rejection of
** bad tables with file:line messages.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/cost/clock.h"
#include "isa/decode.h"
#include "trace/tracebin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ST370 ((uint32_t)FST_ARCH_S370)
#define ST390 ((uint32_t)FST_ARCH_ESA390 | 1u << FST_ST_AMODE_SHIFT)
#define STZ   ((uint32_t)FST_ARCH_ZARCH | 2u << FST_ST_AMODE_SHIFT)

/* ns with up to 3 decimals, as a literal in ps, to fx */
#define NS_FX(ps) ((fst_fx)(ps) * FST_FX_PER_PS)

static fst_insn dec(const char *hex, uint32_t state)
{
    uint8_t b[6] = { 0 };
    for (int n = 0; hex[0] && hex[1] && n < 6; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        b[n++] = (uint8_t)v;
    }
    fst_insn d;
    fst_decode(&d, b, 0x20000, state);
    return d;
}

static fst_fx cost(fst_clock *c, const char *hex, int taken)
{
    fst_insn d = dec(hex, ST390);
    return fst_clock_cost(c, &d, taken);
}

/* A table in a temporary file; the path is valid until the next call. */
static char tmppath[512];
static const char *write_csv(const char *text)
{
    const char *dir = getenv("FST_TMP");
    if (!dir || !*dir)
        dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    snprintf(tmppath, sizeof tmppath, "%s/fst-clock-XXXXXX.csv", dir);
    int fd = mkstemps(tmppath, 4);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return tmppath;
}

/* ---- specs ---- */

static void test_parse_good(void **state)
{
    (void)state;
    fst_clock_spec s;
    fst_err err;
    assert_int_equal(fst_clock_parse("mips:1", &s, &err), 0);
    assert_int_equal(s.kind, FST_CLOCK_MIPS);
    assert_int_equal(s.mips_num, 1);
    assert_int_equal(s.mips_den, 1);
    assert_int_equal(fst_clock_parse("mips:4.66", &s, &err), 0);
    assert_int_equal(s.mips_num, 466);
    assert_int_equal(s.mips_den, 100);
    assert_int_equal(fst_clock_parse("mips:0.62", &s, &err), 0);
    assert_int_equal(fst_clock_parse("mips:.5", &s, &err), 0);
    assert_int_equal(fst_clock_parse("mips:1000000", &s, &err), 0);
    assert_int_equal(fst_clock_parse("mips:0.001", &s, &err), 0);
    assert_int_equal(fst_clock_parse("model", &s, &err), 0);
    assert_int_equal(s.kind, FST_CLOCK_MODEL);
    assert_null(s.file);
    assert_int_equal(fst_clock_parse(NULL, &s, &err), 0);
    assert_int_equal(s.kind, FST_CLOCK_MODEL);
    assert_int_equal(fst_clock_parse("model:my.csv", &s, &err), 0);
    assert_string_equal(s.file, "my.csv");
}

static void test_parse_bad(void **state)
{
    (void)state;
    static const struct { const char *spec, *says; } bad[] = {
        { "", "empty" },
        { "mips", "missing the rate" },
        { "mips:", "missing the rate" },
        { "mips:abc", "bad rate 'abc'" },
        { "mips:-1", "bad rate '-1'" },
        { "mips:1e3", "bad rate '1e3'" },
        { "mips:4,66", "bad rate '4,66'" },
        { "mips:1.0000000001", "at most 9 decimals" },
        { "mips:0", "out of range" },
        { "mips:0.0001", "out of range" },
        { "mips:2000000", "out of range" },
        { "mips:99999999999999999999", "bad rate" },
        { "model:", "missing the file name" },
        { "tod", "unknown clock" },
        { "MIPS:1", "unknown clock" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fst_clock_spec s;
        fst_err err = { "" };
        assert_int_equal(fst_clock_parse(bad[i].spec, &s, &err), -1);
        if (!strstr(err.msg, bad[i].says))
            fail_msg("'%s': message '%s' does not say '%s'", bad[i].spec, err.msg, bad[i].says);
        char quoted[128];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i].spec);
        if (!strstr(err.msg, quoted))
            fail_msg("'%s': message '%s' does not name the spec", bad[i].spec, err.msg);
        assert_null(fst_clock_open(bad[i].spec, NULL));
    }
}

/* ---- mips:R ---- */

static void test_mips_exact(void **state)
{
    (void)state;
    fst_err err;
    fst_clock *c = fst_clock_open("mips:1", &err);
    assert_non_null(c);
    assert_int_equal(fst_clock_kind(c), FST_CLOCK_MIPS);
    assert_string_equal(fst_clock_name(c), "mips:1");
    fst_fx x = cost(c, "05EF", 1);
    assert_int_equal(x, FST_FX_PER_US);
    assert_int_equal(fst_fx_to_tod(x), 4096); /* exactly */
    assert_int_equal(x % FST_FX_PER_TOD, 0);
    /* every instruction the same, MVC or LR */
    assert_int_equal(cost(c, "D2FFC000C100", 0), x);
    fst_clock_free(c);

    c = fst_clock_open("mips:4", &err);
    x = cost(c, "1812", 0);
    assert_int_equal(x % FST_FX_PER_TOD, 0);
    assert_int_equal(fst_fx_to_tod(x), 1024);
    fst_fx sum = 0;
    for (int i = 0; i < 1000; i++)
        sum += cost(c, "1812", 0);
    assert_int_equal(fst_fx_to_tod(sum), 1024000);
    fst_clock_stats st;
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.priced, 1001);
    assert_int_equal(st.unmodeled, 0);
    assert_null(fst_clock_unmodeled_op(c, 0, NULL));
    fst_clock_free(c);

    /* 200 ns = 819.2 TOD units: exact in fx, rounded only when printed as TOD */
    c = fst_clock_open("mips:5", &err);
    x = fst_clock_mips_cost(c);
    assert_int_equal(x, 200 * FST_FX_PER_NS);
    assert_int_equal(fst_fx_to_tod(x), 819);
    assert_int_equal(fst_fx_to_tod(5 * x), 4096);
    fst_clock_free(c);
}

static void test_mips_rounded(void **state)
{
    (void)state;
    fst_err err;
    /* 1/0.62 us = 825806451.6... fx: to the nearest */
    fst_clock *c = fst_clock_open("mips:0.62", &err);
    assert_non_null(c);
    assert_string_equal(fst_clock_name(c), "mips:0.62");
    assert_int_equal(fst_clock_mips_cost(c), 825806452);
    fst_clock_free(c);
    /* 1/4.66 us = 109871244.63... fx */
    c = fst_clock_open("mips:4.66", &err);
    assert_int_equal(fst_clock_mips_cost(c), 109871245);
    assert_string_equal(fst_clock_name(c), "mips:4.66");
    /* the rounding error stays below 1 fx per instruction */
    fst_fx sum = 0;
    for (int i = 0; i < 466; i++)
        sum += cost(c, "1812", 0);
    assert_true(sum - 100 * FST_FX_PER_US < 466);
    fst_clock_free(c);
}

static void test_conversions(void **state)
{
    (void)state;
    assert_int_equal(fst_fx_to_tod(0), 0);
    assert_int_equal(fst_fx_to_tod(62499), 0);
    assert_int_equal(fst_fx_to_tod(62500), 1);
    assert_int_equal(fst_fx_to_tod(125000), 1);
    assert_int_equal(fst_fx_from_tod(4096), FST_FX_PER_US);
    assert_int_equal(FST_FX_PER_NS * 1000, FST_FX_PER_US);
    assert_int_equal(FST_FX_PER_TOD * 4096, FST_FX_PER_US);
    assert_true(fst_fx_to_sec(FST_FX_PER_SEC) == 1.0);
    assert_true(fst_fx_to_sec(FST_FX_PER_SEC / 4) == 0.25);
    fst_fx big = 36000 * FST_FX_PER_SEC + FST_FX_PER_US;
    double s = fst_fx_to_sec(big);
    assert_true(s > 36000.0000009 && s < 36000.0000011);
}

/* ---- the P/390 model ---- */

static fst_clock *p390(void)
{
    fst_err err = { "" };
    fst_clock *c = fst_clock_open("model", &err);
    if (!c)
        fail_msg("default model: %s", err.msg);
    return c;
}

static void test_model_flat(void **state)
{
    (void)state;
    fst_clock *c = p390();
    assert_int_equal(fst_clock_kind(c), FST_CLOCK_MODEL);
    assert_string_equal(fst_clock_name(c), "model"); /* the shipped table, wherever installed */
    /* LR: 57.2 ns = 234.2912 TOD units, exact in fx; 234 when printed as TOD */
    fst_fx lr = cost(c, "1812", FST_TAKEN_UNKNOWN);
    assert_int_equal(lr, NS_FX(57200));
    assert_int_equal(lr, 29286400);
    assert_int_equal(lr * 10000 / FST_FX_PER_TOD, 2342912);
    assert_int_equal(fst_fx_to_tod(lr), 234);
    assert_int_equal(fst_fx_to_tod(10 * lr), 2343); /* 2342.912: keep sums in fx */
    assert_int_equal(cost(c, "5810C000", 0), NS_FX(174700)); /* L */
    assert_int_equal(cost(c, "B205C0A6", 0), NS_FX(412000)); /* STCK T600 */
    fst_clock_free(c);
}

static void test_model_per_unit(void **state)
{
    (void)state;
    fst_clock *c = p390();
    /* MVC with L=9 moves 10 bytes: 393.0 + 29.09 * 10 */
    assert_int_equal(cost(c, "D209C000C100", 0), NS_FX(393000 + 290900));
    assert_int_equal(cost(c, "D200C000C100", 0), NS_FX(393000 + 29090));
    /* STM 14,12 stores 15 registers: 120.7 + 57.80 * 15 (T122 measured 987.92) */
    assert_int_equal(cost(c, "90ECD00C", 0), NS_FX(120700 + 15 * 57800));
    assert_int_equal(cost(c, "9023D000", 0), NS_FX(120700 + 2 * 57800));
    assert_int_equal(cost(c, "98F0D000", 0), NS_FX(117400 + 2 * 58140)); /* LM 15,0 */
    /* AP 116(2,12),118(2,12): op1 bytes */
    assert_int_equal(cost(c, "FA11C074C076", 0), NS_FX(2330100 + 2 * 37670));
    /* PACK 3 <- 5 bytes: 5 digits of the packed first operand; UNPK: of the second */
    assert_int_equal(cost(c, "F224C000C100", 0), NS_FX(304500 + 5 * 152330));
    assert_int_equal(cost(c, "F342C000C100", 0), NS_FX(492900 + 5 * 161080));
    /* DP's fitted intercept is negative; with its shortest operands it stays positive */
    assert_int_equal(cost(c, "FD10C000C100", 0), NS_FX(-1937300 + 2 * 3172700));
    fst_clock_stats st;
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.unmodeled, 0);
    assert_int_equal(st.no_length, 0);
    fst_clock_free(c);
}

static void test_model_register_lengths(void **state)
{
    (void)state;
    fst_clock *c = p390();
    fst_insn d = dec("0E24", ST390); /* MVCL 2,4 */
    /* unknown length: the base cost, counted */
    assert_int_equal(fst_clock_cost(c, &d, FST_TAKEN_UNKNOWN), NS_FX(937500));
    fst_clock_stats st;
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.no_length, 1);
    /* the caller knows R3 = 8 */
    assert_int_equal(fst_clock_cost_n(c, &d, FST_TAKEN_UNKNOWN, 8), NS_FX(937500 + 8 * 14750));
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.no_length, 1);
    /* a caller's count also overrides the text (an EX-modified MVC length) */
    d = dec("D200C000C100", ST390);
    assert_int_equal(fst_clock_cost_n(c, &d, 0, 100), NS_FX(393000 + 100 * 29090));
    /* lengths near 2^31 neither overflow nor wrap */
    d = dec("0E24", ST390);
    assert_int_equal(fst_clock_cost_n(c, &d, 0, INT64_C(0x7FFFFFFF)),
                     NS_FX(937500 + INT64_C(0x7FFFFFFF) * 14750));
    assert_true(fst_clock_cost_n(c, &d, 0, INT64_MAX) == UINT64_MAX);
    fst_clock_free(c);
}

static void test_model_branches(void **state)
{
    (void)state;
    fst_clock *c = p390();
    /* BE: taken or not as the caller says; unknown = taken */
    assert_int_equal(cost(c, "4780C010", 1), NS_FX(234300));
    assert_int_equal(cost(c, "4780C010", 0), NS_FX(58500));
    assert_int_equal(cost(c, "4780C010", FST_TAKEN_UNKNOWN), NS_FX(234300));
    /* B 12(,15) always branches; NOP never, whatever the argument */
    assert_int_equal(cost(c, "47F0F00C", 0), NS_FX(234300));
    assert_int_equal(cost(c, "4700F00C", 1), NS_FX(58500));
    /* BR 14 taken; BCR 0,0 not */
    assert_int_equal(cost(c, "07FE", FST_TAKEN_UNKNOWN), NS_FX(163000));
    assert_int_equal(cost(c, "0700", 1), NS_FX(57100));
    /* BCTR r,0 never branches */
    assert_int_equal(cost(c, "0660", 1), NS_FX(57100));
    assert_int_equal(cost(c, "0665", 1), NS_FX(114200));
    /* BALR has one row: BALR 14,15 and BALR 12,0 alike */
    assert_int_equal(cost(c, "05EF", 1), NS_FX(295400));
    assert_int_equal(cost(c, "05C0", 0), NS_FX(295400));
    /* mapped: BASR = BALR, BRAS = BAL, BRC = BC */
    assert_int_equal(cost(c, "0DEF", 1), NS_FX(295400));
    assert_int_equal(cost(c, "A7150004", 1), NS_FX(315000));
    assert_int_equal(cost(c, "A774FFFE", 0), NS_FX(58500));
    /* BCT: taken measured, not taken guessed */
    assert_int_equal(cost(c, "4620C004", 1), NS_FX(289300));
    assert_int_equal(cost(c, "4620C004", 0), NS_FX(114300));
    fst_clock_free(c);
}

/* Every instruction the fixture logs execute has a row of its own in the default table. */
static void test_model_covers_fixtures(void **state)
{
    (void)state;
    static const char *const hex[] = {
    "010C", "010D", "010E", "05C0", "05E0", "07FE", "0A05", "0A07", 
    "0A09", "0B01", "0DC0", "0DE0", "0DE3", "0DEF", "0E24", "1F00", 
    "1F22", "28F1", "2A44", "3820", "3A20", "41100001", "41100003", "4110C01E", 
    "4110C026", "41200002", "4120C076", "41300008", "4140C06E", "41500008", "41505001", "4400C084", 
    "4410C06E", "4410C07E", "4410C0B6", "4620C004", "50100048", "5010C088", "5810C056", "58203000", 
    "5820C04E", "58302000", "5830C01E", "5830C032", "5830C05A", "58F0C02E", "6040C09E", "6810C0BE", 
    "6840C07E", "6840C096", "7800C08E", "82000020", "82000028", "8200C016", "8200C01E", "8200C026", 
    "8200C02E", "8200C03E", "8200C04E", "8200C066", "90ECC0B6", "95C1C06E", "98ECC0B6", "9C00000C", 
    "A74B0001", "AE020012", "B205C062", "B205C086", "B205C0A6", "B205C0C6", "B2B20140", "B2B20150", 
    "B2B2C07E", "B31A0011", "B700C046", "B711C04A", "B904003C", "B91700CC", "C0E500000003", "C6100000003B", 
    "D200C0CEC0A6", "D207C05AC052", "D207C066C05E", "D207C076C06E", "D207C0AEC0A6", "D20F30003001", "D5033000C022", "D507C066C05E", 
    "D507C076C06E", "D507C0AEC0A6", "E340C0960004", "E340C09E0024", "EB00C08E002F", "FA11C074C076", 
        /* the linkage of the test programs (FORTRAN G/H and OS conventions) */
        "47F0F00C", "90ECD00C", "18CF", "50D0F008", "50F0D004", "41DF0048", "58F0C100",
        "58D0D004", "98ECD00C", "92FFD00C", "1BFF", "12FF", "4510C010", "45E0C010",
        "4DE0C010", "A7150004", "A7E5FFF0", "A774FFF0", "A7F4FFF0", "A7180001", "A71A0001",
        "1A12", "5A10C000", "5910C000", "1912", "4320C000", "4220C000", "8910000C",
        "8810000C", "9500C000", "9110C000", "9680C000", "9470C000", "D707C000C000",
        "4F10C000", "4E10C000", "0A03", "D5070000C000", "9640D00C", "1F11", "5B10C000",
        "4120C004", "1722", "BF1FC000",
    };
    fst_clock *c = p390();
    for (size_t i = 0; i < sizeof hex / sizeof hex[0]; i++) {
        fst_insn d = dec(hex[i], hex[i][0] == '9' && hex[i][1] == 'C' ? ST370 : STZ);
        fst_clock_cost(c, &d, FST_TAKEN_UNKNOWN);
        fst_clock_stats st;
        fst_clock_stats_get(c, &st);
        if (st.unmodeled)
            fail_msg("%s (%s) has no row in cost-p390.csv", hex[i], fst_insn_mnem(&d));
    }
    fst_clock_free(c);
}

/* The shipped model prices every opcode the decoder knows from a row or a class rule:
** the default (a class median) is left for opcodes the decoder does not know. */
static void test_model_every_op_priced(void **state)
{
    (void)state;
    fst_clock *c = p390();
    unsigned rows = 0, rules = 0;
    for (unsigned op = 1; op < fst_op_count(); op++) {
        const char *rule;
        int how = fst_clock_how(c, op, &rule);
        if (how == FST_PRICE_DEFAULT)
            fail_msg("%s (%s): neither a row nor a rule", fst_op_info(op)->mnem, fst_op_info(op)->code);
        rows += how == FST_PRICE_ROW;
        rules += how == FST_PRICE_RULE;
        assert_true(how != FST_PRICE_RULE || (rule && *rule));
    }
    print_message("%u opcodes priced from a row, %u by a class rule\n", rows, rules);
    assert_int_equal(fst_clock_how(c, FST_OP_UNKNOWN, NULL), FST_PRICE_DEFAULT);
    /* issue 11's list of what gcc emits: all by rule now, each as its S/370 operation */
    static const struct { const char *hex, *rule; } gcc[] = {
        { "71102000", "M" },       { "B2520012", "MR" },      { "E31020000096", "M" },
        { "B9960012", "MR" },      { "B9980012", "ALR" },     { "B9990012", "SLR" },
        { "EB120000001D", "SLL" }, { "A7110001", "NR" },      { "B9180012", "AR" },
        { "A717FFFE", "BRCT" },    { "B9210012", "CLR" },     { "B9160012", "LR" },
        { "E31020000090", "IC" },  { "B90C0012", "MR" },      { "B9860012", "MR" },
        { "B90D0012", "DR" },      { "E54C10000005", "ST" },  { "EB01F0A0006A", "A+ST" },
        { "EB18F0A000E2", "L" },   { "EC1200108076", "CR+BRC" }, { "E7123000F0F3", "@vector" },
    };
    for (size_t i = 0; i < sizeof gcc / sizeof gcc[0]; i++) {
        fst_insn d = dec(gcc[i].hex, STZ);
        const char *rule;
        if (fst_clock_how(c, d.op, &rule) != FST_PRICE_RULE || strcmp(rule, gcc[i].rule))
            fail_msg("%s (%s): not priced by the rule '%s'", gcc[i].hex, fst_insn_mnem(&d), gcc[i].rule);
    }
    /* MSGR is priced as MR, taken or not; CRJ as CR + BRC, outcome by outcome */
    assert_int_equal(cost(c, "B90C0012", 0), cost(c, "1C12", 0));
    assert_int_equal(cost(c, "EC1200108076", 1), cost(c, "1912", 0) + cost(c, "A7840010", 1));
    assert_int_equal(cost(c, "EC1200108076", 0), cost(c, "1912", 0) + cost(c, "A7840010", 0));
    fst_clock_free(c);
}

/* The rules of analyze/cost/costrule.h name decoder instructions, each once. */
static void test_rule_table(void **state)
{
    (void)state;
    size_t n;
    const fst_cost_rule *r = fst_cost_rules(&n);
    assert_true(n > 700);
    for (size_t i = 0; i < n; i++) {
        if (fst_op_find(r[i].mnem) < 0)
            fail_msg("rule for %s: no such instruction", r[i].mnem);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(r[i].mnem, r[j].mnem))
                fail_msg("%s has two rules", r[i].mnem);
        if (r[i].rule[0] == '@')
            continue;
        char a[16] = "";
        snprintf(a, sizeof a, "%s", r[i].rule);
        char *plus = strchr(a, '+');
        if (plus)
            *plus = 0;
        if (fst_op_find(a) < 0 || (plus && fst_op_find(plus + 1) < 0))
            fail_msg("rule for %s: '%s' names no instruction", r[i].mnem, r[i].rule);
    }
}

/* Rules on a table of one's own: borrowed rows, sums, class rows, chains, and the
** default when the table lacks what a rule needs. */
static void test_rules(void **state)
{
    (void)state;
    const char *path = write_csv("mnemonic,variant,base_ns\nLR,,10\nAR,,20\nCR,,50\nL,,100\n"
                                 "BRC,taken,300\nBRC,not-taken,100\n@vector,,7\n");
    fst_err err = { "" };
    fst_clock *c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    const char *rule;
    assert_int_equal(cost(c, "B9180012", 0), NS_FX(20000)); /* AGFR as AR */
    assert_int_equal(fst_clock_how(c, dec("B9180012", STZ).op, &rule), FST_PRICE_RULE);
    assert_string_equal(rule, "AR");
    assert_int_equal(fst_clock_how(c, dec("1812", STZ).op, &rule), FST_PRICE_ROW);
    assert_null(rule);
    /* CRJ 1,2,8: CR + BRC, taken or not; mask 14 always branches */
    assert_int_equal(cost(c, "EC1200108076", 1), NS_FX(350000));
    assert_int_equal(cost(c, "EC1200108076", 0), NS_FX(150000));
    assert_int_equal(cost(c, "EC120010E076", 0), NS_FX(350000));
    /* a vector instruction: the class row */
    assert_int_equal(cost(c, "E7123000F0F3", 0), NS_FX(7000));
    /* LLGC as IC, which the table lacks and which has no rule: the default (storage median) */
    assert_int_equal(fst_clock_how(c, dec("E31020000090", STZ).op, NULL), FST_PRICE_DEFAULT);
    assert_int_equal(cost(c, "E31020000090", 0), NS_FX(100000));
    /* EPSW as IPM, IPM as @control, which the table lacks: the default */
    assert_int_equal(fst_clock_how(c, dec("B98D0012", STZ).op, NULL), FST_PRICE_DEFAULT);
    fst_clock_stats st;
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.unmodeled, 6); /* priced without a row: by rule or default */
    fst_clock_free(c);
    /* with the class row, the chain EPSW -> IPM -> @control works */
    path = write_csv("mnemonic,base_ns\nLR,10\n@control,214.4\n");
    c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    assert_int_equal(fst_clock_how(c, dec("B98D0012", STZ).op, &rule), FST_PRICE_RULE);
    assert_string_equal(rule, "IPM");
    assert_int_equal(cost(c, "B98D0012", 0), NS_FX(214400));
    fst_clock_free(c);
    /* a mips clock prices everything at its rate */
    c = fst_clock_open("mips:1", &err);
    assert_int_equal(fst_clock_how(c, 1, NULL), FST_PRICE_RATE);
    fst_clock_free(c);
}

/* fst_clock_unmodeled: of a mix, what is priced by a rule or at the default (the replay's
** fst_profile.unmodeled), never what has a row; nothing under a mips clock. */
static void test_unmodeled_mix(void **state)
{
    (void)state;
    const char *path = write_csv("mnemonic,base_ns\nLR,10\nAR,20\nL,100\n");
    fst_err err = { "" };
    fst_clock *c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    uint64_t *mix = calloc(fst_op_count(), sizeof *mix);
    assert_non_null(mix);
    mix[dec("B9180012", STZ).op] = 600;     /* AGFR: by its rule, as AR */
    mix[dec("1812", STZ).op] = 50;          /* LR: its row */
    mix[dec("E31020000090", STZ).op] = 7;   /* LLGC: no row, its rule's IC has none: default */
    mix[FST_OP_UNKNOWN] = 3;                /* not decoded: the default */
    assert_int_equal(fst_clock_unmodeled(c, mix), 600 + 7 + 3);
    fst_clock_free(c);
    c = fst_clock_open("mips:1", &err);
    assert_non_null(c);
    assert_int_equal(fst_clock_unmodeled(c, mix), 0);
    fst_clock_free(c);
    free(mix);
}

/* ---- tables of one's own ---- */

static void test_class_medians(void **state)
{
    (void)state;
    /* only the two required columns */
    const char *path = write_csv("mnemonic,base_ns\nLR,10\nAR,20\nCR,30\nL,100\nST,300\n"
                                 "MVC,1000\n");
    fst_err err = { "" };
    fst_clock *c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    assert_int_equal(cost(c, "1812", 0), NS_FX(10000));
    /* no rows: the median of the class (register, storage, SS) */
    assert_int_equal(cost(c, "1412", 0), NS_FX(20000));     /* NR */
    assert_int_equal(cost(c, "B9040012", 0), NS_FX(10000)); /* LGR: no row, its rule: as LR */
    assert_int_equal(cost(c, "5A10C000", 0), NS_FX(200000)); /* A: (100 + 300) / 2 */
    assert_int_equal(cost(c, "D707C000C000", 0), NS_FX(1000000)); /* XC */
    /* unknown opcodes: the class of their length */
    assert_int_equal(cost(c, "0000", 0), NS_FX(20000));
    assert_int_equal(cost(c, "0000", 0), NS_FX(20000));
    assert_int_equal(cost(c, "5200C000", 0), NS_FX(200000));
    assert_int_equal(cost(c, "FF0000000000", 0), NS_FX(1000000));
    fst_clock_stats st;
    fst_clock_stats_get(c, &st);
    assert_int_equal(st.priced, 9);
    assert_int_equal(st.unmodeled, 8);
    uint64_t n;
    assert_string_equal(fst_clock_unmodeled_op(c, 0, &n), "?");
    assert_int_equal(n, 4);
    assert_string_equal(fst_clock_unmodeled_op(c, 1, &n), "NR");
    assert_int_equal(n, 1);
    assert_string_equal(fst_clock_unmodeled_op(c, 3, &n), "XC");
    assert_string_equal(fst_clock_unmodeled_op(c, 4, &n), "LGR");
    assert_null(fst_clock_unmodeled_op(c, 5, &n));
    fst_clock_free(c);
}

static void test_comments_quotes_clamp(void **state)
{
    (void)state;
    const char *path = write_csv(
        "# a comment\n"
        "\n"
        "Mnemonic , OPCODE,variant,unit,base_ns,per_unit_ns,source,extra\n"
        "   # an indented comment\n"
        "lr,18,,-,1.0005,,\"a note\nover two lines, with # and ,\",x\n"
        "DP,fd,,byte,-5000,1000,fit,\r\n"
        "BC,47,taken,,300,0,,\n"
        "BC,47,not taken,,100,,,\n"
        "MVI,92,,-,50,0,last line without newline,");
    fst_err err = { "" };
    fst_clock *c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    assert_int_equal(cost(c, "1812", 0), NS_FX(1001)); /* rounded to the ps, half up */
    assert_int_equal(cost(c, "FD00C000C000", 0), 0);  /* -5000 + 1000: clamped at 0 */
    assert_int_equal(cost(c, "FD20C000C000", 0), 0);
    assert_int_equal(cost(c, "FD70C000C000", 0), NS_FX(3000000));
    assert_int_equal(cost(c, "4780C000", 1), NS_FX(300000));
    assert_int_equal(cost(c, "4780C000", 0), NS_FX(100000));
    assert_int_equal(cost(c, "9200C000", 0), NS_FX(50000));
    fst_clock_free(c);
}

/* The class medians are selected, not sorted for: unsorted rows with ties and negative
** intercepts give the sorted middle (the mean of the two middle ones for an even count). */
static void test_median_selection(void **state)
{
    (void)state;
    const char *path = write_csv("mnemonic,base_ns,unit,per_unit_ns\nLR,50,-,0\nAR,10,-,0\nSR,40,-,0\n"
                                 "CR,10,-,0\nNR,30,-,0\nOR,20,-,0\nMVC,-5,byte,2\nCLC,7,byte,1\n"
                                 "XC,3,byte,1\nL,1,-,0\n");
    fst_err err = { "" };
    fst_clock *c = fst_clock_load(path, &err);
    unlink(path);
    if (!c)
        fail_msg("%s", err.msg);
    /* register rows 10 10 20 30 40 50: (20 + 30) / 2; SS bases -5 3 7: 3; storage: L alone */
    assert_int_equal(cost(c, "0000", 0), NS_FX(25000));
    assert_int_equal(cost(c, "FF0000000000", 0), NS_FX(3000));
    assert_int_equal(cost(c, "5200C000", 0), NS_FX(1000));
    fst_clock_free(c);
}

static void test_bad_tables(void **state)
{
    (void)state;
    static const char H[] = "mnemonic,opcode,variant,unit,base_ns,per_unit_ns,source\n";
    static const struct { const char *body; int line; const char *says; } bad[] = {
        { "mnemonic,opcode,unit,per_unit_ns\nLR,18,-,0\n", 1, "missing column 'base_ns'" },
        { "opcode,base_ns\n18,57.2\n", 1, "missing column 'mnemonic'" },
        { "mnemonic,base_ns,BASE_NS\n", 1, "appears twice" },
        { "#c\nmnemonic,base_ns\nLR,1\nAR\n", 4, "1 fields, the header has 2" },
    };
    static const struct { const char *row; const char *says; } badrow[] = {
        { "LR,18,,-,abc,0,", "bad number 'abc' in base_ns" },
        { "LR,18,,-,57.2.1,0,", "bad number '57.2.1' in base_ns" },
        { "LR,18,,-,,0,", "bad number '' in base_ns" },
        { "LR,18,,-,1e3,0,", "bad number '1e3'" },
        { "LR,18,,-,2000000000,0,", "out of range" },
        { "MVC,D2,,byte,393,x,", "bad number 'x' in per_unit_ns" },
        { "MVC,D2,,bytes,393,29,", "unknown unit 'bytes'" },
        { "LR,18,,reg,57.2,1,", "unit 'reg' does not apply to LR" },
        { "MVC,D2,,digit,393,1,", "unit 'digit' does not apply to MVC" },
        { "LR,18,,byte,57.2,1,", "unit 'byte' does not apply to LR" },
        { "LR,18,,-,57.2,1,", "per_unit_ns 1 given but the unit is '-'" },
        { "LR,18,,-,-57.2,0,", "negative base_ns" },
        { "FOO,18,,-,57.2,0,", "unknown mnemonic 'FOO'" },
        { ",18,,-,57.2,0,", "empty mnemonic" },
        { "LR,19,,-,57.2,0,", "opcode 19 does not match LR (18)" },
        { "LR,18,sometimes,-,57.2,0,", "unknown variant 'sometimes'" },
        { "LR,18,taken,-,57.2,0,", "variant 'taken' given for LR, which is not a branch" },
        { "LR,18,,-,57.2,0,\"open quote", "malformed CSV" },
        { "LR,18,,-,57.2,0,a\"b", "malformed CSV" },
        { "@gpu,,,-,1,0,", "unknown class '@gpu'" },
        { "@vector,,,byte,1,1,", "unit 'byte', a class row is flat" },
        { "@vector,E7,,-,1,0,", "no opcode and no variant" },
        { "@fp,,,-,-1,0,", "bad base_ns '-1'" },
    };
    char text[1024];
    fst_err err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *path = write_csv(bad[i].body);
        memset(&err, 0, sizeof err);
        assert_null(fst_clock_load(path, &err));
        char where[600];
        snprintf(where, sizeof where, "%s:%d: ", path, bad[i].line);
        unlink(path);
        if (strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, bad[i].says))
            fail_msg("table %zu: message '%s', expected '%s...%s'", i, err.msg, where, bad[i].says);
    }
    for (size_t i = 0; i < sizeof badrow / sizeof badrow[0]; i++) {
        /* a good row, a comment, then the bad one on line 5 */
        snprintf(text, sizeof text, "%sAR,1A,,-,57.2,0,T200\n# x\n\n%s\nCR,19,,-,1,0,\n", H,
                 badrow[i].row);
        const char *path = write_csv(text);
        memset(&err, 0, sizeof err);
        assert_null(fst_clock_load(path, &err));
        char where[600];
        snprintf(where, sizeof where, "%s:5: ", path);
        unlink(path);
        if (strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, badrow[i].says))
            fail_msg("row '%s': message '%s', expected '%s...%s'", badrow[i].row, err.msg, where,
                     badrow[i].says);
    }
    /* a duplicate names both lines; the quoted note spans lines 2-3 */
    snprintf(text, sizeof text, "%sBC,47,taken,-,1,0,\"two\nlines\"\nBC,47,not-taken,-,1,0,\n"
             "BC,47,TAKEN,-,2,0,\n", H);
    const char *path = write_csv(text);
    assert_null(fst_clock_load(path, &err));
    unlink(path);
    assert_non_null(strstr(err.msg, ":5: duplicate row for BC taken (first at line 2)"));
    /* empty, header only, missing */
    path = write_csv("# nothing\n");
    assert_null(fst_clock_load(path, &err));
    unlink(path);
    assert_non_null(strstr(err.msg, "no header line"));
    path = write_csv(H);
    assert_null(fst_clock_load(path, &err));
    unlink(path);
    assert_non_null(strstr(err.msg, "no cost rows"));
    assert_null(fst_clock_open("model:/nonexistent/cost.csv", &err));
    assert_non_null(strstr(err.msg, "/nonexistent/cost.csv"));
}

static void test_default_model_lookup(void **state)
{
    (void)state;
    fst_err err;
    char *p = fst_clock_default_model(&err);
    assert_non_null(p);
    assert_non_null(strstr(p, FST_CLOCK_DEFAULT_FILE));
    free(p);
    /* FST_DATA wins; a folder without the table falls through to the others */
    const char *old = getenv("FST_DATA");
    char *saved = old ? strdup(old) : NULL;
    setenv("FST_DATA", "/nonexistent", 1);
    p = fst_clock_default_model(&err);
    assert_non_null(p);
    assert_null(strstr(p, "/nonexistent"));
    free(p);
    if (saved) {
        setenv("FST_DATA", saved, 1);
        free(saved);
    } else {
        unsetenv("FST_DATA");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_mips_exact),
        cmocka_unit_test(test_mips_rounded),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_model_flat),
        cmocka_unit_test(test_model_per_unit),
        cmocka_unit_test(test_model_register_lengths),
        cmocka_unit_test(test_model_branches),
        cmocka_unit_test(test_model_covers_fixtures),
        cmocka_unit_test(test_model_every_op_priced),
        cmocka_unit_test(test_rule_table),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_unmodeled_mix),
        cmocka_unit_test(test_class_medians),
        cmocka_unit_test(test_median_selection),
        cmocka_unit_test(test_comments_quotes_clamp),
        cmocka_unit_test(test_bad_tables),
        cmocka_unit_test(test_default_model_lookup),
    };
    return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}
