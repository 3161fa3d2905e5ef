/* model/stmt_gas.c — the statement table of a GNU as listing (as -al, model/stmttab.h).
**
** The listing (binutils' gas/listing.c) prints, per source line: its line number in its
** file, the location in its section (4 or more hex digits) and up to 4 bytes of object code
** when it made any, a tab, the source text; more object code follows on continuation lines
** (the number, no location); at most --listing-cont-lines of them, so a statement's extent
** is from its location to the next located statement of its section, not its printed
** bytes. Pages start with a form feed, "GAS LISTING FILE ... page N" and blank lines.
** An included file's lines are numbered in it: after `.include "F"` the numbers restart at
** 1 in F, and resume in the includer where F ends. Sections switch with .text, .data,
** .section, .previous, .pushsection/.popsection in the text; code a macro puts in another
** section is not listed at all. Each section with code is a unit, placed by finding its
** code in the trace's image. A macro's expansion is its invocation's statement. Compared
** with the image: every statement's printed bytes but directives' (.long TICK is
** relocated) and aligned zero words (an address constant not yet relocated).
*/
#include "model/stmttab_int.h"
#include "common/quote.h"

#include <stdlib.h>
#include <string.h>

static char *xstrndup(const char *p, size_t n)
{
    char *s = fst_xmalloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

enum { MAX_OBJ = 64, MAX_SECT = 64, MAX_DEPTH = 16 };

typedef struct gline {      /* one statement of the listing that made object code */
    int sect;
    const char *file;       /* kept by the table */
    uint32_t line;
    uint64_t addr;
    uint8_t obj[MAX_OBJ];
    size_t nobj;
    int directive;
    char *text;
} gline;

typedef struct gstate {
    const char *path;
    fst_stmt_tab *t;
    gline *g;
    size_t n, cap;
    char *sect[MAX_SECT];   /* section names, index = id */
    int nsect, cur, prev, stack[MAX_DEPTH], nstack;
    const char *file[MAX_DEPTH];  /* the include stack: file and its last line */
    uint32_t last[MAX_DEPTH];
    int depth;
    const char *pending;    /* a .include just read: its file starts at line 1 */
} gstate;

static int sect_id(gstate *s, const char *name, size_t len)
{
    for (int i = 0; i < s->nsect; i++)
        if (strlen(s->sect[i]) == len && !memcmp(s->sect[i], name, len))
            return i;
    if (s->nsect == MAX_SECT)
        return s->nsect - 1;
    s->sect[s->nsect] = xstrndup(name, len);
    return s->nsect++;
}

/* The first word of the source text after a label: the operation. */
static const char *operation(const char *text, size_t *len)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *w = p;
    while (*p && *p != ' ' && *p != '\t' && *p != ':')
        p++;
    if (*p == ':') {            /* a label: the operation follows */
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        w = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    *len = (size_t)(p - w);
    return w;
}

/* Section directives in the text: the section the next statements go to. */
static void track_section(gstate *s, const char *text)
{
    size_t n;
    const char *op = operation(text, &n), *arg = op + n;
    while (*arg == ' ' || *arg == '\t')
        arg++;
    size_t an = strcspn(arg, " \t,#");
    int to = -1;
    if ((n == 5 && !memcmp(op, ".text", 5)) || (n == 5 && !memcmp(op, ".data", 5)) || (n == 4 && !memcmp(op, ".bss", 4)))
        to = sect_id(s, op, n);
    else if ((n == 8 && !memcmp(op, ".section", 8)) || (n == 12 && !memcmp(op, ".pushsection", 12))) {
        to = sect_id(s, arg, an);
        if (n == 12 && s->nstack < MAX_DEPTH)
            s->stack[s->nstack++] = s->cur;
    } else if (n == 9 && !memcmp(op, ".previous", 9))
        to = s->prev;
    else if (n == 11 && !memcmp(op, ".popsection", 11) && s->nstack)
        to = s->stack[--s->nstack];
    if (to >= 0) {
        s->prev = s->cur;
        s->cur = to;
    }
    if (n == 8 && !memcmp(op, ".include", 8) && *arg == '"') {
        const char *e = strchr(arg + 1, '"');
        char *name = xstrndup(arg + 1, e ? (size_t)(e - arg - 1) : strlen(arg + 1));
        s->pending = fst_stmt_keep(s->t, name);
        free(name);
    }
}

/* The file a line number belongs to: an include starts at 1, its end resumes the includer. */
static const char *file_of(gstate *s, uint32_t line)
{
    if (s->pending && line == 1 && s->depth + 1 < MAX_DEPTH) {
        s->depth++;
        s->file[s->depth] = s->pending;
        s->last[s->depth] = 0;
    }
    s->pending = NULL;
    while (s->depth > 0 && line != s->last[s->depth] && line != s->last[s->depth] + 1 &&
           line == s->last[s->depth - 1] + 1)
        s->depth--;
    s->last[s->depth] = line;
    return s->file[s->depth];
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Object code in hex (upper case, as the listing prints it) appended to g. */
static int add_hex(gline *g, const char *p, size_t n)
{
    if (n % 2)
        return -1;
    for (size_t i = 0; i + 1 < n; i += 2) {
        int a = hexval(p[i]), b = hexval(p[i + 1]);
        if (a < 0 || b < 0)
            return -1;
        if (g->nobj < MAX_OBJ)
            g->obj[g->nobj++] = (uint8_t)(a << 4 | b);
    }
    return 0;
}

/* One listing line: 0 read (or skipped), -1 when it is not a GNU as listing line. */
static int read_line(gstate *s, const char *l, size_t len)
{
    if (!len || (len >= 11 && !memcmp(l, "GAS LISTING", 11)))
        return 0;
    size_t i = 0;
    while (i < len && l[i] == ' ')
        i++;
    size_t d = i;
    uint32_t num = 0;
    while (i < len && l[i] >= '0' && l[i] <= '9' && num < 100000000u)
        num = num * 10 + (uint32_t)(l[i++] - '0');
    if (i == d || i >= len || l[i] != ' ')
        return -1;
    const char *tab = memchr(l + i, '\t', len - i);
    size_t fieldlen = tab ? (size_t)(tab - l) - i : len - i;
    const char *f = l + i;
    while (fieldlen && *f == ' ')
        f++, fieldlen--;
    while (fieldlen && f[fieldlen - 1] == ' ')
        fieldlen--;
    char *text = tab ? xstrndup(tab + 1, len - (size_t)(tab + 1 - l)) : NULL;
    if (text)
        for (size_t k = strlen(text); k && (text[k - 1] == '\r' || text[k - 1] == ' '); k--)
            text[k - 1] = 0;
    if (!tab) {     /* a continuation: more object code of the statement before */
        gline *g = s->n ? &s->g[s->n - 1] : NULL;
        free(text);
        if (!fieldlen)
            return 0;
        return g && g->line == num && add_hex(g, f, fieldlen) == 0 ? 0 : -1;
    }
    const char *file = file_of(s, num);
    int sect = s->cur;
    track_section(s, text);
    if (!fieldlen) {    /* no code: its text is kept for a statement with none */
        free(text);
        return 0;
    }
    size_t an = strcspn(f, " ");
    uint64_t addr = 0;
    for (size_t k = 0; k < an; k++) {
        int v = hexval(f[k]);
        if (v < 0)
            return free(text), -1;
        addr = addr << 4 | (uint64_t)v;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->g = fst_xrealloc(s->g, s->cap * sizeof *s->g);
    }
    gline *g = &s->g[s->n++];
    *g = (gline){ .sect = sect, .file = file, .line = num, .addr = addr, .text = text };
    size_t on;
    const char *op = operation(text, &on);
    g->directive = on && op[0] == '.';
    const char *o = f + an;
    while (*o == ' ')
        o++;
    return add_hex(g, o, fieldlen - (size_t)(o - f)) == 0 ? 0 : -1;
}

/* The object code to compare, less aligned zero words (address constants before relocation). */
static void add_code(fst_stmt_tab *t, const gline *g)
{
    if (g->directive)
        return;
    for (size_t k = 0; k < g->nobj;) {
        size_t e = k;
        while (e < g->nobj && !(e % 4 == 0 && e + 4 <= g->nobj && !memcmp(g->obj + e, "\0\0\0\0", 4)))
            e++;
        if (e > k)
            fst_stmt_add_code(t, g->addr + k, g->obj + k, e - k);
        k = e < g->nobj ? e + 4 : e;
    }
}

/* Every section with code: a unit, its statements from their location to the next one's. */
static void make_units(gstate *s)
{
    for (int sec = 0; sec < s->nsect; sec++) {
        int any = 0;
        for (size_t i = 0; i < s->n; i++)
            any |= s->g[i].sect == sec && !s->g[i].directive;
        if (!any)
            continue;
        fst_stmt_begin_unit(s->t, FST_STMT_GAS, s->path, NULL, 0);
        for (size_t i = 0; i < s->n; i++) {
            const gline *g = &s->g[i];
            if (g->sect != sec)
                continue;
            uint64_t hi = g->addr + g->nobj;
            for (size_t j = i + 1; j < s->n; j++)
                if (s->g[j].sect == sec) {
                    if (s->g[j].addr > g->addr)
                        hi = s->g[j].addr;
                    break;
                }
            fst_stmt_add(s->t, g->file, g->line, g->text, g->addr, hi, NULL, 0, 1);
            add_code(s->t, g);
        }
    }
}

int fst_stmt_read_gas(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err)
{
    gstate s = { .path = path, .t = t };
    char *own = xstrndup(buf, len);     /* NUL-terminated, for the string functions below */
    buf = own;
    s.cur = s.prev = sect_id(&s, ".text", 5);
    const char *hdr = fst_memstr(buf, len < 4096 ? len : 4096, "GAS LISTING ");
    size_t hl = hdr ? strcspn(hdr + 12, " \t\r\n") : 0;
    char *main = xstrndup(hdr ? hdr + 12 : path, hdr ? hl : strlen(path));
    s.file[0] = fst_stmt_keep(t, main);
    free(main);
    int rc = 0;
    unsigned long lineno = 0;
    for (size_t at = 0; at < len && !rc;) {
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - buf) - at : len - at;
        const char *l = buf + at;
        lineno++;
        at += n + 1;
        while (n && (*l == '\f'))
            l++, n--;
        if (n && l[n - 1] == '\r')
            n--;
        if (read_line(&s, l, n) < 0) {
            char raw[61], shown[256];
            size_t k = n < 60 ? n : 60;
            memcpy(raw, l, k);
            raw[k] = 0;
            rc = fst_errf(err, "%s:%lu: not a line of a GNU as listing (as -al): '%s'", path, lineno,
                          fst_printable(raw, shown, sizeof shown));
        }
    }
    if (!rc)
        make_units(&s);
    for (size_t i = 0; i < s.n; i++)
        free(s.g[i].text);
    free(s.g);
    for (int i = 0; i < s.nsect; i++)
        free(s.sect[i]);
    free(own);
    return rc;
}
