#!/bin/sh
# The stitched GCM kernels of this tree against those of an earlier commit, timed alternately
# in one process (tests/bench/gcm_kernels_bench.c): the old asm/x86_64/aes-gcm-*.S are taken
# from git with their symbols renamed direct_ -> ref_, so they never reach the shipped binary.
#   sh tests/bench/gcm_kernels.sh [REF_COMMIT] [bench args...]   (default ref: HEAD)
# With the tree at REF, both sides are the same code in two places: on the Zen 4 VM four
# runs so read 0.984-1.028 (2026-12-06), a floor under which a ratio shows nothing.
set -e
cd "$(dirname "$0")/../.."
case $(uname -m) in
x86_64) ;;
*) echo "UNAVAILABLE: the stitched GCM kernels are x86-64 code, this is $(uname -m)"; exit 0 ;;
esac
ref=${1:-HEAD}
[ $# -gt 0 ] && shift
git rev-parse --verify -q "$ref^{commit}" >/dev/null ||
    { echo "gcm_kernels.sh: no such commit: $ref (the first argument is the reference)" >&2; exit 2; }
BUILD=build/native
make --no-print-directory -s "$BUILD/libaccelscope.a"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the old kernels with the old shared macros (#include "..." looks beside the .S first); a
# kernel the reference commit does not have is left out (its row says so)
git show "$ref:asm/x86_64/vaes-common.inc" >"$work/vaes-common.inc" 2>/dev/null || rm -f "$work/vaes-common.inc"
flags="-std=gnu11 -O2 -D_GNU_SOURCE -iquote src -iquote backends -iquote asm -iquote tests"
objs=
for f in aes-gcm-aesni aes-gcm-vaes aes-gcm-vaes512 aes-gcm-vaes-vl aes-gcm-aesni-vl aes-gcm-aesni-vlk; do
    git show "$ref:asm/x86_64/$f.S" 2>/dev/null | sed 's/direct_aes_gcm_/ref_aes_gcm_/g; s/direct_ghash1/ref_ghash1/g' >"$work/$f.S"
    if [ -s "$work/$f.S" ]; then
        cc $flags -c -o "$work/$f.o" "$work/$f.S"
        objs="$objs $work/$f.o"
    fi
done
cc $flags -o "$work/gcm_kernels_bench" tests/bench/gcm_kernels_bench.c $objs \
    "$BUILD/libaccelscope.a" $(make --no-print-directory -s print-libs)
"$work/gcm_kernels_bench" "$@"
