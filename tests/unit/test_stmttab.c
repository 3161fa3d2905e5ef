/*
** tests/unit/test_stmttab.c — model/stmttab: spans cut from statements' ranges (statements
** sharing addresses named together, a statement in two pieces one group, gaps no
** statement), placement by name and by the code in an image, and its refusals (code that
** differs, code at two places, code nowhere); formats/stmtprof's names for a group.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/stmtprof.h"
#include "model/stmttab_int.h"

#include <string.h>

static const uint8_t CODE[16] = { 0x90, 0xEC, 0xD0, 0x0C, 0x18, 0xCF, 0x41, 0xB0,
                                  0xD0, 0x48, 0x50, 0xD0, 0x07, 0xFE, 0x07, 0x07 };

/* A unit `name`: statement 12 at [0,8), 14 at [4,12) (the two share [4,8)), 16 at [12,14)
** and, added apart, at [14,16) (one statement in two pieces), 18 with no code. */
static fst_stmt_tab *table(const char *name)
{
    fst_stmt_tab *t = fst_stmt_new();
    fst_stmt_begin_unit(t, FST_STMT_IBMASM, "prog.lst", name, 0);
    if (name)
        fst_stmt_set_name(t, name, 0);
    fst_stmt_add(t, "prog.lst", 12, "LOOP STM 14,12,12(13)", 0, 8, CODE, 8, 0);
    fst_stmt_add(t, "prog.lst", 14, "     LA 11,72(13)", 4, 12, NULL, 0, 0);
    fst_stmt_add(t, "prog.lst", 16, "     BR 14", 12, 14, CODE + 12, 2, 0);
    fst_stmt_add(t, "prog.lst", 18, "     DS 0H", 14, 14, NULL, 0, 0);    /* no code */
    fst_stmt_add(t, "prog.lst", 16, NULL, 14, 16, CODE + 14, 2, 0);     /* its second piece */
    return t;
}

static void test_spans_shared_and_gaps(void **state)
{
    (void)state;
    fst_stmt_tab *t = table("PROG");
    uint8_t mem[64] = { 0 };
    memcpy(mem + 16, CODE, sizeof CODE);
    fst_image_seg img = { 0x1000, sizeof mem, mem };
    fst_stmt_routine r = { "PROG", 0x1010 };
    fst_err err;
    assert_int_equal(fst_stmt_place(t, &r, 1, &img, 1, &err), 0);
    assert_int_equal(fst_stmt_nspans(t), 4);    /* [10,14) {12}, [14,18) {12,14}, [18,1C) {14}, [1C,20) {16} */
    const fst_stmt_span *s = fst_stmt_find(t, 0x1015);
    assert_non_null(s);
    assert_int_equal(s->n, 2);
    assert_int_equal(fst_stmt_of(t, s, 0)->line, 12);
    assert_int_equal(fst_stmt_of(t, s, 1)->line, 14);
    char file[64], line[32];
    fst_stmtprof_names(t, s->group, file, sizeof file, line, sizeof line);
    assert_string_equal(line, "12+14");
    assert_string_equal(file, "prog.lst");
    assert_int_equal(fst_stmt_find(t, 0x1010)->n, 1);
    assert_int_equal(fst_stmt_find(t, 0x1019)->n, 1);
    assert_int_equal(fst_stmt_of(t, fst_stmt_find(t, 0x1019), 0)->line, 14);
    /* statement 16's two pieces merge into one span, one group */
    const fst_stmt_span *a = fst_stmt_find(t, 0x101C), *b = fst_stmt_find(t, 0x101E);
    assert_ptr_equal(a, b);
    assert_int_equal(fst_stmt_of(t, a, 0)->line, 16);
    assert_null(fst_stmt_find(t, 0x1020));          /* past the code: no statement */
    assert_null(fst_stmt_find(t, 0x100F));
    assert_int_equal(fst_stmtprof_group_of(t, 0x1030), FST_SP_NOSTMT);
    assert_string_equal(fst_stmt_of(t, fst_stmt_find(t, 0x1010), 0)->text, "LOOP STM 14,12,12(13)");
    fst_stmt_free(t);
}

static void test_split_statement_one_group(void **state)
{
    (void)state;
    fst_stmt_tab *t = fst_stmt_new();
    fst_stmt_begin_unit(t, FST_STMT_DWARF, "a.elf", NULL, 1);
    fst_stmt_add(t, "a.c", 5, NULL, 0x100, 0x104, NULL, 0, 1);
    fst_stmt_add(t, "a.c", 6, NULL, 0x104, 0x108, NULL, 0, 1);
    fst_stmt_add(t, "a.c", 5, NULL, 0x108, 0x10C, NULL, 0, 1);
    fst_stmt_add_code(t, 0x100, CODE, 12);
    uint8_t mem[16];
    memcpy(mem, CODE, 12);
    fst_image_seg img = { 0x100, 12, mem };
    fst_err err;
    assert_int_equal(fst_stmt_place(t, NULL, 0, &img, 1, &err), 0);
    assert_int_equal(fst_stmt_nspans(t), 3);
    assert_int_equal(fst_stmt_find(t, 0x100)->group, fst_stmt_find(t, 0x10A)->group);
    assert_int_not_equal(fst_stmt_find(t, 0x100)->group, fst_stmt_find(t, 0x106)->group);
    assert_int_equal(fst_stmt_count(t), 2);
    fst_stmt_free(t);
}

static void test_placement(void **state)
{
    (void)state;
    fst_err err;
    uint8_t mem[96] = { 0 };
    memcpy(mem + 32, CODE, sizeof CODE);
    fst_image_seg img = { 0x2000, sizeof mem, mem };
    /* no routine of its name: its code, found once */
    fst_stmt_tab *t = table("NONAME");
    assert_int_equal(fst_stmt_place(t, NULL, 0, &img, 1, &err), 0);
    assert_int_equal(fst_stmt_unit_at(t, 0)->base, 0x2020);
    fst_stmt_free(t);
    /* by name, where the code differs: refused */
    t = table("PROG");
    fst_stmt_routine r = { "PROG", 0x2000 };
    assert_int_equal(fst_stmt_place(t, &r, 1, &img, 1, &err), -1);
    assert_non_null(strstr(err.msg, "its code is not what ran at routine PROG"));
    fst_stmt_free(t);
    /* its code at two places: which one ran cannot be told */
    memcpy(mem + 64, CODE, sizeof CODE);
    t = table(NULL);
    assert_int_equal(fst_stmt_place(t, NULL, 0, &img, 1, &err), -1);
    assert_non_null(strstr(err.msg, "at 2 places"));
    fst_stmt_free(t);
    /* nowhere */
    memset(mem, 0, sizeof mem);
    t = table(NULL);
    assert_int_equal(fst_stmt_place(t, NULL, 0, &img, 1, &err), -1);
    assert_non_null(strstr(err.msg, "nowhere in the trace's storage image"));
    fst_stmt_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spans_shared_and_gaps),
        cmocka_unit_test(test_split_statement_one_group),
        cmocka_unit_test(test_placement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
