#!/bin/sh
# Public-key operations (issue 12): accelscope's hw path (OpenSSL, no mask) against `openssl
# speed -elapsed -seconds S rsa2048 ecdsap256 ecdhx25519`, interleaved round by round in one
# run, median of ROUNDS; then the other paths of the same run beside hw (asm: big-number bits
# masked; c: the portable C where built). Targets: hw / openssl speed in 0.95-1.05; portable
# X25519 within 3x of hw, RSA-2048 sign within 4x.
# openssl speed signs 36 raw bytes with PKCS#1 v1.5 padding, accelscope a SHA-256 DigestInfo
# (51 bytes): the same private operation. Figures taken under load are said so by the caller.
#   sh tests/bench/pk.sh [BUILD_DIR]
set -u
build=${1:-build/native}
bin=${ACCELSCOPE:-$build/accelscope}
rounds=${ROUNDS:-3}
secs=${SECONDS_PER_CELL:-1}
tmp=$(mktemp -d)
export XDG_DATA_HOME="$tmp/xdg" # runs are saved: not into the home folder
trap 'rm -rf "$tmp"' EXIT
[ -x "$bin" ] || { echo "pk: no $bin (make first)"; exit 2; }
fail=0
algs="rsa2048-sign rsa2048-verify ecdsa-p256-sign ecdsa-p256-verify x25519"

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

echo "pk: accelscope hw (openssl) vs openssl speed -elapsed -seconds $secs, interleaved, median of $rounds"
for r in $(seq "$rounds"); do
    "$bin" run -q --no-save -a "$(echo $algs | tr ' ' ,)" -p c,asm,hw --time "$secs" --csv - |
        acs_ops >>"$tmp/acs"
    openssl speed -elapsed -seconds "$secs" rsa2048 ecdsap256 ecdhx25519 2>/dev/null |
        ossl_ops >>"$tmp/ossl"
done
printf '%-20s %12s %12s %7s  %s\n' algorithm accelscope openssl ratio verdict
for alg in $algs; do
    a=$(awk -v a="$alg" '$1==a && $2=="openssl" {print $3}' "$tmp/acs" | median)
    o=$(awk -v a="$alg" '$1==a {print $2}' "$tmp/ossl" | median)
    ratio=$(awk -v a="${a:-0}" -v o="${o:-0}" 'BEGIN {r = 0; if (o > 0) r = a / o; printf "%.3f", r}')
    verdict=$(awk -v r="$ratio" 'BEGIN {print (r >= 0.95 && r <= 1.05) ? "ok" : "MISS"}')
    [ "$verdict" = ok ] || fail=1
    printf '%-20s %12.1f %12.1f %7s  %s\n' "$alg" "${a:-0}" "${o:-0}" "$ratio" "$verdict"
done
echo
echo "the other paths of the same runs, over hw (medians of ops/s):"
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
