/* model/space_ev_skip.c — what the evidence pass skips (space_ev_int.h says why a skip is
** exact): loops once a period, calls once a subtree.
**
** Loops (`fold`): after a run that began where a run began d runs before (d <= PERIOD, on a
** clock that counts the runs skipped too), the reader is marked; d runs later, in the same
** state, with a stretch of fast ops between and the same pending link, its repeats are
** skipped (fst_tr_skip_repeats). A mark that misses makes the next wait, longer after each
** (code that branches on data proposes often, in vain). Shares.s in a 2-second window: 103 M
** of its 105 M runs skipped.
**
** Calls (`calls`): where a run ends in a call (a link through 14: `after` is where it
** returns, the reader's next address), the subtree recorded from the same reader state in
** the same space, if its bytes come next, is skipped whole (fst_tr_skip_to); else it is
** recorded, closed after the run that begins at its return address (nested calls recorded
** at once, CDEPTH of them), and kept when its bytes were in one frame, CSPAN at most, and
** the code cache did not change: one subtree a slot (by the reader's state and next 16
** bytes; a later one replaces it), 32 MiB in all. A slot whose calls miss MISSES times in a
** row is not looked at for its next QUIET calls, twice as many each time up to 64 times
** (code that branches on data: cgen's calls rarely come again, and a look and a recording
** cost two marks of the reader and a copy of the subtree's bytes). A FORTRAN load module
** whose routines branch on data (tests/loops/fortbig.py: 29 M runs) repeats whole subtrees
** as the replay's memo of calls finds them; recursion (fib) too, bottom up. */
#include "model/space_ev_int.h"

#include <stdlib.h>
#include <string.h>

enum { CALL_BYTES = 32 << 20, MISSES = 4, QUIET = 16 };

/* ---- loops ---- */

static void fold(sv_pass *ps, uint64_t addr, uint16_t cpu, uint32_t state)
{
    uint64_t nrun = ps->nrun++;
    if (ps->wait)
        ps->wait--;
    if (ps->due && nrun >= ps->due) {
        fst_tr_mark b;
        uint64_t insns, k = 0, d = ps->due - ps->mark_run;
        size_t nops;
        int m;
        uint32_t runs;
        cpu_st *c = fst_sv_cpu(ps, cpu);
        if (nrun == ps->due && fst_tr_mark_here(ps->tr, &b) && c->after == ps->mark_after &&
            (nops = fst_tr_mark_span(&ps->mark, &b, ps->ops, sizeof ps->ops, &insns)) &&
            fst_tr_fast_ops(ps->ops, nops, FST_TR_MRU, &m, &runs)) {  /* (read once: every k was good) */
            k = fst_tr_skip_repeats(ps->tr, &ps->mark, ps->ops, nops, insns);
            fst_sv_space(ps, c, state)->insns += insns * k;
            ps->nrun += k * runs;
        }
        ps->miss = k ? 0 : ps->miss + (ps->miss < 6);
        ps->wait = k ? 0 : (int)(d << ps->miss < WAIT ? d << ps->miss : WAIT);
        ps->due = 0;
    }
    unsigned h = (unsigned)((addr * 0x9E3779B97F4A7C15ull) >> 52) % LAST;
    uint64_t d = nrun - ps->last_at[h].run;
    if (!ps->due && ps->last_at[h].addr == addr + 1 && d <= PERIOD && !ps->wait &&
        fst_tr_mark_here(ps->tr, &ps->mark)) {
        ps->mark_run = nrun;
        ps->due = nrun + d;
        ps->mark_after = fst_sv_cpu(ps, cpu)->after;
    }
    ps->last_at[h].addr = addr + 1;     /* (0: none yet) */
    ps->last_at[h].run = nrun;
}

/* ---- calls ---- */

/* A subtree's slot: by the reader's state and the next 16 op bytes, where the subtrees
** from one state part (a recursion's calls of one site, a function of their arguments),
** so that each has a slot of its own (replay_memo.c's signature does the same). */
static uint64_t sig_of(const fst_tr_at *at, size_t space)
{
    uint64_t h = at->cur * 0x9E3779B97F4A7C15ull ^ (uint64_t)space << 48 ^ (uint64_t)at->state << 32 ^ at->cpu;
    for (int i = 0; i < at->nrecent && i < 4; i++)
        h = (h ^ at->recent[i]) * 0xFF51AFD7ED558CCDull;
    for (size_t i = 0; i < at->avail && i < 16; i++)
        h = (h ^ at->ops[i]) * 0x100000001B3ull;
    return h ^ h >> 29;
}

/* The call just made on c (its pending link in the run's state: the last run read there
** ended in it): its subtree skipped if recorded, else recorded. Returns 1 when skipped (the
** reader is after its return). */
static int call(sv_pass *ps, cpu_st *c, uint16_t cpu, uint32_t state)
{
    fst_tr_at at;
    if (!fst_tr_here(ps->tr, &at))  /* (its next address: the return's, or the callee's after a TAKEN) */
        return 0;
    size_t space = (size_t)(fst_sv_space(ps, c, state) - ps->v);
    if (!ps->calls)
        ps->calls = fst_xcalloc(CALLS, sizeof *ps->calls);
    sv_call *e = &ps->calls[sig_of(&at, space) % CALLS];
    if (e->quiet) {
        e->quiet--;
        return 0;
    }
    fst_tr_mark here;
    fst_tr_mark_here(ps->tr, &here);
    if (e->ops && e->space == space && e->epoch == *ps->epoch && fst_tr_skip_to(ps->tr, &here, &e->a, e->ops, e->n, &e->b)) {
        ps->v[space].insns += e->insns;
        ps->nrun += e->runs;
        c->after = e->after;
        c->state = state;
        e->miss = e->backoff = 0;
        return 1;
    }
    if (++e->miss == MISSES) {  /* a slot whose calls do not come again: quiet for a while */
        e->miss = 0;
        e->quiet = QUIET << (e->backoff < 6 ? e->backoff++ : 6);
        return 0;
    }
    if (ps->nopen == CDEPTH) {  /* the outermost gives way */
        memmove(ps->open, ps->open + 1, (CDEPTH - 1) * sizeof *ps->open);
        ps->nopen--;
    }
    ps->open[ps->nopen++] = (sv_open){ here, c->after, ps->nrun, *ps->epoch, space, (size_t)(e - ps->calls), cpu, state };
    return 0;
}

/* The run just read began at the innermost recorded call's return: keep its subtree. Its
** bytes are runs only (SEQ, TAKEN, JMP, JMPA: plain, space_ev_int.h): every other op is a
** record of its own (tracebin.h fst_tr_next_run), and a record ends every recording
** (fst_sv_record). */
static void returned(sv_pass *ps, cpu_st *c)
{
    sv_open *o = &ps->open[--ps->nopen];
    sv_call *e = &ps->calls[o->slot];
    fst_tr_mark b;
    uint64_t insns;
    size_t n, had = e->ops ? e->n : 0;
    if (o->epoch != *ps->epoch || !fst_tr_mark_here(ps->tr, &b) || !(n = fst_tr_mark_copy(&o->a, &b, NULL, CSPAN, &insns)) ||
        ps->call_bytes - had + n > CALL_BYTES)
        return;
    uint8_t *ops = fst_xrealloc(e->ops, n);
    fst_tr_mark_copy(&o->a, &b, ops, n, &insns);
    *e = (sv_call){ o->a, b, ops, n, o->space, insns, ps->nrun - o->nrun, c->after, o->epoch, e->miss, e->quiet,
                    e->backoff };
    ps->call_bytes += n - had;
}

void fst_sv_after_run(sv_pass *ps, const fst_rec *rec)
{
    cpu_st *c = fst_sv_cpu(ps, rec->cpu);
    if (ps->nopen && rec->addr == ps->open[ps->nopen - 1].ret && rec->cpu == ps->open[ps->nopen - 1].cpu &&
        rec->state == ps->open[ps->nopen - 1].state)
        returned(ps, c);
    fold(ps, rec->addr, rec->cpu, rec->state);
    while (c->after != NONE && c->state == rec->state && call(ps, c, rec->cpu, rec->state))
        ;
}

void fst_sv_record(sv_pass *ps) { ps->nopen = 0; }

void fst_sv_free(sv_pass *ps)
{
    if (ps->calls)
        for (size_t i = 0; i < CALLS; i++)
            free(ps->calls[i].ops);
    free(ps->calls);
}
