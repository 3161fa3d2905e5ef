/*
** analyze/diff/diff.c — the comparison of two runs; see diff.h. Sides: loading a trace
** (replayed as fst-report replays it) or a csv report (csvprofile.c); the metadata of
** how a side was made and whether two sides are comparable; the comparison itself;
** the writers (text table, csv, JUnit suites). Percentages are integers (hundredths).
*/
#include "analyze/diff/diff.h"
#include "analyze/diff/diffstat.h"
#include "analyze/profile/sampled.h"
#include "analyze/replay/replay.h"
#include "model/mapspaces.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

/* ---- sides ---- */

static fst_drow row_of(const char *name, uint64_t calls, uint64_t si, uint64_t ii, fst_fx sc, fst_fx ic)
{
    fst_drow d = { { 0 } };
    snprintf(d.name, sizeof d.name, "%s", name);
    d.calls = calls;
    d.self_insns = si;
    d.incl_insns = ii;
    d.self_ns = fst_fx_to_ns(sc);
    d.incl_ns = fst_fx_to_ns(ic);
    return d;
}

void fst_dside_from_profile(fst_dside *s, const fst_profile *p, const fst_dmeta *m)
{
    s->r = fst_xcalloc(p->nr + 1, sizeof *s->r);
    s->nr = 0;
    for (size_t i = 0; i < p->nr; i++) {
        const fst_routine *r = &p->r[i];
        if (r->timed) { /* formats/csv.c lists the timed routines only */
            s->r[s->nr] = row_of(r->name, r->calls, r->self_insns, r->incl_insns, r->self_cost, r->incl_cost);
            s->r[s->nr++].sample_sq = r->sample_sq;
        }
    }
    s->outside = row_of("(outside)", 0, p->outside_insns, p->outside_insns, p->outside_cost, p->outside_cost);
    s->excluded = row_of("(excluded)", 0, p->excluded_insns, p->excluded_insns, p->excluded_cost, p->excluded_cost);
    s->total = row_of("(total)", 0, p->total_insns, p->total_insns, p->total_cost, p->total_cost);
    s->total.sample_sq = p->sample_sq;
    s->meta = *m;
    s->complete = p->complete;
    snprintf(s->incomplete, sizeof s->incomplete, "%s", p->complete ? "" : p->incomplete);
}

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* names sorted and joined with '+' */
static int join_sorted(char *out, size_t cap, const char **names, size_t n)
{
    qsort(names, n, sizeof *names, cmpstr);
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(out + len, cap - len, "%s%s", i ? "+" : "", names[i]);
        if (w < 0 || (size_t)w >= cap - len)
            return -1;
        len += (size_t)w;
    }
    return 0;
}

static fst_fx mips_fx_of(const char *clock)
{
    fst_clock_spec sp;
    if (strncmp(clock, "mips:", 5) || fst_clock_parse(clock, &sp, NULL) < 0)
        return 0;
    fst_clock *c = fst_clock_new(&sp, NULL);
    fst_fx fx = c ? fst_clock_mips_cost(c) : 0;
    fst_clock_free(c);
    return fx;
}

int fst_dmeta_of(fst_dmeta *m, const fst_dload_opts *o, const char *clockname, fst_fx mips_fx, fst_err *err)
{
    memset(m, 0, sizeof *m);
    snprintf(m->clock, sizeof m->clock, "%s", clockname);
    m->mips_fx = mips_fx;
    if (o->timed_all)
        strcpy(m->timed, "all");
    else if (o->statin) {
        char (*names)[9] = NULL;
        size_t n = 0;
        if (fst_statin_read(o->statin, &names, &n, NULL, err) < 0)
            return -1;
        const char **v = fst_xcalloc(n + 1, sizeof *v);
        for (size_t i = 0; i < n; i++)
            v[i] = names[i];
        strcpy(m->timed, "statin:");
        int rc = join_sorted(m->timed + 7, sizeof m->timed - 7, v, n);
        free(v);
        free(names);
        if (rc < 0)
            return fst_errf(err, "%s: too many names", o->statin);
    } else
        strcpy(m->timed, "fortran");
    size_t ne = 0;
    while (o->exclude && o->exclude[ne])
        ne++;
    const char **v = fst_xcalloc(ne + 1, sizeof *v);
    memcpy(v, o->exclude ? o->exclude : v, ne * sizeof *v);
    int rc = join_sorted(m->exclude, sizeof m->exclude, v, ne);
    free(v);
    if (rc < 0)
        return fst_errf(err, "--exclude: too many names");
    strcpy(m->cpu, o->cpu_problem ? "problem" : "all");
    return 0;
}

int fst_dmeta_format(const fst_dmeta *m, char *buf, size_t cap)
{
    int w = snprintf(buf, cap, "clock=%s timed=%s%s%s%s", m->clock, m->timed, m->exclude[0] ? " exclude=" : "",
                     m->exclude, strcmp(m->cpu, "problem") ? "" : " cpu=problem");
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

int fst_dmeta_parse(fst_dmeta *m, const char *words, const char *where, fst_err *err)
{
    memset(m, 0, sizeof *m);
    int have_timed = 0;
    char *copy = fst_xstrdup(words), *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(w, '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *v = eq + 1;
        char *dst = !strcmp(w, "clock") ? m->clock : !strcmp(w, "timed") ? m->timed
                  : !strcmp(w, "exclude") ? m->exclude : !strcmp(w, "cpu") ? m->cpu : NULL;
        size_t cap = dst == m->clock ? sizeof m->clock : dst == m->cpu ? sizeof m->cpu : sizeof m->timed;
        if (!dst)
            continue; /* a key of a later version */
        if (strlen(v) >= cap) {
            free(copy);
            return fst_errf(err, "%s: metadata %s= too long", where, w);
        }
        strcpy(dst, v);
        have_timed |= dst == m->timed;
    }
    free(copy);
    if (m->clock[0] && strncmp(m->clock, "mips:", 5) && strncmp(m->clock, "model", 5))
        return fst_errf(err, "%s: metadata clock=%s is no clock", where, m->clock);
    m->mips_fx = mips_fx_of(m->clock);
    if (!strncmp(m->clock, "mips:", 5) && !m->mips_fx)
        return fst_errf(err, "%s: metadata clock=%s is no clock", where, m->clock);
    if (have_timed && !m->cpu[0])
        strcpy(m->cpu, "all");
    if (!have_timed)
        m->exclude[0] = m->cpu[0] = 0; /* unknown together */
    return 0;
}

static int load_trace(fst_dside *s, const char *path, const fst_dload_opts *o, fst_err *err)
{
    fst_clock *clk = fst_clock_open(o->clock, err);
    if (!clk)
        return -1;
    int rc = -1;
    fst_pm *pm = NULL;
    fst_profile prof;
    int have_prof = 0;
    fst_dmeta m;
    fst_tr *tr = fst_tr_open(path, err);
    size_t nmaps = 0;
    while (o->maps && o->maps[nmaps])
        nmaps++;
    /* placed as fst-report places it: where the trace ran it, and then only the address
    ** spaces that ran it (model/mapspaces.h) */
    fst_pm_trace_opts po = { strcmp(path, "-") ? path : NULL, NULL, NULL };
    fst_pm_placed placed;
    if (!tr || fst_pm_for_trace_placed(&pm, o->maps, nmaps, o->member, tr, &po, &placed, err) < 0)
        goto out;
    int sampled = fst_trace_sampled(tr);
    /* a sampled trace's times are host time, whatever --clock says */
    if (fst_dmeta_of(&m, o, sampled ? "host" : fst_clock_name(clk), sampled ? 0 : fst_clock_mips_cost(clk), err) < 0)
        goto out;
    fst_replay_opts ro = { o->statin, o->timed_all, o->exclude, o->cpu_problem, clk, o->warn };
    const fst_placement *at = &placed.at;
    if (placed.from_trace && at->nspaces && at->spaces[0] != FST_PLACE_REAL && at->spaces[0] != FST_PLACE_UNKNOWN)
        fst_replay_opts_placed(&ro, at->spaces, at->nspaces, 1);
    size_t ns = o->sink ? 1 : 0;
    if ((sampled ? fst_sampled_build(tr, pm, &ro, &prof, o->sink, ns, err) : fst_replay(tr, pm, &ro, &prof, o->sink, ns, err)) < 0)
        goto out;
    have_prof = 1;
    if (o->replayed)
        o->replayed(o->replayed_ctx, &prof);
    fst_dside_from_profile(s, &prof, &m);
    s->is_trace = 1;
    s->sampled = sampled;
    fst_progid_of(&s->id, tr);
    rc = 0;
out:
    if (have_prof)
        fst_profile_free(&prof);
    if (tr)
        fst_tr_close(tr);
    fst_pm_free(pm);
    fst_clock_free(clk);
    return rc;
}

int fst_dside_load(fst_dside *s, const char *path, const fst_dload_opts *o, fst_err *err)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fst_errno(err, "%s: cannot open", path);
    char magic[8] = { 0 };
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    if (got == sizeof magic && !memcmp(magic, FST_TRACE_MAGIC, 8)) {
        snprintf(s->path, sizeof s->path, "%s", path);
        return load_trace(s, path, o, err);
    }
    return fst_dside_read_csv(s, path, err);
}

void fst_dside_free(fst_dside *s)
{
    free(s->r);
    s->r = NULL;
    s->nr = 0;
}

int fst_diff_parse_pct(const char *s, uint64_t *bp)
{
    const char *dot = strchr(s, '.');
    size_t il = dot ? (size_t)(dot - s) : strlen(s);
    if (!il || il > 12 || strspn(s, "0123456789") != il)
        return -1;
    uint64_t v = strtoull(s, NULL, 10) * 100;
    if (dot) {
        size_t nd = strlen(dot + 1);
        if (!nd || nd > 2 || strspn(dot + 1, "0123456789") != nd)
            return -1;
        v += (uint64_t)(dot[1] - '0') * 10 + (nd > 1 ? (uint64_t)(dot[2] - '0') : 0);
    }
    *bp = v;
    return 0;
}

/* ---- comparability ---- */

typedef unsigned __int128 u128;

static const char *side_name(const fst_dside *s, const fst_dside *base) { return s == base ? "BASE" : "NEW"; }

/* Under mips, a row's time is a function of its instructions. The first row of s that
** is not that function for fx per instruction, or NULL. */
static const fst_drow *off_mips(const fst_dside *s, fst_fx fx)
{
    const fst_drow *extra[] = { &s->outside, &s->excluded, &s->total };
    for (size_t i = 0; i < s->nr + 3; i++) {
        const fst_drow *d = i < s->nr ? &s->r[i] : extra[i - s->nr];
        if (d->self_ns != (uint64_t)(((u128)d->self_insns * fx + FST_FX_PER_NS / 2) / FST_FX_PER_NS) ||
            d->incl_ns != (uint64_t)(((u128)d->incl_insns * fx + FST_FX_PER_NS / 2) / FST_FX_PER_NS))
            return d;
    }
    return NULL;
}

/* Are s's times proportional to its instructions (some mips clock), to rounding? With
** t = i c + e, T = I c + e', |e|, |e'| <= 1/2: |t I - T i| <= (I + i) / 2. */
static int proportional(const fst_dside *s)
{
    uint64_t I = s->total.self_insns, T = s->total.self_ns;
    if (!I)
        return 0;
    for (size_t i = 0; i < s->nr; i++) {
        const fst_drow *d = &s->r[i];
        u128 a = (u128)d->self_ns * I, b = (u128)T * d->self_insns;
        if ((a > b ? a - b : b - a) * 2 > (u128)I + d->self_insns)
            return 0;
    }
    return 1;
}

/* two proportional sides at one rate: n's total at b's ratio, to rounding */
static int same_rate(const fst_dside *b, const fst_dside *n)
{
    uint64_t I = b->total.self_insns, T = b->total.self_ns, i = n->total.self_insns, t = n->total.self_ns;
    u128 x = (u128)t * I, y = (u128)T * i;
    return (x > y ? x - y : y - x) * 2 <= (u128)I + i;
}

static int check_clock(const fst_dside *b, const fst_dside *n, fst_err *err)
{
    const fst_dmeta *mb = &b->meta, *mn = &n->meta;
    if (mb->clock[0] && mn->clock[0]) {
        int same = mb->mips_fx || mn->mips_fx ? mb->mips_fx == mn->mips_fx : !strcmp(mb->clock, mn->clock);
        if (!same)
            return fst_errf(err, "different clocks: BASE %s was made with --clock=%s, NEW %s with --clock=%s: "
                                 "times are not comparable", b->path, mb->clock, n->path, mn->clock);
        return 0;
    }
    if (!mb->clock[0] && !mn->clock[0]) {
        /* two csv reports without metadata: a mips clock shows as proportional times */
        int pb = proportional(b), pn = proportional(n);
        if (pb != pn || (pb && !same_rate(b, n))) {
            const char *mips = "proportional to its instructions (a mips clock)", *model = "not (a model clock)";
            return fst_errf(err, "different clocks: BASE %s has times %s, NEW %s %s", b->path, pb ? mips : model,
                            n->path, pn ? (pb ? "at another rate" : mips) : model);
        }
        return 0;
    }
    for (int k = 0; k < 2; k++) {
        const fst_dside *known = k ? n : b, *other = k ? b : n;
        if (!known->meta.clock[0] || other->meta.clock[0])
            continue;
        const fst_drow *d;
        if (known->meta.mips_fx && (d = off_mips(other, known->meta.mips_fx)))
            return fst_errf(err, "different clocks: %s's times are not those of --clock=%s for its instruction "
                                 "counts (row %s): %s %s was made with another clock; give its --clock",
                            other->path, known->meta.clock, d->name, side_name(other, b), other->path);
        if (!known->meta.mips_fx && proportional(other) && !proportional(known))
            return fst_errf(err, "different clocks: %s's times are proportional to its instruction counts (a mips "
                                 "clock), %s %s was made with --clock=%s", other->path, side_name(known, b),
                            known->path, known->meta.clock);
    }
    return 0;
}

static int check_timing(const fst_dside *b, const fst_dside *n, fst_err *err)
{
    const fst_dmeta *mb = &b->meta, *mn = &n->meta;
    if (!mb->timed[0] || !mn->timed[0])
        return 0; /* unknown: routine lists that differ show as new and vanished routines */
    const char *what = strcmp(mb->timed, mn->timed) ? "timed" : strcmp(mb->exclude, mn->exclude) ? "exclude"
                     : strcmp(mb->cpu, mn->cpu) ? "cpu" : NULL;
    if (!what)
        return 0;
    const char *vb = *what == 't' ? mb->timed : *what == 'e' ? mb->exclude : mb->cpu;
    const char *vn = *what == 't' ? mn->timed : *what == 'e' ? mn->exclude : mn->cpu;
    return fst_errf(err, "different timing: BASE %s has %s=%s, NEW %s has %s=%s: the same routines are not "
                         "timed alike (give the same --timed/--statin/--exclude/--cpu)",
                    b->path, what, *vb ? vb : "(none)", n->path, what, *vn ? vn : "(none)");
}

int fst_diff_check(const fst_dside *base, const fst_dside *new_, int versions, fst_err *err)
{
    char why[200];
    if (!versions && fst_progid_differ(&base->id, &new_->id, why, sizeof why))
        return fst_errf(err, "BASE %s and NEW %s are not runs of one program: %s; --versions compares them as "
                             "versions of one program", base->path, new_->path, why);
    for (int k = 0; k < 2; k++) {
        const fst_dside *s = k ? new_ : base;
        if (!s->complete)
            return fst_errf(err, "%s %s is incomplete (%s): not compared", k ? "NEW" : "BASE", s->path, s->incomplete);
    }
    if (fst_diff_same_program(base, new_, err) < 0)
        return -1;
    if (base->sampled || new_->sampled) /* shares, not times: the clocks do not matter */
        return check_timing(base, new_, err) < 0 ? -1 : fst_diff_shares_check(base, new_, err);
    if (check_clock(base, new_, err) < 0 || check_timing(base, new_, err) < 0)
        return -1;
    return 0;
}

/* ---- the comparison ---- */

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

/* a grew by more than bp hundredths of a percent of a (0 -> anything more is over) */
static int grew_over(uint64_t base, uint64_t now, uint64_t bp)
{
    return now > base && (u128)(now - base) * 10000 > (u128)base * bp;
}

/* signed change in hundredths of a percent, rounded half away from zero; base > 0 */
static int64_t change_bp(uint64_t base, uint64_t now)
{
    u128 d = absdiff(base, now);
    int64_t v = (int64_t)((d * 10000 + base / 2) / base);
    return now >= base ? v : -v;
}

static void pct_text(char *buf, size_t cap, uint64_t base, uint64_t now)
{
    if (base == now)
        snprintf(buf, cap, "0%%");
    else if (!base)
        snprintf(buf, cap, "+inf");
    else {
        int64_t v = change_bp(base, now);
        uint64_t a = (uint64_t)(v < 0 ? -v : v);
        snprintf(buf, cap, "%c%llu.%02llu%%", v < 0 ? '-' : '+', (unsigned long long)(a / 100),
                 (unsigned long long)(a % 100));
    }
}

static void bp_text(char *buf, size_t cap, uint64_t bp)
{
    if (bp % 100)
        snprintf(buf, cap, "%llu.%02llu%%", (unsigned long long)(bp / 100), (unsigned long long)(bp % 100));
    else
        snprintf(buf, cap, "%llu%%", (unsigned long long)(bp / 100));
}

static void judge(fst_drowdiff *r, const fst_dthresh *t, int is_total)
{
    const fst_drow *b = &r->base, *n = &r->new_;
    char p[32], lim[32];
    size_t len = 0;
    r->why[0] = 0;
    if (r->kind == FST_D_NEW || r->kind == FST_D_VANISHED) {
        r->over = 1;
        snprintf(r->why, sizeof r->why, "%s", r->kind == FST_D_NEW ? "new routine" : "vanished");
        return;
    }
    if (!is_total && b->calls != n->calls && (u128)absdiff(b->calls, n->calls) * 10000 > (u128)b->calls * t->max_calls_bp) {
        r->over = 1;
        len += (size_t)snprintf(r->why, sizeof r->why, "calls %llu -> %llu", (unsigned long long)b->calls,
                                (unsigned long long)n->calls);
    }
    if (grew_over(b->self_ns, n->self_ns, t->max_time_bp)) {
        r->over = 1;
        pct_text(p, sizeof p, b->self_ns, n->self_ns);
        bp_text(lim, sizeof lim, t->max_time_bp);
        snprintf(r->why + len, sizeof r->why - len, "%s%s time %s > %s", len ? " and " : "", is_total ? "total" : "self",
                 p, lim);
    }
}

static int impact_cmp(const void *a, const void *b)
{
    const fst_drowdiff *x = a, *y = b;
    if (x->over != y->over)
        return x->over ? -1 : 1; /* what fails the run comes first */
    uint64_t dx = absdiff(x->base.self_ns, x->new_.self_ns), dy = absdiff(y->base.self_ns, y->new_.self_ns);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    uint64_t cx = absdiff(x->base.calls, x->new_.calls), cy = absdiff(y->base.calls, y->new_.calls);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return strcmp(x->base.name[0] ? x->base.name : x->new_.name, y->base.name[0] ? y->base.name : y->new_.name);
}

static int same_row(const fst_drow *a, const fst_drow *b)
{
    return a->calls == b->calls && a->self_insns == b->self_insns && a->incl_insns == b->incl_insns &&
           a->self_ns == b->self_ns && a->incl_ns == b->incl_ns;
}

void fst_diff_compare(const fst_dside *base, const fst_dside *new_, const fst_dthresh *t, fst_diff *d)
{
    if (base->sampled || new_->sampled) {
        fst_diff_shares(base, new_, t->confidence, d);
        return;
    }
    memset(d, 0, sizeof *d);
    d->r = fst_xcalloc(base->nr + new_->nr + 1, sizeof *d->r);
    for (size_t i = 0; i < base->nr; i++) {
        fst_drowdiff *r = &d->r[d->nr++];
        r->base = base->r[i];
        r->kind = FST_D_VANISHED;
        for (size_t k = 0; k < new_->nr; k++)
            if (!strcmp(new_->r[k].name, base->r[i].name)) {
                r->new_ = new_->r[k];
                r->kind = same_row(&r->base, &r->new_) ? FST_D_SAME : FST_D_CHANGED;
            }
    }
    for (size_t k = 0; k < new_->nr; k++) {
        size_t i = 0;
        while (i < base->nr && strcmp(base->r[i].name, new_->r[k].name))
            i++;
        if (i == base->nr)
            d->r[d->nr++] = (fst_drowdiff){ .new_ = new_->r[k], .kind = FST_D_NEW };
    }
    for (size_t i = 0; i < d->nr; i++) {
        judge(&d->r[i], t, 0);
        d->nover += (size_t)d->r[i].over;
    }
    qsort(d->r, d->nr, sizeof *d->r, impact_cmp);
    d->total = (fst_drowdiff){ .base = base->total, .new_ = new_->total };
    d->total.kind = same_row(&base->total, &new_->total) ? FST_D_SAME : FST_D_CHANGED;
    judge(&d->total, t, 1);
    d->nover += (size_t)d->total.over;
    d->outside = (fst_drowdiff){ .base = base->outside, .new_ = new_->outside };
    d->outside.kind = same_row(&base->outside, &new_->outside) ? FST_D_SAME : FST_D_CHANGED;
    size_t len = 0;
    for (int k = 0; k < 2; k++) {
        const fst_dside *s = k ? new_ : base;
        if (!s->meta.timed[0] && len < sizeof d->notes)
            len += (size_t)snprintf(d->notes + len, sizeof d->notes - len,
                                    "%s%s %.200s: how it was timed is not known (no '# fst-report' line)",
                                    len ? "; " : "", k ? "NEW" : "BASE", s->path);
    }
}

void fst_diff_free(fst_diff *d)
{
    free(d->r);
    d->r = NULL;
    d->nr = 0;
}

/* ---- writers ---- */

static void sec_text(char *buf, size_t cap, uint64_t ns)
{
    snprintf(buf, cap, "%llu.%09llu", (unsigned long long)(ns / 1000000000u), (unsigned long long)(ns % 1000000000u));
}

static const char *row_name(const fst_drowdiff *r) { return r->base.name[0] ? r->base.name : r->new_.name; }

static const char *kind_name(int k)
{
    return k == FST_D_SAME ? "same" : k == FST_D_CHANGED ? "changed" : k == FST_D_NEW ? "new" : "vanished";
}

static int text_row(FILE *out, const fst_drowdiff *r, int judged)
{
    char c0[24] = "-", c1[24] = "-", s0[32] = "-", s1[32] = "-", sp[32] = "", i0[32] = "-", i1[32] = "-", ip[32] = "";
    int hb = r->kind != FST_D_NEW, hn = r->kind != FST_D_VANISHED;
    if (hb) {
        snprintf(c0, sizeof c0, "%llu", (unsigned long long)r->base.calls);
        sec_text(s0, sizeof s0, r->base.self_ns);
        sec_text(i0, sizeof i0, r->base.incl_ns);
    }
    if (hn) {
        snprintf(c1, sizeof c1, "%llu", (unsigned long long)r->new_.calls);
        sec_text(s1, sizeof s1, r->new_.self_ns);
        sec_text(i1, sizeof i1, r->new_.incl_ns);
    }
    if (hb && hn) {
        pct_text(sp, sizeof sp, r->base.self_ns, r->new_.self_ns);
        pct_text(ip, sizeof ip, r->base.incl_ns, r->new_.incl_ns);
    }
    const char *verdict = r->over ? r->why : !judged ? "" : r->kind == FST_D_SAME ? "same" : "within";
    char nm[sizeof r->base.name];
    return fprintf(out, "%-10s %7s %7s  %13s %13s %8s  %13s %13s %8s  %s%s\n",
                   fst_printable(row_name(r), nm, sizeof nm), c0, c1, s0, s1, sp, i0,
                   i1, ip, r->over ? "OVER: " : "", verdict) < 0 ? -1 : 0;
}

int fst_diff_write_text(FILE *out, const fst_diff *d, const fst_dside *base, const fst_dside *new_)
{
    if (d->shares)
        return fst_diff_write_shares_text(out, d, base, new_);
    int rc = 0;
    rc |= fprintf(out, "BASE %s\nNEW  %s\n", base->path, new_->path) < 0;
    const fst_dmeta *m = base->meta.clock[0] ? &base->meta : &new_->meta;
    if (m->clock[0])
        rc |= fprintf(out, "clock %s%s%s\n", m->clock, m->timed[0] ? ", timed " : "", m->timed) < 0;
    if (d->notes[0])
        rc |= fprintf(out, "note: %s\n", d->notes) < 0;
    rc |= fprintf(out, "\n%-10s %7s %7s  %13s %13s %8s  %13s %13s %8s  %s\n", "ROUTINE", "CALLS", "", "SELF (S)", "",
                  "", "INCL (S)", "", "", "") < 0;
    rc |= fprintf(out, "%-10s %7s %7s  %13s %13s %8s  %13s %13s %8s  %s\n", "", "BASE", "NEW", "BASE", "NEW", "CHANGE",
                  "BASE", "NEW", "CHANGE", "VERDICT") < 0;
    for (size_t i = 0; i < d->nr && !rc; i++)
        rc = text_row(out, &d->r[i], 1);
    if (!rc)
        rc = text_row(out, &d->outside, 0);
    if (!rc)
        rc = text_row(out, &d->total, 1);
    if (!rc)
        rc = fprintf(out, "\n%zu outside the thresholds\n", d->nover) < 0;
    return rc ? -1 : 0;
}

static int csv_row(FILE *out, const fst_drowdiff *r, int judged)
{
    char s0[32] = "", s1[32] = "", sp[32] = "", i0[32] = "", i1[32] = "", ip[32] = "";
    int hb = r->kind != FST_D_NEW, hn = r->kind != FST_D_VANISHED;
    if (hb) {
        sec_text(s0, sizeof s0, r->base.self_ns);
        sec_text(i0, sizeof i0, r->base.incl_ns);
    }
    if (hn) {
        sec_text(s1, sizeof s1, r->new_.self_ns);
        sec_text(i1, sizeof i1, r->new_.incl_ns);
    }
    if (hb && hn) {
        pct_text(sp, sizeof sp, r->base.self_ns, r->new_.self_ns);
        pct_text(ip, sizeof ip, r->base.incl_ns, r->new_.incl_ns);
        sp[strcspn(sp, "%")] = ip[strcspn(ip, "%")] = 0;
    }
    char c0[24] = "", c1[24] = "", si0[24] = "", si1[24] = "";
    if (hb) {
        snprintf(c0, sizeof c0, "%llu", (unsigned long long)r->base.calls);
        snprintf(si0, sizeof si0, "%llu", (unsigned long long)r->base.self_insns);
    }
    if (hn) {
        snprintf(c1, sizeof c1, "%llu", (unsigned long long)r->new_.calls);
        snprintf(si1, sizeof si1, "%llu", (unsigned long long)r->new_.self_insns);
    }
    /* why has no comma or quote: judge() makes it of words, numbers and " and " */
    if (fst_csv_field(out, row_name(r)) < 0) /* RFC 4180 */
        return -1;
    return fprintf(out, ",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", kind_name(r->kind),
                   !judged ? "" : r->over ? "over" : "ok", c0, c1, si0, si1, s0, s1, sp, i0, i1, ip, r->why) < 0
               ? -1 : 0;
}

int fst_diff_write_csv(FILE *out, const fst_diff *d)
{
    if (d->shares)
        return fst_diff_write_shares_csv(out, d);
    int rc = fprintf(out, "routine,kind,verdict,calls_base,calls_new,self_instr_base,self_instr_new,self_sec_base,"
                          "self_sec_new,self_change_pct,incl_sec_base,incl_sec_new,incl_change_pct,why\n") < 0 ? -1 : 0;
    for (size_t i = 0; i < d->nr && !rc; i++)
        rc = csv_row(out, &d->r[i], 1);
    if (!rc)
        rc = csv_row(out, &d->outside, 0);
    if (!rc)
        rc = csv_row(out, &d->total, 1);
    return rc;
}

static int xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        const char *e = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : *s == '"' ? "&quot;" : NULL;
        /* XML 1.0 has no control characters (an attribute's newline would read as a blank) */
        char c = (unsigned char)*s < 0x20 || *s == 0x7F ? '?' : *s;
        if (e ? fputs(e, out) < 0 : putc(c, out) == EOF)
            return -1;
    }
    return 0;
}

static int junit_case(FILE *out, const char *suite, const char *name, const char *failure)
{
    int rc = fputs("    <testcase classname=\"", out) < 0 || xml_text(out, suite) || fputs("\" name=\"", out) < 0 ||
             xml_text(out, name);
    if (failure)
        rc = rc || fputs("\">\n      <failure message=\"", out) < 0 || xml_text(out, failure) ||
             fputs("\"/>\n    </testcase>\n", out) < 0;
    else
        rc = rc || fputs("\"/>\n", out) < 0;
    return rc ? -1 : 0;
}

int fst_diff_write_junit_suite(FILE *out, const char *suite, const fst_diff *d)
{
    int rc = fputs("  <testsuite name=\"", out) < 0 || xml_text(out, suite) ||
             fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", d->nr + 1, d->nover) < 0;
    for (size_t i = 0; i < d->nr && !rc; i++)
        rc = junit_case(out, suite, row_name(&d->r[i]), d->r[i].over ? d->r[i].why : NULL);
    if (!rc)
        rc = junit_case(out, suite, "(total)", d->total.over ? d->total.why : NULL);
    return rc || fputs("  </testsuite>\n", out) < 0 ? -1 : 0;
}

int fst_diff_write_junit_error(FILE *out, const char *suite, const char *msg)
{
    int rc = fputs("  <testsuite name=\"", out) < 0 || xml_text(out, suite) ||
             fputs("\" tests=\"1\" failures=\"0\" errors=\"1\">\n    <testcase classname=\"", out) < 0 ||
             xml_text(out, suite) || fputs("\" name=\"(compare)\">\n      <error message=\"", out) < 0 ||
             xml_text(out, msg) || fputs("\"/>\n    </testcase>\n  </testsuite>\n", out) < 0;
    return rc ? -1 : 0;
}
