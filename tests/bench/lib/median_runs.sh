# Sourced (sh) by tests/bench/direct.sh and portable_noasm.sh, from the top of the tree; in
# lib/, as make bench runs every tests/bench/*.sh.
# median_runs VAR DEFAULT CMD [ARGS...]: CMD in N fresh processes one after another (N from
# the environment variable VAR, else DEFAULT), their output shown; then every line "judged KEY
# WHAT VALUE TARGET" they printed is judged on its median over them (median_judge.awk, each
# line tagged with its process), each process's value beside it. A process's exit 1 (a target
# missed there) is the medians' to judge; 2 (a bad argument) ends it at once; any other (3: a
# figure without a value, as an output that differs or a side missing; a crash) fails the
# run, and no median of the others may hide it. Returns 0, 1 (a figure missed, or not given
# once by every process), or 2 (a bad argument or count). Sets traps on EXIT, INT, TERM and
# HUP for its temporary files, and clears them.
median_runs() {
    eval "_mr_n=\${$1:-$2}"
    case $_mr_n in
    '' | *[!0-9]* | 0) echo "$1: a count from 1, not '$_mr_n'" >&2; return 2 ;;
    esac
    shift 2
    _mr_out=$(mktemp)
    trap 'rm -f "$_mr_out" "$_mr_out.rc" "$_mr_out.p"' EXIT
    trap 'exit 130' INT TERM HUP # dash runs the EXIT trap on exit, not on a signal
    _mr_status=0
    _mr_i=1
    while [ "$_mr_i" -le "$_mr_n" ]; do
        echo "process $_mr_i of $_mr_n:"
        { _mr_rc=0; "$@" || _mr_rc=$?; echo "$_mr_rc" >"$_mr_out.rc"; } | tee "$_mr_out.p"
        awk -v p="$_mr_i" '$1 == "judged" { $1 = "judged " p; print }' "$_mr_out.p" >>"$_mr_out"
        _mr_rc=$(cat "$_mr_out.rc")
        case $_mr_rc in
        0 | 1) ;;
        2) _mr_status=2; break ;;
        *) echo "process $_mr_i: exit $_mr_rc: a figure without a value (above)"; _mr_status=1 ;;
        esac
        _mr_i=$((_mr_i + 1))
    done
    if [ "$_mr_status" != 2 ]; then
        echo
        echo "each judged figure over $_mr_n processes: its median judged, each process's beside it"
        awk -v runs="$_mr_n" -f tests/bench/lib/median_judge.awk "$_mr_out" || _mr_status=1
    fi
    rm -f "$_mr_out" "$_mr_out.rc" "$_mr_out.p"
    trap - EXIT INT TERM HUP
    return "$_mr_status"
}
