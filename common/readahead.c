/* common/readahead.c — a file read a few chunks ahead in a second thread; see readahead.h. */
#include "common/readahead.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A ring of FST_RA_BUFS buffers: the thread fills them at `tail`, the consumer takes them
** at `head`; `count` are full (the one handed out included, until the next call). */
struct fst_ra {
    int fd;
    char *name;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
    char *buf[FST_RA_BUFS];
    size_t len[FST_RA_BUFS];
    unsigned head, tail, count;
    int held;           /* the consumer holds buf[head] */
    int done;           /* the thread has stopped: end of file, error or stop */
    int stop;           /* fst_ra_close asks the thread to stop */
    int err_no;         /* the read error, 0 for none */
    uint64_t offset;    /* bytes read by the thread (the error's byte offset) */
};

static ssize_t read_some(int fd, char *p, size_t n)
{
    ssize_t k;
    while ((k = read(fd, p, n)) < 0 && errno == EINTR)
        ;
    return k;
}

static void *reader(void *arg)
{
    fst_ra *ra = arg;
    pthread_mutex_lock(&ra->mu);
    for (;;) {
        while (ra->count == FST_RA_BUFS && !ra->stop)
            pthread_cond_wait(&ra->emptied, &ra->mu);
        if (ra->stop)
            break;
        unsigned i = ra->tail;
        pthread_mutex_unlock(&ra->mu); /* the buffer at tail is the thread's alone */
        ssize_t k = read_some(ra->fd, ra->buf[i], FST_RA_CHUNK);
        int e = errno;
        pthread_mutex_lock(&ra->mu);
        if (k <= 0) {
            ra->err_no = k < 0 ? e : 0;
            break;
        }
        ra->len[i] = (size_t)k;
        ra->offset += (uint64_t)k;
        ra->tail = (i + 1) % FST_RA_BUFS;
        ra->count++;
        pthread_cond_signal(&ra->filled);
    }
    ra->done = 1;
    pthread_cond_signal(&ra->filled);
    pthread_mutex_unlock(&ra->mu);
    return NULL;
}

fst_ra *fst_ra_open(int fd, const char *name)
{
    fst_ra *ra = fst_xcalloc(1, sizeof *ra);
    ra->fd = fd;
    ra->name = fst_xstrdup(name);
    for (int i = 0; i < FST_RA_BUFS; i++)
        ra->buf[i] = fst_xmalloc(FST_RA_CHUNK);
    pthread_mutex_init(&ra->mu, NULL);
    pthread_cond_init(&ra->filled, NULL);
    pthread_cond_init(&ra->emptied, NULL);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits the mask: no signal for it */
    int rc = pthread_create(&ra->thread, NULL, reader, ra);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc)
        fst_die("cannot start a thread to read %s: %s", name, strerror(rc));
    return ra;
}

ssize_t fst_ra_next(fst_ra *ra, const char **data, fst_err *err)
{
    pthread_mutex_lock(&ra->mu);
    if (ra->held) { /* the chunk handed out last time is free again */
        ra->held = 0;
        ra->head = (ra->head + 1) % FST_RA_BUFS;
        ra->count--;
        pthread_cond_signal(&ra->emptied);
    }
    while (!ra->count && !ra->done)
        pthread_cond_wait(&ra->filled, &ra->mu);
    ssize_t n = 0;
    if (ra->count) {
        ra->held = 1;
        *data = ra->buf[ra->head];
        n = (ssize_t)ra->len[ra->head];
    } else if (ra->err_no) {
        errno = ra->err_no;
        n = fst_errno(err, "%s: byte %llu: cannot read", ra->name, (unsigned long long)ra->offset);
    }
    pthread_mutex_unlock(&ra->mu);
    return n;
}

void fst_ra_close(fst_ra *ra)
{
    if (!ra)
        return;
    pthread_mutex_lock(&ra->mu);
    ra->stop = 1;
    pthread_cond_signal(&ra->emptied);
    pthread_mutex_unlock(&ra->mu);
    pthread_join(ra->thread, NULL);
    pthread_mutex_destroy(&ra->mu);
    pthread_cond_destroy(&ra->filled);
    pthread_cond_destroy(&ra->emptied);
    for (int i = 0; i < FST_RA_BUFS; i++)
        free(ra->buf[i]);
    free(ra->name);
    free(ra);
}
