/*
** capture/module/fstirq.c — the other half of fst's Hercules 3.13 module: a library
** fst-capture preloads into Hercules (LD_PRELOAD), because 3.13 has no hook for external and
** I/O interruptions. libherc.so calls s370/s390/z900_perform_external_interrupt and
** _perform_io_interrupt through its PLT, so definitions here come first: each calls
** Hercules' own (dlsym RTLD_NEXT) under a setjmp of its own (a taken interruption ends
** with a longjmp to the CPU's instruction loop), and when the interruption was taken tells
** the module (fstmod.c), which records it, before the longjmp goes on.
**
** The module finds `fstirq_record` with dlsym when it loads and sets it, and clears it while
** no reader is attached; while it is NULL (or with no module) the interposer only calls
** Hercules' routine. Nothing else changes.
** Ownership: none. Errors: a routine dlsym cannot find aborts Hercules at its first use
** (it is Hercules' own: a Hercules without it is not 3.13).
*/
#define _GNU_SOURCE
#include <dlfcn.h> /* first: Hercules' headers rename dlsym (libtool's), undone below */

#include "hstdinc.h"
#include "hercules.h"
#undef dlsym
#undef RTLD_NOW
#define RTLD_NOW 2

#include <setjmp.h>
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
