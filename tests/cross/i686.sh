# Sourced (sh): building and running this project for i686 against the private i386 sysroot
# that tests/cross/install.sh makes (never multiarch: install.sh says why). Used by
# tests/cross/run.sh and tests/bench/portable_noasm.sh --i686. Sets I386_SYSROOT (default
# build/i686-sysroot, made absolute) and ILIB, the sysroot's library path for LD_LIBRARY_PATH
# and -rpath-link; i686_make runs make with the cross compiler, the sysroot's .pc files and
# headers, and the arguments given (BUILD=, LDFLAGS=, targets).
I386_SYSROOT=${I386_SYSROOT:-build/i686-sysroot}
case $I386_SYSROOT in /*) ;; *) I386_SYSROOT=$(pwd)/$I386_SYSROOT ;; esac
export I386_SYSROOT
ILIB=$I386_SYSROOT/usr/lib/i386-linux-gnu:$I386_SYSROOT/lib/i386-linux-gnu

i686_make() {
    env PKG_CONFIG_SYSROOT_DIR="$I386_SYSROOT" \
        PKG_CONFIG_LIBDIR="$I386_SYSROOT/usr/lib/i386-linux-gnu/pkgconfig:$I386_SYSROOT/usr/share/pkgconfig" \
        PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
        make -j"${JOBS:-2}" --no-print-directory PKG_CONFIG=pkg-config \
        CROSS_COMPILE=i686-linux-gnu- \
        CFLAGS="-O2 -g -isystem $I386_SYSROOT/usr/include/i386-linux-gnu" "$@"
}

# 0 when i386 programs run on this CPU, not under qemu-i386: install.sh registers a
# binfmt_misc entry for qemu-i386 only where the kernel cannot run them itself.
i686_native() {
    ! grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-i386
}
