/*
** formats/diffflame.h — a differential flame graph of two runs (fst-diff --format=svg) and
** its data as difffolded lines (--format=folded): `STACK A B`, the stack's self figure in
** run A and in run B, as Brendan Gregg's difffolded.pl writes them and flamegraph.pl reads
** them.
**
** Each side is replayed with folded.c's aggregate as a sink (fst_dflame_sink, given to
** analyze/diff/diff.h's fst_dload_opts.sink); fst_dflame_take, called while the side's profile
** lives (fst_dload_opts.replayed), merges its stacks by routine names into one tree, so
** that a stack found in one run only has 0 in the other. Figures are nanoseconds of the
** chosen clock (fst_fx_to_ns of each stack's exact sum) or, with `insns`, instructions.
**
** The SVG: frames as fst's own flame graph draws them (formats/svg.c: timed routines
** outermost first, siblings in name order), widths from run B's inclusive figures, the
** colour from the change against A (red: grew, blue: shrank, the stronger the larger the
** change relative to A's figure; a stack new in B full red), each frame's tooltip with
** both runs' figures and the change; stacks that ran in A only have no width in B and are
** counted in the title instead.
**
** Ownership: fst_dflame_new's result is freed by fst_dflame_free, which also ends the
** sides' aggregates. Errors: writing only (-1, errno set).
*/
#ifndef FST_DIFFFLAME_H
#define FST_DIFFFLAME_H

#include "analyze/profile/events.h"
#include "analyze/profile/profile.h"

#include <stdio.h>

typedef struct fst_dflame fst_dflame;

fst_dflame *fst_dflame_new(int insns);
/* The sink of side 0 (A) or 1 (B), for its replay. */
void fst_dflame_sink(fst_dflame *f, int side, fst_sink *out);
/* After side `side`'s replay, with its profile: its stacks into the tree. */
void fst_dflame_take(fst_dflame *f, int side, const fst_profile *p);
int fst_dflame_write_folded(const fst_dflame *f, FILE *out);
/* titles: the two sides' names, for the heading */
int fst_dflame_write_svg(const fst_dflame *f, FILE *out, const char *a, const char *b);
void fst_dflame_free(fst_dflame *f);

#endif
