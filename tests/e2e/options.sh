# Numbers in options read alike in every command and format (common/opt.h): decimal, or
# hex after 0x; "010" is ten, never octal eight; blanks, signs and numbers past 64 bits
# are refused with the option's name, exit 2.
. "$(dirname "$0")/../lib.sh"
dumpval() { sed -n "s/^$1=//p" "$2"; }

# what a number means: --max-instructions stops at exactly N
for n in 010:10 0x10:16 0X1f:31 7:7; do
    fst-capture -q --max-instructions="${n%%:*}" -o "$T/n.trace" "$FST_PROGS/bigloop.ins"
    fst-dump --summary "$T/n.trace" > "$T/d"
    expect_eq "--max-instructions=${n%%:*} is ${n##*:}" "${n##*:}" "$(dumpval count.insn "$T/d")"
done

# what is not a number; each would have been read by strtoull (" -5" as 2^64-5, "+5" as 5)
for bad in ' -5' -5 +5 ' 5' '5 ' '' 0x 0x-5 1e3 12abc 18446744073709551616 0b101 '5
'; do
    expect_fail "fst-capture --max-instructions='$bad' refused" 2 "--max-instructions wants a whole number" \
        fst-capture --max-instructions="$bad" "$FST_PROGS/minimal.ins"
done
expect_fail "fst-capture --timeout=-1 refused" 2 "--timeout wants a whole number" \
    fst-capture --timeout=-1 "$FST_PROGS/minimal.ins"
expect_fail "fst-capture --numcpu=' 1' refused" 2 "--numcpu wants a whole number" \
    fst-capture --numcpu=' 1' "$FST_PROGS/minimal.ins"

# fst-report: hex options (an optional 0x), and the numbers of a format's own options
fst-capture -q -o "$T/m.trace" "$FST_PROGS/fortg.ins"
for bad in ' -5' -5 +20000 ' 20000' 20000G 0x; do
    expect_fail "fst-report --load-point='$bad' refused" 2 "--load-point wants a hex address" \
        fst-report --load-point="$bad" "$T/m.trace"
    expect_fail "fst-report --space='$bad' refused" 2 "--space wants the hex CR1" \
        fst-report --space="$bad" "$T/m.trace"
done
expect_ok "fst-report --load-point=0x20000 (hex with 0x)" fst-report --load-point=0x20000 "$T/m.trace"
for bad in ' 5' -5 +5 0x; do
    expect_fail "monout --hz='$bad' refused" 2 "--hz" \
        fst-report --format=monout --hz="$bad" -o "$T/mon.out" "$T/m.trace"
    expect_fail "monout --bufsiz='$bad' refused" 2 "--bufsiz" \
        fst-report --format=monout --bufsiz="$bad" -o "$T/mon.out" "$T/m.trace"
done
# --bufsiz=010 is ten bytes of histogram (five cells), not eight (four)
fst-report --format=monout --offset=0x20000 --bufsiz=010 -o "$T/mon.out" "$T/m.trace"
size=$(stat -c %s "$T/mon.out")
fst-report --format=monout --offset=0x20000 --bufsiz=10 -o "$T/mon10.out" "$T/m.trace"
expect_eq "monout --bufsiz=010 reads as ten" "$(stat -c %s "$T/mon10.out")" "$size"
expect_fail "maptime --span=' 100' refused" 2 "--span" \
    fst-report --format=maptime --span=' 100' "$T/m.trace"
