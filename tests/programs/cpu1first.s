# cpu1first.s -- two CPUs, the second one ending first (run with fst-capture --numcpu=2):
# CPU 1 loads its disabled wait while CPU 0 is still to run a known number of
# instructions, so a capture that ended at the first disabled wait would lose CPU 0's
# tail (capture/read/progend.h: the program ends when no CPU runs; tests/e2e/progend.sh).
# The two CPUs never trace at the same time, as far as a program can arrange it (Hercules
# 3.13 splices the lines of CPUs that do, and loses instructions there): CPU 0 restarts
# CPU 1 and at once waits, enabled, for its clock comparator, set 1 s ahead; CPU 1 runs
# its few instructions and loads a disabled wait well before that; then CPU 0 wakes and
# runs its tail. No routine (no global symbol): all "outside".
#
# Low core: IPL PSW 00080000 00020000 (S/370 EC mode, disabled); external new PSW
# 00080000 + .Ltail (disabled); the other new PSWs disabled waits at X'BADxxx'. The restart
# new PSW (absolute 0, over the IPL PSW once it has served) sends CPU 1 to .Lcpu1.
#
# CPU 0: BALR, MVC (restart PSW), LCTL (CR0: clock-comparator mask), STCK, LM, AL, BC,
#   BC|AL (the carry into the high word takes either path, both two instructions), STM,
#   SCKC, LA, SIGP (restart CPU 1), LPSW (enabled wait)         13
#   the clock-comparator interruption -> .Ltail: LA, BCT x NT, LPSW (disabled wait)
#                                                               NT + 2
#   = 15 + NT = 315 for NT = 300. With one CPU the SIGP fails (CC 3): the same 315.
# CPU 1: BALR, LA, BCT x NB, LPSW (disabled wait at X'111')     3 + NB = 103 for NB = 100
# Two CPUs: 418.

        .include "s370.inc"
        .set    NT, 300
        .set    NB, 100

        LOWCORE .Ltail

# ---- CPU 0 (IPL), 0x20000 ---------------------------------------------------
        balr    %r12,0                  # 1
.Lb:    mvc     0(8,%r0),.Lrpsw-.Lb(%r12)   # 1  restart new PSW: CPU 1 starts at .Lcpu1
        lctl    %c0,%c0,.Lcr0-.Lb(%r12) # 1  clock-comparator subclass mask
        stck    .Lnow-.Lb(%r12)         # 1  NOW
        lm      %r2,%r3,.Lnow-.Lb(%r12) # 1
        al      %r3,.Ldelta-.Lb(%r12)   # 1  low word + 1 s
        bc      3,.Lcarry-.Lb(%r12)     # 1  CC 2 or 3: a carry out of the low word
        bc      15,.Lset-.Lb(%r12)      # 1
.Lcarry: al     %r2,.Lone-.Lb(%r12)     # (1, instead of the BC 15)
.Lset:  stm     %r2,%r3,.Lckc-.Lb(%r12) # 1
        sckc    .Lckc-.Lb(%r12)         # 1
        la      %r3,1                   # 1
        sigp    %r4,%r3,6               # 1  restart CPU 1
        lpsw    .Lwaitp-.Lb(%r12)       # 1  enabled wait; the interruption resumes at .Ltail
.Ltail: la      %r5,NT                  # 1
.Lloop: bct     %r5,.Lloop-.Lb(%r12)    # NT
        lpsw    .Ldone-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Lwaitp: .long  0x010A0000, 0x00000000  # EC, external mask on, wait
.Ldone: .long   0x000A0000, 0x00000000  # EC, disabled, wait
.Lrpsw: .long   0x00080000, .Lcpu1      # CPU 1's restart new PSW: EC, disabled
.Lnow:  .long   0, 0
.Lckc:  .long   0, 0
.Lcr0:  .long   0x00000800
.Ldelta: .long  1000000 * 4096          # 1 s in TOD units (bit 51 = 1 us)
.Lone:  .long   1

# ---- CPU 1 (restart) ----------------------------------------------------------
        .balign 8
.Lcpu1: balr    %r12,0                  # 1
.Lc:    la      %r5,NB                  # 1
.Lspin: bct     %r5,.Lspin-.Lc(%r12)    # NB
        lpsw    .Ldone1-.Lc(%r12)       # 1  disabled wait at X'111'
        .balign 8
.Ldone1: .long  0x000A0000, 0x00000111
