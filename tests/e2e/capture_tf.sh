# SDL Hercules trace files (tf): fst-capture --from-tf / --from-log on every file of
# fixtures/hercules-4.9/tf (README there: the counts, how each run was made), the trace
# compared record for record with the ones from the 4.9 text log and the 3.13 log of the
# same program, fst-report's csv from all three, and what a damaged or unfinished file
# gives. The formats, byte orders and every header byte are covered by tests/unit/test_tf.c.
. "$(dirname "$0")/../lib.sh"

TF=$FST_FIXTURES/hercules-4.9/tf
dumpval() { sed -n "s/^$1=//p" "$2"; }
# the records, without what differs between two runs of a program: header, footer, time
# (registers, which a tf file shows with every instruction and a noregs log never, left out)
records() { fst-dump "$1" | grep -v '^header\.\|^frames\.\|^footer\.\|^time \|^count\.time=\|^complete\|^incomplete\|^regs \|^count\.regs='; }
# the records of each CPU in turn (two CPUs interleave differently from run to run)
per_cpu() { records "$1" | awk 'BEGIN { c = 0 } /^cpu /{ c = $2; next } /^count|^state/ { next }
                                 { sub(/ cpu=[0-9]+/, ""); print c ": " $0 }' | sort -s -t: -k1,1; }

# name, TF02324 records, program checks, executed instructions, waits, interruptions
# (I/O, external and SVC), from fixtures/hercules-4.9/tf/README.md and the programs
while read -r name recs pgm insns waits intrs; do
    case "$name" in ''|'#'*) continue ;; esac
    if ! fst-capture -q --from-tf="$TF/$name.tf" --image="$TF/$name.ins" -o "$T/$name.tf.trace" 2> "$T/err"; then
        fail "$name.tf: converts" "$(head -3 "$T/err")"; continue
    fi
    fst-dump --summary "$T/$name.tf.trace" > "$T/d"
    expect_eq "$name.tf: instruction records, re-displays, executed, program checks, waits, interruptions, complete" \
        "$recs $pgm $insns $pgm $waits $intrs 1 1 $recs" \
        "$(dumpval footer.tf-instruction-records "$T/d") $(dumpval footer.redisplays "$T/d") $(dumpval count.insn "$T/d") $(dumpval count.pgmchk "$T/d") $(dumpval count.wait "$T/d") $(dumpval count.intr "$T/d") $(dumpval complete "$T/d") $(dumpval footer.tf-closed "$T/d") $(dumpval footer.tf-header-instructions "$T/d")"
done <<'EOF'
bigloop_n100    1117  0  1117  2  0
bigloop_n1000  11017  0 11017  2  0
esapc             26  2    24  2  1
dat390            11  1    10  2  0
io370              6  0     6  3  1
zarch             37  1    36  2  1
mp2             1613  0  1613  4  0
EOF

# The same programs traced as text: record for record the same trace (time stamps aside:
# other runs). Inherent differences: 3.13's disabled-wait message shows no PSW; mp2's two
# CPUs interleave differently in every run, so the 4.9 log is compared CPU by CPU, and its
# 3.13 log not at all (CP00 spins a run-dependent number of times, and 3.13 splices the
# two CPUs' lines into each other).
for name in bigloop_n100 bigloop_n1000 esapc dat390 io370 zarch mp2; do
    fst-capture -q --from-log="$TF/$name.hyp49-noregs.log" --image="$TF/$name.ins" -o "$T/$name.h49.trace"
    fst-capture -q --from-log="$TF/$name.h313-noregs.log" --image="$TF/$name.ins" -o "$T/$name.h313.trace"
    if [ "$name" = mp2 ]; then
        per_cpu "$T/$name.tf.trace" > "$T/a"; per_cpu "$T/$name.h49.trace" > "$T/b"
    else
        records "$T/$name.tf.trace" > "$T/a"; records "$T/$name.h49.trace" > "$T/b"
    fi
    if cmp -s "$T/a" "$T/b"; then ok "$name: the trace from tf equals the one from the 4.9 text log"
    else fail "$name: the trace from tf equals the one from the 4.9 text log" "$(diff "$T/a" "$T/b" | head -5)"; fi
    fst-report --format=csv "$T/$name.tf.trace" > "$T/a.csv" 2> /dev/null
    fst-report --format=csv "$T/$name.h49.trace" > "$T/b.csv" 2> /dev/null
    if [ -s "$T/a.csv" ] && cmp -s "$T/a.csv" "$T/b.csv"; then ok "$name: fst-report csv from tf equals the 4.9 log's"
    else fail "$name: fst-report csv from tf equals the 4.9 log's" "$(diff "$T/a.csv" "$T/b.csv" | head -5)"; fi
    [ "$name" = mp2 ] && continue
    records "$T/$name.tf.trace" | sed 's/^wait kind=disabled psw=.*/wait kind=disabled/' > "$T/a"
    records "$T/$name.h313.trace" | sed 's/^wait kind=disabled psw=.*/wait kind=disabled/' > "$T/b"
    if cmp -s "$T/a" "$T/b"; then ok "$name: the trace from tf equals the one from the 3.13 log"
    else fail "$name: the trace from tf equals the one from the 3.13 log" "$(diff "$T/a" "$T/b" | head -5)"; fi
    fst-report --format=csv "$T/$name.h313.trace" > "$T/b.csv" 2> /dev/null
    if cmp -s "$T/a.csv" "$T/b.csv"; then ok "$name: fst-report csv from tf equals the 3.13 log's"
    else fail "$name: fst-report csv from tf equals the 3.13 log's" "$(diff "$T/a.csv" "$T/b.csv" | head -5)"; fi
done
# the bigloop reports name the FORTRAN routines: the csv compared above is not empty
expect_eq "bigloop_n1000: TICK called 1000 times in the csv from tf" "TICK,20068,1000" \
    "$(fst-report --format=csv "$T/bigloop_n1000.tf.trace" 2> /dev/null | grep -o '^TICK,[0-9A-F]*,[0-9]*')"
# an earlier 4.9 build's file (hercules-4.9/esa.tf) and the log of that program
fst-capture -q --from-log="$FST_FIXTURES/hercules-4.9/esa.tf" -o "$T/esa.trace"
fst-capture -q --from-log="$FST_FIXTURES/hercules-4.9/esa_noregs.log" -o "$T/esa_log.trace"
records "$T/esa.trace" > "$T/a"; records "$T/esa_log.trace" > "$T/b"
if cmp -s "$T/a" "$T/b"; then ok "esa.tf (--from-log): the same trace as esa_noregs.log"
else fail "esa.tf (--from-log): the same trace as esa_noregs.log" "$(diff "$T/a" "$T/b" | head -5)"; fi
expect_eq "esa.tf: read as a trace file by --from-log" "log 2 4.9.0.0-SDL" \
    "$(fst-dump --summary "$T/esa.trace" | dumpval header.source /dev/stdin) $(fst-dump --summary "$T/esa.trace" | dumpval footer.tf-format /dev/stdin) $(fst-dump --summary "$T/esa.trace" | dumpval footer.hercules /dev/stdin)"
expect_eq "a tf trace holds CR1 from the control registers while DAT is on (dat390: LCTL 1,1)" "cr1 = 00021000" \
    "$(fst-dump "$T/dat390.tf.trace" | grep '^cr')"

# a pipe, in 7-byte pieces; a text log is not a trace file
fst-capture -q --from-tf=- -o "$T/pipe.trace" < <(dd bs=7 status=none < "$TF/zarch.tf")
expect_eq "a trace file piped on stdin, in small pieces" "36 1" \
    "$(fst-dump --summary "$T/pipe.trace" | dumpval count.insn /dev/stdin) $(fst-dump --summary "$T/pipe.trace" | dumpval complete /dev/stdin)"
expect_fail "--from-tf on a text log" 2 "esapc.hyp49-noregs.log: byte 0: not an SDL Hercules trace file" \
    fst-capture --from-tf="$TF/esapc.hyp49-noregs.log" -o "$T/none.trace"
[ ! -e "$T/none.trace" ] && ok "no trace file left behind" || fail "no trace file left behind"
fst-capture -q --from-tf="$TF/bigloop_n1000.tf" --max-instructions=100 -o "$T/max.trace"
expect_eq "--max-instructions on a trace file" "100 max-instructions" \
    "$(fst-dump --summary "$T/max.trace" | dumpval count.insn /dev/stdin) $(fst-dump --summary "$T/max.trace" | dumpval footer.end /dev/stdin)"

# cut inside a record (Hercules killed while writing, a copy in progress): the records
# before the cut, marked incomplete, a warning, exit 0
head -c 5000 "$TF/esapc.tf" > "$T/cut.tf"
expect_ok "a file cut inside a record converts" fst-capture --from-tf="$T/cut.tf" -o "$T/cut.trace"
grep -q "cut.tf: cut short inside a record at byte 4944: .*cut.trace holds 10 instructions and is marked incomplete" "$T/err" \
    && ok "a cut file: the warning names the byte" || fail "a cut file: the warning names the byte" "$(cat "$T/err")"
fst-dump --summary "$T/cut.trace" > "$T/d"
expect_eq "a cut file: 10 instructions, incomplete, cut-short" "10 0 cut-short" \
    "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
records "$T/cut.trace" | grep '^insn' > "$T/a"
records "$T/esapc.tf.trace" | grep '^insn' | head -10 > "$T/b"
cmp -s "$T/a" "$T/b" && ok "a cut file: its instructions are the first of the whole file's" \
    || fail "a cut file: its instructions are the first of the whole file's" "$(diff "$T/a" "$T/b" | head -5)"
# cut at a record boundary: the closed header's counts and end time say so
head -c 4944 "$TF/esapc.tf" > "$T/cut2.tf"
fst-capture -q --from-tf="$T/cut2.tf" -o "$T/cut2.trace" 2> "$T/err"
expect_eq "a file cut at a record boundary is incomplete" "0 cut-short" \
    "$(fst-dump --summary "$T/cut2.trace" | dumpval complete /dev/stdin) $(fst-dump --summary "$T/cut2.trace" | dumpval footer.end /dev/stdin)"
# Hercules killed: the header was never rewritten (no end time, counts of the first write)
cp "$TF/zarch.tf" "$T/killed.tf"; chmod u+w "$T/killed.tf"
dd if=/dev/zero of="$T/killed.tf" bs=1 seek=32 count=32 conv=notrunc status=none
fst-capture --from-tf="$T/killed.tf" -o "$T/killed.trace" 2> "$T/err"
grep -q "never closed the file" "$T/err" && ok "a file never closed: a warning" || fail "a file never closed: a warning" "$(cat "$T/err")"
fst-dump --summary "$T/killed.trace" > "$T/d"
expect_eq "a file never closed: every instruction counted, marked incomplete" "36 0 not-closed 0" \
    "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d") $(dumpval footer.tf-closed "$T/d")"
# ... but followed as Hercules writes it, a file reaching the disabled wait is the whole program
: > "$T/grow.tf"
( for k in $(seq 0 2000 18000); do dd if="$T/killed.tf" bs=2000 skip=$((k / 2000)) count=1 status=none; sleep 0.05; done >> "$T/grow.tf" ) &
fst-capture -q --follow --timeout=30 --from-tf="$T/grow.tf" -o "$T/grow.trace"
wait
fst-dump --summary "$T/grow.trace" > "$T/d"
expect_eq "--follow: a growing trace file, read to the disabled wait" "36 disabled-wait 1" \
    "$(dumpval count.insn "$T/d") $(dumpval footer.end "$T/d") $(dumpval complete "$T/d")"

# damage: an error naming the byte, exit 2; the records before it stay readable
cp "$TF/esapc.tf" "$T/bad.tf"; chmod u+w "$T/bad.tf"
flip_byte "$T/bad.tf" 5250   # the length of the record at 5248 (a TF02326)
expect_fail "a damaged record length" 2 "bad.tf: byte 5250: record length" fst-capture --from-tf="$T/bad.tf" -o "$T/bad.trace"
grep -q "bad.trace keeps the 11 instructions read before that" "$T/err" \
    && ok "a damaged file: what came before is kept" || fail "a damaged file: what came before is kept" "$(cat "$T/err")"
cp "$TF/esapc.tf" "$T/bad.tf"; flip_byte "$T/bad.tf" 4
expect_fail "a damaged byte-order flag" 2 "bad.tf: byte 4: byte-order flag 255" fst-capture --from-tf="$T/bad.tf" -o "$T/bad.trace"
cp "$TF/esapc.tf" "$T/bad.tf"; flip_byte "$T/bad.tf" 3
expect_fail "a damaged format digit" 2 "bad.tf: byte 3: trace file format" fst-capture --from-log="$T/bad.tf" -o "$T/bad.trace"
cp "$TF/esapc.tf" "$T/bad.tf"; flip_byte "$T/bad.tf" 100
expect_fail "a damaged version text" 2 "bad.tf: byte 100: the Hercules version text" fst-capture --from-tf="$T/bad.tf" -o "$T/bad.trace"
cp "$TF/io370.tf" "$T/bad.tf"; flip_byte "$T/bad.tf" 2566   # the wait record at 2560: an unknown type
fst-capture --from-tf="$T/bad.tf" -o "$T/bad.trace" 2> "$T/err"
grep -q "byte 2560: 1 records of types this reader does not know were skipped" "$T/err" \
    && ok "an unknown record type: skipped, with a warning" || fail "an unknown record type: skipped, with a warning" "$(cat "$T/err")"
