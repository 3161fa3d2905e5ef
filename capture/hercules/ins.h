/*
** capture/hercules/ins.h — a Hercules IPL list (.ins): which file is loaded at which address.
**
** Format (Hercules' own): one "FILE ADDRESS" per line, ADDRESS hex with or without 0x,
** FILE relative to the .ins file's folder. Blank lines and lines starting with '*' or '#'
** are skipped. fst_ins_load reads every file into memory (the storage image that goes
** into trace.bin), checks that each piece fits in `mainsize` bytes of storage (0 = no
** check; a piece that does not fit is refused before it is read), and names the file and
** line of anything wrong. The list is read with common/lines.h bounds (lines of at most
** PATH_MAX + 64 bytes, at most FST_INS_MAX_BYTES), so /dev/zero is an error, not a hang.
** Ownership: the caller frees with fst_ins_free.
*/
#ifndef FST_INS_H
#define FST_INS_H

#include "trace/tracebin.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_ins {
    fst_image_seg *seg;   /* in list order; seg[i].data owned */
    char **file;          /* absolute path of each piece */
    size_t n;
} fst_ins;

#define FST_INS_MAX_BYTES (1u << 20)

int fst_ins_load(fst_ins *ins, const char *path, uint64_t mainsize, fst_err *err);
void fst_ins_free(fst_ins *ins);

#endif
