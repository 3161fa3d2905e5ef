# tests/e2e/fold.sh — the replay folds loops (analyze/replay/replay_fold.c): a period of runs it
# has replayed once is added up while the trace repeats it. Folding must change nothing:
# every report, its warnings and its exit status are byte for byte those of a replay that
# does not fold (FST_REPLAY_NOFOLD=1), over live captures of the test programs (loops with
# calls, recursion with loops, OS linkage, a supervisor with tasks, two CPUs), every fixture
# log and tf file, and option sets that allow folding or rule it out. And it must fold
# where it can: bigloop's 100 000 iterations are 400 000 runs (LR BALR / B / STM .. BR /
# BCT), of which all but those it takes to find and record a period again after each
# trace frame's end (a run that a frame boundary splits differs from the recorded one; 13
# frames), the last iteration's (its BCT falls through), and those the folding's budget
# keeps it quiet for (replay_fold.c: the first recording is paid by the runs before it, a
# failed one backs off) are folded: at least 85 % (93.8 % measured on a quiet machine: a live
# capture's frames end where its flushes fall, once a second, so more of them on a busy one).
. "$(dirname "$0")/../lib.sh"
NM=${S390_NM:-s390x-linux-gnu-nm}
FX=$FST_FIXTURES
cd "$T" || exit 1

# same NAME TRACE OPTIONS...: the report with and without folding, stdout, stderr, status;
# folding all it can (FST_REPLAY_FOLD=eager: its budget would fold little on short traces)
same() {
    local name=$1 trace=$2; shift 2
    FST_REPLAY_NOFOLD=1 fst-report "$@" -o nofold.out "$trace" > nofold.stdout 2> nofold.err; local r0=$?
    FST_REPLAY_FOLD=eager fst-report "$@" -o fold.out "$trace" > fold.stdout 2> fold.err; local r1=$?
    [ -f nofold.out ] || : > nofold.out
    [ -f fold.out ] || : > fold.out
    if [ "$r0" = "$r1" ] && cmp -s nofold.out fold.out && cmp -s nofold.err fold.err; then
        ok "$name"
    else
        fail "$name" "exit $r0 / $r1: fst-report $* $trace" "$(diff nofold.out fold.out | head -8)" \
            "$(diff nofold.err fold.err | head -4)"
    fi
    rm -f nofold.out fold.out
}

OPTS_ALL=("" "--timed=all --format=csv" "--timed=all --format=json" "--timed=all --format=prof --zero"
          "--timed=all --format=csv --by-task" "--timed=all --format=csv --tail-calls --clock=mips:1"
          "--timed=all --format=csv --cpu=problem" "--timed=all --format=csv --supervisor=row"
          "--format=fortstat --digits=9")

# live captures of the test programs (tasks: a supervisor dispatching three tasks under
# interruptions; twocpu: two CPUs, folded only before the second one starts)
for p in bigloop fortrec linkage fortg forth untimed deeprec tasks twocpu nestlcg; do
    extra=()
    [ "$p" = twocpu ] && extra=(--numcpu=2)
    if ! fst-capture -q "${extra[@]}" --timeout=60 -o "$p.trace" "$FST_PROGS/$p.ins" 2> "$p.err"; then
        fail "$p: captured" "$(head -3 "$p.err")"
        continue
    fi
    "$NM" -P "$FST_PROGS/$p.elf" > "$p.nm" 2> /dev/null || : > "$p.nm"
    map=()
    [ -s "$p.nm" ] && map=(--map="$p.nm")
    for o in "${OPTS_ALL[@]}"; do
        # shellcheck disable=SC2086
        same "$p ${o:-(default)}: folded or not, the same report" "$p.trace" "${map[@]}" $o
    done
done

# keep_same NAME TRACE OPTIONS...: the report and warnings with periods kept (replay_foldkeep.c)
# and with none (FST_REPLAY_FOLDKEEP=0) the same
keep_same() {
    local name=$1 trace=$2; shift 2
    FST_REPLAY_FOLDKEEP=0 fst-report "$@" -o keep0.out "$trace" 2> keep0.err
    fst-report "$@" -o keep1.out "$trace" 2> keep1.err
    if cmp -s keep0.out keep1.out && cmp -s keep0.err keep1.err; then
        ok "$name: periods kept or not, the same report"
    else
        fail "$name: periods kept or not, the same report" "$(diff keep0.out keep1.out | head -6)"
    fi
}
# it folds: bigloop (N = 100000 iterations of LR, BALR / B / STM..BR / BCT)
folded() { FST_REPLAY_FOLD_STATS=1 fst-report -o /dev/null "$@" 2>&1 | sed -n 's/^fst: replay: \([0-9]*\) runs folded$/\1/p'; }
n=$(folded --timed=all --map=bigloop.nm bigloop.trace)
if [ -n "$n" ] && [ "$n" -ge 340000 ] && [ "$n" -lt 400000 ]; then
    ok "bigloop: $n of its 400000 runs folded (at least 85 %)"
else
    fail "bigloop: at least 85 % of its 400000 runs folded" "got: '$n'"
fi
# a loop nested in one whose turns differ (nestlcg: N = 1000 outer turns, an LCG's bit
# deciding two ARs, then K = 400 inner ones): of its N x (K - 1) = 399 000 inner runs, all
# are folded but those its budget keeps it quiet for at the start (some 20 000), the outer
# turns it tries as periods before they are refused for failing (replay_fold.c "long
# periods that fold too little") and, each outer turn, the inner run whose previous
# instruction is not the loop's BCT: the inner period, recorded once, is kept and folded
# from its first run at the next entry (replay_foldkeep.c): at least 90 % (93.7 %
# measured; 79.3 % when each outer turn took a window of 32 runs and a recording to find it
# again, 10 % when every window proposed the outer turn again)
# (built here with N = 1000: the tests' own build runs 100 turns, less than the budget's
# quiet start)
n=""
if ${S390_AS:-s390x-linux-gnu-as} -m31 -I "$FST_ROOT/tests/programs" --defsym NOUT=1000 -o nl.o \
        "$FST_ROOT/tests/programs/nestlcg.s" &&
    ${S390_LD:-s390x-linux-gnu-ld} -m elf_s390 -T "$FST_ROOT/tests/programs/standalone.ld" -o nl.elf nl.o &&
    ${S390_OBJCOPY:-s390x-linux-gnu-objcopy} -O binary -j .lowcore nl.elf nl.lc &&
    ${S390_OBJCOPY:-s390x-linux-gnu-objcopy} -O binary -j .text nl.elf nl.bin &&
    printf 'nl.lc 0x0\nnl.bin 0x20000\n' > nl.ins && fst-capture -q -o nl.trace nl.ins 2> nl.err; then
    expect_eq "nestlcg N = 1000: its instructions (1 210 033 by construction)" 1210033 \
        "$(fst-dump --summary nl.trace | sed -n 's/^count.insn=//p')"
    n=$(folded --timed=all nl.trace)
fi
if [ -n "$n" ] && [ "$n" -ge 359100 ] && [ "$n" -lt 399000 ]; then
    ok "nestlcg: $n of its 399000 inner runs folded (at least 90 %)"
else
    fail "nestlcg: at least 90 % of its 399000 inner runs folded" "got: '$n'"
fi
# ... the inner period recorded a few times at most (the trials' stages that try no period
# kept, replay_foldkeep.c trial, record it a few times more: 10 measured), then folded from
# the one kept at 850 outer turns or more of the 1000 (903 measured: the others the budget's
# quiet start and those stages), and the reports those of a replay that keeps none
# (FST_REPLAY_FOLDKEEP=0) and of one that does not fold
if [ -s nl.trace ]; then
    st=$(FST_REPLAY_FOLD_STATS=1 fst-report --timed=all -o /dev/null nl.trace 2>&1)
    rec=$(printf '%s\n' "$st" | sed -n 's/^fst: replay: \([0-9]*\) recordings,.*/\1/p')
    kept=$(printf '%s\n' "$st" | sed -n 's/^fst: replay: \([0-9]*\) foldings begun from a period kept.*/\1/p')
    if [ -n "$rec" ] && [ -n "$kept" ] && [ "$rec" -le 16 ] && [ "$kept" -ge 850 ] && [ "$kept" -le 999 ]; then
        ok "nestlcg: the inner period recorded $rec times, folded from the one kept $kept times"
    else
        fail "nestlcg: the inner period recorded at most 16 times, folded from the one kept 850-999 times" \
            "got: '$rec' recordings, '$kept' from kept"
    fi
    keep_same "nestlcg --timed=all --format=csv" nl.trace --timed=all --format=csv
    keep_same "nestlcg --format=fortstat --digits=9" nl.trace --format=fortstat --digits=9
    # shellcheck disable=SC2086
    same "nestlcg N = 1000: folded or not, the same report" nl.trace --timed=all --format=csv
fi
# an outer loop whose period holds inner loops that have periods kept (tests/loops seed 8:
# BCT loops nested three deep, 232 K instructions, 78 K runs): tried at each inner loop's
# entry, the periods kept folded it and broke the rows of runs the window finds the outer
# period in (7 704 runs folded); the trials find that trying none folds more (51 K), and
# the report is the one of a replay that keeps none and of one that does not fold
if "$FST_ROOT/tests/loops/build.sh" 8 . > build.err 2>&1 && fst-capture -q -o l8.trace loop8.ins 2> cap.err; then
    st=$(FST_REPLAY_FOLD_STATS=1 fst-report --format=csv -o /dev/null l8.trace 2>&1)
    n=$(printf '%s\n' "$st" | sed -n 's/^fst: replay: \([0-9]*\) runs folded$/\1/p')
    off=$(printf '%s\n' "$st" | sed -n 's/.* trials, \([0-9]*\) of them then without$/\1/p')
    if [ -n "$n" ] && [ -n "$off" ] && [ "$n" -ge 40000 ] && [ "$off" -ge 1 ]; then
        ok "loop8: $n runs folded, $off trials that then tried no period kept"
    else
        fail "loop8: 40 000 runs folded or more, a trial that then tried no period kept" "got: '$n' runs, '$off'"
    fi
    keep_same "loop8" l8.trace --format=csv
    same "loop8: folded or not, the same report" l8.trace --format=csv
else
    fail "loop8: built and captured" "$(head -3 build.err cap.err 2>/dev/null)"
fi
# the supervisor's tasks: their loops can fold between the timer's interruptions, which end
# each folding (the reports above are the same, folded or not); the budget finds it not
# worth it on so short a run, so eagerly
n=$(FST_REPLAY_FOLD=eager folded --timed=all --map=tasks.nm tasks.trace)
if [ -n "$n" ] && [ "$n" -gt 1000 ]; then ok "tasks: loops fold between interruptions ($n runs)"
else fail "tasks: loops fold between interruptions" "got: '$n'"; fi
# a format that wants every call (folded stacks) rules folding out
n=$(folded --format=folded --timed=all --map=bigloop.nm bigloop.trace)
expect_eq "bigloop --format=folded: nothing folded (the format wants every call)" "0" "$n"

# a bigloop trace cut short in the middle of a folded stretch: the prefix, folded or not
size=$(stat -c %s bigloop.trace)
head -c $((size - 300)) bigloop.trace > cut.trace
same "bigloop cut short: folded or not, the same report" cut.trace --timed=all --map=bigloop.nm --format=csv

# the tasks logs (three tasks, interruptions, dispatches) and every fixture log and tf file
for g in "$FST_ROOT"/tests/logs/tasks-*.log.gz; do
    b=$(basename "$g" .log.gz)
    gzip -dc "$g" > "$b.log"
    fst-capture -q --from-log="$b.log" -o "$b.trace" 2> /dev/null || { fail "$b: converted"; continue; }
    for o in "" "--timed=all --format=csv --by-task" "--timed=all --format=csv --supervisor=row"; do
        # shellcheck disable=SC2086
        same "$b ${o:-(default)}: folded or not, the same report" "$b.trace" --map="$FST_ROOT/tests/logs/tasks.nm" $o
    done
done
for f in "$FX"/hercules-3.13/*.log "$FX"/hercules-4.9/*.log "$FX"/hercules-4.9/tf/*.tf; do
    [ -r "$f" ] || continue
    b=$(basename "$f")
    img=()   # the program's storage image, for the routines of the default report
    ins=$(dirname "$f")/${b%%.*}.ins
    [ -r "$ins" ] && img=(--image="$ins")
    case "$f" in
    *.tf) fst-capture -q "${img[@]}" --from-tf="$f" -o "$b.trace" 2> /dev/null ;;
    *) fst-capture -q "${img[@]}" --from-log="$f" -o "$b.trace" 2> /dev/null ;;
    esac
    [ -s "$b.trace" ] || continue   # logs that are not traces (the fixtures' error cases)
    for o in "" "--timed=all --format=csv"; do
        # shellcheck disable=SC2086
        same "$b ${o:-(default)}: folded or not, the same report" "$b.trace" $o
    done
    rm -f "$b.trace"
done
# a trace that begins inside MAIN (a text log switched on mid-run, an attached window):
# fortgen's call pattern (tests/loops/fortgen.py seed 31, 200 rounds) from the 1000th
# instruction MAIN runs. MAIN, never entered, runs outside every routine, and the
# diagnosis takes its instructions ("ran inside MAIN while it was not entered"); the
# pattern folds all the same (replay_fold.c rp_fold.out: what a period hands the diagnosis
# is handed again for each period folded), with the same reports and warnings
if FST_GEN=fortgen.py FST_EXPECT=0 "$FST_ROOT/tests/loops/build.sh" 31 . 200 > build.err 2>&1 &&
    fst-capture -q --via=trace --keep-log=fg.log -o fg.trace loop31.ins 2> cap.err; then
    "$NM" -P loop31.elf > fg.nm
    lo=$(awk '$1 == "MAIN" { print $3 }' fg.nm)
    hi=$(awk -v m="$lo" '$2 == "T" && $3 > m { print $3 }' fg.nm | sort | head -1)
    first=$(grep -n -m1 '^PSW=' fg.log | cut -d: -f1)
    # the log's addresses are 8 hex digits, upper case: compared as strings
    cut=$(awk -v lo="$(printf %08X $((16#$lo)))" -v hi="$(printf %08X $((16#$hi)))" \
        '/^PSW=/ && ($2 "") >= (lo "") && ($2 "") < (hi "") && ++n == 1000 { print NR; exit }' fg.log)
    { head -n $((first - 1)) fg.log; tail -n +"$cut" fg.log; } > fgcut.log
    if fst-capture -q --from-log=fgcut.log -o fgcut.trace 2> cap.err; then
        same "fortgen from inside MAIN: csv" fgcut.trace --timed=all --map=fg.nm --format=csv
        same "fortgen from inside MAIN: FORTSTAT" fgcut.trace --timed=all --map=fg.nm --format=fortstat
        grep -q "instructions ran inside MAIN while it was not entered" fold.err && ok "fortgen from inside MAIN: MAIN said not entered" ||
            fail "fortgen from inside MAIN: MAIN said not entered" "$(head -3 fold.err)"
        n=$(FST_REPLAY_FOLD=eager folded --timed=all --map=fg.nm fgcut.trace)
        if [ "${n:-0}" -gt 0 ]; then ok "fortgen from inside MAIN: its pattern folded ($n runs)"
        else fail "fortgen from inside MAIN: its pattern folded" "got: '$n'"; fi
    else fail "fortgen: the log cut inside MAIN converted" "$(head -3 cap.err)"; fi
else fail "fortgen 31: built and captured with its log" "$(head -3 build.err cap.err)"; fi
echo "1..$N"
