#!/bin/sh
# How well one comparison repeats from one visit to the next (issue 16), at the default
# --time and at a longer one, alternated in one run of this script (short long short long ...)
# so a drift of the machine hits both alike. Each visit is a run of one column of two cells:
# its speed-up (B over A, from their paired ratios to the column's slowest) and whether the
# run called it quiet. Printed per --time: the visits' median, range, how many are within 3 %
# of that median, and of those the run called quiet, how many are.
# On the Zen 5 VM (2026-12-01), sha256 at 256 B, openssl over portable: 80 visits at 0.15 s
# gave 2.48..4.49x, 65 % of them within 3 % of the one before (as many 40 visits apart),
# although each run's interval said +-2..5 %; 8 visits at 1 s, in a calm spell, gave
# 2.925..3.006x, but this script an hour later: 0.15 s 2.755..4.722x (7 of 10 within 3 % of
# the median), 1 s 2.825..4.333x (5 of 10). Longer rounds are no cure; what moves is the
# memory path (tests/bench/probes_bench.c).
# Usage: tests/bench/visits.sh [VISITS] [ALGORITHM] [SIZE] [A,B] [LONG_TIME]
set -u
cd "$(dirname "$0")/../.." || exit 2
n=${1:-10}
alg=${2:-sha256}
size=${3:-256}
impls=${4:-portable,openssl}
long=${5:-1}
case $n in '' | *[!0-9]*) echo "visits.sh: VISITS must be a whole number (got '$n')" >&2; exit 2 ;; esac
case $impls in *,*) ;; *) echo "visits.sh: A,B must name two implementations (got '$impls')" >&2; exit 2 ;; esac
make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
i=1
while [ "$i" -le "$n" ]; do
    for t in 0.15 "$long"; do
        ./accelscope run -q --no-save -a "$alg" -s "$size" -i "$impls" -T "$t" \
            --csv "$work/$t-$i.csv" || exit 1
    done
    i=$((i + 1))
done
python3 - "$work" "$n" "$impls" "$long" <<'PY'
import csv, statistics, sys
work, n, impls, long = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4]
for t in ("0.15", long):
    vis = []
    for i in range(1, n + 1):
        rows = {r["implementation"]: r for r in csv.DictReader(open(f"{work}/{t}-{i}.csv"))}
        a, b = rows.get(impls[0]), rows.get(impls[1])
        if not a or not b or a["status"] != "ok" or b["status"] != "ok" or not a["vs_slowest"] \
                or not b["vs_slowest"]:
            print(f"--time {t} visit {i}: no figure for both ({impls})")
            continue
        q = a["comparison"] == "quiet" and b["comparison"] == "quiet"
        vis.append((float(b["vs_slowest"]) / float(a["vs_slowest"]), q,
                    float(b["vs_slowest_ci_pct"] or 0) + float(a["vs_slowest_ci_pct"] or 0)))
    if not vis:
        continue
    med = statistics.median(v for v, _, _ in vis)
    near = [abs(v / med - 1) <= 0.03 for v, _, _ in vis]
    quiet = [k for k, (_, q, _) in enumerate(vis) if q]
    print(f"--time {t}: {len(vis)} visits, {impls[1]} over {impls[0]} median {med:.3f}x, "
          f"range {min(v for v, _, _ in vis):.3f}..{max(v for v, _, _ in vis):.3f}, "
          f"{sum(near)} within 3 % of the median; {len(quiet)} called quiet, "
          f"{sum(near[k] for k in quiet)} of them within 3 %; their own intervals "
          f"+-{statistics.median(c for _, _, c in vis):.1f} % (median of both sides' sum)")
PY
