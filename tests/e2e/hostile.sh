# Hostile inputs and outputs (issue 12, items 4, 5, 7, 8, 11): inputs without bounds, an
# output that is an input, writes that fail, names that break formats, odd STATIN decks and
# --exclude names, addresses far apart in a histogram. Every command ends with a clear
# error that names the file, or does the right thing; none grows without end or crashes.
. "$(dirname "$0")/../lib.sh"

# fortg (MAIN calls SUBA and SUBB, SUBB calls SUBA) once with its storage image, once from
# its log without one, so that a map names the routines whatever the names are
fst-capture -q --keep-log="$T/fortg.log" -o "$T/img.trace" "$FST_PROGS/fortg.ins"
fst-capture -q --from-log="$T/fortg.log" -o "$T/f.trace"
fst-map --trace="$T/img.trace" > "$T/m.csv"
head -c 3000000 /dev/zero | tr '\0' x > "$T/nonl"       # 3 MB without a newline

# ---- item 4: no input grows memory without end or spins; the error names the file ----
MB=400  # well above what a bounded read needs (sanitizer build included), well below 0.5 GB/s for a few s
expect_bounded "--from-log=/dev/zero: a line too long for a log" $MB 20 2 \
    "/dev/zero: line 1: a line longer than 65536 bytes: not a Hercules log" \
    fst-capture -q --from-log=/dev/zero -o "$T/z.trace"
[ ! -e "$T/z.trace" ] && ok "--from-log=/dev/zero: no trace left behind" || fail "--from-log=/dev/zero: no trace left behind"
expect_bounded "--from-log of a file without newlines" $MB 20 2 "nonl: line 1: a line longer than" \
    fst-capture -q --from-log="$T/nonl" -o "$T/z.trace"
expect_bounded "fst-map /dev/zero: too large for a map" $MB 20 2 "/dev/zero: more than 64 MiB: too large for a map" \
    fst-map /dev/zero
expect_bounded "--map=/dev/zero" $MB 20 2 "/dev/zero: more than 64 MiB: too large for a map" \
    fst-report --map=/dev/zero "$T/f.trace"
expect_bounded "--clock=model:/dev/zero" $MB 20 2 "/dev/zero:1: a line longer than 4096 bytes: not a cost table" \
    fst-report --clock=model:/dev/zero "$T/f.trace"
expect_bounded "--clock=model: a file without newlines" $MB 20 2 "nonl:1: a line longer than .*cost table" \
    fst-report --clock=model:"$T/nonl" "$T/f.trace"
expect_bounded "--statin=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than 4096 bytes: not a STATIN deck" \
    fst-report --statin=/dev/zero "$T/f.trace"
expect_bounded "--image=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than .*IPL list" \
    fst-capture -q --from-log="$T/fortg.log" --image=/dev/zero -o "$T/z.trace"
expect_bounded "fst-map --image=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than .*IPL list" \
    fst-map --image=/dev/zero
expect_bounded "fst-diff: a csv side from /dev/zero" $MB 20 2 "/dev/zero:1: a line longer than .*csv report" \
    fst-diff /dev/zero "$T/f.trace"
expect_bounded "fst-diff: a csv side without newlines" $MB 20 2 "nonl:1: a line longer than .*csv report" \
    fst-diff "$T/nonl" "$T/f.trace"
expect_bounded "fst-diff --batch=/dev/zero" $MB 20 2 "/dev/zero:1: a line longer than .*batch manifest" \
    fst-diff --batch=/dev/zero
rm -f "$T/fifo" && mkfifo "$T/fifo"
expect_bounded "--follow a FIFO nobody writes: --timeout ends it" $MB 15 2 "fifo: no traced instructions" \
    fst-capture --follow --timeout=1 --from-log="$T/fifo" -o "$T/fifo.trace"
expect_fail "--statin=FOLDER is an error, not an empty deck" 2 "a folder, not a STATIN deck" \
    fst-report --statin="$T" "$T/f.trace"

# ---- item 11: STATIN names longer than 8; --exclude of a name two routines have ----
printf 'main\nSUBROUTINEX\n' > "$T/deck"
fst-report --statin="$T/deck" --map="$T/m.csv" "$T/img.trace" > /dev/null 2> "$T/err"
grep -q "deck:2: 'SUBROUTINEX' has more than 8 characters: read as 'SUBROUTI'" "$T/err" \
    && ok "--statin: a name longer than 8 characters is cut, and said so" || fail "--statin: a name longer than 8" "$(cat "$T/err")"
printf 'name,type,origin,length\n,MODULE,0,\nMAIN,SD,20020,50\nDUP,SD,20070,40\nDUP,SD,200B0,4C0\n' > "$T/dup.csv"
fst-report --load-point=0 --timed=all --map="$T/dup.csv" --exclude=DUP --format=csv "$T/f.trace" > "$T/dup.rep" 2> "$T/err"
expect_eq "--exclude=DUP excludes both routines of that name" "0 0 250" \
    "$(awk -F, '$1 == "DUP" { printf "%s ", $4 } $1 == "(excluded)" { print $4 }' "$T/dup.rep")"
grep -q -- "--exclude=DUP: 2 routines have that name (at 20070, 200B0)" "$T/err" && ok "... and says which" \
    || fail "... and says which" "$(cat "$T/err")"

# ---- item 5: an output is never an input; a failed write leaves nothing half-written ----
cp "$T/f.trace" "$T/same.trace"
expect_fail "fst-report -o TRACE TRACE is refused" 2 "-o .*same.trace: that is an input" \
    fst-report -o "$T/same.trace" "$T/same.trace"
cmp -s "$T/f.trace" "$T/same.trace" && ok "... and the trace is intact" || fail "... and the trace is intact"
ln -sf same.trace "$T/link.trace"
expect_fail "-o a symbolic link to the trace is refused" 2 "the same file as the input" \
    fst-report --format=csv -o "$T/link.trace" "$T/same.trace"
cp "$T/fortg.log" "$T/same.log"
expect_fail "fst-capture --from-log=X -o X is refused" 2 "-o .*same.log: that is an input" \
    fst-capture -q --from-log="$T/same.log" -o "$T/same.log"
cmp -s "$T/fortg.log" "$T/same.log" && ok "... and the log is intact" || fail "... and the log is intact"
cp "$FST_PROGS/fortg.ins" "$FST_PROGS/fortg.lc" "$FST_PROGS/fortg.bin" "$T/"
expect_fail "fst-capture -o a piece of the image is refused" 2 "fortg.bin: that is an input" \
    fst-capture -q --from-log="$T/fortg.log" --image="$T/fortg.ins" -o "$T/fortg.bin"
cp "$T/m.csv" "$T/m0.csv"
expect_fail "fst-report --map=M -o M is refused" 2 "m.csv: that is an input" \
    fst-report --map="$T/m.csv" -o "$T/m.csv" "$T/img.trace"
expect_fail "fst-map -o M M is refused" 2 "m.csv: that is an input" fst-map -o "$T/m.csv" "$T/m.csv"
cmp -s "$T/m0.csv" "$T/m.csv" && ok "... and the map is intact" || fail "... and the map is intact"
fst-report --format=csv -o "$T/base.csv" "$T/img.trace"
expect_fail "fst-diff -o BASE BASE NEW is refused" 2 "base.csv: that is an input" \
    fst-diff -o "$T/base.csv" "$T/base.csv" "$T/img.trace"
expect_fail "--elf=TRACE is refused" 2 "--elf .*same.trace: that is an input" \
    fst-report --format=gmon --elf="$T/same.trace" -o "$T/x.gmon" "$T/same.trace"
# -o of a capture never replaces a file that is not a trace (a program, a listing named by mistake)
cp "$FST_PROGS/fortg.elf" "$T/not-a-trace"
expect_fail "fst-capture -o FILE that is there and is no trace: refused" 2 "not-a-trace: the file is there and is not an fst trace" \
    fst-capture --from-log="$T/fortg.log" -o "$T/not-a-trace"
cmp -s "$FST_PROGS/fortg.elf" "$T/not-a-trace" && ok "... and the file is intact" || fail "... and the file is intact"
expect_ok "fst-capture -o TRACE over a trace: written again" fst-capture -q --from-log="$T/fortg.log" -o "$T/f.trace"
# --elf writes a file of its own: the program's own ELF is never replaced; a stub it wrote is
cp "$FST_PROGS/fortg.elf" "$T/prog.elf"
expect_fail "--elf=the program's own ELF: refused, the file left as it was" 2 \
    "--elf=.*prog.elf: the file is there and is not a stub ELF fst wrote" \
    fst-report --format=gmon --elf="$T/prog.elf" -o "$T/x.gmon" "$T/same.trace"
cmp -s "$FST_PROGS/fortg.elf" "$T/prog.elf" && ok "... and the ELF is intact" || fail "... and the ELF is intact"
fst-report --unnamed-ok --format=gmon --elf="$T/stub.elf" -o "$T/x.gmon" "$T/same.trace" 2> /dev/null
expect_ok "--elf=a stub fst wrote: written again" \
    fst-report --unnamed-ok --format=gmon --elf="$T/stub.elf" -o "$T/x.gmon" "$T/same.trace"

# a write that fails part way (a file size limit: the disk full that shows only at close)
# leaves the file that was there as it was, and no temporary file
failing() {   # failing NAME CMD... (its -o is $T/old.out)
    local name=$1 code
    shift
    echo "the old report" > "$T/old.out"
    ( ulimit -f 0; trap '' XFSZ; exec "$@" 2>&1 > /dev/null ) | cat > "$T/err"
    code=${PIPESTATUS[0]}
    if [ "$code" -ne 2 ]; then fail "$name" "exit $code, expected 2" "$(head -3 "$T/err")"
    elif ! grep -Eq "old.out(.lst)?: cannot write" "$T/err"; then fail "$name" "$(head -3 "$T/err")"   # callgrind: or its listing
    elif [ "$(cat "$T/old.out")" != "the old report" ]; then fail "$name" "old.out: $(head -c 100 "$T/old.out")"
    elif ls -A "$T" | grep -q '^\.old\.out'; then fail "$name" "a temporary file is left: $(ls -A "$T" | grep '^\.old')"
    else ok "$name"; fi
}
fst-capture -q --max-instructions=50000 -o "$T/big.trace" "$FST_PROGS/bigloop.ins"
fst-map --trace="$T/big.trace" > "$T/big.csv" 2> /dev/null
for f in fortstat csv prof callgrind folded json speedscope maptime; do
    failing "a failed write: --format=$f leaves the old file, no partial one" \
        fst-report --timed=all --map="$T/big.csv" --format=$f -o "$T/old.out" "$T/big.trace"
done
for f in gmon monout; do
    failing "a failed write: --format=$f leaves the old file, no partial one" \
        fst-report --timed=all --map="$T/big.csv" --format=$f --hz=insns -o "$T/old.out" "$T/big.trace"
done
failing "a failed write: fst-map -o" fst-map --image="$FST_PROGS/bigloop.ins" -o "$T/old.out"
failing "a failed write: fst-diff -o" fst-diff --timed=all --map="$T/big.csv" -o "$T/old.out" "$T/big.trace" "$T/big.trace"
expect_fail "-o /dev/full: an error naming it" 2 "/dev/full: cannot write: No space left" \
    fst-report --unnamed-ok -o /dev/full "$T/f.trace"
fst-report --format=csv -o "$T/new.csv" "$T/img.trace"
fst-report --format=csv -o - "$T/img.trace" > "$T/stdout.csv"
cmp -s "$T/new.csv" "$T/stdout.csv" && ok "-o FILE and -o - write the same report" || fail "-o FILE and -o - write the same report"
touch "$T/touched"
expect_eq "a new report has the mode a new file gets" "$(stat -c %a "$T/touched")" "$(stat -c %a "$T/new.csv")"

# ---- item 8: names with ',', '"', ';', blanks and a newline stay whole in every format ----
printf 'name,type,origin,length\n,MODULE,0,\n"MA,IN",SD,20020,50\n"SU""BA",SD,20070,40\n"SU\nBB; x",SD,200B0,4C0\n' \
    > "$T/odd.csv"
odd() { fst-report --load-point=0 --timed=all --map="$T/odd.csv" "$@" "$T/f.trace"; }
odd --format=csv -o "$T/odd.rep.csv"
expect_ok "fst-diff reads back fst-report's csv of odd names" fst-diff "$T/odd.rep.csv" "$T/odd.rep.csv"
expect_eq "... every routine compared, one line each" "3" "$(grep -cE '^(MA,IN|SU\?BB; x|SU"BA) ' "$T/out")"
# records of a csv file: a newline ends one only outside quotes
records() { awk '{ for (i = 1; i <= length($0); i++) q += substr($0, i, 1) == "\""; if (q % 2 == 0) n++ } END { print n }' "$1"; }
fst-diff --format=csv "$T/odd.rep.csv" "$T/odd.rep.csv" > "$T/d.csv"
expect_eq "fst-diff's own csv quotes them: a header and 5 rows" "6" "$(records "$T/d.csv")"
expect_eq "fst-report's csv quotes them: a header and 6 rows" "7" "$(records "$T/odd.rep.csv")"
expect_eq "fst-map prints them as CSV it reads back" "$(fst-map "$T/odd.csv")" "$(fst-map "$T/odd.csv" | fst-map -)"
odd --format=fortstat > "$T/o.fortstat"
expect_eq "fortstat: one line per routine (a newline prints as ?)" "7 SU?BB; x" \
    "$(wc -l < "$T/o.fortstat") $(sed -n 5p "$T/o.fortstat" | cut -c2-9)"
odd --format=prof > "$T/o.prof"
expect_eq "prof: one line per routine" "4" "$(wc -l < "$T/o.prof")"
odd --format=callgrind > "$T/o.cg"
bad=$(grep -Ev '^($|#|[a-z]+: |(ob|fl|fn|cfn|cob|cfi)=\([0-9]+\)|calls=[0-9]+ |0x[0-9A-F]+ [0-9]+ [0-9]+$)' "$T/o.cg")
expect_eq "callgrind: every line is callgrind's" "" "$bad"
grep -q '^c\{0,1\}fn=([0-9]*) SU?BB; x$' "$T/o.cg" && ok "callgrind: the name on its fn= line" || fail "callgrind: the name on its fn= line"
odd --format=folded > "$T/o.folded"
bad=$(grep -Ev '^[^; ]+(;[^; ]+)* [0-9]+$' "$T/o.folded")
expect_eq "folded: frames separated by ';' only, one stack a line" "" "$bad"
odd --format=maptime > "$T/o.maptime"
grep -q '^SU?BB; x 0200B0' "$T/o.maptime" && ok "maptime: the name on its line" || fail "maptime: the name on its line"
odd --format=json > "$T/o.json"
grep -qF '"name": "SU\u000aBB; x"' "$T/o.json" && ok "json: the name escaped" || fail "json: the name escaped"

# ---- item 7: a histogram of addresses far apart stays small ----
printf '%s\n' 'HHCCP003I CPU0000 architecture mode ESA/390' \
    'PSW=00080000 80000100 INST=05EF         BALR  14,15                  branch_and_link_register' \
    'PSW=00080000 FFFFFF00 INST=0DC0         BASR  12,0                   branch_and_save_register' \
    'PSW=00080000 80000102 INST=0DC0         BASR  12,0                   branch_and_save_register' > "$T/span.log"
fst-capture -q --from-log="$T/span.log" -o "$T/span.trace"
printf 'name,type,origin,length\n,MODULE,0,\nLOW,SD,100,10\nHIGH,SD,7FFFFF00,10\n' > "$T/span.csv"
expect_bounded "gmon: 3 instructions 2 GiB apart" 300 30 0 "2 regions more than 1 MiB apart" \
    fst-report --format=gmon --hz=insns --elf="$T/span.elf" --load-point=0 --timed=all --map="$T/span.csv" \
    -o "$T/span.gmon" "$T/span.trace"
expect_eq "... make a small gmon.out" "1" "$(( $(stat -c %s "$T/span.gmon") < 4096 ))"
if command -v s390x-linux-gnu-gprof > /dev/null; then
    expect_eq "... that gprof reads: HIGH 2 instructions, LOW 1" "HIGH 2.00 LOW 1.00" \
        "$(s390x-linux-gnu-gprof -b -p "$T/span.elf" "$T/span.gmon" | awk '$NF ~ /^(HIGH|LOW)$/ { printf "%s%s %s", s, $NF, $3; s = " " }')"
fi
expect_bounded "monout: 3 instructions 2 GiB apart" 300 30 0 "monout: .* --scale=0x100" \
    fst-report --format=monout --hz=insns --load-point=0 --timed=all --map="$T/span.csv" -o "$T/span.mon" "$T/span.trace"
expect_eq "... make a mon.out of at most 8 MiB" "1" "$(( $(stat -c %s "$T/span.mon") <= 8 * 1048576 + 64 ))"
