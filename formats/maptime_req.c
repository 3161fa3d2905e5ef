/*
** formats/maptime_req.c — MAPTIME's requests, in MAPTIME's own syntax (seed 003):
**
**   SPAN address0 address1 spansize percent    addresses and spansize in hexadecimal
**   NAME routine0 routine1 spansize percent    routine names of 1 to 8 characters
**   TERM                                        the end (so is an empty line)
**
** The percent is Fortran F8.2: at most 8 characters, the decimal point required, here at
** most two decimals and at most 100.00. Fields are separated by blanks (or commas, as
** Fortran list input allowed); the keyword is case-insensitive. See maptime.h.
*/
#include "formats/maptime.h"
#include "common/lines.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAXF = 6 };

/* Split into fields; returns their number (up to MAXF + 1 meaning "too many"). */
static int split(char *s, char **f)
{
    int n = 0;
    for (char *t = strtok(s, " \t,\r\n"); t; t = strtok(NULL, " \t,\r\n"))
        if (n <= MAXF)
            f[n++] = t;
    return n;
}

static int hexval(const char *s, uint64_t *v)
{
    if (!*s || strlen(s) > 8)
        return -1;
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (!isxdigit((unsigned char)*p))
            return -1;
        x = x * 16 + (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' : toupper((unsigned char)*p) - 'A' + 10);
    }
    *v = x;
    return 0;
}

/* F8.2 with the decimal point required: hundredths of a percent, <= 10000. */
static int percent(const char *s, uint32_t *h)
{
    const char *dot = strchr(s, '.');
    if (strlen(s) > 8 || !dot)
        return -1;
    uint32_t ip = 0, fp = 0;
    int nd = 0, nf = 0;
    for (const char *p = s; p < dot; p++, nd++) {
        if (!isdigit((unsigned char)*p))
            return -1;
        ip = ip * 10 + (uint32_t)(*p - '0');
    }
    for (const char *p = dot + 1; *p; p++, nf++) {
        if (!isdigit((unsigned char)*p) || nf == 2)
            return -1;
        fp = fp * 10 + (uint32_t)(*p - '0');
    }
    if (nd + nf == 0)
        return -1;
    if (nf == 1)
        fp *= 10;
    *h = ip * 100 + fp;
    return *h <= 10000 ? 0 : -1;
}

static int bad(fst_err *err, const mt_req *r, const char *why)
{
    return fst_errf(err, "%s: '%s': %s", r->where, r->text, why);
}

int mt_req_parse(const char *line, const char *where, mt_req *r, fst_err *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->where, sizeof r->where, "%s", where);
    size_t len = strcspn(line, "\r\n");
    snprintf(r->text, sizeof r->text, "%.*s", (int)(len < 90 ? len : 90), line);
    char buf[256], *f[MAXF + 1];
    if (len >= sizeof buf)
        return bad(err, r, "longer than 255 characters");
    memcpy(buf, line, len);
    buf[len] = 0;
    int n = split(buf, f);
    if (n == 0 || (n == 1 && !strcasecmp(f[0], "TERM")))
        return 0;
    if (!strcasecmp(f[0], "SPAN"))
        r->kind = MT_SPAN;
    else if (!strcasecmp(f[0], "NAME"))
        r->kind = MT_NAME;
    else
        return bad(err, r, "not a MAPTIME request (SPAN address0 address1 spansize percent, "
                           "NAME routine0 routine1 spansize percent, or TERM)");
    if (n != 5)
        return bad(err, r, r->kind == MT_SPAN ? "SPAN takes 4 fields: address0 address1 spansize percent"
                                              : "NAME takes 4 fields: routine0 routine1 spansize percent");
    if (r->kind == MT_SPAN) {
        if (hexval(f[1], &r->a0) || hexval(f[2], &r->a1))
            return bad(err, r, "address0 and address1 are hexadecimal (at most 8 digits)");
        if (r->a1 < r->a0)
            return bad(err, r, "address1 is below address0");
    } else {
        if (strlen(f[1]) > 8 || strlen(f[2]) > 8)
            return bad(err, r, "a routine name has at most 8 characters");
        snprintf(r->n0, sizeof r->n0, "%s", f[1]);
        snprintf(r->n1, sizeof r->n1, "%s", f[2]);
    }
    if (hexval(f[3], &r->span))
        return bad(err, r, "spansize is hexadecimal (at most 8 digits)");
    if (percent(f[4], &r->pct))
        return bad(err, r, "percent is F8.2: a decimal point, at most 2 decimals, 0.0 to 100.0");
    return 1;
}

int mt_req_file(const char *path, mt_req **rs, size_t *n, fst_err *err)
{
    fst_lines *f = fst_lines_open(path, "MAPTIME request deck", 4096, 1u << 20, err);
    if (!f)
        return -1;
    char *line, where[128];
    size_t len;
    int rc = 0, more;
    while ((more = fst_lines_next(f, &line, &len, err)) > 0) {
        snprintf(where, sizeof where, "%.100s:%zu", path, fst_lines_lineno(f));
        mt_req r;
        int k = mt_req_parse(line, where, &r, err);
        if (k <= 0) {
            rc = k;
            break;
        }
        *rs = fst_xrealloc(*rs, (*n + 1) * sizeof **rs);
        (*rs)[(*n)++] = r;
    }
    if (more < 0)
        rc = -1;
    fst_lines_close(f);
    return rc;
}
