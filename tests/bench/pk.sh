#!/bin/sh
# Public-key operations (issue 12): accelscope's hw path (OpenSSL, no mask) against `openssl
# speed -elapsed -seconds S rsa2048 ecdsap256 ecdhx25519`; then the other paths of the same
# run beside hw (asm: big-number bits masked; c: the portable C where built). Targets: hw /
# openssl speed in 0.95-1.05; portable X25519 within 3x of hw, RSA-2048 sign within 4x.
#
# Pairing: this VM's speed moves by a third within seconds (other tenants, other agents), so a
# ratio of two figures taken 20 s apart is mostly that drift. Each round measures one openssl
# speed group (rsa2048: sign and verify; ecdsap256; ecdhx25519) and accelscope's hw rows of the
# same operations right after one another, openssl first in odd rounds and last in even ones;
# the verdict is the median of those per-round ratios (the medians of the figures are shown
# too). Per operation both do the same work: callgrind counts OpenSSL's instructions per op
# within 0.5 % (openssl speed signs 36 raw bytes / a 20-byte ECDSA digest; accelscope the
# 51-byte SHA-256 DigestInfo / a 32-byte digest). Under load accelscope leaves disturbed
# samples out while openssl speed -elapsed counts them, so loaded figures read high: the
# caller says when they were taken under load. pk_loop_bench (first) times the two side by
# side in one process, where the drift cancels: the ratio that shows the op itself.
# Even paired, one round's ratio still swings by +-20 % under load: hence 9 rounds by default.
#   sh tests/bench/pk.sh [BUILD_DIR]      ROUNDS=9 OTHER_ROUNDS=3 SECONDS_PER_CELL=1
set -u
build=${1:-build/native}
bin=${ACCELSCOPE:-$build/accelscope}
rounds=${ROUNDS:-9}
other_rounds=${OTHER_ROUNDS:-3}
secs=${SECONDS_PER_CELL:-1}
tmp=$(mktemp -d)
export XDG_DATA_HOME="$tmp/xdg" # runs are saved: not into the home folder
trap 'rm -rf "$tmp"' EXIT
[ -x "$bin" ] || { echo "pk: no $bin (make first)"; exit 2; }
fail=0
algs="rsa2048-sign rsa2048-verify ecdsa-p256-sign ecdsa-p256-verify x25519"
groups="rsa2048:rsa2048-sign,rsa2048-verify ecdsap256:ecdsa-p256-sign,ecdsa-p256-verify
        ecdhx25519:x25519"

median() { sort -g | awk '{v[NR]=$1} END {if (!NR) exit; if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# "alg impl ops_per_s" of every ok row of accelscope's CSV on stdin.
acs_ops() {
    awk -F, 'NR==1 {for (i=1;i<=NF;i++) {if ($i=="ops_per_s") o=i; if ($i=="algorithm") a=i;
                     if ($i=="implementation") m=i; if ($i=="status") s=i}; next}
             $s=="ok" && $o != "" {print $a, $m, $o}'
}

# openssl speed's table as "alg ops_per_s" in accelscope's names.
ossl_ops() {
    awk '$1=="rsa" && $2==2048 {print "rsa2048-sign", $(NF-1); print "rsa2048-verify", $NF}
         /ecdsa \(nistp256\)/ {print "ecdsa-p256-sign", $(NF-1); print "ecdsa-p256-verify", $NF}
         /ecdh \(X25519\)/ {print "x25519", $NF}'
}

# First, in one process where a VM's drift hits both sides alike: the row's op against the
# loop openssl speed runs, on one key (tests/bench/pk_loop_bench.c; thread CPU time).
echo "pk: accelscope's op against openssl speed's loop, in one process (pk_loop_bench)"
if make --no-print-directory -s BUILD="$build" "$build/tests/bench/pk_loop_bench"; then
    "$build/tests/bench/pk_loop_bench" || fail=1
else
    echo "pk: pk_loop_bench did not build"
    fail=1
fi
echo

acs_hw() { "$bin" run -q --no-save -a "$1" -p hw --time "$secs" --csv - | acs_ops >"$tmp/a1"; }
ossl_one() { openssl speed -elapsed -seconds "$secs" "$1" 2>/dev/null | ossl_ops >"$tmp/o1"; }

echo "pk: accelscope hw (openssl) vs openssl speed -elapsed -seconds $secs, paired per" \
    "group, $rounds rounds"
for r in $(seq "$rounds"); do
    for g in $groups; do
        if [ $((r % 2)) = 1 ]; then
            ossl_one "${g%%:*}"
            acs_hw "${g#*:}"
        else
            acs_hw "${g#*:}"
            ossl_one "${g%%:*}"
        fi
        # "alg accelscope openssl" of this pair
        awk 'NR==FNR {o[$1]=$2; next} $2=="openssl" && ($1 in o) {print $1, $3, o[$1]}' \
            "$tmp/o1" "$tmp/a1" >>"$tmp/pairs"
    done
done
for r in $(seq "$other_rounds"); do
    "$bin" run -q --no-save -a "$(echo $algs | tr ' ' ,)" -p c,asm,hw --time "$secs" --csv - |
        acs_ops >>"$tmp/acs"
done
printf '%-20s %12s %12s %9s  %s\n' algorithm accelscope openssl "ratio" "verdict (median of the per-round ratios)"
for alg in $algs; do
    a=$(awk -v a="$alg" '$1==a {print $2}' "$tmp/pairs" | median)
    o=$(awk -v a="$alg" '$1==a {print $3}' "$tmp/pairs" | median)
    ratio=$(awk -v a="$alg" '$1==a && $3 > 0 {print $2 / $3}' "$tmp/pairs" | median)
    all=$(awk -v a="$alg" '$1==a && $3 > 0 {printf "%s%.3f", s, $2 / $3; s=" "}' "$tmp/pairs")
    ratio=$(awk -v r="${ratio:-0}" 'BEGIN {printf "%.3f", r}')
    verdict=$(awk -v r="$ratio" 'BEGIN {print (r >= 0.95 && r <= 1.05) ? "ok" : "MISS"}')
    [ "$verdict" = ok ] || fail=1
    printf '%-20s %12.1f %12.1f %9s  %s (rounds: %s)\n' "$alg" "${a:-0}" "${o:-0}" "$ratio" \
        "$verdict" "${all:-none}"
done
echo
echo "the other paths, $other_rounds runs of -p c,asm,hw, over those runs' hw (medians of ops/s):"
for alg in $algs; do
    hw=$(awk -v a="$alg" '$1==a && $2=="openssl" {print $3}' "$tmp/acs" | median)
    for im in openssl-int portable; do
        v=$(awk -v a="$alg" -v m="$im" '$1==a && $2==m {print $3}' "$tmp/acs" | median)
        [ -n "$v" ] || { printf '%-20s %-12s UNAVAILABLE: not measured here\n' "$alg" "$im"; continue; }
        r=$(awk -v v="$v" -v h="${hw:-0}" 'BEGIN {if (h > 0) printf "%.3f", v / h; else print 0}')
        # Issue 12's targets for the portable C: X25519 within 3x of hw, RSA-2048 sign within 4x.
        target=""
        case $im/$alg in
        portable/x25519) target=0.333 ;;
        portable/rsa2048-sign) target=0.25 ;;
        esac
        verdict=""
        if [ -n "$target" ]; then
            verdict=$(awk -v r="$r" -v t="$target" 'BEGIN {print (r >= t) ? "ok" : "MISS"}')
            [ "$verdict" = ok ] || fail=1
            verdict="$verdict (target >= $target)"
        fi
        printf '%-20s %-12s %12.1f ops/s  %s / hw = %s %s\n' "$alg" "$im" "$v" "$im" "$r" "$verdict"
    done
done
exit $fail
