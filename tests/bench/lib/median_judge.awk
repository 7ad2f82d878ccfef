# Judges figures measured in several fresh processes on their medians (for median_runs.sh).
# Input: lines "judged KEY WHAT VALUE TARGET" (VALUE must reach TARGET),
# any other line ignored; -v runs=N, the processes there were. Prints a line per KEY WHAT in
# the order first seen: the median, every process's value, the verdict; a figure some process
# did not give (its output was wrong, or the process failed) is MISSED whatever its median.
# Exit 1 when one is missed or none was read.
$1 == "judged" {
    k = $2 " " $3
    if (!(k in n))
        order[++cells] = k
    r[k, ++n[k]] = $4
    t[k] = $5
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
            line = line " " r[k, i]
        ok = med >= t[k] + 0 && m == runs
        if (!ok)
            miss++
        printf "%s  median %.4g (processes:%s)  target %s %s\n", k, med, line, t[k],
            ok ? "ok" : m == runs ? "MISSED" : "MISSED: given in " m " of " runs " processes"
    }
    if (!cells) {
        print "no figures read: nothing to judge"
        exit 1
    }
    exit miss ? 1 : 0
}
