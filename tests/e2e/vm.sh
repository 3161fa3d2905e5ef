#!/bin/bash
# tests/e2e/vm.sh — a CMS user's program under VM/370's CP (tests/programs/vm.s, a
# stand-in): two virtual machines in their own address spaces, each a CMS-like nucleus
# calling the program, its SVCs reflected by CP into the machine and served by the
# nucleus in problem state (returning by an LPSW that CP does for it), its DIAGNOSEs done
# by CP, which runs the other machine meanwhile. Each machine must be one task, and its
# routines' calls and problem-state self instructions exactly EXPECTED's `vm machine`
# figures (from the program's construction), the SVC handler's instructions charged to
# WORK1: by the module under 3.13 and SDL 4.9, by the text trace (noregs and traditional),
# and by a range trace with registers (which hides CP: the registers decide).
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
INS=$FST_PROGS/vm.ins
cd "$T"
s390x-linux-gnu-nm -P "$FST_PROGS/vm.elf" > vm.nm

want() { awk '$1 == "vm" && $2 == "machine" { print $3, $4, $5, $6 }' "$EXPECTED" | sort; }
# "SPACE ROUTINE CALLS SELF" of a --by-task csv, for the tasks that ran a routine
got() { awk -F, 'NR > 1 && $1 != "(task)" { print $9, $1, $3, $4 }' "$1" | sort; }

check() {   # NAME TRACE
    local name=$1 tr=$2
    expect_ok "$name: csv --by-task --cpu=problem" fst-report --map=vm.nm --timed=all --cpu=problem --format=csv \
        --by-task "$tr"
    cp out "$name.csv"
    expect_eq "$name: each machine's calls and self instructions per routine" "$(want)" "$(got "$name.csv")"
    expect_eq "$name: one task a machine" "00021000 00021040" \
        "$(awk -F, 'NR > 1 && $1 != "(task)" { print $9 }' "$name.csv" | sort -u | tr '\n' ' ' | sed 's/ $//')"
    if grep -q 'guessed\|uncertain\|unwound\|not entered' err; then
        fail "$name: no guess, no unwind" "$(cat err)"
    else
        ok "$name: no guess, no unwind"
    fi
}

# whole runs: CP's dispatcher restores each machine's registers from its own VMBLOK
expect_ok "module: captured" fst-capture -q -o m.trace "$INS"
expect_eq "module: every instruction" "$(awk '$1 == "vm" && $2 == "instructions" { print $3 }' "$EXPECTED")" \
    "$(fst-dump --summary m.trace | sed -n 's/^count.insn=//p')"
check module m.trace
expect_eq "module: the handler's 4 dispatches said to be redirected by the task's block" 1 \
    "$(grep -c '^fst-report: 4 dispatches resumed a task where its suspension did not say, named by its own register block' err)"
for t in noregs traditional; do
    expect_ok "text $t: captured" fst-capture -q --via=trace --traceopt=$t -o $t.trace "$INS"
    check "text $t" $t.trace
done
if [ -n "${FST_HERCULES4:-}" ]; then
    expect_ok "module under 4.9: captured" fst-capture -q --hercules="$FST_HERCULES4" -o m4.trace "$INS"
    check "module under 4.9" m4.trace
else
    echo "# skip: SDL Hercules 4.9 (scripts/hercules4.sh)"
fi

# a range trace with registers: CP is not shown; the handler's first instruction shows
# all the registers the machine had at its SVC, which name it. Figures exact; the return
# from the handler (after a privileged LPSW, registers not known) is a guess, said.
expect_ok "range traditional: captured" fst-capture -q --via=trace --traceopt=traditional --range=30000-31FFF \
    -o range.trace "$INS"
expect_ok "range traditional: csv --by-task --cpu=problem" fst-report --map=vm.nm --timed=all --cpu=problem \
    --format=csv --by-task range.trace
cp out range.csv
expect_eq "range traditional: each machine's calls and self instructions per routine" "$(want)" "$(got range.csv)"
expect_eq "range traditional: the guesses said" 1 "$(grep -c 'dispatches left several suspended tasks' err)"

# over both machines (no --by-task): WORK1's 186 = 128 + 58, the handlers' 2 (20 + 9) + 2 (5 + 9) in it
expect_ok "module: --cpu=problem without --by-task" fst-report --map=vm.nm --timed=all --cpu=problem --format=csv m.trace
expect_eq "module: WORK1 over both machines: the handlers' instructions in it" "WORK1 4 186" \
    "$(awk -F, '$1 == "WORK1" { print $1, $3, $4 }' out)"

# ---- drawn anew each run (printed; FST_VM_DRAW="R K1A K2A K3A K1B K2B K3B Q" sets it): the
# rounds, the loop counts and CP's time slice Q (microseconds), so that CP preempts the
# machines anywhere (inside the SVC handler, between the SVC and it, in the loops); each
# machine's figures from the construction: JOB R - 1 calls and 14 R, WORK1 R calls and
# (K1 + K3 + 14) R, WORK2 R calls and (K2 + 5) R
P=$FST_ROOT/tests/programs
draw=${FST_VM_DRAW:-"$(( 1 + RANDOM % 3 )) $(( 1 + RANDOM % 4000 )) $(( 1 + RANDOM % 4000 )) $(( 1 + RANDOM % 4000 )) \
$(( 1 + RANDOM % 4000 )) $(( 1 + RANDOM % 4000 )) $(( 1 + RANDOM % 4000 )) $(( 5 + RANDOM % 60 ))"}
echo "# drawn: FST_VM_DRAW=\"$draw\""
read -r R K1A K2A K3A K1B K2B K3B Q <<< "$draw"
vmbuild() {   # NAME [--defsym ...]: vm.s built as NAME.ins in $T, with the drawn figures (Q empty: no time slice)
    local n=$1; shift
    s390x-linux-gnu-as -m31 --defsym ROUNDS=$R --defsym K1A=$K1A --defsym K2A=$K2A --defsym K3A=$K3A \
        --defsym K1B=$K1B --defsym K2B=$K2B --defsym K3B=$K3B ${Q:+--defsym QUANTUM=$Q} "$@" -I "$P" -o $n.o "$P/vm.s" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$P/standalone.ld" -o $n.elf $n.o &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore $n.elf $n.lc &&
    s390x-linux-gnu-objcopy -O binary -j .text $n.elf $n.bin &&
    printf '%s.lc 0x0\n%s.bin 0x20000\n' $n $n > $n.ins
}
want() {
    printf '%s\n' "00021000 JOB $((R - 1)) $((14 * R))" "00021000 WORK1 $R $(((K1A + K3A + 14) * R))" \
        "00021000 WORK2 $R $(((K2A + 5) * R))" "00021040 JOB $((R - 1)) $((14 * R))" \
        "00021040 WORK1 $R $(((K1B + K3B + 14) * R))" "00021040 WORK2 $R $(((K2B + 5) * R))" | sort
}
vmbuild vq || fail "assemble vm.s with the drawn figures"
expect_ok "drawn, module: captured" fst-capture -q -o vq.trace vq.ins
check "drawn, module" vq.trace
if [ -n "${FST_HERCULES4:-}" ]; then
    expect_ok "drawn, module under 4.9: captured" fst-capture -q --hercules="$FST_HERCULES4" -o vq4.trace vq.ins
    check "drawn, module under 4.9" vq4.trace
fi
expect_ok "drawn, text noregs: captured" fst-capture -q --via=trace --traceopt=noregs -o vqn.trace vq.ins
check "drawn, text noregs" vqn.trace

# ---- ECPS:VM (ECPSVM YES, as VM/370 distributions for Hercules commonly set it): vm.s ASSIST
# turns the assist on (CR6, a MICBLOK per machine, the machines' PSWs as they see them:
# their supervisor state). Hercules then reflects the SVC into the machine and does its
# LPSW itself: CP never runs between them; the trace goes from the SVC straight to the
# nucleus' handler in problem state. fst's own Hercules has no ECPSVM statement, so these
# run a Hercules started here: the module attached before the IPL, and 3.13's text log.
# No time slice here: with one, CP may end a slice right after every SVC the assist
# reflected (R = 1: the one that counts), and there are none to say (a flake seen once,
# FST_VM_DRAW="1 2065 512 13 2018 2160 175 8" under 4.9); the drawn runs above preempt.
Q= vmbuild va --defsym ASSIST=1 || fail "assemble vm.s with ASSIST=1"
CNF='ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\nECPSVM YES\n'
assisted() {   # NAME DIR HERCULES MODULE IRQ: the module's window from before the IPL to the end
    local name=$1 d=$T/$2 h=$3; shift 2
    mkdir -p "$d"
    printf "${CNF}LDMOD %s\n000C 3505 /dev/null\n" "$2" > "$d/h.cnf"
    if [ "$h" = hercules ]; then
        printf 'hao tgt a reader opened\nhao cmd ipl %s/va.ins\nhao tgt HHCCP011I\nhao cmd quit\n' "$T" > "$d/h.rc"
        (cd "$d" && FST_MODULE_OUT=$d/mod.fifo LD_PRELOAD=$3 HERCULES_RC=$d/h.rc \
            exec setsid timeout -s KILL 120 hercules -d -f h.cnf > h.log 2>&1 < /dev/null) &
    else
        printf 'hao tgt a reader opened\nhao cmd ipl %s/va.ins\nhao tgt HHC00809I\nhao cmd quit\n' "$T" > "$d/h.rc"
        (cd "$d" && FST_MODULE_OUT=$d/mod.fifo LD_PRELOAD=$3 \
            exec setsid timeout -s KILL 120 "$h" -f h.cnf -r h.rc > h.log 2>&1 < <(sleep 120)) &
    fi
    local hpid=$!
    # the module's "no reader" comes as it loads, before the script: attached then, the
    # reader's "opened" came before the automatic operator's rule could see it, no IPL came
    # and Hercules ran to its 120 s (make check under load, 2026-12-07): wait for its thread
    for _ in $(seq 150); do
        grep -q 'HHCFS005I.*no reader' "$d/h.log" 2> /dev/null &&
            grep -Eq "HHCAO001I|name 'hao_thread' started" "$d/h.log" 2> /dev/null && break
        sleep 0.2
    done
    expect_ok "$name: the module attached before the IPL" \
        fst-capture -q --via=module --attach="$d/mod.fifo" --timeout=30 --image=va.ins -o "$d.trace"
    wait $hpid
    check "$name" "$d.trace"
    # (of the 2 R SVCs, one CP's time slice ends right after is CP's to dispatch: not counted)
    expect_eq "$name: the SVCs reflected by the assist said" 1 \
        "$(grep -c "^fst-report: [1-9][0-9]* SVCs went on in problem state with no supervisor between" err)"
}
MOD=$FST_BIN/../lib/fst-hercules313.so IRQ=$FST_BIN/../lib/fst-hercules313-irq.so
if [ -f "$MOD" ] && [ -f "$IRQ" ]; then
    assisted "ECPS:VM, 3.13 module" ecps313 hercules "$MOD" "$IRQ"
fi
MOD4=$FST_BIN/../lib/fst-hercules4.so IRQ4=$FST_BIN/../lib/fst-hercules4-irq.so
if [ -n "${FST_HERCULES4:-}" ] && [ -f "$MOD4" ] && [ -f "$IRQ4" ]; then
    assisted "ECPS:VM, 4.9 module" ecps49 "$FST_HERCULES4" "$MOD4" "$IRQ4"
fi
# 3.13's text trace of the same run: the SVC and LPSW done by the assist, no program check
mkdir -p log && printf "${CNF}000C 3505 /dev/null\n" > log/h.cnf &&
printf 'hao tgt HHCCP011I\nhao cmd quit\ntraceopt noregs\nt+\nipl %s/va.ins\n' "$T" > log/h.rc &&
(cd log && HERCULES_RC=h.rc timeout 120 hercules -d -f h.cnf < /dev/null > va.log 2>&1)
expect_eq "ECPS:VM, 3.13 log: no program check for the nucleus' LPSW (the assist did it)" 0 \
    "$(grep -A2 'HHCCP014I' log/va.log | grep -c 'INST=82000020')"
expect_ok "ECPS:VM, 3.13 log: converted" fst-capture -q --from-log=log/va.log -o valog.trace
check "ECPS:VM, 3.13 log" valog.trace
