#!/bin/bash
# tests/e2e/cprog.sh — compiled C under Hercules (issue 11): the C test programs of
# tests/cprogs, each built by gcc for s390x in 8 ways (-m31 in ESA/390 and -m64 in
# z/Architecture, -march=z900 and z196, -O0 -fno-inline and -O2), traced under real
# Hercules and replayed by fst-report with and without --tail-calls:
#   - calls per function and per caller/callee pair are the programs' construction
#     (tests/cprogs/EXPECTED);
#   - no frame is popped that did not return: the calls per calling context (every stack,
#     from the speedscope file's opens), the deepest stack and the folded stacks are the
#     construction's; main returns to the start-up; no unwind;
#   - they are what valgrind's callgrind reports for the x86-64 build of the same source
#     at the same -O: calls, arcs, and calls per calling context (callgrind's
#     --separate-callers contexts; where gcc made sibling calls, callgrind counts them as
#     calls, so -O2 is compared with --tail-calls, and its contexts, which nest them, are
#     not compared: --tail-calls replaces the frame);
#   - each build has what the test is about: the functions as written, and (EXPECTED's
#     `hazard`) a relative branch to a call's return address (+4k) in the calling
#     function (where the old return rule saw returns), sibling calls (jg) only where
#     EXPECTED says so.
# Each is captured --via=module too: the reports must be the text trace's byte for byte.
# And tests/programs/fortrec.s, FORTRAN-style S/370 code whose branches on the routine's
# code base land on the return address of its recursive BALR: tests/programs/EXPECTED.
. "$(dirname "$0")/../lib.sh"
EXP=$FST_ROOT/tests/cprogs/EXPECTED
PEXP=$FST_ROOT/tests/programs/EXPECTED
CP=${FST_CPROGS:-$(dirname "$FST_PROGS")/cprogs}
NM=${S390_NM:-s390x-linux-gnu-nm}
OBJDUMP=${S390_OBJDUMP:-s390x-linux-gnu-objdump}
VARIANTS="m31-z900-O0 m31-z900-O2 m31-z196-O0 m31-z196-O2 m64-z900-O0 m64-z900-O2 m64-z196-O0 m64-z196-O2"

# has PROGRAM KIND: EXPECTED has a KIND line for PROGRAM
has() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { f = 1 } END { exit !f }' "$EXP"; }
# fact FILE PROGRAM KIND [SUFFIX...]: the lines of the first of KIND-SUFFIX..., KIND that
# has any, without their first two fields, sorted
fact() {
    local f=$1 p=$2 k=$3 s r
    shift 3
    for s in "$@" ""; do
        r=$(awk -v p="$p" -v k="$k$s" '$1 == p && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$f" | sort)
        [ -n "$r" ] && { printf '%s\n' "$r"; return; }
    done
}
# ---- the C programs -------------------------------------------------------------------
for p in $(awk '!/^#/ && $2 == "functions" { print $1 }' "$EXP"); do
    fns=$(fact "$EXP" $p functions)
    # valgrind on the x86-64 builds; what it reports must be the construction too (the
    # two builds are comparable: nothing inlined or cloned; callgrind nests sibling calls
    # the way -O0's real calls nest)
    for O in O0 O2; do
        x=$CP/$p-x86-$O
        if ! valgrind --tool=callgrind --callgrind-out-file="$T/$p-x86-$O.cg" --separate-recs=30 \
                --separate-callers=30 "$x" > /dev/null 2> "$T/vg.err"; then
            fail "$p x86-64 -$O: runs under valgrind" "$(tail -5 "$T/vg.err")"
            continue
        fi
        cg arcs "$fns" "$T/$p-x86-$O.cg" > "$T/$p-$O.vg.arcs"
        cg calls "$fns" "$T/$p-x86-$O.cg" > "$T/$p-$O.vg.calls"
        cg contexts "$fns" "$T/$p-x86-$O.cg" > "$T/$p-$O.vg.ctx"
        same "$p x86-64 -$O: valgrind's callgrind reports the construction's calls, arcs and contexts" \
            "$(fact "$EXP" $p calls | grep -v '^main '; fact "$EXP" $p arc; fact "$EXP" $p stack | ctx)" \
            "$(cat "$T/$p-$O.vg.calls" "$T/$p-$O.vg.arcs" "$T/$p-$O.vg.ctx")"
    done
    for v in $VARIANTS; do
        b=$p-$v O=${v##*-}
        ins=$CP/$b.ins elf=$CP/$b.elf
        [ -f "$ins" ] || { fail "$b: built (make programs)"; continue; }
        # what gcc made: the functions as written, the branches the test is about
        "$NM" -P "$elf" > "$T/$b.nm"
        "$OBJDUMP" -d --no-show-raw-insn "$elf" > "$T/$b.dis"
        got="functions $(awk '$2 ~ /^[Tt]$/ { print $1 }' "$T/$b.nm" | sort | tr '\n' ' ')"
        haz=$(awk -v what=hazards -f "$CPAWK/objdump.awk" "$T/$b.dis")
        nsib=$(awk -v what=sibcalls -f "$CPAWK/objdump.awk" "$T/$b.dis")
        want="functions $(echo $fns | tr ' ' '\n' | sort | tr '\n' ' ')"
        if has $p hazard; then
            want="$want hazard yes"; got="$got hazard $([ -n "$haz" ] && echo yes || echo no)"
        fi
        want="$want sibling-calls $(has $p sibcalls && [ $O = O2 ] && echo some || echo none)"
        got="$got sibling-calls $([ "$nsib" -gt 0 ] && echo some || echo none)"
        same "$b: gcc made it as the test wants it (${haz:+branches to return addresses: $(echo $haz | cut -c1-80)})" "$want" "$got"

        arch=ESA/390 outside=5
        case $v in m64-*) arch=z/Arch outside=8 ;; esac
        if ! fst-capture -q --via=trace --arch=$arch --timeout=120 -o "$T/$b.trace" "$ins" 2> "$T/err"; then
            fail "$b: captures under Hercules ($arch)" "$(head -5 "$T/err")"
            continue
        fi
        mkdir -p "$T/t" && cp "$T/$b.trace" "$T/t/"
        module_same "$b" "$ins" $arch "$T" "../$b.nm"
        # every instruction gcc emitted is decoded and priced from a row or a stated rule
        # (the P/390 table): no opcode decoded as '?', none priced at the default
        fst-report --format=csv -o /dev/null "$T/$b.trace" 2> "$T/$b.price"
        same "$b: every instruction decoded and priced by a row or a stated rule" "" \
            "$(grep -E 'not decoded|priced at the default' "$T/$b.price")"
        for mode in default tail-calls; do
            opt=() suf=()
            [ $mode = tail-calls ] && opt=(--tail-calls)
            if [ $O = O2 ]; then
                if [ $mode = tail-calls ]; then suf=(-O2); else suf=(-O2-nosib -O2); fi
            fi
            n="$b ($mode)"
            r=(fst-report --timed=all --map="$T/$b.nm" --clock=mips:1 "${opt[@]}")
            if ! cp_reports "$T/$b" "${r[@]}" 2> "$T/$b.err"; then
                fail "$n: fst-report" "$(head -5 "$T/$b.err")"
                continue
            fi
            # (a) calls and arcs as built
            same "$n: calls per function and per caller/callee pair as built" \
                "$(fact "$EXP" $p calls "${suf[@]}"; fact "$EXP" $p arc "${suf[@]}")" \
                "$(awk -F, 'NR > 1 && $1 !~ /^\(/ { print $1, $3 }' "$T/$b.csv" | sort; cg arcs "$fns" "$T/$b.cg")"
            # (c) no frame popped that did not return: calls per stack, depth, folded stacks
            awk -f "$CPAWK/speedscope.awk" "$T/$b.ss" | sort > "$T/$b.stacks"
            stacks=$(fact "$EXP" $p stack "${suf[@]}")
            same "$n: calls per calling context, deepest stack, folded stacks as built" \
                "$stacks
depth $(fact "$EXP" $p depth "${suf[@]}")
folded $( (echo main; printf '%s\n' "$stacks" | cut -d' ' -f1) | sort | tr '\n' ' ')" \
                "$(cat "$T/$b.stacks")
depth $(awk -v what=depth -f "$CPAWK/speedscope.awk" "$T/$b.ss")
folded $(cut -d' ' -f1 "$T/$b.folded" | sort | tr '\n' ' ')"
            # main returned to the start-up, which then ran its last instruction; nothing
            # unwound, no frame left open, no program check
            same "$n: main returns to the start-up; no unwind, no open frame, no program check" \
                "outside $outside unwinds 0 open 0 pgmchk 0" \
                "outside $(awk -F, '$1 == "(outside)" { print $4 }' "$T/$b.csv") $(sed -n \
                    's/.*"program_checks": \([0-9]*\),.*"unwinds": \([0-9]*\), "open_frames": \([0-9]*\),.*/unwinds \2 open \3 pgmchk \1/p' "$T/$b.json")"
            # (b) valgrind on x86-64, same source, same -O
            if [ $O = O0 ] || ! has $p sibcalls || [ $mode = tail-calls ]; then
                want="$(cat "$T/$p-$O.vg.calls" "$T/$p-$O.vg.arcs")"
                got="$(cg calls "$fns" "$T/$b.cg"; cg arcs "$fns" "$T/$b.cg")"
                what="calls and arcs"
                if [ $O = O0 ] || ! has $p sibcalls; then
                    want="$want
$(cat "$T/$p-$O.vg.ctx")"
                    got="$got
$(ctx < "$T/$b.stacks")"
                    what="calls, arcs and calls per calling context"
                fi
                same "$n: $what = valgrind callgrind on x86-64 -$O" "$want" "$got"
            fi
        done
    done
done

# ---- FORTRAN-style S/370: branches on the code base to a recursive BALR's return ------
p=fortrec
pf() { awk -v p=$p -v k="$1" '$1 == p && $2 == k { $1 = ""; $2 = ""; print substr($0, 3) }' "$PEXP" | sort; }
if fst-capture -q -o "$T/$p.trace" "$FST_PROGS/$p.ins" 2> "$T/err"; then
    "$NM" -P "$FST_PROGS/$p.elf" > "$T/$p.nm"
    for mode in default tail-calls; do
        opt=()
        [ $mode = tail-calls ] && opt=(--tail-calls)
        for m in map image; do
            n="$p ($mode, routines from the $m)"
            r=(fst-report --clock=mips:1 "${opt[@]}")
            [ $m = map ] && r+=(--timed=all --map="$T/$p.nm")
            if ! cp_reports "$T/$p" "${r[@]}" 2> "$T/$p.err"; then
                fail "$n: fst-report" "$(head -5 "$T/$p.err")"
                continue
            fi
            same "$n: calls, self and inclusive instructions as built" \
                "$(pf calls; pf self; pf incl)" \
                "$(for c in 3 4 5; do awk -F, -v c=$c 'NR > 1 && $1 !~ /^\(/ { print $1, $c }' "$T/$p.csv" | sort; done)"
            stacks=$(pf stack)
            same "$n: calls per calling context, deepest stack, folded stacks as built; no unwind" \
                "$stacks
depth $(pf depth)
folded $( (echo MAIN; printf '%s\n' "$stacks" | cut -d' ' -f1) | sort | tr '\n' ' ')
unwinds 0 open 0" \
                "$(awk -f "$CPAWK/speedscope.awk" "$T/$p.ss" | sort)
depth $(awk -v what=depth -f "$CPAWK/speedscope.awk" "$T/$p.ss")
folded $(cut -d' ' -f1 "$T/$p.folded" | sort | tr '\n' ' ')
$(sed -n 's/.*"unwinds": \([0-9]*\), "open_frames": \([0-9]*\),.*/unwinds \1 open \2/p' "$T/$p.json")"
        done
    done
else
    fail "$p: captures" "$(head -5 "$T/err")"
fi
