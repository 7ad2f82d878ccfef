#!/bin/sh
# The TUI under hostile conditions, in tmux (issue 14): every signal that would end it, a bad
# environment or terminal, export names run --csv refuses, a killed TUI's children.
# Usage: tests/tui/hostile.sh [path/to/accelscope]   (default ./accelscope)
# Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tui_require "${1:-./accelscope}"
tmp=$(mktemp -d /tmp/accelscope-tui-hostile.XXXXXX)
trap 'tui_kill_server; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

# 1. Every signal whose default ends the program: the terminal comes back, exit 128+signal.
#    QUIT is sent as a user does (Ctrl-\ in the terminal), the others with kill.
for sig in QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PWR RTMIN; do
    # The number from Python: dash's kill -l only names numbers and knows no RTMIN.
    num=$(python3 -c "import signal; print(int(signal.SIG$sig))" 2>/dev/null) ||
        { echo "UNAVAILABLE: signal $sig: unknown to python3's signal module here"; continue; }
    s="sig$sig"
    tui_start "$s" 80 24 "$tmp" "$bin"
    tui_wait "$s" 'q quit'
    if [ $sig = QUIT ]; then tui_keys "$s" 'C-\'; else kill -"$num" "$(tui_app_pid "$s")"; fi
    check "signal $sig: process ends (status $((128 + num)))" "$s" "EXIT=$((128 + num))"
    check "signal $sig: terminal restored" "$s" '^icanon echo'
    check "signal $sig: says it was stopped by a signal" "$s" 'stopped by signal'
    tui_kill "$s"
done

# 2. What run refuses, the TUI refuses before touching the terminal: exit 2, a message that
#    names the problem and points to 'accelscope run'.
tui_start deny 200 24 "$tmp" env ACCELSCOPE_DENY=garbage,aesni "$bin"
check "bad ACCELSCOPE_DENY word: exit 2" deny 'EXIT=2'
check "bad ACCELSCOPE_DENY word: named, with the accepted words" deny "unknown feature 'garbage'; accepted: aesni"
check "bad ACCELSCOPE_DENY word: terminal untouched" deny '^icanon echo'
tui_start drv 200 24 "$tmp" env ACCELSCOPE_AFALG_DRIVERS=sha256-generic "$bin"
check "ACCELSCOPE_AFALG_DRIVERS entry without a colon: exit 2" drv 'EXIT=2'
check "ACCELSCOPE_AFALG_DRIVERS: names the accepted form" drv 'accepted: alg:driver'
for term in dumb no-such-terminal-type ''; do
    s="term${term:-empty}"
    tui_start "$s" 200 24 "$tmp" env TERM="$term" "$bin"
    check "TERM='$term': exit 2" "$s" 'EXIT=2'
    check "TERM='$term': points to accelscope run" "$s" "TERM=.*use 'accelscope run'"
    check_not "TERM='$term': no interface drawn" "$s" 'q quit'
done
tui_start nontty 200 24 "$tmp" "sh -c '$bin </dev/null'"
check "stdin not a terminal: exit 2 pointing to accelscope run" nontty "needs a terminal.*accelscope run"
check "stdin not a terminal: exit 2" nontty 'EXIT=2'

# 3. Export: refused names are refused before any question, inside the dialog, which stays
#    open with the name kept.
tui_start ex 120 32 "$tmp" "$bin"
tui_wait ex 'q quit'
tui_pick ex "sha256" "16 B"
tui_keys ex 1 r
check "export set-up: a short measurement" ex 'done in' 60
ln -s "$tmp/target.csv" "$tmp/link.csv"
mkfifo "$tmp/fifo.csv"
# try NAME REGEX WHAT: types NAME in the dialog, presses Enter.
try() {
    tui_keys ex e C-u
    [ -n "$1" ] && tui_keys ex -l "$1"
    tui_keys ex Enter
    check "export $3: refused in the dialog" ex "$2"
    check_not "export $3: not asked to overwrite" ex 'overwrite it\?'
    if [ -n "$1" ]; then
        check "export $3: dialog open, name kept" ex "Export [0-9]+ rows to: .*$(basename "$1")"
    else
        check "export $3: dialog stays open" ex "Export [0-9]+ rows to:"
    fi
    tui_keys ex Escape
}
try "" 'give a file name' "empty name"
try "$tmp/link.csv" 'is a symbolic link' "symlink"
try "$tmp/fifo.csv" 'not a regular file' "FIFO"
try /dev/full 'not a regular file' "/dev/full"
try "$tmp/nodir/x.csv" 'cannot write .*nodir/x.csv: folder' "missing folder"
try "$tmp/x.csv/" "ends in '/'" "trailing /"
[ ! -e "$tmp/target.csv" ] && ok "export: nothing written through the symlink" || bad "export: nothing written through the symlink"
tui_keys ex e C-u; tui_keys ex -l "$tmp/fine.csv"; tui_keys ex Enter
check "export: a good name still writes" ex 'wrote [0-9]+ rows to'
tui_keys ex q

# 4. A killed TUI leaves no child behind: the machine view's 'accelscope info' child is
#    frozen as soon as it appears (so it cannot finish by itself), then the TUI is killed.
# info_child: the 'accelscope info' child of $_parent, read from /proc.
info_child() {
    for _d in /proc/[0-9]*; do
        read -r _st < "$_d/stat" 2>/dev/null || continue
        set -- $_st
        [ "${4:-}" = "$_parent" ] || continue
        tr '\0' ' ' < "$_d/cmdline" 2>/dev/null | grep -q 'info --clock' && { echo "${_d#/proc/}"; return 0; }
    done
    return 1
}
tui_start orphan 100 30 "$tmp" "$bin"
child="" i=0
while [ -z "$child" ] && [ $i -lt 400 ]; do
    _parent=$(tui_app_pid orphan 2>/dev/null) && child=$(info_child)
    i=$((i + 1))
done
if [ -z "$child" ]; then
    echo "UNAVAILABLE: orphan check: the info child finished before it was seen"
else
    kill -STOP "$child"
    kill -KILL "$_parent"
    _end=$(( $(tui_ms) + 10000 )) # the child's death signal comes at once; a busy host waits
    while :; do
        state=$(sed 's/.*) \(.\).*/\1/' "/proc/$child/stat" 2>/dev/null)
        { [ -z "$state" ] || [ "$state" = Z ] || [ "$(tui_ms)" -ge "$_end" ]; } && break
        sleep 0.05
    done
    if [ -z "$state" ] || [ "$state" = Z ]; then
        ok "killed TUI: its 'accelscope info' child died with it"
    else
        bad "killed TUI: its 'accelscope info' child died with it (left in state $state)"
        kill -KILL "$child" 2>/dev/null
    fi
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
