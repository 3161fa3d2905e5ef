/* analyze/replay/replay_chunk.c — stretches of runs memoized (replay_int.h): a few SEQ runs
** in a row, with the calls and returns in them, replayed once, recorded, and from then on
** added up wherever the trace repeats them from the same state. For code whose branches go by
** data (gcc -O2 sorting, hashing, classifying: tests/shapes/branchy.c), where nothing is
** periodic for folding (replay_fold.c) and no call's whole subtree comes back for the memo
** (replay_memo.c), but the same few runs follow each other again and again.
**
** Why it is exact. The replay is deterministic (replay_fold.c's head). Between two runs,
** when the CPU runs a task with nothing pending (no interruption, gap, dispatch, guess or
** BASES), one CPU, no sink but the call graph wanting what a run does, and the previous
** instruction does not link (a call: the memo of calls looks there), insn_fast and
** seq_rest take each run, and what they do to the replay depends only on: the run (the
** reader hands out the same runs from the same address over the same op bytes when the
** recent jump targets they jump to are the same and those their JMPAs put in front are not
** there: trace/tracebin.h fst_tr_fast_deps), the previous instruction and its
** prices, the owner charged and the charge, the task, whether frames are open, the blocks
** decoded (the same while no block is built and the code's epoch is the same), and the
** frames it returns from ("Calls" below). That is the key, compared whole. What they
** change: counters only (the blocks' counts, the instruction mix for the instructions
** counted one by one, the EXECs pending), the CPU's and task's previous instruction and
** prices, the registers written (c->dirty), the window's count and the reader, and what
** calls and returns do ("Calls"). A recording stops before a run whose previous
** instruction links other than through register 14 (in a phase without calls: that links,
** or may return with frames open), and is dropped when anything else happens: a run
** insn() took, one not taken whole, a block built, an opcode not known (without calls: a
** frame pushed or popped, another owner or charge). A recording notes, for each block it
** runs (fst_rp_chunk_touch from seq_rest) and each instruction counted one by one, the
** counters as they were; their differences at its end are its deltas. A reuse takes the new state and counts a hit; the
** deltas are added, times the hits, when the counters are read (fst_rp_chunk_settle).
**
** Calls. A stretch may call a routine (a branch linking through register 14 to an entry)
** and return, from its calls or from the frames it began under. What a call or a return
** does besides counters is what the recording notes of it (fst_rp_chunk_frame,
** fst_rp_chunk_flush): each flush of the pending instructions to an owner (n, cost), each
** frame's event at the task's clock counted from the stretch's start, the frame a call
** pushed, and each frame it returned from below its start, as it was. A hit plays them back
** in order (frames): the flush of what was pending before the stretch (a recording begins
** with one: flushes only add, so one more changes no figure), each frame pushed on the
** replay's stack or popped from it (not a call the stretch returns from, nor that return:
** the stack is as it was after both), and each call and return to the call graph at the
** clock then, whose own rules (the outermost frame of a routine and of an arc, the arcs,
** the task's table) take it from there as they did; a leaf call and its return, one call
** of the call graph's (fst_callgraph_pair: no frame pushed and popped there either); then
** the stretch's flushes, added up by owner and charge when it was kept (they only add, and
** the events' clocks are the stretch's own: gen.py seed 16252, a leaf called every 17
** instructions, 64.8 -> 60.1 G host instructions). What of the stack it read is compared
** before (below_same): the frames it returned from below its start, and the owner of the
** one under them (its caller's, charged after the return). Nothing else of the stack plays
** a part: a return-like branch that does not return to the top frame would look further
** down (replay_stack.c returns()), so it spoils
** the recording, as an UNWIND, a misfit, the mainline's entry or a return from the last
** frame do. Nothing else changes: only the call graph wants frames when stretches are on
** (fst_rp_fold_init: no sink wants CALL, RETURN or UNWIND, nor an EXEC charged to a
** routine). Whether the phase records calls is tried as len is (below): a hit with calls
** costs its flushes and call-graph work (CH_FOP each), which some programs' record loop
** does as cheaply. branchy -O2 (classify, a leaf, 16 times a round): 0.42 -> 0.30 s; cgen
** seed 11985 (a call every 29 instructions): 0.87 -> 0.78 s. FST_REPLAY_CHUNK=nocalls
** records none (the tests compare).
** A call the memo of calls took whole last time at its site, a subtree of FST_MEMO_WHOLE (32)
** runs or more (replay_int.h fst_rp_memo_whole), is left to it: no look where a call to
** it comes next, and a recording stops before one. Taken, a stretch held the call and its
** first few runs, and the rest of the subtree went to the record loop: gen.py seed 19191
** (FORTRAN routines called in loops), the memo skipped 63 M of its 116 M instructions with
** the stretches on and 105 M with them off (2026-12-07, best of 3 alternating, the same
** reports: 19191 0.096 -> 0.054 s, 11223 0.119 -> 0.081, fortbig seed 29990 0.12 s, where
** without the stretches 0.097 and 0.12; 38910, whose memo takes subtrees of 25 runs, branchy
** -O2, cgen and 14 other drawn loop programs the same).
**
** Which stretches: at most len runs and CH_BYTES op bytes, from any record-loop turn where
** the state allows one; looked up by a hash of the key and the next len runs' op bytes. A
** stretch may hold JMPAs (S/370 code, whose branches all name their targets by register:
** a loop among more than 4 targets jumps by JMPA every few runs; gen.py seed 16252, a tiny
** leaf called in an LCG loop, replayed 1 run a hit before, 4.2 now, 843 M instructions in
** 7.9 s before, 5.1 s after) and depends then only on what the list of recent targets
** holds where it looks (fst_tr_fast_deps: the targets it jumps to, and that its JMPAs'
** are not there), not on the whole list, which the loops' stretches met seldom alike
** (16252: 305 stretches kept where the whole list asked 578). len is 8 or 4, whichever
** gained more (hits' runs earned, and the runs folding and the memo of calls took
** meanwhile, less looks, frame events and recordings spent, in the budget's units) over its
** last trial of CH_EPOCH instructions, or 16 where 8 did and 16 more still (ch_lens,
** phase_end);
** each is tried again after CH_KEEP phases of the winner. Trials count only once the
** program repeats: a round in which neither gained is tried again, and the winner is taken
** from a round begun at least a round after the first trial that gained (before that the
** other way's stretches were not recorded yet: cgen 54004's program repeats from its 11th
** trial on, and the first way to meet that won by its table alone). Each trial begins with
** CH_TRIAL of budget and nothing owed (a way that records much paid the one before its
** debts: 4 with calls gained nothing in its trials, yet is cgen's best). The ways without
** calls (a stretch stops at a call or a return) are tried only when calls are not recorded
** (FST_REPLAY_CHUNK=nocalls): with them, no program of the suite was faster (cgen, branchy,
** fortbig, gen.py loops, host instructions with each way forced), and their trials won
** by the calls' stretches they hit. The first phase, which fills the
** table, records no calls: a stretch that holds a call takes it from the memo of calls,
** which skips whole subtrees (recursion -O2 replayed in 0.08 s where the memo alone takes
** 0.02 s: its phases end seldom, the memo skipping most of its instructions). A stretch
** recorded without calls that stopped at a call or a return is passed by in a phase with
** calls (`cut`), so that the longer one is recorded there.
** gcc -O2 code whose runs come back in the same order for 8 runs and more (tests/shapes/branchy.c) replays fastest with 8 (4: +18 %), code
** that branches on fresh random bits at every site (cgen.py) with 4 (8: +22 %). The choice
** follows from the trace alone: the same trace, the same stretches.
**
** What it costs. A look hashes and compares; a recording copies the counters of the blocks
** it runs. Where nothing repeats, that is all cost, so the stretches spend from a budget in
** units of a fortieth of what a run costs the lean loop: a look costs CH_LOOK, found or not,
** and up to CH_LOOK_MISS more as the stretches in the arena grow to CH_CACHE (its cache
** misses: a stretch of three runs barely pays for it), a recording CH_REC plus CH_WORD a
** counter; a run memoized earns CH_EARN_RUN, a record-loop turn not looked at 1. A spent
** budget makes the loop pass the next turns without a look until they have paid for it.
** A look's price was 60 (a run and a half) until the lean loop made a run cost 12-14 ns
** with the reader's share (2026-12-07, wall time of replays with and without the stretches
** against their counts): a hit costs 35 ns where the stretches fit a cache (gen.py seed
** 15230: 3 077 kept, 1.2 MB) and 58 ns where they do not (13636: 19 721, 9.5 MB), three
** runs' worth and five. At 60, stretches of three runs looked paid for where they lose:
** fortbig seed 29990, 871 K hits of 3 runs, 379 K of them with calls (which they take from
** the memo of calls), replayed in 0.19 s, 0.12 s without the stretches. Now (best of 3
** alternating with the price before, the same reports): fortbig 0.19 -> 0.13 s, gen.py
** 15230 0.16 -> 0.14, 13636 0.46 -> 0.44, 19191 0.095 -> 0.076, 35678 0.35 -> 0.31, cgen
** 26598 0.34 -> 0.31, branchy -O2 0.21 and 18 other drawn programs the same, 22334 0.051 ->
** 0.055 (+8 %, the worst).
** A recording's price was 1500 until the lean loop (replay.c) made the record loop's runs
** cheaper: in the host's time (not its instructions: a recording's stretch, tens of KB of
** new arena a thousand recordings, is cache misses later) cgen seed 39946's replay was 18 %
** slower with the stretches than without (54 712 recordings, 6.9 M of its 169 M
** instructions hit); at 6000 its median user time 0.64 -> 0.58 s, 54004 0.65 -> 0.60, 26598
** 0.42 -> 0.37 (best of 9), branchy -O2, gen.py 20031 and fortbig the same (12000: branchy
** +25 %).
** Where the program does not repeat (cgen.py's fresh random bits at every site), every round
** of trials gains nothing, and each trial's budget (CH_TRIAL) went on recordings no hit paid
** for: cgen seed 11111, 39 trials, 15 588 recordings for 54 176 hits of 1.9 M of its 167 M
** instructions, its replay 7-10 % slower than without the stretches (cachegrind: 0.9 M more
** misses of a 2 MiB last level, the arena's new lines). The lost-th round in a row that
** gained nothing is now followed by a rest of 1, 2, 4, 8, then 16 phases (CH_EPOCHS_REST;
** none after the first: a program that repeats only from its 11th trial on, cgen 54004, is
** found a few phases later), with no trial and a debt that passes CH_QUIET_MAX turns a look.
** 11111: 4 785 recordings, 31 phases rested; user time, 3 alternating runs each, 0.72 ->
** 0.65 s, 54004 0.64 -> 0.54, 42424 0.35 -> 0.31, 26598 0.42 -> 0.41, branchy and gen.py
** loops the same (FST_REPLAY_FOLD_STATS says the phases rested). And a trial after the
** lost-th such round begins with CH_TRIAL halved lost times (at most CH_TRIAL_HALVED): with a
** look's price of three runs (above) no cgen.py program's stretches pay, and what they
** cost is the trials' recordings (2026-12-07, best of 3 alternating: cgen 26598 0.314 ->
** 0.298 s, 61001 0.309 -> 0.300, without the stretches 0.295 and 0.298; 54004, 39946, 11111,
** 42424 the same or 1-2 % less, 2-3 % over the replay without the stretches).
** FST_REPLAY_NOCHUNK=1 turns the stretches off, FST_REPLAY_NOFOLD=1 too (with folding and
** the memo): the tests compare the replays byte for byte, and FST_REPLAY_CHUNK=long with
** stretches of 16 runs in every phase. FST_REPLAY_CHUNK=eager records
** all it can, with no budget.
**
** Memory: the table CH_SLOTS slots (a tag and an offset, CH_WAYS to a bucket), the
** stretches in one arena of at most CH_ARENA bytes, emptied whole when full
** (FST_REPLAY_CHUNK=tiny: eager, in an arena of CH_TINY bytes, so that the tests empty it
** often).
*/
#include "analyze/replay/replay_int.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CH_RUNS 16      /* the longest len */
#define CH_EPOCH (1u << 22)
/* phases rested after the lost-th round in a row that gained nothing (lost >= 1): 1, 2, 4,
** 8, then 16 (phase_end) */
#define CH_EPOCHS_REST(lost) (1u << ((lost) - 1 < 4 ? (lost) - 1 : 4))
#define CH_KEEP 16
#define CH_TRIALS 2     /* len 8 and 4 (phase_end) */
#define CH_LONG 2       /* the way of len 16, tried where 8 won (phase_end) */
/* The lengths, a way each (phase_end). 16 for loops whose runs follow each other again and
** again for longer (gen.py seed 37146, a leaf called in an LCG loop: 8 runs a hit, 0.52 s;
** 16, 0.37 s), 4 for code that branches on fresh random bits at every site (cgen), 8
** between (gcc -O2's branchy.c). */
static const unsigned ch_lens[CH_LONG + 1] = { CH_RUNS / 2, CH_RUNS / 4, CH_RUNS };
_Static_assert(sizeof ((rp_chunk *)0)->tried / sizeof(int64_t) == CH_LONG + 1, "a trial's gain a way");
#define CH_FOP 12       /* budget units of a hit's frame event or flushes' sum (frames) */
#define CH_BYTES 32    /* hashed up to CH_RUNS runs (hash) */
#define CH_SNAP 512
#define CH_SLOTS (1u << 16)
#define CH_WAYS 4
#define CH_ARENA (48u << 20)
#define CH_TINY (16u << 10)
#define CH_LOOK 117      /* a look (the head's "What it costs"), */
#define CH_LOOK_MISS 83  /* and up to this more as the arena in use grows to CH_CACHE */
#define CH_CACHE (4u << 20)
#define CH_REC 6000
#define CH_WORD 6
#define CH_EARN_RUN 40
#define CH_START 50000
#define CH_TRIAL 2000000 /* a trial's budget at its start */
#define CH_TRIAL_HALVED 4 /* after lost rounds a trial's budget is CH_TRIAL halved as often, at most */
#define CH_QUIET_MAX 1000000 /* turns without a look a spent budget passes at most */
#define CH_WANTED 256   /* turns without a look where the charge in force wants its EXECs */
#define CH_PEND 4096    /* stretches with hits not added up yet, at most */
#define CH_FOPS 16      /* frame events and flushes a stretch holds, at most */
#define CH_BELOW 8      /* frames below its start a stretch returns from, at most */
#define CH_LINE 64      /* the host's cache line: entries begin at one */

/* A bucket of the table: CH_WAYS stretches, each a tag (the low 32 bits of its hash, never 0:
** hashes are odd; 0 an empty way) and its arena offset, in one cache line. With the tags and
** offsets in two arrays a look took two cache misses before it read the stretch (perf, cgen
** seed 26598: the tag's load and the offset's a fifth of the replay's samples). A tag that
** matches another stretch's costs only a look at its entry: fits compares it whole. */
typedef struct rp_chbkt {
    uint32_t tag[CH_WAYS];
    uint32_t off[CH_WAYS];
} ch_bkt;
_Static_assert(sizeof(ch_bkt) <= CH_LINE && CH_LINE % sizeof(ch_bkt) == 0, "a bucket in one line");
#define CH_BKTS (CH_SLOTS / CH_WAYS)
static inline ch_bkt *bucket_of(const rp_chunk *ch, uint64_t h) { return &ch->bkt[(h >> 48) & (CH_BKTS - 1)]; }

/* What the replay of the stretch depends on (see the head), compared whole. The previous
** instruction is its address and bytes (its decoding and prices follow); the blocks are
** the same while no block is built and the code's epoch is the same. */
typedef struct ch_key {
    uint64_t cur, prev, prevb, owner, tid;
    uint64_t how;       /* the state, the charge, and whether frames are open */
    uint64_t builds, epoch;
} ch_key;

static inline int same_key(const ch_key *a, const ch_key *b)
{
    return !((a->cur ^ b->cur) | (a->prev ^ b->prev) | (a->prevb ^ b->prevb) | (a->owner ^ b->owner) |
             (a->tid ^ b->tid) | (a->how ^ b->how) | (a->builds ^ b->builds) | (a->epoch ^ b->epoch));
}

typedef struct ch_delta {
    uint64_t *p;
    uint64_t d;
} ch_delta;

/* What a stretch's calls and returns did, in order (see "Calls" in the head): a flush of the
** instructions pending to an owner, or a frame's event at the task's clock since the start. */
enum { CH_FLUSH, CH_CALL, CH_RET, CH_PAIR /* kept: a CH_CALL whose CH_RET is next */ };
typedef struct ch_fop {
    uint64_t n;         /* CH_FLUSH: instructions and cost charged; else the clock */
    fst_fx cost;
    size_t a, b;        /* CH_FLUSH: the owner and the charge; CH_CALL: the routine and caller */
    rp_frame f;         /* CH_CALL: the frame pushed */
    uint8_t kind, counted;
    uint8_t inner;      /* a call the stretch returns from, or that return: the replay's stack
                           is as it was after both (keep), so a hit leaves it alone */
} ch_fop;

/* What a stretch's flushes charged to one owner and charge, added up (keep): a flush only
** adds to counters (fst_rp_flush: the task's clock, fst_callgraph_exec_n's), and the frame
** events' clocks are the stretch's own (ch_fop.n), so a hit adds each owner's sum once
** instead of replaying each flush (gen.py seed 16252, a leaf called every 17 instructions:
** two flushes a call, a fifth of its replay). */
typedef struct ch_sum {
    uint64_t n;
    fst_fx cost;
    size_t owner;
    uint64_t charged;
} ch_sum;

/* A frame below the stretch's start that it returned from, as it was, and its routine. */
typedef struct ch_below {
    rp_frame f;
    size_t routine;
} ch_below;

/* Laid out as a look reads it, each at a 64-byte boundary of the arena: the key and the op
** bytes (fits), then what a hit changes (apply), then the recent targets; a hit reads some
** five lines (cgen -O2: the stretches' table holds 20 MB, and their looks' cache misses
** were what a hit cost). */
typedef struct ch_ent {
    ch_key k;
    uint64_t ops[CH_BYTES / 8];     /* the op bytes, 0 after nb (mask_of) */
    uint8_t nb;
    uint8_t nused, nfront, nabsent;     /* the recent targets (tail, fst_tr_fast_deps) */
    uint16_t used;
    uint8_t cut;        /* recorded without calls, it stopped at a call or a return: a phase
                           with calls passes it by (fits), to record the longer one */
    uint8_t next_nb;    /* the stretch that came next last time: its nb and first op word */
    uint16_t wregs;
    uint32_t nruns, ndelta, nfop, nbelow;  /* nfop: its calls and returns (no flush) */
    uint32_t nsum;      /* its flushes, added up by owner and charge (ch_sum) */
    uint32_t next;      /* and where it is: arena offset + 1, 0 none. Where it is not the one
                           now, its lines are not read (a cache miss a look) */
    uint64_t next_op0;
    uint64_t insns;     /* all its instructions, */
    uint64_t rest_n;    /* and those pending at its end (after its flushes) and their cost */
    fst_fx cost;
    uint64_t cur_end;
    uint64_t pend;      /* hits whose deltas are not added yet (settle) */
    fst_insn last;
    fst_fx last_cost[2];
    size_t beneath;     /* nbelow > 0: the owner of the frame under the last of them */
    size_t end_owner;   /* the owner and charge at its end */
    int end_charged;
    /* the recent targets it jumps to (used), those it puts in front, and its JMPAs' targets
    ** that must not be there, each with the bits of those it must not be among (what a hit
    ** reads, so next to the fields above: the host's cache lines), the frame events, the
    ** frames below and the flushes' sums (what a hit with calls reads), then the deltas (what
    ** settle reads) */
    uint64_t tail[];
} ch_ent;

static inline const uint64_t *used_of(const ch_ent *e) { return e->tail; }
static inline const uint64_t *front_of(const ch_ent *e) { return e->tail + e->nused; }
static inline const uint64_t *absent_of(const ch_ent *e) { return e->tail + e->nused + e->nfront; }
static inline ch_fop *fops(const ch_ent *e)
{
    return (ch_fop *)(void *)(uintptr_t)(e->tail + e->nused + e->nfront + 2 * e->nabsent);
}
static inline ch_below *belows(const ch_ent *e) { return (ch_below *)(void *)(fops(e) + e->nfop); }
/* e's sums, from the end of its frame events (fend: fops(e) + e->nfop, which frames has) */
static inline ch_sum *sums_at(const ch_ent *e, const ch_fop *fend)
{
    return (ch_sum *)(void *)((ch_below *)(uintptr_t)fend + e->nbelow);
}
static inline ch_sum *sums(const ch_ent *e) { return sums_at(e, fops(e) + e->nfop); }
static inline ch_delta *deltas(const ch_ent *e) { return (ch_delta *)(void *)(sums(e) + e->nsum); }

void fst_rp_chunk_init(rp *x)
{
    rp_chunk *ch = &x->chunk;
    const char *no = getenv("FST_REPLAY_NOCHUNK");
    ch->on = x->fold.on && !x->o->tail_calls && !(no && *no && *no != '0');
    if (!ch->on)
        return;
    ch->snap = fst_xmalloc(CH_SNAP * sizeof *ch->snap);
    ch->opstamp = fst_xcalloc(fst_op_count(), sizeof *ch->opstamp);
    /* zeroed by calloc (pages the system hands out zeroed: a short trace's replay does not
    ** clear 512 KB, which took a tenth more host instructions of a 1 M-instruction one),
    ** the buckets from the first cache line in it */
    ch->bkt_mem = fst_xcalloc(CH_BKTS + CH_LINE / sizeof *ch->bkt, sizeof *ch->bkt);
    ch->bkt = (ch_bkt *)(void *)(((uintptr_t)ch->bkt_mem + CH_LINE - 1) & ~(uintptr_t)(CH_LINE - 1));
    const char *how = getenv("FST_REPLAY_CHUNK");
    ch->eager = how && (!strcmp(how, "eager") || !strcmp(how, "tiny")); /* no budget: the tests take all they can */
    ch->size = how && !strcmp(how, "tiny") ? CH_TINY : CH_ARENA;
    ch->arena = aligned_alloc(CH_LINE, ch->size);  /* both multiples of CH_LINE */
    if (!ch->arena)
        ch->arena = fst_xmalloc(ch->size);  /* out of memory: it says so */
    ch->pend = fst_xmalloc(CH_PEND * sizeof *ch->pend);
    ch->fop = fst_xmalloc(CH_FOPS * sizeof *ch->fop);
    ch->below = fst_xmalloc(CH_BELOW * sizeof *ch->below);
    ch->calls_ok = !(how && !strcmp(how, "nocalls"));  /* FST_REPLAY_CHUNK=nocalls: the tests compare */
    ch->long_only = how && !strcmp(how, "long");        /* =long: 16 runs in every phase (the same) */
    /* the first phase without calls, so that the memo of calls takes them first (eager, as
    ** the tests run it: with calls, all it can) */
    ch->calls = ch->calls_ok && ch->eager;
    x->code->settle = fst_rp_chunk_settle;
    ch->credit = CH_START;
    ch->way = ch->long_only ? CH_LONG : 0;  /* the first phase fills the table, len 8: not a trial
                                               (its gain is the start's) */
    ch->len = ch_lens[ch->way];
    ch->phase = CH_TRIALS + CH_KEEP;   /* the round's last: trials next */
    ch->ep_end = CH_EPOCH;
}

void fst_rp_chunk_free(rp *x)
{
    rp_chunk *ch = &x->chunk;
    if (ch->on && getenv("FST_REPLAY_FOLD_STATS"))
        fprintf(stderr, "fst: replay: stretches memoized: %llu hits (%llu runs, %llu instructions), %llu of them "
                "with calls or returns, %llu recordings, %llu kept, %zu bytes, %llu resets; phases of %u runs %llu, "
                "of %u %llu, of %u %llu\n",
                (unsigned long long)ch->hits, (unsigned long long)ch->runs, (unsigned long long)ch->insns,
                (unsigned long long)ch->fhits, (unsigned long long)ch->recordings, (unsigned long long)ch->kept,
                ch->used, (unsigned long long)ch->resets, ch_lens[0], (unsigned long long)ch->lens[0], ch_lens[1],
                (unsigned long long)ch->lens[1], ch_lens[2], (unsigned long long)ch->lens[2]);
    if (ch->on && getenv("FST_REPLAY_FOLD_STATS"))
        fprintf(stderr, "fst: replay: stretches rested %llu phases after rounds of trials that gained nothing\n",
                (unsigned long long)ch->rests);
    free(ch->snap);
    free(ch->opstamp);
    free(ch->bkt_mem);
    free(ch->arena);
    free(ch->pend);
    free(ch->fop);
    free(ch->below);
}

/* ---- recording: the counters a stretch may change, as they were ---- */

static void snap(rp_chunk *ch, uint64_t *p)
{
    if (ch->nsnap == CH_SNAP) {
        ch->spoiled = 1;
        return;
    }
    ch->snap[ch->nsnap].p = p;
    ch->snap[ch->nsnap++].v = *p;
}

static void snap_op(rp *x, const fst_insn *d)
{
    rp_chunk *ch = &x->chunk;
    if (d->op == FST_OP_UNKNOWN)
        ch->spoiled = 1;    /* counted by opcode too (fst_rp_count_unknown): not a counter here */
    else if (ch->opstamp[d->op] != ch->stamp) {
        ch->opstamp[d->op] = ch->stamp;
        snap(ch, &x->p->op_insns[d->op]);
    }
}

void fst_rp_chunk_touch(rp *x, fst_blk *b)
{
    rp_chunk *ch = &x->chunk;
    b->cstamp = ch->stamp;
    for (uint32_t i = 0; i <= b->n; i++)
        snap(ch, &b->ran[i]);
    for (uint32_t i = 0; i < b->n; i++)
        snap_op(x, &b->e[i].d);
}

/* ---- the state ---- */

/* What of the key and of state()'s tests a hit may change (apply, frames): the frames open
** and the previous instruction allow a stretch (its_prev); the key's fields that follow
** from the reader, the previous instruction, the owner and charge in force (key_moves). */
static inline int its_prev(const rp *x, const rp_cpu *c, const rp_task *t)
{
    return (t->n || t->had_mainline || !x->mainline_fixed) && !(c->prev.flags & FST_I_LINK) &&
           !(!x->chunk.calls && t->n && returnlike(&c->prev));
}

static inline void key_moves(const rp_cpu *c, const rp_task *t, const fst_tr_at *at, ch_key *k)
{
    k->cur = at->cur;
    k->prev = c->prev.addr;
    /* its bytes (the length follows from them), put together in a register: six bytes
    ** memcpy'd into the key's word and then read whole can stall the host's store forwarding
    ** (perf's guess); the memcpy is 3-4 % slower on branchy -O2 and cgen seed 39874 */
    uint32_t b0;
    uint16_t b4;
    memcpy(&b0, c->prev.bytes, 4);
    memcpy(&b4, c->prev.bytes + 4, 2);
    k->prevb = b0 | (uint64_t)b4 << 32;
    k->owner = c->prev_owner;
    k->how = at->state | (uint64_t)(uint32_t)c->prev_charged << 32 | (uint64_t)(t->n != 0) << 40;
}

/* Whether insn_fast and seq_rest would take the next runs with nothing but counters (see the
** head); then the key in k. */
static int state(rp *x, const fst_tr *tr, const fst_tr_at *at, ch_key *k)
{
    if (!fst_tr_fast_next(tr) || x->ncpu != 1 || at->cpu || x->batch_cpu != FST_NONE || x->memo.rec ||
        x->fold.mode || !x->fold.quiet || x->bases || x->tainted || !x->code->epoch)
        return 0;
    const rp_cpu *c = &x->cpus[0];
    if (!c->ran || c->handler || c->task == FST_NONE || !c->have_prev || c->intr || c->gap ||
        at->state != c->prev_state || x->want_exec[c->prev_charged])
        return 0;
    const rp_task *t = &x->t[c->task];
    if (!its_prev(x, c, t))
        return 0;
    key_moves(c, t, at, k);
    k->tid = c->task;
    k->builds = x->code->builds;
    k->epoch = *x->code->epoch;
    return 1;
}

/* state() right after a hit: only what a hit changes is looked at again (the reader's next
** op, folding's budget, the charge in force, its_prev) and only key_moves' fields set again.
** The rest state() tested stays as it was: one CPU, its task, its state and the reader's
** (fst_tr_fast_skip moves neither), nothing recording, no BASES or guess, the blocks and
** the code's epoch (a hit builds no block). cgen seed 26598: -3 % host instructions. */
static inline int state_hit(rp *x, const fst_tr *tr, const fst_tr_at *at, ch_key *k)
{
    const rp_cpu *c = &x->cpus[0];
    if (!fst_tr_fast_next(tr) || !x->fold.quiet || x->want_exec[c->prev_charged])
        return 0;
    const rp_task *t = &x->t[c->task];
    if (!its_prev(x, c, t))
        return 0;
    key_moves(c, t, at, k);
    return 1;
}

/* The key and the op bytes of the next `runs` runs, at most CH_BYTES (b: the next
** CH_BYTES, fewer at a frame's end, then 0): a run ends at a byte with bit 6 clear (a SEQ
** or TAKEN, tracebin.h; a JMPA's varint byte may count too: the same bytes, the same
** hash). A run is one byte where its branch names its target (TAKEN) and two or more
** where it does not (SEQ and JMP): hashing a fixed 16 bytes asked 16 runs of gcc code to
** repeat (branchy -O2: +25 % replay time), 8 bytes cut stretches of S/370 code to 4 runs
** (+14 %). */
#define CH_MIX(i) (((i) & 1 ? 0x9E3779B97F4A7C15ull : 0x27D4EB2F165667C5ull) * (i))
/* What the words after word i, all 0, add to the hash: (0 + j) times its multiplier, j > i */
static const uint64_t ch_zeros[CH_BYTES / 8] = { CH_MIX(1) ^ CH_MIX(2) ^ CH_MIX(3), CH_MIX(2) ^ CH_MIX(3), CH_MIX(3), 0 };

static uint64_t hash(const ch_key *k, const uint64_t b[CH_BYTES / 8], unsigned runs)
{
    /* bit 6 of each byte, set where a run ends; the runs-th such byte is the last hashed
    ** (in memory order on a little-endian host; elsewhere other bytes: the same hash each time),
    ** the words after its as 0 (ch_zeros: not looked at; cgen seed 26598, a look's hash 96 ->
    ** 76 host instructions) */
    const uint64_t six = 0x4040404040404040ull;
    uint64_t h = k->cur * 0x9E3779B97F4A7C15ull;
    h ^= (k->prev + (k->tid << 40)) * 0xC2B2AE3D27D4EB4Full;
    h ^= (k->owner + k->how) * 0x165667B19E3779F9ull;
    int need = (int)runs;
    for (size_t i = 0; i < CH_BYTES / 8; i++) {
        uint64_t w = b[i], f = ~w & six, m = i & 1 ? 0x9E3779B97F4A7C15ull : 0x27D4EB2F165667C5ull;
        int in = (int)(((f >> 6) * 0x0101010101010101ull) >> 56); /* run ends in w (no popcount call) */
        if (need <= in) {
            while (--need)
                f &= f - 1;
            unsigned end = (unsigned)__builtin_ctzll(f) / 8 + 1;   /* bytes of the word kept */
            w &= end == 8 ? ~0ull : (1ull << (8 * end)) - 1;
            h ^= (w + i) * m ^ ch_zeros[i];
            break;
        }
        need -= in;
        h ^= (w + i) * m;
    }
    h ^= h >> 29;
    return h | 1;   /* 0: an empty slot */
}

/* An entry's bytes, rounded up to a cache line (the arena's lines: CH_LINE). */
static size_t ent_size(uint32_t ndelta, uint32_t nfop, uint32_t nsum, uint32_t nbelow, uint32_t ntargets)
{
    size_t n = sizeof(ch_ent) + ndelta * sizeof(ch_delta) + nfop * sizeof(ch_fop) + nsum * sizeof(ch_sum) +
               nbelow * sizeof(ch_below) + ntargets * sizeof(uint64_t);
    return (n + CH_LINE - 1) & ~(size_t)(CH_LINE - 1);
}

/* ---- a look ---- */

/* Whether the frames a stretch returned from below its start are t's top ones, as they were,
** and the one under them has the owner it had. */
static int below_same(const ch_ent *e, const rp_task *t)
{
    if (t->n <= e->nbelow)
        return 0;
    const ch_below *b = belows(e);
    for (uint32_t i = 0; i < e->nbelow; i++) {
        const rp_frame *f = &t->f[t->n - 1 - i];
        if (f->owner != b[i].f.owner || f->ret != b[i].f.ret || f->mask != b[i].f.mask ||
            f->unverified != b[i].f.unverified || t->routine[t->n - 1 - i] != b[i].routine)
            return 0;
    }
    return t->f[t->n - 1 - e->nbelow].owner == e->beneath;
}

/* Which bytes of word i of the op bytes a stretch of nb op bytes compares: those before nb
** (as memcpy puts them), mask_of[nb][i]. A table, not the entry's: a look reads fewer lines. */
#define CH_M(nb, i) ((nb) >= 8 * (i) + 8 ? ~0ull : (nb) <= 8 * (i) ? 0ull : (1ull << (8 * (((nb) - 8 * (i)) & 7))) - 1)
#define CH_ROW(nb) { CH_M(nb, 0), CH_M(nb, 1), CH_M(nb, 2), CH_M(nb, 3) }
static const uint64_t mask_of[CH_BYTES + 1][CH_BYTES / 8] = {
    CH_ROW(0), CH_ROW(1), CH_ROW(2), CH_ROW(3), CH_ROW(4), CH_ROW(5), CH_ROW(6), CH_ROW(7), CH_ROW(8),
    CH_ROW(9), CH_ROW(10), CH_ROW(11), CH_ROW(12), CH_ROW(13), CH_ROW(14), CH_ROW(15), CH_ROW(16),
    CH_ROW(17), CH_ROW(18), CH_ROW(19), CH_ROW(20), CH_ROW(21), CH_ROW(22), CH_ROW(23), CH_ROW(24),
    CH_ROW(25), CH_ROW(26), CH_ROW(27), CH_ROW(28), CH_ROW(29), CH_ROW(30), CH_ROW(31), CH_ROW(32),
};
_Static_assert(CH_BYTES == 32, "mask_of's rows and columns");
static inline uint64_t first_word(const uint64_t ops[CH_BYTES / 8], unsigned nb) { return ops[0] & mask_of[nb][0]; }

/* Whether e is the stretch of key k whose op bytes are next (ops: the next CH_BYTES), from
** t's stack as it found it, for a phase that records calls or not. Inline in both its looks
** (gcc kept it a call: cgen seed 26598, 4.20 -> 4.04 G host instructions). */
static inline __attribute__((always_inline)) int fits(const ch_ent *e, const ch_key *k, const fst_tr_at *at,
                                                     const uint64_t ops[CH_BYTES / 8], const rp_task *t, int calls)
{
    /* the first op bytes first: where the stretch that came next last time is not the one
    ** now (branches on data: three looks in five on cgen -O2 and gen.py's loops), they
    ** differ, and the key is not read (valgrind: -2.2 % of a loops replay, -0.9 % of cgen's) */
    if ((first_word(ops, e->nb) ^ e->ops[0]) || !same_key(&e->k, k) || e->used >> at->nrecent ||
        e->nb > at->avail || (e->cut & calls) || (e->nbelow && !below_same(e, t)))
        return 0;
    uint64_t d = 0;
    const uint64_t *mask = mask_of[e->nb];
    for (size_t i = 1; i < CH_BYTES / 8; i++)  /* the first word compared above */
        d |= (ops[i] & mask[i]) ^ e->ops[i];
    const uint64_t *a = used_of(e);
    for (unsigned u = e->used; u; u &= u - 1)
        d |= *a++ ^ at->recent[__builtin_ctz(u)];
    if (d)
        return 0;
    const uint64_t *ab = absent_of(e);
    for (uint32_t i = 0; i < e->nabsent; i++, ab += 2)
        if (!fst_tr_fast_absent(at, ab[0], (unsigned)ab[1]))
            return 0;
    return 1;
}

static inline const ch_ent *at_off(const rp_chunk *ch, uint32_t off)
{
    return (const ch_ent *)(const void *)(ch->arena + off);
}

static const ch_ent *find(const rp_chunk *ch, const ch_key *k, const fst_tr_at *at, uint64_t h,
                          const uint64_t ops[CH_BYTES / 8], const rp_task *t)
{
    const ch_bkt *b = bucket_of(ch, h);
    for (size_t w = 0; w < CH_WAYS; w++)
        if (b->tag[w] == (uint32_t)h && fits(at_off(ch, b->off[w]), k, at, ops, t, ch->calls))
            return at_off(ch, b->off[w]);
    return NULL;
}

/* The deltas of the stretches hit since the last call, times their hits. Until then the
** counters they point at (blocks' counts, the instruction mix) lag behind: code.c calls this
** before it reads a block's counts (fst_code.settle), keep() before the arena is emptied;
** nothing else reads them while stretches are looked up (a recording of folding or of the
** memo takes differences, and no stretch is hit during one: state()). A hit then costs
** a count, not an addition at each of its counters, which lie in as many cache lines. */
void fst_rp_chunk_settle(void *ctx)
{
    rp_chunk *ch = &((rp *)ctx)->chunk;
    for (size_t j = 0; j < ch->npend; j++) {
        ch_ent *e = (ch_ent *)(void *)(ch->arena + ch->pend[j]);
        ch_delta *d = deltas(e);
        for (uint32_t i = 0; i < e->ndelta; i++)
            *d[i].p += d[i].d * e->pend;  /* modulo 2^64, as the counts are */
        e->pend = 0;
    }
    ch->npend = 0;
}

/* A hit's calls and returns, as the record loop made them (the head's "Calls"): what was
** pending before the stretch goes to its owner, as the stretch's first flush took it; its
** flushes charge what they charged (ch_sum), each frame's event goes to the call graph at
** the task's clock then, which the call graph's own rules (the outermost frame of a routine
** and of an arc) take from there, as they did. The flushes come after the events here: the
** events' clocks are the stretch's, counted from n0, and nothing they do reads what a flush
** adds to. */
static void __attribute__((noinline)) frames(rp *x, rp_cpu *c, const ch_ent *e)
{
    fst_rp_flush(x, c);
    rp_task *t = &x->t[c->task];
    uint64_t n0 = t->insns;
    fst_fx c0 = t->cost;
    uint32_t task = (uint32_t)c->task;
    const ch_fop *f = fops(e), *end = f + e->nfop;
    for (; f < end; f++)
        switch (f->kind) {
        case CH_PAIR:   /* a leaf call, and its return next (keep) */
            fst_callgraph_pair(x->cg, task, f->a, f->b, f->counted, n0 + f->n, c0 + f->cost, n0 + f[1].n,
                               c0 + f[1].cost);
            f++;
            break;
        case CH_CALL:
            if (!f->inner)
                fst_rp_frame_push(t, f->a, &f->f);
            fst_callgraph_call(x->cg, task, f->a, f->b, f->counted, n0 + f->n, c0 + f->cost);
            break;
        default:
            if (!f->inner)
                fst_rp_frame_pop(x, t);
            fst_callgraph_ret(x->cg, task, 0, n0 + f->n, c0 + f->cost);
        }
    const ch_sum *s = sums_at(e, end), *send = s + e->nsum;
    for (; s < send; s++)   /* each sum as the flushes took it (no batch: state(); not recording) */
        if (s->n || s->cost)
            fst_rp_charge(x, c, s->n, s->cost, s->owner, (int)s->charged);
    c->prev_owner = e->end_owner;
    c->prev_charged = e->end_charged;
    x->chunk.fhits++;
}

static void apply(rp *x, fst_tr *tr, const ch_ent *ce)
{
    rp_chunk *ch = &x->chunk;
    ch_ent *e = (ch_ent *)(uintptr_t)ce;
    if (!e->pend++) {
        if (ch->npend == CH_PEND) {
            e->pend = 0;
            fst_rp_chunk_settle(x);
            e->pend = 1;
        }
        ch->pend[ch->npend++] = (uint32_t)((unsigned char *)e - ch->arena);
    }
    rp_cpu *c = &x->cpus[0];
    if (e->nfop | e->nsum)
        frames(x, c, e);
    c->pend_n += e->rest_n;
    c->pend_cost += e->cost;
    c->prev = e->last;
    c->prev_cost[0] = e->last_cost[0];
    c->prev_cost[1] = e->last_cost[1];
    c->dirty |= e->wregs;   /* the task's prev: c->prev, copied when the hits end (fst_rp_chunk) */
    x->win_at += e->insns;
    x->fold.quiet = x->fold.quiet > e->nruns ? x->fold.quiet - e->nruns : 0;
    fst_tr_fast_skip(tr, e->nb, e->insns, e->cur_end, e->used, front_of(e), e->nfront, e->nabsent);
}

/* ---- a recording ---- */

/* Keeps the stretch replayed from mark a to mark b, with key k, in the table. */
static void keep(rp *x, const ch_key *k, uint64_t h, const fst_tr_mark *a, const fst_tr_mark *b,
                 const uint64_t *addr, uint32_t runs, uint64_t insns, uint64_t rest_n, fst_fx cost, uint16_t wregs,
                 int cut)
{
    rp_chunk *ch = &x->chunk;
    uint8_t ops[CH_BYTES];
    uint64_t n;
    size_t nb = fst_tr_mark_copy(a, b, ops, sizeof ops, &n);
    fst_tr_deps dp;
    uint64_t end[FST_TR_MRU];
    if (!nb || n != insns || !fst_tr_fast_deps(ops, nb, &a->c.jm, addr, runs, &dp) || dp.runs != runs ||
        fst_tr_deps_list(&a->c.jm, dp.used, dp.front, dp.nfront, end) != b->c.jm.n ||
        memcmp(end, b->c.jm.a, (size_t)b->c.jm.n * sizeof *end))
        return;     /* (the last two cannot be: the reader moved its list so) */
    uint32_t nused = (uint32_t)__builtin_popcount(dp.used);
    /* the differences first: emptying the arena settles the hits held back, which moves
    ** the counters (their deltas are not this stretch's) */
    uint32_t nd = 0;
    for (size_t i = 0; i < ch->nsnap; i++) {
        ch->snap[i].v = *ch->snap[i].p - ch->snap[i].v;
        nd += ch->snap[i].v != 0;
    }
    /* the flushes added up by owner and charge, the calls and returns in order */
    ch_sum sum[CH_FOPS];
    uint32_t nsum = 0, nev = 0;
    for (uint32_t i = 0; i < ch->nfop; i++) {
        const ch_fop *f = &ch->fop[i];
        if (f->kind != CH_FLUSH) {
            ch->fop[nev++] = *f;
            continue;
        }
        uint32_t j = 0;
        while (j < nsum && (sum[j].owner != f->a || sum[j].charged != f->b))
            j++;
        if (j == nsum)
            sum[nsum++] = (ch_sum){ 0, 0, f->a, f->b };
        sum[j].n += f->n;
        sum[j].cost += f->cost;
    }
    ch->nfop = nev;
    size_t sz = ent_size(nd, ch->nfop, nsum, ch->nbelow, nused + dp.nfront + 2u * dp.nabsent);
    if (ch->used + sz > ch->size) {     /* full: empty it whole */
        fst_rp_chunk_settle(x);
        memset(ch->bkt, 0, CH_BKTS * sizeof *ch->bkt);
        ch->used = 0;
        ch->last = 0;
        ch->resets++;
    }
    ch_ent *e = (ch_ent *)(void *)(ch->arena + ch->used);
    e->k = *k;
    e->cur_end = b->c.cur;
    e->insns = insns;
    e->rest_n = rest_n;
    e->cost = cost;
    e->last = x->cpus[0].prev;
    e->last_cost[0] = x->cpus[0].prev_cost[0];
    e->last_cost[1] = x->cpus[0].prev_cost[1];
    e->nruns = runs;
    e->wregs = wregs;
    e->cut = (uint8_t)cut;
    e->nb = (uint8_t)nb;
    e->used = dp.used;
    e->nused = (uint8_t)nused;
    e->nfront = dp.nfront;
    e->nabsent = dp.nabsent;
    memset(e->ops, 0, sizeof e->ops);
    memcpy(e->ops, ops, nb);
    {
        uint64_t *u = e->tail;
        for (unsigned i = dp.used; i; i &= i - 1)
            *u++ = a->c.jm.a[__builtin_ctz(i)];
        memcpy(u, dp.front, dp.nfront * sizeof *u);
        u += dp.nfront;
        for (unsigned i = 0; i < dp.nabsent; i++) {
            *u++ = dp.absent[i];
            *u++ = dp.among[i];
        }
    }
    e->nfop = ch->nfop;
    memcpy(fops(e), ch->fop, ch->nfop * sizeof *ch->fop);
    {   /* each return from a call of the stretch's, with that call: inner (no other frame
        ** event comes between a push and its pop but those of frames above it) */
        ch_fop *f = fops(e);
        uint32_t open[CH_FOPS], nopen = 0;
        for (uint32_t i = 0; i < e->nfop; i++)
            if (f[i].kind == CH_CALL)
                open[nopen++] = i;
            else if (f[i].kind == CH_RET && nopen)
                f[i].inner = f[open[--nopen]].inner = 1;
        for (uint32_t i = 0; i + 1 < e->nfop; i++)    /* a call whose return is next: a leaf */
            if (f[i].kind == CH_CALL && f[i].inner && f[i + 1].kind == CH_RET)
                f[i].kind = CH_PAIR;
    }
    e->nbelow = ch->nbelow;
    memcpy(belows(e), ch->below, ch->nbelow * sizeof *ch->below);
    e->nsum = nsum;
    memcpy(sums(e), sum, nsum * sizeof *sum);
    e->ndelta = 0;
    ch_delta *d = deltas(e);
    for (size_t i = 0; i < ch->nsnap; i++)
        if (ch->snap[i].v)
            d[e->ndelta++] = (ch_delta){ ch->snap[i].p, ch->snap[i].v };
    const rp_task *t = &x->t[x->cpus[0].task];
    e->beneath = ch->low ? t->f[ch->low - 1].owner : FST_NONE;    /* frames under low: as they were */
    e->end_owner = x->cpus[0].prev_owner;
    e->end_charged = x->cpus[0].prev_charged;
    e->next = 0;
    e->pend = 0;
    ch_bkt *bk = bucket_of(ch, h);
    size_t w = 0;
    while (w < CH_WAYS - 1 && bk->tag[w])
        w++;
    if (bk->tag[w]) {   /* all taken: the others move down, the oldest goes */
        memmove(&bk->tag[1], &bk->tag[0], (CH_WAYS - 1) * sizeof *bk->tag);
        memmove(&bk->off[1], &bk->off[0], (CH_WAYS - 1) * sizeof *bk->off);
        w = 0;
    }
    bk->tag[w] = (uint32_t)h;
    bk->off[w] = (uint32_t)ch->used;
    ch->used += sz;
    ch->kept++;
    ch->credit -= (int64_t)(CH_WORD * ch->nsnap);
    ch->gain -= (int64_t)(CH_WORD * ch->nsnap);
}

void fst_rp_chunk_frame(rp *x, const fst_event *e)
{
    rp_chunk *ch = &x->chunk;
    if (!ch->calls || e->kind == FST_EV_UNWIND || ch->nfop == CH_FOPS || e->task != x->cpus[0].task) {
        ch->spoiled = 1;
        return;
    }
    const rp_task *t = &x->t[e->task];
    ch_fop *f = &ch->fop[ch->nfop++];
    *f = (ch_fop){ e->tinsns - ch->clk_n, e->tcost - ch->clk_cost, e->routine, e->caller, { 0 },
                   (uint8_t)(e->kind == FST_EV_CALL ? CH_CALL : CH_RET), (uint8_t)(e->counted != 0) };
    if (e->kind == FST_EV_CALL)
        f->f = t->f[t->n - 1];  /* pushed before its event */
    else if (t->n < ch->low) {  /* popped (before its event) a frame the stretch found */
        if (t->n == 0 || ch->nbelow == CH_BELOW) {
            ch->spoiled = 1;    /* none left: a return-like branch would look at none */
            return;
        }
        ch->low = t->n;
        ch->below[ch->nbelow++] = (ch_below){ t->f[t->n], t->routine[t->n] };
    }
}

void fst_rp_chunk_flush(rp *x, const rp_cpu *c)
{
    rp_chunk *ch = &x->chunk;
    if (!ch->calls || ch->nfop == CH_FOPS || c != &x->cpus[0] || c->prev_task != c->task) {
        ch->spoiled = 1;
        return;
    }
    ch->fop[ch->nfop++] = (ch_fop){ c->pend_n, c->pend_cost, c->prev_owner, (size_t)c->prev_charged, { 0 }, CH_FLUSH, 0 };
}

/* Replays up to len runs as the record loop would, noting what they change; keeps
** them when nothing but counters changed (see the head). Returns whether it replayed any. */
static int record(rp *x, fst_tr *tr, const ch_key *k, uint64_t h)
{
    rp_chunk *ch = &x->chunk;
    rp_cpu *c = &x->cpus[0];
    rp_task *t = &x->t[c->task];
    fst_tr_mark a, b;
    fst_tr_mark_here(tr, &a);
    ch->recordings++;
    ch->credit -= CH_REC;
    ch->gain -= CH_REC;
    ch->stamp++;
    int calls = ch->calls;
    if (calls) {    /* what is pending goes now, as a hit's first flush takes it (frames) */
        fst_rp_flush(x, c);
        ch->clk_n = t->insns;
        ch->clk_cost = t->cost;
    }
    ch->nfop = ch->nbelow = 0;
    ch->low = t->n;
    ch->rec = 1;
    ch->nsnap = 0;
    ch->spoiled = 0;
    snap_op(x, &c->prev);
    uint16_t dirty = c->dirty;
    c->dirty = 0;
    uint64_t pend_n = c->pend_n, nslow = x->nslow, builds = x->code->builds, win0 = x->win_at;
    fst_fx pend_cost = c->pend_cost;
    size_t depth = t->n;
    int charged = c->prev_charged, had = t->had_mainline;
    uint32_t runs = 0;
    uint64_t addr[CH_RUNS];     /* where each run began */
    int ok = 1, cut = 0;
    for (;;) {
        fst_tr_mark_here(tr, &b);
        int nl = fst_tr_fast_next(tr);
        int call = (c->prev.flags & FST_I_LINK) && c->prev.link == 14, ret = !calls && t->n && returnlike(&c->prev);
        if (runs == ch->len || ((c->prev.flags & FST_I_LINK) && !(calls && call)) || ret ||
            fst_rp_memo_whole(x, c) ||
            !nl || (size_t)(b.c.p - a.c.p) + (size_t)nl > CH_BYTES) {
            cut = !calls && runs < ch->len && (call || ret);
            break;
        }
        fst_rec rec;
        fst_err err;
        if (fst_tr_next_run(tr, &rec, &err) != 2) { /* cannot be: the op was looked at */
            ok = 0;
            break;
        }
        addr[runs] = rec.addr;  /* (runs < len <= CH_RUNS) */
        if (x->win_edge - x->win_at <= rec.value)
            break;  /* the run stays for the record loop, which cuts it at the edge */
        fst_blk *bk = fst_code_block(x->code, tr, rec.addr, rec.state);
        if (!bk || x->code->builds != builds) {
            ok = 0;     /* built: blocks noted may have lost their slots; the loop runs it */
            break;
        }
        /* the run, as the record loop takes it: seq_rest stops after an instruction that
        ** does not fall through (code.h fst_code_falls: an EX, say), and the rest of the run
        ** comes back as a run of its own */
        int fast = 1;
        for (;;) {
            snap_op(x, &bk->e[0].d);  /* the next part counts it, unless the block does */
            uint32_t took;
            uint64_t next;
            fast &= fst_rp_run(x, tr, &rec, bk, 1, &took, &next);
            x->win_at += took;
            if (x->fold.quiet)
                x->fold.quiet--;    /* as fst_rp_fold would */
            if (!fast || took == rec.value || fst_tr_next_run(tr, &rec, &err) != 2 ||
                !(bk = fst_code_block(x->code, tr, rec.addr, rec.state)) || x->code->builds != builds)
                break;
        }
        runs++;
        if (!fast || fst_tr_seq_left(tr) || x->nslow != nslow || x->code->builds != builds || ch->spoiled ||
            (!calls && (t->n != depth || c->prev_owner != k->owner || c->prev_charged != charged ||
                        c->pend_n < pend_n))) {
            ok = 0;
            break;
        }
    }
    ch->rec = 0;
    uint16_t wregs = c->dirty;
    c->dirty |= dirty;
    if (ok && runs >= 1 && t->had_mainline == had)
        keep(x, k, h, &a, &b, addr, runs, x->win_at - win0, c->pend_n - pend_n, c->pend_cost - pend_cost, wregs, cut);
    return runs > 0;
}

/* The runs folding and the memo of calls took so far, without the record loop. */
static uint64_t others(const rp *x)
{
    return fst_rp_fold_runs(&x->fold) + x->memo.skipped;
}

/* The end of a phase (the head's "Which stretches"): the next length to use. A trial's gain
** counts the runs folding and the memo of calls took meanwhile, as a hit's are: a stretch
** that holds a call takes it from the memo, which skips the call's whole subtree (recursion
** -O2: replay 0.05x of its run with the stretches off, 0.14x when they took the calls and
** their trial counted only their own runs). A round: the trials of 8 and 4, then, where 8
** gained more, a trial of 16 (CH_LONG), and CH_KEEP phases of the one that gained most.
** 16 is not tried in the rounds that warm up, nor where 4 won: its stretches in the table
** cost the next trial of 8 its own (gen.py seed 35332, where 8 is best: tried in every
** round as a third trial, 4 won from then on, 0.78 -> 0.98 s). A trial of 16 that lost
** waits 2, 4, 8, then 16 rounds before the next (35332: 9 trials lost, 0.79 -> 0.89 s). */
/* A trial's budget at its start: CH_TRIAL, halved after each round in a row that gained
** nothing (lost), CH_TRIAL_HALVED times at most. */
static int64_t trial_budget(const rp_chunk *ch)
{
    return CH_TRIAL >> (ch->lost < CH_TRIAL_HALVED ? ch->lost : CH_TRIAL_HALVED);
}

static void __attribute__((noinline)) phase_end(rp *x)
{
    rp_chunk *ch = &x->chunk;
    if (ch->resting) {  /* a rest ends: the round it put off begins (phase 0, a trial) */
        ch->resting = 0;
        ch->others0 = others(x);
        ch->gain = 0;
        ch->quiet = 0;
        ch->credit = trial_budget(ch);
        ch->ep_end = x->win_at + CH_EPOCH;
        return;
    }
    ch->lens[ch->way]++;
    uint64_t o = others(x);
    ch->gain += (int64_t)(o - ch->others0) * CH_EARN_RUN;
    ch->others0 = o;
    if (ch->phase < CH_TRIALS) {
        ch->tried[ch->phase] = ch->gain;  /* a trial's way is its phase */
        ch->warm += ch->active;     /* (begun after a trial that gained) */
        ch->active |= ch->gain > 0;
    } else if (ch->phase == CH_TRIALS && ch->way == CH_LONG) {
        ch->tried[CH_LONG] = ch->gain;
        ch->long_lost = ch->gain > ch->tried[0] ? 0 : ch->long_lost < 4 ? ch->long_lost + 1 : 4;
        ch->long_wait = ch->long_lost ? 1u << ch->long_lost : 0;
    }
    if (++ch->phase >= CH_TRIALS + 1 + CH_KEEP)
        ch->phase = 0;
    unsigned best = ch->tried[1] > ch->tried[0];
    unsigned rest = 0;
    if (ch->phase == CH_TRIALS) {
        if (ch->tried[best] <= 0) { /* nothing to go by: the program does not repeat yet */
            ch->active = 0, ch->warm = 0;
            rest = ch->lost ? CH_EPOCHS_REST(ch->lost) : 0;
            ch->lost += ch->lost < 8;
        } else
            ch->lost = 0;
        if (ch->warm < 2 * CH_TRIALS)
            ch->phase = 0;
    }
    int may16 = ch->phase == CH_TRIALS && best == 0;   /* 8 won this round's trials */
    int longt = may16 && !(ch->long_wait && ch->long_wait--);
    if (may16 && !longt)
        ch->tried[CH_LONG] = INT64_MIN;     /* waiting: 8 this round */
    int trial = ch->phase < CH_TRIALS || longt;
    if (ch->phase < CH_TRIALS)
        ch->way = ch->phase;
    else if (longt || (best == 0 && ch->tried[CH_LONG] > ch->tried[0]))
        ch->way = CH_LONG;  /* its trial, or it gained more than 8 in this round's */
    else
        ch->way = best;
    if (ch->long_only)
        ch->way = CH_LONG;
    ch->len = ch_lens[ch->way];
    ch->calls = ch->calls_ok;
    ch->gain = 0;
    ch->quiet = 0;
    if (trial)
        ch->credit = trial_budget(ch);  /* not the debts of the trial before */
    ch->ep_end = x->win_at + CH_EPOCH;
    if (rest && !ch->eager) {   /* a debt no hit pays: looks only every CH_QUIET_MAX turns */
        ch->resting = 1;
        ch->rests += rest;
        ch->credit = -((int64_t)1 << 50);
        ch->ep_end = x->win_at + (uint64_t)rest * CH_EPOCH;
    }
}

int fst_rp_chunk(rp *x, fst_tr *tr)
{
    rp_chunk *ch = &x->chunk;
    if (x->win_at >= ch->ep_end)
        phase_end(x);
    fst_tr_at at;
    ch_key k;
    int did = 0;
    uint64_t rh = 0;
    while (fst_tr_here(tr, &at) && !fst_rp_memo_whole(x, &x->cpus[0]) &&
           (did ? state_hit(x, tr, &at, &k) : state(x, tr, &at, &k))) {
        uint64_t b[CH_BYTES / 8];
        if (at.avail >= CH_BYTES)
            memcpy(b, at.ops, CH_BYTES);
        else {
            memset(b, 0, CH_BYTES);
            memcpy(b, at.ops, at.avail);
        }
        /* the stretch that came after the last one, most often; else the table */
        const ch_ent *e = NULL, *last = ch->last ? at_off(ch, ch->last - 1) : NULL;
        uint64_t h = 0;
        const rp_task *t = &x->t[k.tid];
        if (last && last->next && first_word(b, last->next_nb) == last->next_op0 &&
            fits(at_off(ch, last->next - 1), &k, &at, b, t, ch->calls))
            e = at_off(ch, last->next - 1);
        else if ((e = find(ch, &k, &at, h = hash(&k, b, ch->len), b, t)) && last) {
            ch_ent *l = (ch_ent *)(uintptr_t)last;
            l->next = (uint32_t)((const unsigned char *)e - ch->arena) + 1;
            l->next_nb = e->nb;
            l->next_op0 = e->ops[0];
        }
        int64_t look = CH_LOOK + (int64_t)(CH_LOOK_MISS * (ch->used < CH_CACHE ? ch->used : CH_CACHE) / CH_CACHE);
        ch->credit -= look;  /* a hit too: a stretch of one run barely pays for its look */
        ch->gain -= look;
        if (e && x->win_edge - x->win_at > e->insns) {
            apply(x, tr, e);
            ch->last = (uint32_t)((const unsigned char *)e - ch->arena) + 1;
            if (e->next) {  /* the stretch most likely next: its lines on their way meanwhile */
                const unsigned char *n = ch->arena + e->next - 1;
                __builtin_prefetch(n);
                __builtin_prefetch(n + 64);
                __builtin_prefetch(n + 128);
                __builtin_prefetch(n + 192);
            }
            ch->hits++;
            ch->runs += e->nruns;
            ch->insns += e->insns;
            int64_t earn = (int64_t)e->nruns * CH_EARN_RUN - (int64_t)(e->nfop + e->nsum) * CH_FOP;
            ch->credit += earn;
            ch->gain += earn;
            did = 1;
            if (ch->credit > 0 || ch->eager)
                continue;
        } else {
            ch->last = 0;
            if (ch->credit > 0 || ch->eager) {
                rh = h ? h : hash(&k, b, ch->len);
                break;
            }
        }
        ch->quiet = (uint32_t)(-ch->credit < CH_QUIET_MAX ? -ch->credit : CH_QUIET_MAX) + 64;
        ch->credit += ch->quiet;    /* the turns to come pay it */
        break;
    }
    if (did)    /* the hits' last instruction, the task's prev (apply sets c's only) */
        x->t[x->cpus[0].task].prev = x->cpus[0].prev;
    else if (!rh && x->want_exec[x->cpus[0].prev_charged])
        ch->quiet = CH_WANTED;  /* no look while a sink wants the EXECs (state): the lean loop may run */
    return rh ? record(x, tr, &k, rh) || did : did;    /* a miss to record (hashes are odd) */
}
