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
** (analyze/tasks/tasks.h), as a whole-system text trace with registers shows it: the general
** registers after every interruption and LPSW (only those that changed), the control
** registers an LCTL loaded (CR1: the address space), the operand of an LM or STM of all 16
** registers in supervisor state (a dispatcher's or handler's register block). How: it replaces the routines of those opcodes in Hercules'
** opcode tables (the global one and every CPU's copy) with wrappers that call Hercules'
** own routine, then record; an instruction that ends with a longjmp (LPSW, SVC, SSM, ...)
** is run under a setjmp of the wrapper's, which records and then takes the longjmp on.
** Nothing of the guest changes: the module reads its PSA's new PSWs, code pages and page
** tables from main storage (no storage key, no change bit is touched) and the registers;
** the host pages holding code it sent are write-protected, and a store into one is let
** through by its SIGSEGV handler (the guest sees nothing).
**
** Safety: HDL refuses the module when Hercules' structure sizes differ from the headers it
** was built with (HDL_DEPENDENCY); the module also checks a field offset Hercules states at
** run time (sysblk.regs_copy_len against its own offsetof(REGS, regs_copy_end)), and then
** refuses in its first chunk (FSTMOD_OP_REFUSE, with the reason) and patches nothing.
**
** Architectures: S/370, ESA/390 and z/Architecture, each in its own opcode tables (wraps[]
** below); PSWs of 8 or 16 bytes, from the PSA slots of the architecture the CPU runs in.
** Limits (capture/modread/modstream.h says what fst does with them): code pages under the
** DAT of ESA/390 and z/Architecture are not sent (their tables are not read: the reader
** stops at the first instruction it lacks); external and I/O interruptions have no hook in 3.13: they are recorded
** only when fst-capture has preloaded fstirq.c's interposer (it does), which calls
** irq_record here. Code: the pages the instructions run from are sent (CODE, "code pages"
** below), so code the program loads or changes is rebuilt too.
**
** Readers come and go ("attach and detach" below): the module never waits for one. With
** none (FST_MODULE_OUT a FIFO nobody has open, or not there yet) its wrappers are out of
** the opcode tables; a reader there when it loads, when fst-capture runs the program
** (FST_MODULE_FROM_IPL), gets the stream from IPL; any other (fst-capture --attach: a
** running system) gets each CPU from a SYNC on.
**
** Memory: one buffer of FSTMOD_BUF bytes per CPU, written to the FIFO when full, at a wait
** state and when the module is unloaded. Errors: a failed write (the reader gone) or a
** reader that takes nothing for 30 s ends the session; the module waits for the next.
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
#include "fstmod_job.h"
#include "fstmod_wire.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/mman.h>
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
** back (p <= FSTMOD_REP_MAXP, the nearest such branch) begins a copy, and the copy goes on
** while each branch is the one p back; it is written as one REP record when it ends (another
** branch, any other record, a flush) or reaches REP_MAXN. The nearest is found in a table
** of where each branch was last (rix, by a hash of its addresses): a FORTRAN mainline's
** pattern of calls, a hundred branches or more, is then a loop as a BCT's is, copied whole
** (inside it a routine's own branches repeat sooner, from its last call: their copy ends at
** its return, whose target says which call it was, and the pattern's copy begins there). */
#define REP_MAXN 65536u /* copies in one REP record: what a stop can lose of a loop */
#define REP_HASH 4096u  /* rix slots */

/* Looking for copies pays where copies are long (a tight loop, a FORTRAN mainline's pattern:
** a copy's step costs a compare and a few counts) and may cost where they are short: gcc -O2
** code and call-heavy C repeat a few branches at a time (copies of 1.6 to 4.3 steps), and
** each copy's start and end (rix, the ring, copy_end, a REP record) can cost more than the
** branch records they save, or less (recursion's few branches stay in the cache; fewer
** bytes go to the reader). Which one a program's stretch gets is measured, per CPU, in
** phases of taken branches: a trial that looks for copies (ph_look branches, timed); when
** its copies of PH_LONG or more held less than half of its branches, a trial that writes
** each branch as a BR record without a look (`raw`, ph_look branches, timed); then the
** faster of the two for 16 * ph_look branches; then trials again. The stream is the same
** kind either way: the reader counts the raw branches as branch records, as REP's p does,
** and the module counts them too (nbr) without putting them in the ring, which it empties
** of addresses when it looks again (a copy is only ever found among branches pushed since).
** Hercules with the module alone, against the module that always looked (docs/internals.md
** "Copies looked for, or not"): a call-heavy cgen program 1.49 -> 1.30 the untraced run
** under 4.9, 1.26 -> 1.17 under 3.13; branchy -O2, recursion, shares.s and the FORTRAN
** shape as before (within 0.03). A phase's time is the CPU's thread's CPU time (a wait
** does not count); it counts what Hercules did meanwhile, so a trial that spans two
** stretches of a program unlike each other may choose wrong, until the next trial. */
#define PH_LOOK 65536u  /* taken branches of a trial (FSTMOD_ENV_PHASE: the tests' few) */
#define PH_LONG 16u     /* a copy this long or longer pays */
enum { PH_LOOKT, PH_RAWT, PH_LOOKR, PH_RAWR }; /* trials, and runs of the faster: raw ones odd */
static unsigned ph_look = PH_LOOK;

static inline unsigned rix_of(uint64_t at, uint64_t to)
{
    return (unsigned)(((at * 0x9E3779B97F4A7C15ull) ^ (to * 0xC2B2AE3D27D4EB4Full)) >> 52) % REP_HASH;
}

/* A page code_check found right for the reader (its fast path, code_same): its space, page,
** the epoch it was found in, its frames and their words then; when its frames have been
** written (code and data in one page), the run's bytes are compared with the copy instead
** (valid while cmp is the epoch). CK_PAGES of them, by page number: a load module's
** routines, and the library's they call, lie in more pages than one, and with one page
** remembered every call and return to another page took the slow path (a page's look-up,
** under DAT its translation): cgen seed 11985 with its routines 1 KiB or 4 KiB apart ran
** 1.40-1.47x untraced under 4.9 where in one page it ran 1.20x. Two ways: a page's entry is
** at its number modulo CK_PAGES or at another its number's hash picks (ck_alt), the one
** found right longer ago giving way; one way, pages 128 KiB apart took each other's entry
** (cgen seed 11985 with its functions 64 KiB apart: 1.45-1.52x, in one page 1.25x). */
#define CK_PAGES 32u
typedef struct ckent {
    uint64_t space, page, epoch, cmp;
    const uint8_t *copy, *main;
    uint64_t stamp;     /* code_stamp when it was found right (ck_way) */
    uint64_t pad_;
} ckent;   /* 64 bytes, a cache line (72, and the second way looked at inline: ~4 % slower) */

/* The second entry page pg may have: never its first (pg % CK_PAGES) */
static inline unsigned ck_alt(uint64_t pg)
{
    return (unsigned)(pg % CK_PAGES) ^ (1u + (unsigned)((pg * 0x9E3779B97F4A7C15ull) >> 59) % (CK_PAGES - 1));
}

typedef struct cpubuf {
    uint8_t b[FSTMOD_BUF];
    size_t n;
    uint64_t last;      /* the stream's base for this CPU (fstmod_wire.h `last`) */
    uint64_t bat[FSTMOD_REP_MAXP], bto[FSTMOD_REP_MAXP]; /* the last branches */
    unsigned nbr;       /* branches so far (mod 2^32), the last at (nbr - 1) % FSTMOD_REP_MAXP;
                           before the first ones: UINT64_MAX, no address */
    unsigned rix[REP_HASH]; /* by rix_of a branch's addresses: 1 + the nbr it was last pushed
                               at (0: none; a collision is told by bat and bto) */
    unsigned rep_p, rep_n;  /* the copy being made: p back, n so far (in this REP record) */
    /* A copy's branches after its first are not pushed one by one: each is the one p back,
    ** so the p branches before the copy began say them all (copy_end pushes them when the
    ** copy ends: the last branches and rix then are what pushing each would have left).
    ** rep_n0: nbr when the copy began (its first branch pushed); rep_lazy: the branches
    ** since, not pushed; rep_e: the number (nbr) of the branch the next copy must repeat,
    ** among rep_n0 - p .. rep_n0 - 1. A tight loop's branch then costs a compare and a few
    ** counts, not the ring's stores and rix's hash (shares.s under 3.13: Hercules with the
    ** module 3-4 % faster; the same under 4.9; reading the next expected branch ahead into
    ** fields of its own was slower). */
    unsigned rep_n0, rep_lazy, rep_e;
    int ph;             /* the phase: PH_LOOKT, ...; odd: BR records without a look (raw) */
    unsigned ph_n0;     /* nbr when the phase began */
    unsigned ph_left;   /* a raw phase: its branches left; a looking one: its length (its
                           branches are counted by nbr, which a copy's steps move at its end) */
    unsigned ph_long;   /* a looking phase: the branches of its copies of PH_LONG or more */
    uint64_t ph_t0;     /* when the phase began (ns) */
    uint64_t look_ns, look_n; /* the last looking trial: its time and branches */
    uint64_t nraw;      /* branches written raw (HHCFS008I at the end) */
    uint64_t rep_at[FSTMOD_REP_MAXP], rep_to[FSTMOD_REP_MAXP]; /* copy_end's: the p repeated,
                                                                  of a copy longer than the ring */
    unsigned calls;     /* room_of calls (stale's check every STALE_EVERY) */
    uint64_t since;     /* when the buffer was last seen empty (ns, coarse clock) */
    uint32_t gr[16];    /* the general registers the last REGS of this CPU left the reader */
    int gr_sent;        /* a REGS was written for this CPU (then only the changed ones follow) */
    uint64_t said_space; /* the space the last CODE SPACE op said (0 at first, as the reader) */
    ckent ck[CK_PAGES]; /* the pages last found right for the reader, by page number */
    struct cslot *slots; /* the code pages the reader has for this CPU (FSTMOD_CODE_SLOTS, at its
                            first code page: each CPU sends the pages it runs in its own
                            records, which reach the reader on their own schedule) */
    struct cslot *late;  /* a page to send before the next op's (code_page: stored into behind) */
    uint64_t late_abs[2];
    unsigned gen;       /* the reader's session this state was made for (attach below) */
    unsigned cons_seen; /* the last console line this CPU wrote (CONS), or skipped */
} cpubuf;

static cpubuf *bufs[FSTMOD_NCPU];
static int outfd = -1;
static pthread_mutex_t outlock = PTHREAD_MUTEX_INITIALIZER;
static int patched;

/* The reader's session (section "attach and detach" below): 0 while no reader has the FIFO
** open (the wrappers are then out of the opcode tables), else its number. A CPU whose state
** belongs to another session starts its records again with SYNC (sync_cpu); load_gen is
** the session opened as the module loaded, before any CPU ran, when fst-capture runs the
** program (FST_MODULE_FROM_IPL): no SYNC. */
static volatile unsigned fst_gen;
static unsigned load_gen;
static unsigned att_sessions;   /* sessions so far (the last one's number) */
static void detach_locked(const char *why);
/* Console lines (section "console lines" below): the last one's number, and what a CPU
** that starts a session has seen of them. */
static volatile unsigned cons_seq;
static unsigned cons_from;
static void cons_out(REGS *regs, uint64_t at);

/* ---- the stream ---- */

/* outlock held. The FIFO is non-blocking: a full pipe is waited for (the reader is slow:
** Hercules waits, as a blocking write would), but a reader that takes nothing for
** FSTMOD_STALL_MS is given up (detach): a writer never blocks Hercules forever. A failed
** write (EPIPE: the reader closed; SIGPIPE is ignored, attach_start) detaches too. */
#define FSTMOD_STALL_MS 30000
static void write_all(const uint8_t *p, size_t n)
{
    int waited = 0;
    while (n && outfd >= 0) {
        ssize_t k = write(outfd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN) {
            struct pollfd pf = { outfd, POLLOUT, 0 };
            if (waited >= FSTMOD_STALL_MS) {
                detach_locked("took nothing for 30 s");
                return;
            }
            if (poll(&pf, 1, 1000) == 0)
                waited += 1000;
            continue;
        }
        if (k <= 0) { /* the reader is gone: stop recording until the next one */
            detach_locked(k < 0 && errno == EPIPE ? NULL : strerror(errno));
            return;
        }
        waited = 0;
        p += k;
        n -= (size_t)k;
    }
}

/* A chunk of session gen's records: written only while that session lasts (a CPU's
** records of an earlier reader never reach a later one). */
static void chunk(unsigned cpu, const uint8_t *p, size_t n, unsigned gen)
{
    uint8_t h[FSTMOD_CHUNK_HDR] = { FSTMOD_CHUNK, (uint8_t)cpu, 0, 0, (uint8_t)n, (uint8_t)(n >> 8),
                                    (uint8_t)(n >> 16), (uint8_t)(n >> 24) };
    pthread_mutex_lock(&outlock);
    if (gen && gen == fst_gen) {
        write_all(h, sizeof h);
        write_all(p, n);
    }
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
        chunk(cpu, c->b, c->n, c->gen);
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

/* Room in c for any one op (the longest: CR, ~100 bytes) and a copy's REP before it; a
** buffer gone stale goes out. */
static inline void room_check(cpubuf *c, REGS *regs)
{
    if (c->n > FSTMOD_BUF - 256 || ((++c->calls % STALE_EVERY == 0 || c->rep_n >= REP_MAXN) && stale(c)))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
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
        c->ph_left = ph_look;   /* a looking trial first (ph = PH_LOOKT) */
        c->gen = load_gen; /* a CPU first seen in a later session starts with SYNC */
        bufs[cpu] = c;
    }
    room_check(c, regs);
    return c;
}

/* The copy being made ends: the branches it did not push (rep_lazy) go into the last
** branches and rix as push would have put them, each the one p back, in order (then each
** one's source is in the ring still: it is p <= FSTMOD_REP_MAXP back). Of a copy longer
** than the ring only its last FSTMOD_REP_MAXP stay, copied from the p it repeats (first
** put aside: the ring's slots go round over them); only the last p can be rix's latest. */
static void copy_end(cpubuf *c)
{
    unsigned k = c->rep_lazy, p = c->rep_p, n0 = c->rep_n0, m = FSTMOD_REP_MAXP;
    c->rep_p = 0;
    if (!k)
        return;
    c->rep_lazy = 0;
    c->nbr = n0 + k;
    c->ph_long += k >= PH_LONG ? k + 1 : 0;
    if (k <= m) {
        /* rix set from the values copied (the last p), not reloaded from the ring just
        ** stored: recursion's copies are short, and this is most of their cost */
        unsigned q = 0;
        for (; q + p < k; q++) {
            c->bat[(n0 + q) % m] = c->bat[(n0 + q - p) % m];
            c->bto[(n0 + q) % m] = c->bto[(n0 + q - p) % m];
        }
        for (; q < k; q++) {
            uint64_t at = c->bat[(n0 + q - p) % m], to = c->bto[(n0 + q - p) % m];
            c->bat[(n0 + q) % m] = at;
            c->bto[(n0 + q) % m] = to;
            c->rix[rix_of(at, to)] = n0 + q + 1;
        }
        return;
    }
    for (unsigned i = 0; i < p; i++) {
        c->rep_at[i] = c->bat[(n0 - p + i) % m];
        c->rep_to[i] = c->bto[(n0 - p + i) % m];
    }
    for (unsigned q = k - m, i = q % p; q < k; q++) {  /* branch n0 + q repeats rep_at[q % p] */
        c->bat[(n0 + q) % m] = c->rep_at[i];
        c->bto[(n0 + q) % m] = c->rep_to[i];
        if (++i == p)
            i = 0;
    }
    for (unsigned q = k - p; q < k; q++)    /* k > m >= p */
        c->rix[rix_of(c->bat[(n0 + q) % m], c->bto[(n0 + q) % m])] = n0 + q + 1;
}

/* The same for a record other than a branch: a copy being made ends before it. */
static cpubuf *buf_of(REGS *regs)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    copy_end(c);
    return c;
}

/* Room for n more bytes in c (the buffer is written out first when they do not fit). */
static void room(cpubuf *c, REGS *regs, size_t n)
{
    if (c->n + n > FSTMOD_BUF)
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
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

/* The length of an instruction by its first two bits (00: 2, 01 and 10: 4, 11: 6), without
** a branch: the wrappers take it at every branch instruction. */
static inline unsigned ilc_of(uint8_t op)
{
    return (((unsigned)op >> 6) + 3) >> 1 << 1;
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

/* The PSA's PSW slots: S/370 and ESA/390 (8 bytes each), z/Architecture (16). */
enum { PSA_RESTART, PSA_EXT_NEW, PSA_SVC_NEW, PSA_PGM_NEW, PSA_IO_NEW, PSA_EXT_OLD, PSA_IO_OLD };
static const uint16_t psa_esa[] = { 0x000, 0x058, 0x060, 0x068, 0x078, 0x018, 0x038 };
static const uint16_t psa_z[] = { 0x1A0, 0x1B0, 0x1C0, 0x1D0, 0x1F0, 0x130, 0x170 };

/* The PSW in the CPU's PSA slot (PSA_*) for the architecture it runs in: its length. */
static unsigned psa_psw(REGS *regs, unsigned slot, uint8_t *psw)
{
    uint64_t px = regs->PX_G;
    unsigned z = regs->arch_mode == FST_A900, len = z ? 16 : 8, off = z ? psa_z[slot] : psa_esa[slot];
    if (px + off + len > sysblk.mainsize)
        return 0;
    memcpy(psw, regs->mainstor + px + off, len);
    return len;
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

/* ---- code pages (fstmod_wire.h CODE) ----
**
** The reader rebuilds instructions from code bytes; the module sends each 4K page of code
** (per address space) before the first op whose instructions run in it, and again when it
** has changed. Finding "changed" must cost nearly nothing per op and must not touch the
** guest's storage keys (their change bits are the OS's): the host pages of main storage
** that hold sent code are write-protected (mprotect); a store into one, by a CPU or by a
** device thread (a program read in by I/O), faults into segv() below, which marks the
** frame written and lifts the protection (the store then goes on: one fault per frame
** until it is protected again). Each frame has a word, gen << 1 | written: a page sent
** when its frames' words were w is right while the words are still w; the fast path
** (code_same) compares one number instead, code_epoch, which every fault changes too. A
** frame written since (code and data in one page: stores are normal there) is not
** protected again until its code changes: the ops in it compare the bytes their
** instructions ran from with the copy sent (a memcmp of the run, not of the page).
** Under DAT the page tables are read as Hercules' S/370 translate_addr reads them, from
** main storage, without its TLB and without a reference bit; PTLB and IPTE (wrapped), every
** page sent and every fault end what the fast path remembers (code_epoch).
**
** What a run gets is the page as it is at the op after it, except when the run stored into
** its own earlier instructions and no later instruction of it may have changed the store's
** registers (stored_behind): then the page goes after the op, the run keeping the copy it
** executed. Otherwise an instruction a later one of the same straight run (no taken branch
** between) stores into shows its new bytes.
*/
typedef struct cslot {
    int used;
    uint64_t space, page, stamp;
    int fast;                   /* both halves translated: the fast path may trust it */
    uint32_t f[2], w[2];        /* the frames of its 2K halves (one frame: 4K pages), words */
    uint64_t abs[2];            /* the halves' absolute addresses when sent */
    uint8_t copy[FSTMOD_PAGE];  /* what the reader has */
} cslot;

static int code_ok;             /* code pages can be watched (code_start) */
static volatile uint32_t *fword; /* per 4K frame of main storage: gen << 1 | written; 0: never protected */
static size_t nframes;
static uint64_t code_epoch = 1, code_stamp; /* code_epoch: epoch_now, epoch_bump only */
static pthread_mutex_t pglock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction old_segv;
static uint64_t pages_sent, frames_faulted;

/* code_epoch changes (atomically: a fault on another thread may bump it too) at every page
** sent, PTLB and IPTE, and at every frame a fault finds written: an entry of code_same's
** (ckent) found right in epoch e is right while the epoch is still e, one compare where
** the frames' words took two loads more (recursion -O2: 17 host instructions a taken
** branch, of ~250). Faults are few: a frame once written stays writable until its page's
** code changes. */
static inline uint64_t epoch_now(void)
{
    return __atomic_load_n(&code_epoch, __ATOMIC_ACQUIRE);
}

static inline void epoch_bump(void)
{
    __atomic_add_fetch(&code_epoch, 1, __ATOMIC_SEQ_CST);
}

/* A store into main storage the module protected: the frame is written; lift the
** protection so that the store goes on. Anything else is Hercules' own (its abend handler). */
static void segv(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr, base = (uintptr_t)sysblk.mainstor;
    if (fword && a >= base && a - base < nframes * FSTMOD_PAGE) {
        size_t f = (a - base) / FSTMOD_PAGE;
        pthread_mutex_lock(&pglock);
        uint32_t w = fword[f];
        if (w) { /* ours (another thread may have lifted it meanwhile: the store is retried) */
            if (!(w & 1)) {
                fword[f] = w | 1;
                epoch_bump();   /* after the word: code_page reads the epoch before it */
                frames_faulted++;
                mprotect((void *)(base + f * FSTMOD_PAGE), FSTMOD_PAGE, PROT_READ | PROT_WRITE);
            }
            pthread_mutex_unlock(&pglock);
            return;
        }
        pthread_mutex_unlock(&pglock);
    }
    if (old_segv.sa_flags & SA_SIGINFO)
        old_segv.sa_sigaction(sig, si, uc);
    else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN)
        old_segv.sa_handler(sig);
    else
        signal(SIGSEGV, SIG_DFL); /* the fault comes again, and ends Hercules as it would have */
}

/* Frame f protected, its word a new generation, clean (pglock held). */
static void protect(size_t f)
{
    uint32_t w = fword[f];
    if (w && !(w & 1))
        return;
    mprotect(sysblk.mainstor + f * FSTMOD_PAGE, FSTMOD_PAGE, PROT_READ);
    fword[f] = (w | 1) + 1;
}

/* Real to absolute (prefixing). */
static uint64_t absolute(REGS *regs, uint64_t r)
{
    uint64_t px = regs->PX_G;
    return (r & ~0xFFFull) == 0 || (r & ~0xFFFull) == px ? r ^ px : r;
}

static int fetch_real(REGS *regs, uint64_t r, unsigned n, uint32_t *v)
{
    uint64_t a = absolute(regs, r);
    if (a + n > sysblk.mainsize)
        return -1;
    const uint8_t *p = sysblk.mainstor + a;
    *v = n == 4 ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                : (uint32_t)p[0] << 8 | p[1];
    return 0;
}

/* S/370 DAT of va in the space of CR0/CR1 now: its real address, or -1 (not mapped). The
** steps and checks of Hercules 3.13's s370 translate_addr (dat.h), reading the tables
** from main storage: no TLB, no storage key touched. */
static int64_t dat370(REGS *regs, uint64_t va)
{
    uint32_t cr0 = regs->CR_L(0), asd = regs->CR_L(1), ste, pte;
    uint32_t psz = cr0 & CR0_PAGE_SIZE, ssz = cr0 & CR0_SEG_SIZE;
    if ((psz != CR0_PAGE_SZ_2K && psz != CR0_PAGE_SZ_4K) || (ssz != CR0_SEG_SZ_64K && ssz != CR0_SEG_SZ_1M))
        return -1;
    uint64_t sto = (asd & STD_370_STO) + (ssz == CR0_SEG_SZ_1M ? (va & 0x00F00000) >> 18 : (va & 0x00FF0000) >> 14);
    if (ssz == CR0_SEG_SZ_64K && ((uint32_t)(va << 4) & STD_370_STL) > (asd & STD_370_STL))
        return -1;
    if (fetch_real(regs, sto, 4, &ste) || (ste & (SEGTAB_370_INVL | SEGTAB_370_RSV)))
        return -1;
    uint64_t pto = ste & SEGTAB_370_PTO;
    if (ssz == CR0_SEG_SZ_1M)
        pto += psz == CR0_PAGE_SZ_4K ? (va & 0x000FF000) >> 11 : (va & 0x000FF800) >> 10;
    else
        pto += psz == CR0_PAGE_SZ_4K ? (va & 0x0000F000) >> 11 : (va & 0x0000F800) >> 10;
    if (fetch_real(regs, pto, 2, &pte))
        return -1;
    if (psz == CR0_PAGE_SZ_4K)
        return pte & PAGETAB_INV_4K ? -1
                                    : (int64_t)((uint64_t)(pte & PAGETAB_EA_4K) << 23 |
                                                (uint64_t)(pte & PAGETAB_PFRA_4K) << 8 | (va & 0xFFF));
    return pte & (PAGETAB_INV_2K | PAGETAB_RSV_2K) ? -1 : (int64_t)((uint64_t)(pte & PAGETAB_PFRA_2K) << 8 | (va & 0x7FF));
}

/* The address space of the instructions before an op: 0 with DAT off, else CR1's. */
static uint64_t space_of(REGS *regs, int dat)
{
    return dat ? FSTMOD_SPACE_DAT | regs->CR_L(1) : 0;
}

static int dat_on(REGS *regs)
{
    return (regs->arch_mode != FST_A370 || ECMODE(&regs->psw)) && (regs->psw.sysmask & PSW_DATMODE);
}

/* Where the 2K halves of page pg of space sp are in main storage: 0, or -1 for a half that
** is not mapped (abs[h] = UINT64_MAX). */
static int halves(REGS *regs, uint64_t sp, uint64_t pg, uint64_t abs[2])
{
    int rc = 0;
    for (unsigned h = 0; h < 2; h++) {
        uint64_t va = pg * FSTMOD_PAGE + h * 2048;
        int64_t r = sp ? dat370(regs, va) : (int64_t)va;
        abs[h] = r < 0 ? UINT64_MAX : absolute(regs, (uint64_t)r);
        if (r < 0 || abs[h] + 2048 > nframes * FSTMOD_PAGE)
            abs[h] = UINT64_MAX, rc = -1;
    }
    return rc;
}

/* The page's bytes as they are now (a half that is not mapped: zeros). */
static void page_now(const uint64_t abs[2], uint8_t *out)
{
    for (unsigned h = 0; h < 2; h++)
        if (abs[h] == UINT64_MAX)
            memset(out + h * 2048, 0, 2048);
        else
            memcpy(out + h * 2048, sysblk.mainstor + abs[h], 2048);
}

/* Do the bytes [lo, hi) of the page (offsets) equal those of the copy? */
static int run_same(const cslot *s, const uint64_t abs[2], unsigned lo, unsigned hi)
{
    for (unsigned h = 0; h < 2 && lo < hi; h++) {
        unsigned a = h * 2048, b = a + 2048;
        unsigned l = lo > a ? lo : a, e = hi < b ? hi : b;
        if (l >= e)
            continue;
        if (abs[h] == UINT64_MAX || memcmp(s->copy + l, sysblk.mainstor + abs[h] + (l - a), e - l))
            return 0;
    }
    return 1;
}

/* Send page pg of space sp into slot s: the frames protected first (a store after it
** faults and marks them written), then the copy. */
static void send_page(cpubuf *c, REGS *regs, cslot *s, uint64_t sp, uint64_t pg, const uint64_t abs[2])
{
    pthread_mutex_lock(&pglock);
    for (unsigned h = 0; h < 2; h++) {
        s->f[h] = abs[h] == UINT64_MAX ? 0 : (uint32_t)(abs[h] / FSTMOD_PAGE);
        if (abs[h] != UINT64_MAX)
            protect(s->f[h]);
        s->w[h] = abs[h] == UINT64_MAX ? 0 : fword[s->f[h]];
        s->abs[h] = abs[h];
    }
    page_now(abs, s->copy);
    pthread_mutex_unlock(&pglock);
    s->used = 1;
    s->space = sp;
    s->page = pg;
    s->fast = abs[0] != UINT64_MAX && abs[1] != UINT64_MAX;
    room(c, regs, FSTMOD_PAGE + 40);
    c->b[c->n++] = FSTMOD_OP_CODE;
    c->b[c->n++] = FSTMOD_CODE_PAGE;
    put_v(c, sp);
    put_v(c, pg);
    put_v(c, (uint64_t)(s - c->slots));
    memcpy(c->b + c->n, s->copy, FSTMOD_PAGE);
    c->n += FSTMOD_PAGE;
    epoch_bump();
    pages_sent++;
}

/* Page pg's second entry when it holds pg, else NULL; out of line, so that the first's
** test stays all the fast paths inline. */
static const ckent *__attribute__((noinline)) ck_second(const cpubuf *c, uint64_t pg)
{
    const ckent *k = &c->ck[ck_alt(pg)];
    return k->page == pg ? k : NULL;
}

/* Of page pg's two entries: the one that has it, else the one found right longer ago. */
static ckent *ck_way(cpubuf *c, uint64_t sp, uint64_t pg)
{
    unsigned i = (unsigned)(pg % CK_PAGES), j = ck_alt(pg);
    ckent *a = &c->ck[i], *b = &c->ck[j];
    if (a->page == pg && a->space == sp)
        return a;
    if (b->page == pg && b->space == sp)
        return b;
    return a->stamp <= b->stamp ? a : b;
}

/* What code_same remembers ends (a page to send late, a new space): the next op's check
** takes the slow path. */
static void ck_forget(cpubuf *c)
{
    for (unsigned i = 0; i < CK_PAGES; i++)
        c->ck[i].epoch = c->ck[i].cmp = 0;
}

/* Its frames not written since the page was found right (and nothing ended that since). */
static inline int ck_unwritten(const ckent *k)
{
    return k->epoch == epoch_now();
}

/* Is the slot's copy right for the run [lo, hi) of its page? Fast when its frames have
** not been written since it was sent; else by the bytes. */
static int slot_right(cslot *s, const uint64_t abs[2], unsigned lo, unsigned hi)
{
    if (s->abs[0] != abs[0] || s->abs[1] != abs[1])
        return 0; /* mapped elsewhere now */
    if (s->fast && fword[s->f[0]] == s->w[0] && fword[s->f[1]] == s->w[1])
        return 1;
    uint32_t w0 = s->fast ? fword[s->f[0]] : 1, w1 = s->fast ? fword[s->f[1]] : 1;
    if (!(w0 & 1) && !(w1 & 1)) {
        /* protected again since (another slot's page sent): the whole page, once */
        if (memcmp(s->copy, sysblk.mainstor + abs[0], 2048) || memcmp(s->copy + 2048, sysblk.mainstor + abs[1], 2048))
            return 0;
        s->w[0] = w0, s->w[1] = w1;
        return 1;
    }
    return run_same(s, abs, lo, hi);
}

static int stored_behind(REGS *regs, const struct cslot *s, const uint64_t abs[2], uint64_t pg, unsigned lo,
                         unsigned hi);

/* The page pg of space sp, whose bytes [lo, hi) a run executed: sent when the reader does
** not have it right. */
static void code_page(cpubuf *c, REGS *regs, uint64_t sp, uint64_t pg, unsigned lo, unsigned hi)
{
    uint64_t abs[2];
    halves(regs, sp, pg, abs);
    unsigned set = fstmod_code_set(sp, pg);
    cslot *ways = c->slots + set * FSTMOD_CODE_WAYS, *s = NULL, *victim = NULL;
    for (unsigned i = 0; i < FSTMOD_CODE_WAYS && !s; i++)
        if (ways[i].used && ways[i].space == sp && ways[i].page == pg)
            s = &ways[i];
        else if (!victim || (victim->used && (!ways[i].used || ways[i].stamp < victim->stamp)))
            victim = &ways[i]; /* a free way, else the least recently used */
    if (s && !slot_right(s, abs, lo, hi) && s->abs[0] == abs[0] && s->abs[1] == abs[1] &&
        stored_behind(regs, s, abs, pg, lo, hi)) {
        c->late = s; /* this run executed the copy: the new bytes after its op */
        c->late_abs[0] = abs[0], c->late_abs[1] = abs[1];
        s->stamp = ++code_stamp;
        ck_forget(c);
        return;
    }
    if (!s || !slot_right(s, abs, lo, hi))
        send_page(c, regs, s = s ? s : victim, sp, pg, abs);
    s->stamp = ++code_stamp;
    ckent *k = ck_way(c, sp, pg);
    k->stamp = code_stamp;
    k->space = sp;
    k->page = pg;
    /* the fast path only for a page whose frames stay unwritten (else the bytes, each run);
    ** the epoch read first: a fault between it and the words' test ends the entry */
    uint64_t e0 = epoch_now();
    k->epoch = s->fast && fword[s->f[0]] == s->w[0] && fword[s->f[1]] == s->w[1] ? e0 : 0;
    /* a page in one piece of main storage: the next runs in it compared without a look-up */
    int whole = s->fast && abs[1] == abs[0] + 2048;
    k->cmp = whole ? e0 : 0;
    k->copy = s->copy;
    k->main = whole ? sysblk.mainstor + abs[0] : NULL;
}

static int code_frames(void);

/* memcmp(a, b, n) == 0 for the short runs most ops end (a loop's body: 8 to 16 bytes) in
** two overlapping 8-byte compares, without a call. */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n < 8 || n > 16)
        return !memcmp(a, b, n);
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8), memcpy(&b0, b, 8);
    memcpy(&a1, a + n - 8, 8), memcpy(&b1, b + n - 8, 8);
    return a0 == b0 && a1 == b1;
}

/* An instruction's storage operand, when it is one of the stores a program changes its
** own code with (MVI, NI, OI, XI, STC, STH, ST, STM, MVC): its address and length, from
** the registers as they are now. 0 when it is none of those. */
static int store_operand(REGS *regs, const uint8_t *ib, uint64_t *addr, unsigned *len)
{
    unsigned b = ib[2] >> 4, x = ib[1] & 15, d = ((unsigned)ib[2] & 15) << 8 | ib[3];
    uint64_t a = (b ? regs->GR_L(b) : 0) + d;
    switch (ib[0]) {
    case 0x92: case 0x94: case 0x96: case 0x97: *len = 1; break;
    case 0x42: *len = 1; a += x ? regs->GR_L(x) : 0; break;
    case 0x40: *len = 2; a += x ? regs->GR_L(x) : 0; break;
    case 0x50: *len = 4; a += x ? regs->GR_L(x) : 0; break;
    case 0x90: *len = 4 * (((ib[1] & 15) - (ib[1] >> 4)) % 16 + 1); break;
    case 0xD2: *len = ib[1] + 1u; break;
    default: return 0;
    }
    *addr = a & amask(regs);
    return 1;
}

/* Might the instruction ib change general register r? From its format only (RR, RX, RS:
** the first operand register, its pair, LM's range; TRT, EDMK: R1, R2; EX: any), so that
** an instruction that only reads r (ST, CL) counts too: in doubt, yes. */
static int may_write(const uint8_t *ib, unsigned r)
{
    uint8_t op = ib[0];
    unsigned r1 = ib[1] >> 4, r3 = ib[1] & 15;
    if (op == 0x44 || op == 0xDD || op == 0xDF)
        return op == 0x44 || r == 1 || r == 2;
    if (op == 0x98 || op == 0x90) /* LM (STM read as LM: in doubt) */
        return ((r - r1) & 15) <= ((r3 - r1) & 15);
    if (op >= 0xC0 || (op >= 0x91 && op <= 0x97) || (op >= 0xD0)) /* SI, SS */
        return 0;
    return r == r1 || r == ((r1 + 1) & 15);
}

/* Did the run [lo, hi) of page pg store, itself, into every byte of it that changed since
** the copy, each after that byte had executed (the classic switch: SW NOP, then OI
** SW+1,X'F0' further on in the same run)? Then the run executed the copy's bytes: the page
** goes to the reader after the op, not before. The run is walked with the copy's bytes. */
static int stored_behind(REGS *regs, const struct cslot *s, const uint64_t abs[2], uint64_t pg, unsigned lo,
                         unsigned hi)
{
    uint8_t now[FSTMOD_PAGE];
    page_now(abs, now);
    int changed = 0;
    for (unsigned j = lo; j < hi; j++) {
        if (now[j] == s->copy[j])
            continue;
        changed = 1;
        uint64_t va = pg * FSTMOD_PAGE + j, a;
        int covered = 0;
        for (unsigned i = lo, l; i + 2 <= hi && !covered; i += l) {
            const uint8_t *ib = s->copy + i;
            l = ib[0] < 0x40 ? 2 : ib[0] < 0xC0 ? 4 : 6;
            unsigned n;
            if (i > j && i + l <= FSTMOD_PAGE && store_operand(regs, ib, &a, &n) && va >= a && va < a + n)
                covered = 1;
            /* the operand from the registers as the run ends: only when none after it may
            ** have changed them (else in doubt: not covered) */
            unsigned b = ib[2] >> 4, x = ib[0] < 0x80 ? ib[1] & 15 : 0, l2;
            for (unsigned k = i + l; covered && k + 2 <= hi; k += l2) {
                const uint8_t *nb = s->copy + k;
                l2 = nb[0] < 0x40 ? 2 : nb[0] < 0xC0 ? 4 : 6;
                if ((b && may_write(nb, b)) || (x && may_write(nb, x)))
                    covered = 0;
            }
        }
        if (!covered)
            return 0;
    }
    return changed;
}

/* The page code_page left for after its op. */
static void send_late(cpubuf *c, REGS *regs)
{
    cslot *s = c->late;
    c->late = NULL;
    send_page(c, regs, s, s->space, s->page, c->late_abs);
}

/* code_check's slow path: the space said when it changed, then each page of the run. It
** leaves room for the op and the registers after it (256 bytes), as buf_of does. */
static void __attribute__((noinline)) code_slow(cpubuf *c, REGS *regs, uint64_t sp, uint64_t s, uint64_t e)
{
    if (!c->slots && !(c->slots = calloc(FSTMOD_CODE_SLOTS, sizeof *c->slots))) {
        room(c, regs, 256); /* no memory: no page sent (the reader takes the image, or stops) */
        return;
    }
    if (c->late)
        send_late(c, regs);
    if (sp != c->said_space) {
        room(c, regs, 16);
        c->b[c->n++] = FSTMOD_OP_CODE;
        c->b[c->n++] = FSTMOD_CODE_SPACE;
        put_v(c, sp);
        c->said_space = sp;
        ck_forget(c);   /* the pages remembered are all of said_space (copy_code_same) */
    }
    if (sp && regs->arch_mode != FST_A370) {
        /* DAT of ESA/390 and z/Architecture is not read: no page is sent, and the reader
        ** stops at the first instruction it cannot find, naming it (docs/module.md) */
        static int said;
        if (!said++)
            logmsg("HHCFS005W fst module: DAT under ESA/390 or z/Architecture: its code pages are not sent\n");
        room(c, regs, 256);
        return;
    }
    if (e - s > 16 * FSTMOD_PAGE) /* not a run from the last op (the first one): its end */
        s = e > 6 ? e - 6 : 0;
    for (uint64_t pg = s / FSTMOD_PAGE; pg <= (e - 1) / FSTMOD_PAGE; pg++) {
        uint64_t p0 = pg * FSTMOD_PAGE;
        unsigned lo = s > p0 ? (unsigned)(s - p0) : 0;
        unsigned hi = e < p0 + FSTMOD_PAGE ? (unsigned)(e - p0) : FSTMOD_PAGE;
        code_page(c, regs, sp, pg, lo, hi);
    }
    if (c->late)
        ck_forget(c);   /* a run over two pages: the second's page must not make it fast */
    room(c, regs, 256);
}

/* The bytes [s, e) of one page, in space sp, right for the reader by what is remembered of
** the page (no look-up, no translation): its frames not written since, or (data beside the
** code) the bytes this run executed the copy's. 1, or 0 when that does not tell. */
static inline int code_part(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e)
{
    uint64_t pg = s / FSTMOD_PAGE;
    const ckent *k = &c->ck[pg % CK_PAGES];
    if (sp != k->space || pg != k->page) {
        if (!(k = ck_second(c, pg)) || sp != k->space)
            return 0;
    }
    if (ck_unwritten(k))
        return 1;
    unsigned off = (unsigned)(s % FSTMOD_PAGE);
    return k->cmp == epoch_now() && same_bytes(k->copy + off, k->main + off, (size_t)(e - s));
}

static int code_run(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e);

/* The instructions of the next op ran from s up to e (excluded) in the space of `dat` and
** CR1: the reader gets the space and the pages it needs first (code_check). code_same is
** its fast paths alone: 1 when nothing needs sending (*sp: the space, when it says 0). Per
** op, while the run stays in a page found right before (ckent, CK_PAGES of them): a few
** compares (its frames not written since), or a compare of the run's bytes (data stored
** beside the code). */
static inline int code_same(cpubuf *c, REGS *regs, int dat, uint64_t s, uint64_t e, uint64_t *sp)
{
    if (e <= s || (!fword && code_frames()))
        return 1;
    *sp = space_of(regs, dat);
    if ((e - 1) / FSTMOD_PAGE != s / FSTMOD_PAGE)
        return code_run(c, *sp, s, e);
    return code_part(c, *sp, s, e);
}

/* code_part for a run in one page or over two: a loop, or an instruction, across a page's
** end took the slow path at every turn (a hot loop so placed: shares.s's under 4.9, 1.36x
** -> 1.76x untraced). More than two pages: 0. */
static int __attribute__((noinline)) code_run(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e)
{
    uint64_t mid = (s / FSTMOD_PAGE + 1) * FSTMOD_PAGE;
    if (e <= mid)
        return code_part(c, sp, s, e);
    return (e - 1) / FSTMOD_PAGE == mid / FSTMOD_PAGE && code_part(c, sp, s, mid) && code_part(c, sp, mid, e);
}

static inline void code_check(cpubuf *c, REGS *regs, int dat, uint64_t s, uint64_t e)
{
    uint64_t sp;
    if (!code_same(c, regs, dat, s, e, &sp))
        code_slow(c, regs, sp, s, e);
}

/* Start watching: the fault handler (each CPU's slots come with its first code page). 0, or -1 (why). Main storage is not
** there yet when the module loads (the configuration is still being read): its frames'
** words come with the first op (code_frames). */
static int code_start(char *why, size_t cap)
{
    if ((size_t)sysconf(_SC_PAGESIZE) != FSTMOD_PAGE) {
        snprintf(why, cap, "the host's pages are not 4K (or no memory): code pages cannot be watched");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &old_segv)) {
        snprintf(why, cap, "cannot handle SIGSEGV: %s", strerror(errno));
        return -1;
    }
    code_ok = 1;
    return 0;
}

/* The frames' words, at the first op (main storage is 4K-aligned: bldcfg.c aligns it).
** Without them (no memory, storage not aligned) no page is sent: the reader takes the
** image, as before code pages. */
static int code_frames(void)
{
    if (fword)
        return 0;
    if (!code_ok || !sysblk.mainstor || ((uintptr_t)sysblk.mainstor & (FSTMOD_PAGE - 1)))
        return -1;
    uint32_t *w = calloc((size_t)(sysblk.mainsize / FSTMOD_PAGE) + 1, sizeof *w);
    if (!w)
        return -1;
    nframes = (size_t)(sysblk.mainsize / FSTMOD_PAGE);
    fword = w;
    return 0;
}

/* Unloading: every frame writable again, the handler Hercules had. */
static void code_stop(void)
{
    if (!fword)
        return;
    pthread_mutex_lock(&pglock);
    for (size_t f = 0; f < nframes; f++)
        if (fword[f] && !(fword[f] & 1)) {
            mprotect(sysblk.mainstor + f * FSTMOD_PAGE, FSTMOD_PAGE, PROT_READ | PROT_WRITE);
            fword[f] |= 1;
        }
    epoch_bump();
    pthread_mutex_unlock(&pglock);
    sigaction(SIGSEGV, &old_segv, NULL);
}

/* ---- console lines (fstmod_wire.h CONS) and one job's window ----
**
** The system's console (a 3215 or 1052 printer-keyboard, as TK4- and MVS/CE have at 009)
** writes its lines through Hercules' log routine, on the thread that ran the console I/O:
** the preloaded interposer (fstirq.c) gives each piece to cons_text() here, and nothing
** else of Hercules' log. Pieces become lines (a write without carrier return goes on with
** the next), numbered (cons_seq), kept in a ring of CONS_RING; each CPU writes each line
** of its session once, as a CONS op, at the point its records have reached: its next
** record (skip_op, and the copy of a loop, whose fast path ends when a line comes). So a
** line is in every CPU's records in order with its instructions, at most up to that CPU's
** next op late: the record the CPU was about to make when the line came.
**
** One job (a reader's request, FSTMOD_REQ_SUFFIX): the session opens with HELLO and then
** records nothing, the wrappers out of Hercules' way, until a line says the job started
** ($HASP373 NAME STARTED, fstmod_job.h): that line's thread begins the session's records
** (fst_gen, each CPU's SYNC at its next op, then the line as CONS) and puts the wrappers in
** at once. The line that says the job ended is written like any other; the CPU that writes
** it flushes its records at once (the reader ends there), and the attach thread ends the
** session JOB_LINGER_NS later if the reader has not (job_watch). Lines a CPU missed (more
** than CONS_RING since its last op: a CPU in a long wait) are skipped; their numbers say so.
** Locks: conslock for the ring, the line being made and the job's state, outlock for the
** session; conslock may be taken with outlock held, never the other way round.
*/
#define CONS_RING 64u
#define JOB_LINGER_NS 2000000000ull
enum { JOB_NONE, JOB_ARMED, JOB_ON };

typedef struct consline {
    unsigned seq, n;
    char text[FSTMOD_CONS_MAX];
} consline;

static consline cring[CONS_RING];
static pthread_mutex_t conslock = PTHREAD_MUTEX_INITIALIZER;
static char cpart[FSTMOD_CONS_MAX];     /* the line being written (no newline yet) */
static unsigned ncpart;
static char job_name[9];                /* the session's job (JOB_ARMED, JOB_ON) */
static volatile int job_state;
static unsigned job_start_seq;          /* the line that said it started (JOB_ARMED: 0 until then) */
static volatile unsigned job_end_seq;   /* the line that said it ended, 0 until then */
static uint64_t job_end_ns;
static void live_sync(void);

/* conslock held: the line cpart ends; its number, and what it says of the job. */
static void cons_line_done(void)
{
    unsigned seq = cons_seq + 1;
    consline *l = &cring[seq % CONS_RING];
    l->seq = seq;
    l->n = ncpart;
    memcpy(l->text, cpart, ncpart);
    ncpart = 0;
    __atomic_store_n(&cons_seq, seq, __ATOMIC_RELEASE); /* the line is in the ring first */
    size_t jl = strlen(job_name);
    if (job_state == JOB_ARMED && !job_start_seq && fstmod_job_says(l->text, l->n, job_name, jl, FSTMOD_JOB_START))
        job_start_seq = seq;
    else if (job_state == JOB_ON && !job_end_seq && fstmod_job_says(l->text, l->n, job_name, jl, FSTMOD_JOB_END)) {
        job_end_ns = now_ns();
        job_end_seq = seq;
    }
}

/* The armed session's job started at line seq: its records begin (outlock taken here). */
static void job_begin(unsigned seq)
{
    pthread_mutex_lock(&outlock);
    int began = job_state == JOB_ARMED && outfd >= 0;
    unsigned g = 0;
    if (began) {
        g = ++att_sessions ? att_sessions : ++att_sessions;
        cons_from = seq - 1;    /* the start line is each CPU's first CONS */
        pthread_mutex_lock(&conslock);
        job_state = JOB_ON;
        pthread_mutex_unlock(&conslock);
        fst_gen = g;
    }
    pthread_mutex_unlock(&outlock);
    if (!began)
        return;
    live_sync();
    logmsg("HHCFS007I fst module: job %s started: recording it (session %u)\n", job_name, g);
}

/* A piece of what the console wrote (the interposer's hook: any thread). */
static void cons_text(const char *s, size_t n)
{
    unsigned start = 0;
    pthread_mutex_lock(&conslock);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            cons_line_done();
        else if (s[i] != '\r' && ncpart < FSTMOD_CONS_MAX)
            cpart[ncpart++] = s[i];
    }
    if (job_state == JOB_ARMED && job_start_seq) {
        start = job_start_seq;
        job_start_seq = 0;
    }
    pthread_mutex_unlock(&conslock);
    if (start)
        job_begin(start);
}

/* The console lines this CPU has not written, as CONS ops before the instruction at `at`
** (its instructions up to there have run: their code pages first). The CPU's own thread. */
static void cons_out(REGS *regs, uint64_t at)
{
    cpubuf *c = buf_of(regs);
    unsigned upto = __atomic_load_n(&cons_seq, __ATOMIC_ACQUIRE), end = job_end_seq;
    int flush = 0;
    code_check(c, regs, dat_on(regs), c->last, at);
    for (unsigned seq = c->cons_seen + 1; (int)(upto - seq) >= 0; seq++) {
        if ((int)(upto - seq) >= (int)CONS_RING)
            continue; /* out of the ring: skipped (the numbers say so) */
        char text[FSTMOD_CONS_MAX];
        pthread_mutex_lock(&conslock);
        const consline *l = &cring[seq % CONS_RING];
        unsigned n = l->seq == seq ? l->n : 0;
        memcpy(text, l->text, n);
        pthread_mutex_unlock(&conslock);
        room(c, regs, n + 32);
        c->b[c->n++] = FSTMOD_OP_CONS;
        put_sv(c, (int64_t)(at - c->last));
        put_v(c, seq);
        put_v(c, n);
        memcpy(c->b + c->n, text, n);
        c->n += n;
        c->last = at;
        flush |= seq == end;
    }
    c->cons_seen = upto;
    if (flush) /* the job's end: the reader ends its window there, now */
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* A reader's request beside the FIFO (FSTMOD_REQ_SUFFIX): the job it asks for into
** job_name (upper case), 1; else 0 (none: record from now on). Only a regular file of the
** user Hercules runs as. */
static int read_request(const char *fifo)
{
    char path[4096 + 8], line[64] = "", name[16] = "";
    snprintf(path, sizeof path, "%s%s", fifo, FSTMOD_REQ_SUFFIX);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat sb;
    ssize_t k = -1;
    if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_uid == geteuid())
        k = read(fd, line, sizeof line - 1);
    close(fd);
    if (k <= 0)
        return 0;
    line[k] = 0;
    return sscanf(line, "job %15s", name) == 1 && fstmod_job_name(name, job_name);
}

/* The attach thread's look at a session, every FSTMOD_ATTACH_MS: a reader that went away
** while waiting for its job (nothing was written, so no EPIPE told), a job that ended
** JOB_LINGER_NS ago whose reader stays. 1 when there is no session (look for a reader). */
static int job_watch(void)
{
    pthread_mutex_lock(&outlock);
    if (outfd >= 0 && job_state == JOB_ARMED) {
        struct pollfd pf = { outfd, 0, 0 };
        if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLERR | POLLHUP)))
            detach_locked("went away before the job started");
    } else if (outfd >= 0 && job_state == JOB_ON && job_end_seq && now_ns() - job_end_ns > JOB_LINGER_NS) {
        detach_locked("stayed after the job ended");
    }
    int none = outfd < 0;
    pthread_mutex_unlock(&outlock);
    return none;
}

/* ---- attach and detach: a reader that comes and goes (a running system) ----
**
** Hercules runs for hours with the module loaded; fst-capture --via=module --attach=FIFO
** reads it now and then (capture/modread/modattach.h). The FIFO ($FST_MODULE_OUT) is
** opened O_WRONLY|O_NONBLOCK: with no reader that fails (ENXIO), and a thread of the
** module's (att_loop) tries again when inotify says the FIFO was opened or made (at once),
** and every FSTMOD_ATTACH_MS; a missing FIFO is waited for the same way. A reader found starts a session (fst_gen, 1 and up): HELLO again, then each
** CPU's first record of the session is SYNC (fstmod_wire.h), written by that CPU itself
** (sync_cpu: its state is its own, no lock), with its state the reader does not have
** cleared: the REP history, `last`, the registers sent, the space said, the fast path's
** memo, a page left to send, its code slots (each CPU has its own). SYNC's PSW is the
** instruction the op that made the CPU write it is about (the branch, SVC, LCTL, LM/STM,
** SIGP, the instruction a program interruption checked; an I/O or external interruption's
** old PSW), and the op follows it: the trace's first instruction is that one (a window
** that begins at a BALR counts its call). An op that changed the PSW (LPSW, SSM, STNSM,
** STOSM, SPKA) is not written: SYNC has the PSW it left (cur_psw()), so that the state of
** every instruction shown is right. A failed write (EPIPE: the reader went away) or a
** reader that takes nothing for FSTMOD_STALL_MS ends the session (detach_locked): fst_gen
** 0, every record path's first test (skip_op) says skip, and within FSTMOD_ATTACH_MS the
** thread takes the wrappers out of the opcode tables and the interposer's hook away
** (live(0)): a module nobody reads runs Hercules' own routines, nothing of the module's
** per instruction. They go back in when the next reader comes (live(1)). Records a CPU
** made for an ended session are never written (chunk compares the session); a loop's copy
** (REP) that goes on across a session's end is dropped with them, and the fast path of the
** branch wrapper is as it was (the session is looked at on the slow paths, and every
** REP_MAXN copies). SIGPIPE is ignored by Hercules itself (3.13 impl.c, 4.x the same); the
** module makes sure (attach_start).
*/
#define FSTMOD_ATTACH_MS 200

static uint64_t psw_addr(const uint8_t *psw, unsigned len);

static void irq_record(REGS *regs, int cls);
static void (**irq_ptr)(REGS *, int);  /* fstirq.c's hook (preloaded), or NULL */
static int att_live;            /* the wrappers are in the opcode tables now */

/* The wrappers in the opcode tables while a session records (fst_gen), else Hercules' own
** routines (no reader, or one waiting for its job: a module nobody reads costs nothing per
** instruction), and the interposer's hook the same. Decided under livelock from the session
** as it is then: the attach thread and the thread that logs a job's first line both call
** it, and the later call always sees the later session. */
static pthread_mutex_t livelock = PTHREAD_MUTEX_INITIALIZER;
static void live_sync(void)
{
    pthread_mutex_lock(&livelock);
    int on = fst_gen != 0;
    if (patched && att_live != on) {
        fst_patch_live(on);
        if (irq_ptr)
            *irq_ptr = on ? irq_record : NULL;
        att_live = on;
    }
    pthread_mutex_unlock(&livelock);
}

static char *att_path;          /* $FST_MODULE_OUT */
static char att_text[300];      /* what HELLO (or REFUSE) says to each reader */
static int att_refuse;
static pthread_t att_tid;
static int att_thread;
static volatile int att_stop;

/* The PSW now in force with address `at` (the instruction an op is about), without
** touching the CPU (copy_psw works on a copy of its REGS: cur_psw's update of the PSW's
** address must not happen before an SVC runs or inside a program interruption). */
static unsigned psw_at(REGS *regs, uint64_t at, uint8_t *psw)
{
    copy_psw(regs, psw);
    if (regs->arch_mode == FST_A900) {
        for (unsigned i = 0; i < 8; i++)
            psw[8 + i] = (uint8_t)(at >> (56 - 8 * i));
        return 16;
    }
    if (psw[1] & 0x08) /* EC mode (and ESA/390): 31 bits, the addressing-mode bit kept */
        psw[4] = (uint8_t)((psw[4] & 0x80) | ((at >> 24) & 0x7F));
    psw[5] = (uint8_t)(at >> 16);
    psw[6] = (uint8_t)(at >> 8);
    psw[7] = (uint8_t)at;
    return 8;
}

/* This CPU's first record of session g: its state starts again, and SYNC says where. The
** op it is about follows, at `at`, with this PSW's state (psw: the interrupted PSW of an
** interruption; NULL: the CPU's PSW, its address `at`); or, `left` (an op that changed the
** PSW: LPSW, SSM, ...), the op is not written and SYNC has the PSW it left. */
static void __attribute__((noinline)) sync_cpu(REGS *regs, unsigned g, uint64_t at, const uint8_t *given,
                                               unsigned glen, int left)
{
    uint8_t psw[16];
    unsigned len = given ? glen : left ? cur_psw(regs, psw) : psw_at(regs, at, psw);
    if (given)
        memcpy(psw, given, glen);
    cpubuf *c = room_of(regs);  /* a buffer of an earlier session is dropped below */
    c->gen = g;
    c->n = 0;
    c->rep_p = c->rep_n = c->rep_lazy = 0;
    c->nbr = 0;
    c->ph = PH_LOOKT;
    c->ph_n0 = c->ph_long = 0;
    c->ph_left = ph_look;
    c->ph_t0 = 0;   /* the first trial's time: from its first branch */
    memset(c->bat, 0xFF, sizeof c->bat);
    memset(c->bto, 0xFF, sizeof c->bto);
    memset(c->rix, 0, sizeof c->rix);
    memset(c->ck, 0, sizeof c->ck);
    c->late = NULL;
    c->since = now_ns();
    for (unsigned i = 0; c->slots && i < FSTMOD_CODE_SLOTS; i++) /* the reader has none of its pages */
        c->slots[i].used = 0;
    /* the space the instructions from that PSW on run in: its DAT bit (EC mode) and CR1 */
    uint64_t sp = space_of(regs, len && (psw[1] & 0x08) && (psw[0] & PSW_DATMODE));
    c->said_space = sp;
    c->b[c->n++] = FSTMOD_OP_SYNC;
    put_psw(c, psw, len);
    put_v(c, sp);
    for (int r = 0; r < 16; r++) {
        c->gr[r] = regs->GR_L(r);
        put_v(c, c->gr[r]);
    }
    c->gr_sent = 1;
    c->last = psw_addr(psw, len);
    if ((int)(c->cons_seen - cons_from) < 0) /* the session's lines only */
        c->cons_seen = cons_from;
    if (left && wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* Every record path's first test, with the address of the instruction its op is about: 1
** when nothing is to be recorded (no reader; or `left`, an op that changed the PSW, which
** this CPU's SYNC stands for); 0: record the op (after this CPU's SYNC, when the session
** is new to it). */
static inline int skip_op(REGS *regs, uint64_t at, const uint8_t *psw, unsigned len, int left)
{
    unsigned g = fst_gen;
    if (unlikely(!g))
        return 1;
    const cpubuf *c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (likely(c != NULL ? c->gen == g : g == load_gen)) {
        if (unlikely(c != NULL && c->cons_seen != cons_seq))
            cons_out(regs, at);
        return 0;
    }
    sync_cpu(regs, g, at, psw, len, left);
    c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (c->cons_seen != cons_seq)
        cons_out(regs, left ? c->last : at);
    return left;
}

/* outlock held: the session ends (the reader went away, or stalled). */
static void detach_locked(const char *why)
{
    if (outfd >= 0)
        close(outfd);
    outfd = -1;
    fst_gen = 0;
    pthread_mutex_lock(&conslock);
    job_state = JOB_NONE;
    pthread_mutex_unlock(&conslock);
    logmsg("HHCFS006I fst module: the reader of %s %s: recording stops until the next one\n",
           att_path ? att_path : "the FIFO", why ? why : "went away");
}

/* Whether a CPU has run an instruction since its last reset (IPL clears the counts): a
** reader that comes before it sees the run from its start (HELLO's " ran=0"). */
static int cpus_ran(void)
{
    int ran = 0;
    for (int i = 0; i < FST_MAXCPU; i++)
        ran |= sysblk.regs[i] != NULL && (sysblk.regs[i]->instcount || sysblk.regs[i]->prevcount);
    return ran;
}

/* A reader on the FIFO? Then a session begins: HELLO (or REFUSE) first, saying whether the
** CPUs ran before it (" ran=1": the window begins in the middle of a run; " ran=0": a
** window attached before the IPL, the run from its start). 0: none yet (or a session
** began); -1: the path is not a FIFO (nothing will be recorded). */
static int try_attach(void)
{
    static int told; /* refusing: this reader was told why (it has the FIFO open still) */
    int fd = open(att_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        told = 0;
        return 0; /* ENXIO: no reader yet; ENOENT: no FIFO yet (fst-capture --attach makes it) */
    }
    if (att_refuse && told) {
        close(fd);
        return 0;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISFIFO(sb.st_mode)) {
        close(fd);
        logmsg("HHCFS002E fst module: %s is not a FIFO: nothing recorded (mkfifo it, or let fst-capture "
               "--via=module --attach=%s make it)\n", att_path, att_path);
        return -1;
    }
#ifdef F_SETPIPE_SZ
    fcntl(fd, F_SETPIPE_SZ, 1 << 20); /* room for 16 buffers: fewer waits of a CPU on the reader (best effort) */
#endif
    /* a reader that asks for one job: HELLO says so, and the session waits for the job */
    int armed = !att_refuse && read_request(att_path);
    char text[sizeof att_text + 32];
    snprintf(text, sizeof text, "%s%s%s%s", att_text, armed ? " job=" : "", armed ? job_name : "",
             att_refuse ? "" : cpus_ran() ? " ran=1" : " ran=0");  /* REFUSE's text: the reason alone */
    size_t n = strlen(text);
    uint8_t b[FSTMOD_CHUNK_HDR + sizeof text] = { FSTMOD_CHUNK, FSTMOD_CPU_MODULE, 0, 0, (uint8_t)(n + 1) };
    b[FSTMOD_CHUNK_HDR] = att_refuse ? FSTMOD_OP_REFUSE : FSTMOD_OP_HELLO;
    memcpy(b + FSTMOD_CHUNK_HDR + 1, text, n);
    pthread_mutex_lock(&outlock);
    outfd = fd;
    unsigned g = ++att_sessions ? att_sessions : ++att_sessions;
    fst_gen = g; /* (write_all's detach needs a session) */
    write_all(b, FSTMOD_CHUNK_HDR + 1 + n);
    if (att_refuse) { /* said why; nothing follows (the reader sees the end) */
        close(outfd);
        outfd = -1;
        fst_gen = 0;
        told = 1;
    }
    if (armed && outfd >= 0) { /* nothing recorded until the job starts (cons_text) */
        pthread_mutex_lock(&conslock);
        job_start_seq = job_end_seq = 0;
        job_state = JOB_ARMED;
        pthread_mutex_unlock(&conslock);
        fst_gen = 0;
    } else if (fst_gen) {
        cons_from = cons_seq; /* the lines from now on */
    }
    int on = fst_gen != 0;
    pthread_mutex_unlock(&outlock);
    live_sync();
    if (on)
        logmsg("HHCFS005I fst module: a reader opened %s: recording (session %u)\n", att_path, g);
    else if (armed && job_state == JOB_ARMED)
        logmsg("HHCFS005I fst module: a reader opened %s: waiting for job %s to start\n", att_path, job_name);
    return 0;
}

/* A pipe attach_stop writes to: the thread, waiting in att_wait, ends at once (Hercules'
** shutdown waited up to FSTMOD_ATTACH_MS for it: 0.2 s, a third of a half-second run). */
static int att_wake[2] = { -1, -1 };

/* Wait until something may have changed for the FIFO (a reader opening it, the FIFO or
** the request made), at most FSTMOD_ATTACH_MS: inotify on the FIFO's folder and on the FIFO,
** so that a reader is found microseconds after it opens the FIFO (a job that starts right
** after fst-capture attaches is not missed); without inotify, the sleep alone. */
static void att_wait(int *ino, int *wfifo)
{
    if (*ino < 0) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", att_path);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            dir[1] = 0;
        else if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        if ((*ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) >= 0 &&
            inotify_add_watch(*ino, dir, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
            close(*ino);
            *ino = -2; /* not again */
        }
    }
    if (*ino >= 0 && *wfifo < 0)
        *wfifo = inotify_add_watch(*ino, att_path, IN_OPEN | IN_DELETE_SELF);
    struct pollfd pf[2] = { { att_wake[0], POLLIN, 0 }, { *ino, POLLIN, 0 } };
    if (att_wake[0] < 0 && *ino < 0) {
        struct timespec ts = { 0, FSTMOD_ATTACH_MS * 1000000L };
        nanosleep(&ts, NULL);
        return;
    }
    if (poll(pf, *ino >= 0 ? 2 : 1, FSTMOD_ATTACH_MS) > 0 && (pf[1].revents & POLLIN)) {
        char ev[4096] __attribute__((aligned(8)));
        ssize_t n;
        while ((n = read(*ino, ev, sizeof ev)) > 0)
            for (char *q = ev; q < ev + n; q += sizeof(struct inotify_event) + ((struct inotify_event *)q)->len)
                if (((struct inotify_event *)q)->mask & (IN_DELETE_SELF | IN_IGNORED))
                    *wfifo = -1; /* the FIFO went: watch the next one */
    }
}

static void *att_loop(void *arg)
{
    (void)arg;
    int ino = -1, wfifo = -1;
    while (!att_stop) {
        live_sync(); /* the reader went away: out of the tables until the next one */
        if (job_watch() && try_attach() < 0)
            break;
        att_wait(&ino, &wfifo);
    }
    if (ino >= 0)
        close(ino);
    return NULL;
}

/* At load: SIGPIPE ignored, a reader there now gets the session that sees the CPUs start
** (load_gen: no SYNC), else the thread waits for one. text: HELLO's (refuse: REFUSE's). */
static void attach_start(const char *path, const char *text, int refuse)
{
    struct sigaction sa;
    if (!sigaction(SIGPIPE, NULL, &sa) && sa.sa_handler == SIG_DFL && !(sa.sa_flags & SA_SIGINFO))
        signal(SIGPIPE, SIG_IGN); /* a reader gone must end a write with EPIPE, not Hercules */
    att_path = strdup(path);
    snprintf(att_text, sizeof att_text, "%s", text);
    att_refuse = refuse;
    if (!att_path || try_attach() < 0)
        return;
    /* a late load (ldmod at the console): the CPUs ran before it (4.x has them configured
    ** when LDMOD is read, 3.13 not yet) */
    if (fst_gen && !cpus_ran() && getenv(FSTMOD_ENV_FROM_IPL))
        load_gen = fst_gen; /* fst-capture running a program: the stream from IPL, no SYNC */
    live_sync();
    if (!fst_gen && !job_state)
        logmsg("HHCFS005I fst module: no reader on %s yet: it records while one is attached "
               "(fst-capture --via=module --attach=%s)\n", path, path);
    if (att_wake[0] < 0 && pipe2(att_wake, O_NONBLOCK | O_CLOEXEC) < 0)
        att_wake[0] = att_wake[1] = -1; /* then the thread ends at its next look */
    att_thread = !pthread_create(&att_tid, NULL, att_loop, NULL);
}

static void attach_stop(void)
{
    att_stop = 1;
    if (att_wake[1] >= 0 && write(att_wake[1], "", 1) < 0) {
        /* full or gone: the thread still sees att_stop within FSTMOD_ATTACH_MS */
    }
    if (att_thread)
        pthread_join(att_tid, NULL);
    att_thread = 0;
    for (int i = 0; i < 2; i++)
        if (att_wake[i] >= 0) {
            close(att_wake[i]);
            att_wake[i] = -1;
        }
}

/* ---- the wrappers ---- */

static inline void push(cpubuf *c, uint64_t at, uint64_t to)
{
    unsigned j = c->nbr % FSTMOD_REP_MAXP;
    c->bat[j] = at;
    c->bto[j] = to;
    c->rix[rix_of(at, to)] = ++c->nbr;
    c->last = to;
}

/* A phase's time: the CPU time of the thread that runs the CPU, not the wall clock, so that
** a phase spanning a wait (the guest idle, the thread preempted) is not taken as slow. */
static uint64_t phase_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The next phase (PH_LOOK above), from now: raw or looking, n branches long. */
static void phase(cpubuf *c, int ph, unsigned n, uint64_t now)
{
    if ((c->ph & 1) && !(ph & 1))
        memset(c->bat, 0xFF, sizeof c->bat);   /* the raw branches were not pushed */
    c->ph = ph;
    c->ph_n0 = c->nbr;
    c->ph_left = n;
    c->ph_long = 0;
    c->ph_t0 = now;
}

/* A looking phase ends (its length counted, at a branch not on a copy). 1: raw from now. */
static int look_end(cpubuf *c)
{
    uint64_t now = phase_ns(), n = c->nbr - c->ph_n0;
    if (c->ph == PH_LOOKT && c->ph_long * 2ull < n) {
        c->look_ns = now - c->ph_t0;
        c->look_n = n;
        phase(c, PH_RAWT, ph_look, now);
    } else if (c->ph == PH_LOOKT)
        phase(c, PH_LOOKR, 16 * ph_look, now);
    else
        phase(c, PH_LOOKT, ph_look, now);
    return c->ph & 1;
}

/* A raw phase ends: after its trial, the faster for the run; after the run, trials again. */
static void raw_end(cpubuf *c)
{
    uint64_t now = phase_ns();
    if (c->ph == PH_RAWT) {
        int raw = (now - c->ph_t0) * c->look_n <= c->look_ns * ph_look;
        phase(c, raw ? PH_RAWR : PH_LOOKR, 16 * ph_look, now);
    } else
        phase(c, PH_LOOKT, ph_look, now);
}

/* A taken branch's own record (fstmod_wire.h BR); `last` is the caller's to move. */
static inline void br_record(cpubuf *c, uint64_t at, uint64_t to)
{
    c->b[c->n++] = FSTMOD_OP_BR;
    put_sv(c, (int64_t)(at - c->last));
    put_sv(c, (int64_t)(to - at));
}

/* A branch of a raw phase: its record, counted (nbr), not pushed. */
static void taken_raw(cpubuf *c, uint64_t at, uint64_t to)
{
    br_record(c, at, to);
    c->last = to;
    c->nbr++;
    c->nraw++;
    if (--c->ph_left == 0)
        raw_end(c);
}

/* skip_op and room_of for a taken branch's record, with the CPU's buffer c that taken found
** (or NULL): NULL when nothing is recorded. Their common case (this session's buffer, no
** console line waiting, room) is tested here inline, without their look-ups of c again. */
static inline cpubuf *branch_buf(REGS *regs, cpubuf *c, uint64_t at)
{
    unsigned g = fst_gen;
    if (unlikely(c == NULL || !g || c->gen != g || c->cons_seen != cons_seq))
        return skip_op(regs, at, NULL, 0, 0) ? NULL : room_of(regs);
    room_check(c, regs);
    return c;
}

/* A taken branch of a raw phase (no copy is being made): apart from taken_new, so that this
** path saves no more registers than it needs (inside taken_new, cgen's capture under 4.9
** took 5 % longer). */
static void __attribute__((noinline)) taken_out(REGS *regs, cpubuf *c, uint64_t at, uint64_t to, uint64_t fall)
{
    if (unlikely(!(c = branch_buf(regs, c, at))))
        return;
    code_check(c, regs, dat_on(regs), c->last, fall);
    taken_raw(c, at, to);
}

/* A taken branch that does not go on the copy being made: the copy's REP record, then a
** new copy when the branch repeats one of the last (the nearest), else its own record. */
static void __attribute__((noinline)) taken_new(REGS *regs, cpubuf *c, uint64_t at, uint64_t to, uint64_t fall)
{
    if (unlikely(!(c = branch_buf(regs, c, at))))
        return;
    rep_out(c);
    copy_end(c);
    code_check(c, regs, dat_on(regs), c->last, fall);
    if (unlikely(!c->ph_t0))
        c->ph_t0 = phase_ns();
    if (c->nbr - c->ph_n0 >= c->ph_left && look_end(c)) {
        taken_raw(c, at, to);
        return;
    }
    unsigned was = c->rix[rix_of(at, to)], p = c->nbr + 1 - was;
    if (was && p <= FSTMOD_REP_MAXP) {  /* was <= nbr: p >= 1 */
        unsigned j = (c->nbr - p) % FSTMOD_REP_MAXP;
        if (c->bat[j] == at && c->bto[j] == to) {
            c->rep_p = p;
            c->rep_n = 1;
            push(c, at, to);
            c->rep_n0 = c->nbr;
            c->rep_e = c->nbr - p;
            return;
        }
    }
    br_record(c, at, to);
    push(c, at, to);
}

/* code_same for a copy's run, from s to e: its space is the one the copy began in (a new
** space comes with a record, which ends the copy, and makes code_slow forget the pages
** remembered), so the space is not compared. 1: the same; 0: not found right this way (the
** copy ends; code_check decides); -1: its bytes need a memcmp, or it lies over two pages
** (copy_slow: no call here, see copy_full); *cmp is then the page's entry whose bytes
** copy_slow compares, or NULL for a run over two pages. */
static inline int copy_code_same(const cpubuf *c, uint64_t s, uint64_t e, const ckent **cmp)
{
    if (!fword || e <= s)
        return 1;
    uint64_t pg = s / FSTMOD_PAGE;
    const ckent *k = &c->ck[pg % CK_PAGES];
    *cmp = NULL;
    if ((e - 1) / FSTMOD_PAGE != pg)
        return -1;  /* over two pages (code_run) */
    if (pg != k->page && !(k = ck_second(c, pg)))
        return 0;
    if (ck_unwritten(k))
        return 1;
    if (k->cmp != epoch_now())
        return 0;
    unsigned off = (unsigned)(s % FSTMOD_PAGE);
    size_t n = (size_t)(e - s);
    if (n < 8 || n > 16) {
        *cmp = k;   /* in one page, found right before: its bytes by memcmp */
        return -1;
    }
    return same_bytes(k->copy + off, k->main + off, n);
}

/* A copy as long as one REP record counts: the record goes out, the copy goes on. Apart
** from taken, so that a copy's branch calls nothing but in its last step (the wrappers
** then keep less across Hercules' routine). */
static void __attribute__((noinline)) copy_full(REGS *regs)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    if (unlikely(c->gen != fst_gen))    /* a copy of an ended session's (its records are */
        copy_end(c);                    /* dropped): the next branch begins the new one */
}

/* One more branch on the copy (fstmod_wire.h REP). */
static inline __attribute__((always_inline)) void copy_step(cpubuf *c, REGS *regs, uint64_t to)
{
    c->rep_lazy++;  /* pushed when the copy ends (copy_end) */
    c->last = to;
    if (++c->rep_e == c->rep_n0)
        c->rep_e -= c->rep_p;
    if (unlikely(++c->rep_n == REP_MAXN))
        copy_full(regs);
}

/* The copy's branch whose run is shorter than 8 bytes or longer than 16, in a page the
** module could not protect (its bytes compared with memcmp), or over two pages. */
static void __attribute__((noinline)) copy_slow(cpubuf *c, REGS *regs, const ckent *k, uint64_t at, uint64_t to,
                                                uint64_t fall)
{
    unsigned off = (unsigned)(c->last % FSTMOD_PAGE);
    if (k ? !memcmp(k->copy + off, k->main + off, (size_t)(fall - c->last)) : code_run(c, c->said_space, c->last, fall))
        copy_step(c, regs, to);
    else
        taken_new(regs, c, at, to, fall);
}

/* A taken branch: one more copy (fstmod_wire.h REP) while it is the branch p back, which in
** a loop it is, and the code its run executed has not changed (code_same: a page changed
** under a loop ends the copy, and code_check sends it before the branch's record); else
** taken_new. */
static inline __attribute__((always_inline)) void taken(REGS *regs, uint64_t at, uint64_t to, uint64_t fall)
{
    cpubuf *c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (likely(c != NULL) && c->rep_p && likely(c->cons_seen == cons_seq)) {
        unsigned j = c->rep_e % FSTMOD_REP_MAXP;
        if (likely(c->bat[j] == at && c->bto[j] == to)) {
            const ckent *k;
            int same = copy_code_same(c, c->last, fall, &k);
            if (likely(same > 0)) {
                copy_step(c, regs, to);
                return;
            }
            if (same < 0) {
                copy_slow(c, regs, k, at, to, fall);
                return;
            }
        }
    } else if (likely(c != NULL) && (c->ph & 1)) {
        taken_out(regs, c, at, to, fall);
        return;
    }
    taken_new(regs, c, at, to, fall);
}

/* A branching instruction: its routine, then a record when it branched. Hercules' branch
** routines leave aip and AIV alone: a branch that fell through advanced ip by its length
** and left aie set (the fast way out, fell); one taken either moved ip in the page or, to
** another page or under EX, set the PSW's address and cleared aie (branched). */
static inline __attribute__((always_inline)) int fell(const REGS *regs, const BYTE *ip0, unsigned ilc)
{
    return regs->ip == ip0 + ilc && regs->aie != NULL;
}

static inline __attribute__((always_inline)) void branched(REGS *regs, BYTE *ip0, unsigned ilc, uint64_t am)
{
    uint64_t ia0 = (regs->AIV_G + (uint64_t)((uintptr_t)ip0 - (uintptr_t)regs->aip)) & am;
    uint64_t fall = (ia0 + ilc) & am;
    uint64_t at = regs->execflag ? (fall - (regs->exrl ? 6 : 4)) & am : ia0; /* under EX: the EX */
    uint64_t to = regs->aie ? ip_ia(regs) : regs->psw.IA_G & am;
    if (to != fall)
        taken(regs, at, to, fall);
}

static void __attribute__((noinline)) branched_out(REGS *regs, BYTE *ip0, unsigned ilc, uint64_t am)
{
    branched(regs, ip0, ilc, am);
}

/* Two kinds of wrapper. A loop's branch (BCT, BXLE, BRCT, ...), taken at nearly every
** turn, records inline: in a tight loop the copy goes on there (fstmod_wire.h REP). Any
** other branch (BC, BCR, BRC, BALR, BASR, BRAS, ...: conditional, or a call or return that
** rarely goes on a copy) calls branched_out when taken, so that what its wrapper keeps
** across Hercules' routine, at every branch taken or not, is the least: Hercules with the
** module alone, 3.13, against both inline: recursion -O2 -8 %, branchy -O2 -4 %, cgen
** -5 %. A loop's branch done this way costs a second call a turn (shares.s's BCT loop
** +6.5 %), what a tight loop closed by a BC or BRC pays. Both read the address mask
** before Hercules' routine (S/370's BSM and BASSM may change it). */
/* (The length, len, is read before Hercules' routine: read after it, the split wrappers
** keep inst instead and took 4-10 % longer on cgen and recursion. A wrapper of one kind of
** opcode knows it.) */
#define W_WRAP(name, orig, then, len) \
    static void ATTR_REGPARM(2) name(BYTE inst[], REGS *regs) \
    { \
        BYTE *ip0 = regs->ip; \
        uint64_t am = amask(regs); \
        unsigned ilc = (len); \
        orig(inst, regs)(inst, regs); \
        if (likely(fell(regs, ip0, ilc))) \
            return; \
        then(regs, ip0, ilc, am); \
    }
/* one byte's opcode (BC, BCR, BCT, BAL, BAS, BXH, ...), or with a second part (BRC, BRAS,
** BRCT, BRCL, BRASL, BCTG, BXHG, compare and branch, ...: its routine in that part's table) */
W_WRAP(w_loop2, FST_ORIG1, branched, 2)           /* BCTR */
W_WRAP(w_loop4, FST_ORIG1, branched, 4)           /* BCT, BXH, BXLE, BRXH, BRXLE */
W_WRAP(w_loopx, FST_ORIGX, branched, ilc_of(inst[0]))
W_WRAP(w_branch2, FST_ORIG1, branched_out, 2)     /* BALR, BCR, BASR, BSM, BASSM */
W_WRAP(w_branch4, FST_ORIG1, branched_out, 4)     /* BAL, BC, BAS */
W_WRAP(w_branchx, FST_ORIGX, branched_out, ilc_of(inst[0]))
/* the same for A7x (BRC, BRAS, BRCT, BRCTG) and C0x (BRCL, BRASL): their routine found
** without FST_ORIGX's switches (fstmod_herc.h FST_ORIG_NIB) */
#define FST_ORIGA7(inst, regs) FST_ORIG_NIB(FST_KA7, inst, regs)
#define FST_ORIGC0(inst, regs) FST_ORIG_NIB(FST_KC0, inst, regs)
W_WRAP(w_loopa7, FST_ORIGA7, branched, 4)
W_WRAP(w_brancha7, FST_ORIGA7, branched_out, 4)
W_WRAP(w_branchc0, FST_ORIGC0, branched_out, 6)

/* The address a PSW says (8 bytes: BC mode 24 bits, EC mode and ESA/390 31; 16 bytes: 64). */
static uint64_t psw_addr(const uint8_t *psw, unsigned len)
{
    if (len == 16) {
        uint64_t a = 0;
        for (unsigned i = 8; i < 16; i++)
            a = a << 8 | psw[i];
        return a;
    }
    if (len != 8)
        return 0;
    uint64_t a = (uint64_t)(psw[4] & 0x7F) << 24 | (uint64_t)psw[5] << 16 | (uint64_t)psw[6] << 8 | psw[7];
    return psw[1] & 0x08 ? a : a & 0xFFFFFF;
}

/* An SVC's record: it ran at `at`, and the CPU went on with psw. */
static void svc_record(REGS *regs, uint64_t at, uint64_t fall, int dat, unsigned code, const uint8_t *psw,
                       unsigned len)
{
    cpubuf *c = buf_of(regs);
    code_check(c, regs, dat, c->last, fall);
    c->b[c->n++] = FSTMOD_OP_SVC;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, code);
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    put_regs(c, regs);
    if (wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* SVC: recorded before its routine (which ends with a longjmp): the SVC new PSW is in
** the PSA. But in problem state with CR6's assist bit on (S/370 under VM/370's CP),
** Hercules' ECPS:VM may reflect the SVC into the virtual machine without an interruption
** (ecpsvm_dosvc: the machine's own SVC new PSW, and the routine returns): then it runs
** first, under the module's setjmp, and the record says the PSW it left either way. */
static void ATTR_REGPARM(2) w_svc(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    if (skip_op(regs, at, NULL, 0, 0)) {
        FST_ORIG1(inst, regs)(inst, regs);
        return;
    }
    uint8_t psw[16];
    unsigned len;
    int dat = dat_on(regs);
    if (!PROBSTATE(&regs->psw) || !(regs->CR_L(6) & 0x80000000u)) {
        len = psa_psw(regs, PSA_SVC_NEW, psw);
        svc_record(regs, at, fall, dat, inst[1], psw, len);
        FST_ORIG1(inst, regs)(inst, regs);
        return;
    }
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0)
        FST_ORIG1(inst, regs)(inst, regs);
    memcpy(regs->progjmp, saved, sizeof saved);
    len = cur_psw(regs, psw);   /* the SVC new PSW loaded, or the machine's own (assisted) */
    svc_record(regs, at, fall, dat, inst[1], psw, len);
    if (rc != 0)
        longjmp(regs->progjmp, rc);
}

static __thread int pgm_seen; /* a program interruption came while a wrapped routine ran */

/* After an instruction that loads or changes the PSW: the record, from the PSW now in
** force. `lpsw`: its operand address is recorded too (and the PSW bytes as loaded). */
static void psw_record(REGS *regs, uint8_t op, uint64_t at, int lpsw, uint64_t operand, int dat, uint64_t fall)
{
    if (skip_op(regs, at, NULL, 0, 1))
        return;
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
    code_check(c, regs, dat, c->last, fall);
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
    return ((b2 ? regs->GR_G(b2) : 0) + d2) & amask(regs);
}

/* An instruction run under the module's own setjmp (below): what its record needs. */
typedef struct done {
    uint8_t op, r1r3;
    int lpsw;           /* LPSW or LPSWE: the operand goes into the record */
    int dat;            /* DAT was on for the run up to it (code pages: its space) */
    unsigned cpad;      /* SIGP: the CPU it addresses (R3, read before it ran) */
    uint64_t at, fall, operand;
} done;

static void sigp_record(REGS *regs, const done *d);

/* LCTL: the control registers it loaded (r1 to r3, wrapping), from the CPU: CR1 is the
** address space a task runs in. */
static void cr_record(REGS *regs, const done *d)
{
    if (skip_op(regs, d->at, NULL, 0, 0))
        return;
    unsigned r1 = d->r1r3 >> 4, n = ((unsigned)(d->r1r3 & 15) - r1) & 15;
    cpubuf *c = buf_of(regs);
    code_check(c, regs, d->dat, c->last, d->fall);
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
    else if (d->op == 0xAE)
        sigp_record(regs, d);
    else
        psw_record(regs, d->op, d->at, d->lpsw, d->operand, d->dat, d->fall);
}

/* An instruction that may end with a longjmp to the CPU's instruction loop
** (RETURN_INTCHECK: LPSW, SSM, LCTL, a SIGP that stops its own CPU, ...): run under our own setjmp, record, then go on as
** Hercules would have. A program interruption inside it (recorded by the hook) means it
** loaded nothing: no record then. */
static void run_recorded(BYTE inst[], REGS *regs, const done *d)
{
    if (unlikely(!fst_gen)) { /* no reader: Hercules' routine alone */
        FST_ORIGX(inst, regs)(inst, regs);
        return;
    }
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    pgm_seen = 0;
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0) {
        FST_ORIGX(inst, regs)(inst, regs);
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

/* An instruction that loads or changes the PSW (LPSW, LPSWE: its operand recorded too). */
static void ATTR_REGPARM(2) w_pswop(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .dat = dat_on(regs), .lpsw = inst[0] == 0x82 || (inst[0] == 0xB2 && inst[1] == 0xB2) };
    d.at = at_of(regs, inst[0], &d.fall);
    if (d.lpsw)
        d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* LCTL: supervisor state only (a program check in problem state, recorded by the hook). */
static void ATTR_REGPARM(2) w_lctl(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .r1r3 = inst[1], .dat = dat_on(regs) };
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
    int dat = dat_on(regs);
    FST_ORIG1(inst, regs)(inst, regs);   /* a program interruption in it: no record (longjmp) */
    if (skip_op(regs, at, NULL, 0, 0))
        return;
    cpubuf *c = buf_of(regs);
    code_check(c, regs, dat, c->last, fall);
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
        FST_ORIG1(inst, regs)(inst, regs);
    else
        lmstm_record(inst, regs);
}

/* B2xx: only SPKA (B20A) changes the PSW of the B2 instructions S/370 programs use; the
** others go to Hercules' own routine as they are. */
static void ATTR_REGPARM(2) w_spka(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    int dat = dat_on(regs);
    FST_ORIGX(inst, regs)(inst, regs);
    psw_record(regs, inst[0], at, 0, 0, dat, fall);
}

/* PTLB, IPTE: a translation may change now (a page stolen, mapped elsewhere): what the
** fast path of code_check remembers ends. */
static void ATTR_REGPARM(2) w_ptlb(BYTE inst[], REGS *regs)
{
    FST_ORIGX(inst, regs)(inst, regs);
    epoch_bump();
}

/* SIGP: the order (its operand address's low byte), the CPU it addresses and the condition
** code it set, and for an accepted restart the target's restart new PSW (where it will
** start: the reader has no other way to know); then this CPU's records go out at once, so
** that the FIFO has them before the target's (the reader holds a CPU's records that come
** before its start). Run by run_recorded: a CPU that stops itself ends the SIGP with a
** longjmp. */
static void sigp_record(REGS *regs, const done *d)
{
    if (skip_op(regs, d->at, NULL, 0, 0))
        return;
    uint8_t psw[16];
    unsigned len = 0, cc = regs->psw.cc, order = (unsigned)(d->operand & 0xFF);
    if (order == 6 && cc == 0 && d->cpad < FST_MAXCPU && sysblk.regs[d->cpad])
        len = psa_psw(sysblk.regs[d->cpad], PSA_RESTART, psw);
    else if (order == 0x12 && cc == 0) /* set architecture: this CPU's PSW now, in its new form */
        len = cur_psw(regs, psw);
    cpubuf *c = buf_of(regs);
    code_check(c, regs, d->dat, c->last, d->fall);
    c->b[c->n++] = FSTMOD_OP_SIGP;
    put_sv(c, (int64_t)(d->at - c->last));
    put_v(c, order);
    put_v(c, d->cpad);
    c->b[c->n++] = (uint8_t)cc;
    c->b[c->n++] = (uint8_t)len;
    memcpy(c->b + c->n, psw, len);
    c->n += len;
    c->last = d->fall;
    flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

static void ATTR_REGPARM(2) w_sigp(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .dat = dat_on(regs), .cpad = regs->GR_LHL(inst[1] & 0x0F) };
    d.at = at_of(regs, inst[0], &d.fall);
    d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* Hercules' program interruption hook: called with the PSW's address and ILC set, before
** the old PSW is stored and the new one loaded. */
static void *pgm_hook(REGS *regs, int pcode)
{
    REGS *r = sysblk.regs[regs->cpuad];
    if (!r)
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
    if (skip_op(r, at, NULL, 0, 0))
        return NULL;
    uint8_t psw[16];
    unsigned len = psa_psw(r, PSA_PGM_NEW, psw);
    cpubuf *c = buf_of(r);
    code_check(c, r, dat_on(r), c->last, flags ? at + ilc : at);
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
    if (!fst_gen)
        return;
    uint8_t oldp[16], newp[16];
    unsigned ol = psa_psw(regs, cls == 2 ? PSA_EXT_OLD : PSA_IO_OLD, oldp);
    unsigned nl = psa_psw(regs, cls == 2 ? PSA_EXT_NEW : PSA_IO_NEW, newp);
    if (!ol || !nl)
        return;
    uint64_t at = psw_addr(oldp, ol);
    if (skip_op(regs, at, oldp, ol, 0))
        return;
    cpubuf *c = buf_of(regs);
    int dat = (ol == 16 || (oldp[1] & 0x08)) && (oldp[0] & PSW_DATMODE);
    code_check(c, regs, dat, c->last, at); /* at did not execute */
    c->b[c->n++] = FSTMOD_OP_INTR;
    c->b[c->n++] = (uint8_t)cls;
    put_sv(c, (int64_t)(at - c->last));
    /* the code: BC mode in the old PSW's bytes 2-3; EC mode at PSA 86 (external) or BA (I/O);
    ** ESA/390 and z/Architecture: external at 86, I/O the subsystem-identification word at B8 */
    uint64_t code = (uint64_t)oldp[2] << 8 | oldp[3];
    if (regs->arch_mode != FST_A370) {
        uint64_t a = regs->PX_G + (cls == 2 ? 0x86 : 0xB8);
        unsigned n = cls == 2 ? 2 : 4;
        code = 0;
        for (unsigned i = 0; i < n && a + n <= sysblk.mainsize; i++)
            code = code << 8 | regs->mainstor[a + i];
    } else if (oldp[1] & 0x08) {
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

/* What the module wraps, per architecture (bit 0 S/370, 1 ESA/390, 2 z/Architecture): the
** instruction (op1, and op2 its second part: fstmod_herc.h fst_opx) and its wrapper. */
typedef struct wrap {
    uint8_t archs, op1, op2;
    void (ATTR_REGPARM(2) *f)(BYTE inst[], REGS *regs);
} wrap;
enum { A_S = 1, A_E = 2, A_Z = 4, A_EZ = 6, A_ALL = 7 };

static const wrap wraps[] = {
    /* branches: BALR, BCTR, BCR, BASR, BAL, BCT, BC, BAS, BXH, BXLE (S/370: BSM, BASSM too) */
    { A_ALL, 0x05, 0, w_branch2 }, { A_ALL, 0x06, 0, w_loop2 }, { A_ALL, 0x07, 0, w_branch2 },
    { A_ALL, 0x0D, 0, w_branch2 }, { A_ALL, 0x45, 0, w_branch4 }, { A_ALL, 0x46, 0, w_loop4 },
    { A_ALL, 0x47, 0, w_branch4 }, { A_ALL, 0x4D, 0, w_branch4 }, { A_ALL, 0x86, 0, w_loop4 },
    { A_ALL, 0x87, 0, w_loop4 }, { A_S, 0x0B, 0, w_branch2 }, { A_S, 0x0C, 0, w_branch2 },
    /* BRXH, BRXLE; BRC, BRAS, BRCT, BRCTG; BRCL, BRASL; BRCTH; BCTGR; BCTG, BIC; BXHG, BXLEG */
    { A_EZ, 0x84, 0, w_loop4 }, { A_EZ, 0x85, 0, w_loop4 },
    { A_EZ, 0xA7, 0x4, w_brancha7 }, { A_EZ, 0xA7, 0x5, w_brancha7 }, { A_EZ, 0xA7, 0x6, w_loopa7 },
    { A_Z, 0xA7, 0x7, w_loopa7 }, { A_EZ, 0xC0, 0x4, w_branchc0 }, { A_EZ, 0xC0, 0x5, w_branchc0 },
    { A_Z, 0xCC, 0x6, w_loopx }, { A_Z, 0xB9, 0x46, w_loopx }, { A_Z, 0xE3, 0x46, w_loopx },
    { A_Z, 0xE3, 0x47, w_branchx }, { A_Z, 0xEB, 0x44, w_loopx }, { A_Z, 0xEB, 0x45, w_loopx },
    /* BRXHG, BRXLG; compare and branch (relative): CGRJ, CLGRJ, CRJ, CLRJ, CGIJ, CLGIJ, CIJ,
    ** CLIJ, CGRB, CLGRB, CRB, CLRB, CGIB, CLGIB, CIB, CLIB */
    { A_Z, 0xEC, 0x44, w_loopx }, { A_Z, 0xEC, 0x45, w_loopx },
    { A_EZ, 0xEC, 0x64, w_branchx }, { A_EZ, 0xEC, 0x65, w_branchx }, { A_EZ, 0xEC, 0x76, w_branchx },
    { A_EZ, 0xEC, 0x77, w_branchx }, { A_EZ, 0xEC, 0x7C, w_branchx }, { A_EZ, 0xEC, 0x7D, w_branchx },
    { A_EZ, 0xEC, 0x7E, w_branchx }, { A_EZ, 0xEC, 0x7F, w_branchx }, { A_EZ, 0xEC, 0xE4, w_branchx },
    { A_EZ, 0xEC, 0xE5, w_branchx }, { A_EZ, 0xEC, 0xF6, w_branchx }, { A_EZ, 0xEC, 0xF7, w_branchx },
    { A_EZ, 0xEC, 0xFC, w_branchx }, { A_EZ, 0xEC, 0xFD, w_branchx }, { A_EZ, 0xEC, 0xFE, w_branchx },
    { A_EZ, 0xEC, 0xFF, w_branchx },
    /* what loads or changes the PSW: SSM, LPSW, STNSM, STOSM, SPKA; LPSWE, BSM and BASSM
    ** (the addressing mode), SAM24, SAM31, SAM64, SACF, PR, PC, PT, BAKR */
    { A_ALL, 0x80, 0, w_pswop }, { A_ALL, 0x82, 0, w_pswop }, { A_ALL, 0xAC, 0, w_pswop },
    { A_ALL, 0xAD, 0, w_pswop }, { A_ALL, 0xB2, 0x0A, w_spka },
    { A_EZ, 0xB2, 0xB2, w_pswop }, { A_EZ, 0x0B, 0, w_pswop }, { A_EZ, 0x0C, 0, w_pswop },
    { A_EZ, 0x01, 0x0C, w_pswop }, { A_EZ, 0x01, 0x0D, w_pswop }, { A_EZ, 0x01, 0x0E, w_pswop },
    { A_EZ, 0xB2, 0x79, w_pswop }, { A_EZ, 0x01, 0x01, w_pswop }, { A_EZ, 0xB2, 0x18, w_pswop },
    { A_EZ, 0xB2, 0x28, w_pswop }, { A_EZ, 0xB2, 0x40, w_pswop },
    /* task evidence and the rest: LM, STM, LCTL, SVC, SIGP, PTLB, IPTE */
    { A_ALL, 0x90, 0, w_lmstm }, { A_ALL, 0x98, 0, w_lmstm }, { A_ALL, 0xB7, 0, w_lctl },
    { A_ALL, 0x0A, 0, w_svc }, { A_ALL, 0xAE, 0, w_sigp }, { A_ALL, 0xB2, 0x0D, w_ptlb },
    { A_ALL, 0xB2, 0x21, w_ptlb },  /* IPTE: a page's entry invalid, its translation purged */
};

static void start(void)
{
    const char *out = getenv(FSTMOD_ENV_OUT);
    if (!out || !*out) {
        logmsg("HHCFS001E fst module: " FSTMOD_ENV_OUT " is not set: nothing recorded\n");
        return;
    }
    char why[256] = "";
    if (sysblk.regs_copy_len != (int)offsetof(REGS, regs_copy_end))
        snprintf(why, sizeof why, "REGS differs from the headers the module was built with (regs_copy_len %d, "
                 "expected %d)", sysblk.regs_copy_len, (int)offsetof(REGS, regs_copy_end));
    else if (getenv(FSTMOD_ENV_REFUSE))
        snprintf(why, sizeof why, "refused as asked by " FSTMOD_ENV_REFUSE " (a test of the fallback)");
    else
        code_start(why, sizeof why);
    if (why[0]) {
        logmsg("HHCFS003W fst module: %s: nothing recorded\n", why);
        attach_start(out, why, 1); /* each reader is told why */
        return;
    }
    const char *ph = getenv(FSTMOD_ENV_PHASE);
    if (ph && atoi(ph) > 0)   /* at most 2^24: 16 trials' length stays an unsigned */
        ph_look = atoi(ph) < (1 << 24) ? (unsigned)atoi(ph) : 1u << 24;
    void (**irq)(REGS *, int) = (void (**)(REGS *, int))dlsym(RTLD_DEFAULT, "fstirq_record");
    if (irq)
        *irq = irq_record;
    irq_ptr = irq;
    /* the console's lines (a job's window): from the interposer too, whether a reader is there or not */
    void (**cons)(const char *, size_t) = (void (**)(const char *, size_t))dlsym(RTLD_DEFAULT, "fstirq_console");
    if (cons)
        *cons = cons_text;
    char text[200];
    /* arch=: the ARCHMODE configured, for a reader that attaches to the running system */
    snprintf(text, sizeof text, FST_HERC_NAME " %d REGS=%zu SYSBLK=%zu interruptions=%s console=%s arch=%s",
             FSTMOD_WIRE, sizeof(REGS), sizeof(SYSBLK), irq ? "seen" : "unseen", cons ? "seen" : "unseen",
             sysblk.arch_mode == FST_A900 ? "z/Arch" : sysblk.arch_mode == FST_A390 ? "ESA/390" : "S/370");
    static const int arch[3] = { FST_A370, FST_A390, FST_A900 };
    for (size_t i = 0; i < sizeof wraps / sizeof wraps[0]; i++)
        for (unsigned a = 0; a < 3; a++)
            if (wraps[i].archs >> a & 1)
                fst_patch(arch[a], wraps[i].op1, wraps[i].op2, wraps[i].f);
    fst_patch_done();
    patched = 1;
    att_live = 1;
    attach_start(out, text, 0);
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
    attach_stop();
    if (patched) {
        fst_unpatch();
        patched = 0;
    }
    for (unsigned i = 0; i < FSTMOD_NCPU; i++)
        flush_cpu(i);
    uint64_t nraw = 0;
    for (unsigned i = 0; i < FSTMOD_NCPU; i++)
        nraw += bufs[i] ? bufs[i]->nraw : 0;
    if (nraw)
        logmsg("HHCFS008I fst module: %llu taken branches written without a look for copies (short ones)\n",
               (unsigned long long)nraw);
    if (pages_sent)
        logmsg("HHCFS004I fst module: %llu code pages sent, %llu frames of sent code written since\n",
               (unsigned long long)pages_sent, (unsigned long long)frames_faulted);
    code_stop();
    void (**irq)(REGS *, int) = (void (**)(REGS *, int))dlsym(RTLD_DEFAULT, "fstirq_record");
    if (irq)
        *irq = NULL;
    void (**cons)(const char *, size_t) = (void (**)(const char *, size_t))dlsym(RTLD_DEFAULT, "fstirq_console");
    if (cons)
        *cons = NULL;
    if (outfd >= 0)
        close(outfd);
    outfd = -1;
}
END_FINAL_SECTION
