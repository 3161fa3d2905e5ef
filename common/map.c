/* common/map.c — see map.h. */
#include "common/map.h"

#include "common/err.h"

#include <stdlib.h>

static size_t slot(const fst_map *m, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xFF51AFD7ED558CCDull;   /* murmur3's finaliser: good spread for addresses */
    key ^= key >> 33;
    return (size_t)key & (m->cap - 1);
}

static size_t find(const fst_map *m, uint64_t key)
{
    size_t s = slot(m, key);
    while (m->e[s].used && m->e[s].key != key)
        s = (s + 1) & (m->cap - 1);
    return s;
}

uint64_t *fst_map_get(const fst_map *m, uint64_t key)
{
    if (!m->n)
        return NULL;
    size_t s = find(m, key);
    return m->e[s].used ? &m->e[s].val : NULL;
}

static void grow(fst_map *m)
{
    fst_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->e = fst_xcalloc(m->cap, sizeof *m->e);
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].used)
            m->e[find(m, old.e[i].key)] = old.e[i];
    free(old.e);
}

uint64_t *fst_map_put(fst_map *m, uint64_t key, uint64_t init)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t s = find(m, key);
    if (!m->e[s].used) {
        m->e[s] = (fst_map_ent){ key, init, 1 };
        m->n++;
    }
    return &m->e[s].val;
}

void fst_map_del(fst_map *m, uint64_t key)
{
    if (!m->n)
        return;
    size_t s = find(m, key), mask = m->cap - 1;
    if (!m->e[s].used)
        return;
    /* backward shift: move up every later entry of the probe run that may fill the hole */
    for (size_t j = (s + 1) & mask; m->e[j].used; j = (j + 1) & mask) {
        size_t home = slot(m, m->e[j].key);
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

void fst_map_free(fst_map *m)
{
    free(m->e);
    *m = (fst_map){ 0 };
}
