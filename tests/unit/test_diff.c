/*
** tests/unit/test_diff.c — analyze/diff/diff and analyze/diff/csvprofile: percentages as integers,
** the csv report reader (numbers, metadata line, damaged files with file:line), the
** thresholds at their exact boundaries, new and vanished routines, the clock and timing
** checks (metadata, and inference from the numbers), the batch manifest.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyze/diff/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[512];

static const char *tmpfile_with(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("FST_TMP");
    snprintf(dir, sizeof dir, "%s/fst-diff-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_pct(void **state)
{
    (void)state;
    uint64_t bp;
    assert_int_equal(fst_diff_parse_pct("5", &bp), 0);
    assert_int_equal(bp, 500);
    assert_int_equal(fst_diff_parse_pct("2.5", &bp), 0);
    assert_int_equal(bp, 250);
    assert_int_equal(fst_diff_parse_pct("0.01", &bp), 0);
    assert_int_equal(bp, 1);
    assert_int_equal(fst_diff_parse_pct("100", &bp), 0);
    assert_int_equal(bp, 10000);
    const char *bad[] = { "", "5.", ".5", "5.123", "-1", "abc", "1e3", "5%" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(fst_diff_parse_pct(bad[i], &bp), -1);
}

/* fortg under mips:1 (tests/programs/EXPECTED), as fst-report --format=csv writes it */
static const char fortg_csv[] = "routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\n"
                                "MAIN,20020,0,51,301,0.000051000,0.000301000\n"
                                "SUBA,20070,16,208,208,0.000208000,0.000208000\n"
                                "SUBB,200B0,3,42,120,0.000042000,0.000120000\n"
                                "(outside),,0,5,5,0.000005000,0.000005000\n"
                                "(excluded),,0,0,0,0.000000000,0.000000000\n"
                                "(total),,0,306,306,0.000306000,0.000306000\n";

static void test_read_csv(void **state)
{
    (void)state;
    fst_dside s;
    fst_err err;
    char text[2048];
    snprintf(text, sizeof text, "# fst-report clock=mips:1 timed=all\n%s", fortg_csv);
    assert_int_equal(fst_dside_read_csv(&s, tmpfile_with("f.csv", text), &err), 0);
    assert_int_equal(s.nr, 3);
    assert_string_equal(s.r[1].name, "SUBA");
    assert_int_equal(s.r[1].calls, 16);
    assert_int_equal(s.r[1].self_ns, 208000);
    assert_int_equal(s.r[2].incl_ns, 120000);
    assert_int_equal(s.total.self_insns, 306);
    assert_int_equal(s.outside.self_ns, 5000);
    assert_string_equal(s.meta.clock, "mips:1");
    assert_int_equal(s.meta.mips_fx, FST_FX_PER_US);
    assert_string_equal(s.meta.timed, "all");
    assert_string_equal(s.meta.cpu, "all");
    fst_dside_free(&s);
    /* without the line: nothing known */
    assert_int_equal(fst_dside_read_csv(&s, tmpfile_with("g.csv", fortg_csv), &err), 0);
    assert_string_equal(s.meta.clock, "");
    assert_string_equal(s.meta.timed, "");
    fst_dside_free(&s);
}

static void expect_bad(const char *text, const char *msg)
{
    fst_dside s;
    fst_err err;
    assert_int_equal(fst_dside_read_csv(&s, tmpfile_with("bad.csv", text), &err), -1);
    if (!strstr(err.msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err.msg);
}

static void test_bad_csv(void **state)
{
    (void)state;
    char t[2048];
    expect_bad("", "empty: no header");
    expect_bad("routine,calls\n", "bad.csv:1: no column 'self_instr'");
    expect_bad("routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\nA,1,1,1,1,0.0000000001,1.0\n"
               "(total),,0,1,1,1.0,1.0\n",
               "bad.csv:2: self_sec/incl_sec are not seconds");
    snprintf(t, sizeof t, "%sSUBA,1,1,1,1,0.1,0.1\n", fortg_csv);
    expect_bad(t, "bad.csv:8: a row after (total)");
    expect_bad("routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\nA,1,1,1,1,1.0,1.0\nA,1,1,1,1,1.0,1.0\n",
               "bad.csv:3: routine A listed twice");
    expect_bad("routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\nA,1,1,1,1,1.0,1.0\n", "no (total) row");
    expect_bad("routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\nA,1,1,2,2,1.0,1.0\n"
               "(total),,0,3,3,1.0,1.0\n",
               "self instructions add up to 2, the (total) row says 3");
    expect_bad("routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\n\"A,1\n", "malformed CSV");
    snprintf(t, sizeof t, "# fst-report clock=mips:zero\n%s", fortg_csv);
    expect_bad(t, "bad.csv:1: metadata clock=mips:zero is no clock");
}

/* a side of one routine A, in ns = instructions * k, total = A + 5 outside */
static fst_drow row(const char *name, uint64_t calls, uint64_t insns, uint64_t k)
{
    fst_drow d = { { 0 } };
    snprintf(d.name, sizeof d.name, "%s", name);
    d.calls = calls;
    d.self_insns = d.incl_insns = insns;
    d.self_ns = d.incl_ns = insns * k;
    return d;
}

static void side(fst_dside *s, const char *path, const fst_drow *rows, size_t n, uint64_t k)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->r = calloc(n + 1, sizeof *s->r);
    memcpy(s->r, rows, n * sizeof *rows);
    s->nr = n;
    s->complete = 1;
    uint64_t sum = 5;
    for (size_t i = 0; i < n; i++)
        sum += rows[i].self_insns;
    s->outside = row("(outside)", 0, 5, k);
    s->excluded = row("(excluded)", 0, 0, k);
    s->total = row("(total)", 0, sum, k);
}

static void test_thresholds(void **state)
{
    (void)state;
    fst_dside b, n;
    fst_drow rb[] = { row("A", 10, 200, 1000), row("B", 4, 1000, 1000) };
    fst_drow rn[] = { row("A", 10, 210, 1000), row("B", 4, 1000, 1000) }; /* A: +5.00% exactly */
    side(&b, "b", rb, 2, 1000);
    side(&n, "n", rn, 2, 1000);
    fst_diff d;
    fst_dthresh t = { 500, 0 };
    fst_diff_compare(&b, &n, &t, &d);
    assert_int_equal(d.nover, 0); /* +5% is within 5% */
    assert_string_equal(d.r[0].base.name, "A"); /* the change first */
    assert_int_equal(d.r[0].kind, FST_D_CHANGED);
    assert_int_equal(d.r[1].kind, FST_D_SAME);
    fst_diff_free(&d);
    t.max_time_bp = 499;
    fst_diff_compare(&b, &n, &t, &d);
    assert_int_equal(d.nover, 1); /* total +10/1205 = 0.83% is within 4.99% */
    assert_true(d.r[0].over);
    assert_string_equal(d.r[0].why, "self time +5.00% > 4.99%");
    assert_false(d.total.over);
    fst_diff_free(&d);
    /* faster is within */
    fst_diff_compare(&n, &b, &t, &d);
    assert_int_equal(d.nover, 0);
    fst_diff_free(&d);
    /* calls: exact by default, either way */
    n.r[1].calls = 3;
    t.max_time_bp = 10000;
    fst_diff_compare(&b, &n, &t, &d);
    assert_int_equal(d.nover, 1);
    assert_string_equal(d.r[0].base.name, "B"); /* outside the thresholds: first, before A's bigger time change */
    assert_string_equal(d.r[0].why, "calls 4 -> 3");
    fst_diff_free(&d);
    t.max_calls_bp = 2500; /* 1/4 = 25% */
    fst_diff_compare(&b, &n, &t, &d);
    assert_int_equal(d.nover, 0);
    fst_diff_free(&d);
    fst_dside_free(&b);
    fst_dside_free(&n);
}

static void test_new_vanished(void **state)
{
    (void)state;
    fst_dside b, n;
    fst_drow rb[] = { row("A", 1, 10, 1), row("B", 1, 20, 1) };
    fst_drow rn[] = { row("A", 1, 10, 1), row("C", 1, 20, 1) };
    side(&b, "b", rb, 2, 1);
    side(&n, "n", rn, 2, 1);
    fst_diff d;
    fst_dthresh t = { 10000, 10000 };
    fst_diff_compare(&b, &n, &t, &d);
    assert_int_equal(d.nr, 3);
    assert_int_equal(d.nover, 2);
    assert_string_equal(d.r[0].base.name, "B");
    assert_int_equal(d.r[0].kind, FST_D_VANISHED);
    assert_string_equal(d.r[1].new_.name, "C");
    assert_int_equal(d.r[1].kind, FST_D_NEW);
    assert_int_equal(d.r[2].kind, FST_D_SAME);
    fst_diff_free(&d);
    fst_dside_free(&b);
    fst_dside_free(&n);
}

static void test_clock_check(void **state)
{
    (void)state;
    fst_dside b, n;
    fst_err err;
    fst_drow r1[] = { row("A", 1, 7, 1000), row("B", 1, 3, 1000) };
    fst_drow r2[] = { row("A", 1, 7, 2000), row("B", 1, 3, 2000) };
    side(&b, "b.csv", r1, 2, 1000);
    side(&n, "n.csv", r2, 2, 2000);
    /* no metadata: both proportional, other rates */
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), -1);
    assert_non_null(strstr(err.msg, "at another rate"));
    /* NEW is a replay under mips:2 (500 ns per instruction): BASE's numbers are mips:1 */
    fst_dload_opts o = { 0 };
    assert_int_equal(fst_dmeta_of(&n.meta, &o, "mips:1", FST_FX_PER_US, &err), 0);
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), 0); /* consistent: 1000 ns per instruction */
    assert_int_equal(fst_dmeta_of(&n.meta, &o, "mips:2", FST_FX_PER_US / 2, &err), 0);
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), -1);
    assert_non_null(strstr(err.msg, "b.csv's times are not those of --clock=mips:2"));
    /* both known */
    assert_int_equal(fst_dmeta_parse(&b.meta, "clock=mips:1.0 timed=fortran", "x", &err), 0);
    assert_int_equal(fst_dmeta_of(&n.meta, &o, "mips:1", FST_FX_PER_US, &err), 0);
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), 0); /* 1.0 = 1 */
    o.timed_all = 1;
    assert_int_equal(fst_dmeta_of(&n.meta, &o, "mips:1", FST_FX_PER_US, &err), 0);
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), -1);
    assert_non_null(strstr(err.msg, "timed=fortran, NEW n.csv has timed=all"));
    /* a model side and a proportional csv */
    assert_int_equal(fst_dmeta_parse(&b.meta, "", "x", &err), 0);
    n.r[0].self_ns = 7777; /* not proportional */
    n.total.self_ns = 7777 + 3 * 2000 + 5 * 2000;
    assert_int_equal(fst_dmeta_of(&n.meta, &o, "model:cost.csv", 0, &err), 0);
    assert_int_equal(fst_diff_check(&b, &n, 0, &err), -1);
    assert_non_null(strstr(err.msg, "proportional"));
    fst_dside_free(&b);
    fst_dside_free(&n);
}

static void test_meta_line(void **state)
{
    (void)state;
    fst_dmeta m, back;
    fst_err err;
    const char *ex[] = { "SUBB", "SUBA", NULL };
    fst_dload_opts o = { .exclude = ex, .cpu_problem = 1 };
    assert_int_equal(fst_dmeta_of(&m, &o, "mips:4.66", 1, &err), 0);
    char line[1024];
    assert_int_equal(fst_dmeta_format(&m, line, sizeof line), 0);
    assert_string_equal(line, "clock=mips:4.66 timed=fortran exclude=SUBA+SUBB cpu=problem");
    assert_int_equal(fst_dmeta_parse(&back, line, "x", &err), 0);
    assert_string_equal(back.clock, m.clock);
    assert_string_equal(back.timed, m.timed);
    assert_string_equal(back.exclude, m.exclude);
    assert_string_equal(back.cpu, m.cpu);
    assert_int_equal(fst_dmeta_format(&m, line, 20), -1);
}

static void test_manifest(void **state)
{
    (void)state;
    fst_mrun *runs;
    size_t n;
    fst_err err;
    const char *p = tmpfile_with("m.csv", "# CI runs\n"
                                          "name,program,trace,baseline,options,max_time_change\n"
                                          "a,p.ins,,b.csv,--clock=mips:1,2.5\n"
                                          "b,,/abs/t.trace,base.csv,,\n");
    assert_int_equal(fst_manifest_read(p, &runs, &n, &err), 0);
    assert_int_equal(n, 2);
    char want[1024];
    snprintf(want, sizeof want, "%s/p.ins", dir);
    assert_string_equal(runs[0].program, want);
    assert_null(runs[0].trace);
    assert_int_equal(runs[0].line, 3);
    assert_true(runs[0].has_time);
    assert_int_equal(runs[0].time_bp, 250);
    assert_string_equal(runs[0].options, "--clock=mips:1");
    assert_string_equal(runs[1].trace, "/abs/t.trace");
    assert_false(runs[1].has_time);
    fst_manifest_free(runs, n);
    p = tmpfile_with("m2.csv", "name,program,trace,baseline\nx,p.ins,t.trace,b.csv\n");
    assert_int_equal(fst_manifest_read(p, &runs, &n, &err), -1);
    assert_non_null(strstr(err.msg, "m2.csv:2: run x: give a program or a trace, not both"));
    p = tmpfile_with("m3.csv", "name,trace,baseline,max_time_change\nx,t,b,lots\n");
    assert_int_equal(fst_manifest_read(p, &runs, &n, &err), -1);
    assert_non_null(strstr(err.msg, "m3.csv:2: max_time_change 'lots' is not a percentage"));
    p = tmpfile_with("m4.csv", "name,trace,baseline\n");
    assert_int_equal(fst_manifest_read(p, &runs, &n, &err), -1);
    assert_non_null(strstr(err.msg, "m4.csv: no runs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pct),
        cmocka_unit_test(test_read_csv),
        cmocka_unit_test(test_bad_csv),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_new_vanished),
        cmocka_unit_test(test_clock_check),
        cmocka_unit_test(test_meta_line),
        cmocka_unit_test(test_manifest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
