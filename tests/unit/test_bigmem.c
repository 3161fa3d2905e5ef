/*
** tests/unit/test_bigmem.c — common/bigmem.h: small blocks from malloc, large ones mapped
** on their own; each as long as asked, aligned, writable to its last byte, freed; zstd's
** contexts made with it pack and unpack a stream whose window is wider than a block of
** FST_BIGMEM_MIN (trace/tracebin_zstd.c).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/bigmem.h"

#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

/* Every size class: written through, read back, aligned as malloc aligns (16) or as a page
** (mapped), freed (a mapped block's header says its mapping: munmap of the wrong length
** would leave it, or take more) */
static void sizes(void **state)
{
    (void)state;
    static const size_t n[] = { 0, 1, 15, 16, 4096, FST_BIGMEM_MIN - 1, FST_BIGMEM_MIN, FST_BIGMEM_MIN + 1,
                                (size_t)64 << 20 };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        uint8_t *p = fst_bigmem_alloc(NULL, n[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % (n[i] >= FST_BIGMEM_MIN ? 4096 : 16), 0);
        if (n[i]) {
            memset(p, 0xA5, n[i]);
            assert_int_equal(p[0], 0xA5);
            assert_int_equal(p[n[i] - 1], 0xA5);
        }
        fst_bigmem_free(NULL, p);
    }
    fst_bigmem_free(NULL, NULL);
}

/* A stream of 8 MiB through zstd's contexts made with the pair, its window 16 MiB (the
** decoder's buffer a mapped block): unpacked as packed */
static void zstd_stream(void **state)
{
    (void)state;
    ZSTD_customMem m = { fst_bigmem_alloc, fst_bigmem_free, NULL };
    ZSTD_CCtx *c = ZSTD_createCCtx_advanced(m);
    ZSTD_DCtx *d = ZSTD_createDCtx_advanced(m);
    assert_non_null(c);
    assert_non_null(d);
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 24)));
    size_t n = (size_t)8 << 20, cap = ZSTD_compressBound(n);
    uint8_t *src = malloc(n), *packed = malloc(cap), *back = malloc(n);
    assert_true(src && packed && back);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {    /* half repeats from far back, half new */
        x = x * 1103515245u + 12345u;
        src[i] = i >= n / 2 && (x >> 16) % 4 ? src[i - n / 2] : (uint8_t)(x >> 24);
    }
    size_t k = ZSTD_compress2(c, packed, cap, src, n);
    assert_false(ZSTD_isError(k));
    ZSTD_inBuffer in = { packed, k, 0 };
    ZSTD_outBuffer out = { back, n, 0 };
    while (in.pos < in.size)
        assert_false(ZSTD_isError(ZSTD_decompressStream(d, &out, &in)));
    assert_int_equal(out.pos, n);
    assert_memory_equal(src, back, n);
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    free(src);
    free(packed);
    free(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(zstd_stream),
    };
    return cmocka_run_group_tests_name("bigmem", tests, NULL, NULL);
}
