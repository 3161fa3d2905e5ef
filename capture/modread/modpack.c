/* capture/modread/modpack.c — how hard a module capture packs its trace (modpack.h). */
#define _GNU_SOURCE     /* sched_getaffinity, CPU_COUNT */
#include "capture/modread/modpack.h"
#include "common/err.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cores this process may run on (a container's cpuset, taskset), else those online. */
static long cores(void)
{
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return sysconf(_SC_NPROCESSORS_ONLN);
}

int fst_modpack_fast(unsigned guest_cpus)
{
    const char *e = getenv("FST_TRACE_PACK");
    if (e && !strcmp(e, "fast"))
        return 1;
    if (e && !strcmp(e, "small"))
        return 0;
    if (e && *e)
        fst_warn("FST_TRACE_PACK=%s: neither 'fast' nor 'small'; taken as not set", e);
    long n = cores();
    return n > 0 && (unsigned long)n < (guest_cpus ? guest_cpus : 1u) + 3u;
}
