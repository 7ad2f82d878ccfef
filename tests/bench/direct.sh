#!/bin/sh
# The direct backend (asm/x86_64 kernels) against OpenSSL's hw path at 16384 bytes, side by
# side in one process, and each path's distance from the silicon's ceiling (src/silicon.h).
#   sh tests/bench/direct.sh [BUILD_DIR] [direct_bench args...]   (default build/native)
# The Makefile's tests rule builds it, so it gets the project's flags and libraries.
# ACCELSCOPE_DIRECT_RUNS=N (default 1): N fresh processes one after another, and each judged
# figure (a ratio, a share of the ceiling) judged on its median over them, every process's
# figure beside it. One process judges the host's state in its own minute: on the Sapphire
# Rapids VM (2026-12-07, every slice calm) the zmm AES-128-GCM encryption share read 78.7 and
# 81.3 % in one process, 80.7 and 81.6 % in the next, 83.6 and 84.8 % in the one after.
# Exit 1 when a judged figure misses its target (or, over N, a process did not give it); 3
# (one process) when a job went without its figure; 2 on a bad argument.
set -e
cd "$(dirname "$0")/../.."
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/direct_bench"
[ "${ACCELSCOPE_DIRECT_RUNS:-1}" = 1 ] && exec "$BUILD/tests/bench/direct_bench" "$@"
. tests/bench/lib/median_runs.sh
median_runs ACCELSCOPE_DIRECT_RUNS 1 "$BUILD/tests/bench/direct_bench" "$@"
