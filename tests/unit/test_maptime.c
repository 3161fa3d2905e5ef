/*
** tests/unit/test_maptime.c — formats/maptime*.c with synthetic event streams: the
** simulated interval timer (integer arithmetic, several expiries in one instruction),
** LOGTIME's X'5C' flag (MVI/OI/NI/XI with base 0; a store through a base register is not
** seen), --window, one image per run (disabled wait, MARK gap, --one-image), MAPTIME's
** request syntax, and the listing's sections, spans and percentages.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "isa/decode.h"
#include "trace/tracebin.h"
#include "formats/format.h"
#include "formats/maptime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const fst_format fst_format_maptime;

#define MS (FST_FX_PER_SEC / 1000) /* one instruction at mips:0.001 */

typedef struct run {
    fst_routine r[3];
    fst_profile p;
    fst_fopt_val opts[16];
    fst_fctx fc;
    void *ctx;
    size_t stack[4];
    size_t depth;
} run;

static void start(run *x, const char *const *opts)
{
    memset(x, 0, sizeof *x);
    const char *names[] = { "MAIN", "SUBA", "SUBB" };
    for (int i = 0; i < 3; i++) {
        snprintf(x->r[i].name, sizeof x->r[i].name, "%s", names[i]);
        x->r[i].entry = 0x1000 + 0x100 * (uint64_t)i; /* MAIN 1000, SUBA 1100, SUBB 1200 */
        x->r[i].timed = 1;
    }
    x->p.r = x->r;
    x->p.nr = 3;
    x->p.complete = 1;
    snprintf(x->p.clock, sizeof x->p.clock, "mips:0.001");
    size_t n = 0;
    for (; opts && opts[n]; n++) { /* "name=value" or "name" */
        const char *eq = strchr(opts[n], '=');
        static char nm[16][32];
        snprintf(nm[n], sizeof nm[n], "%.*s", (int)(eq ? eq - opts[n] : (int)strlen(opts[n])), opts[n]);
        x->opts[n] = (fst_fopt_val){ nm[n], eq ? eq + 1 : "" };
    }
    x->fc = (fst_fctx){ x->opts, n, NULL, NULL, "t.trace", NULL };
    fst_err err;
    x->ctx = fst_format_maptime.init(&x->fc, NULL, &err);
    assert_non_null(x->ctx);
}

static void ev(run *x, fst_event *e)
{
    e->profile = &x->p;
    e->stack = x->stack;
    e->depth = x->depth;
    fst_format_maptime.event(x->ctx, e);
}

/* An instruction (hex text) at addr, costing `cost`. */
static void exec(run *x, const char *hex, uint64_t addr, fst_fx cost)
{
    uint8_t b[6] = { 0 };
    for (size_t i = 0; i < 6 && hex[2 * i]; i++)
        sscanf(hex + 2 * i, "%2hhx", &b[i]);
    fst_insn d;
    fst_decode(&d, b, addr, (uint32_t)FST_ARCH_S370);
    fst_event e = { .kind = FST_EV_EXEC, .insn = &d, .cost = cost };
    ev(x, &e);
}

static void other(run *x, fst_ev_kind k, uint8_t cls, uint32_t code)
{
    fst_event e = { .kind = k, .cls = cls, .code = code };
    ev(x, &e);
}

/* The listing; NULL when write fails (err then in *err). */
static char *finish(run *x, fst_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = fst_format_maptime.write(f, &x->fc, &x->p, x->ctx, err);
    fclose(f);
    fst_format_maptime.done(x->ctx);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static uint64_t count(const char *list, const char *what, int nth)
{
    const char *p = list;
    for (int i = 0; i <= nth; i++) {
        p = strstr(p, what);
        assert_non_null(p);
        p += strlen(what);
    }
    return strtoull(p, NULL, 10);
}

static void timer_300_per_second(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "request=SPAN 0 0 0 0.0", NULL };
    start(&x, o);
    for (int i = 0; i < 1000; i++) /* 1 s: 300 expiries, one per 10/3 instructions */
        exec(&x, "1A23", 0x1010, MS);
    exec(&x, "1A23", 0x1110, 2 * FST_FX_PER_SEC); /* 2 s in one instruction: 600 at once */
    fst_err err;
    char *l = finish(&x, &err);
    assert_non_null(l);
    assert_int_equal(count(l, "INTERRUPTS IN MACHINE RANGE", 0), 900);
    assert_non_null(strstr(l, "MAIN     001000  33.33 |*****************\n"));
    assert_non_null(strstr(l, "SUBA     001100  66.67 |"));
    assert_non_null(strstr(l, "SUBB     001200   0.00 |\n"));
    free(l);
}

static void timeunit_and_exact(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "timeunit=1", NULL }; /* 76800 per second */
    start(&x, o);
    exec(&x, "1A23", 0x1010, FST_FX_PER_SEC / 100);
    fst_err err;
    char *l = finish(&x, &err);
    assert_int_equal(count(l, "INTERRUPTS IN MACHINE RANGE", 0), 768);
    free(l);
    const char *o2[] = { "exact", NULL };
    start(&x, o2);
    exec(&x, "1A23", 0x1010, 3 * MS);
    exec(&x, "1A23", 0x1210, MS);
    l = finish(&x, &err);
    assert_non_null(strstr(l, "SECONDS IN MACHINE RANGE         0.004000000"));
    assert_non_null(strstr(l, "MAIN     001000  75.00"));
    assert_non_null(strstr(l, "SUBB     001200  25.00"));
    free(l);
}

static void flag_5c(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "exact", "request=SPAN 0 0 0 0.0", NULL };
    start(&x, o);
    exec(&x, "9280005C", 0x1000, MS);  /* MVI X'5C',X'80': itself recorded */
    exec(&x, "1A23", 0x1004, MS);      /* off */
    exec(&x, "9200005C", 0x1006, MS);  /* MVI X'5C',X'00': itself not recorded */
    exec(&x, "1A23", 0x100A, MS);      /* on */
    exec(&x, "9680005C", 0x100C, MS);  /* OI X'5C',X'80' (recorded), then off */
    exec(&x, "1A23", 0x1010, MS);
    exec(&x, "947F005C", 0x1012, MS);  /* NI X'5C',X'7F': on again */
    exec(&x, "9280105C", 0x1016, MS);  /* MVI X'5C'(R1): an address from a register: not seen */
    exec(&x, "1A23", 0x101A, MS);      /* on */
    exec(&x, "9780005C", 0x101C, MS);  /* XI: toggles off */
    exec(&x, "1A23", 0x1020, MS);
    exec(&x, "9780005C", 0x1022, MS);  /* XI: toggles on (itself not recorded) */
    exec(&x, "1A23", 0x1026, MS);
    fst_err err;
    char *l = finish(&x, &err);
    /* recorded: 1000 100A 100C 1016 101A 101C 1026 */
    assert_non_null(strstr(l, "SECONDS IN MACHINE RANGE         0.007000000"));
    free(l);
}

static void window(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "exact", "window=suba", NULL };
    start(&x, o);
    x.stack[0] = 0;
    x.depth = 1;
    exec(&x, "1A23", 0x1010, MS);      /* MAIN only: out */
    x.stack[1] = 1;
    x.depth = 2;
    exec(&x, "1A23", 0x1110, MS);      /* SUBA on the stack */
    x.stack[2] = 2;
    x.depth = 3;
    exec(&x, "1A23", 0x1210, MS);      /* SUBB called from SUBA: in */
    fst_err err;
    char *l = finish(&x, &err);
    assert_non_null(strstr(l, "SECONDS IN MACHINE RANGE         0.002000000"));
    free(l);
    const char *o2[] = { "window=NOPE", NULL };
    start(&x, o2);
    exec(&x, "1A23", 0x1010, MS);
    assert_null(finish(&x, &err));
    assert_string_equal(err.msg, "--window=NOPE: no routine of that name");
}

static void images(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "exact", "request=SPAN 0 0 0 0.0", NULL };
    start(&x, o);
    exec(&x, "1A23", 0x1010, MS);
    exec(&x, "9280005C", 0x1012, MS);  /* flag off at the end of run 1 ... */
    other(&x, FST_EV_WAIT, 1, 0);      /* disabled wait */
    exec(&x, "8200100C", 0x1016, MS);  /* the LPSW that loaded it, priced late: run 1 */
    exec(&x, "1A23", 0x1110, MS);      /* run 2 (the flag reset by the IPL) */
    other(&x, FST_EV_WAIT, 0, 0);      /* an enabled wait: no new run */
    exec(&x, "1A23", 0x1110, MS);
    other(&x, FST_EV_MARK, 0, FST_MARK_GAP);
    exec(&x, "1A23", 0x1210, MS);      /* run 3 */
    fst_err err;
    char *l = finish(&x, &err);
    assert_non_null(strstr(l, "LOGTIME IMAGE 3 OF 3"));
    /* run 1: 2 ms (the LPSW is unrecorded: the flag is off); run 2: 2 ms; run 3: 1 ms */
    const char *i2 = strstr(l, "IMAGE 2 OF 3"), *i3 = strstr(l, "IMAGE 3 OF 3");
    const char *m1 = strstr(l, "SECONDS IN MACHINE RANGE         0.002000000");
    assert_true(m1 && m1 < i2);
    assert_true(strstr(i2, "SECONDS IN MACHINE RANGE         0.002000000") < i3);
    assert_non_null(strstr(i3, "SECONDS IN MACHINE RANGE         0.001000000"));
    free(l);
    const char *o2[] = { "exact", "one-image", "request=SPAN 0 0 0 0.0", NULL };
    start(&x, o2);
    exec(&x, "1A23", 0x1010, MS);
    other(&x, FST_EV_MARK, 0, FST_MARK_GAP);
    exec(&x, "1A23", 0x1010, MS);
    l = finish(&x, &err);
    assert_non_null(strstr(l, "LOGTIME IMAGE 1 OF 1"));
    assert_non_null(strstr(l, "SECONDS IN MACHINE RANGE         0.002000000"));
    free(l);
}

static void spans(void **state)
{
    (void)state;
    run x;
    const char *o[] = { "exact", "span=8", "range=F00-12FF", "request=SPAN 0 0 5 10.0",
                        "request=NAME SUBA SUBB 0 0.0", NULL };
    start(&x, o);
    exec(&x, "1A23", 0xF80, MS);       /* below MAIN: section (NONE) */
    exec(&x, "1A23", 0x10FE, 3 * MS);  /* MAIN's last bytes */
    exec(&x, "1A23", 0x1100, 6 * MS);  /* SUBA */
    exec(&x, "1A23", 0x1300, MS);      /* outside LOGTIME's range */
    fst_err err;
    char *l = finish(&x, &err);
    /* spansize 5 -> 8; 10% of 10 ms */
    assert_non_null(strstr(l, "SECONDS IN MACHINE RANGE         0.011000000\n"
                              "SECONDS IN LOGTIME RANGE         0.010000000\n"
                              "SECONDS IN MAPTIME RANGE         0.010000000\n"));
    assert_non_null(strstr(l, "(NONE)   000F00\n         000080-000087  10.00 |*****\n"
                              "MAIN     001000\n         0000F8-0000FF  30.00 |***************\n"
                              "SUBA     001100\n         000000-000007  60.00 |"));
    assert_non_null(strstr(l, "SECONDS IN MAPTIME RANGE         0.006000000\n\nHISTOGRAM (MAPTIME NAME SUBA SUBB 0 0.0)\n\n"
                              "SUBA     001100 100.00 |"));
    free(l);
}

static void request_syntax(void **state)
{
    (void)state;
    mt_req r;
    fst_err err;
    assert_int_equal(mt_req_parse("SPAN 20000 27FFF 40 1.0", "--request", &r, &err), 1);
    assert_int_equal(r.kind, MT_SPAN);
    assert_true(r.a0 == 0x20000 && r.a1 == 0x27FFF && r.span == 0x40 && r.pct == 100);
    assert_int_equal(mt_req_parse("name IHOSEXP,IHOSLGN,8,.3", "--request", &r, &err), 1);
    assert_true(r.kind == MT_NAME && !strcmp(r.n0, "IHOSEXP") && r.span == 8 && r.pct == 30);
    assert_int_equal(mt_req_parse("TERM", "x", &r, &err), 0);
    assert_int_equal(mt_req_parse("   \n", "x", &r, &err), 0);
    const char *bad[] = { "SPAN 0 0 8 1", "SPAN 0 0 8 1.005", "SPAN 0 0 8 100.01", "SPAN 0 0 8 123456.0",
                          "SPAN 0 0 8", "SPAN 0 0 8 1.0 9", "SPAN 1 0 8 1.0", "SPAN G 0 8 1.0",
                          "SPAN 0 123456789 8 1.0", "NAME A B -1 1.0", "NAME ABCDEFGHI B 0 1.0", "TERM X",
                          "SPAN 0 0 8 .", NULL };
    for (int i = 0; bad[i]; i++) {
        assert_int_equal(mt_req_parse(bad[i], "f.req:3", &r, &err), -1);
        assert_int_equal(strncmp(err.msg, "f.req:3: '", 10), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(timer_300_per_second),
        cmocka_unit_test(timeunit_and_exact),
        cmocka_unit_test(flag_5c),
        cmocka_unit_test(window),
        cmocka_unit_test(images),
        cmocka_unit_test(spans),
        cmocka_unit_test(request_syntax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
