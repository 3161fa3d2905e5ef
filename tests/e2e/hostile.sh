# Hostile inputs and outputs (issue 12, items 4, 5, 7, 8, 11): inputs without bounds, an
# output that is an input, writes that fail, names that break formats, odd STATIN decks and
# --exclude names, addresses far apart in a histogram. Every command ends with a clear
# error that names the file, or does the right thing; none grows without end or crashes.
. "$(dirname "$0")/../lib.sh"

# fortg (MAIN calls SUBA and SUBB, SUBB calls SUBA) once with its storage image, once from
# its log without one, so that a map names the routines whatever the names are
fst-capture -q --keep-log="$T/fortg.log" -o "$T/img.trace" "$FST_PROGS/fortg.ins"
fst-capture -q --from-log="$T/fortg.log" -o "$T/f.trace"
fst-map --trace="$T/img.trace" > "$T/m.csv"
head -c 3000000 /dev/zero | tr '\0' x > "$T/nonl"       # 3 MB without a newline

# ---- item 4: no input grows memory without end or spins; the error names the file ----
MB=400  # well above what a bounded read needs (sanitizer build included), well below 0.5 GB/s for a few s
expect_bounded "--from-log=/dev/zero: a line too long for a log" $MB 20 2 \
    "/dev/zero: line 1: a line longer than 65536 bytes: not a Hercules log" \
    fst-capture -q --from-log=/dev/zero -o "$T/z.trace"
[ ! -e "$T/z.trace" ] && ok "--from-log=/dev/zero: no trace left behind" || fail "--from-log=/dev/zero: no trace left behind"
expect_bounded "--from-log of a file without newlines" $MB 20 2 "nonl: line 1: a line longer than" \
    fst-capture -q --from-log="$T/nonl" -o "$T/z.trace"
expect_bounded "fst-map /dev/zero: too large for a map" $MB 20 2 "/dev/zero: more than 64 MiB: too large for a map" \
    fst-map /dev/zero
expect_bounded "--map=/dev/zero" $MB 20 2 "/dev/zero: more than 64 MiB: too large for a map" \
    fst-report --map=/dev/zero "$T/f.trace"
expect_bounded "--clock=model:/dev/zero" $MB 20 2 "/dev/zero:1: a line longer than 4096 bytes: not a cost table" \
    fst-report --clock=model:/dev/zero "$T/f.trace"
expect_bounded "--clock=model: a file without newlines" $MB 20 2 "nonl:1: a line longer than .*cost table" \
    fst-report --clock=model:"$T/nonl" "$T/f.trace"
expect_bounded "--statin=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than 4096 bytes: not a STATIN deck" \
    fst-report --statin=/dev/zero "$T/f.trace"
expect_bounded "--image=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than .*IPL list" \
    fst-capture -q --from-log="$T/fortg.log" --image=/dev/zero -o "$T/z.trace"
expect_bounded "fst-map --image=/dev/zero ends" $MB 20 2 "/dev/zero:1: a line longer than .*IPL list" \
    fst-map --image=/dev/zero
expect_bounded "fst-diff: a csv side from /dev/zero" $MB 20 2 "/dev/zero:1: a line longer than .*csv report" \
    fst-diff /dev/zero "$T/f.trace"
expect_bounded "fst-diff: a csv side without newlines" $MB 20 2 "nonl:1: a line longer than .*csv report" \
    fst-diff "$T/nonl" "$T/f.trace"
expect_bounded "fst-diff --batch=/dev/zero" $MB 20 2 "/dev/zero:1: a line longer than .*batch manifest" \
    fst-diff --batch=/dev/zero
rm -f "$T/fifo" && mkfifo "$T/fifo"
expect_bounded "--follow a FIFO nobody writes: --timeout ends it" $MB 15 2 "fifo: no traced instructions" \
    fst-capture --follow --timeout=1 --from-log="$T/fifo" -o "$T/fifo.trace"
expect_fail "--statin=FOLDER is an error, not an empty deck" 2 "a folder, not a STATIN deck" \
    fst-report --statin="$T" "$T/f.trace"

# ---- item 11: STATIN names longer than 8; --exclude of a name two routines have ----
printf 'main\nSUBROUTINEX\n' > "$T/deck"
fst-report --statin="$T/deck" --map="$T/m.csv" "$T/img.trace" > /dev/null 2> "$T/err"
grep -q "deck:2: 'SUBROUTINEX' has more than 8 characters: read as 'SUBROUTI'" "$T/err" \
    && ok "--statin: a name longer than 8 characters is cut, and said so" || fail "--statin: a name longer than 8" "$(cat "$T/err")"
printf 'name,type,origin,length\n,MODULE,0,\nMAIN,SD,20020,50\nDUP,SD,20070,40\nDUP,SD,200B0,4C0\n' > "$T/dup.csv"
fst-report --load-point=0 --timed=all --map="$T/dup.csv" --exclude=DUP --format=csv "$T/f.trace" > "$T/dup.rep" 2> "$T/err"
expect_eq "--exclude=DUP excludes both routines of that name" "0 0 250" \
    "$(awk -F, '$1 == "DUP" { printf "%s ", $4 } $1 == "(excluded)" { print $4 }' "$T/dup.rep")"
grep -q -- "--exclude=DUP: 2 routines have that name (at 20070, 200B0)" "$T/err" && ok "... and says which" \
    || fail "... and says which" "$(cat "$T/err")"

