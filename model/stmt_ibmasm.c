/* model/stmt_ibmasm.c — the statement table of an IBM assembler listing (model/stmttab.h):
** Assembler F / IFOX00 (OS/VS, MVS 3.8) and High Level Assembler, the source and object
** section, as the Programmer's Guides (GC33-4021, SC26-4941) describe it.
**
** Every page of that section starts with the heading
**     LOC  OBJECT CODE    ADDR1 ADDR2  STMT   SOURCE STATEMENT        (HLASM: mixed case)
** (after a title line; the 133-character HLASM format has 8-digit fields, same words), and
** every statement line has, in the heading's columns: the location counter, up to 8 bytes
** of object code in groups, the operand addresses, the statement number (HLASM flags a
** macro-generated one with '+'), then the source statement as written. A DC whose object
** code does not fit goes on with lines holding a location and object code only (PRINT
** DATA). The columns are taken from each heading, so either format, with or without an
** ASA control character in column 1, and `\r` overprints and `\f` page ejects as a Hercules
** printer writes them, are read alike. Everything before the first heading (the external
** symbol dictionary) and after the section (relocation dictionary, cross reference,
** diagnostics) is skipped; a line inside the section that is none of the above is refused
** with its line number, as is a listing without the section.
**
** Units: one per control section (CSECT, START, RSECT; a DSECT's statements have no code
** and are skipped), named by it, its offset the CSECT statement's location; placed by that
** name among the profile's routines or by its code in the image. A statement's addresses run
** from its location to the next located statement's (a DS reserves, a DC's data goes on);
** its instructions' object code is compared with the image, not constants (relocated).
*/
#include "model/stmttab_int.h"
#include "model/progmodel.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OBJ = 64 };

typedef struct cols {       /* where the heading puts its fields */
    size_t obj, addr1, stmt, src;
    int asa;                /* lines carry an ASA character in column 1 */
} cols;

typedef struct astmt {
    uint32_t num;
    int located, code;      /* has a location; its object code is instructions */
    uint64_t loc;
    uint8_t obj[MAX_OBJ];
    size_t nobj;
    int sect;               /* the unit, -1 in a DSECT */
    char *text;
} astmt;

typedef struct areader {
    fst_stmt_tab *t;
    const char *path;
    astmt *s;
    size_t n, cap;
    char *names[256];       /* control sections: unit ids */
    uint64_t origin[256];
    int nsect, cur;
} areader;

static int heading(const char *l, size_t len, cols *c)
{
    char up[256];
    size_t n = len < sizeof up - 1 ? len : sizeof up - 1;
    for (size_t i = 0; i < n; i++)
        up[i] = (char)toupper((unsigned char)l[i]);
    up[n] = 0;
    const char *loc = strstr(up, "LOC"), *obj = strstr(up, "OBJECT CODE"), *a1 = strstr(up, "ADDR1"),
               *st = strstr(up, "STMT"), *src = strstr(up, "SOURCE STATEMENT");
    if (!loc || !obj || !a1 || !st || !src || !(loc < obj && obj < a1 && a1 < st && st < src))
        return 0;
    /* the heading is indented by 2 in both formats: "  LOC"; one more is an ASA column */
    int asa = loc - up >= 3;
    size_t k = (size_t)asa;
    *c = (cols){ (size_t)(obj - up) - k, (size_t)(a1 - up) - k, (size_t)(st - up) - k, (size_t)(src - up) - k, asa };
    return 1;
}

/* Lines that end the source and object section until the next heading. */
static int section_end(const char *l)
{
    static const char *const ends[] = { "RELOCATION DICTIONARY", "CROSS REFERENCE", "CROSS-REFERENCE",
                                        "DIAGNOSTIC", "EXTERNAL SYMBOL DICTIONARY", "USING MAP", "STATISTICS",
                                        "ORDINARY SYMBOL", "MACRO AND COPY", "GENERAL PURPOSE REGISTER", NULL };
    for (const char *const *e = ends; *e; e++)
        if (fst_stmt_has(l, *e))
            return 1;
    return 0;
}

static int ishex(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)p[i]))
            return 0;
    return n > 0;
}

static uint64_t hexv(const char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 4 | (uint64_t)(isdigit((unsigned char)p[i]) ? p[i] - '0' : toupper((unsigned char)p[i]) - 'A' + 10);
    return v;
}

/* The operation of a source statement: its second field when it has a label. */
static void operation(const char *src, char *op, size_t cap)
{
    const char *p = src;
    if (*p && *p != ' ')
        while (*p && *p != ' ')
            p++;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && p[n] != ' ' && n + 1 < cap) {
        op[n] = (char)toupper((unsigned char)p[n]);
        n++;
    }
    op[n] = 0;
}

static void label_of(const char *src, char *lab, size_t cap)
{
    size_t n = 0;
    while (src[n] && src[n] != ' ' && n + 1 < cap) {
        lab[n] = src[n];
        n++;
    }
    lab[n] = 0;
}

static int sect_of(areader *r, const char *name, uint64_t loc)
{
    for (int i = 0; i < r->nsect; i++)
        if (!strcmp(r->names[i], name))
            return i;
    if (r->nsect == 256)
        return -1;
    r->names[r->nsect] = fst_xstrdup(name);
    r->origin[r->nsect] = loc;
    return r->nsect++;
}

static astmt *new_stmt(areader *r)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->s = fst_xrealloc(r->s, r->cap * sizeof *r->s);
    }
    astmt *s = &r->s[r->n++];
    memset(s, 0, sizeof *s);
    return s;
}

/* One line of the section: 1 a statement or a continuation, 0 not a statement line. */
static int statement(areader *r, const cols *c, const char *l, size_t len)
{
    uint64_t loc = 0;
    int located = 0;
    uint8_t obj[MAX_OBJ];
    size_t nobj = 0, i = 0, digits_end = 0;
    long num = -1;
    size_t first = 0;
    while (first < len && l[first] == ' ')
        first++;
    if (first + 2 >= c->src)
        return 1;   /* a continuation card of the statement before: its text only */
    while (i < len) {
        while (i < len && l[i] == ' ')
            i++;
        size_t b = i;
        while (i < len && l[i] != ' ')
            i++;
        size_t n = i - b;
        if (!n)
            break;
        if (b + 1 < c->obj && !located && ishex(l + b, n) && n >= 6 && n <= 8) {
            loc = hexv(l + b, n);
            located = 1;
        } else if (b + 1 >= c->obj && b + 1 < c->addr1 && ishex(l + b, n) && n % 2 == 0) {
            for (size_t k = 0; k < n && nobj < MAX_OBJ; k += 2)
                obj[nobj++] = (uint8_t)hexv(l + b + k, 2);
        } else if (b + 4 >= c->addr1 && b + 4 < c->stmt) {
            continue;   /* ADDR1 / ADDR2, HLASM's USING note "R:C" */
        } else if (b + 4 >= c->stmt && b <= c->stmt + 6 && isdigit((unsigned char)l[b])) {
            size_t d = 0;
            while (d < n && isdigit((unsigned char)l[b + d]))
                d++;
            if (d < n && !(d + 1 == n && strchr("+-=", l[b + d])))
                return 0;
            num = strtol(l + b, NULL, 10);
            digits_end = b + d;
            break;
        } else
            return 0;
    }
    if (num < 0) {   /* object code going on: the statement before's */
        astmt *p = r->n ? &r->s[r->n - 1] : NULL;
        if (!located || !nobj || !p || !p->located)
            return 0;
        for (size_t k = 0; k < nobj && p->nobj < MAX_OBJ; k++)
            p->obj[p->nobj++] = obj[k];
        p->code = 0;
        return 1;
    }
    astmt *s = new_stmt(r);
    s->num = (uint32_t)num;
    s->located = located;
    s->loc = loc;
    memcpy(s->obj, obj, nobj);
    s->nobj = nobj;
    /* the source statement's column 1: after the number's flag column ('+': a statement a
    ** macro generated), under the heading's "SOURCE" less two */
    size_t from = digits_end + 1;
    if (from > len)
        from = len;
    s->text = fst_xmalloc(len - from + 1);
    memcpy(s->text, l + from, len - from);
    s->text[len - from] = 0;
    for (size_t k = strlen(s->text); k && s->text[k - 1] == ' '; k--)
        s->text[k - 1] = 0;
    char op[16], lab[64];
    operation(s->text, op, sizeof op);
    label_of(s->text, lab, sizeof lab);
    if (!strcmp(op, "CSECT") || !strcmp(op, "START") || !strcmp(op, "RSECT"))
        r->cur = sect_of(r, lab[0] ? lab : "$PRIVATE", loc);
    else if (!strcmp(op, "DSECT") || !strcmp(op, "COM"))
        r->cur = -1;
    s->sect = r->cur;
    /* instructions are compared with the image; constants may be relocated */
    s->code = nobj && (nobj == 2 || nobj == 4 || nobj == 6) && s->text[0] != '=' && strcmp(op, "DC") &&
              strcmp(op, "DS") && strncmp(op, "CCW", 3) && strcmp(op, "DXD");
    return 1;
}

static void make_units(areader *r)
{
    for (int u = 0; u < r->nsect; u++) {
        fst_stmt_begin_unit(r->t, FST_STMT_IBMASM, r->path, r->names[u], 0);
        fst_stmt_set_name(r->t, r->names[u], r->origin[u]);
        for (size_t i = 0; i < r->n; i++) {
            const astmt *s = &r->s[i];
            if (s->sect != u)
                continue;
            uint64_t hi = s->loc;
            if (s->located && s->nobj) {
                hi = s->loc + s->nobj;
                for (size_t j = i + 1; j < r->n; j++)
                    if (r->s[j].sect == u && r->s[j].located && r->s[j].nobj) {
                        if (r->s[j].loc > s->loc)
                            hi = r->s[j].loc;
                        break;
                    }
            }
            fst_stmt_add(r->t, r->path, s->num, s->text, s->loc, hi, s->nobj ? s->obj : NULL, s->nobj, !s->code);
        }
    }
}

int fst_stmt_read_ibmasm(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err)
{
    areader r = { .t = t, .path = path, .cur = -1 };
    fst_map_line *lines;
    size_t nl = fst_map_lines(buf, len, &lines);
    cols c = { 0 };
    int in = 0, seen = 0, rc = 0;
    for (size_t i = 0; i < nl && !rc; i++) {
        const char *l = lines[i].text;
        size_t n = lines[i].len;
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\r'))
            n--;
        if (heading(l, n, &c)) {
            in = seen = 1;
            continue;
        }
        if (!in || !n)
            continue;
        if (c.asa && n) {   /* the carriage control: a page eject ends the page's statements */
            l++, n--;
        }
        size_t sp = 0;
        while (sp < n && l[sp] == ' ')
            sp++;
        if (sp == n || !strncmp(l + sp, "***", 3) || fst_stmt_has(l, "ACTIVE USINGS"))
            continue;
        if (section_end(l)) {
            in = 0;
            continue;
        }
        if (statement(&r, &c, l, n))
            continue;
        if (fst_stmt_has(l, "PAGE"))      /* a title line: the heading follows */
            continue;
        char sh[256];
        rc = fst_errf(err, "%s:%lu: not a line of an IBM assembler listing's source and object section: '%s'", path,
                      lines[i].lineno, fst_stmt_shown(l, sh, sizeof sh));
    }
    if (!rc && !seen)
        rc = fst_errf(err, "%s: no 'LOC OBJECT CODE ADDR1 ADDR2 STMT SOURCE STATEMENT' heading: not an IBM assembler "
                           "listing fst reads (Assembler F, IFOX00, HLASM)", path);
    if (!rc)
        make_units(&r);
    fst_map_lines_free(lines, nl);
    for (size_t i = 0; i < r.n; i++)
        free(r.s[i].text);
    free(r.s);
    for (int i = 0; i < r.nsect; i++)
        free(r.names[i]);
    return rc;
}
