/*
** formats/stmtprof.h — exact counts and time per source statement (issue 34): the
** aggregate behind --format=csv --by=line, annotate --source and callgrind's line numbers.
**
** A sink of EXEC events keyed by (where the instruction was charged, its address): every
** instruction of the replay is counted once, so the rows add up exactly to the profile's
** figures (per routine: its self instructions and time; over all: the total). After the
** replay, each address is given to its statement by the statement table (model/stmttab.h)
** and the rows are made: one per (routine charged, statement) that ran. Addresses several
** statements share make one row naming all of them (a group); addresses with no statement
** make a row of their own per routine: said, never dropped.
**
**   executions  how often the statement ran: the most any of its instructions ran there
**               (every instruction of straight-line code runs as often as the statement;
**               a loop statement's test runs once more than its body)
**   insns, cost the instructions executed at its addresses, and their time (TOD fixed point)
**
** Ownership: fst_stmtprof_new's result is freed by fst_stmtprof_free; rows are owned by it
** and valid until it is freed. Errors: none (allocation failure exits).
*/
#ifndef FST_STMTPROF_H
#define FST_STMTPROF_H

#include "analyze/profile/events.h"
#include "analyze/profile/profile.h"
#include "model/stmttab.h"

#include <stddef.h>
#include <stdint.h>

enum { FST_SP_OUTSIDE = -1, FST_SP_EXCLUDED = -2 };
#define FST_SP_NOSTMT SIZE_MAX   /* group: no statement holds these addresses */

typedef struct fst_stmtrow {
    size_t routine;         /* index in the profile, or (size_t)FST_SP_OUTSIDE / FST_SP_EXCLUDED */
    size_t group;           /* a span whose statements name the row (fst_stmt_span_at), or
                               FST_SP_NOSTMT */
    uint64_t execs, insns;
    fst_fx cost;
    uint64_t lo;            /* its lowest address that ran */
} fst_stmtrow;

typedef struct fst_stmtprof fst_stmtprof;

fst_stmtprof *fst_stmtprof_new(void);
void fst_stmtprof_event(void *sp, const fst_event *e);
/* The rows, ordered by file, line (of the group's first statement; no statement last) and
** routine (load-module order; outside and excluded last). */
size_t fst_stmtprof_rows(fst_stmtprof *sp, const fst_stmt_tab *t, const fst_profile *p, const fst_stmtrow **rows);
/* The group of an address: a span index (the first span with the same statements) or
** FST_SP_NOSTMT. */
size_t fst_stmtprof_group_of(const fst_stmt_tab *t, uint64_t addr);
/* "12" or, for a group of several, "12+14"; the file likewise ("a.c" or "a.c+b.h"). */
void fst_stmtprof_names(const fst_stmt_tab *t, size_t group, char *file, size_t fcap, char *line, size_t lcap);
void fst_stmtprof_free(fst_stmtprof *sp);

#endif
