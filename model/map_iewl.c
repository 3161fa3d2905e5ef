/* model/map_iewl.c — linkage-editor (IEWL) MODULE MAP / CROSS REFERENCE TABLE listings.
**
** The map is fixed-column (HEWLFMAP fills a 121-byte print buffer; notes/loadmaps.md §1.6,
** §1.7). The columns are taken from the column header line of the map itself, so the same
** code reads printer files without carriage control and data sets that keep an ASA or
** machine control byte in column 1. The listing is read in three steps:
**   1. lines: `\n` and `\f` end a line, `\r` passes are merged (map_text.c); the column
**      header gives the carriage-control offset; overprint controls are applied, column 1
**      dropped when it is carriage control;
**   2. link steps: "... LEVEL LINKAGE EDITOR OPTIONS SPECIFIED" starts one; its member and
**      aliases come from the "****NAME ..." lines, before or after the map;
**   3. the chosen step's map is parsed by a small state machine: sections and entry names,
**      cross references (skipped), pseudo-registers, ENTRY ADDRESS, TOTAL LENGTH.
*/
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/progmodel.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NONE ((size_t)-1)
#define MAXCOL 8

static fst_rx rx_step = FST_RX("LINKAGE EDITOR OPTIONS SPECIFIED");
static fst_rx rx_colhdr = FST_RX("^(.*?)NAME    ORIGIN  LENGTH( +SEG\\. NO\\.)?( +NAME   LOCATION)+ *$");
static fst_rx rx_prhdr = FST_RX("^(.*?)NAME    ORIGIN  LENGTH( +NAME    ORIGIN  LENGTH)* *$");
static fst_rx rx_title = FST_RX("^ +(MODULE MAP|CROSS REFERENCE TABLE) *$");
static fst_rx rx_csect = FST_RX("^ +CONTROL SECTION +ENTRY *$");
static fst_rx rx_xref = FST_RX("^ +LOCATION +REFERS TO SYMBOL +IN CONTROL SECTION");
static fst_rx rx_cumpr = FST_RX("^ +LOCATION +\\S+ +REQUESTS CUMULATIVE PSEUDO REGISTER LENGTH *$");
static fst_rx rx_prtitle = FST_RX("^ ?PSEUDO REGISTERS *$");
static fst_rx rx_prtotal = FST_RX("^ ?TOTAL LENGTH OF PSEUDO REGISTERS +(\\S+) *$");
static fst_rx rx_entry = FST_RX("^ ?ENTRY ADDRESS +(\\S+) *$");
static fst_rx rx_total = FST_RX("^ ?TOTAL LENGTH +(\\S+) *$");
static fst_rx rx_status = FST_RX("^\\*\\*\\*\\*(\\S+) +(.*?) *$");
static fst_rx rx_noise = FST_RX("^(AUTHORIZATION CODE IS|IEW\\d{4})");

enum { S_STEP, S_SECT, S_XREF, S_PR, S_TRAILER, S_DONE };

/* A link step: the line range it spans and what names it. */
typedef struct step {
    size_t from, to;            /* lines [from, to) */
    size_t map;                 /* line of its first column header, NONE without a map */
    char member[9];
    char aliases[8][9];
    int naliases;
} step;

/* Column positions, printed columns counted from 0 after carriage control. */
typedef struct cols {
    long name, org, len, seg;   /* "NAME", "ORIGIN", "LENGTH", "SEG. NO." (-1: none) */
    long lab[MAXCOL];           /* each "NAME   LOCATION" */
    int nlab;
    long pr[MAXCOL];            /* each "NAME    ORIGIN  LENGTH" of the PR table */
    int npr;
} cols;

typedef struct ctx {
    fst_pm *pm;
    const char *file;
    long offset;                /* carriage-control columns before printed column 0 */
    fst_map_line *lines;
    size_t n;
    cols c;
    size_t cur;                 /* the section entry names attach to */
    int state;
    unsigned long entry_line;
} ctx;

/* ---- lines and carriage control ---- */

static int blank(const char *t, long from, long to)
{
    for (long i = from; i < to; i++)
        if (t[i] != ' ')
            return 0;
    return 1;
}

/* Where printed column 0 is: from the first column header ("    NAME    ORIGIN"). */
static int find_offset(ctx *x, fst_err *err)
{
    long ov[4];
    for (size_t i = 0; i < x->n; i++) {
        fst_map_line *l = &x->lines[i];
        if (!fst_rx_match(&rx_colhdr, l->text, l->len, ov, 2) &&
            !fst_rx_match(&rx_prhdr, l->text, l->len, ov, 2))
            continue;
        x->offset = ov[3] - 4;
        if (x->offset < 0 || x->offset > 1)
            return fst_errf(err, "%s:%lu: column header starts at column %ld, expected 5 (or 6 "
                            "after a carriage-control byte)", x->file, l->lineno, ov[3] + 1);
        return 0;
    }
    return fst_errf(err, "%s: no MODULE MAP or CROSS REFERENCE TABLE (link with MAP or XREF)",
                    x->file);
}

static void merge_into(fst_map_line *dst, const fst_map_line *src)
{
    if (src->len > dst->len) {
        dst->text = fst_xrealloc(dst->text, src->len + 1);
        memset(dst->text + dst->len, ' ', src->len - dst->len);
        dst->len = src->len;
        dst->text[dst->len] = 0;
    }
    for (size_t i = 1; i < src->len; i++)
        fst_overprint_char(&dst->text[i], src->text[i]);
}

/* With a control byte in column 0: ASA '+' prints over the line before, machine X'01'
** (write, no space) lets the next line print over this one. Then drop column 0. */
static void apply_cc(ctx *x)
{
    size_t k = 0;
    for (size_t i = 0; i < x->n; i++) {
        fst_map_line *l = &x->lines[i];
        if (x->offset && l->len && l->text[0] == '+' && k > 0) {
            merge_into(&x->lines[k - 1], l);
            free(l->text);
            continue;
        }
        while (x->offset && l->len && l->text[0] == 0x01 && i + 1 < x->n) {
            char next_cc = x->lines[i + 1].len ? x->lines[i + 1].text[0] : ' ';
            merge_into(l, &x->lines[i + 1]);
            free(x->lines[++i].text);
            l->text[0] = next_cc;   /* the merged line's own control decides what follows */
        }
        x->lines[k++] = *l;
    }
    x->n = k;
    for (size_t i = 0; x->offset && i < x->n; i++) {
        fst_map_line *l = &x->lines[i];
        size_t cut = l->len ? 1 : 0;
        memmove(l->text, l->text + cut, l->len - cut + 1);
        l->len -= cut;
    }
}

/* ---- link steps ---- */

static void note_status(step *s, const char *t, long *ov)
{
    char name[9];
    size_t n = (size_t)(ov[3] - ov[2]);
    if (n > 8)
        return;
    memcpy(name, t + ov[2], n);
    name[n] = 0;
    if (strstr(t + ov[4], "ALIAS")) {
        if (s->naliases < 8)
            strcpy(s->aliases[s->naliases++], name);
    } else if (!s->member[0]) {
        strcpy(s->member, name);
    }
}

/* Cut the listing into link steps; a map seen before any step header makes one. */
static size_t find_steps(ctx *x, step **out)
{
    size_t n = 0;
    step *v = fst_xcalloc(x->n + 1, sizeof *v);
    long ov[6];
    for (size_t i = 0; i < x->n; i++) {
        const fst_map_line *l = &x->lines[i];
        int hdr = fst_rx_match(&rx_step, l->text, l->len, ov, 1);
        int map = fst_rx_match(&rx_colhdr, l->text, l->len, ov, 1);
        if (hdr || (map && n == 0)) {
            if (n)
                v[n - 1].to = i;
            v[n] = (step){ .from = i, .to = x->n, .map = NONE };
            n++;
        }
        if (!n)
            continue;
        if (map && v[n - 1].map == NONE)
            v[n - 1].map = i;
        if (fst_rx_match(&rx_status, l->text, l->len, ov, 3))
            note_status(&v[n - 1], l->text, ov);
    }
    *out = v;
    return n;
}

static int names_step(const step *s, const char *member)
{
    if (!strcasecmp(s->member, member))
        return 1;
    for (int i = 0; i < s->naliases; i++)
        if (!strcasecmp(s->aliases[i], member))
            return 1;
    return 0;
}

static void list_steps(const ctx *x, const step *v, size_t n, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0, no = 0; i < n && k + 40 < cap; i++) {
        if (v[i].map == NONE)
            continue;
        k += (size_t)snprintf(buf + k, cap - k, "%s%zu %s (line %lu)", no ? ", " : "", no + 1,
                              v[i].member[0] ? v[i].member : "?", x->lines[v[i].map].lineno);
        no++;
    }
}

/* The step to read: by member or alias name, by number (1 = the first with a map), or the
** only one. */
static const step *choose_step(const ctx *x, const step *v, size_t n, const char *member,
                               fst_err *err)
{
    char list[400];
    list_steps(x, v, n, list, sizeof list);
    size_t maps = 0, hit = NONE, hits = 0, lastno = 0;
    char *end;
    long no = member ? strtol(member, &end, 10) : 0;
    int by_number = member && *member && !*end;
    for (size_t i = 0; i < n; i++) {
        if (v[i].map == NONE)
            continue;
        maps++;
        if (!member || (by_number ? (long)maps == no : names_step(&v[i], member))) {
            hits++;
            lastno = maps;
            if (hit == NONE)
                hit = i;
        }
    }
    if (!maps)
        return fst_errf(err, "%s: no MODULE MAP or CROSS REFERENCE TABLE (link with MAP or XREF)",
                        x->file), NULL;
    if (member && !hits)
        return fst_errf(err, "%s: no link step makes %s; the maps are: %s", x->file, member,
                        list), NULL;
    if (hits > 1)
        return fst_errf(err, "%s: %zu link steps have a map: %s; pick one by member name or "
                        "number, as in %s(%zu)", x->file, hits, list, x->file, lastno), NULL;
    return &v[hit];
}

/* ---- fields ---- */

/* Characters [a, b] of the line (clipped), blanks trimmed off both ends. */
static size_t field(const fst_map_line *l, long a, long b, const char **p)
{
    if (a < 0)
        a = 0;
    if (b >= (long)l->len)
        b = (long)l->len - 1;
    while (a <= b && l->text[a] == ' ')
        a++;
    while (b >= a && l->text[b] == ' ')
        b--;
    *p = l->text + a;
    return a <= b ? (size_t)(b - a + 1) : 0;
}

static void mark(char *used, size_t n, long a, long b)
{
    for (long i = a < 0 ? 0 : a; i <= b && i < (long)n; i++)
        used[i] = 1;
}

/* Hex as the listing prints it: 1-6 digits 0-9 A-F ("00" is zero). */
static int listing_hex(const char *p, size_t n, uint32_t *v)
{
    uint64_t h;
    if (n == 0 || n > 6)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)p[i]) || islower((unsigned char)p[i]))
            return -1;
    if (fst_parse_hex(p, n, &h) < 0)
        return -1;
    *v = (uint32_t)h;
    return 0;
}

/* A right-justified hex field six columns wide, starting at column a. */
static int hex_field(const ctx *x, const fst_map_line *l, long a, const char *what,
                     uint32_t *v, fst_err *err)
{
    const char *p;
    size_t n = field(l, a, a + 5, &p);
    if (listing_hex(p, n, v) < 0)
        return fst_errf(err, "%s:%lu: bad hex '%.*s' in the %s column (columns %ld-%ld)",
                        x->file, l->lineno, (int)n, p, what, a + x->offset + 1,
                        a + x->offset + 6);
    return 0;
}

static int name_ok(const char *p, size_t n)
{
    if (n == 0 || n > 9)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)p[i]))
            return 0;
    return 1;
}

static int stray(const ctx *x, const fst_map_line *l, const char *used, fst_err *err)
{
    for (size_t i = 0; i < l->len; i++)
        if (!used[i] && l->text[i] != ' ') {
            size_t e = i;
            while (e < l->len && l->text[e] != ' ')
                e++;
            return fst_errf(err, "%s:%lu: unexpected '%.*s' at column %zu of the map", x->file,
                            l->lineno, (int)(e - i), l->text + i, i + (size_t)x->offset + 1);
        }
    return 0;
}

/* ---- the map ---- */

static void read_cols(ctx *x, const fst_map_line *l)
{
    const char *t = l->text, *p;
    x->c.name = strstr(t, "NAME") - t;
    x->c.org = strstr(t, "ORIGIN") - t;
    x->c.len = strstr(t, "LENGTH") - t;
    x->c.seg = (p = strstr(t, "SEG. NO.")) ? p - t : -1;
    x->c.nlab = 0;
    for (p = t; (p = strstr(p, "NAME   LOCATION")) && x->c.nlab < MAXCOL; p += 15)
        x->c.lab[x->c.nlab++] = p - t;
}

static void read_prcols(ctx *x, const fst_map_line *l)
{
    const char *t = l->text, *p;
    x->c.npr = 0;
    for (p = t; (p = strstr(p, "NAME    ORIGIN  LENGTH")) && x->c.npr < MAXCOL; p += 22)
        x->c.pr[x->c.npr++] = p - t;
}

static fst_pm_type section_type(const char *name)
{
    if (!strcmp(name, "$PRIVATE"))
        return FST_PM_PC;
    if (!strcmp(name, "$BLANKCOM"))
        return FST_PM_CM;
    return FST_PM_SD;
}

/* A control-section line: name (columns 1-9), '*' (autocall, column 10), origin, length and,
** in an overlay map, the segment number. */
static int section(ctx *x, const fst_map_line *l, char *used, fst_err *err)
{
    const cols *c = &x->c;
    const char *p;
    size_t n = field(l, c->name - 3, c->name + 5, &p);
    if (!name_ok(p, n))
        return fst_errf(err, "%s:%lu: no control section name in columns %ld-%ld", x->file,
                        l->lineno, c->name - 2 + x->offset, c->name + 6 + x->offset);
    char name[10];
    memcpy(name, p, n);
    name[n] = 0;
    mark(used, l->len, c->name - 3, c->name + 6);
    int autocall = (long)l->len > c->name + 6 && l->text[c->name + 6] == '*';
    uint32_t org, len, seg = 0;
    if (hex_field(x, l, c->org, "ORIGIN", &org, err) < 0 ||
        hex_field(x, l, c->len, "LENGTH", &len, err) < 0)
        return -1;
    mark(used, l->len, c->org, c->org + 5);
    mark(used, l->len, c->len, c->len + 5);
    if (c->seg >= 0 && (n = field(l, c->seg, c->seg + 7, &p)) > 0) {
        char *e;
        seg = (uint32_t)strtoul(p, &e, 10);
        if (e != p + n || seg > 65535)
            return fst_errf(err, "%s:%lu: bad segment number '%.*s'", x->file, l->lineno,
                            (int)n, p);
        mark(used, l->len, c->seg, c->seg + 7);
    }
    x->cur = fst_pm_add(x->pm, name, section_type(name), org, len, (uint16_t)seg, autocall,
                        NONE, l->lineno);
    return 0;
}

/* Entry names: up to four (two in TSO) name/location pairs, for the current section. */
static int labels(ctx *x, const fst_map_line *l, char *used, fst_err *err)
{
    for (int k = 0; k < x->c.nlab; k++) {
        long a = x->c.lab[k];
        const char *p, *q;
        size_t n = field(l, a - 2, a + 5, &p), m = field(l, a + 8, a + 13, &q);
        if (!n && !m)
            continue;
        if (!name_ok(p, n) || n > 8)
            return fst_errf(err, "%s:%lu: location '%.*s' without an entry name", x->file,
                            l->lineno, (int)m, q);
        if (x->cur == NONE)
            return fst_errf(err, "%s:%lu: entry name %.*s comes before any control section",
                            x->file, l->lineno, (int)n, p);
        uint32_t loc;
        if (!m)
            return fst_errf(err, "%s:%lu: entry name %.*s has no location", x->file, l->lineno,
                            (int)n, p);
        if (hex_field(x, l, a + 8, "LOCATION", &loc, err) < 0)
            return -1;
        char name[9];
        memcpy(name, p, n);
        name[n] = 0;
        const fst_pm_sym *s = fst_pm_sym_at(x->pm, x->cur);
        fst_pm_add(x->pm, name, FST_PM_LR, loc, 0, s->segment, 0, x->cur, l->lineno);
        mark(used, l->len, a - 2, a + 5);
        mark(used, l->len, a + 8, a + 13);
    }
    return 0;
}

static int map_line(ctx *x, const fst_map_line *l, fst_err *err)
{
    if (!x->c.nlab)
        return fst_errf(err, "%s:%lu: the column header names no entry columns", x->file,
                        l->lineno);
    char *used = fst_xcalloc(l->len + 1, 1);
    int rc = 0;
    if (!blank(l->text, 0, (long)l->len < x->c.lab[0] - 2 ? (long)l->len : x->c.lab[0] - 2))
        rc = section(x, l, used, err);
    if (rc == 0)
        rc = labels(x, l, used, err);
    if (rc == 0)
        rc = stray(x, l, used, err);
    free(used);
    return rc;
}

/* A pseudo-register line: up to four name/origin/length triples. */
static int pr_line(ctx *x, const fst_map_line *l, fst_err *err)
{
    if (!x->c.npr)
        for (int k = 0; k < 4; k++)
            x->c.pr[x->c.npr++] = 4 + 30 * k;
    char *used = fst_xcalloc(l->len + 1, 1);
    int rc = 0;
    for (int k = 0; k < x->c.npr && rc == 0; k++) {
        long q = x->c.pr[k];
        const char *p;
        size_t n = field(l, q - 2, q + 5, &p);
        uint32_t org, len;
        if (!n)
            continue;
        if (!name_ok(p, n) || n > 8) {
            rc = fst_errf(err, "%s:%lu: bad pseudo-register name '%.*s'", x->file, l->lineno,
                          (int)n, p);
            break;
        }
        if (hex_field(x, l, q + 8, "ORIGIN", &org, err) < 0 ||
            hex_field(x, l, q + 16, "LENGTH", &len, err) < 0) {
            rc = -1;
            break;
        }
        char name[9];
        memcpy(name, p, n);
        name[n] = 0;
        fst_pm_add(x->pm, name, FST_PM_PR, org, len, 0, 0, NONE, l->lineno);
        mark(used, l->len, q - 2, q + 5);
        mark(used, l->len, q + 8, q + 21);
    }
    if (rc == 0)
        rc = stray(x, l, used, err);
    free(used);
    return rc;
}

static int trailer_hex(ctx *x, const fst_map_line *l, long *ov, const char *what, uint32_t *v,
                       fst_err *err)
{
    const char *p = l->text + ov[2];
    size_t n = (size_t)(ov[3] - ov[2]);
    if (listing_hex(p, n, v) < 0)
        return fst_errf(err, "%s:%lu: bad hex '%.*s' in %s", x->file, l->lineno, (int)n, p,
                        what);
    return 0;
}

/* Lines that end one part of the map and start the next; 1 when l was one of them. */
static int transition(ctx *x, const fst_map_line *l, fst_err *err, int *rc)
{
    long ov[4];
    uint32_t v;
    *rc = 0;
    if (fst_rx_match(&rx_prtotal, l->text, l->len, ov, 2))
        return 1;
    if (fst_rx_match(&rx_entry, l->text, l->len, ov, 2)) {
        if ((*rc = trailer_hex(x, l, ov, "ENTRY ADDRESS", &v, err)) == 0)
            fst_pm_set_entry(x->pm, v);
        x->state = S_TRAILER;
        x->entry_line = l->lineno;
        return 1;
    }
    if (fst_rx_match(&rx_total, l->text, l->len, ov, 2)) {
        if ((*rc = trailer_hex(x, l, ov, "TOTAL LENGTH", &v, err)) == 0)
            fst_pm_set_total(x->pm, v);
        x->state = S_DONE;
        return 1;
    }
    if (fst_rx_match(&rx_prtitle, l->text, l->len, ov, 1)) {
        x->state = S_PR;
        return 1;
    }
    if (fst_rx_match(&rx_xref, l->text, l->len, ov, 1) ||
        fst_rx_match(&rx_cumpr, l->text, l->len, ov, 1)) {
        x->state = x->state == S_SECT ? S_XREF : x->state;
        return 1;
    }
    return 0;
}

static int one_line(ctx *x, const fst_map_line *l, fst_err *err)
{
    long ov[4];
    int rc;
    if (blank(l->text, 0, (long)l->len) || x->state == S_DONE ||
        fst_rx_match(&rx_status, l->text, l->len, ov, 1) ||
        fst_rx_match(&rx_noise, l->text, l->len, ov, 1))
        return 0;
    if (x->state == S_STEP) {
        if (fst_rx_match(&rx_colhdr, l->text, l->len, ov, 1)) {
            read_cols(x, l);
            x->state = S_SECT;
        }
        return 0;
    }
    if (transition(x, l, err, &rc))
        return rc;
    switch (x->state) {
    case S_SECT:
        if (fst_rx_match(&rx_colhdr, l->text, l->len, ov, 1)) {
            read_cols(x, l);       /* the header repeated after a page eject */
            return 0;
        }
        if (fst_rx_match(&rx_csect, l->text, l->len, ov, 1) ||
            fst_rx_match(&rx_title, l->text, l->len, ov, 1))
            return 0;
        return map_line(x, l, err);
    case S_PR:
        if (fst_rx_match(&rx_prhdr, l->text, l->len, ov, 1)) {
            read_prcols(x, l);
            return 0;
        }
        return pr_line(x, l, err);
    default:                       /* cross references, what follows ENTRY ADDRESS */
        return 0;
    }
}

static int read_step(ctx *x, const step *s, fst_err *err)
{
    x->state = S_STEP;
    x->cur = NONE;
    memset(&x->c, 0, sizeof x->c);
    for (size_t i = s->from; i < s->to; i++)
        if (one_line(x, &x->lines[i], err) < 0)
            return -1;
    if (x->state == S_DONE && x->cur == NONE)
        return fst_errf(err, "%s:%lu: the map lists no control section", x->file,
                        x->lines[s->map].lineno);
    if (x->state == S_DONE)
        return 0;
    unsigned long last = x->lines[s->to - 1].lineno;
    if (x->state == S_TRAILER)
        return fst_errf(err, "%s:%lu: the map has ENTRY ADDRESS (line %lu) but no TOTAL LENGTH",
                        x->file, last, x->entry_line);
    return fst_errf(err, "%s:%lu: the map that starts at line %lu ends without ENTRY ADDRESS "
                    "(listing cut short?)", x->file, last, x->lines[s->map].lineno);
}

int fst_map_read_iewl(fst_pm *pm, const char *name, const char *buf, size_t len,
                      const fst_pm_opts *opts, fst_err *err)
{
    ctx x = { .pm = pm, .file = name };
    x.n = fst_map_lines(buf, len, &x.lines);
    step *steps = NULL;
    int rc = -1;
    if (find_offset(&x, err) == 0) {
        apply_cc(&x);
        size_t nsteps = find_steps(&x, &steps);
        const step *s = choose_step(&x, steps, nsteps, opts ? opts->member : NULL, err);
        if (s) {
            fst_pm_begin_module(pm, FST_MAP_IEWL, name, s->member[0] ? s->member : NULL);
            rc = read_step(&x, s, err);
            if (rc == 0)
                rc = fst_pm_end_module(pm, 0, err);
            else
                fst_pm_abort_module(pm);
        }
    }
    free(steps);
    fst_map_lines_free(x.lines, x.n);
    return rc;
}
