#!/bin/bash
# fst-capture --sample (issue 15): PSW sampling through Hercules' HTTP server, real
# Hercules on tests/programs/shares.s assembled with a large round count; reports from
# samples; errors from servers that are not Hercules, closed ports, garbage, slow answers,
# a Hercules that dies.
. "$(dirname "$0")/../lib.sh"
D=$FST_ROOT/tests/e2e/sample
P=$FST_ROOT/tests/programs

# shares.s with 150000 rounds: ~600 million instructions, a few seconds untraced
s390x-linux-gnu-as -m31 --defsym ROUNDS=150000 -I "$P" -o "$T/big.o" "$P/shares.s" &&
s390x-linux-gnu-ld -m elf_s390 -T "$P/standalone.ld" -o "$T/big.elf" "$T/big.o" &&
s390x-linux-gnu-objcopy -O binary -j .lowcore "$T/big.elf" "$T/big.lc" &&
s390x-linux-gnu-objcopy -O binary -j .text "$T/big.elf" "$T/big.bin" &&
printf 'big.lc 0x0\nbig.bin 0x20000\n' > "$T/big.ins" || fail "assemble shares.s with ROUNDS=150000"

expect_ok "capture --sample runs shares to its disabled wait" fst-capture --sample -o "$T/s.trace" "$T/big.ins"
grep -q 'ended by disabled-wait' "$T/err" && ok "ended by the disabled wait" || fail "ended by the disabled wait" "$(cat "$T/err")"
echo "# $(cat "$T/err")"
fst-dump --summary "$T/s.trace" > "$T/dump"
expect_eq "the sampled trace is complete" "complete=1" "$(grep '^complete=' "$T/dump")"
expect_eq "header says source=sample" "header.source=sample" "$(grep '^header.source=' "$T/dump")"
expect_eq "dump counts as many samples as the footer" "$(sed -n 's/^footer.samples=//p' "$T/dump")" \
    "$(sed -n 's/^count.sample=//p' "$T/dump")"

# Shares by construction (shares.s): ALPHA 2006, BETA 1206, GAMMA 806 of 4025 instructions a
# round. Tolerance: with n samples, a share p is binomial with sigma = sqrt(p(1-p)/n); allow
# 4 sigma (a false failure about once in 16000 per routine) plus 3 points for what
# sampling host time cannot remove: Hercules' time per instruction is not the same for
# every instruction (the routines' entries and exits), and the PSW is read by another host
# thread while the CPU thread runs.
fst-report --format=csv "$T/s.trace" > "$T/s.csv" 2> "$T/s.err"
awk -F, -v tol_pts=3 '
    BEGIN { e["ALPHA"] = 2006/4025; e["BETA"] = 1206/4025; e["GAMMA"] = 806/4025 }
    $1 == "(total)" { n = $4 }
    $1 in e { got[$1] = $4 }
    END {
        bad = 0
        for (r in e) { p = e[r]; s = got[r] / n; tol = 4 * sqrt(p * (1 - p) / n) + tol_pts / 100
            d = s - p; if (d < 0) d = -d
            printf "# %s: %d of %d samples = %.1f %%, expected %.1f %% +- %.1f\n", r, got[r], n, 100 * s, 100 * p, 100 * tol
            if (d > tol) bad = 1 }
        if (n < 30) { print "# too few samples: " n; bad = 1 }
        exit bad }' "$T/s.csv" > "$T/shares" && ok "sampled shares agree with the construction" \
    || fail "sampled shares agree with the construction" "$(cat "$T/shares")"
cat "$T/shares"
grep -q 'not modelled S/370 time' "$T/s.err" && ok "the report says the host-time bias" || fail "the report says the host-time bias"
for f in prof maptime folded json; do
    expect_ok "--format=$f on a sampled trace" fst-report --format=$f "$T/s.trace"
done
grep -q 'not modelled S/370 time' "$T/out" && ok "json's clock says the bias" || fail "json's clock says the bias"
expect_ok "maptime" fst-report --format=maptime "$T/s.trace"
grep -q 'CLOCK host time' "$T/out" && ok "maptime's header says host time" || fail "maptime's header says host time"
fst-report --format=fortstat "$T/s.trace" > "$T/out" 2> "$T/err"
grep -q 'sampled trace: it has no calls' "$T/err" && grep -q 'ALPHA' "$T/out" && ok "fortstat says there are no calls, prints time" \
    || fail "fortstat says there are no calls, prints time" "$(cat "$T/err")"
fst-report --format=callgrind -o "$T/cg.out" "$T/s.trace" 2> "$T/err"
grep -q 'no calls' "$T/err" && ok "callgrind says there are no calls" || fail "callgrind says there are no calls" "$(cat "$T/err")"

# --format=annotate: samples per instruction (shares.s: each leaf's loop AR, AR, AR, BCT at
# +16..+1C runs 4 x K of its K x 4 + 6 instructions, so its hottest line lies there), said
# to be sampled, no executions, times or branch counts; code no sample fell on decoded from
# the image (the leaf's STM 14,12,12(13) after the 12-byte FORTRAN entry, MAIN's 3 BALRs)
expect_ok "annotate on a sampled trace" fst-report --format=annotate -o "$T/s.ann" "$T/s.trace"
grep -q '^\* A SAMPLED TRACE: [0-9]* samples' "$T/s.ann" && ok "annotate: says it is sampled" \
    || fail "annotate: says it is sampled" "$(head -3 "$T/s.ann")"
if grep -q 'EXECUTIONS\|TIME (S)\|taken' "$T/s.ann"; then fail "annotate: no executions, times or branch counts"
else ok "annotate: no executions, times or branch counts"; fi
for r in ALPHA BETA GAMMA; do
    want=$(awk -F, -v r=$r '$1 == r { print $4 }' "$T/s.csv")
    got=$(awk -v r=$r '/^[^ >*]/ { on = ($1 == r) } NF == 0 { on = 0 }
        on && /^(>>|> |  )[0-9A-F]+ / && $0 !~ / DC / { l = substr($0, 3); split(l, f, " "); if (f[6] != "-") s += f[6] }
        on && /^  total / { t = $2 } END { print s + 0, t + 0 }' "$T/s.ann")
    expect_eq "annotate: $r lines add up to csv's samples, and its total says so" "$want $want" "$got"
    hot=$(awk -v r=$r '/^[^ >*]/ { on = ($1 == r) } on && /^>>/ { split(substr($0, 3), f, " "); print f[2], f[4]; exit }' "$T/s.ann")
    case "$hot" in "+00016 "*|"+00018 "*|"+0001A "*|"+0001C "*) ok "annotate: $r's hottest line is in its loop ($hot)";;
        *) fail "annotate: $r's hottest line is in its loop" "got: $hot" ;; esac
    stm=$(awk -v r=$r '/^[^ >*]/ { on = ($1 == r) } on { split(substr($0, 3), f, " ") } on && f[2] == "+0000C" { print f[4], f[5] }' "$T/s.ann")
    expect_eq "annotate: $r's STM decoded" "STM 14,12,12(13)" "$stm"
done
expect_eq "annotate: MAIN's BALRs decoded, sampled or not" 3 \
    "$(awk '/^[^ >*]/ { on = ($1 == "MAIN") } on && / BALR +14,15 /' "$T/s.ann" | wc -l)"

# --- errors: nothing left claiming to be complete
expect_fail "a Hercules without an HTTP server" 2 'Hercules ended before its HTTP server' \
    env FAKEHERC=exit fst-capture --sample --hercules="$D/fakeherc.py" -o "$T/e1.trace" "$T/big.ins"
[ ! -e "$T/e1.trace" ] && ok "no trace left" || fail "no trace left"
expect_fail "Hercules dies mid-run" 2 'Hercules ended before the program reached a disabled wait.*incomplete' \
    env FAKEHERC=die fst-capture --sample --hercules="$D/fakeherc.py" -o "$T/e2.trace" "$T/big.ins"
expect_eq "its trace is marked incomplete" "complete=0" "$(fst-dump --summary "$T/e2.trace" 2>/dev/null | grep '^complete=')"
fst-report --format=csv "$T/e2.trace" > /dev/null 2> "$T/err"
grep -q 'incomplete' "$T/err" && ok "the report says incomplete" || fail "the report says incomplete" "$(cat "$T/err")"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
expect_fail "--attach to a closed port" 2 'connection refused' fst-capture --sample --attach=127.0.0.1:$port -o "$T/e3.trace"
[ ! -e "$T/e3.trace" ] && ok "no trace left" || fail "no trace left"
expect_fail "--attach elsewhere than loopback needs --remote" 2 'not a loopback' \
    fst-capture --sample --attach=192.0.2.1:80 -o "$T/e4.trace"
for mode in garbage slow notherc; do
    rm -f "$T/port"
    python3 "$D/fakeserver.py" $mode "$T/port" & pid=$!
    for i in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
    case $mode in garbage) re='not an HTTP answer';; slow) re='no whole answer within';; notherc) re="not with Hercules' PSW page";; esac
    expect_fail "--attach to a server that answers $mode" 2 "$re" \
        fst-capture --sample --attach=127.0.0.1:$(cat "$T/port") -o "$T/e5.trace"
    [ ! -e "$T/e5.trace" ] && ok "no trace left ($mode)" || fail "no trace left ($mode)"
    kill $pid; wait $pid 2>/dev/null
done
rm -f "$T/port"
python3 "$D/fakeserver.py" psw "$T/port" & pid=$!
for i in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
expect_ok "--attach --seconds=1 to a server with a PSW page" \
    fst-capture --sample=200 --attach=127.0.0.1:$(cat "$T/port") --seconds=1 -o "$T/a.trace"
kill $pid; wait $pid 2>/dev/null
expect_eq "attach: complete" "complete=1" "$(fst-dump --summary "$T/a.trace" | grep '^complete=')"

# --attach to a real Hercules the test starts with an HTTP port
hport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$T/h"; cp "$T/big.lc" "$T/big.bin" "$T/big.ins" "$T/h/"
printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\nHTTPPORT %s NOAUTH\n000C 3505 /dev/null\n' $hport > "$T/h/h.cnf"
printf 'ipl %s/h/big.ins\n' "$T" > "$T/h/h.rc"
# its own process group, killed whole: Hercules ignores SIGTERM once the program waits
(cd "$T/h" && HERCULES_RC="$T/h/h.rc" exec setsid timeout -s KILL 60 hercules -d -f h.cnf > h.log 2>&1 < /dev/null) &
hpid=$!
for _ in $(seq 100); do   # its HTTP server listens once Hercules says so (a loaded machine: seconds)
    grep -q "Waiting for HTTP requests" "$T/h/h.log" 2> /dev/null && break
    sleep 0.2
done
expect_ok "--attach to a running Hercules for 1 s" \
    fst-capture --sample --attach=127.0.0.1:$hport --seconds=1 -o "$T/h.trace"
echo "# $(cat "$T/err")"
kill -KILL -- -$hpid 2>/dev/null; wait $hpid 2>/dev/null
fst-report --format=csv --map=/dev/null "$T/h.trace" > /dev/null 2>&1
n=$(fst-dump --summary "$T/h.trace" | sed -n 's/^footer.samples=//p')
[ "${n:-0}" -gt 0 ] && ok "attach took samples ($n)" || fail "attach took samples"
