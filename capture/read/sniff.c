/* capture/read/sniff.c — see sniff.h. */
#include "capture/read/sniff.h"
#include "capture/read/tf.h"
#include "trace/tracebin.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A line as Hercules writes it to its log: a message "HHC" + 5 letters or digits + a
** severity, its banner, or a trace line (3.13 prefixes CPUnnnn:, and 4.x a time stamp). */
static int hercules_line(const char *s, size_t n)
{
    while (n && (*s == ' ' || isdigit((unsigned char)*s) || *s == ':' || *s == '.')) /* a time stamp */
        s++, n--;
    if (n >= 9 && !memcmp(s, "HHC", 3)) {
        for (int i = 3; i < 8; i++)
            if (!isalnum((unsigned char)s[i]))
                return 0;
        return strchr("IWESDA", s[8]) != NULL;
    }
    static const char *const starts[] = { "Hercules Version ", "PSW=", NULL };
    for (const char *const *p = starts; *p; p++)
        if (n >= strlen(*p) && !memcmp(s, *p, strlen(*p)))
            return 1;
    return n >= 13 && !memcmp(s, "CPU", 3) && s[7] == ':' && strstr(s, "PSW=") != NULL;
}

fst_sniff_kind fst_sniff(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
        return FST_SNIFF_UNKNOWN;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return FST_SNIFF_UNKNOWN;
    char buf[FST_SNIFF_BYTES + 1];
    ssize_t n = read(fd, buf, FST_SNIFF_BYTES);
    close(fd);
    if (n <= 0)
        return FST_SNIFF_UNKNOWN;
    if (n >= 8 && !memcmp(buf, FST_TRACE_MAGIC, 8))
        return FST_SNIFF_TRACE;
    if (fst_tf_magic(buf, (size_t)n) == 1)
        return FST_SNIFF_TF;
    buf[n] = 0;
    if (!strncmp(buf, "Hercules Version ", 17))
        return FST_SNIFF_HLOG;   /* 3.13's banner, whatever follows */
    int lines = 0, hercs = 0;
    for (char *s = buf; s < buf + n && lines < 64;) {
        char *nl = memchr(s, '\n', (size_t)(buf + n - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(buf + n - s);
        if (len && memchr(s, 0, len))
            return FST_SNIFF_UNKNOWN;   /* binary */
        lines++;
        hercs += hercules_line(s, len);
        s += len + 1;
    }
    return hercs >= 1 && hercs * 4 >= lines ? FST_SNIFF_HLOG : FST_SNIFF_UNKNOWN;
}

void fst_sniff_hint(fst_sniff_kind k, const char *path, char *hint, size_t cap)
{
    if (!cap)
        return;
    if (k == FST_SNIFF_HLOG)
        snprintf(hint, cap, "%s looks like a Hercules log: make a trace of it first, "
                            "fst-capture --from-log=%s -o job.trace (with --image=PROGRAM.ins for a standalone "
                            "program), then fst-report job.trace", path, path);
    else if (k == FST_SNIFF_TF)
        snprintf(hint, cap, "%s looks like an SDL Hercules binary trace file (tf): make a trace of it first, "
                            "fst-capture --from-tf=%s -o job.trace, then fst-report job.trace", path, path);
    else if (k == FST_SNIFF_TRACE)
        snprintf(hint, cap, "%s is an fst trace already: report it with fst-report %s", path, path);
    else
        hint[0] = 0;
}
