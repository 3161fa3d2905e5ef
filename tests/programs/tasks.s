# tasks.s -- a small multitasking operating system and three problem-state tasks
# (standalone S/370, EC mode, DAT). Whose calls and problem-state instructions every
# task makes is fixed by the construction; where the CPU timer preempts the tasks is
# not (Hercules' CPU timer follows host time), and must change none of those figures.
#
# ---- storage (real addresses; the image is low core at 0 and one piece at 0x20000) ----
#   00000  low core. IPL PSW 00080000 00020000. New PSWs: external 58, SVC 60, program
#          68, I/O 78 = 00080000 + handler (supervisor state, key 0, DAT off, disabled);
#          machine check 70 = disabled wait 000A0000 00BAD070. 200: the handlers' save
#          area for the interrupted registers (64 bytes). 300 CURTCB (running task's TCB,
#          0 when none runs), 304 LASTTCB, 308 IOOWNER (TCB whose I/O is on 000C), 30C
#          nucleus address (base R12), 310 NOW, 318 NEXTCK (doublewords), 320 ENDED
#          (tasks ended). 400, 480, 500: the TCBs of tasks A, B, C (128 bytes: +0 PSW,
#          +8 R0-R15, +48 CR1, +4C state byte, +50 wake-up TOD value, +58 dispatch tail,
#          +5C next TCB of the round-robin ring, +60 EBCDIC name).
#   20000  the nucleus: supervisor code, no routine (no symbol, no 47F0F00C): init 20000,
#          dispatcher 2002A (tails 20062 A, 2006E B, 2007A C), external 20086 (wake-up
#          subroutine 200D6), SVC 20120, start I/O 201EA, I/O 20210, program check
#          20276; the task exit 202E4 (an SVC 3, run by the tasks); constants from 202E8.
#   21000  segment tables A 21000, B 21040, C 21080 (16 entries each); page tables
#          (16 two-byte entries each): nucleus 210C0, A 210E0, B 21100, C 21120.
#   30000  task A's program: ASUB 30000, RECUR 30028, SUBIO 30088, MAINA 300C0 (to 3100F:
#          its call site at 30FFA/30FFE, then page 31000), HSUB 32000.
#   40000  the program of tasks B and C: JOBMAN  40000, ROUTX 40060, ROUTY 400A8,
#          ROUTZ 41000.
#   50000  B's data page, 51000 C's (NX, NY, ROUTX's call count; save areas from +100),
#          52000 A's (save areas from +100; zeros, not in the image). Storage key 8.
# The routines are exactly the global symbols (`nm -P`); every other label is .L local.
#
# ---- address spaces (S/370 DAT) -------------------------------------------------------
# CR0 = 00800C00: 4K pages (bits 8-9 = 10), 64K segments (bits 11-12 = 00), external
# subclass masks for the clock comparator (bit 20) and the CPU timer (bit 21), no
# interval timer. CR1 = segment-table length 0 (16 entries: virtual 0-FFFFF) | origin.
# Segment-table entry: F0000000 (page-table length 15: 16 entries) + page-table origin,
# or 00000001 (invalid). Page-table entry: the frame address bits 8-19 in the top 12
# bits, X'0008' the invalid bit; an entry that is X'0008' alone has no frame.
#   space  CR1 (asid)  segment 2: 20000-2FFFF      segment 3 or 4
#   A      00021000    nucleus, V=R, valid         30000 V=R; 31000 and 32000 V=R, invalid
#                                                  at first; 38000 -> real 52000, invalid
#   B      00021040    nucleus (same page table)   40000 V=R; 41000 V=R, invalid at first;
#                                                  48000 -> real 50000, invalid at first
#   C      00021080    nucleus (same page table)   40000 V=R; 41000 V=R, invalid at first;
#                                                  48000 -> real 51000, invalid at first
# B and C share their program (the frames of 40000 and 41000, as MVS shares its common
# areas) but each has its own page table for segment 4: a page fault in one space never
# validates a page of the other, so every space takes its faults at the same points of
# its own task in every run. The programs run at virtual = real addresses, so their
# 47F0F00C entries are in the storage image where they execute; only the data pages are
# moved (B and C use one virtual address, 48000, for two frames).
#
# ---- the supervisor (supervisor state, key 0, DAT off, I/O and external disabled) ------
#   init        LCTL CR0; storage key 8 (SSK) for the data frames 50000-52FFF; clock
#               comparator and CPU timer "never"; dispatch.
#   dispatcher  the first ready TCB after LASTTCB, round robin A -> B -> C -> A; CURTCB =
#               LASTTCB = it; SPT 1 ms (the time slice); then its own tail: LCTL 1 (its
#               CR1), LM 0,15 and LPSW of its TCB's PSW slot (LPSW 400 / 480 / 500, base
#               0): a task's PSW is 07890000 + address (DAT, I/O and external enabled,
#               key 8, EC, problem state). Nobody ready: CURTCB = 0, CPU timer "never",
#               LPSW 030A0000 0002002A (enabled wait: I/O and external).
#   external    CPU timer (code 1005) = preemption: the old PSW (18) and the registers go
#               into the running task's TCB; dispatch (the next task, round robin).
#               Clock comparator (1004): every sleeper whose wake-up time has come is
#               ready; clock comparator = the earliest remaining one (or never); resume
#               the interrupted task (LM, LPSW 18), or dispatch when the CPU was waiting.
#   SVC         the old PSW (20) and registers into the TCB, then by number:
#                 1 sleep R1 microseconds: wake-up = STCK + R1 << 12; clock comparator
#                 2 I/O: SIO 00C (the 3505 on /dev/null Hercules configures) of a SENSE
#                   CCW (1 byte, SLI): the task waits for the I/O interruption; queued
#                   while the device is busy
#                 3 end of task; after the third, disabled wait 000A0000 00000000
#                 4 wait until the other tasks have ended (as a mother task waits for
#                   its subtasks)
#               then dispatch (round robin after the issuing task).
#   I/O         device end on 000C: the task of that I/O is ready, the next queued I/O is
#               started; resume the interrupted task (LM, LPSW 38) or dispatch.
#   program     page-translation exception (0011) in problem state: the entry of the
#               translation-exception address (90) in the running task's page table
#               loses its invalid bit; PTLB; LM; LPSW 28 (the program old PSW, which
#               points at the faulting instruction: nullified). Anything else stops:
#               disabled wait 000A0000 00BAD068 (an unknown SVC 00BAD060, an unexpected
#               external interruption 00BAD058, SIO busy or not operational 00BAD0C2).
# The supervisor never branches with link register 14 (its internal subroutines use
# BAL 10) and never runs inside a task's routine.
#
# ---- the tasks (problem state, key 8, DAT on; OS linkage with a stack of 18-word save
#      areas in the task's data page; the dispatcher starts each at its mainline's entry
#      with R13 = data page + 100, R14 = 202E4 (the task exit), R15 = the entry) ------
# Task A (asid 00021000), mainline MAINA (FORTRAN G):
#   MAINA   calls HSUB 4x, ASUB 3x, RECUR 2x (R2 = depth 6), SUBIO 2x in loops; then,
#           from its call site at the end of page 30000 (L 30FFA, BALR 30FFE), ASUB; then
#           HSUB; SVC 4 (B and C have ended after it); SUBIO (A alone: the CPU waits,
#           enabled, for its sleep and for its I/O); SVC 3. It never returns.
#   HSUB    FORTRAN H, at 32000; loops 5 times.
#   ASUB    plain assembler (no 47F0F00C: untimed by default); loops (BCT) 10 times.
#   RECUR   FORTRAN G, recursive: loops RLOOP times in every frame, then, while R2 > 1,
#           calls itself with R2 - 1; the innermost frame (6th RECUR frame, 7 deep with
#           MAINA) sleeps 1.5 ms with SVC 1 instead.
#   SUBIO   sleeps 2 ms (SVC 1), then reads (SVC 2).
# Tasks B (asid 00021040) and C (asid 00021080), mainline JOBMAN(FORTRAN G), one
# reentrant program; what differs is their data page: NX = 5 / 8, NY = 2 / 3.
#   JOBMAN  calls ROUTX NX times, ROUTY NY times, ROUTZ once; returns (BR 14) to 202E4,
#           whose SVC 3 ends the task (as MVS's R14 points to an SVC 3 in its nucleus).
#   ROUTX   leaf; loops XLOOP times; adds 1 to the call count in its task's data page.
#   ROUTY   sleeps 1 ms (SVC 1), then calls ROUTX twice.
#   ROUTZ   at 41000; reads (SVC 2), then loops ZLOOP times.
#
# ---- interruptions -----------------------------------------------------------------
# In every run, at the same instructions, 7 page faults (page-translation exceptions):
#   A  MAINA's STM 14,12,12(13) at 300CC stores into the data page 38000: a data access;
#      the STM is nullified and runs again after the handler's LPSW.
#   A  MAINA's first BALR 14,15 to HSUB (300E8) completes; the fetch at HSUB's entry
#      32000 faults: a call interrupted between the BALR and the callee's first
#      instruction; the handler resumes at 32000.
#   A  ASUB's BR 14 (30024) back to the call site's return address 31000 (the BALR is
#      the last halfword of page 30000): the fetch at 31000 faults: a return interrupted
#      right after the BR 14; the handler resumes at 31000.
#   B, C  JOBMAN's STM at 4000C (data page 48000), and the call of ROUTZ: BALR at 40044,
#      fetch at 41000 faults (each space has its own page table).
# Hercules 3.13 prints HHCCP014I for each, and a PSW line re-displaying the instruction
# (data access) or "PSW=... Instruction fetch error" (fetch).
# What varies from run to run: the CPU-timer interruptions (preemptions: hundreds in a
# noregs trace, thousands in a traditional one, many with RECUR at least 2 deep on A's
# stack), the clock-comparator ones (10 sleeps: A 5, B 2, C 3; one interruption may wake
# two sleepers), the I/O ones (5: A 3, B 1, C 1), the enabled waits (at least 2: A's last
# sleep and I/O, after B and C have ended), and so the supervisor's instructions.
#
# ---- counting (the `tasks` lines of EXPECTED) ---------------------------------------------
# Only problem-state instructions are counted, per task. A task has its own call stack;
# an instruction counts for the routine on top of it when it executes: the BALR for the
# caller, the callee's 47F0F00C (or first instruction) and its returning BR 14 for the
# callee, an SVC for the routine that issues it. The task's first instruction, at its
# mainline's entry by the dispatcher's LPSW, is not a call. Interruptions come between two
# instructions: the supervisor's instructions in between change nothing. Hercules traces
# an instruction before executing it; an instruction whose operand access takes a page
# fault is traced, then HHCCP014I and its re-display (not counted), then traced again
# after the handler's LPSW: it counts twice (the nullified attempt and the execution). An
# instruction whose fetch faults is not traced before the fault: it counts once.
#
# Dynamic counts (RLOOP = 2000, RDEPTH = 6, XLOOP = 1000, ZLOOP = 2000):
# task A
#   MAINA  7 entry + prologue, + 1 (the STM again after its fault), + 1 + 4 x 3 (HSUB
#          loop) + 1 + 3 x 3 (ASUB) + 1 + 2 x 4 (RECUR: LA, L, BALR, BCT) + 1 + 2 x 3
#          (SUBIO) + 1 (B to the call site) + 2 (L, BALR: ASUB) + 2 (HSUB) + 1 (SVC 4)
#          + 2 (SUBIO) + 1 (SVC 3)                                          =    56
#   HSUB   7 + 1 + 2 x 5 + 3 = 21 per call, 5 calls (4 + 1)                 =   105
#   ASUB   6 prologue + 1 + 10 (BCT) + 3 = 20 per call, 4 calls (3 + 1)     =    80
#   RECUR  a frame that recurses: 7 + 1 + 2 RLOOP + 2 (CH, BNE) + 3 (BCTR, L, BALR)
#          + 3 = 16 + 2 RLOOP = 4016; the innermost: 7 + 1 + 2 RLOOP + 2 + 2 (LA, SVC 1)
#          + 3 = 15 + 2 RLOOP = 4015; a tree of 6 frames: 5 x 4016 + 4015 = 24095;
#          2 trees                                                          = 48190
#   SUBIO  7 + 3 (LA, SVC 1, SVC 2) + 3 = 13 per call, 3 calls              =    39
#   task A: 56 + 105 + 80 + 48190 + 39                                      = 48470
#   (nothing outside: MAINA ends the task itself)
# tasks B (NX = 5, NY = 2) and C (NX = 8, NY = 3)
#   JOBMAN  7 + 1 (the STM again) + 2 (L 4, L 2) + 3 NX + 1 + 3 NY + 2 (ROUTZ) + 3
#          = 16 + 3 NX + 3 NY                                          B 37, C 49
#   ROUTX  7 + 1 + 2 XLOOP + 3 (L, AL, ST) + 3 = 14 + 2 XLOOP = 2014 per call,
#          NX + 2 NY calls (B 9, C 14)                                B 18126, C 28196
#   ROUTY  7 + 2 (LA, SVC 1) + 2 x 2 (L, BALR) + 3 = 16 per call, NY   B 32, C 48
#   ROUTZ  7 + 1 (SVC 2) + 1 + 2 ZLOOP + 3 = 12 + 2 ZLOOP, 1 call      B 4012, C 4012
#   outside: the SVC 3 at 202E4 JOBMAN  returns to                     B 1, C 1
#   task B: 37 + 18126 + 32 + 4012 + 1 = 22208; task C: 49 + 28196 + 48 + 4012 + 1 = 32306
# all tasks: 48470 + 22208 + 32306 = 102984 problem-state instructions.
# Calls: A: HSUB 5, ASUB 4, SUBIO 3 (all from MAINA), RECUR 12 (MAINA 2, RECUR 10);
#   B: ROUTX 9 (JOBMAN  5, ROUTY 4), ROUTY 2, ROUTZ 1; C: ROUTX 14 (JOBMAN  8, ROUTY 6),
#   ROUTY 3, ROUTZ 1; the mainlines 0.
# Inclusive: MAINA 48470 (all of A: it never returns), RECUR 48190 (its frames call
#   nothing else), JOBMAN  B 22207 / C 32305 (all but the SVC 3 outside), ROUTY 16 + 2 x
#   2014 = 4044 per call: B 8088, C 12132; the leaves as their self.
# Default timing (FORTRAN-compatible routines only): ASUB is part of MAINA: MAINA self
#   56 + 80 = 136, no MAINA -> ASUB arc; every other figure as with --timed=all.

        .include "s370.inc"

# ---- parameters (every name starts with .L: nm lists only the routines) ---------
        .set    .LQUANTUM_US, 1000      # CPU-timer time slice (host microseconds)
        .set    .LRLOOP, 2000           # RECUR: loop iterations per frame
        .set    .LRDEPTH, 6             # RECUR: frames per call tree from MAINA
        .set    .LXLOOP, 1000           # ROUTX: loop iterations per entry
        .set    .LZLOOP, 2000           # ROUTZ: loop iterations per entry

# ---- absolute addresses ---------------------------------------------------------
        .set    .LSAVE, 0x200           # registers of the interrupted program (64 bytes)
        .set    .LCURTCB, 0x300         # TCB of the running task, 0 when none runs
        .set    .LLASTTCB, 0x304        # TCB dispatched last (round robin starts after it)
        .set    .LIOOWNER, 0x308        # TCB whose I/O is in progress on 000C, 0 = idle
        .set    .LNUCBASE, 0x30C        # address of the nucleus (base register R12)
        .set    .LNOW, 0x310            # STCK (doubleword)
        .set    .LNEXTCK, 0x318         # earliest wake-up time (doubleword)
        .set    .LENDED, 0x320          # number of ended tasks
        .set    .LTCBA, 0x400           # task control blocks, 128 bytes each
        .set    .LTCBB, 0x480
        .set    .LTCBC, 0x500
# TCB fields
        .set    .LT_PSW, 0              # PSW of the task when not running (8)
        .set    .LT_GR, 8               # R0..R15 (64)
        .set    .LT_CR1, 72             # segment-table designation of its address space
        .set    .LT_STATE, 76           # byte: see S_*
        .set    .LT_WAKE, 80            # TOD clock value to wake at (SVC 1) (8)
        .set    .LT_TAIL, 88            # address of its dispatch tail
        .set    .LT_NEXT, 92            # next TCB on the round-robin ring
        .set    .LT_NAME, 96            # EBCDIC name
        .set    .LS_READY, 0
        .set    .LS_SLEEP, 1            # SVC 1: waits for the clock comparator
        .set    .LS_IOWAIT, 2           # SVC 2: its I/O is in progress
        .set    .LS_IOQ, 3              # SVC 2: waits for the device to be free
        .set    .LS_JOIN, 4             # SVC 4: waits for the other tasks to end
        .set    .LS_ENDED, 8            # SVC 3
# virtual addresses
        .set    .LADATA, 0x38000        # task A's data page (real 0x52000)
        .set    .LJDATA, 0x48000        # B's and C's data page (real 0x50000 / 0x51000)
        .set    .LPTE_INV, 0x0008       # S/370 4K page-table entry: invalid bit

# ---- low core -----------------------------------------------------------------------
        .section .lowcore,"a"
        .long   0x00080000, .Linit      # 000 IPL PSW: EC mode, disabled, DAT off
        .fill   0x58-8, 1, 0            # 008..057 old PSWs, CSW, CAW, timer
        .long   0x00080000, .Lext       # 058 external new PSW
        .long   0x00080000, .Lsvc       # 060 SVC new PSW
        .long   0x00080000, .Lpgm       # 068 program new PSW
        .long   0x000A0000, 0x00BAD070  # 070 machine-check new PSW: disabled wait
        .long   0x00080000, .Lio        # 078 I/O new PSW
        .fill   .LCURTCB-0x80, 1, 0
        .long   0                       # 300 CURTCB
        .long   .LTCBC                  # 304 LASTTCB: A is dispatched first
        .long   0                       # 308 IOOWNER
        .long   .Lnuc                   # 30C NUCBASE
        .fill   .LTCBA-0x310, 1, 0      # 310 NOW, NEXTCK, ENDED ...
        .macro  TCB entry, r13, cr1, tail, next, name
        .long   0x07890000, \entry      # PSW: DAT, I/O and external enabled, key 8, EC,
                                        # problem state; at the mainline's entry
        .long   0,0,0,0, 0,0,0,0, 0,0,0,0, 0, \r13, .Lexit, \entry   # R0..R15
        .long   \cr1                    # CR1
        .long   0                       # state: ready
        .long   0, 0                    # wake-up time
        .long   \tail, \next
        .ascii  "\name"
        .fill   128-100, 1, 0
        .endm
        TCB     MAINA,   .LADATA+0x100, .LstA, .LtailA, .LTCBB, "\xC1\x40\x40\x40"
        TCB     JOBMAN, .LJDATA+0x100, .LstB, .LtailB, .LTCBC, "\xC2\x40\x40\x40"
        TCB     JOBMAN, .LJDATA+0x100, .LstC, .LtailC, .LTCBA, "\xC3\x40\x40\x40"
        .text

# ==== the nucleus: 0x20000, supervisor state, DAT off, all interruptions disabled ====
.Lnuc:
.Linit: l       %r12,.LNUCBASE          # base register of the nucleus
        lctl    %c0,%c0,.Lcr0-.Lnuc(%r12)   # 4K pages, 64K segments, CKC + CPU timer
        la      %r2,0x80                # storage key 8 for the three data frames
        l       %r3,.Ladata-.Lnuc(%r12)
        la      %r4,6                   # 6 blocks of 2K: 0x50000..0x52FFF
.Li1:   .short  0x0823                  # SSK 2,3
        la      %r3,2048(%r3)
        bct     %r4,.Li1-.Lnuc(%r12)
        sckc    .Lckcmax-.Lnuc(%r12)    # nobody sleeps
        spt     .Lcptmax-.Lnuc(%r12)
        b       .Ldisp-.Lnuc(%r12)

# ---- dispatcher: the next ready task after LASTTCB, round robin ------------------
.Ldisp: l       %r1,.LLASTTCB
        la      %r3,3
.Ld1:   l       %r1,.LT_NEXT(%r1)
        cli     .LT_STATE(%r1),.LS_READY
        be      .Ld2-.Lnuc(%r12)
        bct     %r3,.Ld1-.Lnuc(%r12)
        sr      %r0,%r0                 # nobody is ready: enabled wait
        st      %r0,.LCURTCB
        spt     .Lcptmax-.Lnuc(%r12)
        lpsw    .Lwaitpsw-.Lnuc(%r12)
.Ld2:   st      %r1,.LCURTCB
        st      %r1,.LLASTTCB
        spt     .Lquantum-.Lnuc(%r12)   # a new time slice
        l       %r15,.LT_TAIL(%r1)
        br      %r15
# each task's dispatch tail: its address space, its registers, its PSW from its TCB
.LtailA: lctl   %c1,%c1,.LTCBA+.LT_CR1
        lm      %r0,%r15,.LTCBA+.LT_GR
        lpsw    .LTCBA+.LT_PSW
.LtailB: lctl   %c1,%c1,.LTCBB+.LT_CR1
        lm      %r0,%r15,.LTCBB+.LT_GR
        lpsw    .LTCBB+.LT_PSW
.LtailC: lctl   %c1,%c1,.LTCBC+.LT_CR1
        lm      %r0,%r15,.LTCBC+.LT_GR
        lpsw    .LTCBC+.LT_PSW

# ---- external interruptions: CPU timer (preemption), clock comparator (wake-up) ----
.Lext:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0x86(2,%r0),.Lcodecpt-.Lnuc(%r12)
        be      .Lx1-.Lnuc(%r12)
        clc     0x86(2,%r0),.Lcodeckc-.Lnuc(%r12)
        be      .Lx2-.Lnuc(%r12)
        lpsw    .Lbad058-.Lnuc(%r12)
.Lx1:   l       %r1,.LCURTCB            # time slice over: preempt the running task
        ltr     %r1,%r1
        bz      .Ldisp-.Lnuc(%r12)
        mvc     .LT_PSW(8,%r1),0x18     # its PSW (external old PSW) and registers
        mvc     .LT_GR(64,%r1),.LSAVE
        b       .Ldisp-.Lnuc(%r12)
.Lx2:   bal     %r10,.Lwake-.Lnuc(%r12) # wake the sleepers whose time has come
        l       %r1,.LCURTCB
        ltr     %r1,%r1
        bz      .Ldisp-.Lnuc(%r12)      # the CPU was waiting: dispatch
        lm      %r0,%r15,.LSAVE         # else resume the interrupted task
        lpsw    0x18

# .Lwake (BAL 10): ready every sleeper due by now; clock comparator = earliest other
.Lwake: stck    .LNOW
        mvc     .LNEXTCK(8),.Lckcmax-.Lnuc(%r12)
        la      %r1,.LTCBA
        la      %r3,3
.Lw1:   cli     .LT_STATE(%r1),.LS_SLEEP
        bne     .Lw3-.Lnuc(%r12)
        clc     .LT_WAKE(8,%r1),.LNOW
        bh      .Lw2-.Lnuc(%r12)
        mvi     .LT_STATE(%r1),.LS_READY
        b       .Lw3-.Lnuc(%r12)
.Lw2:   clc     .LT_WAKE(8,%r1),.LNEXTCK
        bnl     .Lw3-.Lnuc(%r12)
        mvc     .LNEXTCK(8),.LT_WAKE(%r1)
.Lw3:   la      %r1,128(%r1)
        bct     %r3,.Lw1-.Lnuc(%r12)
        sckc    .LNEXTCK
        br      %r10

# ---- SVC: 1 sleep R1 microseconds, 2 I/O, 3 end of task, 4 wait for the others ----
.Lsvc:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        l       %r1,.LCURTCB
        mvc     .LT_PSW(8,%r1),0x20     # SVC old PSW: the task resumes after its SVC
        mvc     .LT_GR(64,%r1),.LSAVE
        lh      %r2,0x8A                # SVC number
        cl      %r2,.Lsvcmax-.Lnuc(%r12)
        bh      .Lsbad-.Lnuc(%r12)
        sll     %r2,2
        l       %r15,.Lsvctab-.Lnuc(%r2,%r12)
        br      %r15
.Lsbad: lpsw    .Lbad060-.Lnuc(%r12)
.Lsv1:  stck    .LNOW                   # SVC 1: wake at now + R1 microseconds
        lm      %r2,%r3,.LNOW
        l       %r4,.LT_GR+4(%r1)
        sll     %r4,12                  # microseconds -> TOD units (bit 51 = 1 us)
        alr     %r3,%r4
        bc      12,.Ls1a-.Lnuc(%r12)    # no carry
        al      %r2,.Lone-.Lnuc(%r12)
.Ls1a:  stm     %r2,%r3,.LT_WAKE(%r1)
        mvi     .LT_STATE(%r1),.LS_SLEEP
        bal     %r10,.Lwake-.Lnuc(%r12)
        b       .Ldisp-.Lnuc(%r12)
.Lsv2:  mvi     .LT_STATE(%r1),.LS_IOQ  # SVC 2: queue the request
        l       %r0,.LIOOWNER
        ltr     %r0,%r0
        bnz     .Ldisp-.Lnuc(%r12)      # the device is busy: it waits its turn
        bal     %r10,.Lstartio-.Lnuc(%r12)
        b       .Ldisp-.Lnuc(%r12)
.Lsv3:  mvi     .LT_STATE(%r1),.LS_ENDED # SVC 3: end of task
        l       %r0,.LENDED
        al      %r0,.Lone-.Lnuc(%r12)
        st      %r0,.LENDED
        cl      %r0,.Lthree-.Lnuc(%r12)
        bne     .Ls3a-.Lnuc(%r12)
        lpsw    .Lendpsw-.Lnuc(%r12)    # all three ended: disabled wait
.Ls3a:  cl      %r0,.Ltwo-.Lnuc(%r12)   # one task left: if it waits for the others,
        bne     .Ldisp-.Lnuc(%r12)      # it is ready now
        la      %r1,.LTCBA
        la      %r3,3
.Ls3b:  cli     .LT_STATE(%r1),.LS_JOIN
        bne     .Ls3c-.Lnuc(%r12)
        mvi     .LT_STATE(%r1),.LS_READY
.Ls3c:  la      %r1,128(%r1)
        bct     %r3,.Ls3b-.Lnuc(%r12)
        b       .Ldisp-.Lnuc(%r12)
.Lsv4:  l       %r0,.LENDED             # SVC 4: wait until the other tasks have ended
        cl      %r0,.Ltwo-.Lnuc(%r12)
        be      .Ldisp-.Lnuc(%r12)      # they have: stays ready
        mvi     .LT_STATE(%r1),.LS_JOIN
        b       .Ldisp-.Lnuc(%r12)

# .Lstartio (BAL 10): start the I/O of the task whose TCB is in R1
.Lstartio: mvc  0x48(4),.Lcaw-.Lnuc(%r12)   # CAW: key 0, the channel program
        .long   0x9C00000C              # SIO 12(0): device 000C
        bc      8,.Lsio0-.Lnuc(%r12)
        bc      4,.Lsio1-.Lnuc(%r12)
        lpsw    .Lbad0C2-.Lnuc(%r12)    # busy or not operational: stop
.Lsio0: st      %r1,.LIOOWNER           # started: the task waits for its interruption
        mvi     .LT_STATE(%r1),.LS_IOWAIT
        br      %r10
.Lsio1: mvi     .LT_STATE(%r1),.LS_READY # CSW stored: it is over already
        br      %r10

# ---- I/O interruption: the I/O on 000C is over -----------------------------------
.Lio:   stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0xBA(2,%r0),.Ldev-.Lnuc(%r12)
        bne     .Lio9-.Lnuc(%r12)
        tm      0x44,0x04               # CSW unit status: device end?
        bno     .Lio9-.Lnuc(%r12)
        l       %r1,.LIOOWNER
        ltr     %r1,%r1
        bz      .Lio9-.Lnuc(%r12)
        mvi     .LT_STATE(%r1),.LS_READY # its task is ready again
        sr      %r0,%r0
        st      %r0,.LIOOWNER
        la      %r1,.LTCBA              # start the next queued request, if any
        la      %r3,3
.Lio1:  cli     .LT_STATE(%r1),.LS_IOQ
        bne     .Lio2-.Lnuc(%r12)
        bal     %r10,.Lstartio-.Lnuc(%r12)
        l       %r0,.LIOOWNER
        ltr     %r0,%r0
        bnz     .Lio9-.Lnuc(%r12)
.Lio2:  la      %r1,128(%r1)
        bct     %r3,.Lio1-.Lnuc(%r12)
.Lio9:  l       %r1,.LCURTCB
        ltr     %r1,%r1
        bz      .Ldisp-.Lnuc(%r12)      # the CPU was waiting: dispatch
        lm      %r0,%r15,.LSAVE         # else resume the interrupted task
        lpsw    0x38

# ---- program check: resolve page faults; anything else stops -----------------------
.Lpgm:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0x8E(2,%r0),.Lcodept-.Lnuc(%r12)   # page-translation exception?
        bne     .Lpbad-.Lnuc(%r12)
        tm      0x29,0x01               # from a task (problem state)?
        bno     .Lpbad-.Lnuc(%r12)
        l       %r1,.LCURTCB
        l       %r2,0x90                # translation-exception address
        l       %r3,.LT_CR1(%r1)
        n       %r3,.Lstomask-.Lnuc(%r12)
        lr      %r4,%r2
        srl     %r4,16                  # segment index
        n       %r4,.Lff-.Lnuc(%r12)
        sll     %r4,2
        l       %r5,0(%r4,%r3)          # segment-table entry
        n       %r5,.Lptomask-.Lnuc(%r12)
        lr      %r4,%r2
        srl     %r4,12                  # page index
        n       %r4,.Lf-.Lnuc(%r12)
        ar      %r4,%r4
        ar      %r5,%r4                 # page-table entry
        lh      %r6,0(%r5)
        n       %r6,.Lpfra-.Lnuc(%r12)
        bz      .Lpbad-.Lnuc(%r12)      # no frame behind it: a wild reference
        ni      1(%r5),0xFF-.LPTE_INV   # the page is valid now
        ptlb
        lm      %r0,%r15,.LSAVE
        lpsw    0x28                    # again at the instruction (nullified)
.Lpbad: lpsw    .Lbad068-.Lnuc(%r12)

# ---- the end of every task: the mainline's R14 points here (problem state, DAT on) ----
        .balign 4
.Lexit: svc     3

# ---- nucleus constants ----------------------------------------------------------------
        .balign 8
.Lwaitpsw: .long 0x030A0000, .Ldisp     # enabled wait: I/O and external, EC, wait
.Lendpsw: .long 0x000A0000, 0x00000000  # all tasks ended
.Lbad058: .long 0x000A0000, 0x00BAD058  # unexpected external interruption
.Lbad060: .long 0x000A0000, 0x00BAD060  # unknown SVC
.Lbad068: .long 0x000A0000, 0x00BAD068  # program check that is not a page fault
.Lbad0C2: .long 0x000A0000, 0x00BAD0C2  # SIO found the device busy / not there
.Lckcmax: .long 0xFFFFFFFF, 0xFFFFFFFF  # clock comparator: never
.Lcptmax: .long 0x7FFFFFFF, 0xFFFFFFFF  # CPU timer: never
.Lquantum: .long 0, .LQUANTUM_US << 12
.Lccw:  .long   0x04000000 + .Lsense, 0x20000001  # SENSE 1 byte, SLI
.Lsense: .long  0, 0
.Lcaw:  .long   .Lccw
.Lcr0:  .long   0x00800C00              # 4K pages, 64K segments; CKC, CPU-timer masks
.Ladata: .long  0x50000
.Lsvctab: .long .Lsbad, .Lsv1, .Lsv2, .Lsv3, .Lsv4
.Lsvcmax: .long 4
.Lone:  .long   1
.Ltwo:  .long   2
.Lthree: .long  3
.Lf:    .long   0xF
.Lff:   .long   0xFF
.Lpfra: .long   0xFFF0
.Lstomask: .long 0x00FFFFC0
.Lptomask: .long 0x00FFFFF8
.Lcodecpt: .short 0x1005
.Lcodeckc: .short 0x1004
.Lcodept: .short 0x0011
.Ldev:  .short  0x000C

# ---- segment and page tables: 0x21000 ---------------------------------------------
        .org    0x1000
# segment tables: 16 entries (64K segments 0..15, CR1 length 0); entry = page-table
# length 15 (16 entries) | page-table origin, or X'00000001' (invalid)
        .macro  SEGTAB s2, s3, s4
        .long   1, 1, 0xF0000000+\s2, \s3, \s4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
        .endm
.LstA:  SEGTAB  .LptN, 0xF0000000+.LptA, 1              # A: nucleus, 0x30000-0x3FFFF
.LstB:  SEGTAB  .LptN, 1, 0xF0000000+.LptB              # B: nucleus, 0x40000-0x4FFFF
.LstC:  SEGTAB  .LptN, 1, 0xF0000000+.LptC              # C: nucleus, 0x40000-0x4FFFF
# page tables: 16 two-byte entries; frame address bits 8-19 in the top 12 bits,
# X'0008' = invalid. X'0008' alone: no page there.
.LptN:  .short  0x0200, 0x0210, 0x0220, 0x0230, 0x0240, 0x0250, 0x0260, 0x0270
        .short  0x0280, 0x0290, 0x02A0, 0x02B0, 0x02C0, 0x02D0, 0x02E0, 0x02F0
.LptA:  .short  0x0300, 0x0318, 0x0328, 8, 8, 8, 8, 8, 0x0528, 8, 8, 8, 8, 8, 8, 8
.LptB:  .short  0x0400, 0x0418, 8, 8, 8, 8, 8, 8, 0x0508, 8, 8, 8, 8, 8, 8, 8
.LptC:  .short  0x0400, 0x0418, 8, 8, 8, 8, 8, 8, 0x0518, 8, 8, 8, 8, 8, 8, 8

# ==== task A's program: 0x30000 (virtual = real), address space 1 ===================
        .org    0x10000

# ---- ASUB: plain assembler (no FORTRAN entry) ------------------------------------
        ASMENTRY ASUB
        PROLOGUE                        # 6
        la      %r3,10                  # 1
.Las1:  bct     %r3,.Las1-ASUB(%r12)    # 10
        EPILOGUE                        # 3            ASUB = 20

# ---- RECUR: recursive, loops in every frame; the innermost frame sleeps ----------
        FORTG   RECUR
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r3,.LRLOOP             # 1
.Lr1:   ar      %r0,%r3                 # RLOOP
        bct     %r3,.Lr1-RECUR(%r12)    # RLOOP
        ch      %r2,.Lrone-RECUR(%r12)  # 1   depth left == 1?
        bne     .Lrdeep-RECUR(%r12)     # 1
        la      %r1,1500                # 1   innermost: sleep 1.5 ms
        svc     1                       # 1
        EPILOGUE                        # 3
.Lrdeep: bctr   %r2,0                   # 1   else call itself with depth-1
        l       %r15,.LaRECUR-RECUR(%r12)   # 1
        balr    %r14,%r15               # 1
        EPILOGUE                        # 3
        .balign 4
.LaRECUR: .long RECUR
.Lrone: .short  1

# ---- SUBIO: sleeps (SVC 1) and reads (SVC 2) -------------------------------------
        FORTG   SUBIO
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r1,2000                # 1   sleep 2 ms
        svc     1                       # 1
        svc     2                       # 1   I/O
        EPILOGUE                        # 3            SUBIO = 13

# ---- MAINA: task A's mainline, entered by the dispatcher ---------------------------
        FORTG   MAINA
        PROLOGUE                        # 6 (with the entry B: 7); the STM faults
        la      %r2,4                   # 1
.Lm1:   l       %r15,.LaHSUB-MAINA(%r12)   # 4
        balr    %r14,%r15               # 4   call HSUB (the first: page fault at entry)
        bct     %r2,.Lm1-MAINA(%r12)    # 4
        la      %r2,3                   # 1
.Lm2:   l       %r15,.LaASUB-MAINA(%r12)   # 3
        balr    %r14,%r15               # 3   call ASUB
        bct     %r2,.Lm2-MAINA(%r12)    # 3
        la      %r3,2                   # 1
.Lm3:   la      %r2,.LRDEPTH            # 2
        l       %r15,.LaRECUR2-MAINA(%r12) # 2
        balr    %r14,%r15               # 2   call RECUR
        bct     %r3,.Lm3-MAINA(%r12)    # 2
        la      %r2,2                   # 1
.Lm4:   l       %r15,.LaSUBIO-MAINA(%r12)  # 2
        balr    %r14,%r15               # 2   call SUBIO
        bct     %r2,.Lm4-MAINA(%r12)    # 2
        b       .Lsite-MAINA(%r12)      # 1
        .balign 4
.LaHSUB: .long  HSUB
.LaASUB: .long  ASUB
.LaRECUR2: .long RECUR
.LaSUBIO: .long SUBIO
        .org    0x10FFA                 # the call site at the end of page 0x30000
.Lsite: l       %r15,.LaASUB-MAINA(%r12)   # 1   0x30FFA
        balr    %r14,%r15               # 1   0x30FFE: call ASUB; returns to 0x31000
# page 0x31000: invalid at first, so ASUB's BR 14 faults on the instruction fetch here
        l       %r15,.LaHSUB-MAINA(%r12)   # 1
        balr    %r14,%r15               # 1   call HSUB
        svc     4                       # 1   wait until B and C have ended
        l       %r15,.LaSUBIO-MAINA(%r12)  # 1
        balr    %r14,%r15               # 1   call SUBIO: alone, so the CPU waits
        svc     3                       # 1   end of task A (MAINA does not return)

# ---- HSUB: FORTRAN H, on page 0x32000 (invalid at first) ---------------------------
        .org    0x12000
        FORTH   HSUB
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r3,5                   # 1
.Lh1:   ar      %r0,%r3                 # 5
        bct     %r3,.Lh1-HSUB(%r12)     # 5
        EPILOGUE                        # 3            HSUB = 21

# ==== the program of tasks B and C: 0x40000, shared (reentrant) ======================
        .org    0x20000

# ---- JOBMAN : the mainline of B and of C; counts from the task's data page --------
        FORTG   JOBMAN
        PROLOGUE                        # 6 (with the entry B: 7); the STM faults
        l       %r4,.LaJDATA-JOBMAN(%r12) # 1
        l       %r2,0(%r4)              # 1   NX
        .ifdef SPINX
        la      %r3,.LXLOOP             #     R3 for ROUTX's first call
        .endif
.Lj1:   l       %r15,.LaROUTX-JOBMAN(%r12)   # NX
        balr    %r14,%r15               # NX  call ROUTX
        bct     %r2,.Lj1-JOBMAN(%r12)  # NX
        l       %r2,4(%r4)              # 1   NY
.Lj2:   l       %r15,.LaROUTY-JOBMAN(%r12)   # NY
        balr    %r14,%r15               # NY  call ROUTY
        bct     %r2,.Lj2-JOBMAN(%r12)  # NY
        l       %r15,.LaROUTZ-JOBMAN(%r12)   # 1
        balr    %r14,%r15               # 1   call ROUTZ (page fault at its entry)
        EPILOGUE                        # 3   BR 14 to .Lexit (SVC 3) in the nucleus
        .balign 4
.LaJDATA: .long .LJDATA
.LaROUTX: .long ROUTX
.LaROUTY: .long ROUTY
.LaROUTZ: .long ROUTZ

# ---- ROUTX: leaf, loops; counts its calls in the data page -------------------------
        .ifndef SPINX
        FORTG   ROUTX
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r3,.LXLOOP             # 1
.Lrx1:  ar      %r0,%r3                 # XLOOP
        bct     %r3,.Lrx1-ROUTX(%r12)    # XLOOP
        l       %r0,8(%r4)              # 1
        al      %r0,.Lxone-ROUTX(%r12)  # 1
        st      %r0,8(%r4)              # 1
        EPILOGUE                        # 3            ROUTX = 14 + 2 XLOOP
        .balign 4
.Lxone: .long   1
        .else
# (--defsym SPINX=1, tests/e2e/modattach.sh: B and C call ROUTX without end, NX = 2**31 - 1,
# and ROUTX's first instruction is a loop to itself, as entryloop.s's SPIN: a preemption
# in ROUTX resumes at its entry, R14 a return address into JOBMAN)
        ASMENTRY ROUTX
        bct     %r3,0(%r15)             # XLOOP: R3 from JOBMAN, or from the call before
        la      %r3,.LXLOOP             # 1
        br      %r14                    # 1            ROUTX = 2 + XLOOP
        .endif

# ---- ROUTY: sleeps, then calls ROUTX twice -------------------------------------------
        FORTG   ROUTY
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r1,1000                # 1   sleep 1 ms
        svc     1                       # 1
        l       %r15,.LaROUTX2-ROUTY(%r12) # 1
        balr    %r14,%r15               # 1   call ROUTX
        l       %r15,.LaROUTX2-ROUTY(%r12) # 1
        balr    %r14,%r15               # 1   call ROUTX
        EPILOGUE                        # 3            ROUTY = 16
        .balign 4
.LaROUTX2: .long ROUTX

# ---- ROUTZ: on page 0x41000 (invalid at first in both spaces): I/O, then loops ------
        .org    0x21000
        FORTG   ROUTZ
        PROLOGUE                        # 6 (with the entry B: 7)
        svc     2                       # 1   I/O
        la      %r3,.LZLOOP             # 1
.Lz1:   ar      %r0,%r3                 # ZLOOP
        bct     %r3,.Lz1-ROUTZ(%r12)    # ZLOOP
        EPILOGUE                        # 3            ROUTZ = 12 + 2 ZLOOP

# ==== data pages (real frames): B's at 0x50000, C's at 0x51000 ======================
# (A's data page, real 0x52000, starts as zeros: not in the image)
        .org    0x30000
        .ifndef SPINX
        .long   5, 2, 0                 # B: NX (ROUTX calls from JOBMAN), NY (ROUTY), ROUTX count
        .org    0x31000
        .long   8, 3, 0                 # C: NX, NY, ROUTX count
        .else
        .long   0x7FFFFFFF, 2, 0
        .org    0x31000
        .long   0x7FFFFFFF, 3, 0
        .endif
