/*
** common/readahead.h — reading a regular file a few chunks ahead of its consumer, in a
** second thread, so that the kernel's copy of the next chunks overlaps the work on this
** one. fst-capture --from-log: copying a 134 MB log out of the page cache took 0.031 s
** of the 0.076 s its conversion took on one core (issue 14).
**
**   fst_ra *ra = fst_ra_open(fd, "run.log");       a thread starts reading
**   while ((n = fst_ra_next(ra, &data, &err)) > 0)
**       ... data[0 .. n) ...
**   fst_ra_close(ra);                              stops the thread, at any point
**
** The chunks are the file's bytes, in order, each at most FST_RA_CHUNK bytes; a chunk
** stays valid until the next call. fst_ra_next returns 0 at the end of the file, and -1
** with err ("run.log: byte 1048576: cannot read: ...") after a read error: the chunks
** read before it come first, as with read() itself.
**
** Only for inputs whose read() returns soon (regular files, not pipes or terminals):
** fst_ra_close waits for the read in progress. The thread blocks every signal, so
** signals reach the caller's thread as they did without it.
** Ownership: the reader does not own fd (close it after fst_ra_close); it owns its
** FST_RA_BUFS buffers. Errors: fst_ra_open dies only when no thread can be made
** (out of memory, as fst_xmalloc does).
*/
#ifndef FST_READAHEAD_H
#define FST_READAHEAD_H

#include "common/err.h"

#include <stddef.h>
#include <sys/types.h>

#define FST_RA_CHUNK (1u << 20)
#define FST_RA_BUFS 4

typedef struct fst_ra fst_ra;

/* `name` names the file in messages (copied). */
fst_ra *fst_ra_open(int fd, const char *name);
ssize_t fst_ra_next(fst_ra *ra, const char **data, fst_err *err);
void fst_ra_close(fst_ra *ra);

#endif
