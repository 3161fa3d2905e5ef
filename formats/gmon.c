/*
** formats/gmon.c — a GNU gmon.out that s390x-linux-gnu-gprof reads (notes/profformats.md
** §2), and with --elf=FILE a stub ELF naming the routines (formats/elf.c), so that gprof
** works for any program fst has a map of:
**     s390x-linux-gnu-gprof -b STUB.elf gmon.out
**
** Layout, all big-endian with 4-byte addresses (gprof takes both from the ELF: elf32-s390):
**     "gmon", version 1 (u32), 12 spare bytes
**     tag 0, histogram: low_pc, high_pc, number of BINS (u32; gprof's "hist_size" is a bin
**         count, whatever its manual says), prof_rate = --hz, "seconds" (15 bytes), 's';
**         with --hz=insns: prof_rate 1, "instructions", 'i' (gprof then prints instruction
**         counts where it prints seconds: "Each sample counts as 1 instructions"),
**         then the u16 bins, one per 2 bytes of [low_pc, high_pc): exact pc resolution.
**         Addresses far apart get a record each, and a huge span larger bins (see
**         regions() below): the file stays small whatever addresses a trace holds.
**         A bin holds at most 65535: larger counts are written as several records of the
**         same range, which gprof adds up, so no tick is lost.
**     tag 1, one per arc of the call graph: from_pc = the caller's entry, self_pc = the
**         callee's entry (gprof needs only addresses inside each function), count (u32;
**         larger counts are split over several records, which gprof adds up).
** Counts are exact: the arcs are fst's call graph (analyze/profile/callgraph.c), the bins the ticks
** of formats/profout.h, one tick = 1/hz s of CPU time. Arcs from outside the program (no
** caller) are not written: gprof has no symbol for them. gprof splits a callee's time
** among its callers by call counts (its documented assumption); fst's exact arc times are
** in the csv/json reports.
*/
#include "formats/profout.h"
#include "common/outfile.h"

#include <stdlib.h>
#include <string.h>

typedef struct gmon {
    fst_phist *h;
    const char *elf;
} gmon;

static void *gmon_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    uint64_t hz;
    if (fst_phist_hz(fc, 100, &hz, err) < 0)
        return NULL;
    const char *elf = fst_fopt(fc, "elf");
    if (elf && !*elf) {
        fst_errf(err, "--elf: which file?");
        return NULL;
    }
    const char *ins[] = { fc->trace_path, fc->out_path };
    if (elf && fc->out_path && !strcmp(elf, fc->out_path)) {
        fst_errf(err, "--elf=%s: the same file as -o: give the ELF a name of its own", elf);
        return NULL;
    }
    if (elf && (fst_out_check("--elf", elf, ins, 2, err) < 0 || fst_stub_elf_ours(elf, err) < 0))
        return NULL;
    gmon *g = fst_xcalloc(1, sizeof *g);
    *g = (gmon){ fst_phist_new(hz), elf };
    return g;
}

static void gmon_event(void *ctx, const fst_event *e) { fst_phist_event(((gmon *)ctx)->h, e); }

static void gmon_done(void *ctx)
{
    gmon *g = ctx;
    if (g)
        fst_phist_free(g->h);
    free(g);
}

typedef struct wr {
    FILE *out;
    int bad;
} wr;

static void put(wr *w, const void *b, size_t n)
{
    if (fwrite(b, 1, n, w->out) != n)
        w->bad = 1;
}

static void put32(wr *w, uint32_t v)
{
    unsigned char b[4];
    fst_be32(b, v);
    put(w, b, 4);
}

/* Where the histogram goes. One record spanning the lowest to the highest address is
** exact and what gprof expects, but its size is the span's: two instructions 2 GiB apart
** would make a 2 GiB file. So the addresses that matter (the timed routines' entries and
** every tick) are cut into regions wherever more than GAP bytes hold none of them, one
** record each (gprof reads several records of different ranges, as long as they do not
** overlap), and when the regions together still need more than FST_PHIST_MAXBINS bins,
** the bins grow from 2 bytes to the smallest power of two that fits (gprof then shares a
** bin's ticks among the routines it overlaps). Either is said on stderr. */
#define GAP (1u << 20)

typedef struct region {
    uint32_t lo, hi;
} region;

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static size_t regions(const fst_profile *p, const fst_phist_cell *c, size_t n, region **out, uint32_t *binsize)
{
    uint32_t *pt = fst_xmalloc((n + p->nr + 1) * sizeof *pt);
    size_t np = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed && p->r[i].entry != UINT64_MAX)
            pt[np++] = (uint32_t)(p->r[i].entry & 0x7FFFFFFE);
    for (size_t i = 0; i < n; i++)
        pt[np++] = c[i].addr;
    if (!np)
        pt[np++] = 0; /* nothing at all: one empty bin, as gprof wants a histogram */
    qsort(pt, np, sizeof *pt, by_u32);
    region *r = fst_xmalloc(np * sizeof *r);
    size_t nr = 0;
    for (size_t i = 0; i < np; i++) {
        if (nr && pt[i] - (r[nr - 1].hi - 2) <= GAP)
            r[nr - 1].hi = pt[i] + 2;
        else
            r[nr++] = (region){ pt[i], pt[i] + 2 };
    }
    free(pt);
    uint32_t b = 2;
    for (;;) {
        uint64_t bins = 0;
        for (size_t i = 0; i < nr; i++)
            bins += ((uint64_t)r[i].hi - (r[i].lo & ~(b - 1)) + b - 1) / b;
        if (bins <= FST_PHIST_MAXBINS)
            break;
        b *= 2;
    }
    for (size_t i = 0; b > 2 && i < nr; i++) {
        r[i].lo &= ~(b - 1);
        r[i].hi = (uint32_t)(((uint64_t)r[i].hi + b - 1) & ~(uint64_t)(b - 1));
    }
    *out = r;
    *binsize = b;
    return nr;
}

static void say_regions(const fst_fctx *fc, const region *r, size_t nr, uint32_t b)
{
    if (!fc->ro || !fc->ro->warn || (nr == 1 && b == 2))
        return;
    char msg[400];
    size_t k = 0;
    uint64_t span = (uint64_t)r[nr - 1].hi - r[0].lo;
    if (nr > 1) {
        k += (size_t)snprintf(msg, sizeof msg, "gmon: the executed routines lie in %zu regions more than 1 MiB apart (",
                              nr);
        for (size_t i = 0; i < nr && k < sizeof msg - 80; i++)
            k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%X-%X", i ? ", " : "", r[i].lo, r[i].hi);
        k += (size_t)snprintf(msg + k, sizeof msg - k, "%s): a histogram record each, not one of %llu MiB",
                              k >= sizeof msg - 80 ? ", ..." : "", (unsigned long long)(span >> 20));
    }
    if (b > 2 && k < sizeof msg)
        snprintf(msg + k, sizeof msg - k, "%sgmon: %u-byte histogram bins, not 2: more than %u bins would be needed",
                 k ? "; " : "", b, FST_PHIST_MAXBINS);
    fc->ro->warn(msg);
}

/* Histogram records: per region, as many as its fullest bin needs (65535 ticks each). */
static void histogram(wr *w, uint32_t lo, uint32_t hi, uint32_t bs, uint64_t hz, const fst_phist_cell *c, size_t n)
{
    size_t nb = (hi - lo) / bs;
    uint64_t *bin = fst_xcalloc(nb ? nb : 1, sizeof *bin), max = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].addr < lo || c[i].addr >= hi)
            continue; /* another region's */
        uint64_t *b = &bin[(c[i].addr - lo) / bs];
        *b += c[i].count;
        max = *b > max ? *b : max;
    }
    unsigned char *rec = fst_xmalloc(2 * (nb ? nb : 1));
    for (uint64_t done = 0, k = 0; k == 0 || done < max; k++, done += 65535) {
        char dimen[16] = { 0 }; /* dimen[15], dimen_abbrev */
        memcpy(dimen, hz ? "seconds" : "instructions", hz ? 7 : 12);
        dimen[15] = hz ? 's' : 'i';
        put(w, "", 1); /* tag 0 */
        put32(w, lo), put32(w, hi), put32(w, (uint32_t)nb), put32(w, hz ? (uint32_t)hz : 1);
        put(w, dimen, 16);
        for (size_t i = 0; i < nb; i++) {
            uint64_t left = bin[i] > done ? bin[i] - done : 0;
            fst_be16(rec + 2 * i, (uint32_t)(left > 65535 ? 65535 : left));
        }
        put(w, rec, 2 * nb);
    }
    free(rec);
    free(bin);
}

static void arcs(wr *w, const fst_profile *p)
{
    for (size_t i = 0; i < p->narcs; i++) {
        const fst_arc *a = &p->arcs[i];
        if (a->caller == FST_NONE)
            continue;
        for (uint64_t left = a->count; left;) {
            uint32_t k = left > 0xFFFFFFFF ? 0xFFFFFFFF : (uint32_t)left;
            put(w, "\x01", 1);
            put32(w, (uint32_t)(p->r[a->caller].entry & 0x7FFFFFFF));
            put32(w, (uint32_t)(p->r[a->callee].entry & 0x7FFFFFFF));
            put32(w, k);
            left -= k;
        }
    }
}

/* What gprof will do with this file that a user would not guess (issue 16 item 3). */
static void say_hints(const fst_fctx *fc, const gmon *g, const fst_profile *p)
{
    if (!fc->ro || !fc->ro->warn)
        return;
    char msg[400];
    uint64_t hz = fst_phist_hzof(g->h);
    if (hz && !fst_phist_total(g->h) && p->total_insns) {
        snprintf(msg, sizeof msg, "gmon: the whole run is shorter than one tick (1/%llu s): gprof will say \"no time "
                 "accumulated\"; --hz=insns counts instructions instead (or give a larger --hz)", (unsigned long long)hz);
        fc->ro->warn(msg);
    }
    if (!g->elf)
        fc->ro->warn("gmon: read it with the ELF that --elf=FILE writes (s390x-linux-gnu-gprof -b FILE gmon.out): "
                     "gprof given a program's own ELF, whose routines are labels without a size or an end "
                     "marker, drops the last routine and every call count");
}

static int gmon_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    gmon *g = ctx;
    size_t n;
    fst_phist_cell *c = fst_phist_sorted(g->h, &n);
    uint32_t lo, hi;
    fst_phist_span(p, c, n, &lo, &hi);
    wr w = { out, 0 };
    put(&w, "gmon\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0", 20);
    region *rg;
    uint32_t bs;
    size_t nrg = regions(p, c, n, &rg, &bs);
    say_regions(fc, rg, nrg, bs);
    for (size_t i = 0; i < nrg; i++)
        histogram(&w, rg[i].lo, rg[i].hi, bs, fst_phist_hzof(g->h), c, n);
    free(rg);
    arcs(&w, p);
    free(c);
    if (w.bad)
        return fst_errno(err, "%s: cannot write", fc->out_path);
    if (g->elf && fst_write_stub_elf(g->elf, p, lo, hi, err) < 0)
        return -1;
    say_hints(fc, g, p);
    return 0;
}

static const fst_option gmon_options[] = {
    { 0, "hz", "N", "ticks per second of CPU time (default 100), or insns: one count per instruction", 0 },
    { 0, "elf", "FILE", "also write an ELF with the routines as function symbols, for gprof", 0 },
    { 0 }
};

const fst_format fst_format_gmon = {
    "gmon", "GNU gmon.out for s390x-linux-gnu-gprof: pc histogram and exact call arcs (--elf: symbols)", 1,
    gmon_options, gmon_init, gmon_event, gmon_write, gmon_done,
};
