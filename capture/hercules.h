/*
** capture/hercules.h — run Hercules on a standalone program, with tracing on.
**
** fst_herc_start writes a configuration, an IPL list and a start-up script into a
** private temporary folder, then starts `hercules -d -f hercules.cnf` in that folder
** (capture/child.h: no shell, its own process group, killed with fst however fst ends),
** with its log (stdout) on a pipe that the caller reads as it is produced. The script
** sets `traceopt`, turns tracing on (`t+`, with an optional range) and IPLs; Hercules'
** automatic operator (`hao`) quits when the CPU reaches a disabled wait (HHCCP011I in
** 3.13, HHC00809I in 4.x). Hercules' stderr goes to an unlinked file, shown to the user
** when something fails.
**
** Nothing from outside fst reaches the script or the configuration: every path in them
** is relative to the folder (TMPDIR never appears), and every value written there is one
** word of letters, digits and . _ / - or refused with an error naming it. The
** configuration also disables Hercules' `sh` command.
**
** While Hercules starts, the caller gives fst_herc_watch each piece of the log it reads.
** It says when the start-up failed (an error message of Hercules' before the script
** ended: a file the IPL could not load, an invalid IPL PSW, a script line refused)
** rather than letting a capture trace a program-check loop until its timeout, and it
** removes the folder as soon as Hercules has read all of it (the script ended, or an
** instruction was traced): a capture killed later leaves nothing behind.
**
** Ownership: fst_herc_finish waits for (or kills) Hercules and removes the folder, if
** still there. Errors: -1 with err set (Hercules missing, folder not writable, a value
** that cannot go into the script, exec failure).
*/
#ifndef FST_HERCULES_H
#define FST_HERCULES_H

#include "capture/child.h"
#include "capture/ins.h"
#include "common/err.h"

#include <stdint.h>
#include <sys/types.h>

/* The largest MAINSIZE (MB) Hercules 3.13 takes as it is: it computes the size in bytes
** as MAINSIZE * 1024 in 32 bits before widening, so 4194304 MB and up wrap (4 TiB becomes
** 0 bytes and the IPL loads nothing). The smallest is 2. Whether the host can give that
** much storage is Hercules' to say (HHCCF031S, a failed start-up). */
#define FST_HERC_MAINSIZE_MIN 2u
#define FST_HERC_MAINSIZE_MAX 4194303u

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
    fst_child proc;         /* proc.out: Hercules' stdout (the log), read end */
    int errfd;              /* Hercules' stderr (an unlinked file), -1 when none */
    char dir[256];          /* the temporary folder; "" once removed */
    size_t npieces;         /* image pieces copied into dir */
    const fst_ins *ins;     /* what the pieces are copies of (for messages) */
    int watching;           /* the start-up script has not ended yet */
    char line[256];         /* the log line being read while watching */
    size_t linelen;
} fst_herc;

int fst_herc_start(fst_herc *h, const fst_herc_opts *o, const fst_ins *ins, fst_err *err);
/* The next `n` bytes of Hercules' log; `traced`: an instruction has been traced. Returns
** 1 when the start-up failed (err holds Hercules' message), else 0. */
int fst_herc_watch(fst_herc *h, const char *buf, size_t n, int traced, fst_err *err);
/* Kill Hercules (its whole process group) now. */
void fst_herc_kill(fst_herc *h);
/* Wait for Hercules to end; *status as from waitpid. Removes the folder; copies the last
** lines of Hercules' stderr into `tail` (may be NULL). */
void fst_herc_finish(fst_herc *h, int *status, char *tail, size_t tailcap);

#endif
