# maptime.s -- the shape of seed 003's LOGTIME/MAPTIME sample program: a mainline with
# loops of I=I+(N+N), I=I+(N*N), I=I+(N/N), a loop calling two library-like routines
# (A=A+EXP(LOG(N)): IHOLGN then IHOEXP), a loop calling an output-like routine
# (IHOCVT, the WRITE), and a part timed off with LOGTIME's X'5C' flag (MVI X'5C',X'80'
# ... MVI X'5C',X'00') that calls IHOERR. Every routine is FORTRAN G (X'47F0F00C',
# X'06', the name: 6 characters at most), so the default timing finds all of them in
# the storage image. (The seed's library names, IHOSEXP..., have 7: shortened to 6.)
#
# Layout as in fortg.s (see its header and EXPECTED): low core, the unnamed stub at
# 0x20000 (5 instructions outside), MAIN entered from the stub, OS linkage (s370.inc).
# The X'5C' byte is the second word of the external new PSW (000A0000 00BAD058); the
# program runs disabled, so the PSW is never loaded while the flag byte is X'80'.
#
# Dynamic instruction count (per routine, by address: every instruction of a routine
# lies in its storage, the entry B and the BR 14 included):
#   MAIN     7 prologue
#            loop 1  LA, SR + 4 x N1 (LR, AR, AR, BCT)           N1 = 3702
#            loop 2  LA, SR + 4 x N2 (LR, MR, AR, BCT)           N2 = 3702
#            loop 3  LA, SR + 5 x N3 (SR, LR, DR, AR, BCT)       N3 = 3999
#            loop 4  LA + 5 x N4 (L, BALR LGN, L, BALR EXP, BCT)  N4 = 50
#            loop 5  LA + 3 x N5 (L, BALR CVT, BCT)              N5 = 40
#            MVI X'5C',X'80'                                       1
#            flagged: LA + 3 x N6 (L, BALR ERR, BCT) + MVI X'5C',X'00'   N6 = 10: 32
#            3 epilogue
#            = 19 + 4 N1 + 4 N2 + 5 N3 + 5 N4 + 3 N5 + 32 = 50000 + 32
#   IHOLGN  7 prologue + LA + 2 x 294 (AR, BCT) + LR + 3 epilogue = 600 x N4 = 30000
#   IHOEXP  12 + 2 x 274                                     = 560 x N4 = 28000
#   IHOCVT  12 + 2 x 1144                                    = 2300 x N5 = 92000
#   IHOERR  12 + 2 x 4                                       = 20 x N6 = 200      (all inside the flagged part)
#   total    5 + 50032 + 30000 + 28000 + 92000 + 200 = 200237
# LOGTIME's flag: an instruction is recorded when the flag is X'00' before it executes,
# so the MVI X'80' is recorded and the MVI X'00' is not: 232 instructions unrecorded
# (MAIN's 32 and IHOERR's 200). Recorded: 200005, of which 200000 from MAIN's entry
# up: MAIN 50000 (25%), IHOEXP 28000 (14%), IHOLGN 30000 (15%), IHOCVT 92000 (46%),
# IHOERR 0.
# Calls: IHOLGN 50, IHOEXP 50, IHOCVT 40, IHOERR 10 (all from MAIN).

        .include "s370.inc"
        LOWCORE

        .set    .LN1, 3702
        .set    .LN2, 3702
        .set    .LN3, 3999
        .set    .LN4, 50
        .set    .LN5, 40
        .set    .LN6, 10

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    MAIN                 # 5 instructions, outside

# ---- MAIN: mainline, entered once ------------------------------------------
        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r4,.LN1                # 1  I=0; DO 1 N=1,N1: I=I+(N+N)
        sr      %r2,%r2                 # 1
.Ll1:   lr      %r3,%r4                 # N1
        ar      %r3,%r4                 # N1
        ar      %r2,%r3                 # N1
        bct     %r4,.Ll1-MAIN(%r12)     # N1
        la      %r4,.LN2                # 1  I=0; DO 2 N=1,N2: I=I+(N*N)
        sr      %r2,%r2                 # 1
.Ll2:   lr      %r1,%r4                 # N2
        mr      %r0,%r4                 # N2
        ar      %r2,%r1                 # N2
        bct     %r4,.Ll2-MAIN(%r12)     # N2
        la      %r4,.LN3                # 1  I=0; DO 3 N=1,N3: I=I+(N/N)
        sr      %r2,%r2                 # 1
.Ll3:   sr      %r0,%r0                 # N3
        lr      %r1,%r4                 # N3
        dr      %r0,%r4                 # N3
        ar      %r2,%r1                 # N3
        bct     %r4,.Ll3-MAIN(%r12)     # N3
        la      %r5,.LN4                # 1  DO 4 N=1,N4: A=A+EXP(LOG(FLOAT(N)))
.Ll4:   l       %r15,.LaLGN-MAIN(%r12) # N4
        balr    %r14,%r15               # N4 call IHOLGN
        l       %r15,.LaEXP-MAIN(%r12) # N4
        balr    %r14,%r15               # N4 call IHOEXP
        bct     %r5,.Ll4-MAIN(%r12)     # N4
        la      %r5,.LN5                # 1  DO 5 N=1,N5: WRITE
.Ll5:   l       %r15,.LaCVT-MAIN(%r12) # N5
        balr    %r14,%r15               # N5 call IHOCVT
        bct     %r5,.Ll5-MAIN(%r12)     # N5
        mvi     0x5C,0x80               # 1  LOGTIME flag: stop recording
        la      %r5,.LN6                # 1  (not recorded)
.Ll6:   l       %r15,.LaERR-MAIN(%r12) # N6 (not recorded)
        balr    %r14,%r15               # N6 call IHOERR (not recorded)
        bct     %r5,.Ll6-MAIN(%r12)     # N6 (not recorded)
        mvi     0x5C,0x00               # 1  LOGTIME flag: record again (itself not recorded)
        EPILOGUE                        # 3
        .balign 4
.LaLGN: .long  IHOLGN
.LaEXP: .long  IHOEXP
.LaCVT: .long  IHOCVT
.LaERR: .long  IHOERR

# ---- library-like routines: 12 + 2 K instructions per call -----------------
        .macro  LIBR name, k
        FORTG   \name
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r3,\k                  # 1
.Lk\name: ar    %r2,%r3                 # K
        bct     %r3,.Lk\name-\name(%r12) # K
        lr      %r0,%r2                 # 1  the result
        EPILOGUE                        # 3
        .endm

        LIBR    IHOEXP, 274            # 560 per call
        LIBR    IHOLGN, 294            # 600 per call
        LIBR    IHOCVT, 1144           # 2300 per call
        LIBR    IHOERR, 4              # 20 per call

# ---- save-area stack: 4 areas of 18 words ----------------------------------
        .balign 8
.Lsaves: .fill  4*72, 1, 0
