#!/bin/sh
# The TUI's side of issue 11, driven in tmux: `o` opens saved runs (the results folder and
# *.csv here, newest first, host, CPU and date of each) into the compare view (one bar per
# machine and path, xN over side A, ~ on noisy figures); `e` writes by extension (.csv .md
# .json .svg, validated; a bad extension writes nothing); a finished run is saved and the
# status line says where (or that saving is off, or why it failed); `accelscope demo
# --against FILE.csv` puts the saved board beside this one and claims only from quiet figures.
# Usage: tests/tui/compare.sh [path/to/accelscope]. Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../data" && pwd)
. "$here/lib.sh"
tui_require "${1:-./accelscope}"
tmp=$(mktemp -d /tmp/accelscope-tuicmp.XXXXXX)
trap 'tui_kill_server; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
xdg=$tmp/xdg
results=$xdg/accelscope/results
want() { if "$@"; then ok "$name"; else bad "$name" "${sess:-}"; fi; }

# Two machines' runs in the working folder (the newer file first in the list), and two
# malformed ones: one wrong in its header (listed with its error: only a file's header and
# first row are read for the list), one wrong further down (the error when it is opened).
cp "$data/epyc-milan.csv" "$data/westmere-qemu.csv" "$data/malformed-quote.csv" \
   "$data/malformed-binary.csv" "$tmp/"
touch -d '2026-11-30 10:00' "$tmp/westmere-qemu.csv"
touch -d '2026-11-30 09:00' "$tmp/malformed-quote.csv"
touch -d '2026-11-30 08:00' "$tmp/malformed-binary.csv"
touch -d '2026-11-30 11:00' "$tmp/epyc-milan.csv"

# 1. o lists them, newest first, with host, CPU and date.
tui_start cmp 170 44 "$tmp" env XDG_DATA_HOME="$xdg" "$bin"
tui_wait cmp 'q quit' 10
tui_keys cmp o
check "open: o lists the saved runs" cmp 'Open a saved run \(4\)'
check "open: host, CPU and date of each" cmp '2026-11-30 22:16 +vm +AMD EPYC \(EPYC \(Milan\)\) +\./epyc-milan\.csv'
sess=cmp name="open: newest first (epyc, westmere, then the malformed one)"
want sh -c "$TUI_T capture-pane -p -t cmp | grep -E 'epyc-milan|westmere-qemu|malformed-quote' | sed -E 's/.*\\.\\/([a-z-]+)\\.csv.*/\\1/' | tr '\\n' ' ' | grep -q '^epyc-milan westmere-qemu malformed-quote '"
check "open: a file wrong in its header listed with why" cmp 'malformed-binary\.csv: line 1: not a result of'

# 2. Open both: the compare view shows both machines, a xN, noisy figures with their ~.
tui_keys cmp Enter
check "compare view: side A is the first file opened" cmp '^ A +vm · AMD EPYC \(EPYC \(Milan\)\) · kernel 6\.18'
tui_keys cmp o
tui_goto cmp '.*westmere-qemu' && tui_keys cmp Enter
check "compare view: side B, the other machine, by what its CSV says" cmp '^ B +vm · Westmere E56xx.* · OpenSSL 3\.0\.22'
check "compare view: the compare tab" cmp ' o Compare( |$)'
check "compare view: one bar per machine and path" cmp '^ +hardware +A vm / AMD EPYC'
check "compare view: B's bar with xN against A" cmp '^ +B vm / Westmere.*(█|▏|▎|▍|▌|▋|▊|▉).*/s.* ×0\.[0-9]+'
check "compare view: a noisy figure keeps its ~" cmp '[0-9] (MB|GB)/s~'
tui_keys cmp '<'
check "compare view: < shows the other size" cmp 'aes-256-gcm encrypt 16 B'
tui_keys cmp '>'

# 3. A malformed file chosen: the error, the line and column, and the TUI lives on.
tui_keys cmp o
tui_goto cmp '.*malformed-quote' && tui_keys cmp Enter
check "open: a malformed file says line and column" cmp 'line 4, column 27.*unterminated quoted field'
tui_keys cmp Escape
check "open: still running after it" cmp 'r run .*q quit'

# 4. e in the compare view: its table by extension, each validated.
for ext in csv md json svg; do
    tui_keys cmp e C-u; tui_keys cmp -l "cmp.$ext"; tui_keys cmp Enter
    check "export compare .$ext: status line" cmp "wrote [0-9]+ rows to cmp\\.$ext \\(comparison"
done
sess="" name="export compare .csv: two sides, each machine named"
want python3 - "$tmp/cmp.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["side"] for r in rows} == {"A", "B"}, rows[:2]
assert any("Westmere" in r["cpu"] for r in rows) and any("EPYC" in r["cpu"] for r in rows)
assert any(r["ratio"] and r["side"] == "B" for r in rows)
EOF
name="export compare .md: a table per algorithm, both machines"
want sh -c "grep -q '^| A | vm | AMD EPYC' '$tmp/cmp.md' && grep -q '^| B | vm | Westmere' '$tmp/cmp.md' && grep -q '^### aes-256-gcm encrypt' '$tmp/cmp.md'"
name="export compare .json: parses (python3 -m json.tool), two sides"
want sh -c "python3 -m json.tool '$tmp/cmp.json' >/dev/null && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d[\"sides\"]) == 2 and d[\"rows\"]' '$tmp/cmp.json'"
name="export compare .svg: XML, bars coloured by path, both machines named"
want python3 - "$tmp/cmp.svg" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
fills = {r.get("fill") for r in root.iter(ns + "rect")}
assert {"#d62728", "#e8b100", "#2ca02c"} <= fills, fills
text = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
assert "Westmere" in text and "EPYC" in text and "×" in text, text[:300]
EOF

# 5. A bad extension: a message naming the accepted ones, and no file.
tui_keys cmp e C-u; tui_keys cmp -l "cmp.txt"; tui_keys cmp Enter
check "export: bad extension names the accepted ones" cmp "cannot tell what to write to 'cmp\\.txt'.*accepted \\.csv"
tui_keys cmp Escape
sess="" name="export: bad extension leaves no file"
want test ! -e "$tmp/cmp.txt"

# 6. x closes the file opened last; Esc goes back to the views.
tui_keys cmp x
check "compare view: x says which file it closed" cmp 'closed .*westmere-qemu'
check_not "compare view: x closes side B" cmp '^ B +vm · Westmere'
tui_keys cmp Escape
check "compare view: Esc back to the paths view" cmp 'no-asm +portable'
tui_keys cmp o
check "compare view: o shows it again while a file is open" cmp '^ A +vm · AMD EPYC'
tui_keys cmp x 1

# 7. A run is saved; the status line says where; the saved run opens beside the live one as
#    two runs of one machine (x above closed the other files).
tui_pick cmp "sha256" "16 B"
tui_keys cmp 1 r
check "save: the status line says where the run went" cmp "done in .* · saved to $results/[^ ]+\\.csv" 60
sess="" name="save: the file is there, in the run --csv schema"
want sh -c "ls '$results'/*.csv >/dev/null 2>&1 && head -1 \"\$(ls '$results'/*.csv | head -1)\" | grep -q '^timestamp,host,cpu,'"
for ext in md json svg; do
    tui_keys cmp e C-u; tui_keys cmp -l "run.$ext"; tui_keys cmp Enter
    check "export paths view .$ext: status line" cmp "wrote [0-9]+ rows to run\\.$ext"
done
sess="" name="export paths view: .md table, .json parses, .svg is XML"
want sh -c "grep -q '^## sha256' '$tmp/run.md' && python3 -m json.tool '$tmp/run.json' >/dev/null && python3 -c 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])' '$tmp/run.svg'"
tui_keys cmp o
check "open: the saved run listed from the results folder" cmp 'results/[^ ]+\.csv'
tui_keys cmp Home; tui_goto cmp '.*results/' && tui_keys cmp Enter
check "compare: the live run and its saved copy are two runs of one machine" cmp '\(run [12] of 2, (before|after)\)'

# 8. Saving off (setup), then a run: the status line says so and nothing is written.
n0=$(ls "$results" | wc -l)
tui_keys cmp 5 Left Left Right Home; tui_goto cmp 'save runs' && tui_keys cmp Space
check "save: the setup view turns it off" cmp 'save runs: off'
tui_keys cmp 1 r
check "save: off, said on the status line" cmp 'done in .* · saving is off \(setup\)' 60
sess="" name="save: off writes nothing"
want test "$(ls "$results" | wc -l)" = "$n0"
tui_keys cmp q
check "quit: exit status 0" cmp 'EXIT=0'

# 9. Saving fails (the data folder is a file): the status line says why; the run stands.
: > "$tmp/notadir"
tui_start bad 170 40 "$tmp" env XDG_DATA_HOME="$tmp/notadir" "$bin"
tui_wait bad 'q quit' 10
tui_pick bad "sha256" "16 B"
tui_keys bad 1 r
check "save: a failure says why" bad 'done in .* · not saved: cannot create .*notadir' 60
tui_keys bad q

# 9b. Rounds retaken (each worker process's first sample stretched and marked as descheduled,
#     the test hook of t_engine; a one-worker cell alternates two processes, so its rounds 0
#     and 1): on the status line after where the run went, its share and commonest reason
#     (this machine's own retakes may outnumber the injected ones, so any reason's word), and
#     the saved CSV has the injected ones. The first sample, not the second as t_engine takes
#     (one paced worker, no time budget): at 0.05 s a cell on a noisy host, on a column's
#     second visit after a spell, can end after one or two rounds, and then no process took a
#     second sample (CI on f74766a: every row "slow-memory:2", no descheduled; headless,
#     `run -T 0.05` beside a memory hog, 5 of 18 rows without it).
dxdg=$tmp/xdg-dis
tui_start dis 220 40 "$tmp" env XDG_DATA_HOME="$dxdg" ACCELSCOPE_TEST_FAULTS=1 \
    ACCELSCOPE_TEST_DISTURB=0 "$bin"
tui_wait dis 'q quit' 10
tui_pick dis "sha256" "16 B"
tui_keys dis 1 r
check "retaken: the status line says the share and the commonest reason" dis \
    'done in .* · saved to .* · (<1|[0-9]+) % of rounds retaken, mostly [a-z-]+' 60
name="retaken: the saved CSV's retaken_why has the injected descheduled rounds"
dcsv=$(ls "$dxdg"/accelscope/results/*.csv 2>/dev/null | head -1)
if grep -q 'descheduled:[1-9]' "$dcsv" 2>/dev/null; then ok "$name"; else
    bad "$name" dis
    # Seen failing in CI on 1aac3bb and f74766a, both with the second sample (see 9b): what
    # each saved row said.
    echo "---- $dcsv, algorithm path implementation status rounds disturbed retaken_why:"
    python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("   ", *(r.get(k) or "-" for k in ("algorithm", "path", "implementation", "status",
          "rounds", "disturbed", "retaken_why")))' "$dcsv" 2>&1
    ls -la "$dxdg"/accelscope/results 2>&1 | sed 's/^/    /'
fi
tui_keys dis q

# 10. demo --against: the saved board beside this one; a claim only from quiet figures; SIMD
#     code never called hardware. The saved files are westmere-qemu.csv with a quality column.
python3 - "$data/westmere-qemu.csv" "$tmp" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def write(name, quality, simd):
    with open(f"{sys.argv[2]}/{name}", "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]) + ["quality", "same_code_as"])
        w.writeheader()
        for r in rows:
            hw = r["path"] == "hw"
            w.writerow(dict(r, quality=quality if r["status"] == "ok" else "",
                            same_code_as="asm/openssl-simd" if simd and hw else ""))
write("noisy.csv", "noisy", False)
write("quiet.csv", "quiet", False)
write("simd.csv", "quiet", True)
EOF
tui_start dn 110 34 "$tmp" env XDG_DATA_HOME="$xdg" "$bin" demo --against noisy.csv
check "demo --against: the saved board's bar under a path" dn '[0-9.]+ (MB|GB|kB)/s~ Westmere E56xx' 30
check "demo --against: noisy saved figures, no claim" dn 'noisy figures, no claim: this board .* on Westmere' 40
check_not "demo --against: no 'faster at' from noisy figures" dn 'this board ×[0-9.]+ faster at'
tui_keys dn q
check "demo --against: q leaves (exit 0)" dn 'EXIT=0'
tui_start dq 110 34 "$tmp" env XDG_DATA_HOME="$xdg" "$bin" demo --against quiet.csv
check "demo --against: quiet figures make the claim (unless this board's are noisy)" dq \
    'this board ×[0-9.]+ (faster|\(slower\)) at [A-Z0-9-]+ than Westmere|noisy figures, no claim: this board [0-9.]+ (MB|GB|kB)/s \((no-asm|asm|hardware|SIMD code)\)' 40
tui_keys dq q
tui_start ds 110 34 "$tmp" env XDG_DATA_HOME="$xdg" "$bin" demo --against simd.csv
check "demo --against: the saved hardware row that ran SIMD code is called so" ds '/s SIMD code West' 30
tui_keys ds q
out=$("$bin" demo --against "$data/malformed-number.csv" 2>&1 </dev/null); rc=$?
sess="" name="demo --against a malformed file: exit 2, line and column, before the terminal"
want sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'line 5, column 14'" sh "$out"
out=$("$bin" demo --bogus 2>&1 </dev/null); rc=$?
name="demo: an unknown argument names what is accepted (exit 2)"
want sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'accepted: --against FILE.csv'" sh "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
