/* trace/tracebin_zstd.c — the zstd side of trace.bin version 2 (tracebin.h): one zstd
** frame per trace.bin frame, so that every frame decodes without the ones before it and a
** damaged or missing frame costs only itself. The contexts are made once per writer or
** reader and reused for every frame (making one costs more than packing a small frame).
**
** The level (FST_TB_ZSTD_LEVEL, 5): first chosen (7) with `zstd -b1 -e19` on version 1 traces
** of a branchy program (callheavy -O0, 40 732 instructions, 12 463 bytes) and of bigloop
** (1.1 M instructions, 801 494 bytes, 256 KiB blocks). Branchy: level 1 1391 bytes, 3 1343,
** 7 1217, 9 1217, 19 1140; bigloop: 1097 (1) to 1073 (7), flat. Then measured on module
** captures where nothing repeats (issue 33: tests/shapes/branchy.c -O2, 200 M instructions,
** where fst-capture must keep up with Hercules and zstd was a third of its time): level 3
** 6.89 MB and 1.11 s of fst-capture's CPU, 5 4.95 MB and 1.30 s, 7 5.28 MB and 1.43-1.57 s;
** fortgen.py's trace 64 861 bytes at 5, 64 468 at 7; recursion 32 KB at 5, 122 KB at 7.
** 5 is smaller and cheaper than 7 where it matters, the same elsewhere. */
#include "trace/tracebin_int.h"

#include <stdlib.h>
#include <zstd.h>

struct fst_tbz {
    ZSTD_CCtx *c;
    ZSTD_DCtx *d;
};

fst_tbz *fst_tbz_new(int level)
{
    fst_tbz *z = fst_xcalloc(1, sizeof *z);
    if (level) {
        z->c = ZSTD_createCCtx();
        if (!z->c)
            fst_die("out of memory (zstd)");
        ZSTD_CCtx_setParameter(z->c, ZSTD_c_compressionLevel, level);
        /* zstd's own checksum of the unpacked bytes (4 bytes a frame): the frame's CRC-32
        ** covers what is stored, this what it unpacks to, so a writer's bug or damage made
        ** to look whole is still an error, not a different trace */
        ZSTD_CCtx_setParameter(z->c, ZSTD_c_checksumFlag, 1);
    } else {
        z->d = ZSTD_createDCtx();
        if (!z->d)
            fst_die("out of memory (zstd)");
    }
    return z;
}

void fst_tbz_free(fst_tbz *z)
{
    if (!z)
        return;
    ZSTD_freeCCtx(z->c);
    ZSTD_freeDCtx(z->d);
    free(z);
}

size_t fst_tbz_bound(size_t n) { return ZSTD_compressBound(n); }

size_t fst_tbz_pack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    size_t k = ZSTD_compress2(z->c, dst, cap, src, n);
    return ZSTD_isError(k) ? 0 : k;
}

int fst_tbz_unpack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t rawlen)
{
    /* exactly one zstd frame that holds exactly rawlen bytes: anything else is damage */
    if (ZSTD_findFrameCompressedSize(src, n) != n)
        return -1;
    unsigned long long want = ZSTD_getFrameContentSize(src, n);
    if (want != rawlen)
        return -1;
    size_t k = ZSTD_decompressDCtx(z->d, dst, rawlen, src, n);
    return ZSTD_isError(k) || k != rawlen ? -1 : 0;
}
