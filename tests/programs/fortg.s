# fortg.s -- FORTRAN G style routines under OS linkage (standalone S/370, EC mode).
#
# Shape:   MAIN calls SUBA 10 times and SUBB 3 times; each SUBB calls SUBA twice.
#          Every routine starts with the FORTRAN G prologue: X'47F0F00C' (B 12(,15)),
#          X'06', the name in 7 EBCDIC bytes left-justified and blank (X'40') padded.
#
# Common layout of every test program in this folder (see EXPECTED):
#   low core   absolute 0: IPL PSW 00080000 00020000 (S/370 EC mode, disabled);
#              every new PSW (external 58, SVC 60, program 68, machine check 70,
#              I/O 78) is a disabled wait with address X'BADxxx' (xxx = its slot), so
#              an unexpected interruption stops the machine instead of looping.
#   stub       at 0x20000, no symbol, "outside" (DESIGN 3.7):
#                BALR 12,0 / L 13,=A(save-area stack) / L 15,=A(MAIN) / BALR 14,15
#                ... MAIN returns ... / LPSW of the wait PSW 000A0000 00000000.
#              4 instructions before MAIN is entered + 1 after it returns = 5 outside.
#              MAIN's entry from the stub is the mainline's first entry: not a call.
#   routines   entry label = routine name (global symbol); local labels are .L* so
#              that `nm` lists only routines. Linkage: STM 14,12,12(13); LR 12,15
#              (base = entry point); LA 11,72(,13) (next 18-word save area on a stack
#              of save areas); ST 13,4(,11); ST 11,8(,13); LR 13,11 ... L 13,4(,13);
#              LM 14,12,12(13); BR 14.  Calls: L 15,=A(SUB); BALR 14,15.
#
# Dynamic instruction count (every instruction below is executed the number of
# times given in its right-hand comment; "x" = per entry of that routine):
#   stub                                      5  (4 + 1, outside)
#   MAIN   7 prologue + 1 + 10 x 3 + 1 + 3 x 3 + 3 epilogue   = 51  (entered once)
#   SUBA   7 prologue + 3 body + 3 epilogue                   = 13  x 16 entries = 208
#   SUBB   7 prologue + 2 x 2 (L, BALR) + 3 epilogue          = 14  x  3 entries =  42
#   total  5 + 51 + 208 + 42                                  = 306
# Calls: SUBA 16 (MAIN->SUBA 10, SUBB->SUBA 6), SUBB 3 (MAIN->SUBB 3); MAIN 0.
# SUBA's counter (.LcntA) ends at 16.

        .include "s370.inc"
        LOWCORE

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    MAIN                 # 5 instructions, outside

# ---- MAIN: mainline, entered once ------------------------------------------
        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r2,10                  # 1
.Lm1:   l       %r15,.LaSUBA-MAIN(%r12) # 10
        balr    %r14,%r15               # 10 call SUBA
        bct     %r2,.Lm1-MAIN(%r12)     # 10
        la      %r2,3                   # 1
.Lm2:   l       %r15,.LaSUBB-MAIN(%r12) # 3
        balr    %r14,%r15               # 3  call SUBB
        bct     %r2,.Lm2-MAIN(%r12)     # 3
        EPILOGUE                        # 3   MAIN = 51
        .balign 4
.LaSUBA: .long  SUBA
.LaSUBB: .long  SUBB

# ---- SUBA: 16 entries (10 from MAIN, 2 x 3 from SUBB) ----------------------
        FORTG   SUBA
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r0,.LcntA-SUBA(%r12)
        a       %r0,.LoneA-SUBA(%r12)
        st      %r0,.LcntA-SUBA(%r12)   # (body: 3)
        EPILOGUE                        # 3 SUBA = 13
        .balign 4
.LcntA: .long   0
.LoneA: .long   1

# ---- SUBB: 3 entries from MAIN; calls SUBA twice each ----------------------
        FORTG   SUBB
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r15,.LaSUBA2-SUBB(%r12)
        balr    %r14,%r15               # call SUBA
        l       %r15,.LaSUBA2-SUBB(%r12)
        balr    %r14,%r15               # call SUBA
        EPILOGUE                        # 3 SUBB = 14
        .balign 4
.LaSUBA2: .long SUBA

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
