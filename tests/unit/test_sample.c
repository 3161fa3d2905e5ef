/*
** tests/unit/test_sample.c — capture/sample: the sampler's schedule (absolute deadlines,
** catching up at twice the rate at most, an old debt forgiven) and Hercules' PSW page.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/sample.h"

#define MS 1000000u
#define P (10 * MS) /* 100 a second */

static void on_time(void **state)
{
    (void)state;
    /* went at its deadline or a little after: the next is a period after the deadline,
    ** whatever the request's own delay (the period is not stretched) */
    uint64_t sched = 1000 * MS;
    assert_int_equal(fst_sample_next(&sched, P, 1000 * MS), 1010 * MS);
    assert_int_equal(sched, 1010 * MS);
    assert_int_equal(fst_sample_next(&sched, P, 1014 * MS), 1020 * MS);
    assert_int_equal(fst_sample_next(&sched, P, 1025 * MS), 1030 * MS);
}

/* Requests from `late` behind the schedule, each going when told: how many go at half a
** period (catching up) before one goes at its deadline again. */
static int catch_up(uint64_t sched, uint64_t now)
{
    int n = 0;
    for (;;) {
        uint64_t go = fst_sample_next(&sched, P, now);
        assert_true(go - now >= P / 2); /* never a burst */
        if (go == sched)
            return n;
        assert_int_equal(go - now, P / 2);
        now = go;
        if (++n > 10000)
            return n;
    }
}

static void catches_up_without_burst(void **state)
{
    (void)state;
    uint64_t sched = 1000 * MS;
    /* 30 ms late: the next goes half a period on, not at once */
    assert_int_equal(fst_sample_next(&sched, P, 1030 * MS), 1035 * MS);
    assert_int_equal(sched, 1010 * MS);
    /* each request half a period after the one before gains half a period on the debt:
    ** 30 ms behind, 10 ms period: from 25 ms behind (after the first), 5 requests */
    assert_int_equal(catch_up(1000 * MS, 1030 * MS), 5);
}

static void forgives_an_old_debt(void **state)
{
    (void)state;
    /* d ms behind, each request at half a period gains 5 ms on the schedule: on time again
    ** after d / 5 - 1 of them. 240 ms: 47. A stall of 2 s: the debt beyond
    ** FST_SAMPLE_MAX_DEBT_NS is dropped, d is 250 ms + the period the schedule moved on:
    ** 51 requests, not 399. */
    assert_int_equal(catch_up(1000 * MS, 1240 * MS), 47);
    assert_int_equal(catch_up(1000 * MS, 3000 * MS), 51);
}

static void psw_page(void **state)
{
    (void)state;
    uint8_t psw[16];
    unsigned len = 0;
    assert_int_equal(fst_psw_page("<P>\nPSW=00080000 000200BE\n</body>", psw, &len), 0);
    assert_int_equal(len, 8);
    assert_int_equal(psw[7], 0xBE);
    assert_int_equal(fst_psw_page("PSW=00000000 00000000 00000000 00020000\n", psw, &len), 0);
    assert_int_equal(len, 16);
    assert_int_equal(fst_psw_page("PSW=0008000 000200BE\n", psw, &len), -1);  /* 7 digits */
    assert_int_equal(fst_psw_page("PSW=00080000 000200BE0\n", psw, &len), -1); /* 9 */
    assert_int_equal(fst_psw_page("<html>hello</html>", psw, &len), -1);
}

int main(void)
{
    const struct CMUnitTest t[] = { cmocka_unit_test(on_time), cmocka_unit_test(catches_up_without_burst),
                                    cmocka_unit_test(forgives_an_old_debt), cmocka_unit_test(psw_page) };
    return cmocka_run_group_tests(t, NULL, NULL);
}
