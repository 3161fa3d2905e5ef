/*
** tests/unit/test_diffstat.c — analyze/diff/diffstat: the integer test of a difference of
** shares, at its boundaries worked out by hand from the formulas of diffstat.h.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/diff/diffstat.h"

static void two_sampled(void **state)
{
    (void)state;
    /* 100 samples a side, 50 + a and 50 - a: p = 1/2 pooled, se = sqrt(1/4 * 2/100);
    ** z^2 = 10.83: z se = sqrt(10.83 * 0.005) = 0.2327, the difference 2a/100: a = 12
    ** (0.24) beyond, a = 11 (0.22) not */
    assert_true(fst_ds_beyond2(62, 100, 38, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(61, 100, 39, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    assert_true(fst_ds_beyond2(38, 100, 62, 100, FST_DS_CONF_999, FST_DS_INDEP, FST_DS_INDEP)); /* either way */
    /* 99 %: z^2 = 6.63, z se = 0.1821: a = 10 beyond, a = 9 (0.18) not */
    assert_true(fst_ds_beyond2(60, 100, 40, 100, FST_DS_CONF_99, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(59, 100, 41, 100, FST_DS_CONF_99, FST_DS_INDEP, FST_DS_INDEP));
    /* 99.99 %: z^2 = 15.14, z se = 0.2751: a = 14 beyond, 13 not */
    assert_true(fst_ds_beyond2(64, 100, 36, 100, FST_DS_CONF_9999, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(63, 100, 37, 100, FST_DS_CONF_9999, FST_DS_INDEP, FST_DS_INDEP));
    /* the same share, a routine absent from both, an empty side */
    assert_false(fst_ds_beyond2(300, 1000, 30, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(0, 1000, 0, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(5, 10, 0, 0, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    /* the largest sides the test takes: no overflow in its 256-bit products */
    uint64_t m = FST_DS_MAX_SAMPLES - 1;
    assert_true(fst_ds_beyond2(m, m, 0, m, FST_DS_CONF_9999, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(m / 2, m, m / 2, m, FST_DS_CONF_9999, FST_DS_INDEP, FST_DS_INDEP));
    /* there se = sqrt(1/4 * 2/m) = 1.726e-4, at 99 % z se = 4.445e-4, 7458 samples */
    assert_true(fst_ds_beyond2(m / 2 + 7460, m, m / 2, m, FST_DS_CONF_99, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(m / 2 + 7455, m, m / 2, m, FST_DS_CONF_99, FST_DS_INDEP, FST_DS_INDEP));
}

static void exact_and_sampled(void **state)
{
    (void)state;
    /* exact share 1/2, 100 samples: se = sqrt(1/4 / 100) = 0.05, z se = 0.1645; 50 + a
    ** samples: a = 17 beyond, 16 not */
    assert_true(fst_ds_beyond1(1, 2, 67, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    assert_false(fst_ds_beyond1(1, 2, 66, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    assert_true(fst_ds_beyond1(1, 2, 33, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    /* the same with exact counts beyond 32 bits (scaled: the share is the same) */
    assert_true(fst_ds_beyond1(UINT64_C(1) << 40, UINT64_C(1) << 41, 67, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    assert_false(fst_ds_beyond1(UINT64_C(1) << 40, UINT64_C(1) << 41, 66, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    /* a routine the exact side never ran: any sample in it is beyond (no error there) */
    assert_true(fst_ds_beyond1(0, 1000, 1, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    assert_false(fst_ds_beyond1(0, 1000, 0, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP));
    /* a 10^12-instruction exact side against the most samples taken */
    assert_false(fst_ds_beyond1(UINT64_C(500000000000), UINT64_C(1000000000000), FST_DS_MAX_SAMPLES / 2,
                                FST_DS_MAX_SAMPLES - 1, FST_DS_CONF_9999, FST_DS_INDEP));
}

/* Samples in runs at one PSW (diffstat.h): the design effect, and the bounds it widens. */
static void clustered(void **state)
{
    (void)state;
    /* no sample repeats: the binomial; runs of 3 or 4 everywhere: 3 or 4 exactly */
    assert_int_equal(fst_ds_deff(30, 100, 30, 100), FST_DS_INDEP);
    assert_int_equal(fst_ds_deff(30, 100, 120, 400), 4000);
    assert_int_equal(fst_ds_deff(30, 99, 90, 297), 3000);
    /* k = 1 of n = 3, the other two a run: (1 (9 - 6) + 5 * 1) / (1 * 2 * 3) = 4/3, rounded up */
    assert_int_equal(fst_ds_deff(1, 3, 1, 5), 1334);
    /* k = 2 of 3, not a run, the other alone: 2 (9 - 12) + 3 * 4 = 6 over 6: 1 */
    assert_int_equal(fst_ds_deff(2, 3, 2, 3), FST_DS_INDEP);
    /* no share to vary (k = 0 or n), or no runs known (a side with no sample_sq): 1 */
    assert_int_equal(fst_ds_deff(0, 100, 0, 400), FST_DS_INDEP);
    assert_int_equal(fst_ds_deff(100, 100, 400, 400), FST_DS_INDEP);
    assert_int_equal(fst_ds_deff(30, 100, 0, 0), FST_DS_INDEP);
    /* two sides of 100, 50 + a and 50 - a (two_sampled): at 99.9 % a = 12 beyond with f = 1;
    ** with the variance doubled (f = 2 on both, or 3 and 1) z se = 0.3291: a = 17 beyond, 16 not */
    assert_true(fst_ds_beyond2(62, 100, 38, 100, FST_DS_CONF_DEFAULT, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(62, 100, 38, 100, FST_DS_CONF_DEFAULT, 2000, 2000));
    assert_true(fst_ds_beyond2(67, 100, 33, 100, FST_DS_CONF_DEFAULT, 2000, 2000));
    assert_false(fst_ds_beyond2(66, 100, 34, 100, FST_DS_CONF_DEFAULT, 2000, 2000));
    assert_true(fst_ds_beyond2(67, 100, 33, 100, FST_DS_CONF_DEFAULT, 3000, 1000));
    assert_false(fst_ds_beyond2(66, 100, 34, 100, FST_DS_CONF_DEFAULT, 1000, 3000));
    /* exact 1/2 against 100 samples (exact_and_sampled: a = 17 beyond with f = 1); f = 4:
    ** z se = 0.3291, a = 33 beyond, 32 not */
    assert_false(fst_ds_beyond1(1, 2, 67, 100, FST_DS_CONF_DEFAULT, 4000));
    assert_true(fst_ds_beyond1(1, 2, 83, 100, FST_DS_CONF_DEFAULT, 4000));
    assert_false(fst_ds_beyond1(1, 2, 82, 100, FST_DS_CONF_DEFAULT, 4000));
    /* the most samples, every one in a single run (f = n): all in one routine against none
    ** is within (z se = sqrt(15.14 * 1/2) > 1), where independent samples put it beyond */
    uint64_t m = FST_DS_MAX_SAMPLES - 1;
    assert_true(fst_ds_beyond2(m, m, 0, m, FST_DS_CONF_9999, FST_DS_INDEP, FST_DS_INDEP));
    assert_false(fst_ds_beyond2(m, m, 0, m, FST_DS_CONF_9999, 1000 * m, 1000 * m));
    assert_false(fst_ds_beyond1(UINT64_C(1) << 40, UINT64_C(1) << 41, m, m, FST_DS_CONF_9999, 1000 * m));
}

static void confidence_names(void **state)
{
    (void)state;
    unsigned c = 0;
    assert_int_equal(fst_ds_parse_confidence("99", &c), 0);
    assert_int_equal(c, FST_DS_CONF_99);
    assert_int_equal(fst_ds_parse_confidence("99.99", &c), 0);
    assert_int_equal(c, FST_DS_CONF_9999);
    assert_int_equal(fst_ds_parse_confidence("95", &c), -1);
    assert_int_equal(fst_ds_parse_confidence("99.90", &c), -1);
}

int main(void)
{
    const struct CMUnitTest t[] = { cmocka_unit_test(two_sampled), cmocka_unit_test(exact_and_sampled), cmocka_unit_test(clustered),
                                    cmocka_unit_test(confidence_names) };
    return cmocka_run_group_tests(t, NULL, NULL);
}
