#!/bin/bash
# tests/e2e/os.sh — generated multitasking systems (tests/os, README.md there): small
# standalone S/370 operating systems with 3-6 problem-state tasks in 1-3 address spaces,
# whose expected figures (per task: space, mainline, calls and problem-state self
# instructions of every routine; per routine; per space; tasks per space) come from the
# generator's construction, never from fst. Each system is traced in four ways (whole
# system or a range of the tasks' code; traceopt noregs or traditional); the log is
# checked against the expected figures without fst (the "truth" lines: a failure there is
# a generator bug), converted again with fst-capture --from-log (with and without
# --image) and reported by fst-report in several variants (tests/os/run.py), each of
# which must give the expected figures — in a noregs range trace, within the bounds fst
# states with --meta (# uncertain: ...).
#   - live: seeds 28 and 45 (--budget 20000-23000), generated and run under Hercules now,
#     in the three ways whose figures are exact (a noregs range trace's bounds depend on
#     where the run's preemptions fall: `make soak` measures how often they hold), and
#     --via=module (fst's module inside Hercules 3.13, way `module`: exact as well; the
#     replay's lean loop takes runs of its traces, whose reports are the same without it);
#   - a job's window: the same seeds generated with osgen.py --job (tasks before the job,
#     the console's $HASP373 OSJOB STARTED, the job's tasks, $HASP395 OSJOB ENDED, tasks
#     after it, running routines of the same programs in the same spaces), captured live by
#     fst-capture --job=OSJOB through the module (way `module-job`): every report variant
#     gives the window's figures, the work before and after it left out, and the window
#     holds exactly the job's page faults; and the text route's window of a noregs
#     whole-system trace (way `noregs-job`: fst-capture --via=trace --job, and --from-log
#     --job of its log), its truth checked on the log without fst;
#   - stored: tests/logs/os/os11, os27, os35 (their .s, .expected, and the four logs of one
#     run each; made with tests/os/run.py --store, see tests/logs/README.md), all four ways;
#     os153, os212 and os266, their noregs range logs only (soaks' finds, 2026-11-28 and -29).
# One TAP line per (system, way, conversion, report variant).
. "$(dirname "$0")/../lib.sh"
if ! command -v python3 > /dev/null; then
    echo "ok 1 # SKIP python3 is missing: tests/os needs it (scripts/deps.sh installs it)"
    exit 0
fi
LIVE=${FST_OS_SEEDS:-28,45}
STORED="os11 os27 os35"
args=()
for s in $STORED; do args+=(--system "$FST_ROOT/tests/logs/os/$s"); done
# run_os NAME ARGS...: tests/os/run.py, one TAP line per result line
run_os() {
    local tag=$1 rc; shift
    python3 "$FST_ROOT/tests/os/run.py" "$@" --work "$T/work-$tag" --fst-bin "$FST_BIN" --jobs 2 --timeout 300 \
        > "$T/run-$tag.out" 2> "$T/run-$tag.err"
    rc=$?
    while read -r name way conv variant verdict detail; do
        case $verdict in
            PASS) ok "$name $way $conv $variant${detail:+ ($detail)}" ;;
            FAIL) fail "$name $way $conv $variant" "$detail" ;;
        esac
    done < <(grep -E '^os[0-9]+ +[^ ]+ +[^ ]+ +[^ ]+ +(PASS|FAIL)' "$T/run-$tag.out")
    sed -n '/^summary/,$p' "$T/run-$tag.out" | sed 's/^/# /'
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        fail "tests/os/run.py ($tag) ran to its end" "exit $rc" "$(tail -5 "$T/run-$tag.err")"
    fi
}
# and captured by fst's module inside Hercules 3.13 (--via=module: no log; the registers,
# control registers and dispatcher blocks it records tell the tasks apart), when built
ways=noregs,trad,range-trad,noregs-job
if [ -f "$FST_BIN/../lib/fst-hercules313.so" ]; then ways=$ways,module,module-job
else echo "ok $((N += 1)) - the live systems --via=module and --job # SKIP no module (scripts/hercules313.sh, make)"; fi
run_os live --seeds "$LIVE" --budget 20000-23000 --ways "$ways"
# the module's traces show registers at every interruption: the replay's lean loop takes
# the tasks' runs between them all the same (replay.c lean_runs), and the reports are those
# of the replay without it (FST_REPLAY_NOLEAN=1)
for tr in "$T"/work-live/s*/module.live.trace; do
    [ -f "$tr" ] || continue
    d=$(dirname "$tr") s=$(basename "$(dirname "$tr")")
    map="$d/os${s#s}.map.csv"
    li=$(FST_REPLAY_FOLD_STATS=1 fst-report --map="$map" -o /dev/null "$tr" 2>&1 |
         sed -n 's/^fst: replay: lean loop: \([0-9]*\) instructions in .*$/\1/p')
    bad=""
    for f in fortstat "csv --by-task" json; do
        # shellcheck disable=SC2086
        fst-report --map="$map" --format=$f -o "$T/lean.out" "$tr" 2> "$T/lean.err"
        # shellcheck disable=SC2086
        FST_REPLAY_NOLEAN=1 fst-report --map="$map" --format=$f -o "$T/nolean.out" "$tr" 2> "$T/nolean.err"
        cmp -s "$T/lean.out" "$T/nolean.out" && cmp -s "$T/lean.err" "$T/nolean.err" || bad="$bad $f"
    done
    if [ "${li:-0}" -gt 0 ] && [ -z "$bad" ]; then ok "os${s#s} module: the lean loop ($li instructions), the same reports without"
    else fail "os${s#s} module: the lean loop, the same reports without" "${li:-?} instructions; differ:$bad"; fi
done
run_os stored "${args[@]}"
# os153 (seed 153): only its noregs range log is kept, for the calls a switch the trace
# cannot show made land at no entry (diagnose.c many_misfits: its right map was refused);
# os212: a task the replay made by a guess begins inside its mainline WALT (a fetch fault's
# resume); its call of WSKIP must be in WSKIP's bound, not lost (replay_stack.c);
# os266: a guess puts program M's mainline on the stack of G's task, which then looks new
# where it resumes, inside the leaf GLEAF; GLEAF's instructions must be in its bound
# (replay_unc.c fst_rp_any_taint)
run_os stored-rn --system "$FST_ROOT/tests/logs/os/os153" --system "$FST_ROOT/tests/logs/os/os212" \
    --system "$FST_ROOT/tests/logs/os/os266" --ways range-noregs
# the harness itself: with a report that is the expected figures (tests/os/oracle.py in
# fst-report's formats), every comparison of every variant passes
if python3 "$FST_ROOT/tests/os/run.py" --oracle --system "$FST_ROOT/tests/logs/os/os11" --ways noregs,range-noregs \
        --work "$T/oracle" --fst-bin "$FST_BIN" --quiet > "$T/oracle.out" 2>&1; then
    ok "the harness passes a perfect report in every variant (oracle.py, os11)"
else
    fail "the harness passes a perfect report in every variant (oracle.py, os11)" "$(grep FAIL "$T/oracle.out" | head -5)"
fi
# ... and in the job's way (a system of osgen.py --job, captured live through the module)
if [ -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    if python3 "$FST_ROOT/tests/os/run.py" --oracle --seeds 28 --budget 20000-23000 --ways module-job \
            --work "$T/oracle-job" --fst-bin "$FST_BIN" --timeout 300 --quiet > "$T/oracle-job.out" 2>&1; then
        ok "the harness passes a perfect report in every variant of the job's way (oracle.py, os28 --job)"
    else
        fail "the harness passes a perfect report in every variant of the job's way (oracle.py, os28 --job)" \
            "$(grep FAIL "$T/oracle-job.out" | head -5)"
    fi
fi
