/* capture/emit.c — Hercules trace events to trace.bin records; see emit.h. */
#include "capture/emit.h"
#include "common/err.h"

#include <stdlib.h>
#include <string.h>

#define MAXCPU FST_EM_MAXCPU

/* What the storage operand of a CPU's last instruction is wanted for. */
enum { AW_NONE, AW_LPSW, AW_LPSWE, AW_LCTL, AW_LCTLG };
/* A record that waits for its instruction to complete (a program check drops it). */
enum { PD_NONE, PD_LPSW, PD_CR1 };

/* Per CPU: a trace interleaves the records of several CPUs. */
typedef struct ecpu {
    uint8_t redisplay;  /* a program check was announced: the next instruction shown is a copy */
    uint8_t await;      /* AW_*: the last instruction written wants its operand */
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
} ecpu;

struct fst_em {
    fst_tw *w;
    fst_em_stats st;
    uint64_t max_insns;
    unsigned cpu;
    uint32_t last_secs;
    int werr;
    /* what the last STATE written came from: the PSWs of a run mostly differ in their
    ** address only, and fst_psw_state reads bytes 0-4, the length and the architecture */
    int st_have, st_arch;
    uint64_t st_key;
    ecpu cpus[MAXCPU];
    fst_pe end; /* when the program has ended (capture/progend.h) */
};

/* PSW bytes (architected) to an instruction address and the state word (FST_ST_*). */
static inline uint64_t psw_ia(const uint8_t *p, int len)
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

uint64_t fst_psw_ia(const uint8_t *p, int len) { return psw_ia(p, len); }

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

fst_em *fst_em_new(fst_tw *w, uint64_t max_insns)
{
    fst_em *e = fst_xcalloc(1, sizeof *e);
    e->w = w;
    e->max_insns = max_insns;
    fst_pe_init(&e->end);
    return e;
}

/* The rule's answer after an event, into the stats. */
static void end_now(fst_em *e)
{
    e->st.ended = fst_pe_ended(&e->end);
    e->st.running = fst_pe_running(&e->end);
}

void fst_em_free(fst_em *e) { free(e); }
const fst_em_stats *fst_em_getstats(const fst_em *e) { return &e->st; }
int fst_em_failed(const fst_em *e) { return e->werr; }
unsigned fst_em_curcpu(const fst_em *e) { return e->cpu; }

static ecpu *cpu_of(fst_em *e, unsigned cpu) { return &e->cpus[cpu & (MAXCPU - 1)]; }
static void wr(fst_em *e, int rc) { e->werr |= rc != 0; }

void fst_em_cpu(fst_em *e, unsigned cpu)
{
    if (cpu != e->cpu) {
        e->cpu = cpu;
        wr(e, fst_tw_cpu(e->w, cpu));
    }
}

static void write_cr1(fst_em *e, ecpu *c, uint64_t value)
{
    wr(e, fst_tw_cr(e->w, 1, value));
    c->have_cr1 = 1;
    c->cr1 = value;
}

/* Write the CPU's pending record: its instruction completed. */
static void pend_write(fst_em *e, unsigned cpu)
{
    ecpu *c = cpu_of(e, cpu);
    if (c->pend == PD_NONE)
        return;
    fst_em_cpu(e, cpu);
    if (c->pend == PD_LPSW)
        wr(e, fst_tw_lpsw(e->w, c->pval, c->psw, c->pswlen));
    else
        write_cr1(e, c, c->pval);
    c->pend = PD_NONE;
}

/* The CPU's next record is due (its next instruction, another event, the end): write the
** pending record, or drop it when a program check was announced after it — unless
** `fetch_error`: the re-display says the check came from fetching the next instruction,
** so the LPSW/LCTL itself completed. A held program check is written after it. */
static void pend_settle(fst_em *e, unsigned cpu, int fetch_error)
{
    ecpu *c = cpu_of(e, cpu);
    if (!c->pgm && c->pend == PD_NONE) /* nearly always: nothing waits */
        return;
    if (!c->pgm) {
        pend_write(e, cpu);
        return;
    }
    if (!fetch_error)
        c->pend = PD_NONE; /* the instruction ended in the check: it loaded nothing */
    pend_write(e, cpu);
    fst_em_cpu(e, cpu);
    wr(e, fst_tw_pgmchk(e->w, c->pgm_code, c->pgm_ilc));
    c->pgm = 0;
}

static void pend_settle_all(fst_em *e)
{
    for (unsigned i = 0; i < MAXCPU; i++)
        if (e->cpus[i].pend || e->cpus[i].pgm)
            pend_settle(e, i, 0);
}

void fst_em_begin(fst_em *e)
{
    ecpu *c = cpu_of(e, e->cpu);
    if (c->pgm || c->pend) /* nearly always neither: no call */
        pend_settle(e, e->cpu, 0);
    c->await = AW_NONE;
}

/* What a storage operand is wanted for after instruction ib (see fst_em_operand). */
static void await_operand(ecpu *c, const uint8_t *ib)
{
    c->await = ib[0] == 0x82                    ? AW_LPSW
             : ib[0] == 0xB2 && ib[1] == 0xB2   ? AW_LPSWE
             : ib[0] == 0xB7                    ? AW_LCTL
             : ib[0] == 0xEB && ib[5] == 0x2F   ? AW_LCTLG
                                                : AW_NONE;
    c->r1 = ib[1] >> 4;
    c->r3 = ib[1] & 0x0F;
}

/* The state word of an instruction's PSW to the writer. Only fst_em_insn writes STATE, and
** always right after this: when the PSW's bytes 0-4, length and architecture are those of
** the last call, the writer has that state already (a STATE again would be dropped). */
static void state_out(fst_em *e, const uint8_t *p, int len, int arch)
{
    uint32_t w0;
    memcpy(&w0, p, 4); /* a key, not a number: byte order does not matter */
    uint64_t key = w0 | (uint64_t)p[4] << 32 | (uint64_t)(len == 16) << 40;
    if (e->st_have && key == e->st_key && arch == e->st_arch)
        return;
    e->st_have = 1;
    e->st_key = key;
    e->st_arch = arch;
    wr(e, fst_tw_state(e->w, fst_psw_state(p, len, arch)));
}

int fst_em_insn(fst_em *e, const uint8_t *psw, int pswlen, int arch, const uint8_t *ib, int len)
{
    ecpu *c = cpu_of(e, e->cpu);
    fst_em_begin(e);
    if (fst_pe_insn(&e->end, e->cpu, ib[0] == 0xAE)) /* a re-display or past the limit: it runs all the same */
        end_now(e);
    if (c->redisplay) { /* the copy Hercules shows after a program check */
        c->redisplay = 0;
        e->st.redisplays++;
        return 0;
    }
    if (e->max_insns && e->st.insns >= e->max_insns) {
        e->st.limit_hit = 1;
        return 0;
    }
    state_out(e, psw, pswlen, arch);
    wr(e, fst_tw_insn(e->w, psw_ia(psw, pswlen), ib, len));
    e->st.insns++;
    if (ib[0] == 0x0A) { /* SVC: Hercules shows no record for its interruption */
        wr(e, fst_tw_intr(e->w, FST_INTR_SVC, ib[1]));
        e->st.svcs++;
    }
    await_operand(c, ib);
    return 1;
}

void fst_em_fetch_error(fst_em *e)
{
    ecpu *c = cpu_of(e, e->cpu);
    pend_settle(e, e->cpu, 1); /* the check was not the LPSW's: it came from the fetch */
    c->await = AW_NONE;
    if (c->redisplay) {
        c->redisplay = 0;
        e->st.redisplays++;
    }
}

int fst_em_wants_operand(const fst_em *e) { return e->cpus[e->cpu & (MAXCPU - 1)].await != AW_NONE; }

static uint64_t be_value(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Keep what an LPSW/LPSWE/LCTL/LCTLG loads pending until the instruction is known to have
** completed. Nothing when fewer bytes are shown than were loaded. */
void fst_em_operand(fst_em *e, uint64_t addr, const uint8_t *data, unsigned n)
{
    ecpu *c = cpu_of(e, e->cpu);
    int aw = c->await;
    c->await = AW_NONE; /* a second operand is another operand */
    if (aw == AW_LPSW || aw == AW_LPSWE) {
        unsigned need = aw == AW_LPSW ? 8 : 16;
        if (n < need)
            return;
        c->pend = PD_LPSW;
        c->pval = addr;
        c->pswlen = (uint8_t)need;
        memcpy(c->psw, data, need);
        return;
    }
    if (aw != AW_LCTL && aw != AW_LCTLG)
        return;
    /* LCTL r1,r3 loads r1, r1+1, ... r3 (wrapping 15 to 0) from consecutive words */
    unsigned width = aw == AW_LCTL ? 4 : 8, k = (1u - c->r1) & 15;
    if (k > ((unsigned)(c->r3 - c->r1) & 15) || (k + 1) * width > n)
        return; /* CR1 not loaded, or its word is past what is shown */
    c->pend = PD_CR1;
    c->pval = be_value(data + k * width, width);
}

/* A displayed CR1 that is not the value last written (nor the one an LCTL is about to
** write) is news: the address space as the display found it. */
void fst_em_cr1(fst_em *e, uint64_t v)
{
    ecpu *c = cpu_of(e, e->cpu);
    if (!(c->have_cr1 && c->cr1 == v) && !(c->pend == PD_CR1 && c->pval == v))
        write_cr1(e, c, v);
}

void fst_em_pgmchk(fst_em *e, uint32_t code, unsigned ilc)
{
    ecpu *c = cpu_of(e, e->cpu);
    if (c->pgm) /* a second check before any re-display */
        pend_settle(e, e->cpu, 0);
    c->redisplay = 1;
    c->await = AW_NONE; /* operands shown now are the re-display's */
    if (c->pend) { /* whose check is it? the re-display will tell (pend_settle) */
        c->pgm = 1;
        c->pgm_code = code;
        c->pgm_ilc = (uint8_t)ilc;
    } else
        wr(e, fst_tw_pgmchk(e->w, code, ilc));
    e->st.pgmchks++;
}

void fst_em_wait(fst_em *e, unsigned kind, const uint8_t *psw, unsigned pswlen)
{
    pend_settle(e, e->cpu, 0);
    wr(e, fst_tw_wait(e->w, kind, psw, pswlen));
    e->st.waits++;
    if (kind) {
        e->st.disabled_wait = 1;
        fst_pe_dwait(&e->end, e->cpu);
        end_now(e);
    }
}

void fst_em_sigp(fst_em *e, unsigned to, unsigned order, unsigned cc)
{
    fst_pe_sigp(&e->end, e->cpu, to, order, cc);
    end_now(e);
}

void fst_em_intr(fst_em *e, unsigned cls, uint32_t code)
{
    pend_settle(e, e->cpu, 0);
    wr(e, fst_tw_intr(e->w, cls, code));
    e->st.intrs++;
}

void fst_em_gap(fst_em *e)
{
    pend_settle_all(e);
    wr(e, fst_tw_gap(e->w));
    e->st.gaps++;
}

void fst_em_time(fst_em *e, uint32_t secs)
{
    if (secs != e->last_secs) {
        e->last_secs = secs;
        wr(e, fst_tw_time(e->w, secs));
    }
}

void fst_em_finish(fst_em *e) { pend_settle_all(e); }
