#!/bin/sh
# The figure `openssl speed -elapsed -engine afalg -evp aes-128-cbc` gives, and accelscope's
# afalg-engine row for it, taken in turn ROUNDS times in one run (the machine's drift hits
# both alike): prints each pair and its ratio (accelscope / openssl), then the medians.
# Runs where AF_ALG and OpenSSL's afalg engine are (the kernel VM: tests/kernel/init).
# Usage: speed-afalg.sh [ROUNDS] [BYTES]   (defaults 7 and 16384)
rounds=${1:-7}
bytes=${2:-16384}
bin=${ACCELSCOPE:-/accelscope}

# MB/s (10^6 B/s) from openssl speed's last line: "AES-128-CBC  123456.78k" in 1000s of B/s.
ossl() {
    openssl speed -elapsed -engine afalg -evp aes-128-cbc -bytes "$bytes" -seconds 1 2>/dev/null |
        awk 'toupper($1) == "AES-128-CBC" && $NF ~ /k$/ { v = $NF } END { sub(/k$/, "", v); printf "%.1f\n", v / 1000 }'
}

# MB/s of the afalg-engine row, from the CSV column named mb_per_s (quoted fields kept whole).
ours() {
    "$bin" run -q --no-save -p kernel -i afalg-engine -a aes-128-cbc -s "$bytes" --time 1 \
        --csv - | awk '
        function fields(line, f,    n, i, c, q, v) {
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
        NR == 1 { n = fields($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
        { fields($0, f); printf "%.1f %s\n", f[col["mb_per_s"]], f[col["fallback"]] == "" ? "kernel" : "fallback" }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Each round takes both, the order swapped every round (ABBA: a drift of the machine within
# a round favours neither); the ratio is the median of the rounds' ratios.
ratios="" o_all="" a_all=""
r=1
while [ "$r" -le "$rounds" ]; do
    if [ $((r % 2)) = 1 ]; then o=$(ossl); set -- $(ours); else set -- $(ours); o=$(ossl); fi
    q=$(awk -v a="$1" -v o="$o" 'BEGIN { if (o > 0) printf "%.3f", a / o; else print 0 }')
    echo "speed round $r: openssl $o MB/s, accelscope $1 MB/s ($2), ratio $q"
    o_all="$o_all $o" a_all="$a_all $1" ratios="$ratios $q"
    r=$((r + 1))
done
om=$(echo $o_all | tr ' ' '\n' | median)
am=$(echo $a_all | tr ' ' '\n' | median)
# The rounds' ratios without the lowest and the highest: how far one round can be trusted.
inner=$(echo $ratios | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print (NR > 2 ? v[2] " " v[NR - 1] : v[1] " " v[NR]) }')
echo "speed ratio range: $inner (rounds' ratios, lowest and highest left out)"
echo "speed medians: openssl $om MB/s, accelscope $am MB/s, ratio $(echo $ratios | tr ' ' '\n' | median)"
