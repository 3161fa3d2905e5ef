/*
** capture/modes/common.c — what every capture mode needs (capture/modes/mode_int.h): the
** signals that end a capture, its inputs checked, its outputs removed when they hold nothing.
*/
#include "capture/modes/mode_int.h"
#include "capture/read/sniff.h"
#include "common/err.h"
#include "common/outfile.h"

#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t fst_capture_stopsig;
static void on_signal(int sig) { fst_capture_stopsig = sig; }

/* SIGINT, TERM, HUP end the capture cleanly, with what it has. */
void fst_capture_catch_signals(void)
{
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

double fst_capture_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Remove an output that holds nothing of use: only a regular file (never /dev/null, a
** FIFO or a device that -o named). */
void fst_capture_remove(const char *path)
{
    struct stat sb;
    if (!stat(path, &sb) && S_ISREG(sb.st_mode))
        unlink(path);
}

const char *fst_capture_job_other(const char *other, const char *first, unsigned long long lines, char *buf,
                                  size_t cap)
{
    if (other && *other)
        snprintf(buf, cap, "; the last job start it showed: '%s'", other);
    else if (lines)
        snprintf(buf, cap, "; it showed no job start ($HASP373), its first line: '%s'", first ? first : "");
    else
        buf[0] = 0;
    return buf;
}

int fst_capture_pgmloop(const fst_capopts *c, const char *program, unsigned long long pgmchks,
                        unsigned long long insns)
{
    fst_error("the program loops on program checks (%llu in its first %llu instructions): the IPL PSW or the "
              "program-check new PSW leads to no program. Is %s the program, and do its files hold what it lists "
              "(an empty or wrong .bin)?", pgmchks, insns, program ? program : "the IPL list");
    fst_capture_remove(c->out);
    return FST_EXIT_FAIL;
}

unsigned fst_capture_mainsize(const fst_capopts *c, const fst_ins *ins)
{
    if (c->mainsize_mb)
        return (unsigned)c->mainsize_mb;
    uint64_t top = 0;
    for (size_t i = 0; ins && i < ins->n; i++)
        if (ins->seg[i].addr + ins->seg[i].len > top)
            top = ins->seg[i].addr + ins->seg[i].len;
    uint64_t mb = (top + (1u << 20) - 1) >> 20;
    return mb < 2 ? 2 : (unsigned)mb;
}

/* Neither the trace nor the kept log may be a file the capture reads (the log, the IPL
** list, a piece of the image): they are created empty first. Nor the same file twice. */
static void check_outputs(const fst_capopts *c, const char *insfile, const fst_ins *ins)
{
    fst_err err;
    const char *in[] = { c->fromlog, insfile };
    if (fst_out_check("-o", c->out, in, 2, &err) < 0 || fst_out_check("--keep-log", c->keeplog, in, 2, &err) < 0 ||
        fst_out_check("-o", c->out, (const char *const *)ins->file, ins->n, &err) < 0 ||
        fst_out_check("--keep-log", c->keeplog, (const char *const *)ins->file, ins->n, &err) < 0 ||
        fst_out_check("--keep-log", c->keeplog, &c->out, 1, &err) < 0)
        fst_die_err(&err);
    if (c->keeplog && !strcmp(c->keeplog, c->out))
        fst_die("--keep-log=%s: the same file as the trace", c->keeplog);
}

/* The storage image of the .ins (NULL: none), each piece checked against the storage
** the machine has: S/370 16 MiB, ESA/390 2 GiB, z/Arch what Hercules 3.13 takes, or
** --mainsize. */
static void load_image(const fst_capopts *c, const char *insfile, fst_ins *ins)
{
    uint64_t maxstore = c->arch == FST_ARCH_S370 ? (16u << 20) : c->arch == FST_ARCH_ESA390 ? (2048ull << 20) : 0;
    const char *why = NULL;
    if (!c->fromlog && c->arch == FST_ARCH_ZARCH) { /* a log may come from a larger machine */
        maxstore = (uint64_t)FST_HERC_MAINSIZE_MAX << 20;
        why = "the most main storage Hercules 3.13 takes: 4194303 MB";
    }
    if (c->mainsize_mb) {
        maxstore = c->mainsize_mb << 20;
        why = NULL;
    }
    fst_err err;
    if (insfile && fst_ins_load(ins, insfile, maxstore, &err)) {
        char hint[1024]; /* a log or a trace given as the IPL list: say what it is */
        fst_sniff_hint(fst_sniff(insfile), insfile, hint, sizeof hint);
        if (hint[0])
            fst_die("%s: not a Hercules IPL list (.ins): %s", insfile, hint);
        if (why && strstr(err.msg, "does not fit"))
            fst_die("%s (%s)", err.msg, why);
        fst_die_err(&err);
    }
}

void fst_capture_inputs(const fst_capopts *c, const char *insfile, fst_ins *ins)
{
    load_image(c, insfile, ins);
    check_outputs(c, insfile, ins);
}
