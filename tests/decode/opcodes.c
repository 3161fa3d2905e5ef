/*
** tests/decode/opcodes.c — print binutils' own s390 opcode table, one line per entry,
** for tests/decode/gen-binutils.sh. Not part of fst: a test tool, built by that script.
**
** The table is read from the libopcodes that s390x-linux-gnu-objdump itself uses
** (Debian binutils-s390x-linux-gnu: libopcodes-<version>-s390x.so exports s390_opcodes,
** s390_num_opcodes and s390_operands). Its entry layout (include/opcode/s390.h) is
**   name, opcode[6], mask[6], oplen, operands[6], modes, min_cpu, flags [, description]
** and the tool checks that every entry it reads looks like one (a printable name, a
** length of 2, 4 or 6, no opcode bit outside the mask), trying the layout without and
** with the description pointer, so a changed layout fails loudly instead of printing
** garbage.
**
** Output: name opcode(12 hex) mask(12 hex) length min_cpu flags(hex) : operand...
** where an operand is bits/shift/flags(hex) from s390_operands.
** Exit 2 when the library or its table cannot be read.
*/
#include <ctype.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct operand { int bits, shift; unsigned long flags; };

typedef struct entry {
    const char *name;
    unsigned char opcode[6], mask[6];
    int oplen;
    unsigned char operands[6];
    unsigned modes, min_cpu, flags;
} entry;

/* The fields at their offsets in an entry of `stride` bytes (the layout above, with the
** natural alignment of x86-64 and every LP64 host). */
static entry at(const unsigned char *base, size_t stride, int i)
{
    const unsigned char *p = base + stride * (size_t)i;
    entry e;
    memcpy(&e.name, p, sizeof e.name);
    memcpy(e.opcode, p + 8, 6);
    memcpy(e.mask, p + 14, 6);
    memcpy(&e.oplen, p + 20, 4);
    memcpy(e.operands, p + 24, 6);
    memcpy(&e.modes, p + 32, 4);
    memcpy(&e.min_cpu, p + 36, 4);
    memcpy(&e.flags, p + 40, 4);
    return e;
}

static int plausible(const entry *e)
{
    if (!e->name || !*e->name || strlen(e->name) > 12)
        return 0;
    for (const char *s = e->name; *s; s++)
        if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '*')
            return 0;
    if (e->oplen != 2 && e->oplen != 4 && e->oplen != 6)
        return 0;
    for (int k = 0; k < 6; k++)
        if (e->opcode[k] & ~e->mask[k])
            return 0;
    return e->min_cpu < 64;
}

int main(void)
{
    glob_t g;
    if (glob("/usr/lib/*/libopcodes-*-s390x.so", 0, NULL, &g) || !g.gl_pathc) {
        fprintf(stderr, "opcodes: no libopcodes-*-s390x.so (binutils-s390x-linux-gnu)\n");
        return 2;
    }
    void *h = dlopen(g.gl_pathv[0], RTLD_NOW);
    if (!h) {
        fprintf(stderr, "opcodes: %s\n", dlerror());
        return 2;
    }
    const unsigned char *tab = dlsym(h, "s390_opcodes");
    const int *n = dlsym(h, "s390_num_opcodes");
    const struct operand *opnd = dlsym(h, "s390_operands");
    if (!tab || !n || !opnd || *n < 100) {
        fprintf(stderr, "opcodes: %s: no s390 opcode table\n", g.gl_pathv[0]);
        return 2;
    }
    static const size_t strides[] = { 48, 56 };
    size_t stride = 0;
    for (size_t s = 0; s < 2 && !stride; s++) {
        int ok = 1;
        for (int i = 0; i < *n && ok; i++) {
            entry e = at(tab, strides[s], i);
            ok = plausible(&e);
        }
        if (ok)
            stride = strides[s];
    }
    if (!stride) {
        fprintf(stderr, "opcodes: %s: the opcode table's layout is not the expected one\n", g.gl_pathv[0]);
        return 2;
    }
    printf("# %s: %d entries\n", g.gl_pathv[0], *n);
    for (int i = 0; i < *n; i++) {
        entry e = at(tab, stride, i);
        printf("%s ", e.name);
        for (int k = 0; k < 6; k++)
            printf("%02x", e.opcode[k]);
        printf(" ");
        for (int k = 0; k < 6; k++)
            printf("%02x", e.mask[k]);
        printf(" %d %u %x :", e.oplen, e.min_cpu, e.flags);
        for (int k = 0; k < 6 && e.operands[k]; k++) {
            const struct operand *o = &opnd[e.operands[k]];
            printf(" %d/%d/%lx", o->bits, o->shift, o->flags);
        }
        printf("\n");
    }
    globfree(&g);
    return 0;
}
