#!/bin/bash
# Hercules 3.13's source, configured as Debian's `hercules` 3.13 binary was, for building
# fst's module (capture/module/: loaded into that binary with LDMOD). Only config.h and the
# headers are used: nothing of Hercules is compiled. From the pinned copy of Debian's
# source package in ../shared/hercules-3.13 (orig tarball and .dsc; checked against the
# .dsc's SHA-256), else `apt-get source hercules=3.13-7` when a deb-src entry answers, into
#   ${XDG_CACHE_HOME:-$HOME/.cache}/fst/hercules-3.13-src-KEY   (KEY: the tarball's sha256)
#
#   scripts/hercules313.sh          unpack and configure when not there; print the folder
#   scripts/hercules313.sh --path   print the folder when it is ready, else nothing (exit 1)
# Without the pinned copy, a folder configured earlier (by the apt-get route) serves both.
#
# FST_HERCULES313_SRC names another folder holding the orig tarball, FST_CACHE another cache.
# The configure options are those the installed binary's banner says (Build information:
# Debian, BZIP2 on, 8 CPU engines): --enable-custom=Debian --enable-cckd-bzip2
# --enable-het-bzip2 (../shared/notes/hercules-module.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SRC=${FST_HERCULES313_SRC:-$root/../shared/hercules-3.13}
CACHE=${FST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fst}
TARBALL=hercules_3.13.orig.tar.gz
mode=${1:-build}

tmpd=""
cleanup() { [ -z "$tmpd" ] || rm -rf "$tmpd"; }
trap cleanup EXIT
if [ ! -r "$SRC/$TARBALL" ]; then
    # no pinned copy: the folder an earlier run configured (from apt-get source) serves, in
    # either mode (make asks --path; without this the apt-get route never built the module)
    for d in "$CACHE"/hercules-3.13-src-*; do
        if [ -f "$d/.fst-configured" ] && [ -r "$d/config.h" ]; then
            echo "$d"
            exit 0
        fi
    done
    [ "$mode" = --path ] && exit 1
    tmpd=$(mktemp -d)
    if ! (cd "$tmpd" && apt-get source --download-only hercules=3.13-7 >/dev/null 2>&1) || [ ! -r "$tmpd/$TARBALL" ]; then
        echo "hercules313: no $SRC/$TARBALL and apt-get source hercules failed (add a deb-src entry for" \
             "Debian's archive): no module for Hercules 3.13 (its tests will skip)" >&2
        exit 0
    fi
    SRC=$tmpd
fi
KEY=$(sha256sum "$SRC/$TARBALL" | cut -c1-16)
DIR=$CACHE/hercules-3.13-src-$KEY
if [ -f "$DIR/.fst-configured" ] && [ -r "$DIR/config.h" ]; then
    echo "$DIR"
    exit 0
fi
[ "$mode" = --path ] && exit 1
if [ -r "$SRC/hercules_3.13-7.dsc" ] && ! grep -q "$(sha256sum "$SRC/$TARBALL" | cut -d' ' -f1)" "$SRC/hercules_3.13-7.dsc"; then
    echo "hercules313: $SRC/$TARBALL does not match the SHA-256 its .dsc lists" >&2
    exit 1
fi
mkdir -p "$CACHE"
exec 9> "$DIR.lock"
flock 9
if [ -f "$DIR/.fst-configured" ] && [ -r "$DIR/config.h" ]; then
    echo "$DIR"
    exit 0
fi
rm -rf "$DIR" "$DIR.tmp"
mkdir -p "$DIR.tmp"
tar -xzf "$SRC/$TARBALL" -C "$DIR.tmp" --strip-components=1
if ! (cd "$DIR.tmp" && ./configure --enable-custom=Debian --enable-cckd-bzip2 --enable-het-bzip2) > "$DIR.log" 2>&1; then
    echo "hercules313: configure failed, see $DIR.log" >&2
    exit 1
fi
touch "$DIR.tmp/.fst-configured"
mv "$DIR.tmp" "$DIR"
echo "$DIR"
