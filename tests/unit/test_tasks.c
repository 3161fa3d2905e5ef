/*
** tests/unit/test_tasks.c — analyze/tasks: which task a dispatch resumes (tasks.h rules 0-5):
** the state, the address space, the resume address, the LPSW operand, elimination,
** guesses and new tasks.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/tasks.h"

enum { PROB = 1, SUP = 0 };
#define M31 0x7FFFFFFFull

/* Two tasks in two address spaces at the same virtual addresses are never confused. */
static void test_spaces(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = fst_tasks_dispatch(ts, 0x40000, 0x11000, PROB, 0, &how);
    assert_int_equal(how, FST_TASK_NEW);
    fst_tasks_suspend(ts, a, 0x40010, M31, PROB);
    size_t b = fst_tasks_dispatch(ts, 0x40000, 0x12000, PROB, 0, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(a, b);
    fst_tasks_suspend(ts, b, 0x40010, M31, PROB);
    /* both resume at 40010: the space tells them apart */
    assert_int_equal(fst_tasks_dispatch(ts, 0x40010, 0x12000, PROB, 0, &how), b);
    assert_int_equal(how, FST_TASK_BY_RESUME);
    assert_int_equal(fst_tasks_dispatch(ts, 0x40010, 0x11000, PROB, 0, &how), a);
    assert_int_equal(how, FST_TASK_BY_RESUME);
    assert_int_equal(fst_tasks_count(ts), 2);
    fst_tasks_free(ts);
}

/* Same space: the resume address, then the LPSW operand, then a counted guess. */
static void test_resume_lpsw_guess(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = fst_tasks_start(ts, 0x20000, FST_SPACE_REAL);
    fst_tasks_suspend(ts, a, 0x20100, M31, PROB);
    size_t b = fst_tasks_dispatch(ts, 0x20000, FST_SPACE_REAL, PROB, 0x3000, &how);
    assert_int_equal(how, FST_TASK_NEW);
    fst_tasks_suspend(ts, b, 0x20200, M31, PROB);
    assert_int_equal(fst_tasks_dispatch(ts, 0x20200, FST_SPACE_REAL, PROB, 0, &how), b);
    assert_int_equal(how, FST_TASK_BY_RESUME);
    fst_tasks_suspend(ts, b, 0x20100, M31, PROB);   /* now both at 20100 */
    assert_int_equal(fst_tasks_dispatch(ts, 0x20100, FST_SPACE_REAL, PROB, 0x3000, &how), b);
    assert_int_equal(how, FST_TASK_BY_LPSW);
    fst_tasks_suspend(ts, b, 0x20100, M31, PROB);
    assert_int_equal(fst_tasks_dispatch(ts, 0x20100, FST_SPACE_REAL, PROB, 0x9999, &how), a); /* longest */
    assert_int_equal(how, FST_TASK_GUESSED);
    fst_tasks_free(ts);
}

/* Unknown resume addresses: by elimination; the state must match; 24-bit masking. */
static void test_elimination_state(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = fst_tasks_start(ts, 0x20000, FST_SPACE_REAL);
    fst_tasks_suspend(ts, a, FST_RESUME_UNKNOWN, M31, PROB);
    /* a supervisor-state dispatch that nothing explains is the supervisor's own work */
    assert_true(fst_tasks_dispatch(ts, 0x500, FST_SPACE_REAL, SUP, 0, &how) == FST_NOTASK_ID);
    assert_int_equal(fst_tasks_dispatch(ts, 0x20400, FST_SPACE_REAL, PROB, 0, &how), a);
    assert_int_equal(how, FST_TASK_BY_ELIMINATION);
    fst_tasks_suspend(ts, a, 0x20402, 0xFFFFFFull, PROB);
    assert_int_equal(fst_tasks_dispatch(ts, 0x40020402, FST_SPACE_REAL, PROB, 0, &how), a); /* BALR's top byte */
    assert_int_equal(how, FST_TASK_BY_RESUME);
    fst_tasks_suspend(ts, a, 0x20404, M31, SUP);    /* suspended in supervisor state */
    assert_int_equal(fst_tasks_dispatch(ts, 0x20404, FST_SPACE_REAL, PROB, 0, &how), 1);
    assert_int_equal(how, FST_TASK_NEW);
    fst_tasks_free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spaces),
        cmocka_unit_test(test_resume_lpsw_guess),
        cmocka_unit_test(test_elimination_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
