# shares.s -- a mainline and three FORTRAN G routines whose instruction shares are known
# by construction, for sampled profiles (fst-capture --sample, issue 15).
#
# MAIN calls ALPHA, BETA and GAMMA once per round, R rounds (.LR below; the tests give a
# large one on the command line: s390x-linux-gnu-as -m31 --defsym ROUNDS=50000 ...).
# Each routine runs the same instruction mix (AR, AR, AR, BCT) K times, so that host time
# is proportional to instruction count and a sample's chance of landing in a routine is
# its instruction share:
#   MAIN   7 prologue + 1 + R x 7 + 3                 (entered once)
#   ALPHA  B, STM, LR, L, 500 x 4, LM, BR = 2006      x R
#   BETA   300 x 4 + 6                    = 1206      x R
#   GAMMA  200 x 4 + 6                    =  806      x R
#   a round: 4025 instructions: ALPHA 49.84 %, BETA 29.96 %, GAMMA 20.02 %, MAIN 0.17 %
# R = 50000: 201 million instructions, a few seconds untraced.
# KA, KB, KC (--defsym, default 500, 300, 200) change the routines' K: a variant whose
# shares differ by construction (fst-diff on sampled profiles, tests/e2e/sample.sh).

        .include "s370.inc"
        .ifdef  ROUNDS
        .set    .LR, ROUNDS
        .else
        .set    .LR, 10
        .endif
        DEFAULT KA, 500
        DEFAULT KB, 300
        DEFAULT KC, 200

        LOWCORE
        STUB    MAIN

        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r2,.Lrounds-MAIN(%r12) # 1
.Lloop: l       %r15,.LaA-MAIN(%r12)    # R
        balr    %r14,%r15               # R
        l       %r15,.LaB-MAIN(%r12)    # R
        balr    %r14,%r15               # R
        l       %r15,.LaC-MAIN(%r12)    # R
        balr    %r14,%r15               # R
        bct     %r2,.Lloop-MAIN(%r12)   # R
        EPILOGUE                        # 3
        .balign 4
.Lrounds: .long .LR
.LaA:   .long   ALPHA
.LaB:   .long   BETA
.LaC:   .long   GAMMA

        .macro  LEAF name, k
        FORTG   \name
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        l       %r3,.Lk\name-\name(%r12)
.Ll\name: ar    %r0,%r1
        ar      %r0,%r1
        ar      %r0,%r1
        bct     %r3,.Ll\name-\name(%r12)
        lm      %r14,%r12,12(%r13)
        br      %r14
        .balign 4
.Lk\name: .long \k
        .endm

        LEAF    ALPHA, KA
        LEAF    BETA, KB
        LEAF    GAMMA, KC

        .balign 8
.Lsaves: .fill  4*72, 1, 0
