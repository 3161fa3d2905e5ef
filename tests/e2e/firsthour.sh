# A newcomer's first hour (issue 26): what a new user meets first — mistyped words, every
# --help, a wrong file given where a trace or a program belongs — answered with what to do.
. "$(dirname "$0")/../lib.sh"

fst-capture -q -o "$T/fortg.trace" "$FST_PROGS/fortg.ins"

# a misspelt word gets the nearest name, as git does, in every command (common/opt.c)
expect_fail "--format=fortsat suggests fortstat" 2 "no format 'fortsat'; did you mean 'fortstat'\?" \
    fst-report --format=fortsat "$T/fortg.trace"
expect_fail "--format=calgrind suggests callgrind" 2 "did you mean 'callgrind'\?" \
    fst-report --format=calgrind "$T/fortg.trace"
expect_fail "--format=zzz lists the formats" 2 "no format 'zzz' \(one of: fortstat, csv," \
    fst-report --format=zzz "$T/fortg.trace"
expect_fail "--formt suggests --format" 2 "unknown option '--formt=csv'; did you mean '--format'\?" \
    fst-report --formt=csv "$T/fortg.trace"
expect_fail "fst-diff --format=cvs suggests csv" 2 "did you mean 'csv'\?" \
    fst-diff --format=cvs "$T/fortg.trace" "$T/fortg.trace"
expect_fail "fst-capture --traceopt=tradtional suggests traditional" 2 "did you mean 'traditional'\?" \
    fst-capture --traceopt=tradtional "$FST_PROGS/minimal.ins"
expect_fail "fst-map --membr suggests --member" 2 "did you mean '--member'\?" fst-map --membr=X x.lst
expect_fail "fst-dump --sumary suggests --summary" 2 "did you mean '--summary'\?" fst-dump --sumary x

# help texts: each command's own exit statuses; -o - only where there is a -o
for c in fst-capture fst-report fst-map fst-dump; do
    if "$c" --help | grep -q 'differences found'; then
        fail "$c --help does not list fst-diff's exit 1" "$("$c" --help | grep 'differences found')"
    else ok "$c --help does not list fst-diff's exit 1"; fi
done
expect_eq "fst-diff --help lists exit 1" 1 "$(fst-diff --help | grep -c '^  1 *differences found')"
if fst-dump --help | grep -q -- '-o -'; then fail "fst-dump --help offers no -o" "$(fst-dump --help | grep -- '-o -')"
else ok "fst-dump --help offers no -o"; fi
expect_fail "fst-dump has no -o indeed" 2 "unknown option" fst-dump -o - "$T/fortg.trace"
expect_eq "fst-capture --help: an interrupted capture keeps its trace" 1 \
    "$(fst-capture --help | grep -c '^  130 .*trace so far is kept, marked incomplete')"
if fst-capture --help | grep -q 'no partial output'; then fail "fst-capture --help: no 'no partial output' claim"
else ok "fst-capture --help: no 'no partial output' claim"; fi
# fst-report's --format help points where the list is (above the options)
fst-report --help > "$T/help"
list=$(grep -n '^  fortstat ' "$T/help" | head -1 | cut -d: -f1)
opt=$(grep -n -- '^  .*--format=F  ' "$T/help" | head -1 | cut -d: -f1)
if grep -q 'see the list below' "$T/help"; then fail "fst-report --help: no 'see the list below'"
elif [ "$list" -lt "$opt" ] && grep -- '^  .*--format=F  ' "$T/help" | grep -q 'above'; then ok "fst-report --help: the format list is said to be above, and is"
else fail "fst-report --help: the format list is said to be above, and is" "list at $list, option at $opt"; fi

# a Hercules log or tf file where a trace or an IPL list belongs: said so, with the line to run
LOG=$FST_FIXTURES/hercules-3.13/bc_noregs.log
cp "$LOG" "$T/hercules.log"
expect_fail "fst-report hercules.log: looks like a Hercules log" 2 \
    "hercules.log looks like a Hercules log: .*fst-capture --from-log=$T/hercules.log -o job.trace" \
    fst-report "$T/hercules.log"
# the advice runs as given
cmd=$(sed -n 's/.*first, \(fst-capture --from-log=[^ ]* -o job.trace\).*/\1/p' "$T/err")
(cd "$T" && $cmd 2> /dev/null && fst-report --unnamed-ok job.trace > /dev/null 2>&1)   # (a log without --image names nothing)
expect_eq "the advised fst-capture line makes a trace fst-report reads" "0" "$?"
expect_fail "fst-capture hercules.log (as an IPL list): looks like a Hercules log" 2 \
    "hercules.log: not a Hercules IPL list \(.ins\): .*looks like a Hercules log: .*--from-log=" \
    fst-capture -o "$T/x.trace" "$T/hercules.log"
cp "$FST_FIXTURES/hercules-4.9/esa.tf" "$T/job.tf"
expect_fail "fst-report job.tf: looks like a tf file" 2 "job.tf looks like an SDL Hercules binary trace file.*--from-tf=" \
    fst-report "$T/job.tf"
expect_fail "fst-capture fortg.trace (as an IPL list): an fst trace already" 2 "is an fst trace already: report it with fst-report" \
    fst-capture -o "$T/x.trace" "$T/fortg.trace"
fst-report "$FST_ROOT/README.md" 2> "$T/err"
expect_eq "fst-report of other text: the error alone, no hint" "1 0" "$(wc -l < "$T/err") $(grep -c 'looks like' "$T/err")"

# a binary format to standard output when it is not a terminal (README: gmon > gmon.out)
fst-report --format=gmon -o "$T/o.gmon" "$T/fortg.trace" 2> /dev/null
fst-report --format=gmon "$T/fortg.trace" > "$T/s.gmon" 2> "$T/err"
expect_eq "--format=gmon > FILE: exit 0" 0 "$?"
if [ -s "$T/s.gmon" ] && cmp -s "$T/o.gmon" "$T/s.gmon"; then ok "--format=gmon > FILE equals -o FILE"
else fail "--format=gmon > FILE equals -o FILE" "$(head -2 "$T/err")"; fi
fst-report --format=monout "$T/fortg.trace" 2> /dev/null | cat > "$T/p.mon"
fst-report --format=monout -o "$T/o.mon" "$T/fortg.trace" 2> /dev/null
if [ -s "$T/p.mon" ] && cmp -s "$T/o.mon" "$T/p.mon"; then ok "--format=monout | cat equals -o FILE"
else fail "--format=monout | cat equals -o FILE"; fi

# man pages: help2man's copy of --help, with EXAMPLES and SEE ALSO from man/NAME.h2m
for c in fst-capture fst-report fst-map fst-diff fst-dump; do
    page=$(MANWIDTH=200 man -l "$FST_BIN/../man/$c.1" 2> /dev/null)
    ex=$(printf '%s\n' "$page" | sed -n '/^EXAMPLES/,/^SEE ALSO/p' | grep -c "^ *$c ")
    see=$(printf '%s\n' "$page" | sed -n '/^SEE ALSO/,$p' | grep -o 'fst-[a-z]*(1)' | sort -u | wc -l)
    if [ "$ex" -ge 1 ] && [ "$see" -eq 4 ]; then ok "man $c: EXAMPLES ($ex lines of $c) and SEE ALSO (the other 4)"
    else fail "man $c: EXAMPLES and SEE ALSO" "$ex example lines, $see commands in SEE ALSO"; fi
done

# STATIN cards: one naming no routine is warned about with its line; none matching is an error
printf 'SUBA\n\nSUAB\n' > "$T/deck"
fst-report --statin="$T/deck" "$T/fortg.trace" > /dev/null 2> "$T/err"
expect_eq "STATIN: a card naming nothing: exit 0" 0 "$?"
expect_eq "STATIN: the card's line, and the nearest name" 1 \
    "$(grep -c "deck:3: 'SUAB' names no routine of the program (did you mean 'SUBA'?)" "$T/err")"
printf '\n STATIN SUBA\n STATIN SUBB\n' > "$T/deck2"
expect_fail "STATIN: no card names a routine: an error naming the first card's line" 2 \
    "deck2:2: 'STATINSU' names no routine of the program \(a card holds the name alone, no keyword\), and no card" \
    fst-report --statin="$T/deck2" "$T/fortg.trace"
expect_fail "STATIN: no card names a routine, fst-diff too" 2 "deck2:2: 'STATINSU' names no routine" \
    fst-diff --statin="$T/deck2" "$T/fortg.trace" "$T/fortg.trace"

# fst-diff of two different programs: unusable input (exit 2), said so, whatever the sides
fst-capture -q -o "$T/forth.trace" "$FST_PROGS/forth.ins"
expect_fail "fst-diff fortg forth (traces): not runs of one program (their images)" 2 \
    "BASE .*fortg.trace and NEW .*forth.trace are not runs of one program: their storage images differ \(crc32:[0-9A-F]{8}/[0-9]+, crc32:[0-9A-F]{8}/[0-9]+\); --versions" \
    fst-diff "$T/fortg.trace" "$T/forth.trace"
expect_fail "fst-diff --versions fortg forth: still not one program (no routine called in both)" 2 \
    "BASE .*fortg.trace and NEW .*forth.trace are not runs of one program: no routine called in one is called in the other \(BASE calls SUBA, SUBB; NEW calls ALPHA, BETA\)" \
    fst-diff --versions "$T/fortg.trace" "$T/forth.trace"
fst-report --format=csv --meta "$T/fortg.trace" > "$T/fortg.csv" 2> /dev/null
fst-report --format=csv --meta "$T/forth.trace" > "$T/forth.csv" 2> /dev/null
expect_fail "fst-diff fortg.csv forth.csv: the same from csv reports" 2 "are not runs of one program" \
    fst-diff "$T/fortg.csv" "$T/forth.csv"
expect_ok "fst-diff of two runs of one program still compares" fst-diff "$T/fortg.csv" "$T/fortg.trace"
grep -Eq '^# program: image=crc32:[0-9A-F]{8}/[0-9]+ name=fortg.ins$' "$T/fortg.csv" \
    && ok "csv --meta: the program's identity (its image's digest, its IPL list)" \
    || fail "csv --meta: the program's identity (its image's digest, its IPL list)" "$(head -5 "$T/fortg.csv")"

# an image of another program with a log: an error, no trace (the log's code is not in it)
fst-capture -q --keep-log="$T/fortg.log" -o "$T/f.trace" "$FST_PROGS/fortg.ins"
expect_ok "--from-log with the image of the program that ran" \
    fst-capture -q --from-log="$T/fortg.log" --image="$FST_PROGS/fortg.ins" -o "$T/own.trace"
# forth is fortg's shape with other constants (EXPECTED: other loop counts): still another program
expect_fail "--from-log with forth's image: not the program the log ran" 2 \
    "forth.ins is not the program this trace ran: of the first [0-9]+ instruction addresses the trace ran inside it, [0-9]+ hold other bytes \(at 2[0-9A-F]{4} " \
    fst-capture -q --from-log="$T/fortg.log" --image="$FST_PROGS/forth.ins" -o "$T/other.trace"
if [ -e "$T/other.trace" ]; then fail "... and no trace is left"; else ok "... and no trace is left"; fi
zcat "$FST_ROOT/tests/logs/tasks-noregs.log.gz" > "$T/tasks.log"
expect_fail "the issue's case: tasks.log with bigloop's image" 2 "bigloop.ins is not the program this trace ran" \
    fst-capture -q --from-log="$T/tasks.log" --image="$FST_PROGS/bigloop.ins" -o "$T/other.trace"
expect_ok "tasks.log with tasks' own image" \
    fst-capture -q --from-log="$T/tasks.log" --image="$FST_PROGS/tasks.ins" -o "$T/tasks.trace"

# a map of another program: an error naming the routine the map does not know (the storage
# image's FORTRAN identifiers against the map's routine starts), not a plausible report
NM=${S390_NM:-s390x-linux-gnu-nm}
for p in fortg forth; do
    "$NM" -P -n "$FST_PROGS/$p.elf" > "$T/$p.nmn"
    iewl_from_nm "$T/$p.nmn" "$(stat -c %s "$FST_PROGS/$p.bin")" "$(echo $p | tr a-z A-Z)" > "$T/$p.iewl"
done
expect_ok "fortg with its own linkage-editor map" fst-report --map="$T/fortg.iewl" "$T/fortg.trace"
expect_fail "fortg with forth's map (the same layout, other routines)" 2 \
    "forth.iewl does not describe the program this trace ran: the storage image holds routine SUBA at 20070, inside the map's ALPHA \(\+0\), where the map has another name" \
    fst-report --map="$T/forth.iewl" "$T/fortg.trace"
expect_fail "... fst-diff likewise" 2 "forth.iewl does not describe the program this trace ran" \
    fst-diff --map="$T/forth.iewl" "$T/fortg.trace" "$T/fortg.trace"
# the issue's case: the demo's bigloop with blkprt's listing (MAIN fits, TICK is inside it)
M=$FST_FIXTURES/maps
if [ -f "$M/blkprt-4.iewl" ]; then
    fst-capture -q --max-instructions=2000 -o "$T/bigloop.trace" "$FST_PROGS/bigloop.ins"
    expect_fail "bigloop with blkprt's map" 2 \
        "blkprt-4.iewl does not describe the program this trace ran: the storage image holds routine TICK at 20068, inside the map's MAIN \(\+48\), where the map has no routine" \
        fst-report --map="$M/blkprt-4.iewl" "$T/bigloop.trace"
else fail "bigloop with blkprt's map" "no $M/blkprt-4.iewl"; fi

# an empty image loops on program checks at address 0 (new PSWs of zeros): the capture ends
# at once with an error that says so, instead of running to the 300 s --timeout
head -c 4096 /dev/zero > "$T/empty.bin"
printf 'empty.bin 0\n' > "$T/empty.ins"
start=$(date +%s)
expect_fail "an image of zeros: the program-check loop ends the capture" 2 \
    "the program loops on program checks \([0-9]+ in its first [0-9]+ instructions\).*Is .*empty.ins the program" \
    fst-capture -o "$T/empty.trace" "$T/empty.ins"
took=$(( $(date +%s) - start ))
if [ "$took" -lt 30 ]; then ok "... within seconds ($took s), not at the timeout"; else fail "... within seconds" "$took s"; fi
if [ -e "$T/empty.trace" ]; then fail "... and no trace is left"; else ok "... and no trace is left"; fi
# the same through fst's module (when built): it ends as soon as the loop shows
if [ -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    start=$(date +%s)
    expect_fail "an image of zeros, --via=module: the program-check loop ends the capture" 2 \
        "the program loops on program checks \([0-9]+ in its first [0-9]+ instructions\).*Is .*empty.ins the program" \
        fst-capture --via=module -o "$T/empty.trace" "$T/empty.ins"
    took=$(( $(date +%s) - start ))
    if [ "$took" -lt 30 ]; then ok "... within seconds ($took s)"; else fail "... within seconds" "$took s"; fi
    if [ -e "$T/empty.trace" ]; then fail "... and no trace is left"; else ok "... and no trace is left"; fi
fi
