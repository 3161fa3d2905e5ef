# tests/e2e/chunk.sh — stretches of runs memoized (analyze/replay/replay_chunk.c): a few runs
# with no call or return, replayed once and then added up wherever the trace repeats them
# from the same state. Over gcc -O2's branchy code (tests/shapes/branchy.c: branches on
# pseudo-random data, so nothing is periodic for folding), at -O0 too, and the C programs
# of tests/cprogs (calls, recursion, siblings):
#   - the call counts are those the construction gives (isort and hash once a round,
#     classify 16 times);
#   - every report is byte for byte the replay's without the stretches
#     (FST_REPLAY_NOCHUNK=1), recording all it can (FST_REPLAY_CHUNK=eager) and with no
#     folding or memo at all (FST_REPLAY_NOFOLD=1), in
#     the formats that allow it, with and without --by-task;
#   - on branchy, recording all it can, two fifths of the instructions at least come from
#     stretches (about 63 % at -O2, 50 % at -O0).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

same() {    # NAME TRACE [REPORT OPTIONS]: every way of replaying gives one report
    local name=$1 trace=$2 f
    shift 2
    for f in fortstat csv "csv --by-task" json prof tree; do
        # shellcheck disable=SC2086
        FST_REPLAY_NOFOLD=1 fst-report "$@" --format=$f -o base.out "$trace" 2> base.err
        local bad=""
        for how in NOCHUNK EAGER DEFAULT; do
            case $how in
                EAGER) FST_REPLAY_CHUNK=eager fst-report "$@" --format=$f -o how.out "$trace" 2> how.err ;;
                NOCHUNK) FST_REPLAY_NOCHUNK=1 fst-report "$@" --format=$f -o how.out "$trace" 2> how.err ;;
                DEFAULT) fst-report "$@" --format=$f -o how.out "$trace" 2> how.err ;;
            esac
            cmp -s base.out how.out && cmp -s base.err how.err || bad="$bad $how"
        done
        if [ -z "$bad" ]; then ok "$name: $f as without stretches"
        else fail "$name: $f as without stretches" "differs:$bad" "$(diff base.out how.out | head -6)"; fi
    done
}

# stretches taken: hits and their instructions (FST_REPLAY_FOLD_STATS)
stretches() { FST_REPLAY_FOLD_STATS=1 fst-report "$@" -o /dev/null 2>&1 |
              sed -n 's/^fst: replay: stretches memoized: \([0-9]*\) hits ([0-9]* runs, \([0-9]*\) instructions).*/\1 \2/p'; }

mkdir -p c
R=400
for v in O2 O0; do
    b=c/branchy-$v
    if ! FST_CDEFS="-DROUNDS=$R" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/shapes/branchy.c" "m31-z900-$v" "$b" > build.err 2>&1 ||
       ! "${S390_NM:-s390x-linux-gnu-nm}" -P "$b.elf" > "$b.nm" ||
       ! fst-capture -q --via=trace --arch=ESA/390 -o "$b.trace" "$b.ins" 2> cap.err; then
        fail "branchy -$v: built and captured" "$(head -3 build.err cap.err)"
        continue
    fi
    same "branchy -$v" "$b.trace" --timed=all --map="$b.nm"
    fst-report --timed=all --map="$b.nm" --format=csv -o "$b.csv" "$b.trace" 2> /dev/null
    got=$(awk -F, 'NR > 1 && $1 ~ /^(isort|hash|classify)$/ { print $1 " " $3 }' "$b.csv" | sort | tr '\n' ' ')
    expect_eq "branchy -$v: calls as built" "classify $((16 * R)) hash $R isort $R " "$got"
    # the runs between calls come back with other data but the same few paths: after the
    # first rounds, most of them are added up (all it can: a short run does not pay for
    # the recordings, by the budget)
    read -r hits insns <<< "$(FST_REPLAY_CHUNK=eager stretches --timed=all --map="$b.nm" "$b.trace")"
    total=$(fst-dump --summary "$b.trace" | sed -n 's/^count.insn=//p')
    if [ "${hits:-0}" -gt 0 ] && [ "${insns:-0}" -ge $((total * 2 / 5)) ]; then ok "branchy -$v: stretches memoized ($hits hits, $insns of $total instructions)"
    else fail "branchy -$v: stretches memoized" "${hits:-?} hits, ${insns:-?} of $total instructions"; fi
done

# C programs of other shapes, captured with the trace: the same reports
for p in callheavy recur sibling mutual lines; do
    b=c/$p
    if FST_CDEFS="" sh "$FST_ROOT/tests/cprogs/build.sh" "$FST_ROOT/tests/cprogs/$p.c" m31-z900-O2 "$b" > build.err 2>&1 &&
       "${S390_NM:-s390x-linux-gnu-nm}" -P "$b.elf" > "$b.nm" &&
       fst-capture -q --via=trace --arch=ESA/390 -o "$b.trace" "$b.ins" 2> cap.err; then
        same "$p -O2" "$b.trace" --timed=all --map="$b.nm"
    else fail "$p: built and captured" "$(head -3 build.err cap.err)"; fi
done
echo "1..$N"
