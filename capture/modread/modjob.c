/* capture/modread/modjob.c — see modjob.h. */
#include "capture/modread/modjob.h"
#include "capture/module/fstmod_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

fst_modjob *fst_modjob_new(const char *name)
{
    fst_jobwin *w = fst_jobwin_new(name);
    if (!w)
        return NULL;
    fst_modjob *j = fst_xcalloc(1, sizeof *j);
    j->win = w;
    return j;
}

void fst_modjob_free(fst_modjob *j)
{
    if (j)
        fst_jobwin_free(j->win);
    free(j);
}

static int pass(void *ctx, const char *data, size_t n)
{
    (void)ctx, (void)data, (void)n;
    return 0;
}

int fst_modjob_line(void *ctx, unsigned cpu, uint64_t seq, const char *text, size_t n)
{
    fst_modjob *j = ctx;
    (void)cpu;
    if (fst_jobwin_ended(j->win))
        return 1;
    int started = fst_jobwin_started(j->win);
    j->lines++;
    /* a line's newline ends it for the window (a line holds none of its own) */
    if (fst_jobwin_feed(j->win, text, n, pass, NULL) || fst_jobwin_feed(j->win, "\n", 1, pass, NULL))
        return 1;
    if (!started && fst_jobwin_started(j->win))
        j->start_seq = seq;
    if (fst_jobwin_ended(j->win)) {
        j->end_seq = seq;
        return 1;
    }
    return 0;
}

int fst_modjob_started(const fst_modjob *j) { return fst_jobwin_started(j->win); }
int fst_modjob_ended(const fst_modjob *j) { return fst_jobwin_ended(j->win); }
const char *fst_modjob_name(const fst_modjob *j) { return fst_jobwin_name(j->win); }
const char *fst_modjob_other(const fst_modjob *j) { return fst_jobwin_other(j->win); }
const char *fst_modjob_first(const fst_modjob *j) { return fst_jobwin_first(j->win); }

static void req_path(const char *fifo, char *p, size_t cap)
{
    snprintf(p, cap, "%s%s", fifo, FSTMOD_REQ_SUFFIX);
}

int fst_modjob_request(const char *fifo, const char *name, fst_err *err)
{
    char p[4096 + 8], old[8] = "";
    req_path(fifo, p, sizeof p);
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) { /* only a request of fst's own is replaced */
        struct stat sb;
        ssize_t k = !fstat(fd, &sb) && S_ISREG(sb.st_mode) ? read(fd, old, sizeof old - 1) : -1;
        close(fd);
        if (k < 0 || (k > 0 && strncmp(old, "job ", 4)))
            return fst_errf(err, "%s: there already, and not a request of fst's (the file beside the FIFO where "
                                 "fst-capture asks the module for a job): remove it", p);
        unlink(p);
    }
    if (!name)
        return 0;
    fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return fst_errno(err, "%s: cannot create the module's request", p);
    char line[32];
    int n = snprintf(line, sizeof line, "job %s\n", name);
    int bad = write(fd, line, (size_t)n) != n;
    if (close(fd) || bad) {
        unlink(p);
        return fst_errno(err, "%s: cannot write the module's request", p);
    }
    return 0;
}

void fst_modjob_unrequest(const char *fifo)
{
    char p[4096 + 8];
    req_path(fifo, p, sizeof p);
    struct stat sb;
    if (!lstat(p, &sb) && S_ISREG(sb.st_mode))
        unlink(p);
}
