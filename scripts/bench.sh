#!/bin/bash
# make bench — fst's speed and size targets, each a ratio of two things measured side by
# side in this one run (so the machine's speed cancels out). Release build (-O2).
#   capture overhead   fst-capture wall time / bare Hercules tracing the same program to
#                      /dev/null                                          goal <= 1.10
#   log conversion     fst-capture --from-log / grep -c '^PSW=' on the same log  goal <= 4
#   size               trace.bin bytes per executed instruction              goal <= 1
#   replay             fst-report (whole profile) / grep -c '^PSW=' on the same run's log
#                                                                         goal <= 0.5
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
make -s MODE=release bin >/dev/null
make -s programs >/dev/null
BIN=$PWD/build/release/bin
PROG=$PWD/build/programs/bigloop.ins
W=$(mktemp -d "${TMPDIR:-/tmp}/fst-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
best() { # best of N runs of a command, in seconds
    local n=$1 best=""; shift
    for _ in $(seq "$n"); do
        local t0 t1; t0=$(now); "$@" > "$W/best.out" 2>&1; t1=$(now)  # not /dev/null: grep would stop at the first match
        local d; d=$(secs "$t0" "$t1")
        if [ -z "$best" ] || awk -v d="$d" -v b="$best" 'BEGIN { exit !(d < b) }'; then best=$d; fi
    done
    echo "$best"
}

# bare Hercules: the same configuration and script fst-capture writes, log to /dev/null
cp build/programs/bigloop.lc build/programs/bigloop.bin "$W/"
printf 'bigloop.lc 0x0\nbigloop.bin 0x20000\n' > "$W/p.ins"
printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\n000C 3505 /dev/null\n' > "$W/h.cnf"
printf 'hao tgt HHCCP011I\nhao cmd quit\nhao tgt HHC00809I\nhao cmd quit\ntraceopt noregs\nt+\nipl %s/p.ins\n' "$W" > "$W/h.rc"
bare() { (cd "$W" && HERCULES_RC="$W/h.rc" hercules -d -f "$W/h.cnf" < /dev/null > /dev/null 2>&1); }
capture() { "$BIN/fst-capture" -q -o "$W/run.trace" --keep-log="$W/run.log" "$PROG"; }
capture_nolog() { "$BIN/fst-capture" -q -o "$W/run.trace" "$PROG"; }

echo "fst bench: $(nproc) cores, program bigloop ($(awk '$1=="bigloop" && $2=="instructions" {print $3}' tests/programs/EXPECTED) instructions)"
capture   # once, for the log and the trace
t_bare=$(best 3 bare)
t_cap=$(best 3 capture_nolog)
insns=$("$BIN/fst-dump" --summary "$W/run.trace" | sed -n 's/^count.insn=//p')
bytes=$(stat -c %s "$W/run.trace")
logbytes=$(stat -c %s "$W/run.log")
t_grep=$(best 3 grep -c '^PSW=' "$W/run.log")
t_conv=$(best 3 "$BIN/fst-capture" -q --from-log="$W/run.log" -o "$W/conv.trace")
printf '%-18s %8s s  vs %8s s  ratio %5s  (goal <= 1.10)\n' "capture overhead" "$t_cap" "$t_bare" "$(ratio "$t_cap" "$t_bare")"
printf '%-18s %8s s  vs %8s s  ratio %5s  (goal <= 4)    log %d MB\n' "log conversion" "$t_conv" "$t_grep" "$(ratio "$t_conv" "$t_grep")" $((logbytes >> 20))
printf '%-18s %8d B  / %8d instructions = %s bytes/instruction  (goal <= 1; the log: %s)\n' "size" "$bytes" "$insns" \
    "$(ratio "$bytes" "$insns")" "$(ratio "$logbytes" "$insns")"
if [ -x "$BIN/fst-report" ]; then
    t_rep=$(best 3 "$BIN/fst-report" --timed=all -o "$W/rep.txt" "$W/run.trace")
    printf '%-18s %8s s  vs %8s s  ratio %5s  (goal <= 0.5)  %s M instructions/s\n' "replay" "$t_rep" "$t_grep" \
        "$(ratio "$t_rep" "$t_grep")" "$(awk -v n="$insns" -v t="$t_rep" 'BEGIN { printf "%.1f", n / t / 1e6 }')"
    mem=$( { /usr/bin/time -f '%M' "$BIN/fst-report" --timed=all -o /dev/null "$W/run.trace" > /dev/null; } 2>&1 | tail -1)
    "$BIN/fst-capture" -q --max-instructions=100000 -o "$W/small.trace" "$PROG"
    mem_s=$( { /usr/bin/time -f '%M' "$BIN/fst-report" --timed=all -o /dev/null "$W/small.trace" > /dev/null; } 2>&1 | tail -1)
    printf '%-18s %8s KB for %d instructions, %s KB for 100000 (independent of trace length)\n' "replay memory" "$mem" "$insns" "$mem_s"
fi
