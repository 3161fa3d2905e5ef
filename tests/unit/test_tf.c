/* Unit tests of capture/read/tf.c on the trace files of ../shared/fixtures/hercules-4.9/tf
** (format 2, little-endian, 16-byte time stamps): each is rewritten here into the other
** formats (0, 1), the other byte order and 8-byte time stamps, and must give the same
** records; then damage: a cut at every record boundary and inside records, every header
** byte flipped, a header never rewritten, impossible lengths, unknown types, bad magic.
** (End-to-end comparisons with the text logs are in tests/e2e/capture_tf.sh.) */
#include "capture/read/tf.h"
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

#include "tests/unit/fixture.h"

static const char *const fixtures[] = { "io370", "esapc", "dat390", "zarch", "mp2", "bigloop_n100" };

static uint8_t *load(const char *name, size_t *n)
{
    char rel[128];
    snprintf(rel, sizeof rel, "hercules-4.9/tf/%s.tf", name);
    uint8_t *p = (uint8_t *)fst_test_fixture(rel, n);
    if (!p)
        fail_msg("cannot read fixture %s", rel);
    return p;
}

static const char *tmp(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/fst-test-tf.%d", (int)getpid());
    return path;
}

/* What a file gives, fed in pieces of `step` bytes. */
typedef struct result {
    int rc;              /* -1: an error (msg) */
    char msg[768];
    fst_tf_stats st;
    int complete;
    char *recs;          /* one line per trace record, TIME included */
    size_t nrecs;
} result;

static void render(fst_tr *r, result *res)
{
    size_t len = 0, cap = 1 << 16;
    res->recs = malloc(cap);
    res->recs[0] = 0;
    fst_rec rec;
    fst_err err;
    while (fst_tr_next(r, &rec, &err) > 0) {
        char b[160];
        fst_rec z = rec; /* the fields each kind has (others may hold older values) */
        int k = rec.kind;
        int o = snprintf(b, sizeof b, "%u %d %08X %llX %llX %u %u %X:", rec.cpu, k, rec.state,
                         (unsigned long long)(k == FST_REC_INSN || k == FST_REC_LPSW ? z.addr : 0),
                         (unsigned long long)(k == FST_REC_CR ? z.value : 0),
                         k == FST_REC_INTR || k == FST_REC_WAIT || k == FST_REC_CR ? z.cls : 0u,
                         k == FST_REC_PGMCHK ? z.ilc : 0u,
                         k == FST_REC_PGMCHK || k == FST_REC_INTR || k == FST_REC_TIME ? z.code : 0u);
        for (int i = 0; rec.kind == FST_REC_INSN && i < rec.len; i++)
            o += snprintf(b + o, sizeof b - (size_t)o, "%02X", rec.bytes[i]);
        for (int i = 0; (rec.kind == FST_REC_WAIT || rec.kind == FST_REC_LPSW) && i < rec.pswlen; i++)
            o += snprintf(b + o, sizeof b - (size_t)o, "%02X", rec.psw[i]);
        if (len + (size_t)o + 2 > cap)
            res->recs = realloc(res->recs, cap *= 2);
        len += (size_t)snprintf(res->recs + len, cap - len, "%s\n", b);
        res->nrecs++;
    }
}

static result run(const uint8_t *p, size_t n, size_t step)
{
    result res = { 0 };
    fst_err err;
    fst_tw *w = fst_tw_open(tmp(), NULL, &err);
    assert_non_null(w);
    fst_em *em = fst_em_new(w, 0);
    fst_tf *t = fst_tf_new(em, "x.tf");
    for (size_t i = 0; i < n && !res.rc; i += step)
        res.rc = fst_tf_feed(t, p + i, i + step > n ? n - i : step, &err);
    if (!res.rc)
        res.rc = fst_tf_finish(t, &err);
    if (res.rc)
        snprintf(res.msg, sizeof res.msg, "%s", err.msg);
    res.st = *fst_tf_getstats(t);
    char why[300];
    res.complete = !res.rc && fst_tf_complete(t, why, sizeof why);
    fst_tf_free(t);
    fst_em_free(em);
    assert_int_equal(fst_tw_close(w, 1, "eof", NULL, &err), 0);
    fst_tr *r = fst_tr_open(tmp(), &err);
    assert_non_null(r);
    render(r, &res);
    fst_tr_close(r);
    unlink(tmp());
    return res;
}

/* ---- rewriting a file into another format, byte order, time-stamp size ---- */

/* Multi-byte fields of the record bodies, in order: "w" or "w*n" (n fields of w bytes). */
#define PSW "1*8 4 4 8 8 2 1*6"
#define TFOP "8 8 1*16 2 1*6"
static const char *body_fields(unsigned type)
{
    switch (type) {
    case 2324: return PSW " 1*16";
    case 2326: return "1*4 2 2 " TFOP " " TFOP;
    case 2269: return "1*8 8*16";
    case 2271: return "8*16";
    case 2270: return "8*16 1*8";
    case 2272: return "4*16";
    case 2276: return "4 1*4";
    case 800: return PSW " 1*8";
    case 801: return "2 1 1 4 4 1*4";
    case 804: return "1*8 2 1*6";
    case 806: return "4 4 4 1*4";
    case 814: return "2 1 1 4 8 1*8";
    case 840: return "8 2 1*6";
    default: return ""; /* text, or no multi-byte fields: copied as they are */
    }
}

static void put(uint8_t *o, uint64_t v, int w, int be)
{
    for (int i = 0; i < w; i++)
        o[be ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int w)
{
    uint64_t v = 0;
    for (int i = w - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Copy n bytes of fields described by spec from little-endian `in` to `out` in order be. */
static void fields(const char *spec, const uint8_t *in, uint8_t *out, size_t n, int be)
{
    size_t o = 0;
    for (const char *s = spec; *s && o < n;) {
        int w = (int)strtol(s, (char **)&s, 10), k = 1;
        if (*s == '*')
            k = (int)strtol(s + 1, (char **)&s, 10);
        for (; k > 0 && o < n; k--, o += (size_t)w)
            put(out + o, get_le(in + o, w), w, be);
        while (*s == ' ')
            s++;
    }
    if (o < n)
        memcpy(out + o, in + o, n - o);
}

/* A time stamp (16 bytes in) as tv bytes out. */
static size_t put_time(uint8_t *o, const uint8_t *in, int tv, int be)
{
    put(o, get_le(in, 8), tv / 2, be);
    put(o + tv / 2, get_le(in + 8, 8), tv / 2, be);
    return (size_t)tv;
}

/* The fixture (format 2, little-endian, 16-byte stamps) as format fmt, order be, stamps of tv. */
static uint8_t *convert(const uint8_t *in, size_t n, int fmt, int be, int tv, size_t *outn)
{
    uint8_t *out = calloc(1, n);
    size_t engs = in[5], ptyp = (engs + 7) & ~(size_t)7, o = 0;
    memcpy(out, in, 6);
    out[3] = (uint8_t)('0' + fmt);
    out[4] = (uint8_t)be;
    for (int i = 0; i < 3; i++)
        put(out + 6 + 2 * i, get_le(in + 6 + 2 * i, 2), 2, be);
    o = 16;
    o += put_time(out + o, in + 16, tv, be);
    o += put_time(out + o, in + 32, tv, be);
    put(out + o, get_le(in + 48, 8), 8, be);
    put(out + o + 8, get_le(in + 56, 8), 8, be);
    memcpy(out + o + 16, in + 64, 128 + ptyp);
    o += 16 + 128 + ptyp;
    unsigned prev = 0;
    for (size_t i = 192 + ptyp; i + 8 <= n;) {
        unsigned curr = (unsigned)get_le(in + i + 2, 2), type = (unsigned)get_le(in + i + 6, 2);
        unsigned ncurr = curr - (16u - (unsigned)tv) - (fmt < 2 ? 24u : 0u);
        put(out + o, prev, 2, be);
        put(out + o + 2, ncurr, 2, be);
        put(out + o + 4, get_le(in + i + 4, 2), 2, be);
        put(out + o + 6, type, 2, be);
        size_t h = 8 + put_time(out + o + 8, in + i + 8, tv, be);
        out[o + h] = in[i + 24];                                 /* arch_mode */
        out[o + h + 1] = in[i + 25];                             /* lcss */
        put(out + o + h + 2, get_le(in + i + 26, 2), 2, be);     /* devnum */
        h += 8;
        if (fmt >= 2) {
            put(out + o + h, get_le(in + i + 32, 8), 8, be);     /* thread id */
            memcpy(out + o + h + 8, in + i + 40, 16);            /* thread name */
            h += 24;
        }
        fields(body_fields(type), in + i + 56, out + o + h, curr - 56, be);
        o += ncurr;
        i += curr;
        prev = ncurr;
    }
    *outn = o;
    return out;
}

static void test_formats_and_byte_orders(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t n;
        uint8_t *in = load(fixtures[f], &n);
        result ref = run(in, n, n);
        assert_int_equal(ref.rc, 0);
        assert_true(ref.complete);
        assert_int_equal(ref.st.format, 2);
        assert_int_equal(ref.st.tvsize, 16);
        for (int fmt = 0; fmt <= 2; fmt++)
            for (int be = 0; be <= 1; be++)
                for (int tv = 8; tv <= 16; tv += 8) {
                    size_t m;
                    uint8_t *c = convert(in, n, fmt, be, tv, &m);
                    result got = run(c, m, fmt == 1 ? 7 : m); /* format 1 in 7-byte pieces */
                    if (got.rc)
                        fail_msg("%s as format %d, %s, %d-byte stamps: %s", fixtures[f], fmt, be ? "big" : "little",
                                 tv, got.msg);
                    assert_int_equal(got.st.format, fmt);
                    assert_int_equal(got.st.bigend, be);
                    assert_int_equal(got.st.tvsize, tv);
                    assert_true(got.complete);
                    assert_string_equal(got.recs, ref.recs);
                    free(got.recs);
                    free(c);
                }
        free(ref.recs);
        free(in);
    }
}

/* The records of a result without its TIME records (kind 8), for prefix comparisons. */
static char *no_time(const char *recs)
{
    char *out = malloc(strlen(recs) + 1), *o = out;
    for (const char *l = recs; *l;) {
        const char *e = strchr(l, '\n');
        unsigned cpu;
        int kind;
        if (sscanf(l, "%u %d", &cpu, &kind) == 2 && kind != 8) {
            memcpy(o, l, (size_t)(e - l + 1));
            o += e - l + 1;
        }
        l = e + 1;
    }
    *o = 0;
    return out;
}

/* Cut at every record boundary, 4 bytes into each record and in the middle of each: the
** prefix is read, marked cut (inside a record) or incomplete (the header counts more). */
static void test_cut(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = load("esapc", &n);
    result full = run(in, n, n);
    char *fr = no_time(full.recs);
    for (size_t b = 320; b < n;) {
        size_t curr = (size_t)get_le(in + b + 2, 2);
        size_t cuts[3] = { b, b + 4, b + curr / 2 };
        for (int k = 0; k < 3; k++) {
            result r = run(in, cuts[k], 64);
            assert_int_equal(r.rc, 0);
            assert_false(r.complete);
            assert_int_equal(r.st.cut, k != 0);
            if (k)
                assert_int_equal(r.st.cut_at, b);
            char *cr = no_time(r.recs);
            if (strncmp(cr, fr, strlen(cr)))
                fail_msg("cut at byte %zu: not a prefix of the whole file's records", cuts[k]);
            free(cr);
            free(r.recs);
        }
        b += curr;
    }
    result whole = run(in, n, 64);
    assert_true(whole.complete);
    assert_string_equal(whole.recs, full.recs);
    /* inside the header */
    for (size_t cut = 0; cut < 320; cut += 53) {
        result r = run(in, cut, 64);
        assert_int_equal(r.rc, 0);
        assert_true(r.st.cut);
        assert_int_equal(r.nrecs, 0);
        free(r.recs);
    }
    free(whole.recs);
    free(fr);
    free(full.recs);
    free(in);
}

/* Every byte of the header and of the first records' headers flipped (all bits): an error
** naming a byte, or the same records, or a difference that is reported (a warning, a
** skipped record, a file no longer complete). Never a silently different trace. */
static void test_flips(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = load("io370", &n);
    result ref = run(in, n, n);
    uint8_t *c = malloc(n);
    size_t ranges[][2] = { { 0, 320 }, { 320, 376 }, { 464, 520 }, { 656, 712 }, { 2560, 2616 }, { 2664, 2720 } };
    int errors = 0, same = 0, reported = 0;
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
        for (size_t i = ranges[k][0]; i < ranges[k][1]; i++) {
            memcpy(c, in, n);
            c[i] ^= 0xFF;
            result r = run(c, n, n);
            if (r.rc) {
                if (!strstr(r.msg, "x.tf: byte "))
                    fail_msg("byte %zu flipped: an error without a byte offset: %s", i, r.msg);
                errors++;
            } else if (!strcmp(r.recs, ref.recs) && r.complete)
                same++;
            else if (r.st.warnings || r.st.unknown || !r.complete)
                reported++;
            else
                fail_msg("byte %zu flipped: a different trace, and nothing said", i);
            free(r.recs);
        }
    assert_true(errors > 100);
    assert_true(same > 50);
    assert_true(reported > 10);
    free(c);
    free(ref.recs);
    free(in);
}

static void expect_error(const uint8_t *p, size_t n, const char *what);

/* Hercules killed before it rewrote the header: no end time, counts of the first write. */
static void test_never_closed(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = load("zarch", &n);
    result ref = run(in, n, n);
    memset(in + 32, 0, 32); /* end time, instruction and device counts */
    result r = run(in, n, 1000);
    assert_int_equal(r.rc, 0);
    assert_false(r.st.closed);
    assert_false(r.complete);
    assert_int_equal(r.st.groups, 37);
    assert_string_equal(r.recs, ref.recs);
    free(r.recs);
    /* a writer that cannot seek back (a pipe) appends its final header instead */
    uint8_t *c = malloc(n + 330);
    memcpy(c, in, n);
    uint8_t *orig = load("zarch", &n);
    memcpy(c + n, orig, 320);
    r = run(c, n + 320, 100);
    assert_int_equal(r.rc, 0);
    assert_true(r.st.closed);
    assert_true(r.complete);
    assert_string_equal(r.recs, ref.recs);
    free(r.recs);
    memcpy(c + n + 320, "\0\0\0\0\0\0\0\0", 8); /* nothing may follow it */
    expect_error(c, n + 328, "byte 18688: bytes after the header written again at the end");
    c[n + 3] = '1';
    expect_error(c, n + 320, "byte 18368: a header that is not this file's");
    free(orig);
    free(c);
    free(ref.recs);
    free(in);
}

/* A program check whose instruction could not be fetched is re-displayed as a lone
** TF02269 with its fetch-error flag (notes §9.4): made here from esapc's addressing
** exception (its re-display group at 8008: TF02326, TF02269 at 8152, TF02324 at 8344). */
static void test_fetch_error(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = load("esapc", &n), *c = malloc(n);
    result ref = run(in, n, n);
    memcpy(c, in, 8344);
    memcpy(c + 8344, in + 8456, n - 8456);
    c[8152 + 56] = 1;  /* ifetch_error */
    c[8344] = 192;     /* the next record's link: the TF02269 before it */
    memset(c + 48, 0, 8); /* the header's count: one TF02324 less */
    c[48] = 25;
    result r = run(c, n - 112, n);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.st.fetch_errors, 1);
    assert_int_equal(r.st.groups, 25);
    assert_true(r.complete);
    assert_string_equal(r.recs, ref.recs); /* a re-display either way: the same trace */
    free(r.recs);
    free(ref.recs);
    free(c);
    free(in);
}

/* The records an interruption record gives, from io370's TF00804 (at 2664, 72 bytes: the
** same size as TF00806 and TF00840, so that its type and body can be changed in place). */
static char *intr_records(uint16_t type, const uint8_t *body, size_t blen)
{
    size_t n;
    uint8_t *c = load("io370", &n);
    put(c + 2664 + 6, type, 2, 0);
    memcpy(c + 2664 + 56, body, blen);
    result r = run(c, n, n);
    assert_int_equal(r.rc, 0);
    free(c);
    return r.recs;
}

static void test_interruptions(void **state)
{
    (void)state;
    /* kind 5 = INTR: class 1 I/O (the device), 2 external (the interruption code) */
    char *recs = intr_records(804, (const uint8_t *)"\0\x02\0\x30\x0E\0\0\x50\x0C\0", 10);
    assert_non_null(strstr(recs, " 5 00000000 0 0 1 0 C:\n"));
    free(recs);
    recs = intr_records(806, (const uint8_t *)"\x01\0\x01\0", 4); /* subsystem id 00010001 */
    assert_non_null(strstr(recs, " 5 00000000 0 0 1 0 10001:\n"));
    free(recs);
    recs = intr_records(840, (const uint8_t *)"\0\0\0\0\0\0\0\0\x04\x10", 10); /* clock comparator */
    assert_non_null(strstr(recs, " 5 00000000 0 0 2 0 1004:\n"));
    assert_null(strstr(recs, " 0 1 0 C:\n"));
    free(recs);
}

static void expect_error(const uint8_t *p, size_t n, const char *what)
{
    result r = run(p, n, n);
    assert_int_equal(r.rc, -1);
    if (!strstr(r.msg, what))
        fail_msg("expected '%s' in: %s", what, r.msg);
    free(r.recs);
}

/* Impossible lengths, links and CPU addresses, unknown types, bad magic and format. */
static void test_damage(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = load("io370", &n), *c = malloc(n);
    /* io370: records at 320 (2326, 144), 464 (2269, 192), 656 (2324, 112), ... 2560 (800, 104) */
    memcpy(c, in, n), c[322] = 7;
    expect_error(c, n, "byte 322: record length 7 is impossible");
    memcpy(c, in, n), c[658] = 120;
    expect_error(c, n, "byte 658: TF02324 record of 120 bytes; it has 112");
    memcpy(c, in, n), c[464] = 8;
    expect_error(c, n, "byte 464: the record says the one before it has 8 bytes; it had 144");
    memcpy(c, in, n), c[660] = 200;
    expect_error(c, n, "byte 660: CPU address 200, but the writer had 128 engines");
    memcpy(c, in, n), c[680] = 3;
    expect_error(c, n, "byte 680: architecture mode 3");
    memcpy(c, in, n), c[656 + 56 + 48] = 0x45; /* BAL's first byte under a 2-byte length */
    expect_error(c, n, "byte 756: instruction length 2 does not fit its first byte 45");
    memcpy(c, in, 656), memcpy(c + 656, in + 768, n - 768), c[656] = 192; /* the first TF02324 left out */
    expect_error(c, n - 112, "byte 656: a second operand record of CPU 0 before the instruction of the one at byte 320");
    memcpy(c, in, n), memcpy(c + 768 + 6, (uint8_t[]){ 0xE7, 0x03 }, 2); /* 2326 -> 999 */
    expect_error(c, n, "byte 912: register record TF02269 of CPU 0 outside an instruction group");
    memcpy(c, in, n), memcpy(c + 2560 + 6, (uint8_t[]){ 0xE7, 0x03 }, 2); /* the wait 800 -> 999: skipped */
    result r = run(c, n, n);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.st.unknown, 1);
    assert_int_equal(r.st.first_unknown_at, 2560);
    assert_int_equal(r.st.first_unknown_type, 999);
    free(r.recs);
    memcpy(c, in, n), c[2] = 'X';
    expect_error(c, n, "byte 0: not an SDL Hercules trace file");
    memcpy(c, in, n), c[3] = '3';
    expect_error(c, n, "byte 3: trace file format '3'");
    memcpy(c, in, n), c[4] = 1; /* says big-endian: the architecture numbers do not read */
    expect_error(c, n, "byte 6: architecture number 29185, not 370");
    assert_int_equal(fst_tf_magic("%TF2", 4), 1);
    assert_int_equal(fst_tf_magic("PSW", 3), 0);
    assert_int_equal(fst_tf_magic("%T", 2), -1);
    free(c);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_and_byte_orders),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_flips),
        cmocka_unit_test(test_never_closed),
        cmocka_unit_test(test_fetch_error),
        cmocka_unit_test(test_interruptions),
        cmocka_unit_test(test_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
