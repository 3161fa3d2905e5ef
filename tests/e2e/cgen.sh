#!/bin/bash
# tests/e2e/cgen.sh — random C programs (tests/cprogs/cgen.py: branchy code on pseudo-random
# data, switches, loops, direct and mutual recursion, sibling calls in some), built by
# Debian's gcc for s390x three ways (-m31 -O0 and -O2 in ESA/390, -m64 -march=z196 -O2 in
# z/Architecture), traced under real Hercules and replayed. What each calls comes from
# running its statements in Python (cgen.py --expect), never from fst:
#   - gcc made the functions as written (nm), and sibling calls only where a tail call is;
#   - calls per function and per caller/callee pair (with --tail-calls where gcc made
#     sibling calls: a sibling call is then a call);
#   - where no call is a sibling call: calls per calling context and the deepest stack;
#   - main returns to the start-up: no unwind, no open frame, no program check;
#   - --via=module (3.13, and 4.9 when FST_HERCULES4 names it) gives the text trace's reports
#     byte for byte (the -m31 -O2 build with its functions 2 KiB apart, in many pages).
# The seeds are drawn anew for every run (printed), plus two fixed ones (15 has tail calls); FST_CGEN_SEEDS="..."
# names them instead (a soak).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
NM=${S390_NM:-s390x-linux-gnu-nm}
OBJDUMP=${S390_OBJDUMP:-s390x-linux-gnu-objdump}
seeds=${FST_CGEN_SEEDS:-"4 15 $(( (RANDOM % 900) + 100 )) $(( (RANDOM % 9000) + 1000 ))"}
echo "# seeds: $seeds"
for s in $seeds; do
    p=cgen$s
    python3 "$FST_ROOT/tests/cprogs/cgen.py" "$s" > "$p.c" && python3 "$FST_ROOT/tests/cprogs/cgen.py" "$s" --expect > "$p.exp"
    fact() { awk -v k="$1" '$1 == k { $1 = ""; print substr($0, 2) }' "$p.exp" | sort; }
    sib=$(grep -qx sibcalls "$p.exp" && echo yes || echo no)
    for v in m31-z900-O0 m31-z900-O2 m64-z196-O2; do
        b=$p-$v O=${v##*-}
        # -m31 -O2's functions 2 KiB apart: a load module's routines lie in many pages, and
        # the module remembers the pages it found right (fstmod_code.c ckent)
        spread=""
        [ $v = m31-z900-O2 ] && spread=-falign-functions=2048
        if ! FST_CDEFS="${FST_CDEFS:-} $spread" sh "$FST_ROOT/tests/cprogs/build.sh" "$p.c" $v "$T/$b" > build.err 2>&1; then
            fail "$b: built" "$(head -5 build.err)"
            continue
        fi
        "$NM" -P "$b.elf" > "$b.nm"
        "$OBJDUMP" -d --no-show-raw-insn "$b.elf" > "$b.dis"
        nsib=$(awk -v what=sibcalls -f "$CPAWK/objdump.awk" "$b.dis")
        made=$([ $O = O2 ] && [ $sib = yes ] && echo some || echo none)
        same "$b: gcc made the functions as written, sibling calls $made" \
            "functions $(fact functions | tr ' ' '\n' | sort | tr '\n' ' ') sibling-calls $made" \
            "functions $(awk '$2 ~ /^[Tt]$/ { print $1 }' "$b.nm" | sort | tr '\n' ' ') sibling-calls $([ "$nsib" -gt 0 ] && echo some || echo none)"
        arch=ESA/390 outside=5
        case $v in m64-*) arch=z/Arch outside=8 ;; esac
        mkdir -p t
        if ! fst-capture -q --via=trace --arch=$arch --timeout=120 -o "t/$b.trace" "$b.ins" 2> err; then
            fail "$b: captures under Hercules ($arch)" "$(head -5 err)"
            continue
        fi
        module_same "$b" "$b.ins" $arch "$T" "../$b.nm"
        opt=()
        [ "$made" = some ] && opt=(--tail-calls)
        if ! cp_reports "t/$b" fst-report --timed=all --map="$b.nm" --clock=mips:1 "${opt[@]}" 2> rep.err; then
            fail "$b: fst-report" "$(head -5 rep.err)"
            continue
        fi
        fns=$(fact functions)
        same "$b${opt:+ (--tail-calls)}: calls per function and per caller/callee pair as built" \
            "$(fact calls; fact arc)" \
            "$(awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1, $3 }' "t/$b.csv" | sort; cg arcs "$fns" "t/$b.cg")"
        if [ "$made" = none ]; then
            same "$b: calls per calling context and the deepest stack as built" \
                "$(fact stack)
depth $(fact depth)" \
                "$(awk -f "$CPAWK/speedscope.awk" "t/$b.ss" | sort)
depth $(awk -v what=depth -f "$CPAWK/speedscope.awk" "t/$b.ss")"
        fi
        same "$b: main returns to the start-up; no unwind, no open frame, no program check" \
            "outside $outside unwinds 0 open 0 pgmchk 0" \
            "outside $(awk -F, '$1 == "(outside)" { print $4 }' "t/$b.csv") $(sed -n \
                's/.*"program_checks": \([0-9]*\),.*"unwinds": \([0-9]*\), "open_frames": \([0-9]*\),.*/unwinds \2 open \3 pgmchk \1/p' "t/$b.json")"
    done
done
