# KCachegrind shows fst's annotated listing (issue 16, Done when): the callgrind file of
# `make demo` (bigloop) opened in KCachegrind under Xvfb, its hottest routine TICK
# (800 000 of 1 100 017 instructions, bigloop.s) selected in the flat profile, the Source
# Code tab shows the listing written beside the file (FILE.lst, named by fl=): read back
# from a screenshot by OCR (tesseract), the listing's heading, TICK's instructions, no
# "can not be found". Needs kcachegrind, xvfb-run, xdotool, ImageMagick's import,
# tesseract and dbus-run-session (KCachegrind quits without a session bus): skipped,
# saying so, when one is missing (they are not in scripts/deps.sh: KDE is large).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1

missing=""
for c in kcachegrind xvfb-run xdotool import tesseract dbus-run-session; do
    command -v $c > /dev/null || missing="$missing $c"
done
if [ -n "$missing" ]; then
    echo "# skip: KCachegrind check needs:$missing (apt-get install kcachegrind xvfb xdotool imagemagick tesseract-ocr dbus)"
    exit 0
fi

fst-capture -q -o demo.trace "$FST_PROGS/bigloop.ins" || fail "bigloop: capture"
expect_ok "callgrind of the demo, with its listing" fst-report --format=callgrind -o demo.cg demo.trace
[ -f demo.cg.lst ] && ok "the listing is beside it" || fail "the listing is beside it"

# The session: a fresh configuration (no tip of the day), the window at 1400x900, TICK's
# row in the flat profile (sorted by inclusive cost: MAIN, TICK), then the Source Code tab.
mkdir -p cfg run && printf '[TipOfDay]\nRunOnStart=false\n' > cfg/kcachegrindrc
cat > session.sh <<'EOF'
#!/bin/bash
export XDG_CONFIG_HOME=$PWD/cfg XDG_RUNTIME_DIR=$PWD/run
kcachegrind demo.cg > kc.out 2> kc.err &
k=$!
for _ in $(seq 60); do
    w=$(xdotool search --onlyvisible --class kcachegrind 2> /dev/null | tail -1)
    [ -n "$w" ] && break
    sleep 0.5
done
[ -n "$w" ] || { echo "no KCachegrind window" >> kc.err; kill $k; exit 1; }
sleep 2
xdotool windowsize --sync "$w" 1400 900; sleep 1
xdotool mousemove 250 160 click 1; sleep 1        # TICK, the second row of the flat profile
xdotool mousemove 717 99 click 1; sleep 2         # the Source Code tab
import -window root shot.png
kill $k; wait $k 2> /dev/null
exit 0
EOF
chmod +x session.sh
timeout 120 xvfb-run -a -s "-screen 0 1400x900x24" dbus-run-session ./session.sh > session.log 2>&1
if [ ! -s shot.png ]; then
    fail "KCachegrind runs under Xvfb" "$(tail -3 session.log kc.err)"
else
    ok "KCachegrind runs under Xvfb (screenshot $T/shot.png)"
    grep -q 'Selected *"TICK"' kc.out kc.err && ok "TICK, the hottest routine, selected" \
        || fail "TICK, the hottest routine, selected" "$(cat kc.out kc.err)"
    # the source pane, enlarged for OCR
    convert shot.png -crop 1050x360+345+115 -resize 200% -colorspace Gray src.png
    tesseract src.png src > /dev/null 2>&1
    txt=$(tr -s ' ' < src.txt)
    for want in "From '/" "/kcachegrind/" "demo.cg" "EXECUTIONS" "TICK entry 00020068" "STM" "14,12,12(13)" "100000"; do
        case "$txt" in *"$want"*) ok "Source Code tab shows '$want'" ;;
            *) fail "Source Code tab shows '$want'" "OCR of $T/shot.png:" "$(head -12 src.txt)" ;; esac
    done
    case "$txt" in *"can not be found"*|*"cannot be found"*) fail "no 'can not be found' in the source pane" "$(head -5 src.txt)" ;;
        *) ok "no 'can not be found' in the source pane" ;; esac
fi
