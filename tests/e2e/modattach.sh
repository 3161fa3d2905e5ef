#!/bin/bash
# tests/e2e/modattach.sh — fst-capture --via=module --attach=FIFO: windows of a running
# system (capture/modread/modattach.h, docs/module.md "A running system"). Real Hercules
# started here as a user starts theirs: LDMOD in its configuration, FST_MODULE_OUT naming
# a FIFO, LD_PRELOAD of the interposer; no fst-capture runs it.
#   - shares.s with 1 200 000 rounds (4.8 G instructions, tens of seconds), under 3.13 and,
#     when built, SDL Hercules 4.9: attach for 2 s, detach, attach again for 2 s. Each
#     window is readable, marked (window=attach, end=seconds, complete), and exact by the
#     construction: ALPHA, BETA and GAMMA take 2006, 1206 and 806 instructions a call, so
#     each routine's self instructions are calls x K, less at most one call cut at the
#     window's end (a call cut at its start is outside: never entered in the window); the
#     calls 1 : 1 : 1 within one; MAIN (never entered in the window: it is outside) 7 a
#     round. Hercules keeps running between and after the windows and reaches the
#     program's disabled wait, and the module says each reader came and went. Under 3.13 a
#     third window ended by Ctrl-C: exit 0, whole, end=interrupted.
#   - entryloop.s under 3.13, a window of 1 s that begins (97 % of the time) at a routine's
#     entry: that routine is not taken for the mainline (replay.c insn(), x->midrun).
#   - tasks.s with SPINX under 3.13 (tasks B and C call ROUTX without end, whose first
#     instruction loops to itself): each task's first dispatch in a window of 1 s is at
#     ROUTX's entry; R14, a return address into JOBMAN, says a call is in progress, so
#     ROUTX is not the task's mainline (replay_task.c); and, the map naming no mainline,
#     each task's first call from JOBMAN is counted as every other (replay_stack.c: the
#     module's HELLO said the CPU had run, " ran=1"; in a window attached before the IPL
#     the first routine a task enters with BALR 14 is its mainline, as in a trace from the
#     start).
#   - a generated multitasking system (tests/os, seed 28): Hercules started with the module
#     and no reader; fst-capture attaches; the automatic operator IPLs the system when the
#     module says a reader opened its FIFO; the window runs to the system's end (its
#     disabled wait). Every task's figures as the generator built them (tests/os/run.py
#     --reports-only on this trace), although the trace begins at the first record after
#     IPL (SYNC), not at IPL; the trace says so (window-start=ipl: HELLO's " ran=0").
#   - errors: --attach to a path that is not a FIFO; no HELLO within --timeout (the message
#     says how to start Hercules with the module); neither leaves a trace.
. "$(dirname "$0")/../lib.sh"
P=$FST_ROOT/tests/programs
MOD=$FST_BIN/../lib/fst-hercules313.so
IRQ=$FST_BIN/../lib/fst-hercules313-irq.so
MOD4=$FST_BIN/../lib/fst-hercules4.so
IRQ4=$FST_BIN/../lib/fst-hercules4-irq.so
if [ ! -f "$MOD" ] || [ ! -f "$IRQ" ]; then
    echo "ok 1 # SKIP no module (scripts/hercules313.sh, make)"
    exit 0
fi

# ---- errors: nothing left behind ----
: > "$T/plain"
expect_fail "--attach to a file that is not a FIFO: one line, exit 2" 2 'plain: not a FIFO' \
    fst-capture --via=module --attach="$T/plain" -o "$T/e1.trace"
[ ! -e "$T/e1.trace" ] && ok "... and no trace" || fail "... and no trace"
expect_eq "... in one line" 1 "$(wc -l < "$T/err")"
expect_fail "--attach with no module writing: no HELLO in --timeout=1, how to start Hercules said" 2 \
    "no word from fst's module in 1 s.*LDMOD /ABS/PATH/lib/fst-hercules313.so.*FST_MODULE_OUT=.*LD_PRELOAD=" \
    fst-capture --via=module --attach="$T/nobody.fifo" --timeout=1 -o "$T/e2.trace"
[ ! -e "$T/e2.trace" ] && [ -p "$T/nobody.fifo" ] && ok "... no trace; the FIFO made (it stays, for Hercules)" \
    || fail "... no trace; the FIFO made (it stays, for Hercules)"
expect_fail "--attach with --numcpu: refused (that Hercules' own)" 2 'do not go with it' \
    fst-capture --via=module --attach="$T/nobody.fifo" --numcpu=2 -o "$T/e3.trace"

# ---- shares.s, a long run ----
prog_build "$T/long" "$P/shares.s" --defsym ROUNDS=1200000 || fail "assemble shares.s with ROUNDS=1200000"
# the map a linkage editor gives: the module at its load point, MAIN its entry
printf 'name,type,origin,length\nSHARES,MODULE,0,100\nMAIN,EP,0,\nMAIN,SD,0,58\nALPHA,SD,58,30\nBETA,SD,88,30\nGAMMA,SD,B8,40\n' \
    > "$T/long.csv"

# herc NAME MODULE IRQ [HERCULES]: start Hercules in $T/NAME, as a user would, running
# long.ins (PROG.ins with PROG set); quits at its disabled wait; its own process group
herc() {
    local d=$T/$1 p=${PROG:-long}
    mkdir -p "$d"; cp "$T/$p.lc" "$T/$p.bin" "$T/$p.ins" "$d/"
    herc_as_user "$d" "$d/$p.ins" "${4:-hercules}" "$2" "$3"
    for _ in $(seq 150); do grep -q 'HHCFS005I.*no reader' "$d/h.log" 2> /dev/null && break; sleep 0.2; done
}

# window NAME TRACE: the checks of one window of shares.s
window() {
    local name=$1 tr=$2 csv
    expect_eq "$name: marked a window of a running system, whole, ended by --seconds" \
        "footer.complete=1 footer.end=seconds header.window=attach" \
        "$(fst-dump --summary "$tr" 2> /dev/null | grep -E '^(header.window(-start)?|footer.complete|footer.end)=' | sort | paste -sd' ')"
    csv=$(fst-report --format=csv --map="$T/long.csv" --load-point=20020 "$tr" 2> "$T/rep.err")
    if grep -Eiq 'error|incomplete|AddressSanitizer|runtime error' "$T/rep.err"; then
        fail "$name: fst-report reads it, no error" "$(head -5 "$T/rep.err")"
    else
        ok "$name: fst-report reads it, no error"
    fi
    echo "$csv" | sed 's/^/# /'
    # self = calls x K, less at most one call cut at the end; calls 1:1:1 within one;
    # outside: MAIN's 7 a round and the call cut at the start (< 2006). At least 100 calls
    # (a window of 2 s holds some 100000 on a quiet machine; beside two busy loops 3.13's CPU
    # thread, at its default CPUPRIO 15 (nice 15), ran 912 in one)
    echo "$csv" | awk -F, -v name="$name" '
        $1 == "ALPHA" { k["ALPHA"] = 2006 } $1 == "BETA" { k["BETA"] = 1206 } $1 == "GAMMA" { k["GAMMA"] = 806 }
        $1 in k { c[$1] = $3; s[$1] = $4 }
        $1 == "(outside)" { out = $4 }
        END {
            bad = 0
            if (length(k) < 3) { print "# not every routine in the report"; bad = 1 }
            for (r in k) {
                if (c[r] < 100 || s[r] > c[r] * k[r] || s[r] <= (c[r] - 1) * k[r]) { print "# " r ": " c[r] " calls, " s[r] " self"; bad = 1 }
                if (c[r] - c["ALPHA"] > 1 || c["ALPHA"] - c[r] > 1) { print "# calls not 1:1:1"; bad = 1 }
            }
            n = c["ALPHA"]
            if (out < 7 * (n - 1) || out > 7 * (n + 1) + 2006) { print "# outside " out " for " n " rounds"; bad = 1 }
            exit bad }' > "$T/chk" &&
        ok "$name: every routine calls x its instructions a call (one call cut at each edge at most), calls 1:1:1" ||
        fail "$name: every routine calls x its instructions a call (one call cut at each edge at most), calls 1:1:1" \
            "$(cat "$T/chk")"
}

# attach_twice NAME: two windows of the Hercules started by herc, then its end
attach_twice() {
    local name=$1 d=$T/$1 rc
    if ! grep -q 'HHCFS005I.*no reader' "$d/h.log" 2> /dev/null; then
        fail "$name: Hercules runs with the module waiting for a reader" "$(tail -5 "$d/h.log")"
        kill -KILL -- -$hpid 2> /dev/null; wait $hpid 2> /dev/null
        return
    fi
    ok "$name: Hercules runs with the module waiting for a reader"
    sleep 1
    # the two windows first (the program runs some 20 s), their reports after
    expect_ok "$name: attach for 2 s" fst-capture --via=module --attach="$d/mod.fifo" --seconds=2 -o "$d/w1.trace"
    grep 'a window of the running system' "$T/err" | sed 's/^/# /'
    sleep 1
    expect_ok "$name: attach again for 2 s" fst-capture --via=module --attach="$d/mod.fifo" --seconds=2 -o "$d/w2.trace"
    grep 'a window of the running system' "$T/err" | sed 's/^/# /'
    if [ "$name" = h313 ]; then   # Ctrl-C ends a window without --seconds: exit 0, whole
        sleep 1
        fst-capture --via=module --attach="$d/mod.fifo" -o "$d/w3.trace" > "$T/out" 2> "$T/err" & cpid=$!
        for _ in $(seq 100); do [ -e "$d/w3.trace" ] && break; sleep 0.05; done
        sleep 1
        kill -INT $cpid; wait $cpid; rc=$?
        expect_eq "$name: Ctrl-C ends a window: exit 0, whole, ended by the signal" \
            "0 footer.complete=1 footer.end=interrupted" \
            "$rc $(fst-dump --summary "$d/w3.trace" 2> /dev/null | grep -E '^footer.(complete|end)=' | sort | paste -sd' ')"
    fi
    window "$name, window 1" "$d/w1.trace"
    window "$name, window 2" "$d/w2.trace"
    wait $hpid; rc=$?
    expect_eq "$name: Hercules ran on to the program's disabled wait and quit" "0 1" \
        "$rc $(grep -Ec 'HHCCP011I CPU|HHC00809I Processor' "$d/h.log")"
    local n=2
    [ "$name" = h313 ] && n=3
    expect_eq "$name: every reader came and went" "$n $n" \
        "$(grep -c 'HHCFS005I.*a reader opened' "$d/h.log") $(grep -c 'HHCFS006I' "$d/h.log")"
}

herc h313 "$MOD" "$IRQ"
attach_twice h313

# ---- a window begun at a routine's entry (entryloop.s: 97 % of its taken branches are
# SPIN's entry, where a window begins): the routine is not made the mainline (which never
# returns: every instruction after charged to it), it is never entered, as when a window
# begins inside it. SPIN 101 instructions a call, MAIN (outside: never entered) 4 a round.
prog_build "$T/spin" "$P/entryloop.s" --defsym ROUNDS=2000000000 || fail "assemble entryloop.s"
printf 'name,type,origin,length\nSPINS,MODULE,0,178\nMAIN,EP,0,\nMAIN,SD,0,48\nSPIN,SD,48,8\n' > "$T/spin.csv"
PROG=spin herc e313 "$MOD" "$IRQ"
if grep -q 'HHCFS005I.*no reader' "$T/e313/h.log" 2> /dev/null; then
    # (the module waits for a reader from before the IPL: on a busy machine an attach at
    # once came before the program's first instruction, and the window, window-start=ipl,
    # was the run from its start, MAIN rightly its mainline)
    sleep 2
    expect_ok "entry: attach for 1 s" fst-capture --via=module --attach="$T/e313/mod.fifo" --seconds=1 -o "$T/e313/w.trace"
    kill -KILL -- -$hpid 2> /dev/null; wait $hpid 2> /dev/null
    first=$(fst-dump "$T/e313/w.trace" 2> /dev/null | sed -n 's/^insn cpu=0 addr=\([0-9A-F]*\) .*/\1/p' | head -1)
    echo "# the window's first instruction: $first (SPIN's entry: 20068)"
    fst-report --format=csv --timed=all --map="$T/spin.csv" --load-point=20020 "$T/e313/w.trace" 2> /dev/null |
        tee "$T/e313/w.csv" | sed 's/^/# /'
    awk -F, '$1 == "SPIN" { c = $3; s = $4 } $1 == "MAIN" { m = $4 } $1 == "(outside)" { o = $4 }
        END { exit !(c >= 100 && s <= c * 101 && s > (c - 1) * 101 && m == 0 && o >= 4 * (c - 1) && o <= 4 * (c + 1) + 101) }' \
        "$T/e313/w.csv" &&
        ok "entry: SPIN 101 instructions a call, MAIN never entered (outside 4 a round)" ||
        fail "entry: SPIN 101 instructions a call, MAIN never entered (outside 4 a round)"
else
    fail "entry: Hercules runs with the module waiting for a reader" "$(tail -5 "$T/e313/h.log")"
    kill -KILL -- -$hpid 2> /dev/null; wait $hpid 2> /dev/null
fi

# ---- a task resumed at a routine's entry (tasks.s --defsym SPINX=1: tasks B and C call
# ROUTX without end, whose first instruction loops to itself, and the CPU timer preempts
# them every 1 ms, nearly always there): each task's first dispatch in the window is at
# ROUTX's entry, R14 a return into JOBMAN. ROUTX is not made the task's mainline (which
# never returns: all its task's instructions charged to it), it is never entered
# (replay_task.c). ROUTX 1002 instructions a call, every call counted, the task's first from
# JOBMAN too (a window of a running system: no mainline begins in it, replay_stack.c): its
# self instructions at most calls x 1002, less than that by under a call for each task's
# call cut at the window's end (the call cut at its start is outside: never entered);
# JOBMAN (outside: never entered) 3 a round.
prog_build "$T/sx" "$P/tasks.s" --defsym SPINX=1 &&
s390x-linux-gnu-nm -P "$T/sx.elf" | grep ' T ' > "$T/sx.nm" || fail "assemble tasks.s with SPINX=1"
PROG=sx herc t313 "$MOD" "$IRQ"
if grep -q 'HHCFS005I.*no reader' "$T/t313/h.log" 2> /dev/null; then
    sleep 1
    expect_ok "tasks: attach for 1 s" fst-capture --via=module --attach="$T/t313/mod.fifo" --seconds=1 -o "$T/t313/w.trace"
    kill -KILL -- -$hpid 2> /dev/null; wait $hpid 2> /dev/null
    fst-report --format=csv --timed=all --cpu=problem --map="$T/sx.nm" "$T/t313/w.trace" 2> "$T/t313/w.err" |
        tee "$T/t313/w.csv" | sed 's/^/# /'
    sed 's/^/# /' "$T/t313/w.err"
    awk -F, '$1 == "ROUTX" { c = $3; s = $4 } $1 == "JOBMAN" { m = $4 } $1 == "(outside)" { o = $4 }
        END { exit !(c >= 100 && s <= c * 1002 && s > (c - 2) * 1002 && m == 0 && o >= 3 * (c - 2) && o <= 3 * (c + 4) + 2 * 1002) }' \
        "$T/t313/w.csv" &&
        ok "tasks: ROUTX 1002 instructions a call, every call counted, JOBMAN never entered (outside 3 a round)" ||
        fail "tasks: ROUTX 1002 instructions a call, every call counted, JOBMAN never entered (outside 3 a round)"
else
    fail "tasks: Hercules runs with the module waiting for a reader" "$(tail -5 "$T/t313/h.log")"
    kill -KILL -- -$hpid 2> /dev/null; wait $hpid 2> /dev/null
fi

if [ -n "${FST_HERCULES4:-}" ] && [ -f "$MOD4" ] && [ -f "$IRQ4" ]; then
    herc h49 "$MOD4" "$IRQ4" "$FST_HERCULES4"
    attach_twice h49
else
    echo "# skip: SDL Hercules 4.9 or lib/fst-hercules4.so missing (scripts/hercules4.sh, scripts/hercules4.sh --src)"
fi

# ---- a generated multitasking system, its window from the first record after IPL ----
if command -v python3 > /dev/null; then
    W=$T/os; s=28; d=$W/s$s
    mkdir -p "$d"
    python3 "$FST_ROOT/tests/os/osgen.py" --seed $s -o "$d" --budget 20000-23000 > /dev/null 2> "$T/osgen.err" &&
    prog_build "$d/os$s" "$d/os$s.s" || fail "generate and build os$s" "$(cat "$T/osgen.err")"
    printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\nLDMOD %s\n000C 3505 /dev/null\n' \
        "$MOD" > "$d/h.cnf"
    # the automatic operator IPLs the system once the module has a reader
    printf 'hao tgt a reader opened\nhao cmd ipl %s/os%s.ins\nhao tgt HHCCP011I\nhao cmd quit\n' "$d" $s > "$d/h.rc"
    # the module's phases of 3 branches (FSTMOD_ENV_PHASE): copies looked for, then not
    # (BR records without a look), over and over, under a system's interruptions and dispatches
    (cd "$d" && FST_MODULE_OUT=$d/mod.fifo LD_PRELOAD=$IRQ HERCULES_RC=$d/h.rc FST_MODULE_TEST_PHASE=3 \
        exec setsid timeout -s KILL 120 hercules -d -f h.cnf > h.log 2>&1 < /dev/null) &
    hpid=$!
    # the automatic operator's rules are set once Hercules has read its start-up script
    for _ in $(seq 150); do grep -q 'HHCPN013I' "$d/h.log" 2> /dev/null && break; sleep 0.2; done
    expect_ok "os$s: attach before IPL, the window to the system's end" \
        fst-capture --via=module --attach="$d/mod.fifo" --timeout=30 --image="$d/os$s.ins" -o "$d/module.live.trace"
    grep 'a window of the running system' "$T/err" | sed 's/^/# /'
    expect_eq "os$s: ended by the system's disabled wait, marked begun before any instruction ran" \
        "footer.end=disabled-wait header.window-start=ipl" \
        "$(fst-dump --summary "$d/module.live.trace" 2> /dev/null | grep -E '^(footer.end|header.window-start)=' | sort | paste -sd' ')"
    wait $hpid
    expect_eq "os$s: phases of 3 branches, some written without a look for copies (HHCFS008I)" 1 \
        "$(grep -c 'HHCFS008I fst module: [1-9][0-9]* taken branches written without a look' "$d/h.log")"
    python3 "$FST_ROOT/tests/os/run.py" --seeds $s --budget 20000-23000 --ways module --reports-only --work "$W" \
        --fst-bin "$FST_BIN" > "$T/run.out" 2> "$T/run.err"
    while read -r name way conv variant verdict detail; do
        case $verdict in
            PASS) ok "os$s window: $variant${detail:+ ($detail)}" ;;
            FAIL) fail "os$s window: $variant" "$detail" ;;
        esac
    done < <(grep -E '^os[0-9]+ +module +live +[^ ]+ +(PASS|FAIL)' "$T/run.out")
    grep -q PASS "$T/run.out" || fail "os$s window: tests/os/run.py reported" "$(tail -5 "$T/run.out" "$T/run.err")"
else
    echo "# skip: python3 is missing: tests/os needs it"
fi
