# ticker.s -- a program that mostly waits: NTICKS times, set the clock comparator 50 ms
# ahead and wait for it in an enabled wait; each tick runs 9 instructions. About 60 s in
# all at a few hundred instructions per second, as a system waiting for work traces: the
# tests kill a capture of it with SIGKILL and look for the last second of the trace,
# which only the periodic flush puts in the file (a frame would take hours to fill).
#
# Low core: IPL PSW 00080000 00020000 (S/370 EC mode, disabled); the external new PSW
# 00080000 + .Ltick (disabled: the tick runs with interruptions off); every other new
# PSW a disabled wait at X'BADxxx'. No routine (no global symbol): all "outside".
#
# CR0 = 00000800: the clock-comparator external subclass mask (bit 20), nothing else.
# The 64-bit addition NOW + 50 ms carries from the low word into the high word about once
# a second; both paths of it are three instructions, so the count does not depend on it.
#
# Dynamic instruction count:
#   BALR, LCTL, LA                            3
#   NTICKS x (STCK, LM, AL, BC, BC|AL, STM, SCKC, LPSW wait; BCT at the tick)  9 each
#   LPSW (disabled wait)                      1
#   total = 9 NTICKS + 4 = 10804 for NTICKS = 1200

        .include "s370.inc"
        .set    NTICKS, 1200

        LOWCORE .Ltick

        balr    %r12,0                  # 1
.Lb:    lctl    %c0,%c0,.Lcr0-.Lb(%r12) # 1  clock-comparator subclass mask
        la      %r5,NTICKS              # 1
.Lnext: stck    .Lnow-.Lb(%r12)         # NOW
        lm      %r2,%r3,.Lnow-.Lb(%r12)
        al      %r3,.Ldelta-.Lb(%r12)   # low word + 50 ms
        bc      3,.Lcarry-.Lb(%r12)     # CC 2 or 3: a carry out of the low word
        bc      15,.Lset-.Lb(%r12)
.Lcarry: al     %r2,.Lone-.Lb(%r12)
.Lset:  stm     %r2,%r3,.Lckc-.Lb(%r12)
        sckc    .Lckc-.Lb(%r12)
        lpsw    .Lwaitp-.Lb(%r12)       # enabled wait; the interruption resumes at .Ltick
.Ltick: bct     %r5,.Lnext-.Lb(%r12)
        lpsw    .Ldone-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Lwaitp: .long  0x010A0000, 0x00000000  # EC, external mask on, wait
.Ldone: .long   0x000A0000, 0x00000000  # EC, disabled, wait
.Lnow:  .long   0, 0
.Lckc:  .long   0, 0
.Lcr0:  .long   0x00000800
.Ldelta: .long  50000 * 4096            # 50 ms in TOD units (bit 51 = 1 us)
.Lone:  .long   1
