/*
** analyze/profile/events.h — the event model (DESIGN §2): what the replayer tells its consumers.
**
** The replayer (analyze/replay/replay.c) turns the raw records of a trace into one ordered
** stream of typed events; every aggregate (the call graph of analyze/profile/callgraph.c, address
** histograms, stacks for flame graphs, timelines) is a *sink* that subscribes to it, and
** every report reads only aggregates. So two formats printed from one trace never disagree.
**
**   EXEC       one instruction, priced: its decoded form, its cost (fst_fx, analyze/
**              clock.h), where the cost went (a routine, outside, or excluded). Emitted
**              when the next instruction shows whether a branch was taken, so that the
**              clock can price taken and not-taken branches differently; the order of
**              events is still execution order (the EXEC of a BALR comes before its CALL).
**              A sink that asks for batches (FST_WANT_EXEC_BATCH) may get several in one
**              event (below).
**   CALL       a frame pushed (DESIGN §3.2): the routine entered, the nearest timed
**              routine below it (the caller that counts), the call site, the return
**              address, and whether it counts as a call (the mainline's first entry does
**              not).
**   RETURN     the top frame popped by a return to its return address (+4k, k <= 4).
**   UNWIND     a frame popped because control reached an older frame's return address;
**              one UNWIND per frame popped, innermost first.
**   INTERRUPT  an interruption: class (FST_INTR_* of trace/tracebin.h, or FST_EV_PGM
**              for a program check) and code. Never CPU time by itself.
**   WAIT       a wait state was entered (never CPU time).
**   MARK       a window switched: `code` FST_MARK_GAP = tracing was off for a while.
**
** Every event belongs to a task (analyze/tasks/tasks.h; profile.h has the rules): `task` is
** its id (0 for a trace of one standalone program). `stack`/`depth` give the routines
** active in that task after the event, bottom first (all of them, timed or not;
** fst_routine.timed tells which are listed). `tinsns`/`tcost` are the task's own clock:
** the instructions (and their cost) executed for it so far, this EXEC included; the
** difference between a CALL and its RETURN is the frame's inclusive time, never
** counting other tasks' instructions. Keep per-task state by `task`, not by `cpu`.
** Ownership: an event and everything it points to live only during the callback.
*/
#ifndef FST_EVENTS_H
#define FST_EVENTS_H

#include "analyze/cost/clock.h"
#include "isa/decode.h"

#include <stddef.h>
#include <stdint.h>

#define FST_NONE SIZE_MAX   /* no routine: outside */
#define FST_NOTASK UINT32_MAX

typedef enum fst_ev_kind {
    FST_EV_EXEC, FST_EV_CALL, FST_EV_RETURN, FST_EV_UNWIND, FST_EV_INTERRUPT, FST_EV_WAIT, FST_EV_MARK,
} fst_ev_kind;

enum { FST_CHARGE_ROUTINE, FST_CHARGE_OUTSIDE, FST_CHARGE_EXCLUDED };
enum { FST_EV_PGM = 100 };      /* INTERRUPT class of a program check */
enum { FST_MARK_GAP = 1 };

typedef struct fst_event {
    fst_ev_kind kind;
    uint16_t cpu;
    uint32_t state;         /* PSW state word (trace/tracebin.h FST_ST_*) */
    const fst_insn *insn;   /* EXEC: the instruction; a run: the first of n in an array */
    size_t n;               /* EXEC: 1, or a batch's length (FST_WANT_EXEC_BATCH) */
    fst_fx cost;            /* EXEC */
    int charged;            /* EXEC: FST_CHARGE_* */
    int taken;              /* EXEC: whether it branched, as priced: 1, 0 (also for an
                               instruction that cannot branch) or FST_TAKEN_UNKNOWN (an
                               interruption or the trace's end came next; a batch) */
    size_t routine;         /* EXEC: the routine charged (FST_CHARGE_ROUTINE) or FST_NONE;
                               CALL/RETURN/UNWIND: the frame's routine */
    size_t owner;           /* CALL/RETURN/UNWIND: the nearest timed routine of the frame */
    size_t caller;          /* CALL: the nearest timed routine below, FST_NONE = outside */
    int counted;            /* CALL: counts as a call */
    uint64_t site, ret;     /* CALL: address of the linking instruction; return address */
    uint8_t cls;            /* INTERRUPT class; WAIT kind (0 loaded, 1 disabled) */
    uint32_t code;          /* INTERRUPT code; MARK code */
    const size_t *stack;    /* routines active in the task after the event, bottom first */
    size_t depth;
    uint32_t task;          /* the task (FST_NOTASK: none, e.g. a handler after a wait) */
    uint64_t tinsns;        /* the task's clock after the event */
    fst_fx tcost;
    int other_space;        /* the event belongs to an address space --space leaves out (or,
                               with --space, to no task): a sink that keeps figures by address
                               (MAPTIME's histogram) skips it, as the call graph does */
    int unnamed;            /* the event's task runs in an address space the map's program does
                               not run in (fst_profile tasks' `unnamed`): its code is other
                               code, whatever its addresses (the diagnosis skips it) */
    const struct fst_profile *profile; /* the routines (names, entries, timed); its counts
                                          are complete only when the replay returns (the
                                          replayer adds up EXECs in bulk): a sink reads
                                          the event's clocks, not the profile's sums */
} fst_event;

/* What a sink wants (fst_sink.kinds): FST_WANT(kind) for every event of that kind, and
** FST_WANT_EXEC_OUTSIDE for only the EXECs charged outside (diagnose.c). 0 = everything.
** The replayer does not call a sink for what it did not ask: an EXEC per instruction to a
** sink that counts calls was a tenth of the replay. */
#define FST_WANT(kind) (1u << (kind))
#define FST_WANT_EXEC_OUTSIDE (1u << 16)
/* With FST_WANT(FST_EV_EXEC) or FST_WANT_EXEC_OUTSIDE: EXECs may come as batches (`n` > 1):
** `n` instructions insn[0..n-1] executed one after the other, but not necessarily in
** sequence (a branch may have been taken between two of them), all of one task, state,
** routine and charge, with nothing else between them; `cost` their sum, `taken`
** FST_TAKEN_UNKNOWN (or 0: a straight-line run). For a sink that wants only what ran where
** (diagnose.c): a loop's jumps cost one call per batch, not one per jump. */
#define FST_WANT_EXEC_BATCH (1u << 18)
#define FST_WANT_ALL 0u

typedef struct fst_sink {
    void (*event)(void *ctx, const fst_event *e);
    void *ctx;
    unsigned kinds;     /* FST_WANT_*; 0: every event */
} fst_sink;

#endif
