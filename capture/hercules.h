/*
** capture/hercules.h — run Hercules on a standalone program, with tracing on.
**
** fst_herc_start writes a configuration, an IPL list and a start-up script into a
** private temporary folder, then starts `hercules -d -f CONFIG` directly (fork + exec,
** no shell) in its own process group, with its log (stdout) on a pipe that the caller
** reads as it is produced. The script sets `traceopt`, turns tracing on (`t+`, with an
** optional range) and IPLs; Hercules' automatic operator (`hao`) quits when the CPU
** reaches a disabled wait (HHCCP011I in 3.13, HHC00809I in 4.x). Hercules' stderr goes
** to a file in the folder, shown to the user when something fails.
**
** Ownership: fst_herc_finish waits for (or kills) Hercules and removes the folder.
** Errors: -1 with err set (Hercules missing, folder not writable, exec failure).
*/
#ifndef FST_HERCULES_H
#define FST_HERCULES_H

#include "capture/ins.h"
#include "common/err.h"

#include <stdint.h>
#include <sys/types.h>

typedef struct fst_herc_opts {
    const char *hercules;   /* program to run; NULL = "hercules" from PATH */
    int arch;               /* FST_ARCH_* */
    const char *range;      /* "20000-2FFFF" or NULL for all addresses */
    const char *traceopt;   /* traditional | regsfirst | noregs */
    unsigned mainsize_mb;
    unsigned numcpu;
    unsigned httpport;      /* nonzero: no tracing, an HTTP server on this port instead
                               (fst-capture --sample, capture/samplecap.h) */
    const char *httpauth;   /* with httpport: "USER PASSWORD" for HTTPPORT's AUTH, or NULL */
} fst_herc_opts;

typedef struct fst_herc {
    pid_t pid;
    int fd;                 /* Hercules' stdout (the log), read end */
    char dir[256];
    size_t npieces;         /* image pieces copied into dir */
} fst_herc;

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err);
/* Kill Hercules (its whole process group) now. */
void fst_herc_kill(fst_herc *h);
/* Wait for Hercules to end; *status as from waitpid. Removes the folder; copies the last
** lines of Hercules' stderr into `tail` (may be NULL). */
void fst_herc_finish(fst_herc *h, int *status, char *tail, size_t tailcap);

#endif
