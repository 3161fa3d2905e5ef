# tests/e2e/shapes.sh — the shapes of issue 33's programs: the call-heavy FORTRAN one (a
# mainline calling four routines in a pattern of 9-16 calls, a call every 40-odd
# instructions, FORTRAN G linkage with the save areas beside the code: tests/loops/
# fortgen.py), and gcc's branchy and deeply recursive ones (tests/shapes/*.c). Per seed and size:
#   - the figures of its csv are those its construction gives (fortgen.py --expect);
#   - --via=module under Hercules 3.13 and 4.9 gives the text trace's reports byte for byte;
#   - folding changes nothing (FST_REPLAY_FOLD=eager against FST_REPLAY_NOFOLD=1);
# and on a larger run (2000 rounds, module route, folding's own budget), the replay folds
# whole patterns: at least 90 % of a lower bound on its runs from construction (each call
# is at least two runs: into the routine, and on after its return), where a folder of single
# runs' repeats folded almost none (the pattern's parts recur, the whole only after 40-odd
# runs).
# The FORTRAN seeds are 3, 17 and 40 and one drawn anew for every run (printed; a program
# written apart from the code, as held-out checks are); FST_FORT_SEEDS="..." sets them.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
figures() { awk -F, 'NR > 1 && $1 == "(total)" { print "total " $4 } NR > 1 && $1 !~ /^\(/ && ($3 > 0 || $4 > 0) { print $1 " " $3 " " $4 }' "$1" | sort; }

# pack_both B INS: INS captured --via=module packed small and fast (FST_TRACE_PACK,
# capture/modread/modpack.h) into pk/small and pk/fast, each as B.trace from within (the
# same header): the same records (fst-dump, but for its packed sizes), other bytes (the
# packing took effect); the summary says when packed fast; a value that is neither is
# warned about
pack_both() {
    local b=$1 ins=$PWD/$2 k
    mkdir -p pk/small pk/fast
    for k in small fast; do
        (cd pk/$k && FST_TRACE_PACK=$k fst-capture -q --via=module --arch=ESA/390 -o "$b.trace" "$ins") 2> "$T/err"
        (cd pk/$k && fst-dump "$b.trace" | grep -v '^frames\.' > "$b.dump")   # (frames.: what each packed to)
    done
    if [ -s pk/small/$b.dump ] && cmp -s pk/small/$b.dump pk/fast/$b.dump && ! cmp -s pk/small/$b.trace pk/fast/$b.trace
    then ok "$b: packed small and fast, the same records in other bytes ($(stat -c %s pk/small/$b.trace), $(stat -c %s pk/fast/$b.trace))"
    else fail "$b: packed small and fast, the same records in other bytes" "$(diff pk/small/$b.dump pk/fast/$b.dump | head -4)"; fi
    (cd pk && FST_TRACE_PACK=fast fst-capture --via=module --arch=ESA/390 -o "x.trace" "$ins") 2> "$T/err"
    expect_eq "$b: packed fast, the capture's summary says so" 1 \
        "$(grep -c 'bytes/instruction, packed fast (few cores: FST_TRACE_PACK=small packs smaller)' "$T/err")"
    rm -f pk/x.trace
    (cd pk && FST_TRACE_PACK=tiny fst-capture -q --via=module --arch=ESA/390 -o "x.trace" "$ins") 2> "$T/err"
    expect_eq "$b: FST_TRACE_PACK=tiny: warned about, the capture made" \
        "fst-capture: warning: FST_TRACE_PACK=tiny: neither 'fast' nor 'small'; taken as not set 1" \
        "$(cat "$T/err") $([ -s pk/x.trace ] && echo 1)"
}

mkdir -p t
fseeds=${FST_FORT_SEEDS:-"3 17 40 $(( (RANDOM % 9000) + 1000 ))"}
echo "# fortgen seeds: $fseeds"
for s in $fseeds; do
    for r in 1 7 60; do
        b=loop$s
        d=r$r
        mkdir -p "$d/t"
        if ! FST_GEN=fortgen.py "$FST_ROOT/tests/loops/build.sh" "$s" "$d" "$r" > build.err 2>&1; then
            fail "fortgen $s x$r: built" "$(head -3 build.err)"
            continue
        fi
        want=$(awk '$1 == "total" || $2 > 0 || $3 > 0' "$d/$b.expect" | sort)
        if ! fst-capture -q --via=trace -o "$d/t/$b.trace" "$d/$b.ins" 2> cap.err; then
            fail "fortgen $s x$r: the text trace captures it" "$(head -3 cap.err)"
            continue
        fi
        fst-report --timed=all --format=csv -o "$d/t/$b.csv" "$d/t/$b.trace" 2> rep.err
        expect_eq "fortgen $s x$r: the figures as built" "$want" "$(figures "$d/t/$b.csv")"
        for f in csv fortstat; do
            FST_REPLAY_NOFOLD=1 fst-report --timed=all --format=$f -o nofold.out "$d/t/$b.trace" 2> nofold.err
            FST_REPLAY_FOLD=eager fst-report --timed=all --format=$f -o fold.out "$d/t/$b.trace" 2> fold.err
            if cmp -s nofold.out fold.out && cmp -s nofold.err fold.err; then ok "fortgen $s x$r: $f folded as unfolded"
            else fail "fortgen $s x$r: $f folded as unfolded" "$(diff nofold.out fold.out | head -6)"; fi
        done
        if [ "$r" = 60 ]; then
            "${S390_NM:-s390x-linux-gnu-nm}" -P "$d/$b.elf" > "$d/$b.nm"
            module_same "$b" "$d/$b.ins" S/370 "$PWD/$d" "../$b.nm"
        fi
    done
done

# gcc's shapes (tests/shapes/*.c, ESA/390, -O0 and -O2): branches on pseudo-random data
# (branchy: isort and hash once a round, classify 16 times) and deep recursion (recurse:
# fib(10) twice, 2 x (2 fib(11) - 1) = 354 calls of fib at -O0; at -O2 gcc turns one of
# fib's two calls into a loop, so only the other checks hold there)
for v in O0 O2; do
    d=c$v
    mkdir -p "$d/t"
    for p in branchy recurse; do
        case $p in branchy) defs="-DROUNDS=3" want="classify 48 hash 3 isort 3" ;;
                   recurse) defs="-DROUNDS=2 -DDEPTH=10" want="fib 354" ;; esac
        if ! FST_CDEFS="$defs" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/$p.c" "m31-z900-$v" "$d/$p"                 > build.err 2>&1 || ! "${S390_NM:-s390x-linux-gnu-nm}" -P "$d/$p.elf" > "$d/$p.nm" ||
           ! fst-capture -q --via=trace --arch=ESA/390 -o "$d/t/$p.trace" "$d/$p.ins" 2> cap.err; then
            fail "$p -$v: built and captured" "$(head -3 build.err cap.err)"
            continue
        fi
        fst-report --timed=all --map="$d/$p.nm" --format=csv -o "$d/t/$p.csv" "$d/t/$p.trace" 2> /dev/null
        got=$(awk -F, 'NR > 1 && $1 ~ /^(classify|hash|isort|fib)$/ { print $1 " " $3 }' "$d/t/$p.csv" | sort | tr '
' ' ')
        if [ $p = branchy ] && [ "$v" = O2 ]; then # gcc's code has no identifier: without a map, said
            fst-report -o nomap.txt "$d/t/$p.trace" 2> nomap.err
            expect_eq "$p -$v: no map, an image naming nothing: reported (exit 0), the warning says all is outside" \
                "0 1" "$? $(grep -c "no --map, and the storage image names no routine .*: all [0-9]* instructions ran outside any routine" nomap.err)"
        fi
        if [ $p = branchy ]; then # FORTSTAT's default timing of a map with no FORTRAN routine: said
            fst-report --map="$d/$p.nm" -o dflt.txt "$d/t/$p.trace" 2> dflt.err
            fst-report --map="$d/$p.nm" --timed=all -o all.txt "$d/t/$p.trace" 2> all.err
            expect_eq "$p -$v: a map with no FORTRAN routine: default timing warned about, --timed=all not" "1 0" \
                "$(grep -c "none of the [0-9]* routines of the program model is FORTRAN-compatible" dflt.err) $(grep -c "FORTRAN-compatible" all.err)"
        fi
        if [ "$v" = O2 ] && [ $p = recurse ]; then
            [ -n "$got" ] && ok "$p -$v: fib named" || fail "$p -$v: fib named" "$(head -5 "$d/t/$p.csv")"
        else
            expect_eq "$p -$v: calls as built" "$want " "$got"
        fi
        for f in csv fortstat; do
            FST_REPLAY_NOFOLD=1 fst-report --timed=all --map="$d/$p.nm" --format=$f -o nofold.out "$d/t/$p.trace" 2> nofold.err
            FST_REPLAY_FOLD=eager fst-report --timed=all --map="$d/$p.nm" --format=$f -o fold.out "$d/t/$p.trace" 2> fold.err
            if cmp -s nofold.out fold.out && cmp -s nofold.err fold.err; then ok "$p -$v: $f folded as unfolded"
            else fail "$p -$v: $f folded as unfolded" "$(diff nofold.out fold.out | head -6)"; fi
        done
        module_same "$p" "$d/$p.ins" ESA/390 "$PWD/$d" "../$p.nm"
        if [ $p = branchy ] && [ "$v" = O2 ]; then pack_both "$p" "$d/$p.ins"; fi
    done
done

# a larger run: the pattern folded whole, with the folding's own budget
for s in 3 17; do
    if ! FST_GEN=fortgen.py FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" "$s" . 2000 > build.err 2>&1 ||
       ! fst-capture -q -o "big$s.trace" "loop$s.ins" 2> cap.err; then
        fail "fortgen $s x2000: built and captured" "$(head -3 build.err cap.err)"
        continue
    fi
    # calls a round, from the source: MAIN's BALRs, and SUB5's from each routine MAIN calls
    calls=$(python3 - "$s" <<'EOF'
import sys, os
sys.path.insert(0, os.path.join(os.environ["FST_ROOT"], "tests/loops"))
import fortgen
p = fortgen.FortProg(int(sys.argv[1]), 1)
n = 0
for k in p.bodies["MAIN"][0][2]:
    n += 1 + sum(1 for x in p.bodies["SUB%d" % k[1]] if x[0] == "call")
print(n)
EOF
)
    FST_REPLAY_FOLD_STATS=1 fst-report -o big.txt "big$s.trace" 2> stats.err
    folded=$(sed -n 's/^fst: replay: \([0-9]*\) runs folded$/\1/p' stats.err)
    least=$((2000 * calls * 2 * 9 / 10))
    if [ -n "$folded" ] && [ "$folded" -ge "$least" ]; then ok "fortgen $s x2000: whole patterns folded ($folded runs, at least $least)"
    else fail "fortgen $s x2000: whole patterns folded" "folded ${folded:-?} runs, wanted at least $least ($calls calls a round)" "$(cat stats.err)"; fi
done
echo "1..$N"
