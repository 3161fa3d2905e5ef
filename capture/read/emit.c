/* capture/read/emit.c — Hercules trace events to trace.bin records; see emit.h. */
#include "capture/read/emit.h"
#include "common/err.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAXCPU FST_EM_MAXCPU

/* What the storage operand of a CPU's last instruction is wanted for. */
enum { AW_NONE, AW_LPSW, AW_LPSWE, AW_LCTL, AW_LCTLG };
/* A record that waits for its instruction to complete (a program check drops it). */
enum { PD_NONE, PD_LPSW, PD_CR1 };

/* Per CPU: a trace interleaves the records of several CPUs. */
typedef struct ecpu {
    /* what is due when the CPU's next record comes (settle_due reads the 8 bytes as one
    ** word: they stay together, in this order) */
    uint8_t pend;       /* PD_* */
    uint8_t pgm;        /* a program check announced after the pending record, held back */
    uint8_t held;       /* an instruction waits for the end of its display (below) */
    uint8_t a_opnd, a_old;  /* records after the instruction (below) */
    uint8_t dcr1_shown; /* the display showed CR1, registers (below) */
    uint16_t dshown;
    uint8_t redisplay;  /* a program check was announced: the next instruction shown is a copy */
    uint8_t await;      /* AW_*: the last instruction written wants its operand */
    uint8_t r1, r3;     /* LCTL/LCTLG: the registers loaded */
    uint8_t pswlen;     /* PD_LPSW */
    uint8_t psw[16];
    uint64_t pval;      /* PD_LPSW: operand address; PD_CR1: the value loaded */
    uint8_t pgm_ilc;
    uint32_t pgm_code;
    uint8_t have_cr1;
    uint64_t cr1;       /* the last CR1 value written for this CPU */
    /* the instruction shown last, held until its register display has been read when
    ** registers follow it or may (fst_em_regs_order): held, then */
    uint8_t h_pswlen, h_len;
    int h_arch;
    uint8_t h_psw[16], h_ib[6];
    /* what the current display shows besides the instruction: registers (written before
    ** its instruction as REGS, those that changed), CR1: dshown, dcr1_shown, then */
    uint64_t dgr[16], dcr1;
    uint16_t wvalid;    /* registers the last REGS records of this CPU gave, and their values */
    uint64_t wgr[16];
    /* base registers the display's operand addresses show (a range trace without
    ** registers: BASES), and those the last BASES records gave */
    uint16_t dbshown, bvalid;
    uint64_t dbase[16], bw[16];
    uint8_t d_ib[6];    /* the display's instruction, its address mask */
    uint64_t d_amask;
    /* the last instruction written: its address, length, first bytes, state, and its first
    ** storage operand shown (OPND at a discontinuity) */
    uint8_t l_have, l_len, l_sup, l_branch, op_have, op_index;
    uint64_t l_ia, op_addr;
    /* records written after the instruction (at settle): its OPND (an LM in supervisor
    ** state), an OLDPSW its operands showed */
    uint8_t handling, l_prob;   /* a handler runs (from an interruption to its LPSW); the last
                           instruction was in problem state (and no SVC) */
    uint8_t d_want;     /* the display's operands are wanted at all (fst_em_wants_operands) */
    uint8_t d_live, d_sup, d_lm, d_pswlen; /* the display is of an executed instruction, in
                           supervisor state, an LM or STM of all 16 registers; its PSW length */
    uint8_t a_oldlen;   /* a_opnd, a_old, then */
    uint64_t a_opnd_addr, a_old_slot;
    uint8_t a_old_psw[16];
} ecpu;
_Static_assert(offsetof(ecpu, pgm) == 1 && offsetof(ecpu, held) == 2 && offsetof(ecpu, a_opnd) == 3 &&
               offsetof(ecpu, a_old) == 4 && offsetof(ecpu, dcr1_shown) == 5 && offsetof(ecpu, dshown) == 6,
               "settle_due reads pend .. dshown as one word");

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
    int bases;          /* a range trace: operand addresses tell base registers (fst_em_bases) */
    int hold;           /* an instruction waits for the end of its display (holds()) */
    int order;          /* where the source shows registers (FST_EM_REGS_*, fst_em_regs_order):
                           until it is known, and when they follow their instruction, an
                           instruction is held until its display has ended */
    ecpu cpus[MAXCPU];
    fst_pe end; /* when the program has ended (capture/read/progend.h) */
};

static void hold_set(fst_em *e);


fst_em *fst_em_new(fst_tw *w, uint64_t max_insns)
{
    fst_em *e = fst_xcalloc(1, sizeof *e);
    e->w = w;
    e->max_insns = max_insns;
    hold_set(e);
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

/* Whether an instruction waits for the end of its display: while the source has not said
** where its registers are, and when they follow it. */
static inline int holds(const fst_em *e) { return e->hold; }

static void hold_set(fst_em *e)
{
    e->hold = e->order <= FST_EM_REGS_AFTER || (e->bases && e->order == FST_EM_REGS_NONE);
}

/* Write the CPU's pending record: its instruction completed. */
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

/* The state word of an instruction's PSW to the writer. Only fst_em_insn writes STATE, and
** always right after this: when the PSW's bytes 0-4, length and architecture are those of
** the last call, the writer has that state already (a STATE again would be dropped). */
static inline __attribute__((always_inline)) void state_out(fst_em *e, const uint8_t *p, int len, int arch)
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

/* What the display showed besides its instruction, written before it: CR1 when it is
** news (not the value last written, nor the one an LCTL of the instruction before is
** about to write), and the registers that changed since the last REGS (emit.h). */
static void display_regs(fst_em *e, ecpu *c);

static inline void display_out(fst_em *e, ecpu *c)
{
    if (c->dshown | c->dbshown | c->dcr1_shown) /* nearly never in a noregs trace */
        display_regs(e, c);
}

static void display_regs(fst_em *e, ecpu *c)
{
    if (c->dcr1_shown && !(c->have_cr1 && c->cr1 == c->dcr1) && !(c->pend == PD_CR1 && c->pval == c->dcr1))
        write_cr1(e, c, c->dcr1);
    uint16_t m = 0;
    for (int r = 0; r < 16; r++)
        if ((c->dshown >> r & 1) && (!(c->wvalid >> r & 1) || c->wgr[r] != c->dgr[r])) {
            m |= (uint16_t)(1u << r);
            c->wgr[r] = c->dgr[r];
        }
    c->wvalid |= c->dshown;
    if (m)
        wr(e, fst_tw_regs(e->w, m, c->wgr));
    m = 0;
    for (int r = 0; r < 16 && !c->dshown; r++) /* the operands' base registers, when no GR was shown */
        if ((c->dbshown >> r & 1) && (!(c->bvalid >> r & 1) || c->bw[r] != c->dbase[r])) {
            m |= (uint16_t)(1u << r);
            c->bw[r] = c->dbase[r];
        }
    c->bvalid |= m;
    if (m)
        wr(e, fst_tw_bases(e->w, m, c->bw));
    c->dshown = c->dbshown = 0;
    c->dcr1_shown = 0;
}

static void display_drop(ecpu *c)
{
    c->dshown = c->dbshown = 0;
    c->dcr1_shown = 0;
}

/* The base register and displacement of storage operand k (0: the first line Hercules
** shows, 1: the second) of instruction ib, when the address shows the base register's
** value: a base other than 0 and no index. S/370 and ESA/390 formats: RX (operand 2),
** RS and SI (operand 1 or 2 at bytes 2-3), SS (operand 1, then 2). 0 when not known. */
static int operand_base(const uint8_t *ib, unsigned k, unsigned *b, uint64_t *d)
{
    uint8_t op = ib[0];
    const uint8_t *bd;
    if (op >= 0x40 && op <= 0x7F) {         /* RX */
        if (k || (ib[1] & 0x0F))
            return 0;
        bd = ib + 2;
    } else if ((op >= 0x86 && op <= 0x87) || (op >= 0x90 && op <= 0x98) || (op >= 0xBA && op <= 0xBF) ||
               op == 0xB6 || op == 0xB7 || op == 0x82) {
        if (k)                                /* RS, SI, S */
            return 0;
        bd = ib + 2;
    } else if ((op >= 0xD0 && op <= 0xDF) || op >= 0xF0) {
        bd = ib + (k ? 4 : 2);                /* SS */
    } else
        return 0;
    *b = bd[0] >> 4;
    *d = (uint64_t)(bd[0] & 0x0F) << 8 | bd[1];
    return *b != 0;
}

/* RX and RS branches whose first storage operand is their target (BAL BCT BC BAS BXH
** BXLE, BCTG BXHG BXLEG): OPND tells a suspended task's other resume address. */
static int operand_branch(const uint8_t *ib)
{
    switch (ib[0]) {
    case 0x45: case 0x46: case 0x47: case 0x4D: case 0x86: case 0x87: return 1;
    case 0xE3: return ib[5] == 0x46;
    case 0xEB: return ib[5] == 0x44 || ib[5] == 0x45;
    default: return 0;
    }
}

/* An instruction to the writer (now, or when its held display ends), then what its
** execution implies at once (an SVC's interruption). */
static inline __attribute__((always_inline)) void insn_out(fst_em *e, ecpu *c, const uint8_t *psw, int pswlen, int arch,
                                                           const uint8_t *ib, int len, uint64_t ia)
{
    display_out(e, c);
    state_out(e, psw, pswlen, arch);
    wr(e, fst_tw_insn(e->w, ia, ib, len));
    if (ib[0] == 0x0A) /* SVC: Hercules shows no record for its interruption */
        wr(e, fst_tw_intr(e->w, FST_INTR_SVC, ib[1]));
    c->l_have = 1;
    c->l_ia = ia;
    c->l_len = (uint8_t)len;
    c->l_branch = !(psw[1] & 0x01) ? 0 : (uint8_t)operand_branch(ib);   /* a task's (problem state) */
}

static void held_out(fst_em *e, unsigned cpu)
{
    ecpu *c = cpu_of(e, cpu);
    fst_em_cpu(e, cpu);
    c->held = 0;
    insn_out(e, c, c->h_psw, c->h_pswlen, c->h_arch, c->h_ib, c->h_len, fst_psw_ia(c->h_psw, c->h_pswlen));
}

/* The records an instruction's operands implied, after it: its OPND (an LM or STM of all
** registers in supervisor state), an old PSW shown. */
static void after_out(fst_em *e, unsigned cpu)
{
    ecpu *c = cpu_of(e, cpu);
    fst_em_cpu(e, cpu);
    if (c->a_opnd)
        wr(e, fst_tw_opnd(e->w, c->a_opnd_addr));
    if (c->a_old)
        wr(e, fst_tw_oldpsw(e->w, c->a_old_slot, c->a_old_psw, c->a_oldlen));
    c->a_opnd = c->a_old = 0;
}

/* The CPU's next record is due (its next instruction, another event, the end): its held
** instruction goes out (or the display that had none is dropped: a re-display's), then
** its pending record, or that is dropped when a program check was announced after it —
** unless `fetch_error`: the re-display says the check came from fetching the next
** instruction, so the LPSW/LCTL itself completed. A held program check is written after
** it. */
static void pend_settle(fst_em *e, unsigned cpu, int fetch_error)
{
    ecpu *c = cpu_of(e, cpu);
    if (c->held)
        held_out(e, cpu);
    else if (holds(e))
        display_drop(c);
    if (c->a_opnd || c->a_old)
        after_out(e, cpu);
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

/* Something waits for the CPU's next record (a display's registers only while instructions
** are held: else they wait for their instruction). One word read: nearly always 0. */
static inline int settle_due(const fst_em *e, const ecpu *c)
{
    uint64_t w;
    memcpy(&w, c, sizeof w);   /* pend, pgm, held, a_opnd, a_old, dcr1_shown, dshown */
    return w && (w & 0xFFFFFFFFFFull || holds(e));
}

static void pend_settle_all(fst_em *e)
{
    for (unsigned i = 0; i < MAXCPU; i++)
        if (settle_due(e, &e->cpus[i]))
            pend_settle(e, i, 0);
}

static inline __attribute__((always_inline)) void begin(fst_em *e, ecpu *c)
{
    if (settle_due(e, c)) /* nearly always not: no call */
        pend_settle(e, e->cpu, 0);
    c->await = AW_NONE;
}

void fst_em_begin(fst_em *e) { begin(e, cpu_of(e, e->cpu)); }

void fst_em_bases(fst_em *e, int on)
{
    e->bases = on != 0;
    hold_set(e);
}

void fst_em_display_drop(fst_em *e) { display_drop(cpu_of(e, e->cpu)); }

void fst_em_regs_order(fst_em *e, int order)
{
    if (order == e->order)
        return;
    if (order == FST_EM_REGS_AFTER && e->order != FST_EM_REGS_UNKNOWN)
        for (unsigned i = 0; i < MAXCPU; i++) /* what was shown so far belongs to instructions written */
            display_drop(&e->cpus[i]);
    e->order = order;
    hold_set(e);
    if (holds(e))
        return;
    unsigned cur = e->cpu;   /* nothing waits from now on: the instructions held go out, in order */
    for (unsigned i = 0; i < MAXCPU; i++)
        if (e->cpus[i].held)
            held_out(e, i);
    fst_em_cpu(e, cur);
}

/* What a storage operand is wanted for after instruction ib (see fst_em_operand). */
static void await_operand(ecpu *c, const uint8_t *ib, int sup)
{
    c->await = ib[0] == 0x82                    ? AW_LPSW
             : ib[0] == 0xB2 && ib[1] == 0xB2   ? AW_LPSWE
             : ib[0] == 0xB7                    ? AW_LCTL
             : ib[0] == 0xEB && ib[5] == 0x2F   ? AW_LCTLG
                                                : AW_NONE;
    c->r1 = ib[1] >> 4;
    c->r3 = ib[1] & 0x0F;
    /* LM or LMG of all 16 registers in supervisor state: a dispatcher's (an epilogue's
    ** LM 14,12 leaves R13 out); STM or STMG of all 16: a handler saving a task's */
    c->d_lm = sup && ((unsigned)(c->r3 - c->r1) & 15) == 15 &&
              (ib[0] == 0x98 || ib[0] == 0x90 || (ib[0] == 0xEB && (ib[5] == 0x04 || ib[5] == 0x24)));
}

int fst_em_insn(fst_em *e, const uint8_t *psw, int pswlen, int arch, const uint8_t *ib, int len)
{
    ecpu *c = cpu_of(e, e->cpu);
    begin(e, c);
    c->d_live = 0;
    c->op_index = 0;
    if (fst_pe_insn(&e->end, e->cpu, ib[0] == 0xAE)) /* a re-display or past the limit: it runs all the same */
        end_now(e);
    if (c->redisplay) { /* the copy Hercules shows after a program check */
        c->redisplay = 0;
        e->st.redisplays++;
        display_drop(c);
        return 0;
    }
    if (e->max_insns && e->st.insns >= e->max_insns) {
        e->st.limit_hit = 1;
        display_drop(c);
        return 0;
    }
    uint64_t ia = fst_psw_ia(psw, pswlen);
    /* the last instruction, a branch, was followed by neither its fall-through nor its
    ** target: an interruption or a task switch came after it (the target a task resumes
    ** at: tracebin.h OPND) */
    if (c->l_have && c->l_branch && c->op_have && ia != c->l_ia + c->l_len && ia != c->op_addr)
        wr(e, fst_tw_opnd(e->w, c->op_addr));
    c->l_have = c->op_have = 0;
    if (holds(e)) { /* its registers are still to come (or may be): it waits for them */
        c->held = 1;
        c->h_pswlen = (uint8_t)pswlen;
        c->h_len = (uint8_t)len;
        c->h_arch = arch;
        memcpy(c->h_psw, psw, (size_t)pswlen);
        memcpy(c->h_ib, ib, (size_t)len);
        c->l_have = 1;  /* as insn_out will say */
        c->l_ia = ia;
        c->l_len = (uint8_t)len;
        c->l_branch = !(psw[1] & 0x01) ? 0 : (uint8_t)operand_branch(ib);
    } else
        insn_out(e, c, psw, pswlen, arch, ib, len, ia);
    e->st.insns++;
    if (ib[0] == 0x0A)
        e->st.svcs++;
    c->d_live = 1;
    if (e->bases) { /* what operand addresses show of base registers: the instruction's format and mode */
        int am = fst_st_amode(fst_psw_state(psw, pswlen, arch));
        memcpy(c->d_ib, ib, (size_t)len);
        c->d_amask = am == 2 ? ~0ull : am == 1 ? 0x7FFFFFFFull : 0xFFFFFFull;
    }
    c->d_sup = !(psw[1] & 0x01);
    /* a handler runs from an interruption (a problem-state instruction followed by a
    ** supervisor one, a program check or I/O or external record, an SVC) to its LPSW: its
    ** instructions may show the old PSW (OLDPSW) */
    c->handling = c->d_sup && (c->handling || c->l_prob);
    c->l_prob = !c->d_sup && ib[0] != 0x0A;
    c->handling |= ib[0] == 0x0A;
    c->d_pswlen = (uint8_t)(pswlen == 16 || arch == FST_ARCH_ZARCH ? 16 : 8);
    await_operand(c, ib, c->d_sup);
    if (c->await == AW_LPSW || c->await == AW_LPSWE)
        c->handling = 0;
    /* a task's branch (problem state: the supervisor's own are no task's), a dispatcher's LM,
    ** a handler's old PSW, an LPSW's or LCTL's operand, a range trace's base registers */
    c->d_want = c->await != AW_NONE || c->d_lm || (c->l_branch && !c->d_sup) || (c->d_sup && c->handling) || e->bases;
    return 1;
}

/* Nothing waits for the CPU's next record, and k instructions may go in one step (fst_em_seq). */
static int plain_ok(fst_em *e, ecpu *c, uint64_t k)
{
    return k && !settle_due(e, c) && !c->redisplay && !e->max_insns && !holds(e) && !e->bases && !c->op_have &&
           !(c->dshown | c->dbshown | c->dcr1_shown) && !fst_pe_insns(&e->end, e->cpu, k);
}

int fst_em_seq(fst_em *e, const uint8_t *psw, int pswlen, int arch, uint64_t ia, uint64_t k, uint64_t next,
               uint64_t last_ia, const uint8_t *last_ib, int last_len)
{
    fst_em_run r = { ia, k, next, last_ia, { 0 }, last_len };
    memcpy(r.last_ib, last_ib, 6);
    return fst_em_seqs(e, psw, pswlen, arch, &r, 1);
}

/* What fst_em_seq leaves of its runs is the last one's: nothing a run changes makes the
** next one's test fail (an SVC, SIGP or PSW-loading instruction is never in one), and
** the program's end counts k instructions in one step as one by one (progend.h). */
int fst_em_seqs(fst_em *e, const uint8_t *psw, int pswlen, int arch, const fst_em_run *run, size_t n)
{
    ecpu *c = cpu_of(e, e->cpu);
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += run[i].k;
    if (!n || !plain_ok(e, c, k))
        return -1;
    /* fst_em_insn's steps, once: what each of the k leaves is the last one's */
    c->await = AW_NONE;
    c->l_have = c->op_have = 0;
    state_out(e, psw, pswlen, arch);
    /* the last instructions' bytes to the writer, which says from them whether a run ends in
    ** a TAKEN instead of looking them up; not in S/370, which has none (tracebin_write.c
    ** jump_to: cgen seed 26598's rebuild 4 % fewer host instructions, gen.py 15230's the same) */
    if (arch == FST_ARCH_S370)
        for (size_t i = 0; i < n; i++)
            wr(e, fst_tw_seq(e->w, run[i].ia, run[i].k, run[i].next, run[i].last_ia));
    else
        for (size_t i = 0; i < n; i++)
            wr(e, fst_tw_seq_ib(e->w, run[i].ia, run[i].k, run[i].next, run[i].last_ia, run[i].last_ib));
    const fst_em_run *l = &run[n - 1];
    c->l_have = 1;
    c->l_ia = l->last_ia;
    c->l_len = (uint8_t)l->last_len;
    c->l_branch = !(psw[1] & 0x01) ? 0 : (uint8_t)operand_branch(l->last_ib);
    e->st.insns += k;
    c->d_live = 1;
    c->op_index = 0;
    c->d_sup = !(psw[1] & 0x01);
    c->handling = c->d_sup && (c->handling || c->l_prob);  /* the same after each: none an SVC */
    c->l_prob = !c->d_sup;
    c->d_pswlen = (uint8_t)(pswlen == 16 || arch == FST_ARCH_ZARCH ? 16 : 8);
    await_operand(c, l->last_ib, c->d_sup);
    c->d_want = c->await != AW_NONE || c->d_lm || (c->l_branch && !c->d_sup) || (c->d_sup && c->handling);
    return 0;
}

_Static_assert(sizeof(ecpu) <= FST_EM_MARK_CPU, "a mark keeps a CPU's whole state");

void fst_em_mark_at(fst_em *e, fst_em_mark *m)
{
    fst_tw_mark_at(e->w, &m->w);
    m->st = e->st;
    m->cpu = e->cpu;
    memcpy(m->cs, cpu_of(e, e->cpu), sizeof(ecpu));
}

/* The counts are the mark's, but for instructions. */
static int same_counts(const fst_em_stats *a, const fst_em_stats *b)
{
    return a->redisplays == b->redisplays && a->pgmchks == b->pgmchks && a->waits == b->waits &&
           a->gaps == b->gaps && a->intrs == b->intrs && a->svcs == b->svcs && a->disabled_wait == b->disabled_wait &&
           a->ended == b->ended && a->running == b->running && a->limit_hit == b->limit_hit;
}

int fst_em_repeat(fst_em *e, const fst_em_mark *m, uint64_t times)
{
    ecpu *c = cpu_of(e, e->cpu);
    uint64_t dk = e->st.insns - m->st.insns;
    if (e->cpu != m->cpu || !dk || !same_counts(&e->st, &m->st) || memcmp(c, m->cs, sizeof *c) ||
        fst_tw_repeat_ok(e->w, &m->w) != dk || !plain_ok(e, c, dk * times))
        return -1;
    wr(e, fst_tw_repeat(e->w, &m->w, times));
    e->st.insns += dk * times;
    return 0;
}

void fst_em_fetch_error(fst_em *e)
{
    ecpu *c = cpu_of(e, e->cpu);
    pend_settle(e, e->cpu, 1); /* the check was not the LPSW's: it came from the fetch */
    c->await = AW_NONE;
    c->d_live = 0;
    if (c->redisplay) {
        c->redisplay = 0;
        e->st.redisplays++;
    }
}

int fst_em_wants_operand(const fst_em *e) { return e->cpus[e->cpu & (MAXCPU - 1)].await != AW_NONE; }

int fst_em_wants_data(const fst_em *e, uint64_t addr)
{
    const ecpu *c = &e->cpus[e->cpu & (MAXCPU - 1)];
    return c->await != AW_NONE || (c->d_live && c->d_sup && c->handling && addr < 0x180);
}

int fst_em_wants_operands(const fst_em *e)
{
    const ecpu *c = &e->cpus[e->cpu & (MAXCPU - 1)];
    return c->d_live && c->d_want;
}

static uint64_t be_value(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* An old-PSW slot of the PSA: S/370 and ESA/390 8-byte PSWs at 18-38, z/Architecture
** 16-byte ones at 130-170 (external, SVC, program, machine check, I/O). */
static int oldpsw_slot(uint64_t addr, unsigned pswlen)
{
    if (pswlen == 16)
        return addr >= 0x130 && addr <= 0x170 && !(addr & 0xF);
    return addr >= 0x18 && addr <= 0x38 && !(addr & 7);
}

/* Every storage operand line of the display: the first one is the instruction's operand
** (an LPSW/LCTL's, an LM's block, a branch's target); any shows an old PSW when it is a
** slot's. What an LPSW/LPSWE/LCTL/LCTLG loads stays pending until the instruction is known
** to have completed (nothing when fewer bytes are shown than were loaded). */
void fst_em_operand(fst_em *e, uint64_t addr, const uint8_t *data, unsigned n)
{
    ecpu *c = cpu_of(e, e->cpu);
    int aw = c->await;
    c->await = AW_NONE; /* a second operand is another operand */
    if (c->d_live) {
        unsigned b;
        uint64_t d;
        if (e->bases && operand_base(c->d_ib, c->op_index, &b, &d)) {
            c->dbase[b] = (addr - d) & c->d_amask;
            c->dbshown |= (uint16_t)(1u << b);
        }
        if (c->op_index++ == 0) {
            c->op_have = 1;
            c->op_addr = addr;
            if (c->d_lm) {
                c->a_opnd = 1;
                c->a_opnd_addr = addr;
            }
        }
        if (c->d_sup && c->handling && !c->a_old && oldpsw_slot(addr, c->d_pswlen) && n >= c->d_pswlen) {
            c->a_old = 1;
            c->a_old_slot = addr;
            c->a_oldlen = c->d_pswlen;
            memcpy(c->a_old_psw, data, c->d_pswlen);
        }
    }
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

/* CR1 and the general registers as the display shows them: written before the
** instruction they belong to (display_out). */
void fst_em_cr1(fst_em *e, uint64_t v)
{
    ecpu *c = cpu_of(e, e->cpu);
    c->dcr1_shown = 1;
    c->dcr1 = v;
}

void fst_em_gr(fst_em *e, unsigned r, uint64_t v)
{
    ecpu *c = cpu_of(e, e->cpu);
    c->dgr[r & 15] = v;
    c->dshown |= (uint16_t)(1u << (r & 15));
}

void fst_em_pgmchk(fst_em *e, uint32_t code, unsigned ilc)
{
    ecpu *c = cpu_of(e, e->cpu);
    c->handling = 1;
    if (c->held) /* its instruction first: the check's record follows it */
        held_out(e, e->cpu);
    if (c->a_opnd || c->a_old)
        after_out(e, e->cpu);
    if (c->pgm) /* a second check before any re-display */
        pend_settle(e, e->cpu, 0);
    c->redisplay = 1;
    c->await = AW_NONE; /* operands shown now are the re-display's */
    c->d_live = 0;
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
    cpu_of(e, e->cpu)->handling = 1;
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
