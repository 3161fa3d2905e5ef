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

/* The value of key, or NULL when key is absent. */
uint64_t *fst_map_get(const fst_map *m, uint64_t key);
/* The value of key, inserted with value `init` when absent. */
uint64_t *fst_map_put(fst_map *m, uint64_t key, uint64_t init);
/* Remove key (nothing when absent). */
void fst_map_del(fst_map *m, uint64_t key);
/* Counting helpers: add 1 to key's count; subtract 1, removing it at 0. */
void fst_map_inc(fst_map *m, uint64_t key);
void fst_map_dec(fst_map *m, uint64_t key);
void fst_map_free(fst_map *m);

#endif
