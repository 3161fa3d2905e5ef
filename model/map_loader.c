/* model/map_loader.c — the OS/VS loader map (LOADER = IEWLDRGO = HEWLDRGO, PARM='MAP').
**
** From the MVS 3.8 loader source (HEWLDIOC; notes/loadmaps.md §1.9; no real listing was
** found): after the heading `NAME  TYPE  ADDR`, repeated once per entry, the map prints five
** entries a line (three under TSO), 24 columns each: name, a suffix ('*' autocall from
** SYSLIB, '**' resolved from the link pack area, '***' pre-loaded text), the type (SD, LR,
** CM, PR, or PC for `$PRIVATE`) and the absolute address; then TOTAL LENGTH and ENTRY
** ADDRESS. The entry columns are taken from where the headings stand, so an ASA byte in
** column 1 does not matter. The map has no lengths: a section reaches to the next one, the
** last to load point + TOTAL LENGTH. The load point is the lowest section address.
** Entries marked '**' or '***' are not part of the loaded program and are left out.
*/
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/progmodel.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define SLOTS 8

static fst_rx rx_entry = FST_RX("^ *([*]{0,2}[^* ]{1,9}?)(\\*{0,3}) +([A-Z]{2}) +([0-9A-F]{1,6}) *$");
static fst_rx rx_trailer = FST_RX("^.? *(TOTAL LENGTH|ENTRY ADDRESS) +(\\S+) *$");
static fst_rx rx_noise = FST_RX("^.? *IEW\\d{4}");

typedef struct lent {
    char name[10];
    fst_pm_type type;
    uint64_t addr;
    int autocall;
    unsigned long line;
} lent;

typedef struct ctx {
    const char *file;
    long slot[SLOTS];
    int nslot;
    lent *v;
    size_t n, cap;
    int has_total, has_entry;
    uint64_t total, entry;
} ctx;

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ')
            return 0;
    return 1;
}

static int type_of(const char *t, fst_pm_type *out)
{
    static const char *n[] = { "SD", "PC", "CM", "LR", "PR" };
    for (int i = 0; i < 5; i++)
        if (!strncmp(t, n[i], 2))
            return *out = (fst_pm_type)i, 0;
    return -1;
}

/* One 24-column entry; blank slots are skipped. */
static int slot_entry(ctx *x, const fst_map_line *l, long a, long b, fst_err *err)
{
    long ov[10];
    if (a >= (long)l->len)
        return 0;
    if (b > (long)l->len)
        b = (long)l->len;
    const char *s = l->text + a;
    size_t n = (size_t)(b - a);
    if (blank(s, n))
        return 0;
    fst_pm_type t;
    if (!fst_rx_match(&rx_entry, s, n, ov, 5) || type_of(s + ov[6], &t) < 0)
        return fst_errf(err, "%s:%lu: bad loader map entry '%.*s' (columns %ld-%ld)", x->file,
                        l->lineno, (int)n, s, a + 1, b);
    size_t sufl = (size_t)(ov[5] - ov[4]);
    if (sufl >= 2)
        return 0;                         /* from the link pack area, or pre-loaded */
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->v = fst_xrealloc(x->v, x->cap * sizeof *x->v);
    }
    lent *e = &x->v[x->n++];
    size_t nl = (size_t)(ov[3] - ov[2]);
    memcpy(e->name, s + ov[2], nl);
    e->name[nl] = 0;
    e->type = t;
    e->autocall = sufl == 1;
    e->line = l->lineno;
    fst_parse_hex(s + ov[8], (size_t)(ov[9] - ov[8]), &e->addr);
    return 0;
}

static void read_heading(ctx *x, const fst_map_line *l)
{
    x->nslot = 0;
    for (const char *p = l->text; (p = strstr(p, "NAME  TYPE  ADDR")) && x->nslot < SLOTS; p += 16)
        x->slot[x->nslot++] = p - l->text - 5;
}

static int trailer(ctx *x, const fst_map_line *l, long *ov, fst_err *err)
{
    uint64_t v;
    const char *p = l->text + ov[4];
    size_t n = (size_t)(ov[5] - ov[4]);
    if (n > 6 || fst_parse_hex(p, n, &v) < 0)
        return fst_errf(err, "%s:%lu: bad hex '%.*s'", x->file, l->lineno, (int)n, p);
    if (l->text[ov[2]] == 'T')
        x->has_total = 1, x->total = v;
    else
        x->has_entry = 1, x->entry = v;
    return 0;
}

static int scan(ctx *x, const fst_map_line *lines, size_t nl, fst_err *err)
{
    long ov[6];
    for (size_t i = 0; i < nl; i++) {
        const fst_map_line *l = &lines[i];
        if (strstr(l->text, "NAME  TYPE  ADDR")) {
            read_heading(x, l);
            continue;
        }
        if (!x->nslot || blank(l->text, l->len) || fst_rx_match(&rx_noise, l->text, l->len, ov, 1))
            continue;
        if (fst_rx_match(&rx_trailer, l->text, l->len, ov, 3)) {
            if (trailer(x, l, ov, err) < 0)
                return -1;
            if (x->has_total && x->has_entry)
                return 0;
            continue;
        }
        if (x->has_total || x->has_entry)
            continue;
        for (int k = 0; k < x->nslot; k++) {
            long b = k + 1 < x->nslot ? x->slot[k + 1] : (long)l->len;
            if (slot_entry(x, l, x->slot[k] < 0 ? 0 : x->slot[k], b, err) < 0)
                return -1;
        }
    }
    if (!x->nslot)
        return fst_errf(err, "%s: no loader map heading (NAME  TYPE  ADDR)", x->file);
    if (!x->has_total)
        return fst_errf(err, "%s:%lu: the loader map has no TOTAL LENGTH", x->file,
                        nl ? lines[nl - 1].lineno : 0);
    return 0;
}

static int cmp_addr(const void *a, const void *b)
{
    const lent *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sections reach to the next section, the last one to load point + TOTAL LENGTH. */
static int build(fst_pm *pm, ctx *x, fst_err *err)
{
    uint64_t lp = UINT64_MAX;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].type <= FST_PM_CM && x->v[i].addr < lp)
            lp = x->v[i].addr;
    if (lp == UINT64_MAX)
        return fst_errf(err, "%s: no control section in the loader map", x->file);
    qsort(x->v, x->n, sizeof *x->v, cmp_addr);
    uint64_t end = lp + x->total;
    for (size_t i = 0; i < x->n; i++) {
        const lent *e = &x->v[i];
        if (e->type == FST_PM_PR) {
            fst_pm_add(pm, e->name, FST_PM_PR, (uint32_t)e->addr, 0, 0, 0, NONE, e->line);
            continue;
        }
        if (e->addr > end)
            return fst_errf(err, "%s:%lu: %s at %llX lies past the end of the program (%llX)",
                            x->file, e->line, e->name, (unsigned long long)e->addr,
                            (unsigned long long)end);
        uint64_t next = end;
        for (size_t j = i + 1; j < x->n && e->type != FST_PM_LR; j++)
            if (x->v[j].type <= FST_PM_CM && x->v[j].addr > e->addr) {
                next = x->v[j].addr;
                break;
            }
        fst_pm_add(pm, e->name, e->type, (uint32_t)(e->addr - lp), (uint32_t)(next - e->addr),
                   0, e->autocall, NONE, e->line);
    }
    fst_pm_set_total(pm, (uint32_t)x->total);
    if (x->has_entry) {
        if (x->entry < lp || x->entry >= end)
            return fst_errf(err, "%s: ENTRY ADDRESS %llX lies outside the program (%llX-%llX)",
                            x->file, (unsigned long long)x->entry, (unsigned long long)lp,
                            (unsigned long long)end);
        fst_pm_set_entry(pm, (uint32_t)(x->entry - lp));
    }
    if (fst_pm_end_module(pm, 0, err) < 0)
        return -1;
    return fst_pm_set_load_point(pm, (int)fst_pm_nmodules(pm) - 1, lp, err);
}

int fst_map_read_loader(fst_pm *pm, const char *name, const char *buf, size_t len,
                        const fst_pm_opts *opts, fst_err *err)
{
    ctx x = { .file = name };
    fst_map_line *lines;
    size_t nl = fst_map_lines(buf, len, &lines);
    size_t keep = fst_pm_nmodules(pm);
    int rc = scan(&x, lines, nl, err);
    fst_map_lines_free(lines, nl);
    if (rc == 0) {
        fst_pm_begin_module(pm, FST_MAP_LOADER, name, opts ? opts->member : NULL);
        rc = build(pm, &x, err);
        if (rc < 0)
            fst_pm_drop_modules(pm, keep);
    }
    free(x.v);
    return rc;
}
