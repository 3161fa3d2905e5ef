/*
** common/hex.h — eight hex digits to a 32-bit value in a few word operations, for the
** readers whose hot lines are mostly hex (a Hercules trace line has 24 to 48 digits).
** Header-only, no state.
**
** fst_hex8(s, &v): s must have 8 readable bytes. 1 and v when all eight are hex digits
** (0-9, A-F, a-f; the first is the most significant), 0 otherwise (v untouched). Exact:
** every other byte value, 0x80-0xFF and NUL included, makes it 0.
*/
#ifndef FST_HEX_H
#define FST_HEX_H

#include <stdint.h>
#include <string.h>

#define FST_HEX_ONES 0x0101010101010101ull
/* 0x80 in every byte of x that lies strictly between m and n (0 <= m < n <= 128), else 0
** (the "hasbetween" of the Stanford bit hacks; exact per byte, bytes >= 0x80 included). */
#define FST_HEX_BETWEEN(x, m, n)                                                                   \
    (((FST_HEX_ONES * (127 + (n)) - ((x) & FST_HEX_ONES * 127)) & ~(x) &                           \
      (((x) & FST_HEX_ONES * 127) + FST_HEX_ONES * (127 - (m)))) & FST_HEX_ONES * 128)

static inline int fst_hex8(const char *s, uint32_t *v)
{
    uint64_t x;
    memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    /* the first digit is already in the top byte */
#else
    x = __builtin_bswap64(x); /* the first digit into the top byte */
#endif
    uint64_t ok = FST_HEX_BETWEEN(x, '0' - 1, '9' + 1) | FST_HEX_BETWEEN(x, 'A' - 1, 'F' + 1) |
                  FST_HEX_BETWEEN(x, 'a' - 1, 'f' + 1);
    if (ok != FST_HEX_ONES * 128)
        return 0;
    /* a digit's value is its low nibble; a letter's (bit 6 set) its low nibble + 9 */
    uint64_t d = (x & FST_HEX_ONES * 0x0F) + ((x >> 6) & FST_HEX_ONES) * 9;
    d = (d | d >> 4) & 0x00FF00FF00FF00FFull;  /* pairs of nibbles into bytes */
    d = (d | d >> 8) & 0x0000FFFF0000FFFFull;  /* pairs of bytes into 16 bits */
    *v = (uint32_t)(d | d >> 16);
    return 1;
}

#endif
