#!/bin/bash
# The seed corpora of `make fuzz`: scripts/fuzz-seeds.sh BUILD BIN FIXTURES
# Real inputs for every target, copied under names unique across folders (the fixtures
# have a bc_noregs.log for each Hercules version: one `cp` into one folder kept only one).
#   fuzz_herclog   every Hercules 3.13 and 4.9 log
#   fuzz_tf        every 4.9 trace file
#   fuzz_maps      IEWL listings, their CSV, a loader map and a CESD (tests/fuzz/seeds/), the
#                  test programs' nm -P
#   fuzz_tracebin, fuzz_replay   traces captured from the logs, and from the C test programs
#                  at -O2 (gcc's relative branches: TAKEN ops)
#   fuzz_mapmatch  each test program's nm -P (as CSV) and an IEWL listing, with its image and
#                  the addresses of its routines (fuzz_mapmatch.c's layout), and the same with
#                  no map (the model made from the image's identifiers)
set -u
B=$1 BIN=$2 FIX=$3
C=$B/fuzz
for t in tests/fuzz/fuzz_*.c; do mkdir -p "$C/corpus-$(basename "$t" .c)"; done   # every target's, seeded or not
for f in "$FIX"/hercules-*/*.log; do
    v=$(basename "$(dirname "$f")")
    cp "$f" "$C/corpus-fuzz_herclog/$v-$(basename "$f")"
    "$BIN/fst-capture" -q --from-log="$f" -o "$C/corpus-fuzz_tracebin/$v-$(basename "$f" .log).trace" 2> /dev/null || true
done
for f in "$FIX"/hercules-4.9/*.tf "$FIX"/hercules-4.9/tf/*.tf; do
    [ -f "$f" ] && cp "$f" "$C/corpus-fuzz_tf/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# gcc's code (relative branches, so TAKEN ops: trace/tracebin.h), from the C test programs
for ins in "$B"/cprogs/*-O2.ins; do
    [ -f "$ins" ] || continue
    n=$(basename "$ins" .ins) arch=ESA/390
    case $n in *-m64-*) arch=z/Arch ;; esac
    timeout 60 "$BIN/fst-capture" -q --arch="$arch" -o "$C/corpus-fuzz_tracebin/$n.trace" "$ins" 2> /dev/null ||
        rm -f "$C/corpus-fuzz_tracebin/$n.trace"
done
# traces over 64 KiB (-max_len) would be cut short at every run: keep the small ones
find "$C/corpus-fuzz_tracebin" -size +64k -delete
cp "$C"/corpus-fuzz_tracebin/* "$C/corpus-fuzz_replay/" 2> /dev/null
for f in "$FIX"/maps/*.iewl; do
    cp "$f" "$C/corpus-fuzz_maps/"
    "$BIN/fst-map" "$f" > "$C/corpus-fuzz_maps/$(basename "$f" .iewl).csv" 2> /dev/null || true
done
# committed seeds: a loader map, a CESD; inputs that crashed or leaked once (regressions)
for d in tests/fuzz/seeds/*/; do cp "$d"* "$C/corpus-$(basename "$d")/"; done
u16() { printf "\\$(printf '%03o' $(($1 >> 8 & 255)))\\$(printf '%03o' $(($1 & 255)))"; }
u32() { printf "\\$(printf '%03o' $(($1 >> 24 & 255)))\\$(printf '%03o' $(($1 >> 16 & 255)))"; u16 $(($1 & 65535)); }
NM=${S390_NM:-s390x-linux-gnu-nm}
for elf in "$B"/programs/*.elf; do
    [ -f "$elf" ] && command -v "$NM" > /dev/null || continue
    n=$(basename "$elf" .elf)
    "$NM" -P "$elf" > "$C/corpus-fuzz_maps/$n.nm" 2> /dev/null || continue
    "$BIN/fst-map" "$C/corpus-fuzz_maps/$n.nm" > "$C/nm.csv" 2> /dev/null || continue
    bin=$B/programs/$n.bin
    size=$(wc -c < "$bin"); [ "$size" -gt 8192 ] && size=8192
    # the routine starts, absolute (the module loaded at 20000 where the image is)
    starts=$(awk -F, 'NR > 1 && $2 != "MODULE" && $2 != "EP" { print $3 }' "$C/nm.csv")
    for map in csv none; do
        {
            printf '\001'                                        # confined
            [ $map = csv ] && cat "$C/nm.csv"
            printf '\000'; u16 "$size"; head -c "$size" "$bin"
            for s in $starts; do u32 $((0x20000 + 0x$s)); done
        } > "$C/corpus-fuzz_mapmatch/$n-$map"
    done
done
rm -f "$C/nm.csv"
for f in "$FIX"/maps/blkprt-5.iewl "$FIX"/maps/setrc-1.iewl; do   # a listing, no image: no fit
    { printf '\000'; cat "$f"; printf '\000'; u16 0; u32 $((0x20000)); u32 $((0x20808)); } \
        > "$C/corpus-fuzz_mapmatch/$(basename "$f")"
done
exit 0
