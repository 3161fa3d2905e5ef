# FORTSTAT on a short run (issue 26): Appendix B's layout by default, automatic decimals
# when every time would round to .00 (said in the header), --percent, --sort, a long name
# (--supervisor=row's) that fits, -q. Figures from fortg's construction (EXPECTED): MAIN 51,
# SUBA 208, SUBB 42 instructions, 301 in all; SUBA called 16 times, SUBB 3.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
fst-capture -q -o fortg.trace "$FST_PROGS/fortg.ins"
rows() { awk 'NF >= 3 && $1 != "ROUTINE" { print $1, $2, $3 }' "$1" | paste -sd' '; }

# at 1 ns an instruction (mips:1000) every time is .00 at two decimals: eight show SUBA's
# 208 ns with two significant digits
fst-report --clock=mips:1000 fortg.trace > auto.txt 2> /dev/null
expect_eq "automatic decimals: 8, each time from the construction" \
    "*MAIN 0 .00000005 SUBA 16 .00000021 SUBB 3 .00000004 TOTAL 19 .00000030" "$(rows auto.txt)"
expect_eq "... said in the header" "ROUTINE      CALLED   TIME (SEC)   (8 decimals: every time rounds to .00 at 2)" \
    "$(head -1 auto.txt)"
# at 1 us an instruction (mips:1) two decimals show them: FORTSTAT's own layout, byte for byte
fst-report --clock=mips:0.001 fortg.trace > two.txt 2> /dev/null
expect_golden "a run long enough keeps Appendix B's layout" "$FST_ROOT/golden/fortstat/fortg.txt" two.txt
fst-report --digits=2 --clock=mips:1000 fortg.trace > forced.txt 2> /dev/null
expect_eq "--digits=2 keeps FORTSTAT's two decimals, no header note" "ROUTINE      CALLED   TIME (SEC) .00" \
    "$(head -1 forced.txt) $(awk 'NF == 3 { print $3 }' forced.txt | sort -u | paste -sd' ')"

# --percent: each routine's share of the total, one decimal (51/301, 208/301, 42/301)
fst-report --percent --clock=mips:0.001 fortg.trace > pct.txt 2> /dev/null
expect_eq "--percent: shares from the construction" "*MAIN 16.9 SUBA 69.1 SUBB 14.0 TOTAL 100.0" \
    "$(awk 'NF == 4 && $1 != "ROUTINE" { print $1, $4 }' pct.txt | paste -sd' ')"
expect_eq "--percent: the % heads its column" "$(awk '$1 == "TOTAL" { print length($0) }' pct.txt)" \
    "$(head -1 pct.txt | awk '{ print index($0, "%") }')"

# --sort
order() { fst-report --clock=mips:0.001 "$@" fortg.trace 2> /dev/null | awk 'NF == 3 && $1 != "TOTAL" { print $1 }' | paste -sd' '; }
expect_eq "default order: the load module's" "*MAIN SUBA SUBB" "$(order)"
expect_eq "--sort=time: 208, 51, 42 instructions" "SUBA *MAIN SUBB" "$(order --sort=time)"
expect_eq "--sort=calls: 16, 3, 0" "SUBA SUBB *MAIN" "$(order --sort=calls)"
expect_eq "--sort=name" "*MAIN SUBA SUBB" "$(order --sort=name)"
expect_fail "--sort=size refused" 2 "--sort: 'size' is not time, calls, name or address" \
    fst-report --sort=size fortg.trace

# a name longer than 8 characters fits: --supervisor=row's '(supervisor)', a map's long names
zcat "$FST_ROOT/tests/logs/tasks-noregs.log.gz" | fst-capture -q --from-log=- -o tasks.trace
fst-report --map="$FST_ROOT/tests/logs/tasks.nm" --supervisor=row tasks.trace > sup.txt 2> /dev/null
expect_eq "--supervisor=row: the row's name is whole" "1" "$(grep -c '^ (supervisor) ' sup.txt)"
expect_eq "... and every row's columns line up" "1" \
    "$(awk 'NF >= 3 && $1 != "ROUTINE" { print index($0, $3) + length($3) }' sup.txt | sort -u | wc -l)"

# -q: notes go, warnings stay
fst-report --map="$FST_ROOT/tests/logs/tasks.nm" tasks.trace > /dev/null 2> loud.err
fst-report -q --map="$FST_ROOT/tests/logs/tasks.nm" tasks.trace > /dev/null 2> quiet.err
expect_eq "without -q: notes" "yes" "$(grep -qv ': warning: ' loud.err && echo yes)"
expect_eq "-q: no note, the warnings kept" "0 $(grep -c ': warning: ' loud.err)" \
    "$(grep -vc ': warning: ' quiet.err) $(grep -c ': warning: ' quiet.err)"
expect_eq "the tasks note says what it means for the numbers" "1" \
    "$(grep -c 'interruptions inside routines: each task has its own call stack' loud.err)"

# a routine the map names and the run never entered: the warning says what it means for
# the report (fortg's three routines, and NEVER past SUBB's code)
cd "$T" || exit 1
(${S390_NM:-s390x-linux-gnu-nm} -P "$FST_PROGS/fortg.elf"; echo "NEVER T 00020500 0") > never.nm
fst-report --map=never.nm fortg.trace > /dev/null 2> never.err
expect_eq "a routine never entered: named, with what it means for the numbers" 1 \
    "$(grep -c 'warning: 1 of the 4 routines the map names were never entered (the report shows no calls and no time for them): NEVER$' never.err)"
