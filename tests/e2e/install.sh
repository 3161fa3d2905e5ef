#!/bin/bash
# tests/e2e/install.sh — a fresh `make install PREFIX=DIR` (issue 31; of the build under test,
# INSTALL_MODE=test, which is `make install` but for the folder it installs from): the commands, the man
# pages, the cost tables, and fst's module for each Hercules it was built for, with its
# interposer, in PREFIX/lib/fst, where the installed fst-capture finds them; the installed
# fst-capture records bigloop through the module (its default route), every instruction
# (tests/programs/EXPECTED), and the installed fst-report prices it with the installed tables.
. "$(dirname "$0")/../lib.sh"
if ! command -v help2man > /dev/null || [ ! -f "$FST_BIN/../lib/fst-hercules313.so" ]; then
    echo "ok 1 # SKIP help2man or the module missing (scripts/deps.sh)"
    exit 0
fi
P=$T/prefix
# the build under test (INSTALL_MODE: its folder under build/), installed as `make install` installs
mode=$(basename "$(dirname "$(readlink -f "$FST_BIN")")")
if ! make -s -C "$FST_ROOT" install PREFIX="$P" INSTALL_MODE="$mode" > "$T/make.out" 2>&1; then
    fail "make install PREFIX=$P" "$(tail -5 "$T/make.out")"
    echo "1..$N"
    exit 0
fi
ok "make install PREFIX=DIR"
expect_eq "the modules and their interposers in PREFIX/lib/fst" \
    "fst-hercules313-irq.so fst-hercules313.so" \
    "$(cd "$P/lib/fst" && ls fst-hercules313*.so | paste -sd' ')"
[ -s "$P/share/man/man1/fst-capture.1" ] && grep -q 'lib/fst/fst-hercules313.so' "$P/share/man/man1/fst-capture.1" \
    && ok "the man page says where the modules are" || fail "the man page says where the modules are"
# run from elsewhere, with nothing of the build tree in the environment
( cd "$T" && env -u FST_ROOT -u FST_DATA -u FST_MODULE -u FST_MODULE4 PATH=/usr/bin:/bin \
    "$P/bin/fst-capture" -o "$T/b.trace" "$FST_PROGS/bigloop.ins" ) 2> "$T/err"
rc=$?
expect_eq "the installed fst-capture: through the module, by default" "0 1" \
    "$rc $(grep -c "ended by disabled-wait.*(fst's module: " "$T/err")"
want=$(awk '$1 == "bigloop" && $2 == "instructions" { print $3 }' "$FST_ROOT/tests/programs/EXPECTED")
expect_eq "... every instruction of bigloop" "$want" \
    "$("$P/bin/fst-dump" --summary "$T/b.trace" 2> /dev/null | sed -n 's/^count.insn=//p')"
( cd "$T" && env -u FST_ROOT -u FST_DATA PATH=/usr/bin:/bin "$P/bin/fst-report" "$T/b.trace" ) > "$T/r" 2> "$T/rerr"
expect_eq "the installed fst-report: TICK called 100000 times, priced by the installed tables" "100000" \
    "$(awk '$1 == "TICK" { print $2 }' "$T/r")"
echo "1..$N"
