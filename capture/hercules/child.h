/*
** capture/hercules/child.h — a helper program run as a child that never outlives fst.
**
** fst_child_spawn forks and execs argv[0] (searched on PATH) in its own process group,
** in folder `dir`, with stdin on /dev/null (or, with fst_child_spawn_in, on a pipe whose
** write end the caller keeps: SDL Hercules 4.x without a panel reads commands from stdin
** and shuts down at its end), stdout on a pipe that the caller reads and stderr on `errfd`. The child dies with the process that started it, however that
** process ends (SIGKILL included): on Linux it asks the kernel for SIGKILL when its
** parent dies (PR_SET_PDEATHSIG), and checks that the parent did not die before it
** asked. (The kernel drops that request when a set-user-ID or file-capability program
** is exec'd; Hercules installed by Debian is neither.)
**
** Ownership: the caller owns c->out and c->in; fst_child_wait closes them and reaps the child.
** Errors: -1 with err set (pipe or fork failed, the program could not be exec'd:
** ENOENT gives "not found").
*/
#ifndef FST_CHILD_H
#define FST_CHILD_H

#include "common/err.h"

#include <sys/types.h>

typedef struct fst_child {
    pid_t pid;      /* -1 when none runs; also its process group id */
    int out;        /* read end of its stdout, -1 when closed */
    int in;         /* write end of its stdin (fst_child_spawn_in), else -1 */
} fst_child;

/* argv ends with NULL; env: "NAME=VALUE" strings added to the child's environment,
** NULL-terminated (may be NULL). */
int fst_child_spawn(fst_child *c, char *const argv[], const char *dir, int errfd, char *const env[],
                    fst_err *err);
/* The same, with its stdin on a pipe: c->in is the write end, kept open until
** fst_child_wait (closing it is an end of input for the child). */
int fst_child_spawn_in(fst_child *c, char *const argv[], const char *dir, int errfd, char *const env[],
                       fst_err *err);
/* 1 when the child has exited (or was killed), 0 while it runs. It is not reaped:
** fst_child_wait still gives its status. (A child's stdout can end long before it does:
** SDL Hercules 4.x closes its stdout when `-o` moves its log to a file, and runs on.) */
int fst_child_exited(const fst_child *c);
/* SIGKILL to the child's whole process group (nothing when none runs). */
void fst_child_kill(const fst_child *c);
/* Close its stdout, wait for it (EINTR retried), then kill whatever it left in its
** group. Returns the waitpid status (0 when none ran). */
int fst_child_wait(fst_child *c);
/* The same, but a child still running `ms` milliseconds after its stdout was closed is
** killed (its group, SIGKILL) and *killed set to 1 (else 0): a child that closed its
** output but never exits must not hold the caller forever. */
int fst_child_wait_within(fst_child *c, unsigned ms, int *killed);

#endif
