# Sanitizer aborts (issue 12 item 9), run by both builds of `make check` (gcc's whole suite,
# and clang's: `tests/run sanitize` in clang-unit). Fixtures only, no Hercules.
#   - fst-map --trace with a map that does not fit the trace nor the image: an error, where
#     map_match.c used to reach qsort(NULL, 0) (UBSan: nonnull-attribute);
#   - every format of a trace that has no calls: callgrind.c used to add 0 to a NULL
#     pointer (clang's UBSan: pointer-overflow).
. "$(dirname "$0")/../lib.sh"
F=$FST_FIXTURES/hercules-3.13
fst-capture -q --from-log="$F/bc_noregs.log" -o "$T/bc.trace" || fail "bc_noregs: capture from its log"
echo "$F/bc_noregs.bin 0x20000" > "$T/bc.ins"
# one routine at an odd offset: no name of it in the image, no executed address its start
printf 'name,type,origin,length\nZED,MODULE,0,400\nZED,SD,3,100\n' > "$T/nofit.csv"
expect_fail "fst-map --trace: a map that fits neither image nor trace is an error, not an abort" 2 \
    "ZED of .*nofit.csv: no evidence for the load point: no identifier in the storage image" \
    fst-map --image="$T/bc.ins" --trace="$T/bc.trace" "$T/nofit.csv"
expect_fail "fst-map --image: a map whose names are not in the image is an error, not an abort" 2 \
    "no identifier in the storage image names a routine of the module" \
    fst-map --image="$T/bc.ins" "$T/nofit.csv"
for f in fortstat csv maptime prof monout gmon callgrind folded json speedscope; do
    if fst-report --unnamed-ok --format=$f -o "$T/bc.$f" "$T/bc.trace" > /dev/null 2> "$T/err" &&
       ! grep -q 'AddressSanitizer\|runtime error' "$T/err"; then
        ok "--format=$f of a trace without calls"
    else
        fail "--format=$f of a trace without calls" "$(head -5 "$T/err")"
    fi
done
grep -q '^calls=' "$T/bc.callgrind" && fail "callgrind: no calls= line for a trace without calls" ||
    ok "callgrind: no calls= line for a trace without calls"
