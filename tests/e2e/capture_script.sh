# What reaches Hercules' start-up script and configuration: nothing from outside fst can
# add a command to them (TMPDIR, --range); a start-up that fails (a file the IPL cannot
# load, an invalid IPL PSW, storage the host cannot give) is said at once with Hercules'
# own message, instead of a program-check loop traced until the timeout; main storage
# stays within what Hercules 3.13 takes; Hercules runs at the caller's priority.
. "$(dirname "$0")/../lib.sh"
dumpval() { sed -n "s/^$1=//p" "$2"; }
TIMEOUT=60

captures_fortg() {   # NAME TMPDIR: fortg captured whole, the folder removed
    local name=$1 tmp=$2
    if TMPDIR=$tmp fst-capture -q --timeout=$TIMEOUT -o "$T/$name.trace" "$FST_PROGS/fortg.ins" 2> "$T/err"; then
        fst-dump --summary "$T/$name.trace" > "$T/d"
        expect_eq "$name: fortg captured whole" "306 1" "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d")"
    else
        fail "$name: fortg captured whole" "$(head -3 "$T/err")"
    fi
    [ -z "$(ls -A "$tmp")" ] && ok "$name: the temporary folder is gone" || fail "$name: the temporary folder is gone"
}

# TMPDIR with a newline: what follows it was a line of the script, run as a command
# (Hercules' `sh` here); the blank before the folder's name ends the command's argument
tmp="$T/nl"$'\n'"sh touch $T/pwned "
mkdir -p "$tmp"
captures_fortg "TMPDIR with a newline" "$tmp"
[ ! -e "$T/pwned" ] && ok "TMPDIR with a newline: no command of it ran" \
    || fail "TMPDIR with a newline: no command of it ran" "$T/pwned was created"
# TMPDIR with a blank: the IPL command read only the path's first word
tmp="$T/with blank"
mkdir -p "$tmp"
captures_fortg "TMPDIR with a blank" "$tmp"

# --range goes into the script as it is: hex A-B and nothing else
for r in $'0-\ncf' $'0-FFFFF\n' ' 0-FFFFF' '0-FFFFF ' 0x0-FFFFF 0-0XFFFFF '0-FFFFF#' 0-FF-FF '+0-FFFFF' 0-; do
    expect_fail "--range=$(printf %q "$r") refused" 2 "--range wants A-B in hex" \
        fst-capture --range="$r" -o "$T/x.trace" "$FST_PROGS/fortg.ins"
done
fst-capture -q --range=20020-2006f -o "$T/range.trace" "$FST_PROGS/fortg.ins"
expect_eq "--range in lower case: MAIN's 51 instructions" 51 "$(fst-dump "$T/range.trace" | grep -c '^insn')"

# a start-up that fails: the error of Hercules', at once, and no trace left
ipl_fails() {   # NAME REGEX ARGS...
    local name=$1 re=$2 t0 t1
    shift 2
    rm -f "$T/x.trace"
    t0=$(date +%s.%N)
    expect_fail "$name: Hercules' error" 2 "$re" fst-capture --timeout=$TIMEOUT -o "$T/x.trace" "$@"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v t=$TIMEOUT 'BEGIN { exit !((b - a) * 4 < t) }' \
        && ok "$name: stops at the error, not at the timeout (under a quarter of it)" \
        || fail "$name: stops at the error, not at the timeout" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a " s" }')"
    [ ! -e "$T/x.trace" ] && ok "$name: no trace left" || fail "$name: no trace left"
}
# a piece of the IPL list is gone when Hercules loads it (a wrapper removes it first)
printf '#!/bin/sh\nrm -f piece1.bin\nexec hercules "$@"\n' > "$T/rmpiece"
chmod +x "$T/rmpiece"
ipl_fails "a missing piece" \
    "fortg.ins: Hercules failed to start it: HHCSC003E Load from piece1.bin failed: .*\(piece1.bin: a copy of .*/fortg.bin, loaded at 0x20000\)" \
    --hercules="$T/rmpiece" "$FST_PROGS/fortg.ins"
# the IPL list is corrupt when Hercules reads it
printf '#!/bin/sh\nprintf "\\001\\002 garbage\\n" > program.ins\nexec hercules "$@"\n' > "$T/corrupt"
chmod +x "$T/corrupt"
ipl_fails "a corrupt IPL list" "Hercules failed to start it: HHCSC003E Load from .* failed" \
    --hercules="$T/corrupt" "$FST_PROGS/fortg.ins"
# a Hercules whose log pauses for a second mid-run (a loaded machine; here a wrapper holds
# the log after 150 lines, within the trace of fortg): a quiet log is not its end, the trace is whole
printf '#!/bin/sh\ncase "$1" in --help=*) exec hercules "$@";; esac\nhercules "$@" | sed -u "150e sleep 1"\n' > "$T/pause"
chmod +x "$T/pause"
expect_ok "a log that pauses for a second: the capture goes on" \
    fst-capture -q -o "$T/x.trace" --hercules="$T/pause" "$FST_PROGS/fortg.ins"
expect_eq "... every instruction, complete" "$(awk '$1 == "fortg" && $2 == "instructions" { print $3 }' \
    "$FST_ROOT/tests/programs/EXPECTED") 1" \
    "$(fst-dump --summary "$T/x.trace" | sed -n 's/^count.insn=//p;s/^footer.complete=//p' | tr '\n' ' ' | sed 's/ $//')"
# (the text route: a module capture does not depend on the log)
# a Hercules that closes its log mid-run but never exits (a wrapper passes 3000 lines of the
# real log on and ends, while Hercules runs on and the wrapper sleeps, its output closed): stopped FST_HERC_EXIT_MS (10 s) after the
# end of the log, never waited for until the timeout
printf '#!/bin/sh\ncase "$1" in --help=*) exec hercules "$@";; esac\nhercules "$@" | head -n 3000 &\nexec >&-\nexec sleep 600\n' > "$T/mute"
chmod +x "$T/mute"
t0=$(date +%s)
expect_fail "a Hercules that closes its log and lingers: stopped, said" 2 \
    "Hercules closed its log but did not exit within 10 s, and was stopped, before the program reached a disabled wait: .*x.trace holds [0-9]* instructions and is marked incomplete" \
    fst-capture --via=trace --timeout=300 -o "$T/x.trace" --hercules="$T/mute" "$FST_PROGS/bigloop.ins"
expect_eq "... after about 10 s, not at the 300 s timeout" 1 "$(( $(date +%s) - t0 < 60 ))"
expect_eq "... the trace read to the cut is kept, marked incomplete" "0" \
    "$(fst-dump --summary "$T/x.trace" 2> /dev/null | sed -n 's/^footer.complete=//p')"
# an IPL PSW that S/370 rejects (bit 32 set)
printf '\x00\x08\x00\x00\x80\x02\x00\x00' > "$T/badpsw.lc"
printf 'badpsw.lc 0x0\n%s 0x20000\n' "$FST_PROGS/minimal.bin" > "$T/badpsw.ins"
ipl_fails "an invalid IPL PSW" "badpsw.ins: Hercules failed to start it: HHCCP030E S/370 mode IPL failed: Invalid IPL PSW" \
    "$T/badpsw.ins"

# main storage: Hercules 3.13 takes 2 to 4194303 MB (from 4194304 its size wraps in 32
# bits: a z/Arch piece at 4 TiB made MAINSIZE 4194305, 1 MB of storage, and the IPL loaded
# nothing)
printf 'zpiece.bin 0x0\n%s 0x20000\nzpiece.bin 0x40000000000\n' "$FST_PROGS/minimal.bin" > "$T/at4t.ins"
cp "$FST_PROGS/minimal.lc" "$T/zpiece.bin"
expect_fail "z/Arch piece at 4 TiB: refused before Hercules runs" 2 \
    "at4t.ins:3: .*zpiece.bin .* does not fit .*most main storage Hercules 3.13 takes: 4194303 MB" \
    fst-capture --arch=z/Arch -o "$T/x.trace" "$T/at4t.ins"
for m in 1 4194304 99999999999; do
    expect_fail "--mainsize=$m refused" 2 "--mainsize wants a whole number from 2 to 4194303" \
        fst-capture --mainsize=$m -o "$T/x.trace" "$FST_PROGS/minimal.ins"
done
# a piece at 1 TiB: storage this host cannot give (skipped on a host with 1 TiB of memory)
if [ "$(awk '/^MemTotal:/ { print ($2 < 2^30) }' /proc/meminfo)" = 1 ]; then
    printf 'zpiece.bin 0x0\n%s 0x20000\nzpiece.bin 0x10000000000\n' "$FST_PROGS/minimal.bin" > "$T/at1t.ins"
    ipl_fails "z/Arch piece at 1 TiB" "at1t.ins: Hercules failed to start it: HHCCF031S Cannot obtain 1048577MB main storage" \
        --arch=z/Arch "$T/at1t.ins"
fi

# priorities: run as root, Hercules set its own (process 0, timer thread -20) and undid
# `nice`; now none is more favourable than the caller's (Hercules prints each one)
prios() {   # NICE: "process timer cpu" priorities Hercules reports under nice NICE
    # (a program that runs a while: Hercules starts its timer thread after the CPU's, and a
    # capture that ends at once may stop Hercules before the timer thread's line is logged)
    # (under load the capture can end before even that: tried again, three times at most)
    local try
    for try in 1 2 3; do
        nice -n "$1" fst-capture -q --max-instructions=100000 --keep-log="$T/prio.log" -o "$T/prio.trace" \
            "$FST_PROGS/bigloop.ins"
        grep -q '^HHCTT002I Timer thread started' "$T/prio.log" && break
        echo "# nice $1: no timer thread line in try $try, tried again" >&2
    done
    echo "$(sed -n 's/^HHCCF065I Hercules: .*priority=\(-*[0-9]*\).*/\1/p' "$T/prio.log")" \
         "$(sed -n 's/^HHCTT002I Timer thread started: .*priority=\(-*[0-9]*\).*/\1/p' "$T/prio.log")" \
         "$(sed -n 's/^HHCCP002I CPU0000 thread started: .*priority=\(-*[0-9]*\).*/\1/p' "$T/prio.log")"
}
lvl() { local v=$(($(nice) + $1)); [ $v -gt 19 ] && v=19; [ $v -lt "${2:--20}" ] && v=$2; echo $v; }   # N [FLOOR]
expect_eq "nice 7: Hercules, its timer and its CPU at 7 (not 3.13's CPUPRIO 15)" \
    "$(lvl 7) $(lvl 7) $(lvl 7)" "$(prios 7)"
expect_eq "nice 17: all at 17" "$(lvl 17) $(lvl 17) $(lvl 17)" "$(prios 17)"
grep -q 'HHCCF017W' "$T/prio.log" && fail "no warning about priorities" "$(grep HHCCF017W "$T/prio.log")" \
    || ok "no warning about priorities"
