# fst-report over real captures of the test programs: calls, self and inclusive
# instruction counts equal the programs' construction (tests/programs/EXPECTED), for
# --timed=all (routine names from `nm -P` of the ELF) and for the default (FORTRAN-
# compatible routines found in the storage image); conservation under every clock;
# golden fortstat and csv listings; STATIN, --exclude, --cpu=problem; bad input.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
GOLDEN=$FST_ROOT/golden
NM=${S390_NM:-s390x-linux-gnu-nm}

# facts of one kind: "ROUTINE N" lines
facts() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3, $4 }' "$EXPECTED" | sort; }
# the same from a csv report: column c (3 calls, 4 self, 5 incl) of every routine row
csvcol() { awk -F, -v c="$2" 'NR > 1 && $1 !~ /^\(/ { print $1, $c }' "$1" | sort; }
csvrow() { awk -F, -v r="$2" -v c="$3" '$1 == r { print $c }' "$1"; }

for p in fortg forth untimed linkage bigloop minimal; do
    fst-capture -q -o "$T/$p.trace" "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > "$T/$p.nm"
    # every routine timed, names from the ELF's symbols
    if [ -s "$T/$p.nm" ]; then
        fst-report --format=csv --timed=all --map="$T/$p.nm" --clock=mips:1 -o "$T/$p.all.csv" "$T/$p.trace"
        expect_eq "$p --timed=all: calls" "$(facts $p calls)" "$(csvcol "$T/$p.all.csv" 3)"
        expect_eq "$p --timed=all: self instructions" "$(facts $p self)" "$(csvcol "$T/$p.all.csv" 4)"
        expect_eq "$p --timed=all: inclusive instructions" "$(facts $p incl)" "$(csvcol "$T/$p.all.csv" 5)"
    fi
    # the default: FORTRAN-compatible routines, found in the storage image
    fst-report --format=csv --clock=mips:1 -o "$T/$p.def.csv" "$T/$p.trace" 2> "$T/err"
    for k in calls self incl; do
        want=$(facts $p $k-default)
        [ -n "$want" ] || want=$(for r in $(awk -v p=$p '$1==p && $2=="routine" && $5 ~ /fortran/ {print $3}' "$EXPECTED"); do facts $p $k | grep "^$r "; done | sort)
        col=$([ $k = calls ] && echo 3 || ([ $k = self ] && echo 4 || echo 5))
        expect_eq "$p default timing: $k" "$want" "$(csvcol "$T/$p.def.csv" $col)"
    done
    expect_eq "$p: outside and total instructions" \
        "$(awk -v p=$p '$1==p && $2=="outside" {print $3}' "$EXPECTED") $(awk -v p=$p '$1==p && $2=="instructions" {print $3}' "$EXPECTED")" \
        "$(csvrow "$T/$p.def.csv" '(outside)' 4) $(csvrow "$T/$p.def.csv" '(total)' 4)"
    # conservation, every clock: self + outside + excluded = total (fst-report also checks
    # it exactly in fixed point and fails when it does not hold)
    for clk in mips:1 mips:4.66 model; do
        if fst-report --format=csv --timed=all --clock=$clk -o "$T/c.csv" "$T/$p.trace" 2> "$T/err"; then
            expect_eq "$p --clock=$clk: self + outside + excluded = total (instructions)" \
                "$(csvrow "$T/c.csv" '(total)' 4)" "$(awk -F, 'NR>1 && $1 != "(total)" { s += $4 } END { print s }' "$T/c.csv")"
        else
            fail "$p --clock=$clk: report" "$(head -3 "$T/err")"
        fi
    done
    # golden listings at 1 ms per instruction: seconds = instructions / 1000, by hand
    if [ $p != bigloop ]; then
        fst-report --clock=mips:0.001 -o "$T/$p.fortstat" "$T/$p.trace" 2>/dev/null
        expect_golden "$p: fortstat listing" "$GOLDEN/fortstat/$p.txt" "$T/$p.fortstat"
        fst-report --clock=mips:0.001 --asa -o "$T/$p.asa" "$T/$p.trace" 2>/dev/null
        expect_eq "$p: --asa gives 133-byte records" "133" "$(awk '{ print length($0) }' "$T/$p.asa" | sort -u)"
        [ -s "$T/$p.nm" ] && fst-report --format=csv --timed=all --map="$T/$p.nm" --clock=mips:0.001 -o "$T/$p.csv" "$T/$p.trace" \
            && expect_golden "$p: csv report" "$GOLDEN/csv/$p.csv" "$T/$p.csv"
    fi
done

# routine names from a linkage-editor map (IEWL format, made from the ELF's symbols): the
# load point is found from the trace, the mainline is the map's ENTRY ADDRESS
for p in fortg untimed linkage; do
    s390x-linux-gnu-nm -P -n --defined-only "$FST_PROGS/$p.elf" | awk '$2 ~ /^[Tt]$/' > "$T/$p.nmt"
    iewl_from_nm "$T/$p.nmt" "$(wc -c < "$FST_PROGS/$p.bin")" "$(echo $p | tr a-z A-Z)" > "$T/$p.lst"
    fst-report --format=csv --timed=all --map="$T/$p.lst" --clock=mips:1 -o "$T/$p.lst.csv" "$T/$p.trace" 2> "$T/err"
    expect_eq "$p --map=IEWL listing: calls" "$(facts $p calls)" "$(csvcol "$T/$p.lst.csv" 3)"
    expect_eq "$p --map=IEWL listing: self instructions" "$(facts $p self)" "$(csvcol "$T/$p.lst.csv" 4)"
done
expect_fail "--map with a missing listing" 2 "nothere.lst: No such file" fst-report --map="$T/nothere.lst" "$T/fortg.trace"

# STATIN (seed 000): cards, columns 1-72, blanks removed, first 8 non-blank characters
printf '  S U B A\n' > "$T/statin"
printf '%-72s%s\n' 'NOSUCH' '00000010' >> "$T/statin"
fst-report --format=csv --statin="$T/statin" --clock=mips:1 -o "$T/st.csv" "$T/fortg.trace" 2> "$T/err"
expect_eq "STATIN: only SUBA and the mainline are timed" "MAIN 93
SUBA 208" "$(csvcol "$T/st.csv" 4)"
expect_eq "STATIN: SUBA's calls from SUBB count as MAIN's" "MAIN 0
SUBA 16" "$(csvcol "$T/st.csv" 3)"
grep -q "statin:2: 'NOSUCH' names no routine" "$T/err" && ok "STATIN: a name that matches nothing is warned about, with its card's line" \
    || fail "STATIN: a name that matches nothing is warned about" "$(cat "$T/err")"
printf 'SUBROUTINEA\n' > "$T/statin2"
fst-report --format=csv --statin="$T/statin2" -o "$T/st2.csv" "$T/fortg.trace" 2> "$T/err"
grep -q "'SUBROUT" "$T/err" && ok "STATIN: only the first 8 characters count" || fail "STATIN: only the first 8 characters count" "$(cat "$T/err")"
# docs/programs.md's example (issue 16 item 6): a keyword on the card is part of the name
printf ' STATIN SUBA\n' > "$T/statin4"
fst-report --format=csv --statin="$T/statin4" -o /dev/null "$T/fortg.trace" 2> "$T/err"
grep -q "'STATINSU' names no routine" "$T/err" && grep -q "' STATIN SUBA'. reads as .STATINSU." "$FST_ROOT/docs/programs.md" \
    && ok "STATIN: ' STATIN SUBA' reads as STATINSU, as docs/programs.md says" \
    || fail "STATIN: ' STATIN SUBA' reads as STATINSU, as docs/programs.md says" "$(cat "$T/err")"
printf '%090d\n' 0 > "$T/statin3"
expect_fail "STATIN: a card longer than 80 columns" 2 "statin3:1: a STATIN card has 80 columns" \
    fst-report --statin="$T/statin3" "$T/fortg.trace"
expect_fail "STATIN: missing file" 2 "nothere: cannot open" fst-report --statin="$T/nothere" "$T/fortg.trace"

# --exclude: SUBA's own time leaves every total and is said
fst-report --format=csv --exclude=SUBA --clock=mips:1 -o "$T/ex.csv" "$T/fortg.trace" 2> "$T/err"
expect_eq "--exclude=SUBA: its self time is in (excluded)" "0 208 306" \
    "$(csvrow "$T/ex.csv" SUBA 4) $(csvrow "$T/ex.csv" '(excluded)' 4) $(csvrow "$T/ex.csv" '(total)' 4)"
grep -q "excluded: 208 instructions" "$T/err" && ok "--exclude says how much was dropped" || fail "--exclude says how much was dropped" "$(cat "$T/err")"
expect_fail "--exclude of an unknown name" 2 "--exclude=NOPE: no routine" fst-report --exclude=NOPE "$T/fortg.trace"
# --cpu=problem: the test programs run in supervisor state, so all of it is excluded
fst-report --format=csv --cpu=problem -o "$T/cpu.csv" "$T/fortg.trace" 2>/dev/null
expect_eq "--cpu=problem: supervisor-state time excluded" "306 306" \
    "$(csvrow "$T/cpu.csv" '(excluded)' 4) $(csvrow "$T/cpu.csv" '(total)' 4)"

# damaged and truncated traces
size=$(stat -c %s "$T/bigloop.trace")
# (one byte short: the cut falls inside the footer's frame, wherever a live capture's
# once-a-second flushes put the frame boundaries; a cut at 2/3 could land on one)
head -c $((size - 1)) "$T/bigloop.trace" > "$T/cut.trace"
fst-report -o "$T/cut.txt" "$T/cut.trace" 2> "$T/err"
[ "$(grep -c "^0\{0,1\}INCOMPLETE TRACE: its first [0-9]* instructions only (cut short at byte" "$T/cut.txt")" = 2 ] \
    && [ "$(sed -n 2p "$T/cut.txt" | cut -c1-17)" = "INCOMPLETE TRACE:" ] \
    && ok "a truncated trace gives a report marked incomplete (at its head and its end)" \
    || fail "a truncated trace gives a report marked incomplete (at its head and its end)" "$(head -2 "$T/cut.txt")" "$(tail -2 "$T/cut.txt")"
# cut at 2/3: inside a frame ("cut short at byte") or, on a frame boundary, without footer
head -c $((size * 2 / 3)) "$T/bigloop.trace" > "$T/cut.trace"
fst-report -o "$T/cut.txt" "$T/cut.trace" 2> "$T/err"
grep -q "^0\{0,1\}INCOMPLETE TRACE: its first [0-9]* instructions only (\(cut short at byte\|no footer\)" "$T/cut.txt" \
    && ok "a trace cut at 2/3 gives a report marked incomplete" || fail "a trace cut at 2/3 gives a report marked incomplete" "$(tail -2 "$T/cut.txt")"
grep -q "warning: .*cut.trace is incomplete" "$T/err" && ok "... and a warning" || fail "... and a warning" "$(cat "$T/err")"
fst-report --format=csv --meta -o "$T/cut.csv" "$T/cut.trace" 2> /dev/null
grep -q "^# incomplete: its first [0-9]* instructions only" "$T/cut.csv" && ok "... csv --meta says so" \
    || fail "... csv --meta says so" "$(head -4 "$T/cut.csv")"
fst-report --format=prof -o "$T/cut.prof" "$T/cut.trace" 2> /dev/null
[ "$(head -1 "$T/cut.prof" | cut -c1-17)" = "INCOMPLETE TRACE:" ] && ok "... prof's title says so" \
    || fail "... prof's title says so" "$(head -2 "$T/cut.prof")"
expect_fail "... fst-diff refuses the csv of a trace cut short" 2 "cut.csv is incomplete .*: not compared" \
    fst-diff "$T/cut.csv" "$T/bigloop.trace"
cp "$T/bigloop.trace" "$T/bad.trace"
# a byte in the middle of the first EVNT frame (trace.bin v2: the frames are small, packed)
evnt_mid() {
    local f=$1 off=8 n len
    n=$(stat -c %s "$f")
    while [ $((off + 8)) -le "$n" ]; do
        len=$(od -A n -t u4 -j $((off + 4)) -N 4 "$f" | tr -d ' ')
        [ "$(dd if="$f" bs=1 skip="$off" count=4 status=none)" = EVNT ] && { echo $((off + 8 + len / 2)); return; }
        off=$((off + 12 + len))
    done
}
flip_byte "$T/bad.trace" "$(evnt_mid "$T/bad.trace")"
expect_fail "a damaged trace: error with the byte offset, no report" 2 "bad.trace: byte [0-9]+: EVNT frame CRC mismatch" \
    fst-report -o "$T/bad.txt" "$T/bad.trace"
expect_fail "bad --clock" 2 "mips" fst-report --clock=mips:zero "$T/fortg.trace"
expect_fail "bad --format" 2 "--format: no format .nope." fst-report --format=nope "$T/fortg.trace"
expect_fail "no trace" 2 "which trace" fst-report
printf 'garbage that is no map\n' > "$T/garbage.lst"
expect_fail "--map with something that is no map" 2 "garbage.lst" fst-report --map="$T/garbage.lst" "$T/fortg.trace"

# the README shows the demo's listing: it must stay what fst prints (bigloop, default clock)
awk '/^    ROUTINE      CALLED/ { on = 1 } on && /^    TOTAL|^     TOTAL/ { print; exit } on { print }' "$FST_ROOT/README.md" \
    | sed 's/^    //' > "$T/readme.txt"
fst-report "$T/bigloop.trace" 2>/dev/null > "$T/demo.txt"
expect_golden "the README's demo listing is what fst-report prints" "$T/readme.txt" "$T/demo.txt"
