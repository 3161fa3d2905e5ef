/*
** analyze/replay/replay_int.h — private to the replayer (analyze/replay/replay*.c): its state and the
** helpers its files share. Not part of the library's interface; nothing else includes it.
**
**   replay.c        the record loop, the per-instruction decisions (insn, insn_fast) and
**                   SEQ runs replayed a block at a time (inlined in the loop: no call per
**                   run)
**   replay_task.c   which task a CPU runs: interruptions, dispatches, switches a range
**                   trace shows, wait states; the evidence of each (tasks.h)
**   replay_unc.c    what a guess of which task ran leaves uncertain, and what settles it
**   replay_stack.c  entry points and the stack of a task: calls, returns, unwinds, tail
**                   calls (DESIGN §3), each a CALL/RETURN/UNWIND event
**   replay_exec.c   the EXECs: pending per CPU and added up in bulk, batches, events to
**                   the sinks
**   replay_fold.c   loops folded: a period of SEQ runs that leaves the replay as it found
**                   it, but for its counters, is replayed once and then added up
**   replay_foldlong.c which long periods folding tries: one that folded too little is held off
**   replay_foldkeep.c periods recorded, kept: a loop entered again folds from its first runs,
**                   with no window of looking and no recording
**   replay_memo.c   calls memoized: a call's whole subtree, replayed once, is added up
**                   when it comes again from the same state with the same bytes
**   replay_chunk.c  stretches memoized: a few runs with no call or return, replayed once,
**                   added up wherever the trace repeats them from the same state
**   replay_win.c    --window (window.h): the sinks muted and the figures dropped before
**                   its first instruction, the frames open there announced, the replay
**                   stopped at its end
**
** The pending EXECs (the contract between the three): a CPU's EXECs are added to its
** task's clock and to the call graph's profile only by fst_rp_flush, all of them with the
** CPU's prev_task, prev_state, prev_owner and prev_charged. So whoever changes one of those
** four flushes first; an event's clocks count what is pending (fst_rp_emit), and the
** replay flushes every CPU at its end (fst_rp_flush_all). Who executes an instruction
** counts it in the instruction mix (count_op, or fst_blk_ran for a block's run).
**
** Ownership: everything is owned by the rp of one fst_replay call and freed there. No
** function here fails: bad input was refused by the reader or is counted in the profile.
*/
#ifndef FST_REPLAY_INT_H
#define FST_REPLAY_INT_H

#include "analyze/replay/code.h"
#include "isa/decode.h"
#include "analyze/profile/profile.h"
#include "analyze/replay/replay.h"
#include "common/map.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct rp_frame {
    size_t owner;     /* nearest timed routine: the routine itself when timed */
    uint64_t ret;     /* return address, masked to the call's addressing mode; ~0: none */
    uint64_t mask;
    uint64_t unverified;  /* 1: a call through a register a range trace without registers did
                             not show, which a task switch would look like: uncertain unless
                             it returns to its caller (replay_stack.c) */
} rp_frame;

/* A task's call state: its stack and its previous instruction. */
typedef struct rp_task {
    rp_frame *f;
    size_t *routine;  /* the routine of every frame: the `stack` of events */
    size_t n, cap;
    uint32_t *rets;   /* FST_RP_RETS counters (made at the first push): frames whose return
                         address hashes there (rets_slot). A branch whose target and the four
                         words below it hash to counters at 0 returns to no open frame: most
                         branches are ruled out without a scan (depth-independent), the others
                         scan the stack (a collision costs a scan, never a wrong answer) */
    int have_prev;
    fst_insn prev;
    uint32_t prev_state;
    int had_mainline;
    int started;      /* a dispatch ran its first instruction (its mainline is entered then) */
    int taint;        /* a guess among tasks whose call states differed took it or left it: its
                         calls and instructions are uncertain from then on (profile.h) */
    uint64_t insns;   /* its clock (events.h) */
    fst_fx cost;
} rp_task;

#define FST_RP_BATCH 64
#define FST_RP_RETS 256

static inline size_t rets_slot(uint64_t ret) { return (size_t)(ret >> 1) & (FST_RP_RETS - 1); }

typedef struct rp_cpu {
    size_t task;            /* the task it runs, or works for while handling; FST_NONE: none */
    int handler;            /* handling an interruption (profile.h) */
    int dispatch;           /* the handler's last instruction loaded a PSW: the next is a dispatch */
    int intr;               /* an interruption record since the last instruction */
    uint32_t pgm;           /* its program-check code, 0 for other classes */
    int gap;                /* tracing was off since the last instruction */
    uint64_t lpsw;          /* operand of the last LPSW record, 0 = none */
    uint8_t lpsw_pswlen;    /* the PSW it loaded (0 = not known) */
    uint8_t lpsw_psw[16];
    uint64_t cr1;
    int cr1_known;
    /* the evidence of which task runs (tasks.h), as the trace shows it on this CPU */
    uint64_t gr[16];        /* registers shown with the current instruction (REGS: all of
                               them; BASES: the base registers known of the running task), */
    uint64_t pgr[16];       /* and as they were before the last REGS or BASES (fresh) */
    uint16_t grv, pgrv;     /* which of them the trace has shown */
    uint16_t dirty, pdirty; /* of those, the ones an instruction since may have written */
    uint16_t gnow;          /* BASES: the ones the current instruction's operands showed */
    uint16_t grbad;         /* the last REGS or BASES changed registers no instruction could:
                               a task switch */
    int fresh;              /* a REGS or BASES came since the last instruction */
    int space_new;          /* a CR1 the display showed changed the space under a task */
    int have_opnd;          /* OPND of the last instruction (tracebin.h) */
    uint64_t opnd;
    uint64_t lmblk;         /* the block the handler's LM 0,15 restored from, 0 = none */
    size_t not_plus1;       /* a switch the registers showed: 1 + the task switched from, which
                               the dispatch that follows cannot choose; 0 = none */
    int intr_cls;           /* the class of an INTR record since the last instruction */
    int susp_cls;           /* the class of the interruption the handler handles, 0 unknown */
    int refined;            /* the suspended task's old PSW was taken (tasks.h) */
    size_t psp_call;        /* the routine a branch on a register the trace did not show
                               called since the last BASES, FST_NONE: none (late_switch) */
    int late;               /* the switch due was seen late (replay_task.c late_switch) */
    size_t disp_entry;      /* the routine whose entry the running task was dispatched at, until
                               a BASES agrees with it: a late switch began there */
    struct { uint64_t addr; size_t owner; } since[64];  /* BASES: the instructions since the
                               registers last agreed with the task's (a late switch may have
                               come anywhere among them), the last 64 */
    size_t nsince;
    /* the last instruction, waiting for its successor to be priced */
    int have_prev;
    int ran;                /* no interruption, gap or wait came after prev, and either prev
                               was run for the task (not handling: it is the task's prev too)
                               or the handler goes on (no dispatch due): insn_fast may take
                               the next instruction */
    fst_insn prev;
    uint32_t prev_state;
    size_t prev_task;
    size_t prev_owner;      /* owner when prev executed: FST_NONE = outside */
    int prev_charged;       /* FST_CHARGE_* */
    fst_fx prev_cost[2];    /* prev's cost not taken, taken (code.h) */
    /* EXECs not yet added to the clocks and the profile, all of prev_task, prev_state,
    ** prev_owner and prev_charged: added at once when one of those changes (flush) and at
    ** the end; an event's clocks count them (emit) */
    uint64_t pend_n;
    fst_fx pend_cost;
    size_t batch_room;      /* room left in rp's batch when it is this CPU's, else 0 */
    fst_event exec;         /* the EXEC event, reused: set up once, per instruction only
                               the fields that change (building one was a fifth of the replay) */
} rp_cpu;

/* The counters a stretch of runs of one task on CPU 0 can add to (replay_fold.c
** fst_rp_regions): regions of adjacent uint64_t, each named by a kind and an index so that
** a memo (replay_memo.c) finds it again after the arrays moved, and their values when taken. */
enum { RP_K_PROF_INSNS, RP_K_PROF_EVENTS, RP_K_PROF_TASKS, RP_K_ROUTINE, RP_K_ARC, RP_K_TASKPROF,
       RP_K_TASKROUTINES, RP_K_UNDECODED, RP_K_BLOCK, RP_K_OP, RP_K_OPS, RP_K_TASK, RP_K_PEND, RP_K_GAP };
typedef struct rp_reg {
    uint64_t *p;
    size_t n;
    size_t idx;             /* routine, arc, undecoded, block slot or op; 0 for the others */
    int kind;               /* RP_K_* */
} rp_reg;
typedef struct rp_regs {
    rp_reg *reg;
    size_t nreg, regcap;
    uint64_t *val;          /* every region's values, in order */
    size_t nval, valcap;
    uint64_t *opstamp;      /* per op: the taking that has its counter (fold: ops of blocks) */
    uint64_t stamp;
} rp_regs;

/* replay_fold.c's state (see there): one recorded period of runs and what it adds. */
#define FST_FOLD_PMAX 4096  /* the longest period looked for, in runs */
#define FST_FOLD_W 32       /* a period is proposed when the last W runs repeat (replay_fold.c) */
#define FST_FOLD_SHORTS 64  /* long periods that folded too little, remembered */
typedef struct rp_foldrec {
    fst_rec rec;            /* the run as the reader handed it out */
    uint32_t took;          /* what the replay took of it, and where the next one starts */
    uint64_t next;
    uint8_t last[6];        /* the bytes of the last one taken (a TAKEN run's branch) */
} rp_foldrec;

typedef struct rp_foldshort { uint64_t key, until, wait; } rp_foldshort;

typedef struct rp_fdelta { uint64_t *p; uint64_t d; } rp_fdelta;  /* a counter, what a period adds */
typedef struct rp_foldkept rp_foldkept;     /* replay_foldkeep.c */

typedef struct rp_fold {
    int on;                 /* the replay's sinks and options allow folding at all */
    int mode;               /* 0 looking, 1 recording, 2 folding */
    uint64_t seen;          /* runs looked at, passed quiet or taken by a folding (a clock
                               for the period: replay_fold.c replay_ahead) */
    uint64_t quiet;         /* runs left before it looks again (counted in seen already):
                               after a failure, or until the budget pays; folding off: all */
    uint64_t backoff;
    uint64_t win[FST_FOLD_W];   /* the signatures of the last runs looked at in a row (a ring) */
    uint64_t wh;            /* their rolling hash */
    uint64_t bw;            /* its base to the power W (replay_fold.c FOLD_B) */
    uint64_t wlast;         /* `seen` at the last of them */
    uint32_t wfill;         /* how many (W: the hash is of a whole window) */
    struct { uint64_t h, at; } *wtab;   /* windows' hashes, where last seen (FOLD_WTAB) */
    rp_foldrec *log;        /* FST_FOLD_PMAX: the recorded period */
    uint32_t *depths;       /* FST_FOLD_PMAX: the stack depth of each run looked at (a ring) */
    uint64_t pr_period, pr_until;   /* the last period proposed, until when it stands, and */
    uint32_t pr_depth;      /* the lowest depth of its runs: where a recording may begin */
    uint32_t period, j;     /* the period's length; recording or folding: the next run's index */
    size_t low;             /* the task's lowest stack depth since the recording began */
    /* the key at the period's start (replay_fold.c: what must come back), at its end */
    unsigned char *snap, *now;
    size_t snaplen, snapcap, nowcap;
    size_t depth;           /* the task's stack depth at the start */
    size_t maxdepth;        /* periods are looked for from this depth down: a recording
                               that returned below its start depth lowers it, until */
    uint64_t maxdepth_until;
    /* long periods that folded too little (replay_foldlong.c), by the window that
    ** proposed them and the period: not proposed again until `until` (seen) */
    rp_foldshort shorts[FST_FOLD_SHORTS];
    uint64_t rec_key;       /* that of the period recorded or folded */
    /* long periods' account (replay_foldlong.c): runs they cost, runs they folded;
    ** while the cost is the larger, none is proposed until long_until (seen) */
    uint64_t lcost, lgain, long_until, long_wait;
    /* the counters: regions of uint64_t, their values at the start, then the deltas */
    rp_regs rs;
    rp_fdelta *delta;
    size_t ndelta, deltacap;
    uint64_t folded;        /* whole periods folded since folding began, their deltas not
                               added yet (added when it ends: nothing reads them meanwhile) */
    /* a period's op bytes (tracebin.h fst_tr_mark): from two period ends in the same reader
    ** state, skipped whole while the trace repeats them */
    int marked;
    fst_tr_mark mark;
    uint8_t ops[16384];
    size_t nops;
    uint64_t opinsns;
    uint64_t runs;          /* runs folded in all, recordings, failed ones, foldings ended
                               (FST_REPLAY_FOLD_STATS) */
    uint64_t recordings, failures, ends;
    uint64_t spent;         /* words of counters and key the recordings copied and compared */
    size_t cost;            /* what the last recording cost, in those words (0: not known) */
    uint64_t denied;        /* periods found but not recorded: not paid for yet */
    int eager;              /* FST_REPLAY_FOLD=eager: no budget */
    /* EXECs charged outside handed to sinks while a period is recorded (code outside every
    ** routine: a window begun inside MAIN, which is never entered; the diagnosis takes them
    ** in batches): the period's, handed again once for every period folded */
    int out_bad;            /* more than FOLD_OUT_MAX, or a sink wants each: the recording fails */
    fst_insn *out;
    size_t nout, outcap;
    /* periods kept (replay_foldkeep.c): by the signature of their first run; the one the
    ** folding in progress came from or was kept in (slot + 1, 0: none); the signature of the
    ** run a recording began at; how many foldings began from one kept, keys that differed */
    rp_foldkept *kept;
    uint32_t kslot;
    int kfrom;              /* the folding in progress began from a period kept */
    uint64_t kruns;         /* runs folded by the foldings that began so (replay_fold.c earned) */
    uint64_t sig0;
    uint64_t reuses, reuse_misses;
    /* whether periods kept are tried now, as trials of both ways said (replay_foldkeep.c
    ** trial): koff; the stage (-1 none yet, 0 trying them, 1 not, 2 the better way) and
    ** what the last such stage chose; its length in trials' runs (FK_RUN doubling); when the
    ** stage ends (seen); runs folded, seen and budget spent when it began (stage_cost); the
    ** first trial's cost a run */
    int koff, kstage, koff_was;
    uint64_t krun;
    uint64_t kuntil, kruns0, kseen0, kspent0, kcost;
    uint64_t ktrials, koffs;    /* trials, and how many kept periods off (FST_REPLAY_FOLD_STATS) */
} rp_fold;

/* replay_memo.c's state (see there): the call being recorded, and the memo. */
#define FST_MEMO_RETS 32    /* a recording keeps at most so many return targets, */
#define FST_MEMO_CALLS 64   /* and routines called (more: it is dropped) */
typedef struct rp_memo_ent rp_memo_ent;
#define FST_MEMO_SITES 1024
#define FST_MEMO_WHOLE 32   /* runs: a subtree the stretches leave to the memo (fst_rp_memo_whole) */
/* What the memo knows of a call site (its call's address), in a slot by the site's bits
** (fst_rp_memo_slot): the runs of the subtree it reused last there, 0 once its lookups back
** off (fst_rp_memo_whole); and whether its calls pay (replay_memo.c site_try): the calls
** looked at, the recordings begun, the hits and the instructions they skipped since the
** site was last judged, and the calls left that the memo passes by (fst_rp_memo_pass) since
** it was judged a loss. */
typedef struct rp_memo_site {
    uint64_t site;
    uint64_t runs;
    uint64_t gain;          /* instructions skipped */
    uint32_t tries, recs, hits, skip, backoff, judged;
} rp_memo_site;
typedef struct rp_memo {
    int on;                 /* as folding, and not FST_REPLAY_NOMEMO */
    int eager;              /* FST_REPLAY_FOLD=eager: no budget, no second sight needed */
    int rec;                /* a call is being recorded: */
    uint64_t sig;           /* its signature, task, stack depth before the call and the */
    size_t tid, depth, low; /* lowest since (fst_rp_pop) */
    fst_tr_mark a;          /* the reader at the call */
    unsigned char *key;     /* the key then (replay_memo.c mkey) */
    size_t keylen, keycap;
    rp_regs rs;             /* the counters then, but the blocks': */
    uint64_t stamp;         /* the recording's number: a block with it has its counts in */
    struct { size_t slot; uint64_t ran[FST_BLK_MAX + 1]; } *jblk;  /* the blocks' as they were */
    size_t njblk, jblkcap;
    uint64_t rets[FST_MEMO_RETS];   /* return-like branches' targets the top frame did not take */
    size_t nrets;
    uint64_t routines[FST_MEMO_CALLS];  /* the routines called */
    size_t nroutines;
    int spoiled;            /* too many of either */
    uint64_t runs;          /* runs since the call */
    uint64_t was[8];        /* what must not change meanwhile (replay_memo.c still_good) */
    fst_insn *out;          /* EXECs charged outside handed to sinks since the call (a call
                               from no frame: the diagnosis' batches) */
    size_t nout, outcap;
    rp_memo_ent **slot;     /* the memo, by signature */
    struct memo_seen *seen; /* signatures seen: a call is recorded the second time */
    size_t bytes;           /* the memo's */
    uint64_t spent;         /* the budget (replay_memo.c spend) */
    uint32_t quiet;         /* calls left that are not looked at: the budget was spent */
    uint64_t hits, skipped, insns, recordings, kept, dropped;  /* FST_REPLAY_FOLD_STATS */
    rp_memo_ent **pend;     /* reused since the last settle (fst_rp_memo_settle) */
    size_t npend, pendcap;
    rp_memo_site site[FST_MEMO_SITES];  /* call sites (rp_memo_site) */
    uint64_t sites_off, rec_runs;   /* judged a loss, runs recorded (FST_REPLAY_FOLD_STATS) */
} rp_memo;

/* replay_chunk.c's state: stretches of runs, recorded once and then added up. */
typedef struct rp_chunk {
    int on;                 /* as folding, no --tail-calls, and not FST_REPLAY_NOCHUNK */
    int eager;              /* FST_REPLAY_CHUNK=eager: no budget */
    int rec;                /* a stretch is being recorded: the blocks it runs are noted */
    uint64_t stamp;         /* the recording's number (fst_blk.cstamp) */
    struct { uint64_t *p; uint64_t v; } *snap;  /* the counters it may change, as they were */
    size_t nsnap;
    int spoiled;            /* more of them than snap holds, or an opcode not known */
    uint64_t *opstamp;      /* per op: the recording that noted its count */
    struct rp_chbkt *bkt;   /* the table: buckets of ways, each a tag and where its stretch is
                               (replay_chunk.c ch_bkt), at a cache line in bkt_mem */
    void *bkt_mem;
    unsigned char *arena;
    size_t used, size;
    uint32_t last;          /* the stretch memoized last: arena offset + 1, 0 none */
    /* calls and returns inside a stretch (replay_chunk.c "Calls"): whether this phase records
    ** them, and while recording the frame events and flushes seen (fop, nfop; more than
    ** CH_FOPS spoil it) and the task's clock at its start */
    int calls;
    int active;             /* a trial gained: the program repeats (phase_end) */
    unsigned warm;          /* trials begun since */
    struct ch_fop *fop;
    uint32_t nfop;
    uint64_t clk_n;
    uint64_t clk_cost;
    size_t low;             /* the lowest depth it went to, */
    struct ch_below *below; /* and the frames it returned from below its start */
    uint32_t nbelow;
    uint32_t *pend;         /* stretches hit whose deltas wait (replay_chunk.c settle) */
    size_t npend;
    int64_t credit;         /* the budget (replay_chunk.c) */
    uint32_t quiet;         /* record-loop turns left without a look: the budget was spent */
    /* how many runs a stretch may hold and its key hashes: 16, 8 or 4, whichever gained most
    ** in its last trial (replay_chunk.c "Which stretches", ch_lens) */
    unsigned len, phase;
    uint64_t ep_end;        /* the instruction (win_at) that ends this phase */
    unsigned way;           /* the length's index (replay_chunk.c ch_lens) */
    int64_t gain, tried[3]; /* tried: a way each */
    unsigned long_lost, long_wait;  /* the trials of 16 lost in a row, rounds to wait for the next */
    unsigned lost;          /* rounds of trials in a row in which neither gained */
    int resting;            /* their rest: no look, no trial, until ep_end (phase_end) */
    uint64_t rests;         /* FST_REPLAY_FOLD_STATS: the phases rested */
    int long_only;          /* FST_REPLAY_CHUNK=long: 16 runs in every phase (the tests compare) */
    uint64_t others0;       /* runs folded and skipped by the memo of calls when it began */
    int calls_ok;           /* not FST_REPLAY_CHUNK=nocalls: phases may record calls (calls) */
    uint64_t hits, runs, insns, recordings, kept, resets;   /* FST_REPLAY_FOLD_STATS */
    uint64_t fhits;         /* FST_REPLAY_FOLD_STATS: hits with calls or returns */
    uint64_t lens[3];       /* FST_REPLAY_FOLD_STATS: the phases each length ran */
} rp_chunk;

/* replay_unc.c's state: a guess not settled yet, and what it changed, as it was before. */
typedef struct rp_tent {
    int on;
    size_t task;            /* the task it chose */
    size_t *ids;            /* the candidates, and their taint and uncertain flags before */
    uint8_t *taint;
    size_t n, cap;
    uint64_t *unc;          /* per routine: calls_unc, self_unc before */
    uint64_t dispatches, calls, insns;
} rp_tent;

typedef struct rp {
    fst_profile *p;
    const fst_replay_opts *o;
    fst_sink *sinks;
    size_t nsinks;
    fst_callgraph *cg;  /* sinks[0], but told of CALL, RETURN and UNWIND by direct calls
                           (fst_rp_emit_frame), before the other sinks */
    int flat;           /* cg is flat (fst_callgraph_is_flat) */
    /* the sinks that want each event kind, in order; [NKINDS]: an EXEC charged outside */
    fst_sink *want[FST_EV_MARK + 2];
    size_t nwant[FST_EV_MARK + 2];
    int want_exec[3];   /* by FST_CHARGE_*: a sink wants those EXECs (the call graph is not asked) */
    int takes_batch[3]; /* by FST_CHARGE_*: every sink that wants them takes batches */
    /* EXECs for sinks that take batches (events.h FST_WANT_EXEC_BATCH), not yet emitted:
    ** the last nbatch of the pending ones of one CPU (one at a time: events stay in order) */
    size_t batch_cpu;   /* that CPU, FST_NONE: none */
    size_t nbatch;
    fst_fx batch_cost;
    fst_insn batch[FST_RP_BATCH];
    fst_event fev;      /* CALL, RETURN and UNWIND events, reused (replay_stack.c): per event
                           only the fields of its kind are set, the others stay 0 */
    fst_code *code;     /* decoded instructions and blocks (code.h) */
    size_t *hash;       /* entry address -> routine index (open addressing) */
    size_t hcap;
    int mainline_fixed; /* the model named the mainline */
    uint64_t ml_lo, ml_hi;  /* the lowest and highest entry of a routine marked mainline
                               (p->r[].mainline: named, or entered as one): mainline_at's
                               first test */
    size_t sup;         /* the "(supervisor)" routine, FST_NONE unless --supervisor=row */
    fst_tasks *ids;     /* task identity (tasks.h) */
    rp_task *t;         /* call state, by task id */
    size_t nt, tcap;
    rp_cpu *cpus;       /* by CPU number (up to 65535, as trace.bin allows), grown on use */
    size_t ncpu;
    int regs;           /* the trace shows registers (REGS or BASES records): the fast paths
                           keep c->dirty as insn() does (a record stops them once: c->ran);
                           with BASES every instruction goes through insn() */
    int bases;          /* of them, BASES only: what is known of a task's registers is
                           partial and its own (replay_task.c) */
    int tainted;        /* a task is uncertain (rp_task.taint): every instruction goes through
                           insn(), which counts what is uncertain (loops are not folded) */
    struct fst_holder *holder;  /* which routine holds an address (holder.h), once tainted or
                                   a call went to no entry (replay_fit.c) */
    uint64_t *fit_prologue;     /* per routine: calls onto a prologue inside it (replay_fit.c) */
    uint64_t *cover;            /* the sections' extents, [cover[2i], cover[2i+1]) sorted and
                                   merged, when every length is known (replay_fit.c) */
    size_t ncover;
    int inferring;      /* the dispatch due follows an inferred switch (replay_task.c) */
    int sup_seen;       /* a supervisor-state instruction was traced: the trace shows the
                           supervisor's handlers, no switch hides between two instructions */
    int ranged;         /* the trace's header names a traced range: the supervisor may be
                           partly outside it (an SVC's handler, say) */
    int midrun;         /* a window of a running system (header window=attach, not begun before
                           the IPL: window-start=ipl): a CPU's first instruction is where the
                           attach landed, not where its program began, and a task's first call
                           is a call (replay_stack.c), not its mainline's start */
    rp_tent tent;       /* replay_unc.c */
    int debug;          /* FST_TASKS_DEBUG: every task decision and its evidence on stderr */
    int may_exclude;    /* some routine excluded, --cpu=problem or an address space chosen */
    int plain;          /* nothing excluded and no supervisor row: insn_fast can apply */
    uint64_t ndispatch; /* events handed to sinks (fst_rp_emit*), the call graph's direct
                           calls not counted */
    uint64_t nout_disp; /* of them, EXECs charged outside: what a recording of the memo or
                           the fold keeps and hands again (fst_rp_out_add), not an event
                           that ends it (fst_rp_other_events) */
    rp_fold fold;       /* replay_fold.c */
    rp_memo memo;       /* replay_memo.c */
    rp_chunk chunk;     /* replay_chunk.c */
    uint64_t nslow;     /* instructions insn() took (replay.c): not the common case */
    int lean;           /* the lean loop may take turns (replay.c lean_runs): not
                           FST_REPLAY_NOLEAN=1 (tests compare the replays byte for byte) */
    uint64_t nlean, nleanr; /* the instructions and runs it took (FST_REPLAY_FOLD_STATS) */
    int lean_frames;    /* no sink wants a CALL, RETURN or UNWIND and no --tail-calls: the
                           lean loop's calls and returns go to the call graph alone
                           (fst_rp_lean_branch, below); set with the sinks */
    /* the lean loop's last call, not told to the call graph yet (fst_rp_lean_branch):
    ** its task's top frame's; its caller and the task's clock at the call */
    int ldefer;
    size_t ldcaller;
    uint64_t ldn;
    fst_fx ldc;
    /* --window (replay_win.c): the record loop counts the instructions it takes (win_at:
    ** the next one's number) and, at win_edge, calls fst_rp_win_edge before that
    ** instruction is replayed; a SEQ run is cut at the edge */
    int win;            /* a window is cut */
    int win_open;       /* its first instruction was reached */
    int win_cpus;       /* it stopped: another CPU had a branch pending at an edge, */
    uint16_t win_cpu;   /* that CPU and the branch's address */
    uint64_t win_addr;
    uint64_t win_at, win_edge;  /* win_edge: from, then to (UINT64_MAX: the trace's end) */
    size_t win_nsinks;  /* all the sinks, x->nsinks while they are muted */
} rp;

/* replay_exec.c */
rp_cpu *fst_rp_cpu_grow(rp *x, uint16_t n);      /* CPUs up to n, zeroed, no task */
void fst_rp_flush(rp *x, rp_cpu *c);             /* c's pending EXECs to clocks and profile */
/* What fst_rp_flush does with n EXECs (n > 0) costing `cost`, charged as given, of c's
** previous task and state: the task's clock and the call graph's figures (a stretch's
** flushes, added up, replay_chunk.c). */
static inline void fst_rp_charge(rp *x, const rp_cpu *c, uint64_t n, fst_fx cost, size_t owner, int charged)
{
    size_t tid = c->prev_task;
    if (tid != FST_NONE) {
        x->t[tid].insns += n;
        x->t[tid].cost += cost;
    }
    fst_callgraph_exec_n(x->p, tid == FST_NONE ? FST_NOTASK : (uint32_t)tid, c->prev_state, charged, owner, n, cost);
}
void fst_rp_flush_all(rp *x);
/* What the lean loop (replay.c lean_runs) keeps of its CPU's task: its clock (t), and its
** part of the call graph (cg: its stack, the profile's figures of it and of its routines),
** for fst_rp_lean_flush and fst_rp_lean_branch, found at the first of them (cg.s NULL until
** then: a lean loop between two stretches' hits often has none, and found at each loop's
** start it cost cgen seed 26598 2 % more host instructions). */
typedef struct rp_lean {
    rp_task *t;
    size_t tid;
    fst_cgtask cg;
} rp_lean;
static inline void fst_rp_lean_init(rp *x, size_t tid, rp_lean *l)
{
    l->t = &x->t[tid];
    l->tid = tid;
    l->cg.s = NULL;
}
/* l->cg, found now if not yet */
static inline fst_cgtask *fst_rp_lean_cg(rp *x, rp_lean *l)
{
    if (!l->cg.s)
        fst_callgraph_task(x->cg, (uint32_t)l->tid, &l->cg);
    return &l->cg;
}
/* fst_rp_flush where the lean loop runs task l->t on c: no batch waits, nothing records
** (lean_ok), and c's previous instruction was the task's. A call or a return of a call-heavy
** program (cgen seed 27938, a call every 19 instructions) flushes twice: in fst_rp_flush,
** finding the task's figures again each time was most of its 81 host instructions. */
static inline __attribute__((always_inline)) void fst_rp_lean_flush(rp *x, rp_cpu *c, rp_lean *l)
{
    if (x->batch_cpu != FST_NONE) { /* the batch first (fst_rp_lean_branch leaves it) */
        fst_rp_flush(x, c);
        return;
    }
    if (!c->pend_n && !c->pend_cost)
        return;
    l->t->insns += c->pend_n;
    l->t->cost += c->pend_cost;
    fst_cgtask *h = fst_rp_lean_cg(x, l);
    fst_callgraph_exec_at(x->p, h->tp, &h->tr, c->prev_state, c->prev_charged, c->prev_owner, c->pend_n, c->pend_cost);
    c->pend_n = 0;
    c->pend_cost = 0;
}
/* To the sinks that want it: e of task tid (FST_NONE: none), with its clocks; a batch
** not yet emitted goes first. */
void fst_rp_emit(rp *x, fst_event *e, size_t tid);
void fst_rp_batch_out(rp *x);                    /* the batch of x->batch_cpu, to the sinks */
void fst_rp_memo_out(rp *x, const fst_event *e); /* a call recorded: e, EXECs charged outside, to sinks */
void fst_rp_fold_out(rp *x, const fst_event *e); /* a period recorded: the same */
/* What the memo and the fold keep of those EXECs: e's added to *v (n of them, room *cap,
** at most max: -1 when more); and handed again, as one event of CPU 0's task tid (only to
** sinks that take them in batches: the diagnosis, which adds them up). */
int fst_rp_out_add(fst_insn **v, size_t *n, size_t *cap, size_t max, const fst_event *e);
void fst_rp_out_emit(rp *x, const fst_insn *v, size_t n, size_t tid);
/* The batch waiting, to the sinks now: where a recording begins or ends, so that none is
** pending there and what the recording kept is all it handed out. Only the diagnosis takes
** batches while the memo or the fold is on; it adds them up however they are cut. */
static inline void fst_rp_out_flush(rp *x)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
}
/* Events handed to sinks, but EXECs charged outside: what a recording must not see. */
static inline uint64_t fst_rp_other_events(const rp *x) { return x->ndispatch - x->nout_disp; }
/* e, of task tid (FST_NONE: none), to the sinks that want events of kind k (FST_EV_MARK + 1:
** an EXEC charged outside), with the stack and the profile set. */
void fst_rp_to_sinks(rp *x, fst_event *e, size_t tid, size_t k);
/* exec_n's event: emitted, or the first of a batch. */
void fst_rp_exec_event(rp *x, rp_cpu *c, uint16_t cpuno, const fst_insn *d, size_t n, fst_fx cost, int taken);
void fst_rp_sort_sinks(rp *x);                   /* x->want, x->want_exec, x->takes_batch */
void fst_rp_count_unknown(fst_profile *p, const fst_insn *d, uint64_t n);
void fst_rp_count_ops(void *ctx, const fst_insn *d, uint64_t n);   /* code.h fst_code_count */

/* replay_stack.c */
void fst_rp_build_hash(rp *x);                   /* x->hash, x->sup, x->mainline_fixed */
void fst_rp_push(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask,
                 int counted);
void fst_rp_pop(rp *x, size_t tid, uint16_t cpuno, fst_ev_kind kind, uint32_t code);
void fst_rp_enter_mainline(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret,
                           uint64_t mask);
void fst_rp_mainline_mark(rp *x, size_t r);      /* r is a mainline: its flag, ml_lo and ml_hi */
/* The task's previous instruction, a branch, was taken to rec: a call, a return, a tail call? */
void fst_rp_branched_to(rp *x, size_t tid, const fst_rec *rec, const fst_insn *d); /* d: rec's instruction */
/* The call graph told of the call fst_rp_lean_branch deferred (x->ldefer), the lean loop's
** task's (l->t) top frame's, if any: before anything but the lean loop's calls and returns
** meets the call graph or the task's frames. */
static inline void fst_rp_lean_told(rp *x, rp_lean *l)
{
    if (x->ldefer) {
        x->ldefer = 0;
        fst_callgraph_call_in(x->cg, fst_rp_lean_cg(x, l), l->t->routine[l->t->n - 1], x->ldcaller, 1, x->ldn,
                              x->ldc);
    }
}
/* replay_fit.c: a call (linking through register 14) from `site` to d, an instruction at no
** entry: counted in the profile's misfit_* when it lands inside another routine. */
void fst_rp_misfit(rp *x, size_t tid, uint64_t site, const fst_insn *d);
/* After the replay: the profile's misfit_stray from the prologues called inside routines
** never entered; frees what fst_rp_misfit kept. */
void fst_rp_fit_end(rp *x);
/* Before the replay: x->cover from the routines' sections, or none when a length is not known. */
void fst_rp_cover_init(rp *x);
/* Whether an instruction at addr counts in the profile's gap_insns: inside the extent, no
** section holds it (never without x->cover). */
int fst_rp_gap_at(const rp *x, uint64_t addr);
/* n executions of such an instruction at addr (the first one's address kept). */
void fst_rp_gap_add(fst_profile *p, uint64_t addr, uint64_t n);

/* replay.c: run rec, a SEQ run whose first instruction starts block b, as the record loop
** does: insn_fast or insn, then the rest of the run. With take, what was taken is taken from
** the reader; else the reader has moved on already (replay_fold.c replays a run it read).
** *took and *next: what was taken and where the next instruction is. Returns whether
** insn_fast took the first instruction. */
int fst_rp_run(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b, int take, uint32_t *took, uint64_t *next);

/* replay_fold.c */
void fst_rp_fold_init(rp *x);           /* after fst_rp_sort_sinks: may loops be folded? */
void fst_rp_fold_free(rp *x);
/* rec, a SEQ run at block b: 0 when the caller runs it as usual; 1 when it was run or
** folded; 2 when the caller runs it, but looks its block up again first (runs replayed
** meanwhile may have taken b's slot). */
int fst_rp_fold_run(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b);
/* The runs folded so far, the periods of a folding still open included. */
static inline uint64_t fst_rp_fold_runs(const rp_fold *f) { return f->runs + f->folded * f->period; }
/* The counters the runs of task tid on CPU 0 can add to, and their values, into rs. With
** `memo`: all the instruction mix and the profile's gap_insns, not the CPU's pending EXECs
** (a memo keys on them) nor the blocks' counts (a memo takes a block's when it first runs:
** fst_rp_memo_touch); else the ops of the blocks, the blocks' counts and the pending EXECs. */
void fst_rp_regions(rp *x, size_t tid, rp_regs *rs, int memo);
void fst_rp_regions_free(rp_regs *rs);
/* Its region of kind and idx now (the arrays may have moved), NULL when it is gone. */
uint64_t *fst_rp_region_at(rp *x, size_t tid, int kind, size_t idx);
/* Inline: while the folding is quiet (replay_fold.c, its budget), a run costs it a count. */
static inline int fst_rp_fold(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b)
{
    if (x->fold.quiet) {
        x->fold.quiet--;
        return 0;
    }
    x->fold.seen++;
    return fst_rp_fold_run(x, tr, rec, b);
}
/* replay_foldlong.c: which long periods (longer than FST_FOLD_W) are proposed. The key of
** window wh's proposal of a period; whether it is refused now; the period recorded or
** folded (f->rec_key's) failed or folded less than twice (`ahead`: the runs it read of
** the next one), or folded twice or more. */
uint64_t fst_rp_fold_key(uint64_t wh, uint64_t period);
int fst_rp_fold_refused(const rp_fold *f, uint64_t key);
void fst_rp_fold_short_end(rp_fold *f, uint64_t ahead);
void fst_rp_fold_short_forget(rp_fold *f);
/* Recording a period: b's counts and its ops, from now on in the snapshot (seq_rest calls
** it when b runs first in the recording). */
void fst_rp_fold_touch(rp *x, fst_blk *b);
/* replay_fold.c, for replay_foldkeep.c: the key of CPU 0 running task tid into *buf (its
** length: replay_fold.c's head); `units` spent from the folding's budget (0: not now, and
** the folding goes quiet until it is paid). */
size_t fst_rp_fold_keyof(const rp *x, size_t tid, unsigned char **buf, size_t *cap);
int fst_rp_fold_spend(rp_fold *f, uint64_t units);
/* The folding of f's period (log, deltas, key) begins: after a recording, or from a period kept. */
void fst_rp_fold_folding(rp_fold *f);
/* replay_foldkeep.c: a period just recorded (f->log, f->delta, the key at its start in
** f->snap), kept by the signature of its first run (f->sig0), when short enough and handing
** out nothing (f->nout 0). Looking, at a run of signature sig not yet replayed: a period kept
** there whose key is the replay's now is folded from rec on (1: rec taken), else 0. A
** folding ended having folded f->folded periods (before replay_ahead clears it). */
void fst_rp_foldkeep_init(rp_fold *f); /* in fst_rp_fold_init, folding on */
void fst_rp_foldkeep_put(rp *x);
int fst_rp_foldkeep_try(rp *x, fst_tr *tr, const fst_rec *rec, uint64_t sig);
void fst_rp_foldkeep_end(rp_fold *f);
void fst_rp_foldkeep_free(rp_fold *f);
/* A record other than a SEQ run: folding stops (the runs read ahead are replayed). */
void fst_rp_fold_break(rp *x, fst_tr *tr);
/* Folding, at a period's end: whole repeats of the period's op bytes, skipped. */
void fst_rp_fold_skip(rp *x, fst_tr *tr);

/* Folding, and rec (a SEQ run) is the recorded one: taken from the reader as the recorded
** one was, and 1; else 0 and the caller goes on as usual (fst_rp_fold says what differs).
** Inline: a folded run costs a comparison. */
static inline int fst_rp_folds(rp *x, fst_tr *tr, const fst_rec *rec)
{
    rp_fold *f = &x->fold;
    if (f->mode != 2)
        return 0;
    const rp_foldrec *lr = &f->log[f->j];
    if (rec->addr != lr->rec.addr || rec->value != lr->rec.value || rec->state != lr->rec.state ||
        rec->cpu != lr->rec.cpu)
        return 0;
    fst_tr_seq_take(tr, lr->took, lr->next, lr->last);
    if (++f->j == f->period) {
        f->j = 0;
        f->folded++;
        fst_rp_fold_skip(x, tr);
    }
    return 1;
}

/* replay_chunk.c: stretches of runs, with their calls and returns, recorded once and then
** added up while the trace repeats them from the same state. fst_rp_chunk: at the top of the
** record loop, when the reader is between records: 1 when it replayed runs (recorded or
** memoized), 0 when it did nothing. fst_rp_chunk_touch: recording, b's counts change for
** the first time. fst_rp_chunk_settle (x as a void *, code.h fst_code.settle): the counts
** of the stretches hit, held back, added now. */
void fst_rp_chunk_init(rp *x);          /* after fst_rp_fold_init */
void fst_rp_chunk_free(rp *x);
int fst_rp_chunk(rp *x, fst_tr *tr);
void fst_rp_chunk_touch(rp *x, fst_blk *b);
void fst_rp_chunk_settle(void *x);
/* Recording (x->chunk.rec): a frame's event (after its clocks are set), what a flush charges
** (before it does), and something a stretch cannot repeat by its frame events alone. */
void fst_rp_chunk_frame(rp *x, const fst_event *e);
void fst_rp_chunk_flush(rp *x, const rp_cpu *c);
static inline void fst_rp_chunk_spoil(rp *x) { x->chunk.spoiled = 1; }
/* Task tid's clock: its instructions and cost so far, the ones pending on CPUs included. */
static inline void fst_rp_task_clock(const rp *x, size_t tid, uint64_t *n, fst_fx *cost)
{
    const rp_task *t = &x->t[tid];
    *n = t->insns;
    *cost = t->cost;
    for (const rp_cpu *c = x->cpus, *end = c + x->ncpu; c < end; c++)
        if (c->prev_task == tid) {
            *n += c->pend_n;
            *cost += c->pend_cost;
        }
}

/* fst_rp_emit for e a CALL, RETURN or UNWIND of task tid: to the call graph (x->cg) by a
** direct call, then to the other sinks that want it. Inline: replay_stack.c's calls and
** returns (a call every 42 instructions in cgen -O2). */
static inline __attribute__((always_inline)) void fst_rp_emit_frame(rp *x, fst_event *e, size_t tid)
{
    if (x->batch_cpu != FST_NONE)
        fst_rp_batch_out(x);
    e->task = (uint32_t)tid;
    fst_rp_task_clock(x, tid, &e->tinsns, &e->tcost);
    if (x->chunk.rec)
        fst_rp_chunk_frame(x, e);
    if (e->kind == FST_EV_CALL)
        fst_callgraph_call(x->cg, e->task, e->routine, e->caller, e->counted, e->tinsns, e->tcost);
    else
        fst_callgraph_ret(x->cg, e->task, e->kind == FST_EV_UNWIND, e->tinsns, e->tcost);
    /* a task of an address space --space leaves out: its frames are no format's (the call
    ** graph leaves them out itself) */
    if (x->nwant[e->kind] && !(tid < x->p->ntasks && x->p->tasks[tid].excluded))
        fst_rp_to_sinks(x, e, tid, e->kind);
}

/* A frame on t's stack, or off it, and nothing else (no event, no memo). Inline: a call, a
** return and a stretch's hit with calls (replay_chunk.c frames) each do one or two. */
static inline __attribute__((always_inline)) void fst_rp_frame_push(rp_task *t, size_t r, const rp_frame *f)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->f = fst_xrealloc(t->f, t->cap * sizeof *t->f);
        t->routine = fst_xrealloc(t->routine, t->cap * sizeof *t->routine);
    }
    t->f[t->n] = *f;
    t->routine[t->n++] = r;
    if (!t->rets)
        t->rets = fst_xcalloc(FST_RP_RETS, sizeof *t->rets);
    t->rets[rets_slot(f->ret)]++;
}

static inline __attribute__((always_inline)) void fst_rp_frame_pop(rp *x, rp_task *t)
{
    t->n--;
    if (t->n < x->fold.low)
        x->fold.low = t->n;   /* a recorded period that pops below its start is no loop */
    if (t->n < x->memo.low)
        x->memo.low = t->n;   /* nor a recorded call a subtree */
    t->rets[rets_slot(t->f[t->n].ret)]--;
}
/* Inline, before fst_rp_chunk: 0 where its look cannot begin (what of its conditions needs
** no key: the next op is a SEQ, or a JMP k or JMPA and its SEQ, one CPU, folding quiet, the
** previous instruction no call). Most turns of branchy code go to a JMPA or follow a call, and the
** call to fst_rp_chunk that said so cost a twentieth of the replay (cgen -O2, valgrind). */
static inline int fst_rp_chunk_may(const rp *x, const fst_tr *tr)
{
    return fst_tr_fast_next(tr) && x->ncpu == 1 && x->fold.quiet && !(x->cpus[0].prev.flags & FST_I_LINK);
}

/* replay_memo.c */
void fst_rp_memo_init(rp *x);           /* after fst_rp_fold_init */
void fst_rp_memo_free(rp *x);
/* The counters the reused subtrees add to, brought up to date: before anything reads them
** (fst_rp_regions, the fold's deltas, the replay's end). */
void fst_rp_memo_settle(rp *x);
/* Whether c's (CPU 0's) last instruction links through register 14, a call the memo may look
** at, and the memo is on. The flags first: most runs end in no call. */
static inline int fst_rp_memo_site(const rp *x, const rp_cpu *c)
{
    return (c->prev.flags & FST_I_LINK) && c->prev.link == 14 && x->memo.on;
}
/* A call site's slot in rp_memo.site (sites are even addresses). */
static inline size_t fst_rp_memo_slot(uint64_t site) { return (site >> 1) % FST_MEMO_SITES; }
/* Whether CPU 0's last instruction is a call (fst_rp_memo_site) that the memo of calls took
** whole last time at that site, a subtree of FST_MEMO_WHOLE runs or more: the stretches
** (replay_chunk.c) leave it to the memo, which skips it all, where a stretch would take the
** call and its first few runs and leave the rest to the record loop. */
static inline int fst_rp_memo_whole(const rp *x, const rp_cpu *c)
{
    const rp_memo_site *s = &x->memo.site[fst_rp_memo_slot(c->prev.addr)];
    return fst_rp_memo_site(x, c) && s->site == c->prev.addr && s->runs >= FST_MEMO_WHOLE;
}
/* With fst_rp_memo_site true: whether the memo passes the call by, its site judged a loss
** lately or the budget spent (replay_memo.c spend); fst_rp_memo_pass counts one such call
** off. The budget first: while it is spent, a site's calls left to pass by wait. */
static inline int fst_rp_memo_passes(const rp *x, const rp_cpu *c)
{
    const rp_memo_site *s = &x->memo.site[fst_rp_memo_slot(c->prev.addr)];
    return x->memo.quiet || (s->skip && s->site == c->prev.addr);
}
static inline int fst_rp_memo_pass(rp *x, const rp_cpu *c)
{
    if (!fst_rp_memo_passes(x, c))
        return 0;
    if (x->memo.quiet)
        x->memo.quiet--;
    else
        x->memo.site[fst_rp_memo_slot(c->prev.addr)].skip--;
    return 1;
}
/* Before the next run, when CPU 0's last instruction links through register 14 (a call may
** follow) and the reader is between records: ma marks where it is. */
static inline int fst_rp_memo_wants(rp *x)
{
    /* memo.on first: CPU 0 is there then (fst_rp_memo_init), whose prev fst_rp_memo_site reads */
    if (!x->memo.on || !fst_rp_memo_site(x, &x->cpus[0]) || x->ncpu != 1 || x->fold.mode)
        return 0;
    return !fst_rp_memo_pass(x, &x->cpus[0]);
}
/* rec, a SEQ run read from mark ma, goes to a routine's entry: 1 when the call's subtree was
** memoized and is taken (the reader is past its return); else 0, the caller runs rec as usual
** (a recording may have begun). */
int fst_rp_memo_call(rp *x, fst_tr *tr, const fst_rec *rec, const fst_tr_mark *ma);
/* Recording: after every record the loop handled. */
void fst_rp_memo_after(rp *x, fst_tr *tr);
void fst_rp_memo_stop(rp *x);           /* a record other than a SEQ run */
void fst_rp_memo_touch(rp *x, fst_blk *b);  /* recording: b's counts change for the first time */
void fst_rp_memo_note_ret(rp *x, uint64_t addr);    /* replay_stack.c, recording */
void fst_rp_memo_note_call(rp *x, size_t r);
/* replay_stack.c: whether a return-like branch to addr would return to an open frame. */
int fst_rp_returns_open(const rp_task *t, uint64_t addr);

/* replay_win.c */
void fst_rp_win_init(rp *x);            /* before fst_rp_sort_sinks: mutes the sinks */
void fst_rp_win_nofold(rp *x);          /* after fst_rp_fold_init: an edge falls between runs */
/* The instruction at rec, number x->win_at, is the edge's: its predecessor on the CPU gets
** its EXEC; at the window's start the figures so far are dropped, the sinks hear from here
** on (first, of the frames open: CALLs that count no call); at its end the frames open are
** closed. Returns 1 when the replay stops there (the end, or win_cpus), 0 when it goes on
** with rec (insn(), not insn_fast: the predecessor's EXEC is done). */
int fst_rp_win_edge(rp *x, const fst_rec *rec);
/* After the record loop: -1 when the window was not all in the trace (err set). */
int fst_rp_win_end(rp *x, fst_err *err);

/* replay_task.c */
void fst_rp_task_room(rp *x, size_t tid);        /* call state and profile for task tid */
void fst_rp_task_space(rp *x, size_t tid, uint64_t space);   /* its space, excluded by --space? */
uint64_t fst_rp_space_of(const rp_cpu *c, uint32_t state);   /* the address space (tasks.h) */
/* The handler dispatches a task at rec (or goes on handling: no task resumes there). */
void fst_rp_dispatch(rp *x, rp_cpu *c, const fst_rec *rec);
/* Running a task: does rec continue it, or did an interruption come (then c handles)? */
void fst_rp_check_flow(rp *x, rp_cpu *c, const fst_rec *rec);
void fst_rp_wait_state(rp *x, rp_cpu *c, const fst_rec *rec);   /* c waits: no task */
void fst_rp_oldpsw(rp *x, rp_cpu *c, const fst_rec *rec);       /* an OLDPSW record */
/* replay_unc.c. An instruction at addr, charged to owner, of a task a guess made uncertain:
** counted in the uncertainty of owner and of the routine that holds addr. */
void fst_rp_uncertain(rp *x, uint64_t addr, size_t owner);
/* Dispatch of tid was a guess (fst_tasks_candidates says among which) at addr. */
void fst_rp_guessed(rp *x, size_t tid, uint64_t addr);
/* Registers m of c->gr shown (address bits am) while the guessed task runs: settled? */
void fst_rp_tent_regs(rp *x, const rp_cpu *c, uint16_t m, uint64_t am);
void fst_rp_tent_end(rp *x, size_t tid);    /* the task was suspended: nothing settled it */
/* Task tid is uncertain from here on (its figures; insn_fast is off): 1 if it was not. */
int fst_rp_taint(rp *x, size_t tid);
/* A range trace without registers: task tid, its mainline returned, runs the program's code
** at addr with no frame: a switch the trace did not show, most likely; it is uncertain. */
void fst_rp_lost(rp *x, size_t tid, uint64_t addr);
/* Whether some task is uncertain (tainted) now: a task new from then on is tainted too. */
int fst_rp_any_taint(const rp *x);
void fst_rp_tent_free(rp *x);
void fst_rp_opnd(rp *x, rp_cpu *c, const fst_rec *rec);         /* an OPND record */
#define FST_INTR_PGM_ 16    /* a program check, among the FST_INTR_* classes (susp_cls) */


static inline rp_cpu *cpu_of(rp *x, uint16_t n) { return n < x->ncpu ? &x->cpus[n] : fst_rp_cpu_grow(x, n); }

static inline size_t top_owner(const rp_task *t) { return t->n ? t->f[t->n - 1].owner : FST_NONE; }

static inline void count_op(fst_profile *p, const fst_insn *d)
{
    p->op_insns[d->op]++;
    if (d->op == FST_OP_UNKNOWN)
        fst_rp_count_unknown(p, d, 1);
}

/* The cost of prev: priced when it was decoded, but for an outcome not known. */
static inline fst_fx price(const rp *x, const rp_cpu *c, int taken)
{
    return taken >= 0 ? c->prev_cost[taken] : fst_clock_cost(x->o->clock, &c->prev, taken);
}

/* n EXECs on c, of d[0..n-1] in c's previous state, owner and task (n > 1: a run, for
** sinks that take them): pending (flush), and an event when a sink other than the call
** graph wants them, or added to the batch when they take batches. The instruction mix is
** counted by the caller. */
static inline void exec_pend(rp_cpu *c, size_t n, fst_fx cost)
{
    c->pend_n += n;
    c->pend_cost += cost;
}

/* Where n more EXECs costing `cost` go in the batch waiting, which takes them (its room
** counted, its cost added): when c is x->batch_cpu, its batch of these EXECs' charge, with
** room; else NULL. */
static inline fst_insn *batch_at(rp *x, rp_cpu *c, size_t n, fst_fx cost)
{
    if (n > c->batch_room)
        return NULL;
    c->batch_room -= n;
    fst_insn *at = x->batch + x->nbatch;
    x->nbatch += n;
    x->batch_cost += cost;
    return at;
}

static inline void exec_n(rp *x, rp_cpu *c, uint16_t cpuno, const fst_insn *d, size_t n, fst_fx cost, int taken)
{
    exec_pend(c, n, cost);
    if (!x->want_exec[c->prev_charged])
        return;
    fst_insn *at = batch_at(x, c, n, cost);
    if (at) {
        if (n == 1)
            *at = *d;
        else
            memcpy(at, d, n * sizeof *d);
        return;
    }
    fst_rp_exec_event(x, c, cpuno, d, n, cost, taken);
}

static inline void exec_one(rp *x, rp_cpu *c, uint16_t cpuno, const fst_insn *d, fst_fx cost, int taken)
{
    count_op(x->p, d);
    exec_n(x, c, cpuno, d, 1, cost, taken);
}

/* The EXEC of the previous instruction, now that its successor shows whether it branched. */
static inline void exec_prev(rp *x, rp_cpu *c, uint16_t cpuno, int taken)
{
    exec_one(x, c, cpuno, &c->prev, price(x, c, taken), taken);
    c->have_prev = c->ran = 0;
}

/* Whether d, followed by an instruction at addr, branched. An unconditional branch always
** does, even to the next instruction (gcc's `jg f` at the end of a function that f
** follows): the address alone cannot show it. */
static inline int taken_to(const fst_insn *d, uint64_t addr)
{
    return addr != fst_insn_next(d) ||
           ((d->flags & (FST_I_BRANCH | FST_I_CANBRANCH | FST_I_COND)) == (FST_I_BRANCH | FST_I_CANBRANCH));
}

/* LPSW or LPSWE (both FST_I_PSW, whatever the architecture: the flag rules most out). */
static inline int is_lpsw(const fst_insn *d)
{
    return (d->flags & FST_I_PSW) && (d->bytes[0] == 0x82 || (d->bytes[0] == 0xB2 && d->bytes[1] == 0xB2));
}

static inline uint64_t amask(uint32_t state)
{
    int amode = fst_st_amode(state);
    return amode == 2 ? ~0ull : amode == 1 ? 0x7FFFFFFFull : 0xFFFFFFull;
}

static inline size_t hslot(const rp *x, uint64_t a)
{
    return (size_t)((a >> 1) * 0x9E3779B97F4A7C15ull >> 24) & (x->hcap - 1);
}

static inline size_t find_entry(const rp *x, uint64_t a)
{
    for (size_t i = hslot(x, a);; i = (i + 1) & (x->hcap - 1)) {
        size_t r = x->hash[i];
        if (r == FST_NONE || x->p->r[r].entry == a)
            return r;
    }
}

/* find_entry for an instruction of task tid: none in an address space the map's program
** does not run in (fst_profile tasks' `unnamed`). */
static inline size_t find_entry_for(const rp *x, size_t tid, uint64_t a)
{
    return tid < x->nt && x->p->tasks[tid].unnamed ? FST_NONE : find_entry(x, a);
}

/* Whether an instruction of task tid at a enters a mainline without a call (replay.c
** run_insn), were the task in no frame and its mainline not had yet. */
static inline int mainline_at(const rp *x, size_t tid, uint64_t a)
{
    if (a < x->ml_lo || a > x->ml_hi)
        return 0;
    size_t r = find_entry_for(x, tid, a);
    return r != FST_NONE && x->p->r[r].mainline;
}

/* A branch that can return (DESIGN §3.3): its target comes from a register that can hold
** a return address — an RR branch (BR 14, BCR 15,14, BR 4, BSM 0,14) — or it is an RX
** branch based or indexed on the link register (B 4(,14)). Never BCTR (a loop), a relative
** branch (J, JNE, BRC, BRCL: compiled code's jumps to a function's exit label), a
** branch-and-link, or an RX branch on any other base (FORTRAN's B EXIT on its code base). */
static inline int returnlike(const fst_insn *d)
{
    if (d->flags & FST_I_LINK)
        return 0;
    if (d->fmt == FST_FMT_RR)
        return d->bytes[0] != 0x06; /* BCTR */
    return d->fmt == FST_FMT_RX && ((d->bytes[1] & 0x0F) == 14 || d->bytes[2] >> 4 == 14);
}

/* Whether fst_rp_branched_to can do something after branch pv of task t: it links through
** register 14 (a call), can return, or --tail-calls is on. A loop's jumps cost no call. */
static inline int branch_matters(const rp *x, const rp_task *t, const fst_insn *pv)
{
    unsigned fl = pv->flags;
    if (fl & FST_I_LINK)
        return pv->link == 14;
    /* a relative branch (J, BRC: compiled code's jumps) is never return-like: no look at
    ** its format and bytes */
    return x->o->tail_calls || (!(fl & FST_I_RELATIVE) && t->n && returnlike(pv));
}

static inline void branched_to(rp *x, size_t tid, const fst_rec *rec, const fst_insn *d)
{
    const rp_task *t = &x->t[tid];
    if (branch_matters(x, t, &t->prev))
        fst_rp_branched_to(x, tid, rec, d);
}

/* The owner of a frame of routine r called from `caller`'s: r where it is timed, else the
** caller's owner, charged for it (profile.h). push_from and the lean loop's calls. */
static inline size_t fst_rp_frame_owner(const rp *x, size_t r, size_t caller)
{
    return x->p->r[r].timed ? r : caller;
}

/* Whether addr is where frame f returns to: its return address, or up to 4 words past it
** (B 4k(,14), k <= 4). */
static inline int fst_rp_at_return(const rp_frame *f, uint64_t addr)
{
    uint64_t a = addr & f->mask;
    return a >= f->ret && a - f->ret <= 16 && !((a - f->ret) & 3);
}

/* fst_rp_branched_to in the lean loop (replay.c), where x->lean_frames holds: pv (CPU c's
** previous instruction, the lean loop's task l->t's, which it keeps in c->prev alone) was taken
** to addr and branch_matters. A call, or a return to the top frame (the common cases), to
** the frames and the call graph, and 1; 0, nothing done, for the rest (the task's first
** call, no entry there, an unwind, a guess made, a batch pending): fst_rp_branched_to's.
** A call is told to the call graph at its return, as a pair, where it calls none (a leaf);
** else before anything else (fst_rp_lean_told; the lean loop's end too). Inline in
** the lean loop: as a call, a tenth of its host instructions were its prologue and spills
** (cgen seed 37510: 12.20 -> 11.81 G). */
static inline __attribute__((always_inline)) int fst_rp_lean_branch(rp *x, const rp_cpu *c, rp_lean *l, uint64_t addr)
{
    const fst_insn *pv = &c->prev;
    rp_task *t = l->t;
    size_t tid = l->tid;
    if (t->taint || x->batch_cpu != FST_NONE) {
        fst_rp_lean_told(x, l);
        return 0;
    }
    if (pv->flags & FST_I_LINK) {   /* through register 14 (branch_matters): a call? */
        size_t r = find_entry_for(x, tid, addr);
        fst_rp_lean_told(x, l);    /* the caller's call: not a leaf */
        if (r == FST_NONE || (t->n == 0 && !t->had_mainline))
            return 0;   /* a misfit, or the task's first call (its mainline's?) */
        uint64_t mask = amask(c->prev_state);
        size_t caller = top_owner(t);
        /* push_from's frame: counted, not verified (no BASES in the lean loop) */
        fst_rp_frame_push(t, r, &(rp_frame){ fst_rp_frame_owner(x, r, caller), fst_insn_next(pv) & mask, mask, 0 });
        if (x->flat) {  /* a flat graph counts it, and that is all (no clock, no return) */
            fst_callgraph_count(x->p, fst_rp_lean_cg(x, l), r, 1);
            return 1;
        }
        /* told at its return, with it, if it calls none (a leaf): one call of the call
        ** graph's, no frame there */
        x->ldefer = 1;
        x->ldcaller = caller;
        fst_rp_task_clock(x, tid, &x->ldn, &x->ldc);
        return 1;
    }
    /* return-like, with a frame open (branch_matters): the top frame's return? */
    if (!fst_rp_at_return(&t->f[t->n - 1], addr)) {
        fst_rp_lean_told(x, l);
        return 0;       /* an older frame's (UNWIND), the mainline leaving, or none */
    }
    fst_rp_frame_pop(x, t);     /* a RETURN: pop's, no uncertainty (code 0, not UNWIND) */
    if (x->flat)
        return 1;   /* nothing to a flat graph (ldefer 0: a flat graph defers none) */
    uint64_t n;
    fst_fx cost;
    fst_rp_task_clock(x, tid, &n, &cost);
    if (x->ldefer) {
        x->ldefer = 0;
        fst_callgraph_pair_in(x->cg, fst_rp_lean_cg(x, l), t->routine[t->n], x->ldcaller, 1, x->ldn, x->ldc, n, cost);
    } else
        fst_callgraph_ret_in(x->cg, fst_rp_lean_cg(x, l), 0, n, cost);
    return 1;
}

#endif
