#!/usr/bin/env python3
"""tests/loops/gen.py SEED [MOST] -- a random S/370 program of loops, and what it executes.

Writes to stdout an assembler source (tests/programs/s370.inc conventions: the stub, FORTRAN G
routines with the OS linkage) whose shape is drawn from SEED: routines MAIN and SUB1..SUBk
(k 0-4, a routine calls only higher-numbered ones: no recursion), each a random nest of
loops (BCT, 1-3 deep, trip counts 1-900), straight code, calls, branches taken on a period
(every 2^m-th iteration) and branches taken on a pseudo-random bit (an LCG in R8: no period
at all). Shapes are drawn from SEED until one executes at most MOST instructions (default
1 500 000) with every conditional block taken, and at least a fifteenth of that.

With --expect it prints instead what the program executes, computed from the same shape by
walking it (not by running it): `total N`, then `ROUTINE calls self` per routine. These are
the figures fst must report (tests/e2e/loops.sh); the loops are what its replay may fold
(analyze/replay/replay_fold.c) and `make bench` times folded against unfolded on them.
"""
import random
import sys

COUNTERS = ["%r2", "%r6", "%r7", "%r10"]   # BCT counter per loop depth
M32 = 0xFFFFFFFF


class Prog:
    SAVES = 8   # save areas: the deepest chain of calls, the stub's included
    # straight code: one instruction each, drawn (K7: the constant 7); R1 and R3 are free to
    # change in gen.py's programs (recgen.py keeps R1 for its depth and draws from its own)
    STRAIGHT = ["lr      %r0,%r1", "ar      %r0,%r1", "la      %r1,1(%r1)", "sr      %r3,%r3",
                "l       %r4,K7", "lr      %r3,%r4"]

    def __init__(self, seed, most):
        # shapes are drawn until one executes between most/15 and most instructions
        self.rng = random.Random(seed)
        while True:
            self.draw()
            if most // 15 <= self.bound() <= most:
                break

    def bound(self):
        """At most how many instructions it executes (every conditional block taken)."""
        memo = {}

        def rout(i):
            if i not in memo:
                memo[i] = 10 + blk(self.bodies[self.names[i]])
            return memo[i]

        def blk(b):
            c = 0
            for s in b:
                c += (s[1] if s[0] == "straight" else 1 + s[1] * (blk(s[2]) + 1) if s[0] == "loop"
                      else 2 + rout(s[1]) if s[0] == "call" else 3 + blk(s[3]) if s[0] == "periodic"
                      else 7 + blk(s[2]))
            return c
        return sum(rout(i) for i in range(len(self.names))[:1])

    def draw(self):
        self.nsub = self.rng.randint(0, 4)
        self.names = ["MAIN"] + ["SUB%d" % i for i in range(1, self.nsub + 1)]
        self.bodies = {}
        self.consts = {n: [] for n in self.names}
        for i, n in enumerate(self.names):
            self.cur = n
            self.idx = i
            self.bodies[n] = self.block(0, self.rng.randint(1, 3), top=True)

    def const(self, v):
        c = self.consts[self.cur]
        if v not in c:
            c.append(v)
        return ".Lk_%s_%d-%s(%%r12)" % (self.cur, c.index(v), self.cur)

    def block(self, depth, n, top=False):
        r = self.rng
        out = []
        for _ in range(n):
            kinds = ["straight"] * 3
            if depth < 3:
                kinds += ["loop"] * (4 if top else 2)
            if self.idx < self.nsub:
                kinds += ["call"] * 2
            if depth > 0:
                kinds += ["periodic", "random"]
            k = r.choice(kinds)
            if k == "straight":
                out.append(("straight", r.randint(1, 6)))
            elif k == "loop":
                trip = r.choice([r.randint(1, 8), r.randint(2, 60), r.randint(50, 900)])
                out.append(("loop", trip, self.block(depth + 1, r.randint(1, 3))))
            elif k == "call":
                out.append(("call", r.randint(self.idx + 1, self.nsub)))
            elif k == "periodic":
                out.append(("periodic", depth - 1, (1 << r.randint(1, 4)) - 1, self.block(depth, 1)))
            else:
                out.append(("random", r.randint(0, 20), self.block(depth, 1)))
        return out

    # ---- the assembler source ----
    def emit_block(self, b, depth, lines):
        for s in b:
            if s[0] == "straight":
                for j in range(s[1]):
                    k7 = self.const(7)   # drawn or not, as the programs were first made
                    lines.append(self.rng.choice(self.STRAIGHT).replace("K7", k7))
            elif s[0] == "loop":
                c = COUNTERS[depth]
                lab = self.label()
                lines.append("l       %s,%s" % (c, self.const(s[1])))
                lines.append("%s:" % lab)
                self.emit_block(s[2], depth + 1, lines)
                lines.append("bct     %s,%s-%s(%%r12)" % (c, lab, self.cur))
            elif s[0] == "call":
                lines.append("l       %r15," + self.const_addr(self.names[s[1]]))
                lines.append("balr    %r14,%r15")
            elif s[0] == "periodic":
                lab = self.label()
                lines.append("lr      %%r5,%s" % COUNTERS[s[1]])
                lines.append("n       %r5," + self.const(s[2]))
                lines.append("bnz     %s-%s(%%r12)" % (lab, self.cur))
                self.emit_block(s[3], depth, lines)
                lines.append("%s:" % lab)
            else:
                lab = self.label()
                lines += ["lr      %r9,%r8", "sll     %r8,2", "alr     %r8,%r9", "al      %r8," + self.const(1),
                          "lr      %r5,%r8", "n       %r5," + self.const(1 << (s[1] + 8)),
                          "bz      %s-%s(%%r12)" % (lab, self.cur)]
                self.emit_block(s[2], depth, lines)
                lines.append("%s:" % lab)

    def const_addr(self, name):
        c = self.consts[self.cur]
        key = "A:" + name
        if key not in c:
            c.append(key)
        return ".Lk_%s_%d-%s(%%r12)" % (self.cur, c.index(key), self.cur)

    def place(self, i):
        """Lines before routine i (none: each follows the one before)."""
        return []

    def label(self):
        self.nlab = getattr(self, "nlab", 0) + 1
        return ".Ll%d" % self.nlab

    def source(self):
        lines = ['        .include "s370.inc"', "        LOWCORE", "        STUB    MAIN"]
        for i, n in enumerate(self.names):
            self.cur, self.idx = n, i
            body = []
            if n == "MAIN":
                body.append("l       %r8," + self.const(12345))
            self.emit_block(self.bodies[n], 0, body)
            lines += self.place(i)
            lines += ["        FORTG   %s" % n, "        PROLOGUE"]
            lines += [("%s" % l) if l.endswith(":") else "        " + l for l in body]
            lines += ["        EPILOGUE", "        .balign 4"]
            for j, v in enumerate(self.consts[n]):
                val = v[2:] if isinstance(v, str) else str(v & M32)
                lines.append(".Lk_%s_%d: .long %s" % (n, j, val))
        lines += ["        .balign 8", ".Lsaves: .fill  %d*72, 1, 0" % self.SAVES]
        return "\n".join(lines) + "\n"

    # ---- what it executes, by walking the shape ----
    def run(self):
        self.calls = {n: 0 for n in self.names}
        self.self_ = {n: 0 for n in self.names}
        self.total = 5   # the stub, outside
        self.r8 = 0
        self.routine(0)
        return self

    def routine(self, i):
        n = self.names[i]
        saved = self.r8      # the callee's LM restores the caller's R8
        count = 7 + 3        # B, PROLOGUE 6; EPILOGUE 3
        if n == "MAIN":
            count += 1
            self.r8 = 12345
        count += self.walk(self.bodies[n], [], i)
        self.self_[n] += count
        self.total += count
        self.r8 = saved

    def walk(self, b, ctr, i):
        cnt = 0
        for s in b:
            if s[0] == "straight":
                cnt += s[1]
            elif s[0] == "loop":
                cnt += 1
                for it in range(s[1]):
                    cnt += self.walk(s[2], ctr + [s[1] - it], i) + 1
            elif s[0] == "call":
                cnt += 2
                self.calls[self.names[s[1]]] += 1
                self.routine(s[1])
            elif s[0] == "periodic":
                cnt += 3
                if (ctr[s[1]] & s[2]) == 0:
                    cnt += self.walk(s[3], ctr, i)
            else:
                cnt += 7
                self.r8 = (self.r8 * 5 + 1) & M32
                if self.r8 & (1 << (s[1] + 8)):
                    cnt += self.walk(s[2], ctr, i)
        return cnt


def main(make=None, default=1500000):
    """SEED [N] [--expect]: make(SEED, N) (Prog: N the most instructions) as source or figures."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < (1 if default else 2):
        sys.exit("usage: %s SEED %s [--expect]" % (sys.argv[0], "[MOST]" if default else "ROUNDS"))
    p = (make or Prog)(int(args[0]), int(args[1]) if len(args) > 1 else default)
    if "--expect" in sys.argv:
        p.run()
        print("total %d" % p.total)
        for n in p.names:
            print("%s %d %d" % (n, p.calls[n], p.self_[n]))
    else:
        sys.stdout.write(p.source())


if __name__ == "__main__":
    main()
