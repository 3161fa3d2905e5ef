/* analyze/profile/sampled.c — see sampled.h. */
#include "analyze/profile/sampled.h"
#include "isa/decode.h"
#include "analyze/tasks/tasks.h"
#include "common/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fst_trace_sampled(const fst_tr *tr)
{
    const char *s = fst_tr_header(tr, FST_HK_SOURCE);
    return s && !strcmp(s, "sample");
}

typedef struct byaddr {
    uint64_t entry;
    size_t r;
} byaddr;

static int cmp_entry(const void *a, const void *b)
{
    const byaddr *x = a, *y = b;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* The routine holding addr: the nearest entry at or below it, inside the extent. */
static size_t routine_at(const fst_profile *p, const byaddr *t, size_t n, uint64_t addr)
{
    if (!n || addr < t[0].entry || addr >= p->hi)
        return FST_NONE;
    size_t lo = 0, hi = n; /* last entry <= addr */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t[mid].entry <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return t[lo].r;
}

/* The run of samples at one PSW (sampled.h): what the last counted sample was, and how
** many in a row had it (m = 0: none, after a wait). */
typedef struct fst_run {
    uint64_t m, space;
    uint16_t cpu;
    uint8_t pswlen, psw[16];
} fst_run;

/* A counted sample: the run it extends or begins, and what its length squared grew by
** (2m + 1 for the (m+1)-th sample of a run), so that the sums need no end of a run. */
static uint64_t run_next(fst_run *u, const fst_rec *rec, uint64_t space)
{
    unsigned len = rec->pswlen <= 16 ? rec->pswlen : 16;
    if (u->m && u->cpu == rec->cpu && u->space == space && u->pswlen == len && !memcmp(u->psw, rec->psw, len))
        return 2 * u->m++ + 1;
    *u = (fst_run){ 1, space, rec->cpu, (uint8_t)len, { 0 } };
    memcpy(u->psw, rec->psw, len);
    return 1;
}

int fst_sampled_repeats(uint64_t n, uint64_t sq, char *buf, size_t cap)
{
    uint64_t f = fst_sampled_deff(n, sq);
    if (f < FST_SAMPLED_REPEATS)
        return 0;
    snprintf(buf, cap, "its samples repeat the PSW before them in runs (design effect %llu.%02llu over %llu samples: "
             "a busy host that did not run Hercules' CPU between samples, or a loop of one or two instructions): "
             "its shares are as certain as %llu independent samples would make them",
             (unsigned long long)(f / 1000), (unsigned long long)(f % 1000 / 10), (unsigned long long)n,
             (unsigned long long)(n * 1000 / f));
    return 1;
}

/* Samples that repeat beyond chance: said, since the shares are then less certain than
** their count suggests. */
static void repeats_warn(const fst_profile *p, const fst_tr *tr, const fst_replay_opts *o)
{
    char what[300], msg[400];
    if (o->warn && fst_sampled_repeats(p->total_insns, p->sample_sq, what, sizeof what)) {
        snprintf(msg, sizeof msg, "%s: %s", fst_tr_path(tr), what);
        o->warn(msg);
    }
}

int fst_sampled_build(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *p, const fst_sink *sinks,
                      size_t nsinks, fst_err *err)
{
    memset(p, 0, sizeof *p);
    p->mainline = -1;
    p->supervisor = o->supervisor;
    p->sampled = 1;
    if (!fst_trace_sampled(tr))
        return fst_errf(err, "%s: not a sampled trace", fst_tr_path(tr));
    const char *hz = fst_tr_header(tr, FST_HK_SAMPLE_HZ);
    p->sample_hz = hz ? (unsigned)strtoul(hz, NULL, 10) : 0;
    if (fst_routines_build(p, tr, pm, o, err))
        return -1;
    p->op_insns = fst_xcalloc(fst_op_count(), sizeof *p->op_insns);
    byaddr *t = fst_xcalloc(p->nr + 1, sizeof *t);
    size_t n = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].entry || p->r[i].name[0] != '(') /* not a pseudo-routine such as (supervisor) */
            t[n++] = (byaddr){ p->r[i].entry, i };
    qsort(t, n, sizeof *t, cmp_entry);
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    fst_rec rec;
    int k;
    uint64_t last_ns = 0;
    size_t stack[1];
    uint64_t cr1[256]; /* per CPU (the sampler writes CR1 before a sample when it changed) */
    uint8_t cr1_known[256] = { 0 };
    int cr1_seen = 0;
    uint64_t dat_samples = 0;   /* samples of a program running with DAT on */
    fst_run run = { 0 };
    while ((k = fst_tr_next(tr, &rec, err)) > 0) {
        if (rec.kind == FST_REC_CR && rec.cls == 1) {
            cr1[rec.cpu & 255] = rec.value;
            cr1_known[rec.cpu & 255] = 1;
            cr1_seen = 1;
        }
        if (rec.kind != FST_REC_SAMPLE)
            continue;
        uint64_t dt = rec.value - last_ns;
        last_ns = rec.value;
        p->samples++;
        fst_event e = { 0 };
        e.cpu = rec.cpu;
        e.state = rec.state;
        e.profile = p;
        e.task = 0;
        if (rec.state & FST_ST_WAIT) {
            run.m = 0;
            p->wait_samples++;
            e.kind = FST_EV_WAIT;
            e.cls = (rec.state & (FST_ST_IOMASK | FST_ST_EXTMASK)) ? 0 : 1;
            p->waits++;
            for (size_t i = 0; i < nsinks; i++)
                sinks[i].event(sinks[i].ctx, &e);
            continue;
        }
        fst_fx cost = (fst_fx)dt * 512000u; /* ns to fx (1/512 ps) */
        uint8_t b[6] = { 0 };
        if (fst_image_read(seg, nseg, rec.addr, b, 2) == 0)
            fst_image_read(seg, nseg, rec.addr, b, (size_t)fst_insn_len(b[0]));
        fst_insn d;
        fst_decode(&d, b, rec.addr, rec.state);
        size_t r = routine_at(p, t, n, rec.addr);
        dat_samples += (rec.state & FST_ST_DAT) != 0;
        uint64_t space = !(rec.state & FST_ST_DAT) ? FST_SPACE_REAL
                         : cr1_known[rec.cpu & 255] ? cr1[rec.cpu & 255] : FST_SPACE_UNKNOWN;
        int excluded = (o->cpu_problem && !(rec.state & FST_ST_PROBLEM)) || (r != FST_NONE && p->r[r].excluded) ||
                       !fst_replay_keeps_space(o, space);
        if (r != FST_NONE && !p->r[r].timed)
            r = FST_NONE; /* not listed: its samples are outside, there is no caller to give them to */
        e.kind = FST_EV_EXEC;
        e.insn = &d;
        e.n = 1;
        e.cost = cost;
        e.routine = excluded ? FST_NONE : r;
        e.other_space = !fst_replay_keeps_space(o, space);
        e.charged = excluded ? FST_CHARGE_EXCLUDED : r == FST_NONE ? FST_CHARGE_OUTSIDE : FST_CHARGE_ROUTINE;
        stack[0] = r;
        e.stack = stack;
        e.depth = r == FST_NONE ? 0 : 1;
        uint64_t sq = run_next(&run, &rec, space);
        p->sample_sq += sq;
        p->total_insns++;
        p->total_cost += cost;
        if (e.charged == FST_CHARGE_EXCLUDED) {
            p->excluded_insns++;
            p->excluded_cost += cost;
        } else if (e.charged == FST_CHARGE_OUTSIDE) {
            p->outside_insns++;
            p->outside_cost += cost;
        } else {
            fst_routine *rt = &p->r[r];
            rt->self_insns++;
            rt->incl_insns++;
            rt->self_cost += cost;
            rt->incl_cost += cost;
            rt->sample_sq += sq;
            if (p->mainline < 0)
                p->mainline = (int)r;
        }
        e.tinsns = p->total_insns;
        e.tcost = p->total_cost;
        for (size_t i = 0; i < nsinks; i++)
            sinks[i].event(sinks[i].ctx, &e);
    }
    free(t);
    if (k < 0)
        return -1;
    if (!cr1_seen && dat_samples && o->warn) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: %llu samples ran with DAT on but carry no address space (no CR1: Hercules 3.13, "
                 "or SDL Hercules before 4.7): every address space's code at one virtual address counts as one "
                 "(the private areas of all jobs are mixed); sample with SDL Hercules 4.7+, or trace", fst_tr_path(tr),
                 (unsigned long long)dat_samples);
        o->warn(msg);
    }
    repeats_warn(p, tr, o);
    if (o->space_set && !cr1_seen)
        return fst_errf(err, "%s: --space: its samples carry no address space (no CR1: sampled from Hercules 3.13 or "
                             "an SDL Hercules before 4.7, which have no /api/v1/cpus)", fst_tr_path(tr));
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].mainline)
            p->mainline = (int)i;
    const char *why;
    p->complete = fst_tr_complete(tr, &why);
    if (!p->complete)
        snprintf(p->incomplete, sizeof p->incomplete, "%s", why);
    snprintf(p->clock, sizeof p->clock, "host time where Hercules ran (not modelled S/370 time), PSW sampled %u/s",
             p->sample_hz);
    return fst_profile_check(p, err);
}
