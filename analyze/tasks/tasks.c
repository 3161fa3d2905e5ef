/* analyze/tasks/tasks.c — task identity at each dispatch; the rules are in tasks.h. */
#include "analyze/tasks/tasks.h"
#include "common/err.h"
#include "common/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A block's entry in its map: the task it was last used for (id + 1, low 32 bits), how
** often that changed, and whether it is shared or was a handler's save area. */
#define B_ID(v) ((v) & 0xFFFFFFFFull)
#define B_CHANGES(v) (((v) >> 32) & 0xFF)
#define B_SAVED (1ull << 61)
#define B_SHARED (1ull << 62)

struct fst_tasks {
    fst_task *t;
    size_t n, cap;
    uint64_t seq;       /* suspension counter */
    fst_map blk[2];     /* LM blocks (and save areas), LPSW operands */
    int debug;          /* FST_TASKS_DEBUG: each dispatch's candidates on stderr */
    size_t *left;       /* the candidates the last dispatch left (fst_tasks_candidates) */
    size_t nleft, leftcap;
};

fst_tasks *fst_tasks_new(void)
{
    fst_tasks *ts = fst_xcalloc(1, sizeof(fst_tasks));
    const char *e = getenv("FST_TASKS_DEBUG");
    ts->debug = e && *e && *e != '0';
    return ts;
}

void fst_tasks_free(fst_tasks *ts)
{
    if (!ts)
        return;
    free(ts->t);
    free(ts->left);
    fst_map_free(&ts->blk[0]);
    fst_map_free(&ts->blk[1]);
    free(ts);
}

size_t fst_tasks_count(const fst_tasks *ts) { return ts->n; }
fst_task *fst_tasks_get(fst_tasks *ts, size_t id) { return &ts->t[id]; }

size_t fst_tasks_start(fst_tasks *ts, uint64_t addr, uint64_t space)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? ts->cap * 2 : 16;
        ts->t = fst_xrealloc(ts->t, ts->cap * sizeof *ts->t);
    }
    ts->t[ts->n] = (fst_task){ .id = (uint32_t)ts->n, .space = space, .first = addr };
    return ts->n++;
}

void fst_tasks_suspend(fst_tasks *ts, size_t id, const fst_resume *r)
{
    if (ts->debug)
        fprintf(stderr, "fst: tasks: t%zu suspended at %llX%s%s %llX regs %04X free %04X\n", id,
                (unsigned long long)(r->n ? r->at[0] : 0), r->n > 1 ? " or" : "", r->anywhere ? " anywhere" : "",
                (unsigned long long)(r->n > 1 ? r->at[1] : 0), r->grv, r->grfree);
    fst_task *t = &ts->t[id];
    t->suspended = 1;
    t->r = *r;
    t->r.problem = r->problem != 0;
    t->since = ++ts->seq;
}

int fst_tasks_refine(fst_tasks *ts, size_t id, uint64_t addr)
{
    fst_resume *r = &ts->t[id].r;
    int ok = r->anywhere;
    for (int i = 0; i < r->n; i++)
        ok |= (r->at[i] & r->mask) == (addr & r->mask);
    if (ok) {
        r->at[0] = addr;
        r->n = 1;
        r->anywhere = 0;
    }
    return ok;
}

void fst_tasks_saved(fst_tasks *ts, size_t id, uint64_t block)
{
    if (block)
        *fst_map_put(&ts->blk[0], block, 0) = (id + 1) | B_SAVED;
}

static int same_space(uint64_t a, uint64_t b) { return a == b || a == FST_SPACE_UNKNOWN || b == FST_SPACE_UNKNOWN; }

/* 2: the address is one it resumes at; 1: it may resume anywhere; 0: not there. */
static int address_verdict(const fst_resume *r, uint64_t addr)
{
    for (int i = 0; i < r->n; i++)
        if ((r->at[i] & r->mask) == (addr & r->mask))
            return 2;
    return r->anywhere;
}

int fst_tasks_resumes_at(const fst_tasks *ts, uint64_t addr, uint64_t space, int problem)
{
    for (size_t i = 0; i < ts->n; i++) {
        const fst_task *t = &ts->t[i];
        if (t->suspended && t->r.problem == (problem != 0) && same_space(t->space, space) &&
            address_verdict(&t->r, addr) == 2)
            return 1;
    }
    return 0;
}

/* +1: the registers both sides show match; -1: one differs; 0: none shown on both. */
static int regs_verdict(const fst_resume *r, const fst_dispatch *d)
{
    uint16_t m = r->grv & d->grv & (uint16_t)~r->grfree;
    if (!m || !d->gr)
        return 0;
    for (int g = 0; g < 16; g++)
        if ((m >> g & 1) && r->gr[g] != d->gr[g])
            return -1;
    return (m & d->grtell) != 0;
}

/* Block k of the dispatch (v): +1 it names t, -1 it names another task or is new while t
** has a block of its own, 0 it says nothing. */
static int block_verdict(fst_tasks *ts, int k, uint64_t v, const fst_task *t)
{
    if (!v)
        return 0;
    const uint64_t *e = fst_map_get(&ts->blk[k], v);
    if (e)
        return (*e & B_SHARED) ? 0 : B_ID(*e) == (uint64_t)t->id + 1 ? 1 : -1;
    uint64_t own = t->block[k];
    const uint64_t *o = own ? fst_map_get(&ts->blk[k], own) : NULL;
    return o && !(*o & B_SHARED) && B_ID(*o) == (uint64_t)t->id + 1 ? -1 : 0;
}

/* The dispatch used block v of kind k for task id. */
static void block_used(fst_tasks *ts, int k, uint64_t v, size_t id)
{
    if (!v)
        return;
    uint64_t *e = fst_map_put(&ts->blk[k], v, 0);
    uint64_t was = *e, changes = B_CHANGES(was);
    if (was && !(was & B_SAVED) && B_ID(was) != id + 1 && ++changes >= 2)
        was |= B_SHARED;    /* a common area, not a task's own */
    *e = (id + 1) | (changes > 0xFF ? 0xFF : changes) << 32 | (was & B_SHARED);
    ts->t[id].block[k] = v;
}

typedef struct cand {
    size_t id;
    int addr, regs, block;
} cand;

/* Keep the candidates that keep(c) accepts, when there are any. */
#define NARROW(cond)                                                      \
    do {                                                                  \
        size_t m_ = 0;                                                    \
        for (size_t i_ = 0; i_ < nc; i_++)                                \
            m_ += (cond(&c[i_])) != 0;                                    \
        if (m_ && m_ < nc) {                                              \
            size_t j_ = 0;                                                \
            for (size_t i_ = 0; i_ < nc; i_++)                            \
                if (cond(&c[i_]))                                         \
                    c[j_++] = c[i_];                                      \
            nc = j_;                                                      \
        }                                                                 \
    } while (0)
#define REGS_MATCH(p) ((p)->regs > 0)
#define BLOCK_NAMES(p) ((p)->block > 0)
#define AT_ADDRESS(p) ((p)->addr == 2)

size_t fst_tasks_dispatch(fst_tasks *ts, const fst_dispatch *d, int *how, size_t *left)
{
    int problem = d->problem != 0;
    cand stack[16], *c = ts->n <= 16 ? stack : fst_xmalloc(ts->n * sizeof *c);
    size_t nc = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const fst_task *t = &ts->t[i];
        if (!t->suspended || t->r.problem != problem || !same_space(t->space, d->space) || i + 1 == d->not_plus1)
            continue;
        cand k = { i, address_verdict(&t->r, d->addr), regs_verdict(&t->r, d), 0 };
        if (!k.addr || k.regs < 0)
            continue;
        k.block = block_verdict(ts, 0, d->block, t);
        if (!k.block && !d->lpsw_slot)
            k.block = block_verdict(ts, 1, d->lpsw, t);
        if (k.block < 0 && k.regs <= 0)
            continue;   /* another task's block, or a new one while it has its own */
        c[nc++] = k;
    }
    size_t before = nc;
    NARROW(REGS_MATCH);
    NARROW(BLOCK_NAMES);
    NARROW(AT_ADDRESS);
    if (ts->debug) {
        fprintf(stderr, "fst: tasks: dispatch %llX space %llX %s lpsw %llX%s block %llX regs %04X: %zu of %zu:",
                (unsigned long long)d->addr, (unsigned long long)d->space, problem ? "P" : "S",
                (unsigned long long)d->lpsw, d->lpsw_slot ? "(slot)" : "", (unsigned long long)d->block, d->grv, nc,
                before);
        for (size_t i = 0; i < nc; i++)
            fprintf(stderr, " t%zu(a%d r%d b%d)", c[i].id, c[i].addr, c[i].regs, c[i].block);
        fprintf(stderr, "\n");
    }
    size_t id;
    *left = nc;
    if (nc > ts->leftcap) {
        ts->leftcap = nc * 2;
        ts->left = fst_xrealloc(ts->left, ts->leftcap * sizeof *ts->left);
    }
    for (size_t i = 0; i < nc; i++)
        ts->left[i] = c[i].id;
    ts->nleft = nc;
    if (nc == 1 && (c[0].addr == 2 || c[0].regs > 0 || c[0].block > 0)) {
        id = c[0].id;
        *how = FST_TASK_BY_EVIDENCE;
    } else if (nc == 1) {
        id = c[0].id;   /* it may resume anywhere, and nothing else says it does: it, or a new task */
        *how = FST_TASK_GUESSED;
    } else if (nc > 1) {
        id = c[0].id;   /* a guess: the one suspended longest, or last after an LPSW of a slot */
        for (size_t i = 1; i < nc; i++)
            if (d->lpsw_slot ? ts->t[c[i].id].since > ts->t[id].since : ts->t[c[i].id].since < ts->t[id].since)
                id = c[i].id;
        *how = FST_TASK_GUESSED;
    } else if (!problem) {
        if (c != stack)
            free(c);
        return FST_NOTASK_ID;
    } else {
        id = fst_tasks_start(ts, d->addr, d->space);
        *how = FST_TASK_NEW;
    }
    if (c != stack)
        free(c);
    fst_task *t = &ts->t[id];
    if (t->space == FST_SPACE_UNKNOWN)
        t->space = d->space;
    block_used(ts, 0, d->block, id);
    if (!d->lpsw_slot)
        block_used(ts, 1, d->lpsw, id);
    fst_tasks_resume(ts, id);
    return id;
}

void fst_tasks_resume(fst_tasks *ts, size_t id) { ts->t[id].suspended = 0; }

const size_t *fst_tasks_candidates(const fst_tasks *ts, size_t *n)
{
    *n = ts->nleft;
    return ts->left;
}

const char *fst_space_name(uint64_t space, char *buf)
{
    if (space == FST_SPACE_REAL)
        return strcpy(buf, "real");
    if (space == FST_SPACE_UNKNOWN)
        return strcpy(buf, "unknown");
    snprintf(buf, 24, "%08llX", (unsigned long long)space);
    return buf;
}
