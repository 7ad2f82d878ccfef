/* See noise.h. Everything here reads /proc and /sys (proc(5): loadavg, stat, PID/stat;
 * cpufreq's scaling_governor) or the environment; nothing is changed. */
#include "noise.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procstat.h"

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
    long long s0 = steal_ticks();
    struct timespec ts = { 0, 50 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    long long s1 = steal_ticks();
    if (s0 >= 0 && s1 > s0)
        say(nz, "the hypervisor stole %lld ticks in 50 ms: this VM shares its CPUs", s1 - s0);
}

void noise_survey(struct noise *nz)
{
    memset(nz, 0, sizeof *nz);
    look_at_load(nz);
    look_at_clock(nz);
    static const char *const masks[] = { "OPENSSL_ia32cap", "OPENSSL_armcap" };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        const char *v = getenv(masks[i]);
        if (v)
            say(nz, "%s=%.80s set by you: OpenSSL's hw path follows your mask, not the CPU",
                masks[i], v);
    }
}

const char *noise_join(const struct noise *nz, char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = 0; i < nz->n; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? "; " : "", nz->line[i]);
    return buf;
}
