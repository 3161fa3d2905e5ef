/* trace/tracebin_ahead.c — frames read ahead (tracebin_int.h fst_tba): one thread reads a
** version 2 or 3 trace's frames, checks their CRC and unpacks its EVNT frames, up to AHEAD
** frames before the reader, which takes them in order. The reader then does on its core
** only what follows the op stream (the replay), the other core the file and zstd: some 6 %
** of a replay of gcc -O2 code (branchy -O2: libzstd 5.5 % of fst-report's samples, the
** kernel's reads 1.6 %).
**
** What the reader gets is what it would have read itself: the same frames, payloads,
** offsets and messages (fst_tb_read_frame is the one that reads, here as there), and an op
** stream unpacked by the same routine; the checks that need the reader's state (where a
** frame starts) stay the reader's. Every frame is handed out, the last one included (a
** FOOT, the file's end, an error), after which the thread stops reading: the FILE is the
** reader's again (what follows a footer is its to check).
**
** Memory: AHEAD + 1 frame buffers of FST_TB_V2_PAYLOAD bytes and change, and the payloads
** read and not yet taken. Ownership: a payload handed out is the caller's; the buffers and
** the thread are the fst_tba's until fst_tba_stop. */
#include "trace/tracebin_int.h"
#include "common/err.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AHEAD 2     /* frames read before the reader asks: one is enough to hide zstd behind
                       a frame's replay (~2 ms); two smooth a frame that replays fast */
#define SLOTS (AHEAD + 1)   /* and the one the reader holds */

typedef struct slot {
    int rc;
    char tag[4];
    uint8_t *payload;
    size_t len;
    uint8_t *buf;       /* the unpacked frame (buf_ok), FRAME_BYTES */
    int buf_ok;
    size_t flen;
    uint64_t off, frame_off;
    char why[sizeof ((fst_tbf *)0)->why];
    fst_err err;
} slot;

struct fst_tba {
    fst_tbf t;          /* the thread's: the file, where it reads */
    fst_tbz *z;         /* the reader's, lent (tracebin_int.h) */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
    slot s[SLOTS];
    unsigned head, n;   /* the next slot to hand out; slots read and not handed out */
    int held;           /* the reader holds s[(head + SLOTS - 1) % SLOTS] (its buffer) */
    int stop, started;
    unsigned long long frames;  /* handed out (FST_TRACE_AHEAD_STATS) */
};

#define FRAME_BYTES (8 + FST_TB_V2_PAYLOAD + FST_TB_OP_MAX + 2)

static void *reader(void *arg)
{
    fst_tba *a = arg;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (!a->stop && a->n + (unsigned)a->held == SLOTS)
            pthread_cond_wait(&a->freed, &a->mu);
        if (a->stop)
            break;
        slot *s = &a->s[(a->head + a->n) % SLOTS];
        pthread_mutex_unlock(&a->mu);
        s->payload = NULL;  /* (why carries over, as the reader's does: a cut in the image) */
        s->rc = fst_tb_read_frame(&a->t, s->tag, &s->payload, &s->len, &s->err);
        s->off = a->t.off;
        s->frame_off = a->t.frame_off;
        memcpy(s->why, a->t.why, sizeof s->why);
        s->buf_ok = s->rc > 0 && !memcmp(s->tag, "EVNT", 4) &&
                    !fst_tb_unpack_evnt(a->z, s->payload, s->len, s->buf, &s->flen);
        int last = s->rc <= 0 || !memcmp(s->tag, "FOOT", 4);
        pthread_mutex_lock(&a->mu);
        a->n++;
        pthread_cond_signal(&a->filled);
        if (last)
            break;
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

fst_tba *fst_tba_start(const fst_tbf *t, fst_tbz *z)
{
    const char *no = getenv("FST_TRACE_AHEAD");
    struct stat st;
    if ((no && !strcmp(no, "0")) || fstat(fileno(t->f), &st) || !S_ISREG(st.st_mode))
        return NULL;
    fst_tba *a = fst_xcalloc(1, sizeof *a);
    a->t = *t;
    a->z = z;
    for (int i = 0; i < SLOTS; i++)
        a->s[i].buf = fst_xmalloc(FRAME_BYTES);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->freed, NULL);
    if (pthread_create(&a->th, NULL, reader, a)) {
        fst_tba_stop(a);
        return NULL;
    }
    a->started = 1;
    return a;
}

int fst_tba_next(fst_tba *a, fst_tbf *t, char tag[4], uint8_t **payload, size_t *len, uint8_t **frame, size_t *flen,
                 fst_err *err)
{
    pthread_mutex_lock(&a->mu);
    if (a->held) {  /* the reader is done with the frame it held: its buffer is free */
        a->held = 0;
        pthread_cond_signal(&a->freed);
    }
    while (!a->n)
        pthread_cond_wait(&a->filled, &a->mu);
    slot *s = &a->s[a->head];
    a->head = (a->head + 1) % SLOTS;
    a->n--;
    a->held = 1;
    a->frames++;
    pthread_mutex_unlock(&a->mu);
    t->off = s->off;
    t->frame_off = s->frame_off;
    memcpy(t->why, s->why, sizeof t->why);
    if (s->rc < 0)
        *err = s->err;
    memcpy(tag, s->tag, 4);
    *payload = s->payload;
    *len = s->len;
    s->payload = NULL;
    *frame = s->buf_ok ? s->buf : NULL;
    *flen = s->buf_ok ? s->flen : 0;
    return s->rc;
}

void fst_tba_stop(fst_tba *a)
{
    if (!a)
        return;
    if (getenv("FST_TRACE_AHEAD_STATS"))   /* the tests: that it was used */
        fprintf(stderr, "fst: trace: %llu frames read ahead\n", a->frames);
    if (a->started) {
        pthread_mutex_lock(&a->mu);
        a->stop = 1;
        pthread_cond_signal(&a->freed);
        pthread_mutex_unlock(&a->mu);
        pthread_join(a->th, NULL);
    }
    for (int i = 0; i < SLOTS; i++) {
        free(a->s[i].payload);
        free(a->s[i].buf);
    }
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->filled);
    pthread_cond_destroy(&a->freed);
    free(a);
}
