/*
** trace/tracebin_int.h — what the trace.bin writer (tracebin_write.c) and reader
** (tracebin_read.c) share, and nothing else includes: the op codes of the event stream,
** the frame limits, the instruction-bytes cache and the list of recent jump targets.
** Both sides must keep them in the same state, op for op: that is what lets a trace
** leave sequential execution and repeated instruction bytes out.
*/
#ifndef FST_TRACEBIN_INT_H
#define FST_TRACEBIN_INT_H

#include "trace/tracebin.h"

#include <libdeflate.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* The CRC-32 of zlib's crc32() (gzip's: the frames' and, in version 3, each piece's), by
** libdeflate, whose folds with the carry-less multiply take it at tens of GB/s where zlib's
** tables take 2-4: a tight loop's op bytes (161 M of them for gen.py 15480's 161 M
** instructions) are checked at that rate on the reader's thread, as they are written on
** fst-capture's. crc 0 begins one; the result goes on with the next bytes. */
static inline uint32_t fst_tb_crc32(uint32_t crc, const void *p, size_t n)
{
    return libdeflate_crc32(crc, p, n);
}

enum {
    FST_OP_SEQ = 0x00, FST_OP_JMP = 0x40, FST_OP_JMPA = 0x50, FST_OP_INS = 0x51, FST_OP_STATE = 0x52,
    FST_OP_CPU = 0x53, FST_OP_PGMCHK = 0x54, FST_OP_INTR = 0x55, FST_OP_WAIT = 0x56, FST_OP_GAP = 0x57,
    FST_OP_TIME = 0x58, FST_OP_LPSW = 0x59, FST_OP_CR = 0x5A, FST_OP_SAMPLE = 0x5B,
    FST_OP_REGS = 0x5C, FST_OP_OPND = 0x5D, FST_OP_OLDPSW = 0x5E, FST_OP_BASES = 0x5F,
    FST_OP_TAKEN = 0x80,    /* 0x80-0xBF: TAKEN n */
};
#define FST_TB_MRU FST_TR_MRU   /* tracebin.h: 16 */
#define FST_TB_SEQ_MAX 64
#define FST_TB_FRAME_PAYLOAD (64 * 1024)
#define FST_TB_OP_MAX 184           /* longest op: REGS, 16 registers of 10-byte varints (163) */
#define FST_TB_MAX_FRAME (16u << 20)
/* Version 2: an EVNT frame holds up to this many op-stream bytes before packing (bigger
** frames pack better; memory stays one frame), and an IMAG frame up to 1 MiB of storage. */
#define FST_TB_V2_PAYLOAD (256 * 1024)
#define FST_TB_IMAG_MAX (1u << 20)
#define FST_TB_ZSTD_LEVEL 5         /* chosen by measurement: see tracebin_zstd.c */
#define FST_TB_ZSTD_WLOG 26         /* version 3's EVNT stream: a 64 MiB window, the most a
                                       writer or reader holds of it (tracebin_zstd.c) */
#define FST_TB_ZSTD_WLOG_FIRST 21   /* its first zstd frame's: 2 MiB, for */
#define FST_TB_ZSTD_FIRST (2u << 20) /* its first op bytes, as many */
#define FST_TB_ZSTD_LDM_MIN 1024    /* long-distance matching's shortest match, in the rest */

/* zstd contexts (tracebin_zstd.c), made once per writer (level > 0: packs) or reader
** (level 0: unpacks) and reused for every frame: one frame each (fst_tbz_new), or the
** pieces of one stream in order (fst_tbz_new_stream: version 3's EVNT frames). */
typedef struct fst_tbz fst_tbz;
fst_tbz *fst_tbz_new(int level);
fst_tbz *fst_tbz_new_stream(int level);
/* A packing context's frames packed with zstd's dfast strategy from here on, not level 5's
** greedy one: a fifth to a quarter of the packer's CPU for a fifth more bytes (see
** tracebin_zstd.c). Before its first frame. */
void fst_tbz_fast(fst_tbz *z);
/* The bytes a packed IMAG or EVNT frame holds between its own u64 and the packed bytes:
** u32 n, and for a piece of version 3's stream (fst_tbz_new_stream) the n bytes' CRC-32. */
size_t fst_tbz_head(const fst_tbz *z);
/* Frees z; a stream's decoder is kept for the next reader's stream instead, one at most
** (tracebin_zstd.c: its 64 MiB window's pages, faulted in already). Thread-safe. */
void fst_tbz_free(fst_tbz *z);
size_t fst_tbz_bound(size_t n);
/* One zstd frame of src at dst (a stream's: the next piece, flushed); its length, 0 on
** failure. cap: fst_tbz_bound(n) at least. */
size_t fst_tbz_pack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t cap);
/* 0 when src is exactly one zstd frame of exactly rawlen bytes (a stream's: the next piece,
** all of it taken, which unpacks to exactly rawlen bytes after the pieces before it),
** unpacked at dst; -1 otherwise (a stream is then of no more use: the pieces after a
** damaged one cannot be read). */
int fst_tbz_unpack(fst_tbz *z, const uint8_t *src, size_t n, uint8_t *dst, size_t rawlen);

/* A trace file read frame by frame (tracebin_read.c, tracebin_ahead.c): the file, where its
** next frame starts, where the last frame's payload starts, and why it ended early. */
typedef struct fst_tbf {
    FILE *f;
    const char *path;       /* for messages; not owned */
    uint64_t off, frame_off;
    char why[320];
} fst_tbf;

/* The next frame of t, its CRC checked: 1 with its tag, payload (the caller's to free; 4
** bytes more than len are allocated) and length; 0 at a clean end of the file or where it is
** cut short (t->why says where); -1 damaged (err). */
int fst_tb_read_frame(fst_tbf *t, char tag[4], uint8_t **payload, size_t *len, fst_err *err);

/* A version 2 or 3 EVNT payload (p, len) as the reader holds it, at frame: its first 8
** bytes, then its op stream unpacked by z (the reader's EVNT context: a stream's for version
** 3, given the frames in order) (*flen bytes in all). -1 when it is shorter than its head (12
** bytes; 16 in version 3), says more ops than a frame holds or does not unpack to as many
** (version 3: or to bytes of another CRC-32). frame: 8 + FST_TB_V2_PAYLOAD + FST_TB_OP_MAX
** bytes. */
int fst_tb_unpack_evnt(fst_tbz *z, const uint8_t *p, size_t len, uint8_t *frame, size_t *flen);

/* Frames read ahead (tracebin_ahead.c): a thread of its own reads a version 2 or 3 trace's
** frames after its image, a few ahead of the reader, and unpacks the EVNT ones with z (the
** reader's EVNT context, lent: version 3's stream goes on where the reader left it), so
** that a replay on one core does not wait for the file and zstd (some 6 % of a replay). It
** owns t's FILE and z from fst_tba_start to the last frame it hands out (a FOOT, the end or an error: then it
** has stopped reading) or to fst_tba_stop. NULL when no thread could be made, the file is
** not a regular one (a pipe's read may block for good, and fst_tba_stop waits for it) or
** FST_TRACE_AHEAD=0: the caller reads as before. */
typedef struct fst_tba fst_tba;
fst_tba *fst_tba_start(const fst_tbf *t, fst_tbz *z);
/* The next frame as fst_tb_read_frame would give it, t's off, frame_off and why updated;
** for an EVNT frame, *frame: fst_tb_unpack_evnt's (*flen bytes, then room for 2 more), NULL
** when that failed (the caller says so) or the frame is another. *frame stays valid until
** the next call; the payload is the caller's. */
int fst_tba_next(fst_tba *a, fst_tbf *t, char tag[4], uint8_t **payload, size_t *len, uint8_t **frame, size_t *flen,
                 fst_err *err);
/* Stops the thread (waits for the frame it reads) and frees what it holds. NULL: nothing. */
void fst_tba_stop(fst_tba *a);

/* Frames written behind the writer (tracebin_behind.c): a thread of its own packs and
** writes each full EVNT frame of a version 2 trace with `out` (the writer's: what it would
** call itself, byte for byte the same file), while the writer fills the next one. NULL when
** no thread could be made or FST_TRACE_BEHIND=0: the writer writes its frames itself.
** `bytes`: a frame buffer's size (the thread's spare one). */
typedef struct fst_tbw fst_tbw;
typedef int fst_tbw_out(void *ctx, uint8_t *frame, size_t len, fst_err *err);
fst_tbw *fst_tbw_start(fst_tbw_out *out, void *ctx, size_t bytes);
/* Hands the frame *buf (len bytes) over, once the one before is out, and gives the caller
** the spare buffer in its place. -1 with the message of a frame that failed before (then
** nothing is handed over, and nothing more will be written). */
int fst_tbw_put(fst_tbw *b, uint8_t **buf, size_t len, fst_err *err);
/* Waits until the frame handed over is out (the caller may write the file then); -1 as
** above. err may be NULL. */
int fst_tbw_wait(fst_tbw *b, fst_err *err);
/* Waits for the frame on its way, stops the thread and frees it. NULL: nothing. */
void fst_tbw_stop(fst_tbw *b);

typedef struct fst_icache_ent {
    uint64_t addr;
    uint8_t len;            /* 0 = empty slot */
    uint8_t bytes[6];       /* bytes past len are 0 */
} fst_icache_ent;

typedef struct fst_icache {
    fst_icache_ent *t;
    size_t cap, n;
} fst_icache;

void fst_icache_init(fst_icache *c);   /* the first table */

/* The slot of addr: its entry, or the empty slot where it would go. Inline: the reader
** looks up every instruction of a SEQ run here (a call was a twentieth of the replay). */
static inline fst_icache_ent *fst_icache_slot(fst_icache *c, uint64_t addr)
{
    if (!c->t)
        fst_icache_init(c);
    size_t i = (size_t)(((addr >> 1) * 0x9E3779B97F4A7C15ull) >> 20) & (c->cap - 1);
    while (c->t[i].len && c->t[i].addr != addr)
        i = (i + 1) & (c->cap - 1);
    return &c->t[i];
}
void fst_icache_put(fst_icache *c, uint64_t addr, const uint8_t *b, int len);

/* fst_mru and its fst_mru_find, fst_mru_front: tracebin.h (the run reader inlines them). */

/* key NUL value NUL lists (HEAD and FOOT payloads) */
void fst_kv_put(uint8_t **p, size_t *len, size_t *cap, const char *k, const char *v);
const char *fst_kv_get(const uint8_t *p, size_t len, size_t start, const char *key);

#endif
