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

        .include "s370.inc"
        LOWCORE

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    A                 # 5 instructions, outside

# ---- A: FORTRAN G, mainline, entered once ----------------------------------
        FORTG   A
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r2,4                   # 1
.La1:   l       %r15,.LaB-A(%r12)       # 4
        balr    %r14,%r15               # 4  call B
        bct     %r2,.La1-A(%r12)        # 4
        l       %r15,.LaD-A(%r12)       # 1
        balr    %r14,%r15               # 1  call D directly
        EPILOGUE                        # 3   A = 25
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
        EPILOGUE                        # 3 B = 13
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
        EPILOGUE                        # 3 C = 14
        .balign 4
.LaD2:  .long   D

# ---- D: FORTRAN G, 5 entries (4 from C, 1 from A) --------------------------
        FORTG   D
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r0,.Lcnt-D(%r12)
        a       %r0,.Lone-D(%r12)
        st      %r0,.Lcnt-D(%r12)       # (body: 3)
        EPILOGUE                        # 3 D = 13
        .balign 4
.Lcnt:  .long   0
.Lone:  .long   1

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
