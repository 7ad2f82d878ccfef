#!/bin/sh
# make check-kernel: boots Debian's own kernels under qemu (TCG) with an initramfs carrying
# accelscope and the AF_ALG test, and checks from the console that the kernel path lists,
# verifies and measures every kernel driver:
#   amd64 -cpu max     AES-NI/AVX drivers beside the generic ones
#   amd64 -cpu qemu64  generic drivers only
#   arm64 -M virt -cpu cortex-a53  ARMv8 CE drivers (when the arm64 cross toolchain and
#                      libraries are installed, as `make check-cross` needs them; KERNEL_ARM64=no
#                      leaves it out, KERNEL_ARM64=yes makes their absence a failure)
# Installs what it needs (qemu, busybox-static, cpio); downloads cached in build/kernel/.
# Usage: tests/kernel/run.sh [BUILD_DIR]   (default build/native, where `make` puts accelscope)
# KERNEL_X86_CPUS: the x86 -cpu models booted (default "max qemu64").
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build/native}
WORK=$ROOT/build/kernel
mkdir -p "$WORK"
cd "$ROOT"

say() { echo "check-kernel: $*"; }
die() { echo "check-kernel: FAIL: $*" >&2; exit 1; }
apt_install() {
    say "installing $*"
    apt-get -o DPkg::Lock::Timeout=600 update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "$@" >/dev/null || die "apt-get install $* failed"
}

# --- what runs ------------------------------------------------------------------------------
A64=${KERNEL_ARM64:-auto}
if [ "$A64" != no ]; then
    why=""
    dpkg --print-foreign-architectures | grep -qx arm64 || why="dpkg has no arm64 architecture"
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || why="no aarch64-linux-gnu-gcc"
    [ -e /usr/lib/aarch64-linux-gnu/libcrypto.a ] || why="no libssl-dev:arm64"
    if [ -n "$why" ]; then
        [ "$A64" = yes ] && die "arm64 kernel wanted, but $why"
        say "arm64 kernel: left out: $why (install the arm64 cross toolchain, or KERNEL_ARM64=yes)"
        A64=no
    else
        A64=yes
    fi
fi

need=""
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
[ $A64 = no ] || command -v qemu-system-aarch64 >/dev/null 2>&1 || need="$need qemu-system-arm"
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx depmod || need="$need busybox-static"
command -v cpio >/dev/null 2>&1 || need="$need cpio"
command -v xz >/dev/null 2>&1 || need="$need xz-utils"
# The openssl command and its engines go into the x86 image (the engine rows, speed-afalg.sh):
# on a machine without it, those checks would fail for want of a package.
command -v openssl >/dev/null 2>&1 || need="$need openssl"
[ -z "$need" ] || apt_install $need
BB=/bin/busybox
ldd "$BB" 2>&1 | grep -q 'not a dynamic' || die "$BB is not static: install busybox-static"

# --- kernels: the newest 6.1 image the archive offers -------------------------------------
# kernel ARCH: sets KVER, KROOT (unpacked package) and KIMG (what qemu boots).
kernel() {
    pick() { apt-cache search --names-only "^linux-image-6\.1\.0-[0-9]+-$1\$" | awk '{print $1}' |
             sort -t- -k5,5n | tail -1; }
    pkg=$(pick "$1")
    if [ -z "$pkg" ]; then
        apt-get -o DPkg::Lock::Timeout=600 update -qq || true
        pkg=$(pick "$1")
    fi
    [ -n "$pkg" ] || die "no linux-image-6.1.0-*-$1 in the apt lists"
    KVER=${pkg#linux-image-}
    KROOT=$WORK/$KVER
    if [ ! -f "$KROOT/boot/vmlinuz-$KVER" ]; then
        say "downloading $pkg"
        # Lists older than the archive name a package it no longer has: refresh once, retry.
        (cd "$WORK" && rm -f linux-image-"$KVER"_*.deb &&
            apt-get download -q "$pkg:$1" >/dev/null 2>&1) || {
            apt-get -o DPkg::Lock::Timeout=600 update -qq || true
            pkg=$(pick "$1")
            KVER=${pkg#linux-image-}
            KROOT=$WORK/$KVER
            (cd "$WORK" && rm -f linux-image-"$KVER"_*.deb &&
                apt-get download -q "$pkg:$1" >/dev/null 2>&1)
        } || die "apt-get download $pkg failed (after apt-get update)"
        rm -rf "$KROOT.tmp" && dpkg -x "$WORK"/linux-image-"$KVER"_*.deb "$KROOT.tmp" &&
            mv "$KROOT.tmp" "$KROOT" && rm -f "$WORK"/linux-image-"$KVER"_*.deb
    fi
    KIMG=$KROOT/boot/vmlinuz-$KVER
    [ "$1" = amd64 ] || return 0
    # PVH boot of the uncompressed ELF (CONFIG_PVH=y) skips the decompressor, slow under TCG:
    # vmlinuz carries vmlinux as an xz stream.
    if [ ! -s "$KROOT/vmlinux" ]; then
        off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KIMG" | head -1 | cut -d: -f1)
        if [ -n "$off" ] && tail -c +$((off + 1)) "$KIMG" |
            xz -dc --single-stream > "$KROOT/vmlinux.tmp" 2>/dev/null; then
            mv "$KROOT/vmlinux.tmp" "$KROOT/vmlinux"
        fi
    fi
    [ ! -s "$KROOT/vmlinux" ] || KIMG=$KROOT/vmlinux
}

# image ARCH BUSYBOX MODULES BINARY...: the initramfs for the kernel in KVER/KROOT, in $INITRD.
image() {
    arch=$1 bb=$2 mods=$3
    shift 3
    img=$WORK/img-$KVER
    rm -rf "$img"
    kdir=arm64
    [ "$arch" = arm64 ] || kdir=x86
    mkdir -p "$img"/bin "$img"/sbin "$img"/usr/bin "$img"/usr/sbin "$img"/proc "$img"/sys \
        "$img"/dev "$img"/etc "$img"/vectors "$img"/fixtures "$img/lib/modules/$KVER/kernel/arch/$kdir"
    cp "$bb" "$img/bin/busybox"
    cp "$ROOT/tests/kernel/init" "$img/init"
    chmod 755 "$img/init"
    m=$KROOT/lib/modules/$KVER
    cp -r "$m/kernel/crypto" "$m/kernel/lib" "$img/lib/modules/$KVER/kernel/"
    cp -r "$m/kernel/arch/$kdir/crypto" "$img/lib/modules/$KVER/kernel/arch/$kdir/"
    cp "$m"/modules.builtin* "$m"/modules.order "$img/lib/modules/$KVER/" 2>/dev/null || true
    "$BB" depmod -b "$img" "$KVER" || die "depmod $KVER"
    echo "$mods" > "$img/etc/accelscope-modules"
    cp "$ROOT"/tests/vectors/*.txt "$img/vectors/"
    cp "$ROOT"/tests/kernel/proc-crypto-*.txt "$img/fixtures/"
    for b in "$@"; do cp "$b" "$img/"; done
    cp "$ROOT/tests/kernel/speed-afalg.sh" "$img/"
    extra=""
    if [ "$arch" = amd64 ]; then
        # The host's openssl and its engines (afalg.so), for the engine rows and the
        # comparison with `openssl speed -engine afalg` (tests/kernel/speed-afalg.sh).
        edir=$(openssl version -e 2>/dev/null | sed -n 's/^ENGINESDIR: "\(.*\)"$/\1/p')
        if command -v openssl >/dev/null 2>&1 && [ -d "$edir" ]; then
            cp "$(command -v openssl)" "$img/usr/bin/openssl"
            mkdir -p "$img$edir"
            cp "$edir"/*.so "$img$edir/"
            extra="./usr/bin/openssl $(cd "$img" && ls ."$edir"/*.so)"
        fi
        # Shared libraries as ldd resolves them on the host, at the same paths.
        for lib in $(cd "$img" && ldd ./t_afalg $([ -e accelscope ] && echo ./accelscope) $extra |
            awk '/=>/ {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u); do
            mkdir -p "$img$(dirname "$lib")"
            cp -L "$lib" "$img$lib"
        done
    fi
    # Uncompressed: decompressing it would cost more emulated time than copying it.
    INITRD=$WORK/initrd-$KVER.cpio
    (cd "$img" && find . | cpio -o -H newc --quiet) > "$INITRD" || die "cpio"
    say "kernel $KVER ($(basename "$KIMG")), initramfs $(du -k "$INITRD" | cut -f1) KiB"
}

# AF_ALG, its three types, and every driver of the algorithms accelscope measures.
COMMON="af_alg algif_hash algif_skcipher algif_aead
ctr gcm ghash_generic chacha20poly1305 chacha_generic poly1305_generic sha512_generic"
X86_MODS="$COMMON aesni_intel ghash_clmulni_intel sha1_ssse3 sha256_ssse3 sha512_ssse3
chacha_x86_64 poly1305_x86_64"
A64_MODS="$COMMON aes_ce_blk aes_ce_cipher aes_neon_blk aes_neon_bs ghash_ce sha1_ce sha2_ce
sha256_arm64 sha512_arm64 sha512_ce chacha_neon poly1305_neon"

# --- amd64 ---------------------------------------------------------------------------------
make --no-print-directory BUILD="$BUILD" "$BUILD/tests/t_afalg" >/dev/null || die "building t_afalg"
BIN=$BUILD/accelscope
[ -x "$BIN" ] || make --no-print-directory BUILD="$BUILD" "$BIN" >/dev/null 2>&1 || true
HAVE=yes
[ -x "$BIN" ] || { HAVE=""; say "no $BIN: the kernel path is checked through t_afalg only"; }
kernel amd64
image amd64 "$BB" "$X86_MODS" "$BUILD/tests/t_afalg" $([ -n "$HAVE" ] && echo "$BIN")
X86_KIMG=$KIMG X86_INITRD=$INITRD

# --- arm64 ---------------------------------------------------------------------------------
if [ $A64 = yes ]; then
    A64_BUILD=build/kernel-arm64 # static: nothing to resolve inside the image
    PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
        make --no-print-directory CROSS_COMPILE=aarch64-linux-gnu- BUILD=$A64_BUILD \
        LDFLAGS=-static "$A64_BUILD/tests/t_afalg" "$A64_BUILD/accelscope" >/dev/null 2>&1 ||
        die "building the static arm64 t_afalg and accelscope (make CROSS_COMPILE=aarch64-linux-gnu- BUILD=$A64_BUILD LDFLAGS=-static)"
    if [ ! -x "$WORK/busybox-arm64/bin/busybox" ]; then
        bb_a64() {
            (cd "$WORK" && rm -f busybox-static_*arm64.deb && apt-get download -q busybox-static:arm64 \
                >/dev/null 2>&1 && dpkg -x busybox-static_*arm64.deb busybox-arm64 &&
                rm -f busybox-static_*arm64.deb)
        }
        bb_a64 || { apt-get -o DPkg::Lock::Timeout=600 update -qq || true; bb_a64; } ||
            die "apt-get download busybox-static:arm64 failed (after apt-get update)"
    fi
    kernel arm64
    image arm64 "$WORK/busybox-arm64/bin/busybox" "$A64_MODS" "$A64_BUILD/tests/t_afalg" \
        "$A64_BUILD/accelscope"
    A64_KIMG=$KIMG A64_INITRD=$INITRD
fi

# --- boot them all at once -----------------------------------------------------------------
# The timeouts only catch a hang: boots have taken 50-100 s, twice that on a slower host.
APPEND='panic=-1 quiet loglevel=1'
[ "${KERNEL_JUDGE_SPEED:-}" != 1 ] || APPEND="$APPEND accelscope.speed_rounds=${KERNEL_SPEED_ROUNDS:-15}"
boot_x86() { # cpu log
    timeout 600 qemu-system-x86_64 -accel tcg -cpu "$1" -m 768 -smp 1 -nographic -no-reboot \
        -net none -kernel "$X86_KIMG" -initrd "$X86_INITRD" -append "console=ttyS0 $APPEND" \
        </dev/null 2>&1 | tr -d '\r' > "$2"
}
boot_a64() { # cpu log
    timeout 600 qemu-system-aarch64 -M virt -cpu "$1" -m 768 -smp 1 -nographic -no-reboot \
        -net none -kernel "$A64_KIMG" -initrd "$A64_INITRD" -append "console=ttyAMA0 $APPEND" \
        </dev/null 2>&1 | tr -d '\r' > "$2"
}
# KERNEL_X86_CPUS="max" boots one x86 VM alone: the timing comparison with openssl speed
# (tests/kernel/speed-afalg.sh) is then not shared with the other VMs' load.
X86_CPUS=${KERNEL_X86_CPUS:-max qemu64}
start=$(date +%s)
pids=""
for c in $X86_CPUS; do
    boot_x86 "$c" "$WORK/console-$c.log" &
    pids="$pids $!"
done
if [ $A64 = yes ]; then
    boot_a64 cortex-a53 "$WORK/console-cortex-a53.log" &
    pids="$pids $!"
fi
for p in $pids; do wait "$p" || true; done
say "boots done in $(($(date +%s) - start)) s; consoles in build/kernel/console-*.log"

# Each check's output is kept, so that the failures can be said again last: CI shows only the
# tail of what a run printed.
rc=0
: > "$WORK/checks.log"
check() {
    r=0
    "$@" > "$WORK/check.out" || r=$?
    cat "$WORK/check.out"
    cat "$WORK/check.out" >> "$WORK/checks.log"
    return $r
}
for c in $X86_CPUS; do
    check sh "$ROOT/tests/kernel/check.sh" "$c" "$WORK/console-$c.log" "$HAVE" || rc=1
done
[ $A64 = no ] || check sh "$ROOT/tests/kernel/check.sh" cortex-a53 "$WORK/console-cortex-a53.log" yes || rc=1
check sh "$ROOT/tests/kernel/check_pk.sh" max "$WORK/console-max.log" "$HAVE" || rc=1
[ $A64 = no ] || check sh "$ROOT/tests/kernel/check_pk.sh" cortex-a53 "$WORK/console-cortex-a53.log" yes || rc=1
if [ $rc != 0 ]; then
    say "what failed (all of it above; consoles in build/kernel/console-*.log):"
    grep -E 'FAIL' "$WORK/checks.log" | sed 's/^/  /'
fi
exit $rc
