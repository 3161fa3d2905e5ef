/* capture/read/jobwin.c — one job's window in a Hercules log (capture/read/jobwin.h). */
#include "capture/read/jobwin.h"
#include "common/err.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { WAITING, OPEN, DONE };

struct fst_jobwin {
    char name[9];
    size_t namelen;
    int state;
    uint64_t line, start_line, end_line;
    char *part;             /* the partial line */
    size_t npart;
};

fst_jobwin *fst_jobwin_new(const char *name)
{
    size_t n = strlen(name);
    if (!n || n > 8)
        return NULL;
    fst_jobwin *j = fst_xcalloc(1, sizeof *j);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!isalnum(c) && c != '$' && c != '#' && c != '@') {
            free(j);
            return NULL;
        }
        j->name[i] = (char)toupper(c);
    }
    j->namelen = n;
    j->part = fst_xmalloc(FST_JOBWIN_MAX_LINE);
    return j;
}

void fst_jobwin_free(fst_jobwin *j)
{
    if (j)
        free(j->part);
    free(j);
}

/* memmem is a GNU extension; the build asks for POSIX only. */
static const char *find(const char *s, size_t n, const char *w, size_t wl)
{
    for (const char *p = s, *end = s + n; (size_t)(end - p) >= wl; p++) {
        p = memchr(p, w[0], (size_t)(end - p) - wl + 1);
        if (!p)
            return NULL;
        if (!memcmp(p, w, wl))
            return p;
    }
    return NULL;
}

/* `$HASPnnn NAME ` followed (somewhere after) by `what`, in the line [s, s+n). */
static int says(const fst_jobwin *j, const char *s, size_t n, const char *msg, const char *what)
{
    size_t ml = strlen(msg), wl = strlen(what);
    for (const char *p = s, *end = s + n; (p = find(p, (size_t)(end - p), msg, ml)); p += ml) {
        const char *q = p + ml;
        while (q < end && *q == ' ')
            q++;
        if ((size_t)(end - q) < j->namelen + 1 || memcmp(q, j->name, j->namelen) || q[j->namelen] != ' ')
            continue;
        q += j->namelen;
        return find(q, (size_t)(end - q), what, wl) != NULL;
    }
    return 0;
}

/* A message of Hercules' own: its first word (after a "HH:MM:SS" time stamp) begins with HHC,
** or its banner's "Hercules Version". */
static int hercules_message(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 9 && s[2] == ':' && s[5] == ':')
        for (i = 8; i < n && (s[i] == ' ' || s[i] == '.' || isdigit((unsigned char)s[i])); i++)
            ;
    return (n - i >= 3 && !memcmp(s + i, "HHC", 3)) || (n - i >= 17 && !memcmp(s + i, "Hercules Version ", 17));
}

/* One whole line (with its newline, when it has one). */
static int line(fst_jobwin *j, const char *s, size_t n, fst_jobwin_out out, void *ctx)
{
    j->line++;
    if (j->state == DONE)
        return 0;
    if (j->state == WAITING) {
        if (says(j, s, n, "$HASP373", "STARTED")) {
            j->state = OPEN;
            j->start_line = j->line;
            return out(ctx, s, n);
        }
        return hercules_message(s, n) ? out(ctx, s, n) : 0;
    }
    int rc = out(ctx, s, n);
    if (says(j, s, n, "$HASP395", "ENDED")) {
        j->state = DONE;
        j->end_line = j->line;
    }
    return rc;
}

int fst_jobwin_feed(fst_jobwin *j, const char *buf, size_t n, fst_jobwin_out out, void *ctx)
{
    const char *end = buf + n;
    while (buf < end && j->state != DONE) {
        const char *nl = memchr(buf, '\n', (size_t)(end - buf));
        size_t k = nl ? (size_t)(nl - buf) + 1 : (size_t)(end - buf);
        if (!nl || j->npart) {      /* a line begun in an earlier piece, or one not ended yet */
            size_t room = FST_JOBWIN_MAX_LINE - j->npart, take = k < room ? k : room;
            memcpy(j->part + j->npart, buf, take);
            j->npart += take;
            if (take < k || j->npart == FST_JOBWIN_MAX_LINE) { /* too long: in pieces, or dropped */
                int rc = j->state == OPEN ? out(ctx, j->part, j->npart) : 0;
                j->npart = 0;
                if (rc)
                    return rc;
                buf += take;
                continue;
            }
            buf += k;
            if (nl) {
                int rc = line(j, j->part, j->npart, out, ctx);
                j->npart = 0;
                if (rc)
                    return rc;
            }
            continue;
        }
        int rc = line(j, buf, k, out, ctx);
        if (rc)
            return rc;
        buf += k;
    }
    return 0;
}

int fst_jobwin_finish(fst_jobwin *j, fst_jobwin_out out, void *ctx)
{
    int rc = 0;
    if (j->npart && j->state != DONE)
        rc = line(j, j->part, j->npart, out, ctx);
    j->npart = 0;
    return rc;
}

int fst_jobwin_started(const fst_jobwin *j) { return j->state != WAITING; }
int fst_jobwin_ended(const fst_jobwin *j) { return j->state == DONE; }
uint64_t fst_jobwin_start_line(const fst_jobwin *j) { return j->start_line; }
uint64_t fst_jobwin_end_line(const fst_jobwin *j) { return j->end_line; }
const char *fst_jobwin_name(const fst_jobwin *j) { return j->name; }
uint64_t fst_jobwin_lines(const fst_jobwin *j) { return j->line; }

void fst_jobwin_hao(const char *name, FILE *out)
{
    char up[9] = "";
    for (size_t i = 0; name[i] && i < 8; i++)
        up[i] = (char)toupper((unsigned char)name[i]);
    fprintf(out, "# type these at the Hercules console (or put them in its script) before the job is submitted:\n"
                 "# tracing goes on at JES2's $HASP373 %s STARTED and off at its $HASP395 %s ENDED\n"
                 "hao tgt \\$HASP373 +%s +STARTED\n"
                 "hao cmd t+\n"
                 "hao tgt \\$HASP395 +%s +ENDED\n"
                 "hao cmd t-\n", up, up, up, up);
}
