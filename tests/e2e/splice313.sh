#!/bin/bash
# tests/e2e/splice313.sh — a Hercules 3.13 message cut by another CPU's trace line
# (tests/logs/README.md): 3.13 writes "HHCCP043I Wait state PSW loaded: " and the PSW in
# two writes, and CPU 1, which CPU 0's SIGP has just restarted, can write between them.
# The log of a live two-CPU run of tests/programs/cpu1first.s (tests/logs/cpu1first.log.gz)
# and three versions of it with CPU 0's enabled-wait message cut by CPU 1's first lines:
#   a: CPU 1's first write (PSW=, INST=, padding) between the two; its disassembly next line
#   b: CPU 1's whole line between them; the message's PSW alone on the next line
#   c: CPU 1's storage-line prefix between them; its R: line next
# and the live run where b happened (cpu1first-live-043.log.gz: CPU 0's PSW came 40 lines
# later; the run that failed tests/e2e/progend.sh with "315 102").
# Each must read as the run did: CPU 0 315 instructions and CPU 1 103 (from cpu1first.s's
# construction), five waits (three LPSWs of a wait PSW, two of them disabled: HHCCP043I
# three times, HHCCP011I twice), the program's end, and no warning. Before, a and b lost
# CPU 1's BALR (102) and every shape the wait, silently.
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p"; }
percpu() { fst-dump "$1" | awk '/^cpu /{ c = $2 } /^insn/{ n[c + 0]++ } END { printf "%d %d", n[0], n[1] }'; }
for v in "" -splice-a -splice-b -splice-c -live-043; do
    gzip -dc "$FST_ROOT/tests/logs/cpu1first$v.log.gz" > "$T/l.log"
    if fst-capture -q --from-log="$T/l.log" --image="$FST_PROGS/cpu1first.ins" -o "$T/l.trace" 2> "$T/err"; then
        expect_eq "cpu1first$v.log: CPU 0 315, CPU 1 103 instructions, 5 waits, the program's end, no warning" \
            "315 103 5 disabled-wait 0" \
            "$(percpu "$T/l.trace") $(fst-dump --summary "$T/l.trace" | dumpval footer.waits) $(fst-dump --summary "$T/l.trace" | dumpval footer.end) $(wc -l < "$T/err")"
    else
        fail "cpu1first$v.log: converted" "$(head -3 "$T/err")"
    fi
done
echo "1..$N"
