/*
** capture/module/fstmod_herc.h — what differs, for fst's module (fstmod.c), between the
** two Hercules it is built for: Debian's Hercules 3.13 (lib/fst-hercules313.so) and SDL
** Hercules 4.x (lib/fst-hercules4.so, FST_HERC4 defined: built against the 4.9 sources).
** Included after Hercules' own headers, by fstmod.c only.
**
** Opcode tables. fst_patch1 (a one-byte opcode) and fst_patch2 (a two-byte one) put a
** wrapper in, keeping what was there for the wrapper to call (FST_ORIG1, FST_ORIG2 of the
** instruction); fst_patch_done makes the CPUs use the tables; fst_unpatch puts it all
** back. 3.13: a global table per opcode and architecture (opcode_table, opcode_b2xx) that
** each CPU copies into its REGS when it starts, and again at copy_opcode_tables(), which
** fst_patch_done calls before copying it into every CPU there is. 4.x: one runtime table
** per architecture, indexed by the first two bytes, that every CPU's REGS points into
** (so a late load patches running CPUs too); its entries are written directly (Hercules'
** the_real_replace_opcode cannot give back the 256 routines of a one-byte opcode).
**
** Everything else the module reads (ip, aip, AIV, aie, psw, execflag, the PSA in
** mainstor, sysblk.regs_copy_len, the debug_program_interrupt hook) has the same name and
** meaning in both; 4.x's branch routines leave ip at the branch itself until they branch or
** fall through (3.13's advance it first): the module looks only at where ip is after the
** routine, which is the same in both.
*/
#ifndef FSTMOD_HERC_H
#define FSTMOD_HERC_H

#ifdef FST_HERC4
typedef INSTR_FUNC fst_ifn;
#define FST_A370 ARCH_370_IDX
#define FST_A900 ARCH_900_IDX
#define FST_HERC_NAME "fst-hercules4"
#define FST_MAXCPU MAX_CPU_ENGS

/* 4.x's S/370 runtime table, indexed by the instruction's first two bytes (a BC's mask
** selects one of several routines, OPTION_OPTINST): its address, from Hercules' own
** init_regs_runtime_opcode_pointers on a REGS of ours (the table is static in opcode.c). */
static fst_ifn fst_orig[256 * 256];   /* what the module replaced, by the same index */
#define FST_ORIG1(inst) fst_orig[(inst)[0] << 8 | (inst)[1]]
#define FST_ORIG2(inst) fst_orig[(inst)[0] << 8 | (inst)[1]]

static fst_ifn *fst_table(void)
{
    static fst_ifn *t;
    if (!t) {
        REGS *r = calloc(1, sizeof *r);
        if (!r)
            abort();
        init_regs_runtime_opcode_pointers(r);
        t = (fst_ifn *)r->s370_runtime_opcode_xxxx;
        free(r);
    }
    return t;
}

static void fst_patch_at(unsigned i, fst_ifn f)
{
    fst_ifn *t = fst_table();
    if (!fst_orig[i])
        fst_orig[i] = t[i];
    t[i] = f;
}

/* A one-byte opcode: every routine its second bytes select. */
static void fst_patch1(uint8_t op, fst_ifn f)
{
    for (unsigned j = 0; j < 256; j++)
        fst_patch_at((unsigned)op << 8 | j, f);
}

static void fst_patch2(uint8_t op1, uint8_t op2, fst_ifn f)
{
    fst_patch_at((unsigned)op1 << 8 | op2, f);
}

static void fst_patch_done(void) {}

static void fst_unpatch(void)
{
    fst_ifn *t = fst_table();
    for (unsigned i = 0; i < 256 * 256; i++)
        if (fst_orig[i]) {
            t[i] = fst_orig[i];
            fst_orig[i] = NULL;
        }
}
#else
typedef zz_func fst_ifn;
#define FST_A370 ARCH_370
#define FST_A900 ARCH_900
#define FST_HERC_NAME "fst-hercules313"
#define FST_MAXCPU MAX_CPU_ENGINES

/* 3.13's global tables: one routine a one-byte opcode (opcode_table), B2xx's apart. */
static fst_ifn fst_orig[256], fst_origb2[256];
#define FST_ORIG1(inst) fst_orig[(inst)[0]]
#define FST_ORIG2(inst) fst_origb2[(inst)[1]]

static void fst_patch1(uint8_t op, fst_ifn f)
{
    if (!fst_orig[op])
        fst_orig[op] = opcode_table[op][ARCH_370];
    opcode_table[op][ARCH_370] = f;
}

/* B2xx only (the module wraps SPKA, B20A). */
static void fst_patch2(uint8_t op1, uint8_t op2, fst_ifn f)
{
    (void)op1;
    if (!fst_origb2[op2])
        fst_origb2[op2] = opcode_b2xx[op2][ARCH_370];
    opcode_b2xx[op2][ARCH_370] = f;
}

static void fst_patch_done(void)
{
    copy_opcode_tables();
    for (int i = 0; i < MAX_CPU_ENGINES; i++)
        if (sysblk.regs[i])
            memcpy(sysblk.regs[i]->s370_opcode_table, s370_opcode_table, 256 * sizeof(zz_func));
}

static void fst_unpatch(void)
{
    for (unsigned i = 0; i < 256; i++) {
        if (fst_orig[i])
            opcode_table[i][ARCH_370] = fst_orig[i];
        if (fst_origb2[i])
            opcode_b2xx[i][ARCH_370] = fst_origb2[i];
        fst_orig[i] = fst_origb2[i] = NULL;
    }
    fst_patch_done();
}
#endif

#endif
