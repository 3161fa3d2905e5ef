/*
** tests/unit/fixture.h — the unit tests' one way to read a file of ../shared/fixtures (or
** $FST_FIXTURES): fst_test_fixture("maps/x.iewl", &n) gives the whole file, NUL-terminated,
** malloc'd (the caller frees it), or NULL when it cannot be read. Header-only: each test
** program is one file.
*/
#ifndef FST_TEST_FIXTURE_H
#define FST_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

static inline char *fst_test_fixture(const char *rel, size_t *n)
{
    const char *dir = getenv("FST_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "../shared/fixtures", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *p = NULL;
    long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (len >= 0 && !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)len + 1)) &&
        fread(p, 1, (size_t)len, f) == (size_t)len) {
        p[len] = 0;
        *n = (size_t)len;
    } else {
        free(p);
        p = NULL;
    }
    fclose(f);
    return p;
}

#endif
