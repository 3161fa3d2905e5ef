/*
** capture/read/tf.h — SDL Hercules 4.x trace files (`tf ON "FILE=x.tf"`, notes/hercules-tf.md)
** read as a stream into trace.bin events, through the emitter the text-log parser uses
** (capture/read/emit.h): the same run gives the same records from its tf file as from its log.
**
** It accepts formats 0, 1 and 2 (Hercules 4.6 to 4.9), either byte order (the file's
** header says which), the 16-byte time stamps of 64-bit Unix builds and the 8-byte ones
** of builds with a 32-bit `long` (Windows), any number of CPU engines, records of several
** CPUs interleaved. What it reads:
**   - an instruction is the group TF02326 (operands), register records, TF02324 (PSW and
**     instruction), kept per CPU until its TF02324 closes it: the architected PSW is
**     rebuilt from Hercules' internal one as Hercules displays it, so the state words
**     equal the text log's; the first operand shown feeds LPSW/LCTL records;
**   - TF02271 (control registers, written for every instruction while DAT is on): CR1
**     becomes a CR record when it is news (the address space), before its instruction;
**   - TF00801 program check (the re-display group after it is not an execution), TF02269
**     with its fetch-error flag (a re-display with no instruction), TF00800 wait PSW,
**     TF00809 disabled wait, TF00804/00806 I/O, TF00840/844-846 external and TF00807
**     machine-check interruptions, TF00811 architecture;
**   - the host time stamp of each instruction and event, as the TIME records a text log's
**     HH:MM:SS stamps give (seconds since local midnight; the microseconds are the
**     emulator's wall clock slowed by tracing, no measure of the program, so unused);
**   - device records (CPU FFFF) and record types it does not know are skipped, counted.
** What it checks, because a tf file has no checksum: the header (magic, format, byte
** order, engines, architectures, version text, processor types, time stamps), and every
** record's length (exact for the types it reads), its link to the previous record, its
** CPU address and architecture, the instruction length against its first byte, and the
** order of a CPU's records (an operand record twice, an instruction or an event inside
** another instruction's group). Any of these is an error naming the byte offset.
** Implausible time stamps are not errors (clocks step): not used, counted as warnings.
**
** A file cut short (Hercules killed while writing, a copy in progress) is read to its last
** whole record: `cut_at` says where. A header Hercules never rewrote (killed before
** `tf OFF` or shutdown) has no end time: `closed` is 0 and its counts are not trusted;
** a closed header whose counts or end time differ from the records' is reported. A
** writer that cannot seek back (a pipe) may append its final header instead: it is read
** as the header, and nothing may follow it.
**
** Feed it bytes in any chunks; memory is constant (one record, at most 64 KiB, and a
** small state per CPU). Ownership: the reader does not own the emitter. Errors: -1 with
** err set, naming the file and byte offset; then stop feeding.
*/
#ifndef FST_TF_H
#define FST_TF_H

#include "capture/read/emit.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_tf_stats {
    uint64_t bytes;            /* bytes read */
    uint64_t records;          /* whole records read */
    uint64_t groups;           /* TF02324 records (instructions shown, re-displays included) */
    uint64_t fetch_errors;     /* TF02269 with the fetch-error flag */
    uint64_t device;           /* device records (CPU FFFF), skipped */
    uint64_t unknown;          /* records of unknown types, skipped */
    uint64_t first_unknown_at; /* byte offset of the first, and its type */
    unsigned first_unknown_type;
    uint64_t warnings;         /* implausible time stamps, header times that disagree */
    char first_warning[160];
    int format;                /* 0, 1 or 2 (-1 before the header) */
    int bigend;
    int tvsize;                /* 16 or 8: bytes of a time stamp */
    unsigned engs;             /* CPU engines of the writer */
    char hercules[48];         /* version from the header, "" when none */
    int arch;                  /* FST_ARCH_* of the last CPU record, FST_ARCH_UNKNOWN before */
    int closed;                /* the header was rewritten at close: its end time and counts hold */
    uint64_t hdr_insns, hdr_dev; /* the counts a closed header gives */
    int64_t beg_sec, beg_usec, end_sec, end_usec;
    int cut;                   /* the input ended inside a record or the header... */
    uint64_t cut_at;           /* ... that begins at this byte */
} fst_tf_stats;

typedef struct fst_tf fst_tf;

/* `name` names the input in messages. */
fst_tf *fst_tf_new(fst_em *em, const char *name);
int fst_tf_feed(fst_tf *t, const void *data, size_t n, fst_err *err);
/* End of the input: a partial record is a cut (stats), not an error. Settles the emitter. */
int fst_tf_finish(fst_tf *t, fst_err *err);
const fst_tf_stats *fst_tf_getstats(const fst_tf *t);
/* After fst_tf_finish: 1 when the file is whole (not cut, closed by Hercules, its header's
** counts those of its records); else 0 and why[cap] says what is missing. */
int fst_tf_complete(const fst_tf *t, char *why, size_t cap);
void fst_tf_free(fst_tf *t);
/* 1 when the n bytes at p begin a trace file ("%TF"), 0 when they do not, -1 when n < 3. */
int fst_tf_magic(const void *p, size_t n);

#endif
