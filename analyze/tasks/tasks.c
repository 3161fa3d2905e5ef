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

/* The suspended tasks by where they resume, so that a dispatch looks at the tasks that can
** resume there, not at every task there ever was (a system runs thousands in a day, and a
** task that ended stays suspended: nothing in the trace says it ended). A bucket holds the
** ids of the tasks suspended at one address (under the task's address mask), `anywhere`
** those that may resume anywhere. Entries are not removed when a task resumes or its
** resume changes: a bucket is checked against the task when read (stale entries go then),
** and compacted before it grows, so it holds at most twice the tasks suspended there. */
typedef struct bucket {
    uint32_t *id;
    uint32_t n, cap;
} bucket;

struct fst_tasks {
    fst_task *t;
    size_t n, cap;
    uint64_t seq;       /* suspension counter */
    fst_map byaddr;     /* masked resume address -> 1 + its bucket's index */
    bucket *b;
    size_t nb, bcap;
    bucket anywhere;
    uint64_t masks[4];  /* the address masks of the tasks suspended so far: the keys to try */
    int nmasks;
    int scan_all;       /* more masks than that: every task is looked at */
    uint64_t *stamp;    /* per task: the gather that last took it (dedup) */
    uint64_t gathers;
    size_t *ids;        /* the last gather's tasks, in order of id */
    size_t nids, idscap;
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
    for (size_t i = 0; i < ts->nb; i++)
        free(ts->b[i].id);
    free(ts->b);
    free(ts->anywhere.id);
    fst_map_free(&ts->byaddr);
    free(ts->stamp);
    free(ts->ids);
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
        ts->stamp = fst_xrealloc(ts->stamp, ts->cap * sizeof *ts->stamp);
    }
    ts->stamp[ts->n] = 0;
    ts->t[ts->n] = (fst_task){ .id = (uint32_t)ts->n, .space = space, .first = addr };
    return ts->n++;
}

/* ---- the suspended tasks by resume address (struct fst_tasks) ---- */

/* Whether entry id of bucket bk (the addresses' bucket of key, or `anywhere`) is current. */
static int current(const fst_tasks *ts, uint32_t id, const bucket *bk, uint64_t key)
{
    const fst_task *t = &ts->t[id];
    if (!t->suspended)
        return 0;
    if (bk == &ts->anywhere)
        return t->r.anywhere;
    for (int i = 0; i < t->r.n; i++)
        if ((t->r.at[i] & t->r.mask) == key)
            return 1;
    return 0;
}

static void bucket_add(fst_tasks *ts, bucket *bk, uint64_t key, uint32_t id)
{
    if (bk->n == bk->cap) {     /* full: the stale entries and repeats go first */
        uint64_t g = ++ts->gathers;
        uint32_t j = 0;
        for (uint32_t i = 0; i < bk->n; i++)
            if (ts->stamp[bk->id[i]] != g && current(ts, bk->id[i], bk, key)) {
                ts->stamp[bk->id[i]] = g;
                bk->id[j++] = bk->id[i];
            }
        bk->n = j;
        if (2 * bk->n >= bk->cap) {
            bk->cap = bk->cap ? 2 * bk->cap : 4;
            bk->id = fst_xrealloc(bk->id, bk->cap * sizeof *bk->id);
        }
    }
    bk->id[bk->n++] = id;
}

/* Task id was suspended, or its resume changed: it is found where it resumes now. */
static void index_task(fst_tasks *ts, size_t id)
{
    const fst_resume *r = &ts->t[id].r;
    if (r->anywhere)
        bucket_add(ts, &ts->anywhere, 0, (uint32_t)id);
    int m = 0;
    while (m < ts->nmasks && ts->masks[m] != r->mask)
        m++;
    if (m == ts->nmasks && r->n) {
        if (ts->nmasks < (int)(sizeof ts->masks / sizeof ts->masks[0]))
            ts->masks[ts->nmasks++] = r->mask;
        else
            ts->scan_all = 1;   /* never with the three addressing modes */
    }
    for (int i = 0; i < r->n; i++) {
        uint64_t key = r->at[i] & r->mask;
        if (i && key == (r->at[0] & r->mask))
            continue;
        uint64_t *v = fst_map_put(&ts->byaddr, key, 0);
        if (!*v) {
            if (ts->nb == ts->bcap) {
                ts->bcap = ts->bcap ? 2 * ts->bcap : 16;
                ts->b = fst_xrealloc(ts->b, ts->bcap * sizeof *ts->b);
            }
            ts->b[ts->nb] = (bucket){ 0 };
            *v = ++ts->nb;
        }
        bucket_add(ts, &ts->b[*v - 1], key, (uint32_t)id);
    }
}

/* Room in ts->ids for n more. */
static void ids_room(fst_tasks *ts, size_t n)
{
    if (ts->nids + n > ts->idscap) {
        ts->idscap = 2 * (ts->nids + n);
        ts->ids = fst_xrealloc(ts->ids, ts->idscap * sizeof *ts->ids);
    }
}

static void take(fst_tasks *ts, const bucket *bk, uint64_t g)
{
    ids_room(ts, bk->n);
    for (uint32_t i = 0; i < bk->n; i++)
        if (ts->stamp[bk->id[i]] != g) {
            ts->stamp[bk->id[i]] = g;
            ts->ids[ts->nids++] = bk->id[i];
        }
}

static int by_id(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* ts->ids: in order of id, every task that may resume at addr (and, with anywhere, every
** one that may resume anywhere), and perhaps others: the caller's rules decide. */
static void gather(fst_tasks *ts, uint64_t addr, int anywhere)
{
    ts->nids = 0;
    if (ts->scan_all) {
        ids_room(ts, ts->n);
        for (size_t i = 0; i < ts->n; i++)
            ts->ids[ts->nids++] = i;
        return;
    }
    uint64_t g = ++ts->gathers;
    for (int m = 0; m < ts->nmasks; m++) {
        const uint64_t *v = fst_map_get(&ts->byaddr, addr & ts->masks[m]);
        if (v)
            take(ts, &ts->b[*v - 1], g);
    }
    if (anywhere)
        take(ts, &ts->anywhere, g);
    if (ts->nids > 1)
        qsort(ts->ids, ts->nids, sizeof *ts->ids, by_id);
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
    index_task(ts, id);
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
        r->weak = 0;
        index_task(ts, id);
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
    int v = r->anywhere;
    for (int i = 0; i < r->n; i++)
        if ((r->at[i] & r->mask) == (addr & r->mask)) {
            if (!(r->weak >> i & 1))
                return 2;
            v = 1;
        }
    return v;
}

int fst_tasks_resumes_at(fst_tasks *ts, uint64_t addr, uint64_t space, int problem)
{
    gather(ts, addr, 0);
    for (size_t k = 0; k < ts->nids; k++) {
        const fst_task *t = &ts->t[ts->ids[k]];
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

/* Whether suspended task id may be the one a dispatch no address accounts for resumes. */
static int may_redirect(const fst_tasks *ts, size_t id, const fst_dispatch *d)
{
    const fst_task *t = &ts->t[id];
    return t->suspended && t->r.frames && t->r.problem == (d->problem != 0) &&
           same_space(t->space, d->space) && id + 1 != d->not_plus1;
}

/* The suspended task a dispatch that no address accounts for resumes, redirected
** (tasks.h: FST_TASK_REDIRECTED), or FST_NOTASK_ID: the one its LM block names, if its
** registers shown do not differ; else the only one whose registers shown all match. */
static size_t redirected(fst_tasks *ts, const fst_dispatch *d)
{
    const uint64_t *e = d->block ? fst_map_get(&ts->blk[0], d->block) : NULL;
    if (e && !(*e & B_SHARED) && B_ID(*e)) {
        size_t id = (size_t)B_ID(*e) - 1;
        if (may_redirect(ts, id, d) && regs_verdict(&ts->t[id].r, d) >= 0)
            return id;
    }
    if (!(d->grv & d->grtell))
        return FST_NOTASK_ID;
    size_t found = FST_NOTASK_ID;
    for (size_t id = 0; id < ts->n; id++)   /* rare: where a task begins, in a trace with registers */
        if (may_redirect(ts, id, d) && regs_verdict(&ts->t[id].r, d) > 0) {
            if (found != FST_NOTASK_ID)
                return FST_NOTASK_ID;   /* two match: neither is named */
            found = id;
        }
    return found;
}

size_t fst_tasks_dispatch(fst_tasks *ts, const fst_dispatch *d, int *how, size_t *left)
{
    int problem = d->problem != 0;
    gather(ts, d->addr, 1);
    cand stack[16], *c = ts->nids <= 16 ? stack : fst_xmalloc(ts->nids * sizeof *c);
    size_t nc = 0, allowed = 0;     /* allowed: by state, space, address and registers */
    for (size_t j = 0; j < ts->nids; j++) {
        size_t i = ts->ids[j];
        const fst_task *t = &ts->t[i];
        if (!t->suspended || t->r.problem != problem || !same_space(t->space, d->space) || i + 1 == d->not_plus1)
            continue;
        cand k = { i, address_verdict(&t->r, d->addr), regs_verdict(&t->r, d), 0 };
        if (!k.addr || k.regs < 0)
            continue;
        allowed++;
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
    } else if (!allowed && !d->entry && (id = redirected(ts, d)) != FST_NOTASK_ID) {
        *how = FST_TASK_REDIRECTED;
        *left = 1;
        if (ts->debug)
            fprintf(stderr, "fst: tasks:   t%zu, redirected: its block or registers name it\n", id);
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
