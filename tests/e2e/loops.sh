# tests/e2e/loops.sh — random loop shapes (tests/loops/gen.py: nests of BCT loops, calls,
# branches on a period and on a pseudo-random bit; tests/loops/fortbig.py: the same in a
# FORTRAN load module of tens of routines spread over pages), each built, run under Hercules and
# reported: every routine's calls and self instructions and the total are what walking the
# program's shape gives (gen.py --expect), and the folded replay gives the report the
# unfolded one does (analyze/replay/replay_fold.c; its speed against the unfolded one is
# make bench's). Captured --via=module too (fst's module in Hercules 3.13 and 4.9, when
# built: a loop's iterations come as one REP record, capture/module/fstmod_wire.h), the
# reports must be the text trace's byte for byte. The seeds are drawn anew for every run
# (printed), plus two fixed ones.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
seeds="3 5 $(( (RANDOM % 900) + 100 )) $(( (RANDOM % 900) + 1000 )) $(( (RANDOM % 9000) + 2000 ))"
# and FORTRAN load modules (tests/loops/fortbig.py: tens of KiB, routines across pages),
# their seeds from 100 000 up so that the two generators' files do not meet
big="100003 $(( (RANDOM % 90000) + 100010 ))"
echo "# seeds: $seeds; fortbig.py: $big"
for s in $seeds $big; do
    gen=gen.py; [ "$s" -ge 100000 ] && gen=fortbig.py
    if ! FST_GEN=$gen "$FST_ROOT/tests/loops/build.sh" "$s" . 60000 > build.err 2>&1; then
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
    # under 3.13 and 4.9, against the text trace (tests/lib.sh)
    mkdir -p t && cp "loop$s.trace" t/
    s390x-linux-gnu-nm -P "loop$s.elf" > "loop$s.nm"
    module_same "loop$s" "loop$s.ins" S/370 . "$T/loop$s.nm"
done
