/* formats/fmt.c — number formatting shared by the writers; see formats.h. */
#include "formats/formats.h"

#include <stdio.h>

/* 1 s = 4096e6 TOD units = 512e12 fx (analyze/clock.h) */
#define FX_PER_SEC 512000000000000ull

void fst_fmt_sec2(fst_fx x, char *buf)
{
    uint64_t cs = (x + FX_PER_SEC / 200) / (FX_PER_SEC / 100);
    if (cs >= 100)
        sprintf(buf, "%llu.%02llu", (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
    else
        sprintf(buf, ".%02llu", (unsigned long long)cs);
}

void fst_fmt_sec9(fst_fx x, char *buf)
{
    uint64_t ns = (x + FX_PER_SEC / 2000000000ull) / (FX_PER_SEC / 1000000000ull);
    sprintf(buf, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull), (unsigned long long)(ns % 1000000000ull));
}
