#!/bin/bash
# tests/e2e/modcode.sh — code that is not in the storage image, captured --via=module (fst's
# module sends code pages, fstmod_wire.h CODE) and --via=trace, real Hercules both:
#   - cardload (tests/programs/cards/cardload.s): a loader reads two programs from the card
#     reader (fst-capture --cards, a 3505) into 0x30000 and calls each: cardprog.s variant
#     A, then variant B over it (other code at the same addresses);
#   - smc (tests/programs/smc.s): a first-time switch thrown in the same run, and an
#     instruction the mainline changes before every call;
#   - mvsjob (tests/programs/mvsjob.s): DAT on, two programs at the same virtual addresses
#     in other address spaces.
# Each: the instructions its construction gives (EXPECTED), csv, FORTSTAT and the annotated
# listing (which shows each instruction's bytes) byte for byte the text trace's, and the code
# pages the module sent (fst-capture's summary), from how the program runs:
#   cardload 3: the loader's page (its data beside its code never changes its code), A's
#     page at 0x30000, then B's (the reader's device thread stored B over A: the fault)
#   smc 11: the page at the first op; again after FLIP's first run (the switch thrown
#     behind itself: sent after that op, so also holding the first XI's AR in WORK, which
#     runs next); then before WORK's calls 2 to 10 (MAIN's XI flipped PATCH each time): 9
#   straddle 22 (its head): a loop's run over two pages, the second changed between calls;
#     again with FLIPR 128 KiB up (FLIPAT), its page and the loop's second at one entry
#   mvsjob 7: the nucleus' page; in spaces A, B and C each the program's page (VPAGE) and
#     the data page holding the task exit's SVC 3 (VPAGE + 2000)
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
P=$FST_ROOT/tests/programs
MOD=$FST_BIN/../lib/fst-hercules313.so
if [ ! -f "$MOD" ]; then
    echo "# skip: no $MOD (scripts/hercules313.sh configures Hercules 3.13's source; make builds the module)"
    exit 0
fi
cd "$T"
mkdir -p m t
insns() { fst-dump "$1" | awk -F= '$1 == "footer.instructions" { print $2 }'; }
want() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3 }' "$EXPECTED"; }
# both NAME INS MAP PAGES [fst-capture options]: captured both ways, the count, the same
# reports, the code pages sent
both() {
    local n=$1 ins=$2 map=$3 pages=$4 f bad=""
    shift 4
    if ! fst-capture --via=module "$@" -o m/$n.trace "$ins" 2> m/$n.err ||
            [ "$(grep -vc "^fst-capture: m/$n.trace: .* instructions, " m/$n.err)" != 0 ]; then
        fail "$n: --via=module captures it, saying nothing but its summary" "$(head -3 m/$n.err)"
        return
    fi
    expect_eq "$n: --via=module: the code pages the module sent" "$pages" \
        "$(sed -n 's/.*, \([0-9]*\) code pages)$/\1/p' m/$n.err)"
    fst-capture -q --via=trace "$@" -o t/$n.trace "$ins" 2> t/$n.err
    expect_eq "$n: --via=module: the instructions EXPECTED gives" "$(want $n instructions)" "$(insns m/$n.trace)"
    for d in m t; do
        for f in csv fortstat annotate; do
            (cd $d && fst-report --format=$f --timed=all --map="$map" -o $n.$f $n.trace 2> /dev/null)
        done
    done
    for f in csv fortstat annotate; do cmp -s m/$n.$f t/$n.$f || bad="$bad $f"; done
    if [ -z "$bad" ]; then ok "$n: csv, FORTSTAT and the annotated listing the same as --via=trace"
    else fail "$n: the same reports as --via=trace" "differ:$bad" "$(diff m/$n.csv t/$n.csv | head -5)"; fi
}

# ---- a program read from cards, then another over it ----
for v in 1 2; do
    s390x-linux-gnu-as -m31 -I "$P" --defsym VARIANT=$v -o p$v.o "$P/cards/cardprog.s" &&
        s390x-linux-gnu-ld -m elf_s390 -Ttext=0x30000 -o p$v.elf p$v.o 2> /dev/null &&
        s390x-linux-gnu-objcopy -O binary -j .text p$v.elf p$v.bin || fail "assemble cardprog.s variant $v"
done
s390x-linux-gnu-as -m31 -I "$P" -o cardload.o "$P/cards/cardload.s" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$P/standalone.ld" -o cardload.elf cardload.o &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore cardload.elf cardload.lc &&
    s390x-linux-gnu-objcopy -O binary -j .text cardload.elf cardload.bin || fail "assemble cardload.s"
printf 'cardload.lc 0x0\ncardload.bin 0x20000\n' > cardload.ins
expect_eq "cardprog A and B: 400 bytes each (5 cards)" "400 400" "$(stat -c %s p1.bin) $(stat -c %s p2.bin)"
hdr() {   # CARDS: a header card: CARDS cards to 0x30000, entry 0x30000
    printf "\\x00\\x00\\x00\\x$(printf %02x "$1")\\x00\\x03\\x00\\x00\\x00\\x03\\x00\\x00"
    head -c 68 /dev/zero
}
{ hdr 5; cat p1.bin; hdr 5; cat p2.bin; head -c 80 /dev/zero; } > deck.bin
{ s390x-linux-gnu-nm -P cardload.elf; s390x-linux-gnu-nm -P p1.elf; } |
    awk '$2 == "T" && $1 ~ /^(LOADER|PMAIN|PTICK)$/' > "$T/cardload.nm"
mkdir -p tmp
TMPDIR=$T/tmp both cardload "$T/cardload.ins" "$T/cardload.nm" 3 --cards="$T/deck.bin"
expect_eq "cardload: fst-capture --cards leaves no folder of its own in TMPDIR" "" "$(ls tmp)"
# per routine as constructed (cards/cardload.s's head): so both programs ran, B over A
facts() {   # PROG: "routine calls self" from EXPECTED, then from the module's csv
    awk -v p=$1 '$1 == p && ($2 == "calls" || $2 == "self") { v[$3] = v[$3] " " $4 } END { for (r in v) print r v[r] }' \
        "$EXPECTED" | sort
}
got() { awk -F, 'NR > 1 && $2 != "" { print $1, $3, $4 }' "$1" | sort; }
expect_eq "cardload: --via=module: calls and self per routine as constructed" "$(facts cardload)" \
    "$(got m/cardload.csv)"
expect_eq "cardload: --via=module: outside as constructed (the stub, the I/O handler)" \
    "$(want cardload outside)" "$(awk -F, '$1 == "(outside)" { print $4 }' m/cardload.csv)"

# ---- code modified while it runs ----
s390x-linux-gnu-nm -P "$FST_PROGS/smc.elf" | awk '$2 == "T"' > smc.nm
both smc "$FST_PROGS/smc.ins" "$T/smc.nm" 11
expect_eq "smc: --via=module: calls and self per routine as constructed" "$(facts smc)" "$(got m/smc.csv)"
expect_eq "smc: the first-time switch shows the bytes it ran with: BC 0 first (the text trace's listing)" 1 \
    "$(grep -c '4700C0[0-9A-F][0-9A-F] *BC *0,' m/smc.annotate)"

# ---- a hot loop across a page's end, its second page written at every turn ----
s390x-linux-gnu-nm -P "$FST_PROGS/straddle.elf" | awk '$2 == "T"' > straddle.nm
both straddle "$FST_PROGS/straddle.ins" "$T/straddle.nm" 22
expect_eq "straddle: --via=module: calls and self per routine as constructed" "$(facts straddle)" \
    "$(got m/straddle.csv)"

# the same with FLIPR 128 KiB further up, in the page at 0x41000: the module finds the
# loop's second page and FLIPR's at the same first entry of its pages remembered (fstmod_code.c
# ckent: 32, by page number), the second way holding one of them; the same pages sent
mkdir -p far/m far/t
prog_build far/straddle "$P/straddle.s" --defsym FLIPAT=0x21000 || fail "assemble straddle.s, FLIPAT=0x21000"
s390x-linux-gnu-nm -P far/straddle.elf | awk '$2 == "T"' > far/straddle.nm
cd far
both straddle "$T/far/straddle.ins" "$T/far/straddle.nm" 22
expect_eq "straddle, FLIPR at 0x41000: --via=module: calls and self per routine as constructed" "$(facts straddle)" \
    "$(got m/straddle.csv)"
cd "$T"

# ---- DAT on: two programs at the same virtual addresses in other spaces ----
s390x-linux-gnu-nm -P -n --defined-only "$FST_PROGS/mvsjob.elf" | awk '$2 == "T" { print $1, $3 }' > syms
awk 'function num(h,  i, v) { v = 0; h = toupper(h)
        for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1; return v }
     BEGIN { k = 0 } $1 == "MAIN" { on = 1; base = num($2) } on { n[k] = $1; a[k++] = num($2) } $1 == "JOBEND" { on = 0 }
     END { print "name,type,origin,length"; for (i = 0; i + 1 < k; i++) printf "%s,SD,%X,%X\n", n[i], a[i] - base, a[i + 1] - a[i] }' \
    syms > job.csv
both mvsjob "$FST_PROGS/mvsjob.ins" "$T/job.csv" 7
# mvsjob.s's head: the job's program runs ROUNDS + 1 = 4 times (spaces A and C), K = 20
expect_eq "mvsjob: --via=module: the job's program per routine (calls, self) as constructed" \
    "MAIN 0 64
WORK 8 224
LEAF 8 16
WORK2 4 24" "$(awk -F, '$1 ~ /^(MAIN|WORK|LEAF|WORK2)$/ { print $1, $3, $4 }' m/mvsjob.csv)"
