# Nothing priced in silence (issue 11): fst-report says on stderr, and csv --meta and json
# say too, which instructions had no row in the cost table (priced by a class rule or at
# the default) and which the decoder did not know. The trace: the Hercules 4.9 z/Arch
# fixture log with four instructions replaced by z196/z13 ones and an unassigned opcode.
. "$(dirname "$0")/../lib.sh"
LOG=$FST_FIXTURES/hercules-4.9/z_noregs.log
# AGHI -> AGFR 1,2; LA 1,3 -> B9FF (no such opcode); LG -> SLLK 1,2,3; STG -> VA 1,2,3,15
sed -e 's/INST=A74B0001    /INST=B9180012    /' -e 's/INST=41100003    /INST=B9FF0012    /' \
    -e 's/INST=E340C0960004/INST=EB12000300DF/' -e 's/INST=E340C09E0024/INST=E7123000F0F3/' "$LOG" > "$T/z.log"
expect_eq "the fixture log has the four instructions replaced" 4 "$(diff "$LOG" "$T/z.log" | grep -c '^>')"
fst-capture -q --from-log="$T/z.log" -o "$T/z.trace" || fail "capture of the edited log"

fst-report --unnamed-ok -o "$T/out.txt" "$T/z.trace" 2> "$T/err"
expect_eq "stderr: priced by rule, each named with its rule" \
    "fst-report: 3 instructions of 3 opcodes priced by a class rule, not from a row of the cost table: AGFR ×1 as AR, SLLK ×1 as SLL, VA ×1 as @vector (rules: data/README.md)" \
    "$(grep 'class rule' "$T/err")"
expect_eq "stderr: the opcodes not decoded (the fixture's own 0000, and B9FF)" \
    "fst-report: warning: 2 instructions of 2 opcodes not decoded (priced at the default): 00 ×1, B9FF ×1" \
    "$(grep 'not decoded' "$T/err")"
expect_eq "stderr: nothing at the default with the shipped table" "" "$(grep 'at the default (their' "$T/err")"

fst-report --unnamed-ok --format=csv --meta -o "$T/meta.csv" "$T/z.trace" 2> /dev/null
expect_eq "csv --meta: the pricing lines after fst-diff's line" \
    "# pricing: rule=3 default=0 undecoded=2
# priced by rule: AGFR 1 as AR; SLLK 1 as SLL; VA 1 as @vector
# not decoded: 00 1; B9FF 1" "$(sed -n 2,4p "$T/meta.csv")"
expect_ok "csv --meta: fst-diff still reads it" fst-diff "$T/meta.csv" "$T/z.trace"

fst-report --unnamed-ok --format=json -o "$T/z.json" "$T/z.trace" 2> /dev/null
expect_eq "json: pricing" '  "pricing": {"rule": 3, "default": 0, "undecoded": 2,
    "unpriced": [
      {"mnemonic": "AGFR", "opcode": "B918", "instructions": 1, "how": "rule", "rule": "AR"},
      {"mnemonic": "SLLK", "opcode": "EBDF", "instructions": 1, "how": "rule", "rule": "SLL"},
      {"mnemonic": "VA", "opcode": "E7F3", "instructions": 1, "how": "rule", "rule": "@vector"}
    ],
    "undecoded_opcodes": [{"opcode": "00", "instructions": 1}, {"opcode": "B9FF", "instructions": 1}]},' \
    "$(sed -n '/"pricing"/,/undecoded_opcodes/p' "$T/z.json")"
expect_eq "json: unmodeled counts every instruction without a row" '"unmodeled": 5' \
    "$(grep -o '"unmodeled": [0-9]*' "$T/z.json")"

# a table of one's own with LR, SLL and @vector only: LGR, LLGTR, SLLK and VA by rule, AGFR (as AR,
# which it lacks) and the rest at the default, said as a warning
printf 'mnemonic,base_ns\nLR,57\nSLL,170\n@vector,57\n' > "$T/mine.csv"
fst-report --unnamed-ok --clock=model:"$T/mine.csv" -o /dev/null "$T/z.trace" 2> "$T/err2"
expect_eq "own table: LGR LLGTR SLLK VA by rule" \
    "fst-report: 4 instructions of 4 opcodes priced by a class rule, not from a row of the cost table: LGR ×1 as LR, LLGTR ×1 as LR, SLLK ×1 as SLL, VA ×1 as @vector (rules: data/README.md)" \
    "$(grep 'class rule' "$T/err2")"
expect_eq "own table: AGFR among those at the default, a warning" 1 \
    "$(grep -c '^fst-report: warning: [0-9]* instructions of [0-9]* opcodes priced at the default (their class median): .*AGFR ×1' "$T/err2")"
# a mips clock prices everything at its rate: only what was not decoded is worth a word
fst-report --unnamed-ok --clock=mips:1 -o /dev/null "$T/z.trace" 2> "$T/err3"
expect_eq "mips clock: no rule line" "" "$(grep 'class rule' "$T/err3")"
expect_eq "mips clock: still the opcodes not decoded" 1 "$(grep -c 'not decoded' "$T/err3")"
