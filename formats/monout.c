/*
** formats/monout.c — the sampled pc histogram of formats/profout.h, and the System V
** mon.out file that prof(1) reads (notes/profformats.md §1.4; profil(2), seed 002).
**
** mon.out is the memory image monitor(3C) writes at exit, as an S/370 would hold it: all
** big-endian, 4-byte pointers and longs:
**     struct hdr { lpc, hpc, nfns }            12 bytes
**     nfns x struct cnt { fnpc, mcnt }         8 bytes each: one per timed routine, in
**                                              load order; fnpc = entry + 2 (prof matches
**                                              a counter to a symbol when sym < fnpc)
**     u16 histogram to the end of the file     the profil(2) buffer
** profil(2): the tick at pc increments cell ((pc - offset) / 2 * scale) >> 16, scale a
** 16-bit fraction (0x10000 = one cell per 2 bytes, 0x8000 per 4, 0x4000 per 8); a pc
** below offset or past the buffer (bufsiz bytes) is not counted. The scale is not stored:
** prof recomputes it from hpc - lpc and the number of cells, so hpc = lpc + 2 * cells *
** 0x10000 / scale. Defaults: offset = the lowest routine or sampled address, scale 1:1, a
** buffer just long enough, so that every tick is in the file; when addresses lie so far
** apart that this would take more than FST_PHIST_MAXBINS counters, the scale halves until
** it fits (and stderr says so), as profil(2) users chose a scale for a large program. A cell holds at most 65535
** ticks: more is an error (lower --hz), never a silent wrap.
*/
#include "common/opt.h"
#include "formats/profout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the histogram ---- */

struct fst_phist {
    uint64_t hz;
    fst_fx time;            /* routine time so far */
    uint64_t ticks;         /* floor(time * hz / 1 s) */
    uint32_t *keys;         /* addr + 1; 0 = empty slot */
    uint64_t *vals;
    size_t cap, n;
    size_t *byentry;        /* routine indices by entry, to find the routine holding a pc */
    size_t nr;
};

int fst_phist_hz(const fst_fctx *fc, uint64_t def, uint64_t *hz, fst_err *err)
{
    const char *s = fst_fopt(fc, "hz");
    *hz = def;
    if (!s)
        return 0;
    if (!strcmp(s, "insns")) {
        *hz = 0;
        return 0;
    }
    uint64_t v;
    if (fst_parse_u64(s, 10, &v) || v < 1 || v > 1000000000)
        return fst_errf(err, "--hz: '%s' is neither a sampling rate in ticks per second (1 to 1000000000) nor 'insns'",
                        s);
    *hz = v;
    return 0;
}

fst_phist *fst_phist_new(uint64_t hz)
{
    fst_phist *h = fst_xcalloc(1, sizeof *h);
    h->hz = hz;
    h->cap = 1024;
    h->keys = fst_xcalloc(h->cap, sizeof *h->keys);
    h->vals = fst_xcalloc(h->cap, sizeof *h->vals);
    return h;
}

void fst_phist_free(fst_phist *h)
{
    if (!h)
        return;
    free(h->keys);
    free(h->vals);
    free(h->byentry);
    free(h);
}

uint64_t fst_phist_hzof(const fst_phist *h) { return h->hz; }
uint64_t fst_phist_total(const fst_phist *h) { return h->ticks; }

static size_t slot(const uint32_t *keys, size_t cap, uint32_t addr)
{
    size_t i = (addr * UINT32_C(2654435761)) & (cap - 1);
    while (keys[i] && keys[i] != addr + 1)
        i = (i + 1) & (cap - 1);
    return i;
}

static void add(fst_phist *h, uint32_t addr, uint64_t n)
{
    if (2 * (h->n + 1) > h->cap) {
        size_t cap = h->cap * 2;
        uint32_t *k = fst_xcalloc(cap, sizeof *k);
        uint64_t *v = fst_xcalloc(cap, sizeof *v);
        for (size_t i = 0; i < h->cap; i++)
            if (h->keys[i]) {
                size_t j = slot(k, cap, h->keys[i] - 1);
                k[j] = h->keys[i];
                v[j] = h->vals[i];
            }
        free(h->keys);
        free(h->vals);
        h->keys = k, h->vals = v, h->cap = cap;
    }
    size_t i = slot(h->keys, h->cap, addr);
    if (!h->keys[i]) {
        h->keys[i] = addr + 1;
        h->n++;
    }
    h->vals[i] += n;
}

static const fst_profile *sort_prof; /* qsort has no context argument */
static int by_entry(const void *a, const void *b)
{
    uint64_t x = sort_prof->r[*(const size_t *)a].entry, y = sort_prof->r[*(const size_t *)b].entry;
    return x < y ? -1 : x > y;
}

/* The routine (timed or not) whose entry is the highest at or below addr, or FST_NONE. */
static size_t holder(fst_phist *h, const fst_profile *p, uint64_t addr)
{
    if (h->nr != p->nr) {
        free(h->byentry);
        h->nr = p->nr;
        h->byentry = fst_xmalloc((p->nr ? p->nr : 1) * sizeof *h->byentry);
        for (size_t i = 0; i < p->nr; i++)
            h->byentry[i] = i;
        sort_prof = p;
        qsort(h->byentry, p->nr, sizeof *h->byentry, by_entry);
    }
    size_t lo = 0, hi = h->nr; /* first with entry > addr */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->r[h->byentry[mid]].entry <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? h->byentry[lo - 1] : FST_NONE;
}

void fst_phist_event(void *ctx, const fst_event *e)
{
    fst_phist *h = ctx;
    if (e->kind != FST_EV_EXEC || e->charged != FST_CHARGE_ROUTINE || e->routine == FST_NONE)
        return;
    h->time += e->cost;
    uint64_t t = h->hz ? (uint64_t)((unsigned __int128)h->time * h->hz / FST_FX_PER_SEC) : h->ticks + 1;
    if (t == h->ticks)
        return;
    uint64_t addr = e->insn->addr & 0x7FFFFFFF;
    if (holder(h, e->profile, addr) != e->routine) /* an untimed routine's code */
        addr = e->profile->r[e->routine].entry & 0x7FFFFFFF;
    add(h, (uint32_t)(addr & ~UINT64_C(1)), t - h->ticks);
    h->ticks = t;
}

static int by_addr(const void *a, const void *b)
{
    uint32_t x = ((const fst_phist_cell *)a)->addr, y = ((const fst_phist_cell *)b)->addr;
    return x < y ? -1 : x > y;
}

fst_phist_cell *fst_phist_sorted(const fst_phist *h, size_t *n)
{
    *n = 0;
    if (!h->n)
        return NULL;
    fst_phist_cell *c = fst_xmalloc(h->n * sizeof *c);
    for (size_t i = 0; i < h->cap; i++)
        if (h->keys[i])
            c[(*n)++] = (fst_phist_cell){ h->keys[i] - 1, h->vals[i] };
    qsort(c, *n, sizeof *c, by_addr);
    return c;
}

/* ---- mon.out ---- */

typedef struct monout {
    fst_phist *h;
    int have_offset, have_bufsiz, have_scale;
    uint32_t offset, scale, bufsiz;
} monout;

static int hexopt(const fst_fctx *fc, const char *name, uint64_t min, uint64_t max, uint64_t *v, fst_err *err)
{
    const char *s = fst_fopt(fc, name);
    if (!s)
        return 0;
    uint64_t x;
    if (fst_parse_u64(s, 10, &x) || x < min || x > max)
        return fst_errf(err, "--%s: '%s' is not a number from %llu to %llu (0x for hex)", name, s,
                        (unsigned long long)min, (unsigned long long)max);
    *v = x;
    return 1;
}

static void *monout_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    uint64_t hz, off = 0, scale = 0x10000, buf = 0;
    int ho, hs, hb;
    if (fst_phist_hz(fc, 100, &hz, err) < 0 || (ho = hexopt(fc, "offset", 0, 0x7FFFFFFE, &off, err)) < 0 ||
        (hs = hexopt(fc, "scale", 2, 0x10000, &scale, err)) < 0 ||
        (hb = hexopt(fc, "bufsiz", 2, 0x7FFFFFFE, &buf, err)) < 0)
        return NULL;
    if (off & 1) {
        fst_errf(err, "--offset: 0x%llX is odd: instructions are at even addresses", (unsigned long long)off);
        return NULL;
    }
    if (buf & 1) {
        fst_errf(err, "--bufsiz: %llu is odd: the buffer holds 2-byte counters", (unsigned long long)buf);
        return NULL;
    }
    monout *m = fst_xcalloc(1, sizeof *m);
    *m = (monout){ fst_phist_new(hz), ho, hb, hs, (uint32_t)off, (uint32_t)scale, (uint32_t)buf };
    return m;
}

static void monout_event(void *ctx, const fst_event *e) { fst_phist_event(((monout *)ctx)->h, e); }

static void monout_done(void *ctx)
{
    monout *m = ctx;
    if (m)
        fst_phist_free(m->h);
    free(m);
}

void fst_phist_span(const fst_profile *p, const fst_phist_cell *c, size_t n, uint32_t *lo, uint32_t *hi)
{
    uint64_t l = UINT64_MAX, h = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed) {
            uint64_t a = p->r[i].entry & 0x7FFFFFFE;
            l = a < l ? a : l;
            h = a > h ? a : h;
        }
    if (n) {
        l = c[0].addr < l ? c[0].addr : l;
        h = c[n - 1].addr > h ? c[n - 1].addr : h;
    }
    *lo = l == UINT64_MAX ? 0 : (uint32_t)l;
    *hi = l == UINT64_MAX ? 2 : (uint32_t)h + 2;
}

static int put(FILE *out, const unsigned char *b, size_t n, const fst_fctx *fc, fst_err *err)
{
    if (fwrite(b, 1, n, out) != n)
        return fst_errno(err, "%s: cannot write", fc->out_path);
    return 0;
}

static int monout_counters(FILE *out, const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    for (size_t i = 0; i < p->nr; i++) {
        const fst_routine *r = &p->r[i];
        if (!r->timed)
            continue;
        if (r->calls > 0x7FFFFFFF)
            return fst_errf(err, "%s: %s has %llu calls, more than a 32-bit mcnt holds", fc->out_path, r->name,
                            (unsigned long long)r->calls);
        unsigned char b[8];
        fst_be32(b, (uint32_t)((r->entry + 2) & 0x7FFFFFFF));
        fst_be32(b + 4, (uint32_t)r->calls);
        if (put(out, b, 8, fc, err))
            return -1;
    }
    return 0;
}

static int monout_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    monout *m = ctx;
    size_t n, nfns = 0;
    fst_phist_cell *c = fst_phist_sorted(m->h, &n);
    uint32_t lo, hi;
    fst_phist_span(p, c, n, &lo, &hi);
    uint32_t off = m->have_offset ? m->offset : lo, scale = m->scale;
    uint64_t ncell = m->have_bufsiz ? m->bufsiz / 2 : (((uint64_t)(hi > off ? hi - off : 0) / 2 * scale) >> 16) + 1;
    if (!m->have_bufsiz && ncell > FST_PHIST_MAXBINS) {
        /* a span too large for one counter per 2 bytes (addresses far apart): as profil(2)
        ** users did, a smaller scale, so that the file stays small and keeps every tick */
        if (m->have_scale) {
            free(c);
            return fst_errf(err, "--scale=0x%X: the profiled addresses %X-%X need %llu counters, more than %u: give a "
                            "smaller --scale, or --offset and --bufsiz", scale, off, hi, (unsigned long long)ncell,
                            FST_PHIST_MAXBINS);
        }
        while (ncell > FST_PHIST_MAXBINS) {
            scale /= 2;
            ncell = (((uint64_t)(hi - off) / 2 * scale) >> 16) + 1;
        }
        if (fc->ro && fc->ro->warn) {
            char msg[240];
            snprintf(msg, sizeof msg, "monout: the profiled addresses %X-%X are too far apart for one counter per 2 "
                     "bytes: --scale=0x%X (one per %u bytes)", off, hi, scale, 0x20000u / scale);
            fc->ro->warn(msg);
        }
    }
    uint16_t *cell = fst_xcalloc(ncell, sizeof *cell);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (c[i].addr < off)
            continue; /* below the profiled region: profil does not count it */
        uint64_t k = ((uint64_t)(c[i].addr - off) / 2 * scale) >> 16;
        if (k >= ncell)
            continue; /* past the buffer */
        if (cell[k] + c[i].count > 65535)
            rc = fst_errf(err, "%s: the histogram cell of 0x%X holds more than 65535 ticks: lower --hz", fc->out_path,
                          c[i].addr);
        else
            cell[k] = (uint16_t)(cell[k] + c[i].count);
    }
    for (size_t i = 0; i < p->nr; i++)
        nfns += p->r[i].timed;
    unsigned char hdr[12];
    fst_be32(hdr, off);
    fst_be32(hdr + 4, (uint32_t)(off + (2 * ncell * 0x10000 + scale - 1) / scale));
    fst_be32(hdr + 8, (uint32_t)nfns);
    if (!rc)
        rc = put(out, hdr, sizeof hdr, fc, err);
    if (!rc)
        rc = monout_counters(out, fc, p, err);
    for (uint64_t i = 0; i < ncell && !rc; i++) {
        unsigned char b[2];
        fst_be16(b, cell[i]);
        rc = put(out, b, 2, fc, err);
    }
    free(cell);
    free(c);
    return rc;
}

static const fst_option monout_options[] = {
    { 0, "hz", "N", "(and gmon) histogram ticks per second of CPU time (default 100), or insns: one per instruction",
      0 },
    { 0, "offset", "ADDR", "profil(2) offset: the start of the profiled region (default: the lowest routine)", 0 },
    { 0, "scale", "S", "profil(2) scale, 2..0x10000 (default 0x10000: one counter per 2 bytes)", 0 },
    { 0, "bufsiz", "BYTES", "profil(2) bufsiz: histogram bytes (default: enough for every tick)", 0 },
    { 0 }
};

const fst_format fst_format_monout = {
    "monout", "System V mon.out for prof(1): header, call counters, profil(2) histogram (big-endian)", 1,
    monout_options, monout_init, monout_event, monout_write, monout_done, 0,
    1,  /* flat: its own aggregate, and calls */
};
