/* trace/tracebin.c — what the trace.bin writer and reader share (tracebin_int.h): the
** instruction-bytes cache, the recent jump targets, key/value lists, architecture names.
** The format is described in tracebin.h. */
#include "trace/tracebin_int.h"
#include "common/err.h"

#include <stdlib.h>
#include <string.h>

static const char *arch_names[] = { "S/370", "ESA/390", "z/Arch", "unknown" };
const char *fst_arch_name(int arch) { return arch_names[arch & 3]; }
int fst_arch_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, arch_names[i]))
            return i;
    return -1;
}

/* ---- shared machinery: the instruction-bytes cache and the jump-target list ---- */

void fst_icache_init(fst_icache *c)
{
    c->cap = 4096;
    c->t = fst_xcalloc(c->cap, sizeof *c->t);
}

void fst_icache_put(fst_icache *c, uint64_t addr, const uint8_t *b, int len)
{
    fst_icache_ent *e = fst_icache_slot(c, addr);
    if (!e->len) {
        if (++c->n * 2 > c->cap) { /* grow, then find the slot again */
            fst_icache old = *c;
            c->cap *= 2;
            c->t = fst_xcalloc(c->cap, sizeof *c->t);
            for (size_t i = 0; i < old.cap; i++)
                if (old.t[i].len)
                    *fst_icache_slot(c, old.t[i].addr) = old.t[i];
            free(old.t);
            e = fst_icache_slot(c, addr);
        }
    }
    e->addr = addr;
    e->len = (uint8_t)len;
    memset(e->bytes, 0, sizeof e->bytes);
    memcpy(e->bytes, b, (size_t)len);
}

void fst_kv_put(uint8_t **p, size_t *len, size_t *cap, const char *k, const char *v)
{
    size_t kl = strlen(k) + 1, vl = strlen(v) + 1;
    if (*len + kl + vl > *cap) {
        *cap = (*len + kl + vl) * 2;
        *p = fst_xrealloc(*p, *cap);
    }
    memcpy(*p + *len, k, kl);
    memcpy(*p + *len + kl, v, vl);
    *len += kl + vl;
}

const char *fst_kv_get(const uint8_t *p, size_t len, size_t start, const char *key)
{
    size_t i = start;
    while (i < len) {
        const char *k = (const char *)p + i;
        size_t kl = strnlen(k, len - i);
        if (i + kl + 1 >= len)
            return NULL;
        const char *v = k + kl + 1;
        size_t vl = strnlen(v, len - (i + kl + 1));
        if (i + kl + 1 + vl >= len)
            return NULL; /* not NUL-terminated */
        if (!strcmp(k, key))
            return v;
        i += kl + 1 + vl + 1;
    }
    return NULL;
}

