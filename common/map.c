/* common/map.c — see map.h. */
#include "common/map.h"

#include "common/err.h"

#include <stdlib.h>

static void grow(fst_map *m)
{
    fst_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->e = fst_xcalloc(m->cap, sizeof *m->e);
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].used)
            m->e[fst_map_find_(m, old.e[i].key)] = old.e[i];
    free(old.e);
}

/* fst_map_put's insertion (the key is absent): grow first when the map is half full. */
uint64_t *fst_map_insert_(fst_map *m, uint64_t key, uint64_t init)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t s = fst_map_find_(m, key);
    m->e[s] = (fst_map_ent){ key, init, 1 };
    m->n++;
    return &m->e[s].val;
}

void fst_map_del(fst_map *m, uint64_t key)
{
    if (!m->n)
        return;
    size_t s = fst_map_find_(m, key), mask = m->cap - 1;
    if (!m->e[s].used)
        return;
    /* backward shift: move up every later entry of the probe run that may fill the hole */
    for (size_t j = (s + 1) & mask; m->e[j].used; j = (j + 1) & mask) {
        size_t home = fst_map_slot_(m, m->e[j].key);
        if (((j - home) & mask) >= ((j - s) & mask)) {
            m->e[s] = m->e[j];
            s = j;
        }
    }
    m->e[s].used = 0;
    m->n--;
}

void fst_map_inc(fst_map *m, uint64_t key) { ++*fst_map_put(m, key, 0); }

void fst_map_dec(fst_map *m, uint64_t key)
{
    uint64_t *v = fst_map_get(m, key);
    if (v && !--*v)
        fst_map_del(m, key);
}

uint64_t fst_map_inc_keep(fst_map *m, uint64_t key) { return (*fst_map_put(m, key, 0))++; }

void fst_map_dec_keep(fst_map *m, uint64_t key)
{
    uint64_t *v = fst_map_get(m, key);
    if (v && *v)
        --*v;
}

int fst_map_positive(const fst_map *m, uint64_t key)
{
    const uint64_t *v = fst_map_get(m, key);
    return v && *v;
}

void fst_map_free(fst_map *m)
{
    free(m->e);
    *m = (fst_map){ 0 };
}
