/*
** capture/module/fstmod.c — fst's module for Hercules 3.13 (Debian's binary), loaded with
** `LDMOD /path/fst-hercules313.so` by fst-capture --via=module. Not part of libfst.a: it is
** compiled against Hercules' own headers (scripts/hercules313.sh configures them as Debian
** did) and runs inside Hercules, on its CPU threads.
**
** What it records, per CPU, into the FIFO named by $FST_MODULE_OUT (the stream of
** fstmod_wire.h): every taken branch (a loop's, iteration after iteration, as one REP
** record: a branch that is the one p branches back costs two compares and no byte), every
** SVC, LPSW and PSW-changing instruction with the
** PSW it leaves, and every program interruption (Hercules' debug_program_interrupt hook),
** so that with the program's storage image every executed instruction can be rebuilt
** (capture/modread/modstream.c); and what tells an operating system's tasks apart
** (analyze/tasks.h), as a whole-system text trace with registers shows it: the general
** registers after every interruption and LPSW (only those that changed), the control
** registers an LCTL loaded (CR1: the address space), the operand of an LM or STM of all 16
** registers in supervisor state (a dispatcher's or handler's register block). How: it replaces the routines of those opcodes in Hercules'
** opcode tables (the global one and every CPU's copy) with wrappers that call Hercules'
** own routine, then record; an instruction that ends with a longjmp (LPSW, SVC, SSM, ...)
** is run under a setjmp of the wrapper's, which records and then takes the longjmp on.
** Nothing of the guest changes: the module reads its PSA's new PSWs from main storage
** (no storage key, no change bit is touched) and the registers.
**
** Safety: HDL refuses the module when Hercules' structure sizes differ from the headers it
** was built with (HDL_DEPENDENCY); the module also checks a field offset Hercules states at
** run time (sysblk.regs_copy_len against its own offsetof(REGS, regs_copy_end)), and then
** refuses in its first chunk (FSTMOD_OP_REFUSE, with the reason) and patches nothing.
**
** Limits (capture/modread/modstream.h says what fst does with them): S/370 only (the other
** architectures' opcodes are not wrapped: the module refuses an ESA/390 or z/Arch
** configuration); external and I/O interruptions have no hook in 3.13: they are recorded
** only when fst-capture has preloaded fstirq.c's interposer (it does), which calls
** irq_record here; code that changes
** under the program is not recorded (the image is taken as the code).
**
** Memory: one buffer of FSTMOD_BUF bytes per CPU, written to the FIFO when full, at a wait
** state and when the module is unloaded. Errors: a failed write ends the recording (the
** reader then sees the stream end early).
*/
#define _GNU_SOURCE
#include <dlfcn.h> /* first: Hercules' headers rename dlsym (libtool's), undone below */

#include "hstdinc.h"
#include "hercules.h"
#include "opcode.h"
#undef dlsym
#undef RTLD_NOW
#define RTLD_NOW 2

#include "fstmod_herc.h"
#include "fstmod_wire.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FSTMOD_BUF (64 * 1024)
#define FSTMOD_NCPU 64

/* A loop's branches are not written one by one: a branch that repeats the one p branches
** back (p <= FSTMOD_REP_MAXP, the smallest such p) begins a copy, and the copy goes on while
** each branch is the one p back; it is written as one REP record when it ends (another
** branch, any other record, a flush) or reaches REP_MAXN. */
#define REP_MAXN 65536u /* copies in one REP record: what a stop can lose of a loop */

typedef struct cpubuf {
    uint8_t b[FSTMOD_BUF];
    size_t n;
    uint64_t last;      /* the stream's base for this CPU (fstmod_wire.h `last`) */
    uint64_t bat[FSTMOD_REP_MAXP], bto[FSTMOD_REP_MAXP]; /* the last branches */
    unsigned nbr;       /* branches so far (mod 2^32), the last at (nbr - 1) % FSTMOD_REP_MAXP;
                           before the first ones: UINT64_MAX, no address */
    unsigned rep_p, rep_n;  /* the copy being made: p back, n so far */
    unsigned calls;     /* room_of calls (stale's check every STALE_EVERY) */
    uint64_t since;     /* when the buffer was last seen empty (ns, coarse clock) */
    uint32_t gr[16];    /* the general registers the last REGS of this CPU left the reader */
    int gr_sent;        /* a REGS was written for this CPU (then only the changed ones follow) */
} cpubuf;

static cpubuf *bufs[FSTMOD_NCPU];
static int outfd = -1;
static pthread_mutex_t outlock = PTHREAD_MUTEX_INITIALIZER;
static int patched;

/* ---- the stream ---- */

static void write_all(const uint8_t *p, size_t n)
{
    while (n && outfd >= 0) {
        ssize_t k = write(outfd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) { /* the reader is gone: stop recording */
            close(outfd);
            outfd = -1;
            return;
        }
        p += k;
        n -= (size_t)k;
    }
}

static void chunk(unsigned cpu, const uint8_t *p, size_t n)
{
    uint8_t h[FSTMOD_CHUNK_HDR] = { FSTMOD_CHUNK, (uint8_t)cpu, 0, 0, (uint8_t)n, (uint8_t)(n >> 8),
                                    (uint8_t)(n >> 16), (uint8_t)(n >> 24) };
    pthread_mutex_lock(&outlock);
    write_all(h, sizeof h);
    write_all(p, n);
    pthread_mutex_unlock(&outlock);
}

static void put_v(cpubuf *c, uint64_t v);

/* The copy being made, as a REP record (there is room: every record leaves 64 bytes). */
static void rep_out(cpubuf *c)
{
    if (c->rep_n) {
        c->b[c->n++] = FSTMOD_OP_REP;
        put_v(c, c->rep_p);
        put_v(c, c->rep_n);
        c->rep_n = 0;
    }
}

static uint64_t now_ns(void);

static void flush_cpu(unsigned cpu)
{
    cpubuf *c = bufs[cpu];
    if (c)
        rep_out(c);
    if (c && c->n) {
        chunk(cpu, c->b, c->n);
        c->n = 0;
        c->since = now_ns();
    }
}

/* A buffer that has held records (or copies) for STALE_NS goes out then, so that what
** a capture cut short (a timeout, Ctrl-C) loses is a fraction of a second: checked every
** STALE_EVERY records and every REP_MAXN copies, with the coarse clock. */
#define STALE_EVERY 256u
#define STALE_NS 100000000ull

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int stale(cpubuf *c)
{
    uint64_t t = now_ns();
    if (!c->n && !c->rep_n) {
        c->since = t;
        return 0;
    }
    return t - c->since > STALE_NS;
}

/* The CPU's buffer with room for a record (128 bytes). */
static cpubuf *room_of(REGS *regs)
{
    unsigned cpu = regs->cpuad % FSTMOD_NCPU;
    cpubuf *c = bufs[cpu];
    if (!c) {
        c = calloc(1, sizeof *c); /* last = 0: the stream's base starts at 0 */
        if (!c)
            abort();
        memset(c->bat, 0xFF, sizeof c->bat);
        bufs[cpu] = c;
    }
    /* room for any one op (the longest: CR, ~100 bytes) and a copy's REP before it */
    if (c->n > FSTMOD_BUF - 256 || ((++c->calls % STALE_EVERY == 0 || c->rep_n >= REP_MAXN) && stale(c)))
        flush_cpu(cpu);
    return c;
}

/* The same for a record other than a branch: a copy being made ends before it. */
static cpubuf *buf_of(REGS *regs)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    c->rep_p = 0;
    return c;
}

static void put_v(cpubuf *c, uint64_t v)
{
    while (v >= 0x80) {
        c->b[c->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    c->b[c->n++] = (uint8_t)v;
}

static void put_sv(cpubuf *c, int64_t d)
{
    put_v(c, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

static void put_psw(cpubuf *c, const uint8_t *psw, unsigned len)
{
    c->b[c->n++] = (uint8_t)len;
    memcpy(c->b + c->n, psw, len);
    c->n += len;
}

/* The general registers as they are now, those that changed since this CPU's last REGS
** (all 16 the first time): the task evidence of an interruption (the interrupted task's
** registers) and of an LPSW (the dispatched task's). Nothing when none changed. */
static void put_regs(cpubuf *c, REGS *regs)
{
    unsigned mask = 0;
    for (int r = 0; r < 16; r++)
        if (!c->gr_sent || regs->GR_L(r) != c->gr[r])
            mask |= 1u << r;
    if (!mask)
        return;
    c->b[c->n++] = FSTMOD_OP_REGS;
    c->b[c->n++] = (uint8_t)mask;
    c->b[c->n++] = (uint8_t)(mask >> 8);
    for (int r = 0; r < 16; r++)
        if (mask >> r & 1) {
            c->gr[r] = regs->GR_L(r);
            put_v(c, c->gr[r]);
        }
    c->gr_sent = 1;
}

/* ---- what a CPU is doing ---- */

static uint64_t amask(REGS *regs)
{
    return regs->psw.AMASK_G;
}

/* Where ip points: the address of the next instruction (or, inside a routine that has
** advanced it, past the current one). */
static uint64_t ip_ia(REGS *regs)
{
    return (regs->AIV_G + (uint64_t)((uintptr_t)regs->ip - (uintptr_t)regs->aip)) & amask(regs);
}

static unsigned ilc_of(uint8_t op)
{
    return op < 0x40 ? 2 : op < 0xC0 ? 4 : 6;
}

/* The address the trace shows for the instruction being executed (under EX: the EX). */
static uint64_t at_of(REGS *regs, uint8_t op, uint64_t *fall)
{
    uint64_t ia = ip_ia(regs);
    *fall = (ia + ilc_of(op)) & amask(regs);
    if (regs->execflag)
        return (*fall - (regs->exrl ? 6 : 4)) & amask(regs);
    return ia;
}

/* The 8- or 16-byte new PSW at `off` of the CPU's PSA (S/370, ESA/390: 8 bytes). */
static unsigned psa_psw(REGS *regs, unsigned off, uint8_t *psw)
{
    uint64_t px = regs->PX_G;
    if (px + off + 8 > sysblk.mainsize)
        return 0;
    memcpy(psw, regs->mainstor + px + off, 8);
    return 8;
}

/* The PSW now in force, architected (Hercules' copy_psw), its address the next one. */
static unsigned cur_psw(REGS *regs, uint8_t *psw)
{
    if (regs->aie)
        regs->psw.IA_G = ip_ia(regs);
    copy_psw(regs, psw);
    return regs->arch_mode == FST_A900 ? 16 : 8;
}

static int wait_psw(const uint8_t *psw, unsigned len)
{
    /* S/370 BC: bit 14; EC, ESA/390, z: bit 14 too (byte 1, 0x02) */
    return len >= 8 && (psw[1] & 0x02);
}

/* ---- the wrappers ---- */

static inline void push(cpubuf *c, uint64_t at, uint64_t to)
{
    unsigned j = c->nbr++ % FSTMOD_REP_MAXP;
    c->bat[j] = at;
    c->bto[j] = to;
    c->last = to;
}

/* A taken branch that does not go on the copy being made: the copy's REP record, then a
** new copy when the branch repeats one of the last (the nearest), else its own record. */
static void taken_new(REGS *regs, uint64_t at, uint64_t to)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    c->rep_p = 0;
    for (unsigned p = 1; p <= FSTMOD_REP_MAXP; p++) {
        unsigned j = (c->nbr - p) % FSTMOD_REP_MAXP;
        if (c->bat[j] == at && c->bto[j] == to) {
            c->rep_p = p;
            c->rep_n = 1;
            push(c, at, to);
            return;
        }
    }
    c->b[c->n++] = FSTMOD_OP_BR;
    put_sv(c, (int64_t)(at - c->last));
    put_sv(c, (int64_t)(to - at));
    push(c, at, to);
}

/* A taken branch: one more copy (fstmod_wire.h REP) while it is the branch p back, which in
** a loop it is, without a byte written; else taken_new. */
static void taken(REGS *regs, uint64_t at, uint64_t to)
{
    cpubuf *c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (likely(c != NULL) && c->rep_p) {
        unsigned j = (c->nbr - c->rep_p) % FSTMOD_REP_MAXP;
        if (likely(c->bat[j] == at && c->bto[j] == to)) {
            if (unlikely(++c->rep_n == REP_MAXN)) {
                c = room_of(regs);
                rep_out(c);
            }
            push(c, at, to);
            return;
        }
    }
    taken_new(regs, at, to);
}

/* A branching instruction: its routine, then a record when it branched. Hercules' branch
** routines leave aip and AIV alone: a branch that fell through advanced ip by its length
** and left aie set (the fast way out); one taken either moved ip in the page or, to
** another page or under EX, set the PSW's address and cleared aie. */
static void ATTR_REGPARM(2) w_branch(BYTE inst[], REGS *regs)
{
    BYTE *ip0 = regs->ip;
    uint64_t am = amask(regs);
    unsigned ilc = ilc_of(inst[0]);
    FST_ORIG1(inst)(inst, regs);
    if (likely(regs->ip == ip0 + ilc && regs->aie != NULL))
        return;
    uint64_t ia0 = (regs->AIV_G + (uint64_t)((uintptr_t)ip0 - (uintptr_t)regs->aip)) & am;
    uint64_t fall = (ia0 + ilc) & am;
    uint64_t at = regs->execflag ? (fall - (regs->exrl ? 6 : 4)) & am : ia0; /* under EX: the EX */
    uint64_t to = regs->aie ? ip_ia(regs) : regs->psw.IA_G & am;
    if (to != fall)
        taken(regs, at, to);
}

/* The address a PSW says (8 bytes: BC mode 24 bits, EC mode 31). */
static uint64_t psw_addr(const uint8_t *psw, unsigned len)
{
    if (len != 8)
        return 0;
    uint64_t a = (uint64_t)(psw[4] & 0x7F) << 24 | (uint64_t)psw[5] << 16 | (uint64_t)psw[6] << 8 | psw[7];
    return psw[1] & 0x08 ? a : a & 0xFFFFFF;
}

/* SVC: recorded before its routine (which ends with a longjmp): the SVC new PSW is in
** the PSA. */
static void ATTR_REGPARM(2) w_svc(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    uint8_t psw[16];
    unsigned len = psa_psw(regs, 0x60, psw);
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = FSTMOD_OP_SVC;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, inst[1]);
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    put_regs(c, regs);
    if (wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
    FST_ORIG1(inst)(inst, regs);
}

static __thread int pgm_seen; /* a program interruption came while a wrapped routine ran */

/* After an instruction that loads or changes the PSW: the record, from the PSW now in
** force. `lpsw`: its operand address is recorded too (and the PSW bytes as loaded). */
static void psw_record(REGS *regs, uint8_t op, uint64_t at, int lpsw, uint64_t operand)
{
    uint8_t psw[16];
    unsigned len = cur_psw(regs, psw);
    if (lpsw && len == 8 && !(psw[1] & 0x08)) {
        /* BC mode: copy_psw stores the ILC and CC Hercules keeps, not what was loaded */
        uint64_t a = operand & 0xFFFFFF, px = regs->PX_G;
        if (a < 4096)
            a += px;
        else if (a >= px && a < px + 4096)
            a -= px;
        if (!REAL_MODE(&regs->psw) || a + 8 > sysblk.mainsize)
            ;
        else
            memcpy(psw, regs->mainstor + a, 8);
    }
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = lpsw ? FSTMOD_OP_LPSW : FSTMOD_OP_PSW;
    put_sv(c, (int64_t)(at - c->last));
    if (lpsw)
        put_v(c, operand);
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    if (lpsw) /* the registers the dispatched task runs with */
        put_regs(c, regs);
    (void)op;
    if (wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* The first operand address D2(B2) of an RS or S instruction, computed before it runs
** (an LM may load its own base register). */
static uint64_t operand_of(const BYTE inst[], REGS *regs)
{
    unsigned b2 = inst[2] >> 4, d2 = ((unsigned)inst[2] & 0xF) << 8 | inst[3];
    return ((b2 ? regs->GR_L(b2) : 0) + d2) & amask(regs);
}

/* An instruction run under the module's own setjmp (below): what its record needs. */
typedef struct done {
    uint8_t op, r1r3;
    uint64_t at, fall, operand;
} done;

/* LCTL: the control registers it loaded (r1 to r3, wrapping), from the CPU: CR1 is the
** address space a task runs in. */
static void cr_record(REGS *regs, const done *d)
{
    unsigned r1 = d->r1r3 >> 4, n = ((unsigned)(d->r1r3 & 15) - r1) & 15;
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = FSTMOD_OP_CR;
    put_sv(c, (int64_t)(d->at - c->last));
    put_v(c, d->operand);
    c->b[c->n++] = d->r1r3;
    for (unsigned k = 0; k <= n; k++)
        put_v(c, regs->CR_L((r1 + k) & 15));
    c->last = d->fall;
}

static void record_done(REGS *regs, const done *d)
{
    if (d->op == 0xB7)
        cr_record(regs, d);
    else
        psw_record(regs, d->op, d->at, d->op == 0x82, d->operand);
}

/* An instruction that may end with a longjmp to the CPU's instruction loop
** (RETURN_INTCHECK: LPSW, SSM, LCTL, ...): run under our own setjmp, record, then go on as
** Hercules would have. A program interruption inside it (recorded by the hook) means it
** loaded nothing: no record then. */
static void run_recorded(BYTE inst[], REGS *regs, const done *d)
{
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    pgm_seen = 0;
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0) {
        FST_ORIG1(inst)(inst, regs);
        memcpy(regs->progjmp, saved, sizeof saved);
        if (!pgm_seen)
            record_done(regs, d);
        return;
    }
    memcpy(regs->progjmp, saved, sizeof saved);
    if (!pgm_seen)
        record_done(regs, d);
    longjmp(regs->progjmp, rc);
}

/* An instruction that loads or changes the PSW (LPSW: its operand recorded too). */
static void ATTR_REGPARM(2) w_pswop(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0] };
    d.at = at_of(regs, inst[0], &d.fall);
    if (inst[0] == 0x82)
        d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* LCTL: supervisor state only (a program check in problem state, recorded by the hook). */
static void ATTR_REGPARM(2) w_lctl(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .r1r3 = inst[1] };
    d.at = at_of(regs, inst[0], &d.fall);
    d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* LM and STM of all 16 registers in supervisor state, not under EX: Hercules' routine,
** then the record of its operand. Apart from w_lmstm so that the test there needs no
** stack frame. */
static void __attribute__((noinline)) lmstm_record(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall), operand = operand_of(inst, regs);
    FST_ORIG1(inst)(inst, regs);   /* a program interruption in it: no record (longjmp) */
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = FSTMOD_OP_OPND;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, operand);
    c->last = fall;
}

/* LM and STM: a record only for all 16 registers in supervisor state (a dispatcher
** restoring a task's registers, a handler saving them: the block names the task). A
** program's own LM and STM (problem state, or 14,12) go straight on to Hercules' routine:
** one test, no other work. */
static void ATTR_REGPARM(2) w_lmstm(BYTE inst[], REGS *regs)
{
    if (PROBSTATE(&regs->psw) || ((unsigned)((inst[1] & 0xF) - (inst[1] >> 4)) & 15) != 15 || regs->execflag)
        FST_ORIG1(inst)(inst, regs);
    else
        lmstm_record(inst, regs);
}

/* B2xx: only SPKA (B20A) changes the PSW of the B2 instructions S/370 programs use; the
** others go to Hercules' own routine as they are. */
static void ATTR_REGPARM(2) w_spka(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    FST_ORIG2(inst)(inst, regs);
    psw_record(regs, inst[0], at, 0, 0);
}

/* SIGP: the order, the CPU it addresses and the condition code it set, and for an accepted
** restart the target's restart new PSW (where it will start: the reader has no other way
** to know); then this CPU's records go out at once, so that the FIFO has them before the
** target's (the reader holds a CPU's records that come before its start). Run under a
** setjmp as w_pswop: a CPU that stops itself ends the SIGP with a longjmp. */
static void sigp_record(REGS *regs, uint64_t at, unsigned order, unsigned cpad)
{
    uint8_t psw[16];
    unsigned len = 0, cc = regs->psw.cc;
    if (order == 6 && cc == 0 && cpad < FST_MAXCPU && sysblk.regs[cpad])
        len = psa_psw(sysblk.regs[cpad], 0x00, psw);
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = FSTMOD_OP_SIGP;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, order);
    put_v(c, cpad);
    c->b[c->n++] = (uint8_t)cc;
    c->b[c->n++] = (uint8_t)len;
    memcpy(c->b + c->n, psw, len);
    c->n += len;
    c->last = (at + 4) & amask(regs);
    flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

static void ATTR_REGPARM(2) w_sigp(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    unsigned r3 = inst[1] & 0x0F, b2 = inst[2] >> 4, d2 = ((unsigned)inst[2] & 0xF) << 8 | inst[3];
    unsigned order = (unsigned)(((b2 ? regs->GR_L(b2) : 0) + d2) & 0xFF), cpad = regs->GR_LHL(r3);
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    pgm_seen = 0;
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0) {
        FST_ORIG1(inst)(inst, regs);
        memcpy(regs->progjmp, saved, sizeof saved);
        if (!pgm_seen)
            sigp_record(regs, at, order, cpad);
        return;
    }
    memcpy(regs->progjmp, saved, sizeof saved);
    if (!pgm_seen)
        sigp_record(regs, at, order, cpad);
    longjmp(regs->progjmp, rc);
}

/* Hercules' program interruption hook: called with the PSW's address and ILC set, before
** the old PSW is stored and the new one loaded. */
static void *pgm_hook(REGS *regs, int pcode)
{
    REGS *r = sysblk.regs[regs->cpuad];
    if (!r || r->arch_mode != FST_A370)
        return NULL;
    pgm_seen = 1;
    unsigned ilc = r->psw.zeroilc ? 0 : r->psw.ilc;
    uint64_t at;
    uint8_t flags = 1;
    if (r->instinvalid) { /* the fetch at the PSW failed: nothing executed */
        at = r->psw.IA_G & amask(r);
        flags = 0;
    } else /* ip is where the instruction left it (past it), whether or not IA was backed up */
        at = (ip_ia(r) - ilc) & amask(r);
    uint8_t psw[16];
    unsigned len = psa_psw(r, 0x68, psw);
    cpubuf *c = buf_of(r);
    c->b[c->n++] = FSTMOD_OP_PGM;
    c->b[c->n++] = flags;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, (uint64_t)(pcode & 0xFFFF));
    c->b[c->n++] = (uint8_t)ilc;
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    put_regs(c, r);
    if (wait_psw(psw, len))
        flush_cpu(r->cpuad % FSTMOD_NCPU);
    return NULL;
}

/* External and I/O interruptions, told by the preloaded interposer (fstirq.c) after
** Hercules took one: the old PSW (where the CPU was: nothing at its address executed) and
** the new one are in the PSA; the code is what Hercules stored (psw.intcode). */
static void irq_record(REGS *regs, int cls)
{
    if (regs->arch_mode != FST_A370)
        return;
    uint8_t oldp[16], newp[16];
    unsigned ol = psa_psw(regs, cls == 2 ? 0x18 : 0x38, oldp), nl = psa_psw(regs, cls == 2 ? 0x58 : 0x78, newp);
    if (!ol || !nl)
        return;
    uint64_t at = psw_addr(oldp, ol);
    cpubuf *c = buf_of(regs);
    c->b[c->n++] = FSTMOD_OP_INTR;
    c->b[c->n++] = (uint8_t)cls;
    put_sv(c, (int64_t)(at - c->last));
    /* the code: BC mode in the old PSW's bytes 2-3; EC mode at PSA 86 (external) or BA (I/O) */
    uint64_t code = (uint64_t)oldp[2] << 8 | oldp[3];
    if (oldp[1] & 0x08) {
        uint64_t a = regs->PX_G + (cls == 2 ? 0x86 : 0xBA);
        code = a + 2 <= sysblk.mainsize ? (uint64_t)regs->mainstor[a] << 8 | regs->mainstor[a + 1] : 0;
    }
    put_v(c, code);
    put_psw(c, newp, nl);
    c->last = psw_addr(newp, nl);
    put_regs(c, regs);
    if (wait_psw(newp, nl))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* ---- loading ---- */

static const uint8_t branch370[] = { 0x05, 0x06, 0x07, 0x0B, 0x0C, 0x0D, 0x45, 0x46, 0x47, 0x4D, 0x86, 0x87 };
static const uint8_t pswop370[] = { 0x80, 0x82, 0xAC, 0xAD };
static const uint8_t lmstm370[] = { 0x90, 0x98 };

static void set370(uint8_t op, fst_ifn f)
{
    fst_patch1(op, f);
}

static void hello(const char *op_text, int refuse)
{
    uint8_t b[300];
    size_t n = strlen(op_text);
    if (n > sizeof b - 1)
        n = sizeof b - 1;
    b[0] = refuse ? FSTMOD_OP_REFUSE : FSTMOD_OP_HELLO;
    memcpy(b + 1, op_text, n);
    chunk(FSTMOD_CPU_MODULE, b, n + 1);
}

static void start(void)
{
    const char *out = getenv(FSTMOD_ENV_OUT);
    if (!out || !*out) {
        logmsg("HHCFS001E fst module: " FSTMOD_ENV_OUT " is not set: nothing recorded\n");
        return;
    }
    outfd = open(out, O_WRONLY | O_CLOEXEC);
    if (outfd < 0) {
        logmsg("HHCFS002E fst module: %s: cannot open: %s\n", out, strerror(errno));
        return;
    }
    char why[256] = "";
    if (sysblk.regs_copy_len != (int)offsetof(REGS, regs_copy_end))
        snprintf(why, sizeof why, "REGS differs from the headers the module was built with (regs_copy_len %d, "
                 "expected %d)", sysblk.regs_copy_len, (int)offsetof(REGS, regs_copy_end));
    else if (sysblk.arch_mode != FST_A370)
        snprintf(why, sizeof why, "ARCHMODE is not S/370: the module records S/370 only");
    else if (getenv(FSTMOD_ENV_REFUSE))
        snprintf(why, sizeof why, "refused as asked by " FSTMOD_ENV_REFUSE " (a test of the fallback)");
    if (why[0]) {
        hello(why, 1);
        logmsg("HHCFS003W fst module: %s: nothing recorded\n", why);
        return;
    }
    void (**irq)(REGS *, int) = (void (**)(REGS *, int))dlsym(RTLD_DEFAULT, "fstirq_record");
    if (irq)
        *irq = irq_record;
    char text[200];
    snprintf(text, sizeof text, FST_HERC_NAME " 1 REGS=%zu SYSBLK=%zu interruptions=%s", sizeof(REGS),
             sizeof(SYSBLK), irq ? "seen" : "unseen");
    hello(text, 0);
    for (size_t i = 0; i < sizeof branch370; i++)
        set370(branch370[i], w_branch);
    for (size_t i = 0; i < sizeof pswop370; i++)
        set370(pswop370[i], w_pswop);
    for (size_t i = 0; i < sizeof lmstm370; i++)
        set370(lmstm370[i], w_lmstm);
    set370(0xB7, w_lctl);
    set370(0x0A, w_svc);
    set370(0xAE, w_sigp);
    fst_patch2(0xB2, 0x0A, w_spka);
    fst_patch_done();
    patched = 1;
}

HDL_DEPENDENCY_SECTION;
{
    HDL_DEPENDENCY(HERCULES);
    HDL_DEPENDENCY(REGS);
    HDL_DEPENDENCY(DEVBLK);
    HDL_DEPENDENCY(SYSBLK);
}
END_DEPENDENCY_SECTION

HDL_REGISTER_SECTION;
{
    HDL_REGISTER(debug_program_interrupt, pgm_hook);
    start();
}
END_REGISTER_SECTION

HDL_FINAL_SECTION;
{
    if (patched) {
        fst_unpatch();
        patched = 0;
    }
    for (unsigned i = 0; i < FSTMOD_NCPU; i++)
        flush_cpu(i);
    void (**irq)(REGS *, int) = (void (**)(REGS *, int))dlsym(RTLD_DEFAULT, "fstirq_record");
    if (irq)
        *irq = NULL;
    if (outfd >= 0)
        close(outfd);
    outfd = -1;
}
END_FINAL_SECTION
