/*
** formats/uncertain.h — one way for the listings people read (fortstat, prof, tree) to show
** figures that a guess of which task ran could have changed (analyze/tasks/tasks.h; the routine's
** calls_unc and self_unc, csv --meta's '# uncertain:' and json's "uncertain"): a mark after
** the row (" ?"), a line under the heading saying what the mark means, and a footnote with
** each marked routine's bounds (the true figures lie within them).
**
** The texts are built here and written through the listing's own line function (fortstat
** writes ASA records), so the three listings say it in the same words.
** Ownership: nothing kept. Errors: the line function's (nonzero stops, and is returned).
*/
#ifndef FST_UNCERTAIN_H
#define FST_UNCERTAIN_H

#include "analyze/profile/profile.h"

#include <stddef.h>

/* " ?" for a routine with uncertain figures, "" otherwise. */
const char *fst_unc_mark(const fst_routine *r);
/* Whether any of the routines ix[0..n) (all of p's when ix is NULL) is marked. */
int fst_unc_any(const fst_profile *p, const size_t *ix, size_t n);
/* The line under the heading: what the mark means. */
#define FST_UNC_HEADING "UNCERTAIN: the rows marked ? (which task ran was guessed; their bounds below)"
/* The footnote for the marked routines among ix[0..n) (all of p's when ix is NULL): its
** first line, then one a routine; `line(ctx, first, text)`, first = 1 for the first. */
int fst_unc_footnote(const fst_profile *p, const size_t *ix, size_t n, int (*line)(void *ctx, int first, const char *text),
                     void *ctx);

#endif
