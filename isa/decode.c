/*
** isa/decode.c — see decode.h; the opcode lists are in optable.h and optable_z.h.
**
** The lists are X-macros: each is expanded into the enum of op ids (so a mnemonic can
** appear once only: the compiler checks it), into the fst_opinfo array (same order as
** the enum), and into the designated initialisers of the lookup table it belongs to
** (-Woverride-init, part of -Wextra, catches an opcode listed twice). So the tables are
** complete at compile time and a decode is two loads and a few field extractions.
*/
#include "isa/decode.h"

#include "trace/tracebin.h"
#include "common/bytes.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- the flags column of the tables ---- */

/* public FST_I_* */
#define F_BR FST_I_BRANCH
#define F_LK FST_I_LINK
#define F_CO FST_I_COND
#define F_RE FST_I_RELATIVE
#define F_EX FST_I_EXECUTE
#define F_PS FST_I_PSW
#define F_AM FST_I_AMODE
#define F_RL FST_I_REGLIST
#define F_RN FST_I_REGLEN

/* The private shape, in bits 16-23 of a table's flags and then in fst_opinfo.shape:
** where the branch target comes from (TK), where the branch mask is (MK), where the SS
** lengths are (LN). */
enum { TK_NONE, TK_RR, TK_RRE, TK_RX, TK_RXY, TK_RS, TK_RSY, TK_REL16, TK_REL32, TK_IND };
enum { MK_NONE, MK_2, MK_3, MK_8 };
enum { LN_NONE, LN_8, LN_44, LN_4 };
#define SH_(tk, mk, ln) ((unsigned)(tk) << 16 | (unsigned)(mk) << 20 | (unsigned)(ln) << 22)
#define SH_TK(sh) ((sh) & 0xFu)
#define SH_MK(sh) ((sh) >> 4 & 3u)
#define SH_LN(sh) ((sh) >> 6 & 3u)

#define T_RX    SH_(TK_RX, 0, 0)
#define T_REL32 SH_(TK_REL32, 0, 0)
/* branches: RR/RRE ones do not branch when R2 is 0 */
#define B_RR   (F_BR | SH_(TK_RR, 0, 0))
#define B_RRE  (F_BR | SH_(TK_RRE, 0, 0))
#define B_RX   (F_BR | SH_(TK_RX, 0, 0))
#define B_RXY  (F_BR | SH_(TK_RXY, 0, 0))
#define B_RS   (F_BR | SH_(TK_RS, 0, 0))
#define B_RSY  (F_BR | SH_(TK_RSY, 0, 0))
#define B_REL  (F_BR | F_RE | SH_(TK_REL16, 0, 0))
#define B_RELL (F_BR | F_RE | SH_(TK_REL32, 0, 0))
#define B_IND  (F_BR | SH_(TK_IND, 0, 0))
/* mask-conditional: the mask's nibble (M_3, M_8: compare and branch, bit 3 meaningless) */
#define M_2 SH_(0, MK_2, 0)
#define M_3 SH_(0, MK_3, 0)
#define M_8 SH_(0, MK_8, 0)
/* SS lengths: 8 bits at byte 1 (MVC, PKA), two nibbles (AP), the first nibble (SRP, TP) */
#define LN_L8  SH_(0, 0, LN_8)
#define LN_L44 SH_(0, 0, LN_44)
#define LN_L4  SH_(0, 0, LN_4)

#include "isa/optable.h"
#include "isa/optable_z.h"

/* Every list, in one order: the enum and the info array must agree. */
#define OPS_ALL(Z_) \
    OPS_1(Z_) OPS_370(Z_) OPS_IO(Z_) OPS_01(Z_) OPS_A5(Z_) OPS_A7(Z_) OPS_B2(Z_) \
    OPS_B3(Z_) OPS_B9(Z_) OPS_C0(Z_) OPS_C2(Z_) OPS_C4(Z_) OPS_C6(Z_) OPS_C8(Z_) \
    OPS_CC(Z_) OPS_E3(Z_) OPS_E5(Z_) OPS_E6(Z_) OPS_E7(Z_) OPS_EB(Z_) OPS_EC(Z_) \
    OPS_ED(Z_)

#define ENUM_(m, code, fmt, layout, flags) OP_##m,
enum { OP_UNKNOWN_ = FST_OP_UNKNOWN, OPS_ALL(ENUM_) OP_COUNT_ };

#define SHAPE_(flags) ((uint8_t)((unsigned)(flags) >> 16))
#define NLEN_(flags) \
    (SH_LN(SHAPE_(flags)) == LN_44 ? 2 : SH_LN(SHAPE_(flags)) != LN_NONE ? 1 : 0)
#define INFO_(m, code, fmt, layout, flags) \
    { #m, #code, layout, FST_FMT_##fmt, SHAPE_(flags), NLEN_(flags), 0, (uint16_t)(flags) },
#define INFO370_(m, code, fmt, layout, flags) \
    { #m, #code, layout, FST_FMT_##fmt, SHAPE_(flags), NLEN_(flags), 1, (uint16_t)(flags) },

static const fst_opinfo ops[OP_COUNT_] = {
    { "?", "", "", FST_FMT_UNKNOWN, 0, 0, 0, 0 },
    OPS_1(INFO_) OPS_370(INFO370_) OPS_IO(INFO370_) OPS_01(INFO_) OPS_A5(INFO_)
    OPS_A7(INFO_) OPS_B2(INFO_) OPS_B3(INFO_) OPS_B9(INFO_) OPS_C0(INFO_) OPS_C2(INFO_)
    OPS_C4(INFO_) OPS_C6(INFO_) OPS_C8(INFO_) OPS_CC(INFO_) OPS_E3(INFO_) OPS_E5(INFO_)
    OPS_E6(INFO_) OPS_E7(INFO_) OPS_EB(INFO_) OPS_EC(INFO_) OPS_ED(INFO_)
};

/* ---- lookup tables ---- */

/* Second-level tables: indexed by the 2nd byte, its low nibble, or the 6th byte. */
#define AT_BYTE_(m, code, fmt, layout, flags)   [0x##code & 0xFF] = OP_##m,
#define AT_NIBBLE_(m, code, fmt, layout, flags) [0x##code & 0xF] = OP_##m,
/* 9C00..9F02: two bits of the first byte, two of the second */
#define AT_IO_(m, code, fmt, layout, flags) [((0x##code >> 6) & 0xC) | (0x##code & 3)] = OP_##m,

static const uint16_t t01[256] = { OPS_01(AT_BYTE_) };
static const uint16_t tb2[256] = { OPS_B2(AT_BYTE_) };
static const uint16_t tb3[256] = { OPS_B3(AT_BYTE_) };
static const uint16_t tb9[256] = { OPS_B9(AT_BYTE_) };
static const uint16_t te3[256] = { OPS_E3(AT_BYTE_) };
static const uint16_t te5[256] = { OPS_E5(AT_BYTE_) };
static const uint16_t te6[256] = { OPS_E6(AT_BYTE_) };
static const uint16_t te7[256] = { OPS_E7(AT_BYTE_) };
static const uint16_t teb[256] = { OPS_EB(AT_BYTE_) };
static const uint16_t tec[256] = { OPS_EC(AT_BYTE_) };
static const uint16_t ted[256] = { OPS_ED(AT_BYTE_) };
static const uint16_t ta5[16] = { OPS_A5(AT_NIBBLE_) };
static const uint16_t ta7[16] = { OPS_A7(AT_NIBBLE_) };
static const uint16_t tc0[16] = { OPS_C0(AT_NIBBLE_) };
static const uint16_t tc2[16] = { OPS_C2(AT_NIBBLE_) };
static const uint16_t tc4[16] = { OPS_C4(AT_NIBBLE_) };
static const uint16_t tc6[16] = { OPS_C6(AT_NIBBLE_) };
static const uint16_t tc8[16] = { OPS_C8(AT_NIBBLE_) };
static const uint16_t tcc[16] = { OPS_CC(AT_NIBBLE_) };
static const uint16_t tio[16] = { OPS_IO(AT_IO_) };

/* First level: an op id, or ESC + the index of a second-level table in `sub`. */
enum { ESC = 0x8000 };
enum { WHERE_BYTE1 = 1, WHERE_NIBBLE1 = 2, WHERE_BYTE5 = 5 };
static const struct {
    const uint16_t *tab;
    uint8_t where;
} sub[] = {
    { t01, WHERE_BYTE1 }, { tb2, WHERE_BYTE1 }, { tb3, WHERE_BYTE1 }, { tb9, WHERE_BYTE1 },
    { te5, WHERE_BYTE1 }, { te3, WHERE_BYTE5 }, { teb, WHERE_BYTE5 }, { tec, WHERE_BYTE5 },
    { ted, WHERE_BYTE5 }, { ta5, WHERE_NIBBLE1 }, { ta7, WHERE_NIBBLE1 },
    { tc0, WHERE_NIBBLE1 }, { tc2, WHERE_NIBBLE1 }, { tc4, WHERE_NIBBLE1 },
    { tc6, WHERE_NIBBLE1 }, { tc8, WHERE_NIBBLE1 }, { tcc, WHERE_NIBBLE1 },
    { te6, WHERE_BYTE5 }, { te7, WHERE_BYTE5 },
};

#define AT_FIRST_(m, code, fmt, layout, flags) [0x##code] = OP_##m,
static const uint16_t t1[256] = {
    OPS_1(AT_FIRST_)
    [0x01] = ESC | 0, [0xB2] = ESC | 1, [0xB3] = ESC | 2, [0xB9] = ESC | 3,
    [0xE5] = ESC | 4, [0xE3] = ESC | 5, [0xEB] = ESC | 6, [0xEC] = ESC | 7,
    [0xED] = ESC | 8, [0xA5] = ESC | 9, [0xA7] = ESC | 10, [0xC0] = ESC | 11,
    [0xC2] = ESC | 12, [0xC4] = ESC | 13, [0xC6] = ESC | 14, [0xC8] = ESC | 15,
    [0xCC] = ESC | 16, [0xE6] = ESC | 17, [0xE7] = ESC | 18,
};

/* S/370 meanings of opcodes ESA/390 and z/Architecture reassigned or dropped; 0 when
** the opcode means the same in S/370. */
static unsigned lookup370(const uint8_t *b)
{
    switch (b[0]) {
    case 0x84: return OP_WRD;
    case 0x85: return OP_RDD;
    case 0x9C: case 0x9D: case 0x9E: case 0x9F:
        return b[1] < 4 ? tio[((b[0] & 3u) << 2) | b[1]] : FST_OP_UNKNOWN;
    case 0xB2:
        return b[1] == 0x00 ? OP_CONCS : b[1] == 0x01 ? OP_DISCS : 0;
    default: return 0;
    }
}

static unsigned lookup(const uint8_t *b, int arch)
{
    if (arch == FST_ARCH_S370) {
        unsigned id = lookup370(b);
        if (id || (b[0] >= 0x9C && b[0] <= 0x9F))
            return id;
    }
    unsigned id = t1[b[0]];
    if (id & ESC) {
        unsigned s = id & 0xFF;
        switch (sub[s].where) {
        case WHERE_BYTE1: return sub[s].tab[b[1]];
        case WHERE_NIBBLE1: return sub[s].tab[b[1] & 0xF];
        default: return sub[s].tab[b[5]];
        }
    }
    return id;
}

uint32_t fst_opcode_key(const uint8_t *b)
{
    unsigned id = t1[b[0]];
    if (!(id & ESC))
        return 2u << 16 | b[0];
    unsigned s = id & 0xFF;
    switch (sub[s].where) {
    case WHERE_BYTE1: return 4u << 16 | (unsigned)b[0] << 8 | b[1];
    case WHERE_NIBBLE1: return 3u << 16 | (unsigned)b[0] << 4 | (b[1] & 0xFu);
    default: return 4u << 16 | (unsigned)b[0] << 8 | b[5];
    }
}

void fst_opcode_str(uint32_t key, char out[5])
{
    unsigned w = key >> 16 & 7;
    if (w < 2 || w > 4)
        w = 4;
    for (unsigned i = 0; i < w; i++)
        out[i] = "0123456789ABCDEF"[key >> (4 * (w - 1 - i)) & 0xF];
    out[w] = 0;
}

/* ---- field extraction ---- */

static inline unsigned hi(uint8_t x) { return x >> 4; }
static inline unsigned lo(uint8_t x) { return x & 0xFu; }
static inline unsigned d12(const uint8_t *b, int i) { return (unsigned)lo(b[i]) << 8 | b[i + 1]; }
/* 20-bit signed displacement: DL in bytes 2-3 (low 12 bits), DH in byte 4 */
static inline int32_t d20(const uint8_t *b)
{
    int32_t v = (int32_t)((uint32_t)b[4] << 12 | d12(b, 2));
    return v >= 0x80000 ? v - 0x100000 : v;
}
static inline int32_t s16(const uint8_t *b, int i) { return (int16_t)fst_get_be16(b + i); }
static inline int32_t s32(const uint8_t *b, int i) { return (int32_t)fst_get_be32(b + i); }


/* Whether this instance can branch, and its mask into d->mask (with COND when partial). */
static int branch_mask(fst_insn *d, const uint8_t *t, unsigned shape, unsigned *f)
{
    unsigned mk = SH_MK(shape), m, full = 14; /* compare and branch: mask bit 3 has no CC */
    switch (mk) {
    case MK_NONE: return 1;
    case MK_2: m = hi(t[1]); full = 15; break; /* BCR BC BRC BRCL BIC */
    case MK_3: m = lo(t[1]); break;            /* CIJ CIB */
    default: m = hi(t[4]); break;              /* CRJ CRB */
    }
    d->mask = (uint8_t)m;
    if ((m & full) == 0)
        return 0;
    if ((m & full) != full)
        *f |= FST_I_COND;
    return 1;
}

/* The target when the instruction text alone gives it; 0 if registers are needed. */
static int static_target(const uint8_t *t, unsigned tk, uint64_t addr, uint64_t *tg)
{
    switch (tk) {
    case TK_REL16: *tg = addr + (uint64_t)(2 * (int64_t)s16(t, 2)); return 1;
    case TK_REL32: *tg = addr + (uint64_t)(2 * (int64_t)s32(t, 2)); return 1;
    case TK_RX: *tg = d12(t, 2); return lo(t[1]) == 0 && hi(t[2]) == 0;
    case TK_RXY: *tg = (uint64_t)(int64_t)d20(t); return lo(t[1]) == 0 && hi(t[2]) == 0;
    case TK_RS: *tg = d12(t, 2); return hi(t[2]) == 0;
    case TK_RSY: *tg = (uint64_t)(int64_t)d20(t); return hi(t[2]) == 0;
    default: return 0; /* a register, or BIC's operand in storage */
    }
}

void fst_decode(fst_insn *d, const uint8_t *b, uint64_t addr, uint32_t state)
{
    int len = fst_insn_len(b[0]);
    uint8_t t[6] = { 0 };
    memcpy(t, b, (size_t)len);

    unsigned id = lookup(t, fst_st_arch(state));
    const fst_opinfo *oi = &ops[id];
    unsigned f = oi->flags;

    memcpy(d->bytes, t, sizeof d->bytes);
    d->addr = addr;
    d->target = 0;
    d->op = (uint16_t)id;
    d->len = (uint8_t)len;
    d->fmt = oi->fmt;
    d->link = 0;
    d->mask = 0;

    if (f & (F_BR | F_EX)) {
        unsigned tk = SH_TK(oi->shape);
        int can = (f & F_BR) != 0;
        if (tk == TK_RR)
            can = can && lo(t[1]) != 0;
        else if (tk == TK_RRE)
            can = can && lo(t[3]) != 0;
        can = branch_mask(d, t, oi->shape, &f) && can;
        if (can)
            f |= FST_I_CANBRANCH;
        else
            f &= ~(unsigned)FST_I_COND;
        if (f & F_LK)
            d->link = (uint8_t)hi(t[1]);
        uint64_t tg = 0;
        if (static_target(t, tk, addr, &tg) && (can || (f & F_EX))) {
            d->target = tg & fst_st_amask(state);
            f |= FST_I_TARGET;
        }
    }
    d->flags = (uint16_t)f;
    d->wregs = fst_insn_writes(d);
}

/* Mnemonics of instructions that read their register operands and write none. */
static int writes_none(const char *m)
{
    static const char *const cmp[] = { "C", "CH", "CL", "CR", "CLR", "CLI", "CLC", "CLM", "CG", "CGR", "CLG",
                                       "CLGR", "CHI", "CGHI", "CFI", "CLFI", "CY", "CHY", "CLY", "CLIY", "CLMY",
                                       "TM", "TMY", "TMLL", "TMLH", "TMHL", "TMHH", "CP", "CGF", "CGFR", "CLGF",
                                       "CLGFR", "CGFI", "CLGFI", "CRL", "CGRL", "CLRL", "CLGRL", NULL };
    if (m[0] == 'S' && m[1] == 'T')
        return strcmp(m, "STFLE") && strcmp(m, "STSI");
    for (const char *const *c = cmp; *c; c++)
        if (!strcmp(m, *c))
            return 1;
    return 0;
}

/* What fst_insn_writes asks of an opcode's mnemonic, asked once per opcode (wclass): by
** name at every decode, some 40 compares a decode were three quarters of its time (a job of
** 16 000 tasks, tests/programs/mvsjob.s: its replay decodes about once an instruction, 2.8 G
** host instructions for 1.3 M, a quarter of them in strcmp). */
enum { WC_ALL = 1, WC_NONE = 2, WC_TRT = 4, WC_CMPSC = 8 };
static uint8_t wclass[OP_COUNT_];
static pthread_once_t wclass_once = PTHREAD_ONCE_INIT;

static void wclass_init(void)
{
    for (unsigned i = 1; i < OP_COUNT_; i++) {
        const char *m = ops[i].mnem;
        wclass[i] = (uint8_t)((!strcmp(m, "DIAG") || !strcmp(m, "UPT") ? WC_ALL : 0) | (writes_none(m) ? WC_NONE : 0) |
                              (!strncmp(m, "TRT", 3) ? WC_TRT : 0) | (!strcmp(m, "CMPSC") ? WC_CMPSC : 0));
    }
}

uint16_t fst_insn_writes(const fst_insn *d)
{
    const fst_opinfo *oi = &ops[d->op];
    const uint8_t *t = d->bytes;
    unsigned f = d->flags;
    pthread_once(&wclass_once, wclass_init);
    unsigned wc = d->op < OP_COUNT_ ? wclass[d->op] : 0;
    if (d->op == FST_OP_UNKNOWN || (f & (FST_I_EXECUTE | FST_I_PSW)) || (wc & WC_ALL))
        return t[0] == 0x0A ? (uint16_t)(1u << 0 | 1u << 1 | 1u << 14 | 1u << 15) : 0xFFFF;
    if ((oi->flags & FST_I_BRANCH) && !(oi->flags & (FST_I_LINK | FST_I_COND)) && oi->layout[0] == 'U')
        return 0;   /* BC, BCR, BRC, BRCL...: a mask, not a register (BCT, BXH, BCTR 2,0 count) */
    if (wc & WC_NONE)
        return 0;
    uint16_t w = 0;
    if (f & FST_I_REGLIST) {
        unsigned r1 = hi(t[1]), n = fst_insn_nregs(d);
        for (unsigned k = 0; k < n; k++)
            w |= (uint16_t)(1u << ((r1 + k) & 15));
        return w;
    }
    for (const char *c = oi->layout; c[0] && c[1] && c[2]; c += 3) {
        if (c[0] != 'R')
            continue;
        unsigned p = (unsigned)(c[1] >= 'A' ? c[1] - 'A' + 10 : c[1] - '0'), byte = t[p / 2];
        unsigned r = p & 1 ? lo((uint8_t)byte) : hi((uint8_t)byte);
        w |= (uint16_t)(1u << r | 1u << (r | 1));
    }
    if (wc & WC_TRT)
        w |= 1u << 1 | 1u << 2;
    if (wc & WC_CMPSC)
        w |= 1u << 0 | 1u << 1;
    return w;
}

int fst_insn_lengths(const fst_insn *d, unsigned *l1, unsigned *l2)
{
    const uint8_t *b = d->bytes;
    unsigned a = 0, c = 0;
    switch (SH_LN(ops[d->op].shape)) {
    case LN_8: a = b[1] + 1u; break;
    case LN_44: a = hi(b[1]) + 1u, c = lo(b[1]) + 1u; break;
    case LN_4: a = hi(b[1]) + 1u; break;
    default: break;
    }
    if (l1) *l1 = a;
    if (l2) *l2 = c;
    return ops[d->op].nlen;
}

unsigned fst_insn_nregs(const fst_insn *d)
{
    if (!(d->flags & FST_I_REGLIST))
        return 0;
    return ((lo(d->bytes[1]) - hi(d->bytes[1])) & 0xFu) + 1;
}

/* ---- disassembly: the layout strings of optable.h ---- */

static unsigned nib(const uint8_t *b, unsigned p) { return p & 1 ? lo(b[p / 2]) : hi(b[p / 2]); }

/* w nibbles from nibble p, unsigned */
static uint32_t field(const uint8_t *b, unsigned p, unsigned w)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v = v << 4 | nib(b, p + i);
    return v;
}

static int32_t sfield(const uint8_t *b, unsigned p, unsigned w)
{
    uint32_t v = field(b, p, w), top = 1u << (4 * w - 1);
    return (int32_t)((int64_t)(v ^ top) - (int64_t)top);
}

/* A vector register: the field and its RXB bit (byte 4, low nibble: one bit per field
** position 2, 3, 4, 8). */
static unsigned vreg(const uint8_t *b, unsigned p)
{
    unsigned bit = p == 2 ? 8 : p == 3 ? 4 : p == 4 ? 2 : p == 8 ? 1 : 0;
    return nib(b, p) | ((lo(b[4]) & bit) ? 16u : 0u);
}

static unsigned hexdigit(char c) { return c >= 'A' ? (unsigned)(c - 'A' + 10) : (unsigned)(c - '0'); }

/* One operand of layout code c[0..2] into o; returns the length written. */
static int operand(char *o, size_t n, const char *c, const uint8_t *b)
{
    unsigned p = hexdigit(c[1]), a = c[2] == '-' ? 0 : hexdigit(c[2]);
    unsigned base = nib(b, p), d = field(b, p + 1, 3);
    switch (c[0]) {
    case 'R': return snprintf(o, n, "%u", nib(b, p));
    case 'V': return snprintf(o, n, "%u", vreg(b, p));
    case 'U': return snprintf(o, n, "%lu", (unsigned long)field(b, p, a));
    case 'S': return snprintf(o, n, "%ld", (long)sfield(b, p, a));
    case 'J': return snprintf(o, n, "*%+lld", 2 * (long long)sfield(b, p, a));
    case 'X':
        return c[2] == '-' ? snprintf(o, n, "%u(%u)", d, base)
                           : snprintf(o, n, "%u(%u,%u)", d, nib(b, a), base);
    case 'Y': {
        int32_t d20v = sfield(b, p + 4, 2) * 4096 + (int32_t)d;
        return c[2] == '-' ? snprintf(o, n, "%ld(%u)", (long)d20v, base)
                           : snprintf(o, n, "%ld(%u,%u)", (long)d20v, nib(b, a), base);
    }
    case 'L': return snprintf(o, n, "%u(%u,%u)", d, field(b, a, 2) + 1, base);
    case 'l': return snprintf(o, n, "%u(%u,%u)", d, nib(b, a) + 1, base);
    case 'r': return snprintf(o, n, "%u(%u,%u)", d, nib(b, a), base);
    case 'v': return snprintf(o, n, "%u(%u,%u)", d, vreg(b, a), base);
    default: return snprintf(o, n, "?");
    }
}

int fst_disasm(const fst_insn *d, char *buf, size_t size)
{
    const fst_opinfo *oi = &ops[d->op];
    char o[96];
    size_t n = 0;
    for (const char *c = oi->layout; c[0] && c[1] && c[2] && n + 1 < sizeof o; c += 3) {
        if (n)
            o[n++] = ',';
        int w = operand(o + n, sizeof o - n, c, d->bytes);
        n += w > 0 ? (size_t)w : 0;
        if (n >= sizeof o)
            n = sizeof o - 1;
    }
    o[n] = 0;
    if (!n)
        return snprintf(buf, size, "%s", oi->mnem);
    return snprintf(buf, size, "%s %s", oi->mnem, o);
}

/* ---- table queries ---- */

unsigned fst_op_count(void) { return OP_COUNT_; }

const fst_opinfo *fst_op_info(unsigned op) { return op < OP_COUNT_ ? &ops[op] : NULL; }

int fst_op_find(const char *mnem)
{
    for (unsigned i = 1; i < OP_COUNT_; i++)
        if (!strcasecmp(ops[i].mnem, mnem))
            return (int)i;
    return -1;
}

const char *fst_fmt_name(int fmt)
{
    static const char *const names[FST_FMT_COUNT] = {
        "?", "E", "I", "RR", "RRE", "RRF", "RX", "RXE", "RXF", "RXY", "RS", "RSY", "RSI",
        "RI", "RIL", "RIE", "SI", "SIY", "S", "SS", "SSE", "IE", "MII", "RIS", "RRS", "RSL",
        "SIL", "SMI", "SSF", "VRI", "VRR", "VRS", "VRV", "VRX", "VSI",
    };
    return fmt >= 0 && fmt < FST_FMT_COUNT ? names[fmt] : "?";
}
