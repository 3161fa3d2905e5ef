/* libFuzzer target: the Hercules log parser on any text (make fuzz). */
#include "capture/read/herclog.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = "/dev/null"; /* the trace written is not looked at: leave no file */
    fst_err err;
    fst_tw *w = fst_tw_open(path, NULL, &err);
    if (!w)
        return 0;
    fst_hlog *h = fst_hlog_new(w, "fuzz", FST_ARCH_UNKNOWN, 0);
    size_t half = n / 2; /* two feeds: a line split across them */
    fst_hlog_feed(h, (const char *)data, half, &err);
    fst_hlog_feed(h, (const char *)data + half, n - half, &err);
    fst_hlog_finish(h, &err);
    fst_hlog_free(h);
    fst_tw_close(w, 1, "eof", NULL, &err);
    return 0;
}
