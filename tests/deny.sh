#!/bin/sh
# Runs every unit-test binary once per denied CPU feature (ACCELSCOPE_DENY, src/cpu.h), so the
# fallbacks behind each crypto extension run on this machine too: a denied implementation must
# say why, and whatever replaces it must still give the right answers.
# Usage: tests/deny.sh [BUILD_DIR] [FEATURE...]
#   default BUILD_DIR build/native; default features aesni pclmulqdq sha vaes vpclmulqdq avx2
#   ssse3 rdrand. Prints one line per (feature, binary) and, last, "N passed, N failed" over
#   all of them (the format tests/run.sh adds up); exits 1 on any failure.
set -u
build=${1:-build/native}
[ $# -gt 0 ] && shift
features=${*:-aesni pclmulqdq sha vaes vpclmulqdq avx2 ssse3 rdrand}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. tests/tally.sh
export ACCELSCOPE_BIN="${ACCELSCOPE_BIN:-$build/accelscope}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pass=0 fail=0
for f in $features; do
    for t in "$build"/tests/t_*; do
        [ -x "$t" ] || continue
        ACCELSCOPE_DENY=$f "$t" >"$out" 2>&1
        rc=$?
        tally_read "$out" || t_fail=1
        p=$t_pass n=$t_fail
        if [ -z "$t_line" ] || [ "$rc" != 0 ]; then
            [ "$n" = 0 ] && n=1
            echo "FAIL ACCELSCOPE_DENY=$f $(basename "$t"): exit $rc, ${t_line:-no closing line}"
            grep -E '^FAIL' "$out" | head -n 5 | sed 's/^/    /'
        else
            echo "ok   ACCELSCOPE_DENY=$f $(basename "$t"): $t_line"
        fi
        pass=$((pass + p))
        fail=$((fail + n))
    done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
