#!/usr/bin/env python3
"""tests/loops/fortgen.py SEED ROUNDS [--expect] -- a call-heavy FORTRAN-style program.

The shape users' FORTRAN jobs have and tight loops do not (issue 33): a mainline that
calls four routines in a pattern longer than a loop folder's 8 branches, a call every
40-odd instructions. Drawn from SEED: MAIN runs ROUNDS rounds of a pattern of 9-16 calls
to SUB1..SUB4 (each drawn); each SUBi is 10-30 straight instructions, a short loop (trip
1-6) of 2-6, a branch on a pseudo-random bit (bit 16-22 of an LCG in R8, gen.py's: no period a replay could fold) around 1-6 more,
and in half of them a call to the leaf SUB5 (whose body is 5-15 straight instructions).
FORTRAN G linkage (tests/programs/s370.inc's FORTG, PROLOGUE, EPILOGUE), built as
tests/loops/build.sh builds gen.py's programs (FST_GEN=fortgen.py).

With --expect it prints what the program executes, walked from the same shape (gen.py's
walk: `total N`, then `ROUTINE calls self`): keep ROUNDS small there, the walk is Python's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


class FortProg(gen.Prog):
    def __init__(self, seed, rounds):
        self.rounds = rounds
        self.rng = gen.random.Random(seed)
        self.draw()

    def draw(self):
        r = self.rng
        self.nsub = 5
        self.names = ["MAIN"] + ["SUB%d" % i for i in range(1, 6)]
        self.consts = {n: [] for n in self.names}
        pattern = [("call", r.randint(1, 4)) for _ in range(r.randint(9, 16))]
        self.bodies = {"MAIN": [("loop", self.rounds, pattern)]}
        for i in range(1, 5):
            body = [("straight", r.randint(10, 30)),
                    ("loop", r.randint(1, 6), [("straight", r.randint(2, 6))]),
                    ("random", r.randint(8, 14), [("straight", r.randint(1, 6))])]
            if r.random() < 0.5:
                body.insert(r.randint(0, 3), ("call", 5))
            self.bodies["SUB%d" % i] = body
        self.bodies["SUB5"] = [("straight", r.randint(5, 15))]


if __name__ == "__main__":
    gen.main(FortProg, default=None)
