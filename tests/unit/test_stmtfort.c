/*
** tests/unit/test_stmtfort.c — model/stmt_fort.c on a real FORTRAN IV G source listing: the
** title and source lines below are quoted from a listing written by IBM FORTRAN IV G LEVEL
** 21 under VM/370 CMS and published in a public tutorial's README (a HELLO program: WRITE,
** FORMAT, STOP, END); the object listing under them is made from the layout fst reads
** (docs/formats.md), since no real LIST output was found. Checked: the unit's name from the
** title, each ISN's text (card columns 1-72, the sequence field left out, a label kept),
** the ISNs the object listing gives code to, code before the first ISN as no statement.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/stmttab_int.h"

#include <stdio.h>
#include <string.h>

static const char LISTING[] =
    "   FORTRAN IV G LEVEL  21                 MAIN              DATE = 26009  TIME = 23.39.33             PAGE 0001\n"
    "    0001              WRITE(6,1)                                                        HEL00010\n"
    "    0002         1    FORMAT('HELLO WORLD FROM FORTRAN')                                HEL00020\n"
    "    0003              STOP                                                              HEL00030\n"
    "    0004              END                                                               HEL00040\n"
    "   FORTRAN IV G LEVEL  21                 MAIN              DATE = 26009  TIME = 23.39.33             PAGE 0002\n"
    " \n"
    "                                SUBPROGRAMS CALLED\n"
    "  SYMBOL    LOCATION      SYMBOL    LOCATION      SYMBOL    LOCATION      SYMBOL    LOCATION\n"
    "  IBCOM#        90\n"
    "   FORTRAN IV G LEVEL  21                 MAIN              DATE = 26009  TIME = 23.39.33             PAGE 0003\n"
    "   LOCATION  STA NUM  LABEL  OP    OPERAND        BCD OPERAND\n"
    "    000000                   BC    15,12(0,15)\n"
    "    00000C                   STM   14,12,12(13)\n"
    "    0000B0        1          L     15,144(0,13)   IBCOM#\n"
    "    0000B4                   BAL   14,4(0,15)\n"
    "    0000C0        3          L     15,144(0,13)   IBCOM#\n"
    "    0000C4                   BAL   14,52(0,15)\n"
    "    0000C8        4          BCR   15,14\n";

static void test_real_source_listing(void **state)
{
    (void)state;
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    assert_int_equal(fst_stmt_read_fort(t, "hello.lst", LISTING, sizeof LISTING - 1, &err), 0);
    assert_int_equal(fst_stmt_nunits(t), 1);
    assert_string_equal(fst_stmt_unit_at(t, 0)->name, "MAIN");
    assert_int_equal(fst_stmt_unit_at(t, 0)->kind, FST_STMT_FORTG);
    uint8_t mem[0x100] = { 0 };
    fst_image_seg img = { 0x30000, sizeof mem, mem };
    fst_stmt_routine r = { "MAIN", 0x30000 };
    assert_int_equal(fst_stmt_place(t, &r, 1, &img, 1, &err), 0);
    assert_null(fst_stmt_find(t, 0x30010));                 /* the prologue: no statement */
    const fst_stmt *s = fst_stmt_of(t, fst_stmt_find(t, 0x300B4), 0);
    assert_int_equal(s->line, 1);
    assert_string_equal(s->text, "WRITE(6,1)");
    assert_string_equal(s->file, "hello.lst(MAIN)");
    s = fst_stmt_of(t, fst_stmt_find(t, 0x300C4), 0);
    assert_int_equal(s->line, 3);
    assert_string_equal(s->text, "STOP");
    s = fst_stmt_of(t, fst_stmt_find(t, 0x300C8), 0);
    assert_int_equal(s->line, 4);
    assert_string_equal(s->text, "END");
    fst_stmt_free(t);
}

/* The ISN 2 FORMAT statement has no code; its text is still read (a label in column 2). */
static void test_label_kept(void **state)
{
    (void)state;
    const char *l = strstr(LISTING, "    0002");
    char one[400];
    snprintf(one, sizeof one, "   FORTRAN IV G LEVEL  21                 MAIN     DATE\n%.*s"
             "   LOCATION  STA NUM  LABEL  OP    OPERAND\n    000000        2          BCR   15,14\n",
             (int)(strchr(l, '\n') - l + 1), l);
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    assert_int_equal(fst_stmt_read_fort(t, "f.lst", one, strlen(one), &err), 0);
    assert_int_equal(fst_stmt_count(t), 1);
    assert_string_equal(fst_stmt_at(t, 0)->text, "1    FORMAT('HELLO WORLD FROM FORTRAN')");
    fst_stmt_free(t);
}

/* A real job's output, quoted from a public repository's test fixture (Zaneham/Fortran360,
** tests/fixtures/fortran_g_success.txt): FORTRAN IV G LEVEL 21 run under TK4- (MVS 3.8J)
** with NOLIST, after the JES2 job log; its title prints the time as 22/55/04, not TIME =. */
static const char TK4[] =
    "22.55.04 JOB    2  IEFACTRT - Stepname  Procstep  Program   Retcode\n"
    "22.55.04 JOB    2  FORTGCMP   FORT                IEYFORT   RC= 0000\n"
    "IEF374I STEP /FORT    / STOP  25363.2255 CPU    0MIN 00.01SEC SRB    0MIN 00.00SEC VIRT    84K SYS   200K\n"
    "  FORTRAN IV G LEVEL  21                 MAIN              DATE = 25363         22/55/04             PAGE 0001\n"
    "\n"
    "               C     HELLO WORLD IN FORTRAN IV\n"
    "               C     COMPILED BY IBM FORTRAN G ON SYSTEM/360\n"
    "               C     29 DECEMBER 2025\n"
    "   0001              WRITE(6,100)\n"
    "   0002          100 FORMAT(' HELLO FROM FORTRAN G - 1966!')\n"
    "   0003              STOP\n"
    "   0004              END\n"
    "  FORTRAN IV G LEVEL  21                 MAIN              DATE = 25363         22/55/04             PAGE 0002\n"
    "\n"
    "\n"
    "    *OPTIONS IN EFFECT*  ID,EBCDIC,SOURCE,NOLIST,NODECK,LOAD,NOMAP\n"
    "    *OPTIONS IN EFFECT*  NAME = MAIN    , LINECNT =       60\n"
    "    *STATISTICS*    SOURCE STATEMENTS =        4,PROGRAM SIZE =      306\n"
    "    *STATISTICS*  NO DIAGNOSTICS GENERATED\n";

/* The real NOLIST output is refused, saying why; with an object listing after it (made, as
** above) its texts are read: comment cards none, the job log before the title skipped. */
static void test_real_tk4_job(void **state)
{
    (void)state;
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    assert_int_equal(fst_stmt_read_fort(t, "job.prt", TK4, sizeof TK4 - 1, &err), -1);
    assert_non_null(strstr(err.msg, "job.prt: no object listing"));
    fst_stmt_free(t);
    char buf[sizeof TK4 + 512];
    snprintf(buf, sizeof buf, "%s"
             "  FORTRAN IV G LEVEL  21                 MAIN              DATE = 25363         22/55/04             PAGE 0003\n"
             "   LOCATION  STA NUM  LABEL  OP    OPERAND        BCD OPERAND\n"
             "    000000                   BC    15,12(0,15)\n"
             "    0000B0        1          L     15,144(0,13)   IBCOM#\n"
             "    0000C0        3          L     15,144(0,13)   IBCOM#\n"
             "    0000C8        4          BCR   15,14\n", TK4);
    t = fst_stmt_new();
    assert_int_equal(fst_stmt_read_fort(t, "job.prt", buf, strlen(buf), &err), 0);
    assert_int_equal(fst_stmt_count(t), 3);
    assert_string_equal(fst_stmt_at(t, 0)->text, "WRITE(6,100)");
    assert_string_equal(fst_stmt_at(t, 1)->text, "STOP");
    assert_string_equal(fst_stmt_at(t, 2)->text, "END");
    fst_stmt_free(t);
}

/* H's source lines as an OCR'd H listing shows them, "ISN nnnn" first: the text follows. */
static void test_h_isn_word(void **state)
{
    (void)state;
    static const char H[] =
        "  FORTRAN IV H LEVEL 21.8 ( JUN 74 )       YLS         DATE 76.040/14.12.09       PAGE 1\n"
        "  ISN 0002      SUBROUTINE YLS(X,Y)\n"
        "  ISN 0003      Y = X + 1.0\n"
        "  ISN 0004      RETURN\n"
        "   LOCATION  ISN  LABEL  OP    OPERAND\n"
        "    000000              BC    15,12(0,15)\n"
        "    000040     3        LE    0,0(0,1)\n"
        "    000048     4        BCR   15,14\n";
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    assert_int_equal(fst_stmt_read_fort(t, "h.lst", H, sizeof H - 1, &err), 0);
    assert_int_equal(fst_stmt_unit_at(t, 0)->kind, FST_STMT_FORTH);
    assert_int_equal(fst_stmt_count(t), 2);
    assert_string_equal(fst_stmt_at(t, 0)->text, "Y = X + 1.0");
    assert_string_equal(fst_stmt_at(t, 1)->text, "RETURN");
    fst_stmt_free(t);
}

static void test_refusals(void **state)
{
    (void)state;
    fst_stmt_tab *t = fst_stmt_new();
    fst_err err;
    /* the source listing alone (compiled without LIST) */
    size_t src = (size_t)(strstr(LISTING, "   FORTRAN IV G LEVEL  21                 MAIN              DATE = 26009  TIME = "
                                          "23.39.33             PAGE 0002") - LISTING);
    assert_int_equal(fst_stmt_read_fort(t, "hello.lst", LISTING, src, &err), -1);
    assert_non_null(strstr(err.msg, "hello.lst: no object listing"));
    /* a line in the object listing that is none */
    char bad[sizeof LISTING + 64];
    snprintf(bad, sizeof bad, "%sthis is not an object listing line\n", LISTING);
    assert_int_equal(fst_stmt_read_fort(t, "bad.lst", bad, strlen(bad), &err), -1);
    assert_non_null(strstr(err.msg, "bad.lst:20: not a line of a FORTRAN IV object listing"));
    fst_stmt_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_source_listing),
        cmocka_unit_test(test_label_kept),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_real_tk4_job),
        cmocka_unit_test(test_h_isn_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
