#!/bin/sh
# `make check-cross`: other boards, under emulation (budget: 10 minutes on 2 cores).
#  aarch64: cross-build; the unit and known-answer suites, `accelscope info` and a quick
#    `accelscope run` under qemu-aarch64 as `-cpu max` and `-cpu cortex-a53`, and again
#    under ACCELSCOPE_DENY=aes,pmull,sha1,sha2; qemu's in_asm log counts the AESE, PMULL,
#    SHA1C, SHA256H and SHA512H that were translated inside this project's armce_* kernels
#    (so they ran: qemu translates only what executes) and proves the mask removed them.
#    The TUI starts and quits under qemu in tmux.
#  i686: cross-build against an i386 sysroot (tests/cross/install.sh) and run its suites
#    (natively, or through qemu-i386 where this kernel cannot run i386 programs). PadLock cannot be emulated: t_padlock runs the glue on a
#    model of the instructions; the instructions themselves never run here.
# Emulated runs use static builds: qemu-user 7.2 hangs in the child of fork() for
# dynamically linked guests (seen here with a five-line program), and the engine forks its
# workers. The default dynamic builds (`make CROSS_COMPILE=...`) are built too and run the
# suites that do not fork.
# Ends with "N passed, N failed" summed over every suite and the checks made here.
set -u
cd "$(dirname "$0")/../.." || exit 2
START=$(date +%s)
PASS=0
FAIL=0
LOG=build/cross-logs
mkdir -p "$LOG"
export XDG_DATA_HOME="$(pwd)/$LOG/xdg" # runs are saved: not into the home folder
ok() { PASS=$((PASS + 1)); echo "ok: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
JOBS=$(nproc 2>/dev/null || echo 2)

# Adds the closing "N passed, N failed" of a suite's output (file $1) to the totals.
. tests/tally.sh
tally() {
    if ! tally_read "$1"; then
        bad "$2: no result line (crashed or timed out; see $1)"
        return
    fi
    PASS=$((PASS + t_pass))
    FAIL=$((FAIL + t_fail))
    echo "$2: $t_line"
}

. tests/cross/i686.sh # I386_SYSROOT, ILIB, i686_make, i686_native
sh tests/cross/install.sh || { echo "0 passed, 1 failed"; exit 1; }

A64=aarch64-linux-gnu
# pkg-config reads the target's .pc files only; PKG_CONFIG=pkg-config on the make command
# line keeps these settings whatever the Makefile's own default for cross builds.
A64_PC="PKG_CONFIG_LIBDIR=/usr/lib/$A64/pkgconfig:/usr/share/pkgconfig"
QBUILD=build/$A64-static

echo "== aarch64: build (dynamic, the default) and static for the emulated engine runs"
env "$A64_PC" make -j"$JOBS" --no-print-directory PKG_CONFIG=pkg-config CROSS_COMPILE=$A64- tests >"$LOG/a64-build.log" 2>&1
check $? "make CROSS_COMPILE=$A64- tests (build/$A64)"
env "$A64_PC" make -j"$JOBS" --no-print-directory PKG_CONFIG=pkg-config CROSS_COMPILE=$A64- BUILD=$QBUILD \
    LDFLAGS=-static tests >"$LOG/a64-static.log" 2>&1
check $? "static aarch64 build ($QBUILD)"
grep -E 'warning:' "$LOG/a64-build.log" | grep -v 'statically linked' | head -5

export QEMU_LD_PREFIX=/usr/$A64
if [ -x build/$A64/tests/t_direct_arm ]; then
    timeout 120 qemu-aarch64 -cpu cortex-a53 build/$A64/tests/t_direct_arm >"$LOG/a64-dyn.log" 2>&1
    tally "$LOG/a64-dyn.log" "dynamic t_direct_arm (cortex-a53)"
fi

# The suites of the static build under each CPU and under the mask. The feature mask is
# the only way to switch crypto off: qemu's CPUs cannot.
for cpu in max cortex-a53; do
    for deny in "" "aes,pmull,sha1,sha2"; do
        [ -n "$deny" ] && [ "$cpu" != max ] && continue
        if [ -n "$deny" ]; then
            set -- $QBUILD/tests/t_direct_arm # the others test other things
        else
            set -- $QBUILD/tests/t_*
        fi
        for t in "$@"; do
            name=$(basename "$t")
            out="$LOG/a64-$cpu${deny:+-deny}-$name.log"
            ACCELSCOPE_BIN=$QBUILD/accelscope QEMU_CPU=$cpu ACCELSCOPE_DENY=$deny \
                timeout 240 "$t" >"$out" 2>&1
            tally "$out" "aarch64 -cpu $cpu${deny:+ ACCELSCOPE_DENY=$deny} $name"
            grep -h '^UNAVAILABLE' "$out" | sed 's/^/    /' | head -3
        done
    done
done

# Address ranges of the armce_* kernels in the static binary, to attribute instructions.
nm -S --defined-only $QBUILD/accelscope 2>/dev/null | awk '$4 ~ /^armce_/ { print $1, $2 }' \
    >"$LOG/armce.ranges"
[ -s "$LOG/armce.ranges" ] || $A64-nm -S --defined-only $QBUILD/accelscope |
    awk '$4 ~ /^armce_/ { print $1, $2 }' >"$LOG/armce.ranges"

# Counts "mnemonic" lines of qemu in_asm logs $2* whose address is inside an armce kernel.
# qemu 7.2's disassembler prints SHA512H as ".byte": it is matched by its encoding
# (0xce608000, mask 0xffe0fc00, Arm ARM).
count_insn() {
    cat "$2"* 2>/dev/null | awk -v m="$1" -v rf="$LOG/armce.ranges" '
        function hex(s,  i, c, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
            for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1
                v = v * 16 + c } return v }
        BEGIN { while ((getline l < rf) > 0) { split(l, f, " "); n++; lo[n] = hex(f[1]); hi[n] = lo[n] + hex(f[2]) } }
        /^0x[0-9a-f]+:/ { if (m == "sha512h" ? $2 !~ /^ce[67].8[0-3]/ : $3 != m) next
            a = hex(substr($1, 1, length($1) - 1))
            for (i = 1; i <= n; i++) if (a >= lo[i] && a < hi[i]) { c++; break } }
        END { print c + 0 }'
}

RUNARGS="-a aes-128-cbc,aes-256-ctr,aes-128-gcm,sha1,sha256,sha512 -s 16,1024 --time 0.05 -p hw"
for cpu in max cortex-a53; do
    for deny in "" "aes,pmull,sha1,sha2"; do
        tag=$cpu${deny:+-deny}
        rm -f "$LOG/qlog-$tag".*
        echo "== aarch64 -cpu $cpu${deny:+ ACCELSCOPE_DENY=$deny}: info, run"
        QEMU_CPU=$cpu ACCELSCOPE_DENY=$deny timeout 120 $QBUILD/accelscope info >"$LOG/info-$tag.log" 2>&1
        check $? "accelscope info (-cpu $cpu${deny:+, masked})"
        grep -qi 'aes' "$LOG/info-$tag.log"
        check $? "info lists the AES feature (-cpu $cpu)"
        # Only what can exist here: no x86 words or rows, the Arm counter as the clock line.
        ! grep -Eq 'CPUID|PadLock|padlock|TSC|rdrand|rdseed' "$LOG/info-$tag.log"
        check $? "info has no x86 rows or words (-cpu $cpu): $(grep -Em1 'CPUID|PadLock|padlock|TSC|rdrand|rdseed' "$LOG/info-$tag.log")"
        grep -Eq '^  generic timer: [0-9.]+ MHz \(CNTFRQ_EL0\)' "$LOG/info-$tag.log"
        check $? "info gives the generic timer's rate (-cpu $cpu)"
        QEMU_CPU=$cpu ACCELSCOPE_DENY=$deny QEMU_LOG=in_asm QEMU_LOG_FILENAME="$LOG/qlog-$tag.%d" \
            timeout 300 $QBUILD/accelscope run $RUNARGS >"$LOG/run-$tag.log" 2>&1
        rc=$?
        sed 's/^/    /' "$LOG/run-$tag.log" | grep -E 'direct|^    [a-z0-9-]+ ' | head -20
        aese=$(count_insn aese "$LOG/qlog-$tag.")
        pmull=$(count_insn pmull "$LOG/qlog-$tag.")
        sha1c=$(count_insn sha1c "$LOG/qlog-$tag.")
        sha256h=$(count_insn sha256h "$LOG/qlog-$tag.")
        sha512h=$(count_insn sha512h "$LOG/qlog-$tag.")
        echo "    translated in armce_* kernels: aese $aese, pmull $pmull, sha1c $sha1c," \
            "sha256h $sha256h, sha512h $sha512h"
        if [ -z "$deny" ]; then
            check $rc "accelscope run (-cpu $cpu)"
            [ "$aese" -gt 0 ] && [ "$pmull" -gt 0 ] && [ "$sha1c" -gt 0 ] && [ "$sha256h" -gt 0 ]
            check $? "direct AES/PMULL/SHA1/SHA256 kernels ran (-cpu $cpu)"
            if [ $cpu = max ]; then
                [ "$sha512h" -gt 0 ]
                check $? "direct SHA512 kernel ran (-cpu max)"
            else
                [ "$sha512h" = 0 ] && grep -q 'lacks SHA512' "$LOG/run-$tag.log"
                check $? "no SHA512 kernel on cortex-a53, and the reason is shown"
            fi
        else
            [ "$aese" = 0 ] && [ "$pmull" = 0 ] && [ "$sha1c" = 0 ] && [ "$sha256h" = 0 ]
            check $? "ACCELSCOPE_DENY removed the direct AES/PMULL/SHA kernels (-cpu $cpu)"
            grep -q 'denied by ACCELSCOPE_DENY' "$LOG/run-$tag.log"
            check $? "the mask is given as the reason (-cpu $cpu)"
        fi
        rm -f "$LOG/qlog-$tag".*
    done
done

echo "== aarch64 TUI under qemu in tmux"
if command -v tmux >/dev/null && [ -x $QBUILD/accelscope ] && [ -d ui ] && ls ui/*.c >/dev/null 2>&1; then
    S=xcross$$
    tmux kill-session -t $S 2>/dev/null
    tmux new-session -d -s $S -x 120 -y 40 \
        "QEMU_CPU=cortex-a53 $QBUILD/accelscope; echo TUI-EXIT=\$?; sleep 30"
    sleep 8
    tmux capture-pane -p -t $S >"$LOG/tui-screen.txt" 2>/dev/null
    tmux send-keys -t $S q
    i=0
    while [ $i -lt 30 ] && ! tmux capture-pane -p -t $S 2>/dev/null | grep -q 'TUI-EXIT='; do
        sleep 1
        i=$((i + 1))
    done
    tmux capture-pane -p -t $S >"$LOG/tui-after.txt" 2>/dev/null
    tmux kill-session -t $S 2>/dev/null
    [ "$(grep -c '[a-zA-Z]' "$LOG/tui-screen.txt")" -gt 3 ]
    check $? "TUI drew a screen under qemu-aarch64 (build/cross-logs/tui-screen.txt)"
    grep -q 'TUI-EXIT=0' "$LOG/tui-after.txt"
    check $? "TUI quit with q and exit status 0"
else
    echo "UNAVAILABLE: aarch64 TUI test: no tmux or no TUI in this tree"
fi

echo "== i686: build (dynamic, the default) and static; suites"
IBUILD=build/i686-linux-gnu-static
if [ -f "$I386_SYSROOT/.complete" ]; then
    imake() { i686_make "$@" tests; }
    imake LDFLAGS="-L$I386_SYSROOT/lib/i386-linux-gnu -Wl,-rpath-link,$ILIB" \
        >"$LOG/i686-build.log" 2>&1
    check $? "make CROSS_COMPILE=i686-linux-gnu- tests (build/i686-linux-gnu, i386 sysroot)"
    imake BUILD=$IBUILD LDFLAGS="-static -L$I386_SYSROOT/lib/i386-linux-gnu" \
        >"$LOG/i686-static.log" 2>&1
    check $? "static i686 build ($IBUILD)"
    # The dynamic build's own suites that do not fork (see the top of this file).
    for t in t_padlock t_portable; do
        out="$LOG/i686-dyn-$t.log"
        LD_LIBRARY_PATH=$ILIB timeout 240 build/i686-linux-gnu/tests/$t >"$out" 2>&1
        tally "$out" "i686 dynamic $t"
    done
    # Where i386 programs run under qemu-i386 (a kernel without IA32: binfmt_misc entry from
    # install.sh), key generation is the suites' cost: one RSA-4096 worker takes 170 s, and
    # t_engine took 564 s, t_pk over 600. The public-key suites cap their key sizes there
    # (each skipped size said as UNAVAILABLE); the native and aarch64 runs cover them all.
    pkcap=
    if ! i686_native; then
        pkcap=1024
        echo "    i386 runs under qemu-i386 here: public-key checks capped at $pkcap-bit keys"
    fi
    for t in $IBUILD/tests/t_*; do
        [ -x "$t" ] || continue
        out="$LOG/i686-$(basename "$t").log"
        ACCELSCOPE_TEST_PK_BITS=$pkcap ACCELSCOPE_BIN=$IBUILD/accelscope timeout 240 "$t" >"$out" 2>&1
        tally "$out" "i686 $(basename "$t")"
        grep -h '^UNAVAILABLE' "$out" | sed 's/^/    /' | head -3
    done
    timeout 60 $IBUILD/accelscope info >"$LOG/i686-info.log" 2>&1
    check $? "i686 accelscope info"
    grep -i '  padlock ' "$LOG/i686-info.log" | head -3 | sed 's/^/    /'
else
    bad "no i386 sysroot (see tests/cross/install.sh output): i686 suites not run"
fi

echo "cross suite: $(($(date +%s) - START)) s; logs in $LOG"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
