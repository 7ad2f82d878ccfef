#!/bin/sh
# The TUI's side of issue 12, driven in tmux: public-key operations picked in setup, measured
# with `r` beside a cipher (two units in one run), and every view keeps each row's unit: the
# paths view shows ops/s bars for them, the sizes view becomes a key-size view for RSA, the
# matrix has a column per operation (ops/s) beside the cipher's (MB/s), the scaling view names
# the key size; ML-KEM says it needs OpenSSL >= 3.5 where the OpenSSL in use is older (else
# it is measured); `e` writes ops_per_s and us_per_op with mb_per_s empty, .md/.json/.svg
# say ops/s; `o` opens that CSV in the compare view in ops/s. A selection of public-key
# operations only runs without a block size. No CPU feature is assumed: only the unit, the
# key sizes and the rows' presence are checked, never which path is fastest.
# Usage: tests/tui/pk.sh [path/to/accelscope]. Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tui_require "${1:-./accelscope}"
tmp=$(mktemp -d /tmp/accelscope-tuipk.XXXXXX)
trap 'tui_kill_server; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
want() { if "$@"; then ok "$name"; else bad "$name" "${sess:-}"; fi; }

# The OpenSSL accelscope is linked with (not the openssl command's): ML-KEM from 3.5 on.
ver=$("$bin" info 2>/dev/null | sed -n 's/^openssl\.version: OpenSSL \([0-9][0-9]*\)\.\([0-9][0-9]*\)\..*/\1 \2/p')
set -- $ver
if [ $# -ne 2 ]; then
    echo "tests/tui/pk: accelscope info names no OpenSSL version"; echo "0 passed, 1 failed"; exit 1
fi
has_pq=0
{ [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 5 ]; }; } && has_pq=1
echo "OpenSSL $1.$2 in use: ML-KEM $( [ $has_pq = 1 ] && echo measured || echo 'needs OpenSSL >= 3.5')"

# block SESSION HEADING: the screen's lines of the chart block under the heading line that
# starts with HEADING (grep -E), up to the next heading; the heading itself first. Headings
# start in column 1, their rows further in (or with the cursor).
block() {
    tui_cap "$1" | awk -v h="^ $2" '
        on && /^ ( |▶)/ { print; next }
        { on = 0 }
        $0 ~ h { on = 1; print }'
}
# block_ok SESSION HEADING BODY_RE [NOT_RE]: the block is there, a row matches BODY_RE and
# none NOT_RE.
block_ok() {
    _b=$(block "$1" "$2")
    [ -n "$_b" ] || return 1
    printf '%s\n' "$_b" | sed 1d | grep -Eq -- "$3" || return 1
    [ -z "${4:-}" ] || ! printf '%s\n' "$_b" | grep -Eq -- "$4"
}
# has_block: block_ok once the screen shows it (a key just sent redraws), within 5 s.
has_block() {
    _end=$(( $(date +%s) + 5 ))
    until block_ok "$@"; do
        [ "$(date +%s)" -ge $_end ] && return 1
        sleep 0.1
    done
}
alive() { tui_cap "$1" | grep -q 'q quit' && ! tui_cap "$1" | grep -q '^EXIT='; }
# export_rows SESSION FILE WHAT HOW "ALG:BYTES ...": e writes FILE from the view shown, and
# its rows are those cells exactly (the view's, each public-key one at its key size).
export_rows() {
    tui_keys "$1" e C-u; tui_keys "$1" -l "$2"; tui_keys "$1" Enter
    check "$3: export writes its rows" "$1" "wrote [0-9]+ rows to $2"
    sess="" name="$3: the export has $4"
    want python3 - "$tmp/$2" "$5" <<'EOF'
import csv, sys
got = {r["algorithm"] + ":" + r["bytes"] for r in csv.DictReader(open(sys.argv[1]))}
assert got == set(sys.argv[2].split()), got ^ set(sys.argv[2].split())
EOF
    sess=$1
}
rate='[0-9.]+ [kM]?op/s'
mbs='[0-9.]+ [kMG]?B/s'

# 1. Setup: the public-key rows are opt-in and say what they measure.
tui_start pk 150 72 "$tmp" "$bin"
tui_wait pk 'q quit' 10
tui_keys pk 5 Home Left Left Left; tui_goto pk 'rsa2048-sign'
check "setup: a public-key row says ops/s at its key size" pk 'rsa2048-sign: public-key: .*key size.*ops/s'
pks="rsa2048-sign rsa2048-verify rsa3072-sign ecdsa-p256-verify x25519 mlkem768-encaps"
tui_pick pk "aes-128-gcm $pks" "16 B"
check "setup: public-key rows and a cipher picked" pk '\[x\] rsa3072-sign'
tui_keys pk 1 r
check "run: finishes" pk 'done in [0-9.]+ s' 60

# 2. Paths view: ops/s bars for the public-key rows, MB/s for the cipher, at its key size.
sess=pk
name="paths view: rsa2048-sign at 2048-bit, full bar in ops/s"
want tui_wait pk "^ rsa2048-sign 2048-bit · full bar $rate" 5
name="paths view: rsa2048-sign bars in ops/s, none in MB/s"
want has_block pk 'rsa2048-sign ' "(█|#).* $rate" "$mbs"
name="paths view: rsa3072-sign at 3072-bit in ops/s"
want has_block pk 'rsa3072-sign 3072-bit' "(█|#).* $rate" "$mbs"
name="paths view: ecdsa-p256-verify at 256-bit in ops/s"
want has_block pk 'ecdsa-p256-verify 256-bit' "(█|#).* $rate" "$mbs"
name="paths view: x25519 at 255-bit in ops/s"
want has_block pk 'x25519 255-bit' "(█|#).* $rate" "$mbs"
name="paths view: the cipher beside them keeps MB/s (mixed units, each its own)"
want has_block pk 'aes-128-gcm encrypt 16 B' "(█|#).* $mbs" "op/s"
if [ $has_pq = 1 ]; then
    name="paths view: ML-KEM-768 measured (OpenSSL >= 3.5)"
    want has_block pk 'mlkem768-encaps ML-KEM-768' "(█|#).* $rate"
else
    name="paths view: ML-KEM-768 needs OpenSSL >= 3.5, names this one"
    want has_block pk 'mlkem768-encaps ML-KEM-768' "unavailable: needs OpenSSL >= 3\\.5, this is $1\\.$2"
fi
tui_keys pk l
tui_wait pk 'scale log' 5
name="paths view, log scale: still ops/s for RSA"
want has_block pk 'rsa2048-sign ' "(█|#).* $rate" "$mbs"
tui_keys pk l

# 3. Sizes view: a key-size view for RSA (2048, 3072 on one scale); every algorithm shown in
#    turn, cipher and public-key, without a crash.
tui_keys pk 2
i=0
while [ $i -lt 10 ] && ! tui_wait pk 'algorithm ◀ rsa2048-sign ▶' 1; do tui_keys pk '>'; i=$((i + 1)); done
name="sizes view: RSA sign at 2048-bit in ops/s"
want has_block pk 'rsa2048-sign 2048-bit' "(█|#).* $rate" "$mbs"
name="sizes view: and at 3072-bit, the other key size picked"
want has_block pk 'rsa3072-sign 3072-bit' "(█|#).* $rate" "$mbs"
export_rows pk sizes.csv "sizes view" "both key sizes it shows" "rsa2048-sign:2048 rsa3072-sign:3072"
for k in 1 2 3 4 5 6 7 8; do tui_keys pk '>'; sleep 0.1; done
for k in 1 2 3 4 5 6 7 8; do tui_keys pk '<'; sleep 0.1; done
sleep 0.3
name="sizes view: every algorithm in turn, cipher and public-key, no crash"
want alive pk
check "sizes view: back on the cipher, its block sizes in MB/s" pk "aes-128-gcm encrypt 16 B"

# 4. Matrix: a column per operation, ops/s at key size beside the cipher's MB/s.
tui_keys pk 3
check "matrix: says which columns are ops/s" pk 'MB/s \(public-key columns: ops/s at their key size\) at 16 B'
name="matrix: a column per operation (rsa2048- sign/verify, rsa3072-, ecdsa-, x25519, mlkem768-)"
want sh -c "$TUI_T capture-pane -p -t pk | grep -E 'aes-128- +rsa2048- +rsa2048- +rsa3072- +ecdsa- +x25519 +mlkem768-' | grep -q . &&
            $TUI_T capture-pane -p -t pk | grep -Eq 'gcm +sign +verify +sign +p256-'"
name="matrix: OpenSSL's row has a figure in every public-key column it measures"
n='[0-9.]+[~*=]?'
want sh -c "$TUI_T capture-pane -p -t pk | grep -Eq '^ +hardware openssl +$n +$n +$n +$n +$n +$n +(n/a|$n) *\$'"
tui_keys pk Right
check "matrix: a public-key cell's details in op/s" pk "^ rsa2048-sign · .* · 2048-bit: $rate"
export_rows pk matrix.csv "matrix" "each operation at its key size, the cipher at 16 B" \
    "aes-128-gcm:16 rsa2048-sign:2048 rsa2048-verify:2048 rsa3072-sign:3072 ecdsa-p256-verify:256 x25519:255 mlkem768-encaps:768"

# 5. Scaling view: the key size and ops/s.
tui_keys pk 6
i=0
while [ $i -lt 8 ] && ! tui_wait pk '^ rsa2048-sign 2048-bit: throughput' 1; do tui_keys pk ']'; i=$((i + 1)); done
check "scaling view: rsa2048-sign at 2048-bit" pk '^ rsa2048-sign 2048-bit: throughput against threads' 1
check "scaling view: figures and efficiency in ops/s" pk "efficiency = ops/s\\(N\\)"
check "scaling view: an ops/s figure" pk "(█|#).* $rate"

# 6. Export of the paths view: .csv with ops_per_s and us_per_op, mb_per_s empty; .md,
#    .json, .svg say ops/s.
tui_keys pk 1
for ext in csv md json svg; do
    tui_keys pk e C-u; tui_keys pk -l "pk.$ext"; tui_keys pk Enter
    check "export paths view .$ext: status line" pk "wrote [0-9]+ rows to pk\\.$ext"
done
sess=""
name="export .csv: ops_per_s and us_per_op filled, mb_per_s empty for public-key rows; MB/s for the cipher"
want python3 - "$tmp/pk.csv" "$has_pq" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
pk = {"rsa2048-sign": 2048, "rsa2048-verify": 2048, "rsa3072-sign": 3072,
      "ecdsa-p256-verify": 256, "x25519": 255}
for a, bits in pk.items():
    mine = [r for r in rows if r["algorithm"] == a]
    assert mine, "no row of " + a
    assert all(r["bytes"] == str(bits) for r in mine), (a, [r["bytes"] for r in mine])
    okr = [r for r in mine if r["status"] == "ok"]
    assert okr, "no measured row of " + a
    for r in okr:
        ops, us = float(r["ops_per_s"]), float(r["us_per_op"])
        assert ops > 0 and r["mb_per_s"] == "", (a, r["mb_per_s"], r["ops_per_s"])
        assert abs(ops * us / 1e6 - 1) < 0.01, (a, ops, us)
aes = [r for r in rows if r["algorithm"] == "aes-128-gcm" and r["status"] == "ok"]
assert aes and all(float(r["mb_per_s"]) > 0 and r["ops_per_s"] == "" for r in aes), aes[:1]
ml = [r for r in rows if r["algorithm"] == "mlkem768-encaps"]
assert ml, "no ML-KEM row"
if sys.argv[2] == "1":
    assert any(r["status"] == "ok" and float(r["ops_per_s"]) > 0 for r in ml), ml
else:
    assert all(r["status"] == "unavailable" and "needs OpenSSL >= 3.5" in r["reason"] for r in ml), ml
EOF
name="export .md: a table per operation at its key size, said in ops/s"
want sh -c "grep -q 'operations per second (ops/s)' '$tmp/pk.md' && grep -q '^## rsa2048-sign' '$tmp/pk.md' && grep -q '| 2048-bit |' '$tmp/pk.md' && grep -q '| 3072-bit |' '$tmp/pk.md'"
name="export .json: parses; ops_per_s for RSA, mb_per_s for the cipher"
want python3 - "$tmp/pk.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert "ops_per_s" in d["units"], d["units"]
rsa = [c for c in d["cells"] if c["algorithm"] == "rsa2048-sign" and c["status"] == "ok"]
aes = [c for c in d["cells"] if c["algorithm"] == "aes-128-gcm" and c["status"] == "ok"]
assert rsa and all(c["ops_per_s"] > 0 and c["mb_per_s"] is None for c in rsa), rsa[:1]
assert aes and all(c["mb_per_s"] > 0 and c["ops_per_s"] is None for c in aes), aes[:1]
EOF
name="export .svg: XML; RSA figures in ops/s, the cipher's in MB/s"
want python3 - "$tmp/pk.svg" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
texts = ["".join(t.itertext()) for t in root.iter(ns + "text")]
def block(head): # the texts under a heading ("alg[ direction], size"), up to the next one
    i = texts.index(head) + 1
    j = next((k for k in range(i, len(texts)) if re.match(r"^[a-z0-9-]+( [a-z]+crypt)?, ", texts[k])), len(texts))
    return texts[i:j]
rsa, aes = block("rsa2048-sign, 2048-bit"), block("aes-128-gcm encrypt, 16 B")
assert any(" ops/s " in t for t in rsa) and not any("B/s" in t for t in rsa), rsa
assert any(re.search(r" [kMG]?B/s ", t) for t in aes) and not any("ops/s" in t for t in aes), aes
EOF

# 7. Compare: the saved CSV opened beside this run, in ops/s at key size.
tui_keys pk o
tui_wait pk 'Open a saved run' 5
tui_keys pk Home; tui_goto pk '.*\./pk\.csv' && tui_keys pk Enter
check "compare view: the CSV opened" pk ' o Compare( |$)'
# Side B is the file (A this run): its bars, letter in column 12.
sess=pk name="compare view: rsa2048-sign at 2048-bit, the file's side in ops/s"
want has_block pk 'rsa2048-sign 2048-bit' "^.{12}B .*(█|#).* $rate" "$mbs"
name="compare view: x25519 at 255-bit in ops/s"
want has_block pk 'x25519 255-bit' "^.{12}B .*(█|#).* $rate" "$mbs"
name="compare view: the cipher at 16 B in MB/s"
want has_block pk 'aes-128-gcm encrypt 16 B' "(█|#).* $mbs" "op/s"
for ext in csv svg; do
    tui_keys pk e C-u; tui_keys pk -l "cmp.$ext"; tui_keys pk Enter
    check "export compare .$ext: status line" pk "wrote [0-9]+ rows to cmp\\.$ext \\(comparison"
done
sess="" name="export compare: .csv has ops_per_s for RSA, .svg says ops/s"
want python3 - "$tmp/cmp.csv" "$tmp/cmp.svg" <<'EOF'
import csv, sys, xml.etree.ElementTree as ET
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["algorithm"] == "rsa2048-sign"]
assert rows and any(r["ops_per_s"] and float(r["ops_per_s"]) > 0 for r in rows), rows[:1]
root = ET.parse(sys.argv[2]).getroot()
text = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
assert "rsa2048-sign, 2048-bit" in text and " ops/s" in text, text[:300]
EOF
tui_keys pk Escape
sess=pk name="after every view: still running"
want alive pk
tui_keys pk q
check "quit: exit status 0" pk 'EXIT=0'

# 8. Public-key operations only: they run without a block size (their key's); a cipher
#    without one is named; the views say ops/s at key size.
tui_start only 120 40 "$tmp" "$bin"
tui_wait only 'q quit' 10
tui_pick only "aes-128-gcm rsa2048-sign" ""
tui_keys only 1 r
check "no block size: a cipher without one is named" only 'aes-128-gcm needs a block size'
tui_pick only "rsa2048-sign rsa3072-sign" ""
tui_keys only 1 r
check "public-key only, no block size: runs" only 'done in [0-9.]+ s' 60
sess=only name="public-key only: paths view in ops/s"
want has_block only 'rsa3072-sign 3072-bit' "(█|#).* $rate" "$mbs"
tui_keys only 2
name="public-key only: the sizes view shows the key sizes"
want has_block only 'rsa3072-sign 3072-bit' "(█|#).* $rate" "$mbs"
tui_keys only 3
check "public-key only: the matrix says ops/s at each key size" only '^ ops/s at each operation.s key size'
tui_keys only q
check "public-key only: quit, exit status 0" only 'EXIT=0'

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
