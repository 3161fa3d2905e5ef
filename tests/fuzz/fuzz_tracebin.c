/* libFuzzer target: the trace.bin reader on any bytes (make fuzz). */
#include "capture/tracebin.h"

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fst-fuzz-tracebin.%d", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, n, f);
    fclose(f);
    fst_err err;
    fst_tr *r = fst_tr_open(path, &err);
    if (!r)
        return 0;
    fst_rec rec;
    while (fst_tr_next(r, &rec, &err) > 0)
        ;
    fst_tr_close(r);
    return 0;
}
