/*
** trace/progid.h — which program a trace is of: what fst-diff compares before it compares
** two runs (issue 32: two different programs are never diffed as one).
**
** A program's identity is what the trace carries of it:
**   image   the digest of its storage image (the .ins files' bytes, at their addresses:
**           CRC-32 of each piece's address, length and bytes, with the total length), where
**           the trace holds one: the same program, built the same, has the same digest;
**   job     the job a window is of (fst-capture --job=NAME);
**   name    the IPL list or log the trace was made from, its last path component (said,
**           never compared: one program is run from many places).
** Each part is empty when unknown. csv --meta writes it as one comment line
** ("# program: image=crc32:1A2B3C4D/8192 job=FORTJOB name=prog.ins") that the csv reader of
** fst-diff reads back.
**
** Nothing here fails but the parse (-1 with err naming `where`); nothing is allocated.
*/
#ifndef FST_PROGID_H
#define FST_PROGID_H

#include "common/err.h"
#include "trace/tracebin.h"

#include <stddef.h>

typedef struct fst_progid {
    char image[40];     /* "crc32:1A2B3C4D/8192", or "" */
    char job[64];
    char name[200];
} fst_progid;

#define FST_PROGID_TAG "# program: "

void fst_progid_of(fst_progid *id, const fst_tr *tr);
/* "image=... job=... name=..." (parts that are empty left out; "" when all are) */
void fst_progid_format(const fst_progid *id, char *buf, size_t cap);
/* The text after FST_PROGID_TAG. Unknown keys are skipped (a later fst's). */
int fst_progid_parse(fst_progid *id, const char *text, const char *where, fst_err *err);
/* 1 when a and b are two programs: their images differ (both known), or else their jobs
** do; `why` then says how ("images crc32:... and crc32:..."). 0 when they are one, or
** when too little is known to tell (fst-diff then tells by the routines they call). */
int fst_progid_differ(const fst_progid *a, const fst_progid *b, char *why, size_t cap);

#endif
