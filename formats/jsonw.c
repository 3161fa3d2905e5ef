/* formats/jsonw.c — JSON strings and integer time units; see jsonw.h. */
#include "formats/jsonw.h"

#include <string.h>

int fst_json_str(FILE *out, const char *s)
{
    if (putc('"', out) == EOF)
        return -1;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        int rc;
        if (*c == '"' || *c == '\\')
            rc = fprintf(out, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f)
            rc = fprintf(out, "\\u%04x", *c);
        else
            rc = putc(*c, out) == EOF ? -1 : 0;
        if (rc < 0)
            return -1;
    }
    return putc('"', out) == EOF ? -1 : 0;
}

int fst_tunit_parse(const char *s, fst_tunit dflt)
{
    if (!s)
        return (int)dflt;
    if (!strcmp(s, "instructions"))
        return FST_TU_INSNS;
    if (!strcmp(s, "ns"))
        return FST_TU_NS;
    if (!strcmp(s, "tod"))
        return FST_TU_TOD;
    return -1;
}

uint64_t fst_tunit_of(fst_tunit u, fst_fx x)
{
    return u == FST_TU_TOD ? fst_fx_to_tod(x) : fst_fx_to_ns(x);
}

uint64_t fst_rounder_next(fst_rounder *r, fst_fx cost, uint64_t insns)
{
    if (r->unit == FST_TU_INSNS)
        return insns;
    r->sum += cost;
    uint64_t now = fst_tunit_of(r->unit, r->sum), part = now - r->printed;
    r->printed = now;
    return part;
}
