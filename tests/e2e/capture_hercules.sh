# fst-capture under real Hercules: every test program's exact instruction count (from its
# construction, tests/programs/EXPECTED), and every bad input of the capture issue.
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p" "$2"; }
EXPECTED=$FST_ROOT/tests/programs/EXPECTED

for ins in "$FST_PROGS"/*.ins; do
    p=$(basename "$ins" .ins)
    want=$(awk -v p="$p" '$1 == p && $2 == "instructions" { print $3 }' "$EXPECTED")
    # tasks: its CPU timer follows host time, so only per-task figures are fixed (tasks.sh)
    [ "$p" = tasks ] && continue
    [ -n "$want" ] || { fail "$p: has an expected instruction count"; continue; }
    [ "$p" = bigloop ] && continue   # captured below, with the limits
    [ "$p" = ticker ] && continue    # a minute of waiting: captured (and killed) in capture_kill.sh
    if fst-capture -q --timeout=120 -o "$T/$p.trace" "$ins" 2> "$T/err"; then
        fst-dump --summary "$T/$p.trace" > "$T/d"
        expect_eq "$p: instructions, complete, ended by" "$want 1 disabled-wait" \
            "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
        # the storage image of the .ins is in the trace, byte for byte
        fst-dump --summary "$T/$p.trace" | grep '^image ' > "$T/img"
        expect_eq "$p: storage image in the trace" \
            "image 0 $(stat -c %s "$FST_PROGS/$p.lc")
image 20000 $(stat -c %s "$FST_PROGS/$p.bin")" "$(cat "$T/img")"
    else
        fail "$p: captures" "$(head -5 "$T/err")"
    fi
done

# the same program traced in every traceopt mode gives the same instruction stream
fst-dump "$T/fortg.trace" | grep '^insn' > "$T/noregs"
for m in traditional regsfirst; do
    fst-capture -q --traceopt=$m -o "$T/fortg-$m.trace" "$FST_PROGS/fortg.ins"
    fst-dump "$T/fortg-$m.trace" | grep '^insn' > "$T/$m"
    cmp -s "$T/noregs" "$T/$m" && ok "fortg: traceopt $m gives the same instructions" \
        || fail "fortg: traceopt $m gives the same instructions" "$(diff "$T/noregs" "$T/$m" | head -5)"
done

# --keep-log keeps the text log; converting it again gives the same trace records
fst-capture -q --keep-log="$T/forth.log" -o "$T/forth1.trace" "$FST_PROGS/forth.ins"
fst-capture -q --from-log="$T/forth.log" --image="$FST_PROGS/forth.ins" -o "$T/forth2.trace"
fst-dump "$T/forth1.trace" | grep -v '^header\|^footer.log-lines\|^frames\.' > "$T/a"
fst-dump "$T/forth2.trace" | grep -v '^header\|^footer.log-lines\|^frames\.' > "$T/b"
cmp -s "$T/a" "$T/b" && ok "--keep-log then --from-log gives the same trace" \
    || fail "--keep-log then --from-log gives the same trace" "$(diff "$T/a" "$T/b" | head -5)"

# range tracing: only the addresses asked for (fortg's MAIN is 20020-2006F)
fst-capture -q --range=20020-2006F --keep-log="$T/range.log" -o "$T/range.trace" "$FST_PROGS/fortg.ins"
expect_eq "--range traces only MAIN's instructions (51, EXPECTED self of MAIN)" \
    "$(awk '$1=="fortg" && $2=="self" && $3=="MAIN" {print $4}' "$EXPECTED")" \
    "$(fst-dump "$T/range.trace" | grep -c '^insn')"
# the range a log was traced with, said by the footer of its conversion (the header is
# written before the log says it): a report knows the trace is partial (diagnose.c)
fst-capture -q --from-log="$T/range.log" -o "$T/rangelog.trace"
fst-dump --summary "$T/rangelog.trace" > "$T/d"
expect_eq "--from-log of a range trace: the footer says the range Hercules traced" "all 20020-2006F" \
    "$(dumpval header.range "$T/d") $(dumpval footer.range-seen "$T/d")"

# limits: --max-instructions stops at exactly N; a complete trace of what was asked
fst-capture -q --max-instructions=1000 -o "$T/max.trace" "$FST_PROGS/bigloop.ins"
fst-dump --summary "$T/max.trace" > "$T/d"
expect_eq "--max-instructions=1000" "1000 1 max-instructions" \
    "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"

# --timeout: stopped, marked incomplete, exit 2
expect_fail "--timeout stops Hercules" 2 "timed out after 1 s" \
    fst-capture -q --via=trace --timeout=1 -o "$T/to.trace" "$FST_PROGS/bigloop.ins"
fst-dump --summary "$T/to.trace" > "$T/d"
expect_eq "a timed-out trace is readable and incomplete" "0" "$(dumpval complete "$T/d")"

# Ctrl-C: the capture stops, the trace stays readable up to its last block, incomplete
fst-capture -q --via=trace -o "$T/int.trace" "$FST_PROGS/bigloop.ins" 2> "$T/int.err" &
pid=$!
sleep 2; kill -INT $pid; wait $pid; rc=$?
expect_eq "interrupted capture exits 130 (128 + SIGINT)" 130 "$rc"
grep -q "interrupted: .* marked incomplete" "$T/int.err" && ok "interrupted capture says so" \
    || fail "interrupted capture says so" "$(cat "$T/int.err")"
fst-dump --summary "$T/int.trace" > "$T/d"
n=$(dumpval count.insn "$T/d")
expect_eq "interrupted trace: readable, incomplete, reason" "0 stopped" \
    "$(dumpval complete "$T/d") $(dumpval incomplete "$T/d" | grep -o 'stopped')"
[ "${n:-0}" -gt 0 ] && ok "interrupted trace holds the instructions read ($n)" || fail "interrupted trace holds instructions"
pgrep -f "$T/int.trace" > /dev/null && fail "no Hercules left running" || ok "no Hercules left running"

# Hercules killed under the capture: an error, and an incomplete but readable trace
fst-capture -q --via=trace -o "$T/kill.trace" "$FST_PROGS/bigloop.ins" 2> "$T/kill.err" &
pid=$!
sleep 2; pkill -KILL -P $pid hercules; wait $pid; rc=$?
expect_eq "Hercules killed: exit 2" 2 "$rc"
grep -q "Hercules ended (status 137) before the program reached a disabled wait" "$T/kill.err" \
    && ok "Hercules killed: says so" || fail "Hercules killed: says so" "$(cat "$T/kill.err")"
expect_eq "Hercules killed: trace incomplete" 0 "$(fst-dump --summary "$T/kill.trace" | dumpval complete /dev/stdin)"

# bad inputs
expect_fail "missing .ins" 2 "nothere.ins: cannot open" fst-capture -o "$T/x.trace" "$T/nothere.ins"
printf 'nothere.bin 0x20000\n' > "$T/miss.ins"
expect_fail ".ins names a missing file" 2 "miss.ins:1: .*nothere.bin: cannot open" fst-capture -o "$T/x.trace" "$T/miss.ins"
printf '%s 0xZZ\n' "$FST_PROGS/minimal.bin" > "$T/badaddr.ins"
expect_fail ".ins with a bad address" 2 "badaddr.ins:1: bad load address '0xZZ'" fst-capture -o "$T/x.trace" "$T/badaddr.ins"
printf '%s 0x1000000\n' "$FST_PROGS/minimal.bin" > "$T/big.ins"
expect_fail "a core image that does not fit (S/370: 16 MiB)" 2 "big.ins:1: .*does not fit in 16384 KiB" \
    fst-capture -o "$T/x.trace" "$T/big.ins"
expect_fail "a core image that does not fit --mainsize" 2 "does not fit in 2048 KiB" \
    fst-capture --mainsize=2 -o "$T/x.trace" "$T/big.ins"
expect_fail "Hercules not installed" 2 "cannot run '/nonexistent/hercules': not found" \
    fst-capture --hercules=/nonexistent/hercules -o "$T/x.trace" "$FST_PROGS/minimal.ins"
# a start-up that fails (invalid IPL PSW, a piece Hercules cannot load): capture_script.sh
expect_fail "usage: no program" 2 "which program" fst-capture
expect_fail "usage: bad option" 2 "unknown option '--bogus'" fst-capture --bogus x.ins
expect_fail "usage: bad number" 2 "--max-instructions wants a whole number" fst-capture --max-instructions=lots x.ins
expect_fail "usage: bad range" 2 "--range wants A-B" fst-capture --range=30000-20000 x.ins
