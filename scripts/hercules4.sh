#!/bin/bash
# SDL Hercules 4.9 for the tests, built once per machine from the pinned sources in
# ../shared/hercules-4.9 (hyperion Release_4.9 and its four external packages; the recipe
# of the README there) into a cache outside the checkout:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/fst/hercules-4.9-KEY, KEY from the tarballs' sha256.
# New tarballs make a new KEY, so a new build; the same ones are never built twice.
#
#   scripts/hercules4.sh          build it when it is not there (installing the Debian
#                                 packages the build needs), then print its bin/hercules
#   scripts/hercules4.sh --path   print its bin/hercules when it is built, else nothing
#                                 (exit 1); never builds (tests/run uses this)
#   scripts/hercules4.sh --src    make the headers fst's module is compiled against (the
#                                 same sources configured as the build above, unpacked and
#                                 configured only, no make: about a minute), then print
#                                 their folder: hercules-4.9-src-KEY (hyperion/*.h with its
#                                 config.h, ext/include, vers: the version's -D flags)
#   scripts/hercules4.sh --src-path  print that folder when it is there, else exit 1 (the
#                                 GNUmakefile uses this)
#
# FST_HERCULES4_SRC names another folder of sources, FST_CACHE another cache. Nothing of it
# goes into the repository. A failed build leaves no half-built Hercules behind (the cache
# holds one only with its .fst-built stamp) and its log in the cache.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SRC=${FST_HERCULES4_SRC:-$root/../shared/hercules-4.9}
CACHE=${FST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fst}
PARTS="hyperion crypto decNumber SoftFloat telnet"
mode=${1:-build}

for p in $PARTS; do
    if [ ! -r "$SRC/$p.tar.xz" ]; then
        [ "$mode" = --path ] && exit 1
        echo "hercules4: no $SRC/$p.tar.xz: no SDL Hercules 4.9 for the tests (its tests will skip)" >&2
        exit 0
    fi
done
KEY=$(cd "$SRC" && for p in $PARTS; do sha256sum "$p.tar.xz"; done | sha256sum | cut -c1-16)
PREFIX=$CACHE/hercules-4.9-$KEY
HDRS=$CACHE/hercules-4.9-src-$KEY

# keep_headers WORK: what a module needs of a configured tree (WORK/src/hyperion, WORK/ext)
keep_headers() {
    local w=$1 v
    rm -rf "$HDRS.tmp" && mkdir -p "$HDRS.tmp/hyperion" "$HDRS.tmp/ext"
    cp "$w"/src/hyperion/*.h "$HDRS.tmp/hyperion/" && cp -r "$w/ext/include" "$HDRS.tmp/ext/" || return 1
    for v in VERS_MAJ VERS_INT VERS_MIN VERS_BLD; do
        printf -- '-D%s=%s ' $v "$(cd "$w/src/hyperion" && ./_dynamic_version . $v)"
    done > "$HDRS.tmp/vers" || return 1
    rm -rf "$HDRS" && mv "$HDRS.tmp" "$HDRS"
}
case "$mode" in
--src-path)
    [ -r "$HDRS/vers" ] && echo "$HDRS" && exit 0
    exit 1 ;;
--src)
    [ -r "$HDRS/vers" ] && echo "$HDRS" && exit 0 ;;
esac
if [ "$mode" != --src ] && [ -f "$PREFIX/.fst-built" ] && [ -x "$PREFIX/bin/hercules" ]; then
    echo "$PREFIX/bin/hercules"
    exit 0
fi
[ "$mode" = --path ] && exit 1

# the build's Debian packages, those missing only (as scripts/deps.sh)
PKGS="autoconf automake libtool libtool-bin cmake libbz2-dev zlib1g-dev flex gawk m4 perl
      libltdl-dev libcap-dev make gcc xz-utils util-linux"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "hercules4: installing$missing" >&2
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends $missing > /dev/null
fi

mkdir -p "$CACHE"
# one build at a time (two checkouts running deps.sh together): the second waits, then
# finds the first one's build
exec 9> "$CACHE/hercules-4.9-$KEY.lock"
flock 9
if [ "$mode" = --src ] && [ -r "$HDRS/vers" ]; then
    echo "$HDRS"
    exit 0
fi
if [ "$mode" != --src ] && [ -f "$PREFIX/.fst-built" ] && [ -x "$PREFIX/bin/hercules" ]; then
    echo "$PREFIX/bin/hercules"
    exit 0
fi

start=$(date +%s)
work=$CACHE/build-4.9-$KEY
log=$CACHE/hercules-4.9-$KEY.log
if [ "$mode" = --src ]; then
    work=$CACHE/src-4.9-$KEY
    log=$CACHE/hercules-4.9-src-$KEY.log
    echo "hercules4: configuring SDL Hercules 4.9 sources for fst's module into $HDRS (once; log: $log)" >&2
else
    echo "hercules4: building SDL Hercules 4.9 into $PREFIX (once per machine, some minutes; log: $log)" >&2
fi
rm -rf "$work"
[ "$mode" = --src ] || rm -rf "$PREFIX"
mkdir -p "$work/src" "$work/ext"
jobs=$(nproc 2> /dev/null || echo 2)
fail() {
    echo "hercules4: the build failed ($1); the end of $log:" >&2
    tail -25 "$log" >&2
    exit 1
}
: > "$log"
for p in $PARTS; do tar xJf "$SRC/$p.tar.xz" -C "$work/src" || fail "unpacking $p.tar.xz"; done
for p in crypto decNumber SoftFloat telnet; do
    mkdir -p "$work/$p"
    (cd "$work/$p" && bash "$work/src/$p/build" --pkgname . --arch 64 --config Release \
        --install "$work/ext") >> "$log" 2>&1 || fail "external package $p"
done
(cd "$work/src/hyperion" && sh ./autogen.sh && \
    ./configure --prefix="$PREFIX" --enable-extpkgs="$work/ext" --enable-cckd-bzip2 --enable-het-bzip2) \
    >> "$log" 2>&1 || fail "hyperion's configure"
keep_headers "$work" || fail "keeping the configured headers"
if [ "$mode" = --src ]; then
    rm -rf "$work"
    echo "$HDRS"
    exit 0
fi
(cd "$work/src/hyperion" && make -j"$jobs" && make install) >> "$log" 2>&1 || fail "hyperion"
banner=$("$PREFIX/bin/hercules" --help=version < /dev/null 2>&1 | grep -Eo -m1 'Hercules [Vv]ersion [0-9][^ ]*' || true)
case "$banner" in
    *" 4.9."*) ;;
    *) fail "the built hercules says '$banner', not version 4.9" ;;
esac
echo "$banner" > "$PREFIX/.fst-built"
rm -rf "$work"
echo "hercules4: built in $(( $(date +%s) - start )) s: $banner" >&2
echo "$PREFIX/bin/hercules"
