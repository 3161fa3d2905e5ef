/* capture/modread/modstream.c — see modstream.h. */
#include "capture/modread/modstream.h"
#include "capture/module/fstmod_wire.h"
#include "trace/psw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS_MAXCPU 256u
#define MS_BATCH 256u  /* taken branches given to the emitter in one step (batch_branch) */
#define MS_MEMO 32768u  /* runs remembered (a direct-mapped table, by start and end: a loop's run and the
                        ** one from its top to the return after it begin at the same address). 4096
                        ** were too few for a FORTRAN load module's hundreds of hot runs: those that
                        ** met went one instruction at a time at every turn (tests/loops/fortbig.py
                        ** seed 505: fst-capture's CPU 1.34-1.43 s, 0.74-0.89 s with 32768; the
                        ** table is calloc'd, its pages touched as used) */

/* A run the rebuild gave the emitter one instruction at a time once: from s to e (e
** included when incl), k instructions, none of those the emitter treats apart (an SVC,
** SIGP, LPSW, LPSWE, LCTL, LCTLG: plain); the next time it is one fst_em_seq. */
typedef struct memo {
    uint64_t s, e;
    uint64_t space, gen;    /* the address space and the code's generation it was seen in */
    unsigned cpu;           /* the CPU it was seen on (each has its own code pages) */
    uint64_t last_ia;
    uint32_t k;
    uint8_t ok, incl, last_len, last_ib[6];
} memo;

/* A code page the module sent (fstmod_wire.h CODE PAGE), in the slot it said. */
typedef struct cpage {
    int used;
    uint64_t space, page;
    uint8_t *data;      /* FSTMOD_PAGE bytes, allocated when the slot is first used */
} cpage;

typedef struct mcpu {
    int have_psw;       /* a PSW is known (the IPL PSW, or one an event gave) */
    uint8_t psw[16];    /* the PSW in force, its address that of the next instruction */
    unsigned pswlen;    /* 8, or 16 (z/Architecture) */
    uint64_t cur;       /* where the next instruction executes */
    uint64_t base;      /* the stream's address base (fstmod_wire.h `last`) */
    uint64_t bat[FSTMOD_REP_MAXP], bto[FSTMOD_REP_MAXP]; /* the last branches (REP copies them) */
    uint64_t nbr;       /* branches so far: the last is at (nbr - 1) % FSTMOD_REP_MAXP */
    uint8_t *held;      /* chunks that came before any PSW was known for the CPU (a SIGP
                           restart's record is on its way): their payloads, each after a
                           u32 length, until the restart says where the CPU starts */
    size_t nheld, capheld;
    uint32_t gr[16];    /* the general registers the last REGS gave */
    uint64_t space;     /* the address space its instructions run in (CODE SPACE; 0: real) */
    cpage *pages;       /* the code pages it sent (FSTMOD_CODE_SLOTS, at its first): each CPU's own */
    const cpage *lk;    /* the page the last look-up found */
    int cut;            /* its records end here (the console line the stream is cut at) */
} mcpu;

#define MS_HELD_MAX (16u << 20) /* what a CPU's records may run ahead of its start */

struct fst_ms {
    fst_em *em;
    const fst_ins *ins;
    int arch;
    mcpu cpu[MS_MAXCPU];
    uint8_t *chunk;         /* the chunk being read: header, then payload */
    size_t have, need;      /* bytes of it held, and its whole length */
    uint64_t off;           /* stream bytes read */
    uint64_t chunk_off;     /* where the chunk began */
    uint64_t events;
    int hello;
    char text[256];
    const fst_image_seg *seg; /* the segment the last instruction was in */
    memo memo[MS_MEMO];
    /* taken branches whose runs the memo knew, not yet given to the emitter: one
    ** fst_em_seqs for them all (batch_flush) before anything else reaches the emitter */
    fst_em_run batch[MS_BATCH];
    size_t nbatch;
    mcpu *bcpu;               /* the CPU they are of, its number, and its PSW's address / 2^24 */
    unsigned bcpu_no;
    uint64_t bregion;
    uint64_t gen;             /* code pages received and spaces switched: a memo of an older
                                 generation is void */
    uint64_t npages;          /* CODE PAGE ops read */
    uint64_t syncs;           /* SYNC ops read */
    fst_ms_console_fn cons;   /* console lines go to cons(cons_ctx, ...) */
    void *cons_ctx;
    uint64_t cons_last;       /* the last line given to it (each once) */
    uint64_t cut_seq;         /* the line it cut the stream at, 0: none */
    uint64_t lines;           /* console lines read (CONS, each line once) */
};

fst_ms *fst_ms_new(fst_em *em, const fst_ins *ins, int arch)
{
    fst_ms *m = fst_xcalloc(1, sizeof *m);
    m->em = em;
    m->ins = ins;
    m->arch = arch;
    m->chunk = fst_xmalloc(FSTMOD_CHUNK_HDR + FSTMOD_MAX_CHUNK);
    m->need = FSTMOD_CHUNK_HDR;
    uint8_t ipl[8];
    for (unsigned i = 0; i < MS_MAXCPU; i++) /* CPU 0 is IPLed; the others start by SIGP (not yet) */
        m->cpu[i].have_psw = 0;
    if (!fst_image_read(ins->seg, ins->n, 0, ipl, 8)) {
        m->cpu[0].have_psw = 1;
        m->cpu[0].pswlen = 8;
        memcpy(m->cpu[0].psw, ipl, 8);
        m->cpu[0].cur = fst_psw_ia(ipl, 8);
    }
    fst_em_regs_order(em, FST_EM_REGS_NONE);
    return m;
}

void fst_ms_free(fst_ms *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < MS_MAXCPU; i++) {
        free(m->cpu[i].held);
        for (unsigned j = 0; m->cpu[i].pages && j < FSTMOD_CODE_SLOTS; j++)
            free(m->cpu[i].pages[j].data);
        free(m->cpu[i].pages);
    }
    free(m->chunk);
    free(m);
}

int fst_ms_hello(const fst_ms *m, const char **text)
{
    if (text)
        *text = m->text;
    return m->hello;
}

uint64_t fst_ms_events(const fst_ms *m) { return m->events; }
uint64_t fst_ms_bytes(const fst_ms *m) { return m->off; }
uint64_t fst_ms_pages(const fst_ms *m) { return m->npages; }
uint64_t fst_ms_syncs(const fst_ms *m) { return m->syncs; }
uint64_t fst_ms_lines(const fst_ms *m) { return m->lines; }

void fst_ms_on_console(fst_ms *m, fst_ms_console_fn fn, void *ctx)
{
    m->cons = fn;
    m->cons_ctx = ctx;
}

int fst_ms_cut(const fst_ms *m, int *all)
{
    if (all) {
        *all = m->cut_seq != 0;
        for (unsigned i = 0; i < MS_MAXCPU; i++)
            if (m->cpu[i].have_psw && !m->cpu[i].cut)
                *all = 0;
    }
    return m->cut_seq != 0;
}
uint64_t fst_ms_held(const fst_ms *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < MS_MAXCPU; i++)
        n += m->cpu[i].nheld;
    return n;
}

/* ---- one chunk's ops ---- */

typedef struct rd {
    const uint8_t *p, *end, *start;
} rd;

/* Inline, with a value of one byte first: a branch record is an op and two varints, most of
** them a byte (a run's length and a jump's, from the run's start), and their calls were a
** sixth of a rebuild's host instructions (callgrind, gen.py seed 15230: 33 M calls, 28
** instructions each). */
static int get_v_slow(rd *r, uint64_t *v);
static inline int get_v(rd *r, uint64_t *v)
{
    if (r->p < r->end && !(*r->p & 0x80)) {
        *v = *r->p++;
        return 0;
    }
    return get_v_slow(r, v);
}

static int get_v_slow(rd *r, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        if (r->p >= r->end)
            return -1;
        uint8_t b = *r->p++;
        x |= (uint64_t)(b & 0x7F) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

static inline int get_sv(rd *r, int64_t *d)
{
    uint64_t v;
    if (get_v(r, &v))
        return -1;
    *d = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
    return 0;
}

static int get_u8(rd *r, uint8_t *b)
{
    if (r->p >= r->end)
        return -1;
    *b = *r->p++;
    return 0;
}

static int get_psw(rd *r, uint8_t *psw, unsigned *len)
{
    uint8_t n;
    if (get_u8(r, &n) || (n != 8 && n != 16) || r->end - r->p < n)
        return -1;
    memcpy(psw, r->p, n);
    r->p += n;
    *len = n;
    return 0;
}

/* The page pg of address space sp as the module sent it for CPU c, or NULL. */
static const uint8_t *page_of(mcpu *c, uint64_t sp, uint64_t pg)
{
    if (c->lk && c->lk->space == sp && c->lk->page == pg)
        return c->lk->data;
    if (!c->pages)
        return NULL;
    const cpage *w = c->pages + fstmod_code_set(sp, pg) * FSTMOD_CODE_WAYS;
    for (unsigned i = 0; i < FSTMOD_CODE_WAYS; i++)
        if (w[i].used && w[i].space == sp && w[i].page == pg)
            return (c->lk = &w[i])->data;
    return NULL;
}

/* The image's byte at addr (real addresses only). */
static int image_byte(fst_ms *m, uint64_t addr, uint8_t *b)
{
    const fst_image_seg *s = m->seg;
    if (!s || addr < s->addr || addr >= s->addr + s->len) {
        s = NULL;
        for (size_t i = 0; i < m->ins->n && !s; i++)
            if (addr >= m->ins->seg[i].addr && addr < m->ins->seg[i].addr + m->ins->seg[i].len)
                s = &m->ins->seg[i];
        if (!s)
            return -1;
        m->seg = s;
    }
    *b = s->data[addr - s->addr];
    return 0;
}

/* The code byte at addr in space sp for CPU c: its page, else (DAT off) the image's. */
static int code_byte(fst_ms *m, mcpu *c, uint64_t sp, uint64_t addr, uint8_t *b)
{
    const uint8_t *p = page_of(c, sp, addr / FSTMOD_PAGE);
    if (p) {
        *b = p[addr % FSTMOD_PAGE];
        return 0;
    }
    return sp ? -1 : image_byte(m, addr, b);
}

/* The instruction bytes at addr in space sp for CPU c: its length, or 0 when neither a
** page the module sent for it nor (DAT off) the image holds them. */
static int code_at(fst_ms *m, mcpu *c, uint64_t sp, uint64_t addr, uint8_t ib[6])
{
    const uint8_t *p = page_of(c, sp, addr / FSTMOD_PAGE);
    unsigned off = (unsigned)(addr % FSTMOD_PAGE);
    if (p) {
        int len = p[off] < 0x40 ? 2 : p[off] < 0xC0 ? 4 : 6;
        if (off + (unsigned)len <= FSTMOD_PAGE) {
            memcpy(ib, p + off, (size_t)len);
            return len;
        }
    }
    if (!p && !sp) { /* the image, as long as the instruction is in one segment */
        const fst_image_seg *s = m->seg;
        if (s && addr >= s->addr && addr + 6 <= s->addr + s->len) {
            const uint8_t *q = s->data + (addr - s->addr);
            int len = q[0] < 0x40 ? 2 : q[0] < 0xC0 ? 4 : 6;
            memcpy(ib, q, (size_t)len);
            return len;
        }
    }
    /* byte by byte: across a page's or a segment's end */
    if (code_byte(m, c, sp, addr, &ib[0]))
        return 0;
    int len = ib[0] < 0x40 ? 2 : ib[0] < 0xC0 ? 4 : 6;
    for (int i = 1; i < len; i++)
        if (code_byte(m, c, sp, addr + (uint64_t)i, &ib[i]))
            return 0;
    return len;
}

/* The PSW with address a (BC mode: 24 bits in bytes 5-7; EC: 31 bits in 4-7, bit 32 kept;
** z/Architecture: 64 bits in 8-15). */
static void psw_set_ia(uint8_t *psw, unsigned len, uint64_t a)
{
    if (len == 16) {
        for (unsigned i = 0; i < 8; i++)
            psw[15 - i] = (uint8_t)(a >> 8 * i);
        return;
    }
    if (psw[1] & 0x08)
        psw[4] = (uint8_t)((psw[4] & 0x80) | ((a >> 24) & 0x7F));
    psw[5] = (uint8_t)(a >> 16);
    psw[6] = (uint8_t)(a >> 8);
    psw[7] = (uint8_t)a;
}

static int one(fst_ms *m, mcpu *c, uint64_t a, uint8_t ib[6], int *len, unsigned cpu, fst_err *err)
{
    if (!(*len = code_at(m, c, c->space, a, ib))) {
        if (c->space)
            return fst_errf(err, "fst module stream, byte %llu: CPU %u executed at 0x%llX in the address space of "
                                 "CR1 %08llX, whose page the module did not send", (unsigned long long)m->chunk_off,
                            cpu, (unsigned long long)a, (unsigned long long)(c->space & 0xFFFFFFFFu));
        if (!m->ins->n) /* a running system's window (modattach.h): no image */
            return fst_errf(err, "fst module stream, byte %llu: CPU %u executed at 0x%llX, where no page the module "
                                 "sent holds code", (unsigned long long)m->chunk_off, cpu, (unsigned long long)a);
        return fst_errf(err, "fst module stream, byte %llu: CPU %u executed at 0x%llX, where neither a page the "
                             "module sent nor the program's image holds code", (unsigned long long)m->chunk_off, cpu,
                        (unsigned long long)a);
    }
    psw_set_ia(c->psw, c->pswlen, a);
    fst_em_insn(m->em, c->psw, (int)c->pswlen, m->arch, ib, *len);
    return 0;
}

/* Instructions the emitter treats apart (capture/read/emit.h fst_em_seq): never in a run. */
static int special(const uint8_t *ib)
{
    return ib[0] == 0x0A || ib[0] == 0xAE || ib[0] == 0x82 || ib[0] == 0xB7 || ib[0] == 0xEB ||
           (ib[0] == 0xB2 && ib[1] == 0xB2);
}

static memo *memo_slot(fst_ms *m, const mcpu *c, unsigned cpu, uint64_t start, uint64_t at)
{
    return &m->memo[(((start >> 1) ^ (at << 19) ^ c->space ^ cpu) * 0x9E3779B97F4A7C15ull >> 40) % MS_MEMO];
}

/* The run from c->cur to at (at included when incl) when the memo knows it, else NULL. */
static inline memo *memo_of(fst_ms *m, const mcpu *c, unsigned cpu, uint64_t at, int incl)
{
    memo *mm = memo_slot(m, c, cpu, c->cur, at);
    return mm->ok && mm->s == c->cur && mm->e == at && mm->incl == incl && mm->space == c->space &&
                   mm->gen == m->gen && mm->cpu == cpu
               ? mm
               : NULL;
}

/* The instructions from c->cur up to at, in sequence, and at itself when incl (its bytes
** then in ib, *len): one at a time the first time, then as one run (fst_em_seq) while the
** emitter can take it so. */
static int run_to(fst_ms *m, mcpu *c, unsigned cpu, uint64_t at, int incl, uint8_t ib[6], int *len, fst_err *err)
{
    if (!c->have_psw)
        return fst_errf(err, "fst module stream, byte %llu: CPU %u has an event before any PSW is known for it",
                        (unsigned long long)m->chunk_off, cpu);
    uint64_t start = c->cur;
    memo *mm = memo_of(m, c, cpu, at, incl);
    if (mm) {
        uint64_t end = incl ? at + mm->last_len : at;
        if (!fst_em_seq(m->em, c->psw, (int)c->pswlen, m->arch, start, mm->k, end, mm->last_ia, mm->last_ib,
                        mm->last_len)) {
            psw_set_ia(c->psw, c->pswlen, mm->last_ia);
            c->cur = end;
            if (incl) {
                memcpy(ib, mm->last_ib, 6);
                *len = mm->last_len;
            }
            return 0;
        }
    }
    mm = memo_slot(m, c, cpu, start, at);
    uint32_t k = 0;
    int plain = ((start ^ at) >> 24) == 0; /* an EC PSW's byte 4 (in the state) holds address bits */
    uint8_t b[6];
    int l = 0;
    uint64_t last = 0;
    while (c->cur != at) {
        if (c->cur > at || at - c->cur > (1u << 24))
            return fst_errf(err, "fst module stream, byte %llu: CPU %u: an event at 0x%llX, which the program's code "
                                 "in sequence from 0x%llX does not reach (code changed or loaded under the program, or "
                                 "an interruption the module does not see)",
                            (unsigned long long)m->chunk_off, cpu, (unsigned long long)at,
                            (unsigned long long)start);
        if (one(m, c, c->cur, b, &l, cpu, err))
            return -1;
        plain &= !special(b);
        last = c->cur;
        k++;
        c->cur += (uint64_t)l;
    }
    if (incl) {
        if (one(m, c, at, b, &l, cpu, err))
            return -1;
        plain &= !special(b);
        last = at;
        k++;
        memcpy(ib, b, 6);
        *len = l;
    }
    if (k && plain) {
        *mm = (memo){ start, at, c->space, m->gen, cpu, last, k, 1, (uint8_t)incl, (uint8_t)l, { 0 } };
        memcpy(mm->last_ib, b, 6);
    }
    return 0;
}

static void new_psw(fst_ms *m, mcpu *c, const uint8_t *psw, unsigned len)
{
    memcpy(c->psw, psw, len);
    c->pswlen = len;
    c->have_psw = 1;
    c->cur = fst_psw_ia(psw, (int)len);
    c->base = c->cur;
    uint32_t st = fst_psw_state(psw, (int)len, m->arch);
    if (st & FST_ST_WAIT) {
        fst_em_wait(m->em, 0, psw, (int)len);
        if (!(st & (FST_ST_IOMASK | FST_ST_EXTMASK)))
            fst_em_wait(m->em, 1, NULL, 0);
    }
}

static int bad(fst_ms *m, rd *r, const char *what, fst_err *err)
{
    return fst_errf(err, "fst module stream, byte %llu: %s", (unsigned long long)(m->chunk_off + FSTMOD_CHUNK_HDR +
                    (uint64_t)(r->p - r->start)), what);
}

static void push(mcpu *c, uint64_t at, uint64_t to)
{
    unsigned i = (unsigned)(c->nbr++ % FSTMOD_REP_MAXP);
    c->bat[i] = at;
    c->bto[i] = to;
}

/* A taken branch at `at` to `to`: the instructions up to it and itself, then where it went. */
static int branch(fst_ms *m, mcpu *c, unsigned cpu, uint64_t at, uint64_t to, fst_err *err)
{
    uint8_t ib[6];
    int len;
    if (run_to(m, c, cpu, at, 1, ib, &len, err))
        return -1;
    c->cur = c->base = to;
    push(c, at, to);
    return 0;
}

/* The batch (batch_branch) to the emitter, in one fst_em_seqs; where the emitter refuses,
** each run the usual way (run_to: refused the same, its instructions go one by one). */
static int __attribute__((noinline)) batch_flush(fst_ms *m, fst_err *err)
{
    size_t n = m->nbatch;
    if (!n)
        return 0;
    m->nbatch = 0;
    mcpu *c = m->bcpu;
    if (!fst_em_seqs(m->em, c->psw, (int)c->pswlen, m->arch, m->batch, n)) {
        psw_set_ia(c->psw, c->pswlen, m->batch[n - 1].last_ia);
        return 0;
    }
    uint64_t cur = c->cur;
    uint8_t ib[6];
    int len;
    for (size_t i = 0; i < n; i++) {
        c->cur = m->batch[i].ia;
        if (run_to(m, c, m->bcpu_no, m->batch[i].last_ia, 1, ib, &len, err))
            return -1;
    }
    c->cur = cur;
    return 0;
}

/* branch(), batched: a run the memo knows waits in the batch (given to the emitter with
** the ones after it in one step: its state looked at once, not at every branch; a tenth to
** a fifth of a rebuild was that). The PSW the emitter gets for them is the one before the
** first: their addresses must have its bits 2^24 and up (an EC PSW's byte 4, the state).
** Inline in copies, where most branches come (a loop's REP), its flush out of line. */
static inline __attribute__((always_inline)) int batch_branch(fst_ms *m, mcpu *c, unsigned cpu, uint64_t at,
                                                              uint64_t to, fst_err *err)
{
    memo *mm = c->have_psw ? memo_of(m, c, cpu, at, 1) : NULL;
    if (mm && m->nbatch && (m->bcpu != c || m->nbatch == MS_BATCH) && batch_flush(m, err))
        return -1;
    if (mm && !m->nbatch) {
        m->bcpu = c;
        m->bcpu_no = cpu;
        m->bregion = fst_psw_ia(c->psw, (int)c->pswlen) >> 24;
    }
    if (!mm || mm->last_ia >> 24 != m->bregion)
        return batch_flush(m, err) || branch(m, c, cpu, at, to, err) ? -1 : 0;
    fst_em_run *r = &m->batch[m->nbatch++];
    r->ia = c->cur;     /* field by field: a compound literal zeroed it first (callgrind) */
    r->k = mm->k;
    r->next = at + mm->last_len;
    r->last_ia = mm->last_ia;
    memcpy(r->last_ib, mm->last_ib, 6);
    r->last_len = mm->last_len;
    c->cur = c->base = to;
    push(c, at, to);
    return 0;
}

/* REP p n: n branches, each the one p back. A loop: once an iteration (p branches) has been
** given to the emitter twice in the same state, the rest of the whole iterations go to it in
** one step (fst_em_repeat); the emitter refuses when its state says otherwise (a limit, a
** frame written, a run not plain), and the loop then goes on one branch at a time. */
static int copies(fst_ms *m, mcpu *c, unsigned cpu, unsigned p, uint64_t n, fst_err *err)
{
    fst_em_mark mk;
    int marked = 0, tries = 0;
    uint64_t left = p; /* branches to the iteration's end (i % p, without a division a branch) */
    for (uint64_t i = 0; i < n;) {
        int end = !left; /* an iteration's end */
        if (end)
            left = p;
        if (end && tries < 4) {
            uint64_t q = (n - i) / p;
            if (batch_flush(m, err)) /* the mark and the repeat look at the emitter */
                return -1;
            if (marked && q && !fst_em_repeat(m->em, &mk, q)) {
                /* where the CPU is and its PSW are as they were an iteration ago; the
                ** history of branches moves on by whole iterations */
                uint64_t whole = (FSTMOD_REP_MAXP + p - 1) / p * p; /* iterations that fill it */
                for (uint64_t t = 0; t < q * p && t < whole; t++)
                    push(c, c->bat[(c->nbr - p) % FSTMOD_REP_MAXP], c->bto[(c->nbr - p) % FSTMOD_REP_MAXP]);
                i += q * p;
                m->events += q * p;
                marked = 0;
                continue;
            }
            tries += marked;
            marked = q >= 2; /* a mark pays only when a whole iteration follows the next */
            if (marked)
                fst_em_mark_at(m->em, &mk);
        }
        unsigned j = (unsigned)((c->nbr - p) % FSTMOD_REP_MAXP);
        if (batch_branch(m, c, cpu, c->bat[j], c->bto[j], err))
            return -1;
        i++;
        left--;
        m->events++;
    }
    return 0;
}

static int ops(fst_ms *m, unsigned cpu, const uint8_t *p, size_t n, fst_err *err);

/* A SIGP restart's target starts at psw: and the records it sent before that came here. */
static int start_cpu(fst_ms *m, unsigned t, const uint8_t *psw, unsigned pswlen, fst_err *err)
{
    mcpu *c = &m->cpu[t];
    fst_em_cpu(m->em, t);
    uint64_t base = c->base; /* the target's stream goes on from its own last record: its
                             ** start by restart is not one of them */
    new_psw(m, c, psw, pswlen);
    c->base = base;
    uint8_t *held = c->held;
    size_t nheld = c->nheld;
    c->held = NULL;
    c->nheld = c->capheld = 0;
    int rc = 0;
    for (size_t i = 0; !rc && i + 4 <= nheld;) {
        uint32_t len = (uint32_t)held[i] | (uint32_t)held[i + 1] << 8 | (uint32_t)held[i + 2] << 16 |
                       (uint32_t)held[i + 3] << 24;
        rc = ops(m, t, held + i + 4, len, err);
        i += 4 + (size_t)len;
    }
    free(held);
    return rc;
}

/* A chunk of a CPU no PSW is known for yet: kept for start_cpu. */
static int hold(fst_ms *m, unsigned cpu, const uint8_t *p, size_t n, fst_err *err)
{
    mcpu *c = &m->cpu[cpu];
    if (c->nheld + 4 + n > MS_HELD_MAX)
        return fst_errf(err, "fst module stream, byte %llu: CPU %u sent %zu bytes before any PSW was known for it "
                             "(no SIGP restart started it)", (unsigned long long)m->chunk_off, cpu, c->nheld + 4 + n);
    if (c->nheld + 4 + n > c->capheld) {
        c->capheld = (c->nheld + 4 + n) * 2;
        c->held = fst_xrealloc(c->held, c->capheld);
    }
    uint8_t *q = c->held + c->nheld;
    q[0] = (uint8_t)n;
    q[1] = (uint8_t)(n >> 8);
    q[2] = (uint8_t)(n >> 16);
    q[3] = (uint8_t)(n >> 24);
    memcpy(q + 4, p, n);
    c->nheld += 4 + n;
    return 0;
}

/* REGS: the registers the next instruction shows (the emitter writes those that changed
** since the last it wrote, before that instruction: tracebin.h REGS). */
static int regs_op(fst_ms *m, mcpu *c, rd *r)
{
    uint8_t lo, hi;
    if (get_u8(r, &lo) || get_u8(r, &hi))
        return -1;
    unsigned mask = (unsigned)hi << 8 | lo;
    for (unsigned g = 0; g < 16; g++) {
        uint64_t v;
        if (!(mask >> g & 1))
            continue;
        if (get_v(r, &v))
            return -1;
        c->gr[g] = (uint32_t)v;
    }
    for (unsigned g = 0; g < 16; g++)
        fst_em_gr(m->em, g, c->gr[g]);
    return 0;
}

/* CR: the LCTL just given to the emitter loaded control registers r1 to r3 from operand:
** their values as the bytes a text trace shows of the operand (the emitter takes CR1). */
static int cr_op(fst_ms *m, rd *r, uint64_t operand, uint8_t r1r3)
{
    unsigned n = (((unsigned)(r1r3 & 15) - (r1r3 >> 4)) & 15) + 1;
    uint8_t data[64];
    for (unsigned k = 0; k < n; k++) {
        uint64_t v;
        if (get_v(r, &v))
            return -1;
        for (unsigned b = 0; b < 4; b++)
            data[4 * k + b] = (uint8_t)(v >> (24 - 8 * b));
    }
    if (fst_em_wants_operand(m->em))
        fst_em_operand(m->em, operand, data, 4 * n);
    return 0;
}

/* OPND: the supervisor's LM or STM of all 16 registers just given to the emitter had this
** operand (the emitter writes it after the instruction: tracebin.h OPND). */
static int opnd_op(fst_ms *m, uint64_t operand)
{
    if (fst_em_wants_operands(m->em))
        fst_em_operand(m->em, operand, NULL, 0);
    return 0;
}

/* CODE: the space the next ops' instructions run in, or a page's bytes (fstmod_wire.h). */
static int code_op(fst_ms *m, mcpu *c, rd *r, fst_err *err)
{
    uint8_t kind;
    uint64_t sp, pg, slot;
    if (get_u8(r, &kind) || get_v(r, &sp))
        return bad(m, r, "a code record cut short", err);
    if (kind == FSTMOD_CODE_SPACE) {
        if (sp != c->space) {
            if (sp) /* the trace's evidence of the space, as an LCTL's operand gives it */
                fst_em_cr1(m->em, sp & 0xFFFFFFFFu);
            /* the trace's runs (fst_em_seq) stand for the instructions last written at their
            ** addresses, which another space's code may have replaced: no memo survives */
            m->gen++;
        }
        c->space = sp;
        return 0;
    }
    if (kind != FSTMOD_CODE_PAGE)
        return bad(m, r, "a code record of a kind the reader does not know", err);
    if (get_v(r, &pg) || get_v(r, &slot) || (size_t)(r->end - r->p) < FSTMOD_PAGE)
        return bad(m, r, "a code page record cut short", err);
    if (slot >= FSTMOD_CODE_SLOTS || slot / FSTMOD_CODE_WAYS != fstmod_code_set(sp, pg))
        return bad(m, r, "a code page record for a slot outside the page's set", err);
    if (!c->pages)
        c->pages = fst_xcalloc(FSTMOD_CODE_SLOTS, sizeof *c->pages);
    cpage *cp = &c->pages[slot];
    if (!cp->data)
        cp->data = fst_xmalloc(FSTMOD_PAGE);
    memcpy(cp->data, r->p, FSTMOD_PAGE);
    r->p += FSTMOD_PAGE;
    cp->used = 1;
    cp->space = sp;
    cp->page = pg;
    c->lk = NULL;
    m->gen++;
    m->npages++;
    return 0;
}

/* SYNC: this CPU's trace (re)starts at the PSW's address, in the space given, with those
** registers (fstmod_wire.h): nothing of its state before is kept. As a text trace begun
** mid-run shows it: the first instruction at the PSW, the registers as the first
** instruction's display would give them, the space as its CR1. */
static int sync_op(fst_ms *m, mcpu *c, rd *r, fst_err *err)
{
    uint8_t psw[16];
    unsigned pl;
    uint64_t sp, v;
    if (get_psw(r, psw, &pl) || get_v(r, &sp))
        return bad(m, r, "a SYNC record cut short", err);
    for (unsigned g = 0; g < 16; g++) {
        if (get_v(r, &v))
            return bad(m, r, "a SYNC record cut short", err);
        c->gr[g] = (uint32_t)v;
    }
    c->nbr = 0;
    memset(c->bat, 0xFF, sizeof c->bat);
    memset(c->bto, 0xFF, sizeof c->bto);
    if (sp && sp != c->space)
        fst_em_cr1(m->em, sp & 0xFFFFFFFFu);
    c->space = sp;
    for (unsigned i = 0; c->pages && i < FSTMOD_CODE_SLOTS; i++) /* the module's slots start empty */
        c->pages[i].used = 0;
    c->lk = NULL;
    m->gen++; /* no run remembered before it holds */
    for (unsigned g = 0; g < 16; g++)
        fst_em_gr(m->em, g, c->gr[g]);
    new_psw(m, c, psw, pl);
    m->syncs++;
    return 0;
}

/* CONS: a console line logged before the instruction at `at`: the instructions up to
** there, then the line to the caller (once, whichever CPU brings it first). 1: the stream
** is cut at this line for this CPU (its records end here). */
static int cons_op(fst_ms *m, mcpu *c, unsigned cpu, rd *r, fst_err *err)
{
    int64_t d;
    uint64_t seq, n;
    uint8_t ib[6];
    int len;
    if (get_sv(r, &d) || get_v(r, &seq) || get_v(r, &n) || n > FSTMOD_CONS_MAX || (uint64_t)(r->end - r->p) < n)
        return bad(m, r, "a console line cut short", err);
    const char *text = (const char *)r->p;
    r->p += n;
    uint64_t at = c->base + (uint64_t)d;
    if (run_to(m, c, cpu, at, 0, ib, &len, err))
        return -1;
    c->cur = c->base = at;
    if (m->cut_seq && seq >= m->cut_seq)
        return c->cut = 1;
    if (seq <= m->cons_last)
        return 0;
    m->cons_last = seq;
    m->lines++;
    if (m->cons && m->cons(m->cons_ctx, cpu, seq, text, (size_t)n)) {
        m->cut_seq = seq;
        return c->cut = 1;
    }
    return 0;
}

static int ops_batched(fst_ms *m, unsigned cpu, const uint8_t *p, size_t n, fst_err *err);

/* A chunk's ops; the branches batched in it reach the emitter before it returns (an error
** too: what came before it is in the trace). */
static int ops(fst_ms *m, unsigned cpu, const uint8_t *p, size_t n, fst_err *err)
{
    fst_err e2;
    int rc = ops_batched(m, cpu, p, n, err);
    return batch_flush(m, rc ? &e2 : err) ? -1 : rc;
}

static int ops_batched(fst_ms *m, unsigned cpu, const uint8_t *p, size_t n, fst_err *err)
{
    if (m->cpu[cpu % MS_MAXCPU].cut) /* the stream was cut for it: nothing more of it */
        return 0;
    /* a CPU no PSW is known for: its chunks wait for its start (a SIGP restart), unless
    ** they begin with where it is (SYNC: a reader attached to a running system) */
    if (!m->cpu[cpu % MS_MAXCPU].have_psw && (!n || p[0] != FSTMOD_OP_SYNC))
        return hold(m, cpu % MS_MAXCPU, p, n, err);
    rd r = { p, p + n, p };
    mcpu *c = &m->cpu[cpu % MS_MAXCPU];
    fst_em_cpu(m->em, cpu);
    uint8_t ib[6], psw[16];
    int len;
    while (r.p < r.end) {
        uint8_t op = *r.p++, u;
        int64_t d, d2;
        uint64_t v, v2, at;
        unsigned pl;
        m->events++;
        if (op != FSTMOD_OP_BR && op != FSTMOD_OP_REP && batch_flush(m, err))
            return -1; /* any other op may reach the emitter */
        switch (op) {
        case FSTMOD_OP_BR:
            if (get_sv(&r, &d) || get_sv(&r, &d2))
                return bad(m, &r, "a branch record cut short", err);
            at = c->base + (uint64_t)d;
            if (batch_branch(m, c, cpu, at, at + (uint64_t)d2, err))
                return -1;
            break;
        case FSTMOD_OP_SIGP:
            if (get_sv(&r, &d) || get_v(&r, &v) || get_v(&r, &v2) || get_u8(&r, &u) || get_u8(&r, &ib[0]) ||
                (size_t)(r.end - r.p) < ib[0] || (ib[0] != 0 && ib[0] != 8 && ib[0] != 16))
                return bad(m, &r, "a SIGP record cut short", err);
            memcpy(psw, r.p, ib[0]);
            r.p += ib[0];
            at = c->base + (uint64_t)d;
            pl = ib[0];
            if (run_to(m, c, cpu, at, 0, ib, &len, err) || one(m, c, at, ib, &len, cpu, err))
                return -1;
            fst_em_sigp(m->em, (unsigned)v2, (unsigned)v, u);
            c->cur = c->base = at + (uint64_t)len;
            if (pl && v == 0x12) { /* set architecture: this CPU's PSW in its new form */
                new_psw(m, c, psw, pl);
                c->base = at + (uint64_t)len;
            } else if (pl && v2 < MS_MAXCPU && start_cpu(m, (unsigned)v2, psw, pl, err))
                return -1;
            fst_em_cpu(m->em, cpu);
            break;
        case FSTMOD_OP_REP:
            if (get_v(&r, &v) || get_v(&r, &v2))
                return bad(m, &r, "a loop's record cut short", err);
            if (!v || v > FSTMOD_REP_MAXP || v > c->nbr || !v2)
                return bad(m, &r, "a loop's record that copies branches the stream never gave", err);
            m->events--; /* the copies are counted, as the branches they stand for */
            if (copies(m, c, cpu, (unsigned)v, v2, err))
                return -1;
            break;
        case FSTMOD_OP_SVC:
        case FSTMOD_OP_PSW:
            if (get_sv(&r, &d) || (op == FSTMOD_OP_SVC && get_v(&r, &v)) || get_psw(&r, psw, &pl))
                return bad(m, &r, "an SVC or PSW record cut short", err);
            at = c->base + (uint64_t)d;
            if (run_to(m, c, cpu, at, 0, ib, &len, err) || one(m, c, at, ib, &len, cpu, err))
                return -1;
            new_psw(m, c, psw, pl);
            break;
        case FSTMOD_OP_LPSW:
            if (get_sv(&r, &d) || get_v(&r, &v) || get_psw(&r, psw, &pl))
                return bad(m, &r, "an LPSW record cut short", err);
            at = c->base + (uint64_t)d;
            if (run_to(m, c, cpu, at, 0, ib, &len, err) || one(m, c, at, ib, &len, cpu, err))
                return -1;
            if (fst_em_wants_operand(m->em))
                fst_em_operand(m->em, v, psw, pl);
            new_psw(m, c, psw, pl);
            break;
        case FSTMOD_OP_PGM:
            if (get_u8(&r, &u) || get_sv(&r, &d) || get_v(&r, &v) || get_u8(&r, &ib[0]) || get_psw(&r, psw, &pl))
                return bad(m, &r, "a program interruption record cut short", err);
            at = c->base + (uint64_t)d;
            if (run_to(m, c, cpu, at, 0, ib, &len, err))
                return -1;
            if (u & 1) { /* it executed, checked, and Hercules shows it again: not an execution */
                unsigned ilc = ib[0];
                if (one(m, c, at, ib, &len, cpu, err))
                    return -1;
                fst_em_pgmchk(m->em, (uint32_t)v, ilc);
                fst_em_insn(m->em, c->psw, (int)c->pswlen, m->arch, ib, len);
            } else {
                fst_em_pgmchk(m->em, (uint32_t)v, ib[0]);
                fst_em_fetch_error(m->em);
            }
            new_psw(m, c, psw, pl);
            break;
        case FSTMOD_OP_REGS:
            if (regs_op(m, c, &r))
                return bad(m, &r, "a registers record cut short", err);
            break;
        case FSTMOD_OP_CR:
        case FSTMOD_OP_OPND:
            if (get_sv(&r, &d) || get_v(&r, &v) || (op == FSTMOD_OP_CR && get_u8(&r, &u)))
                return bad(m, &r, "an LCTL, LM or STM record cut short", err);
            at = c->base + (uint64_t)d;
            if (run_to(m, c, cpu, at, 1, ib, &len, err))
                return -1;
            if (op == FSTMOD_OP_CR ? cr_op(m, &r, v, u) : opnd_op(m, v))
                return bad(m, &r, "an LCTL, LM or STM record cut short", err);
            c->cur = c->base = at + (uint64_t)len;
            break;
        case FSTMOD_OP_INTR:
            if (get_u8(&r, &u) || get_sv(&r, &d) || get_v(&r, &v) || get_psw(&r, psw, &pl))
                return bad(m, &r, "an interruption record cut short", err);
            at = c->base + (uint64_t)d;
            if (run_to(m, c, cpu, at, 0, ib, &len, err)) /* the instruction at `at` did not execute */
                return -1;
            fst_em_intr(m->em, u, (uint32_t)v);
            new_psw(m, c, psw, pl);
            break;
        case FSTMOD_OP_CODE:
            if (code_op(m, c, &r, err))
                return -1;
            break;
        case FSTMOD_OP_SYNC:
            if (sync_op(m, c, &r, err))
                return -1;
            break;
        case FSTMOD_OP_CONS: {
            int rc = cons_op(m, c, cpu, &r, err);
            if (rc)
                return rc < 0 ? -1 : 0; /* cut: the rest of its records are not the window's */
            break;
        }
        default:
            r.p--;
            return bad(m, &r, "an op the reader does not know (a module of another version?)", err);
        }
    }
    return 0;
}

static int module_chunk(fst_ms *m, const uint8_t *p, size_t n, fst_err *err)
{
    if (!n || (p[0] != FSTMOD_OP_HELLO && p[0] != FSTMOD_OP_REFUSE))
        return fst_errf(err, "fst module stream, byte %llu: a module record that is neither hello nor refusal",
                        (unsigned long long)m->chunk_off);
    size_t k = n - 1 < sizeof m->text - 1 ? n - 1 : sizeof m->text - 1;
    memcpy(m->text, p + 1, k);
    m->text[k] = 0;
    m->hello = p[0] == FSTMOD_OP_HELLO ? 1 : -1;
    const char *v = strchr(m->text, ' ');
    if (m->hello > 0 && (!v || atoi(v + 1) != FSTMOD_WIRE)) {
        /* a module of another fst (an older one left loaded in a running system): its
        ** stream would be misread, so it is a refusal, said as such */
        char text[sizeof m->text];
        snprintf(text, sizeof text, "a module of another fst (stream version %d, this fst-capture reads %d): "
                 "load the one installed with it (said: %.60s)", v ? atoi(v + 1) : 0, FSTMOD_WIRE, m->text);
        memcpy(m->text, text, sizeof text);
        m->hello = -1;
    }
    return 0;
}

int fst_ms_feed(fst_ms *m, const uint8_t *buf, size_t n, fst_err *err)
{
    while (n) {
        size_t k = m->need - m->have < n ? m->need - m->have : n;
        memcpy(m->chunk + m->have, buf, k);
        m->have += k;
        buf += k;
        n -= k;
        m->off += k;
        if (m->have < m->need)
            break;
        const uint8_t *h = m->chunk;
        if (m->need == FSTMOD_CHUNK_HDR) {
            uint32_t len = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
            if (h[0] != FSTMOD_CHUNK || h[2] || h[3] || len > FSTMOD_MAX_CHUNK)
                return fst_errf(err, "fst module stream, byte %llu: not a chunk header (a stream of another "
                                     "program, or damaged)", (unsigned long long)(m->off - m->have));
            m->chunk_off = m->off - m->have;
            m->need += len;
            if (len)
                continue;
        }
        int rc = h[1] == FSTMOD_CPU_MODULE ? module_chunk(m, h + FSTMOD_CHUNK_HDR, m->need - FSTMOD_CHUNK_HDR, err)
                                           : ops(m, h[1], h + FSTMOD_CHUNK_HDR, m->need - FSTMOD_CHUNK_HDR, err);
        m->have = 0;
        m->need = FSTMOD_CHUNK_HDR;
        if (rc)
            return -1;
    }
    return 0;
}

int fst_ms_finish(fst_ms *m, fst_err *err)
{
    if (m->have)
        return fst_errf(err, "fst module stream: it ends inside a chunk, %llu bytes from its end",
                        (unsigned long long)m->have);
    for (unsigned i = 0; i < MS_MAXCPU; i++)
        if (m->cpu[i].nheld)
            return fst_errf(err, "fst module stream: CPU %u ran (%zu bytes of its records) but no SIGP restart said "
                                 "where it started (started by the operator, or by SIGP start?): its instructions "
                                 "are not in the trace", i, m->cpu[i].nheld);
    return 0;
}
