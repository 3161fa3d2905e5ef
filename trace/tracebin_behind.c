/* trace/tracebin_behind.c — frames written behind the writer (tracebin_int.h fst_tbw): a
** thread packs each full EVNT frame of a version 2 trace with zstd and writes it, while the
** writer fills the next one. The writer then does on its core only what makes the op stream
** (in fst-capture: reading the module's stream and turning it into ops), the other core zstd
** and the file. Where a program's branches go by data, fst-capture's own work is as long as
** Hercules' run, zstd some two fifths of it (tests/loops/gen.py seed 4242: fst-capture's
** CPU 1.1 times the untraced run's, libzstd 21 % of all samples against fst-capture's own
** code's 24 %; the capture 1.27x under 3.13 and 1.57x under 4.9).
**
** The file is the one the writer would write itself, byte for byte: the same frames, in
** order, packed by the same routine (the writer's `out`); the writer writes nothing else
** while a frame is on its way (fst_tbw_wait first). One frame at a time: the writer hands
** its buffer over and takes the spare one, and waits only when the frame before is not out
** yet. A frame that could not be packed or written stops the thread's work: the writer
** learns it at its next hand-over or wait, with the message the write gave.
**
** Memory: one spare frame buffer. Ownership: the buffer handed over is the thread's until
** the next hand-over gives it back; fst_tbw_stop frees the thread and its buffer. */
#include "trace/tracebin_int.h"
#include "common/err.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct fst_tbw {
    fst_tbw_out *out;
    void *ctx;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *buf;       /* the frame handed over (busy), else the spare one */
    size_t len;
    int busy, stop, failed;
    fst_err err;        /* what the failed frame's write said */
};

static void *behind(void *arg)
{
    fst_tbw *b = arg;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (!b->busy && !b->stop)
            pthread_cond_wait(&b->cv, &b->mu);
        if (!b->busy)
            break;  /* stopped, nothing handed over */
        pthread_mutex_unlock(&b->mu);
        fst_err e;
        int rc = b->failed ? 0 : b->out(b->ctx, b->buf, b->len, &e);
        pthread_mutex_lock(&b->mu);
        if (rc && !b->failed) {
            b->failed = 1;
            b->err = e;
        }
        b->busy = 0;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

fst_tbw *fst_tbw_start(fst_tbw_out *out, void *ctx, size_t bytes)
{
    const char *e = getenv("FST_TRACE_BEHIND");
    if (e && !strcmp(e, "0"))
        return NULL;
    fst_tbw *b = fst_xcalloc(1, sizeof *b);
    b->out = out;
    b->ctx = ctx;
    b->buf = fst_xmalloc(bytes);
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    if (pthread_create(&b->th, NULL, behind, b)) {
        pthread_mutex_destroy(&b->mu);
        pthread_cond_destroy(&b->cv);
        free(b->buf);
        free(b);
        return NULL;    /* no thread: the writer writes its frames itself */
    }
    return b;
}

/* Waits for the frame on its way; -1 with its message when one failed. Under b->mu. */
static int settled(fst_tbw *b, fst_err *err)
{
    while (b->busy)
        pthread_cond_wait(&b->cv, &b->mu);
    if (b->failed) {
        if (err)
            *err = b->err;
        return -1;
    }
    return 0;
}

int fst_tbw_put(fst_tbw *b, uint8_t **buf, size_t len, fst_err *err)
{
    pthread_mutex_lock(&b->mu);
    int rc = settled(b, err);
    if (!rc) {
        uint8_t *spare = b->buf;
        b->buf = *buf;
        b->len = len;
        *buf = spare;
        b->busy = 1;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return rc;
}

int fst_tbw_wait(fst_tbw *b, fst_err *err)
{
    pthread_mutex_lock(&b->mu);
    int rc = settled(b, err);
    pthread_mutex_unlock(&b->mu);
    return rc;
}

void fst_tbw_stop(fst_tbw *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    settled(b, NULL);
    b->stop = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->th, NULL);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
    free(b->buf);
    free(b);
}
