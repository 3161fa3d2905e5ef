/*
** model/space_ev_int.h — inside fst_space_evidence (mapspaces.h): the pass's state, shared by
** model/space_ev.c (the pass: a run at a time) and model/space_ev_skip.c (what it skips:
** loops once a period, calls once a subtree). Not an interface.
**
** What a skip must keep. The evidence is a function of the records read, and of the pass's
** own state: each CPU's CR1 and pending link (`after`, and its state). From the same reader
** state (trace/tracebin.h fst_tr_mark: address, recent targets, state, CPU) the same op bytes
** hand out the same records; when those bytes are SEQ, TAKEN and JMP k only (one CPU, one
** state, no CR1 loaded, no code changed: fst_tr_fast_ops) and the CPU's pending link is
** the same, they add to the evidence what they added the first time: their instructions to
** one space, no address it does not hold already (the addresses are a set), and leave the
** pending link as they left it. So a stretch read once in a space may be skipped in that
** space, its instructions counted, its end's pending link set. A call's subtree may hold
** JMPA ops too (runs only: any other op is a record, and a record ends its recording): its
** bytes read while the code cache is as it was when they were recorded (fst_tr_code_epoch,
** kept with them) hand out the same runs. (A loop's repeats follow it at once.)
*/
#ifndef FST_SPACE_EV_INT_H
#define FST_SPACE_EV_INT_H

#include "model/mapspaces.h"
#include "trace/tracebin.h"

#define NONE UINT64_MAX

typedef struct cpu_st {
    uint64_t cr1;
    int known;
    uint64_t after;         /* fall-through of the last BALR 14 etc., NONE when none pending */
    uint32_t state;         /* its state */
} cpu_st;

enum {
    LAST = 4096,            /* the fold: where runs last began, by address */
    PERIOD = 256,           /* its longest period, in runs */
    SPAN = 2048,            /* and in op bytes */
    WAIT = 1024,            /* the longest wait after marks that missed */
    CALLS = 4096,           /* the calls' memo: slots */
    CSPAN = 8192,           /* a subtree's op bytes at most */
    CDEPTH = 16,            /* calls recorded at once (nested) */
};

/* A call's subtree as read once: from the reader's state after the call (a) to its state
** after the run that returned (b), the op bytes between, what they counted. */
typedef struct sv_call {
    fst_tr_mark a, b;
    uint8_t *ops;
    size_t n, space;
    uint64_t insns, runs, after;    /* after: the CPU's pending link at b */
    uint64_t epoch;                 /* the code cache's (fst_tr_code_epoch) while it was read */
    uint32_t miss, quiet, backoff;  /* the slot's: calls missed in a row; calls not looked at
                                       (QUIET << backoff after MISSES misses in a row) */
} sv_call;

typedef struct sv_open {   /* a call being recorded: it returns where a run begins at ret */
    fst_tr_mark a;
    uint64_t ret, nrun, epoch;
    size_t space, slot;
    uint16_t cpu;
    uint32_t state;
} sv_open;

typedef struct sv_pass {
    fst_tr *tr;
    const uint64_t *epoch;          /* the code cache's (fst_tr_code_epoch_at) */
    cpu_st *cpu;
    size_t ncpu;
    fst_space_ev *v;
    size_t n, cap, last;
    uint64_t nrun;                  /* runs read, and skipped: the skips' clock */
    /* the fold (space_ev_skip.c) */
    struct { uint64_t addr, run; } last_at[LAST];
    uint64_t mark_run, due;         /* a mark after run mark_run, its period's end after run due
                                       (0: no mark) */
    int wait, miss;                 /* runs before the next mark; marks in a row that missed */
    fst_tr_mark mark;
    uint64_t mark_after;            /* the CPU's pending link at the mark */
    uint8_t ops[SPAN];
    /* the calls' memo (space_ev_skip.c) */
    sv_call *calls;
    size_t call_bytes;
    sv_open open[CDEPTH];
    int nopen;
} sv_pass;

/* A CPU's state (made at its first record), and the space an instruction of c in state
** counts to (made at its first instruction): inline, a run's every time. */
cpu_st *fst_sv_cpu_slow(sv_pass *ps, uint16_t cpu);
fst_space_ev *fst_sv_space_slow(sv_pass *ps, uint64_t space);
static inline cpu_st *fst_sv_cpu(sv_pass *ps, uint16_t cpu)
{
    return cpu < ps->ncpu ? &ps->cpu[cpu] : fst_sv_cpu_slow(ps, cpu);
}
static inline fst_space_ev *fst_sv_space(sv_pass *ps, const cpu_st *c, uint32_t state)
{
    uint64_t space = !(state & FST_ST_DAT) ? FST_PLACE_REAL : c->known ? c->cr1 : FST_PLACE_UNKNOWN;
    return ps->last < ps->n && ps->v[ps->last].space == space ? &ps->v[ps->last] : fst_sv_space_slow(ps, space);
}

/* After a run (rec: its first instruction's address, CPU and state) read whole, the reader
** between records: a call's subtree skipped or recorded, a recorded one closed at its return,
** a loop's repeats skipped. fst_sv_record: a record that is not a run (ends the calls being
** recorded). fst_sv_free: the memo's memory. */
void fst_sv_after_run(sv_pass *ps, const fst_rec *rec);
void fst_sv_record(sv_pass *ps);
void fst_sv_free(sv_pass *ps);

#endif
