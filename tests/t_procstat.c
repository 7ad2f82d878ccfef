/* /proc/stat's cpu lines (src/procstat.c) on canned readings: the worker's own line told
 * from the others (cpu1 against cpu10), the aggregate line, a line cut short, a CPU that
 * went offline between two readings. */
#include <stdio.h>
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

int main(void)
{
    test_parse();
    test_delta();
    return check_done();
}
