# tests/e2e/chunk.sh — stretches of runs memoized (analyze/replay/replay_chunk.c): a few runs,
# with the calls and returns in them, replayed once and then added up wherever the trace
# repeats them from the same state. Over gcc -O2's branchy code (tests/shapes/branchy.c:
# branches on pseudo-random data, so nothing is periodic for folding), at -O0 too, and the C programs
# of tests/cprogs (calls, recursion, siblings):
#   - the call counts are those the construction gives (isort and hash once a round,
#     classify 16 times);
#   - every report is byte for byte the replay's without the stretches
#     (FST_REPLAY_NOCHUNK=1), recording all it can (FST_REPLAY_CHUNK=eager; =tiny: in an
#     arena emptied again and again, with hits not yet added up), with no calls in them
#     (FST_REPLAY_CHUNK=nocalls), of 16 runs in every phase (FST_REPLAY_CHUNK=long) and with no
#     folding or memo at all (FST_REPLAY_NOFOLD=1), nor the lean loop (FST_REPLAY_NOLEAN=1), in
#     the formats that allow it, with and without --by-task;
#   - on branchy, recording all it can, a quarter of the instructions at least come from
#     stretches (about 60 % at -O2, 40 % at -O0 on a quiet machine), and some of their hits
#     hold classify's call and return (none with FST_REPLAY_CHUNK=nocalls); with the
#     stretches off, the lean loop takes half of them at least (none with FST_REPLAY_NOLEAN=1),
#     and the stretches, memo and folding look where they would without it (their figures);
#   - on a program that does not repeat (cgen.py seed 11111), the stretches rest between rounds
#     of trials that gained nothing, and never when recording all they can;
#   - on loops whose periods kept fold a few dozen runs an entry (gen.py seed 38910), the
#     stretches take most of the instructions.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# against no folding at all: no stretches, recording all it can, and as it comes
WAYS="FST_REPLAY_NOCHUNK=1 FST_REPLAY_CHUNK=eager FST_REPLAY_CHUNK=tiny FST_REPLAY_CHUNK=nocalls FST_REPLAY_CHUNK=long FST_REPLAY_NOLEAN=1 -"
same() { replays_same "$1" "$2" "$WAYS" "${@:3}"; }

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
    # first rounds, many of them are added up (all it can: a short run does not pay for
    # the recordings, by the budget). At least a quarter: a stretch lies in one frame, and
    # the capture ends a frame every second of its own run, so the share moves with how
    # long the capture took (-O0: 39-41 % on a quiet machine, 33 % beside two busy cores;
    # -O2 about 60 %); without the stretches it is 0
    read -r hits insns <<< "$(FST_REPLAY_CHUNK=eager replay_hits "stretches memoized" --timed=all --map="$b.nm" "$b.trace")"
    total=$(fst-dump --summary "$b.trace" | sed -n 's/^count.insn=//p')
    if [ "${hits:-0}" -gt 0 ] && [ "${insns:-0}" -ge $((total / 4)) ]; then ok "branchy -$v: stretches memoized ($hits hits, $insns of $total instructions)"
    else fail "branchy -$v: stretches memoized" "${hits:-?} hits, ${insns:-?} of $total instructions"; fi
    # classify, a leaf that returns after a few runs, is called from inside stretches: some
    # of their hits hold its call and return, recording all it can (none with
    # FST_REPLAY_CHUNK=nocalls)
    st=$(FST_REPLAY_CHUNK=eager FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map="$b.nm" -o /dev/null "$b.trace" 2>&1 | grep 'stretches memoized')
    fh=$(sed -n 's/.*), \([0-9]*\) of them with calls or returns.*/\1/p' <<< "$st")
    st0=$(FST_REPLAY_CHUNK=nocalls FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map="$b.nm" -o /dev/null "$b.trace" 2>&1 | grep 'stretches memoized')
    fh0=$(sed -n 's/.*), \([0-9]*\) of them with calls or returns.*/\1/p' <<< "$st0")
    if [ "${fh:-0}" -gt 0 ] && [ "$fh0" = 0 ]; then ok "branchy -$v: stretches with calls ($fh hits)"
    else fail "branchy -$v: stretches with calls" "${fh:-?} hits, ${fh0:-?} with nocalls: $st"; fi
    # the lean loop (analyze/replay/replay.c lean_runs) takes the runs no stretch, memo or
    # folding looks at: with the stretches off, most of branchy's instructions (96 % at -O2);
    # none with FST_REPLAY_NOLEAN=1 (whose reports are the same: WAYS)
    lean() { env "$@" FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map="$b.nm" -o /dev/null "$b.trace" 2>&1 |
             sed -n 's/^fst: replay: lean loop: \([0-9]*\) instructions in .*$/\1/p'; }
    li=$(lean FST_REPLAY_NOCHUNK=1)
    li0=$(lean FST_REPLAY_NOCHUNK=1 FST_REPLAY_NOLEAN=1)
    if [ "${li:-0}" -ge $((total / 2)) ] && [ "$li0" = 0 ]; then ok "branchy -$v: the lean loop ($li of $total instructions)"
    else fail "branchy -$v: the lean loop" "${li:-?} of $total instructions, ${li0:-?} with FST_REPLAY_NOLEAN=1"; fi
    # it hands the turn back wherever a stretch, the memo or the folding would look: their
    # figures are the same without it, the budgets' included
    looks() { env "$@" FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map="$b.nm" -o /dev/null "$b.trace" 2>&1 |
              grep '^fst: replay: ' | grep -v '^fst: replay: lean loop'; }
    expect_eq "branchy -$v: the same looks without the lean loop" "$(looks FST_REPLAY_NOLEAN=1)" "$(looks X=)"
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
# A leaf called in an LCG loop (tests/loops/gen.py seed 37146: 158 M instructions, a run
# of the bench's worst replay), captured with the module: its loop's turns come back alike
# 16 runs at a time, and the replay takes stretches of 16 after its trials (8 gained more
# than 4, and 16 more than 8: replay_chunk.c phase_end); its reports are those without the
# stretches, and with 16 runs in every phase (FST_REPLAY_CHUNK=long)
b=c/loop37146
if [ ! -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    echo "# skip: loop37146: fst's module for Hercules 3.13 was not built (its text trace would take an hour)"
elif FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" 37146 c 1000000000 > build.err 2>&1 &&
     fst-capture -q --via=module -o "$b.trace" "$b.ins" 2> cap.err; then
    st=$(FST_REPLAY_FOLD_STATS=1 fst-report --format=csv -o "$b.csv" "$b.trace" 2>&1 | grep 'stretches memoized')
    n16=$(sed -n 's/.*, of 16 \([0-9]*\)$/\1/p' <<< "$st")
    if [ "${n16:-0}" -gt 0 ]; then ok "loop37146: stretches of 16 runs chosen ($n16 phases)"
    else fail "loop37146: stretches of 16 runs chosen" "$st"; fi
    fst-report -o "$b.txt" "$b.trace" 2> /dev/null
    for w in FST_REPLAY_NOCHUNK=1 FST_REPLAY_CHUNK=long; do
        env "$w" fst-report --format=csv -o "$b.w.csv" "$b.trace" 2> /dev/null
        env "$w" fst-report -o "$b.w.txt" "$b.trace" 2> /dev/null
        if cmp -s "$b.csv" "$b.w.csv" && cmp -s "$b.txt" "$b.w.txt"; then ok "loop37146: csv and FORTSTAT as with $w"
        else fail "loop37146: csv and FORTSTAT as with $w" "$(diff "$b.csv" "$b.w.csv" | head -4)"; fi
    done
else fail "loop37146: built and captured" "$(head -3 build.err cap.err)"; fi
# Loops whose inner turns branch on an LCG's bits and call a FORTRAN routine with a loop of
# its own (tests/loops/gen.py seed 38910: 832 M instructions), captured with the module:
# periods kept fold a few dozen runs at each entry (replay_foldkeep.c), and where each of
# their runs earned the folding's budget a quarter of a recorded one's, it paid for 139 379
# recordings and held the stretches off: they took 5 % of its instructions, the replay twice
# as slow as without them. Now such runs earn what a run replayed does (replay_fold.c
# FOLD_EARN_KEPT): the stretches take most of them (73 %; at least half asked). The report
# is the one with no period kept
b=c/loop38910
if [ ! -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    echo "# skip: loop38910: fst's module for Hercules 3.13 was not built"
elif FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" 38910 c 1000000000 > build.err 2>&1 &&
     fst-capture -q --via=module -o "$b.trace" "$b.ins" 2> cap.err; then
    insns=$(FST_REPLAY_FOLD_STATS=1 fst-report --format=csv -o "$b.csv" "$b.trace" 2>&1 |
            sed -n 's/^fst: replay: stretches memoized: [0-9]* hits ([0-9]* runs, \([0-9]*\) instructions.*/\1/p')
    total=$(fst-dump --summary "$b.trace" | sed -n 's/^count.insn=//p')
    if [ "${insns:-0}" -ge $((total / 2)) ]; then ok "loop38910: the stretches take most of it ($insns of $total instructions)"
    else fail "loop38910: the stretches take most of it" "${insns:-?} of $total instructions"; fi
    FST_REPLAY_FOLDKEEP=0 fst-report --format=csv -o "$b.w.csv" "$b.trace" 2> /dev/null
    if [ -s "$b.csv" ] && cmp -s "$b.csv" "$b.w.csv"; then ok "loop38910: csv as with no period kept"
    else fail "loop38910: csv as with no period kept" "$(diff "$b.csv" "$b.w.csv" | head -4)"; fi
else fail "loop38910: built and captured" "$(head -3 build.err cap.err)"; fi
# Loops that call FORTRAN routines whose subtrees come back whole (tests/loops/gen.py seed
# 19191: 116 M instructions, 105 M of them in calls the memo of calls skips when the
# stretches are off), captured with the module: a stretch that took such a call took it
# and its first few runs from the memo, and left the rest of the subtree to the record loop
# (the memo skipped 63 M instructions with the stretches on). Now the stretches leave a call
# to the memo where it took the call's whole subtree last time at that site, 32 runs or
# more (replay_int.h fst_rp_memo_whole): it skips as much as without the stretches (at
# least 95 % of it asked), and the report is theirs
b=c/loop19191
memo_insns() { local out=$1; shift   # memo_insns CSV ENV...: the memo's instructions skipped
               env "$@" FST_REPLAY_FOLD_STATS=1 fst-report --format=csv -o "$out" "$b.trace" 2>&1 |
               sed -n 's/^fst: replay: calls memoized: [0-9]* hits ([0-9]* runs, \([0-9]*\) instructions skipped.*/\1/p'; }
if [ ! -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    echo "# skip: loop19191: fst's module for Hercules 3.13 was not built"
elif FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" 19191 c 1000000000 > build.err 2>&1 &&
     fst-capture -q --via=module -o "$b.trace" "$b.ins" 2> cap.err; then
    on=$(memo_insns "$b.csv" X=1)
    off=$(memo_insns "$b.w.csv" FST_REPLAY_NOCHUNK=1)
    if [ "${off:-0}" -gt 0 ] && [ "${on:-0}" -ge $((off * 95 / 100)) ]; then
        ok "loop19191: the stretches leave whole calls to the memo ($on instructions skipped, $off without them)"
    else fail "loop19191: the stretches leave whole calls to the memo" "${on:-?} instructions skipped, ${off:-?} without them"; fi
    if [ -s "$b.csv" ] && cmp -s "$b.csv" "$b.w.csv"; then ok "loop19191: csv as without the stretches"
    else fail "loop19191: csv as without the stretches" "$(diff "$b.csv" "$b.w.csv" | head -4)"; fi
else fail "loop19191: built and captured" "$(head -3 build.err cap.err)"; fi
# A program whose branches go by fresh random bits at every site (tests/cprogs/cgen.py seed
# 11111, 5000 rounds: 36 M instructions), captured with the module: its stretches seldom
# come back, the rounds of trials gain nothing, and the stretches rest between them, longer
# each time (replay_chunk.c phase_end: 1, 2, 4... phases); recording all it can
# (FST_REPLAY_CHUNK=eager) they never rest. The reports are those without the stretches
b=c/cgen11111
rested() { env "$@" FST_REPLAY_FOLD_STATS=1 fst-report --timed=all --map="$b.nm" --format=csv -o "$b.w.csv" "$b.trace" 2>&1 |
           sed -n 's/^fst: replay: stretches rested \([0-9]*\) phases .*/\1/p'; }
if [ ! -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    echo "# skip: cgen11111: fst's module for Hercules 3.13 was not built"
elif python3 "$FST_ROOT/tests/cprogs/cgen.py" 11111 > "$b.c" &&
     FST_CDEFS="-DROUNDS=5000" sh "$FST_ROOT/tests/cprogs/build.sh" "$b.c" m31-z900-O2 "$b" > build.err 2>&1 &&
     "${S390_NM:-s390x-linux-gnu-nm}" -P "$b.elf" > "$b.nm" &&
     fst-capture -q --via=module --arch=ESA/390 -o "$b.trace" "$b.ins" 2> cap.err; then
    FST_REPLAY_NOCHUNK=1 fst-report --timed=all --map="$b.nm" --format=csv -o "$b.csv" "$b.trace" 2> /dev/null
    r=$(rested X=)
    if [ "${r:-0}" -ge 1 ] && cmp -s "$b.csv" "$b.w.csv"; then ok "cgen11111: the stretches rested ($r phases), csv as without them"
    else fail "cgen11111: the stretches rested, csv as without them" "${r:-?} phases; $(diff "$b.csv" "$b.w.csv" | head -4)"; fi
    r=$(rested FST_REPLAY_CHUNK=eager)
    if [ "$r" = 0 ] && cmp -s "$b.csv" "$b.w.csv"; then ok "cgen11111: recording all it can, never rested"
    else fail "cgen11111: recording all it can, never rested" "${r:-?} phases; $(diff "$b.csv" "$b.w.csv" | head -4)"; fi
    # with no map every instruction runs outside a routine, and fst-report's diagnosis takes
    # each one's EXEC (in batches): the lean loop takes the runs all the same (replay.c
    # LEAN_WANT), and the report and what it says on stderr are those without the lean loop
    FST_REPLAY_FOLD_STATS=1 fst-report -o "$b.n.txt" "$b.trace" 2> "$b.n.err"
    n=$(sed -n 's/^fst: replay: lean loop: \([0-9]*\) instructions.*/\1/p' "$b.n.err")
    FST_REPLAY_NOLEAN=1 fst-report -o "$b.n0.txt" "$b.trace" 2> "$b.n0.err"
    if [ "${n:-0}" -gt 0 ] && [ -s "$b.n.txt" ] && cmp -s "$b.n.txt" "$b.n0.txt" &&
       cmp -s <(grep -v '^fst: replay:' "$b.n.err") "$b.n0.err"; then
        ok "cgen11111, no map: the lean loop takes runs outside any routine ($n instructions), report and warnings as without it"
    else
        fail "cgen11111, no map: the lean loop takes runs outside any routine, report and warnings as without it" \
            "${n:-?} instructions; $(diff "$b.n.txt" "$b.n0.txt" | head -4)" "$(diff <(grep -v '^fst: replay:' "$b.n.err") "$b.n0.err" | head -4)"
    fi
else fail "cgen11111: built and captured" "$(head -3 build.err cap.err)"; fi
# one capture of it kept (tests/traces/loop37146.trace): where the stretches left the
# folding to record, a period began with 14 instructions pending and ended with 9; two
# folded took the count of the pending below 0 and its cost not, the next instructions
# brought the count back to 0, and the flush, seeing no instruction, left their cost to
# SUB4's next one: SUB2's self time one instruction short, SUB4's above its inclusive
# (replay_exec.c fst_rp_flush). Another capture of the same program, its frames cut
# elsewhere, did not show it
k=$FST_ROOT/tests/traces/loop37146.trace
FST_REPLAY_NOFOLD=1 fst-report --format=csv -o k0.csv "$k" 2> /dev/null
for w in - FST_REPLAY_NOCHUNK=1 FST_REPLAY_CHUNK=long; do
    if [ "$w" = - ]; then fst-report --format=csv -o k1.csv "$k" 2> /dev/null; else env "$w" fst-report --format=csv -o k1.csv "$k" 2> /dev/null; fi
    lab=""; [ "$w" = - ] || lab=" ($w)"
    if [ -s k0.csv ] && cmp -s k0.csv k1.csv; then ok "loop37146 kept: csv as replayed whole$lab"
    else fail "loop37146 kept: csv as replayed whole$lab" "$(diff k0.csv k1.csv | head -4)"; fi
done
echo "1..$N"
