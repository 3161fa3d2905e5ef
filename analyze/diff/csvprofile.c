/*
** analyze/diff/csvprofile.c — CSV inputs of fst-diff, read with libcsv (see diff.h): a csv
** report of fst-report as one side of a comparison, and the batch manifest.
**
** The csv report is checked as it is read, so that a damaged or foreign file is refused
** with its line instead of being compared: the header must name the report's columns,
** numbers must be whole (seconds: at most 9 decimals), routine names unique, and the
** rows must add up as formats/csv.c guarantees (sum(self) + outside + excluded = total,
** in instructions). Errors name file:line.
*/
#include "analyze/diff/diff.h"
#include "common/lines.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- generic: records with their line numbers ---- */

typedef struct reader {
    const fst_csvcb *cb;
    fst_err *err;
    char **f;
    size_t nf, cap;
    size_t rec_line;
    int failed;
} reader;

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    if (r->failed)
        return;
    if (r->nf == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->f = fst_xrealloc(r->f, r->cap * sizeof *r->f);
    }
    char *v = fst_xmalloc(len + 1);
    memcpy(v, s, len);
    v[len] = 0;
    r->f[r->nf++] = v;
}

static void on_record(int c, void *data)
{
    (void)c;
    reader *r = data;
    if (!r->failed && r->cb->record(r->cb->ctx, r->f, r->nf, r->rec_line, r->err) < 0)
        r->failed = 1;
    for (size_t i = 0; i < r->nf; i++)
        free(r->f[i]);
    r->nf = 0;
}

/* One line into the parser; comments and blank lines only between records. */
static int feed(struct csv_parser *p, reader *r, const char *path, char *buf, size_t len, size_t line, int *inquote)
{
    if (!*inquote) {
        const char *s = buf;
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (!*s)
            return 0;
        if (*s == '#') {
            buf[strcspn(buf, "\r\n")] = 0;
            if (r->cb->comment && r->cb->comment(r->cb->ctx, buf, line, r->err) < 0)
                r->failed = 1;
            return r->failed ? -1 : 0;
        }
        r->rec_line = line;
    }
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '"')
            *inquote = !*inquote;
    if (csv_parse(p, buf, len, on_field, on_record, r) != len && !r->failed) {
        fst_errf(r->err, "%s:%zu: malformed CSV: %s", path, line, csv_strerror(csv_error(p)));
        r->failed = 1;
    }
    return r->failed ? -1 : 0;
}

int fst_csv_read(const char *path, const fst_csvcb *cb, fst_err *err)
{
    fst_lines *in = fst_lines_open(path, cb->what ? cb->what : "CSV file", FST_CSV_MAX_LINE, FST_CSV_MAX_BYTES, err);
    if (!in)
        return -1;
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fst_lines_close(in);
        return fst_errf(err, "%s: cannot initialise the CSV parser", path);
    }
    reader r = { cb, err, NULL, 0, 0, 0, 0 };
    char *buf;
    size_t len, line = 0;
    int inquote = 0, rc;
    while (!r.failed && (rc = fst_lines_next(in, &buf, &len, err)) != 0) {
        if (rc < 0) {
            r.failed = 1;
            break;
        }
        line++;
        if (memchr(buf, 0, len)) {
            fst_errf(err, "%s:%zu: a NUL byte: not a text file", path, line);
            r.failed = 1;
            break;
        }
        feed(&p, &r, path, buf, len, line, &inquote);
    }
    if (!r.failed && csv_fini(&p, on_field, on_record, &r) != 0 && !r.failed) {
        fst_errf(err, "%s:%zu: malformed CSV: %s", path, line, csv_strerror(csv_error(&p)));
        r.failed = 1;
    }
    csv_free(&p);
    for (size_t i = 0; i < r.nf; i++)
        free(r.f[i]);
    free(r.f);
    fst_lines_close(in);
    return r.failed ? -1 : 0;
}

/* ---- the csv report ---- */

enum { C_ROUTINE, C_CALLS, C_SELFI, C_INCLI, C_SELFS, C_INCLS, NCOL };
static const char *const colname[NCOL] = { "routine", "calls", "self_instr", "incl_instr", "self_sec", "incl_sec" };

typedef struct prof_rd {
    fst_dside *s;
    const char *path;
    int col[NCOL];
    size_t ncols, cap;
    int have_header, have_total, have_meta;
} prof_rd;

static int whole(const char *t, uint64_t *v)
{
    if (!*t || strspn(t, "0123456789") != strlen(t) || strlen(t) > 19)
        return -1;
    *v = strtoull(t, NULL, 10);
    return 0;
}

/* "12.345678901" -> ns; at most 9 decimals */
static int seconds(const char *t, uint64_t *ns)
{
    const char *dot = strchr(t, '.');
    size_t il = dot ? (size_t)(dot - t) : strlen(t);
    if (!il || il > 9 || strspn(t, "0123456789") != il)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < il; i++)
        v = v * 10 + (uint64_t)(t[i] - '0');
    size_t nd = 0;
    if (dot) {
        const char *d = dot + 1;
        nd = strlen(d);
        if (!nd || nd > 9 || strspn(d, "0123456789") != nd)
            return -1;
    }
    for (size_t k = 0; k < 9; k++)
        v = v * 10 + (k < nd ? (uint64_t)(dot[1 + k] - '0') : 0);
    *ns = v;
    return 0;
}

static int prof_header(prof_rd *pr, char **f, size_t nf, size_t line, fst_err *err)
{
    for (int c = 0; c < NCOL; c++) {
        pr->col[c] = -1;
        for (size_t i = 0; i < nf; i++)
            if (!strcmp(f[i], colname[c]))
                pr->col[c] = (int)i;
        if (pr->col[c] < 0)
            return fst_errf(err, "%s:%zu: no column '%s': not a csv report of fst-report --format=csv", pr->path,
                            line, colname[c]);
    }
    pr->ncols = nf;
    pr->have_header = 1;
    return 0;
}

static int prof_record(void *ctx, char **f, size_t nf, size_t line, fst_err *err)
{
    prof_rd *pr = ctx;
    if (!pr->have_header)
        return prof_header(pr, f, nf, line, err);
    if (nf != pr->ncols)
        return fst_errf(err, "%s:%zu: %zu fields, the header has %zu", pr->path, line, nf, pr->ncols);
    fst_drow d = { { 0 } };
    const char *name = f[pr->col[C_ROUTINE]];
    if (!*name || strlen(name) >= sizeof d.name)
        return fst_errf(err, "%s:%zu: routine name empty or longer than %zu characters", pr->path, line,
                        sizeof d.name - 1);
    strcpy(d.name, name);
    uint64_t *num[] = { &d.calls, &d.self_insns, &d.incl_insns };
    for (int c = C_CALLS; c <= C_INCLI; c++)
        if (whole(f[pr->col[c]], num[c - C_CALLS]) < 0)
            return fst_errf(err, "%s:%zu: %s '%s' is not a whole number", pr->path, line, colname[c], f[pr->col[c]]);
    if (seconds(f[pr->col[C_SELFS]], &d.self_ns) < 0 || seconds(f[pr->col[C_INCLS]], &d.incl_ns) < 0)
        return fst_errf(err, "%s:%zu: self_sec/incl_sec are not seconds with at most 9 decimals", pr->path, line);
    fst_dside *s = pr->s;
    if (pr->have_total)
        return fst_errf(err, "%s:%zu: a row after (total)", pr->path, line);
    if (!strcmp(name, "(not shown)")) /* fst-report --top/--routine/--percent-limit (formats/formats.h) */
        return fst_errf(err, "%s:%zu: a report of some routines only (made with --top, --routine or --percent-limit): "
                        "fst-diff compares whole profiles", pr->path, line);
    if (!strcmp(name, "(outside)"))
        s->outside = d;
    else if (!strcmp(name, "(excluded)"))
        s->excluded = d;
    else if (!strcmp(name, "(total)")) {
        s->total = d;
        pr->have_total = 1;
    } else {
        for (size_t i = 0; i < s->nr; i++)
            if (!strcmp(s->r[i].name, name))
                return fst_errf(err, "%s:%zu: routine %s listed twice", pr->path, line, name);
        if (s->nr == pr->cap) {
            pr->cap = pr->cap ? 2 * pr->cap : 16;
            s->r = fst_xrealloc(s->r, pr->cap * sizeof *s->r);
        }
        s->r[s->nr++] = d;
    }
    return 0;
}

static int prof_comment(void *ctx, const char *text, size_t line, fst_err *err)
{
    prof_rd *pr = ctx;
    static const char tag[] = "# fst-report ", inc[] = "# incomplete: ";
    if (!pr->have_header && !strncmp(text, FST_PROGID_TAG, sizeof FST_PROGID_TAG - 1)) { /* csv --meta */
        char where[600];
        snprintf(where, sizeof where, "%s:%zu", pr->path, line);
        return fst_progid_parse(&pr->s->id, text + sizeof FST_PROGID_TAG - 1, where, err);
    }
    if (!pr->have_header && !strncmp(text, "# window: ", 10)) /* csv --meta of fst-report --window */
        return fst_errf(err, "%s:%zu: a report of a part of the run only (fst-report --window, %.80s): fst-diff "
                        "compares whole runs", pr->path, line, text + 10);
    if (!pr->have_header && !strncmp(text, inc, sizeof inc - 1)) { /* csv --meta of a trace cut short */
        pr->s->complete = 0;
        snprintf(pr->s->incomplete, sizeof pr->s->incomplete, "%s", text + sizeof inc - 1);
        return 0;
    }
    if (pr->have_header || pr->have_meta || strncmp(text, tag, sizeof tag - 1))
        return 0; /* an ordinary comment */
    char where[600];
    snprintf(where, sizeof where, "%s:%zu", pr->path, line);
    pr->have_meta = 1;
    return fst_dmeta_parse(&pr->s->meta, text + sizeof tag - 1, where, err);
}

int fst_dside_read_csv(fst_dside *s, const char *path, fst_err *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->complete = 1;
    prof_rd pr = { .s = s, .path = path };
    fst_csvcb cb = { prof_record, prof_comment, &pr, "csv report" };
    int rc = fst_csv_read(path, &cb, err);
    if (!rc && !pr.have_header)
        rc = fst_errf(err, "%s: empty: no header line", path);
    if (!rc && !pr.have_total)
        rc = fst_errf(err, "%s: no (total) row: cut short, or not a csv report of fst-report", path);
    if (!rc) {
        /* the columns add up (formats/csv.c): a hand-edited or damaged file does not */
        uint64_t sum = s->outside.self_insns + s->excluded.self_insns;
        for (size_t i = 0; i < s->nr; i++)
            sum += s->r[i].self_insns;
        if (sum != s->total.self_insns)
            rc = fst_errf(err, "%s: self instructions add up to %llu, the (total) row says %llu: damaged", path,
                          (unsigned long long)sum, (unsigned long long)s->total.self_insns);
    }
    if (rc)
        fst_dside_free(s);
    return rc;
}

/* ---- the batch manifest ---- */

enum { M_NAME, M_PROGRAM, M_TRACE, M_BASELINE, M_OPTIONS, M_TIME, M_CALLS, NMCOL };
static const char *const mcolname[NMCOL] = { "name", "program", "trace", "baseline", "options", "max_time_change",
                                             "max_calls_change" };

typedef struct man_rd {
    const char *path;
    char dir[512];
    int col[NMCOL];
    size_t ncols;
    int have_header;
    fst_mrun *runs;
    size_t n, cap;
} man_rd;

static char *field(const man_rd *m, char **f, int c)
{
    return m->col[c] >= 0 && *f[m->col[c]] ? f[m->col[c]] : NULL;
}

/* relative to the manifest's folder */
static char *resolve(const man_rd *m, const char *p)
{
    if (!p)
        return NULL;
    if (p[0] == '/' || !m->dir[0])
        return fst_xstrdup(p);
    char *s = fst_xmalloc(strlen(m->dir) + strlen(p) + 2);
    sprintf(s, "%s/%s", m->dir, p);
    return s;
}

static int man_header(man_rd *m, char **f, size_t nf, size_t line, fst_err *err)
{
    for (int c = 0; c < NMCOL; c++) {
        m->col[c] = -1;
        for (size_t i = 0; i < nf; i++)
            if (!strcmp(f[i], mcolname[c]))
                m->col[c] = (int)i;
    }
    if (m->col[M_NAME] < 0 || m->col[M_BASELINE] < 0 || (m->col[M_PROGRAM] < 0 && m->col[M_TRACE] < 0))
        return fst_errf(err, "%s:%zu: the header needs name, baseline and program or trace", m->path, line);
    m->ncols = nf;
    m->have_header = 1;
    return 0;
}

static int man_record(void *ctx, char **f, size_t nf, size_t line, fst_err *err)
{
    man_rd *m = ctx;
    if (!m->have_header)
        return man_header(m, f, nf, line, err);
    if (nf != m->ncols)
        return fst_errf(err, "%s:%zu: %zu fields, the header has %zu", m->path, line, nf, m->ncols);
    const char *name = field(m, f, M_NAME), *prog = field(m, f, M_PROGRAM), *tr = field(m, f, M_TRACE);
    if (!name || !field(m, f, M_BASELINE))
        return fst_errf(err, "%s:%zu: a run needs a name and a baseline", m->path, line);
    if (!prog == !tr)
        return fst_errf(err, "%s:%zu: run %s: give a program or a trace, not %s", m->path, line, name,
                        prog ? "both" : "neither");
    fst_mrun r = { line, fst_xstrdup(name), resolve(m, prog), resolve(m, tr), resolve(m, field(m, f, M_BASELINE)),
                   NULL, 0, 0, 0, 0 };
    const char *o = field(m, f, M_OPTIONS), *tc = field(m, f, M_TIME), *cc = field(m, f, M_CALLS);
    r.options = fst_xstrdup(o ? o : "");
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 8;
        m->runs = fst_xrealloc(m->runs, m->cap * sizeof *m->runs);
    }
    m->runs[m->n++] = r; /* owned by the list from here, also on the errors below */
    fst_mrun *last = &m->runs[m->n - 1];
    if (tc) {
        if (fst_diff_parse_pct(tc, &last->time_bp) < 0)
            return fst_errf(err, "%s:%zu: max_time_change '%s' is not a percentage", m->path, line, tc);
        last->has_time = 1;
    }
    if (cc) {
        if (fst_diff_parse_pct(cc, &last->calls_bp) < 0)
            return fst_errf(err, "%s:%zu: max_calls_change '%s' is not a percentage", m->path, line, cc);
        last->has_calls = 1;
    }
    return 0;
}

int fst_manifest_read(const char *path, fst_mrun **runs, size_t *n, fst_err *err)
{
    man_rd m = { .path = path };
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(m.dir, sizeof m.dir, "%.*s", (int)(slash - path), path);
    if (slash == path)
        strcpy(m.dir, "/");
    fst_csvcb cb = { man_record, NULL, &m, "batch manifest" };
    int rc = fst_csv_read(path, &cb, err);
    if (!rc && !m.n)
        rc = fst_errf(err, "%s: no runs", path);
    if (rc) {
        fst_manifest_free(m.runs, m.n);
        return -1;
    }
    *runs = m.runs;
    *n = m.n;
    return 0;
}

void fst_manifest_free(fst_mrun *runs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(runs[i].name);
        free(runs[i].program);
        free(runs[i].trace);
        free(runs[i].baseline);
        free(runs[i].options);
    }
    free(runs);
}
