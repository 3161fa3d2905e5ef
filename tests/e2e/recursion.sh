# tests/e2e/recursion.sh — random recursive programs (tests/loops/recgen.py: direct and
# mutual recursion down a depth in R1, OS linkage with a stack of save areas, loops, calls
# inside loops, blocks on a period and on a pseudo-random bit), each built, run under
# Hercules and reported. What the program executes comes from walking its shape (recgen.py
# --expect, --arcs, --folded), never from fst: every routine's calls and self instructions
# and the total (csv), every caller-callee pair's calls (json's arcs), and every calling
# path's self instructions (folded stacks, however deep the recursion). The folded, memoized
# and stretched replays give the report the plain one does; --via=module (3.13, and 4.9 when
# FST_HERCULES4 names it) gives the text trace's reports byte for byte. A seed is drawn
# anew for every run (printed), plus three fixed ones; FST_REC_SEEDS="..." names them instead
# (a soak: FST_REC_SEEDS="$(seq 100 199)" tests/run recursion).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
# (seed 412: a call memoized inside a call being recorded, whose routines the recording
# did not take as its own: REC1's inclusive time counted where REC1 was open below)
seeds=${FST_REC_SEEDS:-"2 7 412 $(( (RANDOM % 900) + 100 ))"}
echo "# seeds: $seeds"
for s in $seeds; do
    b=loop$s
    if ! FST_GEN=recgen.py "$FST_ROOT/tests/loops/build.sh" "$s" . 150000 > build.err 2>&1; then
        fail "rec$s: built" "$(head -3 build.err)"
        continue
    fi
    python3 "$FST_ROOT/tests/loops/recgen.py" "$s" 150000 --arcs > "$b.arcs"
    python3 "$FST_ROOT/tests/loops/recgen.py" "$s" 150000 --folded > "$b.folded"
    mkdir -p t
    if ! fst-capture -q --via=trace -o "t/$b.trace" "$b.ins" 2> cap.err; then
        fail "rec$s: captured" "$(head -3 cap.err)"
        continue
    fi
    tr=t/$b.trace
    fst-report --format=csv --timed=all -o "$b.csv" "$tr" 2> /dev/null
    got=$(awk -F, 'NR > 1 && $1 == "(total)" { print "total " $4 } NR > 1 && $1 !~ /^\(/ { r[n++] = $1 " " $3 " " $4 }
                   END { for (i = 0; i < n; i++) print r[i] }' "$b.csv" | sort)
    expect_eq "rec$s: calls and self instructions per routine, and the total, as built" "$(sort "$b.expect")" "$got"
    got=$(fst-report --format=json --timed=all "$tr" 2> /dev/null | python3 -c '
import json, sys
for a in json.load(sys.stdin)["arcs"]:
    print(a["caller_name"], a["callee_name"], a["count"])' | sort)
    expect_eq "rec$s: calls of every caller-callee pair, as built" "$(sort "$b.arcs")" "$got"
    got=$(fst-report --format=folded --unit=instructions --timed=all "$tr" 2> /dev/null | sort)
    if [ "$got" = "$(sort "$b.folded")" ]; then ok "rec$s: self instructions of every calling path, as built"
    else fail "rec$s: self instructions of every calling path, as built" \
        "$(diff <(sort "$b.folded") <(printf '%s\n' "$got") | head -6)"; fi
    replays_same "rec$s" "$tr" "- FST_REPLAY_FOLD=eager FST_REPLAY_CHUNK=eager" --timed=all
    s390x-linux-gnu-nm -P "$b.elf" > "$b.nm"
    module_same "$b" "$b.ins" S/370 "$T" "$T/$b.nm"
done
