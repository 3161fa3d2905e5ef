/* analyze/replay/replay_memo.c — calls memoized (replay_int.h): a call whose whole subtree,
** from the call to its return, was replayed once is, when it comes again from the same
** state with the same op bytes, not replayed but added up: its counters' deltas added, the
** replay's state set to what it was after the return, the reader moved past the bytes.
** Recursion (fib(n) calls fib(n-1) and fib(n-2) the same way every time) and a mainline
** calling the same routines over the same data then cost a lookup per call.
**
** Why it is exact. As for a folded loop (replay_fold.c's head): the replay is deterministic,
** and its state splits into counters, which it only adds to, and the rest. What the replay of
** a call's subtree does depends on:
**   - the reader's state and the op bytes from there to the return (fst_tr_mark): equal,
**     they hand out the same runs;
**   - CPU 0's whole state and the task's (its previous instruction, flags, the pending
**     EXECs), but for the task's clock and stack depth: the key, compared byte for byte;
**   - of the frames below the call (which the subtree never pops: a recording that returns
**     below its start is dropped), only the owner of the top one (the caller charged), the
**     return addresses that a return-like branch of the subtree could have unwound to
**     (replay_stack.c returns(): it scans below only for targets its top frame does not
**     take; those targets are kept, and at reuse none of them may return to a frame below),
**     and which routines and arcs the subtree calls are open below (the call graph's
**     outermost rule: kept, and compared at reuse);
**   - the arcs and undecoded ops that exist (the subtree's are there again: both only grow).
** A call inside the subtree that is itself memoized (reused while the subtree is recorded)
** adds its return targets and routines to the recording's: its deltas are the recording's
** too (a recursion's inner call, whose routine was outermost there, counted again as
** outermost where the recording was reused with that routine open below: tests/e2e/
** recursion.sh seed 412).
**   - with no frame below (a call from code outside every routine the trace saw entered:
**     a window or a text trace begun inside the mainline), the EXECs charged outside that
**     it handed to a sink that wants those (the diagnosis, in batches: the call's own
**     instruction, the caller's run after the return; the batch is handed over where the
**     recording begins and ends) are kept with the subtree and handed again at reuse, as
**     one event (rp_memo.out); the key tells no frame, one and more apart (a call from
**     none may enter the mainline; the mainline's return leaves the program).
** Then the subtree adds the same deltas to the same counters, and leaves the state as it
** left it before. Its frames' clocks are opened and closed inside it (differences only).
** A recording is dropped when anything else happens: a record other than a SEQ run, an
** instruction through insn() (replay.c: a dispatch, an interruption, the first one), an
** event to a sink (but the EXECs charged outside above), a block built (a slot's counts
** flushed), a misfit, a folding left open.
** The block counts it made are kept as counts per instruction (fst_rp_count_ops at reuse:
** block slots are reused), taken from the blocks it ran only: a block's counts are copied
** when it first runs in the recording (fst_rp_memo_touch), so that a recording costs what
** the subtree touches there, not all the program's blocks.
**
** When: as folding (replay_fold.c fst_rp_fold_init: one CPU, nothing excluded, no sink that
** wants calls or EXECs charged to routines, no --window), no folding in progress, a task
** that is certain, no range trace's bases. FST_REPLAY_NOFOLD=1 turns it off with folding,
** FST_REPLAY_NOMEMO=1 alone; FST_REPLAY_FOLD=eager memoizes all it can.
**
** Which calls. A recording begins at a call that is not memoized, when its signature (the
** reader's state, the call's site and target, the caller, and the trace's next 16 bytes,
** where one site's subtrees part) was seen before, and the budget allows. A deeper call that
** is not memoized takes the recording over, so that a subtree whose calls are all memoized
** is recorded: bottom up, fib(2) after fib(1). A subtree of fewer than MEMO_MIN_RUNS runs is
** not worth a key: its bytes alone stand for it, MEMO_SMALL_USES times. A signature whose
** lookups miss MEMO_MISSES times in a row is not looked up for a while (16 calls, doubling).
** A reuse adds the task's clock at once and counts a hit; the other deltas are added, times
** the hits, when the counters are read (fst_rp_memo_settle), as the stretches' are.
** What it costs: a lookup a signature, a list of candidates and their bytes compared; a
** recording its key, the counters of fst_rp_regions and of the blocks it runs, twice. Both
** spend from a budget (in host instructions, as folding's): every run replayed earns
** MEMO_EARN_RUN, every instruction skipped MEMO_EARN_INSN; a lookup the budget cannot pay
** silences the next MEMO_QUIET calls, a recording only waits. And each call site is judged
** by what its calls took (site_try): one whose recordings are seldom reused and whose hits
** skip less than they cost is passed by for a while. Where no call repeats, the
** memo costs 0.3-1.7 % of the replay's host instructions (random loop programs, branchy,
** quicksort, Ackermann; `make bench`'s "memo / no memo" line).
** Memory: the tables (256 KiB, mapped as touched), the call sites' (rp_memo_site: 48 KiB,
** in rp) and the subtrees kept, MEMO_WAYS a slot and at most MEMO_BYTES (32 MiB) in all.
*/
#include "analyze/replay/replay_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEMO_SLOTS 16384
#define MEMO_SEEN 8192
#define MEMO_MIN_RUNS 6         /* fewer: a lookup and a key compared cost what the runs do
                                   (record-loop turns: 12 when a branch not taken ended one;
                                   seq_rest now goes on through it, and the turns are fewer) */
#define MEMO_MISSES 8           /* lookups in a row that took nothing: the signature backs off */
#define MEMO_BACKOFF 16         /* for at most 2^16 calls */
#define MEMO_SMALL_USES 64      /* a small subtree's bytes stand for it so many times */
#define MEMO_WAYS 32            /* subtrees kept per slot (one call site calls with many arguments) */
#define MEMO_OPS_MAX (256 * 1024)
#define MEMO_BYTES (32u << 20)
#define MEMO_RETS FST_MEMO_RETS   /* a recording's return targets and routines called (replay_int.h) */
#define MEMO_ROUTINES FST_MEMO_CALLS
#define MEMO_OUT_MAX 4096       /* EXECs charged outside a recording may hand to sinks */
#define MEMO_REC_FIXED 3000     /* budget units (host instructions) of a recording, */
#define MEMO_REC_COUNTER 8      /* and per counter word it copies and compares */
#define MEMO_REC_RUN 300       /* and per run it recorded, where its signature was recorded
                                   before and never reused: a recording replays its subtree
                                   without the lean loop and the stretches (gen.py seed 15463:
                                   2 524 recordings of subtrees no call came back to, at the
                                   copies' price alone: 0.71-0.76 s, 0.56-0.59 s charged so;
                                   recursion -O2's deep subtrees, recorded once and reused,
                                   pay no more) */
#define MEMO_EARN_RUN 1         /* a run replayed earns (about 1 % of what it costs) */
#define MEMO_EARN_INSN 10       /* an instruction skipped (whole subtrees: m->skipped counts a
                                   memoized call inside one as one run): less than it saves */
#define MEMO_LOOK 300           /* a lookup: the flush, the candidates, their bytes and key */
#define MEMO_SIG 300            /* a signature and its sightings (fst_rp_memo_call, callgrind) */
#define MEMO_QUIET 256          /* calls not looked at when a lookup cannot be paid */
#define SITE_TRIES 64           /* a call site is judged after so many calls looked at (site_try), */
#define SITE_RECS 8             /* or recordings begun there */
#define SITE_REC_RUNS 100       /* what a recording costs, in runs replayed, */
#define SITE_TRY_RUNS 4         /* and a call looked at */
#define SITE_BACKOFF0 8         /* a site judged a loss: 2^8 calls passed by, */
#define SITE_BACKOFF_MAX 20     /* then 4 times as many, up to 2^20 */

typedef struct memo_open { size_t r; int open; } memo_open;   /* a routine or arc, open or not */
typedef struct memo_seen memo_seen;
/* A signature seen: whether its calls were worth looking up lately. */
struct memo_seen {
    uint64_t sig;
    uint32_t skip;          /* calls left that are not looked up */
    uint16_t misses;        /* looked up in a row, no subtree taken */
    uint16_t backoff;       /* the last skip, log 2 */
    uint16_t recs;          /* recordings of it begun (at most 65 535) */
    uint16_t hit;           /* a subtree of it was reused */
};

typedef struct memo_delta {
    int kind;
    size_t idx, k;
    uint64_t d;
} memo_delta;

typedef struct memo_count {
    fst_insn d;
    uint64_t n;
} memo_count;

typedef struct memo_opn {
    uint64_t n;
    uint16_t op;
} memo_opn;

struct rp_memo_ent {
    rp_memo_ent *next;      /* the slot's list, the last one reused first */
    uint64_t sig;
    int small;              /* a subtree too short to be worth a key: its bytes only, */
    uint32_t small_left;    /* matched so many times more at most (a longer subtree's bytes
                               may begin with its: then that one is recorded) */
    size_t keylen;
    unsigned char *key;     /* in blob */
    fst_tr_mark a, b;       /* the reader's states at the call and after the return */
    uint8_t *ops;
    size_t nops;
    uint64_t insns, runs;
    unsigned char *cpu;     /* CPU 0 after the return, as cpu_key lays it out (in blob), */
    size_t cpulen;
    rp_task task;           /* and the task */
    memo_delta *delta;      /* the counters it adds to, but the task's clock: */
    size_t ndelta;
    uint64_t clock[2];      /* what it adds to the task's clock (insns, cost), at once */
    uint64_t pend;          /* hits whose deltas are not added yet (fst_rp_memo_settle) */
    size_t ptid;            /* their task */
    memo_opn *opn;          /* the block counts it made, as fst_rp_count_ops would add them: */
    size_t nopn;            /* per op id, */
    uint64_t gap_n, gap_first;  /* in no section (the first of them), */
    memo_count *count;      /* and the undecoded instructions' one by one */
    size_t ncount;
    fst_insn *out;          /* the EXECs charged outside it handed to sinks (rp_memo.out) */
    size_t nout;
    uint64_t *rets;         /* in blob */
    size_t nrets;
    memo_open *routine, *arc;   /* in blob */
    size_t nroutine, narc;
    size_t narcs, nundecoded;
    size_t bytes;
    /* what a hit reads, in the order it reads it, in one block (keep): the return targets,
    ** the routines and arcs, the key, CPU 0 after. An entry held all but the key in place,
    ** at their most: 4.4 KB, which a hit touched here and there (cgen seed 27938: 700 K
    ** hits, 30 MB kept) */
    unsigned char *blob;
};

void fst_rp_memo_init(rp *x)
{
    rp_memo *m = &x->memo;
    const char *no = getenv("FST_REPLAY_NOMEMO");
    m->on = x->fold.on && !(no && *no && *no != '0');
    m->eager = x->fold.eager;
    if (m->on && !x->ncpu)
        fst_rp_cpu_grow(x, 0);  /* as the first record of any CPU would: fst_rp_memo_wants reads it */
}

/* The tables, at the first call looked at (a replay with no call pays nothing), in one
** block of 256 KiB: the C library maps so large a block from the system, zeroed, without
** writing it, and a page costs only once a call touches it. */
static void tables(rp_memo *m)
{
    _Static_assert(MEMO_SLOTS * sizeof(rp_memo_ent *) % _Alignof(memo_seen) == 0, "the seen table after the slots");
    m->slot = fst_xcalloc(1, MEMO_SLOTS * sizeof *m->slot + MEMO_SEEN * sizeof *m->seen);
    m->seen = (memo_seen *)(void *)(m->slot + MEMO_SLOTS);
}

static void ent_free(rp_memo *m, rp_memo_ent *e)
{
    if (!e)
        return;
    m->bytes -= e->bytes;
    free(e->blob);
    free(e->ops);
    free(e->delta);
    free(e->count);
    free(e->opn);
    free(e->out);
    free(e);
}

void fst_rp_memo_free(rp *x)
{
    rp_memo *m = &x->memo;
    free(m->pend);
    if (m->on && getenv("FST_REPLAY_FOLD_STATS"))
        fprintf(stderr, "fst: replay: calls memoized: %llu hits (%llu runs, %llu instructions skipped), %llu recordings, "
                "%llu kept, %llu dropped, %zu bytes, %llu runs recorded; call sites judged a loss %llu times\n",
                (unsigned long long)m->hits, (unsigned long long)m->skipped, (unsigned long long)m->insns,
                (unsigned long long)m->recordings, (unsigned long long)m->kept, (unsigned long long)m->dropped, m->bytes,
                (unsigned long long)m->rec_runs, (unsigned long long)m->sites_off);
    for (size_t i = 0; m->slot && m->bytes && i < MEMO_SLOTS; i++) /* bytes: none left, no look */
        while (m->slot[i]) {
            rp_memo_ent *e = m->slot[i];
            m->slot[i] = e->next;
            ent_free(m, e);
        }
    free(m->slot);      /* and the seen table with it (tables) */
    free(m->key);
    free(m->jblk);
    free(m->out);
    fst_rp_regions_free(&m->rs);
}

/* ---- the key ---- */

/* CPU 0's state as the key holds it: all but the entries of `since` not used (BASES' list,
** empty where the memo works, is 1 KiB of rp_cpu's 1.7) and the EXEC event reused
** (exec, the last field); the key and the copy at reuse were most of a hit's cost (a
** FORTRAN load module whose subtrees the memo took 97 % of: tests/loops/fortbig.py). */
#define CPU_A offsetof(rp_cpu, since)
#define CPU_B offsetof(rp_cpu, nsince)
#define CPU_END offsetof(rp_cpu, exec)
_Static_assert(offsetof(rp_cpu, exec) + sizeof(fst_event) == sizeof(rp_cpu), "exec is rp_cpu's last field");
static size_t since_bytes(const rp_cpu *c)  /* a ring: nsince counts on past its 64 */
{
    size_t n = sizeof c->since / sizeof c->since[0];
    return (c->nsince < n ? c->nsince : n) * sizeof c->since[0];
}

static size_t cpu_key(unsigned char *b, const rp_cpu *c)
{
    size_t s = since_bytes(c);
    memcpy(b, c, CPU_A);
    memcpy(b + CPU_A, c->since, s);
    memcpy(b + CPU_A + s, (const unsigned char *)c + CPU_B, CPU_END - CPU_B);
    return CPU_A + s + CPU_END - CPU_B;
}

/* CPU 0's state as an entry keeps it for after the return: cpu_key's, and the reused EXEC
** event (exec) after it: what the replay reads (of `since`, the entries used) */
static size_t cpu_kept_len(const rp_cpu *c)
{
    return CPU_A + since_bytes(c) + sizeof(rp_cpu) - CPU_B;
}

/* *to = the state b of length n (cpu_kept_len's) */
static void cpu_copy(rp_cpu *to, const unsigned char *b, size_t n)
{
    size_t s = n - CPU_A - (sizeof(rp_cpu) - CPU_B);
    memcpy(to, b, CPU_A);
    memcpy(to->since, b + CPU_A, s);
    memcpy((unsigned char *)to + CPU_B, b + CPU_A + s, sizeof(rp_cpu) - CPU_B);
}

/* The task as the key holds it: from have_prev up to its clock (insns), padding too; the
** stack (f, routine, n, cap, rets) and the clock are no part of it, and lie outside. */
#define TASK_A offsetof(rp_task, have_prev)
#define TASK_B offsetof(rp_task, insns)
_Static_assert(offsetof(rp_task, f) < TASK_A && offsetof(rp_task, routine) < TASK_A && offsetof(rp_task, n) < TASK_A &&
               offsetof(rp_task, cap) < TASK_A && offsetof(rp_task, rets) < TASK_A &&
               offsetof(rp_task, cost) >= TASK_B, "rp_task: the key's fields in one span");
_Static_assert(sizeof(((rp_task *)0)->f) + sizeof(((rp_task *)0)->routine) + sizeof(((rp_task *)0)->n) +
                       sizeof(((rp_task *)0)->cap) + sizeof(((rp_task *)0)->rets) + sizeof(((rp_task *)0)->insns) +
                       sizeof(((rp_task *)0)->cost) == TASK_A + (sizeof(rp_task) - TASK_B),
               "rp_task: a field outside the key's span that is not the stack or the clock");

/* The key's last words: the depth as far as a subtree can tell it (none open below: a call
** from outside every routine, as in a window begun inside one, may enter the mainline; one:
** the mainline's return leaves the program; more), and what else it reads. */
#define KEY_TAIL 6
static void key_tail(const rp *x, size_t tid, size_t tail[KEY_TAIL])
{
    const rp_task *t = &x->t[tid];
    size_t v[KEY_TAIL] = { tid, top_owner(t), t->n < 2 ? t->n : 2, (size_t)x->regs, x->nt, x->ncpu };
    memcpy(tail, v, sizeof v);
}

/* CPU 0's state and task tid's, less the clock, the stack and the scratch event, and what
** of the frames below matters beyond the lists (the file's head), into *buf; its length. */
static size_t mkey(const rp *x, size_t tid, unsigned char **buf, size_t *cap)
{
    size_t n = sizeof(rp_cpu) + (TASK_B - TASK_A) + KEY_TAIL * sizeof(size_t);
    if (n > *cap) {
        *cap = n;
        *buf = fst_xrealloc(*buf, n);
    }
    unsigned char *b = *buf, *bt = b + cpu_key(b, &x->cpus[0]);
    memcpy(bt, (const unsigned char *)&x->t[tid] + TASK_A, TASK_B - TASK_A);
    size_t tail[KEY_TAIL];
    key_tail(x, tid, tail);
    memcpy(bt + (TASK_B - TASK_A), tail, sizeof tail);
    return (size_t)(bt - b) + (TASK_B - TASK_A) + sizeof tail;
}

/* Whether the state now is the key k of length n (mkey's), compared where it lies: a hit
** copied some 700 bytes into a buffer to compare them (gen.py seed 20059, 9.4 M hits: the
** copy a tenth of its replay). */
static int key_same(const rp *x, size_t tid, const unsigned char *k, size_t n)
{
    const rp_cpu *c = &x->cpus[0];
    size_t s = since_bytes(c), nc = CPU_A + s + CPU_END - CPU_B;
    if (n != nc + (TASK_B - TASK_A) + KEY_TAIL * sizeof(size_t))
        return 0;
    size_t tail[KEY_TAIL];
    key_tail(x, tid, tail);
    return !memcmp(k, c, CPU_A) && !memcmp(k + CPU_A, c->since, s) &&
           !memcmp(k + CPU_A + s, (const unsigned char *)c + CPU_B, CPU_END - CPU_B) &&
           !memcmp(k + nc, (const unsigned char *)&x->t[tid] + TASK_A, TASK_B - TASK_A) &&
           !memcmp(k + nc + (TASK_B - TASK_A), tail, sizeof tail);
}

static uint64_t signature(const rp *x, const fst_rec *rec, const fst_tr_mark *ma)
{
    const rp_cpu *c = &x->cpus[0];
    const rp_task *t = &x->t[c->task];
    uint64_t h = rec->addr * 0x9E3779B97F4A7C15ull ^ ma->c.cur * 0xC2B2AE3D27D4EB4Full;
    h ^= (c->prev.addr + ((uint64_t)ma->c.state << 32)) * 0x165667B19E3779F9ull;
    h ^= ((uint64_t)c->task * 0x10001 + top_owner(t) * 0x1000193) * 0x27D4EB2F165667C5ull;
    for (int i = 0; i < ma->c.jm.n && i < 4; i++)  /* the others are compared with the bytes */
        h = (h ^ ma->c.jm.a[i]) * 0x100000001B3ull;
    return h ^ h >> 31;
}

/* ---- recording ---- */

/* What the recording ending now costs besides its copies (spend's rec_cost, paid when it
** began): its runs replayed slowly (MEMO_REC_RUN), where its signature never paid */
static uint64_t rec_runs_cost(const rp_memo *m)
{
    const memo_seen *s = m->seen ? &m->seen[m->sig % MEMO_SEEN] : NULL;
    if (m->eager || !s || s->sig != m->sig || s->hit || s->recs < 2)
        return 0;
    return m->runs * MEMO_REC_RUN;
}

/* A recording ends: what its runs cost */
static void rec_ended(rp_memo *m)
{
    m->spent += rec_runs_cost(m);
    m->rec_runs += m->runs;
}

static void stop(rp_memo *m)
{
    m->rec = 0;
    rec_ended(m);
    m->dropped++;
}

static void begin(rp *x, uint64_t sig, const fst_tr_mark *ma)
{
    rp_memo *m = &x->memo;
    fst_profile *p = x->p;
    size_t tid = x->cpus[0].task;
    if (m->rec) {
        rec_ended(m);
        m->dropped++;   /* a deeper call takes it over */
    }
    m->rec = 1;
    m->sig = sig;
    m->tid = tid;
    m->depth = m->low = x->t[tid].n;
    m->a = *ma;
    m->keylen = mkey(x, tid, &m->key, &m->keycap);
    fst_rp_regions(x, tid, &m->rs, 1);
    m->stamp++;         /* no block has its counts in yet */
    m->njblk = 0;
    m->nrets = m->nroutines = 0;
    m->spoiled = 0;
    m->runs = 0;
    m->nout = 0;
    m->was[0] = x->nslow;
    m->was[1] = fst_rp_other_events(x);
    m->was[2] = x->code->builds;
    m->was[3] = p->misfit_calls;
    m->was[4] = p->narcs;
    m->was[5] = p->nundecoded;
    m->was[6] = p->ntasks;
    m->was[7] = x->nt;
    m->recordings++;
}

/* Whether what came meanwhile leaves the recording good (the file's head). */
static int still_good(const rp *x)
{
    const rp_memo *m = &x->memo;
    const fst_profile *p = x->p;
    uint64_t now[] = { x->nslow, fst_rp_other_events(x), x->code->builds, p->misfit_calls, p->narcs, p->nundecoded,
                       p->ntasks, x->nt };
    return !m->spoiled && !memcmp(now, m->was, sizeof now) && x->fold.mode != 2 && !x->tainted && !x->bases &&
           x->ncpu == 1 && x->cpus[0].task == m->tid && !x->cpus[0].handler;
}

/* v into a recording's set of n (at most max): too many spoil the recording. */
static void note(rp_memo *m, uint64_t *set, size_t *n, size_t max, uint64_t v)
{
    for (size_t i = 0; i < *n; i++)
        if (set[i] == v)
            return;
    if (*n == max)
        m->spoiled = 1;
    else
        set[(*n)++] = v;
}

void fst_rp_memo_out(rp *x, const fst_event *e)
{
    rp_memo *m = &x->memo;
    /* handed again as one event: only to sinks that take them in batches (the diagnosis,
    ** which adds them up); a sink that wants each one spoils the recording */
    if (!x->takes_batch[FST_CHARGE_OUTSIDE] || fst_rp_out_add(&m->out, &m->nout, &m->outcap, MEMO_OUT_MAX, e) < 0)
        m->spoiled = 1;
}

void fst_rp_memo_note_ret(rp *x, uint64_t addr)
{
    note(&x->memo, x->memo.rets, &x->memo.nrets, MEMO_RETS, addr);
}

void fst_rp_memo_touch(rp *x, fst_blk *b)
{
    rp_memo *m = &x->memo;
    if (m->njblk == m->jblkcap) {
        m->jblkcap = m->jblkcap ? m->jblkcap * 2 : 64;
        m->jblk = fst_xrealloc(m->jblk, m->jblkcap * sizeof *m->jblk);
    }
    m->jblk[m->njblk].slot = (size_t)(b - x->code->blk);
    memcpy(m->jblk[m->njblk++].ran, b->ran, sizeof b->ran);
    b->mstamp = m->stamp;
}

void fst_rp_memo_note_call(rp *x, size_t r)
{
    note(&x->memo, x->memo.routines, &x->memo.nroutines, MEMO_ROUTINES, r);
}

/* n executions of d, as fst_rp_count_ops adds them at reuse: summed per op id and in a gap
** once here, rather than per instruction at every reuse (a FORTRAN subtree of 200
** instructions: ~150 of them, each with a search of the sections, were 60 % of a replay
** that the memo took 97 % of: tests/loops/fortbig.py seed 808). */
static void count_in(const rp *x, rp_memo_ent *e, const fst_insn *d, uint64_t n, size_t *ccap, size_t *ocap)
{
    if (d->op == FST_OP_UNKNOWN) {
        if (e->ncount == *ccap) {
            *ccap = *ccap ? *ccap * 2 : 4;
            e->count = fst_xrealloc(e->count, *ccap * sizeof *e->count);
        }
        e->count[e->ncount++] = (memo_count){ *d, n };
        return;
    }
    size_t i = 0;
    while (i < e->nopn && e->opn[i].op != d->op)
        i++;
    if (i == e->nopn) {
        if (e->nopn == *ocap) {
            *ocap = *ocap ? *ocap * 2 : 16;
            e->opn = fst_xrealloc(e->opn, *ocap * sizeof *e->opn);
        }
        e->opn[e->nopn++] = (memo_opn){ 0, d->op };
    }
    e->opn[i].n += n;
    if (fst_rp_gap_at(x, d->addr)) {
        if (!e->gap_n)
            e->gap_first = d->addr;
        e->gap_n += n;
    }
}

/* The deltas since begin(): counters by kind, index and offset; a block's counts as counts
** per op id (count_in). */
static void deltas(rp *x, rp_memo_ent *e)
{
    rp_memo *m = &x->memo;
    size_t cap = 0, ccap = 0, ocap = 0;
    for (size_t j = 0; j < m->njblk; j++) {    /* the blocks it ran */
        const fst_blk *b = &x->code->blk[m->jblk[j].slot];
        uint64_t run = 0;
        for (uint32_t k = 0; k < b->n; k++) {
            run += b->ran[k] - m->jblk[j].ran[k];
            if (run)
                count_in(x, e, &b->e[k].d, run, &ccap, &ocap);
        }
    }
    const uint64_t *v = m->rs.val;
    for (size_t i = 0; i < m->rs.nreg; v += m->rs.reg[i++].n) {
        const rp_reg *g = &m->rs.reg[i];
        for (size_t k = 0; k < g->n; k++) {
            if (!(k & 7) && g->n - k >= 8 && !memcmp(g->p + k, v + k, 8 * sizeof *v)) {
                k += 7;     /* eight unchanged at once: most of the instruction mix is */
                continue;
            }
            uint64_t d = g->p[k] - v[k];
            if (!d)
                continue;
            if (g->kind == RP_K_TASK) { /* the call graph reads the clock at every event */
                e->clock[k] = d;
                continue;
            }
            if (e->ndelta == cap) {
                cap = cap ? cap * 2 : 16;
                e->delta = fst_xrealloc(e->delta, cap * sizeof *e->delta);
            }
            e->delta[e->ndelta++] = (memo_delta){ g->kind, g->idx, k, d };
        }
    }
}

/* What the subtree did, into e (the file's head); 0 when it cannot be kept. */
static int keep(rp *x, rp_memo_ent *e)
{
    rp_memo *m = &x->memo;
    e->task = x->t[m->tid];
    deltas(x, e);
    size_t narc = 0;
    for (size_t i = 0; i < e->ndelta; i++)
        narc += e->delta[i].kind == RP_K_ARC && e->delta[i].k == 0;    /* a counted call: its arc opened */
    if (narc > MEMO_ROUTINES)
        return 0;
    _Static_assert(sizeof(memo_open) % sizeof(uint64_t) == 0, "the blob's parts aligned");
    e->cpulen = cpu_kept_len(&x->cpus[0]);
    e->blob = fst_xmalloc(m->nrets * sizeof *e->rets + (m->nroutines + narc) * sizeof(memo_open) + m->keylen +
                          e->cpulen);
    e->rets = (uint64_t *)(void *)e->blob;
    e->routine = (memo_open *)(void *)(e->rets + m->nrets);
    e->arc = e->routine + m->nroutines;
    e->key = (unsigned char *)(e->arc + narc);
    e->cpu = e->key + m->keylen;
    e->keylen = m->keylen;
    memcpy(e->key, m->key, m->keylen);
    cpu_key(e->cpu, &x->cpus[0]);
    memcpy(e->cpu + e->cpulen - (sizeof(rp_cpu) - CPU_END), &x->cpus[0].exec, sizeof(rp_cpu) - CPU_END);
    memcpy(e->rets, m->rets, m->nrets * sizeof *e->rets);
    e->nrets = m->nrets;
    for (size_t i = 0; i < m->nroutines; i++) {  /* the subtree's frames are closed: what is open is below */
        e->routine[i].r = (size_t)m->routines[i];
        e->routine[i].open = fst_callgraph_open(x->cg, (uint32_t)m->tid, m->routines[i]);
    }
    e->nroutine = m->nroutines;
    for (size_t i = 0; i < e->ndelta; i++)
        if (e->delta[i].kind == RP_K_ARC && e->delta[i].k == 0) {
            e->arc[e->narc].r = e->delta[i].idx;
            e->arc[e->narc++].open = fst_callgraph_arc_open(x->cg, (uint32_t)m->tid, e->delta[i].idx);
        }
    e->narcs = x->p->narcs;
    e->nundecoded = x->p->nundecoded;
    if (m->nout) {
        e->nout = m->nout;
        e->out = fst_xmalloc(m->nout * sizeof *e->out);
        memcpy(e->out, m->out, m->nout * sizeof *e->out);
    }
    return 1;
}

/* The call returned: keep what it did. */
static void finish(rp *x, fst_tr *tr)
{
    fst_rp_memo_settle(x);  /* deltas() reads the counters; entries may be freed */
    fst_rp_out_flush(x);    /* the caller's run after the return: kept (rp_memo.out) */
    rp_memo *m = &x->memo;
    m->rec = 0;
    rec_ended(m);
    fst_tr_mark b;
    uint64_t insns;
    size_t nops;
    if (!still_good(x) || !fst_tr_mark_here(tr, &b) ||
        !(nops = fst_tr_mark_copy(&m->a, &b, NULL, MEMO_OPS_MAX, &insns))) {
        m->dropped++;
        return;
    }
    rp_memo_ent *e = fst_xcalloc(1, sizeof *e);
    e->sig = m->sig;
    e->a = m->a;
    e->b = b;
    e->ops = fst_xmalloc(nops);
    e->nops = fst_tr_mark_copy(&m->a, &b, e->ops, nops, &e->insns);
    e->runs = m->runs;
    e->small = m->runs < MEMO_MIN_RUNS;
    e->small_left = MEMO_SMALL_USES;
    if (!e->small && !keep(x, e)) {
        ent_free(m, e);
        m->dropped++;
        return;
    }
    e->bytes = sizeof *e + e->keylen + e->cpulen + e->nrets * sizeof *e->rets +
               (e->nroutine + e->narc) * sizeof(memo_open) + e->nops + e->ndelta * sizeof *e->delta +
               e->ncount * sizeof *e->count + e->nopn * sizeof *e->opn + e->nout * sizeof *e->out;
    m->bytes += e->bytes;
    rp_memo_ent **slot = &m->slot[m->sig % MEMO_SLOTS];
    e->next = *slot;
    *slot = e;
    size_t n = 1;
    for (rp_memo_ent **q = &e->next; *q; n++)
        if (n >= MEMO_WAYS || m->bytes > MEMO_BYTES) {    /* the ones reused least lately go */
            rp_memo_ent *o = *q;
            *q = o->next;
            ent_free(m, o);
        } else
            q = &(*q)->next;
    if (m->bytes > MEMO_BYTES) {    /* the others' slots hold the memory: not this one */
        *slot = e->next;
        ent_free(m, e);
        m->dropped++;
        return;
    }
    m->kept++;
}

void fst_rp_memo_after(rp *x, fst_tr *tr)
{
    rp_memo *m = &x->memo;
    m->runs++;
    size_t n = m->tid < x->nt ? x->t[m->tid].n : 0;
    const fst_tr_cursor *at = fst_tr_cursor_of(tr);
    if (m->low < m->depth || n < m->depth)
        stop(m);    /* it returned below the call: no subtree */
    else if (at->end != m->a.c.end || (size_t)(at->p - m->a.c.p) > MEMO_OPS_MAX)
        stop(m);    /* another frame, or more bytes than a subtree keeps (finish would drop
                    ** it): a call that runs long stops being recorded here, not at its
                    ** return, and the stretches, which wait while a call is recorded, go
                    ** on (gen.py loops seed 35332: replay 1.75 -> 0.74 s) */
    else if (n == m->depth && !fst_tr_seq_left(tr))
        finish(x, tr);  /* returned, and the reader is between records (else at the run's end) */
}

void fst_rp_memo_stop(rp *x)
{
    stop(&x->memo);
}

/* ---- reuse ---- */

/* The deltas of the subtrees reused since the last call, times their hits. Until then the
** counters they add to (the profile's, the routines', the arcs', the task's tables) lag
** behind; nothing reads them during the replay but a recording's snapshot and deltas
** (fst_rp_regions, the fold's and the memo's ends, which call this) and the replay's end.
** A hit then costs a count, not an addition at each of its counters (some 60 for a
** FORTRAN routine's call, in as many cache lines: fortbig's memo of calls spent most of its
** time there). The task's clock is added at once: the call graph reads it at every event. */
void fst_rp_memo_settle(rp *x)
{
    rp_memo *m = &x->memo;
    for (size_t j = 0; j < m->npend; j++) {
        rp_memo_ent *e = m->pend[j];
        uint64_t *at = NULL;    /* deltas come region by region (deltas()): one look-up each */
        for (size_t i = 0; i < e->ndelta; i++) {
            const memo_delta *d = &e->delta[i];
            if (!i || d->kind != d[-1].kind || d->idx != d[-1].idx)
                at = fst_rp_region_at(x, e->ptid, d->kind, d->idx);
            at[d->k] += d->d * e->pend;   /* modulo 2^64, as the counters are */
        }
        e->pend = 0;
    }
    m->npend = 0;
}

/* Whether e may stand for the call at hand (the file's head); then it is applied and 1. */
static int reuse(rp *x, fst_tr *tr, rp_memo_ent *e, const fst_tr_mark *ma)
{
    rp_memo *m = &x->memo;
    fst_profile *p = x->p;
    rp_cpu *c = &x->cpus[0];
    size_t tid = c->task;
    rp_task *t = &x->t[tid];
    uint64_t site = c->prev.addr;   /* the call's (fst_rp_memo_whole) */
    if (e->narcs > p->narcs || e->nundecoded > p->nundecoded || tid >= p->ntasks || e->small)
        return 0;
    if (!key_same(x, tid, e->key, e->keylen))
        return 0;
    for (size_t i = 0; i < e->nrets; i++)
        if (fst_rp_returns_open(t, e->rets[i]))
            return 0;
    for (size_t i = 0; i < e->nroutine; i++)
        if (fst_callgraph_open(x->cg, (uint32_t)tid, e->routine[i].r) != e->routine[i].open)
            return 0;
    for (size_t i = 0; i < e->narc; i++)
        if (fst_callgraph_arc_open(x->cg, (uint32_t)tid, e->arc[i].r) != e->arc[i].open)
            return 0;
    if (!fst_tr_skip_to(tr, ma, &e->a, e->ops, e->nops, &e->b))
        return 0;
    /* from here on it is done */
    if (m->rec) {   /* inside a call being recorded: what e's reuse looks at, the recording's
                    ** must too (its deltas hold e's: a routine e calls, outermost here, may be
                    ** open where the recording is reused) */
        for (size_t i = 0; i < e->nrets; i++)
            fst_rp_memo_note_ret(x, e->rets[i]);
        for (size_t i = 0; i < e->nroutine; i++)
            fst_rp_memo_note_call(x, e->routine[i].r);
    }
    if (e->clock[0] | e->clock[1]) {
        uint64_t *ck = fst_rp_region_at(x, tid, RP_K_TASK, 0);
        ck[0] += e->clock[0];
        ck[1] += e->clock[1];
    }
    if (e->ndelta && !e->pend++) {  /* the rest when the counters are read */
        if (m->npend == m->pendcap)
            m->pend = fst_xrealloc(m->pend, (m->pendcap = m->pendcap ? 2 * m->pendcap : 64) * sizeof *m->pend);
        m->pend[m->npend++] = e;
        e->ptid = tid;
    }
    for (size_t i = 0; i < e->nopn; i++)
        p->op_insns[e->opn[i].op] += e->opn[i].n;
    if (e->gap_n)
        fst_rp_gap_add(p, e->gap_first, e->gap_n);
    for (size_t i = 0; i < e->ncount; i++)
        fst_rp_count_ops(x, &e->count[i].d, e->count[i].n);
    if (e->nout)
        fst_rp_out_emit(x, e->out, e->nout, tid);
    cpu_copy(c, e->cpu, e->cpulen);
    /* the task as it was after the return, but its stack and clock (the key's span) */
    memcpy((unsigned char *)t + TASK_A, (const unsigned char *)&e->task + TASK_A, TASK_B - TASK_A);
    m->hits++;
    m->skipped += e->runs;
    m->insns += e->insns;
    rp_memo_site *st = &m->site[fst_rp_memo_slot(site)];    /* the call's (site_try) */
    st->runs = e->runs;
    st->gain += e->insns;
    st->hits++;
    return 1;
}

/* The budget (replay_fold.c's head): whether `units` may be spent now. When a look may
** not, the next MEMO_QUIET calls are not looked at; a recording that may not only waits
** (the calls memoized meanwhile earn it). */
static int spend(rp *x, uint64_t units, int look)
{
    rp_memo *m = &x->memo;
    if (m->eager)
        return 1;
    uint64_t earned = x->fold.seen * MEMO_EARN_RUN + m->insns * MEMO_EARN_INSN;
    if (m->spent + units > earned) {
        if (look)
            m->quiet = MEMO_QUIET;
        return 0;
    }
    m->spent += units;
    return 1;
}

/* What a recording costs: its counters copied and compared, its key. */
static uint64_t rec_cost(const rp_memo *m)
{
    size_t words = m->rs.nval + m->njblk * (FST_BLK_MAX + 2);  /* the last one's blocks too */
    return MEMO_REC_FIXED + MEMO_REC_COUNTER * (words ? words : 1024) +
           (sizeof(rp_cpu) + sizeof(rp_task)) / sizeof(uint64_t);
}

/* A call at site looked at (fst_rp_memo_call): the site's slot, judged after SITE_TRIES
** such calls or SITE_RECS recordings begun there (four times as many the first time: a
** recursion's subtrees are recorded bottom up, and its hits come late). A loss when its
** calls took fewer hits than recordings (or none) and the instructions those hits skipped
** are fewer than its recordings and looks cost (SITE_REC_RUNS and SITE_TRY_RUNS runs each,
** at the lean loop's instructions a run): its next calls are passed by (fst_rp_memo_pass),
** 2^SITE_BACKOFF0 of them, four times as many each time it is judged a loss again, up to
** 2^SITE_BACKOFF_MAX. Where subtrees seldom repeat, the budget's units (host instructions)
** priced the memo's looks, recordings and hits at a fraction of what they cost in time (the
** cache lines of keys and entries): cgen 27938 with its functions 4 KiB apart replayed in
** 0.87 s with it, 0.76 s without; sites judged so, 0.59 s (docs/internals.md). */
static rp_memo_site *site_try(rp *x, uint64_t site)
{
    rp_memo *m = &x->memo;
    rp_memo_site *s = &m->site[fst_rp_memo_slot(site)];
    if (s->site != site)
        *s = (rp_memo_site){ .site = site };
    unsigned w = s->judged ? 1 : 4;
    if ((++s->tries < SITE_TRIES * w && s->recs < SITE_RECS * w) || m->eager)
        return s;
    s->judged = 1;
    uint64_t ipr = x->nleanr >= 4096 ? x->nlean / x->nleanr + 1 : 8;    /* instructions a run */
    if ((s->hits < s->recs || !s->hits) &&
        s->gain < ((uint64_t)s->recs * SITE_REC_RUNS + (uint64_t)s->tries * SITE_TRY_RUNS) * ipr) {
        s->backoff = s->backoff ? (s->backoff + 2 < SITE_BACKOFF_MAX ? s->backoff + 2 : SITE_BACKOFF_MAX) : SITE_BACKOFF0;
        s->skip = 1u << s->backoff;
        m->sites_off++;
    } else
        s->backoff = 0;
    s->tries = s->recs = s->hits = 0;
    s->gain = 0;
    return s;
}

int fst_rp_memo_call(rp *x, fst_tr *tr, const fst_rec *rec, const fst_tr_mark *ma)
{
    rp_memo *m = &x->memo;
    rp_cpu *c = &x->cpus[0];
    if (x->ncpu != 1 || rec->cpu || !c->ran || c->handler || c->task == FST_NONE ||
        rec->state != c->prev_state || x->tainted || x->bases || x->fold.mode)
        return 0;
    if (!taken_to(&c->prev, rec->addr) || find_entry_for(x, c->task, rec->addr) == FST_NONE)
        return 0;
    rp_memo_site *st = site_try(x, c->prev.addr);
    if (!spend(x, MEMO_SIG, 1))
        return 0;
    if (!m->seen)
        tables(m);
    /* the signature, and the trace's next 16 bytes: where the subtrees of one call site part
    ** (a tree walked, a function of its arguments), so that each has a slot of its own */
    size_t left = (size_t)(ma->c.end - ma->c.p);
    if (left < 16)
        return 0;
    uint64_t w[2];
    memcpy(w, ma->c.p, sizeof w);
    uint64_t sig = signature(x, rec, ma) ^ w[0] * 0xD6E8FEB86659FD93ull ^ w[1] * 0xA0761D6478BD642Full;
    sig ^= sig >> 29;
    memo_seen *s = &m->seen[sig % MEMO_SEEN];
    if (s->sig != sig) {        /* seen once: recorded the second time */
        *s = (memo_seen){ .sig = sig };
        if (!m->eager)
            return 0;
    }
    if (s->skip) {              /* its calls have not been worth it lately */
        s->skip--;
        return 0;
    }
    if (!spend(x, MEMO_LOOK, 1))
        return 0;
    /* what is pending goes to the clocks now, which count it already (replay_exec.c): the
    ** same sums, and the key need not hold how many EXECs the caller had run since its
    ** last change of owner (in a recursion, all of them) */
    fst_rp_flush(x, c);
    /* the slot's subtrees of this signature from this reader state whose bytes come next:
    ** one at most (a subtree's bytes end at its return, which no other subtree's bytes can
    ** hold at the same place; the same bytes from another state, recent jump targets that
    ** differ where no JMP k of them looks, are another subtree: tracebin.h
    ** fst_tr_mark_same_state) */
    rp_memo_ent **first = &m->slot[sig % MEMO_SLOTS];
    int known = 0;
    for (rp_memo_ent **q = first, *e; (e = *q); q = &e->next)
        if (e->sig == sig && e->nops <= left && fst_tr_mark_same_state(ma, &e->a) &&
            !memcmp(ma->c.p, e->ops, e->nops)) {
            if (e->small && !--e->small_left) {
                *q = e->next;   /* looked at often enough: record what comes */
                ent_free(m, e);
                break;
            }
            known = e->small;
            if (e->small || !reuse(x, tr, e, ma))
                break;      /* not worth it, or not from here */
            *q = e->next;   /* to the front */
            e->next = *first;
            *first = e;
            s->misses = 0;
            s->backoff = 0;
            s->hit = 1;
            return 1;
        }
    if (++s->misses >= MEMO_MISSES && !m->eager) {  /* back off: a call costs a look then */
        st->runs = 0;   /* and the stretches may take its calls again */
        s->backoff = s->backoff ? (s->backoff < MEMO_BACKOFF ? s->backoff + 1 : s->backoff) : 4;
        s->skip = 1u << s->backoff;
        s->misses = 0;
        return 0;
    }
    if (!known && spend(x, rec_cost(m), 0)) {
        s->recs += s->recs < UINT16_MAX;
        st->recs++;
        begin(x, sig, ma);  /* (a subtree known to be small is not recorded again) */
    }
    return 0;
}
