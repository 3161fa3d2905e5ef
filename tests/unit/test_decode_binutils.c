/*
** tests/unit/test_decode_binutils.c — isa/decode against binutils, over every
** instruction binutils knows for z16: tests/decode/binutils-z16.tsv (made by
** tests/decode/gen-binutils.sh from binutils' opcode table, objdump's disassembly and
** as -march=z16) holds two instances of each of its 2641 mnemonics, base and extended.
** For each one fst must: know the opcode; give objdump's length; name it by one of the
** names binutils has for that opcode (J and BRC are one opcode: compare on the opcode);
** print the operand values objdump printed (when objdump used the same mnemonic);
** compute a relative branch's target as objdump did; and classify branches and links as
** the Principles of Operation do (the lists below, not fst's tables).
** $FST_DECODE_TSV overrides the file (tests/e2e/decode_binutils.sh feeds it a wrong one).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "isa/decode.h"
#include "trace/tracebin.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define STZ ((uint32_t)FST_ARCH_ZARCH | 2u << FST_ST_AMODE_SHIFT)
#define ADDR UINT64_C(0x10000000)

/* POO: every branch instruction (chapter 7 and 10: "Branch ..." and "Compare and
** Branch ..."), relative or not. */
static const char *const branches[] = {
    "BALR", "BAL", "BASR", "BAS", "BASSM", "BSM", "BCR", "BC", "BCTR", "BCT", "BCTGR", "BCTG",
    "BXH", "BXLE", "BXHG", "BXLEG", "BRAS", "BRASL", "BRC", "BRCL", "BRCT", "BRCTG", "BRCTH",
    "BRXH", "BRXLE", "BRXHG", "BRXLG", "BIC", "BAKR", "BSG", "BSA",
    "CRJ", "CGRJ", "CLRJ", "CLGRJ", "CIJ", "CGIJ", "CLIJ", "CLGIJ",
    "CRB", "CGRB", "CLRB", "CLGRB", "CIB", "CGIB", "CLIB", "CLGIB", NULL,
};
/* POO: branch and link / save, the return address in R1 */
static const char *const links[] = { "BALR", "BAL", "BASR", "BAS", "BASSM", "BRAS", "BRASL", NULL };

static int in(const char *const *list, const char *m)
{
    for (; *list; list++)
        if (!strcasecmp(*list, m))
            return 1;
    return 0;
}

/* "A,B,C" contains m */
static int among(const char *csv, const char *m)
{
    size_t n = strlen(m);
    for (const char *p = csv; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncasecmp(p, m, n))
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* The numbers of an operand text, in order, comma-joined ("*+28" is 28). */
static void numbers(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    while (*s) {
        int neg = 0;
        if ((*s == '-' || *s == '+') && isdigit((unsigned char)s[1]))
            neg = *s++ == '-';
        if (!isdigit((unsigned char)*s)) {
            s++;
            continue;
        }
        char *e;
        long long v = strtoll(s, &e, 10);
        n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%lld", n ? "," : "", neg ? -v : v);
        s = e;
    }
}

typedef struct line {
    char hex[16], tag[4], names[400], objmn[16], vals[200], rel[32];
} line;

static int parse(char *buf, line *l)
{
    char *f[6];
    int k = 0;
    for (char *p = strtok(buf, "\t\n"); p && k < 6; p = strtok(NULL, "\t\n"))
        f[k++] = p;
    if (k != 6)
        return -1;
    snprintf(l->hex, sizeof l->hex, "%s", f[0]);
    snprintf(l->tag, sizeof l->tag, "%s", f[1]);
    snprintf(l->names, sizeof l->names, "%s", f[2]);
    snprintf(l->objmn, sizeof l->objmn, "%s", f[3]);
    snprintf(l->vals, sizeof l->vals, "%s", f[4]);
    snprintf(l->rel, sizeof l->rel, "%s", f[5]);
    return 0;
}

typedef struct tally {
    unsigned lines, failed, operands, targets, branchy;
    unsigned char opseen[4096];   /* op ids whose operands were compared */
} tally;

static void bad(tally *t, const line *l, const char *fmt, ...)
{
    if (t->failed++ < 40) {
        char msg[300];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        print_error("%s (%s, binutils: %s): %s\n", l->hex, l->tag, l->objmn, msg);
    }
}

static void check(tally *t, const line *l)
{
    uint8_t b[6] = { 0 };
    int len = (int)strlen(l->hex) / 2;
    for (int i = 0; i < len; i++) {
        unsigned v;
        sscanf(l->hex + 2 * i, "%2x", &v);
        b[i] = (uint8_t)v;
    }
    fst_insn d;
    fst_decode(&d, b, ADDR, STZ);
    if (d.op == FST_OP_UNKNOWN)
        return bad(t, l, "not decoded");
    if (d.len != len)
        bad(t, l, "length %d, objdump %d", d.len, len);
    if (!among(l->names, fst_insn_mnem(&d)))
        bad(t, l, "named %s, binutils names the opcode %s", fst_insn_mnem(&d), l->names);
    char text[64], got[200];
    fst_disasm(&d, text, sizeof text);
    const char *ops = strchr(text, ' ');
    if (!strcmp(l->tag, "a") && !strcasecmp(l->objmn, fst_insn_mnem(&d)) && strcmp(l->vals, "-")) {
        numbers(ops ? ops : "", got, sizeof got);
        /* objdump leaves out optional operands that are 0 (EFPC 1; a mask of the
        ** older form of an instruction): a tail of zeros is not a difference */
        size_t n = strlen(l->vals);
        const char *tail = got + n;
        int same = !strncmp(got, l->vals, n) && (!*tail || *tail == ',');
        for (; same && *tail; tail++)
            same = *tail == ',' || *tail == '0';
        if (!same)
            bad(t, l, "'%s': operands %s, objdump %s", text, got, l->vals);
        t->operands++;
        t->opseen[d.op] = 1;
    }
    int br = in(branches, fst_insn_mnem(&d)), lk = in(links, fst_insn_mnem(&d));
    if (!!(d.flags & FST_I_BRANCH) != br)
        bad(t, l, "%s is %sa branch", fst_insn_mnem(&d), br ? "" : "not ");
    if (!!(d.flags & FST_I_LINK) != lk)
        bad(t, l, "%s is %sa branch and link", fst_insn_mnem(&d), lk ? "" : "not ");
    t->branchy += br;
    /* relative: fst's target is objdump's */
    if ((d.flags & FST_I_RELATIVE) && !strcmp(l->rel, "-"))
        bad(t, l, "relative for fst, objdump printed no relative operand");
    if ((d.flags & FST_I_RELATIVE) && strcmp(l->rel, "-")) {
        uint64_t want = ADDR + (uint64_t)strtoll(l->rel, NULL, 10);
        if ((d.flags & (FST_I_CANBRANCH | FST_I_EXECUTE)) && !(d.flags & FST_I_TARGET))
            bad(t, l, "no static target");
        else if ((d.flags & FST_I_TARGET) && d.target != want)
            bad(t, l, "target %llx, objdump %llx", (unsigned long long)d.target, (unsigned long long)want);
        t->targets++;
    }
    if (br && strcmp(l->rel, "-") && !(d.flags & FST_I_RELATIVE))
        bad(t, l, "a branch with a relative operand, not relative for fst");
}

static void test_binutils(void **state)
{
    (void)state;
    char path[1024];
    const char *env = getenv("FST_DECODE_TSV"), *root = getenv("FST_ROOT");
    if (env && *env)
        snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s/tests/decode/binutils-z16.tsv", root && *root ? root : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open (set FST_ROOT to the source tree)", path);
    static tally t;
    memset(&t, 0, sizeof t);
    assert_true(fst_op_count() <= sizeof t.opseen);
    char buf[1200];
    while (fgets(buf, sizeof buf, f)) {
        if (buf[0] == '#')
            continue;
        line l;
        if (parse(buf, &l) < 0)
            fail_msg("%s: a line without 6 fields", path);
        t.lines++;
        check(&t, &l);
    }
    fclose(f);
    unsigned opcodes = 0;
    for (unsigned op = 0; op < fst_op_count(); op++)
        opcodes += t.opseen[op];
    print_message("%u instances; operands compared for %u instances of %u opcodes; %u relative targets; "
                  "%u branches\n", t.lines, t.operands, opcodes, t.targets, t.branchy);
    if (t.failed)
        fail_msg("%u of %u instances disagree with binutils", t.failed, t.lines);
    /* not vacuous: the file is the whole table, and most operand lists were compared */
    assert_true(t.lines >= 5000);
    assert_true(opcodes >= 1100);
    assert_true(t.targets >= 100);
}

/* Every opcode of the decoder that binutils knows appears in the file: count them. */
static void test_every_opcode_covered(void **state)
{
    (void)state;
    char path[1024];
    const char *env = getenv("FST_DECODE_TSV"), *root = getenv("FST_ROOT");
    snprintf(path, sizeof path, "%s", env && *env ? env : "");
    if (!*path)
        snprintf(path, sizeof path, "%s/tests/decode/binutils-z16.tsv", root && *root ? root : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open", path);
    unsigned nops = fst_op_count();
    unsigned char *seen = calloc(nops, 1);
    char buf[1200];
    while (fgets(buf, sizeof buf, f)) {
        line l;
        if (buf[0] == '#' || parse(buf, &l) < 0)
            continue;
        uint8_t b[6] = { 0 };
        for (size_t i = 0; i < strlen(l.hex) / 2 && i < 6; i++) {
            unsigned v;
            sscanf(l.hex + 2 * i, "%2x", &v);
            b[i] = (uint8_t)v;
        }
        fst_insn d;
        fst_decode(&d, b, ADDR, STZ);
        seen[d.op] = 1;
    }
    fclose(f);
    unsigned missing = 0;
    for (unsigned op = 1; op < nops; op++) {
        const fst_opinfo *oi = fst_op_info(op);
        /* S/370-only meanings, and S/370 opcodes binutils (ESA/390 and later) lacks */
        static const char *const s370[] = { "SSK", "ISK", "STIDC", "RRB", NULL };
        if (seen[op] || oi->arch370 || in(s370, oi->mnem))
            continue;
        if (missing++ < 20)
            print_error("%s (%s) is in no instance binutils knows\n", oi->mnem, oi->code);
    }
    free(seen);
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binutils),
        cmocka_unit_test(test_every_opcode_covered),
    };
    return cmocka_run_group_tests_name("decode_binutils", tests, NULL, NULL);
}
