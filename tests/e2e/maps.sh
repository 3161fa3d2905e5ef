#!/bin/bash
# tests/e2e/maps.sh — fst-map: every real IEWL listing in fixtures/maps against its golden
# CSV, checked again by an independent reading and for consistency; listings with carriage
# control; several link steps; load points; load modules, loader maps, CSV and nm maps; an
# assembled FORTRAN-style program whose load point is found from its storage image; bad
# input of every kind.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C
M=$FST_FIXTURES/maps
G=$FST_ROOT/golden/maps

# ---- 1. every real listing, byte for byte as the printer wrote it ----
for f in "$M"/*.iewl; do
    n=$(basename "$f" .iewl)
    if fst-map "$f" > "$T/$n.csv" 2> "$T/err"; then
        expect_golden "iewl $n" "$G/$n.csv" "$T/$n.csv"
    else
        fail "iewl $n" "$(cat "$T/err")"
    fi
done

# An independent reading of a listing: whitespace-separated fields instead of columns, the
# rows sorted, hex without leading zeros; EP rows keep only the address.
independent() {
    awk '
    function hex(x) { sub(/^0+/, "", x); return x == "" ? "0" : x }
    { gsub(/\r|\f/, "") }
    /^\*\*\*\*/ && !/ALIAS/ && member == "" { member = substr($1, 5) }
    state == 0 && /NAME   LOCATION/ { state = 1; next }
    state >= 1 && state <= 3 && /^ ENTRY ADDRESS/ { print "EP," hex($3); state = 4; next }
    state == 4 && /^ TOTAL LENGTH/ { total = hex($3); state = 5; next }
    state == 1 && (/REFERS TO/ || /CUMULATIVE/) { state = 2; next }
    state <= 2 && /^ PSEUDO REGISTERS/ { state = 3; next }
    state == 1 && /NAME +ORIGIN/ { next }
    state == 1 && /^                                        / {
        for (i = 1; i < NF; i += 2) print $i ",LR," hex($(i + 1)) ","; next }
    state == 1 && NF >= 3 {
        name = $1; o = $2; l = $3
        if ($2 == "*") { o = $3; l = $4 } else sub(/\*$/, "", name)
        t = name == "$PRIVATE" ? "PC" : name == "$BLANKCOM" ? "CM" : "SD"
        print name "," t "," hex(o) "," hex(l) }
    state == 3 && !/ORIGIN/ && !/TOTAL LENGTH OF/ {
        for (i = 1; i + 2 <= NF; i += 3) print $i ",PR," hex($(i + 1)) "," hex($(i + 2)) }
    END { print member ",MODULE,0," total }' "$1" | sort
}
# The golden rows in the same form.
golden_rows() {
    awk -F, 'NR > 1 { if ($2 == "EP") print "EP," $3; else print }' "$1" | sort
}

bad=""
for f in "$M"/*.iewl; do
    n=$(basename "$f" .iewl)
    independent "$f" > "$T/ind"
    golden_rows "$G/$n.csv" > "$T/gold"
    cmp -s "$T/ind" "$T/gold" || bad="$bad $n"
done
expect_eq "an independent reading of all 34 listings agrees with the goldens" "" "$bad"

# Consistency of a golden: sections ascend without overlap and end within TOTAL LENGTH,
# every label lies in a section, the entry inside the module.
consistent() {
    awk -F, '
    function num(h,   i, v) { v = 0; h = toupper(h)
        for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1
        return v }
    NR == 1 { next }
    $2 == "MODULE" { total = num($4); next }
    $2 == "EP" { entry = num($3); next }
    $2 == "SD" || $2 == "PC" || $2 == "CM" {
        o = num($3); e = o + num($4)
        if (o < last) { print "section " $1 " out of order"; bad = 1 }
        if (e > total) { print "section " $1 " ends past TOTAL LENGTH"; bad = 1 }
        so[++ns] = o; se[ns] = e; last = e; next }
    $2 == "LR" { l = num($3); ok = 0
        for (i = 1; i <= ns; i++) if (l >= so[i] && l <= se[i]) ok = 1
        if (!ok) { print "label " $1 " in no section"; bad = 1 } }
    END { if (entry >= total) { print "entry outside"; bad = 1 }; exit bad }' "$1"
}
bad=""
for g in "$G"/*.csv; do consistent "$g" > "$T/why" || bad="$bad $(basename "$g"): $(head -1 "$T/why")"; done
expect_eq "all goldens consistent (sections fit TOTAL LENGTH, labels inside sections)" "" "$bad"

bad=""
for g in "$G"/*.csv; do
    fst-map "$g" > "$T/rt" 2>&1 && cmp -s "$g" "$T/rt" || bad="$bad $(basename "$g")"
done
expect_eq "every golden read back as a CSV map prints itself" "" "$bad"

# ---- 2. the same listings as data sets keep them: ASA or machine carriage control ----
# ASA: ' ' or '1' (after a form feed) in column 1; machine: X'09' or X'8B'.
with_cc() {
    awk -v plain="$2" -v eject="$3" '
    { gsub(/\r/, ""); n = split($0, part, "\f")
      if (n == 1) print plain part[1]
      for (i = 2; i <= n; i++) print eject part[i] }' "$1"
}
for n in blkprt-6 4map3270-install-1-v4-1; do
    with_cc "$M/$n.iewl" " " "1" > "$T/$n.asa"
    fst-map "$T/$n.asa" > "$T/asa.csv" 2>&1
    expect_golden "$n with ASA control characters" "$G/$n.csv" "$T/asa.csv"
    with_cc "$M/$n.iewl" "$(printf '\011')" "$(printf '\213')" > "$T/$n.mcc"
    fst-map "$T/$n.mcc" > "$T/mcc.csv" 2>&1
    expect_golden "$n with machine control characters" "$G/$n.csv" "$T/mcc.csv"
done

# ---- 3. several link steps in one listing ----
cat "$M/blkprt-5.iewl" "$M/6map3270-install-3-v4-1.iewl" "$M/blkprt-6.iewl" > "$T/job.lst"
expect_fail "a listing of three link steps needs a choice" 2 \
    "job.lst: 3 link steps have a map: 1 BLOCKFOH \(line 13\), 2 TTYASM \(line 54\), 3 BLOCKPLI" \
    fst-map "$T/job.lst"
fst-map --member=BLOCKPLI "$T/job.lst" > "$T/m.csv" 2>&1
expect_golden "--member picks a step by member name" "$G/blkprt-6.csv" "$T/m.csv"
fst-map "$T/job.lst(TTYASM)" > "$T/m.csv" 2>&1
expect_golden "FILE(MEMBER) picks a step" "$G/6map3270-install-3-v4-1.csv" "$T/m.csv"
fst-map --member=1 "$T/job.lst" > "$T/m.csv" 2>&1
expect_golden "--member=1 picks the first map" "$G/blkprt-5.csv" "$T/m.csv"
fst-map --member=blkprtf "$M/blkprt-1.iewl" > "$T/m.csv" 2>&1
expect_golden "--member takes an alias" "$G/blkprt-1.csv" "$T/m.csv"
expect_fail "--member that no step makes" 2 "no link step makes NOPE; the maps are: 1 BLOCKFOH" \
    fst-map --member=NOPE "$T/job.lst"

# ---- 4. load points ----
fst-map --load-point=1A0000 "$M/blkprt-5.iewl" > "$T/abs.csv"
expect_eq "--load-point prints absolute origins" \
    "BLOCKFOH,MODULE,1A0000,6100|MAIN,EP,1A0000,|IHCECOMH,SD,1A0E38,F61|IBCOM#,LR,1A0E38," \
    "$(grep -E ',(MODULE|EP),|^(IHCECOMH|IBCOM#),' "$T/abs.csv" | paste -sd'|')"
fst-map "$T/abs.csv" > "$T/rel.csv"
expect_golden "an absolute CSV reads back module-relative" "$G/blkprt-5.csv" "$T/rel.csv"
fst-map --load-point=TTYASM=20000 --load-point=BLOCKFOH=0x30000 "$M/6map3270-install-3-v4-1.iewl" \
    "$M/blkprt-5.iewl" > "$T/two.csv"
expect_eq "--load-point=MODULE=HEX, two modules" "TTYDEMO,SD,20000,304|MAIN,SD,30000,802" \
    "$(grep -E '^(TTYDEMO|MAIN),SD' "$T/two.csv" | paste -sd'|')"
expect_fail "modules that overlap" 2 "module BLOCKFOH at 20000-26100 overlaps module TTYASM" \
    fst-map --load-point=TTYASM=20000 --load-point=BLOCKFOH=20000 \
    "$M/6map3270-install-3-v4-1.iewl" "$M/blkprt-5.iewl"
expect_fail "--load-point for one of two modules, unnamed" 2 "2 modules: say which one" \
    fst-map --load-point=20000 "$M/6map3270-install-3-v4-1.iewl" "$M/blkprt-5.iewl"
expect_fail "--absolute without a load point" 2 "module BLOCKFOH has no load point" \
    fst-map --absolute "$M/blkprt-5.iewl"
expect_fail "--load-point with bad hex" 2 "wants \[MODULE=\]HEX, not '2G000'" \
    fst-map --load-point=2G000 "$M/blkprt-5.iewl"

# ---- 5. bad listings: the file and line, exit 2 ----
F=$M/blkprt-5.iewl
sed 's/IHCUOPT \*   4F58/IHCUOPT *   4G58/' "$F" > "$T/bad.lst"
expect_fail "bad hex in a listing" 2 "^fst-map: error: .*/bad.lst:29: bad hex '4G58' in the ORIGIN column" \
    fst-map "$T/bad.lst"
sed '/  MAIN          00     802/d; /  BLKPRT  \*    808     62A/d' "$F" > "$T/bad.lst"
expect_fail "an entry name before any control section" 2 \
    "bad.lst:14: entry name BLKPRTF comes before any control section" fst-map "$T/bad.lst"
head -c 1500 "$F" > "$T/bad.lst"
expect_fail "a listing cut short" 2 "bad.lst:38: the map has ENTRY ADDRESS \(line 36\) but no TOTAL LENGTH" \
    fst-map "$T/bad.lst"
head -n 22 "$F" > "$T/bad.lst"
expect_fail "a listing cut inside the map" 2 "bad.lst:22: the map that starts at line 13 ends without ENTRY ADDRESS" \
    fst-map "$T/bad.lst"
head -c 900 "$F" > "$T/bad.lst"
expect_fail "a listing cut in the middle of a line" 2 "bad.lst:23: entry name FCVE has no location" \
    fst-map "$T/bad.lst"
sed 's/ERRMON      5258/ERRMON      9258/' "$F" > "$T/bad.lst"
expect_fail "a label outside its section" 2 "bad.lst:31: label ERRMON at 9258 lies outside its section IHCERRM" \
    fst-map "$T/bad.lst"
sed 's/  IHCUOPT \*   4F58     300/  IHCUOPT *   4F58     300  X/' "$F" > "$T/bad.lst"
expect_fail "stray text in the map" 2 "bad.lst:29: unexpected 'X' at column 29" fst-map "$T/bad.lst"
printf 'hello\n' > "$T/bad.lst"
expect_fail "not a map" 2 "bad.lst: not a map fst knows" fst-map "$T/bad.lst"
expect_fail "no such file" 2 "nonexistent.lst: No such file" fst-map "$T/nonexistent.lst"
expect_fail "--kind that is not one" 2 "--kind wants iewl, loader, cesd, csv or nm" fst-map --kind=elf "$F"
expect_fail "no FILE" 2 "no map FILE given" fst-map
printf 'x y z w v\n' > "$T/bad.lst"
expect_fail "a listing read as nm" 2 "bad.lst:1: not a line of nm output" fst-map --kind=nm "$T/bad.lst"
printf 'name,type,origin,length\nA,SD,0,10\nB,LR,1Z,\n' > "$T/bad.csv"
expect_fail "bad hex in a CSV map" 2 "bad.csv:3: bad hex in the origin column: '1Z'" fst-map "$T/bad.csv"

# ---- 6. a load module as records: CESD built here ----
# record 1: MAIN SD 0 len 100, SUB SD 100 len 40 (autocall), SUBE LR 120 of ESDID 2;
# record 2: ESDID 4, an ER (skipped) and IHEQINV PR 0 len 4. Then an IDR record.
e() { printf "$1"; }            # bytes written as octal escapes
{
    e '\040\000\000\000\000\001\000\060'
    e '\324\301\311\325\100\100\100\100\000\000\000\000\001\000\001\000'   # MAIN
    e '\342\344\302\100\100\100\100\100\200\000\001\000\001\000\000\100'   # SUB, X'80'
    e '\342\344\302\305\100\100\100\100\003\000\001\040\001\000\000\002'   # SUBE LR of 2
    e '\040\000\000\000\000\004\000\040'
    e '\305\331\331\100\100\100\100\100\002\000\000\000\000\000\000\000'   # ER
    e '\311\310\305\330\311\325\345\100\006\000\000\000\000\000\000\004'   # IHEQINV PR
    e '\200\003\200\000'                                                   # an IDR
} > "$T/mod.bin"
fst-map --member=MYMOD "$T/mod.bin" > "$T/mod.csv" 2>&1
expect_eq "a load module's CESD" \
    "name,type,origin,length|MYMOD,MODULE,0,140|MAIN,SD,0,100|SUB,SD,100,40|SUBE,LR,120,|IHEQINV,PR,0,4" \
    "$(paste -sd'|' "$T/mod.csv")"
head -c 80 "$T/mod.bin" > "$T/cut.bin"
expect_fail "a CESD record cut short" 2 \
    "cut.bin: byte 56: CESD record cut short: it holds 32 bytes of entries, 16 are left" \
    fst-map "$T/cut.bin"
head -c 60 "$T/mod.bin" > "$T/cut.bin"
expect_fail "a CESD header cut short" 2 "cut.bin: byte 56: record cut short: 4 bytes left" \
    fst-map "$T/cut.bin"
{
    e '\040\000\000\000\000\001\000\040'
    e '\324\301\311\325\100\100\100\100\000\000\000\000\001\000\001\000'   # MAIN
    e '\342\344\302\305\100\100\100\100\003\000\000\040\001\000\001\000'   # SUBE LR of 256
} > "$T/own.bin"
expect_fail "a label whose section is not in the CESD" 2 \
    "own.bin: byte 37: label SUBE names ESDID 256 as its section, which is not in the CESD" \
    fst-map --kind=cesd "$T/own.bin"
{ e '\040\000\000\000\000\001\000\042'; head -c 48 /dev/zero; } > "$T/cnt.bin"
expect_fail "a CESD byte count that is not whole entries" 2 "cnt.bin: byte 6: CESD byte count 34" \
    fst-map --kind=cesd "$T/cnt.bin"
e '\200\003\200\000' > "$T/idr.bin"
expect_fail "not a load module" 2 "byte 0: not a load module: the first record is X'80'" \
    fst-map --kind=cesd "$T/idr.bin"

# ---- 7. the OS loader map: absolute addresses, the load point it implies ----
cat > "$T/loader.lst" <<'EOF'
1 VS LOADER   OPTIONS USED - PRINT,MAP,LET,CALL,RES,NOTERM,SIZE=102400,NAME=**GO
0     NAME  TYPE  ADDR        NAME  TYPE  ADDR        NAME  TYPE  ADDR        NAME  TYPE  ADDR        NAME  TYPE  ADDR
   MAIN       SD 0A2010    SUBA       SD 0A2300    SUBA1      LR 0A2308    IHCECOMH*  SD 0A2400    IBCOM#     LR 0A2400
   IHCUATBL** SD D10000

0 TOTAL LENGTH     1000
  ENTRY ADDRESS  0A2010
EOF
fst-map --absolute "$T/loader.lst" > "$T/loader.csv" 2>&1
expect_eq "a loader map" \
    "name,type,origin,length|,MODULE,A2010,1000|MAIN,EP,A2010,|MAIN,SD,A2010,2F0|SUBA,SD,A2300,100|SUBA1,LR,A2308,|IHCECOMH,SD,A2400,C10|IBCOM#,LR,A2400," \
    "$(paste -sd'|' "$T/loader.csv")"

# ---- 8. an assembled FORTRAN-style program: nm -P, its image, an IEWL-format map ----
if command -v s390x-linux-gnu-as > /dev/null && command -v s390x-linux-gnu-nm > /dev/null; then
    cat > "$T/fort.s" <<'EOF'
# MAIN (FORTRAN H identifier) calls SUB (FORTRAN G identifier) through a V-constant.
        .text
        .globl  MAIN
        .type   MAIN,@function
MAIN:   .long   0x47F0F00C                      # B 12(,15)
        .byte   7,0,0,0,0xD4,0xC1,0xC9,0xD5     # X'07', 'MAIN' right-justified, X'00' pad
        stm     %r14,%r12,12(%r13)
        balr    %r12,0
VSUB:   l       %r15,AVSUB-VSUB(%r12)
        balr    %r14,%r15
        lm      %r14,%r12,12(%r13)
        br      %r14
        .balign 4
AVSUB:  .long   SUB
        .size   MAIN,.-MAIN
        .balign 8
        .globl  SUB
        .type   SUB,@function
SUB:    .long   0x47F0F00C                      # B 12(,15)
        .byte   6,0xE2,0xE4,0xC2,0x40,0x40,0x40,0x40   # X'06', 'SUB' left-justified
        br      %r14
        .size   SUB,.-SUB
EOF
    s390x-linux-gnu-as -m31 -o "$T/fort.o" "$T/fort.s" &&
    s390x-linux-gnu-ld -m elf_s390 -Ttext=0x20000 -e MAIN -o "$T/fort.elf" "$T/fort.o" &&
    s390x-linux-gnu-objcopy -O binary -j .text "$T/fort.elf" "$T/fort.bin"
    s390x-linux-gnu-nm -P -n --defined-only "$T/fort.elf" > "$T/fort.nm"
    fst-map --absolute "$T/fort.nm" > "$T/nm.csv" 2>&1
    expect_eq "nm -P of an s390 ELF" \
        "name,type,origin,length|,MODULE,20000,36|MAIN,SD,20000,24|VSUB,LR,20012,|AVSUB,LR,20020,|SUB,SD,20028,E" \
        "$(paste -sd'|' "$T/nm.csv")"
    printf 'fort.bin 0x20000\n' > "$T/fort.ins"
    # What the linkage editor would print for it (MODULE MAP, offsets from the ELF).
    cat > "$T/fort.lst" <<'EOF'
 F64-LEVEL LINKAGE EDITOR OPTIONS SPECIFIED MAP,LET,LIST
                                                      MODULE MAP
  CONTROL SECTION                       ENTRY
    NAME    ORIGIN  LENGTH                NAME   LOCATION     NAME   LOCATION     NAME   LOCATION     NAME   LOCATION
  MAIN          00      24
  SUB           28       E
 ENTRY ADDRESS       00
 TOTAL LENGTH        38
****FORTPROG  NOW REPLACED IN DATA SET
EOF
    fst-map --image="$T/fort.ins" "$T/fort.lst" > "$T/img.csv" 2>&1
    expect_eq "the load point found from the identifiers in the storage image" \
        "name,type,origin,length|FORTPROG,MODULE,20000,38|MAIN,EP,20000,|MAIN,SD,20000,24|SUB,SD,20028,E" \
        "$(paste -sd'|' "$T/img.csv")"
    expect_fail "a --load-point the image contradicts" 2 \
        "load point 21000 does not match the storage image: the routine names in it line up at 20000 \(2 names\)" \
        fst-map --image="$T/fort.ins" --load-point=21000 "$T/fort.lst"
    fst-map --image="$T/fort.ins" > "$T/ids.csv" 2>&1
    expect_eq "routines from the image alone (no map)" \
        "name,type,origin,length|,MODULE,0,|MAIN,SD,20000,28|SUB,SD,20028,10" \
        "$(paste -sd'|' "$T/ids.csv")"
else
    echo "# skip: no s390x binutils"
fi

# ---- 9. the S/370 test programs (tests/programs) with IEWL-format maps ----
# What the linkage editor would print for a program whose routines nm lists: a MODULE MAP
# with origins from the first routine, each section reaching to the next, the last to the
# end of the text (BIN bytes loaded at 20000).
if [ -f "$FST_PROGS/fortg.ins" ] && command -v hercules > /dev/null && command -v s390x-linux-gnu-nm > /dev/null; then
    for p in "$FST_PROGS"/*.ins; do
        n=$(basename "$p" .ins)
        [ -f "$FST_PROGS/$n.elf" ] || continue
        [ "$n" = mvsjob ] && continue   # runs at virtual addresses nm does not show (tests/e2e/mvsjob.sh)
        s390x-linux-gnu-nm -P -n --defined-only "$FST_PROGS/$n.elf" | awk '$2 ~ /^[Tt]$/' > "$T/$n.nm"
        [ -s "$T/$n.nm" ] || continue                 # no named routine
        iewl_from_nm "$T/$n.nm" "$(wc -c < "$FST_PROGS/$n.bin")" "$(echo "$n" | tr a-z A-Z)" > "$T/$n.lst"
        want=$(awk '{ print $1 "," toupper($3) }' "$T/$n.nm" | sed 's/,0*/,/' | paste -sd' ')
        if fst-capture -q --keep-log="$T/$n.log" -o "$T/$n.trace" "$p" 2> "$T/err"; then
            fst-map --trace="$T/$n.trace" "$T/$n.lst" > "$T/$n.csv" 2> "$T/err"
            got=$(awk -F, '$2 == "SD" { print $1 "," $3 }' "$T/$n.csv" | paste -sd' ')
            expect_eq "$n: the load point found from its trace puts the map's routines where nm has them" "$want" "$got"
            # the same log without the storage image: only the call targets tell
            fst-capture -q --from-log="$T/$n.log" -o "$T/$n.noimg" 2> "$T/err"
            if [ "$n" = twocpu ]; then  # one CPU runs 1 call target of 4 routines: no single fit
                expect_fail "$n: ... its one call target alone: ambiguous, said" 2 "ambiguous load point" \
                    fst-map --trace="$T/$n.noimg" "$T/$n.lst"
                continue
            fi
            fst-map --trace="$T/$n.noimg" "$T/$n.lst" > "$T/$n.csv" 2> "$T/err"
            got=$(awk -F, '$2 == "SD" { print $1 "," $3 }' "$T/$n.csv" | paste -sd' ')
            expect_eq "$n: ... and from its call targets alone" "$want" "$got"
            if [ "$n" = fortg ]; then   # a trace on standard input: the same one pass
                fst-map --trace=- "$T/$n.lst" < "$T/$n.noimg" > "$T/$n.csv" 2> "$T/err"
                expect_eq "$n: ... read from standard input" "$want" \
                    "$(awk -F, '$2 == "SD" { print $1 "," $3 }' "$T/$n.csv" | paste -sd' ')"
                # cut short in its footer: placed from what it holds, and said so
                head -c $(($(wc -c < "$T/$n.noimg") - 20)) "$T/$n.noimg" > "$T/$n.cut"
                fst-map --trace="$T/$n.cut" "$T/$n.lst" > "$T/$n.csv" 2> "$T/err"
                expect_eq "$n: ... cut short: the same routines" "$want" \
                    "$(awk -F, '$2 == "SD" { print $1 "," $3 }' "$T/$n.csv" | paste -sd' ')"
                if grep -q "^fst-map: warning: .*$n.cut is incomplete (cut short at byte" "$T/err"; then
                    ok "$n: ... cut short: said so"
                else fail "$n: ... cut short: said so" "$(head -3 "$T/err")"; fi
            fi
        else
            fail "$n: fst-capture" "$(head -3 "$T/err")"
        fi
    done
    # a map that does not fit (one routine at an odd offset: no name of it in the image,
    # no call target its start) is an error; it used to reach qsort(NULL, 0) (item 9)
    printf 'name,type,origin,length\nZED,MODULE,0,400\nZED,SD,3,100\n' > "$T/nofit.csv"
    expect_fail "fortg: a map that does not fit its trace is an error, not a sanitizer abort" 2 \
        "ZED of .*nofit.csv: no load point fits: no executed address is the start of a routine" \
        fst-map --trace="$T/fortg.trace" "$T/nofit.csv"
    expect_fail "fortg: ... nor its call targets alone" 2 "ZED of .*nofit.csv: no load point fits" \
        fst-map --trace="$T/fortg.noimg" "$T/nofit.csv"
    fst-map --image="$FST_PROGS/fortg.ins" > "$T/ids.csv"
    expect_eq "fortg: the routines its storage image names" \
        "MAIN,SD,20020|SUBA,SD,20070|SUBB,SD,200B0" \
        "$(awk -F, '$2 == "SD" { print $1 "," $2 "," $3 }' "$T/ids.csv" | paste -sd'|')"
    s390x-linux-gnu-nm -P "$FST_PROGS/fortg.elf" > "$T/fortg.nmp"
    fst-map --image="$FST_PROGS/fortg.ins" "$T/fortg.nmp" > "$T/nmimg.csv"
    expect_eq "fortg: nm -P with the image bounding the last routine" \
        "MAIN,SD,20020,50|SUBA,SD,20070,40|SUBB,SD,200B0,4C0" \
        "$(awk -F, '$2 == "SD"' "$T/nmimg.csv" | paste -sd'|')"
else
    echo "# skip: the test programs are not built (make programs) or Hercules is missing"
fi

exit 0
