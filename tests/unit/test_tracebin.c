/* Unit tests of trace/tracebin.c: every record survives a round trip, in version 1, in
** version 2 (zstd-packed frames) and in version 3 (the EVNT frames one zstd stream); a
** repeat frames apart costs version 3 little; a trace cut at any byte reads as a prefix of the
** records and says it is incomplete; any changed byte is an error, never a silently
** different trace; an op this reader does not know is an error naming its byte offset. */
#include "trace/tracebin.h"
#include "common/bytes.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#define NREC 5000

static char path[64];
static fst_rec want[NREC + 64];
static size_t nwant;

/* A stream like a real one: loops, calls and returns, new bytes at an address now and
** then (self-modifying code), state and CPU switches, interruptions, PSWs loaded by LPSW
** and control registers loaded. Deterministic. */
static void make_trace_v(const char *p, int complete, unsigned version)
{
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(p, hdr, version, &err);
    assert_non_null(w);
    uint8_t img[64];
    for (int i = 0; i < 64; i++)
        img[i] = (uint8_t)i;
    assert_int_equal(fst_tw_image(w, 0x20000, img, sizeof img, &err), 0);
    uint32_t seed = 12345, state = 0x0D;
    uint64_t addr = 0x20000;
    unsigned cpu = 0;
    nwant = 0;
    fst_tw_state(w, state);
    for (int i = 0; nwant < NREC; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 16;
        fst_rec *x = &want[nwant];
        memset(x, 0, sizeof *x);
        if (r % 97 == 0) {
            state ^= FST_ST_PROBLEM;
            fst_tw_state(w, state);
            continue; /* a STATE record only when it changes: not checked one by one */
        }
        if (r % 211 == 0) {
            cpu ^= 1;
            fst_tw_cpu(w, cpu);
            continue;
        }
        if (r % 101 == 0) {
            fst_tw_pgmchk(w, r & 0xFF, 4);
            x->kind = FST_REC_PGMCHK;
            x->code = r & 0xFF;
            x->ilc = 4;
            x->cpu = (uint16_t)cpu;
            nwant++;
            continue;
        }
        if (r % 103 == 0) {                         /* an LPSW: 8- or 16-byte PSW, 64-bit operand */
            uint8_t psw[16];
            unsigned len = r & 1 ? 16 : 8;
            for (unsigned j = 0; j < len; j++)
                psw[j] = (uint8_t)(r >> (j % 8) ^ j);
            uint64_t operand = (uint64_t)r << (r % 40);
            fst_tw_lpsw(w, operand, psw, len);
            x->kind = FST_REC_LPSW;
            x->addr = operand;
            x->pswlen = (uint8_t)len;
            memcpy(x->psw, psw, len);
            x->cpu = (uint16_t)cpu;
            x->state = state;
            nwant++;
            continue;
        }
        if (r % 107 == 0) {                         /* a control register, any 64-bit value */
            uint64_t v = (uint64_t)seed * 0x9E3779B97F4A7C15ull;
            fst_tw_cr(w, r & 15, v);
            x->kind = FST_REC_CR;
            x->cls = (uint8_t)(r & 15);
            x->value = v;
            x->cpu = (uint16_t)cpu;
            x->state = state;
            nwant++;
            continue;
        }
        if (r % 13 == 0)
            addr = 0x20000 + (r % 64) * 2;          /* a branch */
        uint8_t b[6] = { (uint8_t)(r % 7 == 0 ? 0xD2 : r % 3 == 0 ? 0x58 : 0x18), 0x12, 0x34, 0x56, 0x78, 0x9A };
        if (r % 500 == 0)
            b[1] ^= 0xFF;                           /* the code changed */
        int len = b[0] == 0xD2 ? 6 : b[0] == 0x58 ? 4 : 2;
        fst_tw_insn(w, addr, b, len);
        x->kind = FST_REC_INSN;
        x->addr = addr;
        x->len = (uint8_t)len;
        memcpy(x->bytes, b, (size_t)len);
        x->cpu = (uint16_t)cpu;
        x->state = state;
        nwant++;
        addr += (uint64_t)len;
    }
    if (complete)
        assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
    else {
        assert_int_equal(fst_tw_flush(w, &err), 0);
        fst_tw_abandon(w);
    }
}

static void make_trace(const char *p, int complete) { make_trace_v(p, complete, FST_TRACE_VERSION); }

/* Read p; returns how many of the wanted records matched in order; -1 on a read error. */
static long read_back(const char *p, int *complete)
{
    fst_err err;
    fst_tr *r = fst_tr_open(p, &err);
    if (!r)
        return -1;
    fst_rec rec;
    size_t k = 0;
    int rc;
    while ((rc = fst_tr_next(r, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN && rec.kind != FST_REC_PGMCHK && rec.kind != FST_REC_LPSW &&
            rec.kind != FST_REC_CR)
            continue;
        const fst_rec *x = &want[k];
        if (k >= nwant || rec.kind != x->kind || rec.cpu != x->cpu)
            break;
        if (rec.kind == FST_REC_INSN &&
            (rec.addr != x->addr || rec.len != x->len || memcmp(rec.bytes, x->bytes, x->len) || rec.state != x->state))
            break;
        if (rec.kind == FST_REC_PGMCHK && (rec.code != x->code || rec.ilc != x->ilc))
            break;
        if (rec.kind == FST_REC_LPSW && (rec.addr != x->addr || rec.pswlen != x->pswlen ||
                                         memcmp(rec.psw, x->psw, x->pswlen) || rec.state != x->state))
            break;
        if (rec.kind == FST_REC_CR && (rec.cls != x->cls || rec.value != x->value || rec.state != x->state))
            break;
        k++;
    }
    if (rc > 0) { /* a record that differs */
        fst_tr_close(r);
        return -2;
    }
    *complete = rc == 0 ? fst_tr_complete(r, NULL) : -1;
    fst_tr_close(r);
    return rc < 0 ? -1 : (long)k;
}

static size_t slurp(uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static unsigned file_version(const char *p)
{
    fst_err err;
    fst_tr *r = fst_tr_open(p, &err);
    assert_non_null(r);
    unsigned v = fst_tr_version(r);
    fst_tr_close(r);
    return v;
}

/* A trace of `version` written (FST_TRACE_VERSION: what fst writes now) reads back record
** for record, complete, and says its version. */
static void roundtrip(unsigned version)
{
    make_trace_v(path, 1, version);
    int complete;
    assert_int_equal(read_back(path, &complete), (long)nwant);
    assert_int_equal(complete, 1);
    assert_int_equal(file_version(path), version);
}

static void test_roundtrip(void **state)
{
    (void)state;
    assert_int_equal(FST_TRACE_VERSION, 3);
    roundtrip(FST_TRACE_VERSION);
}

/* Versions 2 and 1, as fst wrote them before: still read, record for record. */
static void test_roundtrip_v2(void **state)
{
    (void)state;
    roundtrip(2);
}

static void test_roundtrip_v1(void **state)
{
    (void)state;
    roundtrip(1);
}

static void write_file(const char *p, const uint8_t *buf, size_t n);

/* Version 3's stream (tracebin.h): a round of records whose op bytes fill more than a frame,
** the same round again and again (a routine called with the same data), as the stream's
** window holds it, past the end of its first zstd frame (tracebin_zstd.c). Round r's
** record i is drawn from i alone: an instruction at one of 4096
** addresses (its bytes follow from the address), each one jumped to. */
#define V3_ROUND 80000
#define V3_ROUNDS 8

static void v3_insn(unsigned i, uint64_t *addr, uint8_t b[6], int *len)
{
    uint32_t x = (i + 1) * 2654435761u;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    *addr = 0x20000 + (uint64_t)(x % 4096) * 8;
    *len = (int)(*addr >> 3) % 3 * 2 + 2;
    for (int j = 0; j < 6; j++)
        b[j] = (uint8_t)(*addr >> (j + 3) ^ j);
    b[0] = *len == 2 ? 0x18 : *len == 4 ? 0x58 : 0xD2;
}

static void make_v3_rounds(const char *p, unsigned version)
{
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(p, hdr, version, &err);
    assert_non_null(w);
    fst_tw_state(w, 0x0D);
    for (unsigned r = 0; r < V3_ROUNDS; r++)
        for (unsigned i = 0; i < V3_ROUND; i++) {
            uint64_t a;
            uint8_t b[6];
            int len;
            v3_insn(i, &a, b, &len);
            fst_tw_insn(w, a, b, len);
        }
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
}

/* How many of the rounds' instructions p reads back in order; -1 on an error, -2 when a
** record differs. *complete as read_back's. */
static long v3_read(const char *p, int *complete, uint64_t *evnt)
{
    fst_err err;
    fst_tr *r = fst_tr_open(p, &err);
    if (!r)
        return -1;
    fst_rec rec;
    long k = 0;
    int rc;
    while ((rc = fst_tr_next(r, &rec, &err)) > 0) {
        if (rec.kind != FST_REC_INSN)
            continue;
        uint64_t a;
        uint8_t b[6];
        int len;
        v3_insn((unsigned)(k % V3_ROUND), &a, b, &len);
        if (k >= (long)V3_ROUND * V3_ROUNDS || rec.addr != a || rec.len != len || memcmp(rec.bytes, b, (size_t)len)) {
            fst_tr_close(r);
            return -2;
        }
        k++;
    }
    *complete = rc == 0 ? fst_tr_complete(r, NULL) : -1;
    if (evnt) {
        evnt[0] = fst_tr_frame_stats(r)[FST_FRAME_EVNT].frames;
        evnt[1] = fst_tr_frame_stats(r)[FST_FRAME_EVNT].unpacked;
    }
    fst_tr_close(r);
    return rc < 0 ? -1 : k;
}

static void test_v3_stream(void **state)
{
    (void)state;
    static uint8_t buf[4 << 20];
    int complete;
    uint64_t evnt[2] = { 0, 0 };
    make_v3_rounds(path, 2);
    assert_int_equal(v3_read(path, &complete, NULL), (long)V3_ROUND * V3_ROUNDS);
    size_t n2 = slurp(buf, sizeof buf);
    make_v3_rounds(path, 3);
    assert_int_equal(v3_read(path, &complete, evnt), (long)V3_ROUND * V3_ROUNDS);
    assert_int_equal(complete, 1);
    size_t n = slurp(buf, sizeof buf);
    print_message("v3: %llu EVNT frames, %zu bytes (version 2: %zu)\n", (unsigned long long)evnt[0], n, n2);
    assert_true(evnt[0] >= V3_ROUNDS);      /* a round is more than a frame */
    assert_true(evnt[1] > (9u << 18));      /* past the stream's first zstd frame (2 MiB) */
    assert_true(n * 3 < n2);                /* the rounds after the first cost little */
    char alt[80];
    snprintf(alt, sizeof alt, "%s.v3", path);
    /* cut anywhere: a prefix, incomplete, never an error nor another record */
    long last = 0;
    for (size_t len = 0; len < n; len += n / 97 + 1) {
        write_file(alt, buf, len);
        long k = v3_read(alt, &complete, NULL);
        if (len >= 64) {
            assert_true(k >= last);
            assert_int_equal(complete, 0);
            last = k;
        }
    }
    /* a byte of each EVNT frame changed, the frame's CRC made to match: an error, never a
    ** different trace (in the piece, or in the CRC-32 of what it unpacks to) */
    for (size_t off = 8; off + 12 <= n; off += 12 + fst_get_le32(buf + off + 4)) {
        uint32_t len = fst_get_le32(buf + off + 4);
        if (memcmp(buf + off, "EVNT", 4))
            continue;
        for (size_t at = 12; at < len; at += at < 20 ? 1 : len / 5 + 1) {
            static uint8_t bad[4 << 20];
            memcpy(bad, buf, n);
            bad[off + 8 + at] ^= 0x24;
            fst_put_le32(bad + off + 8 + len, (uint32_t)crc32(crc32(0L, bad + off, 8), bad + off + 8, len));
            write_file(alt, bad, n);
            long k = v3_read(alt, &complete, NULL);
            if (k != -1)
                fail_msg("frame at %zu, byte %zu changed: read as %ld records", off, at, k);
        }
    }
    /* the decoder a reader leaves for the next (tracebin_zstd.c), here one that stopped at
    ** damage or at a cut: the next reader reads its own trace whole, as a fresh one does */
    write_file(alt, buf, n);
    assert_int_equal(v3_read(alt, &complete, NULL), (long)V3_ROUND * V3_ROUNDS);
    assert_int_equal(complete, 1);
    write_file(alt, buf, n / 2);
    (void)v3_read(alt, &complete, NULL);
    assert_int_equal(complete, 0);
    write_file(alt, buf, n);
    assert_int_equal(v3_read(alt, &complete, NULL), (long)V3_ROUND * V3_ROUNDS);
    assert_int_equal(complete, 1);
    unlink(alt);
}

/* Version 2 packs: the same records take a fraction of version 1's bytes, and fst-dump's
** figures (stored, unpacked) say so per frame kind. */
static void test_v2_packs(void **state)
{
    (void)state;
    static uint8_t buf[1 << 20];
    make_trace_v(path, 1, 1);
    size_t n1 = slurp(buf, sizeof buf);
    make_trace_v(path, 1, 2);
    size_t n2 = slurp(buf, sizeof buf);
    assert_true(n2 * 3 < n1);
    fst_err err;
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    while (fst_tr_next(r, &rec, &err) > 0)
        ;
    const fst_frame_stats *st = fst_tr_frame_stats(r);
    assert_int_equal(st[FST_FRAME_HEAD].frames, 1);
    assert_int_equal(st[FST_FRAME_IMAG].frames, 1);
    assert_int_equal(st[FST_FRAME_IMAG].unpacked, 8 + 64);
    assert_int_equal(st[FST_FRAME_FOOT].frames, 1);
    assert_true(st[FST_FRAME_EVNT].frames >= 1);
    assert_true(st[FST_FRAME_EVNT].stored * 3 < st[FST_FRAME_EVNT].unpacked);
    fst_tr_close(r);
}

/* The new ops between instructions, with their edge values, read back field by field and
** in place: after the instruction they follow, before the next. */
static void test_lpsw_cr_records(void **state)
{
    (void)state;
    fst_err err;
    fst_tw *w = fst_tw_open(path, NULL, &err);
    assert_non_null(w);
    static const uint8_t b[4] = { 0x82, 0x00, 0xC0, 0x66 }, lr[2] = { 0x18, 0x12 };
    static const uint8_t psw8[8] = { 0x07, 0x0C, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00 };
    static const uint8_t psw16[16] = { 0x00, 0x00, 0x20, 0x01, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x6C };
    fst_tw_state(w, 0x0D);
    fst_tw_cpu(w, 3);
    fst_tw_insn(w, 0x20000, b, 4);
    assert_int_equal(fst_tw_lpsw(w, 0x20A0, psw8, 8), 0);
    fst_tw_insn(w, 0x20100, lr, 2);
    assert_int_equal(fst_tw_lpsw(w, UINT64_MAX, psw16, 16), 0);
    assert_int_equal(fst_tw_lpsw(w, 0x140, psw16, 12), 0); /* not a PSW length: PSW not known */
    assert_int_equal(fst_tw_cr(w, 1, 0x00123000), 0);
    assert_int_equal(fst_tw_cr(w, 15, UINT64_MAX), 0);
    fst_tw_insn(w, 0x20102, lr, 2);
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);

    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    fst_rec_kind kinds[16];
    int n = 0, k;
    while ((k = fst_tr_next(r, &rec, &err)) > 0) {
        if (rec.kind == FST_REC_STATE || rec.kind == FST_REC_CPU)
            continue;
        assert_true(n < 16);
        kinds[n++] = rec.kind;
        assert_int_equal(rec.cpu, 3);
        assert_int_equal(rec.state, 0x0D);
        if (rec.kind == FST_REC_LPSW && rec.pswlen == 8) {
            assert_int_equal(rec.addr, 0x20A0);
            assert_memory_equal(rec.psw, psw8, 8);
        } else if (rec.kind == FST_REC_LPSW && rec.pswlen == 16) {
            assert_true(rec.addr == UINT64_MAX);
            assert_memory_equal(rec.psw, psw16, 16);
        } else if (rec.kind == FST_REC_LPSW) {
            assert_int_equal(rec.pswlen, 0);
            assert_int_equal(rec.addr, 0x140);
        } else if (rec.kind == FST_REC_CR && rec.cls == 1) {
            assert_int_equal(rec.value, 0x00123000);
        } else if (rec.kind == FST_REC_CR) {
            assert_int_equal(rec.cls, 15);
            assert_true(rec.value == UINT64_MAX);
        }
    }
    assert_int_equal(k, 0);
    assert_int_equal(fst_tr_complete(r, NULL), 1);
    fst_tr_close(r);
    static const fst_rec_kind want_kinds[] = { FST_REC_INSN, FST_REC_LPSW, FST_REC_INSN, FST_REC_LPSW,
                                               FST_REC_LPSW, FST_REC_CR, FST_REC_CR, FST_REC_INSN };
    assert_int_equal(n, 8);
    for (int i = 0; i < n; i++)
        assert_int_equal(kinds[i], want_kinds[i]);
}

/* One frame with a valid CRC. */
static void put_frame(FILE *f, const char *tag, const uint8_t *p, uint32_t n)
{
    uint8_t h[8], t[4];
    memcpy(h, tag, 4);
    fst_put_le32(h + 4, n);
    fst_put_le32(t, (uint32_t)crc32(crc32(0L, h, 8), p, n));
    fwrite(h, 1, 8, f);
    fwrite(p, 1, n, f);
    fwrite(t, 1, 4, f);
}

/* What a reader from before an op was added does with a newer trace (what this reader
** does with an op from a later fst): it stops with an error naming the op's byte offset. */
static void test_unknown_op_names_its_offset(void **state)
{
    (void)state;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(FST_TRACE_MAGIC, 1, 8, f);
    static const uint8_t head[2] = { 1, 0 };   /* version 1: the ops as they are stored */
    put_frame(f, "HEAD", head, 2);
    /* u64 instructions before (0), INS 0DC0, then an op no fst knows */
    static const uint8_t ev[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0x51, 0x0D, 0xC0, 0x7F };
    put_frame(f, "EVNT", ev, 12);
    fclose(f);
    fst_err err;
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    assert_int_equal(fst_tr_next(r, &rec, &err), 1);
    assert_int_equal(rec.kind, FST_REC_INSN);
    assert_int_equal(fst_tr_next(r, &rec, &err), -1);
    /* magic 8 + HEAD 8+2+4 + EVNT header 8 + 11 payload bytes before the op = 41 */
    assert_non_null(strstr(err.msg, "byte 41: unknown event op 0x7F"));
    fst_tr_close(r);
}

static void cut_anywhere(unsigned version, size_t step)
{
    make_trace_v(path, 1, version);
    static uint8_t buf[1 << 20];
    size_t n = slurp(buf, sizeof buf);
    FILE *f;
    char cut[80];
    snprintf(cut, sizeof cut, "%s.cut", path);
    long last = -1;
    for (size_t len = 0; len < n; len += (len < 200 ? 1 : step)) {
        f = fopen(cut, "wb");
        fwrite(buf, 1, len, f);
        fclose(f);
        int complete = 0;
        long k = read_back(cut, &complete);
        assert_true(k != -2);                       /* never a different record */
        if (k >= 0) {
            assert_int_equal(complete, 0);          /* never "complete" */
            assert_true(k >= last);                 /* longer prefixes read no less */
            last = k;
        }
    }
    unlink(cut);
}

/* Versions 3 and 2 at every byte (the trace is a few KB), version 1 at every 37th. */
static void test_cut_anywhere(void **state)
{
    (void)state;
    cut_anywhere(3, 1);
    cut_anywhere(2, 1);
    cut_anywhere(1, 37);
}

static void any_changed_byte(unsigned version, size_t step)
{
    make_trace_v(path, 1, version);
    static uint8_t buf[1 << 20];
    size_t n = slurp(buf, sizeof buf);
    FILE *f;
    char bad[80];
    snprintf(bad, sizeof bad, "%s.bad", path);
    for (size_t at = 0; at < n; at += (at < 300 ? 1 : step)) {
        buf[at] ^= 0x10;
        f = fopen(bad, "wb");
        fwrite(buf, 1, n, f);
        fclose(f);
        buf[at] ^= 0x10;
        int complete = 0;
        long k = read_back(bad, &complete);
        /* an error, always: a changed length field too (it may make the frame run past the
        ** end of the file, but the whole frame is still there: damage, not a cut) */
        if (k != -1)
            fail_msg("byte %zu changed: read as %s (%ld records)", at, complete ? "complete" : "cut short", k);
    }
    unlink(bad);
}

static void test_any_changed_byte_is_an_error(void **state)
{
    (void)state;
    any_changed_byte(3, 1);
    any_changed_byte(2, 1);
    any_changed_byte(1, 53);
}

static void test_incomplete_without_footer(void **state)
{
    (void)state;
    make_trace(path, 0);
    int complete = 1;
    assert_int_equal(read_back(path, &complete), (long)nwant);
    assert_int_equal(complete, 0);
}

/* The error of reading p, "" when it reads to the end without one. */
static const char *read_error(const char *p, char *msg, size_t cap)
{
    fst_err err;
    fst_tr *r = fst_tr_open(p, &err);
    int rc = 0;
    if (r) {
        fst_rec rec;
        while ((rc = fst_tr_next(r, &rec, &err)) > 0)
            ;
        fst_tr_close(r);
    }
    snprintf(msg, cap, "%s", !r || rc < 0 ? err.msg : "");
    return msg;
}

static void write_file(const char *p, const uint8_t *buf, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* The offset of the first frame tagged `tag`, walking the frames. */
static size_t frame_at(const uint8_t *buf, size_t n, const char *tag)
{
    size_t off = 8;
    while (off + 8 <= n && memcmp(buf + off, tag, 4))
        off += 12 + fst_get_le32(buf + off + 4);
    assert_true(off + 8 <= n);
    return off;
}

/* TAKEN (tracebin.h): a run whose last instruction is a relative branch to where the next
** one runs is one op, for BRC back (negative), BRCL and a compare-and-branch forward, in
** 31-bit mode; a branch whose target is elsewhere is a SEQ and a jump. The op stream, byte
** for byte (version 1: not packed), then the records read back; then a TAKEN whose run
** ends at a branch's first byte changed (no branch any more) is an error naming the op. */
static void test_taken(void **state)
{
    (void)state;
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "ESA/390" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(path, hdr, 1, &err);
    assert_non_null(w);
    const uint32_t st = 1u | 1u << FST_ST_AMODE_SHIFT;     /* ESA/390, 31-bit */
    static const uint8_t lr[2] = { 0x18, 0x12 }, brc[4] = { 0xA7, 0xF4, 0xFF, 0xFF },   /* BRC 15,*-2 */
        brcl[6] = { 0xC0, 0xF4, 0x00, 0x00, 0x00, 0x40 },                              /* BRCL 15,*+128 */
        crj[6] = { 0xEC, 0x12, 0x00, 0x10, 0x80, 0x76 };                               /* CRJ 1,2,8,*+32 */
    assert_int_equal(fst_tw_state(w, st), 0);
    for (int i = 0; i < 3; i++) {   /* the loop: LR at 0x1000, BRC at 0x1002 back to it */
        assert_int_equal(fst_tw_insn(w, 0x1000, lr, 2), 0);
        assert_int_equal(fst_tw_insn(w, 0x1002, brc, 4), 0);
    }
    assert_int_equal(fst_tw_insn(w, 0x1006, brcl, 6), 0);  /* fell out (first time: INS) */
    assert_int_equal(fst_tw_insn(w, 0x1086, crj, 6), 0);   /* BRCL taken to 0x1086 */
    assert_int_equal(fst_tw_insn(w, 0x10A6, lr, 2), 0);    /* CRJ taken to 0x10A6 */
    assert_int_equal(fst_tw_insn(w, 0x1000, lr, 2), 0);    /* jumped (LR: no target) */
    assert_int_equal(fst_tw_insn(w, 0x1002, brc, 4), 0);
    assert_int_equal(fst_tw_insn(w, 0x1006, brcl, 6), 0);  /* BRC not taken */
    assert_int_equal(fst_tw_insn(w, 0x1086, crj, 6), 0);   /* TAKEN 2 */
    assert_int_equal(fst_tw_insn(w, 0x2000, lr, 2), 0);    /* CRJ branched elsewhere (an EX? a bad guess): SEQ, JMPA */
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
    static uint8_t buf[4096];
    size_t n = slurp(buf, sizeof buf), ev = frame_at(buf, n, "EVNT");
    static const uint8_t expect[] = {
        0x52, 0x09, 0x00, 0x00, 0x00,                   /* STATE: ESA/390, 31-bit */
        0x50, 0x80, 0x40,                               /* JMPA +0x1000 (zigzag 0x2000) */
        0x51, 0x18, 0x12, 0x51, 0xA7, 0xF4, 0xFF, 0xFF, /* INS LR, INS BRC: learned */
        0x40,                                           /* JMP 0: the BRC was an INS, not in a run */
        0x81,                                           /* TAKEN 1: LR, BRC, back to 0x1000 */
        0x01, 0x51, 0xC0, 0xF4, 0x00, 0x00, 0x00, 0x40, /* SEQ 1: LR, BRC not taken; INS BRCL */
        0x50, 0xF4, 0x01,                               /* JMPA +0x7A to 0x1086 */
        0x51, 0xEC, 0x12, 0x00, 0x10, 0x80, 0x76,       /* INS CRJ */
        0x50, 0x34, 0x51, 0x18, 0x12,                   /* JMPA +0x1A to 0x10A6, INS LR */
        0x42,                                           /* JMP 2: 0x1000 */
        0x82,                                           /* TAKEN 2: LR, BRC, BRCL to 0x1086 */
        0x00, 0x50, 0xE8, 0x3D, 0x51, 0x18, 0x12,       /* SEQ 0: CRJ, to 0x2000 not its target */
    };
    uint32_t len = fst_get_le32(buf + ev + 4);
    assert_int_equal(len, 8 + sizeof expect);
    assert_memory_equal(buf + ev + 8 + 8, expect, sizeof expect);
    static const uint64_t at[] = { 0x1000, 0x1002, 0x1000, 0x1002, 0x1000, 0x1002, 0x1006,
                                   0x1086, 0x10A6, 0x1000, 0x1002, 0x1006, 0x1086, 0x2000 };
    fst_tr *r = fst_tr_open(path, &err);
    assert_non_null(r);
    fst_rec rec;
    size_t k = 0;
    int rc;
    while ((rc = fst_tr_next(r, &rec, &err)) > 0)
        if (rec.kind == FST_REC_INSN) {
            assert_true(k < sizeof at / sizeof at[0]);
            assert_int_equal(rec.addr, at[k++]);
        }
    assert_int_equal(rc, 0);
    assert_int_equal(k, sizeof at / sizeof at[0]);
    fst_tr_close(r);
    /* TAKEN 2 made TAKEN 0: its run ends at the LR */
    size_t op = ev + 8 + 8 + sizeof expect - 8;
    assert_int_equal(buf[op], 0x82);
    buf[op] = 0x80;
    fst_put_le32(buf + ev + 8 + len, (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf + ev, 8 + len));
    write_file(path, buf, n);
    char msg[300], say[120];
    snprintf(say, sizeof say, "byte %zu: TAKEN run ends at an instruction that is not a relative branch", op);
    read_error(path, msg, sizeof msg);
    if (!strstr(msg, say))
        fail_msg("'%s' does not say '%s'", msg, say);
}

/* Damage the reader once misread: each is an error naming where it is. */
static void test_damage_is_named(void **state)
{
    (void)state;
    make_trace(path, 1);
    static uint8_t buf[1 << 20], two[2 << 20];
    size_t n = slurp(buf, sizeof buf);
    char bad[80], msg[800], want_msg[200];
    snprintf(bad, sizeof bad, "%s.bad", path);

    /* the last EVNT frame's length grown past the end of the file: damaged, not cut short */
    size_t foot = frame_at(buf, n, "FOOT"), ev = 8;
    for (size_t off = 8; off < foot; off += 12 + fst_get_le32(buf + off + 4))
        if (!memcmp(buf + off, "EVNT", 4))
            ev = off;
    uint32_t len = fst_get_le32(buf + ev + 4);
    fst_put_le32(buf + ev + 4, len + 5000);
    write_file(bad, buf, n);
    fst_put_le32(buf + ev + 4, len);
    snprintf(want_msg, sizeof want_msg, "byte %zu: the EVNT frame's length says %u bytes", ev + 4, len + 5000);
    assert_non_null(strstr(read_error(bad, msg, sizeof msg), want_msg));
    assert_non_null(strstr(msg, "the length field is damaged"));

    /* bytes after the footer; a second trace after the first (cat a b) */
    buf[n] = '\n';
    write_file(bad, buf, n + 1);
    snprintf(want_msg, sizeof want_msg, "byte %zu: data after the footer", n);
    assert_non_null(strstr(read_error(bad, msg, sizeof msg), want_msg));
    memcpy(two, buf, n);
    memcpy(two + n, buf, n);
    write_file(bad, two, 2 * n);
    assert_non_null(strstr(read_error(bad, msg, sizeof msg), "data after the footer: another trace appended"));

    /* version 259 (3 in the low byte), with a valid CRC: the whole u16 is the version */
    uint32_t hl = fst_get_le32(buf + 12);
    buf[17] = 1;
    fst_put_le32(buf + 16 + hl, (uint32_t)crc32(crc32(0L, buf + 8, 8), buf + 16, hl));
    write_file(bad, buf, n);
    assert_non_null(strstr(read_error(bad, msg, sizeof msg), "byte 16: trace version 259, this fst reads versions 1 to 3"));

    /* a SEQ op at an address with no known instruction: the op's own offset */
    FILE *f = fopen(bad, "wb");
    assert_non_null(f);
    fwrite(FST_TRACE_MAGIC, 1, 8, f);
    static const uint8_t head[2] = { 1, 0 };
    put_frame(f, "HEAD", head, 2);
    /* u64 0, INS 0DC0 (at 0, current address 2), JMPA -2 (back to 0), SEQ 1 (0 and 2: 2 is unknown) */
    static const uint8_t evs[15] = { 0, 0, 0, 0, 0, 0, 0, 0, 0x51, 0x0D, 0xC0, 0x50, 0x03, 0x01 };
    put_frame(f, "EVNT", evs, 14);
    fclose(f);
    /* magic 8 + HEAD 14 + EVNT header 8 + 13 payload bytes before the SEQ op = 43 */
    assert_non_null(strstr(read_error(bad, msg, sizeof msg), "byte 43: SEQ runs into an address"));
    unlink(bad);
}

/* Version 2 frames whose CRC matches but whose packed bytes are wrong (a writer's bug, or
** damage made to look whole): errors naming the frame, never a different trace. An op
** error inside a packed frame names the frame and the op's place in the unpacked stream. */
static void test_v2_bad_packing_is_named(void **state)
{
    (void)state;
    char msg[800];
    static const uint8_t head[2] = { 2, 0 };
    /* the op stream of the SEQ test above, packed as fst's writer packs (with zstd's checksum) */
    static const uint8_t ops[6] = { 0x51, 0x0D, 0xC0, 0x50, 0x03, 0x01 };
    uint8_t z[128];
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t zn = ZSTD_compress2(c, z, sizeof z, ops, sizeof ops);
    ZSTD_freeCCtx(c);
    assert_false(ZSTD_isError(zn));
    for (int variant = 0; variant < 4; variant++) {
        uint8_t ev[160] = { 0 };
        fst_put_le32(ev + 8, variant == 1 ? 7 : 6);     /* 1: says 7 bytes, unpacks to 6 */
        memcpy(ev + 12, z, zn);
        size_t evn = 12 + zn;
        if (variant == 2)
            ev[12 + zn - 5] ^= 0x55;                    /* 2: the packed bytes changed (its CRC-32 made to match) */
        if (variant == 3)
            evn++;                                      /* 3: a byte after the zstd frame */
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(FST_TRACE_MAGIC, 1, 8, f);
        put_frame(f, "HEAD", head, 2);
        put_frame(f, "EVNT", ev, (uint32_t)evn);
        fclose(f);
        read_error(path, msg, sizeof msg);
        if (variant == 0) /* magic 8 + HEAD 14: the frame at 22; the SEQ op is op byte 5 */
            assert_non_null(strstr(msg, "byte 22: EVNT frame, op stream byte 5: SEQ runs into an address"));
        else
            assert_non_null(strstr(msg, "byte 22: EVNT frame does not unpack"));
    }
    unlink(path);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/fst-test-tracebin.%d", (int)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_roundtrip_v1),
        cmocka_unit_test(test_roundtrip_v2),
        cmocka_unit_test(test_v3_stream),
        cmocka_unit_test(test_v2_packs),
        cmocka_unit_test(test_v2_bad_packing_is_named),
        cmocka_unit_test(test_cut_anywhere),
        cmocka_unit_test(test_any_changed_byte_is_an_error),
        cmocka_unit_test(test_incomplete_without_footer),
        cmocka_unit_test(test_lpsw_cr_records),
        cmocka_unit_test(test_unknown_op_names_its_offset),
        cmocka_unit_test(test_damage_is_named),
        cmocka_unit_test(test_taken),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
