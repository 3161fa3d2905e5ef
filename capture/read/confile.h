/*
** capture/read/confile.h — a job's window read from a console file that grows: the
** hardcopy of a console Hercules does not log (a 3270 master console whose messages go to a
** printer file), or Hercules' own log file (fst-capture --attach=FIFO --job=NAME
** --console=FILE, capture/modread/modattach.h).
**
** The file is read from its end as it was when opened (what is there already is an earlier
** run's), as `tail -f` reads it: each fst_confile_poll takes what was appended since, in
** whole lines, through the job's window (capture/read/jobwin.h: JES2's $HASP373 NAME
** STARTED opens it, $HASP395 NAME ENDED closes it). A file that shrinks (rotated, truncated)
** is read again from its start. Only when the lines reach the file is the window known to
** have opened or closed: the caller's cut is as late as the file is behind the console.
**
** Ownership: the caller frees with fst_confile_close. Errors: -1 with err set (the file cannot
** be opened or read).
*/
#ifndef FST_CONFILE_H
#define FST_CONFILE_H

#include "common/err.h"

#include <stdint.h>

typedef struct fst_confile fst_confile;

/* NULL with err set: the file cannot be opened, or job is no job name. */
fst_confile *fst_confile_open(const char *path, const char *job, fst_err *err);
/* What was appended since the last poll, through the window. 0, or -1 (err). */
int fst_confile_poll(fst_confile *f, fst_err *err);
int fst_confile_started(const fst_confile *f);
int fst_confile_ended(const fst_confile *f);
uint64_t fst_confile_lines(const fst_confile *f);   /* lines read since it was opened */
void fst_confile_close(fst_confile *f);

#endif
