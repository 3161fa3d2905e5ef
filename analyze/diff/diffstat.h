/*
** analyze/diff/diffstat.h — fst-diff when a side is sampled (fst-capture --sample): two
** sampled profiles of one program differ by sampling noise alone, so what is compared is
** each routine's share, and a difference counts only beyond what the sample counts
** explain.
**
** A share is the routine's samples (or, on an exact side, its instructions) over the
** side's total. The rule, at a two-sided confidence of 99 %, 99.9 % (the default) or
** 99.99 % (z = 2.576, 3.291, 3.891; z^2 taken as 663/100, 1083/100, 1514/100):
**   - two sampled sides, k1 of n1 and k2 of n2 samples: the binomial standard error of a
**     difference of two proportions under "same share", with p = (k1+k2)/(n1+n2) pooled,
**     se = sqrt(p (1-p) (1/n1 + 1/n2)); the routine differs when |k1/n1 - k2/n2| > z se;
**   - an exact side (share p0 = e/E, no error: every instruction was counted) and a
**     sampled side (k of n): se = sqrt(p0 (1-p0) / n); differs when |k/n - p0| > z se.
**     An exact share is a share of instructions, a sampled one a share of Hercules'
**     host time: they agree as far as Hercules spends the same host time on every
**     instruction; the output says so.
** Samples that are not independent vary more than the binomial says: a CPU thread the
** busy host did not run for a while shows one PSW at every sample meanwhile (sampled.h:
** runs of samples at one PSW), and two sampled runs of shares.s beside a busy loop on
** Hercules' core differed by 6.8 standard errors. So the variance of a side whose samples
** repeat beyond chance (their design effect over all, sampled.h fst_sampled_deff, at
** FST_SAMPLED_REPEATS = 1.5 or more: 5-6 on a busy core, 1.2 by chance on shares.s's
** 4-instruction loops on a quiet host) is the larger of the binomial one and the clustered
** one, each run of samples at one PSW a cluster (the sandwich estimator: sum over runs j
** of m_j^2 (y_j - p)^2 / n^2, y_j 1 when run j is the routine's; with no repeats the
** binomial p (1-p) / n). Their ratio, the routine's design effect f (at least 1; in
** thousandths, rounded up: fst_ds_deff), multiplies the side's part of z^2 se^2 above (two
** sampled sides: p (1-p) (f1/n1 + f2/n2)). Below the threshold the samples count as
** independent (chance repeats are no correlation: widening by them would only blunt the
** test). A loop of one instruction (MVCL, a BCT on itself) repeats its PSW as a stalled
** CPU does: a trace of such a program is treated as one of a busy host, conservatively.
** Each routine is tested on its own: with R routines at 99.9 % about R in 1000 are
** flagged by chance alone. A routine missing from a side has 0 there (not "new", not "vanished":
** a small routine may well draw no sample). Calls and times are not judged (a sampled
** trace has no calls; host times follow the machine's load); --max-time-change and
** --max-calls-change do not apply. The verdict is decided in integers (products of 256 bits), for
** which a sampled side holds at most FST_DS_MAX_SAMPLES samples and an exact side's
** counts are scaled to 32 bits (its shares' precision: 2^-32); the bound shown is
** rounded for display.
**
** Ownership: as fst_diff_compare (the caller frees with fst_diff_free).
*/
#ifndef FST_DIFFSTAT_H
#define FST_DIFFSTAT_H

#include "analyze/diff/diff.h"

enum { FST_DS_NONE, FST_DS_SAMPLED, FST_DS_EXACT_BASE, FST_DS_EXACT_NEW };
#define FST_DS_MAX_SAMPLES (UINT64_C(1) << 24)
enum { FST_DS_CONF_DEFAULT, FST_DS_CONF_99, FST_DS_CONF_999, FST_DS_CONF_9999 };
#define FST_DS_Z2_DEN 100u

/* "99", "99.9", "99.99" -> FST_DS_CONF_*; -1 for anything else. */
int fst_ds_parse_confidence(const char *s, unsigned *conf);
/* -1 with err when a sampled side has more samples than the integer test takes. */
int fst_diff_shares_check(const fst_dside *base, const fst_dside *new_, fst_err *err);
/* Compare shares (a side is sampled) at a confidence (FST_DS_CONF_*). */
void fst_diff_shares(const fst_dside *base, const fst_dside *new_, unsigned conf, fst_diff *d);
/* The design effect of a routine's k of n samples, in thousandths (FST_DS_INDEP: none),
** from the runs' squared lengths: sq_k the routine's, sq_n all samples' (fst_drow sample_sq). */
#define FST_DS_INDEP 1000u
uint64_t fst_ds_deff(uint64_t k, uint64_t n, uint64_t sq_k, uint64_t sq_n);
/* 1 when |k1/n1 - k2/n2| is beyond z standard errors (two sampled sides), each side's part
** of the variance (p (1-p) / n_i, p pooled) times its f_i / 1000. */
int fst_ds_beyond2(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, unsigned conf, uint64_t f1, uint64_t f2);
/* 1 when |k/n - e/E| is beyond z standard errors of the sampled share (an exact side), the
** variance times f / 1000. */
int fst_ds_beyond1(uint64_t e, uint64_t E, uint64_t k, uint64_t n, unsigned conf, uint64_t f);
/* Writers of a comparison of shares: 0, or -1 when writing fails. */
int fst_diff_write_shares_text(FILE *out, const fst_diff *d, const fst_dside *base, const fst_dside *new_);
int fst_diff_write_shares_csv(FILE *out, const fst_diff *d);

#endif
