# tests/e2e/window.sh — fst-report --window=FROM:TO (analyze/replay/window.h): a part of a run,
# cut exactly, against the programs' construction:
#   - fortg (tests/programs/fortg.s, EXPECTED): SUBA is 13 instructions a call, called 16
#     times; SUBB is 14 of its own and calls SUBA twice (40 a call), called 3 times: every
#     call:SUBA:N window holds those 13 (one call of SUBA), every call:SUBB:N window 40 (one
#     call of SUBB, two of SUBA), in every format that counts;
#   - a window of instruction numbers [a, b) holds b - a instructions; two adjacent windows
#     [0, a) and [a, end) add up to the whole run as built, per routine (calls and self
#     instructions): a call open at a counts in the first only (EXPECTED for fortg and
#     bigloop, gen.py --expect for random loop programs);
#   - times: under --clock=mips:1 every instruction takes 1 us (0x1000 TOD units), so
#     tod:/s: edges are instruction numbers (the clock's definition, analyze/cost/clock.h);
#   - a window is replayed without folding: bigloop's windows (folding would fold its loop)
#     are the same with FST_REPLAY_NOFOLD=1;
#   - bad values are errors naming --window (exit 2), never an empty report.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PEXP=$FST_ROOT/tests/programs/EXPECTED
fact() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$3" | sort; }
# csv figures: "ROUTINE CALLS SELF" of the timed routines, and the total
rows() { awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1, $3, $4 }' "$1" | sort; }
total() { awk -F, '$1 == "(total)" { print $4 }' "$1"; }
# the sum of two csv reports' calls and self instructions per routine, outside and total
addup() { awk -F, 'FNR > 1 && $1 !~ /^#/ { c[$1] += $3; s[$1] += $4 } END { for (r in c) print r, c[r], s[r] }' "$1" "$2" |
          sort; }

fst-capture -q -o fortg.trace "$FST_PROGS/fortg.ins" || fail "fortg: capture"

# ---- call:NAME:N: one call, its own instructions and its callees' ----
bad=
for n in $(seq 1 16); do
    fst-report --format=csv --window=call:SUBA:$n -o a.csv fortg.trace 2> /dev/null
    got="$(total a.csv) $(awk -F, '$1 == "SUBA" { print $3, $4, $5 }' a.csv)"
    [ "$got" = "13 1 13 13" ] || bad="$bad SUBA:$n=$got"
done
expect_eq "fortg: each of SUBA's 16 calls: 13 instructions, one call, all SUBA's own" "" "$bad"
bad=
for n in 1 2 3; do
    fst-report --format=csv --window=call:SUBB:$n -o b.csv fortg.trace 2> /dev/null
    got="$(total b.csv)|$(rows b.csv | paste -sd' ')"
    [ "$got" = "40|MAIN 0 0 SUBA 2 26 SUBB 1 14" ] || bad="$bad SUBB:$n=$got"
done
expect_eq "fortg: each of SUBB's 3 calls: 40 instructions, SUBB's 14 and two calls of SUBA" "" "$bad"
expect_eq "fortg: call:SUBB:2: the mainline, open when it begins, runs in it (inclusive 40) but is no call" \
    "MAIN,0,0,40" "$(awk -F, '$1 == "MAIN" { print $1, $3, $4, $5 }' OFS=, b.csv)"
expect_eq "call:suba:1: the name in any case when none matches exactly" "13" \
    "$(fst-report --format=csv --window=call:suba:1 fortg.trace 2> /dev/null | total /dev/stdin)"

# ---- every format covers the window only ----
W=--window=call:SUBB:3
expect_eq "fortstat: the window said at the top, its calls in the rows" "WINDOW call:SUBB:3|SUBA 2|SUBB 1|TOTAL 3" \
    "$(fst-report $W fortg.trace 2> /dev/null | awk '/^WINDOW/ { print $1, $2 } $1 ~ /^(SUBA|SUBB|TOTAL)$/ { print $1, $2 }' |
       sed 's/:$//' | paste -sd'|')"
expect_eq "prof: the window said, the calls in it" "1 SUBB|2 SUBA|WINDOW" \
    "$(fst-report --format=prof $W fortg.trace 2> /dev/null | awk 'NR == 1 { print $1 } NR > 2 { print $4, $NF }' |
       sort | paste -sd'|')"
expect_eq "csv --meta: a '# window:' line with the trace's instructions [from, to)" "40" \
    "$(fst-report --format=csv --meta $W fortg.trace 2> /dev/null |
       awk '/^# window: spec=call:SUBB:3 / { split($4, f, "="); split($5, t, "="); print t[2] - f[2] }')"
expect_eq "json: the window and its 40 instructions" "call:SUBB:3 40 40" \
    "$(fst-report --format=json $W fortg.trace 2> /dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["window"], j["window_instructions"]["to"] - j["window_instructions"]["from"], j["totals"]["instructions"])')"
expect_eq "folded --unit=instructions: the window's stacks, 40 instructions" "MAIN;SUBB 14|MAIN;SUBB;SUBA 26" \
    "$(fst-report --format=folded --unit=instructions $W fortg.trace 2> /dev/null |
       awk '{ n[$1] += $2 } END { for (s in n) print s, n[s] }' | sort | paste -sd'|')"
expect_eq "tree --unit=instructions: SUBB 40 inclusive under MAIN, SUBA 26 under it" "40 MAIN|40 SUBB|26 SUBA" \
    "$(fst-report --format=tree --unit=instructions $W fortg.trace 2> /dev/null |
       awk '$4 ~ /%$/ { print $1, $NF }' | sed 's/\*//' | paste -sd'|')"
expect_eq "annotate: the window said at the top" "* WINDOW call:SUBB:3" \
    "$(fst-report --format=annotate $W fortg.trace 2> /dev/null | head -1 | cut -d: -f1-3)"
expect_eq "speedscope: the window in the profile's name" "1" \
    "$(fst-report --format=speedscope $W fortg.trace 2> /dev/null | python3 -c '
import json, sys
print(sum("WINDOW call:SUBB:3" in p["name"] for p in json.load(sys.stdin)["profiles"]))')"
fst-report --format=callgrind $W -o w.cg fortg.trace 2> /dev/null
expect_eq "callgrind: the window in a desc line" "desc: WINDOW call:SUBB:3" "$(grep "^desc: WINDOW" w.cg | cut -d: -f1-4)"
expect_eq "svg: the window in the title" "1" \
    "$(fst-report --format=svg $W fortg.trace 2> /dev/null | grep -c 'Flame graph: .*window call:SUBB:3)')"
expect_eq "callgrind: the window's instructions (summary) and its calls (MAIN's of SUBB, SUBB's two of SUBA)" "40|3" \
    "$(awk '/^summary:/ { print $2 }' w.cg)|$(awk '/^calls=/ { sub(/calls=/, ""); n += $1 } END { print n }' w.cg)"
expect_eq "callers --routine=SUBA: SUBB calls it twice in the window, MAIN not at all" "SUBB 2" \
    "$(fst-report --format=callers --routine=SUBA --unit=instructions $W fortg.trace 2> /dev/null |
       awk 'NR > 3 && $4 ~ /%$/ { print $1, $2 }')"

# ---- instruction numbers: [a, b) holds b - a; adjacent windows add up to the run as built ----
want_fortg="$( (fact fortg calls "$PEXP" | while read -r r c; do echo "$r $c $(fact fortg self "$PEXP" | awk -v r="$r" '$1 == r { print $2 }')"; done
                echo "(outside) 0 $(fact fortg outside "$PEXP")"; echo "(total) 0 $(fact fortg instructions "$PEXP")"
                echo "(excluded) 0 0") | sort)"
bad= badsum=
for a in 1 5 6 17 60 100 133 200 257 300 305; do
    fst-report --format=csv --unnamed-ok --window=0:$a -o x.csv fortg.trace 2> /dev/null
    fst-report --format=csv --unnamed-ok --window=$a: -o y.csv fortg.trace 2> /dev/null
    [ "$(total x.csv) $(total y.csv)" = "$a $((306 - a))" ] || bad="$bad $a:$(total x.csv)+$(total y.csv)"
    [ "$(addup x.csv y.csv)" = "$want_fortg" ] || badsum="$badsum $a"
done
expect_eq "fortg: windows [0, a) and [a, 306) hold a and 306 - a instructions" "" "$bad"
expect_eq "fortg: [0, a) and [a, 306) add up to the run as built (calls, self instructions, outside)" "" "$badsum"
bad=
for ab in 10:20 37:38 99:250 0:306 140:141; do
    n=$(fst-report --format=csv --unnamed-ok --window=$ab fortg.trace 2> /dev/null | total /dev/stdin)
    [ "$n" = "$(( ${ab#*:} - ${ab%:*} ))" ] || bad="$bad $ab=$n"
done
expect_eq "fortg: a window [a, b) holds b - a instructions" "" "$bad"

# ---- times: 1 us an instruction under mips:1 ----
fst-report --format=csv --clock=mips:1 --window=10:20 -o i.csv fortg.trace 2> /dev/null
for w in tod:A000:tod:14000 s:0.00001:s:0.00002 0.00001s:0.00002s tod:9001:tod:13001; do
    fst-report --format=csv --clock=mips:1 --window=$w -o t.csv fortg.trace 2> /dev/null
    if cmp -s i.csv t.csv; then ok "mips:1: --window=$w is instructions 10 to 19"
    else fail "mips:1: --window=$w is instructions 10 to 19" "$(diff i.csv t.csv | head -6)"; fi
done
expect_eq "mips:1: --window=s:0.0003: (the 306th us on) holds the last 6 instructions" "6" \
    "$(fst-report --format=csv --clock=mips:1 --unnamed-ok --window=s:0.0003: fortg.trace 2> /dev/null | total /dev/stdin)"

# ---- bigloop: a million instructions; without folding (the whole run folds its loop) ----
fst-capture -q -o bigloop.trace "$FST_PROGS/bigloop.ins" || fail "bigloop: capture"
expect_eq "bigloop: call:TICK:77777 is TICK's 8 instructions" "8 1 8" \
    "$(fst-report --format=csv --window=call:TICK:77777 bigloop.trace 2> /dev/null | awk -F, '$1 == "TICK" { print $4, $3, $5 }')"
want_big="$( (echo "MAIN 0 $(fact bigloop self "$PEXP" | awk '$1 == "MAIN" { print $2 }')"
              echo "TICK $(fact bigloop calls "$PEXP" | awk '$1 == "TICK" { print $2 }') $(fact bigloop self "$PEXP" | awk '$1 == "TICK" { print $2 }')"
              echo "(outside) 0 $(fact bigloop outside "$PEXP")"; echo "(total) 0 $(fact bigloop instructions "$PEXP")"
              echo "(excluded) 0 0") | sort)"
for a in 654321 $(( (RANDOM * 32768 + RANDOM) % 1100000 + 10 )); do
    fst-report --format=csv --unnamed-ok --window=:$a -o x.csv bigloop.trace 2> /dev/null
    fst-report --format=csv --unnamed-ok --window=$a: -o y.csv bigloop.trace 2> /dev/null
    expect_eq "bigloop: [0, $a) and [$a, end) add up to the run as built" "$want_big" "$(addup x.csv y.csv)"
    FST_REPLAY_NOFOLD=1 fst-report --format=csv --unnamed-ok --window=$a: -o z.csv bigloop.trace 2> /dev/null
    expect_eq "bigloop: --unnamed-ok --window=$a: is the same with FST_REPLAY_NOFOLD=1" "" "$(cmp y.csv z.csv 2>&1)"
done

# ---- random loop programs (gen.py): adjacent windows add up to the figures as built ----
for s in 3 19 $(( (RANDOM % 900) + 100 )); do
    "$FST_ROOT/tests/loops/build.sh" "$s" . 60000 > build.err 2>&1 || { fail "loop$s: built" "$(head -3 build.err)"; continue; }
    fst-capture -q -o loop$s.trace loop$s.ins || { fail "loop$s: captured"; continue; }
    total=$(awk '$1 == "total" { print $2 }' loop$s.expect)
    a=$(( (RANDOM * 32768 + RANDOM) % (total - 20) + 10 ))
    fst-report --format=csv --timed=all --unnamed-ok --window=:$a -o x.csv loop$s.trace 2> /dev/null
    fst-report --format=csv --timed=all --unnamed-ok --window=$a: -o y.csv loop$s.trace 2> /dev/null
    expect_eq "loop$s: [0, $a) and [$a, end) add up to the calls and self instructions as built" \
        "$(awk '$1 != "total" { print $1, $2, $3 }' loop$s.expect | sort)" \
        "$(addup x.csv y.csv | grep -v '^(')"
    last=$(awk '$1 == "SUB1" { print $2 }' loop$s.expect)
    if [ "${last:-0}" -gt 0 ]; then
        expect_eq "loop$s: call:SUB1:$last, its last call, is one call of it" "1" \
            "$(fst-report --format=csv --timed=all --window=call:SUB1:$last loop$s.trace 2> /dev/null |
               awk -F, '$1 == "SUB1" { print $3 }')"
        expect_fail "loop$s: call:SUB1:$((last + 1)), one past its calls" 2 \
            "--window=call:SUB1:$((last + 1)): SUB1 was called $last times?, not $((last + 1))" \
            fst-report --timed=all --window=call:SUB1:$((last + 1)) loop$s.trace
    fi
done

# ---- tasks (tasks.s: a supervisor dispatching three tasks, CPU-timer preemptions) ----
# its problem-state figures as built (EXPECTED, summed over the tasks); ASUB, an assembler
# routine the image does not name (no map), is part of MAINA, its caller
fst-capture -q -o tasks.trace "$FST_PROGS/tasks.ins" || fail "tasks: capture"
want_tasks="$(fact tasks calls "$PEXP" | while read -r r c; do
                  [ "$r" = ASUB ] && continue
                  s=$(fact tasks self "$PEXP" | awk -v r="$r" '$1 == r { print $2 }')
                  [ "$r" = MAINA ] && s=$((s + $(fact tasks self "$PEXP" | awk '$1 == "ASUB" { print $2 }')))
                  echo "$r $c $s"
              done | sort)"
n=$(fst-dump --summary tasks.trace | sed -n 's/^count.insn=//p')
for a in $(( RANDOM % (n - 2000) + 1000 )) $(( RANDOM % (n - 2000) + 1000 )); do
    fst-report --format=csv -q --timed=all --cpu=problem --unnamed-ok --window=:$a -o x.csv tasks.trace 2> /dev/null
    fst-report --format=csv -q --timed=all --cpu=problem --unnamed-ok --window=$a: -o y.csv tasks.trace 2> /dev/null
    expect_eq "tasks --cpu=problem: [0, $a) and [$a, end) add up to the problem-state figures as built" \
        "$want_tasks" "$(addup x.csv y.csv | grep -v '^(')"
    for o in --supervisor=row --exclude=ROUTX; do
        fst-report --format=csv -q --timed=all $o -o whole.csv tasks.trace
        fst-report --format=csv -q --timed=all $o --unnamed-ok --window=:$a -o x.csv tasks.trace 2> /dev/null
        fst-report --format=csv -q --timed=all $o --unnamed-ok --window=$a: -o y.csv tasks.trace 2> /dev/null
        expect_eq "tasks $o: [0, $a) and [$a, end) add up to the whole run" \
            "$(awk -F, 'NR > 1 { print $1, $3, $4 }' whole.csv | sort)" "$(addup x.csv y.csv)"
    done
done

# ---- two CPUs at once (twocpu.s under --numcpu=2): instruction numbers cut exactly ----
fxtotal() { python3 -c 'import json, sys; print(json.load(sys.stdin)["totals"]["time_fx"])'; }
if fst-capture -q --numcpu=2 -o two.trace "$FST_PROGS/twocpu.ins" 2> /dev/null; then
    n=$(fst-dump --summary two.trace | sed -n 's/^count.insn=//p')
    fst-report --format=csv -q --timed=all -o whole.csv two.trace
    for a in 1000 $(( RANDOM % (n - 200) + 100 )); do
        if ! fst-report --format=csv -q --timed=all --unnamed-ok --window=:$a -o x.csv two.trace 2> err ||
           ! fst-report --format=csv -q --timed=all --unnamed-ok --window=$a: -o y.csv two.trace 2>> err; then
            # the one refusal allowed: another CPU's branch waits for its successor at the edge
            expect_eq "two CPUs: a cut at $a refused only for a branch of the other CPU" 1 \
                "$(grep -c "is a branch whose successor" err)"
            continue
        fi
        expect_eq "two CPUs: [0, $a) and [$a, $n) hold $a and $((n - a)) instructions" "$a $((n - a))" \
            "$(total x.csv) $(total y.csv)"
        expect_eq "two CPUs: [0, $a) and [$a, end) add up to the whole run, routine by routine" \
            "$(awk -F, 'NR > 1 { print $1, $3, $4 }' whole.csv | sort)" "$(addup x.csv y.csv)"
        expect_eq "two CPUs: [0, $a) and [$a, end) add up to the whole run's time, exactly (fx)" \
            "$(fst-report --format=json -q --timed=all two.trace | fxtotal)" \
            "$(( $(fst-report --format=json -q --timed=all --unnamed-ok --window=:$a two.trace | fxtotal) +
                 $(fst-report --format=json -q --timed=all --unnamed-ok --window=$a: two.trace | fxtotal) ))"
    done
    expect_fail "two CPUs: a call window is refused (located on one CPU's traces only)" 2 \
        "--window=call:TICKA:3: a trace of several CPUs" fst-report --window=call:TICKA:3 two.trace
else
    ok "two CPUs: not captured here (tests/e2e/multicpu.sh says why)"
fi

# ---- bad values: errors naming the option ----
expect_fail "FROM after TO" 2 "--window=100:50: FROM is after TO" fst-report --window=100:50 fortg.trace
expect_fail "an empty window" 2 "--window=7:7: an empty window" fst-report --window=7:7 fortg.trace
expect_fail "a window past the trace's end" 2 "--window=300:400: past the trace's end: it holds 306 instructions" \
    fst-report --window=300:400 fortg.trace
expect_fail "a window that begins at the trace's end" 2 "--window=306:: past the trace's end" \
    fst-report --window=306: fortg.trace
expect_fail "a time past the trace's end" 2 "--window=s:1:: past the trace's end: its 306 instructions take" \
    fst-report --window=s:1: fortg.trace
expect_fail "a routine the model does not name" 2 "--window=call:NOSUCH:1: no routine of that name" \
    fst-report --window=call:NOSUCH:1 fortg.trace
expect_fail "a call past the calls made" 2 "--window=call:SUBB:4: SUBB was called 3 times, not 4" \
    fst-report --window=call:SUBB:4 fortg.trace
expect_fail "the mainline's entry is no call" 2 "--window=call:MAIN:1: MAIN was called 0 times" \
    fst-report --window=call:MAIN:1 fortg.trace
expect_fail "call number 0" 2 "--window=call:SUBA:0: not a call" fst-report --window=call:SUBA:0 fortg.trace
expect_fail "not a window" 2 "--window=ten:20: not a window" fst-report --window=ten:20 fortg.trace
expect_fail "a routine's name alone is maptime's" 2 "--window=SUBA: not a window.*--format=maptime" \
    fst-report --format=csv --window=SUBA fortg.trace
expect_fail "one window at a time" 2 "one window at a time" fst-report --window=1:5 --window=6:9 fortg.trace
expect_fail "a window of only outside instructions" 2 "--window=0:3: no routine ran in that window" \
    fst-report --window=0:3 fortg.trace
expect_fail "a located window needs the trace's file" 2 "--window=call:SUBA:1 reads the trace twice" \
    fst-report --window=call:SUBA:1 - < fortg.trace
fst-report --format=csv --meta --window=10:100 -o wm.csv fortg.trace 2> /dev/null
expect_fail "fst-diff refuses a csv of a part of the run" 2 "wm.csv:2: a report of a part of the run only" \
    fst-diff wm.csv fortg.trace

# ---- maptime: --window=NAME keeps its meaning, FROM:TO is the general one ----
# mips:1 --exact: SUBB's time is its 120 instructions (3 calls of 40), 1 us each; one call's 40
mt() { fst-report --format=maptime --exact --clock=mips:1 "$@" fortg.trace 2> /dev/null | awk '/^SECONDS IN MACHINE/ { print $NF; exit }'; }
expect_eq "maptime --window=SUBB: still the routine's window (while SUBB is on the stack: 120 us)" "0.000120000" \
    "$(mt --window=SUBB)"
expect_eq "maptime --window=call:SUBB:2: the general window (one call: 40 us)" "0.000040000" "$(mt --window=call:SUBB:2)"
expect_eq "maptime --window=SUBB --window=10:: both (SUBB's time from instruction 10 on: all of it)" "0.000120000" \
    "$(mt --window=SUBB --window=10:)"
expect_eq "maptime --window=SUBA --window=call:SUBB:3: both (SUBA's 2 calls in SUBB's third: 26 us)" "0.000026000" \
    "$(mt --window=SUBA --window=call:SUBB:3)"

echo "# $N checks"
