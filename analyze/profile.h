/*
** analyze/profile.h — replay a trace into a profile (DESIGN §2-§4, normative).
**
** fst_replay reads every record of a trace once, in order, and keeps, per CPU, the stack
** of active routines (call reconstruction, DESIGN §3) and charges every instruction's
** cost (the clock, DESIGN §4) to the nearest *timed* routine on that stack. It tells
** what happens as a stream of events (analyze/events.h) to its sinks; the call graph
** (analyze/callgraph.c: calls, self and inclusive time, arcs) is always one of them and
** fills the fst_profile below. Every report format reads aggregates only.
**
** Decisions where DESIGN is silent (written down here, as DESIGN asks):
**   - An instruction's cost is known only when the next instruction shows whether a
**     branch was taken, so it is priced then, and charged to the routine that was on top
**     when it executed.
**   - Return addresses are compared in the addressing mode of the call (24 or 31 bits):
**     S/370 BALR puts ILC, CC and program mask into the top byte of R14.
**   - The mainline is the module's entry point when a map gives one, else the first
**     routine entered. If it is entered by a plain branch (not a call), it is entered
**     all the same. When its frame returns, execution is "outside" again.
**   - Routines known to the model but not timed are transparent (seed 000, Figure 1):
**     they are not listed, their instructions and calls belong to the nearest timed
**     routine below them.
**   - `--exclude` routines: their self time goes to `excluded` instead of to them;
**     `--cpu=problem`: supervisor-state instructions go to `excluded` as well.
**   - With several CPUs each CPU has its own stack; the totals are over all CPUs.
**   - Frames still open at the end of the trace (a trace cut short) are closed there
**     for inclusive time, with RETURN events whose `code` is 1; `open_frames` says how
**     many.
**   Conservation: sum(self) + outside + excluded == total, exactly, in fst_fx and in
**   instructions; fst_replay checks it and fails when it does not hold.
**
** Ownership: fst_profile owns its routines and arcs; free with fst_profile_free.
** Errors: -1 with err set (a damaged trace; the error names the byte offset).
*/
#ifndef FST_PROFILE_H
#define FST_PROFILE_H

#include "analyze/clock.h"
#include "analyze/events.h"
#include "capture/progmodel.h"
#include "capture/tracebin.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_routine {
    char name[64];
    uint64_t entry;         /* absolute entry address */
    size_t order;           /* load-module order */
    int fortran;            /* FST_ID_FORTG / FST_ID_FORTH when FORTRAN-compatible, else 0 */
    int timed, excluded, mainline;
    uint64_t calls;         /* calls under DESIGN §3 (the mainline's first entry is not one) */
    uint64_t self_insns, incl_insns;
    fst_fx self_cost, incl_cost;
} fst_routine;

typedef struct fst_arc {
    size_t caller, callee;  /* routine indices; caller = SIZE_MAX: from outside */
    uint64_t count;
    fst_fx cost;            /* callee's inclusive cost over these calls (outermost frames) */
    uint64_t insns;
} fst_arc;

typedef struct fst_profile {
    fst_routine *r;
    size_t nr;
    fst_arc *arcs;
    size_t narcs, arccap;
    uint64_t total_insns, outside_insns, excluded_insns;
    fst_fx total_cost, outside_cost, excluded_cost;
    uint64_t pgmchks, intrs, waits, unwinds, open_frames;
    int complete;           /* the trace was complete */
    char incomplete[320];   /* why not */
    char clock[200];        /* fst_clock_name */
    uint64_t unmodeled;     /* instructions the cost model had no entry for */
    int mainline;           /* index, -1 when none was entered */
} fst_profile;

typedef struct fst_replay_opts {
    const char *statin;        /* FILE of STATIN cards, or NULL */
    int timed_all;             /* --timed=all */
    const char *const *exclude;/* NULL-terminated names, or NULL */
    int cpu_problem;           /* --cpu=problem */
    fst_clock *clock;          /* required */
    void (*warn)(const char *msg); /* warnings (STATIN names that match nothing); may be NULL */
} fst_replay_opts;

/* Build the routine list from the model `pm` (which may be NULL: then the storage image
** of the trace is scanned for FORTRAN identifiers), replay the trace into *prof and into
** the `nsinks` extra sinks (may be 0). */
int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *prof, const fst_sink *sinks,
               size_t nsinks, fst_err *err);
void fst_profile_free(fst_profile *p);

/* ---- inside analyze/ ---- */
/* The routines of the program model, in module order, with the timed ones chosen
** (analyze/routines.c). Sets prof->r, prof->nr; r->mainline when the model names it. */
int fst_routines_build(fst_profile *p, fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_err *err);
/* The call-graph sink (analyze/callgraph.c) that fills a profile. */
typedef struct fst_callgraph fst_callgraph;
fst_callgraph *fst_callgraph_new(fst_profile *p);
void fst_callgraph_event(void *cg, const fst_event *e);
void fst_callgraph_free(fst_callgraph *cg);
/* Conservation: sum(self) + outside + excluded == total, in fst_fx and instructions. */
int fst_profile_check(const fst_profile *p, fst_err *err);

/* STATIN cards (seed 000): 80-byte records, columns 1-72, embedded blanks removed, the
** first 8 non-blank characters, one name per card; blank cards are skipped. Returns the
** number of names, names[i] NUL-terminated (malloc'd array of char[9]). */
int fst_statin_read(const char *path, char (**names)[9], size_t *n, fst_err *err);

#endif
