/*
** tests/unit/modwire_put.h — the module stream's numbers (capture/module/fstmod_wire.h: v =
** LEB128 of an unsigned value, sv = zigzag LEB128 of a signed difference), for the unit
** tests that write streams by hand (test_modstream*.c). Appends at b[*n]; the caller keeps
** room (10 bytes at most a number).
*/
#ifndef FST_TEST_MODWIRE_PUT_H
#define FST_TEST_MODWIRE_PUT_H

#include "capture/module/fstmod_wire.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline void mw_put_v(uint8_t *b, size_t *n, uint64_t v)
{
    while (v >= 0x80) {
        b[(*n)++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[(*n)++] = (uint8_t)v;
}

static inline void mw_put_sv(uint8_t *b, size_t *n, int64_t d)
{
    mw_put_v(b, n, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

/* A chunk's header for cpu at b[*n] (its length set by mw_chunk_end); returns where it is. */
static inline size_t mw_chunk_begin(uint8_t *b, size_t *n, unsigned cpu)
{
    size_t start = *n;
    uint8_t h[FSTMOD_CHUNK_HDR] = { FSTMOD_CHUNK, (uint8_t)cpu, 0, 0, 0, 0, 0, 0 };
    memcpy(b + *n, h, sizeof h);
    *n += sizeof h;
    return start;
}

static inline void mw_chunk_end(uint8_t *b, size_t n, size_t start)
{
    size_t len = n - start - FSTMOD_CHUNK_HDR;
    b[start + 4] = (uint8_t)len;
    b[start + 5] = (uint8_t)(len >> 8);
}

/* The module's HELLO chunk, this stream's version. */
static inline void mw_hello(uint8_t *b, size_t *n)
{
    size_t start = mw_chunk_begin(b, n, FSTMOD_CPU_MODULE);
    b[(*n)++] = FSTMOD_OP_HELLO;
    *n += (size_t)sprintf((char *)b + *n, "fst-hercules313 %d test", FSTMOD_WIRE);
    mw_chunk_end(b, *n, start);
}

#endif
