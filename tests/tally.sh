# Sourced by the suite runners: reads a suite's closing "N passed, N failed" line.
# tally_read FILE sets t_line, t_pass and t_fail; returns 1 (counts 0) when there is none,
# and 1 (t_line kept) when it reads "0 passed, 0 failed": a suite that checked nothing has not
# passed.
tally_read() {
    t_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    t_pass=0
    t_fail=0
    [ -n "$t_line" ] || return 1
    t_pass=${t_line%% passed*}
    t_fail=${t_line#*passed, }
    t_fail=${t_fail%% failed*}
    [ "$t_pass" != 0 ] || [ "$t_fail" != 0 ]
}
