# bigloop.s -- benchmark program: a tight loop in the mainline with one call per
# iteration to a small FORTRAN G leaf subroutine; over 1,000,000 instructions.
#
# The loop count N is set in one place, the `.set .LN, 100000` below; it can also be
# given on the command line: s390x-linux-gnu-as -m31 --defsym NITER=1000000 ...
# (a local .L symbol, so that `nm` lists only the routines MAIN and TICK).
#
# Layout as in fortg.s (see its header and EXPECTED): low core with the IPL PSW
# 00080000 00020000 and disabled-wait new PSWs; an unnamed stub at 0x20000 (outside:
# 4 instructions before MAIN is entered, 1 after it returns) that sets R13 to a stack
# of 18-word save areas and enters MAIN with L 15,=A(MAIN) / BALR 14,15 (the
# mainline's first entry, not a call). MAIN uses the full OS linkage; TICK is a
# leaf routine that saves and restores the caller's registers in the caller's save
# area (STM/LM) but does not chain a save area of its own.
#
# Dynamic instruction count, N = the loop count:
#   stub                                                      5  (outside)
#   MAIN   7 prologue + 2 (L 2, L 9) + N x 3 (LR, BALR, BCT) + 3 epilogue
#                                                        = 12 + 3N  (entered once)
#   TICK   8 (B, STM, LR, L, A, ST, LM, BR)              =  8       x N entries
#   total  5 + 12 + 3N + 8N                              = 17 + 11N
#   N = 100000:  MAIN 300012, TICK 800000, total 1100017.
# Calls: TICK N (MAIN->TICK N); MAIN 0.  TICK's counter (.Lcnt) ends at N.

        .ifdef  NITER                   # --defsym NITER=n overrides the default
        .set    .LN, NITER
        .else
        .set    .LN, 100000             # <- the loop count (iterations = calls of TICK)
        .endif

        .section .lowcore,"a"
        .long   0x00080000, 0x00020000  # 000 IPL PSW: EC mode, disabled, IA 20000
        .fill   0x58-8, 1, 0            # 008..057 old PSWs, CSW, CAW, timer
        .long   0x000A0000, 0x00BAD058  # 058 external new PSW: disabled wait
        .long   0x000A0000, 0x00BAD060  # 060 SVC new PSW: disabled wait
        .long   0x000A0000, 0x00BAD068  # 068 program new PSW: disabled wait
        .long   0x000A0000, 0x00BAD070  # 070 machine-check new PSW: disabled wait
        .long   0x000A0000, 0x00BAD078  # 078 I/O new PSW: disabled wait

        .text
# ---- stub (outside): 0x20000 -----------------------------------------------
        balr    %r12,0                  # 1  base
.Lb:    l       %r13,.LaSAVE-.Lb(%r12)  # 1  R13 -> first save area
        l       %r15,.LaMAIN-.Lb(%r12)  # 1
        balr    %r14,%r15               # 1  enter the mainline (not a call)
        lpsw    .Lwait-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Lwait: .long   0x000A0000, 0x00000000
.LaSAVE: .long  .Lsaves
.LaMAIN: .long  MAIN

# ---- MAIN: mainline, entered once ------------------------------------------
        .balign 8
        .globl  MAIN
MAIN:   .long   0x47F0F00C              # 1  B 12(,15)
        .byte   0x06                    #    FORTRAN G identifier
        .byte   0xD4,0xC1,0xC9,0xD5,0x40,0x40,0x40  # 'MAIN   '
        stm     %r14,%r12,12(%r13)      # 1
        lr      %r12,%r15               # 1
        la      %r11,72(%r13)           # 1
        st      %r13,4(%r11)            # 1
        st      %r11,8(%r13)            # 1
        lr      %r13,%r11               # 1  (prologue: 7)
        l       %r2,.Lniter-MAIN(%r12)  # 1  loop count
        l       %r9,.LaTICK-MAIN(%r12)  # 1
.Lloop: lr      %r15,%r9                # N
        balr    %r14,%r15               # N  call TICK
        bct     %r2,.Lloop-MAIN(%r12)   # N
        l       %r13,4(%r13)            # 1
        lm      %r14,%r12,12(%r13)      # 1
        br      %r14                    # 1  (epilogue: 3)   MAIN = 12 + 3N
        .balign 4
.Lniter: .long  .LN
.LaTICK: .long  TICK

# ---- TICK: FORTRAN G leaf, N entries ---------------------------------------
        .balign 8
        .globl  TICK
TICK:   .long   0x47F0F00C              # B 12(,15)
        .byte   0x06
        .byte   0xE3,0xC9,0xC3,0xD2,0x40,0x40,0x40  # 'TICK   '
        stm     %r14,%r12,12(%r13)      # save the caller's registers
        lr      %r12,%r15
        l       %r0,.Lcnt-TICK(%r12)
        a       %r0,.Lone-TICK(%r12)
        st      %r0,.Lcnt-TICK(%r12)
        lm      %r14,%r12,12(%r13)
        br      %r14                    #                      TICK = 8
        .balign 4
.Lcnt:  .long   0
.Lone:  .long   1

# ---- save-area stack: 4 areas of 18 words ----------------------------------
        .balign 8
.Lsaves: .fill  4*72, 1, 0
