/* See noise.h. Everything here reads /proc and /sys (proc(5): loadavg, stat, PID/stat;
 * cpufreq's scaling_governor) or the environment; nothing is changed. */
#include "noise.h"

#include "osslcap.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "procstat.h"
#include "stats.h"

static void say(struct noise *nz, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct noise *nz, const char *fmt, ...)
{
    if (nz->n == NOISE_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(nz->line[nz->n++], sizeof nz->line[0], fmt, ap);
    va_end(ap);
}

/* Other processes running now (state R), not this one nor its children: their names. */
static int busy_processes(char *names, size_t n)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int count = 0;
    pid_t me = getpid();
    names[0] = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[300], comm[64], st;
        long pid = strtol(e->d_name, NULL, 10), ppid;
        if (pid <= 0 || pid == me)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        /* pid (comm) state ppid: comm has no ')' in practice, and %63[^)] stops at one */
        long self;
        int got = fscanf(f, "%ld (%63[^)]) %c %ld", &self, comm, &st, &ppid) - 1;
        fclose(f);
        if (got != 3 || st != 'R' || ppid == me)
            continue;
        if (count++ < 3)
            snprintf(names + strlen(names), n - strlen(names), "%s%s", count > 1 ? ", " : "",
                     comm);
    }
    closedir(d);
    return count;
}

/* The steal ticks of every CPU (procstat.h); -1 where unreadable. */
static long long steal_ticks(void)
{
    struct procstat r;
    procstat_now(-1, &r);
    return r.steal_all;
}

static void look_at_load(struct noise *nz)
{
    double load = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &load) == 1 && cpus > 0 && load > 0.5 * (double)cpus)
        say(nz, "load average %.1f on %ld CPUs: other work competes for the cores", load, cpus);
    if (f)
        fclose(f);
    char names[160];
    int busy = busy_processes(names, sizeof names);
    if (busy)
        say(nz, "%d other busy process%s (%s%s)", busy, busy > 1 ? "es" : "", names,
            busy > 3 ? ", ..." : "");
}

static void look_at_clock(struct noise *nz)
{
    char gov[64] = "";
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "r");
    if (f && fscanf(f, "%63s", gov) == 1 && strcmp(gov, "performance"))
        say(nz, "cpufreq governor %s: the clock ramps with load, so short samples vary", gov);
    if (f)
        fclose(f);
}

/* The load probe, as workers take it around their rounds, for SURVEY_NS; steal is counted
 * over the same time. On the Emerald Rapids VM (2026-12-03) the host slowed the memory path
 * half to nearly all of the time in spells of some 20 ms (tests/bench/probes_bench.c), and the
 * slow-phase rule retook a third to all of a run's rounds: the user is told why the run is
 * long or noisy before it starts. 150 ms spans several spells; a figure from it is rough, so
 * it is said only from SURVEY_SLOW_PCT. */
#define SURVEY_NS 150000000ull
#define SURVEY_MAX 4096
#define SURVEY_SLOW_PCT 20

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void look_at_memory_path(struct noise *nz)
{
    static double fig[SURVEY_MAX];
    int n = 0;
    long long s0 = steal_ticks();
    for (uint64_t end = mono_ns() + SURVEY_NS; n < SURVEY_MAX && mono_ns() < end; n++) {
        double mhz = clock_probe_mhz();
        fig[n] = stats_load_figure(clock_probe_load_rate(), mhz);
    }
    long long s1 = steal_ticks();
    if (s0 >= 0 && s1 > s0)
        say(nz, "the hypervisor stole %lld ticks in %llu ms: this VM shares its CPUs", s1 - s0,
            SURVEY_NS / 1000000);
    double share = stats_load_slow_share(fig, n);
    if (share * 100 >= SURVEY_SLOW_PCT)
        say(nz, "the memory path ran slow %.0f %% of %llu ms (load probe; a host's slow spells): "
            "rounds taken in them are retaken, so the run takes longer and more figures may "
            "be noisy", share * 100, SURVEY_NS / 1000000);
}

void noise_survey(struct noise *nz)
{
    memset(nz, 0, sizeof *nz);
    look_at_load(nz);
    look_at_clock(nz);
    look_at_memory_path(nz);
    static const char *const masks[] = { "OPENSSL_ia32cap", "OPENSSL_armcap" };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        const char *v = getenv(masks[i]);
        if (v)
            say(nz, "%s=%.80s set by you: OpenSSL's hw path follows your mask, not the CPU",
                masks[i], v);
    }
    char why[256];
    if (osslcap_deny_missed(why, sizeof why))
        say(nz, "ACCELSCOPE_DENY does not reach OpenSSL's hw rows: %s", why);
}

const char *noise_join(const struct noise *nz, char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = 0; i < nz->n; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? "; " : "", nz->line[i]);
    return buf;
}
