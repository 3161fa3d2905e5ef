/* capture/read/tf.c — SDL Hercules trace files to trace.bin events; see tf.h and
** notes/hercules-tf.md (offsets below are that note's, for format 2 with 16-byte time
** stamps: a record body starts at 56). */
#include "capture/read/tf.h"
#include "capture/read/herclog.h" /* fst_psw_parse: TF00809 holds the PSW as text */
#include "common/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXCPU 256
#define SYS_PROBE 72          /* header bytes needed to tell the time-stamp size */
#define MAXREC 65535          /* a record length is 16 bits */

/* Record types read (message numbers). */
enum {
    T_WAITPSW = 800, T_PGM = 801, T_PER = 802, T_PGMLOOP = 803, T_IO370 = 804, T_IO = 806, T_MCHK = 807,
    T_STSTAT = 808, T_DWAIT = 809, T_ARCH = 811, T_VEC = 812, T_SIGP = 814, T_EXT = 840, T_BIO = 844,
    T_BIOEXT = 845, T_SERVSIG = 846, T_VR = 2266, T_GR = 2269, T_FPR = 2270, T_CR = 2271, T_AR = 2272,
    T_FPC = 2276, T_INST = 2324, T_OPER = 2326,
};

/* Body bytes (record minus header) of a type read, -1 for the others: the same in every
** format and time-stamp size (notes §3, §4). */
static int body_of(unsigned type)
{
    switch (type) {
    case T_INST: return 56;
    case T_OPER: return 88;
    case T_GR: case T_FPR: return 136;
    case T_CR: return 128;
    case T_AR: return 64;
    case T_FPC: case T_ARCH: case T_SERVSIG: return 8;
    case T_VR: return 512;
    case T_WAITPSW: return 48;
    case T_PGM: case T_PER: case T_IO370: case T_IO: case T_EXT: case T_BIOEXT: return 16;
    case T_PGMLOOP: case T_DWAIT: return 40;
    case T_MCHK: case T_SIGP: case T_BIO: return 24;
    case T_STSTAT: case T_VEC: return 0;
    default: return -1;
    }
}

/* Per CPU: the instruction group being read (its records come before its TF02324). */
typedef struct tcpu {
    uint8_t open;        /* a TF02326 was read: the group is open */
    uint8_t seen;        /* a group was closed: from now on every group has its TF02326 */
    uint8_t have_cr1;
    uint8_t nop;         /* operands shown (0-2): address, bytes (0: a translation exception) */
    uint8_t opn[2];
    uint64_t open_at;    /* byte offset of the group's TF02326 */
    uint64_t opaddr[2];
    uint8_t opdata[2][16];
    uint64_t cr1;
    uint8_t have_gr;
    uint64_t gr[16];     /* the group's general registers (TF02269) */
} tcpu;

struct fst_tf {
    fst_em *em;
    char *name;
    fst_tf_stats st;
    int have_sys;
    int tail_sys;             /* the header was read again at the end (a writer that cannot seek) */
    uint8_t sys16[16];        /* the header's first bytes, to know it again */
    size_t syssize, hdrsize;  /* TFSYS, TFHDR */
    int be;
    uint64_t off;             /* byte offset of the next unit (header or record) */
    unsigned prev;            /* length of the last record, 0 before the first */
    int64_t tod_sec, tod_usec; /* time stamp of the last record */
    int64_t last_sec;         /* TIME: the last second converted, and its seconds of day */
    uint32_t last_day_secs;
    uint8_t *buf;             /* a unit that arrived in pieces */
    size_t blen, want;
    tcpu cpus[MAXCPU];
};

static uint16_t g16(const fst_tf *t, const uint8_t *p)
{
    return t->be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[0] | p[1] << 8);
}
static uint32_t g32(const fst_tf *t, const uint8_t *p)
{
    return t->be ? fst_get_be32(p) : fst_get_le32(p);
}
static uint64_t g64(const fst_tf *t, const uint8_t *p)
{
    return t->be ? (uint64_t)fst_get_be32(p) << 32 | fst_get_be32(p + 4) : fst_get_le64(p);
}
/* A time stamp: two longs of tvsize/2 bytes each. */
static void gtime(const fst_tf *t, const uint8_t *p, int64_t *sec, int64_t *usec)
{
    if (t->st.tvsize == 16) {
        *sec = (int64_t)g64(t, p);
        *usec = (int64_t)g64(t, p + 8);
    } else {
        *sec = (int32_t)g32(t, p);
        *usec = (int32_t)g32(t, p + 4);
    }
}

fst_tf *fst_tf_new(fst_em *em, const char *name)
{
    fst_tf *t = fst_xcalloc(1, sizeof *t);
    t->em = em;
    fst_em_regs_order(em, FST_EM_REGS_BEFORE); /* a group's registers come before its instruction */
    t->name = fst_xstrdup(name);
    t->st.format = -1;
    t->st.arch = FST_ARCH_UNKNOWN;
    t->last_sec = -1;
    t->buf = fst_xmalloc(MAXREC + 1);
    return t;
}

void fst_tf_free(fst_tf *t)
{
    if (!t)
        return;
    free(t->buf);
    free(t->name);
    free(t);
}

const fst_tf_stats *fst_tf_getstats(const fst_tf *t) { return &t->st; }

int fst_tf_magic(const void *p, size_t n)
{
    if (n < 3)
        return -1;
    return !memcmp(p, "%TF", 3);
}

static int bad(fst_tf *t, uint64_t at, fst_err *err, const char *what)
{
    return fst_errf(err, "%s: byte %llu: %s", t->name, (unsigned long long)at, what);
}

static void warn(fst_tf *t, uint64_t at, const char *what)
{
    if (!t->st.warnings++)
        snprintf(t->st.first_warning, sizeof t->st.first_warning, "byte %llu: %s", (unsigned long long)at, what);
}

/* ---- the file header (TFSYS) ---- */

/* The first 16 bytes: magic, format, byte order, engines, architectures. */
static int sys_fixed(fst_tf *t, const uint8_t *p, fst_err *err)
{
    char m[120];
    if (memcmp(p, "%TF", 3))
        return bad(t, 0, err, "not an SDL Hercules trace file (it does not begin with %TF)");
    if (p[3] < '0' || p[3] > '2') {
        snprintf(m, sizeof m, "trace file format '%c' (0x%02X); this reader knows formats 0-2 (Hercules 4.6-4.9)",
                 p[3] >= 0x20 && p[3] < 0x7F ? p[3] : '?', p[3]);
        return bad(t, 3, err, m);
    }
    if (p[4] > 1) {
        snprintf(m, sizeof m, "byte-order flag %u, not 0 (little-endian) or 1 (big-endian)", p[4]);
        return bad(t, 4, err, m);
    }
    if (p[5] == 0)
        return bad(t, 5, err, "the header says the writer had 0 CPU engines");
    t->st.format = p[3] - '0';
    t->be = t->st.bigend = p[4];
    t->st.engs = p[5];
    static const uint16_t archnum[3] = { 370, 390, 900 };
    for (int i = 0; i < 3; i++)
        if (g16(t, p + 6 + 2 * i) != archnum[i]) {
            snprintf(m, sizeof m, "architecture number %u, not %u (a damaged header, or the other byte order)",
                     g16(t, p + 6 + 2 * i), archnum[i]);
            return bad(t, 6 + 2u * (unsigned)i, err, m);
        }
    return 0;
}

/* Printable ASCII then NULs to the end of the field: the version text. */
static long text_field(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && p[i] >= 0x20 && p[i] < 0x7F)
        i++;
    size_t len = i;
    while (i < n && p[i] == 0)
        i++;
    return i == n ? (long)len : -1 - (long)i;
}

/* The version text sits after the two time stamps and two counts: where it begins says
** the stamps' size. 48 is tried first: with 16-byte stamps it holds the instruction count,
** never 8 printable bytes. */
static int sys_layout(fst_tf *t, const uint8_t *p, fst_err *err)
{
    t->st.tvsize = text_field(p + 48, 8) == 8 ? 8 : text_field(p + 64, 8) == 8 ? 16 : 0;
    if (!t->st.tvsize)
        return bad(t, 64, err, "no Hercules version text at byte 64 (nor 48): not a trace file header");
    t->syssize = 16 + 2 * (size_t)t->st.tvsize + 16 + 128 + ((t->st.engs + 7u) & ~7u);
    t->hdrsize = 8 + (size_t)t->st.tvsize + 8 + (t->st.format >= 2 ? 24 : 0);
    return 0;
}

static int sys_rest(fst_tf *t, const uint8_t *p, fst_err *err)
{
    size_t tv = (size_t)t->st.tvsize, vo = 16 + 2 * tv + 16;
    gtime(t, p + 16, &t->st.beg_sec, &t->st.beg_usec);
    gtime(t, p + 16 + tv, &t->st.end_sec, &t->st.end_usec);
    if (t->st.beg_usec < 0 || t->st.beg_usec >= 1000000)
        return bad(t, t->off + 16, err, "begin time stamp with impossible microseconds");
    if (t->st.end_usec < 0 || t->st.end_usec >= 1000000)
        return bad(t, t->off + 16 + tv, err, "end time stamp with impossible microseconds");
    t->st.closed = t->st.end_sec != 0 || t->st.end_usec != 0;
    t->st.hdr_insns = g64(t, p + 16 + 2 * tv);
    t->st.hdr_dev = g64(t, p + 24 + 2 * tv);
    long vl = text_field(p + vo, 128);
    if (vl < 0)
        return bad(t, t->off + vo + (uint64_t)(-1 - vl), err, "the Hercules version text holds a byte that is not text");
    char v[129];
    memcpy(v, p + vo, (size_t)vl);
    v[vl] = 0;
    const char *k = strstr(v, "version "); /* "HHC01413I Hercules version 4.9.0..." */
    snprintf(t->st.hercules, sizeof t->st.hercules, "%.*s", (int)sizeof t->st.hercules - 1, k ? k + 8 : v);
    for (size_t i = vo + 128; i < t->syssize; i++)
        if (p[i] > 15) {
            char m[80];
            snprintf(m, sizeof m, "processor type %u of CPU %zu (types are 0-5)", p[i], i - vo - 128);
            return bad(t, t->off + i, err, m);
        }
    return 0;
}

/* The header in one unit: returns 1 when read (*used its size), 0 when more bytes are
** needed (*used how many), -1 on error. */
static int sys_unit(fst_tf *t, const uint8_t *p, size_t have, size_t *used, fst_err *err)
{
    if (have < 3 || (have < 16 && memcmp(p, "%TF", 3))) {
        *used = 16;
        return have < 3 ? 0 : sys_fixed(t, p, err);
    }
    if (have < 16) {
        *used = 16;
        return 0;
    }
    if (t->st.format < 0 && sys_fixed(t, p, err))
        return -1;
    if (have < SYS_PROBE) {
        *used = SYS_PROBE;
        return 0;
    }
    if (!t->syssize && sys_layout(t, p, err))
        return -1;
    *used = t->syssize;
    if (have < t->syssize)
        return 0;
    if (sys_rest(t, p, err))
        return -1;
    memcpy(t->sys16, p, 16);
    t->have_sys = 1;
    return 1;
}

/* A writer that cannot seek back to rewrite its header (a pipe, a FIFO) may append it
** instead: a header where a record would begin is the file's final header, and the end. */
static int tail_sys_unit(fst_tf *t, const uint8_t *p, size_t have, size_t *used, fst_err *err)
{
    *used = t->syssize;
    if (have < 16 || memcmp(p, t->sys16, 12)) /* bytes 12-15 are padding, not set */
        return have < 16 ? 0 : bad(t, t->off, err, "a header that is not this file's where a record should begin");
    if (have < t->syssize)
        return 0;
    if (sys_rest(t, p, err))
        return -1;
    t->tail_sys = 1;
    return 1;
}

/* ---- records ---- */

/* Hercules' internal PSW at p (notes §2.3) as the architected PSW it displays: returns
** the length, 8 or 16. The flags are the record's copies of the bit fields. */
static int make_psw(const fst_tf *t, const uint8_t *p, int arch, int amode64, int amode, int zeroilc, uint8_t out[16])
{
    uint64_t ia = g64(t, p + 16);
    uint8_t cc = p[4] & 3, pm = p[5] & 0x0F;
    out[0] = p[0];
    out[1] = (uint8_t)((p[1] & 0xF0) | (p[2] & 0x0F));
    if (arch == FST_ARCH_S370 && !(p[2] & 0x08)) { /* S/370 BC: interruption code, ILC */
        uint16_t ic = g16(t, p + 32);
        unsigned ilc = zeroilc ? 0 : p[34];
        out[2] = (uint8_t)(ic >> 8);
        out[3] = (uint8_t)ic;
        out[4] = (uint8_t)((ilc >> 1) << 6 | cc << 4 | pm);
        out[5] = (uint8_t)(ia >> 16);
        out[6] = (uint8_t)(ia >> 8);
        out[7] = (uint8_t)ia;
        return 8;
    }
    out[2] = (uint8_t)((p[3] & 0xC0) | cc << 4 | pm);
    out[3] = p[6];
    if (arch == FST_ARCH_ZARCH) {
        out[3] |= amode64 ? 1 : 0;
        fst_put_be32(out + 4, amode ? 0x80000000u : 0);
        fst_put_be32(out + 8, (uint32_t)(ia >> 32));
        fst_put_be32(out + 12, (uint32_t)ia);
        return 16;
    }
    fst_put_be32(out + 4, amode ? 0x80000000u | (uint32_t)(ia & 0x7FFFFFFF) : (uint32_t)(ia & 0xFFFFFF));
    return 8;
}

/* The record's time stamp as a TIME record (seconds since local midnight, as a log's
** HH:MM:SS), unless it is implausible. */
static void stamp(fst_tf *t, const uint8_t *r)
{
    int64_t sec, usec;
    gtime(t, r + 8, &sec, &usec);
    if (usec < 0 || usec >= 1000000 || sec < t->st.beg_sec - 1 || (t->st.closed && sec > t->st.end_sec + 1)) {
        warn(t, t->off + 8, "a record's time stamp lies outside the trace's times (not used)");
        return;
    }
    if (sec != t->last_sec) {
        time_t tt = (time_t)sec;
        struct tm tm;
        if (!localtime_r(&tt, &tm))
            return;
        t->last_sec = sec;
        t->last_day_secs = (uint32_t)(tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
    }
    fst_em_time(t->em, t->last_day_secs);
}

/* TF02326: the first storage operand shown (operand 1 when it has one, else 2), as a
** text trace's first R:/V: line; nothing for a translation exception or no storage. */
static int operands(fst_tf *t, tcpu *c, const uint8_t *b, fst_err *err)
{
    int16_t b1 = (int16_t)g16(t, b + 4), b2 = (int16_t)g16(t, b + 6);
    if (b1 < -1 || b1 > 15 || b2 < -1 || b2 > 15)
        return bad(t, t->off + t->hdrsize + (b1 < -1 || b1 > 15 ? 4 : 6), err,
                   "operand record with a base register outside -1..15");
    c->nop = 0;
    if (!b[0])
        return 0;
    for (int k = 0; k < 2; k++) { /* operand 1, then operand 2: as the text trace shows them */
        const uint8_t *op = b + 8 + 40 * k;
        if ((k ? b2 : b1) < 0)
            continue;
        if (op[35] > 16)
            return bad(t, t->off + (uint64_t)(op + 35 - b) + t->hdrsize, err, "operand record shows more than 16 bytes");
        unsigned i = c->nop++;
        c->opaddr[i] = g64(t, op);
        c->opn[i] = g16(t, op + 32) ? 0 : op[35];
        memcpy(c->opdata[i], op + 16, c->opn[i]);
    }
    return 0;
}

static void close_group(tcpu *c)
{
    c->open = 0;
    c->seen = 1;
    c->have_cr1 = 0;
    c->have_gr = 0;
    c->nop = 0;
}

/* TF02324 closes the CPU's group: one instruction. */
static int insn(fst_tf *t, tcpu *c, const uint8_t *r, const uint8_t *b, unsigned cpu, int arch, fst_err *err)
{
    unsigned ilc = b[44];
    if ((ilc != 2 && ilc != 4 && ilc != 6) || fst_insn_len(b[48]) != (int)ilc) {
        char m[100];
        snprintf(m, sizeof m, "instruction length %u does not fit its first byte %02X", ilc, b[48]);
        return bad(t, t->off + t->hdrsize + 44, err, m);
    }
    uint8_t psw[16];
    int pl = make_psw(t, b, arch, b[40], b[41], b[42], psw);
    fst_em_cpu(t->em, cpu);
    stamp(t, r);
    if (c->have_cr1 && (psw[0] & 0x04) && (arch != FST_ARCH_S370 || (psw[1] & 0x08))) /* DAT on */
        fst_em_cr1(t->em, c->cr1);  /* written before the instruction (emit.h) */
    for (unsigned g = 0; c->have_gr && g < 16; g++)
        fst_em_gr(t->em, g, arch == FST_ARCH_ZARCH ? c->gr[g] : c->gr[g] & 0xFFFFFFFFu);
    if (fst_em_insn(t->em, psw, pl, arch, b + 48, (int)ilc))
        for (unsigned i = 0; i < c->nop; i++)
            fst_em_operand(t->em, c->opaddr[i], c->opdata[i], c->opn[i]);
    close_group(c);
    t->st.groups++;
    return 0;
}

/* A CPU's event record (TF008xx): between instruction groups, never inside one. */
static int event(fst_tf *t, tcpu *c, const uint8_t *r, const uint8_t *b, unsigned type, unsigned cpu, int arch,
                 fst_err *err)
{
    if (c->open) {
        char m[120];
        snprintf(m, sizeof m, "TF%05u of CPU %u inside the instruction group that begins at byte %llu", type, cpu,
                 (unsigned long long)c->open_at);
        return bad(t, t->off, err, m);
    }
    if (type == T_ARCH) {
        char a[9] = { 0 };
        memcpy(a, b, 8);
        int k = fst_arch_parse(a);
        t->st.arch = k >= 0 ? k : t->st.arch;
        return 0;
    }
    if (type == T_SIGP) { /* no record; it may stop or start a CPU (capture/read/progend.h) */
        fst_em_cpu(t->em, cpu);
        fst_em_sigp(t->em, g16(t, b), b[2], b[3]);
        return 0;
    }
    if (type == T_PER || type == T_PGMLOOP || type == T_STSTAT || type == T_VEC)
        return 0; /* a PER event or a loop shows in the program check; the others change no stream */
    fst_em_cpu(t->em, cpu);
    stamp(t, r);
    uint8_t psw[16];
    switch (type) {
    case T_WAITPSW:
        fst_em_wait(t->em, 0, psw, (unsigned)make_psw(t, b, arch, b[40], b[41], b[42], psw));
        break;
    case T_DWAIT: { /* the PSW as Hercules' message shows it */
        char txt[41] = { 0 };
        memcpy(txt, b, 40);
        int pl = fst_psw_parse(txt, strlen(txt), psw);
        fst_em_wait(t->em, 1, pl ? psw : NULL, (unsigned)pl);
        break;
    }
    case T_PGM: fst_em_pgmchk(t->em, g16(t, b), b[3]); break;
    case T_IO370: fst_em_intr(t->em, FST_INTR_IO, g16(t, b + 8)); break; /* the device */
    case T_IO: fst_em_intr(t->em, FST_INTR_IO, g32(t, b)); break;        /* subsystem id word */
    case T_MCHK: fst_em_intr(t->em, FST_INTR_MCHK, 0); break;
    case T_EXT: case T_BIO: fst_em_intr(t->em, FST_INTR_EXT, g16(t, b + 8)); break;
    case T_BIOEXT: fst_em_intr(t->em, FST_INTR_EXT, 0x2603); break;
    case T_SERVSIG: fst_em_intr(t->em, FST_INTR_EXT, 0x2401); break;
    }
    return 0;
}

/* A whole record of a CPU, its length checked. */
static int cpu_record(fst_tf *t, const uint8_t *r, unsigned cpu, unsigned type, fst_err *err)
{
    tcpu *c = &t->cpus[cpu];
    const uint8_t *b = r + t->hdrsize;
    int arch = r[8 + t->st.tvsize];
    if (arch > FST_ARCH_ZARCH) {
        char m[80];
        snprintf(m, sizeof m, "architecture mode %d of CPU %u (0 S/370, 1 ESA/390, 2 z/Arch)", arch, cpu);
        return bad(t, t->off + 8 + (uint64_t)t->st.tvsize, err, m);
    }
    t->st.arch = arch;
    char m[120];
    switch (type) {
    case T_OPER:
        if (c->open) {
            snprintf(m, sizeof m, "a second operand record of CPU %u before the instruction of the one at byte %llu",
                     cpu, (unsigned long long)c->open_at);
            return bad(t, t->off, err, m);
        }
        c->open = 1;
        c->open_at = t->off;
        return operands(t, c, b, err);
    case T_INST:
        if (!c->open && c->seen) {
            snprintf(m, sizeof m, "instruction record of CPU %u without its operand record (TF02326)", cpu);
            return bad(t, t->off, err, m);
        }
        return insn(t, c, r, b, cpu, arch, err);
    case T_GR:
        if (b[0]) { /* instruction fetch error: a re-display with no instruction, instead of a TF02324 */
            fst_em_cpu(t->em, cpu);
            stamp(t, r);
            fst_em_fetch_error(t->em);
            close_group(c);
            t->st.fetch_errors++;
            return 0;
        }
        /* fall through */
    case T_CR: case T_FPR: case T_AR: case T_FPC: case T_VR:
        if (!c->open && c->seen) {
            snprintf(m, sizeof m, "register record TF%05u of CPU %u outside an instruction group", type, cpu);
            return bad(t, t->off, err, m);
        }
        if (type == T_CR) {
            c->cr1 = g64(t, b + 8);
            c->have_cr1 = 1;
        }
        if (type == T_GR) {
            for (int g = 0; g < 16; g++)
                c->gr[g] = g64(t, b + 8 + 8 * g);
            c->have_gr = 1;
        }
        return 0;
    default:
        return event(t, c, r, b, type, cpu, arch, err);
    }
}

/* One record: 1 when read (*used its length), 0 when more bytes are needed (*used how
** many), -1 on error. Lengths and links are checked from the first 8 bytes, so that a
** damaged length is an error here, not a wait for bytes that never come. */
static int rec_unit(fst_tf *t, const uint8_t *r, size_t have, size_t *used, fst_err *err)
{
    *used = 8;
    if (have < 8)
        return 0;
    if (!memcmp(r, "%TF", 3))
        return tail_sys_unit(t, r, have, used, err);
    unsigned prev = g16(t, r), len = g16(t, r + 2), cpu = g16(t, r + 4), type = g16(t, r + 6);
    char m[160];
    if (len < t->hdrsize || len % 8) {
        snprintf(m, sizeof m, "record length %u is impossible (a header is %zu bytes, a record a multiple of 8)", len,
                 t->hdrsize);
        return bad(t, t->off + 2, err, m);
    }
    if (t->st.records && prev != t->prev) {
        snprintf(m, sizeof m, "the record says the one before it has %u bytes; it had %u", prev, t->prev);
        return bad(t, t->off, err, m);
    }
    int body = cpu == 0xFFFF ? -1 : body_of(type);
    if (cpu != 0xFFFF && cpu >= t->st.engs) {
        snprintf(m, sizeof m, "CPU address %u, but the writer had %u engines", cpu, t->st.engs);
        return bad(t, t->off + 4, err, m);
    }
    if (body >= 0 && len != t->hdrsize + (unsigned)body) {
        snprintf(m, sizeof m, "TF%05u record of %u bytes; it has %zu", type, len, t->hdrsize + (unsigned)body);
        return bad(t, t->off + 2, err, m);
    }
    *used = len;
    if (have < len)
        return 0;
    gtime(t, r + 8, &t->tod_sec, &t->tod_usec);
    if (!t->st.records && (t->tod_sec != t->st.beg_sec || t->tod_usec != t->st.beg_usec))
        warn(t, 16, "the header's begin time is not that of the first record");
    if (cpu == 0xFFFF)
        t->st.device++;
    else if (body < 0) {
        if (!t->st.unknown++) {
            t->st.first_unknown_at = t->off;
            t->st.first_unknown_type = type;
        }
    } else if (cpu_record(t, r, cpu, type, err))
        return -1;
    t->prev = len;
    t->st.records++;
    return 1;
}

/* ---- the stream ---- */

static int unit(fst_tf *t, const uint8_t *p, size_t have, size_t *used, fst_err *err)
{
    if (t->tail_sys)
        return bad(t, t->off, err, "bytes after the header written again at the end");
    int rc = t->have_sys ? rec_unit(t, p, have, used, err) : sys_unit(t, p, have, used, err);
    if (rc > 0) {
        t->off += *used;
        t->st.bytes = t->off;
    }
    return rc;
}

static int em_done(fst_tf *t, fst_err *err)
{
    if (!fst_em_failed(t->em))
        return 0;
    return bad(t, t->off, err, "cannot write the trace (disk full?)");
}

int fst_tf_feed(fst_tf *t, const void *data, size_t n, fst_err *err)
{
    const uint8_t *p = data;
    size_t used;
    int rc;
    while (t->blen) { /* a unit that began in an earlier feed */
        size_t take = t->want - t->blen < n ? t->want - t->blen : n;
        memcpy(t->buf + t->blen, p, take);
        t->blen += take;
        p += take;
        n -= take;
        if (t->blen < t->want)
            return em_done(t, err);
        if ((rc = unit(t, t->buf, t->blen, &used, err)) < 0)
            return -1;
        if (rc)
            t->blen = 0;
        else
            t->want = used;
    }
    while (n) {
        if ((rc = unit(t, p, n, &used, err)) < 0)
            return -1;
        if (!rc) { /* keep the start of the unit for the next feed */
            memcpy(t->buf, p, n);
            t->blen = n;
            t->want = used;
            break;
        }
        p += used;
        n -= used;
    }
    return em_done(t, err);
}

int fst_tf_finish(fst_tf *t, fst_err *err)
{
    if (t->blen || !t->have_sys) {
        t->st.cut = 1;
        t->st.cut_at = t->off;
        t->st.bytes = t->off + t->blen;
    }
    fst_em_finish(t->em);
    return em_done(t, err);
}

int fst_tf_complete(const fst_tf *t, char *why, size_t cap)
{
    const fst_tf_stats *st = &t->st;
    if (st->cut)
        snprintf(why, cap, "cut short inside %s at byte %llu", t->have_sys ? "a record" : "the header",
                 (unsigned long long)st->cut_at);
    else if (!st->closed)
        snprintf(why, cap, "Hercules never closed the file (its header has no end time: killed before 'tf OFF' "
                           "or shutdown?)");
    else if (st->hdr_insns != st->groups)
        snprintf(why, cap, "its header counts %llu instructions, the file holds %llu (cut short at a record "
                           "boundary, or a second 'tf ON' in one Hercules session: the counts go on)",
                 (unsigned long long)st->hdr_insns, (unsigned long long)st->groups);
    else if (t->tod_sec != st->end_sec || t->tod_usec != st->end_usec)
        snprintf(why, cap, "its header's end time is not that of its last record (cut short at a record boundary?)");
    else if (st->hdr_dev != st->device)
        snprintf(why, cap, "its header counts %llu device records, the file holds %llu",
                 (unsigned long long)st->hdr_dev, (unsigned long long)st->device);
    else
        return 1;
    return 0;
}
