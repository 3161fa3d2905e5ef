/*
** tests/unit/test_suggest.c — common/opt.c's fst_opt_suggest: the nearest name to a
** misspelt word (a swap of two neighbours is one edit), none when nothing is near, ties to
** the first; as every command answers a mistyped format, option or choice.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/opt.h"

static const char *const formats[] = { "fortstat", "csv", "maptime", "prof", "monout", "gmon", "annotate",
                                       "callgrind", "folded", "svg", "json", "speedscope", "tree", NULL };

static void test_near(void **state)
{
    (void)state;
    assert_string_equal(fst_opt_suggest("fortsat", formats), "fortstat");     /* a letter left out */
    assert_string_equal(fst_opt_suggest("fortsatt", formats), "fortstat");    /* a swap */
    assert_string_equal(fst_opt_suggest("calgrind", formats), "callgrind");
    assert_string_equal(fst_opt_suggest("cvs", formats), "csv");              /* a swap in 3 letters */
    assert_string_equal(fst_opt_suggest("FORTSTAT", formats), "fortstat");    /* case-blind */
    assert_string_equal(fst_opt_suggest("tre", formats), "tree");
    assert_string_equal(fst_opt_suggest("speedscop", formats), "speedscope");
}

static void test_far(void **state)
{
    (void)state;
    assert_null(fst_opt_suggest("zzz", formats));
    assert_null(fst_opt_suggest("", formats));
    assert_null(fst_opt_suggest("html", formats));
    assert_null(fst_opt_suggest("cpu", (const char *const[]){ "task", "row", NULL }));
    assert_null(fst_opt_suggest("fxxxstat", formats));   /* 3 of 8 letters changed: another word */
    assert_null(fst_opt_suggest("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", formats));
}

static void test_ties(void **state)
{
    (void)state;
    /* "prog" is one edit from "prof" and two from "gmon": the nearest wins; equal ones go
    ** to the first listed */
    assert_string_equal(fst_opt_suggest("prog", formats), "prof");
    assert_string_equal(fst_opt_suggest("ab", (const char *const[]){ "ax", "xb", NULL }), "ax");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_near),
        cmocka_unit_test(test_far),
        cmocka_unit_test(test_ties),
    };
    return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
