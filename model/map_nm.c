/* model/map_nm.c — symbol tables printed by `nm -P` (POSIX: `name type value [size]`) or
** plain `nm`/`nm -S` (BSD: `value [size] type name`) for an ELF built with binutils-s390x.
**
** Text symbols (T, t, W) are routines: one with a size is a section (as an assembler
** `.type`/`.size` pair makes it); one without a size is a label of the sized symbol that holds
** it, or else a section reaching to the next symbol (open-ended when nothing follows: nm
** does not say where the text ends). A sized symbol at the same place and of
** the same size as an earlier one, or inside it, is a label of it (aliases). Data symbols and
** the linker's markers (_etext, _edata, _end, __bss_start) only end the last unsized routine.
** nm prints link-time addresses: the module's load point is the lowest routine address.
*/
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/progmodel.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static fst_rx rx_posix = FST_RX("^(\\S+) ([A-Za-z?-]) ([0-9a-fA-F]+)(?: ([0-9a-fA-F]+))? *$");
static fst_rx rx_bsd = FST_RX("^([0-9a-fA-F]+)(?: ([0-9a-fA-F]+))? ([A-Za-z?-]) (\\S+)$");
static fst_rx rx_undef = FST_RX("^(?:\\S+ [A-Za-z] *| +[A-Za-z] \\S+)$");
static fst_rx rx_file = FST_RX("^\\S+:$");

typedef struct nsym {
    char *name;
    char type;
    uint64_t value, size;
    int sized;
    unsigned long line;
} nsym;

static int is_text(char t) { return t == 'T' || t == 't' || t == 'W'; }

static int is_marker(const char *n)
{
    static const char *m[] = { "_etext", "etext", "__etext", "_edata", "edata", "_end", "end",
                               "__end", "__bss_start", "_GLOBAL_OFFSET_TABLE_", "_DYNAMIC" };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (!strcmp(n, m[i]))
            return 1;
    return !strncmp(n, "__start_", 8) || !strncmp(n, "__stop_", 7);
}

static int cmp_value(const void *a, const void *b)
{
    const nsym *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    if (x->sized != y->sized)               /* the sized one first: it owns the others */
        return y->sized - x->sized;
    return x->line < y->line ? -1 : x->line > y->line;
}

static char *copy(const char *s, long *ov, int g)
{
    size_t n = (size_t)(ov[2 * g + 1] - ov[2 * g]);
    char *r = fst_xmalloc(n + 1);
    memcpy(r, s + ov[2 * g], n);
    r[n] = 0;
    return r;
}

/* One nm line into *s; 1 when it is a symbol, 0 when it is to be skipped, -1 on junk. */
static int parse_line(const fst_map_line *l, nsym *s)
{
    long ov[10];
    int gn, gt, gv, gs;
    if (!l->len || fst_rx_match(&rx_file, l->text, l->len, ov, 1) ||
        fst_rx_match(&rx_undef, l->text, l->len, ov, 1))
        return 0;
    if (fst_rx_match(&rx_posix, l->text, l->len, ov, 5))
        gn = 1, gt = 2, gv = 3, gs = 4;
    else if (fst_rx_match(&rx_bsd, l->text, l->len, ov, 5))
        gn = 4, gt = 3, gv = 1, gs = 2;
    else
        return -1;
    char *v = copy(l->text, ov, gv);
    int bad = fst_parse_hex(v, strlen(v), &s->value) < 0;
    free(v);
    s->sized = ov[2 * gs] >= 0;
    if (s->sized) {
        v = copy(l->text, ov, gs);
        bad |= fst_parse_hex(v, strlen(v), &s->size) < 0;
        free(v);
    }
    if (bad)
        return -1;
    s->type = l->text[ov[2 * gt]];
    s->name = copy(l->text, ov, gn);
    s->line = l->lineno;
    return 1;
}

/* The first address above v[i] where something else begins: a data symbol, a marker, or
** a routine that is not inside a sized one; v[i]'s own address when nothing does. */
static uint64_t next_start(const nsym *v, size_t n, size_t i, const char *inside)
{
    for (size_t j = i + 1; j < n; j++)
        if (v[j].value > v[i].value && (!is_text(v[j].type) || !inside[j]))
            return v[j].value;
    return v[i].value;
}

static int is_routine(const nsym *s) { return is_text(s->type) && !is_marker(s->name); }

/* inside[i] = 1 for a routine that lies in an earlier sized one: a label of it. */
static char *find_labels(const nsym *v, size_t n)
{
    char *inside = fst_xcalloc(n + 1, 1);
    uint64_t ownstart = 0, ownend = 0;
    for (size_t i = 0; i < n; i++) {
        const nsym *s = &v[i];
        if (!is_routine(s))
            continue;
        if (s->value >= ownstart && s->value < ownend &&
            (!s->sized || s->value + s->size <= ownend))
            inside[i] = 1;
        else if (s->sized && s->size) {
            ownstart = s->value;
            ownend = s->value + s->size;
        }
    }
    return inside;
}

/* Add the routines, origins counted from `base`; *maxend: where the furthest one ends, 0
** when the last one is open-ended. */
static int add_routines(fst_pm *pm, const char *file, const nsym *v, size_t n, uint64_t base,
                        uint64_t *maxend, fst_err *err)
{
    char *inside = find_labels(v, n);
    int rc = 0, open = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const nsym *s = &v[i];
        if (!is_routine(s))
            continue;
        if (s->value - base > UINT32_MAX) {
            rc = fst_errf(err, "%s:%lu: %s lies more than 4 GiB above %llX", file, s->line,
                          s->name, (unsigned long long)base);
            break;
        }
        uint64_t end = s->sized && s->size ? s->value + s->size : next_start(v, n, i, inside);
        uint32_t org = (uint32_t)(s->value - base);
        if (inside[i])
            fst_pm_add(pm, s->name, FST_PM_LR, org, 0, 0, 0, NONE, s->line);
        else                 /* nothing after an unsized last routine: it is open-ended */
            fst_pm_add(pm, s->name, FST_PM_SD, org, end > s->value ?
                       (uint32_t)(end - s->value) : FST_PM_OPEN, 0, 0, NONE, s->line);
        open |= !inside[i] && end <= s->value;
        *maxend = end > *maxend ? end : *maxend;
    }
    free(inside);
    if (open)
        *maxend = 0;
    return rc;
}

static int build(fst_pm *pm, const char *file, nsym *v, size_t n, fst_err *err)
{
    uint64_t base = UINT64_MAX, end = 0;
    for (size_t i = 0; i < n; i++)
        if (is_routine(&v[i]) && v[i].value < base)
            base = v[i].value;
    if (base == UINT64_MAX)
        return fst_errf(err, "%s: no text symbols (T, t, W) in the nm output", file);
    if (add_routines(pm, file, v, n, base, &end, err) < 0)
        return -1;
    if (end > base)
        fst_pm_set_total(pm, (uint32_t)(end - base));
    if (fst_pm_end_module(pm, 0, err) < 0)
        return -1;
    return fst_pm_set_load_point(pm, (int)fst_pm_nmodules(pm) - 1, base, err);
}

int fst_map_read_nm(fst_pm *pm, const char *name, const char *buf, size_t len,
                    const fst_pm_opts *opts, fst_err *err)
{
    fst_map_line *lines;
    size_t nl = fst_map_lines(buf, len, &lines), n = 0;
    nsym *v = fst_xcalloc(nl + 1, sizeof *v);
    int rc = 0;
    for (size_t i = 0; i < nl && rc == 0; i++) {
        int r = parse_line(&lines[i], &v[n]);
        if (r < 0)
            rc = fst_errf(err, "%s:%lu: not a line of nm output: '%.60s'", name,
                          lines[i].lineno, lines[i].text);
        n += r > 0;
    }
    fst_map_lines_free(lines, nl);
    if (rc == 0) {
        qsort(v, n, sizeof *v, cmp_value);
        size_t keep = fst_pm_nmodules(pm);
        fst_pm_begin_module(pm, FST_MAP_NM, name, opts ? opts->member : NULL);
        rc = build(pm, name, v, n, err);
        if (rc < 0)
            fst_pm_drop_modules(pm, keep);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
    return rc;
}
