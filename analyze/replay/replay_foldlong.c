/* analyze/replay/replay_foldlong.c — which long periods folding proposes (replay_int.h
** fst_rp_fold_key and after): a long period that folded too little is held off, by the
** window that proposed it and by an account of all of them. Only which periods are
** recorded depends on it, never what a folding adds: the reports are the same (fold.sh).
** A long period is proposed where a window of runs recurs: in a loop nested in another, the
** window made of the outer turn's last runs and the inner loop's first recurs at every outer
** turn. Where the outer turns differ (a branch on an LCG's bit, on data), its recording
** fails, or folds a turn or none and ends inside the next, whose runs read ahead are then
** replayed from the log; and while it records or compares, the inner loop is not folded,
** nor a call memoized (fst_rp_memo_wants). gen.py seed 20002 (an inner BCT loop of 615 runs
** in an outer one of 623 turns that branches on an LCG): recordings of 615 to 3696 runs
** took 2 of 3 outer turns, 12 M of its 34 M runs folded, the replay 0.73x its run.
** So a long period (longer than the window) that failed or folded less than twice is not
** proposed again by the same window for FOLD_SHORT_WAIT0 of its periods' runs, doubled each
** time it does so again up to FOLD_SHORT_WAIT, forgotten when it folds twice. By window and
** period both: a window may propose a period that fails, then one that folds for long
** (gen.py seed 20039: 38 runs, then 92 folded 834 times; refused by the window alone, its
** replay took 0.03 -> 0.19x its run), and where a loop of whole turns that repeat holds one
** whose turns differ (seed 20008: 204 turns of 750 runs, the same, in 71 that branch on an
** LCG), refusing a length alone kept the good one from folding.
** Where long periods never pay, each window and period failing once or twice, an account
** of them all decides: runs recorded and read ahead by those that folded too little
** (lcost) against runs folded by those that did not (lgain). While the one exceeds the
** other by more than FOLD_LONG_SLACK, no window proposes a long period, in the same way
** (seed 20019: 1.06 -> 0.39x; 20017, whose calls could not be memoized meanwhile: 0.93 ->
** 0.18x). A few failures before a period that folds for long then cost nothing (seed
** 20018: three of some 3 800 runs, then 591 periods of 3 704 folded every 2.2 M runs). The
** account halves when it grows past FOLD_LONG_ACCOUNT: what a program did lately counts.
** On 45 drawn programs (gen.py seeds 12452, 20001-20060 of 50 M to 1 G instructions) 8
** replay faster, none slower (docs/internals.md "Loops in loops whose turns differ"). */
#define FOLD_SHORT_WAIT0 16 /* the periods' runs a long period is first refused for */
#define FOLD_SHORT_WAIT 64  /* the most */
#define FOLD_LONG_SLACK (4 * FST_FOLD_PMAX)     /* runs long periods may cost before they pay */
#define FOLD_LONG_ACCOUNT (1u << 24)

#include "analyze/replay/replay_int.h"

uint64_t fst_rp_fold_key(uint64_t wh, uint64_t period) { return wh ^ period * 0x9E3779B97F4A7C15ull; }
static size_t short_slot(uint64_t key) { return (size_t)(key >> 58) % FST_FOLD_SHORTS; }

static uint64_t longer(uint64_t wait)
{
    return wait < FOLD_SHORT_WAIT0 ? FOLD_SHORT_WAIT0 : wait < FOLD_SHORT_WAIT ? wait * 2 : FOLD_SHORT_WAIT;
}

static void long_account(rp_fold *f, uint64_t cost, uint64_t gain)
{
    f->lcost += cost;
    f->lgain += gain;
    if (f->lcost + f->lgain > FOLD_LONG_ACCOUNT)
        f->lcost /= 2, f->lgain /= 2;
}

/* The period recorded or folded (its window's proposal: rec_key) failed or folded less
** than twice, having read `ahead` runs of its next period. */
void fst_rp_fold_short_end(rp_fold *f, uint64_t ahead)
{
    if (f->period <= FST_FOLD_W)
        return;     /* a short period costs little to record */
    rp_foldshort *e = &f->shorts[short_slot(f->rec_key)];
    if (e->key != f->rec_key)
        e->key = f->rec_key, e->wait = 0;
    e->wait = longer(e->wait);
    e->until = f->seen + e->wait * f->period;
    long_account(f, f->period + ahead, 0);
    if (f->lcost > f->lgain + FOLD_LONG_SLACK) {
        f->long_wait = longer(f->long_wait);
        f->long_until = f->seen + f->long_wait * f->period;
    }
}

/* A folding of the period (its window's proposal: rec_key) folded twice or more. */
void fst_rp_fold_short_forget(rp_fold *f)
{
    if (f->period <= FST_FOLD_W)
        return;
    if (f->shorts[short_slot(f->rec_key)].key == f->rec_key)
        f->shorts[short_slot(f->rec_key)].key = 0;
    long_account(f, 0, f->folded * f->period);
    if (f->lcost <= f->lgain + FOLD_LONG_SLACK)
        f->long_wait = f->long_until = 0;
}

/* A window's proposal of a long period (fst_rp_fold_key) is refused now. */
int fst_rp_fold_refused(const rp_fold *f, uint64_t key)
{
    const rp_foldshort *e = &f->shorts[short_slot(key)];
    return (e->key == key && f->seen < e->until) || f->seen < f->long_until;
}

