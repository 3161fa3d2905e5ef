# smc.s -- code modified while it runs (tests/e2e/modcode.sh): a first-time switch that the
# routine throws in the same straight run as the switch itself, and an instruction that
# the mainline changes (LR <-> AR) before every call of the routine holding it.
#
#   MAIN  NCALL times: XI PATCH,X'02' (flips WORK's PATCH between LR 0,1 = 1801 and
#         AR 0,1 = 1A01), call FLIP, call WORK
#   FLIP  .Lsw is BC 0 (a NOP) at first: the first call falls through, and its OI makes
#         the switch BC 15 behind itself (the same run), then does its one-time work; every
#         later call branches over it
#   WORK  PATCH (AR 0,1 on odd calls, LR 0,1 on even ones), returns
#
# Dynamic instruction count (N = NCALL, default 10):
#   stub 5 (outside)
#   MAIN   B 1 + prologue 6 + LA + L + L 3 + N x (XI, LR, BALR, LR, BALR, BCT) 6N + epilogue 3
#          = 13 + 6N
#   FLIP   first call: B, STM, LR, BC 0, OI, LA, B, LM, BR = 9; later: B, STM, LR, BC 15,
#          LM, BR = 6: 9 + 6 (N - 1). The module sends FLIP's page after the first run (the
#          OI stored behind itself, with R12 still FLIP's base when the run ends at the B),
#          so that run is rebuilt from the bytes it executed (BC 0), the later ones with BC 15
#   WORK   B, STM, LR, PATCH, LM, BR = 6 a call: 6N
#   total  21 + 18N = 201; calls FLIP N, WORK N
        .ifdef  NCALL                   # --defsym NCALL=n overrides the default
        .set    .LN, NCALL
        .else
        .set    .LN, 10
        .endif
        .include "s370.inc"
        LOWCORE

        STUB    MAIN                    # 5, outside

        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry's B: 7)
        la      %r2,.LN                 # 1
        l       %r9,.LaFLIP-MAIN(%r12)  # 1
        l       %r8,.LaWORK-MAIN(%r12)  # 1
.Lloop: xi      .Lpatch-MAIN(%r12),0x02   # N  LR 0,1 <-> AR 0,1 in WORK
        lr      %r15,%r9                # N
        balr    %r14,%r15               # N  call FLIP
        lr      %r15,%r8                # N
        balr    %r14,%r15               # N  call WORK
        bct     %r2,.Lloop-MAIN(%r12)   # N
        EPILOGUE                        # 3
        .balign 4
.LaFLIP: .long  FLIP
.LaWORK: .long  WORK

        FORTG   FLIP
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
.Lsw:   bc      0,.Lout-FLIP(%r12)      # the switch: a NOP until the first call throws it
        oi      .Lsw+1-FLIP(%r12),0xF0  # BC 0 -> BC 15, behind this instruction
        la      %r0,1                   # the one-time work
        b       .Lout-FLIP(%r12)        # (a taken branch: the run that threw the switch ends here)
        la      %r0,2                   # never executed
.Lout:  lm      %r14,%r12,12(%r13)
        br      %r14

        FORTG   WORK
        stm     %r14,%r12,12(%r13)
        lr      %r12,%r15
.Lpatch: lr      %r0,%r1                 # MAIN's XI makes it AR 0,1 and back
        lm      %r14,%r12,12(%r13)
        br      %r14

        .balign 8
.Lsaves: .fill  4*72, 1, 0
