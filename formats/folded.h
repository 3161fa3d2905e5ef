/*
** formats/folded.h — the tree of call stacks that formats/folded.c aggregates, for the
** formats drawn from it (formats/svg.c). The aggregate is made and fed through
** fst_format_folded's init/event/done; fst_folded_nodes gives its nodes after the replay.
**
** Node 0 is the root (no routine); every other node is one stack of timed routines: its
** parent's stack and one routine more. A parent's index is always below its children's.
** insns/cost: what executed with exactly this stack (self); calls: the counted calls that
** made it (events.h CALL `counted`). Ownership: the aggregate's; valid until done.
*/
#ifndef FST_FOLDED_H
#define FST_FOLDED_H

#include "analyze/cost/clock.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_stacknode {
    size_t parent, routine;    /* root: parent = routine = FST_NONE */
    uint64_t insns;
    fst_fx cost;
    uint64_t calls;
} fst_stacknode;

const fst_stacknode *fst_folded_nodes(const void *ctx, size_t *n);

/* The nodes as --routine keeps them (formats/filter.h): a malloc'd copy in which a stack
** with none of the routines `f` names on it has no instructions or time of its own, so that
** what is printed or drawn from it is the stacks through those routines only; the stacks
** below them keep their calls. NULL when f names no routine (use the nodes as they are). */
struct fst_filter;
struct fst_profile;
fst_stacknode *fst_folded_through(const void *ctx, const struct fst_profile *p, const struct fst_filter *f, size_t *n);

#endif
