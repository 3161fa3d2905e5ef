/*
** fst-report — replay a trace into a profile and print it in one format. Wiring only:
** analyze/replay/replay.c does the work, model/progmodel.h reads maps, and the formats come
** from formats/registry.c, each with its own options (formats/format.h).
*/
#include "analyze/cost/clock.h"
#include "analyze/profile/diagnose.h"
#include "analyze/profile/pricing.h"
#include "analyze/profile/profile.h"
#include "analyze/profile/sampled.h"
#include "analyze/replay/replay.h"
#include "analyze/replay/window.h"
#include "capture/read/sniff.h"
#include "model/mapspaces.h"
#include "model/progmodel.h"
#include "trace/tracebin.h"
#include "common/err.h"
#include "common/opt.h"
#include "common/outfile.h"
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/stmtprof.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_OUT = 'o', O_FORMAT = 1000, O_STATIN, O_MAP, O_CLOCK, O_TIMED, O_EXCLUDE, O_CPU, O_LOADPOINT, O_MEMBER,
       O_SUPERVISOR, O_SPACE, O_TAILCALLS, O_UNNAMED, O_MISFIT, O_TOP, O_LIMIT, O_ROUTINE, O_WINDOW, O_LINES,
       O_QUIET = 'q',
       O_FORMATOPT = 2000 };

static const fst_option generic[] = {
    { 0, "format", "F", "the report format (default fortstat; the formats are listed above)", O_FORMAT },
    { 'o', "output", "FILE", "write the report to FILE (default: standard output)", O_OUT },
    { 0, "statin", "FILE", "time only the routines named on these STATIN cards (and the mainline)", O_STATIN },
    { 0, "map", "FILE", "routine names from a map: IEWL listing, loader map, CESD, CSV or nm -P (repeatable)", O_MAP },
    { 0, "lines", "FILE", "source statements from FILE: an ELF built with -g (its DWARF line table), a GNU as -al "
      "listing, an IBM assembler listing or a FORTRAN IV G/H listing with LIST (repeatable); for csv --by=line, "
      "annotate --source, callgrind's source lines and fortstat --statements", O_LINES },
    { 0, "member", "NAME", "with --map: the link step of this member in a listing of several", O_MEMBER },
    { 0, "load-point", "HEX", "with --map: where the module was loaded (default: found from the trace)", O_LOADPOINT },
    { 0, "clock", "C", "mips:R (1/R us per instruction) or model[:FILE] (default: the P/390 cost table)", O_CLOCK },
    { 0, "timed", "all", "time every routine of the program model, not only FORTRAN-compatible ones", O_TIMED },
    { 0, "exclude", "NAME", "drop NAME's own time from every total, and say how much (repeatable)", O_EXCLUDE },
    { 0, "cpu", "problem", "count problem-state time only (supervisor time is excluded)", O_CPU },
    { 0, "supervisor", "task|row", "supervisor time: charged to the task it runs for (default) or its own row '(supervisor)'",
      O_SUPERVISOR },
    { 0, "space", "HEX|all", "profile only the address space whose CR1 (segment table) is HEX: one job of a whole "
      "system (default with --map: the spaces the map's program ran in; all: every space)",
      O_SPACE },
    { 0, "tail-calls", NULL, "count a branch without link to a routine's entry (gcc's sibling call) as a call", O_TAILCALLS },
    { 0, "unnamed-ok", NULL, "report a trace of which no routine the program model names ran (every instruction "
      "outside): without it that is an error, a map or image that names nothing of what ran", O_UNNAMED },
    { 0, "misfit-ok", NULL, "report with a map that does not fit what ran (many calls into the middle of its "
      "routines): without it that is an error, a map of another program, version or load point", O_MISFIT },
    { 0, "routine", "NAME", "only routine NAME: a glob, repeatable (listings and csv/json: its rows; tree: its "
      "subtree; callers: whose callers; folded, svg: the stacks through it)", O_ROUTINE },
    { 0, "top", "N", "only the N routines with the most self time, in the report's order (tree: the N heaviest "
      "calling contexts; callers: the N heaviest callers)", O_TOP },
    { 0, "percent-limit", "P", "leave out what is under P per cent of the whole (0 to 100, one decimal at most)",
      O_LIMIT },
    { 0, "window", "FROM:TO", "report only a part of the run: instructions FROM to TO (numbers from 0, TO not "
      "included), tod:HEX or s:SEC (SECs) of the chosen clock since the trace's start, either edge empty; or "
      "call:NAME:N, routine NAME's Nth call, from its entry to its return. Calls open at FROM run in it but count "
      "no call; calls open at TO end there. With --format=maptime a value with no colon is maptime's own", O_WINDOW },
    { 'q', "quiet", NULL, "no notes on stderr (what was inferred, priced by rule, excluded): warnings and errors only",
      O_QUIET },
};

typedef struct report {
    const char *format, *out, *clockspec, *member;
    const char **maps, **excl, **lines;
    size_t nmaps, nexcl, nlines;
    int have_lp, space_all, unnamed_ok, misfit_ok;
    uint64_t lp;
    fst_pm_placed placed;   /* where the map's program ran (capture/mapspaces.h) */
    fst_replay_opts ro;
    fst_fopt_val *fopts;
    size_t nfopts;
    fst_filter filter;      /* --top, --percent-limit, --routine (formats/filter.h) */
    const char *filter_opt[3]; /* which of them were given, for a format they do not apply to */
    const char **wins;      /* the --window values, in order (maptime's own or fst-report's) */
    size_t nwins;
    fst_window window;      /* fst-report's --window (analyze/replay/window.h), when have_window */
    int have_window;
    fst_option *table;      /* the option table: fopts' names point into it */
    char **helps;
} report;

/* The option table: the generic options, then every format's own (once per name). */
static fst_option *option_table(char ***helps)
{
    size_t n = sizeof generic / sizeof generic[0], cap = n + 1;
    for (const fst_format *const *f = fst_formats; *f; f++)
        for (const fst_option *o = (*f)->options; o && o->name; o++)
            cap++;
    fst_option *t = fst_xcalloc(cap, sizeof *t);
    *helps = fst_xcalloc(cap, sizeof **helps);
    memcpy(t, generic, sizeof generic);
    for (const fst_format *const *f = fst_formats; *f; f++)
        for (const fst_option *o = (*f)->options; o && o->name; o++) {
            size_t k = 0;   /* the first letter first: 35 options, 670 calls otherwise */
            while (k < n && (t[k].name[0] != o->name[0] || strcmp(t[k].name, o->name)))
                k++;
            if (k < n) { /* two formats share this option name: the help says what it is to each */
                if (!(*helps)[k])   /* a generic option's (--window): its own text first */
                    (*helps)[k] = fst_xstrdup(t[k].help);
                const char *same = strstr((*helps)[k], o->help);
                if (same && same - (*helps)[k] >= 2) { /* the same text: "callgrind, folded: TEXT" */
                    size_t at = (size_t)(same - (*helps)[k]) - 2, ol = strlen((*helps)[k]), nl = strlen((*f)->name);
                    char *h = fst_xmalloc(ol + nl + 3);
                    memcpy(h, (*helps)[k], at);
                    memcpy(h + at, ", ", 2);
                    memcpy(h + at + 2, (*f)->name, nl);
                    memcpy(h + at + 2 + nl, (*helps)[k] + at, ol - at + 1);
                    free((*helps)[k]);
                    (*helps)[k] = h;
                    t[k].help = h;
                    continue;
                }
                size_t ol = strlen((*helps)[k]), nl = strlen((*f)->name), hl = strlen(o->help);
                char *h = fst_xmalloc(ol + nl + hl + 5);
                memcpy(h, (*helps)[k], ol);
                memcpy(h + ol, "; ", 2);
                memcpy(h + ol + 2, (*f)->name, nl);
                memcpy(h + ol + 2 + nl, ": ", 2);
                memcpy(h + ol + 4 + nl, o->help, hl + 1);
                free((*helps)[k]);
                (*helps)[k] = h;
                t[k].help = h;
                continue;
            }
            /* "fortstat: the help", put together without sprintf: this runs at every start */
            size_t nl = strlen((*f)->name), hl = strlen(o->help);
            char *h = fst_xmalloc(nl + hl + 3);
            memcpy(h, (*f)->name, nl);
            memcpy(h + nl, ": ", 2);
            memcpy(h + nl + 2, o->help, hl + 1);
            (*helps)[n] = h;
            t[n] = (fst_option){ o->shortname, o->name, o->arg, h, O_FORMATOPT + (int)n };
            n++;
        }
    return t;
}

static char *summary(void)
{
    size_t len = 512;
    for (const fst_format *const *f = fst_formats; *f; f++)
        len += strlen((*f)->summary) + 32;
    char *s = fst_xmalloc(len), *p = s;
    p += sprintf(p, "Replay a trace written by fst-capture: rebuild every call, charge every instruction's\n"
                    "time, and print the profile in one of these formats:\n");
    for (const fst_format *const *f = fst_formats; *f; f++) { /* "  %-10s %s\n", at every start */
        size_t nl = strlen((*f)->name), sl = strlen((*f)->summary);
        memcpy(p, "  ", 2);
        memcpy(p + 2, (*f)->name, nl);
        p += 2 + nl;
        for (; nl < 10; nl++)
            *p++ = ' ';
        *p++ = ' ';
        memcpy(p, (*f)->summary, sl);
        p += sl;
        *p++ = '\n';
    }
    *p = 0;
    return s;
}

static const char *const *format_names(void)
{
    static const char *names[64];
    size_t n = 0;
    for (const fst_format *const *f = fst_formats; *f && n + 1 < sizeof names / sizeof *names; f++)
        names[n++] = (*f)->name;
    names[n] = NULL;
    return names;
}

static int has_option(const fst_format *f, const char *name)
{
    for (const fst_option *o = f->options; o && o->name; o++)
        if (!strcmp(o->name, name))
            return 1;
    return 0;
}

/* A format's option given with another format would be ignored in silence: an error,
** naming the formats it belongs to. */
static void reject_foreign(const fst_optparser *p, const report *r)
{
    const fst_format *fmt = fst_format_find(r->format);
    for (size_t i = 0; i < r->nfopts; i++) {
        if (has_option(fmt, r->fopts[i].name))
            continue;
        char owners[256] = "";
        size_t n = 0;
        for (const fst_format *const *f = fst_formats; *f; f++)
            if (has_option(*f, r->fopts[i].name) && n + strlen((*f)->name) + 16 < sizeof owners)
                n += (size_t)sprintf(owners + n, "%s--format=%s", n ? " or " : "", (*f)->name);
        fst_opt_fail(p, "--%s is an option of %s, not of --format=%s", r->fopts[i].name, owners, r->format);
    }
    static const unsigned bit[3] = { FST_FILTER_TOP, FST_FILTER_LIMIT, FST_FILTER_ROUTINE };
    for (int k = 0; k < 3; k++) {   /* the options every format shares, where they apply */
        if (!r->filter_opt[k] || (fmt->filters & bit[k]))
            continue;
        char owners[400] = "";
        size_t n = 0;
        for (const fst_format *const *f = fst_formats; *f; f++)
            if (((*f)->filters & bit[k]) && n + strlen((*f)->name) + 16 < sizeof owners)
                n += (size_t)sprintf(owners + n, "%s--format=%s", n ? " or " : "", (*f)->name);
        fst_opt_fail(p, "--%s is an option of %s, not of --format=%s", r->filter_opt[k], owners, r->format);
    }
}

/* --window: MAPTIME's own (a routine's name: no colon) with --format=maptime, else
** fst-report's (analyze/replay/window.h), once. */
static void windows(const fst_optparser *p, report *r)
{
    int maptime = !strcmp(r->format, "maptime");
    for (size_t i = 0; i < r->nwins; i++) {
        if (maptime && !strchr(r->wins[i], ':')) {
            r->fopts[r->nfopts++] = (fst_fopt_val){ "window", r->wins[i] };
            continue;
        }
        fst_err e;
        if (r->have_window)
            fst_opt_fail(p, "--window=%s: one window at a time (--window=%s was given)", r->wins[i], r->window.spec);
        if (!strchr(r->wins[i], ':'))
            fst_opt_fail(p, "--window=%s: not a window: FROM:TO or call:NAME:N (a routine's name alone is "
                         "--format=maptime's --window=NAME)", r->wins[i]);
        if (fst_window_parse(&r->window, r->wins[i], &e) < 0)
            fst_opt_fail(p, "%s", e.msg);
        r->have_window = 1;
    }
}

/* --lines is read by some formats only, and those need it for some options: neither is
** left to silence (a report without the statements asked for). */
static void check_lines(const fst_optparser *p, const report *r)
{
    static const char *const users[][2] = { { "csv", "by" }, { "annotate", "source" }, { "callgrind", NULL },
                                            { "fortstat", "statements" } };
    const char *need = NULL, *opt = NULL;
    int uses = 0;
    for (size_t i = 0; i < sizeof users / sizeof *users; i++)
        if (!strcmp(r->format, users[i][0])) {
            uses = 1;
            opt = users[i][1];
            for (size_t k = 0; opt && k < r->nfopts; k++)
                if (!strcmp(r->fopts[k].name, opt) && strcmp(r->fopts[k].value, "routine"))
                    need = opt;
        }
    if (r->nlines && !uses)
        fst_opt_fail(p, "--lines: --format=%s does not report source statements (csv --by=line, annotate --source, "
                        "callgrind and fortstat --statements do)", r->format);
    if (r->nlines && opt && !need)
        fst_opt_fail(p, "--lines: --format=%s reports source statements with --%s%s", r->format, opt,
                     !strcmp(opt, "by") ? "=line" : !strcmp(opt, "statements") ? "=N" : "");
    if (need && !r->nlines)
        fst_opt_fail(p, "--%s needs the program's statement table: --lines=FILE (an ELF built with -g, or the "
                        "assembler's or compiler's listing)", need);
}

static void parse(report *r, int argc, char **argv, const char **path)
{
    fst_option *table = r->table = option_table(&r->helps);
    char *sum = summary();
    fst_cmd cmd = { "fst-report", "[--format=F] [-o OUT] [--statin=FILE] [--map=FILE]... [--clock=C] TRACE", sum,
                    table };
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    r->format = "fortstat";
    r->maps = fst_xcalloc((size_t)argc + 1, sizeof *r->maps);
    r->excl = fst_xcalloc((size_t)argc + 1, sizeof *r->excl);
    r->lines = fst_xcalloc((size_t)argc + 1, sizeof *r->lines);
    r->fopts = fst_xcalloc((size_t)argc + 1, sizeof *r->fopts);
    r->wins = fst_xcalloc((size_t)argc + 1, sizeof *r->wins);
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_FORMAT:
            r->format = fst_opt_choice(&p, "format", format_names());
            break;
        case O_OUT: r->out = p.arg; break;
        case O_STATIN: r->ro.statin = p.arg; break;
        case O_MAP: r->maps[r->nmaps++] = p.arg; break;
        case O_LINES: r->lines[r->nlines++] = p.arg; break;
        case O_MEMBER: r->member = p.arg; break;
        case O_LOADPOINT: {
            uint64_t v;
            if (fst_parse_u64(p.arg, 16, &v))
                fst_opt_fail(&p, "--load-point wants a hex address, not '%s'", p.arg);
            r->lp = v;
            r->have_lp = 1;
            break;
        }
        case O_CLOCK: r->clockspec = p.arg; break;
        case O_TIMED:
            if (strcmp(p.arg, "all"))
                fst_opt_fail(&p, "--timed takes 'all', not '%s' (use --statin=FILE to choose routines)", p.arg);
            r->ro.timed_all = 1;
            break;
        case O_EXCLUDE: r->excl[r->nexcl++] = p.arg; break;
        case O_CPU:
            if (strcmp(p.arg, "problem"))
                fst_opt_fail(&p, "--cpu takes 'problem', not '%s'", p.arg);
            r->ro.cpu_problem = 1;
            break;
        case O_SUPERVISOR:
        {
            static const char *const pol[] = { "task", "row", NULL };
            if (!strcmp(fst_opt_choice(&p, "supervisor policy", pol), "row"))
                r->ro.supervisor = FST_SUP_ROW;
            break;
        }
        case O_SPACE: {
            uint64_t v;
            if (!strcmp(p.arg, "all")) {
                r->space_all = 1;
                r->ro.space_set = 0;
                break;
            }
            if (fst_parse_u64(p.arg, 16, &v))
                fst_opt_fail(&p, "--space wants the hex CR1 value of an address space, not '%s'", p.arg);
            r->ro.space = v;
            r->ro.space_set = 1;
            r->space_all = 0;
            break;
        }
        case O_TAILCALLS: r->ro.tail_calls = 1; break;
        case O_UNNAMED: r->unnamed_ok = 1; break;
        case O_MISFIT: r->misfit_ok = 1; break;
        case O_TOP:
        case O_LIMIT:
        case O_ROUTINE: {
            fst_err e;
            if ((id == O_TOP ? fst_filter_top(&r->filter, p.arg, &e)
                 : id == O_LIMIT ? fst_filter_limit(&r->filter, p.arg, &e) : fst_filter_routine(&r->filter, p.arg, &e)) < 0)
                fst_opt_fail(&p, "%s", e.msg);
            r->filter_opt[id - O_TOP] = id == O_TOP ? "top" : id == O_LIMIT ? "percent-limit" : "routine";
            break;
        }
        case O_WINDOW: r->wins[r->nwins++] = p.arg; break;
        case O_QUIET: fst_set_quiet(1); break;
        default: /* a format's own option */
            r->fopts[r->nfopts++] = (fst_fopt_val){ table[id - O_FORMATOPT].name, p.arg ? p.arg : "" };
            break;
        }
    }
    if (argc - p.optind != 1)
        fst_opt_fail(&p, argc == p.optind ? "which trace?" : "one trace at a time");
    windows(&p, r);
    reject_foreign(&p, r);
    check_lines(&p, r);
    if (fst_format_find(r->format)->binary && !r->out && isatty(STDOUT_FILENO)) /* a pipe or a file takes it */
        fst_opt_fail(&p, "--format=%s writes binary data, not for a terminal: say where with -o FILE (or > FILE)",
                     r->format);
    *path = argv[p.optind];
    free(sum);
}

/* The maps, placed where the trace ran them (capture/mapspaces.h); without --space, the
** profile is then the one of the spaces that ran the map's program. */
static fst_pm *load_maps(report *r, fst_tr *tr, const char *path)
{
    fst_err err;
    fst_pm *pm;
    fst_pm_trace_opts o = { strcmp(path, "-") ? path : NULL, r->have_lp ? &r->lp : NULL,
                            r->ro.space_set ? &r->ro.space : NULL };
    if (fst_pm_for_trace_placed(&pm, r->maps, r->nmaps, r->member, tr, &o, &r->placed, &err) < 0)
        fst_die("%s%s", err.msg, !r->have_lp && strstr(err.msg, "load point") ? " (give --load-point=HEX)" : "");
    const fst_placement *at = &r->placed.at;
    if (r->placed.note[0])
        fst_note("%s", r->placed.note);
    if (r->placed.note2[0])
        fst_note("%s", r->placed.note2);
    if (r->placed.from_trace && at->nspaces && at->spaces[0] != FST_PLACE_REAL && at->spaces[0] != FST_PLACE_UNKNOWN) {
        /* its names only where it ran (--space=all: other spaces' code at the same virtual
        ** addresses is other code); without --space, the profile is those spaces' */
        int profile = !r->ro.space_set && !r->space_all;
        fst_replay_opts_placed(&r->ro, at->spaces, at->nspaces, profile);
        if (profile)
            fst_note("profiling the address space%s that ran it (--space=all for every space)", at->nspaces > 1 ? "s" : "");
    }
    return pm;
}

/* --lines: the statement tables, read before the replay (a bad file is refused before the
** work), placed after it (where the trace ran the program's routines, model/stmttab.h). */
static fst_stmt_tab *load_lines(const report *r)
{
    if (!r->nlines)
        return NULL;
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    for (size_t i = 0; i < r->nlines; i++)
        if (fst_stmt_load(t, r->lines[i], &err) < 0)
            fst_die("--lines: %s", err.msg);
    return t;
}

static size_t place_lines(fst_stmt_tab *t, fst_stmtprof *sp, const fst_profile *p, fst_tr *tr,
                          const struct fst_stmtrow **rows)
{
    fst_stmt_routine *rt = fst_xcalloc(p->nr + 1, sizeof *rt);
    size_t n = 0, nseg;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].entry != UINT64_MAX)
            rt[n++] = (fst_stmt_routine){ p->r[i].name, p->r[i].entry };
    const fst_image_seg *img = fst_tr_image(tr, &nseg);
    fst_err err;
    int rc = fst_stmt_place(t, rt, n, img, nseg, &err);
    free(rt);
    if (rc < 0)
        fst_die("--lines: %s", err.msg);
    return fst_stmtprof_rows(sp, t, p, rows);
}

static void warn_cb(const char *msg) { fst_warn("%s", msg); }

/* A profile in which no routine the program model names ran (no call, no instruction of
** its own) while the trace ran instructions: a report of it would look like a profile and
** say nothing (FORTSTAT's "TOTAL 0 .00"). Dies naming the evidence and the likely fix,
** unless --unnamed-ok: when a map was given, when the storage image names routines, and
** when there is neither map nor image (a log converted without --image). A program whose
** image names no routine at all (no FORTRAN or OS-linkage entry) is reported: everything
** it ran is outside, as its report says (csv's "(outside)"; FORTSTAT's none: a warning
** says it). */
static void check_named(const report *r, const fst_profile *p, fst_tr *tr, const char *path)
{
    if (r->unnamed_ok || !p->total_insns)
        return;
    for (size_t i = 0; i < p->nr; i++)
        if ((p->r[i].calls || p->r[i].self_insns) && p->r[i].entry != UINT64_MAX)
            return;
    size_t nseg, named = 0;
    fst_tr_image(tr, &nseg);
    for (size_t i = 0; i < p->nr; i++)
        named += p->r[i].entry != UINT64_MAX;
    unsigned long long n = (unsigned long long)p->total_insns;
    if (!r->nmaps && nseg && !named) { /* the image names no routine at all: said, then reported */
        fst_warn("%s: no --map, and the storage image names no routine (no FORTRAN or OS-linkage entry with its "
                 "name): all %llu instructions ran outside any routine, which the report lists as such (FORTSTAT: "
                 "none); --map=FILE (a linkage editor's listing, a loader map, nm -P) names them", path, n);
        return;
    }
    if (p->window)
        fst_die("--window=%s: no routine ran in that window (its %llu instructions, %llu to %llu, are all outside "
                "the routines the program model names); --unnamed-ok reports it anyway", p->win_spec, n,
                (unsigned long long)p->win_from, (unsigned long long)(p->win_from + n - 1));
    if (r->nmaps)
        fst_die("%s: no routine of %s%s ran in this trace (its %llu instructions are all outside them): the map is "
                "not of the program that ran, or not where it ran: its load point (fst-map --trace=%s %s shows where "
                "it fits; --load-point=HEX) or its address space (--space); --unnamed-ok reports it anyway",
                path, r->maps[0], r->nmaps > 1 ? " and the other maps" : "", n, path, r->maps[0]);
    if (nseg)
        fst_die("%s: the storage image names no routine that ran (its %llu instructions are all outside): give the "
                "program's map (--map=FILE: a linkage editor's listing, a loader map, nm -P); --unnamed-ok reports "
                "it anyway", path, n);
    fst_die("%s: nothing names a routine: no --map, and the trace holds no storage image (a log converted without "
            "--image?): give --map=LISTING, or convert the log with --image=PROGRAM.ins; --unnamed-ok reports its %llu "
            "instructions as outside", path, n);
}

/* A map that does not fit what ran (analyze/profile/diagnose.h fst_diag_misfit): its names would
** be on the wrong code. Dies naming the evidence and the likely fix, unless --misfit-ok. */
static void check_fit(const report *r, const fst_diag *d, const fst_profile *p, fst_tr *tr, const char *path)
{
    char msg[600];
    if (r->misfit_ok || !r->nmaps || !fst_diag_misfit(d, p, tr, msg, sizeof msg))
        return;
    fst_die("%s: the map %s%s does not fit what ran: %s. Is it the map of this program, of this version, at this "
            "load point (fst-map --trace=%s %s shows where it fits)? --misfit-ok reports it anyway", path, r->maps[0],
            r->nmaps > 1 ? " (with the other maps)" : "", msg, path, r->maps[0]);
}

/* Nothing priced in silence (issue 11): the instructions the table has no row for, by
** rule (a note) or at the default (a warning), and the ones the decoder does not know. */
static void say_pricing(const fst_profile *p, const fst_clock *clk)
{
    fst_pricing s;
    char msg[2048];
    fst_pricing_of(&s, p, clk);
    if (fst_pricing_say(&s, FST_PRICE_RULE, 12, msg, sizeof msg))
        fst_note("%s (rules: data/README.md)", msg);
    if (fst_pricing_say(&s, FST_PRICE_DEFAULT, 12, msg, sizeof msg))
        fst_warn("%s", msg);
    if (fst_pricing_say(&s, -1, 12, msg, sizeof msg))
        fst_warn("%s", msg);
    fst_pricing_free(&s);
}
static void say_cb(int warning, const char *msg)
{
    if (warning)
        fst_warn("%s", msg);
    else
        fst_note("%s", msg);
}

/* -o must not be a file the report reads: the trace, a map, the STATIN deck, the cost
** table, or a file a format option names (a MAPTIME request deck). */
static void check_output(const report *r, const char *trace)
{
    size_t n = 0, cap = 4 + 2 * r->nmaps + r->nfopts + r->nlines;
    const char **in = fst_xcalloc(cap, sizeof *in);
    char **own = fst_xcalloc(cap, sizeof *own);
    in[n++] = trace;
    in[n++] = r->ro.statin;
    if (r->clockspec && !strncmp(r->clockspec, "model:", 6))
        in[n++] = r->clockspec + 6;
    for (size_t i = 0; i < r->nmaps; i++) {
        in[n++] = r->maps[i];
        const char *lp = strrchr(r->maps[i], '(');   /* PATH(MEMBER) */
        if (lp && lp != r->maps[i]) {
            own[i] = fst_xstrdup(r->maps[i]);
            own[i][lp - r->maps[i]] = 0;
            in[n++] = own[i];
        }
    }
    for (size_t i = 0; i < r->nfopts; i++)
        in[n++] = r->fopts[i].value;
    for (size_t i = 0; i < r->nlines; i++)
        in[n++] = r->lines[i];
    fst_err err;
    int rc = fst_out_check("-o", r->out, in, n, &err);
    for (size_t i = 0; i < r->nmaps; i++)
        free(own[i]);
    free(own);
    free(in);
    if (rc < 0)
        fst_die_err(&err);
}

/* A window of times or of a call (analyze/replay/window.h): a first replay finds its instruction
** numbers; the trace is opened again for the report's. Returns that reader; *first is the
** one read, kept open (the program model was placed with it). */
static fst_tr *locate(report *r, fst_tr *tr, fst_pm *pm, const char *path, fst_tr **first)
{
    fst_err err;
    if (!strcmp(path, "-"))
        fst_die("--window=%s reads the trace twice (once to find where the window is): give the trace's file, "
                "not standard input", r->window.spec);
    fst_sink sink;
    fst_window_locator *l = fst_window_locator_new(&r->window, &sink);
    fst_replay_opts o = r->ro;
    o.warn = NULL;  /* said by the report's replay */
    o.flat = 1;     /* its profile is not read: the sink's events are all it needs */
    fst_profile prof;
    if (fst_replay(tr, pm, &o, &prof, &sink, 1, &err) < 0)
        fst_die_err(&err);
    fst_profile_free(&prof);
    if (fst_window_resolve(&r->window, l, &err) < 0)
        fst_die_err(&err);
    fst_window_locator_free(l);
    *first = tr;
    fst_tr *again = fst_tr_open(path, &err);
    if (!again)
        fst_die_err(&err);
    return again;
}

int main(int argc, char **argv)
{
    report r = { 0 };
    const char *path;
    parse(&r, argc, argv, &path);
    check_output(&r, path);
    const fst_format *fmt = fst_format_find(r.format);
    fst_err err;
    fst_clock *clk = fst_clock_open(r.clockspec, &err);
    if (!clk)
        fst_die_err(&err);
    fst_tr *tr = fst_tr_open(fst_opt_infile(path), &err);   /* "-": standard input */
    if (!tr) {
        char hint[1024];
        fst_sniff_kind k = fst_sniff(path);
        fst_sniff_hint(k == FST_SNIFF_TRACE ? FST_SNIFF_UNKNOWN : k, path, hint, sizeof hint);
        fst_die("%s%s%s", err.msg, hint[0] ? "\n" : "", hint);
    }
    fst_pm *pm = load_maps(&r, tr, path);
    fst_stmt_tab *lines = load_lines(&r);
    r.ro.exclude = r.excl;
    r.ro.clock = clk;
    r.ro.warn = warn_cb;
    r.ro.flat = fmt->flat;   /* no arcs nor inclusive figures where the report reads none */
    fst_fctx fc = { r.fopts, r.nfopts, tr, pm, path, r.out && strcmp(r.out, "-") ? r.out : r.out ? "standard output" : NULL,
                    &r.ro, r.out && strcmp(r.out, "-") ? r.out : NULL, &r.filter, lines, NULL, 0 };
    fst_profile prof;
    /* the format's context is made before the replay, so that bad options are rejected
    ** before the work; it sees the profile (routines) in its event and write calls */
    void *ctx = NULL;
    if (fmt->init && !(ctx = fmt->init(&fc, NULL, &err)))
        fst_die_err(&err);
    fst_tr *tr1 = NULL;   /* a window located by a first replay: the trace read before */
    if (r.have_window) {
        if (fst_trace_sampled(tr))
            fst_die("%s is a sampled trace: --window needs the instructions of a trace (a sample has no number)",
                    path);
        if (fst_window_needs_locator(&r.window))
            tr = locate(&r, tr, pm, path, &tr1);
        r.ro.window = &r.window;
        fc.tr = tr;
    }
    fst_diag *diag = fst_diag_new(pm);
    fst_stmtprof *sp = r.nlines ? fst_stmtprof_new() : NULL;
    fst_sink sinks[3] = { { fst_diag_event, diag, FST_WANT_EXEC_OUTSIDE | FST_WANT_EXEC_BATCH } };
    size_t nsinks = 1;
    if (fmt->event)
        sinks[nsinks++] = (fst_sink){ fmt->event, ctx, FST_WANT_ALL };
    if (sp)
        sinks[nsinks++] = (fst_sink){ fst_stmtprof_event, sp, FST_WANT(FST_EV_EXEC) };
    int sampled = fst_trace_sampled(tr);
    if (sampled) {
        /* LOGTIME data, not a trace (analyze/profile/sampled.h): say what it cannot tell */
        static const char *const need_calls[] = { "fortstat", "callgrind", "gmon", "speedscope", "tree", NULL };
        for (const char *const *f = need_calls; *f; f++)
            if (!strcmp(r.format, *f))
                fst_warn("%s is a sampled trace: it has no calls, so the %s report shows none (call counts 0, "
                         "no arcs); it prints the sampled time it has", path, r.format);
        fst_note("%s", FST_SAMPLED_BIAS);
        for (size_t i = 0; i < r.nfopts; i++)
            if (!strcmp(r.fopts[i].name, "by-task"))
                fst_die("%s is a sampled trace: --by-task needs tasks, and samples hold a PSW each, no task (use "
                        "--space=CR1 to split a 4.7+ sample by address space)", path);
    }
    if ((sampled ? fst_sampled_build(tr, pm, &r.ro, &prof, sinks + 1, nsinks - 1, &err)
                 : fst_replay(tr, pm, &r.ro, &prof, sinks, nsinks, &err)) < 0)
        fst_die_err(&err);
    if (r.ro.space_set && !r.ro.nspaces && !sampled && fst_profile_space_check(&prof, r.ro.space, &err) < 0)
        fst_die_err(&err);
    if (!sampled) {
        check_named(&r, &prof, tr, path);
        check_fit(&r, diag, &prof, tr, path);
    }
    if (fst_filter_bind(&r.filter, &prof, !!(fmt->filters & FST_FILTER_UNTIMED), &err) < 0)
        fst_die_err(&err);
    if (sp)
        fc.nlrows = place_lines(lines, sp, &prof, tr, &fc.lrows);
    fst_out out; /* all or nothing: no half-written report is left behind (common/outfile.h) */
    if (fst_out_open(&out, r.out, &err) < 0)
        fst_die_err(&err);
    if (fmt->write(out.f, &fc, &prof, ctx, &err)) {
        fst_out_abort(&out);
        fst_die_err(&err);
    }
    if (fst_out_close(&out, &err) < 0)
        fst_die_err(&err);
    if (!prof.complete)
        fst_warn("%s is incomplete (%s): the report covers only what it holds", path, prof.incomplete);
    if (r.nexcl) {
        char s[32];
        fst_fmt_sec9(prof.excluded_cost, s);
        fst_note("excluded: %llu instructions, %s s", (unsigned long long)prof.excluded_insns, s);
    }
    if (sampled) {
        fst_note("%llu samples, %llu of them in a wait state (not time)", (unsigned long long)prof.samples,
                 (unsigned long long)prof.wait_samples);
    } else {
        fst_diag_report(diag, &prof, tr, say_cb);
        say_pricing(&prof, clk);
    }
    fst_diag_free(diag);
    fst_stmtprof_free(sp);
    fst_stmt_free(lines);
    if (fmt->done)
        fmt->done(ctx);
    fst_profile_free(&prof);
    fst_tr_close(tr);
    if (tr1)
        fst_tr_close(tr1);
    fst_pm_free(pm);
    fst_clock_free(clk);
    free(r.maps);
    free(r.excl);
    free(r.lines);
    free(r.fopts);
    free(r.wins);
    for (size_t i = 0; r.table[i].name; i++)
        free(r.helps[i]);
    free(r.helps);
    free(r.table);
    return 0;
}
