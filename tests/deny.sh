#!/bin/sh
# Runs every unit-test binary (t_cli, the CLI suite, among them) and a short TUI pass
# (tests/tui/quick.sh) once per denied CPU feature (ACCELSCOPE_DENY, src/cpu.h), so the
# fallbacks behind each crypto extension run on this machine too: a denied implementation must
# say why, and whatever replaces it must still give the right answers. The TUI must show the
# feature as denied (◐) where the CPU has it, as absent (✘) where it does not.
# Usage: tests/deny.sh [BUILD_DIR] [FEATURE...]
#   default BUILD_DIR build/native; default features aesni pclmulqdq sha vaes vpclmulqdq avx
#   avx2 avx512f avx512bw ssse3 rdrand. Prints one line per (feature, binary) and, last, "N passed, N failed" over
#   all of them (the format tests/run.sh adds up); exits 1 on any failure.
set -u
build=${1:-build/native}
[ $# -gt 0 ] && shift
features=${*:-aesni pclmulqdq sha vaes vpclmulqdq avx avx2 avx512f avx512bw ssse3 rdrand}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. tests/tally.sh
export ACCELSCOPE_BIN="${ACCELSCOPE_BIN:-$build/accelscope}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pass=0 fail=0
# tui_args FEATURE: quick.sh's expectation for the denied feature's label in the strip.
tui_args() {
    line=$(ACCELSCOPE_DENY= "$ACCELSCOPE_BIN" info 2>/dev/null | grep -E "^  [A-Za-z0-9-]+ +$1 +cpu:")
    [ -n "$line" ] || return 0 # not a feature of this architecture's strip
    set -- $line
    case $3 in cpu:yes) echo "~$1" ;; *) echo "-$1" ;; esac
}

for f in $features; do
    for t in "$build"/tests/t_* tests/tui/quick.sh; do
        [ -x "$t" ] || [ "$t" = tests/tui/quick.sh ] || continue
        if [ "$t" = tests/tui/quick.sh ]; then
            # shellcheck disable=SC2046
            ACCELSCOPE_DENY=$f sh "$t" "$ACCELSCOPE_BIN" $(tui_args "$f") >"$out" 2>&1
        else
            ACCELSCOPE_DENY=$f "$t" >"$out" 2>&1
        fi
        rc=$?
        counted=1
        tally_read "$out" || counted=0
        p=$t_pass n=$t_fail
        if [ $counted = 0 ] || [ "$rc" != 0 ]; then
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
