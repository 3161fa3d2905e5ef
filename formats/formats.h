/*
** formats/formats.h — report writers. Each is a pure function of a profile (analyze/
** profile.h) and its options: no writer reads a trace, so two formats printed from one
** replay never disagree. They return 0, or -1 when writing fails (errno set).
*/
#ifndef FST_FORMATS_H
#define FST_FORMATS_H

#include "analyze/profile/profile.h"
#include "formats/filter.h"

#include <stdio.h>

/* Seconds with two decimals, rounded, leading zero suppressed (".27", "6.87"), as FORTSTAT
** printed them; and with nine decimals for CSV. buf >= 32 bytes. (formats/fmt.c) */
void fst_fmt_sec2(fst_fx x, char *buf);
void fst_fmt_sec9(fst_fx x, char *buf);
/* Seconds with `digits` (2-9) decimals, as fst_fmt_sec2 (which it equals at 2): for a short
** program whose routines all round to .00 (--digits). */
void fst_fmt_secn(fst_fx x, int digits, char *buf);
/* A trace cut short, as every report says it in itself (never a partial run passed off as
** a whole one): "INCOMPLETE TRACE: its first N instructions only (WHY)" into buf; NULL when
** the trace is complete. (formats/fmt.c) */
const char *fst_fmt_incomplete(const fst_profile *p, char *buf, size_t cap);
/* A --window (analyze/replay/window.h), as every report says it in itself: "WINDOW SPEC:
** instructions FROM to LAST of the trace" into buf; NULL when the profile is the whole run.
** (formats/fmt.c) */
const char *fst_fmt_window(const fst_profile *p, char *buf, size_t cap);
/* --digits=N: 2 (absent) to 9; -1 with err set otherwise. */
int fst_digits_opt(const char *s, int *digits, fst_err *err);

/* XML text of s (at most max bytes): & < > " ' escaped, control characters as '?'.
** Returns 0, or 1 when writing failed. (For the SVG writers.) */
int fst_put_xml(FILE *out, const char *s, size_t max);

/* FORTSTAT's listing (seed 000, Appendix B): ROUTINE CALLED TIME (SEC), one row per timed
** routine (by default in load-module order), the mainline marked '*', a TOTAL row. With `asa`, 133-byte
** FBA records with an ASA control character, as STATOUT (BLKSIZE=133, RECFM=FBA). `digits`:
** decimals of TIME (SEC), 2 as FORTSTAT printed; more widen the column by as many; 0 chooses:
** 2, or when every routine's time rounds to .00 at 2 (a short run) the fewest decimals at
** which the longest shows two significant digits, said in the header. `percent` adds a
** column of each routine's share of TOTAL; `sort` orders the rows (address: load-module
** order, FORTSTAT's; time and calls: largest first; name). A name longer than 8 characters
** (a map's, '(supervisor)') widens the name column instead of being cut. Never a partial or
** guessed figure passed off as exact: a trace cut short says INCOMPLETE TRACE under the
** header and at the end; rows whose figures a guess of which task ran could have changed end
** with " ?", a line under the header says so and lines after TOTAL give their bounds. */
enum { FST_FORTSTAT_BY_ADDRESS, FST_FORTSTAT_BY_TIME, FST_FORTSTAT_BY_CALLS, FST_FORTSTAT_BY_NAME };
typedef struct fst_fortstat_opts {
    int asa, digits, percent, sort;
    const struct fst_filter *filter;    /* --top, --percent-limit, --routine (filter.h), or NULL:
                                           the rows left out print as one "(N OTHERS)" row, so
                                           that the rows still add up to TOTAL */
} fst_fortstat_opts;
int fst_write_fortstat(FILE *out, const fst_profile *p, const fst_fortstat_opts *o);
/* The decimals the listing's seconds have (o->digits, or the automatic choice). */
int fst_fortstat_digits(const fst_profile *p, const fst_fortstat_opts *o);
/* --statements=N (formats/fortstat_stmt.c): after the listing, per each of the N hottest
** timed routines (by self time), its statements (formats/stmtprof.h rows) hottest first:
** STATEMENT (file:line, ISN), EXECUTIONS, TIME (SEC) in the listing's decimals, % of the
** routine's time, the source text; statements sharing code are named together, code with
** no statement is a row "(no statement)"; past 20 rows one line sums the rest, so the rows
** always add up to the routine's time. Same records as the listing (ASA with `asa`). */
struct fst_stmt_tab;
struct fst_stmtrow;
int fst_write_fortstat_stmts(FILE *out, const fst_profile *p, const fst_fortstat_opts *o,
                             const struct fst_stmt_tab *t, const struct fst_stmtrow *rows, size_t nrows, int nhot);

/* CSV, DESIGN §8: routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec; one row per
** timed routine in load-module order, then the rows (outside), (excluded) and (total),
** whose entry is empty, so that the columns add up: sum(self) + outside + excluded = total. */
int fst_write_csv(FILE *out, const fst_profile *p);
/* The same, with only the rows `f` keeps (filter.h; NULL: all); the ones it leaves out are
** one row FST_CSV_NOT_SHOWN (their calls and self figures added up, incl = self as for
** (outside)) before (outside), so that the columns still add up. fst-diff refuses a file
** with that row: it compares whole profiles. */
#define FST_CSV_NOT_SHOWN "(not shown)"
int fst_write_csv_filtered(FILE *out, const fst_profile *p, const fst_filter *f);

#endif
