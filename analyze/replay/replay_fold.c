/* analyze/replay/replay_fold.c — loops folded (replay_int.h): a period of SEQ runs that leaves the
** replay as it found it, but for its counters, is replayed once, recorded, and from then on
** added up while the trace repeats it run for run.
**
** Why it is exact. The replay is deterministic: what it does with a run depends on the run
** (address, length, state, CPU) and on its state. Split that state in two: the *counters*
** (the profile's sums, the task's clock, the EXECs pending, the blocks' execution counts,
** the instruction mix), which the replay only ever adds to and never tests — except the
** pending EXECs, which a flush tests for 0, and a period that flushes leaves them where it
** found them — and everything else, the *key*: the CPU's previous instruction, owner and
** charge, the task's stack and previous instruction (its return-address counters follow), how many
** arcs, tasks, CPUs and blocks exist, and that no sink other than the call graph was told
** anything. When the key after a period of P runs equals the key before it, and the
** task's stack never went below its depth at the start (frames below are untouched; the
** call graph's frames above are opened and closed inside the period, so their clocks count
** only differences), the next P runs, if the trace repeats them, do exactly what the
** recorded ones did: they add the same deltas to the same counters. So the folded replay
** compares each run the reader hands out with the recorded one, takes it from the reader
** as the replay took it, and counts whole periods; their deltas are added (times the count)
** when the folding ends, since nothing reads the counters meanwhile. Cheaper still: at two
** period ends in the same reader state (trace/tracebin.h fst_tr_mark), the op bytes between
** them hand out exactly the compared runs; whole repeats of those bytes are skipped by the
** reader without handing anything out (fst_rp_fold_skip). A run that differs ends the
** folding: the runs read ahead of it in the period are then replayed as usual (the reader
** has moved past them; fst_rp_run without take), and the replay goes on from there as if
** nothing had been folded.
**
** When it applies (fst_rp_fold_init, and per run): one CPU; nothing excluded, no supervisor
** row; no sink other than the call graph wants CALL, RETURN, UNWIND or EXECs charged to
** routines (the call graph gets its calls and returns by direct calls, which are counters
** here); the CPU runs a task, not an interruption handler, with nothing pending (insn_fast
** takes every run of the period). Anything else — an interruption, a wait, a state change,
** an instruction with new bytes, a block built, another CPU — ends a recording or a
** folding. EXECs charged outside (code outside every routine: a window begun inside MAIN,
** which is never entered) go to the diagnosis, the one sink that wants them when folding
** is on, in batches: a batch pending is handed over where a recording begins and where the
** period ends, so that none is pending at either; what the period handed over is kept
** (rp_fold.out) and handed again once for every period folded
** (fortgen's windows: 0 runs folded before, replay 0.98 -> 0.025 s for 166 M
** instructions). FST_REPLAY_NOFOLD=1 in the environment turns folding off (tests compare the two replays byte for byte);
** FST_REPLAY_FOLD=eager folds all it can, with no budget (see below), as tests want.
**
** Periods are found by signatures of run starts (address, length, state, the previous
** instruction's address, the stack's depth): the last FST_FOLD_W (32) runs' signatures in a
** row, seen again within FST_FOLD_PMAX (4096) runs, propose a period (window()). Not one
** signature: a FORTRAN mainline calling SUB1 SUB2 SUB1 SUB3 ... repeats SUB1's runs at every
** call of it, a part of the pattern, whose recording fails; the window recurs only where the
** whole pattern does, however long (tests/loops/fortgen.py: 12-call patterns, a call every
** 50 instructions, folded whole). A recording that fails costs its snapshot, so failures back off
** (16 runs, doubling up to 1024); a long period that folds too little is not proposed
** again for a while (replay_foldlong.c). A recording that began inside a frame it then returned
** from is no loop at that depth: for a while, periods are looked for only from the depth
** it returned to (bigloop: not inside TICK, which returns every iteration, but in MAIN).
** What it may cost. Looking for periods costs a signature per run, and a recording copies
** the counters and the key and compares them at the period's end: the routines', arcs' and
** task's whatever the period, the blocks' counts and the instruction mix as far as the
** period runs them (fst_rp_fold_touch: hundreds of words, not the program's thousands). A loop that folds
** for a few periods, or a period that fails, does not repay that: a replay that looked and
** recorded at every such loop was 2 to 5 times slower than one that does not fold (random
** loop shapes, tests/loops). So folding spends from a budget, in units of about one host
** instruction: every run replayed earns FOLD_EARN_RUN (about 1 % of what replaying it
** costs), every run folded FOLD_EARN_FOLDED (most of what replaying it would have cost);
** looking at a run costs FOLD_LOOK, a recording what it copies and compares. When the
** budget is spent, the folding is quiet (neither looks nor records) until the runs have paid
** the debt and a window of FOLD_WINDOW runs of looking. However the trace's loops are
** shaped, folding then adds about 1 % to a replay; where it folds, it earns its next
** recordings (bigloop: 20 times faster).
** Memory: the snapshot holds the counters of the routines, arcs, the one task, and of the
** block slots and the instruction mix the period ran, all bounded by the program, not the trace; the
** recorded period at most FST_FOLD_PMAX runs, the windows' table FOLD_WTAB slots.
**
** Not folded: formats whose sinks want every call or instruction (callgrind, folded, svg,
** speedscope, annotate, gmon, monout, maptime), several CPUs at once, handler code. A sink
** could be folded too if it said which of its sums a period adds to (not done).
*/
#include "analyze/replay/replay_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* regions() takes runs of adjacent uint64_t counters: they must stay adjacent */
#define ADJ(T, a, b) _Static_assert(offsetof(T, b) == offsetof(T, a) + sizeof(uint64_t), #T ": " #a " then " #b)
ADJ(fst_profile, total_insns, outside_insns);
ADJ(fst_profile, outside_insns, excluded_insns);
ADJ(fst_profile, excluded_insns, total_cost);
ADJ(fst_profile, total_cost, outside_cost);
ADJ(fst_profile, outside_cost, excluded_cost);
ADJ(fst_profile, pgmchks, intrs);
ADJ(fst_profile, intrs, svcs);
ADJ(fst_profile, svcs, waits);
ADJ(fst_profile, waits, unwinds);
ADJ(fst_profile, unwinds, open_frames);
ADJ(fst_profile, dispatches, new_tasks);
ADJ(fst_profile, new_tasks, guessed);
ADJ(fst_profile, guessed, intr_in_routine);
ADJ(fst_profile, intr_in_routine, guess_left);
ADJ(fst_profile, guess_left, guessed_same);
ADJ(fst_profile, guessed_same, inferred);
ADJ(fst_profile, inferred, redirected);
ADJ(fst_profile, redirected, reflected);
ADJ(fst_routine, calls, self_insns);
ADJ(fst_routine, self_insns, incl_insns);
ADJ(fst_routine, incl_insns, self_cost);
ADJ(fst_routine, self_cost, incl_cost);
ADJ(fst_arc, count, cost);
ADJ(fst_arc, cost, insns);
ADJ(fst_taskprof, insns, problem_insns);
ADJ(fst_taskprof, problem_insns, cost);
ADJ(rp_task, insns, cost);
ADJ(rp_cpu, pend_n, pend_cost);
_Static_assert(sizeof(fst_taskroutine) == 5 * sizeof(uint64_t), "fst_taskroutine: five counters");
_Static_assert(sizeof(fst_fx) == sizeof(uint64_t), "fst_fx: a uint64_t");

/* What a recording costs in budget units, measured with callgrind on tests/loops programs:
** its own work and its folding's end (replay_ahead) whatever its size, each counter copied
** and diffed, each word of the key copied and compared. */
#define FOLD_REC_FIXED 3000
#define FOLD_REC_COUNTER 8
#define FOLD_REC_KEYWORD 1

/* What a recording would cost now, in words, before the first one says (see the head). */
static size_t estimate(const rp *x)
{
    size_t n = 6 + 6 + 7 + 3 + 2 + 2 + 5 * x->p->nr + 3 * x->p->narcs + x->p->nundecoded;
    n += x->code->nused * (FST_BLK_MAX + 1 + FST_BLK_MAX);   /* blocks' counts, and their ops at most */
    return FOLD_REC_FIXED + FOLD_REC_COUNTER * n +
           FOLD_REC_KEYWORD * (sizeof(rp_cpu) + sizeof(rp_task)) / sizeof(uint64_t);
}

#define FOLD_EARN_RUN 1       /* budget units (see the head) a run replayed earns */
#define FOLD_EARN_FOLDED 100  /* ... and a run folded: less than it saves (some 250), so that
                                 what folding earns is a share of what it gains */
#define FOLD_EARN_KEPT FOLD_EARN_RUN /* ... and a run folded from a period kept
                                 (replay_foldkeep.c): what a run replayed earns. What it
                                 earned paid for looking at the runs after it and for
                                 recordings, which the lean loop and the stretches would take
                                 for less (gen.py seed 34668: at 100, 98 717 recordings and
                                 the looks between its kept foldings, 1.30x its run; 0.25x
                                 with none kept; seed 38910: at 25, 139 379 recordings, 92 037
                                 of them failed, stretches on 44 M of its 832 M instructions,
                                 2.2-2.7 s; at 1, 12 931 and 608 M, 1.1 s) */
#define FOLD_LOOK 80          /* what looking at a run costs (signature, table, eligible) */
#define FOLD_WINDOW 256       /* runs looked at in a row, once paid for */
#define FOLD_WTAB 1024        /* slots of the windows' hashes (16 KiB: a look costs no cache miss) */
#define FOLD_B 0x100000001B3ull /* the rolling hash's base (odd), and its W-th power */

void fst_rp_fold_init(rp *x)
{
    rp_fold *f = &x->fold;
    const char *no = getenv("FST_REPLAY_NOFOLD");
    f->on = x->plain && !x->nwant[FST_EV_CALL] && !x->nwant[FST_EV_RETURN] && !x->nwant[FST_EV_UNWIND] &&
            !x->want_exec[FST_CHARGE_ROUTINE] && !x->want_exec[FST_CHARGE_EXCLUDED] && !(no && *no && *no != '0');
    f->backoff = 16;
    f->low = f->maxdepth = SIZE_MAX;
    if (f->on) {
        f->wtab = fst_xcalloc(FOLD_WTAB, sizeof *f->wtab);
        f->log = fst_xmalloc(FST_FOLD_PMAX * sizeof *f->log);
        f->depths = fst_xcalloc(FST_FOLD_PMAX, sizeof *f->depths);
        fst_rp_foldkeep_init(f);
    }
    f->bw = 1;
    for (int i = 0; i < FST_FOLD_W; i++)
        f->bw *= FOLD_B;
    f->cost = estimate(x);
    f->spent = f->cost;     /* the first recording is paid by the runs before it */
    f->quiet = f->seen = f->on ? f->spent / FOLD_EARN_RUN : UINT64_MAX;
    const char *how = getenv("FST_REPLAY_FOLD");
    f->eager = how && !strcmp(how, "eager");   /* no budget: the tests fold all they can */
    if (f->eager && f->on)
        f->quiet = f->seen = 0;
}

void fst_rp_fold_free(rp *x)
{
    rp_fold *f = &x->fold;
    if (getenv("FST_REPLAY_FOLD_STATS"))
        fprintf(stderr, "fst: replay: %llu runs folded\nfst: replay: %llu recordings, %llu failed, %llu foldings ended, "
                "%llu not paid for; %llu units spent (last: %zu counters, %zu key bytes); %llu blocks built\n"
                "fst: replay: %llu foldings begun from a period kept, %llu keys that differed; %llu trials, "
                "%llu of them then without\n",
                (unsigned long long)f->runs, (unsigned long long)f->recordings, (unsigned long long)f->failures,
                (unsigned long long)f->ends, (unsigned long long)f->denied, (unsigned long long)f->spent, f->rs.nval, f->snaplen,
                (unsigned long long)(x->code ? x->code->builds : 0), (unsigned long long)f->reuses,
                (unsigned long long)f->reuse_misses, (unsigned long long)f->ktrials, (unsigned long long)f->koffs);
    fst_rp_foldkeep_free(f);
    free(f->wtab);
    free(f->out);
    free(f->log);
    free(f->depths);
    free(f->snap);
    free(f->now);
    fst_rp_regions_free(&f->rs);
    free(f->delta);
}

/* ---- the key: what must come back after a period ---- */

static void put(unsigned char **buf, size_t *cap, size_t *n, const void *p, size_t len)
{
    if (!len)
        return;     /* p may be NULL (a task with no frame yet) */
    if (*n + len > *cap) {
        *cap = (*n + len) * 2;
        *buf = fst_xrealloc(*buf, *cap);
    }
    memcpy(*buf + *n, p, len);
    *n += len;
}

/* The key of x (CPU 0 running task tid) into *buf; its length. */
size_t fst_rp_fold_keyof(const rp *x, size_t tid, unsigned char **buf, size_t *cap)
{
    size_t n = 0;
    rp_cpu c = x->cpus[0];
    c.pend_n = 0;           /* counters */
    c.pend_cost = 0;
    memset(&c.exec, 0, sizeof c.exec);   /* scratch */
    put(buf, cap, &n, &c, sizeof c);
    const rp_task *t = &x->t[tid];
    rp_task tk = *t;
    tk.f = NULL;
    tk.routine = NULL;
    tk.rets = NULL;
    tk.cap = 0;
    tk.insns = 0;           /* counters */
    tk.cost = 0;
    put(buf, cap, &n, &tk, sizeof tk);
    put(buf, cap, &n, t->f, t->n * sizeof *t->f);
    put(buf, cap, &n, t->routine, t->n * sizeof *t->routine);
    /* not t->rets: they count the frames' return addresses, which the frames are */
    size_t sizes[] = { tid, x->nt, x->ncpu, x->p->narcs, x->p->nundecoded, x->p->ntasks, x->nbatch, x->batch_cpu };
    put(buf, cap, &n, sizes, sizeof sizes);
    /* (EXECs charged outside are the period's: handed again for each period folded) */
    uint64_t counts[] = { x->code->builds, fst_rp_other_events(x), x->p->misfit_calls };
    put(buf, cap, &n, counts, sizeof counts);
    return n;
}

/* ---- the counters ---- */

/* One more region of counters, and their values now (the snapshot). */
static void region(rp_regs *rs, void *p, size_t n, int kind, size_t idx)
{
    if (rs->nreg == rs->regcap) {
        rs->regcap = rs->regcap ? rs->regcap * 2 : 64;
        rs->reg = fst_xrealloc(rs->reg, rs->regcap * sizeof *rs->reg);
    }
    rs->reg[rs->nreg++] = (rp_reg){ p, n, idx, kind };
    if (rs->nval + n > rs->valcap) {
        rs->valcap = (rs->nval + n) * 2;
        rs->val = fst_xrealloc(rs->val, rs->valcap * sizeof *rs->val);
    }
    memcpy(rs->val + rs->nval, p, n * sizeof *rs->val);
    rs->nval += n;
}

uint64_t *fst_rp_region_at(rp *x, size_t tid, int kind, size_t idx)
{
    fst_profile *p = x->p;
    switch (kind) {
    case RP_K_PROF_INSNS: return &p->total_insns;
    case RP_K_PROF_EVENTS: return &p->pgmchks;
    case RP_K_PROF_TASKS: return &p->dispatches;
    case RP_K_ROUTINE: return &p->r[idx].calls;
    case RP_K_ARC: return idx < p->narcs ? &p->arcs[idx].count : NULL;
    case RP_K_TASKPROF: return tid < p->ntasks ? &p->tasks[tid].insns : NULL;
    case RP_K_TASKROUTINES: return tid < p->ntasks ? (uint64_t *)(void *)fst_task_routines(p, &p->tasks[tid]) : NULL;
    case RP_K_UNDECODED: return idx < p->nundecoded ? &p->undecoded[idx].insns : NULL;
    case RP_K_BLOCK: return x->code->blk[idx].ran;
    case RP_K_OP: return &p->op_insns[idx];
    case RP_K_OPS: return p->op_insns;
    case RP_K_TASK: return tid < x->nt ? &x->t[tid].insns : NULL;
    case RP_K_PEND: return &x->cpus[0].pend_n;
    case RP_K_GAP: return &p->gap_insns;
    default: return NULL;
    }
}

/* Every counter the replay of task tid's runs on CPU 0 can add to (see the file's head). */
void fst_rp_regions(rp *x, size_t tid, rp_regs *rs, int memo)
{
    fst_profile *p = x->p;
    fst_rp_memo_settle(x);  /* the snapshot is of the counters up to date */
    rs->nreg = rs->nval = 0;
    region(rs, &p->total_insns, 6, RP_K_PROF_INSNS, 0);   /* total, outside, excluded: insns, then cost */
    region(rs, &p->pgmchks, 6, RP_K_PROF_EVENTS, 0);      /* pgmchks .. open_frames */
    region(rs, &p->dispatches, 9, RP_K_PROF_TASKS, 0);    /* dispatches .. reflected */
    for (size_t i = 0; i < p->nr; i++)
        region(rs, &p->r[i].calls, 5, RP_K_ROUTINE, i);   /* calls, self_insns, incl_insns, self_cost, incl_cost */
    for (size_t i = 0; i < p->narcs; i++)
        region(rs, &p->arcs[i].count, 3, RP_K_ARC, i);
    if (tid < p->ntasks) {
        region(rs, &p->tasks[tid].insns, 3, RP_K_TASKPROF, 0);  /* insns, problem_insns, cost */
        region(rs, fst_task_routines(p, &p->tasks[tid]), 5 * p->nr, RP_K_TASKROUTINES, 0); /* made now: a period may make it */
    }
    for (size_t i = 0; i < p->nundecoded; i++)
        region(rs, &p->undecoded[i].insns, 1, RP_K_UNDECODED, i);
    if (memo) {
        region(rs, p->op_insns, fst_op_count(), RP_K_OPS, 0);
        region(rs, &p->gap_insns, 1, RP_K_GAP, 0);
    } else if (!rs->opstamp)
        rs->opstamp = fst_xcalloc(fst_op_count(), sizeof *rs->opstamp);
    rs->stamp++;
    /* (not memo: the blocks' counts and the instruction mix come as the period runs them:
    ** fst_rp_fold_touch, fold_op) */
    region(rs, &x->t[tid].insns, 2, RP_K_TASK, 0);     /* insns, cost */
    if (!memo)
        region(rs, &x->cpus[0].pend_n, 2, RP_K_PEND, 0);   /* pend_n, pend_cost */
}

/* Recording a period: d's op in the instruction mix, from now on in the snapshot. Of the
** mix only what the period counts: the ops of the blocks it runs (fst_rp_fold_touch),
** each run's first instruction (counted by the run after it, or by its block) and the
** instruction before the period (counted by its first run; its last run runs it again).
** A snapshot of every block used and its ops cost a recording what the program holds, not
** what the period runs: gen.py seed 20031, 527 of its 630 counters, where a 13-turn loop
** of calls had 60 runs to fold and never paid. */
static void fold_op(rp *x, const fst_insn *d)
{
    rp_regs *rs = &x->fold.rs;
    if (rs->opstamp[d->op] != rs->stamp) {
        rs->opstamp[d->op] = rs->stamp;
        region(rs, &x->p->op_insns[d->op], 1, RP_K_OP, d->op);
    }
}

void fst_rp_fold_touch(rp *x, fst_blk *b)
{
    rp_regs *rs = &x->fold.rs;
    b->fstamp = rs->stamp;
    region(rs, b->ran, FST_BLK_MAX + 1, RP_K_BLOCK, (size_t)(b - x->code->blk));
    for (uint32_t k = 0; k < b->n; k++)
        fold_op(x, &b->e[k].d);
}

void fst_rp_regions_free(rp_regs *rs)
{
    free(rs->reg);
    free(rs->val);
    free(rs->opstamp);
}

/* The deltas since regions(): the counters that moved, and by how much. */
static void deltas(rp_fold *f)
{
    f->ndelta = 0;
    const uint64_t *v = f->rs.val;
    for (size_t i = 0; i < f->rs.nreg; i++)
        for (size_t k = 0; k < f->rs.reg[i].n; k++, v++) {
            uint64_t d = f->rs.reg[i].p[k] - *v;
            if (!d)
                continue;
            if (f->ndelta == f->deltacap) {
                f->deltacap = f->deltacap ? f->deltacap * 2 : 64;
                f->delta = fst_xrealloc(f->delta, f->deltacap * sizeof *f->delta);
            }
            f->delta[f->ndelta].p = &f->rs.reg[i].p[k];
            f->delta[f->ndelta++].d = d;
        }
}

/* ---- the state machine ---- */

/* The next n runs pass without a look (fst_rp_fold); the clock counts them now. */
static void go_quiet(rp_fold *f, uint64_t n)
{
    f->quiet = n;
    f->seen += n;
}

static void fail(rp_fold *f)
{
    f->failures++;
    f->mode = 0;
    go_quiet(f, f->backoff);
    if (f->backoff < 1024)
        f->backoff *= 2;
}

/* Whether rec may be part of a period: one CPU, running a task with nothing pending (but a
** batch of EXECs charged outside, handed over where a recording begins and ends). */
static int eligible(const rp *x, const fst_rec *rec)
{
    if (x->ncpu != 1 || rec->cpu)
        return 0;
    const rp_cpu *c = &x->cpus[0];
    return c->ran && !c->handler && c->task != FST_NONE && rec->state == c->prev_state;
}

static uint64_t signature(const rp *x, const fst_rec *rec)
{
    const rp_cpu *c = &x->cpus[0];
    uint64_t h = rec->addr * 0x9E3779B97F4A7C15ull;
    h ^= (rec->value + ((uint64_t)rec->state << 32)) * 0xC2B2AE3D27D4EB4Full;
    h ^= c->prev.addr * 0x165667B19E3779F9ull;
    h ^= (uint64_t)x->t[c->task].n * 0x27D4EB2F165667C5ull;
    return h ^ h >> 29;
}

/* This run's signature into the window of the last FST_FOLD_W runs looked at in a row; the
** distance back to where the same window was last seen, when within FST_FOLD_PMAX, else 0:
** a period to record. A window, not one run: in a call pattern (MAIN calling SUB1 SUB2 SUB1
** SUB3 ...) one run recurs at every call of SUB1, a period of the pattern's parts that fails;
** W runs in a row recur only where the whole pattern does. A run not looked at (quiet,
** folded, not eligible) breaks the row: the window starts over. */
static uint64_t window(rp_fold *f, uint64_t sig)
{
    if (f->seen != f->wlast + 1)
        f->wfill = 0, f->wh = 0;
    f->wlast = f->seen;
    uint64_t *slot = &f->win[f->seen % FST_FOLD_W];
    f->wh = f->wh * FOLD_B + sig - (f->wfill == FST_FOLD_W ? *slot * f->bw : 0);
    *slot = sig;
    if (f->wfill < FST_FOLD_W && ++f->wfill < FST_FOLD_W)
        return 0;
    size_t h = (size_t)(f->wh >> 54);   /* FOLD_WTAB slots */
    uint64_t at = f->wtab[h].h == f->wh ? f->wtab[h].at : 0;
    f->wtab[h].h = f->wh;
    f->wtab[h].at = f->seen;
    return at && f->seen - at <= FST_FOLD_PMAX ? f->seen - at : 0;
}

/* The runs of the period read ahead of the one that differs: replayed as usual. */
static void replay_ahead(rp *x, fst_tr *tr)
{
    rp_fold *f = &x->fold;
    for (size_t i = 0; i < f->ndelta; i++)     /* the whole periods folded */
        *f->delta[i].p += f->delta[i].d * f->folded;
    for (uint64_t i = 0; f->nout && i < f->folded; i++)   /* and what they handed out */
        fst_rp_out_emit(x, f->out, f->nout, x->cpus[0].task);
    f->runs += f->folded * f->period;
    if (f->kfrom)
        f->kruns += f->folded * f->period;
    /* the clock counts the runs folded and read ahead as looked at, at the depth the folding
    ** began (none went below it): a window's distance is then the runs between, as the
    ** period must be. Not counted, the window that came back at an inner loop's next start
    ** proposed the distance in runs looked at since its last start, whose folded runs it
    ** missed: a wrong period, recorded and dropped at each start (gen.py seed 26927: 33 704
    ** recordings, 17 M of its 18 M runs replayed recording, 1.19x its run; 0.94x unfolded) */
    if (f->folded < 2)
        fst_rp_fold_short_end(f, f->j);
    else
        fst_rp_fold_short_forget(f);
    fst_rp_foldkeep_end(f);
    uint64_t skipped = f->folded * f->period + f->j;
    uint32_t d = f->depth < UINT32_MAX ? (uint32_t)f->depth : UINT32_MAX;
    /* seen + 1 .. seen + skipped in the ring (the last FST_FOLD_PMAX of them), in at most
    ** two straight stretches, each by wmemset (glibc's is wide; wchar_t is a 32-bit int
    ** here, which may alias uint32_t): an inner loop entered again and again filled each
    ** entry's hundreds of runs one by one, a fifth of gen.py 15480's replay */
    _Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "depths filled as wchar_t");
    uint64_t from = f->seen + 1 + (skipped > FST_FOLD_PMAX ? skipped - FST_FOLD_PMAX : 0);
    for (uint64_t left = f->seen + skipped + 1 - from; left;) {
        size_t at = (size_t)(from % FST_FOLD_PMAX), k = FST_FOLD_PMAX - at < left ? FST_FOLD_PMAX - at : (size_t)left;
        wmemset((wchar_t *)(void *)(f->depths + at), (wchar_t)d, k);
        from += k;
        left -= k;
    }
    f->seen += skipped;
    f->folded = 0;
    f->ends++;
    f->marked = 0;
    f->nops = 0;
    uint32_t n = f->j;
    f->mode = 0;
    f->j = 0;
    for (uint32_t i = 0; i < n; i++) {
        const rp_foldrec *lr = &f->log[i];
        fst_blk *b = fst_code_block(x->code, tr, lr->rec.addr, lr->rec.state);
        uint32_t took;
        uint64_t next;
        if (!b || (fst_rp_run(x, tr, &lr->rec, b, 0, &took, &next), took != lr->took || next != lr->next)) {
            fprintf(stderr, "fst: internal error: a folded loop replayed differently\n");
            abort();
        }
    }
}


#define FOLD_OUT_MAX 16384  /* EXECs charged outside a recorded period may hand to sinks */

void fst_rp_fold_out(rp *x, const fst_event *e)
{
    rp_fold *f = &x->fold;
    /* handed again as one event a period: only to sinks that take them in batches */
    if (!x->takes_batch[FST_CHARGE_OUTSIDE] || fst_rp_out_add(&f->out, &f->nout, &f->outcap, FOLD_OUT_MAX, e) < 0)
        f->out_bad = 1;     /* the recording fails at the period's end */
}

/* What the recording costs so far (see the head), its snapshot as it stands. */
static size_t rec_cost(const rp_fold *f)
{
    return FOLD_REC_FIXED + FOLD_REC_COUNTER * f->rs.nval + FOLD_REC_KEYWORD * f->snaplen / sizeof(uint64_t);
}

/* Recording: rec is run j of the period. Returns 1 (it was run). */
static int record(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b)
{
    rp_fold *f = &x->fold;
    rp_foldrec *lr = &f->log[f->j];
    lr->rec = *rec;
    if (!eligible(x, rec)) {
        fail(f);
        return 0;   /* the caller runs it */
    }
    fold_op(x, &b->e[0].d);
    if (!fst_rp_run(x, tr, rec, b, 1, &lr->took, &lr->next)) {
        fail(f);    /* insn() took it: something happened between two runs */
        return 1;
    }
    memcpy(lr->last, x->cpus[rec->cpu].prev.bytes, sizeof lr->last);
    if (++f->j < f->period)
        return 1;
    /* the period's end: is the key back, and did the stack stay above its start? */
    fst_rp_out_flush(x);    /* the period's own, kept (rp_fold.out): none pending here, as at its start */
    size_t tid = x->cpus[0].task;
    size_t n = fst_rp_fold_keyof(x, tid, &f->now, &f->nowcap);
    if (f->low < f->depth) {    /* it returned from the frame it began in: look lower */
        f->maxdepth = f->low;
        f->maxdepth_until = f->seen + 4096;   /* for a while: loops may run deeper later */
        f->failures++;
        f->mode = 0;
        return 1;
    }
    if (n != f->snaplen || memcmp(f->snap, f->now, n) || x->t[tid].n != f->depth || f->out_bad) {
        fst_rp_fold_short_end(f, 0);
        fail(f);
        return 1;
    }
    fst_rp_memo_settle(x);
    deltas(f);
    size_t cost = rec_cost(f);  /* with the blocks it touched: what the next one costs */
    if (cost > f->cost)
        f->spent += cost - f->cost;
    f->cost = cost;
    fst_rp_foldkeep_put(x);     /* for the loop's next entry (replay_foldkeep.c) */
    fst_rp_fold_folding(f);
    return 1;
}

void fst_rp_fold_folding(rp_fold *f)
{
    f->maxdepth = SIZE_MAX;
    f->backoff = 16;
    f->marked = 0;
    f->nops = 0;
    f->folded = 0;
    f->j = 0;
    f->mode = 2;
}

/* What the folding has earned so far (see the head). */
static uint64_t earned(const rp_fold *f)
{
    uint64_t kept = f->kruns + (f->kfrom ? f->folded * f->period : 0);
    return f->seen * FOLD_EARN_RUN + (fst_rp_fold_runs(f) - kept) * FOLD_EARN_FOLDED + kept * FOLD_EARN_KEPT;
}

/* Spend `units`: 1 if the budget holds them; if not, the folding goes quiet until the runs
** have paid the debt and the next window of looking. */
int fst_rp_fold_spend(rp_fold *f, uint64_t units)
{
    if (f->eager)
        return 1;
    uint64_t e = earned(f);
    if (f->spent + units <= e) {
        f->spent += units;
        return 1;
    }
    go_quiet(f, (f->spent + units - e + FOLD_WINDOW * FOLD_LOOK) / FOLD_EARN_RUN + 1);
    return 0;
}

/* A recording begins, of period runs. */
static void begin(rp *x, uint32_t period)
{
    rp_fold *f = &x->fold;
    size_t tid = x->cpus[0].task;
    f->snaplen = fst_rp_fold_keyof(x, tid, &f->snap, &f->snapcap);
    fst_rp_regions(x, tid, &f->rs, 0);
    if (x->cpus[0].have_prev)
        fold_op(x, &x->cpus[0].prev);
    size_t cost = rec_cost(f);
    if (cost > f->cost) {
        f->spent += cost - f->cost;     /* spend() charged the last one's: the program grew */
        f->cost = cost;
    }
    f->depth = f->low = x->t[tid].n;
    f->period = period;
    f->j = 0;
    f->mode = 1;
    f->nout = 0;
    f->out_bad = 0;
    f->recordings++;
}

int fst_rp_fold_run(rp *x, fst_tr *tr, const fst_rec *rec, fst_blk *b)
{
    rp_fold *f = &x->fold;
    if (f->mode == 2) {     /* folding, and rec differs from the recorded run (fst_rp_folds) */
        int ahead = f->j != 0;
        replay_ahead(x, tr);
        return ahead ? 2 : 0;
    }
    if (f->mode == 1)
        return record(x, tr, rec, b);
    if (!fst_rp_fold_spend(f, FOLD_LOOK) || !eligible(x, rec))
        return 0;
    size_t depth = x->t[x->cpus[0].task].n;
    f->depths[f->seen % FST_FOLD_PMAX] = depth < UINT32_MAX ? (uint32_t)depth : UINT32_MAX;
    uint64_t sig = signature(x, rec);
    if (f->kept && fst_rp_foldkeep_try(x, tr, rec, sig))
        return 1;   /* a period kept begins here: folded from this run on */
    uint64_t period = window(f, sig);
    if (f->seen >= f->maxdepth_until)
        f->maxdepth = SIZE_MAX;
    if (!period || depth > f->maxdepth || (period > FST_FOLD_W && fst_rp_fold_refused(f, fst_rp_fold_key(f->wh, period))))
        return 0;
    /* a period begins where its stack is lowest: begun deeper (inside a routine the pattern
    ** calls), it would return below its start and fail. The lowest of the last period's
    ** runs, worked out once a proposal (every run proposes, once the pattern repeats) */
    if (f->pr_period != period || f->seen > f->pr_until) {
        f->pr_period = period;
        f->pr_until = f->seen + period;
        f->pr_depth = UINT32_MAX;
        for (uint64_t i = 0; i < period; i++)
            if (f->depths[(f->seen - i) % FST_FOLD_PMAX] < f->pr_depth)
                f->pr_depth = f->depths[(f->seen - i) % FST_FOLD_PMAX];
    }
    if (depth > f->pr_depth)
        return 0;
    if (!fst_rp_fold_spend(f, f->cost)) {
        f->denied++;    /* a period found, not paid for yet */
        return 0;
    }
    fst_rp_out_flush(x);    /* what came before the period: not its own */
    begin(x, (uint32_t)period);
    f->sig0 = sig;
    f->rec_key = fst_rp_fold_key(f->wh, period);
    return record(x, tr, rec, b);
}

/* At the end of a folded period the reader is between records, in the state it was in at
** the end of the last one (the key is back, and the reader reads the trace's runs as it did):
** two such ends in one frame, in the same reader state, span the period's op bytes. From then
** on the reader skips them while they repeat: reading them again would hand out the runs just
** compared with the recorded ones (tracebin.h fst_tr_mark). */
void fst_rp_fold_skip(rp *x, fst_tr *tr)
{
    rp_fold *f = &x->fold;
    if (!f->nops) {
        fst_tr_mark m;
        if (!fst_tr_mark_here(tr, &m)) {
            f->marked = 0;
            return;
        }
        if (!f->marked || !(f->nops = fst_tr_mark_span(&f->mark, &m, f->ops, sizeof f->ops, &f->opinsns))) {
            f->mark = m;
            f->marked = 1;
            return;
        }
    }
    f->folded += fst_tr_skip_repeats(tr, &f->mark, f->ops, f->nops, f->opinsns);
}

void fst_rp_fold_break(rp *x, fst_tr *tr)
{
    rp_fold *f = &x->fold;
    if (f->mode == 2)
        replay_ahead(x, tr);
    else if (f->mode == 1)
        fail(f);
    f->mode = 0;
}
