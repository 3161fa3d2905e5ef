# cpu0first.s -- two CPUs, the IPL CPU ending first (run with fst-capture --numcpu=2):
# CPU 0 restarts CPU 1 and at once loads its disabled wait; CPU 1 waits, enabled, for its
# clock comparator, set 1 s ahead, then runs a known tail and loads its own disabled
# wait. The program ends at CPU 1's wait (capture/read/progend.h: when no CPU runs), a second
# after CPU 0's: a capture that ended at CPU 0's (the IPL CPU's) disabled wait would lose
# CPU 1's tail (tests/e2e/multicpu_herc4.sh, under 4.x and 3.13).
# No routine (no global symbol): all "outside". The mirror of cpu1first.s.
#
# Low core: IPL PSW 00080000 00020000 (S/370 EC mode, disabled); external new PSW
# 00080000 + .Ltail (disabled); the other new PSWs disabled waits at X'BADxxx'. The restart
# new PSW (absolute 0, over the IPL PSW once it has served) sends CPU 1 to .Lcpu1.
#
# CPU 0: BALR, MVC (restart PSW), LA, SIGP (restart CPU 1), LPSW (disabled wait)   5
#   With one CPU the SIGP fails (CC 3) and CPU 0's wait ends the program: 5.
# CPU 1: BALR, LCTL (CR0: clock-comparator mask), STCK, LM, AL, BC, BC|AL (the carry into
#   the high word takes either path, both two instructions), STM, SCKC, LPSW (enabled
#   wait)                                                       10
#   the clock-comparator interruption -> .Ltail: LA, BCT x NT, LPSW (disabled wait at
#   X'111')                                                     NT + 2
#   = 12 + NT = 312 for NT = 300. Two CPUs: 317.

        .include "s370.inc"
        .set    NT, 300

        LOWCORE .Ltail

# ---- CPU 0 (IPL), 0x20000 ---------------------------------------------------
        balr    %r12,0                  # 1
.Lb:    mvc     0(8,%r0),.Lrpsw-.Lb(%r12)   # 1  restart new PSW: CPU 1 starts at .Lcpu1
        la      %r3,1                   # 1
        sigp    %r4,%r3,6               # 1  restart CPU 1
        lpsw    .Ldone-.Lb(%r12)        # 1  end of CPU 0: disabled wait
        .balign 8
.Ldone: .long   0x000A0000, 0x00000000  # EC, disabled, wait
.Lrpsw: .long   0x00080000, .Lcpu1      # CPU 1's restart new PSW: EC, disabled

# ---- CPU 1 (restart) ----------------------------------------------------------
        .balign 8
.Lcpu1: balr    %r12,0                  # 1
.Lc:    lctl    %c0,%c0,.Lcr0-.Lc(%r12) # 1  clock-comparator subclass mask
        stck    .Lnow-.Lc(%r12)         # 1  NOW
        lm      %r2,%r3,.Lnow-.Lc(%r12) # 1
        al      %r3,.Ldelta-.Lc(%r12)   # 1  low word + 1 s
        bc      3,.Lcarry-.Lc(%r12)     # 1  CC 2 or 3: a carry out of the low word
        bc      15,.Lset-.Lc(%r12)      # 1
.Lcarry: al     %r2,.Lone-.Lc(%r12)     # (1, instead of the BC 15)
.Lset:  stm     %r2,%r3,.Lckc-.Lc(%r12) # 1
        sckc    .Lckc-.Lc(%r12)         # 1
        lpsw    .Lwaitp-.Lc(%r12)       # 1  enabled wait; the interruption resumes at .Ltail
.Ltail: la      %r5,NT                  # 1
.Lloop: bct     %r5,.Lloop-.Lc(%r12)    # NT
        lpsw    .Ldone1-.Lc(%r12)       # 1  end of CPU 1: disabled wait at X'111'
        .balign 8
.Lwaitp: .long  0x010A0000, 0x00000000  # EC, external mask on, wait
.Ldone1: .long  0x000A0000, 0x00000111  # EC, disabled, wait
.Lnow:  .long   0, 0
.Lckc:  .long   0, 0
.Lcr0:  .long   0x00000800
.Ldelta: .long  1000000 * 4096          # 1 s in TOD units (bit 51 = 1 us)
.Lone:  .long   1
