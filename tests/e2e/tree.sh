# --format=tree (issue 26): a text call tree, each calling context's inclusive and self
# figures, calls and share. Checked against the programs' construction (tests/programs/
# EXPECTED, tests/cprogs/EXPECTED: calls, inclusive instructions, calls per calling
# context), against callgrind's inclusive figures (callgrind_annotate --inclusive=yes on the
# callgrind file of the same replay) for the C test programs, and against golden files
# (golden/tree/, derivations in golden/README.md) for its layout.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1   # relative trace paths
PEXP=$FST_ROOT/tests/programs/EXPECTED
CEXP=$FST_ROOT/tests/cprogs/EXPECTED
CP=${FST_CPROGS:-$(dirname "$FST_PROGS")/cprogs}
NM=${S390_NM:-s390x-linux-gnu-nm}

# paths TREE: "a;b;c CALLS" for every node below the roots, from the drawing's indentation
# (each level is 3 columns: "|  ", "   ", "+- ", "`- ")
paths() {
    awk 'NR > 3 && NF >= 5 && $4 ~ /%$/ {
        rest = substr($0, index($0, $4) + length($4) + 2)
        lead = rest; sub(/[^|`+ -].*$/, "", lead)
        name = substr(rest, length(lead) + 1); sub(/^\*/, "", name)
        d = length(lead) / 3 + 1; path[d] = name; s = path[1]
        for (i = 2; i <= d; i++) s = s ";" path[i]
        if (d > 1) print s, $3 }' "$1" | sort
}
# outer TREE: per routine, the inclusive figure of its outermost contexts (no ancestor of
# the same routine) added up: "NAME INCL"
outer() {
    awk 'NR > 3 && NF >= 5 && $4 ~ /%$/ {
        rest = substr($0, index($0, $4) + length($4) + 2)
        lead = rest; sub(/[^|`+ -].*$/, "", lead)
        name = substr(rest, length(lead) + 1); sub(/^\*/, "", name)
        d = length(lead) / 3 + 1; path[d] = name; dup = 0
        for (i = 1; i < d; i++) if (path[i] == name) dup = 1
        if (!dup) { v = $1; gsub(/\./, "", v); incl[name] += v + 0 } }
        END { for (n in incl) print n, incl[n] }' "$1" | sort
}
fact() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$3" | sort; }

# ---- the S/370 programs: construction and golden layout --------------------------------
for p in fortg forth linkage untimed; do
    fst-capture -q -o $p.trace "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > $p.nm
    fst-report --format=tree --timed=all --map=$p.nm --clock=mips:0.001 -o $p.tree $p.trace 2> /dev/null
    expect_golden "$p: tree (golden)" "$FST_ROOT/golden/tree/$p.txt" $p.tree
    fst-report --format=tree --unit=instructions --timed=all --map=$p.nm -o $p.itree $p.trace 2> /dev/null
    expect_eq "$p: each routine's outermost contexts add up to its inclusive instructions as built" \
        "$(fact $p incl "$PEXP")" "$(outer $p.itree)"
    expect_eq "$p: calls over the contexts add up to the routine's calls as built" \
        "$(fact $p calls "$PEXP" | awk '$2 > 0')" \
        "$(paths $p.itree | awk '{ n = split($1, f, ";"); c[f[n]] += $2 } END { for (r in c) print r, c[r] }' | sort)"
    selfsum=$(awk -v p=$p '$1 == p && $2 == "self" { s += $4 } END { print s }' "$PEXP")
    expect_eq "$p: the whole is the routines' self instructions as built" "$selfsum" \
        "$(sed -n 's/^CALL TREE: \([0-9]*\) instructions.*/\1/p' $p.itree)"
done
# fortg's contexts, by hand (EXPECTED: MAIN calls SUBA 10x and SUBB 3x, SUBB calls SUBA
# twice; SUBA is 13 instructions a call, SUBB 14 of its own)
expect_eq "fortg: every context, its calls, inclusive and self instructions" \
    "*MAIN 0 301 51
SUBA 10 130 130
SUBB 3 120 42
SUBA 6 78 78" "$(awk 'NR > 3 { print $NF, $3, $1, $2 }' fortg.itree)"

# ---- options ---------------------------------------------------------------------------
t=(fst-report --format=tree --unit=instructions --timed=all --map=linkage.nm linkage.trace)
# linkage (EXPECTED): RECUR recursing 5 levels, 73, 58, 43, 28, 13 instructions inclusive of 169
"${t[@]}" --percent-limit=25 > pl.txt 2> /dev/null
names() { awk 'NR > 3 && NF >= 5 && $4 ~ /%$/ { print $NF }' "$1" | paste -sd' '; }
expect_eq "--percent-limit=25: the contexts of 25% and more (RECUR 43.2 34.3 25.4; 16.6, OUTER 24.9, SKIPR 13.0 out)" \
    "*MAIN RECUR RECUR RECUR" "$(names pl.txt)"
expect_eq "--percent-limit: how many were left out (3: what they called goes with them)" \
    "3 calling contexts not shown (under --percent-limit), nor what they called" "$(tail -1 pl.txt)"
"${t[@]}" --depth=2 > d.txt 2> /dev/null
expect_eq "--depth=2: the mainline and what it called" "*MAIN RECUR OUTER SKIPR" "$(names d.txt)"
"${t[@]}" --routine=OUTER > r.txt 2> /dev/null
expect_eq "--routine=OUTER: OUTER the root, INNER below" "42 18 2 OUTER|24 24 2 INNER" \
    "$(awk 'NR > 3 && NF >= 5 { print $1, $2, $3, $NF }' r.txt | paste -sd'|')"
"${t[@]}" --routine=RECUR > rr.txt 2> /dev/null
expect_eq "--routine=RECUR: its recursion below it, 73 in all" "73 RECUR;RECUR;RECUR;RECUR;RECUR" \
    "$(awk 'NR == 4 { print $1 }' rr.txt) $(paths rr.txt | tail -1 | cut -d' ' -f1)"
expect_fail "--routine=NOSUCH" 2 "--routine=NOSUCH: no timed routine of the program has that name" "${t[@]}" --routine=NOSUCH
for bad in 101 -1 x 5.55 '' 0x10; do
    expect_fail "--percent-limit='$bad' refused" 2 "--percent-limit: '$bad' is not a per cent" "${t[@]}" --percent-limit="$bad"
done
expect_fail "--depth=0 refused" 2 "--depth: '0' is not a number of levels" "${t[@]}" --depth=0
expect_fail "--unit=tod refused" 2 "--unit: 'tod': the tree prints ns" "${t[@]}" --unit=tod
expect_fail "--depth is the tree's" 2 "--depth is an option of --format=tree" \
    fst-report --format=csv --depth=2 linkage.trace
a=$(fst-report --format=tree linkage.trace 2> /dev/null | md5sum)
b=$(FST_REPLAY_NOFOLD=1 fst-report --format=tree linkage.trace 2> /dev/null | md5sum)
expect_eq "the same tree twice, folded replay or not" "$a" "$b"

# ---- C programs: callgrind's inclusive figures, and the contexts as built ----------------
# (without --tail-calls: with it, fst's callgrind file keeps a sibling call's arc from the
# caller it replaced, as valgrind nests them, so callgrind_annotate's inclusive figures
# are not csv's; the tree's are csv's)
for p in recur mutual sibling callheavy; do
    for v in m31-z900-O0 m64-z196-O2; do
        b=$p-$v arch=ESA/390 sufs=""
        case $v in m64-*) arch=z/Arch ;; esac
        case $v in *-O2) sufs="-O2-nosib -O2" ;; esac   # cprog.sh's rule, without --tail-calls
        [ -f "$CP/$b.ins" ] || { fail "$b: built" "no $CP/$b.ins"; continue; }
        if ! fst-capture -q --arch=$arch --timeout=120 -o $b.trace "$CP/$b.ins" 2> err; then
            fail "$b: captures under Hercules" "$(head -3 err)"; continue
        fi
        "$NM" -P "$CP/$b.elf" > $b.nm
        r=(fst-report --timed=all --map=$b.nm)
        "${r[@]}" --format=callgrind -o $b.cg $b.trace 2> /dev/null
        "${r[@]}" --format=tree --unit=instructions -o $b.itree $b.trace 2> /dev/null
        "${r[@]}" --format=tree -o $b.tree $b.trace 2> /dev/null
        # callgrind_annotate: "Ir (pct) ns (pct)  file:function [object]", inclusive
        callgrind_annotate --inclusive=yes --threshold=100 $b.cg 2> /dev/null | sed 's/([^)]*)//g' | tr -d , |
            awk '$3 ~ /\.lst:/ && $4 ~ /^\[/ && $1 ~ /^[0-9]+$/ { sub(/.*:/, "", $3); print $3, $1, $2 }' | sort > $b.cga
        join <(outer $b.itree) <(outer $b.tree | awk '{ print $1, $2 + 0 }') > $b.mine
        expect_eq "$b: inclusive instructions and ns per function = callgrind_annotate --inclusive=yes" \
            "$(cat $b.cga)" "$(cat $b.mine)"
        want=
        for suf in $sufs ""; do
            [ -n "$want" ] || want=$(fact $p stack$suf "$CEXP")
        done
        expect_eq "$b: calls per calling context as built" "$want" "$(paths $b.itree)"
    done
done
