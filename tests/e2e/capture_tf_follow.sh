# The trace-file reader fed as Hercules feeds it during a live 4.x capture: a writer
# process replays a real tf file of fixtures/hercules-4.9/tf (Hercules' own bytes, not a
# model of Hercules) in small pieces that split records, with pauses, into a FIFO and onto
# the end of a growing file. The trace must equal, record for record, the one --from-tf
# makes from the whole file: the reader waits at a partial record instead of calling it a
# cut. A writer killed inside a record leaves the records before it, marked incomplete.
. "$(dirname "$0")/../lib.sh"

TF=$FST_FIXTURES/hercules-4.9/tf
dumpval() { sed -n "s/^$1=//p" "$2"; }
records() { fst-dump "$1" | grep -v '^header\.\|^frames\.\|^footer\.\|^time \|^count\.time=\|^complete\|^incomplete'; }
# replay FILE BYTES PAUSE [LIMIT]: the first LIMIT bytes of FILE (all) in BYTES-byte pieces
replay() {
    local f=$1 bs=$2 pause=$3 lim=${4:-$(stat -c %s "$1")} off=0 n
    while [ "$off" -lt "$lim" ]; do
        n=$((lim - off < bs ? lim - off : bs))
        dd if="$f" bs="$n" count=1 skip="$off" iflag=skip_bytes status=none
        off=$((off + n)); sleep "$pause"
    done
}
same() {   # NAME TRACE REFERENCE
    records "$2" > "$T/a"; records "$3" > "$T/b"
    if [ -s "$T/b" ] && cmp -s "$T/a" "$T/b"; then ok "$1"; else fail "$1" "$(diff "$T/a" "$T/b" | head -5)"; fi
}

for name in bigloop_n100 mp2 zarch; do
    fst-capture -q --from-tf="$TF/$name.tf" --image="$TF/$name.ins" -o "$T/$name.whole.trace"
    size=$(stat -c %s "$TF/$name.tf")
    bs=$((size / 40 + 1)); [ $((bs % 8)) -eq 0 ] && bs=$((bs + 3))   # never a record boundary by design
    # through a FIFO, read as it comes (fst-capture opens it first, as in a live capture)
    rm -f "$T/fifo"; mkfifo "$T/fifo"
    fst-capture -q --from-tf="$T/fifo" --image="$TF/$name.ins" -o "$T/$name.fifo.trace" 2> "$T/err" &
    cap=$!
    replay "$TF/$name.tf" "$bs" 0.02 > "$T/fifo"
    wait "$cap"; rc=$?
    expect_eq "$name: through a FIFO in $bs-byte pieces: exit 0, complete" "0 1" \
        "$rc $(fst-dump --summary "$T/$name.fifo.trace" | dumpval complete /dev/stdin)"
    same "$name: through a FIFO: the trace of the whole file, record for record" "$T/$name.fifo.trace" "$T/$name.whole.trace"
    # onto the end of a growing file, followed. mp2 too: its CP01 loads its disabled wait
    # before CP00, which is not the program's end (capture/read/progend.h)
    : > "$T/grow.tf"
    replay "$TF/$name.tf" "$bs" 0.02 >> "$T/grow.tf" &
    fst-capture -q --follow --timeout=20 --from-tf="$T/grow.tf" --image="$TF/$name.ins" -o "$T/$name.grow.trace"
    wait
    fst-dump --summary "$T/$name.grow.trace" > "$T/d"
    expect_eq "$name: a growing file, followed: complete, ended by its disabled wait" "1 disabled-wait" \
        "$(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
    same "$name: a growing file, followed: the trace of the whole file, record for record" "$T/$name.grow.trace" "$T/$name.whole.trace"
done

# The writer killed inside a record (esapc: the record at byte 4944 is cut at 5000): the
# ten instructions before it, the trace incomplete and saying where.
fst-capture -q --from-tf="$TF/esapc.tf" -o "$T/esapc.whole.trace"
records "$T/esapc.whole.trace" | grep '^insn' | head -10 > "$T/first10"
rm -f "$T/fifo"; mkfifo "$T/fifo"
fst-capture --from-tf="$T/fifo" -o "$T/killed.trace" 2> "$T/err" &
cap=$!
( replay "$TF/esapc.tf" 700 0.01 5000; exec sleep 60 ) > "$T/fifo" &
writer=$!
for _ in $(seq 100); do grep -q sleep "/proc/$writer/cmdline" 2> /dev/null && break; sleep 0.1; done
sleep 0.3
kill -0 "$cap" 2> /dev/null && ok "FIFO: the reader waits at the partial record while the writer lives" \
    || fail "FIFO: the reader waits at the partial record while the writer lives" "$(cat "$T/err")"
kill -9 "$writer"; wait "$writer" 2> /dev/null
wait "$cap"; rc=$?
fst-dump --summary "$T/killed.trace" > "$T/d"
expect_eq "FIFO, writer killed mid-record: exit 0, 10 instructions, incomplete, cut-short" "0 10 0 cut-short" \
    "$rc $(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
grep -q "cut short inside a record at byte 4944" "$T/err" && ok "FIFO, writer killed: the warning names the byte" \
    || fail "FIFO, writer killed: the warning names the byte" "$(cat "$T/err")"
records "$T/killed.trace" | grep '^insn' > "$T/a"
cmp -s "$T/a" "$T/first10" && ok "FIFO, writer killed: the first 10 instructions of the whole file" \
    || fail "FIFO, writer killed: the first 10 instructions of the whole file" "$(diff "$T/a" "$T/first10" | head -5)"
# the same on a growing file: --follow gives up after --timeout seconds without a byte
: > "$T/grow.tf"
replay "$TF/esapc.tf" 700 0.01 5000 >> "$T/grow.tf"
fst-capture --follow --timeout=2 --from-tf="$T/grow.tf" -o "$T/killed2.trace" 2> "$T/err"; rc=$?
fst-dump --summary "$T/killed2.trace" > "$T/d"
expect_eq "growing file, writer gone mid-record: exit 0, 10 instructions, incomplete, cut-short" "0 10 0 cut-short" \
    "$rc $(dumpval count.insn "$T/d") $(dumpval complete "$T/d") $(dumpval footer.end "$T/d")"
records "$T/killed2.trace" | grep '^insn' > "$T/a"
cmp -s "$T/a" "$T/first10" && ok "growing file, writer gone: the first 10 instructions of the whole file" \
    || fail "growing file, writer gone: the first 10 instructions of the whole file" "$(diff "$T/a" "$T/first10" | head -5)"
# ... and gone at a record boundary before the program's end (Hercules killed, its
# header never rewritten): every record, incomplete
: > "$T/grow.tf"
replay "$TF/esapc.tf" 700 0.01 4944 >> "$T/grow.tf"
fst-capture -q --follow --timeout=2 --from-tf="$T/grow.tf" -o "$T/killed3.trace" 2> "$T/err"
fst-dump --summary "$T/killed3.trace" > "$T/d"
expect_eq "growing file, writer gone at a record boundary: 10 instructions, incomplete" "10 0" \
    "$(dumpval count.insn "$T/d") $(dumpval complete "$T/d")"
exit 0
