#!/usr/bin/env python3
"""truth.py -- check a generated system's expected figures against a Hercules 3.13 log of
it, without fst: the "truth check" of tests/os/README.md.

    truth.py osN.expected LOG[.gz] [--mode whole|range] [--print]

It replays the log's instruction records by the rules of DESIGN section 3, an
implementation independent of the generator's interpreter (which works on the program it
built, not on a trace):
  * a record = a PSW line with INST=; the copy Hercules prints after HHCCP014I and the
    "Instruction fetch error" line are not records (an instruction nullified by a page
    fault gives two records, one whose fetch faulted one);
  * problem state = PSW bit 15;
  * a job's system (osgen.py --job: the expected file says `job NAME`): only the records
    between the console's `$HASP373 NAME STARTED` and `$HASP395 NAME ENDED` lines (the
    job's window; Hercules logs the console's lines among the trace lines, sometimes inside
    one: the line that holds the message is the edge);
  * the task of a problem-state record: in a log of the whole system, the task the
    supervisor's last LM 0,15 loaded (its operand address is the task's register block:
    the expected file's `lm`; an LM from the interrupted-register area 380 resumes the
    task that was interrupted); in a range log with registers, the task whose space (CR1)
    and data address (R9, which no task instruction changes) the record shows; in a range
    log without registers, no task (only totals are checked);
  * per task: a BALR/BAL with link register 14 followed by an instruction at a routine's
    entry is a call; a BR 14 / B 4(,14) followed by the return address of a frame (or +4)
    pops it; the first record at the mainline's entry is no call; the mainline's return
    out of every routine (to the task exit) makes the rest "outside".
Then it compares every figure it could compute with the expected file and prints the
differences. Exit status 0 when none, 1 when some, 2 on bad input.
"""
import argparse
import gzip
import re
import sys

from osexp import Expected

PSWRE = re.compile(r'^(?:\d\d:\d\d:\d\d )?PSW=([0-9A-F]{8}) ([0-9A-F]{8}) (.*)$')
OPRE = re.compile(r'^(?:\d\d:\d\d:\d\d )?[RV]:([0-9A-F]{8}):')
GRRE = re.compile(r'GR(\d\d)=([0-9A-F]{8})')
CRRE = re.compile(r'CR01=([0-9A-F]{8})')
L_SAVE = 0x380


def openlog(path):
    if path.endswith('.gz'):
        return gzip.open(path, 'rt', errors='replace')
    return open(path, errors='replace')


class Rec:
    __slots__ = ('psw', 'ia', 'inst', 'problem', 'op', 'gr', 'cr1')

    def __init__(self, psw, ia, inst):
        self.psw, self.ia, self.inst = psw, ia, inst
        self.problem = bool(int(psw[2:4], 16) & 1)
        self.op = None
        self.gr = {}
        self.cr1 = None


def records(path, stats, job=None):
    """Yield the instruction records of a log, each with its operand address and (traditional)
    registers and CR1; count the messages into stats. job: a job's name: only the lines
    after the one that says it started and before the one that says it ended."""
    cur = None
    redisp = False
    window = job is None
    with openlog(path) as f:
        for line in f:
            line = line.rstrip('\r\n')
            if job is not None:
                if not window:
                    if '$HASP373 %s ' % job in line and 'STARTED' in line:
                        window = True
                        stats['job-start'] = stats.get('job-start', 0) + 1
                    continue
                if '$HASP395 %s ' % job in line and 'ENDED' in line:
                    stats['job-end'] = stats.get('job-end', 0) + 1
                    break
            if line.startswith('HHCCP'):
                if cur is not None:
                    yield cur
                    cur = None
                code = line[:9]
                stats[code] = stats.get(code, 0) + 1
                if code == 'HHCCP014I':
                    redisp = True
                elif code == 'HHCCP025I':
                    yield 'preempt'
                continue
            m = PSWRE.match(line)
            if m:
                if cur is not None:
                    yield cur
                    cur = None
                if redisp:
                    redisp = False
                    continue
                rest = m.group(3)
                if 'Instruction fetch error' in rest:
                    stats['fetch-error'] = stats.get('fetch-error', 0) + 1
                    continue
                if not rest.startswith('INST='):
                    continue
                inst = rest[5:].split()[0]
                cur = Rec(m.group(1), int(m.group(2), 16), inst)
                continue
            if cur is None:
                continue
            m = OPRE.match(line)
            if m and cur.op is None:
                cur.op = int(m.group(1), 16)
                continue
            if 'GR00=' in line or 'GR04=' in line or 'GR08=' in line or 'GR12=' in line:
                for r, v in GRRE.findall(line):
                    cur.gr[int(r)] = int(v, 16)
                continue
            m = CRRE.search(line)
            if m:
                cur.cr1 = m.group(1)
    if cur is not None:
        yield cur


class TaskReplay:
    def __init__(self, exp, name):
        self.exp, self.name = exp, name
        self.stack = []
        self.started = False
        self.pcall = None
        self.pret = False
        self.f = {}
        self.mainline = exp.tasks[name]['mainline'] if name in exp.tasks else None
        self.last = None          # its last record
        self.preempted = None     # the kind of its last record when it was preempted after it

    def add(self, key, n=1):
        self.f[key] = self.f.get(key, 0) + n

    def timed(self, r):
        return self.exp.fortran(r) or r == self.mainline

    def top_timed(self):
        for r, _ in reversed(self.stack):
            if self.timed(r):
                return r
        return None

    def preempt(self, stats):
        """A CPU-timer interruption right after this task's last record: where it fell."""
        if self.last is None:
            return
        def bump(k):
            stats[k] = stats.get(k, 0) + 1
        bump('preempt')
        if self.pcall is not None:
            bump('preempt-between-call-and-entry')
        if self.pret:
            bump('preempt-right-after-return')
        names = [r for r, _ in self.stack]
        if len(names) != len(set(names)):
            bump('preempt-in-recursion')
        op = self.last.inst[:2]
        if op in ('47', '46', '87', '86', '07', '06'):
            self.preempted = self.last
        else:
            self.preempted = None

    def record(self, rec, stats=None):
        exp, t = self.exp, self.name
        a = rec.ia
        at = exp.routine_at(a)
        if self.preempted is not None and stats is not None:
            ln = {'0': 2, '4': 4, '8': 4}[self.preempted.inst[0]]
            k = 'preempt-after-untaken-branch' if a == self.preempted.ia + ln else 'preempt-after-taken-branch'
            stats[k] = stats.get(k, 0) + 1
        self.preempted = None
        self.last = rec
        if not self.started:
            self.started = True
            if a in exp.entries:
                self.stack.append((exp.entries[a], None))
                self.add(('task-first', t, exp.entries[a]))
        elif self.pcall is not None and a in exp.entries:
            callee = exp.entries[a]
            caller = self.stack[-1][0] if self.stack else None
            self.add(('task-calls', t, callee))
            if caller:
                self.add(('task-arc', t, caller, callee))
            if self.timed(callee):
                self.add(('task-calls-default', t, callee))
                tt = self.top_timed()
                if tt:
                    self.add(('task-arc-default', t, tt, callee))
            self.stack.append((callee, self.pcall))
        elif self.pret and self.stack:
            for d in range(len(self.stack) - 1, -1, -1):
                ret = self.stack[d][1]
                if ret is not None and (a - ret) in (0, 4, 8, 12, 16):
                    if d != len(self.stack) - 1:
                        self.add(('unwinds', t))
                    del self.stack[d:]
                    break
            else:
                if len(self.stack) == 1 and self.stack[0][1] is None and at is None:
                    self.stack.pop()
        # charge it
        self.add(('task-problem', t))
        if exp.range[0] <= a <= exp.range[1]:
            self.add(('task-problem-range', t))
        if a in exp.entries:
            self.add(('task-entries', t, exp.entries[a]))
        if not self.stack:
            self.add(('task-outside', t))
        else:
            top = self.stack[-1][0]
            self.add(('task-self', t, top))
            if at != top:
                self.add(('self-not-at-its-address', t))
            tt = self.top_timed()
            self.add(('task-self-default', t, tt))
            seen = set()
            for r, _ in self.stack:
                if r not in seen:
                    seen.add(r)
                    self.add(('task-incl', t, r))
                    if self.timed(r):
                        self.add(('task-incl-default', t, r))
        # what it may lead to
        h = rec.inst
        self.pcall = None
        self.pret = False
        if h[:2] == '05' and h[2] == 'E' and h[3] != '0':
            self.pcall = a + 2
        elif h[:3] == '45E':
            self.pcall = a + 4
        elif h == '07FE' or h[:5] == '47F0E':
            self.pret = True
        if h[:2] == '0A':
            self.add(('task-svc', t, str(int(h[2:4], 16))))


def replay(exp, path, mode):
    """The figures a log shows, in the expected file's keys, and the log's statistics."""
    stats = {}
    facts = {}
    lm_task = {int(t['lm'], 16): n for n, t in exp.tasks.items()}
    by_r9 = exp.task_of_space_data()
    tasks = {n: TaskReplay(exp, n) for n in exp.tasks}
    cur = None
    pend_lm = False
    problems = []
    bad = {'cr1-wrong': 0, 'r9-wrong': 0, 'unknown-task': 0, 'unknown-lm': 0}
    regs_seen = False
    noregs_range = TaskReplay(exp, '*')
    last_problem = None
    for rec in records(path, stats, exp.meta.get('job')):
        if rec == 'preempt':
            if last_problem is not None and last_problem in tasks:
                tasks[last_problem].preempt(stats)
            continue
        if not rec.problem:
            last_problem = None
            stats['supervisor'] = stats.get('supervisor', 0) + 1
            if rec.inst[:4] == '980F':            # LM 0,15: whose registers?
                if rec.op is None:
                    continue
                if rec.op == L_SAVE:
                    continue
                if rec.op in lm_task:
                    cur = lm_task[rec.op]
                else:
                    bad['unknown-lm'] += 1
            continue
        stats['problem'] = stats.get('problem', 0) + 1
        if rec.gr:
            regs_seen = True
        if mode == 'whole':
            t = cur
            if t is None:
                bad['unknown-task'] += 1
                continue
            te = exp.tasks[t]
            if rec.cr1 is not None and rec.cr1 != te['space']:
                bad['cr1-wrong'] += 1
            if 9 in rec.gr and rec.gr[9] != int(te['data'], 16):
                bad['r9-wrong'] += 1
        else:
            if rec.gr and rec.cr1:
                t = by_r9.get((rec.cr1, rec.gr.get(9)))
                if t is None:
                    bad['unknown-task'] += 1
                    continue
            else:
                t = None
        if t is None:
            # a range log without registers: totals by address only
            a = rec.ia
            at = exp.routine_at(a)
            facts[('problem-range',)] = facts.get(('problem-range',), 0) + 1
            if at:
                facts[('self', at)] = facts.get(('self', at), 0) + 1
            if a in exp.entries:
                facts[('entries', exp.entries[a])] = facts.get(('entries', exp.entries[a]), 0) + 1
            continue
        tasks[t].record(rec, stats)
        last_problem = t
    for tr in tasks.values():
        for k, v in tr.f.items():
            facts[k] = facts.get(k, 0) + v
    stats.update(bad)
    stats['regs'] = regs_seen
    return facts, stats


def compare(exp, facts, stats, mode):
    """The differences between the expected file and what the log shows: a list of
    strings (empty: the expected figures are the log's)."""
    diffs = []
    regs = stats.get('regs')
    for k in ('cr1-wrong', 'r9-wrong', 'unknown-task', 'unknown-lm', 'self-not-at-its-address'):
        n = stats.get(k, 0) + sum(v for f, v in facts.items() if f[0] == k)
        if n:
            diffs.append('%s: %d records' % (k, n))
    unw = sum(v for f, v in facts.items() if f[0] == 'unwinds')
    if unw:
        diffs.append('unwinds: %d' % unw)
    pf = stats.get('HHCCP014I', 0)
    if mode == 'whole' and pf != int(exp.meta['page-faults']):
        diffs.append('page faults: log %d, expected %s' % (pf, exp.meta['page-faults']))
    # a range trace does not show a fetch fault right after the supervisor's LPSW (a task's
    # first instruction, or a preemption between a branch and its target): which task
    # takes a fault on a shared page is timing, so only bounds hold there
    opf = sum(v for f, v in exp.facts.items() if f[0] == 'task-opfaults')
    if mode == 'range' and not opf <= pf <= int(exp.meta['page-faults']):
        diffs.append('page faults: log %d, expected %d to %s' % (pf, opf, exp.meta['page-faults']))
    if 'job' in exp.meta:
        if stats.get('job-start') != 1 or stats.get('job-end') != 1:
            diffs.append('the job\'s window: %d start lines, %d end lines' % (stats.get('job-start', 0), stats.get('job-end', 0)))
    elif mode == 'whole' and stats.get('HHCCP011I', 0) != 1:
        diffs.append('the run did not end in a disabled wait')
    if mode == 'range' and not regs:
        # totals only: instructions in the range, self by address, entries
        want = int(exp.meta['problem-range'])
        got = facts.get(('problem-range',), 0)
        if want != got:
            diffs.append('problem-state instructions in the range: log %d, expected %d' % (got, want))
        sel = exp.select('self')
        ent = {}
        for (t, r), v in exp.select('task-entries').items():
            ent[r] = ent.get(r, 0) + v
        for r in exp.order:
            w, g = sel.get((r,), 0), facts.get(('self', r), 0)
            if w != g:
                diffs.append('self %s: log %d, expected %d' % (r, g, w))
            w, g = ent.get(r, 0), facts.get(('entries', r), 0)
            if w != g:
                diffs.append('entries %s: log %d, expected %d' % (r, g, w))
        return diffs
    keys = ['task-calls', 'task-self', 'task-incl', 'task-arc', 'task-calls-default',
            'task-self-default', 'task-incl-default', 'task-arc-default', 'task-entries']
    if mode == 'whole':
        keys += ['task-outside', 'task-problem', 'task-svc']
    else:
        keys += ['task-problem-range']
    for key in keys:
        want = {f: v for f, v in exp.facts.items() if f[0] == key and v}
        got = {f: v for f, v in facts.items() if f[0] == key and v}
        for f in sorted(set(want) | set(got)):
            if want.get(f, 0) != got.get(f, 0):
                diffs.append('%s: log %d, expected %d' % (' '.join(f), got.get(f, 0), want.get(f, 0)))
    if mode == 'whole':
        want = int(exp.meta['problem'])
        got = stats.get('problem', 0)
        if want != got:
            diffs.append('problem-state instructions: log %d, expected %d' % (got, want))
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('expected')
    ap.add_argument('log')
    ap.add_argument('--mode', choices=('whole', 'range'), default='whole')
    ap.add_argument('--print', action='store_true', help='print the figures the log shows')
    a = ap.parse_args()
    exp = Expected(a.expected)
    facts, stats = replay(exp, a.log, a.mode)
    if a.print:
        for f in sorted(facts):
            print(' '.join(f), facts[f])
    diffs = compare(exp, facts, stats, a.mode)
    what = 'registers' if stats.get('regs') else 'no registers'
    print('truth %s %s (%s): %d problem-state records, %d supervisor, %d page faults, %d CPU-timer, %d clock-comparator, %d I/O interruptions: %s'
          % (a.mode, a.log, what, stats.get('problem', 0), stats.get('supervisor', 0),
             stats.get('HHCCP014I', 0), stats.get('HHCCP025I', 0), stats.get('HHCCP024I', 0),
             stats.get('HHCCP044I', 0), 'ok' if not diffs else '%d differences' % len(diffs)))
    pre = [k for k in sorted(stats) if k.startswith('preempt-')]
    if pre:
        print('  preemptions of a task: %d; %s' % (stats.get('preempt', 0), ', '.join('%s %d' % (k[8:], stats[k]) for k in pre)))
    for d in diffs[:40]:
        print('  ' + d)
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
