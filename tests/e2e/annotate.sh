# --format=annotate over real captures of bigloop and fortg: every instruction line's
# executions equal the programs' construction (the "# N" comments of tests/programs/
# bigloop.s and fortg.s, written out below in instruction order), branches' taken counts
# follow from the loops, every mnemonic is objdump's (extended mnemonics mapped to their
# base), FORTRAN name bytes are data, each routine's total is csv's self figures, the
# hottest lines are marked, and no colour reaches a file or a pipe.
. "$(dirname "$0")/../lib.sh"
OBJDUMP=${S390_OBJDUMP:-s390x-linux-gnu-objdump}
NM=${S390_NM:-s390x-linux-gnu-nm}
cd "$T" || exit 1

# construction: executions per instruction, in address order (N = bigloop's loop count)
NITER=100000   # bigloop.s: .set .LN, 100000
P7="1 1 1 1 1 1 1"                 # the entry's B 12(,15) and PROLOGUE (s370.inc)
E3="1 1 1"                          # EPILOGUE
declare -A WANT
WANT[fortg:MAIN]="$P7 1 10 10 10 1 3 3 3 $E3"
WANT[fortg:SUBA]=$(printf '16 %.0s' $(seq 13))
WANT[fortg:SUBB]=$(printf '3 %.0s' $(seq 14))
WANT[bigloop:MAIN]="$P7 1 1 $NITER $NITER $NITER $E3"
WANT[bigloop:TICK]=$(printf "$NITER %.0s" $(seq 8))
# taken/not taken of the conditional branches (BCT): a loop of n runs is taken n-1 times
declare -A BCT
BCT[fortg:MAIN]="taken 9, not taken 1|taken 2, not taken 1"
BCT[bigloop:MAIN]="taken $((NITER - 1)), not taken 1"

# the listing's instruction lines of one routine: ADDR EXECS MNEMONIC [rest]
insn_lines() { awk -v r="$2" '
    /^[^ >]/ { on = ($1 == r) } NF == 0 { on = 0 }
    on && /^(>>|> |  )[0-9A-F]+ / && $0 !~ / DC / { l = substr($0, 3); split(l, f, " ")
        print f[1], f[6], f[4] }' "$1"; }

for p in fortg bigloop; do
    fst-capture -q -o $p.trace "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    $NM -P "$FST_PROGS/$p.elf" > $p.nm
    expect_ok "$p: annotate" fst-report --format=annotate --timed=all --map=$p.nm -o $p.ann $p.trace
    fst-report --format=csv --timed=all --map=$p.nm $p.trace > $p.csv 2> /dev/null
    for key in "${!WANT[@]}"; do
        case $key in $p:*) ;; *) continue ;; esac
        r=${key#*:}
        got=$(insn_lines $p.ann $r | awk '{ printf "%s ", $2 }')
        expect_eq "$p: $r executions per instruction = construction" "$(echo ${WANT[$key]})" "$(echo $got)"
        # total line = csv self_instr, self_sec
        want=$(awk -F, -v r=$r '$1 == r { print $4, $6 }' $p.csv)
        tot=$(awk -v r=$r '/^[^ >]/ { on = ($1 == r) } on && /^  total / { print $2, $4; exit }' $p.ann)
        expect_eq "$p: $r total = csv self instructions and seconds" "$want" "$tot"
        sum=$(insn_lines $p.ann $r | awk '{ s += $2 } END { print s }')
        expect_eq "$p: $r lines add up to csv self instructions" "${want% *}" "$sum"
        # objdump from each instruction's own address: over the whole text it would decode
        # the FORTRAN name bytes as instructions and lose step
        insn_lines $p.ann $r | while read -r a _ m; do
            printf '%s %s ' $a $m
            $OBJDUMP -d --start-address=0x$a --stop-address=$((0x$a + 6)) "$FST_PROGS/$p.elf" |
                awk -F'\t' '/^ +[0-9a-f]+:\t/ { split($3, m, " "); print m[1]; exit }'
        done > $p.$r.mn
        bad=$(awk '{ o = $3; f = tolower($2)
              if (o ~ /^(b|bh|bl|be|bne|bnh|bnl|bz|bnz|bo|bno|bp|bm|bnp|bnm|nop)$/) o = "bc"
              if (o ~ /^(br|bhr|blr|ber|bner|bnhr|bnlr|bzr|bnzr|bor|bnor|bpr|bmr|bnpr|bnmr|nopr)$/) o = "bcr"
              if (o == "" || o != f) print $1 ": fst " f ", objdump " $3 }' $p.$r.mn)
        expect_eq "$p: $r mnemonics are objdump's" "" "$bad"
        if [ -n "${BCT[$key]:-}" ]; then
            got=$(awk -v r=$r '/^[^ >]/ { on = ($1 == r) } on && / BCT /' $p.ann | sed 's/.*\(taken [0-9]*, not taken [0-9]*\).*/\1/' | paste -sd'|')
            expect_eq "$p: $r BCT taken/not taken = the loop counts" "${BCT[$key]}" "$got"
        fi
        # FORTRAN G: X'06' and the name, as data, right after the entry's B 12(,15)
        ent=$(awk -v r=$r '$1 == r { print $3 }' $p.nm)
        id=$(awk -v r=$r '/^[^ >]/ { on = ($1 == r) } on && / DC .*FORTRAN G identifier/ { print $1 }
                          on && / DC +CL7/ { print $1, $5 }' $p.ann | paste -sd' ')
        expect_eq "$p: $r FORTRAN name bytes shown as DC" \
            "$(printf '%08X %08X' $((0x$ent + 4)) $((0x$ent + 5))) CL7'$r'" "$id"
    done
    # the hottest line: the one with most time, marked >>
    hot=$(grep -c '^>>' $p.ann)
    nr=$(grep -c '^  total ' $p.ann)
    expect_eq "$p: one hottest line per routine" "$nr" "$hot"
    if grep -q $'\033' $p.ann; then fail "$p: no colour in a file"; else ok "$p: no colour in a file"; fi
done
if [ -f bigloop.ann ]; then
    # bigloop's hottest routine is TICK; in MAIN the loop's three instructions are the hot ones
    got=$(insn_lines bigloop.ann MAIN | awk '$2 == '$NITER' { print $3 }' | paste -sd' ')
    expect_eq "bigloop: MAIN's loop is LR BALR BCT" "LR BALR BCT" "$got"
    marked=$(awk '/^MAIN/ { on = 1 } /^TICK/ { on = 0 } on && /^(>>|> )/ { split(substr($0, 3), f, " "); print f[4] }' bigloop.ann | sort | paste -sd' ')
    expect_eq "bigloop: MAIN's marked lines are the loop's" "BALR BCT LR" "$marked"
    fst-report --format=annotate --timed=all --map=bigloop.nm --routine=tick bigloop.trace 2> /dev/null | cat > one.ann
    expect_eq "bigloop: --routine=tick lists TICK only" "TICK" "$(grep -E '^[A-Z]' one.ann | awk '{ print $1 }' | paste -sd' ')"
    if grep -q $'\033' one.ann; then fail "bigloop: no colour into a pipe"; else ok "bigloop: no colour into a pipe"; fi
    expect_fail "annotate: --routine naming no routine" 2 "--routine=NOPE: no routine of the program has that name" \
        fst-report --format=annotate --routine=NOPE bigloop.trace
fi


# callgrind: fl= names the listing written beside it (FILE.lst), each cost line's line
# position is its instruction's line there, and callgrind_annotate --auto=yes shows it
if [ -f fortg.trace ]; then
    expect_ok "callgrind: with -o FILE" fst-report --format=callgrind -o fortg.cg fortg.trace
    if [ -f fortg.cg.lst ]; then ok "callgrind: the listing is written beside it"; else fail "callgrind: the listing is written beside it"; fi
    expect_eq "callgrind: fl= names the listing" "fl=(2) fortg.cg.lst" "$(grep '^fl=(2) ' fortg.cg)"
    bad=$(python3 - <<'EOF'
import re
lst = open("fortg.cg.lst").read().splitlines()
fl, bad, n = None, [], 0
for l in open("fortg.cg"):
    m = re.match(r"fl=\((\d)\)", l)
    if m: fl = m.group(1)
    m = re.match(r"0x([0-9A-F]+) (\d+) (\d+) \d+$", l)
    if m and fl == "2" and not l.startswith("calls"):
        a, ln, ir = m.group(1).zfill(8), int(m.group(2)), m.group(3)
        f = lst[ln - 1][2:].split() if 0 < ln <= len(lst) else []
        n += 1
        if len(f) < 6 or f[0] != a or (f[5] != ir and "BALR" not in f[3]):
            bad.append(f"0x{a} line {ln}: {lst[ln - 1] if 0 < ln <= len(lst) else 'none'}")
print("\n".join(bad) if bad or n < 40 else "", end="")
EOF
)
    expect_eq "callgrind: every line position is its instruction's line in the listing" "" "$bad"
    callgrind_annotate --auto=yes fortg.cg > cga.out 2> cga.err
    if grep -q "could not be found\|not opened" cga.out cga.err; then fail "callgrind_annotate --auto=yes finds the listing" "$(grep 'found' cga.out cga.err)"
    elif grep -q -- "-- Auto-annotated source: fortg.cg.lst" cga.out; then ok "callgrind_annotate --auto=yes finds the listing"
    else fail "callgrind_annotate --auto=yes finds the listing" "$(tail -5 cga.out)"; fi
    if [ -s cga.err ] || grep -qi 'warning' cga.out; then fail "callgrind_annotate --auto=yes: no warning" "$(grep -i warning cga.out; head -3 cga.err)"
    else ok "callgrind_annotate --auto=yes: no warning"; fi
    # the hottest line of each routine (marked >>) is in callgrind_annotate's annotated source
    expect_eq "callgrind_annotate: the listing's hottest lines, with their Ir" \
        "$(grep -c '^>>' fortg.cg.lst)" "$(grep -c '^ *[0-9,]\+ ([ 0-9.]*%) .*  >>[0-9A-F]\{8\} ' cga.out)"
    # MAIN's first call loop: L, BALR, BCT 10 times each (fortg.s), in callgrind_annotate's Ir column
    got=$(awk '/0002004[48A] \+/ { print $1 }' cga.out | paste -sd' ')
    expect_eq "callgrind_annotate: Ir beside the loop's instructions = construction" "10 10 10" "$got"
    fst-report --format=callgrind -o - fortg.trace > stdout.cg 2> /dev/null
    expect_eq "callgrind to standard output: no listing, instruction positions" "positions: instr|0" \
        "$(grep '^positions' stdout.cg)|$(grep -c '^fl=(2)' stdout.cg)"
fi
