/*
** formats/annotate.h — where in a routine the time goes: an assembler listing of a routine
** with, per instruction, its executions, time and share, and for branches how often they
** were taken (--format=annotate; the listing callgrind's `fl=` names).
**
** The aggregate is a sink of EXEC events keyed by (routine charged, instruction address):
** its counts are the replay's own, so a routine's lines add up exactly to its self figures
** (csv's self_instr and self_sec). Instructions charged to no routine (outside, excluded)
** are not kept.
**
** The listing of routine R covers R's code, from its entry to the next routine's entry
** (or the end of its piece of the storage image): an executed address prints its
** instruction in the assembler's notation (isa/decode.h fst_disasm), the FORTRAN
** identifier after a 47F0F00C entry prints as DC X'06'/X'07' and the name, and every
** other byte (constants, save areas, code that never ran) prints as data (DC). The
** instructions charged to R that lie outside that range (an untimed routine's, charged to
** its timed caller) follow under "charged to R, elsewhere". The three hottest lines are
** marked; colour is used only when `color` is set (the caller decides: a terminal).
**
** A sampled trace (fst_profile.sampled, analyze/profile/sampled.h) lists samples instead: a
** heading says so, each line has the samples that fell on the instruction and their share
** of the routine's, no time (host time, not the program's) and no branch counts (a sample
** does not see where control went); bytes no sample fell on are decoded from the storage
** image as instructions until an opcode is unknown (the code ran, unseen), then data.
**
** Ownership: fst_annot_new's result is freed by fst_annot_free. Errors: writing only.
*/
#ifndef FST_ANNOTATE_H
#define FST_ANNOTATE_H

#include "formats/format.h"

#include <stdio.h>

typedef struct fst_annot fst_annot;

fst_annot *fst_annot_new(void);
void fst_annot_event(void *a, const fst_event *e);
/* List every timed routine that executed, or those `only` keeps (formats/filter.h: --routine,
** timed or not, then --percent-limit and --top on self time) when not NULL; a last line says
** how many it left out. Returns 0, or -1 with err set. */
int fst_annot_write(fst_annot *a, FILE *out, const fst_fctx *fc, const fst_profile *p, const fst_filter *only,
                    int color, fst_err *err);
/* After fst_annot_write: the line (from 1) of the instruction at addr charged to routine
** fn in the listing written, or 0 when it has none. */
uint64_t fst_annot_line(const fst_annot *a, size_t fn, uint64_t addr);
void fst_annot_free(fst_annot *a);

#endif
