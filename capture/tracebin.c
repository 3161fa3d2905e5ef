/* capture/tracebin.c — trace.bin v1 writer and reader; the format is in tracebin.h. */
#include "capture/tracebin.h"
#include "common/bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum {
    OP_SEQ = 0x00, OP_JMP = 0x40, OP_JMPA = 0x50, OP_INS = 0x51, OP_STATE = 0x52, OP_CPU = 0x53,
    OP_PGMCHK = 0x54, OP_INTR = 0x55, OP_WAIT = 0x56, OP_GAP = 0x57, OP_TIME = 0x58,
};
#define MRU_N 16
#define SEQ_MAX 64
#define FRAME_PAYLOAD (64 * 1024)
#define OP_MAX 40           /* longest op: WAIT with a 16-byte PSW */
#define MAX_FRAME (16u << 20)

static const char *arch_names[] = { "S/370", "ESA/390", "z/Arch", "unknown" };
const char *fst_arch_name(int arch) { return arch_names[arch & 3]; }
int fst_arch_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, arch_names[i]))
            return i;
    return -1;
}

/* ---- shared machinery: the instruction-bytes cache and the jump-target list ---- */

typedef struct icache_ent {
    uint64_t addr;
    uint8_t len;            /* 0 = empty slot */
    uint8_t bytes[6];
} icache_ent;

typedef struct icache {
    icache_ent *t;
    size_t cap, n;
} icache;

static size_t ihash(uint64_t a, size_t cap)
{
    a = (a >> 1) * 0x9E3779B97F4A7C15ull;
    return (size_t)(a >> 20) & (cap - 1);
}

static icache_ent *icache_slot(icache *c, uint64_t addr)
{
    if (!c->t) {
        c->cap = 4096;
        c->t = fst_xcalloc(c->cap, sizeof *c->t);
    }
    size_t i = ihash(addr, c->cap);
    while (c->t[i].len && c->t[i].addr != addr)
        i = (i + 1) & (c->cap - 1);
    return &c->t[i];
}

static void icache_put(icache *c, uint64_t addr, const uint8_t *b, int len)
{
    icache_ent *e = icache_slot(c, addr);
    if (!e->len) {
        if (++c->n * 2 > c->cap) { /* grow, then find the slot again */
            icache old = *c;
            c->cap *= 2;
            c->t = fst_xcalloc(c->cap, sizeof *c->t);
            for (size_t i = 0; i < old.cap; i++)
                if (old.t[i].len)
                    *icache_slot(c, old.t[i].addr) = old.t[i];
            free(old.t);
            e = icache_slot(c, addr);
        }
    }
    e->addr = addr;
    e->len = (uint8_t)len;
    memset(e->bytes, 0, sizeof e->bytes);
    memcpy(e->bytes, b, (size_t)len);
}

typedef struct mru {
    uint64_t a[MRU_N];
    int n;
} mru;

static int mru_find(const mru *m, uint64_t addr)
{
    for (int i = 0; i < m->n; i++)
        if (m->a[i] == addr)
            return i;
    return -1;
}

static void mru_front(mru *m, int k, uint64_t addr)
{
    if (k < 0) { /* insert */
        k = m->n < MRU_N ? m->n++ : MRU_N - 1;
    }
    memmove(&m->a[1], &m->a[0], (size_t)k * sizeof m->a[0]);
    m->a[0] = addr;
}

static void put_kv(uint8_t **p, size_t *len, size_t *cap, const char *k, const char *v)
{
    size_t kl = strlen(k) + 1, vl = strlen(v) + 1;
    if (*len + kl + vl > *cap) {
        *cap = (*len + kl + vl) * 2;
        *p = fst_xrealloc(*p, *cap);
    }
    memcpy(*p + *len, k, kl);
    memcpy(*p + *len + kl, v, vl);
    *len += kl + vl;
}

/* ---- writer ---- */

struct fst_tw {
    int fd;
    char *path;
    int failed;
    uint64_t written;
    uint8_t *buf;          /* frame being filled: header room + payload */
    size_t blen;           /* payload bytes in buf */
    uint64_t frame_first;  /* instructions before this frame */
    icache ic;
    mru jm;
    uint64_t cur;          /* current address */
    int pending;           /* SEQ instructions not yet written */
    uint32_t state;
    int have_state;
    unsigned cpu;
    uint32_t time;
    uint64_t insns, pgmchks, intrs, waits;
};

static int write_all(fst_tw *w, const void *p, size_t n, fst_err *err)
{
    const uint8_t *q = p;
    while (n) {
        ssize_t k = write(w->fd, q, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            w->failed = 1;
            return fst_errno(err, "%s: byte %llu: cannot write", w->path, (unsigned long long)w->written);
        }
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
    uLong crc = crc32(0L, h, 8);
    crc = crc32(crc, payload, (uInt)n);
    fst_put_le32(t, (uint32_t)crc);
    if (write_all(w, h, 8, err) || write_all(w, payload, n, err) || write_all(w, t, 4, err))
        return -1;
    return 0;
}

fst_tw *fst_tw_open(const char *path, const fst_kv *hdr, fst_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fst_errno(err, "%s: cannot create", path);
        return NULL;
    }
    fst_tw *w = fst_xcalloc(1, sizeof *w);
    w->fd = fd;
    w->path = fst_xstrdup(path);
    w->buf = fst_xmalloc(8 + FRAME_PAYLOAD + OP_MAX + 8);
    size_t len = 2, cap = 256;
    uint8_t *p = fst_xmalloc(cap);
    p[0] = FST_TRACE_VERSION;
    p[1] = 0;
    for (const fst_kv *kv = hdr; kv && kv->key; kv++)
        if (kv->value)
            put_kv(&p, &len, &cap, kv->key, kv->value);
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
    while (n) {
        size_t k = n > (1u << 20) ? (1u << 20) : n;
        uint8_t *f = fst_xmalloc(8 + k);
        fst_put_le64(f, addr);
        memcpy(f + 8, p, k);
        int rc = write_frame(w, "IMAG", f, 8 + k, err);
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
    if (w->failed)
        return fst_errf(err, "%s: an earlier write failed", w->path);
    if (w->blen <= 8)
        return 0;
    fst_put_le64(w->buf, w->frame_first);
    int rc = write_frame(w, "EVNT", w->buf, w->blen, err);
    w->blen = 8;
    w->frame_first = w->insns - (uint64_t)w->pending; /* a pending SEQ run goes into the next frame */
    return rc;
}

/* Room for one op; a full frame goes out first. */
static uint8_t *op_room(fst_tw *w)
{
    if (w->blen + OP_MAX > FRAME_PAYLOAD + 8) {
        fst_err e;
        frame_out(w, &e);
    }
    return w->buf + w->blen;
}

static void seq_out(fst_tw *w)
{
    if (w->pending) {
        uint8_t *p = op_room(w);
        p[0] = (uint8_t)(OP_SEQ | (w->pending - 1));
        w->blen++;
        w->pending = 0;
    }
}

static void jump_out(fst_tw *w, uint64_t to)
{
    int k = mru_find(&w->jm, to);
    uint8_t *p = op_room(w);
    if (k >= 0) {
        p[0] = (uint8_t)(OP_JMP | k);
        w->blen++;
    } else {
        p[0] = OP_JMPA;
        w->blen += 1 + fst_put_uvar(p + 1, fst_zigzag((int64_t)(to - w->cur)));
    }
    mru_front(&w->jm, k, to);
    w->cur = to;
}

int fst_tw_insn(fst_tw *w, uint64_t addr, const uint8_t *bytes, int len)
{
    if (addr != w->cur) {
        seq_out(w);
        jump_out(w, addr);
    }
    icache_ent *e = icache_slot(&w->ic, addr);
    if (e->len == len && !memcmp(e->bytes, bytes, (size_t)len)) {
        if (++w->pending == SEQ_MAX)
            seq_out(w);
    } else {
        seq_out(w);
        uint8_t *p = op_room(w);
        p[0] = OP_INS;
        memcpy(p + 1, bytes, (size_t)len);
        w->blen += 1 + (size_t)len;
        icache_put(&w->ic, addr, bytes, len);
    }
    w->cur = addr + (uint64_t)len;
    w->insns++;
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
    p[0] = OP_STATE;
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
    p[0] = OP_CPU;
    w->blen += 1 + fst_put_uvar(p + 1, cpu);
    w->cpu = cpu;
    return w->failed ? -1 : 0;
}

int fst_tw_pgmchk(fst_tw *w, uint32_t code, unsigned ilc)
{
    uint8_t *p = op_begin(w);
    p[0] = OP_PGMCHK;
    size_t n = 1 + fst_put_uvar(p + 1, code);
    p[n++] = (uint8_t)ilc;
    w->blen += n;
    w->pgmchks++;
    return w->failed ? -1 : 0;
}

int fst_tw_intr(fst_tw *w, unsigned cls, uint32_t code)
{
    uint8_t *p = op_begin(w);
    p[0] = OP_INTR;
    p[1] = (uint8_t)cls;
    w->blen += 2 + fst_put_uvar(p + 2, code);
    w->intrs++;
    return w->failed ? -1 : 0;
}

int fst_tw_wait(fst_tw *w, unsigned kind, const uint8_t *psw, unsigned pswlen)
{
    if (pswlen != 8 && pswlen != 16)
        pswlen = 0;
    uint8_t *p = op_begin(w);
    p[0] = OP_WAIT;
    p[1] = (uint8_t)kind;
    p[2] = (uint8_t)pswlen;
    if (pswlen)
        memcpy(p + 3, psw, pswlen);
    w->blen += 3 + pswlen;
    w->waits++;
    return w->failed ? -1 : 0;
}

int fst_tw_gap(fst_tw *w)
{
    uint8_t *p = op_begin(w);
    p[0] = OP_GAP;
    w->blen++;
    return w->failed ? -1 : 0;
}

int fst_tw_time(fst_tw *w, uint32_t secs)
{
    if (secs == w->time)
        return 0;
    uint8_t *p = op_begin(w);
    p[0] = OP_TIME;
    w->blen += 1 + fst_put_uvar(p + 1, secs);
    w->time = secs;
    return w->failed ? -1 : 0;
}

int fst_tw_flush(fst_tw *w, fst_err *err)
{
    seq_out(w);
    return frame_out(w, err);
}

uint64_t fst_tw_insns(const fst_tw *w) { return w->insns; }
uint64_t fst_tw_bytes(const fst_tw *w) { return w->written + w->blen; }

static void tw_free(fst_tw *w)
{
    if (w->fd >= 0)
        close(w->fd);
    free(w->ic.t);
    free(w->buf);
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
    put_kv(&p, &len, &cap, FST_FK_COMPLETE, complete ? "1" : "0");
    put_kv(&p, &len, &cap, FST_FK_END, end ? end : "unknown");
    const struct { const char *k; uint64_t v; } counts[] = {
        { FST_FK_INSNS, w->insns }, { FST_FK_PGMCHKS, w->pgmchks },
        { FST_FK_INTRS, w->intrs }, { FST_FK_WAITS, w->waits },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)counts[i].v);
        put_kv(&p, &len, &cap, counts[i].k, num);
    }
    for (const fst_kv *kv = ftr; kv && kv->key; kv++)
        if (kv->value)
            put_kv(&p, &len, &cap, kv->key, kv->value);
    if (!rc)
        rc = write_frame(w, "FOOT", p, len, err);
    free(p);
    if (!rc && close(w->fd) != 0)
        rc = fst_errno(err, "%s: cannot close", w->path);
    w->fd = -1;
    tw_free(w);
    return rc;
}

/* ---- reader ---- */

struct fst_tr {
    FILE *f;
    char *path;
    uint64_t off;          /* file offset of the next frame */
    uint8_t *hdr, *ftr;    /* key/value payloads */
    size_t hdrlen, ftrlen;
    fst_image_seg *img;
    size_t nimg;
    uint8_t *frame;        /* current EVNT payload */
    size_t flen, fpos;
    uint64_t frame_off;    /* file offset of the payload */
    int ended, have_foot, complete;
    char why[320];
    icache ic;
    mru jm;
    uint64_t cur;
    unsigned seq;          /* SEQ instructions still to hand out */
    uint32_t state;
    uint16_t cpu;
    uint64_t insns, ftr_insns;
    /* a frame read ahead while loading the image */
    char ptag[4];
    uint8_t *pbuf;
    size_t plen;
    int have_pending;
};

/* Read the next frame. 1 = got one, 0 = clean end of file or cut short (r->why set),
** -1 = damaged. */
static int read_frame(fst_tr *r, char tag[4], uint8_t **payload, size_t *len, fst_err *err)
{
    uint8_t h[8], t[4];
    size_t n = fread(h, 1, 8, r->f);
    if (n == 0 && feof(r->f))
        return 0;
    if (n < 8) {
        snprintf(r->why, sizeof r->why, "cut short at byte %llu (inside a frame header)", (unsigned long long)r->off);
        return 0;
    }
    uint32_t l = fst_get_le32(h + 4);
    if (l > MAX_FRAME)
        return fst_errf(err, "%s: byte %llu: frame length %u is not plausible (damaged file)", r->path,
                        (unsigned long long)r->off, l);
    uint8_t *p = fst_xmalloc(l ? l : 1);
    if (fread(p, 1, l, r->f) != l || fread(t, 1, 4, r->f) != 4) {
        free(p);
        snprintf(r->why, sizeof r->why, "cut short at byte %llu (inside a %.4s frame)", (unsigned long long)r->off,
                 (const char *)h);
        return 0;
    }
    uLong crc = crc32(crc32(0L, h, 8), p, l);
    if ((uint32_t)crc != fst_get_le32(t)) {
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

fst_tr *fst_tr_open(const char *path, fst_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fst_errno(err, "%s: cannot open", path);
        return NULL;
    }
    fst_tr *r = fst_xcalloc(1, sizeof *r);
    r->f = f;
    r->path = fst_xstrdup(path);
    char magic[8];
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, FST_TRACE_MAGIC, 8)) {
        fst_errf(err, "%s: byte 0: not an fst trace (no FSTTRACE magic)", path);
        fst_tr_close(r);
        return NULL;
    }
    r->off = 8;
    char tag[4];
    uint8_t *p;
    size_t len;
    int rc = read_frame(r, tag, &p, &len, err);
    if (rc <= 0 || memcmp(tag, "HEAD", 4) || len < 2) {
        if (rc == 0)
            fst_errf(err, "%s: byte 8: the trace has no header (%s)", path, r->why[0] ? r->why : "empty");
        else if (rc > 0) {
            fst_errf(err, "%s: byte 8: the first frame is not a header", path);
            free(p);
        }
        fst_tr_close(r);
        return NULL;
    }
    if (p[0] != FST_TRACE_VERSION) {
        fst_errf(err, "%s: byte 20: trace version %u, this fst reads version %u", path, p[0], FST_TRACE_VERSION);
        free(p);
        fst_tr_close(r);
        return NULL;
    }
    r->hdr = p;
    r->hdrlen = len;
    /* the storage image, up to the first other frame */
    for (;;) {
        rc = read_frame(r, tag, &p, &len, err);
        if (rc < 0) {
            fst_tr_close(r);
            return NULL;
        }
        if (rc == 0)
            break;
        if (!memcmp(tag, "IMAG", 4)) {
            if (len < 8) {
                free(p);
                fst_errf(err, "%s: byte %llu: IMAG frame too short", path, (unsigned long long)r->frame_off);
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

static const char *kv_get(const uint8_t *p, size_t len, size_t start, const char *key)
{
    size_t i = start;
    while (i < len) {
        const char *k = (const char *)p + i;
        size_t kl = strnlen(k, len - i);
        if (i + kl + 1 >= len)
            return NULL;
        const char *v = k + kl + 1;
        size_t vl = strnlen(v, len - (i + kl + 1));
        if (i + kl + 1 + vl >= len)
            return NULL; /* not NUL-terminated */
        if (!strcmp(k, key))
            return v;
        i += kl + 1 + vl + 1;
    }
    return NULL;
}

const char *fst_tr_header(const fst_tr *r, const char *key) { return kv_get(r->hdr, r->hdrlen, 2, key); }
const char *fst_tr_footer(const fst_tr *r, const char *key)
{
    return r->ftr ? kv_get(r->ftr, r->ftrlen, 0, key) : NULL;
}

/* Get the next EVNT frame into r->frame; 0 at the end (footer or cut short). */
static int next_frame(fst_tr *r, fst_err *err)
{
    for (;;) {
        char tag[4];
        uint8_t *p;
        size_t len;
        int rc;
        if (r->have_pending) {
            memcpy(tag, r->ptag, 4);
            p = r->pbuf;
            len = r->plen;
            r->have_pending = 0;
            r->pbuf = NULL;
            rc = 1;
        } else
            rc = read_frame(r, tag, &p, &len, err);
        if (rc <= 0)
            return rc;
        if (!memcmp(tag, "EVNT", 4)) {
            if (len < 8) {
                free(p);
                return fst_errf(err, "%s: byte %llu: EVNT frame too short", r->path, (unsigned long long)r->frame_off);
            }
            uint64_t first = fst_get_le64(p);
            if (first != r->insns) {
                free(p);
                return fst_errf(err, "%s: byte %llu: frame starts at instruction %llu, expected %llu (damaged file)",
                                r->path, (unsigned long long)r->frame_off, (unsigned long long)first,
                                (unsigned long long)r->insns);
            }
            free(r->frame);
            r->frame = p;
            r->flen = len;
            r->fpos = 8;
            return 1;
        }
        if (!memcmp(tag, "FOOT", 4)) {
            r->ftr = p;
            r->ftrlen = len;
            r->have_foot = 1;
            return 0;
        }
        free(p); /* a frame kind from a later version: skipped */
    }
}

static int bad_op(fst_tr *r, const char *what, fst_err *err)
{
    return fst_errf(err, "%s: byte %llu: %s (damaged file)", r->path, (unsigned long long)(r->frame_off + r->fpos),
                    what);
}

static int finish(fst_tr *r, fst_err *err)
{
    r->ended = 1;
    if (!r->have_foot) {
        char buf[240];
        snprintf(buf, sizeof buf, "%.200s, after instruction %llu", r->why[0] ? r->why : "no footer",
                 (unsigned long long)r->insns);
        snprintf(r->why, sizeof r->why, "%s", buf);
        return 0;
    }
    const char *v = fst_tr_footer(r, FST_FK_INSNS);
    if (!v || strtoull(v, NULL, 10) != r->insns)
        return fst_errf(err, "%s: the footer counts %s instructions but the frames hold %llu (damaged file)", r->path,
                        v ? v : "no", (unsigned long long)r->insns);
    const char *c = fst_tr_footer(r, FST_FK_COMPLETE);
    r->complete = c && !strcmp(c, "1");
    if (!r->complete) {
        const char *e = fst_tr_footer(r, FST_FK_END);
        snprintf(r->why, sizeof r->why, "the capture was stopped (%s) after instruction %llu", e ? e : "unknown",
                 (unsigned long long)r->insns);
    }
    return 0;
}

int fst_tr_next(fst_tr *r, fst_rec *rec, fst_err *err)
{
    if (r->seq) { /* fast path: the next instruction of a SEQ run */
        icache_ent *e = icache_slot(&r->ic, r->cur);
        if (!e->len)
            return bad_op(r, "SEQ runs into an address with no known instruction", err);
        r->seq--;
        rec->kind = FST_REC_INSN;
        rec->addr = r->cur;
        rec->len = e->len;
        memcpy(rec->bytes, e->bytes, 6);
        rec->cpu = r->cpu;
        rec->state = r->state;
        r->cur += e->len;
        r->insns++;
        return 1;
    }
    for (;;) {
        if (r->ended)
            return 0;
        if (r->fpos >= r->flen) {
            int rc = next_frame(r, err);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                if (finish(r, err))
                    return -1;
                rec->kind = FST_REC_END;
                return 0;
            }
            continue;
        }
        const uint8_t *p = r->frame + r->fpos, *end = r->frame + r->flen;
        uint8_t op = *p;
        uint64_t v;
        size_t n;
        rec->cpu = r->cpu;
        if (op < OP_JMP) {
            r->seq = (unsigned)op + 1;
            r->fpos++;
            return fst_tr_next(r, rec, err);
        }
        if (op < OP_JMPA) {
            int k = op & 0x0F;
            if (k >= r->jm.n)
                return bad_op(r, "jump to an unknown recent target", err);
            uint64_t to = r->jm.a[k];
            mru_front(&r->jm, k, to);
            r->cur = to;
            r->fpos++;
            continue;
        }
        switch (op) {
        case OP_JMPA:
            if (!(n = fst_get_uvar(p + 1, end, &v)))
                return bad_op(r, "truncated jump", err);
            r->cur += (uint64_t)fst_unzigzag(v);
            mru_front(&r->jm, mru_find(&r->jm, r->cur), r->cur);
            r->fpos += 1 + n;
            continue;
        case OP_INS: {
            if (p + 1 >= end)
                return bad_op(r, "truncated instruction", err);
            int len = fst_insn_len(p[1]);
            if (p + 1 + len > end)
                return bad_op(r, "truncated instruction", err);
            icache_put(&r->ic, r->cur, p + 1, len);
            rec->kind = FST_REC_INSN;
            rec->addr = r->cur;
            rec->len = (uint8_t)len;
            memset(rec->bytes, 0, 6);
            memcpy(rec->bytes, p + 1, (size_t)len);
            rec->state = r->state;
            r->cur += (uint64_t)len;
            r->insns++;
            r->fpos += 1 + (size_t)len;
            return 1;
        }
        case OP_STATE:
            if (p + 5 > end)
                return bad_op(r, "truncated state", err);
            r->state = fst_get_le32(p + 1);
            r->fpos += 5;
            rec->kind = FST_REC_STATE;
            rec->state = r->state;
            return 1;
        case OP_CPU:
            if (!(n = fst_get_uvar(p + 1, end, &v)) || v > 0xFFFF)
                return bad_op(r, "bad CPU number", err);
            r->cpu = (uint16_t)v;
            r->fpos += 1 + n;
            rec->kind = FST_REC_CPU;
            rec->cpu = r->cpu;
            rec->state = r->state;
            return 1;
        case OP_PGMCHK:
            if (!(n = fst_get_uvar(p + 1, end, &v)) || p + 1 + n >= end)
                return bad_op(r, "truncated program check", err);
            rec->kind = FST_REC_PGMCHK;
            rec->code = (uint32_t)v;
            rec->ilc = p[1 + n];
            rec->state = r->state;
            r->fpos += 2 + n;
            return 1;
        case OP_INTR:
            if (p + 2 > end || !(n = fst_get_uvar(p + 2, end, &v)))
                return bad_op(r, "truncated interruption", err);
            rec->kind = FST_REC_INTR;
            rec->cls = p[1];
            rec->code = (uint32_t)v;
            rec->state = r->state;
            r->fpos += 2 + n;
            return 1;
        case OP_WAIT:
            if (p + 3 > end || (p[2] != 0 && p[2] != 8 && p[2] != 16) || p + 3 + p[2] > end)
                return bad_op(r, "truncated wait", err);
            rec->kind = FST_REC_WAIT;
            rec->cls = p[1];
            rec->pswlen = p[2];
            memcpy(rec->psw, p + 3, p[2]);
            rec->state = r->state;
            r->fpos += 3 + (size_t)p[2];
            return 1;
        case OP_GAP:
            rec->kind = FST_REC_GAP;
            rec->state = r->state;
            r->fpos++;
            return 1;
        case OP_TIME:
            if (!(n = fst_get_uvar(p + 1, end, &v)))
                return bad_op(r, "truncated time", err);
            rec->kind = FST_REC_TIME;
            rec->code = (uint32_t)v;
            rec->state = r->state;
            r->fpos += 1 + n;
            return 1;
        default: {
            char what[48];
            snprintf(what, sizeof what, "unknown event op 0x%02X", op);
            return bad_op(r, what, err);
        }
        }
    }
}

int fst_tr_complete(const fst_tr *r, const char **why)
{
    if (why)
        *why = r->complete ? NULL : r->why;
    return r->complete;
}

uint64_t fst_tr_insns(const fst_tr *r) { return r->insns; }
const char *fst_tr_path(const fst_tr *r) { return r->path; }

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
    if (r->f)
        fclose(r->f);
    for (size_t i = 0; i < r->nimg; i++)
        free(r->img[i].data);
    free(r->img);
    free(r->hdr);
    free(r->ftr);
    free(r->frame);
    free(r->pbuf);
    free(r->ic.t);
    free(r->path);
    free(r);
}
