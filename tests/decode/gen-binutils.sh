#!/bin/bash
# tests/decode/gen-binutils.sh [OUT.tsv] — what binutils says about every instruction it
# knows for z16, as the expected data of tests/unit/test_decode_binutils.c.
#
#   1. binutils' own opcode table (tests/decode/opcodes.c reads it from the libopcodes of
#      s390x-linux-gnu-objdump): every mnemonic, base and extended (j, jne, vab, locgre...),
#      with its opcode, mask and operand fields;
#   2. two instances of each mnemonic, their fields filled with chosen values ("a": every
#      field non-zero, so objdump prints every operand; "b": zeros, other registers,
#      negative displacements and relative offsets);
#   3. s390x-linux-gnu-objdump disassembles them (-m s390:64-bit, zarch mode), and
#      s390x-linux-gnu-as -march=z16 assembles objdump's text back: the bytes must be
#      the same, so every instance is an instruction binutils accepts at the z16 level;
#   4. one line per instance: the bytes, every name binutils has for its opcode (the
#      base mnemonic and the extended ones), the mnemonic objdump printed, the operand
#      values objdump printed (instance "a"), and the target of a relative operand as an
#      offset from the instruction, as objdump computed it.
# Without OUT it writes tests/decode/binutils-z16.tsv. Exit 1 when binutils disagrees with
# itself (an instance that does not assemble back), 2 when a tool is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-tests/decode/binutils-z16.tsv}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fst-binutils.XXXXXX")
[ -n "${KEEP_TMP:-}" ] && echo "gen-binutils: keeping $tmp" >&2 || trap 'rm -rf "$tmp"' EXIT
for t in s390x-linux-gnu-objdump s390x-linux-gnu-as s390x-linux-gnu-objcopy cc perl; do
    command -v "$t" > /dev/null || { echo "gen-binutils: $t is missing (scripts/deps.sh)" >&2; exit 2; }
done
cc -std=c11 -D_DEFAULT_SOURCE -o "$tmp/opcodes" tests/decode/opcodes.c -ldl
"$tmp/opcodes" > "$tmp/table.txt" || exit 2
VMA=0x10000000

# 2. instances -> insn.bin, and what each is (meta.txt)
perl tests/decode/instances.pl "$tmp/table.txt" "$tmp/insn.bin" > "$tmp/meta.txt"

# 3. objdump, and as on objdump's own text
s390x-linux-gnu-objdump -D -b binary -m s390:64-bit -M zarch --adjust-vma=$VMA "$tmp/insn.bin" \
    | grep -E '^ +[0-9a-f]+:' > "$tmp/dis.txt"
perl tests/decode/reassemble.pl "$tmp/meta.txt" "$tmp/dis.txt" "$tmp/re.s" > /dev/null
s390x-linux-gnu-as -march=z16 -mzarch -o "$tmp/re.o" "$tmp/re.s"
s390x-linux-gnu-objcopy -O binary -j .text "$tmp/re.o" "$tmp/re.bin"
if ! cmp -s "$tmp/insn.bin" "$tmp/re.bin"; then
    echo "gen-binutils: objdump's text does not assemble back to the same bytes:" >&2
    cmp -l "$tmp/insn.bin" "$tmp/re.bin" | head -5 >&2
    exit 1
fi

# 4. the expected data
{
    echo "# binutils' view of every s390 instruction it knows for z16, made by tests/decode/gen-binutils.sh"
    echo "# from $(s390x-linux-gnu-objdump --version | head -1); do not edit: regenerate."
    echo "# hex<TAB>instance<TAB>names for the opcode<TAB>objdump's mnemonic<TAB>operand values (a: all; b: -)<TAB>relative target offset (- none)"
    perl tests/decode/reassemble.pl "$tmp/meta.txt" "$tmp/dis.txt" /dev/null
} > "$out"
echo "gen-binutils: $(grep -vc '^#' "$out") instances of $(cut -f1 -d' ' "$tmp/table.txt" | grep -vc '^#') mnemonics -> $out" >&2
