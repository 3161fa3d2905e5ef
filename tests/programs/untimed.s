# untimed.s -- seed 000, Figure 1: A calls B calls C calls D; A and D are FORTRAN G
# (timed by default), B and C are plain assembler routines (no X'47F0F00C' prologue,
# not FORTRAN-compatible, untimed by default: "part of A").
#
# Shape:   A (the mainline) calls B 4 times; each B calls C once; each C calls D once.
#          After the loop A also calls D directly once.
#
# Layout as in fortg.s (see its header and EXPECTED): low core with the IPL PSW
# 00080000 00020000 and disabled-wait new PSWs; an unnamed stub at 0x20000 (outside:
# 4 instructions before A is entered, 1 after it returns) that sets R13 to a stack
# of 18-word save areas and enters A with L 15,=A(A) / BALR 14,15 (the mainline's
# first entry, not a call); OS linkage in every routine. B and C start directly
# with STM 14,12,12(13), so their prologue is one instruction shorter (6, not 7).
#
# Dynamic instruction count:
#   stub                                                  5  (outside)
#   A   7 prologue + 1 + 4 x 3 + 2 + 3 epilogue        = 25  (entered once)
#   B   6 prologue + 2 work + 2 (call C) + 3 epilogue  = 13  x 4 entries = 52
#   C   6 prologue + 3 work + 2 (call D) + 3 epilogue  = 14  x 4 entries = 56
#   D   7 prologue + 3 body + 3 epilogue               = 13  x 5 entries = 65
#   total  5 + 25 + 52 + 56 + 65                       = 203
# Calls (every routine known, --timed=all): B 4 (A->B), C 4 (B->C), D 5 (C->D 4,
#   A->D 1); A 0.
# Default timing (only A and D timed): B and C are transparent, so
#   A: self 25 + 52 + 56 = 133, D: self 65, calls D 5, all as arc A->D 5.

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
        balr    %r14,%r15               # 1  enter the mainline A (not a call)
        lpsw    .Lwait-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
.LaSAVE: .long  .Lsaves
.LaMAIN: .long  A

# ---- A: FORTRAN G, mainline, entered once ----------------------------------
        .balign 8
        .globl  A
A:      .long   0x47F0F00C              # 1  B 12(,15)
        .byte   0x06                    #    FORTRAN G identifier
        .byte   0xC1,0x40,0x40,0x40,0x40,0x40,0x40  # 'A      '
        stm     %r14,%r12,12(%r13)      # 1
        lr      %r12,%r15               # 1
        la      %r11,72(%r13)           # 1
        st      %r13,4(%r11)            # 1
        st      %r11,8(%r13)            # 1
        lr      %r13,%r11               # 1  (prologue: 7)
        la      %r2,4                   # 1
.La1:   l       %r15,.LaB-A(%r12)       # 4
        balr    %r14,%r15               # 4  call B
        bct     %r2,.La1-A(%r12)        # 4
        l       %r15,.LaD-A(%r12)       # 1
        balr    %r14,%r15               # 1  call D directly
        l       %r13,4(%r13)            # 1
        lm      %r14,%r12,12(%r13)      # 1
        br      %r14                    # 1  (epilogue: 3)   A = 25
        .balign 4
.LaB:   .long   B
.LaD:   .long   D

# ---- B: plain assembler (no FORTRAN prologue), 4 entries; calls C ----------
        .balign 8
        .globl  B
B:      stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r11,72(%r13)
        st      %r13,4(%r11)
        st      %r11,8(%r13)
        lr      %r13,%r11               # (prologue: 6)
        la      %r3,2
        ar      %r3,%r3                 # (work: 2)
        l       %r15,.LaC-B(%r12)
        balr    %r14,%r15               # call C
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # (epilogue: 3)   B = 13
        .balign 4
.LaC:   .long   C

# ---- C: plain assembler (no FORTRAN prologue), 4 entries; calls D ----------
        .balign 8
        .globl  C
C:      stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r11,72(%r13)
        st      %r13,4(%r11)
        st      %r11,8(%r13)
        lr      %r13,%r11               # (prologue: 6)
        la      %r3,3
        ar      %r3,%r3
        sr      %r3,%r3                 # (work: 3)
        l       %r15,.LaD2-C(%r12)
        balr    %r14,%r15               # call D
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # (epilogue: 3)   C = 14
        .balign 4
.LaD2:  .long   D

# ---- D: FORTRAN G, 5 entries (4 from C, 1 from A) --------------------------
        .balign 8
        .globl  D
D:      .long   0x47F0F00C              # B 12(,15)
        .byte   0x06
        .byte   0xC4,0x40,0x40,0x40,0x40,0x40,0x40  # 'D      '
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r11,72(%r13)
        st      %r13,4(%r11)
        st      %r11,8(%r13)
        lr      %r13,%r11               # (prologue: 7)
        l       %r0,.Lcnt-D(%r12)
        a       %r0,.Lone-D(%r12)
        st      %r0,.Lcnt-D(%r12)       # (body: 3)
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # (epilogue: 3)   D = 13
        .balign 4
.Lcnt:  .long   0
.Lone:  .long   1

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
