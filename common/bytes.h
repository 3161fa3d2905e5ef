/*
** common/bytes.h — little helpers for the binary formats: little/big-endian loads and
** stores, LEB128 varints, zigzag. Header-only, no state.
*/
#ifndef FST_BYTES_H
#define FST_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline void fst_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void fst_put_le64(uint8_t *p, uint64_t v)
{
    fst_put_le32(p, (uint32_t)v);
    fst_put_le32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t fst_get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t fst_get_le64(const uint8_t *p)
{
    return (uint64_t)fst_get_le32(p) | (uint64_t)fst_get_le32(p + 4) << 32;
}
static inline void fst_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline void fst_put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v;
}
static inline uint32_t fst_get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint16_t fst_get_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* Unsigned LEB128; returns bytes written (at most 10). */
static inline size_t fst_put_uvar(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}
/* Returns bytes read, 0 when the varint runs past `end` or is longer than 10 bytes. */
static inline size_t fst_get_uvar(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (size_t n = 0; n < 10 && p + n < end; n++) {
        r |= (uint64_t)(p[n] & 0x7F) << (7 * n);
        if (!(p[n] & 0x80)) {
            *v = r;
            return n + 1;
        }
    }
    return 0;
}
static inline uint64_t fst_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t fst_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Instruction length from the first opcode byte (bits 0-1: 00 -> 2, 01/10 -> 4, 11 -> 6). */
static inline int fst_insn_len(uint8_t op0)
{
    static const uint8_t len[4] = { 2, 4, 4, 6 };
    return len[op0 >> 6];
}

#endif
