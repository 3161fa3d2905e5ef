/*
** formats/json.c — the whole profile as one JSON object (fst-report --format=json).
**
** Schema (version 1). Every count is an integer; an integer above 2^53 - 1, which a
** JavaScript number cannot hold exactly, is written as a string of its decimal digits
** ("9007199254740993"): read every integer field as "number or digit string". Times are
** given twice: `*_fx` exact, in fst's fixed-point unit (analyze/cost/clock.h: 1 ns = 512000 fx,
** 1 TOD unit = 125000 fx, 1 s = 512e12 fx: 2^53 fx is 17.6 s, so a longer run has string
** time_fx values), and
** `*_ns` rounded to the nearest nanosecond, ties up, as csv's seconds are (so *_ns / 1e9
** is csv's self_sec / incl_sec, digit for digit).
**
** {
**   "format": "fst-profile", "version": 1,
**   "trace": {
**     "path": string,                    the trace file given to fst-report
**     "header": { KEY: string, ... },    the trace's header (arch, source, hercules,
**                                        command, program, range, traceopt, clock), those present
**     "complete": bool,                  the capture ended normally and the trace is whole
**     "incomplete": string | null        why not
**   },
**   "window": string,                    only with --window: the window as given (analyze/replay/window.h),
**   "window_instructions": { "from", "to" }   and the trace's instructions it covers, [from, to)
**   "clock": string,                     the clock that priced the instructions (mips:R, model...)
**   "units": { "fx_per_ns": 512000, "fx_per_tod": 125000 },
**   "time_policy": { "cpu": "all" | "problem", "supervisor": "task" | "row" }
**                                        how supervisor time was charged (profile.h)
**   "mainline": string | null,           the first mainline's name, null when none was entered
**   "totals":   { "instructions", "time_fx", "time_ns" },   everything executed
**   "outside":  { "instructions", "time_fx", "time_ns" },   before/after the mainline
**   "excluded": { "instructions", "time_fx", "time_ns" },   --exclude / --cpu=problem
**   "events": { "program_checks", "interruptions", "waits", "unwinds", "open_frames",
**               "unmodeled", "svcs", "dispatches", "interruptions_in_routines",
**               "tasks_new", "tasks_guessed", "tasks_redirected" },
**                                        counts of the replay (unmodeled: instructions the
**                                        cost model had no row for; the task counts: tasks.h)
**   "uncertain": { "dispatches", "calls", "instructions" }
**                                        what fst had to guess of which task ran (tasks.h)
**                                        leaves uncertain: guessed or inferred dispatches, and
**                                        the calls and instructions of the tasks they touched
**                                        (csv --meta's '# uncertain:' lines: the same counts)
**   "pricing": {                         how the instructions were priced (analyze/profile/pricing.h)
**     "rule": int, "default": int,       instructions priced by a class rule, at the default
**     "undecoded": int,                  instructions the decoder did not know
**     "unpriced": [ {"mnemonic": string, "opcode": string, "instructions": int,
**                    "how": "rule" | "default", "rule": string | null}, ... ],
**                                        per opcode priced without a row, most executed first
**     "undecoded_opcodes": [ {"opcode": string, "instructions": int}, ... ]
**   },
**   "tasks": [ {                         every task, in order of appearance (analyze/tasks/tasks.h)
**     "id": int, "space": string,        CR1 in hex, "real" (DAT off) or "unknown"
**     "first": string,                   hex address of its first instruction
**     "mainline": string | null,         the routine it entered as its mainline
**     "instructions", "problem_instructions", "time_fx", "time_ns",
**     "uncertain": bool                  a guess of which task ran touched it: its own
**                                        figures may be those of the tasks it was guessed
**                                        among (the routines' bounds still hold)
**   }, ... ],
**   "routines": [ {                      every routine of the program model, load-module order
**                                        (with --routine: those it names, and "arcs" only the
**                                        arcs to or from them; "totals" stay the whole run's)
**     "index": int,                      its position in this array (arcs refer to it)
**     "name": string, "entry": int,      absolute entry address
**     "entry_hex": string,               the same, hex, as csv prints it ("20020")
**     "fortran": "G" | "H" | null,       FORTRAN-compatible identifier found at the entry
**     "timed": bool, "excluded": bool, "mainline": bool,
**     "calls": int,                      calls (DESIGN §3; the mainline's first entry is not one)
**     "self_instructions", "incl_instructions", "self_time_fx", "incl_time_fx",
**     "self_time_ns", "incl_time_ns"     self / inclusive (a recursion counted once);
**                                        all 0 for routines that are not timed, whose
**                                        instructions belong to the nearest timed caller
**     "calls_uncertain", "self_uncertain" the true calls and self instructions lie within
**                                        these of the figures above (0: exact; tasks.h)
**   }, ... ],
**   "arcs": [ {                          caller -> callee pairs, in order of first call
**     "caller": int | null,              routine index, null = from outside
**     "callee": int,
**     "caller_name": string | null, "callee_name": string,
**     "count": int,                      calls
**     "instructions", "time_fx", "time_ns"   the callee's inclusive cost over these calls
**   }, ... ]
** }
**
** Invariants a reader can check: sum(routines[].self_instructions) + outside.instructions
** + excluded.instructions == totals.instructions, and the same in *_fx.
** Ownership: nothing kept. Errors: writing (errno in the message).
*/
#include "formats/format.h"
#include "formats/jsonw.h"
#include "analyze/profile/pricing.h"

#include <errno.h>
#include <string.h>

/* An unsigned integer as JSON keeps it exact in every reader: a number up to 2^53 - 1
** (the largest integer a JavaScript number holds exactly), a decimal string above (time_fx
** passes 2^53 after 17.6 s). Rotating buffers: one fprintf uses at most 11. */
static const char *ju(uint64_t v)
{
    static char buf[16][24];
    static unsigned k;
    char *b = buf[k++ % 16];
    snprintf(b, sizeof buf[0], v > (UINT64_C(1) << 53) - 1 ? "\"%llu\"" : "%llu", (unsigned long long)v);
    return b;
}

static int cost3(FILE *out, const char *key, uint64_t insns, fst_fx fx, const char *end)
{
    return fprintf(out, "  \"%s\": {\"instructions\": %s, \"time_fx\": %s, \"time_ns\": %s}%s\n", key,
                   ju(insns), ju(fx), ju(fst_fx_to_ns(fx)), end) < 0;
}

static int kv_str(FILE *out, const char *pre, const char *key, const char *val, const char *post)
{
    int rc = fprintf(out, "%s\"%s\": ", pre, key) < 0;
    rc |= (val ? fst_json_str(out, val) : fprintf(out, "null")) < 0;
    return rc | (fprintf(out, "%s", post) < 0);
}

static int trace_part(FILE *out, const fst_fctx *fc, const fst_profile *p)
{
    static const char *const keys[] = { FST_HK_ARCH, FST_HK_SOURCE, FST_HK_HERCULES, FST_HK_COMMAND,
                                        FST_HK_PROGRAM, FST_HK_RANGE, FST_HK_TRACEOPT, FST_HK_CLOCK };
    int rc = fprintf(out, "  \"trace\": {\n") < 0;
    rc |= kv_str(out, "    ", "path", fc->trace_path ? fc->trace_path : "", ",\n    \"header\": {");
    const char *sep = "";
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = fc->tr ? fst_tr_header(fc->tr, keys[i]) : NULL;
        if (!v)
            continue;
        rc |= kv_str(out, sep, keys[i], v, "");
        sep = ", ";
    }
    rc |= fprintf(out, "},\n    \"complete\": %s,\n", p->complete ? "true" : "false") < 0;
    rc |= kv_str(out, "    ", "incomplete", p->complete ? NULL : p->incomplete, "\n  },\n");
    if (p->window) { /* a part of the run (--window): instructions [from, to) of the trace */
        rc |= kv_str(out, "  ", "window", p->win_spec, "");
        rc |= fprintf(out, ",\n  \"window_instructions\": {\"from\": %s, \"to\": %s},\n", ju(p->win_from),
                      ju(p->win_from + p->total_insns)) < 0;
    }
    rc |= kv_str(out, "  ", "clock", p->clock, ",\n  \"units\": {\"fx_per_ns\": 512000, \"fx_per_tod\": 125000},\n");
    rc |= fprintf(out, "  \"time_policy\": {\"cpu\": \"%s\", \"supervisor\": \"%s\"},\n",
                  fc->ro && fc->ro->cpu_problem ? "problem" : "all", p->supervisor == FST_SUP_ROW ? "row" : "task") < 0;
    return rc | kv_str(out, "  ", "mainline", p->mainline >= 0 ? p->r[p->mainline].name : NULL, ",\n");
}

static int routine(FILE *out, const fst_profile *p, size_t i, int last)
{
    const fst_routine *r = &p->r[i];
    int rc = fprintf(out, "    {\"index\": %zu, ", i) < 0;
    rc |= kv_str(out, "", "name", r->name, "");
    rc |= fprintf(out, ", \"entry\": %s, \"entry_hex\": \"%llX\", \"fortran\": %s, \"timed\": %s, "
                       "\"excluded\": %s, \"mainline\": %s,\n",
                  ju(r->entry), (unsigned long long)r->entry,
                  r->fortran == FST_ID_FORTG ? "\"G\"" : r->fortran == FST_ID_FORTH ? "\"H\"" : "null",
                  r->timed ? "true" : "false", r->excluded ? "true" : "false", r->mainline ? "true" : "false") < 0;
    return rc | (fprintf(out, "     \"calls\": %s, \"self_instructions\": %s, \"incl_instructions\": %s, "
                              "\"self_time_fx\": %s, \"incl_time_fx\": %s, \"self_time_ns\": %s, "
                              "\"incl_time_ns\": %s,\n     \"calls_uncertain\": %s, \"self_uncertain\": %s}%s\n",
                         ju(r->calls), ju(r->self_insns),
                         ju(r->incl_insns), ju(r->self_cost),
                         ju(r->incl_cost), ju(fst_fx_to_ns(r->self_cost)),
                         ju(fst_fx_to_ns(r->incl_cost)), ju(r->calls_unc), ju(r->self_unc),
                         last ? "" : ",") < 0);
}

static int arc(FILE *out, const fst_profile *p, size_t i, int last)
{
    const fst_arc *a = &p->arcs[i];
    int rc;
    if (a->caller == FST_NONE)
        rc = fprintf(out, "    {\"caller\": null, \"callee\": %zu, \"caller_name\": null", a->callee) < 0;
    else {
        rc = fprintf(out, "    {\"caller\": %zu, \"callee\": %zu, ", a->caller, a->callee) < 0;
        rc |= kv_str(out, "", "caller_name", p->r[a->caller].name, "");
    }
    rc |= kv_str(out, ", ", "callee_name", p->r[a->callee].name, "");
    return rc | (fprintf(out, ", \"count\": %s, \"instructions\": %s, \"time_fx\": %s, \"time_ns\": %s}%s\n",
                         ju(a->count), ju(a->insns), ju(a->cost),
                         ju(fst_fx_to_ns(a->cost)), last ? "" : ",") < 0);
}

static int arc_kept(const fst_filter *f, const fst_profile *p, size_t i)
{
    const fst_arc *a = &p->arcs[i];
    return fst_filter_keeps(f, p->r[a->callee].name) || (a->caller != FST_NONE && fst_filter_keeps(f, p->r[a->caller].name));
}

static int task(FILE *out, const fst_profile *p, size_t i, int last)
{
    const fst_taskprof *t = &p->tasks[i];
    char space[24];
    fst_space_name(t->space, space);
    int rc = fprintf(out, "    {\"id\": %zu, \"space\": \"%s\", \"first\": \"%llX\", ", i, space,
                     (unsigned long long)t->first) < 0;
    rc |= kv_str(out, "", "mainline", t->mainline != FST_NONE ? p->r[t->mainline].name : NULL, "");
    return rc | (fprintf(out, ", \"instructions\": %s, \"problem_instructions\": %s, \"time_fx\": %s, "
                              "\"time_ns\": %s, \"uncertain\": %s}%s\n",
                         ju(t->insns), ju(t->problem_insns),
                         ju(t->cost), ju(fst_fx_to_ns(t->cost)), t->uncertain ? "true" : "false",
                         last ? "" : ",") < 0);
}

static int pricing(FILE *out, const fst_fctx *fc, const fst_profile *p)
{
    fst_pricing s;
    fst_pricing_of(&s, p, fc->ro ? fc->ro->clock : NULL);
    int rc = fprintf(out, "  \"pricing\": {\"rule\": %s, \"default\": %s, \"undecoded\": %s,\n"
                          "    \"unpriced\": [", ju(s.rule_insns),
                     ju(s.default_insns), ju(s.undecoded_insns)) < 0;
    for (size_t i = 0; i < s.nrule + s.ndefault; i++) {
        const fst_unpriced *u = &s.ops[i];
        rc |= kv_str(out, i ? ",\n      {" : "\n      {", "mnemonic", u->mnem, "");
        rc |= kv_str(out, ", ", "opcode", u->code, "");
        rc |= fprintf(out, ", \"instructions\": %s, \"how\": \"%s\"", ju(u->insns),
                      u->how == FST_PRICE_RULE ? "rule" : "default") < 0;
        rc |= kv_str(out, ", ", "rule", u->rule, "}");
    }
    rc |= fprintf(out, "%s],\n    \"undecoded_opcodes\": [", s.nrule + s.ndefault ? "\n    " : "") < 0;
    for (size_t i = 0; i < s.nundecoded; i++) {
        char op[5];
        fst_opcode_str(s.undecoded[i].key, op);
        rc |= fprintf(out, "%s{\"opcode\": \"%s\", \"instructions\": %s}", i ? ", " : "", op,
                      ju(s.undecoded[i].insns)) < 0;
    }
    rc |= fprintf(out, "]},\n") < 0;
    fst_pricing_free(&s);
    return rc;
}

static int json_write(FILE *out, const fst_fctx *fc, const fst_profile *p, void *ctx, fst_err *err)
{
    (void)ctx;
    int rc = fprintf(out, "{\n  \"format\": \"fst-profile\", \"version\": 1,\n") < 0;
    rc |= trace_part(out, fc, p);
    rc |= cost3(out, "totals", p->total_insns, p->total_cost, ",");
    rc |= cost3(out, "outside", p->outside_insns, p->outside_cost, ",");
    rc |= cost3(out, "excluded", p->excluded_insns, p->excluded_cost, ",");
    rc |= fprintf(out, "  \"events\": {\"program_checks\": %s, \"interruptions\": %s, \"waits\": %s, "
                       "\"unwinds\": %s, \"open_frames\": %s, \"unmodeled\": %s,\n             \"svcs\": %s, "
                       "\"dispatches\": %s, \"interruptions_in_routines\": %s, \"tasks_new\": %s, "
                       "\"tasks_guessed\": %s, \"tasks_redirected\": %s},\n",
                  ju(p->pgmchks), ju(p->intrs), ju(p->waits),
                  ju(p->unwinds), ju(p->open_frames),
                  ju(p->unmodeled), ju(p->svcs), ju(p->dispatches),
                  ju(p->intr_in_routine), ju(p->new_tasks),
                  ju(p->guessed), ju(p->redirected)) < 0;
    rc |= fprintf(out, "  \"uncertain\": {\"dispatches\": %s, \"calls\": %s, \"instructions\": %s},\n",
                  ju(p->unc_dispatches + p->inferred), ju(p->unc_calls), ju(p->unc_insns)) < 0;
    rc |= pricing(out, fc, p);
    rc |= fprintf(out, "  \"tasks\": [\n") < 0;
    /* the tasks of an address space --space leaves out are none of this report's */
    size_t last = SIZE_MAX;
    for (size_t i = 0; i < p->ntasks; i++)
        last = p->tasks[i].excluded ? last : i;
    for (size_t i = 0; i < p->ntasks && !rc; i++)
        if (!p->tasks[i].excluded)
            rc |= task(out, p, i, i == last);
    rc |= fprintf(out, "  ],\n  \"routines\": [\n") < 0;
    const fst_filter *f = fc->filter;   /* --routine: those routines, and the arcs to or from them */
    last = SIZE_MAX;
    for (size_t i = 0; i < p->nr; i++)
        last = fst_filter_keeps(f, p->r[i].name) ? i : last;
    for (size_t i = 0; i < p->nr && !rc; i++)
        if (fst_filter_keeps(f, p->r[i].name))
            rc |= routine(out, p, i, i == last);
    rc |= fprintf(out, "  ],\n  \"arcs\": [\n") < 0;
    last = SIZE_MAX;
    for (size_t i = 0; i < p->narcs; i++)
        last = arc_kept(f, p, i) ? i : last;
    for (size_t i = 0; i < p->narcs && !rc; i++)
        if (arc_kept(f, p, i))
            rc |= arc(out, p, i, i == last);
    rc |= fprintf(out, "  ]\n}\n") < 0;
    if (rc)
        return fst_errno(err, "%s: cannot write", fc->out_path ? fc->out_path : "standard output");
    return 0;
}

const fst_format fst_format_json = {
    "json", "the whole profile as one JSON object (routines, arcs, totals, clock, trace header)", 0,
    NULL, NULL, NULL, json_write, NULL, FST_FILTER_ROUTINE | FST_FILTER_UNTIMED,
};
