/* `accelscope run`: measure a selection headless, print the table, write the CSV. */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cpu.h"
#include "engine.h"
#include "silicon.h"
#include "plan.h"
#include "report.h"
#include "select.h"

struct run_opts {
    struct selection sel;
    int threads;
    double seconds;
    int decrypt;
    const char *csv;
    int force;
    int quiet;
};

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "accelscope run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'accelscope --help'.\n");
    return EXIT_USAGE;
}

static int parse(int argc, char **argv, struct run_opts *o)
{
    static const struct option longs[] = {
        { "algorithms", required_argument, 0, 'a' }, { "sizes", required_argument, 0, 's' },
        { "paths", required_argument, 0, 'p' },      { "impl", required_argument, 0, 'i' },
        { "threads", required_argument, 0, 't' },    { "time", required_argument, 0, 'T' },
        { "decrypt", no_argument, 0, 'd' },          { "csv", required_argument, 0, 'c' },
        { "force", no_argument, 0, 'f' },            { "quiet", no_argument, 0, 'q' },
        { "help", no_argument, 0, 'h' },             { 0, 0, 0, 0 },
    };
    char why[1024];
    select_defaults(&o->sel);
    o->threads = 1;
    o->seconds = ENGINE_DEFAULT_SECONDS;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":a:s:p:i:t:T:c:dfqh", longs, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'a':
            if (select_algs(&o->sel, optarg, why, sizeof why))
                return usage_error("%s", why);
            break;
        case 's':
            if (select_sizes(&o->sel, optarg, why, sizeof why))
                return usage_error("%s", why);
            break;
        case 'p':
            if (select_paths(&o->sel, optarg, why, sizeof why))
                return usage_error("%s", why);
            break;
        case 'i':
            if (select_impls(&o->sel, optarg, why, sizeof why))
                return usage_error("%s", why);
            break;
        case 't': {
            long t = strtol(optarg, &end, 10);
            /* Each worker gets a CPU of its own: the ones this process may run on (taskset,
             * cgroup cpusets), not merely the ones online. */
            cpu_set_t mine;
            long online = sysconf(_SC_NPROCESSORS_ONLN), usable = online;
            if (sched_getaffinity(0, sizeof mine, &mine) == 0)
                usable = CPU_COUNT(&mine);
            if (*end || t < 1 || t > usable || t > RESULT_MAX_THREADS) {
                snprintf(why, sizeof why,
                         "bad thread count '%s'; accepted: 1 to %ld (online CPUs this process "
                         "may use; %ld online)", optarg, usable, online);
                return usage_error("%s", why);
            }
            o->threads = (int)t;
            break;
        }
        case 'T':
            o->seconds = strtod(optarg, &end);
            if (*end || !(o->seconds >= 0.01 && o->seconds <= 600))
                return usage_error("bad --time '%s'; accepted: 0.01 to 600 seconds per cell", optarg);
            break;
        case 'c': o->csv = optarg; break;
        case 'd': o->decrypt = 1; break;
        case 'f': o->force = 1; break;
        case 'q': o->quiet = 1; break;
        case 'h': cmd_usage(stdout); exit(0);
        case ':': return usage_error("option %s needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (select_check(&o->sel, why, sizeof why))
        return usage_error("%s", why);
    if (cpu_deny_check(why, sizeof why))
        return usage_error("%s", why);
    if (o->csv && csv_check_dest(o->csv, o->force, why, sizeof why))
        return usage_error("%s", why);
    return 0;
}

struct progress {
    size_t i, n;
    const struct cell *cell;
};

static void show_progress(const struct result *r, void *arg)
{
    const struct progress *p = arg;
    char b[32];
    fprintf(stderr, "\r[%zu/%zu] %s %s %s: %d/%d samples, %.1f MB/s   ", p->i + 1, p->n,
            p->cell->impl->alg, p->cell->impl->name,
            report_size(p->cell->bytes, b, sizeof b), r->samples,
            r->samples_wanted * r->threads, r->mb_per_s);
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o = { 0 };
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    struct plan p;
    if (!plan_build(&p, &o.sel, o.decrypt, o.threads)) {
        fprintf(stderr, "accelscope run: no implementation matches that selection; "
                        "see 'accelscope info' for the implementations\n");
        plan_free(&p);
        return EXIT_USAGE;
    }
    /* The silicon's ceilings come from microbenchmarks: measured once, before any worker
     * runs, so nothing else competes for the core meanwhile. */
    for (size_t i = 0; i < p.n; i++) {
        char why[256];
        double mb;
        if (silicon_ceiling(p.cells[i].impl->alg, o.decrypt, &mb, why, sizeof why) == 0)
            p.cells[i].limit_mb_per_s = mb;
    }
    int tty = isatty(2) && !o.quiet;
    int failures = 0;
    for (size_t i = 0; i < p.n; i++) {
        struct cell *c = &p.cells[i];
        struct engine_job job = { .impl = c->impl, .bytes = c->bytes, .threads = o.threads,
                                  .seconds = o.seconds, .samples = ENGINE_MIN_SAMPLES,
                                  .decrypt = o.decrypt };
        struct progress pr = { .i = i, .n = p.n, .cell = c };
        engine_run(&job, &c->r, tty ? show_progress : NULL, &pr);
        if (c->r.status != RES_OK && c->r.status != RES_UNAVAILABLE)
            failures++;
    }
    if (tty)
        fprintf(stderr, "\r\033[K");
    /* With the CSV on stdout, the table goes to stderr. */
    FILE *table = o.csv && !strcmp(o.csv, "-") ? stderr : stdout;
    if (!o.quiet)
        report_table(table, &p);
    if (o.csv) {
        char why[512];
        if (csv_write_file(o.csv, o.force, p.cells, p.n, why, sizeof why)) {
            fprintf(stderr, "accelscope run: %s\n", why);
            plan_free(&p);
            return 1;
        }
    }
    plan_free(&p);
    return failures ? 1 : 0;
}
