/*
** analyze/cost/costrule.h — the class rules of the cost model (included by analyze/cost/costrule.c
** only): how an instruction the table has no row for is priced. data/README.md gives the
** reasoning of each rule; analyze/cost/clock.h how a rule is applied.
**
** An entry is  R_(MNEMONIC, "rule")  where the rule is
**   "X"      as X's row: the same operation in another form (64-bit G, 64/32-bit GF,
**            long displacement Y, distinct operands K, immediate, relative long RL,
**            high word, on condition, interlocked, BFP/DFP as HFP...);
**   "X+Y"    the sum of two flat rows: an instruction that does the work of two
**            (compare and branch = compare + branch, multiply and add, add to storage);
**   "@class" the table's class row: @control (control, I/O and other instructions
**            s370_perf does not run: the lmix average), @fp (floating point with no HFP
**            counterpart), @vector (vector instructions with no counterpart).
** Vector instructions (E6xx, E7xx) not listed here are @vector. A rule applies only when
** the table has no row for the instruction; X may itself be priced by its rule.
*/
#ifndef FST_COSTRULE_H
#define FST_COSTRULE_H

/* ---- general instructions: the S/370 operation in another form ---- */
#define RULES_GENERAL(R_) \
    R_(AGFR, "AR") R_(AGRK, "AR") R_(ARK, "AR") R_(AHHHR, "AR") R_(AHHLR, "AR") R_(AFI, "AR") \
    R_(AGFI, "AR") R_(AIH, "AR") R_(AHIK, "AR") R_(AGHIK, "AR") R_(ALGFR, "ALR") R_(ALGRK, "ALR") \
    R_(ALRK, "ALR") R_(ALHHHR, "ALR") R_(ALHHLR, "ALR") R_(ALCR, "ALR") R_(ALCGR, "ALR") \
    R_(ALFI, "ALR") R_(ALGFI, "ALR") R_(ALSIH, "ALR") R_(ALSIHN, "ALR") R_(ALHSIK, "ALR") \
    R_(ALGHSIK, "ALR") R_(SGFR, "SR") R_(SGRK, "SR") R_(SRK, "SR") R_(SHHHR, "SR") R_(SHHLR, "SR") \
    R_(SLGFR, "SLR") R_(SLGRK, "SLR") R_(SLRK, "SLR") R_(SLHHHR, "SLR") R_(SLHHLR, "SLR") \
    R_(SLBR, "SLR") R_(SLBGR, "SLR") R_(SLFI, "SLR") R_(SLGFI, "SLR") \
    R_(CGFR, "CR") R_(CHHR, "CR") R_(CHLR, "CR") R_(CFI, "CR") R_(CGFI, "CR") R_(CIH, "CR") \
    R_(CRT, "CR") R_(CGRT, "CR") R_(CIT, "CR") R_(CGIT, "CR") R_(CLGR, "CLR") R_(CLGFR, "CLR") \
    R_(CLHHR, "CLR") R_(CLHLR, "CLR") R_(CLFI, "CLR") R_(CLGFI, "CLR") R_(CLIH, "CLR") \
    R_(CLRT, "CLR") R_(CLGRT, "CLR") R_(CLFIT, "CLR") R_(CLGIT, "CLR") \
    R_(MSR, "MR") R_(MSGR, "MR") R_(MSGFR, "MR") R_(MLR, "MR") R_(MLGR, "MR") R_(MGRK, "MR") \
    R_(MSRKC, "MR") R_(MSGRKC, "MR") R_(MSFI, "MR") R_(MSGFI, "MR") R_(MGHI, "MHI") \
    R_(DLR, "DR") R_(DLGR, "DR") R_(DSGR, "DR") R_(DSGFR, "DR") \
    R_(LBR, "LR") R_(LGBR, "LR") R_(LHR, "LR") R_(LGHR, "LR") R_(LLCR, "LR") R_(LLGCR, "LR") \
    R_(LLHR, "LR") R_(LLGHR, "LR") R_(LLGFR, "LR") R_(LRVR, "LR") R_(LRVGR, "LR") R_(LOCR, "LR") \
    R_(LOCGR, "LR") R_(LOCFHR, "LR") R_(SELR, "LR") R_(SELGR, "LR") R_(SELFHR, "LR") \
    R_(LOCHI, "LR") R_(LOCGHI, "LR") R_(LOCHHI, "LR") R_(LGFI, "LR") R_(IIHF, "LR") R_(IILF, "LR") \
    R_(LLIHF, "LR") R_(LLILF, "LR") R_(IIHH, "LR") R_(IIHL, "LR") R_(IILH, "LR") R_(IILL, "LR") \
    R_(LLIHH, "LR") R_(LLIHL, "LR") R_(LLILH, "LR") R_(LLILL, "LR") R_(FLOGR, "LR") \
    R_(POPCNT, "LR") R_(TAM, "LR") R_(CPYA, "LR") R_(EAR, "LR") R_(SAR, "LR") \
    R_(LCGR, "LCR") R_(LCGFR, "LCR") R_(LNGR, "LNR") R_(LNGFR, "LNR") R_(LPGR, "LPR") \
    R_(LPGFR, "LPR") R_(LTGFR, "LTR") \
    R_(NGRK, "NR") R_(NRK, "NR") R_(NCGRK, "NR") R_(NCRK, "NR") R_(NNGRK, "NR") R_(NNRK, "NR") \
    R_(NIHF, "NR") R_(NILF, "NR") R_(NIHH, "NR") R_(NIHL, "NR") R_(NILH, "NR") R_(NILL, "NR") \
    R_(TMHH, "NR") R_(TMHL, "NR") R_(TMLH, "NR") R_(TMLL, "NR") \
    R_(OGRK, "OR") R_(ORK, "OR") R_(NOGRK, "OR") R_(NORK, "OR") R_(OCGRK, "OR") R_(OCRK, "OR") \
    R_(OIHF, "OR") R_(OILF, "OR") R_(OIHH, "OR") R_(OIHL, "OR") R_(OILH, "OR") R_(OILL, "OR") \
    R_(XGRK, "XR") R_(XRK, "XR") R_(NXGRK, "XR") R_(NXRK, "XR") R_(XIHF, "XR") R_(XILF, "XR") \
    R_(RLL, "SLL") R_(RLLG, "SLL") R_(SLLK, "SLL") R_(SRLK, "SRL") R_(SLAK, "SLA") \
    R_(SRAK, "SRA") R_(RISBG, "SLL+NR") R_(RISBGN, "SLL+NR") R_(RISBHG, "SLL+NR") \
    R_(RISBLG, "SLL+NR") R_(RNSBG, "SLL+NR") R_(ROSBG, "SLL+OR") R_(RXSBG, "SLL+XR")

/* ---- general instructions with a storage operand ---- */
#define RULES_STORAGE(R_) \
    R_(AY, "A") R_(AGF, "A") R_(AGH, "AH") R_(AHY, "AH") R_(ALY, "AL") R_(ALG, "AL") \
    R_(ALGF, "AL") R_(ALC, "AL") R_(ALCG, "AL") R_(SY, "S") R_(SGF, "S") R_(SGH, "SH") \
    R_(SHY, "SH") R_(SLY, "SL") R_(SLG, "SL") R_(SLGF, "SL") R_(SLB, "SL") R_(SLBG, "SL") \
    R_(CY, "C") R_(CGF, "C") R_(CHF, "C") R_(CGH, "CH") R_(CHY, "CH") R_(CLY, "CL") R_(CLG, "CL") \
    R_(CLGF, "CL") R_(CLHF, "CL") R_(CLT, "CL") R_(CLGT, "CL") R_(MS, "M") R_(MSY, "M") \
    R_(MSG, "M") R_(MSGF, "M") R_(MSC, "M") R_(MSGC, "M") R_(MFY, "M") R_(MG, "M") R_(ML, "M") \
    R_(MLG, "M") R_(MGH, "MH") R_(MHY, "MH") R_(DL, "D") R_(DLG, "D") R_(DSG, "D") R_(DSGF, "D") \
    R_(NY, "N") R_(NG, "N") R_(OY, "O") R_(OG, "O") R_(XY, "X") R_(XG, "X") \
    R_(LT, "L") R_(LTG, "L") R_(LTGF, "L") R_(LAT, "L") R_(LGAT, "L") R_(LFH, "L") \
    R_(LFHAT, "L") R_(LGG, "L") R_(LGSC, "L") R_(LLGFSG, "L") R_(LLGT, "L") R_(LLGTAT, "L") \
    R_(LLGFAT, "L") R_(LLZRGF, "L") R_(LZRF, "L") R_(LZRG, "L") R_(LRV, "L") R_(LRVG, "L") \
    R_(LOC, "L") R_(LOCG, "L") R_(LOCFH, "L") R_(LRL, "L") R_(LGRL, "L") R_(LGFRL, "L") \
    R_(LLGFRL, "L") R_(LHY, "LH") R_(LHH, "LH") R_(LLH, "LH") R_(LLHH, "LH") R_(LLGH, "LH") \
    R_(LRVH, "LH") R_(LHRL, "LH") R_(LGHRL, "LH") R_(LLHRL, "LH") R_(LLGHRL, "LH") \
    R_(LB, "IC") R_(LGB, "IC") R_(LBH, "IC") R_(LLC, "IC") R_(LLCH, "IC") R_(LLGC, "IC") \
    R_(ICY, "IC") R_(LAE, "LA") R_(LAEY, "LA") R_(PFD, "LA") R_(PFDRL, "LA") R_(BPP, "LA") \
    R_(BPRP, "LA") R_(NIAI, "LA") R_(PPA, "LA") R_(LCBB, "LA") \
    R_(STFH, "ST") R_(STGSC, "ST") R_(NTSTG, "ST") R_(STRV, "ST") R_(STRVG, "ST") R_(STOC, "ST") \
    R_(STOCG, "ST") R_(STOCFH, "ST") R_(STRL, "ST") R_(STGRL, "ST") R_(MVHI, "ST") \
    R_(MVGHI, "ST") R_(STHY, "STH") R_(STHH, "STH") R_(STRVH, "STH") R_(STHRL, "STH") \
    R_(MVHHI, "STH") R_(STCY, "STC") R_(STCH, "STC") R_(MVIY, "MVI") \
    R_(LPQ, "L+L") R_(LPD, "L+L") R_(LPDG, "L+L") R_(STPQ, "ST+ST") \
    R_(CRL, "C") R_(CGRL, "C") R_(CGFRL, "C") R_(CHSI, "C") R_(CGHSI, "C") R_(CHRL, "CH") \
    R_(CGHRL, "CH") R_(CHHSI, "CH") R_(CLRL, "CL") R_(CLGRL, "CL") R_(CLGFRL, "CL") \
    R_(CLHRL, "CL") R_(CLGHRL, "CL") R_(CLFHSI, "CL") R_(CLGHSI, "CL") R_(CLHHSI, "CL") \
    R_(CLIY, "CLI") R_(TMY, "TM") R_(NIY, "NI") R_(OIY, "OI") R_(XIY, "XI") \
    R_(ICMH, "ICM") R_(ICMY, "ICM") R_(STCMH, "STCM") R_(STCMY, "STCM") R_(CLMH, "CLM") \
    R_(CLMY, "CLM") R_(ASI, "A+ST") R_(AGSI, "A+ST") R_(ALSI, "AL+ST") R_(ALGSI, "AL+ST") \
    R_(CSY, "CS") R_(CSG, "CS") R_(CDSY, "CDS") R_(CDSG, "CDS") R_(CSST, "CS+ST") R_(PLO, "CDS") \
    R_(LAA, "CS") R_(LAAG, "CS") R_(LAAL, "CS") R_(LAALG, "CS") R_(LAN, "CS") R_(LANG, "CS") \
    R_(LAO, "CS") R_(LAOG, "CS") R_(LAX, "CS") R_(LAXG, "CS") \
    R_(LMY, "LM") R_(LMH, "LM") R_(LMD, "LM") R_(LAM, "LM") R_(LAMY, "LM") R_(STMY, "STM") \
    R_(STMH, "STM") R_(STAM, "STM") R_(STAMY, "STM") R_(CVBY, "CVB") R_(CVBG, "CVB") \
    R_(CVDY, "CVD") R_(CVDG, "CVD") R_(STCKE, "STCK") R_(STCKF, "STCK")

/* ---- branches: the S/370 branch; compare and branch = compare + branch ---- */
#define RULES_BRANCH(R_) \
    R_(BRCTG, "BRCT") R_(BRCTH, "BRCT") R_(BXHG, "BXH") R_(BXLEG, "BXLE") R_(BRXHG, "BRXH") \
    R_(BRXLG, "BRXLE") R_(BIC, "BC") R_(CRJ, "CR+BRC") R_(CGRJ, "CR+BRC") R_(CIJ, "CR+BRC") \
    R_(CGIJ, "CR+BRC") R_(CLRJ, "CLR+BRC") R_(CLGRJ, "CLR+BRC") R_(CLIJ, "CLR+BRC") \
    R_(CLGIJ, "CLR+BRC") R_(CRB, "CR+BC") R_(CGRB, "CR+BC") R_(CIB, "CR+BC") R_(CGIB, "CR+BC") \
    R_(CLRB, "CLR+BC") R_(CLGRB, "CLR+BC") R_(CLIB, "CLR+BC") R_(CLGIB, "CLR+BC")

/* ---- storage-to-storage, and lengths in registers (the long-running instructions) ---- */
#define RULES_SS(R_) \
    R_(TRTR, "TRT") R_(MVCK, "MVC") R_(MVCP, "MVC") R_(MVCS, "MVC") R_(MVCSK, "MVC") \
    R_(MVCDK, "MVC") R_(MVCRL, "MVC") R_(PKA, "PACK") R_(PKU, "PACK") R_(UNPKA, "UNPK") \
    R_(UNPKU, "UNPK") R_(TP, "CP") R_(MVCLE, "MVCL") R_(MVCLU, "MVCL") R_(MVCOS, "MVCL") \
    R_(MVPG, "MVCL") R_(MVST, "MVCL") R_(CLCLE, "CLCL") R_(CLCLU, "CLCL") R_(CLST, "CLCL") \
    R_(SRST, "CLCL") R_(SRSTU, "CLCL") R_(CUSE, "CLCL") R_(CKSM, "CLCL") R_(CFC, "CLCL") \
    R_(UPT, "CLCL") R_(TRE, "TR") R_(TROO, "TR") R_(TROT, "TR") R_(TRTO, "TR") R_(TRTT, "TR") \
    R_(TRTE, "TRT") R_(TRTRE, "TRT") R_(CUUTF, "MVCL") R_(CUTFU, "MVCL") R_(CU14, "MVCL") \
    R_(CU24, "MVCL") R_(CU41, "MVCL") R_(CU42, "MVCL") R_(CMPSC, "MVCL") R_(KM, "MVCL") \
    R_(KMC, "MVCL") R_(KMA, "MVCL") R_(KMF, "MVCL") R_(KMO, "MVCL") R_(KMCTR, "MVCL") \
    R_(KIMD, "MVCL") R_(KLMD, "MVCL") R_(KMAC, "MVCL") R_(KDSA, "MVCL") R_(PCC, "MVCL") \
    R_(PCKMO, "MVCL") R_(PRNO, "MVCL") R_(DFLTCC, "MVCL") R_(SORTL, "MVCL") R_(NNPA, "MVCL")

/* ---- binary, decimal and hexadecimal floating point: the HFP operation ---- */
#define RULES_FP(R_) \
    R_(AXBR, "AXR") R_(AXTRA, "AXR") R_(SXBR, "SXR") R_(SXTRA, "SXR") R_(MXBR, "MXR") \
    R_(MXTRA, "MXR") R_(MXDBR, "MXDR") R_(MXDB, "MXD") R_(DXR, "DDR") R_(DXBR, "DDR") \
    R_(DXTRA, "DDR") R_(ADTRA, "ADR") R_(SDTRA, "SDR") R_(MDTRA, "MDR") R_(DDTRA, "DDR") \
    R_(DEBR, "DER") R_(DIEBR, "DER") R_(DIDBR, "DDR") R_(SQER, "DER") R_(SQEBR, "DER") \
    R_(SQDR, "DDR") R_(SQDBR, "DDR") R_(SQXR, "DDR") R_(SQXBR, "DDR") R_(MEEBR, "MER") \
    R_(MEER, "MER") R_(MDEBR, "MER") R_(KEBR, "CER") R_(KDBR, "CDR") R_(KXBR, "CDR") \
    R_(CXBR, "CDR") R_(CXR, "CDR") R_(CDTR, "CDR") R_(KDTR, "CDR") R_(CXTR, "CDR") \
    R_(KXTR, "CDR") R_(LCEBR, "LCER") R_(LNEBR, "LNER") R_(LPEBR, "LPER") R_(LTEBR, "LTER") \
    R_(LNDBR, "LNDR") R_(LPDBR, "LPDR") R_(LTXBR, "LTDR") R_(LTXR, "LTDR") R_(LTDTR, "LTDR") \
    R_(LTXTR, "LTDR") R_(LCXBR, "LCDR") R_(LCXR, "LCDR") R_(LNXBR, "LNDR") R_(LNXR, "LNDR") \
    R_(LPXBR, "LPDR") R_(LPXR, "LPDR") R_(LCDFR, "LCDR") R_(LNDFR, "LNDR") R_(LPDFR, "LPDR") \
    R_(CPSDR, "LDR") R_(LDGR, "LDR") R_(LGDR, "LDR") R_(LZER, "LDR") R_(LZDR, "LDR") \
    R_(LZXR, "LDR") R_(LXR, "LDR") R_(LDEBR, "LDR") R_(LXDBR, "LDR") R_(LXEBR, "LDR") \
    R_(LDER, "LDR") R_(LXDR, "LDR") R_(LXER, "LDR") R_(LDETR, "LDR") R_(LXDTR, "LDR") \
    R_(LEDBRA, "LRER") R_(LDXBRA, "LRDR") R_(LEXBRA, "LRDR") R_(LEXR, "LRDR") \
    R_(LEDTR, "LRDR") R_(LDXTR, "LRDR") \
    R_(MAEBR, "MER+AER") R_(MSEBR, "MER+AER") R_(MAER, "MER+AER") R_(MSER, "MER+AER") \
    R_(MADBR, "MDR+ADR") R_(MSDBR, "MDR+ADR") R_(MADR, "MDR+ADR") R_(MSDR, "MDR+ADR") \
    R_(MAYR, "MDR+ADR") R_(MAYHR, "MDR+ADR") R_(MAYLR, "MDR+ADR") R_(MYR, "MDR") \
    R_(MYHR, "MDR") R_(MYLR, "MDR") \
    R_(ADB, "AD") R_(AEB, "AE") R_(SDB, "SD") R_(SEB, "SE") R_(MDB, "MD") R_(MDEB, "ME") \
    R_(MEE, "ME") R_(MEEB, "ME") R_(DDB, "DD") R_(DEB, "DE") R_(CDB, "CD") R_(KDB, "CD") \
    R_(CEB, "CE") R_(KEB, "CE") R_(SQD, "DD") R_(SQDB, "DD") R_(SQE, "DE") R_(SQEB, "DE") \
    R_(LDE, "LE") R_(LDEB, "LE") R_(LXE, "LE") R_(LXEB, "LE") R_(LXD, "LD") R_(LXDB, "LD") \
    R_(LDY, "LD") R_(LEY, "LE") R_(STDY, "STD") R_(STEY, "STE") \
    R_(MAD, "MD+ADR") R_(MADB, "MD+ADR") R_(MSD, "MD+ADR") R_(MSDB, "MD+ADR") \
    R_(MAY, "MD+ADR") R_(MAYH, "MD+ADR") R_(MAYL, "MD+ADR") R_(MY, "MD") R_(MYH, "MD") \
    R_(MYL, "MD") R_(MAE, "ME+AER") R_(MAEB, "ME+AER") R_(MSE, "ME+AER") R_(MSEB, "ME+AER") \
    R_(CDSTR, "CVB") R_(CXSTR, "CVB") R_(CDUTR, "CVB") R_(CXUTR, "CVB") R_(CDPT, "CVB") \
    R_(CXPT, "CVB") R_(CDZT, "CVB") R_(CXZT, "CVB") R_(CSDTR, "CVD") R_(CSXTR, "CVD") \
    R_(CUDTR, "CVD") R_(CUXTR, "CVD") R_(CPDT, "CVD") R_(CPXT, "CVD") R_(CZDT, "CVD") \
    R_(CZXT, "CVD") R_(LFPC, "L") R_(LFAS, "L") R_(STFPC, "ST") R_(EFPC, "LR") R_(SFPC, "SPM") \
    R_(SFASR, "SPM") R_(SRNM, "SPM") R_(SRNMB, "SPM") R_(SRNMT, "SPM")

/* ---- FP with no HFP counterpart: conversions, rounding, data class, quantum ---- */
#define RULES_FPCLASS(R_) \
    R_(CEFBRA, "@fp") R_(CDFBRA, "@fp") R_(CXFBRA, "@fp") R_(CEGBRA, "@fp") R_(CDGBRA, "@fp") \
    R_(CXGBRA, "@fp") R_(CELFBR, "@fp") R_(CDLFBR, "@fp") R_(CXLFBR, "@fp") R_(CELGBR, "@fp") \
    R_(CDLGBR, "@fp") R_(CXLGBR, "@fp") R_(CEFR, "@fp") R_(CDFR, "@fp") R_(CXFR, "@fp") \
    R_(CEGR, "@fp") R_(CDGR, "@fp") R_(CXGR, "@fp") R_(CFEBRA, "@fp") R_(CFDBRA, "@fp") \
    R_(CFXBRA, "@fp") R_(CGEBRA, "@fp") R_(CGDBRA, "@fp") R_(CGXBRA, "@fp") R_(CLFEBR, "@fp") \
    R_(CLFDBR, "@fp") R_(CLFXBR, "@fp") R_(CLGEBR, "@fp") R_(CLGDBR, "@fp") R_(CLGXBR, "@fp") \
    R_(CFER, "@fp") R_(CFDR, "@fp") R_(CFXR, "@fp") R_(CGER, "@fp") R_(CGDR, "@fp") \
    R_(CGXR, "@fp") R_(FIEBRA, "@fp") R_(FIDBRA, "@fp") R_(FIXBRA, "@fp") R_(FIER, "@fp") \
    R_(FIDR, "@fp") R_(FIXR, "@fp") R_(FIDTR, "@fp") R_(FIXTR, "@fp") R_(TBEDR, "@fp") \
    R_(TBDR, "@fp") R_(THDER, "@fp") R_(THDR, "@fp") R_(TCEB, "@fp") R_(TCDB, "@fp") \
    R_(TCXB, "@fp") R_(TDCET, "@fp") R_(TDCDT, "@fp") R_(TDCXT, "@fp") R_(TDGET, "@fp") \
    R_(TDGDT, "@fp") R_(TDGXT, "@fp") R_(CDGTRA, "@fp") R_(CXGTRA, "@fp") R_(CDFTR, "@fp") \
    R_(CXFTR, "@fp") R_(CDLGTR, "@fp") R_(CXLGTR, "@fp") R_(CDLFTR, "@fp") R_(CXLFTR, "@fp") \
    R_(CGDTRA, "@fp") R_(CGXTRA, "@fp") R_(CFDTR, "@fp") R_(CFXTR, "@fp") R_(CLGDTR, "@fp") \
    R_(CLGXTR, "@fp") R_(CLFDTR, "@fp") R_(CLFXTR, "@fp") R_(CEDTR, "@fp") R_(CEXTR, "@fp") \
    R_(EEDTR, "@fp") R_(EEXTR, "@fp") R_(ESDTR, "@fp") R_(ESXTR, "@fp") R_(IEDTR, "@fp") \
    R_(IEXTR, "@fp") R_(QADTR, "@fp") R_(QAXTR, "@fp") R_(RRDTR, "@fp") R_(RRXTR, "@fp") \
    R_(SLDT, "@fp") R_(SRDT, "@fp") R_(SLXT, "@fp") R_(SRXT, "@fp") R_(PFPO, "@fp")

/* ---- control, I/O, linkage, transactions, measurement: the lmix average ---- */
#define RULES_CONTROL(R_) \
    R_(DIAG, "@control") R_(MC, "@control") R_(TRACE, "@control") R_(TRACG, "@control") \
    R_(WRD, "@control") R_(RDD, "@control") R_(RIO, "@control") R_(CLRIO, "@control") \
    R_(HDV, "@control") R_(CONCS, "@control") R_(DISCS, "@control") R_(STIDC, "@control") \
    R_(RRB, "@control") R_(PR, "@control") R_(PTFF, "@control") R_(SCKPF, "@control") \
    R_(TRAP2, "@control") R_(TRAP4, "@control") R_(BAKR, "@control") R_(BSA, "@control") \
    R_(BSG, "@control") R_(PC, "@control") R_(PT, "@control") R_(PTI, "@control") \
    R_(CSCH, "@control") R_(HSCH, "@control") R_(RSCH, "@control") R_(XSCH, "@control") \
    R_(RCHP, "@control") R_(SCHM, "@control") R_(SAL, "@control") R_(SIGA, "@control") \
    R_(CSP, "@control") R_(CSPG, "@control") R_(ECCTR, "@control") R_(ECPGA, "@control") \
    R_(EPCTR, "@control") R_(LCCTL, "@control") R_(LPCTL, "@control") R_(LSCTL, "@control") \
    R_(SCCTR, "@control") R_(SPCTR, "@control") R_(QCTRI, "@control") R_(QSI, "@control") \
    R_(LPP, "@control") R_(EPAR, "@control") R_(ESAR, "@control") R_(IAC, "@control") \
    R_(SSAR, "@control") R_(EREG, "@control") R_(EREGG, "@control") R_(ESTA, "@control") \
    R_(MSTA, "@control") R_(ETND, "@control") R_(IPTE, "@control") R_(IVSK, "@control") \
    R_(PALB, "@control") R_(PGIN, "@control") R_(PGOUT, "@control") R_(RRBE, "@control") \
    R_(SIE, "@control") R_(TB, "@control") R_(TAR, "@control") R_(LURA, "@control") \
    R_(LURAG, "@control") R_(STURA, "@control") R_(STURG, "@control") R_(SAC, "@control") \
    R_(SACF, "@control") R_(LBEAR, "@control") R_(STBEAR, "@control") R_(STCPS, "@control") \
    R_(STCRW, "@control") R_(STFL, "@control") R_(STFLE, "@control") R_(STSI, "@control") \
    R_(QPACI, "@control") R_(RP, "@control") R_(TBEGIN, "@control") R_(TBEGINC, "@control") \
    R_(TEND, "@control") R_(TABORT, "@control") R_(LASP, "@control") R_(STRAG, "@control") \
    R_(ECTG, "@control") R_(ECAG, "@control") R_(LPSWEY, "LPSW") R_(EPSW, "IPM") \
    R_(IDTE, "@control") R_(CRDTE, "@control") R_(LPTEA, "@control") R_(IRBM, "@control") \
    R_(RRBM, "@control") R_(PFMF, "@control") R_(PTF, "@control") R_(TPEI, "@control") \
    R_(EPAIR, "@control") R_(ESAIR, "@control") R_(ESEA, "@control") R_(SSAIR, "@control") \
    R_(RDP, "@control") R_(LRAG, "LRA") R_(LRAY, "LRA")

/* ---- vector instructions with a scalar counterpart (the rest are @vector) ---- */
#define RULES_VECTOR(R_) \
    R_(VL, "LD") R_(VLEB, "LD") R_(VLEH, "LD") R_(VLEF, "LD") R_(VLEG, "LD") R_(VLREP, "LD") \
    R_(VLLEZ, "LD") R_(VLBB, "LD") R_(VLL, "LD") R_(VLRL, "LD") R_(VLRLR, "LD") R_(VLBR, "LD") \
    R_(VLER, "LD") R_(VLEBRH, "LD") R_(VLEBRF, "LD") R_(VLEBRG, "LD") R_(VLLEBRZ, "LD") \
    R_(VLBRREP, "LD") R_(VGEF, "LD") R_(VGEG, "LD") R_(VLM, "LM") \
    R_(VST, "STD") R_(VSTEB, "STD") R_(VSTEH, "STD") R_(VSTEF, "STD") R_(VSTEG, "STD") \
    R_(VSTL, "STD") R_(VSTRL, "STD") R_(VSTRLR, "STD") R_(VSTBR, "STD") R_(VSTER, "STD") \
    R_(VSTEBRH, "STD") R_(VSTEBRF, "STD") R_(VSTEBRG, "STD") R_(VSCEF, "STD") \
    R_(VSCEG, "STD") R_(VSTM, "STM") R_(VLGV, "LR") R_(VLVG, "LDR") R_(VLVGP, "LDR") \
    R_(VFA, "ADBR") R_(VFS, "SDBR") R_(VFM, "MDBR") R_(VFD, "DDBR") R_(VFSQ, "DDBR") \
    R_(VFMA, "MDBR+ADBR") R_(VFMS, "MDBR+ADBR") R_(VFNMA, "MDBR+ADBR") \
    R_(VFNMS, "MDBR+ADBR") R_(VFCE, "CDBR") R_(VFCH, "CDBR") R_(VFCHE, "CDBR") \
    R_(WFC, "CDBR") R_(WFK, "CDBR") R_(VFMIN, "CDBR") R_(VFMAX, "CDBR") R_(VFPSO, "LCDBR") \
    R_(VFLL, "LDR") R_(VFLR, "LRDR") R_(VFI, "@fp") R_(VFTCI, "@fp") R_(VCFPS, "@fp") \
    R_(VCFPL, "@fp") R_(VCSFP, "@fp") R_(VCLFP, "@fp") \
    R_(VAP, "AP") R_(VSP, "SP") R_(VMP, "MP") R_(VMSP, "MP") R_(VDP, "MP") R_(VRP, "MP") \
    R_(VSDP, "MP") R_(VCP, "CP") R_(VTP, "CP") R_(VSRP, "SRP") R_(VSRPR, "SRP") \
    R_(VPSOP, "ZAP") R_(VPKZ, "PACK") R_(VPKZR, "PACK") R_(VUPKZ, "UNPK") R_(VUPKZH, "UNPK") \
    R_(VUPKZL, "UNPK") R_(VCVB, "CVB") R_(VCVBG, "CVB") R_(VCVD, "CVD") R_(VCVDG, "CVD")

/* ---- what the shipped table has "mapped" rows for, for tables that do not ---- */
#define RULES_MAPPED(R_) \
    R_(BASR, "BALR") R_(BAS, "BAL") R_(BASSM, "BALR") R_(BRAS, "BAL") R_(BRASL, "BAL") \
    R_(BRC, "BC") R_(BRCL, "BC") R_(BRCT, "BCT") R_(BRXH, "BXH") R_(BRXLE, "BXLE") \
    R_(BSM, "BCR") R_(EXRL, "EX") R_(LG, "L") R_(STG, "ST") R_(LGR, "LR") R_(LLGTR, "LR") \
    R_(LTGR, "LTR") R_(LGFR, "LR") R_(AGR, "AR") R_(SGR, "SR") R_(CGR, "CR") R_(ALGR, "ALR") \
    R_(SLGR, "SLR") R_(NGR, "NR") R_(OGR, "OR") R_(XGR, "XR") R_(AG, "A") R_(SG, "S") \
    R_(CG, "C") R_(LGF, "L") R_(LLGF, "L") R_(LGH, "LH") R_(LAY, "LA") R_(LY, "L") \
    R_(STY, "ST") R_(LMG, "LM") R_(STMG, "STM") R_(BCTG, "BCT") R_(BCTGR, "BCTR") \
    R_(SLLG, "SLL") R_(SRLG, "SRL") R_(SRAG, "SRA") R_(SLAG, "SLA") R_(LARL, "LA") \
    R_(LHI, "LA") R_(LGHI, "LA") R_(AHI, "LA") R_(AGHI, "LA") R_(CHI, "LA") R_(CGHI, "LA") \
    R_(MHI, "MH") R_(ADBR, "ADR") R_(SDBR, "SDR") R_(MDBR, "MDR") R_(DDBR, "DDR") \
    R_(CDBR, "CDR") R_(LTDBR, "LTDR") R_(LCDBR, "LCDR") R_(AEBR, "AER") R_(SEBR, "SER") \
    R_(CEBR, "CER") \
    R_(SVC, "@control") R_(LPSW, "@control") R_(LPSWE, "@control") R_(SSM, "@control") \
    R_(STNSM, "@control") R_(STOSM, "@control") R_(SIO, "@control") R_(SIOF, "@control") \
    R_(TIO, "@control") R_(HIO, "@control") R_(TCH, "@control") R_(SIGP, "@control") \
    R_(LCTL, "@control") R_(STCTL, "@control") R_(LCTLG, "@control") R_(STCTG, "@control") \
    R_(STIDP, "@control") R_(SPKA, "@control") R_(IPK, "@control") R_(ISK, "@control") \
    R_(SSK, "@control") R_(ISKE, "@control") R_(SSKE, "@control") R_(PTLB, "@control") \
    R_(LRA, "@control") R_(SPX, "@control") R_(STPX, "@control") R_(STAP, "@control") \
    R_(SPT, "@control") R_(STPT, "@control") R_(SCKC, "@control") R_(STCKC, "@control") \
    R_(SCK, "@control") R_(TPROT, "@control") R_(SSCH, "@control") R_(TSCH, "@control") \
    R_(TPI, "@control") R_(STSCH, "@control") R_(MSCH, "@control") R_(IPM, "@control") \
    R_(SAM24, "@control") R_(SAM31, "@control") R_(SAM64, "@control")

#define RULES_ALL(R_) \
    RULES_GENERAL(R_) RULES_STORAGE(R_) RULES_BRANCH(R_) RULES_SS(R_) RULES_FP(R_) \
    RULES_FPCLASS(R_) RULES_CONTROL(R_) RULES_VECTOR(R_) RULES_MAPPED(R_)

#endif
