/*
** capture/modes/log.c — fst-capture --from-log / --from-tf: convert a Hercules log or tf
** file (capture/modes/mode.h): a file, '-' for a pipe, or with --follow a file Hercules is
** still writing (read until the program has ended, Ctrl-C, or --timeout seconds idle).
*/
#include "capture/modes/mode_int.h"
#include "trace/imgcheck.h"
#include "common/err.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/* --image with a log: the image must hold the code the log ran (trace/imgcheck.h); a
** trace of another program's image is removed, with an error. */
static int foreign_image(const char *image, const char *out)
{
    fst_imgcheck ck;
    fst_err err;
    char msg[sizeof err.msg];
    if (fst_image_check(out, 4096, &ck, &err) < 0 || !fst_image_foreign(&ck))
        return 0;   /* unreadable: its own error comes at fst-report */
    fst_image_say(&ck, image, out, msg, sizeof msg);
    fst_capture_remove(out);
    fst_error("%s", msg);
    return 1;
}

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
    int code = fst_capstream_run(&s);
    return code == FST_EXIT_OK && c->image && foreign_image(c->image, c->out) ? FST_EXIT_FAIL : code;
}
