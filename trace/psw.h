/*
** trace/psw.h — an architected PSW (8 bytes: S/370 BC or EC, ESA/390; 16: z/Architecture)
** read into what a trace record keeps: its instruction address and the normalised state
** word (FST_ST_*, trace/tracebin.h). Pure functions of the bytes; nothing fails.
** The log readers (capture/read) write records with them, the trace reader and the replay
** read PSWs that records carry (LPSW operands, old PSWs).
*/
#ifndef FST_PSW_H
#define FST_PSW_H

#include "trace/tracebin.h"

#include <stdint.h>

/* The instruction address: 24 bits in S/370 BC mode, 24 or 31 in EC mode by the
** addressing-mode bit, 64 in a 16-byte PSW. Inline: every traced instruction has one. */
static inline uint64_t fst_psw_ia(const uint8_t *p, int len)
{
    if (len == 16) {
        uint64_t ia = 0;
        for (int i = 8; i < 16; i++)
            ia = ia << 8 | p[i];
        return ia;
    }
    uint32_t w = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
    if (!(p[1] & 0x08))          /* S/370 BC mode: 24-bit address in bytes 5-7 */
        return w & 0x00FFFFFF;
    return (w & 0x80000000u) ? (w & 0x7FFFFFFF) : (w & 0x00FFFFFF);
}

/* The state word; `arch` says what an 8-byte PSW is (a 16-byte one is z/Architecture). */
uint32_t fst_psw_state(const uint8_t *psw, int len, int arch);

#endif
