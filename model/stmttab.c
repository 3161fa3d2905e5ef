/* model/stmttab.c — the statement table: units, statements, spans; see stmttab.h.
** Placement is model/stmt_place.c; the readers are model/stmt_*.c. */
#include "model/stmttab_int.h"
#include "common/lines.h"
#include "common/quote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

fst_stmt_tab *fst_stmt_new(void) { return fst_xcalloc(1, sizeof(fst_stmt_tab)); }

void fst_stmt_free(fst_stmt_tab *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nstrs; i++)
        free(t->strs[i]);
    free(t->strs);
    free(t->files);
    free(t->u);
    free(t->s);
    free(t->r);
    free(t->c);
    free(t->pool);
    free(t->sp);
    free(t->ids);
    fst_map_free(&t->byk);
    free(t);
}

const char *fst_stmt_kind_name(fst_stmt_kind k)
{
    static const char *const n[] = { "auto", "dwarf", "gas", "ibmasm", "fortg", "forth" };
    return (unsigned)k < sizeof n / sizeof *n ? n[k] : "?";
}

#define GROW(p, n, cap)                                                            \
    do {                                                                           \
        if ((n) == (cap)) {                                                        \
            (cap) = (cap) ? 2 * (cap) : 64;                                        \
            (p) = fst_xrealloc((p), (cap) * sizeof *(p));                          \
        }                                                                          \
    } while (0)

const char *fst_stmt_keep(fst_stmt_tab *t, const char *s)
{
    if (!s)
        return NULL;
    GROW(t->strs, t->nstrs, t->strcap);
    return t->strs[t->nstrs++] = fst_xstrdup(s);
}

/* The file's index among the table's files: statements are keyed by it. */
static size_t file_index(fst_stmt_tab *t, const char *file)
{
    if (t->nfiles && !strcmp(t->files[t->lastfile], file))
        return t->lastfile;
    for (size_t i = 0; i < t->nfiles; i++)
        if (!strcmp(t->files[i], file))
            return t->lastfile = i;
    GROW(t->files, t->nfiles, t->filecap);
    t->files[t->nfiles] = fst_stmt_keep(t, file);
    return t->lastfile = t->nfiles++;
}

size_t fst_stmt_begin_unit(fst_stmt_tab *t, fst_stmt_kind kind, const char *file, const char *name, int absolute)
{
    GROW(t->u, t->nu, t->ucap);
    t->u[t->nu] = (fst_stmt_unit){ .name = fst_stmt_keep(t, name), .file = fst_stmt_keep(t, file), .kind = kind,
                                   .absolute = absolute };
    return t->nu++;
}

void fst_stmt_set_name(fst_stmt_tab *t, const char *name, uint64_t off)
{
    fst_stmt_unit *u = &t->u[t->nu - 1];
    u->name = fst_stmt_keep(t, name);
    u->name_off = off;
}

/* The statement (unit, file, line), made when new: a source line claims many ranges. */
static size_t stmt_id(fst_stmt_tab *t, const char *file, uint32_t line)
{
    size_t f = file_index(t, file);
    uint64_t key = (uint64_t)(t->nu - 1) << 48 | (uint64_t)(f & 0xFFFF) << 32 | line;
    uint64_t *v = fst_map_put(&t->byk, key, UINT64_MAX);
    if (*v != UINT64_MAX && !strcmp(t->s[*v].file, file))
        return (size_t)*v;
    GROW(t->s, t->ns, t->scap);
    t->s[t->ns] = (fst_stmt){ .file = t->files[f], .line = line, .unit = t->nu - 1, .order = t->ns };
    if (*v == UINT64_MAX)
        *v = t->ns;
    return t->ns++;
}

void fst_stmt_add(fst_stmt_tab *t, const char *file, uint32_t line, const char *text, uint64_t lo, uint64_t hi,
                  const uint8_t *obj, size_t nobj, int data)
{
    size_t id = stmt_id(t, file, line);
    if (text && !t->s[id].text)
        t->s[id].text = fst_stmt_keep(t, text);
    if (hi > lo) {
        GROW(t->r, t->nr, t->rcap);
        t->r[t->nr++] = (fst_stmt_range){ id, lo, hi };
    }
    if (obj && nobj && !data)
        fst_stmt_add_code(t, lo, obj, nobj);
}

void fst_stmt_add_code(fst_stmt_tab *t, uint64_t off, const void *bytes, size_t n)
{
    GROW(t->c, t->nc, t->ccap);
    while (t->npool + n > t->poolcap) {
        t->poolcap = t->poolcap ? 2 * t->poolcap : 4096;
        t->pool = fst_xrealloc(t->pool, t->poolcap);
    }
    memcpy(t->pool + t->npool, bytes, n);
    t->c[t->nc++] = (fst_stmt_chunk){ t->nu - 1, off, t->npool, n };
    t->npool += n;
}

void fst_stmt_drop_unit(fst_stmt_tab *t, size_t ns, size_t nr, size_t nc)
{
    for (size_t i = ns; i < t->ns; i++) {   /* their keys point at statements that go */
        const fst_stmt *s = &t->s[i];
        size_t f = 0;
        while (f < t->nfiles && t->files[f] != s->file)
            f++;
        fst_map_del(&t->byk, (uint64_t)s->unit << 48 | (uint64_t)(f & 0xFFFF) << 32 | s->line);
    }
    t->ns = ns;
    t->nr = nr;
    t->nc = nc;
    t->nu--;
}

/* ---- loading: which reader a file wants ---- */

static fst_stmt_kind detect(const char *buf, size_t len)
{
    if (len >= 4 && !memcmp(buf, "\177ELF", 4))
        return FST_STMT_DWARF;
    size_t n = len < 65536 ? len : 65536;
    if (fst_memstr(buf, n, "GAS LISTING") || (n > 6 && !memcmp(buf, "   1 ", 5) && memchr(buf, '\t', n < 80 ? n : 80)))
        return FST_STMT_GAS;   /* as -aln prints no page headers: its first line is line 1 */
    if (fst_memstr(buf, n, "FORTRAN IV G") || fst_memstr(buf, n, "FORTRAN IV H") ||
        fst_memstr(buf, n, "LEVEL 21"))
        return FST_STMT_FORTG;
    if ((fst_memstr(buf, n, "SOURCE STATEMENT") && fst_memstr(buf, n, "STMT")) ||
        (fst_memstr(buf, n, "Source Statement") && fst_memstr(buf, n, "Stmt")))
        return FST_STMT_IBMASM;
    return FST_STMT_AUTO;
}

const char *fst_memstr(const char *buf, size_t len, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= len; i++)
        if (buf[i] == s[0] && !memcmp(buf + i, s, n))
            return buf + i;
    return NULL;
}

int fst_stmt_has(const char *l, const char *w)
{
    size_t n = strlen(w);
    for (; *l; l++)
        if (!strncasecmp(l, w, n))
            return 1;
    return 0;
}

const char *fst_stmt_shown(const char *l, char *buf, size_t cap)
{
    char raw[61];
    size_t n = strlen(l) < 60 ? strlen(l) : 60;
    memcpy(raw, l, n);
    raw[n] = 0;
    return fst_printable(raw, buf, cap);
}

int fst_stmt_load(fst_stmt_tab *t, const char *path, fst_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fst_errno(err, "%s: cannot open", path);
    char *buf;
    size_t len;
    int rc = fst_read_all(f, path, "statement table", FST_STMT_MAX_BYTES, &buf, &len, err);
    fclose(f);
    if (rc < 0)
        return -1;
    size_t keep = t->nu;
    switch (detect(buf, len)) {
    case FST_STMT_DWARF: rc = fst_stmt_read_dwarf(t, path, err); break;
    case FST_STMT_GAS: rc = fst_stmt_read_gas(t, path, buf, len, err); break;
    case FST_STMT_IBMASM: rc = fst_stmt_read_ibmasm(t, path, buf, len, err); break;
    case FST_STMT_FORTG: case FST_STMT_FORTH: rc = fst_stmt_read_fort(t, path, buf, len, err); break;
    default:
        rc = fst_errf(err, "%s: not a statement table fst reads: an ELF with DWARF (gcc -g), a GNU as listing "
                           "(as -al), an IBM assembler listing, or a FORTRAN IV G/H listing with LIST", path);
    }
    free(buf);
    if (rc == 0 && t->nu == keep)
        rc = fst_errf(err, "%s: no statement with code in it", path);
    return rc;
}

/* ---- spans: the placed ranges cut into disjoint pieces, each with its statements ---- */

static int by_point(const void *x, const void *y)
{
    const fst_stmt_point *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return (a->start > b->start) - (a->start < b->start);   /* ends before starts */
}

static int by_line(const void *x, const void *y, const fst_stmt_tab *t)
{
    const fst_stmt *a = &t->s[*(const size_t *)x], *b = &t->s[*(const size_t *)y];
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    return a->line != b->line ? (a->line < b->line ? -1 : 1) : (a->order > b->order) - (a->order < b->order);
}

static void sort_ids(size_t *ids, size_t n, const fst_stmt_tab *t)
{
    for (size_t i = 1; i < n; i++)  /* a span has one or two statements: insertion sort */
        for (size_t j = i; j > 0 && by_line(&ids[j - 1], &ids[j], t) > 0; j--) {
            size_t x = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = x;
        }
}

static int same_set(const fst_stmt_tab *t, const fst_stmt_span *s, const size_t *act, size_t n)
{
    if (s->n != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (t->ids[s->first + i] != act[i])
            return 0;
    return 1;
}

/* Each span's group: the first span with the same statements. */
static void set_groups(fst_stmt_tab *t)
{
    size_t *first = fst_xcalloc(t->ns + 1, sizeof *first);
    for (size_t i = 0; i < t->ns; i++)
        first[i] = SIZE_MAX;
    for (size_t i = 0; i < t->nsp; i++) {
        fst_stmt_span *s = &t->sp[i];
        if (s->n == 1) {
            size_t *f = &first[t->ids[s->first]];
            s->group = *f == SIZE_MAX ? (*f = i) : *f;
            continue;
        }
        for (size_t j = 0; j < i; j++)  /* shared spans are few */
            if (t->sp[j].group == j && same_set(t, &t->sp[j], t->ids + s->first, s->n)) {
                s->group = j;
                break;
            }
    }
    free(first);
}

void fst_stmt_build_spans(fst_stmt_tab *t)
{
    size_t np = 2 * t->nr, nact = 0;
    fst_stmt_point *p = fst_xcalloc(np + 1, sizeof *p);
    for (size_t i = 0; i < t->nr; i++) {
        uint64_t base = t->u[t->s[t->r[i].stmt].unit].base;
        p[2 * i] = (fst_stmt_point){ t->r[i].lo + base, 1, t->r[i].stmt };
        p[2 * i + 1] = (fst_stmt_point){ t->r[i].hi + base, 0, t->r[i].stmt };
    }
    if (np)
        qsort(p, np, sizeof *p, by_point);
    size_t *act = fst_xcalloc(t->nr + 1, sizeof *act), spcap = 0, idcap = 0;
    size_t *sorted = fst_xcalloc(t->nr + 1, sizeof *sorted);
    t->nsp = t->nids = 0;
    for (size_t i = 0; i < np; i++) {
        if (p[i].start) {
            size_t k = 0;   /* one statement claiming a range twice counts once */
            while (k < nact && act[k] != p[i].stmt)
                k++;
            if (k == nact)
                act[nact] = p[i].stmt;
            nact++;
        } else {
            for (size_t k = nact; k-- > 0;)
                if (act[k] == p[i].stmt) {
                    memmove(act + k, act + k + 1, (nact - k - 1) * sizeof *act);
                    nact--;
                    break;
                }
        }
        if (i + 1 == np || p[i + 1].at == p[i].at || !nact)
            continue;
        /* [p[i].at, p[i+1].at) is claimed by the distinct statements active */
        size_t n = 0;
        for (size_t k = 0; k < nact; k++) {
            size_t j = 0;
            while (j < n && sorted[j] != act[k])
                j++;
            if (j == n)
                sorted[n++] = act[k];
        }
        sort_ids(sorted, n, t);
        fst_stmt_span *last = t->nsp ? &t->sp[t->nsp - 1] : NULL;
        if (last && last->hi == p[i].at && same_set(t, last, sorted, n)) {
            last->hi = p[i + 1].at;
            continue;
        }
        GROW(t->sp, t->nsp, spcap);
        while (t->nids + n > idcap) {
            idcap = idcap ? 2 * idcap : 256;
            t->ids = fst_xrealloc(t->ids, idcap * sizeof *t->ids);
        }
        memcpy(t->ids + t->nids, sorted, n * sizeof *sorted);
        t->sp[t->nsp] = (fst_stmt_span){ p[i].at, p[i + 1].at, t->nids, n, t->nsp };
        t->nids += n;
        t->nsp++;
    }
    set_groups(t);
    free(sorted);
    free(act);
    free(p);
}

/* ---- lookups ---- */

const fst_stmt_span *fst_stmt_find(const fst_stmt_tab *t, uint64_t addr)
{
    size_t lo = 0, hi = t->nsp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->sp[mid].hi <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nsp && t->sp[lo].lo <= addr ? &t->sp[lo] : NULL;
}

size_t fst_stmt_nspans(const fst_stmt_tab *t) { return t->nsp; }
const fst_stmt_span *fst_stmt_span_at(const fst_stmt_tab *t, size_t i) { return &t->sp[i]; }
const fst_stmt *fst_stmt_of(const fst_stmt_tab *t, const fst_stmt_span *s, size_t k) { return &t->s[t->ids[s->first + k]]; }
size_t fst_stmt_id(const fst_stmt_tab *t, const fst_stmt_span *s, size_t k) { return t->ids[s->first + k]; }
size_t fst_stmt_count(const fst_stmt_tab *t) { return t->ns; }
const fst_stmt *fst_stmt_at(const fst_stmt_tab *t, size_t id) { return &t->s[id]; }
size_t fst_stmt_nunits(const fst_stmt_tab *t) { return t->nu; }
const fst_stmt_unit *fst_stmt_unit_at(const fst_stmt_tab *t, size_t i) { return &t->u[i]; }
