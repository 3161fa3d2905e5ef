# entryloop.s -- a leaf whose first instruction is a loop branching to itself, so that
# nearly every taken branch is the routine's entry: a window of a running system
# (fst-capture --attach) begins at the instruction the module's first record is about,
# a taken branch (capture/modread/modattach.h), here SPIN's entry (tests/e2e/modattach.sh).
#
# MAIN calls SPIN R times (--defsym ROUNDS=N, default 10); SPIN counts R3 down from K
# (--defsym K=N, default 100) in a BCT to itself (on R15, its address), then returns:
#   MAIN   7 prologue + 1 + R x 4 + 3           (entered once)
#   SPIN   K + 1 = 101                          x R
# A round's taken branches: the call, SPIN's BCT K - 1 times, the return and MAIN's BCT:
# K - 1 of K + 2 are SPIN's entry.

        .include "s370.inc"
        DEFAULT ROUNDS, 10
        DEFAULT K, 100

        LOWCORE
        STUB    MAIN

        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r2,.Lrounds-MAIN(%r12) # 1
.Lloop: la      %r3,K                   # R
        l       %r15,.LaS-MAIN(%r12)    # R
        balr    %r14,%r15               # R
        bct     %r2,.Lloop-MAIN(%r12)   # R
        EPILOGUE                        # 3
        .balign 4
.Lrounds: .long ROUNDS
.LaS:   .long   SPIN

        ASMENTRY SPIN
        bct     %r3,0(%r15)             # K: to itself, the entry
        br      %r14                    # 1

        .balign 8
.Lsaves: .fill  4*72, 1, 0
