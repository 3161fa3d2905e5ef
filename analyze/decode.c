/*
** analyze/decode.c — see decode.h.
**
** The opcode lists below are X-macros: each list is expanded three times, into the enum
** of op ids (so a mnemonic can appear once only: the compiler checks it), into the
** fst_opinfo array (same order as the enum), and into the designated initialisers of
** the lookup table it belongs to (-Woverride-init, part of -Wextra, catches an opcode
** listed twice). So the tables are complete at compile time and a decode is two loads.
**
** An entry is  Z_(mnemonic, opcode in POO notation, format, operand style, flags).
** Mnemonics follow Hercules where it has them (the S/370 names where ESA renamed:
** LRDR, LRER, MER, ME). The sets: the whole S/370 general, decimal, floating-point,
** control and I/O instructions; ESA/390 (relative branches, BAS/BASSM/BSM, access
** registers, channel subsystem, BFP); the common z/Architecture ones (64-bit RRE/RXY/
** RSY/RIL, compare-and-branch, distinct operands).
*/
#include "analyze/decode.h"

#include "capture/tracebin.h"
#include "common/bytes.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Operand layouts: how fst_disasm prints and where the classification finds fields. */
enum {
    ST_NONE = 0, /* no operands */
    ST_I,        /* SVC i */
    ST_RR,       /* r1,r2 */
    ST_R1,       /* r1 (SPM) */
    ST_RRE,      /* r1,r2 from the 4th byte */
    ST_RRE1,     /* r1 from the 4th byte */
    ST_RRFR,     /* r1,r3,r2  (r3 = 3rd byte high nibble) */
    ST_RRFM,     /* r1,m3,r2 */
    ST_RRFK,     /* r1,r2,r3  (distinct operands) */
    ST_RRFL,     /* r1,r2,m3  (load on condition) */
    ST_RX,       /* r1,d2(x2,b2) */
    ST_RXY,      /* r1,d2(x2,b2), d2 20-bit signed (12-bit when the 5th byte is 0) */
    ST_RXF,      /* r1,r3,d2(x2,b2), r1 in the 5th byte */
    ST_RS,       /* r1,r3,d2(b2) */
    ST_RS2,      /* r1,d2(b2) (shifts) */
    ST_RSY,      /* r1,r3,d2(b2), d2 20-bit signed */
    ST_RSI,      /* r1,r3,*+2i2 */
    ST_RI,       /* r1,i2 (signed 16) */
    ST_RIB,      /* r1,*+2i2 */
    ST_RIL,      /* r1,i2 (signed 32) */
    ST_RILB,     /* r1,*+2i2 (32-bit) */
    ST_RIERRB,   /* r1,r2,m3,*+2i4 (CRJ) */
    ST_RIERIB,   /* r1,i2,m3,*+2i4 (CIJ) */
    ST_RIER3B,   /* r1,r3,*+2i2 (BRXHG) */
    ST_RIERRI,   /* r1,r3,i2 (AHIK) */
    ST_RIE5,     /* r1,r2,i3,i4,i5 (RISBG) */
    ST_SI,       /* d1(b1),i2 */
    ST_SIY,      /* d1(b1),i2, d1 20-bit signed */
    ST_S,        /* d2(b2) */
    ST_SSL,      /* d1(l,b1),d2(b2) */
    ST_SSL2,     /* d1(b1),d2(l2,b2) (PKA, PKU) */
    ST_SSLL,     /* d1(l1,b1),d2(l2,b2) */
    ST_SSRR,     /* d1(r1,b1),d2(b2),r3 (MVCK) */
    ST_SSLI,     /* d1(l1,b1),d2(b2),i3 (SRP) */
    ST_SSE,      /* d1(b1),d2(b2) */
};

/* Static flags. F_MK and F_R2 are private: the decoder turns them into CANBRANCH/COND. */
#define F_BR FST_I_BRANCH
#define F_LK FST_I_LINK
#define F_CO FST_I_COND
#define F_RE FST_I_RELATIVE
#define F_EX FST_I_EXECUTE
#define F_PS FST_I_PSW
#define F_AM FST_I_AMODE
#define F_RL FST_I_REGLIST
#define F_RN FST_I_REGLEN
#define F_MK (1u << 14) /* conditional on a mask field */
#define F_R2 (1u << 15) /* no branch when the R2 field is 0 */
#define F_PRIVATE (F_MK | F_R2)

/* ---- one-byte opcodes ---- */
#define OPS_1(Z_) \
    Z_(SPM, 04, RR, R1, 0) \
    Z_(BALR, 05, RR, RR, F_BR | F_LK | F_R2) \
    Z_(BCTR, 06, RR, RR, F_BR | F_CO | F_R2) \
    Z_(BCR, 07, RR, RR, F_BR | F_MK | F_R2) \
    Z_(SSK, 08, RR, RR, 0) \
    Z_(ISK, 09, RR, RR, 0) \
    Z_(SVC, 0A, I, I, F_PS) \
    Z_(BSM, 0B, RR, RR, F_BR | F_AM | F_R2) \
    Z_(BASSM, 0C, RR, RR, F_BR | F_LK | F_AM | F_R2) \
    Z_(BASR, 0D, RR, RR, F_BR | F_LK | F_R2) \
    Z_(MVCL, 0E, RR, RR, F_RN) \
    Z_(CLCL, 0F, RR, RR, F_RN) \
    Z_(LPR, 10, RR, RR, 0) Z_(LNR, 11, RR, RR, 0) Z_(LTR, 12, RR, RR, 0) \
    Z_(LCR, 13, RR, RR, 0) Z_(NR, 14, RR, RR, 0) Z_(CLR, 15, RR, RR, 0) \
    Z_(OR, 16, RR, RR, 0) Z_(XR, 17, RR, RR, 0) Z_(LR, 18, RR, RR, 0) \
    Z_(CR, 19, RR, RR, 0) Z_(AR, 1A, RR, RR, 0) Z_(SR, 1B, RR, RR, 0) \
    Z_(MR, 1C, RR, RR, 0) Z_(DR, 1D, RR, RR, 0) Z_(ALR, 1E, RR, RR, 0) \
    Z_(SLR, 1F, RR, RR, 0) \
    Z_(LPDR, 20, RR, RR, 0) Z_(LNDR, 21, RR, RR, 0) Z_(LTDR, 22, RR, RR, 0) \
    Z_(LCDR, 23, RR, RR, 0) Z_(HDR, 24, RR, RR, 0) Z_(LRDR, 25, RR, RR, 0) \
    Z_(MXR, 26, RR, RR, 0) Z_(MXDR, 27, RR, RR, 0) Z_(LDR, 28, RR, RR, 0) \
    Z_(CDR, 29, RR, RR, 0) Z_(ADR, 2A, RR, RR, 0) Z_(SDR, 2B, RR, RR, 0) \
    Z_(MDR, 2C, RR, RR, 0) Z_(DDR, 2D, RR, RR, 0) Z_(AWR, 2E, RR, RR, 0) \
    Z_(SWR, 2F, RR, RR, 0) \
    Z_(LPER, 30, RR, RR, 0) Z_(LNER, 31, RR, RR, 0) Z_(LTER, 32, RR, RR, 0) \
    Z_(LCER, 33, RR, RR, 0) Z_(HER, 34, RR, RR, 0) Z_(LRER, 35, RR, RR, 0) \
    Z_(AXR, 36, RR, RR, 0) Z_(SXR, 37, RR, RR, 0) Z_(LER, 38, RR, RR, 0) \
    Z_(CER, 39, RR, RR, 0) Z_(AER, 3A, RR, RR, 0) Z_(SER, 3B, RR, RR, 0) \
    Z_(MER, 3C, RR, RR, 0) Z_(DER, 3D, RR, RR, 0) Z_(AUR, 3E, RR, RR, 0) \
    Z_(SUR, 3F, RR, RR, 0) \
    Z_(STH, 40, RX, RX, 0) Z_(LA, 41, RX, RX, 0) Z_(STC, 42, RX, RX, 0) \
    Z_(IC, 43, RX, RX, 0) \
    Z_(EX, 44, RX, RX, F_EX) \
    Z_(BAL, 45, RX, RX, F_BR | F_LK) \
    Z_(BCT, 46, RX, RX, F_BR | F_CO) \
    Z_(BC, 47, RX, RX, F_BR | F_MK) \
    Z_(LH, 48, RX, RX, 0) Z_(CH, 49, RX, RX, 0) Z_(AH, 4A, RX, RX, 0) \
    Z_(SH, 4B, RX, RX, 0) Z_(MH, 4C, RX, RX, 0) \
    Z_(BAS, 4D, RX, RX, F_BR | F_LK) \
    Z_(CVD, 4E, RX, RX, 0) Z_(CVB, 4F, RX, RX, 0) \
    Z_(ST, 50, RX, RX, 0) Z_(LAE, 51, RX, RX, 0) Z_(N, 54, RX, RX, 0) \
    Z_(CL, 55, RX, RX, 0) Z_(O, 56, RX, RX, 0) Z_(X, 57, RX, RX, 0) \
    Z_(L, 58, RX, RX, 0) Z_(C, 59, RX, RX, 0) Z_(A, 5A, RX, RX, 0) \
    Z_(S, 5B, RX, RX, 0) Z_(M, 5C, RX, RX, 0) Z_(D, 5D, RX, RX, 0) \
    Z_(AL, 5E, RX, RX, 0) Z_(SL, 5F, RX, RX, 0) \
    Z_(STD, 60, RX, RX, 0) Z_(MXD, 67, RX, RX, 0) Z_(LD, 68, RX, RX, 0) \
    Z_(CD, 69, RX, RX, 0) Z_(AD, 6A, RX, RX, 0) Z_(SD, 6B, RX, RX, 0) \
    Z_(MD, 6C, RX, RX, 0) Z_(DD, 6D, RX, RX, 0) Z_(AW, 6E, RX, RX, 0) \
    Z_(SW, 6F, RX, RX, 0) \
    Z_(STE, 70, RX, RX, 0) Z_(MS, 71, RX, RX, 0) Z_(LE, 78, RX, RX, 0) \
    Z_(CE, 79, RX, RX, 0) Z_(AE, 7A, RX, RX, 0) Z_(SE, 7B, RX, RX, 0) \
    Z_(ME, 7C, RX, RX, 0) Z_(DE, 7D, RX, RX, 0) Z_(AU, 7E, RX, RX, 0) \
    Z_(SU, 7F, RX, RX, 0) \
    Z_(SSM, 80, S, S, 0) \
    Z_(LPSW, 82, S, S, F_PS) \
    Z_(DIAG, 83, RS, RS, 0) \
    Z_(BRXH, 84, RSI, RSI, F_BR | F_CO | F_RE) \
    Z_(BRXLE, 85, RSI, RSI, F_BR | F_CO | F_RE) \
    Z_(BXH, 86, RS, RS, F_BR | F_CO) \
    Z_(BXLE, 87, RS, RS, F_BR | F_CO) \
    Z_(SRL, 88, RS, RS2, 0) Z_(SLL, 89, RS, RS2, 0) Z_(SRA, 8A, RS, RS2, 0) \
    Z_(SLA, 8B, RS, RS2, 0) Z_(SRDL, 8C, RS, RS2, 0) Z_(SLDL, 8D, RS, RS2, 0) \
    Z_(SRDA, 8E, RS, RS2, 0) Z_(SLDA, 8F, RS, RS2, 0) \
    Z_(STM, 90, RS, RS, F_RL) \
    Z_(TM, 91, SI, SI, 0) Z_(MVI, 92, SI, SI, 0) Z_(TS, 93, S, S, 0) \
    Z_(NI, 94, SI, SI, 0) Z_(CLI, 95, SI, SI, 0) Z_(OI, 96, SI, SI, 0) \
    Z_(XI, 97, SI, SI, 0) \
    Z_(LM, 98, RS, RS, F_RL) \
    Z_(TRACE, 99, RS, RS, F_RL) \
    Z_(LAM, 9A, RS, RS, F_RL) \
    Z_(STAM, 9B, RS, RS, F_RL) \
    Z_(MVCLE, A8, RS, RS, F_RN) \
    Z_(CLCLE, A9, RS, RS, F_RN) \
    Z_(STNSM, AC, SI, SI, 0) Z_(STOSM, AD, SI, SI, 0) \
    Z_(SIGP, AE, RS, RS, 0) \
    Z_(MC, AF, SI, SI, 0) \
    Z_(LRA, B1, RX, RX, 0) \
    Z_(STCTL, B6, RS, RS, F_RL) Z_(LCTL, B7, RS, RS, F_RL) \
    Z_(CS, BA, RS, RS, 0) Z_(CDS, BB, RS, RS, 0) Z_(CLM, BD, RS, RS, 0) \
    Z_(STCM, BE, RS, RS, 0) Z_(ICM, BF, RS, RS, 0) \
    Z_(TRTR, D0, SS, SSL, 0) Z_(MVN, D1, SS, SSL, 0) Z_(MVC, D2, SS, SSL, 0) \
    Z_(MVZ, D3, SS, SSL, 0) Z_(NC, D4, SS, SSL, 0) Z_(CLC, D5, SS, SSL, 0) \
    Z_(OC, D6, SS, SSL, 0) Z_(XC, D7, SS, SSL, 0) \
    Z_(MVCK, D9, SS, SSRR, F_RN) Z_(MVCP, DA, SS, SSRR, F_RN) \
    Z_(MVCS, DB, SS, SSRR, F_RN) \
    Z_(TR, DC, SS, SSL, 0) Z_(TRT, DD, SS, SSL, 0) Z_(ED, DE, SS, SSL, 0) \
    Z_(EDMK, DF, SS, SSL, 0) \
    Z_(PKU, E1, SS, SSL2, 0) Z_(UNPKU, E2, SS, SSL, 0) \
    Z_(MVCIN, E8, SS, SSL, 0) Z_(PKA, E9, SS, SSL2, 0) Z_(UNPKA, EA, SS, SSL, 0) \
    Z_(SRP, F0, SS, SSLI, 0) Z_(MVO, F1, SS, SSLL, 0) Z_(PACK, F2, SS, SSLL, 0) \
    Z_(UNPK, F3, SS, SSLL, 0) Z_(ZAP, F8, SS, SSLL, 0) Z_(CP, F9, SS, SSLL, 0) \
    Z_(AP, FA, SS, SSLL, 0) Z_(SP, FB, SS, SSLL, 0) Z_(MP, FC, SS, SSLL, 0) \
    Z_(DP, FD, SS, SSLL, 0)

/* ---- S/370 only: 84/85 (BRXH/BRXLE later) and the S/370 I/O instructions ---- */
#define OPS_370(Z_) \
    Z_(WRD, 84, SI, SI, 0) Z_(RDD, 85, SI, SI, 0)
#define OPS_IO(Z_) \
    Z_(SIO, 9C00, S, S, 0) Z_(SIOF, 9C01, S, S, 0) Z_(RIO, 9C02, S, S, 0) \
    Z_(TIO, 9D00, S, S, 0) Z_(CLRIO, 9D01, S, S, 0) \
    Z_(HIO, 9E00, S, S, 0) Z_(HDV, 9E01, S, S, 0) \
    Z_(TCH, 9F00, S, S, 0)

/* ---- 01xx (E) ---- */
#define OPS_01(Z_) \
    Z_(PR, 0101, E, NONE, F_PS) Z_(UPT, 0102, E, NONE, 0) Z_(PTFF, 0104, E, NONE, 0) \
    Z_(SCKPF, 0107, E, NONE, 0) Z_(PFPO, 010A, E, NONE, 0) Z_(TAM, 010B, E, NONE, 0) \
    Z_(SAM24, 010C, E, NONE, F_AM) Z_(SAM31, 010D, E, NONE, F_AM) \
    Z_(SAM64, 010E, E, NONE, F_AM) Z_(TRAP2, 01FF, E, NONE, F_PS)

/* ---- A5x, A7x (RI) ---- */
#define OPS_A5(Z_) \
    Z_(IIHH, A50, RI, RI, 0) Z_(IIHL, A51, RI, RI, 0) Z_(IILH, A52, RI, RI, 0) \
    Z_(IILL, A53, RI, RI, 0) Z_(NIHH, A54, RI, RI, 0) Z_(NIHL, A55, RI, RI, 0) \
    Z_(NILH, A56, RI, RI, 0) Z_(NILL, A57, RI, RI, 0) Z_(OIHH, A58, RI, RI, 0) \
    Z_(OIHL, A59, RI, RI, 0) Z_(OILH, A5A, RI, RI, 0) Z_(OILL, A5B, RI, RI, 0) \
    Z_(LLIHH, A5C, RI, RI, 0) Z_(LLIHL, A5D, RI, RI, 0) Z_(LLILH, A5E, RI, RI, 0) \
    Z_(LLILL, A5F, RI, RI, 0)
#define OPS_A7(Z_) \
    Z_(TMLH, A70, RI, RI, 0) Z_(TMLL, A71, RI, RI, 0) Z_(TMHH, A72, RI, RI, 0) \
    Z_(TMHL, A73, RI, RI, 0) \
    Z_(BRC, A74, RI, RIB, F_BR | F_MK | F_RE) \
    Z_(BRAS, A75, RI, RIB, F_BR | F_LK | F_RE) \
    Z_(BRCT, A76, RI, RIB, F_BR | F_CO | F_RE) \
    Z_(BRCTG, A77, RI, RIB, F_BR | F_CO | F_RE) \
    Z_(LHI, A78, RI, RI, 0) Z_(LGHI, A79, RI, RI, 0) Z_(AHI, A7A, RI, RI, 0) \
    Z_(AGHI, A7B, RI, RI, 0) Z_(MHI, A7C, RI, RI, 0) Z_(MGHI, A7D, RI, RI, 0) \
    Z_(CHI, A7E, RI, RI, 0) Z_(CGHI, A7F, RI, RI, 0)

/* ---- B2xx ---- */
#define OPS_B2(Z_) \
    Z_(CONCS, B200, S, S, 0) Z_(DISCS, B201, S, S, 0) Z_(STIDP, B202, S, S, 0) \
    Z_(STIDC, B203, S, S, 0) Z_(SCK, B204, S, S, 0) Z_(STCK, B205, S, S, 0) \
    Z_(SCKC, B206, S, S, 0) Z_(STCKC, B207, S, S, 0) Z_(SPT, B208, S, S, 0) \
    Z_(STPT, B209, S, S, 0) Z_(SPKA, B20A, S, S, 0) Z_(IPK, B20B, S, NONE, 0) \
    Z_(PTLB, B20D, S, NONE, 0) Z_(SPX, B210, S, S, 0) Z_(STPX, B211, S, S, 0) \
    Z_(STAP, B212, S, S, 0) Z_(RRB, B213, S, S, 0) Z_(SIE, B214, S, S, 0) \
    Z_(PC, B218, S, S, F_PS) Z_(SAC, B219, S, S, 0) Z_(CFC, B21A, S, S, 0) \
    Z_(IPTE, B221, RRE, RRE, 0) Z_(IPM, B222, RRE, RRE1, 0) \
    Z_(IVSK, B223, RRE, RRE, 0) Z_(IAC, B224, RRE, RRE1, 0) \
    Z_(SSAR, B225, RRE, RRE1, 0) Z_(EPAR, B226, RRE, RRE1, 0) \
    Z_(ESAR, B227, RRE, RRE1, 0) Z_(PT, B228, RRE, RRE, F_PS) \
    Z_(ISKE, B229, RRE, RRE, 0) Z_(RRBE, B22A, RRE, RRE, 0) \
    Z_(SSKE, B22B, RRE, RRE, 0) Z_(TB, B22C, RRE, RRE, 0) \
    Z_(DXR, B22D, RRE, RRE, 0) Z_(PGIN, B22E, RRE, RRE, 0) \
    Z_(PGOUT, B22F, RRE, RRE, 0) \
    Z_(CSCH, B230, S, NONE, 0) Z_(HSCH, B231, S, NONE, 0) Z_(MSCH, B232, S, S, 0) \
    Z_(SSCH, B233, S, S, 0) Z_(STSCH, B234, S, S, 0) Z_(TSCH, B235, S, S, 0) \
    Z_(TPI, B236, S, S, 0) Z_(SAL, B237, S, NONE, 0) Z_(RSCH, B238, S, NONE, 0) \
    Z_(STCRW, B239, S, S, 0) Z_(STCPS, B23A, S, S, 0) Z_(RCHP, B23B, S, NONE, 0) \
    Z_(SCHM, B23C, S, NONE, 0) \
    Z_(BAKR, B240, RRE, RRE, F_BR | F_R2) \
    Z_(CKSM, B241, RRE, RRE, 0) Z_(SQDR, B244, RRE, RRE, 0) \
    Z_(SQER, B245, RRE, RRE, 0) Z_(STURA, B246, RRE, RRE, 0) \
    Z_(MSTA, B247, RRE, RRE1, 0) Z_(PALB, B248, RRE, NONE, 0) \
    Z_(EREG, B249, RRE, RRE, 0) Z_(ESTA, B24A, RRE, RRE, 0) \
    Z_(LURA, B24B, RRE, RRE, 0) Z_(TAR, B24C, RRE, RRE, 0) \
    Z_(CPYA, B24D, RRE, RRE, 0) Z_(SAR, B24E, RRE, RRE, 0) \
    Z_(EAR, B24F, RRE, RRE, 0) Z_(CSP, B250, RRE, RRE, 0) \
    Z_(MSR, B252, RRE, RRE, 0) Z_(MVPG, B254, RRE, RRE, 0) \
    Z_(MVST, B255, RRE, RRE, 0) Z_(CUSE, B257, RRE, RRE, 0) \
    Z_(BSG, B258, RRE, RRE, 0) Z_(BSA, B25A, RRE, RRE, 0) \
    Z_(CLST, B25D, RRE, RRE, 0) Z_(SRST, B25E, RRE, RRE, 0) \
    Z_(CMPSC, B263, RRE, RRE, 0) \
    Z_(XSCH, B276, S, NONE, 0) Z_(RP, B277, S, S, 0) Z_(STCKE, B278, S, S, 0) \
    Z_(SACF, B279, S, S, 0) Z_(STCKF, B27C, S, S, 0) Z_(STSI, B27D, S, S, 0) \
    Z_(SRNM, B299, S, S, 0) Z_(STFPC, B29C, S, S, 0) Z_(LFPC, B29D, S, S, 0) \
    Z_(TRE, B2A5, RRE, RRE, 0) Z_(CUUTF, B2A6, RRE, RRE, 0) \
    Z_(CUTFU, B2A7, RRE, RRE, 0) \
    Z_(STFLE, B2B0, S, S, 0) Z_(STFL, B2B1, S, S, 0) \
    Z_(LPSWE, B2B2, S, S, F_PS) Z_(TRAP4, B2FF, S, S, F_PS)

/* ---- B3xx: binary and hexadecimal floating point (RRE, RRF) ---- */
#define OPS_B3(Z_) \
    Z_(LPEBR, B300, RRE, RRE, 0) Z_(LNEBR, B301, RRE, RRE, 0) \
    Z_(LTEBR, B302, RRE, RRE, 0) Z_(LCEBR, B303, RRE, RRE, 0) \
    Z_(LDEBR, B304, RRE, RRE, 0) Z_(LXDBR, B305, RRE, RRE, 0) \
    Z_(LXEBR, B306, RRE, RRE, 0) Z_(MXDBR, B307, RRE, RRE, 0) \
    Z_(KEBR, B308, RRE, RRE, 0) Z_(CEBR, B309, RRE, RRE, 0) \
    Z_(AEBR, B30A, RRE, RRE, 0) Z_(SEBR, B30B, RRE, RRE, 0) \
    Z_(MDEBR, B30C, RRE, RRE, 0) Z_(DEBR, B30D, RRE, RRE, 0) \
    Z_(MAEBR, B30E, RRF, RRFR, 0) Z_(MSEBR, B30F, RRF, RRFR, 0) \
    Z_(LPDBR, B310, RRE, RRE, 0) Z_(LNDBR, B311, RRE, RRE, 0) \
    Z_(LTDBR, B312, RRE, RRE, 0) Z_(LCDBR, B313, RRE, RRE, 0) \
    Z_(SQEBR, B314, RRE, RRE, 0) Z_(SQDBR, B315, RRE, RRE, 0) \
    Z_(SQXBR, B316, RRE, RRE, 0) Z_(MEEBR, B317, RRE, RRE, 0) \
    Z_(KDBR, B318, RRE, RRE, 0) Z_(CDBR, B319, RRE, RRE, 0) \
    Z_(ADBR, B31A, RRE, RRE, 0) Z_(SDBR, B31B, RRE, RRE, 0) \
    Z_(MDBR, B31C, RRE, RRE, 0) Z_(DDBR, B31D, RRE, RRE, 0) \
    Z_(MADBR, B31E, RRF, RRFR, 0) Z_(MSDBR, B31F, RRF, RRFR, 0) \
    Z_(LDER, B324, RRE, RRE, 0) Z_(LXDR, B325, RRE, RRE, 0) \
    Z_(LXER, B326, RRE, RRE, 0) Z_(MAER, B32E, RRF, RRFR, 0) \
    Z_(MSER, B32F, RRF, RRFR, 0) Z_(SQXR, B336, RRE, RRE, 0) \
    Z_(MEER, B337, RRE, RRE, 0) Z_(MADR, B33E, RRF, RRFR, 0) \
    Z_(MSDR, B33F, RRF, RRFR, 0) \
    Z_(LPXBR, B340, RRE, RRE, 0) Z_(LNXBR, B341, RRE, RRE, 0) \
    Z_(LTXBR, B342, RRE, RRE, 0) Z_(LCXBR, B343, RRE, RRE, 0) \
    Z_(LEDBR, B344, RRE, RRE, 0) Z_(LDXBR, B345, RRE, RRE, 0) \
    Z_(LEXBR, B346, RRE, RRE, 0) Z_(FIXBR, B347, RRF, RRFM, 0) \
    Z_(KXBR, B348, RRE, RRE, 0) Z_(CXBR, B349, RRE, RRE, 0) \
    Z_(AXBR, B34A, RRE, RRE, 0) Z_(SXBR, B34B, RRE, RRE, 0) \
    Z_(MXBR, B34C, RRE, RRE, 0) Z_(DXBR, B34D, RRE, RRE, 0) \
    Z_(FIEBR, B357, RRF, RRFM, 0) Z_(FIDBR, B35F, RRF, RRFM, 0) \
    Z_(LPXR, B360, RRE, RRE, 0) Z_(LNXR, B361, RRE, RRE, 0) \
    Z_(LTXR, B362, RRE, RRE, 0) Z_(LCXR, B363, RRE, RRE, 0) \
    Z_(LXR, B365, RRE, RRE, 0) Z_(LEXR, B366, RRE, RRE, 0) \
    Z_(FIXR, B367, RRE, RRE, 0) Z_(CXR, B369, RRE, RRE, 0) \
    Z_(LPDFR, B370, RRE, RRE, 0) Z_(LNDFR, B371, RRE, RRE, 0) \
    Z_(CPSDR, B372, RRF, RRFR, 0) Z_(LCDFR, B373, RRE, RRE, 0) \
    Z_(LZER, B374, RRE, RRE1, 0) Z_(LZDR, B375, RRE, RRE1, 0) \
    Z_(LZXR, B376, RRE, RRE1, 0) Z_(FIER, B377, RRE, RRE, 0) \
    Z_(FIDR, B37F, RRE, RRE, 0) \
    Z_(SFPC, B384, RRE, RRE1, 0) Z_(EFPC, B38C, RRE, RRE1, 0) \
    Z_(CEFBR, B394, RRE, RRE, 0) Z_(CDFBR, B395, RRE, RRE, 0) \
    Z_(CXFBR, B396, RRE, RRE, 0) Z_(CFEBR, B398, RRF, RRFM, 0) \
    Z_(CFDBR, B399, RRF, RRFM, 0) Z_(CFXBR, B39A, RRF, RRFM, 0) \
    Z_(CEGBR, B3A4, RRE, RRE, 0) Z_(CDGBR, B3A5, RRE, RRE, 0) \
    Z_(CXGBR, B3A6, RRE, RRE, 0) Z_(CGEBR, B3A8, RRF, RRFM, 0) \
    Z_(CGDBR, B3A9, RRF, RRFM, 0) Z_(CGXBR, B3AA, RRF, RRFM, 0) \
    Z_(CEFR, B3B4, RRE, RRE, 0) Z_(CDFR, B3B5, RRE, RRE, 0) \
    Z_(CXFR, B3B6, RRE, RRE, 0) Z_(CFER, B3B8, RRF, RRFM, 0) \
    Z_(CFDR, B3B9, RRF, RRFM, 0) Z_(CFXR, B3BA, RRF, RRFM, 0) \
    Z_(LDGR, B3C1, RRE, RRE, 0) Z_(CEGR, B3C4, RRE, RRE, 0) \
    Z_(CDGR, B3C5, RRE, RRE, 0) Z_(CXGR, B3C6, RRE, RRE, 0) \
    Z_(CGER, B3C8, RRF, RRFM, 0) Z_(CGDR, B3C9, RRF, RRFM, 0) \
    Z_(CGXR, B3CA, RRF, RRFM, 0) Z_(LGDR, B3CD, RRE, RRE, 0)

/* ---- B9xx (RRE, RRF) ---- */
#define OPS_B9(Z_) \
    Z_(LPGR, B900, RRE, RRE, 0) Z_(LNGR, B901, RRE, RRE, 0) Z_(LTGR, B902, RRE, RRE, 0) \
    Z_(LCGR, B903, RRE, RRE, 0) Z_(LGR, B904, RRE, RRE, 0) Z_(LURAG, B905, RRE, RRE, 0) \
    Z_(LGBR, B906, RRE, RRE, 0) Z_(LGHR, B907, RRE, RRE, 0) Z_(AGR, B908, RRE, RRE, 0) \
    Z_(SGR, B909, RRE, RRE, 0) Z_(ALGR, B90A, RRE, RRE, 0) Z_(SLGR, B90B, RRE, RRE, 0) \
    Z_(MSGR, B90C, RRE, RRE, 0) Z_(DSGR, B90D, RRE, RRE, 0) Z_(EREGG, B90E, RRE, RRE, 0) \
    Z_(LRVGR, B90F, RRE, RRE, 0) Z_(LPGFR, B910, RRE, RRE, 0) Z_(LNGFR, B911, RRE, RRE, 0) \
    Z_(LTGFR, B912, RRE, RRE, 0) Z_(LCGFR, B913, RRE, RRE, 0) Z_(LGFR, B914, RRE, RRE, 0) \
    Z_(LLGFR, B916, RRE, RRE, 0) Z_(LLGTR, B917, RRE, RRE, 0) Z_(AGFR, B918, RRE, RRE, 0) \
    Z_(SGFR, B919, RRE, RRE, 0) Z_(ALGFR, B91A, RRE, RRE, 0) Z_(SLGFR, B91B, RRE, RRE, 0) \
    Z_(MSGFR, B91C, RRE, RRE, 0) Z_(DSGFR, B91D, RRE, RRE, 0) Z_(LRVR, B91F, RRE, RRE, 0) \
    Z_(CGR, B920, RRE, RRE, 0) Z_(CLGR, B921, RRE, RRE, 0) Z_(STURG, B925, RRE, RRE, 0) \
    Z_(LBR, B926, RRE, RRE, 0) Z_(LHR, B927, RRE, RRE, 0) Z_(CGFR, B930, RRE, RRE, 0) \
    Z_(CLGFR, B931, RRE, RRE, 0) \
    Z_(BCTGR, B946, RRE, RRE, F_BR | F_CO | F_R2) \
    Z_(NGR, B980, RRE, RRE, 0) Z_(OGR, B981, RRE, RRE, 0) Z_(XGR, B982, RRE, RRE, 0) \
    Z_(FLOGR, B983, RRE, RRE, 0) Z_(LLGCR, B984, RRE, RRE, 0) Z_(LLGHR, B985, RRE, RRE, 0) \
    Z_(MLGR, B986, RRE, RRE, 0) Z_(DLGR, B987, RRE, RRE, 0) Z_(ALCGR, B988, RRE, RRE, 0) \
    Z_(SLBGR, B989, RRE, RRE, 0) Z_(EPSW, B98D, RRE, RRE, 0) Z_(LLCR, B994, RRE, RRE, 0) \
    Z_(LLHR, B995, RRE, RRE, 0) Z_(MLR, B996, RRE, RRE, 0) Z_(DLR, B997, RRE, RRE, 0) \
    Z_(ALCR, B998, RRE, RRE, 0) Z_(SLBR, B999, RRE, RRE, 0) \
    Z_(LOCGR, B9E2, RRF, RRFL, 0) Z_(NGRK, B9E4, RRF, RRFK, 0) \
    Z_(OGRK, B9E6, RRF, RRFK, 0) Z_(XGRK, B9E7, RRF, RRFK, 0) \
    Z_(AGRK, B9E8, RRF, RRFK, 0) Z_(SGRK, B9E9, RRF, RRFK, 0) \
    Z_(ALGRK, B9EA, RRF, RRFK, 0) Z_(SLGRK, B9EB, RRF, RRFK, 0) \
    Z_(LOCR, B9F2, RRF, RRFL, 0) Z_(NRK, B9F4, RRF, RRFK, 0) \
    Z_(ORK, B9F6, RRF, RRFK, 0) Z_(XRK, B9F7, RRF, RRFK, 0) \
    Z_(ARK, B9F8, RRF, RRFK, 0) Z_(SRK, B9F9, RRF, RRFK, 0) \
    Z_(ALRK, B9FA, RRF, RRFK, 0) Z_(SLRK, B9FB, RRF, RRFK, 0)

/* ---- C0x, C2x, C4x, C6x (RIL) ---- */
#define OPS_C0(Z_) \
    Z_(LARL, C00, RIL, RILB, 0) Z_(LGFI, C01, RIL, RIL, 0) \
    Z_(BRCL, C04, RIL, RILB, F_BR | F_MK | F_RE) \
    Z_(BRASL, C05, RIL, RILB, F_BR | F_LK | F_RE) \
    Z_(XIHF, C06, RIL, RIL, 0) Z_(XILF, C07, RIL, RIL, 0) Z_(IIHF, C08, RIL, RIL, 0) \
    Z_(IILF, C09, RIL, RIL, 0) Z_(NIHF, C0A, RIL, RIL, 0) Z_(NILF, C0B, RIL, RIL, 0) \
    Z_(OIHF, C0C, RIL, RIL, 0) Z_(OILF, C0D, RIL, RIL, 0) Z_(LLIHF, C0E, RIL, RIL, 0) \
    Z_(LLILF, C0F, RIL, RIL, 0)
#define OPS_C2(Z_) \
    Z_(SLGFI, C24, RIL, RIL, 0) Z_(SLFI, C25, RIL, RIL, 0) Z_(AGFI, C28, RIL, RIL, 0) \
    Z_(AFI, C29, RIL, RIL, 0) Z_(ALGFI, C2A, RIL, RIL, 0) Z_(ALFI, C2B, RIL, RIL, 0) \
    Z_(CGFI, C2C, RIL, RIL, 0) Z_(CFI, C2D, RIL, RIL, 0) Z_(CLGFI, C2E, RIL, RIL, 0) \
    Z_(CLFI, C2F, RIL, RIL, 0)
#define OPS_C4(Z_) \
    Z_(LLHRL, C42, RIL, RILB, 0) Z_(LGHRL, C44, RIL, RILB, 0) Z_(LHRL, C45, RIL, RILB, 0) \
    Z_(LLGHRL, C46, RIL, RILB, 0) Z_(STHRL, C47, RIL, RILB, 0) Z_(LGRL, C48, RIL, RILB, 0) \
    Z_(STGRL, C4B, RIL, RILB, 0) Z_(LGFRL, C4C, RIL, RILB, 0) Z_(LRL, C4D, RIL, RILB, 0) \
    Z_(LLGFRL, C4E, RIL, RILB, 0) Z_(STRL, C4F, RIL, RILB, 0)
#define OPS_C6(Z_) \
    Z_(EXRL, C60, RIL, RILB, F_EX | F_RE) \
    Z_(PFDRL, C62, RIL, RILB, 0) Z_(CGHRL, C64, RIL, RILB, 0) Z_(CHRL, C65, RIL, RILB, 0) \
    Z_(CLGHRL, C66, RIL, RILB, 0) Z_(CLHRL, C67, RIL, RILB, 0) Z_(CGRL, C68, RIL, RILB, 0) \
    Z_(CLGRL, C6A, RIL, RILB, 0) Z_(CGFRL, C6C, RIL, RILB, 0) Z_(CRL, C6D, RIL, RILB, 0) \
    Z_(CLGFRL, C6E, RIL, RILB, 0) Z_(CLRL, C6F, RIL, RILB, 0)

/* ---- E3xx (RXY; ESA/390 RXE ones decode alike, their 5th byte being 0) ---- */
#define OPS_E3(Z_) \
    Z_(LTG, E302, RXY, RXY, 0) Z_(LRAG, E303, RXY, RXY, 0) Z_(LG, E304, RXY, RXY, 0) \
    Z_(CVBY, E306, RXY, RXY, 0) Z_(AG, E308, RXY, RXY, 0) Z_(SG, E309, RXY, RXY, 0) \
    Z_(ALG, E30A, RXY, RXY, 0) Z_(SLG, E30B, RXY, RXY, 0) Z_(MSG, E30C, RXY, RXY, 0) \
    Z_(DSG, E30D, RXY, RXY, 0) Z_(CVBG, E30E, RXY, RXY, 0) Z_(LRVG, E30F, RXY, RXY, 0) \
    Z_(LT, E312, RXY, RXY, 0) Z_(LRAY, E313, RXY, RXY, 0) Z_(LGF, E314, RXY, RXY, 0) \
    Z_(LGH, E315, RXY, RXY, 0) Z_(LLGF, E316, RXY, RXY, 0) Z_(LLGT, E317, RXY, RXY, 0) \
    Z_(AGF, E318, RXY, RXY, 0) Z_(SGF, E319, RXY, RXY, 0) Z_(ALGF, E31A, RXY, RXY, 0) \
    Z_(SLGF, E31B, RXY, RXY, 0) Z_(MSGF, E31C, RXY, RXY, 0) Z_(DSGF, E31D, RXY, RXY, 0) \
    Z_(LRV, E31E, RXY, RXY, 0) Z_(LRVH, E31F, RXY, RXY, 0) Z_(CG, E320, RXY, RXY, 0) \
    Z_(CLG, E321, RXY, RXY, 0) Z_(STG, E324, RXY, RXY, 0) Z_(CVDY, E326, RXY, RXY, 0) \
    Z_(CVDG, E32E, RXY, RXY, 0) Z_(STRVG, E32F, RXY, RXY, 0) Z_(CGF, E330, RXY, RXY, 0) \
    Z_(CLGF, E331, RXY, RXY, 0) Z_(STRV, E33E, RXY, RXY, 0) Z_(STRVH, E33F, RXY, RXY, 0) \
    Z_(BCTG, E346, RXY, RXY, F_BR | F_CO) \
    Z_(STY, E350, RXY, RXY, 0) Z_(MSY, E351, RXY, RXY, 0) Z_(NY, E354, RXY, RXY, 0) \
    Z_(CLY, E355, RXY, RXY, 0) Z_(OY, E356, RXY, RXY, 0) Z_(XY, E357, RXY, RXY, 0) \
    Z_(LY, E358, RXY, RXY, 0) Z_(CY, E359, RXY, RXY, 0) Z_(AY, E35A, RXY, RXY, 0) \
    Z_(SY, E35B, RXY, RXY, 0) Z_(MFY, E35C, RXY, RXY, 0) Z_(ALY, E35E, RXY, RXY, 0) \
    Z_(SLY, E35F, RXY, RXY, 0) Z_(STHY, E370, RXY, RXY, 0) Z_(LAY, E371, RXY, RXY, 0) \
    Z_(STCY, E372, RXY, RXY, 0) Z_(ICY, E373, RXY, RXY, 0) Z_(LAEY, E375, RXY, RXY, 0) \
    Z_(LB, E376, RXY, RXY, 0) Z_(LGB, E377, RXY, RXY, 0) Z_(LHY, E378, RXY, RXY, 0) \
    Z_(CHY, E379, RXY, RXY, 0) Z_(AHY, E37A, RXY, RXY, 0) Z_(SHY, E37B, RXY, RXY, 0) \
    Z_(NG, E380, RXY, RXY, 0) Z_(OG, E381, RXY, RXY, 0) Z_(XG, E382, RXY, RXY, 0) \
    Z_(MLG, E386, RXY, RXY, 0) Z_(DLG, E387, RXY, RXY, 0) Z_(ALCG, E388, RXY, RXY, 0) \
    Z_(SLBG, E389, RXY, RXY, 0) Z_(STPQ, E38E, RXY, RXY, 0) Z_(LPQ, E38F, RXY, RXY, 0) \
    Z_(LLGC, E390, RXY, RXY, 0) Z_(LLGH, E391, RXY, RXY, 0) Z_(LLC, E394, RXY, RXY, 0) \
    Z_(LLH, E395, RXY, RXY, 0) Z_(ML, E396, RXY, RXY, 0) Z_(DL, E397, RXY, RXY, 0) \
    Z_(ALC, E398, RXY, RXY, 0) Z_(SLB, E399, RXY, RXY, 0)

/* ---- E5xx (SSE) ---- */
#define OPS_E5(Z_) \
    Z_(LASP, E500, SSE, SSE, 0) Z_(TPROT, E501, SSE, SSE, 0) Z_(STRAG, E502, SSE, SSE, 0) \
    Z_(MVCSK, E50E, SSE, SSE, 0) Z_(MVCDK, E50F, SSE, SSE, 0)

/* ---- EBxx (RSY, SIY) ---- */
#define OPS_EB(Z_) \
    Z_(LMG, EB04, RSY, RSY, F_RL) Z_(SRAG, EB0A, RSY, RSY, 0) Z_(SLAG, EB0B, RSY, RSY, 0) \
    Z_(SRLG, EB0C, RSY, RSY, 0) Z_(SLLG, EB0D, RSY, RSY, 0) Z_(TRACG, EB0F, RSY, RSY, F_RL) \
    Z_(CSY, EB14, RSY, RSY, 0) Z_(RLLG, EB1C, RSY, RSY, 0) Z_(RLL, EB1D, RSY, RSY, 0) \
    Z_(CLMH, EB20, RSY, RSY, 0) Z_(CLMY, EB21, RSY, RSY, 0) Z_(STMG, EB24, RSY, RSY, F_RL) \
    Z_(STCTG, EB25, RSY, RSY, F_RL) Z_(STMH, EB26, RSY, RSY, F_RL) \
    Z_(STCMH, EB2C, RSY, RSY, 0) Z_(STCMY, EB2D, RSY, RSY, 0) \
    Z_(LCTLG, EB2F, RSY, RSY, F_RL) Z_(CSG, EB30, RSY, RSY, 0) Z_(CDSY, EB31, RSY, RSY, 0) \
    Z_(CDSG, EB3E, RSY, RSY, 0) \
    Z_(BXHG, EB44, RSY, RSY, F_BR | F_CO) Z_(BXLEG, EB45, RSY, RSY, F_BR | F_CO) \
    Z_(TMY, EB51, SIY, SIY, 0) Z_(MVIY, EB52, SIY, SIY, 0) Z_(NIY, EB54, SIY, SIY, 0) \
    Z_(CLIY, EB55, SIY, SIY, 0) Z_(OIY, EB56, SIY, SIY, 0) Z_(XIY, EB57, SIY, SIY, 0) \
    Z_(ICMH, EB80, RSY, RSY, 0) Z_(ICMY, EB81, RSY, RSY, 0) \
    Z_(MVCLU, EB8E, RSY, RSY, F_RN) Z_(CLCLU, EB8F, RSY, RSY, F_RN) \
    Z_(STMY, EB90, RSY, RSY, F_RL) Z_(LMH, EB96, RSY, RSY, F_RL) \
    Z_(LMY, EB98, RSY, RSY, F_RL) Z_(LAMY, EB9A, RSY, RSY, F_RL) \
    Z_(STAMY, EB9B, RSY, RSY, F_RL)

/* ---- ECxx (RIE) ---- */
#define OPS_EC(Z_) \
    Z_(BRXHG, EC44, RIE, RIER3B, F_BR | F_CO | F_RE) \
    Z_(BRXLG, EC45, RIE, RIER3B, F_BR | F_CO | F_RE) \
    Z_(RNSBG, EC54, RIE, RIE5, 0) Z_(RISBG, EC55, RIE, RIE5, 0) \
    Z_(ROSBG, EC56, RIE, RIE5, 0) Z_(RXSBG, EC57, RIE, RIE5, 0) \
    Z_(CGRJ, EC64, RIE, RIERRB, F_BR | F_MK | F_RE) \
    Z_(CLGRJ, EC65, RIE, RIERRB, F_BR | F_MK | F_RE) \
    Z_(CRJ, EC76, RIE, RIERRB, F_BR | F_MK | F_RE) \
    Z_(CLRJ, EC77, RIE, RIERRB, F_BR | F_MK | F_RE) \
    Z_(CGIJ, EC7C, RIE, RIERIB, F_BR | F_MK | F_RE) \
    Z_(CLGIJ, EC7D, RIE, RIERIB, F_BR | F_MK | F_RE) \
    Z_(CIJ, EC7E, RIE, RIERIB, F_BR | F_MK | F_RE) \
    Z_(CLIJ, EC7F, RIE, RIERIB, F_BR | F_MK | F_RE) \
    Z_(AHIK, ECD8, RIE, RIERRI, 0) Z_(AGHIK, ECD9, RIE, RIERRI, 0) \
    Z_(ALHSIK, ECDA, RIE, RIERRI, 0) Z_(ALGHSIK, ECDB, RIE, RIERRI, 0)

/* ---- EDxx (RXE, RXF, RXY) ---- */
#define OPS_ED(Z_) \
    Z_(LDEB, ED04, RXE, RXY, 0) Z_(LXDB, ED05, RXE, RXY, 0) Z_(LXEB, ED06, RXE, RXY, 0) \
    Z_(MXDB, ED07, RXE, RXY, 0) Z_(KEB, ED08, RXE, RXY, 0) Z_(CEB, ED09, RXE, RXY, 0) \
    Z_(AEB, ED0A, RXE, RXY, 0) Z_(SEB, ED0B, RXE, RXY, 0) Z_(MDEB, ED0C, RXE, RXY, 0) \
    Z_(DEB, ED0D, RXE, RXY, 0) Z_(MAEB, ED0E, RXF, RXF, 0) Z_(MSEB, ED0F, RXF, RXF, 0) \
    Z_(TCEB, ED10, RXE, RXY, 0) Z_(TCDB, ED11, RXE, RXY, 0) Z_(TCXB, ED12, RXE, RXY, 0) \
    Z_(SQEB, ED14, RXE, RXY, 0) Z_(SQDB, ED15, RXE, RXY, 0) Z_(MEEB, ED17, RXE, RXY, 0) \
    Z_(KDB, ED18, RXE, RXY, 0) Z_(CDB, ED19, RXE, RXY, 0) Z_(ADB, ED1A, RXE, RXY, 0) \
    Z_(SDB, ED1B, RXE, RXY, 0) Z_(MDB, ED1C, RXE, RXY, 0) Z_(DDB, ED1D, RXE, RXY, 0) \
    Z_(MADB, ED1E, RXF, RXF, 0) Z_(MSDB, ED1F, RXF, RXF, 0) \
    Z_(LDE, ED24, RXE, RXY, 0) Z_(LXD, ED25, RXE, RXY, 0) Z_(LXE, ED26, RXE, RXY, 0) \
    Z_(MAE, ED2E, RXF, RXF, 0) Z_(MSE, ED2F, RXF, RXF, 0) \
    Z_(SQE, ED34, RXE, RXY, 0) Z_(SQD, ED35, RXE, RXY, 0) Z_(MEE, ED37, RXE, RXY, 0) \
    Z_(MAD, ED3E, RXF, RXF, 0) Z_(MSD, ED3F, RXF, RXF, 0) \
    Z_(LEY, ED64, RXY, RXY, 0) Z_(LDY, ED65, RXY, RXY, 0) Z_(STEY, ED66, RXY, RXY, 0) \
    Z_(STDY, ED67, RXY, RXY, 0)

/* Every list, in one order: the enum and the info array must agree. */
#define OPS_ALL(Z_) \
    OPS_1(Z_) OPS_370(Z_) OPS_IO(Z_) OPS_01(Z_) OPS_A5(Z_) OPS_A7(Z_) OPS_B2(Z_) \
    OPS_B3(Z_) OPS_B9(Z_) OPS_C0(Z_) OPS_C2(Z_) OPS_C4(Z_) OPS_C6(Z_) OPS_E3(Z_) \
    OPS_E5(Z_) OPS_EB(Z_) OPS_EC(Z_) OPS_ED(Z_)

#define ENUM_(m, code, fmt, style, flags) OP_##m,
enum { OP_UNKNOWN_ = FST_OP_UNKNOWN, OPS_ALL(ENUM_) OP_COUNT_ };

#define NLEN_(style) \
    ((ST_##style) == ST_SSLL ? 2 \
     : ((ST_##style) == ST_SSL || (ST_##style) == ST_SSL2 || (ST_##style) == ST_SSLI) ? 1 : 0)
#define INFO_(m, code, fmt, style, flags) \
    { #m, #code, FST_FMT_##fmt, ST_##style, NLEN_(style), 0, (uint16_t)(flags) },
#define INFO370_(m, code, fmt, style, flags) \
    { #m, #code, FST_FMT_##fmt, ST_##style, NLEN_(style), 1, (uint16_t)(flags) },

static const fst_opinfo ops[OP_COUNT_] = {
    { "?", "", FST_FMT_UNKNOWN, ST_NONE, 0, 0, 0 },
    OPS_1(INFO_) OPS_370(INFO370_) OPS_IO(INFO370_) OPS_01(INFO_) OPS_A5(INFO_)
    OPS_A7(INFO_) OPS_B2(INFO_) OPS_B3(INFO_) OPS_B9(INFO_) OPS_C0(INFO_) OPS_C2(INFO_)
    OPS_C4(INFO_) OPS_C6(INFO_) OPS_E3(INFO_) OPS_E5(INFO_) OPS_EB(INFO_) OPS_EC(INFO_)
    OPS_ED(INFO_)
};

/* ---- lookup tables ---- */

/* Second-level tables: indexed by the 2nd byte, its low nibble, or the 6th byte. */
#define AT_BYTE_(m, code, fmt, style, flags)   [0x##code & 0xFF] = OP_##m,
#define AT_NIBBLE_(m, code, fmt, style, flags) [0x##code & 0xF] = OP_##m,
/* 9C00..9F02: two bits of the first byte, two of the second */
#define AT_IO_(m, code, fmt, style, flags)     [((0x##code >> 6) & 0xC) | (0x##code & 3)] = OP_##m,

static const uint16_t t01[256] = { OPS_01(AT_BYTE_) };
static const uint16_t tb2[256] = { OPS_B2(AT_BYTE_) };
static const uint16_t tb3[256] = { OPS_B3(AT_BYTE_) };
static const uint16_t tb9[256] = { OPS_B9(AT_BYTE_) };
static const uint16_t te3[256] = { OPS_E3(AT_BYTE_) };
static const uint16_t te5[256] = { OPS_E5(AT_BYTE_) };
static const uint16_t teb[256] = { OPS_EB(AT_BYTE_) };
static const uint16_t tec[256] = { OPS_EC(AT_BYTE_) };
static const uint16_t ted[256] = { OPS_ED(AT_BYTE_) };
static const uint16_t ta5[16] = { OPS_A5(AT_NIBBLE_) };
static const uint16_t ta7[16] = { OPS_A7(AT_NIBBLE_) };
static const uint16_t tc0[16] = { OPS_C0(AT_NIBBLE_) };
static const uint16_t tc2[16] = { OPS_C2(AT_NIBBLE_) };
static const uint16_t tc4[16] = { OPS_C4(AT_NIBBLE_) };
static const uint16_t tc6[16] = { OPS_C6(AT_NIBBLE_) };
static const uint16_t tio[16] = { OPS_IO(AT_IO_) };

/* First level: an op id, or ESC + the index of a second-level table in `sub`. */
enum { ESC = 0x8000 };
enum { WHERE_BYTE1 = 1, WHERE_NIBBLE1 = 2, WHERE_BYTE5 = 5 };
static const struct {
    const uint16_t *tab;
    uint8_t where;
} sub[] = {
    { t01, WHERE_BYTE1 }, { tb2, WHERE_BYTE1 }, { tb3, WHERE_BYTE1 }, { tb9, WHERE_BYTE1 },
    { te5, WHERE_BYTE1 }, { te3, WHERE_BYTE5 }, { teb, WHERE_BYTE5 }, { tec, WHERE_BYTE5 },
    { ted, WHERE_BYTE5 }, { ta5, WHERE_NIBBLE1 }, { ta7, WHERE_NIBBLE1 },
    { tc0, WHERE_NIBBLE1 }, { tc2, WHERE_NIBBLE1 }, { tc4, WHERE_NIBBLE1 },
    { tc6, WHERE_NIBBLE1 },
};

#define AT_FIRST_(m, code, fmt, style, flags) [0x##code] = OP_##m,
static const uint16_t t1[256] = {
    OPS_1(AT_FIRST_)
    [0x01] = ESC | 0, [0xB2] = ESC | 1, [0xB3] = ESC | 2, [0xB9] = ESC | 3,
    [0xE5] = ESC | 4, [0xE3] = ESC | 5, [0xEB] = ESC | 6, [0xEC] = ESC | 7,
    [0xED] = ESC | 8, [0xA5] = ESC | 9, [0xA7] = ESC | 10, [0xC0] = ESC | 11,
    [0xC2] = ESC | 12, [0xC4] = ESC | 13, [0xC6] = ESC | 14,
};

static unsigned lookup(const uint8_t *b, int arch)
{
    unsigned id = t1[b[0]];
    if (id & ESC) {
        unsigned s = id & 0xFF;
        switch (sub[s].where) {
        case WHERE_BYTE1: return sub[s].tab[b[1]];
        case WHERE_NIBBLE1: return sub[s].tab[b[1] & 0xF];
        default: return sub[s].tab[b[5]];
        }
    }
    if (arch == FST_ARCH_S370) {
        /* the only opcodes whose meaning depends on the architecture */
        if (b[0] == 0x84) return OP_WRD;
        if (b[0] == 0x85) return OP_RDD;
        if (b[0] >= 0x9C && b[0] <= 0x9F && b[1] < 4)
            return tio[((b[0] & 3u) << 2) | b[1]];
    }
    return id;
}

/* ---- field extraction ---- */

static inline unsigned hi(uint8_t x) { return x >> 4; }
static inline unsigned lo(uint8_t x) { return x & 0xFu; }
static inline unsigned d12(const uint8_t *b, int i) { return (unsigned)lo(b[i]) << 8 | b[i + 1]; }
/* 20-bit signed displacement: DL in bytes 2-3 (low 12 bits), DH in byte 4 */
static inline int32_t d20(const uint8_t *b)
{
    int32_t v = (int32_t)((uint32_t)b[4] << 12 | d12(b, 2));
    return v >= 0x80000 ? v - 0x100000 : v;
}
static inline int32_t s16(const uint8_t *b, int i) { return (int16_t)fst_get_be16(b + i); }
static inline int32_t s32(const uint8_t *b, int i) { return (int32_t)fst_get_be32(b + i); }

static uint64_t amode_mask(uint32_t state)
{
    switch (fst_st_amode(state)) {
    case 0: return 0xFFFFFFu;
    case 1: return 0x7FFFFFFFu;
    default: return ~(uint64_t)0;
    }
}

/* The signed halfword count of a relative instruction (target = addr + 2 * it). */
static int64_t rel_imm(const fst_opinfo *oi, const uint8_t *b)
{
    switch (oi->style) {
    case ST_RILB: return s32(b, 2);
    default: return s16(b, 2); /* RIB, RSI, RIE branches */
    }
}

void fst_decode(fst_insn *d, const uint8_t *b, uint64_t addr, uint32_t state)
{
    int len = fst_insn_len(b[0]);
    uint8_t t[6] = { 0 };
    memcpy(t, b, (size_t)len);

    unsigned id = lookup(t, fst_st_arch(state));
    const fst_opinfo *oi = &ops[id];
    unsigned sf = oi->flags;
    unsigned f = sf & ~F_PRIVATE;

    memcpy(d->bytes, t, sizeof d->bytes);
    d->addr = addr;
    d->target = 0;
    d->mnem = oi->mnem;
    d->op = (uint16_t)id;
    d->len = (uint8_t)len;
    d->fmt = oi->fmt;
    d->link = 0;
    d->mask = 0;

    if (sf & (F_BR | F_EX)) {
        int can = 1;
        if (sf & F_R2) /* RR: R2 in byte 1; RRE: in byte 3 */
            can = lo(oi->fmt == FST_FMT_RR ? t[1] : t[3]) != 0;
        if (sf & F_MK) {
            unsigned m, full = 15;
            switch (oi->style) {
            case ST_RIERRB: m = hi(t[4]); full = 14; break; /* compare and branch: */
            case ST_RIERIB: m = lo(t[1]); full = 14; break; /* mask bit 3 has no CC */
            default: m = hi(t[1]); break;                   /* BCR BC BRC BRCL */
            }
            d->mask = (uint8_t)m;
            if ((m & full) == 0)
                can = 0;
            else if ((m & full) != full)
                f |= FST_I_COND;
        }
        if (!(sf & F_BR))
            can = 0;
        if (can)
            f |= FST_I_CANBRANCH;
        else
            f &= ~(unsigned)FST_I_COND;
        if (sf & F_LK)
            d->link = (uint8_t)hi(t[1]);

        /* The static target: relative; or base (and index) 0, the displacement alone. */
        int known = 0;
        uint64_t tg = 0;
        if (sf & F_RE) {
            tg = addr + (uint64_t)(2 * rel_imm(oi, t));
            known = 1;
        } else {
            switch (oi->style) {
            case ST_RX:
                if (lo(t[1]) == 0 && hi(t[2]) == 0) tg = d12(t, 2), known = 1;
                break;
            case ST_RXY:
                if (lo(t[1]) == 0 && hi(t[2]) == 0) tg = (uint64_t)(int64_t)d20(t), known = 1;
                break;
            case ST_RS:
                if (hi(t[2]) == 0) tg = d12(t, 2), known = 1;
                break;
            case ST_RSY:
                if (hi(t[2]) == 0) tg = (uint64_t)(int64_t)d20(t), known = 1;
                break;
            default:
                break;
            }
        }
        if (known && (can || (sf & F_EX))) {
            d->target = tg & amode_mask(state);
            f |= FST_I_TARGET;
        }
    }
    d->flags = (uint16_t)f;
}

int fst_insn_lengths(const fst_insn *d, unsigned *l1, unsigned *l2)
{
    const uint8_t *b = d->bytes;
    unsigned a = 0, c = 0;
    int n = ops[d->op].nlen;
    switch (ops[d->op].style) {
    case ST_SSL: case ST_SSL2: a = b[1] + 1u; break;
    case ST_SSLL: a = hi(b[1]) + 1u, c = lo(b[1]) + 1u; break;
    case ST_SSLI: a = hi(b[1]) + 1u; break;
    default: break;
    }
    if (l1) *l1 = a;
    if (l2) *l2 = c;
    return n;
}

unsigned fst_insn_nregs(const fst_insn *d)
{
    if (!(d->flags & FST_I_REGLIST))
        return 0;
    return ((lo(d->bytes[1]) - hi(d->bytes[1])) & 0xFu) + 1;
}

/* ---- disassembly ---- */

int fst_disasm(const fst_insn *d, char *buf, size_t size)
{
    const fst_opinfo *oi = &ops[d->op];
    const uint8_t *b = d->bytes;
    char o[64];
    unsigned r1 = hi(b[1]), r2 = lo(b[1]);

    switch (oi->style) {
    case ST_NONE: o[0] = 0; break;
    case ST_I: snprintf(o, sizeof o, "%u", b[1]); break;
    case ST_RR: snprintf(o, sizeof o, "%u,%u", r1, r2); break;
    case ST_R1: snprintf(o, sizeof o, "%u", r1); break;
    case ST_RRE: snprintf(o, sizeof o, "%u,%u", hi(b[3]), lo(b[3])); break;
    case ST_RRE1: snprintf(o, sizeof o, "%u", hi(b[3])); break;
    case ST_RRFR: snprintf(o, sizeof o, "%u,%u,%u", hi(b[3]), hi(b[2]), lo(b[3])); break;
    case ST_RRFM: snprintf(o, sizeof o, "%u,%u,%u", hi(b[3]), hi(b[2]), lo(b[3])); break;
    case ST_RRFK: snprintf(o, sizeof o, "%u,%u,%u", hi(b[3]), lo(b[3]), hi(b[2])); break;
    case ST_RRFL: snprintf(o, sizeof o, "%u,%u,%u", hi(b[3]), lo(b[3]), hi(b[2])); break;
    case ST_RX: snprintf(o, sizeof o, "%u,%u(%u,%u)", r1, d12(b, 2), r2, hi(b[2])); break;
    case ST_RXY: snprintf(o, sizeof o, "%u,%d(%u,%u)", r1, (int)d20(b), r2, hi(b[2])); break;
    case ST_RXF:
        snprintf(o, sizeof o, "%u,%u,%u(%u,%u)", hi(b[4]), r1, d12(b, 2), r2, hi(b[2]));
        break;
    case ST_RS: snprintf(o, sizeof o, "%u,%u,%u(%u)", r1, r2, d12(b, 2), hi(b[2])); break;
    case ST_RS2: snprintf(o, sizeof o, "%u,%u(%u)", r1, d12(b, 2), hi(b[2])); break;
    case ST_RSY: snprintf(o, sizeof o, "%u,%u,%d(%u)", r1, r2, (int)d20(b), hi(b[2])); break;
    case ST_RSI: case ST_RIER3B:
        snprintf(o, sizeof o, "%u,%u,*%+lld", r1, r2, 2 * (long long)s16(b, 2));
        break;
    case ST_RI: snprintf(o, sizeof o, "%u,%d", r1, (int)s16(b, 2)); break;
    case ST_RIB: snprintf(o, sizeof o, "%u,*%+lld", r1, 2 * (long long)s16(b, 2)); break;
    case ST_RIL: snprintf(o, sizeof o, "%u,%ld", r1, (long)s32(b, 2)); break;
    case ST_RILB: snprintf(o, sizeof o, "%u,*%+lld", r1, 2 * (long long)s32(b, 2)); break;
    case ST_RIERRB:
        snprintf(o, sizeof o, "%u,%u,%u,*%+lld", r1, r2, hi(b[4]), 2 * (long long)s16(b, 2));
        break;
    case ST_RIERIB:
        snprintf(o, sizeof o, "%u,%d,%u,*%+lld", r1, (int)(int8_t)b[4], r2,
                 2 * (long long)s16(b, 2));
        break;
    case ST_RIERRI: snprintf(o, sizeof o, "%u,%u,%d", r1, r2, (int)s16(b, 2)); break;
    case ST_RIE5: snprintf(o, sizeof o, "%u,%u,%u,%u,%u", r1, r2, b[2], b[3], b[4]); break;
    case ST_SI: snprintf(o, sizeof o, "%u(%u),%u", d12(b, 2), hi(b[2]), b[1]); break;
    case ST_SIY: snprintf(o, sizeof o, "%d(%u),%u", (int)d20(b), hi(b[2]), b[1]); break;
    case ST_S: snprintf(o, sizeof o, "%u(%u)", d12(b, 2), hi(b[2])); break;
    case ST_SSL:
        snprintf(o, sizeof o, "%u(%u,%u),%u(%u)", d12(b, 2), b[1] + 1u, hi(b[2]), d12(b, 4),
                 hi(b[4]));
        break;
    case ST_SSL2:
        snprintf(o, sizeof o, "%u(%u),%u(%u,%u)", d12(b, 2), hi(b[2]), d12(b, 4), b[1] + 1u,
                 hi(b[4]));
        break;
    case ST_SSLL:
        snprintf(o, sizeof o, "%u(%u,%u),%u(%u,%u)", d12(b, 2), r1 + 1, hi(b[2]), d12(b, 4),
                 r2 + 1, hi(b[4]));
        break;
    case ST_SSRR:
        snprintf(o, sizeof o, "%u(%u,%u),%u(%u),%u", d12(b, 2), r1, hi(b[2]), d12(b, 4),
                 hi(b[4]), r2);
        break;
    case ST_SSLI:
        snprintf(o, sizeof o, "%u(%u,%u),%u(%u),%u", d12(b, 2), r1 + 1, hi(b[2]), d12(b, 4),
                 hi(b[4]), r2);
        break;
    case ST_SSE:
        snprintf(o, sizeof o, "%u(%u),%u(%u)", d12(b, 2), hi(b[2]), d12(b, 4), hi(b[4]));
        break;
    default: o[0] = 0; break;
    }
    if (!o[0])
        return snprintf(buf, size, "%s", oi->mnem);
    return snprintf(buf, size, "%s %s", oi->mnem, o);
}

/* ---- table queries ---- */

unsigned fst_op_count(void) { return OP_COUNT_; }

const fst_opinfo *fst_op_info(unsigned op) { return op < OP_COUNT_ ? &ops[op] : NULL; }

int fst_op_find(const char *mnem)
{
    for (unsigned i = 1; i < OP_COUNT_; i++)
        if (!strcasecmp(ops[i].mnem, mnem))
            return (int)i;
    return -1;
}

const char *fst_fmt_name(int fmt)
{
    static const char *const names[FST_FMT_COUNT] = {
        "?", "E", "I", "RR", "RRE", "RRF", "RX", "RXE", "RXF", "RXY", "RS", "RSY", "RSI",
        "RI", "RIL", "RIE", "SI", "SIY", "S", "SS", "SSE",
    };
    return fmt >= 0 && fmt < FST_FMT_COUNT ? names[fmt] : "?";
}
