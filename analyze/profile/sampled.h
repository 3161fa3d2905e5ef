/*
** analyze/profile/sampled.h — a profile from a sampled trace (fst-capture --sample, capture/
** sample.h): LOGTIME's histogram, not a replay.
**
** A sampled trace holds where the CPU was, a few hundred times a second, and no
** instructions: so no calls, no arcs, no inclusive time. fst_sampled_build fills the same
** fst_profile as fst_replay so that every format prints it, with these meanings:
**   - self_insns (and incl_insns, equal): the samples that fell in the routine; a sample
**     belongs to the routine whose entry is the nearest at or below its address, within
**     the program's extent (fst_profile lo..hi), else it is outside;
**   - self_cost: estimated host time, each sample weighing the host time since the sample
**     before it (the first: since the sampling began), so the total is the time sampled;
**   - calls 0, no arcs; `sampled` = 1, `samples`, `wait_samples`, `sample_hz` set;
**   - a sample whose PSW has the wait bit is not time: it is counted in wait_samples (and
**     `waits`), as LOGTIME counted waits apart, and its interval goes nowhere;
**   - EXEC events go to the sinks, one per sample, with the instruction decoded from the
**     storage image at the sample's address (all zero bytes when the image lacks it) and
**     a one-routine stack (flat: folded stacks are one frame deep);
**   - --space (fst_replay_opts space_set): a sample counts only when its address space
**     is that one (CR1 from the CR record in force on its CPU while DAT is on; "real"
**     with DAT off), else it is excluded; a trace whose samples carry no CR1 (sampled
**     from Hercules 3.13 or an SDL Hercules before 4.7) cannot be split: an error.
**   - runs: a sample whose PSW (all its bytes), CPU and address space are the previous
**     sample's extends that one's run (a wait sample ends a run). sample_sq, per routine and
**     in all, sums each run's length squared: what fst-diff (analyze/diff/diffstat.h) needs
**     to see that samples were not independent. A CPU thread the host did not run for a
**     while shows the same PSW at every sample meanwhile (a busy host: runs of 50 samples
**     were seen); a loop of a few instructions repeats a PSW by chance too. A trace whose
**     design effect (fst_sampled_deff) is FST_SAMPLED_REPEATS or more is said through
**     o->warn.
** The bias, which every report states: samples fall where Hercules spends host time,
** not where the modelled 370 would spend its time.
**
** Errors: -1 with err set (a damaged trace, a trace that is not sampled).
*/
#ifndef FST_SAMPLED_H
#define FST_SAMPLED_H

#include "analyze/profile/profile.h"

/* 1 when the trace's header says it holds samples (source=sample). */
int fst_trace_sampled(const fst_tr *tr);
int fst_sampled_build(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, const fst_sink *sinks,
                      size_t nsinks, fst_err *err);
/* The design effect of all of a sampled profile's samples (sample_sq over n, in
** thousandths, rounded down; 1000 when there are none), and the one from which a trace's
** samples count as repeating beyond chance (said on stderr; fst-diff widens its bounds
** only then: analyze/diff/diffstat.h): 1.5. A quiet host gives about 1 + 2 sum q^2 by
** chance, q each PSW's share of the samples: 1.2 on shares.s's loops of 4 instructions. */
#define FST_SAMPLED_REPEATS 1500u
static inline uint64_t fst_sampled_deff(uint64_t n, uint64_t sq)
{
    return n && sq >= n ? sq / n * 1000 + sq % n * 1000 / n : 1000;
}

/* 1 and buf filled with what is said of them ("its samples repeat the PSW before them in
** runs (design effect ...): its shares are as certain as N independent samples would make
** them") when n samples whose runs' squared lengths sum to sq repeat beyond chance; else 0. */
int fst_sampled_repeats(uint64_t n, uint64_t sq, char *buf, size_t cap);

/* The sentence every sampled report carries. */
#define FST_SAMPLED_BIAS "sampled PSWs: the time shown is where Hercules spent host time, not modelled S/370 time; no calls"

#endif
