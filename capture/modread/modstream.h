/*
** capture/modread/modstream.h — the stream of fst's Hercules module (capture/module/fstmod.c,
** format in capture/module/fstmod_wire.h) turned into trace.bin records, through the same
** emitter as the text trace (capture/read/emit.h), so that a module capture and a text-trace
** capture of the same run give the same trace.bin records and the same reports.
**
** The module records only what sequential execution does not say: taken branches, SVC,
** LPSW and PSW-changing instructions, program interruptions. Every other instruction is
** rebuilt here: from where the CPU last went, instruction after instruction of the
** program's code up to the one the next event is about. The code is the pages the module
** sent (CODE PAGE: each page of code the first time it runs in an address space, and
** again when it has changed: a program read in by I/O, overlaid, or changing itself), per
** address space (CODE SPACE: DAT off, or CR1), in preference to the program's storage
** image (the .ins the capture loaded), which serves DAT-off code the module did not send.
** A space's CR1 becomes the trace's CR1 evidence (fst_em_cr1) when its instructions start. The PSW of each is the one last loaded, with its
** address: what the text trace would have shown (PSW bits that change without an event,
** the condition code and program mask, are not state, trace/tracebin.h FST_ST_*).
** The first instruction is at the IPL PSW's address (the image's 8 bytes at 0); or, for a
** CPU whose records begin with SYNC (a reader that attached to a running system,
** capture/modread/modattach.h; no image then), at SYNC's PSW address: the CPU's trace
** starts there, as a text trace switched on mid-run starts, with SYNC's registers given to
** the emitter as that first instruction's display would give them (fst_em_gr), and its
** space's CR1 (fst_em_cr1). A SYNC later starts the CPU over: nothing of it before is kept
** (a REP cannot copy across it). A CPU's chunks that begin with SYNC are not held for a
** SIGP restart.
** A loop's branches come as one REP record (copies of the last p branches): its
** iterations are given to the emitter one by one until an iteration has left the emitter
** in the state the one before it did, and the rest of them then in one step
** (fst_em_repeat): the records are those of the iterations one by one.
** The task evidence the module records goes to the emitter as a text trace's displays give
** it: the registers after an interruption or LPSW as the next instruction's registers
** (fst_em_gr: the emitter writes REGS for those that changed), an LCTL's control registers
** and a supervisor LM/STM's block address as that instruction's operand (fst_em_operand:
** CR1, OPND).
**
** What it cannot rebuild is an error naming the CPU and the addresses: an event at an
** address that sequential execution from the last one does not reach (an interruption
** the module does not see: external and I/O without the preloaded interposer), or code
** that neither a page sent nor the image holds.
**
** Ownership: the caller owns the emitter and the image, which must outlive the reader.
** Memory: one chunk (at most FSTMOD_MAX_CHUNK bytes), a small state per CPU, and the code
** pages: per CPU at most FSTMOD_CODE_SLOTS of 4 KiB (4 MiB), in the slots the module chose
** (a page put in a slot replaces the one there; the module sends that one again if it runs
** again).
** Errors: -1 with err set (the byte offset in the stream and what did not fit).
*/
#ifndef FST_MODSTREAM_H
#define FST_MODSTREAM_H

#include "capture/hercules/ins.h"
#include "capture/read/emit.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_ms fst_ms;

/* arch: the capture's architecture (FST_ARCH_*: what an 8-byte PSW is; a 16-byte one is
** z/Architecture, after a SIGP set architecture). */
fst_ms *fst_ms_new(fst_em *em, const fst_ins *ins, int arch);
void fst_ms_free(fst_ms *m);
/* The next n bytes of the stream, in any pieces. */
int fst_ms_feed(fst_ms *m, const uint8_t *buf, size_t n, fst_err *err);
/* What the module said first: 0 nothing yet, 1 it records (its text in *text), -1 it
** refused (why in *text). */
int fst_ms_hello(const fst_ms *m, const char **text);
/* The stream ended: 0, or -1 when it ended inside a chunk or a CPU's records never found
** its start (err set). */
int fst_ms_finish(fst_ms *m, fst_err *err);
uint64_t fst_ms_events(const fst_ms *m);   /* module records read */
uint64_t fst_ms_bytes(const fst_ms *m);    /* stream bytes read */
uint64_t fst_ms_pages(const fst_ms *m);    /* code pages received (CODE PAGE ops) */
uint64_t fst_ms_syncs(const fst_ms *m);    /* CPUs' starts in a running system (SYNC ops) */
uint64_t fst_ms_held(const fst_ms *m);     /* bytes of records of CPUs that never started (held) */
uint64_t fst_ms_lines(const fst_ms *m);    /* console lines read (CONS), each once */

/* The system console's lines (CONS: the 3215/1052 console Hercules logs, without the
** newline), each given once to fn, in the order the module numbered them, at the point of
** the instructions where the first CPU that brought it wrote it (its instructions up to there
** are given to the emitter first). fn returns 1 to cut the stream at that line: that CPU's
** records end there, and every other CPU's at its own record of that line (or a later one),
** so that no instruction executed after the line is in the trace (a job's end, --job). */
typedef int (*fst_ms_console_fn)(void *ctx, unsigned cpu, uint64_t seq, const char *text, size_t n);
void fst_ms_on_console(fst_ms *m, fst_ms_console_fn fn, void *ctx);
/* 1 once fn cut the stream; *all (when not NULL) 1 when every CPU that has a PSW has
** reached the cut too (a CPU still short of it may have records on their way). */
int fst_ms_cut(const fst_ms *m, int *all);

#endif
