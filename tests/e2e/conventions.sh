# What every command shares (issue 16 items 4-6): --version, exit statuses in --help and
# README, man pages from help2man, '-' for standard input and -o - for standard output,
# an option of another format refused, SIGINT exits 130, the messages that used to point
# the wrong way, --digits for FORTSTAT and prof (times from fortg's construction).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
CMDS="fst-capture fst-report fst-map fst-diff fst-dump"
MANDIR=$FST_BIN/../man

for c in $CMDS; do
    expect_ok "$c --version exits 0" $c --version
    expect_eq "$c --version names the command and fst" "$c (fst) " "$(sed 's/[^ ]*$//' "$T/out")"
    $c --help > help.out 2>&1
    if grep -q '^  130  interrupted' help.out && grep -q '^  2    error' help.out; then ok "$c --help: exit statuses"
    else fail "$c --help: exit statuses" "$(tail -6 help.out)"; fi
    if [ -f "$MANDIR/$c.1" ] && MANWIDTH=200 man -l "$MANDIR/$c.1" 2> /dev/null | grep -Eq "^ *$c +- "; then ok "$c: man page (help2man)"
    else fail "$c: man page (help2man)" "no $MANDIR/$c.1, or no NAME section"; fi
done
grep -q '130 interrupted' "$FST_ROOT/README.md" && ok "README: exit statuses" || fail "README: exit statuses"
make -n -C "$FST_ROOT" install PREFIX=/p 2>/dev/null | grep -q 'share/man/man1' && ok "make install installs the man pages" \
    || fail "make install installs the man pages"

fst-capture -q -o fortg.trace "$FST_PROGS/fortg.ins" || fail "fortg: capture"
s390x-linux-gnu-nm -P "$FST_PROGS/fortg.elf" > fortg.nm
fst-report --format=csv fortg.trace > file.csv 2> /dev/null
fst-report --format=csv - < fortg.trace > stdin.csv 2> /dev/null
expect_eq "fst-report -: the trace from standard input" "$(cat file.csv)" "$(cat stdin.csv)"
fst-report --format=csv -o - fortg.trace > o.csv 2> /dev/null
expect_eq "fst-report -o -: standard output" "$(cat file.csv)" "$(cat o.csv)"
fst-dump --summary - < fortg.trace > d1 2> /dev/null; fst-dump --summary fortg.trace > d2 2> /dev/null
expect_eq "fst-dump -: standard input" "$(cat d2)" "$(cat d1)"
fst-map -o - fortg.nm > m1 2> /dev/null; fst-map fortg.nm > m2 2> /dev/null
expect_eq "fst-map -o -: standard output" "$(cat m2)" "$(cat m1)"
fst-diff -o - file.csv file.csv > df1 2> /dev/null; fst-diff file.csv file.csv > df2 2> /dev/null
expect_eq "fst-diff -o -: standard output" "$(cat df2)" "$(cat df1)"
expect_fail "fst-capture -o -: refused, not a file named '-'" 2 "a trace is written to a file" \
    fst-capture -q -o - "$FST_PROGS/fortg.ins"
if [ -e ./- ]; then fail "no file named '-' is left"; else ok "no file named '-' is left"; fi

expect_fail "an option of another format is refused" 2 "--elf is an option of --format=gmon, not of --format=csv" \
    fst-report --format=csv --elf=x.elf fortg.trace
expect_fail "a shared option names every format it belongs to" 2 "--unit is an option of --format=callgrind or --format=folded" \
    fst-report --format=prof --unit=ns fortg.trace

# SIGINT: a capture reading a log that has not ended is interrupted; exit 130
(zcat "$FST_ROOT/tests/logs/tasks-trad.log.gz" | head -1000; sleep 10) | fst-capture -q --from-log=- -o int.trace 2> int.err &
pid=$!
sleep 2
kill -INT $pid
wait $pid
expect_eq "SIGINT exits 130" 130 $?

# messages: a module-relative map whose names the image does not hold, and a file that is no map
size=$(stat -c %s "$FST_PROGS/fortg.bin")
sed 's/^MAIN /XMAIN /; s/^SUBA /XSUBA /; s/^SUBB /XSUBB /' fortg.nm | sort -k3 > x.nm
iewl_from_nm x.nm "$size" FORTG > x.iewl
# (the image does not decide: the executed addresses do, issue 24). As a CSV map: a linkage
# editor's listing whose names the image's FORTRAN identifiers contradict is another
# program's map (model/pm_verify.c, issue 26); a CSV map names routines as it likes
fst-map x.iewl > xr.csv
expect_ok "--map without --load-point, names the image does not hold: placed by the executed addresses" \
    fst-report --map=xr.csv fortg.trace
expect_eq "... and says where and from what" 1 \
    "$(grep -c 'FORTG of xr.csv: loaded at 20020 (3 routine starts entered, 0 other addresses inside it), run with DAT off' "$T/err")"
expect_fail "... the same map as a linkage editor's listing: another program's, by its names" 2 \
    "x.iewl does not describe the program this trace ran" fst-report --map=x.iewl fortg.trace
printf 'name,type,origin,length\nZED,SD,6,10\n' > x.csv
expect_fail "--map without --load-point, nothing fits: says what was looked at and what to give" 2 \
    "no load point fits: no executed address is the start of a routine of the module \(give --load-point=HEX\)$" \
    fst-report --map=x.csv fortg.trace
if grep -q "no executed addresses were given" "$T/err"; then fail "--map: no claim that the trace has no addresses"
else ok "--map: no claim that the trace has no addresses"; fi
echo "hello" > junk.map
expect_fail "not a map: points to an option that exists (fst-map --kind)" 2 "fst-map --kind=KIND" \
    fst-report --map=junk.map fortg.trace
fst-map --help | grep -q -- "--kind=KIND" && ok "fst-map has --kind" || fail "fst-map has --kind"

# --digits: at --clock=mips:1000 an instruction is 1 ns; fortg: MAIN 51, SUBA 208, SUBB 42
# instructions (EXPECTED), 301 in all
got=$(fst-report --digits=9 --clock=mips:1000 fortg.trace 2> /dev/null | awk 'NF == 3 { print $1, $3 }' | paste -sd' ')
expect_eq "fortstat --digits=9: nanoseconds from the construction" \
    "*MAIN .000000051 SUBA .000000208 SUBB .000000042 TOTAL .000000301" "$got"
got=$(fst-report --digits=2 --clock=mips:1000 fortg.trace 2> /dev/null | awk 'NF == 3 { print $3 }' | sort -u | paste -sd' ')
expect_eq "fortstat --digits=2: FORTSTAT's two decimals (a short program rounds to .00)" ".00" "$got"
got=$(fst-report --format=prof --digits=9 --clock=mips:1000 fortg.trace 2> /dev/null | awk 'NR > 1 { print $NF, $2 }' | sort | paste -sd' ')
expect_eq "prof --digits=9: Seconds from the construction" "MAIN 0.000000051 SUBA 0.000000208 SUBB 0.000000042" "$got"
expect_fail "--digits out of range" 2 "--digits: '10' is not a number of decimals from 2 to 9" \
    fst-report --digits=10 fortg.trace

# gprof (item 3): the hints on stderr, and the behaviour they describe (fortg: SUBA 16
# calls, SUBB 3; its run of 306 instructions is far below one 1/100 s tick)
GPROF=${S390_GPROF:-s390x-linux-gnu-gprof}
fst-report --format=gmon -o g.out fortg.trace 2> g.err
if grep -q 'no time accumulated.*--hz=insns' g.err && grep -q -- '--elf=FILE writes' g.err; then ok "gmon: --hz and --elf hints"
else fail "gmon: --hz and --elf hints" "$(cat g.err)"; fi
fst-report --format=gmon --hz=insns --elf=s.elf -o g2.out fortg.trace 2> g2.err
if grep -q 'gmon:' g2.err; then fail "gmon: no hint when --hz=insns --elf are given" "$(cat g2.err)"
else ok "gmon: no hint when --hz=insns --elf are given"; fi
expect_eq "gprof with the --elf file: every routine, exact calls" "MAIN - SUBA 16 SUBB 3" \
    "$($GPROF -b -p s.elf g2.out 2> /dev/null | awk 'NR > 5 && NF { print $NF, (NF == 7 ? $4 : "-") }' | sort | paste -sd' ')"
expect_eq "gprof with the program's own ELF: what the hint says (last routine and calls lost)" "MAIN - SUBA -" \
    "$($GPROF -b -p "$FST_PROGS/fortg.elf" g2.out 2> /dev/null | awk 'NR > 5 && NF { print $NF, (NF == 7 ? $4 : "-") }' | sort | paste -sd' ')"

# JSON (item 7): integers above 2^53 - 1 as digit strings, exact; smaller ones numbers.
# bigloop at --clock=mips:0.001: 1100017 instructions (EXPECTED) of 1 ms = 512e9 fx each
fst-capture -q -o bigloop.trace "$FST_PROGS/bigloop.ins" || fail "bigloop: capture"
fst-report --format=json --timed=all --clock=mips:0.001 bigloop.trace > big.json 2> /dev/null
got=$(python3 -c '
import json, sys
j = json.load(open("big.json"))
t = j["totals"]; m = [r for r in j["routines"] if r["name"] == "MAIN"][0]
print(type(t["time_fx"]).__name__, t["time_fx"], type(t["time_ns"]).__name__, t["time_ns"],
      type(m["self_time_fx"]).__name__, m["self_time_fx"], type(t["instructions"]).__name__)')
expect_eq "json: time_fx beyond 2^53 as exact strings, the rest numbers" \
    "str $((1100017 * 512000000000)) int $((1100017 * 1000000)) str $((300012 * 512000000000)) int" "$got"
