#!/bin/sh
# The portable C AES against OpenSSL's own no-asm build, and what constant time costs.
#   sh tests/bench/portable_noasm.sh [BUILD_DIR] [portable_bench args...]
# 1. Builds libcrypto `./Configure no-asm` from Debian's openssl source, once: cached in
#    $ACCELSCOPE_NOASM_DIR (default ${XDG_CACHE_HOME:-~/.cache}/accelscope/openssl-noasm).
#    The source comes through apt-get with a private sources list and state under that
#    directory (deb-src lines for this Debian suite): the system's apt setup is not touched.
#    Same upstream release as the installed libssl3 when the archive still has it. Without
#    apt (another distribution), point ACCELSCOPE_NOASM_TARBALL at an openssl-3.x .tar.gz.
# 2. portable (T-tables) against that library, in one process, alternating: AES-128/256-CBC
#    both ways and -CTR at 16 B and 16 KiB, each ratio >= 1.0 (exit 1 when one misses).
# 3. portable-ct (bitsliced, constant time) against portable: the price of constant time.
# Not part of `make check`: the first run downloads ~15 MB and compiles for minutes.
set -eu
BUILD=${1:-build/native}
[ $# -gt 0 ] && shift
cache=${ACCELSCOPE_NOASM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/accelscope/openssl-noasm}
lib=$cache/libcrypto-noasm.so

fetch_source() {
    suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    suite=${suite:-bookworm}
    apt="$cache/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    cat >"$apt/sources.list" <<EOF
deb-src http://deb.debian.org/debian $suite main
deb-src http://deb.debian.org/debian $suite-updates main
deb-src http://deb.debian.org/debian-security $suite-security main
EOF
    set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -q
    apt-get "$@" update >"$cache/apt.log" 2>&1 || {
        echo "apt-get update (private deb-src list) failed: see $cache/apt.log" >&2
        return 1
    }
    want=$(dpkg-query -W -f='${source:Version}' libssl3 2>/dev/null || true)
    # The .dsc may be gone from the mirror while the upstream tarball is there: only the
    # tarball counts (OpenSSL's own source, no Debian patch, as a plain no-asm build).
    (cd "$cache" && { apt-get "$@" source --download-only "openssl${want:+=$want}" ||
        apt-get "$@" source --download-only openssl; }) >>"$cache/apt.log" 2>&1 || true
    tarball=$(ls "$cache"/openssl_*.orig.tar.gz 2>/dev/null | tail -n 1)
    [ -n "$tarball" ] || {
        echo "no openssl source tarball from the Debian archive: see $cache/apt.log" >&2
        return 1
    }
    echo "$tarball"
}

build_noasm() {
    tarball=${ACCELSCOPE_NOASM_TARBALL:-}
    [ -n "$tarball" ] || tarball=$(fetch_source)
    src=$cache/src
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$tarball" -C "$src" --strip-components=1
    echo "building OpenSSL no-asm from $(basename "$tarball") in $src (minutes; log $cache/build.log)"
    (cd "$src" && ./Configure no-asm no-tests && make build_generated &&
        make libcrypto.so.3) >"$cache/build.log" 2>&1 || {
        echo "the no-asm build failed: see $cache/build.log" >&2
        return 1
    }
    cp "$src/libcrypto.so.3" "$lib.tmp" && mv "$lib.tmp" "$lib"
}

mkdir -p "$cache"
[ -f "$lib" ] || build_noasm
make --no-print-directory -s BUILD="$BUILD" "$BUILD/tests/bench/portable_bench"
status=0
"$BUILD/tests/bench/portable_bench" -n "$lib" "$@" || status=$?
echo
"$BUILD/tests/bench/portable_bench" -i portable-ct -y portable "$@" || true
exit "$status"
