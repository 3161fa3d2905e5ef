/* common/quote.c — names printed whole in every format; see quote.h. */
#include "common/quote.h"

#include <csv.h>
#include <string.h>

static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')) ||
           s[0] == '#';
}

int fst_csv_field(FILE *f, const char *s)
{
    if (needs_quotes(s))
        return csv_fwrite(f, s, strlen(s)) == 0 ? 0 : -1;
    return fputs(s, f) < 0 ? -1 : 0;
}

const char *fst_printable(const char *s, char *buf, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7F ? '?' : s[i];
    if (cap)
        buf[i] = 0;
    return buf;
}
