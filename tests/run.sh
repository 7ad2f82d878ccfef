#!/bin/sh
# Runs every suite and adds up their closing "N passed, N failed" lines.
# Usage: tests/run.sh BUILD_DIR [SANITIZER_BUILD_DIR]
set -u
native=${1:-build/native}
san=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
. tests/tally.sh
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
# Every `run` keeps its result (store.h): here, never in the user's home.
export XDG_DATA_HOME="$log/xdg"
pass=0 fail=0 broken=""

# suite NAME COMMAND...: runs it, echoes its output, counts its closing line.
suite() {
    name=$1
    shift
    echo "== $name"
    "$@" >"$log/out" 2>&1
    rc=$?
    cat "$log/out"
    if ! tally_read "$log/out"; then
        echo "   ($name printed ${t_line:-no closing line}; exit $rc: counted as 1 failure)"
        fail=$((fail + 1))
        broken="$broken $name"
        return
    fi
    p=$t_pass
    f=$t_fail
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        echo "   ($name exited $rc with no failure counted: counted as 1 failure)"
        fail=$((fail + 1))
    fi
    [ "$f" = 0 ] && [ "$rc" = 0 ] || broken="$broken $name"
}

export ACCELSCOPE_BIN="$native/accelscope"
for t in "$native"/tests/t_*; do
    [ -x "$t" ] && suite "$(basename "$t")" "$t"
done
if [ -n "$san" ]; then
    # Leak checks off: libcrypto keeps its provider tables until exit.
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export ACCELSCOPE_BIN="$san/accelscope"
    for t in "$san"/tests/t_*; do
        [ -x "$t" ] && suite "san/$(basename "$t")" "$t"
    done
    unset ASAN_OPTIONS UBSAN_OPTIONS
    export ACCELSCOPE_BIN="$native/accelscope"
fi
# t_cli and t_engine drive the binary of their own build (ACCELSCOPE_BIN).
[ -f tests/deny.sh ] && suite deny sh tests/deny.sh "$native"
[ -f tests/tui/run.sh ] && suite tui sh tests/tui/run.sh "$native/accelscope"
[ -f tests/tui/hostile.sh ] && suite tui-hostile sh tests/tui/hostile.sh "$native/accelscope"
[ -f tests/tui/compare.sh ] && suite tui-compare sh tests/tui/compare.sh "$native/accelscope"
[ -f tests/tui/pk.sh ] && suite tui-pk sh tests/tui/pk.sh "$native/accelscope"

echo
[ -n "$broken" ] && echo "suites with failures:$broken"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
