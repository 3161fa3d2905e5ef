/*
** formats/maptime_list.c — MAPTIME's listing (seed 003), per LOGDATA image and request:
**
**   LOGTIME IMAGE 1 OF 1  RANGE 020020-0201A7  SPAN 2  TIMEUNIT 0100  CLOCK mips:0.001
**
**   INTERRUPTS IN MACHINE RANGE        60001     (with --exact: SECONDS IN ...)
**   INTERRUPTS IN LOGTIME RANGE        60000
**   INTERRUPTS IN MAPTIME RANGE        60000
**
**   HISTOGRAM (MAPTIME SPAN 0 0 0 0.0)
**
**   MAIN     020020  25.00 |*************
**
** For a span histogram each section's line (name and address) is followed by its spans,
** "000138-00013F  1.23 |*", offsets inside the section. Decisions (the seed's samples
** show them or leave them open):
**   - every section of the request's range gets its line, whatever the threshold (the
**     sample lists sections at 0.0 under a 1.0 threshold); the threshold applies to span
**     lines, and only spans with something recorded are listed;
**   - percent of the MAPTIME range's total, rounded to hundredths (half up); the bar is
**     one '*' per 2 percent, rounded up, so a 121-column line holds 100 percent;
**   - MAPTIME's spansize is rounded up to a multiple of LOGTIME's; spans are counted from
**     address0 of LOGTIME's range; a span (and a LOGDATA entry) belongs to the section
**     holding its last byte (clipped to the range), and so does everything recorded in
**     it, as seed 003 says; the MAPTIME range count is the sum over the spans whose
**     section lies in the request's range;
**   - addresses below the first routine inside the range form a section "(NONE)".
** See maptime.h.
*/
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/maptime.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct mt_sects {
    mt_sect *s;
    size_t n;
} mt_sects;

__extension__ typedef unsigned __int128 mt_u128;

static uint32_t hundredths(uint64_t v, uint64_t total)
{
    if (!total)
        return 0;
    return (uint32_t)(((mt_u128)v * 10000 + total / 2) / total);
}

static int cmp_entry(const void *a, const void *b)
{
    const mt_sect *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The sections inside [a0, a1], each up to the next: the control sections of the map
** when there is one (MAPTIME read the load map: entry labels are not sections), else the
** routines by entry address. */
static void sections(const fst_profile *p, const fst_pm *pm, uint64_t a0, uint64_t a1, mt_sects *out)
{
    size_t cap = (pm ? fst_pm_nsyms(pm) : p->nr) + 2, n = 0;
    mt_sect *all = fst_xcalloc(cap, sizeof *all);
    for (size_t i = 0; pm && i < fst_pm_nsyms(pm); i++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, i);
        if ((s->type == FST_PM_SD || s->type == FST_PM_PC || s->type == FST_PM_CM) &&
            fst_pm_module_at(pm, (size_t)s->module)->has_load_point) {
            snprintf(all[n].name, sizeof all[n].name, "%s", s->name);
            all[n++].start = s->addr;
        }
    }
    for (size_t i = 0; !pm && i < p->nr; i++) {
        snprintf(all[n].name, sizeof all[n].name, "%s", p->r[i].name);
        all[n++].start = p->r[i].entry;
    }
    qsort(all, n, sizeof *all, cmp_entry); /* stable enough: equal entries keep one */
    out->s = fst_xcalloc(n + 2, sizeof *out->s);
    out->n = 0;
    size_t i = 0;
    while (i < n && all[i].start <= a0)
        i++;
    mt_sect lead = { "(NONE)", a0, 0 };
    if (i > 0)
        snprintf(lead.name, sizeof lead.name, "%s", all[i - 1].name);
    if (i == n || all[i].start > a0)
        out->s[out->n++] = lead;
    for (; i < n && all[i].start <= a1; i++)
        if (!out->n || all[i].start != out->s[out->n - 1].start)
            out->s[out->n++] = all[i];
    for (size_t k = 0; k < out->n; k++)
        out->s[k].end = k + 1 < out->n ? out->s[k + 1].start - 1 : a1;
    free(all);
}

static size_t sect_of(const mt_sects *ss, uint64_t a)
{
    size_t lo = 0, hi = ss->n; /* the last section starting at or below a */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ss->s[mid].start <= a)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int find_name(const mt_sects *ss, const char *name, size_t *k)
{
    for (*k = 0; *k < ss->n; (*k)++)
        if (!strcasecmp(ss->s[*k].name, name))
            return 0;
    return -1;
}

/* The request's sections lo..hi. */
static int req_range(const mt_req *r, const mt_listing *l, const mt_sects *ss, size_t *lo, size_t *hi, fst_err *err)
{
    if (r->kind == MT_NAME) {
        if (find_name(ss, r->n0, lo))
            return fst_errf(err, "%s: '%s': no control section %s in LOGTIME's range", r->where, r->text, r->n0);
        if (find_name(ss, r->n1, hi))
            return fst_errf(err, "%s: '%s': no control section %s in LOGTIME's range", r->where, r->text, r->n1);
    } else if (r->a0 == 0 && r->a1 == 0) {
        *lo = 0;
        *hi = ss->n - 1;
        return 0;
    } else {
        if (r->a0 < l->a0 || r->a1 > l->a1)
            return fst_errf(err, "%s: '%s': outside LOGTIME's range %06llX-%06llX", r->where, r->text,
                            (unsigned long long)l->a0, (unsigned long long)l->a1);
        *lo = sect_of(ss, r->a0);
        *hi = sect_of(ss, r->a1);
    }
    if (*hi < *lo)
        return fst_errf(err, "%s: '%s': routine1 lies below routine0", r->where, r->text);
    return 0;
}

typedef struct mt_unit {
    uint64_t start, end;    /* inclusive, clipped to the range */
    size_t sect;
    uint64_t v;
} mt_unit;

/* The image's values grouped into units of `size` bytes counted from a0 (only units with
** something recorded), each with its section. Returns their number; *u malloc'd. */
static size_t units(const uint64_t *addr, const uint64_t *val, size_t n, const mt_listing *l, uint64_t size,
                    const mt_sects *ss, mt_unit **u)
{
    size_t k = 0;
    *u = fst_xcalloc(n + 1, sizeof **u);
    for (size_t i = 0; i < n; i++) {
        if (addr[i] < l->a0 || addr[i] > l->a1)
            continue;
        uint64_t start = l->a0 + (addr[i] - l->a0) / size * size;
        if (!k || (*u)[k - 1].start != start) {
            uint64_t end = l->a1 - start < size - 1 ? l->a1 : start + size - 1;
            (*u)[k++] = (mt_unit){ start, end, sect_of(ss, end), 0 };
        }
        (*u)[k - 1].v += val[i];
    }
    return k;
}

static void count_line(FILE *out, int exact, const char *range, uint64_t v)
{
    char s[32];
    if (exact) {
        fst_fmt_sec9(v, s);
        fprintf(out, "SECONDS IN %-16s %16s\n", range, s);
    } else
        fprintf(out, "INTERRUPTS IN %-13s %16llu\n", range, (unsigned long long)v);
}

static void pct_bar(FILE *out, uint32_t h)
{
    char bar[64];
    size_t nb = (h + 199) / 200;
    memset(bar, '*', nb);
    bar[nb] = 0;
    fprintf(out, " %3u.%02u |%s\n", h / 100, h % 100, bar);
}

/* The request's lines: every section lo..hi; for a span request, after each section its
** spans with something recorded and at least the threshold. Returns their number. */
static size_t rows_of(const mt_req *r, const mt_sects *ss, size_t lo, size_t hi, const mt_unit *u, size_t nu,
                      uint64_t total, mt_row **out)
{
    mt_row *w = fst_xcalloc(hi - lo + 1 + nu, sizeof *w);
    size_t n = 0, j = 0;
    for (size_t s = lo; s <= hi; s++) {
        const mt_sect *sc = &ss->s[s];
        uint64_t sum = 0;
        while (j < nu && u[j].sect < s)
            j++;
        size_t first = j;
        for (; j < nu && u[j].sect == s; j++)
            sum += u[j].v;
        w[n++] = (mt_row){ 0, sc->name, sc->start, 0, 0, sum, hundredths(sum, total), !r->span };
        for (size_t k = first; r->span && k < j; k++) {
            if (hundredths(u[k].v, total) < r->pct || !u[k].v)
                continue;
            uint64_t a = u[k].start > sc->start ? u[k].start - sc->start : 0;
            w[n++] = (mt_row){ 1, sc->name, sc->start, a, u[k].end - sc->start, u[k].v, hundredths(u[k].v, total), 1 };
        }
    }
    *out = w;
    return n;
}

static void histogram(FILE *out, const mt_hist *h)
{
    for (size_t i = 0; i < h->nrows; i++) {
        const mt_row *w = &h->rows[i];
        char nm[64];
        if (w->span)
            fprintf(out, "         %06llX-%06llX", (unsigned long long)w->a, (unsigned long long)w->b);
        else
            fprintf(out, "%-8s %06llX", fst_printable(w->name, nm, sizeof nm), (unsigned long long)w->start);
        if (w->bar)
            pct_bar(out, w->h);
        else
            fputc('\n', out);
    }
}

/* Request r over image i: its histogram in *h (rows malloc'd). */
static int one(const mt_listing *l, const fst_profile *p, const mt_req *r, const mt_sects *ss, const mt_image *im,
               size_t i, size_t nim, mt_hist *h, fst_err *err)
{
    size_t lo = 0, hi = 0;
    if (req_range(r, l, ss, &lo, &hi, err))
        return -1;
    uint64_t *addr, *val, machine = 0, logtime = 0, maptime = 0;
    mt_image_sorted(im, &addr, &val);
    for (size_t k = 0; k < im->n; k++) {
        machine += val[k];
        if (addr[k] >= l->a0 && addr[k] <= l->a1)
            logtime += val[k];
    }
    uint64_t size = r->span ? (r->span + l->lspan - 1) / l->lspan * l->lspan : l->lspan;
    mt_unit *u;
    size_t nu = units(addr, val, im->n, l, size, ss, &u);
    for (size_t k = 0; k < nu; k++)
        if (u[k].sect >= lo && u[k].sect <= hi)
            maptime += u[k].v;
    *h = (mt_hist){ i, nim, l->a0, l->a1, l->lspan, "", p->clock, r->text, l->exact, machine, logtime, maptime, NULL, 0 };
    snprintf(h->timeunit, sizeof h->timeunit, l->exact ? "EXACT" : "%04llX", (unsigned long long)l->timeunit);
    h->nrows = rows_of(r, ss, lo, hi, u, nu, maptime, &h->rows);
    free(u);
    free(addr);
    free(val);
    return 0;
}

static void print_one(FILE *out, const mt_hist *h)
{
    fprintf(out, "LOGTIME IMAGE %zu OF %zu  RANGE %06llX-%06llX  SPAN %llX  TIMEUNIT %s  CLOCK %s\n\n", h->image + 1,
            h->nimages, (unsigned long long)h->a0, (unsigned long long)h->a1, (unsigned long long)h->lspan,
            h->timeunit, h->clock);
    count_line(out, h->exact, "MACHINE RANGE", h->machine);
    count_line(out, h->exact, "LOGTIME RANGE", h->logtime);
    count_line(out, h->exact, "MAPTIME RANGE", h->maptime);
    fprintf(out, "\nHISTOGRAM (MAPTIME %s)\n\n", h->request);
    histogram(out, h);
    fputc('\n', out);
}

int mt_write(FILE *out, const mt_listing *l0, const fst_profile *p, const char *program, const mt_req *rs, size_t nr,
             const mt_image *im, size_t nim, fst_err *err)
{
    mt_listing l = *l0;
    if (!l.have_range) { /* the lowest routine up to the top of 31-bit storage */
        l.a0 = p->nr ? UINT64_MAX : 0;
        for (size_t i = 0; i < p->nr; i++)
            if (p->r[i].entry < l.a0)
                l.a0 = p->r[i].entry;
        l.a1 = l.a0 > 0x7FFFFFFF ? l.a0 : 0x7FFFFFFF;
    }
    mt_sects ss;
    sections(p, l.pm, l.a0, l.a1, &ss);
    int rc = 0;
    mt_hist *h = fst_xcalloc(nim * nr + 1, sizeof *h);
    size_t nh = 0;
    for (size_t i = 0; i < nim && !rc; i++)
        for (size_t k = 0; k < nr && !rc; k++)
            if (!(rc = one(&l, p, &rs[k], &ss, &im[i], i, nim, &h[nh], err)))
                nh++;
    if (!rc && l.svg) {
        if (mt_svg_write(out, program, h, nh, p->complete ? NULL : p->incomplete))
            rc = fst_errno(err, "cannot write the SVG");
    } else if (!rc) {
        char win[320];
        if (fst_fmt_window(p, win, sizeof win)) /* a part of the run (--window) */
            fprintf(out, "%s\n\n", win);
        for (size_t i = 0; i < nh; i++)
            print_one(out, &h[i]);
        if (!p->complete)
            fprintf(out, "INCOMPLETE TRACE: %.120s\n", p->incomplete);
    }
    for (size_t i = 0; i < nh; i++)
        free(h[i].rows);
    free(h);
    free(ss.s);
    return rc;
}
