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

        .section .lowcore,"a"
        .long   0x00080000, 0x00020000  # 000 IPL PSW: EC mode, disabled, IA 20000
        .fill   0x58-8, 1, 0            # 008..057 old PSWs, CSW, CAW, timer
        .long   0x000A0000, 0x00BAD058  # 058 external new PSW: disabled wait
        .long   0x000A0000, 0x00BAD060  # 060 SVC new PSW: disabled wait
        .long   0x000A0000, 0x00BAD068  # 068 program new PSW: disabled wait
        .long   0x000A0000, 0x00BAD070  # 070 machine-check new PSW: disabled wait
        .long   0x000A0000, 0x00BAD078  # 078 I/O new PSW: disabled wait

        .text
# ---- stub (outside): 0x20000 -----------------------------------------------
        balr    %r12,0                  # 1  base
.Lb:    l       %r13,.LaSAVE-.Lb(%r12)  # 1  R13 -> first save area
        l       %r15,.LaMAIN-.Lb(%r12)  # 1
        balr    %r14,%r15               # 1  enter the mainline (not a call)
        lpsw    .Lwait-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
.LaSAVE: .long  .Lsaves
.LaMAIN: .long  MAIN

# ---- MAIN: mainline, entered once ------------------------------------------
        .balign 8
        .globl  MAIN
MAIN:   .long   0x47F0F00C              # 1  B 12(,15)
        .byte   0x07                    #    FORTRAN H identifier
        .byte   0x00,0x00,0x00,0xD4,0xC1,0xC9,0xD5  # 'MAIN' right-justified
        stm     %r14,%r12,12(%r13)      # 1
        lr      %r12,%r15               # 1
        la      %r11,72(%r13)           # 1
        st      %r13,4(%r11)            # 1
        st      %r11,8(%r13)            # 1
        lr      %r13,%r11               # 1  (prologue: 7)
        la      %r2,5                   # 1
.Lm1:   l       %r15,.LaALPHA-MAIN(%r12) # 5
        balr    %r14,%r15               # 5  call ALPHA
        bct     %r2,.Lm1-MAIN(%r12)     # 5
        la      %r2,2                   # 1
.Lm2:   l       %r15,.LaBETA-MAIN(%r12) # 2
        balr    %r14,%r15               # 2  call BETA
        bct     %r2,.Lm2-MAIN(%r12)     # 2
        l       %r13,4(%r13)            # 1
        lm      %r14,%r12,12(%r13)      # 1
        br      %r14                    # 1  (epilogue: 3)   MAIN = 33
        .balign 4
.LaALPHA: .long ALPHA
.LaBETA: .long  BETA

# ---- ALPHA: 11 entries (5 from MAIN, 2 x 3 from BETA) ----------------------
        .balign 8
        .globl  ALPHA
ALPHA:  .long   0x47F0F00C              # B 12(,15)
        .byte   0x07
        .byte   0x00,0x00,0xC1,0xD3,0xD7,0xC8,0xC1  # 'ALPHA' right-justified
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r11,72(%r13)
        st      %r13,4(%r11)
        st      %r11,8(%r13)
        lr      %r13,%r11               # (prologue: 7)
        l       %r0,.Lcnt-ALPHA(%r12)
        a       %r0,.Lone-ALPHA(%r12)
        st      %r0,.Lcnt-ALPHA(%r12)
        ltr     %r0,%r0                 # (body: 4)
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # (epilogue: 3)   ALPHA = 14
        .balign 4
.Lcnt:  .long   0
.Lone:  .long   1

# ---- BETA: 2 entries from MAIN; calls ALPHA 3 times each -------------------
        .balign 8
        .globl  BETA
BETA:   .long   0x47F0F00C              # B 12(,15)
        .byte   0x07
        .byte   0x00,0x00,0x00,0xC2,0xC5,0xE3,0xC1  # 'BETA' right-justified
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r11,72(%r13)
        st      %r13,4(%r11)
        st      %r11,8(%r13)
        lr      %r13,%r11               # (prologue: 7)
        la      %r2,3                   # 1
.Lb1:   l       %r15,.LaALPHA2-BETA(%r12) # 3
        balr    %r14,%r15               # 3  call ALPHA
        bct     %r2,.Lb1-BETA(%r12)     # 3
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # (epilogue: 3)   BETA = 20
        .balign 4
.LaALPHA2: .long ALPHA

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
