/* analyze/diff/diffstat.c — comparing shares when a side is sampled; see diffstat.h. */
#include "analyze/diff/diffstat.h"
#include "analyze/profile/sampled.h"
#include "common/quote.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

static u128 absdiff128(u128 a, u128 b) { return a > b ? a - b : b - a; }

/* z^2 in hundredths, z, and the name of each confidence (FST_DS_CONF_*) */
static const struct { unsigned z2; const char *z, *name, *chance; } confs[] = {
    { 1083, "3.29", "99.9", "1 routine in 1000" }, { 663, "2.58", "99", "1 routine in 100" },
    { 1083, "3.29", "99.9", "1 routine in 1000" }, { 1514, "3.89", "99.99", "1 routine in 10000" },
};

static unsigned conf_of(unsigned c) { return c < sizeof confs / sizeof confs[0] ? c : FST_DS_CONF_DEFAULT; }

int fst_ds_parse_confidence(const char *s, unsigned *conf)
{
    for (unsigned i = FST_DS_CONF_99; i <= FST_DS_CONF_9999; i++)
        if (!strcmp(s, confs[i].name)) {
            *conf = i;
            return 0;
        }
    return -1;
}

/* a * b > c * d, in 256 bits */
typedef struct u256 { u128 hi, lo; } u256;
static u256 mul256(u128 a, u128 b)
{
    uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64), b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
    u128 p00 = (u128)a0 * b0, p01 = (u128)a0 * b1, p10 = (u128)a1 * b0, p11 = (u128)a1 * b1;
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;   /* < 3 * 2^64 */
    return (u256){ p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64), mid << 64 | (uint64_t)p00 };
}
static int mul_gt(u128 a, u128 b, u128 c, u128 d)
{
    u256 x = mul256(a, b), y = mul256(c, d);
    return x.hi != y.hi ? x.hi > y.hi : x.lo > y.lo;
}

uint64_t fst_ds_deff(uint64_t k, uint64_t n, uint64_t sq_k, uint64_t sq_n)
{
    /* clustered over binomial, both times n^4: sum m^2 (n y - k)^2 = sq_k (n^2 - 2 n k) +
    ** sq_n k^2 over k (n-k) n; with n < 2^25, sq <= n^2: under 2^108 */
    if (!k || k >= n || sq_n < n)
        return FST_DS_INDEP;
    u128 a = (u128)sq_k * n * n + (u128)sq_n * k * k, b = (u128)2 * sq_k * n * k;
    u128 num = (a > b ? a - b : 0) * FST_DS_INDEP, den = (u128)k * (n - k) * n;
    u128 f = (num + den - 1) / den;
    return f < FST_DS_INDEP ? FST_DS_INDEP : f > UINT64_MAX ? UINT64_MAX : (uint64_t)f;
}

int fst_ds_beyond2(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2, unsigned conf, uint64_t f1, uint64_t f2)
{
    /* |k1/n1 - k2/n2| > z sqrt(K (N-K) / N^2 (f1/n1 + f2/n2) / 1000), K = k1+k2, N = n1+n2,
    ** squared and multiplied out: (k1 n2 - k2 n1)^2 N^2 1000 > z^2 K (N-K) (f1 n2 + f2 n1)
    ** n1 n2. With n1, n2 < 2^24 (and so f < 2^35) both stay under 2^256 (2^96 * 2^67;
    ** 2^98 * 2^71). */
    if (!n1 || !n2)
        return 0;
    uint64_t K = k1 + k2, N = n1 + n2;
    u128 d = absdiff128((u128)k1 * n2, (u128)k2 * n1);
    return mul_gt(d * d, (u128)N * N * FST_DS_Z2_DEN * FST_DS_INDEP, (u128)K * (N - K) * n1 * n2,
                  ((u128)f1 * n2 + (u128)f2 * n1) * confs[conf_of(conf)].z2);
}

/* The exact counts scaled to at most 2^32 (the share keeps 32 bits of precision). */
static void scale32(uint64_t *e, uint64_t *E)
{
    while (*E > (UINT64_C(1) << 32)) {
        *e >>= 1;
        *E >>= 1;
    }
}

int fst_ds_beyond1(uint64_t e, uint64_t E, uint64_t k, uint64_t n, unsigned conf, uint64_t f)
{
    /* |k/n - e/E| > z sqrt(f e (E-e) / E^2 / n): (k E - e n)^2 1000 > z^2 f e (E-e) n; with
    ** E < 2^33 and n < 2^24: d^2 under 2^114, e (E-e) n under 2^90 */
    if (!n || !E)
        return 0;
    scale32(&e, &E);
    u128 d = absdiff128((u128)k * E, (u128)e * n);
    return mul_gt(d * d, (u128)FST_DS_Z2_DEN * FST_DS_INDEP, (u128)e * (E - e) * n, (u128)confs[conf_of(conf)].z2 * f);
}

int fst_diff_shares_check(const fst_dside *base, const fst_dside *new_, fst_err *err)
{
    for (int k = 0; k < 2; k++) {
        const fst_dside *s = k ? new_ : base;
        if (s->sampled && s->total.self_insns >= FST_DS_MAX_SAMPLES)
            return fst_errf(err, "%s %s holds %llu samples, more than the %llu a comparison of shares takes",
                            k ? "NEW" : "BASE", s->path, (unsigned long long)s->total.self_insns,
                            (unsigned long long)FST_DS_MAX_SAMPLES);
    }
    return 0;
}

/* share in hundredths of a percent, rounded */
static uint64_t share_bp(uint64_t k, uint64_t n)
{
    return n ? (uint64_t)(((u128)k * 20000 + n) / (2 * (u128)n)) : 0;
}

/* z times the standard error, in hundredths of a percent, for display (the verdict is
** fst_ds_beyond*'s) */
static uint64_t bound_bp(const fst_diff *d, uint64_t kb, uint64_t nb, uint64_t kn, uint64_t nn, uint64_t fb,
                         uint64_t fn)
{
    double z = sqrt((double)confs[conf_of(d->confidence)].z2 / FST_DS_Z2_DEN), v;
    if (d->shares == FST_DS_SAMPLED) {
        double p = (double)(kb + kn) / (double)(nb + nn);
        v = p * (1 - p) * ((double)fb / (double)nb + (double)fn / (double)nn) / FST_DS_INDEP;
    } else {
        double p0 = d->shares == FST_DS_EXACT_BASE ? (double)kb / (double)nb : (double)kn / (double)nn;
        uint64_t f = d->shares == FST_DS_EXACT_BASE ? fn : fb;
        v = p0 * (1 - p0) / (double)(d->shares == FST_DS_EXACT_BASE ? nn : nb) * (double)f / FST_DS_INDEP;
    }
    return (uint64_t)llround(z * sqrt(v) * 10000);
}

static const fst_drow *find(const fst_dside *s, const char *name)
{
    for (size_t i = 0; i < s->nr; i++)
        if (!strcmp(s->r[i].name, name))
            return &s->r[i];
    return NULL;
}

static void pts(char *buf, size_t cap, int64_t bp)
{
    uint64_t a = (uint64_t)(bp < 0 ? -bp : bp);
    snprintf(buf, cap, "%s%llu.%02llu", bp < 0 ? "-" : bp > 0 ? "+" : "", (unsigned long long)(a / 100),
             (unsigned long long)(a % 100));
}

/* A sampled side whose samples repeat the PSW before them beyond chance. */
static int repeats(const fst_dside *s)
{
    return s->sampled && fst_sampled_deff(s->total.self_insns, s->total.sample_sq) >= FST_SAMPLED_REPEATS;
}

/* The design effect of a row of a side: 1 (FST_DS_INDEP) for an exact side, and for a
** sampled one whose samples repeat no more than chance does (diffstat.h). */
static uint64_t row_deff(const fst_dside *s, const fst_drow *r)
{
    return repeats(s) ? fst_ds_deff(r->self_insns, s->total.self_insns, r->sample_sq, s->total.sample_sq)
                      : FST_DS_INDEP;
}

static void judge_share(const fst_diff *d, fst_drowdiff *r, const fst_dside *base, const fst_dside *new_)
{
    uint64_t kb = r->base.self_insns, kn = r->new_.self_insns;
    uint64_t nb = base->total.self_insns, nn = new_->total.self_insns;
    uint64_t fb = row_deff(base, &r->base), fn = row_deff(new_, &r->new_);
    r->share_bp[0] = share_bp(kb, nb);
    r->share_bp[1] = share_bp(kn, nn);
    r->bound_bp = bound_bp(d, kb, nb, kn, nn, fb, fn);
    /* the variance's factor over the binomial one, for display: the sides' design effects
    ** weighed by their variances' parts (1/n) */
    uint64_t f = d->shares == FST_DS_EXACT_BASE ? fn : d->shares == FST_DS_EXACT_NEW ? fb
               : !nb || !nn ? FST_DS_INDEP : (uint64_t)(((u128)fb * nn + (u128)fn * nb) / ((u128)nb + nn));
    unsigned c = d->confidence;
    r->over = d->shares == FST_DS_SAMPLED ? fst_ds_beyond2(kb, nb, kn, nn, c, fb, fn)
            : d->shares == FST_DS_EXACT_BASE ? fst_ds_beyond1(kb, nb, kn, nn, c, fn)
                                             : fst_ds_beyond1(kn, nn, kb, nb, c, fb);
    if (r->over) {
        char a[24], b[24], ch[24], e[24];
        pts(a, sizeof a, (int64_t)r->share_bp[0]);
        pts(b, sizeof b, (int64_t)r->share_bp[1]);
        pts(ch, sizeof ch, (int64_t)r->share_bp[1] - (int64_t)r->share_bp[0]);
        pts(e, sizeof e, (int64_t)r->bound_bp);
        char fx[80] = "";
        if (f > FST_DS_INDEP)
            snprintf(fx, sizeof fx, ", the variance x%llu.%02llu for repeated PSWs", (unsigned long long)(f / 1000),
                     (unsigned long long)(f % 1000 / 10));
        snprintf(r->why, sizeof r->why, "share %s%% -> %s%%: %s points, beyond %s (%s standard errors%s)",
                 a + (*a == '+'), b + (*b == '+'), ch, e + (*e == '+'), confs[conf_of(c)].z, fx);
    }
}

static int by_share_change(const void *a, const void *b)
{
    const fst_drowdiff *x = a, *y = b;
    if (x->over != y->over)
        return x->over ? -1 : 1;
    int64_t dx = llabs((int64_t)x->share_bp[1] - (int64_t)x->share_bp[0]);
    int64_t dy = llabs((int64_t)y->share_bp[1] - (int64_t)y->share_bp[0]);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return strcmp(x->base.name[0] ? x->base.name : x->new_.name, y->base.name[0] ? y->base.name : y->new_.name);
}

/* The note of a sampled side whose samples repeat the PSW before them beyond chance
** (sampled.h FST_SAMPLED_REPEATS): its bounds are the wider ones. */
static void repeats_note(fst_diff *d, const fst_dside *base, const fst_dside *new_)
{
    size_t len = strlen(d->notes);
    for (int k = 0; k < 2; k++) {
        const fst_dside *s = k ? new_ : base;
        char what[300];
        if (s->sampled && len < sizeof d->notes &&
            fst_sampled_repeats(s->total.self_insns, s->total.sample_sq, what, sizeof what))
            len += (size_t)snprintf(d->notes + len, sizeof d->notes - len, "%s%s %.120s: %s; its bounds are wider",
                                    len ? "; " : "", k ? "NEW" : "BASE", s->path, what);
    }
}

void fst_diff_shares(const fst_dside *base, const fst_dside *new_, unsigned conf, fst_diff *d)
{
    memset(d, 0, sizeof *d);
    d->confidence = conf_of(conf);
    d->shares = base->sampled && new_->sampled ? FST_DS_SAMPLED : base->sampled ? FST_DS_EXACT_NEW : FST_DS_EXACT_BASE;
    uint64_t nb = base->total.self_insns, nn = new_->total.self_insns;
    d->r = fst_xcalloc(base->nr + new_->nr + 1, sizeof *d->r);
    for (int k = 0; k < 2; k++) {
        const fst_dside *s = k ? new_ : base, *o = k ? base : new_;
        for (size_t i = 0; i < s->nr; i++) {
            const fst_drow *x = &s->r[i], *y = find(o, x->name);
            if (k && y)
                continue; /* done from BASE */
            fst_drowdiff *r = &d->r[d->nr++];
            fst_drow zero = { { 0 } };
            snprintf(zero.name, sizeof zero.name, "%s", x->name);
            r->base = k ? zero : *x;
            r->new_ = k ? *x : y ? *y : zero;
            r->kind = !y ? (k ? FST_D_NEW : FST_D_VANISHED)
                    : r->base.self_insns == r->new_.self_insns ? FST_D_SAME : FST_D_CHANGED;
            judge_share(d, r, base, new_);
            d->nover += (size_t)r->over;
        }
    }
    qsort(d->r, d->nr, sizeof *d->r, by_share_change);
    d->total = (fst_drowdiff){ .base = base->total, .new_ = new_->total, .kind = FST_D_CHANGED };
    d->total.share_bp[0] = d->total.share_bp[1] = 10000;
    d->outside = (fst_drowdiff){ .base = base->outside, .new_ = new_->outside, .kind = FST_D_CHANGED };
    d->outside.share_bp[0] = share_bp(base->outside.self_insns, nb);
    d->outside.share_bp[1] = share_bp(new_->outside.self_insns, nn);
    repeats_note(d, base, new_);
}

/* ---- writers ---- */

static int rule_line(FILE *out, const fst_diff *d)
{
    unsigned c = conf_of(d->confidence);
    const char *what = d->shares == FST_DS_SAMPLED
        ? "its shares of samples differ by more than z = %s standard errors of a difference of two proportions, "
          "sqrt(p (1-p) (1/n1 + 1/n2)), p the pooled share"
        : "the sampled share is more than z = %s standard errors, sqrt(p0 (1-p0) / n), from the exact side's share "
          "of instructions p0 (which has no error)";
    if (fputs("rule: a routine differs when ", out) < 0 || fprintf(out, what, confs[c].z) < 0)
        return -1;
    return fprintf(out, " (binomial, %s %% two-sided: about %s flagged by chance alone; for a side whose "
                        "samples repeat the PSW before them beyond chance, design effect %u.%u or more, the "
                        "variance times each routine's design effect); calls and times not judged\n",
                   confs[c].name, confs[c].chance, FST_SAMPLED_REPEATS / 1000, FST_SAMPLED_REPEATS % 1000 / 100) < 0
               ? -1 : 0;
}

static const char *side_kind(const fst_dside *s) { return s->sampled ? "samples" : "instructions"; }

static int text_row(FILE *out, const fst_drowdiff *r, int judged)
{
    char nm[sizeof r->base.name], s0[24], s1[24], df[24], bd[24] = "";
    pts(s0, sizeof s0, (int64_t)r->share_bp[0]);
    pts(s1, sizeof s1, (int64_t)r->share_bp[1]);
    pts(df, sizeof df, (int64_t)r->share_bp[1] - (int64_t)r->share_bp[0]);
    if (judged)
        pts(bd, sizeof bd, (int64_t)r->bound_bp);
    const char *name = r->base.name[0] ? r->base.name : r->new_.name;
    return fprintf(out, "%-10s %12llu %12llu  %8s%% %8s%%  %8s  %7s  %s%s\n", fst_printable(name, nm, sizeof nm),
                   (unsigned long long)r->base.self_insns, (unsigned long long)r->new_.self_insns, s0 + (*s0 == '+'),
                   s1 + (*s1 == '+'), df, bd, r->over ? "OVER: " : "",
                   r->over ? r->why : judged ? "within" : "") < 0 ? -1 : 0;
}

int fst_diff_write_shares_text(FILE *out, const fst_diff *d, const fst_dside *base, const fst_dside *new_)
{
    int rc = fprintf(out, "BASE %s (%s, %llu %s)\nNEW  %s (%s, %llu %s)\n", base->path,
                     base->sampled ? "sampled" : "exact", (unsigned long long)base->total.self_insns, side_kind(base),
                     new_->path, new_->sampled ? "sampled" : "exact", (unsigned long long)new_->total.self_insns,
                     side_kind(new_)) < 0;
    rc |= rule_line(out, d) < 0;
    if (d->notes[0])
        rc |= fprintf(out, "note: %s\n", d->notes) < 0;
    if (d->shares != FST_DS_SAMPLED)
        rc |= fprintf(out, "note: an exact share is a share of instructions, a sampled one a share of Hercules' "
                           "host time: they agree as far as Hercules spends the same host time on every instruction\n") < 0;
    rc |= fprintf(out, "\n%-10s %12s %12s  %9s %9s  %8s  %7s  %s\n", "ROUTINE", "BASE", "NEW", "SHARE", "SHARE",
                  "CHANGE", "BOUND", "") < 0;
    rc |= fprintf(out, "%-10s %12s %12s  %9s %9s  %8s  %7s  %s\n", "", side_kind(base), side_kind(new_), "BASE", "NEW",
                  "(points)", "(+-)", "VERDICT") < 0;
    for (size_t i = 0; i < d->nr && !rc; i++)
        rc = text_row(out, &d->r[i], 1);
    if (!rc)
        rc = text_row(out, &d->outside, 0);
    if (!rc)
        rc = text_row(out, &d->total, 0);
    if (!rc)
        rc = fprintf(out, "\n%zu beyond the bound\n", d->nover) < 0;
    return rc ? -1 : 0;
}

static int csv_row(FILE *out, const fst_drowdiff *r, int judged)
{
    static const char *kinds[] = { "same", "changed", "new", "vanished" };
    char s0[24], s1[24], df[24], bd[24] = "";
    pts(s0, sizeof s0, (int64_t)r->share_bp[0]);
    pts(s1, sizeof s1, (int64_t)r->share_bp[1]);
    pts(df, sizeof df, (int64_t)r->share_bp[1] - (int64_t)r->share_bp[0]);
    if (judged)
        pts(bd, sizeof bd, (int64_t)r->bound_bp);
    if (fst_csv_field(out, r->base.name[0] ? r->base.name : r->new_.name) < 0)
        return -1;
    /* why has no comma or quote: judge_share makes it of words, numbers, % and : */
    return fprintf(out, ",%s,%s,%llu,%llu,%s,%s,%s,%s,%s\n", kinds[r->kind], !judged ? "" : r->over ? "over" : "ok",
                   (unsigned long long)r->base.self_insns, (unsigned long long)r->new_.self_insns, s0 + (*s0 == '+'),
                   s1 + (*s1 == '+'), df, bd + (*bd == '+'), r->why) < 0 ? -1 : 0;
}

int fst_diff_write_shares_csv(FILE *out, const fst_diff *d)
{
    int rc = fprintf(out, "routine,kind,verdict,count_base,count_new,share_base_pct,share_new_pct,change_points,"
                          "bound_points,why\n") < 0 ? -1 : 0;
    for (size_t i = 0; i < d->nr && !rc; i++)
        rc = csv_row(out, &d->r[i], 1);
    if (!rc)
        rc = csv_row(out, &d->outside, 0);
    if (!rc)
        rc = csv_row(out, &d->total, 0);
    return rc;
}
