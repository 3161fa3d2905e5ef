/* capture/read/herclog.c — Hercules log parser; see herclog.h for what it accepts. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "capture/read/herclog.h"
#include "capture/read/pswline.h"
#include "common/bytes.h"
#include "common/hex.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages that carry events (rare lines: PCRE2, compiled once). */
enum {
    RX_PGM313, RX_PGM4, RX_WAIT313, RX_DWAIT313, RX_WAIT4, RX_DWAIT4, RX_ARCH, RX_IO, RX_EXT,
    RX_TRACING, RX_TRACEOPT, RX_VERSION, RX_MESSAGE, RX_DISASM, RX_SIGP313, RX_SIGP, RX_BANNER, RX_COMMAND, RX_N
};
static const char *const rx_src[RX_N] = {
    [RX_PGM313] = "^HHCCP014I (?:SIE: )?CPU([0-9A-F]{4}): .*? CODE=([0-9A-F]{4}) ILC=(\\d)",
    [RX_PGM4] = "^HHC00801I Processor [A-Z?]{2}([0-9A-F]{2}): (?:SIE: )?.*? code ([0-9A-F]{4}) +ilc (\\d)",
    /* the PSW is a second write, which another CPU's trace piece can push to a later line */
    [RX_WAIT313] = "^HHCCP043I Wait state PSW loaded:(?: PSW=([0-9A-F ]+))?",
    [RX_DWAIT313] = "^HHCCP011I CPU([0-9A-F]{4}): Disabled wait state",
    [RX_WAIT4] = "^HHC00800I Processor [A-Z?]{2}([0-9A-F]{2}): loaded wait state PSW ([0-9A-F ]+)",
    [RX_DWAIT4] = "^HHC00809I Processor [A-Z?]{2}([0-9A-F]{2}): disabled wait state ([0-9A-F ]+)",
    [RX_ARCH] = "^(?:HHCCP00[37]I CPU([0-9A-F]{4}) architecture mode(?: set to)?|"
                "HHC00811I Processor [A-Z?]{2}([0-9A-F]{2}): architecture mode) (S/370|ESA/390|z/Arch)",
    [RX_IO] = "^HHC\\w{5}I (?:Processor [A-Z?]{2}[0-9A-F]{2}: )?I/O interrupt code[= ]?(?:[0-7]:)?([0-9A-F]+)",
    [RX_EXT] = "^HHC\\w{5}I (?:Processor [A-Z?]{2}[0-9A-F]{2}: )?External interrupt: (.*)",
    [RX_TRACING] = "^(?:HHCPN040I|HHC02229I) Instruction tracing (on|off)(?: range (\\S+))?",
    [RX_TRACEOPT] = "^(?:HHCPN162I Hercules instruction trace displayed in (\\w+) mode|"
                    "HHC02204I TRACEOPT +set to (\\w+))",
    [RX_VERSION] = "^(?:Hercules Version |HHC01413I Hercules version )(\\S+)",
    [RX_MESSAGE] = "^HHC[A-Z0-9]{5}[IWESDA]\\b",
    [RX_DISASM] = "^(?:[A-Z][A-Z0-9]{0,7}|\\?{5}) +\\S+ +[a-z0-9_?]+ *$",
    [RX_SIGP313] = "^CPU[0-9A-F]{4}: SIGP ",
    /* a SIGP's outcome (3.13: "CPU0001: SIGP Stop (05) CPU0001, PARM 00000000: CC 0"; 4.x:
    ** "HHC00814I Processor CP00: SIGP Set architecture mode      (12) CP00, PARM ...: CC 0") */
    [RX_SIGP] = "^(?:CPU([0-9A-F]{4})|HHC00814I Processor [A-Z?]{2}([0-9A-F]{2})): SIGP .*?\\(([0-9A-F]{2})\\) "
                "(?:CPU([0-9A-F]{4})|[A-Z?]{2}([0-9A-F]{2})), PARM [0-9A-F]+: CC ([0-3])",
    /* 3.13's start-up banner, and the commands Hercules echoes from a script or the console */
    [RX_BANNER] = "^(?:Hercules Version |\\(c\\)Copyright |Built on |Build information:|Running on |Crypto module loaded)",
    [RX_COMMAND] = "^(?:hao|traceopt|t[+?-]?|s[+?-]?|ipl|iplc|log|logopt|quit|exit|pgmtrace|ostailor|archmode|"
                   "sysclear|sysreset|restart|stop|start|stopall|startall|g|msg|script|tf|tfswap|maxrates|"
                   "numcpu|loadcore|savecore|store|psw|gpr|cr|devlist|attach|detach|pause)(?: .*)?$",
};

enum { IN_UNKNOWN, IN_TEXT, IN_TF };

struct fst_hlog {
    fst_tw *w;
    char *name;
    fst_hlog_stats st;
    uint64_t max_insns;
    pcre2_code *rx[RX_N];
    pcre2_match_data *md;
    fst_em *em;                 /* what the lines say, as records (shared with the tf reader) */
    int regs_pending;           /* register lines seen since the last PSW line */
    int pgm_head;               /* a 3.13 program check's "HHCCP014I " came with another
                                   message after it: its rest is on a later line (other_line) */
    int saw_regs_first, saw_regs_after, saw_psw;
    int blank_after_regs;       /* a blank line came after the last register line: 3.13's
                                   regsfirst ends each register block with one, traditional
                                   never does (hscmisc.c display_inst_regs) */
    int order_told;             /* the emitter was told the log shows no registers */
    int kind;                   /* IN_*: what the input is, from its first bytes */
    int want_tf;
    fst_tf *tf;                 /* the trace-file reader, when the input is a trace file */
    fst_pswline fast;           /* the usual PSW lines, read fast (capture/read/pswline.h) */
    char *part;                 /* partial line carried between feeds */
    size_t plen, pcap;
};

/* Count of hex digits at s (up to n). */
static size_t hexrun(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && fst_hexval((unsigned char)s[i]) >= 0)
        i++;
    return i;
}

static void hexbytes(const char *s, size_t ndig, uint8_t *out)
{
    for (size_t i = 0; i + 1 < ndig + 1 && i < ndig; i += 2)
        out[i / 2] = (uint8_t)(fst_hexval((unsigned char)s[i]) << 4 | fst_hexval((unsigned char)s[i + 1]));
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
    h->em = fst_em_new(w, max_insns);
    return h;
}

void fst_hlog_free(fst_hlog *h)
{
    if (!h)
        return;
    for (int i = 0; i < RX_N; i++)
        pcre2_code_free(h->rx[i]);
    pcre2_match_data_free(h->md);
    fst_em_free(h->em);
    fst_tf_free(h->tf);
    free(h->part);
    free(h->name);
    free(h);
}

const fst_hlog_stats *fst_hlog_getstats(const fst_hlog *h) { return &h->st; }
void fst_hlog_want_tf(fst_hlog *h) { h->want_tf = 1; }
const fst_tf *fst_hlog_tf(const fst_hlog *h) { return h->tf; }

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
        v = v << 4 | (unsigned)fst_hexval((unsigned char)p[i]);
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

/* A PSW line has been read: what it says about traceopt. */
static inline __attribute__((always_inline)) void psw_seen(fst_hlog *h)
{
    h->st.trace_lines++;
    if (h->regs_pending && !h->saw_psw && h->blank_after_regs) {
        h->saw_regs_first = 1;
        fst_em_regs_order(h->em, FST_EM_REGS_BEFORE);   /* regsfirst: this one's came before it */
    } else if (h->regs_pending && !h->saw_psw) {
        /* register lines with no blank line after them, before the first instruction: the
        ** end of a traditional record whose instruction came before the log's start (a
        ** job's window begins at the console's line, which Hercules wrote between an
        ** instruction and its registers): not this instruction's, and no sign of regsfirst */
        fst_em_display_drop(h->em);
    } else if (!h->order_told && h->saw_psw && !h->regs_pending && !h->saw_regs_first && !h->saw_regs_after) {
        fst_em_regs_order(h->em, FST_EM_REGS_NONE);     /* noregs, so far */
        h->order_told = 1;
    }
    h->regs_pending = 0;
    h->saw_psw = 1;
}

/* "PSW=..." (body starts at PSW=). */
static void psw_line(fst_hlog *h, const char *s, size_t n)
{
    uint8_t psw[16];
    uint8_t ib[6];
    int len, ilen;
    if (fst_pswline_read(&h->fast, s, n, psw, &len, ib, &ilen)) {
        psw_seen(h);
        fst_em_insn(h->em, psw, len, h->st.arch, ib, ilen);
        return;
    }
    memset(ib, 0, sizeof ib); /* whatever the fast reading left there */
    const char *p = s + 4;
    size_t rest = n - 4;
    len = fst_psw_parse(p, rest, psw);
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
    psw_seen(h);
    if (rest >= 24 && !memcmp(p, " Instruction fetch error", 24)) {
        fst_em_fetch_error(h->em); /* 3.13 re-displays a failed fetch like this */
        return;
    }
    fst_em_begin(h->em);
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
    hexbytes(p, nd, ib);
    if ((size_t)fst_insn_len(ib[0]) * 2 != nd) {
        malformed(h, s, n);
        return;
    }
    fst_em_insn(h->em, psw, len, h->st.arch, ib, (int)(nd / 2));
}

/* A storage-operand line, hex field cut at fixed offsets (notes §2.4):
**   "R:aaaaaaaa:K:kk=<36 hex and blanks> <text>", "V:..." when DAT is on, 4.x's
**   "V:vvvvvvvv:R:rrrrrrrrrrrrrrrr:K:kk=...", 16-digit addresses in z/Arch.
** stor_addr: the operand address (virtual when DAT is on) and where the data field
** starts, 0 when the line is not one. stor_data: the data bytes shown (fewer than 16 at a
** page end; 0 for a translation exception or anything else) into out. */
static size_t stor_addr(const char *s, size_t n, uint64_t *addr)
{
    if (n < 2 || (s[0] != 'R' && s[0] != 'V') || s[1] != ':')
        return 0;
    size_t i = 2, k = hexrun(s + i, n - i);
    if ((k != 8 && k != 16) || i + k >= n || s[i + k] != ':')
        return 0;
    *addr = 0;
    for (size_t j = 0; j < k; j++)
        *addr = *addr << 4 | (uint64_t)fst_hexval((unsigned char)s[i + j]);
    return i + k + 1;
}

static int stor_data(const char *s, size_t n, size_t i, uint8_t out[16])
{
    size_t k;
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
        int v = fst_hexval((unsigned char)s[i]);
        if (v < 0 || nd >= 32)
            return 0;
        out[nd / 2] = (uint8_t)(nd & 1 ? out[nd / 2] | v : v << 4);
        nd++;
    }
    return nd & 1 ? 0 : (int)(nd / 2);
}

/* Every storage line goes to the emitter (emit.h: the first is the instruction's operand,
** any may show an old PSW); its bytes are read only when the emitter wants them. */
static void stor_line(fst_hlog *h, const char *s, size_t n)
{
    h->st.trace_lines++;
    if (!fst_em_wants_operands(h->em))
        return;
    uint64_t addr = 0;
    uint8_t data[16];
    size_t at = stor_addr(s, n, &addr);
    unsigned got = at && fst_em_wants_data(h->em, addr) ? (unsigned)stor_data(s, n, at, data) : 0;
    fst_em_operand(h->em, addr, data, got);
}

static int is_reg_line(const char *s, size_t n)
{
    if (n < 5)
        return 0;
    if (s[0] == 'G' && s[1] == 'R' && s[4] == '=') return 1;                    /* GR00= */
    if (s[0] == 'R' && fst_hexval((unsigned char)s[1]) >= 0 && s[2] == '=') return 1; /* R0= (z) */
    if ((s[0] == 'C' || s[0] == 'A') && s[1] == 'R' && s[4] == '=') return 1;   /* CR00= AR00= */
    if (s[0] == 'C' && fst_hexval((unsigned char)s[1]) >= 0 && s[2] == '=') return 1; /* C0= (z) */
    if (s[0] == 'F' && s[1] == 'P') return 1;                                     /* FPR0= FP00= */
    if (s[0] == 'V' && s[1] == 'R' && s[4] == '=') return 1;                     /* VR00= */
    if (n > 32 && !memcmp(s, "Floating point control register:", 32)) return 1;
    return 0;
}

/* The next blank-separated token NAME=HEX of a register display line from *i: name and its
** length, the value when 8 or 16 hex digits follow the '=' (a message glued on after the
** digits is allowed), else *ok 0. 0 at the end of the line. */
static int reg_token(const char *s, size_t n, size_t *i, const char **name, size_t *nlen, uint64_t *v, int *ok)
{
    while (*i < n && s[*i] == ' ')
        ++*i;
    size_t t = *i;
    while (*i < n && s[*i] != ' ')
        ++*i;
    if (t == *i)
        return 0;
    const char *eq = memchr(s + t, '=', *i - t);
    *name = s + t;
    *nlen = eq ? (size_t)(eq - (s + t)) : *i - t;
    size_t vo = *nlen + 1, k = eq ? hexrun(eq + 1, *i - t - vo) : 0;
    *ok = k == 8 || k == 16;
    *v = 0;
    for (size_t j = 0; *ok && j < k; j++)
        *v = *v << 4 | (uint64_t)fst_hexval((unsigned char)eq[1 + j]);
    return 1;
}

/* CR1 in a control-register display line: 3.13 "CR00=xxxxxxxx  CR01=xxxxxxxx ...",
** z/Arch "C0=<16 hex> C1=<16 hex> ..." (4.x: the same after HHC02271I). */
static int cr1_shown(const char *s, size_t n, uint64_t *v)
{
    if (n < 3 || !(s[0] == 'C' && (s[1] == 'R' || fst_hexval((unsigned char)s[1]) >= 0)))
        return 0;
    const char *nm;
    size_t i = 0, nl;
    int ok;
    while (reg_token(s, n, &i, &nm, &nl, v, &ok))
        if ((nl == 4 && !memcmp(nm, "CR01", 4)) || (nl == 2 && !memcmp(nm, "C1", 2)))
            return ok;
    return 0;
}

/* General registers in a register display line: 3.13 "GR00=xxxxxxxx  GR01=..." (ESA/390,
** S/370), z/Arch "R0=<16 hex> R1=..." (4.x: the same after HHC02269I). */
static void gr_shown(fst_hlog *h, const char *s, size_t n)
{
    const char *nm;
    size_t i = 0, nl;
    uint64_t v;
    int ok, r;
    while (reg_token(s, n, &i, &nm, &nl, &v, &ok)) {
        if (nl == 4 && nm[0] == 'G' && nm[1] == 'R' && nm[2] >= '0' && nm[2] <= '1' && nm[3] >= '0' && nm[3] <= '9')
            r = (nm[2] - '0') * 10 + (nm[3] - '0');
        else if (nl == 2 && nm[0] == 'R' && fst_hexval((unsigned char)nm[1]) >= 0)
            r = fst_hexval((unsigned char)nm[1]);
        else
            continue;
        if (ok && r <= 15)
            fst_em_gr(h->em, (unsigned)r, v);
    }
}

static void reg_line(fst_hlog *h, const char *s, size_t n)
{
    h->st.trace_lines++;
    if (!h->regs_pending && h->saw_psw) {
        h->saw_regs_after = 1;
        if (!h->saw_regs_first) /* traditional: an instruction's registers follow it */
            fst_em_regs_order(h->em, FST_EM_REGS_AFTER);
    }
    h->regs_pending = 1;
    h->blank_after_regs = 0;
    if ((s[0] == 'G' && s[1] == 'R') || (s[0] == 'R' && s[2] == '=')) {
        gr_shown(h, s, n);
        return;
    }
    /* A displayed CR1 that is not the value last written (nor the one an LCTL is about
    ** to write) is news: the address space as the display found it. The display shows
    ** the value before its instruction, so the record may come one instruction late. */
    uint64_t v;
    if (cr1_shown(s, n, &v))
        fst_em_cr1(h->em, v);
}

/* A SIGP's outcome (3.13 or 4.x), for the end of the program: 1 when s is one. */
static int sigp(fst_hlog *h, const char *s, size_t n)
{
    if (!rx(h, RX_SIGP, s, n))
        return 0;
    fst_em_cpu(h->em, (unsigned)(grp_hex(h, s, 1) | grp_hex(h, s, 2)));
    fst_em_sigp(h->em, (unsigned)(grp_hex(h, s, 4) | grp_hex(h, s, 5)), (unsigned)grp_hex(h, s, 3),
                (unsigned)grp_hex(h, s, 6));
    return 1;
}

/* A line of Hercules' own (after prefixes); returns 1 when it is a known event. */
static int message(fst_hlog *h, const char *s, size_t n)
{
    if (n > 9 && !memcmp(s, "HHC00814I", 9) && sigp(h, s, n))
        return 1;
    size_t gl;
    const char *g;
    if (rx(h, RX_PGM313, s, n) || rx(h, RX_PGM4, s, n)) {
        fst_em_cpu(h->em, (unsigned)grp_hex(h, s, 1));
        fst_em_pgmchk(h->em, (uint32_t)grp_hex(h, s, 2), (unsigned)grp_hex(h, s, 3));
        return 1;
    }
    int dis = 0;
    if (rx(h, RX_WAIT313, s, n) || (dis = rx(h, RX_DWAIT4, s, n)) || rx(h, RX_WAIT4, s, n)) {
        uint8_t psw[16];
        int gi = s[3] == 'C' ? 1 : 2; /* 3.13's HHCCP043I has no CPU group */
        g = grp(h, s, gi, &gl);
        int len = g ? fst_psw_parse(g, gl, psw) : 0;
        if (gi == 2)
            fst_em_cpu(h->em, (unsigned)grp_hex(h, s, 1));
        fst_em_wait(h->em, (unsigned)dis, psw, (unsigned)len);
        return 1;
    }
    if (rx(h, RX_DWAIT313, s, n)) {
        fst_em_cpu(h->em, (unsigned)grp_hex(h, s, 1));
        fst_em_wait(h->em, 1, NULL, 0);
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
        fst_em_intr(h->em, FST_INTR_IO, (uint32_t)grp_hex(h, s, 1));
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
        fst_em_intr(h->em, FST_INTR_EXT, code);
        return 1;
    }
    if (rx(h, RX_TRACING, s, n)) {
        g = grp(h, s, 1, &gl);
        if (g[1] == 'f') { /* tracing off: what follows was not traced */
            fst_em_gap(h->em);
        }
        int on = g[1] != 'f';
        const char *rg = grp(h, s, 2, &gl);
        fst_em_bases(h->em, on && rg != NULL);   /* a range */
        if (on) {   /* the footer says it (the header was written before the log said) */
            size_t k = rg ? (gl < sizeof h->st.range - 1 ? gl : sizeof h->st.range - 1) : 0;
            for (size_t i = 0; i < k; i++)
                h->st.range[i] = (char)(rg[i] >= 'a' && rg[i] <= 'f' ? rg[i] - 32 : rg[i]);
            h->st.range[k] = 0;
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
    fst_em_time(h->em, secs);
    return i;
}

/* Any line but the two shapes line() takes first (counted, ends trimmed). */
static void other_line(fst_hlog *h, const char *s, size_t n);

/* Where a 3.13 CPU prefix ("CPU0001: ") begins inside a line, past its start; 0 when none
** does. Hercules 3.13 prints a trace line in pieces, and another CPU's whole line can come
** between them: "CPU0000:  PSW=... INST=8200C046     CPU0001:  PSW=... BALR ...". */
static size_t cpu_prefix_at(const char *s, size_t n)
{
    for (size_t i = 1; i + 9 <= n; i++)
        if (s[i] == 'C' && s[i + 1] == 'P' && s[i + 2] == 'U' && hexrun(s + i + 3, 4) == 4 && s[i + 7] == ':' &&
            s[i + 8] == ' ')
            return i;
    return 0;
}

/* A line of the current CPU whose first piece ends at `at`, where another CPU's line
** begins: both are read. The first piece's instruction is whole when its hex is (its
** disassembly comes on a later line, which RX_DISASM knows); when it is not, the piece is
** malformed, and counted as spliced. */
static void split_line(fst_hlog *h, const char *s, size_t n, size_t at)
{
    size_t m = at;
    while (m && s[m - 1] == ' ')
        m--;
    uint64_t bad = h->st.malformed;
    other_line(h, s, m);
    if (h->st.malformed != bad)
        h->st.spliced++;
    other_line(h, s + at, n - at);
}

/* Where a 3.13 CPU's trace piece ("CPU0001:  " and PSW=, R:, V: or a register line: two
** blanks, where Hercules' own messages about a CPU have one) begins inside a message's
** line, past its start; 0 when none does. Hercules 3.13 prints some messages in pieces too
** (HHCCP043I's text, then the PSW; HHCCP011I's first line and indent, then the PSW;
** "HHCCP014I ", then the rest), and another CPU's trace piece can come between them:
** "HHCCP043I Wait state PSW loaded: CPU0001:  PSW=... INST=05C0         PSW=010A0000 ...". */
static size_t trace_piece_at(const char *s, size_t n)
{
    for (size_t i = 1; i + 12 <= n; i++)
        if (s[i] == 'C' && s[i + 1] == 'P' && s[i + 2] == 'U' && hexrun(s + i + 3, 4) == 4 && s[i + 7] == ':' &&
            s[i + 8] == ' ' && s[i + 9] == ' ' &&
            (!memcmp(s + i + 10, "PSW=", 4) || ((s[i + 10] == 'R' || s[i + 10] == 'V') && s[i + 11] == ':') ||
             is_reg_line(s + i + 10, n - i - 10)))
            return i;
    return 0;
}

/* The length of the trace piece at s ("CPU0001:  " on): a PSW line's first piece (3.13's
** first write: the prefix, PSW=, INST= and its digits, a blank and the padding that puts
** the mnemonic in its column: 8, 4 or no blanks for 2, 4 or 6 bytes) when it is one; the
** prefix alone when a bare PSW follows it (the prefix of a storage line whose R: comes on
** a later line; the PSW is the message's); else the rest of the line (a storage or
** register line is one write, its newline included). */
static size_t piece_len(const char *s, size_t n)
{
    if (memcmp(s + 10, "PSW=", 4))
        return n;
    for (size_t i = 14; i + 6 <= n && i < 60; i++)
        if (s[i] == ' ' && !memcmp(s + i, " INST=", 6)) {
            size_t d = i + 6, nd = hexrun(s + d, n - d), end = d + nd + 1 + (nd == 4 ? 8 : nd == 8 ? 4 : 0);
            if (nd != 4 && nd != 8 && nd != 12)
                return n;
            for (size_t k = d + nd; k < end; k++)
                if (k >= n || s[k] != ' ')
                    return n; /* not the padding Hercules writes: the rest is the piece's */
            return end;
        }
    return 10;
}

/* A message's line with another CPU's trace piece at `at`: the message is read whole (its
** head and, after the piece, its tail), then the piece. When what follows the piece is the
** piece's own disassembly, the message's tail comes on a later line and the head is read
** alone (HHCCP043I without its PSW is still a wait). The message first: its CPU is the one
** that wrote the lines before it; the piece's CPU is the one of the lines after it. */
static void message_split(fst_hlog *h, const char *s, size_t n, size_t at)
{
    size_t end = at + piece_len(s + at, n - at), tn = n - end;
    const char *tail = s + end;
    if (tn && rx(h, RX_DISASM, tail, tn)) { /* the piece's own: the message's tail comes later */
        end = n;
        tn = 0;
    }
    char msg[512];
    if (at + tn > sizeof msg) { /* no message of Hercules' is that long: not a shape we know */
        h->st.spliced++;
        malformed(h, s, n);
        tn = 0;
    }
    memcpy(msg, s, at);
    memcpy(msg + at, tail, tn);
    other_line(h, msg, at + tn);
    if (end - at > 10) {
        other_line(h, s + at, end - at);
        return;
    }
    /* a storage line's prefix alone: its R: or V: line comes next, that CPU's */
    unsigned cpu = (unsigned)strtoul((char[5]){ s[at + 3], s[at + 4], s[at + 5], s[at + 6], 0 }, NULL, 16);
    if (cpu < FST_EM_MAXCPU)
        fst_em_cpu(h->em, cpu);
    h->st.trace_lines++;
}

static void other_line(fst_hlog *h, const char *s, size_t n)
{
    size_t k = strip_stamp(h, s, n);
    s += k;
    n -= k;
    if (n == 0) {
        h->st.blank++;
        h->blank_after_regs |= h->regs_pending;
        return;
    }
    /* 3.13 writes a program check's "HHCCP014I " and its rest apart, and another thread's
    ** whole message can come between: "HHCCP014I HHCPN013I EOF reached on SCRIPT file. ...",
    ** then "CPU0000: Page-translation exception CODE=0011 ILC=4" (seen in a generated
    ** system's log, tests/os seed 105). The head waits for the rest: a line of a CPU prefix
    ** with one blank (a trace line's has two) that reads as the message's rest. */
    if (n > 13 && !memcmp(s, "HHCCP014I HHC", 13)) {
        h->pgm_head = 1;
        other_line(h, s + 10, n - 10);
        return;
    }
    if (h->pgm_head && n > 10 && n < 500 && !memcmp(s, "CPU", 3) && s[7] == ':' && s[8] == ' ' && s[9] != ' ') {
        char msg[512];
        memcpy(msg, "HHCCP014I ", 10);
        memcpy(msg + 10, s, n);
        if (rx(h, RX_PGM313, msg, n + 10)) {
            h->pgm_head = 0;
            message(h, msg, n + 10);
            return;
        }
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
        if (n > skip + 8 && !memcmp(s + skip, "CPU", 3) && hexrun(s + skip + 3, 4) == 4 && s[skip + 7] == ':') {
            h->st.spliced++;    /* 3.13's threads wrote into each other's line: its pieces are lost */
            malformed(h, s, n);
            sigp(h, s + skip, n - skip); /* a whole SIGP message after the piece: the end needs it */
            return;
        }
        if (n > skip && (s[skip] == 'P' || s[skip] == 'R' || s[skip] == 'V' || is_reg_line(s + skip, n - skip))) {
            if (cpu >= FST_EM_MAXCPU) { /* no Hercules has that many: never fold it onto another CPU */
                malformed(h, s, n);
                return;
            }
            fst_em_cpu(h->em, cpu);
            s += skip;
            n -= skip;
            size_t at = cpu_prefix_at(s, n);
            if (at) { /* another CPU's line began after this one's first piece */
                split_line(h, s, n, at);
                return;
            }
        }
    } else if (n > 6 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && hexrun(s + 2, 2) == 2 &&
               s[4] == ':' && s[5] == ' ') {
        fst_em_cpu(h->em, (unsigned)(fst_hexval((unsigned char)s[2]) << 4 | fst_hexval((unsigned char)s[3])));
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
        fst_em_fetch_error(h->em); /* 4.x's re-display of a failed fetch */
        h->st.trace_lines++;
        return;
    }
    if (n >= 5 && !memcmp(s, "EXRL ", 5)) { /* 3.13: the target of EXRL, not an execution */
        h->st.trace_lines++;
        return;
    }
    if (s[0] == 'H' || s[0] == ' ') { /* a message, or its continuation, cut by a CPU's trace piece */
        size_t at = trace_piece_at(s, n);
        if (at) {
            message_split(h, s, n, at);
            return;
        }
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
    if (message(h, s, n) || sigp(h, s, n) || rx(h, RX_SIGP313, s, n) || rx(h, RX_BANNER, s, n) || rx(h, RX_COMMAND, s, n)) {
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

/* One line of the log. The lines of a one-CPU trace without time stamps, first, in a
** function small enough to sit in the loop that splits the lines: none of the prefixes
** other_line strips begins with P, R or V and a non-digit (a stamp begins with digits, a
** CPU prefix with "CPU" or two letters and two hex digits), so they reach the same place. */
static inline void line(fst_hlog *h, const char *s, size_t n)
{
    h->st.lines++;
    while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    if (n >= 4 && s[0] == 'P' && s[1] == 'S' && s[2] == 'W' && s[3] == '=')
        psw_line(h, s, n);
    else if (n >= 3 && (s[0] == 'R' || s[0] == 'V') && s[1] == ':')
        stor_line(h, s, n);
    else
        other_line(h, s, n);
}

/* End of a feed: the emitter's counts into the stats; a write failure is the error. */
static int done(fst_hlog *h, fst_err *err)
{
    const fst_em_stats *es = fst_em_getstats(h->em);
    h->st.insns = es->insns;
    h->st.redisplays = es->redisplays;
    h->st.pgmchks = es->pgmchks;
    h->st.waits = es->waits;
    h->st.gaps = es->gaps;
    h->st.intrs = es->intrs;
    h->st.svcs = es->svcs;
    h->st.disabled_wait = es->disabled_wait;
    h->st.ended = es->ended;
    h->st.running = es->running;
    h->st.limit_hit = es->limit_hit;
    if (h->tf) {
        const fst_tf_stats *ts = fst_tf_getstats(h->tf);
        snprintf(h->st.hercules, sizeof h->st.hercules, "%s", ts->hercules);
        h->st.arch = ts->arch;
    }
    if (!fst_em_failed(h->em))
        return 0;
    return fst_errf(err, "%s: line %llu: cannot write the trace (disk full?)", h->name,
                    (unsigned long long)h->st.lines);
}

static int too_long(fst_hlog *h, fst_err *err)
{
    return fst_errf(err, "%s: line %llu: a line longer than %u bytes: not a Hercules log", h->name,
                    (unsigned long long)h->st.lines + 1, FST_HLOG_MAX_LINE);
}

static int text_feed(fst_hlog *h, const char *data, size_t n, fst_err *err)
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
            return done(h, err);
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
    return done(h, err);
}

/* The first three bytes say what the input is: "%TF" a trace file, anything else text. */
static int decide(fst_hlog *h, fst_err *err)
{
    char head[3];
    size_t n = h->plen;
    if (n)  /* an empty input has no partial line buffer at all */
        memcpy(head, h->part, n);
    h->plen = 0;
    if (fst_tf_magic(head, n) == 1) {
        h->kind = IN_TF;
        h->tf = fst_tf_new(h->em, h->name);
        snprintf(h->st.traceopt, sizeof h->st.traceopt, "tf");
        return fst_tf_feed(h->tf, head, n, err);
    }
    if (h->want_tf)
        return fst_errf(err, "%s: byte 0: not an SDL Hercules trace file (it does not begin with %%TF)", h->name);
    h->kind = IN_TEXT;
    return text_feed(h, head, n, err);
}

int fst_hlog_feed(fst_hlog *h, const char *data, size_t n, fst_err *err)
{
    if (h->kind == IN_UNKNOWN) {
        size_t take = h->plen + n < 3 ? n : 3 - h->plen;
        if (!h->pcap) {
            h->pcap = 256;
            h->part = fst_xmalloc(h->pcap);
        }
        memcpy(h->part + h->plen, data, take);
        h->plen += take;
        data += take;
        n -= take;
        if (h->plen < 3)
            return 0;
        if (decide(h, err))
            return -1;
    }
    if (h->kind == IN_TF) {
        if (fst_tf_feed(h->tf, data, n, err)) {
            done(h, NULL);
            return -1;
        }
        return done(h, err);
    }
    return text_feed(h, data, n, err);
}

int fst_hlog_finish(fst_hlog *h, fst_err *err)
{
    if (h->kind == IN_UNKNOWN && decide(h, err)) /* fewer than 3 bytes in all */
        return -1;
    if (h->kind == IN_TF) {
        int rc = fst_tf_finish(h->tf, err);
        return (done(h, rc ? NULL : err) || rc) ? -1 : 0;
    }
    if (h->plen) {
        line(h, h->part, h->plen);
        h->plen = 0;
    }
    fst_em_finish(h->em);
    if (!h->st.traceopt[0] || h->saw_psw) {
        const char *m = h->saw_regs_first ? "regsfirst" : h->saw_regs_after ? "traditional" : "noregs";
        if (!h->st.traceopt[0])
            snprintf(h->st.traceopt, sizeof h->st.traceopt, "%s", m);
    }
    return done(h, err);
}
