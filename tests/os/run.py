#!/usr/bin/env python3
"""run.py -- generate systems with osgen.py, run them under Hercules 3.13 with fst-capture,
and check fst's reports of them against the generator's expected figures
(tests/os/README.md).

    tests/os/run.py --seeds 1-5,9 [--work DIR] [--ways noregs,trad,range-noregs,range-trad,module,module-job,noregs-job,trad-job]
    tests/os/run.py --seeds 1-5 --work DIR --reports-only      # fst changed: no Hercules
    tests/os/run.py --system tests/logs/os/os7                 # a stored system and its logs

For every seed: generate (or take the stored .s and .expected), assemble and link as the
GNUmakefile does for tests/programs, check the bytes against the generator's model, run
the system under Hercules in each way (whole system / a range of the tasks' code only;
traceopt noregs / traditional) keeping the log, check the log against the expected
figures without fst (the truth check: truth.py), convert the log again with
fst-capture --from-log (with and without --image), and compare fst-report's figures
(several report variants) with the expected ones. One result line per (seed, way,
conversion, variant), PASS or FAIL and the first differing figures; a summary table at the
end; exit 1 when anything failed (2 when the truth check failed: the generator, not fst,
is wrong then).

The job ways (module-job, noregs-job, trad-job) run another system per seed: generated
with osgen.py --job (tasks before and after the job, the console's $HASP373 / $HASP395
around it, README "A job's window"), captured live by fst-capture --job=OSJOB from IPL to
the job's end line (module-job: fst's module, no log; noregs-job, trad-job: the text route,
its log truth-checked in the window and converted again with --job), its reports compared
with the window's figures (sN-job/ in the work folder).
"""
import argparse
import concurrent.futures
import gzip
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from osexp import Expected   # noqa: E402
import truth                 # noqa: E402

WAYS = {
    'noregs': [],
    'trad': ['--traceopt=traditional'],
    'range-noregs': ['--range=30000-3BFFF'],
    'range-trad': ['--traceopt=traditional', '--range=30000-3BFFF'],
    # fst's module inside Hercules 3.13 (docs/module.md): no log, only the live trace
    'module': ['--via=module'],
    # a system generated with osgen.py --job, its job's window: fst's module (the default
    # route), or the text trace (noregs / traditional; the log kept and truth-checked)
    'module-job': ['--job=OSJOB'],
    'noregs-job': ['--via=trace', '--job=OSJOB'],
    'trad-job': ['--via=trace', '--traceopt=traditional', '--job=OSJOB'],
}
WAY_ORDER = ['noregs', 'trad', 'range-noregs', 'range-trad']   # the default; the module ways on request
NOLOG = {'module', 'module-job'}
JOBWAYS = {'module-job', 'noregs-job', 'trad-job'}   # a system of its own (osgen.py --job), in sN-job/
JOB_NAME = 'OSJOB'
CONVS = ['img', 'noimg', 'live']

AS = os.environ.get('S390_AS', 's390x-linux-gnu-as')
LD = os.environ.get('S390_LD', 's390x-linux-gnu-ld')
OBJCOPY = os.environ.get('S390_OBJCOPY', 's390x-linux-gnu-objcopy')
NM = os.environ.get('S390_NM', 's390x-linux-gnu-nm')


def parse_seeds(s):
    out = []
    for part in s.split(','):
        part = part.strip()
        if not part:
            continue
        if '-' in part:
            a, b = part.split('-')
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def sh(cmd, cwd, out=None, err=None, stdin=None, timeout=None):
    fo = open(out, 'w') if out else subprocess.DEVNULL
    fe = open(err, 'w') if err else subprocess.DEVNULL
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=fo, stderr=fe, stdin=stdin, timeout=timeout)
        return p.returncode
    except subprocess.TimeoutExpired:
        return 124
    finally:
        if out:
            fo.close()
        if err:
            fe.close()


# ======================================================================================
# reading fst's reports
# ======================================================================================

class Csv:
    """fst-report --format=csv [--by-task] [--meta]: rows, tasks, uncertainty bounds."""

    def __init__(self, path):
        self.rows = []
        self.bounds = {}          # routine -> (calls, self)
        self.total_bound = None   # (dispatches, calls, instructions)
        self.unc_tasks = set()    # tasks whose own figures fst says may be others'
        self.header = None
        with open(path) as f:
            for line in f:
                line = line.rstrip('\n')
                if line.startswith('#'):
                    m = re.match(r'# uncertain: routine=(\S+) calls=(\d+) self_instr=(\d+)', line)
                    if m:
                        self.bounds[m.group(1)] = (int(m.group(2)), int(m.group(3)))
                    m = re.match(r'# uncertain: total dispatches=(\d+) calls=(\d+) instructions=(\d+)', line)
                    if m:
                        self.total_bound = tuple(int(x) for x in m.groups())
                    m = re.match(r'# uncertain: task=(\d+)', line)
                    if m:
                        self.unc_tasks.add(m.group(1))
                    continue
                if not line:
                    continue
                cells = line.split(',')
                if self.header is None:
                    self.header = cells
                    continue
                self.rows.append(dict(zip(self.header, cells)))
        self.tasks = {}
        if self.header and 'task' in self.header:
            for r in self.rows:
                t = self.tasks.setdefault(r['task'], {'space': r['space'], 'mainline': None,
                                                      'routines': {}, 'total': None})
                if r['routine'] == '(task)':
                    t['total'] = int(r['self_instr'])
                    continue
                if r.get('mainline') == '1':
                    t['mainline'] = r['routine']
                t['routines'][r['routine']] = (int(r['calls']), int(r['self_instr']), int(r['incl_instr'] or 0))

    def bound(self, routine):
        return self.bounds.get(routine, (0, 0))

    def problem_tasks(self):
        """The tasks with problem-state work: a routine row with calls or instructions (fst
        also shows a task for the supervisor's code before the first dispatch)."""
        return {k: t for k, t in self.tasks.items()
                if t['mainline'] or any(v[0] or v[1] for v in t['routines'].values())}


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_fortstat(path, marked=None):
    """FORTSTAT: {name: (called, starred)}; the names of the rows marked ' ?' (uncertain:
    which task ran was guessed) into the set `marked`."""
    rows = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'^ ?(\*| )([A-Z0-9#@$]+)\s+(\d+)\s+\S+( \?)?\s*$', line)
            if m and m.group(2) != 'TOTAL' and m.group(2) != 'ROUTINE':
                rows[m.group(2)] = (int(m.group(3)), m.group(1) == '*')
                if m.group(4) and marked is not None:
                    marked.add(m.group(2))
    return rows


# ======================================================================================
# comparing
# ======================================================================================

class Cmp:
    """Collects differences; a figure within the bound fst states (noregs range traces)
    is right."""

    def __init__(self, tolerant):
        self.diffs = []
        self.tolerated = 0
        self.tolerant = tolerant

    def fig(self, what, got, want, bound=0):
        if got == want:
            return True
        if self.tolerant and abs(got - want) <= bound:
            self.tolerated += 1
            return True
        self.diffs.append('%s %d, expected %d%s' % (what, got, want,
                          (' (bound %d)' % bound) if self.tolerant and bound else ''))
        return False

    def note(self, s):
        self.diffs.append(s)


def task_figs(exp, tname, default):
    sfx = '-default' if default else ''
    calls = {f[1]: v for f, v in exp.select('task-calls' + sfx).items() if f[0] == tname}
    selfs = {f[1]: v for f, v in exp.select('task-self' + sfx).items() if f[0] == tname}
    incls = {f[1]: v for f, v in exp.select('task-incl' + sfx).items() if f[0] == tname}
    out = {}
    for r in set(calls) | set(selfs):
        out[r] = (calls.get(r, 0), selfs.get(r, 0), incls.get(r, 0))
    return out


def compare_tasks(exp, csv, c, *, default, space_known, self_at_least=False, untimed_ok=True, incl=False):
    """fst's tasks (csv --by-task) against the expected tasks: matched by space and mainline
    (mainline only when fst cannot know the space), every routine's calls and self."""
    ftasks = csv.problem_tasks()
    tolerant_skip = c.tolerant and csv.total_bound and csv.total_bound[0] > 0
    if tolerant_skip:
        # fst says which tasks a guess touched: their own figures (and so how many tasks
        # there are, and their mainlines) are not promised; the others must be exact
        certain = {k: t for k, t in ftasks.items() if k not in csv.unc_tasks}
        c.tolerated += len(ftasks) - len(certain)
        keys = {}
        for t in exp.tasks:
            te = exp.tasks[t]
            keys.setdefault((te['space'] if space_known else '*', te['mainline']), []).append(t)
        for ft in certain.values():
            es = keys.get((ft['space'] if space_known else '*', ft['mainline'] or '?'), [])
            if len(es) != 1:
                c.tolerated += 1    # several expected tasks fit: which one it is, is not sure
                continue
            one_task(exp, csv, c, es[0], ft, default, self_at_least, untimed_ok, incl)
        return

    def key_e(t):
        te = exp.tasks[t]
        return (te['space'] if space_known else '*', te['mainline'])

    def key_f(t):
        ft = ftasks[t]
        return (ft['space'] if space_known else '*', ft['mainline'] or '?')
    # tasks per space
    if space_known:
        for cr1, sp in exp.spaces.items():
            n = sum(1 for t in ftasks.values() if t['space'] == cr1)
            if n != int(sp['tasks']):
                c.note('space %s: %d tasks, expected %s' % (cr1, n, sp['tasks']))
        extra = sorted({t['space'] for t in ftasks.values()} - set(exp.spaces))
        for s in extra:
            c.note('space %s: %d tasks, expected none' % (s, sum(1 for t in ftasks.values() if t['space'] == s)))
    elif len(ftasks) != len(exp.tasks) and not tolerant_skip:
        c.note('%d tasks, expected %d' % (len(ftasks), len(exp.tasks)))
    if tolerant_skip and len(ftasks) != len(exp.tasks):
        c.tolerated += 1
        return
    eg, fg = {}, {}
    for t in exp.tasks:
        eg.setdefault(key_e(t), []).append(t)
    for t in ftasks:
        fg.setdefault(key_f(t), []).append(t)
    for k in sorted(set(eg) | set(fg)):
        es, fs = eg.get(k, []), fg.get(k, [])
        if len(es) != len(fs):
            c.note('tasks of space %s mainline %s: fst %d, expected %d' % (k[0], k[1], len(fs), len(es)))
        if not es or not fs:
            continue
        # the pairing with the fewest differences
        best = None
        for perm in itertools.permutations(fs, min(len(es), len(fs))):
            trial = Cmp(c.tolerant)
            for et, ft in zip(es, perm):
                one_task(exp, csv, trial, et, ftasks[ft], default, self_at_least, untimed_ok, incl)
            if best is None or len(trial.diffs) < len(best[1].diffs):
                best = (perm, trial)
            if not trial.diffs:
                break
        c.diffs.extend(best[1].diffs)
        c.tolerated += best[1].tolerated


def one_task(exp, csv, c, et, ft, default, self_at_least, untimed_ok, incl=False):
    want = task_figs(exp, et, default)
    got = ft['routines']
    label = '%s(%s)' % (et, exp.tasks[et]['mainline'])
    for r in sorted(set(want) | set(got)):
        wc, ws, wi = want.get(r, (0, 0, 0))
        gc, gs, gi = got.get(r, (0, 0, 0))
        if default and r in exp.routines and not exp.timed_default(r) and r not in want:
            # an untimed routine: absent, or self 0
            if gs:
                c.note('%s %s: untimed but self %d' % (label, r, gs))
            continue
        b = csv.bound(r)
        c.fig('%s %s calls' % (label, r), gc, wc, b[0])
        if self_at_least:
            if gs < ws:
                c.note('%s %s self %d < problem-state self %d' % (label, r, gs, ws))
        else:
            c.fig('%s %s self' % (label, r), gs, ws, b[1])
            if incl:
                c.fig('%s %s incl' % (label, r), gi, wi, b[1])


def compare_totals_json(exp, js, c, *, space=None, csv_bounds=None):
    """Routine totals (calls, self) and arcs of a json report against the expected totals
    (of one space with --space). A job's system (osgen.py --job): a difference that is
    exactly the work before and after the window is said so."""
    if space:
        calls = {f[1]: v for f, v in exp.select('space-calls').items() if f[0] == space}
        selfs = {f[1]: v for f, v in exp.select('space-self').items() if f[0] == space}
        arcs = {(f[1], f[2]): v for f, v in exp.select('space-arc').items() if f[0] == space}
    else:
        calls = {f[0]: v for f, v in exp.select('calls').items()}
        selfs = {f[0]: v for f, v in exp.select('self').items()}
        arcs = {(f[0], f[1]): v for f, v in exp.select('arc').items()}
    got = {r.get('name') or '(none)': (r['calls'], r['self_instructions']) for r in js.get('routines', [])}
    bounds = csv_bounds or {}
    ocalls = {f[0]: v for f, v in exp.select('job-outside-calls').items()}
    oselfs = {f[0]: v for f, v in exp.select('job-outside-self').items()}
    for r in sorted(set(calls) | set(got)):
        gc, gs = got.get(r, (0, 0))
        b = bounds.get(r, (0, 0))
        for what, g_, w_, o_, b_ in (('calls', gc, calls.get(r, 0), ocalls.get(r, 0), b[0]),
                                     ('self', gs, selfs.get(r, 0), oselfs.get(r, 0), b[1])):
            if not space and o_ and g_ == w_ + o_ and g_ != w_:
                c.note('%s %s %d, expected %d: the window plus the %d outside it' % (r, what, g_, w_, o_))
            else:
                c.fig('%s %s' % (r, what), g_, w_, b_)
    garcs = {}
    for a in js.get('arcs', []):
        k = (a.get('caller_name') or '(none)', a.get('callee_name') or '(none)')
        garcs[k] = garcs.get(k, 0) + a['count']
    for k in sorted(set(arcs) | set(garcs)):
        b = bounds.get(k[1], (0, 0))
        c.fig('arc %s->%s' % k, garcs.get(k, 0), arcs.get(k, 0), b[0])
    ev = js.get('events', {})
    unsure = c.tolerant and js.get('uncertain', {}).get('dispatches', 0) > 0
    if ev.get('unwinds') and not unsure:    # a stack a guess touched may unwind
        c.note('unwinds %d' % ev['unwinds'])


def compare_json_tasks(exp, js, c, *, space_known, space=None, tolerate_count=False, in_range=False):
    """The json's task list: tasks with problem-state instructions per space, and each one's
    problem-state instruction count (matched by space and mainline)."""
    tasks = [t for t in js.get('tasks', []) if t.get('problem_instructions')]
    want = {n: t for n, t in exp.tasks.items() if space is None or t['space'] == space}
    if space_known:
        per = {}
        for t in tasks:
            per[t.get('space') or '?'] = per.get(t.get('space') or '?', 0) + 1
        for cr1 in sorted(set(per) | {t['space'] for t in want.values()}):
            n = sum(1 for t in want.values() if t['space'] == cr1)
            c.fig('space %s tasks' % cr1, per.get(cr1, 0), n)
        eg, fg = {}, {}
        for n, t in want.items():
            eg.setdefault((t['space'], t['mainline']), []).append(
                exp.facts[('task-problem-range' if in_range else 'task-problem', n)])
        for t in tasks:
            fg.setdefault((t.get('space') or '?', t.get('mainline') or '?'), []).append(t['problem_instructions'])
        for k in sorted(set(eg) | set(fg)):
            a, b = sorted(eg.get(k, [])), sorted(fg.get(k, []))
            if a != b:
                c.note('problem-state instructions of the tasks of space %s mainline %s: fst %s, expected %s'
                       % (k[0], k[1], b, a))
    elif len(tasks) != len(want):
        if tolerate_count:
            c.tolerated += 1
        else:
            c.note('%d tasks, expected %d' % (len(tasks), len(want)))


# ======================================================================================
# one system
# ======================================================================================

class System:
    def __init__(self, args, seed=None, stored=None, ways=None, job=False):
        self.args = args
        self.seed = seed
        self.stored = stored
        self.job = job                # osgen.py --job: the ways of JOBWAYS
        self.ways = ways if ways is not None else args.ways
        if stored:
            self.name = os.path.basename(stored)
            self.dir = os.path.join(args.work, self.name)
        else:
            self.name = 'os%d' % seed
            self.dir = os.path.join(args.work, 's%d%s' % (seed, '-job' if job else ''))
        self.label = self.name + ('/job' if job else '')
        self.results = []     # (way, conv, variant, ok, detail)
        self.truth_failed = False
        self.timing = {}

    def path(self, *p):
        return os.path.join(self.dir, *p)

    def result(self, way, conv, variant, ok, detail='', diffs=None):
        self.results.append((way, conv, variant, ok, detail, list(diffs or [])))
        line = '%-8s %-12s %-5s %-20s %s%s' % (self.name, way, conv, variant, 'PASS' if ok else 'FAIL',
                                                (' ' + detail) if detail else '')
        self.args.out(line)

    # ---- build ---------------------------------------------------------------------
    def prepare(self):
        os.makedirs(self.dir, exist_ok=True)
        n = self.name
        if self.stored:
            for ext in ('.s', '.expected', '.model'):
                if os.path.exists(self.stored + ext):
                    shutil.copy(self.stored + ext, self.path(n + ext))
            for way in WAYS:
                src = '%s-%s.log.gz' % (self.stored, way)
                if os.path.exists(src):
                    shutil.copy(src, self.path(way + '.log.gz'))
        elif not (self.args.reports_only and os.path.exists(self.path(n + '.s'))):
            rc = sh([sys.executable, os.path.join(HERE, 'osgen.py'), '--seed', str(self.seed), '-o', self.dir] +
                    (['--budget', self.args.budget] if self.args.budget else []) + (['--job'] if self.job else []),
                    self.dir, err=self.path('osgen.err'))
            if rc:
                self.result('-', '-', 'generate', False, open(self.path('osgen.err')).read().strip()[:300])
                return False
        inc = os.path.join(ROOT, 'tests', 'programs')
        ld = os.path.join(inc, 'standalone.ld')
        steps = [[AS, '-m31', '-I', inc, '-o', n + '.o', n + '.s'],
                 [LD, '-m', 'elf_s390', '-T', ld, '-o', n + '.elf', n + '.o'],
                 [OBJCOPY, '-O', 'binary', '-j', '.lowcore', n + '.elf', n + '.lc'],
                 [OBJCOPY, '-O', 'binary', '-j', '.text', n + '.elf', n + '.bin']]
        for st in steps:
            if sh(st, self.dir, err=self.path('build.err')):
                self.result('-', '-', 'assemble', False, open(self.path('build.err')).read().strip()[:300])
                return False
        with open(self.path(n + '.ins'), 'w') as f:
            f.write('%s.lc 0x0\n%s.bin 0x20000\n' % (n, n))
        sh([NM, '-P', n + '.elf'], self.dir, out=self.path(n + '.nm.all'))
        with open(self.path(n + '.nm.all')) as f, open(self.path(n + '.nm'), 'w') as o:
            for line in f:
                w = line.split()
                if len(w) >= 3 and w[1] in ('T', 't'):
                    o.write(line)
        self.exp = Expected(self.path(n + '.expected'))
        # the layout: the routines where the generator put them, its bytes where it meant
        bad = []
        nm = {}
        with open(self.path(n + '.nm')) as f:
            for line in f:
                w = line.split()
                nm[w[0]] = int(w[2], 16)
        for r, (e, _, _, _) in self.exp.routines.items():
            if nm.get(r) != e:
                bad.append('%s at %s, expected %X' % (r, hex(nm[r]) if r in nm else 'nowhere', e))
        if set(nm) - set(self.exp.routines):
            bad.append('symbols that are no routine: %s' % ' '.join(sorted(set(nm) - set(self.exp.routines))))
        model = self.path(n + '.model')
        if os.path.exists(model):
            with open(self.path(n + '.bin'), 'rb') as f:
                binary = f.read()
            with open(model) as f:
                for line in f:
                    if line.startswith('#'):
                        continue
                    a, h = line.split()
                    a = int(a, 16) - 0x20000
                    want = bytes.fromhex(h)
                    if binary[a:a + len(want)] != want:
                        bad.append('bytes at %X: %s, model %s' % (a + 0x20000, binary[a:a + len(want)].hex(), h))
        if not os.path.exists(self.path(n + '.map.csv')):
            self.write_csv_map()
        self.result('-', '-', 'layout', not bad, '; '.join(bad[:5]))
        return not bad

    def write_csv_map(self):
        rs = sorted((e, x, r) for r, (e, x, _, _) in self.exp.routines.items())
        base = rs[0][0]
        with open(self.path(self.name + '.map.csv'), 'w') as f:
            f.write('name,type,origin,length\n,MODULE,0,\n')
            for e, x, r in rs:
                f.write('%s,SD,%X,%X\n' % (r, e - base, x - e))

    # ---- capture ---------------------------------------------------------------------
    def log(self, way):
        for p in (self.path(way + '.log'), self.path(way + '.log.gz')):
            if os.path.exists(p):
                return p
        return None

    def capture(self, way):
        a = self.args
        t0 = time.time()
        for p in (self.path(way + '.log'), self.path(way + '.log.gz')):
            if os.path.exists(p):
                os.remove(p)
        keep = [] if way in NOLOG else ['--keep-log=%s.log' % way]
        quiet = [] if way in JOBWAYS else ['-q']     # a job's capture says how it ended
        cmd = [os.path.join(a.fst_bin, 'fst-capture')] + quiet + ['--timeout=%d' % a.timeout] + WAYS[way] + \
            keep + ['-o', way + '.live.trace', self.name + '.ins']
        rc = sh(cmd, self.dir, err=self.path(way + '.capture.err'))
        self.timing['capture ' + way] = time.time() - t0
        if not rc and way in JOBWAYS:
            self.job_window(way)      # its own result line; the trace is reported either way
            return True
        if not rc and way in NOLOG and os.path.getsize(self.path(way + '.capture.err')):
            # --via=module falls back to the text trace, saying why: not this way's trace
            self.result(way, 'live', 'capture', False, open(self.path(way + '.capture.err')).read().strip()[:200])
            return False
        if rc:
            self.result(way, 'live', 'capture', False, 'exit %d: %s' % (rc, open(self.path(way + '.capture.err')).read().strip()[:200]))
            return False
        return True

    def job_window(self, way):
        """The capture of a job's window (one result line, 'window'): ended by the job's end
        line (module-job: through fst's module, no fallback to the text trace), no warning,
        the trace saying so, and the window's program checks the job's page faults."""
        with open(self.path(way + '.capture.err')) as f:
            err = f.read()
        bad = []
        module = way not in WAYS or '--via=trace' not in WAYS[way]
        if not re.search(r"ended by job-ended" + (".*fst's module" if module else ''), err):
            bad.append('not ended by job-ended' + (' through fst\'s module' if module else ''))
        if re.search(r'warning|error', err, re.I):
            bad.append(err.strip().splitlines()[0][:150])
        sum_ = self.path(way + '.live.summary')
        sh([os.path.join(self.args.fst_bin, 'fst-dump'), '--summary', way + '.live.trace'], self.dir, out=sum_, err=sum_ + '.err')
        want = {'footer.complete': '1', 'footer.end': 'job-ended'}
        if module:     # the text route's trace does not say so in its header (yet)
            want.update({'header.window': 'job', 'header.job': JOB_NAME})
        got = {}
        with open(sum_) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition('=')
                if k in want:
                    got[k] = v
        for k, v in want.items():
            if got.get(k) != v:
                bad.append('%s=%s, expected %s' % (k, got.get(k, '(none)'), v))
        # the only program checks of these systems are the tasks' page faults: in the
        # window, those of the job's tasks (osgen.py counts them, phase by phase)
        m = re.search(r'(\d+) instructions, (\d+) program checks', err)
        if not m:
            bad.append('no summary line')
        elif int(m.group(2)) != int(self.exp.meta['page-faults']):
            bad.append('%s program checks in the window, expected %s (the job\'s page faults; %s in the whole run)'
                       % (m.group(2), self.exp.meta['page-faults'], self.exp.meta.get('run-page-faults', '?')))
        self.result(way, 'live', 'window', not bad, '; '.join(bad) if bad else
                    'the job\'s window: %s instructions, %s program checks (page faults)' % (m.group(1), m.group(2)))
        return not bad

    def truth(self, way):
        lg = self.log(way)
        st = os.stat(lg)
        key = '%d %d %d' % (st.st_size, int(st.st_mtime), os.stat(self.path(self.name + '.expected')).st_size)
        cache = self.path(way + '.truth')
        if os.path.exists(cache):
            with open(cache) as f:
                k, verdict, detail = (f.read().split('\n') + ['', '', ''])[:3]
            if k == key:
                self.result(way, 'log', 'truth', verdict == 'PASS', detail)
                if verdict != 'PASS':
                    self.truth_failed = True
                return verdict == 'PASS'
        facts, stats = truth.replay(self.exp, lg, 'range' if way.startswith('range') else 'whole')
        diffs = truth.compare(self.exp, facts, stats, 'range' if way.startswith('range') else 'whole')
        info = '%d problem-state records, %d page faults, %d CPU-timer' % (
            stats.get('problem', 0), stats.get('HHCCP014I', 0), stats.get('HHCCP025I', 0))
        if stats.get('preempt'):
            info += ' (%d preemptions: %d between a call and its entry, %d right after a return, %d in recursion, %d/%d after a taken/untaken branch)' % (
                stats['preempt'], stats.get('preempt-between-call-and-entry', 0), stats.get('preempt-right-after-return', 0),
                stats.get('preempt-in-recursion', 0), stats.get('preempt-after-taken-branch', 0),
                stats.get('preempt-after-untaken-branch', 0))
        if diffs:
            self.truth_failed = True
        detail = ('; '.join(diffs[:4])) if diffs else info
        self.result(way, 'log', 'truth', not diffs, detail)
        with open(cache, 'w') as f:
            f.write('%s\n%s\n%s\n' % (key, 'FAIL' if diffs else 'PASS', detail))
        return not diffs

    def convert(self, way):
        lg = self.log(way)
        fc = os.path.join(self.args.fst_bin, 'fst-capture')
        ok = True
        job = ['--job=' + JOB_NAME] if way in JOBWAYS else []
        for conv, extra in (('img', ['--image=%s.ins' % self.name] + job), ('noimg', job)):
            out = '%s.%s.trace' % (way, conv)
            if lg.endswith('.gz'):
                with gzip.open(lg, 'rb') as src:
                    p = subprocess.Popen([fc, '-q', '--from-log=-', '-o', out] + extra, cwd=self.dir,
                                         stdin=subprocess.PIPE, stderr=open(self.path(out + '.err'), 'w'))
                    try:
                        shutil.copyfileobj(src, p.stdin)
                        p.stdin.close()
                    except BrokenPipeError:
                        # --job: fst-capture stops reading at the job's end line
                        try:
                            p.stdin.close()
                        except BrokenPipeError:
                            pass
                    rc = p.wait()
            else:
                rc = sh([fc, '-q', '--from-log=' + os.path.basename(lg), '-o', out] + extra, self.dir,
                        err=self.path(out + '.err'))
            if rc:
                ok = False
                self.result(way, conv, 'convert', False, 'exit %d: %s' % (rc, open(self.path(out + '.err')).read().strip()[:200]))
        return ok

    # ---- reports ---------------------------------------------------------------------
    def report(self, way, conv, variant, opts):
        tr = '%s.%s.trace' % (way, conv)
        out = self.path('%s.%s.%s.out' % (way, conv, variant))
        err = self.path('%s.%s.%s.err' % (way, conv, variant))
        rc = sh(self.args.report_cmd + opts + [tr], self.dir, out=out, err=err)
        with open(err) as f:
            etext = f.read()
        return rc, out, etext

    def reports(self, way, conv):
        exp = self.exp
        n = self.name
        nm = '--map=%s.nm' % n
        csvmap = '--map=%s.map.csv' % n
        range_noregs = way == 'range-noregs'
        space_known = not range_noregs
        tolerant = range_noregs
        variants = []
        # the per-task figures: every routine timed, problem state
        variants.append(('task-map-all', [nm, '--timed=all', '--cpu=problem', '--format=csv', '--by-task', '--meta'], 'task', False))
        with_image = conv == 'img' or way in NOLOG    # a module's live trace is the only one: all variants
        if conv == 'live' and way not in NOLOG:
            pass
        else:
            lp = ['--load-point=%X' % min(e for e, _, _, _ in exp.routines.values())] if conv == 'noimg' else []
            variants.append(('task-csvmap-default', [csvmap] + lp + ['--cpu=problem', '--format=csv', '--by-task', '--meta'], 'task', True))
            variants.append(('task-map-all-cpu', [nm, '--timed=all', '--format=csv', '--by-task', '--meta'], 'task-cpu', False))
            variants.append(('json-map-all', [nm, '--timed=all', '--cpu=problem', '--format=json'], 'json', False))
            if with_image:
                variants.append(('task-nomap', ['--cpu=problem', '--format=csv', '--by-task', '--meta'], 'task', True))
                variants.append(('fortstat', [], 'fortstat', True))
            for cr1 in sorted(exp.spaces):
                variants.append(('space-' + cr1, [nm, '--timed=all', '--cpu=problem', '--format=json', '--space=' + cr1], 'space', False))
        bounds = None
        total_bound = None
        for variant, opts, kind, default in variants:
            if variant == 'task-csvmap-default' and conv == 'noimg':
                default = False   # no storage image: nothing says which routines are FORTRAN
            rc, out, etext = self.report(way, conv, variant, opts)
            if kind == 'space' and range_noregs and rc == 2 and 'space' in etext:
                # no CR1 in this trace: refusing --space is right
                self.result(way, conv, variant, True, 'fst refused: ' + etext.strip().splitlines()[0][:100])
                continue
            if rc != 0:
                self.result(way, conv, variant, False, 'exit %d: %s' % (rc, etext.strip().splitlines()[0] if etext.strip() else ''))
                continue
            c = Cmp(tolerant)
            guesses = re.findall(r'(\d+) dispatches left several suspended tasks', etext)
            unsure = tolerant and 'uncertain' in etext   # fst said what it could not decide
            if 'unwound' in etext and not unsure:
                c.note('stderr: %s' % [l for l in etext.splitlines() if 'unwound' in l][0][:120])
            if 'AddressSanitizer' in etext or 'runtime error' in etext:
                c.note('sanitizer report')
            try:
                if kind in ('task', 'task-cpu'):
                    csv = Csv(out)
                    if variant == 'task-map-all':
                        bounds = csv.bounds
                        total_bound = csv.total_bound
                    compare_tasks(exp, csv, c, default=default, space_known=space_known,
                                  self_at_least=(kind == 'task-cpu'), incl=self.args.incl)
                elif kind == 'json':
                    js = read_json(out)
                    compare_totals_json(exp, js, c, csv_bounds=bounds if tolerant else None)
                    compare_json_tasks(exp, js, c, space_known=space_known, in_range=way.startswith('range'),
                                       tolerate_count=bool(tolerant and total_bound and total_bound[0]))
                    if way in JOBWAYS:
                        # the window's program checks: the job's page faults, none of the
                        # tasks' before or after it
                        c.fig('program checks', js.get('events', {}).get('program_checks', -1),
                              int(exp.meta['page-faults']))
                elif kind == 'space':
                    js = read_json(out)
                    cr1 = variant[6:]
                    compare_totals_json(exp, js, c, space=cr1, csv_bounds=bounds if tolerant else None)
                elif kind == 'fortstat':
                    marked = set()
                    fs = read_fortstat(out, marked)
                    # the rows csv --meta gives bounds for are marked '?' in FORTSTAT; it may
                    # mark more: its default timing charges an untimed routine's instructions,
                    # and their bound, to the timed routine below it (os248: BREC's self
                    # bound is its untimed callee's under --timed=all)
                    unsure_rows = {r for r, b in (bounds or {}).items() if b != (0, 0)}
                    if tolerant and not (unsure_rows & set(fs)) <= marked:
                        c.note('rows marked ? %s, csv --meta bounds %s' % (sorted(marked), sorted(unsure_rows)))
                    mains = {t['mainline'] for t in exp.tasks.values()}
                    stars = {r for r, (_, s) in fs.items() if s}
                    if stars != mains and not unsure:
                        c.note('mainlines marked * %s, expected %s' % (sorted(stars), sorted(mains)))
                    calls = {f[0]: v for f, v in exp.select('calls-default').items()}
                    for r in sorted(set(calls) | set(fs)):
                        c.fig('%s CALLED' % r, fs.get(r, (0, False))[0], calls.get(r, 0),
                              (bounds or {}).get(r, (0, 0))[0] if tolerant else 0)
            except (ValueError, KeyError, json.JSONDecodeError) as e:
                c.note('unreadable report: %r' % e)
            detail = '; '.join(c.diffs[:3])
            if len(c.diffs) > 3:
                detail += '; ... (%d differences)' % len(c.diffs)
            extra = []
            if guesses:
                extra.append('%s guesses' % '+'.join(guesses))
            if c.tolerated:
                extra.append('%d within fst\'s bounds' % c.tolerated)
            if extra:
                detail = (detail + ' ' if detail else '') + '[' + ', '.join(extra) + ']'
            self.result(way, conv, variant, not c.diffs, detail, c.diffs)

    def store(self, dest):
        """Keep this system for tests/logs/os: its source, expected figures, model bytes
        and gzip -9 logs (a stored log never depends on later generator changes)."""
        os.makedirs(dest, exist_ok=True)
        for ext in ('.s', '.expected', '.model'):
            shutil.copy(self.path(self.name + ext), os.path.join(dest, self.name + ext))
        for way in self.ways:
            lg = self.log(way)
            if not lg:
                continue
            opener = gzip.open if lg.endswith('.gz') else open
            with opener(lg, 'rb') as src, gzip.GzipFile(os.path.join(dest, '%s-%s.log.gz' % (self.name, way)),
                                                        'wb', compresslevel=9, mtime=0) as dst:
                shutil.copyfileobj(src, dst)

    def nolog_way(self, way):
        """A way with no log (module): capture live (--reports-only: the trace kept from
        before), then report it; no truth check and no conversion, there being no log."""
        if not (self.args.reports_only and os.path.exists(self.path(way + '.live.trace'))):
            if not self.capture(way):
                return
        t0 = time.time()
        self.reports(way, 'live')
        self.timing['reports ' + way] = time.time() - t0

    # ---- all of it -------------------------------------------------------------------
    def run(self):
        try:
            if not self.prepare():
                return self
            for way in self.ways:
                if way in NOLOG:    # no log: the live trace only (a stored system's too)
                    self.nolog_way(way)
                    continue
                if not self.args.reports_only and not self.stored:
                    if not self.capture(way):
                        continue
                    if self.args.gzip:
                        subprocess.run(['gzip', '-1', '-f', self.path(way + '.log')])
                if not self.log(way):
                    self.result(way, '-', 'log', False, 'no log (run without --reports-only first)')
                    continue
                t0 = time.time()
                self.truth(way)
                self.timing['truth ' + way] = time.time() - t0
                t0 = time.time()
                if not self.convert(way):
                    continue
                self.timing['convert ' + way] = time.time() - t0
                t0 = time.time()
                convs = ['img', 'noimg']
                if os.path.exists(self.path(way + '.live.trace')) and not self.args.reports_only and not self.stored:
                    convs.append('live')
                for conv in convs:
                    self.reports(way, conv)
                self.timing['reports ' + way] = time.time() - t0
            if self.args.store and not self.stored and not self.job:
                self.store(self.args.store)
            with open(self.path('results.txt'), 'w') as f:
                for way, conv, variant, ok, detail, diffs in self.results:
                    f.write('%s\t%s\t%s\t%s\t%s\n' % (way, conv, variant, 'PASS' if ok else 'FAIL',
                                                      '\t'.join(diffs) if diffs else detail))
        except Exception as e:     # a harness bug must not hide the other seeds
            import traceback
            traceback.print_exc()
            self.result("-", "-", "harness", False, traceback.format_exc().strip().splitlines()[-1])
        return self


KINDS = [
    ('fst-report failed', r'^exit \d'),
    ('frames unwound', r'unwound|^unwinds'),
    ('sanitizer', r'sanitizer'),
    ('wrong number of tasks in a space', r'^space \S+: \d+ tasks|^space \S+ tasks'),
    ('wrong number of tasks', r'^\d+ tasks, expected'),
    ('tasks with a space+mainline that is not expected / missing', r'^tasks of space'),
    ('a task\'s problem-state instruction count', r'^problem-state instructions of the tasks'),
    ('per-task calls', r'^T\d+\(\S+\) \S+ calls'),
    ('per-task self', r'^T\d+\(\S+\) \S+ self'),
    ('per-task incl (--incl)', r'^T\d+\(\S+\) \S+ incl'),
    ('untimed routine charged', r'untimed but self'),
    ('routine calls (totals)', r'^\S+ calls \d'),
    ('routine self (totals)', r'^\S+ self \d'),
    ('arcs', r'^arc '),
    ('FORTSTAT mainlines (*)', r'^mainlines marked'),
    ('FORTSTAT CALLED', r'CALLED'),
    ('unreadable report', r'unreadable'),
    ('program checks of the job\'s window', r'^program checks|program checks in the window'),
]


def kinds(diffs):
    out = set()
    for d in diffs:
        for name, rx in KINDS:
            if re.search(rx, d):
                out.add(name)
                break
        else:
            out.add('other: ' + d[:40])
    return out


def summary(systems, ways, out):
    out('')
    out('summary: failing report variants / variants, per system and way ("truth!" = the')
    out('generator\'s figures disagree with the log: a generator bug, not fst\'s)')
    head = '%-10s' % 'system' + ''.join('%-16s' % w for w in ways)
    out(head)
    allfail = {}
    for s in systems:
        cells = []
        for w in ways:
            rs = [r for r in s.results if r[0] == w]
            if not rs:
                cells.append('-')
                continue
            tr = [r for r in rs if r[2] == 'truth']
            fails = [r for r in rs if not r[3] and r[2] != 'truth']
            for r in fails:
                allfail.setdefault((w, r[1], r[2] if not r[2].startswith('space-') else 'space-*'), []).append(s.label)
            cell = 'ok' if not fails else '%d/%d' % (len(fails), len(rs) - len(tr))
            if tr and not tr[0][3]:
                cell += ' truth!'
            cells.append(cell)
        pre = [r for r in s.results if r[0] == '-' and not r[3]]
        out('%-10s' % s.label + ''.join('%-16s' % c for c in cells) + ('  ' + pre[0][2] + ' FAILED' if pre else ''))
    if allfail:
        out('')
        out('failures per way, conversion and variant (systems):')
        for k in sorted(allfail):
            out('  %-12s %-5s %-20s %3d  %s' % (k[0], k[1], k[2], len(allfail[k]), ' '.join(allfail[k][:12])))
        # the kinds of differences, per way and variant (conversions together)
        tab = {}
        for s in systems:
            for w, conv, variant, ok, detail, diffs in s.results:
                if ok or w == '-' or variant == 'truth':
                    continue
                v = 'space-*' if variant.startswith('space-') else variant
                for k in kinds(diffs or [detail]):
                    tab.setdefault((w, v), {}).setdefault(k, set()).add(s.label)
        out('')
        out('kinds of differences per way and variant (systems with them; all conversions):')
        for (w, v) in sorted(tab):
            ks = tab[(w, v)]
            out('  %-12s %-20s %s' % (w, v, '; '.join('%s %d' % (k, len(ks[k])) for k in sorted(ks, key=lambda k: -len(ks[k])))))


def main():
    ap = argparse.ArgumentParser(description='Run generated systems under Hercules and check fst against their construction.')
    ap.add_argument('--seeds', default='', help='e.g. 1-5,9')
    ap.add_argument('--system', action='append', default=[],
                    help='a stored system: PATH/osN (PATH/osN.s, .expected, osN-WAY.log.gz); repeatable')
    ap.add_argument('--work', help='work folder (default: a new temp folder, kept)')
    ap.add_argument('--ways', default=','.join(WAY_ORDER),
                    help='noregs,trad,range-noregs,range-trad (default), module, and the job ways module-job, '
                         'noregs-job, trad-job (a system of its own: osgen.py --job, captured by fst-capture '
                         '--job=%s)' % JOB_NAME)
    ap.add_argument('--reports-only', action='store_true', help='no Hercules: convert the kept logs again and report')
    ap.add_argument('--fst-bin', default=os.environ.get('FST_BIN') or os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--timeout', type=int, default=600, help='fst-capture --timeout (seconds)')
    ap.add_argument('--jobs', type=int, default=1, help='systems run at once')
    ap.add_argument('--no-gzip', dest='gzip', action='store_false', help='keep the logs uncompressed')
    ap.add_argument('--quiet', action='store_true', help='only FAIL lines and the summary')
    ap.add_argument('--timing', action='store_true', help='print how long each step took')
    ap.add_argument('--budget', help='LO-HI: osgen.py --budget (problem-state instructions of each system)')
    ap.add_argument('--incl', action='store_true', help='also compare each task\'s inclusive problem-state instructions per routine (csv incl_instr)')
    ap.add_argument('--store', help='copy each generated system and its logs (gzip -9) to this folder')
    ap.add_argument('--oracle', action='store_true',
                    help='test the harness: report with oracle.py (the expected figures in fst-report\'s formats) instead of fst-report; everything must pass')
    a = ap.parse_args()
    a.ways = [w for w in a.ways.split(',') if w]
    for w in a.ways:
        if w not in WAYS:
            ap.error('unknown way %s' % w)
    if not a.work:
        a.work = tempfile.mkdtemp(prefix='fst-os.')
    os.makedirs(a.work, exist_ok=True)
    a.fst_bin = os.path.abspath(a.fst_bin)
    a.report_cmd = [sys.executable, os.path.join(HERE, 'oracle.py')] if a.oracle else [os.path.join(a.fst_bin, 'fst-report')]

    def out(line):
        if a.quiet and ' PASS' in line and not line.startswith('summary'):
            return
        print(line, flush=True)
    a.out = out
    plain = [w for w in a.ways if w not in JOBWAYS]
    jobw = [w for w in a.ways if w in JOBWAYS]
    systems = []
    for s in parse_seeds(a.seeds):
        if plain:
            systems.append(System(a, seed=s, ways=plain))
        if jobw:
            systems.append(System(a, seed=s, ways=jobw, job=True))
    # a stored system has the logs of the ways without --job
    systems += [System(a, stored=os.path.abspath(p), ways=plain) for p in a.system]
    if not systems:
        ap.error('no --seeds and no --system')
    print('# work folder %s' % a.work, flush=True)
    t0 = time.time()
    if a.jobs > 1:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            list(ex.map(lambda s: s.run(), systems))
    else:
        for s in systems:
            s.run()
    summary(systems, a.ways, print)
    if a.timing:
        for s in systems:
            print('# %s: %s' % (s.name, ', '.join('%s %.1f s' % kv for kv in s.timing.items())))
    print('# %d systems in %.0f s; work folder %s' % (len(systems), time.time() - t0, a.work))
    bad = any(not r[3] for s in systems for r in s.results)
    if any(s.truth_failed for s in systems):
        return 2
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
