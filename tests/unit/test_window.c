/*
** tests/unit/test_window.c — analyze/replay/window.c: --window values parsed (instruction numbers,
** tod:HEX and seconds exact in fst_fx: 1 us = 0x1000 TOD units = 512000000 fx, clock.h),
** bad ones refused naming --window; times and calls located from an event stream built by
** hand (an instruction belongs to a time window when it starts in it; a call from its
** callee's first instruction to the one it returns to).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/profile/profile.h"
#include "analyze/replay/window.h"

#define US UINT64_C(512000000)  /* fst_fx per microsecond */

static void test_parse(void **state)
{
    (void)state;
    fst_window w;
    fst_err e;
    assert_int_equal(fst_window_parse(&w, "100:250", &e), 0);
    assert_true(w.resolved);
    assert_int_equal(w.from, 100);
    assert_int_equal(w.to, 250);
    assert_int_equal(fst_window_parse(&w, ":250", &e), 0);
    assert_int_equal(w.from, 0);
    assert_int_equal(fst_window_parse(&w, "7:", &e), 0);
    assert_true(w.to == UINT64_MAX);
    assert_int_equal(fst_window_parse(&w, "tod:1000:tod:1F4000", &e), 0);  /* 1 us to 500 us */
    assert_false(w.resolved);
    assert_int_equal(w.from_kind, FST_WEDGE_TIME);
    assert_true(w.from_v == US);
    assert_true(w.to_v == 500 * US);
    assert_int_equal(fst_window_parse(&w, "s:1.5:2s", &e), 0);
    assert_true(w.from_v == 1500000 * US);
    assert_true(w.to_v == 2000000 * US);
    assert_int_equal(fst_window_parse(&w, "0.000000001s:s:.000001", &e), 0);  /* a ns: 512000 fx */
    assert_true(w.from_v == 512000);
    assert_true(w.to_v == US);
    assert_int_equal(fst_window_parse(&w, "call:SUB1:3", &e), 0);
    assert_string_equal(w.routine, "SUB1");
    assert_int_equal(w.nth, 3);
    assert_int_equal(fst_window_parse(&w, "call:A:B:12", &e), 0);   /* the last colon: a name may hold one */
    assert_string_equal(w.routine, "A:B");
}

static void test_bad(void **state)
{
    (void)state;
    static const char *const bad[] = { "5:5", "9:3", "s:2:s:1", ":", "0:", "x:1", "1:y", "1:2:3", "tod::5",
                                       "tod:G:5", "s:1.0000000001:", "call:SUB1", "call:SUB1:0", "call::2",
                                       "call:S:x", "-1:5", "1e3:5", "99999999999999999999999:", ":s:0", NULL };
    for (const char *const *b = bad; *b; b++) {
        fst_window w;
        fst_err e;
        e.msg[0] = 0;
        if (fst_window_parse(&w, *b, &e) == 0)
            fail_msg("--window=%s taken", *b);
        char want[64];
        snprintf(want, sizeof want, "--window=%s: ", *b);
        assert_non_null(strstr(e.msg, want));
    }
}

static fst_profile prof;

static void ev(const fst_sink *s, fst_ev_kind k, size_t routine, size_t depth, fst_fx cost, int counted)
{
    fst_event e = { 0 };
    e.kind = k;
    e.n = 1;
    e.cost = cost;
    e.routine = routine;
    e.depth = depth;
    e.counted = counted;
    e.profile = &prof;
    s->event(s->ctx, &e);
}

static void test_time(void **state)
{
    (void)state;
    fst_window w;
    fst_err e;
    fst_sink s;
    /* instructions of 1, 3, 1, 1 us start at 0, 1, 4, 5 us: [2 us, 5 us) holds the third only */
    assert_int_equal(fst_window_parse(&w, "tod:2000:tod:5000", &e), 0);
    fst_window_locator *l = fst_window_locator_new(&w, &s);
    assert_false(s.kinds & FST_WANT_EXEC_BATCH);    /* one at a time: each one's start */
    static const fst_fx cost[] = { 1 * US, 3 * US, 1 * US, 1 * US };
    for (int i = 0; i < 4; i++)
        ev(&s, FST_EV_EXEC, 0, 1, cost[i], 0);
    assert_int_equal(fst_window_resolve(&w, l, &e), 0);
    assert_int_equal(w.from, 2);
    assert_int_equal(w.to, 3);
    fst_window_locator_free(l);
    /* [1 us, 4 us): the second and no other; past the end (6 us): an error */
    assert_int_equal(fst_window_parse(&w, "s:0.000001:s:0.000004", &e), 0);
    l = fst_window_locator_new(&w, &s);
    for (int i = 0; i < 4; i++)
        ev(&s, FST_EV_EXEC, 0, 1, cost[i], 0);
    assert_int_equal(fst_window_resolve(&w, l, &e), 0);
    assert_int_equal(w.from, 1);
    assert_int_equal(w.to, 2);
    fst_window_locator_free(l);
    assert_int_equal(fst_window_parse(&w, "3:tod:7000", &e), 0);
    l = fst_window_locator_new(&w, &s);
    for (int i = 0; i < 4; i++)
        ev(&s, FST_EV_EXEC, 0, 1, cost[i], 0);
    assert_int_equal(fst_window_resolve(&w, l, &e), -1);
    assert_non_null(strstr(e.msg, "past the trace's end: its 4 instructions take 0.000006000 s"));
    fst_window_locator_free(l);
}

static void test_call(void **state)
{
    (void)state;
    fst_routine r[2] = { { .name = "MAIN" }, { .name = "SUB" } };
    prof.r = r;
    prof.nr = 2;
    fst_window w;
    fst_err e;
    fst_sink s;
    /* MAIN runs 2, calls SUB (3 instructions, recursing once: 2 more), runs 1, calls SUB (4) */
    assert_int_equal(fst_window_parse(&w, "call:sub:2", &e), 0);
    fst_window_locator *l = fst_window_locator_new(&w, &s);
    ev(&s, FST_EV_CALL, 0, 1, 0, 0);    /* the mainline: no call */
    ev(&s, FST_EV_EXEC, 0, 1, US, 0);
    ev(&s, FST_EV_EXEC, 0, 1, US, 0);
    ev(&s, FST_EV_CALL, 1, 2, 0, 1);    /* SUB's first call: instruction 2 on */
    ev(&s, FST_EV_EXEC, 1, 2, US, 0);
    ev(&s, FST_EV_CALL, 1, 3, 0, 1);    /* its recursion: the second call, 3 to 5 */
    ev(&s, FST_EV_EXEC, 1, 3, US, 0);
    ev(&s, FST_EV_EXEC, 1, 3, US, 0);
    ev(&s, FST_EV_RETURN, 1, 2, 0, 0);
    ev(&s, FST_EV_EXEC, 1, 2, US, 0);
    ev(&s, FST_EV_EXEC, 1, 2, US, 0);
    ev(&s, FST_EV_RETURN, 1, 1, 0, 0);
    assert_int_equal(fst_window_resolve(&w, l, &e), 0);
    assert_int_equal(w.from, 3);
    assert_int_equal(w.to, 5);
    fst_window_locator_free(l);
    assert_int_equal(fst_window_parse(&w, "call:SUB:3", &e), 0);
    l = fst_window_locator_new(&w, &s);
    ev(&s, FST_EV_CALL, 1, 2, 0, 1);
    ev(&s, FST_EV_CALL, 1, 3, 0, 0);    /* not counted: no call */
    assert_int_equal(fst_window_resolve(&w, l, &e), -1);
    assert_non_null(strstr(e.msg, "--window=call:SUB:3: SUB was called 1 time, not 3"));
    fst_window_locator_free(l);
    assert_int_equal(fst_window_parse(&w, "call:NOSUCH:1", &e), 0);
    l = fst_window_locator_new(&w, &s);
    ev(&s, FST_EV_CALL, 1, 2, 0, 1);
    assert_int_equal(fst_window_resolve(&w, l, &e), -1);
    assert_non_null(strstr(e.msg, "no routine of that name"));
    fst_window_locator_free(l);
}

static void test_check(void **state)
{
    (void)state;
    fst_window w;
    fst_err e;
    assert_int_equal(fst_window_parse(&w, "10:306", &e), 0);
    assert_int_equal(fst_window_check(&w, 306, &e), 0);
    assert_int_equal(fst_window_check(&w, 305, &e), -1);
    assert_non_null(strstr(e.msg, "--window=10:306: past the trace's end: it holds 305 instructions"));
    assert_int_equal(fst_window_parse(&w, "306:", &e), 0);
    assert_int_equal(fst_window_check(&w, 306, &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_time),
        cmocka_unit_test(test_call),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests_name("window", tests, NULL, NULL);
}
