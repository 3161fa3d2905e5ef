/*
** tests/unit/test_hex.c — common/hex.h: the word-at-a-time hex reader against the plain
** one, every byte value in every position (a bad byte must never pass for a digit).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/hex.h"

#include <stdlib.h>

/* The plain reading: 1 and the value when the n characters are all hex digits. */
static int plain(const unsigned char *s, int n, uint32_t *v)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++) {
        int c = s[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else
            return 0;
        r = r << 4 | (uint32_t)d;
    }
    *v = r;
    return 1;
}

static void test_every_byte(void **state)
{
    (void)state;
    static const char digits[] = "0123456789ABCDEFabcdef";
    unsigned char b[8];
    srand(14);
    for (int rep = 0; rep < 50; rep++)
        for (int pos = 0; pos < 8; pos++)
            for (int c = 0; c < 256; c++) {
                for (int i = 0; i < 8; i++)
                    b[i] = (unsigned char)digits[rand() % 22];
                b[pos] = (unsigned char)c;
                uint32_t want = 0, got8 = 0, got4 = 0;
                int ok = plain(b, 8, &want);
                assert_int_equal(fst_hex8((const char *)b, &got8), ok);
                if (ok)
                    assert_int_equal(got8, want);
                ok = plain(b, 4, &want);
                assert_int_equal(fst_hex4((const char *)b, &got4), ok);
                if (ok)
                    assert_int_equal(got4, want);
            }
}

static void test_bytes(void **state)
{
    (void)state;
    uint8_t out[4] = { 0 };
    assert_int_equal(fst_hex8_bytes("0008000a", out), 1);
    assert_memory_equal(out, ((uint8_t[]){ 0x00, 0x08, 0x00, 0x0A }), 4);
    assert_int_equal(fst_hex8_bytes("90ECD00C", out), 1);
    assert_memory_equal(out, ((uint8_t[]){ 0x90, 0xEC, 0xD0, 0x0C }), 4);
    assert_int_equal(fst_hex4_bytes("18CF", out), 1);
    assert_memory_equal(out, ((uint8_t[]){ 0x18, 0xCF }), 2);
    memset(out, 0x55, 4);
    assert_int_equal(fst_hex8_bytes("0002002G", out), 0);  /* nothing stored */
    assert_int_equal(fst_hex4_bytes("18 F", out), 0);
    assert_memory_equal(out, ((uint8_t[]){ 0x55, 0x55, 0x55, 0x55 }), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_byte),
        cmocka_unit_test(test_bytes),
    };
    return cmocka_run_group_tests_name("hex", tests, NULL, NULL);
}
