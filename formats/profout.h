/*
** formats/profout.h — what the Unix profiler formats (prof, monout, gmon) share: a
** sampled pc histogram and a stub ELF with the routine symbols.
**
** The histogram (formats/monout.c) is the profil(2) clock, made deterministic: a virtual
** clock ticks `hz` times per second of the fst clock's CPU time (analyze/cost/clock.h), and each
** tick increments the count of the instruction executing when it fires (the one whose
** cost makes the running time cross a multiple of 1/hz s). So one histogram count is one
** tick = 1/hz s, counted in integers: ticks so far = floor(time * hz), never floating
** point. The clock runs only while time is charged to a listed routine: as monitor(3C)
** starts with main and stops at exit, time "outside" the mainline is not profiled, and
** `--exclude` time is dropped as in every report. Hence:
**     samples taken = floor(sum of the routines' self time * hz)   (fortstat's TOTAL)
** and with --clock=mips:0.001 --hz=1000 one count is exactly one instruction.
** hz = 0 (--hz=insns) counts instructions instead of ticks: one count per instruction
** charged to a routine, so samples = the sum of the routines' self instructions.
** A tick on an instruction of an untimed routine (transparent, charged to a timed caller)
** is counted at the charged routine's entry, so that address-based readers (prof, gprof)
** credit the routine the call graph credits.
**
** Ownership: fst_phist_new returns a histogram freed by fst_phist_free; fst_phist_sorted
** returns a malloc'd array the caller frees. Errors: -1 with err set.
*/
#ifndef FST_PROFOUT_H
#define FST_PROFOUT_H

#include "formats/format.h"

#include <stdint.h>

typedef struct fst_phist fst_phist;

typedef struct fst_phist_cell {
    uint32_t addr;          /* 31-bit address (even) */
    uint64_t count;         /* ticks */
} fst_phist_cell;

/* "--hz" of the formats: 1 .. 10^9, or "insns" (0), default `def`. -1 with err naming the value. */
int fst_phist_hz(const fst_fctx *fc, uint64_t def, uint64_t *hz, fst_err *err);
fst_phist *fst_phist_new(uint64_t hz);
void fst_phist_event(void *h, const fst_event *e);     /* a sink (analyze/profile/events.h) */
void fst_phist_free(fst_phist *h);
uint64_t fst_phist_hzof(const fst_phist *h);
uint64_t fst_phist_total(const fst_phist *h);         /* ticks taken */
/* The cells with a count, by increasing address; *n of them (NULL when none). */
fst_phist_cell *fst_phist_sorted(const fst_phist *h, size_t *n);

/* The most bins (u16 counters) one histogram file may hold: 8 MiB of them. gmon and
** monout cut or coarsen a larger span rather than write (and allocate) it whole. */
#define FST_PHIST_MAXBINS (4u << 20)

/* The region to cover: [lowest, highest + 2) of the timed routines' entries and the cells. */
void fst_phist_span(const fst_profile *p, const fst_phist_cell *c, size_t n, uint32_t *lo, uint32_t *hi);

/* Write an ELF32 big-endian S/390 executable (formats/elf.c) holding no code but one
** global STT_FUNC symbol per timed routine of `p` (size up to the next routine, the last
** one up to `hi`), in a NOBITS .text section covering [lo, hi): enough for gprof to name
** the addresses of a gmon.out of a program known only from a load map. */
int fst_write_stub_elf(const char *path, const fst_profile *p, uint32_t lo, uint32_t hi, fst_err *err);
/* 0 when path does not exist or is a stub fst_write_stub_elf wrote (it may be replaced);
** -1 with err set for any other file (never overwritten: a program's own ELF). */
int fst_stub_elf_ours(const char *path, fst_err *err);

/* Big-endian stores (formats/elf.c). */
void fst_be16(unsigned char *b, uint32_t v);
void fst_be32(unsigned char *b, uint32_t v);

#endif
