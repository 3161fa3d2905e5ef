# fst-capture --from-log over every fixture log: counts per fixture, logs with no
# instructions rejected, unknown and malformed lines reported, a log piped on stdin.
. "$(dirname "$0")/../lib.sh"

dumpval() { sed -n "s/^$1=//p" "$2"; }

while read -r f insns pgm waits intrs unknown; do
    case "$f" in ''|'#'*) continue ;; esac
    tr=$T/$(echo "$f" | tr / _).trace
    if ! fst-capture -q --from-log="$FST_FIXTURES/$f" -o "$tr" 2> "$T/err"; then
        fail "$f: converts" "$(head -3 "$T/err")"; continue
    fi
    fst-dump --summary "$tr" > "$T/d"
    got="$(dumpval count.insn "$T/d") $(dumpval count.pgmchk "$T/d") $(dumpval count.wait "$T/d") $(dumpval count.intr "$T/d") $(dumpval footer.log-lines-not-understood "$T/d") $(dumpval footer.log-lines-malformed "$T/d") $(dumpval complete "$T/d")"
    expect_eq "$f: instructions, program checks, waits, interruptions, unknown, malformed, complete" \
        "$insns $pgm $waits $intrs $unknown 0 1" "$got"
done < "$(dirname "$0")/fixture-counts.txt"

# the records themselves: bc_noregs.log (notes §2.3) — the program check's re-display is
# not an execution, so the instruction after `????? ,` at 20052 is the handler's LPSW
fst-capture -q --from-log="$FST_FIXTURES/hercules-3.13/bc_noregs.log" -o "$T/bc.trace"
fst-dump "$T/bc.trace" | grep -E '^(insn|pgmchk|wait)' | sed -n '24,28p' > "$T/seq"
expect_eq "bc_noregs: records around the program check" \
"insn cpu=0 addr=20052 len=2 bytes=0000
pgmchk code=0001 ilc=2
insn cpu=0 addr=20062 len=4 bytes=82000028
insn cpu=0 addr=20054 len=4 bytes=41100001
insn cpu=0 addr=20058 len=2 bytes=05E0" "$(cat "$T/seq")"

# what identifies a task (bc_noregs.log, notes §2.3): the SVC 5 interruption, and the
# PSWs loaded by the SVC handler's LPSW 32, the program-check handler's LPSW 40 and the
# last LPSW 102(12), each after its instruction
fst-dump "$T/bc.trace" | grep -E '^(insn|intr|lpsw)' | sed -n '22,30p' > "$T/task"
expect_eq "bc_noregs: SVC interruption and LPSW records, in place" \
"insn cpu=0 addr=20050 len=2 bytes=0A05
intr svc 5
insn cpu=0 addr=2005E len=4 bytes=82000020
lpsw operand=00000020 psw=00000005 50020052
insn cpu=0 addr=20052 len=2 bytes=0000
insn cpu=0 addr=20062 len=4 bytes=82000028
lpsw operand=00000028 psw=00000001 50020054
insn cpu=0 addr=20054 len=4 bytes=41100001
insn cpu=0 addr=20058 len=2 bytes=05E0" "$(cat "$T/task")"
# the address space (dat_traditional.log, notes §2.8): LCTL 1,1 loads CR1 = 00021000;
# the CR blocks after it show that value again, which is not written twice
fst-capture -q --from-log="$FST_FIXTURES/hercules-3.13/dat_traditional.log" -o "$T/dat.trace"
expect_eq "dat_traditional: CR1 from LCTL 1,1, once" "cr1 = 00021000" "$(fst-dump "$T/dat.trace" | grep '^cr')"

# 3.13 and 4.9 logs of the same program give the same instruction stream
for p in bc_noregs esa_traditional z_regsfirst; do
    fst-capture -q --from-log="$FST_FIXTURES/hercules-3.13/$p.log" -o "$T/a.trace"
    fst-capture -q --from-log="$FST_FIXTURES/hercules-4.9/$p.log" -o "$T/b.trace"
    fst-dump "$T/a.trace" | grep -E '^insn' > "$T/a"
    fst-dump "$T/b.trace" | grep -E '^insn' > "$T/b"
    if cmp -s "$T/a" "$T/b"; then ok "$p: 3.13 and 4.9 logs give the same instructions"
    else fail "$p: 3.13 and 4.9 logs give the same instructions" "$(diff "$T/a" "$T/b" | head -5)"; fi
    fst-dump "$T/a.trace" | grep -E '^(intr|lpsw)' > "$T/a"
    fst-dump "$T/b.trace" | grep -E '^(intr|lpsw)' > "$T/b"
    if [ -s "$T/a" ] && cmp -s "$T/a" "$T/b"; then ok "$p: 3.13 and 4.9 logs give the same SVC and LPSW records"
    else fail "$p: 3.13 and 4.9 logs give the same SVC and LPSW records" "$(diff "$T/a" "$T/b" | head -5)"; fi
done

# the spliced HAO message of 3.13 (ec_noregs.log line 'INST=3A20 HHCAO001I...')
fst-capture -q --from-log="$FST_FIXTURES/hercules-3.13/ec_noregs.log" -o "$T/ec.trace"
expect_eq "ec_noregs: the spliced AER is still one instruction" "1" "$(fst-dump "$T/ec.trace" | grep -c 'bytes=3A20$')"

# logs without instructions
for f in hercules-3.13/esa_notrace.log hercules-3.13/ts_daemon.log hercules-4.9/esa_notrace.log hercules-4.9/ic.log hercules-4.9/tf.log; do
    expect_fail "$f: no instructions is an error" 2 "no traced instructions" \
        fst-capture -q --from-log="$FST_FIXTURES/$f" -o "$T/none.trace"
    [ ! -e "$T/none.trace" ] && ok "$f: no trace file left behind" || fail "$f: no trace file left behind"
done

# unknown and malformed lines are counted and reported, with line numbers
{ head -30 "$FST_FIXTURES/hercules-3.13/bc_noregs.log"; echo "this is not Hercules"; echo "PSW=0000ZZZZ 00020000 INST=05C0"; tail -n +31 "$FST_FIXTURES/hercules-3.13/bc_noregs.log"; } > "$T/odd.log"
fst-capture --from-log="$T/odd.log" -o "$T/odd.trace" 2> "$T/odd.err"
grep -q "line 31: 1 lines were neither\|1 lines were neither trace nor Hercules messages (first, line 31: 'this is not Hercules')" "$T/odd.err" \
    && ok "unknown line reported with its line number" || fail "unknown line reported with its line number" "$(cat "$T/odd.err")"
grep -q "line 32: 1 trace line could not be read" "$T/odd.err" \
    && ok "malformed PSW line reported with its line number" || fail "malformed PSW line reported with its line number" "$(cat "$T/odd.err")"
fst-dump --summary "$T/odd.trace" > "$T/d"
expect_eq "unknown and malformed counted in the footer" "1 1" \
    "$(dumpval footer.log-lines-not-understood "$T/d") $(dumpval footer.log-lines-malformed "$T/d")"

# a log on stdin, in small pieces (lines split across reads)
fst-capture -q --from-log=- -o "$T/pipe.trace" < <(while IFS= read -r l; do printf '%s\n' "$l"; done < "$FST_FIXTURES/hercules-4.9/z_traditional.log" | dd bs=7 status=none)
expect_eq "a log piped on stdin" "36" "$(fst-dump --summary "$T/pipe.trace" | dumpval count.insn /dev/stdin)"
expect_fail "stdin needs -o" 2 "say where the trace goes" fst-capture --from-log=- < /dev/null
expect_fail "missing log" 2 "nothere.log: cannot open" fst-capture --from-log="$T/nothere.log" -o "$T/x.trace"

# --follow: a log that Hercules is still writing is read as it grows, to the disabled wait
: > "$T/grow.log"
( while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.002; done < "$FST_FIXTURES/hercules-3.13/bc_noregs.log" >> "$T/grow.log" ) &
fst-capture -q --follow --timeout=30 --from-log="$T/grow.log" -o "$T/grow.trace"
wait
fst-dump --summary "$T/grow.trace" > "$T/d"
expect_eq "--follow: the whole program, ended by its disabled wait" "28 disabled-wait 1" \
    "$(dumpval count.insn "$T/d") $(dumpval footer.end "$T/d") $(dumpval complete "$T/d")"
# ... and stops after --timeout seconds without a new line
: > "$T/idle.log"
( sleep 0.3; head -50 "$FST_FIXTURES/hercules-3.13/bc_noregs.log" >> "$T/idle.log" ) &
fst-capture -q --follow --timeout=2 --from-log="$T/idle.log" -o "$T/idle.trace"
wait
fst-dump --summary "$T/idle.trace" > "$T/d"
expect_eq "--follow --timeout: what was written, ended by idle" "5 idle" \
    "$(dumpval count.insn "$T/d") $(dumpval footer.end "$T/d")"
expect_fail "--follow needs a file" 2 "--follow goes with --from-log=FILE" fst-capture --follow --from-log=- -o "$T/x.trace"
