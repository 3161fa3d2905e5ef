/*
** analyze/tasks.h — which task runs: task identity under an operating system (DESIGN §3.8).
**
** Under MVS or VM (or any supervisor) several tasks share a CPU: an interruption suspends
** the running one, the supervisor runs, and a dispatcher loads some task's PSW with LPSW.
** The trace shows instructions, not tasks, so the replayer (analyze/replay.c) asks this
** module, at every dispatch, which task resumes. The rules, in order (profile.h says how
** the replayer uses them):
**
**   0. State. A task resumes in the state it was suspended in (the old PSW keeps the
**      problem-state bit): only tasks suspended in the dispatched state are candidates.
**      A dispatch into supervisor state that matches no task by its resume address is
**      not a task at all but the supervisor resuming its own interrupted work
**      (fst_tasks_dispatch returns FST_NOTASK_ID: the replayer stays in handler mode).
**   1. Address space. A task lives in one address space: CR1 (the segment table, z: the
**      primary ASCE) while it runs with DAT on, FST_SPACE_REAL with DAT off,
**      FST_SPACE_UNKNOWN when DAT is on and the trace never showed CR1 (a range trace
**      that misses the dispatcher's LCTL). Only suspended tasks of the dispatched space
**      are candidates (an unknown space matches any). So two jobs running the same
**      program at the same virtual addresses are never confused.
**   2. Resume address. Each suspended task remembers where it resumes: the instruction
**      after an SVC, the faulting instruction of a nullifying program check (a page
**      fault), the next instruction of an interrupted non-branch, the old PSW when the
**      trace shows it; unknown after a branch that may have been taken. The candidate
**      whose resume address is the dispatched address resumes.
**   3. Ties (two tasks suspended at one address, e.g. two TCBs running the same code)
**      are broken by the LPSW operand (a dispatcher that loads each task's PSW from the
**      task's own control block); failing that fst guesses the task suspended longest
**      (what a round-robin dispatcher picks), and counts a guess.
**   4. No candidate matches an address: a candidate whose resume address is unknown
**      resumes (alone: by elimination, counted; several: the longest suspended, a guess).
**   5. Nothing matches: a new task starts there.
**
** Ownership: a fst_tasks owns its tasks; fst_tasks_free frees them. Pointers returned by
** fst_tasks_get stay valid until the next fst_tasks_dispatch or fst_tasks_start. No
** function fails (memory exhaustion ends the process, common/err.h).
*/
#ifndef FST_TASKS_H
#define FST_TASKS_H

#include <stddef.h>
#include <stdint.h>

#define FST_SPACE_REAL    UINT64_MAX          /* DAT off: real addresses */
#define FST_SPACE_UNKNOWN (UINT64_MAX - 1)    /* DAT on, CR1 never seen */
#define FST_RESUME_UNKNOWN UINT64_MAX
#define FST_NOTASK_ID SIZE_MAX

typedef struct fst_task {
    uint32_t id;            /* dense, in order of appearance */
    uint64_t space;         /* FST_SPACE_* or the CR1 value */
    uint64_t first;         /* address of its first instruction */
    int suspended;
    int problem;            /* suspended in problem state */
    uint64_t resume;        /* when suspended: where it resumes, or FST_RESUME_UNKNOWN */
    uint64_t mask;          /* address mask of the resume address (24/31/64 bits) */
    uint64_t lpsw;          /* operand of the LPSW that last dispatched it, 0 = none seen */
    uint64_t since;         /* suspension order: smaller = suspended longer */
} fst_task;

/* How a dispatch identified its task. */
enum { FST_TASK_NEW, FST_TASK_BY_RESUME, FST_TASK_BY_LPSW, FST_TASK_BY_ELIMINATION,
       FST_TASK_GUESSED };

typedef struct fst_tasks fst_tasks;

fst_tasks *fst_tasks_new(void);
void fst_tasks_free(fst_tasks *ts);
size_t fst_tasks_count(const fst_tasks *ts);
fst_task *fst_tasks_get(fst_tasks *ts, size_t id);
/* A task that starts running without a dispatch (the first instruction of a trace). */
size_t fst_tasks_start(fst_tasks *ts, uint64_t addr, uint64_t space);
/* Task `id` stops running; it resumes at `resume` (or FST_RESUME_UNKNOWN), compared
** under `mask`. */
void fst_tasks_suspend(fst_tasks *ts, size_t id, uint64_t resume, uint64_t mask, int problem);
/* The dispatched task: the one that resumes at `addr` in `space`, in problem state or
** not, loaded by an LPSW whose operand was `lpsw` (0 = none seen). *how is FST_TASK_*;
** the task is running after. A supervisor-state dispatch that no resume address
** explains returns FST_NOTASK_ID (rule 0) and changes nothing. */
size_t fst_tasks_dispatch(fst_tasks *ts, uint64_t addr, uint64_t space, int problem, uint64_t lpsw, int *how);
/* An address space as reports print it: CR1 in 8 hex digits (more in z), "real" or
** "unknown"; buf has room for 24 bytes. Returns buf. */
const char *fst_space_name(uint64_t space, char *buf);
/* Task `id` runs again (the replayer knows which: the only one it could be). */
void fst_tasks_resume(fst_tasks *ts, size_t id, uint64_t lpsw);

#endif
