# runs.s -- two loops whose runs (from a taken branch's target to the next taken branch)
# are shorter than 8 bytes (SHORT: AR, BCT: 6 bytes) and longer than 16 (LONG: 8 AR, ST,
# BCT: 24 bytes), in a page the program stores into (the save areas at its end; LONG's
# ST at every turn). The module cannot keep such a page write-protected, so a loop's copy
# compares each run's bytes with the copy it sent: 8 to 16 bytes inline, any other length
# by memcmp (capture/module/fstmod_branch.c copy_slow), which shares.s's 10-byte runs never reach.
# tests/e2e/module.sh checks it --via=module against --via=trace, under 3.13 and 4.9.
#
# The turns are set in one place, `.set .LN, 1000` below, or on the command line:
# s390x-linux-gnu-as -m31 --defsym TURNS=N ...
#
# Dynamic instruction count, N = the turns:
#   stub 5 (outside); MAIN 1 (B 12(,15)) + 6 prologue + 4 (L, BALR, L, BALR) + 3 epilogue
#   = 14; SHORT 1 + 6 + 1 (L) + 2N (AR, BCT) + 3 = 11 + 2N; LONG 1 + 6 + 1 + 10N (8 AR,
#   ST, BCT) + 3 = 11 + 10N.  Total 41 + 12N.
# Calls: SHORT 1, LONG 1 (both from MAIN).  Deepest stack: MAIN and one routine.

        .ifdef  TURNS
        .set    .LN, TURNS
        .else
        .set    .LN, 1000
        .endif

        .include "s370.inc"
        LOWCORE

        STUB    MAIN

        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r15,.LaS-MAIN(%r12)    # 1
        balr    %r14,%r15               # 1  call SHORT
        l       %r15,.LaL-MAIN(%r12)    # 1
        balr    %r14,%r15               # 1  call LONG
        EPILOGUE                        # 3  MAIN = 14
        .balign 4
.LaS:   .long   SHORT
.LaL:   .long   LONG

        FORTG   SHORT
        PROLOGUE                        # 7 with the entry B
        l       %r3,.LnS-SHORT(%r12)    # 1
.LsS:   ar      %r0,%r1                 # N
        bct     %r3,.LsS-SHORT(%r12)    # N  a run of 6 bytes
        EPILOGUE                        # 3  SHORT = 11 + 2N
        .balign 4
.LnS:   .long   .LN

        FORTG   LONG
        PROLOGUE                        # 7 with the entry B
        l       %r3,.LnL-LONG(%r12)     # 1
.LsL:   ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        ar      %r0,%r1                 # N
        st      %r0,.Lw-LONG(%r12)      # N  a store into this page at every turn
        bct     %r3,.LsL-LONG(%r12)     # N  a run of 24 bytes
        EPILOGUE                        # 3  LONG = 11 + 10N
        .balign 4
.LnL:   .long   .LN
.Lw:    .long   0

        .balign 8
.Lsaves: .fill  3*72, 1, 0
