/*
** formats/elf.c — a stub ELF for gprof (formats/profout.h): ELF32, big-endian, EM_S390,
** ET_EXEC, no program headers, six sections:
**     [0] null  [1] .text NOBITS AX at [lo, hi)  [2] .symtab  [3] .strtab  [4] .shstrtab
**     [5] .comment: FST_STUB_MARK, so that fst knows a file it wrote (fst_stub_elf_ours): a
**         stub is replaced, a program's own ELF never
** .symtab: the null symbol, the .text section symbol, then one GLOBAL FUNC symbol per timed
** routine, sorted by address, and _etext at the end of .text. gprof needs STT_FUNC: with untyped symbols it still assigns
** histogram time but drops the call counts (notes/profformats.md §2.4). The class (32-bit)
** makes gprof read 4-byte addresses in gmon.out, the data encoding big-endian integers.
** Errors: -1 with err naming the file.
*/
#include "formats/profout.h"
#include "common/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FST_STUB_MARK "fst-report --format=gmon --elf: a stub ELF naming the routines, for gprof"

void fst_be16(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v >> 8);
    b[1] = (unsigned char)v;
}

void fst_be32(unsigned char *b, uint32_t v)
{
    fst_be16(b, v >> 16);
    fst_be16(b + 2, v & 0xFFFF);
}

typedef struct buf {
    unsigned char *b;
    size_t n, cap;
} buf;

static void put(buf *o, const void *p, size_t n)
{
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 256;
        o->b = fst_xrealloc(o->b, o->cap);
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put32(buf *o, uint32_t v)
{
    unsigned char b[4];
    fst_be32(b, v);
    put(o, b, 4);
}

static void align4(buf *o)
{
    while (o->n % 4)
        put(o, "", 1);
}

static const fst_profile *sort_prof;
static int by_entry(const void *a, const void *b)
{
    uint64_t x = sort_prof->r[*(const size_t *)a].entry, y = sort_prof->r[*(const size_t *)b].entry;
    return x < y ? -1 : x > y;
}

/* .symtab and .strtab for the timed routines. */
static void symbols(const fst_profile *p, uint32_t hi, buf *sym, buf *str)
{
    size_t *ix = fst_xmalloc((p->nr ? p->nr : 1) * sizeof *ix), n = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed)
            ix[n++] = i;
    sort_prof = p;
    qsort(ix, n, sizeof *ix, by_entry);
    put(str, "", 1);
    unsigned char z[16] = { 0 };
    put(sym, z, 16);                        /* the null symbol */
    put32(sym, 0), put32(sym, 0), put32(sym, 0);
    put(sym, "\x03\x00\x00\x01", 4);        /* LOCAL SECTION, section 1 */
    for (size_t k = 0; k < n; k++) {
        const fst_routine *r = &p->r[ix[k]];
        uint32_t a = (uint32_t)(r->entry & 0x7FFFFFFF);
        uint32_t end = k + 1 < n ? (uint32_t)(p->r[ix[k + 1]].entry & 0x7FFFFFFF) : hi;
        put32(sym, (uint32_t)str->n);
        put(str, r->name, strlen(r->name) + 1);
        put32(sym, a);
        put32(sym, end > a ? end - a : 2);
        put(sym, "\x12\x00\x00\x01", 4);    /* GLOBAL FUNC, section 1 */
    }
    /* gprof credits a histogram bin to a symbol up to the next symbol's address, so the
    ** last routine needs one after it: _etext at hi (untyped, so it has no calls) */
    put32(sym, (uint32_t)str->n);
    put(str, "_etext", 7);
    put32(sym, hi), put32(sym, 0);
    put(sym, "\x10\x00\x00\x01", 4);        /* GLOBAL NOTYPE, section 1 */
    free(ix);
}

static void shdr(buf *o, uint32_t name, uint32_t type, uint32_t flags, uint32_t addr, uint32_t off, uint32_t size,
                 uint32_t link, uint32_t info, uint32_t align, uint32_t entsize)
{
    uint32_t v[10] = { name, type, flags, addr, off, size, link, info, align, entsize };
    for (int i = 0; i < 10; i++)
        put32(o, v[i]);
}

int fst_write_stub_elf(const char *path, const fst_profile *p, uint32_t lo, uint32_t hi, fst_err *err)
{
    static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab\0.comment"; /* names at 1, 7, 15, 23, 33 */
    buf o = { 0 }, sym = { 0 }, str = { 0 };
    symbols(p, hi, &sym, &str);
    static const unsigned char ident[16] = { 0x7F, 'E', 'L', 'F', 1, 2, 1 };
    put(&o, ident, 16);
    unsigned char h[36];
    uint32_t symoff = 52, stroff = symoff + (uint32_t)sym.n, shsoff = stroff + (uint32_t)str.n;
    uint32_t cmtoff = shsoff + (uint32_t)sizeof shstr;
    uint32_t shoff = (cmtoff + (uint32_t)sizeof FST_STUB_MARK + 3) & ~3u;
    fst_be16(h, 2);                  /* ET_EXEC */
    fst_be16(h + 2, 22);             /* EM_S390 */
    fst_be32(h + 4, 1);              /* EV_CURRENT */
    fst_be32(h + 8, lo);             /* entry */
    fst_be32(h + 12, 0);             /* no program headers */
    fst_be32(h + 16, shoff);
    fst_be32(h + 20, 0);             /* flags */
    fst_be16(h + 24, 52);
    fst_be16(h + 26, 0), fst_be16(h + 28, 0);
    fst_be16(h + 30, 40), fst_be16(h + 32, 6), fst_be16(h + 34, 4);
    put(&o, h, sizeof h);
    put(&o, sym.b, sym.n);
    put(&o, str.b, str.n);
    put(&o, shstr, sizeof shstr);
    put(&o, FST_STUB_MARK, sizeof FST_STUB_MARK);
    align4(&o);
    shdr(&o, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    shdr(&o, 1, 8 /* NOBITS */, 6 /* AX */, lo, symoff, hi - lo, 0, 0, 2, 0);
    shdr(&o, 7, 2 /* SYMTAB */, 0, 0, symoff, (uint32_t)sym.n, 3, 2 /* first global */, 4, 16);
    shdr(&o, 15, 3 /* STRTAB */, 0, 0, stroff, (uint32_t)str.n, 0, 0, 1, 0);
    shdr(&o, 23, 3, 0, 0, shsoff, (uint32_t)sizeof shstr, 0, 0, 1, 0);
    shdr(&o, 33, 1 /* PROGBITS */, 0, 0, cmtoff, (uint32_t)sizeof FST_STUB_MARK, 0, 0, 1, 0);
    fst_out f; /* all or nothing (common/outfile.h) */
    int rc = fst_out_open(&f, path, err);
    if (!rc && fwrite(o.b, 1, o.n, f.f) != o.n) {
        rc = fst_errno(err, "%s: cannot write", path);
        fst_out_abort(&f);
    } else if (!rc)
        rc = fst_out_close(&f, err);
    free(o.b);
    free(sym.b);
    free(str.b);
    return rc;
}

int fst_stub_elf_ours(const char *path, fst_err *err)
{
    struct stat sb;
    if (stat(path, &sb))
        return errno == ENOENT ? 0 : fst_errno(err, "--elf=%s", path);
    FILE *f = S_ISREG(sb.st_mode) && sb.st_size < (1 << 20) ? fopen(path, "rb") : NULL;
    char b[1 << 20];
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; n >= sizeof FST_STUB_MARK && i <= n - sizeof FST_STUB_MARK; i++)
        if (b[i] == 'f' && !memcmp(b + i, FST_STUB_MARK, sizeof FST_STUB_MARK))
            return 0;
    return fst_errf(err, "--elf=%s: the file is there and is not a stub ELF fst wrote (the program's own ELF?): "
                         "--elf writes a file of its own; give it a new name (gprof -b stub.elf gmon.out)", path);
}
