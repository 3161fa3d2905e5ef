# tests/e2e/diffflame.sh — fst-diff --format=folded and --format=svg (formats/diffflame.h): a
# differential flame graph of fortg against a variant built here in which MAIN calls SUBA
# 11 times instead of 10 (tests/programs/fortg.s: MAIN's loop is 3 instructions a turn,
# SUBA 13 instructions a call; SUBB and its two SUBA calls unchanged). At one instruction a
# microsecond (--clock=mips:1) every figure is 1000 ns an instruction of the construction.
# The SVG is parsed (widths from NEW, colours from the change) and drawn by headless
# Chromium.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PROGSRC=$FST_ROOT/tests/programs
CHROMIUM=${CHROMIUM:-chromium}
cp "$PROGSRC/fortg.s" calls.s
sed -i 's/^\(        la      %r2,\)10 /\111 /' calls.s
if s390x-linux-gnu-as -m31 -I "$PROGSRC" -o calls.o calls.s &&
    s390x-linux-gnu-ld -m elf_s390 -T "$PROGSRC/standalone.ld" -o calls.elf calls.o &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore calls.elf calls.lc &&
    s390x-linux-gnu-objcopy -O binary -j .text calls.elf calls.bin &&
    printf '%s 0x0\n%s 0x20000\n' calls.lc calls.bin > calls.ins && fst-capture -q -o calls.trace calls.ins &&
    fst-capture -q -o fortg.trace "$FST_PROGS/fortg.ins"; then ok "fortg and its variant: built and captured"
else fail "fortg and its variant: built and captured"; fi

fst-diff --versions --clock=mips:1 --format=folded -o d.folded fortg.trace calls.trace 2> err
expect_eq "folded: exit 1 (the runs differ)" "1" "$?"
expect_eq "folded: every stack, its self figure in A and in B, as built" \
    "MAIN 51000 54000
MAIN;SUBA 130000 143000
MAIN;SUBB 42000 42000
MAIN;SUBB;SUBA 78000 78000" "$(cat d.folded)"
fst-diff --versions --clock=mips:1 --format=folded fortg.trace fortg.trace > same.folded 2> /dev/null
expect_eq "folded: a run against itself: exit 0, every stack the same in both" "0 4" \
    "$? $(awk '$2 == $3' same.folded | wc -l)"
expect_fail "svg of a csv side: refused (a csv has no stacks)" 2 "is a csv report: a flame graph needs the stacks of two traces" \
    sh -c 'fst-report --format=csv --clock=mips:1 fortg.trace > f.csv 2> /dev/null; fst-diff --versions --clock=mips:1 --format=svg f.csv calls.trace'

fst-diff --versions --clock=mips:1 --format=svg -o d.svg fortg.trace calls.trace 2> /dev/null
expect_eq "svg: exit 1 (the runs differ)" "1" "$?"
if command -v xmllint > /dev/null; then expect_ok "svg: well-formed XML" xmllint --noout d.svg; fi
res=$(python3 - <<'EOF'
import re, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
W = 1200 - 2 * 10
out, frames = [], {}
for g in ET.parse("d.svg").getroot().iter(ns + "g"):
    t, r = g.find(ns + "title").text, g.find(ns + "rect")
    m = re.match(r"(\S+): A (\d+) ns \(self \d+\), B (\d+) ns", t)
    frames.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3)), float(r.get("width")), r.get("fill")))
# the construction: B's whole is 317 instructions (54 + 11 x 13 + 120), A's 301
want = {"all": [(301000, 317000)], "MAIN": [(301000, 317000)], "SUBA": [(130000, 143000), (78000, 78000)],
        "SUBB": [(120000, 120000)]}
for name, figs in want.items():
    got = sorted(frames.get(name, []), reverse=True)
    ok = len(got) == len(figs) and all(g[0] == a and g[1] == b and abs(g[2] - W * b / 317000) < 0.001
                                       for g, (a, b) in zip(got, sorted(figs, reverse=True)))
    out.append(name + (" ok" if ok else " " + str(got)))
red = lambda f: int(f[1:3], 16) == 255 and int(f[3:5], 16) < 255
suba = sorted(frames["SUBA"], reverse=True)
out.append("grew red" if red(suba[0][3]) else "grew " + suba[0][3])
out.append("same grey" if suba[1][3] == "#F2F2F2" and frames["SUBB"][0][3] == "#F2F2F2" else "same not grey")
print(" | ".join(out))
EOF
)
expect_eq "svg: figures of A and B in every tooltip, widths from B, red where it grew, grey where not" \
    "all ok | MAIN ok | SUBA ok | SUBB ok | grew red | same grey" "$res"

if ! command -v "$CHROMIUM" > /dev/null; then
    fail "svg: headless chromium" "no $CHROMIUM (scripts/deps.sh installs Debian's chromium)"
else
    h=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' d.svg)
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$T/d.png" \
        --window-size=1200,"$h" "file://$T/d.svg" > chromium.log 2>&1
    # the pixel in the middle of the SUBA frame that grew is its fill (python's own PNG reader)
    cp "$FST_ROOT/tests/png.py" png.py
    res=$(python3 - d.png <<'EOF'
import re, sys
exec(open("png.py").read())
svg = open("d.svg").read()
m = re.search(r'<title>SUBA: A 130000[^<]*</title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="15" fill="(#[0-9A-F]+)"', svg)
x, y, wd, fill = float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4)
c = px(int(x + wd / 2), int(y) + 7)
print(f"{w}x{hh}", "ok" if c == fill else c + " not " + fill)
EOF
)
    expect_eq "svg: rendered by headless chromium, the grown frame in its colour" "1200x$h ok" "$res"
fi
