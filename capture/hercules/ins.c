/* capture/hercules/ins.c — see ins.h. */
#include "capture/hercules/ins.h"
#include "common/lines.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A piece of the image: a regular file that fits where it is loaded (checked before it is
** read, so that a huge file is refused, not read). */
static int read_file(const char *path, uint64_t at, uint64_t mainsize, uint8_t **data, size_t *len, fst_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fst_errno(err, "%s: cannot open", path);
    struct stat sb;
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return fst_errf(err, "%s: not a regular file", path);
    }
    *len = (size_t)sb.st_size;
    if (mainsize && (at >= mainsize || *len > mainsize - at)) {
        fclose(f);
        return fst_errf(err, "%s (%zu bytes at 0x%llX) does not fit in %llu KiB of storage", path, *len,
                        (unsigned long long)at, (unsigned long long)(mainsize >> 10));
    }
    *data = fst_xmalloc(*len);
    size_t got = fread(*data, 1, *len, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != *len) {
        free(*data);
        return fst_errf(err, "%s: cannot read", path);
    }
    return 0;
}

int fst_ins_load(fst_ins *ins, const char *path, uint64_t mainsize, fst_err *err)
{
    memset(ins, 0, sizeof *ins);
    fst_lines *f = fst_lines_open(path, "Hercules IPL list (.ins)", PATH_MAX + 64, FST_INS_MAX_BYTES, err);
    if (!f)
        return -1;
    char dir[PATH_MAX];
    char *rp = realpath(path, NULL);
    snprintf(dir, sizeof dir, "%s", rp ? rp : path);
    free(rp);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    char *buf;
    size_t blen;
    int lineno = 0, rc = 0, more;
    while ((more = fst_lines_next(f, &buf, &blen, err)) > 0) {
        lineno++;
        if (memchr(buf, 0, blen)) {
            rc = fst_errf(err, "%s:%d: a NUL byte: not a Hercules IPL list (.ins)", path, lineno);
            break;
        }
        char name[PATH_MAX], addr[64], extra[8];
        char *s = buf + strspn(buf, " \t");
        if (!*s || *s == '\n' || *s == '\r' || *s == '*' || *s == '#')
            continue;
        int k = sscanf(s, "%4095s %63s %7s", name, addr, extra);
        if (k == 1)
            snprintf(addr, sizeof addr, "0");
        if (k < 1 || k > 2) {
            rc = fst_errf(err, "%s:%d: expected 'FILE ADDRESS'", path, lineno);
            break;
        }
        char *end;
        errno = 0;
        const char *a = addr;
        if (a[0] == '0' && (a[1] == 'x' || a[1] == 'X'))
            a += 2;
        unsigned long long at = strtoull(a, &end, 16);
        if (!*a || *end || errno) {
            rc = fst_errf(err, "%s:%d: bad load address '%s' (hex expected)", path, lineno, addr);
            break;
        }
        char full[PATH_MAX * 2];
        if (name[0] == '/')
            snprintf(full, sizeof full, "%s", name);
        else
            snprintf(full, sizeof full, "%s/%s", dir, name);
        uint8_t *data = NULL;
        size_t len = 0;
        if (read_file(full, at, mainsize, &data, &len, err)) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            rc = fst_errf(err, "%s:%d: %s", path, lineno, why);
            break;
        }
        ins->seg = fst_xrealloc(ins->seg, (ins->n + 1) * sizeof *ins->seg);
        ins->file = fst_xrealloc(ins->file, (ins->n + 1) * sizeof *ins->file);
        ins->seg[ins->n] = (fst_image_seg){ at, len, data };
        ins->file[ins->n] = fst_xstrdup(full);
        ins->n++;
    }
    if (more < 0)
        rc = -1;
    fst_lines_close(f);
    if (!rc && ins->n == 0)
        rc = fst_errf(err, "%s: no files listed", path);
    if (rc)
        fst_ins_free(ins);
    return rc;
}

void fst_ins_free(fst_ins *ins)
{
    for (size_t i = 0; i < ins->n; i++) {
        free(ins->seg[i].data);
        free(ins->file[i]);
    }
    free(ins->seg);
    free(ins->file);
    memset(ins, 0, sizeof *ins);
}
