# fst-capture killed outright, or failing before the capture starts: Hercules never
# outlives it, its temporary folder goes away wherever fst-capture could remove it, and
# a live trace reaches its file about every second (a SIGKILL keeps everything but the
# last second, readable up to its last whole frame).
#
# Our Hercules is found by what is ours alone, never by name (other tests run Hercules
# at the same time): the child's pid, its process group, and the working folder of each
# Hercules fst-capture starts, inside a private TMPDIR.
. "$(dirname "$0")/../lib.sh"
dumpval() { sed -n "s/^$1=//p" "$2"; }

alive() {   # PID: a process that runs (a zombie has ended)
    local s
    s=$(ps -o stat= -p "$1" 2> /dev/null) && [ -n "$s" ] && [ "${s#Z}" = "$s" ]
}
in_folder() {   # DIR: the pids of live processes whose working folder is inside DIR
    local p d
    for p in /proc/[0-9]*; do
        d=$(readlink "$p/cwd" 2> /dev/null) || continue
        case "$d" in "$1"/*) alive "${p#/proc/}" && echo "${p#/proc/}" ;; esac
    done
}
gone_within() {   # PID SECONDS: the process ends within SECONDS
    local i
    for ((i = 0; i < $2 * 10; i++)); do alive "$1" || return 0; sleep 0.1; done
    return 1
}
wait_for() {   # SECONDS CMD...: CMD succeeds within SECONDS
    local i
    for ((i = 0; i < $1 * 10; i++)); do "${@:2}" && return 0; sleep 0.1; done
    return 1
}
has_insns() { fst-dump --summary "$1" 2> /dev/null | awk -F= '$1 == "count.insn" && $2 > 0 { f = 1 } END { exit !f }'; }
reap() {   # whatever a failed check left running is ours: stop it
    local p
    for p in "$@"; do kill -KILL "$p" 2> /dev/null; done
}

# kill_capture NAME PROGRAM [OPTION...]: SIGKILL a capture once its trace file shows instructions
kill_capture() {
    local name=$1 prog=$2 tmp=$T/tmp-$1 trace=$T/$1.trace pid herc
    shift 2
    mkdir -p "$tmp"
    TMPDIR=$tmp fst-capture -q --timeout=120 "$@" -o "$trace" "$FST_PROGS/$prog.ins" 2> "$T/$name.err" &
    pid=$!
    wait_for 30 eval '[ -n "$(pgrep -P $pid)" ]'
    herc=$(pgrep -P $pid | head -1)
    [ -n "$herc" ] && ok "$name: Hercules runs as fst-capture's child ($herc)" \
        || fail "$name: Hercules runs as fst-capture's child"
    # the periodic flush: instructions reach the file while the capture runs
    if wait_for 20 has_insns "$trace"; then ok "$name: the live trace shows instructions (flushed)"
    else fail "$name: the live trace shows instructions within 20 s (flushed)"; fi
    kill -KILL $pid
    wait $pid 2> /dev/null
    fst-dump --summary "$trace" > "$T/d" 2> "$T/err"
    local n
    n=$(dumpval count.insn "$T/d")
    # it ends at a frame's end (no footer) or inside the frame being written (cut short)
    expect_eq "$name: the killed trace is readable and incomplete" "0 yes" \
        "$(dumpval complete "$T/d") $(dumpval incomplete "$T/d" | grep -qE '^(cut short|no footer)' && echo yes)"
    [ "${n:-0}" -gt 0 ] && ok "$name: the killed trace holds the instructions flushed ($n)" \
        || fail "$name: the killed trace holds instructions" "$(cat "$T/d" "$T/err" | head -5)"
    if [ -n "$herc" ]; then
        gone_within "$herc" 10 && ok "$name: Hercules ($herc) dies with fst-capture" \
            || { fail "$name: Hercules ($herc) dies with fst-capture" "$(ps -o pid,ppid,stat,cmd -p "$herc")"; reap "$herc"; }
        local grp
        grp=$(for p in $(pgrep -g "$herc"); do alive "$p" && echo "$p"; done)
        [ -z "$grp" ] && ok "$name: nothing left in Hercules' process group" \
            || { fail "$name: nothing left in Hercules' process group" "$grp"; reap $grp; }
    fi
    local left
    left=$(in_folder "$tmp")
    [ -z "$left" ] && ok "$name: no process left in the capture's folder" \
        || { fail "$name: no process left in the capture's folder" "$left"; reap $left; }
    [ -z "$(ls -A "$tmp")" ] && ok "$name: the temporary folder is gone" \
        || fail "$name: the temporary folder is gone" "$(ls -AR "$tmp" | head -5)"
}

# a program that mostly waits: no frame would fill in hours; only the flush saves it (the
# module's route, the default; and the text trace's)
kill_capture ticker ticker
expect_ok "ticker: fst-report reads the killed trace" fst-report --format=csv -o "$T/ticker.csv" "$T/ticker.trace"
expect_eq "ticker: ... all its instructions, outside any routine" "$(dumpval count.insn "$T/d")" \
    "$(awk -F, '$1 == "(outside)" { print $4 }' "$T/ticker.csv")"
kill_capture ticker-t ticker --via=trace
# a program that runs at full speed: Hercules busy on the CPU when fst-capture dies (the
# text trace: through the module bigloop ends before a kill could come)
kill_capture bigloop bigloop --via=trace
expect_ok "bigloop: fst-report reads the killed trace" fst-report "$T/bigloop.trace"
grep -q ' TICK ' "$T/out" && ok "bigloop: the report of the killed trace names TICK" \
    || fail "bigloop: the report of the killed trace names TICK" "$(head -5 "$T/out")"

# the flush costs little: a capture of bigloop makes about one more frame a second
fst-capture -q --via=trace -o "$T/full.trace" "$FST_PROGS/bigloop.ins"
fst-dump --summary "$T/full.trace" > "$T/d"
expect_eq "bigloop: the flushed trace is complete and exact" "1100017 1" \
    "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d")"

# failures before the capture starts leave no Hercules and no folder
fail_early() {   # NAME REGEX ARGS...: fst-capture fails (exit 2, stderr REGEX), nothing left behind
    local name=$1 re=$2 tmp=$T/tmp-$1
    shift 2
    mkdir -p "$tmp"
    expect_fail "$name: an error" 2 "$re" env TMPDIR="$tmp" fst-capture "$@"
    sleep 1   # an orphan Hercules would have started by now
    local left
    left=$(in_folder "$tmp")
    [ -z "$left" ] && ok "$name: no Hercules left running" || { fail "$name: no Hercules left running" "$left"; reap $left; }
    [ -z "$(ls -A "$tmp")" ] && ok "$name: no temporary folder left" \
        || fail "$name: no temporary folder left" "$(ls -AR "$tmp" | head -5)"
}
fail_early keeplog "$T/nodir/x.log: cannot create" \
    --keep-log="$T/nodir/x.log" -o "$T/kl.trace" "$FST_PROGS/bigloop.ins"
[ ! -e "$T/kl.trace" ] && ok "keeplog: no trace file left" || fail "keeplog: no trace file left"

# a write error while the storage image goes out (the reader of a FIFO goes away after
# 1000 bytes; the image piece is 1 MiB of random bytes, more than a pipe holds even packed
# by trace.bin v2's zstd)
head -c $((1 << 20)) /dev/urandom > "$T/zeros.bin"
printf '%s 0x0\n%s 0x20000\nzeros.bin 0x100000\n' "$FST_PROGS/bigloop.lc" "$FST_PROGS/bigloop.bin" > "$T/withzeros.ins"
mkfifo "$T/fifo"
head -c 1000 "$T/fifo" > /dev/null &
fail_early imagewrite "fifo: byte [0-9]+: cannot write" -o "$T/fifo" "$T/withzeros.ins"
wait
[ -p "$T/fifo" ] && ok "imagewrite: the FIFO given as -o is not removed" || fail "imagewrite: the FIFO given as -o is not removed"
