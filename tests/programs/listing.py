#!/usr/bin/env python3
"""tests/programs/listing.py -- the truth of fst-report --lines=LISTING --format=csv --by=line
for a GNU as listing (as -al) of a standalone program, from Hercules' own log
(tests/e2e/listings.sh, issue 34):

    listing.py HERCULES_LOG LISTING BASE FST_CSV
    listing.py HERCULES_LOG --truth TRUTH FST_CSV

The listing is read here on its own terms: each line with a location (the number, 4+ hex
digits, object code, a tab, the text) is a statement of the main file whose code runs from
BASE + its location to BASE + the next such line's location (the program's .text is loaded
at BASE); its instruction count is the sum of Hercules' executions at those addresses.
fst's rows for the main file (self_instr per line, over every routine) must equal them, and
(no statement) must hold the executions at no statement's address. Prints the differences
(exit 1) or 'statements N instructions M'. With --truth, the statements' addresses are
TRUTH's lines 'START END STMT' (hex, absolute: tests/programs/ibmlist.py writes them; STMT
is UNIT:ISN for a FORTRAN listing, tests/programs/fortlist.py, whose rows' file is LISTING(UNIT))."""
import collections, csv, os, re, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cprogs"))
from lines import executions  # noqa: E402


def statements(path, base):
    rx = re.compile(r"^\f?\s*(\d+) ([0-9a-f]{4,}) ([0-9A-F]+)\s*\t")
    located = []
    with open(path, errors="replace") as f:
        for line in f:
            m = rx.match(line)
            if m:
                located.append((int(m.group(1)), int(m.group(2), 16), len(m.group(3)) // 2))
    spans = []
    for i, (num, loc, nbytes) in enumerate(located):
        hi = located[i + 1][1] if i + 1 < len(located) and located[i + 1][1] > loc else loc + nbytes
        spans.append((base + loc, base + hi, str(num)))
    return spans


def main():
    log, lst, base, got = sys.argv[1:5]
    if lst == "--truth":
        spans = [(int(a, 16), int(b, 16), n) for a, b, n in (l.split() for l in open(base))]
    else:
        spans = statements(lst, int(base, 16))
    want = collections.Counter()
    for addr, n in executions(log).items():
        key = next((k for lo, hi, k in spans if lo <= addr < hi), "(no statement)")
        want[key] += n
    have = collections.Counter()
    with open(got) as f:
        for r in csv.DictReader(f):
            if r["file"] == "(total)":
                continue
            key = r["line"]
            if r["file"].endswith(")") and "(" in r["file"]:     # a FORTRAN unit's ISN: UNIT:ISN
                key = r["file"][r["file"].rindex("(") + 1:-1] + ":" + key
            have["(no statement)" if r["file"] == "(no statement)" else key] += int(r["self_instr"])
    bad = [k for k in sorted(set(want) | set(have)) if want[k] != have[k]]
    for k in bad[:10]:
        print("statement %s: listing+Hercules %d, fst %d" % (k, want[k], have[k]))
    if not bad:
        print("statements %d instructions %d" % (len([k for k in want if want[k]]), sum(want.values())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
