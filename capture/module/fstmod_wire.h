/*
** capture/module/fstmod_wire.h — the byte stream fst's Hercules module (fstmod.c) writes
** into the FIFO that fst-capture --via=module reads (capture/modread/modstream.h). Shared by both
** sides: plain C, no Hercules header, no fst header.
**
** The stream is a sequence of chunks, each one CPU's events in the order that CPU made
** them: u8 FSTMOD_CHUNK, u8 cpu, u16 0, u32 len (little-endian), then len bytes of ops.
** The first chunk (cpu FSTMOD_CPU_MODULE) says who writes: FSTMOD_OP_HELLO, or
** FSTMOD_OP_REFUSE when the module will record nothing (why, as text).
**
** An op stream keeps, per CPU, a base `last` for its addresses (0 at first, then the
** address the previous op said execution goes on at). `at` is the instruction an op is
** about; the instructions between where the previous op left execution and `at`
** executed in sequence (their bytes: the CODE pages sent, else the storage image).
** sv = zigzag LEB128 of a signed 64-bit difference, v = LEB128 of an unsigned value,
** psw = u8 length (8 or 16) then the PSW bytes, architected.
**   BR    sv(at - last) sv(to - at)      a taken branch at `at` (EX: the EX) to `to`
**   PGM   u8 flags sv(at - last) v(code) u8 ilc psw
**                                        a program interruption: flags bit 0 = the
**                                        instruction at `at` executed and checked; else an
**                                        instruction fetch at `at` failed (none executed).
**                                        psw: the program new PSW (where it continues)
**   SVC   sv(at - last) v(number) psw    the SVC at `at`; psw: the SVC new PSW
**   LPSW  sv(at - last) v(operand) psw   the LPSW at `at` loaded psw from operand
**   PSW   sv(at - last) psw              the instruction at `at` (SSM, STOSM, STNSM,
**                                        SPKA) left this PSW (the next address included)
**   INTR  u8 class sv(at - last) v(code) psw
**                                        an I/O (1) or external (2) interruption before the
**                                        instruction at `at`, which did not execute; psw:
**                                        the new PSW
**   SIGP  sv(at - last) v(order) v(cpu) u8 cc u8 len psw
**                                        the SIGP at `at` sent order to CPU cpu and set
**                                        condition code cc; len 8 or 16: an accepted
**                                        restart (order 6), psw its target's restart new
**                                        PSW, where that CPU starts; or an accepted set
**                                        architecture (order X'12'), psw this CPU's PSW in
**                                        its new form (16 bytes: z/Architecture); else len 0
**   REP   v(p) v(n)                     n taken branches, each the same as the branch p
**                                        branch records back (1 <= p <= FSTMOD_REP_MAXP;
**                                        copies count as branch records): a loop's
**                                        iterations, p branches each
**   REGS  u16 mask (little-endian) v..   the general registers now, before the next
**                                        instruction: those of the mask (bit r = register
**                                        r, the low 32 bits each), in order; the others have
**                                        the values the last REGS of this CPU gave (its first
**                                        REGS gives all 16). Written right after each PGM,
**                                        SVC, INTR (the interrupted task's registers) and
**                                        LPSW (the dispatched task's), when any changed since
**                                        the last REGS; it says no address (`last` stays)
**   CR    sv(at - last) v(operand) u8 r1r3 v..
**                                        the LCTL at `at` (EX: the EX) loaded control
**                                        registers r1 (high nibble) to r3 (low nibble),
**                                        wrapping from 15 to 0, from operand: their values
**                                        after it, in that order
**   OPND  sv(at - last) v(operand)       the LM or STM of all 16 registers at `at`, in
**                                        supervisor state, had this first operand address
**                                        (the block a dispatcher restores a task from or a
**                                        handler saves it to); not under EX
**   CODE  u8 kind ...                    code bytes and address spaces (no `last` change):
**         kind FSTMOD_CODE_SPACE: v(space)
**                                        the instructions of the ops that follow (up to the
**                                        next SPACE) executed in `space`: 0 = DAT off (real
**                                        addresses), else FSTMOD_SPACE_DAT | CR1 (S/370: the
**                                        segment table's origin and length). At first: 0.
**         kind FSTMOD_CODE_PAGE: v(space) v(page) v(slot) then FSTMOD_PAGE bytes
**                                        the bytes of virtual page `page` (address / 4096)
**                                        of `space`, as they are now: sent before the first
**                                        op whose instructions execute in that page of that
**                                        space, and again, before such an op, when they
**                                        have changed since. `slot` is where the reader
**                                        keeps it: set fstmod_code_set(space, page), way
**                                        slot % FSTMOD_CODE_WAYS, in the table of this
**                                        chunk's CPU (each CPU has its own: its records
**                                        reach the reader on their own schedule, so a CPU
**                                        sends every page it runs itself); it replaces
**                                        what that slot held (the module sends that page
**                                        again if it runs later). Pages never sent: the
**                                        storage image's.
**   SYNC  psw v(space) v(gr0)..v(gr15)  this CPU's records (re)start here: the first op of
**                                        each CPU in a session that began while the system
**                                        ran (a reader that attached late, fst-capture
**                                        --attach). psw: the PSW in force, whose address is
**                                        the next instruction to execute (the CPU's first of
**                                        the trace); space: as CODE SPACE says it, for the
**                                        instructions from there on; the 16 general registers
**                                        (low 32 bits) as they are then, as a REGS of all 16.
**                                        The reader keeps nothing of this CPU from before:
**                                        `last` = psw's address, no branch for REP to copy,
**                                        the registers those, no code page (the CPU's
**                                        table starts empty). psw's address is the `at` of
**                                        the op that follows SYNC (a branch, SVC, PGM, INTR,
**                                        CR, OPND, SIGP), with the state the CPU had there;
**                                        except when the module was at an op that changed
**                                        the PSW (LPSW, PSW): that op is not written, and
**                                        psw is the PSW it left.
**   CONS  sv(at - last) v(seq) v(n) n bytes
**                                        a line the system's console wrote (the 3215/1052
**                                        console Hercules logs, as text without its newline),
**                                        number seq of the module's lines (1 and up, each
**                                        CPU writes each line once, so several CPUs' CONS
**                                        of one line have one seq), logged before the
**                                        instruction at `at` executed: the CPU that ran the
**                                        console I/O writes it at once, at its next
**                                        instruction; another at its next op, which it
**                                        comes before. `last` becomes `at`.
** After each op `last` is the address the op's PSW or target says (CR, OPND, SIGP: the
** instruction after `at`; REGS, CODE: unchanged).
**
** Sessions. The module writes to the FIFO only while a reader has it open. A reader there
** when the module loads, before any CPU ran, with FSTMOD_ENV_FROM_IPL set (fst-capture
** running a program) gets the stream from IPL: HELLO, then each CPU's ops from its start,
** no SYNC. Any other reader (a running system: fst-capture --attach, even one that opened
** the FIFO before Hercules started) gets HELLO, then for each CPU SYNC first, then its
** ops; its HELLO ends " ran=1" when a CPU had run an instruction since its reset as the
** session began (a window in the middle of a run), " ran=0" when none had (a reader there
** before the IPL: the run from its first record); the code pages it has are only those sent to it (each CPU's slots start empty at
** its SYNC). When the reader closes the FIFO the session ends (the module sees EPIPE) and
** the next reader starts a new one. A stream may end anywhere inside a CPU's records (the module's
** chunks of a CPU are at most 0.1 s old when written: STALE_NS in fstmod.c).
*/
#ifndef FSTMOD_WIRE_H
#define FSTMOD_WIRE_H

#define FSTMOD_CHUNK 0xC5
#define FSTMOD_CHUNK_HDR 8
#define FSTMOD_CPU_MODULE 0xFF
#define FSTMOD_MAX_CHUNK (1u << 20)

enum {
    FSTMOD_OP_HELLO = 0x70,   /* text: "fst-hercules313 3 ...": the name, FSTMOD_WIRE */
    FSTMOD_OP_REFUSE = 0x71,  /* text: why */
    FSTMOD_OP_BR = 0x01,
    FSTMOD_OP_PGM = 0x02,
    FSTMOD_OP_SVC = 0x03,
    FSTMOD_OP_LPSW = 0x04,
    FSTMOD_OP_PSW = 0x05,
    FSTMOD_OP_INTR = 0x06,
    FSTMOD_OP_REGS = 0x07,
    FSTMOD_OP_CR = 0x08,
    FSTMOD_OP_OPND = 0x09,
    FSTMOD_OP_CODE = 0x0A,
    FSTMOD_OP_REP = 0x0B,
    FSTMOD_OP_SIGP = 0x0C,
    FSTMOD_OP_SYNC = 0x0D,
    FSTMOD_OP_CONS = 0x0E,
};

/* The longest console line CONS carries (a longer one is cut there). */
#define FSTMOD_CONS_MAX 512u

/* The longest loop, in branches, that REP copies (a FORTRAN mainline's pattern of calls
** included: issue 33). */
#define FSTMOD_REP_MAXP 1024

/* The stream's version: HELLO's text is "NAME VERSION ...", and a reader refuses a module
** of another (3: REP's p up to 1024, where 2 had 8). */
#define FSTMOD_WIRE 3

enum { FSTMOD_CODE_SPACE = 0, FSTMOD_CODE_PAGE = 1 };

#define FSTMOD_PAGE 4096u
#define FSTMOD_SPACE_DAT (1ull << 32)
/* The code pages the reader keeps (and the module knows it keeps): FSTMOD_CODE_SETS sets
** of FSTMOD_CODE_WAYS pages, 4 MiB. */
#define FSTMOD_CODE_SETS 256u
#define FSTMOD_CODE_WAYS 4u
#define FSTMOD_CODE_SLOTS (FSTMOD_CODE_SETS * FSTMOD_CODE_WAYS)

/* The set a page of a space goes in (the same function on both sides). */
static inline unsigned fstmod_code_set(unsigned long long space, unsigned long long page)
{
    unsigned long long h = (page ^ (space * 0x9E3779B97F4A7C15ull)) * 0xFF51AFD7ED558CCDull;
    return (unsigned)(h >> 56) % FSTMOD_CODE_SETS;
}

/* The environment variable naming the FIFO (a path relative to Hercules' folder). */
#define FSTMOD_ENV_OUT "FST_MODULE_OUT"
/* Set (to anything) by fst-capture when it runs a program: a reader there at load reads
** from IPL (no SYNC). Not set (a Hercules the user runs): every reader's CPUs begin with SYNC. */
#define FSTMOD_ENV_FROM_IPL "FST_MODULE_FROM_IPL"
/* The reader's request: a file beside the FIFO, its path the FIFO's with this suffix, that
** the reader writes (mode 0600) before it opens the FIFO and removes when it is done; the
** module reads it when a reader opens the FIFO (only a regular file of the user Hercules
** runs as). One line: "job NAME" (1 to 8 characters: fstmod_job.h), to record only that
** job. No file, or anything else in it: record from now on. */
#define FSTMOD_REQ_SUFFIX ".req"
/* Set (to anything) by the tests: the module refuses as a wrong structure size would. */
#define FSTMOD_ENV_REFUSE "FST_MODULE_TEST_REFUSE"
/* Set by the tests to a number: the module's phases that look for copies last that many
** taken branches (fstmod.c PH_LOOK), so that a short program switches often. */
#define FSTMOD_ENV_PHASE "FST_MODULE_TEST_PHASE"

#endif
