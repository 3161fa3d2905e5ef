/* formats/uncertain.c — the ' ?' marks and their footnote; see uncertain.h. */
#include "formats/uncertain.h"
#include "common/quote.h"

#include <stdio.h>

const char *fst_unc_mark(const fst_routine *r)
{
    return r->calls_unc || r->self_unc ? " ?" : "";
}

int fst_unc_any(const fst_profile *p, const size_t *ix, size_t n)
{
    size_t m = ix ? n : p->nr;
    for (size_t k = 0; k < m; k++)
        if (*fst_unc_mark(&p->r[ix ? ix[k] : k]))
            return 1;
    return 0;
}

int fst_unc_footnote(const fst_profile *p, const size_t *ix, size_t n, int (*line)(void *ctx, int first, const char *text),
                     void *ctx)
{
    char buf[200], nm[sizeof p->r[0].name];
    size_t m = ix ? n : p->nr;
    int rc = 0, said = 0;
    for (size_t k = 0; k < m && !rc; k++) {
        const fst_routine *r = &p->r[ix ? ix[k] : k];
        if (!*fst_unc_mark(r))
            continue;
        if (!said++)
            rc = line(ctx, 1, "? the true figures lie within:");
        snprintf(buf, sizeof buf, "?   %s: CALLED %llu +-%llu, self instructions %llu +-%llu",
                 fst_printable(r->name, nm, sizeof nm), (unsigned long long)r->calls, (unsigned long long)r->calls_unc,
                 (unsigned long long)r->self_insns, (unsigned long long)r->self_unc);
        if (!rc)
            rc = line(ctx, 0, buf);
    }
    return rc;
}
