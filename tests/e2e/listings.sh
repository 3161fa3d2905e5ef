#!/bin/bash
# tests/e2e/listings.sh — exact counts by statement from the assembler's listing (issue 34):
# fst-report --lines=LISTING.
#   GNU as listings (as -al) of standalone programs, built here as the GNUmakefile builds
#   tests/programs/*.s, and of random loop programs (tests/loops/gen.py); each traced by
#   Hercules' own text trace. Every statement's instruction count in --format=csv --by=line
#   equals the sum of the executions Hercules' log shows at the addresses from its
#   location to the next statement's (tests/programs/listing.py reads the listing on its
#   own); the same for IBM listings of the programs (IFOX00 with ASA carriage control and
#   HLASM with form feeds), made from the documented layout by tests/programs/ibmlist.py,
#   against the statements it says each address is in; FORTRAN IV G and H listings (SOURCE
#   and LIST, page titles, continuation and comment cards, the prologue of no statement)
#   made by tests/programs/fortlist.py, each ISN's count likewise; bigloop's loop statements ran N times (its construction); annotate --source's
#   headings are the listing's statements. A listing of another program, and a file that
#   is no listing, are refused with exit 2, naming the file and line.
. "$(dirname "$0")/../lib.sh"
P=$FST_ROOT/tests/programs
OBJDUMP=${S390_OBJDUMP:-s390x-linux-gnu-objdump} NM=${S390_NM:-s390x-linux-gnu-nm}
AS=${S390_AS:-s390x-linux-gnu-as} LD=${S390_LD:-s390x-linux-gnu-ld} OBJCOPY=${S390_OBJCOPY:-s390x-linux-gnu-objcopy}

# build NAME SRC [AS-OPTIONS]: $T/NAME.ins and its listing $T/NAME.lst
build() {
    local n=$1 src=$2
    shift 2
    "$AS" -m31 -I "$P" -al="$T/$n.lst" "$@" -o "$T/$n.o" "$src" &&
    "$LD" -m elf_s390 -T "$P/standalone.ld" -o "$T/$n.elf" "$T/$n.o" &&
    "$OBJCOPY" -O binary -j .lowcore "$T/$n.elf" "$T/$n.lc" && "$OBJCOPY" -O binary -j .text "$T/$n.elf" "$T/$n.bin" &&
    printf '%s 0x0\n%s 0x20000\n' "$n.lc" "$n.bin" > "$T/$n.ins"
}

progs="fortg forth linkage untimed maptime shares"
for s in 3 8; do
    python3 "$FST_ROOT/tests/loops/gen.py" $s 30000 > "$T/loop$s.s" && progs="$progs loop$s"
done
for n in $progs; do
    src=$P/$n.s
    [ -f "$src" ] || src=$T/$n.s
    if ! build $n "$src" 2> "$T/err"; then fail "$n: assembles with its listing" "$(head -5 "$T/err")"; continue; fi
    if ! fst-capture -q --via=trace --keep-log="$T/$n.log" --timeout=120 -o "$T/$n.trace" "$T/$n.ins" 2> "$T/err"; then
        fail "$n: captures under Hercules" "$(head -5 "$T/err")"
        continue
    fi
    if ! fst-report --timed=all --clock=mips:1 --lines="$T/$n.lst" --format=csv --by=line -o "$T/$n.csv" "$T/$n.trace" \
            2> "$T/err"; then
        fail "$n: fst-report --lines=LISTING --format=csv --by=line" "$(head -5 "$T/err")"
        continue
    fi
    if python3 "$P/listing.py" "$T/$n.log" "$T/$n.lst" 20000 "$T/$n.csv" > "$T/cmp"; then
        ok "$n: each statement's instructions are Hercules' executions at its addresses in the listing ($(cat "$T/cmp"))"
    else
        fail "$n: each statement's instructions are Hercules' executions at its addresses in the listing" "$(cat "$T/cmp")"
    fi
    # IBM listings of the same program, made from the documented layout (ibmlist.py): each
    # routine a CSECT located from 0, placed by its name or its code
    "$OBJDUMP" -d "$T/$n.elf" > "$T/$n.dis"
    "$NM" -P "$T/$n.elf" > "$T/$n.nm"
    for kind in ifox hlasm; do
        pl=45
        [ $kind = hlasm ] && pl=23
        python3 "$P/ibmlist.py" $kind "$T/$n.dis" "$T/$n.nm" $pl > "$T/$n.$kind" 3> "$T/$n.$kind.truth"
        if ! fst-report --timed=all --clock=mips:1 --lines="$T/$n.$kind" --format=csv --by=line -o "$T/$n.$kind.csv" \
                "$T/$n.trace" 2> "$T/err"; then
            fail "$n ($kind listing): fst-report --lines --format=csv --by=line" "$(head -5 "$T/err")"
        elif python3 "$P/listing.py" "$T/$n.log" --truth "$T/$n.$kind.truth" "$T/$n.$kind.csv" > "$T/cmp"; then
            ok "$n ($kind listing): each statement's instructions are Hercules' executions at its addresses ($(cat "$T/cmp"))"
        else
            fail "$n ($kind listing): each statement's instructions are Hercules' executions at its addresses" "$(cat "$T/cmp")"
        fi
    done
    # FORTRAN IV G and H listings (SOURCE, LIST) made from the layout by fortlist.py: each
    # statement of the assembler source an ISN; G's object listing has no object code, so
    # only programs whose routines all have FORTRAN identifiers (named in the image) take it
    case $n in fortg|loop*) kinds="g h" ;; *) kinds=h ;; esac
    for kind in $kinds; do
        python3 "$P/fortlist.py" $kind "$T/$n.lst" "$T/$n.dis" "$T/$n.nm" 40 > "$T/$n.fort$kind" 3> "$T/$n.fort$kind.truth"
        if ! fst-report --timed=all --clock=mips:1 --lines="$T/$n.fort$kind" --format=csv --by=line \
                -o "$T/$n.fort$kind.csv" "$T/$n.trace" 2> "$T/err"; then
            fail "$n (FORTRAN $kind listing): fst-report --lines --format=csv --by=line" "$(head -5 "$T/err")"
        elif python3 "$P/listing.py" "$T/$n.log" --truth "$T/$n.fort$kind.truth" "$T/$n.fort$kind.csv" > "$T/cmp"; then
            ok "$n (FORTRAN $kind listing): each ISN's instructions are Hercules' executions at its code ($(cat "$T/cmp"))"
        else
            fail "$n (FORTRAN $kind listing): each ISN's instructions are Hercules' executions at its code" "$(cat "$T/cmp")"
        fi
    done
done

# bigloop with N = 50: its loop statements (LR, BALR, BCT) and TICK's run N times each
build bigloop "$P/bigloop.s" --defsym NITER=50
fst-capture -q -o "$T/bigloop.trace" "$T/bigloop.ins" 2> "$T/err" || fail "bigloop: captures" "$(head -3 "$T/err")"
fst-report --lines="$T/bigloop.lst" --format=csv --by=line "$T/bigloop.trace" > "$T/bigloop.csv" 2> "$T/err"
got=$(awk -F, '$3 ~ /^(MAIN|TICK)$/ && $4 == 50 { n[$3]++ } END { print n["MAIN"] + 0, n["TICK"] + 0 }' "$T/bigloop.csv")
expect_eq "bigloop (N = 50): MAIN's 3 loop statements and TICK's 8 run 50 times" "3 8" "$got"
fst-report --lines="$T/bigloop.lst" --format=annotate --source --routine=TICK "$T/bigloop.trace" > "$T/bigloop.an" 2> "$T/err"
expect_eq "bigloop: annotate --source heads TICK's instructions with the listing's statements and their text" \
    "51 52 53 54 55 56 57 58" "$(sed -n 's/^  ---- [^:]*:\([0-9]*\) .*/\1/p' "$T/bigloop.an" | tr '\n' ' ' | sed 's/ $//')"
grep -q -- '---- bigloop.s:57 .*lm *%r14,%r12,12(%r13)' "$T/bigloop.an" && ok "bigloop: a statement's heading shows its source text" ||
    fail "bigloop: a statement's heading shows its source text" "$(head -8 "$T/bigloop.an")"

# ---- bad input ----
sed '/LOCATION  STA NUM/,$d' "$T/fortg.fortg" > "$T/nolist.fortg"
expect_fail "a FORTRAN listing without the object listing (no LIST) is refused" 2 'nolist.fortg: no object listing' \
    fst-report --lines="$T/nolist.fortg" --format=csv --by=line "$T/bigloop.trace"
awk '/LOCATION  STA NUM/ && !done { print; print "     garbage in the object listing"; done = 1; next } { print }' \
    "$T/fortg.fortg" > "$T/bad.fortg"
expect_fail "a line of a FORTRAN object listing that is none is refused, with its line" 2 \
    'bad.fortg:[0-9]+: not a line of a FORTRAN IV object listing' \
    fst-report --lines="$T/bad.fortg" --format=csv --by=line "$T/bigloop.trace"
python3 "$P/ibmlist.py" ifox "$T/fortg.dis" "$T/fortg.nm" 45 nostub > "$T/fortg-main.ifox" 3> /dev/null
expect_fail "an IBM listing whose CSECT MAIN is not the code that ran at MAIN is refused" 2 \
    'fortg-main.ifox \(MAIN\): its code is not what ran at routine MAIN' \
    fst-report --lines="$T/fortg-main.ifox" --format=csv --by=line "$T/bigloop.trace"
awk 'NR == 12 { print " 00000X 12 garbage here" } { print }' "$T/fortg.ifox" > "$T/bad.ifox"
expect_fail "a line of an IBM listing's statements that is none is refused, with its line" 2 \
    'bad.ifox:12: not a line of an IBM assembler listing' \
    fst-report --lines="$T/bad.ifox" --format=csv --by=line "$T/bigloop.trace"
expect_fail "a listing of another program is refused" 2 'fortg.lst.*(nowhere|not what ran)' \
    fst-report --lines="$T/fortg.lst" --format=csv --by=line "$T/bigloop.trace"
printf '   1              \t# a listing\n   2 0000 0DC0     \tbalr 12,0\nthis line is no listing\n' > "$T/bad.lst"
expect_fail "a line that is no GNU as listing line is refused, with its line" 2 'bad.lst:3: not a line of a GNU as listing' \
    fst-report --lines="$T/bad.lst" --format=csv --by=line "$T/bigloop.trace"
