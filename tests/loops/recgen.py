#!/usr/bin/env python3
"""tests/loops/recgen.py SEED [MOST] [--expect | --arcs | --folded] -- a random S/370 program
of recursive routines, and what it executes.

Recursion is a shape users' programs have and gen.py's do not (there a routine calls only
higher-numbered ones): PL/I RECURSIVE procedures, reentrant assembler, C. Drawn from SEED:
MAIN and REC1..RECk (k 1-4). MAIN calls REC routines with a depth (in R1: 2-14, or 15-120 one time in five); each RECi
calls any REC routine, itself included (direct and mutual recursion), with the depth less
one, while the depth is not 0. Around the calls: gen.py's straight code, short loops (BCT,
trip 1-8, 1-2 deep; a call inside a loop recurses on every iteration), blocks taken on a
period of a loop's counter and on a pseudo-random bit (the LCG in R8, which each callee's
LM gives back). OS linkage with the stack of save areas (tests/programs/s370.inc PROLOGUE,
EPILOGUE), FORTRAN G entries so that the image names every routine. A recursive call:

    LTR R1,R1; BZ skip; BCTR R1,0; L R15,=A(RECj); BALR R14,R15; LA R1,1(,R1); skip:

(the callee's LM gives R1 back as it was at its entry, the depth less one). Shapes are
drawn until one executes at most MOST instructions (default 300 000) with every
conditional block taken, and at least a fifteenth of that as it runs.

What it executes, walked from the same shape (not by running it):
  --expect  `total N`, then `ROUTINE calls self` per routine (gen.py's lines)
  --arcs    `CALLER CALLEE calls` per pair that calls
  --folded  `MAIN;REC2;REC2;REC1 N`: the self instructions of each calling path, outermost
            first, as flame graphs' folded stacks count them
These are the figures fst must report (tests/e2e/recursion.sh).
"""
import sys

import gen

M32 = gen.M32
SAVE = 72


class RecProg(gen.Prog):
    # gen.py's straight code with R1 kept for the depth
    STRAIGHT = ["lr      %r0,%r4", "ar      %r0,%r4", "la      %r4,1(%r4)", "sr      %r3,%r3",
                "l       %r4,K7", "lr      %r3,%r4"]

    def __init__(self, seed, most):
        self.rng = gen.random.Random(seed)
        while True:
            self.draw()
            if self.bound() <= most and self.run().total >= most // 15:
                break

    def draw(self):
        r = self.rng
        self.nsub = r.randint(1, 4)
        self.names = ["MAIN"] + ["REC%d" % i for i in range(1, self.nsub + 1)]
        self.bodies = {}
        self.consts = {n: [] for n in self.names}
        for i, n in enumerate(self.names):
            self.cur, self.idx = n, i
            self.bodies[n] = self.block(0, r.randint(1, 3) if i == 0 else r.randint(2, 4), top=True)
        # every REC routine reached: MAIN calls each one at least once, at the end
        for j in range(1, self.nsub + 1):
            if not self.reached(j):
                self.bodies["MAIN"].append(("dcall", j, self.depth()))

    def depth(self):
        """A depth MAIN calls with: mostly shallow (where calls fan out), now and then deep."""
        r = self.rng
        return r.randint(2, 14) if r.random() < 0.8 else r.randint(15, 120)

    def reached(self, j):
        seen, todo = set(), [0]
        while todo:
            i = todo.pop()
            if i in seen:
                continue
            seen.add(i)
            todo += [s[1] for s in self.stmts(self.bodies[self.names[i]]) if s[0] in ("dcall", "rcall")]
        return j in seen

    def stmts(self, b):
        for s in b:
            yield s
            if s[0] == "loop":
                yield from self.stmts(s[2])
            elif s[0] == "periodic":
                yield from self.stmts(s[3])
            elif s[0] == "random":
                yield from self.stmts(s[2])

    def block(self, depth, n, top=False):
        r = self.rng
        out = []
        for _ in range(n):
            kinds = ["straight"] * 3 + ["call"] * 3
            if depth < 2:
                kinds += ["loop"] * 2
            if depth > 0:
                kinds += ["periodic", "random"]
            k = r.choice(kinds)
            if k == "straight":
                out.append(("straight", r.randint(1, 6)))
            elif k == "loop":
                out.append(("loop", r.randint(1, 8), self.block(depth + 1, r.randint(1, 2))))
            elif k == "call" and self.idx == 0:
                out.append(("dcall", r.randint(1, self.nsub), self.depth()))
            elif k == "call":
                out.append(("rcall", r.randint(1, self.nsub)))
            elif k == "periodic":
                out.append(("periodic", depth - 1, (1 << r.randint(1, 3)) - 1, self.block(depth, 1)))
            else:
                out.append(("random", r.randint(0, 20), self.block(depth, 1)))
        return out

    def bound(self):
        """At most how many instructions it executes (every conditional block taken)."""
        memo = {}

        def rout(i, d):
            if (i, d) not in memo:
                memo[(i, d)] = 0   # (not reached: every call lowers d)
                memo[(i, d)] = 10 + blk(self.bodies[self.names[i]], d)
            return memo[(i, d)]

        def blk(b, d):
            c = 0
            for s in b:
                if s[0] == "straight":
                    c += s[1]
                elif s[0] == "loop":
                    c += 1 + s[1] * (blk(s[2], d) + 1)
                elif s[0] == "dcall":
                    c += 3 + rout(s[1], s[2])
                elif s[0] == "rcall":
                    c += 6 + rout(s[1], d - 1) if d > 0 else 2
                elif s[0] == "periodic":
                    c += 3 + blk(s[3], d)
                else:
                    c += 7 + blk(s[2], d)
                if c > 1 << 40:
                    return c
            return c
        return 11 + blk(self.bodies["MAIN"], 0)

    # ---- the assembler source ----
    def emit_block(self, b, depth, lines):
        for s in b:
            if s[0] == "dcall":
                lines.append("l       %r1," + self.const(s[2]))
                lines.append("l       %r15," + self.const_addr(self.names[s[1]]))
                lines.append("balr    %r14,%r15")
            elif s[0] == "rcall":
                lab = self.label()
                lines += ["ltr     %r1,%r1", "bz      %s-%s(%%r12)" % (lab, self.cur), "bctr    %r1,0",
                          "l       %r15," + self.const_addr(self.names[s[1]]), "balr    %r14,%r15",
                          "la      %r1,1(%r1)", "%s:" % lab]
            else:
                super().emit_block([s], depth, lines)

    def source(self):
        src = super().source()
        # the stack of save areas: one for the stub's call of MAIN, one a frame below it
        deep = 2 + max([s[2] for n in self.names for s in self.stmts(self.bodies[n]) if s[0] == "dcall"])
        return src.replace(".Lsaves: .fill  8*72, 1, 0", ".Lsaves: .fill  %d*72, 1, 0" % (deep + 2))

    # ---- what it executes, by walking the shape ----
    def run(self):
        self.calls = {n: 0 for n in self.names}
        self.self_ = {n: 0 for n in self.names}
        self.arcs = {}
        self.folded = {}
        self.path = []
        self.total = 5   # the stub, outside
        self.r8 = 0
        self.routine(0, 0)
        return self

    def routine(self, i, d):
        n = self.names[i]
        self.path.append(n)
        saved = self.r8      # the callee's LM restores the caller's R8
        self.d = d
        count = 7 + 3        # B, PROLOGUE 6; EPILOGUE 3
        if n == "MAIN":
            count += 1
            self.r8 = 12345
        count += self.walk(self.bodies[n], [], i)
        self.self_[n] += count
        self.total += count
        key = ";".join(self.path)
        self.folded[key] = self.folded.get(key, 0) + count
        self.r8 = saved
        self.path.pop()

    def call(self, i, j, d):
        self.calls[self.names[j]] += 1
        arc = (self.names[i], self.names[j])
        self.arcs[arc] = self.arcs.get(arc, 0) + 1
        mine = self.d
        self.routine(j, d)
        self.d = mine

    def walk(self, b, ctr, i):
        cnt = 0
        for s in b:
            if s[0] == "dcall":
                cnt += 3
                self.call(i, s[1], s[2])
            elif s[0] == "rcall":
                cnt += 2
                if self.d > 0:
                    cnt += 4
                    self.call(i, s[1], self.d - 1)
            else:
                cnt += super().walk([s], ctr, i)
        return cnt


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit("usage: %s SEED [MOST] [--expect | --arcs | --folded]" % sys.argv[0])
    p = RecProg(int(args[0]), int(args[1]) if len(args) > 1 else 300000)
    if "--expect" in sys.argv or "--arcs" in sys.argv or "--folded" in sys.argv:
        p.run()
    if "--expect" in sys.argv:
        print("total %d" % p.total)
        for n in p.names:
            print("%s %d %d" % (n, p.calls[n], p.self_[n]))
    elif "--arcs" in sys.argv:
        for (a, b), c in sorted(p.arcs.items()):
            print("%s %s %d" % (a, b, c))
    elif "--folded" in sys.argv:
        for k, c in sorted(p.folded.items()):
            print("%s %d" % (k, c))
    else:
        sys.stdout.write(p.source())


if __name__ == "__main__":
    main()
