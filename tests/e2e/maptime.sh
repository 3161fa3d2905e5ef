# fst-report --format=maptime (seed 003, LOGTIME/MAPTIME) over real Hercules captures of
# tests/programs/maptime.s: the control-section percentages its construction gives
# (EXPECTED: MAIN 25, IHOEXP 14, IHOLGN 15, IHOCVT 46, IHOERR 0 percent of the 200000
# instructions recorded from MAIN's entry up; the X'5C' flag leaves 232 unrecorded),
# exactly with --exact and within a stated bound when sampled; golden listings (checked
# by hand, see golden/maptime/README); --window; several runs in one capture (two
# Hercules logs of fortg one after the other); bad requests and unknown names.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
GOLDEN=$FST_ROOT/golden/maptime

fact() { awk -v p="$1" -v k="$2" -v r="${3:-}" '$1 == p && $2 == k && (r == "" || $3 == r) { print $NF }' "$EXPECTED"; }
# "NAME PCT" of every control-section line of a spansize-0 histogram (the first one)
sectpct() { awk '/^HISTOGRAM/ { h++ } h == 1 && $2 ~ /^[0-9A-F]+$/ && $3 ~ /^[0-9]+\.[0-9][0-9]$/ { print $1, $3 }' "$1"; }
count() { awk -v w="$2" '$0 ~ w { print $NF; exit }' "$1"; }

fst-capture -q -o "$T/mt.trace" "$FST_PROGS/maptime.ins" || fail "maptime: capture"
rec=$(fact maptime recorded-from MAIN)
want=$(for r in MAIN IHOEXP IHOLGN IHOCVT IHOERR; do
    s=$(fact maptime self $r); [ $r = MAIN ] && s=$((s - 32))   # MAIN's 32 under the flag
    [ $r = IHOERR ] && s=0                                      # all of it under the flag
    echo "$r $(awk -v s=$s -v t=$rec 'BEGIN { printf "%.2f", 100 * s / t }')"; done)
S0="--request=SPAN 0 0 0 0.0"

# --exact: time-weighted, so under mips:R (every instruction alike) the percentages are
# the instruction shares of construction, exactly
for clk in mips:1 mips:0.001; do
    fst-report --format=maptime --exact --clock=$clk "$S0" -o "$T/ex.txt" "$T/mt.trace" 2> "$T/err"
    expect_eq "--exact --clock=$clk: CSECT percentages of construction" "$want" "$(sectpct "$T/ex.txt")"
done
ms() { awk -v n="$1" 'BEGIN { printf "%.9f", n / 1000 }'; }   # instructions at 1 ms each
expect_eq "--exact: seconds in machine, LOGTIME and MAPTIME range (stub in, flagged part out)" \
    "$(ms "$(fact maptime recorded)") $(ms $rec) $(ms $rec)" \
    "$(for w in MACHINE LOGTIME MAPTIME; do count "$T/ex.txt" "IN $w RANGE"; done | tr '\n' ' ' | sed 's/ $//')"

# Sampling. The timer is periodic over CPU time, so a section's samples differ from its
# time / interval by less than one per stretch of consecutive execution in it. MAIN has
# the most stretches: its start plus one return from each of the 50 + 50 + 40 recorded
# calls, plus the epilogue after the flagged part: 142. So every percentage is within
# 100 * 142 / samples points of the exact one (this bound, not a statistical one).
# mips:0.001 with LOGTIME's default interval (300 per second): 1 sample per 10/3
# instructions: 200237 * 3 / 10 = 60071 expiries, 69 or 70 of them in the 232 flagged
# instructions, so 60001 or 60002 recorded; tolerance 100 * 142 / 60000 = 0.24 points.
within() { # NAME WANT GOT TOL: the same names, each percentage within TOL
    if awk -v w="$2" -v g="$3" -v tol="$4" 'BEGIN { n = split(w, a, /[ \n]/); m = split(g, b, /[ \n]/)
        if (n != m) exit 1
        for (i = 1; i < n; i += 2) { d = a[i + 1] - b[i + 1]; if (d < 0) d = -d
            if (a[i] != b[i] || d > tol + 0.000001) exit 1 } }'; then ok "$1"
    else fail "$1" "expected (+-$4): $2" "got: $3"; fi
}
fst-report --format=maptime --clock=mips:0.001 "$S0" -o "$T/s1.txt" "$T/mt.trace"
m=$(count "$T/s1.txt" "IN MACHINE RANGE")
[ "$m" = 60001 ] || [ "$m" = 60002 ] && ok "300/s at 1 ms per instruction: $m samples (60001 or 60002)" \
    || fail "300/s at 1 ms per instruction: 60001 or 60002 samples" "got $m"
within "sampled, 300/s: CSECT percentages within 0.24 points" "$want" "$(sectpct "$T/s1.txt")" 0.24
# mips:1, --timeunit=1 (76800 per second): 1 sample per 13.02 instructions, ~15360
# samples; tolerance 100 * 142 / 15360 = 0.93 points
fst-report --format=maptime --clock=mips:1 --timeunit=1 "$S0" -o "$T/s2.txt" "$T/mt.trace"
m=$(count "$T/s2.txt" "IN MAPTIME RANGE")
[ "$m" -ge 15355 ] && [ "$m" -le 15365 ] && ok "--timeunit=1 at 1 MIPS: $m samples (~15360)" || fail "--timeunit=1 at 1 MIPS: ~15360 samples" "got $m"
within "sampled, --timeunit=1: CSECT percentages within 0.93 points" "$want" "$(sectpct "$T/s2.txt")" 0.93
# the cost model: sampled against exact under the same clock, tolerance from the samples
fst-report --format=maptime --clock=model --timeunit=1 "$S0" -o "$T/s3.txt" "$T/mt.trace"
fst-report --format=maptime --clock=model --exact "$S0" -o "$T/e3.txt" "$T/mt.trace"
m=$(count "$T/s3.txt" "IN MAPTIME RANGE")
within "--clock=model: sampled within 100*142/$m points of exact" "$(sectpct "$T/e3.txt")" "$(sectpct "$T/s3.txt")" \
    "$(awk -v m=$m 'BEGIN { printf "%.2f", 100 * 142 / m }')"

# golden listings (mips:0.001: seconds = instructions / 1000), checked by hand
fst-report --format=maptime --exact --clock=mips:0.001 -o "$T/default.txt" "$T/mt.trace"
expect_golden "golden: default requests (sections, then 2-byte spans >= 0.5%)" "$GOLDEN/default.txt" "$T/default.txt"
printf 'SPAN 20020 200C7 10 1.0\nNAME IHOLGN IHOCVT 8 1.0\nTERM\nthis line is after TERM: not read\n' > "$T/req"
fst-report --format=maptime --exact --clock=mips:0.001 --range=20000-201A7 --span=8 --requests="$T/req" \
    -o "$T/req.txt" "$T/mt.trace"
expect_golden "golden: --requests file, SPAN and NAME with 16- and 8-byte spans" "$GOLDEN/requests.txt" "$T/req.txt"

# --window: only while IHOLGN is on the stack: its 30000 instructions, all in IHOLGN
fst-report --format=maptime --exact --clock=mips:0.001 --window=IHOLGN "$S0" -o "$T/w.txt" "$T/mt.trace"
expect_eq "--window=IHOLGN: only IHOLGN's time" "$(ms "$(fact maptime self IHOLGN)") IHOLGN 100.00" \
    "$(count "$T/w.txt" "IN MACHINE RANGE") $(sectpct "$T/w.txt" | awk '$2 != "0.00"')"

# several runs in one capture: two Hercules logs of fortg one after the other (the disabled
# wait of the first run followed by more instructions): one image each; fortg from MAIN's
# entry up (301 instructions): MAIN 51, SUBA 208, SUBB 42 -> 16.94 69.10 13.95
fst-capture -q --keep-log="$T/fortg.log" -o "$T/fortg.trace" "$FST_PROGS/fortg.ins"
cat "$T/fortg.log" "$T/fortg.log" > "$T/two.log"
fst-capture -q --from-log="$T/two.log" --image="$FST_PROGS/fortg.ins" -o "$T/two.trace"
fst-report --format=maptime --exact --clock=mips:0.001 "$S0" -o "$T/two.txt" "$T/two.trace"
expect_eq "two runs in one capture: two images" "LOGTIME IMAGE 1 OF 2
LOGTIME IMAGE 2 OF 2" "$(grep -o '^LOGTIME IMAGE [0-9] OF [0-9]' "$T/two.txt")"
expect_eq "two runs: each image has fortg's percentages" "MAIN 16.94 SUBA 69.10 SUBB 13.95 MAIN 16.94 SUBA 69.10 SUBB 13.95" \
    "$(awk '$2 ~ /^0200/ { printf "%s%s %s", s, $1, $3; s = " " }' "$T/two.txt")"
fst-report --format=maptime --exact --one-image --clock=mips:0.001 "$S0" -o "$T/one.txt" "$T/two.trace"
expect_eq "--one-image: one image, twice the time" "LOGTIME IMAGE 1 OF 1 0.602000000" \
    "$(grep -o '^LOGTIME IMAGE [0-9] OF [0-9]' "$T/one.txt") $(count "$T/one.txt" "IN LOGTIME RANGE")"

# bad input: clear messages, exit 2, before or instead of a listing
R="fst-report --format=maptime $T/mt.trace"
expect_fail "a percent without a decimal point (F8.2)" 2 "--request: 'SPAN 0 0 8 1': percent is F8.2" $R --request='SPAN 0 0 8 1'
expect_fail "a SPAN with 3 fields" 2 "SPAN takes 4 fields" $R --request='SPAN 0 0 8'
expect_fail "an address that is not hexadecimal" 2 "'SPAN 0 XYZ 8 1.0': address0 and address1 are hexadecimal" $R --request='SPAN 0 XYZ 8 1.0'
expect_fail "an unknown request" 2 "'PLOT 1 2 3 4.0': not a MAPTIME request" $R --request='PLOT 1 2 3 4.0'
expect_fail "a routine name of 9 characters" 2 "at most 8 characters" $R --request='NAME ABCDEFGHI MAIN 0 1.0'
expect_fail "NAME with an unknown section" 2 "'NAME NOPE IHOEXP 0 1.0': no control section NOPE" $R --request='NAME NOPE IHOEXP 0 1.0'
expect_fail "NAME with the sections in the wrong order" 2 "routine1 lies below routine0" $R --request='NAME IHOEXP MAIN 0 1.0'
printf 'SPAN 0 0 0 0.0\nNAME MAIN\n' > "$T/bad.req"
expect_fail "a bad line in a --requests file: file and line" 2 "bad.req:2: 'NAME MAIN': NAME takes 4 fields" $R --requests="$T/bad.req"
expect_fail "a missing --requests file" 2 "nothere.req: cannot open" $R --requests="$T/nothere.req"
expect_fail "--window with an unknown routine" 2 "--window=NOPE: no routine of that name" $R --window=NOPE
expect_fail "--range that is not A0-A1" 2 "--range=20000: ADDRESS0-ADDRESS1" $R --range=20000
expect_fail "--timeunit 0" 2 "--timeunit=0: a hexadecimal number" $R --timeunit=0
expect_fail "a SPAN outside LOGTIME's range" 2 "outside LOGTIME's range" $R --range=20020-201A7 --request='SPAN 10000 20000 0 1.0'

# with a map, MAPTIME's sections are the map's control sections: an entry label is part of
# its section (IHOEXP as a label of MAIN: MAIN 25% + IHOEXP 14% = 39%, by construction)
printf 'name,type,origin,length\nMAIN,SD,20020,E0\nIHOEXP,LR,200C8,\nIHOLGN,SD,20100,38\nIHOCVT,SD,20138,38\nIHOERR,SD,20170,40\n' > "$T/labels.csv"
fst-report --format=maptime --exact --clock=mips:1 --map="$T/labels.csv" --timed=all \
    --request='SPAN 0 0 0 0.0' -o "$T/labels.txt" "$T/mt.trace"
expect_eq "--map: entry labels are not control sections" "MAIN 39.00|IHOLGN 15.00|IHOCVT 46.00|IHOERR 0.00" \
    "$(awk '$2 ~ /^0201/ || $2 ~ /^0200/ { print $1, $3 }' "$T/labels.txt" | paste -sd'|')"
