#!/bin/sh
# Figures you can trust (issue 16), measured in one run of this script:
#  1. repeatability: two runs back to back; the speed-up of each implementation over portable
#     C at the same algorithm and size must agree within +-3 % on >= 95 % of the cells whose
#     comparison both runs call quiet, and >= 80 % of the cells must be quiet;
#  2. contention: a third run with one busy loop per CPU (nice 0); every speed-up the loaded
#     run calls quiet must be within +-5 % of the quiet run's; the table shows each cell;
#  3. -t N on every CPU: the workers' timed windows overlap >= 95 %;
#  4. absolute figures: of the cells whose MB/s runs 1 and 2 both claim to repeat (CSV
#     absolute: quiet, judged beside a saved run 0), how many agree within 3 %.
# Usage: tests/bench/trust.sh [run options...]   (default: the default selection of run)
# TRUST_KEEP=DIR keeps the runs' CSVs there (z.csv run 0, a.csv, b.csv quiet, c.csv loaded,
# t.csv -t N); TRUST_JUDGE=DIR judges such a folder again without running anything.
set -u
case "${TRUST_JUDGE:-}" in /* | "") ;; *) TRUST_JUDGE=$(pwd)/$TRUST_JUDGE ;; esac # before the cd
cd "$(dirname "$0")/../.." || exit 2
[ -n "${TRUST_JUDGE:-}" ] || make --no-print-directory accelscope >/dev/null || exit 2
work=$(mktemp -d)
busy=""
trap 'for p in $busy; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
# a run 0 is saved there, as a user's runs are, and runs 1..3 (not saved) judge their absolute
# figures beside its clocks and claimed figures (lastrun.h), as they would beside the user's
# last run. Judged beside each other, run 2 would repeat run 1's claims by construction.
export XDG_DATA_HOME="$work/data"
ncpu=$(getconf _NPROCESSORS_ONLN)

# Wall seconds of a command, into $work/$1.time (the default run's target is <= 90 s).
timed() {
    name=$1
    shift
    t0=$(date +%s.%N)
    "$@" || true
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }' > "$work/$name.time"
}
if [ -n "${TRUST_JUDGE:-}" ]; then # judge the runs TRUST_KEEP kept, without running again
    [ $# -eq 0 ] || { echo "trust.sh: TRUST_JUDGE takes no run options (the kept runs have theirs)" >&2; exit 2; }
    for f in z.csv a.csv b.csv c.csv t.csv z.time a.time b.time c.time; do
        [ -f "$TRUST_JUDGE/$f" ] ||
            { echo "trust.sh: TRUST_JUDGE=$TRUST_JUDGE has no $f (a TRUST_KEEP folder has z, a, b, c and t.csv, and z, a, b and c.time)" >&2; exit 2; }
    done
    cp "$TRUST_JUDGE"/*.csv "$TRUST_JUDGE"/*.time "$work"/ || exit 2
else
echo "run 0 (quiet, the saved run the others are judged beside)" >&2
timed z ./accelscope run -q "$@" --csv "$work/z.csv"
ls "$XDG_DATA_HOME"/accelscope/results/*.csv >/dev/null 2>&1 ||
    { echo "trust.sh: run 0 was not saved: nothing to judge runs 1-3 beside" >&2; exit 2; }
echo "run 1 (quiet)" >&2
timed a ./accelscope run -q --no-save "$@" --csv "$work/a.csv"
echo "run 2 (quiet)" >&2
timed b ./accelscope run -q --no-save "$@" --csv "$work/b.csv"
echo "run 3 ($ncpu busy loops)" >&2
i=0
while [ "$i" -lt "$ncpu" ]; do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
    i=$((i + 1))
done
timed c ./accelscope run -q --no-save "$@" --csv "$work/c.csv"
for p in $busy; do kill "$p" 2>/dev/null; done
busy=""
echo "-t $ncpu overlap" >&2
./accelscope run -q --no-save -a sha256,aes-128-cbc -s 16k -p hw -t "$ncpu" --csv "$work/t.csv" || true

if [ -n "${TRUST_KEEP:-}" ]; then
    mkdir -p "$TRUST_KEEP" && cp "$work"/*.csv "$work"/*.time "$TRUST_KEEP"/ || exit 2
fi
fi

# the clock rule as the program has it, not a copy that drifts (it once read 1.5 after the
# program moved to 0.75)
clock_ref=$(awk '$1 == "#define" && $2 == "STATS_CLOCK_REF_PCT" { print $3 }' src/stats.h)
[ -n "$clock_ref" ] || { echo "trust.sh: no STATS_CLOCK_REF_PCT in src/stats.h" >&2; exit 2; }
python3 - "$work" "$clock_ref" <<'PY'
import csv, sys
work = sys.argv[1]
clock_ref = float(sys.argv[2])

def load(name):
    cells = {}
    with open(f"{work}/{name}", newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok" or r["same_code_as"]:
                continue
            key = (r["algorithm"], r["direction"], int(r["bytes"]))
            cells.setdefault(key, {})[(r["path"], r["implementation"])] = r
    return cells

def speedups(cells):
    """Speed-up over portable C at the same algorithm and size, from the paired ratios to
    the column's slowest row (both relative to one reference, so their ratio is paired too)."""
    out = {}
    for key, rows in cells.items():
        ref = rows.get(("c", "portable"))
        if not ref or not ref["vs_slowest"]:
            continue
        for impl, r in rows.items():
            if impl == ("c", "portable") or not r["vs_slowest"]:
                continue
            quiet = r["comparison"] == "quiet" and ref["comparison"] == "quiet"
            # the two rows' intervals of their paired ratios to the slowest, and why rounds
            # were retaken: what a disagreement between runs had to go on
            why = f"{r['vs_slowest_ci_pct'] or '-'}/{ref['vs_slowest_ci_pct'] or '-'} %"
            out[key + impl] = (float(r["vs_slowest"]) / float(ref["vs_slowest"]), quiet, why,
                               r.get("retaken_why", "") + " | " + ref.get("retaken_why", ""))
    return out

a, b, ld = (speedups(load(n)) for n in ("a.csv", "b.csv", "c.csv"))
for n, label in (("z", "run 0 (quiet, saved)"), ("a", "run 1 (quiet)"), ("b", "run 2 (quiet)"),
                 ("c", "run 3 (loaded)")):
    with open(f"{work}/{n}.time") as f:
        print(f"{label}: {float(f.read()):.1f} s wall (target for a default run on a quiet machine: <= 90 s)")

def quality(name):
    """Cells (not comparisons) by their own quality column, CPU-bound ones (no kernel)."""
    q = {"quiet": 0, "noisy": 0}
    with open(f"{work}/{name}", newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["path"] != "kernel" and r["quality"] in q:
                q[r["quality"]] += 1
    return q
qa = quality("a.csv")
print(f"cells by their own figure: {qa['quiet']} quiet, {qa['noisy']} noisy in run 1 "
      f"({100 * qa['quiet'] / max(qa['quiet'] + qa['noisy'], 1):.0f} % quiet)")
common = sorted(set(a) & set(b))
quiet_both = [k for k in common if a[k][1] and b[k][1]]
agree = [k for k in quiet_both if abs(b[k][0] / a[k][0] - 1) <= 0.03]
nq = sum(1 for k in common if a[k][1])
print(f"repeatability: {len(common)} speed-ups over portable C in both runs; "
      f"{nq} ({100 * nq / max(len(common), 1):.0f} %) quiet in run 1 (target >= 80 %); "
      f"of {len(quiet_both)} quiet in both, {len(agree)} "
      f"({100 * len(agree) / max(len(quiet_both), 1):.0f} %) agree within 3 % (target >= 95 %)")
def absolute(name):
    """Each CPU-bound cell's own figure and clock, by algorithm, direction, size, impl, threads."""
    out = {}
    with open(f"{work}/{name}", newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["path"] != "kernel" and r["mb_per_s"]:
                out[(r["algorithm"], r["direction"], r["bytes"], r["implementation"],
                     r["threads"])] = r
    return out
xa, xb = absolute("a.csv"), absolute("b.csv")
def within(k, per_clock):
    """The two runs' MB/s (or MB/s over each cell's clock_mhz) within 3 %."""
    f = lambda r: float(r["mb_per_s"]) / (float(r["clock_mhz"]) if per_clock else 1.0)
    return (not per_clock or (xa[k]["clock_mhz"] and xb[k]["clock_mhz"])) and \
        abs(f(xb[k]) / f(xa[k]) - 1) <= 0.03
clocks = sorted({int(float(x[k]["clock_mhz"])) for x in (xa, xb) for k in x if x[k]["clock_mhz"]})
print(f"the cells' clocks ranged {clocks[0] if clocks else 0}..{clocks[-1] if clocks else 0} MHz")
# the claim the CSV makes: `absolute` quiet (stats.h STATS_ABSOLUTE_CI_PCT); an older CSV
# without the column is judged by `quality`
col = "absolute" if "absolute" in next(iter(xa.values()), {}) else "quality"
# (the column is `qcol`: a loop variable `c` here once replaced the loaded run's speed-ups
# below, and the contention table judged nothing from 2026-12-03 to 2026-12-05)
for label, qcol in (("quality (interval within +-5 %)", "quality"), (f"{col} (the CSV's claim)", col)):
    both = [k for k in set(xa) & set(xb) if xa[k][qcol] == "quiet" and xb[k][qcol] == "quiet"]
    raw = [k for k in both if within(k, 0)]
    clk = [k for k in both if within(k, 1)]
    nq = sum(1 for k in xa if xa[k][qcol] == "quiet")
    print(f"absolute figures, cells {label} quiet: {nq} of {len(xa)} in run 1 "
          f"({100 * nq / max(len(xa), 1):.0f} %); of {len(both)} quiet in both runs, {len(raw)} "
          f"({100 * len(raw) / max(len(both), 1):.0f} %) within 3 % (target: all, or noisy), "
          f"per core clock {len(clk)} ({100 * len(clk) / max(len(both), 1):.0f} %)")
    if qcol == col:
        for k in sorted(set(both) - set(raw)):
            print(f"  {' '.join(k)}: {xa[k]['mb_per_s']} -> {xb[k]['mb_per_s']} MB/s, CI "
                  f"{xa[k]['ci_pct']}/{xb[k]['ci_pct']} %, clock {xa[k]['clock_mhz']}/{xb[k]['clock_mhz']}")
# the claim judged on run 1's side alone (run 2 may withdraw its own claim where it moved from
# run 0, which would take exactly the misses out of the set above)
claims = [k for k in set(xa) & set(xb) if xa[k]["absolute"] == "quiet"]
kept = [k for k in claims if within(k, 0)]
print(f"absolute claims of run 1 against run 2's MB/s, whatever run 2 says: {len(kept)} of "
      f"{len(claims)} ({100 * len(kept) / max(len(claims), 1):.0f} %) within 3 %")
for name, x in (("run 1", xa), ("run 2", xb)):
    ref = [k for k in x if x[k].get("last_mb_per_s") or x[k].get("last_ops_per_s")]
    off = [k for k in ref if x[k]["quality"] == "quiet" and x[k]["absolute"] == "noisy" and
           abs(float(x[k]["mb_per_s"] or 0) / float(x[k]["last_mb_per_s"] or x[k]["mb_per_s"] or 1) - 1) > 0.03]
    clk = [k for k in x if x[k].get("clock_ref_mhz") and x[k]["clock_mhz"] and
           abs(float(x[k]["clock_mhz"]) / float(x[k]["clock_ref_mhz"]) - 1) > clock_ref / 100]
    print(f"{name} beside run 0: {len(ref)} cells with a figure run 0 could claim, {len(off)} of "
          f"them off it by more than 3 %; {len(clk)} cells at a clock more than {clock_ref} % off run 0's "
          f"(stats.h STATS_CLOCK_REF_PCT)")
apart = [k for k in quiet_both if k not in agree]
if apart:
    print("quiet in both runs, more than 3 % apart (speed-ups; +-CI of the row's and portable's "
          "ratio to the slowest in each run; retaken rounds, row | portable, in each run):")
for k in apart:
    print(f"  {k[0]} {k[1]} {k[2]} {k[4]}: {a[k][0]:.3f} -> {b[k][0]:.3f} "
          f"({b[k][0] / a[k][0]:.3f}); CI {a[k][2]}, {b[k][2]}; retaken {a[k][3]} ; {b[k][3]}")
print()
print(f"{'algorithm':18} {'dir':7} {'bytes':>6} {'path':6} {'implementation':16} "
      f"{'quiet':>7} {'loaded':>7} {'loaded/quiet':>12} quality(loaded)")
bad = n_lq = 0
for k in sorted(set(a) & set(ld)):
    r = ld[k][0] / a[k][0]
    q = "quiet" if ld[k][1] else "noisy"
    if ld[k][1]:
        n_lq += 1
        bad += abs(r - 1) > 0.05
    print(f"{k[0]:18} {k[1]:7} {k[2]:>6} {k[3]:6} {k[4]:16} {a[k][0]:7.2f} {ld[k][0]:7.2f} {r:12.3f} {q}")
print(f"\ncontention: {len(set(a) & set(ld))} speed-ups in the quiet and the loaded run; "
      f"{n_lq} called quiet under load, {bad} of them more than 5 % "
      f"from the quiet run's (target 0)")
ov = []
with open(f"{work}/t.csv", newline="") as f:
    for r in csv.DictReader(f):
        if r["status"] == "ok" and r["overlap_pct"]:
            ov.append((r["algorithm"], r["implementation"], float(r["overlap_pct"])))
for alg, impl, o in ov:
    print(f"-t overlap: {alg} {impl}: {o:.1f} % (target >= 95 %)")
PY
