/* /proc/stat's cpu lines (proc(5): "cpuN user nice system idle iowait irq softirq steal
 * guest guest_nice", in USER_HZ ticks), parsed from text so the parsing can be tested on
 * canned readings. */
#include "procstat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void procstat_parse(const char *text, int cpu, struct procstat *r)
{
    procstat_parse_sib(text, cpu, NULL, 0, r);
}

static int is_sibling(int id, const int *sib, int nsib)
{
    for (int i = 0; i < nsib; i++)
        if (sib[i] == id)
            return 1;
    return 0;
}

/* One "cpuN" line's id and its eight counters; 0, or -1 for any other line. */
static int cpu_line(const char *line, int *id, unsigned long long v[8])
{
    return sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", id, &v[0], &v[1],
                  &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 ? 0 : -1;
}

int procstat_cpu(const char *text, int cpu, long long *user, long long *total)
{
    for (const char *line = text, *nl; line && (nl = strchr(line, '\n')); line = nl + 1) {
        unsigned long long v[8];
        int id;
        if (strncmp(line, "cpu", 3))
            break;
        if (cpu_line(line, &id, v) || id != cpu)
            continue;
        *user = (long long)(v[0] + v[1]);
        *total = (long long)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]);
        return 0;
    }
    return -1;
}

void procstat_parse_sib(const char *text, int cpu, const int *sib, int nsib, struct procstat *r)
{
    memset(r, 0, sizeof *r);
    r->steal_mine = r->steal_all = r->others_user = r->others_total = -1;
    r->sib_user = r->sib_total = -1;
    long long user = 0, total = 0, suser = 0, stotal = 0;
    int mine = 0;
    /* Only whole lines: a read that filled its buffer ends in the middle of one. */
    for (const char *line = text, *nl; line && (nl = strchr(line, '\n')); line = nl + 1) {
        unsigned long long v[8];
        int id;
        if (strncmp(line, "cpu", 3))
            break; /* the cpu lines come first; intr, ctxt... follow */
        if (line[3] == ' ') { /* the sum over every CPU */
            if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                       &v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
                r->steal_all = (long long)v[7];
            continue;
        }
        if (cpu_line(line, &id, v))
            continue;
        if (id == cpu) {
            r->steal_mine = (long long)v[7];
            mine = 1;
            continue;
        }
        long long u = (long long)(v[0] + v[1]);
        long long t = (long long)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]);
        r->others++;
        r->others_ids += id;
        user += u;
        total += t;
        if (is_sibling(id, sib, nsib)) {
            r->sibs++;
            suser += u;
            stotal += t;
        }
    }
    /* Without the worker's own line (sched_getcpu() failed, a container renumbering the
     * lines), its own time would be counted as the others'. */
    if (r->others && mine)
        r->others_user = user, r->others_total = total;
    if (r->sibs && mine)
        r->sib_user = suser, r->sib_total = stotal;
}

void procstat_sib_delta(const struct procstat *a, const struct procstat *b, long long *user,
                        long long *total)
{
    *user = *total = -1;
    if (a->sib_total < 0 || b->sib_total < 0 || a->sibs != b->sibs)
        return;
    *user = b->sib_user - a->sib_user;
    *total = b->sib_total - a->sib_total;
}

/* A CPU number of the list at *p: digits only (no sign, no blank), below 1 << 20. */
static int cpu_number(const char **p)
{
    long v = 0;
    if (**p < '0' || **p > '9')
        return -1;
    for (; **p >= '0' && **p <= '9'; (*p)++)
        if ((v = v * 10 + (**p - '0')) >= 1 << 20)
            return -1;
    return (int)v;
}

int procstat_cpulist(const char *text, int self, int *ids, int max)
{
    int n = 0;
    const char *p = text;
    while (*p && *p != '\n') {
        int lo = cpu_number(&p), hi = lo;
        if (lo < 0)
            return -1;
        if (*p == '-') {
            p++;
            hi = cpu_number(&p);
            if (hi < lo || hi - lo > 4096)
                return -1;
        }
        for (int c = lo; c <= hi; c++)
            if (c != self && n < max)
                ids[n++] = c;
        if (*p == ',' && p[1] >= '0' && p[1] <= '9')
            p++;
        else if (*p && *p != '\n')
            return -1;
    }
    return n;
}

int procstat_siblings(int cpu, int *ids, int max)
{
    char path[96], text[256];
    if (cpu < 0)
        return -1;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
             cpu);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t k = read(fd, text, sizeof text - 1);
    close(fd);
    if (k <= 0)
        return -1;
    text[k] = 0;
    return procstat_cpulist(text, cpu, ids, max);
}

void procstat_others_delta(const struct procstat *a, const struct procstat *b,
                           long long *user, long long *total)
{
    *user = *total = -1;
    if (a->others_total < 0 || b->others_total < 0 || a->others != b->others ||
        a->others_ids != b->others_ids)
        return;
    *user = b->others_user - a->others_user;
    *total = b->others_total - a->others_total;
}

char *procstat_buffer(size_t *size)
{
    /* A cpu line is under 200 bytes; the lines after them are not needed. */
    long n = sysconf(_SC_NPROCESSORS_CONF);
    *size = (size_t)(n > 0 ? n : 1) * 256 + 4096;
    char *b = malloc(*size);
    if (!b)
        abort();
    return b;
}

char *procstat_text(void)
{
    size_t size;
    char *text = procstat_buffer(&size);
    int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    ssize_t k = fd >= 0 ? read(fd, text, size - 1) : -1;
    text[k > 0 ? k : 0] = 0;
    if (fd >= 0)
        close(fd);
    return text;
}

void procstat_now(int cpu, struct procstat *r)
{
    char *text = procstat_text();
    procstat_parse(text, cpu, r);
    free(text);
}
