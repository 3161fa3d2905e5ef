/*
** analyze/profile/holder.h — which routine's storage holds an address: the last entry at or below
** it, inside the program's extent (fst_profile lo..hi). The diagnosis (diagnose.c: code run
** inside a routine never entered) and the replay (replay_task.c: code a task whose identity
** fst guessed ran, for the uncertainty of each routine) ask it for instruction after
** instruction, so the two last answers are kept as address ranges ([lo, hi) around the
** address asked for), the latest first: a loop's caller and callee cost no search.
**
** Ownership: fst_holder_new's result is freed by fst_holder_free; it reads the profile's
** routines (entries and extent) when made, and they must not change after. Nothing fails.
*/
#ifndef FST_HOLDER_H
#define FST_HOLDER_H

#include "analyze/profile/profile.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_held {   /* routine r (FST_NONE: none) holds the addresses [lo, hi) */
    uint64_t lo, hi;
    size_t r;
} fst_held;

typedef struct fst_holder {
    const fst_profile *p;
    size_t *by_addr;        /* routine indices sorted by entry */
    size_t n;
    fst_held hold[2];       /* the last two answers, the latest first */
} fst_holder;

fst_holder *fst_holder_new(const fst_profile *p);
void fst_holder_free(fst_holder *h);
/* The routine holding addr, or FST_NONE; h->hold[0] is its answer afterwards. */
size_t fst_holder_of(fst_holder *h, uint64_t addr);

#endif
