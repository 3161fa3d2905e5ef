#!/bin/bash
# tests/e2e/lines.sh — exact counts by source statement (issue 34): fst-report --lines.
#   C (DWARF, read with libdw): tests/cprogs/lines.c (loops, a function inlined at every -O,
#   a sibling call at -O2) in all 8 builds, and recur.c and sibling.c at -O0 and -O2, gcc
#   -g; each traced by Hercules' own text trace. Every source line's instruction count in
#   --format=csv --by=line equals the sum, over the addresses binutils' decoding of the line
#   table gives the line (objdump --dwarf=decodedline), of the executions Hercules' log
#   shows there (tests/cprogs/lines.py): neither the counting nor the attribution is fst's.
#   callgrind's fl=/line positions: callgrind_annotate shows the same counts on lines.c.
#   annotate --source lists under each statement exactly those addresses' instructions.
#   lines.c's construction gives the executions of its loop lines (its header comment).
#   Bad input is refused with exit 2, naming the file.
. "$(dirname "$0")/../lib.sh"
CP=${FST_CPROGS:-$(dirname "$FST_PROGS")/cprogs}
NM=${S390_NM:-s390x-linux-gnu-nm}
OBJDUMP=${S390_OBJDUMP:-s390x-linux-gnu-objdump}
LINES=$FST_ROOT/tests/cprogs/lines.py
cd "$FST_ROOT"      # the ELFs name their sources relative to the checkout

# line NUMBER: the number of the line of lines.c that holds TEXT (the construction's lines)
lineof() { grep -n -F -- "$1" tests/cprogs/lines.c | head -1 | cut -d: -f1; }
BODY=$(lineof 's += sq(i);') SQ=$(lineof 'return x * x + 1;') MAINBODY=$(lineof 'sink = twice(N);')

# capture B ARCH: $T/B.trace and Hercules' log $T/B.log
capture() {
    fst-capture -q --via=trace --keep-log="$T/$1.log" --arch="$2" --timeout=120 -o "$T/$1.trace" "$CP/$1.ins" 2> "$T/err"
}

builds="lines-m31-z900-O0 lines-m31-z900-O2 lines-m31-z196-O0 lines-m31-z196-O2 lines-m64-z900-O0 lines-m64-z900-O2
        lines-m64-z196-O0 lines-m64-z196-O2 recur-m31-z900-O0 recur-m31-z900-O2 sibling-m64-z196-O0 sibling-m64-z196-O2"
for b in $builds; do
    elf=$CP/$b.elf arch=ESA/390
    case $b in *-m64-*) arch=z/Arch ;; esac
    [ -f "$elf" ] || { fail "$b: built (make programs)"; continue; }
    if ! capture "$b" $arch; then fail "$b: captures under Hercules ($arch)" "$(head -5 "$T/err")"; continue; fi
    "$NM" -P "$elf" > "$T/$b.nm"
    "$OBJDUMP" --dwarf=decodedline "$elf" > "$T/$b.dl"
    for mode in default tail-calls; do
        opt=()
        [ $mode = tail-calls ] && opt=(--tail-calls)
        if ! fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 "${opt[@]}" --lines="$elf" --format=csv --by=line \
                -o "$T/$b.csv" "$T/$b.trace" 2> "$T/err"; then
            fail "$b ($mode): fst-report --lines --format=csv --by=line" "$(head -5 "$T/err")"
            continue
        fi
        if python3 "$LINES" "$T/$b.log" "$T/$b.dl" "$T/$b.csv" > "$T/cmp"; then
            ok "$b ($mode): each line's instructions are the sum of Hercules' executions at the addresses binutils gives it ($(cat "$T/cmp"))"
        else
            fail "$b ($mode): each line's instructions are the sum of Hercules' executions at the addresses binutils gives it" "$(head -10 "$T/cmp")"
        fi
        # the rows add up to the profile's total, and per routine to its self figures
        total=$(awk -F, '$1 == "(total)" { print $5 }' "$T/$b.csv")
        sum=$(awk -F, 'NR > 1 && $1 != "(total)" { s += $5 } END { print s + 0 }' "$T/$b.csv")
        fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 "${opt[@]}" --format=csv "$T/$b.trace" > "$T/$b.rcsv" 2> /dev/null
        want=$(awk -F, 'NR > 1 && $1 !~ /^\(/ && $4 > 0 { print $1, $4 } $1 == "(outside)" { print $1, $4 }' "$T/$b.rcsv" | sort)
        got=$(awk -F, 'NR > 1 && $1 != "(total)" { s[$3] += $5 } END { for (r in s) print r, s[r] }' "$T/$b.csv" | sort)
        expect_eq "$b ($mode): the rows add up to the total and to each routine's self instructions" \
            "$(awk -F, '$1 == "(total)" { print $4 }' "$T/$b.rcsv") $want" "$sum $got"
        [ "$total" = "$sum" ] || fail "$b ($mode): (total) row $total, rows $sum"
        # annotate --source: each statement's heading over exactly the instructions the
        # table gives it, its figures the sum of theirs
        if ! fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 "${opt[@]}" --lines="$elf" --format=annotate \
                --source -o "$T/$b.an" "$T/$b.trace" 2> "$T/err"; then
            fail "$b ($mode): fst-report --format=annotate --source" "$(head -5 "$T/err")"
        elif python3 "$LINES" --annotate "$T/$b.dl" "$T/$b.an" > "$T/cmp"; then
            ok "$b ($mode): annotate --source lists under each statement the instructions binutils gives it ($(cat "$T/cmp"))"
        else
            fail "$b ($mode): annotate --source lists under each statement the instructions binutils gives it" "$(cat "$T/cmp")"
        fi
    done
    case $b in lines-*O2)
        # callgrind with source lines: callgrind_annotate (valgrind's) puts on each line of
        # lines.c the instructions csv --by=line gives it
        if fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 --lines="$elf" --format=callgrind -o "$T/$b.cg" \
                "$T/$b.trace" 2> "$T/err" && callgrind_annotate "$T/$b.cg" tests/cprogs/lines.c > "$T/$b.cga" 2> "$T/err"; then
            expect_eq "$b: callgrind_annotate reads fl=/line positions: each source line's Ir is csv --by=line's" \
                "$(awk -F, '$1 ~ /lines\.c$/ { s[$2] += $5 } END { for (l in s) print l, s[l] }' "$T/$b.csv" | sort -n)" \
                "$(awk '/^-- line [0-9]+ -/ { ln = $3; on = 1; next } /^-----/ { on = 0 }
                        on && !/=>/ { ir = $1; gsub(",", "", ir); if (ir != "." && ir != "") print ln, ir; ln++ }' "$T/$b.cga" | sort -n)"
        else
            fail "$b: fst-report --format=callgrind --lines, callgrind_annotate" "$(head -5 "$T/err")"
        fi ;;
    esac
    case $b in lines-*)
        # the construction: the loop body and the inlined function's line run N*ROUNDS times,
        # main's loop body ROUNDS times
        got=$(awk -F, -v b="$BODY" -v s="$SQ" -v m="$MAINBODY" '$1 ~ /lines\.c$/ && ($2 == b || $2 == s || $2 == m) {
                  e[$2] = e[$2] > $4 ? e[$2] : $4 } END { print e[b] + 0, e[s] + 0, e[m] + 0 }' "$T/$b.csv")
        expect_eq "$b: executions of the loop body, the inlined line and main's loop body as built" "1000 1000 10" "$got" ;;
    esac
done

# ---- fortstat --statements: the hottest routine's statements, as csv --by=line has them ----
b=lines-m31-z900-O0
fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 --lines="$CP/$b.elf" --statements=1 "$T/$b.trace" > "$T/$b.fs" 2> /dev/null
expect_eq "$b: fortstat --statements lists the hottest routine's (sumsq's) statements with csv --by=line's executions" \
    "$(awk -F, '$3 == "sumsq" && $1 ~ /lines\.c$/ { print "lines.c:" $2, $4 }' "$T/$b.csv" | sort)" \
    "$(awk '/^STATEMENTS OF sumsq/ { on = 1; next } on && $1 ~ /^lines\.c:/ { print $1, $2 }' "$T/$b.fs" | sort)"
expect_fail "--statements=0 is refused" 2 '--statements: the number of hottest routines' \
    fst-report --lines="$CP/$b.elf" --statements=0 "$T/$b.trace"

# ---- bad input: exit 2, the file named ----
b=lines-m31-z900-O0
r=(fst-report --timed=all --map="$T/$b.nm" --format=csv --by=line "$T/$b.trace")
expect_fail "--by=line without --lines is refused" 2 'needs the program.s statement table' "${r[@]}"
expect_fail "--lines with csv but without --by=line is refused (it would be ignored)" 2 'reports source statements with --by=line' \
    fst-report --lines="$CP/$b.elf" --format=csv "$T/$b.trace"
expect_fail "--lines with a format that reports no statements is refused" 2 'does not report source statements' \
    fst-report --lines="$CP/$b.elf" --format=prof "$T/$b.trace"
expect_fail "--lines=/dev/null is refused, named" 2 '/dev/null: not a statement table' "${r[@]}" --lines=/dev/null
expect_fail "--lines of an ELF without -g is refused" 2 'bigloop.elf: no DWARF' "${r[@]}" --lines="$FST_PROGS/bigloop.elf"
expect_fail "--lines of another program is refused: its code is not in the trace" 2 \
    'recur-m31-z900-O0.elf: its object code is nowhere in the trace' "${r[@]}" --lines="$CP/recur-m31-z900-O0.elf"
expect_fail "--lines of a missing file is refused" 2 'nosuch.elf: cannot open' "${r[@]}" --lines="$T/nosuch.elf"
expect_fail "--source without --lines is refused" 2 'needs the program.s statement table' \
    fst-report --format=annotate --source "$T/$b.trace"
expect_fail "--by=LINE is refused" 2 "--by: 'line' or 'routine'" "${r[@]}" --lines="$CP/$b.elf" --by=lin
