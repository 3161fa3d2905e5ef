/* model/progmodel.c — the program model: storage, module checks, lookups, CSV output and
** fst_pm_load. The readers are in model/map_*.c, the load-point search in map_match.c. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/progmodel.h"
#include "common/lines.h"
#include "common/quote.h"

#include <pcre2.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

struct fst_pm {
    fst_pm_module *mods;
    size_t nmod, capmod;
    fst_pm_sym *syms;
    size_t nsym, capsym;
    int open;                 /* a module is being built: the last of mods */
    size_t *secs;             /* sections of located modules, by address (find_section) */
    size_t nsecs;
    size_t *starts;           /* every non-PR symbol of located modules, by address */
    size_t nstarts;
    int overlay;              /* some located module has segments: scan, do not bisect */
};

static const char *type_names[] = { "SD", "PC", "CM", "LR", "PR" };
static const char *kind_names[] = { "auto", "iewl", "loader", "cesd", "csv", "nm", "image" };

const char *fst_pm_type_name(fst_pm_type t) { return type_names[t]; }
const char *fst_map_kind_name(fst_map_kind k) { return kind_names[k]; }

int fst_map_kind_parse(const char *s)
{
    for (int i = 0; i < (int)(sizeof kind_names / sizeof *kind_names); i++)
        if (!strcmp(s, kind_names[i]))
            return i;
    return -1;
}

static int is_section(const fst_pm_sym *s) { return s->type <= FST_PM_CM; }

fst_pm *fst_pm_new(void) { return fst_xcalloc(1, sizeof(fst_pm)); }

static void free_module_syms(fst_pm *pm, size_t first)
{
    for (size_t i = first; i < pm->nsym; i++)
        free((char *)pm->syms[i].name);
    pm->nsym = first;
}

static void drop_last_module(fst_pm *pm)
{
    fst_pm_module *m = &pm->mods[pm->nmod - 1];
    free_module_syms(pm, m->first);
    free((char *)m->name);
    free((char *)m->file);
    pm->nmod--;
    pm->open = 0;
}

void fst_pm_free(fst_pm *pm)
{
    if (!pm)
        return;
    while (pm->nmod)
        drop_last_module(pm);
    free(pm->mods);
    free(pm->syms);
    free(pm->secs);
    free(pm->starts);
    free(pm);
}

size_t fst_pm_nmodules(const fst_pm *pm) { return pm->nmod - (size_t)pm->open; }
const fst_pm_module *fst_pm_module_at(const fst_pm *pm, size_t i) { return &pm->mods[i]; }
size_t fst_pm_nsyms(const fst_pm *pm) { return pm->nsym; }
const fst_pm_sym *fst_pm_sym_at(const fst_pm *pm, size_t i) { return &pm->syms[i]; }

int fst_pm_module_find(const fst_pm *pm, const char *name)
{
    for (size_t i = 0; i < fst_pm_nmodules(pm); i++)
        if (pm->mods[i].name && !strcmp(pm->mods[i].name, name))
            return (int)i;
    return -1;
}

/* ---- building ---- */

int fst_pm_begin_module(fst_pm *pm, fst_map_kind kind, const char *file, const char *name)
{
    if (pm->open)
        drop_last_module(pm);
    if (pm->nmod == pm->capmod) {
        pm->capmod = pm->capmod ? 2 * pm->capmod : 4;
        pm->mods = fst_xrealloc(pm->mods, pm->capmod * sizeof *pm->mods);
    }
    fst_pm_module *m = &pm->mods[pm->nmod++];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->file = fst_xstrdup(file ? file : "-");
    m->name = name ? fst_xstrdup(name) : NULL;
    m->first = pm->nsym;
    pm->open = 1;
    return (int)pm->nmod - 1;
}

size_t fst_pm_add(fst_pm *pm, const char *name, fst_pm_type type, uint32_t origin,
                  uint32_t length, uint16_t segment, int autocall, size_t owner,
                  unsigned long line)
{
    if (pm->nsym == pm->capsym) {
        pm->capsym = pm->capsym ? 2 * pm->capsym : 64;
        pm->syms = fst_xrealloc(pm->syms, pm->capsym * sizeof *pm->syms);
    }
    size_t i = pm->nsym++;
    fst_pm_sym *s = &pm->syms[i];
    memset(s, 0, sizeof *s);
    s->name = fst_xstrdup(name);
    s->type = type;
    s->origin = origin;
    s->open_end = type <= FST_PM_CM && length == FST_PM_OPEN;
    s->length = type == FST_PM_LR || s->open_end ? 0 : length;
    s->segment = segment;
    s->autocall = (uint8_t)(autocall != 0);
    s->module = (int)pm->nmod - 1;
    s->file = pm->mods[pm->nmod - 1].file;
    s->index = i;                       /* until sorted: the order of arrival */
    s->section = type == FST_PM_LR ? owner : i;
    s->line = line;
    return i;
}

void fst_pm_set_entry(fst_pm *pm, uint32_t entry)
{
    pm->mods[pm->nmod - 1].has_entry = 1;
    pm->mods[pm->nmod - 1].entry = entry;
}

void fst_pm_set_total(fst_pm *pm, uint32_t total)
{
    pm->mods[pm->nmod - 1].has_total = 1;
    pm->mods[pm->nmod - 1].total = total;
}

void fst_pm_set_name(fst_pm *pm, const char *name)
{
    fst_pm_module *m = &pm->mods[pm->nmod - 1];
    free((char *)m->name);
    m->name = name ? fst_xstrdup(name) : NULL;
}

void fst_pm_abort_module(fst_pm *pm)
{
    if (pm->open)
        drop_last_module(pm);
}

static void reindex(fst_pm *pm);

void fst_pm_drop_modules(fst_pm *pm, size_t keep)
{
    while (pm->nmod > keep)
        drop_last_module(pm);
    reindex(pm);
}

/* Module order: pseudo-registers last, then segment, origin, sections before labels, arrival. */
static int cmp_sym(const void *a, const void *b)
{
    const fst_pm_sym *x = a, *y = b;
    int xp = x->type == FST_PM_PR, yp = y->type == FST_PM_PR;
    if (xp != yp)
        return xp - yp;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    if (x->origin != y->origin)
        return x->origin < y->origin ? -1 : 1;
    int xl = x->type == FST_PM_LR, yl = y->type == FST_PM_LR;
    if (xl != yl)
        return xl - yl;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* "FILE:LINE: " or "FILE: byte N: " for a message about symbol s. */
static const char *where(const fst_pm *pm, const fst_pm_sym *s, int bytes, char *buf, size_t n)
{
    const char *file = pm->mods[s->module].file;
    if (bytes)
        snprintf(buf, n, "%s: byte %lu: ", file, s->line);
    else if (s->line)
        snprintf(buf, n, "%s:%lu: ", file, s->line);
    else
        snprintf(buf, n, "%s: ", file);
    return buf;
}

/* The section of the open module holding a label that came without one: the section of its
** segment that contains it, or one that ends exactly there. */
static size_t find_owner(const fst_pm *pm, const fst_pm_module *m, const fst_pm_sym *l)
{
    size_t at_end = NONE;
    for (size_t i = m->first; i < pm->nsym; i++) {
        const fst_pm_sym *s = &pm->syms[i];
        if (!is_section(s) || s->segment != l->segment || l->origin < s->origin)
            continue;
        if (l->origin - s->origin < s->length || s->open_end)
            return i;
        if (l->origin - s->origin == s->length && at_end == NONE)
            at_end = i;
    }
    return at_end;
}

/* Sort the open module and turn owners (arrival numbers) into indices in module order. */
static void sort_module(fst_pm *pm, fst_pm_module *m)
{
    size_t n = pm->nsym - m->first;
    if (!n)
        return;
    fst_pm_sym *v = pm->syms + m->first;
    qsort(v, n, sizeof *v, cmp_sym);
    size_t *pos = fst_xmalloc((n ? n : 1) * sizeof *pos);
    for (size_t i = 0; i < n; i++)
        pos[v[i].index - m->first] = m->first + i;
    for (size_t i = 0; i < n; i++) {
        v[i].index = m->first + i;
        if (v[i].type != FST_PM_LR)
            v[i].section = v[i].index;
        else if (v[i].section != NONE)
            v[i].section = pos[v[i].section - m->first];
    }
    free(pos);
}

static int check_labels(fst_pm *pm, fst_pm_module *m, int bytes, fst_err *err)
{
    char w[600];
    for (size_t i = m->first; i < pm->nsym; i++) {
        fst_pm_sym *l = &pm->syms[i];
        if (l->type != FST_PM_LR)
            continue;
        if (l->section == NONE)
            l->section = find_owner(pm, m, l);
        if (l->section == NONE)
            return fst_errf(err, "%slabel %s at %" PRIX32 " lies in no control section",
                            where(pm, l, bytes, w, sizeof w), l->name, l->origin);
        const fst_pm_sym *s = &pm->syms[l->section];
        if (!is_section(s))
            return fst_errf(err, "%slabel %s belongs to %s, which is not a control section",
                            where(pm, l, bytes, w, sizeof w), l->name, s->name);
        if (l->origin < s->origin || (l->origin - s->origin > s->length && !s->open_end))
            return fst_errf(err, "%slabel %s at %" PRIX32 " lies outside its section %s (%"
                            PRIX32 "-%" PRIX32 ")", where(pm, l, bytes, w, sizeof w), l->name,
                            l->origin, s->name, s->origin, s->origin + s->length);
    }
    return 0;
}

/* Sections of one segment do not overlap and end within TOTAL LENGTH. */
static int check_sections(fst_pm *pm, fst_pm_module *m, int bytes, fst_err *err)
{
    char w[600];
    const fst_pm_sym *prev = NULL;
    for (size_t i = m->first; i < pm->nsym; i++) {
        const fst_pm_sym *s = &pm->syms[i];
        if (!is_section(s) || s->length == 0)
            continue;
        if ((uint64_t)s->origin + s->length > UINT32_MAX)
            return fst_errf(err, "%ssection %s at %" PRIX32 " length %" PRIX32 " wraps around",
                            where(pm, s, bytes, w, sizeof w), s->name, s->origin, s->length);
        if (prev && prev->segment == s->segment && s->origin < prev->origin + prev->length)
            return fst_errf(err, "%ssection %s at %" PRIX32 " overlaps %s (%" PRIX32 "-%" PRIX32
                            ")", where(pm, s, bytes, w, sizeof w), s->name, s->origin,
                            prev->name, prev->origin, prev->origin + prev->length);
        if (m->has_total && s->origin + s->length > m->total)
            return fst_errf(err, "%ssection %s ends at %" PRIX32 ", past TOTAL LENGTH %" PRIX32,
                            where(pm, s, bytes, w, sizeof w), s->name, s->origin + s->length,
                            m->total);
        prev = s;
    }
    return 0;
}

/* A section without a length ends where the next one of its segment starts, the last one
** at TOTAL LENGTH; with neither it stays open-ended. */
static void close_ends(fst_pm *pm, fst_pm_module *m)
{
    for (size_t i = m->first; i < pm->nsym; i++) {
        fst_pm_sym *s = &pm->syms[i];
        if (!s->open_end)
            continue;
        uint64_t end = m->has_total && m->total > s->origin ? m->total : 0;
        for (size_t j = i + 1; j < pm->nsym; j++) {
            const fst_pm_sym *n = &pm->syms[j];
            if (n->segment != s->segment || n->type == FST_PM_PR)
                break;
            if (is_section(n) && n->origin > s->origin) {
                end = n->origin;
                break;
            }
        }
        if (end) {
            s->length = (uint32_t)(end - s->origin);
            s->open_end = 0;
        }
    }
}

int fst_pm_end_module(fst_pm *pm, int bytes, fst_err *err)
{
    fst_pm_module *m = &pm->mods[pm->nmod - 1];
    m->count = pm->nsym - m->first;
    sort_module(pm, m);
    close_ends(pm, m);
    if (check_labels(pm, m, bytes, err) < 0 || check_sections(pm, m, bytes, err) < 0) {
        drop_last_module(pm);
        return -1;
    }
    if (m->has_entry && m->has_total && m->total && m->entry >= m->total) {
        fst_errf(err, "%s: ENTRY ADDRESS %" PRIX32 " lies outside the module (TOTAL LENGTH %"
                 PRIX32 ")", m->file, m->entry, m->total);
        drop_last_module(pm);
        return -1;
    }
    pm->open = 0;
    for (size_t i = m->first; i < pm->nsym; i++)
        pm->syms[i].addr = pm->syms[i].origin;
    reindex(pm);
    return 0;
}

/* ---- load points and the address index ---- */

/* Bytes the module spans from its origin: TOTAL LENGTH, or the end of its last section. */
static uint64_t module_extent(const fst_pm *pm, const fst_pm_module *m)
{
    uint64_t end = m->has_total ? m->total : 0;
    for (size_t i = m->first; i < m->first + m->count; i++) {
        const fst_pm_sym *s = &pm->syms[i];
        if (is_section(s) && (uint64_t)s->origin + s->length > end)
            end = (uint64_t)s->origin + s->length;
    }
    return end;
}

static const fst_pm_sym *idx_syms;   /* for cmp_idx: qsort has no context argument */
static int cmp_idx(const void *a, const void *b)
{
    const fst_pm_sym *x = &idx_syms[*(const size_t *)a], *y = &idx_syms[*(const size_t *)b];
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void reindex(fst_pm *pm)
{
    free(pm->secs);
    free(pm->starts);
    pm->secs = fst_xmalloc((pm->nsym + 1) * sizeof *pm->secs);
    pm->starts = fst_xmalloc((pm->nsym + 1) * sizeof *pm->starts);
    pm->nsecs = pm->nstarts = 0;
    pm->overlay = 0;
    for (size_t k = 0; k < fst_pm_nmodules(pm); k++) {
        const fst_pm_module *m = &pm->mods[k];
        if (!m->has_load_point)
            continue;
        for (size_t i = m->first; i < m->first + m->count; i++) {
            const fst_pm_sym *s = &pm->syms[i];
            if (s->type == FST_PM_PR)
                continue;
            pm->overlay |= s->segment > 1;
            pm->starts[pm->nstarts++] = i;
            if (is_section(s) && (s->length || s->open_end))
                pm->secs[pm->nsecs++] = i;
        }
    }
    idx_syms = pm->syms;
    qsort(pm->secs, pm->nsecs, sizeof *pm->secs, cmp_idx);
    qsort(pm->starts, pm->nstarts, sizeof *pm->starts, cmp_idx);
}

static int resolve_module(const fst_pm *pm, int module, fst_err *err)
{
    size_t n = fst_pm_nmodules(pm);
    if (module < 0) {
        if (n != 1)
            return fst_errf(err, n ? "the program model has %zu modules: say which one"
                                   : "the program model is empty", n);
        return 0;
    }
    if ((size_t)module >= n)
        return fst_errf(err, "no module %d in the program model", module);
    return module;
}

/* "module NAME" or "the module from FILE", for messages. */
static const char *label(const fst_pm_module *m, char *buf, size_t n)
{
    if (m->name)
        snprintf(buf, n, "module %s", m->name);
    else
        snprintf(buf, n, "the module from %s", m->file);
    return buf;
}

static int check_overlap(const fst_pm *pm, size_t k, uint64_t lp, uint64_t ext, fst_err *err)
{
    const fst_pm_module *m = &pm->mods[k];
    if (lp + ext < lp)
        return fst_errf(err, "%s: load point %" PRIX64 " makes the module wrap around", m->file,
                        lp);
    for (size_t j = 0; j < fst_pm_nmodules(pm); j++) {
        const fst_pm_module *o = &pm->mods[j];
        if (j == k || !o->has_load_point || !ext)
            continue;
        uint64_t oe = module_extent(pm, o);
        char l1[300], l2[300];
        if (oe && lp < o->load_point + oe && o->load_point < lp + ext)
            return fst_errf(err, "%s: %s at %" PRIX64 "-%" PRIX64 " overlaps %s at %" PRIX64
                            "-%" PRIX64, m->file, label(m, l1, sizeof l1), lp, lp + ext,
                            label(o, l2, sizeof l2), o->load_point, o->load_point + oe);
    }
    return 0;
}

int fst_pm_set_load_point(fst_pm *pm, int module, uint64_t load_point, fst_err *err)
{
    int k = resolve_module(pm, module, err);
    if (k < 0)
        return -1;
    fst_pm_module *m = &pm->mods[k];
    if (check_overlap(pm, (size_t)k, load_point, module_extent(pm, m), err) < 0)
        return -1;
    m->has_load_point = 1;
    m->load_point = load_point;
    for (size_t i = m->first; i < m->first + m->count; i++) {
        fst_pm_sym *s = &pm->syms[i];
        s->addr = s->type == FST_PM_PR ? s->origin : load_point + s->origin;
    }
    reindex(pm);
    return 0;
}

void fst_pm_bound_by_image(fst_pm *pm, const fst_image_seg *segs, size_t nseg)
{
    for (size_t i = 0; i < pm->nsym; i++) {
        fst_pm_sym *s = &pm->syms[i];
        if (!s->open_end || !pm->mods[s->module].has_load_point)
            continue;
        for (size_t k = nseg; k-- > 0;)     /* a later piece overlays an earlier one */
            if (s->addr >= segs[k].addr && s->addr - segs[k].addr < segs[k].len) {
                uint64_t n = segs[k].addr + segs[k].len - s->addr;
                s->length = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
                s->open_end = 0;
                break;
            }
    }
    reindex(pm);
}

int fst_pm_merge(fst_pm *dst, const fst_pm *src, fst_err *err)
{
    size_t base = dst->nmod, n = fst_pm_nmodules(src);
    for (size_t k = 0; k < n; k++) {
        const fst_pm_module *m = &src->mods[k];
        fst_pm_begin_module(dst, m->kind, m->file, m->name);
        fst_pm_module *d = &dst->mods[dst->nmod - 1];
        d->has_entry = m->has_entry, d->entry = m->entry;
        d->has_total = m->has_total, d->total = m->total;
        for (size_t i = m->first; i < m->first + m->count; i++) {
            const fst_pm_sym *s = &src->syms[i];
            size_t owner = s->type == FST_PM_LR ? s->section - m->first + d->first : NONE;
            fst_pm_add(dst, s->name, s->type, s->origin, s->open_end ? FST_PM_OPEN : s->length,
                       s->segment, s->autocall, owner, s->line);
        }
        dst->open = 0;
        d->count = dst->nsym - d->first;
        for (size_t i = d->first; i < dst->nsym; i++)
            dst->syms[i].addr = dst->syms[i].origin;
        if (m->has_load_point && fst_pm_set_load_point(dst, (int)(dst->nmod - 1),
                                                       m->load_point, err) < 0) {
            while (dst->nmod > base)
                drop_last_module(dst);
            reindex(dst);
            return -1;
        }
    }
    reindex(dst);
    return 0;
}

/* ---- lookups ---- */

/* Index of the last entry of idx (n entries) whose address is <= abs, or NONE. */
static size_t last_at_or_below(const fst_pm *pm, const size_t *idx, size_t n, uint64_t abs)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pm->syms[idx[mid]].addr <= abs)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : NONE;
}

static int holds(const fst_pm_sym *s, uint64_t abs)
{
    return abs >= s->addr && (abs - s->addr < s->length || s->open_end);
}

const fst_pm_sym *fst_pm_find_section(const fst_pm *pm, uint64_t abs)
{
    if (pm->overlay) {     /* segments overlap: the lowest segment holding abs */
        const fst_pm_sym *best = NULL;
        for (size_t i = 0; i < pm->nsecs; i++) {
            const fst_pm_sym *s = &pm->syms[pm->secs[i]];
            if (holds(s, abs) && (!best || s->segment < best->segment))
                best = s;
        }
        return best;
    }
    size_t i = last_at_or_below(pm, pm->secs, pm->nsecs, abs);
    if (i == NONE || !holds(&pm->syms[pm->secs[i]], abs))
        return NULL;
    return &pm->syms[pm->secs[i]];
}

const fst_pm_sym *fst_pm_find_addr(const fst_pm *pm, uint64_t abs)
{
    const fst_pm_sym *sec = fst_pm_find_section(pm, abs);
    if (!sec)
        return NULL;
    const fst_pm_module *m = &pm->mods[sec->module];
    const fst_pm_sym *best = sec;
    for (size_t j = sec->index + 1; j < m->first + m->count; j++) {
        const fst_pm_sym *l = &pm->syms[j];
        if (l->type == FST_PM_PR || l->segment != sec->segment || l->addr > abs)
            break;
        if (l->type == FST_PM_LR && l->section == sec->index && l->origin > sec->origin)
            best = l;
    }
    return best;
}

const fst_pm_sym *fst_pm_find_entry(const fst_pm *pm, uint64_t abs)
{
    size_t i = last_at_or_below(pm, pm->starts, pm->nstarts, abs);
    if (i == NONE || pm->syms[pm->starts[i]].addr != abs)
        return NULL;
    while (i > 0 && pm->syms[pm->starts[i - 1]].addr == abs)
        i--;
    return &pm->syms[pm->starts[i]];
}

const fst_pm_sym *fst_pm_find_name(const fst_pm *pm, const char *name)
{
    for (size_t i = 0; i < pm->nsym; i++)
        if (pm->syms[i].module < (int)fst_pm_nmodules(pm) && !strcmp(pm->syms[i].name, name))
            return &pm->syms[i];
    return NULL;
}

const fst_pm_sym *fst_pm_mainline(const fst_pm *pm, int module)
{
    int k = resolve_module(pm, module < 0 ? 0 : module, NULL);
    if (k < 0 || (size_t)k >= fst_pm_nmodules(pm) || !pm->mods[k].has_entry)
        return NULL;
    const fst_pm_module *m = &pm->mods[k];
    const fst_pm_sym *best = NULL;
    for (size_t i = m->first; i < m->first + m->count; i++) {
        const fst_pm_sym *s = &pm->syms[i];
        if (s->type != FST_PM_PR && s->origin == m->entry && (!best || s->segment < best->segment))
            best = s;
    }
    return best;
}

/* ---- CSV output ---- */

static void write_module(const fst_pm *pm, const fst_pm_module *m, FILE *f, uint64_t lp)
{
    fst_csv_field(f, m->name ? m->name : "");
    fprintf(f, ",MODULE,%" PRIX64 ",", lp);
    if (m->has_total)
        fprintf(f, "%" PRIX32, m->total);
    fputc('\n', f);
    if (m->has_entry) {
        const fst_pm_sym *ep = fst_pm_mainline(pm, (int)(m - pm->mods));
        fst_csv_field(f, ep ? ep->name : m->name ? m->name : "");
        fprintf(f, ",EP,%" PRIX64 ",\n", lp + m->entry);
    }
    for (size_t i = m->first; i < m->first + m->count; i++) {
        const fst_pm_sym *s = &pm->syms[i];
        fst_csv_field(f, s->name);
        uint64_t o = s->type == FST_PM_PR ? s->origin : lp + s->origin;
        fprintf(f, ",%s,%" PRIX64 ",", type_names[s->type], o);
        if (s->type != FST_PM_LR && !s->open_end)
            fprintf(f, "%" PRIX32, s->length);
        fputc('\n', f);
    }
}

int fst_pm_write_csv(const fst_pm *pm, FILE *f, int absolute, fst_err *err)
{
    char l[300];
    for (size_t k = 0; absolute && k < fst_pm_nmodules(pm); k++)
        if (!pm->mods[k].has_load_point)
            return fst_errf(err, "%s: %s has no load point", pm->mods[k].file,
                            label(&pm->mods[k], l, sizeof l));
    fputs("name,type,origin,length\n", f);
    for (size_t k = 0; k < fst_pm_nmodules(pm); k++)
        write_module(pm, &pm->mods[k], f, absolute ? pm->mods[k].load_point : 0);
    if (ferror(f))
        return fst_errno(err, "writing the program model");
    return 0;
}

/* ---- loading ---- */

/* "PATH(MEMBER)" that is not a file: split it, as MVS names a PDS member. */
static int split_member(const char *path, char **file, char **member)
{
    size_t n = strlen(path);
    const char *lp = strrchr(path, '(');
    if (n < 3 || path[n - 1] != ')' || !lp || lp == path || lp + 1 == path + n - 1)
        return 0;
    *file = fst_xstrdup(path);
    (*file)[lp - path] = 0;
    *member = fst_xstrdup(lp + 1);
    (*member)[path + n - 2 - lp] = 0;
    return 1;
}

int fst_pm_load(fst_pm *pm, const char *path, const fst_pm_opts *opts, fst_err *err)
{
    fst_pm_opts o = opts ? *opts : (fst_pm_opts){ 0 };
    char *file = NULL, *member = NULL;
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f && errno == ENOENT && split_member(path, &file, &member)) {
        f = fopen(file, "rb");
        o.member = member;
    }
    if (!f) {
        fst_errno(err, "%s", file ? file : path);
        free(file), free(member);
        return -1;
    }
    size_t len;
    char *buf = NULL;
    int rc = fst_read_all(f, file ? file : path, "map", FST_PM_MAX_BYTES, &buf, &len, err);
    if (f != stdin)
        fclose(f);
    if (rc == 0)
        rc = fst_pm_load_mem(pm, file ? file : path, buf, len, &o, err);
    free(buf), free(file), free(member);
    return rc;
}

/* ---- telling the kinds apart ---- */

static int cesd_at(const uint8_t *p, size_t avail)
{
    if (avail < 8 || (p[0] & 0xF7) != 0x20)
        return 0;
    unsigned id = (unsigned)p[4] << 8 | p[5], cnt = (unsigned)p[6] << 8 | p[7];
    return id >= 1 && cnt && cnt % 16 == 0 && cnt <= 240;
}

static fst_rx rx_csv_head = { "^\\s*\"?name\"?\\s*,\\s*\"?type\"?\\s*,", PCRE2_CASELESS, 0, 0 };
static fst_rx rx_csv_row = FST_RX("^[^,]+,\\s*[A-Za-z]+\\s*,\\s*(0[xX])?[0-9A-Fa-f]+\\s*,");
static fst_rx rx_nm_posix = FST_RX("^\\S+ [A-Za-z?-] [0-9a-fA-F]+( [0-9a-fA-F]+)? *$");
static fst_rx rx_nm_bsd = FST_RX("^([0-9a-fA-F]+ ){1,2}[A-Za-z?-] \\S+$|^ +[Uw] \\S+$");

/* memmem is a GNU extension; the build asks for POSIX only. */
static int contains(const char *s, size_t n, const char *pat)
{
    size_t m = strlen(pat);
    for (size_t i = 0; i + m <= n; i++)
        if (s[i] == pat[0] && !memcmp(s + i, pat, m))
            return 1;
    return 0;
}

/* The first line that holds something other than blanks, without its line end. */
static const char *first_line(const char *s, size_t len, size_t *n)
{
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && s[j] != '\n')
            j++;
        size_t e = j;
        while (e > i && (s[e - 1] == '\r' || s[e - 1] == ' ' || s[e - 1] == '\t'))
            e--;
        if (e > i) {
            *n = e - i;
            return s + i;
        }
        i = j + 1;
    }
    return NULL;
}

fst_map_kind fst_map_detect(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    if (cesd_at(p, len))
        return FST_MAP_CESD;
    if (len >= 12 && !p[2] && !p[3] && cesd_at(p + 4, len - 4) &&
        (size_t)(p[0] << 8 | p[1]) == 12u + (size_t)(p[10] << 8 | p[11]))
        return FST_MAP_CESD;   /* records with RDWs */
    const char *s = buf;
    size_t scan = len < (1u << 20) ? len : (1u << 20);
    if (contains(s, scan, "NAME  TYPE  ADDR"))
        return FST_MAP_LOADER;
    if (contains(s, scan, "LINKAGE EDITOR") || contains(s, scan, "MODULE MAP") ||
        contains(s, scan, "CROSS REFERENCE TABLE"))
        return FST_MAP_IEWL;
    size_t n;
    const char *l = first_line(s, scan, &n);
    long ov[2];
    if (!l)
        return FST_MAP_AUTO;
    if (fst_rx_match(&rx_csv_head, l, n, ov, 1) || fst_rx_match(&rx_csv_row, l, n, ov, 1))
        return FST_MAP_CSV;
    if (fst_rx_match(&rx_nm_posix, l, n, ov, 1) || fst_rx_match(&rx_nm_bsd, l, n, ov, 1) ||
        (n > 1 && l[n - 1] == ':' && !memchr(l, ' ', n)))
        return FST_MAP_NM;
    return FST_MAP_AUTO;
}

int fst_pm_load_mem(fst_pm *pm, const char *name, const void *buf, size_t len,
                    const fst_pm_opts *opts, fst_err *err)
{
    fst_pm_opts o = opts ? *opts : (fst_pm_opts){ 0 };
    fst_map_kind k = o.kind ? o.kind : fst_map_detect(buf, len);
    switch (k) {
    case FST_MAP_IEWL:   return fst_map_read_iewl(pm, name, buf, len, &o, err);
    case FST_MAP_LOADER: return fst_map_read_loader(pm, name, buf, len, &o, err);
    case FST_MAP_CESD:   return fst_map_read_cesd(pm, name, buf, len, &o, err);
    case FST_MAP_CSV:    return fst_map_read_csv(pm, name, buf, len, &o, err);
    case FST_MAP_NM:     return fst_map_read_nm(pm, name, buf, len, &o, err);
    case FST_MAP_IMAGE:
        return fst_errf(err, "%s: a storage image is scanned with fst_pm_from_image", name);
    default:
        if (len >= 4 && !memcmp(buf, "\177ELF", 4))
            return fst_errf(err, "%s: an ELF file: give its symbols as `nm -P %s` prints "
                            "them", name, name);
        return fst_errf(err, "%s: %s", name, len ? "not a map fst knows (IEWL or loader listing, "
                        "load module, CSV, nm output); `fst-map --kind=KIND FILE` reads it as one kind and "
                        "says what does not fit" : "empty file");
    }
}
