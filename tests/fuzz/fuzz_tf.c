/* libFuzzer target: the SDL Hercules trace-file reader on any bytes (make fuzz). The
** input is fed twice: whole, and in 7-byte pieces (records split across feeds). */
#include "capture/read/tf.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = "/dev/null"; /* the trace written is not looked at: leave no file */
    for (size_t step = n ? n : 1; step; step = step == 7 ? 0 : 7) {
        fst_err err;
        fst_tw *w = fst_tw_open(path, NULL, &err);
        if (!w)
            return 0;
        fst_em *em = fst_em_new(w, 0);
        fst_tf *t = fst_tf_new(em, "fuzz");
        int rc = 0;
        for (size_t i = 0; i < n && !rc; i += step)
            rc = fst_tf_feed(t, data + i, i + step > n ? n - i : step, &err);
        if (!rc && !fst_tf_finish(t, &err)) {
            char why[300];
            fst_tf_complete(t, why, sizeof why);
        }
        fst_tf_free(t);
        fst_em_free(em);
        fst_tw_close(w, 1, "eof", NULL, &err);
    }
    return 0;
}
