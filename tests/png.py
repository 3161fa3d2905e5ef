# tests/png.py -- the pixels of a PNG that headless Chromium wrote (8-bit RGB or RGBA, no
# interlace), for the tests that check what a reader sees (svg.sh, diffflame.sh). Run with
# exec() after sys.argv[1] names the file; it leaves w, hh (the size) and px(x, y) ->
# "#RRGGBB". Python's own zlib: no imaging library needed.
import re, struct, sys, zlib
d = open(sys.argv[1], "rb").read()
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
