/*
** capture/read/herclog.h — the Hercules log parser: text in, trace.bin events out.
**
** It reads the instruction trace that Hercules 3.13 and SDL Hercules 4.x write to their
** log (notes/hercules-trace.md has every case) and writes each executed instruction and
** each event to a trace writer (trace/tracebin.h). It accepts:
**   - the three `traceopt` modes (register blocks are recognised and skipped — the replay
**     needs the instruction stream, not the registers — except control register 1, below);
**   - 8- and 16-byte PSWs, 24/31/64-bit addressing, 3.13's "PSW=xxxxxxxx xxxxxxxx" and
**     4.x's "PSW=xxxxxxxxxxxxxxxx", S/370 BC and EC mode;
**   - the "CPU0000:  " (3.13) and "CP00: " (4.x) prefixes, "HH:MM:SS " and
**     "HH:MM:SS.ffffff " time stamps (and HercGUI's thread id), 4.x message ids;
**   - 3.13's lines from other threads spliced into a trace line (the instruction is taken
**     from PSW= and INST=; the orphaned disassembly line later is recognised), and another
**     CPU's trace piece spliced into a message 3.13 writes in pieces ("HHCCP043I Wait state
**     PSW loaded: CPU0001:  PSW=... INST=05C0         PSW=010A0000 00000000"): the piece
**     is read as a trace line and the message whole (or, when its PSW comes on a later
**     line, without it); a piece that cannot be read is malformed and counted as spliced;
**   - the re-display of an instruction after a program check (HHCCP014I / HHC00801I):
**     it becomes a program-check event, never a second execution;
**   - wait-state messages, I/O and external interruption messages, architecture switches,
**     tracing switched on and off (a GAP event), and a bare "PSW=" display with no INST=.
** What identifies a task and an address space under an operating system is kept too:
**   - an SVC instruction (0A) is followed by an SVC interruption record (FST_INTR_SVC,
**     the SVC number): Hercules prints no message for it;
**   - an LPSW (82) or LPSWE (B2B2) is followed by an LPSW record: the PSW it loaded and
**     its operand address, from the storage-operand line after it (R:/V:, 4.x's
**     V:..:R:..:K:, 8- or 16-digit addresses; nothing when the line is a translation
**     exception or shows fewer bytes than the PSW);
**   - an LCTL (B7) or LCTLG (EB..2F) that loads CR1 is followed by a CR record with the
**     value its word on the storage line shows (LCTL: the 32-bit value; nothing when the
**     word is past the bytes shown);
**   - a CR1 shown in a control-register block (CR01= / C1=, 3.13 and HHC02271I) that is
**     not the value last written for that CPU gives a CR record at once (the block shows
**     the value in force before its instruction, so it may be one instruction late).
**   The LPSW and LCTL records wait, per CPU, until that CPU's next PSW line, next event
**   or the end of the input: a program check announced for that CPU first means the
**   instruction loaded nothing, and its record is dropped — unless the re-display is an
**   "Instruction fetch error", which says the check came from fetching at the new PSW,
**   so the record is kept and the program check written after it.
** Every line is classified; lines it does not understand are counted (with the first
** one kept for the report), never silently dropped. A PSW line that cannot be read is
** "malformed": counted and reported with its line number — an instruction may be
** missing from the trace there.
**
** The records are written through capture/read/emit.h, which holds these rules. The PSW lines
** of the usual shapes are read by capture/read/pswline.h, fast; every other line here.
**
** An input that begins with "%TF" is not a log but an SDL Hercules 4.x trace file: it is
** handed to the trace-file reader (capture/read/tf.h), which writes the same records through
** the same emitter; its stats are then those of the file (no lines), fst_hlog_tf gives
** the reader's own, and a damaged file is an error naming its byte offset.
**
** Feed it text in any chunks (a pipe, a file); it keeps at most one partial line, of at
** most FST_HLOG_MAX_LINE bytes: Hercules never writes a line that long, so a longer one
** (/dev/zero, a binary file) is an error naming the input and the line, not an endless
** buffer.
** Ownership: the parser does not own the writer. Errors: -1 with err set when the
** writer fails, a trace file is damaged or a line is too long; bad lines are statistics,
** not errors.
*/
#ifndef FST_HERCLOG_H
#define FST_HERCLOG_H

#include "capture/read/emit.h"
#include "capture/read/tf.h"
#include "trace/tracebin.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_hlog_stats {
    uint64_t lines;        /* all lines read */
    uint64_t insns;        /* executed instructions written to the trace */
    uint64_t trace_lines;  /* PSW/INST, storage, register, EXRL and spliced disassembly lines */
    uint64_t redisplays;   /* program-check re-displays (not executions) */
    uint64_t pgmchks, waits, gaps;
    uint64_t intrs;        /* I/O and external interruption messages */
    uint64_t svcs;         /* SVC instructions executed (an SVC interruption record each) */
    uint64_t messages;     /* other Hercules messages (HHC...) and their continuation lines */
    uint64_t blank;
    uint64_t unknown;      /* lines that are none of the above */
    uint64_t malformed;    /* trace lines that could not be read */
    uint64_t spliced;      /* of them: lines two CPUs wrote into each other ("CPU0000:  CPU0001:
                              PSW=..."): Hercules 3.13 prints a trace line in pieces, and with
                              several CPUs the pieces interleave; instructions are lost there */
    uint64_t first_unknown_line, first_malformed_line;
    char first_unknown[100], first_malformed[100];
    char last_error[160];  /* the last error message of Hercules' (HHCnnnnnE/S), for reports */
    char hercules[48];     /* version from the banner or HHC01413I, "" when not seen */
    int arch;              /* FST_ARCH_* from the last architecture message (or the hint) */
    char traceopt[16];     /* traditional | regsfirst | noregs, inferred */
    char range[40];        /* the range tracing was last turned on for ("t+ 30000-3BFFF",
                              Hercules saying so), "" when none: the whole machine */
    int disabled_wait;     /* a disabled wait was seen (of any CPU) */
    int ended;             /* the program has ended (capture/read/progend.h: every CPU that ran is
                              in a disabled wait or stopped), as the input so far leaves it */
    unsigned running;      /* CPUs running as the input so far leaves them */
    int limit_hit;         /* max_insns reached: later instructions were not written */
} fst_hlog_stats;

typedef struct fst_hlog fst_hlog;

#define FST_HLOG_MAX_LINE (64u << 10)

/* `name` names the input in messages; `arch` is FST_ARCH_* (or FST_ARCH_UNKNOWN) until the
** log says otherwise; max_insns 0 = no limit. */
fst_hlog *fst_hlog_new(fst_tw *w, const char *name, int arch, uint64_t max_insns);
int fst_hlog_feed(fst_hlog *h, const char *data, size_t n, fst_err *err);
/* The last line, if it had no newline. */
int fst_hlog_finish(fst_hlog *h, fst_err *err);
const fst_hlog_stats *fst_hlog_getstats(const fst_hlog *h);
/* Insist on a trace file (fst-capture --from-tf): an input without "%TF" is an error. */
void fst_hlog_want_tf(fst_hlog *h);
/* The trace-file reader when the input is a trace file, else NULL (also before any byte). */
const fst_tf *fst_hlog_tf(const fst_hlog *h);
void fst_hlog_free(fst_hlog *h);

/* PSW text helpers, shared with tests: parse 8 or 16 PSW bytes from hex text (blanks
** between words allowed); returns the byte count or 0. */
int fst_psw_parse(const char *s, size_t n, uint8_t psw[16]);
/* fst_psw_ia and fst_psw_state (PSW bytes to address and state) are in capture/read/emit.h. */

#endif
