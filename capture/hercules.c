/* capture/hercules.c — see hercules.h. */
#include "capture/hercules.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char cnf[512], rc[512], insl[8192];
    snprintf(cnf, sizeof cnf,
             "# written by fst-capture\nARCHMODE %s\nMAINSIZE %u\nNUMCPU %u\nCPUSERIAL 000611\nCPUMODEL 3090\n"
             "PANRATE FAST\n# Hercules wants at least one device\n000C 3505 /dev/null\n",
             archmode[o->arch & 3], o->mainsize_mb ? o->mainsize_mb : 2, o->numcpu ? o->numcpu : 1);
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

/* Hercules' stderr: a file in the folder, unlinked at once (read through errfd at the
** end), so that it never outlives the capture. */
static int open_stderr(fst_herc *h, fst_err *err)
{
    char p[320];
    snprintf(p, sizeof p, "%s/stderr.txt", h->dir);
    h->errfd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (h->errfd < 0)
        return fst_errno(err, "%s: cannot create", p);
    unlink(p);
    return 0;
}

static void rm_dir(fst_herc *h)
{
    static const char *files[] = { "hercules.cnf", "hercules.rc", "program.ins" };
    char p[320];
    if (!h->dir[0])
        return;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", h->dir, files[i]);
        unlink(p);
    }
    for (size_t i = 0; i < h->npieces; i++) {
        snprintf(p, sizeof p, "%s/piece%zu.bin", h->dir, i);
        unlink(p);
    }
    rmdir(h->dir);
    h->dir[0] = 0;
}

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err)
{
    memset(h, 0, sizeof *h);
    h->proc = (fst_child){ -1, -1 };
    h->errfd = -1;
    h->ins = ins;
    const char *tmp = getenv("TMPDIR");
    snprintf(h->dir, sizeof h->dir, "%s/fst-capture.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(h->dir)) {
        fst_errno(err, "%s: cannot create a temporary folder", h->dir);
        h->dir[0] = 0;
        return -1;
    }
    if (write_files(h, o, ins, err) || open_stderr(h, err))
        return -1;
    const char *prog = o->hercules ? o->hercules : "hercules";
    char cfg[300], rcenv[320];
    snprintf(cfg, sizeof cfg, "%s/hercules.cnf", h->dir);
    snprintf(rcenv, sizeof rcenv, "HERCULES_RC=%s/hercules.rc", h->dir);
    char *argv[] = { (char *)prog, "-d", "-f", cfg, NULL };
    char *env[] = { rcenv, NULL };
    if (fst_child_spawn(&h->proc, argv, h->dir, h->errfd, env, err)) {
        if (strstr(err->msg, ": not found"))
            fst_errf(err, "cannot run '%s': not found (install Debian's 'hercules' package, or give "
                          "--hercules=PATH)", prog);
        return -1;
    }
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux */
#endif
    fcntl(h->proc.out, F_SETPIPE_SZ, 1 << 20); /* room for ~10 ms of trace: fewer wake-ups (best effort) */
    h->watching = 1;
    return 0;
}

/* One whole line of the log while Hercules starts. 3.13 ends its script with HHCPN013I,
** 4.x with HHC02264I: every file of the folder has been read by then. */
static void watch_line(fst_herc *h, const char *s)
{
    if (strstr(s, "HHCPN013I") || strstr(s, "HHC02264I")) {
        h->watching = 0;
        rm_dir(h);
    }
}

int fst_herc_watch(fst_herc *h, const char *buf, size_t n, int traced, fst_err *err)
{
    (void)err;
    for (size_t i = 0; i < n && h->watching; i++) {
        if (buf[i] != '\n') {
            if (h->linelen < sizeof h->line - 1)
                h->line[h->linelen++] = buf[i]; /* a longer line is no message of interest */
            continue;
        }
        h->line[h->linelen] = 0;
        h->linelen = 0;
        watch_line(h, h->line);
    }
    if (traced && h->watching) { /* the IPL has loaded everything */
        h->watching = 0;
        rm_dir(h);
    }
    return 0;
}

void fst_herc_kill(fst_herc *h)
{
    fst_child_kill(&h->proc);
}

/* The lines of Hercules' stderr that look like errors: its shutdown chatter is not news. */
static void read_tail(int fd, char *tail, size_t tailcap)
{
    tail[0] = 0;
    if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
        return;
    int d = dup(fd);
    FILE *f = d >= 0 ? fdopen(d, "r") : NULL;
    if (!f) {
        if (d >= 0)
            close(d);
        return;
    }
    char line[256];
    size_t k = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "E ") == line + 9 || strstr(line, "S ") == line + 9 || !strstr(line, "HHC"))
            k += (size_t)snprintf(tail + k, k < tailcap ? tailcap - k : 0, "  %s", line);
    fclose(f);
}

void fst_herc_finish(fst_herc *h, int *status, char *tail, size_t tailcap)
{
    int st = fst_child_wait(&h->proc);
    if (status)
        *status = st;
    if (tail && tailcap)
        read_tail(h->errfd, tail, tailcap);
    if (h->errfd >= 0)
        close(h->errfd);
    h->errfd = -1;
    h->watching = 0;
    rm_dir(h);
}
