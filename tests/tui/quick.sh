#!/bin/sh
# A short pass of the TUI for runs where the full suite (tests/tui/run.sh) would take too long:
# under qemu (tests/cpus/run.sh) and under each ACCELSCOPE_DENY word (tests/deny.sh).
# Starts the TUI, checks the features strip, measures sha256, aes-128-ctr and aes-128-gcm at
# 1 KiB, exports the rows and checks that each verified or says why it is unavailable
# (WANT_WRONG names the implementation whose aes-128-ctr row must say "wrong output"), quits.
# Usage: tests/tui/quick.sh BIN [FEATURE...]  where FEATURE is +LABEL (shown ✔), -LABEL
# (shown ✘) or ~LABEL (◐: present but denied), labels as in the features strip: +AES-NI -SHA. The environment (QEMU_CPU,
# ACCELSCOPE_DENY) passes through to the TUI. Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: tests/tui/quick.sh BIN [+LABEL|-LABEL|~LABEL...]}
shift
case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
. "$here/lib.sh"
tmp=$(mktemp -d /tmp/accelscope-tuiq.XXXXXX)
trap 'tui_kill_server; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

# Everything the environment says about the CPU must reach the TUI (tmux starts a new shell).
envs=""
for v in QEMU_CPU ACCELSCOPE_DENY; do
    eval "val=\${$v:-}"
    [ -n "$val" ] && envs="$envs $v=$val"
done
tui_start quick 110 40 "$tmp" env $envs "$bin"
check "start: features strip" quick 'features: .*(✔|✘)' 30
for f in "$@"; do
    label=${f#?}
    case $f in +*) sym=✔ ;; -*) sym=✘ ;; '~'*) sym=◐ ;; *) bad "bad feature argument '$f'"; continue ;; esac
    # A label ends at a space or the end of the line: ✘AVX must not match ✘AVX2.
    check "features strip: $sym$label" quick "$sym$label( |\$)" 2
done
tui_pick quick "sha256 aes-128-ctr aes-128-gcm" "1 KiB"
tui_keys quick 1 r
check "run: finishes" quick 'done in [0-9.]+ s' 120
tui_keys quick e Enter
check "run: exported" quick 'wrote [0-9]+ rows' 20
csv=$(ls "$tmp"/accelscope-*.csv 2>/dev/null | head -1)
# Every row measured or unavailable with its reason; WANT_WRONG alone (and surely) wrong.
if [ -n "$csv" ] && python3 "$here/../rows_check.py" "$csv" "${WANT_WRONG:-}"
then ok "run: every row verified or unavailable with a reason${WANT_WRONG:+ ($WANT_WRONG: wrong output)}"
else bad "run: every row verified or unavailable with a reason${WANT_WRONG:+ ($WANT_WRONG: wrong output)}" quick; fi
tui_keys quick q
check "quit: exit status 0" quick 'EXIT=0' 20
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
