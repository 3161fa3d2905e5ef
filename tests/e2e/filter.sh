# tests/e2e/filter.sh — the options every listing shares (formats/filter.h: --top,
# --percent-limit, --routine) and the callers' views (--format=callers, --format=tree
# --invert), against the programs' construction: tests/programs/EXPECTED (calls per
# caller/callee pair, inclusive instructions) and random loop programs (tests/loops/gen.py
# --expect: calls and self instructions per routine, from walking the program's shape).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PEXP=$FST_ROOT/tests/programs/EXPECTED
NM=${S390_NM:-s390x-linux-gnu-nm}
fact() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$3" | sort; }

# ---- callers: one line per caller, its calls as built; the time, the callee's inclusive ----
# callers FILE: "CALLEE CALLER CALLS TIME" for every caller line of every block
callers() {
    awk '/^CALLERS OF / { callee = $3; sub(/:$/, "", callee); next }
         NF >= 4 && $1 != "CALLER" && $4 ~ /%$/ && callee != "" { print callee, $1, $2, $3 }' "$1" | sort
}
for p in fortg forth linkage untimed fortrec; do
    fst-capture -q -o $p.trace "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > $p.nm
    fst-report --format=callers --routine='*' --unit=instructions --timed=all --map=$p.nm -o $p.callers $p.trace \
        2> /dev/null
    expect_eq "$p: callers: every caller of every routine with its calls, as built" \
        "$(fact $p arc "$PEXP" | awk '{ print $2, $1, $3 }' | sort)" "$(callers $p.callers | awk '{ print $1, $2, $3 }')"
    # a routine that does not call itself: its callers' time adds up to its inclusive figure
    expect_eq "$p: callers: the time spent for each caller adds up to the routine's inclusive instructions" \
        "$(fact $p incl "$PEXP" | while read -r r n; do
               fact $p arc "$PEXP" | awk '{ print $2, $1 }' | grep -qx "$r $r" && continue
               fact $p arc "$PEXP" | awk -v r="$r" '$2 == r { c = 1 } END { if (c) print "yes" }' | grep -q yes &&
                   echo "$r $n"; done | sort)" \
        "$(callers $p.callers | awk '$1 != $2 { s[$1] += $4 } $1 == $2 { rec[$1] = 1 }
                                    END { for (r in s) if (!rec[r]) print r, s[r] }' | sort)"
done
# fortg by hand: SUBA is 13 instructions a call, called 10 times by MAIN and 6 by SUBB
expect_eq "fortg: SUBA's callers, their calls, its instructions for them and their share" \
    "MAIN 10 130 62.5%
SUBB 6 78 37.5%" \
    "$(fst-report --format=callers --routine=SUBA --unit=instructions fortg.trace 2> /dev/null |
       awk 'NR > 3 && $4 ~ /%$/ { print $1, $2, $3, $4 }')"
expect_eq "linkage: RECUR calling itself is a line of its own, marked" "RECUR 4" \
    "$(grep 'recursive: inside the lines above' linkage.callers | awk '{ print $1, $2 }')"
expect_eq "fortg: the mainline has no caller, and says so" "1" \
    "$(fst-report --format=callers --routine=MAIN fortg.trace 2> /dev/null | grep -c 'the mainline is entered, not called')"
expect_eq "callers --top=1: the heaviest caller, and a line for the other" "MAIN 10|1 caller not shown" \
    "$(fst-report --format=callers --routine=SUBA --top=1 fortg.trace 2> /dev/null |
       awk 'NR > 3 && $4 ~ /%$/ { l = $1 " " $2 } /not shown/ { n = $1 " " $2 " " $3 " " $4 } END { print l "|" n }')"

# ---- tree --invert: the tree of callers ----
expect_eq "fortg: tree --invert of SUBA: its callers and theirs, SUBA's calls and instructions in each" \
    '16 208 SUBA|10 130 +-MAIN|6 78 `-SUBB|6 78 `-MAIN' \
    "$(fst-report --format=tree --invert --routine=SUBA --unit=instructions fortg.trace 2> /dev/null |
       awk 'NR > 3 && $4 ~ /%$/ { r = substr($0, index($0, $4) + length($4) + 2); gsub(/ /, "", r); print $3, $1, r }' |
       paste -sd'|')"
expect_fail "tree --invert without --routine" 2 "--invert: whose callers\? give --routine=NAME" \
    fst-report --format=tree --invert fortg.trace
expect_fail "callers without --routine" 2 "--format=callers: whose callers\? give --routine=NAME" \
    fst-report --format=callers fortg.trace

# ---- --routine: a glob, repeatable, without regard to case when nothing matches exactly ----
rows() { awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1 }' "$1" | paste -sd' '; }
fst-report --format=csv --routine='SUB*' fortg.trace > g.csv 2> /dev/null
expect_eq "csv --routine='SUB*': SUBA and SUBB" "SUBA SUBB" "$(rows g.csv)"
fst-report --format=csv --routine=suba --routine=MAIN fortg.trace > g2.csv 2> /dev/null
expect_eq "csv --routine=suba --routine=MAIN: both, in load-module order" "MAIN SUBA" "$(rows g2.csv)"
expect_eq "csv --routine: the rows left out are one (not shown) row, SUBB's calls and self instructions as built" \
    "(not shown) 3 42" "$(awk -F, '$1 == "(not shown)" { print $1, $3, $4 }' g2.csv)"
expect_eq "csv --routine: the columns still add up to (total)" "306" \
    "$(awk -F, 'NR > 1 && $1 != "(total)" { s += $4 } END { print s }' g2.csv)"
expect_eq "fortstat --routine=SUBB: SUBB, the others as one row, TOTAL the whole run's calls" \
    "SUBB 3|(2 OTHERS) 16|TOTAL 19" \
    "$(fst-report --routine=SUBB fortg.trace 2> /dev/null | awk '$1 == "SUBB" || $1 == "TOTAL" { print $1, $2 }
       $1 == "(2" && $2 == "OTHERS)" { print $1 " " $2, $3 }' | paste -sd'|')"
expect_eq "prof --routine=SUBB: SUBB's row only, and what is not listed" "SUBB 3|2 routines not listed" \
    "$(fst-report --format=prof --routine=SUBB fortg.trace 2> /dev/null | awk 'NR > 1 && $NF == "SUBB" { print $NF, $4 }
       /not listed/ { print $1, $2, $3, $4 }' | paste -sd'|')"
expect_eq "tree --routine='SUB*': their outermost contexts as roots (SUBA's from MAIN: 10 x 13), SUBB's SUBA below it" \
    "SUBA 10 130|SUBB 3 120|SUBA 6 78" \
    "$(fst-report --format=tree --routine='SUB*' --unit=instructions fortg.trace 2> /dev/null |
       awk 'NR > 3 && $4 ~ /%$/ { r = substr($0, index($0, $4) + length($4) + 2); gsub(/[ `+|-]/, "", r); print r, $3, $1 }' |
       paste -sd'|')"
expect_eq "folded --routine=SUBB: the stacks through SUBB, its inclusive instructions as built" \
    "MAIN;SUBB 42|MAIN;SUBB;SUBA 78" \
    "$(fst-report --format=folded --unit=instructions --routine=SUBB fortg.trace 2> /dev/null | paste -sd'|')"
fst-report --format=callgrind --routine=SUBB -o subb.cg fortg.trace 2> /dev/null
expect_eq "callgrind --routine=SUBB: the stacks through SUBB (totals: its inclusive instructions; the calls MAIN to SUBB, 3, and SUBB to SUBA from its two sites, 3 each; not MAIN's own to SUBA), said in a desc line" \
    "totals 120|calls 3 3 3|desc: Stacks: only those through --routine=SUBB" \
    "$(awk '$1 == "totals:" { print "totals", $2 } /^calls=/ { sub(/calls=/, ""); c = c " " $1 } END { print "calls" c }' subb.cg | paste -sd'|')|$(grep '^desc: Stacks' subb.cg)"
expect_eq "speedscope --routine=SUBB --unit=instructions: the time axis only through SUBB (its 120 inclusive instructions as built), said in the profile's name" \
    "120 True" \
    "$(fst-report --format=speedscope --unit=instructions --routine=SUBB fortg.trace 2> /dev/null | python3 -c '
import json, sys
p = json.load(sys.stdin)["profiles"][0]
print(p["endValue"], "only the stacks through --routine=SUBB" in p["name"])')"
fst-report --format=svg --routine=SUBB fortg.trace > subb.svg 2> /dev/null
expect_eq "svg --routine=SUBB: the whole is SUBB's inclusive instructions" "120" \
    "$(sed -n 's/.*<title>all: instructions \([0-9]*\) .*/\1/p' subb.svg)"
if command -v xmllint > /dev/null; then
    expect_ok "svg --routine: well-formed XML" xmllint --noout subb.svg
fi
expect_eq "json --routine=SUBB: SUBB, and the arcs to and from it as built" "SUBB|MAIN SUBB 3|SUBB SUBA 6" \
    "$(fst-report --format=json --routine=SUBB fortg.trace 2> /dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print("|".join([r["name"] for r in j["routines"]] + ["%s %s %d" % (a["caller_name"], a["callee_name"], a["count"]) for a in j["arcs"]]))')"
expect_eq "annotate --routine='SUB?': the listings of SUBA and SUBB" "SUBA SUBB" \
    "$(fst-report --format=annotate --routine='SUB?' fortg.trace 2> /dev/null | grep -E '^[A-Z]' | awk '{ print $1 }' | paste -sd' ')"
expect_fail "--routine naming no routine: an error listing the timed ones" 2 \
    "--routine=NOPE\*: no timed routine of the program has that name \(the timed ones: MAIN, SUBA, SUBB\)" \
    fst-report --format=csv --routine='NOPE*' fortg.trace
expect_fail "--routine with a format it does not apply to" 2 "--routine is an option of .*--format=fortstat.*, not of --format=gmon" \
    fst-report --format=gmon --routine=SUBA -o x.gmon fortg.trace
rm -f g.csv
fst-report --format=csv --routine=SUBA -o g.csv fortg.trace 2> /dev/null
expect_fail "fst-diff refuses a csv of some routines only" 2 "g.csv:[0-9]*: a report of some routines only" \
    fst-diff g.csv g.csv

# ---- --top and --percent-limit, on random loop programs: the heaviest routines as built ----
for s in 7 11 $(( (RANDOM % 900) + 100 )); do
    "$FST_ROOT/tests/loops/build.sh" "$s" . 60000 > build.err 2>&1 || { fail "loop$s: built" "$(head -3 build.err)"; continue; }
    fst-capture -q -o loop$s.trace loop$s.ins || { fail "loop$s: captured"; continue; }
    # the routines by self instructions, heaviest first (ties: by name, as load-module order is SUBk by k)
    awk '$1 != "total" { print $1, $2, $3 }' loop$s.expect | sort -k3,3nr -k1,1 > order
    n=$(wc -l < order)
    top=$(( n > 1 ? n - 1 : 1 ))
    want=$(head -$top order | awk '{ print $1 }' | sort | paste -sd' ')
    fst-report --format=csv --timed=all --clock=mips:1 --top=$top loop$s.trace > top.csv 2> /dev/null
    expect_eq "loop$s: csv --top=$top: the $top routines with the most self instructions as built" "$want" \
        "$(awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1 }' top.csv | sort | paste -sd' ')"
    expect_eq "loop$s: csv --top=$top: the others as one row, their calls and instructions as built" \
        "$(tail -n +$((top + 1)) order | awk '{ c += $2; i += $3 } END { if (NR) print c, i }')" \
        "$(awk -F, '$1 == "(not shown)" { print $3, $4 }' top.csv)"
    fst-report --timed=all --clock=mips:1 --top=$top loop$s.trace > top.txt 2> /dev/null
    expect_eq "loop$s: fortstat --top=$top: the same routines" "$want" \
        "$(awk 'NR > 2 && NF == 3 && $1 != "TOTAL" { sub(/^\*/, "", $1); print $1 }' top.txt | sort | paste -sd' ')"
    expect_eq "loop$s: prof --top=1: the heaviest routine as built" "$(head -1 order | awk '{ print $1 }')" \
        "$(fst-report --format=prof --timed=all --clock=mips:1 --top=1 loop$s.trace 2> /dev/null | awk 'NR == 2 { print $NF }')"
    # --percent-limit=P: the routines whose self instructions are at least P % of all (at one
    # instruction a microsecond, time is instructions), in tenths rounded half up, in integers
    all=$(awk '{ s += $3 } END { print s }' order)
    want=$(awk -v all=$all '{ t = int(($3 * 1000 + int(all / 2)) / all); if (t >= 150) print $1 }' order | sort | paste -sd' ')
    expect_eq "loop$s: csv --percent-limit=15: the routines of at least 15 % as built" "$want" \
        "$(fst-report --format=csv --timed=all --clock=mips:1 --percent-limit=15 loop$s.trace 2> /dev/null |
           awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1 }' | sort | paste -sd' ')"
done
for bad in 0 -1 x 1.5 ''; do
    expect_fail "--top='$bad' refused" 2 "--top: '$bad' is not a number of rows" fst-report --top="$bad" fortg.trace
done
expect_fail "--percent-limit=101 refused (every format)" 2 "--percent-limit: '101' is not a per cent" \
    fst-report --format=csv --percent-limit=101 fortg.trace
expect_fail "--top with a format it does not apply to" 2 "--top is an option of .*, not of --format=folded" \
    fst-report --format=folded --top=2 fortg.trace
