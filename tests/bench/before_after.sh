#!/bin/sh
# Before/after: the default `accelscope run` of an earlier commit (default: the last one
# before the measurement session, 990c922) and of this tree, alternated ROUNDS times in one
# run of this script (old new old new ...), so a drift of the machine hits both alike.
# Prints, per cell, the median MB/s of each side and their ratio, then how many cells agree
# within 5 % and 10 %. A refactoring that "changes no figure" shows ratios around 1.00.
# Usage: tests/bench/before_after.sh [OLD_COMMIT] [ROUNDS] [extra run options...]
set -u
cd "$(dirname "$0")/../.." || exit 2
old=${1:-990c922}
rounds=${2:-2}
[ $# -ge 2 ] && shift 2 || shift $#
work=$(mktemp -d)
export XDG_DATA_HOME="$work/xdg" # runs are saved: not into the home folder
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add --detach "$work/old" "$old" >/dev/null 2>&1 || { echo "cannot check out $old"; exit 2; }
make -C "$work/old" --no-print-directory accelscope >/dev/null 2>&1 || { echo "cannot build $old"; exit 2; }
make --no-print-directory accelscope >/dev/null || exit 2
i=1
while [ "$i" -le "$rounds" ]; do
    for side in old new; do
        bin=./accelscope
        [ "$side" = old ] && bin="$work/old/accelscope"
        echo "round $i: $side" >&2
        "$bin" run -q "$@" --csv "$work/$side-$i.csv" || true
    done
    i=$((i + 1))
done
python3 - "$work" "$rounds" <<'PY'
import csv, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def load(side):
    cells = {}
    for i in range(1, rounds + 1):
        with open(f"{work}/{side}-{i}.csv", newline="") as f:
            for r in csv.DictReader(f):
                key = (r["algorithm"], r["path"], r["implementation"], int(r["bytes"]))
                if r["status"] == "ok":
                    cells.setdefault(key, []).append(float(r["mb_per_s"]))
                else:
                    cells.setdefault(key, [])
    return cells
old, new = load("old"), load("new")
print(f"{'algorithm':18} {'path':6} {'implementation':28} {'bytes':>6} {'before':>9} {'after':>9} {'after/before':>12}")
within5 = within10 = n = 0
for key in sorted(set(old) | set(new)):
    a, b = old.get(key, []), new.get(key, [])
    if not a or not b:
        if a or b:
            print(f"{key[0]:18} {key[1]:6} {key[2]:28} {key[3]:>6} {'-' if not a else statistics.median(a):>9} {'-' if not b else statistics.median(b):>9}   only one side has a figure")
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    r = mb / ma
    n += 1
    within5 += abs(r - 1) <= 0.05
    within10 += abs(r - 1) <= 0.10
    print(f"{key[0]:18} {key[1]:6} {key[2]:28} {key[3]:>6} {ma:9.1f} {mb:9.1f} {r:12.3f}")
missing = len(set(old) ^ set(new))
print(f"\n{n} cells with figures on both sides; {within5} ({100*within5/max(n,1):.0f} %) within 5 %, "
      f"{within10} ({100*within10/max(n,1):.0f} %) within 10 %; {missing} cells in one plan only")
PY
