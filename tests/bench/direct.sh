#!/bin/sh
# The direct backend (asm/x86_64 kernels) against OpenSSL's hw path at 16384 bytes, side by
# side in one process, and each path's distance from the silicon's ceiling (src/silicon.h).
#   sh tests/bench/direct.sh [BUILD_DIR] [direct_bench args...]   (default build/native)
# The Makefile's tests rule builds it, so it gets the project's flags and libraries.
set -e
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/direct_bench"
exec "$BUILD/tests/bench/direct_bench" "$@"
