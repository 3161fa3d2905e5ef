/*
** tests/unit/test_listings.c — what the listings share (formats/filter.c: --top,
** --percent-limit, --routine; formats/uncertain.c: the ' ?' marks and their bounds) on a
** synthetic profile whose figures are set by hand: rows kept and left out, ties, the case
** fallback of a pattern, and fortstat and prof marking the same routine with the same bounds.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/filter.h"
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/uncertain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const fst_format fst_format_prof;

#define MS (FST_FX_PER_SEC / 1000)

typedef struct prog {
    fst_routine r[4];
    fst_profile p;
} prog;

/* MAIN 10 ms, SUBA 50 ms (16 calls, 2 of them and 26 instructions uncertain), SUBB 30 ms,
** SUBC 10 ms: 100 ms in all. */
static void make(prog *x)
{
    static const char *const names[] = { "MAIN", "SUBA", "SUBB", "SUBC" };
    static const uint64_t ms[] = { 10, 50, 30, 10 }, calls[] = { 0, 16, 3, 1 };
    memset(x, 0, sizeof *x);
    for (size_t i = 0; i < 4; i++) {
        snprintf(x->r[i].name, sizeof x->r[i].name, "%s", names[i]);
        x->r[i].entry = 0x20000 + 0x100 * i;
        x->r[i].order = i;
        x->r[i].timed = 1;
        x->r[i].calls = calls[i];
        x->r[i].self_insns = ms[i];
        x->r[i].self_cost = (fst_fx)(ms[i] * MS);
    }
    x->r[0].mainline = 1;
    x->r[1].calls_unc = 2;
    x->r[1].self_unc = 26;
    x->p.r = x->r;
    x->p.nr = 4;
    x->p.complete = 1;
}

static size_t kept(const fst_filter *f, const fst_profile *p, size_t *ix, fst_filter_left *left)
{
    for (size_t i = 0; i < p->nr; i++)
        ix[i] = i;
    return fst_filter_rows(f, p, ix, p->nr, (fst_fx)(100 * MS), left);
}

static void top_and_limit(void **state)
{
    (void)state;
    prog x;
    make(&x);
    fst_filter f = { 0 };
    fst_err err;
    size_t ix[4];
    fst_filter_left left;
    assert_int_equal(fst_filter_top(&f, "2", &err), 0);
    assert_int_equal(kept(&f, &x.p, ix, &left), 2);    /* SUBA, SUBB, in load-module order */
    assert_int_equal(ix[0], 1);
    assert_int_equal(ix[1], 2);
    assert_int_equal(left.rows, 2);
    assert_int_equal(left.calls, 1);
    assert_int_equal(left.self_insns, 20);
    f.top = 3;  /* MAIN and SUBC tie at 10 ms: the first in load-module order */
    assert_int_equal(kept(&f, &x.p, ix, &left), 3);
    assert_int_equal(ix[0], 0);
    f.top = 0;
    assert_int_equal(fst_filter_limit(&f, "30", &err), 0);  /* SUBB is exactly 30.0 %: kept */
    assert_int_equal(kept(&f, &x.p, ix, &left), 2);
    assert_int_equal(fst_filter_limit(&f, "30.1", &err), 0);
    assert_int_equal(kept(&f, &x.p, ix, &left), 1);
    for (const char *bad[] = { "100.01", "-1", "0x10", "1e1", "", ".5", NULL }, **b = bad; *b; b++)
        assert_int_equal(fst_filter_limit(&f, *b, &err), -1);
    for (const char *bad[] = { "0", "-2", " 2", "2x", NULL }, **b = bad; *b; b++)
        assert_int_equal(fst_filter_top(&f, *b, &err), -1);
}

static void routine_globs(void **state)
{
    (void)state;
    prog x;
    make(&x);
    fst_filter f = { 0 };
    fst_err err;
    size_t ix[4];
    fst_filter_left left;
    assert_int_equal(fst_filter_routine(&f, "sub[ab]", &err), 0);
    assert_int_equal(fst_filter_bind(&f, &x.p, 0, &err), 0);  /* no exact match: case folded */
    assert_int_equal(kept(&f, &x.p, ix, &left), 2);
    assert_int_equal(left.rows, 2);
    assert_true(fst_filter_keeps(&f, "SUBA"));
    assert_false(fst_filter_keeps(&f, "SUBC"));
    assert_int_equal(fst_filter_routine(&f, "NOPE", &err), 0);
    assert_int_equal(fst_filter_bind(&f, &x.p, 0, &err), -1);
    assert_non_null(strstr(err.msg, "--routine=NOPE: no timed routine"));
    assert_non_null(strstr(err.msg, "MAIN, SUBA, SUBB, SUBC"));
}

static char *capture(FILE **f, char **buf, size_t *len)
{
    *f = open_memstream(buf, len);
    assert_non_null(*f);
    return *buf;
}

/* fortstat and prof mark SUBA alone, and give the same bounds line. */
static void marks_agree(void **state)
{
    (void)state;
    prog x;
    make(&x);
    char *a = NULL, *b = NULL;
    size_t al, bl;
    FILE *f;
    capture(&f, &a, &al);
    fst_fortstat_opts o = { 0 };
    assert_int_equal(fst_write_fortstat(f, &x.p, &o), 0);
    fclose(f);
    capture(&f, &b, &bl);
    fst_fctx fc = { NULL, 0, NULL, NULL, "t.trace", NULL };
    fst_err err;
    assert_int_equal(fst_format_prof.write(f, &fc, &x.p, NULL, &err), 0);
    fclose(f);
    static const char bounds[] = "?   SUBA: CALLED 16 +-2, self instructions 50 +-26\n";
    for (char *s = a; s; s = s == a ? b : NULL) {
        assert_non_null(strstr(s, FST_UNC_HEADING));
        assert_non_null(strstr(s, bounds));
        size_t marks = 0;
        for (char *m = s; (m = strstr(m, " ?\n")); m++)
            marks++;
        assert_int_equal(marks, 1);     /* SUBA's row only */
        char *row = strstr(s, " ?\n");
        while (row > s && row[-1] != '\n')
            row--;
        assert_non_null(strstr(row, "SUBA"));
        assert_true(strstr(row, "SUBA") < strstr(row, " ?\n"));
    }
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(top_and_limit),
        cmocka_unit_test(routine_globs),
        cmocka_unit_test(marks_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
