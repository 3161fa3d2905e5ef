/* common/lines.c — bounded reading of text inputs; see lines.h. */
#include "common/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fst_lines {
    FILE *f;
    char *path;
    const char *what;
    size_t maxline;
    uint64_t maxbytes, total;
    char *buf;              /* maxline + 2 bytes: a line, its newline, one byte more */
    size_t cap, start, end;
    int eof;
    char *line;             /* the line handed out, NUL-terminated */
    size_t lineno;
};

const char *fst_size_text(uint64_t n, char *buf)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        sprintf(buf, "%llu MiB", (unsigned long long)(n >> 20));
    else if (n >= 1024 && n % 1024 == 0)
        sprintf(buf, "%llu KiB", (unsigned long long)(n >> 10));
    else
        sprintf(buf, "%llu bytes", (unsigned long long)n);
    return buf;
}

static int is_folder(FILE *f)
{
    struct stat sb;
    return fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode);
}

fst_lines *fst_lines_open(const char *path, const char *what, size_t maxline, uint64_t maxbytes, fst_err *err)
{
    int std = !strcmp(path, "-");
    FILE *f = std ? stdin : fopen(path, "r");
    if (!f) {
        fst_errno(err, "%s: cannot open", path);
        return NULL;
    }
    if (is_folder(f)) {
        fst_errf(err, "%s: a folder, not a %s", path, what);
        if (!std)
            fclose(f);
        return NULL;
    }
    fst_lines *l = fst_xcalloc(1, sizeof *l);
    l->f = f;
    l->path = fst_xstrdup(std ? "standard input" : path);
    l->what = what;
    l->maxline = maxline;
    l->maxbytes = maxbytes;
    l->cap = maxline + 2;
    l->buf = fst_xmalloc(l->cap);
    l->line = fst_xmalloc(maxline + 2);
    return l;
}

static int give(fst_lines *l, size_t n, char **line, size_t *len)
{
    memcpy(l->line, l->buf + l->start, n);
    l->line[n] = 0;
    l->start += n;
    l->lineno++;
    *line = l->line;
    *len = n;
    return 1;
}

int fst_lines_next(fst_lines *l, char **line, size_t *len, fst_err *err)
{
    for (;;) {
        size_t have = l->end - l->start;
        char *nl = memchr(l->buf + l->start, '\n', have);
        if (nl && (size_t)(nl - (l->buf + l->start)) <= l->maxline)
            return give(l, (size_t)(nl - (l->buf + l->start)) + 1, line, len);
        if (nl || have > l->maxline)
            return fst_errf(err, "%s:%zu: a line longer than %zu bytes: not a %s", l->path, l->lineno + 1,
                            l->maxline, l->what);
        if (l->eof)
            return have ? give(l, have, line, len) : 0;
        memmove(l->buf, l->buf + l->start, have);
        l->start = 0;
        l->end = have;
        size_t got = fread(l->buf + l->end, 1, l->cap - l->end, l->f);
        l->end += got;
        l->total += got;
        if (l->maxbytes && l->total > l->maxbytes) {
            char sz[32];
            return fst_errf(err, "%s: more than %s: too large for a %s", l->path, fst_size_text(l->maxbytes, sz),
                            l->what);
        }
        if (!got) {
            if (ferror(l->f))
                return fst_errno(err, "%s:%zu: cannot read", l->path, l->lineno + 1);
            l->eof = 1;
        }
    }
}

size_t fst_lines_lineno(const fst_lines *l) { return l->lineno; }

void fst_lines_close(fst_lines *l)
{
    if (!l)
        return;
    if (l->f != stdin)
        fclose(l->f);
    free(l->buf);
    free(l->line);
    free(l->path);
    free(l);
}

int fst_read_all(FILE *f, const char *name, const char *what, uint64_t maxbytes, char **buf, size_t *len,
                 fst_err *err)
{
    if (is_folder(f))
        return fst_errf(err, "%s: a folder, not a %s", name, what);
    size_t n = 0, cap = maxbytes < (1u << 16) ? (size_t)maxbytes + 1 : 1u << 16;
    char *b = fst_xmalloc(cap + 1);
    for (;;) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n > maxbytes) {
            free(b);
            char sz[32];
            return fst_errf(err, "%s: more than %s: too large for a %s", name, fst_size_text(maxbytes, sz), what);
        }
        if (!got) {
            if (ferror(f)) {
                free(b);
                return fst_errno(err, "%s: cannot read", name);
            }
            break;
        }
        if (n == cap) {
            cap = cap * 2 > maxbytes ? (size_t)maxbytes + 1 : cap * 2;
            b = fst_xrealloc(b, cap + 1);
        }
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}
