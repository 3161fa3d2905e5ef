# minimal.s -- the smallest program: no routines, no calls, no save areas.
#
# Low core holds the IPL PSW 00080000 00020000 (S/370 EC mode, disabled) and
# disabled-wait new PSWs (see fortg.s); the code at 0x20000 has no symbol, so the
# program model has no routine and no mainline: every instruction is "outside".
#
# Dynamic instruction count:
#   BALR 12,0                 1
#   LA 3,10                   1
#   10 x (AR 4,3 ; BCT 3,...) 20   (R4 = 10+9+...+1 = 55 at the end)
#   LPSW (disabled wait)      1
#   total                     23

        .include "s370.inc"
        LOWCORE

        balr    %r12,0                  # 1
.Lb:    la      %r3,10                  # 1
.Lloop: ar      %r4,%r3                 # 10
        bct     %r3,.Lloop-.Lb(%r12)    # 10
        lpsw    .Lwait-.Lb(%r12)        # 1
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
