/* analyze/replay/replay_stack.c — entry points and the stack of a task (DESIGN §3, replay_int.h):
** calls, returns, unwinds and tail calls, each an event. */
#include "analyze/replay/replay_int.h"

#include <stdlib.h>
#include <string.h>

void fst_rp_build_hash(rp *x)
{
    x->hcap = 64;
    while (x->hcap < x->p->nr * 2)
        x->hcap *= 2;
    x->hash = fst_xmalloc(x->hcap * sizeof *x->hash);
    for (size_t i = 0; i < x->hcap; i++)
        x->hash[i] = FST_NONE;
    x->sup = FST_NONE;
    x->ml_lo = UINT64_MAX;
    x->ml_hi = 0;
    for (size_t r = 0; r < x->p->nr; r++) {
        if (!strcmp(x->p->r[r].name, FST_SUPERVISOR_NAME) && x->p->r[r].entry == UINT64_MAX) {
            x->sup = r;     /* a pseudo-routine: no address */
            continue;
        }
        size_t i = hslot(x, x->p->r[r].entry);
        while (x->hash[i] != FST_NONE && x->p->r[x->hash[i]].entry != x->p->r[r].entry)
            i = (i + 1) & (x->hcap - 1);
        if (x->hash[i] == FST_NONE) /* two names at one address: the first in module order */
            x->hash[i] = r;
        if (x->p->r[r].mainline) {
            fst_rp_mainline_mark(x, r);
            x->mainline_fixed = 1;
        }
    }
}

/* Inline in this file: a call and a return each went through four functions (cgen -O2,
** a call every 42 instructions: their prologues were a tenth of a call's replay). */
#define FST_RP_INLINE static inline __attribute__((always_inline))

/* Push routine r, called from `caller` (the owner on top, or a replaced frame's). */
FST_RP_INLINE void push_from(rp *x, size_t tid, uint16_t cpuno, size_t r, size_t caller, uint64_t site, uint64_t ret,
                             uint64_t mask, int counted)
{
    rp_task *t = &x->t[tid];
    size_t owner = fst_rp_frame_owner(x, r, caller);
    fst_rp_frame_push(t, r, &(rp_frame){ owner, ret & mask, mask, counted && x->bases && t->prev.fmt == FST_FMT_RR });
    if (x->memo.rec)
        fst_rp_memo_note_call(x, r);
    if (counted && t->taint) {  /* a task a guess made uncertain (tasks.h) */
        x->p->r[r].calls_unc++;
        x->p->unc_calls++;
    }
    fst_event *e = &x->fev;
    e->kind = FST_EV_CALL;
    e->cpu = cpuno;
    e->routine = r;
    e->owner = owner;
    e->caller = caller;
    e->counted = counted;
    e->site = site;
    e->ret = ret & mask;
    e->code = 0;
    fst_rp_emit_frame(x, e, tid);
}

void fst_rp_push(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask, int counted)
{
    push_from(x, tid, cpuno, r, top_owner(&x->t[tid]), site, ret, mask, counted);
}

FST_RP_INLINE void pop(rp *x, size_t tid, uint16_t cpuno, fst_ev_kind kind, uint32_t code)
{
    rp_task *t = &x->t[tid];
    fst_rp_frame_pop(x, t);
    if (kind == FST_EV_UNWIND && x->bases && fst_rp_taint(x, tid))
        x->p->unc_dispatches++;  /* a range trace without registers: frames abandoned are a
                                    sign of a switch it did not show (replay_unc.c) */
    if (t->f[t->n].unverified && (kind == FST_EV_UNWIND || code)) {
        x->p->r[t->routine[t->n]].calls_unc++;  /* it never returned to its caller: maybe no call */
        x->p->unc_calls++;
    }
    fst_event *e = &x->fev;
    e->kind = kind;
    e->cpu = cpuno;
    e->routine = t->routine[t->n];
    e->owner = t->f[t->n].owner;
    e->caller = 0;
    e->counted = 0;
    e->site = e->ret = 0;
    e->code = code;
    fst_rp_emit_frame(x, e, tid);
}

void fst_rp_pop(rp *x, size_t tid, uint16_t cpuno, fst_ev_kind kind, uint32_t code)
{
    pop(x, tid, cpuno, kind, code);
}

void fst_rp_mainline_mark(rp *x, size_t r)
{
    uint64_t a = x->p->r[r].entry;
    x->p->r[r].mainline = 1;
    x->ml_lo = a < x->ml_lo ? a : x->ml_lo;
    x->ml_hi = a > x->ml_hi ? a : x->ml_hi;
}

/* The mainline: a frame that counts no call; entered without a return address, it
** returns by leaving the program (profile.h). */
void fst_rp_enter_mainline(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site, uint64_t ret, uint64_t mask)
{
    fst_profile *p = x->p;
    if (x->chunk.rec)
        fst_rp_chunk_spoil(x);
    fst_rp_mainline_mark(x, r);
    p->r[r].timed = 1;
    if (p->mainline < 0)
        p->mainline = (int)r;
    x->t[tid].had_mainline = 1;
    fst_rp_push(x, tid, cpuno, r, site, ret, mask, 0);
}

/* Whether some open frame may have addr as its return address (+4k, k <= 4): the counters
** (replay_int.h rp_task.rets) answer no for the common case, a branch that returns
** nowhere, without a scan. */
static int maybe_return(const rp_task *t, uint64_t addr)
{
    for (uint64_t k = 0; k <= 16; k += 4)
        if (t->rets[rets_slot(addr - k)])
            return 1;
    return 0;
}

int fst_rp_returns_open(const rp_task *t, uint64_t addr)
{
    if (!t->n || !maybe_return(t, addr))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if (fst_rp_at_return(&t->f[i], addr))
            return 1;
    return 0;
}

/* After a taken branch that is not a call: a return to the top frame, or to an older
** frame's (UNWIND), when the branch is return-like. */
static int returns(rp *x, size_t tid, uint16_t cpuno, uint64_t addr)
{
    rp_task *t = &x->t[tid];
    if (!t->n || !returnlike(&t->prev))
        return 0;
    if (fst_rp_at_return(&t->f[t->n - 1], addr)) {
        pop(x, tid, cpuno, FST_EV_RETURN, 0);
        return 1;
    }
    if (x->chunk.rec)
        fst_rp_chunk_spoil(x);  /* the frames below the stretch's may answer (replay_chunk.c) */
    if (x->memo.rec)
        fst_rp_memo_note_ret(x, addr);  /* frames below the call may be scanned */
    for (size_t i = maybe_return(t, addr) ? t->n - 1 : 0; i-- > 0;) /* the nearest older frame */
        if (fst_rp_at_return(&t->f[i], addr)) {
            while (t->n > i)
                fst_rp_pop(x, tid, cpuno, FST_EV_UNWIND, 0);
            return 1;
        }
    if (t->n == 1 && t->f[0].ret == (~0ull & t->f[0].mask) && (addr < x->p->lo || addr >= x->p->hi)) {
        fst_rp_pop(x, tid, cpuno, FST_EV_RETURN, 0); /* the mainline leaves the program */
        return 1;
    }
    return 0;
}

/* --tail-calls: a branch without link to routine r's entry replaces the top frame
** (profile.h). The mainline's frame is never replaced: it has no caller to return to. */
static void tail_call(rp *x, size_t tid, uint16_t cpuno, size_t r, uint64_t site)
{
    rp_task *t = &x->t[tid];
    if (t->n < 2 || t->routine[t->n - 1] == r)
        return;
    rp_frame f = t->f[t->n - 1];
    fst_rp_pop(x, tid, cpuno, FST_EV_RETURN, 0);
    push_from(x, tid, cpuno, r, f.owner, site, f.ret, f.mask, 1);
}

/* The task's previous instruction, a branch, was taken to rec: a call, a return, a tail call? */
void fst_rp_branched_to(rp *x, size_t tid, const fst_rec *rec, const fst_insn *d)
{
    fst_profile *p = x->p;
    rp_task *t = &x->t[tid];
    int link14 = (t->prev.flags & FST_I_LINK) && t->prev.link == 14;
    /* an entry point matters to a call and a tail call only: a return looks for none */
    size_t r = link14 || (x->o->tail_calls && !(t->prev.flags & FST_I_LINK)) ? find_entry_for(x, tid, rec->addr)
                                                                            : FST_NONE;
    if (link14 && r != FST_NONE) {
        uint64_t mask = amask(t->prev_state);
        /* the task's first call: its mainline's start, where the map names none, but not in
        ** a window of a running system (midrun), where the task was running before the
        ** window: a call as any other, counted (the named mainline's entry is entered all
        ** the same: a job started in the window) */
        if (!t->had_mainline && t->n == 0 && (p->r[r].mainline || (!x->mainline_fixed && !x->midrun))) {
            fst_rp_enter_mainline(x, tid, rec->cpu, r, t->prev.addr, fst_insn_next(&t->prev), mask);
            p->tasks[tid].mainline = r;
            if (t->taint) { /* a task a guess made (tasks.h): the code it began in may be its
                            ** mainline, not entered where the trace shows, and this a call */
                p->r[r].calls_unc++;
                p->unc_calls++;
            }
        } else
            push_from(x, tid, rec->cpu, r, top_owner(t), t->prev.addr, fst_insn_next(&t->prev), mask, 1);
    } else if (returns(x, tid, rec->cpu, rec->addr))
        return;
    else if (link14) {
        if (x->chunk.rec)
            fst_rp_chunk_spoil(x);
        fst_rp_misfit(x, tid, t->prev.addr, d);
    }
    else if (x->o->tail_calls && r != FST_NONE && !(t->prev.flags & FST_I_LINK))
        tail_call(x, tid, rec->cpu, r, t->prev.addr);
}
