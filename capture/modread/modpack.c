/* capture/modread/modpack.c — how hard a module capture packs its trace (modpack.h). */
#include "capture/modread/modpack.h"
#include "common/err.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fst_modpack_fast(unsigned guest_cpus)
{
    const char *e = getenv("FST_TRACE_PACK");
    if (e && !strcmp(e, "fast"))
        return 1;
    if (e && !strcmp(e, "small"))
        return 0;
    if (e && *e)
        fst_warn("FST_TRACE_PACK=%s: neither 'fast' nor 'small'; taken as not set", e);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 && (unsigned long)cores < (guest_cpus ? guest_cpus : 1u) + 3u;
}
