# nestlcg.s -- a loop nested in one whose turns differ: the shape of a drawn program
# (tests/loops/gen.py seeds 12452, 20002) whose replay folded little (replay_fold.c
# "long periods that fold too little"). MAIN turns its outer loop N times; each turn
# steps an LCG (r8 = 5 r8 + 1), runs two ARs or not as one of its high bits says (a bit
# of period 2^21: the turns differ as data would make them), then an inner loop of K
# turns (AR, AR, BCT). --defsym NOUT=n, NIN=k change N and K (default 100, 400: 121 K
# instructions; tests/e2e/fold.sh builds it with N = 1000, 1.2 M).
#
# Dynamic instruction count:
#   stub                                                5  (outside)
#   MAIN   7 prologue + 3 + N x (7 + 1 + 3K + 1) + 2 x T + 3 epilogue
#          (T: the turns whose bit is set, which run the two ARs: 39 of N = 100, 506 of
#          N = 1000)
#   SEED   3 (called once)
#   total  21 + N x (9 + 3K) + 2T: N = 100, K = 400: 120 999; N = 1000: 1 210 033
# Runs (a run ends at a taken branch): each inner turn but the last is one (its BCT
# branches back), so N x (K - 1) of them are the inner loop's own, the same run each: the
# replay folds all but those it takes to find the period again at each outer turn (a
# window of 32 runs) and to record it, those its budget keeps it quiet for at the start,
# and the outer turns it tries as a period now and then (tests/e2e/fold.sh).
        .include "s370.inc"
        DEFAULT NOUT, 100
        DEFAULT NIN, 400

        LOWCORE
        STUB    MAIN

        FORTG   MAIN
        PROLOGUE                        # 7
        l       %r15,.LaSEED-MAIN(%r12) # 1
        balr    %r14,%r15               # 1   call SEED: r8 = its seed
        l       %r2,.Lnout-MAIN(%r12)   # 1
.Lout:  lr      %r9,%r8                 # N   the LCG's step: r8 = 5 r8 + 1
        sll     %r8,2                   # N
        alr     %r8,%r9                 # N
        al      %r8,.Lone-MAIN(%r12)    # N
        lr      %r5,%r8                 # N
        n       %r5,.Lbit-MAIN(%r12)    # N
        bz      .Lskip-MAIN(%r12)       # N
        ar      %r0,%r1                 # T
        ar      %r0,%r1                 # T
.Lskip: l       %r3,.Lnin-MAIN(%r12)    # N
.Lin:   ar      %r0,%r1                 # N x K
        ar      %r0,%r1                 # N x K
        bct     %r3,.Lin-MAIN(%r12)     # N x K
        bct     %r2,.Lout-MAIN(%r12)    # N
        EPILOGUE                        # 3
        .balign 4
.LaSEED: .long  SEED
.Lnout: .long   NOUT
.Lnin:  .long   NIN
.Lone:  .long   1
.Lbit:  .long   0x00100000

# ---- SEED: a leaf called once (a second routine: tests/e2e/maps.sh places a map by its
# programs' call targets) ---------------------------------------------------------------
        FORTG   SEED
        l       %r8,.Lseed-SEED(%r15)   # 1
        br      %r14                    # 1   SEED = 3 (with its entry B)
        .balign 4
.Lseed: .long   12345

        .balign 8
.Lsaves: .fill  2*72, 1, 0
