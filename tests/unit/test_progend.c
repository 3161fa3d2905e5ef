/*
** tests/unit/test_progend.c — capture/read/progend.c: when the program has ended, for the cases
** its header names: one CPU; CPU 1's disabled wait first (fixtures' mp2); CPU 1 stopping
** itself by SIGP (twocpu.s); one CPU's disabled wait while another runs on (MVS); a SIGP
** refused; a CPU restarted after its wait; a CPU restarted before it shows an instruction;
** an outcome line printed late, after the target has shown the order's effect (the
** cpu1first flake: CPU 1's disabled wait before CPU 0's "SIGP Restart ... CC 0"), and a
** stop and a restart of one CPU both printed late, in either order.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/read/progend.h"

enum { STOP = 0x05, RESTART = 0x06, STOPSTORE = 0x09, SENSE = 0x01 };

static void test_one_cpu(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    assert_false(fst_pe_ended(&p)); /* nothing seen: not ended */
    fst_pe_insn(&p, 0, 0);
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
}

static void test_mp2_cpu1_first(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 1); /* its SIGP */
    fst_pe_sigp(&p, 0, 1, RESTART, 0);
    fst_pe_insn(&p, 1, 0);
    fst_pe_dwait(&p, 1);
    assert_false(fst_pe_ended(&p)); /* CPU 0 runs on */
    assert_int_equal(fst_pe_running(&p), 1);
    fst_pe_insn(&p, 0, 0);
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
}

static void test_sigp_stop(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 0);
    fst_pe_insn(&p, 1, 0);
    fst_pe_sigp(&p, 1, 1, SENSE, 0); /* no change */
    fst_pe_sigp(&p, 1, 1, STOP, 0);  /* CPU 1 stops itself: 0 still runs */
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
    /* a stop-and-store-status to a third CPU that was restarted, then refused orders */
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 0);
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
        fst_pe_insn(&p, c, 0);
    fst_pe_dwait(&p, 0); /* the IPL CPU fails: the system runs on */
    assert_false(fst_pe_ended(&p));
    fst_pe_dwait(&p, 1);
    fst_pe_dwait(&p, 2);
    assert_false(fst_pe_ended(&p));
    fst_pe_sigp(&p, 3, 0, RESTART, 0); /* CPU 0 restarted: running again */
    fst_pe_insn(&p, 0, 0);
    fst_pe_dwait(&p, 3);
    assert_false(fst_pe_ended(&p));
    assert_int_equal(fst_pe_running(&p), 1);
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
    fst_pe_insn(&p, 1, 0); /* not sticky: a CPU that runs again un-ends it */
    assert_false(fst_pe_ended(&p));
}

/* cpu1first under load: CPU 0 traces its SIGP, CPU 1 runs and loads its disabled wait,
** and only then does CPU 0 print the restart's outcome (tests/logs/cpu1first-late-sigp) */
static void test_restart_printed_late(void **state)
{
    (void)state;
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 0);
    fst_pe_insn(&p, 0, 1); /* SIGP 4,3,6: restart CPU 1 */
    fst_pe_insn(&p, 1, 0);
    fst_pe_insn(&p, 1, 0);
    fst_pe_dwait(&p, 1);
    fst_pe_sigp(&p, 0, 1, RESTART, 0); /* late: CPU 1's wait, after it, stands */
    assert_int_equal(fst_pe_running(&p), 1);
    fst_pe_insn(&p, 0, 0);
    fst_pe_dwait(&p, 0);
    assert_true(fst_pe_ended(&p));
    /* printed late while CPU 1 still runs (no wait since the SIGP): it runs */
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 1);
    fst_pe_insn(&p, 1, 0);
    fst_pe_sigp(&p, 0, 1, RESTART, 0);
    fst_pe_dwait(&p, 0);
    assert_false(fst_pe_ended(&p));
    assert_int_equal(fst_pe_running(&p), 1);
    /* the SIGP instruction not traced (outside a --range): dated by its line, it counts */
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 0);
    fst_pe_insn(&p, 1, 0);
    fst_pe_dwait(&p, 1);
    fst_pe_sigp(&p, 0, 1, RESTART, 0);
    fst_pe_dwait(&p, 0);
    assert_false(fst_pe_ended(&p)); /* CPU 1 restarted after its wait */
    /* the issuer's own CPU: a restart of itself is not late */
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 1);
    fst_pe_sigp(&p, 0, 0, RESTART, 0);
    assert_int_equal(fst_pe_running(&p), 1);
}

/* CPU 0 stops CPU 1, CPU 2 restarts it; both outcome lines come after CPU 1's instructions
** of after the restart, in either order: CPU 1 runs (the restart was issued last) */
static void test_stop_restart_printed_late(void **state)
{
    (void)state;
    for (int stop_first = 0; stop_first < 2; stop_first++) {
        fst_pe p;
        fst_pe_init(&p);
        fst_pe_insn(&p, 1, 0);
        fst_pe_insn(&p, 0, 1); /* SIGP: stop CPU 1 */
        fst_pe_insn(&p, 1, 0); /* CPU 1 runs on until the stop takes effect */
        fst_pe_insn(&p, 2, 1); /* SIGP: restart CPU 1 */
        fst_pe_insn(&p, 1, 0); /* restarted */
        if (stop_first) {
            fst_pe_sigp(&p, 0, 1, STOP, 0);
            fst_pe_sigp(&p, 2, 1, RESTART, 0);
        } else {
            fst_pe_sigp(&p, 2, 1, RESTART, 0);
            fst_pe_sigp(&p, 0, 1, STOP, 0); /* issued before the restart: superseded */
        }
        fst_pe_dwait(&p, 0);
        fst_pe_dwait(&p, 2);
        assert_false(fst_pe_ended(&p)); /* CPU 1 runs */
        assert_int_equal(fst_pe_running(&p), 1);
        fst_pe_dwait(&p, 1);
        assert_true(fst_pe_ended(&p));
    }
    /* the other way round: restart, then stop; the restart printed last stays superseded */
    fst_pe p;
    fst_pe_init(&p);
    fst_pe_insn(&p, 0, 0);
    fst_pe_insn(&p, 2, 1); /* SIGP: restart CPU 1 */
    fst_pe_insn(&p, 1, 0);
    fst_pe_insn(&p, 0, 1); /* SIGP: stop CPU 1 */
    fst_pe_insn(&p, 1, 0); /* before the stop takes effect */
    fst_pe_sigp(&p, 0, 1, STOP, 0);
    fst_pe_sigp(&p, 2, 1, RESTART, 0); /* late */
    fst_pe_dwait(&p, 0);
    fst_pe_dwait(&p, 2);
    assert_true(fst_pe_ended(&p));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_cpu),
        cmocka_unit_test(test_mp2_cpu1_first),
        cmocka_unit_test(test_sigp_stop),
        cmocka_unit_test(test_mvs_one_cpu_fails),
        cmocka_unit_test(test_restart_printed_late),
        cmocka_unit_test(test_stop_restart_printed_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
