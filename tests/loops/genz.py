#!/usr/bin/env python3
"""tests/loops/genz.py SEED m31|m64 [MOST] -- a random ESA/390 (m31) or z/Architecture (m64)
program of loops, and what it executes.

The ESA/390 and z/Architecture counterpart of gen.py: the same shapes drawn from SEED
(routines main and sub1..subk, a routine calls only higher-numbered ones; each a random
nest of loops 1-3 deep with trip counts 1-900, straight code, calls, blocks taken on a
period of an enclosing loop's counter and on a pseudo-random bit of an LCG in R8), written
with the branches of those architectures, each loop closed by one drawn from all of them:
BRCT, BRC, BRCL, BCT, BC, BXH, BRXH, and for z/Architecture BRCTG, BCTG, BCTGR, BXHG,
BRXHG and compare and branch (CRJ, CLRJ, CIJ, CLIJ, CRB, CLRB, CIB, CLIB, CGRJ, CLGRJ,
CGIJ, CLGIJ, CGRB, CLGRB, CGIB, CLGIB: the assembler takes them in z/Architecture mode
only). Calls by BRASL, BRAS or
LARL and BASR; returns by BR; z/Architecture switches to 31-bit addressing and back (SAM31,
SAM64) now and then; SVCs now and then, whose handler (its new PSW set by main) goes
back by LPSW or LPSWE of the SVC old PSW. Shapes are drawn until one executes at most MOST instructions
(default 300 000) with every conditional block taken, and at least a fifteenth of that.

Written as a .S file for tests/cprogs/build.sh (linked after crt0.S, which calls main):
    tests/cprogs/build.sh zloop.S m64-z196-O0 OUT
With --expect it prints what the program executes, by walking the shape (not by running
it): `total N` (crt0's instructions included), then `ROUTINE calls self` per routine.
Registers: R2, R6, R7, R10 the loop counters by depth; R8 the LCG, R9 and R5 scratch; R12
= -1 and R13 = 0 (BXH's pair: add -1, compare with 0); R11 a branch address; R0, R1, R3,
R4 the straight code's; R14 and R15 the linkage (each routine saves R2-R14 on the stack).
"""
import random
import sys

COUNTERS = ["%r2", "%r6", "%r7", "%r10"]
M32 = 0xFFFFFFFF
# loop closers: (name, instructions each iteration after the body, the 64-bit ones)
CLOSE31 = ["brct", "brc", "brcl", "bct", "bc", "bxh", "brxh"]
CLOSE64 = ["brctg", "bctg", "bctgr", "bxhg", "brxhg", "crj", "clrj", "cij", "clij", "crb", "clrb", "cib",
           "clib", "cgrj", "clgrj", "cgij", "clgij", "cgrb", "clgrb", "cgib", "clgib"]
CALLS = ["brasl", "bras", "basr"]


class Prog:
    def __init__(self, seed, bits, most):
        self.z = bits == 64
        self.rng = random.Random(seed * 2 + self.z)
        while True:
            self.draw()
            if most // 15 <= self.bound() <= most:
                break

    def closers(self):
        return CLOSE31 + (CLOSE64 if self.z else [])

    @staticmethod
    def close_len(k):
        if k in ("brct", "brctg", "brxh", "brxhg"):
            return 1
        if k in ("bc",) or k[-1] == "b":   # a base-displacement target: LARL first
            return 3
        return 2

    @staticmethod
    def call_len(form):
        return 2 if form == "basr" else 1

    def bound(self):
        memo = {}

        def rout(i):
            if i not in memo:
                memo[i] = 8 + blk(self.bodies[self.names[i]])
            return memo[i]

        def blk(b):
            c = 0
            for s in b:
                k = s[0]
                c += (s[1] if k == "straight" else 2 if k in ("mode", "svc")
                      else 1 + s[1] * (blk(s[3]) + self.close_len(s[2])) if k == "loop"
                      else self.call_len(s[2]) + rout(s[1]) if k == "call"
                      else 2 + blk(s[3]) if k == "periodic" else 8 + blk(s[2]))
            return c
        return rout(0)

    def draw(self):
        self.nsub = self.rng.randint(0, 4)
        self.names = ["main"] + ["sub%d" % i for i in range(1, self.nsub + 1)]
        self.bodies = {}
        for i, n in enumerate(self.names):
            self.idx = i
            self.bodies[n] = self.block(0, self.rng.randint(1, 3), top=True)

    def block(self, depth, n, top=False):
        r = self.rng
        out = []
        for _ in range(n):
            kinds = ["straight"] * 3 + ["svc"] + (["mode"] if self.z else [])
            if depth < 3:
                kinds += ["loop"] * (4 if top else 2)
            if self.idx < self.nsub:
                kinds += ["call"] * 2
            if depth > 0:
                kinds += ["periodic", "random"]
            k = r.choice(kinds)
            if k == "straight":
                out.append(("straight", r.randint(1, 6)))
            elif k in ("mode", "svc"):
                out.append((k,))
            elif k == "loop":
                trip = r.choice([r.randint(1, 8), r.randint(2, 60), r.randint(50, 900)])
                out.append(("loop", trip, r.choice(self.closers()), self.block(depth + 1, r.randint(1, 3))))
            elif k == "call":
                out.append(("call", r.randint(self.idx + 1, self.nsub), r.choice(CALLS)))
            elif k == "periodic":
                out.append(("periodic", depth - 1, (1 << r.randint(1, 4)) - 1, self.block(depth, 1)))
            else:
                out.append(("random", r.randint(0, 20), self.block(depth, 1)))
        return out

    # ---- the assembler source ----
    def label(self):
        self.nlab = getattr(self, "nlab", 0) + 1
        return ".Ll%d" % self.nlab

    def close(self, k, c, lab, lines):
        dec = "aghi    %s,-1" % c if self.z else "ahi     %s,-1" % c
        cmp = k[:-1] if k[-1] in "jb" else k
        cond = "ne" if cmp.startswith("cl") else "h"
        if k in ("brct", "brctg", "brxh", "brxhg"):
            lines.append({"brct": "brct    %s,%s", "brctg": "brctg   %s,%s",
                          "brxh": "brxh    %s,%%r12,%s", "brxhg": "brxhg   %s,%%r12,%s"}[k] % (c, lab))
        elif k in ("bct", "bctg", "bctgr", "bxh", "bxhg"):
            lines.append("larl    %%r11,%s" % lab)
            lines.append({"bct": "bct     %s,0(%%r11)", "bctg": "bctg    %s,0(%%r11)",
                          "bctgr": "bctgr   %s,%%r11", "bxh": "bxh     %s,%%r12,0(%%r11)",
                          "bxhg": "bxhg    %s,%%r12,0(%%r11)"}[k] % c)
        elif k in ("brc", "brcl"):
            lines += [dec, ("jnz     %s" if k == "brc" else "jgnz    %s") % lab]
        elif k == "bc":
            lines += [dec, "larl    %%r11,%s" % lab, "bnz     0(%r11)"]
        elif k[-1] == "j":   # compare and branch relative: with R13 (0) or the immediate 0
            opnd = "0" if "i" in cmp[1:] else "%r13"
            lines += [dec, "%sj%s %s,%s,%s" % (cmp, cond, c, opnd, lab)]
        else:                # compare and branch: to 0(R11)
            opnd = "0" if "i" in cmp[1:] else "%r13"
            lines += [dec, "larl    %%r11,%s" % lab, "%s%s %s,%s,0(%%r11)" % (cmp + "b", cond, c, opnd)]

    def emit_block(self, b, depth, lines):
        for s in b:
            if s[0] == "straight":
                for _ in range(s[1]):
                    lines.append(self.rng.choice(["lr      %r0,%r1", "ar      %r0,%r1", "la      %r1,1(%r1)",
                                                  "sr      %r3,%r3", "lhi     %r4,7", "lr      %r3,%r4"]))
            elif s[0] == "mode":
                lines += ["sam31", "sam64"]
            elif s[0] == "svc":
                lines.append("svc     %d" % self.rng.randint(0, 255))
            elif s[0] == "loop":
                c = COUNTERS[depth]
                lab = self.label()
                lines.append(("lghi    %s,%d" if self.z else "lhi     %s,%d") % (c, s[1]))
                lines.append("%s:" % lab)
                self.emit_block(s[3], depth + 1, lines)
                self.close(s[2], c, lab, lines)
            elif s[0] == "call":
                name = self.names[s[1]]
                if s[2] == "basr":
                    lines += ["larl    %%r11,%s" % name, "basr    %r14,%r11"]
                else:
                    lines.append("%s   %%r14,%s" % (s[2], name))
            elif s[0] == "periodic":
                lab = self.label()
                lines += ["tmll    %s,%d" % (COUNTERS[s[1]], s[2]), "jnz     %s" % lab]
                self.emit_block(s[3], depth, lines)
                lines.append("%s:" % lab)
            else:
                lab = self.label()
                lines += ["lr      %r9,%r8", "sll     %r8,2", "alr     %r8,%r9", "ahi     %r8,1",
                          "lr      %r5,%r8", "srl     %%r5,%d" % (s[1] + 8), "tmll    %r5,1", "jz      %s" % lab]
                self.emit_block(s[2], depth, lines)
                lines.append("%s:" % lab)

    def source(self):
        g = "g" if self.z else ""
        frame, save = (160, 48) if self.z else (96, 40)
        ah = "aghi" if self.z else "ahi "
        lines = ["        .text"]
        for i, n in enumerate(self.names):
            body = []
            if n == "main": # the constants; the SVC new PSW: the handler below
                body += ["l%shi    %%r12,-1" % g, "l%shi    %%r13,0" % g, "lhi     %r8,12345",
                         "larl    %r1,.Lsvcpsw", "mvc     %s(%d,%%r0),0(%%r1)" % (("0x1c0", 16) if self.z else ("0x60", 8))]
            self.emit_block(self.bodies[n], 0, body)
            lines += ["        .globl  %s" % n, "        .type   %s,@function" % n, "        .balign 8", "%s:" % n,
                      "        %s    %%r15,-%d" % (ah, frame), "        stm%s    %%r2,%%r14,%d(%%r15)" % (g, save)]
            lines += [l if l.endswith(":") else "        " + l for l in body]
            lines += ["        lm%s     %%r2,%%r14,%d(%%r15)" % (g, save), "        %s    %%r15,%d" % (ah, frame),
                      "        br      %r14", "        .size   %s,.-%s" % (n, n)]
        # the SVC handler: back where the SVC left, by the SVC old PSW (no symbol: outside)
        lines += [".Lsvc:  %s" % ("lpswe   0x140" if self.z else "lpsw    0x20"), "        .balign 8"]
        lines.append(".Lsvcpsw: .long 0x00000001, 0x80000000, 0, .Lsvc" if self.z else
                     ".Lsvcpsw: .long 0x00080000, 0x80000000 + .Lsvc")
        lines.append('        .section .note.GNU-stack,"",@progbits')
        return "\n".join(lines) + "\n"

    # ---- what it executes, by walking the shape ----
    def run(self):
        self.calls = {n: 0 for n in self.names}
        self.self_ = {n: 0 for n in self.names}
        self.total = 8 if self.z else 5   # crt0.S: outside
        self.r8 = 0
        self.routine(0)
        return self

    def routine(self, i):
        n = self.names[i]
        saved = self.r8    # the callee's LM restores the caller's R8
        count = 5          # the frame: AHI, STM; LM, AHI, BR
        if n == "main":
            count += 5
            self.r8 = 12345
        count += self.walk(self.bodies[n], [])
        self.self_[n] += count
        self.total += count
        self.r8 = saved

    def walk(self, b, ctr):
        cnt = 0
        for s in b:
            if s[0] == "straight":
                cnt += s[1]
            elif s[0] in ("mode", "svc"):  # SAM31, SAM64; SVC and the handler's LPSW(E)
                cnt += 2
            elif s[0] == "loop":
                cnt += 1
                for it in range(s[1]):
                    cnt += self.walk(s[3], ctr + [s[1] - it]) + self.close_len(s[2])
            elif s[0] == "call":
                cnt += self.call_len(s[2])
                self.calls[self.names[s[1]]] += 1
                self.routine(s[1])
            elif s[0] == "periodic":
                cnt += 2
                if (ctr[s[1]] & s[2]) == 0:
                    cnt += self.walk(s[3], ctr)
            else:
                cnt += 8
                self.r8 = (self.r8 * 5 + 1) & M32
                if (self.r8 >> (s[1] + 8)) & 1:
                    cnt += self.walk(s[2], ctr)
        return cnt


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2 or args[1] not in ("m31", "m64"):
        sys.exit("usage: genz.py SEED m31|m64 [MOST] [--expect]")
    p = Prog(int(args[0]), 64 if args[1] == "m64" else 31, int(args[2]) if len(args) > 2 else 300000)
    if "--expect" in sys.argv:
        p.run()
        print("total %d" % p.total)
        for n in p.names:
            print("%s %d %d" % (n, p.calls[n], p.self_[n]))
    else:
        sys.stdout.write(p.source())


if __name__ == "__main__":
    main()
