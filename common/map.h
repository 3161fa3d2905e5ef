/*
** common/map.h — a hash map from uint64_t keys to uint64_t values: the index that keeps
** per-call work independent of stack depth and arc count (open addressing, linear
** probing, deletion by backward shift, so no tombstones and no slowdown over time).
**
** Any key is valid (0 and UINT64_MAX included). Values are the caller's: counts, indexes.
** Pointers returned by fst_map_get/fst_map_put stay valid only until the next put or del.
**
** Ownership: a zeroed fst_map is an empty map; fst_map_free releases its storage.
** Errors: none; allocation failure exits (common/err.h fst_xmalloc).
*/
#ifndef FST_MAP_H
#define FST_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct fst_map_ent {
    uint64_t key, val;
    uint8_t used;
} fst_map_ent;

typedef struct fst_map {
    fst_map_ent *e;
    size_t cap, n;          /* cap: 0 or a power of two */
} fst_map;

/* fst_map_get(m, key): the value of key, or NULL when key is absent.
** fst_map_put(m, key, init): the value of key, inserted with value `init` when absent.
** (Inline, below.) */
/* Remove key (nothing when absent). */
void fst_map_del(fst_map *m, uint64_t key);
/* Counting helpers: add 1 to key's count; subtract 1, removing it at 0. */
void fst_map_inc(fst_map *m, uint64_t key);
void fst_map_dec(fst_map *m, uint64_t key);
/* The same for counts that come and go at a bounded set of keys (frames open per routine,
** per return address): the key stays at 0, so the next count finds it without inserting
** and a count going to 0 costs no deletion. The map holds every key ever counted. */
uint64_t fst_map_inc_keep(fst_map *m, uint64_t key);   /* the count before */
void fst_map_dec_keep(fst_map *m, uint64_t key);
/* Whether key has a count above 0 (absent: no). */
int fst_map_positive(const fst_map *m, uint64_t key);
void fst_map_free(fst_map *m);

/* ---- the lookups, inline: the replay does several per call and return ---- */
static inline size_t fst_map_slot_(const fst_map *m, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xFF51AFD7ED558CCDull;   /* murmur3's finaliser: good spread for addresses */
    key ^= key >> 33;
    return (size_t)key & (m->cap - 1);
}

static inline size_t fst_map_find_(const fst_map *m, uint64_t key)
{
    size_t s = fst_map_slot_(m, key);
    while (m->e[s].used && m->e[s].key != key)
        s = (s + 1) & (m->cap - 1);
    return s;
}

uint64_t *fst_map_insert_(fst_map *m, uint64_t key, uint64_t init);   /* map.c: key is absent */

static inline uint64_t *fst_map_get(const fst_map *m, uint64_t key)
{
    if (!m->n)
        return NULL;
    size_t s = fst_map_find_(m, key);
    return m->e[s].used ? &m->e[s].val : NULL;
}

static inline uint64_t *fst_map_put(fst_map *m, uint64_t key, uint64_t init)
{
    if (m->cap) {
        size_t s = fst_map_find_(m, key);
        if (m->e[s].used)
            return &m->e[s].val;
    }
    return fst_map_insert_(m, key, init);
}

#endif
