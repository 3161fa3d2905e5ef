/*
** tests/unit/test_jobwin.c — capture/read/jobwin.h: one job's window in a Hercules log,
** fed whole and in every split of two pieces (a line cut anywhere must pass or not as
** whole), with time stamps, another job of a similar name, lower-case names, a line too
** long, and no end; before the window only Hercules' state messages pass (no event: a
** program check of before is not the job's), and the register lines right after the start
** line (a display whose instruction came before) are dropped; what a job that never
** started leaves to say (the last other start line).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/read/jobwin.h"

#include <stdlib.h>
#include <string.h>

typedef struct sink {
    char buf[8192];
    size_t n;
} sink;

static int to_sink(void *ctx, const char *data, size_t n)
{
    sink *s = ctx;
    assert_true(s->n + n < sizeof s->buf);
    memcpy(s->buf + s->n, data, n);
    s->n += n;
    s->buf[s->n] = 0;
    return 0;
}

static const char LOG[] =
    "Hercules Version 3.13\n"
    "HHCCP003I CPU0000 architecture mode S/370\n"
    "PSW=070E0000 00001000 INST=05EF BALR 14,15\n"                                   /* before: dropped */
    "12:00:00 HHC01603I t+\n"                                                          /* a message: dropped */
    "HHCCP014I CPU0000: Operation exception CODE=0001 ILC=2\n"                         /* an event: dropped */
    " 12.00.00 JOB    7  $HASP373 MYJOBX   STARTED - INIT  2 - CLASS A - SYS TK4-\n"  /* another job */
    "PSW=070E0000 00001002 INST=1A11 AR 1,1\n"                                        /* dropped */
    " 12.00.01 JOB    8  $HASP373 MYJOB    STARTED - INIT  1 - CLASS A - SYS TK4-\n"  /* opens */
    "GR00=00000000 GR01=00000001 GR02=00000002 GR03=00000003\n"   /* the display of one before: dropped */
    "PSW=070D0000 00050100 INST=47F0F00C BC 15,12(0,15)\n"
    "GR00=00000000 GR01=00000001 GR02=00000002 GR03=00000003\n"   /* its own: kept */
    "PSW=070D0000 0005010C INST=90ECD00C STM 14,12,12(13)\n"
    " 12.00.02 JOB    7  $HASP395 MYJOBX   ENDED\n"                                   /* another job's end */
    "PSW=070D0000 00050110 INST=18CF LR 12,15\n"
    "12:00:03 12.00.03 JOB    8  $HASP395 MYJOB    ENDED\n"                           /* closes */
    "PSW=070E0000 00001004 INST=07FE BCR 15,14\n";                                   /* after: dropped */

static const char WANT[] =
    "Hercules Version 3.13\n"
    "HHCCP003I CPU0000 architecture mode S/370\n"
    " 12.00.01 JOB    8  $HASP373 MYJOB    STARTED - INIT  1 - CLASS A - SYS TK4-\n"
    "PSW=070D0000 00050100 INST=47F0F00C BC 15,12(0,15)\n"
    "GR00=00000000 GR01=00000001 GR02=00000002 GR03=00000003\n"
    "PSW=070D0000 0005010C INST=90ECD00C STM 14,12,12(13)\n"
    " 12.00.02 JOB    7  $HASP395 MYJOBX   ENDED\n"
    "PSW=070D0000 00050110 INST=18CF LR 12,15\n"
    "12:00:03 12.00.03 JOB    8  $HASP395 MYJOB    ENDED\n";

static void test_every_split(void **state)
{
    (void)state;
    size_t n = strlen(LOG);
    for (size_t cut = 0; cut <= n; cut++) {
        fst_jobwin *j = fst_jobwin_new("myjob");
        sink s = { .n = 0 };
        assert_non_null(j);
        assert_int_equal(fst_jobwin_feed(j, LOG, cut, to_sink, &s), 0);
        assert_int_equal(fst_jobwin_feed(j, LOG + cut, n - cut, to_sink, &s), 0);
        assert_int_equal(fst_jobwin_finish(j, to_sink, &s), 0);
        assert_string_equal(s.buf, WANT);
        assert_true(fst_jobwin_started(j));
        assert_true(fst_jobwin_ended(j));
        assert_int_equal(fst_jobwin_start_line(j), 8);
        assert_int_equal(fst_jobwin_end_line(j), 15);
        assert_string_equal(fst_jobwin_name(j), "MYJOB");
        /* the start of another job seen while waiting, from its $HASP373 */
        assert_string_equal(fst_jobwin_other(j), "$HASP373 MYJOBX   STARTED - INIT  2 - CLASS A - SYS TK4-");
        fst_jobwin_free(j);
    }
}

static void test_no_end_and_long_lines(void **state)
{
    (void)state;
    fst_jobwin *j = fst_jobwin_new("MYJOB");
    sink s = { .n = 0 };
    char *big = malloc(FST_JOBWIN_MAX_LINE + 100);
    memset(big, 'x', FST_JOBWIN_MAX_LINE + 99);
    big[FST_JOBWIN_MAX_LINE + 99] = '\n';
    /* a line too long before the window: dropped, and the next line still read */
    assert_int_equal(fst_jobwin_feed(j, big, FST_JOBWIN_MAX_LINE + 100, to_sink, &s), 0);
    static const char start[] = "$HASP373 MYJOB STARTED\nPSW=1\nPSW=2";
    assert_int_equal(fst_jobwin_feed(j, start, strlen(start), to_sink, &s), 0);
    assert_int_equal(fst_jobwin_finish(j, to_sink, &s), 0);
    assert_string_equal(s.buf, "$HASP373 MYJOB STARTED\nPSW=1\nPSW=2");
    assert_true(fst_jobwin_started(j));
    assert_false(fst_jobwin_ended(j));
    free(big);
    fst_jobwin_free(j);
}

/* A job that never starts: the last other start line read (a skipped run of its own
** counts), cut to FST_JOBWIN_OTHER - 1 printable characters; "" when no job started. */
static void test_other(void **state)
{
    (void)state;
    sink s = { .n = 0 };
    fst_jobwin *j = fst_jobwin_new("NOTME");
    assert_string_equal(fst_jobwin_other(j), "");
    assert_int_equal(fst_jobwin_feed(j, LOG, strlen(LOG), to_sink, &s), 0);
    assert_false(fst_jobwin_started(j));
    assert_string_equal(fst_jobwin_other(j), "$HASP373 MYJOB    STARTED - INIT  1 - CLASS A - SYS TK4-");
    char line[300] = " 12.00.09 JOB    9  $HASP373 LONG\tJOB STARTED ";
    memset(line + strlen(line), 'y', 200);
    strcat(line, "\r\n");
    assert_int_equal(fst_jobwin_feed(j, line, strlen(line), to_sink, &s), 0);
    const char *o = fst_jobwin_other(j);
    assert_int_equal(strlen(o), FST_JOBWIN_OTHER - 1);
    assert_memory_equal(o, "$HASP373 LONG?JOB STARTED yyy", 29);
    fst_jobwin_free(j);
    j = fst_jobwin_new("MYJOB");
    fst_jobwin_skip(j, 1);
    static const char two[] = "$HASP373 MYJOB STARTED 1\n$HASP395 MYJOB ENDED\n";
    assert_int_equal(fst_jobwin_feed(j, two, strlen(two), to_sink, &s), 0);
    assert_false(fst_jobwin_started(j));
    assert_string_equal(fst_jobwin_other(j), "$HASP373 MYJOB STARTED 1");
    fst_jobwin_free(j);
    j = fst_jobwin_new("MYJOB");
    static const char none[] = "Hercules Version 4.9\nHHC00809I Processor CP00: disabled wait state\n";
    assert_int_equal(fst_jobwin_feed(j, none, strlen(none), to_sink, &s), 0);
    assert_string_equal(fst_jobwin_other(j), "");
    assert_string_equal(fst_jobwin_first(j), "Hercules Version 4.9");
    fst_jobwin_free(j);
}

static void test_names(void **state)
{
    (void)state;
    assert_null(fst_jobwin_new(""));
    assert_null(fst_jobwin_new("NINECHARS"));
    assert_null(fst_jobwin_new("MY JOB"));
    fst_jobwin *j = fst_jobwin_new("$#@A1");
    assert_non_null(j);
    fst_jobwin_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_split),
        cmocka_unit_test(test_no_end_and_long_lines),
        cmocka_unit_test(test_other),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("jobwin", tests, NULL, NULL);
}
