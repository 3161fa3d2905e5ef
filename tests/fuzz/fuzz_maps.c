/* libFuzzer target: every map reader, through kind detection (make fuzz). */
#include "model/progmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const fst_map_kind kinds[] = { FST_MAP_AUTO, FST_MAP_IEWL, FST_MAP_LOADER, FST_MAP_CESD, FST_MAP_CSV,
                                          FST_MAP_NM };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        fst_err err;
        fst_pm *pm = fst_pm_new();
        fst_pm_opts o = { kinds[k], NULL };
        fst_pm_load_mem(pm, "fuzz", data, n, &o, &err);
        fst_pm_free(pm);
    }
    return 0;
}
