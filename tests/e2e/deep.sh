#!/bin/bash
# tests/e2e/deep.sh — deep recursion (tests/programs/deeprec.s, traced live under Hercules):
# figures from the program's construction at depths 100, 10 000 and 100 000; a branch on
# the code base that lands on the top frame's return address is not a return (DESIGN 3.3);
# and replay time grows linearly with stack depth in every format that keeps stacks:
# fst-report at 100 000 levels takes at most 25x its time at 10 000 (linear: about 10x;
# the old stack scans made it about 100x). A ratio in one run, never an absolute time.
. "$(dirname "$0")/../lib.sh"
cd "$T"

# build D: deeprec.s assembled for depth D into d$D.ins (as GNUmakefile builds programs)
build() {
    local d=$1 src=$FST_ROOT/tests/programs
    s390x-linux-gnu-as -m31 -I "$src" --defsym DEPTH="$d" -o "d$d.o" "$src/deeprec.s" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$src/standalone.ld" -o "d$d.elf" "d$d.o" &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore "d$d.elf" "d$d.lc" &&
    s390x-linux-gnu-objcopy -O binary -j .text "d$d.elf" "d$d.bin" &&
    printf 'd%s.lc 0x0\nd%s.bin 0x20000\n' "$d" "$d" > "d$d.ins" &&
    fst-capture --max-instructions=$((19 + 10 * d + 100)) -o "d$d.trace" "d$d.ins" 2> "cap$d.err"
}

# figures D: csv against 19 + 10D instructions, D calls, REC self = incl = 10D
figures() {
    local d=$1
    fst-report --format=csv "d$d.trace" > "csv$d" 2> "rep$d.err"
    expect_eq "depth $d: total instructions 19+10D" "$((19 + 10 * d))" "$(awk -F, '$1 == "(total)" { print $4 }' "csv$d")"
    expect_eq "depth $d: REC calls, self, inclusive" "$d $((10 * d)) $((10 * d))" \
        "$(awk -F, '$1 == "REC" { print $3, $4, $5 }' "csv$d")"
    expect_eq "depth $d: MAIN self 14, inclusive all but the stub" "14 $((14 + 10 * d))" \
        "$(awk -F, '$1 == "MAIN" { print $4, $5 }' "csv$d")"
}

for d in 100 10000 100000; do
    if build $d; then ok "depth $d: traced"; else fail "depth $d: traced" "$(tail -3 "cap$d.err")"; continue; fi
    figures $d
done

# depth 100: every format's stacks hold MAIN and 1..100 REC frames, no frame popped early
fst-report --format=folded --unit=instructions d100.trace > fold 2>> rep100.err
expect_eq "folded: 101 stacks, one per depth" 101 "$(wc -l < fold)"
expect_eq "folded: the deepest stack is MAIN and 100 REC" 100 \
    "$(awk '{ n = gsub(/;REC/, ""); if (n > m) m = n } END { print m }' fold)"
expect_eq "folded: every REC level executes 10 instructions itself" 100 \
    "$(awk '/REC/ && $2 == 10' fold | wc -l)"
fst-report --format=json d100.trace > json 2>> rep100.err
expect_eq "json: no unwind, no frame left open" '"unwinds": 0 "open_frames": 0' \
    "$(grep -o '"unwinds": [0-9]*' json | head -1) $(grep -o '"open_frames": [0-9]*' json | head -1)"
fst-report --format=speedscope --unit=instructions d100.trace > ss 2>> rep100.err
expect_eq "speedscope: 101 frames opened, 101 closed" "101 101" \
    "$(grep -c '"type": "O"' ss) $(grep -c '"type": "C"' ss)"
expect_eq "speedscope: the innermost REC opens at instruction 11 + 7 x 99 (MAIN 11, 7 a level down)" \
    "$((11 + 7 * 99))" "$(grep '"type": "O"' ss | tail -1 | sed 's/.*"at": \([0-9]*\).*/\1/')"
if grep -q 'AddressSanitizer\|runtime error' rep*.err; then fail "no sanitizer report" "$(head -5 rep*.err)"; else ok "no sanitizer report"; fi

# linear in depth: seconds of fst-report per format at 10 000 and 100 000 levels
# secs CMD: microseconds, the best of three runs (other processes share the CPU)
secs() {
    local t0 t1 best=
    for _ in 1 2 3; do
        t0=$(date +%s%N); "$@" > /dev/null 2>&1; t1=$(date +%s%N)
        t1=$(((t1 - t0) / 1000)); [ -z "$best" ] || [ "$t1" -lt "$best" ] && best=$t1
    done
    echo "$best"
}
if [ -s d10000.trace ] && [ -s d100000.trace ]; then
    for f in csv callgrind speedscope json; do
        a=$(secs fst-report --format=$f d10000.trace)
        b=$(secs fst-report --format=$f d100000.trace)
        r=$((b / (a > 0 ? a : 1)))
        if [ "$r" -le 25 ]; then ok "$f: 10x the depth costs ${r}x the time (<= 25x)"
        else fail "$f: 10x the depth costs ${r}x the time (<= 25x)" "10 000: $a us, 100 000: $b us"; fi
    done
fi
echo "1..$N"
