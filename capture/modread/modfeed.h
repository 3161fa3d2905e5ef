/*
** capture/modread/modfeed.h — the module's stream read from its FIFO and fed to the stream
** reader (modstream.h) with an eye on the clock, for fst-capture --via=module (modcap.c) and
** --attach (modattach.c).
**
** Why a clock. The stream is tiny for what it stands for: a REP record is up to 65536 copies
** of a loop's branches (shares.s: 4.5 G instructions in 111 KB), and the emitter rebuilds the
** copies one by one until one repeats its state. Once the reader falls behind (a busy
** machine), every read finds the pipe full: 64 KB, ~18 s of feeding; a loop that read until
** the pipe was empty never came back to its clock (a window of --seconds=2 ran 31 s, to the
** program's end; a --timeout or Ctrl-C would have waited as long). So the bytes read are fed
** in slices of FST_MF_SLICE between looks at the clock, and what the deadline leaves is
** fed first at the next call.
**
** Ownership: the caller owns the fd, the stream reader and the emitter; fst_mf holds the read
** buffer (1 MiB, its own). Errors: -1 with err set (a read that failed, named by `what`, or
** the stream reader's error).
*/
#ifndef FST_MODFEED_H
#define FST_MODFEED_H

#include "capture/modread/modstream.h"
#include "capture/read/emit.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

#define FST_MF_SLICE 256   /* bytes fed between looks at the clock */

typedef struct fst_mf {
    int fd;                 /* the FIFO, non-blocking */
    const char *what;       /* its name in an error: "--attach=PATH", "the module's FIFO" */
    fst_ms *ms;
    fst_em *em;
    uint8_t *buf;           /* the last read, fed up to off of end */
    size_t off, end;
    uint64_t bytes;         /* read in all */
} fst_mf;

/* buf: NULL until the first pump. */
void fst_mf_init(fst_mf *f, int fd, const char *what, fst_ms *ms, fst_em *em);
void fst_mf_free(fst_mf *f);
/* CLOCK_MONOTONIC, nanoseconds. */
uint64_t fst_mf_now(void);
/* Feeds what the last read left, then reads and feeds what the FIFO holds, until it is empty,
** the clock reaches deadline (fst_mf_now's), or the stream is over for the capture (the
** emitter ended or reached its limit, or a job's cut): 0; 1 at the FIFO's end (no writer
** left); -1 (err). What is read and not fed waits for the next call (a capture that ends
** drops it: it ends there). Feeds one slice (after one read, when nothing was left) however
** early the deadline: each call makes progress. Does not wait for bytes: poll first. */
int fst_mf_pump(fst_mf *f, uint64_t deadline, fst_err *err);

#endif
