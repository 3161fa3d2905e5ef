#!/usr/bin/env python3
"""tests/programs/fortlist.py -- a FORTRAN IV G or H compiler listing (SOURCE and LIST) of a
linked FORTRAN-style test program, made from the layout fst reads (model/stmt_fort.c, after
the Programmer's Guide GC28-6817), for tests/e2e/listings.sh (issue 34):

    fortlist.py g|h GAS_LISTING OBJDUMP NM PAGELINES > LISTING    and, on fd 3, the truth

The statements are the program's own: each source line of the GNU as listing (as -al) that
made code is one FORTRAN statement, numbered from 1 in its routine (its ISN), the source
text its card; the first, the routine's entry (B 12(15) and the identifier), is the prologue,
code of no statement, as a compiler's is. Each routine (an nm symbol, up to the next) is a
compilation unit: a title line per page, the source listing (ISN and card; comment cards
and a continuation card without an ISN), then the object listing under its heading, one
line per instruction objdump decodes, located from the routine's start, the ISN in the STA
NUM column on a statement's first instruction (h: also the object code in hex after the
location, and the ISN of every third statement on a line 'ISN nnnn' of its own). Pages of
PAGELINES lines; g with ASA control characters, h with form feeds.
The truth goes to fd 3: 'START END UNIT:ISN' (hex, absolute) per statement, as the listing
gives it: from its first location to the next statement's."""
import re, sys


def insns(stmts, mem, texts, end):
    """The instructions of each statement, from its location to the next one's: lengths from
    the opcode (2, 4 or 6 bytes), as the machine reads them (objdump, decoding a routine from
    its start, runs through the identifier's bytes out of step)."""
    for i, (a, _) in enumerate(stmts):
        stop = stmts[i + 1][0] if i + 1 < len(stmts) else end
        while a < stop and a in mem:
            n = min((2, 4, 4, 6)[int(mem[a], 16) >> 6], stop - a)   # data may end anywhere
            hexcode = "".join(mem.get(a + k, "00") for k in range(n))
            yield a, hexcode, texts.get(a, "DC X'%s'" % hexcode)
            a += n


def main():
    kind, lst, objdump, nm, pagelines = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    syms = sorted((int(f[2], 16), f[0]) for f in (l.split() for l in open(nm)) if len(f) >= 3 and f[1] in "Tt")
    rx = re.compile(r"^\f?\s*(\d+) ([0-9a-f]{4,}) ([0-9A-F]+)\s*\t(.*)$")
    located = [(0x20000 + int(m.group(2), 16), m.group(4).strip()) for m in map(rx.match, open(lst, errors="replace")) if m]
    irx = re.compile(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t(.*)$")
    code = [(int(m.group(1), 16), m.group(2).replace(" ", "").upper(), m.group(3).replace("\t", " "))
            for m in map(irx.match, open(objdump)) if m]
    mem, texts = {}, {}
    for a, hexcode, text in code:
        texts[a] = text
        for i in range(0, len(hexcode), 2):
            mem[a + i // 2] = hexcode[i:i + 2]
    truth = open(3, "w")
    h = kind == "h"
    out, page, left = [], [0], [0]

    def emit(text, name):
        if left[0] <= 0:
            page[0] += 1
            t = ("FORTRAN IV H LEVEL 21.8 ( JUN 74 )          %-8s  DATE = 26332   TIME = 15.37.55   PAGE %04d" if h
                 else "FORTRAN IV G LEVEL  21                 %-8s          DATE = 26332        15/37/55       PAGE %04d")
            out.append(("\f " if h else "1") + t % (name, page[0]))
            left[0] = pagelines - 1
        out.append(text if h else " " + text)
        left[0] -= 1

    out.append(("" if h else "1") + "J E S 2  J O B  L O G  (job output before the compilation: skipped)")
    for k, (start, name) in enumerate(syms):
        end = syms[k + 1][0] if k + 1 < len(syms) else 1 << 40
        stmts = [(a, txt) for a, txt in located if start <= a < end]
        left[0] = 0
        emit("                %-72sSEQ%05d" % ("C     ROUTINE " + name + ", MADE FROM ITS ASSEMBLER LISTING", 0), name)
        isns = []
        for i, (a, txt) in enumerate(stmts):
            if i == 0:
                continue    # the prologue: no ISN
            isn = len(isns) + 1
            isns.append((a, isn))
            # the ISN, then the card 8 columns on: columns 1-72, 73-80 the sequence number
            emit("    %04d        %-72sSEQ%05d" % (isn, "      " + txt[:66].upper(), isn * 10), name)
            if isn == 2:    # a continuation card: no ISN
                emit("                     1CONTINUATION OF THE STATEMENT ABOVE", name)
        emit("", name)
        emit("   SUBPROGRAMS CALLED", name)
        emit("   *OPTIONS IN EFFECT*  ID,EBCDIC,SOURCE,NOLIST", name)
        left[0] = 0
        emit("", name)
        emit("   LOCATION  STA NUM  LABEL  OP    OPERAND        BCD OPERAND" if not h else
             "   LOCATION  OBJECT CODE   ISN  LABEL  OP    OPERAND        BCD OPERAND", name)
        starts = {a: isn for a, isn in isns}
        for a, hexcode, text in insns(stmts, mem, texts, end):
            op, _, rest = text.partition(" ")
            isn = starts.get(a)
            if h and isn is not None and isn % 3 == 0:
                emit("   ISN %04d" % isn, name)
                isn = None
            if h:
                emit("    %06X  %-12s  %4s  %5s  %-5s %s" % (a - start, hexcode, isn or "", "", op.upper(), rest.strip()), name)
            else:
                emit("    %06X     %4s         %-5s %s" % (a - start, isn or "", op.upper(), rest.strip()), name)
        for i, (a, isn) in enumerate(isns):
            nxt = isns[i + 1][0] if i + 1 < len(isns) else min(end, max(m for m in mem) + 1)
            truth.write("%X %X %s:%d\n" % (a, nxt, name, isn))
        emit("", name)
        emit("   *STATISTICS*  SOURCE STATEMENTS = %d, PROGRAM SIZE = %d" % (len(isns), 0), name)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
