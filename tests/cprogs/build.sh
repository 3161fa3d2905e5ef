#!/bin/sh
# tests/cprogs/build.sh SRC VARIANT OUT -- one s390x build of a C test program, as an IPL
# list Hercules loads: OUT.ins naming OUT.lc (low core, at 0) and OUT.bin (start-up, code
# and data, at 0x20000), with OUT.elf for nm and objdump.
#   VARIANT  mBITS-MARCH-OPT: m31 (ESA/390, 31-bit) or m64 (z/Architecture, 64-bit);
#            -march=MARCH (z900, z196, ...); O0 (-O0 -fno-inline) or O2
# -g: the DWARF line table for fst-report --lines (issue 34); the .bin is the same code.
# Freestanding: no libc, our own start-up (crt0.S), the linker script cprog.ld; gcc's
# helper library (libgcc.a of the multilib: -m31 takes Debian's lib32gcc-12-dev-s390x-cross)
# is linked after the program, for what gcc may call in it. FST_CDEFS: more compiler options
# (tests/shapes' -DROUNDS=N).
set -eu
src=$1 variant=$2 out=$3
here=$(dirname "$0")
CC=${S390_CC:-s390x-linux-gnu-gcc}
LD=${S390_LD:-s390x-linux-gnu-ld}
OBJCOPY=${S390_OBJCOPY:-s390x-linux-gnu-objcopy}
# shellcheck disable=SC2046  # three words
set -- $(echo "$variant" | tr - ' ')
[ $# -eq 3 ] || { echo "build.sh: variant '$variant' is not mBITS-MARCH-OPT" >&2; exit 2; }
case $1 in m31) emul=elf_s390 ;; m64) emul=elf64_s390 ;; *) echo "build.sh: $1: m31 or m64" >&2; exit 2 ;; esac
case $3 in O0) opt="-O0 -fno-inline" ;; O2) opt=-O2 ;; *) echo "build.sh: $3: O0 or O2" >&2; exit 2 ;; esac
flags="-$1 -march=$2 $opt -g -ffreestanding -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -Wall -Wextra -Werror"
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086  # flags are words
$CC $flags -c -o "$out.crt0.o" "$here/crt0.S"
# shellcheck disable=SC2086
$CC $flags ${FST_CDEFS:-} -c -o "$out.o" "$src"
$LD -m $emul -e 0x20000 --build-id=none --no-warn-rwx-segments -T "$here/cprog.ld" -o "$out.elf" \
    "$out.crt0.o" "$out.o" "$($CC -$1 -print-libgcc-file-name)"
$OBJCOPY -O binary -j .lowcore "$out.elf" "$out.lc"
$OBJCOPY -O binary -j .text -j .data "$out.elf" "$out.bin"
b=$(basename "$out")
printf '%s 0x0\n%s 0x20000\n' "$b.lc" "$b.bin" > "$out.ins"
