# cardprog.s -- the programs cardload.s reads from cards (tests/e2e/modcode.sh), linked at
# 0x30000 and padded to 400 bytes (5 cards). --defsym VARIANT=1 (A) or 2 (B): B is other
# code at the same addresses (one instruction more in PMAIN, other counts), with PTICK at
# the same entry (.org 0x80), so that one map names both.
#   PMAIN  B + prologue 6, (B: LA 1), LA 1, NCALL x (L, BALR, BCT) 3, epilogue 3:
#          A 11 + 3 x 3 = 20, B 12 + 3 x 5 = 27
#   PTICK  B, STM, LA, BCT x K, LM, BR = 5 + K: A (K 4) 9 a call, 3 calls; B (K 7) 12, 5 calls
        .include "s370.inc"
        .text
        .if     VARIANT == 1
        .set    .LNCALL, 3
        .set    .LK, 4
        .else
        .set    .LNCALL, 5
        .set    .LK, 7
        .endif
        FORTG   PMAIN
        PROLOGUE
        .if     VARIANT == 2
        la      %r0,0
        .endif
        la      %r2,.LNCALL
.Lloop: l       %r15,.LaPTICK-PMAIN(%r12)
        balr    %r14,%r15
        bct     %r2,.Lloop-PMAIN(%r12)
        EPILOGUE
        .balign 4
.LaPTICK: .long PTICK
        .org    0x80
        FORTG   PTICK
        stm     %r14,%r12,12(%r13)
        la      %r3,.LK
.Lt:    bct     %r3,.Lt-PTICK(%r15)
        lm      %r14,%r12,12(%r13)
        br      %r14
        .org    0x18C
        .long   0
