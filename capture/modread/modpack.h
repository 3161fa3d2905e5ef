/*
** capture/modread/modpack.h — how hard a module capture packs its trace: zstd's greedy
** search (the smaller trace) or its dfast one (a fifth to a quarter less of fst-capture's
** CPU), for fst-capture --via=module (modcap.c) and --attach (modattach.c).
**
** Why it depends on the host. A module capture runs three things at once: Hercules (a
** thread a guest CPU at full speed, and its timer's and the module's work, ~0.15 of a core),
** fst-capture's rebuild of every instruction from the module's stream (0.4-0.6 of a core on
** branchy code) and the packer (0.3-0.45 of a core at zstd's greedy effort, on the ~0.3 op
** byte an instruction of code whose branches go by data). Where the host's cores are fewer
** than all of that asks, the packer's cycles are cycles Hercules waits for: the capture's
** wall time follows the CPU the two processes take together (2 cores, issue 33: gen.py seed
** 15230 1.29-1.46x -> 1.21-1.29x untraced packed fast, cgen seed 26598 under SDL 4.9
** 1.40-1.44x -> 1.30-1.33x; their traces a fifth bigger; trace/tracebin_zstd.c). With
** cores to spare the packer costs Hercules nothing and packs small.
**
** The rule: fast when fst-capture may run on fewer cores (its affinity: a container's
** cpuset, taskset; else those online) than the guest's CPUs and 3 more.
** FST_TRACE_PACK=fast or =small decides instead (tests, make bench); another value is
** ignored with a warning.
*/
#ifndef FST_MODPACK_H
#define FST_MODPACK_H

/* 1: pack fast; 0: pack small. guest_cpus: the CPUs Hercules runs (0 when not known: 1). */
int fst_modpack_fast(unsigned guest_cpus);

#endif
