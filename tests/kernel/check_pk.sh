#!/bin/sh
# Checks the public-key section of one emulated boot's console (tests/kernel/init, "=== pk"):
# the kernel's asymmetric keys through keyctl verified against OpenSSL and measured.
#   check_pk.sh CPU LOG [yes]   (yes: accelscope was in the image)
cpu=$1
log=$2
have=${3:-}
fail=0
ok() { echo "check-kernel-pk [$cpu]: ok: $*"; }
bad() { echo "check-kernel-pk [$cpu]: FAIL: $*"; fail=1; }
[ "$have" = yes ] || { echo "check-kernel-pk [$cpu]: no accelscope in the image: nothing to check"; exit 0; }
P=$(awk '$0 == "=== pk" { on = 1; next } /^=== / { on = 0 } on' "$log")
# algorithm, implementation, status, ops_per_s, reason by the header's names (no quoted commas
# in these rows' first fields; the reason is the last field read, quotes stripped).
T=$(echo "$P" | awk -F, '
    !/,/ { next }
    !cols { for (i = 1; i <= NF; i++) col[$i] = i; cols = 1; next }
    { r = $col["reason"]; gsub(/"/, "", r)
      print $col["algorithm"] "\t" $col["implementation"] "\t" $col["status"] "\t" $col["ops_per_s"] "\t" r }')
echo "$T" | awk -F'\t' '{ printf "check-kernel-pk [%s]:   %-18s %-8s %-12s %10s ops/s %s\n", c, $1, $2, $3, $4, $5 }' c="$cpu"
echo "$P" | grep -q "^run exit 0" && ok "run -p kernel -a rsa2048-sign,... exits 0" || bad "run exit status"
for a in rsa2048-sign rsa2048-verify; do
    if echo "$T" | awk -F'\t' -v a="$a" '$1 == a && $2 == "keyctl" && $3 == "ok" && $4 + 0 > 0' | grep -q .; then
        ok "$a: keyctl verified against OpenSSL and measured"
    else
        bad "$a: keyctl not measured: $(echo "$T" | awk -F'\t' -v a="$a" '$1 == a { print $3 ": " $5 }')"
    fi
done
# ECDSA: Debian's 6.1 kernels are built without CONFIG_CRYPTO_ECDSA (their config says "is not
# set"): the rows must be measured where the kernel has it, else say so by name.
for a in ecdsa-p256-verify ecdsa-p384-verify; do
    echo "$T" | awk -F'\t' -v a="$a" '$1 == a && $2 == "keyctl" && (($3 == "ok" && $4 + 0 > 0) ||
        ($3 == "unavailable" && $5 ~ /CONFIG_CRYPTO_ECDSA/))' | grep -q . &&
        ok "$a: measured, or unavailable naming CONFIG_CRYPTO_ECDSA" || bad "$a row"
done
[ $fail = 0 ] && echo "check-kernel-pk [$cpu]: all checks passed" || echo "check-kernel-pk [$cpu]: FAILED"
exit $fail
