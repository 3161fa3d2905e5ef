#!/bin/bash
# tests/e2e/mvsjob.sh — the MVS user's route (issue 24) on tests/programs/mvsjob.s, a tiny
# "MVS" whose console prints JES2's $HASP373 FSTJOB STARTED and $HASP395 FSTJOB ENDED
# around the job: the job's program (MAIN, WORK, LEAF, WORK2) runs in address space A
# (CR1 00022000) ROUNDS times, another program (XMAIN, XA, XB, XC) runs in space B at the
# same virtual addresses before, during and after the job, and after the job the job's
# program runs once more in space C (another job). The virtual page, the program's offset
# in it (so the load point), WORK's loop count and ROUNDS are chosen at random for each
# run of this test (printed in the first line, FST_MVSJOB="VPAGE JOFF K ROUNDS" repeats
# one). The figures come from the construction (mvsjob.s's head), for R runs:
#   MAIN self 16 R, calls 0; WORK self 2 (K + 8) R, calls 2 R; LEAF self 4 R, calls 2 R;
#   WORK2 self 6 R, calls R (--timed=all).
# Captured with --job (live, from the kept log, from a pipe), reported with only a CSV map
# or an IEWL listing (no image, no load point, no --space): the job's space and load point
# found, the profile exact, the --space figures the same in every format, bad --space
# values refused. Then the HTTP user and password of --attach.
. "$(dirname "$0")/../lib.sh"
P=$FST_ROOT/tests/programs
if ! command -v hercules > /dev/null || ! command -v s390x-linux-gnu-as > /dev/null; then
    echo "ok 1 # SKIP hercules or binutils-s390x missing"
    exit 0
fi
read -r VPAGE JOFF K ROUNDS <<< "${FST_MVSJOB:-$(printf '0x%X 0x%X %d %d' $(( (4 + RANDOM % 11) * 0x10000 + (RANDOM % 14) * 0x1000 )) \
    $(( (RANDOM % 256) * 8 )) $(( 5 + RANDOM % 60 )) $(( 2 + RANDOM % 3 )))}"
echo "# FST_MVSJOB=\"$VPAGE $JOFF $K $ROUNDS\""
LP=$(printf '%X' $((VPAGE + JOFF)))
B=$T/m
if ! mvsjob_build "$B" "$VPAGE" "$JOFF" "$K" "$ROUNDS"; then
    fail "assemble mvsjob.s"
    exit 0
fi
cp "$B.job.csv" "$T/job.csv"
cp "$B.other.csv" "$T/other.csv"
cp "$B.job.lst" "$T/job.lst"

R=$ROUNDS
want() { mvsjob_want "$1" "$K"; }
got() { mvsjob_got "$1"; }

# ---- capture the job: live (3.13, its console at 009), its log kept ----
if fst-capture --job=FSTJOB --keep-log="$T/job.log" -o "$T/live.trace" "$B.ins" 2> "$T/cerr"; then
    expect_eq "live --job: ends by itself at the job's end" 1 "$(grep -c 'ended by job-ended' "$T/cerr")"
else
    fail "live --job capture" "$(head -3 "$T/cerr")"
fi
for map in job.csv job.lst; do
    fst-report --map="$T/$map" --timed=all --format=csv "$T/live.trace" > "$T/r.csv" 2> "$T/rerr"
    expect_eq "live --job, --map=$map only: the load point found ($LP) and the job's space named" 1 \
        "$(grep -c "loaded at $LP (.*), run in address space 00022000 (CR1)" "$T/rerr")"
    expect_eq "live --job, --map=$map only: the profile exact (R=$R, K=$K)" "$(want $R)" "$(got "$T/r.csv")"
done
expect_eq "the storage image (real storage) overruled by where the space ran it" 1 \
    "$(grep -c 'the storage image holds .* at '"$(printf '%X' $((0x30000 + JOFF)))"', but no address space ran it there' "$T/rerr")"

# ---- the same job from a log: saved, and piped ----
fst-capture --from-log="$T/job.log" --job=FSTJOB -o "$T/log.trace" 2> "$T/cerr"
fst-report --map="$T/job.csv" --timed=all --format=csv "$T/log.trace" > "$T/r.csv" 2> "$T/rerr"
expect_eq "--from-log --job (no image): the profile exact" "$(want $R)" "$(got "$T/r.csv")"
fst-capture --from-log=- --job=fstjob -o "$T/pipe.trace" < "$T/job.log" 2> "$T/cerr"
fst-report --map="$T/job.lst" --timed=all --format=csv "$T/pipe.trace" > "$T/r.csv" 2> "$T/rerr"
expect_eq "a pipe, --job=fstjob (lower case): the profile exact" "$(want $R)" "$(got "$T/r.csv")"
fst-report --map="$T/job.csv" --timed=all --format=csv --meta "$T/live.trace" > "$T/base.csv" 2> /dev/null
expect_ok "fst-diff: the live capture's csv against the trace from the log: the same (placed and the space chosen as fst-report does)" \
    fst-diff --map="$T/job.csv" --timed=all "$T/base.csv" "$T/log.trace"
expect_fail "--job of a job the log never starts: an error naming it, and the job start the log showed" 2 \
    "no '\\\$HASP373 OTHERJOB STARTED' in [0-9]+ lines.*the last job start it showed: '\\\$HASP373 FSTJOB +STARTED - INIT" \
    fst-capture --from-log="$T/job.log" --job=OTHERJOB -o "$T/x.trace"
grep -v 'HASP373' "$T/job.log" > "$T/nostart.log"
expect_fail "--job, a log with no job start at all: said so" 2 "no '\\\$HASP373 FSTJOB STARTED' in [0-9]+ lines.*it showed no job start \\(\\\$HASP373\\), its first line: '.+'" \
    fst-capture --from-log="$T/nostart.log" --job=FSTJOB -o "$T/x.trace"
expect_fail "--job: a name that is no job name" 2 "job name" fst-capture --from-log="$T/job.log" --job=TOOLONGNAME -o "$T/x.trace"

# ---- a log that holds two runs of the job (TK4-'s log grows all session): the runs named,
# the last taken, --run=N another; --follow does not return a run that had ended already ----
A=$(( 1 + RANDOM % 3 ))
mkdir -p "$T/tw"
# a Hercules of the user's, its whole session traced into its log (console at 009)
printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\n000C 3505 /dev/null\n0009 3215-C /\n' \
    > "$T/tw/h.cnf"
printf 'hao tgt HHCCP011I\nhao cmd quit\ntraceopt noregs\nt+\nipl %s/tw/two.ins\n' "$T" > "$T/tw/h.rc"
# Its automatic operator quits at the program's disabled wait (HHCCP011I). Once, under make
# check's load, it did not (3.13's operator reads the messages the trace floods the log
# with), and Hercules ran to its 120 s kill with the log whole: the log's end is watched
# too, and Hercules stopped once the wait is there and 10 s went by without its quit
traced_to_wait() {  # DIR LOG
    (cd "$1" && HERCULES_RC=h.rc exec setsid timeout -s KILL 120 hercules -d -f h.cnf > "$2" 2>&1 < /dev/null) &
    local pid=$! i
    for i in $(seq 600); do
        kill -0 "$pid" 2> /dev/null || break
        if tail -c 65536 "$2" 2> /dev/null | grep -q HHCCP011I; then
            for i in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
            kill -KILL -- -"$pid" 2> /dev/null
            break
        fi
        sleep 0.2
    done
    wait "$pid"
    grep -q HHCCP011I "$2"
}
if mvsjob_build "$T/tw/two" "$VPAGE" "$JOFF" "$K" "$ROUNDS" --defsym AGAIN="$A" &&
   traced_to_wait "$T/tw" "$T/two.log"; then
    fst-capture --from-log="$T/two.log" --job=FSTJOB -o "$T/last.trace" 2> "$T/cerr"
    expect_eq "two runs in the log: both named (lines, times), the last taken" 1 \
        "$(grep -c "two.log holds 2 runs of FSTJOB (1: lines [0-9]*-[0-9]* at 12.00.00; 2: lines [0-9]*-[0-9]* at 12.00.00): taking run 2, the last" "$T/cerr")"
    fst-report --map="$T/job.csv" --timed=all --format=csv "$T/last.trace" > "$T/r.csv" 2> /dev/null
    expect_eq "... the last run's figures ($A rounds)" "$(want "$A")" "$(got "$T/r.csv")"
    fst-capture -q --from-log="$T/two.log" --job=FSTJOB --run=1 -o "$T/first.trace"
    fst-report --map="$T/job.csv" --timed=all --format=csv "$T/first.trace" > "$T/r.csv" 2> /dev/null
    expect_eq "--run=1: the first run's figures ($R rounds)" "$(want "$R")" "$(got "$T/r.csv")"
    expect_fail "--run=3 of two: refused, the runs named" 2 "--run=3: .*two.log holds 2 runs of FSTJOB: 1: lines" \
        fst-capture --from-log="$T/two.log" --job=FSTJOB --run=3 -o "$T/x.trace"
    expect_fail "--follow on a log whose runs have ended: the old runs not returned (none comes)" 2 \
        "no '\\\$HASP373 FSTJOB STARTED'" fst-capture --follow --timeout=1 --from-log="$T/two.log" --job=FSTJOB -o "$T/x.trace"
    grep -q "taking run 3, the first not ended yet" "$T/err" && ok "... said: it waits for run 3" \
        || fail "... said: it waits for run 3" "$(head -3 "$T/err")"
else
    fail "assemble and capture mvsjob.s with AGAIN=$A"
fi
fst-capture --job=FSTJOB --hao > "$T/hao" 2> "$T/err"
expect_eq "--job --hao: the automatic-operator rules" "hao tgt \\\$HASP373 +FSTJOB +STARTED|hao cmd t+|hao tgt \\\$HASP395 +FSTJOB +ENDED|hao cmd t-" \
    "$(grep -v '^#' "$T/hao" | paste -sd'|')"

# ---- the whole run (no --job): the job's program ran in spaces A and C ----
if fst-capture -o "$T/all.trace" "$B.ins" 2> "$T/cerr"; then
    fst-report --map="$T/job.csv" --timed=all --format=csv "$T/all.trace" > "$T/r.csv" 2> "$T/rerr"
    expect_eq "whole run: both spaces that ran the program named" 1 \
        "$(grep -c "loaded at $LP (.*), run in address spaces 00022000, 00022080 (CR1)" "$T/rerr")"
    expect_eq "whole run: the profile of both (R + 1 runs)" "$(want $((R + 1)))" "$(got "$T/r.csv")"
    # the spaces' evidence, read a run at a time with loops and calls skipped (model/space_ev.c),
    # against its definition read record by record: the same placements and reports
    for m in job.csv other.csv; do
        fst-report --map="$T/$m" --timed=all --format=csv "$T/all.trace" > "$T/fast.csv" 2> "$T/fast.err"
        FST_SPACE_EV_RECORDS=1 fst-report --map="$T/$m" --timed=all --format=csv "$T/all.trace" > "$T/slow.csv" 2> "$T/slow.err"
        expect_eq "whole run, $m: the spaces' evidence read fast as read record by record (placement said, report)" \
            "$(cat "$T/slow.err" "$T/slow.csv")" "$(cat "$T/fast.err" "$T/fast.csv")"
    done
    fst-report --map="$T/job.csv" --timed=all --format=csv --space=all "$T/all.trace" > "$T/r.csv" 2> /dev/null
    expect_eq "whole run, --space=all: the map's names only where its program ran (the other program at the same addresses is other code)" \
        "$(want $((R + 1)))" "$(got "$T/r.csv")"
    fst-report --map="$T/other.csv" --timed=all --format=csv "$T/all.trace" > "$T/r.csv" 2> "$T/rerr"
    expect_eq "whole run, the other program's map: space B named, at the same load point" 1 \
        "$(grep -c "loaded at $LP (.*), run in address space 00022040 (CR1)" "$T/rerr")"
    expect_eq "whole run, the other program: XA called twice a run (R + 2 runs)" "$((2 * (R + 2)))" \
        "$(awk -F, '$1 == "XA" { print $3 }' "$T/r.csv")"
    fst-map --trace="$T/all.trace" "$T/job.csv" > "$T/m.csv" 2> "$T/merr"
    expect_eq "fst-map --trace: the routines where the job ran them" "MAIN,$LP" "$(awk -F, '$1 == "MAIN" { print $1 "," $3 }' "$T/m.csv")"
    fst-report --map="$T/job.lst" --timed=all --space=22040 --format=csv "$T/all.trace" > "$T/r.csv" 2> "$T/rerr"
    rc=$?
    expect_eq "--map=job.lst --space=22040, where no space ran the map's program: the space's candidates said, then an error (exit 2, no table of zeros)" \
        "2 1 1 0" "$rc $(grep -c "no address space ran it where the storage image holds .*space 00022040: " "$T/rerr") $(grep -c "error: .*no routine of .*job.lst ran in this trace" "$T/rerr") $(wc -c < "$T/r.csv")"
else
    fail "whole-run capture" "$(head -3 "$T/cerr")"
fi

# ---- --space: every figure of every format is the space's (the --job trace: space A and B ran) ----
TR=$T/live.trace
rep() { fst-report --map="$T/job.csv" --timed=all --space=22000 "$@" "$TR" 2> "$T/rerr"; }
rep --format=csv > "$T/s.csv"
expect_eq "--space=22000: csv" "$(want $R)" "$(got "$T/s.csv")"
rep --format=fortstat > "$T/s.out"
expect_eq "--space=22000: fortstat CALLED" "0 $((2 * R)) $((2 * R)) $R" \
    "$(awk '$1 ~ /MAIN|^WORK$|LEAF|WORK2/ { printf "%s%s", s, $2; s = " " }' "$T/s.out")"
rep --format=prof > "$T/s.out"
expect_eq "--space=22000: prof #Calls of WORK" "$((2 * R))" "$(awk '$NF == "WORK" { print $4 }' "$T/s.out")"
rep --format=callgrind > "$T/s.out"
expect_eq "--space=22000: callgrind calls of WORK, LEAF, WORK2" "$((2 * R)) $((2 * R)) $R" \
    "$(awk '/^cfn=/ { f = $0; sub(/^cfn=\([0-9]+\) ?/, "", f); if (f != "") name[$1] = f; cur = name[$1] }
            /^calls=/ { split($1, a, "="); n[cur] += a[2] } END { print n["WORK"] + 0, n["LEAF"] + 0, n["WORK2"] + 0 }' "$T/s.out")"
rep --format=json > "$T/s.json"
expect_eq "--space=22000: json routines' calls and self" "$(want $R)" \
    "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
for r in j["routines"]: print(r["name"], r["calls"], r["self_instructions"])' "$T/s.json" 2>&1)"
expect_eq "--space=22000: json lists only the space's tasks" "00022000" \
    "$(python3 -c 'import json,sys; print(" ".join(sorted({t["space"] for t in json.load(open(sys.argv[1]))["tasks"] if t["problem_instructions"]})))' "$T/s.json" 2>&1)"
rep --format=csv --by-task > "$T/s.out"
expect_eq "--space=22000: csv --by-task rows all of the space" "00022000" "$(awk -F, 'NR > 1 { print $9 }' "$T/s.out" | sort -u | paste -sd' ')"
rep --format=annotate --routine=WORK > "$T/s.out"
expect_eq "--space=22000: annotate, WORK's calls and its loop's executions" "calls $((2 * R)) $((2 * R * K))" \
    "$(awk '/^WORK / { for (i = 1; i < NF; i++) if ($i == "calls") c = $(i + 1) } / BCT / { print "calls " c, $(NF - 7) }' "$T/s.out" | head -1)"
rep --format=speedscope > "$T/s.out"
expect_eq "--space=22000: speedscope, one profile per run of the job" "$R" "$(grep -c '"type": "evented"' "$T/s.out")"
rep --format=maptime --exact "--request=NAME MAIN WORK2 0 0.0" > "$T/s.out"
m=$(awk '/SECONDS IN MACHINE RANGE/ { print $NF }' "$T/s.out")
expect_eq "--space=22000: MAPTIME's seconds are the space's (csv total - excluded, within 2 ns)" 1 \
    "$(awk -F, -v m="${m:-0}" '$1 == "(total)" { t = $6 } $1 == "(excluded)" { x = $6 }
        END { d = m - (t - x); print (m > 0 && d < 2e-9 && d > -2e-9) ? 1 : 0 }' "$T/s.csv")"
expect_fail "--space of a space the trace never shows: refused, naming the spaces it shows" 2 \
    "--space=12345: no task ran in that address space; the trace shows .*00022000 \\([0-9]+ instructions\\)" \
    fst-report --map="$T/job.csv" --load-point="$LP" --space=12345 "$TR"
expect_fail "--space that is not hex: refused" 2 "wants the hex CR1" fst-report --space=A-B "$TR"

# ---- many tasks: each run of JOBPROG is a task that ends (SVC 3) and is never seen to end ----
# (tasks.c indexes the suspended tasks; the replay and speedscope keep no full buffer per task)
MR=600
if mvsjob_build "$T/many" 0x50000 0x100 5 "$MR" && fst-capture -q --via=module -o "$T/many.trace" "$T/many.ins"; then
    fst-report --map="$T/many.job.csv" --timed=all --format=csv "$T/many.trace" > "$T/r.csv" 2> "$T/rerr"
    expect_eq "$MR rounds ($((2 * MR + 2)) tasks): the profile exact" "$(mvsjob_want $((MR + 1)) 5)" "$(got "$T/r.csv")"
    fst-report --map="$T/many.job.csv" --timed=all --format=csv --by-task "$T/many.trace" > "$T/r.csv" 2> "$T/rerr"
    expect_eq "$MR rounds: a task per run of the job's program, each with its figures (--by-task)" \
        "$((MR + 1)) $((MR + 1))" \
        "$(awk -F, '$1 == "MAIN" { m++ } $1 == "WORK" && $3 == 2 && $4 == 2 * (5 + 8) { w++ } END { print m + 0, w + 0 }' "$T/r.csv")"
    fst-report --map="$T/many.job.csv" --timed=all --format=speedscope -o "$T/many.json" "$T/many.trace" 2> "$T/rerr"
    expect_eq "$MR rounds: speedscope, a profile per run, each opening MAIN, WORK twice, LEAF twice, WORK2" \
        "$((MR + 1)) $((6 * (MR + 1)))" \
        "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["profiles"]; print(len(p), sum(1 for q in p for e in q["events"] if e["type"] == "O"))' "$T/many.json")"
else
    fail "assemble and capture mvsjob.s with $MR rounds"
fi

# ---- --attach's HTTP user and password: a file or the environment ----
printf 'fst:secret\n' > "$T/auth"
chmod 644 "$T/auth"
expect_fail "--http-auth: a file others may read is refused" 2 "others may read it" \
    fst-capture --sample --attach=127.0.0.1:9 --http-auth="$T/auth" -o "$T/x.trace"
expect_fail "--http-auth goes with --attach" 2 "goes with --attach" fst-capture --http-auth="$T/auth" "$B.ins"
chmod 600 "$T/auth"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$T/h"; cp "$B.lc" "$B.bin" "$B.ins" "$T/h/"
printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nHTTPPORT %s AUTH fst secret\n000C 3505 /dev/null\n' "$port" > "$T/h/h.cnf"
printf 'ipl m.ins\n' > "$T/h/h.rc"
(cd "$T/h" && HERCULES_RC=h.rc exec setsid sh -c 'echo $$ > h.pid; exec timeout -s KILL 30 hercules -d -f h.cnf' \
    > "$T/h/h.log" 2>&1 < /dev/null) &
hp=$!
for i in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2> /dev/null && break
    sleep 0.1
done
expect_fail "--attach to a server that wants a password, none given: HTTP status 401, said" 2 "401" \
    env -u FST_HTTP_AUTH fst-capture --sample --attach=127.0.0.1:$port --seconds=1 -o "$T/a.trace"
expect_ok "--attach --http-auth=FILE (mode 600): samples taken" \
    fst-capture --sample --attach=127.0.0.1:$port --seconds=1 --http-auth="$T/auth" -o "$T/a.trace"
expect_ok "--attach with \$FST_HTTP_AUTH: samples taken" \
    env FST_HTTP_AUTH=fst:secret fst-capture --sample --attach=127.0.0.1:$port --seconds=1 -o "$T/a.trace"
kill -KILL -- -"$(cat "$T/h/h.pid")" 2> /dev/null; wait "$hp" 2> /dev/null
echo "1..$N"
