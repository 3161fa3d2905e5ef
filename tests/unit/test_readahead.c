/*
** tests/unit/test_readahead.c — common/readahead.h: the chunks are the file's bytes in
** order, whatever the file's size against the chunks and the ring; closing early stops
** the thread; a read error comes after the bytes read before it, naming the offset.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/readahead.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tmp(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/fst-test-readahead.%d", (int)getpid());
    return path;
}

/* A file of n bytes, byte i = (i * 7 + i / 4093) & 0xFF: no chunk looks like another. */
static int make_file(size_t n)
{
    FILE *f = fopen(tmp(), "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc((int)((i * 7 + i / 4093) & 0xFF), f);
    assert_int_equal(fclose(f), 0);
    int fd = open(tmp(), O_RDONLY);
    assert_true(fd >= 0);
    return fd;
}

static void test_sizes(void **state)
{
    (void)state;
    const size_t sizes[] = { 0, 1, FST_RA_CHUNK - 1, FST_RA_CHUNK, FST_RA_CHUNK + 1,
                             FST_RA_BUFS * FST_RA_CHUNK, (FST_RA_BUFS * 2 + 1) * FST_RA_CHUNK + 12345 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int fd = make_file(sizes[k]);
        fst_ra *ra = fst_ra_open(fd, "t.log");
        fst_err err;
        const char *data;
        ssize_t n;
        size_t at = 0;
        while ((n = fst_ra_next(ra, &data, &err)) > 0) {
            assert_true((size_t)n <= FST_RA_CHUNK);
            for (ssize_t i = 0; i < n; i++, at++)
                if ((unsigned char)data[i] != ((at * 7 + at / 4093) & 0xFF))
                    fail_msg("size %zu: byte %zu differs", sizes[k], at);
        }
        assert_int_equal(n, 0);
        assert_int_equal(at, sizes[k]);
        assert_int_equal(fst_ra_next(ra, &data, &err), 0); /* the end stays the end */
        fst_ra_close(ra);
        close(fd);
        unlink(tmp());
    }
}

static void test_close_early(void **state)
{
    (void)state;
    int fd = make_file((FST_RA_BUFS * 3) * FST_RA_CHUNK);
    for (int take = 0; take < 3; take++) { /* before any chunk, and with the ring full */
        lseek(fd, 0, SEEK_SET);
        fst_ra *ra = fst_ra_open(fd, "t.log");
        const char *data;
        for (int i = 0; i < take; i++)
            assert_int_equal(fst_ra_next(ra, &data, NULL), FST_RA_CHUNK);
        if (take == 2)
            usleep(50 * 1000); /* the thread fills the ring and waits */
        fst_ra_close(ra);
    }
    close(fd);
    unlink(tmp());
}

static void test_read_error(void **state)
{
    (void)state;
    int fd = open("/", O_RDONLY); /* read() on a folder fails: EISDIR */
    assert_true(fd >= 0);
    fst_ra *ra = fst_ra_open(fd, "the-folder");
    fst_err err;
    const char *data;
    assert_int_equal(fst_ra_next(ra, &data, &err), -1);
    assert_non_null(strstr(err.msg, "the-folder: byte 0: cannot read: "));
    fst_ra_close(ra);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_close_early),
        cmocka_unit_test(test_read_error),
    };
    return cmocka_run_group_tests_name("readahead", tests, NULL, NULL);
}
