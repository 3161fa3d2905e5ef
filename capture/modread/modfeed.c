/* capture/modread/modfeed.c — see modfeed.h. */
#include "capture/modread/modfeed.h"
#include "common/err.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MF_READ (1u << 20)

void fst_mf_init(fst_mf *f, int fd, const char *what, fst_ms *ms, fst_em *em)
{
    *f = (fst_mf){ .fd = fd, .what = what, .ms = ms, .em = em };
}

void fst_mf_free(fst_mf *f)
{
    free(f->buf);
    f->buf = NULL;
    f->off = f->end = 0;
}

uint64_t fst_mf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int over(const fst_mf *f)
{
    const fst_em_stats *st = fst_em_getstats(f->em);
    return st->ended || st->limit_hit || fst_ms_cut(f->ms, NULL);
}

/* What the last read left, in slices, until the deadline or the stream is over. */
static int feed(fst_mf *f, uint64_t deadline, fst_err *err)
{
    while (f->off < f->end) {
        size_t k = f->end - f->off < FST_MF_SLICE ? f->end - f->off : FST_MF_SLICE;
        if (fst_ms_feed(f->ms, f->buf + f->off, k, err))
            return -1;
        f->off += k;
        if (over(f) || fst_mf_now() >= deadline)
            break;
    }
    return 0;
}

int fst_mf_pump(fst_mf *f, uint64_t deadline, fst_err *err)
{
    if (!f->buf)
        f->buf = fst_xmalloc(MF_READ);
    for (;;) {  /* at least one slice fed (or one read) a call, whatever the deadline */
        if (f->off == f->end) {
            ssize_t n = read(f->fd, f->buf, MF_READ);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EAGAIN)
                return 0;
            if (n < 0)
                return fst_errno(err, "%s: read", f->what);
            if (n == 0)
                return 1;
            f->bytes += (uint64_t)n;
            f->off = 0;
            f->end = (size_t)n;
        }
        if (feed(f, deadline, err))
            return -1;
        if (f->off < f->end || over(f) || fst_mf_now() >= deadline)
            return 0;
    }
}
