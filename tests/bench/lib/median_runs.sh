# Sourced (sh) by tests/bench/direct.sh and portable_noasm.sh, from the top of the tree; in
# lib/, as make bench runs every tests/bench/*.sh.
# median_runs VAR DEFAULT CMD [ARGS...]: CMD in N fresh processes one after another (N from
# the environment variable VAR, else DEFAULT), their output shown; then every line "judged KEY
# WHAT VALUE TARGET" they printed is judged on its median over them (median_judge.awk, each
# line tagged with its process), each process's value beside it. A process's exit 1 (a target
# missed there) is the medians' to judge; 2 (a bad argument) ends it at once; any other (3: a
# figure without a value, as an output that differs or a side missing; a crash) fails the
# run, and no median of the others may hide it. Where no process printed a judged line and
# every one exited 0 (each job unavailable here, or without a target), it passes, saying so.
# Returns 0, 1 (a figure missed, or not given once by every process, or a process failed) or
# 2 (a bad argument or count). The body is a subshell: its traps (temporary files removed on
# exit and on a signal) are its own, not the caller's. A signal reaches the shell only when
# the running process ends; Ctrl-C reaches both.
median_runs() (
    eval "_mr_n=\${$1:-$2}"
    case $_mr_n in
    '' | *[!0-9]* | 0) echo "$1: a count from 1, not '$_mr_n'" >&2; exit 2 ;;
    esac
    shift 2
    _mr_out=$(mktemp)
    trap 'rm -f "$_mr_out" "$_mr_out.rc" "$_mr_out.p"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    _mr_failed=0 # processes that exited other than 0 and 1
    _mr_missed=0 # processes that exited 1
    _mr_i=1
    while [ "$_mr_i" -le "$_mr_n" ]; do
        echo "process $_mr_i of $_mr_n:"
        { _mr_rc=0; "$@" || _mr_rc=$?; echo "$_mr_rc" >"$_mr_out.rc"; } | tee "$_mr_out.p"
        awk -v p="$_mr_i" '$1 == "judged" { $1 = "judged " p; print }' "$_mr_out.p" >>"$_mr_out"
        _mr_rc=$(cat "$_mr_out.rc")
        case $_mr_rc in
        0) ;;
        1) _mr_missed=$((_mr_missed + 1)) ;;
        2) exit 2 ;;
        *) echo "process $_mr_i: exit $_mr_rc: a figure without a value (above)"
           _mr_failed=$((_mr_failed + 1)) ;;
        esac
        _mr_i=$((_mr_i + 1))
    done
    echo
    echo "each judged figure over $_mr_n processes: its median judged, each process's beside it"
    _mr_judged=0
    awk -v runs="$_mr_n" -f tests/bench/lib/median_judge.awk "$_mr_out" || _mr_judged=$?
    if [ "$_mr_judged" = 2 ] && [ "$_mr_failed" = 0 ] && [ "$_mr_missed" = 0 ]; then
        echo "nothing to judge: every job unavailable here or without a target"
        exit 0
    fi
    if [ "$_mr_judged" = 0 ] && [ "$_mr_failed" = 0 ]; then
        echo "over $_mr_n processes: every judged figure met"
        exit 0
    fi
    echo "over $_mr_n processes: some figure MISSED or not given ($_mr_failed failed)"
    exit 1
)
