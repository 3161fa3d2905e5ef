/* formats/fmt.c — number formatting shared by the writers; see formats.h. */
#include "formats/formats.h"

#include <stdio.h>
#include "common/err.h"


void fst_fmt_sec2(fst_fx x, char *buf)
{
    uint64_t cs = (x + FST_FX_PER_SEC / 200) / (FST_FX_PER_SEC / 100);
    if (cs >= 100)
        sprintf(buf, "%llu.%02llu", (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
    else
        sprintf(buf, ".%02llu", (unsigned long long)cs);
}

const char *fst_fmt_incomplete(const fst_profile *p, char *buf, size_t cap)
{
    if (p->complete)
        return NULL;
    snprintf(buf, cap, "INCOMPLETE TRACE: its first %llu instructions only (%.200s)",
             (unsigned long long)p->total_insns, p->incomplete);
    return buf;
}

const char *fst_fmt_window(const fst_profile *p, char *buf, size_t cap)
{
    if (!p->window)
        return NULL;
    snprintf(buf, cap, "WINDOW %.160s: instructions %llu to %llu of the trace", p->win_spec,
             (unsigned long long)p->win_from, (unsigned long long)(p->win_from + p->total_insns - 1));
    return buf;
}

void fst_fmt_secn(fst_fx x, int digits, char *buf)
{
    uint64_t unit = FST_FX_PER_SEC, scale = 1;
    for (int i = 0; i < digits; i++) {
        unit /= 10;
        scale *= 10;
    }
    uint64_t v = x / unit + (x % unit >= unit - unit / 2);   /* half up, without overflow */
    if (v >= scale)
        sprintf(buf, "%llu.%0*llu", (unsigned long long)(v / scale), digits, (unsigned long long)(v % scale));
    else
        sprintf(buf, ".%0*llu", digits, (unsigned long long)v);
}

int fst_digits_opt(const char *s, int *digits, fst_err *err)
{
    *digits = 2;
    if (!s)
        return 0;
    if (s[0] < '0' || s[0] > '9' || s[1] || s[0] < '2')
        return fst_errf(err, "--digits: '%s' is not a number of decimals from 2 to 9", s);
    *digits = s[0] - '0';
    return 0;
}

void fst_fmt_sec9(fst_fx x, char *buf)
{
    uint64_t ns = fst_fx_to_ns(x);
    sprintf(buf, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull), (unsigned long long)(ns % 1000000000ull));
}

/* XML text: the five characters with a meaning escaped, control characters as '?' */
int fst_put_xml(FILE *out, const char *s, size_t max)
{
    int rc = 0;
    for (size_t i = 0; s[i] && i < max && !rc; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                      : c == '\'' ? "&apos;" : NULL;
        rc = e ? fputs(e, out) < 0 : fputc(c < 0x20 || c == 0x7F ? '?' : c, out) == EOF;
    }
    return rc;
}
