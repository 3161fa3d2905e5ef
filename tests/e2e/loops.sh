# tests/e2e/loops.sh — random loop shapes (tests/loops/gen.py: nests of BCT loops, calls,
# branches on a period and on a pseudo-random bit), each built, run under Hercules and
# reported: every routine's calls and self instructions and the total are what walking the
# program's shape gives (gen.py --expect), and the folded replay gives the report the
# unfolded one does (analyze/replay/replay_fold.c; its speed against the unfolded one is
# make bench's). Captured --via=module too (fst's module in Hercules 3.13, when built:
# a loop's iterations come as one REP record, capture/module/fstmod_wire.h), the reports
# must be the text trace's byte for byte. The seeds are drawn anew for every run
# (printed), plus two fixed ones.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
MOD=$FST_BIN/../lib/fst-hercules313.so
seeds="3 5 $(( (RANDOM % 900) + 100 )) $(( (RANDOM % 900) + 1000 )) $(( (RANDOM % 9000) + 2000 ))"
echo "# seeds: $seeds"
for s in $seeds; do
    if ! "$FST_ROOT/tests/loops/build.sh" "$s" . 60000 > build.err 2>&1; then
        fail "loop$s: built" "$(head -3 build.err)"
        continue
    fi
    if ! fst-capture -q --via=trace -o "loop$s.trace" "loop$s.ins" 2> cap.err; then
        fail "loop$s: captured" "$(head -3 cap.err)"
        continue
    fi
    fst-report --format=csv --timed=all -o "loop$s.csv" "loop$s.trace" 2> /dev/null
    got=$(awk -F, 'NR > 1 && $1 == "(total)" { print "total " $4 } NR > 1 && $1 !~ /^\(/ { r[n++] = $1 " " $3 " " $4 }
                   END { for (i = 0; i < n; i++) print r[i] }' "loop$s.csv" | sort)
    expect_eq "loop$s: calls and self instructions per routine, and the total, as built" \
        "$(sort "loop$s.expect")" "$got"
    FST_REPLAY_NOFOLD=1 fst-report --format=csv --timed=all -o "loop$s.nofold.csv" "loop$s.trace" 2> /dev/null
    FST_REPLAY_FOLD=eager fst-report --format=csv --timed=all -o "loop$s.eager.csv" "loop$s.trace" 2> /dev/null
    if cmp -s "loop$s.csv" "loop$s.nofold.csv" && cmp -s "loop$s.eager.csv" "loop$s.nofold.csv"; then
        ok "loop$s: folded (by its budget, or all it can) or not, the same report"
    else
        fail "loop$s: folded (by its budget, or all it can) or not, the same report" \
            "$(diff "loop$s.csv" "loop$s.nofold.csv" | head -4)" "$(diff "loop$s.eager.csv" "loop$s.nofold.csv" | head -4)"
    fi
    [ -f "$MOD" ] || continue
    mkdir -p m t   # the same file names in both folders: the reports name their trace
    cp "loop$s.trace" t/
    if ! fst-capture -q --via=module -o "m/loop$s.trace" "loop$s.ins" 2> cap.err || [ -s cap.err ]; then
        fail "loop$s: --via=module captures it, saying nothing" "$(head -3 cap.err)"
        continue
    fi
    bad=""
    for f in csv callgrind fortstat; do
        for d in m t; do (cd $d && fst-report --format=$f -o "loop$s.$f" "loop$s.trace" 2> /dev/null); done
        cmp -s "t/loop$s.$f" "m/loop$s.$f" || bad="$bad $f"
    done
    if [ -z "$bad" ]; then ok "loop$s: --via=module: csv, callgrind and FORTSTAT the same as the text trace's"
    else fail "loop$s: --via=module: csv, callgrind and FORTSTAT the same as the text trace's" "differ:$bad"; fi
done
