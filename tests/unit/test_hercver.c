/* Unit tests of capture/hercules/hercver.c: the version banner of every Hercules output among the
** fixtures (../shared/fixtures): the 3.13 logs and the 4.9 logs say who wrote them, the
** 4.9 runs' stdout (*.out, `-o LOG` sends the log and its banner to LOG) and 3.13's
** hardcopy log (`log FILE` comes after the banner) say nothing; then versions around 4.6,
** where `tf` came. */
#include "capture/hercules/hercver.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/fixture.h"

/* The banner of the first line of the file that has one: 1 and v, or 0. */
static int file_banner(const char *rel, fst_herc_ver *v)
{
    size_t n;
    char *p = fst_test_fixture(rel, &n);
    if (!p)
        fail_msg("cannot read fixture %s", rel);
    int found = 0;
    for (char *line = p; !found && line < p + n;) {
        char *nl = memchr(line, '\n', (size_t)(p + n - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(p + n - line);
        found = fst_herc_banner(line, len, v);
        line += len + 1;
    }
    free(p);
    return found;
}

/* Every file of a fixture folder whose name ends in `suffix` (and holds `infix`). */
static int each(const char *folder, const char *infix, const char *suffix, int want, int major, int minor,
                const char *text)
{
    const char *dir = getenv("FST_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "../shared/fixtures", folder);
    DIR *d = opendir(path);
    if (!d)
        fail_msg("cannot list %s", path);
    int count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name), ls = strlen(suffix);
        if (l < ls || strcmp(e->d_name + l - ls, suffix) || !strstr(e->d_name, infix) ||
            !strcmp(e->d_name, "hardcopy.log"))
            continue;
        char rel[600];
        snprintf(rel, sizeof rel, "%s/%s", folder, e->d_name);
        fst_herc_ver v = { 0 };
        int got = file_banner(rel, &v);
        if (got != want)
            fail_msg("%s: banner %s", rel, got ? "found" : "not found");
        if (want && (v.major != major || v.minor != minor || (text && !strstr(v.text, text))))
            fail_msg("%s: version %d.%d '%s'", rel, v.major, v.minor, v.text);
        count++;
    }
    closedir(d);
    return count;
}

static void test_fixture_logs(void **state)
{
    (void)state;
    assert_int_equal(each("hercules-3.13", "", ".log", 1, 3, 13, "3.13"), 21);
    assert_int_equal(each("hercules-4.9/tf", "h313", ".log", 1, 3, 13, "3.13"), 7);
    int n49 = each("hercules-4.9", "", ".log", 1, 4, 9, "4.9.0");
    n49 += each("hercules-4.9/tf", "hyp49", ".log", 1, 4, 9, "4.9.0");
    assert_int_equal(n49, 19 + 14);
    fst_herc_ver v = { 0 };
    assert_int_equal(file_banner("hercules-4.9/tf/esapc.tf.hyp49.log", &v), 1);
    assert_string_equal(v.text, "4.9.0.11581-SDL-g2d2c4054");
    assert_true(fst_herc_is4(&v) && fst_herc_has_tf(&v));
    assert_int_equal(file_banner("hercules-3.13/bc_noregs.log", &v), 1);
    assert_true(!fst_herc_is4(&v) && !fst_herc_has_tf(&v));
}

/* stdout of the 4.9 runs: with -o the banner went to the log */
static void test_fixture_out(void **state)
{
    (void)state;
    assert_int_equal(each("hercules-4.9", "", ".out", 0, 0, 0, NULL), 21);
    fst_herc_ver v = { 0 };
    assert_int_equal(file_banner("hercules-3.13/hardcopy.log", &v), 0);
}

static void test_lines(void **state)
{
    (void)state;
    fst_herc_ver v = { 0 };
    const char *l = "HHC01413I Hercules version 4.5.0.10830-SDL";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 1);
    assert_true(fst_herc_is4(&v) && !fst_herc_has_tf(&v)); /* 4.5: the text trace only */
    l = "14:06:08 HHC01413I Hercules version 4.6.0.10941-SDL-g65c97fd6";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 1);
    assert_true(fst_herc_has_tf(&v));
    assert_int_equal(v.minor, 6);
    l = "Hercules Version 3.07";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 1);
    assert_true(v.major == 3 && v.minor == 7 && !fst_herc_is4(&v));
    /* not banners: the 4.x build line, the word alone, a version with no number */
    l = "HHC01417I ** The SDL 4.x Hyperion version of Hercules **";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 0);
    l = "Hercules version";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 0);
    l = "Hercules version x.1";
    assert_int_equal(fst_herc_banner(l, strlen(l), &v), 0);
    /* only the n bytes given are read */
    l = "Hercules Version 3.13";
    assert_int_equal(fst_herc_banner(l, 17, &v), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_logs),
        cmocka_unit_test(test_fixture_out),
        cmocka_unit_test(test_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
