/* common/outfile.c — all-or-nothing output files; see outfile.h. */
#include "common/outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files open now, for the exit and signal paths (async-signal-safe: the
** handler only reads these pointers and calls unlink). */
#define MAXTMP 16
static char *volatile open_tmp[MAXTMP];
static int hooked;

static void remove_all(void)
{
    for (int i = 0; i < MAXTMP; i++)
        if (open_tmp[i])
            unlink(open_tmp[i]);
}

static void on_signal(int sig)
{
    remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void hook(void)
{
    if (hooked)
        return;
    hooked = 1;
    fst_at_exit_now(remove_all);
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
            struct sigaction sa = { 0 };
            sa.sa_handler = on_signal;
            sigaction(sigs[i], &sa, NULL);
        }
    }
}

static void track(char *tmp, int on)
{
    for (int i = 0; i < MAXTMP; i++)
        if (on ? !open_tmp[i] : open_tmp[i] == tmp) {
            open_tmp[i] = on ? tmp : NULL;
            return;
        }
}

/* The temporary file next to `path`: "DIR/.BASE.XXXXXX" */
static char *tmp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dl;
    size_t bl = strlen(base);
    if (bl > 200) /* room for the dot and the suffix within NAME_MAX */
        bl = 200;
    char *t = fst_xmalloc(dl + bl + 10);
    memcpy(t, path, dl);
    t[dl] = '.';
    memcpy(t + dl + 1, base, bl);
    memcpy(t + dl + 1 + bl, ".XXXXXX", 8);
    return t;
}

int fst_out_open(fst_out *o, const char *path, fst_err *err)
{
    memset(o, 0, sizeof *o);
    if (!path || !strcmp(path, "-")) {
        o->f = stdout;
        o->name = "standard output";
        return 0;
    }
    o->name = path;
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) { /* a device, a FIFO: written as it is */
        if (!(o->f = fopen(path, "w")))
            return fst_errno(err, "%s: cannot open", path);
        o->path = fst_xstrdup(path);
        return 0;
    }
    char *target = exists ? realpath(path, NULL) : NULL; /* a symlink's file is replaced, not the link */
    o->path = target ? target : fst_xstrdup(path);
    mode_t mode;
    if (exists)
        mode = sb.st_mode & 07777;
    else {
        mode = umask(0);
        umask(mode);
        mode = 0666 & ~mode;
    }
    hook();
    o->tmp = tmp_name(o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        if (exists && (e == EACCES || e == EPERM)) {
            /* a folder we may not create in, a file we may write: in place, as before */
            if ((o->f = fopen(path, "w")))
                return 0;
            e = errno;
        }
        free(o->path);
        o->path = NULL;
        errno = e;
        return fst_errno(err, "%s: cannot create", path);
    }
    track(o->tmp, 1);
    if (fchmod(fd, mode) < 0 || !(o->f = fdopen(fd, "w"))) {
        fst_errno(err, "%s: cannot create", path);
        close(fd);
        fst_out_abort(o);
        return -1;
    }
    return 0;
}

void fst_out_abort(fst_out *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        track(o->tmp, 0);
        free(o->tmp);
    }
    free(o->path);
    memset(o, 0, sizeof *o);
}

int fst_out_close(fst_out *o, fst_err *err)
{
    if (o->f == stdout) {
        int bad = fflush(stdout) != 0 || ferror(stdout);
        memset(o, 0, sizeof *o);
        return bad ? fst_errno(err, "standard output: cannot write") : 0;
    }
    int bad = fflush(o->f) != 0 || ferror(o->f);
    if (!bad && o->tmp && fsync(fileno(o->f)) != 0 && errno != EINVAL)
        bad = 1;
    int e = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        errno = e;
        fst_errno(err, "%s: cannot write", o->name);
        fst_out_abort(o);
        return -1;
    }
    if (o->tmp) {
        track(o->tmp, 0);
        free(o->tmp);
    }
    free(o->path);
    memset(o, 0, sizeof *o);
    return 0;
}

int fst_out_check(const char *option, const char *out, const char *const *inputs, size_t n, fst_err *err)
{
    struct stat so, si;
    if (!out || !strcmp(out, "-") || stat(out, &so) != 0 || !S_ISREG(so.st_mode))
        return 0;
    for (size_t i = 0; i < n; i++) {
        const char *in = inputs[i];
        if (!in || !strcmp(in, "-") || stat(in, &si) != 0 || si.st_dev != so.st_dev || si.st_ino != so.st_ino)
            continue;
        if (!strcmp(in, out))
            return fst_errf(err, "%s %s: that is an input: refusing to write over it", option, out);
        return fst_errf(err, "%s %s: the same file as the input %s: refusing to write over it", option, out, in);
    }
    return 0;
}
