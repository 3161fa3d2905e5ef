# twoload.s -- two CPUs run code that is in no storage image (run with fst-capture
# --numcpu=2): CPU 0 starts CPU 1 by SIGP restart, copies a routine to X'30000' (beyond
# the program's .bin), calls it and sets a flag; CPU 1 waits for the flag, calls the same
# copy, sets a done flag and stops itself; CPU 0 waits for it and loads a disabled wait.
# --via=module: each CPU's records reach fst on their own schedule (CPU 1's at its stop,
# CPU 0's later), so each CPU must send the code pages it runs itself
# (capture/module/fstmod_code.c: one table of the pages the reader has, per CPU).
#
# The routine (14 bytes): BALR 2,0 / LA 1,K / AR 0,1 + BCT 1 (K times) / BR 14: 3 + 2K a
# call, K = 200: 403 instructions at X'30000'-X'3000D' on each CPU.
# With one CPU (SIGP restart fails: cc 3) CPU 0 sets the done flag itself: BALR, MVC, LA,
# SIGP, BZ, MVI, L, MVC, BALR, 403, MVI, CLI, BNE, LPSW = 416 instructions.
# Only .L labels: no routine for nm (tests/e2e/maps.sh).

        .include "s370.inc"
        LOWCORE

# ---- CPU 0: IPL, 0x20000 --------------------------------------------------------
        balr    %r12,0
.Lb:    mvc     0(8,%r0),.Lrpsw-.Lb(%r12)   # restart new PSW: CPU 1 starts at .Lcpu1
        la      %r3,1
        sigp    %r4,%r3,6               # restart CPU 1
        bz      .Lgo-.Lb(%r12)
        mvi     .Ldone-.Lb(%r12),1      # no CPU 1: nothing to wait for
.Lgo:   l       %r5,.LaX-.Lb(%r12)
        mvc     0(14,%r5),.Ltmpl-.Lb(%r12)  # the routine, loaded
        balr    %r14,%r5                # and called
        mvi     .Lflag-.Lb(%r12),1      # CPU 1 may call it now
.Lspin: cli     .Ldone-.Lb(%r12),1
        bne     .Lspin-.Lb(%r12)
        lpsw    .Lwait-.Lb(%r12)
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
.Lrpsw: .long   0x00080000, .Lcpu1
.LaX:   .long   0x30000
.Lflag: .byte   0
.Ldone: .byte   0

# the routine's template (position independent: its own base from BALR 2,0)
        .balign 2
.Ltmpl: balr    %r2,0
        la      %r1,200
.Ltl:   ar      %r0,%r1
        bct     %r1,.Ltl-.Ltmpl-2(%r2)
        br      %r14

# ---- CPU 1: restart ---------------------------------------------------------------
        .balign 8
.Lcpu1: balr    %r12,0
.Lc:    l       %r1,.LaFLAG-.Lc(%r12)
.Lw:    cli     0(%r1),1
        bne     .Lw-.Lc(%r12)
        l       %r5,.LaX1-.Lc(%r12)
        balr    %r14,%r5                # the routine CPU 0 loaded
        l       %r1,.LaDONE-.Lc(%r12)
        mvi     0(%r1),1                # done
        la      %r3,1
        sigp    %r4,%r3,5               # stop CPU 1
.Lstop: b       .Lstop-.Lc(%r12)        # (not reached)
        .balign 4
.LaFLAG: .long  .Lflag
.LaDONE: .long  .Ldone
.LaX1:  .long   0x30000
