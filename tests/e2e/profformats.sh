# The Unix profiler formats over real captures of the test programs, read by their real
# readers where one exists: gmon.out by s390x-linux-gnu-gprof (flat profile and call graph
# show the construction's calls, arcs and self instructions, tests/programs/EXPECTED);
# mon.out parsed byte by byte (header, call counters, profil(2) histogram that sums to the
# samples taken); the prof listing against golden files and the csv report; bad options.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
GOLDEN=$FST_ROOT/golden
NM=${S390_NM:-s390x-linux-gnu-nm}
GPROF=${S390_GPROF:-s390x-linux-gnu-gprof}

facts() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { $1 = $2 = ""; sub(/^ +/, ""); print }' "$EXPECTED" | sort; }
fact1() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3 }' "$EXPECTED"; }
# gprof -b -p: "NAME SELF CALLS" (CALLS 0 when blank)
gflat() { awk 'f && NF >= 4 { print $NF, $3, (NF >= 7 ? $4 : 0) } / time /{ f = 1 }' "$1" | sort; }
# gprof -b -q: "NAME CALLS" from the primary lines ("1+4" is 5), and "CALLER CALLEE N" arcs
gcalls() { awk '/^\[/ { c = NF == 7 ? $5 : 0; if (c ~ /\+/) { split(c, x, "+"); c = x[1] + x[2] }; print $(NF-1), c }' "$1" | sort; }
garcs() { awk '/^---/ { p = "" } /^\[/ { p = $(NF-1); next }
    p != "" && NF >= 3 { n = $(NF-2); sub(/\/.*/, "", n); print p, $(NF-1), n }' "$1" | sort; }
# mon.out: "lpc hpc nfns", then "fnpc mcnt" lines, then "cells N sum S" (hex addresses)
monout() {
    od -An -v -tu1 "$1" | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
    function w(o) { return ((b[o] * 256 + b[o+1]) * 256 + b[o+2]) * 256 + b[o+3] }
    END { nf = w(8); printf "%X %X %d\n", w(0), w(4), nf
          for (k = 0; k < nf; k++) printf "%X %d\n", w(12 + 8*k), w(16 + 8*k)
          s = c = 0; for (o = 12 + 8*nf; o < n; o += 2) { s += b[o] * 256 + b[o+1]; c++ }
          printf "cells %d sum %d\n", c, s }'
}
# mawk has no strtonum
HEX='function hex(h,   i, v) { v = 0; h = toupper(h); for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1; return v }'
csvcol() { awk -F, -v c="$2" 'NR > 1 && $1 !~ /^\(/ { print $1, $c }' "$1" | sort; }

for p in fortg forth untimed linkage bigloop; do
    fst-capture -q -o "$T/$p.trace" "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > "$T/$p.nm"
    prof=$(($(fact1 $p instructions) - $(fact1 $p outside)))   # profiled: from main's entry to its exit

    # gmon.out + stub ELF, one histogram count per instruction: gprof shows EXPECTED exactly
    if fst-report --format=gmon --hz=insns --elf="$T/$p.stub" --timed=all --map="$T/$p.nm" -o "$T/$p.gmon" \
        "$T/$p.trace" 2> "$T/err"; then
        "$GPROF" -b -p "$T/$p.stub" "$T/$p.gmon" > "$T/$p.flat" 2> "$T/gerr"
        "$GPROF" -b -q "$T/$p.stub" "$T/$p.gmon" > "$T/$p.cg" 2>> "$T/gerr"
        expect_eq "$p gprof flat profile: self instructions" "$(facts $p self | awk '{ print $1, $2 ".00" }')" \
            "$(gflat "$T/$p.flat" | awk '{ print $1, $2 }')"
        expect_eq "$p gprof call graph: calls" "$(facts $p calls)" "$(gcalls "$T/$p.cg")"
        expect_eq "$p gprof call graph: arcs" "$(facts $p arc)" "$(garcs "$T/$p.cg")"
        expect_eq "$p gprof: total = instructions - outside" "$prof.00" \
            "$(gflat "$T/$p.flat" | awk '{ s += $2 } END { printf "%.2f", s }')"
        "$GPROF" -i "$T/$p.stub" "$T/$p.gmon" > "$T/$p.info" 2>&1
        grep -q "$(facts $p arc | wc -l) call-graph record" "$T/$p.info" && ok "$p gprof -i: one arc record per arc" \
            || fail "$p gprof -i: one arc record per arc" "$(cat "$T/$p.info")"
    else
        fail "$p: --format=gmon" "$(head -3 "$T/err")"
    fi

    # mon.out: header, a counter per routine at entry+2 with its calls, histogram sum
    if [ $p != bigloop ]; then
        fst-report --format=monout --hz=insns --timed=all --map="$T/$p.nm" -o "$T/$p.mon" "$T/$p.trace"
        monout "$T/$p.mon" > "$T/$p.monout"
        expect_eq "$p mon.out: the histogram sums to the samples taken" "$prof" \
            "$(awk '$1 == "cells" { print $4 }' "$T/$p.monout")"
        want=$(awk -v p=$p "$HEX"'$1 == p && $2 == "routine" { e[$3] = $4 } $1 == p && $2 == "calls" { c[$3] = $4 }
            END { for (r in e) printf "%X %d\n", hex(e[r]) + 2, c[r] }' "$EXPECTED" | sort)
        expect_eq "$p mon.out: call counters (fnpc = entry + 2, mcnt = calls)" "$want" \
            "$(awk 'NR > 1 && $1 != "cells"' "$T/$p.monout" | sort)"
        expect_eq "$p mon.out: hpc - lpc = 2 bytes per cell, nfns = routines" \
            "$(awk '$1 == "cells" { print 2 * $2 }' "$T/$p.monout") $(facts $p routine | wc -l)" \
            "$(awk "$HEX"'NR == 1 { print hex($2) - hex($1), $3 }' "$T/$p.monout")"
    fi

    # prof listing: agrees with the csv report (Seconds = self/1000 rounded, #Calls = calls)
    fst-report --format=csv --timed=all --map="$T/$p.nm" --clock=mips:0.001 -o "$T/$p.csv" "$T/$p.trace"
    fst-report --format=prof --timed=all --map="$T/$p.nm" --clock=mips:0.001 -o "$T/$p.prof" "$T/$p.trace"
    expect_eq "$p prof: Seconds and #Calls agree with csv" \
        "$(awk -F, 'NR > 1 && $1 !~ /^\(/ && ($4 || $3) { printf "%s %d.%02d %s\n", $1, int(($4 + 5) / 1000), int(($4 + 5) / 10) % 100, $3 }' "$T/$p.csv" | sort)" \
        "$(awk 'NR > 1 { print $NF, $2, (NF == 6 ? $4 : 0) }' "$T/$p.prof" | sort)"
    [ $p != bigloop ] && expect_golden "$p: prof listing" "$GOLDEN/prof/$p.txt" "$T/$p.prof"
done

# time, not instructions: 1 ms per instruction and 1000 ticks per second = 1 tick each
fst-report --format=gmon --hz=1000 --elf="$T/t.stub" --timed=all --map="$T/fortg.nm" --clock=mips:0.001 \
    -o "$T/t.gmon" "$T/fortg.trace"
"$GPROF" -b -p "$T/t.stub" "$T/t.gmon" > "$T/t.flat"
grep -q "Each sample counts as 0.001 seconds" "$T/t.flat" && ok "gmon --hz=1000: a sample is 1/1000 s" \
    || fail "gmon --hz=1000: a sample is 1/1000 s" "$(head -3 "$T/t.flat")"
expect_eq "gmon --hz=1000: gprof's seconds are csv's self_sec" \
    "$(awk -F, 'NR > 1 && $1 !~ /^\(/ { printf "%s %.2f %d\n", $1, $6, $3 }' "$T/fortg.csv" | sort)" "$(gflat "$T/t.flat")"
# bigloop at 1 us per instruction and 10 kHz: floor(1.100012 s * 10000) = 11000 ticks
fst-report --format=gmon --hz=10000 --elf="$T/b.stub" --timed=all --map="$T/bigloop.nm" --clock=mips:1 \
    -o "$T/b.gmon" "$T/bigloop.trace"
"$GPROF" -b -p "$T/b.stub" "$T/b.gmon" > "$T/b.flat"
expect_eq "bigloop gmon at 10 kHz: MAIN 0.30 s, TICK 0.80 s, 100000 calls" "MAIN 0.30 0
TICK 0.80 100000" "$(gflat "$T/b.flat")"
fst-report --format=gmon --hz=insns --timed=all --map="$T/bigloop.nm" -o "$T/bi.gmon" "$T/bigloop.trace"
"$GPROF" -i "$T/bigloop.stub" "$T/bi.gmon" > "$T/bi.info" 2>&1
grep -q "2 histogram records" "$T/bi.info" && ok "bigloop gmon --hz=insns: bins over 65535 split into 2 records" \
    || fail "bigloop gmon --hz=insns: bins over 65535 split into 2 records" "$(cat "$T/bi.info")"
fst-report --format=monout --hz=10000 --timed=all --map="$T/bigloop.nm" --clock=mips:1 -o "$T/b.mon" "$T/bigloop.trace"
expect_eq "bigloop mon.out at 10 kHz: floor(1.100012 s x 10000) = 11000 samples" "11000" \
    "$(monout "$T/b.mon" | awk '$1 == "cells" { print $4 }')"

# profil(2) semantics: scale 0x8000 = one cell per 4 bytes; an offset past MAIN drops its
# samples; a buffer too small drops the rest
fst-report --format=monout --hz=insns --scale=0x8000 --timed=all --map="$T/fortg.nm" -o "$T/s.mon" "$T/fortg.trace"
expect_eq "mon.out --scale=0x8000: 301 samples, 4 bytes per cell" "301 4" \
    "$(monout "$T/s.mon" | awk "$HEX"'NR == 1 { d = hex($2) - hex($1) } $1 == "cells" { print $4, d / $2 }')"
fst-report --format=monout --hz=insns --offset=0x20070 --timed=all --map="$T/fortg.nm" -o "$T/o.mon" "$T/fortg.trace"
expect_eq "mon.out --offset=0x20070: MAIN's 51 samples are not counted" "20070 250" \
    "$(monout "$T/o.mon" | awk 'NR == 1 { l = $1 } $1 == "cells" { print l, $4 }')"
fst-report --format=monout --hz=insns --offset=0x20070 --bufsiz=64 --timed=all --map="$T/fortg.nm" \
    -o "$T/z.mon" "$T/fortg.trace"
expect_eq "mon.out --bufsiz=64: 32 cells cover SUBA only (0x20070-0x200AF)" "cells 32 sum 208" "$(monout "$T/z.mon" | tail -1)"

# prof: the sort orders and -z, -x
(cat "$T/fortg.nm"; echo "GHOST T 200e8") > "$T/ghost.nm"
for o in "--sort=calls" "--sort=name" "--sort=address --addresses --zero"; do
    f=$(echo "$o" | tr -d ' -' | tr = _)
    fst-report --format=prof $o --timed=all --map="$T/ghost.nm" --clock=mips:0.001 -o "$T/$f.prof" "$T/fortg.trace"
    expect_golden "fortg prof $o" "$GOLDEN/prof/fortg.$f.txt" "$T/$f.prof"
done
fst-report --format=prof --timed=all --map="$T/ghost.nm" --clock=mips:0.001 -o "$T/nz.prof" "$T/fortg.trace"
expect_eq "prof without --zero: GHOST (no calls, no time) is not listed" "0" "$(grep -c GHOST "$T/nz.prof")"
fst-report --format=prof --clock=mips:0.001 -o "$T/ud.prof" "$T/untimed.trace"
expect_golden "untimed prof, default timing (B and C are A's)" "$GOLDEN/prof/untimed.default.txt" "$T/ud.prof"

# --exclude as in every report: SUBA keeps its 16 calls, its 208 instructions leave the totals
fst-report --format=gmon --hz=insns --elf="$T/x.stub" --exclude=SUBA --timed=all --map="$T/fortg.nm" \
    -o "$T/x.gmon" "$T/fortg.trace" 2>/dev/null
"$GPROF" -b -p "$T/x.stub" "$T/x.gmon" > "$T/x.flat"
expect_eq "gmon --exclude=SUBA: SUBA 0 instructions and 16 calls" "MAIN 51.00 0
SUBA 0.00 16
SUBB 42.00 3" "$(gflat "$T/x.flat")"
fst-report --format=prof --exclude=SUBA --timed=all --map="$T/fortg.nm" --clock=mips:0.001 -o "$T/x.prof" \
    "$T/fortg.trace" 2>/dev/null
expect_eq "prof --exclude=SUBA: the same, Cumsecs ends at (301 - 208) / 1000" "MAIN 0.05 0
SUBA 0.00 16
SUBB 0.04 3
0.09" "$(awk 'NR > 1 { print $NF, $2, (NF == 6 ? $4 : 0) }' "$T/x.prof" | sort; tail -1 "$T/x.prof" | awk '{ print $3 }')"
fst-report --format=monout --hz=insns --exclude=SUBA --timed=all --map="$T/fortg.nm" -o "$T/x.mon" "$T/fortg.trace" 2>/dev/null
expect_eq "monout --exclude=SUBA: 93 samples" "93" "$(monout "$T/x.mon" | awk '$1 == "cells" { print $4 }')"

# bad input
t=$T/fortg.trace
# binary data to a terminal is refused (script(1) gives the command one); to a pipe or a file it goes
for f in gmon monout; do
    script -qec "fst-report --format=$f '$t' 2> '$T/tty.err'" /dev/null > /dev/null
    rc=$?
    if [ "$rc" = 2 ] && grep -q -- "--format=$f writes binary data, not for a terminal: say where with -o FILE" "$T/tty.err"
    then ok "$f to a terminal needs -o"; else fail "$f to a terminal needs -o" "exit $rc" "$(cat "$T/tty.err")"; fi
done
expect_fail "--hz=0" 2 "--hz: '0' is neither" fst-report --format=gmon --hz=0 -o "$T/x" "$t"
expect_fail "--hz=fast" 2 "--hz: 'fast' is neither" fst-report --format=monout --hz=fast -o "$T/x" "$t"
expect_fail "--scale=1" 2 "--scale: '1' is not a number from 2 to 65536" fst-report --format=monout --scale=1 -o "$T/x" "$t"
expect_fail "--scale=0x10001" 2 "--scale: '0x10001'" fst-report --format=monout --scale=0x10001 -o "$T/x" "$t"
expect_fail "--offset odd" 2 "--offset: 0x20071 is odd" fst-report --format=monout --offset=0x20071 -o "$T/x" "$t"
expect_fail "--bufsiz odd" 2 "--bufsiz: 3 is odd" fst-report --format=monout --bufsiz=3 -o "$T/x" "$t"
expect_fail "--bufsiz=junk" 2 "--bufsiz: 'junk'" fst-report --format=monout --bufsiz=junk -o "$T/x" "$t"
expect_fail "mon.out cell over 65535" 2 "b.mon: the histogram cell of 0x[0-9A-F]+ holds more than 65535 ticks: lower --hz" \
    fst-report --format=monout --hz=insns --timed=all --map="$T/bigloop.nm" -o "$T/b.mon" "$T/bigloop.trace"
expect_fail "--elf= with no file" 2 "--elf: which file" fst-report --format=gmon --elf= -o "$T/x" "$t"
expect_fail "--elf in a missing folder" 2 "nodir/x.elf: cannot create" fst-report --format=gmon --elf="$T/nodir/x.elf" -o "$T/x" "$t"
expect_fail "--sort=size" 2 "--sort: 'size' is not time, calls, name or address" fst-report --format=prof --sort=size "$t"
