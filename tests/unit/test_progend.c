/*
** tests/unit/test_progend.c — capture/progend: when the program has ended, for the cases
** its header names: one CPU; CPU 1's disabled wait first (fixtures' mp2); CPU 1 stopping
** itself by SIGP (twocpu.s); one CPU's disabled wait while another runs on (MVS); a SIGP
** refused; a CPU restarted after its wait; a CPU restarted before it shows an instruction.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/progend.h"

enum { STOP = 0x05, RESTART = 0x06, STOPSTORE = 0x09, SENSE = 0x01 };

static void test_one_cpu(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    assert_false(fst_pe_ended(&p)); /* nothing seen: not ended */
    fst_pe_insn(&p, 0);
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
}

static void test_mp2_cpu1_first(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0);
    fst_pe_sigp(&p, 0, 1, RESTART, 0);
    fst_pe_insn(&p, 1);
    fst_pe_dwait(&p, 1);
    assert_false(fst_pe_ended(&p)); /* CPU 0 runs on */
    assert_int_equal(fst_pe_running(&p), 1);
    fst_pe_insn(&p, 0);
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
}

static void test_sigp_stop(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0);
    fst_pe_insn(&p, 1);
    fst_pe_sigp(&p, 1, 1, SENSE, 0); /* no change */
    fst_pe_sigp(&p, 1, 1, STOP, 0);  /* CPU 1 stops itself: 0 still runs */
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
    /* a stop-and-store-status to a third CPU that was restarted, then refused orders */
    fst_pe_init(&p);
    fst_pe_insn(&p, 0);
    fst_pe_sigp(&p, 0, 2, RESTART, 0); /* runs from now, before its first instruction shows */
    fst_pe_dwait(&p, 0);
    assert_false(fst_pe_ended(&p));
    fst_pe_sigp(&p, 2, 2, STOPSTORE, 2); /* CC 2 (busy): not accepted */
    assert_false(fst_pe_ended(&p));
    fst_pe_sigp(&p, 2, 2, STOPSTORE, 0);
    assert_true(fst_pe_ended(&p));
}

static void test_mvs_one_cpu_fails(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    for (unsigned c = 0; c < 4; c++)
        fst_pe_insn(&p, c);
    fst_pe_dwait(&p, 0); /* the IPL CPU fails: the system runs on */
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 1);
    fst_pe_dwait(&p, 2);
    assert_false(fst_pe_ended(&p));
    fst_pe_sigp(&p, 3, 0, RESTART, 0); /* CPU 0 restarted: running again */
    fst_pe_insn(&p, 0);
    fst_pe_dwait(&p, 3);
    assert_false(fst_pe_ended(&p));
    assert_int_equal(fst_pe_running(&p), 1);
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
    fst_pe_insn(&p, 1); /* not sticky: a CPU that runs again un-ends it */
    assert_false(fst_pe_ended(&p));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_cpu),
        cmocka_unit_test(test_mp2_cpu1_first),
        cmocka_unit_test(test_sigp_stop),
        cmocka_unit_test(test_mvs_one_cpu_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
