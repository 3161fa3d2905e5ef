/* analyze/profile/holder.c — which routine holds an address; see holder.h. */
#include "analyze/profile/holder.h"
#include "common/err.h"

#include <stdlib.h>

static const fst_profile *sort_p;
static int by_entry(const void *a, const void *b)
{
    uint64_t x = sort_p->r[*(const size_t *)a].entry, y = sort_p->r[*(const size_t *)b].entry;
    return x < y ? -1 : x > y;
}

fst_holder *fst_holder_new(const fst_profile *p)
{
    fst_holder *h = fst_xcalloc(1, sizeof *h);
    h->p = p;
    h->by_addr = fst_xcalloc(p->nr + 1, sizeof *h->by_addr);
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].entry != UINT64_MAX)
            h->by_addr[h->n++] = i;
    sort_p = p;
    qsort(h->by_addr, h->n, sizeof *h->by_addr, by_entry);
    h->hold[0] = h->hold[1] = (fst_held){ 0, 0, FST_NONE };
    return h;
}

void fst_holder_free(fst_holder *h)
{
    if (!h)
        return;
    free(h->by_addr);
    free(h);
}

/* The routine whose storage holds addr, searched for. The answer holds for the addresses
** [*lo, *hi) around addr (up to the next entry, within the program's bounds or outside them). */
static size_t search(const fst_holder *h, uint64_t addr, uint64_t *lo_, uint64_t *hi_)
{
    const fst_profile *p = h->p;
    if (!h->n) {
        *lo_ = 0, *hi_ = UINT64_MAX;
        return FST_NONE;
    }
    if (addr < p->lo || addr >= p->hi) {
        *lo_ = addr < p->lo ? 0 : p->hi;
        *hi_ = addr < p->lo ? p->lo : UINT64_MAX;
        return FST_NONE;
    }
    size_t lo = 0, hi = h->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (p->r[h->by_addr[mid]].entry <= addr)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t first = p->r[h->by_addr[lo]].entry;
    size_t r = FST_NONE;
    if (first > addr) {   /* below the first entry */
        *lo_ = p->lo;
        *hi_ = first;
    } else {
        *lo_ = first;
        *hi_ = lo + 1 < h->n ? p->r[h->by_addr[lo + 1]].entry : p->hi;
        r = h->by_addr[lo];
    }
    if (*lo_ < p->lo)   /* the answer holds only inside the program, as the search does */
        *lo_ = p->lo;
    if (*hi_ > p->hi)
        *hi_ = p->hi;
    return r;
}

size_t fst_holder_of(fst_holder *h, uint64_t addr)
{
    if (addr >= h->hold[0].lo && addr < h->hold[0].hi)
        return h->hold[0].r;
    fst_held k = h->hold[1];
    if (!(addr >= k.lo && addr < k.hi))
        k.r = search(h, addr, &k.lo, &k.hi);
    h->hold[1] = h->hold[0];
    h->hold[0] = k;
    return k.r;
}
