/* libFuzzer target: a map fitted to a storage image and call targets as fst-map --trace
** does (model/map_match.c), then bounded by the image and written as CSV (make fuzz).
**
** Input: flags[1] | map text | NUL | u16 image length L (big-endian) | image[L] (loaded at
** 20000) | call targets, u32 big-endian each. flags bit 0: the trace is confined to the
** module; bits 1-3: alignment 1 << k (k 0: the default, 8). A map without modules is the
** fst-map --trace case without a map: the model is made from the image's identifiers.
** The seeds (scripts/fuzz-seeds.sh) are real maps with the test programs' images.
*/
#include "model/progmodel.h"

#include <stdlib.h>
#include <string.h>

static void fit(fst_pm *pm, const fst_pm_evidence *ev)
{
    fst_err err;
    for (size_t k = 0; k < fst_pm_nmodules(pm); k++) {
        const fst_pm_module *m = fst_pm_module_at(pm, k);
        uint64_t lp;
        if (m->has_load_point)
            fst_pm_check_load_point(pm, (int)k, m->load_point, ev, &err);
        else if (fst_pm_find_load_point(pm, (int)k, ev, &lp, &err) == 0)
            fst_pm_set_load_point(pm, (int)k, lp, &err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    if (n < 1)
        return 0;
    unsigned flags = data[0];
    const uint8_t *map = data + 1, *end = data + n;
    const uint8_t *nul = memchr(map, 0, (size_t)(end - map));
    if (!nul || end - nul < 3)
        return 0;
    size_t ilen = (size_t)nul[1] << 8 | nul[2];
    const uint8_t *img = nul + 3;
    if ((size_t)(end - img) < ilen)
        ilen = (size_t)(end - img);
    size_t na = (size_t)(end - img - ilen) / 4;
    uint64_t *addrs = malloc((na ? na : 1) * sizeof *addrs);
    if (!addrs)
        return 0;
    for (size_t i = 0; i < na; i++) {
        const uint8_t *a = img + ilen + 4 * i;
        addrs[i] = (uint64_t)a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];
    }
    /* a copy: the image segment is not const, and an empty one must still be a pointer */
    uint8_t *copy = malloc(ilen ? ilen : 1);
    if (!copy) {
        free(addrs);
        return 0;
    }
    memcpy(copy, img, ilen);
    fst_image_seg seg = { 0x20000, ilen, copy };
    fst_pm_evidence ev = { &seg, ilen ? 1 : 0, addrs, na, (int)(flags & 1),
                           (flags >> 1 & 7) ? 1u << (flags >> 1 & 7) : 0 };
    fst_err err;
    fst_pm *pm = fst_pm_new();
    fst_pm_opts o = { FST_MAP_AUTO, NULL };
    int rc = nul > map ? fst_pm_load_mem(pm, "fuzz", map, (size_t)(nul - map), &o, &err) : 0;
    if (rc == 0 && fst_pm_nmodules(pm))
        fit(pm, &ev);
    else if (rc == 0)
        rc = fst_pm_from_image(pm, "fuzz", ev.image, ev.nimage, flags & 0x10 ? FST_SCAN_OS : 0, &err);
    if (rc == 0) {
        if (ev.nimage)
            fst_pm_bound_by_image(pm, ev.image, ev.nimage);
        fst_pm_write_csv(pm, null, 1, &err);  /* fails for a module that found no place */
    }
    fst_pm_free(pm);
    free(copy);
    free(addrs);
    return 0;
}
