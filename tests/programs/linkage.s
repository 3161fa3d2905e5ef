# linkage.s -- the linkage patterns call reconstruction must get right (DESIGN 3.2, 3.3).
# All routines are FORTRAN G (X'47F0F00C', X'06', name left-justified, X'40' padded),
# so the default timing and --timed=all agree.
#
# Layout as in fortg.s (see its header and EXPECTED): low core with the IPL PSW
# 00080000 00020000 and disabled-wait new PSWs; an unnamed stub at 0x20000 (outside:
# 4 instructions before MAIN is entered, 1 after it returns) that sets R13 to a stack
# of 18-word save areas and enters MAIN with L 15,=A(MAIN) / BALR 14,15 (the
# mainline's first entry, not a call); OS linkage in every routine.
#
# What MAIN does, in order:
#   1. BALR 3,0 and BALR 14,0: branch-and-link with no branch (R2 field 0): never a call,
#      even with link register 14.
#   2. BAL 10,.Lint10: an internal subroutine (no symbol, inside MAIN) returning with
#      BR 10: not a call, not a return; its 2 instructions belong to MAIN.
#   3. BAL 14,.Lint14: an internal subroutine reached with link register 14 but not a
#      routine entry point: not a call (DESIGN 3.2); returns with BR 14; its 2
#      instructions belong to MAIN.
#   4. Recursion: R2 = 5, call RECUR. RECUR decrements R2 and, while it is not zero,
#      calls itself: RECUR is entered 5 times (depth 5 below MAIN), 1 call from MAIN and
#      4 calls from RECUR to RECUR; the 5 frames return normally, innermost first.
#   5. Skip return: call SKIPR; the BALR is followed by a 4-byte `B .Lbad`; SKIPR returns
#      with `B 4(,14)` to the return address + 4, so the B is skipped (never executed).
#   6. Abnormal exit, twice (BCT loop): call OUTER; OUTER calls INNER; INNER does not
#      return to OUTER: it follows the save-area chain two levels back
#      (L 13,4(,13) twice -> MAIN's save area, where OUTER's STM saved MAIN's registers),
#      LM 14,12,12(13) and BR 14, i.e. it returns straight to MAIN just after MAIN's
#      BALR to OUTER. That is the return address of OUTER's frame: INNER's and OUTER's
#      frames are both popped (UNWIND). OUTER's code after its BALR never runs.
#   7. Skip return again (SKIPR), to show the stack is consistent after the unwinds.
#   8. Return to the stub.
#
# Dynamic instruction count:
#   stub                                                       5  (outside)
#   MAIN   7 prologue + 2 (BALR x,0) + 1+2 (BAL 10 + internal) + 1+2 (BAL 14 + internal)
#          + 1 + 2 (recursion) + 2 (skip) + 1 + 2 x 3 (abnormal exits) + 2 (skip)
#          + 3 epilogue                                     = 32  (entered once)
#   RECUR  depth 5..2: 7 prologue + 5 (BCTR, LTR, BNZ taken, L, BALR) + 3  = 15 x 4
#          depth 1:    7 prologue + 3 (BCTR, LTR, BNZ not taken) + 3       = 13 x 1
#                                                             = 73
#   SKIPR  7 prologue + 1 work + 3 (L 13, LM, B 4(,14))       = 11  x 2 entries = 22
#   OUTER  7 prologue + 2 (L, BALR)                           =  9  x 2 entries = 18
#   INNER  7 prologue + 1 work + 4 (L 13 x 2, LM, BR 14)      = 12  x 2 entries = 24
#   total  5 + 32 + 73 + 22 + 18 + 24                         = 174
# Calls: RECUR 5 (MAIN->RECUR 1, RECUR->RECUR 4), SKIPR 2 (MAIN->SKIPR 2),
#   OUTER 2 (MAIN->OUTER 2), INNER 2 (OUTER->INNER 2); MAIN 0.
# Returns: RECUR 5 normal; SKIPR 2 skip returns (+4); INNER and OUTER 2 unwinds each.
# Maximum depth: MAIN + 5 RECUR frames.

        .include "s370.inc"
        LOWCORE

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    MAIN                 # 5 instructions, outside

# ---- MAIN: mainline, entered once ------------------------------------------
        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
# 1. branch-and-link without a branch
        balr    %r3,0                   # 1
        balr    %r14,0                  # 1
# 2. internal subroutine, link register 10
        bal     %r10,.Lint10-MAIN(%r12) # 1  (+2 in .Lint10)
# 3. internal subroutine, link register 14, not an entry point
        bal     %r14,.Lint14-MAIN(%r12) # 1  (+2 in .Lint14)
# 4. recursion, depth 5
        la      %r2,5                   # 1
        l       %r15,.LaRECUR-MAIN(%r12) # 1
        balr    %r14,%r15               # 1  call RECUR
# 5. skip return
        l       %r15,.LaSKIPR-MAIN(%r12) # 1
        balr    %r14,%r15               # 1  call SKIPR
        b       .Lbad-MAIN(%r12)        # 0  skipped by SKIPR's B 4(,14)
# 6. abnormal exit (INNER returns straight here, unwinding INNER and OUTER), twice
        la      %r2,2                   # 1
.Lm6:   l       %r15,.LaOUTER-MAIN(%r12) # 2
        balr    %r14,%r15               # 2  call OUTER
        bct     %r2,.Lm6-MAIN(%r12)     # 2
# 7. skip return again
        l       %r15,.LaSKIPR-MAIN(%r12) # 1
        balr    %r14,%r15               # 1  call SKIPR
        b       .Lbad-MAIN(%r12)        # 0  skipped
# 8. return
        EPILOGUE                        # 3
# internal subroutines of MAIN (not routines: no symbol, no FORTRAN prologue)
.Lint10: la     %r4,10                  # 1
        br      %r10                    # 1
.Lint14: la     %r4,14                  # 1
        br      %r14                    # 1          MAIN = 32
# never executed: something went wrong
.Lbad:  balr    %r12,0
.Lbb:   lpsw    .Lbadwm-.Lbb(%r12)
        .balign 8
.Lbadwm: .long  0x000A0000, 0x00000BAD
.LaRECUR: .long RECUR
.LaSKIPR: .long SKIPR
.LaOUTER: .long OUTER

# ---- RECUR: recursive, 5 entries (depth in R2: 5, 4, 3, 2, 1) ---------------
        FORTG   RECUR
        PROLOGUE                        # 6 (with the entry B: 7)
        bctr    %r2,0                   # depth - 1
        ltr     %r2,%r2
        bnz     .Lrcall-RECUR(%r12)     # taken at depth 5..2
        EPILOGUE                        # 3
# The recursive call is placed after the depth-1 return on purpose: a branch to the
# instruction after the BALR (its return address) would look like a return of the
# innermost frame under DESIGN 3.3 ("right after a branch, execution arrives at the
# return address of the top frame") one frame too early.
.Lrcall: l      %r15,.LaRECUR2-RECUR(%r12)
        balr    %r14,%r15               # call RECUR (itself)
        EPILOGUE                        # 3
        .balign 4
.LaRECUR2: .long RECUR

# ---- SKIPR: skip return B 4(,14), 2 entries ---------------------------------
        FORTG   SKIPR
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r4,4                   # (work: 1)
        l       %r13,4(%r13)
        lm      %r14,%r12,12(%r13)
        b       4(%r14)                 # return to R14 + 4   SKIPR = 11

# ---- OUTER: calls INNER, which never returns here; 2 entries ----------------
        FORTG   OUTER
        PROLOGUE                        # 6 (with the entry B: 7)
        l       %r15,.LaINNER-OUTER(%r12)
        balr    %r14,%r15               # call INNER          OUTER = 9
        EPILOGUE                        # 3
        .balign 4
.LaINNER: .long INNER

# ---- INNER: abnormal exit to MAIN, 2 entries --------------------------------
        FORTG   INNER
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r4,9                   # (work: 1)
        l       %r13,4(%r13)            # OUTER's save area (holds OUTER's registers)
        EPILOGUE                        # 3 to MAIN, past OUTER  INNER = 12

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
