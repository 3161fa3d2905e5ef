/* formats/fmt.c — number formatting shared by the writers; see formats.h. */
#include "formats/formats.h"

#include <stdio.h>


void fst_fmt_sec2(fst_fx x, char *buf)
{
    uint64_t cs = (x + FST_FX_PER_SEC / 200) / (FST_FX_PER_SEC / 100);
    if (cs >= 100)
        sprintf(buf, "%llu.%02llu", (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
    else
        sprintf(buf, ".%02llu", (unsigned long long)cs);
}

void fst_fmt_sec9(fst_fx x, char *buf)
{
    uint64_t ns = fst_fx_to_ns(x);
    sprintf(buf, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull), (unsigned long long)(ns % 1000000000ull));
}
