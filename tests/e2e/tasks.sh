#!/bin/bash
# tests/e2e/tasks.sh — jobs under an operating system (analyze/tasks/tasks.h, profile.h): the
# multitasking supervisor of tests/programs/tasks.s (SVC, CPU-timer preemption with
# round-robin LPSW dispatch, clock-comparator and I/O wake-ups, enabled waits, page faults
# under DAT, two address spaces running one program at the same virtual addresses).
# Per task, every routine's calls and problem-state self instructions must be exactly
# tests/programs/EXPECTED's `tasks` figures (from the program's construction), whatever
# the preemptions: on three stored logs (fixed inputs) and on a live run under Hercules;
# with a map and without (the FORTRAN identifiers of the storage image); in both --cpu
# modes and both --supervisor policies; with conservation and no unwind. Also captured
# --via=module (fst's module inside Hercules 3.13), three live runs, and one under SDL
# Hercules 4.9: the same figures.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
LOGS=$FST_ROOT/tests/logs
INS=$FST_PROGS/tasks.ins
NM=$LOGS/tasks.nm
cd "$T"

exp() { awk -v k="$1" '$1 == "tasks" && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$EXPECTED"; }
# the asid (CR1) of each task letter
declare -A ASID
while read -r letter _ _ _ asid; do ASID[$letter]=$asid; done < <(exp task | awk '{ print $1, $2, $3, $4, $5 }')

# texp KEY SUFFIX LETTER: task LETTER's KEY lines (KEY-default where the default timing
# differs, EXPECTED gives them only then), as "ROUTINE N"
texp() {
    local r
    r=$(exp "$1$2" | awk -v t="$3" '$1 == t { print $2, $3 }')
    [ -z "$r" ] && r=$(exp "$1" | awk -v t="$3" '$1 == t { print $2, $3 }')
    printf '%s\n' "$r" | sort
}

# check_tasks NAME CSV SUFFIX: CSV is --by-task --cpu=problem output; SUFFIX "" or -default
check_tasks() {
    local name=$1 csv=$2 suf=$3 want got
    for letter in "${!ASID[@]}"; do
        want=$(texp task-calls "$suf" "$letter")
        got=$(awk -F, -v s="${ASID[$letter]}" '$9 == s && $1 != "(task)" { print $1, $3 }' "$csv" | sort)
        expect_eq "$name: task $letter: calls per routine" "$want" "$got"
        want=$(texp task-self "$suf" "$letter")
        got=$(awk -F, -v s="${ASID[$letter]}" '$9 == s && $1 != "(task)" { print $1, $4 }' "$csv" | sort)
        expect_eq "$name: task $letter: problem-state self instructions per routine" "$want" "$got"
        want=$(exp task | awk -v t="$letter" '$1 == t { print $3 }')
        got=$(awk -F, -v s="${ASID[$letter]}" '$9 == s && $10 == 1 { print $1 }' "$csv")
        expect_eq "$name: task $letter: its mainline" "$want" "$got"
    done
}

# report_all NAME TRACE [MAP]: the checks every trace of a whole run passes
report_all() {
    local name=$1 tr=$2 map=${3:-} m=() suf=-default
    [ -n "$map" ] && m=(--map="$map" --timed=all) && suf=
    expect_ok "$name: csv --by-task --cpu=problem" fst-report "${m[@]}" --cpu=problem --format=csv --by-task "$tr"
    cp out bytask.csv
    check_tasks "$name" bytask.csv "$suf"
    if grep -q 'unwound\|guessed' err; then fail "$name: no unwind, no guess" "$(cat err)"; else ok "$name: no unwind, no guess"; fi
    # --supervisor=row: every supervisor-state instruction in its own row, so the routines'
    # self figures are the problem-state ones; the totals conserve (fst-report checks it)
    expect_ok "$name: --supervisor=row" fst-report "${m[@]}" --supervisor=row --format=csv "$tr"
    want=$(for l in "${!ASID[@]}"; do texp task-self "$suf" "$l"; done |
           awk '{ s[$1] += $2 } END { for (r in s) print r, s[r] }' | sort)
    got=$(awk -F, 'NR > 1 && $2 != "" { print $1, $4 }' out | sort)
    expect_eq "$name: --supervisor=row: routines' self = problem-state instructions" "$want" "$got"
    got=$(awk -F, '$1 == "(supervisor)" || $1 == "(outside)" || ($2 != "" && NR > 1) { s += $4 } $1 == "(total)" { t = $4 } END { print s == t }' out)
    expect_eq "$name: --supervisor=row: routines + (supervisor) + outside = total" 1 "$got"
    # the default policy charges the supervisor to the task's routines: never less
    expect_ok "$name: default supervisor policy" fst-report "${m[@]}" --format=csv "$tr"
    got=$(awk -F, 'NR == FNR { if (FNR > 1 && $2 != "") p[$1] = $4; next }
                   FNR > 1 && $2 != "" && $4 < p[$1] { bad = bad " " $1 } END { print "less:" bad }' bytask.csv out)
    expect_eq "$name: supervisor time charged to the tasks' routines" "less:" "$got"
    expect_ok "$name: fortstat" fst-report "${m[@]}" "$tr"
    got=$(grep -c '^ *\*' out)
    expect_eq "$name: FORTSTAT marks the two mainlines" 2 "$got"
}

for log in noregs trad; do
    gzip -dc "$LOGS/tasks-$log.log.gz" | fst-capture -q --from-log=- --image="$INS" -o $log.trace
    report_all "stored $log log, map" $log.trace "$NM"
    report_all "stored $log log, no map" $log.trace
done

# the MVS route (docs/mvs.md): the log converted without --image, names from a map
gzip -dc "$LOGS/tasks-noregs.log.gz" | fst-capture -q --from-log=- -o noimage.trace
report_all "stored noregs log without --image, map" noimage.trace "$NM"
expect_fail "no image, no map: nothing can be named, an error that says how to name it (no 'TOTAL 0' report)" 2 \
    'nothing names a routine: no --map, and the trace holds no storage image .*give --map=LISTING' \
    fst-report noimage.trace
expect_fail "... --unnamed-ok reports it, and says nothing can be named" 0 'no storage image and no --map' \
    fst-report --unnamed-ok noimage.trace

# a range trace of the tasks' code only: no dispatcher, no LCTL, no timer message, so a
# preemption right after a branch cannot be seen and B and C share their addresses: fst
# cannot be exact, and must say so rather than print a silently wrong report
gzip -dc "$LOGS/tasks-range.log.gz" | fst-capture -q --from-log=- --image="$INS" -o range.trace
expect_ok "range log: csv (conservation checked by fst-report)" \
    fst-report --map="$NM" --timed=all --cpu=problem --format=csv range.trace
if grep -q 'cannot tell apart' err; then ok "range log: fst says what it could not know"
else fail "range log: fst says what it could not know" "$(cat err)"; fi
got=$(awk -F, '$1 == "(total)" { print $4 }' out)
want=$(gzip -dc "$LOGS/tasks-range.log.gz" |   # PSW lines, less the copies after a program check
       awk '/PSW=.*INST=/ && prev !~ /^HHCCP014I/ { n++ } { prev = $0 } END { print n }')
expect_eq "range log: every traced instruction once" "$want" "$got"

expect_fail "--space with no hex value" 2 'space wants the hex CR1' fst-report --space=xyz noregs.trace
expect_fail "--supervisor with an unknown policy" 2 "--supervisor: no supervisor policy" \
    fst-report --supervisor=cpu noregs.trace

# --space: one address space of the whole system
expect_ok "--space=${ASID[B]}" fst-report --map="$NM" --timed=all --cpu=problem --format=csv --space="${ASID[B]}" noregs.trace
want=$(exp task-self | awk '$1 == "B" { print $2, $3 }' | sort)
got=$(awk -F, 'NR > 1 && $2 != "" && $4 > 0 { print $1, $4 }' out | sort)
expect_eq "--space: only task B's routines" "$want" "$got"

# a live run: the preemptions fall elsewhere, the figures do not move
if fst-capture -q --timeout=200 -o live.trace "$INS" 2> err; then
    report_all "live run, map" live.trace "$NM"
    report_all "live run, no map" live.trace
else
    fail "live run under Hercules" "$(head -5 err)"
fi

# fst's module inside Hercules 3.13 (--via=module, docs/module.md): no text trace, but the
# registers at every interruption and LPSW, the control registers LCTL loads and the block of
# the dispatcher's LM 0,15, which the module records, tell the tasks apart as a whole-system
# trace does: every figure exact, on three runs (the preemptions fall elsewhere in each)
if [ -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    for i in 1 2 3; do
        if fst-capture -q --via=module -o module$i.trace "$INS" 2> err && [ ! -s err ]; then
            report_all "live --via=module run $i, map" module$i.trace "$NM"
            [ $i = 1 ] && report_all "live --via=module run $i, no map" module$i.trace
        else
            fail "live --via=module run $i under Hercules 3.13, saying nothing" "$(head -5 err)"
        fi
    done
else
    echo "ok $((N += 1)) - live --via=module # SKIP no module (scripts/hercules313.sh, make)"
fi
# the same under SDL Hercules 4.9 with its module (lib/fst-hercules4.so)
if [ -n "${FST_HERCULES4:-}" ] && [ -f "$FST_BIN/../lib/fst-hercules4.so" ]; then
    if fst-capture -q --via=module --hercules="$FST_HERCULES4" -o module4.trace "$INS" 2> err && [ ! -s err ]; then
        report_all "live --via=module run under 4.9, map" module4.trace "$NM"
    else
        fail "live --via=module run under Hercules 4.9, saying nothing" "$(head -5 err)"
    fi
fi

# a range trace of the tasks' code with registers (traceopt traditional), as docs/mvs.md's MVS
# route recommends: the supervisor is not traced, but CR1 and the registers every traced
# instruction shows tell the tasks apart (tasks.h): every figure as in a whole-system trace
if fst-capture -q --timeout=200 --range=30000-4FFFF --traceopt=traditional -o rangetrad.trace "$INS" 2> err; then
    report_all "live range trace with registers, map" rangetrad.trace "$NM"
    report_all "live range trace with registers, no map" rangetrad.trace
else
    fail "live range trace under Hercules" "$(head -5 err)"
fi

# the same range through an SDL Hercules 4.x trace file (CR1 and every register in each
# record): exact as well
if [ -n "${FST_HERCULES4:-}" ] && [ -x "$FST_HERCULES4" ]; then
    if fst-capture -q --timeout=200 --hercules="$FST_HERCULES4" --range=30000-4FFFF -o rangetf.trace "$INS" 2> err; then
        report_all "live range tf trace (4.x), map" rangetf.trace "$NM"
        report_all "live range tf trace (4.x), no map" rangetf.trace
    else
        fail "live range tf trace under Hercules 4.x" "$(head -5 err)"
    fi
else
    echo "ok $((N += 1)) - live range tf trace (4.x) # SKIP no SDL Hercules 4.x (FST_HERCULES4)"
fi

# and with traceopt regsfirst (the registers before each instruction): the same
if fst-capture -q --timeout=200 --range=30000-4FFFF --traceopt=regsfirst -o rangerf.trace "$INS" 2> err; then
    report_all "live range trace, regsfirst, map" rangerf.trace "$NM"
else
    fail "live range trace (regsfirst) under Hercules" "$(head -5 err)"
fi
