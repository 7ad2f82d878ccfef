#!/bin/sh
# Threads as a dimension (issue 15): with -t 1,N (N = every CPU this process may use), each
# CPU-bound path at N threads against N x its 1-thread figure, from one run (the two counts
# measured minutes apart at most). Done means: within +-10 %, or the reason `run` gives
# (noisy, shared unit, memory bound) is printed beside it. The run's own scaling table is
# shown, then one line per row and the tally.
# Usage: tests/bench/scaling.sh [run options...]   (default: CTR, GCM, SHA-256, ChaCha20-Poly1305
# at 16 KiB on the c, asm and hw paths, 1 s per cell)
set -u
cd "$(dirname "$0")/../.." || exit 2
make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
n=$(nproc)
if [ "$n" -lt 2 ]; then
    echo "UNAVAILABLE: scaling: this process may use one CPU (nproc = 1)"
    exit 0
fi
[ $# -gt 0 ] || set -- -a aes-128-ctr,aes-128-gcm,sha256,chacha20-poly1305 -s 16k -p c,asm,hw -T 1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
./accelscope run --no-save -t "1,$n" "$@" --csv "$work/s.csv" > "$work/table.txt" 2>&1 || true
sed -n '/^scaling:/,$p' "$work/table.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/s.csv" "$work/table.txt" "$n" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
table = open(sys.argv[2]).read().splitlines()
n = sys.argv[3]
one = {(r["algorithm"], r["implementation"], r["bytes"]): r for r in rows if r["threads"] == "1"}
within = total = reasoned = 0
for r in rows:
    if r["threads"] != n:
        continue
    b = one.get((r["algorithm"], r["implementation"], r["bytes"]))
    if not b:
        continue
    total += 1
    eff = float(r["mb_per_s"]) / (int(n) * float(b["mb_per_s"]))
    ok = abs(eff - 1) <= 0.10
    within += ok
    why = ""
    if not ok:
        why = next((l.split("  ")[-1] for l in table
                    if l.split()[:3] == [r["path"], r["implementation"], n] and "%" in l), "")
        reasoned += bool(why)
    print("%-18s %-6s %-14s 1: %9.1f  %s: %9.1f  %sx1: %9.1f  efficiency %4.0f %%  %s%s" % (
        r["algorithm"], r["path"], r["implementation"], float(b["mb_per_s"]), n,
        float(r["mb_per_s"]), n, int(n) * float(b["mb_per_s"]), eff * 100,
        "within +-10 %" if ok else "off: ", why))
print("%d of %d rows within +-10 %% of %s x their 1-thread figure; %d of the others with a reason"
      % (within, total, n, reasoned))
sys.exit(0 if total and within + reasoned == total else 1)
PY
