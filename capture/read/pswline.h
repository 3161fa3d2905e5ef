/*
** capture/read/pswline.h — the trace lines nearly every line of a Hercules log is, read fast:
**   "PSW=hhhhhhhh hhhhhhhh[ hhhhhhhhhhhhhhhh] INST=hhhh[hhhh[hhhh]] ..."   (3.13)
**   "PSW=hhhhhhhhhhhhhhhh[ hhhhhhhhhhhhhhhh] INST=hhhh[hhhh[hhhh]] ..."   (4.x)
** (after any time stamp and CPU prefix). Converting a log is as fast as reading these is
** (issue 14): digits are read eight at a time (common/hex.h), and an 8-byte PSW line whose
** address word and instruction digits equal, character for character, those of a line read
** before (the lines of a loop) takes their bytes from a small table instead.
**
** fst_pswline_read: 1 with the PSW (8 or 16 bytes, *pswlen) and the instruction's bytes
** (ib, 2, 4 or 6: *ilen; ib's bytes past them 0) when the line s[0 .. n) is exactly
** one of these shapes, every digit run ending where it must (as fst_psw_parse and the log
** parser's own reading require); 0 for anything else: the caller reads the line the slow
** way, so that every other line, malformed ones included, is read, counted and reported as
** it always was. s must have n readable bytes; nothing past them is read.
** Ownership: the caller owns the fst_pswline (zeroed before the first call; no resources).
** Header-only, as common/hex.h: the log parser's hot loop calls it for every line, and a
** call into another file was a tenth of converting a log (callgrind, issue 14).
*/
#ifndef FST_PSWLINE_H
#define FST_PSWLINE_H

#include "common/bytes.h"
#include "common/hex.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* An 8-byte PSW line read before: the text of its address word and of its instruction
** (the 16 characters from INST='s digits on, masked by m0/m1 to the digits and the blank
** after them), and their bytes. len 0: empty. */
#define FST_PSWLINE_BITS 10
typedef struct fst_pswline_ent {
    uint64_t atext, itext0, itext1, m0, m1;
    uint8_t abytes[4], ib[6], len;
} fst_pswline_ent;

typedef struct fst_pswline {
    uint64_t psw0_text;   /* the first 8 PSW digits last read, as text (0: none yet), and */
    uint8_t psw0[4];      /* their bytes: they change far less often than the address */
    fst_pswline_ent seen[1u << FST_PSWLINE_BITS];
} fst_pswline;

/* The bytes of the instruction at s (INST='s digits), 2 at a time, as many as the first
** says; then a blank or the end of the line (at n). Its length, 0 when it is not that. */
static inline int fst_pswline_inst(const char *s, size_t n, uint8_t ib[6])
{
    memset(ib, 0, 6);
    if (n < 4 || !fst_hex4_bytes(s, ib))
        return 0;
    int len = fst_insn_len(ib[0]);
    if (n < 2 * (size_t)len || (len > 2 && !fst_hex4_bytes(s + 4, ib + 2)) ||
        (len > 4 && !fst_hex4_bytes(s + 8, ib + 4)))
        return 0;
    if (2 * (size_t)len < n && s[2 * len] != ' ')
        return 0;
    return len;
}

/* Of the 16 characters from INST='s digits on, those an instruction's text covers: its 2,
** 4 or 6 bytes' digits and the blank after them (row: the length / 2 - 1). */
static const uint8_t fst_pswline_mask[3][16] = {
    { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
    { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
    { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
};

/* An 8-byte PSW line from its address word (at a) and INST='s digits (at i) on. */
static inline int fst_pswline_short(fst_pswline *c, const char *s, size_t n, size_t a, size_t i, uint8_t psw[16],
                                    uint8_t ib[6], int *ilen)
{
    uint64_t at, t0 = 0, t1 = 0;
    memcpy(&at, s + a, 8);
    fst_pswline_ent *e = &c->seen[(at * 0x9E3779B97F4A7C15ull) >> (64 - FST_PSWLINE_BITS)];
    int whole = n >= i + 16; /* the digits and the blank after them can be compared at once */
    if (whole) {
        memcpy(&t0, s + i, 8);
        memcpy(&t1, s + i + 8, 8);
        if (e->len && e->atext == at && (t0 & e->m0) == e->itext0 && (t1 & e->m1) == e->itext1) {
            memcpy(psw + 4, e->abytes, 4);
            memcpy(ib, e->ib, 6);
            *ilen = e->len;
            return 1;
        }
    }
    if (!fst_hex8_bytes(s + a, psw + 4) || !(*ilen = fst_pswline_inst(s + i, n - i, ib)))
        return 0;
    if (whole) { /* the blank after the digits was checked: remember the line */
        const uint8_t *m = fst_pswline_mask[*ilen / 2 - 1];
        memcpy(&e->m0, m, 8);
        memcpy(&e->m1, m + 8, 8);
        e->atext = at;
        e->itext0 = t0 & e->m0;
        e->itext1 = t1 & e->m1;
        memcpy(e->abytes, psw + 4, 4);
        memcpy(e->ib, ib, 6);
        e->len = (uint8_t)*ilen;
    }
    return 1;
}

static inline int fst_pswline_read(fst_pswline *c, const char *s, size_t n, uint8_t psw[16], int *pswlen,
                                   uint8_t ib[6], int *ilen)
{
    uint64_t w0;
    if (n < 21 + 6 + 4 || memcmp(s, "PSW=", 4))
        return 0;
    memcpy(&w0, s + 4, 8);
    if (w0 != c->psw0_text || !c->psw0_text) { /* no text of 8 NUL bytes is ever stored */
        if (!fst_hex8_bytes(s + 4, c->psw0))
            return 0;
        c->psw0_text = w0;
    }
    memcpy(psw, c->psw0, 4);
    size_t a = s[12] == ' ' ? 13 : 12, i = a + 8; /* 3.13: two words; 4.x: one run of 16 */
    if (s[i] != ' ')
        return 0;
    if (s[i + 1] == 'I') {
        if (memcmp(s + i, " INST=", 6))
            return 0;
        *pswlen = 8;
        return fst_pswline_short(c, s, n, a, i + 6, psw, ib, ilen);
    }
    /* a second doubleword: a 16-byte PSW */
    if (n < i + 17 + 6 + 4 || !fst_hex8_bytes(s + a, psw + 4) || !fst_hex8_bytes(s + i + 1, psw + 8) ||
        !fst_hex8_bytes(s + i + 9, psw + 12) || memcmp(s + i + 17, " INST=", 6))
        return 0;
    *pswlen = 16;
    i += 17 + 6;
    return (*ilen = fst_pswline_inst(s + i, n - i, ib)) != 0;
}

#endif
