/* model/map_csv.c — CSV maps: `name,type,origin,length`, read with libcsv.
**
** What fst-map prints reads back to the same model: an optional header row, then per module
** a `MEMBER,MODULE,LOADPOINT,TOTAL` row (LOADPOINT 0 when the origins are module-relative;
** otherwise they are absolute and are made relative here), an optional `NAME,EP,ENTRY,`
** row, and symbol rows. Types: SD (or CSECT), PC (PRIVATE), CM (COMMON), LR (LD, LABEL,
** ENTRY), PR; case does not matter. Origin and length are hex, with or without 0x; length is
** empty for labels, which are tied to the section holding them, and for a section whose
** length is unknown (it reaches to the next section, the last one to TOTAL LENGTH or, with
** none, it is open-ended). Rows before any MODULE row make one unnamed module. Columns
** after the fourth are ignored.
*/
#include "model/progmodel.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NONE ((size_t)-1)
#define MAXF 8

typedef struct ctx {
    fst_pm *pm;
    const char *file;
    const fst_pm_opts *opts;
    fst_err *err;
    int failed;
    unsigned long line;        /* line being fed to the parser */
    char *f[MAXF];             /* fields of the row being read */
    size_t nf;
    size_t rows;
    int open;                  /* a module is open */
    uint64_t lp;               /* its MODULE origin: nonzero when origins are absolute */
} ctx;

static const struct { const char *name; int type; } types[] = {
    { "SD", FST_PM_SD }, { "CSECT", FST_PM_SD }, { "PC", FST_PM_PC }, { "PRIVATE", FST_PM_PC },
    { "CM", FST_PM_CM }, { "COMMON", FST_PM_CM }, { "LR", FST_PM_LR }, { "LD", FST_PM_LR },
    { "LABEL", FST_PM_LR }, { "ENTRY", FST_PM_LR }, { "PR", FST_PM_PR },
    { "MODULE", 100 }, { "EP", 101 },
};

static int fail(ctx *x, const char *what, const char *val)
{
    if (!x->failed)
        fst_errf(x->err, "%s:%lu: %s%s%s%s", x->file, x->line, what, val ? " '" : "",
                 val ? val : "", val ? "'" : "");
    x->failed = 1;
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

static int hex(ctx *x, const char *s, const char *what, uint64_t *v)
{
    if (fst_parse_hex(s, strlen(s), v) < 0) {
        char m[64];
        snprintf(m, sizeof m, "bad hex in the %s column:", what);
        return fail(x, m, s);
    }
    return 0;
}

/* Close the open module: check it, then give it the load point its MODULE row named. */
static int finish(ctx *x)
{
    if (!x->open)
        return 0;
    x->open = 0;
    if (fst_pm_end_module(x->pm, 0, x->err) < 0 ||
        (x->lp && fst_pm_set_load_point(x->pm, (int)fst_pm_nmodules(x->pm) - 1, x->lp,
                                        x->err) < 0))
        return x->failed = 1, -1;
    return 0;
}

static void start(ctx *x, const char *name, uint64_t lp)
{
    fst_pm_begin_module(x->pm, FST_MAP_CSV, x->file, name);
    x->open = 1;
    x->lp = lp;
}

/* origin made module-relative */
static int relative(ctx *x, uint64_t o, uint32_t *rel)
{
    if (o < x->lp || o - x->lp > UINT32_MAX) {
        char v[40];
        snprintf(v, sizeof v, "%llX", (unsigned long long)o);
        return fail(x, "origin outside the module's address range:", v);
    }
    *rel = (uint32_t)(o - x->lp);
    return 0;
}

static int symbol_row(ctx *x, const char *name, int type, uint64_t org, const char *lenf)
{
    uint64_t len = 0;
    uint32_t rel = (uint32_t)org;
    if (!*name)
        return fail(x, "a symbol without a name", NULL);
    if (type == FST_PM_PR && !*lenf)
        return fail(x, "no length for pseudo-register", name);
    if (type != FST_PM_LR && !*lenf)
        len = FST_PM_OPEN;
    if (*lenf && hex(x, lenf, "length", &len) < 0)
        return -1;
    if (len > UINT32_MAX || (*lenf && len == FST_PM_OPEN))
        return fail(x, "length too large:", lenf);
    if (type != FST_PM_PR && relative(x, org, &rel) < 0)
        return -1;
    if (type == FST_PM_PR && org > UINT32_MAX)
        return fail(x, "pseudo-register offset too large:", name);
    if (!x->open)
        start(x, x->opts ? x->opts->member : NULL, 0);
    fst_pm_add(x->pm, name, (fst_pm_type)type, rel, (uint32_t)len, 0, 0, NONE, x->line);
    return 0;
}

static int row(ctx *x)
{
    if (x->nf == 1 && !*trim(x->f[0]))
        return 0;                                 /* an empty line */
    char *name = trim(x->f[0]), *type = x->nf > 1 ? trim(x->f[1]) : "";
    if (x->rows++ == 0 && !strcasecmp(name, "name") && !strcasecmp(type, "type"))
        return 0;                                 /* the header */
    if (x->nf < 3)
        return fail(x, "expected name,type,origin,length, got", x->f[0]);
    int t = -1;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcasecmp(type, types[i].name))
            t = types[i].type;
    if (t < 0)
        return fail(x, "unknown type", type);
    uint64_t org;
    const char *lenf = x->nf > 3 ? trim(x->f[3]) : "";
    if (hex(x, trim(x->f[2]), "origin", &org) < 0)
        return -1;
    if (t == 100) {                               /* MODULE: a new module */
        uint64_t total;
        if (finish(x) < 0)
            return -1;
        start(x, *name ? name : NULL, org);
        if (*lenf && hex(x, lenf, "length", &total) < 0)
            return -1;
        if (*lenf)
            fst_pm_set_total(x->pm, (uint32_t)total);
        return 0;
    }
    if (t == 101) {                               /* EP: the entry address */
        uint32_t rel;
        if (!x->open)
            start(x, x->opts ? x->opts->member : NULL, 0);
        if (relative(x, org, &rel) < 0)
            return -1;
        fst_pm_set_entry(x->pm, rel);
        return 0;
    }
    return symbol_row(x, name, t, org, lenf);
}

static void on_field(void *s, size_t len, void *data)
{
    ctx *x = data;
    if (x->nf < MAXF) {
        x->f[x->nf] = fst_xmalloc(len + 1);
        memcpy(x->f[x->nf], s ? s : "", s ? len : 0);
        x->f[x->nf][s ? len : 0] = 0;
    }
    x->nf++;
}

static void on_row(int c, void *data)
{
    ctx *x = data;
    (void)c;
    if (x->nf > MAXF)
        x->nf = MAXF;
    if (!x->failed && x->nf)
        row(x);
    for (size_t i = 0; i < x->nf; i++)
        free(x->f[i]);
    x->nf = 0;
}

int fst_map_read_csv(fst_pm *pm, const char *name, const char *buf, size_t len,
                     const fst_pm_opts *opts, fst_err *err)
{
    ctx x = { .pm = pm, .file = name, .opts = opts, .err = err, .line = 1 };
    size_t keep = fst_pm_nmodules(pm);
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
    for (size_t i = 0; i < len && !x.failed; x.line++) {   /* a line at a time: line numbers */
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - buf) + 1 - i : len - i;
        if (csv_parse(&p, buf + i, n, on_field, on_row, &x) != n)
            fail(&x, csv_strerror(csv_error(&p)), NULL);
        i += n;
    }
    if (!x.failed && csv_fini(&p, on_field, on_row, &x) != 0)
        fail(&x, "the file ends inside a quoted field", NULL);
    csv_free(&p);
    for (size_t i = 0; i < x.nf && i < MAXF; i++)
        free(x.f[i]);
    if (!x.failed && finish(&x) == 0 && fst_pm_nmodules(pm) > keep)
        return 0;
    if (!x.failed)
        fst_errf(err, "%s: no symbols in the CSV map", name);
    fst_pm_abort_module(pm);
    fst_pm_drop_modules(pm, keep);
    return -1;
}
