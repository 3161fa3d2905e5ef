#!/usr/bin/env python3
"""tests/cprogs/lines.py -- the truth of fst-report --format=csv --by=line, from tools other
than fst (tests/e2e/lines.sh, issue 34):

    lines.py HERCULES_LOG DECODEDLINE FST_CSV
    lines.py --annotate DECODEDLINE FST_LISTING

HERCULES_LOG  Hercules' own text trace of the run (fst-capture --via=trace --keep-log): one
              "PSW=... INST=..." line per instruction executed, its address the PSW's last word;
DECODEDLINE   binutils' reading of the ELF's line table (objdump --dwarf=decodedline): each
              row owns the addresses from its own up to the next row's in its sequence ('-'
              ends one), so of several rows at one address the last owns it;
FST_CSV       fst-report --format=csv --by=line.

Prints one line per source line (basename:line) whose instruction count differs: the sum over
the addresses binutils gives the line of Hercules' executions there, against the sum of fst's
self_instr rows for it; addresses no row owns are "(no statement)". Exit 1 when any differs,
else prints 'lines N instructions M' and exits 0.

--annotate: FST_LISTING is fst-report --format=annotate --source. Every executed instruction
listed under a statement's heading ("---- FILE:LINE ...") must be at an address binutils
gives that line (under "---- (no statement" at one it gives none), and the executions listed
under a statement's headings in one routine must add up to the instructions its heading
says. Prints the first differences; exit 1 when any."""
import collections, csv, os, re, sys


def executions(log):
    count = collections.Counter()
    rx = re.compile(r"^PSW=([0-9A-F ]+?) INST=")
    with open(log, errors="replace") as f:
        for line in f:
            m = rx.match(line)
            if m:
                word = m.group(1).split()[-1]
                a = int(word, 16)
                count[a & 0x7FFFFFFF if len(word) == 8 else a] += 1
    return count


def table(path):
    """[(lo, hi, 'file:line')], from the decoded rows."""
    rows, spans = [], []
    row = re.compile(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+)")
    with open(path) as f:
        for line in f:
            m = row.match(line)
            if m:
                rows.append((m.group(1), m.group(2), int(m.group(3), 16)))
            elif not line.strip() and rows and rows[-1][1] != "-":
                pass
    for i, (fname, ln, addr) in enumerate(rows):
        if ln == "-" or i + 1 >= len(rows):
            continue
        nxt = rows[i + 1][2]
        if nxt > addr:
            spans.append((addr, nxt, "%s:%s" % (os.path.basename(fname), ln)))
    return spans


def owner(spans, addr):
    for lo, hi, key in spans:
        if lo <= addr < hi:
            return key
    return "(no statement)"


def annotate(dl, listing):
    spans = table(dl)
    head = re.compile(r"^  ---- (\(no statement|[^:]+:\d+)")
    figs = re.compile(r", (\d+) instructions, ")
    insn = re.compile(r"^(?:>>|> |  )([0-9A-F]{8,16}) .*?\s(\d+)\s+\d+\.\d{9}\s")
    routine, key, said, summed, bad, n = None, None, {}, collections.Counter(), [], 0
    with open(listing) as f:
        for line in f:
            if line[:1] not in (" ", ">", "") and "entry" in line:
                routine = line.split()[0]
                continue
            m = head.match(line)
            if m:
                key = "(no statement)" if m.group(1).startswith("(") else m.group(1)
                g = figs.search(line)
                if g:
                    said[(routine, key)] = int(g.group(1))
                continue
            m = insn.match(line)
            if not m or key is None:
                continue
            n += 1
            own = owner(spans, int(m.group(1), 16))
            if own != key:
                bad.append("%s %s: listed under %s, binutils gives it to %s" % (routine, m.group(1), key, own))
            summed[(routine, key)] += int(m.group(2))
    for k in said:
        if said[k] != summed[k]:
            bad.append("%s %s: heading says %d instructions, the listing under it %d" % (k[0], k[1], said[k], summed[k]))
    for b in bad[:10]:
        print(b)
    if not bad:
        print("instructions %d statements %d" % (n, len(said)))
    return 1 if bad or not n else 0


def main():
    if sys.argv[1] == "--annotate":
        return annotate(sys.argv[2], sys.argv[3])
    log, dl, got = sys.argv[1:4]
    want = collections.Counter()
    spans = table(dl)
    for addr, n in executions(log).items():
        want[owner(spans, addr)] += n
    have = collections.Counter()
    with open(got) as f:
        for r in csv.DictReader(f):
            if r["file"] == "(total)":
                continue
            key = "(no statement)" if r["file"] == "(no statement)" else "%s:%s" % (os.path.basename(r["file"]), r["line"])
            have[key] += int(r["self_instr"])
    bad = 0
    for key in sorted(set(want) | set(have)):
        if want[key] != have[key]:
            print("%s: binutils+Hercules %d, fst %d" % (key, want[key], have[key]))
            bad = 1
    if not bad:
        print("lines %d instructions %d" % (len([k for k in want if want[k]]), sum(want.values())))
    return bad


if __name__ == "__main__":
    sys.exit(main())
