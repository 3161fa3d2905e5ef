/*
** capture/modread/modjob.h — one job's window through fst's module (fst-capture --job=NAME
** with the module: a program run here, or --attach to a running system): the reader's half.
**
** The module does the cutting where it must be exact (capture/module/fstmod_cons.c, "console
** lines"): asked for a job (the request file beside its FIFO, fstmod_wire.h
** FSTMOD_REQ_SUFFIX, which fst_modjob_request writes), it records nothing until the
** console line that says the job started ($HASP373 NAME STARTED), then each CPU from a SYNC
** at its next record, the line first. Here the console lines (modstream.h CONS) go through
** the same window as a text log's (capture/read/jobwin.h): the start line opens it, the end
** line ($HASP395 NAME ENDED) cuts the stream there (fst_modjob_line returns 1), so the trace
** holds what the job's window holds, as the text route cuts it, and the capture ends.
**
** Ownership: fst_modjob_new copies the name; the caller frees with fst_modjob_free.
** Errors: fst_modjob_request returns -1 with err set (the file could not be written, or a
** file there is not fst's request).
*/
#ifndef FST_MODJOB_H
#define FST_MODJOB_H

#include "capture/read/jobwin.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_modjob {
    fst_jobwin *win;
    uint64_t lines;             /* console lines read */
    uint64_t start_seq, end_seq; /* the module's numbers of the two lines (0: not seen) */
} fst_modjob;

/* NULL when name is no job name. */
fst_modjob *fst_modjob_new(const char *name);
void fst_modjob_free(fst_modjob *j);
/* The console callback for fst_ms_on_console (ctx: the fst_modjob): 1 at the job's end. */
int fst_modjob_line(void *ctx, unsigned cpu, uint64_t seq, const char *text, size_t n);
int fst_modjob_started(const fst_modjob *j);
int fst_modjob_ended(const fst_modjob *j);
const char *fst_modjob_name(const fst_modjob *j);
/* The last start line of another job seen while waiting (capture/read/jobwin.h
** fst_jobwin_other), "" when none. */
const char *fst_modjob_other(const fst_modjob *j);
const char *fst_modjob_first(const fst_modjob *j);  /* the first line read (fst_jobwin_first) */

/* The request beside the FIFO at fifo (fstmod_wire.h FSTMOD_REQ_SUFFIX): "job NAME" (name:
** NULL for a request of everything from now on, which is no file at all), written new (mode
** 0600); a file there already is replaced only when it is a request (its first word "job").
** fst_modjob_unrequest removes it again. */
int fst_modjob_request(const char *fifo, const char *name, fst_err *err);
void fst_modjob_unrequest(const char *fifo);

#endif
