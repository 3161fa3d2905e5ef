# trace.bin: damaged and truncated files are detected and said so, with the byte offset;
# a truncated trace stays readable up to its last whole frame.
. "$(dirname "$0")/../lib.sh"
dumpval() { sed -n "s/^$1=//p" "$2"; }
frames() {   # frames FILE: "offset tag length" of each frame
    local f=$1 off=8 size len
    size=$(stat -c %s "$f")
    while [ $((off + 8)) -le "$size" ]; do
        len=$(od -A n -t u4 -j $((off + 4)) -N 4 "$f" | tr -d ' ')
        echo "$off $(dd if="$f" bs=1 skip="$off" count=4 status=none) $len"
        off=$((off + 12 + len))
    done
}

# a trace of several frames: bigloop, 1.1 M instructions (version 3: 256 KiB of ops a frame)
fst-capture -q -o "$T/t.trace" "$FST_PROGS/bigloop.ins"
size=$(stat -c %s "$T/t.trace")
fst-dump --summary "$T/t.trace" > "$T/d"
ninsn=$(dumpval count.insn "$T/d")
expect_eq "complete trace reads back" "1100017 1 3" "$ninsn $(dumpval complete "$T/d") $(dumpval version "$T/d")"
bpi=$(awk -v s="$size" -v n="$ninsn" 'BEGIN { printf "%d", s * 1000 / n }')
[ "$bpi" -le 50 ] && ok "at most 0.05 byte per instruction, storage image included (${bpi}/1000)" \
    || fail "at most 0.05 byte per instruction" "$size bytes"
nev=$(sed -n 's/^frames.EVNT=\([0-9]*\) .*/\1/p' "$T/d")
[ "${nev:-0}" -ge 3 ] && ok "several EVNT frames ($nev), each packed: $(grep '^frames.EVNT' "$T/d")" \
    || fail "several EVNT frames" "$(grep '^frames' "$T/d")"

# cut short in the middle of the last event frame: readable up to the last whole frame,
# marked incomplete
head -c "$(frames "$T/t.trace" | awk '$2 == "EVNT" { m = $1 + 8 + int($3 / 2) } END { print m }')" "$T/t.trace" \
    > "$T/half.trace"
fst-dump --summary "$T/half.trace" > "$T/d" 2> "$T/err"
expect_eq "truncated: exit 0, incomplete" "0" "$(dumpval complete "$T/d")"
n=$(dumpval count.insn "$T/d")
[ "$n" -gt 0 ] && [ "$n" -lt 1100017 ] && ok "truncated: the whole frames are read ($n instructions)" \
    || fail "truncated: the whole frames are read" "$n"
grep -q "^incomplete=cut short at byte [0-9]* (inside a EVNT frame), after instruction $n" "$T/d" \
    && ok "truncated: says where it was cut" || fail "truncated: says where it was cut" "$(grep incomplete "$T/d")"

# only the footer missing
head -c $((size - 20)) "$T/t.trace" > "$T/nofoot.trace"
expect_eq "footer cut off: all instructions, incomplete" "1100017 0" \
    "$(fst-dump --summary "$T/nofoot.trace" | awk -F= '/^count.insn=/{i=$2}/^complete=/{c=$2}END{print i, c}')"

# one byte changed inside an event frame (its packed bytes): an error naming the frame's offset
cp "$T/t.trace" "$T/bad.trace"
flip_byte "$T/bad.trace" "$(frames "$T/t.trace" | awk '$2 == "EVNT" { m = $1 + 8 + int($3 / 2) } END { print m }')"
expect_fail "damaged frame: exit 2 with the byte offset" 2 "bad.trace: byte [0-9]+: EVNT frame CRC mismatch" \
    fst-dump --summary "$T/bad.trace"
expect_fail "not a trace" 2 "not an fst trace" fst-dump "$FST_ROOT/README.md"
head -c 4 "$T/t.trace" > "$T/tiny.trace"
expect_fail "a 4-byte file" 2 "not an fst trace" fst-dump "$T/tiny.trace"
head -c 12 "$T/t.trace" > "$T/nohead.trace"
expect_fail "header cut short" 2 "byte 8: the trace has no header" fst-dump "$T/nohead.trace"
expect_fail "missing trace" 2 "cannot open" fst-dump "$T/nothere.trace"

# damage that once read as something else (issue 12 item 10)
last_evnt=$(frames "$T/t.trace" | awk '$2 == "EVNT" { o = $1 } END { print o }')
cp "$T/t.trace" "$T/len.trace"
flip_byte "$T/len.trace" $((last_evnt + 5))   # the length runs past the end of the file
expect_fail "a damaged frame length: an error at the length field, not 'cut short'" 2 \
    "len.trace: byte $((last_evnt + 4)): the EVNT frame's length says [0-9]+ bytes, past the end of the file, but its CRC matches at [0-9]+: the length field is damaged" \
    fst-report "$T/len.trace"
cat "$T/t.trace" "$T/t.trace" > "$T/two.trace"
expect_fail "two traces joined (cat a b): an error after the first footer" 2 \
    "two.trace: byte $size: data after the footer: another trace appended" fst-report "$T/two.trace"
cp "$T/t.trace" "$T/tail.trace"
echo >> "$T/tail.trace"
expect_fail "a byte after the footer: an error naming it" 2 "tail.trace: byte $size: data after the footer" \
    fst-dump --summary "$T/tail.trace"

# version 1 traces, as fst wrote them before version 2 (tests/traces: from the Hercules 3.13
# fixture logs, with the fst-dump of that time): read record for record as then, and the
# report of each equals the report of a trace made now (version 3) from the same log
for n in z_noregs bc_noregs; do
    v1=$FST_ROOT/tests/traces/$n.v1.trace
    fst-dump "$v1" | grep -v '^version=\|^frames\.' > "$T/$n.dump"
    if cmp -s "$T/$n.dump" "$FST_ROOT/tests/traces/$n.v1.dump"; then ok "$n: a version 1 trace reads as it did"
    else fail "$n: a version 1 trace reads as it did" "$(diff "$T/$n.dump" "$FST_ROOT/tests/traces/$n.v1.dump" | head -5)"; fi
    fst-capture -q --from-log="$FST_FIXTURES/hercules-3.13/$n.log" -o "$T/$n.v2.trace"
    expect_eq "$n: made now, version 3" "3" "$(fst-dump --summary "$T/$n.v2.trace" | sed -n 's/^version=//p')"
    # (the evidence of which task runs that fst writes now, tracebin.h OPND and OLDPSW, and
    # the footer's range-seen, written since, left out)
    diff <(fst-dump "$T/$n.v2.trace" | grep -v '^header.command=\|^header.program=\|^header.recent-targets=\|^version=\|^frames\.\|^opnd \|^oldpsw \|^count\.opnd=\|^count\.oldpsw=\|^footer\.range-seen=') \
         <(grep -v '^header.command=\|^header.program=' "$FST_ROOT/tests/traces/$n.v1.dump") > "$T/dd" \
        && ok "$n: version 3 holds the same records" || fail "$n: version 3 holds the same records" "$(head -5 "$T/dd")"
    fst-report --unnamed-ok --timed=all -o "$T/$n.r1" "$v1" 2> /dev/null
    fst-report --unnamed-ok --timed=all -o "$T/$n.r2" "$T/$n.v2.trace" 2> /dev/null
    cmp -s "$T/$n.r1" "$T/$n.r2" && ok "$n: the same report from version 1 and version 3" \
        || fail "$n: the same report from version 1 and version 3" "$(diff "$T/$n.r1" "$T/$n.r2" | head -5)"
done

# the header's recent-targets (tracebin.h FST_HK_RECENT): a trace made now says 4, and the
# reader keeps only 4; an old trace says nothing, and its JMP ops name any of 16. A trace
# that says 4 and names a 5th target names one the reader does not keep: an error at that
# op's byte, never a jump to a wrong address
expect_eq "a trace made now says its JMP ops name the 4 most recent targets" "4" \
    "$(fst-dump --summary "$T/z_noregs.v2.trace" | sed -n 's/^header.recent-targets=//p')"
jmp4() {   # jmp4 OUT [KEY VALUE]: a version 1 trace whose ops jump to 5 targets, then JMP 4 to the first
    python3 - "$@" <<'PY'
import struct, sys, zlib
def frame(tag, payload):
    f = tag + struct.pack('<I', len(payload)) + payload
    return f + struct.pack('<I', zlib.crc32(f))
head = b'\1\0source\0log\0' + b''.join(k.encode() + b'\0' + v.encode() + b'\0' for k, v in zip(sys.argv[2::2], sys.argv[3::2]))
ops, cur = b'', 0
for t in range(0x1000, 0x6000, 0x1000):   # JMPA to t (zigzag varint), INS 0700 (NOPR) there
    v, d = b'', (t - cur) << 1
    while d >= 0x80:
        v, d = v + bytes([d & 0x7F | 0x80]), d >> 7
    ops += b'\x50' + v + bytes([d]) + b'\x51\x07\x00'
    cur = t + 2
ops += b'\x44\x00'   # JMP 4: the first target, 0x1000; SEQ of one instruction there
open(sys.argv[1], 'wb').write(b'FSTTRACE' + frame(b'HEAD', head) + frame(b'EVNT', bytes(8) + ops)
                              + frame(b'FOOT', b'complete\0' b'1\0' b'instructions\0' b'6\0'))
PY
}
jmp4 "$T/k16.trace"
expect_eq "a trace that says nothing: JMP 4 names the 5th most recent target" "1000" \
    "$(fst-dump "$T/k16.trace" | sed -n 's/^insn .*addr=\([0-9A-F]*\) .*/\1/p' | tail -1)"
jmp4 "$T/k4.trace" recent-targets 4
expect_fail "a trace that says 4: its JMP 4 is an error at its byte, not a jump to a wrong address" 2 \
    "k4.trace: byte [0-9]+.*jump to an unknown recent target" fst-dump "$T/k4.trace"
jmp4 "$T/k16s.trace" recent-targets 16
expect_eq "a trace that says 16: JMP 4 names the 5th most recent target, as one that says nothing" "1000" \
    "$(fst-dump "$T/k16s.trace" | sed -n 's/^insn .*addr=\([0-9A-F]*\) .*/\1/p' | tail -1)"
for v in 0 17 x; do
    jmp4 "$T/r$v.trace" recent-targets $v
    expect_fail "recent-targets=$v: an error naming the header" 2 \
        "r$v.trace: byte 8: header recent-targets=$v: not a count of recent jump targets" fst-dump --summary "$T/r$v.trace"
done

# frames read ahead on a thread (trace/tracebin_ahead.c): whole, cut short, damaged or
# followed by more, every file reads as the reader reads it in line (FST_TRACE_AHEAD=0):
# the same records, counts, exit and message; the thread was used where it can be (a
# regular file of version 2 or 3) and not for a pipe
# (and cut inside its image: the reader's "cut short" from loading the image stays its word)
head -c "$(frames "$T/t.trace" | awk '$2 == "IMAG" { m = $1 + 8 + int($3 / 2) } END { print m }')" "$T/t.trace" \
    > "$T/img.trace"
for f in t half nofoot bad len two tail img; do
    FST_TRACE_AHEAD=0 fst-dump "$T/$f.trace" > "$T/in.out" 2> "$T/in.err"
    echo "exit $?" >> "$T/in.out"
    FST_TRACE_AHEAD_STATS=1 fst-dump "$T/$f.trace" > "$T/ah.out" 2> "$T/ah.err"
    echo "exit $?" >> "$T/ah.out"
    if cmp -s "$T/in.out" "$T/ah.out" && cmp -s "$T/in.err" <(grep -v '^fst: trace: ' "$T/ah.err"); then
        ok "$f.trace: read ahead, the same as read in line ($(tail -1 "$T/ah.out"))"
    else
        fail "$f.trace: read ahead, the same as read in line" "$(diff "$T/in.out" "$T/ah.out" | head -3; diff "$T/in.err" "$T/ah.err" | head -3)"
    fi
    n=$(sed -n 's/^fst: trace: \([0-9]*\) frames read ahead$/\1/p' "$T/ah.err")
    [ "${n:-0}" -ge 1 ] && ok "$f.trace: its frames read ahead ($n)" || fail "$f.trace: its frames read ahead" "$(tail -2 "$T/ah.err")"
done
cat "$T/t.trace" | FST_TRACE_AHEAD_STATS=1 fst-dump - > "$T/ah.out" 2> "$T/ah.err"
expect_eq "from a pipe: read in line, the same records" "$(FST_TRACE_AHEAD=0 fst-dump "$T/t.trace" | cksum) 0" \
    "$(cksum < "$T/ah.out") $(grep -c '^fst: trace: ' "$T/ah.err")"

# frames written behind on a thread (trace/tracebin_behind.c): the file holds what the
# writer writes itself (FST_TRACE_BEHIND=0), record for record, on a trace of many EVNT
# frames (tests/loops/gen.py seed 4242: branches on an LCG's bits, about 18 M instructions,
# 23 frames; not byte for byte: the flush of every second cuts a frame where the clock
# says); and a write that fails in the middle (a file size limit: EFBIG past 64 KiB) fails
# the capture with the write's own message, either way, without a crash (the ops after a
# failed frame once filled the writer's buffer on past its end), the file readable up to
# the cut (64 KiB: a frame's 256 KiB of ops pack to 29 KB small, 36 KB fast; modpack.h)
mkdir -p "$T/lp"
FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" 4242 "$T/lp" 40000000 > /dev/null
# (the dumps, 750 MB each, compared by checksum, not written out: the disk is shared with the
# scripts that run beside this one; written and compared line by line only when they differ)
records() { fst-dump "$T/b$1/lp.trace" | grep -v '^frames\.'; }
for v in 0 1; do
    mkdir -p "$T/b$v"
    (cd "$T/b$v" && FST_TRACE_BEHIND=$v fst-capture -q -o lp.trace "$T/lp/loop4242.ins")
done
n=$(fst-dump --summary "$T/b1/lp.trace" | sed -n 's/^frames.EVNT=\([0-9]*\) .*/\1/p')
s0=$(records 0 | cksum) s1=$(records 1 | cksum)
if [ "${n:-0}" -ge 8 ] && [ "${s1##* }" -gt 0 ] && [ "$s0" = "$s1" ]; then
    ok "written behind: the same records ($n EVNT frames)"
else
    fail "written behind: the same records" "$n frames; $(diff <(records 0) <(records 1) | head -3)"
fi
limited() { (ulimit -f 64; trap '' XFSZ; exec "$@"); }  # FILE writes past 64 KiB fail (EFBIG)
for v in 0 1; do
    expect_fail "a write failing after 64 KiB (FST_TRACE_BEHIND=$v): exit 2, where and why" 2 \
        "cut.trace: byte [0-9]+: cannot write: File too large" \
        limited env FST_TRACE_BEHIND=$v fst-capture -q -o "$T/b$v/cut.trace" "$T/lp/loop4242.ins"
    fst-dump --summary "$T/b$v/cut.trace" > "$T/d" 2> "$T/err"
    m=$(dumpval count.insn "$T/d")
    [ "${m:-0}" -gt 0 ] && [ "$(dumpval complete "$T/d")" = 0 ] \
        && ok "the trace cut by the failed write reads up to the cut ($m instructions, incomplete)" \
        || fail "the trace cut by the failed write reads up to the cut" "$(head -3 "$T/err")"
done
