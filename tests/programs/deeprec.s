# deeprec.s -- deep recursion: REC calls itself DEPTH levels deep, one return address
# saved per level on a stack of words (4 bytes a level, so 100 000 levels fit in 400 KB),
# for the tests that replay time and memory stay linear in stack depth (issue 12) and
# that a branch on the code base is never a return (DESIGN 3.3, issue 11).
#
# The depth is set in one place, `.set .LD, 100` below, or on the command line:
# s390x-linux-gnu-as -m31 --defsym DEPTH=100000 ...
#
# Every level of REC (entered by BALR 14,15 with R15 = its entry, its code base):
#   B 12(,15) (the FORTRAN G entry), ST 14 and LA 10 (push the return address),
#   LA 1 / BR 1 (a computed jump over a halfword: return-like, but it lands on no return
#   address, so the replay must look it up, not search the stack), BCT 2 (deeper?),
#   then BALR 14,15 (call the next level) -- or, at the bottom, B .Lback(,15): a branch
#   on the code base that lands exactly on the return address of the frame on top (the
#   recursive call's, .Lback). It is a jump, not a return: no frame may be popped by it.
#   Back: S 10 / L 14 / BR 14 (the return).
#   = 10 instructions a level, self, all levels alike.
#
# Dynamic instruction count, D = the depth:
#   stub 5 (outside); MAIN 7 prologue + 4 (L 2, L 10, L 15, BALR) + 3 epilogue = 14;
#   REC 10 x D.  Total 19 + 10D.
# Calls: REC D (MAIN->REC 1, REC->REC D-1).  Deepest stack: MAIN and D frames of REC.

        .ifdef  DEPTH
        .set    .LD, DEPTH
        .else
        .set    .LD, 100
        .endif

        .include "s370.inc"
        LOWCORE

        STUB    MAIN

        FORTG   MAIN
        PROLOGUE                        # 7
        l       %r2,.Ldepth-MAIN(%r12)  # 1  levels to go
        l       %r10,.Lastk-MAIN(%r12)  # 1  the return-address stack
        l       %r15,.LaREC-MAIN(%r12)  # 1
        balr    %r14,%r15               # 1  call REC, level 1
        EPILOGUE                        # 3  MAIN = 14
        .balign 4
.Ldepth: .long  .LD
.Lastk: .long   .Lstack
.LaREC: .long   REC

        FORTG   REC
        st      %r14,0(%r10)            # push the return address
        la      %r10,4(%r10)
        la      %r1,.Lskip-REC(%r15)
        br      %r1                     # computed jump over the halfword below
        bcr     0,0                     # (never executed)
.Lskip: bct     %r2,.Ldeeper-REC(%r15)  # more levels to go?
        b       .Lback-REC(%r15)        # the bottom: on the code base, to .Lback
.Ldeeper: balr  %r14,%r15               # call the next level
.Lback: s       %r10,.Lfour-REC(%r15)   # pop the return address
        l       %r14,0(%r10)
        br      %r14                    # return
        .balign 4
.Lfour: .long   4

        .balign 8
.Lsaves: .fill  4*72, 1, 0
        .balign 8
.Lstack:
