#!/bin/sh
# Whether accelscope's own CTR and stitched GCM kernels slow down with where their input and
# output lie (tests/bench/layout_bench.c says how it tells a trap from a slow spell). Exits 1
# when a kernel has a layout over 1.15x its median, timed again against a control; 2 when it
# cannot be built or is given a bad argument.
#   sh tests/bench/layout.sh [-n LAYOUTS_PER_CLASS] [-s SEED]
set -e
cd "$(dirname "$0")/../.."
case $(uname -m) in
x86_64) ;;
*) echo "UNAVAILABLE: the kernels timed here are x86-64 code, this is $(uname -m)"; exit 0 ;;
esac
BUILD=build/native
make --no-print-directory -s "$BUILD/libaccelscope.a" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE -iquote src -iquote backends -iquote asm -iquote tests \
    -o "$work/layout_bench" tests/bench/layout_bench.c "$BUILD/libaccelscope.a" \
    $(make --no-print-directory -s print-libs) || exit 2
"$work/layout_bench" "$@"
