/* model/pm_trace.c — the program model of a trace: maps loaded and placed where the
** trace's storage image says (one place for fst-report and fst-diff). See progmodel.h. */
#include "model/progmodel.h"

int fst_pm_for_trace(fst_pm **out, const char *const *maps, size_t nmaps, const char *member, fst_tr *tr,
                     const uint64_t *load_point, fst_err *err)
{
    *out = NULL;
    if (!nmaps)
        return 0;
    fst_pm *pm = fst_pm_new();
    fst_pm_opts po = { FST_MAP_AUTO, member };
    for (size_t i = 0; i < nmaps; i++)
        if (fst_pm_load(pm, maps[i], &po, err) < 0)
            goto fail;
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    for (size_t m = 0; m < fst_pm_nmodules(pm); m++) {
        if (fst_pm_module_at(pm, m)->has_load_point)
            continue;
        fst_pm_evidence ev = { seg, nseg, NULL, 0, 0, 0 };
        uint64_t at = load_point ? *load_point : 0;
        if ((load_point ? fst_pm_check_load_point(pm, (int)m, at, &ev, err)
                        : fst_pm_find_load_point(pm, (int)m, &ev, &at, err)) < 0 ||
            fst_pm_set_load_point(pm, (int)m, at, err) < 0)
            goto fail;
    }
    fst_pm_bound_by_image(pm, seg, nseg);
    if (fst_pm_verify_image(pm, seg, nseg, err) < 0)
        goto fail;
    *out = pm;
    return 0;
fail:
    fst_pm_free(pm);
    return -1;
}
