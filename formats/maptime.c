/*
** formats/maptime.c — `fst-report --format=maptime`: LOGTIME's sampling and MAPTIME's
** histograms (seed 003, DESIGN §7), from the same replay as every other report.
**
** LOGTIME, simulated. LOGTIME set the virtual interval timer to `timeunit` units (X'0100'
** = 1/300 s: the timer's bit 23 counts 1/300 s, so one unit is 1/76800 s) and, at each
** expiry, counted the executing address in its LOGDATA table. Here the timer runs over
** the replay's CPU time (the --clock, DESIGN §4): every EXEC adds its cost; whenever the
** interval expires (possibly several times in one long instruction) the instruction's
** address is recorded once per expiry. Integer arithmetic only: with t the cost in fst_fx
** (1 s = 512e12 fx), an interval is timeunit * 512e12 / 76800 = timeunit * 2e10 / 3 fx,
** so the timer accumulates 3 t and expires every timeunit * 2e10. Wait states are no CPU
** time (no EXEC), so they advance nothing. --exact records every instruction's cost at
** its address instead: time-weighted histograms, no sampling error.
**
** What is recorded. Every EXEC advances the timer, whatever --exclude and --cpu say (the
** virtual timer ran in problem and supervisor state alike); an expiry is recorded unless
**   - LOGTIME's flag is X'80': the program stores it at absolute X'00005C' (X'00':
**     record). Detected from the EXEC events of MVI, OI, NI and XI whose base register
**     is 0 and whose displacement is X'05C' (the immediate gives the new value, bit 0
**     decides, as LOGTIME tested it). The flag takes effect after the storing
**     instruction: MVI X'5C',X'80' is itself recorded, MVI X'5C',X'00' is not. NOT
**     detected, because a trace carries no register or storage contents: stores whose
**     address comes from a base or index register (MVI 0(R1) with R1 = X'5C'), stores
**     whose value comes from a register or storage (ST, STC, STM, MVC, ...), and changes
**     made by the operator or by I/O. The flag starts at X'00' and is reset to X'00' at
**     each new run (an IPL loads low core again).
**   - --window=NAME is given and no routine of that name is on the event's stack.
**
** Runs. LOGTIME appended one LOGDATA image per run to LOGTIME LOGDATA; MAPTIME printed
** one histogram per image. A new image starts (unless --one-image) when more
** instructions follow
**   - a disabled wait (the end of a standalone run: a new IPL), or
**   - a MARK gap (tracing was off: LOGTIME WAIT ... LOGTIME TIME).
** The EXEC of the instruction that loaded the wait PSW is priced when its successor is
** seen, so it comes after the WAIT event: the first EXEC after a WAIT still belongs to
** the old run, the next one starts the new image.
**
** Sections (MAPTIME's load map) are the profile's routines by entry address, each
** extending to the next one, the last to the end of LOGTIME's range. Options are
** checked in init (exit 2 before the replay); names (--window, NAME requests) only when
** the routines are known: --window at the first event (or at the listing when there was
** none), NAME requests when the listing is written.
*/
#include "common/opt.h"
#include "formats/format.h"
#include "formats/maptime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAXOPT = 256 };
#define MT_TICK UINT64_C(20000000000) /* one timer unit (1/76800 s) in fx, times 3 */

typedef struct mt_ctx {
    mt_listing l;
    mt_req *rs;
    size_t nr;
    const char *win[MAXOPT];
    size_t nwin;
    size_t *winr;           /* the window routines' indices, once resolved */
    size_t nwinr;
    int resolved, merge;
    uint64_t thr, acc;      /* the interval (x3) and the time accumulated in it (x3) */
    int flag_off;           /* LOGTIME's X'5C' flag is X'80' */
    int after_wait;         /* 1: a disabled wait; 2: and the EXEC that loaded it */
    int next_image;         /* the next EXEC starts a new image */
    int used;               /* the current image has seen an EXEC */
    mt_image *im;
    size_t nim;
    int failed;
    fst_err err;
} mt_ctx;

/* ---- the sparse LOGDATA image ---- */

static size_t slot(const mt_image *im, uint64_t k)
{
    return (size_t)((k >> 1) * 0x9E3779B97F4A7C15ull >> 20) & (im->cap - 1);
}

static void image_add(mt_image *im, uint64_t addr, uint64_t v)
{
    uint64_t k = addr + 1; /* 0 = empty */
    if ((im->n + 1) * 2 > im->cap) {
        mt_image old = *im;
        im->cap = old.cap ? old.cap * 2 : 256;
        im->key = fst_xcalloc(im->cap, sizeof *im->key);
        im->val = fst_xcalloc(im->cap, sizeof *im->val);
        im->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i])
                image_add(im, old.key[i] - 1, old.val[i]);
        free(old.key);
        free(old.val);
    }
    size_t i = slot(im, k);
    while (im->key[i] && im->key[i] != k)
        i = (i + 1) & (im->cap - 1);
    if (!im->key[i]) {
        im->key[i] = k;
        im->n++;
    }
    im->val[i] += v;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void mt_image_sorted(const mt_image *im, uint64_t **addr, uint64_t **val)
{
    uint64_t (*kv)[2] = fst_xcalloc(im->n + 1, sizeof *kv);
    size_t n = 0;
    for (size_t i = 0; i < im->cap; i++)
        if (im->key[i]) {
            kv[n][0] = im->key[i] - 1;
            kv[n++][1] = im->val[i];
        }
    qsort(kv, n, sizeof *kv, cmp_u64); /* by address: the first of the pair */
    *addr = fst_xcalloc(n + 1, sizeof **addr);
    *val = fst_xcalloc(n + 1, sizeof **val);
    for (size_t i = 0; i < n; i++) {
        (*addr)[i] = kv[i][0];
        (*val)[i] = kv[i][1];
    }
    free(kv);
}

/* ---- the sink ---- */

static void new_image(mt_ctx *c)
{
    c->im = fst_xrealloc(c->im, (c->nim + 1) * sizeof *c->im);
    memset(&c->im[c->nim++], 0, sizeof *c->im);
    c->acc = 0;
    c->used = 0;
}

static void resolve_window(mt_ctx *c, const fst_profile *p)
{
    c->resolved = 1;
    c->winr = fst_xcalloc(c->nwin + 1, sizeof *c->winr);
    for (size_t w = 0; w < c->nwin; w++) {
        size_t r = 0;
        while (r < p->nr && strcasecmp(p->r[r].name, c->win[w]))
            r++;
        if (r == p->nr && !c->failed) {
            c->failed = 1;
            fst_errf(&c->err, "--window=%s: no routine of that name", c->win[w]);
        }
        c->winr[c->nwinr++] = r;
    }
}

static int in_window(const mt_ctx *c, const fst_event *e)
{
    if (!c->nwin)
        return 1;
    for (size_t i = 0; i < e->depth; i++)
        for (size_t w = 0; w < c->nwinr; w++)
            if (e->stack[i] == c->winr[w])
                return 1;
    return 0;
}

/* LOGTIME's flag: MVI/OI/NI/XI X'5C' with base 0 (SI: op, I2, B1D1 D1). */
static void flag_store(mt_ctx *c, const fst_insn *d)
{
    const uint8_t *b = d->bytes;
    if (d->len != 4 || (b[2] >> 4) != 0 || (((unsigned)(b[2] & 0xF) << 8) | b[3]) != 0x5C)
        return;
    uint8_t cur = c->flag_off ? 0x80 : 0x00, v;
    switch (b[0]) {
    case 0x92: v = b[1]; break;                     /* MVI */
    case 0x96: v = (uint8_t)(cur | b[1]); break;    /* OI */
    case 0x94: v = (uint8_t)(cur & b[1]); break;    /* NI */
    case 0x97: v = (uint8_t)(cur ^ b[1]); break;    /* XI */
    default: return;
    }
    c->flag_off = (v & 0x80) != 0;
}

static void exec(mt_ctx *c, const fst_event *e)
{
    if (c->after_wait == 1)
        c->after_wait = 2;              /* the instruction that loaded the wait PSW */
    else if (c->after_wait == 2) {
        c->after_wait = 0;
        c->next_image = 1;
        c->flag_off = 0;                /* a new IPL: low core loaded again */
    }
    if (c->next_image && c->used && !c->merge)
        new_image(c);
    c->next_image = 0;
    c->used = 1;
    if (e->other_space)
        return;     /* --space: another address space's instructions, maybe at the same addresses */
    uint64_t v = e->cost;
    if (e->profile && e->profile->sampled && !c->l.exact)
        v = 1; /* real LOGTIME data: each sample is one interval-timer interrupt */
    else if (!c->l.exact) {
        c->acc += 3 * e->cost;
        v = c->acc / c->thr;
        c->acc %= c->thr;
    }
    if (v && !c->flag_off && in_window(c, e))
        image_add(&c->im[c->nim - 1], e->insn->addr, v);
    flag_store(c, e->insn);
}

static void mt_event(void *ctx, const fst_event *e)
{
    mt_ctx *c = ctx;
    if (!c->resolved && e->profile)
        resolve_window(c, e->profile);
    switch (e->kind) {
    case FST_EV_EXEC: exec(c, e); break;
    case FST_EV_WAIT: if (e->cls == 1) c->after_wait = 1; break;
    case FST_EV_MARK: if (e->code == FST_MARK_GAP) c->next_image = 1; break;
    default: break;
    }
}

/* ---- options ---- */

static int hexopt(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *v, fst_err *err)
{
    uint64_t x;
    if (fst_parse_u64(s, 16, &x) || x < min || x > max)
        return fst_errf(err, "--%s=%s: a hexadecimal number from %llX to %llX", name, s,
                        (unsigned long long)min, (unsigned long long)max);
    *v = x;
    return 0;
}

static int range_opt(mt_ctx *c, const char *s, fst_err *err)
{
    const char *dash = strchr(s, '-');
    char a[32];
    if (!dash || (size_t)(dash - s) >= sizeof a)
        return fst_errf(err, "--range=%s: ADDRESS0-ADDRESS1, in hexadecimal (20000-27FFF)", s);
    snprintf(a, sizeof a, "%.*s", (int)(dash - s), s);
    if (hexopt("range", a, 0, 0xFFFFFFFFFFFFull, &c->l.a0, err) ||
        hexopt("range", dash + 1, 0, 0xFFFFFFFFFFFFull, &c->l.a1, err))
        return -1;
    if (c->l.a1 < c->l.a0)
        return fst_errf(err, "--range=%s: address1 is below address0", s);
    c->l.have_range = 1;
    return 0;
}

static int requests(mt_ctx *c, const fst_fctx *fc, fst_err *err)
{
    const char *v[MAXOPT];
    size_t n = fst_fopt_all(fc, "request", v, MAXOPT);
    for (size_t i = 0; i < n; i++) {
        mt_req r;
        int k = mt_req_parse(v[i], "--request", &r, err);
        if (k < 0)
            return -1;
        if (k == 0)
            return fst_errf(err, "--request='%s': an empty request or TERM", v[i]);
        c->rs = fst_xrealloc(c->rs, (c->nr + 1) * sizeof *c->rs);
        c->rs[c->nr++] = r;
    }
    const char *file = fst_fopt(fc, "requests");
    if (file && mt_req_file(file, &c->rs, &c->nr, err))
        return -1;
    if (c->nr == 0) { /* what the LOGTIME exec asked: sections, then spans >= 0.5% */
        char line[64];
        snprintf(line, sizeof line, "SPAN 0 0 %llX 0.5", (unsigned long long)c->l.lspan);
        c->rs = fst_xcalloc(2, sizeof *c->rs);
        mt_req_parse("SPAN 0 0 0 0.0", "default", &c->rs[0], NULL);
        mt_req_parse(line, "default", &c->rs[1], NULL);
        c->nr = 2;
    }
    return 0;
}

static void mt_done(void *ctx)
{
    mt_ctx *c = ctx;
    if (!c)
        return;
    for (size_t i = 0; i < c->nim; i++) {
        free(c->im[i].key);
        free(c->im[i].val);
    }
    free(c->im);
    free(c->rs);
    free(c->winr);
    free(c);
}

static void *mt_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    mt_ctx *c = fst_xcalloc(1, sizeof *c);
    const char *s;
    c->l.lspan = 2;
    c->l.pm = fc->pm;
    c->l.timeunit = 0x100;
    c->l.exact = fst_fopt(fc, "exact") != NULL;
    c->merge = fst_fopt(fc, "one-image") != NULL;
    c->l.svg = fst_fopt(fc, "svg") != NULL;
    int rc = 0;
    if ((s = fst_fopt(fc, "range")))
        rc = range_opt(c, s, err);
    if (!rc && (s = fst_fopt(fc, "span")))
        rc = hexopt("span", s, 1, 0x1000000, &c->l.lspan, err);
    if (!rc && (s = fst_fopt(fc, "timeunit")))
        rc = hexopt("timeunit", s, 1, 0x7FFFFFF, &c->l.timeunit, err);
    if (!rc)
        rc = requests(c, fc, err);
    c->nwin = fst_fopt_all(fc, "window", c->win, MAXOPT);
    if (rc) {
        mt_done(c);
        return NULL;
    }
    if (c->l.exact)
        c->l.timeunit = 0;
    c->thr = c->l.timeunit * MT_TICK;
    new_image(c);
    return c;
}

static int mt_write_fmt(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    mt_ctx *c = ctx;
    if (!c->resolved) /* no event at all: the names are still checked */
        resolve_window(c, p);
    if (c->failed) {
        *err = c->err;
        return -1;
    }
    const char *prog = fc->tr ? fst_tr_header(fc->tr, FST_HK_PROGRAM) : NULL;
    const char *base = prog ? strrchr(prog, '/') : NULL;
    prog = base ? base + 1 : prog && *prog ? prog : fc->trace_path ? fc->trace_path : "trace";
    if (mt_write(out, &c->l, p, prog, c->rs, c->nr, c->im, c->nim, err))
        return -1;
    if (fflush(out) || ferror(out))
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static const fst_option mt_options[] = {
    { 0, "range", "A0-A1", "LOGTIME's monitored range, hex (default: the lowest routine up)", 0 },
    { 0, "span", "HEX", "LOGTIME's span size in bytes, hex (default 2)", 0 },
    { 0, "timeunit", "HEX", "LOGTIME's timer interval in units of 1/76800 s, hex (default 100 = 300 per second)", 0 },
    { 0, "exact", NULL, "time-weighted: every instruction's time instead of timer samples", 0 },
    { 0, "request", "REQ", "a MAPTIME request: 'SPAN a0 a1 spansize pct' or 'NAME r0 r1 spansize pct' (repeatable)", 0 },
    { 0, "requests", "FILE", "MAPTIME requests, one per line, up to TERM or an empty line", 0 },
    { 0, "window", "NAME", "record only while routine NAME is on the stack (repeatable)", 0 },
    { 0, "one-image", NULL, "one LOGDATA image for the whole trace, not one per run", 0 },
    { 0, "svg", NULL, "draw the histograms as one self-contained SVG instead of the listing", 0 },
    { 0 }
};

const fst_format fst_format_maptime = {
    "maptime", "LOGTIME/MAPTIME (1980): interval-timer samples or exact time per control section and span", 0,
    mt_options, mt_init, mt_event, mt_write_fmt, mt_done, 0,
    1,  /* flat: its own aggregate, and calls and self figures */
};
