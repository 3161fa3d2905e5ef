/* formats/csv.c — the CSV report of DESIGN §8; see formats.h. */
#include "analyze/diff/diff.h"
#include "analyze/profile/pricing.h"
#include "common/quote.h"
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/stmtprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int row(FILE *out, const char *name, const char *entry, uint64_t calls, uint64_t si, uint64_t ii, fst_fx sc,
               fst_fx ic)
{
    char s1[32], s2[32];
    fst_fmt_sec9(sc, s1);
    fst_fmt_sec9(ic, s2);
    if (fst_csv_field(out, name) < 0) /* RFC 4180: a map may put ',' '"' or a newline in a name */
        return -1;
    return fprintf(out, ",%s,%llu,%llu,%llu,%s,%s\n", entry, (unsigned long long)calls,
                   (unsigned long long)si, (unsigned long long)ii, s1, s2) < 0 ? -1 : 0;
}

/* The timed routines --routine, --percent-limit and --top keep (all without filter): a flag
** per routine, and what was left out. */
static unsigned char *kept(const fst_profile *p, const fst_filter *f, fst_filter_left *left)
{
    size_t *ix = fst_xcalloc(p->nr + 1, sizeof *ix), n = 0;
    unsigned char *keep = fst_xcalloc(p->nr + 1, 1);
    fst_fx whole = 0;
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].timed) {
            ix[n++] = i;
            whole += p->r[i].self_cost;
        }
    n = fst_filter_rows(f, p, ix, n, whole, left);
    for (size_t k = 0; k < n; k++)
        keep[ix[k]] = 1;
    free(ix);
    return keep;
}

int fst_write_csv_filtered(FILE *out, const fst_profile *p, const fst_filter *f)
{
    fst_filter_left left;
    unsigned char *keep = kept(p, f, &left);
    int rc = fprintf(out, "routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec\n") < 0 ? -1 : 0;
    for (size_t i = 0; i < p->nr && !rc; i++) {
        const fst_routine *r = &p->r[i];
        if (!keep[i])
            continue;
        char entry[24] = "";    /* the "(supervisor)" row has no address */
        if (r->entry != UINT64_MAX)
            snprintf(entry, sizeof entry, "%llX", (unsigned long long)r->entry);
        rc = row(out, r->name, entry, r->calls, r->self_insns, r->incl_insns, r->self_cost, r->incl_cost);
    }
    free(keep);
    if (!rc && left.rows) /* the columns still add up; fst-diff refuses such a file (csvprofile.c) */
        rc = row(out, FST_CSV_NOT_SHOWN, "", left.calls, left.self_insns, left.self_insns, left.self_cost,
                 left.self_cost);
    if (!rc)
        rc = row(out, "(outside)", "", 0, p->outside_insns, p->outside_insns, p->outside_cost, p->outside_cost);
    if (!rc)
        rc = row(out, "(excluded)", "", 0, p->excluded_insns, p->excluded_insns, p->excluded_cost, p->excluded_cost);
    if (!rc)
        rc = row(out, "(total)", "", 0, p->total_insns, p->total_insns, p->total_cost, p->total_cost);
    return rc;
}

int fst_write_csv(FILE *out, const fst_profile *p)
{
    return fst_write_csv_filtered(out, p, NULL);
}

/* --meta, after the first line: how many instructions were priced without a row of the
** cost table (by a class rule, at the default) and how many were not decoded, then which
** (analyze/profile/pricing.h). fst-diff reads only the first line. */
static void pricing_lines(FILE *out, const fst_fctx *fc, const fst_profile *p)
{
    fst_pricing s;
    fst_pricing_of(&s, p, fc->ro->clock);
    fprintf(out, "# pricing: rule=%llu default=%llu undecoded=%llu\n", (unsigned long long)s.rule_insns,
            (unsigned long long)s.default_insns, (unsigned long long)s.undecoded_insns);
    for (int k = 0; k < 2; k++) {
        size_t from = k ? s.nrule : 0, n = k ? s.ndefault : s.nrule;
        for (size_t i = 0; i < n; i++) {
            const fst_unpriced *u = &s.ops[from + i];
            fprintf(out, "%s%s %llu%s%s", i ? "; " : k ? "# priced at the default: " : "# priced by rule: ", u->mnem,
                    (unsigned long long)u->insns, k ? "" : " as ", k ? "" : u->rule);
        }
        if (n)
            fputc('\n', out);
    }
    for (size_t i = 0; i < s.nundecoded; i++) {
        char op[5];
        fst_opcode_str(s.undecoded[i].key, op);
        fprintf(out, "%s%s %llu", i ? "; " : "# not decoded: ", op, (unsigned long long)s.undecoded[i].insns);
    }
    if (s.nundecoded)
        fputc('\n', out);
    fst_pricing_free(&s);
}

/* --meta: a first line saying how the numbers were made, which fst-diff reads so that it
** never compares two clocks or two timing choices as if alike (analyze/diff/diff.h). */
static int meta_line(FILE *out, const fst_fctx *fc, fst_err *err)
{
    const fst_replay_opts *ro = fc->ro;
    fst_dload_opts o = { NULL, ro->statin, ro->timed_all, ro->exclude, ro->cpu_problem, NULL, NULL, NULL };
    fst_dmeta m;
    char words[1200];
    if (fst_dmeta_of(&m, &o, fst_clock_name(ro->clock), fst_clock_mips_cost(ro->clock), err) < 0)
        return -1;
    if (fst_dmeta_format(&m, words, sizeof words) < 0)
        return fst_errf(err, "--meta: the options do not fit on one line");
    fprintf(out, "# fst-report %s\n", words);
    return 0;
}

/* --by-task: the same columns, then the task's id, its address space (CR1 in hex, "real"
** with DAT off, "unknown") and whether the row's routine is the task's mainline; one row
** per task and timed routine that the task ran, then the task's own totals. */
static int task_rows(FILE *out, const fst_profile *p, const fst_filter *f)
{
    fst_filter_left left;
    unsigned char *keep = kept(p, f, &left);
    int rc = fprintf(out, "routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec,task,space,mainline\n") < 0;
    for (size_t t = 0; t < p->ntasks && !rc; t++) {
        const fst_taskprof *tp = &p->tasks[t];
        char space[24], sec[32], entry[24];
        if (tp->excluded)
            continue;   /* of an address space --space leaves out */
        fst_space_name(tp->space, space);
        for (size_t i = 0; i < p->nr && !rc; i++) {
            static const fst_taskroutine none;  /* a task that entered no routine */
            const fst_taskroutine *r = tp->r ? &tp->r[i] : &none;
            if (!keep[i] || (!r->calls && !r->self_insns && !r->incl_insns && tp->mainline != i))
                continue;
            char s1[32], s2[32];
            fst_fmt_sec9(r->self_cost, s1);
            fst_fmt_sec9(r->incl_cost, s2);
            snprintf(entry, sizeof entry, "%llX", (unsigned long long)p->r[i].entry);
            rc = fst_csv_field(out, p->r[i].name) < 0 ||
                 fprintf(out, ",%s,%llu,%llu,%llu,%s,%s,%zu,%s,%d\n",
                         p->r[i].entry == UINT64_MAX ? "" : entry, (unsigned long long)r->calls,
                         (unsigned long long)r->self_insns, (unsigned long long)r->incl_insns, s1, s2, t, space,
                         tp->mainline == i) < 0;
        }
        fst_fmt_sec9(tp->cost, sec);
        if (!rc)
            rc = fprintf(out, "(task),,0,%llu,%llu,%s,%s,%zu,%s,0\n", (unsigned long long)tp->insns,
                         (unsigned long long)tp->insns, sec, sec, t, space) < 0;
    }
    free(keep);
    return rc ? -1 : 0;
}

/* --meta, when fst had to guess which task ran (analyze/tasks/tasks.h): how much that leaves
** uncertain, in all and per routine (the true calls and self instructions lie within these
** of the printed ones); the same counts as json's "uncertain". */
static void uncertain_lines(FILE *out, const fst_profile *p)
{
    if (!p->guessed && !p->inferred)
        return;
    fprintf(out, "# uncertain: total dispatches=%llu calls=%llu instructions=%llu\n",
            (unsigned long long)(p->unc_dispatches + p->inferred), (unsigned long long)p->unc_calls,
            (unsigned long long)p->unc_insns);
    for (size_t i = 0; i < p->nr; i++)
        if (p->r[i].calls_unc || p->r[i].self_unc)
            fprintf(out, "# uncertain: routine=%s calls=%llu self_instr=%llu\n", p->r[i].name,
                    (unsigned long long)p->r[i].calls_unc, (unsigned long long)p->r[i].self_unc);
    for (size_t i = 0; i < p->ntasks; i++)  /* a task whose own figures may be another's */
        if (p->tasks[i].uncertain)
            fprintf(out, "# uncertain: task=%zu\n", i);
}

/* --by=line: one row per statement and routine that ran (formats/stmtprof.h), then the
** (total) row; a statement table's "(no statement)" rows hold the code it says nothing of. */
static int line_rows(FILE *out, const fst_fctx *fc, const fst_profile *p)
{
    int rc = fprintf(out, "file,line,routine,executions,self_instr,self_sec\n") < 0;
    for (size_t i = 0; i < fc->nlrows && !rc; i++) {
        const fst_stmtrow *r = &fc->lrows[i];
        char file[1024], line[256], sec[32];
        fst_stmtprof_names(fc->lines, r->group, file, sizeof file, line, sizeof line);
        const char *who = r->routine == (size_t)FST_SP_OUTSIDE    ? "(outside)"
                        : r->routine == (size_t)FST_SP_EXCLUDED ? "(excluded)"
                                                                 : p->r[r->routine].name;
        fst_fmt_sec9(r->cost, sec);
        rc = fst_csv_field(out, r->group == FST_SP_NOSTMT ? "(no statement)" : file) < 0 ||
             fprintf(out, ",%s,", line) < 0 || fst_csv_field(out, who) < 0 ||
             fprintf(out, ",%llu,%llu,%s\n", (unsigned long long)r->execs, (unsigned long long)r->insns, sec) < 0;
    }
    char sec[32];
    fst_fmt_sec9(p->total_cost, sec);
    if (!rc)
        rc = fprintf(out, "(total),,,,%llu,%s\n", (unsigned long long)p->total_insns, sec) < 0;
    return rc ? -1 : 0;
}

static int write_csv(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    if (fst_fopt(fc, "meta") && fc->ro) {
        if (meta_line(out, fc, err) < 0)
            return -1;
        if (p->window) /* a part of the run (--window): fst-diff compares it with nothing else */
            fprintf(out, "# window: spec=%s from=%llu to=%llu\n", p->win_spec, (unsigned long long)p->win_from,
                    (unsigned long long)(p->win_from + p->total_insns));
        pricing_lines(out, fc, p);
        uncertain_lines(out, p);
        if (fc->tr) { /* fst-diff reads it: two programs are not compared (trace/progid.h) */
            fst_progid id;
            char words[400];
            fst_progid_of(&id, fc->tr);
            fst_progid_format(&id, words, sizeof words);
            if (words[0])
                fprintf(out, "%s%s\n", FST_PROGID_TAG, words);
        }
        char inc[320];
        if (fst_fmt_incomplete(p, inc, sizeof inc)) /* fst-diff reads it: a partial run is not compared */
            fprintf(out, "# incomplete: %s\n", inc + sizeof "INCOMPLETE TRACE: " - 1);
    }
    const char *by = fst_fopt(fc, "by");
    if (by && !strcmp(by, "line") ? line_rows(out, fc, p)
                                  : fst_fopt(fc, "by-task") ? task_rows(out, p, fc->filter)
                                                            : fst_write_csv_filtered(out, p, fc->filter))
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

/* --by: checked before the replay; --by=line with --by-task is not a thing fst makes */
static void *csv_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    static int none;
    (void)p;
    const char *by = fst_fopt(fc, "by");
    if (by && strcmp(by, "line") && strcmp(by, "routine"))
        return fst_errf(err, "--by: 'line' or 'routine', not '%s'", by), NULL;
    if (by && !strcmp(by, "line") && fst_fopt(fc, "by-task"))
        return fst_errf(err, "--by=line and --by-task: one at a time"), NULL;
    return &none;
}

static const fst_option csv_options[] = {
    { 0, "meta", NULL, "a first line '# fst-report clock=... timed=...' for fst-diff, then '# pricing:' lines "
                       "(instructions priced without a cost row, not decoded), '# uncertain:' and '# incomplete:' "
                       "(a trace cut short); '# window:' with --window", 0 },
    { 0, "by", "line|routine", "line: one row per source statement and routine that ran (needs --lines=FILE): "
      "file,line,routine,executions,self_instr,self_sec (line: the line, statement number or ISN; several joined "
      "by '+' where statements share code; '(no statement)' for code the table has none for)", 0 },
    { 0, "by-task", NULL, "one row per task and routine, with columns task,space,mainline (and a (task) total row)", 0 },
    { 0 }
};

const fst_format fst_format_csv = {
    "csv", "one row per routine: routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec", 0,
    csv_options, csv_init, NULL, write_csv, NULL, FST_FILTER_TOP | FST_FILTER_LIMIT | FST_FILTER_ROUTINE,
};
