#!/bin/bash
# tests/e2e/zloops.sh — random loop shapes in ESA/390 (m31) and z/Architecture (m64)
# (tests/loops/genz.py: nests of loops closed by every branch of those architectures,
# calls by BRASL, BRAS and BASR, blocks taken on a period and on a pseudo-random bit,
# SAM31/SAM64), each built with tests/cprogs/build.sh, run under Hercules 3.13 with its text
# trace: every routine's calls and self instructions and the total are what walking the
# program's shape gives (genz.py --expect). Then captured --via=module (fst's module in
# Hercules 3.13, and in SDL Hercules 4.9 when it is built): csv, callgrind and FORTSTAT must
# be the text trace's byte for byte. Seeds drawn anew for every run (printed), plus two
# fixed ones (FST_ZLOOPS_SEEDS="..." for others: a soak).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
seeds=${FST_ZLOOPS_SEEDS:-"1 2 $(( (RANDOM % 900) + 100 )) $(( (RANDOM % 9000) + 1000 ))"}
echo "# seeds: $seeds"
mkdir -p t
for s in $seeds; do
    for v in m31 m64; do
        b=z$s$v arch=ESA/390
        [ $v = m64 ] && arch=z/Arch
        if ! python3 "$FST_ROOT/tests/loops/genz.py" $s $v > $b.S ||
           ! python3 "$FST_ROOT/tests/loops/genz.py" $s $v --expect > $b.expect ||
           ! "$FST_ROOT/tests/cprogs/build.sh" $b.S $v-z196-O0 "$T/$b" > build.err 2>&1; then
            fail "$b: built" "$(head -3 build.err)"
            continue
        fi
        s390x-linux-gnu-nm -P $b.elf > $b.nm
        if ! fst-capture -q --via=trace --arch=$arch -o t/$b.trace $b.ins 2> cap.err; then
            fail "$b: captured ($arch, text trace)" "$(head -3 cap.err)"
            continue
        fi
        fst-report --format=csv --timed=all --map=$b.nm -o t/$b.csv t/$b.trace 2> /dev/null
        got=$(awk -F, 'NR > 1 && $1 == "(total)" { print "total " $4 } NR > 1 && $1 !~ /^\(/ { print $1, $3, $4 }' \
              t/$b.csv | sort)
        expect_eq "$b: calls and self instructions per routine, and the total, as built ($arch)" \
            "$(sort $b.expect)" "$got"
        module_same $b $b.ins $arch . ../$b.nm
    done
done
