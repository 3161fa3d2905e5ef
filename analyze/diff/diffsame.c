/* analyze/diff/diffsame.c — are two sides runs of one program? (fst_diff_same_program, diff.h) */
#include "analyze/diff/diff.h"

#include <stdio.h>
#include <string.h>

/* "A, B, C" of the called routines of s (at most cap bytes; "..." when cut) */
static void called(const fst_dside *s, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < s->nr && len + 8 < cap; i++)
        if (s->r[i].calls) {
            int n = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", s->r[i].name);
            len = n > 0 && (size_t)n < cap - len ? len + (size_t)n : cap;
        }
    if (len >= cap - 8)
        snprintf(buf + (cap > 12 ? cap - 12 : 0), cap > 12 ? 12 : cap, ", ...");
}

int fst_diff_same_program(const fst_dside *b, const fst_dside *n, fst_err *err)
{
    size_t nb = 0, nn = 0;
    for (size_t i = 0; i < b->nr; i++)
        nb += b->r[i].calls != 0;
    for (size_t j = 0; j < n->nr; j++)
        nn += n->r[j].calls != 0;
    if (!nb || !nn)
        return 0;   /* a mainline alone on a side: nothing to tell programs by */
    for (size_t i = 0; i < b->nr; i++)
        for (size_t j = 0; b->r[i].calls && j < n->nr; j++)
            if (n->r[j].calls && !strcmp(b->r[i].name, n->r[j].name))
                return 0;
    char lb[200], ln[200];
    called(b, lb, sizeof lb);
    called(n, ln, sizeof ln);
    return fst_errf(err, "BASE %s and NEW %s are not runs of one program: no routine called in one is called in the "
                         "other (BASE calls %s; NEW calls %s); fst-diff compares two runs of the same program",
                    b->path, n->path, lb, ln);
}
