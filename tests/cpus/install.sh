#!/bin/sh
# Installs what `make check-cpus` needs (Debian 12, as root; safe to run again): qemu user mode
# for x86_64, tmux and python3, and one binfmt_misc entry.
#
# Why binfmt_misc: the engine runs each measurement in a worker it exec's from its own binary.
# qemu-user follows no exec, and an x86_64 program exec'd on an x86_64 host runs natively, so
# the workers would measure the host CPU. The entry sends programs whose ELF header carries
# the mark "ACSQEMU" in its padding bytes (e_ident[9..15], ignored by loaders) to qemu-x86_64;
# QEMU_CPU passes to the workers in the environment. Nothing else on the machine matches it.
# Exits 1, saying why, when any of this cannot be done.
set -u
say() { echo "cpus-install: $*"; }
need=""
command -v qemu-x86_64 >/dev/null 2>&1 || need="$need qemu-user"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
command -v python3 >/dev/null 2>&1 || need="$need python3"
if [ -n "$need" ]; then
    say "installing$need"
    APT="apt-get -o DPkg::Lock::Timeout=600 -o Acquire::Retries=3 -q -y"
    # shellcheck disable=SC2086
    $APT install --no-install-recommends $need >/tmp/cpus-install.log 2>&1 ||
        { $APT update >/dev/null 2>&1 && $APT install --no-install-recommends $need >/tmp/cpus-install.log 2>&1; } ||
        { tail -3 /tmp/cpus-install.log; say "cannot install$need"; exit 1; }
fi
B=/proc/sys/fs/binfmt_misc
[ -e $B/register ] || mount -t binfmt_misc binfmt_misc $B 2>/dev/null ||
    { say "cannot mount binfmt_misc (not root?): the workers would run on the host CPU"; exit 1; }
[ -e $B/accelscope-qemu-x86_64 ] && exit 0
qemu=$(command -v qemu-x86_64)
# Magic: ELF64 little-endian version 1, any OS/ABI and ABI version, then the mark.
printf '%s' ":accelscope-qemu-x86_64:M:0:\\x7fELF\\x02\\x01\\x01\\x00\\x00ACSQEMU:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff:$qemu:" \
    >$B/register 2>/dev/null || { say "cannot register the binfmt_misc entry (not root?)"; exit 1; }
say "registered binfmt_misc entry accelscope-qemu-x86_64 -> $qemu"
