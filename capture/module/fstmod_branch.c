/*
** capture/module/fstmod_branch.c — a part of fst's module for Hercules (fstmod.c): the branches' wrappers: every taken branch a BR record, a loop's as one REP record (the
** copies looked for, or not, by phases).
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* ---- the wrappers ---- */

static inline void push(cpubuf *c, uint64_t at, uint64_t to)
{
    unsigned j = c->nbr % FSTMOD_REP_MAXP;
    c->bat[j] = at;
    c->bto[j] = to;
    c->rix[rix_of(at, to)] = ++c->nbr;
    c->last = to;
}

/* A phase's time: the CPU time of the thread that runs the CPU, not the wall clock, so that
** a phase spanning a wait (the guest idle, the thread preempted) is not taken as slow. */
static uint64_t phase_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The next phase (fstmod.c PH_LOOK), from now: raw or looking, n branches long. */
static void phase(cpubuf *c, int ph, unsigned n, uint64_t now)
{
    if ((c->ph & 1) && !(ph & 1))
        memset(c->bat, 0xFF, sizeof c->bat);   /* the raw branches were not pushed */
    c->ph = ph;
    c->ph_n0 = c->nbr;
    c->ph_left = n;
    c->ph_long = 0;
    c->ph_t0 = now;
}

/* A looking phase ends (its length counted, at a branch not on a copy). 1: raw from now. */
static int look_end(cpubuf *c)
{
    uint64_t now = phase_ns(), n = c->nbr - c->ph_n0;
    if (c->ph == PH_LOOKT && c->ph_long * 2ull < n) {
        c->look_ns = now - c->ph_t0;
        c->look_n = n;
        phase(c, PH_RAWT, ph_look, now);
    } else if (c->ph == PH_LOOKT)
        phase(c, PH_LOOKR, 16 * ph_look, now);
    else
        phase(c, PH_LOOKT, ph_look, now);
    return c->ph & 1;
}

/* A raw phase ends: after its trial, the faster for the run; after the run, trials again. */
static void raw_end(cpubuf *c)
{
    uint64_t now = phase_ns();
    if (c->ph == PH_RAWT) {
        int raw = (now - c->ph_t0) * c->look_n <= c->look_ns * ph_look;
        phase(c, raw ? PH_RAWR : PH_LOOKR, 16 * ph_look, now);
    } else
        phase(c, PH_LOOKT, ph_look, now);
}

/* A taken branch's own record (fstmod_wire.h BR); `last` is the caller's to move. */
static inline void br_record(cpubuf *c, uint64_t at, uint64_t to)
{
    c->b[c->n++] = FSTMOD_OP_BR;
    put_sv(c, (int64_t)(at - c->last));
    put_sv(c, (int64_t)(to - at));
}

/* A branch of a raw phase: its record, counted (nbr), not pushed. */
static void taken_raw(cpubuf *c, uint64_t at, uint64_t to)
{
    br_record(c, at, to);
    c->last = to;
    c->nbr++;
    c->nraw++;
    if (--c->ph_left == 0)
        raw_end(c);
}

/* skip_op and room_of for a taken branch's record, with the CPU's buffer c that taken found
** (or NULL): NULL when nothing is recorded. Their common case (this session's buffer, no
** console line waiting, room) is tested here inline, without their look-ups of c again. */
static inline cpubuf *branch_buf(REGS *regs, cpubuf *c, uint64_t at)
{
    unsigned g = fst_gen;
    if (unlikely(c == NULL || !g || c->gen != g || c->cons_seen != cons_seq))
        return skip_op(regs, at, NULL, 0, 0) ? NULL : room_of(regs);
    room_check(c, regs);
    return c;
}

/* A taken branch of a raw phase (no copy is being made): apart from taken_new, so that this
** path saves no more registers than it needs (inside taken_new, cgen's capture under 4.9
** took 5 % longer). */
static void __attribute__((noinline)) taken_out(REGS *regs, cpubuf *c, uint64_t at, uint64_t to, uint64_t fall)
{
    if (unlikely(!(c = branch_buf(regs, c, at))))
        return;
    code_check(c, regs, dat_on(regs), c->last, fall);
    taken_raw(c, at, to);
}

/* A taken branch that does not go on the copy being made: the copy's REP record, then a
** new copy when the branch repeats one of the last (the nearest), else its own record. */
static void __attribute__((noinline)) taken_new(REGS *regs, cpubuf *c, uint64_t at, uint64_t to, uint64_t fall)
{
    if (unlikely(!(c = branch_buf(regs, c, at))))
        return;
    rep_out(c);
    copy_end(c);
    code_check(c, regs, dat_on(regs), c->last, fall);
    if (unlikely(!c->ph_t0))
        c->ph_t0 = phase_ns();
    if (c->nbr - c->ph_n0 >= c->ph_left && look_end(c)) {
        taken_raw(c, at, to);
        return;
    }
    unsigned was = c->rix[rix_of(at, to)], p = c->nbr + 1 - was;
    if (was && p <= FSTMOD_REP_MAXP) {  /* was <= nbr: p >= 1 */
        unsigned j = (c->nbr - p) % FSTMOD_REP_MAXP;
        if (c->bat[j] == at && c->bto[j] == to) {
            c->rep_p = p;
            c->rep_n = 1;
            push(c, at, to);
            c->rep_n0 = c->nbr;
            c->rep_e = c->nbr - p;
            return;
        }
    }
    br_record(c, at, to);
    push(c, at, to);
}

/* code_same for a copy's run, from s to e: its space is the one the copy began in (a new
** space comes with a record, which ends the copy, and makes code_slow forget the pages
** remembered), so the space is not compared. 1: the same; 0: not found right this way (the
** copy ends; code_check decides); -1: its bytes need a memcmp, or it lies over two pages
** (copy_slow: no call here, see copy_full); *cmp is then the page's entry whose bytes
** copy_slow compares, or NULL for a run over two pages. */
static inline int copy_code_same(const cpubuf *c, uint64_t s, uint64_t e, const ckent **cmp)
{
    if (!fword || e <= s)
        return 1;
    uint64_t pg = s / FSTMOD_PAGE;
    const ckent *k = &c->ck[pg % CK_PAGES];
    *cmp = NULL;
    if ((e - 1) / FSTMOD_PAGE != pg)
        return -1;  /* over two pages (code_run) */
    if (pg != k->page && !(k = ck_second(c, pg)))
        return 0;
    if (ck_unwritten(k))
        return 1;
    if (k->cmp != epoch_now())
        return 0;
    unsigned off = (unsigned)(s % FSTMOD_PAGE);
    size_t n = (size_t)(e - s);
    if (n < 8 || n > 16) {
        *cmp = k;   /* in one page, found right before: its bytes by memcmp */
        return -1;
    }
    return same_bytes(k->copy + off, k->main + off, n);
}

/* A copy as long as one REP record counts: the record goes out, the copy goes on. Apart
** from taken, so that a copy's branch calls nothing but in its last step (the wrappers
** then keep less across Hercules' routine). */
static void __attribute__((noinline)) copy_full(REGS *regs)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    if (unlikely(c->gen != fst_gen))    /* a copy of an ended session's (its records are */
        copy_end(c);                    /* dropped): the next branch begins the new one */
}

/* One more branch on the copy (fstmod_wire.h REP). */
static inline __attribute__((always_inline)) void copy_step(cpubuf *c, REGS *regs, uint64_t to)
{
    c->rep_lazy++;  /* pushed when the copy ends (copy_end) */
    c->last = to;
    if (++c->rep_e == c->rep_n0)
        c->rep_e -= c->rep_p;
    if (unlikely(++c->rep_n == REP_MAXN))
        copy_full(regs);
}

/* The copy's branch whose run is shorter than 8 bytes or longer than 16, in a page the
** module could not protect (its bytes compared with memcmp), or over two pages. */
static void __attribute__((noinline)) copy_slow(cpubuf *c, REGS *regs, const ckent *k, uint64_t at, uint64_t to,
                                                uint64_t fall)
{
    unsigned off = (unsigned)(c->last % FSTMOD_PAGE);
    if (k ? !memcmp(k->copy + off, k->main + off, (size_t)(fall - c->last)) : code_run(c, c->said_space, c->last, fall))
        copy_step(c, regs, to);
    else
        taken_new(regs, c, at, to, fall);
}

/* A taken branch: one more copy (fstmod_wire.h REP) while it is the branch p back, which in
** a loop it is, and the code its run executed has not changed (code_same: a page changed
** under a loop ends the copy, and code_check sends it before the branch's record); else
** taken_new. */
static inline __attribute__((always_inline)) void taken(REGS *regs, uint64_t at, uint64_t to, uint64_t fall)
{
    cpubuf *c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (likely(c != NULL) && c->rep_p && likely(c->cons_seen == cons_seq)) {
        unsigned j = c->rep_e % FSTMOD_REP_MAXP;
        if (likely(c->bat[j] == at && c->bto[j] == to)) {
            const ckent *k;
            int same = copy_code_same(c, c->last, fall, &k);
            if (likely(same > 0)) {
                copy_step(c, regs, to);
                return;
            }
            if (same < 0) {
                copy_slow(c, regs, k, at, to, fall);
                return;
            }
        }
    } else if (likely(c != NULL) && (c->ph & 1)) {
        taken_out(regs, c, at, to, fall);
        return;
    }
    taken_new(regs, c, at, to, fall);
}

/* A branching instruction: its routine, then a record when it branched. Hercules' branch
** routines leave aip and AIV alone: a branch that fell through advanced ip by its length
** and left aie set (the fast way out, fell); one taken either moved ip in the page or, to
** another page or under EX, set the PSW's address and cleared aie (branched). */
static inline __attribute__((always_inline)) int fell(const REGS *regs, const BYTE *ip0, unsigned ilc)
{
    return regs->ip == ip0 + ilc && regs->aie != NULL;
}

static inline __attribute__((always_inline)) void branched(REGS *regs, BYTE *ip0, unsigned ilc, uint64_t am)
{
    uint64_t ia0 = (regs->AIV_G + (uint64_t)((uintptr_t)ip0 - (uintptr_t)regs->aip)) & am;
    uint64_t fall = (ia0 + ilc) & am;
    uint64_t at = regs->execflag ? (fall - (regs->exrl ? 6 : 4)) & am : ia0; /* under EX: the EX */
    uint64_t to = regs->aie ? ip_ia(regs) : regs->psw.IA_G & am;
    if (to != fall)
        taken(regs, at, to, fall);
}

static void __attribute__((noinline)) branched_out(REGS *regs, BYTE *ip0, unsigned ilc, uint64_t am)
{
    branched(regs, ip0, ilc, am);
}

/* Two kinds of wrapper. A loop's branch (BCT, BXLE, BRCT, ...), taken at nearly every
** turn, records inline: in a tight loop the copy goes on there (fstmod_wire.h REP). Any
** other branch (BC, BCR, BRC, BALR, BASR, BRAS, ...: conditional, or a call or return that
** rarely goes on a copy) calls branched_out when taken, so that what its wrapper keeps
** across Hercules' routine, at every branch taken or not, is the least: Hercules with the
** module alone, 3.13, against both inline: recursion -O2 -8 %, branchy -O2 -4 %, cgen
** -5 %. A loop's branch done this way costs a second call a turn (shares.s's BCT loop
** +6.5 %), what a tight loop closed by a BC or BRC pays. Both read the address mask
** before Hercules' routine (S/370's BSM and BASSM may change it). */
/* (The length, len, is read before Hercules' routine: read after it, the split wrappers
** keep inst instead and took 4-10 % longer on cgen and recursion. A wrapper of one kind of
** opcode knows it.) */
#define W_WRAP(name, orig, then, len) \
    static void ATTR_REGPARM(2) name(BYTE inst[], REGS *regs) \
    { \
        BYTE *ip0 = regs->ip; \
        uint64_t am = amask(regs); \
        unsigned ilc = (len); \
        orig(inst, regs)(inst, regs); \
        if (likely(fell(regs, ip0, ilc))) \
            return; \
        then(regs, ip0, ilc, am); \
    }
/* one byte's opcode (BC, BCR, BCT, BAL, BAS, BXH, ...), or with a second part (BRC, BRAS,
** BRCT, BRCL, BRASL, BCTG, BXHG, compare and branch, ...: its routine in that part's table) */
W_WRAP(w_loop2, FST_ORIG1, branched, 2)           /* BCTR */
W_WRAP(w_loop4, FST_ORIG1, branched, 4)           /* BCT, BXH, BXLE, BRXH, BRXLE */
W_WRAP(w_loopx, FST_ORIGX, branched, ilc_of(inst[0]))
W_WRAP(w_branch2, FST_ORIG1, branched_out, 2)     /* BALR, BCR, BASR, BSM, BASSM */
W_WRAP(w_branch4, FST_ORIG1, branched_out, 4)     /* BAL, BC, BAS */
W_WRAP(w_branchx, FST_ORIGX, branched_out, ilc_of(inst[0]))
/* the same for A7x (BRC, BRAS, BRCT, BRCTG) and C0x (BRCL, BRASL): their routine found
** without FST_ORIGX's switches (fstmod_herc.h FST_ORIG_NIB) */
#define FST_ORIGA7(inst, regs) FST_ORIG_NIB(FST_KA7, inst, regs)
#define FST_ORIGC0(inst, regs) FST_ORIG_NIB(FST_KC0, inst, regs)
W_WRAP(w_loopa7, FST_ORIGA7, branched, 4)
W_WRAP(w_brancha7, FST_ORIGA7, branched_out, 4)
W_WRAP(w_branchc0, FST_ORIGC0, branched_out, 6)
