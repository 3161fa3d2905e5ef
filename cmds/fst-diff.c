/*
** fst-diff — compare two runs of a program and fail when one got slower or its calls
** changed (issue 7). Wiring only: analyze/diff/diff.c loads the sides (traces replayed as
** fst-report replays them, or csv reports), checks that they are comparable, compares
** and writes; analyze/diff/csvprofile.c reads csv reports and the batch manifest.
**
**   fst-diff [options] BASE NEW        one comparison
**   fst-diff [options] --batch=FILE    every run of a manifest, one summary line each
**
** Exit: 0 within the thresholds, 1 outside them (each routine named on stderr, or each
** failed run's summary line), 2 unusable input (also: sides made with different clocks
** or timing, which are reported, not compared). When a side is a sampled trace, shares
** are compared against a bound from the sample counts (analyze/diff/diffstat.h).
*/
#include "analyze/diff/diff.h"
#include "analyze/diff/diffstat.h"
#include "formats/diffflame.h"
#include "common/err.h"
#include "common/opt.h"
#include "common/outfile.h"
#include "common/quote.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { O_OUT = 'o', O_FORMAT = 1000, O_JUNIT, O_BATCH, O_GENERIC };

/* options that also make sense per run in a manifest: handled by set_opt */
static const fst_option opts[] = {
    { 0, "format", "F", "text (default) or csv: one row per routine, sorted by impact; svg: a differential flame "
      "graph of two traces (widths from NEW, red grew, blue shrank, tooltips with both); folded: its stacks as "
      "'STACK BASE NEW' lines (difffolded.pl's), ns of the clock", O_FORMAT },
    { 'o', "output", "FILE", "write the comparison to FILE (default: standard output)", O_OUT },
    { 0, "junit", "FILE", "also write a JUnit XML report to FILE, one testcase per routine", O_JUNIT },
    { 0, "batch", "FILE", "compare every run of a manifest (CSV: name,program|trace,baseline,options,...)", O_BATCH },
    { 0, "max-time-change", "PCT", "how much a routine's self time, and the total, may grow (default 0)", O_GENERIC },
    { 0, "max-calls-change", "PCT", "how much a routine's calls may change (default 0: exact)", O_GENERIC },
    { 0, "confidence", "PCT", "a sampled side (fst-capture --sample): shares are compared, and a routine differs "
                              "when its change is beyond what the sample counts explain at this two-sided "
                              "confidence: 99, 99.9 (default) or 99.99 (the rule is printed)", O_GENERIC },
    { 0, "versions", NULL, "the sides are versions of one program (another build, other data): compare them though "
      "their images or jobs differ", O_GENERIC },
    { 0, "clock", "C", "for trace sides: mips:R or model[:FILE], as fst-report (default model)", O_GENERIC },
    { 0, "statin", "FILE", "for trace sides: time only the routines on these STATIN cards", O_GENERIC },
    { 0, "timed", "all", "for trace sides: time every routine of the program model", O_GENERIC },
    { 0, "exclude", "NAME", "for trace sides: drop NAME's own time from every total (repeatable)", O_GENERIC },
    { 0, "cpu", "problem", "for trace sides: count problem-state time only", O_GENERIC },
    { 0, "map", "FILE", "for trace sides: routine names from a map, as fst-report (repeatable)", O_GENERIC },
    { 0, "member", "NAME", "with --map: the link step of this member", O_GENERIC },
    { 0 },
};

#define MAXLIST 64

typedef struct runcfg {
    fst_dload_opts lo;
    const char *maps[MAXLIST + 1], *excl[MAXLIST + 1];
    size_t nmaps, nexcl;
    fst_dthresh th;
    int versions;       /* --versions: the sides are versions of one program */
} runcfg;

/* One option of a run: 0, or -1 with msg. The same rules on the command line and in a
** manifest's options column. */
static int set_opt(runcfg *c, const char *name, const char *v, char *msg, size_t cap)
{
    if (!strcmp(name, "max-time-change") || !strcmp(name, "max-calls-change")) {
        if (fst_diff_parse_pct(v, name[4] == 't' ? &c->th.max_time_bp : &c->th.max_calls_bp) < 0)
            return snprintf(msg, cap, "--%s wants a percentage (5, 2.5), not '%s'", name, v), -1;
    } else if (!strcmp(name, "confidence")) {
        if (fst_ds_parse_confidence(v, &c->th.confidence) < 0)
            return snprintf(msg, cap, "--confidence takes 99, 99.9 or 99.99, not '%s'", v), -1;
    } else if (!strcmp(name, "versions")) {
        if (v && strcmp(v, "yes"))
            return snprintf(msg, cap, "--versions takes no value (in a manifest: --versions=yes), not '%s'", v), -1;
        c->versions = 1;
    } else if (!strcmp(name, "clock"))
        c->lo.clock = v;
    else if (!strcmp(name, "statin"))
        c->lo.statin = v;
    else if (!strcmp(name, "member"))
        c->lo.member = v;
    else if (!strcmp(name, "timed")) {
        if (strcmp(v, "all"))
            return snprintf(msg, cap, "--timed takes 'all', not '%s'", v), -1;
        c->lo.timed_all = 1;
    } else if (!strcmp(name, "cpu")) {
        if (strcmp(v, "problem"))
            return snprintf(msg, cap, "--cpu takes 'problem', not '%s'", v), -1;
        c->lo.cpu_problem = 1;
    } else if (!strcmp(name, "exclude") || !strcmp(name, "map")) {
        int ex = name[0] == 'e';
        if ((ex ? c->nexcl : c->nmaps) == MAXLIST)
            return snprintf(msg, cap, "more than %d --%s", MAXLIST, name), -1;
        if (ex)
            c->excl[c->nexcl++] = v;
        else
            c->maps[c->nmaps++] = v;
    } else
        return snprintf(msg, cap, "--%s is not an option of a run", name), -1;
    return 0;
}

/* A manifest's options column: "--name=value" words (values without blanks). */
static int set_words(runcfg *c, char *words, char *msg, size_t cap)
{
    char *save = NULL;
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(w, '=');
        if (!strcmp(w, "--versions")) { /* the one flag of a run */
            c->versions = 1;
            continue;
        }
        if (strncmp(w, "--", 2) || !eq)
            return snprintf(msg, cap, "'%s': options are written --name=value", w), -1;
        *eq = 0;
        if (set_opt(c, w + 2, eq + 1, msg, cap) < 0)
            return -1;
    }
    return 0;
}

/* Both sides' replays say what they find of the program model (the same when the model is):
** each message once, the same in a row being the common case. */
static void warn_cb(const char *msg)
{
    static char last[1024];
    if (!strncmp(last, msg, sizeof last - 1))
        return;
    snprintf(last, sizeof last, "%s", msg);
    fst_warn("%s", msg);
}

static void finish_cfg(runcfg *c)
{
    c->maps[c->nmaps] = NULL;
    c->excl[c->nexcl] = NULL;
    c->lo.maps = c->maps;
    c->lo.exclude = c->nexcl ? c->excl : NULL;
    c->lo.warn = warn_cb;
}

typedef struct outcome {
    int code;           /* FST_EXIT_* */
    fst_diff d;
    fst_dside base, new_;
    char msg[800];      /* ERROR: why */
} outcome;

static char stdin_copy[512]; /* side_path's copy of standard input, "" if none */

/* The copy is fst-diff's own business: messages and headers say "standard input". */
static void unalias_stdin(char *buf, size_t cap)
{
    size_t n = strlen(stdin_copy);
    char *at = n ? strstr(buf, stdin_copy) : NULL;
    if (!at)
        return;
    char rest[1024];
    snprintf(rest, sizeof rest, "%s", at + n);
    snprintf(at, cap - (size_t)(at - buf), "standard input%s", rest);
}

/* A side's stacks into the differential flame graph (formats/diffflame.h). */
typedef struct flside {
    fst_dflame *fl;
    int side;
} flside;
static void take_stacks(void *ctx, const fst_profile *p)
{
    const flside *s = ctx;
    fst_dflame_take(s->fl, s->side, p);
}

/* Load both sides, check, compare; with `fl`, each trace side's stacks go into it as well.
** On FST_EXIT_FAIL msg says why; otherwise free with outcome_free. */
static void compare(outcome *o, const char *base, const char *new_, const runcfg *c, fst_dflame *fl)
{
    fst_err err;
    memset(o, 0, sizeof *o);
    fst_dload_opts lo[2] = { c->lo, c->lo };
    fst_sink sk[2];
    flside fs[2];
    for (int s = 0; fl && s < 2; s++) {
        fst_dflame_sink(fl, s, &sk[s]);
        fs[s] = (flside){ fl, s };
        lo[s].sink = &sk[s];
        lo[s].replayed = take_stacks;
        lo[s].replayed_ctx = &fs[s];
    }
    if (fst_dside_load(&o->base, base, &lo[0], &err) < 0 || fst_dside_load(&o->new_, new_, &lo[1], &err) < 0 ||
        fst_diff_check(&o->base, &o->new_, c->versions, &err) < 0) {
        snprintf(o->msg, sizeof o->msg, "%s", err.msg);
        unalias_stdin(o->msg, sizeof o->msg);
        fst_dside_free(&o->base);
        fst_dside_free(&o->new_);
        o->code = FST_EXIT_FAIL;
        return;
    }
    unalias_stdin(o->base.path, sizeof o->base.path);
    unalias_stdin(o->new_.path, sizeof o->new_.path);
    const fst_dside *csv = !o->base.is_trace ? &o->base : !o->new_.is_trace ? &o->new_ : NULL;
    if (fl && csv) {    /* a csv report holds routines, not stacks */
        snprintf(o->msg, sizeof o->msg, "%s is a csv report: a flame graph needs the stacks of two traces", csv->path);
        fst_dside_free(&o->base);
        fst_dside_free(&o->new_);
        o->code = FST_EXIT_FAIL;
        return;
    }
    fst_diff_compare(&o->base, &o->new_, &c->th, &o->d);
    o->code = o->d.nover ? FST_EXIT_DIFF : FST_EXIT_OK;
}

static void outcome_free(outcome *o)
{
    if (o->code == FST_EXIT_FAIL)
        return;
    fst_diff_free(&o->d);
    fst_dside_free(&o->base);
    fst_dside_free(&o->new_);
}

/* Outputs are all or nothing (common/outfile.h): a failed run leaves no half-written file. */
static FILE *create(fst_out *o, const char *path)
{
    fst_err err;
    if (fst_out_open(o, path, &err) < 0)
        fst_die_err(&err);
    return o->f;
}

static void close_out(fst_out *o)
{
    fst_err err;
    if (fst_out_close(o, &err) < 0)
        fst_die_err(&err);
}

/* No output may be an input: it would be replaced by what is compared from it. */
static void check_outputs(const char *out, const char *junit, const char *const *in, size_t n)
{
    fst_err err;
    if (fst_out_check("-o", out, in, n, &err) < 0 || fst_out_check("--junit", junit, in, n, &err) < 0)
        fst_die_err(&err);
}

/* a routine's name for a message or a summary line: one line whatever the map put in it */
static const char *row_name(const fst_drowdiff *r)
{
    static char buf[sizeof r->base.name];
    return fst_printable(r->base.name[0] ? r->base.name : r->new_.name, buf, sizeof buf);
}

/* the suite name of a single comparison: NEW's file name without its extension */
static void suite_of(const char *path, char *out, size_t cap)
{
    const char *b = strrchr(path, '/');
    snprintf(out, cap, "%s", b ? b + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

static int single(const runcfg *c, const char *base, const char *new_, const char *format, const char *out,
                  const char *junit)
{
    outcome o;
    int flame = !strcmp(format, "svg") || !strcmp(format, "folded");
    fst_dflame *fl = flame ? fst_dflame_new(0) : NULL;
    compare(&o, base, new_, c, fl);
    char suite[256];
    suite_of(new_, suite, sizeof suite);
    fst_out jo, fo;
    FILE *j = junit ? create(&jo, junit) : NULL;
    if (j)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fst-diff\">\n", j);
    if (o.code == FST_EXIT_FAIL) {
        if (j) {
            fst_diff_write_junit_error(j, suite, o.msg);
            fputs("</testsuites>\n", j);
            close_out(&jo);
        }
        fst_die("%s", o.msg);
    }
    FILE *f = create(&fo, out);
    int rc = !strcmp(format, "csv") ? fst_diff_write_csv(f, &o.d)
             : !strcmp(format, "svg") ? fst_dflame_write_svg(fl, f, o.base.path, o.new_.path)
             : !strcmp(format, "folded") ? fst_dflame_write_folded(fl, f)
             : fst_diff_write_text(f, &o.d, &o.base, &o.new_);
    fst_dflame_free(fl);
    if (rc < 0)
        fst_die("%s: cannot write: %s", fo.name, strerror(errno));
    close_out(&fo);
    if (j) {
        if (fst_diff_write_junit_suite(j, suite, &o.d) < 0 || fputs("</testsuites>\n", j) < 0)
            fst_die("%s: cannot write: %s", junit, strerror(errno));
        close_out(&jo);
    }
    for (size_t i = 0; i < o.d.nr; i++)
        if (o.d.r[i].over)
            fst_finding("%s: %s", row_name(&o.d.r[i]), o.d.r[i].why);
    if (o.d.total.over)
        fst_finding("(total): %s", o.d.total.why);
    int code = o.code;
    outcome_free(&o);
    return code;
}

/* ---- batch ---- */

/* fst-capture next to this program, else from PATH */
static void capture_cmd(char *out, size_t cap)
{
    char self[900];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    snprintf(out, cap, "fst-capture");
    if (n > 0) {
        self[n] = 0;
        char cand[1024];
        snprintf(cand, sizeof cand, "%s/fst-capture", dirname(self));
        if (access(cand, X_OK) == 0)
            snprintf(out, cap, "%s", cand);
    }
}

/* Capture a program under Hercules into a temporary trace: 0, or -1 with msg. */
static int capture(const char *prog, char *trace, size_t cap, char *msg, size_t mcap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(trace, cap, "%s/fst-diff-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(trace);
    if (fd < 0)
        return snprintf(msg, mcap, "%s: cannot create: %s", trace, strerror(errno)), -1;
    close(fd);
    char cmd[1024];
    capture_cmd(cmd, sizeof cmd);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execlp(cmd, cmd, "-q", "-o", trace, prog, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
        unlink(trace);
        return snprintf(msg, mcap, "%s: fst-capture failed (exit %d)", prog, WIFEXITED(st) ? WEXITSTATUS(st) : -1), -1;
    }
    return 0;
}

/* the summary line of a run that was compared */
static void summary(const fst_mrun *r, const outcome *o)
{
    if (!o->d.nover) {
        size_t changed = 0;
        for (size_t i = 0; i < o->d.nr; i++)
            changed += o->d.r[i].kind != FST_D_SAME;
        printf("PASS %s: %zu routines, %zu changed, none outside the thresholds\n", r->name, o->d.nr, changed);
        return;
    }
    printf("FAIL %s:", r->name);
    const char *sep = " ";
    for (size_t i = 0; i < o->d.nr; i++)
        if (o->d.r[i].over) {
            printf("%s%s %s", sep, row_name(&o->d.r[i]), o->d.r[i].why);
            sep = "; ";
        }
    if (o->d.total.over)
        printf("%s(total) %s", sep, o->d.total.why);
    printf("\n");
}

static int run_one(const fst_mrun *r, const runcfg *global, const char *manifest, FILE *j)
{
    runcfg c = *global;
    char *words = fst_xstrdup(r->options), msg[300];
    outcome o = { .code = FST_EXIT_FAIL };
    char trace[600] = "";
    int captured = 0;
    if (set_words(&c, words, msg, sizeof msg) < 0)
        snprintf(o.msg, sizeof o.msg, "%s:%zu: options: %s", manifest, r->line, msg);
    else {
        if (r->has_time)
            c.th.max_time_bp = r->time_bp;
        if (r->has_calls)
            c.th.max_calls_bp = r->calls_bp;
        finish_cfg(&c);
        captured = r->program && capture(r->program, trace, sizeof trace, o.msg, sizeof o.msg) == 0;
        if (!r->program || captured)
            compare(&o, r->baseline, r->program ? trace : r->trace, &c, NULL);
    }
    if (o.code == FST_EXIT_FAIL)
        printf("ERROR %s: %s\n", r->name, o.msg);
    else
        summary(r, &o);
    if (j && (o.code == FST_EXIT_FAIL ? fst_diff_write_junit_error(j, r->name, o.msg)
                                      : fst_diff_write_junit_suite(j, r->name, &o.d)) < 0)
        fst_die("cannot write the JUnit report: %s", strerror(errno));
    if (captured)
        unlink(trace);
    outcome_free(&o);
    free(words);
    return o.code;
}

static int batch(const runcfg *global, const char *manifest, const char *junit)
{
    fst_err err;
    fst_mrun *runs;
    size_t n;
    if (fst_manifest_read(manifest, &runs, &n, &err) < 0)
        fst_die_err(&err);
    /* every run's options are checked before any work, and its files are not the JUnit report */
    for (size_t i = 0; i < n; i++) {
        const char *in[] = { runs[i].baseline, runs[i].trace, runs[i].program };
        check_outputs(NULL, junit, in, 3);
        runcfg c = *global;
        char *words = fst_xstrdup(runs[i].options), msg[800];
        int bad = set_words(&c, words, msg, sizeof msg) < 0;
        free(words);
        if (bad) {
            size_t line = runs[i].line;
            fst_manifest_free(runs, n);
            fst_die("%s:%zu: options: %s", manifest, line, msg);
        }
    }
    fst_out jo;
    FILE *j = junit ? create(&jo, junit) : NULL;
    if (j)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fst-diff\">\n", j);
    size_t pass = 0, fail = 0, error = 0;
    for (size_t i = 0; i < n; i++) {
        int code = run_one(&runs[i], global, manifest, j);
        fflush(stdout);
        pass += code == FST_EXIT_OK;
        fail += code == FST_EXIT_DIFF;
        error += code == FST_EXIT_FAIL;
    }
    if (j) {
        fputs("</testsuites>\n", j);
        close_out(&jo);
    }
    printf("%zu runs: %zu passed, %zu failed, %zu errors\n", n, pass, fail, error);
    fst_manifest_free(runs, n);
    return error ? FST_EXIT_FAIL : fail ? FST_EXIT_DIFF : FST_EXIT_OK;
}

/* "-": standard input, copied to a temporary file first, since a side is opened twice (its
** kind from its first bytes, then read) and a pipe cannot be read twice. Removed at exit. */
static void rm_stdin_copy(void) { unlink(stdin_copy); }
static const char *side_path(const char *arg)
{
    if (strcmp(arg, "-"))
        return arg;
    if (stdin_copy[0])
        fst_die("only one side can be standard input ('-')");
    const char *tmp = getenv("TMPDIR");
    snprintf(stdin_copy, sizeof stdin_copy, "%s/fst-diff-stdin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(stdin_copy);
    if (fd < 0)
        fst_die("%s: cannot create: %s", stdin_copy, strerror(errno));
    atexit(rm_stdin_copy);          /* returning from main */
    fst_at_exit_now(rm_stdin_copy); /* fst_die, SIGINT */
    char buf[65536];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0)
        if (write(fd, buf, (size_t)n) != n)
            fst_die("%s: cannot write a copy of standard input: %s", stdin_copy, strerror(errno));
    if (n < 0 || close(fd) < 0)
        fst_die("standard input: cannot read: %s", strerror(errno));
    return stdin_copy;
}

int main(int argc, char **argv)
{
    fst_setprog(argv[0]);
    static const fst_cmd cmd = {
        "fst-diff", "[options] BASE NEW\n[options] --batch=MANIFEST",
        "Compare two runs of a program: BASE and NEW are each a trace (fst-capture) or a csv report\n"
        "(fst-report --format=csv); one of them may be - for standard input. Prints calls, self\n"
        "and inclusive time of every routine in both runs and the changes, sorted by impact.\n"
        "Exit 0 within the thresholds, 1 outside them (each routine named), 2 on unusable input\n"
        "or sides made with different clocks or timing.",
        opts,
        "  0    done: no routine outside the thresholds\n  1    differences found (each routine named)\n"
        "  2    error: unusable input, or sides that cannot be compared (different programs, clocks or\n"
        "       timing)\n  130  interrupted (SIGINT); no partial output file is left\n" };
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    runcfg c = { 0 };
    const char *format = "text", *out = NULL, *junit = NULL, *manifest = NULL;
    char msg[300];
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_FORMAT: {
            static const char *const formats[] = { "text", "csv", "svg", "folded", NULL };
            format = fst_opt_choice(&p, "format", formats);
            break;
        }
        case O_OUT: out = p.arg; break;
        case O_JUNIT: junit = p.arg; break;
        case O_BATCH: manifest = p.arg; break;
        default:
            if (set_opt(&c, p.optname + 2, p.arg, msg, sizeof msg) < 0)
                fst_opt_fail(&p, "%s", msg);
            break;
        }
    }
    if (manifest && (out || strcmp(format, "text")))
        fst_opt_fail(&p, "--batch prints a summary line per run: -o and --format are for one comparison");
    if (manifest && argc != p.optind)
        fst_opt_fail(&p, "--batch takes its runs from the manifest, not from the command line");
    if (!manifest && argc - p.optind != 2)
        fst_opt_fail(&p, "give two sides: BASE NEW (each a trace or a csv report)");
    finish_cfg(&c);
    if (out && junit && !strcmp(out, junit) && strcmp(out, "-"))
        fst_opt_fail(&p, "-o and --junit name the same file");
    const char *in[2 * MAXLIST + 6] = { manifest, c.lo.statin, c.lo.clock && !strncmp(c.lo.clock, "model:", 6) ? c.lo.clock + 6 : NULL };
    size_t n = 3;
    if (!manifest) {
        in[n++] = argv[p.optind];
        in[n++] = argv[p.optind + 1];
    }
    for (size_t i = 0; i < c.nmaps; i++)
        in[n++] = c.maps[i];
    check_outputs(out, junit, in, n);
    if (manifest)
        return batch(&c, manifest, junit);
    const char *base = side_path(argv[p.optind]);
    return single(&c, base, side_path(argv[p.optind + 1]), format, out, junit);
}
