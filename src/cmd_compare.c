/* `accelscope compare FILE.csv...`: saved runs side by side (compare.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "csv.h"
#include "spawn.h"
#include "store.h"

static const struct option longs[] = {
    { "impl", no_argument, 0, 'i' },     { "csv", required_argument, 0, 'c' },
    { "markdown", no_argument, 0, 'm' }, { "json", no_argument, 0, 'j' },
    { "force", no_argument, 0, 'f' },    { "help", no_argument, 0, 'h' },
    { 0, 0, 0, 0 },
};

struct compare_opts {
    int by_impl, force, formats;
    enum compare_format fmt;
    const char *csv;
};

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "accelscope compare: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'accelscope --help'.\n");
    return EXIT_USAGE;
}

static int no_file(void)
{
    char dir[4096], why[128];
    if (store_dir(dir, sizeof dir, why, sizeof why))
        snprintf(dir, sizeof dir, "(none: %s)", why);
    return usage_error("no file: give one or more CSV files written by 'accelscope run' (runs "
                       "are saved in %s)", dir);
}

static int parse(int argc, char **argv, struct compare_opts *o)
{
    int c;
    char why[1024];
    optind = 1;
    opterr = 0;
    while (optopt = 0, (c = getopt_long(argc, argv, ":ic:mjfh", longs, NULL)) != -1) {
        switch (c) {
        case 'h': cmd_usage(stdout); exit(0);
        case 'i': o->by_impl = 1; break;
        case 'f': o->force = 1; break;
        case 'c':
            if (cmd_once(&o->csv, optarg, "--csv", why, sizeof why))
                return usage_error("%s", why);
            o->fmt = COMPARE_CSV, o->formats++;
            break;
        case 'm': o->fmt = COMPARE_MARKDOWN; o->formats++; break;
        case 'j': o->fmt = COMPARE_JSON; o->formats++; break;
        case ':': return usage_error("option %s needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'; accepted: --impl --csv FILE|- --markdown "
                               "--json --force --help", argv[optind - 1]);
        }
    }
    if (o->formats > 1)
        return usage_error("%s", "one format at a time: --csv, --markdown or --json");
    if (optind >= argc)
        return no_file();
    /* --force replaces a file, never one of the runs being read (said first: --force would
     * not help) */
    for (int i = optind; o->csv && i < argc; i++)
        if (csv_same_source(o->csv, argv[i])) {
            snprintf(why, sizeof why, "--csv '%s' is one of the files to compare (%s): give the "
                     "table another name", o->csv, argv[i]);
            return usage_error("%s", why);
        }
    if (o->csv && csv_check_dest(o->csv, o->force, why, sizeof why))
        return usage_error("%s", why);
    return 0;
}

struct fill_arg {
    const struct compare_table *t;
    enum compare_format fmt;
};

static int fill(FILE *f, void *arg)
{
    const struct fill_arg *a = arg;
    return compare_write(f, a->t, a->fmt);
}

static int output(const struct compare_table *t, const struct compare_opts *o)
{
    char why[1024];
    struct fill_arg a = { t, o->fmt };
    if (o->csv) {
        if (!csv_write_atomic(o->csv, o->force, fill, &a, why, sizeof why))
            return 0;
        fprintf(stderr, "accelscope compare: %s\n", why);
        return 1;
    }
    if (compare_write(stdout, t, o->fmt) || fflush(stdout)) {
        perror("accelscope compare: standard output");
        spawn_stdout_reported();
        return 1;
    }
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_opts o = { .fmt = COMPARE_TEXT };
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    int nf = argc - optind;
    if (nf <= 0 || nf > 4096)
        return nf <= 0 ? no_file() : usage_error("%s", "more than 4096 files");
    size_t n = (size_t)nf, stdin_uses = 0;
    for (int i = optind; i < argc; i++)
        stdin_uses += !strcmp(argv[i], "-");
    if (stdin_uses > 1)
        return usage_error("%s", "standard input ('-') can be read only once");
    struct csvread_set *sets = calloc(n, sizeof *sets);
    if (!sets)
        abort();
    char why[1024];
    size_t loaded = 0;
    for (; loaded < n; loaded++)
        if (csvread_file(argv[optind + (int)loaded], &sets[loaded], why, sizeof why)) {
            rc = usage_error("%s", why);
            break;
        }
    struct compare_table t;
    if (!rc && compare_build(sets, n, o.by_impl, &t, why, sizeof why))
        rc = usage_error("%s", why);
    else if (!rc && compare_check_letters(&t, o.fmt != COMPARE_CSV && o.fmt != COMPARE_JSON, why,
                                          sizeof why)) {
        rc = usage_error("%s (--csv, --json)", why);
        compare_free(&t);
    } else if (!rc) {
        rc = output(&t, &o);
        compare_free(&t);
    }
    for (size_t i = 0; i < loaded; i++)
        csvread_free(&sets[i]);
    free(sets);
    return rc;
}
