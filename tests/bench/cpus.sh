#!/bin/sh
# Are this machine's CPUs alike from one second to the next (issue 16)? One column of two
# implementations, run with the whole program pinned to each CPU in turn (taskset), VISITS
# times over: per visit and CPU, both figures, their ratio and the clock. Where the CPUs
# differ in the same seconds, two bars measured on different CPUs compare the CPUs as much as
# the code: why a one-worker column runs on one CPU (src/cpupick.h).
# On the Zen 5 VM (2026-12-02), sha256 at 256 B, portable then openssl: for visits 1-5 CPU 1
# read 213-215 and 826-844 MB/s (ratio 3.86-3.93, 3280-3310 MHz) while CPU 0 read 317-342 and
# 932-1006 (2.78-3.06, 3370-3440 MHz); visits 6-9 both fast; 10-12 CPU 0 slow (3.72-3.83).
# Usage: tests/bench/cpus.sh [VISITS] [ALGORITHM] [SIZE] [A,B]
set -u
cd "$(dirname "$0")/../.." || exit 2
n=${1:-10}
alg=${2:-sha256}
size=${3:-256}
impls=${4:-portable,openssl}
case $n in '' | *[!0-9]*) echo "cpus.sh: VISITS must be a whole number (got '$n')" >&2; exit 2 ;; esac
case $impls in *,*) ;; *) echo "cpus.sh: A,B must name two implementations (got '$impls')" >&2; exit 2 ;; esac
command -v taskset >/dev/null || { echo "cpus.sh: needs taskset (util-linux)" >&2; exit 2; }
make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
cpus=$(python3 -c 'import os; print(" ".join(str(c) for c in sorted(os.sched_getaffinity(0))[:4]))')
i=1
while [ "$i" -le "$n" ]; do
    for c in $cpus; do
        taskset -c "$c" ./accelscope run -q --no-save -a "$alg" -s "$size" -i "$impls" \
            --csv "$work/$c-$i.csv" || exit 1
    done
    i=$((i + 1))
done
python3 - "$work" "$n" "$impls" $cpus <<'PY'
import csv, sys
work, n, (a, b), cpus = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
print(f"{'visit':>5} " + "  ".join(f"cpu{c}: {a:>9} {b:>9} ratio    MHz" for c in cpus))
for i in range(1, n + 1):
    cols = []
    for c in cpus:
        rows = {r["implementation"]: r for r in csv.DictReader(open(f"{work}/{c}-{i}.csv"))}
        x, y = rows.get(a), rows.get(b)
        if not x or not y or not x["mb_per_s"] or not y["mb_per_s"]:
            cols.append(f"cpu{c}: no figure for both")
            continue
        fx, fy = float(x["mb_per_s"]), float(y["mb_per_s"])
        cols.append(f"cpu{c}: {fx:9.1f} {fy:9.1f} {fy / fx:5.3f} {x['clock_mhz']:>6}")
    print(f"{i:>5} " + "  ".join(cols))
PY
