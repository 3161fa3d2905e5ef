/* capture/hercules/child.c — see child.h. */
#include "capture/hercules/child.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* In the child, between fork and exec: only async-signal-safe calls, and setenv (the
** parent is single-threaded then: the trace writer's thread, trace/tracebin_behind.c, is
** made at its first event frame, after Hercules started). Any failure is reported through
** `ep` as an errno. */
static void child_side(char *const argv[], const char *dir, int in, int out, int errfd, char *const env[], int ep,
                       pid_t parent)
{
#ifdef __linux__
    /* die with the parent; if it is already gone, we were adopted: nobody reads us */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGINT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL); /* fst ignores it; Hercules should not inherit that */
    int null = in >= 0 ? in : open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0 || chdir(dir))
        goto fail;
    for (char *const *e = env; e && *e; e++)
        if (putenv(*e))
            goto fail;
    execvp(argv[0], argv);
fail:;
    int code = errno;
    if (write(ep, &code, sizeof code) < 0)
        _exit(127);
    _exit(127);
}

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd))
        return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static int spawn(fst_child *c, char *const argv[], const char *dir, int errfd, char *const env[], int want_in,
                 fst_err *err)
{
    c->pid = -1;
    c->out = -1;
    c->in = -1;
    int out[2], ep[2], in[2] = { -1, -1 };
    if (want_in && cloexec_pipe(in))
        return fst_errno(err, "pipe");
    if (cloexec_pipe(out)) {
        if (want_in) {
            close(in[0]);
            close(in[1]);
        }
        return fst_errno(err, "pipe");
    }
    if (cloexec_pipe(ep)) {
        close(out[0]);
        close(out[1]);
        if (want_in) {
            close(in[0]);
            close(in[1]);
        }
        return fst_errno(err, "pipe");
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_side(argv, dir, in[0], out[1], errfd, env, ep[1], parent);
    int fork_errno = errno;
    close(out[1]);
    close(ep[1]);
    if (want_in)
        close(in[0]);
    if (pid < 0) {
        close(out[0]);
        close(ep[0]);
        if (want_in)
            close(in[1]);
        errno = fork_errno;
        return fst_errno(err, "fork");
    }
    setpgid(pid, pid); /* also here: a kill of the group right after fork finds it */
    int code = 0;
    ssize_t got;
    while ((got = read(ep[0], &code, sizeof code)) < 0 && errno == EINTR)
        ;
    close(ep[0]);
    c->pid = pid;
    c->out = out[0];
    c->in = want_in ? in[1] : -1;
    if (got == (ssize_t)sizeof code) { /* exec failed: the child says why, and exits */
        fst_child_wait(c);
        errno = code;
        if (code == ENOENT)
            return fst_errf(err, "cannot run '%s': not found", argv[0]);
        return fst_errno(err, "cannot run '%s'", argv[0]);
    }
    return 0;
}

int fst_child_spawn(fst_child *c, char *const argv[], const char *dir, int errfd, char *const env[], fst_err *err)
{
    return spawn(c, argv, dir, errfd, env, 0, err);
}

int fst_child_spawn_in(fst_child *c, char *const argv[], const char *dir, int errfd, char *const env[],
                       fst_err *err)
{
    return spawn(c, argv, dir, errfd, env, 1, err);
}

int fst_child_exited(const fst_child *c)
{
    if (c->pid <= 0)
        return 1;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    /* WNOWAIT: look, do not reap (the status is fst_child_wait's to return) */
    if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
        return errno == ECHILD; /* EINTR: it is not known to have exited */
    return si.si_pid == c->pid;
}

void fst_child_kill(const fst_child *c)
{
    if (c->pid > 0)
        kill(-c->pid, SIGKILL);
}

static void close_pipes(fst_child *c)
{
    if (c->out >= 0)
        close(c->out);
    c->out = -1;
    if (c->pid > 0 && c->in >= 0) /* set by the spawn (a zeroed struct would say 0) */
        close(c->in);
    c->in = -1;
}

static int reap(fst_child *c)
{
    int st = 0;
    if (c->pid > 0) {
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
            ;
        kill(-c->pid, SIGKILL); /* anything it left behind in its group */
    }
    c->pid = -1;
    return st;
}

int fst_child_wait(fst_child *c)
{
    close_pipes(c);
    return reap(c);
}

int fst_child_wait_within(fst_child *c, unsigned ms, int *killed)
{
    close_pipes(c);
    *killed = 0;
    /* in steps of 1 ms for the first 50 (a killed Hercules is gone in 10 to 20: each step
    ** more is a capture's wall time), then of 10 */
    for (unsigned waited = 0, step = 1; c->pid > 0; waited += step, step = waited < 50 ? 1 : 10) {
        int st = 0;
        pid_t r = waitpid(c->pid, &st, WNOHANG);
        if (r == c->pid) {
            kill(-c->pid, SIGKILL);
            c->pid = -1;
            return st;
        }
        if (r < 0 && errno != EINTR)
            break;
        if (waited >= ms) {
            kill(-c->pid, SIGKILL);
            *killed = 1;
            break;
        }
        nanosleep(&(struct timespec){ 0, (long)step * 1000 * 1000 }, NULL);
    }
    return reap(c);
}
