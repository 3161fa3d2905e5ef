# Two CPUs captured live with SDL Hercules 4.x through its tf FIFO (capture/hercules/herc4.c, --via=trace):
# the capture ends when no CPU runs any more (capture/read/progend.h), which 4.x does not say in
# its trace (it logs no SIGP stop, and its last records wait in its buffer until the file
# is closed): fst asks it with `qproc` once a CPU's disabled wait is logged, and closes the
# file itself. Expected figures from the programs' construction (tests/programs/*.s,
# EXPECTED). A real 4.x: $FST_HERCULES4 (tests/run: the one scripts/deps.sh builds); skipped
# without one, never faked.
#   twocpu.s    CPU 1 stops itself by SIGP (not logged by 4.x), CPU 0's wait is last:
#               each CPU's routines exact, complete, no "never closed" warning (3 runs)
#   cpu1first.s CPU 1's disabled wait first, CPU 0 runs on for 1 s
#   cpu0first.s CPU 0's (the IPL CPU's) disabled wait first, CPU 1 runs on for 1 s: its
#               tail is in the trace (a close at CPU 0's wait lost it); 3.13 the same
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p" "$2"; }
percpu() { fst-dump "$1" | awk '/^cpu /{ c = $2 } /^insn/{ n[c + 0]++ } END { printf "%d %d", n[0], n[1] }'; }
ending() { fst-dump --summary "$1" > "$T/d"; echo "$(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"; }
banner() { "$1" --help=version < /dev/null 2>&1 | grep -Eo -m1 'Hercules [Vv]ersion [0-9][^ ]*' | awk '{ print $3 }'; }

H4=${FST_HERCULES4:-}
if [ -z "$H4" ]; then
    echo "# skip: no SDL Hercules 4.x here (scripts/hercules4.sh builds one; or set FST_HERCULES4=PATH)"
    exit 0
fi
V=$(banner "$H4")
case "$V" in 4.[6-9]*|4.[1-9][0-9]*|[5-9].*) ;; *) echo "# skip: $H4 is '$V', not a 4.x with tf (4.6+)"; exit 0 ;; esac
echo "# SDL Hercules $V at $H4"
mkdir -p "$T/tmp"
export TMPDIR=$T/tmp   # fst-capture's folders: Hercules runs in one (its cwd), checked at the end

# twocpu: MAINA 912 self, TICKA 300 calls (CPU 0); MAINB 1512 self, TICKB 500 calls (CPU 1)
for run in 1 2 3; do
    if fst-capture --via=trace --numcpu=2 --hercules="$H4" --timeout=60 --keep-log="$T/two.log" -o "$T/two.trace" \
        "$FST_PROGS/twocpu.ins" 2> "$T/err"; then
        expect_eq "twocpu run $run: complete, ended by the program's end" "1 disabled-wait" "$(ending "$T/two.trace")"
        expect_eq "twocpu run $run: nothing but the summary on stderr (no 'never closed' warning)" \
            "" "$(grep -v 'instructions, 0 program checks' "$T/err")"
        fst-report --format=csv "$T/two.trace" 2> /dev/null > "$T/two.csv"
        expect_eq "twocpu run $run: MAINA self, TICKA calls, MAINB self, TICKB calls" "912 300 1512 500" \
            "$(awk -F, '$1=="MAINA"{a=$4} $1=="TICKA"{b=$3} $1=="MAINB"{c=$4} $1=="TICKB"{d=$3} END{print a, b, c, d}' "$T/two.csv")"
    else
        fail "twocpu run $run: captured" "$(head -3 "$T/err")"
    fi
done
# what ended it: Hercules said both CPUs stopped, and fst closed the trace file
grep -q 'HHC17009I PROC CP01 \*' "$T/two.log" && grep -q 'HHC02381I' "$T/two.log" \
    && ok "twocpu: Hercules' answer to qproc (CP01 stopped), then the file closed" \
    || fail "twocpu: Hercules' answer to qproc (CP01 stopped), then the file closed" "$(grep HHC170 "$T/two.log" | tail -4)"

# cpu1first: CPU 0 315, CPU 1 103
if fst-capture -q --via=trace --numcpu=2 --hercules="$H4" --timeout=60 -o "$T/c1.trace" "$FST_PROGS/cpu1first.ins" 2> "$T/err"; then
    expect_eq "cpu1first: CPU 0 315, CPU 1 103 instructions, complete, the program's end" "315 103 1 disabled-wait" \
        "$(percpu "$T/c1.trace") $(ending "$T/c1.trace")"
else
    fail "cpu1first: captured" "$(head -3 "$T/err")"
fi

# cpu0first: CPU 0 5, CPU 1 312, a second after CPU 0's disabled wait
if fst-capture -q --via=trace --numcpu=2 --hercules="$H4" --timeout=60 -o "$T/c0.trace" "$FST_PROGS/cpu0first.ins" 2> "$T/err"; then
    expect_eq "cpu0first: CPU 0 5, CPU 1 312 instructions (its tail after CPU 0's wait), complete" \
        "5 312 1 disabled-wait" "$(percpu "$T/c0.trace") $(ending "$T/c0.trace")"
else
    fail "cpu0first: captured" "$(head -3 "$T/err")"
fi
if [ -x /usr/bin/hercules ] && [ "$(banner /usr/bin/hercules)" = 3.13 ]; then
    # one retry: 3.13 writes a multi-CPU log in pieces, and once (a full make check on a
    # loaded machine, not reproduced in 17 runs alone or under load) CPU 1's disabled-wait
    # message did not come, so the capture ran to its --timeout with every instruction;
    # once (2026-12-05, make check, not reproduced in 16 runs alone or beside a busy loop)
    # its log held one of CPU 1's 312 instructions fewer, with nothing on stderr
    c03() { fst-capture -q --via=trace --numcpu=2 --hercules=/usr/bin/hercules --timeout=60 -o "$T/c03.trace" \
            "$FST_PROGS/cpu0first.ins" 2> "$T/err"; }
    c03ok() { c03 && [ "$(percpu "$T/c03.trace") $(ending "$T/c03.trace")" = "5 312 1 disabled-wait" ]; }
    if c03ok || { echo "# cpu0first under 3.13: retried once: $(percpu "$T/c03.trace" 2> /dev/null) $(tail -1 "$T/err")"; c03; }; then
        expect_eq "cpu0first under 3.13: the same" "5 312 1 disabled-wait" "$(percpu "$T/c03.trace") $(ending "$T/c03.trace")"
    else
        fail "cpu0first under 3.13: captured" "$(head -3 "$T/err")"
    fi
fi
left=$(for p in /proc/[0-9]*; do readlink "$p/cwd" 2> /dev/null | grep -q "^$T/tmp/" && echo "${p#/proc/}"; done)
expect_eq "no Hercules left running, nothing left in TMPDIR" "" "$left$(ls -A "$T/tmp")"
echo "1..$N"
