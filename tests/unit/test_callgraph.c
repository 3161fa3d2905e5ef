/*
** tests/unit/test_callgraph.c — analyze/profile/callgraph.c's calls and returns (profile.h
** fst_callgraph_call, fst_callgraph_ret): arcs found by index, not by a search of the arc
** list (issue 12: 100 000 distinct arcs took 6 s). A synthetic stream: R routines, every routine calls every other once (R x distinct
** arcs), each call returning at once. Figures by construction: each arc counted once,
** each routine called R-1 times; the time for 10x the arcs is at most 25x (linear: 10x;
** the old scan: about 100x), measured as a ratio in one run.
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
    fst_callgraph *cg = fst_callgraph_new(p);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arcs_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
