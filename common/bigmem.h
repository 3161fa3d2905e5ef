/*
** common/bigmem.h — memory for the large buffers a library allocates for us (zstd's window
** and tables), in transparent huge pages where the host allows them.
**
** Why. A stream's decoder writes its window (64 MiB, trace/tracebin_zstd.c) once through
** as it unpacks: each 4 KiB page of it is a page fault the first time, and a replay of a
** trace of 30 MB of ops took ~7 000 of them in libzstd (tests/loops/gen.py seed 37021:
** 9 175 minor faults in a 0.12 s replay). A block of FST_BIGMEM_MIN or more is mapped on its
** own and advised MADV_HUGEPAGE (the host's "madvise" setting honours it; "never" ignores
** it, and nothing else changes): one fault for each 2 MiB it touches. Smaller blocks come
** from malloc, so the many small ones cost what they did.
**
** The pair has zstd's ZSTD_customMem signatures (opaque unused). fst_bigmem_alloc returns
** NULL when there is no memory (zstd then says so); fst_bigmem_free takes what
** fst_bigmem_alloc returned, or NULL. Thread-safe (no state of its own).
*/
#ifndef FST_BIGMEM_H
#define FST_BIGMEM_H

#include <stddef.h>

#define FST_BIGMEM_MIN ((size_t)2 << 20)

void *fst_bigmem_alloc(void *opaque, size_t n);
void fst_bigmem_free(void *opaque, void *p);

#endif
