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
** irq_record (fstmod_ops.c). Code: the pages the instructions run from are sent (CODE,
** fstmod_code.c), so code the program loads or changes is rebuilt too.
**
** Readers come and go (fstmod_attach.c): the module never waits for one. With
** none (FST_MODULE_OUT a FIFO nobody has open, or not there yet) its wrappers are out of
** the opcode tables; a reader there when it loads, when fst-capture runs the program
** (FST_MODULE_FROM_IPL), gets the stream from IPL; any other (fst-capture --attach: a
** running system) gets each CPU from a SYNC on.
**
** Memory: one buffer of FSTMOD_BUF bytes per CPU, written to the FIFO when full, at a wait
** state and when the module is unloaded. Errors: a failed write (the reader gone) or a
** reader that takes nothing for 30 s ends the session; the module waits for the next.
**
** Files: this one holds the state the parts share and the loading (the opcode tables
** patched, the checks, the hooks); its parts, in the order it includes them: fstmod_stream.c
** (each CPU's buffer, the records' encoding, the FIFO), fstmod_code.c (code pages),
** fstmod_cons.c (console lines, a job's window), fstmod_attach.c (readers that come and
** go), fstmod_branch.c (the branches' wrappers), fstmod_ops.c (the other ops' wrappers and
** the interruptions). One translation unit, as Lua's onelua.c makes one of Lua's files: the
** wrappers' hot paths are inline across the parts (a branch's record, the code check, the
** buffer's room), and the module built so is byte for byte the one built from one file.
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
    unsigned gen;       /* the reader's session this state was made for (fstmod_attach.c) */
    unsigned cons_seen; /* the last console line this CPU wrote (CONS), or skipped */
} cpubuf;

static cpubuf *bufs[FSTMOD_NCPU];
static int outfd = -1;
static pthread_mutex_t outlock = PTHREAD_MUTEX_INITIALIZER;
static int patched;

/* The reader's session (fstmod_attach.c): 0 while no reader has the FIFO
** open (the wrappers are then out of the opcode tables), else its number. A CPU whose state
** belongs to another session starts its records again with SYNC (sync_cpu); load_gen is
** the session opened as the module loaded, before any CPU ran, when fst-capture runs the
** program (FST_MODULE_FROM_IPL): no SYNC. */
static volatile unsigned fst_gen;
static unsigned load_gen;
static unsigned att_sessions;   /* sessions so far (the last one's number) */
static void detach_locked(const char *why);
/* Console lines (fstmod_cons.c): the last one's number, and what a CPU
** that starts a session has seen of them. */
static volatile unsigned cons_seq;
static unsigned cons_from;
static void cons_out(REGS *regs, uint64_t at);

#include "fstmod_stream.c"
#include "fstmod_code.c"
#include "fstmod_cons.c"
#include "fstmod_attach.c"
#include "fstmod_branch.c"
#include "fstmod_ops.c"

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
