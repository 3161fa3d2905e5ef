#!/usr/bin/env python3
"""tests/programs/ibmlist.py -- an IBM assembler listing of a linked test program, made from
the layout the Programmer's Guides document (OS/VS assembler GC33-4021: IFOX00; HLASM
SC26-4941), for tests/e2e/listings.sh (issue 34):

    ibmlist.py ifox|hlasm OBJDUMP NM PAGELINES [nostub] > LISTING    and, on fd 3, the truth

OBJDUMP is `objdump -d` of the linked program, NM its `nm -P` text symbols. Each routine
(a symbol, up to the next) is a control section of its own, located from 0 as a separate
assembly's would be (the code before the first symbol: an unnamed CSECT); each instruction
objdump decodes is a statement with its location, object code in halfword groups, its
statement number and its text. Around them, as real listings have them: an external symbol
dictionary before the section (nostub: without the unnamed CSECT), comment statements, the first instruction of each routine
flagged as macro-generated ('+'), a card continued on the next line, and pages of
PAGELINES lines, each with its title and the column heading:
  ifox   upper case, an ASA control character in column 1 ('1' a new page, '0' double space)
  hlasm  mixed case, no control character, a form feed before each page, "Active Usings"
The truth goes to fd 3: which statement holds each instruction's addresses (START END STMT)."""
import re, sys


def routines(nm):
    syms = []
    for line in open(nm):
        f = line.split()
        if len(f) >= 3 and f[1] in ("T", "t"):
            syms.append((int(f[2], 16), f[0]))
    return sorted(syms)


def insns(objdump):
    rx = re.compile(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t(.*)$")
    out = []
    for line in open(objdump):
        m = rx.match(line)
        if m:
            out.append((int(m.group(1), 16), bytes.fromhex(m.group(2).replace(" ", "")), m.group(3).replace("\t", " ")))
    return out


def main():
    kind, objdump, nm, pagelines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    syms, code = routines(nm), insns(objdump)
    truth = open(3, "w")
    hl = kind == "hlasm"
    head = ("  Loc  Object Code    Addr1 Addr2  Stmt   Source Statement                                  HLASM R6.0"
            if hl else "  LOC  OBJECT CODE    ADDR1 ADDR2  STMT   SOURCE STATEMENT                             F15SEP78")
    out, page, lines = [], [0], [10 ** 6]

    def emit(text, cc=" "):
        if lines[0] >= pagelines:
            page[0] += 1
            title = "%-40s%60s" % ("TEST  A LISTING MADE FROM THE LAYOUT", ("Page %4d" if hl else "PAGE %4d") % page[0])
            if hl:
                out.append("\f" + title)
                out.append("     Active Usings: None")
                out.append(head)
            else:
                out.append("1" + title)
                out.append("0" + head)
            lines[0] = 3
        out.append(text if hl else cc + text)
        lines[0] += 1

    # the external symbol dictionary comes first in every listing: skipped by the reader
    out.append(("\f" if hl else "1") + "                          EXTERNAL SYMBOL DICTIONARY")
    for a, n in syms:
        out.append((" " if not hl else "") + "%-8s SD 0001 000000 %06X" % (n, 0))
    stmt = [0]

    def statement(loc, obj, text, flag=" "):
        stmt[0] += 1
        locs = "%06X" % loc if loc is not None else "      "
        o = obj.hex().upper()
        groups = " ".join(o[i:i + 4] for i in range(0, min(len(o), 12), 4))
        emit("%s %-14s %5s %5s %5d%s%s" % (locs, groups, "", "", stmt[0], flag, text))
        return stmt[0]

    stub = len(sys.argv) < 6 or sys.argv[5] != "nostub"
    starts = ([(code[0][0], "")] if stub and code and (not syms or code[0][0] < syms[0][0]) else []) + syms
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else 1 << 40
        statement(0, b"", "%-8s CSECT" % name)
        statement(None, b"", "* ---- %s: the routine's code as objdump decodes it" % (name or "the start-up"))
        first = True
        for a, b, text in code:
            if not start <= a < end:
                continue
            op, _, rest = text.partition(" ")
            n = statement(a - start, b, "         %-5s %s" % (op.upper(), rest.strip()), "+" if first else " ")
            truth.write("%X %X %d\n" % (a, a + len(b), n))
            if first:   # a card continued on the next line: its text only, no number
                emit("%42s%s" % ("", "               CONTINUED OPERAND TEXT"))
            first = False
    statement(None, b"", "         END")
    out.append(("\f" if hl else "1") + "                          RELOCATION DICTIONARY")
    out.append((" " if not hl else "") + "  POS.ID   REL.ID   FLAGS   ADDRESS")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
