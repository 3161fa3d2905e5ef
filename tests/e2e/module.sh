#!/bin/bash
# tests/e2e/module.sh — fst-capture --via=module (capture/modread/modcap.h, capture/module/): fst's
# module inside Debian's Hercules 3.13 (or SDL Hercules 4.x) records branches (a loop's as
# one REP record), interruptions and code pages, fst rebuilds every instruction from them. Every deterministic one-CPU test program captured
# --via=module and --via=trace (real Hercules both) gives the same csv, callgrind and
# FORTSTAT reports byte for byte, and the instruction count tests/programs/EXPECTED gives
# from the program's construction; bigloop (1.1 M instructions: its text trace alone takes
# 20 s) is checked against EXPECTED only, every routine's calls and self instructions.
# ticker.s (60 s by construction) is left out. Systems of several tasks are checked
# elsewhere: tasks.sh captures the tasks system --via=module three times (external and I/O
# interruptions, seen by the preloaded interposer, program checks under DAT; the tasks told
# apart by the registers, control registers and dispatcher blocks the module records), every
# task's figures exact, and os.sh two generated systems (tests/os, way `module`).
# The same programs under SDL Hercules 4.9 with its module (lib/fst-hercules4.so); the
# two-CPU programs (twocpu, cpu0first, cpu1first, twoload: each CPU's figures as built) under both;
# a capture cut short by --timeout (what ran until then, consistent). Code that is in no
# image (cards, overlays, self-modifying code, DAT): modcode.sh. Refusals: the module
# refusing, a module built with other structure sizes (HDL's check), each Hercules' module
# under the other, no module file — each one warning line, then the text trace, whose
# reports are those of --via=trace.
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

# SDL Hercules 4.9 (the tests' real 4.x) with the same module built for it
# (lib/fst-hercules4.so): the same programs, the same reports as 3.13's text trace
MOD4=$FST_BIN/../lib/fst-hercules4.so
if [ -n "${FST_HERCULES4:-}" ] && [ -f "$MOD4" ]; then
    mkdir -p m4
    for p in $(awk '!/^#/ && $2 == "instructions" { print $1 }' "$EXPECTED"); do
        case $p in twocpu|cpu0first|cpu1first|ticker|mvsjob) continue ;; esac
        [ -f t/$p.csv ] || continue
        if ! fst-capture -q --via=module --hercules="$FST_HERCULES4" -o m4/$p.trace "$FST_PROGS/$p.ins" 2> m4/$p.err ||
            [ -s m4/$p.err ]; then
            fail "$p under 4.9: --via=module captures it, saying nothing" "$(head -3 m4/$p.err)"
            continue
        fi
        expect_eq "$p under 4.9: --via=module: the instructions EXPECTED gives" "$(want_insns $p)" "$(insns m4/$p.trace)"
        reports m4 $p
        same_reports "$p under 4.9: csv, callgrind and FORTSTAT the same as 3.13's text trace" m4 t $p
    done
    # the module of the other Hercules: HDL refuses it, one line, and 4.9's own trace (tf)
    mkdir -p r4
    expect_ok "3.13's module under 4.9: the capture still succeeds" fst-capture -q --via=module \
        --hercules="$FST_HERCULES4" --module="$MOD" -o r4/fortg.trace "$FST_PROGS/fortg.ins"
    expect_eq "3.13's module under 4.9: one line, HDL's reason, and the text trace" 1 \
        "$(grep -c "warning: --via=module: Hercules did not load the module: HHC015.*taking Hercules' text trace instead" "$T/err")"
    expect_eq "3.13's module under 4.9: the text trace, exact" "$(want_insns fortg)" "$(insns r4/fortg.trace)"
    expect_ok "4.9's module under 3.13: the capture still succeeds" fst-capture -q --via=module \
        --module="$MOD4" -o r4/linkage.trace "$FST_PROGS/linkage.ins"
    expect_eq "4.9's module under 3.13: one line, HDL's reason, and the text trace" 1 \
        "$(grep -c "warning: --via=module: Hercules did not load the module: HHCHD.*taking Hercules' text trace instead" "$T/err")"
    expect_eq "4.9's module under 3.13: the text trace, exact" "$(want_insns linkage)" "$(insns r4/linkage.trace)"
else
    echo "# skip: SDL Hercules 4.9 or lib/fst-hercules4.so missing (scripts/hercules4.sh, scripts/hercules4.sh --src)"
fi

# several CPUs: CPU 0 starts CPU 1 with SIGP restart (the module's SIGP record carries
# the target's restart PSW); each CPU's instructions exact (tests/programs/EXPECTED's
# two-CPU figures; CPU 0's spin loop in twocpu, outside, depends on the interleaving),
# under 3.13 and, when there, 4.9
percpu() { fst-dump "$1" | awk '/^cpu /{ c = $2 } /^insn/{ n[c + 0]++ } END { printf "%d %d", n[0], n[1] }'; }
endof() { fst-dump --summary "$1" | awk -F= '$1 == "footer.complete" { c = $2 } $1 == "footer.end" { e = $2 } END { print c, e }'; }
for h in 3.13 4.9; do
    hopt=""
    if [ $h = 4.9 ]; then
        [ -n "${FST_HERCULES4:-}" ] && [ -f "$MOD4" ] || continue
        hopt=--hercules=$FST_HERCULES4
    fi
    mkdir -p mc$h
    for p in twocpu cpu0first cpu1first twoload; do
        if ! fst-capture -q --via=module --numcpu=2 --timeout=60 $hopt -o mc$h/$p.trace "$FST_PROGS/$p.ins" 2> mc$h/$p.err ||
            [ -s mc$h/$p.err ]; then
            fail "$p under $h, two CPUs: --via=module captures it, saying nothing" "$(head -3 mc$h/$p.err)"
            continue
        fi
        case $p in
        twocpu)
            fst-report --format=csv --timed=all -o mc$h/$p.csv mc$h/$p.trace 2> /dev/null
            expect_eq "twocpu under $h, two CPUs, --via=module: each CPU's routines as built" \
                "MAINA 0 912 TICKA 300 2400 MAINB 0 1512 TICKB 500 4000" \
                "$(awk -F, 'NR > 1 && $1 !~ /^\(/ { printf "%s%s %s %s", n++ ? " " : "", $1, $3, $4 }' mc$h/$p.csv)" ;;
        cpu0first)
            expect_eq "cpu0first under $h, two CPUs, --via=module: CPU 0 5, CPU 1 312 (after CPU 0's wait), complete" \
                "5 312 1 disabled-wait" "$(percpu mc$h/$p.trace) $(endof mc$h/$p.trace)" ;;
        cpu1first)
            expect_eq "cpu1first under $h, two CPUs, --via=module: CPU 0 315, CPU 1 103, complete" \
                "315 103 1 disabled-wait" "$(percpu mc$h/$p.trace) $(endof mc$h/$p.trace)" ;;
        twoload) # code CPU 0 loaded at X'30000' at run time, called by both CPUs: 403 each
            expect_eq "twoload under $h, two CPUs, --via=module: each CPU ran the loaded routine's 403, complete" \
                "403 403 1 disabled-wait" "$(fst-dump mc$h/$p.trace | awk '/^insn/ { split($2, c, "=");
                    split($3, a, "="); x = strtonum("0x" a[2]); if (x >= 196608 && x < 196622) n[c[2] + 0]++ }
                    END { printf "%d %d", n[0], n[1] }') $(endof mc$h/$p.trace)" ;;
        esac
    done
done

# cut short: shares.s of 400 000 rounds (1.6 G instructions, seconds) with --timeout=1: the
# module sends a CPU's records within 0.1 s, so the trace holds about all that ran until
# then, marked incomplete, and it is consistent (each routine's self count is its calls
# times its length by construction: ALPHA 2006, the last call perhaps cut short)
src=$FST_ROOT/tests/programs
s390x-linux-gnu-as -m31 -I "$src" --defsym ROUNDS=400000 -o sh.o "$src/shares.s" &&
    s390x-linux-gnu-ld -m elf_s390 -T "$src/standalone.ld" -o sh.elf sh.o &&
    s390x-linux-gnu-objcopy -O binary -j .lowcore sh.elf sh.lc &&
    s390x-linux-gnu-objcopy -O binary -j .text sh.elf sh.bin && printf 'sh.lc 0x0\nsh.bin 0x20000\n' > sh.ins
expect_fail "a module capture timed out: an error saying what the trace holds" 2 "timed out: .* holds the first" \
    fst-capture --via=module --timeout=1 -o to.trace sh.ins
# (a quiet machine runs some 200 M in that second, one with both cores busy beside it 8 M;
# a module that kept its buffer would leave none: a copy's REP holds a loop in a few bytes)
n=$(fst-dump --summary to.trace | awk -F= '$1 == "count.insn" { print $2 }')
if [ "${n:-0}" -gt 2000000 ]; then ok "timed out after 1 s: the trace holds $n instructions (> 2 M)"
else fail "timed out after 1 s: the trace holds more than 2 M instructions" "${n:-none}"; fi
fst-report --format=csv --timed=all -o to.csv to.trace 2> /dev/null
expect_eq "timed out: ALPHA's self instructions are its calls times 2006 (the last call perhaps cut short)" 1 \
    "$(awk -F, '$1 == "ALPHA" { d = $3 * 2006 - $4; print d >= 0 && d < 2006 }' to.csv)"
expect_eq "timed out: the trace is marked incomplete" 0 \
    "$(fst-dump --summary to.trace | awk -F= '$1 == "footer.complete" { print $2 }')"

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
expect_fail "--via=other: refused" 2 "--via: no way of tracing 'other'" \
    fst-capture --via=other -o r/x.trace "$FST_PROGS/minimal.ins"
expect_fail "--module with --via=trace: refused" 2 "--module goes with the module's route" \
    fst-capture --via=trace --module=x.so -o r/x.trace "$FST_PROGS/minimal.ins"
