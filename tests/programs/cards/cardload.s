# cardload.s -- a small loader (tests/e2e/modcode.sh): it reads programs from the card
# reader at 00C into storage and calls them, so their code is in no storage image. The
# deck (fst-capture --cards): per program a header card (words: cards that follow, where
# they go, the entry), then its cards (80 bytes each); a header of 0 cards ends it. Each
# card: SIO, then an enabled wait until its I/O interruption (no busy loop: the count is
# fixed). The test's deck holds cardprog.s's variants A and B, both at 0x30000: B
# overwrites A.
#
# Dynamic instruction count, P programs of n_p cards (the test: P 2, 5 cards each):
#   stub 5 (outside)
#   LOADER  B + prologue 6, MVC 1; per header card (P + 1): LA, BAL, .Lread (ST, MVI, LA,
#           ST, SIO, LPSW, BR) 7, L, LTR, BZ = 12; per program: L 1, per card (BAL, 7,
#           LA, BCT) 10, L, BALR 2, B 1; epilogue 3
#           = 11 + 12 (P + 1) + sum (4 + 10 n_p) = 155 for the test's deck
#   the I/O handler: NI, NI, LPSW = 3 per card, 13 cards: 39, outside (it runs between an
#           interruption and the LPSW that resumes LOADER: no routine's)
#   the programs: cardprog.s's head (A: PMAIN 20, PTICK 3 x 9; B: PMAIN 27, PTICK 5 x 12)
#   total 5 + 155 + 39 + 47 + 87 = 333; calls PMAIN 2 (from LOADER), PTICK 8
        .include "s370.inc"
        LOWCORE

        STUB    LOADER                  # 5, outside

        FORTG   LOADER
        PROLOGUE
        mvc     0x78(8,%r0),.Lionew-LOADER(%r12)  # I/O new PSW: .Lioh
.Lnext: la      %r5,.Lhdr-LOADER(%r12)  # the header card
        bal     %r10,.Lread-LOADER(%r12)
        l       %r3,.Lhdr-LOADER(%r12)  # cards that follow (0: the end)
        ltr     %r3,%r3
        bz      .Lend-LOADER(%r12)
        l       %r5,.Lhdr+4-LOADER(%r12) # where they go
.Lcard: bal     %r10,.Lread-LOADER(%r12)
        la      %r5,80(%r5)
        bct     %r3,.Lcard-LOADER(%r12)
        l       %r15,.Lhdr+8-LOADER(%r12) # the entry
        balr    %r14,%r15               # call the program just read
        b       .Lnext-LOADER(%r12)
.Lend:  EPILOGUE

# one card into 0(R5): SIO 00C, then wait (I/O enabled, at .Lgot) for its interruption,
# whose handler resumes the wait's PSW without its wait and I/O-mask bits: at .Lgot
.Lread: st      %r5,.Lccw-LOADER(%r12)
        mvi     .Lccw-LOADER(%r12),0x02 # read, into R5
        la      %r1,.Lccw-LOADER(%r12)
        st      %r1,0x48(%r0)           # CAW
        .long   0x9C00000C              # SIO 00C (binutils has no SIO)
        lpsw    .Lwtio-LOADER(%r12)
.Lgot:  br      %r10
.Lioh:  ni      0x38(%r0),0xFD          # the I/O old PSW: I/O interruptions off again,
        ni      0x39(%r0),0xFD          # not waiting,
        lpsw    0x38(%r0)               # back where it waited

        .balign 8
.Lccw:  .long   0x02000000, 0x20000050  # read 80 bytes, SLI
.Lionew: .long  0x00080000, .Lioh       # I/O new PSW: EC, disabled
.Lwtio: .long   0x020A0000, .Lgot       # wait, I/O enabled
.Lhdr:  .fill   80, 1, 0

        .balign 8
.Lsaves: .fill  4*72, 1, 0
