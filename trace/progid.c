/* trace/progid.c — which program a trace is of; see progid.h. */
#include "trace/progid.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

static void digest(char *buf, size_t cap, const fst_tr *tr)
{
    size_t n;
    const fst_image_seg *seg = fst_tr_image(tr, &n);
    unsigned long crc = crc32(0L, Z_NULL, 0);
    unsigned long long total = 0;
    buf[0] = 0;
    if (!n)
        return;
    for (size_t i = 0; i < n; i++) {
        unsigned char head[16];
        for (int k = 0; k < 8; k++) { /* little-endian: the same digest on every host */
            head[k] = (unsigned char)(seg[i].addr >> (8 * k));
            head[8 + k] = (unsigned char)((uint64_t)seg[i].len >> (8 * k));
        }
        crc = crc32(crc, head, sizeof head);
        for (size_t off = 0; off < seg[i].len; off += 1u << 30) { /* crc32 takes a uInt */
            size_t len = seg[i].len - off < 1u << 30 ? seg[i].len - off : 1u << 30;
            crc = crc32(crc, seg[i].data + off, (uInt)len);
        }
        total += seg[i].len;
    }
    snprintf(buf, cap, "crc32:%08lX/%llu", crc & 0xFFFFFFFFul, total);
}

void fst_progid_of(fst_progid *id, const fst_tr *tr)
{
    memset(id, 0, sizeof *id);
    digest(id->image, sizeof id->image, tr);
    const char *job = fst_tr_header(tr, FST_HK_JOB), *prog = fst_tr_header(tr, FST_HK_PROGRAM);
    if (job)
        snprintf(id->job, sizeof id->job, "%s", job);
    if (prog) {
        const char *slash = strrchr(prog, '/');
        snprintf(id->name, sizeof id->name, "%s", slash ? slash + 1 : prog);
    }
}

/* a part's value as one word: the first space or control character ends it */
static void word(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && (unsigned char)src[i] > ' ' && i + 1 < cap; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

void fst_progid_format(const fst_progid *id, char *buf, size_t cap)
{
    const char *keys[3] = { "image", "job", "name" }, *vals[3] = { id->image, id->job, id->name };
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < 3; k++)
        if (vals[k][0] && len < cap) {
            char w[200];
            word(w, sizeof w, vals[k]);
            int n = snprintf(buf + len, cap - len, "%s%s=%s", len ? " " : "", keys[k], w);
            len = n < 0 ? cap : len + (size_t)n;
        }
}

int fst_progid_parse(fst_progid *id, const char *text, const char *where, fst_err *err)
{
    memset(id, 0, sizeof *id);
    for (const char *s = text; *s;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        const char *eq = strchr(s, '=');
        if (!eq || memchr(s, ' ', (size_t)(eq - s)))
            return fst_errf(err, "%s: '%s': not the program's identity (key=value words)", where, text);
        size_t klen = (size_t)(eq - s);
        char *dst = klen == 5 && !memcmp(s, "image", 5) ? id->image : klen == 3 && !memcmp(s, "job", 3) ? id->job
                  : klen == 4 && !memcmp(s, "name", 4) ? id->name : NULL;
        size_t cap = dst == id->image ? sizeof id->image : dst == id->job ? sizeof id->job : sizeof id->name;
        if (dst)
            word(dst, cap, eq + 1);
        s = eq + 1;
        while (*s && *s != ' ')
            s++;
    }
    return 0;
}

int fst_progid_differ(const fst_progid *a, const fst_progid *b, char *why, size_t cap)
{
    if (a->image[0] && b->image[0]) {
        if (!strcmp(a->image, b->image))
            return 0;
        snprintf(why, cap, "their storage images differ (%s, %s)", a->image, b->image);
        return 1;
    }
    if (a->job[0] && b->job[0] && strcmp(a->job, b->job)) {
        snprintf(why, cap, "they are of two jobs (%s, %s)", a->job, b->job);
        return 1;
    }
    return 0;
}
