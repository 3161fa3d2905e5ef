# The pipe examples of the documentation run as printed (issue 26). Every shell line of
# README.md and docs/*.md — in a ``` fence, in an indented block, or an inline `code` span —
# that pipes one fst command into another is run here, on a real trace, in a folder that
# holds the files it names: each must exit 0 or 1 (fst-diff's "differences"), print no error
# or warning, and not say (on either stream) that something it needs is unknown. The pages are found by
# pattern, never by name: the README is being split into docs/ pages.
. "$(dirname "$0")/../lib.sh"

W=$T/w
rm -rf "$W"
mkdir -p "$W"
fst-capture -q -o "$W/run.trace" "$FST_PROGS/fortg.ins"

# the shell lines of a page: fences, indented blocks, inline spans with a pipe
shell_lines() {
    awk '
    /^ *```/ { fence = !fence; next }
    fence { print; next }
    /^(    |\t)/ { sub(/^[ \t]+/, ""); print; next }
    { while (match($0, /`[^`]*\|[^`]*`/)) { print substr($0, RSTART + 1, RLENGTH - 2); $0 = substr($0, RSTART + RLENGTH) } }
    ' "$1"
}
# a pipe of fst commands only (a line with "..." is a sketch, not a command)
is_fst_pipe() {
    case "$1" in *...*|*'<'*) return 1 ;; *'|'*) ;; *) return 1 ;; esac
    local IFS='|' stage
    for stage in $1; do
        stage=${stage# }
        case "$stage" in fst-*|build/release/bin/fst-*) ;; *) return 1 ;; esac
    done
}
# the files a line reads: made from run.trace (a csv with --meta, as the docs say to make one)
provide() {
    local w prev=
    for w in $1; do
        case "$prev" in -o|'>') prev=$w; continue ;; esac
        case "$w" in
            *.trace) [ -e "$W/$w" ] || cp "$W/run.trace" "$W/$w" ;;
            *.csv) [ -e "$W/$w" ] || fst-report --format=csv --meta "$W/run.trace" > "$W/$w" 2> /dev/null ;;
        esac
        prev=$w
    done
}

pages=$(ls "$FST_ROOT"/README.md "$FST_ROOT"/docs/*.md 2> /dev/null)
n=0
for page in $pages; do
    while IFS= read -r line; do
        line=${line%%#*}
        line=$(printf '%s' "$line" | sed 's/[[:space:]]*$//')
        is_fst_pipe "$line" || continue
        n=$((n + 1))
        provide "${line//|/ }"
        cmd=${line//build\/release\/bin\//}
        (cd "$W" && bash -o pipefail -c "$cmd" > "$W/out" 2> "$W/err")
        rc=$?
        name="${page#"$FST_ROOT"/}: $line"
        if [ "$rc" -gt 1 ]; then fail "$name" "exit $rc" "$(head -3 "$W/err")"
        elif grep -Eq 'error|warning|not known|unknown' "$W/err" "$W/out"; then
            fail "$name" "$(grep -Eh 'error|warning|not known|unknown' "$W/err" "$W/out" | head -3)"
        elif [ ! -s "$W/out" ]; then fail "$name" "no output"
        else ok "$name"; fi
    done < <(shell_lines "$page")
done
if [ "$n" -gt 0 ]; then ok "the pages hold $n pipe example(s) of fst commands"
else fail "the pages hold pipe examples of fst commands" "none found in: $pages"; fi
