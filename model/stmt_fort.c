/* model/stmt_fort.c — the statement table of a FORTRAN IV G or H compiler listing with the
** SOURCE and LIST options (model/stmttab.h): the internal statement numbers (ISN), the
** locations of their code, and each ISN's source text.
**
** What is read (the layout of the Programmer's Guide, GC28-6817, as fst takes it; see
** docs/formats.md for what is covered):
**   - a page title per compilation unit: "FORTRAN IV G LEVEL nn   NAME   DATE = ... PAGE nnnn"
**     (H: "FORTRAN IV H ..." or "... H LEVEL 21.8 ..."); NAME (MAIN, or the subprogram's) is
**     the unit, placed by that routine name (its FORTRAN identifier in the image) or its code;
**   - the source listing: "  ISN  card image": a card with an ISN in the first field starts
**     a statement, its text is that card; cards without one (continuations, comments) add
**     nothing (G's layout checked against real LEVEL 21 listings, CMS and TK4-); H's lines
**     may read "ISN 0002  card" (an OCR'd H listing): the text is the rest of the line;
**   - the object listing (LIST), after its heading "LOCATION  STA NUM  LABEL  OP  OPERAND
**     ..." (G) or with "ISN" for "STA NUM" (H): a line per instruction or constant, its
**     location (hex) first; a number in the STA NUM column starts the code of that ISN; a
**     line "ISN nnnn" alone does too. Code before the first ISN (the prologue, the constants
**     before it) belongs to no statement, and is reported so. A statement's code runs from its
**     first location to the next statement's, so a DO loop's increment, which the compiler
**     lists under the loop's terminal statement, is that statement's.
**   - everything else (the storage MAP, SUBPROGRAMS CALLED, FORMAT STATEMENT MAP, options,
**     statistics, diagnostics) is skipped. A line in the object listing that is not one of
**     its lines is refused with its line number, as is a listing with no object listing.
** Compared with the image: each object-listing line's hexadecimal object code when the
** listing prints one (a field of 4, 8 or 12 hex digits after the location); a listing that
** prints none is placed by name only.
*/
#include "model/stmttab_int.h"
#include "model/progmodel.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_UNITS = 512 };

typedef struct fline {      /* one located line of the object listing */
    int unit;
    uint64_t loc;
    long isn;               /* the statement it belongs to, -1: none */
    uint8_t obj[6];
    size_t nobj;
} fline;

typedef struct ftext {
    int unit;
    long isn;
    char *text;
} ftext;

typedef struct freader {
    fst_stmt_tab *t;
    const char *path;
    char *units[MAX_UNITS];
    fst_stmt_kind kind[MAX_UNITS];
    int nunits, cur;
    fline *l;
    size_t nl, lcap;
    ftext *x;
    size_t nx, xcap;
    int objlist;            /* inside an object listing */
    size_t c_sta, c_label;  /* its STA NUM and LABEL columns */
    long isn;
} freader;

/* A page title: the compiler, its level, the unit's name. 1 when l is one. */
static int title(freader *r, const char *l)
{
    const char *f = strstr(l, "FORTRAN IV"), *lv = f ? strstr(f, "LEVEL") : NULL;
    if (!lv)
        return 0;
    fst_stmt_kind k = strstr(l, "FORTRAN IV H") || strstr(l, "LEVEL 21.8") || strstr(l, " H LEVEL") ? FST_STMT_FORTH
                                                                                                    : FST_STMT_FORTG;
    const char *p = lv + 5;
    while (*p == ' ')
        p++;
    while (*p && *p != ' ')         /* the level */
        p++;
    if (*p == ' ' && p[1] == '(')   /* H: "( JUN 74 )" after the level */
        p = strchr(p, ')') ? strchr(p, ')') + 1 : p;
    while (*p == ' ')
        p++;
    char name[9];
    size_t n = 0;
    while (p[n] && p[n] != ' ' && n < 8) {
        name[n] = p[n];
        n++;
    }
    name[n] = 0;
    if (!n || !strncmp(name, "DATE", 4))
        return 0;
    int u = 0;
    while (u < r->nunits && strcmp(r->units[u], name))
        u++;
    if (u == r->nunits && r->nunits < MAX_UNITS) {
        r->units[r->nunits] = fst_xstrdup(name);
        r->kind[r->nunits++] = k;
        r->isn = -1;
    }
    if (u != r->cur)
        r->objlist = 0;
    r->cur = u < MAX_UNITS ? u : MAX_UNITS - 1;
    return 1;
}

static int heading(freader *r, const char *l)
{
    const char *loc = strstr(l, "LOCATION"), *sta = strstr(l, "STA NUM"), *op = strstr(l, " OP ");
    if (!sta)
        sta = strstr(l, " ISN ");
    if (!loc || !sta || !op || sta < loc || op < sta)
        return 0;
    const char *lab = strstr(l, "LABEL");
    r->objlist = 1;
    r->c_sta = (size_t)(sta - l);
    r->c_label = lab ? (size_t)(lab - l) : (size_t)(op - l);
    return 1;
}

static int hexdigits(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)p[i]))
            return 0;
    return n > 0;
}

/* An object-listing line: 1 read, 0 not one. */
static int objline(freader *r, const char *l, size_t len)
{
    size_t i = 0;
    while (i < len && l[i] == ' ')
        i++;
    size_t b = i;
    while (i < len && l[i] != ' ')
        i++;
    if (!strncmp(l + b, "ISN", 3) && i == b + 3) {    /* "ISN nnnn" on a line of its own */
        char *end;
        long v = strtol(l + i, &end, 10);
        if (end == l + i)
            return 0;
        r->isn = v;
        return 1;
    }
    if (i - b < 5 || i - b > 8 || !hexdigits(l + b, i - b))
        return 0;
    if (r->nl == r->lcap) {
        r->lcap = r->lcap ? 2 * r->lcap : 256;
        r->l = fst_xrealloc(r->l, r->lcap * sizeof *r->l);
    }
    fline *f = &r->l[r->nl];
    memset(f, 0, sizeof *f);
    f->unit = r->cur;
    f->loc = strtoull(l + b, NULL, 16);
    /* the hex object code, when printed right after the location (before STA NUM) */
    size_t j = i;
    while (j < len && l[j] == ' ')
        j++;
    size_t e = j;
    while (e < len && l[e] != ' ')
        e++;
    if (e < r->c_sta && (e - j == 4 || e - j == 8 || e - j == 12) && hexdigits(l + j, e - j)) {
        for (size_t k = 0; k < e - j; k += 2) {
            char h[3] = { l[j + k], l[j + k + 1], 0 };
            f->obj[f->nobj++] = (uint8_t)strtoul(h, NULL, 16);
        }
        i = e;
    }
    /* a number in the STA NUM column starts a statement */
    while (i < len && l[i] == ' ')
        i++;
    if (i + 2 >= r->c_sta && i < r->c_label && isdigit((unsigned char)l[i])) {
        char *end;
        long v = strtol(l + i, &end, 10);
        if (*end == ' ' || !*end)
            r->isn = v;
    }
    f->isn = r->isn;
    r->nl++;
    return 1;
}

/* A source-listing card: "  ISN  card image". 1 read (or a card without an ISN). */
static int srcline(freader *r, const char *l, size_t len)
{
    size_t i = 0;
    while (i < len && l[i] == ' ')
        i++;
    int word = len - i > 4 && !memcmp(l + i, "ISN ", 4);   /* H: "ISN 0002      SUBROUTINE ..." */
    if (word)
        i += 4;
    size_t b = i;
    while (i < len && isdigit((unsigned char)l[i]))
        i++;
    if (i - b != 4 || i >= len || l[i] != ' ')
        return 0;
    long isn = strtol(l + b, NULL, 10);
    /* G: the card image starts 8 columns after the ISN ("   0001" + 8, as a real TK4- G
    ** LEVEL 21 listing prints it): its columns 1-72 are the statement, 73-80 its sequence
    ** number. H's "ISN nnnn": where column 1 falls is not known (no real listing seen, only
    ** an OCR'd one): the text is the rest of the line, up to 80 columns */
    size_t n;
    if (word) {
        n = len - i < 80 ? len - i : 80;
    } else {
        i += 8;
        if (i > len)
            i = len;
        n = len - i < 72 ? len - i : 72;
    }
    while (n && l[i] == ' ')
        i++, n--;
    while (n && l[i + n - 1] == ' ')
        n--;
    if (r->nx == r->xcap) {
        r->xcap = r->xcap ? 2 * r->xcap : 256;
        r->x = fst_xrealloc(r->x, r->xcap * sizeof *r->x);
    }
    char *text = fst_xmalloc(n + 1);
    memcpy(text, l + i, n);
    text[n] = 0;
    r->x[r->nx++] = (ftext){ r->cur, isn, text };
    return 1;
}

static const char *text_of(const freader *r, int unit, long isn)
{
    for (size_t i = 0; i < r->nx; i++)
        if (r->x[i].unit == unit && r->x[i].isn == isn)
            return r->x[i].text;
    return NULL;
}

static void make_units(freader *r)
{
    for (int u = 0; u < r->nunits; u++) {
        int any = 0;
        for (size_t i = 0; i < r->nl; i++)
            any |= r->l[i].unit == u;
        if (!any)
            continue;   /* a unit with no object listing: nothing to place */
        fst_stmt_begin_unit(r->t, r->kind[u], r->path, r->units[u], 0);
        fst_stmt_set_name(r->t, r->units[u], 0);
        for (size_t i = 0; i < r->nl; i++) {
            const fline *f = &r->l[i];
            if (f->unit != u)
                continue;
            uint64_t hi = f->loc + (f->nobj ? f->nobj : 2);
            for (size_t j = i + 1; j < r->nl; j++)
                if (r->l[j].unit == u) {
                    if (r->l[j].loc > f->loc)
                        hi = r->l[j].loc;
                    break;
                }
            if (f->isn >= 0) {
                char file[300];
                snprintf(file, sizeof file, "%s(%s)", r->path, r->units[u]);
                fst_stmt_add(r->t, file, (uint32_t)f->isn, text_of(r, u, f->isn), f->loc, hi, f->obj, f->nobj, 0);
            } else if (f->nobj)
                fst_stmt_add_code(r->t, f->loc, f->obj, f->nobj);
        }
    }
}

int fst_stmt_read_fort(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err)
{
    freader r = { .t = t, .path = path, .cur = -1, .isn = -1 };
    fst_map_line *lines;
    size_t nl = fst_map_lines(buf, len, &lines);
    int rc = 0, seen = 0;
    for (size_t i = 0; i < nl && !rc; i++) {
        char *l = lines[i].text;
        size_t n = lines[i].len;
        while (n && l[n - 1] == ' ')
            l[--n] = 0;
        if (n && strchr("10-+", l[0]) && l[1] == ' ' && lines[i].len > 1)
            l[0] = ' ';     /* an ASA control character: a page eject or spacing, not text */
        if (!n || title(&r, l))
            continue;
        if (r.cur < 0)
            continue;       /* before the first compilation's title: job output */
        if (heading(&r, l)) {
            seen = 1;
            continue;
        }
        if (r.objlist) {
            if (objline(&r, l, n))
                continue;
            if (fst_stmt_has(l, "MAP") || fst_stmt_has(l, "STATISTICS") || fst_stmt_has(l, "OPTIONS IN EFFECT") ||
                fst_stmt_has(l, "SUBPROGRAMS")) {
                r.objlist = 0;
                continue;
            }
            char sh[256];
            rc = fst_errf(err, "%s:%lu: not a line of a FORTRAN IV object listing (LIST): '%s'", path,
                          lines[i].lineno, fst_stmt_shown(l, sh, sizeof sh));
            continue;
        }
        srcline(&r, l, n);  /* or anything else of the listing: the MAP, messages, options */
    }
    if (!rc && !seen)
        rc = fst_errf(err, "%s: no object listing ('LOCATION  STA NUM  LABEL  OP  OPERAND' heading): compile with "
                           "the LIST option, so that the listing says where each statement's code is", path);
    if (!rc)
        make_units(&r);
    fst_map_lines_free(lines, nl);
    for (int u = 0; u < r.nunits; u++)
        free(r.units[u]);
    for (size_t i = 0; i < r.nx; i++)
        free(r.x[i].text);
    free(r.x);
    free(r.l);
    return rc;
}
