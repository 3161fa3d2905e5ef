#!/bin/bash
# tests/loops/build.sh SEED DIR [MOST]: DIR/loopSEED.ins (and .s, .expect) from gen.py, built
# as the GNUmakefile builds tests/programs/*.s. Used by tests/e2e/loops.sh and make bench.
# FST_GEN=fortgen.py builds its call-heavy FORTRAN-style program instead (MOST: its rounds;
# FST_EXPECT=0 skips the .expect, whose walk is slow for many rounds).
set -e
s=$1 d=$2 most=${3:-1500000}
here=$(cd "$(dirname "$0")" && pwd)
progs=$here/../programs
gen=$here/${FST_GEN:-gen.py}
python3 "$gen" "$s" "$most" > "$d/loop$s.s"
[ "${FST_EXPECT:-1}" = 0 ] || python3 "$gen" "$s" "$most" --expect > "$d/loop$s.expect"
${S390_AS:-s390x-linux-gnu-as} -m31 -I "$progs" -o "$d/loop$s.o" "$d/loop$s.s"
${S390_LD:-s390x-linux-gnu-ld} -m elf_s390 -T "$progs/standalone.ld" -o "$d/loop$s.elf" "$d/loop$s.o"
${S390_OBJCOPY:-s390x-linux-gnu-objcopy} -O binary -j .lowcore "$d/loop$s.elf" "$d/loop$s.lc"
${S390_OBJCOPY:-s390x-linux-gnu-objcopy} -O binary -j .text "$d/loop$s.elf" "$d/loop$s.bin"
printf '%s 0x0\n%s 0x20000\n' "loop$s.lc" "loop$s.bin" > "$d/loop$s.ins"
