#!/usr/bin/env python3
"""osgen.py -- a generator of small multitasking S/370 operating systems whose expected
profile figures come from their construction (tests/os/README.md).

    osgen.py --seed N [-o DIR] [--budget LO-HI]

writes DIR/osN.s (GNU as, -m31; includes tests/programs/s370.inc), DIR/osN.expected
(the expected figures and the layout, README.md "The expected file"), DIR/osN.map.csv
(a CSV map: name,type,origin,length) and DIR/osN.model (the bytes the generator meant
the program areas to hold: the harness compares them with what the assembler made).

Every system is a supervisor (supervisor state, key 0, DAT off, at 0x20000) and 3-6
problem-state tasks (EC mode, DAT on, key 8) in 1-3 address spaces. The generator builds
the tasks' programs as a small instruction list (IR) that it both prints as assembler and
interprets: the expected figures are what that interpreter counts under the rules of
DESIGN section 3 (problem-state instructions only; a call is a BALR/BAL with link
register 14 to a routine's entry; ...). The supervisor is not interpreted: its only
effects on a task are the documented SVC results (SVC_OUT) and, through page faults, the
repetition of a nullified instruction, both modelled. Output is a pure function of the
seed and the options (random.Random(seed)); nothing depends on the host.
"""
import argparse
import os
import random
import sys

VERSION = 1

# ---- the storage map (real addresses unless said) ---------------------------------
PAGE = 0x1000
NUC = 0x20000            # nucleus (supervisor code); the .text section starts here
EXIT_STUB = 0x2F000      # the tasks' exit: SVC 3 (problem state, DAT on, nucleus V=R)
TABLES = 0x2E000         # segment tables (64-byte aligned) and page tables
PROG_AT = (0x30000, 0x34000, 0x38000)   # each program's code, virtual = real
PROG_MAX = 0x4000        # at most 4 pages of code per program
SEG_PROG = 3             # 0x30000-0x3FFFF: the programs' segment
DATA_V = 0x80000         # the tasks' data (virtual), segment 8: 2 pages per task slot
SEG_DATA = 8
DATA_R = 0x40000         # the tasks' data frames (real): 2 per task
IMAGE_END = DATA_R + 6 * 2 * PAGE
SCRATCH = 0x100          # offset of the scratch word in a task's data area
RANGE = (0x30000, 0x3BFFF)   # the range traces: the programs only
SAVEAREA = 72
PTE_INV = 0x0008

# the low-core words the supervisor uses (real)
L_CURTCB = 0x300
L_CURTCB_D = 0x218       # style d: PSATNEW
L_OLDTCB_D = 0x21C       # style d: PSATOLD
L_LASTTCB = 0x304
L_IOOWNER = 0x308
L_NUCBASE = 0x30C
L_NOW = 0x310
L_NEXTCK = 0x318
L_ENDED = 0x320
L_JOINERS = 0x324
L_TMP = 0x328
L_PHASEN = 0x32C         # --job: the number of tasks of the running phase
L_PHASE = 0x330          # --job: the phase: 0 before the job, 1 the job, 2 after it
L_DSPPSW = 0x340         # style b: the common dispatch PSW; style d: PSAPSWSV
L_SAVE = 0x380           # the interrupted registers (64 bytes)
TCB_AT = 0x400
PSWTAB_AT = 0x900        # style c: the tasks' PSW blocks (8 bytes each)
SAVETAB_AT = 0xA00       # style c: the tasks' register save areas (64 bytes each)
RB_AT = 0xC00            # style d: the tasks' request blocks (32 bytes each)
ASCB_AT = 0xD00          # style d: one block per address space, +0 = its CR1 value

# the SVC results (R0, R1, R14, R15 change across an SVC, as under MVS; R2-R13 never)
R14_JUNK = 0x00FFF000    # R14 = R14_JUNK + SVC number
SVC_NAMES = {1: 'sleep', 2: 'io', 3: 'end', 4: 'join', 5: 'get', 6: 'yield'}

# --job: the job's name on the console (JES2's $HASP373 / $HASP395 lines, 3215 at 009), the
# TCB state of a task whose phase has not come yet, and at most 8 TCBs (style d's request
# blocks end at the space blocks, D00)
JOB_NAME = 'OSJOB'
S_HELD = 0x10
MAX_TCBS = 8

STYLES = {
    'a': 'PSW and registers in the TCB: per-task tail LCTL 1; LM 0,15,TCB+8; LPSW TCB+0',
    'b': 'PSW copied (MVC) from the TCB to one low-core PSW (340); LM 0,15,GR(1); LPSW 340',
    'c': 'registers from a save area the TCB points at (L 1,TCBSAVE(1); LM 0,15,0(1)); '
         'PSW from a per-task PSW block (LPSW 900+8i)',
    'd': 'MVS-like (IEAVEDS0 as documented): PSATNEW; CR1 from the space block; '
         'MVC PSAPSWSV,RBOPSW(RB from TCBRBP); LD FPRs from TCBFRS; LM 0,15,TCBGRS(1); '
         'LPSW PSAPSWSV',
}

EBCDIC = {}
for i, c in enumerate('ABCDEFGHI'):
    EBCDIC[c] = 0xC1 + i
for i, c in enumerate('JKLMNOPQR'):
    EBCDIC[c] = 0xD1 + i
for i, c in enumerate('STUVWXYZ'):
    EBCDIC[c] = 0xE2 + i
for i, c in enumerate('0123456789'):
    EBCDIC[c] = 0xF0 + i


def ebcdic_text(s):
    extra = {' ': 0x40, '.': 0x4B, '$': 0x5B, '-': 0x60}
    return bytes(extra.get(c) or EBCDIC[c] for c in s)


def job_lines(name=JOB_NAME):
    """The console lines of the job (JES2's, as tests/programs/mvsjob.s writes them)."""
    return (' 12.00.00 JOB    1  $HASP373 %-8s STARTED - INIT  1 - CLASS A - SYS FST1' % name,
            ' 12.00.01 JOB    1  $HASP395 %-8s ENDED' % name)

# op: (format, opcode, operand access: (length, 'r'|'w') or None)
OPS = {
    'LR': ('RR', 0x18), 'AR': ('RR', 0x1A), 'SR': ('RR', 0x1B), 'XR': ('RR', 0x17),
    'LTR': ('RR', 0x12), 'CR': ('RR', 0x19), 'BALR': ('RR', 0x05), 'BCR': ('RR', 0x07),
    'BCTR': ('RR', 0x06), 'SVC': ('I', 0x0A),
    'L': ('RX', 0x58), 'LA': ('RX', 0x41), 'ST': ('RX', 0x50), 'A': ('RX', 0x5A),
    'C': ('RX', 0x59), 'CH': ('RX', 0x49), 'BC': ('RX', 0x47), 'BAL': ('RX', 0x45),
    'BCT': ('RX', 0x46),
    'STM': ('RS', 0x90), 'LM': ('RS', 0x98), 'BXLE': ('RS', 0x87),
}
LEN = {'RR': 2, 'I': 2, 'RX': 4, 'RS': 4}


class GenError(Exception):
    pass


class Rel:
    """A displacement: address(label) - address(base) (+ off)."""
    def __init__(self, label, base, off=0):
        self.label, self.base, self.off = label, base, off


class Ins:
    """One instruction of a task program. r1/r2 (RR), r1/d/x/b (RX), r1/r3/d/b (RS),
    n (SVC). call: the callee routine when this is a call; ret: a returning branch."""
    __slots__ = ('op', 'r1', 'r2', 'd', 'x', 'b', 'call', 'ret', 'addr', 'dv', 'tag')

    def __init__(self, op, r1=0, r2=0, d=0, x=0, b=0, call=None, ret=False):
        self.op, self.r1, self.r2, self.d, self.x, self.b = op, r1, r2, d, x, b
        self.call, self.ret, self.addr, self.dv = call, ret, None, None
        self.tag = None

    @property
    def fmt(self):
        return OPS[self.op][0]

    @property
    def length(self):
        return LEN[self.fmt]

    def disp_text(self):
        if isinstance(self.d, Rel):
            t = '%s-%s' % (self.d.label, self.d.base)
            if self.d.off:
                t = '%s+%d' % (t, self.d.off)
            return t
        return '%d' % self.d

    def text(self):
        op = self.op.lower()
        f = self.fmt
        if f == 'I':
            return 'svc     %d' % self.r1
        if f == 'RR':
            if self.op == 'BCR':
                return 'bcr     %d,%%r%d' % (self.r1, self.r2)
            if self.op == 'BCTR' and self.r2 == 0:
                return 'bctr    %%r%d,0' % self.r1
            return '%-7s %%r%d,%%r%d' % (op, self.r1, self.r2)
        if f == 'RX':
            r1 = ('%d' % self.r1) if self.op == 'BC' else ('%%r%d' % self.r1)
            if self.x and self.b:
                m = '(%%r%d,%%r%d)' % (self.x, self.b)
            elif self.b:
                m = '(%%r%d)' % self.b
            elif self.x:
                m = '(%%r%d,0)' % self.x
            else:
                m = ''
            return '%-7s %s,%s%s' % (op, r1, self.disp_text(), m)
        # RS
        m = '(%%r%d)' % self.b if self.b else ''
        return '%-7s %%r%d,%%r%d,%s%s' % (op, self.r1, self.r2, self.disp_text(), m)

    def encode(self):
        opc = OPS[self.op][1]
        f = self.fmt
        if f == 'I':
            return bytes([opc, self.r1])
        if f == 'RR':
            return bytes([opc, (self.r1 << 4) | self.r2])
        d = self.dv
        assert 0 <= d < 4096, (self.op, d)
        if f == 'RX':
            return bytes([opc, (self.r1 << 4) | self.x, (self.b << 4) | (d >> 8), d & 0xFF])
        return bytes([opc, (self.r1 << 4) | self.r2, (self.b << 4) | (d >> 8), d & 0xFF])


# IR items other than Ins: tuples
#   ('lab', name)            a label
#   ('fentry', kind, name)   a FORTRAN entry (G or H): 47F0F00C, X'06'/X'07', name: 12 bytes
#   ('aentry', name)         a plain assembler entry (no bytes)
#   ('long', value|label)    ('short', value)    ('align', n)
#   ('skip',)                4 bytes never executed (after a call to a skip-return routine)
#   ('pagegap',)             continue at the last 6 bytes of the current page


def ebcdic_name(kind, name):
    b = [EBCDIC[c] for c in name]
    if kind == 'G':
        return bytes([0x06] + b + [0x40] * (7 - len(b)))
    return bytes([0x07] + [0x00] * (7 - len(b)) + b)


class Param:
    def __init__(self, off, role, lo, hi):
        self.off, self.role, self.lo, self.hi = off, role, lo, hi


class Routine:
    def __init__(self, prog, name, kind, role):
        self.prog, self.name, self.kind, self.role = prog, name, kind, role
        self.base = 'r15'          # r15: LR 12,15 (FORTRAN and most assembler); balr: BALR 12,0
        self.skipret = False       # returns with B 4(,14)
        self.ends = 'ret'          # mainline MAIN: ret | svc3 | join
        self.pagestart = False     # its entry at the start of a page invalid at first
        self.calls = []            # callee routines (forward only, and itself for REC)
        self.body = []             # statements
        self.items = []
        self.entry = self.end = None
        self.order = 0

    @property
    def fortran(self):
        return self.kind in 'GH'

    @property
    def kindname(self):
        return {'G': 'fortran-g', 'H': 'fortran-h'}.get(self.kind, 'assembler')

    @property
    def baselab(self):
        return self.name if self.base == 'r15' else '.Lb%s' % self.name


class Program:
    def __init__(self, idx, letter):
        self.idx, self.letter = idx, letter
        self.at = PROG_AT[idx]
        self.routines = []
        self.params = []
        self.invalid = set()       # code pages (virtual) invalid at first in its spaces
        self.forced_invalid = set()

    def param(self, role, lo, hi):
        off = 4 * len(self.params)
        assert off < SCRATCH
        p = Param(off, role, lo, hi)
        self.params.append(p)
        return p


class Space:
    def __init__(self, idx, prog):
        self.idx, self.prog = idx, prog
        self.tasks = []
        self.sto = None
        self.pt_prog = self.pt_data = None
        self.data_invalid = set()   # data pages (virtual) invalid at first
        self.xtasks = []            # --job: its tasks before and after the job
        self.xdata_invalid = set()  # --job: their data pages invalid at first

    @property
    def cr1(self):
        return self.sto


class Task:
    def __init__(self, idx, space, slot, mainline):
        self.idx, self.space, self.slot, self.mainline = idx, space, slot, mainline
        self.name = 'T%d' % (idx + 1)
        self.dv = DATA_V + slot * 2 * PAGE
        self.frames = (DATA_R + idx * 2 * PAGE, DATA_R + idx * 2 * PAGE + PAGE)
        self.stack = None
        self.values = {}
        self.val1 = self.val2 = None
        self.tcb = None
        self.lm = None              # the address the dispatcher's LM 0,15 loads it from
        self.phase = 'job'          # --job: 'before' / 'after' the job's window


# ======================================================================================
# generation of the structure
# ======================================================================================

class Gen:
    def __init__(self, seed, budget=None, attempt=0, job=False):
        self.seed = seed
        self.attempt = attempt
        self.job = job
        self.pre, self.post = [], []    # --job: the tasks before and after the job
        self.rng = random.Random(seed if attempt == 0 else seed * 1000 + attempt)
        self.budget = budget
        self.notes = []

    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    def generate(self):
        rng = self.rng
        self.style = self.pick('abcd')
        self.quantum = self.pick([300, 500, 800, 1200, 2000, 3000, 5000])
        ntasks = rng.randint(3, 6)
        nspaces = rng.randint(1, min(3, ntasks))
        if self.budget:
            self.lo, self.hi = self.budget
        else:
            self.lo = 20000
            self.hi = self.pick([40000, 60000, 90000, 150000])
        self.target = rng.randint(self.lo, (self.lo + self.hi) // 2)
        # programs: a space runs one program; spaces may share one
        if nspaces == 1:
            assign = [0]
        elif nspaces == 2:
            assign = self.pick([[0, 0], [0, 1]])
        else:
            assign = self.pick([[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0], [0, 1, 2]])
        nprogs = max(assign) + 1
        letters = rng.sample('ABCDEFGHKMPRSTW', nprogs)
        self.alt_wanted = self.chance(0.5)
        self.programs = [self.gen_program(i, letters[i]) for i in range(nprogs)]
        self.spaces = [Space(i, self.programs[assign[i]]) for i in range(nspaces)]
        # tasks: every space at least one, the rest at random
        owners = list(range(nspaces)) + [rng.randrange(nspaces) for _ in range(ntasks - nspaces)]
        owners.sort()
        self.tasks = []
        for i, s in enumerate(owners):
            sp = self.spaces[s]
            t = Task(i, sp, len(sp.tasks), None)
            sp.tasks.append(t)
            self.tasks.append(t)
        # mainlines: MAIN, or an alternative mainline (a routine MAIN also calls)
        for sp in self.spaces:
            alts = [r for r in sp.prog.routines if r.role == 'ALT']
            for t in sp.tasks:
                t.mainline = sp.prog.routines[0]
                if alts and (t.slot > 0 or len(sp.tasks) == 1 or self.chance(0.3)) and self.chance(0.5):
                    t.mainline = self.pick(alts)
        for p in self.programs:
            alts = [r for r in p.routines if r.role == 'ALT']
            users = [t for t in self.tasks if t.space.prog is p]
            if self.alt_wanted and alts and not any(t.mainline.role == 'ALT' for t in users):
                users[-1].mainline = alts[0]
        # the stack of each task: from offset s of its data area (at least 0x200); some
        # start so that the save areas tile the first page exactly and deeper frames go
        # to the second page (a data page fault inside a callee's prologue)
        for t in self.tasks:
            if self.chance(0.5):
                k = rng.randint(2, 5)
                t.stack = PAGE - SAVEAREA * k
            else:
                t.stack = 0x200 + SAVEAREA * rng.randint(0, 20)
        # pages invalid at first: code pages per program (all its spaces), data pages
        for sp in self.spaces:
            for t in sp.tasks:
                for k in range(2):
                    if self.chance(0.5):
                        sp.data_invalid.add(t.dv + k * PAGE)
        self.layout_all()
        for p in self.programs:
            used = sorted({(a & ~(PAGE - 1)) for r in p.routines for a in (r.entry, r.end - 1)})
            for pg in range(p.at, max(used) + PAGE, PAGE):
                if pg in p.forced_invalid or self.chance(0.3):
                    p.invalid.add(pg)
        self.place_control_blocks()
        self.fit_budget()
        if self.job:
            self.add_job()

    # ---- a program: routines with roles ------------------------------------------
    def gen_program(self, idx, letter):
        rng = self.rng
        p = Program(idx, letter)
        used = set()

        def newname(stem):
            for s in [stem] + ['%s%d' % (stem[:4], i) for i in range(1, 10)]:
                n = (letter + s)[:6]
                if n not in used:
                    used.add(n)
                    return n
            raise GenError('names')

        main = Routine(p, newname('MAIN'), self.pick('GGGH'), 'MAIN')
        roles = []
        if self.chance(0.8):
            roles.append('REC')
        if self.chance(0.85):
            roles.append('IO')
        if self.chance(0.7):
            roles.append('LEAF')
        if self.chance(0.7):
            roles.append('ASMW')
        if self.chance(0.55):
            roles.append('SKIP')
        if self.alt_wanted or self.chance(0.4):
            roles.append('ALT')
        if self.chance(0.5):
            roles.append('BALSUB')
        for _ in range(rng.randint(1, 3)):
            roles.append('WORK')
        rng.shuffle(roles)
        stems = {'REC': 'REC', 'IO': 'IO', 'LEAF': 'LEAF', 'ASMW': 'ASMW', 'SKIP': 'SKIP',
                 'ALT': 'ALT', 'WORK': 'WORK', 'BALSUB': 'BSUB'}
        rs = [main]
        for role in roles:
            if role == 'LEAF':
                kind = 'L'
            elif role in ('ASMW', 'BALSUB'):
                kind = 'A'
            elif role == 'ALT':
                kind = self.pick('GGH')
            elif role == 'SKIP':
                kind = self.pick('GAH')
            elif role == 'REC':
                kind = self.pick('GGHA')
            else:
                kind = self.pick('GGGHHA')
            r = Routine(p, newname(stems[role]), kind, role)
            if role == 'BALSUB':
                r.base = 'balr'
            if role == 'SKIP':
                r.skipret = True
                if kind == 'A' and self.chance(0.5):
                    r.base = 'balr'
            if role == 'WORK' and kind == 'A' and self.chance(0.5):
                r.base = 'balr'
            rs.append(r)
        for i, r in enumerate(rs):
            r.order = i
        p.routines = rs
        # the call graph: forward edges only (a DAG), REC calls itself
        for i, r in enumerate(rs):
            if r.role in ('LEAF',):
                continue
            later = [c for c in rs[i + 1:]]
            if r.role == 'ALT':      # an alternative mainline calls little
                later = [c for c in later if c.role in ('LEAF', 'IO', 'WORK', 'BALSUB', 'SKIP')]
            n = rng.randint(0, min(3, len(later)))
            r.calls = rng.sample(later, n)
        for j, c in enumerate(rs[1:], 1):
            callers = [r for r in rs[:j] if r.role != 'LEAF']
            if c.role == 'ALT':
                callers = [main]     # MAIN calls the alternative mainline
            if not any(c in r.calls for r in callers):
                self.pick(callers).calls.append(c)
        for r in rs:
            r.calls.sort(key=lambda c: c.order)
        # MAIN's end
        main.ends = self.pick(['ret', 'ret', 'svc3', 'join'])
        # pages: a routine at the start of a page invalid at first (fetch fault between a
        # BALR and the callee's entry); a call site whose BALR ends a page (fetch fault
        # right after the callee's BR 14)
        cands = [r for r in rs[1:]]
        if self.chance(0.7):
            self.pick(cands).pagestart = True
        p.pagecall = None
        pc_cands = [r for r in rs if r.role in ('MAIN', 'WORK', 'ASMW') and r.calls]
        if pc_cands and self.chance(0.6):
            p.pagecall = self.pick(pc_cands)
        for r in rs:
            self.gen_body(r)
        return p

    # ---- statements ----------------------------------------------------------------
    # A statement is a tuple; build_routine turns them into instructions.
    #   ('fill', n)                              n filler instructions
    #   ('loop', kind, src, body)                kind bct|bxle|cmp; src ('imm', n) |
    #                                            ('param', Param) | ('svc5',)
    #   ('call', callee, form)                   form balr|bal|page
    #   ('flag', Param, n)                       branch over n fillers when the task's flag is 0
    #   ('svc', n)                               1 sleep, 2 io, 5 get (+ branch on R1), 6 yield
    #   ('isub',)                                BAL 10 to an internal subroutine (no call)
    #   ('data',)                                ST/L of the scratch word of the task's data area
    #   ('recur',)                               REC: depth test and the call of itself
    def gen_body(self, r):
        rng = self.rng
        p = r.prog
        body = []

        def bigsrc():
            c = rng.random()
            if c < 0.45:
                return ('param', p.param('big', 20, 400))
            if c < 0.6:
                return ('svc5',)
            return ('imm', rng.randint(20, 400), 'big')

        def smallsrc():
            if self.chance(0.6):
                return ('param', p.param('small', 1, 4))
            return ('imm', rng.randint(1, 3), 'small')

        def bigloop():
            kind = self.pick(['bct', 'bct', 'bxle', 'cmp'])
            src = bigsrc()
            if kind != 'bct' and src[0] == 'svc5':
                src = ('imm', rng.randint(20, 400), 'big')
            inner = [('fill', rng.randint(1, 2))]
            if self.chance(0.15):
                inner.append(('isub',))
            return ('loop', kind, src, inner)

        if r.role == 'LEAF':
            r.body = [('leafloop', ('param', p.param('big', 20, 300)) if self.chance(0.6)
                       else ('imm', rng.randint(20, 300), 'big'))]
            return
        callees = list(r.calls)
        rng.shuffle(callees)
        if r.role == 'REC':
            body.append(('fill', rng.randint(0, 2)))
            body.append(bigloop())
            body.append(('recur',))
            if self.chance(0.5):
                body.append(('svc', 1))
        stmts = []
        for c in callees:
            form = 'balr'
            if c.base == 'balr' and self.chance(0.7):
                form = 'bal'
            if p.pagecall is r and not any(s[0] == 'call' and s[2] == 'page' for s in stmts):
                form = 'page'
            st = ('call', c, form)
            if form != 'page' and self.chance(0.45):
                st = ('loop', self.pick(['bct', 'cmp']), smallsrc(), [('fill', rng.randint(0, 1)), st])
            stmts.append(st)
        if r.role != 'REC' and self.chance(0.75):
            stmts.append(bigloop())
        if r.role == 'IO' or self.chance(0.2):
            stmts.append(('svc', self.pick([1, 2])))
            if r.role == 'IO':
                stmts.append(('svc', self.pick([1, 2])))
        if self.chance(0.2):
            stmts.append(('svc', 6))
        if self.chance(0.25):
            stmts.append(('svc', 5))
        if self.chance(0.35):
            stmts.append(('flag', p.param('flag', 0, 1), rng.randint(1, 3)))
        if self.chance(0.3):
            stmts.append(('isub',))
        if self.chance(0.3):
            stmts.append(('data',))
        if self.chance(0.5):
            stmts.append(('fill', rng.randint(1, 3)))
        rng.shuffle(stmts)
        # calls after the loops now and then, so preemptions find many stack shapes
        body.extend(stmts)
        r.body = body

    # ---- building instructions ---------------------------------------------------------
    def build_routine(self, r):
        items = []
        nl = [0]
        pool = {}          # key -> (label, kind, value)
        isubs = []
        B = r.baselab
        name = r.name

        def lab():
            nl[0] += 1
            return '.L%s_%d' % (name, nl[0])

        def rel(label, off=0):
            return Rel(label, B, off)

        def const(key, kind, value):
            if key not in pool:
                pool[key] = ('.Lk%s_%d' % (name, len(pool)), kind, value)
            return pool[key][0]

        def ins(*a, **k):
            items.append(Ins(*a, **k))

        def fill(n):
            for _ in range(n):
                c = self.rng.randrange(5)
                if c == 0:
                    ins('AR', 0, 12)
                elif c == 1:
                    ins('LR', 0, 13)
                elif c == 2:
                    ins('XR', 0, 0)
                elif c == 3:
                    ins('LA', 0, d=1, b=0)
                else:
                    ins('AR', 0, 0)

        def count_into(reg, src):
            if src[0] == 'imm':
                ins('LA', reg, d=src[1])
                items[-1].tag = src[2]
            elif src[0] == 'param':
                ins('L', reg, d=src[1].off, b=9)
            else:      # the task's value from SVC 5 (R15)
                ins('SVC', 5)
                ins('LR', reg, 15)

        def stmt(s, level):
            k = s[0]
            if k == 'fill':
                fill(s[1])
            elif k == 'data':
                ins('ST', 0, d=SCRATCH, b=9)
                ins('L', 0, d=SCRATCH, b=9)
            elif k == 'isub':
                l = lab()
                isubs.append((l, self.rng.randint(1, 2)))
                ins('BAL', 10, d=rel(l), b=12)
            elif k == 'flag':
                l = lab()
                ins('L', 0, d=s[1].off, b=9)
                ins('LTR', 0, 0)
                ins('BC', 8, d=rel(l), b=12)
                fill(s[2])
                items.append(('lab', l))
            elif k == 'svc':
                n = s[1]
                if n == 1:
                    ins('LA', 1, d=self.rng.choice([300, 500, 800, 1200, 2000]))
                    ins('SVC', 1)
                elif n == 5:
                    l = lab()
                    ins('SVC', 5)
                    ins('LTR', 1, 1)       # R1 = the task's flag (VAL2)
                    ins('BC', 8, d=rel(l), b=12)
                    fill(1)
                    items.append(('lab', l))
                else:
                    ins('SVC', n)
            elif k == 'call':
                c, form = s[1], s[2]
                if c.role == 'REC':
                    dp = self.rec_depth_param(r.prog)
                    ins('L', 2, d=dp.off, b=9)
                if form == 'bal':
                    ins('BAL', 14, d=rel(c.name), b=12, call=c)
                elif form == 'page':
                    site = lab()
                    ins('BC', 15, d=rel(site), b=12)
                    items.append(('poolhere',))
                    items.append(('pagegap',))
                    items.append(('lab', site))
                    ins('L', 15, d=rel(const(('a', c.name), 'long', c.name)), b=12)
                    ins('BALR', 14, 15, call=c)
                else:
                    ins('L', 15, d=rel(const(('a', c.name), 'long', c.name)), b=12)
                    ins('BALR', 14, 15, call=c)
                if c.skipret:
                    items.append(('skip',))
            elif k == 'loop':
                kind, src, body = s[1], s[2], s[3]
                l = lab()
                if kind == 'bct':
                    reg = 3 if level == 0 else 4
                    count_into(reg, src)
                    items.append(('lab', l))
                    for b in body:
                        stmt(b, level + 1)
                    ins('BCT', reg, d=rel(l), b=12)
                elif kind == 'bxle':
                    ins('LA', 4, d=0)
                    ins('LA', 6, d=1)
                    count_into(7, src)
                    items.append(('lab', l))
                    for b in body:
                        stmt(b, level + 1)
                    ins('BXLE', 4, 6, d=rel(l), b=12)
                else:   # cmp: R5 counts up to the limit (memory operand or R8)
                    reg = 5 if level == 0 else 4
                    ins('SR', reg, reg)
                    if src[0] == 'param':
                        items.append(('lab', l))
                        for b in body:
                            stmt(b, level + 1)
                        ins('LA', reg, d=1, b=reg)
                        ins('C', reg, d=src[1].off, b=9)
                    elif src[2] == 'small' and self.rng.random() < 0.5:
                        h = const(('h', src[1]), 'short', src[1])
                        items.append(('lab', l))
                        for b in body:
                            stmt(b, level + 1)
                        ins('LA', reg, d=1, b=reg)
                        ins('CH', reg, d=rel(h), b=12)
                    else:
                        ins('LA', 8, d=src[1])
                        items[-1].tag = src[2]
                        items.append(('lab', l))
                        for b in body:
                            stmt(b, level + 1)
                        ins('LA', reg, d=1, b=reg)
                        ins('CR', reg, 8)
                    ins('BC', 4, d=rel(l), b=12)
            elif k == 'recur':
                l = lab()
                one = const(('h', 1), 'short', 1)
                ins('CH', 2, d=rel(one), b=12)
                ins('BC', 12, d=rel(l), b=12)        # depth left <= 1: no deeper call
                ins('BCTR', 2, 0)
                ins('L', 15, d=rel(const(('a', r.name), 'long', r.name)), b=12)
                ins('BALR', 14, 15, call=r)
                if r.skipret:
                    items.append(('skip',))
                items.append(('lab', l))
            elif k == 'leafloop':
                l = lab()
                src = s[1]
                if src[0] == 'imm':
                    ins('LA', 1, d=src[1])
                    items[-1].tag = 'big'
                else:
                    ins('L', 1, d=src[1].off, b=9)
                items.append(('lab', l))
                ins('AR', 0, 1)
                ins('BCT', 1, d=Rel(l, name), b=15)
            else:
                raise GenError(k)

        # entry and prologue
        if r.fortran:
            items.append(('fentry', r.kind, name))
        else:
            items.append(('aentry', name))
        if r.kind != 'L':
            ins('STM', 14, 12, d=12, b=13)
            if r.base == 'r15':
                ins('LR', 12, 15)
            else:
                ins('BALR', 12, 0)
                items.append(('lab', B))
            ins('LA', 11, d=SAVEAREA, b=13)
            ins('ST', 13, d=4, b=11)
            ins('ST', 11, d=8, b=13)
            ins('LR', 13, 11)
        for s in r.body:
            stmt(s, 0)
        # the end
        if r.kind == 'L':
            ins('BCR', 15, 14, ret=True)
        else:
            if r.role == 'MAIN' and r.ends == 'join':
                ins('SVC', 4)
            if r.role == 'MAIN' and r.ends == 'svc3':
                ins('SVC', 3)
            else:
                ins('L', 13, d=4, b=13)
                ins('LM', 14, 12, d=12, b=13)
                if r.skipret:
                    ins('BC', 15, d=4, b=14, ret=True)
                else:
                    ins('BCR', 15, 14, ret=True)
        for l, n in isubs:
            items.append(('lab', l))
            fill(n)
            ins('BCR', 15, 10)
        if not any(it == ('poolhere',) for it in items if isinstance(it, tuple)):
            items.append(('poolhere',))
        out = []
        for it in items:
            if isinstance(it, tuple) and it[0] == 'poolhere':
                if pool:
                    out.append(('align', 4))
                    for key, (l, kind, value) in sorted(pool.items(), key=lambda kv: (kv[1][1] != 'long', kv[1][0])):
                        out.append(('lab', l))
                        out.append((kind, value))
            else:
                out.append(it)
        r.items = out

    def rec_depth_param(self, prog):
        if not hasattr(prog, 'depthp'):
            prog.depthp = prog.param('depth', 1, 7)
        return prog.depthp

    # ---- layout --------------------------------------------------------------------
    def measure(self, items, start):
        """Addresses of the items from start; returns (addresses, end) or None when an
        instruction would cross a page or a page gap cannot be placed."""
        a = start
        addrs = []
        for it in items:
            if isinstance(it, Ins):
                if (a // PAGE) != ((a + it.length - 1) // PAGE):
                    return None
                addrs.append(a)
                a += it.length
                continue
            k = it[0]
            if k == 'align':
                a = (a + it[1] - 1) // it[1] * it[1]
                addrs.append(a)
            elif k == 'pagegap':
                pe = (a // PAGE + 1) * PAGE
                if pe - 6 < a:
                    return None
                a = pe - 6
                addrs.append(a)
            else:
                addrs.append(a)
                a += {'lab': 0, 'aentry': 0, 'fentry': 12, 'long': 4, 'short': 2, 'skip': 4}[k]
        return addrs, a

    def layout_program(self, p):
        a = p.at
        for r in p.routines:
            self.build_routine(r)
        for r in p.routines:
            start = (a + 7) // 8 * 8
            if r.pagestart and start % PAGE:
                start = (start // PAGE + 1) * PAGE
            haspage = any(isinstance(it, tuple) and it[0] == 'pagegap' for it in r.items)
            if haspage:
                # as late in its page as the code before the call site allows, so that the
                # code after it (next page) stays within 4K of the routine's base
                gi = [i for i, it in enumerate(r.items) if isinstance(it, tuple) and it[0] == 'pagegap'][0]
                s1 = self.measure(r.items[:gi], 0)[1]
                pe = (start // PAGE + 1) * PAGE
                cand = (pe - 6 - s1) // 8 * 8
                if cand < start:
                    cand = (pe + PAGE - 6 - s1) // 8 * 8
                start = cand
            while True:
                m = self.measure(r.items, start)
                if m is not None:
                    addrs, end = m
                    if haspage:
                        ok = (end - 1) // PAGE == start // PAGE + 1
                    else:
                        ok = (end - 1) // PAGE == start // PAGE
                    if ok:
                        break
                start = (start // PAGE + 1) * PAGE
                if start >= p.at + PROG_MAX:
                    raise GenError('program %s does not fit' % p.letter)
            r.entry, r.end = start, end
            if end - start >= 4096:
                raise GenError('routine %s is too big' % r.name)
            for it, ad in zip(r.items, addrs):
                if isinstance(it, Ins):
                    it.addr = ad
            r.addrs = addrs
            if r.pagestart:
                p.forced_invalid.add(start)
            if haspage:
                p.forced_invalid.add(start // PAGE * PAGE + PAGE)
            a = end
        if a > p.at + PROG_MAX:
            raise GenError('program %s does not fit' % p.letter)
        p.end = a

    def resolve(self, p):
        labels = {}
        for r in p.routines:
            labels[r.name] = r.entry
            for it, ad in zip(r.items, r.addrs):
                if isinstance(it, tuple) and it[0] == 'lab':
                    labels[it[1]] = ad
        self.labels.update(labels)
        bad = []
        for r in p.routines:
            for it in r.items:
                if isinstance(it, Ins) and it.fmt in ('RX', 'RS'):
                    d = it.d
                    if isinstance(d, Rel):
                        v = labels[d.label] - labels[d.base] + d.off
                    else:
                        v = d
                    if not 0 <= v < 4096:
                        bad.append((r, it))
                    it.dv = v
        return bad

    def layout_all(self):
        for _ in range(10):
            self.labels = {}
            redo = False
            for p in self.programs:
                self.layout_program(p)
                bad = self.resolve(p)
                for r, it in bad:
                    if it.op == 'BAL' and it.call is not None:
                        # the callee is out of reach of BAL: call it by L/BALR instead
                        for i, s in enumerate(r.body):
                            r.body[i] = self.no_bal(s, it.call)
                        redo = True
                    else:
                        raise GenError('displacement out of range in %s: %s' % (r.name, it.text()))
            if not redo:
                return
        raise GenError('layout did not settle')

    def no_bal(self, s, callee):
        if s[0] == 'call' and s[1] is callee and s[2] == 'bal':
            return ('call', callee, 'balr')
        if s[0] == 'loop':
            return ('loop', s[1], s[2], [self.no_bal(b, callee) for b in s[3]])
        return s

    # ---- control blocks, address spaces ------------------------------------------------
    def place_control_blocks(self):
        rng = self.rng
        stride = 0xC0 if self.style == 'd' else 0x80
        for i, t in enumerate(self.tasks):
            t.tcb = TCB_AT + i * stride
        # segment tables at random 64-byte slots of the first table page: random CR1s
        slots = rng.sample(range(1, 16), len(self.spaces))
        for sp, s in zip(self.spaces, slots):
            sp.sto = TABLES + s * 0x40
        pt = TABLES + 0x400
        self.pt_nuc = pt
        pt += 0x20
        for sp in self.spaces:
            sp.pt_prog = pt
            sp.pt_data = pt + 0x20
            pt += 0x40
        for t in self.tasks:
            if self.style in 'ab':
                t.lm = t.tcb + 8
            elif self.style == 'c':
                t.lm = SAVETAB_AT + 64 * t.idx
            else:
                t.lm = t.tcb + 0x30

    def pt_entries_prog(self, sp):
        p = sp.prog
        ents = []
        for i in range(16):
            pg = SEG_PROG * 0x10000 + i * PAGE
            if p.at <= pg < p.end:
                ents.append((pg >> 8) | (PTE_INV if pg in p.invalid else 0))
            else:
                ents.append(PTE_INV)
        return ents

    def pt_entries_data(self, sp):
        ents = [PTE_INV] * 16
        invalid = sp.data_invalid | sp.xdata_invalid
        for t in sp.tasks + sp.xtasks:
            for k in range(2):
                v = t.dv + k * PAGE
                ents[(v - SEG_DATA * 0x10000) // PAGE] = (t.frames[k] >> 8) | (PTE_INV if v in invalid else 0)
        return ents

    # ---- values, budget ------------------------------------------------------------------
    def draw_values(self, scale):
        rng = random.Random(self.seed * 7919 + 17 + 31 * self.attempt)
        for t in self.tasks:
            t.values = {}
            for p in [t.space.prog]:
                for prm in p.params:
                    v = rng.randint(prm.lo, prm.hi)
                    if prm.role == 'big':
                        v = max(1, int(v * scale))
                    t.values[prm.off] = v
            t.val1 = max(1, int(rng.randint(20, 400) * scale))
            t.val2 = rng.randint(0, 1)

    def fit_budget(self):
        scale = 1.0
        self.base_imm = {}
        for attempt in range(12):
            self.apply_scale(scale)
            self.draw_values(scale)
            self.emulate_all()
            total = sum(t.fig['problem'] for t in self.tasks)
            if self.lo <= total <= self.hi:
                self.total = total
                self.scale = scale
                return
            scale *= self.target / max(total, 1)
            scale = min(max(scale, 0.005), 200.0)
        raise GenError('cannot fit the instruction budget (%d)' % total)

    def apply_scale(self, scale):
        """LA immediates of big loops (>= 20 when generated) follow the scale."""
        for p in self.programs:
            for r in p.routines:
                for it in r.items:
                    if isinstance(it, Ins) and it.tag == 'big':
                        key = id(it)
                        if key not in self.base_imm:
                            self.base_imm[key] = it.d
                        it.d = it.dv = min(4095, max(1, int(self.base_imm[key] * scale)))

    # ======================================================================================
    # the interpreter
    # ======================================================================================
    def code_map(self):
        code = {}
        consts = {}
        for p in self.programs:
            for r in p.routines:
                for it, ad in zip(r.items, r.addrs):
                    if isinstance(it, Ins):
                        code[ad] = it
                    elif it[0] == 'fentry':
                        e = Ins('BC', 15, d=12, b=15)
                        e.dv = 12
                        e.addr = ad
                        code[ad] = e
                    elif it[0] == 'long':
                        v = it[1] if isinstance(it[1], int) else self.labels[it[1]]
                        consts[ad] = v.to_bytes(4, 'big')
                    elif it[0] == 'short':
                        consts[ad] = (it[1] & 0xFFFF).to_bytes(2, 'big')
        stub = Ins('SVC', 3)
        stub.addr = EXIT_STUB
        code[EXIT_STUB] = stub
        return code, consts

    def emulate_all(self):
        code, consts = self.code_map()
        self.code = code
        self.entries = {}
        for p in self.programs:
            for r in p.routines:
                self.entries[r.entry] = r
        self.routine_at = []
        for p in self.programs:
            for r in p.routines:
                self.routine_at.append((r.entry, r.end, r))
        touches = {}
        for t in self.tasks:
            Emu(self, t, code, consts, touches).run()
        # pages of a space invalid at first and touched by more than one task: each
        # task's first touch must be a fetch (which task faults is timing; an operand
        # fault would count its instruction twice in whichever task it hit)
        self.space_faults = {}
        for sp in self.spaces:
            n = 0
            for (sidx, pg), lst in touches.items():
                if sidx != sp.idx:
                    continue
                n += 1
                tasks = {ti for ti, kind in lst}
                if len(tasks) > 1 and any(kind == 'operand' for ti, kind in lst):
                    raise GenError('page %X of space %d: an operand fault in one of several tasks' % (pg, sp.idx))
            self.space_faults[sp.idx] = n

    # ---- --job: tasks before and after the job ------------------------------------------
    def add_job(self):
        """The job's window (--job): the system above is the job; tasks before it (phase
        'before', ended before the console's $HASP373) and after it (phase 'after', started
        after its $HASP395) run routines of the same programs, in the job's spaces at the
        same virtual addresses, with their own data: work a wrong window would count. Drawn
        from their own random stream, so the job's tasks are the system of the seed
        without --job (their figures change only where a task before the job validated a
        page one of them would have faulted on)."""
        errs = []
        for k in range(20):
            # their big loop counts scaled so that they run at most about as long as the job
            xscale = 1.0
            for _ in range(8):
                rng = random.Random(self.seed * 7907 + 101 + 1009 * self.attempt + 13 * k)
                try:
                    self.draw_job(rng, xscale)
                    self.emulate_job()
                except GenError as e:
                    errs.append(str(e))
                    break
                outside = sum(t.fig['problem'] for t in self.pre + self.post)
                if outside <= self.total:
                    self.job_draw = k
                    return
                xscale *= 0.8 * self.total / outside
        raise GenError('job: %s' % (errs[-1] if errs else 'the work outside the window does not fit'))

    def draw_job(self, rng, xscale=1.0):
        nt = len(self.tasks)
        room = MAX_TCBS - nt
        npre = rng.randint(1, min(2, len(self.spaces), room - 1))
        npost = rng.randint(1, min(2, len(self.spaces), room - npre))
        for sp in self.spaces:
            sp.xtasks, sp.xdata_invalid = [], set()
        self.pre, self.post = [], []
        stride = 0xC0 if self.style == 'd' else 0x80
        idx = nt
        for phase, n, lst, stem in (('before', npre, self.pre, 'PRE'), ('after', npost, self.post, 'POST')):
            # at most one task of a phase in a space: no page of a space is shared in a phase
            for sp in sorted(rng.sample(self.spaces, n), key=lambda sp: sp.idx):
                rs = sp.prog.routines
                # a mainline: MAIN (everything again) or any routine but a skip-return one
                # (its B 4(,14) would miss the task exit)
                ml = rs[0] if rng.random() < 0.4 else rng.choice([r for r in rs if not r.skipret])
                t = Task(idx, sp, len(sp.tasks) + len(sp.xtasks), ml)
                t.name = '%s%d' % (stem, len(lst) + 1)
                t.phase = phase
                t.tcb = TCB_AT + idx * stride
                if self.style in 'ab':
                    t.lm = t.tcb + 8
                elif self.style == 'c':
                    t.lm = SAVETAB_AT + 64 * idx
                else:
                    t.lm = t.tcb + 0x30
                if rng.random() < 0.5:
                    t.stack = PAGE - SAVEAREA * rng.randint(2, 5)
                else:
                    t.stack = 0x200 + SAVEAREA * rng.randint(0, 20)
                for k in range(2):
                    if rng.random() < 0.5:
                        sp.xdata_invalid.add(t.dv + k * PAGE)
                t.values = {}
                for prm in sp.prog.params:
                    v = rng.randint(prm.lo, prm.hi)
                    if prm.role == 'big':
                        v = max(1, int(v * self.scale * xscale))
                    t.values[prm.off] = v
                t.val1 = max(1, int(rng.randint(20, 400) * self.scale * xscale))
                t.val2 = rng.randint(0, 1)
                sp.xtasks.append(t)
                lst.append(t)
                idx += 1
        assert idx <= MAX_TCBS

    def emulate_job(self):
        """The three phases one after the other: each starts with the pages the phases
        before it validated; in a phase, the tasks run as in emulate_all."""
        code, consts = self.code_map()
        valid = {sp.idx: set() for sp in self.spaces}
        self.phase_faults = {}
        for phase, tasks in (('before', self.pre), ('job', self.tasks), ('after', self.post)):
            touches = {}
            for t in tasks:
                Emu(self, t, code, consts, touches, valid[t.space.idx]).run()
            faults = {sp.idx: 0 for sp in self.spaces}
            for (sidx, pg), lst in touches.items():
                faults[sidx] += 1
                if len({ti for ti, kind in lst}) > 1 and any(kind == 'operand' for ti, kind in lst):
                    raise GenError('page %X of space %d: an operand fault in one of several tasks' % (pg, sidx))
                valid[sidx].add(pg)
            self.phase_faults[phase] = faults
        self.space_faults = self.phase_faults['job']
        self.total = sum(t.fig['problem'] for t in self.tasks)

    def all_tasks(self):
        """Every TCB: the job's tasks, then (--job) the tasks before and after it."""
        return self.tasks + self.pre + self.post


class Emu:
    """Runs one task's problem-state instructions: exactly what Hercules executes for it,
    with the supervisor's effects reduced to SVC results and nullified instructions."""

    def __init__(self, g, task, code, consts, touches, prevalid=frozenset()):
        """prevalid: the pages of the task's space (virtual) that tasks of an earlier phase
        validated (--job: the tasks before the job, the job's before the tasks after it)."""
        self.g, self.t, self.code, self.consts, self.touches = g, task, code, consts, touches
        sp = task.space
        # the task's view of its space: virtual page -> (frame, valid at first)
        self.pages = {}
        for pg in range(NUC, NUC + 0x10000, PAGE):
            self.pages[pg] = (pg, True)
        for seg, ents in ((SEG_PROG, g.pt_entries_prog(sp)), (SEG_DATA, g.pt_entries_data(sp))):
            for i, e in enumerate(ents):
                if e != PTE_INV:
                    self.pages[seg * 0x10000 + i * PAGE] = ((e & 0xFFF0) << 8, not e & PTE_INV)
        self.valid = {pg for pg, (fr, ok) in self.pages.items() if ok} | set(prevalid)
        self.start_valid = set(self.valid)
        self.first = set()
        self.mem = {}       # real address -> byte (the task's own data and the constants)
        for ad, bs in consts.items():
            for i, b in enumerate(bs):
                self.mem[ad + i] = b
        for off, v in task.values.items():
            for i, b in enumerate(v.to_bytes(4, 'big')):
                self.mem[task.frames[0] + off + i] = b

    def touch(self, va, kind):
        pg = va & ~(PAGE - 1)
        if pg not in self.pages:
            raise GenError('%s: wild %s reference to %X' % (self.t.name, kind, va))
        key = (self.t.space.idx, pg)
        if pg not in self.first:
            self.first.add(pg)
            if pg not in self.start_valid:
                self.touches.setdefault(key, []).append((self.t.idx, kind))
        if pg in self.valid:
            return 0
        self.valid.add(pg)
        return 1 if kind == 'operand' else 0

    def real(self, va):
        pg = va & ~(PAGE - 1)
        return self.pages[pg][0] + (va & (PAGE - 1))

    def load(self, va, n):
        v = 0
        for i in range(n):
            v = (v << 8) | self.mem.get(self.real((va + i) & 0xFFFFFF), 0)
        return v

    def store(self, va, n, v):
        for i in range(n):
            self.mem[self.real((va + i) & 0xFFFFFF)] = (v >> (8 * (n - 1 - i))) & 0xFF

    def run(self):
        g, t = self.g, self.t
        R = [0] * 16
        R[9] = t.dv
        R[13] = t.dv + t.stack
        R[14] = EXIT_STUB
        R[15] = t.mainline.entry
        cc = 0
        pc = t.mainline.entry
        prof = Profile(g, t)
        svcs = {}
        opfaults = 0
        steps = 0
        while True:
            steps += 1
            if steps > 2000000:
                raise GenError('%s runs away' % t.name)
            ins = self.code.get(pc)
            if ins is None:
                raise GenError('%s: no instruction at %X' % (t.name, pc))
            self.touch(pc, 'fetch')
            # operand accesses: each invalid page costs one nullified execution
            def ea(i):
                a = i.dv
                if i.x:
                    a += R[i.x]
                if i.b:
                    a += R[i.b]
                return a & 0xFFFFFF
            op = ins.op
            acc = None
            if op in ('L', 'ST', 'A', 'C'):
                acc = (ea(ins), 4)
            elif op == 'CH':
                acc = (ea(ins), 2)
            elif op in ('STM', 'LM'):
                n = (ins.r2 - ins.r1) % 16 + 1
                acc = (ea(ins), 4 * n)
            times = 1
            if acc:
                a0, n = acc
                if (a0 // PAGE) != ((a0 + n - 1) // PAGE):
                    raise GenError('%s: operand crosses a page at %X' % (t.name, pc))
                times += self.touch(a0, 'operand')
            opfaults += times - 1
            nxt = pc + ins.length
            prof.execute(pc, ins, times)
            # execute
            if op == 'LR':
                R[ins.r1] = R[ins.r2]
            elif op in ('AR', 'A', 'SR'):
                a = R[ins.r1]
                b = R[ins.r2] if op != 'A' else self.load(acc[0], 4)
                sa, sb = sgn(a), sgn(b)
                res = sa + sb if op != 'SR' else sa - sb
                R[ins.r1] = res & 0xFFFFFFFF
                cc = 3 if not -2**31 <= res < 2**31 else ccv(sgn(R[ins.r1]))
            elif op == 'XR':
                R[ins.r1] ^= R[ins.r2]
                cc = 0 if R[ins.r1] == 0 else 1
            elif op == 'LTR':
                R[ins.r1] = R[ins.r2]
                cc = ccv(sgn(R[ins.r1]))
            elif op in ('CR', 'C', 'CH'):
                a = sgn(R[ins.r1])
                if op == 'CR':
                    b = sgn(R[ins.r2])
                elif op == 'C':
                    b = sgn(self.load(acc[0], 4))
                else:
                    h = self.load(acc[0], 2)
                    b = h - 0x10000 if h & 0x8000 else h
                cc = 0 if a == b else (1 if a < b else 2)
            elif op == 'L':
                R[ins.r1] = self.load(acc[0], 4)
            elif op == 'ST':
                self.store(acc[0], 4, R[ins.r1])
            elif op == 'LA':
                R[ins.r1] = ea(ins)
            elif op == 'STM':
                a0 = acc[0]
                r = ins.r1
                while True:
                    self.store(a0, 4, R[r])
                    a0 += 4
                    if r == ins.r2:
                        break
                    r = (r + 1) % 16
            elif op == 'LM':
                a0 = acc[0]
                r = ins.r1
                while True:
                    R[r] = self.load(a0, 4)
                    a0 += 4
                    if r == ins.r2:
                        break
                    r = (r + 1) % 16
            elif op == 'BALR':
                target = R[ins.r2] & 0xFFFFFF
                R[ins.r1] = (1 << 30) | (cc << 28) | nxt
                if ins.r2:
                    nxt = target
            elif op == 'BAL':
                target = ea(ins)
                R[ins.r1] = (2 << 30) | (cc << 28) | nxt
                nxt = target
            elif op == 'BCR':
                if ins.r2 and (ins.r1 >> (3 - cc)) & 1:
                    nxt = R[ins.r2] & 0xFFFFFF
            elif op == 'BC':
                if (ins.r1 >> (3 - cc)) & 1:
                    nxt = ea(ins)
            elif op == 'BCTR':
                R[ins.r1] = (R[ins.r1] - 1) & 0xFFFFFFFF
                if ins.r2 and R[ins.r1]:
                    nxt = R[ins.r2] & 0xFFFFFF
            elif op == 'BCT':
                target = ea(ins)
                R[ins.r1] = (R[ins.r1] - 1) & 0xFFFFFFFF
                if R[ins.r1]:
                    nxt = target
            elif op == 'BXLE':
                target = ea(ins)
                incr = R[ins.r2]
                comp = R[ins.r2 | 1]
                R[ins.r1] = (R[ins.r1] + incr) & 0xFFFFFFFF
                if sgn(R[ins.r1]) <= sgn(comp):
                    nxt = target
            elif op == 'SVC':
                n = ins.r1
                svcs[n] = svcs.get(n, 0) + 1
                if n == 3:
                    break
                if n not in SVC_NAMES:
                    raise GenError('%s: SVC %d' % (t.name, n))
                r15, r1 = 0, 0
                if n == 5:
                    r15, r1 = t.val1, t.val2
                elif n == 6:
                    r15 = 4
                R[0], R[1], R[14], R[15] = n, r1, R14_JUNK + n, r15
            else:
                raise GenError('op %s' % op)
            prof.after(pc, ins, nxt)
            pc = nxt
        t.fig = prof.figures()
        t.fig['svc'] = svcs
        t.fig['opfaults'] = opfaults


def sgn(v):
    return v - (1 << 32) if v & 0x80000000 else v


def ccv(s):
    return 0 if s == 0 else (1 if s < 0 else 2)


class Profile:
    """The counting rules of DESIGN section 3 for one task: its own stack; an instruction
    counts (times: 2 when an operand page fault nullified it once) for the routine on top
    of the stack when it executes; under the default timing only FORTRAN-compatible
    routines are timed and the others are charged to the nearest timed frame below."""

    def __init__(self, g, task):
        self.g, self.t = g, task
        self.stack = []            # (routine, return address)
        self.started = False
        self.calls, self.self_, self.arcs, self.incl = {}, {}, {}, {}
        self.calls_d, self.self_d, self.arcs_d, self.incl_d = {}, {}, {}, {}
        self.outside = 0
        self.problem = 0
        self.entries = {}
        self.inrange = 0

    @staticmethod
    def add(d, k, n=1):
        d[k] = d.get(k, 0) + n

    def top_timed(self):
        for r, _ in reversed(self.stack):
            if r.fortran or r is self.t.mainline:
                return r
        return None

    def execute(self, pc, ins, times):
        if not self.started:
            self.started = True
            r = self.g.entries.get(pc)
            if r is not self.t.mainline:
                raise GenError('%s does not start at its mainline' % self.t.name)
            self.stack.append((r, None))
        self.problem += times
        if RANGE[0] <= pc <= RANGE[1]:
            self.inrange += times
        if pc in self.g.entries:
            self.add(self.entries, self.g.entries[pc].name)
        if not self.stack:
            self.outside += times
            return
        top = self.stack[-1][0]
        self.add(self.self_, top.name, times)
        tt = self.top_timed()
        self.add(self.self_d, tt.name, times)
        seen = set()
        for r, _ in self.stack:
            if r.name not in seen:
                seen.add(r.name)
                self.add(self.incl, r.name, times)
                if r.fortran or r is self.t.mainline:
                    self.add(self.incl_d, r.name, times)

    def after(self, pc, ins, nxt):
        if ins.call is not None:
            c = ins.call
            if nxt != c.entry or (ins.op == 'BALR' and ins.r1 != 14) or (ins.op == 'BAL' and ins.r1 != 14):
                raise GenError('a call that is not one at %X' % pc)
            caller = self.stack[-1][0]
            self.add(self.calls, c.name)
            self.add(self.arcs, (caller.name, c.name))
            if c.fortran or c is self.t.mainline:
                self.add(self.calls_d, c.name)
                self.add(self.arcs_d, (self.top_timed().name, c.name))
            self.stack.append((c, pc + ins.length))
        elif ins.ret:
            r, ret = self.stack[-1]
            if ret is None:
                if nxt != EXIT_STUB:
                    raise GenError('%s: the mainline returns to %X' % (self.t.name, nxt))
                self.stack.pop()
            else:
                want = ret + (4 if r.skipret else 0)
                if nxt != want:
                    raise GenError('%s: %s returns to %X, not %X' % (self.t.name, r.name, nxt, want))
                self.stack.pop()

    def figures(self):
        return {'calls': self.calls, 'self': self.self_, 'arcs': self.arcs, 'incl': self.incl,
                'calls-default': self.calls_d, 'self-default': self.self_d,
                'arcs-default': self.arcs_d, 'incl-default': self.incl_d,
                'outside': self.outside, 'problem': self.problem, 'entries': self.entries,
                'inrange': self.inrange}


# ======================================================================================
# output: the assembler source
# ======================================================================================

def hx(v):
    return '0x%X' % v


class Writer:
    def __init__(self, g):
        self.g = g
        self.out = []

    def w(self, s=''):
        self.out.append(s)

    # ---- the header ------------------------------------------------------------------
    def header(self):
        g = self.g
        w = self.w
        w('# os%d.s -- generated by tests/os/osgen.py (version %d) from seed %d%s: do not edit.'
          % (g.seed, VERSION, g.seed, '' if not g.attempt else ' (attempt %d)' % g.attempt))
        w('# A standalone S/370 system: a supervisor (supervisor state, key 0, DAT off) and %d'
          % len(g.tasks))
        w('# problem-state tasks (EC mode, DAT on, key 8) in %d address space(s). Its expected'
          % len(g.spaces))
        w('# figures are in os%d.expected (tests/os/README.md), computed by the generator.' % g.seed)
        w('#')
        w('# dispatch style %s: %s' % (g.style, STYLES[g.style]))
        w('# CPU-timer time slice %d us; instruction budget %d-%d, problem-state total %d'
          % (g.quantum, g.lo, g.hi, g.total))
        for sp in g.spaces:
            w('# space %d: CR1 %08X, program %s, tasks %s' % (sp.idx + 1, sp.cr1, sp.prog.letter,
              ' '.join(t.name for t in sp.tasks)))
        for t in g.tasks:
            w('#   %s: mainline %s, data %05X (frames %05X %05X), R13 %05X, TCB %03X, %d problem-state instructions'
              % (t.name, t.mainline.name, t.dv, t.frames[0], t.frames[1], t.dv + t.stack, t.tcb,
                 t.fig['problem']))
        for p in g.programs:
            w('# program %s at %05X-%05X, pages invalid at first: %s' % (
                p.letter, p.at, p.end - 1, ' '.join('%05X' % x for x in sorted(p.invalid)) or 'none'))
            for r in p.routines:
                extra = []
                if r.base == 'balr':
                    extra.append('base BALR 12,0')
                if r.skipret:
                    extra.append('returns with B 4(,14)')
                if r.pagestart:
                    extra.append('entry at a page start')
                if p.pagecall is r:
                    extra.append('a call site whose BALR ends a page')
                if r.role == 'MAIN':
                    extra.append('ends: %s' % r.ends)
                w('#   %-6s %05X-%05X %-9s %-6s calls %s%s' % (
                    r.name, r.entry, r.end - 1, r.kindname, r.role,
                    ','.join(c.name for c in r.calls) or '-',
                    ('; ' + '; '.join(extra)) if extra else ''))
        for sp in g.spaces:
            if sp.data_invalid:
                w('# space %d: data pages invalid at first: %s' % (
                    sp.idx + 1, ' '.join('%05X' % x for x in sorted(sp.data_invalid))))
        if g.job:
            a, b = job_lines()
            w('# --job: the tasks above are the job. The console (a 3215 at 009) says')
            w('#   "%s"' % a.strip())
            w('#   when the tasks before the job have ended, and releases the job\'s tasks, then')
            w('#   "%s"' % b.strip())
            w('#   when those have ended, and releases the tasks after the job; a disabled wait when')
            w('#   these have ended. The tasks before and after run routines of the same programs in')
            w('#   the job\'s spaces (same virtual addresses, their own data); outside the window:')
            for t in g.pre + g.post:
                w('#   %s (%s the job): space %d, mainline %s, data %05X (frames %05X %05X), R13 %05X, TCB %03X, %d problem-state instructions'
                  % (t.name, t.phase, t.space.idx + 1, t.mainline.name, t.dv, t.frames[0], t.frames[1],
                     t.dv + t.stack, t.tcb, t.fig['problem']))
            for sp in g.spaces:
                if sp.xdata_invalid:
                    w('#   space %d: their data pages invalid at first: %s' % (
                        sp.idx + 1, ' '.join('%05X' % x for x in sorted(sp.xdata_invalid))))
        w('# SVCs (R0, R1, R14, R15 change; R2-R13 never): 1 sleep R1 us, 2 I/O (SIO 000C), 3 end,')
        w('#   4 wait until every task has ended or waits so, 5 R15 = the task\'s value, R1 = its')
        w('#   flag, 6 yield. After SVC n: R0 = n, R14 = %08X + n, R15 = 0 (SVC 5: the value;' % R14_JUNK)
        w('#   SVC 6: 4), R1 = 0 (SVC 5: the flag).')
        w('# Low core: 300 CURTCB (style d: PSATNEW 218, PSATOLD 21C), 304 LASTTCB, 308 IOOWNER,')
        w('#   30C nucleus base, 310 NOW, 318 NEXTCK, 320 ENDED, 324 JOINERS, 328 work word,')
        w('#   340 dispatch PSW (b) / PSAPSWSV (d), 380 interrupted registers, 400 TCBs,')
        w('#   900 PSW blocks (c), A00 save areas (c), C00 RBs (d), D00 space blocks (d).')
        w('# Nucleus 20000, task exit (SVC 3) %05X, tables %05X, programs from 30000, data frames'
          % (EXIT_STUB, TABLES))
        w('#   from %05X. Segment 2 (nucleus) V=R in every space; segment 3 the programs (V=R,' % DATA_R)
        w('#   per-space page tables); segment 8 the tasks\' data (2 pages per task).')
        w()

    # ---- the whole file --------------------------------------------------------------
    def source(self):
        g = self.g
        self.header()
        w = self.w
        st = g.style
        nt = len(g.tasks)
        stride = 0xC0 if st == 'd' else 0x80
        w('        .include "s370.inc"')
        w()
        sets = [('.LSAVE', L_SAVE), ('.LCURTCB', L_CURTCB_D if st == 'd' else L_CURTCB),
                ('.LOLDTCB', L_OLDTCB_D), ('.LLASTTCB', L_LASTTCB), ('.LIOOWNER', L_IOOWNER),
                ('.LNUCBASE', L_NUCBASE), ('.LNOW', L_NOW), ('.LNEXTCK', L_NEXTCK),
                ('.LENDED', L_ENDED), ('.LJOINERS', L_JOINERS), ('.LTMP', L_TMP),
                ('.LDSPPSW', L_DSPPSW), ('.LTCB0', TCB_AT),
                ('.LS_READY', 0), ('.LS_SLEEP', 1), ('.LS_IOWAIT', 2), ('.LS_IOQ', 3),
                ('.LS_JOIN', 4), ('.LS_ENDED', 8)]
        if st == 'd':
            sets += [('.LTCBRBP', 0), ('.LTCBFRS', 0x08), ('.LTCBGRS', 0x30), ('.LTCBFSA', 0x70),
                     ('.LT_ASCB', 0x80), ('.LT_STATE', 0x84), ('.LT_WAKE', 0x88),
                     ('.LT_TAIL', 0x90), ('.LT_NEXT', 0x94), ('.LT_VAL1', 0x98),
                     ('.LT_VAL2', 0x9C), ('.LT_NAME', 0xA0), ('.LRBOPSW', 0x10)]
        else:
            sets += [('.LT_PSW', 0), ('.LT_PSWP', 0), ('.LT_SAVEP', 4), ('.LT_GR', 8),
                     ('.LT_CR1', 0x48), ('.LT_STATE', 0x4C), ('.LT_WAKE', 0x50),
                     ('.LT_TAIL', 0x58), ('.LT_NEXT', 0x5C), ('.LT_VAL1', 0x60),
                     ('.LT_VAL2', 0x64), ('.LT_NAME', 0x68)]
        if g.job:
            sets += [('.LPHASEN', L_PHASEN), ('.LPHASE', L_PHASE), ('.LS_HELD', S_HELD)]
        for n, v in sets:
            w('        .set    %-12s %s' % (n + ',', hx(v)))
        w()
        self.lowcore(stride)
        w('        .text')
        self.supervisor(stride)
        self.tables()
        w()
        w('# ---- the task exit: a mainline\'s R14 points here (problem state, DAT on) ----------')
        w('        .org    %s' % hx(EXIT_STUB - NUC))
        w('.Lexit: svc     3')
        for p in g.programs:
            self.program(p)
        self.data()
        return '\n'.join(self.out) + '\n'

    def lowcore(self, stride):
        g, w, st = self.g, self.w, self.g.style
        tasks = g.all_tasks()
        w('# ---- low core ----------------------------------------------------------------------')
        w('        .section .lowcore,"a"')
        w('        .long   0x00080000, .Linit      # 000 IPL PSW: EC mode, disabled, DAT off')
        w('        .fill   0x58-8, 1, 0')
        w('        .long   0x00080000, .Lext       # 058 external new PSW')
        w('        .long   0x00080000, .Lsvc       # 060 SVC new PSW')
        w('        .long   0x00080000, .Lpgm       # 068 program new PSW')
        w('        .long   0x000A0000, 0x00BAD070  # 070 machine-check new PSW: disabled wait')
        w('        .long   0x00080000, .Lio        # 078 I/O new PSW')
        w('        .org    0x300')
        w('        .long   0                       # 300 CURTCB')
        w('        .long   %s                   # 304 LASTTCB: the first task is dispatched first'
          % hx(tasks[-1].tcb))
        w('        .long   0                       # 308 IOOWNER')
        w('        .long   .Lnuc                   # 30C nucleus base')
        if g.job:
            w('        .org    %s' % hx(L_PHASEN))
            w('        .long   %d                       # 32C PHASEN: the tasks of the phase (before the job)' % len(g.pre))
            w('        .long   0                       # 330 PHASE: 0 before the job, 1 the job, 2 after it')
        for i, t in enumerate(tasks):
            nxt = tasks[(i + 1) % len(tasks)]
            state = '0'
            if g.job and t.phase != 'before':
                state = '0x%08X' % (S_HELD << 24)     # held until its phase comes
            regs = [0] * 16
            regs[9] = t.dv
            regs[13] = t.dv + t.stack
            regs[14] = EXIT_STUB
            regs[15] = t.mainline.entry
            psw = (0x07890000, t.mainline.entry)
            name = [EBCDIC[c] for c in t.name] + [0x40] * (8 - len(t.name))
            w('# TCB of task %s (space %d, mainline %s%s)' % (t.name, t.space.idx + 1, t.mainline.name,
              '' if t.phase == 'job' else ', %s the job' % t.phase))
            w('        .org    %s' % hx(t.tcb))
            if st in 'ab':
                w('        .long   0x%08X, 0x%05X         # +0 PSW' % psw)
                w('        .long   %s  # +8 R0-R15' % ', '.join(hx(x) for x in regs))
                w('        .long   0x%08X              # +48 CR1' % t.space.cr1)
                w('        .long   %s, 0, 0                 # +4C state, +50 wake-up time' % state)
                w('        .long   %s, %s          # +58 dispatch tail, +5C next TCB'
                  % ('.Ltail%d' % i if st == 'a' else '0', hx(nxt.tcb)))
            elif st == 'c':
                w('        .long   %s, %s      # +0 PSW block, +4 save area' % (hx(PSWTAB_AT + 8 * i), hx(SAVETAB_AT + 64 * i)))
                w('        .fill   0x40, 1, 0')
                w('        .long   0x%08X              # +48 CR1' % t.space.cr1)
                w('        .long   %s, 0, 0                 # +4C state, +50 wake-up time' % state)
                w('        .long   .Ltail%d, %s           # +58 dispatch tail, +5C next TCB' % (i, hx(nxt.tcb)))
            else:
                w('        .long   %s, 0                 # +0 TCBRBP' % hx(RB_AT + 32 * i))
                w('        .fill   0x28, 1, 0              # +8 TCBFRS (FPR 0 2 4 6)')
                w('        .long   %s  # +30 TCBGRS' % ', '.join(hx(x) for x in regs))
                w('        .long   %s, 0, 0, 0           # +70 TCBFSA' % hx(regs[13]))
                w('        .long   %s, %s, 0, 0          # +80 space block, +84 state, +88 wake-up time'
                  % (hx(ASCB_AT + 8 * t.space.idx), state))
                w('        .long   0, %s                # +90, +94 next TCB' % hx(nxt.tcb))
            w('        .long   %d, %d                # value (SVC 5 R15), flag (SVC 5 R1)' % (t.val1, t.val2))
            w('        .byte   %s' % ', '.join(hx(b) for b in name))
        if st == 'c':
            w('# style c: the tasks\' PSW blocks and register save areas (not in the TCBs)')
            w('        .org    %s' % hx(PSWTAB_AT))
            for t in tasks:
                w('        .long   0x07890000, 0x%05X         # %s' % (t.mainline.entry, t.name))
            for i, t in enumerate(tasks):
                regs = [0] * 16
                regs[9], regs[13], regs[14], regs[15] = t.dv, t.dv + t.stack, EXIT_STUB, t.mainline.entry
                w('        .org    %s' % hx(SAVETAB_AT + 64 * i))
                w('        .long   %s  # %s' % (', '.join(hx(x) for x in regs), t.name))
        if st == 'd':
            w('# style d: the request blocks (RBOPSW at +10) and the space blocks (+0 CR1)')
            for i, t in enumerate(tasks):
                w('        .org    %s' % hx(RB_AT + 32 * i))
                w('        .long   0, 0, 0, 0, 0x07890000, 0x%05X   # %s' % (t.mainline.entry, t.name))
            for sp in g.spaces:
                w('        .org    %s' % hx(ASCB_AT + 8 * sp.idx))
                w('        .long   0x%08X, 0' % sp.cr1)
        w()

    def supervisor(self, stride):
        g, st = self.g, self.g.style
        tasks = g.all_tasks()
        nt = len(tasks)
        nblk = len(tasks) * 2 * PAGE // 2048
        R = '-.Lnuc(%r12)'
        # the dispatch code of the style
        if st == 'a':
            disp = ['        lctl    %c1,%c1,.LT_CR1(%r1)    # its address space',
                    '        l       %r15,.LT_TAIL(%r1)',
                    '        br      %r15']
            for i, t in enumerate(tasks):
                disp += ['.Ltail%d: lm     %%r0,%%r15,%s       # %s: registers and PSW from its TCB' % (i, hx(t.tcb + 8), t.name),
                         '        lpsw    %s' % hx(t.tcb)]
        elif st == 'b':
            disp = ['        lctl    %c1,%c1,.LT_CR1(%r1)    # its address space',
                    '        mvc     .LDSPPSW(8),.LT_PSW(%r1) # its PSW to the common dispatch PSW',
                    '        lm      %r0,%r15,.LT_GR(%r1)',
                    '        lpsw    .LDSPPSW']
        elif st == 'c':
            disp = ['        lctl    %c1,%c1,.LT_CR1(%r1)    # its address space',
                    '        l       %r15,.LT_TAIL(%r1)',
                    '        br      %r15']
            for i, t in enumerate(tasks):
                disp += ['.Ltail%d: l      %%r1,.LT_SAVEP(%%r1)     # %s: registers from its save area' % (i, t.name),
                         '        lm      %r0,%r15,0(%r1)',
                         '        lpsw    %s                # its PSW block' % hx(PSWTAB_AT + 8 * i)]
        else:
            disp = ['        l       %r3,.LT_ASCB(%r1)       # its space block',
                    '        lctl    %c1,%c1,0(%r3)',
                    '        l       %r2,.LTCBRBP(%r1)       # its request block',
                    '        mvc     .LDSPPSW(8),.LRBOPSW(%r2) # PSAPSWSV = RBOPSW',
                    '        ld      %f0,.LTCBFRS(%r1)',
                    '        ld      %f2,.LTCBFRS+8(%r1)',
                    '        ld      %f4,.LTCBFRS+16(%r1)',
                    '        ld      %f6,.LTCBFRS+24(%r1)',
                    '        lm      %r0,%r15,.LTCBGRS(%r1)',
                    '        lpsw    .LDSPPSW']
        if st in 'ab':
            savet = ['        mvc     .LT_PSW(8,%r1),0(%r6)',
                     '        mvc     .LT_GR(64,%r1),.LSAVE']
        elif st == 'c':
            savet = ['        l       %r2,.LT_PSWP(%r1)',
                     '        mvc     0(8,%r2),0(%r6)',
                     '        l       %r2,.LT_SAVEP(%r1)',
                     '        mvc     0(64,%r2),.LSAVE']
        else:
            savet = ['        l       %r2,.LTCBRBP(%r1)',
                     '        mvc     .LRBOPSW(8,%r2),0(%r6)',
                     '        mvc     .LTCBGRS(64,%r1),.LSAVE',
                     '        std     %f0,.LTCBFRS(%r1)',
                     '        std     %f2,.LTCBFRS+8(%r1)',
                     '        std     %f4,.LTCBFRS+16(%r1)',
                     '        std     %f6,.LTCBFRS+24(%r1)']
        oldtcb = ['        mvc     .LOLDTCB(4),.LCURTCB    # PSATOLD'] if st == 'd' else []
        T = hx(TCB_AT)
        S = hx(stride)
        # --job: the end of a task and SVC 4 count the tasks of the running phase, and the
        # end of the last one goes to the next phase (.Lphase)
        if g.job:
            ntref = '.LPHASEN        '
            alldone = 'b       .Lphase{R}              # every task of the phase has ended: the next phase'.format(R=R)
        else:
            ntref = '.Lntasks{R}'.format(R=R)
            alldone = 'lpsw    .Lendpsw{R}             # every task has ended: disabled wait'.format(R=R)
        text = f"""
# ==== the nucleus: supervisor state, key 0, DAT off, I/O and external disabled ====
.Lnuc:
.Linit: l       %r12,.LNUCBASE
        lctl    %c0,%c0,.Lcr0{R}      # 4K pages, 64K segments; CKC and CPU-timer masks
        la      %r2,0x80                # storage key 8 for the data frames
        l       %r3,.Ladata{R}
        la      %r4,{nblk}
.Li1:   .short  0x0823                  # SSK 2,3
        la      %r3,2048(%r3)
        bct     %r4,.Li1{R}
        sckc    .Lckcmax{R}
        spt     .Lcptmax{R}
        b       .Ldisp{R}

# ---- dispatcher: the next ready task after LASTTCB, round robin --------------------
.Ldisp: l       %r1,.LLASTTCB
        la      %r3,{nt}
.Ld1:   l       %r1,.LT_NEXT(%r1)
        cli     .LT_STATE(%r1),.LS_READY
        be      .Ld2{R}
        bct     %r3,.Ld1{R}
        sr      %r0,%r0                 # nobody is ready: enabled wait
        st      %r0,.LCURTCB
        spt     .Lcptmax{R}
        lpsw    .Lwaitpsw{R}
.Ld2:
""" + '\n'.join(oldtcb) + f"""
        st      %r1,.LCURTCB
        st      %r1,.LLASTTCB
        spt     .Lquantum{R}           # a new time slice
""" + '\n'.join(disp) + f"""

# .Lsavet (BAL 10): the running task (TCB in R1) is suspended: its PSW (the old PSW at
# R6) and registers (.LSAVE) go where the dispatcher of this style takes them from
.Lsavet:
""" + '\n'.join(savet) + f"""
        br      %r10

# ---- external interruptions: CPU timer (preemption), clock comparator (wake-up) ----
.Lext:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0x86(2,%r0),.Lcodecpt{R}
        be      .Lx1{R}
        clc     0x86(2,%r0),.Lcodeckc{R}
        be      .Lx2{R}
        lpsw    .Lbad058{R}
.Lx1:   l       %r1,.LCURTCB            # time slice over: preempt the running task
        ltr     %r1,%r1
        bz      .Ldisp{R}
        la      %r6,0x18
        bal     %r10,.Lsavet{R}
        b       .Ldisp{R}
.Lx2:   bal     %r10,.Lwake{R}          # wake the sleepers whose time has come
        l       %r1,.LCURTCB
        ltr     %r1,%r1
        bz      .Ldisp{R}               # the CPU was waiting: dispatch
        lm      %r0,%r15,.LSAVE         # else resume the interrupted task
        lpsw    0x18

# .Lwake (BAL 10): ready every sleeper due by now; clock comparator = the earliest other
.Lwake: stck    .LNOW
        mvc     .LNEXTCK(8),.Lckcmax{R}
        la      %r1,{T}
        la      %r3,{nt}
.Lw1:   cli     .LT_STATE(%r1),.LS_SLEEP
        bne     .Lw3{R}
        clc     .LT_WAKE(8,%r1),.LNOW
        bh      .Lw2{R}
        mvi     .LT_STATE(%r1),.LS_READY
        b       .Lw3{R}
.Lw2:   clc     .LT_WAKE(8,%r1),.LNEXTCK
        bnl     .Lw3{R}
        mvc     .LNEXTCK(8),.LT_WAKE(%r1)
.Lw3:   la      %r1,{S}(%r1)
        bct     %r3,.Lw1{R}
        sckc    .LNEXTCK
        br      %r10

# ---- SVC: 1 sleep, 2 I/O, 3 end, 4 wait for the others, 5 get, 6 yield -------------
.Lsvc:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        l       %r1,.LCURTCB
        lh      %r2,0x8A                # SVC number
        cl      %r2,.Lsvcmax{R}
        bh      .Lsbad{R}
        sll     %r2,2
        l       %r15,.Lsvctab-.Lnuc(%r2,%r12)
        srl     %r2,2
        sr      %r4,%r4                 # its R15 result
        sr      %r5,%r5                 # its R1 result
        br      %r15
.Lsbad: lpsw    .Lbad060{R}
# .Lsout (BAL 10): the results into the task's registers: R0 = the SVC number, R1 = R5,
# R14 = {hx(R14_JUNK)} + number, R15 = R4
.Lsout: st      %r2,.LSAVE
        st      %r5,.LSAVE+4
        l       %r0,.Ljunk{R}
        ar      %r0,%r2
        st      %r0,.LSAVE+56
        st      %r4,.LSAVE+60
        br      %r10
.Lsv1:  stck    .LNOW                   # SVC 1: wake at now + R1 microseconds
        lm      %r6,%r7,.LNOW
        l       %r8,.LSAVE+4
        sll     %r8,12                  # microseconds -> TOD units
        alr     %r7,%r8
        bc      12,.Ls1a{R}             # no carry
        al      %r6,.Lone{R}
.Ls1a:  stm     %r6,%r7,.LT_WAKE(%r1)
        bal     %r10,.Lsout{R}
        la      %r6,0x20
        bal     %r10,.Lsavet{R}
        mvi     .LT_STATE(%r1),.LS_SLEEP
        bal     %r10,.Lwake{R}
        b       .Ldisp{R}
.Lsv2:  bal     %r10,.Lsout{R}          # SVC 2: I/O, queued while the device is busy
        la      %r6,0x20
        bal     %r10,.Lsavet{R}
        mvi     .LT_STATE(%r1),.LS_IOQ
        l       %r0,.LIOOWNER
        ltr     %r0,%r0
        bnz     .Ldisp{R}
        bal     %r10,.Lstartio{R}
        b       .Ldisp{R}
.Lsv3:  mvi     .LT_STATE(%r1),.LS_ENDED  # SVC 3: end of task
        l       %r0,.LENDED
        al      %r0,.Lone{R}
        st      %r0,.LENDED
        cl      %r0,{ntref.rstrip()}
        bne     .Ls3a{R}
        {alldone}
.Ls3a:  bal     %r10,.Ljoinck{R}
        b       .Ldisp{R}
.Lsv4:  bal     %r10,.Lsout{R}          # SVC 4: wait until the others end or wait so
        la      %r6,0x20
        bal     %r10,.Lsavet{R}
        mvi     .LT_STATE(%r1),.LS_JOIN
        l       %r0,.LJOINERS
        al      %r0,.Lone{R}
        st      %r0,.LJOINERS
        bal     %r10,.Ljoinck{R}
        b       .Ldisp{R}
.Lsv5:  l       %r4,.LT_VAL1(%r1)       # SVC 5: the task's value and flag; it goes on
        l       %r5,.LT_VAL2(%r1)
        bal     %r10,.Lsout{R}
        lm      %r0,%r15,.LSAVE
        lpsw    0x20
.Lsv6:  la      %r4,4                   # SVC 6: yield
        bal     %r10,.Lsout{R}
        la      %r6,0x20
        bal     %r10,.Lsavet{R}
        b       .Ldisp{R}
# .Ljoinck (BAL 10): when every task has ended or waits in SVC 4, the waiting ones go on
.Ljoinck: l     %r0,.LJOINERS
        ltr     %r0,%r0
        bcr     8,%r10
        al      %r0,.LENDED
        cl      %r0,{ntref.rstrip()}
        bcr     7,%r10
        la      %r7,{T}
        la      %r3,{nt}
.Lj1:   cli     .LT_STATE(%r7),.LS_JOIN
        bne     .Lj2{R}
        mvi     .LT_STATE(%r7),.LS_READY
.Lj2:   la      %r7,{S}(%r7)
        bct     %r3,.Lj1{R}
        sr      %r0,%r0
        st      %r0,.LJOINERS
        br      %r10

# .Lstartio (BAL 10): start the I/O of the task whose TCB is in R1
.Lstartio: mvc  0x48(4),.Lcaw{R}        # CAW: key 0, the channel program
        .long   0x9C00000C              # SIO 12(0): device 000C
        bc      8,.Lsio0{R}
        bc      4,.Lsio1{R}
        lpsw    .Lbad0C2{R}             # busy or not operational: stop
.Lsio0: st      %r1,.LIOOWNER           # started: the task waits for its interruption
        mvi     .LT_STATE(%r1),.LS_IOWAIT
        br      %r10
.Lsio1: mvi     .LT_STATE(%r1),.LS_READY  # CSW stored: it is over already
        br      %r10

# ---- I/O interruption: the I/O on 000C is over -----------------------------------
.Lio:   stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0xBA(2,%r0),.Ldev{R}
        bne     .Lio9{R}
        tm      0x44,0x04               # CSW unit status: device end?
        bno     .Lio9{R}
        l       %r1,.LIOOWNER
        ltr     %r1,%r1
        bz      .Lio9{R}
        mvi     .LT_STATE(%r1),.LS_READY
        sr      %r0,%r0
        st      %r0,.LIOOWNER
        la      %r1,{T}                 # start the next queued request, if any
        la      %r3,{nt}
.Lio1:  cli     .LT_STATE(%r1),.LS_IOQ
        bne     .Lio2{R}
        bal     %r10,.Lstartio{R}
        l       %r0,.LIOOWNER
        ltr     %r0,%r0
        bnz     .Lio9{R}
.Lio2:  la      %r1,{S}(%r1)
        bct     %r3,.Lio1{R}
.Lio9:  l       %r1,.LCURTCB
        ltr     %r1,%r1
        bz      .Ldisp{R}               # the CPU was waiting: dispatch
        lm      %r0,%r15,.LSAVE         # else resume the interrupted task
        lpsw    0x38

# ---- program check: page faults of the tasks; anything else stops ------------------
.Lpgm:  stm     %r0,%r15,.LSAVE
        l       %r12,.LNUCBASE
        clc     0x8E(2,%r0),.Lcodept{R}  # page-translation exception?
        bne     .Lpbad{R}
        tm      0x29,0x01               # from a task (problem state)?
        bno     .Lpbad{R}
        stctl   %c1,%c1,.LTMP           # the segment table of the running task
        l       %r3,.LTMP
        n       %r3,.Lstomask{R}
        l       %r2,0x90                # translation-exception address
        lr      %r4,%r2
        srl     %r4,16                  # segment index
        n       %r4,.Lff{R}
        sll     %r4,2
        l       %r5,0(%r4,%r3)          # segment-table entry
        n       %r5,.Lptomask{R}
        lr      %r4,%r2
        srl     %r4,12                  # page index
        n       %r4,.Lf{R}
        ar      %r4,%r4
        ar      %r5,%r4                 # page-table entry
        lh      %r6,0(%r5)
        n       %r6,.Lpfra{R}
        bz      .Lpbad{R}               # no frame behind it: a wild reference
        ni      1(%r5),0xFF-0x08        # the page is valid now
        ptlb
        lm      %r0,%r15,.LSAVE
        lpsw    0x28                    # again at the instruction (nullified) or its fetch
.Lpbad: lpsw    .Lbad068{R}

# ---- nucleus constants ------------------------------------------------------------
        .balign 8
.Lwaitpsw: .long 0x030A0000, .Ldisp     # enabled wait: I/O and external
.Lendpsw: .long 0x000A0000, 0x00000000  # all tasks ended
.Lbad058: .long 0x000A0000, 0x00BAD058  # unexpected external interruption
.Lbad060: .long 0x000A0000, 0x00BAD060  # unknown SVC
.Lbad068: .long 0x000A0000, 0x00BAD068  # program check that is not a task's page fault
.Lbad0C2: .long 0x000A0000, 0x00BAD0C2  # SIO found the device busy / not there
.Lckcmax: .long 0xFFFFFFFF, 0xFFFFFFFF  # clock comparator: never
.Lcptmax: .long 0x7FFFFFFF, 0xFFFFFFFF  # CPU timer: never
.Lquantum: .long 0, {g.quantum} << 12   # the time slice: {g.quantum} us
.Lccw:  .long   0x04000000 + .Lsense, 0x20000001  # SENSE 1 byte, SLI
.Lsense: .long  0, 0
.Lcaw:  .long   .Lccw
.Lcr0:  .long   0x00800C00
.Ladata: .long  {hx(DATA_R)}
.Lsvctab: .long .Lsbad, .Lsv1, .Lsv2, .Lsv3, .Lsv4, .Lsv5, .Lsv6
.Lsvcmax: .long 6
.Lone:  .long   1
.Lntasks: .long {nt}
.Ljunk: .long   {hx(R14_JUNK)}
.Lf:    .long   0xF
.Lff:   .long   0xFF
.Lpfra: .long   0xFFF0
.Lstomask: .long 0x00FFFFC0
.Lptomask: .long 0x00FFFFF8
.Lcodecpt: .short 0x1005
.Lcodeckc: .short 0x1004
.Lcodept: .short 0x0011
.Ldev:  .short  0x000C
"""
        if g.job:
            text += self.job_code(R)
        self.out.extend(text.split('\n'))

    def job_code(self, R):
        """--job: the phases and the console. PHASE 0: the tasks before the job run; when
        the last has ended, the console says $HASP373 and the job's tasks are released
        (PHASE 1); when the last of those has ended, $HASP395, then the tasks after the job
        (PHASE 2); when they have ended, the disabled wait. The console is a 3215 at 009,
        written as tests/programs/mvsjob.s writes it: SIO, then TIO until it is no longer
        busy, with every interruption disabled (the nucleus runs so), the TIO taking the
        device end: no interruption of 009 reaches .Lio."""
        g = self.g
        soff = 0x84 if g.style == 'd' else 0x4C

        def release(ts):
            return '\n'.join('        mvi     %s,.LS_READY          # %s' % (hx(t.tcb + soff), t.name) for t in ts)
        lines = []
        for lab, text in zip(('373', '395'), job_lines()):
            bs = ebcdic_text(text)
            lines.append('# "%s", EBCDIC' % text)
            lines.append('.Lmsg%s:' % lab)
            for i in range(0, len(bs), 16):
                lines.append('        .byte   %s' % ','.join(hx(b) for b in bs[i:i + 16]))
            lines.append('.Lend%s:' % lab)
        return f"""
# ==== the job (osgen.py --job): phases, and the console (a 3215 at 009) ==============
.Lphase: sr     %r0,%r0                 # a new phase: none of its tasks has ended or waits
        st      %r0,.LENDED
        st      %r0,.LJOINERS
        cli     .LPHASE+3,1
        bl      .Lph1{R}
        be      .Lph2{R}
        lpsw    .Lendpsw{R}             # the tasks after the job have ended: disabled wait
.Lph1:  la      %r3,.Lccw373{R}          # the job starts: $HASP373
        bal     %r11,.Lcons{R}
        mvi     .LPHASE+3,1
        mvc     .LPHASEN(4),.Lnjob{R}
{release(g.tasks)}
        b       .Ldisp{R}
.Lph2:  la      %r3,.Lccw395{R}          # the job has ended: $HASP395
        bal     %r11,.Lcons{R}
        mvi     .LPHASE+3,2
        mvc     .LPHASEN(4),.Lnpost{R}
{release(g.post)}
        b       .Ldisp{R}

# .Lcons (BAL 11): write the console line whose CCW is at R3 and wait for its end
.Lcons: st      %r3,0x48                # CAW: key 0, the CCW
        .long   0x9C000009              # SIO 009 (binutils has no SIO/TIO)
.Lcons1: .long  0x9D000009              # TIO 009
        bc      2,.Lcons1{R}            # busy: again
        br      %r11

        .balign 8
.Lccw373: .long 0x09000000 + .Lmsg373, 0x20000000 + .Lend373 - .Lmsg373  # write, SLI
.Lccw395: .long 0x09000000 + .Lmsg395, 0x20000000 + .Lend395 - .Lmsg395
.Lnjob: .long   {len(g.tasks)}
.Lnpost: .long  {len(g.post)}
""" + '\n'.join(lines) + '\n'

    def tables(self):
        g, w = self.g, self.w
        w()
        w('# ---- segment tables (16 entries: 64K segments 0-15) and page tables (16 entries) ----')
        rows = []
        for sp in g.spaces:
            ents = [1] * 16
            ents[2] = 0xF0000000 | g.pt_nuc
            ents[SEG_PROG] = 0xF0000000 | sp.pt_prog
            ents[SEG_DATA] = 0xF0000000 | sp.pt_data
            rows.append((sp.sto, 'segment table of space %d (CR1 %08X)' % (sp.idx + 1, sp.cr1),
                         '.long', ents))
        rows.append((g.pt_nuc, 'page table: the nucleus (V=R, valid)', '.short',
                     [(NUC + i * PAGE) >> 8 for i in range(16)]))
        for sp in g.spaces:
            rows.append((sp.pt_prog, 'page table of space %d: the programs\' segment' % (sp.idx + 1),
                         '.short', g.pt_entries_prog(sp)))
            rows.append((sp.pt_data, 'page table of space %d: the data segment' % (sp.idx + 1),
                         '.short', g.pt_entries_data(sp)))
        for addr, what, kind, ents in sorted(rows):
            w('        .org    %s                 # %s' % (hx(addr - NUC), what))
            for i in range(0, 16, 8):
                w('        %s  %s' % (kind, ', '.join(hx(x) for x in ents[i:i + 8])))

    def program(self, p):
        g, w = self.g, self.w
        w()
        w('# ==== program %s: %05X (virtual = real) ==========================================' % (p.letter, p.at))
        for r in p.routines:
            w()
            w('# ---- %s (%s, %s) ----' % (r.name, r.kindname, r.role))
            w('        .org    %s' % hx(r.entry - NUC))
            for it, ad in zip(r.items, r.addrs):
                if isinstance(it, Ins):
                    note = ''
                    if it.call is not None:
                        note = '   # call %s' % it.call.name
                    elif it.ret:
                        note = '   # return'
                    w('        %s%s' % (it.text(), note))
                    continue
                k = it[0]
                if k == 'lab':
                    w('%s:' % it[1])
                elif k == 'fentry':
                    w('        %s   %s' % ('FORTG' if it[1] == 'G' else 'FORTH', it[2]))
                elif k == 'aentry':
                    w('        ASMENTRY %s' % it[1])
                elif k == 'align':
                    w('        .balign %d' % it[1])
                elif k == 'long':
                    w('        .long   %s' % (it[1] if isinstance(it[1], str) else hx(it[1])))
                elif k == 'short':
                    w('        .short  %d' % it[1])
                elif k == 'skip':
                    w('        .long   0x0A630A63              # skipped: the callee returns with B 4(,14)')
                elif k == 'pagegap':
                    w('        .org    %s                # the call site ends page %05X' % (hx(ad - NUC), ad & ~(PAGE - 1)))

    def data(self):
        g, w = self.g, self.w
        w()
        w('# ==== the tasks\' data frames: parameters (words from +0), scratch word at +%X ====' % SCRATCH)
        for t in sorted(g.all_tasks(), key=lambda t: t.frames[0]):
            w('        .org    %s                # %s: virtual %05X in space %d' % (
                hx(t.frames[0] - NUC), t.name, t.dv, t.space.idx + 1))
            vals = [t.values.get(prm.off, 0) for prm in t.space.prog.params]
            if vals:
                w('        .long   %s' % ', '.join('%d' % v for v in vals))
            else:
                w('        .long   0')


# ======================================================================================
# output: the expected figures, the model bytes, the CSV map
# ======================================================================================

def expected_text(g):
    out = []
    w = out.append
    w('# os%d.expected -- generated by tests/os/osgen.py (version %d) with os%d.s: the figures'
      % (g.seed, VERSION, g.seed))
    w('# every run of that system must give, from its construction (tests/os/README.md). Tasks')
    w('# are the generator\'s T1..Tn; fst numbers its own: match them by space and mainline.')
    w('# Only problem-state instructions count. Lines without -default: every routine timed')
    w('# (--timed=all); -default: only FORTRAN-compatible routines timed (the default).')
    if g.job:
        w('# --job: every figure without job- or run- is of the job\'s window, from the console\'s')
        w('# $HASP373 %s STARTED to its $HASP395 %s ENDED (its tasks T1..Tn); job-task lines are' % (JOB_NAME, JOB_NAME))
        w('# the tasks before and after it, outside the window (job-outside-*: their figures).')
    w('version %d' % VERSION)
    w('seed %d' % g.seed)
    if g.attempt:
        w('attempt %d' % g.attempt)
    w('style %s' % g.style)
    w('quantum-us %d' % g.quantum)
    w('budget %d %d' % (g.lo, g.hi))
    if g.job:
        w('job %s' % JOB_NAME)
    w('tasks %d' % len(g.tasks))
    w('spaces %d' % len(g.spaces))
    w('range %X-%X' % RANGE)
    w('exit-stub %X' % EXIT_STUB)
    w('problem %d' % sum(t.fig['problem'] for t in g.tasks))
    w('problem-range %d' % sum(t.fig['inrange'] for t in g.tasks))
    w('page-faults %d' % (sum(g.space_faults.values())))
    if g.job:
        xt = g.pre + g.post
        w('run-problem %d' % sum(t.fig['problem'] for t in g.all_tasks()))
        w('run-page-faults %d' % sum(n for f in g.phase_faults.values() for n in f.values()))
        w('job-outside-problem %d' % sum(t.fig['problem'] for t in xt))
    for sp in g.spaces:
        w('space %08X program %s tasks %d problem %d problem-range %d page-faults %d' % (
            sp.cr1, sp.prog.letter, len(sp.tasks), sum(t.fig['problem'] for t in sp.tasks),
            sum(t.fig['inrange'] for t in sp.tasks), g.space_faults[sp.idx]))
    allr = [r for p in g.programs for r in p.routines]
    for r in allr:
        w('routine %s %X %X %s %s' % (r.name, r.entry, r.end, r.kindname, r.prog.letter))
    for t in g.tasks:
        w('task %s space %08X mainline %s data %X r13 %X lm %X tcb %X' % (
            t.name, t.space.cr1, t.mainline.name, t.dv, t.dv + t.stack, t.lm, t.tcb))
    def routines_of(fig, default):
        names = set(fig['self-default' if default else 'self']) | set(fig['calls-default' if default else 'calls'])
        return [r.name for r in allr if r.name in names]
    for t in g.tasks:
        f = t.fig
        for sfx in ('', '-default'):
            for rn in routines_of(f, sfx == '-default'):
                w('task-calls%s %s %s %d' % (sfx, t.name, rn, f['calls' + sfx].get(rn, 0)))
            for rn in routines_of(f, sfx == '-default'):
                w('task-self%s %s %s %d' % (sfx, t.name, rn, f['self' + sfx].get(rn, 0)))
            for rn in routines_of(f, sfx == '-default'):
                w('task-incl%s %s %s %d' % (sfx, t.name, rn, f['incl' + sfx].get(rn, 0)))
            for (a, b), n in sorted(f['arcs' + sfx].items()):
                w('task-arc%s %s %s %s %d' % (sfx, t.name, a, b, n))
        w('task-outside %s %d' % (t.name, f['outside']))
        w('task-problem %s %d' % (t.name, f['problem']))
        w('task-problem-range %s %d' % (t.name, f['inrange']))
        for rn, n in sorted(f['entries'].items()):
            w('task-entries %s %s %d' % (t.name, rn, n))
        for n, c in sorted(f['svc'].items()):
            w('task-svc %s %d %d' % (t.name, n, c))
        w('task-opfaults %s %d' % (t.name, f['opfaults']))
    if g.job:
        for t in g.pre + g.post:
            w('job-task %s phase %s space %08X mainline %s data %X r13 %X lm %X tcb %X' % (
                t.name, t.phase, t.space.cr1, t.mainline.name, t.dv, t.dv + t.stack, t.lm, t.tcb))
        for t in g.pre + g.post:
            f = t.fig
            for rn in routines_of(f, False):
                w('job-task-calls %s %s %d' % (t.name, rn, f['calls'].get(rn, 0)))
            for rn in routines_of(f, False):
                w('job-task-self %s %s %d' % (t.name, rn, f['self'].get(rn, 0)))
            w('job-task-problem %s %d' % (t.name, f['problem']))

    def total(key, tasks):
        d = {}
        for t in tasks:
            for k, v in t.fig[key].items():
                d[k] = d.get(k, 0) + v
        return d
    for sfx in ('', '-default'):
        names = [r.name for r in allr if sfx == '' or r.fortran or any(t.mainline is r for t in g.tasks)]
        c, s_, i = total('calls' + sfx, g.tasks), total('self' + sfx, g.tasks), total('incl' + sfx, g.tasks)
        for rn in names:
            w('calls%s %s %d' % (sfx, rn, c.get(rn, 0)))
        for rn in names:
            w('self%s %s %d' % (sfx, rn, s_.get(rn, 0)))
        for rn in names:
            w('incl%s %s %d' % (sfx, rn, i.get(rn, 0)))
        for (a, b), n in sorted(total('arcs' + sfx, g.tasks).items()):
            w('arc%s %s %s %d' % (sfx, a, b, n))
    if g.job:
        xt = g.pre + g.post
        c, s_ = total('calls', xt), total('self', xt)
        for rn in [r.name for r in allr if r.name in c or r.name in s_]:
            w('job-outside-calls %s %d' % (rn, c.get(rn, 0)))
        for rn in [r.name for r in allr if r.name in c or r.name in s_]:
            w('job-outside-self %s %d' % (rn, s_.get(rn, 0)))
    for sp in g.spaces:
        for sfx in ('', '-default'):
            names = [r.name for r in sp.prog.routines if sfx == '' or r.fortran or any(t.mainline is r for t in sp.tasks)]
            c, s_ = total('calls' + sfx, sp.tasks), total('self' + sfx, sp.tasks)
            for rn in names:
                w('space-calls%s %08X %s %d' % (sfx, sp.cr1, rn, c.get(rn, 0)))
            for rn in names:
                w('space-self%s %08X %s %d' % (sfx, sp.cr1, rn, s_.get(rn, 0)))
            for (a, b), n in sorted(total('arcs' + sfx, sp.tasks).items()):
                w('space-arc%s %08X %s %s %d' % (sfx, sp.cr1, a, b, n))
    return '\n'.join(out) + '\n'


def model_text(g):
    out = ['# os%d.model -- the bytes the generator put into the programs: ADDRESS HEX' % g.seed]
    for p in g.programs:
        for r in p.routines:
            for it, ad in zip(r.items, r.addrs):
                if isinstance(it, Ins):
                    b = it.encode()
                elif it[0] == 'fentry':
                    b = bytes.fromhex('47F0F00C') + ebcdic_name(it[1], it[2])
                elif it[0] == 'long':
                    v = it[1] if isinstance(it[1], int) else g.labels[it[1]]
                    b = v.to_bytes(4, 'big')
                elif it[0] == 'short':
                    b = it[1].to_bytes(2, 'big')
                elif it[0] == 'skip':
                    b = bytes.fromhex('0A630A63')
                else:
                    continue
                out.append('%05X %s' % (ad, b.hex().upper()))
    out.append('%05X %s' % (EXIT_STUB, '0A03'))
    return '\n'.join(out) + '\n'


def map_csv(g):
    allr = sorted((r for p in g.programs for r in p.routines), key=lambda r: r.entry)
    base = allr[0].entry
    out = ['name,type,origin,length', ',MODULE,0,']
    for r in allr:
        out.append('%s,SD,%X,%X' % (r.name, r.entry - base, r.end - r.entry))
    return '\n'.join(out) + '\n'


def generate(seed, budget=None, job=False):
    errs = []
    for attempt in range(60):
        g = Gen(seed, budget, attempt, job)
        try:
            g.generate()
            g.errors = errs
            return g
        except GenError as e:
            errs.append(str(e))
    raise GenError('seed %d: no system after 60 attempts: %s' % (seed, errs[-3:]))


def main():
    ap = argparse.ArgumentParser(description='Generate a small multitasking S/370 system and its expected profile.')
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('-o', '--outdir', default='.')
    ap.add_argument('--budget', help='LO-HI: total problem-state instructions (default: 20000 to one of 40000..150000)')
    ap.add_argument('--summary', action='store_true', help='print one line about the system')
    ap.add_argument('--job', action='store_true',
                    help='the system is a job: tasks before it, the console\'s $HASP373 %s STARTED, the job, '
                         '$HASP395 %s ENDED, tasks after it; the figures are the window\'s' % (JOB_NAME, JOB_NAME))
    a = ap.parse_args()
    budget = None
    if a.budget:
        lo, hi = a.budget.split('-')
        budget = (int(lo), int(hi))
    try:
        g = generate(a.seed, budget, a.job)
    except GenError as e:
        print('osgen: %s' % e, file=sys.stderr)
        return 2
    os.makedirs(a.outdir, exist_ok=True)
    stem = os.path.join(a.outdir, 'os%d' % a.seed)
    with open(stem + '.s', 'w') as f:
        f.write(Writer(g).source())
    with open(stem + '.expected', 'w') as f:
        f.write(expected_text(g))
    with open(stem + '.model', 'w') as f:
        f.write(model_text(g))
    with open(stem + '.map.csv', 'w') as f:
        f.write(map_csv(g))
    if a.summary:
        print('seed %d: style %s, %d tasks, %d spaces, %d programs, %d problem-state instructions, quantum %d us%s%s'
              % (a.seed, g.style, len(g.tasks), len(g.spaces), len(g.programs), g.total, g.quantum,
                 (', attempt %d' % g.attempt) if g.attempt else '',
                 ('; job %s: %d tasks before (%s), %d after (%s), %d problem-state instructions outside' % (
                     JOB_NAME, len(g.pre), ' '.join('%s:%s' % (t.name, t.mainline.name) for t in g.pre),
                     len(g.post), ' '.join('%s:%s' % (t.name, t.mainline.name) for t in g.post),
                     sum(t.fig['problem'] for t in g.pre + g.post))) if g.job else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
