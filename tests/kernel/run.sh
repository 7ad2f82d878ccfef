#!/bin/sh
# make check-kernel: boots Debian's own amd64 kernel under qemu (TCG) twice, -cpu max and
# -cpu qemu64, with an initramfs carrying accelscope and the AF_ALG test, and checks from the
# console that the kernel path lists, verifies and measures every kernel driver.
# Installs what it needs (qemu-system-x86, busybox-static); downloads cached in build/kernel/.
# Usage: tests/kernel/run.sh [BUILD_DIR]   (default build/native, where `make` puts accelscope)
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build/native}
WORK=$ROOT/build/kernel
mkdir -p "$WORK"
cd "$ROOT"

say() { echo "check-kernel: $*"; }
die() { echo "check-kernel: FAIL: $*" >&2; exit 1; }

# --- tools ---------------------------------------------------------------------------------
need=""
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx depmod || need="$need busybox-static"
command -v cpio >/dev/null 2>&1 || need="$need cpio"
command -v xz >/dev/null 2>&1 || need="$need xz-utils"
if [ -n "$need" ]; then
    say "installing$need"
    apt-get -o DPkg::Lock::Timeout=600 update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends $need >/dev/null || die "apt-get install$need failed"
fi
# busybox-static's busybox is the one with every applet the image needs
BB=/bin/busybox
[ -x /usr/bin/busybox ] && /usr/bin/busybox --list | grep -qx depmod && BB=/usr/bin/busybox
ldd "$BB" 2>&1 | grep -q 'not a dynamic' || die "$BB is not static: install busybox-static"

# --- kernel: the newest 6.1 amd64 image the archive offers ----------------------------------
pick() { apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' |
         sort -t- -k5,5n | tail -1; }
PKG=$(pick)
if [ -z "$PKG" ]; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq || true
    PKG=$(pick)
fi
[ -n "$PKG" ] || die "no linux-image-6.1.0-*-amd64 in the apt lists"
KVER=${PKG#linux-image-}
KROOT=$WORK/$KVER
if [ ! -f "$KROOT/boot/vmlinuz-$KVER" ]; then
    say "downloading $PKG"
    (cd "$WORK" && rm -f linux-image-"$KVER"_*.deb && apt-get download -q "$PKG" >/dev/null 2>&1) ||
        die "apt-get download $PKG failed"
    rm -rf "$KROOT.tmp" && dpkg -x "$WORK"/linux-image-"$KVER"_*.deb "$KROOT.tmp" &&
        mv "$KROOT.tmp" "$KROOT" && rm -f "$WORK"/linux-image-"$KVER"_*.deb
fi
# PVH boot of the uncompressed ELF (CONFIG_PVH=y) skips the decompressor, slow under TCG:
# vmlinuz carries vmlinux as an xz stream.
KIMG=$KROOT/vmlinuz-$KVER
if [ ! -s "$KROOT/vmlinux" ]; then
    off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KROOT/boot/vmlinuz-$KVER" | head -1 | cut -d: -f1)
    if [ -n "$off" ] && tail -c +$((off + 1)) "$KROOT/boot/vmlinuz-$KVER" |
        xz -dc --single-stream > "$KROOT/vmlinux.tmp" 2>/dev/null; then
        mv "$KROOT/vmlinux.tmp" "$KROOT/vmlinux"
    fi
fi
if [ -s "$KROOT/vmlinux" ]; then KIMG=$KROOT/vmlinux; else KIMG=$KROOT/boot/vmlinuz-$KVER; fi

# --- the binaries --------------------------------------------------------------------------
make --no-print-directory BUILD="$BUILD" "$BUILD/tests/t_afalg" >/dev/null || die "building t_afalg"
BIN=$BUILD/accelscope
[ -x "$BIN" ] || make --no-print-directory BUILD="$BUILD" "$BIN" >/dev/null 2>&1 || true
[ -x "$BIN" ] || say "no $BIN: the kernel path is checked through t_afalg only"

# --- initramfs -----------------------------------------------------------------------------
IMG=$WORK/img-$KVER
rm -rf "$IMG"
mkdir -p "$IMG"/bin "$IMG"/sbin "$IMG"/usr/bin "$IMG"/usr/sbin "$IMG"/proc "$IMG"/sys "$IMG"/dev \
    "$IMG"/etc "$IMG"/tmp "$IMG"/vectors "$IMG/lib/modules/$KVER/kernel/arch/x86"
cp "$BB" "$IMG/bin/busybox"
cp "$ROOT/tests/kernel/init" "$IMG/init"
chmod 755 "$IMG/init"
M=$KROOT/lib/modules/$KVER
cp -r "$M/kernel/crypto" "$M/kernel/lib" "$IMG/lib/modules/$KVER/kernel/"
cp -r "$M/kernel/arch/x86/crypto" "$IMG/lib/modules/$KVER/kernel/arch/x86/"
cp "$M"/modules.builtin* "$M"/modules.order "$IMG/lib/modules/$KVER/" 2>/dev/null || true
"$BB" depmod -b "$IMG" "$KVER" || die "depmod"
# AF_ALG, its three types, and every driver of the algorithms accelscope measures.
cat > "$IMG/etc/accelscope-modules" <<EOF
af_alg algif_hash algif_skcipher algif_aead
ctr gcm ghash_generic chacha20poly1305 chacha_generic poly1305_generic sha512_generic
aesni_intel ghash_clmulni_intel sha1_ssse3 sha256_ssse3 sha512_ssse3 chacha_x86_64 poly1305_x86_64
EOF
cp "$BUILD/tests/t_afalg" "$IMG/t_afalg"
cp "$ROOT"/tests/vectors/*.txt "$IMG/vectors/"
mkdir -p "$IMG/fixtures" && cp "$ROOT"/tests/kernel/proc-crypto-*.txt "$IMG/fixtures/"
bins="$IMG/t_afalg"
if [ -x "$BIN" ]; then cp "$BIN" "$IMG/accelscope"; bins="$bins $IMG/accelscope"; fi
# Shared libraries as ldd resolves them on the host, at the same paths.
for lib in $(ldd $bins | awk '/=>/ {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u); do
    mkdir -p "$IMG$(dirname "$lib")"
    cp -L "$lib" "$IMG$lib"
done
[ -e "$IMG/lib64/ld-linux-x86-64.so.2" ] || { mkdir -p "$IMG/lib64"; cp -L /lib64/ld-linux-x86-64.so.2 "$IMG/lib64/"; }
# Uncompressed: decompressing it would cost more emulated time than copying it.
(cd "$IMG" && find . | cpio -o -H newc --quiet) > "$WORK/initrd-$KVER.cpio" || die "cpio"
say "kernel $KVER ($(basename "$KIMG")), initramfs $(du -k "$WORK/initrd-$KVER.cpio" | cut -f1) KiB"

# --- boot both CPUs at once (one core each) ------------------------------------------------
boot() { # cpu log
    timeout 170 qemu-system-x86_64 -accel tcg -cpu "$1" -m 768 -smp 1 -nographic -no-reboot \
        -net none -kernel "$KIMG" -initrd "$WORK/initrd-$KVER.cpio" \
        -append 'console=ttyS0 panic=-1 quiet loglevel=1' </dev/null 2>&1 | tr -d '\r' > "$2"
}
start=$(date +%s)
boot max "$WORK/console-max.log" &
pmax=$!
boot qemu64 "$WORK/console-qemu64.log" &
pq=$!
wait $pmax || true
wait $pq || true
say "both boots done in $(($(date +%s) - start)) s; consoles in build/kernel/console-*.log"

sh "$ROOT/tests/kernel/check.sh" max "$WORK/console-max.log" "$([ -x "$BIN" ] && echo yes)" &&
    sh "$ROOT/tests/kernel/check.sh" qemu64 "$WORK/console-qemu64.log" "$([ -x "$BIN" ] && echo yes)"
