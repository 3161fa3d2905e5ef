/* libFuzzer target: a trace.bin whose frame CRCs are made right, replayed into every
** report format (make fuzz).
**
** fuzz_tracebin stops at the first CRC mismatch, which nearly every mutation causes, so
** the event decoder, the replay and the formats behind it are rarely reached. Here each
** whole frame (tag | u32 len | payload | u32 crc) gets the CRC-32 of its bytes before the
** trace is read; the replay then feeds one event stream to every format's sink, and every
** format writes its report to /dev/null. Nothing is written to disk (fuzz_mem.h).
*/
#define _GNU_SOURCE /* memfd_create */
#include "analyze/cost/clock.h"
#include "analyze/profile/diagnose.h"
#include "analyze/profile/profile.h"
#include "analyze/replay/replay.h"
#include "formats/format.h"
#include "tests/fuzz/fuzz_mem.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Rewrite the CRC of every whole frame after the 8-byte magic (tracebin.h's layout). */
static void fix_crcs(uint8_t *p, size_t n)
{
    size_t off = 8;
    while (off + 8 <= n) {
        uint32_t len = get32(p + off + 4);
        if (len > n || off + 12 + (size_t)len > n)
            break;                   /* cut short: the reader says so */
        uint32_t crc = (uint32_t)crc32(0, p + off, 8 + len);
        uint8_t *c = p + off + 8 + len;
        c[0] = (uint8_t)crc, c[1] = (uint8_t)(crc >> 8), c[2] = (uint8_t)(crc >> 16), c[3] = (uint8_t)(crc >> 24);
        off += 12 + (size_t)len;
    }
}

static void replay(const char *path, fst_clock *clk, FILE *null)
{
    enum { MAXF = 32 };
    fst_err err;
    fst_tr *tr = fst_tr_open(path, &err);
    if (!tr)
        return;
    fst_replay_opts ro = { 0 };
    ro.clock = clk;
    fst_fctx fc = { NULL, 0, tr, NULL, path, "/dev/null", &ro };
    const fst_format *fmt[MAXF];
    void *ctx[MAXF];
    fst_sink sinks[MAXF + 1];
    fst_diag *diag = fst_diag_new(NULL);
    size_t nf = 0, ns = 0;
    sinks[ns++] = (fst_sink){ fst_diag_event, diag };
    for (size_t i = 0; fst_formats[i] && nf < MAXF; i++) {
        const fst_format *f = fst_formats[i];
        void *c = NULL;
        if (f->init && !(c = f->init(&fc, NULL, &err)))
            continue;                /* a format that needs options it was not given */
        fmt[nf] = f, ctx[nf] = c, nf++;
        if (f->event)
            sinks[ns++] = (fst_sink){ f->event, c };
    }
    fst_profile prof;
    if (fst_replay(tr, NULL, &ro, &prof, sinks, ns, &err) == 0) {
        for (size_t i = 0; i < nf; i++)
            fmt[i]->write(null, &fc, &prof, ctx[i], &err);
        fst_profile_free(&prof);
    }
    for (size_t i = 0; i < nf; i++)
        if (fmt[i]->done)
            fmt[i]->done(ctx[i]);
    fst_diag_free(diag);
    fst_tr_close(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static fst_clock *clk;
    static FILE *null;
    fst_err err;
    if (!clk && !(clk = fst_clock_open("mips:1", &err)))   /* no cost table file to find */
        abort();
    if (!null && !(null = fopen("/dev/null", "wb")))
        abort();
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        return 0;
    memcpy(p, data, n);
    fix_crcs(p, n);
    char path[64];
    int fd = fuzz_memfile(p, n, path, sizeof path);
    free(p);
    if (fd < 0)
        return 0;
    replay(path, clk, null);
    close(fd);
    return 0;
}
