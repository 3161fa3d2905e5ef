/* formats/stmtprof.c — counts and time per source statement; see stmtprof.h. */
#include "formats/stmtprof.h"
#include "common/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct acell {      /* one address as executed, charged one way */
    size_t routine;
    uint64_t addr, insns;
    fst_fx cost;
} acell;

struct fst_stmtprof {
    acell *c;
    size_t n, cap;
    fst_map idx;            /* hash of (routine, addr) -> index in c; collisions chained below */
    size_t *next;           /* next cell of the same hash */
    fst_stmtrow *rows;
    size_t nrows;
    const fst_stmt_tab *t;  /* for sorting */
    const fst_profile *p;
};

fst_stmtprof *fst_stmtprof_new(void) { return fst_xcalloc(1, sizeof(fst_stmtprof)); }

void fst_stmtprof_free(fst_stmtprof *sp)
{
    if (!sp)
        return;
    fst_map_free(&sp->idx);
    free(sp->c);
    free(sp->next);
    free(sp->rows);
    free(sp);
}

static uint64_t key_of(size_t routine, uint64_t addr) { return addr * 0x9E3779B97F4A7C15ull ^ (uint64_t)routine; }

static acell *cell(fst_stmtprof *sp, size_t routine, uint64_t addr)
{
    uint64_t *head = fst_map_put(&sp->idx, key_of(routine, addr), SIZE_MAX);
    for (size_t i = (size_t)*head; i != SIZE_MAX; i = sp->next[i])
        if (sp->c[i].routine == routine && sp->c[i].addr == addr)
            return &sp->c[i];
    if (sp->n == sp->cap) {
        sp->cap = sp->cap ? 2 * sp->cap : 256;
        sp->c = fst_xrealloc(sp->c, sp->cap * sizeof *sp->c);
        sp->next = fst_xrealloc(sp->next, sp->cap * sizeof *sp->next);
    }
    sp->c[sp->n] = (acell){ routine, addr, 0, 0 };
    sp->next[sp->n] = (size_t)*head;
    *head = sp->n;
    return &sp->c[sp->n++];
}

void fst_stmtprof_event(void *ctx, const fst_event *e)
{
    if (e->kind != FST_EV_EXEC || e->other_space)
        return;
    size_t r = e->charged == FST_CHARGE_ROUTINE && e->routine != FST_NONE ? e->routine
             : e->charged == FST_CHARGE_EXCLUDED ? (size_t)FST_SP_EXCLUDED : (size_t)FST_SP_OUTSIDE;
    for (size_t i = 0; i < e->n; i++) {     /* one at a time: no batches are asked for */
        acell *c = cell(ctx, r, e->insn[i].addr);
        c->insns++;
        c->cost += e->n == 1 ? e->cost : 0;
    }
}

size_t fst_stmtprof_group_of(const fst_stmt_tab *t, uint64_t addr)
{
    const fst_stmt_span *s = fst_stmt_find(t, addr);
    return s ? s->group : FST_SP_NOSTMT;
}

void fst_stmtprof_names(const fst_stmt_tab *t, size_t group, char *file, size_t fcap, char *line, size_t lcap)
{
    file[0] = line[0] = 0;
    if (group == FST_SP_NOSTMT)
        return;
    const fst_stmt_span *s = fst_stmt_span_at(t, group);
    size_t fl = 0, ll = 0;
    for (size_t k = 0; k < s->n; k++) {
        const fst_stmt *st = fst_stmt_of(t, s, k);
        if (!k || strcmp(st->file, fst_stmt_of(t, s, k - 1)->file))
            fl += (size_t)snprintf(file + fl, fl < fcap ? fcap - fl : 0, "%s%s", k ? "+" : "", st->file);
        ll += (size_t)snprintf(line + ll, ll < lcap ? lcap - ll : 0, "%s%u", k ? "+" : "", (unsigned)st->line);
        if (fl >= fcap || ll >= lcap)
            break;
    }
}

/* ---- rows ---- */

static size_t routine_rank(const fst_profile *p, size_t r)
{
    if (r == (size_t)FST_SP_OUTSIDE)
        return SIZE_MAX - 1;
    if (r == (size_t)FST_SP_EXCLUDED)
        return SIZE_MAX;
    return p->r[r].order;
}

static const fst_stmtprof *sorting;   /* qsort has no context argument */

static int by_stmt(const void *x, const void *y)
{
    const fst_stmtrow *a = x, *b = y;
    const fst_stmt_tab *t = sorting->t;
    if (a->group != b->group) {
        if (a->group == FST_SP_NOSTMT || b->group == FST_SP_NOSTMT)
            return a->group == FST_SP_NOSTMT ? 1 : -1;
        const fst_stmt_span *sa = fst_stmt_span_at(t, a->group), *sb = fst_stmt_span_at(t, b->group);
        const fst_stmt *ta = fst_stmt_of(t, sa, 0), *tb = fst_stmt_of(t, sb, 0);
        int c = strcmp(ta->file, tb->file);
        if (c)
            return c;
        if (ta->line != tb->line)
            return ta->line < tb->line ? -1 : 1;
        if (sa->n != sb->n)
            return sa->n < sb->n ? -1 : 1;
        return a->group < b->group ? -1 : 1;
    }
    size_t ra = routine_rank(sorting->p, a->routine), rb = routine_rank(sorting->p, b->routine);
    return ra != rb ? (ra < rb ? -1 : 1) : 0;
}

size_t fst_stmtprof_rows(fst_stmtprof *sp, const fst_stmt_tab *t, const fst_profile *p, const fst_stmtrow **rows)
{
    fst_map at = { 0 };     /* (routine, group) -> row */
    free(sp->rows);
    sp->rows = fst_xcalloc(sp->n + 1, sizeof *sp->rows);
    sp->nrows = 0;
    for (size_t i = 0; i < sp->n; i++) {
        const acell *c = &sp->c[i];
        size_t g = fst_stmtprof_group_of(t, c->addr);
        uint64_t *v = fst_map_put(&at, key_of(c->routine, g == FST_SP_NOSTMT ? UINT64_MAX : g), UINT64_MAX);
        size_t k = (size_t)*v;
        while (k != SIZE_MAX && (sp->rows[k].routine != c->routine || sp->rows[k].group != g))
            k = SIZE_MAX;   /* a hash collision: a row of its own (rows are summed by key below) */
        if (k == SIZE_MAX) {
            k = sp->nrows++;
            sp->rows[k] = (fst_stmtrow){ c->routine, g, 0, 0, 0, c->addr };
            if (*v == UINT64_MAX)
                *v = k;
        }
        fst_stmtrow *r = &sp->rows[k];
        r->insns += c->insns;
        r->cost += c->cost;
        r->execs = c->insns > r->execs ? c->insns : r->execs;
        r->lo = c->addr < r->lo ? c->addr : r->lo;
    }
    fst_map_free(&at);
    sp->t = t;
    sp->p = p;
    sorting = sp;
    if (sp->nrows)
        qsort(sp->rows, sp->nrows, sizeof *sp->rows, by_stmt);
    sorting = NULL;
    /* rows a collision split: the same (routine, group), now next to each other: merged */
    size_t m = 0;
    for (size_t i = 0; i < sp->nrows; i++) {
        fst_stmtrow *r = &sp->rows[i];
        if (m && sp->rows[m - 1].routine == r->routine && sp->rows[m - 1].group == r->group) {
            fst_stmtrow *q = &sp->rows[m - 1];
            q->insns += r->insns;
            q->cost += r->cost;
            q->execs = r->execs > q->execs ? r->execs : q->execs;
            q->lo = r->lo < q->lo ? r->lo : q->lo;
        } else
            sp->rows[m++] = *r;
    }
    sp->nrows = m;
    *rows = sp->rows;
    return m;
}
