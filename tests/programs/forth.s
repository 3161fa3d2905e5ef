# forth.s -- FORTRAN H style routines under OS linkage (standalone S/370, EC mode).
#
# Shape:   MAIN calls ALPHA 5 times and BETA 2 times; each BETA calls ALPHA 3 times.
#          Every routine starts with the FORTRAN H prologue: X'47F0F00C' (B 12(,15)),
#          X'07', the name in 7 EBCDIC bytes right-justified and padded on the left
#          with X'00'.
#
# Layout as in fortg.s (see its header and EXPECTED): low core with the IPL PSW
# 00080000 00020000 and disabled-wait new PSWs; an unnamed stub at 0x20000 (outside:
# 4 instructions before MAIN is entered, 1 after it returns) that sets R13 to a stack
# of 18-word save areas and enters MAIN with L 15,=A(MAIN) / BALR 14,15 (the
# mainline's first entry, not a call); OS linkage in every routine.
#
# Dynamic instruction count:
#   stub                                                      5  (outside)
#   MAIN   7 prologue + 1 + 5 x 3 + 1 + 2 x 3 + 3 epilogue = 33  (entered once)
#   ALPHA  7 prologue + 4 body + 3 epilogue                = 14  x 11 entries = 154
#   BETA   7 prologue + 1 + 3 x 3 + 3 epilogue             = 20  x  2 entries =  40
#   total  5 + 33 + 154 + 40                               = 232
# Calls: ALPHA 11 (MAIN->ALPHA 5, BETA->ALPHA 6), BETA 2 (MAIN->BETA 2); MAIN 0.

        .include "s370.inc"
        LOWCORE

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    MAIN                 # 5 instructions, outside

# ---- MAIN: mainline, entered once ------------------------------------------
        FORTH   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r2,5                   # 1
.Lm1:   l       %r15,.LaALPHA-MAIN(%r12) # 5
        balr    %r14,%r15               # 5  call ALPHA
        bct     %r2,.Lm1-MAIN(%r12)     # 5
        la      %r2,2                   # 1
.Lm2:   l       %r15,.LaBETA-MAIN(%r12) # 2
        balr    %r14,%r15               # 2  call BETA
        bct     %r2,.Lm2-MAIN(%r12)     # 2
        EPILOGUE                        # 3   MAIN = 33
        .balign 4
.LaALPHA: .long ALPHA
.LaBETA: .long  BETA

# ---- ALPHA: 11 entries (5 from MAIN, 2 x 3 from BETA) ----------------------
        FORTH   ALPHA
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r0,.Lcnt-ALPHA(%r12)
        a       %r0,.Lone-ALPHA(%r12)
        st      %r0,.Lcnt-ALPHA(%r12)
        ltr     %r0,%r0                 # (body: 4)
        EPILOGUE                        # 3 ALPHA = 14
        .balign 4
.Lcnt:  .long   0
.Lone:  .long   1

# ---- BETA: 2 entries from MAIN; calls ALPHA 3 times each -------------------
        FORTH   BETA
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r2,3                   # 1
.Lb1:   l       %r15,.LaALPHA2-BETA(%r12) # 3
        balr    %r14,%r15               # 3  call ALPHA
        bct     %r2,.Lb1-BETA(%r12)     # 3
        EPILOGUE                        # 3 BETA = 20
        .balign 4
.LaALPHA2: .long ALPHA

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
