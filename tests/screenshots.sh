#!/bin/sh
# Regenerates screenshots/: the real TUI in tmux, a real measurement on this machine, each
# view captured as text (NAME.txt) and rendered to PNG (NAME.png) by tests/tui/ansi2png.py;
# and the SVG charts `e` writes: paths.svg (this run) and compare.svg (the compare view of the
# two machines in tests/data, the same on every machine).
# Usage: tests/screenshots.sh [path/to/accelscope]   (default ./accelscope; `make screenshots`)
# Needs tmux, python3 with PIL (Debian: python3-pil) and fonts-dejavu-core.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-./accelscope}
case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "screenshots: no binary at $bin" >&2; exit 1; }
py=""
for p in /usr/bin/python3 python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import PIL' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "screenshots: python3 with PIL is missing (Debian: python3-pil fonts-dejavu-core)" >&2; exit 1; }
. "$root/tests/tui/lib.sh"
out=$root/screenshots
tmp=$(mktemp -d /tmp/accelscope-shots.XXXXXX)
trap 'tui_kill_server; rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$out"
W=120 H=36

shot() { # shot SESSION NAME: NAME.txt and NAME.png from what the pane shows now
    sleep 0.3
    tui_cap "$1" | sed 's/[[:space:]]*$//' > "$out/$2.txt"
    tui_cap_e "$1" > "$tmp/$2.ans"
    "$py" "$root/tests/tui/ansi2png.py" "$tmp/$2.ans" "$out/$2.png" "$W" "$H" || exit 1
    echo "screenshots/$2.txt screenshots/$2.png"
}

tui_start main $W $H "$tmp" "$bin"
tui_wait main 'q quit' 5 || { echo "screenshots: the TUI did not start" >&2; exit 1; }
tui_pick main "aes-128-gcm aes-256-cbc chacha20-poly1305 sha256 sha1" "16 B,64 B,256 B,1 KiB,8 KiB,16 KiB"
tui_keys main + + + + + # time per cell 0.05 -> 1 s: steadier figures for the pictures
tui_keys main Left Left Home
shot main setup
tui_keys main 1 r
tui_wait main 'cell [1-9][0-9] of' 60
shot main progress
tui_wait main 'done in' 600 || { echo "screenshots: the run did not finish" >&2; exit 1; }
tui_keys main '>' '>' '>' '>' '>' Down Down Down
shot main paths
tui_keys main l
shot main paths-log
tui_keys main l 2 '>' '>'
shot main sizes
tui_keys main 3
shot main matrix
tui_keys main 4 PageDown
shot main machine
tui_keys main 1 '?'
shot main help
tui_keys main x e
shot main export
# The paths chart as `e` writes it to .svg (export.h): what a slide gets.
tui_keys main C-u; tui_keys main -l "$tmp/paths.svg"; tui_keys main Enter
tui_wait main 'wrote [0-9]+ rows to .*paths\.svg' 10 || { echo "screenshots: the SVG export failed" >&2; exit 1; }
cp "$tmp/paths.svg" "$out/paths.svg" && echo "screenshots/paths.svg"
tui_keys main Escape d
tui_wait main 'faster' 30
tui_wait main 'hardware instructions vs portable C' 30
shot main demo
tui_keys main q q

# The compare view of the two machines whose runs are committed as test data (o, Enter on
# each: the newer file is listed first), and its SVG export: the same every time, no
# measurement in it.
mkdir -p "$tmp/cmp"
cp "$root/tests/data/epyc-milan.csv" "$root/tests/data/westmere-qemu.csv" "$tmp/cmp/"
touch -d '2026-11-30 10:00' "$tmp/cmp/westmere-qemu.csv"
touch -d '2026-11-30 11:00' "$tmp/cmp/epyc-milan.csv"
W=120 H=36
tui_start cmp $W $H "$tmp/cmp" env XDG_DATA_HOME="$tmp/cmp/none" "$bin"
tui_wait cmp 'q quit' 5
tui_keys cmp o Enter o Down Enter
tui_wait cmp '^ B +vm' 10 || { echo "screenshots: the compare view did not open" >&2; exit 1; }
shot cmp compare
tui_keys cmp e C-u; tui_keys cmp -l "$tmp/compare.svg"; tui_keys cmp Enter
tui_wait cmp 'wrote [0-9]+ rows to .*compare\.svg' 10 || { echo "screenshots: the compare SVG failed" >&2; exit 1; }
cp "$tmp/compare.svg" "$out/compare.svg" && echo "screenshots/compare.svg"
tui_keys cmp q

tui_start small 80 24 "$tmp" "$bin"
tui_wait small 'q quit' 5
W=80 H=24
shot small start-80x24
tui_keys small q
