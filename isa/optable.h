/*
** isa/optable.h — the opcode tables of isa/decode.c (included there only):
** every opcode of S/370, ESA/390 and z/Architecture through the z16 Principles of
** Operation (SA22-7832-13, arch14), general, decimal, floating-point (HFP, BFP, DFP),
** control, I/O and vector. The z/Architecture 6-byte E3-ED groups are in optable_z.h.
**
** Each list is an X-macro; an entry is
**
**     Z_(MNEMONIC, opcode, format, "operand layout", flags)
**
**   MNEMONIC   the assembler's name for the opcode: the POO's (and binutils') base
**              mnemonic, the one that takes every field as an operand (BRC, not J;
**              LEDBRA, not LEDBR; VA, not VAB); Hercules' S/370 names where ESA renamed
**              (LRDR, LRER, MER, ME) and where fst always used them (CUUTF, CUTFU).
**   opcode     POO notation: 2 hex digits (one byte), 3 (first byte and the low nibble of
**              the second: A7x, C0x), 4 (first and second byte: B2xx; or, for E3 E6 E7 EB
**              EC ED, the first and the sixth byte).
**   format     FST_FMT_ suffix (POO format family).
**   layout     the operands in assembler order, 3 characters each; a hex digit p is a
**              nibble position in the instruction (0 = the first opcode nibble):
**                Rp-  a register field at p            Vp-  a vector register at p, its
**                                                           fifth bit from the RXB field
**                Upw  unsigned immediate, w nibbles    Spw  signed immediate, w nibbles
**                Jpw  relative: signed w nibbles of halfwords, printed *+n
**                Xbx  D(X,B): base at b, 12-bit displacement after it, index at x
**                     ('-': D(B), no index)
**                Ybx  the same with the 20-bit signed displacement (DL, DH)
**                Lbl  D(L,B): base b, 8-bit length at l (printed L+1)
**                lbl  D(L,B): base b, 4-bit length at l (printed L+1)
**                rbr  D(R,B): base b, register at r (MVCK, MVCP, MVCS)
**                vbv  D(V,B): base b, vector index at v (VGEF, VSCEG...)
**   flags      FST_I_* (F_ shorthands) and decode.c's private branch shape: B_RR B_RRE
**              B_RX B_RXY B_RS B_RSY (target from a register or D(X,B)), B_REL B_RELL
**              (relative, 16 or 32 bits at byte 2), B_IND (BIC: the target is loaded from
**              storage, never static), M_2 M_3 M_8 (the branch mask's nibble; M_3 and M_8
**              are compare-and-branch masks, whose bit 3 has no meaning), LN_ (where the
**              SS lengths are).
**
** The opcodes and their operands were checked against binutils' opcode table (2.40,
** -march=z16): tests/decode/ regenerates the comparison, tests/unit/test_decode_binutils.c
** runs it. The branch classification comes from the POO, not from binutils.
*/
/* ---- one-byte opcodes ---- */
#define OPS_1(Z_) \
    Z_(SPM, 04, RR, "R2-", 0) Z_(BALR, 05, RR, "R2-R3-", B_RR | F_LK) \
    Z_(BCTR, 06, RR, "R2-R3-", B_RR | F_CO) Z_(BCR, 07, RR, "U21R3-", B_RR | M_2) \
    Z_(SSK, 08, RR, "R2-R3-", 0) Z_(ISK, 09, RR, "R2-R3-", 0) Z_(SVC, 0A, I, "U22", F_PS) \
    Z_(BSM, 0B, RR, "R2-R3-", B_RR | F_AM) Z_(BASSM, 0C, RR, "R2-R3-", B_RR | F_LK | F_AM) \
    Z_(BASR, 0D, RR, "R2-R3-", B_RR | F_LK) Z_(MVCL, 0E, RR, "R2-R3-", F_RN) \
    Z_(CLCL, 0F, RR, "R2-R3-", F_RN) Z_(LPR, 10, RR, "R2-R3-", 0) Z_(LNR, 11, RR, "R2-R3-", 0) \
    Z_(LTR, 12, RR, "R2-R3-", 0) Z_(LCR, 13, RR, "R2-R3-", 0) Z_(NR, 14, RR, "R2-R3-", 0) \
    Z_(CLR, 15, RR, "R2-R3-", 0) Z_(OR, 16, RR, "R2-R3-", 0) Z_(XR, 17, RR, "R2-R3-", 0) \
    Z_(LR, 18, RR, "R2-R3-", 0) Z_(CR, 19, RR, "R2-R3-", 0) Z_(AR, 1A, RR, "R2-R3-", 0) \
    Z_(SR, 1B, RR, "R2-R3-", 0) Z_(MR, 1C, RR, "R2-R3-", 0) Z_(DR, 1D, RR, "R2-R3-", 0) \
    Z_(ALR, 1E, RR, "R2-R3-", 0) Z_(SLR, 1F, RR, "R2-R3-", 0) Z_(LPDR, 20, RR, "R2-R3-", 0) \
    Z_(LNDR, 21, RR, "R2-R3-", 0) Z_(LTDR, 22, RR, "R2-R3-", 0) Z_(LCDR, 23, RR, "R2-R3-", 0) \
    Z_(HDR, 24, RR, "R2-R3-", 0) Z_(LRDR, 25, RR, "R2-R3-", 0) Z_(MXR, 26, RR, "R2-R3-", 0) \
    Z_(MXDR, 27, RR, "R2-R3-", 0) Z_(LDR, 28, RR, "R2-R3-", 0) Z_(CDR, 29, RR, "R2-R3-", 0) \
    Z_(ADR, 2A, RR, "R2-R3-", 0) Z_(SDR, 2B, RR, "R2-R3-", 0) Z_(MDR, 2C, RR, "R2-R3-", 0) \
    Z_(DDR, 2D, RR, "R2-R3-", 0) Z_(AWR, 2E, RR, "R2-R3-", 0) Z_(SWR, 2F, RR, "R2-R3-", 0) \
    Z_(LPER, 30, RR, "R2-R3-", 0) Z_(LNER, 31, RR, "R2-R3-", 0) Z_(LTER, 32, RR, "R2-R3-", 0) \
    Z_(LCER, 33, RR, "R2-R3-", 0) Z_(HER, 34, RR, "R2-R3-", 0) Z_(LRER, 35, RR, "R2-R3-", 0) \
    Z_(AXR, 36, RR, "R2-R3-", 0) Z_(SXR, 37, RR, "R2-R3-", 0) Z_(LER, 38, RR, "R2-R3-", 0) \
    Z_(CER, 39, RR, "R2-R3-", 0) Z_(AER, 3A, RR, "R2-R3-", 0) Z_(SER, 3B, RR, "R2-R3-", 0) \
    Z_(MER, 3C, RR, "R2-R3-", 0) Z_(DER, 3D, RR, "R2-R3-", 0) Z_(AUR, 3E, RR, "R2-R3-", 0) \
    Z_(SUR, 3F, RR, "R2-R3-", 0) Z_(STH, 40, RX, "R2-X43", 0) Z_(LA, 41, RX, "R2-X43", 0) \
    Z_(STC, 42, RX, "R2-X43", 0) Z_(IC, 43, RX, "R2-X43", 0) \
    Z_(EX, 44, RX, "R2-X43", F_EX | T_RX) Z_(BAL, 45, RX, "R2-X43", B_RX | F_LK) \
    Z_(BCT, 46, RX, "R2-X43", B_RX | F_CO) Z_(BC, 47, RX, "U21X43", B_RX | M_2) \
    Z_(LH, 48, RX, "R2-X43", 0) Z_(CH, 49, RX, "R2-X43", 0) Z_(AH, 4A, RX, "R2-X43", 0) \
    Z_(SH, 4B, RX, "R2-X43", 0) Z_(MH, 4C, RX, "R2-X43", 0) \
    Z_(BAS, 4D, RX, "R2-X43", B_RX | F_LK) Z_(CVD, 4E, RX, "R2-X43", 0) \
    Z_(CVB, 4F, RX, "R2-X43", 0) Z_(ST, 50, RX, "R2-X43", 0) Z_(LAE, 51, RX, "R2-X43", 0) \
    Z_(N, 54, RX, "R2-X43", 0) Z_(CL, 55, RX, "R2-X43", 0) Z_(O, 56, RX, "R2-X43", 0) \
    Z_(X, 57, RX, "R2-X43", 0) Z_(L, 58, RX, "R2-X43", 0) Z_(C, 59, RX, "R2-X43", 0) \
    Z_(A, 5A, RX, "R2-X43", 0) Z_(S, 5B, RX, "R2-X43", 0) Z_(M, 5C, RX, "R2-X43", 0) \
    Z_(D, 5D, RX, "R2-X43", 0) Z_(AL, 5E, RX, "R2-X43", 0) Z_(SL, 5F, RX, "R2-X43", 0) \
    Z_(STD, 60, RX, "R2-X43", 0) Z_(MXD, 67, RX, "R2-X43", 0) Z_(LD, 68, RX, "R2-X43", 0) \
    Z_(CD, 69, RX, "R2-X43", 0) Z_(AD, 6A, RX, "R2-X43", 0) Z_(SD, 6B, RX, "R2-X43", 0) \
    Z_(MD, 6C, RX, "R2-X43", 0) Z_(DD, 6D, RX, "R2-X43", 0) Z_(AW, 6E, RX, "R2-X43", 0) \
    Z_(SW, 6F, RX, "R2-X43", 0) Z_(STE, 70, RX, "R2-X43", 0) Z_(MS, 71, RX, "R2-X43", 0) \
    Z_(LE, 78, RX, "R2-X43", 0) Z_(CE, 79, RX, "R2-X43", 0) Z_(AE, 7A, RX, "R2-X43", 0) \
    Z_(SE, 7B, RX, "R2-X43", 0) Z_(ME, 7C, RX, "R2-X43", 0) Z_(DE, 7D, RX, "R2-X43", 0) \
    Z_(AU, 7E, RX, "R2-X43", 0) Z_(SU, 7F, RX, "R2-X43", 0) Z_(SSM, 80, S, "X4-", 0) \
    Z_(LPSW, 82, S, "X4-", F_PS) Z_(DIAG, 83, RS, "R2-R3-X4-", 0) \
    Z_(BRXH, 84, RSI, "R2-R3-J44", B_REL | F_CO) Z_(BRXLE, 85, RSI, "R2-R3-J44", B_REL | F_CO) \
    Z_(BXH, 86, RS, "R2-R3-X4-", B_RS | F_CO) Z_(BXLE, 87, RS, "R2-R3-X4-", B_RS | F_CO) \
    Z_(SRL, 88, RS, "R2-X4-", 0) Z_(SLL, 89, RS, "R2-X4-", 0) Z_(SRA, 8A, RS, "R2-X4-", 0) \
    Z_(SLA, 8B, RS, "R2-X4-", 0) Z_(SRDL, 8C, RS, "R2-X4-", 0) Z_(SLDL, 8D, RS, "R2-X4-", 0) \
    Z_(SRDA, 8E, RS, "R2-X4-", 0) Z_(SLDA, 8F, RS, "R2-X4-", 0) \
    Z_(STM, 90, RS, "R2-R3-X4-", F_RL) Z_(TM, 91, SI, "X4-U22", 0) Z_(MVI, 92, SI, "X4-U22", 0) \
    Z_(TS, 93, S, "X4-", 0) Z_(NI, 94, SI, "X4-U22", 0) Z_(CLI, 95, SI, "X4-U22", 0) \
    Z_(OI, 96, SI, "X4-U22", 0) Z_(XI, 97, SI, "X4-U22", 0) Z_(LM, 98, RS, "R2-R3-X4-", F_RL) \
    Z_(TRACE, 99, RS, "R2-R3-X4-", F_RL) Z_(LAM, 9A, RS, "R2-R3-X4-", F_RL) \
    Z_(STAM, 9B, RS, "R2-R3-X4-", F_RL) Z_(MVCLE, A8, RS, "R2-R3-X4-", F_RN) \
    Z_(CLCLE, A9, RS, "R2-R3-X4-", F_RN) Z_(STNSM, AC, SI, "X4-U22", 0) \
    Z_(STOSM, AD, SI, "X4-U22", 0) Z_(SIGP, AE, RS, "R2-R3-X4-", 0) Z_(MC, AF, SI, "X4-U22", 0) \
    Z_(LRA, B1, RX, "R2-X43", 0) Z_(STCTL, B6, RS, "R2-R3-X4-", F_RL) \
    Z_(LCTL, B7, RS, "R2-R3-X4-", F_RL) Z_(CS, BA, RS, "R2-R3-X4-", 0) \
    Z_(CDS, BB, RS, "R2-R3-X4-", 0) Z_(CLM, BD, RS, "R2-U31X4-", 0) \
    Z_(STCM, BE, RS, "R2-U31X4-", 0) Z_(ICM, BF, RS, "R2-U31X4-", 0) \
    Z_(BPRP, C5, MII, "U21J33J66", 0) Z_(BPP, C7, SMI, "U21J84X4-", 0) \
    Z_(TRTR, D0, SS, "L42X8-", LN_L8) Z_(MVN, D1, SS, "L42X8-", LN_L8) \
    Z_(MVC, D2, SS, "L42X8-", LN_L8) Z_(MVZ, D3, SS, "L42X8-", LN_L8) \
    Z_(NC, D4, SS, "L42X8-", LN_L8) Z_(CLC, D5, SS, "L42X8-", LN_L8) \
    Z_(OC, D6, SS, "L42X8-", LN_L8) Z_(XC, D7, SS, "L42X8-", LN_L8) \
    Z_(MVCK, D9, SS, "r42X8-R3-", F_RN) Z_(MVCP, DA, SS, "r42X8-R3-", F_RN) \
    Z_(MVCS, DB, SS, "r42X8-R3-", F_RN) Z_(TR, DC, SS, "L42X8-", LN_L8) \
    Z_(TRT, DD, SS, "L42X8-", LN_L8) Z_(ED, DE, SS, "L42X8-", LN_L8) \
    Z_(EDMK, DF, SS, "L42X8-", LN_L8) Z_(PKU, E1, SS, "X4-L82", LN_L8) \
    Z_(UNPKU, E2, SS, "L42X8-", LN_L8) Z_(MVCIN, E8, SS, "L42X8-", LN_L8) \
    Z_(PKA, E9, SS, "X4-L82", LN_L8) Z_(UNPKA, EA, SS, "L42X8-", LN_L8) \
    Z_(PLO, EE, SS, "R2-X4-R3-X8-", 0) Z_(LMD, EF, SS, "R2-R3-X4-X8-", F_RL) \
    Z_(SRP, F0, SS, "l42X8-U31", LN_L4) Z_(MVO, F1, SS, "l42l83", LN_L44) \
    Z_(PACK, F2, SS, "l42l83", LN_L44) Z_(UNPK, F3, SS, "l42l83", LN_L44) \
    Z_(ZAP, F8, SS, "l42l83", LN_L44) Z_(CP, F9, SS, "l42l83", LN_L44) \
    Z_(AP, FA, SS, "l42l83", LN_L44) Z_(SP, FB, SS, "l42l83", LN_L44) \
    Z_(MP, FC, SS, "l42l83", LN_L44) Z_(DP, FD, SS, "l42l83", LN_L44)

/* ---- 01xx (E) ---- */
#define OPS_01(Z_) \
    Z_(PR, 0101, E, "", F_PS) Z_(UPT, 0102, E, "", 0) Z_(PTFF, 0104, E, "", 0) \
    Z_(SCKPF, 0107, E, "", 0) Z_(PFPO, 010A, E, "", 0) Z_(TAM, 010B, E, "", 0) \
    Z_(SAM24, 010C, E, "", F_AM) Z_(SAM31, 010D, E, "", F_AM) Z_(SAM64, 010E, E, "", F_AM) \
    Z_(TRAP2, 01FF, E, "", F_PS)

/* ---- A5x (RI) ---- */
#define OPS_A5(Z_) \
    Z_(IIHH, A50, RI, "R2-U44", 0) Z_(IIHL, A51, RI, "R2-U44", 0) Z_(IILH, A52, RI, "R2-U44", 0) \
    Z_(IILL, A53, RI, "R2-U44", 0) Z_(NIHH, A54, RI, "R2-U44", 0) Z_(NIHL, A55, RI, "R2-U44", 0) \
    Z_(NILH, A56, RI, "R2-U44", 0) Z_(NILL, A57, RI, "R2-U44", 0) Z_(OIHH, A58, RI, "R2-U44", 0) \
    Z_(OIHL, A59, RI, "R2-U44", 0) Z_(OILH, A5A, RI, "R2-U44", 0) Z_(OILL, A5B, RI, "R2-U44", 0) \
    Z_(LLIHH, A5C, RI, "R2-U44", 0) Z_(LLIHL, A5D, RI, "R2-U44", 0) \
    Z_(LLILH, A5E, RI, "R2-U44", 0) Z_(LLILL, A5F, RI, "R2-U44", 0)

/* ---- A7x (RI) ---- */
#define OPS_A7(Z_) \
    Z_(TMLH, A70, RI, "R2-U44", 0) Z_(TMLL, A71, RI, "R2-U44", 0) Z_(TMHH, A72, RI, "R2-U44", 0) \
    Z_(TMHL, A73, RI, "R2-U44", 0) Z_(BRC, A74, RI, "U21J44", B_REL | M_2) \
    Z_(BRAS, A75, RI, "R2-J44", B_REL | F_LK) Z_(BRCT, A76, RI, "R2-J44", B_REL | F_CO) \
    Z_(BRCTG, A77, RI, "R2-J44", B_REL | F_CO) Z_(LHI, A78, RI, "R2-S44", 0) \
    Z_(LGHI, A79, RI, "R2-S44", 0) Z_(AHI, A7A, RI, "R2-S44", 0) Z_(AGHI, A7B, RI, "R2-S44", 0) \
    Z_(MHI, A7C, RI, "R2-S44", 0) Z_(MGHI, A7D, RI, "R2-S44", 0) Z_(CHI, A7E, RI, "R2-S44", 0) \
    Z_(CGHI, A7F, RI, "R2-S44", 0)

/* ---- B2xx ---- */
#define OPS_B2(Z_) \
    Z_(LBEAR, B200, S, "X4-", 0) Z_(STBEAR, B201, S, "X4-", 0) Z_(STIDP, B202, S, "X4-", 0) \
    Z_(STIDC, B203, S, "X4-", 0) Z_(SCK, B204, S, "X4-", 0) Z_(STCK, B205, S, "X4-", 0) \
    Z_(SCKC, B206, S, "X4-", 0) Z_(STCKC, B207, S, "X4-", 0) Z_(SPT, B208, S, "X4-", 0) \
    Z_(STPT, B209, S, "X4-", 0) Z_(SPKA, B20A, S, "X4-", 0) Z_(IPK, B20B, S, "", 0) \
    Z_(PTLB, B20D, S, "", 0) Z_(SPX, B210, S, "X4-", 0) Z_(STPX, B211, S, "X4-", 0) \
    Z_(STAP, B212, S, "X4-", 0) Z_(RRB, B213, S, "X4-", 0) Z_(SIE, B214, S, "X4-", 0) \
    Z_(PC, B218, S, "X4-", F_PS) Z_(SAC, B219, S, "X4-", 0) Z_(CFC, B21A, S, "X4-", 0) \
    Z_(IPTE, B221, RRF, "R6-R7-R4-U51", 0) Z_(IPM, B222, RRE, "R6-", 0) \
    Z_(IVSK, B223, RRE, "R6-R7-", 0) Z_(IAC, B224, RRE, "R6-", 0) Z_(SSAR, B225, RRE, "R6-", 0) \
    Z_(EPAR, B226, RRE, "R6-", 0) Z_(ESAR, B227, RRE, "R6-", 0) \
    Z_(PT, B228, RRE, "R6-R7-", F_PS) Z_(ISKE, B229, RRE, "R6-R7-", 0) \
    Z_(RRBE, B22A, RRE, "R6-R7-", 0) Z_(SSKE, B22B, RRF, "R6-R7-U41", 0) \
    Z_(TB, B22C, RRE, "R6-R7-", 0) Z_(DXR, B22D, RRE, "R6-R7-", 0) \
    Z_(PGIN, B22E, RRE, "R6-R7-", 0) Z_(PGOUT, B22F, RRE, "R6-R7-", 0) Z_(CSCH, B230, S, "", 0) \
    Z_(HSCH, B231, S, "", 0) Z_(MSCH, B232, S, "X4-", 0) Z_(SSCH, B233, S, "X4-", 0) \
    Z_(STSCH, B234, S, "X4-", 0) Z_(TSCH, B235, S, "X4-", 0) Z_(TPI, B236, S, "X4-", 0) \
    Z_(SAL, B237, S, "", 0) Z_(RSCH, B238, S, "", 0) Z_(STCRW, B239, S, "X4-", 0) \
    Z_(STCPS, B23A, S, "X4-", 0) Z_(RCHP, B23B, S, "", 0) Z_(SCHM, B23C, S, "", 0) \
    Z_(BAKR, B240, RRE, "R6-R7-", B_RRE) Z_(CKSM, B241, RRE, "R6-R7-", F_RN) \
    Z_(SQDR, B244, RRE, "R6-R7-", 0) Z_(SQER, B245, RRE, "R6-R7-", 0) \
    Z_(STURA, B246, RRE, "R6-R7-", 0) Z_(MSTA, B247, RRE, "R6-", 0) Z_(PALB, B248, RRE, "", 0) \
    Z_(EREG, B249, RRE, "R6-R7-", 0) Z_(ESTA, B24A, RRE, "R6-R7-", 0) \
    Z_(LURA, B24B, RRE, "R6-R7-", 0) Z_(TAR, B24C, RRE, "R6-R7-", 0) \
    Z_(CPYA, B24D, RRE, "R6-R7-", 0) Z_(SAR, B24E, RRE, "R6-R7-", 0) \
    Z_(EAR, B24F, RRE, "R6-R7-", 0) Z_(CSP, B250, RRE, "R6-R7-", 0) \
    Z_(MSR, B252, RRE, "R6-R7-", 0) Z_(MVPG, B254, RRE, "R6-R7-", 0) \
    Z_(MVST, B255, RRE, "R6-R7-", 0) Z_(CUSE, B257, RRE, "R6-R7-", F_RN) \
    Z_(BSG, B258, RRE, "R6-R7-", B_RRE) Z_(BSA, B25A, RRE, "R6-R7-", B_RRE) \
    Z_(CLST, B25D, RRE, "R6-R7-", 0) Z_(SRST, B25E, RRE, "R6-R7-", 0) \
    Z_(CMPSC, B263, RRE, "R6-R7-", F_RN) Z_(SIGA, B274, S, "X4-", 0) Z_(XSCH, B276, S, "", 0) \
    Z_(RP, B277, S, "X4-", F_PS) Z_(STCKE, B278, S, "X4-", 0) Z_(SACF, B279, S, "X4-", 0) \
    Z_(STCKF, B27C, S, "X4-", 0) Z_(STSI, B27D, S, "X4-", 0) Z_(LPP, B280, S, "X4-", 0) \
    Z_(LCCTL, B284, S, "X4-", 0) Z_(LPCTL, B285, S, "X4-", 0) Z_(QSI, B286, S, "X4-", 0) \
    Z_(LSCTL, B287, S, "X4-", 0) Z_(QCTRI, B28E, S, "X4-", 0) Z_(QPACI, B28F, S, "X4-", 0) \
    Z_(SRNM, B299, S, "X4-", 0) Z_(STFPC, B29C, S, "X4-", 0) Z_(LFPC, B29D, S, "X4-", 0) \
    Z_(TRE, B2A5, RRE, "R6-R7-", F_RN) Z_(CUUTF, B2A6, RRF, "R6-R7-U41", F_RN) \
    Z_(CUTFU, B2A7, RRF, "R6-R7-U41", F_RN) Z_(STFLE, B2B0, S, "X4-", 0) \
    Z_(STFL, B2B1, S, "X4-", 0) Z_(LPSWE, B2B2, S, "X4-", F_PS) Z_(SRNMB, B2B8, S, "X4-", 0) \
    Z_(SRNMT, B2B9, S, "X4-", 0) Z_(LFAS, B2BD, S, "X4-", 0) Z_(SCCTR, B2E0, RRE, "R6-R7-", 0) \
    Z_(SPCTR, B2E1, RRE, "R6-R7-", 0) Z_(ECCTR, B2E4, RRE, "R6-R7-", 0) \
    Z_(EPCTR, B2E5, RRE, "R6-R7-", 0) Z_(PPA, B2E8, RRF, "R6-R7-U41", 0) \
    Z_(ETND, B2EC, RRE, "R6-", 0) Z_(ECPGA, B2ED, RRE, "R6-R7-", 0) Z_(TEND, B2F8, S, "", 0) \
    Z_(NIAI, B2FA, IE, "U61U71", 0) Z_(TABORT, B2FC, S, "X4-", 0) \
    Z_(TRAP4, B2FF, S, "X4-", F_PS)

/* ---- B3xx: binary, hexadecimal and decimal floating point ---- */
#define OPS_B3(Z_) \
    Z_(LPEBR, B300, RRE, "R6-R7-", 0) Z_(LNEBR, B301, RRE, "R6-R7-", 0) \
    Z_(LTEBR, B302, RRE, "R6-R7-", 0) Z_(LCEBR, B303, RRE, "R6-R7-", 0) \
    Z_(LDEBR, B304, RRE, "R6-R7-", 0) Z_(LXDBR, B305, RRE, "R6-R7-", 0) \
    Z_(LXEBR, B306, RRE, "R6-R7-", 0) Z_(MXDBR, B307, RRE, "R6-R7-", 0) \
    Z_(KEBR, B308, RRE, "R6-R7-", 0) Z_(CEBR, B309, RRE, "R6-R7-", 0) \
    Z_(AEBR, B30A, RRE, "R6-R7-", 0) Z_(SEBR, B30B, RRE, "R6-R7-", 0) \
    Z_(MDEBR, B30C, RRE, "R6-R7-", 0) Z_(DEBR, B30D, RRE, "R6-R7-", 0) \
    Z_(MAEBR, B30E, RRF, "R4-R6-R7-", 0) Z_(MSEBR, B30F, RRF, "R4-R6-R7-", 0) \
    Z_(LPDBR, B310, RRE, "R6-R7-", 0) Z_(LNDBR, B311, RRE, "R6-R7-", 0) \
    Z_(LTDBR, B312, RRE, "R6-R7-", 0) Z_(LCDBR, B313, RRE, "R6-R7-", 0) \
    Z_(SQEBR, B314, RRE, "R6-R7-", 0) Z_(SQDBR, B315, RRE, "R6-R7-", 0) \
    Z_(SQXBR, B316, RRE, "R6-R7-", 0) Z_(MEEBR, B317, RRE, "R6-R7-", 0) \
    Z_(KDBR, B318, RRE, "R6-R7-", 0) Z_(CDBR, B319, RRE, "R6-R7-", 0) \
    Z_(ADBR, B31A, RRE, "R6-R7-", 0) Z_(SDBR, B31B, RRE, "R6-R7-", 0) \
    Z_(MDBR, B31C, RRE, "R6-R7-", 0) Z_(DDBR, B31D, RRE, "R6-R7-", 0) \
    Z_(MADBR, B31E, RRF, "R4-R6-R7-", 0) Z_(MSDBR, B31F, RRF, "R4-R6-R7-", 0) \
    Z_(LDER, B324, RRE, "R6-R7-", 0) Z_(LXDR, B325, RRE, "R6-R7-", 0) \
    Z_(LXER, B326, RRE, "R6-R7-", 0) Z_(MAER, B32E, RRF, "R4-R6-R7-", 0) \
    Z_(MSER, B32F, RRF, "R4-R6-R7-", 0) Z_(SQXR, B336, RRE, "R6-R7-", 0) \
    Z_(MEER, B337, RRE, "R6-R7-", 0) Z_(MAYLR, B338, RRF, "R4-R6-R7-", 0) \
    Z_(MYLR, B339, RRF, "R4-R6-R7-", 0) Z_(MAYR, B33A, RRF, "R4-R6-R7-", 0) \
    Z_(MYR, B33B, RRF, "R4-R6-R7-", 0) Z_(MAYHR, B33C, RRF, "R4-R6-R7-", 0) \
    Z_(MYHR, B33D, RRF, "R4-R6-R7-", 0) Z_(MADR, B33E, RRF, "R4-R6-R7-", 0) \
    Z_(MSDR, B33F, RRF, "R4-R6-R7-", 0) Z_(LPXBR, B340, RRE, "R6-R7-", 0) \
    Z_(LNXBR, B341, RRE, "R6-R7-", 0) Z_(LTXBR, B342, RRE, "R6-R7-", 0) \
    Z_(LCXBR, B343, RRE, "R6-R7-", 0) Z_(LEDBRA, B344, RRF, "R6-U41R7-U51", 0) \
    Z_(LDXBRA, B345, RRF, "R6-U41R7-U51", 0) Z_(LEXBRA, B346, RRF, "R6-U41R7-U51", 0) \
    Z_(FIXBRA, B347, RRF, "R6-U41R7-U51", 0) Z_(KXBR, B348, RRE, "R6-R7-", 0) \
    Z_(CXBR, B349, RRE, "R6-R7-", 0) Z_(AXBR, B34A, RRE, "R6-R7-", 0) \
    Z_(SXBR, B34B, RRE, "R6-R7-", 0) Z_(MXBR, B34C, RRE, "R6-R7-", 0) \
    Z_(DXBR, B34D, RRE, "R6-R7-", 0) Z_(TBEDR, B350, RRF, "R6-U41R7-", 0) \
    Z_(TBDR, B351, RRF, "R6-U41R7-", 0) Z_(DIEBR, B353, RRF, "R6-R4-R7-U51", 0) \
    Z_(FIEBRA, B357, RRF, "R6-U41R7-U51", 0) Z_(THDER, B358, RRE, "R6-R7-", 0) \
    Z_(THDR, B359, RRE, "R6-R7-", 0) Z_(DIDBR, B35B, RRF, "R6-R4-R7-U51", 0) \
    Z_(FIDBRA, B35F, RRF, "R6-U41R7-U51", 0) Z_(LPXR, B360, RRE, "R6-R7-", 0) \
    Z_(LNXR, B361, RRE, "R6-R7-", 0) Z_(LTXR, B362, RRE, "R6-R7-", 0) \
    Z_(LCXR, B363, RRE, "R6-R7-", 0) Z_(LXR, B365, RRE, "R6-R7-", 0) \
    Z_(LEXR, B366, RRE, "R6-R7-", 0) Z_(FIXR, B367, RRE, "R6-R7-", 0) \
    Z_(CXR, B369, RRE, "R6-R7-", 0) Z_(LPDFR, B370, RRE, "R6-R7-", 0) \
    Z_(LNDFR, B371, RRE, "R6-R7-", 0) Z_(CPSDR, B372, RRF, "R6-R4-R7-", 0) \
    Z_(LCDFR, B373, RRE, "R6-R7-", 0) Z_(LZER, B374, RRE, "R6-", 0) \
    Z_(LZDR, B375, RRE, "R6-", 0) Z_(LZXR, B376, RRE, "R6-", 0) Z_(FIER, B377, RRE, "R6-R7-", 0) \
    Z_(FIDR, B37F, RRE, "R6-R7-", 0) Z_(SFPC, B384, RRE, "R6-R7-", 0) \
    Z_(SFASR, B385, RRE, "R6-", 0) Z_(EFPC, B38C, RRE, "R6-R7-", 0) \
    Z_(CELFBR, B390, RRF, "R6-U41R7-U51", 0) Z_(CDLFBR, B391, RRF, "R6-U41R7-U51", 0) \
    Z_(CXLFBR, B392, RRF, "R6-U41R7-U51", 0) Z_(CEFBRA, B394, RRF, "R6-U41R7-U51", 0) \
    Z_(CDFBRA, B395, RRF, "R6-U41R7-U51", 0) Z_(CXFBRA, B396, RRF, "R6-U41R7-U51", 0) \
    Z_(CFEBRA, B398, RRF, "R6-U41R7-U51", 0) Z_(CFDBRA, B399, RRF, "R6-U41R7-U51", 0) \
    Z_(CFXBRA, B39A, RRF, "R6-U41R7-U51", 0) Z_(CLFEBR, B39C, RRF, "R6-U41R7-U51", 0) \
    Z_(CLFDBR, B39D, RRF, "R6-U41R7-U51", 0) Z_(CLFXBR, B39E, RRF, "R6-U41R7-U51", 0) \
    Z_(CELGBR, B3A0, RRF, "R6-U41R7-U51", 0) Z_(CDLGBR, B3A1, RRF, "R6-U41R7-U51", 0) \
    Z_(CXLGBR, B3A2, RRF, "R6-U41R7-U51", 0) Z_(CEGBRA, B3A4, RRF, "R6-U41R7-U51", 0) \
    Z_(CDGBRA, B3A5, RRF, "R6-U41R7-U51", 0) Z_(CXGBRA, B3A6, RRF, "R6-U41R7-U51", 0) \
    Z_(CGEBRA, B3A8, RRF, "R6-U41R7-U51", 0) Z_(CGDBRA, B3A9, RRF, "R6-U41R7-U51", 0) \
    Z_(CGXBRA, B3AA, RRF, "R6-U41R7-U51", 0) Z_(CLGEBR, B3AC, RRF, "R6-U41R7-U51", 0) \
    Z_(CLGDBR, B3AD, RRF, "R6-U41R7-U51", 0) Z_(CLGXBR, B3AE, RRF, "R6-U41R7-U51", 0) \
    Z_(CEFR, B3B4, RRE, "R6-R7-", 0) Z_(CDFR, B3B5, RRE, "R6-R7-", 0) \
    Z_(CXFR, B3B6, RRE, "R6-R7-", 0) Z_(CFER, B3B8, RRF, "R6-U41R7-", 0) \
    Z_(CFDR, B3B9, RRF, "R6-U41R7-", 0) Z_(CFXR, B3BA, RRF, "R6-U41R7-", 0) \
    Z_(LDGR, B3C1, RRE, "R6-R7-", 0) Z_(CEGR, B3C4, RRE, "R6-R7-", 0) \
    Z_(CDGR, B3C5, RRE, "R6-R7-", 0) Z_(CXGR, B3C6, RRE, "R6-R7-", 0) \
    Z_(CGER, B3C8, RRF, "R6-U41R7-", 0) Z_(CGDR, B3C9, RRF, "R6-U41R7-", 0) \
    Z_(CGXR, B3CA, RRF, "R6-U41R7-", 0) Z_(LGDR, B3CD, RRE, "R6-R7-", 0) \
    Z_(MDTRA, B3D0, RRF, "R6-R7-R4-U51", 0) Z_(DDTRA, B3D1, RRF, "R6-R7-R4-U51", 0) \
    Z_(ADTRA, B3D2, RRF, "R6-R7-R4-U51", 0) Z_(SDTRA, B3D3, RRF, "R6-R7-R4-U51", 0) \
    Z_(LDETR, B3D4, RRF, "R6-R7-U51", 0) Z_(LEDTR, B3D5, RRF, "R6-U41R7-U51", 0) \
    Z_(LTDTR, B3D6, RRE, "R6-R7-", 0) Z_(FIDTR, B3D7, RRF, "R6-U41R7-U51", 0) \
    Z_(MXTRA, B3D8, RRF, "R6-R7-R4-U51", 0) Z_(DXTRA, B3D9, RRF, "R6-R7-R4-U51", 0) \
    Z_(AXTRA, B3DA, RRF, "R6-R7-R4-U51", 0) Z_(SXTRA, B3DB, RRF, "R6-R7-R4-U51", 0) \
    Z_(LXDTR, B3DC, RRF, "R6-R7-U51", 0) Z_(LDXTR, B3DD, RRF, "R6-U41R7-U51", 0) \
    Z_(LTXTR, B3DE, RRE, "R6-R7-", 0) Z_(FIXTR, B3DF, RRF, "R6-U41R7-U51", 0) \
    Z_(KDTR, B3E0, RRE, "R6-R7-", 0) Z_(CGDTRA, B3E1, RRF, "R6-U41R7-U51", 0) \
    Z_(CUDTR, B3E2, RRE, "R6-R7-", 0) Z_(CSDTR, B3E3, RRF, "R6-R7-U51", 0) \
    Z_(CDTR, B3E4, RRE, "R6-R7-", 0) Z_(EEDTR, B3E5, RRE, "R6-R7-", 0) \
    Z_(ESDTR, B3E7, RRE, "R6-R7-", 0) Z_(KXTR, B3E8, RRE, "R6-R7-", 0) \
    Z_(CGXTRA, B3E9, RRF, "R6-U41R7-U51", 0) Z_(CUXTR, B3EA, RRE, "R6-R7-", 0) \
    Z_(CSXTR, B3EB, RRF, "R6-R7-U51", 0) Z_(CXTR, B3EC, RRE, "R6-R7-", 0) \
    Z_(EEXTR, B3ED, RRE, "R6-R7-", 0) Z_(ESXTR, B3EF, RRE, "R6-R7-", 0) \
    Z_(CDGTRA, B3F1, RRF, "R6-U41R7-U51", 0) Z_(CDUTR, B3F2, RRE, "R6-R7-", 0) \
    Z_(CDSTR, B3F3, RRE, "R6-R7-", 0) Z_(CEDTR, B3F4, RRE, "R6-R7-", 0) \
    Z_(QADTR, B3F5, RRF, "R6-R4-R7-U51", 0) Z_(IEDTR, B3F6, RRF, "R6-R4-R7-", 0) \
    Z_(RRDTR, B3F7, RRF, "R6-R4-R7-U51", 0) Z_(CXGTRA, B3F9, RRF, "R6-U41R7-U51", 0) \
    Z_(CXUTR, B3FA, RRE, "R6-R7-", 0) Z_(CXSTR, B3FB, RRE, "R6-R7-", 0) \
    Z_(CEXTR, B3FC, RRE, "R6-R7-", 0) Z_(QAXTR, B3FD, RRF, "R6-R4-R7-U51", 0) \
    Z_(IEXTR, B3FE, RRF, "R6-R4-R7-", 0) Z_(RRXTR, B3FF, RRF, "R6-R4-R7-U51", 0)

/* ---- B9xx (RRE, RRF) ---- */
#define OPS_B9(Z_) \
    Z_(LPGR, B900, RRE, "R6-R7-", 0) Z_(LNGR, B901, RRE, "R6-R7-", 0) \
    Z_(LTGR, B902, RRE, "R6-R7-", 0) Z_(LCGR, B903, RRE, "R6-R7-", 0) \
    Z_(LGR, B904, RRE, "R6-R7-", 0) Z_(LURAG, B905, RRE, "R6-R7-", 0) \
    Z_(LGBR, B906, RRE, "R6-R7-", 0) Z_(LGHR, B907, RRE, "R6-R7-", 0) \
    Z_(AGR, B908, RRE, "R6-R7-", 0) Z_(SGR, B909, RRE, "R6-R7-", 0) \
    Z_(ALGR, B90A, RRE, "R6-R7-", 0) Z_(SLGR, B90B, RRE, "R6-R7-", 0) \
    Z_(MSGR, B90C, RRE, "R6-R7-", 0) Z_(DSGR, B90D, RRE, "R6-R7-", 0) \
    Z_(EREGG, B90E, RRE, "R6-R7-", 0) Z_(LRVGR, B90F, RRE, "R6-R7-", 0) \
    Z_(LPGFR, B910, RRE, "R6-R7-", 0) Z_(LNGFR, B911, RRE, "R6-R7-", 0) \
    Z_(LTGFR, B912, RRE, "R6-R7-", 0) Z_(LCGFR, B913, RRE, "R6-R7-", 0) \
    Z_(LGFR, B914, RRE, "R6-R7-", 0) Z_(LLGFR, B916, RRE, "R6-R7-", 0) \
    Z_(LLGTR, B917, RRE, "R6-R7-", 0) Z_(AGFR, B918, RRE, "R6-R7-", 0) \
    Z_(SGFR, B919, RRE, "R6-R7-", 0) Z_(ALGFR, B91A, RRE, "R6-R7-", 0) \
    Z_(SLGFR, B91B, RRE, "R6-R7-", 0) Z_(MSGFR, B91C, RRE, "R6-R7-", 0) \
    Z_(DSGFR, B91D, RRE, "R6-R7-", 0) Z_(KMAC, B91E, RRE, "R6-R7-", F_RN) \
    Z_(LRVR, B91F, RRE, "R6-R7-", 0) Z_(CGR, B920, RRE, "R6-R7-", 0) \
    Z_(CLGR, B921, RRE, "R6-R7-", 0) Z_(STURG, B925, RRE, "R6-R7-", 0) \
    Z_(LBR, B926, RRE, "R6-R7-", 0) Z_(LHR, B927, RRE, "R6-R7-", 0) Z_(PCKMO, B928, RRE, "", 0) \
    Z_(KMA, B929, RRF, "R6-R4-R7-", F_RN) Z_(KMF, B92A, RRE, "R6-R7-", F_RN) \
    Z_(KMO, B92B, RRE, "R6-R7-", F_RN) Z_(PCC, B92C, RRE, "", 0) \
    Z_(KMCTR, B92D, RRF, "R6-R4-R7-", F_RN) Z_(KM, B92E, RRE, "R6-R7-", F_RN) \
    Z_(KMC, B92F, RRE, "R6-R7-", F_RN) Z_(CGFR, B930, RRE, "R6-R7-", 0) \
    Z_(CLGFR, B931, RRE, "R6-R7-", 0) Z_(SORTL, B938, RRE, "R6-R7-", 0) \
    Z_(DFLTCC, B939, RRF, "R6-R7-R4-", 0) Z_(KDSA, B93A, RRE, "R6-R7-", 0) \
    Z_(NNPA, B93B, RRE, "", 0) Z_(PRNO, B93C, RRE, "R6-R7-", 0) \
    Z_(KIMD, B93E, RRE, "R6-R7-", F_RN) Z_(KLMD, B93F, RRE, "R6-R7-", F_RN) \
    Z_(CFDTR, B941, RRF, "R6-U41R7-U51", 0) Z_(CLGDTR, B942, RRF, "R6-U41R7-U51", 0) \
    Z_(CLFDTR, B943, RRF, "R6-U41R7-U51", 0) Z_(BCTGR, B946, RRE, "R6-R7-", B_RRE | F_CO) \
    Z_(CFXTR, B949, RRF, "R6-U41R7-U51", 0) Z_(CLGXTR, B94A, RRF, "R6-U41R7-U51", 0) \
    Z_(CLFXTR, B94B, RRF, "R6-U41R7-U51", 0) Z_(CDFTR, B951, RRF, "R6-U41R7-U51", 0) \
    Z_(CDLGTR, B952, RRF, "R6-U41R7-U51", 0) Z_(CDLFTR, B953, RRF, "R6-U41R7-U51", 0) \
    Z_(CXFTR, B959, RRF, "R6-U41R7-U51", 0) Z_(CXLGTR, B95A, RRF, "R6-U41R7-U51", 0) \
    Z_(CXLFTR, B95B, RRF, "R6-U41R7-U51", 0) Z_(CGRT, B960, RRF, "R6-R7-U41", 0) \
    Z_(CLGRT, B961, RRF, "R6-R7-U41", 0) Z_(NNGRK, B964, RRF, "R6-R7-R4-", 0) \
    Z_(OCGRK, B965, RRF, "R6-R7-R4-", 0) Z_(NOGRK, B966, RRF, "R6-R7-R4-", 0) \
    Z_(NXGRK, B967, RRF, "R6-R7-R4-", 0) Z_(CRT, B972, RRF, "R6-R7-U41", 0) \
    Z_(CLRT, B973, RRF, "R6-R7-U41", 0) Z_(NNRK, B974, RRF, "R6-R7-R4-", 0) \
    Z_(OCRK, B975, RRF, "R6-R7-R4-", 0) Z_(NORK, B976, RRF, "R6-R7-R4-", 0) \
    Z_(NXRK, B977, RRF, "R6-R7-R4-", 0) Z_(NGR, B980, RRE, "R6-R7-", 0) \
    Z_(OGR, B981, RRE, "R6-R7-", 0) Z_(XGR, B982, RRE, "R6-R7-", 0) \
    Z_(FLOGR, B983, RRE, "R6-R7-", 0) Z_(LLGCR, B984, RRE, "R6-R7-", 0) \
    Z_(LLGHR, B985, RRE, "R6-R7-", 0) Z_(MLGR, B986, RRE, "R6-R7-", 0) \
    Z_(DLGR, B987, RRE, "R6-R7-", 0) Z_(ALCGR, B988, RRE, "R6-R7-", 0) \
    Z_(SLBGR, B989, RRE, "R6-R7-", 0) Z_(CSPG, B98A, RRE, "R6-R7-", 0) \
    Z_(RDP, B98B, RRF, "R6-R4-R7-U51", 0) Z_(EPSW, B98D, RRE, "R6-R7-", 0) \
    Z_(IDTE, B98E, RRF, "R6-R4-R7-U51", 0) Z_(CRDTE, B98F, RRF, "R6-R4-R7-U51", 0) \
    Z_(TRTT, B990, RRF, "R6-R7-U41", F_RN) Z_(TRTO, B991, RRF, "R6-R7-U41", F_RN) \
    Z_(TROT, B992, RRF, "R6-R7-U41", F_RN) Z_(TROO, B993, RRF, "R6-R7-U41", F_RN) \
    Z_(LLCR, B994, RRE, "R6-R7-", 0) Z_(LLHR, B995, RRE, "R6-R7-", 0) \
    Z_(MLR, B996, RRE, "R6-R7-", 0) Z_(DLR, B997, RRE, "R6-R7-", 0) \
    Z_(ALCR, B998, RRE, "R6-R7-", 0) Z_(SLBR, B999, RRE, "R6-R7-", 0) \
    Z_(EPAIR, B99A, RRE, "R6-", 0) Z_(ESAIR, B99B, RRE, "R6-", 0) Z_(ESEA, B99D, RRE, "R6-", 0) \
    Z_(PTI, B99E, RRE, "R6-R7-", F_PS) Z_(SSAIR, B99F, RRE, "R6-", 0) \
    Z_(TPEI, B9A1, RRE, "R6-R7-", 0) Z_(PTF, B9A2, RRE, "R6-", 0) \
    Z_(LPTEA, B9AA, RRF, "R6-R4-R7-U51", 0) Z_(IRBM, B9AC, RRE, "R6-R7-", 0) \
    Z_(RRBM, B9AE, RRE, "R6-R7-", 0) Z_(PFMF, B9AF, RRE, "R6-R7-", 0) \
    Z_(CU14, B9B0, RRF, "R6-R7-U41", F_RN) Z_(CU24, B9B1, RRF, "R6-R7-U41", F_RN) \
    Z_(CU41, B9B2, RRE, "R6-R7-", F_RN) Z_(CU42, B9B3, RRE, "R6-R7-", F_RN) \
    Z_(TRTRE, B9BD, RRF, "R6-R7-U41", F_RN) Z_(SRSTU, B9BE, RRE, "R6-R7-", 0) \
    Z_(TRTE, B9BF, RRF, "R6-R7-U41", F_RN) Z_(SELFHR, B9C0, RRF, "R6-R7-R4-U51", 0) \
    Z_(AHHHR, B9C8, RRF, "R6-R7-R4-", 0) Z_(SHHHR, B9C9, RRF, "R6-R7-R4-", 0) \
    Z_(ALHHHR, B9CA, RRF, "R6-R7-R4-", 0) Z_(SLHHHR, B9CB, RRF, "R6-R7-R4-", 0) \
    Z_(CHHR, B9CD, RRE, "R6-R7-", 0) Z_(CLHHR, B9CF, RRE, "R6-R7-", 0) \
    Z_(AHHLR, B9D8, RRF, "R6-R7-R4-", 0) Z_(SHHLR, B9D9, RRF, "R6-R7-R4-", 0) \
    Z_(ALHHLR, B9DA, RRF, "R6-R7-R4-", 0) Z_(SLHHLR, B9DB, RRF, "R6-R7-R4-", 0) \
    Z_(CHLR, B9DD, RRE, "R6-R7-", 0) Z_(CLHLR, B9DF, RRE, "R6-R7-", 0) \
    Z_(LOCFHR, B9E0, RRF, "R6-R7-U41", 0) Z_(POPCNT, B9E1, RRF, "R6-R7-U41", 0) \
    Z_(LOCGR, B9E2, RRF, "R6-R7-U41", 0) Z_(SELGR, B9E3, RRF, "R6-R7-R4-U51", 0) \
    Z_(NGRK, B9E4, RRF, "R6-R7-R4-", 0) Z_(NCGRK, B9E5, RRF, "R6-R7-R4-", 0) \
    Z_(OGRK, B9E6, RRF, "R6-R7-R4-", 0) Z_(XGRK, B9E7, RRF, "R6-R7-R4-", 0) \
    Z_(AGRK, B9E8, RRF, "R6-R7-R4-", 0) Z_(SGRK, B9E9, RRF, "R6-R7-R4-", 0) \
    Z_(ALGRK, B9EA, RRF, "R6-R7-R4-", 0) Z_(SLGRK, B9EB, RRF, "R6-R7-R4-", 0) \
    Z_(MGRK, B9EC, RRF, "R6-R7-R4-", 0) Z_(MSGRKC, B9ED, RRF, "R6-R7-R4-", 0) \
    Z_(SELR, B9F0, RRF, "R6-R7-R4-U51", 0) Z_(LOCR, B9F2, RRF, "R6-R7-U41", 0) \
    Z_(NRK, B9F4, RRF, "R6-R7-R4-", 0) Z_(NCRK, B9F5, RRF, "R6-R7-R4-", 0) \
    Z_(ORK, B9F6, RRF, "R6-R7-R4-", 0) Z_(XRK, B9F7, RRF, "R6-R7-R4-", 0) \
    Z_(ARK, B9F8, RRF, "R6-R7-R4-", 0) Z_(SRK, B9F9, RRF, "R6-R7-R4-", 0) \
    Z_(ALRK, B9FA, RRF, "R6-R7-R4-", 0) Z_(SLRK, B9FB, RRF, "R6-R7-R4-", 0) \
    Z_(MSRKC, B9FD, RRF, "R6-R7-R4-", 0)

/* ---- C0x (RIL) ---- */
#define OPS_C0(Z_) \
    Z_(LARL, C00, RIL, "R2-J48", 0) Z_(LGFI, C01, RIL, "R2-S48", 0) \
    Z_(BRCL, C04, RIL, "U21J48", B_RELL | M_2) Z_(BRASL, C05, RIL, "R2-J48", B_RELL | F_LK) \
    Z_(XIHF, C06, RIL, "R2-U48", 0) Z_(XILF, C07, RIL, "R2-U48", 0) \
    Z_(IIHF, C08, RIL, "R2-U48", 0) Z_(IILF, C09, RIL, "R2-U48", 0) \
    Z_(NIHF, C0A, RIL, "R2-U48", 0) Z_(NILF, C0B, RIL, "R2-U48", 0) \
    Z_(OIHF, C0C, RIL, "R2-U48", 0) Z_(OILF, C0D, RIL, "R2-U48", 0) \
    Z_(LLIHF, C0E, RIL, "R2-U48", 0) Z_(LLILF, C0F, RIL, "R2-U48", 0)

/* ---- C2x (RIL) ---- */
#define OPS_C2(Z_) \
    Z_(MSGFI, C20, RIL, "R2-S48", 0) Z_(MSFI, C21, RIL, "R2-S48", 0) \
    Z_(SLGFI, C24, RIL, "R2-U48", 0) Z_(SLFI, C25, RIL, "R2-U48", 0) \
    Z_(AGFI, C28, RIL, "R2-S48", 0) Z_(AFI, C29, RIL, "R2-S48", 0) \
    Z_(ALGFI, C2A, RIL, "R2-U48", 0) Z_(ALFI, C2B, RIL, "R2-U48", 0) \
    Z_(CGFI, C2C, RIL, "R2-S48", 0) Z_(CFI, C2D, RIL, "R2-S48", 0) \
    Z_(CLGFI, C2E, RIL, "R2-U48", 0) Z_(CLFI, C2F, RIL, "R2-U48", 0)

/* ---- C4x (RIL) ---- */
#define OPS_C4(Z_) \
    Z_(LLHRL, C42, RIL, "R2-J48", 0) Z_(LGHRL, C44, RIL, "R2-J48", 0) \
    Z_(LHRL, C45, RIL, "R2-J48", 0) Z_(LLGHRL, C46, RIL, "R2-J48", 0) \
    Z_(STHRL, C47, RIL, "R2-J48", 0) Z_(LGRL, C48, RIL, "R2-J48", 0) \
    Z_(STGRL, C4B, RIL, "R2-J48", 0) Z_(LGFRL, C4C, RIL, "R2-J48", 0) \
    Z_(LRL, C4D, RIL, "R2-J48", 0) Z_(LLGFRL, C4E, RIL, "R2-J48", 0) \
    Z_(STRL, C4F, RIL, "R2-J48", 0)

/* ---- C6x (RIL) ---- */
#define OPS_C6(Z_) \
    Z_(EXRL, C60, RIL, "R2-J48", F_EX | F_RE | T_REL32) Z_(PFDRL, C62, RIL, "U21J48", 0) \
    Z_(CGHRL, C64, RIL, "R2-J48", 0) Z_(CHRL, C65, RIL, "R2-J48", 0) \
    Z_(CLGHRL, C66, RIL, "R2-J48", 0) Z_(CLHRL, C67, RIL, "R2-J48", 0) \
    Z_(CGRL, C68, RIL, "R2-J48", 0) Z_(CLGRL, C6A, RIL, "R2-J48", 0) \
    Z_(CGFRL, C6C, RIL, "R2-J48", 0) Z_(CRL, C6D, RIL, "R2-J48", 0) \
    Z_(CLGFRL, C6E, RIL, "R2-J48", 0) Z_(CLRL, C6F, RIL, "R2-J48", 0)

/* ---- C8x (SSF) ---- */
#define OPS_C8(Z_) \
    Z_(MVCOS, C80, SSF, "X4-X8-R2-", F_RN) Z_(ECTG, C81, SSF, "X4-X8-R2-", 0) \
    Z_(CSST, C82, SSF, "X4-X8-R2-", 0) Z_(LPD, C84, SSF, "R2-X4-X8-", 0) \
    Z_(LPDG, C85, SSF, "R2-X4-X8-", 0)

/* ---- CCx (RIL: high word) ---- */
#define OPS_CC(Z_) \
    Z_(BRCTH, CC6, RIL, "R2-J48", B_RELL | F_CO) Z_(AIH, CC8, RIL, "R2-S48", 0) \
    Z_(ALSIH, CCA, RIL, "R2-S48", 0) Z_(ALSIHN, CCB, RIL, "R2-S48", 0) \
    Z_(CIH, CCD, RIL, "R2-S48", 0) Z_(CLIH, CCF, RIL, "R2-U48", 0)

/* ---- S/370 only: what 84, 85, B200 and B201 meant before ESA/390 (lookup370) ---- */
#define OPS_370(Z_) \
    Z_(WRD, 84, SI, "X4-U22", 0) Z_(RDD, 85, SI, "X4-U22", 0) Z_(CONCS, B200, S, "X4-", 0) \
    Z_(DISCS, B201, S, "X4-", 0)

/* ---- S/370 I/O: 9C00-9F02, the second byte selecting (lookup370) ---- */
#define OPS_IO(Z_) \
    Z_(SIO, 9C00, S, "X4-", 0) Z_(SIOF, 9C01, S, "X4-", 0) Z_(RIO, 9C02, S, "X4-", 0) \
    Z_(TIO, 9D00, S, "X4-", 0) Z_(CLRIO, 9D01, S, "X4-", 0) Z_(HIO, 9E00, S, "X4-", 0) \
    Z_(HDV, 9E01, S, "X4-", 0) Z_(TCH, 9F00, S, "X4-", 0)
