/* trace/tracebin_write.c — the trace.bin writer; the format is in tracebin.h. */
#include "trace/tracebin_int.h"
#include "common/bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FST_TW_JMP_NEAR FST_TW_MARK_MRU /* the JMP ops it writes name k < this (jump_out says why) */

/* ---- writer ---- */

struct fst_tw {
    int fd;
    char *path;
    int failed;            /* a frame could not be packed or written: ferr says why */
    fst_err ferr;
    fst_tbw *behind;       /* version 2: EVNT frames packed and written by a thread (fst_tbw),
                              made at the first frame: fst-capture forks Hercules before
                              it, single-threaded (capture/hercules/child.c) */
    int behind_tried;
    uint64_t frames;       /* EVNT frames handed out (a mark's: the frame being filled is the
                              same while it is the same) */
    unsigned version;
    fst_tbz *z;            /* version 2 and 3: the IMAG frames' zstd context */
    fst_tbz *ze;           /* and the EVNT frames' (version 3: their stream, tracebin_zstd.c) */
    uint8_t *zbuf;         /* version 2: a packed frame */
    size_t zcap;
    size_t fmax;           /* op-stream bytes per EVNT frame */
    uint64_t written;
    uint8_t *buf;          /* frame being filled: header room + payload */
    size_t blen;           /* payload bytes in buf */
    uint64_t frame_first;  /* instructions before this frame */
    fst_icache ic;
    uint64_t near[FST_TW_MARK_MRU]; /* the reader's FST_TW_MARK_MRU most recent jump targets, most
                                        recent first (jump_out) */
    unsigned nnear;
    uint64_t cur;          /* current address */
    int pending;           /* SEQ instructions not yet written */
    uint64_t last;         /* the address of the last of them (pending > 0): a TAKEN's branch */
    uint64_t last_to;      /* and where its bytes branch (fst_tb_taken_to) when last_known: */
    int last_known;        /* given by fst_tw_seq_ib; else jump_to looks the bytes up */
    uint32_t state;
    int have_state;
    unsigned cpu;
    uint32_t time;
    uint64_t insns, pgmchks, intrs, waits;
    uint64_t samples, sample_ns;
    uint64_t learned;      /* INS ops written (the byte cache learned) */
};

static int write_all(fst_tw *w, const void *p, size_t n, fst_err *err)
{
    const uint8_t *q = p;
    while (n) {
        ssize_t k = write(w->fd, q, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return fst_errno(err, "%s: byte %llu: cannot write", w->path, (unsigned long long)w->written);
        q += k;
        n -= (size_t)k;
        w->written += (uint64_t)k;
    }
    return 0;
}

static int write_frame(fst_tw *w, const char tag[4], const uint8_t *payload, size_t n, fst_err *err)
{
    uint8_t h[8], t[4];
    memcpy(h, tag, 4);
    fst_put_le32(h + 4, (uint32_t)n);
    uint32_t crc = fst_tb_crc32(fst_tb_crc32(0, h, 8), payload, n);
    fst_put_le32(t, (uint32_t)crc);
    if (write_all(w, h, 8, err) || write_all(w, payload, n, err) || write_all(w, t, 4, err))
        return -1;
    return 0;
}

/* Versions 2 and 3: the frame `tag` of header `h` (hn bytes: address or instruction
** count), u32 n, for a piece of version 3's stream the CRC-32 of the n bytes (tracebin.h),
** and the n bytes of src packed by z. */
static int packed_frame(fst_tw *w, fst_tbz *z, const char tag[4], const uint8_t *h, size_t hn, const uint8_t *src,
                        size_t n, fst_err *err)
{
    size_t head = hn + fst_tbz_head(z), need = head + fst_tbz_bound(n);
    if (need > w->zcap) {
        free(w->zbuf);
        w->zcap = need;
        w->zbuf = fst_xmalloc(need);
    }
    memcpy(w->zbuf, h, hn);
    fst_put_le32(w->zbuf + hn, (uint32_t)n);
    if (head > hn + 4)
        fst_put_le32(w->zbuf + hn + 4, fst_tb_crc32(0, src, n));
    size_t k = fst_tbz_pack(z, src, n, w->zbuf + head, w->zcap - head);
    if (!k)
        return fst_errf(err, "%s: byte %llu: zstd could not pack a %.4s frame", w->path,
                        (unsigned long long)w->written, tag);
    return write_frame(w, tag, w->zbuf, head + k, err);
}

/* An EVNT frame (8 bytes of instructions before it, then its ops) packed and written: by
** the writer, or behind it (fst_tbw_out: only this touches the file, z and zbuf then). */
static int evnt_out(void *ctx, uint8_t *frame, size_t len, fst_err *err)
{
    fst_tw *w = ctx;
    return w->version >= 2 ? packed_frame(w, w->ze, "EVNT", frame, 8, frame + 8, len - 8, err)
                           : write_frame(w, "EVNT", frame, len, err);
}

/* rc of a write: a failure is kept, and every write after it says what it was. */
static int wrote(fst_tw *w, int rc, const fst_err *err)
{
    if (rc && !w->failed) {
        w->failed = 1;
        w->ferr = *err;
    }
    return rc;
}

/* Nothing of the writer's is on its way to the file: it may write there itself. */
static int settle(fst_tw *w, fst_err *err)
{
    if (w->failed) {
        *err = w->ferr;
        return -1;
    }
    return w->behind ? wrote(w, fst_tbw_wait(w->behind, err), err) : 0;
}

/* A file that is there, regular, not empty, and no trace (a program, a listing, a log the
** user named by mistake with -o): never overwritten. -1 with err set; 0 otherwise. */
static int not_a_trace(const char *path, fst_err *err)
{
    struct stat sb;
    char magic[8] = "";
    if (stat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, magic, sizeof magic) : -1;
    if (fd >= 0)
        close(fd);
    if (n == (ssize_t)sizeof magic && !memcmp(magic, FST_TRACE_MAGIC, sizeof magic))
        return 0;
    return fst_errf(err, "%s: the file is there and is not an fst trace: fst writes a trace only over a trace (or a "
                         "new file): give another name, or remove it", path);
}

void fst_tw_pack_fast(fst_tw *w)
{
    if (w->ze)
        fst_tbz_fast(w->ze);
}

fst_tw *fst_tw_open(const char *path, const fst_kv *hdr, fst_err *err)
{
    return fst_tw_open_version(path, hdr, FST_TRACE_VERSION, err);
}

fst_tw *fst_tw_open_version(const char *path, const fst_kv *hdr, unsigned version, fst_err *err)
{
    if (version < FST_TRACE_VERSION_MIN || version > FST_TRACE_VERSION) {
        fst_errf(err, "%s: trace version %u: this fst writes versions %d to %d", path, version,
                 FST_TRACE_VERSION_MIN, FST_TRACE_VERSION);
        return NULL;
    }
    if (not_a_trace(path, err))
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fst_errno(err, "%s: cannot create", path);
        return NULL;
    }
    fst_tw *w = fst_xcalloc(1, sizeof *w);
    w->fd = fd;
    w->path = fst_xstrdup(path);
    w->version = version;
    w->fmax = version >= 2 ? FST_TB_V2_PAYLOAD : FST_TB_FRAME_PAYLOAD;
    if (version >= 2) {
        w->z = fst_tbz_new(FST_TB_ZSTD_LEVEL);
        w->ze = version >= 3 ? fst_tbz_new_stream(FST_TB_ZSTD_LEVEL) : fst_tbz_new(FST_TB_ZSTD_LEVEL);
    }
    w->buf = fst_xmalloc(8 + w->fmax + FST_TB_OP_MAX + 8);
    size_t len = 2, cap = 256;
    uint8_t *p = fst_xmalloc(cap);
    p[0] = (uint8_t)version;
    p[1] = 0;
    for (const fst_kv *kv = hdr; kv && kv->key; kv++)
        if (kv->value && strcmp(kv->key, FST_HK_RECENT))
            fst_kv_put(&p, &len, &cap, kv->key, kv->value);
    /* its JMP ops name only the near targets (jump_out): a reader need keep no more */
    char near[4];
    snprintf(near, sizeof near, "%d", FST_TW_JMP_NEAR);
    fst_kv_put(&p, &len, &cap, FST_HK_RECENT, near);
    int rc = write_all(w, FST_TRACE_MAGIC, 8, err);
    if (!rc)
        rc = write_frame(w, "HEAD", p, len, err);
    free(p);
    if (rc) {
        fst_tw_abandon(w);
        return NULL;
    }
    w->blen = 8; /* payload starts with u64 frame_first */
    return w;
}

int fst_tw_image(fst_tw *w, uint64_t addr, const uint8_t *p, size_t n, fst_err *err)
{
    if (settle(w, err))
        return -1;
    while (n) {
        size_t k = n > FST_TB_IMAG_MAX ? FST_TB_IMAG_MAX : n;
        if (w->version >= 2) {
            uint8_t h[8];
            fst_put_le64(h, addr);
            if (wrote(w, packed_frame(w, w->z, "IMAG", h, 8, p, k, err), err))
                return -1;
            addr += k;
            p += k;
            n -= k;
            continue;
        }
        uint8_t *f = fst_xmalloc(8 + k);
        fst_put_le64(f, addr);
        memcpy(f + 8, p, k);
        int rc = wrote(w, write_frame(w, "IMAG", f, 8 + k, err), err);
        free(f);
        if (rc)
            return -1;
        addr += k;
        p += k;
        n -= k;
    }
    return 0;
}

static int frame_out(fst_tw *w, fst_err *err)
{
    if (w->failed) {    /* nothing more reaches the file: the frame is dropped, not filled on
                           past its buffer's end (a capture onto a full disk wrote there) */
        w->blen = 8;
        *err = w->ferr;
        return -1;
    }
    if (w->blen <= 8)
        return 0;
    fst_put_le64(w->buf, w->frame_first);
    if (w->version >= 2 && !w->behind_tried) {
        w->behind_tried = 1;
        w->behind = fst_tbw_start(evnt_out, w, 8 + w->fmax + FST_TB_OP_MAX + 8);
    }
    int rc = wrote(w, w->behind ? fst_tbw_put(w->behind, &w->buf, w->blen, err) : evnt_out(w, w->buf, w->blen, err),
                   err);
    w->frames++;
    w->blen = 8;
    w->frame_first = w->insns - (uint64_t)w->pending; /* a pending SEQ run goes into the next frame */
    return rc;
}

static void __attribute__((noinline)) frame_full(fst_tw *w)
{
    fst_err e;
    frame_out(w, &e);
}

/* Room for one op; a full frame goes out first. Inline: two ops a jump come here. */
static inline uint8_t *op_room(fst_tw *w)
{
    if (w->blen + FST_TB_OP_MAX > w->fmax + 8)
        frame_full(w);
    return w->buf + w->blen;
}

static inline void seq_out(fst_tw *w)
{
    if (w->pending) {
        uint8_t *p = op_room(w);
        p[0] = (uint8_t)(FST_OP_SEQ | (w->pending - 1));
        w->blen++;
        w->pending = 0;
    }
}

/* A jump to a recent target further back than this is written as JMPA, its distance from
** the sequential address: a branch site's distance is the same every time it is taken,
** where the target's place among the recent ones changes with the jumps in between, and
** zstd packs what repeats. Measured on branchy recursive C (tests/cprogs/cgen.py, gcc -O2,
** two seeds, ~200 branch sites, a jump every 8-9 instructions): 0.076 and 0.081 bytes an
** instruction with JMP k for every k < 16, 0.050 and 0.053 with k < 4; tests/shapes'
** branchy -O2 -1.4 %; recursion and call-heavy FORTRAN within a few bytes. JMP k < 4 (and
** a SEQ) is what the reader's fast path takes (tracebin.h fst_tr_next_run). The reader
** moves a JMPA's target to the front as a JMP's: the recent targets stay the writer's. */

/* The reader keeps FST_TR_MRU recent targets, moved to the front as it reads each jump;
** the writer needs only the first FST_TW_JMP_NEAR of them, which after any jump are the
** target and the first of those before it that are not the target: the same list, cut
** short. (Searching and moving all 16 was a fifth of a module capture's own work on
** branchy code, where most jumps go to none of them.) */
static inline void jump_out(fst_tw *w, uint64_t to)
{
    uint64_t *a = w->near;
    /* entries from nnear on are 0 at first and never taken: k < nnear below */
    unsigned k = a[0] == to ? 0 : a[1] == to ? 1 : a[2] == to ? 2 : a[3] == to ? 3 : 4;
    uint8_t *p = op_room(w);
    if (k < w->nnear) {
        p[0] = (uint8_t)(FST_OP_JMP | k);
        w->blen++;
    } else {
        p[0] = FST_OP_JMPA;
        w->blen += 1 + fst_put_uvar(p + 1, fst_zigzag((int64_t)(to - w->cur)));
        k = w->nnear < FST_TW_JMP_NEAR ? w->nnear++ : FST_TW_JMP_NEAR - 1;
    }
    _Static_assert(FST_TW_JMP_NEAR == 4, "jump_out looks at 4 targets");
    switch (k) { /* entries k-1 .. 0 one down */
    case 3: a[3] = a[2]; /* fall through */
    case 2: a[2] = a[1]; /* fall through */
    case 1: a[1] = a[0]; /* fall through */
    default: a[0] = to;
    }
    w->cur = to;
}

/* A jump to `to` after the instructions written: the pending run and the jump as one TAKEN
** op when the run's last instruction is a relative branch to `to` (tracebin.h
** fst_tb_taken_to, from the bytes this code cache holds for it, as the reader's does), else
** a SEQ and a JMP or JMPA. Measured on gcc -O2 code
** (tests/shapes/branchy.c, a cgen.py program): 94 % and 93 % of their runs end in such a
** branch; the op stream 2.2 and 2.6 times shorter, the trace 22 % and 29 % smaller. */
static inline void jump_to(fst_tw *w, uint64_t to)
{
    /* where the run's last instruction branches: as fst_tw_seq_ib said from its bytes (the
    ** module's rebuild: a third of its jump_to's host instructions on gcc code were the
    ** look), else from the code cache. S/370 has no relative branch (but for Hercules'
    ** optional S/370 extension, whose runs then take a SEQ and a JMP, as any run may): no
    ** look there, a tenth of a rebuild of S/370 code's host instructions (callgrind, gen.py
    ** seed 15230) */
    if (w->pending && (w->last_known || fst_st_arch(w->state) != FST_ARCH_S370)) {
        uint64_t t = w->last_to;
        if (!w->last_known) {
            const fst_icache_ent *e = fst_icache_slot(&w->ic, w->last);
            t = e->len ? fst_tb_taken_to(e->bytes, w->last, w->state) : UINT64_MAX;
        }
        if (t == to) {
            uint8_t *p = op_room(w);
            p[0] = (uint8_t)(FST_OP_TAKEN | (w->pending - 1));
            w->blen++;
            w->pending = 0;
            w->cur = to;
            return;
        }
    }
    seq_out(w);
    jump_out(w, to);
}

/* The cache holds these bytes for the address (a call to memcmp for 2 to 6 bytes cost a
** tenth of converting a log). */
static inline int same_bytes(const fst_icache_ent *e, const uint8_t *b, int len)
{
    if (e->len != len || e->bytes[0] != b[0] || e->bytes[1] != b[1])
        return 0;
    for (int i = 2; i < len; i++)
        if (e->bytes[i] != b[i])
            return 0;
    return 1;
}

int fst_tw_insn(fst_tw *w, uint64_t addr, const uint8_t *bytes, int len)
{
    if (addr != w->cur)
        jump_to(w, addr);
    fst_icache_ent *e = fst_icache_slot(&w->ic, addr);
    w->cur = addr + (uint64_t)len;
    if (same_bytes(e, bytes, len)) {
        /* counted before a full run's SEQ op may begin a frame: that frame's first
        ** instruction is then the run's, insns - pending (counted after, the frame's header
        ** said one less than its ops hold: a FORTRAN load module's long straight runs) */
        w->last = addr;
        w->last_known = 0;
        w->insns++;
        if (++w->pending == FST_TB_SEQ_MAX)
            seq_out(w);
        return w->failed ? -1 : 0;
    }
    seq_out(w);
    uint8_t *p = op_room(w);
    p[0] = FST_OP_INS;
    memcpy(p + 1, bytes, (size_t)len);
    w->blen += 1 + (size_t)len;
    fst_icache_put(&w->ic, addr, bytes, len);
    w->learned++;
    w->insns++;
    return w->failed ? -1 : 0;
}

/* fst_tw_seq and fst_tw_seq_ib, each with its own copy (always inline): through one
** function the S/370 rebuild's took 6 % more host instructions (callgrind, gen.py 15230) */
static inline __attribute__((always_inline)) int seq_run(fst_tw *w, uint64_t addr, uint64_t k, uint64_t next,
                                                         uint64_t last, const uint8_t *last_ib)
{
    if (addr != w->cur)
        jump_to(w, addr);
    if (k) {
        w->last = last;
        /* w->state is the run's: a state op would have ended the run (op_begin) */
        w->last_known = last_ib != NULL;
        if (last_ib)
            w->last_to = fst_tb_taken_to(last_ib, last, w->state);
    }
    while (k) { /* as k calls of fst_tw_insn: a SEQ op at every FST_TB_SEQ_MAX, written (and
                ** a frame perhaps begun) once its instructions are counted */
        uint64_t room = (uint64_t)(FST_TB_SEQ_MAX - w->pending);
        uint64_t t = k < room ? k : room;
        w->pending += (int)t;
        w->insns += t;
        k -= t;
        if (w->pending == FST_TB_SEQ_MAX)
            seq_out(w);
    }
    w->cur = next;
    return w->failed ? -1 : 0;
}

int fst_tw_seq(fst_tw *w, uint64_t addr, uint64_t k, uint64_t next, uint64_t last)
{
    return seq_run(w, addr, k, next, last, NULL);
}

int fst_tw_seq_ib(fst_tw *w, uint64_t addr, uint64_t k, uint64_t next, uint64_t last, const uint8_t *last_ib)
{
    return seq_run(w, addr, k, next, last, last_ib);
}

_Static_assert(FST_TW_MARK_MRU <= FST_TR_MRU, "the writer's recent targets are the first of the reader's");

/* Every op but SEQ and JMP changes one of these. */
static uint64_t events_of(const fst_tw *w)
{
    return w->learned + w->pgmchks + w->intrs + w->waits + w->samples;
}

void fst_tw_mark_at(const fst_tw *w, fst_tw_mark *m)
{
    *m = (fst_tw_mark){ w->frames, w->insns, w->cur, events_of(w), w->blen, w->pending, w->have_state,
                        w->state, w->time, w->cpu, w->nnear, { 0 }, w->last };
    memcpy(m->mru, w->near, sizeof m->mru);
}

/* The writer is where the mark saw it, the frame being filled and its copy aside. */
static int at_mark(const fst_tw *w, const fst_tw_mark *m)
{
    return !w->failed && w->frames == m->frames && w->blen > m->blen && w->cur == m->cur &&
           w->pending == m->pending && w->have_state == m->have_state && w->state == m->state &&
           w->time == m->time && w->cpu == m->cpu && events_of(w) == m->events && w->nnear == m->mru_n &&
           (!w->pending || w->last == m->last) &&
           !memcmp(w->near, m->mru, sizeof m->mru[0] * m->mru_n);
}

#define REPEAT_MAX 16384 /* bytes of a copy (a FORTRAN mainline's pattern of calls: some hundreds) */

uint64_t fst_tw_repeat_ok(const fst_tw *w, const fst_tw_mark *m)
{
    return at_mark(w, m) && w->blen - m->blen <= REPEAT_MAX ? w->insns - m->insns : 0;
}

int fst_tw_repeat(fst_tw *w, const fst_tw_mark *m, uint64_t times)
{
    uint8_t pat[REPEAT_MAX];
    if (!fst_tw_repeat_ok(w, m))
        return 1;
    size_t len = w->blen - m->blen;
    uint64_t dk = w->insns - m->insns;
    memcpy(pat, w->buf + m->blen, len);
    while (times && !w->failed) {
        uint64_t fit = (w->fmax + 8 - w->blen) / len;
        if (!fit) { /* the frame goes out at a copy's end: its count of instructions before is right there */
            fst_err e;
            frame_out(w, &e);
            continue;
        }
        if (fit > times)
            fit = times;
        uint8_t *p = w->buf + w->blen;
        size_t total = (size_t)fit * len, done = len;
        memcpy(p, pat, len);
        while (done < total) { /* doubling: each memcpy copies what is there */
            size_t k = done < total - done ? done : total - done;
            memcpy(p + done, p, k);
            done += k;
        }
        w->blen += total;
        w->insns += fit * dk;
        times -= fit;
    }
    return w->failed ? -1 : 0;
}

static uint8_t *op_begin(fst_tw *w)
{
    seq_out(w);
    return op_room(w);
}

int fst_tw_state(fst_tw *w, uint32_t state)
{
    if (w->have_state && state == w->state)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_STATE;
    fst_put_le32(p + 1, state);
    w->blen += 5;
    w->state = state;
    w->have_state = 1;
    return w->failed ? -1 : 0;
}

int fst_tw_cpu(fst_tw *w, unsigned cpu)
{
    if (cpu == w->cpu)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_CPU;
    w->blen += 1 + fst_put_uvar(p + 1, cpu);
    w->cpu = cpu;
    return w->failed ? -1 : 0;
}

int fst_tw_pgmchk(fst_tw *w, uint32_t code, unsigned ilc)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_PGMCHK;
    size_t n = 1 + fst_put_uvar(p + 1, code);
    p[n++] = (uint8_t)ilc;
    w->blen += n;
    w->pgmchks++;
    return w->failed ? -1 : 0;
}

int fst_tw_intr(fst_tw *w, unsigned cls, uint32_t code)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_INTR;
    p[1] = (uint8_t)cls;
    w->blen += 2 + fst_put_uvar(p + 2, code);
    w->intrs++;
    return w->failed ? -1 : 0;
}

/* u8 length (8, 16, or 0 = not known) and the PSW bytes: WAIT and LPSW share it. */
static size_t put_psw(uint8_t *p, const uint8_t *psw, unsigned pswlen)
{
    if (pswlen != 8 && pswlen != 16)
        pswlen = 0;
    p[0] = (uint8_t)pswlen;
    if (pswlen)
        memcpy(p + 1, psw, pswlen);
    return 1 + pswlen;
}

int fst_tw_wait(fst_tw *w, unsigned kind, const uint8_t *psw, unsigned pswlen)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_WAIT;
    p[1] = (uint8_t)kind;
    w->blen += 2 + put_psw(p + 2, psw, pswlen);
    w->waits++;
    return w->failed ? -1 : 0;
}

int fst_tw_gap(fst_tw *w)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_GAP;
    w->blen++;
    return w->failed ? -1 : 0;
}

int fst_tw_time(fst_tw *w, uint32_t secs)
{
    if (secs == w->time)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_TIME;
    w->blen += 1 + fst_put_uvar(p + 1, secs);
    w->time = secs;
    return w->failed ? -1 : 0;
}

int fst_tw_lpsw(fst_tw *w, uint64_t operand, const uint8_t *psw, unsigned pswlen)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_LPSW;
    size_t n = 1 + fst_put_uvar(p + 1, operand);
    w->blen += n + put_psw(p + n, psw, pswlen);
    return w->failed ? -1 : 0;
}

int fst_tw_cr(fst_tw *w, unsigned crno, uint64_t value)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_CR;
    p[1] = (uint8_t)crno;
    w->blen += 2 + fst_put_uvar(p + 2, value);
    return w->failed ? -1 : 0;
}

static int regs_op(fst_tw *w, uint8_t op, uint16_t mask, const uint64_t gr[16])
{
    if (!mask)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = op;
    p[1] = (uint8_t)mask;
    p[2] = (uint8_t)(mask >> 8);
    size_t n = 3;
    for (int r = 0; r < 16; r++)
        if (mask >> r & 1)
            n += fst_put_uvar(p + n, gr[r]);
    w->blen += n;
    return w->failed ? -1 : 0;
}

int fst_tw_regs(fst_tw *w, uint16_t mask, const uint64_t gr[16]) { return regs_op(w, FST_OP_REGS, mask, gr); }
int fst_tw_bases(fst_tw *w, uint16_t mask, const uint64_t gr[16]) { return regs_op(w, FST_OP_BASES, mask, gr); }

int fst_tw_opnd(fst_tw *w, uint64_t addr)
{
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_OPND;
    w->blen += 1 + fst_put_uvar(p + 1, addr);
    return w->failed ? -1 : 0;
}

int fst_tw_oldpsw(fst_tw *w, uint64_t slot, const uint8_t *psw, unsigned pswlen)
{
    if (pswlen != 8 && pswlen != 16)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_OLDPSW;
    size_t n = 1 + fst_put_uvar(p + 1, slot);
    w->blen += n + put_psw(p + n, psw, pswlen);
    return w->failed ? -1 : 0;
}

int fst_tw_sample(fst_tw *w, uint64_t ns, const uint8_t *psw, unsigned pswlen)
{
    if (ns < w->sample_ns)
        ns = w->sample_ns; /* the clock is monotonic; a caller's mistake must not wrap the delta */
    uint8_t *p = op_begin(w);
    p[0] = FST_OP_SAMPLE;
    size_t n = 1 + fst_put_uvar(p + 1, ns - w->sample_ns);
    w->blen += n + put_psw(p + n, psw, pswlen);
    w->sample_ns = ns;
    w->samples++;
    return w->failed ? -1 : 0;
}

uint64_t fst_tw_samples(const fst_tw *w) { return w->samples; }

int fst_tw_flush(fst_tw *w, fst_err *err)
{
    seq_out(w);
    return frame_out(w, err) || settle(w, err) ? -1 : 0;
}

uint64_t fst_tw_insns(const fst_tw *w) { return w->insns; }
uint64_t fst_tw_bytes(const fst_tw *w)
{
    if (w->behind)
        fst_tbw_wait(w->behind, NULL);  /* the frame on its way counted when it is out */
    return w->written + (w->version >= 2 ? 0 : w->blen);
}

static void tw_free(fst_tw *w)
{
    fst_tbw_stop(w->behind);    /* the frame on its way first: it writes to fd */
    if (w->fd >= 0)
        close(w->fd);
    free(w->ic.t);
    free(w->buf);
    free(w->zbuf);
    fst_tbz_free(w->z);
    fst_tbz_free(w->ze);
    free(w->path);
    free(w);
}

void fst_tw_abandon(fst_tw *w)
{
    if (w)
        tw_free(w);
}

int fst_tw_close(fst_tw *w, int complete, const char *end, const fst_kv *ftr, fst_err *err)
{
    int rc = fst_tw_flush(w, err);
    size_t len = 0, cap = 512;
    uint8_t *p = fst_xmalloc(cap);
    char num[32];
    fst_kv_put(&p, &len, &cap, FST_FK_COMPLETE, complete ? "1" : "0");
    fst_kv_put(&p, &len, &cap, FST_FK_END, end ? end : "unknown");
    const struct { const char *k; uint64_t v; } counts[] = {
        { FST_FK_INSNS, w->insns }, { FST_FK_PGMCHKS, w->pgmchks },
        { FST_FK_INTRS, w->intrs }, { FST_FK_WAITS, w->waits },
    };
    if (w->samples) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)w->samples);
        fst_kv_put(&p, &len, &cap, FST_FK_SAMPLES, num);
    }
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)counts[i].v);
        fst_kv_put(&p, &len, &cap, counts[i].k, num);
    }
    for (const fst_kv *kv = ftr; kv && kv->key; kv++)
        if (kv->value)
            fst_kv_put(&p, &len, &cap, kv->key, kv->value);
    if (!rc)
        rc = write_frame(w, "FOOT", p, len, err);
    free(p);
    if (!rc && close(w->fd) != 0)
        rc = fst_errno(err, "%s: cannot close", w->path);
    w->fd = -1;
    tw_free(w);
    return rc;
}

