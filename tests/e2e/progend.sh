# When a multi-CPU program has ended (capture/read/progend.h): when no CPU that ran is still
# running, not at the first disabled wait. Real runs only: the SDL 4.9 fixture mp2 (CP00
# restarts CP01; CP01 loads its disabled wait first, CP00 48 instructions later: the
# fixture README's counts, 1 613 = CP00 808 + CP01 805), through its tf file, its text
# log, and both followed as they grow with a pause right after CP01's wait; a live
# Hercules 3.13 run of tests/programs/cpu1first.s (CPU 1 ends first, CPU 0 runs 302 more
# instructions: counts from its construction) and of twocpu.s (CPU 1 stops itself with
# SIGP; it must end at CPU 0's disabled wait, not at the timeout); and a 3.13 log of
# cpu1first whose SIGP restart's outcome line came after CPU 1's disabled wait
# (tests/logs/cpu1first-late-sigp.log.gz: the restart must not run CPU 1 again).
. "$(dirname "$0")/../lib.sh"

TF=$FST_FIXTURES/hercules-4.9/tf
dumpval() { sed -n "s/^$1=//p" "$2"; }
# instructions of CPU 0 and CPU 1 (records before the first CPU record are CPU 0's)
percpu() { fst-dump "$1" | awk '/^cpu /{ c = $2 } /^insn/{ n[c + 0]++ } END { printf "%d %d", n[0], n[1] }'; }
endof() { fst-dump --summary "$1" | dumpval footer.end /dev/stdin; }
# grow SRC DST LINE: onto DST (made empty first, by the caller) SRC's first LINE lines in
# two pieces, a pause longer than --follow's poll (the reader meets the end of the file
# there), then the rest
grow() {
    local n half=$(($3 / 2))
    n=$(wc -l < "$1")
    sed -n "1,${half}p" "$1" >> "$2"; sleep 0.3
    sed -n "$((half + 1)),$3p" "$1" >> "$2"; sleep 1.5
    sed -n "$(($3 + 1)),${n}p" "$1" >> "$2"
}

# mp2 whole: every instruction of both CPUs, from the tf file and from the 4.9 text log
fst-capture -q --from-tf="$TF/mp2.tf" --image="$TF/mp2.ins" -o "$T/tf.trace"
expect_eq "mp2 --from-tf: CP00 808, CP01 805 instructions, ended by the program's end" "808 805 disabled-wait" \
    "$(percpu "$T/tf.trace") $(endof "$T/tf.trace")"
fst-capture -q --from-log="$TF/mp2.hyp49-noregs.log" --image="$TF/mp2.ins" -o "$T/log.trace"
expect_eq "mp2 --from-log (4.9 text): CP00 808, CP01 805, ended by the program's end" "808 805 disabled-wait" \
    "$(percpu "$T/log.trace") $(endof "$T/log.trace")"
# 3.13's log of another run (its lines spliced: counts not exact): ends at CPU 0's wait
fst-capture -q --from-log="$TF/mp2.h313-noregs.log" --image="$TF/mp2.ins" -o "$T/l313.trace" 2> /dev/null
expect_eq "mp2 --from-log (3.13): ended by the program's end" "disabled-wait" "$(endof "$T/l313.trace")"
# the 4.9 log up to CP01's disabled wait: the program has not ended there
head -n 2820 "$TF/mp2.hyp49-noregs.log" > "$T/cut.log"
fst-capture -q --from-log="$T/cut.log" --image="$TF/mp2.ins" -o "$T/cut.trace"
expect_eq "mp2 4.9 log cut after CP01's disabled wait: not the program's end (CP00 runs)" "eof" "$(endof "$T/cut.trace")"

# ... and followed until --timeout: the capture says why the disabled wait did not end it
fst-capture --follow --timeout=1 --from-log="$T/cut.log" --image="$TF/mp2.ins" -o "$T/cutf.trace" 2> "$T/err"
expect_eq "mp2 4.9 log cut after CP01's wait, followed: ends idle, saying one CPU still ran" "idle 1" \
    "$(endof "$T/cutf.trace") $(grep -c 'disabled wait, but 1 CPU(s) still ran when the input ended' "$T/err")"

# followed as they grow, with the writer pausing right after CP01's disabled wait
> "$T/grow.log"; grow "$TF/mp2.hyp49-noregs.log" "$T/grow.log" 2820 &
fst-capture -q --follow --timeout=20 --from-log="$T/grow.log" --image="$TF/mp2.ins" -o "$T/glog.trace"
wait
expect_eq "mp2 4.9 log followed, a pause after CP01's wait: CP00 808, CP01 805, the program's end" \
    "808 805 disabled-wait 1" "$(percpu "$T/glog.trace") $(endof "$T/glog.trace") $(fst-dump --summary "$T/glog.trace" | dumpval complete /dev/stdin)"
# the tf file: 600 000 bytes (CP01's disabled-wait record, TF00809, is at byte 586 400 and
# CP00's at 723 264), a pause, the rest
size=$(stat -c %s "$TF/mp2.tf")
: > "$T/grow.tf"
( dd if="$TF/mp2.tf" bs=100000 count=6 status=none; sleep 1.5; dd if="$TF/mp2.tf" bs=100000 skip=6 status=none ) >> "$T/grow.tf" &
fst-capture -q --follow --timeout=20 --from-tf="$T/grow.tf" --image="$TF/mp2.ins" -o "$T/gtf.trace"
wait
expect_eq "mp2 tf followed, a pause at byte 600000 of $size (CP01 has ended there): CP00 808, CP01 805" \
    "808 805 disabled-wait 1" "$(percpu "$T/gtf.trace") $(endof "$T/gtf.trace") $(fst-dump --summary "$T/gtf.trace" | dumpval complete /dev/stdin)"

# cpu1first, CPU 0's "SIGP Restart ... CC 0" printed after CPU 1's whole run and disabled
# wait (as under load): converted, and followed with a pause right after that line; both
# end at the program's end (CPU 0's disabled wait), not at the input's end or --timeout
gzip -dc "$FST_ROOT/tests/logs/cpu1first-late-sigp.log.gz" > "$T/late.log"
fst-capture -q --from-log="$T/late.log" --image="$FST_PROGS/cpu1first.ins" -o "$T/late.trace"
expect_eq "cpu1first, SIGP outcome printed after CPU 1's wait: CPU 0 315, CPU 1 103, the program's end" \
    "315 103 disabled-wait" "$(percpu "$T/late.trace") $(endof "$T/late.trace")"
at=$(grep -n '^CPU0000: SIGP Restart' "$T/late.log" | cut -d: -f1)
> "$T/lategrow.log"; grow "$T/late.log" "$T/lategrow.log" "$at" &
fst-capture -q --follow --timeout=20 --from-log="$T/lategrow.log" --image="$FST_PROGS/cpu1first.ins" -o "$T/latef.trace"
wait
expect_eq "cpu1first, SIGP outcome printed after CPU 1's wait, followed: CPU 0 315, CPU 1 103, the program's end" \
    "315 103 disabled-wait 1" \
    "$(percpu "$T/latef.trace") $(endof "$T/latef.trace") $(fst-dump --summary "$T/latef.trace" | dumpval complete /dev/stdin)"

# live, Hercules 3.13: CPU 1 ends first, CPU 0 runs on (cpu1first.s: 315 + 103)
if fst-capture --numcpu=2 --timeout=60 --keep-log="$T/c1.log" -o "$T/c1.trace" "$FST_PROGS/cpu1first.ins" 2> "$T/err"; then
    order=$(grep -o 'HHCCP011I CPU000[01]' "$T/c1.log" | paste -sd' ')
    expect_eq "cpu1first live: CPU 1's disabled wait first, then CPU 0's" "HHCCP011I CPU0001 HHCCP011I CPU0000" "$order"
    if grep -q "run into each other" "$T/err"; then
        ok "# cpu1first live: Hercules spliced lines this time: counts not exact, not compared"
    else
        expect_eq "cpu1first live: CPU 0 315, CPU 1 103 instructions, the program's end" "315 103 disabled-wait" \
            "$(percpu "$T/c1.trace") $(endof "$T/c1.trace")"
    fi
    # its log followed as it grows, with a pause after CPU 1's wait
    at=$(grep -n 'HHCCP011I CPU0001' "$T/c1.log" | cut -d: -f1)
    > "$T/c1grow.log"; grow "$T/c1.log" "$T/c1grow.log" "$((at + 1))" &
    fst-capture -q --follow --timeout=20 --from-log="$T/c1grow.log" -o "$T/c1f.trace"
    wait
    expect_eq "cpu1first log followed, a pause after CPU 1's wait: the trace of the whole log" \
        "$(percpu "$T/c1.trace") disabled-wait" "$(percpu "$T/c1f.trace") $(endof "$T/c1f.trace")"
else
    fail "cpu1first live: captured" "$(head -3 "$T/err")"
fi
# twocpu.s: CPU 1 stops itself (SIGP stop, printed by 3.13): CPU 0's wait ends the program
if fst-capture -q --numcpu=2 --timeout=60 --keep-log="$T/two.log" -o "$T/two.trace" "$FST_PROGS/twocpu.ins" 2> "$T/err"; then
    expect_eq "twocpu live: CPU 1 stopped by SIGP, then CPU 0's disabled wait ends the capture" \
        "1 disabled-wait" "$(grep -c 'CPU0001: SIGP Stop (05) CPU0001' "$T/two.log") $(endof "$T/two.trace")"
else
    fail "twocpu live: captured" "$(head -3 "$T/err")"
fi
echo "1..$N"
