/*
** tests/unit/test_sample.c — capture/sample/sample.c: the sampler's schedule (absolute deadlines,
** catching up at twice the rate at most, an old debt forgiven), Hercules' PSW page and
** SDL Hercules 4.7+'s /api/v1/cpus answer.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "capture/sample/sample.h"

#define MS 1000000u
#define P (10 * MS) /* 100 a second */

static void on_time(void **state)
{
    (void)state;
    /* went at its deadline or a little after: the next is a period after the deadline,
    ** whatever the request's own delay (the period is not stretched) */
    uint64_t sched = 1000 * MS;
    assert_int_equal(fst_sample_next(&sched, P, 1000 * MS), 1010 * MS);
    assert_int_equal(sched, 1010 * MS);
    assert_int_equal(fst_sample_next(&sched, P, 1014 * MS), 1020 * MS);
    assert_int_equal(fst_sample_next(&sched, P, 1025 * MS), 1030 * MS);
}

/* Requests from `late` behind the schedule, each going when told: how many go at half a
** period (catching up) before one goes at its deadline again. */
static int catch_up(uint64_t sched, uint64_t now)
{
    int n = 0;
    for (;;) {
        uint64_t go = fst_sample_next(&sched, P, now);
        assert_true(go - now >= P / 2); /* never a burst */
        if (go == sched)
            return n;
        assert_int_equal(go - now, P / 2);
        now = go;
        if (++n > 10000)
            return n;
    }
}

static void catches_up_without_burst(void **state)
{
    (void)state;
    uint64_t sched = 1000 * MS;
    /* 30 ms late: the next goes half a period on, not at once */
    assert_int_equal(fst_sample_next(&sched, P, 1030 * MS), 1035 * MS);
    assert_int_equal(sched, 1010 * MS);
    /* each request half a period after the one before gains half a period on the debt:
    ** 30 ms behind, 10 ms period: from 25 ms behind (after the first), 5 requests */
    assert_int_equal(catch_up(1000 * MS, 1030 * MS), 5);
}

static void forgives_an_old_debt(void **state)
{
    (void)state;
    /* d ms behind, each request at half a period gains 5 ms on the schedule: on time again
    ** after d / 5 - 1 of them. 240 ms: 47. A stall of 2 s: the debt beyond
    ** FST_SAMPLE_MAX_DEBT_NS is dropped, d is 250 ms + the period the schedule moved on:
    ** 51 requests, not 399. */
    assert_int_equal(catch_up(1000 * MS, 1240 * MS), 47);
    assert_int_equal(catch_up(1000 * MS, 3000 * MS), 51);
}

static void psw_page(void **state)
{
    (void)state;
    uint8_t psw[16];
    unsigned len = 0;
    assert_int_equal(fst_psw_page("<P>\nPSW=00080000 000200BE\n</body>", psw, &len), 0);
    assert_int_equal(len, 8);
    assert_int_equal(psw[7], 0xBE);
    assert_int_equal(fst_psw_page("PSW=00000000 00000000 00000000 00020000\n", psw, &len), 0);
    assert_int_equal(len, 16);
    assert_int_equal(fst_psw_page("PSW=0008000 000200BE\n", psw, &len), -1);  /* 7 digits */
    assert_int_equal(fst_psw_page("PSW=00080000 000200BE0\n", psw, &len), -1); /* 9 */
    assert_int_equal(fst_psw_page("<html>hello</html>", psw, &len), -1);
}

/* 4.9's answer to GET /cgi-bin/api/v1/cpus while tests/programs/spaces.s ran (NUMCPU 2,
** CPU 0 in space B's WORK2), cut after its first two CPUs (of MAXCPU 8), "]}" added. */
static const char API[] =
    "{\"cpus\":[{\"cpuid\":\"CPU0000\",\"online\": true,\"mode\": \"S/370\",\"percent\": 0,\"PSW\": \"040900000003008C\",\"g"
    "eneral_registers\":{\"GR0\": \"00000000\",\"GR1\": \"00038000\",\"GR2\": \"00000000\",\"GR3\": \"00000000\",\"GR4\": \"0"
    "0000000\",\"GR5\": \"0073C7C0\",\"GR6\": \"00000000\",\"GR7\": \"00000000\",\"GR8\": \"00000000\",\"GR9\": \"00000000\",\""
    "GR10\": \"00000006\",\"GR11\": \"00038148\",\"GR12\": \"00030018\",\"GR13\": \"00038148\",\"GR14\": \"40030044\",\"GR15\""
    ": \"00030078\"},\"control_registers\":{\"CR0\": \"00800000\",\"CR1\": \"00021040\",\"CR2\": \"FFFFFFFF\",\"CR3\": \"000"
    "00000\",\"CR4\": \"00000000\",\"CR5\": \"00000000\",\"CR6\": \"00000000\",\"CR7\": \"00000000\",\"CR8\": \"00000000\",\"CR"
    "9\": \"00000000\",\"CR10\": \"00000000\",\"CR11\": \"00000000\",\"CR12\": \"00000000\",\"CR13\": \"00000000\",\"CR14\": \""
    "C2000000\",\"CR15\": \"00000200\"},\"access_registers\":{\"AR0\": \"00000000\",\"AR1\": \"00000000\",\"AR2\": \"000000"
    "00\",\"AR3\": \"00000000\",\"AR4\": \"00000000\",\"AR5\": \"00000000\",\"AR6\": \"00000000\",\"AR7\": \"00000000\",\"AR8\":"
    " \"00000000\",\"AR9\": \"00000000\",\"AR10\": \"00000000\",\"AR11\": \"00000000\",\"AR12\": \"00000000\",\"AR13\": \"0000"
    "0000\",\"AR14\": \"00000000\",\"AR15\": \"00000000\"}},{\"cpuid\":\"CPU0001\",\"online\": true,\"mode\": \"S/370\",\"per"
    "cent\": 0,\"PSW\": \"0000000000000000\",\"general_registers\":{\"GR0\": \"00000000\",\"GR1\": \"00000000\",\"GR2\": \""
    "00000000\",\"GR3\": \"00000000\",\"GR4\": \"00000000\",\"GR5\": \"00000000\",\"GR6\": \"00000000\",\"GR7\": \"00000000\","
    "\"GR8\": \"00000000\",\"GR9\": \"00000000\",\"GR10\": \"00000000\",\"GR11\": \"00000000\",\"GR12\": \"00000000\",\"GR13\":"
    " \"00000000\",\"GR14\": \"00000000\",\"GR15\": \"00000000\"},\"control_registers\":{\"CR0\": \"000000E0\",\"CR1\": \"00"
    "000000\",\"CR2\": \"FFFFFFFF\",\"CR3\": \"00000000\",\"CR4\": \"00000000\",\"CR5\": \"00000000\",\"CR6\": \"00000000\",\"C"
    "R7\": \"00000000\",\"CR8\": \"00000000\",\"CR9\": \"00000000\",\"CR10\": \"00000000\",\"CR11\": \"00000000\",\"CR12\": \"0"
    "0000000\",\"CR13\": \"00000000\",\"CR14\": \"C2000000\",\"CR15\": \"00000200\"},\"access_registers\":{\"AR0\": \"00000"
    "000\",\"AR1\": \"00000000\",\"AR2\": \"00000000\",\"AR3\": \"00000000\",\"AR4\": \"00000000\",\"AR5\": \"00000000\",\"AR6\""
    ": \"00000000\",\"AR7\": \"00000000\",\"AR8\": \"00000000\",\"AR9\": \"00000000\",\"AR10\": \"00000000\",\"AR11\": \"00000"
    "000\",\"AR12\": \"00000000\",\"AR13\": \"00000000\",\"AR14\": \"00000000\",\"AR15\": \"00000000\"}}]}";

/* API with `from` replaced by `to` (the first time); the caller frees it */
static char *edit(const char *from, const char *to)
{
    const char *at = strstr(API, from);
    assert_non_null(at);
    size_t n = strlen(API) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    memcpy(s, API, (size_t)(at - API));
    strcpy(s + (at - API), to);
    strcat(s, at + strlen(from));
    return s;
}

static void cpus_page(void **state)
{
    (void)state;
    uint8_t psw[16];
    unsigned len = 0, cpu = 9;
    uint64_t cr1 = 0;
    size_t bad = 0;
    assert_int_equal(fst_cpus_page(API, strlen(API), &cpu, psw, &len, &cr1, &bad), 0);
    assert_int_equal(cpu, 0);
    assert_int_equal(len, 8);
    assert_memory_equal(psw, "\x04\x09\x00\x00\x00\x03\x00\x8C", 8);
    assert_int_equal(cr1, 0x21040);
    /* CPU 0 offline, as Hercules writes it: the first online one, CPU 1 (stopped, zeros) */
    char *s = edit("\"online\": true", "\"online\": false");
    assert_int_equal(fst_cpus_page(s, strlen(s), &cpu, psw, &len, &cr1, &bad), 0);
    assert_int_equal(cpu, 1);
    assert_int_equal(cr1, 0);
    free(s);
    /* z/Architecture: a 16-byte PSW in 32 digits, 64-bit registers in 16 (cgibin.c) */
    s = edit("\"PSW\": \"040900000003008C\"", "\"PSW\": \"0705000180000000000000000001F00E\"");
    char *z = NULL;
    {
        const char *at = strstr(s, "\"CR1\": \"00021040\"");
        assert_non_null(at);
        z = malloc(strlen(s) + 9);
        assert_non_null(z);
        memcpy(z, s, (size_t)(at - s));
        strcpy(z + (at - s), "\"CR1\": \"000000000ABCD000\"");
        strcat(z, at + strlen("\"CR1\": \"00021040\""));
    }
    assert_int_equal(fst_cpus_page(z, strlen(z), &cpu, psw, &len, &cr1, &bad), 0);
    assert_int_equal(len, 16);
    assert_int_equal(psw[15], 0x0E);
    assert_int_equal(cr1, 0xABCD000);
    free(s);
    free(z);
    /* no CPU online: bad is the answer's length */
    s = edit("\"online\": true", "\"online\": false");
    char *t = strstr(s, "\"online\": true");
    assert_non_null(t);
    memcpy(t, "\"online\": fals", 15); /* CPU 1 too ("true," -> "fals,": not true either) */
    assert_int_equal(fst_cpus_page(s, strlen(s), &cpu, psw, &len, &cr1, &bad), -1);
    assert_true(bad > 0);
    free(s);
    /* cut short inside CPU 0, before its control registers: the byte of what is missing */
    size_t cut = (size_t)(strstr(API, "\"control_registers\"") - API);
    assert_int_equal(fst_cpus_page(API, cut, &cpu, psw, &len, &cr1, &bad), -1);
    assert_true(bad <= cut);
    /* a PSW of 15 digits */
    s = edit("\"PSW\": \"040900000003008C\"", "\"PSW\": \"040900000003008\"");
    assert_int_equal(fst_cpus_page(s, strlen(s), &cpu, psw, &len, &cr1, &bad), -1);
    assert_int_equal(bad, (size_t)(strstr(s, "\"PSW\"") - s) + 8);
    free(s);
    /* not the API: the PSW page, HTML */
    const char *page = "<P>\nPSW=00080000 000200BE\n</body>";
    assert_int_equal(fst_cpus_page(page, strlen(page), &cpu, psw, &len, &cr1, &bad), -1);
}

int main(void)
{
    const struct CMUnitTest t[] = { cmocka_unit_test(on_time), cmocka_unit_test(catches_up_without_burst),
                                    cmocka_unit_test(forgives_an_old_debt), cmocka_unit_test(psw_page),
                                    cmocka_unit_test(cpus_page) };
    return cmocka_run_group_tests(t, NULL, NULL);
}
