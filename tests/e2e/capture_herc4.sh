# Live capture with SDL Hercules 4.x (capture/hercules/herc4.c): a real 4.x binary, from
# $FST_HERCULES4 (tests/run sets it to the 4.9 that scripts/deps.sh builds from
# ../shared/hercules-4.9, scripts/hercules4.sh) or a `hercules` on PATH whose banner says
# 4.x. Without one (Debian ships 3.13 only) they are skipped with a message, never faked.
# The text route (--via=trace: its tf file), which the module (module.sh) is compared with.
# What they check: every test program's exact
# instruction count (tests/programs/EXPECTED), the same instruction stream as Debian's 3.13
# gives, --range, --keep-log; with tf (4.6+): no trace byte on the disk while it runs.
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p" "$2"; }
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
banner() { "$1" --help=version < /dev/null 2>&1 | grep -Eo -m1 'Hercules [Vv]ersion [0-9][^ ]*' | awk '{ print $3 }'; }

H4=${FST_HERCULES4:-}
if [ -z "$H4" ] && command -v hercules > /dev/null; then
    case "$(banner hercules)" in [4-9].*|[1-9][0-9]*) H4=$(command -v hercules) ;; esac
fi
if [ -z "$H4" ]; then
    echo "# skip: no SDL Hercules 4.x here (scripts/hercules4.sh builds one; or set FST_HERCULES4=PATH)"
    exit 0
fi
V=$(banner "$H4")
case "$V" in [4-9].*) ;; *) fail "FST_HERCULES4=$H4 is a 4.x Hercules" "its banner says '$V'"; exit 0 ;; esac
major=${V%%.*}; rest=${V#*.}; minor=${rest%%.*}
TFOK=0; { [ "$major" -gt 4 ] || [ "$minor" -ge 6 ]; } && TFOK=1
echo "# SDL Hercules $V at $H4 (tf: $TFOK)"

for ins in "$FST_PROGS"/*.ins; do
    p=$(basename "$ins" .ins)
    want=$(awk -v p="$p" '$1 == p && $2 == "instructions" { print $3 }' "$EXPECTED")
    case "$p" in tasks|ticker|bigloop) continue ;; esac   # as in capture_hercules.sh
    [ -n "$want" ] || continue
    if fst-capture -q --via=trace --hercules="$H4" --timeout=120 -o "$T/$p.trace" "$ins" 2> "$T/err"; then
        fst-dump --summary "$T/$p.trace" > "$T/d"
        expect_eq "$p: instructions, complete, ended by, Hercules" "$want 1 disabled-wait $V" \
            "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d") $(dumpval footer.hercules "$T/d")"
    else
        fail "$p: captures under $V" "$(head -5 "$T/err")"
    fi
done

# the same instruction stream as Debian's 3.13 (when it is there)
if [ -x /usr/bin/hercules ] && [ "$(banner /usr/bin/hercules)" = 3.13 ]; then
    fst-capture -q --via=trace --hercules=/usr/bin/hercules -o "$T/fortg313.trace" "$FST_PROGS/fortg.ins"
    fst-dump "$T/fortg313.trace" | grep '^insn' > "$T/a"
    fst-dump "$T/fortg.trace" | grep '^insn' > "$T/b"
    cmp -s "$T/a" "$T/b" && ok "fortg: the instructions of 3.13's capture" \
        || fail "fortg: the instructions of 3.13's capture" "$(diff "$T/a" "$T/b" | head -5)"
fi

# range tracing, as 4.x spells it too (t+ 20020-2006F)
fst-capture -q --hercules="$H4" --range=20020-2006F -o "$T/range.trace" "$FST_PROGS/fortg.ins"
expect_eq "--range traces only MAIN's instructions" \
    "$(awk '$1=="fortg" && $2=="self" && $3=="MAIN" {print $4}' "$EXPECTED")" \
    "$(fst-dump "$T/range.trace" | grep -c '^insn')"

# --keep-log keeps Hercules' log (with tf: its messages; the trace went through the FIFO)
fst-capture -q --hercules="$H4" --keep-log="$T/forth.log" -o "$T/forth.trace" "$FST_PROGS/forth.ins"
grep -q 'HHC01413I Hercules version' "$T/forth.log" && ok "--keep-log: Hercules' log, banner and all" \
    || fail "--keep-log: Hercules' log, banner and all" "$(head -3 "$T/forth.log")"

# bigloop, 1.1 million instructions (448 bytes each in a tf file: ~490 MB): the folder
# fst-capture works in stays small all along, and is gone at the end
mkdir -p "$T/tmp"; rm -rf "$T/tmp"/*
TMPDIR=$T/tmp fst-capture -q --via=trace --hercules="$H4" --timeout=600 -o "$T/big.trace" "$FST_PROGS/bigloop.ins" 2> "$T/err" &
cap=$!
most=0
while kill -0 "$cap" 2> /dev/null; do
    s=$(du -sb "$T/tmp" 2> /dev/null | awk '{ print $1 }'); [ "${s:-0}" -gt "$most" ] && most=$s
    sleep 0.2
done
wait "$cap"; rc=$?
fst-dump --summary "$T/big.trace" > "$T/d"
expect_eq "bigloop: exit 0, every instruction, complete" \
    "0 $(awk '$1 == "bigloop" && $2 == "instructions" { print $3 }' "$EXPECTED") 1" \
    "$rc $(dumpval count.insn "$T/d") $(dumpval complete "$T/d")"
if [ "$TFOK" = 1 ]; then
    expect_eq "bigloop: traced through tf (format 2)" "2" "$(dumpval footer.tf-format "$T/d")"
    [ "$most" -lt 1048576 ] && ok "bigloop: the working folder never held more than 1 MB ($most bytes)" \
        || fail "bigloop: the working folder never held more than 1 MB" "at most $most bytes"
fi
# --sample: untraced, the PSW read through 4.x's HTTP server (HTTP PORT ... AUTH, HTTP
# START), its log a file (-o) watched for the disabled wait: shares.s with 150 000 rounds
P=$FST_ROOT/tests/programs
if s390x-linux-gnu-as -m31 --defsym ROUNDS=150000 -I "$P" -o "$T/big.o" "$P/shares.s" &&
   s390x-linux-gnu-ld -m elf_s390 -T "$P/standalone.ld" -o "$T/big.elf" "$T/big.o" &&
   s390x-linux-gnu-objcopy -O binary -j .lowcore "$T/big.elf" "$T/big.lc" &&
   s390x-linux-gnu-objcopy -O binary -j .text "$T/big.elf" "$T/big.bin"; then
    printf 'big.lc 0x0\nbig.bin 0x20000\n' > "$T/big.ins"
    TMPDIR=$T/tmp fst-capture -q --sample --hercules="$H4" --timeout=120 -o "$T/s.trace" "$T/big.ins" 2> "$T/err"
    rc=$?
    fst-dump --summary "$T/s.trace" > "$T/d" 2> /dev/null
    expect_eq "--sample: exit 0, complete, ended by the disabled wait" "0 1 disabled-wait" \
        "$rc $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
    fst-report --format=csv "$T/s.trace" > "$T/s.csv" 2> /dev/null
    n=$(awk -F, '$1 ~ /^(ALPHA|BETA|GAMMA)$/ && $4 > 0 { n++ } END { print n + 0 }' "$T/s.csv")
    expect_eq "--sample: samples in each of ALPHA, BETA, GAMMA" 3 "$n"
else
    fail "assemble shares.s with ROUNDS=150000"
fi
expect_eq "nothing left in TMPDIR" "" "$(ls -A "$T/tmp")"
pgrep -f "$T/tmp" > /dev/null && fail "no Hercules left running" || ok "no Hercules left running"
exit 0
