/*
** tests/unit/test_callgraph.c — analyze/profile/callgraph.c's calls and returns (profile.h
** fst_callgraph_call, fst_callgraph_ret): arcs found by index, not by a search of the arc
** list (issue 12: 100 000 distinct arcs took 6 s). A synthetic stream: R routines, every routine calls every other once (R x distinct
** arcs), each call returning at once. Figures by construction: each arc counted once,
** each routine called R-1 times; the time for 10x the arcs is at most 25x (linear: 10x;
** the old scan: about 100x), measured as a ratio in one run.
** fst_callgraph_pair: random call and return streams (recursion, routines timed or not, calls
** counted or not, two tasks, one of them --space's other) give every figure alike whether
** each leaf call and its return go as a call and a return or as one pair.
** Arcs looked up again (callgraph.c's cache of recent ones, direct-mapped: arcs that share a
** slot take it from each other): random calls among 60 routines, some arcs often, each
** arc's count as tallied here.
** Flat (fst_callgraph_new's flat, for FORTSTAT and prof): on the same random streams, as
** calls and returns or as pairs, each routine's calls, per routine and per task, as tallied
** from the stream (timed, counted, in the task that is not --space's other), entered where
** a frame of it was, no arc and no inclusive figure.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/profile/profile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double run(size_t nr, fst_profile *p)
{
    memset(p, 0, sizeof *p);
    p->r = calloc(nr, sizeof *p->r);
    p->nr = nr;
    for (size_t i = 0; i < nr; i++)
        p->r[i].timed = 1;
    fst_callgraph *cg = fst_callgraph_new(p, 0);
    uint64_t clock = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t a = 0; a < nr; a++) {
        fst_callgraph_call(cg, 0, a, FST_NONE, 0, clock, 0);
        for (size_t b = 0; b < nr; b++) {
            if (b == a)
                continue;
            fst_callgraph_call(cg, 0, b, a, 1, ++clock, 0);
            fst_callgraph_ret(cg, 0, 0, ++clock, 0);
        }
        fst_callgraph_ret(cg, 0, 0, clock, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fst_callgraph_free(cg);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static void check(const fst_profile *p)
{
    size_t nr = p->nr;
    assert_int_equal(p->narcs, nr * (nr - 1));
    for (size_t i = 0; i < p->narcs; i++) {
        assert_int_equal(p->arcs[i].count, 1);
        assert_int_equal(p->arcs[i].insns, 1);
    }
    for (size_t i = 0; i < nr; i++)
        assert_int_equal(p->r[i].calls, nr - 1);
}

static void test_arcs_linear(void **state)
{
    (void)state;
    fst_profile small, big;
    double a = 1e9, b = 1e9;          /* the best of three: other processes share the CPU */
    for (int i = 0; i < 3; i++) {
        double t = run(101, &small);  /* 10 100 arcs */
        check(&small);
        a = t < a ? t : a;
        t = run(317, &big);           /* 100 172 arcs */
        check(&big);
        b = t < b ? t : b;
        if (i < 2) {
            fst_profile_free(&small);
            fst_profile_free(&big);
        }
    }
    print_message("10 100 arcs: %.4f s, 100 172 arcs: %.4f s (%.1fx)\n", a, b, b / a);
    assert_true(b <= 25 * a + 0.05);  /* + 50 ms: a timer tick on a loaded machine */
    fst_profile_free(&small);
    fst_profile_free(&big);
}

typedef struct ev {
    int ret;            /* 0: a call */
    uint32_t task;
    size_t routine, caller;
    int counted;
    uint64_t clock;
    fst_fx cost;
} ev;

#define NR 6
#define NEV 4000

/* A stream of calls and returns on two tasks, each task's stack at most 6 deep. */
static size_t stream(ev *v, unsigned seed)
{
    size_t stack[2][8], depth[2] = { 0, 0 }, n = 0;
    uint64_t clock[2] = { 0, 0 };
    fst_fx cost[2] = { 0, 0 };
    srand(seed);
    while (n < NEV) {
        uint32_t t = (uint32_t)(rand() % 2);
        clock[t] += (uint64_t)(rand() % 9);
        cost[t] += (fst_fx)(rand() % 77);
        if (depth[t] < 6 && (depth[t] == 0 || rand() % 2)) {
            size_t r = (size_t)(rand() % NR);
            v[n++] = (ev){ 0, t, r, depth[t] ? stack[t][depth[t] - 1] : FST_NONE, rand() % 5 != 0, clock[t], cost[t] };
            stack[t][depth[t]++] = r;
        } else {
            v[n++] = (ev){ 1, t, 0, 0, 0, clock[t], cost[t] };
            depth[t]--;
        }
    }
    return n;
}

static void profile_of(fst_profile *p, const ev *v, size_t n, int pairs, int excluded, int flat)
{
    memset(p, 0, sizeof *p);
    p->nr = NR;
    p->r = calloc(NR, sizeof *p->r);
    for (size_t i = 0; i < NR; i++)
        p->r[i].timed = i % 3 != 2;
    p->ntasks = 2;
    p->tasks = calloc(2, sizeof *p->tasks);
    p->tasks[1].excluded = excluded;
    fst_callgraph *cg = fst_callgraph_new(p, flat);
    for (size_t i = 0; i < n; i++) {
        const ev *e = &v[i];
        if (e->ret) {
            fst_callgraph_ret(cg, e->task, 0, e->clock, e->cost);
            continue;
        }
        size_t j = i + 1;   /* the task's next event: its return, for a leaf */
        while (j < n && v[j].task != e->task)
            j++;
        if (pairs && j < n && v[j].ret && j == i + 1) {
            fst_callgraph_pair(cg, e->task, e->routine, e->caller, e->counted, e->clock, e->cost, v[j].clock,
                               v[j].cost);
            i = j;
        } else
            fst_callgraph_call(cg, e->task, e->routine, e->caller, e->counted, e->clock, e->cost);
    }
    fst_callgraph_free(cg);
}

static void same_figures(const fst_profile *a, const fst_profile *b)
{
    for (size_t i = 0; i < NR; i++) {
        assert_int_equal(a->r[i].calls, b->r[i].calls);
        assert_int_equal(a->r[i].incl_insns, b->r[i].incl_insns);
        assert_int_equal(a->r[i].incl_cost, b->r[i].incl_cost);
    }
    assert_int_equal(a->narcs, b->narcs);
    for (size_t i = 0; i < a->narcs; i++) {
        assert_int_equal(a->arcs[i].caller, b->arcs[i].caller);
        assert_int_equal(a->arcs[i].callee, b->arcs[i].callee);
        assert_int_equal(a->arcs[i].count, b->arcs[i].count);
        assert_int_equal(a->arcs[i].insns, b->arcs[i].insns);
        assert_int_equal(a->arcs[i].cost, b->arcs[i].cost);
    }
    for (size_t t = 0; t < 2; t++) {
        assert_int_equal(a->tasks[t].r != NULL, b->tasks[t].r != NULL);
        for (size_t i = 0; a->tasks[t].r && i < NR; i++) {
            assert_int_equal(a->tasks[t].r[i].calls, b->tasks[t].r[i].calls);
            assert_int_equal(a->tasks[t].r[i].incl_insns, b->tasks[t].r[i].incl_insns);
            assert_int_equal(a->tasks[t].r[i].incl_cost, b->tasks[t].r[i].incl_cost);
        }
    }
}

static void test_pair_is_call_and_return(void **state)
{
    (void)state;
    static ev v[NEV];
    size_t leaves = 0;
    for (unsigned seed = 1; seed <= 40; seed++) {
        size_t n = stream(v, seed);
        for (size_t i = 0; i + 1 < n; i++)
            leaves += !v[i].ret && v[i + 1].ret && v[i + 1].task == v[i].task;
        fst_profile a, b;
        profile_of(&a, v, n, 0, seed % 2, 0);
        profile_of(&b, v, n, 1, seed % 2, 0);
        assert_true(a.narcs > 0);
        same_figures(&a, &b);
        fst_profile_free(&a);
        fst_profile_free(&b);
    }
    assert_true(leaves > 1000);     /* the pairs were taken */
}

static void test_arcs_again(void **state)
{
    (void)state;
    enum { R = 60, CALLS = 200000 };
    static uint64_t want[R + 1][R];     /* [caller + 1][callee]: caller 0 is none */
    memset(want, 0, sizeof want);
    fst_profile p;
    memset(&p, 0, sizeof p);
    p.r = calloc(R, sizeof *p.r);
    p.nr = R;
    for (size_t i = 0; i < R; i++)
        p.r[i].timed = 1;
    fst_callgraph *cg = fst_callgraph_new(&p, 0);
    uint64_t x = 88172645463325252ull, clock = 0;
    for (int k = 0; k < CALLS; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        /* a third of the calls among 4 routines (a loop's), the rest anywhere */
        size_t caller = x % 3 ? (x >> 8) % (R + 1) : (x >> 8) % 4, callee = (x >> 24) % R;
        fst_callgraph_call(cg, 0, callee, caller == R ? FST_NONE : caller, 1, ++clock, 0);
        fst_callgraph_ret(cg, 0, 0, ++clock, 0);
        want[caller == R ? 0 : caller + 1][callee]++;
    }
    size_t distinct = 0;
    for (size_t a = 0; a <= R; a++)
        for (size_t b = 0; b < R; b++)
            distinct += want[a][b] != 0;
    assert_int_equal(p.narcs, distinct);
    for (size_t i = 0; i < p.narcs; i++) {
        const fst_arc *a = &p.arcs[i];
        assert_int_equal(a->count, want[a->caller == FST_NONE ? 0 : a->caller + 1][a->callee]);
        assert_int_equal(a->insns, a->count);   /* each call returned at once */
    }
    fst_callgraph_free(cg);
    fst_profile_free(&p);
}

static void test_flat(void **state)
{
    (void)state;
    static ev v[NEV];
    for (unsigned seed = 41; seed <= 80; seed++) {
        size_t n = stream(v, seed);
        int excluded = seed % 2;
        uint64_t calls[NR] = { 0 }, tcalls[2][NR] = { { 0 } };
        int entered[NR] = { 0 };
        for (size_t i = 0; i < n; i++) {
            const ev *e = &v[i];
            if (e->ret || (e->task == 1 && excluded))
                continue;
            entered[e->routine] = 1;
            if (e->counted && e->routine % 3 != 2) {  /* timed: profile_of's rule */
                calls[e->routine]++;
                tcalls[e->task][e->routine]++;
            }
        }
        for (int pairs = 0; pairs < 2; pairs++) {
            fst_profile f;
            profile_of(&f, v, n, pairs, excluded, 1);
            assert_int_equal(f.narcs, 0);
            for (size_t r = 0; r < NR; r++) {
                assert_int_equal(f.r[r].calls, calls[r]);
                assert_int_equal(f.r[r].entered, entered[r]);
                assert_int_equal(f.r[r].incl_insns, 0);
                assert_int_equal(f.r[r].incl_cost, 0);
                for (size_t t = 0; t < 2; t++)
                    if (f.tasks[t].r)
                        assert_int_equal(f.tasks[t].r[r].calls, tcalls[t][r]);
                    else
                        assert_int_equal(tcalls[t][r], 0);
            }
            fst_profile_free(&f);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arcs_linear),
        cmocka_unit_test(test_pair_is_call_and_return),
        cmocka_unit_test(test_arcs_again),
        cmocka_unit_test(test_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
