#!/bin/sh
# Checks one emulated boot's console (tests/kernel/run.sh): check.sh CPU LOG [yes]
#   CPU  max (x86 accelerated drivers expected), qemu64 (generic drivers only) or cortex-a53
#        (arm64: ARMv8 Crypto Extensions drivers expected)
#   yes  accelscope was in the image: check its `info` and `run -p kernel` output too
cpu=$1
log=$2
have=${3:-}
fail=0

ok() { echo "check-kernel [$cpu]: ok: $*"; }
bad() { echo "check-kernel [$cpu]: FAIL: $*"; fail=1; }
expect() { # description, then a command that must succeed
    what=$1
    shift
    if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}
section() { awk -v s="=== $1" '$0 == s { on = 1; next } /^=== / { on = 0 } on' "$log"; }
# CSV (RFC 4180, src/csv.c) of a section to tab-separated, columns found by their header names:
# 1 algorithm, 2 path, 3 implementation, 4 bytes, 5 mb_per_s, 6 cpu_utilisation, 7 status,
# 8 reason, 9 sys_pct, 10 fallback.
csv_tsv() { section "$1" | awk '
    function split_csv(line, f,    n, i, c, q, v) {
        n = 1; v = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) { if (c == "\"" && substr(line, i + 1, 1) == "\"") { v = v c; i++ }
                     else if (c == "\"") q = 0; else v = v c }
            else if (c == "\"") q = 1
            else if (c == ",") { f[n++] = v; v = "" }
            else v = v c
        }
        f[n] = v
        return n
    }
    !/,/ { next }
    !cols { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; cols = 1; next }
    { split_csv($0, f)
      print f[col["algorithm"]] "\t" f[col["path"]] "\t" f[col["implementation"]] "\t" \
            f[col["bytes"]] "\t" f[col["mb_per_s"]] "\t" f[col["cpu_utilisation"]] "\t" \
            f[col["status"]] "\t" f[col["reason"]] "\t" f[col["sys_pct"]] "\t" f[col["fallback"]] }'; }

# Drivers whose CPU features -cpu qemu64 lacks (AES-NI, PCLMULQDQ, SSSE3, AVX, AVX2, SHA-NI).
ACCEL='aesni|clmulni|ssse3|avx|sha(1|256)-ni|chacha20-simd'
# The kernel algorithms and the accelscope ids that use them.
ALGS='aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ctr aes-256-ctr aes-128-gcm aes-256-gcm
chacha20-poly1305 md5 sha1 sha256 sha512'

expect "the VM ran to the end (no panic, no timeout): $log" grep -q '^=== end' "$log"
echo "check-kernel [$cpu]: CPU flags: $(section cpu | grep -v '^uptime')"

T=$(section t_afalg)
echo "$T" | grep -E '^(afalg|enoent):|passed,' | sed "s/^/check-kernel [$cpu]:   /"
expect "AF_ALG available" sh -c 'echo "$0" | grep -q "^afalg: AF_ALG available"' "$T"
expect "t_afalg: no failure" sh -c 'echo "$0" | grep -qE "^[1-9][0-9]* passed, 0 failed"' "$T"
expect "a driver name that does not exist gives ENOENT" \
    sh -c 'echo "$0" | grep -q "^enoent: no driver loaded for sha256-no-such-driver (ENOENT)"' "$T"

# t_afalg prints "ok ALG DRIVER" for each implementation it verified (known answers, OpenSSL
# on random lengths, in place, both directions) and "FAILED ALG DRIVER" otherwise.
verified=$(echo "$T" | awk '$1 == "ok" { print $3 }' | sort -u)
echo "check-kernel [$cpu]: verified drivers:" $verified
for x in copy zerocopy; do
    expect "every algorithm's kernel choice verified with the $x transfer forced" sh -c \
        '[ $(echo "$0" | grep -c "^ok .* kernel transfer=$1$") -ge 12 ]' "$T" "$x"
done
expect "no driver failed verification" sh -c '! echo "$0" | grep -q "^FAILED "' "$T"
expect "no kernel implementation unavailable" sh -c '! echo "$0" | grep -q "^UNAVAILABLE: "' "$T"
for a in $ALGS; do
    expect "$a: the kernel's choice and at least one driver verified" sh -c \
        'echo "$0" | grep -q "^ok $1 kernel$" && [ $(echo "$0" | grep -c "^ok $1 ") -ge 2 ]' "$T" "$a"
done
for g in 'cbc(aes-generic)' 'ctr(aes-generic)' 'gcm_base(ctr(aes-generic),ghash-generic)' \
    md5-generic sha1-generic sha256-generic sha512-generic; do
    expect "generic driver $g verified" sh -c 'echo "$0" | grep -qxF "$1"' "$verified" "$g"
done
case $cpu in
max)
    for d in cbc-aes-aesni ctr-aes-aesni generic-gcm-aesni 'sha256-(avx2|avx|ssse3|ni)' \
        'sha1-(avx2|avx|ssse3|ni)' 'sha512-(avx2|avx|ssse3)' 'rfc7539\(chacha20-simd,'; do
        expect "accelerated driver $d verified" sh -c 'echo "$0" | grep -qE "^$1"' "$verified" "$d"
    done
    ;;
cortex-a53) # AES, PMULL, SHA1, SHA2; no SHA512 CE
    for d in cbc-aes-ce ctr-aes-ce gcm-aes-ce sha1-ce sha256-ce 'rfc7539\(chacha20-neon,'; do
        expect "ARMv8 CE/NEON driver $d verified" sh -c 'echo "$0" | grep -qE "^$1"' "$verified" "$d"
    done
    ;;
*)
    expect "only generic drivers (none of $ACCEL)" sh -c '! echo "$0" | grep -qE "$1"' \
        "$verified" "$ACCEL"
    ;;
esac

if [ "$have" = yes ]; then
    I=$(section info)
    expect "accelscope info: AF_ALG available" sh -c 'echo "$0" | grep -q "^afalg: AF_ALG available"' "$I"
    expect "accelscope info: the driver table" sh -c 'echo "$0" | grep -q "^afalg.driver: cbc(aes) .*cbc(aes-generic) .*priority="' "$I"
    case $cpu in
    max) def=cbc-aes-aesni ;;
    cortex-a53) def=cbc-aes-ce ;;
    *) def='cbc\(aes-generic\)' ;;
    esac
    expect "accelscope info: cbc(aes) resolves to $def" \
        sh -c 'echo "$0" | grep -qE "^afalg.driver: cbc\(aes\) +$1 .* default"' "$I" "$def"
    # CSV (RFC 4180, src/csv.c) to tab-separated, columns found by their header names:
    # 1 algorithm, 2 path, 3 implementation, 4 bytes, 5 mb_per_s, 6 cpu_utilisation,
    # 7 status, 8 reason.
    R=$(csv_tsv run)
    K=$(echo "$R" | awk -F'\t' '$2 == "kernel"')
    rows=$(echo "$K" | grep -c .)
    echo "check-kernel [$cpu]: accelscope run -p kernel: $rows rows (TCG: figures say nothing of real hardware)"
    echo "$K" | awk -F'\t' '{ printf "check-kernel   %-18s %-44s %5s %9s MB/s cpu %5s %s\n", $1, $3, $4, $5, $6, $7 }'
    expect "accelscope run: rows for the kernel path" test "$rows" -gt 20
    bads=$(echo "$K" | awk -F'\t' '$3 != "sha256-no-such-driver" && !($7 == "ok" && $5 + 0 > 0) {
        print $1 "/" $3 "/" $4 ": " $7 " " $8 }')
    [ -z "$bads" ] || echo "$bads" | sed "s/^/check-kernel [$cpu]:   /"
    expect "accelscope run: every kernel implementation verified and measured" test -z "$bads"
    for a in $ALGS; do
        expect "accelscope run: $a measured on the kernel's choice and every driver" sh -c \
            'echo "$0" | awk -F"\t" -v a="$1" "\$1 == a && \$3 == \"kernel\" && \$7 == \"ok\"" | grep -q . &&
             [ $(echo "$0" | awk -F"\t" -v a="$1" "\$1 == a && \$7 == \"ok\"" | wc -l) -ge 4 ]' "$K" "$a"
    done
    D=$(csv_tsv run-decrypt | awk -F'\t' '$2 == "kernel"')
    bads=$(echo "$D" | awk -F'\t' '!($7 == "ok" && $5 + 0 > 0) { print $1 "/" $3 "/" $4 ": " $7 " " $8 }')
    [ -z "$bads" ] || echo "$bads" | sed "s/^/check-kernel [$cpu]:   /"
    expect "accelscope run --decrypt: every kernel implementation verified and measured" \
        sh -c '[ -z "$1" ] && [ $(echo "$0" | grep -c .) -ge 8 ]' "$D" "$bads"
    expect "accelscope run: the missing driver is unavailable with ENOENT" sh -c \
        'echo "$0" | awk -F"\t" "\$3 == \"sha256-no-such-driver\" && \$7 == \"unavailable\" && \$8 ~ /ENOENT/" | grep -q .' "$K"
fi

# OpenSSL's ENGINEs (x86 images carry the host's openssl and engines-3/): the afalg engine
# sends AES-CBC to the kernel (system time), and leaves SHA-256 to libcrypto's software, which
# must be reported as a fallback; IDEA it does not handle and libcrypto lacks.
if [ "$have" = yes ] && [ "$cpu" != cortex-a53 ]; then
    expect "accelscope info: the afalg engine loads and claims AES-CBC" sh -c \
        'echo "$0" | grep -qE "^engine.afalg: .*\(loads\); ciphers:.* aes-128-cbc .*aes-256-cbc"' "$I"
    E=$(csv_tsv run-engines)
    echo "$E" | awk -F'\t' '{ printf "check-kernel   %-12s %-17s %5s %9s MB/s sys %5s%% %s %s\n", $1, $3, $4, $5, $9, $7, $10 $8 }'
    for a in aes-128-cbc aes-256-cbc; do
        expect "afalg-engine $a: verified, measured, system time > 0, not a fallback (both sizes)" \
            sh -c '[ $(echo "$0" | awk -F"\t" -v a="$1" "\$1 == a && \$3 == \"afalg-engine\" &&
                \$7 == \"ok\" && \$5 + 0 > 0 && \$9 + 0 > 0 && \$10 == \"\"" | wc -l) -eq 2 ]' "$E" "$a"
    done
    expect "afalg-engine sha256: measured and reported as a fallback to software (both sizes)" \
        sh -c '[ $(echo "$0" | awk -F"\t" "\$1 == \"sha256\" && \$3 == \"afalg-engine\" && \$7 == \"ok\" &&
            \$10 == \"afalg engine does not handle sha256: libcrypto software did the work\"" | wc -l) -eq 2 ]' "$E"
    expect "afalg-engine idea-cbc: unavailable, the engine does not handle it" sh -c \
        'echo "$0" | awk -F"\t" "\$1 == \"idea-cbc\" && \$3 == \"afalg-engine\" && \$7 == \"unavailable\" &&
            \$8 ~ /afalg engine does not handle idea-cbc/" | grep -q .' "$E"
    expect "devcrypto-engine: unavailable, saying what is missing" sh -c \
        'echo "$0" | awk -F"\t" "\$3 == \"devcrypto-engine\" && \$7 == \"unavailable\" && \$8 ~ /devcrypto/" | grep -q .' "$E"
    S=$(section speed-afalg)
    echo "$S" | grep '^speed' | sed "s/^/check-kernel [$cpu]:   /"
    ratio=$(echo "$S" | sed -n 's/^speed medians: .*ratio \([0-9.]*\)$/\1/p')
    range=$(echo "$S" | sed -n 's/^speed ratio range: \([0-9.]*\) \([0-9.]*\) .*/\1 \2/p')
    # What any machine can check: both tools measured every round, and accelscope's row really
    # went through the kernel (a fallback to software would be a different figure altogether).
    expect "afalg-engine vs openssl speed: every round measured both, through the kernel" sh -c \
        '[ $(echo "$0" | grep -c "^speed round ") -ge 3 ] &&
         ! echo "$0" | grep "^speed round " | grep -qvE "openssl [0-9.]*[1-9][0-9.]* MB/s, accelscope [0-9.]*[1-9][0-9.]* MB/s \(kernel\)"' "$S"
    # The speed itself is a benchmark's verdict, not a test's: under TCG, beside the other VMs,
    # one round's ratio has ranged 0.69-1.36 on an idle host. tests/bench/afalg_speed.sh boots
    # this VM alone and judges the 10 % (KERNEL_JUDGE_SPEED=1); here the figure is only shown.
    if [ "${KERNEL_JUDGE_SPEED:-}" != 1 ]; then
        echo "check-kernel [$cpu]: figure only (not judged in a test run): afalg-engine / openssl speed median ratio ${ratio:-none}, inner range ${range:-none}; tests/bench/afalg_speed.sh judges it"
    elif [ -n "$ratio" ] && ! awk -v r="$ratio" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }' &&
        echo "$range" | awk '{ exit !($1 < 0.9 && $2 > 1.1) }'; then
        echo "check-kernel [$cpu]: UNAVAILABLE: afalg-engine vs openssl speed: rounds too noisy to judge (ratio $ratio, inner range $range)"
    else
        expect "afalg-engine aes-128-cbc 16 KiB within 10 % of openssl speed -elapsed -engine afalg (ratio ${ratio:-none}, inner range ${range:-none})" \
            awk -v r="${ratio:-0}" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'
    fi
fi

[ $fail = 0 ] && echo "check-kernel [$cpu]: all checks passed" || echo "check-kernel [$cpu]: FAILED"
exit $fail
