/* model/map_image.c — routines found in a storage image by their OS identifiers, and the
** one place where EBCDIC becomes ASCII.
**
** Every routine built with the SAVE macro, and every FORTRAN routine, starts by branching
** around an identifier: `47F0F0xx` (B xx(0,15)), a length byte, the name (notes/loadmaps.md
** §4.1, seed 000). FORTRAN G writes X'06' and the name left-justified, blank-padded; FORTRAN
** H writes X'07' and the name right-justified, X'00'-padded; both branch to +12 (DESIGN §3.1).
*/
#include "model/progmodel.h"

#include <stdlib.h>
#include <string.h>

/* Code page 037 of the printable ASCII characters ' ' .. '~'. */
static const uint8_t ebcdic_of[95] = {
    0x40, 0x5A, 0x7F, 0x7B, 0x5B, 0x6C, 0x50, 0x7D, 0x4D, 0x5D, 0x5C, 0x4E, 0x6B, 0x60, 0x4B, 0x61,
    0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0x7A, 0x5E, 0x4C, 0x7E, 0x6E, 0x6F,
    0x7C, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6,
    0xD7, 0xD8, 0xD9, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xBA, 0xE0, 0xBB, 0xB0, 0x6D,
    0x79, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
    0x97, 0x98, 0x99, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xC0, 0x4F, 0xD0, 0xA1,
};

char fst_ebcdic_to_ascii(uint8_t c)
{
    for (int i = 0; i < 95; i++)
        if (ebcdic_of[i] == c)
            return (char)(' ' + i);
    return 0;
}

uint8_t fst_ascii_to_ebcdic(char c)
{
    return c >= ' ' && c <= '~' ? ebcdic_of[c - ' '] : 0;
}

/* A name as the OS writes it: 1-8 of A-Z 0-9 $ # @, not starting with a digit. */
static int take_name(const uint8_t *p, size_t n, char name[9])
{
    if (n == 0 || n > 8)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = fst_ebcdic_to_ascii(p[i]);
        int ok = (c >= 'A' && c <= 'Z') || c == '$' || c == '#' || c == '@' ||
                 (i > 0 && c >= '0' && c <= '9');
        if (!ok)
            return 0;
        name[i] = c;
    }
    name[n] = 0;
    return 1;
}

/* The bytes [a, b) of p without leading and trailing padding (X'00', X'40'). */
static size_t unpad(const uint8_t *p, size_t *a, size_t b)
{
    while (*a < b && (p[*a] == 0x00 || p[*a] == 0x40))
        (*a)++;
    while (b > *a && (p[b - 1] == 0x00 || p[b - 1] == 0x40))
        b--;
    return b - *a;
}

int fst_ident_at(const uint8_t *p, size_t avail, unsigned flags, char name[9])
{
    if (avail < 6 || p[0] != 0x47 || p[1] != 0xF0 || p[2] != 0xF0)
        return 0;
    unsigned disp = p[3], len = p[4];
    size_t a;
    if (disp == 0x0C && len == 6 && avail >= 11 && p[5] != 0x40) {
        a = 5;                              /* G: left-justified, blanks after */
        size_t n = unpad(p, &a, 11);
        if (a == 5 && take_name(p + a, n, name))
            return FST_ID_FORTG;
    }
    if (disp == 0x0C && len == 7 && avail >= 12 && p[11] != 0x00 && p[11] != 0x40) {
        a = 5;                              /* H: right-justified, zeros before */
        size_t n = unpad(p, &a, 12);
        if (take_name(p + a, n, name))
            return FST_ID_FORTH;
    }
    if (!(flags & FST_SCAN_OS) || len == 0 || disp < 5 + len || disp % 2 || avail < 5 + len)
        return 0;
    a = 5;                                  /* OS: the first word of the identifier */
    size_t end = 5 + len;
    while (a < end && p[a] == 0x00)
        a++;
    size_t e = a;
    while (e < end && e - a < 8 && p[e] != 0x40 && p[e] != 0x00)
        e++;
    if (e < end && e - a == 8 && p[e] != 0x40 && p[e] != 0x00)
        return 0;                           /* a first word longer than a name */
    return take_name(p + a, e - a, name) ? FST_ID_OS : 0;
}

static int cmp_hit(const void *a, const void *b)
{
    const fst_id_hit *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Does a segment after s hold addr? (it was loaded later, over s) */
static int overlaid(const fst_image_seg *segs, size_t nseg, size_t s, uint64_t addr)
{
    for (size_t j = s + 1; j < nseg; j++)
        if (addr >= segs[j].addr && addr - segs[j].addr < segs[j].len)
            return 1;
    return 0;
}

int fst_scan_ids(const fst_image_seg *segs, size_t nseg, unsigned flags, fst_id_hit **hits,
                 size_t *nhits, fst_err *err)
{
    size_t n = 0, cap = 16;
    fst_id_hit *v = fst_xmalloc(cap * sizeof *v);
    (void)err;
    for (size_t s = 0; s < nseg; s++) {
        const fst_image_seg *g = &segs[s];
        for (size_t off = g->addr & 1; off + 6 <= g->len; off += 2) {
            const uint8_t *p = g->data + off;
            if (p[0] != 0x47 || p[1] != 0xF0 || p[2] != 0xF0)
                continue;
            char name[9];
            int style = fst_ident_at(p, g->len - off, flags, name);
            if (!style || overlaid(segs, nseg, s, g->addr + off))
                continue;
            if (n == cap)
                v = fst_xrealloc(v, (cap *= 2) * sizeof *v);
            v[n].addr = g->addr + off;
            v[n].style = style;
            memcpy(v[n].name, name, sizeof name);
            n++;
        }
    }
    qsort(v, n, sizeof *v, cmp_hit);
    *hits = v;
    *nhits = n;
    return 0;
}

/* End of the image piece holding addr (the routine cannot reach past it). */
static uint64_t piece_end(const fst_image_seg *segs, size_t nseg, uint64_t addr)
{
    for (size_t s = nseg; s-- > 0;)
        if (addr >= segs[s].addr && addr - segs[s].addr < segs[s].len)
            return segs[s].addr + segs[s].len;
    return addr;
}

int fst_pm_from_image(fst_pm *pm, const char *name, const fst_image_seg *segs, size_t nseg,
                      unsigned flags, fst_err *err)
{
    fst_id_hit *h;
    size_t n;
    if (fst_scan_ids(segs, nseg, flags, &h, &n, err) < 0)
        return -1;
    if (!n) {
        free(h);
        return fst_errf(err, "%s: no routine identifier (47F0F00C and a %s name) in the storage "
                        "image", name, flags & FST_SCAN_OS ? "" : "FORTRAN");
    }
    size_t keep = fst_pm_nmodules(pm);
    fst_pm_begin_module(pm, FST_MAP_IMAGE, name, NULL);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t end = piece_end(segs, nseg, h[i].addr);
        if (i + 1 < n && h[i + 1].addr < end)
            end = h[i + 1].addr;
        if (end > UINT32_MAX)
            rc = fst_errf(err, "%s: routine %s at %llX lies above 4 GiB", name, h[i].name,
                          (unsigned long long)h[i].addr);
        else
            fst_pm_add(pm, h[i].name, FST_PM_SD, (uint32_t)h[i].addr,
                       (uint32_t)(end - h[i].addr), 0, 0, (size_t)-1,
                       (unsigned long)h[i].addr);
    }
    free(h);
    if (rc == 0 && fst_pm_end_module(pm, 1, err) == 0 &&
        fst_pm_set_load_point(pm, (int)fst_pm_nmodules(pm) - 1, 0, err) == 0)
        return 0;
    fst_pm_drop_modules(pm, keep);
    return -1;
}
