#!/bin/sh
# `make fuzz`: libFuzzer over the parsers that read outside input (not in `make check`, not
# in CI). Installs clang and its fuzzer runtime (Debian: clang-14, libclang-rt-14-dev) when
# missing, builds the core with ASan+UBSan and fuzzer coverage into build/fuzz/, then runs
# each harness for FUZZ_TIME seconds (default 120) from its seed corpus in
# tests/fuzz/corpus/<target>/. New inputs go to build/fuzz/corpus/<target>/, crashes to
# build/fuzz/crashes/<target>/ (each becomes a regression input in tests/fuzz/regress/).
# Usage: tests/fuzz/run.sh [TARGET...]   (default: every tests/fuzz/fuzz_*.c)
# Ends with "N passed, N failed" (targets that ran clean / that found something).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
time=${FUZZ_TIME:-120}
CLANG=${CLANG:-}

# find_clang: a clang whose fuzzer runtime is installed.
find_clang() {
    for c in ${CLANG:-clang clang-14 clang-15 clang-16}; do
        command -v "$c" >/dev/null 2>&1 || continue
        echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' \
            > /tmp/accelscope-fuzz-probe.c
        if "$c" -fsanitize=fuzzer -o /tmp/accelscope-fuzz-probe /tmp/accelscope-fuzz-probe.c 2>/dev/null; then
            rm -f /tmp/accelscope-fuzz-probe /tmp/accelscope-fuzz-probe.c
            echo "$c"
            return 0
        fi
    done
    rm -f /tmp/accelscope-fuzz-probe.c
    return 1
}

cc=$(find_clang)
if [ -z "$cc" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "fuzz: installing clang-14 and libclang-rt-14-dev"
        apt-get -q update >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q install \
            --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
        cc=$(find_clang)
    fi
fi
if [ -z "$cc" ]; then
    echo "fuzz: no clang with libFuzzer; install clang-14 and libclang-rt-14-dev (Debian)"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "fuzz: $cc, $time s per target"

flags="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ $# -gt 0 ]; then
    targets="$*"
else
    targets=$(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//')
fi
bins=""
for t in $targets; do bins="$bins build/fuzz/fuzz/$t"; done
make --no-print-directory BUILD=build/fuzz CC="$cc" CFLAGS="$flags" $bins >build/fuzz-build.log 2>&1 ||
    { mkdir -p build; tail -30 build/fuzz-build.log; echo "fuzz: build failed"; echo "0 passed, 1 failed"; exit 1; }

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
pass=0 fail=0
for t in $targets; do
    name=${t#fuzz_}
    work=build/fuzz/corpus/$name crashes=build/fuzz/crashes/$name
    mkdir -p "$work" "$crashes"
    seeds=tests/fuzz/corpus/$name
    [ -d "$seeds" ] || seeds=
    # The reader's own test files are seeds too.
    [ "$name" = csvread ] && [ -d tests/data ] && seeds="$seeds tests/data"
    # The regression inputs first: each once-found crash must stay fixed.
    if [ -d tests/fuzz/regress/$name ] && ! build/fuzz/fuzz/$t tests/fuzz/regress/$name/* \
        >"build/fuzz/$name.regress.log" 2>&1; then
        echo "FAIL $name: a regression input crashes again (build/fuzz/$name.regress.log)"
        fail=$((fail + 1))
        continue
    fi
    build/fuzz/fuzz/$t -max_total_time="$time" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$crashes/" "$work" $seeds >"build/fuzz/$name.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/$name.log")
    cov=$(grep -o 'cov: [0-9]*' "build/fuzz/$name.log" | tail -1)
    if [ $rc = 0 ]; then
        echo "ok   $name: ${execs:-?} executions, ${cov:-cov: ?}, no crash"
        pass=$((pass + 1))
    else
        echo "FAIL $name: exit $rc after ${execs:-?} executions; see build/fuzz/$name.log, inputs in $crashes/"
        grep -m3 -E 'ERROR|SUMMARY|runtime error' "build/fuzz/$name.log" | sed 's/^/     /'
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
