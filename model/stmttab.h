/*
** model/stmttab.h — statement tables: which source statement each address of a program
** belongs to (issue 34), read from what users have, behind one interface.
**
** The profilers users compare fst with (IBM APA, Strobe, gprof -l, callgrind) attribute
** time to source statements; fst has every instruction, so it can give each statement its
** exact counts. A table maps an address to a statement: a file (source file, or the
** listing's routine), a number (source line, assembler statement number, FORTRAN ISN) and
** the statement's text when known. One reader per kind of input, all filling this table:
**
**   dwarf   the DWARF line table of an ELF (gcc -g), read with elfutils' libdw
**           (model/stmt_dwarf.c); absolute addresses as linked; the text from the source
**           file when it can be read
**   gas     a GNU as listing (-al): statement, location, object code, text (stmt_gas.c)
**   ibmasm  an IBM assembler listing (IFOX00 / Assembler F, HLASM): LOC, OBJECT CODE,
**           STMT, SOURCE STATEMENT (stmt_ibmasm.c)
**   fortg, forth  a FORTRAN IV G or H compiler listing with the LIST option: the object
**           listing's locations per ISN, the source listing's text (stmt_fort.c)
**
**   fst_stmt_tab *t = fst_stmt_new();
**   if (fst_stmt_load(t, "prog.elf", &err) < 0) ...      any kind, told from the content
**   if (fst_stmt_place(t, routines, nroutines, image, nimage, &err) < 0) ...
**   const fst_stmt_span *s = fst_stmt_find(t, 0x20A40);   NULL: no statement there
**   fst_stmt_free(t);
**
** Units and placement. A table holds units: one per ELF (absolute addresses), per listed
** control section or per FORTRAN routine (addresses relative to the unit's start, as the
** listing prints them). Placement is as for maps (model/progmodel.h): the load point comes
** from the trace. A unit whose name is a routine of the profile starts at that routine's
** entry (less the name's own offset in the unit); otherwise the unit's object code (the
** bytes of its instructions, from the listing or the ELF's code sections) is looked for in
** the trace's storage image and must be found at exactly one place. A placed unit's
** instruction bytes must then equal the image's there (data statements — address
** constants are relocated — are not compared): a listing of another program or version is
** refused, naming it, never reported against the wrong code. An ELF is placed where it was
** linked when its code is there.
**
** Statements that share addresses and code with no statement. Once placed, the table is a
** list of spans: disjoint address ranges, in address order, each with the statements that
** claim it. A span claimed by several statements (two listing statements given the same
** code: an ORG or .org back over it, two tables read for one program) names all of them
** (nstmts > 1) and is reported as shared, never split by a guess nor dropped. Each listing
** reader gives a statement the code its listing puts under it (a FORTRAN DO loop's
** increment, listed under the loop's terminal statement, is that statement's; a macro's
** expansion is its invocation's under GNU as, each generated statement's under IBM's).
** DWARF gives each address to the last row at or below it in its sequence (as objdump
** --dwarf=decodedline reads it), so inlined code is the inlined line's; a line whose rows
** all have no length (another row at the same address follows) owns no address. An
** address no span holds has no statement: fst_stmt_find returns NULL and the reports say
** "(no statement)".
**
** Errors: -1 with err set, naming the file and the line ("prog.lst:41: ...") or what is
** wrong ("prog.elf: no DWARF line table (built without -g?)"); nothing is printed.
** Ownership: the table owns every string, statement and span; pointers returned stay valid
** until the next load or place, or fst_stmt_free.
*/
#ifndef FST_STMTTAB_H
#define FST_STMTTAB_H

#include "trace/tracebin.h"   /* fst_image_seg */
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef enum fst_stmt_kind {
    FST_STMT_AUTO = 0, FST_STMT_DWARF, FST_STMT_GAS, FST_STMT_IBMASM, FST_STMT_FORTG, FST_STMT_FORTH,
} fst_stmt_kind;

typedef struct fst_stmt {
    const char *file;       /* source file (DWARF), the listing's file otherwise */
    uint32_t line;          /* source line, listing statement number, or FORTRAN ISN */
    const char *text;       /* the statement's source text (first line), NULL when unknown */
    size_t unit;
    uint64_t order;         /* reading order: ties between statements of one address */
} fst_stmt;

typedef struct fst_stmt_span {
    uint64_t lo, hi;        /* absolute [lo, hi) */
    size_t first, n;        /* its statements (fst_stmt_of), by file and line */
    size_t group;           /* the first span with the same statements (itself, or an earlier
                               one: a statement whose code is in several pieces) */
} fst_stmt_span;

typedef struct fst_stmt_unit {
    const char *name;       /* control section / routine name; NULL for an ELF */
    const char *file;       /* the file it was read from */
    fst_stmt_kind kind;
    int absolute;           /* addresses are absolute as linked (ELF) */
    uint64_t base;          /* once placed: absolute address of the unit's offset 0 */
    int placed;
    uint64_t name_off;      /* offset of its name (its entry) in the unit */
} fst_stmt_unit;

typedef struct fst_stmt_tab fst_stmt_tab;

fst_stmt_tab *fst_stmt_new(void);
void fst_stmt_free(fst_stmt_tab *t);

/* Read one file of any kind (told from its content) and add its units. A file of more
** than FST_STMT_MAX_BYTES is refused (/dev/zero is an error, not an exhausted memory). */
#define FST_STMT_MAX_BYTES (256u << 20)
int fst_stmt_load(fst_stmt_tab *t, const char *path, fst_err *err);
const char *fst_stmt_kind_name(fst_stmt_kind k);    /* "dwarf", "gas", ... */

/* A routine of the profile, for placement by name. */
typedef struct fst_stmt_routine {
    const char *name;
    uint64_t entry;         /* absolute */
} fst_stmt_routine;
/* Place every unit (above) and build the spans. -1 with err when a unit cannot be placed
** (no routine of its name, its code nowhere or at several places in the image) or its code
** is not the image's where it is placed. */
int fst_stmt_place(fst_stmt_tab *t, const fst_stmt_routine *r, size_t nr, const fst_image_seg *image, size_t nimage,
                   fst_err *err);

/* ---- lookups, after placement ---- */
const fst_stmt_span *fst_stmt_find(const fst_stmt_tab *t, uint64_t addr);
size_t fst_stmt_nspans(const fst_stmt_tab *t);
const fst_stmt_span *fst_stmt_span_at(const fst_stmt_tab *t, size_t i);
/* The span's k-th statement (k < span->n), and its id (0 .. fst_stmt_count-1). */
const fst_stmt *fst_stmt_of(const fst_stmt_tab *t, const fst_stmt_span *s, size_t k);
size_t fst_stmt_id(const fst_stmt_tab *t, const fst_stmt_span *s, size_t k);
/* Every statement read, with code or not: ids 0 .. count-1, in reading order. */
size_t fst_stmt_count(const fst_stmt_tab *t);
const fst_stmt *fst_stmt_at(const fst_stmt_tab *t, size_t id);
size_t fst_stmt_nunits(const fst_stmt_tab *t);
const fst_stmt_unit *fst_stmt_unit_at(const fst_stmt_tab *t, size_t i);

/* ---- building a table (the readers, model/stmt_*.c; not for other callers) ---- */

/* Start a unit; statements added until the next begin belong to it. name/file are copied. */
size_t fst_stmt_begin_unit(fst_stmt_tab *t, fst_stmt_kind kind, const char *file, const char *name, int absolute);
/* A statement claiming [lo, hi) of the open unit (unit-relative, or absolute for an ELF);
** hi == lo claims nothing (a statement with no code: kept for its text). `obj` (may be
** NULL) is its object code as listed, nobj bytes from lo, compared with the image at
** placement unless `data` (a constant: may be relocated). Strings are copied. */
void fst_stmt_add(fst_stmt_tab *t, const char *file, uint32_t line, const char *text, uint64_t lo, uint64_t hi,
                  const uint8_t *obj, size_t nobj, int data);
/* The open unit's name and the offset of that name in it (a CSECT's or routine's entry). */
void fst_stmt_set_name(fst_stmt_tab *t, const char *name, uint64_t off);

int fst_stmt_read_dwarf(fst_stmt_tab *t, const char *path, fst_err *err);
int fst_stmt_read_gas(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err);
int fst_stmt_read_ibmasm(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err);
int fst_stmt_read_fort(fst_stmt_tab *t, const char *path, const char *buf, size_t len, fst_err *err);

#endif
