#!/bin/sh
# Builds and runs tests/bench/pk_portable_bench: the portable public-key code (X25519,
# Ed25519, RSA 1024-4096) against OpenSSL's EVP, side by side in one process (ratios,
# medians of alternating batches). Exit 1 when X25519 is over 3x or RSA-2048 sign over 4x
# slower than OpenSSL (issue 12).
#   sh tests/bench/pk_portable.sh [BUILD_DIR] [-r REPEATS] [-m MS]    (default build/native)
set -e
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/pk_portable_bench"
exec "$BUILD/tests/bench/pk_portable_bench" "$@"
