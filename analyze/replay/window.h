/*
** analyze/replay/window.h — a part of a run: fst-report's --window=FROM:TO (issue 35).
**
** A window is a stretch of the trace, [from, to) in instruction numbers: the instructions
** the trace holds, numbered from 0 in the order the trace holds them. The report covers only
** that stretch, as if the trace began and ended there, but knowing the stack: the replay
** (analyze/replay/replay_win.c) replays the instructions before it for the call state alone,
** then counts from instruction `from`: a routine active at `from` (open frame) runs in the
** window, its time charged to it, but its call does not count (as a trace attached inside
** a running program, whose mainline's entry is no call); a call made in the window counts;
** a frame still open at `to` ends there (its inclusive time up to `to`), as frames open at
** a trace's end do. Interruptions, waits and gaps count when they come after `from`'s
** predecessor and before `to`.
**
** How an edge is written (FROM and TO alike, either may be empty: the trace's start, end):
**   N            an instruction number (decimal): instructions [FROM, TO)
**   tod:HEX      a TOD-clock value, in TOD units (bit 51 = 1 us: 1 us = 0x1000) since the
**                trace's start on the chosen clock (--clock): the first instruction that
**                starts at or after it. A standalone trace has no clock of its own
**                (analyze/cost/clock.h): times are the clock's, summed over the instructions
**   s:SEC, SECs  seconds since the trace's start on the chosen clock (decimal, up to 9
**                decimals: exact in TOD units), as tod:
** or the whole window as
**   call:NAME:N  routine NAME's Nth call (N from 1, calls as counted: the mainline's entry
**                is none): from its first instruction to the instruction it returns to
**                (exclusive): its own and its callees' instructions (and, under an operating
**                system, other tasks' run meanwhile).
** An instruction starts at the time the instructions before it took (their costs summed in
** fst_fx, exactly); so [tod:A, tod:B) holds the instructions that start in [A, B).
**
** Resolving. Instruction numbers need nothing; times and calls need a first replay, with
** the sink fst_window_locator (events.h) made for it, then fst_window_resolve. Errors name the
** option: FROM after TO, an empty window, a routine the program model does not name, a call
** number past the calls made, an edge past the trace's end (fst_window_check after the
** replay, for instruction numbers; at resolving for the others).
**
** Several CPUs (analyze/replay/replay_win.c): instruction numbers only, cut where no other CPU has a
** branch waiting for its successor to be priced; times and calls are located on a trace of
** one CPU (the first replay counts instructions as they are priced, which on several CPUs is
** not the trace's order).
**
** Ownership: fst_window is a plain value; a locator is freed with fst_window_locator_free.
** Errors: -1 with err set, naming --window and the value.
*/
#ifndef FST_WINDOW_H
#define FST_WINDOW_H

#include "analyze/cost/clock.h"
#include "analyze/profile/events.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

enum { FST_WEDGE_NONE, FST_WEDGE_INSN, FST_WEDGE_TIME };  /* an edge: empty, N, a time */

typedef struct fst_window {
    char spec[160];         /* the value as given: reports say "window SPEC" */
    int from_kind, to_kind; /* FST_WEDGE_*; call: both NONE, `routine` set */
    uint64_t from_v, to_v;  /* instruction number, or time in fst_fx */
    char routine[64];       /* call:NAME:N */
    uint64_t nth;
    /* resolved: instructions [from, to); to == UINT64_MAX: to the trace's end */
    int resolved;
    uint64_t from, to;
} fst_window;

/* Parse a --window value. 0, or -1 (a value that is not a window). A value with no colon is
** not one (fst-report gives it to maptime's --window=NAME). */
int fst_window_parse(fst_window *w, const char *arg, fst_err *err);
/* Whether resolving needs a first replay (a time or a call), or w is resolved already. */
int fst_window_needs_locator(const fst_window *w);

/* The first replay's sink: what it needs of the events (calls, returns, instructions). */
typedef struct fst_window_locator fst_window_locator;
fst_window_locator *fst_window_locator_new(const fst_window *w, fst_sink *sink);
void fst_window_locator_free(fst_window_locator *l);
/* After that replay: w->from, w->to, or -1 (a routine not named, a call not made, a time
** past the trace's end: its instructions and time said). */
int fst_window_resolve(fst_window *w, const fst_window_locator *l, fst_err *err);

/* After the replay of a window: -1 when an edge lay past the trace's end (`total`
** instructions): the window was not all there. */
int fst_window_check(const fst_window *w, uint64_t total, fst_err *err);

#endif
