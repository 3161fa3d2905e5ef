/*
** model/stmttab_int.h — inside the statement table (model/stmt*.c only): its storage, and
** what its readers share. The contract is model/stmttab.h.
*/
#ifndef FST_STMTTAB_INT_H
#define FST_STMTTAB_INT_H

#include "model/stmttab.h"
#include "common/map.h"

typedef struct fst_stmt_range {   /* [lo, hi) of a statement, unit-relative (ELF: absolute) */
    size_t stmt;
    uint64_t lo, hi;
} fst_stmt_range;

typedef struct fst_stmt_chunk {   /* object code a unit must have in the image: pool[at..at+n) */
    size_t unit;
    uint64_t off;
    size_t at, n;
} fst_stmt_chunk;

typedef struct fst_stmt_point {   /* a range's start or end, for cutting spans */
    uint64_t at;
    int start;
    size_t stmt;
} fst_stmt_point;

struct fst_stmt_tab {
    fst_stmt_unit *u;
    size_t nu, ucap;
    fst_stmt *s;
    size_t ns, scap;
    fst_stmt_range *r;
    size_t nr, rcap;
    fst_stmt_chunk *c;
    size_t nc, ccap;
    uint8_t *pool;
    size_t npool, poolcap;
    char **strs;            /* every string the table owns */
    size_t nstrs, strcap;
    const char **files;     /* distinct file names (in strs) */
    size_t nfiles, filecap, lastfile;
    fst_map byk;            /* (unit, file, line) -> statement */
    fst_stmt_span *sp;
    size_t nsp;
    size_t *ids;            /* spans' statements */
    size_t nids;
};

/* A copy of s that the table owns (NULL for NULL). */
const char *fst_stmt_keep(fst_stmt_tab *t, const char *s);
/* The first s in buf[0..len), NULL when none. */
const char *fst_memstr(const char *buf, size_t len, const char *s);
/* Whether line l holds w, in any case (the listing readers' headings). */
int fst_stmt_has(const char *l, const char *w);
/* The first 60 characters of line l, printable, in buf[cap]: for a reader's message. */
const char *fst_stmt_shown(const char *l, char *buf, size_t cap);
/* Object code the open unit must have at off (an ELF's code sections). */
void fst_stmt_add_code(fst_stmt_tab *t, uint64_t off, const void *bytes, size_t n);
/* A reader that failed: drop the open unit and what was added since the counts given. */
void fst_stmt_drop_unit(fst_stmt_tab *t, size_t ns, size_t nr, size_t nc);
/* Cut the placed ranges into spans (stmt_place.c calls it once every unit is placed). */
void fst_stmt_build_spans(fst_stmt_tab *t);

#endif
