/* model/stmt_place.c — where each unit of a statement table lies in the trace's storage
** image, and the check that its code is there (model/stmttab.h, "Units and placement"). */
#include "model/stmttab_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CANDS = 4 };

/* How the unit's code compares with the image at base: chunks equal, different, or not in
** the image (a page the capture never saw). */
typedef struct verdict {
    size_t same, differ, absent;
    uint64_t first_bad;     /* unit offset of the first chunk that differs */
} verdict;

static verdict compare(const fst_stmt_tab *t, size_t unit, uint64_t base, const fst_image_seg *img, size_t nimg)
{
    verdict v = { 0, 0, 0, 0 };
    uint8_t buf[256];
    for (size_t i = 0; i < t->nc; i++) {
        const fst_stmt_chunk *c = &t->c[i];
        if (c->unit != unit)
            continue;
        for (size_t done = 0; done < c->n;) {   /* an ELF's code comes as one chunk per section */
            size_t n = c->n - done < sizeof buf ? c->n - done : sizeof buf;
            if (fst_image_read(img, nimg, base + c->off + done, buf, n) < 0)
                v.absent++;
            else if (memcmp(buf, t->pool + c->at + done, n)) {
                if (!v.differ++)
                    v.first_bad = c->off + done;
            } else
                v.same++;
            done += n;
        }
    }
    return v;
}

/* The unit's longest chunk (capped), to look for in the image. */
static const fst_stmt_chunk *anchor(const fst_stmt_tab *t, size_t unit)
{
    const fst_stmt_chunk *best = NULL;
    for (size_t i = 0; i < t->nc; i++)
        if (t->c[i].unit == unit && (!best || t->c[i].n > best->n))
            best = &t->c[i];
    return best;
}

/* Every base at which the unit's code is in the image, all of it compared equal. */
static size_t search(const fst_stmt_tab *t, size_t unit, const fst_image_seg *img, size_t nimg, uint64_t *cand)
{
    const fst_stmt_chunk *a = anchor(t, unit);
    size_t n = 0, alen = a && a->n > 64 ? 64 : a ? a->n : 0;
    if (!a)
        return 0;
    const uint8_t *pat = t->pool + a->at;
    for (size_t s = 0; s < nimg; s++)
        for (size_t i = 0; i + alen <= img[s].len; i += 2) {   /* code is halfword-aligned */
            if (img[s].data[i] != pat[0] || memcmp(img[s].data + i, pat, alen))
                continue;
            uint64_t at = img[s].addr + i;
            if (at < a->off)
                continue;
            uint64_t base = at - a->off;
            verdict v = compare(t, unit, base, img, nimg);
            if (v.differ || !v.same)
                continue;
            int dup = 0;
            for (size_t k = 0; k < n && k < MAX_CANDS; k++)
                dup |= cand[k] == base;
            if (!dup && n++ < MAX_CANDS)
                cand[n - 1] = base;
        }
    return n;
}

static const char *unit_name(const fst_stmt_unit *u, char *buf, size_t cap)
{
    if (u->name)
        snprintf(buf, cap, "%s (%s)", u->file, u->name);
    else
        snprintf(buf, cap, "%s", u->file);
    return buf;
}

static int place_unit(fst_stmt_tab *t, size_t i, const fst_stmt_routine *r, size_t nr, const fst_image_seg *img,
                      size_t nimg, fst_err *err)
{
    fst_stmt_unit *u = &t->u[i];
    char nm[600];
    unit_name(u, nm, sizeof nm);
    int have_code = anchor(t, i) != NULL;
    if (!nimg)
        return fst_errf(err, "%s: the trace holds no storage image to place it by (capture with the program's image)",
                        nm);
    if (u->absolute) {  /* an ELF: where it was linked, when its code is there */
        verdict v = compare(t, i, 0, img, nimg);
        if (!v.differ && v.same) {
            u->base = 0;
            return u->placed = 1, 0;
        }
    }
    for (size_t k = 0; u->name && k < nr; k++) {
        if (!r[k].name || strcmp(r[k].name, u->name) || r[k].entry < u->name_off)
            continue;
        uint64_t base = r[k].entry - u->name_off;
        verdict v = have_code ? compare(t, i, base, img, nimg) : (verdict){ 0, 0, 0, 0 };
        if (v.differ)
            return fst_errf(err, "%s: its code is not what ran at routine %s (%08llX): the listing's object code at "
                                 "offset %llX differs from the trace's storage image (another version of the "
                                 "program?)", nm, u->name, (unsigned long long)r[k].entry,
                            (unsigned long long)v.first_bad);
        u->base = base;
        return u->placed = 1, 0;
    }
    if (!have_code)
        return fst_errf(err, "%s: no routine of the program is named %s, and it lists no object code to find it by",
                        nm, u->name ? u->name : "(none)");
    uint64_t cand[MAX_CANDS];
    size_t n = search(t, i, img, nimg, cand);
    if (n == 1) {
        u->base = cand[0];
        return u->placed = 1, 0;
    }
    if (!n)
        return fst_errf(err, "%s: its object code is nowhere in the trace's storage image%s: not the program that "
                             "ran, or another version of it", nm, u->absolute ? " (not where it was linked either)" : "");
    return fst_errf(err, "%s: its object code is at %zu places in the trace's storage image (%08llX, %08llX%s): "
                         "which one ran cannot be told; give the program's map (--map) so that its name places it",
                    nm, n, (unsigned long long)cand[0], (unsigned long long)cand[1], n > 2 ? ", ..." : "");
}

int fst_stmt_place(fst_stmt_tab *t, const fst_stmt_routine *r, size_t nr, const fst_image_seg *image, size_t nimage,
                   fst_err *err)
{
    for (size_t i = 0; i < t->nu; i++)
        if (!t->u[i].placed && place_unit(t, i, r, nr, image, nimage, err) < 0)
            return -1;
    fst_stmt_build_spans(t);
    return 0;
}
