/*
** capture/module/fstmod_code.c — a part of fst's module for Hercules (fstmod.c): code pages: the pages the instructions run from, sent to the reader before the first op
** that needs them and again when they change (host pages write-protected, the fast path a
** compare of one number a taken branch).
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* ---- code pages (fstmod_wire.h CODE) ----
**
** The reader rebuilds instructions from code bytes; the module sends each 4K page of code
** (per address space) before the first op whose instructions run in it, and again when it
** has changed. Finding "changed" must cost nearly nothing per op and must not touch the
** guest's storage keys (their change bits are the OS's): the host pages of main storage
** that hold sent code are write-protected (mprotect); a store into one, by a CPU or by a
** device thread (a program read in by I/O), faults into segv() below, which marks the
** frame written and lifts the protection (the store then goes on: one fault per frame
** until it is protected again). Each frame has a word, gen << 1 | written: a page sent
** when its frames' words were w is right while the words are still w; the fast path
** (code_same) compares one number instead, code_epoch, which every fault changes too. A
** frame written since (code and data in one page: stores are normal there) is not
** protected again until its code changes: the ops in it compare the bytes their
** instructions ran from with the copy sent (a memcmp of the run, not of the page).
** Under DAT the page tables are read as Hercules' S/370 translate_addr reads them, from
** main storage, without its TLB and without a reference bit; PTLB and IPTE (wrapped), every
** page sent and every fault end what the fast path remembers (code_epoch).
**
** What a run gets is the page as it is at the op after it, except when the run stored into
** its own earlier instructions and no later instruction of it may have changed the store's
** registers (stored_behind): then the page goes after the op, the run keeping the copy it
** executed. Otherwise an instruction a later one of the same straight run (no taken branch
** between) stores into shows its new bytes.
*/
typedef struct cslot {
    int used;
    uint64_t space, page, stamp;
    int fast;                   /* both halves translated: the fast path may trust it */
    uint32_t f[2], w[2];        /* the frames of its 2K halves (one frame: 4K pages), words */
    uint64_t abs[2];            /* the halves' absolute addresses when sent */
    uint8_t copy[FSTMOD_PAGE];  /* what the reader has */
} cslot;

static int code_ok;             /* code pages can be watched (code_start) */
static volatile uint32_t *fword; /* per 4K frame of main storage: gen << 1 | written; 0: never protected */
static size_t nframes;
static uint64_t code_epoch = 1, code_stamp; /* code_epoch: epoch_now, epoch_bump only */
static pthread_mutex_t pglock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction old_segv;
static uint64_t pages_sent, frames_faulted;

/* code_epoch changes (atomically: a fault on another thread may bump it too) at every page
** sent, PTLB and IPTE, and at every frame a fault finds written: an entry of code_same's
** (ckent) found right in epoch e is right while the epoch is still e, one compare where
** the frames' words took two loads more (recursion -O2: 17 host instructions a taken
** branch, of ~250). Faults are few: a frame once written stays writable until its page's
** code changes. */
static inline uint64_t epoch_now(void)
{
    return __atomic_load_n(&code_epoch, __ATOMIC_ACQUIRE);
}

static inline void epoch_bump(void)
{
    __atomic_add_fetch(&code_epoch, 1, __ATOMIC_SEQ_CST);
}

/* A store into main storage the module protected: the frame is written; lift the
** protection so that the store goes on. Anything else is Hercules' own (its abend handler). */
static void segv(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr, base = (uintptr_t)sysblk.mainstor;
    if (fword && a >= base && a - base < nframes * FSTMOD_PAGE) {
        size_t f = (a - base) / FSTMOD_PAGE;
        pthread_mutex_lock(&pglock);
        uint32_t w = fword[f];
        if (w) { /* ours (another thread may have lifted it meanwhile: the store is retried) */
            if (!(w & 1)) {
                fword[f] = w | 1;
                epoch_bump();   /* after the word: code_page reads the epoch before it */
                frames_faulted++;
                mprotect((void *)(base + f * FSTMOD_PAGE), FSTMOD_PAGE, PROT_READ | PROT_WRITE);
            }
            pthread_mutex_unlock(&pglock);
            return;
        }
        pthread_mutex_unlock(&pglock);
    }
    if (old_segv.sa_flags & SA_SIGINFO)
        old_segv.sa_sigaction(sig, si, uc);
    else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN)
        old_segv.sa_handler(sig);
    else
        signal(SIGSEGV, SIG_DFL); /* the fault comes again, and ends Hercules as it would have */
}

/* Frame f protected, its word a new generation, clean (pglock held). */
static void protect(size_t f)
{
    uint32_t w = fword[f];
    if (w && !(w & 1))
        return;
    mprotect(sysblk.mainstor + f * FSTMOD_PAGE, FSTMOD_PAGE, PROT_READ);
    fword[f] = (w | 1) + 1;
}

/* Real to absolute (prefixing). */
static uint64_t absolute(REGS *regs, uint64_t r)
{
    uint64_t px = regs->PX_G;
    return (r & ~0xFFFull) == 0 || (r & ~0xFFFull) == px ? r ^ px : r;
}

static int fetch_real(REGS *regs, uint64_t r, unsigned n, uint32_t *v)
{
    uint64_t a = absolute(regs, r);
    if (a + n > sysblk.mainsize)
        return -1;
    const uint8_t *p = sysblk.mainstor + a;
    *v = n == 4 ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                : (uint32_t)p[0] << 8 | p[1];
    return 0;
}

/* S/370 DAT of va in the space of CR0/CR1 now: its real address, or -1 (not mapped). The
** steps and checks of Hercules 3.13's s370 translate_addr (dat.h), reading the tables
** from main storage: no TLB, no storage key touched. */
static int64_t dat370(REGS *regs, uint64_t va)
{
    uint32_t cr0 = regs->CR_L(0), asd = regs->CR_L(1), ste, pte;
    uint32_t psz = cr0 & CR0_PAGE_SIZE, ssz = cr0 & CR0_SEG_SIZE;
    if ((psz != CR0_PAGE_SZ_2K && psz != CR0_PAGE_SZ_4K) || (ssz != CR0_SEG_SZ_64K && ssz != CR0_SEG_SZ_1M))
        return -1;
    uint64_t sto = (asd & STD_370_STO) + (ssz == CR0_SEG_SZ_1M ? (va & 0x00F00000) >> 18 : (va & 0x00FF0000) >> 14);
    if (ssz == CR0_SEG_SZ_64K && ((uint32_t)(va << 4) & STD_370_STL) > (asd & STD_370_STL))
        return -1;
    if (fetch_real(regs, sto, 4, &ste) || (ste & (SEGTAB_370_INVL | SEGTAB_370_RSV)))
        return -1;
    uint64_t pto = ste & SEGTAB_370_PTO;
    if (ssz == CR0_SEG_SZ_1M)
        pto += psz == CR0_PAGE_SZ_4K ? (va & 0x000FF000) >> 11 : (va & 0x000FF800) >> 10;
    else
        pto += psz == CR0_PAGE_SZ_4K ? (va & 0x0000F000) >> 11 : (va & 0x0000F800) >> 10;
    if (fetch_real(regs, pto, 2, &pte))
        return -1;
    if (psz == CR0_PAGE_SZ_4K)
        return pte & PAGETAB_INV_4K ? -1
                                    : (int64_t)((uint64_t)(pte & PAGETAB_EA_4K) << 23 |
                                                (uint64_t)(pte & PAGETAB_PFRA_4K) << 8 | (va & 0xFFF));
    return pte & (PAGETAB_INV_2K | PAGETAB_RSV_2K) ? -1 : (int64_t)((uint64_t)(pte & PAGETAB_PFRA_2K) << 8 | (va & 0x7FF));
}

/* The address space of the instructions before an op: 0 with DAT off, else CR1's. */
static uint64_t space_of(REGS *regs, int dat)
{
    return dat ? FSTMOD_SPACE_DAT | regs->CR_L(1) : 0;
}

static int dat_on(REGS *regs)
{
    return (regs->arch_mode != FST_A370 || ECMODE(&regs->psw)) && (regs->psw.sysmask & PSW_DATMODE);
}

/* Where the 2K halves of page pg of space sp are in main storage: 0, or -1 for a half that
** is not mapped (abs[h] = UINT64_MAX). */
static int halves(REGS *regs, uint64_t sp, uint64_t pg, uint64_t abs[2])
{
    int rc = 0;
    for (unsigned h = 0; h < 2; h++) {
        uint64_t va = pg * FSTMOD_PAGE + h * 2048;
        int64_t r = sp ? dat370(regs, va) : (int64_t)va;
        abs[h] = r < 0 ? UINT64_MAX : absolute(regs, (uint64_t)r);
        if (r < 0 || abs[h] + 2048 > nframes * FSTMOD_PAGE)
            abs[h] = UINT64_MAX, rc = -1;
    }
    return rc;
}

/* The page's bytes as they are now (a half that is not mapped: zeros). */
static void page_now(const uint64_t abs[2], uint8_t *out)
{
    for (unsigned h = 0; h < 2; h++)
        if (abs[h] == UINT64_MAX)
            memset(out + h * 2048, 0, 2048);
        else
            memcpy(out + h * 2048, sysblk.mainstor + abs[h], 2048);
}

/* Do the bytes [lo, hi) of the page (offsets) equal those of the copy? */
static int run_same(const cslot *s, const uint64_t abs[2], unsigned lo, unsigned hi)
{
    for (unsigned h = 0; h < 2 && lo < hi; h++) {
        unsigned a = h * 2048, b = a + 2048;
        unsigned l = lo > a ? lo : a, e = hi < b ? hi : b;
        if (l >= e)
            continue;
        if (abs[h] == UINT64_MAX || memcmp(s->copy + l, sysblk.mainstor + abs[h] + (l - a), e - l))
            return 0;
    }
    return 1;
}

/* Send page pg of space sp into slot s: the frames protected first (a store after it
** faults and marks them written), then the copy. */
static void send_page(cpubuf *c, REGS *regs, cslot *s, uint64_t sp, uint64_t pg, const uint64_t abs[2])
{
    pthread_mutex_lock(&pglock);
    for (unsigned h = 0; h < 2; h++) {
        s->f[h] = abs[h] == UINT64_MAX ? 0 : (uint32_t)(abs[h] / FSTMOD_PAGE);
        if (abs[h] != UINT64_MAX)
            protect(s->f[h]);
        s->w[h] = abs[h] == UINT64_MAX ? 0 : fword[s->f[h]];
        s->abs[h] = abs[h];
    }
    page_now(abs, s->copy);
    pthread_mutex_unlock(&pglock);
    s->used = 1;
    s->space = sp;
    s->page = pg;
    s->fast = abs[0] != UINT64_MAX && abs[1] != UINT64_MAX;
    room(c, regs, FSTMOD_PAGE + 40);
    c->b[c->n++] = FSTMOD_OP_CODE;
    c->b[c->n++] = FSTMOD_CODE_PAGE;
    put_v(c, sp);
    put_v(c, pg);
    put_v(c, (uint64_t)(s - c->slots));
    memcpy(c->b + c->n, s->copy, FSTMOD_PAGE);
    c->n += FSTMOD_PAGE;
    epoch_bump();
    pages_sent++;
}

/* Page pg's second entry when it holds pg, else NULL; out of line, so that the first's
** test stays all the fast paths inline. */
static const ckent *__attribute__((noinline)) ck_second(const cpubuf *c, uint64_t pg)
{
    const ckent *k = &c->ck[ck_alt(pg)];
    return k->page == pg ? k : NULL;
}

/* Of page pg's two entries: the one that has it, else the one found right longer ago. */
static ckent *ck_way(cpubuf *c, uint64_t sp, uint64_t pg)
{
    unsigned i = (unsigned)(pg % CK_PAGES), j = ck_alt(pg);
    ckent *a = &c->ck[i], *b = &c->ck[j];
    if (a->page == pg && a->space == sp)
        return a;
    if (b->page == pg && b->space == sp)
        return b;
    return a->stamp <= b->stamp ? a : b;
}

/* What code_same remembers ends (a page to send late, a new space): the next op's check
** takes the slow path. */
static void ck_forget(cpubuf *c)
{
    for (unsigned i = 0; i < CK_PAGES; i++)
        c->ck[i].epoch = c->ck[i].cmp = 0;
}

/* Its frames not written since the page was found right (and nothing ended that since). */
static inline int ck_unwritten(const ckent *k)
{
    return k->epoch == epoch_now();
}

/* Is the slot's copy right for the run [lo, hi) of its page? Fast when its frames have
** not been written since it was sent; else by the bytes. */
static int slot_right(cslot *s, const uint64_t abs[2], unsigned lo, unsigned hi)
{
    if (s->abs[0] != abs[0] || s->abs[1] != abs[1])
        return 0; /* mapped elsewhere now */
    if (s->fast && fword[s->f[0]] == s->w[0] && fword[s->f[1]] == s->w[1])
        return 1;
    uint32_t w0 = s->fast ? fword[s->f[0]] : 1, w1 = s->fast ? fword[s->f[1]] : 1;
    if (!(w0 & 1) && !(w1 & 1)) {
        /* protected again since (another slot's page sent): the whole page, once */
        if (memcmp(s->copy, sysblk.mainstor + abs[0], 2048) || memcmp(s->copy + 2048, sysblk.mainstor + abs[1], 2048))
            return 0;
        s->w[0] = w0, s->w[1] = w1;
        return 1;
    }
    return run_same(s, abs, lo, hi);
}

static int stored_behind(REGS *regs, const struct cslot *s, const uint64_t abs[2], uint64_t pg, unsigned lo,
                         unsigned hi);

/* The page pg of space sp, whose bytes [lo, hi) a run executed: sent when the reader does
** not have it right. */
static void code_page(cpubuf *c, REGS *regs, uint64_t sp, uint64_t pg, unsigned lo, unsigned hi)
{
    uint64_t abs[2];
    halves(regs, sp, pg, abs);
    unsigned set = fstmod_code_set(sp, pg);
    cslot *ways = c->slots + set * FSTMOD_CODE_WAYS, *s = NULL, *victim = NULL;
    for (unsigned i = 0; i < FSTMOD_CODE_WAYS && !s; i++)
        if (ways[i].used && ways[i].space == sp && ways[i].page == pg)
            s = &ways[i];
        else if (!victim || (victim->used && (!ways[i].used || ways[i].stamp < victim->stamp)))
            victim = &ways[i]; /* a free way, else the least recently used */
    if (s && !slot_right(s, abs, lo, hi) && s->abs[0] == abs[0] && s->abs[1] == abs[1] &&
        stored_behind(regs, s, abs, pg, lo, hi)) {
        c->late = s; /* this run executed the copy: the new bytes after its op */
        c->late_abs[0] = abs[0], c->late_abs[1] = abs[1];
        s->stamp = ++code_stamp;
        ck_forget(c);
        return;
    }
    if (!s || !slot_right(s, abs, lo, hi))
        send_page(c, regs, s = s ? s : victim, sp, pg, abs);
    s->stamp = ++code_stamp;
    ckent *k = ck_way(c, sp, pg);
    k->stamp = code_stamp;
    k->space = sp;
    k->page = pg;
    /* the fast path only for a page whose frames stay unwritten (else the bytes, each run);
    ** the epoch read first: a fault between it and the words' test ends the entry */
    uint64_t e0 = epoch_now();
    k->epoch = s->fast && fword[s->f[0]] == s->w[0] && fword[s->f[1]] == s->w[1] ? e0 : 0;
    /* a page in one piece of main storage: the next runs in it compared without a look-up */
    int whole = s->fast && abs[1] == abs[0] + 2048;
    k->cmp = whole ? e0 : 0;
    k->copy = s->copy;
    k->main = whole ? sysblk.mainstor + abs[0] : NULL;
}

static int code_frames(void);

/* memcmp(a, b, n) == 0 for the short runs most ops end (a loop's body: 8 to 16 bytes) in
** two overlapping 8-byte compares, without a call. */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n < 8 || n > 16)
        return !memcmp(a, b, n);
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8), memcpy(&b0, b, 8);
    memcpy(&a1, a + n - 8, 8), memcpy(&b1, b + n - 8, 8);
    return a0 == b0 && a1 == b1;
}

/* An instruction's storage operand, when it is one of the stores a program changes its
** own code with (MVI, NI, OI, XI, STC, STH, ST, STM, MVC): its address and length, from
** the registers as they are now. 0 when it is none of those. */
static int store_operand(REGS *regs, const uint8_t *ib, uint64_t *addr, unsigned *len)
{
    unsigned b = ib[2] >> 4, x = ib[1] & 15, d = ((unsigned)ib[2] & 15) << 8 | ib[3];
    uint64_t a = (b ? regs->GR_L(b) : 0) + d;
    switch (ib[0]) {
    case 0x92: case 0x94: case 0x96: case 0x97: *len = 1; break;
    case 0x42: *len = 1; a += x ? regs->GR_L(x) : 0; break;
    case 0x40: *len = 2; a += x ? regs->GR_L(x) : 0; break;
    case 0x50: *len = 4; a += x ? regs->GR_L(x) : 0; break;
    case 0x90: *len = 4 * (((ib[1] & 15) - (ib[1] >> 4)) % 16 + 1); break;
    case 0xD2: *len = ib[1] + 1u; break;
    default: return 0;
    }
    *addr = a & amask(regs);
    return 1;
}

/* Might the instruction ib change general register r? From its format only (RR, RX, RS:
** the first operand register, its pair, LM's range; TRT, EDMK: R1, R2; EX: any), so that
** an instruction that only reads r (ST, CL) counts too: in doubt, yes. */
static int may_write(const uint8_t *ib, unsigned r)
{
    uint8_t op = ib[0];
    unsigned r1 = ib[1] >> 4, r3 = ib[1] & 15;
    if (op == 0x44 || op == 0xDD || op == 0xDF)
        return op == 0x44 || r == 1 || r == 2;
    if (op == 0x98 || op == 0x90) /* LM (STM read as LM: in doubt) */
        return ((r - r1) & 15) <= ((r3 - r1) & 15);
    if (op >= 0xC0 || (op >= 0x91 && op <= 0x97) || (op >= 0xD0)) /* SI, SS */
        return 0;
    return r == r1 || r == ((r1 + 1) & 15);
}

/* Did the run [lo, hi) of page pg store, itself, into every byte of it that changed since
** the copy, each after that byte had executed (the classic switch: SW NOP, then OI
** SW+1,X'F0' further on in the same run)? Then the run executed the copy's bytes: the page
** goes to the reader after the op, not before. The run is walked with the copy's bytes. */
static int stored_behind(REGS *regs, const struct cslot *s, const uint64_t abs[2], uint64_t pg, unsigned lo,
                         unsigned hi)
{
    uint8_t now[FSTMOD_PAGE];
    page_now(abs, now);
    int changed = 0;
    for (unsigned j = lo; j < hi; j++) {
        if (now[j] == s->copy[j])
            continue;
        changed = 1;
        uint64_t va = pg * FSTMOD_PAGE + j, a;
        int covered = 0;
        for (unsigned i = lo, l; i + 2 <= hi && !covered; i += l) {
            const uint8_t *ib = s->copy + i;
            l = ib[0] < 0x40 ? 2 : ib[0] < 0xC0 ? 4 : 6;
            unsigned n;
            if (i > j && i + l <= FSTMOD_PAGE && store_operand(regs, ib, &a, &n) && va >= a && va < a + n)
                covered = 1;
            /* the operand from the registers as the run ends: only when none after it may
            ** have changed them (else in doubt: not covered) */
            unsigned b = ib[2] >> 4, x = ib[0] < 0x80 ? ib[1] & 15 : 0, l2;
            for (unsigned k = i + l; covered && k + 2 <= hi; k += l2) {
                const uint8_t *nb = s->copy + k;
                l2 = nb[0] < 0x40 ? 2 : nb[0] < 0xC0 ? 4 : 6;
                if ((b && may_write(nb, b)) || (x && may_write(nb, x)))
                    covered = 0;
            }
        }
        if (!covered)
            return 0;
    }
    return changed;
}

/* The page code_page left for after its op. */
static void send_late(cpubuf *c, REGS *regs)
{
    cslot *s = c->late;
    c->late = NULL;
    send_page(c, regs, s, s->space, s->page, c->late_abs);
}

/* code_check's slow path: the space said when it changed, then each page of the run. It
** leaves room for the op and the registers after it (256 bytes), as buf_of does. */
static void __attribute__((noinline)) code_slow(cpubuf *c, REGS *regs, uint64_t sp, uint64_t s, uint64_t e)
{
    if (!c->slots && !(c->slots = calloc(FSTMOD_CODE_SLOTS, sizeof *c->slots))) {
        room(c, regs, 256); /* no memory: no page sent (the reader takes the image, or stops) */
        return;
    }
    if (c->late)
        send_late(c, regs);
    if (sp != c->said_space) {
        room(c, regs, 16);
        c->b[c->n++] = FSTMOD_OP_CODE;
        c->b[c->n++] = FSTMOD_CODE_SPACE;
        put_v(c, sp);
        c->said_space = sp;
        ck_forget(c);   /* the pages remembered are all of said_space (copy_code_same) */
    }
    if (sp && regs->arch_mode != FST_A370) {
        /* DAT of ESA/390 and z/Architecture is not read: no page is sent, and the reader
        ** stops at the first instruction it cannot find, naming it (docs/module.md) */
        static int said;
        if (!said++)
            logmsg("HHCFS005W fst module: DAT under ESA/390 or z/Architecture: its code pages are not sent\n");
        room(c, regs, 256);
        return;
    }
    if (e - s > 16 * FSTMOD_PAGE) /* not a run from the last op (the first one): its end */
        s = e > 6 ? e - 6 : 0;
    for (uint64_t pg = s / FSTMOD_PAGE; pg <= (e - 1) / FSTMOD_PAGE; pg++) {
        uint64_t p0 = pg * FSTMOD_PAGE;
        unsigned lo = s > p0 ? (unsigned)(s - p0) : 0;
        unsigned hi = e < p0 + FSTMOD_PAGE ? (unsigned)(e - p0) : FSTMOD_PAGE;
        code_page(c, regs, sp, pg, lo, hi);
    }
    if (c->late)
        ck_forget(c);   /* a run over two pages: the second's page must not make it fast */
    room(c, regs, 256);
}

/* The bytes [s, e) of one page, in space sp, right for the reader by what is remembered of
** the page (no look-up, no translation): its frames not written since, or (data beside the
** code) the bytes this run executed the copy's. 1, or 0 when that does not tell. */
static inline int code_part(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e)
{
    uint64_t pg = s / FSTMOD_PAGE;
    const ckent *k = &c->ck[pg % CK_PAGES];
    if (sp != k->space || pg != k->page) {
        if (!(k = ck_second(c, pg)) || sp != k->space)
            return 0;
    }
    if (ck_unwritten(k))
        return 1;
    unsigned off = (unsigned)(s % FSTMOD_PAGE);
    return k->cmp == epoch_now() && same_bytes(k->copy + off, k->main + off, (size_t)(e - s));
}

static int code_run(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e);

/* The instructions of the next op ran from s up to e (excluded) in the space of `dat` and
** CR1: the reader gets the space and the pages it needs first (code_check). code_same is
** its fast paths alone: 1 when nothing needs sending (*sp: the space, when it says 0). Per
** op, while the run stays in a page found right before (ckent, CK_PAGES of them): a few
** compares (its frames not written since), or a compare of the run's bytes (data stored
** beside the code). */
static inline int code_same(cpubuf *c, REGS *regs, int dat, uint64_t s, uint64_t e, uint64_t *sp)
{
    if (e <= s || (!fword && code_frames()))
        return 1;
    *sp = space_of(regs, dat);
    if ((e - 1) / FSTMOD_PAGE != s / FSTMOD_PAGE)
        return code_run(c, *sp, s, e);
    return code_part(c, *sp, s, e);
}

/* code_part for a run in one page or over two: a loop, or an instruction, across a page's
** end took the slow path at every turn (a hot loop so placed: shares.s's under 4.9, 1.36x
** -> 1.76x untraced). More than two pages: 0. */
static int __attribute__((noinline)) code_run(const cpubuf *c, uint64_t sp, uint64_t s, uint64_t e)
{
    uint64_t mid = (s / FSTMOD_PAGE + 1) * FSTMOD_PAGE;
    if (e <= mid)
        return code_part(c, sp, s, e);
    return (e - 1) / FSTMOD_PAGE == mid / FSTMOD_PAGE && code_part(c, sp, s, mid) && code_part(c, sp, mid, e);
}

static inline void code_check(cpubuf *c, REGS *regs, int dat, uint64_t s, uint64_t e)
{
    uint64_t sp;
    if (!code_same(c, regs, dat, s, e, &sp))
        code_slow(c, regs, sp, s, e);
}

/* Start watching: the fault handler (each CPU's slots come with its first code page). 0, or -1 (why). Main storage is not
** there yet when the module loads (the configuration is still being read): its frames'
** words come with the first op (code_frames). */
static int code_start(char *why, size_t cap)
{
    if ((size_t)sysconf(_SC_PAGESIZE) != FSTMOD_PAGE) {
        snprintf(why, cap, "the host's pages are not 4K (or no memory): code pages cannot be watched");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &old_segv)) {
        snprintf(why, cap, "cannot handle SIGSEGV: %s", strerror(errno));
        return -1;
    }
    code_ok = 1;
    return 0;
}

/* The frames' words, at the first op (main storage is 4K-aligned: bldcfg.c aligns it).
** Without them (no memory, storage not aligned) no page is sent: the reader takes the
** image, as before code pages. */
static int code_frames(void)
{
    if (fword)
        return 0;
    if (!code_ok || !sysblk.mainstor || ((uintptr_t)sysblk.mainstor & (FSTMOD_PAGE - 1)))
        return -1;
    uint32_t *w = calloc((size_t)(sysblk.mainsize / FSTMOD_PAGE) + 1, sizeof *w);
    if (!w)
        return -1;
    nframes = (size_t)(sysblk.mainsize / FSTMOD_PAGE);
    fword = w;
    return 0;
}

/* Unloading: every frame writable again, the handler Hercules had. */
static void code_stop(void)
{
    if (!fword)
        return;
    pthread_mutex_lock(&pglock);
    for (size_t f = 0; f < nframes; f++)
        if (fword[f] && !(fword[f] & 1)) {
            mprotect(sysblk.mainstor + f * FSTMOD_PAGE, FSTMOD_PAGE, PROT_READ | PROT_WRITE);
            fword[f] |= 1;
        }
    epoch_bump();
    pthread_mutex_unlock(&pglock);
    sigaction(SIGSEGV, &old_segv, NULL);
}
