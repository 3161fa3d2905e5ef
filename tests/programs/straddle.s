# straddle.s -- a hot loop across a page's end, whose second page holds data it stores into
# and an instruction another routine changes, in a third page (tests/e2e/modcode.sh: the
# module remembers the pages it found right, and a run over two of them, fstmod_code.c ckent).
#
#   MAIN   N times: call LOOPX, call FLIPR
#   LOOPX  at 0x20FE8: its loop of K turns begins with an LA across 0x21000 (bytes in both
#          pages), then AR, AR, PATCH, ST (into DATA, beside it in the page at 0x21000),
#          BCT: each turn's run lies in two pages, the second written at every turn
#   FLIPR  in the page at 0x22000 (0x20000 + FLIPAT): XI flips PATCH between LR 0,1 (1801) and MR 0,1 (1C01),
#          which the cost model prices apart (57.2 and 400.4 ns): a change the module missed
#          would show in the times, not only in the pages sent
#
# Dynamic instruction count (N = NCALL, default 20; K = 50):
#   stub 5 (outside)
#   MAIN   B 1 + prologue 6 + LA + L + L 3 + N x (LR, BALR, LR, BALR, BCT) 5N + epilogue 3
#          = 13 + 5N = 113
#   LOOPX  B, STM, LR, LA 4 + K x (LA, AR, AR, PATCH, ST, BCT) 6K + LM, BR 2 = 6 + 6K a call:
#          306 N = 6120
#   FLIPR  B, STM, LR, L, XI, LM, BR = 7 a call: 140
#   total  5 + 113 + 6120 + 140 = 6378; calls LOOPX N, FLIPR N
# Code pages the module sends: 0x20000 at the first op; 0x21000 at LOOPX's first turn and
# again at each later call (FLIPR changed PATCH since): N; 0x22000 at FLIPR's first run (its
# frame written by the save areas there, its code never): N + 2 = 22.
        .include "s370.inc"
        DEFAULT NCALL, 20               # --defsym NCALL=n overrides it
        DEFAULT FLIPAT, 0x2000          # FLIPR's offset (tests/e2e/modcode.sh: 0x21000 too)
        .set    .LK, 50
        LOWCORE

        STUB    MAIN                    # 5, outside

        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry's B: 7)
        la      %r2,NCALL               # 1
        l       %r9,.LaLOOPX-MAIN(%r12) # 1
        l       %r8,.LaFLIPR-MAIN(%r12) # 1
.Lloop: lr      %r15,%r9                # N
        balr    %r14,%r15               # N  call LOOPX
        lr      %r15,%r8                # N
        balr    %r14,%r15               # N  call FLIPR
        bct     %r2,.Lloop-MAIN(%r12)   # N
        EPILOGUE                        # 3
        .balign 4
.LaLOOPX: .long LOOPX
.LaFLIPR: .long FLIPR

        .org    0xFE8                   # LOOPX at 0x20FE8: its loop's LA at 0x20FFE-0x21001
        FORTG   LOOPX
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        la      %r3,.LK
.Lturn: la      %r0,1(%r0)              # across the page's end
        ar      %r0,%r1
        ar      %r0,%r1
.Lpatch: lr     %r0,%r1                 # FLIPR makes it MR 0,1 and back
        st      %r0,.Ldata-LOOPX(%r12)  # a store into the loop's second page
        bct     %r3,.Lturn-LOOPX(%r12)
        lm      %r14,%r12,12(%r13)
        br      %r14
        .balign 4
.Ldata: .long   0

        .org    FLIPAT                  # FLIPR at 0x22000, with the save areas
        FORTG   FLIPR
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        l       %r4,.LaPATCH-FLIPR(%r12)
        xi      0(%r4),0x04             # 18 <-> 1C
        lm      %r14,%r12,12(%r13)
        br      %r14
        .balign 4
.LaPATCH: .long .Lpatch

        .balign 8
.Lsaves: .fill  4*72, 1, 0
