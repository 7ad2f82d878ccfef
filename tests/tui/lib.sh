# Helpers for driving the real TUI in tmux: sourced by tests/tui/*.sh and tests/screenshots.sh.
# Every tmux call goes to a private server (-L) so the tests never touch the user's sessions.

# tui_require BIN: BIN made absolute in $bin; a missing binary, tmux or python3 ends the suite
# with one counted failure (tests/install-deps.sh installs them).
tui_require() {
    bin=$1
    case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
    [ -x "$bin" ] || { echo "tests/tui: no binary at $bin"; echo "0 passed, 1 failed"; exit 1; }
    for c in tmux python3; do
        command -v $c >/dev/null 2>&1 || { echo "tests/tui: $c is missing (tests/install-deps.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
    done
}

TUI_SOCK=${TUI_SOCK:-accelscope-test-$$}
TUI_T="tmux -L $TUI_SOCK -f /dev/null"
# A finished run is saved (store.h): in a folder of the suite's, never the user's home. A test
# naming its own XDG_DATA_HOME in the command overrides it (the later env assignment wins).
TUI_XDG=$(mktemp -d /tmp/accelscope-xdg.XXXXXX)

# tui_start NAME COLS ROWS DIR CMD...: runs CMD in a fresh session; when it ends the pane
# prints EXIT=<status> and the terminal modes (stty) so tests can check it was restored.
tui_start() {
    name=$1 cols=$2 rows=$3 dir=$4
    shift 4
    $TUI_T new-session -d -s "$name" -x "$cols" -y "$rows" -c "$dir" \
        "env LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_DATA_HOME=$TUI_XDG $*; echo EXIT=\$?; stty -a | tr ' ' '\n' | grep -E '^-?(icanon|echo)\$' | tr '\n' ' '; echo; sleep 600"
    $TUI_T set-option -t "$name" -g status off >/dev/null 2>&1
    $TUI_T resize-window -t "$name" -x "$cols" -y "$rows" >/dev/null 2>&1
}

tui_cap() { $TUI_T capture-pane -p -t "$1"; }
tui_cap_e() { $TUI_T capture-pane -p -e -N -t "$1"; }
tui_keys() { n=$1; shift; $TUI_T send-keys -t "$n" "$@"; }
tui_pid() { $TUI_T list-panes -t "$1" -F '#{pane_pid}'; }
# tui_app_pid NAME: the program the pane runs (the child of the pane's shell), read from
# /proc so the tests need no procps.
tui_app_pid() {
    _pp=$(tui_pid "$1")
    for _d in /proc/[0-9]*; do
        read -r _st < "$_d/stat" 2>/dev/null || continue
        set -- $_st
        [ "${4:-}" = "$_pp" ] && { echo "$1"; return 0; }
    done
    return 1
}
tui_kill() { $TUI_T kill-session -t "$1" 2>/dev/null; }
# (the server leaves its socket behind: one file in /tmp/tmux-UID per suite run, 458 of them
# after a day's work)
tui_kill_server() {
    $TUI_T kill-server 2>/dev/null
    rm -rf "$TUI_XDG" "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TUI_SOCK"
}

# tui_wait NAME REGEX [SECONDS]: 0 once the pane shows REGEX (grep -E), 1 after the timeout.
tui_wait() {
    n=$1 re=$2 limit=${3:-10}
    end=$(( $(date +%s%N) / 1000000 + limit * 1000 ))
    while :; do
        _scr=$(tui_cap "$n" 2>/dev/null) || return 1
        printf '%s\n' "$_scr" | grep -Eq -- "$re" && return 0
        [ "$(( $(date +%s%N) / 1000000 ))" -ge "$end" ] && return 1
        sleep 0.05
    done
}

# tui_ms: milliseconds of the clock, for the deadlines below.
tui_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# tui_unread NAME: bytes of keys the program has not read yet (FIONREAD on the pane's tty).
tui_unread() {
    python3 -c 'import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
print(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0])' \
        "$($TUI_T display-message -p -t "$1" '#{pane_tty}')" 2>/dev/null || echo 0
}

# tui_settle NAME: waits (at most 5 s) until the program has read the keys sent so far and
# two captures 50 ms apart agree: the screen then shows what those keys did.
tui_settle() {
    _end=$(( $(tui_ms) + 5000 ))
    while [ "$(tui_unread "$1")" != 0 ] && [ "$(tui_ms)" -lt "$_end" ]; do sleep 0.02; done
    _prev=$(tui_cap "$1" 2>/dev/null)
    while [ "$(tui_ms)" -lt "$_end" ]; do
        sleep 0.05
        _now=$(tui_cap "$1" 2>/dev/null)
        [ "$_now" = "$_prev" ] && return 0
        _prev=$_now
    done
}

# tui_cursor NAME: the lines with a cursor glyph, numbered: they change when the cursor moves.
tui_cursor() { tui_cap "$1" 2>/dev/null | grep -nE '▶|>'; }

# tui_goto NAME REGEX [MAX]: presses Down until the line with the cursor glyph matches REGEX.
# After each key it waits (at most 3 s) for the cursor to move and the redraw to be whole
# (two captures agree) before it looks again, so a late redraw cannot make it press twice and
# pass the line. A line it cannot reach (the list ends, the cursor stops moving) is a counted
# failure (bad), not a pick silently skipped.
tui_goto() {
    n=$1 re=$2 max=${3:-40}
    i=0
    tui_settle "$n"
    _cur=$(tui_cursor "$n")
    while [ $i -lt "$max" ]; do
        printf '%s\n' "$_cur" | grep -Eq -- "(▶|>) ?\[.\] $re|(▶|>) ?$re" && return 0
        tui_keys "$n" Down
        _end=$(( $(tui_ms) + 3000 ))
        while :; do
            _new=$(tui_cursor "$n")
            # moved, and drawn whole: the next capture agrees (not half a redraw)
            [ "$_new" != "$_cur" ] && sleep 0.02 && [ "$(tui_cursor "$n")" = "$_new" ] && break
            if [ "$(tui_ms)" -ge "$_end" ]; then
                bad "cursor reaches '$re' (it stopped moving after $i keys)" "$n"
                return 1
            fi
            sleep 0.02
        done
        _cur=$_new
        i=$((i + 1))
    done
    bad "cursor reaches '$re' (not within $max keys)" "$n"
    return 1
}

# tui_pick SESSION "ALG ALG" "SIZE,SIZE": on the setup screen, pick exactly these algorithms and sizes, time per cell 0.05 s.
tui_pick() {
    s=$1
    tui_keys "$s" 5 Home Left Left Left n
    for a in $2; do tui_keys "$s" Home; tui_goto "$s" "$a( |$)" && tui_keys "$s" Space; done
    tui_keys "$s" Right Home n
    rest=$3
    while [ -n "$rest" ]; do
        z=${rest%%,*}
        if [ "$z" = "$rest" ]; then rest=; else rest=${rest#*,}; fi
        tui_keys "$s" Home; tui_goto "$s" "$z( |$)" && tui_keys "$s" Space
    done
    tui_keys "$s" Home; tui_goto "$s" 'time/cell'
    tui_keys "$s" - - - - - - - - # the shortest time per cell: 0.05 s
}


# The suites' tallies: ok NAME; bad NAME [SESSION] (shows the screen); check NAME SESSION REGEX
# [SECONDS]; check_not NAME SESSION REGEX (the screen does not show REGEX now). The caller
# sets pass=0 fail=0 and prints "$pass passed, $fail failed" at the end.
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() {
    fail=$((fail + 1)); echo "FAIL $1"
    [ -n "${2:-}" ] && { echo "---- screen of $2:"; tui_cap "$2" 2>/dev/null | sed 's/^/    /'; echo "----"; }
}
check() { if tui_wait "$2" "$3" "${4:-10}"; then ok "$1"; else bad "$1" "$2"; fi; }
check_not() { if tui_cap "$2" | grep -Eq -- "$3"; then bad "$1" "$2"; else ok "$1"; fi; }
