# twocpu.s -- two CPUs, one job each (run with fst-capture --numcpu=2): CPU 0 starts
# CPU 1 with SIGP restart, then both run a FORTRAN G mainline calling a leaf routine in
# a loop, at the same time; Hercules interleaves their trace lines. Each CPU is its own
# task (analyze/tasks/tasks.h): calls, self and inclusive time must be each CPU's own, never
# counting the other's instructions (issue 12 item 3). tests/e2e/twocpu.sh.
#
# CPU 0 (IPL, 0x20000, outside): BALR 12,0 / L 13 (its save areas) / MVC the restart new
#   PSW (absolute 0, CPU 1 starts at STUB1) / LA 3,1 / SIGP 4,3,6 (restart CPU 1) / BZ
#   (with one CPU, SIGP fails: MVI the done flag itself) / L 15 / BALR 14,15 -> MAINA;
#   then spins until CPU 1 has set the done flag, and loads a disabled wait.
# CPU 1 (STUB1, outside): BALR 12,0 / L 13 (its save areas) / L 15 / BALR 14,15 -> MAINB;
#   then sets the done flag and stops itself (SIGP 4,3,5 to CPU 1).
# MAINA: 7 prologue + 2 + NA x 3 (LR, BALR, BCT) + 3 epilogue = 12 + 3 NA; TICKA 8 x NA.
# MAINB: 12 + 3 NB; TICKB 8 x NB.   NA = 300, NB = 500:
#   MAINA self 912, TICKA self 2400 (300 calls), MAINA inclusive 3312;
#   MAINB self 1512, TICKB self 4000 (500 calls), MAINB inclusive 5512.
# Outside: both stubs and CPU 0's spin loop (its length depends on the interleaving).

        .set    .LNA, 300
        .set    .LNB, 500

        .include "s370.inc"
        LOWCORE

# ---- CPU 0: IPL stub (outside), 0x20000 ------------------------------------
        balr    %r12,0
.Lb:    l       %r13,.LaSAVEA-.Lb(%r12)
        mvc     0(8,%r0),.Lrpsw-.Lb(%r12)   # restart new PSW: CPU 1 starts at STUB1
        la      %r3,1
        sigp    %r4,%r3,6               # restart CPU 1
        bz      .Lgo-.Lb(%r12)
        mvi     .Ldone-.Lb(%r12),1      # no CPU 1: nothing to wait for
.Lgo:   l       %r15,.LaMAINA-.Lb(%r12)
        balr    %r14,%r15               # MAINA: CPU 0's mainline
.Lspin: cli     .Ldone-.Lb(%r12),1
        bne     .Lspin-.Lb(%r12)
        lpsw    .Lwait-.Lb(%r12)
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
.Lrpsw: .long   0x00080000, STUB1
.LaSAVEA: .long .LsavesA
.LaMAINA: .long MAINA
.Ldone: .byte   0

# ---- CPU 1: restart stub (outside) -------------------------------------------
        .balign 8
STUB1:  balr    %r12,0
.Lc:    l       %r13,.LaSAVEB-.Lc(%r12)
        l       %r15,.LaMAINB-.Lc(%r12)
        balr    %r14,%r15               # MAINB: CPU 1's mainline
        l       %r1,.LaDONE-.Lc(%r12)
        mvi     0(%r1),1                # done
        la      %r3,1
        sigp    %r4,%r3,5               # stop CPU 1
.Lstop: b       .Lstop-.Lc(%r12)        # (not reached)
        .balign 4
.LaSAVEB: .long .LsavesB
.LaMAINB: .long MAINB
.LaDONE: .long  .Ldone

        .macro  LOOPMAIN name, tick, n
        FORTG   \name
        PROLOGUE                        # 7
        l       %r2,.Ln\name-\name(%r12)  # 1
        l       %r9,.La\tick-\name(%r12)  # 1
.Ll\name: lr    %r15,%r9                # n
        balr    %r14,%r15               # n
        bct     %r2,.Ll\name-\name(%r12)  # n
        EPILOGUE                        # 3
        .balign 4
.Ln\name: .long \n
.La\tick: .long \tick
        .endm

        .macro  LEAF name
        FORTG   \name
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
        l       %r0,.Lc\name-\name(%r12)
        a       %r0,.Lo\name-\name(%r12)
        st      %r0,.Lc\name-\name(%r12)
        lm      %r14,%r12,12(%r13)
        br      %r14                    # 8 with the entry's B
        .balign 4
.Lc\name: .long 0
.Lo\name: .long 1
        .endm

        LOOPMAIN MAINA, TICKA, .LNA
        LEAF    TICKA
        LOOPMAIN MAINB, TICKB, .LNB
        LEAF    TICKB

        .balign 8
.LsavesA: .fill 4*72, 1, 0
.LsavesB: .fill 4*72, 1, 0
