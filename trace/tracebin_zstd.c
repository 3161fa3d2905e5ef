/* trace/tracebin_zstd.c — the zstd side of trace.bin versions 2 and 3 (tracebin.h). An IMAG
** frame, and a version 2 EVNT frame, is one zstd frame of its own (fst_tbz_new): it decodes
** without the ones before it. Version 3's EVNT frames are the pieces of one zstd stream
** (fst_tbz_new_stream), each ended by a flush, so that it decodes once the ones before it
** have, and a repeat as far back as the window (FST_TB_ZSTD_WLOG) costs a few bytes. The
** contexts are made once per writer or reader and reused for every frame (making one costs
** more than packing a small frame).
**
** Why a stream (issue 33). A loop whose turns take more op bytes than a frame holds (a
** routine called again and again with the same data, a period of branches longer than the
** module's copies) repeated in every frame what the frames before it held, and 256 KiB
** frames packed on their own could not say so: tests/loops/gen.py seed 35332 (699 M
** instructions, a routine's LCG restarted at each call) took 15.9 MB (0.023 byte an
** instruction); one stream with a 64 MiB window, 0.43 MB; seed 222 2.37 MB -> 0.50 MB (only
** long-distance matching finds it: 2.35 MB without). Where nothing repeats it changes
** little: cgen seed 61234 6.02 -> 5.68 MB, gen.py 4242 1.43 -> 1.42 MB (module captures,
** the same reports; docs/internals.md has the rest).
** The stream's first zstd frame, for its first FST_TB_ZSTD_FIRST (2 MiB) of op bytes, has
** a window as long, without long-distance matching; then one frame of the wide window.
** A zstd context holds its window's buffer and clears its tables (long-distance
** matching's: 4 MiB) when a frame begins: with the wide window from the start, every
** capture and replay of a short trace took 64 MiB more of address space and a few ms
** (`make check`, thousands of them under AddressSanitizer: 13 -> 14 min). Splitting costs
** a repeat across the 2 MiB mark (seed 35332: +0.18 MB).
** The parameters are level 5's for a 256 KiB input (ZSTD_getCParams(5, 262144, 0) of libzstd
** 1.5.4: those chose the frames' packing so far; level 5's for a large input packed cgen's
** stream 12 % larger), with the window and long-distance matching set. Long-distance
** matching's own shortest match (64 bytes) took recursion -O2's stream (18 MB of ops, a
** short period) from 2.3 KB without it to 84 KB (17 KB in version 2): its matches, far
** back, came before the near repeats that cost nothing. From 1 KiB (FST_TB_ZSTD_LDM_MIN) it
** finds only what nothing nearer does (the op streams packed by hand as one zstd frame):
** recursion 4.0 KB, gen.py 222 0.29 MB (2.35 MB without it), 35332 0.23 MB, 11 0.42 MB
** (0.44 without), cgen the same.
**
** The level (FST_TB_ZSTD_LEVEL, 5): first chosen (7) with `zstd -b1 -e19` on version 1 traces
** of a branchy program (callheavy -O0, 40 732 instructions, 12 463 bytes) and of bigloop
** (1.1 M instructions, 801 494 bytes, 256 KiB blocks). Branchy: level 1 1391 bytes, 3 1343,
** 7 1217, 9 1217, 19 1140; bigloop: 1097 (1) to 1073 (7), flat. Then measured on module
** captures where nothing repeats (issue 33: tests/shapes/branchy.c -O2, 200 M instructions,
** where fst-capture must keep up with Hercules and zstd was a third of its time): level 3
** 6.89 MB and 1.11 s of fst-capture's CPU, 5 4.95 MB and 1.30 s, 7 5.28 MB and 1.43-1.57 s;
** fortgen.py's trace 64 861 bytes at 5, 64 468 at 7; recursion 32 KB at 5, 122 KB at 7.
** 5 is smaller and cheaper than 7 where it matters, the same elsewhere.
**
** Packed fast (fst_tbz_fast, fst_tw_pack_fast: a module capture on a host with too few cores
** for Hercules, fst-capture's rebuild and the packer at once; capture/modread/modpack.h).
** There every cycle the packer takes is one Hercules waits for: the capture's wall time
** follows the CPU the two processes take together (issue 33, 2026-12-07, 2 cores, SDL
** 4.9 and 3.13 alternating, 4-5 runs each). zstd's dfast strategy with level 5's tables, on
** the op streams of module captures: tests/loops/gen.py seed 15230 (115 M instructions,
** branches on an LCG's bits) 2.86 -> 3.51 MB and fst-capture's CPU 0.70 -> 0.55 s, the
** capture 1.29-1.46x -> 1.21-1.29x untraced (4.9: 1.32-1.39x -> 1.14-1.23x); cgen seed
** 26598 4.21 -> 5.08 MB, 0.80 -> 0.60 s, under 4.9 1.40-1.44x -> 1.30-1.33x (3.13: the
** same, the module's own cost binds there); branchy -O2 3.68 -> 4.60 MB, 1.23-1.33x ->
** 1.21-1.24x; recursion -O2 6.8 -> 37.9 KB (0.0004 byte an instruction), its capture the
** same. Greedy with a shorter search (searchLog 3) took 0.62 s and 3.06 MB on 15230: half
** the gain. */
#include "trace/tracebin_int.h"

#include "common/bigmem.h"

#include <pthread.h>
#include <stdlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_customMem and the contexts made with it */
#include <zstd.h>

/* zstd's contexts take their memory from common/bigmem.h: a stream's window (64 MiB) and
** long-distance matching's tables in huge pages where the host allows them, the rest from
** malloc. A stream's decoder writes its window once through as it unpacks, and each 4 KiB
** page of it was a page fault: replays of 0.03-0.3 s took 2-13 % less time without them
** (tests/loops/gen.py seed 37021: 9 175 minor faults -> 1 702, 0.117 -> 0.109 s; fortbig.py
** seed 29990 with its map 0.137 -> 0.119 s; recursion -O2 0.028 -> 0.025 s). The contexts
** made with a ZSTD_customMem are zstd's "experimental" API (ZSTD_STATIC_LINKING_ONLY),
** in libzstd's shared library since 1.0 and the same since; fst is built against the
** libzstd it runs with (Debian's). */
static const ZSTD_customMem bigmem = { fst_bigmem_alloc, fst_bigmem_free, NULL };

struct fst_tbz {
    ZSTD_CCtx *c;
    ZSTD_DCtx *d;
    int stream;     /* version 3's EVNT stream: pieces ended by flushes (fst_tbz_new_stream) */
    uint64_t fed;   /* op bytes packed so far (the first zstd frame ends past FST_TB_ZSTD_FIRST) */
};

fst_tbz *fst_tbz_new(int level)
{
    fst_tbz *z = fst_xcalloc(1, sizeof *z);
    if (level) {
        z->c = ZSTD_createCCtx_advanced(bigmem);
        if (!z->c)
            fst_die("out of memory (zstd)");
        ZSTD_CCtx_setParameter(z->c, ZSTD_c_compressionLevel, level);
        /* zstd's own checksum of the unpacked bytes (4 bytes a frame): the frame's CRC-32
        ** covers what is stored, this what it unpacks to, so a writer's bug or damage made
        ** to look whole is still an error, not a different trace */
        ZSTD_CCtx_setParameter(z->c, ZSTD_c_checksumFlag, 1);
    } else {
        z->d = ZSTD_createDCtx_advanced(bigmem);
        if (!z->d)
            fst_die("out of memory (zstd)");
    }
    return z;
}

/* A stream's next zstd frame: its window and whether long-distance matching looks back. */
static void stream_window(fst_tbz *z, int wlog, int ldm)
{
    if (ZSTD_isError(ZSTD_CCtx_setParameter(z->c, ZSTD_c_windowLog, wlog)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(z->c, ZSTD_c_enableLongDistanceMatching, ldm)) ||
        (ldm && ZSTD_isError(ZSTD_CCtx_setParameter(z->c, ZSTD_c_ldmMinMatch, FST_TB_ZSTD_LDM_MIN))))
        fst_die("zstd: a parameter was refused");
}

/* A stream's decoder kept for the next reader (fst_tbz_free): its window's buffer is 64 MiB
** (FST_TB_ZSTD_WLOG), and a new one is new pages, each a page fault the first time it is
** written. fst-report reads a trace twice where it places a map from the trace (model/
** space_ev.c) or finds a --window's place: the second reader takes the first one's decoder,
** its buffer in place (issue 33, tests/loops/fortbig.py seed 29990, 250 M instructions, its
** report with a map: 36 K page faults -> 19.5 K, system time 0.06-0.07 -> 0.04-0.05 s; wall
** time the same on two cores, where the faults were the reader's thread's, tracebin_ahead.c:
** CPU that one core less, or a busy host, waits for). The second reader is opened before the
** first is closed (fst-report opens its trace, then reads the map's evidence), so a stream's
** decoder is made or taken at its first piece (stream_decoder), not with its fst_tbz. One
** kept, taken and given under a lock (a reader's thread frees it: tracebin_ahead.c). */
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static ZSTD_DCtx *spare;

static ZSTD_DCtx *stream_decoder(fst_tbz *z)
{
    if (z->d)
        return z->d;
    pthread_mutex_lock(&spare_mu);
    z->d = spare;   /* its parameters kept (fst_tbz_free resets its session only) */
    spare = NULL;
    pthread_mutex_unlock(&spare_mu);
    if (z->d)
        return z->d;
    if (!(z->d = ZSTD_createDCtx_advanced(bigmem)))
        fst_die("out of memory (zstd)");
    if (ZSTD_isError(ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax, FST_TB_ZSTD_WLOG)))
        fst_die("zstd: a parameter was refused");   /* a damaged header asks no more memory */
    return z->d;
}

fst_tbz *fst_tbz_new_stream(int level)
{
    fst_tbz *z = level ? fst_tbz_new(level) : fst_xcalloc(1, sizeof *z);  /* z->d: stream_decoder */
    z->stream = 1;
    if (z->c) {
        /* level 5's parameters for a 256 KiB input (the head); no checksum of zstd's: it is
        ** read only where a zstd frame ends, which a piece seldom does (a version 3 EVNT
        ** frame holds the CRC-32 of what it unpacks to instead: tracebin.h) */
        static const struct { ZSTD_cParameter p; int v; } set[] = {
            { ZSTD_c_checksumFlag, 0 },       { ZSTD_c_chainLog, 17 },
            { ZSTD_c_hashLog, 18 },           { ZSTD_c_searchLog, 5 },
            { ZSTD_c_minMatch, 5 },           { ZSTD_c_targetLength, 2 },
            { ZSTD_c_strategy, ZSTD_greedy },
        };
        for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
            if (ZSTD_isError(ZSTD_CCtx_setParameter(z->c, set[i].p, set[i].v)))
                fst_die("zstd: a parameter was refused");
        stream_window(z, FST_TB_ZSTD_WLOG_FIRST, 0);
    }
    return z;
}

void fst_tbz_fast(fst_tbz *z)
{
    /* dfast: a table of 8-byte matches (hashLog) and one of minMatch-byte ones (chainLog),
    ** one probe each; level 5's table sizes (the head) */
    static const struct { ZSTD_cParameter p; int v; } set[] = {
        { ZSTD_c_strategy, ZSTD_dfast }, { ZSTD_c_chainLog, 17 }, { ZSTD_c_hashLog, 18 }, { ZSTD_c_searchLog, 1 },
    };
    for (size_t i = 0; z->c && i < sizeof set / sizeof set[0]; i++)
        if (ZSTD_isError(ZSTD_CCtx_setParameter(z->c, set[i].p, set[i].v)))
            fst_die("zstd: a parameter was refused");
}

size_t fst_tbz_head(const fst_tbz *z) { return z->stream ? 8 : 4; }

void fst_tbz_free(fst_tbz *z)
{
    if (!z)
        return;
    if (z->d && z->stream && !ZSTD_isError(ZSTD_DCtx_reset(z->d, ZSTD_reset_session_only))) {
        pthread_mutex_lock(&spare_mu);
        if (!spare) {   /* kept: the next stream's reader takes it */
            spare = z->d;
            z->d = NULL;
        }
        pthread_mutex_unlock(&spare_mu);
    }
    ZSTD_freeCCtx(z->c);
    ZSTD_freeDCtx(z->d);
    free(z);
}

size_t fst_tbz_bound(size_t n) { return ZSTD_compressBound(n); }

size_t fst_tbz_pack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    if (!z->stream) {
        size_t k = ZSTD_compress2(z->c, dst, cap, src, n);
        return ZSTD_isError(k) ? 0 : k;
    }
    ZSTD_inBuffer in = { src, n, 0 };
    ZSTD_outBuffer out = { dst, cap, 0 };
    int first_ends = z->fed < FST_TB_ZSTD_FIRST && z->fed + n >= FST_TB_ZSTD_FIRST;
    z->fed += n;
    ZSTD_EndDirective how = first_ends ? ZSTD_e_end : ZSTD_e_flush;
    size_t left;
    do {    /* 0: all of src taken and flushed (cap is ZSTD_compressBound's: room enough) */
        left = ZSTD_compressStream2(z->c, &out, &in, how);
        if (ZSTD_isError(left) || (left && out.pos == cap))
            return 0;
    } while (left);
    if (first_ends)     /* the first zstd frame ended with this piece: the rest wide */
        stream_window(z, FST_TB_ZSTD_WLOG, 1);
    return out.pos;
}

/* The next piece of the stream, src, unpacked at dst: exactly rawlen bytes, all of src
** taken, nothing more held back. */
static int unpack_piece(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t rawlen)
{
    ZSTD_DCtx *d = stream_decoder(z);
    ZSTD_inBuffer in = { src, n, 0 };
    ZSTD_outBuffer out = { dst, rawlen, 0 };
    while (in.pos < in.size || out.pos < out.size) {
        size_t was_in = in.pos, was_out = out.pos;
        if (ZSTD_isError(ZSTD_decompressStream(d, &out, &in)) || (in.pos == was_in && out.pos == was_out))
            return -1;
    }
    /* nothing more held back. (Bytes after the piece's end would be taken as the start of
    ** the next: the next piece then does not unpack. After the last piece nothing reads them,
    ** and what was read is what was written: the CRC-32 of each piece's bytes says so. The
    ** decoder's hints of the next input's size would tell, but they are hints, whose values
    ** another libzstd may count otherwise.) */
    uint8_t more;
    ZSTD_outBuffer extra = { &more, 1, 0 };
    return ZSTD_isError(ZSTD_decompressStream(d, &extra, &in)) || extra.pos ? -1 : 0;
}

int fst_tbz_unpack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t rawlen)
{
    if (z->stream)
        return unpack_piece(z, src, n, dst, rawlen);
    /* exactly one zstd frame that holds exactly rawlen bytes: anything else is damage */
    if (ZSTD_findFrameCompressedSize(src, n) != n)
        return -1;
    unsigned long long want = ZSTD_getFrameContentSize(src, n);
    if (want != rawlen)
        return -1;
    size_t k = ZSTD_decompressDCtx(z->d, dst, rawlen, src, n);
    return ZSTD_isError(k) || k != rawlen ? -1 : 0;
}
