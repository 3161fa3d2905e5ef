/* tests/unit/test_maps.c — the program model and its readers (model/progmodel.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/fixture.h"

#include "model/progmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

static fst_err err;

static int load(fst_pm *pm, const char *text, const char *member)
{
    fst_pm_opts o = { .member = member };
    memset(&err, 0, sizeof err);
    return fst_pm_load_mem(pm, "t.lst", text, strlen(text), &o, &err);
}

static int load_kind(fst_pm *pm, const void *buf, size_t len, fst_map_kind k)
{
    fst_pm_opts o = { .kind = k };
    memset(&err, 0, sizeof err);
    return fst_pm_load_mem(pm, "t.map", buf, len, &o, &err);
}

/* The load fails and the message holds `want`. */
#define expect_error(rc, want)                                                               \
    do {                                                                                     \
        int rc_ = (rc);                                                                      \
        if (rc_ != -1 || !strstr(err.msg, (want)))                                           \
            fail_msg("rc %d, message '%s', wanted '%s'", rc_, err.msg, (want));              \
    } while (0)

static const fst_pm_sym *sym(const fst_pm *pm, size_t i) { return fst_pm_sym_at(pm, i); }

static void expect_sym(const fst_pm *pm, size_t i, const char *name, fst_pm_type t,
                       uint32_t origin, uint32_t length)
{
    assert_true(i < fst_pm_nsyms(pm));
    const fst_pm_sym *s = sym(pm, i);
    if (strcmp(s->name, name) || s->type != t || s->origin != origin || s->length != length)
        fail_msg("symbol %zu: %s %s %X %X, wanted %s %s %X %X", i, s->name,
                 fst_pm_type_name(s->type), s->origin, s->length, name, fst_pm_type_name(t),
                 origin, length);
}

/* text with its first `old` replaced by `new` (malloc'd) */
static char *edit(const char *text, const char *old, const char *new)
{
    const char *p = strstr(text, old);
    assert_non_null(p);
    size_t a = (size_t)(p - text), n = strlen(text) - strlen(old) + strlen(new);
    char *r = malloc(n + 1);
    memcpy(r, text, a);
    strcpy(r + a, new);
    strcat(r, p + strlen(old));
    return r;
}

static int load_edit(fst_pm *pm, const char *text, const char *old, const char *new)
{
    char *t = edit(text, old, new);
    int rc = load(pm, t, NULL);
    free(t);
    return rc;
}

static char *fixture(const char *name, size_t *len)
{
    char rel[256];
    snprintf(rel, sizeof rel, "maps/%s", name);
    return fst_test_fixture(rel, len);
}

/* ---- IEWL listings ---- */

#define STEP " F64-LEVEL LINKAGE EDITOR OPTIONS SPECIFIED XREF,LET,LIST\r\n"
#define TITLE "                                                CROSS REFERENCE TABLE\r\n"
#define CSECT "  CONTROL SECTION                       ENTRY\r\n"
#define HDR "    NAME    ORIGIN  LENGTH                NAME   LOCATION     NAME   LOCATION" \
            "     NAME   LOCATION     NAME   LOCATION\r\n"
#define EJECT "\r\r\n\f\r\n\r\n"

/* A map with a page eject inside SUBA's entry names, autocall, $PRIVATE and $BLANKCOM. */
static const char basic[] =
    "\r\r\n\f\r\n" STEP "          DEFAULT OPTION(S) USED -  SIZE=(98304,55296)\r\n\r\n" TITLE
    "\r\n" CSECT "\r\n" HDR
    "  MAIN          00     100\r\n"
    "  SUBA    *    100      80\r\n"
    "                                        SUBA1        108    SUBA2        110\r\n"
    EJECT HDR
    "                                        SUBA3        120\r\r\n"
    "  $PRIVATE     180      10\r\n"
    " $BLANKCOM     190      40\r\n"
    "\r\n"
    "  LOCATION  REFERS TO SYMBOL  IN CONTROL SECTION\r\n"
    "       90            SUBA            SUBA\r\n"
    " ENTRY ADDRESS       00\r\n"
    "\r\n"
    " TOTAL LENGTH       1D0\r\n"
    "****PROG      NOW REPLACED IN DATA SET\r\n"
    "****PROGA     IS AN ALIAS FOR THIS MEMBER\r\n"
    "AUTHORIZATION CODE IS         0.\r\n";

/* Four sections, one label: the model the load-point tests find. */
static const char fortmap[] =
    STEP TITLE HDR
    "  MAIN          00      40\n"
    "  SUB1          40      40\n"
    "  SUB2          80      40\n"
    "                                        SUB2E         90\n"
    "  DATA          C0      40\n"
    " ENTRY ADDRESS       00\n"
    " TOTAL LENGTH       100\n"
    "****FORT      NOW REPLACED IN DATA SET\n";

static void check_basic(const fst_pm *pm)
{
    assert_int_equal(fst_pm_nmodules(pm), 1);
    const fst_pm_module *m = fst_pm_module_at(pm, 0);
    assert_string_equal(m->name, "PROG");
    assert_int_equal(m->kind, FST_MAP_IEWL);
    assert_true(m->has_entry && m->entry == 0);
    assert_true(m->has_total && m->total == 0x1D0);
    assert_int_equal(fst_pm_nsyms(pm), 7);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x100);
    expect_sym(pm, 1, "SUBA", FST_PM_SD, 0x100, 0x80);
    expect_sym(pm, 2, "SUBA1", FST_PM_LR, 0x108, 0);
    expect_sym(pm, 3, "SUBA2", FST_PM_LR, 0x110, 0);
    expect_sym(pm, 4, "SUBA3", FST_PM_LR, 0x120, 0);
    expect_sym(pm, 5, "$PRIVATE", FST_PM_PC, 0x180, 0x10);
    expect_sym(pm, 6, "$BLANKCOM", FST_PM_CM, 0x190, 0x40);
    assert_false(sym(pm, 0)->autocall);
    assert_true(sym(pm, 1)->autocall);
    assert_int_equal(sym(pm, 4)->section, 1);     /* across the page eject */
    assert_string_equal(sym(pm, 4)->file, "t.lst");
}

static void iewl_basic(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, basic, NULL), 0);
    check_basic(pm);
    assert_int_equal(sym(pm, 4)->line, 18);
    assert_string_equal(fst_pm_mainline(pm, 0)->name, "MAIN");
    fst_pm_free(pm);
}

/* The same listing as a data set keeps it: one control byte before each line. `cc` gives the
** byte for an ordinary line, an ejecting line and (0: none) an overprinting line. */
static char *with_cc(const char *text, char plain, char eject, int asa)
{
    size_t n = strlen(text);
    char *r = calloc(2 * n + 64, 1), *o = r;
    int ej = 0;
    for (const char *p = text; *p;) {
        if (*p == '\f') {
            ej = 1, p++;
            continue;
        }
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && p[len - 1] == '\r')
            len--;
        if (!len && !ej && e && e[1] == '\f') {   /* the blank line Hercules writes before \f */
            p = e + 1;
            continue;
        }
        *o++ = ej ? eject : plain;
        memcpy(o, p, len);
        o += len;
        *o++ = '\n';
        if (!strncmp(p, "  SUBA    *", 11)) {     /* print SUBA's line twice more, bold */
            if (asa) {
                *o++ = '+';
                memcpy(o, p, len), o += len, *o++ = '\n';
                *o++ = '+';
                memcpy(o, "  ____", 6), o += 6, *o++ = '\n';   /* and underline it */
            } else {
                *(o - len - 2) = 0x01;              /* write, no space: the next line overprints */
                *o++ = plain;
                memcpy(o, p, len), o += len, *o++ = '\n';
            }
        }
        ej = 0;
        p = e ? e + 1 : p + len;
    }
    *o = 0;
    return r;
}

static void iewl_asa(void **state)
{
    (void)state;
    char *t = with_cc(basic, ' ', '1', 1);
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, t, NULL), 0);
    check_basic(pm);
    fst_pm_free(pm);
    free(t);
}

static void iewl_machine_cc(void **state)
{
    (void)state;
    char *t = with_cc(basic, 0x09, (char)0x8B, 0);
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, t, NULL), 0);
    check_basic(pm);
    fst_pm_free(pm);
    free(t);
}

static void iewl_bare_lines(void **state)
{
    (void)state;   /* \n only, no \r, no \f: a listing someone cleaned up */
    char *t = strdup(basic), *o = t;
    for (const char *p = basic; *p; p++)
        if (*p != '\r' && *p != '\f')
            *o++ = *p;
    *o = 0;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, t, NULL), 0);
    assert_int_equal(fst_pm_nsyms(pm), 7);
    fst_pm_free(pm);
    free(t);
}

static void iewl_steps(void **state)
{
    (void)state;
    char *other = edit(basic, "****PROG      NOW", "****OTHER     NOW");
    char *second = edit(other, "****PROGA ", "****OTHERA");
    char *two = malloc(strlen(basic) + strlen(second) + 1);
    strcat(strcpy(two, basic), second);
    fst_pm *pm = fst_pm_new();
    expect_error(load(pm, two, NULL), "2 link steps have a map: 1 PROG (line 10), 2 OTHER");
    expect_error(load(pm, two, "NOPE"), "no link step makes NOPE");
    assert_int_equal(load(pm, two, "OTHER"), 0);
    assert_int_equal(load(pm, two, "proga"), 0);      /* an alias, any case */
    assert_int_equal(load(pm, two, "2"), 0);          /* by number */
    assert_string_equal(fst_pm_module_at(pm, 0)->name, "OTHER");
    assert_string_equal(fst_pm_module_at(pm, 1)->name, "PROG");
    assert_string_equal(fst_pm_module_at(pm, 2)->name, "OTHER");
    expect_error(load(pm, two, "3"), "no link step makes 3");
    char *same = malloc(2 * strlen(basic) + 1);
    strcat(strcpy(same, basic), basic);
    expect_error(load(pm, same, "PROG"), "pick one by member name or number, as in t.lst(2)");
    fst_pm_free(pm);
    free(other), free(second), free(two), free(same);
}

static void iewl_overlay_tso(void **state)
{
    (void)state;
    static const char ovl[] =
        STEP TITLE
        "    NAME    ORIGIN  LENGTH  SEG. NO.      NAME   LOCATION     NAME   LOCATION\n"
        "  ROOT          00     100     1\n"
        "                                        ROOTA         10    ROOTB         20\n"
        "                                        ROOTC         30\n"
        "  $SEGTAB      100      10     1\n"
        "  A            110      80     2\n"
        "  B            110      60     3\n"
        "                                        BENT         120\n"
        " ENTRY ADDRESS       00\n"
        " TOTAL LENGTH       190\n"
        "****OVLY      NOW REPLACED IN DATA SET\n";
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, ovl, NULL), 0);
    assert_int_equal(fst_pm_nsyms(pm), 8);
    expect_sym(pm, 0, "ROOT", FST_PM_SD, 0, 0x100);
    expect_sym(pm, 3, "ROOTC", FST_PM_LR, 0x30, 0);
    expect_sym(pm, 6, "B", FST_PM_SD, 0x110, 0x60);
    assert_int_equal(sym(pm, 6)->segment, 3);
    assert_int_equal(sym(pm, 7)->segment, 3);
    assert_int_equal(sym(pm, 7)->section, 6);
    assert_int_equal(fst_pm_set_load_point(pm, -1, 0x8000, &err), 0);
    assert_string_equal(fst_pm_find_section(pm, 0x8130)->name, "A");   /* lowest segment */
    assert_string_equal(fst_pm_find_section(pm, 0x8180)->name, "A");
    assert_null(fst_pm_find_section(pm, 0x8190));
    fst_pm_free(pm);
}

static void iewl_pseudo_registers(void **state)
{
    (void)state;
    char *t = edit(basic, " ENTRY ADDRESS",
                   "  LOCATION   F394 REQUESTS CUMULATIVE PSEUDO REGISTER LENGTH\r\n"
                   " PSEUDO REGISTERS\r\n"
                   "    NAME    ORIGIN  LENGTH        NAME    ORIGIN  LENGTH\r\n"
                   "  IHEQINV       00       4      *MAPGENB       4       4\r\n"
                   EJECT
                   "    NAME    ORIGIN  LENGTH        NAME    ORIGIN  LENGTH\r\n"
                   "  IHEQXLV        8       8\r\n"
                   " TOTAL LENGTH OF PSEUDO REGISTERS      10\r\n"
                   " ENTRY ADDRESS");
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, t, NULL), 0);
    assert_int_equal(fst_pm_nsyms(pm), 10);
    expect_sym(pm, 7, "IHEQINV", FST_PM_PR, 0, 4);
    expect_sym(pm, 8, "*MAPGENB", FST_PM_PR, 4, 4);
    expect_sym(pm, 9, "IHEQXLV", FST_PM_PR, 8, 8);
    assert_int_equal(fst_pm_set_load_point(pm, -1, 0x20000, &err), 0);
    assert_string_equal(fst_pm_find_addr(pm, 0x20004)->name, "MAIN");   /* never a PR */
    fst_pm_free(pm);
    free(t);
}

static void iewl_malformed(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    expect_error(load_edit(pm, basic, "   100      80", "   1G0      80"),
                 "t.lst:12: bad hex '1G0' in the ORIGIN column (columns 13-18)");
    expect_error(load_edit(pm, basic, "   100      80", "   100     8 0"),
                 "t.lst:12: bad hex '8 0' in the LENGTH column (columns 21-26)");
    expect_error(load_edit(pm, basic, "SUBA2        110", "SUBA2        1x0"),
                 "t.lst:13: bad hex '1x0' in the LOCATION column");
    expect_error(load_edit(pm, basic, "ADDRESS       00", "ADDRESS       0Z"),
                 "bad hex '0Z' in ENTRY ADDRESS");
    expect_error(load_edit(pm, basic, "LENGTH       1D0", "LENGTH    1000000"),
                 "bad hex '1000000' in TOTAL LENGTH");
    expect_error(load_edit(pm, basic, "  MAIN          00     100\r\n  SUBA    *    100      80\r\n",
                           ""), "t.lst:11: entry name SUBA1 comes before any control section");
    expect_error(load_edit(pm, basic, "SUBA2        110", "             110"),
                 "t.lst:13: location '110' without an entry name");
    expect_error(load_edit(pm, basic, "SUBA2        110", "SUBA2           "),
                 "t.lst:13: entry name SUBA2 has no location");
    expect_error(load_edit(pm, basic, "  MAIN          00     100", "  MAIN          00     100 X"),
                 "t.lst:11: unexpected 'X' at column 28 of the map");
    expect_error(load_edit(pm, basic, "SUBA3        120", "SUBA3        200"),
                 "label SUBA3 at 200 lies outside its section SUBA (100-180)");
    expect_error(load_edit(pm, basic, "SUBA    *    100", "SUBA    *     F0"),
                 "t.lst:12: section SUBA at F0 overlaps MAIN (0-100)");
    expect_error(load_edit(pm, basic, "LENGTH       1D0", "LENGTH       1C0"),
                 "section $BLANKCOM ends at 1D0, past TOTAL LENGTH 1C0");
    expect_error(load_edit(pm, basic, "ADDRESS       00", "ADDRESS      1D0"),
                 "ENTRY ADDRESS 1D0 lies outside the module");
    expect_error(load_edit(pm, basic, " TOTAL LENGTH       1D0", ""),
                 "but no TOTAL LENGTH");
    char *cut = strdup(basic);
    cut[strstr(cut, "  $PRIVATE") - cut] = 0;            /* the listing stops mid-map */
    expect_error(load(pm, cut, NULL), "the map that starts at line 10 ends without ENTRY ADDRESS");
    free(cut);
    expect_error(load_edit(pm, basic, "NAME    ORIGIN  LENGTH   ", "NOME    ORIGIN  LENGTH   "),
                 "t.lst:18: entry name SUBA3 comes before any control section");  /* page 1 lost */
    expect_error(load_edit(pm, fortmap, "NAME    ORIGIN  LENGTH   ", "NOME    ORIGIN  LENGTH   "),
                 "t.lst: no MODULE MAP or CROSS REFERENCE TABLE");
    expect_error(load_edit(pm, basic, "\n    NAME    ORIGIN", "\n      NAME    ORIGIN"),
                 "t.lst:10: column header starts at column 7");
    assert_int_equal(fst_pm_nmodules(pm), 0);          /* nothing half-read stays behind */
    assert_int_equal(fst_pm_nsyms(pm), 0);
    fst_pm_free(pm);
}

/* Real listings: FORTRAN H (listing B of notes/loadmaps.md, checked by hand) and PL/I F with
** entry names continued across page ejects, pseudo-registers and a non-zero entry. */
static void iewl_fixtures(void **state)
{
    (void)state;
    size_t len;
    char *b = fixture("blkprt-5.iewl", &len);
    if (!b)
        skip();
    fst_pm *pm = fst_pm_new();
    assert_int_equal(fst_pm_load_mem(pm, "blkprt-5.iewl", b, len, NULL, &err), 0);
    assert_string_equal(fst_pm_module_at(pm, 0)->name, "BLOCKFOH");
    assert_int_equal(fst_pm_module_at(pm, 0)->total, 0x6100);
    assert_int_equal(fst_pm_nsyms(pm), 33);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x802);
    expect_sym(pm, 3, "IHCECOMH", FST_PM_SD, 0xE38, 0xF61);
    assert_true(sym(pm, 3)->autocall);
    expect_sym(pm, 4, "IBCOM#", FST_PM_LR, 0xE38, 0);
    expect_sym(pm, 32, "ERRTRA", FST_PM_LR, 0x5E78, 0);
    assert_int_equal(fst_pm_set_load_point(pm, -1, 0x1A0000, &err), 0);
    assert_string_equal(fst_pm_find_addr(pm, 0x1A0E38)->name, "IHCECOMH");
    assert_string_equal(fst_pm_find_addr(pm, 0x1A0EF4)->name, "FDIOCS#");
    assert_string_equal(fst_pm_find_addr(pm, 0x1A1D90)->name, "INTSWTCH");
    assert_string_equal(fst_pm_find_addr(pm, 0x1A0E00)->name, "BLKPRTF");
    assert_string_equal(fst_pm_find_section(pm, 0x1A0E00)->name, "BLKPRT");
    assert_string_equal(fst_pm_find_addr(pm, 0x1A080C)->name, "BLKPRT");
    assert_null(fst_pm_find_addr(pm, 0x1A0E32));        /* padding between sections */
    assert_string_equal(fst_pm_find_entry(pm, 0x1A0E38)->name, "IHCECOMH");
    assert_string_equal(fst_pm_sym_at(pm, fst_pm_find_entry(pm, 0x1A0E38)->index + 1)->name,
                        "IBCOM#");
    assert_string_equal(fst_pm_find_name(pm, "SEQDASD")->name, "SEQDASD");
    assert_int_equal(fst_pm_find_name(pm, "SEQDASD")->addr, 0x1A2118);
    fst_pm_free(pm);
    free(b);

    if (!(b = fixture("4map3270-install-1-v4-1.iewl", &len)))
        skip();
    pm = fst_pm_new();
    assert_int_equal(fst_pm_load_mem(pm, "m.iewl", b, len, NULL, &err), 0);
    const fst_pm_sym *s = fst_pm_find_name(pm, "IHESAPB");   /* after the eject */
    assert_non_null(s);
    assert_int_equal(s->origin, 0x1131A);
    assert_string_equal(sym(pm, s->section)->name, "IHESAP");
    assert_string_equal(fst_pm_find_name(pm, "*MAPGENA")->name, "*MAPGENA");
    assert_int_equal(fst_pm_find_name(pm, "IHEQEVT")->type, FST_PM_PR);
    assert_int_equal(fst_pm_module_at(pm, 0)->entry, 0xC6E0);
    assert_string_equal(fst_pm_mainline(pm, 0)->name, "IHENTRY");
    assert_int_equal(fst_pm_module_at(pm, 0)->total, 0x13CF0);
    fst_pm_free(pm);
    free(b);
}

/* ---- the loader map ---- */

static const char loader[] =         /* 24 columns an entry, after an ASA byte */
    "1 VS LOADER   OPTIONS USED - PRINT,MAP,LET,CALL,RES,NOTERM,SIZE=102400,NAME=**GO\n"
    "0     NAME  TYPE  ADDR        NAME  TYPE  ADDR        NAME  TYPE  ADDR        NAME  TYPE"
    "  ADDR        NAME  TYPE  ADDR\n"
    "   MAIN       SD 0A2010    SUBA       SD 0A2300    SUBA1      LR 0A2308    IHCECOMH*  SD"
    " 0A2400    IBCOM#     LR 0A2400\n"
    "   IHCFCVTH*  SD 0A3000    IHCUATBL** SD D10000    $PRIVATE   PC 0A3800    *STATIC    SD"
    " 0A3900    IHEQINV    PR 000004\n"
    "\n"
    "0 TOTAL LENGTH     1FF0\n"
    "  ENTRY ADDRESS  0A2010\n";

static void loader_map(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(fst_map_detect(loader, strlen(loader)), FST_MAP_LOADER);
    assert_int_equal(load(pm, loader, NULL), 0);
    const fst_pm_module *m = fst_pm_module_at(pm, 0);
    assert_true(m->has_load_point);
    assert_int_equal(m->load_point, 0xA2010);
    assert_int_equal(m->total, 0x1FF0);
    assert_int_equal(m->entry, 0);
    assert_int_equal(fst_pm_nsyms(pm), 9);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x2F0);
    expect_sym(pm, 1, "SUBA", FST_PM_SD, 0x2F0, 0x100);
    expect_sym(pm, 2, "SUBA1", FST_PM_LR, 0x2F8, 0);
    expect_sym(pm, 3, "IHCECOMH", FST_PM_SD, 0x3F0, 0xC00);
    assert_true(sym(pm, 3)->autocall);
    expect_sym(pm, 4, "IBCOM#", FST_PM_LR, 0x3F0, 0);
    expect_sym(pm, 5, "IHCFCVTH", FST_PM_SD, 0xFF0, 0x800);
    expect_sym(pm, 6, "$PRIVATE", FST_PM_PC, 0x17F0, 0x100);
    expect_sym(pm, 7, "*STATIC", FST_PM_SD, 0x18F0, 0x700);     /* to the end of the program */
    expect_sym(pm, 8, "IHEQINV", FST_PM_PR, 4, 0);
    assert_null(fst_pm_find_name(pm, "IHCUATBL"));                /* from the LPA: not ours */
    assert_string_equal(fst_pm_find_addr(pm, 0xA2310)->name, "SUBA1");
    assert_string_equal(fst_pm_mainline(pm, 0)->name, "MAIN");
    fst_pm_free(pm);
}

static void loader_malformed(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    expect_error(load_edit(pm, loader, "SUBA       SD 0A2300", "SUBA       SD 0A23G0"),
                 "t.lst:3: bad loader map entry '  SUBA       SD 0A23G0  ' (columns 26-49)");
    expect_error(load_edit(pm, loader, "SUBA       SD", "SUBA       XY"), "bad loader map entry");
    expect_error(load_edit(pm, loader, "0 TOTAL LENGTH     1FF0\n", ""), "no TOTAL LENGTH");
    expect_error(load_edit(pm, loader, "ENTRY ADDRESS  0A2010", "ENTRY ADDRESS  0A5000"),
                 "ENTRY ADDRESS A5000 lies outside the program");
    expect_error(load_edit(pm, loader, "1FF0", "100"), "lies past the end of the program");
    assert_int_equal(fst_pm_nmodules(pm), 0);
    fst_pm_free(pm);
}

/* ---- CESD records ---- */

typedef struct buf {
    uint8_t b[4096];
    size_t n;
} buf;

/* One 16-byte ESD entry. */
static void ent(uint8_t *e, const char *name, uint8_t type, uint32_t addr, uint8_t seg,
                uint32_t len)
{
    for (int i = 0; i < 8; i++)
        e[i] = name ? (*name ? (uint8_t)fst_ascii_to_ebcdic(*name++) : 0x40) : 0;
    e[8] = type;
    e[9] = (uint8_t)(addr >> 16), e[10] = (uint8_t)(addr >> 8), e[11] = (uint8_t)addr;
    e[12] = seg;
    e[13] = (uint8_t)(len >> 16), e[14] = (uint8_t)(len >> 8), e[15] = (uint8_t)len;
}

/* A CESD record of n entries starting at ESDID id; with an RDW when rdw. */
static void rec(buf *b, unsigned id, const uint8_t *ents, size_t n, int rdw)
{
    uint8_t *p = b->b + b->n;
    size_t cnt = 16 * n, h = rdw ? 4 : 0;
    if (rdw)
        p[0] = (uint8_t)((cnt + 12) >> 8), p[1] = (uint8_t)(cnt + 12), p[2] = p[3] = 0;
    p[h] = 0x20, p[h + 1] = p[h + 2] = p[h + 3] = 0;
    p[h + 4] = (uint8_t)(id >> 8), p[h + 5] = (uint8_t)id;
    p[h + 6] = (uint8_t)(cnt >> 8), p[h + 7] = (uint8_t)cnt;
    memcpy(p + h + 8, ents, cnt);
    b->n += h + 8 + cnt;
}

/* Record 1: MAIN (SD, ESDID 1), IHCECOMH (SD 2, autocall), an ER, IBCOM# (LR of 2), a
** private section, a WX; record 2: a blank common, INTSWTCH (LR of 2, from the record
** before), a null entry, a PR, SUBENT (LR of SUB, which comes after it) and SUB (SD 12). */
static void cesd_module(buf *b, int rdw)
{
    uint8_t e[16 * 15];
    memset(b, 0, sizeof *b);
    ent(e + 0, "MAIN", 0x00, 0x000, 1, 0x802);
    ent(e + 16, "IHCECOMH", 0x80, 0xE38, 1, 0xF61);
    ent(e + 32, "ERRMON", 0x02, 0, 0, 0);
    ent(e + 48, "IBCOM#", 0x03, 0xE38, 1, 2);
    ent(e + 64, NULL, 0x04, 0x808, 1, 0x10);
    ent(e + 80, "WEAK", 0x0A, 0, 0, 0);
    rec(b, 1, e, 6, rdw);
    ent(e + 0, NULL, 0x05, 0x1DA0, 1, 0x40);
    ent(e + 16, "INTSWTCH", 0x03, 0x1D7E, 1, 2);
    ent(e + 32, NULL, 0x07, 0, 0, 0);
    ent(e + 48, "IHEQINV", 0x06, 0x8, 0, 4);
    ent(e + 64, "SUBENT", 0x03, 0x1E04, 1, 12);
    ent(e + 80, "SUB", 0x00, 0x1E00, 1, 0x21);
    rec(b, 7, e, 6, rdw);
}

static void check_cesd(const fst_pm *pm)
{
    const fst_pm_module *m = fst_pm_module_at(pm, 0);
    assert_int_equal(m->kind, FST_MAP_CESD);
    assert_false(m->has_entry);
    assert_int_equal(m->total, 0x1E28);                 /* SUB's end, to a doubleword */
    assert_int_equal(fst_pm_nsyms(pm), 9);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x802);
    expect_sym(pm, 1, "$PRIVATE", FST_PM_PC, 0x808, 0x10);
    expect_sym(pm, 2, "IHCECOMH", FST_PM_SD, 0xE38, 0xF61);
    expect_sym(pm, 3, "IBCOM#", FST_PM_LR, 0xE38, 0);
    expect_sym(pm, 4, "INTSWTCH", FST_PM_LR, 0x1D7E, 0);
    expect_sym(pm, 5, "$BLANKCOM", FST_PM_CM, 0x1DA0, 0x40);
    expect_sym(pm, 6, "SUB", FST_PM_SD, 0x1E00, 0x21);
    expect_sym(pm, 7, "SUBENT", FST_PM_LR, 0x1E04, 0);
    expect_sym(pm, 8, "IHEQINV", FST_PM_PR, 8, 4);
    assert_true(sym(pm, 2)->autocall);
    assert_int_equal(sym(pm, 3)->section, 2);
    assert_int_equal(sym(pm, 4)->section, 2);
    assert_int_equal(sym(pm, 7)->section, 6);
    assert_int_equal(sym(pm, 0)->segment, 0);           /* not an overlay module */
}

static void cesd_records(void **state)
{
    (void)state;
    buf b;
    cesd_module(&b, 0);
    static const uint8_t idr_ctl_text[] = {   /* what follows the CESD: IDR, control, text */
        0x80, 0x03, 0x82, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x06, 0x00, 0x00,
        0x00, 0x40, 0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x08, 0x47, 0xF0, 0xF0, 0x0C };
    memcpy(b.b + b.n, idr_ctl_text, sizeof idr_ctl_text);
    b.n += sizeof idr_ctl_text;
    assert_int_equal(fst_map_detect(b.b, b.n), FST_MAP_CESD);
    fst_pm *pm = fst_pm_new();
    fst_pm_opts o = { .member = "MYPROG" };
    assert_int_equal(fst_pm_load_mem(pm, "my.load", b.b, b.n, &o, &err), 0);
    check_cesd(pm);
    assert_int_equal(sym(pm, 3)->line, 8 + 48);         /* byte offset of the entry */
    assert_string_equal(fst_pm_module_at(pm, 0)->name, "MYPROG");
    fst_pm_free(pm);

    cesd_module(&b, 1);                                 /* the same behind RDWs */
    assert_int_equal(fst_map_detect(b.b, b.n), FST_MAP_CESD);
    pm = fst_pm_new();
    assert_int_equal(load_kind(pm, b.b, b.n, FST_MAP_AUTO), 0);
    check_cesd(pm);
    fst_pm_free(pm);
}

static void cesd_overlay(void **state)
{
    (void)state;
    uint8_t e[64];
    buf b = { .n = 0 };
    ent(e, "ROOT", 0x00, 0, 1, 0x100);
    ent(e + 16, "SEGA", 0x00, 0x100, 2, 0x80);
    ent(e + 32, "SEGB", 0x00, 0x100, 3, 0x60);
    ent(e + 48, "BENT", 0x03, 0x110, 3, 3);
    rec(&b, 1, e, 4, 0);
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load_kind(pm, b.b, b.n, FST_MAP_CESD), 0);
    assert_int_equal(sym(pm, 2)->segment, 3);
    assert_int_equal(sym(pm, 3)->segment, 3);
    assert_int_equal(sym(pm, 3)->section, 2);
    fst_pm_free(pm);
}

static void cesd_malformed(void **state)
{
    (void)state;
    buf b;
    fst_pm *pm = fst_pm_new();
    cesd_module(&b, 0);
    expect_error(load_kind(pm, b.b, b.n - 20, FST_MAP_CESD),
                 "t.map: byte 104: CESD record cut short: it holds 96 bytes of entries, 76 are left");
    expect_error(load_kind(pm, b.b, 106, FST_MAP_CESD),
                 "t.map: byte 104: record cut short: 2 bytes left, a CESD header needs 8");
    cesd_module(&b, 0);
    b.b[7] = 0x51;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "t.map: byte 6: CESD byte count 81 is not 16 x 0..15");
    cesd_module(&b, 0);
    b.b[104 + 5] = 8;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 108: CESD record starts at ESDID 8, expected 7");
    cesd_module(&b, 0);
    b.b[8 + 48 + 15] = 3;                               /* IBCOM# owned by the ER */
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 69: label IBCOM# names ESDID 3 as its section, which is not a control section");
    b.b[8 + 48 + 15] = 40;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD), "which is not in the CESD");
    cesd_module(&b, 0);
    b.b[8 + 8] = 0x0C;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 16: ESD entry 1 has type X'0C', not one a load module holds");
    cesd_module(&b, 0);
    b.b[8 + 1] = 0x05;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 9: ESD name byte X'05' is not a name character");
    cesd_module(&b, 0);
    b.b[8 + 64 + 11] = 0x00;                            /* $PRIVATE moved onto MAIN's end */
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 72: section $PRIVATE at 800 overlaps MAIN (0-802)");
    cesd_module(&b, 0);
    b.b[0] = 0x80;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD),
                 "byte 0: not a load module: the first record is X'80'");
    cesd_module(&b, 1);
    b.b[1] += 4;
    expect_error(load_kind(pm, b.b, b.n, FST_MAP_CESD), "byte 0: RDW length 112 does not fit");
    assert_int_equal(fst_pm_nmodules(pm), 0);
    fst_pm_free(pm);
}

/* ---- CSV ---- */

static char *to_csv(const fst_pm *pm, int absolute)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_int_equal(fst_pm_write_csv(pm, f, absolute, &err), 0);
    fclose(f);
    return s;
}

static void csv_round_trip(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, basic, NULL), 0);
    char *a = to_csv(pm, 0);
    assert_string_equal(a, "name,type,origin,length\n"
                           "PROG,MODULE,0,1D0\n"
                           "MAIN,EP,0,\n"
                           "MAIN,SD,0,100\n"
                           "SUBA,SD,100,80\n"
                           "SUBA1,LR,108,\n"
                           "SUBA2,LR,110,\n"
                           "SUBA3,LR,120,\n"
                           "$PRIVATE,PC,180,10\n"
                           "$BLANKCOM,CM,190,40\n");
    fst_pm *back = fst_pm_new();
    assert_int_equal(fst_map_detect(a, strlen(a)), FST_MAP_CSV);
    assert_int_equal(load(back, a, NULL), 0);
    char *b = to_csv(back, 0);
    assert_string_equal(a, b);
    assert_int_equal(sym(back, 4)->section, 1);
    free(b);

    assert_int_equal(fst_pm_set_load_point(pm, -1, 0x20000, &err), 0);   /* absolute */
    char *c = to_csv(pm, 1);
    assert_non_null(strstr(c, "PROG,MODULE,20000,1D0\nMAIN,EP,20000,\n"));
    assert_non_null(strstr(c, "SUBA1,LR,20108,\n"));
    fst_pm *abs = fst_pm_new();
    assert_int_equal(load(abs, c, NULL), 0);
    assert_true(fst_pm_module_at(abs, 0)->has_load_point);
    assert_int_equal(fst_pm_module_at(abs, 0)->load_point, 0x20000);
    char *d = to_csv(abs, 0);
    assert_string_equal(a, d);
    fst_pm_free(pm), fst_pm_free(back), fst_pm_free(abs);
    free(a), free(c), free(d);
}

static void csv_forms(void **state)
{
    (void)state;
    static const char plain[] =               /* no header, no MODULE row, 0x, aliases, CRLF */
        "MAIN,csect,0x20000,0x100\r\n"
        "\"SUB,1\",SD,20100,80,extra,columns\r\n"
        "ENT,entry,20110,\r\n"
        "\r\n"
        "COM,COMMON,20180,20\r\n";
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, plain, "PGM"), 0);
    assert_string_equal(fst_pm_module_at(pm, 0)->name, "PGM");
    assert_false(fst_pm_module_at(pm, 0)->has_load_point);
    expect_sym(pm, 1, "SUB,1", FST_PM_SD, 0x20100, 0x80);
    expect_sym(pm, 2, "ENT", FST_PM_LR, 0x20110, 0);
    expect_sym(pm, 3, "COM", FST_PM_CM, 0x20180, 0x20);
    assert_int_equal(sym(pm, 2)->section, 1);
    char *s = to_csv(pm, 0);
    assert_non_null(strstr(s, "\"SUB,1\",SD,20100,80\n"));
    free(s);
    fst_pm_free(pm);

    pm = fst_pm_new();                        /* sections without a length */
    assert_int_equal(load(pm, "X,MODULE,0,100\nA,SD,0,\nB,SD,20,\nB1,LR,30,\n", NULL), 0);
    expect_sym(pm, 0, "A", FST_PM_SD, 0, 0x20);      /* to the next section */
    expect_sym(pm, 1, "B", FST_PM_SD, 0x20, 0xE0);   /* to TOTAL LENGTH */
    assert_false(sym(pm, 1)->open_end);
    fst_pm_free(pm);
    pm = fst_pm_new();
    assert_int_equal(load(pm, "A,SD,0,\nB,SD,20,\nB1,LR,30,\n", NULL), 0);
    assert_true(sym(pm, 1)->open_end);               /* nothing bounds the last one */
    assert_int_equal(sym(pm, 2)->section, 1);
    assert_int_equal(fst_pm_set_load_point(pm, -1, 0x1000, &err), 0);
    assert_string_equal(fst_pm_find_addr(pm, 0x5000)->name, "B1");
    s = to_csv(pm, 0);
    assert_non_null(strstr(s, "\nB,SD,20,\n"));
    free(s);
    uint8_t mem[0x100] = { 0 };
    fst_image_seg seg = { 0x1000, sizeof mem, mem };
    fst_pm_bound_by_image(pm, &seg, 1);
    expect_sym(pm, 1, "B", FST_PM_SD, 0x20, 0xE0);
    assert_null(fst_pm_find_addr(pm, 0x5000));
    fst_pm_free(pm);
}

static void csv_malformed(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    static const char good[] = "name,type,origin,length\nA,SD,0,10\nB,LR,4,\n";
    expect_error(load_edit(pm, good, "A,SD,0,10", "A,SD,0,1G"),
                 "t.lst:2: bad hex in the length column: '1G'");
    expect_error(load_edit(pm, good, "A,SD,0,10", "A,SD,zz,10"),
                 "t.lst:2: bad hex in the origin column: 'zz'");
    expect_error(load_edit(pm, good, "B,LR", "B,XX"), "t.lst:3: unknown type 'XX'");
    expect_error(load_edit(pm, good, "B,LR,4,", "B,PR,4,"),
                 "t.lst:3: no length for pseudo-register 'B'");
    expect_error(load_edit(pm, good, "B,LR,4,", "B,LR,40,"),
                 "t.lst:3: label B at 40 lies in no control section");
    expect_error(load_edit(pm, good, "B,LR,4,", "B,LR"), "t.lst:3: expected name,type,origin,length");
    expect_error(load_edit(pm, good, "B,LR,4,", "\"B,LR,4,"), "the file ends inside a quoted field");
    expect_error(load_edit(pm, good, "B,LR,4,", "B\"x,LR,4,"), "t.lst:3: ");
    expect_error(load_edit(pm, good, "A,SD,0,10\n", "X,MODULE,100,\nA,SD,0,10\n"),
                 "t.lst:3: origin outside the module's address range: '0'");
    expect_error(load(pm, "name,type,origin,length\n", NULL), "no symbols in the CSV map");
    assert_int_equal(fst_pm_nmodules(pm), 0);
    fst_pm_free(pm);
}

/* ---- nm ---- */

static const char nm_posix[] =      /* s390x-linux-gnu-nm -P -n --defined-only (notes §5) */
    "MAIN T 20000 84\n"
    "VSUB t 20038 \n"
    "SAVMAIN t 2003c \n"
    "SUB T 20088 16\n"
    "IBCOM# T 200a0 2\n"
    "TAIL t 200a8 \n"
    "DATA1 d 200c0 \n"
    "__bss_start T 210a8 \n"
    "_edata T 210a8 \n"
    "_end T 210a8 \n";

static void check_nm(const fst_pm *pm)
{
    const fst_pm_module *m = fst_pm_module_at(pm, 0);
    assert_int_equal(m->kind, FST_MAP_NM);
    assert_true(m->has_load_point);
    assert_int_equal(m->load_point, 0x20000);
    assert_int_equal(fst_pm_nsyms(pm), 6);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x84);
    expect_sym(pm, 1, "VSUB", FST_PM_LR, 0x38, 0);
    expect_sym(pm, 2, "SAVMAIN", FST_PM_LR, 0x3C, 0);
    expect_sym(pm, 3, "SUB", FST_PM_SD, 0x88, 0x16);
    expect_sym(pm, 4, "IBCOM#", FST_PM_SD, 0xA0, 2);
    expect_sym(pm, 5, "TAIL", FST_PM_SD, 0xA8, 0x18);     /* to the data that follows */
    assert_string_equal(fst_pm_find_addr(pm, 0x2003E)->name, "SAVMAIN");
    assert_string_equal(fst_pm_find_addr(pm, 0x20010)->name, "MAIN");
}

static void nm_output(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(fst_map_detect(nm_posix, strlen(nm_posix)), FST_MAP_NM);
    assert_int_equal(load(pm, nm_posix, NULL), 0);
    check_nm(pm);
    fst_pm_free(pm);
    static const char bsd[] =
        "fort.elf:\n"
        "00020000 00000084 T MAIN\n"
        "00020038 t VSUB\n"
        "0002003c t SAVMAIN\n"
        "00020088 00000016 T SUB\n"
        "000200a0 00000002 T IBCOM#\n"
        "000200a8 t TAIL\n"
        "000200c0 d DATA1\n"
        "         U printf\n"
        "000210a8 T _end\n";
    pm = fst_pm_new();
    assert_int_equal(load(pm, bsd, NULL), 0);
    check_nm(pm);
    expect_error(load_edit(pm, nm_posix, "SUB T 20088 16", "SUB T 2008g 16"),
                 "t.lst:4: not a line of nm output: 'SUB T 2008g 16'");
    expect_error(load(pm, "DATA d 100\n", NULL), "no text symbols");
    expect_error(load(pm, "MAIN T 20020 \nSUBA T 20070 \nSUBB T 200b0 \n", NULL),
                 "t.lst: the module from t.lst at 20020-200B0 overlaps the module from t.lst at 20000-200C0");
    fst_pm_free(pm);
    pm = fst_pm_new();
    assert_int_equal(load(pm, "MAIN T 20020 \nSUBA T 20070 \nSUBB T 200b0 \n", NULL), 0);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0, 0x50);   /* the test programs: no sizes */
    expect_sym(pm, 2, "SUBB", FST_PM_SD, 0x90, 0);
    assert_true(sym(pm, 2)->open_end);
    assert_false(fst_pm_module_at(pm, 0)->has_total);
    assert_string_equal(fst_pm_find_addr(pm, 0x20400)->name, "SUBB");
    assert_int_equal(load(pm, "\177ELF\1\2\1", NULL), -1);
    assert_non_null(strstr(err.msg, "an ELF file: give its symbols as `nm -P t.lst` prints"));
    assert_int_equal(fst_pm_nmodules(pm), 1);
    fst_pm_free(pm);
}

/* ---- storage images ---- */

static void put_name(uint8_t *p, const char *s, size_t n, int right, uint8_t pad)
{
    size_t l = strlen(s);
    memset(p, pad, n);
    for (size_t i = 0; i < l; i++)
        p[(right ? n - l : 0) + i] = fst_ascii_to_ebcdic(s[i]);
}

static void fort_g(uint8_t *p, const char *name)     /* 47F0F00C 06 name, blank padded */
{
    p[0] = 0x47, p[1] = 0xF0, p[2] = 0xF0, p[3] = 0x0C, p[4] = 6;
    put_name(p + 5, name, 6, 0, 0x40);
    p[11] = 0x40;
    p[12] = 0x90, p[13] = 0xEC, p[14] = 0xD0, p[15] = 0x0C;
}

static void fort_h(uint8_t *p, const char *name)     /* 47F0F00C 07 name, right, zero pad */
{
    p[0] = 0x47, p[1] = 0xF0, p[2] = 0xF0, p[3] = 0x0C, p[4] = 7;
    put_name(p + 5, name, 7, 1, 0x00);
    p[12] = 0x90, p[13] = 0xEC, p[14] = 0xD0, p[15] = 0x0C;
}

static void os_id(uint8_t *p, const char *name)      /* 47F0F010 08 'NAME    ' ... */
{
    p[0] = 0x47, p[1] = 0xF0, p[2] = 0xF0, p[3] = 0x10, p[4] = 8;
    put_name(p + 5, name, 8, 0, 0x40);
}

static void ebcdic(void **state)
{
    (void)state;
    assert_int_equal(fst_ascii_to_ebcdic('A'), 0xC1);
    assert_int_equal(fst_ascii_to_ebcdic('#'), 0x7B);
    assert_int_equal(fst_ascii_to_ebcdic('$'), 0x5B);
    assert_int_equal(fst_ascii_to_ebcdic('@'), 0x7C);
    assert_int_equal(fst_ascii_to_ebcdic(' '), 0x40);
    assert_int_equal(fst_ascii_to_ebcdic('\n'), 0);
    assert_int_equal(fst_ebcdic_to_ascii(0xE9), 'Z');
    assert_int_equal(fst_ebcdic_to_ascii(0xF0), '0');
    assert_int_equal(fst_ebcdic_to_ascii(0x00), 0);
    for (int c = ' '; c <= '~'; c++)
        assert_int_equal(fst_ebcdic_to_ascii(fst_ascii_to_ebcdic((char)c)), c);
}

static void image_scan(void **state)
{
    (void)state;
    uint8_t mem[0x200];
    memset(mem, 0x07, sizeof mem);
    char name[9];
    fort_g(mem, "MAIN");
    fort_h(mem + 0x40, "SUB1");
    os_id(mem + 0x80, "IHCTRCH");
    fort_g(mem + 0xC1, "ODD");                           /* not on a halfword */
    fort_g(mem + 0x100, "1BAD");                         /* not a name */
    fort_h(mem + 0x140, "ABCDEFG");
    assert_int_equal(fst_ident_at(mem, 16, 0, name), FST_ID_FORTG);
    assert_string_equal(name, "MAIN");
    assert_int_equal(fst_ident_at(mem + 0x40, 16, 0, name), FST_ID_FORTH);
    assert_string_equal(name, "SUB1");
    assert_int_equal(fst_ident_at(mem + 0x80, 16, 0, name), 0);
    assert_int_equal(fst_ident_at(mem + 0x80, 16, FST_SCAN_OS, name), FST_ID_OS);
    assert_string_equal(name, "IHCTRCH");
    assert_int_equal(fst_ident_at(mem, 8, 0, name), 0);  /* cut short */

    fst_image_seg segs[2] = { { 0x20000, sizeof mem, mem }, { 0x20140, 4, (uint8_t *)"\0\0\0\0" } };
    fst_id_hit *h;
    size_t n;
    assert_int_equal(fst_scan_ids(segs, 1, 0, &h, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(h[0].addr, 0x20000);
    assert_string_equal(h[1].name, "SUB1");
    assert_string_equal(h[2].name, "ABCDEFG");
    free(h);
    assert_int_equal(fst_scan_ids(segs, 2, FST_SCAN_OS, &h, &n, &err), 0);
    assert_int_equal(n, 3);                              /* ABCDEFG overlaid by piece 2 */
    assert_string_equal(h[2].name, "IHCTRCH");
    assert_int_equal(h[2].style, FST_ID_OS);
    free(h);

    fst_pm *pm = fst_pm_new();
    assert_int_equal(fst_pm_from_image(pm, "img", segs, 1, 0, &err), 0);
    assert_int_equal(fst_pm_nsyms(pm), 3);
    expect_sym(pm, 0, "MAIN", FST_PM_SD, 0x20000, 0x40);
    expect_sym(pm, 2, "ABCDEFG", FST_PM_SD, 0x20140, 0xC0);   /* to the end of the piece */
    assert_string_equal(fst_pm_find_addr(pm, 0x20050)->name, "SUB1");
    memset(mem, 0, sizeof mem);
    expect_error(fst_pm_from_image(pm, "img", segs, 1, 0, &err), "img: no routine identifier");
    fst_pm_free(pm);
}

/* ---- the load point ---- */

static void load_point_image(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, fortmap, NULL), 0);
    uint8_t mem[0x1000];
    memset(mem, 0, sizeof mem);
    fort_g(mem + 0x800, "MAIN");
    fort_h(mem + 0x840, "SUB1");
    fort_g(mem + 0x880, "SUB2");
    fst_image_seg seg = { 0x20000, sizeof mem, mem };
    fst_pm_evidence ev = { .image = &seg, .nimage = 1 };
    uint64_t lp = 0;
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x20800);
    assert_int_equal(fst_pm_check_load_point(pm, -1, 0x20800, &ev, &err), 0);
    expect_error(fst_pm_check_load_point(pm, -1, 0x20000, &ev, &err),
                 "load point 20000 does not match the storage image: the routine names in it "
                 "line up at 20800 (3 names)");

    fort_g(mem + 0x100, "SUB2");                        /* a stray copy: outvoted 3 to 1 */
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x20800);
    expect_error(fst_pm_check_load_point(pm, -1, 0x20080, &ev, &err), "does not match");
    fort_g(mem + 0x080, "MAIN");                        /* a whole second copy: a tie */
    fort_g(mem + 0x0C0, "SUB1");
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err),
                 "ambiguous load point: routine names in the storage image line up at 20080 "
                 "(3 names), 20800 (3 names)");
    assert_int_equal(fst_pm_check_load_point(pm, -1, 0x20080, &ev, &err), 0);
    uint64_t calls[] = { 0x20800, 0x20840, 0x20890, 0xFD1234 };   /* the trace decides */
    ev.addrs = calls, ev.naddrs = 4;
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x20800);
    ev.confined = 1;                                    /* so does a confined trace */
    ev.naddrs = 1;
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x20800);
    uint64_t far[] = { 0x30000 };
    ev.addrs = far;
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), "inconsistent evidence");
    expect_error(fst_pm_check_load_point(pm, -1, 0x20800, &ev, &err),
                 "executed address 30000 lies outside the module at 20800-20900");
    fst_pm_free(pm);
}

static void load_point_trace(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, fortmap, NULL), 0);
    /* call targets: the OS entering MAIN, MAIN calling SUB1 and SUB2E, the OS's own code */
    uint64_t t[] = { 0x51000, 0x51040, 0x51090, 0xFD1234, 0xFD1300, 0x51040 };
    fst_pm_evidence ev = { .addrs = t, .naddrs = 6 };
    uint64_t lp;
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x51000);
    assert_int_equal(fst_pm_check_load_point(pm, -1, 0x51000, &ev, &err), 0);
    ev.naddrs = 2;                        /* MAIN and SUB1 fit as well as SUB1 and SUB2 */
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err),
                 "ambiguous load point: the executed addresses fit 50F80 (2 routine starts, 0 "
                 "other addresses), 50FC0 (2 routine starts, 0 other addresses), 51000 (2");
    /* every executed address: the starts drown in the other addresses */
    uint64_t all[] = { 0x51000, 0x5100C, 0x51010, 0x51014, 0x51018, 0x51040, 0x5104C, 0x51050,
                       0x51054, 0x51090, 0x5109C, 0x510A0 };
    ev.addrs = all, ev.naddrs = 12;
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), "ambiguous load point");
    ev.naddrs = 0;
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), "no evidence");
    uint64_t span[] = { 0x51000, 0x510FE };              /* a confined trace that fills it */
    ev = (fst_pm_evidence){ .addrs = span, .naddrs = 2, .confined = 1 };
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x51000);
    span[1] = 0x51100;
    expect_error(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), "span more than the module");
    fst_pm_free(pm);
    /* a map that gives no lengths (a CSV's module and last section): the last routine holds
    ** its start all the same. An attached window's calls, MAIN never entered, one of them to
    ** the last routine: once counted past the module's end, its misses went below zero */
    pm = fst_pm_new();
    assert_int_equal(load(pm, "name,type,origin,length\nM,MODULE,0,\nMAIN,SD,0,\nSUB1,SD,A0,\nSUB2,SD,148,\n", NULL), 0);
    uint64_t win[] = { 0x200C0, 0x20168 };
    ev = (fst_pm_evidence){ .addrs = win, .naddrs = 2 };
    assert_int_equal(fst_pm_find_load_point(pm, -1, &ev, &lp, &err), 0);
    assert_int_equal(lp, 0x20020);
    fst_pm_free(pm);
}

/* ---- the model: several modules, load points, lookups ---- */

static void modules(void **state)
{
    (void)state;
    fst_pm *pm = fst_pm_new();
    assert_int_equal(load(pm, fortmap, NULL), 0);
    assert_int_equal(load(pm, basic, NULL), 0);
    assert_null(fst_pm_find_addr(pm, 0x20000));          /* no load point yet */
    expect_error(fst_pm_set_load_point(pm, -1, 0x20000, &err), "has 2 modules: say which one");
    assert_int_equal(fst_pm_module_find(pm, "PROG"), 1);
    assert_int_equal(fst_pm_set_load_point(pm, 0, 0x20000, &err), 0);
    expect_error(fst_pm_set_load_point(pm, 1, 0x200F8, &err),
                 "module PROG at 200F8-202C8 overlaps module FORT at 20000-20100");
    assert_int_equal(fst_pm_set_load_point(pm, 1, 0x30000, &err), 0);
    assert_string_equal(fst_pm_find_addr(pm, 0x20095)->name, "SUB2E");
    assert_string_equal(fst_pm_find_addr(pm, 0x30115)->name, "SUBA2");
    assert_string_equal(fst_pm_find_section(pm, 0x30115)->name, "SUBA");
    assert_string_equal(fst_pm_find_entry(pm, 0x30180)->name, "$PRIVATE");
    assert_null(fst_pm_find_entry(pm, 0x30181));
    assert_null(fst_pm_find_addr(pm, 0x301D0));
    assert_null(fst_pm_find_name(pm, "NOSUCH"));
    assert_string_equal(fst_pm_mainline(pm, 1)->name, "MAIN");
    assert_int_equal(fst_pm_mainline(pm, 1)->module, 1);

    fst_pm *all = fst_pm_new();                          /* merge keeps load points */
    assert_int_equal(fst_pm_merge(all, pm, &err), 0);
    assert_int_equal(fst_pm_nsyms(all), fst_pm_nsyms(pm));
    assert_string_equal(fst_pm_find_addr(all, 0x30115)->name, "SUBA2");
    expect_error(fst_pm_merge(all, pm, &err), "overlaps");
    assert_int_equal(fst_pm_nmodules(all), 2);
    char *a = to_csv(pm, 1), *b = to_csv(all, 1);
    assert_string_equal(a, b);
    free(a), free(b);
    fst_pm_free(all);
    fst_pm_free(pm);
}

static void detect_and_files(void **state)
{
    (void)state;
    assert_int_equal(fst_map_detect(basic, strlen(basic)), FST_MAP_IEWL);
    assert_int_equal(fst_map_detect("name,type,origin,length\n", 24), FST_MAP_CSV);
    assert_int_equal(fst_map_detect("hello world\n", 12), FST_MAP_AUTO);
    assert_int_equal(fst_map_kind_parse("cesd"), FST_MAP_CESD);
    assert_int_equal(fst_map_kind_parse("elf"), -1);
    assert_string_equal(fst_map_kind_name(FST_MAP_LOADER), "loader");
    fst_pm *pm = fst_pm_new();
    expect_error(load(pm, "hello world\n", NULL), "t.lst: not a map fst knows");
    expect_error(load(pm, "", NULL), "t.lst: empty file");

    char dir[] = "/tmp/fst-test-maps-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/job.lst", dir);
    char *second = edit(basic, "****PROG      NOW", "****OTHER     NOW");
    FILE *f = fopen(path, "w");
    fputs(basic, f), fputs(second, f);
    fclose(f);
    char spec[80];
    snprintf(spec, sizeof spec, "%s(OTHER)", path);      /* PATH(MEMBER) */
    assert_int_equal(fst_pm_load(pm, spec, NULL, &err), 0);
    assert_string_equal(fst_pm_module_at(pm, 0)->name, "OTHER");
    assert_string_equal(fst_pm_module_at(pm, 0)->file, path);
    expect_error(fst_pm_load(pm, path, NULL, &err), "2 link steps have a map");
    snprintf(spec, sizeof spec, "%s/none.lst", dir);
    expect_error(fst_pm_load(pm, spec, NULL, &err), "none.lst: No such file");
    remove(path);
    rmdir(dir);
    free(second);
    fst_pm_free(pm);
}

/* Cut and damaged input of every kind: an error or a model, never a crash (ASan/UBSan). */
static void robustness(void **state)
{
    (void)state;
    size_t len;
    char *b = fixture("4map3270-install-1-v4-1.iewl", &len);
    if (!b)
        skip();
    unsigned seed = 12345;
    buf c;
    cesd_module(&c, 0);
    const char *texts[] = { basic, loader, nm_posix, "name,type,origin,length\nA,SD,0,10\n" };
    for (int round = 0; round < 400; round++) {
        for (int k = -2; k < 4; k++) {
            const char *src = k == -2 ? b : k == -1 ? (const char *)c.b : texts[k];
            size_t n = k == -2 ? len : k == -1 ? c.n : strlen(texts[k]);
            char *t = malloc(n + 1);
            memcpy(t, src, n);
            seed = seed * 1103515245u + 12345u;
            size_t cut = round % 2 ? n : (seed >> 8) % (n + 1);
            for (int f = 0; f < round % 5; f++) {        /* a few bytes changed */
                seed = seed * 1103515245u + 12345u;
                t[(seed >> 8) % n] = (char)(seed >> 20);
            }
            fst_pm *pm = fst_pm_new();
            fst_pm_opts o = { .kind = round % 3 ? FST_MAP_AUTO : (fst_map_kind)(1 + round % 5) };
            int rc = fst_pm_load_mem(pm, "fuzz", t, cut, &o, &err);
            assert_true(rc == 0 || (rc == -1 && !strncmp(err.msg, "fuzz", 4)));
            if (rc == 0 && fst_pm_set_load_point(pm, -1, 0x20000, &err) == 0)
                fst_pm_find_addr(pm, 0x20100);
            fst_pm_free(pm);
            free(t);
        }
    }
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(iewl_basic),
        cmocka_unit_test(iewl_asa),
        cmocka_unit_test(iewl_machine_cc),
        cmocka_unit_test(iewl_bare_lines),
        cmocka_unit_test(iewl_steps),
        cmocka_unit_test(iewl_overlay_tso),
        cmocka_unit_test(iewl_pseudo_registers),
        cmocka_unit_test(iewl_malformed),
        cmocka_unit_test(iewl_fixtures),
        cmocka_unit_test(loader_map),
        cmocka_unit_test(loader_malformed),
        cmocka_unit_test(cesd_records),
        cmocka_unit_test(cesd_overlay),
        cmocka_unit_test(cesd_malformed),
        cmocka_unit_test(csv_round_trip),
        cmocka_unit_test(csv_forms),
        cmocka_unit_test(csv_malformed),
        cmocka_unit_test(nm_output),
        cmocka_unit_test(ebcdic),
        cmocka_unit_test(image_scan),
        cmocka_unit_test(load_point_image),
        cmocka_unit_test(load_point_trace),
        cmocka_unit_test(modules),
        cmocka_unit_test(detect_and_files),
        cmocka_unit_test(robustness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
