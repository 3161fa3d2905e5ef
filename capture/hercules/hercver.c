/* capture/hercules/hercver.c — see hercver.h. */
#include "capture/hercules/hercver.h"
#include "capture/hercules/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int fst_herc_banner(const char *s, size_t n, fst_herc_ver *v)
{
    static const char key[] = "Hercules ";
    for (size_t i = 0; i + sizeof key - 1 + 9 < n; i++) {
        if (memcmp(s + i, key, sizeof key - 1))
            continue;
        const char *p = s + i + sizeof key - 1, *end = s + n;
        /* 3.x "Version", 4.x "version": the word, one blank, then a digit */
        if ((*p != 'V' && *p != 'v') || memcmp(p + 1, "ersion ", 7) || p[8] < '0' || p[8] > '9')
            continue;
        p += 8;
        size_t len = 0;
        while (p + len < end && p[len] > ' ' && p[len] < 0x7F)
            len++;
        int major = 0, minor = 0;
        const char *q = p;
        while (q < p + len && *q >= '0' && *q <= '9' && major < 1000)
            major = major * 10 + (*q++ - '0');
        if (q < p + len && *q == '.')
            for (q++; q < p + len && *q >= '0' && *q <= '9' && minor < 1000; q++)
                minor = minor * 10 + (*q - '0');
        v->major = major;
        v->minor = minor;
        snprintf(v->text, sizeof v->text, "%.*s", (int)(len < sizeof v->text ? len : sizeof v->text - 1), p);
        return 1;
    }
    return 0;
}

int fst_herc_is4(const fst_herc_ver *v) { return v->major >= 4; }

int fst_herc_has_api(const fst_herc_ver *v) { return v->major > 4 || (v->major == 4 && v->minor >= 7); }

int fst_herc_has_tf(const fst_herc_ver *v)
{
    return v->major > FST_HERC_TF_MAJOR || (v->major == FST_HERC_TF_MAJOR && v->minor >= FST_HERC_TF_MINOR);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lines of the probe's output until a banner, its end, or the time is up. */
static void read_banner(int fd, fst_herc_ver *v)
{
    char buf[8192];
    size_t have = 0;
    double t0 = mono();
    while (mono() - t0 < 5.0) {
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, 100) < 0 && errno != EINTR)
            return;
        ssize_t got = read(fd, buf + have, sizeof buf - 1 - have);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return;
        have += (size_t)got;
        char *nl, *line = buf;
        while ((nl = memchr(line, '\n', have - (size_t)(line - buf)))) {
            if (fst_herc_banner(line, (size_t)(nl - line), v))
                return;
            line = nl + 1;
        }
        have -= (size_t)(line - buf);
        memmove(buf, line, have);
        if (have == sizeof buf - 1) /* a line that long is no banner */
            have = 0;
    }
}

int fst_herc_probe(const char *prog, const char *dir, fst_herc_ver *v, fst_err *err)
{
    memset(v, 0, sizeof *v);
    const char *p = prog ? prog : "hercules";
    char *argv[] = { (char *)p, "--help=version", NULL };
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0)
        return fst_errno(err, "/dev/null");
    fst_child c;
    int rc = fst_child_spawn(&c, argv, dir, null, NULL, err);
    close(null);
    if (rc)
        return -1;
    fcntl(c.out, F_SETFL, fcntl(c.out, F_GETFL) | O_NONBLOCK);
    read_banner(c.out, v);
    fst_child_kill(&c); /* its answer is read; nothing else of it is wanted */
    fst_child_wait(&c);
    return 0;
}
