#!/bin/sh
# The portable C AES against OpenSSL's own no-asm build, and what constant time costs.
#   sh tests/bench/portable_noasm.sh [--i686] [BUILD_DIR] [portable_bench args...]
# 1. Builds libcrypto `./Configure no-asm` from Debian's openssl source, once: cached in
#    $ACCELSCOPE_NOASM_DIR (default ${XDG_CACHE_HOME:-~/.cache}/accelscope/openssl-noasm).
#    The source comes through apt-get with a private sources list and state under that
#    directory (deb-src lines for this Debian suite): the system's apt setup is not touched.
#    Same upstream release as the installed libssl3 when the archive still has it. Without
#    apt (another distribution), point ACCELSCOPE_NOASM_TARBALL at an openssl-3.x .tar.gz.
# 2. portable (T-tables) against that library, alternating in one process: AES-128/256-CBC
#    both ways and -CTR at 16 B and 16 KiB; that in ACCELSCOPE_NOASM_RUNS (default 3) fresh
#    processes, each cell's median ratio >= 1.0 (exit 1 when one misses, or when a cell has
#    no ratio in some process: its output differs from the yardstick's).
# 3. portable-ct (bitsliced, constant time) against portable: the price of constant time.
# --i686: all of it as 32-bit i686 code on this x86-64 CPU: the bench (default BUILD_DIR
#    build/i686-linux-gnu) and the no-asm library (`./Configure linux-x86 no-asm`, cached
#    apart: $ACCELSCOPE_NOASM_DIR-i686) built by i686-linux-gnu-gcc against the i386 sysroot
#    of tests/cross/install.sh (run when the sysroot is missing: root, apt), and run natively.
#    Where this kernel runs i386 programs only under qemu-i386 it says UNAVAILABLE and exits
#    0: an emulated figure would time qemu, not the CPU.
# Not part of `make check`: the first run downloads ~15 MB and compiles for minutes.
set -eu
cd "$(dirname "$0")/../.."
target=native
case ${1:-} in
--i686)
    target=i686
    shift
    case ${1:-} in
    -*) echo "portable_noasm.sh: '$1': after --i686, a build directory or nothing" >&2; exit 2 ;;
    esac
    ;;
-*) echo "portable_noasm.sh: '$1': the first argument is --i686 or a build directory" >&2; exit 2 ;;
esac
base=${ACCELSCOPE_NOASM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/accelscope/openssl-noasm}
cache=$base # the source tarball and apt state stay in $base, shared by both targets
if [ $target = i686 ]; then
    [ "$(uname -m)" = x86_64 ] ||
        { echo "UNAVAILABLE: --i686 runs i686 code on an x86-64 CPU; this is $(uname -m)"; exit 0; }
    . tests/cross/i686.sh # I386_SYSROOT, ILIB, i686_make, i686_native
    # the compiler, the sysroot, and qemu-i386 registered where the kernel cannot run i386
    { [ -f "$I386_SYSROOT/.complete" ] && command -v i686-linux-gnu-gcc >/dev/null; } ||
        sh tests/cross/install.sh || {
        echo "tests/cross/install.sh failed (above): cannot build for i686" >&2
        exit 1
    }
    i686_native || {
        echo "UNAVAILABLE: this kernel runs i386 programs under qemu-i386 (binfmt_misc):" \
            "an emulated figure is not the CPU's"
        exit 0
    }
    cache=$base-i686
fi
BUILD=${1:-build/$([ $target = i686 ] && echo i686-linux-gnu || echo native)}
[ $# -gt 0 ] && shift
lib=$cache/libcrypto-noasm.so

fetch_source() {
    suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    suite=${suite:-bookworm}
    apt="$base/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    cat >"$apt/sources.list" <<EOF
deb-src http://deb.debian.org/debian $suite main
deb-src http://deb.debian.org/debian $suite-updates main
deb-src http://deb.debian.org/debian-security $suite-security main
EOF
    set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -q
    apt-get "$@" update >"$base/apt.log" 2>&1 || {
        echo "apt-get update (private deb-src list) failed: see $base/apt.log" >&2
        return 1
    }
    want=$(dpkg-query -W -f='${source:Version}' libssl3 2>/dev/null || true)
    # The .dsc may be gone from the mirror while the upstream tarball is there: only the
    # tarball counts (OpenSSL's own source, no Debian patch, as a plain no-asm build).
    (cd "$base" && { apt-get "$@" source --download-only "openssl${want:+=$want}" ||
        apt-get "$@" source --download-only openssl; }) >>"$base/apt.log" 2>&1 || true
    tarball=$(ls "$base"/openssl_*.orig.tar.gz 2>/dev/null | tail -n 1)
    [ -n "$tarball" ] || {
        echo "no openssl source tarball from the Debian archive: see $base/apt.log" >&2
        return 1
    }
    echo "$tarball"
}

build_noasm() {
    tarball=${ACCELSCOPE_NOASM_TARBALL:-}
    # i686 takes the tarball the native build fetched, when there is one
    [ -n "$tarball" ] || [ $target = native ] ||
        tarball=$(ls "$base"/openssl_*.orig.tar.gz 2>/dev/null | tail -n 1)
    [ -n "$tarball" ] || tarball=$(fetch_source)
    src=$cache/src
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$tarball" -C "$src" --strip-components=1
    echo "building OpenSSL no-asm from $(basename "$tarball") in $src (minutes; log $cache/build.log)"
    set -- ./Configure
    [ $target = native ] || set -- env CC=i686-linux-gnu-gcc ./Configure linux-x86
    (cd "$src" && "$@" no-asm no-tests && make build_generated &&
        make libcrypto.so.3) >"$cache/build.log" 2>&1 || {
        echo "the no-asm build failed: see $cache/build.log" >&2
        return 1
    }
    cp "$src/libcrypto.so.3" "$lib.tmp" && mv "$lib.tmp" "$lib"
}

mkdir -p "$cache"
[ -f "$lib" ] || build_noasm
if [ $target = i686 ]; then
    i686_make -s BUILD="$BUILD" LDFLAGS="-L$I386_SYSROOT/lib/i386-linux-gnu -Wl,-rpath-link,$ILIB" \
        "$BUILD/tests/bench/portable_bench"
    bench() { LD_LIBRARY_PATH=$ILIB "$BUILD/tests/bench/portable_bench" "$@"; }
else
    make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/portable_bench"
    bench() { "$BUILD/tests/bench/portable_bench" "$@"; }
fi
# One process's five alternating repeats agree within a few % while two processes minutes
# apart have read one cell 0.71 and 1.49 on a VM (2026-12-06, nothing else running): each
# cell is judged on the median of several fresh processes, every one of them shown.
. tests/bench/lib/median_runs.sh
status=0
median_runs ACCELSCOPE_NOASM_RUNS 3 bench -n "$lib" "$@" || status=$?
[ "$status" != 2 ] || exit 2
echo
# a report, not judged (jobs given on the command line bring their targets here too): only a
# cell without a figure fails it (portable-ct and portable differ, exit 3)
rc=0
bench -i portable-ct -y portable "$@" || rc=$?
[ "$rc" -le 1 ] || status=1
exit "$status"
