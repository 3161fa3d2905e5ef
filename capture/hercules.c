/* capture/hercules.c — see hercules.h. */
#include "capture/hercules.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_text(const char *dir, const char *name, const char *text, fst_err *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return fst_errno(err, "%s: cannot create", path);
    fputs(text, f);
    if (fclose(f))
        return fst_errno(err, "%s: cannot write", path);
    return 0;
}

static int write_files(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err)
{
    static const char *archmode[] = { "S/370", "ESA/390", "z/Arch", "S/370" };
    char cnf[768], rc[512], insl[8192], http[160] = "";
    if (o->httpport) /* sampling: the PSW is read through the HTTP server (capture/sample.h) */
        snprintf(http, sizeof http, "HTTPPORT %u %s%s\n", o->httpport, o->httpauth ? "AUTH " : "NOAUTH",
                 o->httpauth ? o->httpauth : "");
    snprintf(cnf, sizeof cnf,
             "# written by fst-capture\nARCHMODE %s\nMAINSIZE %u\nNUMCPU %u\nCPUSERIAL 000611\nCPUMODEL 3090\n"
             "PANRATE FAST\n%s# Hercules wants at least one device\n000C 3505 /dev/null\n",
             archmode[o->arch & 3], o->mainsize_mb ? o->mainsize_mb : 2, o->numcpu ? o->numcpu : 1, http);
    if (o->httpport)
        snprintf(rc, sizeof rc, "hao tgt HHCCP011I\nhao cmd quit\nhao tgt HHC00809I\nhao cmd quit\nipl %s/program.ins\n",
                 h->dir);
    else
        snprintf(rc, sizeof rc,
                 "hao tgt HHCCP011I\nhao cmd quit\nhao tgt HHC00809I\nhao cmd quit\n"
                 "traceopt %s\nt+%s%s\nipl %s/program.ins\n",
                 o->traceopt ? o->traceopt : "noregs", o->range ? " " : "", o->range ? o->range : "", h->dir);
    /* Hercules 3.13 does not load absolute paths from an IPL list: the pieces are copied
    ** next to it, so what Hercules loads is also exactly what goes into the trace. */
    size_t k = 0;
    insl[0] = 0;
    for (size_t i = 0; i < ins->n && k < sizeof insl; i++) {
        char name[32], path[320];
        snprintf(name, sizeof name, "piece%zu.bin", i);
        snprintf(path, sizeof path, "%s/%s", h->dir, name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(ins->seg[i].data, 1, ins->seg[i].len, f) != ins->seg[i].len || fclose(f)) {
            if (f)
                fclose(f);
            return fst_errno(err, "%s: cannot write", path);
        }
        h->npieces = i + 1;
        k += (size_t)snprintf(insl + k, sizeof insl - k, "%s 0x%llX\n", name, (unsigned long long)ins->seg[i].addr);
    }
    if (k >= sizeof insl)
        return fst_errf(err, "the IPL list is too long");
    if (write_text(h->dir, "hercules.cnf", cnf, err) || write_text(h->dir, "hercules.rc", rc, err) ||
        write_text(h->dir, "program.ins", insl, err))
        return -1;
    return 0;
}

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err)
{
    memset(h, 0, sizeof *h);
    h->pid = -1;
    h->fd = -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(h->dir, sizeof h->dir, "%s/fst-capture.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(h->dir))
        return fst_errno(err, "%s: cannot create a temporary folder", h->dir);
    if (write_files(h, o, ins, err))
        return -1;
    int out[2], ep[2];
    if (pipe(out) || pipe(ep) || fcntl(ep[1], F_SETFD, FD_CLOEXEC))
        return fst_errno(err, "pipe");
    const char *prog = o->hercules ? o->hercules : "hercules";
    char cfg[300], rcpath[300], errpath[300];
    snprintf(cfg, sizeof cfg, "%s/hercules.cnf", h->dir);
    snprintf(rcpath, sizeof rcpath, "%s/hercules.rc", h->dir);
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", h->dir);
    pid_t pid = fork();
    if (pid < 0)
        return fst_errno(err, "fork");
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (null < 0 || e < 0 || dup2(null, 0) < 0 || dup2(out[1], 1) < 0 || dup2(e, 2) < 0 || chdir(h->dir))
            goto fail;
        close(out[0]);
        close(out[1]);
        setenv("HERCULES_RC", rcpath, 1);
        signal(SIGINT, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execlp(prog, prog, "-d", "-f", cfg, (char *)NULL);
    fail:;
        int code = errno;
        if (write(ep[1], &code, sizeof code) < 0)
            _exit(127);
        _exit(127);
    }
    close(out[1]);
    close(ep[1]);
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux */
#endif
    fcntl(out[0], F_SETPIPE_SZ, 1 << 20); /* room for ~10 ms of trace: fewer wake-ups (best effort) */
    setpgid(pid, pid); /* also here: no race with an early kill */
    int code = 0;
    ssize_t got;
    while ((got = read(ep[0], &code, sizeof code)) < 0 && errno == EINTR)
        ;
    close(ep[0]);
    h->pid = pid;
    h->fd = out[0];
    if (got == (ssize_t)sizeof code) {
        int st;
        waitpid(pid, &st, 0);
        h->pid = -1;
        close(h->fd);
        h->fd = -1;
        errno = code;
        if (code == ENOENT)
            return fst_errf(err, "cannot run '%s': not found (install Debian's 'hercules' package, or give "
                                 "--hercules=PATH)", prog);
        return fst_errno(err, "cannot run '%s'", prog);
    }
    return 0;
}

void fst_herc_kill(fst_herc *h)
{
    if (h->pid > 0)
        kill(-h->pid, SIGKILL);
}

static void rm_dir(const char *dir, size_t npieces)
{
    static const char *files[] = { "hercules.cnf", "hercules.rc", "program.ins", "stderr.txt" };
    char p[320];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    for (size_t i = 0; i < npieces; i++) {
        snprintf(p, sizeof p, "%s/piece%zu.bin", dir, i);
        unlink(p);
    }
    rmdir(dir);
}

void fst_herc_finish(fst_herc *h, int *status, char *tail, size_t tailcap)
{
    int st = 0;
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
    if (h->pid > 0) {
        while (waitpid(h->pid, &st, 0) < 0 && errno == EINTR)
            ;
        kill(-h->pid, SIGKILL); /* anything it left behind in its group */
    }
    h->pid = -1;
    if (status)
        *status = st;
    if (tail && tailcap) {
        tail[0] = 0;
        char p[320];
        snprintf(p, sizeof p, "%s/stderr.txt", h->dir);
        FILE *f = fopen(p, "r");
        if (f) {
            char line[256];
            size_t k = 0;
            /* keep the error-looking lines: Hercules' shutdown chatter is not news */
            while (fgets(line, sizeof line, f))
                if (strstr(line, "E ") == line + 9 || strstr(line, "S ") == line + 9 || !strstr(line, "HHC"))
                    k += (size_t)snprintf(tail + k, k < tailcap ? tailcap - k : 0, "  %s", line);
            fclose(f);
        }
    }
    if (h->dir[0])
        rm_dir(h->dir, h->npieces);
    h->dir[0] = 0;
}
