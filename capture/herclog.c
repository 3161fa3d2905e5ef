/* capture/herclog.c — Hercules log parser; see herclog.h for what it accepts. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "capture/herclog.h"
#include "common/bytes.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCPU 256

/* Messages that carry events (rare lines: PCRE2, compiled once). */
enum {
    RX_PGM313, RX_PGM4, RX_WAIT313, RX_DWAIT313, RX_WAIT4, RX_DWAIT4, RX_ARCH, RX_IO, RX_EXT,
    RX_TRACING, RX_TRACEOPT, RX_VERSION, RX_MESSAGE, RX_DISASM, RX_SIGP313, RX_BANNER, RX_COMMAND, RX_N
};
static const char *const rx_src[RX_N] = {
    [RX_PGM313] = "^HHCCP014I (?:SIE: )?CPU([0-9A-F]{4}): .*? CODE=([0-9A-F]{4}) ILC=(\\d)",
    [RX_PGM4] = "^HHC00801I Processor [A-Z?]{2}([0-9A-F]{2}): (?:SIE: )?.*? code ([0-9A-F]{4}) +ilc (\\d)",
    [RX_WAIT313] = "^HHCCP043I Wait state PSW loaded: PSW=([0-9A-F ]+)",
    [RX_DWAIT313] = "^HHCCP011I CPU([0-9A-F]{4}): Disabled wait state",
    [RX_WAIT4] = "^HHC00800I Processor [A-Z?]{2}([0-9A-F]{2}): loaded wait state PSW ([0-9A-F ]+)",
    [RX_DWAIT4] = "^HHC00809I Processor [A-Z?]{2}([0-9A-F]{2}): disabled wait state ([0-9A-F ]+)",
    [RX_ARCH] = "^(?:HHCCP00[37]I CPU([0-9A-F]{4}) architecture mode(?: set to)?|"
                "HHC00811I Processor [A-Z?]{2}([0-9A-F]{2}): architecture mode) (S/370|ESA/390|z/Arch)",
    [RX_IO] = "^HHC\\w{5}I (?:Processor [A-Z?]{2}[0-9A-F]{2}: )?I/O interrupt code[= ]?([0-9A-F]+)",
    [RX_EXT] = "^HHC\\w{5}I (?:Processor [A-Z?]{2}[0-9A-F]{2}: )?External interrupt: (.*)",
    [RX_TRACING] = "^(?:HHCPN040I|HHC02229I) Instruction tracing (on|off)(?: range (\\S+))?",
    [RX_TRACEOPT] = "^(?:HHCPN162I Hercules instruction trace displayed in (\\w+) mode|"
                    "HHC02204I TRACEOPT +set to (\\w+))",
    [RX_VERSION] = "^(?:Hercules Version |HHC01413I Hercules version )(\\S+)",
    [RX_MESSAGE] = "^HHC[A-Z0-9]{5}[IWESDA]\\b",
    [RX_DISASM] = "^(?:[A-Z][A-Z0-9]{0,7}|\\?{5}) +\\S+ +[a-z0-9_?]+ *$",
    [RX_SIGP313] = "^CPU[0-9A-F]{4}: SIGP ",
    /* 3.13's start-up banner, and the commands Hercules echoes from a script or the console */
    [RX_BANNER] = "^(?:Hercules Version |\\(c\\)Copyright |Built on |Build information:|Running on |Crypto module loaded)",
    [RX_COMMAND] = "^(?:hao|traceopt|t[+?-]?|s[+?-]?|ipl|iplc|log|logopt|quit|exit|pgmtrace|ostailor|archmode|"
                   "sysclear|sysreset|restart|stop|start|stopall|startall|g|msg|script|tf|tfswap|maxrates|"
                   "numcpu|loadcore|savecore|store|psw|gpr|cr|devlist|attach|detach|pause)(?: .*)?$",
};

/* What the storage-operand line of a CPU's last instruction is wanted for. */
enum { AW_NONE, AW_LPSW, AW_LPSWE, AW_LCTL, AW_LCTLG };
/* A record that waits for its instruction to complete (a program check drops it). */
enum { PD_NONE, PD_LPSW, PD_CR1 };

/* Per CPU: multi-CPU logs interleave the lines of several CPUs. */
typedef struct hcpu {
    uint8_t redisplay;  /* a program check was announced: the next PSW line is a copy */
    uint8_t await;      /* AW_*: the last instruction written wants its operand line */
    uint8_t r1, r3;     /* LCTL/LCTLG: the registers loaded */
    uint8_t pend;       /* PD_* */
    uint8_t pswlen;     /* PD_LPSW */
    uint8_t psw[16];
    uint64_t pval;      /* PD_LPSW: operand address; PD_CR1: the value loaded */
    uint8_t pgm;        /* a program check announced after the pending record, held back */
    uint8_t pgm_ilc;
    uint32_t pgm_code;
    uint8_t have_cr1;
    uint64_t cr1;       /* the last CR1 value written for this CPU */
} hcpu;

struct fst_hlog {
    fst_tw *w;
    char *name;
    fst_hlog_stats st;
    uint64_t max_insns;
    pcre2_code *rx[RX_N];
    pcre2_match_data *md;
    unsigned cpu;
    hcpu cpus[MAXCPU];
    int regs_pending;           /* register lines seen since the last PSW line */
    int saw_regs_first, saw_regs_after, saw_psw;
    uint32_t last_secs;
    char *part;                 /* partial line carried between feeds */
    size_t plen, pcap;
    int werr;
};

/* hex digit value + 1, 0 for anything else: a table, because every PSW line has 24-48 */
static const unsigned char hexv1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};
static inline int hexval(int c) { return (int)hexv1[c & 0xFF] - 1; }

/* Count of hex digits at s (up to n). */
static size_t hexrun(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && hexval((unsigned char)s[i]) >= 0)
        i++;
    return i;
}

static void hexbytes(const char *s, size_t ndig, uint8_t *out)
{
    for (size_t i = 0; i + 1 < ndig + 1 && i < ndig; i += 2)
        out[i / 2] = (uint8_t)(hexval((unsigned char)s[i]) << 4 | hexval((unsigned char)s[i + 1]));
}

int fst_psw_parse(const char *s, size_t n, uint8_t psw[16])
{
    /* 3.13: 8 8 [16]   4.x: 16 [16] */
    size_t i = 0, a = hexrun(s, n), got = 0;
    if (a == 8) {
        hexbytes(s, 8, psw);
        i = 8;
        if (i + 9 > n || s[i] != ' ' || hexrun(s + i + 1, n - i - 1) != 8)
            return 0;
        hexbytes(s + i + 1, 8, psw + 4);
        i += 9;
        got = 8;
    } else if (a == 16) {
        hexbytes(s, 16, psw);
        i = 16;
        got = 8;
    } else
        return 0;
    if (i + 17 <= n && s[i] == ' ' && hexrun(s + i + 1, n - i - 1) == 16) {
        hexbytes(s + i + 1, 16, psw + 8);
        got = 16;
    }
    return (int)got;
}

uint64_t fst_psw_ia(const uint8_t *p, int len)
{
    if (len == 16) {
        uint64_t ia = 0;
        for (int i = 8; i < 16; i++)
            ia = ia << 8 | p[i];
        return ia;
    }
    uint32_t w = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
    if (!(p[1] & 0x08))          /* S/370 BC mode: 24-bit address in bytes 5-7 */
        return w & 0x00FFFFFF;
    return (w & 0x80000000u) ? (w & 0x7FFFFFFF) : (w & 0x00FFFFFF);
}

uint32_t fst_psw_state(const uint8_t *p, int len, int arch)
{
    uint32_t st = 0;
    if (len == 16)
        arch = FST_ARCH_ZARCH;
    else if (arch == FST_ARCH_ZARCH)
        arch = FST_ARCH_ESA390;  /* an 8-byte PSW: the switch to z has not happened yet */
    st |= (uint32_t)arch;
    int ec = (p[1] & 0x08) != 0;
    if (ec)
        st |= FST_ST_EC;
    if (len == 16)
        st |= (uint32_t)(((p[3] & 1) && (p[4] & 0x80)) ? 2 : (p[4] & 0x80) ? 1 : 0) << FST_ST_AMODE_SHIFT;
    else if (ec && (p[4] & 0x80))
        st |= 1u << FST_ST_AMODE_SHIFT;
    if (p[1] & 0x01) st |= FST_ST_PROBLEM;
    if (p[1] & 0x02) st |= FST_ST_WAIT;
    if (p[1] & 0x04) st |= FST_ST_MCMASK;
    st |= (uint32_t)(p[1] >> 4) << FST_ST_KEY_SHIFT;
    if (ec) {
        if (p[0] & 0x04) st |= FST_ST_DAT;
        if (p[0] & 0x02) st |= FST_ST_IOMASK;
        if (p[0] & 0x01) st |= FST_ST_EXTMASK;
        if (arch != FST_ARCH_S370)
            st |= (uint32_t)(p[2] >> 6) << FST_ST_ASC_SHIFT;
    } else {
        if (p[0] & 0xFE) st |= FST_ST_IOMASK;  /* BC mode: channel masks */
        if (p[0] & 0x01) st |= FST_ST_EXTMASK;
    }
    return st;
}

fst_hlog *fst_hlog_new(fst_tw *w, const char *name, int arch, uint64_t max_insns)
{
    fst_hlog *h = fst_xcalloc(1, sizeof *h);
    h->w = w;
    h->name = fst_xstrdup(name);
    h->max_insns = max_insns;
    h->st.arch = arch;
    for (int i = 0; i < RX_N; i++) {
        int ec;
        PCRE2_SIZE eo;
        h->rx[i] = pcre2_compile((PCRE2_SPTR)rx_src[i], PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
        if (!h->rx[i])
            fst_die("internal: log pattern %d does not compile at %zu", i, (size_t)eo);
        pcre2_jit_compile(h->rx[i], PCRE2_JIT_COMPLETE); /* without JIT it still works */
    }
    h->md = pcre2_match_data_create(8, NULL);
    return h;
}

void fst_hlog_free(fst_hlog *h)
{
    if (!h)
        return;
    for (int i = 0; i < RX_N; i++)
        pcre2_code_free(h->rx[i]);
    pcre2_match_data_free(h->md);
    free(h->part);
    free(h->name);
    free(h);
}

const fst_hlog_stats *fst_hlog_getstats(const fst_hlog *h) { return &h->st; }

static int rx(fst_hlog *h, int which, const char *s, size_t n)
{
    return pcre2_match(h->rx[which], (PCRE2_SPTR)s, n, 0, 0, h->md, NULL) > 0;
}

/* Capture group g of the last match, or NULL (and *len 0) when it did not take part. */
static const char *grp(fst_hlog *h, const char *s, int g, size_t *len)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(h->md);
    if (ov[2 * g] == PCRE2_UNSET) {
        *len = 0;
        return NULL;
    }
    *len = ov[2 * g + 1] - ov[2 * g];
    return s + ov[2 * g];
}

static unsigned long grp_hex(fst_hlog *h, const char *s, int g)
{
    size_t n;
    const char *p = grp(h, s, g, &n);
    unsigned long v = 0;
    for (size_t i = 0; p && i < n; i++)
        v = v << 4 | (unsigned)hexval((unsigned char)p[i]);
    return v;
}

static void note_line(char *dst, size_t cap, uint64_t *lineno_dst, uint64_t lineno, const char *s, size_t n)
{
    if (*lineno_dst)
        return;
    *lineno_dst = lineno;
    snprintf(dst, cap, "%.*s", (int)(n < cap - 1 ? n : cap - 1), s);
}

static void malformed(fst_hlog *h, const char *s, size_t n)
{
    h->st.malformed++;
    note_line(h->st.first_malformed, sizeof h->st.first_malformed, &h->st.first_malformed_line, h->st.lines, s, n);
}

static void set_cpu(fst_hlog *h, unsigned cpu)
{
    if (cpu != h->cpu) {
        h->cpu = cpu;
        if (fst_tw_cpu(h->w, cpu))
            h->werr = 1;
    }
}

static hcpu *cpu_of(fst_hlog *h, unsigned cpu) { return &h->cpus[cpu & (MAXCPU - 1)]; }

static void write_cr1(fst_hlog *h, hcpu *c, uint64_t value)
{
    if (fst_tw_cr(h->w, 1, value))
        h->werr = 1;
    c->have_cr1 = 1;
    c->cr1 = value;
}

/* Write the CPU's pending record: its instruction completed. */
static void pend_write(fst_hlog *h, unsigned cpu)
{
    hcpu *c = cpu_of(h, cpu);
    if (c->pend == PD_NONE)
        return;
    set_cpu(h, cpu);
    if (c->pend == PD_LPSW) {
        if (fst_tw_lpsw(h->w, c->pval, c->psw, c->pswlen))
            h->werr = 1;
    } else
        write_cr1(h, c, c->pval);
    c->pend = PD_NONE;
}

/* The CPU's next record is due (its next PSW line, another event, the end): write the
** pending record, or drop it when a program check was announced after it — unless
** `fetch_error`: the re-display says the check came from fetching the next instruction,
** so the LPSW/LCTL itself completed. A held program check is written after it. */
static void pend_settle(fst_hlog *h, unsigned cpu, int fetch_error)
{
    hcpu *c = cpu_of(h, cpu);
    if (!c->pgm) {
        pend_write(h, cpu);
        return;
    }
    if (!fetch_error)
        c->pend = PD_NONE; /* the instruction ended in the check: it loaded nothing */
    pend_write(h, cpu);
    set_cpu(h, cpu);
    if (fst_tw_pgmchk(h->w, c->pgm_code, c->pgm_ilc))
        h->werr = 1;
    c->pgm = 0;
}

static void pend_settle_all(fst_hlog *h)
{
    for (unsigned i = 0; i < MAXCPU; i++)
        if (h->cpus[i].pend || h->cpus[i].pgm)
            pend_settle(h, i, 0);
}

/* What a storage-operand line is wanted for after instruction ib (see stor_line). */
static void await_operand(hcpu *c, const uint8_t *ib)
{
    c->await = ib[0] == 0x82                    ? AW_LPSW
             : ib[0] == 0xB2 && ib[1] == 0xB2   ? AW_LPSWE
             : ib[0] == 0xB7                    ? AW_LCTL
             : ib[0] == 0xEB && ib[5] == 0x2F   ? AW_LCTLG
                                                : AW_NONE;
    c->r1 = ib[1] >> 4;
    c->r3 = ib[1] & 0x0F;
}

/* "PSW=..." (body starts at PSW=). */
static void psw_line(fst_hlog *h, const char *s, size_t n)
{
    uint8_t psw[16];
    const char *p = s + 4;
    size_t rest = n - 4;
    int len = fst_psw_parse(p, rest, psw);
    if (!len) {
        malformed(h, s, n);
        return;
    }
    size_t used = (len == 16) ? (hexrun(p, rest) == 8 ? 34 : 33) : (hexrun(p, rest) == 8 ? 17 : 16);
    p += used;
    rest -= used;
    if (rest == 0) { /* a bare PSW display (HHCCP011I's second line, cut off by a message) */
        h->st.messages++;
        return;
    }
    hcpu *c = cpu_of(h, h->cpu);
    h->st.trace_lines++;
    if (h->regs_pending && !h->saw_psw)
        h->saw_regs_first = 1;
    h->regs_pending = 0;
    h->saw_psw = 1;
    int fetch_error = rest >= 24 && !memcmp(p, " Instruction fetch error", 24);
    pend_settle(h, h->cpu, fetch_error);
    c->await = AW_NONE;
    if (fetch_error) {
        if (c->redisplay) { /* 3.13 re-displays a failed fetch like this */
            c->redisplay = 0;
            h->st.redisplays++;
        }
        return;
    }
    if (rest < 6 || memcmp(p, " INST=", 6)) {
        malformed(h, s, n);
        return;
    }
    p += 6;
    rest -= 6;
    size_t nd = hexrun(p, rest);
    if ((nd != 4 && nd != 8 && nd != 12) || (nd < rest && p[nd] != ' ')) {
        malformed(h, s, n);
        return;
    }
    uint8_t ib[6] = { 0 };
    hexbytes(p, nd, ib);
    if ((size_t)fst_insn_len(ib[0]) * 2 != nd) {
        malformed(h, s, n);
        return;
    }
    if (c->redisplay) { /* the copy Hercules prints after a program check */
        c->redisplay = 0;
        h->st.redisplays++;
        return;
    }
    if (h->max_insns && h->st.insns >= h->max_insns) {
        h->st.limit_hit = 1;
        return;
    }
    if (fst_tw_state(h->w, fst_psw_state(psw, len, h->st.arch)) ||
        fst_tw_insn(h->w, fst_psw_ia(psw, len), ib, (int)(nd / 2)))
        h->werr = 1;
    h->st.insns++;
    if (ib[0] == 0x0A) { /* SVC: Hercules prints no message for its interruption */
        if (fst_tw_intr(h->w, FST_INTR_SVC, ib[1]))
            h->werr = 1;
        h->st.svcs++;
    }
    await_operand(c, ib);
}

/* A storage-operand line, hex field cut at fixed offsets (notes §2.4):
**   "R:aaaaaaaa:K:kk=<36 hex and blanks> <text>", "V:..." when DAT is on, 4.x's
**   "V:vvvvvvvv:R:rrrrrrrrrrrrrrrr:K:kk=...", 16-digit addresses in z/Arch.
** Returns the data bytes shown (fewer than 16 at a page end; 0 for a translation
** exception or anything else) into out, and the operand address (virtual when DAT is on). */
static int stor_parse(const char *s, size_t n, uint64_t *addr, uint8_t out[16])
{
    if (n < 2 || (s[0] != 'R' && s[0] != 'V') || s[1] != ':')
        return 0;
    size_t i = 2, k = hexrun(s + i, n - i);
    if ((k != 8 && k != 16) || i + k >= n || s[i + k] != ':')
        return 0;
    *addr = 0;
    for (size_t j = 0; j < k; j++)
        *addr = *addr << 4 | (uint64_t)hexval((unsigned char)s[i + j]);
    i += k + 1;
    if (s[0] == 'V' && i + 2 < n && s[i] == 'R' && s[i + 1] == ':') { /* 4.x: the real address */
        k = hexrun(s + i + 2, n - i - 2);
        if (!k || i + 2 + k >= n || s[i + 2 + k] != ':')
            return 0;
        i += k + 3;
    }
    if (i + 5 > n || s[i] != 'K' || s[i + 1] != ':' || hexrun(s + i + 2, 2) != 2 || s[i + 4] != '=')
        return 0;
    i += 5;
    size_t end = n - i > 36 ? i + 36 : n, nd = 0; /* the text after the field may hold blanks and hex */
    for (; i < end; i++) {
        if (s[i] == ' ') /* blanks sit at 4-byte address boundaries and pad a short field */
            continue;
        int v = hexval((unsigned char)s[i]);
        if (v < 0 || nd >= 32)
            return 0;
        out[nd / 2] = (uint8_t)(nd & 1 ? out[nd / 2] | v : v << 4);
        nd++;
    }
    return nd & 1 ? 0 : (int)(nd / 2);
}

static uint64_t be_value(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The first storage line after an LPSW/LPSWE/LCTL/LCTLG is its operand: keep what it
** loads pending until the instruction is known to have completed. Nothing when the
** line shows fewer bytes than were loaded, or a translation exception. */
static void stor_line(fst_hlog *h, const char *s, size_t n)
{
    h->st.trace_lines++;
    hcpu *c = cpu_of(h, h->cpu);
    int aw = c->await;
    c->await = AW_NONE; /* a second storage line is another operand */
    if (aw == AW_NONE)
        return;
    uint64_t addr;
    uint8_t data[16];
    unsigned got = (unsigned)stor_parse(s, n, &addr, data);
    if (aw == AW_LPSW || aw == AW_LPSWE) {
        unsigned need = aw == AW_LPSW ? 8 : 16;
        if (got < need)
            return;
        c->pend = PD_LPSW;
        c->pval = addr;
        c->pswlen = (uint8_t)need;
        memcpy(c->psw, data, need);
        return;
    }
    /* LCTL r1,r3 loads r1, r1+1, ... r3 (wrapping 15 to 0) from consecutive words */
    unsigned width = aw == AW_LCTL ? 4 : 8, k = (1u - c->r1) & 15;
    if (k > ((unsigned)(c->r3 - c->r1) & 15) || (k + 1) * width > got)
        return; /* CR1 not loaded, or its word is past what the line shows */
    c->pend = PD_CR1;
    c->pval = be_value(data + k * width, width);
}

static int is_reg_line(const char *s, size_t n)
{
    if (n < 5)
        return 0;
    if (s[0] == 'G' && s[1] == 'R' && s[4] == '=') return 1;                    /* GR00= */
    if (s[0] == 'R' && hexval((unsigned char)s[1]) >= 0 && s[2] == '=') return 1; /* R0= (z) */
    if ((s[0] == 'C' || s[0] == 'A') && s[1] == 'R' && s[4] == '=') return 1;   /* CR00= AR00= */
    if (s[0] == 'C' && hexval((unsigned char)s[1]) >= 0 && s[2] == '=') return 1; /* C0= (z) */
    if (s[0] == 'F' && s[1] == 'P') return 1;                                     /* FPR0= FP00= */
    if (s[0] == 'V' && s[1] == 'R' && s[4] == '=') return 1;                     /* VR00= */
    if (n > 32 && !memcmp(s, "Floating point control register:", 32)) return 1;
    return 0;
}

/* CR1 in a control-register display line: 3.13 "CR00=xxxxxxxx  CR01=xxxxxxxx ...",
** z/Arch "C0=<16 hex> C1=<16 hex> ..." (4.x: the same after HHC02271I). */
static int cr1_shown(const char *s, size_t n, uint64_t *v)
{
    if (n < 3 || !(s[0] == 'C' && (s[1] == 'R' || hexval((unsigned char)s[1]) >= 0)))
        return 0;
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ')
            i++;
        size_t t = i;
        while (i < n && s[i] != ' ')
            i++;
        size_t vo = (i - t > 5 && !memcmp(s + t, "CR01=", 5)) ? 5 : (i - t > 3 && !memcmp(s + t, "C1=", 3)) ? 3 : 0;
        if (!vo)
            continue;
        size_t k = hexrun(s + t + vo, i - t - vo); /* a message glued on after the digits is allowed */
        if (k != 8 && k != 16)
            return 0;
        *v = 0;
        for (size_t j = 0; j < k; j++)
            *v = *v << 4 | (uint64_t)hexval((unsigned char)s[t + vo + j]);
        return 1;
    }
    return 0;
}

static void reg_line(fst_hlog *h, const char *s, size_t n)
{
    h->st.trace_lines++;
    if (!h->regs_pending && h->saw_psw)
        h->saw_regs_after = 1;
    h->regs_pending = 1;
    /* A displayed CR1 that is not the value last written (nor the one an LCTL is about
    ** to write) is news: the address space as the display found it. The display shows
    ** the value before its instruction, so the record may come one instruction late. */
    uint64_t v;
    hcpu *c = cpu_of(h, h->cpu);
    if (cr1_shown(s, n, &v) && !(c->have_cr1 && c->cr1 == v) && !(c->pend == PD_CR1 && c->pval == v))
        write_cr1(h, c, v);
}

/* A line of Hercules' own (after prefixes); returns 1 when it is a known event. */
static int message(fst_hlog *h, const char *s, size_t n)
{
    size_t gl;
    const char *g;
    if (rx(h, RX_PGM313, s, n) || rx(h, RX_PGM4, s, n)) {
        unsigned cpu = (unsigned)grp_hex(h, s, 1);
        hcpu *c = cpu_of(h, cpu);
        set_cpu(h, cpu);
        if (c->pgm) /* a second check before any re-display */
            pend_settle(h, cpu, 0);
        c->redisplay = 1;
        c->await = AW_NONE; /* storage lines now are the re-display's */
        uint32_t code = (uint32_t)grp_hex(h, s, 2);
        unsigned ilc = (unsigned)grp_hex(h, s, 3);
        if (c->pend) { /* whose check is it? the re-display will tell (pend_settle) */
            c->pgm = 1;
            c->pgm_code = code;
            c->pgm_ilc = (uint8_t)ilc;
        } else if (fst_tw_pgmchk(h->w, code, ilc))
            h->werr = 1;
        h->st.pgmchks++;
        return 1;
    }
    int dis = 0;
    if (rx(h, RX_WAIT313, s, n) || (dis = rx(h, RX_DWAIT4, s, n)) || rx(h, RX_WAIT4, s, n)) {
        uint8_t psw[16];
        int gi = s[3] == 'C' ? 1 : 2; /* 3.13's HHCCP043I has no CPU group */
        g = grp(h, s, gi, &gl);
        int len = g ? fst_psw_parse(g, gl, psw) : 0;
        if (gi == 2)
            set_cpu(h, (unsigned)grp_hex(h, s, 1));
        pend_settle(h, h->cpu, 0);
        if (fst_tw_wait(h->w, (unsigned)dis, psw, (unsigned)len))
            h->werr = 1;
        h->st.waits++;
        if (dis)
            h->st.disabled_wait = 1;
        return 1;
    }
    if (rx(h, RX_DWAIT313, s, n)) {
        set_cpu(h, (unsigned)grp_hex(h, s, 1));
        pend_settle(h, h->cpu, 0);
        if (fst_tw_wait(h->w, 1, NULL, 0))
            h->werr = 1;
        h->st.waits++;
        h->st.disabled_wait = 1;
        return 1;
    }
    if (rx(h, RX_ARCH, s, n)) {
        g = grp(h, s, 3, &gl);
        char a[8] = { 0 };
        memcpy(a, g, gl < 7 ? gl : 7);
        h->st.arch = fst_arch_parse(a);
        return 1;
    }
    if (rx(h, RX_IO, s, n)) {
        pend_settle(h, h->cpu, 0);
        if (fst_tw_intr(h->w, FST_INTR_IO, (uint32_t)grp_hex(h, s, 1)))
            h->werr = 1;
        h->st.intrs++;
        return 1;
    }
    if (rx(h, RX_EXT, s, n)) {
        static const struct { const char *what; uint32_t code; } ext[] = {
            { "Interrupt key", 0x0040 }, { "Clock comparator", 0x1004 }, { "CPU timer", 0x1005 },
            { "Interval timer", 0x0080 }, { "Service signal", 0x2401 }, { "Block I/O", 0x2603 },
        };
        uint32_t code = 0;
        g = grp(h, s, 1, &gl);
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
            if (gl >= strlen(ext[i].what) && !memcmp(g, ext[i].what, strlen(ext[i].what)))
                code = ext[i].code;
        pend_settle(h, h->cpu, 0);
        if (fst_tw_intr(h->w, FST_INTR_EXT, code))
            h->werr = 1;
        h->st.intrs++;
        return 1;
    }
    if (rx(h, RX_TRACING, s, n)) {
        g = grp(h, s, 1, &gl);
        if (g[1] == 'f') { /* tracing off: what follows was not traced */
            pend_settle_all(h);
            if (fst_tw_gap(h->w))
                h->werr = 1;
            h->st.gaps++;
        }
        return 1;
    }
    if (rx(h, RX_TRACEOPT, s, n)) {
        g = grp(h, s, 1, &gl);
        if (!g)
            g = grp(h, s, 2, &gl);
        for (size_t i = 0; i < gl && i + 1 < sizeof h->st.traceopt; i++)
            h->st.traceopt[i] = (char)(g[i] | 0x20);
        h->st.traceopt[gl < sizeof h->st.traceopt ? gl : sizeof h->st.traceopt - 1] = 0;
        return 1;
    }
    if (rx(h, RX_VERSION, s, n)) {
        g = grp(h, s, 1, &gl);
        snprintf(h->st.hercules, sizeof h->st.hercules, "%.*s", (int)gl, g);
        return 1;
    }
    return 0;
}

/* Strip "HH:MM:SS " / "HH:MM:SS.ffffff " / "YYYY-MM-DD HH:MM:SS " and a HercGUI thread id. */
static size_t strip_stamp(fst_hlog *h, const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 11 && s[4] == '-' && s[7] == '-' && s[10] == ' ' && hexrun(s, 4) == 4)
        i = 11;
    const char *t = s + i;
    if (n - i < 9 || t[2] != ':' || t[5] != ':' || hexrun(t, 2) != 2 || hexrun(t + 3, 2) != 2 ||
        hexrun(t + 6, 2) != 2)
        return 0;
    uint32_t secs = (uint32_t)((t[0] - '0') * 10 + t[1] - '0') * 3600 + (uint32_t)((t[3] - '0') * 10 + t[4] - '0') * 60 +
                    (uint32_t)((t[6] - '0') * 10 + t[7] - '0');
    i += 8;
    if (i < n && s[i] == '.')
        while (++i < n && s[i] >= '0' && s[i] <= '9')
            ;
    if (i >= n || s[i] != ' ')
        return 0;
    i++;
    size_t k = hexrun(s + i, n - i); /* HercGUI: a hex thread id */
    if (k == 8 && i + k < n && s[i + k] == ' ')
        i += k + 1;
    if (secs != h->last_secs) {
        h->last_secs = secs;
        if (fst_tw_time(h->w, secs))
            h->werr = 1;
    }
    return i;
}

static void line(fst_hlog *h, const char *s, size_t n)
{
    h->st.lines++;
    while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    size_t k = strip_stamp(h, s, n);
    s += k;
    n -= k;
    if (n == 0) {
        h->st.blank++;
        return;
    }
    /* 4.x trace message ids: the body follows */
    int msg4 = 0;
    if (n >= 10 && s[0] == 'H' && s[1] == 'H' && s[2] == 'C' && hexrun(s + 3, 5) == 5 && s[9] == ' ') {
        int id = (int)strtol((char[6]){ s[3], s[4], s[5], s[6], s[7], 0 }, NULL, 10);
        if (id == 2324 || id == 2326 || id == 2325 || (id >= 2266 && id <= 2276)) {
            msg4 = id;
            s += 10;
            n -= 10;
        }
    }
    /* CPU prefixes: "CPU0000:  " / "CPU0000: " (3.13), "CP00: " (4.x) */
    if (n > 9 && s[0] == 'C' && s[1] == 'P' && s[2] == 'U' && hexrun(s + 3, 4) == 4 && s[7] == ':' && s[8] == ' ') {
        unsigned cpu = (unsigned)strtoul((char[5]){ s[3], s[4], s[5], s[6], 0 }, NULL, 16);
        size_t skip = s[9] == ' ' ? 10 : 9;
        if (n > skip && (s[skip] == 'P' || s[skip] == 'R' || s[skip] == 'V' || is_reg_line(s + skip, n - skip))) {
            set_cpu(h, cpu);
            s += skip;
            n -= skip;
        }
    } else if (n > 6 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && hexrun(s + 2, 2) == 2 &&
               s[4] == ':' && s[5] == ' ') {
        set_cpu(h, (unsigned)(hexval((unsigned char)s[2]) << 4 | hexval((unsigned char)s[3])));
        s += 6;
        n -= 6;
    }
    if (n >= 4 && s[0] == 'P' && s[1] == 'S' && s[2] == 'W' && s[3] == '=') {
        psw_line(h, s, n);
        return;
    }
    if (msg4 == 2326 || (n >= 3 && (s[0] == 'R' || s[0] == 'V') && s[1] == ':')) {
        stor_line(h, s, n);
        return;
    }
    if ((msg4 >= 2266 && msg4 <= 2276) || is_reg_line(s, n)) {
        reg_line(h, s, n);
        return;
    }
    if (msg4 == 2325 || (n >= 23 && !memcmp(s, " Instruction fetch error", 24 <= n ? 24 : n))) {
        hcpu *c = cpu_of(h, h->cpu);
        pend_settle(h, h->cpu, 1); /* 4.x's re-display of a failed fetch: the check was not the LPSW's */
        c->await = AW_NONE;
        if (c->redisplay) {
            c->redisplay = 0;
            h->st.redisplays++;
        }
        h->st.trace_lines++;
        return;
    }
    if (n >= 5 && !memcmp(s, "EXRL ", 5)) { /* 3.13: the target of EXRL, not an execution */
        h->st.trace_lines++;
        return;
    }
    if (s[0] == 'H' && n >= 9 && !memcmp(s, "HHC", 3)) {
        if (s[8] == 'E' || s[8] == 'S')
            snprintf(h->st.last_error, sizeof h->st.last_error, "%.*s", (int)(n < 159 ? n : 159), s);
        if (!message(h, s, n))
            h->st.messages++;
        return;
    }
    if (s[0] == ' ') { /* continuation of a message ("          PSW=...", "          tid=...") */
        h->st.messages++;
        return;
    }
    if (message(h, s, n) || rx(h, RX_SIGP313, s, n) || rx(h, RX_BANNER, s, n) || rx(h, RX_COMMAND, s, n)) {
        h->st.messages++;
        return;
    }
    if (rx(h, RX_DISASM, s, n)) { /* 3.13: the disassembly of a PSW line that a message split */
        h->st.trace_lines++;
        return;
    }
    h->st.unknown++;
    note_line(h->st.first_unknown, sizeof h->st.first_unknown, &h->st.first_unknown_line, h->st.lines, s, n);
}

static int werr(fst_hlog *h, fst_err *err)
{
    return fst_errf(err, "%s: line %llu: cannot write the trace (disk full?)", h->name,
                    (unsigned long long)h->st.lines);
}

static int too_long(fst_hlog *h, fst_err *err)
{
    return fst_errf(err, "%s: line %llu: a line longer than %u bytes: not a Hercules log", h->name,
                    (unsigned long long)h->st.lines + 1, FST_HLOG_MAX_LINE);
}

int fst_hlog_feed(fst_hlog *h, const char *data, size_t n, fst_err *err)
{
    const char *p = data, *end = data + n;
    if (h->plen) { /* complete the carried partial line */
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl - p) + 1 : n;
        if (h->plen + take - (nl != NULL) > FST_HLOG_MAX_LINE)
            return too_long(h, err);
        if (h->plen + take > h->pcap) {
            h->pcap = (h->plen + take) * 2;
            h->part = fst_xrealloc(h->part, h->pcap);
        }
        memcpy(h->part + h->plen, p, take);
        h->plen += take;
        p += take;
        if (!nl)
            return 0;
        line(h, h->part, h->plen);
        h->plen = 0;
    }
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > FST_HLOG_MAX_LINE)
            return too_long(h, err);
        if (!nl) {
            if (len > h->pcap) {
                h->pcap = len * 2;
                h->part = fst_xrealloc(h->part, h->pcap);
            }
            memcpy(h->part, p, len);
            h->plen = len;
            break;
        }
        line(h, p, len);
        p = nl + 1;
    }
    return h->werr ? werr(h, err) : 0;
}

int fst_hlog_finish(fst_hlog *h, fst_err *err)
{
    if (h->plen) {
        line(h, h->part, h->plen);
        h->plen = 0;
    }
    pend_settle_all(h);
    if (!h->st.traceopt[0] || h->saw_psw) {
        const char *m = h->saw_regs_first ? "regsfirst" : h->saw_regs_after ? "traditional" : "noregs";
        if (!h->st.traceopt[0])
            snprintf(h->st.traceopt, sizeof h->st.traceopt, "%s", m);
    }
    return h->werr ? werr(h, err) : 0;
}
