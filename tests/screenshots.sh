#!/bin/sh
# Regenerates screenshots/: the real TUI in tmux, a real measurement on this machine, each
# view captured as text (NAME.txt) and rendered to PNG (NAME.png) by tests/tui/ansi2png.py.
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
tui_keys main + + +    # time per cell 0.05 -> 0.3 s: steadier figures for the pictures
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
tui_keys main Escape d
tui_wait main 'faster' 30
tui_wait main 'hardware instructions vs portable C' 30
shot main demo
tui_keys main q q

tui_start small 80 24 "$tmp" "$bin"
tui_wait small 'q quit' 5
W=80 H=24
shot small start-80x24
tui_keys small q
