/*
** capture/read/emit.h — what a Hercules instruction trace says, as trace.bin records: the one
** piece of logic the text-log parser (herclog.c) and the binary trace-file reader (tf.c)
** share, so that the same run gives the same trace from either source.
**
** A source tells the emitter, per CPU, in the order Hercules produced it:
**   - each traced instruction (the PSW before it, architected, and its bytes); the
**     emitter writes STATE and INSN, and an SVC interruption record after an SVC (Hercules
**     prints nothing for it);
**   - the first storage operand shown for an LPSW/LPSWE/LCTL/LCTLG (fst_em_wants_operand
**     says when it is wanted): the PSW it loads becomes an LPSW record, the CR1 it loads a
**     CR record;
**   - a control register 1 that a register display shows (written when it is news);
**   - program checks, "instruction fetch error" re-displays, waits, I/O and external
**     interruptions, tracing switched off.
**   - the registers and CR1 a display shows: written before their instruction (REGS only
**     for the registers that changed since the last REGS of that CPU), so that a source
**     that shows them after the instruction (traditional) has its instruction held until
**     its display has ended (fst_em_regs_order);
**   - evidence of which task runs (tracebin.h OPND, OLDPSW): a branch's operand address
**     when its successor is neither its fall-through nor that address, the block an LM or STM
**     of all 16 registers in supervisor state restores from or saves to, and an old-PSW slot a
**     supervisor instruction shows.
** Rules it keeps (herclog.h has the history): the instruction shown again after a program
** check is not an execution; LPSW and CR1 records wait, per CPU, until that CPU's next
** instruction or event, because a program check announced first means the instruction
** loaded nothing (unless the re-display is a fetch error at the new PSW).
**
** Ownership: the emitter does not own the writer; it must be the only one to write STATE
** records to it (it leaves out a STATE the writer already has, without asking). Errors: write failures are sticky
** (fst_em_failed); nothing else fails. Memory: constant (a small state per CPU address,
** 256 of them, taken modulo 256).
*/
#ifndef FST_EMIT_H
#define FST_EMIT_H

/* CPU numbers the emitter keeps state for (Hercules 4.x has at most 128 CPUs, 3.13 64):
** the readers refuse a larger one rather than fold it onto another. */
#define FST_EM_MAXCPU 256u

#include "capture/read/progend.h"
#include "trace/psw.h"
#include "trace/tracebin.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_em_stats {
    uint64_t insns;      /* executed instructions written */
    uint64_t redisplays; /* program-check re-displays (not executions) */
    uint64_t pgmchks, waits, gaps;
    uint64_t intrs;      /* I/O, external and machine-check interruptions */
    uint64_t svcs;       /* SVC instructions (an SVC interruption record each) */
    int disabled_wait;   /* a disabled wait was seen (of any CPU) */
    int ended;           /* the program has ended: capture/read/progend.h's rule, as the last
                            record left it */
    unsigned running;    /* CPUs running after the last disabled wait or SIGP */
    int limit_hit;       /* max_insns reached: later instructions were not written */
} fst_em_stats;

typedef struct fst_em fst_em;


/* max_insns 0 = no limit. */
fst_em *fst_em_new(fst_tw *w, uint64_t max_insns);
void fst_em_free(fst_em *e);
const fst_em_stats *fst_em_getstats(const fst_em *e);
int fst_em_failed(const fst_em *e);

/* The calls that follow are about CPU `cpu` (a CPU record is written when it changes). */
void fst_em_cpu(fst_em *e, unsigned cpu);
unsigned fst_em_curcpu(const fst_em *e);

/* A new instruction display begins for the current CPU: its previous instruction
** completed (or checked), and its operand is no longer wanted. fst_em_insn does this
** itself; a source calls it for a display it could not read. */
void fst_em_begin(fst_em *e);
/* A traced instruction: psw (8 or 16 bytes, architected, as Hercules displays it) with
** `arch` the CPU's architecture (FST_ARCH_*, for an 8-byte PSW), its bytes ib (len 2, 4
** or 6). Returns 1 when written as an execution, 0 when it was a re-display or past the
** limit. */
int fst_em_insn(fst_em *e, const uint8_t *psw, int pswlen, int arch, const uint8_t *ib, int len);
/* k >= 1 instructions of the current CPU in sequence from ia (next: the address after the
** last), all with the PSW psw (bytes 0-4 the same for each: the state), none an SVC, SIGP,
** LPSW, LPSWE, LCTL or LCTLG, each given to this emitter before (fst_em_insn) at its address
** with the same bytes: writes and leaves what k calls of fst_em_insn would (the last one's
** address and bytes: last_ia, last_ib, last_len), in one step. For a source that knows the
** code (capture/modread/modstream.c). Only when nothing waits for the CPU (no held or
** pending record, no program check, no operand shown), with no limit, no held displays
** and no range trace's bases, and the CPU is running: else -1, nothing done, and the caller
** gives them one by one. */
int fst_em_seq(fst_em *e, const uint8_t *psw, int pswlen, int arch, uint64_t ia, uint64_t k, uint64_t next,
               uint64_t last_ia, const uint8_t *last_ib, int last_len);
/* n >= 1 such runs in a row, as n calls of fst_em_seq with this psw would write them (its
** bytes 0-4 stand for every run's), in one step: the emitter's state is looked at once and
** left as the last run leaves it. -1, nothing done, where fst_em_seq would refuse. */
typedef struct fst_em_run {
    uint64_t ia, k, next, last_ia;
    uint8_t last_ib[6];
    int last_len;
} fst_em_run;
int fst_em_seqs(fst_em *e, const uint8_t *psw, int pswlen, int arch, const fst_em_run *run, size_t n);
/* A point in what the current CPU's records wrote (fst_em_mark_at), to write the same again
** (fst_em_repeat): for a source that knows a loop's iterations are the same calls
** (capture/modread/modstream.c: the module's copies of a loop's branches). The fields are
** the emitter's state, not the caller's to read. */
#define FST_EM_MARK_CPU 1024
typedef struct fst_em_mark {
    fst_tw_mark w;
    fst_em_stats st;
    unsigned cpu;
    unsigned char cs[FST_EM_MARK_CPU];
} fst_em_mark;
void fst_em_mark_at(fst_em *e, fst_em_mark *m);
/* The calls made since the mark m (one loop iteration), `times` more times: written as
** those calls would write them again, in one step. Only when the emitter and its writer
** are in the state the mark saw, the calls since it were plain runs (fst_em_seq's
** conditions: no limit, nothing held or pending, the CPU running) and the iteration is
** short; else -1 and nothing done, and the caller makes the calls itself. */
int fst_em_repeat(fst_em *e, const fst_em_mark *m, uint64_t times);
/* "Instruction fetch error" shown for the current CPU (no instruction). */
void fst_em_fetch_error(fst_em *e);
/* 1 when the current CPU's last instruction wants its first storage operand's bytes. */
int fst_em_wants_operand(const fst_em *e);
/* 1 when a storage operand at addr of the current display is wanted with its bytes (a
** source may leave them out otherwise: fst_em_operand with n 0). */
int fst_em_wants_data(const fst_em *e, uint64_t addr);
/* 1 when the current display's storage operands are wanted at all (else a source may skip
** them: most instructions of a noregs trace). */
int fst_em_wants_operands(const fst_em *e);
/* Each storage operand the display shows, in order: its address and the n bytes shown
** (0: none, a translation exception, or not read). */
void fst_em_operand(fst_em *e, uint64_t addr, const uint8_t *data, unsigned n);
/* Control register 1 and general register r as a register display shows them (their
** values before the display's instruction). */
void fst_em_cr1(fst_em *e, uint64_t value);
void fst_em_gr(fst_em *e, unsigned r, uint64_t value);
/* Where the source shows registers: not known yet (the start: an instruction is held until
** its display has ended, in case they follow), after their instruction (traceopt
** traditional: the same), before it (regsfirst, tf files: written at once, after the
** registers given before it), not at all (noregs). */
enum { FST_EM_REGS_UNKNOWN, FST_EM_REGS_AFTER, FST_EM_REGS_BEFORE, FST_EM_REGS_NONE };
void fst_em_regs_order(fst_em *e, int order);
/* What the current CPU's display has shown so far belongs to no instruction written: dropped
** (register lines of an instruction before the log's start). */
void fst_em_display_drop(fst_em *e);
/* The trace is a range trace (on 1): where no register is shown, what the operand addresses
** show of base registers is written (tracebin.h BASES), before its instruction (held until
** its display has ended). A whole-system trace shows the supervisor instead. */
void fst_em_bases(fst_em *e, int on);
void fst_em_pgmchk(fst_em *e, uint32_t code, unsigned ilc);
/* kind 0 = a wait PSW loaded, 1 = disabled wait; psw may be NULL (pswlen 0). */
void fst_em_wait(fst_em *e, unsigned kind, const uint8_t *psw, unsigned pswlen);
/* An accepted or refused SIGP of the current CPU to CPU `to` (order, condition code):
** no record; it tells when the program has ended (capture/read/progend.h). */
void fst_em_sigp(fst_em *e, unsigned to, unsigned order, unsigned cc);
void fst_em_intr(fst_em *e, unsigned cls, uint32_t code);
/* Tracing was switched off: settles every CPU, writes a GAP. */
void fst_em_gap(fst_em *e);
/* Wall clock, seconds since midnight: a TIME record when it changed. */
void fst_em_time(fst_em *e, uint32_t secs);
/* End of the input: every CPU's pending record is settled. */
void fst_em_finish(fst_em *e);

#endif
