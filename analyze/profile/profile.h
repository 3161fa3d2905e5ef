/*
** analyze/profile/profile.h — the profile a trace is replayed into, and the replay's rules
** (DESIGN §2-§4, normative).
**
** fst_replay (analyze/replay/replay.h) reads every record of a trace once, in order, and
** keeps, per task, the stack of active routines (call reconstruction, DESIGN §3) and
** charges every instruction's cost (the clock, DESIGN §4) to the nearest *timed* routine
** on that stack. It tells what happens as a stream of events (events.h) to its sinks; the
** call graph (callgraph.c: calls, self and inclusive time, arcs) is always one of them and
** fills the fst_profile below. Every report format reads aggregates only.
**
** Decisions where DESIGN is silent (written down here, as DESIGN asks):
**   - An instruction's cost is known only when the next instruction shows whether a
**     branch was taken, so it is priced then, and charged to the routine that was on top
**     when it executed. After an interruption "taken" is unknown (the clock's average).
**   - Return addresses are compared in the addressing mode of the call (24 or 31 bits):
**     S/370 BALR puts ILC, CC and program mask into the top byte of R14.
**   - The mainline is the module's entry point when a map gives one, else the first
**     routine entered. If it is entered by a plain branch (not a call), it is entered
**     all the same. When its frame returns, execution is "outside" again.
**   - Routines known to the model but not timed are transparent (seed 000, Figure 1):
**     they are not listed, their instructions and calls belong to the nearest timed
**     routine below them.
**   - `--exclude` routines: their self time goes to `excluded` instead of to them;
**     `--cpu=problem`: supervisor-state instructions go to `excluded` as well;
**     `--space=CR1`: instructions of other address spaces too.
**   - Returns (DESIGN §3.3): only a branch whose target comes from a register that can
**     hold a return address returns: RR branches (BR 14, BCR 15,14, BR 4, BSM 0,14;
**     not BCTR) and RX branches based or indexed on R14 (B 4(,14)). Rejected, even when
**     they land on a frame's return address: relative branches (J, JNE, BRC, BRCL —
**     gcc's jumps to a function's exit label, which in recursion may sit just after the
**     recursive call), branches on the routine's own code base (FORTRAN's B EXIT on R12),
**     BCT/BCTR loops and branch-and-link. Such a branch is a jump inside the routine.
**   - Sibling calls (a branch without link to a routine's entry, gcc -O2's `jg f`): by
**     default not a call (DESIGN §3.2) — the callee's instructions belong to the caller.
**     With `tail_calls`, a call that replaces the caller's frame: the caller's frame
**     returns (a RETURN event), the callee is pushed with the caller's return address and
**     an arc from the caller, as callgrind and gprof report it; the callee's inclusive
**     time is then not in the caller's. A branch that returns is never a sibling call.
**   - Frames still open at the end of the trace (a trace cut short) are closed there
**     for inclusive time, with RETURN events whose `code` is 1; `open_frames` says how
**     many.
**
** Tasks (DESIGN §3.8; which task runs is analyze/tasks/tasks.h). Calls, returns, frames and the
** "previous instruction" belong to a task, never to a CPU. Per CPU the replayer is in one
** of two modes:
**   - running a task: its instructions call and return in that task's stack (DESIGN §3);
**   - handling an interruption: from an interruption until the next dispatch. It starts
**     at an interruption record (I/O, external, machine check, program check), after an
**     SVC, when problem state turns into supervisor state without a record, and when a
**     range trace (which does not show the supervisor) shows a switch: a jump no
**     instruction explains (a non-branch not followed by its successor, a branch followed
**     by neither its target nor its fall-through: the target from the instruction, its
**     OPND, or the registers), registers no instruction since could have changed (REGS,
**     or the base registers of BASES), a CR1 that changed under the task, or — only where
**     the supervisor is never traced — a branch on a register the trace does not show
**     followed by the address a suspended task resumes at exactly (counted: inferred).
**     The dispatch is then at once. The interrupted task is suspended with what the
**     trace shows of where and with what it resumes (tasks.h). Handler instructions never call, return
**     or become a task's previous instruction, so BALR -> interruption -> handler -> LPSW
**     -> callee entry is one call, and BR 14 -> interruption -> return address one return.
**     The dispatch is the first instruction after the handler's LPSW/LPSWE (or the first
**     problem-state one, when the dispatcher is not traced); tasks.h names the task.
**   - A wait state: the task that loaded it is suspended at the wait PSW's address; the
**     CPU works for no task until the next dispatch.
**   - The first instruction of a trace starts task 0; at a routine entry it enters that
**     routine as the task's mainline, except in a window of a running system (header
**     window=attach, not window-start=ipl: a window the module began before any CPU ran
**     is read as a capture from the start), which begins where the attach landed, not
**     where a program began:
**     the routine is never entered there (a window of shares.s begun at GAMMA's entry
**     charged every instruction after to GAMMA, its mainline then, which never returned).
**     A task dispatched for the first time at a routine entry enters that routine as its
**     own mainline (not a call); several tasks may have mainlines, each marked. Not in a
**     window of a running system when R14 (shown) is a return address inside the
**     program's extent: a task starts with R14 outside it (MVS's CVTEXIT), so this one was
**     resumed at the entry of a routine it had called (tests/e2e/modattach.sh "tasks"):
**     never entered. A task that starts elsewhere gets its mainline by the rules above
**     (its first routine entered with BALR 14), except in a window of a running system,
**     where that is a call, counted (the task ran before the window; a mainline the map
**     names is entered all the same).
**   - A mainline entered without a return address (by a dispatch or a plain branch)
**     returns when, with no other frame of the task open, it branches (not
**     branch-and-link) out of the program's extent (`lo`..`hi`, from the model): MVS
**     returns to the SVC 3 at CVTEXIT this way. After that the task's time is outside.
**   - Supervisor time (--supervisor=): `task` (default) charges handler instructions to
**     the task they run for: the routine on top of the interrupted task's stack, until
**     another task is dispatched (what an operating system charges to the task); with no
**     task (after a wait state) they are outside. `row`: every supervisor-state
**     instruction goes to the pseudo-routine "(supervisor)". `--cpu=problem` drops
**     supervisor-state instructions whatever this says. Wait states are never time.
**   - Inclusive time is per task: the instructions executed for the task (running it or
**     handling its interruptions) while the routine was on its stack, never another
**     task's. Arc times likewise.
**   - Address spaces: routines are named by virtual address; when several address spaces
**     run different code at one address, `--space=CR1` selects the job to profile: a task
**     of another space counts nothing (no call, arc, instruction or inclusive time); a
**     space no task ran in is an error that names the spaces the trace shows.
**   - Uncertainty (analyze/replay/replay_unc.c): a dispatch the evidence leaves to several tasks
**     whose call states differ (or to one that may merely resume anywhere), and a switch
**     inferred or seen late, make the tasks involved uncertain from then on; their calls
**     and instructions are counted per routine (calls_unc, self_unc: the routine charged,
**     and the routine whose code holds the instruction), bounds that contain the true
**     figures with --timed=all. Registers shown a few instructions later may settle a
**     guess: then nothing it made uncertain stays so. A guess between tasks in the same
**     call state changes no routine's figures, only the tasks'.
**   Conservation: sum(self) + outside + excluded == total, exactly, in fst_fx and in
**   instructions; fst_replay checks it and fails when it does not hold.
**
** Ownership: fst_profile owns its routines and arcs; free with fst_profile_free.
** Errors: -1 with err set (a damaged trace; the error names the byte offset).
*/
#ifndef FST_PROFILE_H
#define FST_PROFILE_H

#include "analyze/cost/clock.h"
#include "analyze/profile/events.h"
#include "analyze/tasks/tasks.h"
#include "model/progmodel.h"
#include "trace/tracebin.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_routine {
    char name[64];
    uint64_t entry;         /* absolute entry address */
    uint64_t end;           /* the end of the section holding it (UINT64_MAX: open), 0 when the
                               map gives no length (replay_fit.c: code outside every section) */
    size_t order;           /* load-module order */
    int fortran;            /* FST_ID_FORTG / FST_ID_FORTH when FORTRAN-compatible, else 0 */
    int timed, excluded, mainline;
    uint64_t calls;         /* calls under DESIGN §3 (the mainline's first entry is not one) */
    uint64_t self_insns, incl_insns;
    fst_fx self_cost, incl_cost;
    /* uncertain (tasks.h): of its calls and self instructions, how many a wrong guess of
    ** which task ran could have changed; the true figures lie within these of the ones above */
    uint64_t calls_unc, self_unc;
    /* a sampled profile (sampled.h): its samples in runs at one PSW, each run's length
    ** squared, summed (self_insns when no sample repeats the one before it) */
    uint64_t sample_sq;
    /* a frame of it was entered in the profiled space (a call, counted or not; fst_callgraph
    ** with or without `flat`): the diagnosis's "never entered" (diagnose.c) */
    int entered;
} fst_routine;

typedef struct fst_arc {
    size_t caller, callee;  /* routine indices; caller = SIZE_MAX: from outside */
    uint64_t count;
    fst_fx cost;            /* callee's inclusive cost over these calls (outermost frames) */
    uint64_t insns;
} fst_arc;

/* An opcode the decoder does not know, and how many instructions had it. */
typedef struct fst_opcount {
    uint32_t key;           /* fst_opcode_key: fst_opcode_str prints it ("B9FF") */
    uint64_t insns;
} fst_opcount;

typedef struct fst_profile {
    fst_routine *r;
    size_t nr;
    fst_arc *arcs;
    size_t narcs, arccap;
    uint64_t total_insns, outside_insns, excluded_insns;
    fst_fx total_cost, outside_cost, excluded_cost;
    uint64_t pgmchks, intrs, svcs, waits, unwinds, open_frames;
    int complete;           /* the trace was complete */
    char incomplete[320];   /* why not */
    char clock[200];        /* fst_clock_name */
    uint64_t unmodeled;     /* instructions the cost model had no row for (rule or default) */
    uint64_t *op_insns;     /* the instruction mix: executed instructions per decoder op id
                               (fst_op_count() of them; [0]: the ones not decoded) */
    fst_opcount *undecoded; /* the opcodes of those, in order of first appearance */
    size_t nundecoded;
    int mainline;           /* index of the first mainline entered, -1 when none */
    uint64_t lo, hi;        /* the program's extent (all routines), for mainline returns */
    int supervisor;         /* FST_SUP_*: the policy used */
    /* tasks */
    struct fst_taskprof *tasks;
    size_t ntasks;
    uint64_t dispatches;    /* dispatches seen */
    uint64_t new_tasks;     /* dispatches that no suspended task accounted for: a task began */
    uint64_t guessed;       /* dispatches the evidence left several tasks for (tasks.h): guessed */
    uint64_t intr_in_routine; /* interruptions while a routine of the task was active */
    uint64_t guess_left;    /* of the guessed dispatches: the candidates left, summed */
    uint64_t guessed_same;  /* of them, the ones whose candidates' call states were the same */
    uint64_t inferred;      /* task switches inferred after a branch whose target the trace does
                               not show, to where a suspended task resumed (replay_task.c) */
    uint64_t redirected;    /* dispatches of a task at an address its suspension did not show,
                               named by its own register block (tasks.h FST_TASK_REDIRECTED) */
    uint64_t reflected;     /* SVCs whose task went on in problem state with no supervisor
                               between, where the trace shows it (replay_task.c: ECPS:VM) */
    uint64_t unc_dispatches;/* guesses between tasks in different call states */
    uint64_t unc_insns, unc_calls; /* instructions and calls of tasks a guess made uncertain */
    uint64_t settled;       /* guesses the registers shown later settled (no longer uncertain) */
    /* the program model against what ran (analyze/replay/replay_fit.c) */
    uint64_t misfit_calls;  /* calls into the middle of a routine the model names, from another */
    uint64_t misfit_unc;    /* of them, by a task a guess or an inference made uncertain: where
                               the trace leaves switches to inference (a range trace without
                               registers), a call that lands elsewhere may be another task's */
    uint64_t misfit_site, misfit_target; /* the first of them: the linking branch, its target */
    size_t misfit_from, misfit_to;       /* the routines holding those (from: FST_NONE = outside) */
    uint64_t misfit_stray;  /* of them, calls onto a routine's prologue inside a routine the model
                               names that no call entered at its entry: the map has it elsewhere */
    size_t misfit_stray_in; /* the first such routine */
    uint64_t gap_insns;     /* instructions run inside the extent (lo..hi) in no routine's section,
                               when every section's length is known: code the map says is none */
    uint64_t gap_first;     /* the address of the first of them */
    /* a sampled trace (analyze/profile/sampled.h): *_insns count samples, costs are host time */
    int sampled;
    uint64_t samples, wait_samples; /* all samples; of them, wait PSWs (not time) */
    uint64_t sample_sq;             /* fst_routine's sample_sq over all counted samples (total_insns) */
    unsigned sample_hz;
    /* --window (analyze/replay/window.h): the profile is of instructions [win_from, win_to) only */
    int window;
    uint64_t win_from, win_to;  /* win_to: the instruction after the last one counted */
    char win_spec[160];         /* the window as the user wrote it: reports say "window SPEC" */
} fst_profile;

enum { FST_SUP_TASK = 0, FST_SUP_ROW = 1 };
#define FST_SUPERVISOR_NAME "(supervisor)"

/* Per task: what --by-task reports. `r` has one entry per routine of the profile. */
typedef struct fst_taskroutine {
    uint64_t calls, self_insns, incl_insns;
    fst_fx self_cost, incl_cost;
} fst_taskroutine;

typedef struct fst_taskprof {
    uint32_t id;
    uint64_t space;         /* FST_SPACE_* (analyze/tasks/tasks.h) or CR1 */
    uint64_t first;         /* address of its first instruction */
    size_t mainline;        /* its mainline routine, FST_NONE when none */
    uint64_t insns, problem_insns;
    fst_fx cost;
    fst_taskroutine *r;     /* per routine (p->nr), made at the first figure (fst_task_routines):
                               NULL while the task entered no routine, which most tasks of a
                               system never do (no memory as long as the map per task) */
    int excluded;           /* not of the address space --space chose: none of its calls,
                               instructions or times counts in any figure */
    int unnamed;            /* of an address space the map's program does not run in
                               (fst_replay_opts.named): no routine is entered there, its
                               instructions are other code (outside) */
    int uncertain;          /* a guess of which task ran touched it (tasks.h): its own figures
                               may belong to the tasks it was guessed among */
} fst_taskprof;

typedef struct fst_replay_opts {
    const char *statin;        /* FILE of STATIN cards, or NULL */
    int timed_all;             /* --timed=all */
    const char *const *exclude;/* NULL-terminated names, or NULL */
    int cpu_problem;           /* --cpu=problem */
    fst_clock *clock;          /* required */
    void (*warn)(const char *msg); /* warnings (STATIN names that match nothing); may be NULL */
    int supervisor;            /* FST_SUP_TASK (default) or FST_SUP_ROW */
    int space_set;             /* --space: profile only this address space */
    uint64_t space;            /* its CR1 value */
    const uint64_t *spaces;    /* with space_set: when nspaces > 0, these spaces (all of them)
                                  instead of `space` (the spaces a map's program ran in) */
    size_t nspaces;
    int tail_calls;            /* --tail-calls: a branch without link to an entry is a call
                                  that replaces the caller's frame */
    const uint64_t *named;     /* when nnamed > 0: the address spaces the map's program runs in
                                  (model/mapspaces.h); in any other, the map names nothing
                                  (another program at the same virtual addresses is other code) */
    size_t nnamed;
    const struct fst_window *window;  /* --window, resolved (analyze/replay/window.h), or NULL */
    int flat;                  /* the report reads of the routines only their calls and self
                                  figures (formats/format.h fst_format.flat): no arc and no
                                  inclusive figure is kept (they stay 0), which on call-heavy
                                  code is a tenth of the replay. FST_REPLAY_FULLGRAPH=1 keeps
                                  them all the same (the tests compare) */
} fst_replay_opts;

/* A map placed from the trace's evidence (model/mapspaces.h: its load point and the spaces
** that ran it, `spaces`, n of them, real ones): its names apply only in those spaces
** (named), and with `profile` set the profile is theirs (space_set, spaces), as fst-report
** without --space and fst-diff profile it. Nothing changes when n is 0. */
static inline void fst_replay_opts_placed(fst_replay_opts *o, const uint64_t *spaces, size_t n, int profile)
{
    if (!n)
        return;
    o->named = spaces;
    o->nnamed = n;
    if (profile) {
        o->space_set = 1;
        o->space = spaces[0];
        o->spaces = spaces;
        o->nspaces = n;
    }
}

/* Whether the map's names apply in this address space (fst_replay_opts.named). A space
** the trace does not show (unknown) may be any: they apply. */
static inline int fst_replay_names_space(const fst_replay_opts *o, uint64_t space)
{
    if (!o->nnamed || space == UINT64_MAX - 1)
        return 1;
    for (size_t i = 0; i < o->nnamed; i++)
        if (o->named[i] == space)
            return 1;
    return 0;
}

/* Whether --space (or the spaces a program ran in) keeps a task of this address space. */
static inline int fst_replay_keeps_space(const fst_replay_opts *o, uint64_t space)
{
    if (!o->space_set)
        return 1;
    if (!o->nspaces)
        return space == o->space;
    for (size_t i = 0; i < o->nspaces; i++)
        if (o->spaces[i] == space)
            return 1;
    return 0;
}

/* fst_replay itself is declared in analyze/replay/replay.h: this folder never calls it. */
void fst_profile_free(fst_profile *p);

/* ---- inside analyze/ ---- */
/* The routines of the program model, in module order, with the timed ones chosen
** (analyze/profile/routines.c). Sets prof->r, prof->nr; r->mainline when the model names it. */
int fst_routines_build(fst_profile *p, fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_err *err);
/* The call-graph aggregate (analyze/profile/callgraph.c) that fills a profile. It is a sink for
** INTERRUPT, WAIT and MARK events only; the replayer gives it calls, returns and EXECs by
** the direct calls below, before the other sinks get those events (and without building an
** event when no other sink wants it: one built and dispatched per call and return was a
** tenth of the replay). */
typedef struct fst_callgraph fst_callgraph;
/* `flat` (fst_replay_opts.flat): routines' calls only, per routine and per task; no arc and
** no inclusive figure (they stay 0), no frame kept (fst_callgraph_open answers 0). */
fst_callgraph *fst_callgraph_new(fst_profile *p, int flat);
void fst_callgraph_event(void *cg, const fst_event *e);
void fst_callgraph_free(fst_callgraph *cg);
/* --window's start (analyze/replay/replay_win.c): no frame open, no arc; the profile's figures are
** zeroed by the replay, which then calls again for the frames open there. */
void fst_callgraph_restart(fst_callgraph *cg);
/* Task `task` has no frame open: what its stack holds is freed (made again at its next
** call); a task that is never seen to end costs no stack (analyze/replay/replay_task.c). */
void fst_callgraph_idle(fst_callgraph *cg, uint32_t task);
/* A CALL, and a RETURN or UNWIND (unwind != 0), with the task's clock after it. */
void fst_callgraph_call(fst_callgraph *cg, uint32_t task, size_t routine, size_t caller, int counted,
                        uint64_t tinsns, fst_fx tcost);
void fst_callgraph_ret(fst_callgraph *cg, uint32_t task, int unwind, uint64_t tinsns, fst_fx tcost);
/* A CALL at the task's clock (tinsns, tcost) and its RETURN at (rinsns, rcost), with no
** other frame event between them: what the two calls above do, without the frame pushed
** and popped (a stretch's leaf call played back, analyze/replay/replay_chunk.c). */
void fst_callgraph_pair(fst_callgraph *cg, uint32_t task, size_t routine, size_t caller, int counted,
                        uint64_t tinsns, fst_fx tcost, uint64_t rinsns, fst_fx rcost);
/* One task's part of the call graph, found once (fst_callgraph_task) for the calls, returns
** and pairs of that task that come in a row (the replayer's lean loop: a call every 19
** instructions of call-heavy C, where finding the task's stack and figures again was a
** quarter of each): the three above, `_in` it. Valid until the call graph first meets a task
** it has not met before (its stacks move then). */
typedef struct fst_cgtask {
    struct fst_cgstack *s;  /* the task's stack (callgraph.c) */
    fst_taskprof *tp;       /* the profile's figures of the task, NULL where it has none */
    fst_taskroutine *tr;    /* and of its routines, NULL until made */
    int excluded;           /* another address space than --space's: nothing counts */
} fst_cgtask;
void fst_callgraph_task(fst_callgraph *cg, uint32_t task, fst_cgtask *h);
void fst_callgraph_call_in(fst_callgraph *cg, fst_cgtask *h, size_t routine, size_t caller, int counted,
                           uint64_t tinsns, fst_fx tcost);
void fst_callgraph_ret_in(fst_callgraph *cg, fst_cgtask *h, int unwind, uint64_t tinsns, fst_fx tcost);
void fst_callgraph_pair_in(fst_callgraph *cg, fst_cgtask *h, size_t routine, size_t caller, int counted,
                           uint64_t tinsns, fst_fx tcost, uint64_t rinsns, fst_fx rcost);
/* Whether the graph is flat (fst_callgraph_new): then a call does only fst_callgraph_count,
** and a return nothing but count an unwind. */
int fst_callgraph_is_flat(const fst_callgraph *cg);
/* Whether the task has a frame of `routine` open, or of arc `arc` (an index of p->arcs):
** what makes a call's time count as outermost (analyze/replay/replay_memo.c asks). */
int fst_callgraph_open(const fst_callgraph *cg, uint32_t task, size_t routine);
int fst_callgraph_arc_open(const fst_callgraph *cg, uint32_t task, size_t arc);
/* The call graph's part of EXECs: n of them, run in a
** row for one task in one state, charged alike, costing `cost` together. Inline, for the
** replayer to do it without a call per instruction, and for a whole straight-line run at
** once when no other sink wants its EXECs (it asks the sink for the other kinds only);
** the order is the same: the call graph first, then the other sinks. */
/* The task's figures per routine, made (zeroed) when it has none yet. */
static inline fst_taskroutine *fst_task_routines(const fst_profile *p, fst_taskprof *tp)
{
    if (!tp->r)
        tp->r = fst_xcalloc(p->nr + 1, sizeof *tp->r);
    return tp->r;
}

/* h's task's figures per routine (h->tp's, not NULL), made at the first use and kept in h. */
static inline fst_taskroutine *fst_cgtask_routines(const fst_profile *p, fst_cgtask *h)
{
    return h->tr ? h->tr : (h->tr = fst_task_routines(p, h->tp));
}

/* A call of `routine` in task h: nothing in --space's other (h->excluded); else the routine
** entered, and where the call counts (the routine timed, `counted`), its calls, the
** routine's and the task's. Returns whether it counted. All a flat graph does at a call
** (the replayer's lean loop does it inline so: replay_int.h fst_rp_lean_branch); the whole
** graph then finds the call's arc. */
static inline int fst_callgraph_count(fst_profile *p, fst_cgtask *h, size_t routine, int counted)
{
    if (h->excluded)
        return 0;   /* another address space than --space's: nothing counts */
    fst_routine *r = &p->r[routine];
    r->entered = 1;
    if (!r->timed || !counted)
        return 0;
    r->calls++;
    if (h->tp)
        fst_cgtask_routines(p, h)[routine].calls++;
    return 1;
}

/* fst_callgraph_exec_n with the task's figures found: tp (NULL: no task, or none the profile
** keeps figures of) and its routines' row *trs (fst_task_routines; NULL: not found yet, found
** here when a routine is charged), so that a caller charging one task again and again finds
** them once (analyze/replay/replay_int.h fst_rp_lean_flush). */
static inline void fst_callgraph_exec_at(fst_profile *p, fst_taskprof *tp, fst_taskroutine **trs, uint32_t state,
                                         int charged, size_t routine, uint64_t n, fst_fx cost)
{
    p->total_cost += cost;
    p->total_insns += n;
    if (tp) {
        tp->insns += n;
        tp->cost += cost;
        tp->problem_insns += (state & FST_ST_PROBLEM) ? n : 0;
    }
    if (charged == FST_CHARGE_EXCLUDED) {
        p->excluded_cost += cost;
        p->excluded_insns += n;
    } else if (charged == FST_CHARGE_OUTSIDE) {
        p->outside_cost += cost;
        p->outside_insns += n;
    } else {
        p->r[routine].self_cost += cost;
        p->r[routine].self_insns += n;
        if (tp) {
            fst_taskroutine *tr = *trs ? *trs : (*trs = fst_task_routines(p, tp));
            tr[routine].self_cost += cost;
            tr[routine].self_insns += n;
        }
    }
}

static inline void fst_callgraph_exec_n(fst_profile *p, uint32_t task, uint32_t state, int charged, size_t routine,
                                        uint64_t n, fst_fx cost)
{
    fst_taskprof *tp = task != FST_NOTASK && task < p->ntasks ? &p->tasks[task] : NULL;
    fst_taskroutine *tr = tp ? tp->r : NULL;
    fst_callgraph_exec_at(p, tp, &tr, state, charged, routine, n, cost);
}
/* Conservation: sum(self) + outside + excluded == total, in fst_fx and instructions. */
int fst_profile_check(const fst_profile *p, fst_err *err);
/* --space=SPACE: -1 (err names the spaces the trace does show, with their tasks'
** instructions) when no task ran in it; 0 otherwise. */
int fst_profile_space_check(const fst_profile *p, uint64_t space, fst_err *err);

/* STATIN cards (seed 000): 80-byte records, columns 1-72, embedded blanks removed, the
** first 8 non-blank characters, one name per card; blank cards are skipped. Returns the
** number of names, names[i] NUL-terminated (malloc'd array of char[9]). A name longer than
** 8 characters is cut as the seed says, with a warning (`warn`, may be NULL). The deck is
** read with common/lines.h bounds: a folder, an unreadable file, a line of more than
** FST_STATIN_MAX_LINE bytes or a deck of more than FST_STATIN_MAX_BYTES are errors.
** The replay (analyze/profile/routines.c) warns of a card that names no routine, with its line and
** the nearest routine's name, and fails when no card names one: only the mainline would be
** timed, a report that looks right and is not. */
#define FST_STATIN_MAX_LINE 4096
#define FST_STATIN_MAX_BYTES (1u << 20)
int fst_statin_read(const char *path, char (**names)[9], size_t *n, void (*warn)(const char *msg), fst_err *err);
/* The same, with each name's line in the deck: lines[i] (malloc'd), for messages about a card. */
int fst_statin_cards(const char *path, char (**names)[9], size_t **lines, size_t *n, void (*warn)(const char *msg),
                     fst_err *err);

#endif
