# tests/lib.sh — helpers for the end-to-end scripts (sourced). Each check prints one
# "ok N - name" or "not ok N - name" line (TAP), with the detail on "#" lines after it.
set -u
N=0
T=${FST_TMP:-/tmp}/$(basename "$0" .sh)
mkdir -p "$T"
PATH=$FST_BIN:$PATH

ok()   { N=$((N+1)); echo "ok $N - $1"; }
fail() { N=$((N+1)); echo "not ok $N - $1"; shift; [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/#   /'; return 0; }

# replays_same NAME TRACE WAYS [REPORT OPTIONS]: every way of replaying gives the report of
# the replay with no folding, memo or stretches (FST_REPLAY_NOFOLD=1) and the whole call graph
# (FST_REPLAY_FULLGRAPH=1: see fst_replay_opts.flat), output and stderr byte
# for byte, in the formats that allow them all, with and without --by-task. WAYS: the
# environment settings to compare (VAR=VALUE, or - for none), separated by spaces.
replays_same() {
    local name=$1 trace=$2 ways=$3 f w
    shift 3
    for f in fortstat csv "csv --by-task" json prof tree; do
        # shellcheck disable=SC2086
        # the base keeps the whole call graph: fortstat and prof keep only calls and self
        # figures otherwise (fst_replay_opts.flat), which must print the same
        FST_REPLAY_NOFOLD=1 FST_REPLAY_FULLGRAPH=1 fst-report "$@" --format=$f -o base.out "$trace" 2> base.err
        local bad=""
        for w in $ways; do
            # shellcheck disable=SC2086
            if [ "$w" = - ]; then fst-report "$@" --format=$f -o how.out "$trace" 2> how.err
            else env "$w" fst-report "$@" --format=$f -o how.out "$trace" 2> how.err; fi
            cmp -s base.out how.out && cmp -s base.err how.err || bad="$bad $w"
        done
        if [ -z "$bad" ]; then ok "$name: $f as replayed whole"
        else fail "$name: $f as replayed whole" "differs:$bad" "$(diff base.out how.out | head -6)"; fi
    done
}

# replay_hits LABEL [REPORT OPTIONS]: the hits and the instructions of the replay's
# FST_REPLAY_FOLD_STATS line LABEL ("calls memoized", "stretches memoized"), as "HITS INSNS"
replay_hits() {
    local label=$1
    shift
    FST_REPLAY_FOLD_STATS=1 fst-report "$@" -o /dev/null 2>&1 |
        sed -n "s/^fst: replay: $label: \([0-9]*\) hits ([0-9]* runs, \([0-9]*\) instructions.*/\1 \2/p"
}

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected: $2" "got:      $3"; fi
}
# expect_ok NAME CMD...            the command exits 0
expect_ok() {
    local name=$1; shift
    if "$@" > "$T/out" 2> "$T/err"; then ok "$name"; else fail "$name" "exit $?: $*" "$(head -5 "$T/err")"; fi
}
# expect_fail NAME CODE REGEX CMD...   exits CODE and stderr matches REGEX
expect_fail() {
    local name=$1 code=$2 re=$3; shift 3
    "$@" > "$T/out" 2> "$T/err"
    local rc=$?
    if [ "$rc" -ne "$code" ]; then fail "$name" "exit $rc, expected $code: $*" "$(head -5 "$T/err")"
    elif ! grep -Eq -- "$re" "$T/err"; then fail "$name" "stderr does not match /$re/:" "$(head -5 "$T/err")"
    elif grep -q 'AddressSanitizer\|runtime error' "$T/err"; then fail "$name" "sanitizer report" "$(head -5 "$T/err")"
    else ok "$name"; fi
}
# flip_byte FILE OFFSET   damage a file: invert every bit of one byte (writing a fixed
# value would leave the file as it was wherever the byte already held that value)
flip_byte() {
    local b
    b=$(od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
    printf "\\$(printf '%03o' $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# expect_golden NAME GOLDEN FILE   FILE equals the golden file byte for byte
expect_golden() {
    if [ ! -f "$2" ]; then fail "$1" "no golden file $2"
    elif diff -u "$2" "$3" > "$T/diff"; then ok "$1"
    else fail "$1" "$(head -20 "$T/diff")"; fi
}

# iewl_from_nm NM BINSIZE MEMBER: an IEWL MODULE MAP listing for a test program, from the
# text symbols of `nm -P -n` of its ELF (module-relative origins, the first routine at 0)
iewl_from_nm() {   # NM BINSIZE MEMBER
    awk -v size="$2" -v member="$3" '
    function num(h,   i, v) { v = 0; h = toupper(h)
        for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1
        return v }
    BEGIN { n = 0 }
    $2 ~ /^[Tt]$/ { name[n] = $1; addr[n] = num($3); n++ }
    END {
        end = 131072 + size; base = addr[0]
        print " F64-LEVEL LINKAGE EDITOR OPTIONS SPECIFIED MAP,LET,LIST"
        print "                                                      MODULE MAP"
        print "  CONTROL SECTION                       ENTRY"
        print "    NAME    ORIGIN  LENGTH                NAME   LOCATION     NAME   LOCATION     NAME   LOCATION     NAME   LOCATION"
        for (i = 0; i < n; i++)
            printf "  %-8s  %6X  %6X\n", name[i], addr[i] - base, (i + 1 < n ? addr[i + 1] : end) - addr[i]
        printf " ENTRY ADDRESS  %6X\n", 0
        printf " TOTAL LENGTH   %6X\n", int((end - base + 7) / 8) * 8
        printf "****%-8s  NOW REPLACED IN DATA SET\n", member }' "$1"
}

# run_bounded MB SEC CMD...   run CMD (stdout to $T/out, stderr to $T/err), killing it when
# its resident memory passes MB megabytes or it has run SEC seconds: a memory limit that
# also works under AddressSanitizer, which cannot start under `ulimit -v` (it reserves
# terabytes of address space for its shadow memory). Sets rc (the exit code) and limit
# ("" when the command ended by itself, else what stopped it).
run_bounded() {
    local mb=$1 sec=$2 pid ticks=0 rss
    shift 2
    "$@" > "$T/out" 2> "$T/err" &
    pid=$!
    limit=""
    while kill -0 "$pid" 2> /dev/null; do
        rss=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$pid/status" 2> /dev/null)
        if [ "${rss:-0}" -gt "$mb" ]; then limit="memory: ${rss} MB after $((ticks / 20)) s"; kill -9 "$pid"; break; fi
        if [ "$ticks" -ge $((sec * 20)) ]; then limit="time: ${sec} s"; kill -9 "$pid"; break; fi
        sleep 0.05
        ticks=$((ticks + 1))
    done
    wait "$pid" 2> /dev/null
    rc=$?
}
# expect_bounded NAME MB SEC CODE REGEX CMD...   within MB megabytes and SEC seconds, CMD
# exits CODE and its stderr matches REGEX
expect_bounded() {
    local name=$1 mb=$2 sec=$3 code=$4 re=$5
    shift 5
    run_bounded "$mb" "$sec" "$@"
    if [ -n "$limit" ]; then fail "$name" "stopped by the $limit: $*"
    elif [ "$rc" -ne "$code" ]; then fail "$name" "exit $rc, expected $code: $*" "$(head -5 "$T/err")"
    elif ! grep -Eq -- "$re" "$T/err"; then fail "$name" "stderr does not match /$re/:" "$(head -5 "$T/err")"
    elif grep -q 'AddressSanitizer\|runtime error' "$T/err"; then fail "$name" "sanitizer report" "$(head -5 "$T/err")"
    else ok "$name"; fi
}

# module_same NAME INS ARCH DIR MAP: NAME captured --via=module from INS (--arch=ARCH) under
# Hercules 3.13 and, when built, SDL Hercules 4.9 (fst's module: lib/fst-hercules313.so,
# fst-hercules4.so), into DIR/m and DIR/m4; its csv, callgrind and FORTSTAT (fst-report
# --timed=all --map=MAP, run in each folder, so that the reports name the same trace) must be
# those of DIR/t/NAME.trace, the text trace's, byte for byte. Checks saying nothing on stderr.
module_same() {
    local b=$1 ins=$2 arch=$3 d=$4 map=$5 m mod dir herc f x bad hopt ph
    # 3.13 as the module runs, and again (m3p) and under 4.9 with phases of a few branches
    # (FSTMOD_ENV_PHASE: copies looked for, then not, over and over; drawn, printed); the
    # first packed small, the second fast, the third as the host's cores say (FST_TRACE_PACK:
    # capture/modread/modpack.h)
    ph=$(( RANDOM % 6 + 1 ))
    mkdir -p "$d/m" "$d/m3p" "$d/m4"
    for m in "$FST_BIN/../lib/fst-hercules313.so:m:3.13" "$FST_BIN/../lib/fst-hercules313.so:m3p:3.13, phases of $ph" \
             "$FST_BIN/../lib/fst-hercules4.so:m4:4.9, phases of $ph"; do
        IFS=: read -r mod dir herc <<< "$m"
        [ -f "$mod" ] || continue
        hopt=()
        if [ $dir = m4 ]; then
            [ -n "${FST_HERCULES4:-}" ] || continue
            hopt=(--hercules="$FST_HERCULES4")
        fi
        if ! env FST_MODULE_TEST_PHASE=$([ $dir = m ] || echo "$ph") \
                FST_TRACE_PACK=$(case $dir in m) echo small ;; m3p) echo fast ;; esac) \
                fst-capture -q --via=module "${hopt[@]}" --arch="$arch" -o "$d/$dir/$b.trace" "$ins" 2> "$T/err" ||
           [ -s "$T/err" ]; then
            fail "$b: --via=module ($herc) captures it, saying nothing" "$(head -3 "$T/err")"
            continue
        fi
        bad=""
        for f in csv callgrind fortstat; do
            for x in t $dir; do
                (cd "$d/$x" && fst-report --timed=all --map="$map" --format=$f -o "$b.$f" "$b.trace" 2> /dev/null)
            done
            cmp -s "$d/t/$b.$f" "$d/$dir/$b.$f" || bad="$bad $f"
        done
        if [ -z "$bad" ]; then ok "$b: --via=module ($herc): csv, callgrind and FORTSTAT the same as the text trace's"
        else fail "$b: --via=module ($herc): csv, callgrind and FORTSTAT the same as the text trace's" "differ:$bad" \
            "$(diff "$d/t/$b.csv" "$d/$dir/$b.csv" | head -6)"; fi
    done
}

# prog_build B SRC [AS OPTIONS ...]: a standalone program of tests/programs (SRC: its .s)
# assembled and linked as the GNUmakefile does, with the options given (--defsym X=V):
# B.o, B.elf, B.lc, B.bin and B.ins (its IPL list, files named relative to it). 1 when
# binutils fails.
prog_build() {
    local b=$1 src=$2 p=$FST_ROOT/tests/programs
    shift 2
    s390x-linux-gnu-as -m31 -I "$p" "$@" -o "$b.o" "$src" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$p/standalone.ld" -o "$b.elf" "$b.o" &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore "$b.elf" "$b.lc" &&
    s390x-linux-gnu-objcopy -O binary -j .text "$b.elf" "$b.bin" || return 1
    printf '%s.lc 0x0\n%s.bin 0x20000\n' "$(basename "$b")" "$(basename "$b")" > "$b.ins"
}

# mvsjob_build B VPAGE JOFF K ROUNDS [--defsym X=V ...]: tests/programs/mvsjob.s assembled into
# B.o, B.elf, B.lc, B.bin and B.ins (its IPL list, files named relative to it); then the maps
# of its two programs from nm, module-relative: B.job.csv (MAIN..JOBEND), B.other.csv
# (XMAIN..XEND), and B.job.lst, the job's as a linkage editor's MODULE MAP listing. 1 when
# binutils fails.
mvsjob_build() {
    local b=$1 vpage=$2 joff=$3 k=$4 rounds=$5 p=$FST_ROOT/tests/programs
    shift 5
    prog_build "$b" "$p/mvsjob.s" --defsym VPAGE="$vpage" --defsym JOFF="$joff" --defsym K="$k" \
        --defsym ROUNDS="$rounds" "$@" || return 1
    s390x-linux-gnu-nm -P -n --defined-only "$b.elf" | awk '$2 == "T" { print $1, $3 }' > "$b.syms"
    local pair
    for pair in "MAIN JOBEND job" "XMAIN XEND other"; do
        set -- $pair
        awk -v first="$1" -v last="$2" 'function num(h,  i, v) { v = 0; h = toupper(h)
                for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1; return v }
            BEGIN { k = 0 } $1 == first { on = 1; base = num($2) } on { n[k] = $1; a[k++] = num($2) } $1 == last { on = 0 }
            END { print "name,type,origin,length"; for (i = 0; i + 1 < k; i++) printf "%s,SD,%X,%X\n", n[i], a[i] - base, a[i + 1] - a[i] }' \
            "$b.syms" > "$b.$3.csv"
    done
    awk -F, 'function num(h,  i, v) { v = 0; h = toupper(h)
                for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1; return v }
             NR == 1 { print " F64-LEVEL LINKAGE EDITOR OPTIONS SPECIFIED MAP,LET,LIST"
                       print "                                                      MODULE MAP"
                       print "  CONTROL SECTION                       ENTRY"
                       print "    NAME    ORIGIN  LENGTH                NAME   LOCATION     NAME   LOCATION"; next }
             { printf "  %-8s  %6s  %6s\n", $1, $3, $4; end = sprintf("%X", num($3) + num($4)) }
             END { printf " ENTRY ADDRESS  %6X\n", 0; printf " TOTAL LENGTH   %6s\n", end
                   print "****FSTJOB    NOW REPLACED IN DATA SET" }' "$b.job.csv" > "$b.job.lst"
}

# mvsjob_want R K: the job's program's figures for R runs ("routine calls self" lines,
# --timed=all), from mvsjob.s's head; mvsjob_got CSV: the same lines of a csv report.
mvsjob_want() {
    printf 'MAIN 0 %d\nWORK %d %d\nLEAF %d %d\nWORK2 %d %d\n' $((16 * $1)) $((2 * $1)) $((2 * ($2 + 8) * $1)) \
        $((2 * $1)) $((4 * $1)) "$1" $((6 * $1))
}
mvsjob_got() { awk -F, '$1 ~ /^(MAIN|WORK|LEAF|WORK2)$/ { print $1, $3, $4 }' "$1"; }

# herc_as_user DIR INS HERCULES MODULE IRQ [stay|console|rc:LINES]...: Hercules started in DIR as a
# user starts theirs with fst's module: `LDMOD MODULE` in its configuration (S/370, 2 MB,
# one CPU), FST_MODULE_OUT=DIR/mod.fifo and LD_PRELOAD=IRQ (none when empty) in its
# environment, `ipl INS` in its start-up script; its log DIR/h.log. It quits at the
# program's disabled wait ("stay": 3.13 stays up), after 300 s at the latest; "console": a
# 3215-C console at 009; "rc:LINES": more lines of its start-up script before the IPL (\n
# between them). HERCULES: hercules (3.13) or a 4.x's path. Its own process group
# (kill -- -$hpid); sets hpid.
herc_as_user() {
    local d=$1 ins=$2 h=$3 mod=$4 irq=$5 quit=1 cons="" extra="" o
    shift 5
    for o in "$@"; do
        case $o in stay) quit=0 ;; console) cons='0009 3215-C /\n' ;; rc:*) extra="${o#rc:}\n" ;; esac
    done
    printf "ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\nLDMOD %s\n000C 3505 /dev/null\n$cons" \
        "$mod" > "$d/h.cnf"
    if [ "$h" = hercules ]; then
        { [ $quit = 1 ] && printf 'hao tgt HHCCP011I\nhao cmd quit\n'; printf "$extra"; printf 'ipl %s\n' "$ins"; } > "$d/h.rc"
        (cd "$d" && FST_MODULE_OUT=$d/mod.fifo LD_PRELOAD=$irq HERCULES_RC=$d/h.rc \
            exec setsid timeout -s KILL 300 hercules -d -f h.cnf > h.log 2>&1 < /dev/null) &
    else   # 4.x: ends at the end of its stdin
        { [ $quit = 1 ] && printf 'hao tgt HHC00809I\nhao cmd quit\n'; printf "$extra"; printf 'ipl %s\n' "$ins"; } > "$d/h.rc"
        (cd "$d" && FST_MODULE_OUT=$d/mod.fifo LD_PRELOAD=$irq \
            exec setsid timeout -s KILL 300 "$h" -f h.cnf -r h.rc > h.log 2>&1 < <(sleep 300)) &
    fi
    hpid=$!
}

# C programs' reports (tests/e2e/cprog.sh, cgen.sh). cp_reports P CMD...: CMD (an fst-report
# command line) on P.trace into P.csv, P.cg (callgrind), P.ss (speedscope), P.folded and
# P.json. same NAME WANT GOT: equal texts, else the difference (< construction or valgrind,
# > fst). cg WHAT FNS CG: callgrind.awk's calls, arcs or contexts of the functions FNS.
# ctx: calls per calling context (speedscope.awk's) folded as callgrind folds them.
CPAWK=$FST_ROOT/tests/cprogs
cp_reports() {
    local p=$1; shift
    "$@" --format=csv -o "$p.csv" "$p.trace" && "$@" --format=callgrind -o "$p.cg" "$p.trace" &&
    "$@" --format=speedscope --unit=instructions -o "$p.ss" "$p.trace" &&
    "$@" --format=folded --unit=instructions -o "$p.folded" "$p.trace" && "$@" --format=json -o "$p.json" "$p.trace"
}
same() {
    if [ "$2" = "$3" ]; then ok "$1"
    else fail "$1" "$(diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | grep '^[<>]' | head -20)"; fi
}
cg() { awk -v what="$1" -v fns="$2" -f "$CPAWK/callgrind.awk" "$3" | sort; }
ctx() { awk -f "$CPAWK/contexts.awk" | sort; }
