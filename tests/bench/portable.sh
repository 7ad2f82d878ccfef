#!/bin/sh
# Builds and runs tests/bench/portable_bench: the portable C path against OpenSSL's hw path,
# side by side in one process (ratios, medians of alternating repeats).
#   sh tests/bench/portable.sh [BUILD_DIR] [bench args...]    (default BUILD_DIR build/native)
# The Makefile's tests rule builds it, so it gets the project's flags and libraries.
set -e
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/portable_bench"
exec "$BUILD/tests/bench/portable_bench" "$@"
