#!/bin/bash
# tests/e2e/modjob.sh — an MVS job at module speed (issue 31): fst-capture --job=NAME
# through fst's module, on tests/programs/mvsjob.s, the MVS stand-in (its console at 009
# prints JES2's $HASP373 FSTJOB STARTED and $HASP395 FSTJOB ENDED around the job; the
# job's program runs in space A, another program at the same virtual addresses in space
# B, and after the job the job's program once more in space C; with AGAIN, the same job
# runs a second time at the end).
#   - attach (capture/modread/modjob.h): Hercules 3.13 and SDL 4.9 started as a user starts
#     them (LDMOD, FST_MODULE_OUT, LD_PRELOAD, the console at 009), `fst-capture --attach=FIFO
#     --job=FSTJOB` started before the job: the module waits for the job at full speed,
#     records from its $HASP373 to its $HASP395, and the capture ends by itself; Hercules runs
#     on to the program's end (the job's second run and all). The report with a
#     module-relative map alone (no image, no load point, no space) gives the job's program
#     exactly as constructed (mvsjob.s's head: R runs of the job), the other program and the
#     rerun after the job left out. Draws: the load point, K, ROUNDS, and when the job starts
#     (at once after IPL: microseconds after the module saw the reader; or after PRE runs of
#     the other program, long after) and who comes first (fst-capture, or Hercules running
#     for seconds before fst-capture attaches); FST_MODJOB="VPAGE JOFF K ROUNDS PRE AGAIN"
#     repeats one (at the timing its PRE says), FST_MODJOB_DRAWS=N draws more (3 by
#     default: one of each timing).
#   - live: fst-capture --job=FSTJOB PROGRAM.ins takes the module by default, under 3.13 and
#     4.9, the same figures, "ended by job-ended".
#   - refusals: a Hercules started without the interposer (no console line seen): one line,
#     exit 2, no trace; Ctrl-C while waiting: exit 130, no trace, the request file gone.
. "$(dirname "$0")/../lib.sh"
LIB=$FST_BIN/../lib
if ! command -v hercules > /dev/null || ! command -v s390x-linux-gnu-as > /dev/null || [ ! -f "$LIB/fst-hercules313.so" ]; then
    echo "ok 1 # SKIP hercules, binutils-s390x or the module missing"
    exit 0
fi
HERCS="3.13:hercules:fst-hercules313"
[ -n "${FST_HERCULES4:-}" ] && [ -f "$LIB/fst-hercules4.so" ] && HERCS="$HERCS 4.9:$FST_HERCULES4:fst-hercules4"

# herc DIR HERCULES MOD [noirq|stay]: Hercules started in DIR as a user starts it
# (tests/lib.sh herc_as_user), running DIR/p.ins with its console at 009 (noirq: without
# the interposer; stay: 3.13 stays up at the program's end). Sets hpid.
herc() {
    local irq=$LIB/$3-irq.so
    [ "${4:-}" = noirq ] && irq=
    herc_as_user "$1" "$1/p.ins" "$2" "$LIB/$3.so" "$irq" console "${4:-}"
}

# draw N: one system, captured through every Hercules; its figures checked. The timing by
# N: 1 fst-capture first, the job at once after IPL (microseconds after the module saw the
# reader at its load); 2 Hercules first, the system spinning until the operator's byte is
# set, which Hercules' automatic operator does at the module's word that it waits for the
# job: the job starts microseconds after the attach; 0 (N % 3) Hercules first, running the
# other program, fst-capture attached to it while it runs, long before the job (what a user
# does): the system runs the other program until the automatic operator sets the byte at
# the module's word that it waits for the job, then PRE runs more (1 000 000: half a second
# under 4.9), then the job. (A fixed PRE alone, the other program run 1 000 000 times from
# IPL, was over in 0.6 s under 4.9: on a loaded machine fst-capture came after the job and
# found Hercules gone.)
draw() {
    local n=$1 spec VPAGE JOFF K ROUNDS PRE AGAIN flag=()
    local pre=(1000000 0 $((20000 + RANDOM * 8)))
    spec=${FST_MODJOB:-$(printf '0x%X 0x%X %d %d %d %d' $(( (4 + RANDOM % 11) * 0x10000 + (RANDOM % 14) * 0x1000 )) \
        $(( (RANDOM % 256) * 8 )) $(( 5 + RANDOM % 60 )) $(( 1 + RANDOM % 4 )) \
        "${pre[$((n % 3))]}" $(( 1 + RANDOM % 2 )))}
    read -r VPAGE JOFF K ROUNDS PRE AGAIN <<< "$spec"
    echo "# FST_MODJOB=\"$spec\""
    local d=$T/d$n
    pre=()
    mkdir -p "$d"
    [ "$PRE" -gt 0 ] && pre=(--defsym PRE="$PRE")
    [ $((n % 3)) = 2 ] && flag=(--defsym WAITFLAG=1)
    [ $((n % 3)) = 0 ] && flag=(--defsym BUSYFLAG=1)
    # p: the system the timing asks for; l, what live runs (no operator there): p, or p
    # built without the flag
    local l=$d/p
    [ ${#flag[@]} -gt 0 ] && l=$d/l
    if ! mvsjob_build "$d/p" "$VPAGE" "$JOFF" "$K" "$ROUNDS" "${pre[@]}" "${flag[@]}" --defsym AGAIN="$AGAIN" ||
        { [ "$l" = "$d/l" ] && ! mvsjob_build "$d/l" "$VPAGE" "$JOFF" "$K" "$ROUNDS" "${pre[@]}" --defsym AGAIN="$AGAIN"; }; then
        fail "assemble mvsjob.s ($spec)"
        return
    fi
    local want hv h mod hopt
    want=$(mvsjob_want "$ROUNDS" "$K")
    for hv in $HERCS; do
        IFS=: read -r v h mod <<< "$hv"
        local w=$d/$v
        mkdir -p "$w"
        cp "$d/p.lc" "$d/p.bin" "$d/p.ins" "$w/"
        local cp
        if [ $((n % 3)) != 1 ]; then # Hercules first: spinning (2) or busy (0) until the module waits for the job
            herc "$w" "$h" "$mod" "rc:hao tgt waiting for job FSTJOB\nhao cmd r 300=01"
            # the module says "no reader" as it loads, before Hercules reads its script: attached
            # then, it said "waiting for job" before the automatic operator was there to see it,
            # and the system spun for good (seen twice). So also the script's last line (the
            # IPL: its hao lines are placed) and the operator's thread (3.13 HHCAO001I, 4.x
            # hao_thread) first.
            for _ in $(seq 200); do
                grep -q 'HHCFS005I.*no reader' "$w/h.log" 2> /dev/null && grep -q 'ipl .*p\.ins' "$w/h.log" &&
                    grep -Eq "HHCAO001I|'hao_thread' started" "$w/h.log" && break
                sleep 0.05
            done
            fst-capture --attach="$w/mod.fifo" --job=FSTJOB -o "$w/a.trace" 2> "$w/cerr" &
            cp=$!
        else # fst-capture first (it makes the FIFO and the request), then Hercules
            fst-capture --attach="$w/mod.fifo" --job=FSTJOB -o "$w/a.trace" 2> "$w/cerr" &
            cp=$!
            for _ in $(seq 50); do [ -p "$w/mod.fifo" ] && break; sleep 0.1; done
            herc "$w" "$h" "$mod"
        fi
        if wait "$cp"; then
            expect_eq "$v, attach --job ($spec): ends by itself at the job's end" 1 "$(grep -c 'ended by job-ended' "$w/cerr")"
        else
            fail "$v, attach --job ($spec): captured" "$(head -3 "$w/cerr")"
        fi
        wait "$hpid"
        expect_eq "$v, attach --job: Hercules ran on to the program's end (the job's second run logged)" 2 \
            "$(grep -ac 'HASP373 FSTJOB' "$w/h.log")"
        expect_eq "$v, attach --job: the module waited for the job, then recorded it" "waiting|started" \
            "$(grep -a 'HHCFS00[57]I' "$w/h.log" | grep -o 'waiting for job FSTJOB\|job FSTJOB started' | awk '{ print $1 == "waiting" ? $1 : $NF }' | paste -sd'|')"
        fst-report --map="$d/p.job.csv" --timed=all --format=csv "$w/a.trace" > "$w/r.csv" 2> "$w/rerr"
        expect_eq "$v, attach --job, a module-relative map alone: the job's program exact (R=$ROUNDS, K=$K)" \
            "$want" "$(mvsjob_got "$w/r.csv")"
        fst-dump --summary "$w/a.trace" > "$w/sum" 2>&1
        expect_eq "$v, attach --job: the trace says the job's window, whole" "window=job|job=FSTJOB|complete=1|end=job-ended" \
            "$(grep -o '^header.window=.*\|^header.job=.*\|^footer.complete=.*\|^footer.end=.*' "$w/sum" | sed 's/^header\.//; s/^footer\.//' | paste -sd'|')"
        fst-report --map="$d/p.other.csv" --timed=all --format=csv "$w/a.trace" > "$w/o.csv" 2> /dev/null
        expect_eq "$v, attach --job: the other program (space B) in the job's window: XA twice a round" \
            "$((2 * ROUNDS))" "$(awk -F, '$1 == "XA" { print $3 }' "$w/o.csv")"
        [ -e "$w/mod.fifo.req" ] && fail "$v: the request file removed" || ok "$v: the request file removed"
        # live: the module by default, on the system without the operator's byte ($l); twice
        # a run of draws (timings 1 and 0) is enough
        [ $((n % 3)) = 2 ] && continue
        hopt=()
        [ "$v" = 4.9 ] && hopt=(--hercules="$h")
        if fst-capture "${hopt[@]}" --job=FSTJOB -o "$w/l.trace" "$l.ins" 2> "$w/lerr"; then
            expect_eq "$v, live --job: through the module, ended by job-ended" 1 \
                "$(grep -c "ended by job-ended.*fst's module" "$w/lerr")"
            fst-report --map="$l.job.lst" --timed=all --format=csv "$w/l.trace" > "$w/l.csv" 2> /dev/null
            expect_eq "$v, live --job, the IEWL listing alone: the job's program exact" "$want" "$(mvsjob_got "$w/l.csv")"
        else
            fail "$v, live --job" "$(head -8 "$w/lerr")"
        fi
        if [ "$n" = 1 ]; then # a name that never starts: the module sent no line (it waits for the job's)
            expect_fail "$v, live --job of a name that never starts: exit 2, said" 2 \
                "no '\\\$HASP373 NOTME STARTED' in 0 lines of its console \\(ended by disabled-wait\\): no trace" \
                fst-capture "${hopt[@]}" --job=NOTME -o "$w/n.trace" "$l.ins"
        fi
    done
}

if [ -n "${FST_MODJOB:-}" ]; then  # the one draw, at the timing its PRE was drawn for (draw)
    read -r _ _ _ _ p _ <<< "$FST_MODJOB"
    case $p in 0) draw 1 ;; 1000000) draw 3 ;; *) draw 2 ;; esac
else
    for n in $(seq "${FST_MODJOB_DRAWS:-3}"); do
        draw "$n"
    done
fi

# ---- --console=FILE: a console the module cannot see, its lines read from a file that
# grows (here Hercules' own log file): the window begins when the start line reaches the
# file and the module has attached, ends when the end line has; said in the trace ----
d=$T/c
mkdir -p "$d"
if mvsjob_build "$d/p" 0x50000 0x100 4000 8000 --defsym PRE=20000; then
    : > "$d/h.log"
    fst-capture --attach="$d/mod.fifo" --job=FSTJOB --console="$d/h.log" --timeout=30 -o "$d/c.trace" 2> "$d/cerr" &
    cp=$!
    for _ in $(seq 50); do grep -q 'following' "$d/cerr" && break; sleep 0.1; done
    herc_as_user "$d" "$d/p.ins" hercules "$LIB/fst-hercules313.so" "$LIB/fst-hercules313-irq.so" console
    wait "$cp"
    rc=$?
    wait "$hpid"
    fst-dump --summary "$d/c.trace" > "$d/sum" 2>&1
    expect_eq "--console=FILE: the job's window, its edges said to be late, ended by the end line" \
        "0|window=job|job=FSTJOB|job-console=$d/h.log|late|end=job-ended" \
        "$rc|$(sed -n 's/^header.window=/window=/p; s/^header.job=/job=/p; s/^header.job-console=/job-console=/p; s/^header.job-edges=\(late\).*/\1/p; s/^footer.end=/end=/p' "$d/sum" | paste -sd'|')"
    n=$(sed -n 's/^count.insn=//p' "$d/sum")
    # the job's 8000 x 8100, and what the system runs until the end line reaches the file
    # (its edges are late: the console's I/O, the supervisor; seen up to 217 000), against the
    # system busy before the job (PRE=20000 more runs of OTHER), which the window leaves out
    [ "${n:-0}" -gt 0 ] && [ "$n" -lt $((8000 * 8100 + 1000000)) ] && ok "--console=FILE: a part of the job's instructions ($n)" \
        || fail "--console=FILE: a part of the job's instructions" "$n"
    # a console file that lags: the end line reaches it a second after the system's disabled
    # wait has reached fst-capture (a printer's file, a logger behind on a busy machine): the
    # window still ends by the end line (the file is read on, up to 2 s), not by the wait
    d=$T/c2
    mkdir -p "$d"
    cp "$T/c/p.lc" "$T/c/p.bin" "$T/c/p.ins" "$d/"
    : > "$d/h.log"
    : > "$d/con.log"
    setsid sh -c 'tail -n +1 -F "$1" 2> /dev/null | awk '"'"'/HASP395/ { system("sleep 1") } { print; fflush() }'"'"'' \
        sh "$d/h.log" >> "$d/con.log" &
    tp=$!
    fst-capture --attach="$d/mod.fifo" --job=FSTJOB --console="$d/con.log" --timeout=30 -o "$d/c.trace" 2> "$d/cerr" &
    cp=$!
    for _ in $(seq 50); do grep -q 'following' "$d/cerr" && break; sleep 0.1; done
    herc_as_user "$d" "$d/p.ins" hercules "$LIB/fst-hercules313.so" "$LIB/fst-hercules313-irq.so" console
    wait "$cp"
    rc=$?
    wait "$hpid"
    kill -- -"$tp" 2> /dev/null
    wait "$tp" 2> /dev/null
    fst-dump --summary "$d/c.trace" > "$d/sum" 2>&1
    expect_eq "--console=FILE whose end line comes after the system's end: ended by the end line, whole" \
        "0|complete=1|end=job-ended" \
        "$rc|$(sed -n 's/^footer.complete=/complete=/p; s/^footer.end=/end=/p' "$d/sum" | paste -sd'|')"
else
    fail "assemble mvsjob.s (--console)"
fi

# ---- refusals ----
d=$T/e
mkdir -p "$d"
mvsjob_build "$d/p" 0x50000 0x100 20 2 --defsym PRE=400000 || fail "assemble mvsjob.s"
fst-capture --attach="$d/mod.fifo" --job=FSTJOB --timeout=20 -o "$d/a.trace" 2> "$d/cerr" &
cp=$!
for _ in $(seq 50); do [ -p "$d/mod.fifo" ] && break; sleep 0.1; done
herc "$d" hercules fst-hercules313 noirq
wait "$cp"
rc=$?
expect_eq "attach --job to a Hercules without the interposer: exit 2, said (no console line seen)" "2 1" \
    "$rc $(grep -c 'sees no console line.*LD_PRELOAD' "$d/cerr")"
[ ! -e "$d/a.trace" ] && [ ! -e "$d/mod.fifo.req" ] && ok "... no trace, no request left" || fail "... no trace, no request left"
kill -KILL -- -"$hpid" 2> /dev/null
{ wait "$hpid"; } 2> /dev/null   # (the shell says "Killed" otherwise)

# a job that never starts: Hercules ends (the FIFO closed), or stays and the user gives up
fst-capture --attach="$d/mod.fifo" --job=NOJOB --timeout=20 -o "$d/n.trace" 2> "$d/cerr" &
cp=$!
sleep 0.5
herc "$d" hercules fst-hercules313
wait "$cp"
rc=$?
wait "$hpid"
expect_eq "attach --job of a job that never starts, Hercules ends: exit 2, said" "2 1" \
    "$rc $(grep -c -- '--job=NOJOB: the job did not start while fst-capture waited .*fifo-closed' "$d/cerr")"
[ ! -e "$d/n.trace" ] && [ ! -e "$d/mod.fifo.req" ] && ok "... no trace, no request left" || fail "... no trace, no request left"
rm -f "$d/h.log"
herc "$d" hercules fst-hercules313 stay
for _ in $(seq 100); do grep -q 'HHCCP011I' "$d/h.log" 2> /dev/null && break; sleep 0.1; done
fst-capture --attach="$d/mod.fifo" --job=NOJOB -o "$d/b.trace" 2> "$d/cerr" &
cp=$!
for _ in $(seq 50); do grep -q 'waiting for job NOJOB' "$d/h.log" && break; sleep 0.1; done
kill -INT "$cp"
wait "$cp"
rc=$?
expect_eq "attach --job, Ctrl-C while waiting for the job: exit 130, said" "130 1" \
    "$rc $(grep -c 'did not start while fst-capture waited .*a signal' "$d/cerr")"
[ ! -e "$d/b.trace" ] && [ ! -e "$d/mod.fifo.req" ] && ok "... no trace, no request left" || fail "... no trace, no request left"
sleep 0.5
expect_eq "... and the module saw the reader go" 1 "$(grep -c 'went away before the job started' "$d/h.log")"
kill -KILL -- -"$hpid" 2> /dev/null
{ wait "$hpid"; } 2> /dev/null   # (the shell says "Killed" otherwise)
echo "1..$N"
