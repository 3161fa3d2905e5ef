/*
** common/err.h — error reporting shared by every module and command.
**
** Contract
**   Library code (capture/, analyze/, formats/) never prints and never exits. A function
**   that can fail takes a `fst_err *err` as its last argument, returns -1 (or NULL) on
**   failure and fills err->msg with one line that names the file and the line, byte
**   offset or record where the problem is ("run.trace: byte 4096: block CRC mismatch").
**   `err` may be NULL when the caller does not want the message.
**
**   Commands (cmds/) call fst_setprog() first, then report with fst_error()/fst_warn()
**   and leave with fst_die(). Every message goes to stderr as "PROG: error: ...", the
**   way git prints them, so all fst commands read alike; a finding of exit 1 (fst-diff's
**   runs differ) is no error: "PROG: differs: ..." (fst_finding).
**
** Exit codes of every command: 0 success, 1 "the answer is no" (fst-diff: the runs
** differ), 2 unusable input or usage error, 3 interrupted.
*/
#ifndef FST_ERR_H
#define FST_ERR_H

#include <stddef.h>

enum { FST_EXIT_OK = 0, FST_EXIT_DIFF = 1, FST_EXIT_FAIL = 2, FST_EXIT_INTR = 130 };   /* 128 + SIGINT, the shell's convention */

typedef struct fst_err {
    char msg[768];
} fst_err;

#if defined(__GNUC__)
#define FST_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define FST_NORETURN __attribute__((noreturn))
#else
#define FST_PRINTF(a, b)
#define FST_NORETURN
#endif

/* Format a message into err (if not NULL); always returns -1 so callers can write
** `return fst_errf(err, "...")`. */
int fst_errf(fst_err *err, const char *fmt, ...) FST_PRINTF(2, 3);
/* Same, appending ": strerror(errno)". */
int fst_errno(fst_err *err, const char *fmt, ...) FST_PRINTF(2, 3);

void fst_setprog(const char *argv0);
const char *fst_prog(void);
void fst_error(const char *fmt, ...) FST_PRINTF(1, 2);
void fst_warn(const char *fmt, ...) FST_PRINTF(1, 2);
void fst_note(const char *fmt, ...) FST_PRINTF(1, 2);
/* A finding of a command whose answer is "no" (exit 1: fst-diff's runs differ), never an
** error: "PROG: differs: ..."; printed even with -q. */
void fst_finding(const char *fmt, ...) FST_PRINTF(1, 2);
/* -q: fst_note prints nothing from now on (warnings and errors still print). */
void fst_set_quiet(int quiet);
FST_NORETURN void fst_die(const char *fmt, ...) FST_PRINTF(1, 2);
/* End the process now with `code`, after flushing stdio. A fatal error does not unwind
** what the command allocated: the system reclaims it, and LeakSanitizer, which checks at
** a normal exit, keeps reporting real leaks only (those of runs that succeed). */
FST_NORETURN void fst_exit_now(int code);
/* Run fn in fst_exit_now, before the process ends (at most 4; common/outfile.c removes its
** temporary files this way). */
void fst_at_exit_now(void (*fn)(void));
/* Print err->msg as an error and exit with FST_EXIT_FAIL. */
FST_NORETURN void fst_die_err(const fst_err *err);

/* Allocation that cannot fail: out of memory prints a message and exits. */
void *fst_xmalloc(size_t n);
void *fst_xcalloc(size_t n, size_t size);
void *fst_xrealloc(void *p, size_t n);
char *fst_xstrdup(const char *s);

#endif
