# tests/e2e/memo.sh — memoized calls (analyze/replay/replay_memo.c): a call whose whole
# subtree was replayed once is added up when it comes again. Over recursion (fib, by its
# definition), mutual recursion called from two callers (tests/shapes/mutual.c: which
# routines and arcs are open below a call differs from call to call), gcc's branchy code,
# the call-heavy FORTRAN shape and random loop programs with calls (tests/loops):
#   - the figures are those the construction gives (calls of fib, walk, odd, via);
#   - every report is byte for byte the replay's without memo (FST_REPLAY_NOMEMO=1), with
#     no folding at all (FST_REPLAY_NOFOLD=1), memoizing all it can (eager) and without the
#     lean loop (FST_REPLAY_NOLEAN=1), in the
#     formats that allow it, with and without --by-task;
#   - where subtrees repeat, the replay takes most of its runs from the memo, eager and as
#     it comes (a deeper recursion); where none does (branchy), its call sites are judged
#     a loss;
#   - a trace that begins inside a routine (shares.s, its log cut): calls made from no
#     frame are memoized, the reports and warnings the whole replay's;
#   - a map that leaves part of fib in no section is refused with the same figures.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# against no folding at all: no memo, memoizing all it can, and as it comes
WAYS="FST_REPLAY_NOMEMO=1 FST_REPLAY_FOLD=eager FST_REPLAY_NOLEAN=1 -"
same() { replays_same "$1" "$2" "$WAYS" "${@:3}"; }

mkdir -p c
for v in O0 O2; do
    for p in recurse mutual; do
        case $p in recurse) defs="-DROUNDS=6 -DDEPTH=14" ;; mutual) defs="-DROUNDS=5 -DDEPTH=11" ;; esac
        b=c/$p-$v
        if ! FST_CDEFS="$defs" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/$p.c" "m31-z900-$v" "$b" > build.err 2>&1 ||
           ! "${S390_NM:-s390x-linux-gnu-nm}" -P "$b.elf" > "$b.nm" ||
           ! fst-capture -q --via=trace --arch=ESA/390 -o "$b.trace" "$b.ins" 2> cap.err; then
            fail "$p -$v: built and captured" "$(head -3 build.err cap.err)"
            continue
        fi
        same "$p -$v" "$b.trace" --timed=all --map="$b.nm"
        if [ $v = O0 ]; then    # gcc -O2 turns some of the recursion into loops
            fst-report --timed=all --map="$b.nm" --format=csv -o "$b.csv" "$b.trace" 2> /dev/null
            got=$(awk -F, 'NR > 1 && $1 ~ /^(fib|walk|odd|via)$/ { print $1 " " $3 }' "$b.csv" | sort | tr '\n' ' ')
            case $p in
                recurse) want="fib $((6 * (2 * 610 - 1))) " ;;     # fib(15) = 610
                mutual) want=$(awk 'BEGIN { w[0] = 1; u[0] = 0; v[0] = 0; q[0] = 1
                                        for (n = 1; n <= 11; n++) { w[n] = 1 + w[n-1] + u[n-1]; u[n] = w[n-1]
                                                                    v[n] = v[n-1] + q[n-1]; q[n] = 1 + v[n-1] }
                                        printf "odd %d via 5 walk %d ", 5 * 2 * v[11], 5 * 2 * w[11] }') ;;
            esac
            expect_eq "$p -$v: calls as built" "$want" "$got"
        fi
        # the rounds after the first two repeat the first's calls whole, and the first repeats
        # its own deeper ones: memoizing all it can, most of the instructions come from the memo
        read -r hits insns <<< "$(FST_REPLAY_FOLD=eager replay_hits "calls memoized" --timed=all --map="$b.nm" "$b.trace")"
        total=$(fst-dump --summary "$b.trace" | sed -n 's/^count.insn=//p')
        if [ "${hits:-0}" -gt 0 ] && [ "${insns:-0}" -ge $((total / 2)) ]; then ok "$p -$v: subtrees memoized ($hits hits, $insns of $total instructions)"
        else fail "$p -$v: subtrees memoized" "${hits:-?} hits, ${insns:-?} of $total instructions skipped"; fi
        [ $p = recurse ] || continue
        # a map that leaves fib's tail in no section (its length cut to 0x20): the refusal
        # names how many instructions ran there and the first one's address, the same
        # whether the memo took fib's calls (a hit adds them per op and gap: count_in) or not
        awk '$1 == "fib" { $4 = "20" } { print }' "$b.nm" > "$b.cut.nm"
        msgs=""
        for w in FST_REPLAY_NOFOLD=1 FST_REPLAY_NOMEMO=1 FST_REPLAY_FOLD=eager; do
            msgs="$msgs$(env $w fst-report --timed=all --map="$b.cut.nm" -o /dev/null "$b.trace" 2>&1 |
                grep -o '[0-9]* of the [0-9]* instructions ran inside its extent where none of its sections lies (the first at [0-9A-F]*)')
"
        done
        if [ "$(sort -u <<< "$msgs" | grep -c .)" = 1 ] && [ "$(grep -c . <<< "$msgs")" = 3 ]; then
            ok "$p -$v: a map with fib cut short refused alike, memoized or not ($(head -1 <<< "$msgs" | cut -d' ' -f1-4))"
        else fail "$p -$v: a map with fib cut short refused alike, memoized or not" "$msgs"; fi
    done
done

# as it comes (the budget and the call sites' judgments, not eager): a deeper recursion
# (fib(25), 10 rounds: 15.6 M instructions) is recorded bottom up, its first hits small, and
# a site judged a loss then (by what its hits skipped alone) handed its calls to the
# stretches for good: 2 351 instructions skipped, not 13 M. Most of them come from the memo,
# and the report is the one without it
if FST_CDEFS="-DROUNDS=10 -DDEPTH=24" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/recurse.c" m31-z900-O2 c/deep > build.err 2>&1 &&
   "${S390_NM:-s390x-linux-gnu-nm}" -P c/deep.elf > c/deep.nm &&
   fst-capture -q --arch=ESA/390 -o c/deep.trace c/deep.ins 2> cap.err; then
    read -r hits insns <<< "$(replay_hits "calls memoized" --timed=all --map=c/deep.nm c/deep.trace)"
    total=$(fst-dump --summary c/deep.trace | sed -n 's/^count.insn=//p')
    if [ "${insns:-0}" -ge $((total * 3 / 4)) ]; then ok "recursion fib(25): as it comes, the memo skips $insns of $total instructions ($hits hits)"
    else fail "recursion fib(25): as it comes, the memo skips three quarters" "${hits:-?} hits, ${insns:-?} of $total instructions"; fi
    fst-report --timed=all --map=c/deep.nm --format=csv -o c/deep.csv c/deep.trace 2> /dev/null
    FST_REPLAY_NOMEMO=1 fst-report --timed=all --map=c/deep.nm --format=csv -o c/deep0.csv c/deep.trace 2> /dev/null
    if cmp -s c/deep.csv c/deep0.csv && [ -s c/deep.csv ]; then ok "recursion fib(25): csv the same without the memo"
    else fail "recursion fib(25): csv the same without the memo" "$(diff c/deep.csv c/deep0.csv | head -5)"; fi
else fail "recursion fib(25): built and captured" "$(head -3 build.err cap.err)"; fi

# what does not repeat, and what folds: the same reports, whatever the memo does
FST_CDEFS="-DROUNDS=4" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/branchy.c" m31-z900-O2 c/branchy > build.err 2>&1 &&
    "${S390_NM:-s390x-linux-gnu-nm}" -P c/branchy.elf > c/branchy.nm &&
    fst-capture -q --via=trace --arch=ESA/390 -o c/branchy.trace c/branchy.ins 2> cap.err &&
    same "branchy -O2" c/branchy.trace --timed=all --map=c/branchy.nm || fail "branchy: built and captured" "$(head -3 build.err cap.err)"
# branchy's calls go by fresh random data: no subtree repeats, and each call site is judged
# a loss (replay_memo.c site_try) and passed by for a while; the reports the same
FST_CDEFS="-DROUNDS=3000" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/branchy.c" m31-z900-O2 c/branchy3k > build.err 2>&1 &&
    "${S390_NM:-s390x-linux-gnu-nm}" -P c/branchy3k.elf > c/branchy3k.nm &&
    fst-capture -q --arch=ESA/390 -o c/branchy3k.trace c/branchy3k.ins 2> cap.err || fail "branchy 3000: built and captured" "$(head -3 build.err cap.err)"
if [ -f c/branchy3k.trace ]; then
    same "branchy -O2, 3000 rounds" c/branchy3k.trace --timed=all --map=c/branchy3k.nm
    st=$(FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map=c/branchy3k.nm -o /dev/null c/branchy3k.trace 2>&1 | grep 'calls memoized')
    if [[ $st =~ ^fst:\ replay:\ calls\ memoized:\ 0\ hits.*judged\ a\ loss\ ([0-9]+)\ times ]] && [ "${BASH_REMATCH[1]}" -ge 1 ]; then
        ok "branchy 3000: no subtree repeats, its call sites judged a loss ${BASH_REMATCH[1]} times"
    else fail "branchy 3000: no subtree repeats, its call sites judged a loss" "$st"; fi
fi
for s in 5 23; do
    if FST_GEN=fortgen.py FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" "$s" . 40 > build.err 2>&1 &&
       fst-capture -q -o "fort$s.trace" "loop$s.ins" 2> cap.err; then same "fortgen $s" "fort$s.trace" --timed=all
    else fail "fortgen $s: built and captured" "$(head -3 build.err cap.err)"; fi
done
for s in 31 32 33 34; do
    if "$FST_ROOT/tests/loops/build.sh" "$s" . > build.err 2>&1 && fst-capture -q -o "gen$s.trace" "loop$s.ins" 2> cap.err; then
        same "loops $s" "gen$s.trace"
    else fail "loops $s: built and captured" "$(head -3 build.err cap.err)"; fi
done
# a trace that begins inside a routine (a text log switched on mid-run, an attached window):
# shares.s (R = 10 rounds: MAIN calls ALPHA, BETA and GAMMA; BETA's loop turns 300 times a
# call) from the 1000th turn of BETA's loop on, so from inside its 4th call. MAIN is never
# entered: its calls are made from no frame, memoized all the same, and the reports (the
# warnings of MAIN and BETA run while not entered among them) are the whole replay's, with
# the map's entry point (the mainline fixed: MAIN's instructions each looked at) or none
if fst-capture -q --via=trace --keep-log=sh.log -o sh.trace "$FST_PROGS/shares.ins" 2> cap.err; then
    first=$(grep -n -m1 '^PSW=' sh.log | cut -d: -f1)
    cut=$(grep -n '^PSW=00080000 000200BE' sh.log | sed -n 1000p | cut -d: -f1)
    { head -n $((first - 1)) sh.log; tail -n +"$cut" sh.log; } > cut.log
    "${S390_NM:-s390x-linux-gnu-nm}" -P "$FST_PROGS/shares.elf" > sh.nm
    printf 'name,type,origin,length\nSHARES,MODULE,0,100\nMAIN,EP,0,\nMAIN,SD,0,58\nALPHA,SD,58,30\nBETA,SD,88,30\nGAMMA,SD,B8,48\n' > sh.csv
    if fst-capture -q --from-log=cut.log -o cut.trace 2> cap.err; then
        # without an entry point the first routine entered, GAMMA, is taken as the
        # mainline, not called (docs/module.md "A window begins in the middle of things")
        for m in "--map=sh.nm" "--map=sh.csv --load-point=20020"; do
            case $m in *nm) want="ALPHA 6 BETA 6 GAMMA 6 " ;; *) want="ALPHA 6 BETA 6 GAMMA 7 " ;; esac
            # shellcheck disable=SC2086
            same "shares from inside BETA ($m)" cut.trace --timed=all $m
            # shellcheck disable=SC2086
            fst-report --timed=all $m --format=csv -o cut.csv cut.trace 2> /dev/null
            expect_eq "shares from inside BETA ($m): calls of the rounds begun after the cut" "$want" \
                "$(awk -F, '$1 ~ /^(ALPHA|BETA|GAMMA)$/ { print $1, $3 }' cut.csv | sort | tr '\n' ' ')"
            # shellcheck disable=SC2086
            read -r hits insns <<< "$(FST_REPLAY_FOLD=eager replay_hits "calls memoized" --timed=all $m cut.trace)"
            if [ "${hits:-0}" -ge 10 ]; then ok "shares from inside BETA ($m): calls from no frame memoized ($hits hits)"
            else fail "shares from inside BETA ($m): calls from no frame memoized" "${hits:-?} hits"; fi
        done
    else fail "shares: the log cut inside BETA converted" "$(head -3 cap.err)"; fi
else fail "shares: captured with its log" "$(head -3 cap.err)"; fi
echo "1..$N"
