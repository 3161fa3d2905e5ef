/* common/bigmem.c — large blocks in their own mappings, advised for huge pages (bigmem.h). */
#include "common/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Each block is preceded by its header: how it was had, and (mapped) the mapping's length.
** 16 bytes before a malloc'd block keep its alignment malloc's; a mapped block begins a page
** after its mapping (the header's page), so it is page-aligned. */
typedef struct {
    size_t mapped; /* 0: malloc'd; else the mapping's length, from its start */
    size_t pad_;
} hdr;
_Static_assert(sizeof(hdr) == 16, "a malloc'd block's alignment kept");

#define HDR_PAGE 4096u

void *fst_bigmem_alloc(void *opaque, size_t n)
{
    (void)opaque;
    if (n < FST_BIGMEM_MIN) {
        hdr *h = malloc(sizeof *h + n);
        if (!h)
            return NULL;
        h->mapped = 0;
        return h + 1;
    }
    if (n > SIZE_MAX - HDR_PAGE)
        return NULL;
    size_t len = HDR_PAGE + n;
    uint8_t *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(base, len, MADV_HUGEPAGE); /* advice: refused or ignored, the block is the same */
#endif
    hdr *h = (hdr *)(base + HDR_PAGE) - 1;
    h->mapped = len;
    return base + HDR_PAGE;
}

void fst_bigmem_free(void *opaque, void *p)
{
    (void)opaque;
    if (!p)
        return;
    hdr *h = (hdr *)p - 1;
    if (!h->mapped)
        free(h);
    else
        munmap((uint8_t *)p - HDR_PAGE, h->mapped);
}
