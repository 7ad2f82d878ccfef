#!/usr/bin/env python3
"""Checks the rows of an accelscope CSV (run --csv or the TUI's export) for tests/cpus/run.sh
and tests/tui/quick.sh: each row verified (status ok, a figure) or is unavailable with its
reason. Exit 1, naming the rows, otherwise.

Usage: rows_check.py CSV WRONG [ALG/IMPL/FEATURE...]
  WRONG    implementation whose aes-128-ctr row must be "wrong output" ("" for none)
  ALG/IMPL/FEATURE  a row that must be unavailable because the CPU lacks FEATURE
"""
import csv
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    wrong, reasons = sys.argv[2], sys.argv[3:]
    by = {(r["algorithm"], r["implementation"]): r for r in rows}
    bad = [] if rows else ["no rows"]
    for r in rows:
        tag = "%s/%s: %s %s" % (r["algorithm"], r["implementation"], r["status"], r["reason"])
        if wrong and r["implementation"] == wrong and r["algorithm"] == "aes-128-ctr":
            if r["status"] != "wrong output":
                bad.append("expected wrong output: " + tag)
        elif r["status"] == "unavailable":
            if not r["reason"]:
                bad.append("no reason: " + tag)
        elif r["status"] != "ok" or not float(r["mb_per_s"] or 0) > 0:
            bad.append(tag)
    for spec in reasons:
        alg, impl, feat = spec.split("/")
        r = by.get((alg, impl))
        if not r or r["status"] != "unavailable" or ("lacks " + feat + " ") not in r["reason"]:
            bad.append("%s/%s should be unavailable: CPU lacks %s (%s)"
                       % (alg, impl, feat, r and r["reason"]))
    if bad:
        print("\n".join("    " + b for b in bad))
        sys.exit(1)
    count = {s: sum(r["status"] == s for r in rows) for s in ("ok", "unavailable", "wrong output")}
    print("    %d rows (%s): %d ok, %d unavailable, %d wrong output"
          % (len(rows), ",".join(sorted({r["algorithm"] for r in rows})), count["ok"],
             count["unavailable"], count["wrong output"]))


main()
