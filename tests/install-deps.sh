#!/bin/sh
# Installs what accelscope needs to build (and, with "check", to test) when it is missing.
# Debian/Ubuntu: apt-get as root, sudo otherwise. Elsewhere: names the packages and stops.
# Usage: tests/install-deps.sh [build|check|screenshots]
set -u
profile=${1:-check}

missing_pc=""
for pc in libcrypto ncursesw; do
    pkg-config --exists "$pc" 2>/dev/null || missing_pc="$missing_pc $pc"
done
arch=$(uname -m)
need_cmds="cc make pkg-config"
# The TUI suite drives tmux and reads its CSV and mouse escapes with python3.
[ "$profile" = build ] || need_cmds="$need_cmds tmux python3"
missing_cmd=""
for c in $need_cmds; do
    command -v "$c" >/dev/null 2>&1 || missing_cmd="$missing_cmd $c"
done
# libcpuid is optional for the build but wanted on x86 for codename, cores and caches.
want_cpuid=""
case "$arch" in x86_64|i?86) pkg-config --exists libcpuid 2>/dev/null || want_cpuid=libcpuid-dev ;; esac
extra=""
if [ "$profile" = check ]; then
    # The export tests render the SVG chart and count its colours.
    command -v rsvg-convert >/dev/null 2>&1 || extra="$extra librsvg2-bin"
    /usr/bin/python3 -c 'import PIL' 2>/dev/null || extra="$extra python3-pil"
    # The TUI suite builds a de_DE locale (a decimal comma) with localedef from its source.
    [ -e /usr/share/i18n/locales/de_DE ] && command -v localedef >/dev/null 2>&1 ||
        extra="$extra locales"
fi
if [ "$profile" = screenshots ]; then
    # Debian's own python3 (a pyenv one earlier on PATH has no PIL): the renderer uses it.
    /usr/bin/python3 -c 'import PIL' 2>/dev/null || extra="$extra python3-pil"
    [ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || extra="$extra fonts-dejavu-core"
fi

[ -z "$missing_pc$missing_cmd$want_cpuid$extra" ] && exit 0
# Only the optional libcpuid missing: try once, quietly, and build without it otherwise.
optional_only=""
[ -z "$missing_pc$missing_cmd$extra" ] && optional_only=yes

pkgs="build-essential pkg-config libssl-dev libncurses-dev $want_cpuid $extra"
[ "$profile" = build ] || pkgs="$pkgs tmux python3"
if [ -n "$optional_only" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q install \
            --no-install-recommends libcpuid-dev >/dev/null 2>&1 ||
            echo "accelscope: libcpuid-dev not installed; building without it (no codename)" >&2
    fi
    exit 0
fi
echo "accelscope: installing build dependencies:$missing_pc$missing_cmd $want_cpuid$extra" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "accelscope: no apt-get here. Install these with your package manager, then retry:" >&2
    echo "  a C compiler, make, pkg-config, OpenSSL 3 development files (libcrypto)," >&2
    echo "  ncursesw development files, tmux and python3 (tests), libcpuid (optional, x86)" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "accelscope: not root and no sudo; as root run: apt-get install $pkgs" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt_opts="-o DPkg::Lock::Timeout=600 -y -q"
# shellcheck disable=SC2086
$sudo apt-get $apt_opts install --no-install-recommends $pkgs >/dev/null ||
    { $sudo apt-get -q -o DPkg::Lock::Timeout=600 update >/dev/null &&
      $sudo apt-get $apt_opts install --no-install-recommends $pkgs >/dev/null; } || {
    echo "accelscope: apt-get could not install: $pkgs" >&2
    exit 1
}
