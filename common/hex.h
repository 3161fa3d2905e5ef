/*
** common/hex.h — hex digits to values a word at a time, for the readers whose hot lines
** are mostly hex (a Hercules trace line has 24 to 48 digits). Header-only, no state.
**
** fst_hex8(s, &v): s must have 8 readable bytes. 1 and v when all eight are hex digits
** (0-9, A-F, a-f; the first is the most significant), 0 otherwise (v untouched). Exact:
** every other byte value, 0x80-0xFF and NUL included, makes it 0.
** fst_hex4(s, &v): the same for 4 digits (4 readable bytes), a 16-bit value.
** fst_hex8_bytes / fst_hex4_bytes: the value stored as 4 / 2 bytes, most significant first.
** fst_hexval(c): one character's value, -1 when it is not a hex digit.
*/
#ifndef FST_HEX_H
#define FST_HEX_H

#include <stdint.h>
#include <string.h>

#define FST_HEX_ONES 0x0101010101010101ull
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FST_HEX_BE64(x) (x)
#define FST_HEX_BE32(x) (x)
#else
#define FST_HEX_BE64(x) __builtin_bswap64(x)
#define FST_HEX_BE32(x) __builtin_bswap32(x)
#endif

/* hex digit value + 1, 0 for anything else: a table, because the lines the word-at-a-time
** readers do not take are read a digit at a time */
static const unsigned char fst_hexv1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};
static inline int fst_hexval(int c) { return (int)fst_hexv1[c & 0xFF] - 1; }

/* Eight characters, the first in the top byte. */
static inline int fst_hex_word(uint64_t x, uint32_t *v)
{
    const uint64_t hi = FST_HEX_ONES * 0x80;
    if (x & hi)
        return 0;
    /* Every byte is below 0x80, so adding at most 0x50 to it carries into its own top bit
    ** and never into the next byte: x + (0x80 - c) has the top bit set in each byte >= c. */
    uint64_t digit = (x + FST_HEX_ONES * (0x80 - '0')) & ~(x + FST_HEX_ONES * (0x80 - '9' - 1));
    uint64_t y = x | FST_HEX_ONES * 0x20; /* A-F to a-f (only A-F and a-f become a-f) */
    uint64_t letter = (y + FST_HEX_ONES * (0x80 - 'a')) & ~(y + FST_HEX_ONES * (0x80 - 'f' - 1));
    if (((digit | letter) & hi) != hi)
        return 0;
    /* a digit's value is its low nibble; a letter's (bit 6 set) its low nibble + 9 */
    uint64_t d = (x & FST_HEX_ONES * 0x0F) + ((x >> 6) & FST_HEX_ONES) * 9;
    d = (d | d >> 4) & 0x00FF00FF00FF00FFull;  /* pairs of nibbles into bytes */
    d = (d | d >> 8) & 0x0000FFFF0000FFFFull;  /* pairs of bytes into 16 bits */
    *v = (uint32_t)(d | d >> 16);
    return 1;
}

static inline int fst_hex8(const char *s, uint32_t *v)
{
    uint64_t x;
    memcpy(&x, s, 8);
    return fst_hex_word(FST_HEX_BE64(x), v);
}

static inline int fst_hex4(const char *s, uint32_t *v)
{
    uint32_t x;
    memcpy(&x, s, 4);
    return fst_hex_word(0x3030303000000000ull | FST_HEX_BE32(x), v); /* "0000" before */
}

/* One store each: four byte stores were a tenth of reading a PSW line. */
static inline int fst_hex8_bytes(const char *s, uint8_t out[4])
{
    uint32_t v;
    if (!fst_hex8(s, &v))
        return 0;
    v = FST_HEX_BE32(v);
    memcpy(out, &v, 4);
    return 1;
}

static inline int fst_hex4_bytes(const char *s, uint8_t out[2])
{
    uint32_t v;
    if (!fst_hex4(s, &v))
        return 0;
    out[0] = (uint8_t)(v >> 8);
    out[1] = (uint8_t)v;
    return 1;
}

#endif
