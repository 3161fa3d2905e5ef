#!/bin/sh
# tests/programs/count.sh [NAME...] -- run test programs under Hercules 3.13 and compare
# the number of executed instructions with tests/programs/EXPECTED.
#
# Run from the top of the tree after `make programs`. With no NAME, every program
# listed in EXPECTED. Each run: ARCHMODE S/370, traceopt noregs, t+, ipl NAME.ins; the
# count is the number of PSW/INST lines in the log (the programs take no program
# checks, so each line is one executed instruction). Also checks, from EXPECTED alone,
# that sum(self) + outside = instructions. Exit 1 if anything differs.
# BUILD (default build) says where build/programs is; KEEP=1 keeps the logs.
set -u
top=$(pwd)
exp=$top/tests/programs/EXPECTED
case ${BUILD:-build} in /*) progs=$BUILD/programs ;; *) progs=$top/${BUILD:-build}/programs ;; esac
[ -f "$exp" ] || { echo "count.sh: run from the top of the tree" >&2; exit 2; }
# shellcheck disable=SC2046  # one word per program name
[ $# -gt 0 ] || set -- $(awk '!/^#/ && $2 == "instructions" { print $1 }' "$exp")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fst-count.XXXXXX")
rc=0
for n in "$@"; do
    want=$(awk -v p="$n" '$1 == p && $2 == "instructions" { print $3 }' "$exp")
    sum=$(awk -v p="$n" '$1 == p && ($2 == "self" || $2 == "outside") { s += $NF } END { print s + 0 }' "$exp")
    if [ ! -f "$progs/$n.ins" ]; then echo "$n: no $progs/$n.ins (make programs)"; rc=1; continue; fi
    cp "$progs/$n.ins" "$progs/$n.lc" "$progs/$n.bin" "$tmp/"
    printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\n000C 3505 /dev/null\n' > "$tmp/$n.cnf"
    printf 'hao tgt HHCCP011I\nhao cmd quit\ntraceopt noregs\nt+\nipl %s.ins\n' "$n" > "$tmp/$n.rc"
    # a runaway program (e.g. a program-check loop) fills the log fast: cap size and time
    ( cd "$tmp" && ulimit -f 2000000 && HERCULES_RC=$n.rc timeout -s KILL 300 \
        hercules -d -f "$n.cnf" < /dev/null > "$n.log" 2>&1 )
    got=$(grep -c '^PSW=.* INST=' "$tmp/$n.log")
    wait=$(sed -n 's/.*Wait state PSW loaded: PSW=//p' "$tmp/$n.log" | head -1)
    st=ok
    [ "$got" = "$want" ] || st=FAIL
    [ "$wait" = "000A0000 00000000" ] || st=FAIL
    [ "$sum" = "$want" ] || st=FAIL
    echo "$n: expected $want, measured $got, sum(self)+outside $sum, wait PSW $wait: $st"
    [ $st = ok ] || rc=1
    [ "${KEEP:-0}" = 1 ] || rm -f "$tmp/$n.log"
done
if [ "${KEEP:-0}" = 1 ]; then echo "logs in $tmp"; else rm -rf "$tmp"; fi
exit $rc
