/* analyze/tasks.c — task identity at each dispatch; the rules are in tasks.h. */
#include "analyze/tasks.h"
#include "common/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fst_tasks {
    fst_task *t;
    size_t n, cap;
    uint64_t seq;       /* suspension counter */
};

fst_tasks *fst_tasks_new(void) { return fst_xcalloc(1, sizeof(fst_tasks)); }

void fst_tasks_free(fst_tasks *ts)
{
    if (ts)
        free(ts->t);
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
    ts->t[ts->n] = (fst_task){ .id = (uint32_t)ts->n, .space = space, .first = addr, .resume = FST_RESUME_UNKNOWN };
    return ts->n++;
}

void fst_tasks_suspend(fst_tasks *ts, size_t id, uint64_t resume, uint64_t mask, int problem)
{
    fst_task *t = &ts->t[id];
    t->suspended = 1;
    t->problem = problem;
    t->resume = resume;
    t->mask = mask;
    t->since = ++ts->seq;
}

static int same_space(uint64_t a, uint64_t b) { return a == b || a == FST_SPACE_UNKNOWN || b == FST_SPACE_UNKNOWN; }

/* Among the suspended tasks of `space` that `want(t)` accepts: the one with the LPSW
** operand `lpsw` if exactly one has it, else the longest suspended. *n = how many. */
static size_t pick(const fst_tasks *ts, uint64_t addr, uint64_t space, int problem, uint64_t lpsw, int unknown,
                   size_t *n, int *by_lpsw)
{
    size_t best = SIZE_MAX, with_lpsw = SIZE_MAX, nlpsw = 0;
    *n = 0;
    for (size_t i = 0; i < ts->n; i++) {
        const fst_task *t = &ts->t[i];
        if (!t->suspended || t->problem != problem || !same_space(t->space, space))
            continue;
        if (unknown ? t->resume != FST_RESUME_UNKNOWN
                    : (t->resume == FST_RESUME_UNKNOWN || (t->resume & t->mask) != (addr & t->mask)))
            continue;
        ++*n;
        if (best == SIZE_MAX || t->since < ts->t[best].since)
            best = i;
        if (lpsw && t->lpsw == lpsw) {
            nlpsw++;
            with_lpsw = i;
        }
    }
    *by_lpsw = *n > 1 && nlpsw == 1;
    return *by_lpsw ? with_lpsw : best;
}

size_t fst_tasks_dispatch(fst_tasks *ts, uint64_t addr, uint64_t space, int problem, uint64_t lpsw, int *how)
{
    size_t n, id;
    int by_lpsw;
    problem = problem != 0;
    id = pick(ts, addr, space, problem, lpsw, 0, &n, &by_lpsw);
    if (n)
        *how = n == 1 ? FST_TASK_BY_RESUME : by_lpsw ? FST_TASK_BY_LPSW : FST_TASK_GUESSED;
    else if (!problem)
        return FST_NOTASK_ID;
    else {
        id = pick(ts, addr, space, problem, lpsw, 1, &n, &by_lpsw);
        if (n)
            *how = n == 1 ? FST_TASK_BY_ELIMINATION : by_lpsw ? FST_TASK_BY_LPSW : FST_TASK_GUESSED;
        else {
            id = fst_tasks_start(ts, addr, space);
            *how = FST_TASK_NEW;
        }
    }
    fst_task *t = &ts->t[id];
    if (t->space == FST_SPACE_UNKNOWN)
        t->space = space;
    fst_tasks_resume(ts, id, lpsw);
    return id;
}

void fst_tasks_resume(fst_tasks *ts, size_t id, uint64_t lpsw)
{
    fst_task *t = &ts->t[id];
    t->suspended = 0;
    if (lpsw)
        t->lpsw = lpsw;
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
