# mvsjob.s -- a job under a tiny "MVS": the job's program runs in one address space at a
# load point that changes from build to build, another program runs in another space at
# the same virtual addresses, and the console says when the job starts and ends, as JES2
# does (standalone S/370, EC mode, DAT; tests/e2e/mvsjob.sh).
#
#   before the job   space B runs OTHER once                          (not the job)
#   console          $HASP373 FSTJOB   STARTED - INIT  1 - CLASS A - SYS FST1
#   the job          ROUNDS times: space A runs JOBPROG, space B runs OTHER
#   console          $HASP395 FSTJOB   ENDED
#   after the job    space C runs JOBPROG once (the same program, another job), then
#                    space B runs OTHER once; then a disabled wait
#
# --defsym VPAGE=P (default 0x50000): the virtual page where both programs start, a
# multiple of 0x1000 in 0x40000-0xEF000 (segments 4-14); JOFF (default 0x100): the
# offset of JOBPROG (and of OTHER) in that page, a multiple of 8 below 0x800. PRE (none by
# default): OTHER runs PRE more times before the job starts (a system busy long before it);
# AGAIN (none by default): after everything above, the same job runs again, AGAIN rounds of
# JOBPROG in space A between a second $HASP373 and $HASP395. WAITFLAG (defined: on): before
# the job starts, the nucleus spins until the byte at real 300 is not zero (the operator's
# `r 300=01`, or Hercules' automatic operator at a message). BUSYFLAG (defined: on): before
# PRE's runs, OTHER runs again and again until that byte is not zero (a system busy for as
# long as a reader takes to come, however slow the machine). So the job's
# load point is VPAGE + JOFF. Both programs are position independent (every address is
# base + displacement, no address constant), so each runs wherever its page is mapped:
# the image holds JOBPROG at real 0x30000 + JOFF and OTHER at real 0x34000 + JOFF, and
# each space's page table maps virtual VPAGE.. to its program's real pages. K (default
# 20): WORK's loop count in the job's space; OTHER's loops differ.
#
# ---- storage (real) ----------------------------------------------------------------
#   00000  low core (LOWCORE); CAW at 48; 200: the nucleus' registers while a program runs
#   20000  the nucleus (DAT off, supervisor: outside), its console messages and CCWs
#   22000  segment tables A 22000, B 22040, C 22080 (16 entries; only VPAGE's segment
#          valid); page tables A 22100, B 22120, C 22140 (16 entries of 2 bytes: pages
#          VPAGE and VPAGE+1000 -> the program's real pages, VPAGE+2000 -> the space's
#          data page, the rest invalid)
#   30000  JOBPROG's pages (+JOFF): MAIN, WORK, LEAF, WORK2, then JOBEND
#   34000  OTHER's pages (+JOFF): XMAIN, XA, XB, XC, then XEND: other code at the same
#          virtual addresses
#   38000  the data pages at virtual VPAGE+2000: A 38000, B 39000, C 3A000; each holds the
#          task exit (SVC 3) at +0 and the save areas from +100
#
# A program run (a "task"): the nucleus loads CR1, R13 = VPAGE+2100, R14 = VPAGE+2000 (the
# task exit), R15 = VPAGE+JOFF, and LPSWs to the entry: the task's first instruction is
# its mainline's 47F0F00C, as under MVS; the mainline returns to the task exit, whose
# SVC 3 gives control back to the nucleus (DAT off).
#
# ---- instructions ------------------------------------------------------------------
# JOBPROG a run: MAIN: entry B 1, prologue 6, 3 x (LA 15 + BALR) 6, epilogue 3 = 16;
#   WORK (called twice): B, STM, LR, LA + BALR (LEAF), LA 5,K, BCT x K, LM, BR = K + 8;
#   LEAF (assembler, no identifier; called by WORK): LA, BR = 2; WORK2: B, LA, BCT x 3,
#   BR = 6; then the task exit's SVC 3 (outside). --timed=all, a run: MAIN 16, WORK
#   2 (K + 8), LEAF 4, WORK2 6; calls WORK 2, LEAF 2, WORK2 1.
# OTHER a run: XMAIN 20, XA 10 (called twice), XB 4, XC 21, SVC 3: 66.
# The nucleus: 24 + 5 a round + 7 a program run (tests/programs/EXPECTED).
        .include "s370.inc"

        DEFAULT ROUNDS, 3
        DEFAULT VPAGE, 0x50000
        DEFAULT JOFF, 0x100
        DEFAULT K, 20
        .set    SEG, VPAGE >> 16
        .set    PG, (VPAGE >> 12) & 15

        LOWCORE

# ---- the nucleus, 0x20000 (real, DAT off) -------------------------------------
        balr    %r12,0
.Lb:    lctl    %c0,%c0,.Lcr0-.Lb(%r12)  # 4K pages, 64K segments
        la      %r2,.LcrB-.Lb(%r12)     # before the job: OTHER in space B
        bal     %r11,.Lrun-.Lb(%r12)
        .ifdef  BUSYFLAG
.Lbusy: la      %r2,.LcrB-.Lb(%r12)     # OTHER again and again until the operator's byte
        bal     %r11,.Lrun-.Lb(%r12)    # at 300 is set (a system busy for as long as it
        cli     0x300,0                 # takes a reader to come), then PRE runs more
        bc      8,.Lbusy-.Lb(%r12)
        .endif
        .ifdef  PRE
        l       %r10,.Lpre-.Lb(%r12)    # PRE more times: a system busy long before the job
.Lpre1: la      %r2,.LcrB-.Lb(%r12)
        bal     %r11,.Lrun-.Lb(%r12)
        bct     %r10,.Lpre1-.Lb(%r12)
        .endif
        .ifdef  WAITFLAG
.Lwflag: cli    0x300,0                 # until the operator sets the byte at 300 (r 300=01)
        bc      8,.Lwflag-.Lb(%r12)
        .endif
        la      %r3,.Lccw373-.Lb(%r12)  # $HASP373
        bal     %r11,.Lcons-.Lb(%r12)
        l       %r10,.Lrounds-.Lb(%r12)
.Lround: la     %r2,.LcrA-.Lb(%r12)     # the job: JOBPROG in space A
        bal     %r11,.Lrun-.Lb(%r12)
        la      %r2,.LcrB-.Lb(%r12)     # and OTHER in space B
        bal     %r11,.Lrun-.Lb(%r12)
        bct     %r10,.Lround-.Lb(%r12)
        la      %r3,.Lccw395-.Lb(%r12)  # $HASP395
        bal     %r11,.Lcons-.Lb(%r12)
        la      %r2,.LcrC-.Lb(%r12)     # after: JOBPROG in space C, OTHER in B
        bal     %r11,.Lrun-.Lb(%r12)
        la      %r2,.LcrB-.Lb(%r12)
        bal     %r11,.Lrun-.Lb(%r12)
        .ifdef  AGAIN
        la      %r3,.Lccw373-.Lb(%r12)  # the same job run again: AGAIN rounds
        bal     %r11,.Lcons-.Lb(%r12)
        l       %r10,.Lagain-.Lb(%r12)
.Lagn1: la      %r2,.LcrA-.Lb(%r12)
        bal     %r11,.Lrun-.Lb(%r12)
        bct     %r10,.Lagn1-.Lb(%r12)
        la      %r3,.Lccw395-.Lb(%r12)
        bal     %r11,.Lcons-.Lb(%r12)
        .endif
        lpsw    .Ldone-.Lb(%r12)        # end: disabled wait

# run the program of the space whose CR1 is at 0(R2) from VPAGE + JOFF, until its SVC 3
.Lrun:  stm     %r0,%r15,0x200(%r0)
        lctl    %c1,%c1,0(%r2)
        mvc     0x60(8,%r0),.Lsvc-.Lb(%r12)
        lm      %r13,%r15,.Ltask-.Lb(%r12)  # save area, task exit, entry
        lpsw    .Lgo-.Lb(%r12)
.Lback: lm      %r0,%r15,0x200(%r0)
        br      %r11

# write the console line whose CCW is at R3 (device 009, a 3215), wait for its end
.Lcons: st      %r3,0x48(%r0)           # CAW
        .long   0x9C000009              # SIO 009 (binutils has no SIO/TIO)
.Ltio:  .long   0x9D000009              # TIO 009
        bc      2,.Ltio-.Lb(%r12)       # busy: again
        br      %r11

        .balign 8
.Lgo:   .long   0x04090000, VPAGE + JOFF  # DAT, interruptions off, key 0, EC, problem state
.Lsvc:  .long   0x00080000, .Lback      # SVC new PSW: EC, DAT off, supervisor, disabled
.Ldone: .long   0x000A0000, 0x00000000
.Ltask: .long   VPAGE + 0x2100, VPAGE + 0x2000, VPAGE + JOFF
        .balign 8
.Lccw373: .long 0x09000000 + .Lmsg373   # write, carriage return
        .byte   0x20, 0, 0, .Lend373 - .Lmsg373   # SLI
.Lccw395: .long 0x09000000 + .Lmsg395
        .byte   0x20, 0, 0, .Lend395 - .Lmsg395
.Lcr0:  .long   0x00800000              # 4K pages (bits 8-9 = 10), 64K segments
.LcrA:  .long   0x00022000              # segment-table length 0 (16 entries) | origin
.LcrB:  .long   0x00022040
.LcrC:  .long   0x00022080
.Lrounds: .long ROUNDS
        .ifdef  PRE
.Lpre:  .long   PRE
        .endif
        .ifdef  AGAIN
.Lagain: .long  AGAIN
        .endif
# " 12.00.00 JOB    1  $HASP373 FSTJOB   STARTED - INIT  1 - CLASS A - SYS FST1", EBCDIC
.Lmsg373:
        .byte   0x40,0xF1,0xF2,0x4B,0xF0,0xF0,0x4B,0xF0,0xF0,0x40,0xD1,0xD6,0xC2,0x40,0x40,0x40
        .byte   0x40,0xF1,0x40,0x40,0x5B,0xC8,0xC1,0xE2,0xD7,0xF3,0xF7,0xF3,0x40,0xC6,0xE2,0xE3
        .byte   0xD1,0xD6,0xC2,0x40,0x40,0x40,0xE2,0xE3,0xC1,0xD9,0xE3,0xC5,0xC4,0x40,0x60,0x40
        .byte   0xC9,0xD5,0xC9,0xE3,0x40,0x40,0xF1,0x40,0x60,0x40,0xC3,0xD3,0xC1,0xE2,0xE2,0x40
        .byte   0xC1,0x40,0x60,0x40,0xE2,0xE8,0xE2,0x40,0xC6,0xE2,0xE3,0xF1
.Lend373:
# " 12.00.01 JOB    1  $HASP395 FSTJOB   ENDED"
.Lmsg395:
        .byte   0x40,0xF1,0xF2,0x4B,0xF0,0xF0,0x4B,0xF0,0xF1,0x40,0xD1,0xD6,0xC2,0x40,0x40,0x40
        .byte   0x40,0xF1,0x40,0x40,0x5B,0xC8,0xC1,0xE2,0xD7,0xF3,0xF9,0xF5,0x40,0xC6,0xE2,0xE3
        .byte   0xD1,0xD6,0xC2,0x40,0x40,0x40,0xC5,0xD5,0xC4,0xC5,0xC4
.Lend395:

# ---- segment and page tables, 0x22000 ---------------------------------------------
        .org    0x2000
        .macro  SEGTAB pt
        .rept   SEG
        .long   1
        .endr
        .long   0xF0000000 + \pt
        .rept   15 - SEG
        .long   1
        .endr
        .endm
        SEGTAB  0x22100
        SEGTAB  0x22120
        SEGTAB  0x22140
        .org    0x2100
        # page table entry: real page address >> 8; 8 = invalid
        .macro  PAGETAB code, data
        .rept   PG
        .short  8
        .endr
        .short  \code >> 8, (\code + 0x1000) >> 8, \data >> 8
        .rept   13 - PG
        .short  8
        .endr
        .endm
        PAGETAB 0x30000, 0x38000
        PAGETAB 0x34000, 0x39000
        PAGETAB 0x30000, 0x3A000

# ---- JOBPROG at real 0x30000 + JOFF, runs at virtual VPAGE + JOFF -------------------
        .org    0x10000 + JOFF
        FORTG   MAIN                    # the module's entry: a task's mainline
        PROLOGUE                        # 6
        la      %r15,WORK-MAIN(%r12)    # 1
        balr    %r14,%r15               # 1
        la      %r15,WORK-MAIN(%r12)    # 1
        balr    %r14,%r15               # 1
        la      %r15,WORK2-MAIN(%r12)   # 1
        balr    %r14,%r15               # 1
        EPILOGUE                        # 3

        FORTG   WORK
        stm     %r14,%r12,12(%r13)      # 1
        lr      %r12,%r15               # 1
        la      %r15,LEAF-WORK(%r12)    # 1
        balr    %r14,%r15               # 1
        la      %r5,K                   # 1
.Lw:    bct     %r5,.Lw-WORK(%r12)      # K
        lm      %r14,%r12,12(%r13)      # 1
        br      %r14                    # 1

        ASMENTRY LEAF                   # assembler, no identifier
        la      %r1,1(%r1)              # 1
        br      %r14                    # 1

        FORTG   WORK2
        la      %r5,3                   # 1
.Lw2:   bct     %r5,.Lw2-WORK2(%r15)    # 3
        br      %r14                    # 1
        .globl  JOBEND
JOBEND:

# ---- OTHER at real 0x34000 + JOFF, runs at virtual VPAGE + JOFF (space B) ------------
        .org    0x14000 + JOFF
        FORTG   XMAIN
        PROLOGUE
        lr      %r2,%r2
        lr      %r2,%r2
        la      %r15,XA-XMAIN(%r12)
        balr    %r14,%r15
        la      %r15,XA-XMAIN(%r12)
        balr    %r14,%r15
        la      %r15,XB-XMAIN(%r12)
        balr    %r14,%r15
        la      %r15,XC-XMAIN(%r12)
        balr    %r14,%r15
        EPILOGUE

        FORTG   XA
        la      %r5,7
.Lxa:   bct     %r5,.Lxa-XA(%r15)
        br      %r14

        ASMENTRY XB
        lr      %r1,%r1
        lr      %r1,%r1
        lr      %r1,%r1
        br      %r14

        FORTG   XC
        la      %r5,12
.Lxc:   bct     %r5,.Lxc-XC(%r15)
        la      %r5,5
.Lxc2:  bct     %r5,.Lxc2-XC(%r15)
        br      %r14
        .globl  XEND
XEND:

# ---- each space's data page: the task exit (SVC 3) at +0, save areas from +100 -------
        .org    0x18000
        svc     3
        .org    0x19000
        svc     3
        .org    0x1A000
        svc     3
        .fill   0x200, 1, 0
