/* capture/read/jobwin.c — one job's window in a Hercules log (capture/read/jobwin.h). */
#include "capture/read/jobwin.h"
#include "capture/module/fstmod_job.h"
#include "common/err.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { WAITING, OPENING, OPEN, DONE }; /* OPENING: open, the first line not yet passed */

struct fst_jobwin {
    char name[9];
    size_t namelen;
    int state;
    uint64_t skip;          /* starts of the job still to pass over (earlier runs) */
    uint64_t line, start_line, end_line;
    char *part;             /* the partial line */
    size_t npart;
    char other[FST_JOBWIN_OTHER]; /* the last start line of another job (or a skipped run), "" */
    char first[FST_JOBWIN_OTHER]; /* the first line read, "" */
};

fst_jobwin *fst_jobwin_new(const char *name)
{
    char up[9];
    if (!fstmod_job_name(name, up))
        return NULL;
    fst_jobwin *j = fst_xcalloc(1, sizeof *j);
    memcpy(j->name, up, sizeof up);
    j->namelen = strlen(up);
    j->part = fst_xmalloc(FST_JOBWIN_MAX_LINE);
    return j;
}

void fst_jobwin_free(fst_jobwin *j)
{
    if (j)
        free(j->part);
    free(j);
}

/* `$HASPnnn NAME ` followed (somewhere after) by `what`, in the line [s, s+n). */
static int says(const fst_jobwin *j, const char *s, size_t n, const char *msg, const char *what)
{
    return fstmod_job_says(s, n, j->name, j->namelen, msg, what);
}

/* Before the window, what Hercules says of its state only, never of events: its banner and
** version, the architecture mode and the trace display (the parser needs them); a program
** check, a wait, an interruption or a SIGP of before the job is not the job's (3.13 and 4.x
** message ids). */
static int state_message(const char *s, size_t n)
{
    static const char *const ids[] = { "HHC01413I", "HHCCP003I", "HHCCP007I", "HHC00811I", "HHCPN162I", "HHC02204I" };
    size_t i = 0;
    if (n >= 9 && s[2] == ':' && s[5] == ':')
        for (i = 8; i < n && (s[i] == ' ' || s[i] == '.' || isdigit((unsigned char)s[i])); i++)
            ;
    if (n - i >= 17 && !memcmp(s + i, "Hercules Version ", 17))
        return 1;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
        if (n - i >= 9 && !memcmp(s + i, ids[k], 9))
            return 1;
    return 0;
}

static int blank(const char *s, size_t n)
{
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        n--;
    return n == 0;
}

/* A line of a register display (GR00=, R0=, CR00=, C0=, AR00=, FPR/FP, VR00=; after a CPU's
** "CPUnnnn: " or a time stamp): the rest of a display whose instruction came before the
** window (traditional shows registers after their instruction), which the window drops. */
static int register_line(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 9 && s[2] == ':' && s[5] == ':')
        i = 9;
    if (n - i >= 9 && !memcmp(s + i, "CPU", 3) && s[i + 7] == ':')
        i += 8;
    while (i < n && s[i] == ' ')
        i++;
    const char *p = s + i;
    size_t m = n - i;
    if (m < 4)
        return 0;
    int hex1 = isxdigit((unsigned char)p[1]) != 0;
    return (m >= 5 && (p[0] == 'G' || p[0] == 'C' || p[0] == 'A' || p[0] == 'V') && p[1] == 'R' && p[4] == '=') ||
           ((p[0] == 'R' || p[0] == 'C') && hex1 && p[2] == '=') || (p[0] == 'F' && p[1] == 'P');
}

/* p[0..k) into to (FST_JOBWIN_OTHER bytes), printable, for a message, without its line end. */
static void keep_text(char *to, const char *p, size_t k)
{
    while (k && (p[k - 1] == '\n' || p[k - 1] == '\r' || p[k - 1] == ' '))
        k--;
    if (k > FST_JOBWIN_OTHER - 1)
        k = FST_JOBWIN_OTHER - 1;
    for (size_t i = 0; i < k; i++)
        to[i] = p[i] >= ' ' && p[i] < 0x7F ? p[i] : '?';
    to[k] = 0;
}

/* A start line (any job's) while the window waits: kept from its `$HASP373`, so that a
** job that never starts can be told from a job under another name (fst_jobwin_other). */
static void keep_other(fst_jobwin *j, const char *s, size_t n)
{
    const char *p = fstmod_find(s, n, "$HASP373", 8);
    if (p)
        keep_text(j->other, p, (size_t)(s + n - p));
}

/* One whole line (with its newline, when it has one). */
static int line(fst_jobwin *j, const char *s, size_t n, fst_jobwin_out out, void *ctx)
{
    if (!j->line++)
        keep_text(j->first, s, n);
    if (j->state == DONE)
        return 0;
    if (j->state == WAITING) {
        if (says(j, s, n, FSTMOD_JOB_START) && j->skip) {
            j->skip--;
            keep_other(j, s, n);
            return 0;
        }
        if (says(j, s, n, FSTMOD_JOB_START)) {
            j->state = OPENING;
            j->start_line = j->line;
            /* (3.13 can splice the console's line into a register line: not the parser's) */
            return register_line(s, n) ? 0 : out(ctx, s, n);
        }
        keep_other(j, s, n);
        return state_message(s, n) ? out(ctx, s, n) : 0;
    }
    if (j->state == OPENING && (register_line(s, n) || blank(s, n)))
        return 0;
    j->state = OPEN;
    int rc = out(ctx, s, n);
    if (says(j, s, n, FSTMOD_JOB_END)) {
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
                int rc = j->state == OPEN || j->state == OPENING ? out(ctx, j->part, j->npart) : 0;
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
const char *fst_jobwin_other(const fst_jobwin *j) { return j->other; }
const char *fst_jobwin_first(const fst_jobwin *j) { return j->first; }
void fst_jobwin_skip(fst_jobwin *j, uint64_t skip) { j->skip = skip; }
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

/* The time a console line shows: the first HH.MM.SS or HH:MM:SS in it, into t ("" when none). */
static void line_time(const char *s, size_t n, char t[9])
{
    t[0] = 0;
    for (size_t i = 0; i + 8 <= n; i++) {
        const char *p = s + i;
        if (isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) && (p[2] == '.' || p[2] == ':') &&
            isdigit((unsigned char)p[3]) && isdigit((unsigned char)p[4]) && p[5] == p[2] &&
            isdigit((unsigned char)p[6]) && isdigit((unsigned char)p[7])) {
            memcpy(t, p, 8);
            t[8] = 0;
            return;
        }
    }
}

int fst_jobwin_scan(const char *path, const char *name, fst_jobrun *runs, size_t cap, size_t *n, fst_err *err)
{
    fst_jobwin *j = fst_jobwin_new(name);
    FILE *f = j ? fopen(path, "rb") : NULL;
    *n = 0;
    if (!f) {
        fst_jobwin_free(j);
        return j ? fst_errno(err, "%s", path) : fst_errf(err, "--job wants a job name, not '%s'", name);
    }
    char *line = NULL;
    size_t lcap = 0;
    ssize_t k;
    uint64_t no = 0;
    int open = 0;
    while ((k = getline(&line, &lcap, f)) > 0) {
        no++;
        if (!memchr(line, '$', (size_t)k))
            continue;
        if (says(j, line, (size_t)k, FSTMOD_JOB_START)) {
            if (*n < cap) {
                runs[*n] = (fst_jobrun){ no, 0, "" };
                line_time(line, (size_t)k, runs[*n].time);
            }
            ++*n;
            open = 1;
        } else if (open && says(j, line, (size_t)k, FSTMOD_JOB_END)) {
            if (*n && *n <= cap)
                runs[*n - 1].end_line = no;
            open = 0;
        }
    }
    int bad = ferror(f);
    free(line);
    fclose(f);
    fst_jobwin_free(j);
    return bad ? fst_errno(err, "%s: read", path) : 0;
}
