/* trace/imgcheck.c — see imgcheck.h. */
#include "trace/imgcheck.h"
#include "trace/tracebin.h"
#include "common/map.h"

#include <stdio.h>
#include <string.h>

/* the segment holding all of [addr, addr + len), or NULL */
static const fst_image_seg *holding(const fst_image_seg *seg, size_t n, uint64_t addr, unsigned len)
{
    for (size_t i = 0; i < n; i++)
        if (addr >= seg[i].addr && addr - seg[i].addr + len <= seg[i].len)
            return &seg[i];
    return NULL;
}

int fst_image_check(const char *path, uint64_t max, fst_imgcheck *res, fst_err *err)
{
    memset(res, 0, sizeof *res);
    fst_tr *tr = fst_tr_open(path, err);
    if (!tr)
        return -1;
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    fst_rec rec;
    int rc = 0;
    uint64_t read = 0;
    fst_map seen = { 0 };
    /* at most 64 records for every one compared: a trace of code mostly outside the image
    ** (a whole system) is not read to its end */
    while (nseg && res->compared < max && read < 64 * max + 4096 && (rc = fst_tr_next(tr, &rec, err)) > 0) {
        read++;
        if (rec.kind != FST_REC_INSN || !rec.len)
            continue;
        const fst_image_seg *s = holding(seg, nseg, rec.addr, rec.len);
        if (!s || fst_map_get(&seen, rec.addr))
            continue;   /* each address once: a loop is one piece of evidence */
        fst_map_put(&seen, rec.addr, 1);
        res->compared++;
        const uint8_t *img = s->data + (rec.addr - s->addr);
        if (!memcmp(img, rec.bytes, rec.len))
            continue;
        if (!res->differ++) {
            res->first_addr = rec.addr;
            res->len = rec.len;
            memcpy(res->traced, rec.bytes, rec.len);
            memcpy(res->image, img, rec.len);
        }
    }
    fst_map_free(&seen);
    fst_tr_close(tr);
    return rc < 0 ? -1 : 0;
}

int fst_image_foreign(const fst_imgcheck *res)
{
    return res->compared >= 16 && res->differ >= 3 && res->differ * 10 > res->compared;
}

void fst_image_say(const fst_imgcheck *res, const char *image, const char *trace, char *msg, size_t cap)
{
    char t[16] = "", m[16] = "";
    for (unsigned i = 0; i < res->len && i < 6; i++) {
        snprintf(t + 2 * i, sizeof t - 2 * i, "%02X", res->traced[i]);
        snprintf(m + 2 * i, sizeof m - 2 * i, "%02X", res->image[i]);
    }
    snprintf(msg, cap, "%s is not the program this trace ran: of the first %llu instruction addresses the trace ran "
                       "inside it, %llu hold other bytes (at %llX the trace ran %s, the image holds %s); give the IPL list "
                       "of the program that ran, or no --image%s%s", image, (unsigned long long)res->compared,
             (unsigned long long)res->differ, (unsigned long long)res->first_addr, t, m, trace ? " (no trace is left: " : "",
             trace ? "it would name the image's routines, not the program's)" : "");
}
