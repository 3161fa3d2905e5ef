#!/usr/bin/env python3
"""tests/cprogs/cgen.py SEED [--expect] -- a random C program of branchy, recursive code, and
what it calls.

The shape gcc makes of users' C and PL/I-like code, drawn from SEED, for tests/cprogs/build.sh
(freestanding, crt0.S calls main): functions f1..fk (k 3-8) and main, each `unsigned
fI(unsigned x, unsigned d)` over a 32-bit state `a` that an LCG step mixes before every
decision. Statements: arithmetic; `if` on a bit of `a` (both arms drawn); `switch` on two
bits (gcc -O2 may make a jump table of it); a short `for` loop (trip 1-6, 1-2 deep) around
a block; a call of a higher-numbered function with the same depth; a recursive call, of any
function up to and including itself, `if (d > 0) a += fJ(a ^ K, d - 1);`; and, in some
programs, a tail call `return fJ(a, d);` (J higher) that gcc -O2 makes a sibling call.
Every function is noinline and noipa: nm lists them all, as written, and no call is
folded away. main calls f1..f3 with depths 1-6 and stores the result in a volatile, ROUNDS
times (-DROUNDS=N, default 1: make bench's long runs; --expect is for 1).

With --expect it prints what the program calls, by running the same statements in Python
(unsigned 32-bit arithmetic, as C's), in tests/cprogs/EXPECTED's fact lines without the
program name: `functions F...`, `calls F N` (main 0), `arc CALLER CALLEE N`, `stack
main;...;F N` (calls per calling context), `depth N` (the deepest stack's frames), and
`sibcalls` when a tail call is written (then the contexts hold at -O0, and calls and arcs
at -O2 with fst-report --tail-calls). tests/e2e/cgen.sh checks fst against them.
"""
import random
import sys

M = 0xFFFFFFFF
MAX_STEPS = 150000      # statements a program may run (drawn again beyond)


class Toobig(Exception):
    pass


class CProg:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        while True:
            self.draw()
            try:
                self.run()
            except Toobig:
                continue
            ncalls = sum(self.calls.values())
            if 200 <= ncalls <= 20000 and all(self.calls[f] for f in self.names[1:]):
                break

    # ---- the shape ----
    def draw(self):
        r = self.rng
        self.k = r.randint(3, 8)
        self.names = ["main"] + ["f%d" % i for i in range(1, self.k + 1)]
        self.tails = r.random() < 0.5
        self.bodies = {}
        for i in range(1, self.k + 1):
            self.idx = i
            b = self.block(0, r.randint(2, 5))
            if self.tails and i < self.k and r.random() < 0.5:
                b.append(("tail", r.randint(i + 1, self.k)))
            self.bodies[self.names[i]] = b
        self.main = [(r.randint(1, min(3, self.k)), r.randint(1, 6), r.getrandbits(32))
                     for _ in range(r.randint(1, 4))]

    def block(self, depth, n):
        r = self.rng
        out = []
        for _ in range(n):
            kinds = ["arith"] * 2
            if depth < 3:
                kinds += ["if"] * 3 + ["switch"]
            if depth < 2:
                kinds += ["loop"]
            if self.idx < self.k:
                kinds += ["call"] * 2
            kinds += ["rcall"] * 2
            k = r.choice(kinds)
            if k == "arith":
                out.append(("arith", r.randint(0, 2), r.getrandbits(16) | 1))
            elif k == "if":
                out.append(("if", r.randint(0, 31), r.getrandbits(16), self.block(depth + 1, r.randint(0, 2)),
                            self.block(depth + 1, r.randint(0, 2))))
            elif k == "switch":
                out.append(("switch", r.randint(0, 30), r.getrandbits(16),
                            [self.block(depth + 1, r.randint(0, 2)) for _ in range(4)]))
            elif k == "loop":
                out.append(("loop", r.randint(1, 6), self.block(depth + 1, r.randint(1, 2))))
            elif k == "call":
                out.append(("call", r.randint(self.idx + 1, self.k)))
            else:
                out.append(("rcall", r.randint(1, self.idx), r.getrandbits(16)))
        return out

    # ---- the C source ----
    def c_block(self, b, ind, out):
        p = "    " * ind
        for s in b:
            if s[0] == "arith":
                out.append(p + ["a = a * 1103515245u + %du;" % s[2], "a ^= a >> %d;" % (s[2] % 17 + 3),
                                "a += %du;" % s[2]][s[1]])
            elif s[0] == "if":
                out.append(p + "a = a * 69069u + %du;" % s[2])
                out.append(p + "if ((a >> %d) & 1u) {" % s[1])
                self.c_block(s[3], ind + 1, out)
                out.append(p + "} else {")
                out.append(p + "    a ^= %du;" % (s[2] ^ 0x5A5A))
                self.c_block(s[4], ind + 1, out)
                out.append(p + "}")
            elif s[0] == "switch":
                out.append(p + "a = a * 69069u + %du;" % s[2])
                out.append(p + "switch ((a >> %d) & 3u) {" % s[1])
                for c, arm in enumerate(s[3]):
                    out.append(p + ("case %d:" % c if c < 3 else "default:"))
                    out.append(p + "    a += %du;" % (c * 7 + 1))
                    self.c_block(arm, ind + 1, out)
                    out.append(p + "    break;")
                out.append(p + "}")
            elif s[0] == "loop":
                v = "i%d" % ind
                out.append(p + "for (unsigned %s = 0; %s < %du; %s++) {" % (v, v, s[1], v))
                out.append(p + "    a += %s;" % v)
                self.c_block(s[2], ind + 1, out)
                out.append(p + "}")
            elif s[0] == "call":
                out.append(p + "a += %s(a, d);" % self.names[s[1]])
            elif s[0] == "rcall":
                out.append(p + "if (d > 0u)")
                out.append(p + "    a += %s(a ^ %du, d - 1u);" % (self.names[s[1]], s[2]))
            elif s[0] == "tail":
                out.append(p + "return %s(a, d);" % self.names[s[1]])

    def source(self):
        out = ["/* generated by tests/cprogs/cgen.py: see its head */",
               "#define NOIPA __attribute__((noinline, noipa))", "#ifndef ROUNDS", "#define ROUNDS 1",
               "#endif", "", "volatile unsigned sink;", ""]
        for n in self.names[1:]:
            out.append("NOIPA unsigned %s(unsigned x, unsigned d);" % n)
        for n in self.names[1:]:
            out += ["", "NOIPA unsigned %s(unsigned x, unsigned d)" % n, "{", "    unsigned a = x;", "    (void)d;"]
            self.c_block(self.bodies[n], 1, out)
            if not self.bodies[n] or self.bodies[n][-1][0] != "tail":
                out.append("    return a ^ x;")
            out.append("}")
        out += ["", "int main(void)", "{", "    unsigned a = 0;", "    for (unsigned r = 0; r < ROUNDS; r++) {"]
        for j, d, v in self.main:
            out.append("        a += %s(a ^ %du, %du);" % (self.names[j], v, d))
        out += ["        sink = a;", "    }", "    return 0;", "}"]
        return "\n".join(out) + "\n"

    # ---- what it calls, by running it ----
    def run(self):
        self.calls = {n: 0 for n in self.names}
        self.arcs, self.stacks = {}, {}
        self.path = ["main"]
        self.depth = 1
        self.steps = 0
        a = 0
        for j, d, v in self.main:
            a = (a + self.call(0, j, a ^ v, d)) & M
        return self

    def call(self, i, j, x, d):
        n = self.names[j]
        self.calls[n] += 1
        arc = (self.names[i], n)
        self.arcs[arc] = self.arcs.get(arc, 0) + 1
        self.path.append(n)
        key = ";".join(self.path)
        self.stacks[key] = self.stacks.get(key, 0) + 1
        self.depth = max(self.depth, len(self.path))
        self.cur = j
        a, ret = self.exe(self.bodies[n], x & M, d, j)
        self.path.pop()
        return ret if ret is not None else (a ^ x) & M

    def exe(self, b, a, d, i):
        """Run block b in function i: (a, the value returned by a tail call or None)."""
        for s in b:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise Toobig()
            if s[0] == "arith":
                a = [(a * 1103515245 + s[2]) & M, a ^ (a >> (s[2] % 17 + 3)), (a + s[2]) & M][s[1]]
            elif s[0] == "if":
                a = (a * 69069 + s[2]) & M
                if (a >> s[1]) & 1:
                    a, ret = self.exe(s[3], a, d, i)
                else:
                    a, ret = self.exe(s[4], a ^ (s[2] ^ 0x5A5A), d, i)
                if ret is not None:
                    return a, ret
            elif s[0] == "switch":
                a = (a * 69069 + s[2]) & M
                c = (a >> s[1]) & 3
                a, ret = self.exe(s[3][c], (a + c * 7 + 1) & M, d, i)
                if ret is not None:
                    return a, ret
            elif s[0] == "loop":
                for v in range(s[1]):
                    a, ret = self.exe(s[2], (a + v) & M, d, i)
                    if ret is not None:
                        return a, ret
            elif s[0] == "call":
                a = (a + self.call(i, s[1], a, d)) & M
            elif s[0] == "rcall":
                if d > 0:
                    a = (a + self.call(i, s[1], a ^ s[2], d - 1)) & M
            elif s[0] == "tail":
                return a, self.call(i, s[1], a, d)
        return a, None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit("usage: %s SEED [--expect]" % sys.argv[0])
    p = CProg(int(args[0]))
    if "--expect" not in sys.argv:
        sys.stdout.write(p.source())
        return
    print("functions " + " ".join(p.names))
    for n in p.names:
        print("calls %s %d" % (n, p.calls[n]))
    for (a, b), c in sorted(p.arcs.items()):
        print("arc %s %s %d" % (a, b, c))
    for s, c in sorted(p.stacks.items()):
        print("stack %s %d" % (s, c))
    print("depth %d" % p.depth)
    if any(s[0] == "tail" for b in p.bodies.values() for s in b):
        print("sibcalls")


if __name__ == "__main__":
    main()
