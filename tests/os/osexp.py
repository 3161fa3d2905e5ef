"""osexp.py -- read an osN.expected file (tests/os/README.md, "The expected file")."""


class Expected:
    """meta: the single-valued lines (style, range, problem, ...); routines: name ->
    (entry, end, kind, program) in file order; tasks: T -> dict(space, mainline, data, r13,
    lm, tcb); spaces: CR1 -> dict(program, tasks, problem, ...); facts: (key, fields...) ->
    int for every figure line (task-calls T R N -> ('task-calls', 'T', 'R'): N); job_tasks
    (osgen.py --job): the tasks before and after the job's window, as tasks (+ phase)."""

    STRUCT = ('routine', 'task', 'space', 'job-task')

    def __init__(self, path):
        self.path = path
        self.meta = {}
        self.routines = {}
        self.order = []
        self.tasks = {}
        self.job_tasks = {}
        self.spaces = {}
        self.facts = {}
        with open(path) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if not line:
                    continue
                w = line.split()
                k = w[0]
                if k == 'routine':
                    self.routines[w[1]] = (int(w[2], 16), int(w[3], 16), w[4], w[5])
                    self.order.append(w[1])
                elif k == 'task':
                    d = dict(zip(w[2::2], w[3::2]))
                    self.tasks[w[1]] = d
                elif k == 'job-task':       # osgen.py --job: a task outside the job's window
                    self.job_tasks[w[1]] = dict(zip(w[2::2], w[3::2]))
                elif k == 'space':
                    d = dict(zip(w[2::2], w[3::2]))
                    self.spaces[w[1]] = d
                elif len(w) == 2 or k in ('budget',):
                    self.meta[k] = w[1] if len(w) == 2 else w[1:]
                else:
                    self.facts[tuple(w[:-1])] = int(w[-1])
        self.entries = {e: n for n, (e, _, _, _) in self.routines.items()}
        self.spans = sorted((e, x, n) for n, (e, x, _, _) in self.routines.items())
        lo, hi = self.meta['range'].split('-')
        self.range = (int(lo, 16), int(hi, 16))
        self.exit_stub = int(self.meta['exit-stub'], 16)

    def routine_at(self, a):
        for e, x, n in self.spans:
            if e <= a < x:
                return n
        return None

    def fortran(self, name):
        return self.routines[name][2].startswith('fortran')

    def timed_default(self, name, task=None):
        if self.fortran(name):
            return True
        if task is not None:
            return self.tasks[task]['mainline'] == name
        return any(t['mainline'] == name for t in self.tasks.values())

    def select(self, key):
        """{fields after the key: value} for one kind of fact."""
        return {f[1:]: v for f, v in self.facts.items() if f[0] == key}

    def task_of_space_data(self):
        """(CR1, data address) -> task: R9 of every problem-state instruction is its task's
        data address, and never changes."""
        return {(t['space'], int(t['data'], 16)): n for n, t in self.tasks.items()}
