/*
** common/outfile.h — writing an output file all or nothing, the one way every fst command
** writes its reports and maps.
**
** A report is written under a temporary name in the folder of its destination
** (".NAME.XXXXXX") and renamed to NAME by fst_out_close only when every byte reached the
** file: write, flush and close errors included (a full disk often shows only at close).
** So a failed write never leaves a 0-byte or partial file, and a file that was there stays
** as it was. Standard output ("-" or NULL) is streamed as written, and so is a destination
** that is not a regular file (a terminal, /dev/null, a FIFO, /dev/stdout): those cannot be
** replaced by a rename. A symbolic link is followed: the file it names is replaced, the link
** stays. The new file gets the mode of the file it replaces, or 0666 less the umask.
**
** Temporary files still open when the process ends through fst_exit_now (every fatal
** error) or is killed by SIGINT, SIGTERM or SIGHUP (where no other handler was set) are
** removed.
**
** An output must never be one of the inputs: with the temporary name nothing is lost while
** reading, but the rename would still replace the input. fst_out_check refuses it before
** any work, by device and inode (so a second name, a hard or symbolic link, is caught too).
**
**   fst_out o;
**   if (fst_out_check(path, inputs, &err) < 0 || fst_out_open(&o, path, &err) < 0) die
**   fprintf(o.f, ...);
**   if (fst_out_close(&o, &err) < 0) die             (the temporary file is gone)
**
** Errors: -1 with err naming the destination ("out.csv: cannot write: No space left on
** device"). Ownership: fst_out_close and fst_out_abort free what fst_out_open allocated.
*/
#ifndef FST_OUTFILE_H
#define FST_OUTFILE_H

#include "common/err.h"

#include <stdio.h>

typedef struct fst_out {
    FILE *f;            /* write here */
    const char *name;   /* the destination, for messages ("standard output" for -) */
    char *path;         /* the file renamed to at the end (a symlink's target), or NULL */
    char *tmp;          /* the temporary file, or NULL when streaming */
} fst_out;

/* Open `path` ("-" or NULL: standard output) for writing. */
int fst_out_open(fst_out *o, const char *path, fst_err *err);
/* Flush, close, and rename the temporary file over the destination. On failure the
** temporary file is removed and the destination left as it was. */
int fst_out_close(fst_out *o, fst_err *err);
/* Give up: close and remove the temporary file (the destination stays as it was). */
void fst_out_abort(fst_out *o);

/* Refuse an output that is one of the inputs: -1 with err naming both when `out` exists
** and is the same file (device and inode) as one of the n `inputs` (NULL entries, "-" and
** files that do not exist are skipped). `option` names the output in the message ("-o",
** "--junit"). */
int fst_out_check(const char *option, const char *out, const char *const *inputs, size_t n, fst_err *err);

#endif
