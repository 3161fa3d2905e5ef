/* analyze/replay/window.c — --window=FROM:TO parsed and resolved to instruction numbers; see
** window.h. The cut itself is the replay's (analyze/replay/replay_win.c). */
#include "analyze/replay/window.h"
#include "analyze/profile/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOD_FX UINT64_C(125000)                 /* fst_fx per TOD unit (clock.h) */
#define SEC_TOD UINT64_C(4096000000)            /* TOD units per second */

static int bad(const fst_window *w, fst_err *err, const char *why)
{
    return fst_errf(err, "--window=%s: %s", w->spec, why);
}

/* Decimal digits to v; the end in *end. 0, or -1 (no digit, or too large). */
static int decimal(const char *s, const char **end, uint64_t *v)
{
    *v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (*v > (UINT64_MAX - 9) / 10)
            return -1;
        *v = *v * 10 + (uint64_t)(*p - '0');
    }
    *end = p;
    return p == s ? -1 : 0;
}

/* SEC[.DDDDDDDDD] to fst_fx: whole TOD units per second times the decimals, exactly. */
static int seconds(const char *s, const char **end, uint64_t *fx)
{
    uint64_t whole = 0, frac = 0, scale = 1;
    const char *p = s;
    if (*p != '.' && decimal(p, &p, &whole) < 0)
        return -1;
    if (*p == '.') {
        p++;
        int n = 0;
        for (; *p >= '0' && *p <= '9'; p++, n++) {
            if (n == 9)
                return -1;  /* below a nanosecond: not a TOD unit any more */
            frac = frac * 10 + (uint64_t)(*p - '0');
            scale *= 10;
        }
        if (!n && p - s == 1)
            return -1;
    }
    if (whole > UINT64_MAX / (SEC_TOD * TOD_FX) / 2)
        return -1;  /* past what fst_fx holds (clock.h: 10 hours) */
    /* frac/scale seconds = frac * 512e12 / scale fx: exact, 512e12 = 2^21 * 5^12 * 2^... */
    *fx = whole * SEC_TOD * TOD_FX + frac * (SEC_TOD * TOD_FX / scale);
    *end = p;
    return 0;
}

/* One edge at s: N, tod:HEX, s:SEC or SECs; empty before ':' or at the end. */
static int edge(const char *s, const char **end, int *kind, uint64_t *v)
{
    *kind = FST_WEDGE_NONE;
    *v = 0;
    *end = s;
    if (!*s || *s == ':')
        return 0;
    if (!strncasecmp(s, "tod:", 4)) {
        const char *p = s + 4;
        uint64_t t = 0;
        int n = 0;
        for (; (*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f'); p++, n++) {
            if (t >> 60)
                return -1;
            t = t << 4 | (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
        }
        if (!n || t > UINT64_MAX / TOD_FX)
            return -1;
        *kind = FST_WEDGE_TIME;
        *v = t * TOD_FX;
        *end = p;
        return 0;
    }
    if (!strncasecmp(s, "s:", 2)) {
        *kind = FST_WEDGE_TIME;
        return seconds(s + 2, end, v);
    }
    const char *p;
    uint64_t fx;
    if (seconds(s, &p, &fx) == 0 && (*p == 's' || *p == 'S')) {
        *kind = FST_WEDGE_TIME;
        *v = fx;
        *end = p + 1;
        return 0;
    }
    if (decimal(s, end, v) < 0)
        return -1;
    *kind = FST_WEDGE_INSN;
    return 0;
}

static int parse_call(fst_window *w, const char *s, fst_err *err)
{
    const char *colon = strrchr(s, ':');
    const char *end;
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof w->routine || decimal(colon + 1, &end, &w->nth) < 0 ||
        *end || !w->nth)
        return bad(w, err, "not a call: call:NAME:N, N its number from 1 (call:SUB1:3, SUB1's third call)");
    memcpy(w->routine, s, (size_t)(colon - s));
    w->routine[colon - s] = 0;
    return 0;
}

int fst_window_parse(fst_window *w, const char *arg, fst_err *err)
{
    memset(w, 0, sizeof *w);
    snprintf(w->spec, sizeof w->spec, "%s", arg);
    if (strlen(arg) >= sizeof w->spec)
        return bad(w, err, "too long");
    if (!strncasecmp(arg, "call:", 5))
        return parse_call(w, arg + 5, err);
    const char *p;
    if (!strchr(arg, ':') || edge(arg, &p, &w->from_kind, &w->from_v) < 0 || *p != ':' ||
        edge(p + 1, &p, &w->to_kind, &w->to_v) < 0 || *p)
        return bad(w, err, "not a window: FROM:TO, each an instruction number (1000), a TOD-clock value (tod:1F4000) "
                           "or seconds (s:1.5 or 1.5s) of the chosen clock since the trace's start, either empty "
                           "(the start, the end); or call:NAME:N");
    if (w->from_kind == w->to_kind && w->to_kind != FST_WEDGE_NONE && w->from_v >= w->to_v)
        return bad(w, err, w->from_v == w->to_v ? "an empty window (FROM equals TO)" : "FROM is after TO");
    if (w->from_kind == FST_WEDGE_NONE && w->to_kind == FST_WEDGE_TIME && !w->to_v)
        return bad(w, err, "an empty window (it ends at the trace's start)");
    if (w->from_kind != FST_WEDGE_TIME && w->to_kind != FST_WEDGE_TIME) {
        w->from = w->from_v;
        w->to = w->to_kind == FST_WEDGE_NONE ? UINT64_MAX : w->to_v;
        if (w->from == 0 && w->to == UINT64_MAX)
            return bad(w, err, "the whole trace (give FROM or TO)");
        w->resolved = 1;
    }
    return 0;
}

int fst_window_needs_locator(const fst_window *w) { return !w->resolved; }

/* ---- the first replay ---- */

struct fst_window_locator {
    const fst_window *w;
    uint64_t n;             /* instructions so far (EXEC events: in the trace's order) */
    fst_fx t;               /* their time */
    uint64_t before_from, before_to;   /* time edges: instructions that start before them */
    size_t r;               /* call:NAME:N: the routine, FST_NONE until the first event */
    int named;              /* 0 not looked up yet, 1 found, -1 not named */
    uint64_t calls;         /* its calls so far */
    uint32_t task;          /* the Nth call: its task, its depth, its first and returned-to */
    size_t depth;
    int in, out;
    uint64_t first, back;
    int cpus;               /* 0 no EXEC yet, 1 all on CPU `cpu`, 2 several CPUs */
    uint16_t cpu;
};

static void lookup(fst_window_locator *l, const fst_profile *p)
{
    l->named = -1;
    for (int pass = 0; pass < 2 && l->named < 0; pass++) /* exactly, then in any case */
        for (size_t i = 0; i < p->nr; i++)
            if (!(pass ? strcasecmp : strcmp)(p->r[i].name, l->w->routine)) {
                l->r = i;
                l->named = 1;
                break;
            }
}

static void on_event(void *ctx, const fst_event *e)
{
    fst_window_locator *l = ctx;
    if (e->kind == FST_EV_EXEC) {
        if (l->cpus < 2 && (!l->cpus || e->cpu != l->cpu)) { /* counted as priced: on one CPU, as taken */
            l->cpus++;
            l->cpu = e->cpu;
        }
        if (l->w->routine[0]) {
            l->n += e->n;
            return;
        }
        /* one at a time (the sink takes no batches): the time each starts at */
        l->before_from += l->t < l->w->from_v;
        l->before_to += l->t < l->w->to_v;
        l->n++;
        l->t += e->cost;
        return;
    }
    if (!l->named)
        lookup(l, e->profile);
    if (l->named < 0 || l->out)
        return;
    if (e->kind == FST_EV_CALL && !l->in && e->routine == l->r && e->counted && ++l->calls == l->w->nth) {
        l->in = 1;
        l->task = e->task;
        l->depth = e->depth;
        l->first = l->n;    /* the BALR's EXEC came before the CALL: the callee's first is next */
    } else if ((e->kind == FST_EV_RETURN || e->kind == FST_EV_UNWIND) && l->in && e->task == l->task &&
               e->depth < l->depth) {
        l->out = 1;
        l->back = l->n;     /* popped at the instruction returned to, before its EXEC */
    }
}

fst_window_locator *fst_window_locator_new(const fst_window *w, fst_sink *sink)
{
    fst_window_locator *l = fst_xcalloc(1, sizeof *l);
    l->w = w;
    l->r = FST_NONE;
    l->named = w->routine[0] ? 0 : 1;
    *sink = (fst_sink){ on_event, l,
                        w->routine[0] ? FST_WANT(FST_EV_EXEC) | FST_WANT_EXEC_BATCH | FST_WANT(FST_EV_CALL) |
                                        FST_WANT(FST_EV_RETURN) | FST_WANT(FST_EV_UNWIND)
                                      : FST_WANT(FST_EV_EXEC) };
    return l;
}

void fst_window_locator_free(fst_window_locator *l) { free(l); }

static void fmt_time(fst_fx t, char *buf, size_t cap)
{
    uint64_t ns = fst_fx_to_ns(t);
    snprintf(buf, cap, "%llu.%09llu s, tod:%llX", (unsigned long long)(ns / 1000000000u),
             (unsigned long long)(ns % 1000000000u), (unsigned long long)(t / TOD_FX));
}

static int resolve_call(fst_window *w, const fst_window_locator *l, fst_err *err)
{
    char why[200];
    if (l->named <= 0)
        return bad(w, err, l->named < 0 ? "no routine of that name in the program model"
                                        : "no routine of that name ran (the trace made no call)");
    if (!l->in) {
        snprintf(why, sizeof why, "%s was called %llu time%s, not %llu", l->w->routine, (unsigned long long)l->calls,
                 l->calls == 1 ? "" : "s", (unsigned long long)w->nth);
        return bad(w, err, why);
    }
    w->from = l->first;
    w->to = l->out ? l->back : UINT64_MAX;  /* a call still open at the trace's end: to its end */
    if (w->to == w->from)
        return bad(w, err, "that call ran no instruction");
    return 0;
}

int fst_window_resolve(fst_window *w, const fst_window_locator *l, fst_err *err)
{
    if (w->resolved)
        return 0;
    if (l->cpus > 1) /* EXECs come as priced, a CPU's one instruction late: not the trace's numbers */
        return bad(w, err, "a trace of several CPUs: give the window in instruction numbers (times and calls "
                           "are located on one CPU's traces only)");
    if (w->routine[0]) {
        if (resolve_call(w, l, err) < 0)
            return -1;
        w->resolved = 1;
        return 0;
    }
    char why[200], tm[64];
    fmt_time(l->t, tm, sizeof tm);
    if ((w->from_kind == FST_WEDGE_TIME && w->from_v > l->t) || (w->to_kind == FST_WEDGE_TIME && w->to_v > l->t)) {
        snprintf(why, sizeof why, "past the trace's end: its %llu instructions take %s",
                 (unsigned long long)l->n, tm);
        return bad(w, err, why);
    }
    w->from = w->from_kind == FST_WEDGE_TIME ? l->before_from : w->from_v;
    w->to = w->to_kind == FST_WEDGE_TIME ? l->before_to : w->to_kind == FST_WEDGE_INSN ? w->to_v : UINT64_MAX;
    if (w->to != UINT64_MAX && w->from >= w->to)
        return bad(w, err, w->from == w->to ? "no instruction starts in that window" : "FROM is after TO");
    w->resolved = 1;
    return 0;
}

int fst_window_check(const fst_window *w, uint64_t total, fst_err *err)
{
    char why[160];
    if (w->from < total && (w->to == UINT64_MAX || w->to <= total))
        return 0;
    snprintf(why, sizeof why, "past the trace's end: it holds %llu instructions (numbered 0 to %llu)",
             (unsigned long long)total, (unsigned long long)(total ? total - 1 : 0));
    return bad(w, err, why);
}
