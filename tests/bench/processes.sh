#!/bin/sh
# Does a cell's figure depend on the worker process that measured it (issue 16)? The same
# small run, RUNS times over, each with fresh workers; per cell, the figures' spread from run
# to run against the interval each run claimed. A cell whose runs lie further apart than their
# intervals allow (max / min - 1 over twice the widest ci_pct, and over 3 %) has speeds that
# one process cannot show: `process modes`. The same test is applied to each xN over the
# column's slowest (`xN apart`), where every run called the comparison quiet against the same
# reference. The cells' clocks are printed beside them: a turbo clock that moved between runs
# moves every figure with it, which is not a process mode.
# On the Zen 5 VM (family 0x1a) of 2026-12-05, `openssl speed -elapsed -bytes 16 -evp sha1`
# with OPENSSL_ia32cap='~0xffffffffffffffff:0' read 125 or 79 MB/s, alternating from one
# process to the next (with setarch -R too, and pinned to either CPU); two default runs back
# to back read direct-vaes512 aes-128-ctr at 16 B 1931 and 1670 MB/s, each within +-1.5 %.
# Since then two worker processes take each one-worker cell's rounds in turn (engine.h
# job.alternate), and a cell whose two processes read it apart is noisy; 8 runs of the
# default selection below then put 10 of 19 figures apart beyond their intervals, while the
# runs' clocks moved between 3979 and 4206 MHz: the clock column says how much of a spread is
# the turbo clock's rather than a process's.
# Usage: tests/bench/processes.sh [RUNS] [run options...]
#   RUNS: 2 or more (default 8); run options default to -a sha1,aes-128-ctr,aes-192-cbc -s 16
#   -p c,asm,hw. A run that fails is counted out, not fatal; the kernel path is left out.
set -u
cd "$(dirname "$0")/../.." || exit 2
n=8
case ${1:-} in
-*) ;;
'') [ $# -gt 0 ] && shift ;;
*[!0-9]*) echo "processes.sh: RUNS must be a whole number of 2 or more (got '$1')" >&2; exit 2 ;;
*) n=$1; shift ;;
esac
[ "$n" -ge 2 ] || { echo "processes.sh: RUNS must be a whole number of 2 or more (got $n)" >&2; exit 2; }
[ $# -gt 0 ] || set -- -a sha1,aes-128-ctr,aes-192-cbc -s 16 -p c,asm,hw
make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
i=1
while [ "$i" -le "$n" ]; do
    ./accelscope run -q --no-save "$@" --csv "$work/$i.csv" || echo "run $i failed (exit $?)" >&2
    i=$((i + 1))
done
python3 - "$work" "$n" <<'PY'
import csv, os, sys
work, n = sys.argv[1], int(sys.argv[2])
runs = []
for i in range(1, n + 1):
    path = f"{work}/{i}.csv"
    if os.path.exists(path) and os.path.getsize(path):
        runs.append(list(csv.DictReader(open(path, newline=""))))
cells = {}
for rows in runs:
    slowest = {}
    for r in rows:
        if r["status"] == "ok" and r["vs_slowest"] and float(r["vs_slowest"]) == 1.0:
            slowest[(r["algorithm"], r["direction"], r["bytes"], r["threads"])] = r["implementation"]
    for r in rows:
        if r["status"] != "ok" or not r["mb_per_s"] or r["path"] == "kernel":
            continue
        col = (r["algorithm"], r["direction"], r["bytes"], r["threads"])
        r["reference"] = slowest.get(col, "")
        cells.setdefault(col + (r["implementation"],), []).append(r)

def judge(vals, cis):
    lo, hi = min(vals), max(vals)
    spread = (hi / lo - 1) * 100 if lo > 0 else 0
    allowed = max(3.0, 2 * max(cis))
    return spread, allowed, spread > allowed

m = len(runs)
print(f"{m} of {n} runs, each with its own worker processes; spread = max/min - 1 over the runs, "
      "allowed = twice the widest interval a run claimed (3 % at least)")
print(f"{'cell':40} {'MB/s min':>9} {'max':>9} {'spread':>7} {'allowed':>7} {'MHz min-max':>11}"
      f"  {'xN spread':>9}  verdict")
judged = flagged = flagged_x = claimed = 0
for key in sorted(cells):
    rs = cells[key]
    if len(rs) < m or m < 2:
        continue
    judged += 1
    mb = [float(r["mb_per_s"]) for r in rs]
    sp, allowed, bad = judge(mb, [float(r["ci_pct"] or 0) for r in rs])
    clocks = [float(r["clock_mhz"]) for r in rs if r["clock_mhz"]]
    ctxt = f"{min(clocks):.0f}-{max(clocks):.0f}" if clocks else "-"
    xtxt, xbad = "-", False
    if (all(r["comparison"] == "quiet" and r["vs_slowest"] for r in rs) and
            len({r["reference"] for r in rs}) == 1 and rs[0]["reference"] != key[-1]):
        xsp, _, xbad = judge([float(r["vs_slowest"]) for r in rs],
                             [float(r["vs_slowest_ci_pct"] or 0) for r in rs])
        xtxt = f"{xsp:8.1f}%"
    quiet_all = all(r.get("absolute", r["quality"]) == "quiet" for r in rs)
    verdict = "process modes" if bad else ""
    if xbad:
        verdict += ("; " if verdict else "") + "xN apart"
    if bad and quiet_all:
        verdict += " (absolute-quiet in every run)"
    flagged += bad
    flagged_x += xbad
    claimed += bad and quiet_all
    print(f"{' '.join(k for k in key if k):40} {min(mb):9.1f} {max(mb):9.1f} {sp:6.1f}% "
          f"{allowed:6.1f}% {ctxt:>11}  {xtxt:>9}  {verdict}")
print(f"{judged} cells measured in every run: {flagged} figures and {flagged_x} quiet speed-ups "
      f"apart beyond their intervals from run to run; {claimed} of those figures called "
      "absolute-quiet in every run")
PY
