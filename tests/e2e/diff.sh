# fst-diff over real captures: identical runs agree; variants of fortg built here from a
# sed-modified copy of tests/programs/fortg.s (one more instruction in SUBA; MAIN calling
# SUBA 11 times instead of 10; SUBB renamed SUBC) are caught with the numbers their
# construction gives (tests/programs/EXPECTED, fortg.s); sides made with different clocks
# or timing are reported, not compared; damaged inputs exit 2 naming file and line; the
# batch manifest; and every golden csv report goes through fst-diff against a fresh run.
. "$(dirname "$0")/../lib.sh"
GOLDEN=$FST_ROOT/golden
PROGSRC=$FST_ROOT/tests/programs
NM=${S390_NM:-s390x-linux-gnu-nm}

# build a variant of fortg from sed expressions, as `make programs` builds the originals
variant() {   # NAME SED-EXPR...
    local name=$1; shift
    local s=$T/$name.s
    cp "$PROGSRC/fortg.s" "$s"
    for e in "$@"; do sed -i "$e" "$s"; done
    s390x-linux-gnu-as -m31 -I "$PROGSRC" -o "$T/$name.o" "$s" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$PROGSRC/standalone.ld" -o "$T/$name.elf" "$T/$name.o" &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore "$T/$name.elf" "$T/$name.lc" &&
    s390x-linux-gnu-objcopy -O binary -j .text "$T/$name.elf" "$T/$name.bin" &&
    printf '%s 0x0\n%s 0x20000\n' "$name.lc" "$name.bin" > "$T/$name.ins" &&
    fst-capture -q -o "$T/$name.trace" "$T/$name.ins"
}
# a field of a fst-diff csv row: column c of the row of routine r
dcol() { awk -F, -v r="$2" -v c="$3" '$1 == r { print $c }' "$1"; }

fst-capture -q -o "$T/fortg.trace" "$FST_PROGS/fortg.ins" || fail "fortg: capture"
fst-capture -q -o "$T/fortg2.trace" "$FST_PROGS/fortg.ins" || fail "fortg: second capture"
variant slow 's/^\(        a       %r0,.LoneA-SUBA(%r12)\)$/\1\n\1/' || fail "slow variant: build and capture"
variant calls 's/^\(        la      %r2,\)10 /\111 /' || fail "calls variant: build and capture"
variant renamed 's/SUBB/SUBC/g' || fail "renamed variant: build and capture"

# ---- identical runs agree ----
expect_ok "two captures of fortg agree (exit 0)" fst-diff --clock=mips:1 "$T/fortg.trace" "$T/fortg2.trace"
expect_eq "... every routine 'same', nothing outside the thresholds" "MAIN SUBA SUBB (total) 0" \
    "$(awk '$NF == "same" { printf "%s ", $1 } /outside the thresholds/ { print $1 }' "$T/out")"
for clk in mips:1 model; do
    fst-report --format=csv --clock=$clk -o "$T/fortg.$clk.csv" "$T/fortg.trace"
    expect_ok "fst-report's csv (--clock=$clk) and the trace it came from agree: the same numbers" \
        fst-diff --clock=$clk --format=csv "$T/fortg.$clk.csv" "$T/fortg.trace"
    expect_eq "... (--clock=$clk) verdicts" "ok ok ok ok" "$(awk -F, 'NR > 1 && $3 != "" { printf "%s%s", s, $3; s = " " }' "$T/out")"
done

# ---- '-': one side from standard input, through a pipe (read twice: kind, then figures) ----
fst-report --format=csv --clock=mips:1 "$T/slow.trace" 2> /dev/null \
    | fst-diff --clock=mips:1 --format=csv "$T/fortg.trace" - > "$T/out" 2> "$T/err"
expect_eq "fst-diff TRACE - (a csv piped in): exit 1, SUBA slower as from the file" \
    "1 SUBA,changed,over,16,16,208,224" "$? $(sed -n 2p "$T/out" | cut -d, -f1-7)"
cat "$T/fortg.trace" | fst-diff --clock=mips:1 - "$T/fortg2.trace" > "$T/out" 2> "$T/err"
expect_eq "fst-diff - TRACE (a trace piped in): exit 0, the same" "0 MAIN SUBA SUBB (total)" \
    "$? $(awk '$NF == "same" { printf "%s ", $1 }' "$T/out" | sed 's/ $//')"
expect_fail "fst-diff - - : one side only" 2 "only one side can be standard input" \
    fst-diff --clock=mips:1 - - < "$T/fortg.trace"
echo garbage | fst-diff --clock=mips:1 "$T/fortg.trace" - > "$T/out" 2> "$T/err"
expect_eq "fst-diff TRACE - (garbage piped in): exit 2, no copy left behind" "2 0" \
    "$? $(ls "${TMPDIR:-/tmp}"/fst-diff-stdin-* 2> /dev/null | wc -l)"
grep -q '^fst-diff: error: standard input:1: ' "$T/err" && ! grep -q 'fst-diff-stdin' "$T/err" \
    && ok "fst-diff TRACE - (garbage): the error names standard input, not fst-diff's copy" \
    || fail "fst-diff TRACE - (garbage): the error names standard input, not fst-diff's copy" "$(cat "$T/err")"
cat "$T/fortg.trace" | fst-diff --clock=mips:1 - "$T/fortg2.trace" > "$T/out" 2> "$T/err"
grep -q '^BASE .*standard input' "$T/out" && ! grep -q 'fst-diff-stdin' "$T/out" \
    && ok "fst-diff - TRACE: the header names standard input" || fail "fst-diff - TRACE: the header names standard input" "$(head -3 "$T/out")"

# ---- a routine made slower: SUBA 13 -> 14 instructions per entry, 16 entries ----
expect_fail "a version of fortg (SUBA slower) without --versions: not one program, the images named" 2 \
    "BASE .*fortg.trace and NEW .*slow.trace are not runs of one program: their storage images differ .*--versions compares" \
    fst-diff --clock=mips:1 "$T/fortg.trace" "$T/slow.trace"
fst-report --clock=mips:1 --format=csv --meta -o "$T/slow.meta.csv" "$T/slow.trace" 2> /dev/null
fst-report --clock=mips:1 --format=csv --meta -o "$T/fortg.meta.csv" "$T/fortg.trace" 2> /dev/null
expect_fail "... the same from csv --meta reports (their '# program:' lines)" 2 "their storage images differ" \
    fst-diff --clock=mips:1 "$T/fortg.meta.csv" "$T/slow.meta.csv"
fst-diff --versions --clock=mips:1 --max-time-change=5 --format=csv -o "$T/slow.csv" "$T/fortg.trace" "$T/slow.trace" 2> "$T/err"
expect_eq "slower SUBA: exit 1" 1 $?
expect_eq "slower SUBA: first by impact, self 208 -> 224 us (+7.69%), calls 16 = 16" \
    "SUBA,changed,over,16,16,208,224,0.000208000,0.000224000,+7.69" "$(sed -n 2p "$T/slow.csv" | cut -d, -f1-10)"
expect_eq "slower SUBA: MAIN's inclusive time 301 -> 317 us, its self time the same (within)" \
    "0.000301000 0.000317000 ok" "$(dcol "$T/slow.csv" MAIN 11) $(dcol "$T/slow.csv" MAIN 12) $(dcol "$T/slow.csv" MAIN 3)"
expect_eq "slower SUBA: total 306 -> 322 us, +5.23% > 5%" "0.000306000 0.000322000 +5.23 over" \
    "$(dcol "$T/slow.csv" '(total)' 8) $(dcol "$T/slow.csv" '(total)' 9) $(dcol "$T/slow.csv" '(total)' 10) $(dcol "$T/slow.csv" '(total)' 3)"
expect_eq "slower SUBA: stderr names SUBA and the total (findings, not errors)" "fst-diff: differs: SUBA: self time +7.69% > 5%
fst-diff: differs: (total): total time +5.23% > 5%" "$(cat "$T/err")"
expect_ok "slower SUBA within --max-time-change=7.7: exit 0" fst-diff --versions --clock=mips:1 --max-time-change=7.7 "$T/fortg.trace" "$T/slow.trace"
expect_fail "... not within 7.69 (16/208 = 7.6923%)" 1 "SUBA: self time \+7.69% > 7.69%" \
    fst-diff --versions --clock=mips:1 --max-time-change=7.69 "$T/fortg.trace" "$T/slow.trace"
expect_ok "a faster run is within the thresholds (the sides swapped)" fst-diff --versions --clock=mips:1 "$T/slow.trace" "$T/fortg.trace"
fst-report --format=csv --clock=mips:1 -o "$T/fortg.mips1.csv" "$T/fortg.trace"
expect_fail "slower SUBA against a csv baseline: exit 1" 1 "SUBA: self time \+7.69%" \
    fst-diff --versions --clock=mips:1 --max-time-change=6 "$T/fortg.mips1.csv" "$T/slow.trace"

# golden outputs at 1 ms per instruction (derivation in golden/diff/README.md)
(cd "$T" && fst-diff --versions --clock=mips:0.001 --max-time-change=5 fortg.trace slow.trace > "$T/gold.txt" 2>/dev/null)
expect_golden "slower SUBA: the text table" "$GOLDEN/diff/fortg-slow.txt" "$T/gold.txt"
(cd "$T" && fst-diff --versions --format=csv --clock=mips:0.001 --max-time-change=5 fortg.trace slow.trace > "$T/gold.csv" 2>/dev/null)
expect_golden "slower SUBA: the csv table" "$GOLDEN/diff/fortg-slow.csv" "$T/gold.csv"

# ---- a changed call count: MAIN calls SUBA 11 times (SUBA 17 calls, MAIN self 54) ----
fst-diff --versions --clock=mips:1 --max-time-change=100 --format=csv -o "$T/calls.csv" "$T/fortg.trace" "$T/calls.trace" 2> "$T/err"
expect_eq "11 calls of SUBA: exit 1" 1 $?
expect_eq "11 calls of SUBA: SUBA calls 16 -> 17, self 208 -> 221, over" "17 221 over calls 16 -> 17" \
    "$(dcol "$T/calls.csv" SUBA 5) $(dcol "$T/calls.csv" SUBA 7) $(dcol "$T/calls.csv" SUBA 3) $(dcol "$T/calls.csv" SUBA 14)"
expect_eq "11 calls of SUBA: MAIN self 51 -> 54 (la, l, balr, bct: one more round), within 100%" "51 54 ok" \
    "$(dcol "$T/calls.csv" MAIN 6) $(dcol "$T/calls.csv" MAIN 7) $(dcol "$T/calls.csv" MAIN 3)"
expect_eq "11 calls of SUBA: only SUBA named" "fst-diff: differs: SUBA: calls 16 -> 17" "$(cat "$T/err")"
expect_fail "11 calls of SUBA, exact time: calls and time in one line" 1 "SUBA: calls 16 -> 17 and self time \+6.25% > 0%" \
    fst-diff --versions --clock=mips:1 "$T/fortg.trace" "$T/calls.trace"
expect_ok "... within --max-calls-change=10 (1/16 = 6.25%)" \
    fst-diff --versions --clock=mips:1 --max-time-change=100 --max-calls-change=10 "$T/fortg.trace" "$T/calls.trace"
expect_fail "... not within --max-calls-change=6" 1 "SUBA: calls 16 -> 17" \
    fst-diff --versions --clock=mips:1 --max-time-change=100 --max-calls-change=6 "$T/fortg.trace" "$T/calls.trace"

# ---- a renamed routine: SUBB vanished, SUBC new, the same numbers ----
fst-diff --versions --clock=mips:1 --format=csv -o "$T/ren.csv" "$T/fortg.trace" "$T/renamed.trace" 2> "$T/err"
expect_eq "renamed SUBB: exit 1" 1 $?
expect_eq "renamed SUBB: SUBB vanished (3 calls, 42 us), SUBC new (3 calls, 42 us)" \
    "SUBB,vanished,over,3,,42,,0.000042000 SUBC,new,over,,3,,42," \
    "$(grep '^SUBB,' "$T/ren.csv" | cut -d, -f1-8) $(grep '^SUBC,' "$T/ren.csv" | cut -d, -f1-8)"
grep -q "SUBB: vanished" "$T/err" && grep -q "SUBC: new routine" "$T/err" && ok "renamed SUBB: both named on stderr" \
    || fail "renamed SUBB: both named on stderr" "$(cat "$T/err")"

# ---- different clocks and timing: reported, not compared ----
fst-report --format=csv --clock=mips:1 -o "$T/m1.csv" "$T/fortg.trace"
fst-report --format=csv --clock=model -o "$T/model.csv" "$T/fortg.trace"
expect_fail "csv made with mips:1 vs a trace replayed with mips:0.001" 2 \
    "different clocks: .*m1.csv's times are not those of --clock=mips:0.001" \
    fst-diff --clock=mips:0.001 "$T/m1.csv" "$T/fortg.trace"
expect_fail "csv made with the model clock vs a trace under mips:1" 2 "different clocks: .*model.csv" \
    fst-diff --clock=mips:1 "$T/model.csv" "$T/fortg.trace"
expect_fail "csv under mips:1 vs a trace under the model clock" 2 "different clocks: .*m1.csv's times are proportional" \
    fst-diff --clock=model "$T/m1.csv" "$T/fortg.trace"
expect_fail "two csv reports, mips:1 and model" 2 "different clocks: BASE .*m1.csv has times proportional" \
    fst-diff "$T/m1.csv" "$T/model.csv"
fst-report --format=csv --clock=mips:2 -o "$T/m2.csv" "$T/fortg.trace"
expect_fail "two csv reports, mips:1 and mips:2" 2 "different clocks: .*at another rate" fst-diff "$T/m1.csv" "$T/m2.csv"
# with the metadata line proposed for formats/csv.c
{ echo "# fst-report clock=mips:2 timed=fortran"; cat "$T/m2.csv"; } > "$T/m2meta.csv"
expect_fail "metadata clock=mips:2 vs --clock=mips:1" 2 "different clocks: BASE .*m2meta.csv was made with --clock=mips:2, NEW .* with --clock=mips:1" \
    fst-diff --clock=mips:1 "$T/m2meta.csv" "$T/fortg.trace"
expect_ok "metadata clock=mips:2 timed=fortran vs the same replay: exit 0" fst-diff --clock=mips:2 "$T/m2meta.csv" "$T/fortg.trace"
printf '  S U B A\n' > "$T/statin"
expect_fail "metadata timed=fortran vs a replay with --statin" 2 "different timing: .*timed=fortran, NEW .*timed=statin:SUBA" \
    fst-diff --clock=mips:2 --statin="$T/statin" "$T/m2meta.csv" "$T/fortg.trace"
{ echo "# fst-report clock=mips:2 timed=statin:SUBA"; fst-report --format=csv --clock=mips:2 --statin="$T/statin" "$T/fortg.trace"; } > "$T/st.csv"
expect_ok "metadata timed=statin:SUBA vs the same --statin: exit 0" fst-diff --clock=mips:2 --statin="$T/statin" "$T/st.csv" "$T/fortg.trace"
fst-report --format=csv --clock=mips:2 --statin="$T/statin" -o "$T/st-nometa.csv" "$T/fortg.trace"
expect_fail "a STATIN csv without metadata vs the default timing: SUBB shows as new" 1 "SUBB: new routine" \
    fst-diff --clock=mips:2 "$T/st-nometa.csv" "$T/fortg.trace"
expect_fail "metadata --exclude differs" 2 "different timing: .*exclude=SUBA" \
    fst-diff --clock=mips:2 --exclude=SUBA "$T/m2meta.csv" "$T/fortg.trace"

# ---- JUnit ----
fst-diff --versions --clock=mips:1 --max-time-change=5 --junit="$T/j.xml" "$T/fortg.trace" "$T/slow.trace" > /dev/null 2>&1
if xmllint --noout "$T/j.xml" 2> "$T/err"; then ok "--junit: well-formed XML"; else fail "--junit: well-formed XML" "$(cat "$T/err")"; fi
expect_eq "--junit: 4 cases (3 routines, the total), 2 failures: SUBA and (total)" \
    "4 2 SUBA (total)" \
    "$(xmllint --xpath 'string(//testsuite/@tests)' "$T/j.xml") $(xmllint --xpath 'string(//testsuite/@failures)' "$T/j.xml") $(xmllint --xpath '//testcase[failure]/@name' "$T/j.xml" | tr '\n' ' ' | sed 's/ *name="\([^"]*\)"/ \1/g; s/^ //; s/ $//')"
fst-diff --clock=mips:1 --junit="$T/j2.xml" "$T/m2.csv" "$T/fortg.trace" > /dev/null 2>&1
expect_eq "--junit: a comparison refused is an <error>" "1" "$(xmllint --xpath 'count(//testcase/error)' "$T/j2.xml")"

# ---- damaged and unusable inputs: exit 2, naming file and line or byte ----
sed '3s/16/1x/' "$T/m1.csv" > "$T/badnum.csv"
expect_fail "csv: a bad number" 2 "badnum.csv:3: calls '1x' is not a whole number" fst-diff --clock=mips:1 "$T/badnum.csv" "$T/fortg.trace"
{ echo '# program: crc32:1234'; cat "$T/m1.csv"; } > "$T/badid.csv"
expect_fail "csv: a '# program:' line that is not key=value words, its line named" 2 \
    "badid.csv:1: 'crc32:1234': not the program's identity" fst-diff --clock=mips:1 "$T/badid.csv" "$T/fortg.trace"
head -3 "$T/m1.csv" > "$T/cut.csv"
expect_fail "csv: cut short (no (total) row)" 2 "cut.csv: no \(total\) row" fst-diff --clock=mips:1 "$T/cut.csv" "$T/fortg.trace"
sed '3s/,208,/,207,/' "$T/m1.csv" > "$T/sum.csv"
expect_fail "csv: rows that do not add up" 2 "sum.csv: self instructions add up to 305, the \(total\) row says 306" \
    fst-diff --clock=mips:1 "$T/sum.csv" "$T/fortg.trace"
sed '4s/$/,extra/' "$T/m1.csv" > "$T/fields.csv"
expect_fail "csv: a row with too many fields" 2 "fields.csv:4: 8 fields, the header has 7" fst-diff --clock=mips:1 "$T/fields.csv" "$T/fortg.trace"
printf 'a,b\n1,2\n' > "$T/foreign.csv"
expect_fail "csv: not a report of fst-report" 2 "foreign.csv:1: no column 'routine'" fst-diff "$T/foreign.csv" "$T/fortg.trace"
printf '\x00\x01\x02garbage' > "$T/garbage.bin"
expect_fail "a binary file that is no trace" 2 "garbage.bin:1: a NUL byte" fst-diff "$T/garbage.bin" "$T/fortg.trace"
size=$(stat -c %s "$T/fortg.trace")
cp "$T/fortg.trace" "$T/bad.trace"
flip_byte "$T/bad.trace" $((size / 2))
expect_fail "a damaged trace: the byte offset" 2 "bad.trace: byte [0-9]+: .*CRC" fst-diff "$T/fortg.trace" "$T/bad.trace"
head -c $((size * 2 / 3)) "$T/fortg.trace" > "$T/cut.trace"
expect_fail "a trace cut short: not compared (its calls would read as changes)" 2 "NEW .*cut.trace is incomplete \(.*\): not compared" \
    fst-diff "$T/fortg.trace" "$T/cut.trace"
expect_fail "a missing side" 2 "nothere.trace: cannot open" fst-diff "$T/fortg.trace" "$T/nothere.trace"
{ echo "# fst-report clock=sundial"; cat "$T/m1.csv"; } > "$T/badmeta.csv"
expect_fail "bad metadata line" 2 "badmeta.csv:1: metadata clock=sundial is no clock" fst-diff "$T/badmeta.csv" "$T/fortg.trace"
expect_fail "bad --max-time-change" 2 "--max-time-change wants a percentage" fst-diff --max-time-change=five "$T/fortg.trace" "$T/fortg.trace"
expect_fail "one side only" 2 "give two sides" fst-diff "$T/fortg.trace"

# ---- batch: one call, a line per run, one exit status ----
mkdir -p "$T/ci"
cp "$T/m1.csv" "$T/ci/base.csv"
cat > "$T/ci/runs.csv" <<EOF
# runs of the CI job; paths relative to this file
name,program,trace,baseline,options,max_time_change
fresh,$FST_PROGS/fortg.ins,,base.csv,--clock=mips:1,
same,,$T/fortg2.trace,$T/fortg.trace,--clock=mips:1,
slower,,$T/slow.trace,base.csv,--clock=mips:1 --versions,5
tolerated,,$T/slow.trace,base.csv,--clock=mips:1 --versions,8
EOF
fst-diff --batch="$T/ci/runs.csv" --junit="$T/ci/j.xml" > "$T/b.out" 2> "$T/err"
expect_eq "batch with a regression: exit 1" 1 $?
# tolerated: SUBA's self time, MAIN's and SUBB's inclusive times changed
expect_eq "batch: a summary line per run and a count" "PASS fresh: 3 routines, 0 changed, none outside the thresholds
PASS same: 3 routines, 0 changed, none outside the thresholds
FAIL slower: SUBA self time +7.69% > 5%; (total) total time +5.23% > 5%
PASS tolerated: 3 routines, 3 changed, none outside the thresholds
4 runs: 3 passed, 1 failed, 0 errors" "$(cat "$T/b.out")"
expect_eq "batch --junit: a suite per run, 2 failures in all" "4 2" \
    "$(xmllint --xpath 'count(//testsuite)' "$T/ci/j.xml") $(xmllint --xpath 'count(//failure)' "$T/ci/j.xml")"
sed -i '/^slower,/d' "$T/ci/runs.csv"
expect_ok "batch without the regression: exit 0" fst-diff --batch="$T/ci/runs.csv"
echo "broken,,$T/nothere.trace,base.csv,--clock=mips:1," >> "$T/ci/runs.csv"
fst-diff --batch="$T/ci/runs.csv" > "$T/b.out" 2> "$T/err"
expect_eq "batch with an unusable run: exit 2, the run's ERROR line" "2 ERROR broken: $T/nothere.trace: cannot open: No such file or directory" \
    "$? $(grep '^ERROR' "$T/b.out")"
printf 'name,trace,baseline,options\nx,a.trace,b.csv,--clock=mips:1 --bogus=1\n' > "$T/ci/badopt.csv"
expect_fail "batch: a bad option in a run, before any work" 2 "badopt.csv:2: options: --bogus is not an option of a run" \
    fst-diff --batch="$T/ci/badopt.csv"
printf 'name,baseline\nx,b.csv\n' > "$T/ci/nocol.csv"
expect_fail "batch: a manifest without program or trace" 2 "nocol.csv:1: the header needs name, baseline and program or trace" \
    fst-diff --batch="$T/ci/nocol.csv"
printf 'name,trace,baseline\nx,a.trace,b.csv\ny,"unterminated\n' > "$T/ci/quote.csv"
expect_fail "batch: malformed CSV" 2 "quote.csv:[0-9]+: malformed CSV" fst-diff --batch="$T/ci/quote.csv"

# ---- the project's golden csv comparisons, through fst-diff ----
for g in "$GOLDEN"/csv/*.csv; do
    p=$(basename "$g" .csv)
    fst-capture -q -o "$T/g.$p.trace" "$FST_PROGS/$p.ins" || { fail "golden $p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > "$T/g.$p.nm"
    expect_ok "golden/csv/$p.csv agrees with a fresh run (fst-diff exit 0)" \
        fst-diff --clock=mips:0.001 --timed=all --map="$T/g.$p.nm" "$g" "$T/g.$p.trace"
done

# fst-report --format=csv --meta writes the line fst-diff reads: no clock or timing guessing
fst-capture -q -o "$T/meta.trace" "$FST_PROGS/fortg.ins"
fst-report --format=csv --meta --clock=mips:1 -o "$T/meta1.csv" "$T/meta.trace"
expect_eq "--meta: the first line says how the csv was made" "# fst-report clock=mips:1 timed=fortran" "$(head -1 "$T/meta1.csv")"
fst-report --format=csv --meta --clock=mips:2 -o "$T/meta2.csv" "$T/meta.trace"
expect_fail "--meta: two clocks are refused" 2 "different clocks: .* --clock=mips:1, .* --clock=mips:2" fst-diff "$T/meta1.csv" "$T/meta2.csv"
printf 'SUBA\n' > "$T/meta.statin"
fst-report --format=csv --meta --statin="$T/meta.statin" --clock=mips:1 -o "$T/meta3.csv" "$T/meta.trace"
expect_fail "--meta: two STATIN choices are refused" 2 "different timing: .*timed=fortran.*timed=statin:SUBA" fst-diff "$T/meta1.csv" "$T/meta3.csv"
expect_ok "--meta: csv and its own trace agree" fst-diff --clock=mips:1 "$T/meta1.csv" "$T/meta.trace"
