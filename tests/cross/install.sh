#!/bin/sh
# Installs what `make check-cross` needs, on Debian 12 as root; safe to run again.
#   - cross compilers for aarch64 and i686, qemu user mode;
#   - arm64 libcrypto/ncurses through multiarch (`dpkg --add-architecture arm64`);
#   - i386 libcrypto/ncurses/libcpuid in a private sysroot, $I386_SYSROOT, never through
#     multiarch: the archive's i386 security index failed to verify (REFERENCE.md), which
#     breaks every later `apt-get update` on the machine, and multiarch -dev packages must
#     match the amd64 versions exactly. The sysroot comes from a private apt state (its own
#     lists and cache, the machine's sources, i386 only) and touches nothing of the system's.
#   - binfmt_misc entries for qemu-aarch64 and qemu-i386, so a program under test can exec
#     itself (the engine's workers) and i386 programs run where the kernel cannot.
# Any step that adds an architecture checks `apt-get update` and removes it again on failure.
set -u
. "$(dirname "$0")/i686.sh" # I386_SYSROOT (absolute), i686_probe
APT="apt-get -o DPkg::Lock::Timeout=600 -o Acquire::Retries=3 -q -y"
say() { echo "cross-install: $*"; }

missing() {
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
    done
}

install_pkgs() {
    need=$(missing "$@")
    [ -z "$need" ] && return 0
    say "installing $need"
    # shellcheck disable=SC2086
    $APT install --no-install-recommends $need >/tmp/cross-install.log 2>&1 && return 0
    $APT update >/dev/null 2>&1
    # shellcheck disable=SC2086
    $APT install --no-install-recommends $need >/tmp/cross-install.log 2>&1 || {
        tail -5 /tmp/cross-install.log
        return 1
    }
}

# Adds a foreign architecture only if apt still updates cleanly with it; else undoes it.
add_arch() {
    dpkg --print-foreign-architectures | grep -qx "$1" && return 0
    say "adding architecture $1"
    dpkg --add-architecture "$1"
    if $APT update >/tmp/cross-update.log 2>&1; then
        return 0
    fi
    say "apt-get update fails with $1 ($(grep -m1 '^E:' /tmp/cross-update.log)); removing it"
    dpkg --remove-architecture "$1"
    $APT update >/dev/null 2>&1 || say "WARNING: apt-get update still fails without $1"
    return 1
}

install_pkgs crossbuild-essential-arm64 gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386 \
    qemu-user qemu-user-binfmt binfmt-support pkg-config tmux || exit 1

arm64_ok=0
if add_arch arm64 && install_pkgs libssl-dev:arm64 libncurses-dev:arm64; then
    arm64_ok=1
fi
[ $arm64_ok = 1 ] || say "arm64 libraries unavailable: the aarch64 build cannot link"

# i386 sysroot from a private apt state.
i386_sysroot() {
    root=$I386_SYSROOT
    [ -f "$root/.complete" ] && return 0
    state=$root.apt
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs" "$root"
    : >"$state/status"
    set -- -o Dir::State="$state" -o Dir::State::Lists="$state/lists" \
        -o Dir::State::status="$state/status" -o Dir::Cache="$state/cache" \
        -o APT::Architecture=i386 -o APT::Architectures::=i386 -o Debug::NoLocking=1 -q
    # The security index may fail (size mismatch); the main one is enough for a sysroot.
    apt-get "$@" update >"$state/update.log" 2>&1 || say "private i386 update: $(grep -m1 '^E:' "$state/update.log")"
    (cd "$state/debs" && apt-get "$@" download libssl-dev libssl3 libncurses-dev libncurses6 \
        libncursesw6 libtinfo6 libcpuid-dev libcpuid16 >"$state/download.log" 2>&1) || {
        say "i386 packages could not be downloaded: $(tail -1 "$state/download.log")"
        return 1
    }
    for d in "$state"/debs/*.deb; do dpkg-deb -x "$d" "$root" || return 1; done
    # Absolute symlinks (libtinfo.so -> /lib/...) must point inside the sysroot.
    find "$root" -type l | while read -r l; do
        t=$(readlink "$l")
        case $t in /*) ln -sf "$root$t" "$l" ;; esac
    done
    touch "$root/.complete"
}
i386_sysroot || say "no i386 sysroot: the i686 build will be core-only (no ncurses/libcrypto)"

# binfmt_misc: lets a foreign program exec itself and i386 run on kernels without IA32.
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
        say "cannot mount binfmt_misc: foreign programs cannot exec themselves"
fi
if [ -w /proc/sys/fs/binfmt_misc/register ]; then
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || {
        if [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ]; then
            cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register
        fi
    }
    # Debian ships no qemu-i386 entry on amd64 (it counts as native): ELF32, EM_386; only
    # where this kernel cannot run i386 itself (a binfmt_misc entry would take precedence).
    if i686_probe; then
        say "this kernel runs i386 programs natively"
    else
        [ -e /proc/sys/fs/binfmt_misc/qemu-i386 ] || printf '%s' \
        ':qemu-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-i386:' \
        >/proc/sys/fs/binfmt_misc/register 2>/dev/null
        say "this kernel cannot run i386 programs: they run under qemu-i386 (binfmt_misc)"
    fi
fi
exit 0
