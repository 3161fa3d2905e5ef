/* trace/psw.c — an architected PSW's state word (trace/psw.h). */
#include "trace/psw.h"

uint32_t fst_psw_state(const uint8_t *p, int len, int arch)
{
    uint32_t st = 0;
    if (len == 16)
        arch = FST_ARCH_ZARCH;
    else if (arch == FST_ARCH_ZARCH)
        arch = FST_ARCH_ESA390;  /* an 8-byte PSW: the switch to z has not happened yet */
    st |= (uint32_t)arch;
    int ec = (p[1] & 0x08) != 0;
    if (ec)
        st |= FST_ST_EC;
    if (len == 16)
        st |= (uint32_t)(((p[3] & 1) && (p[4] & 0x80)) ? 2 : (p[4] & 0x80) ? 1 : 0) << FST_ST_AMODE_SHIFT;
    else if (ec && (p[4] & 0x80))
        st |= 1u << FST_ST_AMODE_SHIFT;
    if (p[1] & 0x01) st |= FST_ST_PROBLEM;
    if (p[1] & 0x02) st |= FST_ST_WAIT;
    if (p[1] & 0x04) st |= FST_ST_MCMASK;
    st |= (uint32_t)(p[1] >> 4) << FST_ST_KEY_SHIFT;
    if (ec) {
        if (p[0] & 0x04) st |= FST_ST_DAT;
        if (p[0] & 0x02) st |= FST_ST_IOMASK;
        if (p[0] & 0x01) st |= FST_ST_EXTMASK;
        if (arch != FST_ARCH_S370)
            st |= (uint32_t)(p[2] >> 6) << FST_ST_ASC_SHIFT;
    } else {
        if (p[0] & 0xFE) st |= FST_ST_IOMASK;  /* BC mode: channel masks */
        if (p[0] & 0x01) st |= FST_ST_EXTMASK;
    }
    return st;
}
