/* trace/tracebin_read.c — the trace.bin reader; the format is in tracebin.h. */
#include "trace/psw.h"
#include "trace/tracebin_int.h"
#include "common/bytes.h"
#include "common/map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* ---- reader ---- */

/* The op stream's first codes, which tracebin.h's inline fast path spells as numbers. */
_Static_assert(FST_OP_SEQ == 0x00 && FST_OP_JMP == 0x40 && FST_OP_JMPA == 0x50 && FST_TB_MRU == FST_TR_MRU,
               "tracebin.h fst_tr_next_run reads the op codes as tracebin_int.h numbers them");

/* Where the cursor points when there is no frame (before the first, after the last): the
** two 0xFF that tracebin.h's fast path finds after every op stream's end. */
static const uint8_t no_ops[2] = { 0xFF, 0xFF };

struct fst_tr {
    fst_tr_cursor c;       /* first: what tracebin.h's inline functions read (a fst_tr * is a pointer to it) */
    fst_tbf tf;            /* the file, where its next frame starts, why it ended early */
    char *path;
    fst_tba *ahead;        /* the frames read ahead on a thread (tracebin_ahead.c), or NULL */
    uint8_t *hdr, *ftr;    /* key/value payloads */
    size_t hdrlen, ftrlen;
    fst_image_seg *img;
    size_t nimg;
    uint8_t *frame;        /* current EVNT payload: its op stream is c.p..c.end */
    unsigned version;
    fst_tbz *z;            /* version 2 and 3: the IMAG frames' zstd context */
    fst_tbz *ze;           /* and the EVNT frames' (version 3: their stream), lent to the
                              thread that reads ahead while it runs */
    uint8_t *raw;          /* version 2: the unpacked EVNT payload (u64, then the ops) */
    int packed;            /* the current EVNT frame was unpacked: errors say where in it */
    int ahead_tried;       /* fst_tba_start asked (once) */
    fst_frame_stats st[FST_FRAME_KINDS];
    int ended, have_foot, complete;
    fst_icache ic;
    uint64_t epoch;        /* INS ops that replaced known bytes (fst_tr_code_epoch) */
    fst_map changed;       /* per granule of addresses (FST_TR_GRANULE) where an INS replaced
                              bytes: the epoch it made (fst_tr_code_same_since) */
    uint64_t foot_off;     /* file offset of the footer's payload */
    uint64_t ftr_insns;
    uint64_t sample_ns;    /* host time of the last SAMPLE */
    uint64_t gr[16];       /* the registers of the last REGS records (fst_rec.gr) */
    uint64_t frames;       /* EVNT frames read: which one a mark (fst_tr_mark) is in */
    /* a frame read ahead while loading the image */
    char ptag[4];
    uint8_t *pbuf;
    size_t plen;
    int have_pending;
    size_t taken_bad;      /* 1 + the op stream offset of a TAKEN whose run ended at an
                              instruction that names no target (fst_tr_taken_bad); 0: none */
};

#define TAKEN_BAD "TAKEN run ends at an instruction that is not a relative branch"

/* The frame at r->off claims `l` payload bytes but the file ends after `avail` of the
** bytes that follow its header (b). A file cut short looks like that; so does a frame whose
** length field was damaged. Tell them apart: a damaged length leaves a whole frame behind,
** one whose CRC matches at a shorter length k and which is followed by the end of the file
** or by the tag of a next frame. Returns that k, or -1 (cut short). */
static long true_length(const uint8_t h[8], const uint8_t *b, size_t avail)
{
    static const char *const tags[] = { "EVNT", "FOOT", "IMAG", "HEAD" };
    uLong run = crc32(0L, Z_NULL, 0);
    size_t done = 0;
    for (size_t k = 0; k + 4 <= avail; k++) {
        int cand = k + 4 == avail;
        for (size_t t = 0; !cand && t < 4 && k + 8 <= avail; t++)
            cand = !memcmp(b + k + 4, tags[t], 4);
        if (!cand)
            continue;
        run = crc32(run, b + done, (uInt)(k - done)); /* the payload's CRC so far, in one pass */
        done = k;
        uint8_t hk[8];
        memcpy(hk, h, 4);
        fst_put_le32(hk + 4, (uint32_t)k);
        uLong crc = crc32_combine(crc32(0L, hk, 8), run, (z_off_t)k);
        if ((uint32_t)crc == fst_get_le32(b + k))
            return (long)k;
    }
    return -1;
}

/* Read the next frame (tracebin_int.h): 1 = got one, 0 = clean end of file or cut short
** (r->why set), -1 = damaged. Not counted here (count_frame: the reader's). */
int fst_tb_read_frame(fst_tbf *r, char tag[4], uint8_t **payload, size_t *len, fst_err *err)
{
    uint8_t h[8];
    size_t n = fread(h, 1, 8, r->f);
    if (n == 0 && feof(r->f))
        return 0;
    if (n < 8) {
        snprintf(r->why, sizeof r->why, "cut short at byte %llu (inside a frame header)", (unsigned long long)r->off);
        return 0;
    }
    uint32_t l = fst_get_le32(h + 4);
    if (l > FST_TB_MAX_FRAME)
        return fst_errf(err, "%s: byte %llu: frame length %u is not plausible (damaged file)", r->path,
                        (unsigned long long)r->off + 4, l);
    uint8_t *p = fst_xmalloc((size_t)l + 4); /* the payload, then its CRC */
    size_t got = fread(p, 1, (size_t)l + 4, r->f);
    if (got < (size_t)l + 4) {
        long k = true_length(h, p, got);
        free(p);
        if (k >= 0)
            return fst_errf(err, "%s: byte %llu: the %.4s frame's length says %u bytes, past the end of the file, "
                            "but its CRC matches at %ld: the length field is damaged (damaged file)", r->path,
                            (unsigned long long)r->off + 4, (const char *)h, l, k);
        snprintf(r->why, sizeof r->why, "cut short at byte %llu (inside a %.4s frame)", (unsigned long long)r->off,
                 (const char *)h);
        return 0;
    }
    if (fst_tb_crc32(fst_tb_crc32(0, h, 8), p, l) != fst_get_le32(p + l)) {
        free(p);
        return fst_errf(err, "%s: byte %llu: %.4s frame CRC mismatch (damaged file)", r->path,
                        (unsigned long long)r->off, (const char *)h);
    }
    memcpy(tag, h, 4);
    *payload = p;
    *len = l;
    r->frame_off = r->off + 8;
    r->off += 12 + l;
    return 1;
}

int fst_tb_unpack_evnt(fst_tbz *z, const uint8_t *p, size_t len, uint8_t *frame, size_t *flen)
{
    size_t head = 8 + fst_tbz_head(z);
    uint32_t n = len >= head ? fst_get_le32(p + 8) : 0;
    if (len < head || n > FST_TB_V2_PAYLOAD + FST_TB_OP_MAX || fst_tbz_unpack(z, p + head, len - head, frame + 8, n))
        return -1;
    if (head > 12 && fst_tb_crc32(0, frame + 8, n) != fst_get_le32(p + 12))
        return -1;  /* version 3: the piece's bytes are not the ones its CRC-32 was of */
    memcpy(frame, p, 8);
    *flen = 8 + (size_t)n;
    return 0;
}

/* A frame read (fst_tb_read_frame), in the counts by kind. */
static void count_frame(fst_tr *r, const char tag[4], size_t len)
{
    static const char kinds[FST_FRAME_KINDS][4] = { { 'H', 'E', 'A', 'D' }, { 'I', 'M', 'A', 'G' },
                                                   { 'E', 'V', 'N', 'T' }, { 'F', 'O', 'O', 'T' } };
    for (int k = 0; k < FST_FRAME_KINDS; k++)
        if (!memcmp(tag, kinds[k], 4)) {
            r->st[k].frames++;
            r->st[k].stored += len;
            r->st[k].unpacked += len;
        }
}

/* fst_tb_read_frame of the trace's file, counted. */
static int read_frame(fst_tr *r, char tag[4], uint8_t **payload, size_t *len, fst_err *err)
{
    int rc = fst_tb_read_frame(&r->tf, tag, payload, len, err);
    if (rc > 0)
        count_frame(r, tag, *len);
    return rc;
}

/* How many recent jump targets the trace's JMP ops name (FST_HK_RECENT): the reader keeps
** that many. 16 when the header does not say (a trace written before it did). */
static int recent_targets(fst_tr *r, fst_err *err)
{
    const char *v = fst_tr_header(r, FST_HK_RECENT);
    r->c.jm.cap = FST_TR_MRU;
    if (!v)
        return 0;
    char *e;
    long n = strtol(v, &e, 10);
    if (e == v || *e || n < 1 || n > FST_TR_MRU) {
        fst_errf(err, "%s: byte 8: header %s=%s: not a count of recent jump targets (1-%d)", r->path,
                 FST_HK_RECENT, v, FST_TR_MRU);
        return -1;
    }
    r->c.jm.cap = (int)n;
    return 0;
}

fst_tr *fst_tr_open(const char *path, fst_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fst_errno(err, "%s: cannot open", path);
        return NULL;
    }
    fst_tr *r = fst_xcalloc(1, sizeof *r);
    r->tf.f = f;
    r->path = fst_xstrdup(path);
    r->tf.path = r->path;
    char magic[8];
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, FST_TRACE_MAGIC, 8)) {
        fst_errf(err, "%s: byte 0: not an fst trace (no FSTTRACE magic)", path);
        fst_tr_close(r);
        return NULL;
    }
    r->tf.off = 8;
    r->c.p = r->c.end = no_ops;
    char tag[4];
    uint8_t *p;
    size_t len;
    int rc = read_frame(r, tag, &p, &len, err);
    if (rc <= 0 || memcmp(tag, "HEAD", 4) || len < 2) {
        if (rc == 0)
            fst_errf(err, "%s: byte 8: the trace has no header (%s)", path, r->tf.why[0] ? r->tf.why : "empty");
        else if (rc > 0) {
            fst_errf(err, "%s: byte 8: the first frame is not a header", path);
            free(p);
        }
        fst_tr_close(r);
        return NULL;
    }
    unsigned version = (unsigned)p[0] | (unsigned)p[1] << 8; /* u16 */
    if (version < FST_TRACE_VERSION_MIN || version > FST_TRACE_VERSION) {
        fst_errf(err, "%s: byte %llu: trace version %u, this fst reads versions %d to %d", path,
                 (unsigned long long)r->tf.frame_off, version, FST_TRACE_VERSION_MIN, FST_TRACE_VERSION);
        free(p);
        fst_tr_close(r);
        return NULL;
    }
    r->hdr = p;
    r->hdrlen = len;
    r->version = version;
    if (recent_targets(r, err)) {
        fst_tr_close(r);
        return NULL;
    }
    if (version >= 2) {
        r->z = fst_tbz_new(0);
        r->ze = version >= 3 ? fst_tbz_new_stream(0) : fst_tbz_new(0);
        r->raw = fst_xmalloc(8 + FST_TB_V2_PAYLOAD + FST_TB_OP_MAX + sizeof no_ops);
    }
    /* the storage image, up to the first other frame */
    for (;;) {
        rc = read_frame(r, tag, &p, &len, err);
        if (rc < 0) {
            fst_tr_close(r);
            return NULL;
        }
        if (rc == 0)
            break;
        if (!memcmp(tag, "IMAG", 4) && r->version >= 2) {
            uint32_t n = len >= 12 ? fst_get_le32(p + 8) : 0;
            uint8_t *img = len >= 12 && n <= FST_TB_IMAG_MAX ? fst_xmalloc(n ? n : 1) : NULL;
            if (!img || fst_tbz_unpack(r->z, p + 12, len - 12, img, n)) {
                free(p);
                free(img);
                fst_errf(err, "%s: byte %llu: IMAG frame does not unpack (damaged file)", path,
                         (unsigned long long)r->tf.frame_off - 8);
                fst_tr_close(r);
                return NULL;
            }
            r->st[FST_FRAME_IMAG].unpacked += 8 + (uint64_t)n - len;
            r->img = fst_xrealloc(r->img, (r->nimg + 1) * sizeof *r->img);
            r->img[r->nimg].addr = fst_get_le64(p);
            r->img[r->nimg].len = n;
            r->img[r->nimg].data = img;
            r->nimg++;
            free(p);
            continue;
        }
        if (!memcmp(tag, "IMAG", 4)) {
            if (len < 8) {
                free(p);
                fst_errf(err, "%s: byte %llu: IMAG frame too short", path, (unsigned long long)r->tf.frame_off);
                fst_tr_close(r);
                return NULL;
            }
            r->img = fst_xrealloc(r->img, (r->nimg + 1) * sizeof *r->img);
            r->img[r->nimg].addr = fst_get_le64(p);
            r->img[r->nimg].len = len - 8;
            memmove(p, p + 8, len - 8);
            r->img[r->nimg].data = p;
            r->nimg++;
            continue;
        }
        memcpy(r->ptag, tag, 4);
        r->pbuf = p;
        r->plen = len;
        r->have_pending = 1;
        break;
    }
    return r;
}

const char *fst_tr_header(const fst_tr *r, const char *key) { return fst_kv_get(r->hdr, r->hdrlen, 2, key); }
const char *fst_tr_footer(const fst_tr *r, const char *key)
{
    return r->ftr ? fst_kv_get(r->ftr, r->ftrlen, 0, key) : NULL;
}

/* The next frame: the one read ahead while the image was loaded, then the ahead thread's
** (tracebin_ahead.c; *u: an EVNT frame unpacked, or NULL when it did not unpack) or the
** file's (*ahead 0). */
static int take_frame(fst_tr *r, char tag[4], uint8_t **p, size_t *len, int *ahead, uint8_t **u, size_t *ulen,
                      fst_err *err)
{
    *ahead = 0;
    if (r->have_pending) {
        memcpy(tag, r->ptag, 4);
        *p = r->pbuf;
        *len = r->plen;
        r->have_pending = 0;
        r->pbuf = NULL;
        return 1;
    }
    if (!r->ahead_tried) {
        r->ahead_tried = 1;
        if (r->version >= 2)
            r->ahead = fst_tba_start(&r->tf, r->ze);
    }
    if (!r->ahead)
        return read_frame(r, tag, p, len, err);
    *ahead = 1;
    int rc = fst_tba_next(r->ahead, &r->tf, tag, p, len, u, ulen, err);
    if (rc > 0)
        count_frame(r, tag, *len);
    if (rc <= 0 || !memcmp(tag, "FOOT", 4)) { /* its last: the file is the reader's again */
        if (r->frame && r->frame != r->raw) {   /* the thread's buffer (version 2) */
            r->frame = NULL;
            r->c.p = r->c.end = no_ops;
        }
        fst_tba_stop(r->ahead);
        r->ahead = NULL;
    }
    return rc;
}

/* Get the next EVNT frame into r->frame; 0 at the end (footer or cut short). */
static int next_frame(fst_tr *r, fst_err *err)
{
    for (;;) {
        char tag[4];
        uint8_t *p, *u = NULL;
        size_t len, ulen = 0;
        int ahead;
        int rc = take_frame(r, tag, &p, &len, &ahead, &u, &ulen, err);
        if (rc <= 0)
            return rc;
        if (!memcmp(tag, "EVNT", 4)) {
            if (len < 8) {
                free(p);
                return fst_errf(err, "%s: byte %llu: EVNT frame too short", r->path, (unsigned long long)r->tf.frame_off);
            }
            uint64_t first = fst_get_le64(p);
            if (first != r->c.insns) {
                free(p);
                return fst_errf(err, "%s: byte %llu: frame starts at instruction %llu, expected %llu (damaged file)",
                                r->path, (unsigned long long)r->tf.frame_off, (unsigned long long)first,
                                (unsigned long long)r->c.insns);
            }
            if (r->version < 2)
                free(r->frame);     /* version 1's payload; version 2's are r->raw or the thread's */
            r->frame = NULL;
            r->c.p = r->c.end = no_ops;
            size_t flen = ulen;
            if (r->version >= 2) {
                if (ahead ? !u : fst_tb_unpack_evnt(r->ze, p, len, r->raw, &flen)) {
                    free(p);
                    return fst_errf(err, "%s: byte %llu: EVNT frame does not unpack (damaged file)", r->path,
                                    (unsigned long long)r->tf.frame_off - 8);
                }
                r->st[FST_FRAME_EVNT].unpacked += flen - len;
                r->frame = ahead ? u : r->raw;
                free(p);
                r->packed = 1;
            } else {
                r->frame = p;
                flen = len;
            }
            memcpy(r->frame + flen, no_ops, sizeof no_ops); /* v1: over the CRC, checked already */
            r->c.p = r->frame + 8;
            r->c.end = r->frame + flen;
            r->frames++;
            return 1;
        }
        if (!memcmp(tag, "FOOT", 4)) {
            r->ftr = p;
            r->ftrlen = len;
            r->have_foot = 1;
            r->foot_off = r->tf.frame_off;
            uint8_t more[8];
            size_t extra = fread(more, 1, sizeof more, r->tf.f);
            if (extra) /* the footer ends the file: anything after it is not this trace's */
                return fst_errf(err, "%s: byte %llu: data after the footer%s (damaged file)", r->path,
                                (unsigned long long)r->tf.off,
                                extra == 8 && !memcmp(more, FST_TRACE_MAGIC, 8) ? ": another trace appended" : "");
            return 0;
        }
        free(p); /* a frame kind from a later version: skipped */
    }
}

/* An error at the op at frame offset pos: its file offset (version 1), or the frame's
** and where in its unpacked op stream (version 2). */
static int bad_op_at(fst_tr *r, size_t pos, const char *what, fst_err *err)
{
    if (r->packed)
        return fst_errf(err, "%s: byte %llu: EVNT frame, op stream byte %zu: %s (damaged file)", r->path,
                        (unsigned long long)r->tf.frame_off - 8, pos - 8, what);
    return fst_errf(err, "%s: byte %llu: %s (damaged file)", r->path, (unsigned long long)(r->tf.frame_off + pos),
                    what);
}

/* An op of the shape "op, varint v, u8 PSW length, PSW bytes" (LPSW, SAMPLE, OLDPSW) at p:
** its length, v and rec->psw/pswlen; 0 when it runs past end or the PSW length is not 8 or
** 16 (or 0, when zero_ok: an LPSW's PSW not known). */
static size_t psw_op(const uint8_t *p, const uint8_t *end, int zero_ok, uint64_t *v, fst_rec *rec)
{
    size_t n = fst_get_uvar(p + 1, end, v);
    if (!n || p + 1 + n >= end)
        return 0;
    uint8_t len = p[1 + n];
    if (!((len == 0 && zero_ok) || len == 8 || len == 16) || p + 2 + n + len > end)
        return 0;
    rec->pswlen = len;
    memcpy(rec->psw, p + 2 + n, len);
    return 2 + n + len;
}

static int bad_op(fst_tr *r, const char *what, fst_err *err)
{
    return bad_op_at(r, (size_t)(r->c.p - r->frame), what, err);
}

static int finish(fst_tr *r, fst_err *err)
{
    r->ended = 1;
    if (!r->have_foot) {
        char buf[240];
        snprintf(buf, sizeof buf, "%.200s, after instruction %llu", r->tf.why[0] ? r->tf.why : "no footer",
                 (unsigned long long)r->c.insns);
        snprintf(r->tf.why, sizeof r->tf.why, "%s", buf);
        return 0;
    }
    const char *v = fst_tr_footer(r, FST_FK_INSNS);
    if (!v || strtoull(v, NULL, 10) != r->c.insns)
        return fst_errf(err, "%s: byte %llu: the footer counts %s instructions but the frames hold %llu (damaged file)",
                        r->path, (unsigned long long)r->foot_off, v ? v : "no", (unsigned long long)r->c.insns);
    const char *c = fst_tr_footer(r, FST_FK_COMPLETE);
    r->complete = c && !strcmp(c, "1");
    if (!r->complete) {
        const char *e = fst_tr_footer(r, FST_FK_END);
        snprintf(r->tf.why, sizeof r->tf.why, "the capture was stopped (%s) after instruction %llu", e ? e : "unknown",
                 (unsigned long long)r->c.insns);
    }
    return 0;
}

/* JMP k: its target to the front. */
static inline void mru_to_front(fst_mru *m, int k) { fst_mru_front(m, k, m->a[k]); }

/* The next instruction of a SEQ run. */
static inline int seq_next(fst_tr *r, fst_rec *rec, fst_err *err)
{
    fst_icache_ent *e = fst_icache_slot(&r->ic, r->c.cur);
    if (!e->len)
        return bad_op_at(r, (size_t)(r->c.p - 1 - r->frame), /* the SEQ op (tracebin.h: the cursor) */
                         "SEQ runs into an address with no known instruction", err);
    r->c.seq--;
    rec->kind = FST_REC_INSN;
    rec->addr = r->c.cur;
    rec->len = e->len;
    memcpy(rec->bytes, e->bytes, 6);
    rec->cpu = r->c.cpu;
    rec->state = r->c.state;
    r->c.cur += e->len;
    if (!r->c.seq && r->c.taken)    /* a TAKEN run's last, handed out (a bad one: the next record is the error) */
        fst_tr_taken_end(r, e->bytes, rec->addr);
    return 1;
}

/* A SEQ or TAKEN op at p: the run opens (tracebin.h: the cursor). */
static inline void run_op(fst_tr *r, uint8_t op)
{
    r->c.seq = (unsigned)(op & 0x3F) + 1;
    r->c.taken = op >> 7;
    r->c.insns += r->c.seq; /* counted whole (tracebin.h: the cursor) */
    r->c.p++;
}

void fst_tr_taken_bad(fst_tr *r)
{
    r->taken_bad = (size_t)(r->c.p - 1 - r->frame) + 1;
    r->c.p = r->c.end = no_ops;     /* the next record is slow_op's: the error */
}

/* fst_tr_next_run's answer at a SEQ run: where it starts, none of it handed out. */
static int run_start(fst_tr *r, fst_rec *rec)
{
    rec->kind = FST_REC_INSN;
    rec->addr = r->c.cur;
    rec->len = 0;
    rec->value = r->c.seq;
    rec->cpu = r->c.cpu;
    rec->state = r->c.state;
    return 2;
}

enum { NEXT_OP = 3 };    /* slow_op: no record yet, read on */

/* One op of the stream, or the next frame, for next_rec: what its fast path does not
** take (out of line, so that the fast path saves few registers). */
static __attribute__((noinline)) int slow_op(fst_tr *r, fst_rec *rec, fst_err *err, int runs)
{
    {
        if (r->taken_bad)
            return bad_op_at(r, r->taken_bad - 1, TAKEN_BAD, err);
        if (r->ended)
            return 0;
        if (r->c.p >= r->c.end) {
            int rc = next_frame(r, err);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                if (finish(r, err))
                    return -1;
                rec->kind = FST_REC_END;
                return 0;
            }
            return NEXT_OP;
        }
        const uint8_t *p = r->c.p, *end = r->c.end;
        uint8_t op = *p;
        uint64_t v;
        size_t n;
        rec->cpu = r->c.cpu;
        if (!(op & 0x40)) { /* SEQ, TAKEN */
            run_op(r, op);
            return runs ? run_start(r, rec) : seq_next(r, rec, err);
        }
        if (op < FST_OP_JMPA) {
            int k = op & 0x0F;
            if (k >= r->c.jm.n)
                return bad_op(r, "jump to an unknown recent target", err);
            mru_to_front(&r->c.jm, k);
            r->c.cur = r->c.jm.a[0];
            r->c.p++;
            return NEXT_OP;
        }
        switch (op) {
        case FST_OP_JMPA:
            if (!(n = fst_get_uvar(p + 1, end, &v)))
                return bad_op(r, "truncated jump", err);
            r->c.cur += (uint64_t)fst_unzigzag(v);
            fst_mru_front(&r->c.jm, fst_mru_find(&r->c.jm, r->c.cur), r->c.cur);
            r->c.jfast = fst_tr_jfast(r->c.jm.n);
            r->c.p += 1 + n;
            return NEXT_OP;
        case FST_OP_INS: {
            if (p + 1 >= end)
                return bad_op(r, "truncated instruction", err);
            int len = fst_insn_len(p[1]);
            if (p + 1 + len > end)
                return bad_op(r, "truncated instruction", err);
            const fst_icache_ent *was = fst_icache_slot(&r->ic, r->c.cur);
            if (was->len && (was->len != len || memcmp(was->bytes, p + 1, (size_t)len))) {
                r->epoch++; /* code decoded from the cache may be stale now */
                *fst_map_put(&r->changed, r->c.cur >> FST_TR_GRANULE, 0) = r->epoch;
            }
            fst_icache_put(&r->ic, r->c.cur, p + 1, len);
            rec->kind = FST_REC_INSN;
            rec->addr = r->c.cur;
            rec->len = (uint8_t)len;
            memset(rec->bytes, 0, 6);
            memcpy(rec->bytes, p + 1, (size_t)len);
            rec->state = r->c.state;
            r->c.cur += (uint64_t)len;
            r->c.insns++;
            r->c.p += 1 + (size_t)len;
            return 1;
        }
        case FST_OP_STATE:
            if (p + 5 > end)
                return bad_op(r, "truncated state", err);
            r->c.state = fst_get_le32(p + 1);
            r->c.p += 5;
            rec->kind = FST_REC_STATE;
            rec->state = r->c.state;
            return 1;
        case FST_OP_CPU:
            if (!(n = fst_get_uvar(p + 1, end, &v)) || v > 0xFFFF)
                return bad_op(r, "bad CPU number", err);
            r->c.cpu = (uint16_t)v;
            r->c.p += 1 + n;
            rec->kind = FST_REC_CPU;
            rec->cpu = r->c.cpu;
            rec->state = r->c.state;
            return 1;
        case FST_OP_PGMCHK:
            if (!(n = fst_get_uvar(p + 1, end, &v)) || p + 1 + n >= end)
                return bad_op(r, "truncated program check", err);
            rec->kind = FST_REC_PGMCHK;
            rec->code = (uint32_t)v;
            rec->ilc = p[1 + n];
            rec->state = r->c.state;
            r->c.p += 2 + n;
            return 1;
        case FST_OP_INTR:
            if (p + 2 > end || !(n = fst_get_uvar(p + 2, end, &v)))
                return bad_op(r, "truncated interruption", err);
            rec->kind = FST_REC_INTR;
            rec->cls = p[1];
            rec->code = (uint32_t)v;
            rec->state = r->c.state;
            r->c.p += 2 + n;
            return 1;
        case FST_OP_WAIT:
            if (p + 3 > end || (p[2] != 0 && p[2] != 8 && p[2] != 16) || p + 3 + p[2] > end)
                return bad_op(r, "truncated wait", err);
            rec->kind = FST_REC_WAIT;
            rec->cls = p[1];
            rec->pswlen = p[2];
            memcpy(rec->psw, p + 3, p[2]);
            rec->state = r->c.state;
            r->c.p += 3 + (size_t)p[2];
            return 1;
        case FST_OP_GAP:
            rec->kind = FST_REC_GAP;
            rec->state = r->c.state;
            r->c.p++;
            return 1;
        case FST_OP_TIME:
            if (!(n = fst_get_uvar(p + 1, end, &v)))
                return bad_op(r, "truncated time", err);
            rec->kind = FST_REC_TIME;
            rec->code = (uint32_t)v;
            rec->state = r->c.state;
            r->c.p += 1 + n;
            return 1;
        case FST_OP_LPSW:
            if (!(n = psw_op(p, end, 1, &v, rec)))
                return bad_op(r, "truncated LPSW", err);
            rec->kind = FST_REC_LPSW;
            rec->addr = v;
            rec->state = r->c.state;
            r->c.p += n;
            return 1;
        case FST_OP_CR:
            if (p + 2 > end || !(n = fst_get_uvar(p + 2, end, &v)))
                return bad_op(r, "truncated control register", err);
            if (p[1] > 15)
                return bad_op(r, "bad control register number", err);
            rec->kind = FST_REC_CR;
            rec->cls = p[1];
            rec->value = v;
            rec->state = r->c.state;
            r->c.p += 2 + n;
            return 1;
        case FST_OP_SAMPLE:
            if (!(n = psw_op(p, end, 0, &v, rec)))
                return bad_op(r, "truncated sample", err);
            if (v > UINT64_MAX - r->sample_ns)
                return bad_op(r, "sample time overflows", err);
            r->sample_ns += v;
            rec->kind = FST_REC_SAMPLE;
            rec->value = r->sample_ns;
            rec->addr = fst_psw_ia(rec->psw, rec->pswlen);
            rec->state = r->c.state;
            r->c.p += n;
            return 1;
        case FST_OP_REGS:
        case FST_OP_BASES: {
            if (p + 3 > end)
                return bad_op(r, "truncated registers", err);
            unsigned mask = p[1] | (unsigned)p[2] << 8;
            size_t at = 3;
            for (int g = 0; g < 16; g++) {
                if (!(mask >> g & 1))
                    continue;
                if (!(n = fst_get_uvar(p + at, end, &v)))
                    return bad_op(r, "truncated registers", err);
                r->gr[g] = v;
                at += n;
            }
            rec->kind = op == FST_OP_REGS ? FST_REC_REGS : FST_REC_BASES;
            rec->code = mask;
            rec->gr = r->gr;
            rec->state = r->c.state;
            r->c.p += at;
            return 1;
        }
        case FST_OP_OPND:
            if (!(n = fst_get_uvar(p + 1, end, &v)))
                return bad_op(r, "truncated operand address", err);
            rec->kind = FST_REC_OPND;
            rec->addr = v;
            rec->state = r->c.state;
            r->c.p += 1 + n;
            return 1;
        case FST_OP_OLDPSW:
            if (!(n = psw_op(p, end, 0, &v, rec)))
                return bad_op(r, "truncated old PSW", err);
            rec->kind = FST_REC_OLDPSW;
            rec->addr = v;
            rec->state = r->c.state;
            r->c.p += n;
            return 1;
        default: {
            char what[48];
            snprintf(what, sizeof what, "unknown event op 0x%02X", op);
            return bad_op(r, what, err);
        }
        }
    }
}

/* fst_tr_next (runs 0) and fst_tr_next_run_slow (runs 1): SEQ and recent-target jumps,
** most of a trace's ops, here; the rest in slow_op. The cursor's p < end only while a
** frame is being read (never once the trace ended). */
static inline int next_rec(fst_tr *r, fst_rec *rec, fst_err *err, int runs)
{
    if (r->c.seq) /* fast path */
        return runs ? run_start(r, rec) : seq_next(r, rec, err);
    for (;;) {
        if (r->c.p < r->c.end) {
            uint8_t op = *r->c.p;
            if (!(op & 0x40)) { /* SEQ, TAKEN */
                rec->cpu = r->c.cpu;
                run_op(r, op);
                return runs ? run_start(r, rec) : seq_next(r, rec, err);
            }
            if (op < FST_OP_JMPA && (op & 0x0F) < r->c.jm.n) {
                mru_to_front(&r->c.jm, op & 0x0F);
                r->c.cur = r->c.jm.a[0];
                r->c.p++;
                continue;
            }
        }
        int rc = slow_op(r, rec, err, runs);
        if (rc != NEXT_OP)
            return rc;
    }
}

int fst_tr_next(fst_tr *r, fst_rec *rec, fst_err *err) { return next_rec(r, rec, err, 0); }

int fst_tr_next_run_slow(fst_tr *r, fst_rec *rec, fst_err *err) { return next_rec(r, rec, err, 1); }

void fst_tr_seq_overrun(void) { abort(); }

int fst_tr_code(fst_tr *r, uint64_t addr, uint8_t bytes[6])
{
    const fst_icache_ent *e = fst_icache_slot(&r->ic, addr);
    if (e->len)
        memcpy(bytes, e->bytes, 6);
    return e->len;
}

uint64_t fst_tr_code_epoch(const fst_tr *r) { return r->epoch; }

const uint64_t *fst_tr_code_epoch_at(const fst_tr *r) { return &r->epoch; }

int fst_tr_code_same_since(const fst_tr *r, uint64_t lo, uint64_t hi, uint64_t e)
{
    for (uint64_t g = lo >> FST_TR_GRANULE; g <= hi >> FST_TR_GRANULE; g++) {
        const uint64_t *v = r->changed.cap ? fst_map_get(&r->changed, g) : NULL;
        if (v && *v > e)
            return 0;
    }
    return 1;
}

int fst_tr_complete(const fst_tr *r, const char **why)
{
    if (why)
        *why = r->complete ? NULL : r->tf.why;
    return r->complete;
}

/* ---- repeated stretches (tracebin.h fst_tr_mark) ---- */

int fst_tr_mark_here(const fst_tr *r, fst_tr_mark *m)
{
    m->c = r->c;
    m->frame = r->frames;
    return r->c.seq == 0;
}

/* The same reader state, but for the position and the count. */
static int same_state(const fst_tr_cursor *a, const fst_tr_cursor *b)
{
    if (a->cur != b->cur || a->seq || b->seq || a->state != b->state || a->cpu != b->cpu || a->jm.n != b->jm.n ||
        a->jfast != b->jfast)
        return 0;
    for (int i = 0; i < a->jm.n; i++)
        if (a->jm.a[i] != b->jm.a[i])
            return 0;
    return 1;
}

int fst_tr_mark_same_state(const fst_tr_mark *a, const fst_tr_mark *b) { return same_state(&a->c, &b->c); }

size_t fst_tr_mark_copy(const fst_tr_mark *a, const fst_tr_mark *b, uint8_t *ops, size_t max, uint64_t *insns)
{
    if (a->frame != b->frame || b->c.p <= a->c.p || (size_t)(b->c.p - a->c.p) > max || a->c.seq || b->c.seq)
        return 0;
    size_t n = (size_t)(b->c.p - a->c.p);
    if (ops)
        memcpy(ops, a->c.p, n);
    *insns = b->c.insns - a->c.insns;
    return n;
}

size_t fst_tr_mark_span(const fst_tr_mark *a, const fst_tr_mark *b, uint8_t *ops, size_t max, uint64_t *insns)
{
    return same_state(&a->c, &b->c) ? fst_tr_mark_copy(a, b, ops, max, insns) : 0;
}

int fst_tr_skip_to(fst_tr *r, const fst_tr_mark *at, const fst_tr_mark *a, const uint8_t *ops, size_t n,
                   const fst_tr_mark *b)
{
    if (at->frame != r->frames || !n || !same_state(&a->c, &at->c) || (size_t)(at->c.end - at->c.p) < n ||
        memcmp(at->c.p, ops, n))
        return 0;
    fst_tr_cursor c = b->c;     /* b's state, at's frame */
    c.p = at->c.p + n;
    c.end = at->c.end;
    c.insns = at->c.insns + (b->c.insns - a->c.insns);
    r->c = c;
    return 1;
}

/* The ops of one run at *p (before end), as fst_tr_fast_ops and fst_tr_fast_deps take them:
** FST_OP_JMP (*k its place), FST_OP_JMPA, FST_OP_SEQ (none before the SEQ or TAKEN), or -1
** when they are not such a run; *p moves past them. */
static int fast_run(const uint8_t **p, const uint8_t *end, int *k)
{
    const uint8_t *q = *p;
    int op = FST_OP_SEQ;
    if ((*q & 0xF0) == FST_OP_JMP) {
        op = FST_OP_JMP;
        *k = *q++ & 0x0F;
    } else if (*q == FST_OP_JMPA) {
        uint64_t v;
        size_t nv = fst_get_uvar(q + 1, end, &v);
        if (!nv)
            return -1;
        op = FST_OP_JMPA;
        q += 1 + nv;
    }
    if (q >= end || (*q & 0x40))    /* no SEQ nor TAKEN after it */
        return -1;
    *p = q + 1;
    return op;
}

int fst_tr_fast_ops(const uint8_t *ops, size_t n, int nrecent, int *m, uint32_t *runs)
{
    const uint8_t *p = ops, *end = ops + n;
    *m = -1;
    *runs = 0;
    while (p < end) {
        int k = 0, op = fast_run(&p, end, &k);
        if (op == -1 || op == FST_OP_JMPA || (op == FST_OP_JMP && k >= nrecent))
            return 0;
        if (op == FST_OP_JMP && k > *m)
            *m = k;
        ++*runs;
    }
    return 1;
}

/* The list as the runs move it, each entry with where it came from in start (-1: moved or
** put in front by the runs): what they jumped to of start is what they used. */
int fst_tr_fast_deps(const uint8_t *ops, size_t n, const fst_mru *start, const uint64_t *addr, uint32_t naddr,
                     fst_tr_deps *d)
{
    uint64_t a[FST_TR_MRU];
    int from[FST_TR_MRU], len = start->n;
    for (int i = 0; i < len; i++) {
        a[i] = start->a[i];
        from[i] = i;
    }
    memset(d, 0, offsetof(fst_tr_deps, front));
    const uint8_t *p = ops, *end = ops + n;
    while (p < end) {
        if (d->runs == naddr || d->runs == FST_TR_DEP_RUNS)
            return 0;
        uint64_t to = addr[d->runs++];
        int k = 0, op = fast_run(&p, end, &k);
        if (op == -1 || (op == FST_OP_JMP && (k >= len || a[k] != to)))
            return 0;
        if (op == FST_OP_SEQ)
            continue;
        if (op == FST_OP_JMPA) {
            for (k = 0; k < len && a[k] != to; k++)
                ;
            if (k == len) {     /* put in front, the last dropped when the list is full */
                unsigned among = 0;     /* start's still there, and had it been full */
                for (int i = 0; i < len; i++)
                    among |= from[i] >= 0 ? 1u << from[i] : 0;
                for (int i = 0; i < start->cap - len; i++)
                    among |= 1u << (start->n + i);
                d->among[d->nabsent] = (uint16_t)among;
                d->absent[d->nabsent++] = to;
                k = len < start->cap ? len++ : len - 1;
                from[k] = -1;
            }
        }
        if (from[k] >= 0)
            d->used |= (uint16_t)(1u << from[k]);
        memmove(a + 1, a, (size_t)k * sizeof *a);
        memmove(from + 1, from, (size_t)k * sizeof *from);
        a[0] = to;
        from[0] = -1;
    }
    while (d->nfront < len && from[d->nfront] < 0) {
        d->front[d->nfront] = a[d->nfront];
        d->nfront++;
    }
    /* what fst_tr_fast_skip makes of it, the list as moved (it cannot differ: the moved
    ** ones come first, start's after them in order) */
    uint64_t t[FST_TR_MRU];
    int k = fst_tr_deps_list(start, d->used, d->front, d->nfront, t);
    return k == len && !memcmp(t, a, (size_t)len * sizeof *a);
}

uint64_t fst_tr_skip_repeats(fst_tr *r, const fst_tr_mark *a, const uint8_t *ops, size_t n, uint64_t insns)
{
    fst_tr_cursor *c = &r->c;
    if (!n || !same_state(&a->c, c))
        return 0;
    const uint8_t *p = c->p;
    if ((size_t)(c->end - p) < n || memcmp(p, ops, n))
        return 0;
    /* the first copy is ops; the rest, as long as each byte is the one n before it: one
    ** pass over the bytes, 8 at a time, not a memcmp call a copy (a loop of one run folded
    ** 73.6 M times, gen.py seed 15480: memcmp's calls were a third of its replay) */
    const uint8_t *q = p + n;
    size_t avail = (size_t)(c->end - q), m = 0;
    while (m + 8 <= avail) {   /* q[m] against p[m]: q is p + n */
        uint64_t x, y;
        memcpy(&x, q + m, 8);
        memcpy(&y, p + m, 8);
        if (x != y)
            break;
        m += 8;
    }
    while (m < avail && q[m] == p[m])
        m++;
    uint64_t k = 1 + m / n;
    c->p = p + k * n;
    c->insns += k * insns;
    return k;
}

uint64_t fst_tr_insns(const fst_tr *r) { return r->c.insns - r->c.seq; }
const char *fst_tr_path(const fst_tr *r) { return r->path; }
unsigned fst_tr_version(const fst_tr *r) { return r->version; }
const fst_frame_stats *fst_tr_frame_stats(const fst_tr *r) { return r->st; }

const fst_image_seg *fst_tr_image(const fst_tr *r, size_t *n)
{
    *n = r->nimg;
    return r->img;
}

int fst_image_read(const fst_image_seg *segs, size_t nseg, uint64_t addr, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a = addr + i;
        size_t s;
        for (s = nseg; s-- > 0;) /* later pieces overlay earlier ones, as IPL loads them */
            if (a >= segs[s].addr && a - segs[s].addr < segs[s].len)
                break;
        if (s == (size_t)-1)
            return -1;
        out[i] = segs[s].data[a - segs[s].addr];
    }
    return 0;
}

void fst_tr_close(fst_tr *r)
{
    if (!r)
        return;
    fst_tba_stop(r->ahead);   /* first: it reads the file */
    if (r->tf.f)
        fclose(r->tf.f);
    for (size_t i = 0; i < r->nimg; i++)
        free(r->img[i].data);
    free(r->img);
    free(r->hdr);
    free(r->ftr);
    if (r->version < 2)
        free(r->frame);
    free(r->raw);
    fst_tbz_free(r->z);
    fst_tbz_free(r->ze);
    free(r->pbuf);
    free(r->ic.t);
    fst_map_free(&r->changed);
    free(r->path);
    free(r);
}
