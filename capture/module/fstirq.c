/*
** capture/module/fstirq.c — the other half of fst's module for Hercules 3.13 and SDL 4.x: a
** library preloaded into Hercules (LD_PRELOAD), for what neither Hercules has a hook for.
**   - External and I/O interruptions: libherc.so calls s370/s390/z900_perform_external_
**     interrupt and _perform_io_interrupt through its PLT, so definitions here come first:
**     each calls Hercules' own (dlsym RTLD_NEXT) under a setjmp of its own (a taken
**     interruption ends with a longjmp to the CPU's instruction loop), and when the
**     interruption was taken tells the module (fstmod_ops.c), which records it, before the
**     longjmp goes on.
**   - The console's lines (a job's window, fstmod_cons.c): the 3215/1052 console
**     (hdt1052c.so) writes each line through Hercules' log routine, on the thread that ran
**     its I/O: 3.13's logmsg, 4.x's fwritemsg, which are defined here too. Each formats the
**     message, gives it to Hercules' own routine as "%s" (what Hercules prints is the same),
**     then, when the caller is the console device, to the module.
**
** The module finds `fstirq_record` and `fstirq_console` with dlsym when it loads and sets
** them (the first it clears while no reader is attached); while they are NULL (or with no
** module) the interposer only calls Hercules' routines. Nothing else changes.
** Ownership: none. Errors: a routine dlsym cannot find aborts Hercules at its first use
** (it is Hercules' own: a Hercules without it is not 3.13 or 4.x).
*/
#define _GNU_SOURCE
#include <dlfcn.h> /* first: Hercules' headers rename dlsym (libtool's), undone below */

#include "hstdinc.h"
#include "hercules.h"
#undef dlsym
#undef RTLD_NOW
#define RTLD_NOW 2

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*perform_fn)(REGS *);

/* Set by the module: record interruption class cls (1 I/O, 2 external) just taken. */
DLL_EXPORT void (*fstirq_record)(REGS *regs, int cls);

static void interpose(REGS *regs, int cls, perform_fn *real, const char *name)
{
    if (!*real && !(*real = (perform_fn)dlsym(RTLD_NEXT, name)))
        abort();
    /* read once: the module switches it off and on while Hercules runs (no reader) */
    void (*record)(REGS *, int) = fstirq_record;
    if (!record) {
        (*real)(regs);
        return;
    }
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0) {
        (*real)(regs); /* returned: nothing was taken */
        memcpy(regs->progjmp, saved, sizeof saved);
        return;
    }
    memcpy(regs->progjmp, saved, sizeof saved);
    record(regs, cls);
    longjmp(regs->progjmp, rc);
}

#define INTERPOSE(arch, what, cls)                                                       \
    DLL_EXPORT void arch##_perform_##what##_interrupt(REGS *regs);                         \
    DLL_EXPORT void arch##_perform_##what##_interrupt(REGS *regs)                          \
    {                                                                                      \
        static perform_fn real;                                                            \
        interpose(regs, cls, &real, #arch "_perform_" #what "_interrupt");                 \
    }

INTERPOSE(s370, external, 2)
INTERPOSE(s370, io, 1)
INTERPOSE(s390, external, 2)
INTERPOSE(s390, io, 1)
INTERPOSE(z900, external, 2)
INTERPOSE(z900, io, 1)

/* ---- the console's lines ---- */

/* Set by the module: a piece of what the system's console wrote (any thread). */
DLL_EXPORT void (*fstirq_console)(const char *text, size_t n);

/* The message fmt, vl formatted: into buf, or a new allocation when longer (NULL: none). */
static char *format(char *buf, size_t cap, const char *fmt, va_list vl, int *n)
{
    va_list again;
    va_copy(again, vl);
    *n = vsnprintf(buf, cap, fmt, vl);
    char *p = buf;
    if (*n < 0)
        buf[0] = 0, *n = 0;
    else if ((size_t)*n >= cap && (p = malloc((size_t)*n + 1)) != NULL)
        vsnprintf(p, (size_t)*n + 1, fmt, again);
    else if (!p)
        p = buf, *n = (int)cap - 1; /* no memory: the first cap - 1 bytes */
    va_end(again);
    return p;
}

/* After Hercules' own routine printed the message p (n bytes): to the module when the
** console wrote it; p freed when it is not buf. */
static void pass_on(char *p, const char *buf, int n, int console)
{
    void (*hook)(const char *, size_t) = fstirq_console; /* read once: the module sets it */
    if (hook && console)
        hook(p, (size_t)n);
    if (p != buf)
        free(p);
}

#ifdef FST_HERC4
/* 4.x: every message (WRMSG, LOGMSG) is fwritemsg's, with the source file of its caller */
typedef void (*fwritemsg_fn)(const char *, int, const char *, BYTE, FILE *, const char *, ...);
DLL_EXPORT void fwritemsg(const char *filename, int line, const char *func, BYTE panel, FILE *f, const char *fmt, ...)
{
    static fwritemsg_fn real;
    if (!real && !(real = (fwritemsg_fn)dlsym(RTLD_NEXT, "fwritemsg")))
        abort();
    char buf[1024];
    int n;
    va_list vl;
    va_start(vl, fmt);
    char *p = format(buf, sizeof buf, fmt, vl, &n);
    va_end(vl);
    real(filename, line, func, panel, f, "%s", p);
    pass_on(p, buf, n, filename && strstr(filename, "con1052c")); /* (after the device's prefix, "/") */
}
#else
/* 3.13: the console device calls logmsg; the caller told by the library its code is in */
#define CALLERS 16
static int is_console(void *ret)
{
    static void *volatile yes[CALLERS], *volatile no[CALLERS];
    unsigned h = (unsigned)((uintptr_t)ret >> 4) % CALLERS;
    if (yes[h] == ret)
        return 1;
    if (no[h] == ret)
        return 0;
    Dl_info di;
    int c = dladdr(ret, &di) && di.dli_fname && strstr(di.dli_fname, "1052c");
    if (c)
        yes[h] = ret;
    else
        no[h] = ret;
    return c;
}

typedef void (*logmsg_fn)(char *, ...);
DLL_EXPORT void logmsg(char *fmt, ...)
{
    static logmsg_fn real;
    if (!real && !(real = (logmsg_fn)dlsym(RTLD_NEXT, "logmsg")))
        abort();
    char buf[1024];
    int n;
    va_list vl;
    va_start(vl, fmt);
    char *p = format(buf, sizeof buf, fmt, vl, &n);
    va_end(vl);
    real("%s", p);
    pass_on(p, buf, n, fstirq_console && is_console(__builtin_return_address(0)));
}
#endif
