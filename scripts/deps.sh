#!/bin/sh
# Install what fst needs to build and test, from Debian packages. Idempotent: it installs
# only what is missing, so running it on a machine that has everything costs a second.
# Then the tests' SDL Hercules 4.9 (scripts/hercules4.sh: built once per machine from
# ../shared/hercules-4.9 into a cache outside the checkout, some minutes the first time);
# `scripts/deps.sh --no-hercules4` (make demo) leaves it out.
set -e
cd "$(dirname "$0")/.."
# gcc-s390x-linux-gnu and lib32gcc-12-dev-s390x-cross (its 31-bit libgcc, for -m31) build
# the C test programs (tests/cprogs); valgrind runs their x86-64 builds under callgrind;
# help2man makes the man pages from each command's --help; chromium renders the SVG
# flame graph in tests/e2e/svg.sh; clang and libclang-rt-14-dev (its ASan/UBSan/libFuzzer
# runtimes): the second sanitizer build of `make check` (clang-unit) and `make fuzz`;
# libdw-dev: elfutils' libdw, which reads the DWARF line tables of --lines=PROG.elf;
# libbz2-dev: Hercules 3.13 configured as Debian built it (BZIP2 on), for the module;
# libdeflate-dev: the traces' CRC-32s at tens of GB/s (trace/tracebin_int.h fst_tb_crc32)
PKGS="hercules binutils-s390x-linux-gnu python3 libpcre2-dev libcsv-dev zlib1g-dev libdeflate-dev libzstd-dev libdw-dev pkg-config libcmocka-dev make gcc valgrind
      gcc-s390x-linux-gnu lib32gcc-12-dev-s390x-cross help2man chromium clang libclang-rt-14-dev libbz2-dev"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "deps: installing$missing" >&2
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# Hercules 3.13's source, configured as Debian's build: the module (capture/module/) is
# compiled against it (scripts/hercules313.sh: from ../shared/hercules-3.13, else apt-get source)
scripts/hercules313.sh > /dev/null
# and the 4.9 sources configured the same way for the module's 4.x build (lib/fst-hercules4.so)
[ "${1:-}" = --no-hercules4 ] || { scripts/hercules4.sh > /dev/null && scripts/hercules4.sh --src > /dev/null; }
