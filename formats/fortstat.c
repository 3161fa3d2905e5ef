/* formats/fortstat.c — FORTSTAT's STATOUT listing; see formats.h. */
#include "formats/format.h"
#include "formats/formats.h"
#include "common/quote.h"

#include <errno.h>

#include <string.h>

/* One line; with ASA, padded to 132 characters after the control character. */
static int line(FILE *out, int asa, char cc, const char *text)
{
    if (asa)
        return fprintf(out, "%c%-132.132s\n", cc, text) < 0 ? -1 : 0;
    return fprintf(out, "%s\n", text) < 0 ? -1 : 0;
}

int fst_write_fortstat(FILE *out, const fst_profile *p, int asa, int digits)
{
    char buf[160], sec[32];
    int w = 12 + digits - 2;    /* the TIME (SEC) column, wider by each extra decimal */
    int rc = line(out, asa, '1', "ROUTINE      CALLED   TIME (SEC)");
    if (!rc)
        rc = line(out, asa, '0', "");
    uint64_t calls = 0;
    fst_fx total = 0;
    for (size_t i = 0; i < p->nr && !rc; i++) {
        const fst_routine *r = &p->r[i];
        if (!r->timed)
            continue;
        fst_fmt_secn(r->self_cost, digits, sec);
        char nm[sizeof r->name];
        snprintf(buf, sizeof buf, "%c%-8.8s %10llu %*s", r->mainline ? '*' : ' ', fst_printable(r->name, nm, sizeof nm),
                 (unsigned long long)r->calls, w, sec);
        rc = line(out, asa, ' ', buf);
        calls += r->calls;
        total += r->self_cost;
    }
    if (!rc)
        rc = line(out, asa, ' ', "");
    fst_fmt_secn(total, digits, sec);
    snprintf(buf, sizeof buf, " %-8s %10llu %*s", "TOTAL", (unsigned long long)calls, w, sec);
    if (!rc)
        rc = line(out, asa, ' ', buf);
    if (!rc && !p->complete) { /* never a silently partial report */
        snprintf(buf, sizeof buf, "INCOMPLETE TRACE: %.120s", p->incomplete);
        rc = line(out, asa, '0', buf);
    }
    return rc;
}

static void *fortstat_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    int d;
    return fst_digits_opt(fst_fopt(fc, "digits"), &d, err) < 0 ? NULL : (void *)fc;  /* options good */
}

static int write_fortstat(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    int d;
    if (fst_digits_opt(fst_fopt(fc, "digits"), &d, err) < 0)
        return -1;
    if (fst_write_fortstat(out, p, fst_fopt(fc, "asa") != NULL, d))
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static const fst_option fortstat_options[] = {
    { 0, "asa", NULL, "133-byte records with ASA carriage control, as STATOUT (RECFM=FBA)", 0 },
    { 0, "digits", "N", "decimals of the seconds (2-9; default 2, as FORTSTAT and prof print them)", 0 },
    { 0 }
};

const fst_format fst_format_fortstat = {
    "fortstat", "FORTSTAT's listing (1971): ROUTINE CALLED TIME (SEC), the mainline marked '*'", 0,
    fortstat_options, fortstat_init, NULL, write_fortstat, NULL,
};
