/* capture/read/confile.c — see confile.h. */
#include "capture/read/confile.h"
#include "capture/read/jobwin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fst_confile {
    const char *path;
    int fd;
    off_t off;              /* read up to here */
    fst_jobwin *win;
};

fst_confile *fst_confile_open(const char *path, const char *job, fst_err *err)
{
    fst_jobwin *win = fst_jobwin_new(job);
    if (!win) {
        fst_errf(err, "--job wants a job name, not '%s'", job);
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb)) {
        fst_errno(err, "--console=%s", path);
        if (fd >= 0)
            close(fd);
        fst_jobwin_free(win);
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        fst_errf(err, "--console=%s: not a regular file (the hardcopy or log file Hercules writes)", path);
        close(fd);
        fst_jobwin_free(win);
        return NULL;
    }
    fst_confile *f = fst_xcalloc(1, sizeof *f);
    f->path = path;
    f->fd = fd;
    f->off = sb.st_size; /* from its end: what is there is an earlier run's */
    f->win = win;
    return f;
}

static int pass(void *ctx, const char *data, size_t n)
{
    (void)ctx, (void)data, (void)n;
    return 0;
}

int fst_confile_poll(fst_confile *f, fst_err *err)
{
    struct stat sb;
    if (fstat(f->fd, &sb))
        return fst_errno(err, "--console=%s", f->path);
    if (sb.st_size < f->off) /* rotated or truncated: its new start */
        f->off = 0;
    char buf[1 << 16];
    while (!fst_jobwin_ended(f->win)) {
        ssize_t n = pread(f->fd, buf, sizeof buf, f->off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fst_errno(err, "--console=%s: read", f->path);
        if (n == 0)
            break;
        f->off += n;
        fst_jobwin_feed(f->win, buf, (size_t)n, pass, NULL);
    }
    return 0;
}

int fst_confile_started(const fst_confile *f) { return fst_jobwin_started(f->win); }
int fst_confile_ended(const fst_confile *f) { return fst_jobwin_ended(f->win); }
uint64_t fst_confile_lines(const fst_confile *f) { return fst_jobwin_lines(f->win); }

void fst_confile_close(fst_confile *f)
{
    if (!f)
        return;
    close(f->fd);
    fst_jobwin_free(f->win);
    free(f);
}
