/* A group's CPU (src/cpupick.h): the pick is a CPU this process may use, the caller's
 * affinity is as it was afterwards, one CPU leaves nothing to pick, and keeping off a CPU
 * drops that one alone and is undone; a CPU busy with another program is passed over. On any machine: the one-CPU cases are made by
 * narrowing this process's own set; with a single CPU to begin with, the others say so. */
#include <sched.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cpupick.h"
#include "procstat.h"

static int same_set(const cpu_set_t *a, const cpu_set_t *b)
{
    return CPU_EQUAL(a, b);
}

static int first_cpu(const cpu_set_t *s, int after)
{
    for (int c = after + 1; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, s))
            return c;
    return -1;
}

static void test_pick(const cpu_set_t *all)
{
    char why[120] = "";
    int n = CPU_COUNT(all);
    if (n < 2) {
        UNAVAILABLE("cpupick_fastest over several CPUs", "this process may use one CPU");
        return;
    }
    /* a few turns of the window over the set: each pick a CPU of it */
    for (int k = 0; k < (n + CPUPICK_MAX - 1) / CPUPICK_MAX + 2; k++) {
        int cpu = cpupick_fastest(why, sizeof why);
        cpu_set_t now;
        sched_getaffinity(0, sizeof now, &now);
        CHECK(cpu >= 0 && CPU_ISSET(cpu, all), "pick %d: CPU %d of the set (%s)", k, cpu, why);
        CHECK(same_set(&now, all), "pick %d: the caller's affinity as it was (%d CPUs now, %d "
              "before)", k, CPU_COUNT(&now), n);
    }
}

static void test_one_cpu(const cpu_set_t *all)
{
    char why[120] = "";
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first_cpu(all, -1), &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0, "narrowed to one CPU");
    CHECK(cpupick_fastest(why, sizeof why) == -1 && strstr(why, "one CPU"),
          "one CPU: nothing to pick, said (%s)", why);
    cpu_set_t now;
    CHECK(cpupick_avoid(first_cpu(all, -1)) == -1, "one CPU: it cannot keep off it");
    sched_getaffinity(0, sizeof now, &now);
    CHECK(same_set(&now, &one), "one CPU: its affinity unchanged (%d CPUs)", CPU_COUNT(&now));
    sched_setaffinity(0, sizeof *all, all);
}

static void test_avoid(const cpu_set_t *all)
{
    if (CPU_COUNT(all) < 2) {
        UNAVAILABLE("cpupick_avoid", "this process may use one CPU");
        return;
    }
    int cpu = first_cpu(all, first_cpu(all, -1)); /* the second of the set */
    cpu_set_t now, outside;
    CHECK(cpupick_avoid(cpu) == 0, "keeps off CPU %d", cpu);
    sched_getaffinity(0, sizeof now, &now);
    CHECK(!CPU_ISSET(cpu, &now) && CPU_COUNT(&now) == CPU_COUNT(all) - 1,
          "off CPU %d and on every other (%d of %d)", cpu, CPU_COUNT(&now), CPU_COUNT(all));
    CHECK(cpupick_affinity(&outside) == 0 && same_set(&outside, all),
          "while away, the set outside a group is still the whole one (%d CPUs)",
          CPU_COUNT(&outside));
    CHECK(cpupick_avoid(first_cpu(all, -1)) == -1, "away already: a second keep-off refused");
    cpupick_restore();
    sched_getaffinity(0, sizeof now, &now);
    CHECK(same_set(&now, all), "restored: %d CPUs", CPU_COUNT(&now));
    cpupick_restore(); /* nothing to undo: nothing changes */
    sched_getaffinity(0, sizeof now, &now);
    CHECK(same_set(&now, all), "a second restore changes nothing");
    /* a CPU outside the set: nothing to keep off, nothing changed */
    if (CPU_ISSET(CPU_SETSIZE - 1, all)) {
        UNAVAILABLE("keeping off a CPU outside the set", "every CPU id is in this process's set");
        return;
    }
    CHECK(cpupick_avoid(CPU_SETSIZE - 1) == -1, "a CPU outside the set is refused");
    cpupick_restore();
    sched_getaffinity(0, sizeof now, &now);
    CHECK(same_set(&now, all), "and the set is as it was");
}

/* A child's affinity: that CPU alone. */
static void pin_to(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
}

/* cpu's user ticks (programs) and all its ticks now (/proc/stat); -1 -1 unreadable. */
static void cpu_ticks(int cpu, long long *u, long long *t)
{
    char *text = procstat_text();
    *u = *t = -1;
    procstat_cpu(text, cpu, u, t);
    free(text);
}

/* One try of test_busy: 1 done, 0 the other CPU was busy with a program not ours (/proc/stat
 * says so over the child's 0.4 s), so the try proves nothing either way. */
static int busy_once(const cpu_set_t *all, int last)
{
    int busy = first_cpu(all, first_cpu(all, -1)), idle = first_cpu(all, -1);
    char why[120] = "";
    /* a try before left its child reaped: its 0.4 s would count as a worker's on the CPU
     * picked last, which is the busy one when both were busy (then the verdict read it
     * free: "said busy (0)", twice in one deny.sh run with a build beside it) */
    cpupick_forget();
    cpupick_fastest(why, sizeof why); /* the ticks so far: where the next verdict starts */
    pid_t kid = fork();
    if (kid == 0) {
        pin_to(busy);
        alarm(30); /* never outlives a stuck suite */
        for (volatile unsigned long k = 0;; k++)
            ;
    }
    CHECK(kid > 0, "a busy child started");
    if (kid < 0)
        return 1;
    long long u0, t0, u1, t1;
    cpu_ticks(idle, &u0, &t0);
    usleep(400000); /* this process sleeps: the idle CPU's user ticks are other programs' */
    cpu_ticks(idle, &u1, &t1);
    long long u = u1 - u0, t = t0 >= 0 && t1 >= 0 ? t1 - t0 : -1;
    int on_busy = 0, picks = 6;
    for (int k = 0; k < picks; k++)
        on_busy += cpupick_fastest(why, sizeof why) == busy;
    int said = cpupick_busy(busy), other = cpupick_busy(idle);
    kill(kid, SIGKILL);
    waitpid(kid, NULL, 0);
    /* the child's CPU reads busy whatever the other one did: only the other's verdict and
     * the picks may be excused by someone else's program */
    CHECK(said, "CPU %d, busy with our child, said busy (%d)", busy, said);
    if (other && t > 0 && 2 * u > t && !last) {
        printf("note: CPU %d was busy with another program (%lld of %lld ticks): again\n", idle,
               u, t);
        return 0;
    }
    if (other && t > 0 && 2 * u > t) {
        UNAVAILABLE("a busy CPU passed over", "another program kept the other CPU busy too, "
                    "three times");
        return 1;
    }
    CHECK(!other, "CPU %d not said busy (%d; %lld of its %lld ticks were programs')", idle,
          other, u, t);
    CHECK(on_busy == 0, "CPU %d, busy with another program, was picked %d times of %d", busy,
          on_busy, picks);
    return 1;
}

/* A CPU where another program is busy is passed over: a child spins on the second CPU of the
 * set for 0.4 s (40 ticks of /proc/stat, over the 20 a verdict needs), and no pick after it
 * is that CPU; the verdict says so. The probe alone reads it as fast as any some of the time
 * (with the rule left out, picks took it 0, 3 and 6 times of 6 in different runs). A program
 * of someone else's on the other CPU (a build beside the suite once) makes that CPU busy as
 * well, truly: such a try is taken again, up to three times. */
static void test_busy(const cpu_set_t *all)
{
    if (CPU_COUNT(all) < 2) {
        UNAVAILABLE("a busy CPU passed over", "this process may use one CPU");
        return;
    }
    for (int k = 0; k < 3 && !busy_once(all, k == 2); k++)
        ;
}

/* A child of ours spins 0.4 s on `cpu` and is reaped, as a -t N worker on a CPU no pick
 * chose. */
static void worker_on(int cpu)
{
    pid_t kid = fork();
    if (kid == 0) {
        pin_to(cpu);
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 400000000L);
        _exit(0);
    }
    CHECK(kid > 0, "a worker child started");
    if (kid > 0)
        waitpid(kid, NULL, 0);
}

/* Workers on a CPU no pick chose: their time, counted to the CPU picked last, makes theirs
 * read as another program's (busy) unless cpupick_forget came first; then no CPU is. */
static void test_forget(const cpu_set_t *all)
{
    if (CPU_COUNT(all) < 2) {
        UNAVAILABLE("verdicts forgotten for -t N", "this process may use one CPU");
        return;
    }
    char why[120] = "";
    int said[2];
    for (int forget = 0; forget < 2; forget++) {
        cpupick_forget();
        int p = cpupick_fastest(why, sizeof why); /* the ticks so far: the baseline */
        int q = first_cpu(all, -1) == p ? first_cpu(all, p) : first_cpu(all, -1);
        worker_on(q);
        if (forget)
            cpupick_forget();
        cpupick_fastest(why, sizeof why);
        said[forget] = cpupick_busy(q);
    }
    CHECK(said[0] == 1 && said[1] == 0, "a worker's CPU said busy without cpupick_forget (%d), "
          "not with it (%d)", said[0], said[1]);
}

int main(void)
{
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all)) { /* EINVAL: more CPUs than a cpu_set_t */
        UNAVAILABLE("cpupick", "this process's affinity does not fit a cpu_set_t");
        return check_done();
    }
    test_pick(&all);
    test_one_cpu(&all);
    test_avoid(&all);
    test_busy(&all);
    test_forget(&all);
    return check_done();
}
