/*
** formats/speedscope.c — a speedscope file (https://www.speedscope.app/file-format-schema.json,
** notes/profformats.md §3.3): one "evented" profile per task (analyze/tasks/tasks.h), the timed routines opening
** ('O') and closing ('C') in execution order, so speedscope's time-order view shows the
** run as it happened and its left-heavy and sandwich views the exact totals.
**
** The time axis counts what the timed routines executed (--unit=ns, the default: the
** clock's time in nanoseconds, "unit": "nanoseconds"; --unit=instructions: "unit":
** "none"): instructions outside every routine and those of --exclude'd routines do not
** advance it. So a profile's endValue is the sum of the timed routines' self figures,
** the same as the sum of the folded format's counts (in instructions), and each frame's
** self weight in speedscope is exactly csv's self figure for its routine: in ns, each
** routine's time is rounded as one running sum (fst_rounder) over all its intervals and
** tasks, and the time axis advances by those parts. So endValue, the sum of the routines'
** rounded self times, is within 1 ns per routine of their sum rounded once, and a frame's
** inclusive time (from its 'O' to its 'C') is within 1 ns per routine below it of csv's. Untimed routines are transparent; a
** recursion opens one frame per level. Frames still open at the end are closed there.
** --routine keeps only the stacks through the routines it names (as folded's): the time
** axis advances only while one of them is on the task's stack, said in each profile's name.
** Ownership: the context is freed by done. Errors: --unit's value (init); writing.
*/
#include "formats/format.h"
#include "formats/formats.h"
#include "formats/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct sev {
    uint64_t at;
    uint32_t frame;     /* a routine index */
    char type;          /* 'O' or 'C' */
} sev;

/* Events kept in memory per task, at most; more go to the temporary file all tasks share,
** in chunks of EVBUF. A task's buffer grows from a few events: a system runs thousands of
** tasks, most of which open few frames (16 000 tasks held 1 GB when each had a full
** buffer, and a file of its own each would run out of file descriptors). */
enum { EVBUF = 4096 };

typedef struct chunk {
    long off;           /* where in the spill file */
    uint32_t n;         /* events */
} chunk;

typedef struct cpu {
    sev *ev;
    size_t nev, capev;  /* in ev[] */
    chunk *ch;          /* the earlier events, in the spill file */
    size_t nch, capch;
    uint64_t total;     /* events in all */
    size_t *want;       /* the task's stack of timed routines, kept by CALL and RETURN */
    size_t nwant, capwant;
    size_t *open;       /* the frames open in the profile */
    size_t nopen, capopen;
    size_t same;        /* open[0..same) == want[0..same): no scan of the stack at any depth */
    uint64_t insns, now;    /* the time axis */
} cpu;

typedef struct ss {
    fst_tunit unit;
    fst_rounder *self;  /* per routine, over every task: its self time, rounded as one sum */
    size_t nself;
    cpu **c;            /* by task: each task is a profile with its own time axis */
    size_t nc;
    const fst_filter *flt;  /* --routine: only the stacks through the routines it keeps */
    unsigned char *keep;    /* per routine (fst_filter_keep_table, at the first event) */
    size_t nkeep;
    FILE *spill;        /* the tasks' earlier events (chunk), or NULL */
    int spill_err;
} ss;

/* Whether task c's stack, with the routine charged on top, runs through a routine kept. */
static int through(const ss *s, const cpu *c, size_t routine)
{
    if (!s->flt)
        return 1;
    if (routine < s->nkeep && s->keep[routine])
        return 1;
    for (size_t i = 0; i < c->nwant; i++)
        if (c->want[i] < s->nkeep && s->keep[c->want[i]])
            return 1;
    return 0;
}

static void *ss_init(const fst_fctx *fc, const fst_profile *p, fst_err *err)
{
    (void)p;
    int u = fst_tunit_parse(fst_fopt(fc, "unit"), FST_TU_NS);
    if (u < 0 || u == FST_TU_TOD)
        return fst_errf(err, "--unit: '%s' is not instructions or ns (speedscope has no TOD unit)",
                        fst_fopt(fc, "unit")), NULL;
    ss *s = fst_xcalloc(1, sizeof *s);
    s->unit = (fst_tunit)u;
    if (fst_filter_has_routine(fc->filter))
        s->flt = fc->filter;
    return s;
}

static void push_ev(ss *s, cpu *c, char type, size_t routine)
{
    if (c->nev == c->capev && c->capev < EVBUF) {
        c->capev = c->capev ? 2 * c->capev : 16;
        c->ev = fst_xrealloc(c->ev, c->capev * sizeof *c->ev);
    } else if (c->nev == EVBUF) {   /* memory stays the same however long the trace */
        if (!s->spill && !(s->spill = tmpfile()))
            s->spill_err = 1;
        if (c->nch == c->capch) {
            c->capch = c->capch ? 2 * c->capch : 4;
            c->ch = fst_xrealloc(c->ch, c->capch * sizeof *c->ch);
        }
        long off = s->spill && !fseek(s->spill, 0, SEEK_END) ? ftell(s->spill) : -1;
        if (off < 0 || fwrite(c->ev, sizeof *c->ev, c->nev, s->spill) != c->nev)
            s->spill_err = 1;
        c->ch[c->nch++] = (chunk){ off, (uint32_t)c->nev };
        c->nev = 0;
    }
    c->ev[c->nev++] = (sev){ c->now, (uint32_t)routine, type };
    c->total++;
}

static void grow(size_t **v, size_t *cap, size_t n)
{
    if (n > *cap) {
        *cap = n * 2;
        *v = fst_xrealloc(*v, *cap * sizeof **v);
    }
}

/* CALL or RETURN of a timed routine: the task's stack changes, the profile later. */
static void follow(cpu *c, const fst_event *e)
{
    if (e->kind == FST_EV_CALL) {
        grow(&c->want, &c->capwant, c->nwant + 1);
        c->want[c->nwant++] = e->routine;
    } else if (c->nwant)
        c->nwant--;
    if (c->same > c->nwant)
        c->same = c->nwant;
}

/* make `open` the task's stack with the charged routine on top, from where they differ */
static void sync_stack(ss *s, cpu *c, const fst_event *e)
{
    int extra = !c->nwant || c->want[c->nwant - 1] != e->routine; /* (supervisor): not on the stack */
    size_t n = c->nwant + (size_t)extra;
    if (c->same == c->nwant && c->nopen == n && (!extra || c->open[c->nwant] == e->routine))
        return;
    while (c->nopen > c->same)
        push_ev(s, c, 'C', c->open[--c->nopen]);
    grow(&c->open, &c->capopen, n);
    for (; c->nopen < c->nwant; c->nopen++) {
        c->open[c->nopen] = c->want[c->nopen];
        push_ev(s, c, 'O', c->open[c->nopen]);
    }
    if (extra) {
        c->open[c->nopen++] = e->routine;
        push_ev(s, c, 'O', e->routine);
    }
    c->same = c->nwant;
}

static void ss_event(void *ctx, const fst_event *e)
{
    ss *s = ctx;
    if (e->task == FST_NOTASK)
        return;
    size_t k = e->task;
    if (k >= s->nc) {
        s->c = fst_xrealloc(s->c, (k + 1) * sizeof *s->c);
        memset(s->c + s->nc, 0, (k + 1 - s->nc) * sizeof *s->c);
        s->nc = k + 1;
    }
    if (!s->c[k])
        s->c[k] = fst_xcalloc(1, sizeof *s->c[k]);
    cpu *c = s->c[k];
    if (e->kind == FST_EV_CALL || e->kind == FST_EV_RETURN || e->kind == FST_EV_UNWIND) {
        if (e->profile->r[e->routine].timed)
            follow(c, e);
        return;
    }
    if (e->kind != FST_EV_EXEC || e->charged != FST_CHARGE_ROUTINE)
        return;
    if (s->flt && !s->keep) {
        s->keep = fst_filter_keep_table(s->flt, e->profile);
        s->nkeep = e->profile->nr;
    }
    if (!through(s, c, e->routine))
        return;     /* not a stack through a routine --routine keeps: no time passes */
    sync_stack(s, c, e);
    c->insns++;
    if (e->routine >= s->nself) {
        size_t n = e->profile->nr > e->routine ? e->profile->nr : e->routine + 1;
        s->self = fst_xrealloc(s->self, n * sizeof *s->self);
        for (size_t i = s->nself; i < n; i++)
            s->self[i] = (fst_rounder){ s->unit, 0, 0 };
        s->nself = n;
    }
    /* the top frame's interval grows by its routine's next rounded part: so each frame's
    ** self weight adds up to its routine's self time rounded once, csv's figure */
    c->now += fst_rounder_next(&s->self[e->routine], e->cost, 1);
}

static int put_ev(FILE *out, const sev *v, int first)
{
    return fprintf(out, "%s\n      {\"type\": \"%c\", \"at\": %llu, \"frame\": %u}", first ? "" : ",", v->type,
                   (unsigned long long)v->at, (unsigned)v->frame) < 0;
}

/* the task's events: the spilled ones, then those in memory */
static int put_events(FILE *out, const ss *s, cpu *c)
{
    int rc = s->spill_err;
    uint64_t done = 0;
    sev buf[EVBUF];
    for (size_t k = 0; k < c->nch && !rc; k++) {
        rc = fseek(s->spill, c->ch[k].off, SEEK_SET) || fread(buf, sizeof *buf, c->ch[k].n, s->spill) != c->ch[k].n;
        for (size_t i = 0; i < c->ch[k].n && !rc; i++)
            rc = put_ev(out, &buf[i], !done++);
    }
    for (size_t i = 0; i < c->nev && !rc; i++)
        rc = put_ev(out, &c->ev[i], !done++);
    return rc || done != c->total ? -1 : 0;
}

static int write_profile(FILE *out, ss *s, const fst_profile *p, size_t k, cpu *c, const char *name, int first)
{
    while (c->nopen)
        push_ev(s, c, 'C', c->open[--c->nopen]);
    int rc = fprintf(out, "%s\n    {\"type\": \"evented\", \"name\": ", first ? "" : ",") < 0;
    char title[900], win[300] = "", only[300] = "";
    if (fst_fmt_window(p, win + 2, sizeof win - 2)) /* a part of the run (--window): in the title */
        win[0] = ',', win[1] = ' ';
    if (s->flt) {   /* and the stacks kept (--routine) */
        snprintf(only, sizeof only, ", only the stacks through ");
        fst_filter_said(s->flt, only + strlen(only), sizeof only - strlen(only));
    }
    if (p->ntasks > 1)
        snprintf(title, sizeof title, "%s (task %zu, clock %s%s%s)", name, k, p->clock, win, only);
    else
        snprintf(title, sizeof title, "%s (clock %s%s%s)", name, p->clock, win, only);
    rc |= fst_json_str(out, title) < 0;
    rc |= fprintf(out, ", \"unit\": \"%s\", \"startValue\": 0, \"endValue\": %llu,\n     \"events\": [",
                  s->unit == FST_TU_INSNS ? "none" : "nanoseconds", (unsigned long long)c->now) < 0;
    rc = rc || put_events(out, s, c);
    return rc | (fprintf(out, "\n     ]}") < 0);
}

static int ss_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    ss *s = ctx;
    const char *name = fc->tr ? fst_tr_header(fc->tr, FST_HK_PROGRAM) : NULL;
    if (!name || !*name)
        name = fc->trace_path ? fc->trace_path : "trace";
    const char *b = strrchr(name, '/');
    name = b && b[1] ? b + 1 : name;
    /* frame i is routine i: every routine is listed, so indices need no mapping */
    int rc = fprintf(out, "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n"
                          " \"exporter\": \"fst-report\", \"name\": ") < 0;
    rc |= fst_json_str(out, name) < 0;
    rc |= fprintf(out, ", \"activeProfileIndex\": 0,\n \"shared\": {\"frames\": [") < 0;
    for (size_t i = 0; i < p->nr && !rc; i++) {
        rc |= fprintf(out, "%s\n    {\"name\": ", i ? "," : "") < 0;
        rc |= fst_json_str(out, p->r[i].name) < 0;
        rc |= fprintf(out, ", \"file\": ") < 0;
        rc |= fst_json_str(out, name) < 0;
        rc |= fprintf(out, "}") < 0;
    }
    rc |= fprintf(out, "\n  ]},\n \"profiles\": [") < 0;
    int first = 1;
    for (size_t k = 0; k < s->nc && !rc; k++)
        if (s->c[k] && s->c[k]->total) {
            rc |= write_profile(out, s, p, k, s->c[k], name, first);
            first = 0;
        }
    if (first && !rc) /* nothing timed ran: one empty profile, as the schema wants one */
        rc |= fprintf(out, "\n    {\"type\": \"evented\", \"name\": \"%s\", \"unit\": \"none\", \"startValue\": 0, "
                           "\"endValue\": 0, \"events\": []}", "empty") < 0;
    rc |= fprintf(out, "\n ]}\n") < 0;
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

static void ss_done(void *ctx)
{
    ss *s = ctx;
    if (!s)
        return;
    free(s->keep);
    for (size_t i = 0; i < s->nc; i++)
        if (s->c[i]) {
            free(s->c[i]->ev);
            free(s->c[i]->ch);
            free(s->c[i]->open);
            free(s->c[i]->want);
            free(s->c[i]);
        }
    free(s->c);
    free(s->self);
    if (s->spill)
        fclose(s->spill);
    free(s);
}

static const fst_option ss_opts[] = {
    { 0, "unit", "U", "ns (default) or tod (1/4096 us) for callgrind's time event; instructions, ns or tod for folded counts; instructions or ns for speedscope", 0 },
    { 0 },
};

const fst_format fst_format_speedscope = {
    "speedscope", "speedscope JSON: an evented profile per task, timed routines opening and closing in order", 0,
    ss_opts, ss_init, ss_event, ss_write, ss_done, FST_FILTER_ROUTINE,
    1,  /* flat: its own aggregate (the stacks, from the events) */
};
