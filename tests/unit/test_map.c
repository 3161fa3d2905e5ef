/*
** tests/unit/test_map.c — common/map: insert, find, delete with backward shift against a
** plain array as the reference, over keys that collide (addresses a page apart), with 0
** and UINT64_MAX as ordinary keys, and the counting helpers.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/map.h"

#include <stdlib.h>

enum { N = 5000 };

static void test_against_reference(void **state)
{
    (void)state;
    static uint64_t ref[N];
    static uint8_t in[N];
    fst_map m = { 0 };
    uint64_t seed = 12345;
    for (int round = 0; round < 200000; round++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned i = (unsigned)(seed >> 33) % N;
        uint64_t key = (uint64_t)i << 12;   /* a page apart: the same low bits */
        if (i == 0)
            key = UINT64_MAX;
        if (i == 1)
            key = 0;
        if ((seed >> 20) & 1) {
            *fst_map_put(&m, key, 7) += i;
            if (!in[i])
                ref[i] = 7;
            ref[i] += i;
            in[i] = 1;
        } else {
            fst_map_del(&m, key);
            in[i] = 0;
        }
        if (round % 1000 == 0) {
            size_t n = 0;
            for (unsigned k = 0; k < N; k++) {
                uint64_t kk = k == 0 ? UINT64_MAX : k == 1 ? 0 : (uint64_t)k << 12;
                uint64_t *v = fst_map_get(&m, kk);
                if (in[k]) {
                    assert_non_null(v);
                    assert_int_equal(*v, ref[k]);
                    n++;
                } else
                    assert_null(v);
            }
            assert_int_equal(m.n, n);
        }
    }
    fst_map_free(&m);
    assert_null(fst_map_get(&m, 5));
}

static void test_counts(void **state)
{
    (void)state;
    fst_map m = { 0 };
    fst_map_inc(&m, 0x1000);
    fst_map_inc(&m, 0x1000);
    fst_map_inc(&m, 0x2000);
    assert_int_equal(*fst_map_get(&m, 0x1000), 2);
    fst_map_dec(&m, 0x1000);
    assert_int_equal(*fst_map_get(&m, 0x1000), 1);
    fst_map_dec(&m, 0x1000);
    assert_null(fst_map_get(&m, 0x1000));
    fst_map_dec(&m, 0x3000);          /* absent: nothing */
    assert_int_equal(m.n, 1);
    fst_map_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
