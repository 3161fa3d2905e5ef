/*
** analyze/tasks/tasks.h — which task runs: task identity under an operating system (DESIGN §3.8,
** §3.9).
**
** Under MVS or VM (or any supervisor) several tasks share a CPU: an interruption suspends
** the running one, the supervisor runs, and a dispatcher loads some task's PSW. The trace
** shows instructions, not tasks, so the replayer (analyze/replay/replay_task.c) tells this module
** what the trace showed when a task stopped (fst_resume) and what it shows of each dispatch
** (fst_dispatch), and asks which task resumes. A task is what the machine keeps of it: its
** address space, its PSW and its registers; every piece the trace shows is evidence, and
** the answer is the task that all of it allows:
**
**   State and space (hard). A task resumes in the state it was suspended in (the old PSW
**      keeps the problem-state bit) and in its address space: CR1 (z: the primary ASCE)
**      while it runs with DAT on, FST_SPACE_REAL with DAT off, FST_SPACE_UNKNOWN when the
**      trace never showed CR1 (a noregs range trace), which matches any space.
**   Address (hard). A suspended task resumes at one of the addresses its suspension allows:
**      the instruction after an interrupted one (or the same one, nullified by a page
**      fault; where the trace shows no interruption at all, the same one only as weakly
**      as "anywhere": fst_resume.weak), after an SVC, a branch's target or fall-through — its target from the
**      instruction (relative, or no base), from the operand the trace showed (tracebin.h
**      OPND), from the registers shown (an RR branch) — and, where the handler showed the
**      old PSW it stored (tracebin.h OLDPSW), exactly that one. A branch on a register
**      the trace did not show leaves "anywhere" (weaker than an address that matches), and
**      for a return (BR 14) also the top frame's return address.
**   Registers (hard where shown). A task resumes with the registers it was suspended with:
**      those the handler's first instruction showed (whole system), or its last
**      instruction's less what that instruction may write (a range trace); an SVC may
**      change R0, R1, R14 and R15 (OS linkage). Registers the trace shows on both sides and
**      that differ rule a task out; registers that match rule it in above all else.
**   Blocks. The dispatcher's LM of all 16 registers names the block it restores from, its
**      LPSW the PSW's; a handler's STM of all 16 names where it saved the interrupted
**      task's. A block remembers the task it was last used for: the dispatch it names is
**      that task's (+), not another's (-). A block never used before is a new task's, for a
**      task that has a block of its own (it would be dispatched from that one). A block
**      found dispatching two different tasks is shared (a common area) and says nothing
**      from then on. An LPSW of an old-PSW slot loads the interrupted PSW: its block says
**      nothing, and a tie goes to the task suspended last.
** The decision: the candidates that state, space, address and registers allow; of them
** those whose registers match, if any; then those no block rules out (unless their
** registers match); those a block names, if any; those whose address matches exactly, if
** any. One left: it resumes (FST_TASK_BY_EVIDENCE) — unless all that speaks for it is that
** it may resume anywhere: then it or a new task (FST_TASK_GUESSED, 1 left). None, and none
** that state, space, address and registers allow (a block may have ruled some out): a
** problem-state dispatch, not at a routine's entry, whose LM restores the registers from a
** block that names a suspended task with calls open (its own block, not a shared one), of
** that space and state, whose registers shown do not differ, or else the one such task
** whose registers shown all match, resumes that task there (FST_TASK_REDIRECTED): its
** supervisor changed its PSW. VM/370's CP does so for the interruptions it reflects into
** a virtual machine (its CMS handles its own SVCs in problem state, in its own space, and
** returns by an LPSW that CP does for it), and it dispatches each machine from its
** VMBLOK's VMGPRS (tests/programs/vm.s); an MVS task's asynchronous exit runs so under its
** TCB. Not at a routine's entry (fst_dispatch.entry): an exit there is that routine's, a
** task of its own as before, not the interrupted routine's time. Not a task with no calls
** open: its mainline returned, it ended (a new run of a program dispatched from a common
** block is a new task: tests/programs/mvsjob.s). Else a new task starts there
** (FST_TASK_NEW), or, for a supervisor-state dispatch, no task at all: the supervisor
** resuming its own work (FST_NOTASK_ID). Several: fst cannot know (FST_TASK_GUESSED,
** counted with how many were left): the one suspended longest (what a round-robin
** dispatcher picks), or the one suspended last after an LPSW of an old-PSW slot.
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
#define FST_NOTASK_ID SIZE_MAX

/* Where and with what a suspended task can resume: what the trace showed when it stopped. */
typedef struct fst_resume {
    uint64_t at[2];     /* the addresses it can resume at (n of them, 0-2) */
    int n;
    int anywhere;       /* also (or only) at an address the trace did not show */
    unsigned weak;      /* of at[], those it only may resume at (bit i: at[i]): as weak as
                           anywhere, for where nothing shows it (tasks.h's rules) */
    uint64_t mask;      /* address mask of its addressing mode (24, 31 or 64 bits) */
    int problem;        /* suspended in problem state */
    uint16_t grv;       /* registers shown (bit r = register r), their values */
    uint16_t grfree;    /* of them, those that may change before it resumes */
    uint64_t gr[16];
    int frames;         /* it has calls open (the replay's stack): only such a task may be
                           redirected (a task whose mainline returned has ended) */
} fst_resume;

/* What the trace shows of a dispatch. */
typedef struct fst_dispatch {
    uint64_t addr, space;
    int problem;
    uint64_t lpsw;      /* the LPSW's operand, 0 = none seen */
    int lpsw_slot;      /* it is an old-PSW slot */
    uint64_t block;     /* the LM's register block, 0 = none seen */
    uint16_t grv;       /* registers shown with the dispatched instruction */
    uint16_t grtell;    /* of them, those that tell tasks apart when they match (not, say, a
                           base register holding the routine's own address, which every task
                           running it has): a match of these is evidence, a mismatch of any */
    const uint64_t *gr;
    size_t not_plus1;   /* 1 + a task that is not the one (its registers were just seen to be
                           another's: replay_task.c), or 0 */
    int entry;          /* addr is a routine's entry: a task begins there (a mainline, an
                           exit), never one redirected (its frames would take the routine's) */
} fst_dispatch;

typedef struct fst_task {
    uint32_t id;            /* dense, in order of appearance */
    uint64_t space;         /* FST_SPACE_* or the CR1 value */
    uint64_t first;         /* address of its first instruction */
    int suspended;
    fst_resume r;           /* when suspended */
    uint64_t since;         /* suspension order: smaller = suspended longer */
    uint64_t block[2];      /* the LM block and LPSW operand of its last dispatch, 0 = none */
} fst_task;

/* How a dispatch identified its task. */
enum { FST_TASK_NEW, FST_TASK_BY_EVIDENCE, FST_TASK_GUESSED, FST_TASK_REDIRECTED };

typedef struct fst_tasks fst_tasks;

fst_tasks *fst_tasks_new(void);
void fst_tasks_free(fst_tasks *ts);
size_t fst_tasks_count(const fst_tasks *ts);
fst_task *fst_tasks_get(fst_tasks *ts, size_t id);
/* A task that starts running without a dispatch (the first instruction of a trace). */
size_t fst_tasks_start(fst_tasks *ts, uint64_t addr, uint64_t space);
/* Task `id` stops running; r says where and with what it can resume (copied). */
void fst_tasks_suspend(fst_tasks *ts, size_t id, const fst_resume *r);
/* Task `id`, suspended, resumes exactly at `addr` (an old PSW shown): when its resume
** allows that address (or anywhere); returns whether it took it. */
int fst_tasks_refine(fst_tasks *ts, size_t id, uint64_t addr);
/* The registers of suspended task `id` were saved into `block` (a handler's STM). */
void fst_tasks_saved(fst_tasks *ts, size_t id, uint64_t block);
/* The dispatched task (the rules above); *how is FST_TASK_*, *left how many candidates
** were left when it is a guess (else 1, 0 for a new task). The task is running after. A
** supervisor-state dispatch that no task accounts for returns FST_NOTASK_ID and changes
** nothing. */
size_t fst_tasks_dispatch(fst_tasks *ts, const fst_dispatch *d, int *how, size_t *left);
/* Whether a suspended task in `space`, problem state or not, resumes exactly at addr (not
** merely anywhere): the evidence that a jump the trace does not explain is a task switch. */
int fst_tasks_resumes_at(fst_tasks *ts, uint64_t addr, uint64_t space, int problem);
/* The candidates the last fst_tasks_dispatch left (its *left of them; valid until the
** next dispatch): for a guess, the tasks it could have been. */
const size_t *fst_tasks_candidates(const fst_tasks *ts, size_t *n);
/* Task `id` runs again (the replayer knows which: the only one it could be). */
void fst_tasks_resume(fst_tasks *ts, size_t id);
/* An address space as reports print it: CR1 in 8 hex digits (more in z), "real" or
** "unknown"; buf has room for 24 bytes. Returns buf. */
const char *fst_space_name(uint64_t space, char *buf);

#endif
