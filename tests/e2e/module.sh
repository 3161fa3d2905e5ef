#!/bin/bash
# tests/e2e/module.sh — fst-capture --via=module (capture/modread/modcap.h, capture/module/): fst's
# module inside Debian's Hercules 3.13 records branches and interruptions, fst rebuilds every
# instruction from them and the image. Every deterministic one-CPU test program captured
# --via=module and --via=trace (real Hercules both) gives the same csv, callgrind and
# FORTSTAT reports byte for byte, and the instruction count tests/programs/EXPECTED gives
# from the program's construction; bigloop (1.1 M instructions: its text trace alone takes
# 20 s) is checked against EXPECTED only, every routine's calls and self instructions.
# ticker.s (60 s by construction) is left out: tasks.sh checks a module capture of the
# tasks system (external and I/O interruptions, seen by the preloaded interposer, program
# checks under DAT), every task's figures exact. Refusals: the module refusing, a module built with other structure
# sizes (HDL's check), no module file, a program it does not record (several CPUs) — each
# one warning line, then the text trace, whose reports are those of --via=trace.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
MOD=$FST_BIN/../lib/fst-hercules313.so
if [ ! -f "$MOD" ]; then
    echo "# skip: no $MOD (scripts/hercules313.sh configures Hercules 3.13's source; make builds the module)"
    exit 0
fi
cd "$T"

# reports DIR NAME: csv, callgrind and FORTSTAT of DIR/NAME.trace, made in DIR (the same
# file names in both folders, so that the names inside the reports are the same too)
reports() {
    (cd "$1" && for f in csv callgrind fortstat; do fst-report --format=$f -o "$2.$f" "$2.trace" 2> /dev/null; done)
}
insns() { fst-dump "$1" | awk -F= '$1 == "footer.instructions" { print $2 }'; }
want_insns() { awk -v p="$1" '$1 == p && $2 == "instructions" { print $3 }' "$EXPECTED"; }
same_reports() {   # NAME A B PROG
    local f bad=""
    for f in csv callgrind fortstat; do cmp -s "$2/$4.$f" "$3/$4.$f" || bad="$bad $f"; done
    if [ -z "$bad" ]; then ok "$1"; else fail "$1" "differ:$bad" "$(diff "$2/$4.csv" "$3/$4.csv" | head -5)"; fi
}

mkdir -p m t
# mvsjob (DAT on), smc (code changed while it runs) and cardload (code read from cards):
# tests/e2e/modcode.sh
# one-CPU programs with a fixed instruction count (the multi-CPU ones: below)
for p in $(awk '!/^#/ && $2 == "instructions" { print $1 }' "$EXPECTED"); do
    case $p in twocpu|cpu0first|cpu1first|ticker|mvsjob|cardload) continue ;; esac
    if ! fst-capture -q --via=module -o m/$p.trace "$FST_PROGS/$p.ins" 2> m/$p.err || [ -s m/$p.err ]; then
        fail "$p: --via=module captures it, saying nothing" "$(head -3 m/$p.err)"
        continue
    fi
    expect_eq "$p: --via=module: the instructions EXPECTED gives" "$(want_insns $p)" "$(insns m/$p.trace)"
    if [ $p = bigloop ]; then
        s390x-linux-gnu-nm -P "$FST_PROGS/$p.elf" > m/$p.nm
        fst-report --format=csv --timed=all --map=m/$p.nm m/$p.trace > m/$p.all.csv 2> /dev/null
        for k in calls self; do
            expect_eq "$p: --via=module: $k per routine as EXPECTED" \
                "$(awk -v p=$p -v k=$k '$1 == p && $2 == k { print $3, $4 }' "$EXPECTED" | sort)" \
                "$(awk -F, -v k=$k 'NR > 1 && $2 != "" { print $1, (k == "calls" ? $3 : $4) }' m/$p.all.csv | sort)"
        done
        continue
    fi
    fst-capture -q -o t/$p.trace "$FST_PROGS/$p.ins" 2> t/$p.err
    reports m $p
    reports t $p
    same_reports "$p: csv, callgrind and FORTSTAT the same as --via=trace" m t $p
done

# the trace is small: bigloop (1.1 M instructions) in well under 0.1 byte an instruction
b=$(stat -c %s m/bigloop.trace)
if [ "$b" -lt 110000 ]; then ok "bigloop: the module's trace is $b bytes (< 0.1 byte an instruction)"
else fail "bigloop: the module's trace is < 0.1 byte an instruction" "$b bytes"; fi

# refusals: one line, then the text trace, the same reports as --via=trace
mkdir -p r
expect_ok "the module refusing: the capture still succeeds" env FST_MODULE_TEST_REFUSE=1 \
    fst-capture -q --via=module -o r/fortg.trace "$FST_PROGS/fortg.ins"
expect_eq "the module refusing: one line saying why and what is done instead" \
    "fst-capture: warning: --via=module: the module refused to record: refused as asked by FST_MODULE_TEST_REFUSE (a test of the fallback); taking Hercules' text trace instead" \
    "$(cat "$T/err")"
reports r fortg
fst-capture -q -o t/fortg.trace "$FST_PROGS/fortg.ins" && reports t fortg
same_reports "the module refusing: the text trace's reports" r t fortg
expect_eq "the module refusing: the trace is a text trace's" noregs \
    "$(fst-dump r/fortg.trace | awk -F= '$1 == "header.traceopt" { print $2 }')"

# a module built with other structure sizes (MAX_CPU_ENGINES 16: REGS grows): HDL refuses it
H=$("$FST_ROOT/scripts/hercules313.sh" --path)
mkdir -p h16/decNumber h16/softfloat
cp "$H"/*.h h16/ && cp "$H"/decNumber/*.h h16/decNumber/ && cp "$H"/softfloat/*.h h16/softfloat/
sed -i 's/^#define MAX_CPU_ENGINES 8$/#define MAX_CPU_ENGINES 16/' h16/config.h
if ! grep -q '^#define MAX_CPU_ENGINES 16$' h16/config.h; then
    fail "a module for MAX_CPU_ENGINES 16 is built" "config.h has no MAX_CPU_ENGINES 8 line"
elif ! cc -std=gnu11 -O1 -DHAVE_CONFIG_H -Ih16 -Ih16/decNumber -Ih16/softfloat -fPIC -pthread -shared \
        -o h16/fst-hercules313.so "$FST_ROOT/capture/module/fstmod.c" -L/usr/lib/hercules -lherc -lhercu -ldl 2> h16/cc.err; then
    fail "a module for MAX_CPU_ENGINES 16 is built" "$(head -3 h16/cc.err)"
else
    expect_ok "a module of other structure sizes: the capture still succeeds" \
        fst-capture -q --via=module --module=h16/fst-hercules313.so -o r/linkage.trace "$FST_PROGS/linkage.ins"
    expect_eq "a module of other structure sizes: one line, HDL's reason" 1 \
        "$(grep -c "warning: --via=module: Hercules did not load the module: HHCHD011I Dependency check failed for REGS, size([0-9]*) expected([0-9]*); taking Hercules' text trace instead" "$T/err")"
    expect_eq "a module of other structure sizes: nothing else said" 1 "$(wc -l < "$T/err")"
    expect_eq "a module of other structure sizes: the text trace, exact" "$(want_insns linkage)" "$(insns r/linkage.trace)"
fi

# no module file
expect_ok "no module file: the capture still succeeds" \
    fst-capture -q --via=module --module=/nonexistent/fst.so -o r/minimal.trace "$FST_PROGS/minimal.ins"
expect_eq "no module file: the warnings say so and what is done" 2 \
    "$(grep -c "module=/nonexistent/fst.so: No such file\|warning: --via=module: no module .*taking Hercules' text trace instead" "$T/err")"
expect_eq "no module file: the text trace, exact" "$(want_insns minimal)" "$(insns r/minimal.trace)"

# options it does not go with
expect_fail "--via=module with --numcpu: refused" 2 "--via=module runs one program on one CPU" \
    fst-capture --via=module --numcpu=2 -o r/x.trace "$FST_PROGS/twocpu.ins"
expect_fail "--via=other: refused" 2 "--via: no way of tracing 'other'" \
    fst-capture --via=other -o r/x.trace "$FST_PROGS/minimal.ins"
expect_fail "--module without --via=module: refused" 2 "--module goes with --via=module" \
    fst-capture --module=x.so -o r/x.trace "$FST_PROGS/minimal.ins"
