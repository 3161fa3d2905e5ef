/*
** analyze/cost/clock_load.c — reading a model table (the CSV format of clock.h) with libcsv:
** rows, class rows, file:line errors. fst_clock_resolve (costrule.c) then prices what
** the table has no row for.
*/
#include "analyze/cost/clock_int.h"
#include "common/lines.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- op ids by name ---- */

/* Over the names with bit 5 cleared, which folds the letters' case (and maps a few other
** bytes together, which only costs a comparison) without a test per character. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ ((unsigned char)*s & 0xDFu)) * 16777619u;
    return h;
}

void fst_opnames_init(fst_opnames *ix)
{
    enum { MASK = sizeof ix->slot / sizeof ix->slot[0] - 1 };
    memset(ix->slot, 0, sizeof ix->slot);
    unsigned nops = fst_op_count();
    for (unsigned op = 1; op < nops; op++) {
        const char *name = fst_op_info(op)->mnem;
        uint32_t h = name_hash(name);
        unsigned i = h & MASK;
        while (ix->slot[i])
            i = (i + 1) & MASK;
        ix->slot[i] = (uint16_t)op;
        ix->hash[i] = h;
    }
}

int fst_opnames_find(const fst_opnames *ix, const char *mnem)
{
    enum { MASK = sizeof ix->slot / sizeof ix->slot[0] - 1 };
    uint32_t h = name_hash(mnem);
    for (unsigned i = h & MASK; ix->slot[i]; i = (i + 1) & MASK) {
        if (ix->hash[i] != h)
            continue;
        const char *name = fst_op_info(ix->slot[i])->mnem; /* mostly in the same (upper) case */
        if (!strcmp(name, mnem) || !strcasecmp(name, mnem))
            return ix->slot[i];
    }
    return -1;
}

/* isdigit in the C locale, without the table */
static inline int digit(char c) { return (unsigned)((unsigned char)c - '0') < 10u; }

/* Decimal nanoseconds ("57.2", "-1937.3") to picoseconds, rounded half away from zero
** at the picosecond. At most 1 second either way. */
static int parse_ps(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = 0, digits = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    int64_t ip = 0;
    for (; digit(*p); p++, digits++) {
        if (ip > INT64_C(10000000000))
            return -2; /* keep going would overflow; far out of range anyway */
        ip = ip * 10 + (*p - '0');
    }
    int64_t frac = 0;
    int nfrac = 0, up = 0;
    if (*p == '.') {
        for (p++; digit(*p); p++, digits++, nfrac++) {
            if (nfrac < 3)
                frac = frac * 10 + (*p - '0');
            else if (nfrac == 3)
                up = *p >= '5';
        }
    }
    if (!digits || *p)
        return -1;
    for (int k = nfrac; k < 3; k++)
        frac *= 10;
    int64_t ps = ip * 1000 + frac + up;
    if (ps > INT64_C(1000000000000)) /* 1 s */
        return -2;
    *out = neg ? -ps : ps;
    return 0;
}

/* ---- the model table ---- */

enum { COL_MNEM, COL_OPCODE, COL_VARIANT, COL_UNIT, COL_BASE, COL_PER, COL_SOURCE, NCOL };
static const char *const colname[NCOL] = {
    "mnemonic", "opcode", "variant", "unit", "base_ns", "per_unit_ns", "source",
};

typedef struct loader {
    const char *path;
    fst_clock *c;
    fst_err *err;
    int failed;
    unsigned line;      /* physical line being read */
    unsigned rec_line;  /* the line the current record started on */
    char **f;           /* the current record's fields, trimmed (pointers into rec) */
    size_t nf, cap;
    char *rec;          /* their text, one after another, each with its NUL: no allocation */
    size_t reclen, reccap; /* per field (a table of 300 rows had 2100 malloc/free pairs) */
    size_t *off;        /* where each field starts in rec while the record is read */
    int have_header;
    size_t ncols;
    int col[NCOL];      /* field index of each known column, -1 when absent */
    size_t nrows;
    fst_opnames *names; /* op ids by mnemonic */
} loader;

/* Record the first error, naming the file and the record's line; returns -1. */
static int lfail(loader *ld, const char *fmt, ...) FST_PRINTF(2, 3);
static int lfail(loader *ld, const char *fmt, ...)
{
    if (ld->failed)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fst_errf(ld->err, "%s:%u: %s", ld->path, ld->rec_line, msg);
    ld->failed = 1;
    return -1;
}

/* isspace in the C locale, without a call */
static inline int space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static char *trim(char *s)
{
    while (space((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && space((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static void on_field(void *s, size_t len, void *data)
{
    loader *ld = data;
    if (ld->nf == ld->cap) {
        ld->cap = ld->cap ? 2 * ld->cap : 16;
        ld->f = fst_xrealloc(ld->f, ld->cap * sizeof *ld->f);
        ld->off = fst_xrealloc(ld->off, ld->cap * sizeof *ld->off);
    }
    if (ld->reccap - ld->reclen < len + 1) {
        ld->reccap = 2 * (ld->reclen + len + 1) + 256;
        ld->rec = fst_xrealloc(ld->rec, ld->reccap);
    }
    if (len)
        memcpy(ld->rec + ld->reclen, s, len);
    ld->rec[ld->reclen + len] = 0;
    ld->off[ld->nf++] = ld->reclen;
    ld->reclen += len + 1;
}

static int do_header(loader *ld)
{
    for (int k = 0; k < NCOL; k++)
        ld->col[k] = -1;
    for (size_t i = 0; i < ld->nf; i++) {
        const char *name = ld->f[i];
        for (int k = 0; k < NCOL; k++) {
            if (strcasecmp(name, colname[k]))
                continue;
            if (ld->col[k] >= 0)
                return lfail(ld, "column '%s' appears twice in the header", colname[k]);
            ld->col[k] = (int)i;
        }
    }
    if (ld->col[COL_MNEM] < 0)
        return lfail(ld, "missing column 'mnemonic' in the header (it needs at least "
                     "mnemonic and base_ns)");
    if (ld->col[COL_BASE] < 0)
        return lfail(ld, "missing column 'base_ns' in the header (it needs at least "
                     "mnemonic and base_ns)");
    ld->ncols = ld->nf;
    ld->have_header = 1;
    return 0;
}

static const char *field(loader *ld, int k)
{
    return ld->col[k] < 0 ? "" : ld->f[ld->col[k]];
}

static const char *const unitname[] = { "-", "byte", "reg", "digit" };
static const char *const variantname[] = { "(no variant)", "taken", "not-taken" };

/* A class row: "@vector,,,-,57.2,0,why": the figure of a class rule (costrule.h). */
static int do_class_row(loader *ld, const char *mn)
{
    const char *const *names = fst_cost_classes();
    int k = 0;
    while (names[k] && strcasecmp(names[k], mn))
        k++;
    if (!names[k])
        return lfail(ld, "unknown class '%s' (the classes are @control, @fp and @vector)", mn);
    if (*field(ld, COL_OPCODE) || *field(ld, COL_VARIANT))
        return lfail(ld, "class row %s: no opcode and no variant", names[k]);
    const char *us = field(ld, COL_UNIT), *bs = field(ld, COL_BASE), *ps = field(ld, COL_PER);
    if (*us && strcmp(us, "-"))
        return lfail(ld, "class row %s: unit '%s', a class row is flat (-)", names[k], us);
    int64_t base, per = 0;
    int rc = parse_ps(bs, &base);
    if (rc < 0 || base < 0)
        return lfail(ld, "class row %s: bad base_ns '%s'", names[k], bs);
    if (*ps && (parse_ps(ps, &per) < 0 || per != 0))
        return lfail(ld, "class row %s: per_unit_ns must be 0", names[k]);
    row *r = &ld->c->cls[k];
    if (r->set)
        return lfail(ld, "duplicate class row %s (first at line %u)", names[k], r->line);
    *r = (row){ .base_ps = base, .flat = ps_to_fx(base), .unit = U_NONE, .set = 1, .line = ld->rec_line };
    return 0;
}

static int do_row(loader *ld)
{
    if (ld->nf != ld->ncols)
        return lfail(ld, "%zu fields, the header has %zu", ld->nf, ld->ncols);

    const char *mn = field(ld, COL_MNEM);
    if (!*mn)
        return lfail(ld, "empty mnemonic");
    if (*mn == '@')
        return do_class_row(ld, mn);
    int op = fst_opnames_find(ld->names, mn);
    if (op < 0)
        return lfail(ld, "unknown mnemonic '%s' (the decoder has no such instruction)", mn);
    const fst_opinfo *oi = fst_op_info((unsigned)op);

    const char *code = field(ld, COL_OPCODE);
    if (*code && strcasecmp(code, oi->code))
        return lfail(ld, "opcode %s does not match %s (%s)", code, oi->mnem, oi->code);

    const char *vs = field(ld, COL_VARIANT);
    int var;
    if (!*vs)
        var = V_ANY;
    else if (!strcasecmp(vs, "taken"))
        var = V_TAKEN;
    else if (!strcasecmp(vs, "not-taken") || !strcasecmp(vs, "not taken") ||
             !strcasecmp(vs, "nottaken"))
        var = V_NOT;
    else
        return lfail(ld, "unknown variant '%s' (expected empty, taken or not-taken)", vs);
    if (var != V_ANY && !(oi->flags & FST_I_BRANCH))
        return lfail(ld, "variant '%s' given for %s, which is not a branch", vs, oi->mnem);

    const char *us = field(ld, COL_UNIT);
    int unit = -1;
    if (!*us)
        unit = U_NONE;
    for (int k = 0; k < 4 && unit < 0; k++)
        if (!strcasecmp(us, unitname[k]))
            unit = k;
    if (unit < 0)
        return lfail(ld, "unknown unit '%s' (expected -, byte, reg or digit)", us);
    int applies = unit == U_NONE ||
                  (unit == U_BYTE && (oi->nlen > 0 || (oi->flags & FST_I_REGLEN))) ||
                  (unit == U_REG && (oi->flags & FST_I_REGLIST)) ||
                  (unit == U_DIGIT && oi->nlen == 2);
    if (!applies)
        return lfail(ld, "unit '%s' does not apply to %s (it has no such count)", us, oi->mnem);

    int64_t base, per = 0;
    const char *bs = field(ld, COL_BASE), *ps = field(ld, COL_PER);
    int rc = parse_ps(bs, &base);
    if (rc < 0)
        return lfail(ld, rc == -2 ? "base_ns '%s' out of range (at most 1 s)"
                                  : "bad number '%s' in base_ns", bs);
    if (*ps && (rc = parse_ps(ps, &per)) < 0)
        return lfail(ld, rc == -2 ? "per_unit_ns '%s' out of range (at most 1 s)"
                                  : "bad number '%s' in per_unit_ns", ps);
    if (unit == U_NONE && per != 0)
        return lfail(ld, "per_unit_ns %s given but the unit is '-'", ps);
    if (unit == U_NONE && base < 0)
        return lfail(ld, "negative base_ns %s with no unit", bs);

    entry *e = &ld->c->ents[op];
    row *r = &e->v[var];
    if (r->set)
        return lfail(ld, "duplicate row for %s %s (first at line %u)", oi->mnem,
                     variantname[var], r->line);
    r->set = 1;
    r->line = ld->rec_line;
    r->unit = (uint8_t)unit;
    r->base_ps = base;
    r->per_ps = per;
    r->flat = ps_to_fx(base);
    e->modeled = 1;
    e->digit_l2 = !strcmp(oi->mnem, "UNPK");
    ld->nrows++;
    return 0;
}

static void on_record(int term, void *data)
{
    (void)term;
    loader *ld = data;
    if (!ld->failed) {
        for (size_t i = 0; i < ld->nf; i++)   /* rec no longer moves: trimmed once */
            ld->f[i] = trim(ld->rec + ld->off[i]);
        if (!ld->have_header)
            do_header(ld);
        else
            do_row(ld);
    }
    ld->nf = 0;
    ld->reclen = 0;
}


/* A cost table is a few hundred short rows: bounds that no table reaches, /dev/zero does. */
#define FST_CLOCK_MAX_LINE 4096
#define FST_CLOCK_MAX_BYTES (16u << 20)

fst_clock *fst_clock_load(const char *path, fst_err *err)
{
    fst_lines *fp = fst_lines_open(path, "cost table", FST_CLOCK_MAX_LINE, FST_CLOCK_MAX_BYTES, err);
    if (!fp)
        return NULL;
    fst_clock *c = fst_xcalloc(1, sizeof *c);
    c->kind = FST_CLOCK_MODEL;
    c->nops = fst_op_count();
    c->ents = fst_xcalloc(c->nops, sizeof *c->ents);
    c->unmod = fst_xcalloc(fst_op_count(), sizeof *c->unmod);

    loader ld = { .path = path, .c = c, .err = err, .names = fst_xmalloc(sizeof *ld.names) };
    fst_opnames_init(ld.names);
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fst_errf(err, "%s: cannot initialise the CSV parser", path);
        free(ld.names);
        fst_lines_close(fp);
        fst_clock_free(c);
        return NULL;
    }
    char *buf;
    size_t len;
    int inquote = 0, rc; /* inside a quoted field that spans lines */
    while (!ld.failed && (rc = fst_lines_next(fp, &buf, &len, err)) != 0) {
        if (rc < 0) {
            ld.failed = 1;
            break;
        }
        ld.line++;
        if (!inquote) {
            /* a record starts here: comments and blank lines exist only between records */
            const char *s = buf;
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
                s++;
            if (*s == '#' || !*s)
                continue;
            ld.rec_line = ld.line;
        }
        for (const char *q = buf, *e = buf + len; (q = memchr(q, '"', (size_t)(e - q))) != NULL; q++)
            inquote = !inquote;
        if (csv_parse(&p, buf, len, on_field, on_record, &ld) != len && !ld.failed) {
            ld.rec_line = ld.line; /* a quoting error is on this line */
            lfail(&ld, "malformed CSV: %s", csv_strerror(csv_error(&p)));
        }
    }
    if (!ld.failed && csv_fini(&p, on_field, on_record, &ld) != 0 && !ld.failed)
        lfail(&ld, "malformed CSV: %s", csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(ld.f);
    free(ld.off);
    free(ld.rec);
    fst_lines_close(fp);

    if (!ld.failed && !ld.have_header) {
        fst_errf(err, "%s: no header line (expected mnemonic,opcode,variant,unit,base_ns,"
                 "per_unit_ns,source)", path);
        ld.failed = 1;
    } else if (!ld.failed && !ld.nrows) {
        fst_errf(err, "%s: no cost rows", path);
        ld.failed = 1;
    }
    if (ld.failed) {
        free(ld.names);
        fst_clock_free(c);
        return NULL;
    }
    fst_clock_resolve(c, ld.names);
    free(ld.names);
    c->name = fst_xmalloc(strlen(path) + 7);
    sprintf(c->name, "model:%s", path);
    return c;
}
