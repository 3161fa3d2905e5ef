/*
** formats/maptime_svg.c — MAPTIME's histograms drawn (--format=maptime --svg): one
** self-contained SVG (no script, nothing fetched), one panel per request and image, top
** to bottom, each with the listing's heading and counts and one bar per line of the
** listing (maptime_list.c builds the lines; see maptime.h).
**
** A bar's width is its value (samples, or fx with --exact) against the largest bar of its
** panel, so the hottest section or span spans the bar area and the others are to scale
** with it; the percentage of the MAPTIME range is written after the bar, as the listing
** prints it, and the tooltip (<title>) gives the value itself. Section lines of a span
** request carry no bar (as in the listing): their spans follow, indented.
** Errors: writing only (returns 1).
*/
#include "formats/formats.h"
#include "formats/maptime.h"

#include <string.h>

enum { WIDTH = 1000, MARGIN = 10, ROW = 16, BAR = 12, TOP = 40, LABEL = 200, PCTW = 70 };
#define BAR_AREA (WIDTH - 2 * MARGIN - LABEL - PCTW)
#define SECT_FILL "#4E79A7"
#define SPAN_FILL "#A0CBE8"

static size_t panel_height(const mt_hist *h) { return (size_t)(3 * ROW + 8) + h->nrows * ROW + ROW; }

/* "92000 interrupts" or "0.092000000 s" */
static void value_text(const mt_hist *h, uint64_t v, char *buf, size_t cap)
{
    if (h->exact) {
        char s[32];
        fst_fmt_sec9(v, s);
        snprintf(buf, cap, "%s s", s);
    } else
        snprintf(buf, cap, "%llu interrupts", (unsigned long long)v);
}

static int row(FILE *out, const mt_hist *h, const mt_row *w, size_t y, uint64_t max)
{
    char label[64], val[48];
    if (w->span)
        snprintf(label, sizeof label, "  +%06llX-%06llX", (unsigned long long)w->a, (unsigned long long)w->b);
    else
        snprintf(label, sizeof label, "%-8.8s %06llX", w->name, (unsigned long long)w->start);
    value_text(h, w->v, val, sizeof val);
    int rc = fputs("<g><title>", out) < 0 || fst_put_xml(out, w->name, 64);
    rc |= fprintf(out, " %s: %u.%02u%% of the MAPTIME range, %s</title>", label + (w->span ? 2 : 9), w->h / 100,
                  w->h % 100, val) < 0;
    rc |= fprintf(out, "<text x=\"%d\" y=\"%zu\" xml:space=\"preserve\">", MARGIN, y + BAR - 2) < 0;
    rc |= fst_put_xml(out, label, sizeof label);
    rc |= fputs("</text>", out) < 0;
    if (w->bar) {
        long double bw = max ? (long double)BAR_AREA * (long double)w->v / (long double)max : 0;
        rc |= fprintf(out, "<rect x=\"%d\" y=\"%zu\" width=\"%.3Lf\" height=\"%d\" fill=\"%s\"/>", MARGIN + LABEL, y, bw,
                      BAR, w->span ? SPAN_FILL : SECT_FILL) < 0;
        rc |= fprintf(out, "<text x=\"%.3Lf\" y=\"%zu\">%u.%02u%%</text>", MARGIN + LABEL + bw + 4, y + BAR - 2,
                      w->h / 100, w->h % 100) < 0;
    }
    return rc | (fputs("</g>\n", out) < 0);
}

static int panel(FILE *out, const mt_hist *h, size_t y)
{
    char m[48], l[48], p[48];
    value_text(h, h->machine, m, sizeof m);
    value_text(h, h->logtime, l, sizeof l);
    value_text(h, h->maptime, p, sizeof p);
    int rc = fprintf(out, "<text x=\"%d\" y=\"%zu\" xml:space=\"preserve\">LOGTIME IMAGE %zu OF %zu  RANGE %06llX-%06llX  SPAN %llX  TIMEUNIT %s  "
                          "CLOCK ", MARGIN, y + 12, h->image + 1, h->nimages, (unsigned long long)h->a0,
                     (unsigned long long)h->a1, (unsigned long long)h->lspan, h->timeunit) < 0;
    rc |= fst_put_xml(out, h->clock, 80);
    rc |= fprintf(out, "</text>\n<text x=\"%d\" y=\"%zu\">machine range %s, LOGTIME range %s, MAPTIME range %s</text>\n",
                  MARGIN, y + ROW + 12, m, l, p) < 0;
    rc |= fprintf(out, "<text x=\"%d\" y=\"%zu\" font-weight=\"bold\">HISTOGRAM (MAPTIME ", MARGIN, y + 2 * ROW + 12) < 0;
    rc |= fst_put_xml(out, h->request, 96);
    rc |= fputs(")</text>\n", out) < 0;
    uint64_t max = 0;
    for (size_t i = 0; i < h->nrows; i++)
        if (h->rows[i].bar && h->rows[i].v > max)
            max = h->rows[i].v;
    y += 3 * ROW + 8;
    for (size_t i = 0; i < h->nrows && !rc; i++, y += ROW)
        rc |= row(out, h, &h->rows[i], y, max);
    return rc;
}

int mt_svg_write(FILE *out, const char *program, const mt_hist *h, size_t n, const char *incomplete)
{
    size_t top = TOP + (incomplete ? ROW : 0), height = top + MARGIN;
    for (size_t i = 0; i < n; i++)
        height += panel_height(&h[i]);
    int rc = fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%zu\" "
                          "viewBox=\"0 0 %d %zu\" font-family=\"monospace\" font-size=\"12\">\n"
                          "<rect width=\"100%%\" height=\"100%%\" fill=\"#FFFFFF\"/>\n"
                          "<text x=\"%d\" y=\"24\" font-size=\"16\">MAPTIME histogram: ",
                     WIDTH, height, WIDTH, height, MARGIN) < 0;
    rc |= fst_put_xml(out, program, 80);
    rc |= fputs("</text>\n", out) < 0;
    if (incomplete) {
        rc |= fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#C00000\">INCOMPLETE TRACE: ", MARGIN, TOP + 8) < 0;
        rc |= fst_put_xml(out, incomplete, 120);
        rc |= fputs("</text>\n", out) < 0;
    }
    size_t y = top;
    for (size_t i = 0; i < n && !rc; i++) {
        rc |= panel(out, &h[i], y);
        y += panel_height(&h[i]);
    }
    rc |= fputs("</svg>\n", out) < 0;
    return rc;
}
