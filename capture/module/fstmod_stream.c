/*
** capture/module/fstmod_stream.c — a part of fst's module for Hercules (fstmod.c): the stream: each CPU's buffer, its records' encoding, the FIFO's writes; what a CPU is
** doing (its PSW, address, instruction length) as the records say it.
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* ---- the stream ---- */

/* outlock held. The FIFO is non-blocking: a full pipe is waited for (the reader is slow:
** Hercules waits, as a blocking write would), but a reader that takes nothing for
** FSTMOD_STALL_MS is given up (detach): a writer never blocks Hercules forever. A failed
** write (EPIPE: the reader closed; SIGPIPE is ignored, attach_start) detaches too. */
#define FSTMOD_STALL_MS 30000
static void write_all(const uint8_t *p, size_t n)
{
    int waited = 0;
    while (n && outfd >= 0) {
        ssize_t k = write(outfd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN) {
            struct pollfd pf = { outfd, POLLOUT, 0 };
            if (waited >= FSTMOD_STALL_MS) {
                detach_locked("took nothing for 30 s");
                return;
            }
            if (poll(&pf, 1, 1000) == 0)
                waited += 1000;
            continue;
        }
        if (k <= 0) { /* the reader is gone: stop recording until the next one */
            detach_locked(k < 0 && errno == EPIPE ? NULL : strerror(errno));
            return;
        }
        waited = 0;
        p += k;
        n -= (size_t)k;
    }
}

/* A chunk of session gen's records: written only while that session lasts (a CPU's
** records of an earlier reader never reach a later one). */
static void chunk(unsigned cpu, const uint8_t *p, size_t n, unsigned gen)
{
    uint8_t h[FSTMOD_CHUNK_HDR] = { FSTMOD_CHUNK, (uint8_t)cpu, 0, 0, (uint8_t)n, (uint8_t)(n >> 8),
                                    (uint8_t)(n >> 16), (uint8_t)(n >> 24) };
    pthread_mutex_lock(&outlock);
    if (gen && gen == fst_gen) {
        write_all(h, sizeof h);
        write_all(p, n);
    }
    pthread_mutex_unlock(&outlock);
}

static void put_v(cpubuf *c, uint64_t v);

/* The copy being made, as a REP record (there is room: every record leaves 64 bytes). */
static void rep_out(cpubuf *c)
{
    if (c->rep_n) {
        c->b[c->n++] = FSTMOD_OP_REP;
        put_v(c, c->rep_p);
        put_v(c, c->rep_n);
        c->rep_n = 0;
    }
}

static uint64_t now_ns(void);

static void flush_cpu(unsigned cpu)
{
    cpubuf *c = bufs[cpu];
    if (c)
        rep_out(c);
    if (c && c->n) {
        chunk(cpu, c->b, c->n, c->gen);
        c->n = 0;
        c->since = now_ns();
    }
}

/* A buffer that has held records (or copies) for STALE_NS goes out then, so that what
** a capture cut short (a timeout, Ctrl-C) loses is a fraction of a second: checked every
** STALE_EVERY records and every REP_MAXN copies, with the coarse clock. */
#define STALE_EVERY 256u
#define STALE_NS 100000000ull

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int stale(cpubuf *c)
{
    uint64_t t = now_ns();
    if (!c->n && !c->rep_n) {
        c->since = t;
        return 0;
    }
    return t - c->since > STALE_NS;
}

/* Room in c for any one op (the longest: CR, ~100 bytes) and a copy's REP before it; a
** buffer gone stale goes out. */
static inline void room_check(cpubuf *c, REGS *regs)
{
    if (c->n > FSTMOD_BUF - 256 || ((++c->calls % STALE_EVERY == 0 || c->rep_n >= REP_MAXN) && stale(c)))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* The CPU's buffer with room for a record (128 bytes). */
static cpubuf *room_of(REGS *regs)
{
    unsigned cpu = regs->cpuad % FSTMOD_NCPU;
    cpubuf *c = bufs[cpu];
    if (!c) {
        c = calloc(1, sizeof *c); /* last = 0: the stream's base starts at 0 */
        if (!c)
            abort();
        memset(c->bat, 0xFF, sizeof c->bat);
        c->ph_left = ph_look;   /* a looking trial first (ph = PH_LOOKT) */
        c->gen = load_gen; /* a CPU first seen in a later session starts with SYNC */
        bufs[cpu] = c;
    }
    room_check(c, regs);
    return c;
}

/* The copy being made ends: the branches it did not push (rep_lazy) go into the last
** branches and rix as push would have put them, each the one p back, in order (then each
** one's source is in the ring still: it is p <= FSTMOD_REP_MAXP back). Of a copy longer
** than the ring only its last FSTMOD_REP_MAXP stay, copied from the p it repeats (first
** put aside: the ring's slots go round over them); only the last p can be rix's latest. */
static void copy_end(cpubuf *c)
{
    unsigned k = c->rep_lazy, p = c->rep_p, n0 = c->rep_n0, m = FSTMOD_REP_MAXP;
    c->rep_p = 0;
    if (!k)
        return;
    c->rep_lazy = 0;
    c->nbr = n0 + k;
    c->ph_long += k >= PH_LONG ? k + 1 : 0;
    if (k <= m) {
        /* rix set from the values copied (the last p), not reloaded from the ring just
        ** stored: recursion's copies are short, and this is most of their cost */
        unsigned q = 0;
        for (; q + p < k; q++) {
            c->bat[(n0 + q) % m] = c->bat[(n0 + q - p) % m];
            c->bto[(n0 + q) % m] = c->bto[(n0 + q - p) % m];
        }
        for (; q < k; q++) {
            uint64_t at = c->bat[(n0 + q - p) % m], to = c->bto[(n0 + q - p) % m];
            c->bat[(n0 + q) % m] = at;
            c->bto[(n0 + q) % m] = to;
            c->rix[rix_of(at, to)] = n0 + q + 1;
        }
        return;
    }
    for (unsigned i = 0; i < p; i++) {
        c->rep_at[i] = c->bat[(n0 - p + i) % m];
        c->rep_to[i] = c->bto[(n0 - p + i) % m];
    }
    for (unsigned q = k - m, i = q % p; q < k; q++) {  /* branch n0 + q repeats rep_at[q % p] */
        c->bat[(n0 + q) % m] = c->rep_at[i];
        c->bto[(n0 + q) % m] = c->rep_to[i];
        if (++i == p)
            i = 0;
    }
    for (unsigned q = k - p; q < k; q++)    /* k > m >= p */
        c->rix[rix_of(c->bat[(n0 + q) % m], c->bto[(n0 + q) % m])] = n0 + q + 1;
}

/* The same for a record other than a branch: a copy being made ends before it. */
static cpubuf *buf_of(REGS *regs)
{
    cpubuf *c = room_of(regs);
    rep_out(c);
    copy_end(c);
    return c;
}

/* Room for n more bytes in c (the buffer is written out first when they do not fit). */
static void room(cpubuf *c, REGS *regs, size_t n)
{
    if (c->n + n > FSTMOD_BUF)
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

static void put_v(cpubuf *c, uint64_t v)
{
    while (v >= 0x80) {
        c->b[c->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    c->b[c->n++] = (uint8_t)v;
}

static void put_sv(cpubuf *c, int64_t d)
{
    put_v(c, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
}

static void put_psw(cpubuf *c, const uint8_t *psw, unsigned len)
{
    c->b[c->n++] = (uint8_t)len;
    memcpy(c->b + c->n, psw, len);
    c->n += len;
}

/* The general registers as they are now, those that changed since this CPU's last REGS
** (all 16 the first time): the task evidence of an interruption (the interrupted task's
** registers) and of an LPSW (the dispatched task's). Nothing when none changed. */
static void put_regs(cpubuf *c, REGS *regs)
{
    unsigned mask = 0;
    for (int r = 0; r < 16; r++)
        if (!c->gr_sent || regs->GR_L(r) != c->gr[r])
            mask |= 1u << r;
    if (!mask)
        return;
    c->b[c->n++] = FSTMOD_OP_REGS;
    c->b[c->n++] = (uint8_t)mask;
    c->b[c->n++] = (uint8_t)(mask >> 8);
    for (int r = 0; r < 16; r++)
        if (mask >> r & 1) {
            c->gr[r] = regs->GR_L(r);
            put_v(c, c->gr[r]);
        }
    c->gr_sent = 1;
}

/* ---- what a CPU is doing ---- */

static uint64_t amask(REGS *regs)
{
    return regs->psw.AMASK_G;
}

/* Where ip points: the address of the next instruction (or, inside a routine that has
** advanced it, past the current one). */
static uint64_t ip_ia(REGS *regs)
{
    return (regs->AIV_G + (uint64_t)((uintptr_t)regs->ip - (uintptr_t)regs->aip)) & amask(regs);
}

/* The length of an instruction by its first two bits (00: 2, 01 and 10: 4, 11: 6), without
** a branch: the wrappers take it at every branch instruction. */
static inline unsigned ilc_of(uint8_t op)
{
    return (((unsigned)op >> 6) + 3) >> 1 << 1;
}

/* The address the trace shows for the instruction being executed (under EX: the EX). */
static uint64_t at_of(REGS *regs, uint8_t op, uint64_t *fall)
{
    uint64_t ia = ip_ia(regs);
    *fall = (ia + ilc_of(op)) & amask(regs);
    if (regs->execflag)
        return (*fall - (regs->exrl ? 6 : 4)) & amask(regs);
    return ia;
}

/* The PSA's PSW slots: S/370 and ESA/390 (8 bytes each), z/Architecture (16). */
enum { PSA_RESTART, PSA_EXT_NEW, PSA_SVC_NEW, PSA_PGM_NEW, PSA_IO_NEW, PSA_EXT_OLD, PSA_IO_OLD };
static const uint16_t psa_esa[] = { 0x000, 0x058, 0x060, 0x068, 0x078, 0x018, 0x038 };
static const uint16_t psa_z[] = { 0x1A0, 0x1B0, 0x1C0, 0x1D0, 0x1F0, 0x130, 0x170 };

/* The PSW in the CPU's PSA slot (PSA_*) for the architecture it runs in: its length. */
static unsigned psa_psw(REGS *regs, unsigned slot, uint8_t *psw)
{
    uint64_t px = regs->PX_G;
    unsigned z = regs->arch_mode == FST_A900, len = z ? 16 : 8, off = z ? psa_z[slot] : psa_esa[slot];
    if (px + off + len > sysblk.mainsize)
        return 0;
    memcpy(psw, regs->mainstor + px + off, len);
    return len;
}

/* The PSW now in force, architected (Hercules' copy_psw), its address the next one. */
static unsigned cur_psw(REGS *regs, uint8_t *psw)
{
    if (regs->aie)
        regs->psw.IA_G = ip_ia(regs);
    copy_psw(regs, psw);
    return regs->arch_mode == FST_A900 ? 16 : 8;
}

static int wait_psw(const uint8_t *psw, unsigned len)
{
    /* S/370 BC: bit 14; EC, ESA/390, z: bit 14 too (byte 1, 0x02) */
    return len >= 8 && (psw[1] & 0x02);
}
