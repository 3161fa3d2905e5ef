# --format=svg: fst's own flame graph. fortg at 1 ms an instruction (--clock=mips:0.001,
# --timed=all): MAIN 301 instructions inclusive, MAIN;SUBA 130 (10 calls of 13),
# MAIN;SUBB 120 (3 calls), MAIN;SUBB;SUBA 78 (6 calls) — tests/programs/EXPECTED and the
# construction in fortg.s. Widths are checked against those numbers, the tooltips hold the
# calls, the file is self-contained, and headless Chromium renders it: the PNG has the
# SVG's size, MAIN's bar in its colour where the SVG puts it, nothing above SUBA.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
CHROMIUM=${CHROMIUM:-chromium}

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
if grep -qi '<script\|href=\|@import\|url(' f.svg; then fail "svg: self-contained (no script, no link)"
else ok "svg: self-contained (no script, no link)"; fi

if ! command -v "$CHROMIUM" > /dev/null; then
    fail "svg: headless chromium" "no $CHROMIUM (scripts/deps.sh installs Debian's chromium)"
else
    h=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' f.svg)
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$T/f.png" \
        --window-size=1200,"$h" "file://$T/f.svg" > chromium.log 2>&1
    res=$(python3 - "$h" <<'EOF'
import re, struct, sys, zlib
h = int(sys.argv[1])
d = open("f.png", "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, ihdr = 8, b"", None
while pos < len(d):
    n, typ = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if typ == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
    if typ == b"IDAT": idat += body
    pos += 12 + n
w, hh, depth, ctype = ihdr[:4]
bpp = {2: 3, 6: 4}[ctype]
raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
for y in range(hh):
    f, line = raw[y * (w * bpp + 1)], bytearray(raw[y * (w * bpp + 1) + 1:(y + 1) * (w * bpp + 1)])
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
px = lambda x, y: "#%02X%02X%02X" % tuple(rows[y][x * bpp:x * bpp + 3])
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
