/* Unit tests of capture/hercules/child.c: a child whose stdout ends long before it does (SDL
** Hercules 4.x started with -o closes its stdout ~10 ms after start and runs on) is still
** running for fst_child_exited, which looks without reaping: fst_child_wait still gives
** its exit status. The child is /bin/sh, a real process. */
#include "capture/hercules/child.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts))
        ;
}

static void test_stdout_ends_first(void **state)
{
    (void)state;
    fst_child c;
    fst_err err;
    /* closes its stdout at once, runs 300 ms more, exits 3 */
    char *argv[] = { "sh", "-c", "exec 1>&-; sleep 0.3; exit 3", NULL };
    assert_int_equal(fst_child_spawn_in(&c, argv, ".", 2, NULL, &err), 0);
    char b[16];
    assert_int_equal(read(c.out, b, sizeof b), 0); /* stdout: the end, at once */
    assert_int_equal(fst_child_exited(&c), 0);     /* ... while it runs on */
    sleep_ms(100);
    assert_int_equal(fst_child_exited(&c), 0);
    int waited = 0;
    while (!fst_child_exited(&c) && waited < 5000) {
        sleep_ms(10);
        waited += 10;
    }
    assert_int_equal(fst_child_exited(&c), 1);
    assert_int_equal(fst_child_exited(&c), 1); /* not reaped by looking */
    int st = fst_child_wait(&c);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 3);
    assert_int_equal(fst_child_exited(&c), 1); /* none runs */
}

static void test_killed(void **state)
{
    (void)state;
    fst_child c;
    fst_err err;
    char *argv[] = { "sh", "-c", "sleep 30", NULL };
    assert_int_equal(fst_child_spawn(&c, argv, ".", 2, NULL, &err), 0);
    assert_int_equal(fst_child_exited(&c), 0);
    fst_child_kill(&c);
    int waited = 0;
    while (!fst_child_exited(&c) && waited < 5000) {
        sleep_ms(10);
        waited += 10;
    }
    assert_int_equal(fst_child_exited(&c), 1);
    int st = fst_child_wait(&c);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stdout_ends_first),
        cmocka_unit_test(test_killed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
