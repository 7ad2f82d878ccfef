# Judges figures measured in several fresh processes on their medians (for median_runs.sh).
# Input: lines "judged PROCESS KEY WHAT VALUE TARGET" (VALUE must reach TARGET), any other
# line ignored; -v runs=N, the processes there were (numbered 1..N). Prints a line per KEY WHAT
# in the order first seen: the median, every process's value, the verdict. A figure that some
# process did not give, or gave twice (two jobs under one key), is MISSED whatever its median.
# A line with a VALUE or TARGET that is not a number (nan, inf, cut short) is not a figure
# given. Exit 1 when one is missed, 2 when none was read.
function number(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
$1 == "judged" && NF == 6 && number($5) && number($6) {
    k = $3 " " $4
    if (!(k in n))
        order[++cells] = k
    if ((k, $2) in seen)
        dup[k] = 1
    seen[k, $2] = 1
    r[k, ++n[k]] = $5
    t[k] = $6
}
END {
    miss = 0
    for (c = 1; c <= cells; c++) {
        k = order[c]
        m = n[k]
        for (i = 1; i <= m; i++)
            v[i] = r[k, i] + 0
        for (i = 2; i <= m; i++)
            for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
                x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
            }
        med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
        line = ""
        for (i = 1; i <= m; i++)
            line = line sprintf(" %.6g", r[k, i])
        ok = med >= t[k] + 0 && m == runs && !(k in dup)
        if (!ok)
            miss++
        why = k in dup ? "MISSED: given twice in one process (two jobs, one key?)" : \
            m != runs ? "MISSED: given in " m " of " runs " processes" : ok ? "ok" : "MISSED"
        printf "%s  median %.6g (processes:%s)  target %g %s\n", k, med, line, t[k] + 0, why
    }
    if (!cells) {
        print "no judged figures read"
        exit 2
    }
    exit miss ? 1 : 0
}
