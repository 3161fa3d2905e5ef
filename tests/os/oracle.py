#!/usr/bin/env python3
"""oracle.py -- a stand-in for fst-report that prints the expected figures of the system
whose trace it is given (osN.expected next to the trace), in fst-report's formats: csv
(--by-task, --meta), json (--space), fortstat. `run.py --oracle` uses it instead of
fst-report to test the harness itself: every comparison must pass with it (a FAIL in a
real run is then fst's, not the harness's)."""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from osexp import Expected   # noqa: E402


def main(argv):
    opts = {}
    flags = set()
    trace = None
    for a in argv:
        if a.startswith('--') and '=' in a:
            k, v = a[2:].split('=', 1)
            opts[k] = v
        elif a.startswith('--'):
            flags.add(a[2:])
        else:
            trace = a
    d = os.path.dirname(os.path.abspath(trace))
    exp = Expected(glob.glob(os.path.join(d, 'os*.expected'))[0])
    fmt = opts.get('format', 'fortstat')
    timed_all = opts.get('timed') == 'all'
    mapped = 'map' in opts
    noimg = '.noimg.' in os.path.basename(trace)
    if mapped and noimg and not timed_all:
        timed_all = True            # no image: nothing says which routines are FORTRAN
    sfx = '' if timed_all else '-default'
    entry = {r: v[0] for r, v in exp.routines.items()}
    if fmt == 'csv':
        if 'meta' in flags:
            print('# fst-report clock=model timed=%s cpu=%s' % ('all' if timed_all else 'fortran',
                                                             opts.get('cpu', 'all')))
        print('routine,entry,calls,self_instr,incl_instr,self_sec,incl_sec,task,space,mainline')
        print('(task),,0,39,39,0.0,0.0,0,real,0')
        for i, (t, te) in enumerate(sorted(exp.tasks.items()), 1):
            calls = {f[1]: v for f, v in exp.select('task-calls' + sfx).items() if f[0] == t}
            selfs = {f[1]: v for f, v in exp.select('task-self' + sfx).items() if f[0] == t}
            incls = {f[1]: v for f, v in exp.select('task-incl' + sfx).items() if f[0] == t}
            for r in exp.order:
                if r not in calls and r not in selfs:
                    continue
                print('%s,%X,%d,%d,%d,0.0,0.0,%d,%s,%d' % (r, entry[r], calls.get(r, 0), selfs.get(r, 0),
                                                           incls.get(r, 0), i, te['space'],
                                                           1 if r == te['mainline'] else 0))
            print('(task),,0,%d,0,0.0,0.0,%d,%s,0' % (exp.facts[('task-problem', t)], i, te['space']))
    elif fmt == 'json':
        sp = opts.get('space')
        if sp:
            calls = {f[1]: v for f, v in exp.select('space-calls').items() if f[0] == sp}
            selfs = {f[1]: v for f, v in exp.select('space-self').items() if f[0] == sp}
            arcs = {(f[1], f[2]): v for f, v in exp.select('space-arc').items() if f[0] == sp}
        else:
            calls = {f[0]: v for f, v in exp.select('calls').items()}
            selfs = {f[0]: v for f, v in exp.select('self').items()}
            arcs = {(f[0], f[1]): v for f, v in exp.select('arc').items()}
        tasks = [{'id': 0, 'space': 'real', 'mainline': None, 'problem_instructions': 0}]
        for i, (t, te) in enumerate(sorted(exp.tasks.items()), 1):
            if sp and te['space'] != sp:
                continue
            key = 'task-problem-range' if os.path.basename(trace).startswith('range') else 'task-problem'
            tasks.append({'id': i, 'space': te['space'], 'mainline': te['mainline'],
                          'problem_instructions': exp.facts[(key, t)]})
        js = {'format': 'fst-profile', 'events': {'unwinds': 0, 'program_checks': int(exp.meta['page-faults'])},
              'tasks': tasks,
              'routines': [{'name': r, 'calls': calls.get(r, 0), 'self_instructions': selfs.get(r, 0)}
                           for r in exp.order],
              'arcs': [{'caller_name': a, 'callee_name': b, 'count': n} for (a, b), n in sorted(arcs.items())]}
        print(json.dumps(js, indent=1))
    else:
        mains = {t['mainline'] for t in exp.tasks.values()}
        calls = {f[0]: v for f, v in exp.select('calls-default').items()}
        print('ROUTINE      CALLED   TIME (SEC)')
        print()
        for r in exp.order:
            if r in calls:
                print('%s%-8s %10d          .00' % ('*' if r in mains else ' ', r, calls[r]))
        print()
        print(' TOTAL    %10d          .00' % sum(calls.values()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
