/*
** tests/unit/test_tasks.c — analyze/tasks/tasks: which task a dispatch resumes (tasks.h): state and
** space, the addresses a suspension allows (exact, anywhere, refined by an old PSW), the
** registers, the dispatcher's blocks (a task's own, a new one, a shared one, an old-PSW
** slot), guesses and new tasks, and thousands of tasks that ended.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/tasks/tasks.h"

#define M31 0x7FFFFFFFull

/* A suspension at one address (0: none) or two, anywhere, in problem state. */
static fst_resume at(uint64_t a, uint64_t b, int anywhere)
{
    fst_resume r = { .mask = M31, .problem = 1, .anywhere = anywhere };
    if (a)
        r.at[r.n++] = a;
    if (b)
        r.at[r.n++] = b;
    return r;
}

static fst_dispatch disp(uint64_t addr, uint64_t space)
{
    return (fst_dispatch){ .addr = addr, .space = space, .problem = 1 };
}

static size_t go(fst_tasks *ts, fst_dispatch d, int *how)
{
    size_t left;
    return fst_tasks_dispatch(ts, &d, how, &left);
}

static void suspend(fst_tasks *ts, size_t id, fst_resume r) { fst_tasks_suspend(ts, id, &r); }

/* Two tasks in two address spaces at the same virtual addresses are never confused. */
static void test_spaces(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = go(ts, disp(0x40000, 0x11000), &how);
    assert_int_equal(how, FST_TASK_NEW);
    suspend(ts, a, at(0x40010, 0, 0));
    size_t b = go(ts, disp(0x40000, 0x12000), &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(a, b);
    suspend(ts, b, at(0x40010, 0, 0));
    assert_int_equal(go(ts, disp(0x40010, 0x12000), &how), b);
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    assert_int_equal(go(ts, disp(0x40010, 0x11000), &how), a);
    assert_int_equal(fst_tasks_count(ts), 2);
    fst_tasks_free(ts);
}

/* The addresses a suspension allows: a task at its routine's entry is new when every
** suspended one resumes elsewhere; an exact address beats "anywhere"; "anywhere" accounts
** for an address nothing else does; an old PSW refines a suspension it fits. */
static void test_addresses(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = go(ts, disp(0x30000, 0x1000), &how);
    suspend(ts, a, at(0x30010, 0x30020, 0));         /* after a conditional branch */
    size_t b = go(ts, disp(0x31000, 0x1000), &how);  /* another routine's entry */
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(a, b);
    suspend(ts, b, at(0, 0, 1));                     /* after BALR 14,15, R15 not shown */
    assert_int_equal(go(ts, disp(0x30020, 0x1000), &how), a); /* exact beats anywhere */
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    assert_int_equal(go(ts, disp(0x35000, 0x1000), &how), b); /* only anywhere fits */
    suspend(ts, b, at(0x35002, 0, 0));
    /* an old PSW refines a suspension, if it allows the address */
    suspend(ts, a, at(0x30010, 0x30020, 0));
    assert_false(fst_tasks_refine(ts, a, 0x30030));
    assert_true(fst_tasks_refine(ts, a, 0x30020));
    assert_int_equal(go(ts, disp(0x30010, 0x1000), &how), 2);  /* not a any more: a new task */
    assert_int_equal(how, FST_TASK_NEW);
    /* 24-bit addresses: a BALR's top byte does not count */
    fst_resume r = at(0x20402, 0, 0);
    r.mask = 0xFFFFFF;
    suspend(ts, b, r);
    assert_int_equal(go(ts, disp(0x40020402, 0x1000), &how), b);
    fst_tasks_free(ts);
}

/* Registers shown on both sides decide; those that may change (an SVC's) do not count. */
static void test_registers(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    uint64_t ga[16] = { 0 }, gb[16] = { 0 };
    ga[13] = 0x38100;
    gb[13] = 0x48100;
    size_t a = go(ts, disp(0x40000, 0x1000), &how);
    size_t b = go(ts, disp(0x40000, 0x1000), &how);
    assert_int_equal(how, FST_TASK_NEW);    /* a is running: b's dispatch is another task */
    fst_resume r = at(0x40080, 0, 0);
    r.grv = 0xFFFF;
    memcpy(r.gr, ga, sizeof ga);
    suspend(ts, a, r);
    memcpy(r.gr, gb, sizeof gb);
    suspend(ts, b, r);
    fst_dispatch d = disp(0x40080, 0x1000);
    d.grv = d.grtell = 0xFFFF;
    d.gr = gb;
    assert_int_equal(go(ts, d, &how), b);
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    d.gr = ga;
    assert_int_equal(go(ts, d, &how), a);
    /* a task whose registers differ is not the one: a new task */
    r.grfree = 1u << 15;    /* R15 may change (an SVC's return code) */
    memcpy(r.gr, ga, sizeof ga);
    suspend(ts, a, r);
    uint64_t gc[16] = { 0 };
    memcpy(gc, ga, sizeof gc);
    gc[15] = 4;
    d.gr = gc;
    assert_int_equal(go(ts, d, &how), a);   /* R15 is free */
    suspend(ts, a, r);
    gc[12] = 1;
    size_t c = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(c, a);
    fst_tasks_free(ts);
}

/* The dispatcher's blocks: a task's own names it; a new one is a new task's; a common one
** (used for several tasks) says nothing; an LPSW of an old-PSW slot is the task suspended
** last; a handler's save area names the task it saved. */
static void test_blocks(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    fst_dispatch d = disp(0x40000, 0x1000);
    d.block = 0x408;
    d.lpsw = 0x700;             /* one common PSW slot */
    size_t a = go(ts, d, &how);
    suspend(ts, a, at(0x40040, 0, 0));
    d.block = 0x488;
    size_t b = go(ts, d, &how); /* a new block, and a is elsewhere */
    assert_int_equal(how, FST_TASK_NEW);
    suspend(ts, b, at(0x40040, 0, 0));  /* both at 40040 */
    d.addr = 0x40040;
    d.block = 0x408;
    assert_int_equal(go(ts, d, &how), a);
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    suspend(ts, a, at(0x40040, 0, 0));
    d.block = 0x488;
    assert_int_equal(go(ts, d, &how), b);
    suspend(ts, b, at(0x40040, 0, 0));
    /* a block never used: a new task, although both could resume there */
    d.block = 0x508;
    size_t c = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    suspend(ts, c, at(0x40040, 0, 0));
    /* no LM block: the common PSW slot 700 (used for a, b and c) says nothing: a guess */
    d.block = 0;
    size_t left;
    size_t g = fst_tasks_dispatch(ts, &d, &how, &left);
    assert_int_equal(how, FST_TASK_GUESSED);
    assert_int_equal(left, 3);
    assert_int_equal(g, a);     /* suspended longest */
    suspend(ts, g, at(0x40040, 0, 0));
    /* the handler saved c's registers at 200; LM 200 and LPSW of the external old PSW: c */
    fst_tasks_saved(ts, c, 0x200);
    d.block = 0x200;
    d.lpsw = 0x18;
    d.lpsw_slot = 1;
    assert_int_equal(go(ts, d, &how), c);
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    suspend(ts, c, at(0x40040, 0, 0));
    /* an LPSW of a slot with no block: a tie goes to the task suspended last */
    d.block = 0;
    assert_int_equal(fst_tasks_dispatch(ts, &d, &how, &left), c);
    assert_int_equal(how, FST_TASK_GUESSED);
    fst_tasks_free(ts);
}

/* No address accounts for a dispatch: a task with calls open that the dispatcher's LM block
** names (its own), or, with no block, the one task whose registers shown all match, resumes
** there, redirected (VM/370's CP reflecting an SVC into a virtual machine: tests/programs/
** vm.s). Not a task that has ended (no calls open), not when its registers differ, not
** through a shared block, not when two tasks' registers match: a new task then. */
static void test_redirected(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    fst_dispatch d = disp(0x31100, 0x21000);
    d.block = 0x20810;                      /* machine A's VMGPRS */
    size_t a = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    fst_resume r = at(0x30056, 0, 0);       /* after its SVC, calls open */
    r.frames = 1;
    suspend(ts, a, r);
    d.addr = 0x31000;                       /* its nucleus' SVC handler */
    assert_int_equal(go(ts, d, &how), a);
    assert_int_equal(how, FST_TASK_REDIRECTED);
    /* its registers shown, one differs: not it */
    uint64_t ga[16] = { 0 }, gb[16] = { 0 };
    ga[13] = 0x38100;
    gb[13] = 0x39100;
    r.grv = 0xFFFF;
    memcpy(r.gr, ga, sizeof ga);
    suspend(ts, a, r);
    d.grv = d.grtell = 0xFFFF;
    d.gr = gb;
    size_t n = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(n, a);
    /* the same registers: it (the block now names n, suspended with no calls open) */
    r.frames = 0;
    suspend(ts, n, r);
    d.gr = ga;
    d.block = 0;
    assert_int_equal(go(ts, d, &how), a);
    assert_int_equal(how, FST_TASK_REDIRECTED);
    /* ended (no calls open): a new run of its program is a new task, though its block names it */
    suspend(ts, a, r);
    d.block = 0x20810;
    d.gr = NULL;
    d.grv = d.grtell = 0;
    size_t m = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(m, a);
    fst_tasks_free(ts);

    /* two tasks whose registers both match, no block: neither */
    ts = fst_tasks_new();
    d = disp(0x40000, 0x1000);
    a = go(ts, d, &how);
    size_t b = go(ts, d, &how);
    r = at(0x40080, 0, 0);
    r.frames = 1;
    r.grv = 0xFFFF;
    memcpy(r.gr, ga, sizeof ga);
    suspend(ts, a, r);
    suspend(ts, b, r);
    d.addr = 0x41000;
    d.grv = d.grtell = 0xFFFF;
    d.gr = ga;
    size_t c = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_true(c != a && c != b);
    fst_tasks_free(ts);

    /* at a routine's entry (an exit, say): a task of its own, though the block names one */
    ts = fst_tasks_new();
    d = disp(0x40000, 0x1000);
    d.block = 0x408;
    a = go(ts, d, &how);
    r = at(0x40080, 0, 0);
    r.frames = 1;
    suspend(ts, a, r);
    d.addr = 0x41000;
    d.entry = 1;
    b = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(b, a);
    fst_tasks_free(ts);

    /* a shared block (it dispatched two tasks) names none; a task the address allows, ruled
    ** out by the block, is not passed over */
    ts = fst_tasks_new();
    d = disp(0x40000, 0x1000);
    d.block = 0x200;
    a = go(ts, d, &how);
    suspend(ts, a, r);
    d.addr = 0x40100;
    b = go(ts, d, &how);    /* redirected a (the block's only task so far) */
    assert_int_equal(b, a);
    suspend(ts, a, r);
    d.block = 0x300;
    d.addr = 0x42000;
    r.frames = 0;
    size_t e = go(ts, d, &how);     /* 300 never used: new */
    suspend(ts, e, at(0x42010, 0, 0));
    d.block = 0x200;
    d.addr = 0x42010;
    /* e resumes there, but 200 names a, which the address does not allow: no redirection
    ** past a task the address allows (a new task, as a block that names another makes it) */
    size_t f = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_true(f != a && f != e);
    suspend(ts, f, r);
    /* 200 has now dispatched a and f: shared, it names no task */
    d.addr = 0x43000;
    size_t g = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_true(g != a && g != f);
    fst_tasks_free(ts);
}

/* The state: a supervisor-state dispatch that no task accounts for is the supervisor's own
** work; a task suspended in supervisor state does not resume in problem state. */
static void test_state(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = fst_tasks_start(ts, 0x20000, FST_SPACE_REAL);
    fst_resume r = at(0, 0, 1);
    r.problem = 0;
    suspend(ts, a, r);
    fst_dispatch d = disp(0x20400, FST_SPACE_REAL);
    size_t b = go(ts, d, &how);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_not_equal(a, b);
    suspend(ts, b, at(0x20410, 0, 0));
    d.problem = 0;
    d.addr = 0x500;
    assert_int_equal(go(ts, d, &how), a);   /* anywhere, in supervisor state */
    suspend(ts, a, (fst_resume){ .mask = M31, .problem = 0, .at = { 0x20010 }, .n = 1 });
    assert_true(go(ts, d, &how) == FST_NOTASK_ID);
    fst_tasks_free(ts);
}

/* Thousands of tasks that ended (suspended for ever at their exit): a dispatch elsewhere
** finds the one task that resumes there; resumes and refinements leave no stale candidate;
** at the exit itself every one of them is a candidate, in order of id. */
static void test_many(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t left, ended[3000];
    for (size_t i = 0; i < 3000; i++) {
        ended[i] = go(ts, disp(0x40000, 0x11000), &how);
        assert_int_equal(how, FST_TASK_NEW);
        suspend(ts, ended[i], at(0x50002, 0, 0));
    }
    size_t live = go(ts, disp(0x41000, 0x11000), &how);
    assert_int_equal(how, FST_TASK_NEW);
    for (int k = 0; k < 100; k++) {     /* resumed and suspended at the same address again */
        suspend(ts, live, at(0x41010, 0, 0));
        fst_dispatch d = disp(0x41010, 0x11000);
        assert_int_equal(fst_tasks_dispatch(ts, &d, &how, &left), live);
        assert_int_equal(how, FST_TASK_BY_EVIDENCE);
        assert_int_equal(left, 1);
    }
    /* resumed, then suspended elsewhere: not a candidate where it was */
    suspend(ts, live, at(0x41020, 0x41030, 0));
    assert_true(fst_tasks_refine(ts, live, 0x41030));
    assert_int_not_equal(go(ts, disp(0x41020, 0x11000), &how), live);
    assert_int_equal(how, FST_TASK_NEW);
    assert_int_equal(go(ts, disp(0x41030, 0x11000), &how), live);
    /* at the exit: a guess among all the ended tasks, the one suspended longest */
    fst_dispatch d = disp(0x50002, 0x11000);
    assert_int_equal(fst_tasks_dispatch(ts, &d, &how, &left), ended[0]);
    assert_int_equal(how, FST_TASK_GUESSED);
    assert_int_equal(left, 3000);
    size_t n;
    const size_t *c = fst_tasks_candidates(ts, &n);
    assert_int_equal(n, 3000);
    for (size_t i = 1; i < n; i++)
        assert_true(c[i - 1] < c[i]);
    assert_true(fst_tasks_resumes_at(ts, 0x50002, 0x11000, 1));
    assert_false(fst_tasks_resumes_at(ts, 0x50002, 0x11000, 0));
    assert_false(fst_tasks_resumes_at(ts, 0x41010, 0x11000, 1));
    fst_tasks_free(ts);
}

/* A fault the trace did not show may have nullified a task's last instruction: it may
** resume there again, but only as weakly as "anywhere" (tasks.h): a task that resumes
** there by evidence goes first; alone, the weak one is a guess, not a new task. */
static void test_weak(void **state)
{
    (void)state;
    fst_tasks *ts = fst_tasks_new();
    int how;
    size_t a = go(ts, disp(0x30000, 0x1000), &how);
    fst_resume r = at(0x30010, 0x30014, 0);
    r.weak = 1;                                      /* 30010 again, or after it */
    suspend(ts, a, r);
    size_t c = go(ts, disp(0x30100, 0x1000), &how);
    suspend(ts, c, at(0x30010, 0, 0));               /* exactly there */
    assert_int_equal(go(ts, disp(0x30010, 0x1000), &how), c);
    assert_int_equal(how, FST_TASK_BY_EVIDENCE);
    assert_int_equal(go(ts, disp(0x30010, 0x1000), &how), a);   /* a alone: it, a guess */
    assert_int_equal(how, FST_TASK_GUESSED);
    suspend(ts, a, r);
    assert_false(fst_tasks_resumes_at(ts, 0x30010, 0x1000, 1));  /* weak: no evidence of a switch */
    assert_true(fst_tasks_resumes_at(ts, 0x30014, 0x1000, 1));
    fst_tasks_free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spaces),    cmocka_unit_test(test_addresses), cmocka_unit_test(test_registers),
        cmocka_unit_test(test_blocks),    cmocka_unit_test(test_redirected), cmocka_unit_test(test_state),     cmocka_unit_test(test_many),      cmocka_unit_test(test_weak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
