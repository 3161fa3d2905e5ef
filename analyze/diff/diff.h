/*
** analyze/diff/diff.h — compare two profiles of a program (fst-diff, issue 7).
**
** A side is what one run gives: a trace replayed with fst_replay (exactly as fst-report
** does), or a csv report written by `fst-report --format=csv` (formats/csv.c). Both are
** reduced to the same rows: per routine calls, self and inclusive instructions and
** seconds in nanoseconds, rounded as the csv report rounds them (fst_fmt_sec9), so a
** trace side gives the very numbers fst-report's csv would.
**
** How a side was made matters: times from two clocks, or two timing choices (--timed,
** --statin, --exclude, --cpu), are not comparable. A side carries what is known of it
** (fst_dmeta): a trace side knows its options; a csv side knows them when its first
** line is the metadata comment proposed for formats/csv.c:
**
**     # fst-report clock=mips:0.001 timed=all exclude=A+B cpu=problem
**
** (timed= all | fortran | statin:NAME+NAME..., exclude= and cpu= omitted when none).
** Without it, the clock is inferred where the numbers allow: under mips:R a row's time
** is a function of its instruction count, so a csv whose times are not that function
** for the other side's mips clock was made with another clock (fst_diff_check).
**
** Comparison (fst_diff_compare) of two exact sides: rows matched by name; new and
** vanished routines are outside the thresholds; calls must be equal unless
** --max-calls-change allows a percentage; self time may grow by at most max_time_change
** (per routine) and the total likewise (a faster run is within the thresholds). Percentages are hundredths of
** a percent, compared in integers: no floating point decides a verdict.
**
** Ownership: a fst_dside owns its rows (fst_dside_free); a fst_diff owns its rows
** (fst_diff_free). Errors: -1 with err set, naming the file and line or byte offset.
** Library code: nothing here prints but the writers, to the FILE they are given.
*/
#ifndef FST_DIFF_H
#define FST_DIFF_H

#include "analyze/profile/profile.h"
#include "trace/progid.h"
#include "common/err.h"

#include <stdint.h>
#include <stdio.h>

typedef struct fst_drow {
    char name[64];
    uint64_t calls, self_insns, incl_insns;
    uint64_t self_ns, incl_ns;
    uint64_t sample_sq;     /* a sampled trace side: fst_routine's sample_sq (diffstat.h); else 0 */
} fst_drow;

/* What is known of how a side was made; "" = unknown. */
typedef struct fst_dmeta {
    char clock[200];    /* fst_clock_name: "mips:0.001", "model:PATH" */
    char timed[400];    /* "all", "fortran", "statin:A+B" (names sorted) */
    char exclude[400];  /* "A+B" or "" for none (known when timed is known) */
    char cpu[16];       /* "problem" or "all" (known when timed is known) */
    fst_fx mips_fx;     /* the mips clock's cost per instruction, 0 when not mips/unknown */
} fst_dmeta;

typedef struct fst_dside {
    char path[512];
    int is_trace;
    fst_drow *r;
    size_t nr;
    fst_drow outside, excluded, total;
    fst_dmeta meta;
    int complete;       /* a trace side: the trace was complete; else why not: */
    char incomplete[320];
    int sampled;        /* a sampled trace (analyze/profile/sampled.h): *_insns count samples */
    fst_progid id;      /* which program (trace/progid.h): a trace's, or a csv's '# program:' */
} fst_dside;

/* How trace sides are replayed: fst-report's options. */
typedef struct fst_dload_opts {
    const char *clock;      /* --clock spec, NULL = model */
    const char *statin;
    int timed_all;
    const char *const *exclude; /* NULL-terminated, or NULL */
    int cpu_problem;
    const char *const *maps;    /* NULL-terminated --map files, or NULL */
    const char *member;
    void (*warn)(const char *msg);
    /* a trace side: one more sink for its replay (NULL: none), and `replayed` called with the
    ** profile before it is freed (the sink's aggregate refers to its routines) */
    const fst_sink *sink;
    void (*replayed)(void *ctx, const fst_profile *p);
    void *replayed_ctx;
} fst_dload_opts;

/* A trace (found by its content, not its name) or a csv report. */
int fst_dside_load(fst_dside *s, const char *path, const fst_dload_opts *o, fst_err *err);
/* A csv report (analyze/diff/csvprofile.c). */
int fst_dside_read_csv(fst_dside *s, const char *path, fst_err *err);
/* The rows of a replayed profile, as formats/csv.c would write them. */
void fst_dside_from_profile(fst_dside *s, const fst_profile *p, const fst_dmeta *m);
/* The metadata line for a trace replayed with these options (without "# fst-report "). */
int fst_dmeta_of(fst_dmeta *m, const fst_dload_opts *o, const char *clockname, fst_fx mips_fx, fst_err *err);
/* The words of the metadata line for m ("clock=mips:1 timed=all"), as a csv writer would
** put them after "# fst-report "; -1 when they do not fit in cap. */
int fst_dmeta_format(const fst_dmeta *m, char *buf, size_t cap);
/* Parse the "key=value ..." words after "# fst-report"; unknown keys are ignored. */
int fst_dmeta_parse(fst_dmeta *m, const char *words, const char *where, fst_err *err);
void fst_dside_free(fst_dside *s);

typedef struct fst_dthresh {
    uint64_t max_time_bp;   /* hundredths of a percent a routine's self time (and the total) may grow */
    uint64_t max_calls_bp;  /* hundredths of a percent calls may change (either way); 0 = exact */
    unsigned confidence;    /* a sampled side: FST_DS_CONF_* (analyze/diff/diffstat.h); 0 = the default */
} fst_dthresh;
/* "5", "2.5", "0.01" -> hundredths of a percent; -1 when not such a number. */
int fst_diff_parse_pct(const char *s, uint64_t *bp);

enum { FST_D_SAME, FST_D_CHANGED, FST_D_NEW, FST_D_VANISHED };

typedef struct fst_drowdiff {
    fst_drow base, new_;    /* zero where the routine is absent */
    int kind;               /* FST_D_* */
    int over;               /* outside the thresholds */
    char why[160];          /* what is outside them ("self time +7.69% > 5%") */
    /* a comparison of shares (analyze/diff/diffstat.h), for display: hundredths of a percent */
    uint64_t share_bp[2], bound_bp;
} fst_drowdiff;

typedef struct fst_diff {
    fst_drowdiff *r;        /* the rows outside the thresholds first; each part by impact:
                            ** |self time change|, then |calls change|, then name */
    size_t nr;
    fst_drowdiff total;     /* name "(total)"; over when the total grew too much */
    fst_drowdiff outside;   /* "(outside)": shown, not judged */
    size_t nover;           /* rows (total included) outside the thresholds */
    char notes[1024];       /* what the reader should know ("NEW: trace incomplete") */
    int shares;             /* FST_DS_* (analyze/diff/diffstat.h): a sampled side, shares compared */
    unsigned confidence;    /* with shares: FST_DS_CONF_* */
} fst_diff;

/* Can the sides be compared? -1 with err saying why not: a trace cut short (its calls
** and times would read as changes), different clocks or timing. When a side is sampled,
** shares are compared instead (analyze/diff/diffstat.h): clocks do not matter, the sides'
** sizes do (fst_diff_shares_check). */
int fst_diff_check(const fst_dside *base, const fst_dside *new_, int versions, fst_err *err);
/* Whether the sides are runs of one program, from what both kinds of side carry: the
** routines each called. Two versions of a program share most of them; two programs (the
** issue's bigloop against fortg) none, and a comparison routine by routine would report
** every routine new or vanished, a plausible answer to the wrong question. -1 with err
** naming the routines of each side when the routines called on one side (calls > 0: a
** mainline is never called) and those called on the other are disjoint; 0 otherwise,
** and when a side called nothing. fst_diff_check calls it. (analyze/diff/diffsame.c) */
int fst_diff_same_program(const fst_dside *base, const fst_dside *new_, fst_err *err);
/* Compare (after fst_diff_check); with a sampled side, fst_diff_shares. */
void fst_diff_compare(const fst_dside *base, const fst_dside *new_, const fst_dthresh *t, fst_diff *d);
void fst_diff_free(fst_diff *d);

/* Writers: 0, or -1 when writing fails (errno set). */
int fst_diff_write_text(FILE *out, const fst_diff *d, const fst_dside *base, const fst_dside *new_);
int fst_diff_write_csv(FILE *out, const fst_diff *d);
/* One <testsuite> (no XML declaration): one testcase per routine and the total. */
int fst_diff_write_junit_suite(FILE *out, const char *suite, const fst_diff *d);
/* A suite of one failed case, for a run that could not be compared. */
int fst_diff_write_junit_error(FILE *out, const char *suite, const char *msg);

/* ---- the batch manifest (analyze/diff/csvprofile.c) ----
** A CSV file read with libcsv; '#' lines between records are comments; the first record
** is the header, columns found by name in any order:
**   name               required, the run's name in summaries and JUnit
**   program | trace    exactly one: a program (.ins) to capture, or a trace
**   baseline           required: a csv report or a trace
**   options            optional: fst-diff options for the run, separated by blanks
**   max_time_change    optional: PCT (default: the command line's)
**   max_calls_change   optional: PCT (default: the command line's)
** Relative paths (program, trace, baseline) are relative to the manifest's folder; paths
** inside options (--map=FILE) to the current one. */
typedef struct fst_mrun {
    size_t line;
    char *name, *program, *trace, *baseline, *options;
    int has_time, has_calls;
    uint64_t time_bp, calls_bp;
} fst_mrun;
int fst_manifest_read(const char *path, fst_mrun **runs, size_t *n, fst_err *err);
void fst_manifest_free(fst_mrun *runs, size_t n);

/* ---- the CSV reading shared by both (analyze/diff/csvprofile.c) ----
** Records of a CSV file, each with its line; comment lines ('#' first, between records)
** go to `comment` (may be NULL) with their line. Callbacks return 0 or -1 (err set).
** The file is read with the bounds of common/lines.h: lines of at most FST_CSV_MAX_LINE
** bytes, files of at most FST_CSV_MAX_BYTES; `what` names the kind in those errors. */
#define FST_CSV_MAX_LINE (64u << 10)
#define FST_CSV_MAX_BYTES (64u << 20)
typedef struct fst_csvcb {
    int (*record)(void *ctx, char **f, size_t nf, size_t line, fst_err *err);
    int (*comment)(void *ctx, const char *text, size_t line, fst_err *err);
    void *ctx;
    const char *what;   /* "csv report", "batch manifest" */
} fst_csvcb;
int fst_csv_read(const char *path, const fst_csvcb *cb, fst_err *err);

#endif
