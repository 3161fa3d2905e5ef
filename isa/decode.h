/*
** isa/decode.h — S/370, ESA/390 and z/Architecture instruction decoding.
**
** The replayer decodes every traced instruction, so decoding is a pure table lookup:
** the first byte indexes a 256-entry table; the extended opcodes (01xx, A5x, A7x, B2xx,
** B3xx, B9xx, C0x-CCx, E3xx, E5xx, E6xx, E7xx, EBxx, ECxx, EDxx) index a second-level
** table by their second byte, by its low nibble, or by the sixth byte. All tables are
** static and const (isa/optable.h): no initialisation, no allocation, no locking,
** any thread. They hold every opcode of the Principles of Operation through z16
** (arch14): general, decimal, HFP, BFP, DFP, control, I/O and vector instructions.
**
** What a decode gives (fst_insn):
**   - the length (from the two top bits of the first byte, as fst_insn_len),
**   - the mnemonic and format ("BALR", RR); an opcode the tables do not know decodes as
**     mnemonic "?" with format FST_FMT_UNKNOWN and its length: decoding never fails
**     (the caller counts and reports them: fst-report does),
**   - the classification that call reconstruction needs (DESIGN §3), in `flags`:
**     branch at all, branch-and-link and its link register, whether this instance can
**     branch at all (`BALR r,0`, `BCR 0,r`, `BCR m,0`, `BC 0,x` never branch), whether it
**     is conditional, and the static target when it is computable without registers
**     (relative branches, compare-and-branch relative; RX/RS/RRS/RIS branches whose base
**     and index are both 0; EX/EXRL),
**   - a disassembly in the assembler's notation, as Hercules prints it (fst_disasm).
**
** Opcodes that mean different things in different architectures: 84/85 are WRD/RDD in
** S/370 and BRXH/BRXLE from ESA/390 on; B200/B201 are CONCS/DISCS in S/370 and
** LBEAR/STBEAR in z/Architecture; 9C-9F (SIO, TIO, HIO, TCH and their variants) are
** S/370 only. Everything else decodes the same in every architecture (an instruction the
** running architecture lacks would have ended in an operation exception, which the
** trace records separately).
**
** Ownership: fst_insn is a plain value filled by the caller's call; `mnem` and the
** fst_opinfo strings point to static storage. No function here allocates, prints or
** fails.
*/
#ifndef FST_DECODE_H
#define FST_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* Instruction formats (Principles of Operation names). */
enum {
    FST_FMT_UNKNOWN = 0,
    FST_FMT_E,      /* opcode only (16 bits): SAM24, PR */
    FST_FMT_I,      /* SVC i */
    FST_FMT_RR,
    FST_FMT_RRE,    /* 16-bit opcode, R1/R2 in the last byte */
    FST_FMT_RRF,
    FST_FMT_RX,
    FST_FMT_RXE,
    FST_FMT_RXF,
    FST_FMT_RXY,    /* 20-bit signed displacement */
    FST_FMT_RS,
    FST_FMT_RSY,
    FST_FMT_RSI,    /* BRXH/BRXLE: relative */
    FST_FMT_RI,
    FST_FMT_RIL,
    FST_FMT_RIE,
    FST_FMT_SI,
    FST_FMT_SIY,
    FST_FMT_S,
    FST_FMT_SS,
    FST_FMT_SSE,
    FST_FMT_IE,     /* NIAI */
    FST_FMT_MII,    /* BPRP */
    FST_FMT_RIS,    /* compare immediate and branch: CIB */
    FST_FMT_RRS,    /* compare and branch: CRB */
    FST_FMT_RSL,    /* TP, CDZT */
    FST_FMT_SIL,    /* MVHI, TBEGIN */
    FST_FMT_SMI,    /* BPP */
    FST_FMT_SSF,    /* MVCOS, LPD */
    FST_FMT_VRI,    /* vector, immediate */
    FST_FMT_VRR,    /* vector, registers */
    FST_FMT_VRS,    /* vector, register and storage */
    FST_FMT_VRV,    /* vector gather/scatter: D(V,B) */
    FST_FMT_VRX,    /* vector, indexed storage */
    FST_FMT_VSI,    /* vector decimal, storage and immediate */
    FST_FMT_COUNT
};

/* fst_insn.flags */
enum {
    FST_I_BRANCH    = 1u << 0,  /* a branch instruction (by its opcode) */
    FST_I_LINK      = 1u << 1,  /* branch and link/save (BALR BAL BASR BAS BRAS BRASL
                                   BASSM): R1 (`link`) receives the return address */
    FST_I_CANBRANCH = 1u << 2,  /* this instance can transfer control: clear for the
                                   R2 = 0 forms (BALR r,0 BASR BCR BCTR BSM BASSM BCTGR
                                   BAKR BSG BSA) and for mask 0 (BC 0,x BCR 0,r BRC 0,
                                   CRJ with mask 0 or 1) */
    FST_I_COND      = 1u << 3,  /* whether it branches depends on the CC or a register
                                   (mask 1-14, BCT, BXH, BRCTH, CRJ, CIB...); CANBRANCH
                                   without COND always branches */
    FST_I_TARGET    = 1u << 4,  /* `target` is known statically */
    FST_I_RELATIVE  = 1u << 5,  /* relative: target = addr + 2 * signed immediate */
    FST_I_EXECUTE   = 1u << 6,  /* EX, EXRL: `target` (when known) is the executed one */
    FST_I_PSW       = 1u << 7,  /* replaces the PSW other than by branching: SVC, LPSW,
                                   LPSWE, PC, PR, PT, TRAP2/4 */
    FST_I_AMODE     = 1u << 8,  /* may change the addressing mode: BSM BASSM SAM24/31/64 */
    FST_I_REGLIST   = 1u << 9,  /* works on registers R1 through R3, wrapping 15 -> 0:
                                   LM STM LCTL STCTL LAM STAM LMG STMG... */
    FST_I_REGLEN    = 1u << 10, /* operand lengths live in registers, not in the
                                   instruction: MVCL CLCL MVCLE CLCLE MVCLU CLCLU MVCK... */
};

typedef struct fst_insn {
    uint64_t addr;       /* where it executed (as given) */
    uint64_t target;     /* FST_I_TARGET: branch target, or what EX/EXRL executes;
                            wrapped to the addressing mode of `state` */
    uint16_t op;         /* FST_OP_UNKNOWN or an index for fst_op_info() */
    uint16_t flags;      /* FST_I_* */
    uint8_t len;         /* 2, 4 or 6 */
    uint8_t fmt;         /* FST_FMT_* */
    uint8_t link;        /* FST_I_LINK: the link register (R1 field); else 0 */
    uint8_t mask;        /* mask-conditional branches (BC BCR BRC BRCL BIC CRJ CIB...):
                            M1/M3 */
    uint8_t bytes[6];    /* the instruction text; bytes past len are 0 */
    uint16_t wregs;      /* general registers it may write (bit r = register r): a superset,
                            the evidence of which task runs compares the others
                            (fst_insn_writes) */
} fst_insn;     /* 32 bytes: two to a cache line (the replay's blocks, code.h, hold them in
                   rows of 64-byte entries with their prices); the mnemonic: fst_insn_mnem */

enum { FST_OP_UNKNOWN = 0 };

/* Static facts about one opcode. */
typedef struct fst_opinfo {
    const char *mnem;    /* "BRAS" */
    const char *code;    /* opcode in Principles-of-Operation notation: "18", "B205",
                            "A75" (12-bit), "E304" (first and sixth byte) */
    const char *layout;  /* the operands, in isa/optable.h's notation ("R2-X43") */
    uint8_t fmt;         /* FST_FMT_* */
    uint8_t shape;       /* private to decode.c: where a branch finds its target and
                            mask, where the SS lengths are */
    uint8_t nlen;        /* length fields in the text: 0; 1 (MVC: L, SRP: L1);
                            2 (AP, PACK: L1 and L2) */
    uint8_t arch370;     /* 1 when the opcode means this only in S/370 (WRD, SIO...) */
    uint16_t flags;      /* the static FST_I_* flags: BRANCH LINK RELATIVE EXECUTE
                            PSW AMODE REGLIST REGLEN (and COND for BCT-like) */
} fst_opinfo;

/*
** Decode the instruction at `bytes` (at least fst_insn_len(bytes[0]) readable bytes)
** executed at `addr`, with the PSW state word `state` (FST_ST_* of trace/tracebin.h:
** the architecture picks the meaning of 84/85 and 9C-9F, the addressing mode wraps the
** static target). Never fails.
*/
void fst_decode(fst_insn *d, const uint8_t *bytes, uint64_t addr, uint32_t state);

/*
** Disassemble in the assembler's notation, as Hercules prints it, mnemonic and operands
** separated by one blank: "BALR 14,15", "L 15,8(0,12)", "MVC 118(8,12),110(12)",
** "CLI 110(12),193", "BRASL 14,*+6", "LCTLG 0,0,142(12)", "VA 1,2,3,0", "LOCG 1,8(15),8".
** Every field is printed, masks included (the base mnemonic, never an extended one such
** as J or VAB); registers, lengths, masks and displacements in decimal, vector registers
** with their RXB bit (0-31); SS lengths as lengths (L+1); relative operands as *+n.
** Differences from Hercules: an instruction without operands prints its mnemonic alone
** ("SAM24", Hercules: "SAM24 ,") and an unknown one prints "?" (Hercules: "?????").
** snprintf semantics: returns the length of the full text, writes at most `size` bytes
** including the NUL. 40 bytes are always enough.
*/
int fst_disasm(const fst_insn *d, char *buf, size_t size);

/* Operand lengths written in the instruction (SS formats): returns how many (0-2) and
** stores them in bytes (L+1; for SRP only the first). */
int fst_insn_lengths(const fst_insn *d, unsigned *l1, unsigned *l2);
/* FST_I_REGLIST: the number of registers R1..R3, wrapping (STM 14,12 -> 15). 0 otherwise. */
unsigned fst_insn_nregs(const fst_insn *d);
/* The general registers an instruction may change, as a mask (bit r = register r), for
** telling a task's registers apart from another's (DESIGN §3.9): every register field of
** its operands and the odd register of an even-odd pair; R1 through R3 for the
** instructions that load a list (LM, LMG); GR1 and GR2 for TRT, GR0 and GR1 for CMPSC;
** R0, R1, R14 and R15 for SVC (what an operating system's service may return, OS
** linkage); every register for EX/EXRL, an instruction that replaces the PSW, DIAGNOSE,
** UPT and an opcode the tables do not know. None for stores (ST..., but STFLE and STSI),
** compares and a branch without link. A superset: what it leaves out is never written. */
uint16_t fst_insn_writes(const fst_insn *d);
/* Fall-through address (addr + len, in 64 bits: the caller wraps if it must). */
static inline uint64_t fst_insn_next(const fst_insn *d) { return d->addr + d->len; }
/* Whether the branch was taken, given the address that executed next on the same CPU
** with no interruption in between: 1 when it can branch and control did not fall
** through. (A branch to its own fall-through address counts as not taken.) */
static inline int fst_insn_taken(const fst_insn *d, uint64_t next_addr)
{
    return (d->flags & FST_I_CANBRANCH) && next_addr != fst_insn_next(d);
}

/* The opcode of any instruction text, known or not, as a number (for counting the ones
** fst_decode does not know) and in POO notation: "B9FF", "A7F", "E7FF" (first and sixth
** byte), "FF". The first byte says which bytes are opcode, as in fst_decode. */
uint32_t fst_opcode_key(const uint8_t *bytes);
void fst_opcode_str(uint32_t key, char out[5]);

/* Opcode table queries (for cost tables keyed by mnemonic, and for tests). */
unsigned fst_op_count(void);                       /* ids are 0 .. count-1; 0 = unknown */
const fst_opinfo *fst_op_info(unsigned op);        /* NULL when op >= fst_op_count() */
/* d's mnemonic ("BALR"; "?" when the opcode is unknown). */
static inline const char *fst_insn_mnem(const fst_insn *d) { return fst_op_info(d->op)->mnem; }
int fst_op_find(const char *mnem);                 /* id, case-insensitive; -1 if none */
const char *fst_fmt_name(int fmt);                 /* "RR", "RXY", "VRR", "?" */

#endif
