/*
** formats/filter.h — which part of a profile a report shows: the options every format
** shares, parsed once by fst-report and read by the formats through fst_fctx.filter (one
** layer between the profile and the formats, instead of a copy in each format).
**
**   --routine=PATTERN   (repeatable) a fnmatch(3) glob on routine names: the routines that
**                       match any pattern. A pattern that matches no name exactly is
**                       compared without regard to case; one that matches no routine at all
**                       is an error naming it (fst_filter_bind), never an empty report.
**   --top=N             the N routines with the most self time (ties: load-module order),
**                       printed in the report's own order (--sort); in a tree, the N
**                       heaviest calling contexts.
**   --percent-limit=P   leave out what is under P per cent of the whole (0 to 100, one
**                       decimal at most), in integers.
**
** Each format says which apply to it (fst_format.filters, FST_FILTER_*); fst-report refuses
** the others, naming the formats they are options of. What a listing leaves out it says
** (fst_filter_left: how many rows and their figures), so that no total looks like a sum of
** the rows printed when it is not.
**
** Ownership: the patterns point into argv; the filter owns nothing. Errors: the parse
** functions and fst_filter_bind return -1 with err naming the option and the value.
*/
#ifndef FST_FILTER_H
#define FST_FILTER_H

#include "analyze/profile/profile.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

enum {
    FST_FILTER_TOP = 1,         /* --top applies to the format */
    FST_FILTER_LIMIT = 2,       /* --percent-limit */
    FST_FILTER_ROUTINE = 4,     /* --routine */
    FST_FILTER_UNTIMED = 8,     /* --routine may name a routine that is not timed (annotate) */
};

#define FST_FILTER_MAXPAT 64

typedef struct fst_filter {
    uint64_t top;               /* --top, 0: every row */
    uint64_t limit_tenths;      /* --percent-limit in tenths of a per cent, 0: none */
    int have_limit;
    const char *pat[FST_FILTER_MAXPAT];
    int fold[FST_FILTER_MAXPAT];/* set by fst_filter_bind: compared without regard to case */
    size_t npat;
} fst_filter;

/* What a listing left out: rows, and their calls and self figures added up. */
typedef struct fst_filter_left {
    uint64_t rows, calls, self_insns;
    fst_fx self_cost;
} fst_filter_left;

int fst_filter_top(fst_filter *f, const char *s, fst_err *err);
int fst_filter_limit(fst_filter *f, const char *s, fst_err *err);
/* One more --routine pattern (at most FST_FILTER_MAXPAT). */
int fst_filter_routine(fst_filter *f, const char *pattern, fst_err *err);

/* After the replay: every pattern must match a routine of p (a timed one unless `untimed`);
** -1 with err naming the pattern and the routines there are otherwise. */
int fst_filter_bind(fst_filter *f, const fst_profile *p, int untimed, fst_err *err);

/* Whether a routine's name is kept by --routine (1 when no pattern was given; f may be NULL). */
int fst_filter_keeps(const fst_filter *f, const char *name);
/* For a format that filters as the replay goes (callgrind, speedscope: the stacks through
** the routines kept), before fst-report binds f: per routine of p, 1 when --routine keeps
** it (a copy of f bound to p, its errors left for fst-report's own bind to say). malloc'd,
** p->nr + 1 bytes; free it. */
unsigned char *fst_filter_keep_table(const fst_filter *f, const fst_profile *p);
/* Whether --routine was given at all (f may be NULL). */
static inline int fst_filter_has_routine(const fst_filter *f) { return f && f->npat; }

/* The rows of a listing, ix[0..n) in its order: keeps in place, in the same order, those
** --routine, --percent-limit (self time over `whole`) and --top leave; returns how many.
** *left gets what was left out. f may be NULL (everything kept). */
size_t fst_filter_rows(const fst_filter *f, const fst_profile *p, size_t *ix, size_t n, fst_fx whole,
                       fst_filter_left *left);

/* "--top=3 --routine=SUB*": the options that left rows out, for a listing's last line. */
void fst_filter_said(const fst_filter *f, char *buf, size_t cap);

/* Tenths of a per cent, part over whole, rounded half up, in integers. */
uint64_t fst_filter_tenths(uint64_t part, uint64_t whole);

#endif
