/*
** formats/format.h — how a report format plugs into fst-report.
**
** A format is one file in formats/ that defines a `const fst_format` and is listed once
** in formats/registry.c. fst-report knows nothing else about it: the format brings its
** own command-line options (added to fst-report's table and shown in its --help under the
** format's name), and, when the call graph is not enough, its own aggregate: a sink of
** the event stream (analyze/profile/events.h) that collects what it needs during the replay
** (addresses, stacks, a timeline). `write` is then a pure function of the profile, that
** aggregate and the options: a format never reads the trace.
**
** Options: the values given on the command line are in `fst_fctx.opts`; read them with
** fst_fopt (the last value of an option, NULL when absent) or fst_fopt_all (every value of
** a repeatable one). Numbers are checked by the format, in `init`, which returns -1 with
** err set ("--spansize: ...") to reject bad values before the replay starts.
**
** Errors: write returns 0, or -1 with err set (writing failed: errno in the message).
** Ownership: the context returned by init is freed by done (both optional).
*/
#ifndef FST_FORMAT_H
#define FST_FORMAT_H

#include "analyze/profile/events.h"
#include "analyze/profile/profile.h"
#include "model/progmodel.h"
#include "model/stmttab.h"
#include "trace/tracebin.h"
#include "common/err.h"
#include "common/opt.h"
#include "formats/filter.h"

#include <stdio.h>

typedef struct fst_fopt_val {
    const char *name;   /* long option name, without "--" */
    const char *value;  /* "" for an option without argument */
} fst_fopt_val;

typedef struct fst_fctx {
    const fst_fopt_val *opts;   /* every format option given, in command-line order */
    size_t nopts;
    fst_tr *tr;                 /* for its header and storage image only (not its records) */
    const fst_pm *pm;           /* the program model given with --map, or NULL */
    const char *trace_path;
    const char *out_path;       /* -o FILE, or NULL for standard output */
    const fst_replay_opts *ro;  /* how the replay was made: clock, timing choices */
    const char *out_file;       /* -o FILE when it names a file (not standard output), else
                                   NULL: a format may write a companion file beside it */
    const fst_filter *filter;   /* --top, --percent-limit, --routine (formats/filter.h), bound
                                   to the profile before write; NULL: none */
    const fst_stmt_tab *lines;  /* --lines=FILE: the statement table (model/stmttab.h), or NULL;
                                   placed only when the rows below are there */
    const struct fst_stmtrow *lrows; /* counts per statement (formats/stmtprof.h), set after
                                   the replay (NULL in init), nlrows of them */
    size_t nlrows;
} fst_fctx;

typedef struct fst_format {
    const char *name;           /* --format=NAME */
    const char *summary;        /* one line for --help */
    int binary;                 /* writes binary data: needs -o FILE */
    const fst_option *options;  /* its own options ({0}-terminated; `id` unused), or NULL */
    /* optional: a context and an event sink for the replay. init runs before the replay
    ** (p is NULL then: the routines are not known yet); `event` sees every event. */
    void *(*init)(const fst_fctx *fc, const fst_profile *p, fst_err *err);
    void (*event)(void *ctx, const fst_event *e);
    int (*write)(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err);
    void (*done)(void *ctx);
    unsigned filters;           /* FST_FILTER_*: the shared options (filter.h) that apply to it */
    /* 1: write reads of the profile's routines only their calls and self figures (and the
    ** totals, tasks, instruction mix), no arc and no inclusive figure: the replay keeps
    ** none (fst_replay_opts.flat: a tenth of a call-heavy program's replay) */
    int flat;
} fst_format;

/* formats/registry.c */
extern const fst_format *const fst_formats[];   /* NULL-terminated */
const fst_format *fst_format_find(const char *name);

const char *fst_fopt(const fst_fctx *fc, const char *name);
size_t fst_fopt_all(const fst_fctx *fc, const char *name, const char **out, size_t max);

#endif
