#!/bin/sh
# Install what fst needs to build and test, from Debian packages. Idempotent: it installs
# only what is missing, so running it on a machine that has everything costs a second.
set -e
PKGS="hercules binutils-s390x-linux-gnu libpcre2-dev libcsv-dev zlib1g-dev pkg-config libcmocka-dev make gcc valgrind"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
