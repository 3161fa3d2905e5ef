# tests/e2e/layers.sh — the folders of isa/ and analyze/ call only the folders below them
# (analyze/README.md, isa/README.md): every #include of a source or header is checked
# against its folder's list, nothing below analyze/ includes it, the private headers
# (replay_int.h, clock_int.h) stay in their folders, and analyze/ holds no file outside a
# concern's folder. A call needs a declaration, so the includes are the dependencies.
# The checker is also run on a copy with one include that reaches up: it must name it.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

# folder: the folders its files may include (itself always)
RULES='isa: common trace
analyze/tasks: common
analyze/cost: common isa
analyze/profile: common trace isa model analyze/tasks analyze/cost
analyze/replay: common trace isa model analyze/tasks analyze/cost analyze/profile
analyze/diff: common trace isa model analyze/tasks analyze/cost analyze/profile analyze/replay
common: common
trace: common trace
model: common trace isa model'

# violations of ROOT, one line each: FILE includes HEADER
check_tree() {
    local root=$1 folder allowed f inc d ok
    while IFS=: read -r folder allowed; do
        [ -d "$root/$folder" ] || { echo "$folder: no such folder"; continue; }
        for f in "$root/$folder"/*.[ch]; do
            [ -e "$f" ] || continue
            sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
                d=$(dirname "$inc")
                [ "$d" = . ] && continue            # beside the file
                ok=0
                for a in "$folder" $allowed; do [ "$d" = "$a" ] && ok=1; done
                [ $ok = 1 ] || echo "${f#"$root"/} includes $inc"
            done
        done
    done <<< "$RULES"
    # capture/ is below analyze/ too (it makes trace files; nothing there reads a profile)
    grep -rl --include='*.[ch]' '#[[:space:]]*include[[:space:]]*"analyze/' "$root/capture" 2> /dev/null |
        sed "s#^$root/##; s#\$# includes analyze/#"
    # the private headers, only in their folders
    grep -rl --include='*.[ch]' '#[[:space:]]*include[[:space:]]*"analyze/replay/replay_int.h"' "$root" 2> /dev/null |
        grep -v "^$root/analyze/replay/" | sed "s#^$root/##; s#\$# includes replay_int.h#"
    grep -rl --include='*.[ch]' '#[[:space:]]*include[[:space:]]*"analyze/cost/clock_int.h"' "$root" 2> /dev/null |
        grep -v "^$root/analyze/cost/" | sed "s#^$root/##; s#\$# includes clock_int.h#"
    # every file of analyze/ belongs to a concern's folder
    for f in "$root"/analyze/*.[ch]; do [ -e "$f" ] && echo "${f#"$root"/}: not in a concern's folder"; done
    return 0
}

got=$(check_tree "$FST_ROOT")
expect_eq "isa/, analyze/*/, common/, trace/, model/, capture/: every include within the layers" "" "$got"

# the checker finds what it is for: a copy where the cost model includes the replay's
# header, the profile includes the private header, and a file left flat in analyze/
mkdir -p bad && cp -r "$FST_ROOT/isa" "$FST_ROOT/analyze" "$FST_ROOT/common" "$FST_ROOT/trace" \
    "$FST_ROOT/model" "$FST_ROOT/capture" bad/
sed -i '0,/^#include/s|^#include|#include "analyze/replay/replay.h"\n&|' bad/analyze/cost/clock.c
sed -i '0,/^#include/s|^#include|#include "analyze/replay/replay_int.h"\n&|' bad/analyze/profile/routines.c
touch bad/analyze/stray.c
got=$(check_tree "$T/bad" | sort)
expect_eq "the checker names an include that reaches up, a private header used outside, a flat file" \
    "analyze/cost/clock.c includes analyze/replay/replay.h
analyze/profile/routines.c includes analyze/replay/replay_int.h
analyze/profile/routines.c includes replay_int.h
analyze/stray.c: not in a concern's folder" "$got"
