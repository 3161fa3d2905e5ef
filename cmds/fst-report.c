/*
** fst-report — replay a trace into a profile and print it in one format. Wiring only:
** analyze/replay.c does the work, formats/ print, capture/progmodel.h reads maps.
*/
#include "analyze/clock.h"
#include "analyze/profile.h"
#include "capture/progmodel.h"
#include "capture/tracebin.h"
#include "common/err.h"
#include "common/opt.h"
#include "formats/formats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_OUT = 'o', O_FORMAT = 1000, O_STATIN, O_MAP, O_CLOCK, O_TIMED, O_EXCLUDE, O_CPU, O_ASA, O_LOADPOINT,
       O_MEMBER };

static const fst_option options[] = {
    { 0, "format", "F", "fortstat (default) or csv", O_FORMAT },
    { 'o', "output", "FILE", "write the report to FILE (default: standard output)", O_OUT },
    { 0, "statin", "FILE", "time only the routines named on these STATIN cards (and the mainline)", O_STATIN },
    { 0, "map", "FILE", "routine names from a map: IEWL listing, loader map, CESD, CSV or nm -P (repeatable)", O_MAP },
    { 0, "member", "NAME", "with --map: the link step of this member in a listing of several", O_MEMBER },
    { 0, "load-point", "HEX", "with --map: where the module was loaded (default: found from the trace)", O_LOADPOINT },
    { 0, "clock", "C", "mips:R (1/R us per instruction) or model[:FILE] (default: the P/390 cost table)", O_CLOCK },
    { 0, "timed", "all", "time every routine of the program model, not only FORTRAN-compatible ones", O_TIMED },
    { 0, "exclude", "NAME", "drop NAME's own time from every total, and say how much (repeatable)", O_EXCLUDE },
    { 0, "cpu", "problem", "count problem-state time only (supervisor time is excluded)", O_CPU },
    { 0, "asa", NULL, "fortstat: 133-byte records with ASA carriage control, as STATOUT", O_ASA },
    { 0 }
};

static const fst_cmd cmd = {
    "fst-report", "[--format=F] [-o OUT] [--statin=FILE] [--map=FILE]... [--clock=C] TRACE",
    "Replay a trace written by fst-capture: rebuild every call, charge every instruction's\n"
    "time, and print the profile. Formats: fortstat (FORTSTAT's 1971 listing), csv.",
    options,
};

static void warn_cb(const char *msg) { fst_warn("%s", msg); }

int main(int argc, char **argv)
{
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    const char *format = "fortstat", *out = NULL, *clockspec = NULL, *member = NULL;
    const char **maps = fst_xcalloc((size_t)argc + 1, sizeof *maps);
    const char **excl = fst_xcalloc((size_t)argc + 1, sizeof *excl);
    size_t nmaps = 0, nexcl = 0;
    int asa = 0, have_lp = 0;
    uint64_t lp = 0;
    fst_replay_opts ro = { 0 };
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_FORMAT:
            if (strcmp(p.arg, "fortstat") && strcmp(p.arg, "csv"))
                fst_opt_fail(&p, "--format wants fortstat or csv, not '%s'", p.arg);
            format = p.arg;
            break;
        case O_OUT: out = p.arg; break;
        case O_STATIN: ro.statin = p.arg; break;
        case O_MAP: maps[nmaps++] = p.arg; break;
        case O_MEMBER: member = p.arg; break;
        case O_LOADPOINT: {
            char *e;
            errno = 0;
            lp = strtoull(p.arg, &e, 16);
            if (!*p.arg || *e || errno)
                fst_opt_fail(&p, "--load-point wants a hex address, not '%s'", p.arg);
            have_lp = 1;
            break;
        }
        case O_CLOCK: clockspec = p.arg; break;
        case O_TIMED:
            if (strcmp(p.arg, "all"))
                fst_opt_fail(&p, "--timed takes 'all', not '%s' (use --statin=FILE to choose routines)", p.arg);
            ro.timed_all = 1;
            break;
        case O_EXCLUDE: excl[nexcl++] = p.arg; break;
        case O_CPU:
            if (strcmp(p.arg, "problem"))
                fst_opt_fail(&p, "--cpu takes 'problem', not '%s'", p.arg);
            ro.cpu_problem = 1;
            break;
        case O_ASA: asa = 1; break;
        }
    }
    if (argc - p.optind != 1)
        fst_opt_fail(&p, argc == p.optind ? "which trace?" : "one trace at a time");
    const char *path = argv[p.optind];
    fst_err err;
    fst_clock *clk = fst_clock_open(clockspec, &err);
    if (!clk)
        fst_die_err(&err);
    fst_tr *tr = fst_tr_open(path, &err);
    if (!tr)
        fst_die_err(&err);
    fst_pm *pm = NULL;
    if (nmaps) {
        pm = fst_pm_new();
        fst_pm_opts po = { FST_MAP_AUTO, member };
        for (size_t i = 0; i < nmaps; i++)
            if (fst_pm_load(pm, maps[i], &po, &err) < 0)
                fst_die_err(&err);
        size_t nseg;
        const fst_image_seg *seg = fst_tr_image(tr, &nseg);
        for (size_t m = 0; m < fst_pm_nmodules(pm); m++) {
            if (fst_pm_module_at(pm, m)->has_load_point)
                continue;
            fst_pm_evidence ev = { seg, nseg, NULL, 0, 0, 0 };
            uint64_t at = lp;
            if (have_lp ? fst_pm_check_load_point(pm, (int)m, lp, &ev, &err) < 0
                        : fst_pm_find_load_point(pm, (int)m, &ev, &at, &err) < 0)
                fst_die("%s (give --load-point=HEX)", err.msg);
            if (fst_pm_set_load_point(pm, (int)m, at, &err) < 0)
                fst_die_err(&err);
        }
        fst_pm_bound_by_image(pm, seg, nseg);
    }
    ro.exclude = excl;
    ro.clock = clk;
    ro.warn = warn_cb;
    fst_profile prof;
    if (fst_replay(tr, pm, &ro, &prof, NULL, 0, &err) < 0)
        fst_die_err(&err);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f)
        fst_die("%s: cannot create: %s", out, strerror(errno));
    int rc = !strcmp(format, "csv") ? fst_write_csv(f, &prof) : fst_write_fortstat(f, &prof, asa);
    if (rc || (out ? fclose(f) : fflush(f)))
        fst_die("%s: cannot write: %s", out ? out : "standard output", strerror(errno));
    if (!prof.complete)
        fst_warn("%s is incomplete (%s): the report covers only what it holds", path, prof.incomplete);
    if (nexcl) {
        char s[32];
        fst_fmt_sec9(prof.excluded_cost, s);
        fst_note("excluded: %llu instructions, %s s", (unsigned long long)prof.excluded_insns, s);
    }
    if (prof.mainline < 0 && prof.total_insns)
        fst_warn("no routine of the program model was entered: everything is outside");
    fst_profile_free(&prof);
    fst_tr_close(tr);
    fst_pm_free(pm);
    fst_clock_free(clk);
    free(maps);
    free(excl);
    return 0;
}
