/* model/stmt_dwarf.c — the statement table of an ELF built with -g: its DWARF line tables,
** read with elfutils' libdw (not decoded by hand), and its code sections, by which it is
** placed and checked against the trace (model/stmttab.h). */
#include "model/stmttab_int.h"
#include "common/lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The ELF's code: every section of instructions, as the unit's object code. */
static int add_code(fst_stmt_tab *t, Elf *elf, const char *path, fst_err *err)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) < 0)
        return fst_errf(err, "%s: %s", path, elf_errmsg(-1));
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size != sh.sh_size)
            return fst_errf(err, "%s: cannot read its section %s", path, elf_strptr(elf, shstrndx, sh.sh_name));
        fst_stmt_add_code(t, sh.sh_addr, d->d_buf, d->d_size);
    }
    return 0;
}

/* Where a relative source name is: the compilation directory of its unit (the table keeps
** the name as the line table has it; only its text is looked for there). */
typedef struct srcdir {
    const char *file, *dir;     /* kept by the table */
} srcdir;
typedef struct srcdirs {
    srcdir *v;
    size_t n, cap;
} srcdirs;

static void note_dir(fst_stmt_tab *t, srcdirs *d, const char *file, const char *dir)
{
    if (!dir || file[0] == '/')
        return;
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].file, file))
            return;
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 16;
        d->v = fst_xrealloc(d->v, d->cap * sizeof *d->v);
    }
    d->v[d->n++] = (srcdir){ fst_stmt_keep(t, file), fst_stmt_keep(t, dir) };
}

/* One compilation unit's rows: each row owns the addresses up to the next row (libdw sorts
** them by address, an end of sequence before a row at the same address), unless it ends a
** sequence. */
static void add_rows(fst_stmt_tab *t, Dwarf_Lines *lines, size_t n, srcdirs *d, const char *compdir)
{
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a, b = 0;
        int line = 0;
        bool end = false;
        const char *src;
        if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &line) || dwarf_lineendsequence(l, &end) ||
            !(src = dwarf_linesrc(l, NULL, NULL)))
            continue;
        if (end)
            continue;
        Dwarf_Line *next = i + 1 < n ? dwarf_onesrcline(lines, i + 1) : NULL;
        if (!next || dwarf_lineaddr(next, &b) || b < a)
            b = a;
        fst_stmt_add(t, src, (uint32_t)(line > 0 ? line : 0), NULL, a, b, NULL, 0, 1);
        note_dir(t, d, src, compdir);
    }
}

static void read_sources(fst_stmt_tab *t, size_t unit, const srcdirs *d);

int fst_stmt_read_dwarf(fst_stmt_tab *t, const char *path, fst_err *err)
{
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return fst_errno(err, "%s: cannot open", path);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    Dwarf *dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
    int rc = 0;
    size_t rows = 0, ns = t->ns, nr = t->nr, nc = t->nc;
    srcdirs dirs = { 0 };
    if (!elf)
        rc = fst_errf(err, "%s: not an ELF libelf reads: %s", path, elf_errmsg(-1));
    else if (!dw)
        rc = fst_errf(err, "%s: no DWARF debugging information (built without -g?): %s", path, dwarf_errmsg(-1));
    else {
        fst_stmt_begin_unit(t, FST_STMT_DWARF, path, NULL, 1);
        rc = add_code(t, elf, path, err);
        size_t hsize;
        for (Dwarf_Off off = 0, next; !rc && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
            Dwarf_Die cu;
            Dwarf_Lines *lines;
            size_t n;
            if (!dwarf_offdie(dw, off + hsize, &cu) || dwarf_getsrclines(&cu, &lines, &n) != 0)
                continue;   /* a unit without a line table (start-up code in assembler) */
            Dwarf_Attribute at;
            add_rows(t, lines, n, &dirs, dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at)));
            rows += n;
        }
        if (!rc && !rows)
            rc = fst_errf(err, "%s: no DWARF line table (built without -g?)", path);
        if (rc)
            fst_stmt_drop_unit(t, ns, nr, nc);
    }
    if (dw)
        dwarf_end(dw);
    if (elf)
        elf_end(elf);
    close(fd);
    if (!rc)
        read_sources(t, t->nu - 1, &dirs);
    free(dirs.v);
    return rc;
}

/* ---- the text of each line, from the source file when it can be read ---- */

enum { MAX_SOURCE = 16u << 20 };

/* The source file: as named, else in its unit's compilation directory. */
static FILE *open_source(const char *name, const srcdirs *d)
{
    FILE *f = fopen(name, "rb");
    for (size_t i = 0; !f && d && i < d->n; i++)
        if (!strcmp(d->v[i].file, name)) {
            size_t n = strlen(d->v[i].dir) + strlen(name) + 2;
            char *p = fst_xmalloc(n);
            snprintf(p, n, "%s/%s", d->v[i].dir, name);
            f = fopen(p, "rb");
            free(p);
        }
    return f;
}

static void read_sources(fst_stmt_tab *t, size_t unit, const srcdirs *d)
{
    for (size_t f = 0; f < t->nfiles; f++) {
        const char *name = t->files[f];
        char *buf = NULL;
        size_t len = 0, nl = 0;
        int want = 0;
        for (size_t i = 0; i < t->ns && !want; i++)
            want = t->s[i].unit == unit && t->s[i].file == name && !t->s[i].text && t->s[i].line;
        FILE *fp = want ? open_source(name, d) : NULL;
        fst_err e;
        if (!fp || fst_read_all(fp, name, "source file", MAX_SOURCE, &buf, &len, &e) < 0)
            buf = NULL;
        if (fp)
            fclose(fp);
        if (!buf)
            continue;
        char **starts = fst_xcalloc(len + 2, sizeof *starts);
        starts[nl++] = buf;
        for (size_t k = 0; k < len; k++)
            if (buf[k] == '\n') {
                buf[k] = 0;
                starts[nl++] = buf + k + 1;
            }
        for (size_t i = 0; i < t->ns; i++) {
            fst_stmt *s = &t->s[i];
            if (s->unit != unit || s->file != name || s->text || !s->line || s->line > nl)
                continue;
            char *text = starts[s->line - 1];
            size_t n = strlen(text);
            while (n && (text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == '\t'))
                text[--n] = 0;
            s->text = fst_stmt_keep(t, text);
        }
        free(starts);
        free(buf);
    }
}
