/* libFuzzer target: the trace.bin reader on any bytes (make fuzz). Most mutations fail
** the frame CRCs; fuzz_replay.c fixes them so that the decoder behind is reached too. */
#define _GNU_SOURCE /* memfd_create */
#include "trace/tracebin.h"
#include "tests/fuzz/fuzz_mem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char path[64];
    int fd = fuzz_memfile(data, n, path, sizeof path);
    if (fd < 0)
        return 0;
    fst_err err;
    fst_tr *r = fst_tr_open(path, &err);
    if (r) {
        fst_rec rec;
        while (fst_tr_next(r, &rec, &err) > 0)
            ;
        fst_tr_close(r);
    }
    close(fd);
    return 0;
}
