#!/bin/bash
# tests/e2e/multicpu.sh — several CPUs in one log (issue 12 item 3): each CPU's instructions
# are its own task's, whatever its number. Hercules 3.13 cannot write a clean multi-CPU
# text log (its threads splice their lines, see below), so the multi-CPU log here is made
# from two real single-CPU runs of tests/programs/fortg.s: each instruction's lines (the
# PSW line and its operand lines) of run A tagged CPU0000, of run B tagged CPU n, dealt
# out in bursts of 1, 2, 3, 5, 8, 13 instructions, so that switches fall everywhere, also
# between a BALR and the callee's entry. Every figure must then be exactly twice the
# program's (EXPECTED), and each task's exactly once: calls, self, and inclusive time,
# which must count only its own CPU's instructions. CPU numbers 1, 64 (= 0 mod 64), 255.
# A live two-CPU run under Hercules 3.13 (tests/programs/twocpu.s): its spliced lines are
# reported, on stderr and by fst-report, never a silently wrong profile.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
cd "$T"
fact() { awk -v k="$1" -v r="$2" '$1 == "fortg" && $2 == k && $3 == r { print $4 }' "$EXPECTED"; }

fst-capture -q --keep-log=one.log -o one.trace "$FST_PROGS/fortg.ins" || fail "fortg: captured"

# merge CPU: one.log twice, the second copy's lines as CPU CPU, the first's as CPU 0000
merge() {
    awk -v cpu="$1" '
    function insn(s) { return s ~ /^PSW=|^R:|^ *[0-9A-F]+:|^GR|^CR|^AR|^FR/ }
    { line[++n] = $0; if (insn($0)) lastins = n; if (!first && /^PSW=/) first = n }
    END {
        for (i = 1; i < first; i++) print line[i]
        g = 0      # instruction groups; a Hercules message among them stays in run A only
        for (i = first; i <= lastins; i++) {
            if (line[i] ~ /^PSW=/) g++
            grp[g] = grp[g] "\n" (insn(line[i]) ? "I" : "M") line[i]
        }
        split("1 2 3 5 8 13", burst, " ")
        a = 1; b = 1; k = 0
        while (a <= g || b <= g) {
            m = burst[k % 6 + 1]; k++
            for (j = 0; j < m && a <= g; j++) put(grp[a++], "0000", 1)
            for (j = 0; j < m && b <= g; j++) put(grp[b++], cpu, 0)
        }
        for (i = lastins + 1; i <= n; i++) print line[i]
    }
    function put(s, c, msgs,   l, i, k) {
        k = split(substr(s, 2), l, "\n")
        for (i = 1; i <= k; i++)
            if (substr(l[i], 1, 1) == "I") print "CPU" c ":  " substr(l[i], 2)
            else if (msgs) print substr(l[i], 2)
    }' one.log > "two$1.log"
}

for cpu in 0001 0040 00FF; do
    merge $cpu
    if ! fst-capture -q --from-log="two$cpu.log" --image="$FST_PROGS/fortg.ins" -o "two$cpu.trace" 2> err; then
        fail "CPU $cpu: the merged log converts" "$(head -3 err)"; continue
    fi
    expect_eq "CPU $cpu: twice the instructions, none lost" "$((2 * $(awk '$1 == "fortg" && $2 == "instructions" { print $3 }' "$EXPECTED")))" \
        "$(fst-dump --summary "two$cpu.trace" | sed -n 's/^count.insn=//p')"
    fst-report --format=csv "two$cpu.trace" > csv 2> rep.err
    for r in MAIN SUBA SUBB; do
        expect_eq "CPU $cpu: $r calls, self, inclusive: twice the program's" \
            "$((2 * $(fact calls $r))) $((2 * $(fact self $r))) $((2 * $(fact incl $r)))" \
            "$(awk -F, -v r=$r '$1 == r { print $3, $4, $5 }' csv)"
    done
    fst-report --format=csv --by-task "two$cpu.trace" > tcsv 2>> rep.err
    expect_eq "CPU $cpu: two tasks" 2 "$(awk -F, '$1 == "(task)"' tcsv | wc -l)"
    for r in MAIN SUBA SUBB; do
        expect_eq "CPU $cpu: each task's $r: the program's calls, self, inclusive" \
            "$(fact calls $r) $(fact self $r) $(fact incl $r)
$(fact calls $r) $(fact self $r) $(fact incl $r)" \
            "$(awk -F, -v r=$r '$1 == r { print $3, $4, $5 }' tcsv)"
    done
    fst-report --format=json "two$cpu.trace" > json 2>> rep.err
    expect_eq "CPU $cpu: no unwind" '"unwinds": 0' "$(grep -o '"unwinds": [0-9]*' json | head -1)"
    if grep -q 'AddressSanitizer\|runtime error' rep.err; then fail "CPU $cpu: no sanitizer report" "$(head -3 rep.err)"
    else ok "CPU $cpu: no sanitizer report"; fi
done

# CPU 256: more than any Hercules has; its lines are refused (said), never folded onto CPU 0
merge 0100
fst-capture -q --from-log=two0100.log --image="$FST_PROGS/fortg.ins" -o two0100.trace 2> err
expect_eq "CPU 0100: its lines refused, CPU 0's kept" \
    "$(awk '$1 == "fortg" && $2 == "instructions" { print $3 }' "$EXPECTED") 1" \
    "$(fst-dump --summary two0100.trace | sed -n 's/^count.insn=//p') $(grep -c 'could not be read' err)"

# a live two-CPU run under Hercules 3.13: spliced lines are said, by capture and report
if fst-capture --numcpu=2 -o live.trace "$FST_PROGS/twocpu.ins" 2> cap.err; then
    if grep -q "run into each other" cap.err; then
        expect_ok "live: fst-report runs" fst-report --format=csv live.trace
        expect_eq "live: fst-report says the trace lacks the instructions of lines run into each other" 1 \
            "$(grep -c 'not exact' "$T/err")"
    else
        ok "live: Hercules wrote whole lines this time (nothing to report)"
    fi
elif grep -q "run into each other" cap.err && grep -q "still ran when the capture ended" cap.err; then
    # the lines lost were CPU 1's end (its SIGP stop): the capture cannot tell the program
    # ended, says why, and keeps what it read
    expect_ok "live: lines run into each other hid CPU 1's end; said, and the trace is kept" \
        fst-report --format=csv live.trace
else
    fail "live: two CPUs captured" "$(head -3 cap.err)"
fi
echo "1..$N"
