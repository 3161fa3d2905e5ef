# spaces.s -- one program run in two address spaces (standalone S/370, EC mode, DAT): a
# nucleus with DAT off dispatches job A (CR1 = 00021000) and job B (CR1 = 00021040) in
# turn, R rounds. Both spaces map the same code page at virtual 30000 but each its own
# data page at virtual 38000 (A: real 38000, B: real 39000), which holds the job's loop
# counts: A spends three quarters of its instructions in WORK1, B in WORK2. So the
# profile of each space (fst-report --space=CR1) differs from the other's and from the
# whole machine's; its figures are fixed by the construction. tests/e2e/sample_spaces.sh:
# traced (exact, per space) and sampled by SDL Hercules 4.7+ (its /api/v1/cpus gives CR1
# with each sample).
#
# --defsym ROUNDS=R (default 2), K1A, K2A, K1B, K2B (defaults 30, 10, 10, 30): WORK1's and
# WORK2's loop counts in space A and B.
#
# ---- storage (real) ----------------------------------------------------------------
#   00000  low core: IPL PSW 00080000 00020000; SVC new PSW set by the nucleus (DAT off,
#          supervisor, disabled) to where the job that ends comes back; other new PSWs
#          disabled waits (LOWCORE). 200: the nucleus' registers while a job runs.
#   20000  the nucleus (no symbol: outside).
#   21000  segment tables A 21000, B 21040 (16 entries: virtual 0-FFFFF; only segment 3,
#          30000-3FFFF, valid); page tables A 21100, B 21120 (16 entries of 2 bytes:
#          page 0 -> real 30000, page 8 -> real 38000 (A) or 39000 (B), the rest invalid).
#   30000  the job (virtual = real): its start (outside), JOB, WORK1, WORK2.
#   38000  A's data page: K1, K2, then save areas from +100. 39000: B's.
#
# ---- instructions -------------------------------------------------------------------
# Nucleus (real, DAT off): BALR, LCTL CR0, MVC (SVC new PSW -> .LbackA), L       4
#   per round: STM, LCTL CR1=A, LPSW job                                          3
#              .LbackA: LM, MVC (SVC new PSW -> .LbackB), LCTL CR1=B, LPSW job    4
#              .LbackB: LM, MVC (SVC new PSW -> .LbackA), BCT                     3
#   then LPSW (disabled wait)                                                     1
#   = 10 R + 5
# Job, each dispatch (virtual, problem state, DAT on): start BALR, L, L, BALR ... SVC 3
#   (outside, 5); JOB 7 (prologue) + 4 (two calls) + 3 (epilogue) = 14; WORKn: B (the
#   entry's), L, L, BCT x K, BR = K + 4.
# Per space S (R dispatches): JOB 14 R, WORK1 (K1S + 4) R, WORK2 (K2S + 4) R, outside
#   5 R; calls WORK1 R, WORK2 R.
# Total: 10 R + 5 + R (K1A + K2A + K1B + K2B + 54) = 293 with the defaults.

        .include "s370.inc"

        DEFAULT ROUNDS, 2
        DEFAULT K1A, 30
        DEFAULT K2A, 10
        DEFAULT K1B, 10
        DEFAULT K2B, 30

        LOWCORE

# ---- the nucleus, 0x20000 (real, DAT off) -------------------------------------
        balr    %r12,0                  # 1
.Lb:    lctl    %c0,%c0,.Lcr0-.Lb(%r12) # 1  4K pages, 64K segments
        mvc     0x60(8,%r0),.LsvcA-.Lb(%r12)   # 1  job A ends at .LbackA
        l       %r10,.Lrounds-.Lb(%r12) # 1
.Lround: stm    %r0,%r15,0x200(%r0)     # 1  the nucleus' registers, while a job runs
        lctl    %c1,%c1,.Lcr1a-.Lb(%r12)   # 1  space A
        lpsw    .Ljob-.Lb(%r12)         # 1  run job A
.LbackA: lm     %r0,%r15,0x200(%r0)     # 1  (its SVC 3)
        mvc     0x60(8,%r0),.LsvcB-.Lb(%r12)   # 1
        lctl    %c1,%c1,.Lcr1b-.Lb(%r12)   # 1  space B
        lpsw    .Ljob-.Lb(%r12)         # 1  run job B
.LbackB: lm     %r0,%r15,0x200(%r0)     # 1
        mvc     0x60(8,%r0),.LsvcA-.Lb(%r12)   # 1
        bct     %r10,.Lround-.Lb(%r12)  # 1
        lpsw    .Ldone-.Lb(%r12)        # 1  end: disabled wait
        .balign 8
.Ljob:  .long   0x04090000, 0x00030000  # DAT, interruptions off, key 0, EC, problem state
.LsvcA: .long   0x00080000, .LbackA     # SVC new PSW: EC, DAT off, supervisor, disabled
.LsvcB: .long   0x00080000, .LbackB
.Ldone: .long   0x000A0000, 0x00000000
.Lcr0:  .long   0x00800000              # 4K pages (bits 8-9 = 10), 64K segments
.Lcr1a: .long   0x00021000              # segment-table length 0 (16 entries) | origin
.Lcr1b: .long   0x00021040
.Lrounds: .long ROUNDS

# ---- segment and page tables, 0x21000 ---------------------------------------------
        .org    0x1000
.LstA:  .long   1, 1, 1, 0xF0000000+.LptA, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
.LstB:  .long   1, 1, 1, 0xF0000000+.LptB, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
        .org    0x1100
.LptA:  .short  0x0300, 8, 8, 8, 8, 8, 8, 8, 0x0380, 8, 8, 8, 8, 8, 8, 8
.LptB:  .short  0x0300, 8, 8, 8, 8, 8, 8, 8, 0x0390, 8, 8, 8, 8, 8, 8, 8

# ---- the job, virtual (and real) 0x30000 --------------------------------------------
        .org    0x10000
        balr    %r12,0                  # 1  (outside)
.Lj:    l       %r13,.LaSAVE-.Lj(%r12)  # 1
        l       %r15,.LaMAIN-.Lj(%r12)  # 1
        balr    %r14,%r15               # 1  enter JOB
        svc     3                       # 1  back to the nucleus
        .balign 4
.LaSAVE: .long  0x38100                 # save areas: in the space's own data page
.LaMAIN: .long  JOB

        CALLS2  JOB, WORK1, WORK2       # 14

        .macro  WORK name, off
        FORTG   \name
        l       %r1,.Ld\name-\name(%r15)  # 1  the data page
        l       %r5,\off(%r1)           # 1  K (this space's)
.Ll\name: bct   %r5,.Ll\name-\name(%r15)  # K
        br      %r14                    # 1  (4 with the entry's B)
        .balign 4
.Ld\name: .long 0x38000
        .endm

        WORK    WORK1, 0
        WORK    WORK2, 4

# ---- the data pages: A's at real 0x38000, B's at 0x39000 ------------------------------
        .org    0x18000
        .long   K1A, K2A
        .org    0x19000
        .long   K1B, K2B
        .fill   0x200, 1, 0             # B's save areas (A's lie in the gap before)
