# vm.s -- a stand-in for VM/370: a control program (CP: real, DAT off, supervisor state)
# runs two virtual machines, A (CR1 = 00021000) and B (CR1 = 00021040). Each runs a
# CMS-like nucleus and a CMS user's program (JOB, WORK1, WORK2), all in problem state, as
# CMS runs under CP: the virtual machine's supervisor state is the real problem state.
# CP keeps each machine in a VMBLOK and dispatches it as VM/370's DMKDSP does (as
# Hercules' ECPS:VM assist for it, ecpsvm.c, shows): CR1 from VMSEG, all 16 registers
# from VMGPRS (LM 0,15), the PSW built into RUNPSW in low core and loaded from there.
#   - The nucleus calls the program R times (BALR 14,15 to JOB; the first entry is the
#     mainline, the others calls), then logs off (DIAGNOSE code 12).
#   - WORK1 asks the nucleus for a service (SVC 202, as CMS programs do): the SVC goes to
#     CP, which reflects it into the machine (its SVC old PSW and code into the machine's
#     own low core, its SVC new PSW made the machine's PSW); the nucleus' handler runs in
#     problem state, in the same address space, calls a nucleus routine (BALR 14,15 to an
#     address no map names) and returns with LPSW of its SVC old PSW, which is privileged:
#     a program check to CP, which decodes the LPSW's operand and loads that PSW for it.
#   - WORK2 waits for I/O (DIAGNOSE code 8, CMS's way to ask CP for I/O): privileged, a
#     program check to CP, which runs the other machine meanwhile; the machine resumes
#     after its DIAGNOSE when the other one waits or has logged off.
# Each machine is one task (its address space, its VMBLOK); an instruction of a machine
# counts for the routine on top of its stack: the nucleus' SVC handler's instructions for
# WORK1, whose SVC it serves (problem state: under --cpu=problem too). fst knows the
# handler runs for the same task, not a new one, by its registers' block: CP restores the
# machine's registers from its own VMGPRS (tasks.h). tests/e2e/vm.sh checks each
# machine's figures against these, by every capture route.
#
# --defsym ROUNDS=R (default 2), K1A, K2A, K3A, K1B, K2B, K3B (defaults 30, 10, 20, 10,
# 30, 5): WORK1's, WORK2's and the SVC handler's loop counts in machine A and B.
# QUANTUM=Q (none by default): CP also time-slices the machines, as VM/370's does: each
# dispatch sets the CPU timer to Q microseconds, and its interruption (the machines run
# enabled for it) saves the machine where it is and runs the next one. The machines'
# figures stay those below whatever the preemptions; CP's count then varies.
# ASSIST (none by default): ECPS:VM's assist on (Hercules' ECPSVM YES): CR6 with a MICBLOK
# per machine, the machines' PSWs kept as they see them (their supervisor state, DAT
# off; CP adds DAT and problem state when it dispatches): Hercules reflects the SVC and
# does the LPSW without CP.
#
# ---- storage (real) ----------------------------------------------------------------
#   00000  CP's low core: IPL PSW 00080000 00020000; SVC and program new PSWs set by CP;
#          280: the interrupted registers; 2EC: CP's base; 2F0: RUNUSER (the VMBLOK of the
#          machine that runs); 2F8: RUNPSW.
#   20000  CP (no symbol: outside). 20800: VMBLOKs A and B (+0 VMPSW, +8 VMSEG (CR1),
#          +C the next VMBLOK, +10 VMGPRS, +50 the machine's low core (real), +57 1 once
#          it has logged off).
#   21000  segment tables A 21000, B 21040 (16 entries; segments 0 and 3 valid); page
#          tables: segment 0 A 21100, B 21120 (page 0 -> 3A000 (A), 3B000 (B): each
#          machine's own low core); segment 3 A 21140, B 21160 (page 0 -> 30000, the
#          program; page 1 -> 31000, the nucleus; page 8 -> 38000 (A), 39000 (B)).
#   30000  the program (virtual = real, shared): JOB, WORK1, WORK2.
#   31000  the nucleus (virtual = real, shared, no symbol: outside the map): 31000 its SVC
#          handler, 31100 its start.
#   38000  A's data page: K1, K2, then save areas from +100. 39000: B's.
#   3A000  A's low core (its virtual 0): 20 SVC old PSW, 60 SVC new PSW (problem state,
#          DAT on: the handler), 300 the program's registers while the handler runs, 400
#          K3, 404 R. 3B000: B's.
#
# ---- problem-state instructions of machine S (CP's are outside, supervisor state) ----
#   nucleus start: BALR, L, L; per round L, BALR, BCT; end DIAGNOSE     outside 3 R + 4
#   JOB, per round: 7 (prologue) + 4 (two calls) + 3 (epilogue)                   14
#   WORK1, per round: B (the entry's), L, L, SVC, BCT x K1, BR               K1 + 5
#     and its SVC's handler: STM, BALR, L, BCT x K3, L, BALR, (LA, BR), LM, LPSW
#                                                                            K3 + 9
#   WORK2, per round: B, L, L, DIAGNOSE, BCT x K2, BR                        K2 + 5
# Per machine S: JOB 14 R, WORK1 (K1S + K3S + 14) R, WORK2 (K2S + 5) R, outside 3 R + 4;
# calls JOB R - 1 (its first entry is the mainline's), WORK1 R, WORK2 R.
# Problem state: R (K1A + K2A + K3A + K1B + K2B + K3B + 72) + 8 = 362 with the defaults.
# CP: start 6, the first dispatch 5; per machine and round an SVC reflected (9 + a
# dispatch's 5), an LPSW done (14 + 3 + 5) and a DIAGNOSE 8 (14 + 4 + 1 + 3 + 5): 63; A's
# log-off 28 (B runs on), B's 31 (none left: the disabled wait): 6 + 5 + 63 x 2R + 59 =
# 322; every instruction 684 with the defaults.

        .include "s370.inc"

        DEFAULT ROUNDS, 2
        DEFAULT K1A, 30
        DEFAULT K2A, 10
        DEFAULT K3A, 20
        DEFAULT K1B, 10
        DEFAULT K2B, 30
        DEFAULT K3B, 5

        .set    SAVE, 0x280             # CP's low core
        .set    CPBASE, 0x2EC
        .set    RUNUSER, 0x2F0
        .set    RUNPSW, 0x2F8
        .set    VMPSW, 0x00             # a VMBLOK
        .set    VMSEG, 0x08
        .set    VMNEXT, 0x0C
        .set    VMGPRS, 0x10
        .set    VMLOW, 0x50
        .set    VMDONE, 0x57
        .set    VMCR6, 0x58             # ASSIST: CR6 (the assist on, the MICBLOK's address)
        .set    VMMICB, 0x60            # ASSIST: the MICBLOK

        .ifdef  QUANTUM
        LOWCORE .Lext                   # the CPU timer's interruption: CP's
        .set    EXTON, 0x01000000       # the machines run enabled for it
        .else
        LOWCORE
        .set    EXTON, 0
        .endif

# An interruption of a machine: its registers into its VMBLOK (R11), as CP saves them
        .macro  SAVEVM
        stm     %r0,%r15,SAVE(%r0)
        l       %r11,RUNUSER(%r0)
        mvc     VMGPRS(64,%r11),SAVE(%r0)
        .endm
# ASSIST: the PSW at \at as the machine sees it (no DAT, no external mask, its supervisor
# state): CP adds those when it dispatches
        .macro  VIRTUAL at:vararg
        .ifdef  ASSIST
        ni      \at,0xFA
        ni      1+\at,0xFE
        .endif
        .endm

# ---- CP, 0x20000 (real, DAT off, supervisor state) ------------------------------------
        balr    %r12,0
.Lb:    st      %r12,CPBASE(%r0)
        lctl    %c0,%c0,.Lcr0-.Lb(%r12) # 4K pages, 64K segments
        mvc     0x60(8,%r0),.Lsvcnew-.Lb(%r12)
        mvc     0x68(8,%r0),.Lpgmnew-.Lb(%r12)
        la      %r11,.LvmA-.Lb(%r12)    # machine A first
# dispatch the machine whose VMBLOK R11 holds (DMKDSP)
.Ldisp: st      %r11,RUNUSER(%r0)
        lctl    %c1,%c1,VMSEG(%r11)     # its address space
        .ifdef  QUANTUM
        spt     .Lquantum-.Lb(%r12)     # its time slice
        .endif
        mvc     RUNPSW(8,%r0),VMPSW(%r11)
        .ifdef  ASSIST                  # VMPSW is the machine's own: DAT and problem state added
        lctl    %c6,%c6,VMCR6(%r11)
        oi      RUNPSW(%r0),0x04+EXTON>>24
        oi      RUNPSW+1(%r0),0x01
        .endif
        lm      %r0,%r15,VMGPRS(%r11)   # its registers, from its own VMBLOK
        lpsw    RUNPSW(%r0)

# SVC: reflected into the machine that issued it
.Lsvc:  SAVEVM
        l       %r2,VMLOW(%r11)         # its low core (real)
        mvc     0x20(8,%r2),0x20(%r0)   # its SVC old PSW,
        VIRTUAL 0x20(%r2)
        mvc     0x88(4,%r2),0x88(%r0)   # its interruption code,
        mvc     VMPSW(8,%r11),0x60(%r2) # and its SVC new PSW as its PSW
        l       %r12,CPBASE(%r0)
        b       .Ldisp-.Lb(%r12)

        .ifdef  QUANTUM
# the CPU timer: the machine's time slice is over; the next one runs
.Lext:  SAVEVM
        mvc     VMPSW(8,%r11),0x18(%r0) # it goes on where it was
        VIRTUAL VMPSW(%r11)
        l       %r12,CPBASE(%r0)
        b       .Lnext-.Lb(%r12)
        .endif

# program check: a privileged operation the machine may do (LPSW, DIAGNOSE) done for it
.Lpgm:  SAVEVM
        mvc     VMPSW(8,%r11),0x28(%r0) # it goes on after the instruction
        VIRTUAL VMPSW(%r11)
        l       %r12,CPBASE(%r0)
        clc     0x8E(2,%r0),.Lpriv-.Lb(%r12)   # privileged operation?
        bne     .Lstop-.Lb(%r12)
        l       %r1,VMPSW+4(%r11)
        la      %r1,0(%r1)              # past the instruction (code is V=R: real)
        s       %r1,.L4-.Lb(%r12)       # both are 4 bytes long
        lh      %r2,2(%r1)              # its operand (base 0: the machine's low core)
        n       %r2,.Lfff-.Lb(%r12)
        cli     0(%r1),0x82             # LPSW: the PSW it names becomes the machine's
        bne     .Ldiag-.Lb(%r12)
        a       %r2,VMLOW(%r11)
        mvc     VMPSW(8,%r11),0(%r2)
        b       .Ldisp-.Lb(%r12)
.Ldiag: cli     0(%r1),0x83             # DIAGNOSE: 12 logs off, 8 waits for I/O
        bne     .Lstop-.Lb(%r12)
        c       %r2,.L12-.Lb(%r12)
        bne     .Lnext-.Lb(%r12)
        mvi     VMDONE(%r11),1
# the next machine that has not logged off, after R11's (itself last); none: the end
.Lnext: lr      %r3,%r11
.Lnl:   l       %r11,VMNEXT(%r11)
        cli     VMDONE(%r11),0
        be      .Ldisp-.Lb(%r12)
        cr      %r11,%r3
        bne     .Lnl-.Lb(%r12)
        lpsw    .Ldone-.Lb(%r12)        # every machine logged off: disabled wait
.Lstop: lpsw    .Lbad-.Lb(%r12)         # anything else: disabled wait BAD068

        .balign 8
.Lsvcnew: .long 0x00080000, .Lsvc       # EC, DAT off, supervisor, disabled
.Lpgmnew: .long 0x00080000, .Lpgm
.Ldone: .long   0x000A0000, 0x00000000
.Lbad:  .long   0x000A0000, 0x00BAD068
.Lcr0:  .long   0x00800000+(EXTON>>14)  # 4K pages (bits 8-9 = 10), 64K segments; the
                                        # CPU timer's subclass (bit 21) with QUANTUM
.Lpriv: .short  2
        .balign 4
.L4:    .long   4
.L12:   .long   12
.Lfff:  .long   0xFFF
        .ifdef  QUANTUM
        .balign 8
.Lquantum: .quad QUANTUM << 12          # microseconds: bit 51 of the CPU timer
        .endif

# ---- the VMBLOKs -------------------------------------------------------------------
        .org    0x800
        .ifdef  ASSIST                  # the machine's PSWs as it sees them: EC, no DAT, its
        .set    VPSW, 0x00080000        # supervisor state (CP adds DAT and problem state)
        .else                           # the PSWs CP loads for it: DAT, EC, problem state
        .set    VPSW, 0x04090000+EXTON
        .endif
.LvmA:  .long   VPSW, 0x00031100        # VMPSW: the nucleus' start
        .long   0x00021000, .LvmB       # VMSEG, VMNEXT
        .fill   16, 4, 0                # VMGPRS
        .long   0x3A000, 0              # its low core; VMDONE (+57)
        .long   0x80000000+.LvmA+VMMICB, 0      # VMCR6
        .long   0, 0, .LvmA+VMPSW, 0, 0, 0x80000000     # MICBLOK: MICVPSW; MICACF: LPSW done
        .balign 0x80
.LvmB:  .long   VPSW, 0x00031100
        .long   0x00021040, .LvmA
        .fill   16, 4, 0
        .long   0x3B000, 0
        .long   0x80000000+.LvmB+VMMICB, 0
        .long   0, 0, .LvmB+VMPSW, 0, 0, 0x80000000

# ---- segment and page tables, 0x21000 ---------------------------------------------
        .org    0x1000
.LstA:  .long   0xF0000000+.Lp0A, 1, 1, 0xF0000000+.Lp3A, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
.LstB:  .long   0xF0000000+.Lp0B, 1, 1, 0xF0000000+.Lp3B, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
        .org    0x1100
.Lp0A:  .short  0x03A0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8
.Lp0B:  .short  0x03B0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8
.Lp3A:  .short  0x0300, 0x0310, 8, 8, 8, 8, 8, 8, 0x0380, 8, 8, 8, 8, 8, 8, 8
.Lp3B:  .short  0x0300, 0x0310, 8, 8, 8, 8, 8, 8, 0x0390, 8, 8, 8, 8, 8, 8, 8

# ---- the program, virtual (and real) 0x30000 --------------------------------------------
        .org    0x10000
        CALLS2  JOB, WORK1, WORK2       # 14
        .size   JOB, . - JOB            # sized: the map ends each routine (nm -P)

        FORTG   WORK1
        l       %r1,.LdW1-WORK1(%r15)   # 1  the data page
        l       %r5,0(%r1)              # 1  K1 (this machine's)
        svc     202                     # 1  a service of the nucleus (R0-R15 kept)
.LlW1:  bct     %r5,.LlW1-WORK1(%r15)   # K1
        br      %r14                    # 1  (5 with the entry's B)
        .balign 4
.LdW1:  .long   0x38000
        .size   WORK1, . - WORK1

        FORTG   WORK2
        l       %r1,.LdW2-WORK2(%r15)   # 1
        l       %r5,4(%r1)              # 1  K2
        .long   0x83120008              # 1  DIAGNOSE 1,2,8: wait for I/O (CP runs the other)
.LlW2:  bct     %r5,.LlW2-WORK2(%r15)   # K2
        br      %r14                    # 1
        .balign 4
.LdW2:  .long   0x38000
        .size   WORK2, . - WORK2        # (the nucleus after it is no routine's)

# ---- the nucleus, virtual (and real) 0x31000 -----------------------------------------
        .org    0x11000                 # its SVC handler
        stm     %r0,%r15,0x300(%r0)     # 1  the program's registers, in the machine's low core
        balr    %r12,0                  # 1
.Lg:    l       %r2,0x400(%r0)          # 1  K3 (this machine's)
.Lgl:   bct     %r2,.Lgl-.Lg(%r12)      # K3
        l       %r15,.LgSUB-.Lg(%r12)   # 1
        balr    %r14,%r15               # 1  a nucleus routine: no routine of the map
        lm      %r0,%r15,0x300(%r0)     # 1
        lpsw    0x20(%r0)               # 1  back to the program: privileged (CP does it)
.LgR:   la      %r1,1(%r1)              # 1
        br      %r14                    # 1
        .balign 4
.LgSUB: .long   .LgR

        .org    0x11100                 # its start: the program, R times, then log off
        balr    %r12,0                  # 1
.Lc:    l       %r13,.LcSAVE-.Lc(%r12)  # 1  the program's save areas (its data page)
        l       %r10,0x404(%r0)         # 1  R
.Lcl:   l       %r15,.LcJOB-.Lc(%r12)   # 1
        balr    %r14,%r15               # 1  the program (the first time: its mainline)
        bct     %r10,.Lcl-.Lc(%r12)     # 1
        .long   0x8300000C              # 1  DIAGNOSE 0,0,12: log off
        .balign 4
.LcSAVE: .long  0x38100
.LcJOB: .long   JOB

# ---- the data pages: A's at real 0x38000, B's at 0x39000 ------------------------------
        .org    0x18000
        .long   K1A, K2A
        .org    0x19000
        .long   K1B, K2B
        .fill   0x200, 1, 0             # B's save areas (A's lie in the gap before)

# ---- the machines' low cores: A's at real 0x3A000, B's at 0x3B000 ---------------------
        .org    0x1A060
        .long   VPSW, 0x00031000        # SVC new PSW: the nucleus' handler
        .org    0x1A400
        .long   K3A, ROUNDS
        .org    0x1B060
        .long   VPSW, 0x00031000
        .org    0x1B400
        .long   K3B, ROUNDS
