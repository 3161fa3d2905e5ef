/* analyze/profile/diagnose.c — findings about a replay, said instead of silence; see diagnose.h. */
#include "analyze/profile/diagnose.h"
#include "analyze/profile/holder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fst_diag {
    const fst_pm *pm;
    const fst_profile *p;
    fst_holder *h;          /* which routine holds an address (built at the first event) */
    uint64_t *unentered;    /* per routine: instructions run inside it while outside */
};

fst_diag *fst_diag_new(const fst_pm *pm)
{
    fst_diag *d = fst_xcalloc(1, sizeof *d);
    d->pm = pm;
    return d;
}

void fst_diag_free(fst_diag *d)
{
    if (!d)
        return;
    fst_holder_free(d->h);
    free(d->unentered);
    free(d);
}

static void build(fst_diag *d, const fst_profile *p)
{
    d->p = p;
    d->h = fst_holder_new(p);
    d->unentered = fst_xcalloc(p->nr + 1, sizeof *d->unentered);
}

static void add(fst_diag *d, size_t r, uint64_t n)
{
    if (r != FST_NONE)
        d->unentered[r] += n;
}

/* One instruction against the last two answers (held ranges [lo0, lo0 + s0) first, then
** [lo1, lo1 + s1)): 1 when it falls in neither. Only the second range is counted (*k): the
** first one's count is what is left of a stretch. */
static inline int neither(uint64_t a, uint64_t lo0, uint64_t s0, uint64_t lo1, uint64_t s1, uint64_t *k)
{
    if (a - lo0 < s0)
        return 0;
    if (a - lo1 < s1) {
        ++*k;
        return 0;
    }
    return 1;
}

/* The first instruction of [in, end) in neither of the last two answers (end if none), and
** in *k how many before it are in the second held range: a loop's instructions (a caller and its
** callee), four to a turn. */
static const fst_insn *stretch(const fst_diag *d, const fst_insn *in, const fst_insn *end, uint64_t *k)
{
    const fst_held *hd = d->h->hold;
    uint64_t lo0 = hd[0].lo, s0 = hd[0].hi - lo0, lo1 = hd[1].lo, s1 = hd[1].hi - lo1, n = 0;
    const fst_insn *quads = in + (size_t)(end - in) / 4 * 4; /* one comparison a turn */
    for (; in < quads; in += 4) {
        if (neither(in[0].addr, lo0, s0, lo1, s1, &n))
            break;
        if (neither(in[1].addr, lo0, s0, lo1, s1, &n)) {
            in += 1;
            break;
        }
        if (neither(in[2].addr, lo0, s0, lo1, s1, &n)) {
            in += 2;
            break;
        }
        if (neither(in[3].addr, lo0, s0, lo1, s1, &n)) {
            in += 3;
            break;
        }
    }
    while (in < end && !neither(in->addr, lo0, s0, lo1, s1, &n))
        in++;
    *k = n;
    return in;
}

void fst_diag_event(void *ctx, const fst_event *e)
{
    fst_diag *d = ctx;
    if (e->kind != FST_EV_EXEC || e->charged != FST_CHARGE_OUTSIDE || e->other_space || e->unnamed)
        return;
    if (!d->p)
        build(d, e->profile);
    /* a run or a batch (events.h): a loop's instructions, mostly in the last two ranges (a
    ** caller and its callee); where one falls in neither, fst_holder_of searches */
    const fst_insn *in = e->insn, *end = in + e->n;
    while (in < end) {
        uint64_t k;
        const fst_insn *stop = stretch(d, in, end, &k);
        add(d, d->h->hold[0].r, (uint64_t)(stop - in) - k);
        add(d, d->h->hold[1].r, k);
        if (stop == end)
            break;
        add(d, fst_holder_of(d->h, stop->addr), 1);  /* also where no answer holds it */
        in = stop + 1;
    }
}

static void names(char *buf, size_t cap, const fst_profile *p, const size_t *idx, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && i < 6 && len + 1 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", p->r[idx[i]].name);
    if (n > 6 && len + 1 < cap)
        snprintf(buf + len, cap - len, ", ... (%zu in all)", n);
}

static void never_entered(const fst_profile *p, void (*say)(int, const char *))
{
    size_t *idx = fst_xcalloc(p->nr + 1, sizeof *idx), n = 0, named = 0;
    for (size_t i = 0; i < p->nr; i++) {
        const fst_routine *r = &p->r[i];
        if (r->entry == UINT64_MAX)
            continue;
        named++;
        if (!r->calls && !r->entered && !r->self_insns && !r->mainline)
            idx[n++] = i;
    }
    if (n && p->total_insns) {
        char list[400], msg[800];
        names(list, sizeof list, p, idx, n);
        snprintf(msg, sizeof msg, "%zu of the %zu routines the map names were never entered (the report shows "
                 "no calls and no time for them): %s%s", n, named, list,
                 n == named ? " (is the load point right? is this the member that ran?)" : "");
        say(1, msg);
    }
    free(idx);
}

/* "NAME+0x1A (at 0x20A1A)", or "code outside the routines (at 0x...)" */
static void place(char *buf, size_t cap, const fst_profile *p, size_t r, uint64_t a)
{
    if (r == FST_NONE || r >= p->nr)
        snprintf(buf, cap, "code outside its routines (at %llX)", (unsigned long long)a);
    else
        snprintf(buf, cap, "%s+%llX (at %llX)", p->r[r].name, (unsigned long long)(a - p->r[r].entry),
                 (unsigned long long)a);
}

static uint64_t all_calls(const fst_profile *p)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->nr; i++)
        n += p->r[i].calls;
    return n;
}

/* msg: the misfit calls, with the first */
static void misfits(const fst_profile *p, char *msg, size_t cap)
{
    char from[160], to[160];
    place(from, sizeof from, p, p->misfit_from, p->misfit_site);
    place(to, sizeof to, p, p->misfit_to, p->misfit_target);
    snprintf(msg, cap, "%llu calls (a branch linking through register 14) went to no entry the model names (into "
             "another routine's middle, or onto a routine's prologue), against %llu calls to an entry; the first "
             "from %s to %s",
             (unsigned long long)p->misfit_calls, (unsigned long long)all_calls(p), from, to);
}

/* Routines whose code ran while none was entered: how many (*n) and their instructions,
** named in list; *entered: routines entered (calls, or a mainline). */
static size_t run_unentered(const fst_diag *d, const fst_profile *p, size_t *entered, uint64_t *insns, char *list,
                            size_t cap)
{
    size_t *idx = fst_xcalloc(p->nr + 1, sizeof *idx), n = 0;
    *entered = 0;
    *insns = 0;
    for (size_t i = 0; i < p->nr; i++) {
        const fst_routine *r = &p->r[i];
        if (r->calls || r->mainline)
            ++*entered;
        else if (d && d->unentered && d->unentered[i] && !r->self_insns) {
            idx[n++] = i;
            *insns += d->unentered[i];
        }
    }
    names(list, cap, p, idx, n);
    free(idx);
    return n;
}

/* Calls to no entry: a tenth of the calls, of tasks whose figures are certain; or a third
** of them all, since a task a guess or an inference made uncertain may have been switched
** away from right after its call (a range trace without registers shows no switch), but
** not at most of its calls, as it is with a map that does not fit (tests/os seed 153). */
static int many_misfits(const fst_profile *p)
{
    uint64_t m = p->misfit_calls, sure = m - p->misfit_unc, all = m + all_calls(p);
    return (sure >= 2 && sure >= all / 10) || (m >= 2 && m >= all / 3);
}

/* Tasks of other address spaces (left out, or where the map's program does not run): their
** code may lie at the map's addresses, and the instruction mix counts it. */
static int other_spaces(const fst_profile *p)
{
    for (size_t t = 0; t < p->ntasks; t++)
        if (p->tasks[t].unnamed || p->tasks[t].excluded)
            return 1;
    return 0;
}

static int partial(fst_tr *tr)
{
    const char *w = fst_tr_header(tr, FST_HK_WINDOW), *rg = fst_tr_header(tr, FST_HK_RANGE),
               *seen = fst_tr_footer(tr, FST_FK_RANGE);   /* a log's, once read to its end */
    return (w && !strcmp(w, "attach")) || (rg && strcmp(rg, "all")) || (seen && strcmp(seen, "all"));
}

/* A trace fst-capture made from the program's start (not a log or tf file, which may
** begin where the user turned tracing on): no routine can be running when it begins. */
static int from_start(fst_tr *tr)
{
    const char *src = fst_tr_header(tr, FST_HK_SOURCE);
    return src && !strcmp(src, "capture") && !partial(tr);
}

int fst_diag_misfit(const fst_diag *d, const fst_profile *p, fst_tr *tr, char *msg, size_t cap)
{
    uint64_t insns;
    if (!d || !d->pm)
        return 0;   /* the image's identifiers: found where they are, no map to be wrong */
    if (p->misfit_stray) {
        char first[160];
        place(first, cap < sizeof first ? cap : sizeof first, p, p->misfit_from, p->misfit_site);
        snprintf(msg, cap, "%llu calls went onto a routine's prologue (B n(,15) over an identifier, or gcc's STM on the stack) inside %s, at "
                 "no entry it names, and no call entered %s where it says (the first call to no entry: from %s)",
                 (unsigned long long)p->misfit_stray, p->r[p->misfit_stray_in].name,
                 p->r[p->misfit_stray_in].name, first);
        return 1;
    }
    if (many_misfits(p)) {
        misfits(p, msg, cap);
        return 1;
    }
    char list[400];
    size_t entered, n = run_unentered(d, p, &entered, &insns, list, sizeof list);
    if (n >= 2 && n >= entered && !partial(tr)) {
        snprintf(msg, cap, "%zu of its routines ran (%llu instructions) while no call had entered them, against "
                 "%zu routines entered: %s", n, (unsigned long long)insns, entered, list);
        return 1;
    }
    /* code where the map has none: between its sections (every length known) */
    if (p->gap_insns >= 2 && p->gap_insns >= p->total_insns / 100 && !other_spaces(p)) {
        snprintf(msg, cap, "%llu of the %llu instructions ran inside its extent where none of its sections lies "
                 "(the first at %llX)", (unsigned long long)p->gap_insns, (unsigned long long)p->total_insns,
                 (unsigned long long)p->gap_first);
        return 1;
    }
    /* code inside routines the program calls, run outside every call, in a trace from the
    ** program's start: an entry that is right by chance, over another routine's code */
    uint64_t out = 0, most = 0;
    size_t top = FST_NONE;
    for (size_t i = 0; d && d->unentered && i < p->nr; i++) {
        if (!p->r[i].calls)
            continue;   /* a first routine the program branches into, no call (a loader's) */
        out += d->unentered[i];
        if (d->unentered[i] > most)
            most = d->unentered[top = i];
    }
    if (!from_start(tr) || out < 2 || out < p->total_insns / 10)
        return 0;
    snprintf(msg, cap, "%llu of the %llu instructions ran inside routines it calls while none of their calls was "
             "active (%llu inside %s), in a trace from the program's start", (unsigned long long)out,
             (unsigned long long)p->total_insns, (unsigned long long)most, p->r[top].name);
    return 1;
}

/* A count's note (fmt: one %llu), when there is something to count; a warning or not. */
static void counted(void (*say)(int, const char *), int warn, uint64_t n, const char *fmt)
{
    char msg[600];
    if (!n)
        return;
    snprintf(msg, sizeof msg, fmt, (unsigned long long)n);
    say(warn, msg);
}

void fst_diag_report(const fst_diag *d, const fst_profile *p, fst_tr *tr, void (*say)(int, const char *))
{
    char msg[600];
    size_t nseg;
    fst_tr_image(tr, &nseg);
    const char *src = fst_tr_header(tr, FST_HK_SOURCE);
    if (!d->pm && !nseg && src && !strcmp(src, "log") && p->total_insns)
        say(1, "the trace holds no storage image and no --map was given, so no routine can be named: give "
               "--map=LISTING (the linkage editor's MAP) or convert the log with --image");
    const char *bad = fst_tr_footer(tr, FST_FK_MALFORMED), *spliced = fst_tr_footer(tr, FST_FK_SPLICED);
    if (bad && strtoull(bad, NULL, 10)) {
        snprintf(msg, sizeof msg, "%s lines of the Hercules log could not be read when this trace was made%s%s%s: "
                 "instructions are missing, so the profile is not exact", bad, spliced ? " (" : "",
                 spliced ? spliced : "", spliced ? " of them lines of several CPUs run into each other by "
                 "Hercules 3.13)" : "");
        say(1, msg);
    }
    if (d->pm)
        never_entered(p, say);
    if (d->pm && p->misfit_calls) {
        char m[500], line[800];
        int many = many_misfits(p) || p->misfit_stray;
        misfits(p, m, sizeof m);
        snprintf(line, sizeof line, "%s: %s", m, many ? "the map does not fit what ran, so its names are not "
                 "the routines that ran" : "their time is the caller's (an entry the map does not name? an "
                 "internal subroutine another routine calls?)");
        say(1, line);
    }
    for (size_t i = 0; d->unentered && i < p->nr; i++)
        if (d->unentered[i]) {
            snprintf(msg, sizeof msg,
                     "%llu instructions ran inside %s while it was not entered: the trace began inside it or a "
                     "traced range cuts through it; its calls and time are undercounted",
                     (unsigned long long)d->unentered[i], p->r[i].name);
            say(1, msg);
        }
    counted(say, 0, p->unwinds, "%llu frames unwound: control reached an older frame's return address (an "
            "error exit, a longjmp); their calls are counted and their inclusive time ends there");
    if (p->ntasks > 1 || p->dispatches) {
        snprintf(msg, sizeof msg, "%zu tasks, %llu dispatches, %llu interruptions inside routines: each task "
                 "has its own call stack, so an interruption splits no call and no task's time goes to another%s",
                 p->ntasks, (unsigned long long)p->dispatches, (unsigned long long)p->intr_in_routine,
                 p->unc_dispatches || p->inferred ? " (but see below)" : "");
        say(0, msg);
    }
    counted(say, 0, p->redirected, "%llu dispatches resumed a task where its suspension did not say, named "
            "by its own register block (or by all its registers shown): its supervisor changed its PSW, as "
            "VM/370's CP does to reflect an interruption into a virtual machine (tasks.h)");
    counted(say, 0, p->reflected, "%llu SVCs went on in problem state with no supervisor between, in a trace "
            "that shows it: taken as reflected into the task by Hercules' ECPS:VM assist (a virtual machine's "
            "own SVC handler under VM/370), whose instructions count for the task");
    counted(say, 1, p->inferred, "%llu task switches inferred: a branch on a register the trace does not show "
            "was followed by the address a suspended task resumes at, neither a routine's entry after a call "
            "nor the caller after a return (a trace with registers shows them)");
    if (p->guessed) {
        snprintf(msg, sizeof msg, "%llu dispatches left several suspended tasks that the trace cannot tell "
                 "apart (%llu candidates in all; %llu of them between tasks in the same call state, which "
                 "changes only what each task did): fst guessed the one suspended longest",
                 (unsigned long long)p->guessed, (unsigned long long)p->guess_left,
                 (unsigned long long)p->guessed_same);
        say(1, msg);
    }
    if (p->unc_dispatches || p->inferred) {
        snprintf(msg, sizeof msg, "so %llu calls and %llu instructions are uncertain: each routine's true "
                 "figures lie within the bounds csv --meta ('# uncertain:') and json (\"calls_uncertain\", "
                 "\"self_uncertain\") give; a trace with registers (traceopt traditional, or a 4.x tf file) "
                 "decides them", (unsigned long long)p->unc_calls, (unsigned long long)p->unc_insns);
        say(1, msg);
    }
}
