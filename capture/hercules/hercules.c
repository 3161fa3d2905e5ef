/* capture/hercules/hercules.c — see hercules.h. */
#include "capture/hercules/hercules.h"
#include "capture/hercules/herc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

/* A value for the script or the configuration: one word of letters, digits and . _ / -,
** so that no text from outside fst (a newline, a blank, a '#') can add a command or cut
** one short. */
static int script_word(const char *what, const char *v, fst_err *err)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-";
    if (!*v || v[strspn(v, ok)])
        return fst_errf(err, "%s '%s' cannot go into Hercules' start-up script (letters, digits and . _ / - only)",
                        what, v);
    return 0;
}

/* Priorities no more favourable than fst's own: the caller's nice value for Hercules, its
** timer and its CPU thread, and for its device threads Hercules' default (DEVPRIO 8) when
** that is nicer. Not Hercules 3.13's CPUPRIO 15: a CPU thread niced below the caller's other
** processes is the thread that waits on a busy host, and a sampled run's samples then repeat
** one PSW while it waits (shares.s sampled beside a busy loop on its core: 5.1 s and a design
** effect of 9.8 at 15; 0.42 s and no repeats at the caller's 0; docs/programs.md). */
static void priorities(char *buf, size_t cap)
{
    errno = 0;
    int n = getpriority(PRIO_PROCESS, 0);
    if (n == -1 && errno)
        n = 0;
    snprintf(buf, cap, "HERCPRIO %d\nTODPRIO %d\nCPUPRIO %d\nDEVPRIO %d\n", n, n, n, n > 8 ? n : 8);
}

/* A copy of the file src as dir/name. */
static int copy_file(const char *src, const char *dir, const char *name, fst_err *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(src, "rb");
    if (!in)
        return fst_errno(err, "%s: cannot open", src);
    FILE *out = fopen(path, "wb");
    if (!out) {
        fclose(in);
        return fst_errno(err, "%s: cannot create", path);
    }
    char buf[8192];
    size_t n;
    int bad = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        bad |= fwrite(buf, 1, n, out) != n;
    bad |= ferror(in);
    fclose(in);
    if (fclose(out) || bad)
        return fst_errno(err, "%s: cannot copy into %s", src, path);
    return 0;
}

static int write_files(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err)
{
    static const char *archmode[] = { "S/370", "ESA/390", "z/Arch", "S/370" };
    const char *traceopt = o->traceopt ? o->traceopt : "noregs";
    if (script_word("the trace option", traceopt, err) || (o->range && script_word("the range", o->range, err)) ||
        (o->ldmod && script_word("the module's path", o->ldmod, err)) ||
        (o->ldmod4 && script_word("the module's path", o->ldmod4, err)))
        return -1;
    unsigned mainsize = o->mainsize_mb < FST_HERC_MAINSIZE_MIN ? FST_HERC_MAINSIZE_MIN : o->mainsize_mb;
    if (mainsize > FST_HERC_MAINSIZE_MAX)
        return fst_errf(err, "main storage of %u MB: Hercules 3.13 takes at most %u MB", mainsize,
                        FST_HERC_MAINSIZE_MAX);
    char cnf[768], prio[128], rc[512], insl[8192], http[160] = "";
    const char *reader = "000C 3505 /dev/null\n";
    if (o->cards) { /* Hercules runs in the folder: the deck is copied there, as the pieces are */
        if (copy_file(o->cards, h->dir, "cards.bin", err))
            return -1;
        reader = "000C 3505 cards.bin ebcdic autopad\n";
    }
    priorities(prio, sizeof prio);
    if (o->httpport && h->v4) /* 4.x: HTTP PORT, then HTTP START (its HTTPPORT is refused) */
        snprintf(http, sizeof http, "HTTP PORT %u %s%s\nHTTP START\n", o->httpport, o->httpauth ? "AUTH " : "NOAUTH",
                 o->httpauth ? o->httpauth : "");
    else if (o->httpport) /* sampling: the PSW is read through the HTTP server (capture/sample/sample.h) */
        snprintf(http, sizeof http, "HTTPPORT %u %s%s\n", o->httpport, o->httpauth ? "AUTH " : "NOAUTH",
                 o->httpauth ? o->httpauth : "");
    /* SHCMDOPT: nothing fst writes needs Hercules' `sh`; off, no script line can run one */
    const char *ldmod = fst_herc_ldmod(h, o);
    if (h->v4) /* 4.x: the statements of the fixtures' runs only (an unknown one stops it) */
        snprintf(cnf, sizeof cnf,
                 "# written by fst-capture\nARCHMODE %s\nMAINSIZE %u\nNUMCPU %u\nCPUSERIAL 000611\nCPUMODEL 3090\n"
                 "PANRATE FAST\n%s%s%s%s# Hercules wants at least one device\n%s%s",
                 archmode[o->arch & 3], mainsize, o->numcpu ? o->numcpu : 1, http, ldmod ? "LDMOD " : "",
                 ldmod ? ldmod : "", ldmod ? "\n" : "", reader, o->console ? "0009 3215-C /\n" : "");
    else
    snprintf(cnf, sizeof cnf,
             "# written by fst-capture\nARCHMODE %s\nMAINSIZE %u\nNUMCPU %u\nCPUSERIAL 000611\nCPUMODEL 3090\n"
             "PANRATE FAST\nSHCMDOPT DISABLE\n%s%s%s%s%s# Hercules wants at least one device\n%s%s",
             archmode[o->arch & 3], mainsize, o->numcpu ? o->numcpu : 1, prio, http, ldmod ? "LDMOD " : "",
             ldmod ? ldmod : "", ldmod ? "\n" : "", reader, o->console ? "0009 3215-C /\n" : "");
    /* Hercules runs in the folder: every path here is relative, so TMPDIR never reaches
    ** the script */
    if (ldmod) /* the module records: no tracing; fst stops Hercules at the program's end */
        snprintf(rc, sizeof rc, "ipl program.ins\n");
    else if (o->httpport) /* sampling: untraced */
        snprintf(rc, sizeof rc, "hao tgt HHCCP011I\nhao cmd quit\nhao tgt HHC00809I\nhao cmd quit\nipl program.ins\n");
    else if (h->tf)
        /* 4.x tf: the file is closed when the program has ended (its last records are in
        ** Hercules' stdio buffer until then, so the trace cannot say it first): one CPU,
        ** at its disabled wait, by hao; several, when Hercules says none runs any more
        ** (capture/hercules/herc4.c asks with qproc: 4.x logs no SIGP stop), by fst. fst stops
        ** Hercules at the FIFO's end. */
        snprintf(rc, sizeof rc, "%stf ON \"FILE=trace.tf\" MAX=999G\nt+%s%s\nipl program.ins\n",
                 o->numcpu > 1 ? "" : "hao tgt HHC00809I Processor CP00\nhao cmd tf OFF\n",
                 o->range ? " " : "", o->range ? o->range : "");
    else
        /* traced: no `hao ... quit` at the disabled wait. Hercules' logger writes the log
        ** behind the CPU, and a quit could end it before the last trace lines were out
        ** (seen on a loaded machine: 551 of 855 instructions). fst-capture stops Hercules
        ** itself once the disabled-wait message, which follows every trace line, is read. */
        snprintf(rc, sizeof rc,
                 "traceopt %s\nt+%s%s\nipl program.ins\n",
                 traceopt, o->range ? " " : "", o->range ? o->range : "");
    /* Hercules 3.13 does not load absolute paths from an IPL list: the pieces are copied
    ** next to it, so what Hercules loads is also exactly what goes into the trace. */
    size_t k = 0;
    insl[0] = 0;
    for (size_t i = 0; i < ins->n && k < sizeof insl; i++) {
        char name[32], path[320];
        snprintf(name, sizeof name, "piece%zu.bin", i);
        snprintf(path, sizeof path, "%s/%s", h->dir, name);
        FILE *f = fopen(path, "wb");
        int bad = !f || fwrite(ins->seg[i].data, 1, ins->seg[i].len, f) != ins->seg[i].len;
        if ((f && fclose(f)) || bad)
            return fst_errno(err, "%s: cannot write", path);
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

void fst_herc_rm_dir(fst_herc *h, int keep_cards)
{
    /* 4.x's log and FIFO go too: Hercules has them open, and fst its own ends; every file
    ** fst_herc_start writes is named here (cards.bin was not: each --cards capture left its
    ** folder behind, tests/e2e/modcode.sh now looks) */
    static const char *files[] = { "hercules.cnf", "hercules.rc", "program.ins", "hercules.log", "trace.tf",
                                   "module.fifo", "module.fifo.req", "cards.bin" };
    size_t nfiles = sizeof files / sizeof files[0] - (keep_cards != 0);
    char p[320];
    if (!h->dir[0])
        return;
    for (size_t i = 0; i < nfiles; i++) {
        snprintf(p, sizeof p, "%s/%s", h->dir, files[i]);
        unlink(p);
    }
    for (size_t i = 0; i < h->npieces; i++) {
        snprintf(p, sizeof p, "%s/piece%zu.bin", h->dir, i);
        unlink(p);
    }
    if (rmdir(h->dir) == 0) /* else the deck is in it: fst_herc_finish removes both */
        h->dir[0] = 0;
}

/* The module's FIFO in Hercules' folder, opened before Hercules starts: read and write, so
** that the module's open (at LDMOD) finds a reader and fst's poll never sees a hang-up
** before the module has written. */
const char *fst_herc_ldmod(const fst_herc *h, const fst_herc_opts *o)
{
    return h->v4 && o->ldmod4 ? o->ldmod4 : o->ldmod;
}

const char *fst_herc_preload(const fst_herc *h, const fst_herc_opts *o)
{
    return !fst_herc_ldmod(h, o) ? NULL : h->v4 && o->ldmod4 ? o->preload4 : o->preload;
}

int fst_herc_modfifo(fst_herc *h, const fst_herc_opts *o, fst_err *err)
{
    char p[320], req[32];
    /* one job: the module's request (fstmod_wire.h FSTMOD_REQ_SUFFIX), there before Hercules starts */
    if (o->modjob && (snprintf(req, sizeof req, "job %s\n", o->modjob) >= (int)sizeof req ||
                      write_text(h->dir, "module.fifo.req", req, err)))
        return -1;
    snprintf(p, sizeof p, "%s/module.fifo", h->dir);
    if (mkfifo(p, 0600))
        return fst_errno(err, "%s: cannot create a FIFO", p);
    h->modfd = open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (h->modfd < 0)
        return fst_errno(err, "%s: cannot open", p);
    return 0;
}

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err)
{
    memset(h, 0, sizeof *h);
    h->proc = (fst_child){ -1, -1, -1 };
    h->errfd = -1;
    h->logfd = h->tffd = h->modfd = -1;
    h->ins = ins;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (strlen(tmp) + sizeof "/fst-capture.XXXXXX" > sizeof h->dir)
        return fst_errf(err, "TMPDIR is too long for a temporary folder (%zu characters, at most %zu)", strlen(tmp),
                        sizeof h->dir - sizeof "/fst-capture.XXXXXX");
    snprintf(h->dir, sizeof h->dir, "%s/fst-capture.XXXXXX", tmp);
    if (!mkdtemp(h->dir)) {
        fst_errno(err, "%s: cannot create a temporary folder", h->dir);
        h->dir[0] = 0;
        return -1;
    }
    /* in the folder: a wrapper script around Hercules writes nothing where fst was run */
    if (o->probe && fst_herc_probe(o->hercules, h->dir, &h->ver, err) && strstr(err->msg, ": not found"))
        return fst_errf(err, "cannot run '%s': not found (install Debian's 'hercules' package, or give "
                             "--hercules=PATH)", o->hercules ? o->hercules : "hercules");
    h->v4 = fst_herc_is4(&h->ver);
    h->tf = h->v4 && fst_herc_has_tf(&h->ver) && !o->httpport && !fst_herc_ldmod(h, o);
    h->ldmod = fst_herc_ldmod(h, o) != NULL;
    if (write_files(h, o, ins, err) || open_stderr(h, err))
        return -1;
    if (h->v4)
        return fst_herc4_start(h, o, err);
    const char *ldmod = fst_herc_ldmod(h, o), *pl = fst_herc_preload(h, o);
    if (ldmod && fst_herc_modfifo(h, o, err))
        return -1;
    const char *prog = o->hercules ? o->hercules : "hercules";
    char *argv[] = { (char *)prog, "-d", "-f", "hercules.cnf", NULL }; /* run in h->dir */
    static char preload[PATH_MAX + 16];
    if (pl)
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s", pl);
    /* FST_MODULE_FROM_IPL: the module's stream from IPL, no SYNC (capture/module/fstmod_wire.h) */
    char *env[] = { "HERCULES_RC=hercules.rc", ldmod ? "FST_MODULE_OUT=module.fifo" : NULL,
                    ldmod ? "FST_MODULE_FROM_IPL=1" : NULL, pl ? preload : NULL, NULL };
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

/* The severity letter of the Hercules message whose id starts at m ("HHCSC003E ...",
** 4.x "HHC01234E ..."), or 0 when m is no message id. */
static int severity(const char *m)
{
    for (int i = 3; i < 8; i++)
        if (!((m[i] >= 'A' && m[i] <= 'Z') || (m[i] >= '0' && m[i] <= '9')))
            return 0;
    return strchr("IWESDA", m[8]) && m[8] && (m[9] == ' ' || m[9] == 0) ? m[8] : 0;
}

/* Hercules' message names a piece of the folder: say which file of the IPL list it is. */
static void name_piece(const fst_herc *h, const char *msg, fst_err *err)
{
    const char *p = strstr(msg, "piece");
    size_t i;
    char c;
    if (p && sscanf(p, "piece%zu.bi%c", &i, &c) == 2 && i < h->npieces && h->ins && i < h->ins->n)
        fst_errf(err, "%s (piece%zu.bin: a copy of %s, loaded at 0x%llX)", msg, i, h->ins->file[i],
                 (unsigned long long)h->ins->seg[i].addr);
    else
        fst_errf(err, "%s", msg);
}

/* One whole line of the log while Hercules starts. An error of Hercules' (severity E or
** S, or a warning of the loader, HHCSC: storage ran out while loading) before the script
** has ended is a failed start-up: the IPL did not happen as written, and what would run
** (a program check loop at 0, or nothing) is not the program. 3.13 ends its script with
** HHCPN013I, 4.x with HHC02264I: every file of the folder has been read by then. */
int fst_herc_watch_line(fst_herc *h, const char *s, fst_err *err)
{
    /* 3.13 splices other threads' lines into its own: look for an id anywhere */
    for (const char *m = strstr(s, "HHC"); m; m = strstr(m + 3, "HHC")) {
        int sev = severity(m);
        /* HDL failing to load fst's module: not a failed start, the caller falls back
        ** (capture/modread/modcap.c reads the message) */
        if (h->ldmod && (!strncmp(m, "HHCHD", 5) || (!strncmp(m, "HHC015", 6) && strstr(m, " HDL: "))))
            continue;
        if (sev == 'E' || sev == 'S' || (sev == 'W' && !strncmp(m, "HHCSC", 5))) {
            h->watching = 0;
            h->start_failed = 1;
            name_piece(h, m, err);
            return 1;
        }
    }
    if (strstr(s, "HHCPN013I") || strstr(s, "HHC02264I")) {
        h->watching = 0;
        fst_herc_rm_dir(h, 1);
    }
    return 0;
}

int fst_herc_watch(fst_herc *h, const char *buf, size_t n, int traced, fst_err *err)
{
    if (h->v4) /* its log is watched as fst_herc_read reads it */
        return 0;
    for (size_t i = 0; i < n && h->watching; i++) {
        if (buf[i] != '\n') {
            if (h->linelen < sizeof h->line - 1)
                h->line[h->linelen++] = buf[i]; /* a longer line is cut: its id is at its start */
            continue;
        }
        while (h->linelen && h->line[h->linelen - 1] == '\r')
            h->linelen--;
        h->line[h->linelen] = 0;
        h->linelen = 0;
        if (fst_herc_watch_line(h, h->line, err))
            return 1;
    }
    if (traced && h->watching) { /* the IPL has loaded everything */
        h->watching = 0;
        fst_herc_rm_dir(h, 1);
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
    if (h->v4) /* it runs until its stdin ends: the capture has read what it wanted */
        fst_child_kill(&h->proc);
    int st = fst_child_wait_within(&h->proc, FST_HERC_EXIT_MS, &h->stuck);
    if (h->logfd >= 0)
        close(h->logfd);
    if (h->tffd >= 0)
        close(h->tffd);
    if (h->modfd >= 0)
        close(h->modfd);
    h->logfd = h->tffd = h->modfd = -1;
    if (status)
        *status = st;
    if (tail && tailcap)
        read_tail(h->errfd, tail, tailcap);
    if (h->errfd >= 0)
        close(h->errfd);
    h->errfd = -1;
    h->watching = 0;
    fst_herc_rm_dir(h, 0);
}
