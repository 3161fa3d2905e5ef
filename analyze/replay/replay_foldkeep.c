/* analyze/replay/replay_foldkeep.c — periods recorded, kept (replay_int.h fst_rp_foldkeep_*):
** a loop entered again and again folds from its first runs on, with no window of looking
** and no recording.
**
** Why. Folding (replay_fold.c) finds a period where the last FST_FOLD_W (32) runs come
** back, records it, and folds the runs after. An inner loop entered again at every turn of
** an outer one pays that at every entry: 32 runs replayed while looking, one period
** replayed while recording, the key taken twice and the counters' regions copied and
** compared — and then folds only what is left of the entry. gen.py seed 15480 (a 656-turn
** BCT loop of one run, entered 118 564 times inside loops whose turns branch on an LCG):
** 118 564 recordings of the same period, its replay about half its untraced run. FORTRAN's
** nested DO loops are that shape.
**
** Why it is exact. A recorded period is what replaying its runs does from the key it began
** at (replay_fold.c's head): the same runs from the same key add the same deltas to the
** same counters and leave the same key. A period kept is folded again only where the
** replay's key now is byte for byte the one the recording began at, and the folding then
** compares every run the reader hands out with the recorded one, as after a recording; a
** run that differs ends it as there (the runs read ahead are replayed as usual). The
** deltas name their counters by address: the key holds how many arcs, tasks, CPUs,
** undecoded ops and blocks built there are, and those arrays only grow, so with the key the
** same none has moved since the period was kept (a block built changes the key: a slot
** rebuilt is never counted into). Only periods that hand nothing out are kept (rp_fold.out:
** the EXECs charged outside, handed again a period).
**
** When it is tried. Looking (mode 0), at a run that folding looks at, before it is
** replayed: the kept period whose first run had this run's signature (address, length,
** state, the previous instruction, the stack's depth: replay_fold.c signature()), if any,
** in a table of FK_SLOTS slots by the signature. Then the key is taken and compared (its
** price, from the folding's budget). A key that differs, or a folding from it that folded
** less than two periods or FK_GAIN runs, holds the period off for FK_WAIT0 runs looked at,
** doubling to FK_WAIT; one that folds more clears the wait. Folding the period kept stops
** the stretches (replay_chunk.c: they look only while folding is quiet), which do better
** where it folds a few dozen runs an entry: gen.py seed 10262 (an inner loop of 55 turns
** whose runs repeat every 16, entered 243 631 times, 36 runs folded at each): 0.10 s
** replayed with none kept, 0.15 s when a folding of 32 runs sufficed; 32012 (a four-run
** loop, one period an entry): 9 951 tries for 38 K of its 15 M runs. The same loop
** recorded again (the window found it) keeps its hold-off: cleared by each recording, the
** period kept was tried at each entry of a three-run loop of 3 to 15 turns, and the folds
** broke the rows of runs the window looks at, where it had found the outer loop's long
** period (gen.py seed 47047: 3.98 M runs folded in 129 foldings; 79 K in 2 357; 3.69 M in
** 168 now; replay 0.02 -> 0.06 -> 0.02 s). A recording of the same first run
** replaces it. FST_REPLAY_FOLDKEEP=0 keeps none (the tests compare the reports).
**
** What a folding from a period kept earns for the folding's budget is what replaying its
** runs would (replay_fold.c FOLD_EARN_KEPT), not what a recorded period's does: the budget
** pays for looking at the runs after it and for recordings, which stop the lean loop and
** the stretches, and those take such runs for less than looking does (gen.py seed 34668:
** 24.6 M runs folded from periods kept paid for 98 717 recordings and the looks between
** them, 2.4 s where 0.5 s with none kept; a quarter of a recorded period's earnings still
** paid, in seed 38910, for 139 379 recordings, two thirds of them failed, and held the
** stretches off most of its 832 M instructions: 2.2-2.7 s, 1.1 s now).
**
** Tried, or not (trial below). Where an outer loop's period holds inner loops that have
** periods kept, a period kept tried at each inner loop's entry folds that entry and breaks
** the rows of runs the window would have found the outer period in: tests/loops seed 8 (a
** nest of BCT loops, 232 K instructions) folded 7 704 of its runs in 141 foldings, most
** begun from periods kept, where with none kept it folded 51 806 in 33 (host instructions:
** 1.076 the unfolded replay's against 0.666). The hold-off cannot tell: each of those
** foldings folds enough. So trials decide, in runs looked at (the folding's clock, seen):
** FK_TRIAL runs trying periods kept, FK_TRIAL not, then FK_RUN times as many the way that
** cost less a run (runs replayed, and what recordings and looks spent: stage_cost), and
** trials again. Runs folded alone do not tell: a folding from a period kept costs no
** recording, where the window's costs one an entry, and a long period's folding that one
** trial began looks better than the recordings it costs later (gen.py seed 26927: chosen
** by runs folded, not trying won all 82 trials and its replay took 0.12 s, 0.04 s before).
** Exact either way: only which runs are folded changes, never what a run adds.
**
** Memory: FK_SLOTS periods of at most FK_PMAX runs, their keys and deltas.
*/
#include "analyze/replay/replay_int.h"

#include <stdlib.h>
#include <string.h>

#define FK_SLOTS 64
#define FK_PMAX 256         /* the longest period kept, in runs */
#define FK_TRY 200          /* budget units a try costs besides its key's words */
#define FK_WAIT0 16
#define FK_WAIT 65536
#define FK_GAIN 128 /* runs a folding from it must fold not to be held off: what a try costs
                       (its key taken and compared, the period copied, the runs read ahead
                       replayed: about a microsecond) in runs replayed, with room */
#define FK_TRIAL 4096u  /* runs looked at by a trial of either way (trial) */
#define FK_RUN 64u      /* then the better way for FK_RUN trials' runs: the worse way's trial
                           is a sixty-fifth of the runs, at most, */
#define FK_RUN_MAX 1024u /* up to so many while the trials agree (a run stage doubles) */
#define FK_REPLAYED 250u /* budget units a run replayed costs (what replay_fold.c's
                            FOLD_EARN_FOLDED says a run folded saves) */

struct rp_foldkept {
    uint64_t sig;           /* its first run's signature */
    uint64_t rec_key;       /* its window's proposal (replay_foldlong.c) */
    uint64_t until, wait;   /* not tried before the folding's clock (seen) reaches until */
    uint32_t period;        /* 0: the slot is empty */
    size_t depth;           /* the task's stack depth at its start */
    unsigned char *key;     /* the key at its start */
    size_t keylen, keycap;
    rp_foldrec *log;        /* its runs */
    size_t logcap;
    rp_fdelta *delta;       /* what it adds */
    size_t ndelta, deltacap;
};

static size_t slot(uint64_t sig) { return (size_t)(sig >> 58) % FK_SLOTS; }

/* *buf holds at least n elements of size sz */
static void *room(void *buf, size_t *cap, size_t n, size_t sz)
{
    if (n <= *cap)
        return buf;
    *cap = n;
    return fst_xrealloc(buf, n * sz);
}

void fst_rp_foldkeep_init(rp_fold *f)
{
    const char *no = getenv("FST_REPLAY_FOLDKEEP");
    if (!(no && *no == '0'))
        f->kept = fst_xcalloc(FK_SLOTS, sizeof *f->kept);
    f->kstage = -1;     /* no trial until a folding begins from a period kept (trial) */
    f->koff = 0;
    f->kuntil = UINT64_MAX;
}

/* What a stage of the trials cost a run it looked at, in budget units (replay_fold.c's
** head: about host instructions): each run it replayed FK_REPLAYED, and what its
** recordings and looks spent. Runs folded count when their folding ends (replay_fold.c
** replay_ahead), before the next look: in the stage the folding began in, whose runs
** (seen) it lengthens; a rate, so that a long folding weighs by its length. */
static uint64_t stage_cost(const rp_fold *f)
{
    uint64_t seen = f->seen - f->kseen0, folded = f->runs - f->kruns0;
    uint64_t replayed = seen > folded ? seen - folded : 0;
    return seen ? (replayed * FK_REPLAYED + (f->spent - f->kspent0)) * 64 / seen : 0;
}

/* The next stage of the trials when this one's runs are over: what a run cost in each
** trial says which way the next FK_RUN trials' runs go; not trying periods kept must cost
** a fifth less. The first trial begins with the first folding from a period kept: from the
** replay's start, its runs were the budget's quiet start (nothing folded while it saves),
** and not trying them won (nestlcg: 612 recordings). */
static void trial(rp_fold *f)
{
    uint64_t cost = stage_cost(f), len = FK_TRIAL;
    if (f->kstage < 0) {            /* the first folding from a period kept: trials begin */
        f->kstage = 0;
    } else if (f->kstage == 0) {    /* tried: now not */
        f->kcost = cost;
        f->koff = 1;
        f->kstage = 1;
    } else if (f->kstage == 1) {    /* not: the better way for a while */
        int off = cost * 5 < f->kcost * 4;
        /* the same way again: trials half as often, down to one in FK_RUN_MAX */
        f->krun = f->ktrials && off == f->koff_was ? (f->krun < FK_RUN_MAX ? 2 * f->krun : FK_RUN_MAX) : FK_RUN;
        f->koff = f->koff_was = off;
        f->koffs += (uint64_t)off;
        f->ktrials++;
        f->kstage = 2;
        len = (uint64_t)FK_TRIAL * f->krun;
    } else {                        /* trials again */
        f->koff = 0;
        f->kstage = 0;
    }
    f->kuntil = f->seen + len;
    f->kruns0 = f->runs;
    f->kseen0 = f->seen;
    f->kspent0 = f->spent;
}

void fst_rp_foldkeep_free(rp_fold *f)
{
    for (size_t i = 0; f->kept && i < FK_SLOTS; i++) {
        free(f->kept[i].key);
        free(f->kept[i].log);
        free(f->kept[i].delta);
    }
    free(f->kept);
    f->kept = NULL;
}

void fst_rp_foldkeep_put(rp *x)
{
    rp_fold *f = &x->fold;
    f->kslot = 0;
    f->kfrom = 0;
    if (!f->kept || f->period > FK_PMAX || f->nout)
        return;
    size_t s = slot(f->sig0);
    rp_foldkept *e = &f->kept[s];
    e->key = room(e->key, &e->keycap, f->snaplen, 1);
    memcpy(e->key, f->snap, f->snaplen);
    e->keylen = f->snaplen;
    e->log = room(e->log, &e->logcap, f->period, sizeof *e->log);
    memcpy(e->log, f->log, f->period * sizeof *e->log);
    e->delta = room(e->delta, &e->deltacap, f->ndelta, sizeof *e->delta);
    memcpy(e->delta, f->delta, f->ndelta * sizeof *e->delta);
    e->ndelta = f->ndelta;
    if (!e->period || e->sig != f->sig0)
        e->until = e->wait = 0;     /* the same loop recorded again keeps its hold-off */
    e->sig = f->sig0;
    e->rec_key = f->rec_key;
    e->period = f->period;
    e->depth = f->depth;
    f->kslot = (uint32_t)s + 1;
}

/* e is held off a while longer */
static void hold_off(rp_fold *f, rp_foldkept *e)
{
    e->wait = e->wait < FK_WAIT0 ? FK_WAIT0 : e->wait < FK_WAIT ? 2 * e->wait : FK_WAIT;
    e->until = f->seen + e->wait;
}

int fst_rp_foldkeep_try(rp *x, fst_tr *tr, const fst_rec *rec, uint64_t sig)
{
    rp_fold *f = &x->fold;
    if (f->seen >= f->kuntil)
        trial(f);
    size_t s = slot(sig);
    rp_foldkept *e = &f->kept[s];
    if (f->koff || !e->period || e->sig != sig || f->seen < e->until)
        return 0;
    const fst_rec *r0 = &e->log[0].rec;
    if (rec->addr != r0->addr || rec->value != r0->value || rec->state != r0->state || rec->cpu != r0->cpu)
        return 0;
    size_t tid = x->cpus[0].task;
    if (x->t[tid].n != e->depth || !fst_rp_fold_spend(f, FK_TRY + e->keylen / sizeof(uint64_t)))
        return 0;
    fst_rp_out_flush(x);    /* none pending at a period's start (replay_fold.c begin) */
    size_t n = fst_rp_fold_keyof(x, tid, &f->now, &f->nowcap);
    if (n != e->keylen || memcmp(f->now, e->key, n)) {
        f->reuse_misses++;
        hold_off(f, e);
        return 0;
    }
    /* the replay is where the recording began: fold, as after it (replay_fold.c record) */
    memcpy(f->log, e->log, e->period * sizeof *f->log);
    f->delta = room(f->delta, &f->deltacap, e->ndelta, sizeof *f->delta);
    memcpy(f->delta, e->delta, e->ndelta * sizeof *f->delta);
    f->ndelta = e->ndelta;
    f->period = e->period;
    f->rec_key = e->rec_key;
    f->depth = f->low = e->depth;
    f->nout = 0;        /* (the last recording's: this period hands nothing out) */
    f->out_bad = 0;
    fst_rp_fold_folding(f);
    f->kslot = (uint32_t)s + 1;
    f->kfrom = 1;
    if (f->kstage < 0)
        trial(f);   /* the first trial, from here */
    f->reuses++;
    return fst_rp_folds(x, tr, rec);    /* rec is its first run: checked above */
}

void fst_rp_foldkeep_end(rp_fold *f)
{
    f->kfrom = 0;
    if (!f->kslot)
        return;
    rp_foldkept *e = &f->kept[f->kslot - 1];
    f->kslot = 0;
    if (f->folded >= 2 && f->folded * f->period >= FK_GAIN)
        e->wait = 0;
    else
        hold_off(f, e);
}
