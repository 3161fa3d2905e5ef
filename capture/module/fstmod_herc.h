/*
** capture/module/fstmod_herc.h — what differs, for fst's module (fstmod.c), between the
** two Hercules it is built for: Debian's Hercules 3.13 (lib/fst-hercules313.so) and SDL
** Hercules 4.x (lib/fst-hercules4.so, FST_HERC4 defined: built against the 4.9 sources).
** Included after Hercules' own headers, by fstmod.c only.
**
** Opcode tables. fst_patch(arch, op1, op2, f) puts a wrapper in for one instruction of one
** architecture (S/370, ESA/390, z/Architecture), keeping what was there for the wrapper to
** call (FST_ORIG1 of a one-byte opcode, FST_ORIGX of any); fst_patch_done makes the CPUs
** use the tables; fst_unpatch puts it all back; fst_patch_live(0/1) takes the
** wrappers out and puts them in again, keeping the originals (while no reader is
** attached). 3.13: a global table per opcode and architecture (opcode_table, opcode_b2xx) that
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

/* The opcode tables an instruction's routine is found in: by its first byte alone (K1), or
** then by a second part (fst_opx: byte 1's low nibble for A7, C0 and CC; byte 1 for 01,
** B2 and B9; byte 5 for E3, EB and EC). */
enum { FST_K1, FST_KA7, FST_KC0, FST_KCC, FST_K01, FST_KB2, FST_KB9, FST_KE3, FST_KEB, FST_KEC, FST_NK };

static inline unsigned fst_kind(uint8_t op1)
{
    switch (op1) {
    case 0xA7: return FST_KA7;
    case 0xC0: return FST_KC0;
    case 0xCC: return FST_KCC;
    case 0x01: return FST_K01;
    case 0xB2: return FST_KB2;
    case 0xB9: return FST_KB9;
    case 0xE3: return FST_KE3;
    case 0xEB: return FST_KEB;
    case 0xEC: return FST_KEC;
    default: return FST_K1;
    }
}

static inline unsigned fst_opx(const BYTE *inst)
{
    switch (fst_kind(inst[0])) {
    case FST_KA7: case FST_KC0: case FST_KCC: return inst[1] & 0x0F;
    case FST_K01: case FST_KB2: case FST_KB9: return inst[1];
    case FST_KE3: case FST_KEB: case FST_KEC: return inst[5];
    default: return inst[0];
    }
}

#ifdef FST_HERC4
typedef INSTR_FUNC fst_ifn;
#define FST_A370 ARCH_370_IDX
#define FST_A390 ARCH_390_IDX
#define FST_A900 ARCH_900_IDX
#define FST_HERC_NAME "fst-hercules4"
#define FST_MAXCPU MAX_CPU_ENGS

/* 4.x's runtime tables, per architecture: one indexed by the instruction's first two bytes
** (a BC's mask selects one of several routines, OPTION_OPTINST), and for E3, EB and EC one
** by byte 5 (E3 has two: E3_0 for the optimised LG and STG): their addresses, from
** Hercules' own init_regs_runtime_opcode_pointers on a REGS of ours (the tables are static
** in opcode.c). fst_orig keeps what the module replaced, by the same indexes. */
enum { FST_T2, FST_TE3, FST_TE3_0, FST_TEB, FST_TEC, FST_NT };
static fst_ifn fst_orig[3][256 * 256];
static fst_ifn fst_origx[FST_NT][3][256];
static fst_ifn *fst_tab[FST_NT][3];
#define FST_ORIG1(inst, regs) fst_orig[(regs)->arch_mode][(inst)[0] << 8 | (inst)[1]]

static inline fst_ifn fst_origx_of(const BYTE *inst, const REGS *regs)
{
    switch (inst[0]) {
    case 0xE3: return fst_origx[FST_TE3][regs->arch_mode][inst[5]];
    case 0xEB: return fst_origx[FST_TEB][regs->arch_mode][inst[5]];
    case 0xEC: return fst_origx[FST_TEC][regs->arch_mode][inst[5]];
    default: return FST_ORIG1(inst, regs);
    }
}
#define FST_ORIGX(inst, regs) fst_origx_of(inst, regs)
/* FST_ORIGX of an A7x, C0x or CCx instruction (its kind k: FST_KA7, ...), for a wrapper
** that only such instructions call: 4.x's table holds them by their first two bytes, no
** switch needed. */
#define FST_ORIG_NIB(k, inst, regs) FST_ORIG1(inst, regs)

#if defined(OPTION_OPTINST) && !defined(OPTION_NO_E3_OPTINST)
#define FST_TAB_E3_0(a, pre) fst_tab[FST_TE3_0][a] = (fst_ifn *)r->pre##_runtime_opcode_e3_0______xx;
#else
#define FST_TAB_E3_0(a, pre)
#endif

static void fst_tables(void)
{
    if (fst_tab[FST_T2][0])
        return;
    REGS *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    init_regs_runtime_opcode_pointers(r);
#define FST_TABS(a, pre)                                                   \
    fst_tab[FST_T2][a] = (fst_ifn *)r->pre##_runtime_opcode_xxxx;          \
    fst_tab[FST_TE3][a] = (fst_ifn *)r->pre##_runtime_opcode_e3________xx; \
    FST_TAB_E3_0(a, pre)                                                    \
    fst_tab[FST_TEB][a] = (fst_ifn *)r->pre##_runtime_opcode_eb________xx; \
    fst_tab[FST_TEC][a] = (fst_ifn *)r->pre##_runtime_opcode_ec________xx;
    FST_TABS(ARCH_370_IDX, s370)
    FST_TABS(ARCH_390_IDX, s390)
    FST_TABS(ARCH_900_IDX, z900)
#undef FST_TABS
    free(r);
}

static void fst_patch_at(fst_ifn *orig, fst_ifn *t, unsigned i, fst_ifn f)
{
    if (!t)
        return;
    if (!orig[i])
        orig[i] = t[i];
    t[i] = f;
}

/* The instruction op1 (op2: its second part, fst_opx) of architecture a: every routine
** that may run it (a one-byte opcode: those of all its second bytes; A7x, C0x, CCx: of
** all 16 values of byte 1's high nibble). */
static void fst_patch(int a, uint8_t op1, uint8_t op2, fst_ifn f)
{
    fst_tables();
    unsigned k = fst_kind(op1);
    if (k == FST_KE3 || k == FST_KEB || k == FST_KEC) {
        unsigned t = k == FST_KE3 ? FST_TE3 : k == FST_KEB ? FST_TEB : FST_TEC;
        fst_patch_at(fst_origx[t][a], fst_tab[t][a], op2, f);
        if (k == FST_KE3) /* the same routine, for E3 instructions with the optimised LG's first byte */
            fst_patch_at(fst_origx[FST_TE3_0][a], fst_tab[FST_TE3_0][a], op2, f);
        return;
    }
    for (unsigned j = 0; j < 256; j++)
        if (k == FST_K1 || ((k == FST_KA7 || k == FST_KC0 || k == FST_KCC) ? (j & 15) == op2 : j == op2))
            fst_patch_at(fst_orig[a], fst_tab[FST_T2][a], (unsigned)op1 << 8 | j, f);
}

static void fst_patch_done(void) {}

static void fst_unpatch(void)
{
    for (unsigned a = 0; a < 3; a++) {
        for (unsigned i = 0; i < 256 * 256; i++)
            if (fst_orig[a][i]) {
                fst_tab[FST_T2][a][i] = fst_orig[a][i];
                fst_orig[a][i] = NULL;
            }
        for (unsigned t = FST_TE3; t < FST_NT; t++)
            for (unsigned i = 0; i < 256; i++)
                if (fst_origx[t][a][i]) {
                    fst_tab[t][a][i] = fst_origx[t][a][i];
                    fst_origx[t][a][i] = NULL;
                }
    }
}

/* While no reader is attached (fstmod.c, "attach and detach"): on = 0 puts Hercules' own
** routines back in the table, keeping what was patched (fst_orig stays: a wrapper running
** on another CPU still calls it); on = 1 puts the wrappers in again. Each entry is one
** aligned pointer store: the CPUs, running, see the old or the new routine. */
static fst_ifn fst_wrap[3][256 * 256];
static fst_ifn fst_wrapx[FST_NT][3][256];
static void fst_live_at(fst_ifn *t, fst_ifn *orig, fst_ifn *wrap, int on)
{
    if (!*orig)
        return;
    if (!*wrap)
        *wrap = *t;
    *t = on ? *wrap : *orig;
}

static void fst_patch_live(int on)
{
    for (unsigned a = 0; a < 3; a++) {
        for (unsigned i = 0; i < 256 * 256; i++)
            fst_live_at(&fst_tab[FST_T2][a][i], &fst_orig[a][i], &fst_wrap[a][i], on);
        for (unsigned t = FST_TE3; t < FST_NT; t++)
            for (unsigned i = 0; fst_tab[t][a] && i < 256; i++)
                fst_live_at(&fst_tab[t][a][i], &fst_origx[t][a][i], &fst_wrapx[t][a][i], on);
    }
}
#else
typedef zz_func fst_ifn;
#define FST_A370 ARCH_370
#define FST_A390 ARCH_390
#define FST_A900 ARCH_900
#define FST_HERC_NAME "fst-hercules313"
#define FST_MAXCPU MAX_CPU_ENGINES

/* 3.13's global tables, [opcode][architecture], exported: opcode_table (one byte) and one
** per second part (A7 and C0, CC by byte 1's low nibble). copy_opcode_tables() copies them
** into the tables the CPUs use: its one-byte tables, which each CPU copies into its REGS
** (fst_patch_done copies them into every CPU there is), and the others, which the CPUs
** point to. fst_orig keeps what the module replaced. */
static fst_ifn fst_orig[3][256];
static fst_ifn fst_origx[FST_NK][3][256];
#define FST_ORIG1(inst, regs) fst_orig[(regs)->arch_mode][(inst)[0]]
#define FST_ORIGX(inst, regs) fst_origx[fst_kind((inst)[0])][(regs)->arch_mode][fst_opx(inst)]
/* FST_ORIGX of an A7x, C0x or CCx instruction (its kind k: FST_KA7, ...), without the
** switches of fst_kind and fst_opx: BRC, BRAS, BRCT, BRCL and BRASL, for a wrapper that
** only they call (recursion -O2: the switches were 2 % of Hercules' host instructions). */
#define FST_ORIG_NIB(k, inst, regs) fst_origx[k][(regs)->arch_mode][(inst)[1] & 0x0F]

static zz_func (*fst_gtab(unsigned k))[GEN_MAXARCH]
{
    switch (k) {
    case FST_KA7: return opcode_a7xx;
    case FST_KC0: return opcode_c0xx;
    case FST_KCC: return opcode_ccxx;
    case FST_K01: return opcode_01xx;
    case FST_KB2: return opcode_b2xx;
    case FST_KB9: return opcode_b9xx;
    case FST_KE3: return opcode_e3xx;
    case FST_KEB: return opcode_ebxx;
    case FST_KEC: return opcode_ecxx;
    default: return opcode_table;
    }
}

static void fst_patch(int a, uint8_t op1, uint8_t op2, fst_ifn f)
{
    unsigned k = fst_kind(op1), i = k == FST_K1 ? op1 : op2;
    fst_ifn *orig = k == FST_K1 ? &fst_orig[a][i] : &fst_origx[k][a][i];
    zz_func (*t)[GEN_MAXARCH] = fst_gtab(k);
    if (!*orig)
        *orig = t[i][a];
    t[i][a] = f;
    if (k == FST_K1) /* FST_ORIGX of a one-byte opcode */
        fst_origx[FST_K1][a][i] = *orig;
}

static void fst_patch_done(void)
{
    copy_opcode_tables();
    for (int i = 0; i < MAX_CPU_ENGINES; i++)
        if (sysblk.regs[i]) {
            memcpy(sysblk.regs[i]->s370_opcode_table, s370_opcode_table, 256 * sizeof(zz_func));
            memcpy(sysblk.regs[i]->s390_opcode_table, s390_opcode_table, 256 * sizeof(zz_func));
            memcpy(sysblk.regs[i]->z900_opcode_table, z900_opcode_table, 256 * sizeof(zz_func));
        }
}

static void fst_unpatch(void)
{
    for (unsigned k = 0; k < FST_NK; k++)
        for (unsigned a = 0; a < 3; a++)
            for (unsigned i = 0; i < 256; i++) {
                fst_ifn *orig = k == FST_K1 ? &fst_orig[a][i] : &fst_origx[k][a][i];
                if (*orig)
                    fst_gtab(k)[i][a] = *orig;
                *orig = NULL;
                fst_origx[k][a][i] = NULL;
            }
    fst_patch_done();
}

/* While no reader is attached (fstmod.c, "attach and detach"): on = 0 puts Hercules' own
** routines back (the global tables, then every CPU's copy), keeping what was patched
** (fst_orig stays: a wrapper running on another CPU still calls it); on = 1 the wrappers
** again. Each entry is one aligned pointer store: a running CPU sees the old or the new. */
static fst_ifn fst_wrap[FST_NK][3][256];
static void fst_patch_live(int on)
{
    for (unsigned k = 0; k < FST_NK; k++)
        for (unsigned a = 0; a < 3; a++)
            for (unsigned i = 0; i < 256; i++) {
                fst_ifn orig = k == FST_K1 ? fst_orig[a][i] : fst_origx[k][a][i];
                zz_func *e = &fst_gtab(k)[i][a];
                if (!orig)
                    continue;
                if (!fst_wrap[k][a][i])
                    fst_wrap[k][a][i] = *e;
                *e = on ? fst_wrap[k][a][i] : orig;
            }
    fst_patch_done();
}
#endif

#endif
