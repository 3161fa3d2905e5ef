/* common/err.c — see err.h. */
#include "common/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "fst";

int fst_errf(fst_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int fst_errno(fst_err *err, const char *fmt, ...)
{
    int e = errno;
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < sizeof err->msg)
            snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %s", strerror(e));
    }
    return -1;
}

void fst_setprog(const char *argv0)
{
    const char *s = argv0 ? strrchr(argv0, '/') : NULL;
    prog = s ? s + 1 : (argv0 ? argv0 : "fst");
}

const char *fst_prog(void) { return prog; }

static void vreport(const char *kind, const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "%s: %s", prog, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void fst_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("error: ", fmt, ap);
    va_end(ap);
}

void fst_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning: ", fmt, ap);
    va_end(ap);
}

void fst_finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("differs: ", fmt, ap);
    va_end(ap);
}

static int quiet;
void fst_set_quiet(int q) { quiet = q; }

void fst_note(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport("", fmt, ap);
    va_end(ap);
}

static void (*exit_fns[4])(void);

void fst_at_exit_now(void (*fn)(void))
{
    for (size_t i = 0; i < sizeof exit_fns / sizeof *exit_fns; i++)
        if (!exit_fns[i] || exit_fns[i] == fn) {
            exit_fns[i] = fn;
            return;
        }
}

void fst_exit_now(int code)
{
    fflush(NULL);
    for (size_t i = 0; i < sizeof exit_fns / sizeof *exit_fns; i++)
        if (exit_fns[i])
            exit_fns[i]();
    _exit(code);
}

void fst_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("error: ", fmt, ap);
    va_end(ap);
    fst_exit_now(FST_EXIT_FAIL);
}

void fst_die_err(const fst_err *err)
{
    fst_die("%s", err->msg);
}

void *fst_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fst_die("out of memory (%zu bytes)", n);
    return p;
}

void *fst_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        fst_die("out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *fst_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        fst_die("out of memory (%zu bytes)", n);
    return p;
}

char *fst_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(fst_xmalloc(n), s, n);
}
