/*
** trace/tracebin.h — trace.bin v2 (and v1): writer (tracebin_write.c) and streaming reader
** (tracebin_read.c); what both share is in tracebin.c and tracebin_int.h.
**
** A trace records *what* executed, once, so that it can be replayed into any report.
** It is written as a stream, in constant memory, and read back the same way.
**
** File layout (all integers little-endian):
**
**   "FSTTRACE"                      8-byte magic
**   frame*                          each frame:  tag[4] | u32 len | payload[len] | u32 crc
**                                   crc = CRC-32 (zlib) of tag, len and payload
**
**   HEAD  first frame. u16 version (1, 2 or 3), then key NUL value NUL ... (see FST_HK_*)
**   IMAG  storage image: u64 absolute address, then the bytes (one per .ins file piece,
**         at most 1 MiB per frame). All IMAG frames precede the first EVNT.
**   EVNT  u64 instructions before this frame, then the event op stream (below).
**   FOOT  last frame. key NUL value NUL ...: counts (FST_FK_*) and "complete" = 1|0.
**
** Version 2 (what the writer writes) packs the bytes of IMAG and EVNT frames with zstd:
**
**   IMAG  u64 address, u32 n, one zstd frame that unpacks to exactly the n image bytes
**   EVNT  u64 instructions before, u32 n, one zstd frame that unpacks to exactly the n
**         bytes of the op stream (at most 256 KiB)
**
** Each frame is packed on its own (no zstd history crosses a frame), so the promises below
** hold for version 2 as they do for version 1, frame for frame; a zstd frame that does not
** unpack to exactly n bytes is damage, an error naming the trace.bin frame's byte offset.
**
** Version 3 (what the writer writes since issue 33's stream) packs IMAG frames as version 2
** does, and its EVNT frames' op streams as one zstd stream:
**
**   EVNT  u64 instructions before, u32 n, u32 CRC-32 (zlib) of the n bytes, then the next
**         piece of the zstd stream of the trace's op bytes, ended by a flush: after the
**         pieces of the EVNT frames before it, it unpacks to exactly the n bytes of this
**         frame's op stream (at most 256 KiB), all of it read. The stream is one or more
**         zstd frames, each ending at a piece's end; its window is at most
**         2^FST_TB_ZSTD_WLOG bytes (64 MiB). (The writer ends the first after its first
**         2 MiB of op bytes, a 2 MiB window: a short trace costs a writer and a reader
**         little memory; then the rest, 64 MiB.) The CRC-32 does what zstd's checksum of a whole
**         frame does in version 2: packed bytes changed and their frame's CRC made to match,
**         or a packing gone wrong, are damage, not a different trace.
**
** A repeat of op bytes as far back as the window then costs a few bytes, not a frame's
** worth each time (tracebin_zstd.c). The pieces are read in order, as the reader reads
** frames anyway: a frame that does not unpack is damage, an error, as in version 2; a file
** cut short is read up to its last whole frame, as before. The op stream is the same in
** every version. Version 1 files (ops 0x59 and 0x5A
** included) are read as before; a version 2 error inside an op stream names the frame's
** byte offset and the op's offset in the unpacked stream.
**
** A file with no FOOT was cut short (crash, kill -9, disk full): it is read up to its
** last whole frame and reported as incomplete. A FOOT with complete=0 is a capture that
** was stopped (Ctrl-C, Hercules died): also readable, also incomplete. A CRC mismatch or
** an op the reader does not know is an error naming the byte offset; so is a frame whose
** length runs past the end of the file while the whole frame is there (its CRC matches at
** a shorter length: the length field is damaged, the file was not cut), a HEAD version
** (the whole u16) other than this reader's, and any byte after the FOOT frame (`cat a b`).
**
** Event op stream. Sequential execution is implied, not stored: the stream keeps a
** *current address* (where the next instruction executes) and a cache of the bytes last
** seen at every instruction address; only what the cache cannot predict is written.
**
**   0x00-0x3F  SEQ n      n+1 instructions execute in sequence from the current address,
**                         each with the bytes cached for its address (cur += len each)
**   0x40-0x4F  JMP k      current address := k-th most recent jump target (moved to front);
**                         k < the header's recent-targets (FST_HK_RECENT: 4 as this writer
**                         writes; 16 when the header does not say, as older traces)
**   0x50       JMPA v     current address := sequential address + zigzag varint v (pushed
**                         to the front of the most recent targets)
**   0x51       INS b..    one instruction at the current address with new bytes (2, 4 or 6,
**                         length from the first byte); the cache learns them
**   0x52       STATE u32  PSW state word (FST_ST_*) from the next instruction on
**   0x53       CPU v      the following records are CPU v's
**   0x54       PGMCHK v u8  the last instruction ended in a program interruption:
**                         code v, ILC u8; it executed once (Hercules' re-display is dropped)
**   0x55       INTR u8 v  an interruption: class (FST_INTR_*), code v (SVC: the SVC number,
**                         written right after the SVC instruction)
**   0x56       WAIT u8 u8 psw..  wait state entered: kind (0 loaded, 1 disabled), PSW length
**                         (8 or 16), PSW bytes
**   0x57       GAP        tracing was off for a while (t-/t+, range): the next address
**                         jump is not the program's
**   0x58       TIME v     the log's wall clock, seconds since midnight (only when it changes)
**   0x59       LPSW v u8 psw..  the last instruction, an LPSW (82) or LPSWE (B2B2), loaded
**                         this PSW: operand address v (under an OS a TCB/RB/save area or a
**                         fixed PSA slot: what says which task runs next), PSW length (8 or
**                         16; 0 = not known), PSW bytes. Written after that instruction and
**                         before the next one; not written when it ended in a program check
**   0x5A       CR u8 v    control register u8 has the value v (64-bit varint) from here on:
**                         loaded by LCTL/LCTLG, or a value the log displayed that differs
**                         from the last one written (the log parser writes CR1 only: the
**                         address space)
**   0x5B       SAMPLE v u8 psw..  a sampled PSW (fst-capture --sample, capture/sample/sample.h): the
**                         host time of the sample in nanoseconds after the previous SAMPLE
**                         (the first: after the sampling began) as a varint, PSW length (8
**                         or 16), PSW bytes. Not an execution: a sampled trace holds no
**                         instructions, only where the CPU was (a wait PSW included) when
**                         it was asked; the header's source is then "sample"
**
**   0x5C       REGS u16 v..  general registers as Hercules showed them with the next
**                         instruction of this CPU (before it executed): the mask's bit r
**                         (bit 0 = R0) says register r follows, as a varint, in order;
**                         the registers a REGS leaves out have the value the last REGS of
**                         this CPU gave them (if it did). Written only by a source that
**                         shows registers (traceopt traditional/regsfirst, tf files) and
**                         only those that changed: evidence of which task runs (DESIGN
**                         §3.9), never needed to rebuild the instructions
**   0x5D       OPND v     the storage operand address Hercules showed for the last
**                         instruction of this CPU (its first operand line): written for a
**                         branch whose successor is neither its fall-through nor this
**                         address (an interruption or a task switch came after it: the
**                         branch target a suspended task may resume at), and for every LM
**                         or STM of all 16 registers in supervisor state (the block a
**                         dispatcher restores a task's registers from, or a handler saves
**                         them to)
**   0x5E       OLDPSW v u8 psw..  a supervisor-state instruction showed the storage at
**                         real address v, an old-PSW slot of the PSA (S/370 and ESA/390
**                         18, 20, 28, 30, 38; z/Architecture 130, 140, 150, 160, 170):
**                         the PSW an interruption stored there, PSW length 8 or 16, bytes
**   0x5F       BASES u16 v..  what the next instruction's storage operand addresses show of
**                         its base registers (a range trace without registers): the mask's
**                         bit r says register r follows, a varint: its value's address bits
**                         (address minus displacement, in the instruction's addressing mode)
**                         where it differs from the last BASES of this CPU. Evidence of which
**                         task runs (a task's R13 is its own save area), as REGS is
**
**   0x80-0xBF  TAKEN n    n+1 instructions execute in sequence as for SEQ n, and the last
**                         of them is a relative branch that branched: current address := the
**                         target its own bytes name (fst_tb_taken_to), which the recent jump
**                         targets do not get (a branch site's own target costs no byte and
**                         takes no place among them). What a SEQ and a JMP or JMPA wrote
**                         before: gcc -O2 code ends most runs in a BRC, BRCT, BRAS or CRJ, and
**                         one byte for the run where there were two or four took a quarter off
**                         its traces (tracebin_write.c jump_to)
**
** The ops 0x59 to 0x5B (to version 1), 0x5C to 0x5F and TAKEN (to version 2) were added
** without changing the version number: an
** older trace is still read by this reader, but a reader older than these ops stops at
** the first of them with an "unknown event op" error naming its byte offset.
**
** Ownership: a writer or reader owns its file descriptor and buffers; fst_tw_close /
** fst_tr_close free everything. Strings returned by the reader live as long as it.
** Errors: -1 / NULL with err filled (file name and byte offset); see common/err.h.
*/
#ifndef FST_TRACEBIN_H
#define FST_TRACEBIN_H

#include "common/bytes.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FST_TRACE_MAGIC "FSTTRACE"
#define FST_TRACE_VERSION 3      /* what fst_tw_open writes */
#define FST_TRACE_VERSION_MIN 1  /* the oldest the reader reads */

/* Header keys. */
#define FST_HK_ARCH     "arch"      /* S/370 | ESA/390 | z/Arch | unknown */
#define FST_HK_SOURCE   "source"    /* capture | log | tf (an SDL Hercules trace file, capture/read/tf.h) */
#define FST_HK_HERCULES "hercules"  /* Hercules version: a footer key (the log says it as it runs) */
#define FST_HK_COMMAND  "command"   /* the capture command line */
#define FST_HK_PROGRAM  "program"   /* the .ins file or log file */
#define FST_HK_RANGE    "range"     /* traced address range, "all" when none */
#define FST_HK_TRACEOPT "traceopt"  /* traditional | regsfirst | noregs | unknown */
#define FST_HK_CLOCK    "clock"     /* source of time stamps: none (a model is chosen at report time) */
#define FST_HK_SAMPLE_HZ "sample-hz" /* a sampled trace: the rate asked for */
#define FST_HK_WINDOW   "window"    /* attach: a window of a running system, from each CPU's start (capture/modread/modattach.h);
                                       job: one job's, from its start line to its end line (capture/modread/modjob.h) */
#define FST_HK_WINDOW_START "window-start" /* window=attach: "ipl" when no CPU had run an instruction as it
                                              began (a reader there before the IPL): the window is the run
                                              from its first record, read as a program's capture is; absent:
                                              the system was running (analyze/replay/replay_int.h midrun) */
#define FST_HK_JOB      "job"       /* the job a window is of (fst-capture --job=NAME with the module) */
#define FST_HK_JOB_CONSOLE "job-console" /* --console=FILE: the job's lines were read from this file */
#define FST_HK_JOB_EDGES   "job-edges"   /* how the window's edges were found, when not exactly (late) */
#define FST_HK_RECENT   "recent-targets" /* the JMP ops name only the N most recent jump targets (k < N, 1-16),
                                            and the reader keeps only N (fst_mru's cap); absent: 16, as
                                            every trace written before the key was (some name k < 16).
                                            This writer writes 4 (FST_TW_MARK_MRU) */

/* Footer keys (decimal values). */
#define FST_FK_COMPLETE     "complete"      /* 1 = the capture ended normally */
#define FST_FK_END          "end"           /* why it ended: disabled-wait (the program's end, capture/read/progend.h), eof, timeout, max-instructions, interrupted, hercules-exited */
#define FST_FK_INSNS        "instructions"
#define FST_FK_PGMCHKS      "program-checks"
#define FST_FK_INTRS        "interruptions" /* INTR records: I/O, external, SVC */
#define FST_FK_WAITS        "waits"
#define FST_FK_LINES        "log-lines"
#define FST_FK_UNKNOWN      "log-lines-not-understood"
#define FST_FK_MALFORMED    "log-lines-malformed"
#define FST_FK_SPLICED      "log-lines-spliced"     /* of them: several CPUs' lines run together */
#define FST_FK_SAMPLES      "samples"       /* SAMPLE records (a sampled trace) */
#define FST_FK_RANGE        "range-seen"    /* a log's traced range, as Hercules said it when
                                               tracing went on ("all": no range); the header's
                                               range is what fst-capture was asked for */

/* PSW state word. */
enum {
    FST_ARCH_S370 = 0, FST_ARCH_ESA390 = 1, FST_ARCH_ZARCH = 2, FST_ARCH_UNKNOWN = 3,
    FST_ST_ARCH_MASK = 0x3,
    FST_ST_EC = 1u << 2,          /* S/370 EC mode */
    FST_ST_AMODE_SHIFT = 3,       /* 0 = 24, 1 = 31, 2 = 64 bit addressing */
    FST_ST_AMODE_MASK = 3u << 3,
    FST_ST_PROBLEM = 1u << 5,     /* problem state (PSW bit 15) */
    FST_ST_DAT = 1u << 6,         /* translation on (PSW bit 5) */
    FST_ST_WAIT = 1u << 7,        /* wait bit (PSW bit 14) */
    FST_ST_IOMASK = 1u << 8,
    FST_ST_EXTMASK = 1u << 9,
    FST_ST_MCMASK = 1u << 10,
    FST_ST_KEY_SHIFT = 12,        /* PSW key, 4 bits */
    FST_ST_ASC_SHIFT = 16,        /* address-space control, 2 bits */
};
static inline int fst_st_arch(uint32_t st) { return (int)(st & FST_ST_ARCH_MASK); }
static inline int fst_st_amode(uint32_t st) { return (int)((st & FST_ST_AMODE_MASK) >> FST_ST_AMODE_SHIFT); }
/* The addresses the state's addressing mode keeps: 24, 31 or 64 bits. */
static inline uint64_t fst_st_amask(uint32_t st)
{
    int am = fst_st_amode(st);
    return am == 0 ? 0xFFFFFFull : am == 1 ? 0x7FFFFFFFull : ~0ull;
}
/* TAKEN's target (the event op stream): the branch target instruction b, at address at,
** names in its own bytes, for the relative branches BRC BRAS BRCT BRCTG (A7x4-7), BRXH
** BRXLE (84, 85), BRCL BRASL (C0x4, C0x5), BRCTH (CCx6), BRXHG BRXLG (EC44, EC45) and the
** compare-and-branch ones CGRJ CLGRJ CRJ CLRJ CGIJ CLGIJ CIJ CLIJ (EC64, EC65, EC76, EC77,
** EC7C-EC7F): at + 2 x the signed halfwords, in the addressing mode of state. UINT64_MAX
** for any other instruction. Writer and reader both say it from the bytes their code
** caches hold for at (tracebin_int.h): the same bytes, the same answer. */
static inline uint64_t fst_tb_taken_to(const uint8_t *b, uint64_t at, uint32_t state)
{
    int64_t d;
    unsigned x = b[1] & 0x0F;
    if ((b[0] == 0xA7 && x >= 4 && x <= 7) || b[0] == 0x84 || b[0] == 0x85 ||
        (b[0] == 0xEC && (b[5] == 0x44 || b[5] == 0x45 || b[5] == 0x64 || b[5] == 0x65 || b[5] == 0x76 ||
                          b[5] == 0x77 || (b[5] >= 0x7C && b[5] <= 0x7F))))
        d = (int16_t)fst_get_be16(b + 2);
    else if ((b[0] == 0xC0 && (x == 4 || x == 5)) || (b[0] == 0xCC && x == 6))
        d = (int32_t)fst_get_be32(b + 2);
    else
        return UINT64_MAX;
    return (at + (uint64_t)(d * 2)) & fst_st_amask(state);
}
const char *fst_arch_name(int arch);
int fst_arch_parse(const char *s); /* -1 when unknown */

enum { FST_INTR_IO = 1, FST_INTR_EXT = 2, FST_INTR_MCHK = 3, FST_INTR_RESTART = 4, FST_INTR_SVC = 5 };

typedef struct fst_kv {
    const char *key;
    const char *value;
} fst_kv;

/* ---- writer ---- */
typedef struct fst_tw fst_tw;
#define FST_TW_MARK_MRU 4   /* the recent jump targets the writer keeps (a JMP names one of them) and a mark */

/* Create (truncate) `path` and write the magic and HEAD; `hdr` ends with {NULL, NULL}. A
** file there that is not a trace (regular, not empty, without the magic) is never replaced:
** NULL with err set (a command never overwrites a file it did not make). */
fst_tw *fst_tw_open(const char *path, const fst_kv *hdr, fst_err *err);
/* The same, writing format `version` (1 or 2; tests and old readers). */
fst_tw *fst_tw_open_version(const char *path, const fst_kv *hdr, unsigned version, fst_err *err);
/* Pack the op stream with less of the host's CPU from here on (zstd's dfast strategy: a
** fifth more bytes on traces of data-driven branches, the same reader): for a capture beside
** a running Hercules on a host with too few cores for both (capture/modread/modpack.h).
** Before the first event. */
void fst_tw_pack_fast(fst_tw *w);
int fst_tw_image(fst_tw *w, uint64_t addr, const uint8_t *p, size_t n, fst_err *err);
/* Event calls buffer in memory; a full frame is written as it fills. They return -1
** only when writing fails (disk full); the error is then sticky. */
int fst_tw_insn(fst_tw *w, uint64_t addr, const uint8_t *bytes, int len);
int fst_tw_state(fst_tw *w, uint32_t state);
/* k instructions in sequence from addr (next: the address after the last, last: the
** last one's address), each of which fst_tw_insn was given before at its address with the
** bytes it has now: what k calls of fst_tw_insn would write, in one step (a source that
** knows the code is unchanged). */
int fst_tw_seq(fst_tw *w, uint64_t addr, uint64_t k, uint64_t next, uint64_t last);
/* The same, given the last instruction's bytes (6, those fst_tw_insn was given; NULL: not
** given): whether the run ends in a TAKEN is then said from them, not looked up. */
int fst_tw_seq_ib(fst_tw *w, uint64_t addr, uint64_t k, uint64_t next, uint64_t last, const uint8_t *last_ib);
/* A point in the event stream (fst_tw_mark_at), so that what is written after it can be
** written again (fst_tw_repeat): a loop whose iterations a source knows to be the same
** calls. The fields are the writer's state at the mark, not the caller's to read. */
typedef struct fst_tw_mark {
    uint64_t frames, insns, cur, events;
    size_t blen;
    int pending, have_state;
    uint32_t state, time;
    unsigned cpu, mru_n;
    uint64_t mru[FST_TW_MARK_MRU];
    uint64_t last;
} fst_tw_mark;
void fst_tw_mark_at(const fst_tw *w, fst_tw_mark *m);
/* `times` more copies of what was written since the mark m, as the same calls would write
** them again: only when the writer is now in the state the mark saw (current address,
** pending sequence, recent jump targets, PSW state, CPU; no byte learned, no event other
** than instructions and jumps, no frame written since) and the copy is short: else 1 and
** nothing written. The frames may break at other places than the calls would have broken
** them (at a copy's end): the same records. 0 done; -1 a write failed (sticky). */
int fst_tw_repeat(fst_tw *w, const fst_tw_mark *m, uint64_t times);
/* Whether fst_tw_repeat would write: the instructions one copy holds, or 0 when it would not. */
uint64_t fst_tw_repeat_ok(const fst_tw *w, const fst_tw_mark *m);
int fst_tw_cpu(fst_tw *w, unsigned cpu);
int fst_tw_pgmchk(fst_tw *w, uint32_t code, unsigned ilc);
int fst_tw_intr(fst_tw *w, unsigned cls, uint32_t code);
int fst_tw_wait(fst_tw *w, unsigned kind, const uint8_t *psw, unsigned pswlen);
int fst_tw_gap(fst_tw *w);
int fst_tw_time(fst_tw *w, uint32_t secs);
/* The PSW an LPSW/LPSWE loaded from `operand` (pswlen 8 or 16; any other length is
** written as 0, PSW not known). Call it after the instruction and before the next. */
int fst_tw_lpsw(fst_tw *w, uint64_t operand, const uint8_t *psw, unsigned pswlen);
/* Control register crno (0-15) has `value` from here on. */
int fst_tw_cr(fst_tw *w, unsigned crno, uint64_t value);
/* Registers shown with the next instruction: those in mask (bit r = register r), from
** gr[r]. The caller leaves out the ones the last REGS gave with the same value. */
int fst_tw_regs(fst_tw *w, uint16_t mask, const uint64_t gr[16]);
/* Base registers' address bits shown by the next instruction's operands (op BASES). */
int fst_tw_bases(fst_tw *w, uint16_t mask, const uint64_t gr[16]);
/* The last instruction's storage operand address (op OPND). */
int fst_tw_opnd(fst_tw *w, uint64_t addr);
/* An old-PSW slot at real address `slot` shown holding psw (8 or 16 bytes). */
int fst_tw_oldpsw(fst_tw *w, uint64_t slot, const uint8_t *psw, unsigned pswlen);
/* A sampled PSW (op SAMPLE) taken `ns` host nanoseconds after the sampling began
** (never less than the previous sample's). */
int fst_tw_sample(fst_tw *w, uint64_t ns, const uint8_t *psw, unsigned pswlen);
uint64_t fst_tw_samples(const fst_tw *w);
/* Push buffered events to the file as a frame now (a live capture does this every
** FST_TW_FLUSH_SECONDS, so that a crash or a kill loses little, and the file under way is
** readable up to then): written when it returns, a frame behind the writer too. */
int fst_tw_flush(fst_tw *w, fst_err *err);
#define FST_TW_FLUSH_SECONDS 1.0
uint64_t fst_tw_insns(const fst_tw *w);
uint64_t fst_tw_bytes(const fst_tw *w);   /* bytes written so far (v1: and buffered) */
/* Write the footer (`ftr` extra keys; counts are added here) and close. `complete` 0
** marks a capture that was stopped. Frees w even on error. */
int fst_tw_close(fst_tw *w, int complete, const char *end, const fst_kv *ftr, fst_err *err);
/* Close without a footer (the file stays readable, reported as cut short). */
void fst_tw_abandon(fst_tw *w);

/* ---- reader ---- */
typedef enum fst_rec_kind {
    FST_REC_END = 0,
    FST_REC_INSN,
    FST_REC_STATE,
    FST_REC_CPU,
    FST_REC_PGMCHK,
    FST_REC_INTR,
    FST_REC_WAIT,
    FST_REC_GAP,
    FST_REC_TIME,
    FST_REC_LPSW,
    FST_REC_CR,
    FST_REC_SAMPLE,
    FST_REC_REGS,
    FST_REC_OPND,
    FST_REC_OLDPSW,
    FST_REC_BASES,
} fst_rec_kind;

typedef struct fst_rec {
    fst_rec_kind kind;
    uint64_t addr;      /* INSN: its address; LPSW, OPND: the operand address; OLDPSW: the
                           slot's address; SAMPLE: the PSW's instruction address */
    uint64_t value;     /* CR: the register's new value; SAMPLE: host ns since sampling began */
    uint8_t len;        /* INSN: 2, 4 or 6 */
    uint8_t bytes[6];   /* INSN */
    uint8_t ilc;        /* PGMCHK */
    uint8_t cls;        /* INTR class; WAIT kind; CR: register number */
    uint8_t pswlen;     /* WAIT, LPSW, SAMPLE, OLDPSW: 8 or 16 (0 = not known) */
    uint8_t psw[16];    /* WAIT, LPSW, SAMPLE, OLDPSW */
    uint16_t cpu;       /* CPU of this record (all kinds) */
    uint32_t state;     /* PSW state in force (all kinds) */
    uint32_t code;      /* PGMCHK, INTR: interruption code (SVC: its number); TIME: seconds;
                           REGS, BASES: the mask of the registers it gives */
    const uint64_t *gr; /* REGS, BASES: 16 registers, those in `code` given (the reader's:
                           valid until the next call) */
} fst_rec;

typedef struct fst_image_seg {
    uint64_t addr;
    size_t len;
    uint8_t *data;
} fst_image_seg;

typedef struct fst_tr fst_tr;

/* Open and read the header and the storage image. */
fst_tr *fst_tr_open(const char *path, fst_err *err);
/* 1 and *rec filled; 0 at the end of the trace (complete or not: see fst_tr_complete);
** -1 on a damaged file (err names the byte offset). */
int fst_tr_next(fst_tr *r, fst_rec *rec, fst_err *err);
/* SEQ runs whole, for a caller that keeps its own decoded copy of the code (the replay,
** analyze/replay/code.h). fst_tr_seq_left: after fst_tr_next returned an instruction, how many
** more follow it in sequence with no other record between them — each at the previous
** one's address + length, on the same CPU, in the same state, with the bytes
** fst_tr_code gives for its address; 0 when the next record may be anything.
** fst_tr_seq_take consumes k <= left of them, as k calls of fst_tr_next would, for a
** caller that has read all k with fst_tr_code (under the current fst_tr_code_epoch);
** `next` is the address after the k-th and `last` its bytes (its length follows from
** them), which say where a TAKEN run goes when k ends it (the caller decoded them: no
** look-up here); fst_tr_seq_take_to, below, takes that target decoded. More than left is
** the caller's bug: abort().
** fst_tr_next_run: fst_tr_next, except at a SEQ run (or what is left of one): 2, with
** rec->kind FST_REC_INSN and rec's addr, cpu and state those of its first instruction, but
** no instruction handed out (len 0, bytes untouched), and rec->value and fst_tr_seq_left
** the run's whole length (>= 1, that one included). The caller takes instructions with
** fst_tr_seq_take, or the next one with fst_tr_next (as a caller with no copy of its bytes
** does: the reader then says what is wrong when the code cache has none). For the replay,
** whose decoded blocks hold the run's first instruction already.
**
** The three are inline: the replay calls them once per jump, and a call's register saves
** were most of what reading a jump cost (fst_tr_next_run always: called from the replay's
** two loops, gcc kept it out of line, ~10 host instructions a run more on cgen -O2). They
** read and move only the cursor below, which is the first member of struct fst_tr
** (tracebin_read.c), so that a fst_tr pointer is a pointer to it; everything else in
** fst_tr stays the reader's own, and no caller reads or writes the cursor itself (it is
** not an interface). What the inline functions rely on:
**   - p..end is the current EVNT frame's op stream (p == end before the first frame, at
**     a frame's end and at the trace's end: then the slow path, fst_tr_next_run_slow,
**     reads the next frame or ends; p never moves past an op that was an error);
**   - two bytes 0xFF (neither SEQ nor JMP) follow end, always (a frame's buffer has room
**     for them; with no frame, p and end point at two such bytes of the reader's), so
**     that the fast path reads the op at p and the one after it with no bound check;
**   - seq > 0 only right after a SEQ op was read (p is past it, nothing else read since:
**     the op is at p - 1, which the reader's errors name);
**   - insns counts a SEQ run whole from when its op is read (fst_tr_insns: insns - seq);
**   - cpu, state and cur are those of the next instruction; jm.a[0..jm.n-1] the recent
**     jump targets, most recent first, at most jm.cap of them (a version 2 trace's JMP k may
**     name any k < 16; this writer names k < 4, keeps only those 4 (tracebin_write.c
**     jump_out) and says so in the header, FST_HK_RECENT, so that its reader keeps 4 too);
**   - jfast is what fst_tr_jfast(jm.n) says: the reader sets it whenever jm.n changes.
** The fast path takes a SEQ op, or a JMP k to one of the 4 most recent targets (k < jm.n)
** and the SEQ op after it, both in the frame; any other op, a bad one included, and a
** frame's end go to fst_tr_next_run_slow, which reads them as fst_tr_next does: the
** records, errors and byte offsets are the same (tests/unit/test_tracebin_run.c). */
#define FST_TR_MRU 16   /* recent jump targets kept (format: the JMP op's k, 0-15) */
#define FST_MRU_BUCKETS 64
typedef struct fst_mru {
    uint64_t a[FST_TR_MRU];
    int n;
    /* how many it keeps (1 to FST_TR_MRU): 16 for a trace whose JMP ops may name any of 16,
    ** 4 for one that says it names only the 4 most recent (FST_HK_RECENT, what this writer
    ** writes). The first 4 of a move-to-front list are the same whether it keeps 4 or 16,
    ** and keeping 4 makes a JMPA's look and move short: -4.5 % of the replay's host
    ** instructions on call-heavy branchy code (cgen seed 27514), where most runs end in a
    ** JMPA. */
    int cap;
    /* how many of a[0..n-1] fall in each bucket (fst_mru_bucket): a target whose bucket is
    ** empty is not in the list, and is known so without a look. In branchy code most
    ** JMPAs go to a target not among the 16 (tracebin_write.c), and comparing all 16 was
    ** a tenth of the replay's host instructions. Only fst_mru_front changes which
    ** addresses are in a[]; a caller that moves them about in a[0..n-1] itself
    ** (fst_tr_fast_skip) keeps the buckets right. */
    uint8_t in[FST_MRU_BUCKETS];
} fst_mru;
static inline unsigned fst_mru_bucket(uint64_t addr) { return (unsigned)((addr * 0x9E3779B97F4A7C15ull) >> 58); }
/* Where addr is in the list (-1: not there); move entry k to the front (its address addr),
** or insert addr at the front when k < 0, the last one dropped when the list is full. Inline:
** the writer and the reader do them at every jump (a call and a memmove were a fifth of
** reading one, a tenth of fst-capture's rebuild of a branchy program). */
static inline int fst_mru_find(const fst_mru *m, uint64_t addr)
{
    if (!m->in[fst_mru_bucket(addr)])
        return -1;
    for (int i = 0; i < m->n; i++)
        if (m->a[i] == addr)
            return i;
    return -1;
}

/* Move entry k to the front (its address addr), or insert addr at the front when k < 0,
** without a memmove: a call and its size's branches were a fifth of a move's cost, and in
** call-heavy branchy code (cgen) most JMPAs move a target from k >= 4. */
static inline void fst_mru_front(fst_mru *m, int k, uint64_t addr)
{
    if (k < 0) { /* insert */
        if (m->n < m->cap)
            k = m->n++;
        else {
            k = m->cap - 1;
            m->in[fst_mru_bucket(m->a[k])]--;
        }
        m->in[fst_mru_bucket(addr)]++;
    }
    _Static_assert(FST_TR_MRU == 16, "fst_mru_front moves up to 15 entries");
    switch (k) {    /* entries k-1 .. 0 one down, unrolled: no call, k moves */
    case 15: m->a[15] = m->a[14]; /* fall through */
    case 14: m->a[14] = m->a[13]; /* fall through */
    case 13: m->a[13] = m->a[12]; /* fall through */
    case 12: m->a[12] = m->a[11]; /* fall through */
    case 11: m->a[11] = m->a[10]; /* fall through */
    case 10: m->a[10] = m->a[9]; /* fall through */
    case 9: m->a[9] = m->a[8]; /* fall through */
    case 8: m->a[8] = m->a[7]; /* fall through */
    case 7: m->a[7] = m->a[6]; /* fall through */
    case 6: m->a[6] = m->a[5]; /* fall through */
    case 5: m->a[5] = m->a[4]; /* fall through */
    case 4: m->a[4] = m->a[3]; /* fall through */
    case 3: m->a[3] = m->a[2]; /* fall through */
    case 2: m->a[2] = m->a[1]; /* fall through */
    case 1: m->a[1] = m->a[0]; /* fall through */
    default: break;
    }
    m->a[0] = addr;
}

typedef struct fst_tr_cursor {
    const uint8_t *p, *end;   /* the op stream: the next op, the end of the frame's */
    uint64_t cur;             /* where the next instruction executes */
    uint64_t insns;           /* instructions read so far, and the rest of the SEQ run (seq) */
    uint32_t seq;             /* instructions of the SEQ run at cur not handed out yet */
    uint32_t state;           /* PSW state in force */
    uint16_t cpu;             /* CPU of the next record */
    uint16_t taken;           /* the SEQ run open (seq > 0) is a TAKEN's: at its end, its
                                 last instruction's target (fst_tr_seq_take) */
    fst_mru jm;               /* recent jump targets */
    unsigned jfast;           /* the JMP ops the fast path takes: the two ops at p, as
                                 p[0] | p[1] << 8, masked with jfast are 0x0040 for a JMP k
                                 (k < jm.n, k <= 3; k <= 1 when jm.n is 3) followed by a SEQ
                                 or a TAKEN (bit 6 clear: 0x00-0x3F, 0x80-0xBF) */
} fst_tr_cursor;

/* For the inline functions only: fst_tr_next_run where its fast path stops, and the abort
** of fst_tr_seq_take. */
int fst_tr_next_run_slow(fst_tr *r, fst_rec *rec, fst_err *err);
FST_NORETURN void fst_tr_seq_overrun(void);
/* A TAKEN run ended at an instruction that names no target (damage): the reader's next
** record is the error, naming the op. */
void fst_tr_taken_bad(fst_tr *r);

/* jfast for n recent targets (0x40 of the second op: a SEQ or a TAKEN). */
static inline unsigned fst_tr_jfast(int n) { return n <= 0 ? 0 : n == 1 ? 0x40FF : n <= 3 ? 0x40FE : 0x40FC; }

/* Repeated stretches of the op stream, for a caller that knows a stretch leaves it where it
** found it (analyze/replay/replay_fold.c: a loop's period). A mark is the reader's position and
** state between two records (no SEQ run open); fst_tr_mark_here fills one and says 0 when the
** reader is inside a run. fst_tr_mark_span(a, b, ops, max, insns): the bytes from mark a to
** a later mark b, copied to ops, when the reader was in the same state at both (address,
** state, CPU, recent jump targets), both in the same frame, at most max bytes apart, and
** in *insns the instructions between; else 0. Then the reader is
** deterministic: from that state, those bytes hand out the same records and come back to
** the same state. fst_tr_skip_repeats(r, a, ops, n, insns): while the reader is at a mark
** in a's state and the frame's next n bytes are ops (a span from a: the frame they were in
** may be gone, hence the copy), it moves past them as reading them would, counting
** insns instructions each time; returns how many times. The caller guarantees only that it
** would have taken the records whole (fst_tr_seq_take of each run's full length). */
typedef struct fst_tr_mark {
    fst_tr_cursor c;
    uint64_t frame;     /* which EVNT frame (the reader reuses its buffers) */
} fst_tr_mark;
int fst_tr_mark_here(const fst_tr *r, fst_tr_mark *m);
/* Whether the reader was in the same state at marks a and b (address, state, CPU, recent
** jump targets): what fst_tr_skip_to asks of its at and a. Op bytes without a JMP k (a JMPA
** says its target itself) mean the same from states that differ in the recent targets, yet
** leave the reader in different ones: the same bytes, from two states, are two stretches. */
int fst_tr_mark_same_state(const fst_tr_mark *a, const fst_tr_mark *b);
/* Stretches that do not come back (analyze/replay/replay_memo.c: a call's whole subtree):
** fst_tr_mark_copy is fst_tr_mark_span without the same state at both ends (ops may be NULL:
** only the length and *insns). fst_tr_skip_to(r, at, a, ops, n, b): at is a mark taken at
** the reader's position (the records read since are dropped); when it is in a's state, in
** the reader's frame, and the next n bytes are ops (copied from a to b), the reader moves
** past them into b's state, as reading them would, and 1; else 0 and nothing moved. */
size_t fst_tr_mark_copy(const fst_tr_mark *a, const fst_tr_mark *b, uint8_t *ops, size_t max, uint64_t *insns);
int fst_tr_skip_to(fst_tr *r, const fst_tr_mark *at, const fst_tr_mark *a, const uint8_t *ops, size_t n,
                   const fst_tr_mark *b);
size_t fst_tr_mark_span(const fst_tr_mark *a, const fst_tr_mark *b, uint8_t *ops, size_t max, uint64_t *insns);
uint64_t fst_tr_skip_repeats(fst_tr *r, const fst_tr_mark *a, const uint8_t *ops, size_t n, uint64_t insns);

static inline fst_tr_cursor *fst_tr_cursor_of(fst_tr *r) { return (fst_tr_cursor *)(void *)r; }

static inline uint32_t fst_tr_seq_left(const fst_tr *r) { return ((const fst_tr_cursor *)(const void *)r)->seq; }

/* A TAKEN run's end handed out: the cursor goes to `to`, what fst_tb_taken_to says of its
** last instruction (UINT64_MAX: it names no target, damage). */
static inline void fst_tr_taken_go(fst_tr *r, uint64_t to)
{
    fst_tr_cursor *c = fst_tr_cursor_of(r);
    c->taken = 0;
    if (to == UINT64_MAX)
        fst_tr_taken_bad(r);
    else
        c->cur = to;
}

/* A TAKEN run's last instruction (bytes last, at address at) handed out: the cursor goes
** where its bytes say (fst_tr_seq_take and the reader's one-by-one path alike). */
static inline void fst_tr_taken_end(fst_tr *r, const uint8_t *last, uint64_t at)
{
    fst_tr_taken_go(r, fst_tb_taken_to(last, at, fst_tr_cursor_of(r)->state));
}

/* k of the run's instructions taken; 1 when that ends a TAKEN run (the caller says where
** it goes: fst_tr_taken_end or fst_tr_taken_go). */
static inline int fst_tr_seq_took(fst_tr *r, uint32_t k, uint64_t next)
{
    fst_tr_cursor *c = fst_tr_cursor_of(r);
    uint32_t left = c->seq - k;
    if (left > c->seq) /* a caller's bug, not damage: never hand out more than the run holds */
        fst_tr_seq_overrun();
    c->seq = left;
    c->cur = next;
    return !left && c->taken;
}

static inline void fst_tr_seq_take(fst_tr *r, uint32_t k, uint64_t next, const uint8_t *last)
{
    if (fst_tr_seq_took(r, k, next))   /* a TAKEN run's end: its last instruction's target */
        fst_tr_taken_end(r, last, next - (uint64_t)fst_insn_len(last[0]));
}

/* fst_tr_seq_take for a caller that knows what fst_tb_taken_to says of the k-th
** instruction's bytes at its address in the run's state (`to`: decoded once with the
** code, analyze/replay/code.h fst_blk.to), so that a TAKEN run's end costs no decoding:
** the replay takes one such end a run, and decoding it was a twentieth of its time on
** branchy code (cgen -O2). */
static inline void fst_tr_seq_take_to(fst_tr *r, uint32_t k, uint64_t next, uint64_t to)
{
    if (fst_tr_seq_took(r, k, next))
        fst_tr_taken_go(r, to);
}

/* Stretches of runs replayed from a memo (analyze/replay/replay_chunk.c, and skipped by
** model/space_ev_skip.c): SEQ and TAKEN runs, each after at most one JMP to a recent target
** or one JMPA. fst_tr_here: 1, and *at filled, when the reader is between records (no SEQ
** run open): the op bytes it reads next (avail of them in the frame; two more past them are
** readable), where the next instruction is, its state and CPU, and the recent jump targets
** (and their buckets' counts, fst_mru.in); else 0. fst_tr_fast_ops: whether ops[0..n-1] are
** such runs without a JMPA, with every JMP's k < nrecent; *m: the largest k (-1: no JMP),
** *runs: how many (space_ev_skip.c's loops: from a state that comes back whole).
**
** fst_tr_fast_deps: what such runs, read from the list `start` with run i beginning at
** addr[i] (naddr at most), depend on of the recent targets and what they leave there: a JMP
** names a place in the list, a JMPA a target that is either there (moved to the front) or
** not (put in front, the last dropped when the list is full). The places jumped to hold
** either targets the runs put in front themselves or start's, and start's keep their order
** behind the others: so from the same address (and code: a TAKEN goes where its branch's
** bytes say), the same bytes hand out the same runs and leave the same list when the
** targets of start they jump to are the same (d->used, bit i: start->a[i]) and the JMPA
** targets they did not find in the list are not there either from the other start
** (d->absent[j], fst_tr_fast_absent: not among start's targets whose bits d->among[j] has,
** those the list still held when that JMPA came, had it been full). They leave the list
** d->front[0..nfront-1] (what they put in front, most recent first), then the start's
** targets not used, in order, as many as the list keeps (with no JMPA target absent, the
** same addresses in another order). Returns 0 when they are not such runs, name a place
** the list does not have, or are more than naddr runs or FST_TR_DEP_RUNS (or their
** addresses do not agree with the list: the caller's bug). fst_tr_fast_skip: the reader,
** between records and with at least n such bytes next (the caller compared them and the
** conditions), moves past them into that state (nabsent: d->nabsent), cur as given, insns
** instructions more read. */
typedef struct fst_tr_at {
    const uint8_t *ops;
    size_t avail;
    uint64_t cur;
    uint32_t state;
    uint16_t cpu;
    int nrecent;
    const uint64_t *recent;
    const uint8_t *in;      /* fst_mru.in: how many of recent[] fall in each bucket */
} fst_tr_at;
int fst_tr_fast_ops(const uint8_t *ops, size_t n, int nrecent, int *m, uint32_t *runs);

#define FST_TR_DEP_RUNS 32  /* runs fst_tr_fast_deps takes at most */
typedef struct fst_tr_deps {
    uint32_t runs;
    uint16_t used;
    uint8_t nfront, nabsent;
    uint64_t front[FST_TR_MRU];
    uint64_t absent[FST_TR_DEP_RUNS];
    uint16_t among[FST_TR_DEP_RUNS];
} fst_tr_deps;
int fst_tr_fast_deps(const uint8_t *ops, size_t n, const fst_mru *start, const uint64_t *addr, uint32_t naddr,
                     fst_tr_deps *d);

static inline int fst_tr_fast_absent(const fst_tr_at *at, uint64_t t, unsigned among)
{
    if (!at->in[fst_mru_bucket(t)])
        return 1;
    for (among &= (1u << at->nrecent) - 1; among; among &= among - 1)
        if (at->recent[__builtin_ctz(among)] == t)
            return 0;
    return 1;
}

/* The list fst_tr_fast_deps says runs leave (see there) from m, into out: how many. */
static inline int fst_tr_deps_list(const fst_mru *m, unsigned used, const uint64_t *front, int nfront,
                                   uint64_t out[FST_TR_MRU])
{
    int k = 0;
    for (int i = 0; i < nfront; i++)
        out[k++] = front[i];
    for (int i = 0; i < m->n && k < m->cap; i++)
        if (!(used >> i & 1))
            out[k++] = m->a[i];
    return k;
}

static inline int fst_tr_here(const fst_tr *r, fst_tr_at *at)
{
    const fst_tr_cursor *c = (const fst_tr_cursor *)(const void *)r;
    if (c->seq)
        return 0;
    *at = (fst_tr_at){ c->p, (size_t)(c->end - c->p), c->cur, c->state, c->cpu, c->jm.n, c->jm.a, c->jm.in };
    return 1;
}

/* Whether the next op is such a run (a SEQ, a JMP to a recent target and a SEQ, or a JMPA
** of a one- or two-byte varint and a SEQ) in the frame: what fst_tr_next_run would hand out
** as a run at once. Its op bytes (1 to 4), or 0. */
static inline int fst_tr_fast_next(const fst_tr *r)
{
    const fst_tr_cursor *c = (const fst_tr_cursor *)(const void *)r;
    const uint8_t *p = c->p;
    if (c->seq || p >= c->end)
        return 0;
    if (!(p[0] & 0x40))     /* SEQ or TAKEN */
        return 1;
    if ((p[0] & 0xF0) == 0x40)
        return (int)(p[0] & 0x0F) < c->jm.n && p + 1 < c->end && !(p[1] & 0x40) ? 2 : 0;
    if (p[0] != 0x50)       /* (p[1] and p[2] readable: see fst_tr_next_run's JMPA) */
        return 0;
    int nv = p[1] < 0x80 ? 1 : p[2] < 0x80 ? 2 : 0;
    return nv && p + 1 + nv < c->end && !(p[1 + nv] & 0x40) ? 2 + nv : 0;
}

static inline void fst_tr_fast_skip(fst_tr *r, size_t n, uint64_t insns, uint64_t cur, unsigned used,
                                    const uint64_t *front, int nfront, int nabsent)
{
    fst_tr_cursor *c = fst_tr_cursor_of(r);
    fst_mru *m = &c->jm;
    c->p += n;
    c->insns += insns;
    c->cur = cur;
    if (!nfront)
        return;     /* no jump: the list as it was */
    uint64_t t[FST_TR_MRU];
    int k = fst_tr_deps_list(m, used, front, nfront, t);
    /* other addresses: the buckets follow, counted from t, not from a[] once the memcpy
    ** has written it (reading back what a memcpy just stored stalls the host's store
    ** forwarding: these loops were a tenth of gen.py seed 37146's replay, 0.52 -> 0.48 s) */
    if (nabsent) {
        for (int i = 0; i < m->n; i++)
            m->in[fst_mru_bucket(m->a[i])]--;
        for (int i = 0; i < k; i++)
            m->in[fst_mru_bucket(t[i])]++;
    }
    memcpy(m->a, t, (size_t)k * sizeof *t);
    if (m->n != k) {
        m->n = k;
        c->jfast = fst_tr_jfast(k);
    }
}

static inline __attribute__((always_inline)) int fst_tr_next_run(fst_tr *r, fst_rec *rec, fst_err *err)
{
    fst_tr_cursor *c = fst_tr_cursor_of(r);
    uint32_t seq = c->seq;
    uint64_t cur = c->cur;
    if (!seq) {
        const uint8_t *p = c->p;    /* p <= end, and two 0xFF follow end: no comparison */
        unsigned w = (unsigned)p[0] | (unsigned)p[1] << 8;
        if ((w & c->jfast) == 0x0040) { /* JMP k < min(jm.n, 4), then SEQ or TAKEN */
            unsigned k = w & 3;
            cur = c->jm.a[k];
            fst_mru_front(&c->jm, (int)k, cur);
            c->cur = cur;
            seq = ((w >> 8) & 0x3F) + 1;
            c->taken = (uint16_t)(w >> 15);
            c->p = p + 2;
        } else if (!(w & 0x40)) { /* SEQ or TAKEN */
            seq = (w & 0x3F) + 1;
            c->taken = (uint16_t)((w >> 7) & 1);
            c->p = p + 1;
        } else {
            /* JMPA of one or two varint bytes, then SEQ or TAKEN (a branch site's target not among
            ** the 4 nearest, branchy code: tracebin_write.c). The two bytes past end are
            ** 0xFF: a byte is read only where the one before is real (an op, or a varint
            ** byte that says more follow), and 0xFF is neither the end of a varint, a SEQ nor a TAKEN. */
            if (p[0] != 0x50)   /* (0xFF at end: p[0] is real from here on) */
                return fst_tr_next_run_slow(r, rec, err);
            unsigned nv = p[1] < 0x80 ? 1 : p[2] < 0x80 ? 2 : 0;
            if (!nv || p[1 + nv] & 0x40)
                return fst_tr_next_run_slow(r, rec, err);
            cur += (uint64_t)fst_unzigzag(nv == 1 ? p[1] : ((uint64_t)p[1] & 0x7F) | (uint64_t)p[2] << 7);
            int n0 = c->jm.n;
            fst_mru_front(&c->jm, fst_mru_find(&c->jm, cur), cur);
            if (c->jm.n != n0)
                c->jfast = fst_tr_jfast(c->jm.n);
            c->cur = cur;
            seq = (p[1 + nv] & 0x3Fu) + 1u;
            c->taken = (uint16_t)(p[1 + nv] >> 7);
            c->p = p + 2 + nv;
        }
        c->seq = seq;
        c->insns += seq;
    }
    rec->kind = FST_REC_INSN;
    rec->addr = cur;
    rec->len = 0;
    rec->value = seq;
    rec->cpu = c->cpu;
    rec->state = c->state;
    return 2;
}

/* The bytes the trace's code cache holds for addr, which a SEQ run executes there: the
** length (2, 4 or 6; bytes past it are 0), or 0 when it holds none (bytes untouched). */
int fst_tr_code(fst_tr *r, uint64_t addr, uint8_t bytes[6]);
/* Changes whenever an INS op replaces bytes the code cache held for an address (code
** modified, or another instruction at that address); new addresses do not change it. Bytes
** read with fst_tr_code stay what SEQ runs execute while the epoch stays the same. */
uint64_t fst_tr_code_epoch(const fst_tr *r);
/* Where the epoch is kept, for a caller that reads it often without a call: valid, and
** always the current epoch, until fst_tr_close. */
const uint64_t *fst_tr_code_epoch_at(const fst_tr *r);
/* Whether the code cache's instructions that start in [lo, hi] (addresses) are all as they
** were when the epoch was e: no INS replaced one since. Kept per granule of 2^FST_TR_GRANULE
** addresses (a granule is "replaced since" when any instruction starting in it was): what
** code decoded at epoch e needs to be right still, after the epoch moved for bytes
** elsewhere (an operating system's dispatch to an address space whose code differs at the
** same addresses replaces bytes at every switch; the nucleus's code stays). */
#define FST_TR_GRANULE 8
int fst_tr_code_same_since(const fst_tr *r, uint64_t lo, uint64_t hi, uint64_t e);
const char *fst_tr_header(const fst_tr *r, const char *key);   /* NULL when absent */
const char *fst_tr_footer(const fst_tr *r, const char *key);   /* after the end only */
/* After fst_tr_next returned 0: 1 when the footer says complete. When not, *why says
** what is missing ("cut short at byte N, after instruction K" / "stopped: interrupted"). */
int fst_tr_complete(const fst_tr *r, const char **why);
uint64_t fst_tr_insns(const fst_tr *r);      /* instructions read so far */
const fst_image_seg *fst_tr_image(const fst_tr *r, size_t *n);
/* Copy n bytes at absolute addr from the image; 0 when all are present, -1 otherwise. */
int fst_image_read(const fst_image_seg *segs, size_t nseg, uint64_t addr, uint8_t *out, size_t n);
const char *fst_tr_path(const fst_tr *r);
unsigned fst_tr_version(const fst_tr *r);

/* What the frames read so far hold, per kind: how many, their payload bytes as stored,
** and as unpacked (equal in version 1 and for HEAD and FOOT). */
enum { FST_FRAME_HEAD, FST_FRAME_IMAG, FST_FRAME_EVNT, FST_FRAME_FOOT, FST_FRAME_KINDS };
typedef struct fst_frame_stats {
    uint64_t frames, stored, unpacked;
} fst_frame_stats;
const fst_frame_stats *fst_tr_frame_stats(const fst_tr *r);   /* FST_FRAME_KINDS entries */
void fst_tr_close(fst_tr *r);

#endif
