/*
** tests/unit/modwire_put.h — the module stream's numbers (capture/module/fstmod_wire.h: v =
** LEB128 of an unsigned value, sv = zigzag LEB128 of a signed difference), for the unit
** tests that write streams by hand (test_modstream*.c). Appends at b[*n]; the caller keeps
** room (10 bytes at most a number).
*/
#ifndef FST_TEST_MODWIRE_PUT_H
#define FST_TEST_MODWIRE_PUT_H

#include <stddef.h>
#include <stdint.h>

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

#endif
