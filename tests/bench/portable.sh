#!/bin/sh
# Builds and runs tests/bench/portable_bench: the portable C path against OpenSSL's hw path,
# side by side in one process (ratios, medians of alternating repeats).
#   sh tests/bench/portable.sh [BUILD_DIR] [bench args...]    (default BUILD_DIR build/native)
# The library comes from `make BUILD=$BUILD`; the flags below mirror the Makefile's.
set -e
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
make --no-print-directory -s BUILD="$BUILD" "$BUILD/libaccelscope.a"
PKGS="libcrypto ncursesw"
for p in libcpuid libkcapi; do
    if pkg-config --exists "$p" 2>/dev/null; then PKGS="$PKGS $p"; fi
done
mkdir -p "$BUILD/bench"
${CC:-cc} -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
    -D_GNU_SOURCE -iquote src -iquote backends -iquote asm ${CFLAGS:--O2 -g} $(pkg-config --cflags $PKGS) \
    -o "$BUILD/bench/portable_bench" tests/bench/portable_bench.c "$BUILD/libaccelscope.a" \
    $(pkg-config --libs $PKGS) -lpthread -lm
exec "$BUILD/bench/portable_bench" "$@"
