/* model/map_cesd.c — the composite ESD of a load module (notes/loadmaps.md §2).
**
** Input: the module's records one after another, as `dasdcat` writes a member (no block
** boundaries: a CESD record's length is 8 + its byte count), or each record behind a 4-byte
** RDW (LL 00 00). The CESD records come first; reading stops at the first other record.
**
**   record: id X'20' (X'28' = last, module has no text), 3 spare bytes, ESDID of the first
**           entry (2), byte count of the entries (2, a multiple of 16, at most 240)
**   entry:  name (8, EBCDIC, blank padded), type (1: low nibble 0 SD, 1 LD, 2 ER, 3 LR,
**           4 PC, 5 CM, 6 PR, 7 null, A WX; X'80' autocall), address (3), segment (1),
**           length, or for LR/LD the ESDID of the owning section in the last 2 bytes (3)
**
** Entries are numbered from the header ESDID; labels find their section by that number.
** ER, WX and null entries are not part of the module and are skipped. A record stream has
** no PDS directory, hence no entry address or member name (opts->member names it); TOTAL
** LENGTH is the end of the last section rounded up to a doubleword, as the linkage editor
** allocates it. The segment byte is kept when some section is in a segment above 1 (an
** overlay module); otherwise segments are 0.
*/
#include "model/progmodel.h"
#include "common/bytes.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

typedef struct cent {
    char name[9];
    int type;                   /* low nibble of the type byte */
    int autocall;
    uint32_t addr, len;         /* len: SD/PC/CM/PR length, LR/LD owner ESDID */
    uint8_t seg;
    size_t off;                 /* byte offset in the file */
    size_t sym;                 /* its index in the model, NONE when skipped */
} cent;

typedef struct ctx {
    const char *file;
    const uint8_t *buf;
    size_t len;
    int rdw;
    cent *v;                    /* by ESDID - 1 */
    size_t n, cap;
} ctx;

static uint32_t get24(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }

static int entry_name(ctx *x, const uint8_t *p, size_t off, char *out, fst_err *err)
{
    size_t n = 8;
    while (n && (p[n - 1] == 0x40 || p[n - 1] == 0x00))
        n--;
    for (size_t i = 0; i < n; i++) {
        char c = fst_ebcdic_to_ascii(p[i]);
        if (!c || c == ' ')
            return fst_errf(err, "%s: byte %zu: ESD name byte X'%02X' is not a name character",
                            x->file, off + i, p[i]);
        out[i] = c;
    }
    out[n] = 0;
    return 0;
}

static int read_entry(ctx *x, const uint8_t *p, size_t off, fst_err *err)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->v = fst_xrealloc(x->v, x->cap * sizeof *x->v);
    }
    cent *e = &x->v[x->n++];
    memset(e, 0, sizeof *e);
    e->type = p[8] & 0x0F;
    e->autocall = (p[8] & 0x80) != 0;
    e->addr = get24(p + 9);
    e->seg = p[12];
    e->len = e->type == 1 || e->type == 3 ? fst_get_be16(p + 14) : get24(p + 13);
    e->off = off;
    e->sym = NONE;
    switch (e->type) {
    case 2: case 7: case 0xA:
        return 0;                              /* ER, null, WX: not in the module */
    case 0: case 1: case 3: case 4: case 5: case 6:
        break;
    default:
        return fst_errf(err, "%s: byte %zu: ESD entry %zu has type X'%02X', not one a load "
                        "module holds", x->file, off + 8, x->n, p[8]);
    }
    if (entry_name(x, p, off, e->name, err) < 0)
        return -1;
    if (!e->name[0])
        strcpy(e->name, e->type == 4 ? "$PRIVATE" : e->type == 5 ? "$BLANKCOM" : "");
    if (!e->name[0])
        return fst_errf(err, "%s: byte %zu: ESD entry %zu has no name", x->file, off, x->n);
    return 0;
}

/* One CESD record at pos (header, then the entries); *next is where the next record is. */
static int read_record(ctx *x, size_t pos, size_t *next, fst_err *err)
{
    size_t h = pos + (x->rdw ? 4 : 0), left = x->len - pos;
    if (left < (x->rdw ? 12u : 8u))
        return fst_errf(err, "%s: byte %zu: record cut short: %zu bytes left, a CESD header "
                        "needs %d", x->file, pos, left, x->rdw ? 12 : 8);
    const uint8_t *p = x->buf + h;
    size_t esdid = fst_get_be16(p + 4), cnt = fst_get_be16(p + 6);
    if (cnt % 16 || cnt > 240)
        return fst_errf(err, "%s: byte %zu: CESD byte count %zu is not 16 x 0..15", x->file,
                        h + 6, cnt);
    if (esdid != x->n + 1)
        return fst_errf(err, "%s: byte %zu: CESD record starts at ESDID %zu, expected %zu",
                        x->file, h + 4, esdid, x->n + 1);
    size_t reclen = 8 + cnt;
    if (x->rdw && fst_get_be16(x->buf + pos) != reclen + 4)
        return fst_errf(err, "%s: byte %zu: RDW length %u does not fit a CESD record of %zu "
                        "bytes", x->file, pos, fst_get_be16(x->buf + pos), reclen);
    if (x->len - h < reclen)
        return fst_errf(err, "%s: byte %zu: CESD record cut short: it holds %zu bytes of "
                        "entries, %zu are left", x->file, pos, cnt, x->len - h - 8);
    for (size_t i = 0; i < cnt; i += 16)
        if (read_entry(x, p + 8 + i, h + 8 + i, err) < 0)
            return -1;
    *next = h + reclen;
    return 0;
}

static int is_cesd(const ctx *x, size_t pos)
{
    size_t h = pos + (x->rdw ? 4 : 0);
    if (x->rdw && (x->len - pos < 5 || x->buf[pos + 2] || x->buf[pos + 3]))
        return 0;
    return h < x->len && (x->buf[h] & 0xF7) == 0x20;
}

static int add_symbols(fst_pm *pm, ctx *x, fst_err *err)
{
    int overlay = 0;
    uint64_t end = 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].type == 0 || x->v[i].type == 4 || x->v[i].type == 5) {
            overlay |= x->v[i].seg > 1;
            if ((uint64_t)x->v[i].addr + x->v[i].len > end)
                end = (uint64_t)x->v[i].addr + x->v[i].len;
        }
    static const fst_pm_type map[] = { FST_PM_SD, FST_PM_LR, 0, FST_PM_LR, FST_PM_PC,
                                       FST_PM_CM, FST_PM_PR };
    for (size_t i = 0; i < x->n; i++) {            /* sections first: labels point at them */
        cent *e = &x->v[i];
        if (e->type == 0 || e->type == 4 || e->type == 5 || e->type == 6)
            e->sym = fst_pm_add(pm, e->name, map[e->type], e->addr, e->len,
                                overlay && e->type != 6 ? e->seg : 0, e->autocall, NONE, e->off);
    }
    for (size_t i = 0; i < x->n; i++) {
        cent *e = &x->v[i];
        if (e->type != 1 && e->type != 3)
            continue;
        const cent *o = e->len >= 1 && e->len <= x->n ? &x->v[e->len - 1] : NULL;
        if (!o || (o->type != 0 && o->type != 4 && o->type != 5))
            return fst_errf(err, "%s: byte %zu: label %s names ESDID %u as its section, which "
                            "is %s", x->file, e->off + 13, e->name, e->len,
                            o ? "not a control section" : "not in the CESD");
        fst_pm_add(pm, e->name, FST_PM_LR, e->addr, 0, overlay ? o->seg : 0, e->autocall,
                   o->sym, e->off);
    }
    fst_pm_set_total(pm, (uint32_t)((end + 7) & ~(uint64_t)7));
    return 0;
}

int fst_map_read_cesd(fst_pm *pm, const char *name, const uint8_t *buf, size_t len,
                      const fst_pm_opts *opts, fst_err *err)
{
    ctx x = { .file = name, .buf = buf, .len = len };
    x.rdw = len >= 5 && !buf[2] && !buf[3] && (buf[4] & 0xF7) == 0x20 && (buf[0] & 0xF7) != 0x20;
    if (!is_cesd(&x, 0)) {
        free(x.v);
        return fst_errf(err, "%s: byte 0: not a load module: the first record is X'%02X', not "
                        "a CESD record (X'20')", name, len ? buf[0] : 0);
    }
    int rc = 0;
    for (size_t pos = 0; rc == 0 && pos < len && is_cesd(&x, pos);)
        rc = read_record(&x, pos, &pos, err);
    if (rc == 0) {
        fst_pm_begin_module(pm, FST_MAP_CESD, name, opts ? opts->member : NULL);
        rc = add_symbols(pm, &x, err);
        if (rc == 0)
            rc = fst_pm_end_module(pm, 1, err);
        else
            fst_pm_abort_module(pm);
    }
    free(x.v);
    return rc;
}
