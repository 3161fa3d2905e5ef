# fortrec.s -- recursion in FORTRAN style where branches on the routine's own code base
# land on the return address of its recursive call (issue 11; DESIGN 3.3: such a branch
# is never a return, only one whose target comes from a register that can hold a return
# address, BR 14 or B 4(,14)). linkage.s keeps its recursive call apart on purpose; this
# program puts it where such code puts it.
#
# Layout and linkage as in fortg.s (see its header and EXPECTED): low core with the IPL
# PSW and disabled-wait new PSWs; an unnamed stub at 0x20000 (outside: 4 instructions
# before MAIN is entered, 1 after it returns); a stack of 18-word save areas; OS linkage
# in every routine (PROLOGUE 7 instructions with the entry's B 12(,15), EPILOGUE 3).
#
# MAIN (FORTRAN G) calls RECUR(4) once, then DIVE(5) once; the argument n is in R1.
#
# RECUR (FORTRAN G): a binary tree of calls. Each activation loops twice (BCT 3); at
# n > 0 each pass calls RECUR(n - 1) with L 15 / BALR 14,15 and comes back to .Lnext, the
# BCT right after the BALR (its return address). At n = 0 (a leaf) each pass branches to
# .Lleaf, does its work and goes back with `B .Lnext-RECUR(,12)`: a branch on its own
# code base to the return address of the very frame it runs in (it was called from that
# BALR) and of its caller's frame, and so on up: none of them returns.
#   RECUR(4): activations n = 4: 1, 3: 2, 2: 4, 1: 8 (15 with n > 0), n = 0: 16 (leaves)
#   n > 0: 7 prologue + 2 (LR, LA) + 2 x 7 (LTR, BZ, LR, BCTR, L, BALR, BCT)
#          + 3 epilogue = 26                                  x 15 = 390
#   n = 0: 7 prologue + 2 (LR, LA) + 2 x 5 (LTR, BZ taken, LA, B, BCT)
#          + 3 epilogue = 22                                  x 16 = 352
#   RECUR = 742; calls 31 (MAIN->RECUR 1, RECUR->RECUR 30); 2^(k-1) activations at
#   depth k = 1..5 below MAIN.
#
# DIVE (FORTRAN H): a chain. At n > 0 it calls DIVE(n - 1); the BALR is followed by a
# 4-byte LA, then the epilogue at .Ldout. At n = 0 it branches `BZ .Ldout-DIVE(,12)`:
# on its own code base to the return address + 4 of its frame (the skip-return
# convention's place), then returns with BR 14 (which lands on the return address of the
# frame, the LA).
#   n > 0: 7 prologue + 5 (LTR, BZ, BCTR, L, BALR) + 1 (LA) + 3 epilogue = 16   x 5 = 80
#   n = 0: 7 prologue + 2 (LTR, BZ taken) + 3 epilogue                   = 12   x 1 = 12
#   DIVE = 92; calls 6 (MAIN->DIVE 1, DIVE->DIVE 5); depth 1..6 below MAIN, once each.
#
# MAIN: 7 prologue + 3 (LA, L, BALR) + 3 (LA, L, BALR) + 3 epilogue = 16
# Total: 5 outside + 16 + 742 + 92 = 855. Deepest stack: MAIN and 6 DIVE frames (7).

        .include "s370.inc"
        LOWCORE

# ---- stub (outside): 0x20000 -----------------------------------------------
        STUB    MAIN                    # 5 instructions, outside

# ---- MAIN: mainline, entered once ------------------------------------------
        FORTG   MAIN
        PROLOGUE                        # 6 (with the entry B: 7)
        la      %r1,4                   # 1  n = 4
        l       %r15,.LaRECUR-MAIN(%r12) # 1
        balr    %r14,%r15               # 1  call RECUR
        la      %r1,5                   # 1  n = 5
        l       %r15,.LaDIVE-MAIN(%r12) # 1
        balr    %r14,%r15               # 1  call DIVE
        EPILOGUE                        # 3        MAIN = 16
        .balign 4
.LaRECUR: .long RECUR
.LaDIVE: .long  DIVE

# ---- RECUR: binary tree of calls, 31 entries --------------------------------
        FORTG   RECUR
        PROLOGUE                        # 6 (with the entry B: 7)
        lr      %r2,%r1                 # n (the caller's R2 is in the save area)
        la      %r3,2                   # two passes
.Lloop: ltr     %r2,%r2
        bz      .Lleaf-RECUR(%r12)      # a leaf
        lr      %r1,%r2
        bctr    %r1,0                   # n - 1
        l       %r15,.LaREC2-RECUR(%r12)
        balr    %r14,%r15               # call RECUR (itself)
.Lnext: bct     %r3,.Lloop-RECUR(%r12)  # the return address of that BALR
        EPILOGUE                        # 3
.Lleaf: la      %r4,1(%r4)              # a leaf's work
        b       .Lnext-RECUR(%r12)      # on the code base, to the return address: no return
        .balign 4
.LaREC2: .long  RECUR

# ---- DIVE: a chain of 6 entries ---------------------------------------------
        FORTH   DIVE
        PROLOGUE                        # 6 (with the entry B: 7)
        ltr     %r1,%r1
        bz      .Ldout-DIVE(%r12)       # n = 0: to return address + 4, on the code base
        bctr    %r1,0                   # n - 1
        l       %r15,.LaDIVE2-DIVE(%r12)
        balr    %r14,%r15               # call DIVE (itself)
        la      %r4,1(%r4)              # 4 bytes: the return address
.Ldout: EPILOGUE                        # 3  (return address + 4)
        .balign 4
.LaDIVE2: .long DIVE

# ---- save-area stack: 16 areas of 18 words ---------------------------------
        .balign 8
.Lsaves: .fill  16*72, 1, 0
