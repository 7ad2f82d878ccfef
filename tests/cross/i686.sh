# Sourced (sh): building and running this project for i686 against the private i386 sysroot
# that tests/cross/install.sh makes (never multiarch: install.sh says why). Used by it,
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

# 0 when an i386 program runs (a static one, built here): on this CPU, or under qemu-i386
# where install.sh registered it because the kernel cannot run i386 itself.
i686_probe() {
    _probe=$(mktemp) || return 1
    echo 'int main(void) { return 0; }' |
        i686-linux-gnu-gcc -static -x c -o "$_probe" - 2>/dev/null && "$_probe" 2>/dev/null
    _rc=$?
    rm -f "$_probe"
    return $_rc
}

# 0 when i386 programs run on this CPU itself: one runs, and no enabled binfmt_misc entry
# hands them to qemu (an entry takes precedence over the kernel's own ELF loader).
i686_native() {
    for _f in /proc/sys/fs/binfmt_misc/*; do
        case $_f in */register | */status) continue ;; esac
        grep -qs '^enabled' "$_f" && grep -qs 'qemu-i386' "$_f" && return 1
    done
    i686_probe
}
