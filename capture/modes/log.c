/*
** capture/modes/log.c — fst-capture --from-log / --from-tf: convert a Hercules log or tf
** file (capture/modes/mode.h): a file, '-' for a pipe, or with --follow a file Hercules is
** still writing (read until the program has ended, Ctrl-C, or --timeout seconds idle).
*/
#include "capture/modes/mode_int.h"
#include "common/err.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

int fst_capture_log(fst_capopts *c, const fst_ins *ins)
{
    /* --follow: never block, not even in open() on a FIFO that has no writer yet: the
    ** idle --timeout must be able to end the wait */
    int in = strcmp(c->fromlog, "-") ? open(c->fromlog, O_RDONLY | (c->follow ? O_NONBLOCK : 0)) : 0;
    if (in < 0)
        fst_die("%s: cannot open: %s", c->fromlog, strerror(errno));
    struct stat sb;
    c->pipe_in = fstat(in, &sb) || !S_ISREG(sb.st_mode); /* a pipe: a trace file's header is never rewritten */
    fst_capstream s;
    fst_capstream_open(&s, c, NULL, ins);
    s.in = in;
    return fst_capstream_run(&s);
}
