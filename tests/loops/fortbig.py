#!/usr/bin/env python3
"""tests/loops/fortbig.py SEED MOST [--expect] -- a FORTRAN load module, spread over pages.

fortgen.py's shape grown to a job's size: its programs, like every other generator's, fit
in one 4K page, and the module and the replay each once lost half their speed on code in
many pages (docs/internals.md, "Code in more pages than one"). Drawn from SEED: MAIN, 8-30
routines SUBi in three levels and 3-6 library leaves LIBj (as IBCOM's and the math
library's routines are called from everywhere), each routine after a drawn gap (none, a
few hundred bytes, a page and more, or now and then tens of KiB: 15-600 KiB of image in
all, routines across page ends, pages 128 KiB apart). MAIN runs a pattern of 9-30 calls
to the first level (longer than a loop folder's 8 branches) for as many rounds as keep it
near MOST instructions; a routine calls the next level's and the library's, some calls
inside DO loops (BCT, trip 1-12, two deep), with straight code, branches on a period and
on a pseudo-random bit (gen.py's LCG in R8). Nothing recurses (FORTRAN's rule). Built as
tests/loops/build.sh builds gen.py's programs (FST_GEN=fortbig.py).

With --expect it prints what the program executes, walked from the same shape (gen.py's
walk): `total N`, then `ROUTINE calls self`. Keep MOST small there: the walk is Python's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

LEVELS = 3


class BigProg(gen.Prog):
    SAVES = LEVELS + 4   # the stub, MAIN, three levels, a library leaf

    def __init__(self, seed, most):
        self.rng = gen.random.Random(seed)
        while True:   # a call every 20 to 150 instructions, one round at most 60 000
            state = self.rng.getstate()
            self.draw(1)
            once = self.run().total
            calls = sum(self.calls.values())
            if once <= 60000 and calls * 20 <= once <= calls * 150:
                break
        self.rng.setstate(state)   # the same shape again, its rounds set
        self.draw(max(1, most // once))

    def draw(self, rounds):
        r = self.rng
        nsub, nlib = r.randint(8, 30), r.randint(3, 6)
        self.nsub = nsub + nlib
        self.names = ["MAIN"] + ["SUB%d" % i for i in range(1, nsub + 1)] + \
                     ["LIB%d" % i for i in range(1, nlib + 1)]
        self.level = [0] + [1 + (i * LEVELS) // nsub for i in range(nsub)] + [LEVELS + 1] * nlib
        self.libs = list(range(nsub + 1, nsub + nlib + 1))
        self.consts = {n: [] for n in self.names}
        self.gaps = [r.choice([0, 0, r.randint(8, 1500), r.randint(3000, 9000), r.randint(3000, 9000),
                               r.randint(8, 1500), 0, 0, 0, r.randint(12000, 60000)]) for _ in self.names]
        first = [i for i, lv in enumerate(self.level) if lv == 1]
        pattern = []
        for _ in range(r.randint(9, 30)):
            pattern.append(("call", r.choice(first)))
            if r.random() < 0.3:
                pattern.append(("straight", r.randint(1, 8)))
        self.bodies = {"MAIN": [("loop", rounds, pattern)]}
        for i, n in enumerate(self.names[1:], 1):
            if self.level[i] > LEVELS:
                body = [("straight", r.randint(4, 20))]
                if r.random() < 0.5:
                    body.append(("loop", r.randint(1, 4), [("straight", r.randint(2, 5))]))
            else:
                callees = [j for j, lv in enumerate(self.level) if lv == self.level[i] + 1] + self.libs
                body = self.body(0, r.randint(3, 8), callees)
            self.bodies[n] = body

    def body(self, depth, n, callees):
        r = self.rng
        out = []
        for _ in range(n):
            kinds = ["straight"] * 3 + ["call"] * 3 + ["random"] + (["loop"] * 2 if depth < 2 else []) + \
                    (["periodic"] if depth > 0 else [])
            k = r.choice(kinds)
            if k == "straight":
                out.append(("straight", r.randint(3, 40)))
            elif k == "call":
                out.append(("call", r.choice(callees)))
            elif k == "loop":
                out.append(("loop", r.randint(1, 12), self.body(depth + 1, r.randint(1, 3), callees)))
            elif k == "periodic":
                out.append(("periodic", depth - 1, (1 << r.randint(1, 3)) - 1, self.body(depth, 1, callees)))
            else:
                out.append(("random", r.randint(0, 20), [("straight", r.randint(1, 8))]))
        return out

    def place(self, i):
        return ["        .fill   %d, 1, 0" % self.gaps[i]] if self.gaps[i] else []


if __name__ == "__main__":
    gen.main(BigProg, default=None)
