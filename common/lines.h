/*
** common/lines.h — reading text inputs with bounds, the one way every fst reader does it.
**
** No input may grow memory without end or spin for ever: /dev/zero, a binary file, a
** stream with no newline. So a line has at most `maxline` bytes (its newline not counted)
** and a whole input at most `maxbytes` (0: no bound, for streams read in constant memory).
** Past a bound the reader stops with an error that names the input, the line and what the
** input was expected to be:
**     "/dev/zero:1: a line longer than 4096 bytes: not a STATIN deck"
**     "big.lst: more than 64 MiB: too large for a map"
**     "cards/: a folder, not a STATIN deck"
** A read error is an error too ("deck:3: cannot read: ..."), never a silent end of input.
** "-" is standard input. `what` names the kind of input ("STATIN deck", "cost table"); it
** must live as long as the reader.
**
**   fst_lines *l = fst_lines_open(path, "STATIN deck", 4096, 1 << 20, &err);
**   char *s; size_t n; int rc;
**   while ((rc = fst_lines_next(l, &s, &n, &err)) > 0) ... fst_lines_lineno(l) ...
**   fst_lines_close(l);                   rc < 0: err says what and where
**
** Ownership: the reader owns the line it returns (NUL-terminated, with its '\n' when the
** input had one; NUL bytes inside are kept, n counts them), valid until the next call;
** fst_lines_close frees everything (and closes the file unless it is standard input).
** fst_read_all returns a malloc'd buffer the caller frees.
*/
#ifndef FST_LINES_H
#define FST_LINES_H

#include "common/err.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct fst_lines fst_lines;

fst_lines *fst_lines_open(const char *path, const char *what, size_t maxline, uint64_t maxbytes, fst_err *err);
/* 1 and the next line; 0 at the end of the input; -1 with err set. */
int fst_lines_next(fst_lines *l, char **line, size_t *len, fst_err *err);
/* The number of the line last returned (1 = the first). */
size_t fst_lines_lineno(const fst_lines *l);
void fst_lines_close(fst_lines *l);

/* Read all of `f` (opened by the caller; `name` for messages) into *buf, with a NUL after
** the last byte; -1 with err set when it holds more than maxbytes or cannot be read (a
** folder, an I/O error). */
int fst_read_all(FILE *f, const char *name, const char *what, uint64_t maxbytes, char **buf, size_t *len,
                 fst_err *err);

/* "64 MiB", "4096 bytes": a size for messages. buf >= 32 bytes. */
const char *fst_size_text(uint64_t n, char *buf);

#endif
