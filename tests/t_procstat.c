/* /proc/stat's cpu lines (src/procstat.c) on canned readings: the worker's own line told
 * from the others (cpu1 against cpu10), the aggregate line, a line cut short, a CPU that
 * went offline between two readings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "procstat.h"

/* proc(5): user nice system idle iowait irq softirq steal guest guest_nice */
static const char reading[] =
    "cpu  1000 10 200 5000 50 0 30 7 0 0\n"
    "cpu0 300 0 60 2000 20 0 10 2 0 0\n"
    "cpu1 400 5 70 1000 10 0 10 3 0 0\n"
    "cpu10 300 5 70 2000 20 0 10 2 0 0\n"
    "intr 12345 0 0\n"
    "ctxt 999\n";

static void test_parse(void)
{
    struct procstat r;
    procstat_parse(reading, 1, &r);
    CHECK(r.steal_mine == 3 && r.steal_all == 7, "steal of cpu1 and of all (%lld, %lld)",
          r.steal_mine, r.steal_all);
    CHECK(r.others == 2 && r.others_ids == 10, "others: cpu0 and cpu10 (%d, sum %lld)",
          r.others, r.others_ids);
    CHECK(r.others_user == 300 + 0 + 300 + 5, "their user + nice ticks (%lld)", r.others_user);
    CHECK(r.others_total == 2392 + 2407, "all their ticks (%lld)", r.others_total);

    procstat_parse(reading, 10, &r);
    CHECK(r.steal_mine == 2 && r.others == 2 && r.others_ids == 1,
          "cpu10 is not cpu1 (steal %lld, others %d, ids %lld)", r.steal_mine, r.others,
          r.others_ids);

    procstat_parse(reading, 7, &r);
    CHECK(r.steal_mine == -1 && r.others == 3 && r.others_user == -1 && r.others_total == -1,
          "a CPU without a line: its steal and the others unknown (its own time could be "
          "among them)");
    procstat_parse(reading, -1, &r);
    CHECK(r.others_user == -1 && r.others_total == -1, "sched_getcpu() failed: unknown");

    /* A read that filled its buffer: the cut line is not parsed with a short number. */
    char cut[sizeof reading];
    memcpy(cut, reading, sizeof reading);
    cut[strstr(reading, "cpu10") - reading + 12] = 0; /* "cpu10 300 5 " */
    procstat_parse(cut, 1, &r);
    CHECK(r.others == 1 && r.others_user == 300, "a line cut short is left out (%d, %lld)",
          r.others, r.others_user);

    procstat_parse("", 0, &r);
    CHECK(r.steal_all == -1 && r.others_total == -1 && r.others == 0, "nothing read: unknown");
    procstat_parse("cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", 0, &r);
    CHECK(r.others == 0 && r.others_total == -1 && r.steal_mine == 8,
          "one CPU: no others (%d, %lld)", r.others, r.others_total);
}

static void test_delta(void)
{
    struct procstat a, b;
    long long u, t;
    procstat_parse(reading, 1, &a);
    procstat_parse("cpu  0 0 0 0 0 0 0 0 0 0\n"
                   "cpu0 302 0 60 2000 20 0 10 2 0 0\n"
                   "cpu1 400 5 70 1002 10 0 10 3 0 0\n"
                   "cpu10 300 5 70 2002 20 0 10 2 0 0\n", 1, &b);
    procstat_others_delta(&a, &b, &u, &t);
    CHECK(u == 2 && t == 4, "two ticks later: 2 busy of 4 (%lld of %lld)", u, t);
    procstat_parse("cpu  0 0 0 0 0 0 0 0 0 0\n"
                   "cpu0 302 0 60 2000 20 0 10 2 0 0\n"
                   "cpu1 400 5 70 1002 10 0 10 3 0 0\n", 1, &b);
    procstat_others_delta(&a, &b, &u, &t);
    CHECK(u == -1 && t == -1, "cpu10 went offline between the readings: unknown");
    procstat_parse("cpu  0 0 0 0 0 0 0 0 0 0\n"
                   "cpu0 302 0 60 2000 20 0 10 2 0 0\n"
                   "cpu1 400 5 70 1002 10 0 10 3 0 0\n"
                   "cpu9 300 5 70 2002 20 0 10 2 0 0\n", 1, &b);
    procstat_others_delta(&a, &b, &u, &t);
    CHECK(u == -1 && t == -1, "cpu10 offline, cpu9 online: not one set, unknown");
}

/* SMT siblings: sysfs' cpulist format, and the siblings' ticks told from the other CPUs'. */
static void test_siblings(void)
{
    int ids[PROCSTAT_MAX_SIBLINGS];
    CHECK(procstat_cpulist("0,64\n", 0, ids, 8) == 1 && ids[0] == 64, "0,64 from cpu0: 64");
    CHECK(procstat_cpulist("2-3\n", 3, ids, 8) == 1 && ids[0] == 2, "2-3 from cpu3: 2");
    CHECK(procstat_cpulist("0-1,8-9\n", 9, ids, 8) == 3 && ids[0] == 0 && ids[1] == 1 &&
              ids[2] == 8, "0-1,8-9 from cpu9: 0 1 8");
    CHECK(procstat_cpulist("5\n", 5, ids, 8) == 0, "no SMT: none");
    CHECK(procstat_cpulist("0-7", 0, ids, 3) == 3, "at most max");
    static const char *const bad[] = { "0-x\n", "3-1", "a", "0-99999", " 1", "+1", "0, 1",
                                       "0,", "9223372036854775807", "4294967296", "1-" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(procstat_cpulist(bad[i], 0, ids, 8) == -1, "malformed list '%s' refused", bad[i]);
    /* This machine's cpu0: its list read when sysfs has one (-1 only without it). */
    int n = procstat_siblings(0, ids, PROCSTAT_MAX_SIBLINGS);
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "r");
    CHECK(f ? n >= 0 : n == -1, "cpu0's siblings on this machine: %d (%s)", n,
          f ? "sysfs has them" : "no sysfs list");
    if (f)
        fclose(f);
    CHECK(procstat_siblings(-1, ids, 8) == -1, "no CPU: unknown");

    struct procstat a, b;
    const int sib10[] = { 10 };
    long long u, t;
    procstat_parse_sib(reading, 1, sib10, 1, &a);
    CHECK(a.sibs == 1 && a.sib_user == 305 && a.sib_total == 2407,
          "cpu1's sibling cpu10 alone (%d, %lld, %lld)", a.sibs, a.sib_user, a.sib_total);
    CHECK(a.others == 2 && a.others_user == 605, "the others still all of them (%lld)",
          a.others_user);
    procstat_parse_sib("cpu  0 0 0 0 0 0 0 0 0 0\n"
                       "cpu0 300 0 60 2002 20 0 10 2 0 0\n"
                       "cpu1 400 5 70 1002 10 0 10 3 0 0\n"
                       "cpu10 302 5 70 2000 20 0 10 2 0 0\n", 1, sib10, 1, &b);
    procstat_sib_delta(&a, &b, &u, &t);
    CHECK(u == 2 && t == 2, "the sibling busy both ticks (%lld of %lld)", u, t);
    procstat_others_delta(&a, &b, &u, &t);
    CHECK(u == 2 && t == 4, "the others together: half (%lld of %lld)", u, t);
    procstat_parse(reading, 1, &a);
    procstat_sib_delta(&a, &b, &u, &t);
    CHECK(a.sib_total == -1 && u == -1 && t == -1, "without siblings: unknown");
    /* The worker moved between the readings: another core's siblings (none here). */
    procstat_parse_sib(reading, 1, sib10, 1, &a);
    procstat_parse_sib(reading, 0, NULL, 0, &b);
    procstat_sib_delta(&a, &b, &u, &t);
    CHECK(u == -1 && t == -1, "siblings on one reading only: unknown");
    const int sib7[] = { 7 };
    procstat_parse_sib(reading, 1, sib7, 1, &a);
    CHECK(a.sibs == 0 && a.sib_total == -1, "a sibling without a line: unknown");
    procstat_parse_sib(reading, 7, sib10, 1, &a);
    CHECK(a.sib_total == -1, "the worker's CPU without a line: unknown");
}

/* One CPU's user ticks (user + nice) and all its ticks, by its id (cpu1, not cpu10). */
static void test_cpu(void)
{
    long long user = -1, total = -1;
    CHECK(procstat_cpu(reading, 1, &user, &total) == 0 && user == 405 && total == 1498,
          "cpu1: user 400 + nice 5, all 1498 (%lld, %lld)", user, total);
    CHECK(procstat_cpu(reading, 10, &user, &total) == 0 && user == 305 && total == 2407,
          "cpu10: 305, 2407 (%lld, %lld)", user, total);
    CHECK(procstat_cpu(reading, 2, &user, &total) == -1, "cpu2: no line");
    CHECK(procstat_cpu("intr 1\ncpu2 1 1 1 1 1 1 1 1 0 0\n", 2, &user, &total) == -1,
          "cpu lines after the others are not read");
    char *text = procstat_text();
    CHECK(text && !strncmp(text, "cpu", 3), "this machine's /proc/stat starts with cpu lines");
    free(text);
}

int main(void)
{
    test_parse();
    test_delta();
    test_siblings();
    test_cpu();
    return check_done();
}
