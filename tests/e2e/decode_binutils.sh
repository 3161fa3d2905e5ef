# The decoder against binutils (tests/unit/test_decode_binutils.c reads the committed
# tests/decode/binutils-z16.tsv): the file is what the installed binutils says today
# (regenerated and compared), and the unit test fails on a file that disagrees with fst.
. "$(dirname "$0")/../lib.sh"
TSV=$FST_ROOT/tests/decode/binutils-z16.tsv
UNIT=$FST_BIN/../tests/test_decode_binutils

if bash "$FST_ROOT/tests/decode/gen-binutils.sh" "$T/now.tsv" 2> "$T/gen.err"; then
    # the binutils version line may differ; every instance must not
    if diff <(grep -v '^#' "$TSV") <(grep -v '^#' "$T/now.tsv") > "$T/diff"; then
        ok "tests/decode/binutils-z16.tsv is what this binutils says ($(grep -vc '^#' "$TSV") instances)"
    else
        fail "tests/decode/binutils-z16.tsv differs from this binutils: regenerate it (tests/decode/gen-binutils.sh)" "$(head -5 "$T/diff")"
    fi
else
    fail "tests/decode/gen-binutils.sh" "$(tail -5 "$T/gen.err")"
fi

# the unit test can fail: a wrong length, a wrong name, a wrong relative target
mutate() {   # NAME SED-EXPRESSION
    sed -e "$2" "$TSV" > "$T/bad.tsv"
    if cmp -s "$TSV" "$T/bad.tsv"; then fail "$1: the mutation changed nothing"; return; fi
    if FST_DECODE_TSV="$T/bad.tsv" "$UNIT" > "$T/out" 2>&1; then
        fail "$1: the decoder test passed on a wrong file"
    elif grep -q "$3" "$T/out"; then ok "$1: the decoder test fails"
    else fail "$1: the decoder test failed, but not for that" "$(grep -v '^\[' "$T/out" | head -3)"; fi
}
mutate "LR said to be 4 bytes" 's/^1848\ta\t/18480000\ta\t/' "length 2, objdump 4"
mutate "LA named ST" 's/^\(4147B123\ta\t\)LA\t/\1ST\t/' "named LA, binutils names the opcode ST"
mutate "BRASL's target 2 bytes off" 's/^\(C04500012345\ta\t.*\t\)149130$/\1149132/' "target 100246"
mutate "an operand of A changed" 's/^\(5A47B123\ta\tA\tA\t\)4,/\15,/' "operands 4,291,7,11, objdump 5,291,7,11"

# binutils starts at ESA/390 (-march=g5): the S/370-only instructions are not in it, so
# tests/unit/test_decode.c checks them against the S/370 Principles of Operation instead
for m in "sio 12(0)" "siof 12(0)" "rio 12(0)" "tio 12(0)" "clrio 12(0)" "hio 12(0)" "hdv 12(0)" \
         "tch 12(0)" "ssk %r1,%r2" "isk %r1,%r2" "wrd 16(%r12),32" "rdd 16(%r12),32" "concs 16" \
         "discs 16" "stidc 16" "rrb 16"; do
    printf ' %s\n' "$m" > "$T/s370.s"
    if s390x-linux-gnu-as -march=g5 -mesa -m31 -o "$T/s370.o" "$T/s370.s" 2> "$T/as.err"; then
        fail "binutils knows the S/370-only ${m%% *}: compare fst with it"
    elif ! grep -q "Unrecognized opcode" "$T/as.err"; then
        fail "as on ${m%% *}" "$(head -2 "$T/as.err")"
    else ok "binutils has no S/370-only ${m%% *}"; fi
done
