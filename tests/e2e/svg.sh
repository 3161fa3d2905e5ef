# --format=svg: fst's own flame graph. fortg at 1 ms an instruction (--clock=mips:0.001,
# --timed=all): MAIN 301 instructions inclusive, MAIN;SUBA 130 (10 calls of 13),
# MAIN;SUBB 120 (3 calls), MAIN;SUBB;SUBA 78 (6 calls) — tests/programs/EXPECTED and the
# construction in fortg.s. Widths are checked against those numbers, the tooltips hold the
# calls, the file is self-contained, and headless Chromium renders it: the PNG has the
# SVG's size, MAIN's bar in its colour where the SVG puts it, nothing above SUBA.
# Then the MAPTIME histogram (--format=maptime --svg), checked the same way.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
CHROMIUM=${CHROMIUM:-chromium}

cp "$FST_ROOT/tests/png.py" png.py   # w, hh, px(x, y) of the PNG in argv[1]
# render SVG PNG WIDTH HEIGHT: headless Chromium draws the SVG at its size
render() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$T/$2" \
        --window-size=$3,$4 "file://$T/$1" > chromium.log 2>&1
}

fst-capture -q -o fortg.trace "$FST_PROGS/fortg.ins" || fail "fortg: capture"
expect_ok "svg: written" fst-report --format=svg --timed=all --clock=mips:0.001 -o f.svg fortg.trace
res=$(python3 - <<'EOF'
import re, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse("f.svg").getroot()
W = 1200 - 2 * 10
frames = {}
for g in root.iter(ns + "g"):
    t, r = g.find(ns + "title").text, g.find(ns + "rect")
    name = t.split(":")[0]
    calls = re.search(r"calls (\d+)", t)
    frames[(name, calls.group(1) if calls else "-")] = (float(r.get("x")), float(r.get("y")), float(r.get("width")))
want = {("all", "-"): 301, ("MAIN", "-"): 301, ("SUBA", "10"): 130, ("SUBB", "3"): 120, ("SUBA", "6"): 78}
out = []
for k, n in want.items():
    got = frames.get(k)
    out.append(f"{k[0]}/{k[1]} " + ("missing" if not got else "ok" if abs(got[2] - W * n / 301) < 0.001 else f"width {got[2]}"))
a, b = frames.get(("SUBA", "6")), frames.get(("SUBB", "3"))
out.append("stack " + ("ok" if a and b and a[0] == b[0] and a[1] == b[1] - 17 else "wrong"))
out.append(f"frames {len(frames)}")
print(" | ".join(out))
EOF
)
expect_eq "svg: widths and calls from the construction" \
    "all/- ok | MAIN/- ok | SUBA/10 ok | SUBB/3 ok | SUBA/6 ok | stack ok | frames 5" "$res"
self_contained() {   # NAME FILE: no script, no link to anything outside the file
    if grep -qi '<script\|href=\|@import\|url(' "$2"; then fail "$1: self-contained (no script, no link)"
    else ok "$1: self-contained (no script, no link)"; fi
}
self_contained svg f.svg

if ! command -v "$CHROMIUM" > /dev/null; then
    fail "svg: headless chromium" "no $CHROMIUM (scripts/deps.sh installs Debian's chromium)"
else
    h=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' f.svg)
    render f.svg f.png 1200 "$h"
    res=$(python3 - f.png "$h" <<'EOF'
import re, sys
exec(open("png.py").read())
h = int(sys.argv[2])
svg = open("f.svg").read()
m = re.search(r'<title>MAIN:[^<]*</title><rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="15" fill="(#[0-9A-F]+)"', svg)
main_y, main_fill = float(m.group(1)), m.group(2)
print(f"{w}x{hh}", "main", "ok" if px(1100, int(main_y) + 4) == main_fill else px(1100, int(main_y) + 4),
      "above", "white" if px(1100, int(main_y) - 40) == "#FFFFFF" else px(1100, int(main_y) - 40))
EOF
)
    expect_eq "svg: rendered by headless chromium" "1200x$h main ok above white" "$res"
fi
expect_fail "svg: an option of another format is refused" 2 "--unit is an option of" \
    fst-report --format=svg --unit=ns -o x.svg fortg.trace

# ---- --format=maptime --svg: the MAPTIME histogram drawn. maptime.s at 1 us an
# instruction, --exact: the sections' shares are their instruction counts of construction
# (EXPECTED: MAIN 50032 of which 32 under LOGTIME's X'5C' flag, IHOEXP 28000, IHOLGN 30000,
# IHOCVT 92000, IHOERR all flagged: 0), so bar widths are those counts against IHOCVT's,
# the largest, which spans the bar area (1000 - 2 x 10 margin - 200 label - 70 percent).
fst-capture -q -o mt.trace "$FST_PROGS/maptime.ins" || fail "maptime: capture"
expect_ok "maptime --svg: written" fst-report --format=maptime --svg --exact --clock=mips:1 \
    "--request=SPAN 0 0 0 0.0" "--request=NAME MAIN IHOCVT 10 1.0" -o m.svg mt.trace
fact() { awk -v r="$1" '$1 == "maptime" && $2 == "self" && $3 == r { print $NF }' "$FST_ROOT/tests/programs/EXPECTED"; }
res=$(python3 - "$(fact MAIN)" "$(fact IHOEXP)" "$(fact IHOLGN)" "$(fact IHOCVT)" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
main, exp, lgn, cvt = (int(x) for x in sys.argv[1:])
want = {"MAIN": main - 32, "IHOEXP": exp, "IHOLGN": lgn, "IHOCVT": cvt, "IHOERR": 0}
total, area = sum(want.values()), 1000 - 2 * 10 - 200 - 70
root = ET.parse("m.svg").getroot()
out, seen, panels = [], {}, [t.text for t in root.iter(ns + "text") if t.text and t.text.startswith("HISTOGRAM")]
for g in root.iter(ns + "g"):
    t, r = g.find(ns + "title").text, g.find(ns + "rect")
    m = re.match(r"(\S+) ([0-9A-F]{6}): (\d+\.\d\d)% of the MAPTIME range, ([\d.]+) s$", t)
    if m and m.group(1) not in seen:       # the first panel: one line per section
        seen[m.group(1)] = (float(r.get("width")) if r is not None else None, m.group(3), m.group(4))
for n, v in want.items():
    got = seen.get(n)
    ok = got and got[0] is not None and abs(got[0] - area * v / cvt) < 0.001 \
        and got[1] == "%.2f" % (100 * v / total) and got[2] == "%.9f" % (v / 1e6)
    out.append(f"{n} " + ("ok" if ok else f"got {got}"))
spans = [g for g in root.iter(ns + "g") if re.match(r"\S+ \+[0-9A-F]{6}-[0-9A-F]{6}: ", g.find(ns + "title").text)]
out.append(f"panels {len(panels)} spans {'yes' if spans else 'none'}")
print(" | ".join(out))
EOF
)
expect_eq "maptime --svg: a bar per section, widths and figures from the construction" \
    "MAIN ok | IHOEXP ok | IHOLGN ok | IHOCVT ok | IHOERR ok | panels 2 spans yes" "$res"
self_contained "maptime --svg" m.svg
fst-report --format=maptime --exact --clock=mips:1 "--request=SPAN 0 0 0 0.0" -o m.txt mt.trace 2> /dev/null
expect_eq "maptime --svg: the listing's percentages" \
    "$(awk '$3 ~ /^[0-9]+\.[0-9][0-9]$/ && $2 ~ /^0/ { print $1, $3 }' m.txt | head -5)" \
    "$(sed -n 's/.*<title>\([A-Z]*\) [0-9A-F]*: \([0-9.]*\)% of.*/\1 \2/p' m.svg | head -5)"
if command -v "$CHROMIUM" > /dev/null; then
    h=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' m.svg)
    render m.svg m.png 1000 "$h"
    res=$(python3 - m.png "$h" <<'EOF'
import re, sys
exec(open("png.py").read())
svg = open("m.svg").read()
bar = lambda n: re.search(r'<title>' + n + r' [^<]*</title><text[^>]*>[^<]*</text><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="12" fill="(#[0-9A-F]+)"', svg)
out = [f"{w}x{hh}"]
for n in ("MAIN", "IHOCVT"):
    x, y, wd, fill = bar(n).groups()
    x, y, wd = float(x), int(float(y)) + 6, float(wd)
    inside, after = px(int(x + wd) - 2, y), px(int(x + wd) + 60, y)   # after: past its percentage
    out.append(f"{n} " + ("ok" if inside == fill and (after == "#FFFFFF" or x + wd + 60 >= w) else f"{inside} {after}"))
print(" ".join(out))
EOF
)
    expect_eq "maptime --svg: rendered by headless chromium (bars end where the SVG says)" "1000x$h MAIN ok IHOCVT ok" "$res"
fi
expect_fail "maptime: --svg is maptime's own option" 2 "--svg is an option of" \
    fst-report --format=csv --svg mt.trace
