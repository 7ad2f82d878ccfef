#!/bin/sh
# Does a cell's figure depend on the worker process that measured it (issue 16)? The same
# small run, RUNS times over, each a fresh set of workers; per cell, the figures' spread from
# run to run against the interval each run claimed. A cell whose runs lie further apart than
# their intervals allow (max / min - 1 over twice the widest ci_pct, and over 3 %) has speeds
# that one process cannot show: `process modes`. So do speed-ups over the column's slowest.
# On the Zen 5 VM (family 0x1a) of 2026-12-05, `openssl speed -elapsed -bytes 16 -evp sha1`
# with OPENSSL_ia32cap='~0xffffffffffffffff:0' read 125 or 79 MB/s, alternating from one
# process to the next (with setarch -R too, and pinned to either CPU); two default runs back
# to back read direct-vaes512 aes-128-ctr at 16 B 1931 and 1670 MB/s, each within +-1 %.
# A fix (each cell sampled in more than one worker process) is judged here: it should turn
# every cell flagged below noisy, or make its runs agree.
# Usage: tests/bench/processes.sh [RUNS] [run options...]
#   (default 8 runs of -a sha1,aes-128-ctr,aes-192-cbc -s 16 -p c,asm,hw)
set -u
cd "$(dirname "$0")/../.." || exit 2
n=${1:-8}
case $n in '' | *[!0-9]*) echo "processes.sh: RUNS must be a whole number of 2 or more (got '$n')" >&2; exit 2 ;; esac
[ "$n" -ge 2 ] || { echo "processes.sh: RUNS must be 2 or more (got $n)" >&2; exit 2; }
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -a sha1,aes-128-ctr,aes-192-cbc -s 16 -p c,asm,hw
make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
i=1
while [ "$i" -le "$n" ]; do
    ./accelscope run -q --no-save "$@" --csv "$work/$i.csv" || exit 1
    i=$((i + 1))
done
python3 - "$work" "$n" <<'PY'
import csv, sys
work, n = sys.argv[1], int(sys.argv[2])
cells = {}
for i in range(1, n + 1):
    for r in csv.DictReader(open(f"{work}/{i}.csv", newline="")):
        if r["status"] != "ok" or not r["mb_per_s"]:
            continue
        key = (r["algorithm"], r["direction"], r["bytes"], r["threads"], r["implementation"])
        cells.setdefault(key, []).append(r)

def judge(vals, cis):
    lo, hi = min(vals), max(vals)
    spread = (hi / lo - 1) * 100 if lo > 0 else 0
    allowed = max(3.0, 2 * max(cis))
    return spread, allowed, spread > allowed

print(f"{n} runs, each its own worker processes; spread = max/min - 1 over the runs, "
      "allowed = twice the widest interval a run claimed (3 % at least)")
print(f"{'cell':44} {'MB/s min':>9} {'median':>9} {'max':>9} {'spread':>7} {'allowed':>7}  "
      f"{'xN spread':>9}  verdict")
flagged = flagged_x = quiet_flagged = 0
for key in sorted(cells):
    rs = cells[key]
    if len(rs) < n:
        continue
    mb = sorted(float(r["mb_per_s"]) for r in rs)
    sp, allowed, bad = judge(mb, [float(r["ci_pct"] or 0) for r in rs])
    xs = [float(r["vs_slowest"]) for r in rs if r["vs_slowest"]]
    xtxt, xbad = "-", False
    if len(xs) == n and min(xs) > 0 and any(x != 1.0 for x in xs):
        xsp, xallowed, xbad = judge(xs, [float(r["vs_slowest_ci_pct"] or 0) for r in rs])
        xtxt = f"{xsp:8.1f}%"
    quiet_all = all(r["quality"] == "quiet" for r in rs)
    verdict = "process modes" if bad else ""
    if xbad:
        verdict += ("; " if verdict else "") + "xN apart"
    if bad and quiet_all:
        verdict += " (every run called it quiet)"
    flagged += bad
    flagged_x += xbad
    quiet_flagged += bad and quiet_all
    print(f"{' '.join(k for k in key if k):44} {mb[0]:9.1f} {mb[len(mb) // 2]:9.1f} {mb[-1]:9.1f} "
          f"{sp:6.1f}% {allowed:6.1f}%  {xtxt:>9}  {verdict}")
print(f"{len(cells)} cells: {flagged} figures and {flagged_x} speed-ups apart beyond their "
      f"intervals from run to run; {quiet_flagged} of those figures called quiet in every run")
PY
