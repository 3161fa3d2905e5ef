# Address spaces in traced and sampled profiles: tests/programs/spaces.s runs one program
# in two address spaces (CR1 00021000 and 00021040), space A spending three quarters of
# its instructions in WORK1, space B in WORK2.
#   - traced under 3.13 and 4.x: each space's figures exact (EXPECTED);
#   - sampled under SDL Hercules 4.7+ (its /api/v1/cpus gives CR1 with each sample, own
#     Hercules or --attach): fst-report --space splits the samples, each space's WORK1:WORK2
#     about 3:1 or 1:3 (a sample pairs the PSW with the CR1 read a few hundred
#     microseconds later: a space switch in between mislabels it, so the program switches
#     only every ~12 million instructions, and the test asks that the two spaces' shares
#     stand apart (apart, below): mislabels pull both
#     spaces toward the 1:1 their samples unsplit would show, the more so on a loaded host
#     (B 79:158, exactly 2:1, under make check on 2 cores, 2026-12-02));
#   - sampled under 3.13 (no such API): --attach says it cannot, fst-report --space says
#     the samples carry no address space.
# The 4.x part needs one: $FST_HERCULES4 (tests/run: the one scripts/deps.sh builds).
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p" "$2"; }
banner() { "$1" --help=version < /dev/null 2>&1 | grep -Eo -m1 'Hercules [Vv]ersion [0-9][^ ]*' | awk '{ print $3 }'; }
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
P=$FST_ROOT/tests/programs
H313=""; [ -x /usr/bin/hercules ] && [ "$(banner /usr/bin/hercules)" = 3.13 ] && H313=/usr/bin/hercules
H4=${FST_HERCULES4:-}
V=""; [ -n "$H4" ] && V=$(banner "$H4")
case "$V" in 4.[7-9]*|4.[1-9][0-9]*|[5-9].*) ;; *) echo "# 4.x part skipped: no SDL Hercules 4.7+ (scripts/hercules4.sh builds one; or set FST_HERCULES4=PATH)"; H4="" ;; esac
mkdir -p "$T/tmp"
export TMPDIR=$T/tmp

# per space: "JOB WORK1 WORK2" self figures of a csv report
per_space() { fst-report --format=csv --space="$2" "$1" 2> "$T/rerr" | awk -F, '$1=="JOB"{a=$4} $1=="WORK1"{b=$4} $1=="WORK2"{c=$4} END{print a+0, b+0, c+0}'; }
want_space() { awk -v s="$1" '$1=="spaces" && $2=="space" && $3==s { printf "%s%s", sep, $5; sep=" " }' "$EXPECTED"; }

# ---- exact: the traced figures of each space ----
for h in "$H313" "$H4"; do
    [ -n "$h" ] || continue
    v=$(banner "$h")
    if fst-capture -q --hercules="$h" --timeout=60 -o "$T/x.trace" "$FST_PROGS/spaces.ins" 2> "$T/err"; then
        expect_eq "traced under $v: every instruction" "$(awk '$1=="spaces" && $2=="instructions" {print $3}' "$EXPECTED")" \
            "$(fst-dump --summary "$T/x.trace" | dumpval count.insn /dev/stdin)"
        for s in 00021000 00021040; do
            expect_eq "traced under $v: --space=$s: JOB, WORK1, WORK2 self" "$(want_space $s)" "$(per_space "$T/x.trace" $s)"
        done
    else
        fail "traced under $v" "$(head -3 "$T/err")"
    fi
done

# ---- sampled: a long variant, each job running ~12 million instructions a dispatch ----
if s390x-linux-gnu-as -m31 --defsym ROUNDS=10 --defsym K1A=9000000 --defsym K2A=3000000 --defsym K1B=3000000 \
       --defsym K2B=9000000 -I "$P" -o "$T/big.o" "$P/spaces.s" &&
   s390x-linux-gnu-ld -m elf_s390 -T "$P/standalone.ld" -o "$T/big.elf" "$T/big.o" &&
   s390x-linux-gnu-objcopy -O binary -j .lowcore "$T/big.elf" "$T/big.lc" &&
   s390x-linux-gnu-objcopy -O binary -j .text "$T/big.elf" "$T/big.bin"; then
    printf 'big.lc 0x0\nbig.bin 0x20000\n' > "$T/big.ins"
else
    fail "assemble the long spaces.s"
    exit 0
fi
# WORK1 and WORK2 samples of one space: "w1 w2"
work() { fst-report --format=csv --space="$2" "$1" 2> "$T/rerr" | awk -F, '$1=="WORK1"{a=$4} $1=="WORK2"{b=$4} END{print a+0, b+0}'; }
# 1 when space A ("w1 w2") is mostly WORK1 and space B mostly WORK2, and A's share of WORK1
# is over B's by more than 0.2 (the spaces' samples unsplit would show one share in both;
# mislabels pull both toward 1:1, so a fixed ratio of each alone, 3:2 until 2026-12-06,
# failed now and then under make check: A 30:20 and 62:43, with B 19:84 and 25:78)
apart() { awk -v a1="$1" -v a2="$2" -v b1="$3" -v b2="$4" 'BEGIN {
    ok = a1 > a2 && b2 > b1 && a1 > 10 && b2 > 10 && (a1 / (a1 + a2) - b1 / (b1 + b2)) > 0.2
    print ok ? 1 : 0 }'; }
split_check() {   # NAME TRACE
    local a b
    a=$(work "$2" 00021000); b=$(work "$2" 00021040)
    expect_eq "$1: space A mostly WORK1, space B mostly WORK2, A's share of WORK1 over B's by 0.2 (samples: A $a, B $b)" \
        "1" "$(apart ${a% *} ${a#* } ${b% *} ${b#* })"
}

if [ -n "$H4" ]; then
    if fst-capture -q --sample --hercules="$H4" --timeout=120 -o "$T/s4.trace" "$T/big.ins" 2> "$T/err"; then
        fst-dump --summary "$T/s4.trace" > "$T/d"
        expect_eq "sampled under $V: complete, ended by its disabled wait, CR1 with the samples" "1 disabled-wait 1" \
            "$(dumpval footer.complete "$T/d") $(dumpval footer.end "$T/d") $(dumpval footer.sample-cr1 "$T/d")"
        split_check "sampled under $V" "$T/s4.trace"
    else
        fail "sampled under $V" "$(head -3 "$T/err")"
    fi
fi
if [ -n "$H313" ]; then
    if fst-capture -q --sample --hercules="$H313" --timeout=120 -o "$T/s3.trace" "$T/big.ins" 2> "$T/err"; then
        expect_fail "sampled under 3.13: fst-report --space says its samples carry no address space" 2 \
            "s3.trace: --space: its samples carry no address space \(no CR1: sampled from Hercules 3.13" \
            fst-report --format=csv --space=21000 "$T/s3.trace"
        fst-report --format=csv "$T/s3.trace" > /dev/null 2> "$T/rerr"
        expect_eq "sampled under 3.13: fst-report warns that every space's samples are mixed" 1 \
            "$(grep -c 'samples ran with DAT on but carry no address space .*mixed' "$T/rerr")"
        expect_fail "sampled: --by-task refused in one line" 2 "a sampled trace: --by-task needs tasks" \
            fst-report --format=csv --by-task "$T/s3.trace"
    else
        fail "sampled under 3.13" "$(head -3 "$T/err")"
    fi
fi

# ---- --attach: a Hercules the user runs, with an HTTP port ----
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
attach_check() {   # VERSION-NAME ; Hercules started in $T/h, listening on $port
    local i
    for i in $(seq 100); do   # its port open
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2> /dev/null && break
        sleep 0.1
    done
    fst-capture --sample --attach=127.0.0.1:$port --seconds=1 -o "$T/a.trace" 2> "$T/aerr"
}
mkdir -p "$T/h"; cp "$T/big.lc" "$T/big.bin" "$T/big.ins" "$T/h/"
if [ -n "$H4" ]; then
    port=$(free_port)
    printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nHTTP PORT %s NOAUTH\nHTTP START\n000C 3505 /dev/null\n' "$port" > "$T/h/h4.cnf"
    printf 'ipl big.ins\n' > "$T/h/h4.rc"
    # its own session and process group (its id in h4.pid); its stdin a FIFO held open
    # here (4.x ends at the end of its stdin)
    mkfifo "$T/h/h4.in"
    (cd "$T/h" && exec setsid sh -c 'echo $$ > h4.pid; exec timeout -s KILL 30 "$0" -n -f h4.cnf -r h4.rc -o h4.log < h4.in' \
        "$H4" > /dev/null 2>&1) &
    hp=$!
    exec 7> "$T/h/h4.in"
    attach_check
    expect_eq "--attach to $V: the note says each sample carries its address space" 1 \
        "$(grep -c 'carries its address space (CR1, from /api/v1/cpus)' "$T/aerr")"
    expect_eq "--attach to $V: CR1 records in the trace" 1 \
        "$(fst-dump --summary "$T/a.trace" | awk -F= '$1=="count.cr" { print ($2 > 0) }')"
    kill -KILL -- -"$(cat "$T/h/h4.pid")" 2> /dev/null; exec 7>&-; wait "$hp" 2> /dev/null
fi
if [ -n "$H313" ]; then
    port=$(free_port)
    printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nHTTPPORT %s NOAUTH\n000C 3505 /dev/null\n' "$port" > "$T/h/h3.cnf"
    printf 'ipl big.ins\n' > "$T/h/h3.rc"
    (cd "$T/h" && HERCULES_RC=h3.rc exec setsid sh -c 'echo $$ > h3.pid; exec timeout -s KILL 30 "$0" -d -f h3.cnf' \
        "$H313" > "$T/h/h3.log" 2>&1 < /dev/null) &
    hp=$!
    attach_check
    expect_eq "--attach to 3.13: says it has no /api/v1/cpus, the samples carry no address space" 1 \
        "$(grep -c 'has no /api/v1/cpus (3.13, or SDL Hercules before 4.7): the samples carry no address space' "$T/aerr")"
    kill -KILL -- -"$(cat "$T/h/h3.pid")" 2> /dev/null; wait "$hp" 2> /dev/null
fi
sleep 0.2
left=$(for p in /proc/[0-9]*; do readlink "$p/cwd" 2> /dev/null | grep -q "^$T/" && echo "${p#/proc/}"; done)
expect_eq "no Hercules left running" "" "$left"
echo "1..$N"
