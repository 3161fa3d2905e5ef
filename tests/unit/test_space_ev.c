/*
** tests/unit/test_space_ev.c — model/mapspaces.h's fst_space_evidence, which reads a trace a
** run at a time and a loop once a period (model/space_ev.c), against its definition read
** here record by record: the same spaces, instructions and addresses, on traces drawn to
** hold what it must see through. Programs in three address spaces (CR1 loaded now and
** then, DAT off too) on two CPUs call routines that begin `B xx(15)` (47F0F0xx) by BALR,
** BAL, BAS and BRAS 14 (a BALR 14,0 too), with an interruption and its handler between a
** call and its callee now and then; they call leaves that return (BR 14) and call leaves,
** by BRASL 14 too (a TAKEN run: the reader at the callee), now and then by another path
** or interrupted; loops of one to five routines turn a few to 400 times (the fold, and the
** calls' memo of model/space_ev_skip.c), and come again later, in another space or not;
** code is modified, runs hold many entries, frames end anywhere. The test also reads with
** FST_SPACE_EV_RECORDS (record by record in space_ev.c), a cut or damaged trace gives the
** same evidence or error both ways, and z/Architecture addresses above 2^56 keep their
** spaces apart.
*/
#include "model/mapspaces.h"
#include "trace/tracebin.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static char path[64];
static uint32_t seed;
static unsigned rnd(unsigned n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
}

/* ---- the definition (mapspaces.h), record by record ---- */

#define NONE UINT64_MAX
typedef struct dcpu { uint64_t cr1, after; int known; uint32_t state; } dcpu;

static int d_links(const uint8_t *b)
{
    if (b[0] == 0x05 || b[0] == 0x0D || b[0] == 0x0C || b[0] == 0x45 || b[0] == 0x4D)
        return (b[1] >> 4) == 14;
    if (b[0] == 0xA7 || b[0] == 0xC0)
        return b[1] == 0xE5;
    return 0;
}

static fst_space_ev *d_space(fst_space_ev **v, size_t *n, uint64_t sp)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].space == sp)
            return &(*v)[i];
    *v = realloc(*v, (*n + 1) * sizeof **v);
    (*v)[*n] = (fst_space_ev){ .space = sp };
    return &(*v)[(*n)++];
}

static void d_set(uint64_t **v, size_t *n, uint64_t a)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == a)
            return;
    size_t k = (*n)++;
    *v = realloc(*v, *n * sizeof **v);
    while (k && (*v)[k - 1] > a) {
        (*v)[k] = (*v)[k - 1];
        k--;
    }
    (*v)[k] = a;
}

static void d_add(fst_space_ev *s, uint64_t a, int call)
{
    d_set(&s->addrs, &s->naddrs, a);
    if (call)
        d_set(&s->calls, &s->ncalls, a);
}

/* Returns the reader's last rc (0 end, -1 error with msg). */
static int definition(const char *p, fst_space_ev **out, size_t *n, char *msg)
{
    fst_err err;
    fst_tr *tr = fst_tr_open(p, &err);
    assert_non_null(tr);
    dcpu cpu[4];
    for (int i = 0; i < 4; i++)
        cpu[i] = (dcpu){ 0, NONE, 0, 0 };
    fst_space_ev *v = NULL;
    *n = 0;
    fst_rec r;
    int rc;
    while ((rc = fst_tr_next(tr, &r, &err)) > 0) {
        assert_true(r.cpu < 4);
        dcpu *c = &cpu[r.cpu];
        if (r.kind == FST_REC_CR && r.cls == 1)
            c->cr1 = r.value, c->known = 1;
        if (r.kind != FST_REC_INSN)
            continue;
        fst_space_ev *s = d_space(&v, n, !(r.state & FST_ST_DAT) ? FST_PLACE_REAL : c->known ? c->cr1 : FST_PLACE_UNKNOWN);
        s->insns++;
        if (c->after != NONE && r.state == c->state) {
            if (r.addr != c->after)
                d_add(s, r.addr, 1);
            c->after = NONE;
        }
        if (r.len == 4 && r.bytes[0] == 0x47 && r.bytes[1] == 0xF0 && r.bytes[2] == 0xF0 && r.bytes[3] >= 8 &&
            !(r.bytes[3] & 1))
            d_add(s, r.addr, 0);
        if (d_links(r.bytes))
            c->after = r.addr + r.len, c->state = r.state;
    }
    if (rc < 0)
        snprintf(msg, 800, "%s", err.msg);
    fst_tr_close(tr);
    *out = v;
    return rc;
}

/* ---- traces drawn ---- */

typedef struct gen {
    fst_tw *w;
    uint32_t state;
    unsigned cpu;
} gen;

static void insn(gen *g, uint64_t at, const uint8_t *b)
{
    int len = b[0] < 0x40 ? 2 : b[0] < 0xC0 ? 4 : 6;
    assert_int_equal(fst_tw_insn(g->w, at, b, len), 0);
    if (rnd(4000) == 0) {
        fst_err err;
        assert_int_equal(fst_tw_flush(g->w, &err), 0);
    }
}

/* One routine's part of a loop, drawn once and the same at every turn: its entry
** (47F0F0xx, now and then odd: not an identifier's branch), m plain instructions (now and
** then an entry among them: runs with many), and how it leaves: a call of the next by one
** of six linking instructions (BALR 14,0 does not branch), with an interruption and its
** handler before the callee or not, or a BCT. */
typedef struct part {
    unsigned t, m, salt, link, intr, leaf;     /* leaf: 0, or the leaf it calls first, 1-6 */
    uint8_t odd, more[8];
} part;

static const uint8_t links[6][6] = { { 0x05, 0xEF }, { 0x0D, 0xEF }, { 0x45, 0xE0, 0xF0, 0x00 },
                                     { 0x4D, 0xE0, 0xF0, 0x00 }, { 0xA7, 0xE5, 0x00, 0x10 }, { 0x05, 0xE0 } };

/* Leaf i (1-6) at its own place, called from `from` by a drawn link; it returns (BR 14) to
** the fall-through. Leaf i calls leaf i - 2 (leaves 3-6); now and then it takes another
** path (its subtree differs), or is interrupted. Returns the fall-through. */
static uint64_t leaf(gen *g, uint64_t from, unsigned i)
{
    uint8_t l[6];
    memcpy(l, links[rnd(5)], sizeof l);
    uint64_t at = 0x40000 + (uint64_t)i * 0x100, ret = from + (l[0] < 0x40 ? 2 : 4);
    if (l[0] == 0xA7) {         /* BRASL 14 to the leaf: a TAKEN, the reader goes there */
        uint32_t d = (uint32_t)((at - from) / 2);
        uint8_t brasl[6] = { 0xC0, 0xE5, (uint8_t)(d >> 24), (uint8_t)(d >> 16), (uint8_t)(d >> 8), (uint8_t)d };
        memcpy(l, brasl, sizeof l);
        ret = from + 6;
    }
    insn(g, from, l);
    uint8_t e[6] = { 0x47, 0xF0, 0xF0, 0x0C }, b[6] = { 0x18, (uint8_t)(0x10 + i) }, br[6] = { 0x07, 0xFE };
    insn(g, at, e);
    at += 4;
    for (unsigned k = 0; k < 2 + i; k++, at += 2)
        if (k != 1 || rnd(5))   /* the other path: one instruction jumped over */
            insn(g, at, b);
    if (rnd(40) == 0) {         /* an interruption in it */
        assert_int_equal(fst_tw_intr(g->w, FST_INTR_EXT, 0), 0);
        assert_int_equal(fst_tw_state(g->w, g->state & ~(FST_ST_PROBLEM | FST_ST_DAT)), 0);
        insn(g, 0x1100, b);
        assert_int_equal(fst_tw_state(g->w, g->state), 0);
    }
    if (i > 2)
        at = leaf(g, at, i - 2);
    insn(g, at, br);
    return ret;
}

typedef struct loop { part pt[5]; unsigned len; } loop;

static void draw(part *pt, unsigned t)
{
    *pt = (part){ .t = t, .m = rnd(8), .salt = rnd(256), .link = rnd(8), .intr = rnd(8) == 0, .odd = rnd(12) == 0,
                  .leaf = rnd(2) ? 1 + rnd(6) : 0 };
    for (unsigned i = 0; i < 8; i++)
        pt->more[i] = rnd(30) == 0;
}

static void turn(gen *g, const part *pt)
{
    uint64_t at = 0x20000 + (uint64_t)pt->t * 0x100;
    uint8_t e[6] = { 0x47, 0xF0, 0xF0, (uint8_t)(8 + 2 * (pt->salt % 8) + pt->odd) };
    insn(g, at, e);
    at += 4;
    for (unsigned i = 0; i < pt->m; i++) {
        uint8_t b[6] = { (uint8_t)(i % 3 ? 0x18 : 0x58), (uint8_t)(pt->salt + i), 0x12, 0x34 };
        if (pt->more[i])
            memcpy(b, e, 4);
        if (rnd(3000) == 0)
            b[1] ^= 0x80;       /* code modified */
        insn(g, at, b);
        at += b[0] < 0x40 ? 2 : 4;
    }
    if (pt->leaf) {             /* a leaf's call and return, then two instructions */
        uint8_t b[6] = { 0x18, 0x34 };
        at = leaf(g, at, pt->leaf);
        insn(g, at, b);
        insn(g, at + 2, b);
        at += 4;
    }
    if (pt->link >= 6) {        /* a BCT back */
        uint8_t bct[6] = { 0x46, 0x30, 0xC0, 0x10 };
        insn(g, at, bct);
        return;
    }
    insn(g, at, links[pt->link]);
    if (pt->link == 5) {        /* BALR 14,0: its fall-through next */
        uint8_t b[6] = { 0x18, 0x21 };
        insn(g, at + 2, b);
        return;
    }
    if (pt->intr) {             /* an interruption and its handler before the callee */
        assert_int_equal(fst_tw_intr(g->w, FST_INTR_IO, 0), 0);
        assert_int_equal(fst_tw_state(g->w, g->state & ~(FST_ST_PROBLEM | FST_ST_DAT)), 0);
        for (unsigned i = 0; i < 1 + pt->salt % 4; i++) {
            uint8_t b[6] = { 0x18, 0x21 };
            if (i == 1)
                b[0] = 0x05, b[1] = 0xEF;   /* the handler's own BALR 14 */
            insn(g, 0x1000 + 2 * i, b);
        }
        assert_int_equal(fst_tw_state(g->w, g->state), 0);
    }
}

static void make(const char *p, uint32_t s, int nsteps)
{
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "S/370" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    seed = s;
    gen g = { fst_tw_open_version(p, hdr, 2, &err), 0x0D | FST_ST_PROBLEM | FST_ST_DAT, 0 };
    assert_non_null(g.w);
    fst_tw_state(g.w, g.state);
    if (rnd(2))
        fst_tw_cr(g.w, 1, 0x100000);
    loop loops[8];
    unsigned nloops = 0;
    for (int step = 0; step < nsteps; step++) {
        unsigned r = rnd(100);
        if (r < 3) {
            fst_tw_cr(g.w, 1, 0x100000 + 0x1000 * rnd(3));
            continue;
        }
        if (r < 5) {
            fst_tw_state(g.w, g.state ^= FST_ST_DAT);
            continue;
        }
        if (r < 7) {
            fst_tw_cpu(g.w, g.cpu ^= 1);
            continue;
        }
        /* a loop of one to five routines' parts, each calling the next, turned a few to a
        ** few hundred times; or one of the last 8 again (its code seen, in another space or not) */
        unsigned times = r < 60 ? 1 + rnd(30) : 1 + rnd(400), t0 = rnd(12);
        loop *lp = &loops[nloops % 8];
        if (nloops && rnd(3) == 0) {
            lp = &loops[rnd(nloops < 8 ? nloops : 8)];
        } else {
            lp->len = 1 + rnd(5);
            for (unsigned k = 0; k < lp->len; k++)  /* its own code, or code it shares */
                draw(&lp->pt[k], rnd(4) ? (unsigned)step * 8 + k : (t0 + k) % 12);
            nloops++;
        }
        for (unsigned it = 0; it < times; it++)
            for (unsigned k = 0; k < lp->len; k++)
                turn(&g, &lp->pt[k]);
    }
    assert_int_equal(fst_tw_close(g.w, 1, "test", NULL, &err), 0);
}

/* ---- compared ---- */

static void same(fst_space_ev *a, size_t na, fst_space_ev *b, size_t nb, const char *what)
{
    if (na != nb)
        fail_msg("%s: %zu spaces, the definition %zu", what, na, nb);
    for (size_t i = 0; i < na; i++) {
        fst_space_ev *d = NULL;
        for (size_t j = 0; j < nb; j++)
            if (b[j].space == a[i].space)
                d = &b[j];
        if (!d)
            fail_msg("%s: space %llx not in the definition's", what, (unsigned long long)a[i].space);
        if (a[i].insns != d->insns || a[i].naddrs != d->naddrs) {
            for (size_t k = 0; k < a[i].naddrs || k < d->naddrs; k++)
                print_message("# %zu: %llx %llx\n", k, k < a[i].naddrs ? (unsigned long long)a[i].addrs[k] : 0ull,
                              k < d->naddrs ? (unsigned long long)d->addrs[k] : 0ull);
            fail_msg("%s: space %llx: %llu instructions, %zu addresses; the definition %llu, %zu", what,
                     (unsigned long long)a[i].space, (unsigned long long)a[i].insns, a[i].naddrs,
                     (unsigned long long)d->insns, d->naddrs);
        }
        for (size_t k = 0; k < a[i].naddrs; k++)
            if (a[i].addrs[k] != d->addrs[k])
                fail_msg("%s: space %llx: address %zu is %llx, the definition's %llx", what,
                         (unsigned long long)a[i].space, k, (unsigned long long)a[i].addrs[k],
                         (unsigned long long)d->addrs[k]);
        if (a[i].ncalls != d->ncalls)
            fail_msg("%s: space %llx: %zu call targets; the definition %zu", what, (unsigned long long)a[i].space,
                     a[i].ncalls, d->ncalls);
        for (size_t k = 0; k < a[i].ncalls; k++)
            if (a[i].calls[k] != d->calls[k])
                fail_msg("%s: space %llx: call target %zu is %llx, the definition's %llx", what,
                         (unsigned long long)a[i].space, k, (unsigned long long)a[i].calls[k],
                         (unsigned long long)d->calls[k]);
    }
    for (size_t i = 1; i < na; i++)
        assert_true(a[i - 1].insns >= a[i].insns);  /* most instructions first */
}

static void compare(const char *p, const char *what)
{
    fst_space_ev *d, *f, *s;
    size_t nd, nf, ns;
    char msg[800] = "";
    fst_err err;
    int rc = definition(p, &d, &nd, msg);
    int rf = fst_space_evidence(p, &f, &nf, &err);
    setenv("FST_SPACE_EV_RECORDS", "1", 1);
    fst_err err2;
    int rs = fst_space_evidence(p, &s, &ns, &err2);
    unsetenv("FST_SPACE_EV_RECORDS");
    if (rc < 0) {   /* damage: the same message both ways */
        assert_int_equal(rf, -1);
        assert_int_equal(rs, -1);
        assert_string_equal(err.msg, msg);
        assert_string_equal(err2.msg, msg);
    } else {
        if (rf < 0)
            fail_msg("%s: %s", what, err.msg);
        assert_int_equal(rs, 0);
        same(f, nf, d, nd, what);
        same(s, ns, d, nd, what);
    }
    fst_space_evidence_free(d, nd);
    fst_space_evidence_free(f, nf);
    fst_space_evidence_free(s, ns);
}

static void test_drawn_traces(void **state)
{
    (void)state;
    for (uint32_t s = 1; s <= 40; s++) {
        char what[40];
        snprintf(what, sizeof what, "seed %u", s);
        make(path, s, 40 + (int)(s % 7) * 20);
        compare(path, what);
    }
}

/* z/Architecture addresses above 2^56: the same address bits in two spaces, an entry in
** each, one after the other (a filter of repeats keyed by address and space together once
** took them for one). */
static void test_high_addresses(void **state)
{
    (void)state;
    fst_err err;
    fst_kv hdr[] = { { FST_HK_ARCH, "z/Arch" }, { FST_HK_SOURCE, "test" }, { NULL, NULL } };
    fst_tw *w = fst_tw_open_version(path, hdr, 2, &err);
    assert_non_null(w);
    uint32_t st = FST_ARCH_ZARCH | 2u << FST_ST_AMODE_SHIFT | FST_ST_PROBLEM | FST_ST_DAT;
    static const uint8_t e[6] = { 0x47, 0xF0, 0xF0, 0x0C }, lr[6] = { 0x18, 0x12 };
    fst_tw_state(w, st);
    for (int round = 0; round < 3; round++)
        for (unsigned sp = 0; sp < 2; sp++) {
            fst_tw_cr(w, 1, 0x200000 + 0x1000 * sp);
            uint64_t at = 0x20000 | (uint64_t)(sp ? 0 : 1) << 56;
            assert_int_equal(fst_tw_insn(w, at, e, 4), 0);
            assert_int_equal(fst_tw_insn(w, at + 4, lr, 2), 0);
        }
    assert_int_equal(fst_tw_close(w, 1, "test", NULL, &err), 0);
    compare(path, "high addresses");
}

/* A trace cut short, and one with a byte changed (its CRC no longer right): the evidence
** up to the cut, or the reader's own error, as the definition gets. */
static void test_cut_and_damaged(void **state)
{
    (void)state;
    for (uint32_t s = 100; s < 106; s++) {
        make(path, s, 200);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fclose(f);
        char what[40];
        snprintf(what, sizeof what, "seed %u cut", s);
        assert_int_equal(truncate(path, len * (long)(2 + s % 5) / 8), 0);
        compare(path, what);
        make(path, s, 200);
        f = fopen(path, "r+b");
        fseek(f, len / 2, SEEK_SET);
        int c = fgetc(f);
        fseek(f, len / 2, SEEK_SET);
        fputc(c ^ 0x5A, f);
        fclose(f);
        snprintf(what, sizeof what, "seed %u damaged", s);
        compare(path, what);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/fst_space_ev_%d.trace", (int)getpid());
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drawn_traces),
        cmocka_unit_test(test_cut_and_damaged),
        cmocka_unit_test(test_high_addresses),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
