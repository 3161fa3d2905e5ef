/*
** formats/maptime.h — LOGTIME and MAPTIME (seed 003) inside fst-report; private to
** formats/maptime*.c.
**
**   maptime.c       the format: its options, the LOGTIME sink (a simulated interval timer
**                   over the replay, the X'5C' flag, --window, one image per run)
**   maptime_req.c   MAPTIME requests in their own syntax (SPAN/NAME/TERM)
**   maptime_list.c  the listing: the three INTERRUPTS IN ... RANGE counts and one
**                   histogram per request and image
**   maptime_svg.c   the same histograms drawn as one self-contained SVG (--svg)
**
** The LOGDATA table is kept sparse: per image, the value recorded at each executed
** address (samples, or fst_fx with --exact). LOGTIME's range and span size are applied
** when the listing is written, which gives the same counts as a table of spans built
** during the run (a span's count is the sum over its addresses) and needs no storage
** for the parts of the range where nothing ran.
**
** Ownership: everything here is owned by the mt_ctx that holds it (mt_ctx_free).
** Errors: -1 with err set, the message naming the request (its file and line when it
** came from --requests).
*/
#ifndef FST_MAPTIME_H
#define FST_MAPTIME_H

#include "common/err.h"
#include "analyze/profile/profile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { MT_SPAN = 1, MT_NAME = 2 };

typedef struct mt_req {
    int kind;               /* MT_SPAN or MT_NAME */
    uint64_t a0, a1;        /* SPAN: addresses in the lowest and highest section (0 0: all) */
    char n0[9], n1[9];      /* NAME: the lowest and highest section */
    uint64_t span;          /* bytes per line; 0: one line per control section */
    uint32_t pct;           /* threshold in hundredths of a percent */
    char text[96];          /* as given, for the heading and messages */
    char where[128];        /* "--request" or "FILE:LINE", for messages */
} mt_req;

/* One LOGDATA image: value per executed address (open addressing; addr 0 is stored as
** the key ~0, never an instruction address). */
typedef struct mt_image {
    uint64_t *key, *val;
    size_t cap, n;
} mt_image;

/* A control section: [start, end], both inclusive. */
typedef struct mt_sect {
    char name[64];
    uint64_t start, end;
} mt_sect;

/* maptime_req.c: parse one request line ("SPAN 0 0 8 1.0"). Returns 1 for a request
** (*r filled), 0 for TERM or an empty line (the end of the requests), -1 on bad syntax
** (err: "WHERE: 'LINE': why"). */
int mt_req_parse(const char *line, const char *where, mt_req *r, fst_err *err);
/* Every request of a file, one per line, up to TERM or an empty line, appended to
** *rs / *n (realloc'd). */
int mt_req_file(const char *path, mt_req **rs, size_t *n, fst_err *err);

/* maptime_list.c */
typedef struct mt_listing {
    const fst_pm *pm;       /* --map's program model: its control sections, or NULL (then
                               the routines, each up to the next) */
    uint64_t a0, a1;        /* LOGTIME's range */
    int have_range;         /* a0/a1 given; else the routines' extent */
    uint64_t lspan;         /* LOGTIME's span size */
    uint64_t timeunit;      /* for the heading; 0 with --exact */
    int exact;
    int svg;                /* draw the histograms (maptime_svg.c) instead of listing them */
} mt_listing;

/* One line of a histogram, as the listing prints it. */
typedef struct mt_row {
    int span;               /* 0: a control section's line; 1: a span inside the section above */
    const char *name;       /* the section's name */
    uint64_t start;         /* the section's address */
    uint64_t a, b;          /* a span: its first and last byte, offsets from the section */
    uint64_t v;             /* recorded: samples, or fx with --exact */
    uint32_t h;             /* hundredths of a percent of the MAPTIME range (rounded half up) */
    int bar;                /* a section line of a span histogram has no bar: 0 */
} mt_row;

/* One request over one image: the listing's heading, counts and lines. */
typedef struct mt_hist {
    size_t image, nimages;
    uint64_t a0, a1, lspan;
    char timeunit[32];      /* "0100" or "EXACT" */
    const char *clock, *request;
    int exact;
    uint64_t machine, logtime, maptime;
    mt_row *rows;
    size_t nrows;
} mt_hist;

/* maptime_svg.c: every histogram as one SVG, one panel each, top to bottom; a bar's
** width is its value against the panel's largest, its tooltip the figures. `program`
** titles it; `incomplete` (or NULL) is said under the title. Returns 0, or 1 when writing
** failed. */
int mt_svg_write(FILE *out, const char *program, const mt_hist *h, size_t n, const char *incomplete);

/* The listing (or with l->svg, the SVG); `program` names the run in the SVG's title. */
int mt_write(FILE *out, const mt_listing *l, const fst_profile *p, const char *program, const mt_req *rs, size_t nr,
             const mt_image *im, size_t nim, fst_err *err);
/* Sorted (address, value) pairs of an image: malloc'd arrays of im->n; free both. */
void mt_image_sorted(const mt_image *im, uint64_t **addr, uint64_t **val);

#endif
