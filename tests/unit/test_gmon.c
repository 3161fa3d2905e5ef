/*
** tests/unit/test_gmon.c — formats/profout.h: the sampled histogram (ticks = floor(time *
** hz), exactly, at the pc that crosses the tick; untimed routines' code counted at the
** charged routine's entry; outside and excluded time not sampled; --hz=insns) and the stub
** ELF (ELF32 big-endian S/390, FUNC symbols with sizes up to the next routine, _etext).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/profout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static fst_routine rt(const char *name, uint64_t entry, int timed)
{
    fst_routine r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.entry = entry;
    r.timed = timed;
    return r;
}

/* One EXEC at addr costing `cost`, charged to routine `to` (FST_NONE: outside). */
static void exec(fst_phist *h, const fst_profile *p, uint64_t addr, fst_fx cost, size_t to, int charged)
{
    fst_insn in;
    memset(&in, 0, sizeof in);
    in.addr = addr;
    in.len = 2;
    fst_event e;
    memset(&e, 0, sizeof e);
    e.kind = FST_EV_EXEC;
    e.insn = &in;
    e.cost = cost;
    e.charged = charged;
    e.routine = to;
    e.profile = p;
    fst_phist_event(h, &e);
}

static void test_ticks(void **state)
{
    (void)state;
    fst_routine r[3] = { rt("A", 0x20020, 1), rt("B", 0x20060, 0), rt("D", 0x200C8, 1) };
    fst_profile p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.nr = 3;
    fst_phist *h = fst_phist_new(1000);              /* 1 ms per tick */
    const fst_fx us400 = 400 * FST_FX_PER_US;
    exec(h, &p, 0x20024, us400, 0, FST_CHARGE_ROUTINE);  /* 0.4 ms: no tick yet */
    exec(h, &p, 0x20026, us400, 0, FST_CHARGE_ROUTINE);  /* 0.8 ms */
    exec(h, &p, 0x20000, 10 * us400, FST_NONE, FST_CHARGE_OUTSIDE); /* not sampled */
    exec(h, &p, 0x200CA, 10 * us400, 2, FST_CHARGE_EXCLUDED);       /* not sampled */
    exec(h, &p, 0x200CC, us400, 2, FST_CHARGE_ROUTINE);  /* 1.2 ms: tick 1 at 200CC */
    exec(h, &p, 0x20064, 5 * us400, 0, FST_CHARGE_ROUTINE); /* B's code charged to A: 3.2 ms */
    assert_int_equal(fst_phist_total(h), 3);
    size_t n;
    fst_phist_cell *c = fst_phist_sorted(h, &n);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].addr, 0x20020);               /* at A's entry, not in B */
    assert_int_equal(c[0].count, 2);
    assert_int_equal(c[1].addr, 0x200CC);
    assert_int_equal(c[1].count, 1);
    uint32_t lo, hi;
    fst_phist_span(&p, c, n, &lo, &hi);
    assert_int_equal(lo, 0x20020);
    assert_int_equal(hi, 0x200CE);
    free(c);
    fst_phist_free(h);

    h = fst_phist_new(0); /* --hz=insns */
    for (int i = 0; i < 70000; i++)
        exec(h, &p, 0x20022, 1, 0, FST_CHARGE_ROUTINE);
    assert_int_equal(fst_phist_total(h), 70000);
    fst_phist_free(h);
}

static uint32_t be32(const unsigned char *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | b[2] << 8 | b[3]; }

static void test_stub_elf(void **state)
{
    (void)state;
    fst_routine r[3] = { rt("SUBA", 0x20070, 1), rt("MAIN", 0x20020, 1), rt("HIDDEN", 0x20090, 0) };
    fst_profile p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.nr = 3;
    char path[] = "/tmp/test_gmon.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    fst_err err;
    assert_int_equal(fst_write_stub_elf(path, &p, 0x20020, 0x200B0, &err), 0);
    unsigned char b[1024];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = fread(b, 1, sizeof b, f);
    fclose(f);
    unlink(path);
    assert_true(len > 52);
    assert_memory_equal(b, "\x7f" "ELF\x01\x02\x01", 7); /* ELF32, big-endian */
    assert_int_equal(b[18] << 8 | b[19], 22);           /* EM_S390 */
    /* symbols from offset 52: null, section, MAIN, SUBA, _etext (HIDDEN is untimed) */
    const unsigned char *s = b + 52;
    assert_int_equal(be32(s + 32 + 4), 0x20020);
    assert_int_equal(be32(s + 32 + 8), 0x50);             /* MAIN: up to SUBA */
    assert_int_equal(s[32 + 12], 0x12);                   /* GLOBAL FUNC */
    assert_int_equal(be32(s + 48 + 4), 0x20070);
    assert_int_equal(be32(s + 48 + 8), 0x40);             /* SUBA: up to hi */
    assert_int_equal(be32(s + 64 + 4), 0x200B0);          /* _etext */
    assert_int_equal(s[64 + 12], 0x10);                   /* GLOBAL NOTYPE */
    const char *str = (const char *)s + 80;
    assert_string_equal(str + be32(s + 32), "MAIN");
    assert_string_equal(str + be32(s + 48), "SUBA");
    assert_string_equal(str + be32(s + 64), "_etext");

    assert_int_equal(fst_write_stub_elf("/nonexistent/dir/x.elf", &p, 0, 2, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent/dir/x.elf: cannot create"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_stub_elf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
