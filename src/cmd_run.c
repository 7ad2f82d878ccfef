/* `accelscope run`: a session measured headless; the table on stdout, the CSV where asked. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lastrun.h"
#include "cmd.h"
#include "cpu.h"
#include "compare.h"
#include "env.h"
#include "csv.h"
#include "spawn.h"
#include "export.h"
#include "noise.h"
#include "report.h"
#include "scaling.h"
#include "session.h"
#include "store.h"

enum { OPT_NO_SAVE = 0x100, OPT_AGAINST };

static const struct option longs[] = {
    { "algorithms", required_argument, 0, 'a' }, { "sizes", required_argument, 0, 's' },
    { "paths", required_argument, 0, 'p' },      { "impl", required_argument, 0, 'i' },
    { "exclude", required_argument, 0, 'x' },    { "threads", required_argument, 0, 't' },
    { "time", required_argument, 0, 'T' },       { "decrypt", no_argument, 0, 'd' },
    { "csv", required_argument, 0, 'c' },        { "force", no_argument, 0, 'f' },
    { "quiet", no_argument, 0, 'q' },            { "help", no_argument, 0, 'h' },
    { "out", required_argument, 0, 'o' },        { "no-save", no_argument, 0, OPT_NO_SAVE },
    { "against", required_argument, 0, OPT_AGAINST }, { 0, 0, 0, 0 },
};

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "accelscope run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'accelscope --help'.\n");
    return EXIT_USAGE;
}

/* getopt_long gave '?' or ':': name the option the user really wrote. A grouped short
 * option ("-qa") is reported by its letter, an abbreviated long one by the candidates. */
static int option_error(int c, const char *arg)
{
    char what[160];
    if (optopt)
        snprintf(what, sizeof what, "-%c", optopt);
    else
        snprintf(what, sizeof what, "%.*s", (int)strcspn(arg, "="), arg);
    if (c == ':')
        return usage_error("option %s needs a value", what);
    if (!optopt && !strncmp(what, "--", 2) && what[2]) {
        char cands[256] = "";
        int k = 0;
        for (const struct option *o = longs; o->name; o++)
            if (!strncmp(o->name, what + 2, strlen(what + 2)))
                k += snprintf(cands + strlen(cands), sizeof cands - strlen(cands), "%s--%s",
                              k ? ", " : "", o->name) > 0;
        if (k > 1) {
            char msg[512];
            snprintf(msg, sizeof msg, "ambiguous option '%s': could be %s", what, cands);
            return usage_error("%s", msg);
        }
    }
    return usage_error("unknown option '%s'; accepted: -a -s -p -i -x -t -T -d -c -o -f -q -h "
                       "--no-save --against (see --help)", what);
}

static int sizes_given; /* -s was on the command line */

/* -s and public-key operations: they run at their key size; say so rather than ignore it. */
static void note_unsized(const struct selection *sel)
{
    char list[256] = "";
    for (int a = 0, off = 0; a < sel->nalgs && sizes_given; a++)
        if (!algo_sized(sel->algs[a]) && off >= 0 && (size_t)off < sizeof list)
            off += snprintf(list + off, sizeof list - (size_t)off, "%s%s", off ? ", " : "",
                            sel->algs[a]->id);
    if (*list)
        fprintf(stderr, "accelscope: note: -s does not apply to public-key operations (%s): "
                        "each is measured once, at its key size\n", list);
}

/* One option into the selection; 0 or the exit status. */
static int option(int c, struct selection *sel, struct run_opts *o)
{
    char why[4096];
    int bad = 0;
    switch (c) {
    case 'a': bad = select_algs(sel, optarg, why, sizeof why); break;
    case 's': bad = select_sizes(sel, optarg, why, sizeof why), sizes_given = 1; break;
    case 'p': bad = select_paths(sel, optarg, why, sizeof why); break;
    case 'i': bad = select_impls(sel, optarg, why, sizeof why); break;
    case 'x': bad = select_excludes(sel, optarg, why, sizeof why); break;
    case 't': bad = select_threads(sel, optarg, session_max_threads(NULL), why, sizeof why); break;
    case 'T': bad = select_time(sel, optarg, why, sizeof why); break;
    case 'd': sel->decrypt = 1; break;
    case 'c': bad = cmd_once(&o->csv, optarg, "--csv", why, sizeof why); break;
    case 'f': o->force = 1; break;
    case 'q': o->quiet = 1; break;
    case 'o': bad = cmd_once(&o->out, optarg, "--out", why, sizeof why); break;
    case OPT_NO_SAVE: o->no_save = 1; break;
    case OPT_AGAINST: bad = cmd_once(&o->against, optarg, "--against", why, sizeof why); break;
    default: return -1;
    }
    return bad ? usage_error("%s", why) : 0;
}

int run_parse(int argc, char **argv, struct selection *sel, struct run_opts *o)
{
    char why[1024];
    optind = 1;
    opterr = 0;
    sizes_given = 0;
    int c, rc;
    while (optopt = 0, (c = getopt_long(argc, argv, ":a:s:p:i:x:t:T:c:o:dfqh", longs, NULL)) != -1) {
        if (c == 'h') {
            cmd_usage(stdout);
            exit(0);
        }
        if ((rc = option(c, sel, o)) > 0)
            return rc;
        if (rc < 0)
            return option_error(c, argv[optind - 1]);
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (select_check(sel, why, sizeof why))
        return usage_error("%s", why);
    note_unsized(sel);
    if (env_check(why, sizeof why))
        return usage_error("%s", why);
    /* One file under two names first: --force would not help, so it is said before the
     * advice to add it. */
    if (o->csv && o->out && csv_same_file(o->csv, o->out)) {
        snprintf(why, sizeof why, "--csv '%s' and --out '%s' name the same file: give two names",
                 o->csv, o->out);
        return usage_error("%s", why);
    }
    /* --force would replace the user's saved run with this one */
    const char *dest[] = { o->csv, o->out };
    for (size_t i = 0; i < 2; i++)
        if (dest[i] && o->against && csv_same_source(dest[i], o->against)) {
            snprintf(why, sizeof why, "%s '%s' is the --against file: give the output another "
                     "name", i ? "--out" : "--csv", dest[i]);
            return usage_error("%s", why);
        }
    /* the table, or the CSV with -c -, would be lost after the whole measurement */
    if (spawn_stdout_closed() && (!o->quiet || (o->csv && !strcmp(o->csv, "-"))))
        return usage_error("%s", "standard output is closed, so the table would be lost: give -q, "
                           "and --csv FILE or --out FILE for the figures");
    if (o->csv && csv_check_dest(o->csv, o->force, why, sizeof why))
        return usage_error("%s", why);
    if (o->out && export_check_dest(o->out, o->force, why, sizeof why))
        return usage_error("%s", why);
    return 0;
}

/* The listener: a progress line on a terminal's stderr. */
static void show_progress(struct session *s, enum session_event ev, size_t i, void *arg)
{
    (void)arg;
    if (ev != SESSION_CELL_SAMPLE && ev != SESSION_CELL_START)
        return;
    const struct cell *c = session_cell(s, i);
    struct session_progress p;
    session_progress(s, &p);
    char b[32];
    const struct algo *a = algo_find(c->impl->alg);
    fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s: %d/%d samples, %.1f %s", p.done + 1, p.total,
            c->impl->alg, c->impl->name, report_cell_size(a, c->bytes, b, sizeof b), c->r.samples,
            c->r.samples_wanted * c->r.threads, algo_rate(a, c->r.mb_per_s), algo_unit(a));
}

/* The live machine beside a saved run: the saved one is A, the reference of the ratios. */
static void against(FILE *out, const struct csvread_set *saved, const struct cell *cells,
                    size_t n, int after_table)
{
    struct csvread_set sets[2] = { *saved };
    struct compare_table t;
    char why[256];
    csvread_from_cells(cells, n, "this run", &sets[1]);
    if (compare_build(sets, 2, 0, &t, why, sizeof why))
        fprintf(stderr, "accelscope run: --against: %s\n", why);
    else {
        compare_only(&t, t.nsides - 1); /* what this run measured */
        if (after_table)
            fputc('\n', out);
        compare_write(out, &t, COMPARE_TEXT);
        compare_free(&t);
    }
    csvread_free(&sets[1]);
}

/* Files besides the table; 0, or 1 when one could not be written. */
static int write_files(const struct cell *cells, size_t n, const struct run_opts *o)
{
    char why[600], saved[4200];
    int rc = 0;
    if (o->csv && csv_write_file(o->csv, o->force, cells, n, why, sizeof why)) {
        fprintf(stderr, "accelscope run: %s\n", why);
        rc = 1;
    }
    if (o->out && export_write_file(o->out, o->force, cells, n, why, sizeof why)) {
        fprintf(stderr, "accelscope run: %s\n", why);
        rc = 1;
    }
    /* A run that could not be kept is said, but costs neither the table nor the files. */
    if (!o->no_save) {
        if (store_save(cells, n, saved, sizeof saved, why, sizeof why))
            fprintf(stderr, "accelscope run: not saved: %s (--no-save turns saving off)\n", why);
        else if (!o->quiet)
            fprintf(stderr, "accelscope run: saved to %s\n", saved);
    }
    return rc;
}

static int finish(struct session *s, const struct run_opts *o, const struct csvread_set *vs)
{
    size_t n = session_ncells(s);
    const struct cell *cells = session_cell(s, 0);
    /* With the CSV on stdout, the table goes to stderr. */
    FILE *table = o->csv && !strcmp(o->csv, "-") ? stderr : stdout;
    if (!o->quiet) {
        struct scaling_env env;
        scaling_env_of(session_silicon(s), &env);
        report_table(table, cells, n);
        report_scaling(table, cells, n, &env);
    }
    if (vs)
        against(table, vs, cells, n, !o->quiet);
    struct session_tally t;
    session_tally(s, &t);
    if (!o->quiet)
        report_time(table, t.wall, t.timed, t.waited, t.starting, t.rounds);
    if (!o->quiet)
        report_lastrun(table, cells, n, lastrun_path(session_lastrun(s)));
    if (write_files(cells, n, o))
        return 1;
    /* A cell that did not give a figure it should have is a failure, cancelled ones too. */
    return t.failed || t.cancelled || t.pending ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o = { 0 };
    struct session *s = session_new();
    char why[1024];
    int rc = run_parse(argc, argv, session_sel_edit(s, why, sizeof why), &o);
    if (rc) {
        session_free(s);
        return rc;
    }
    /* The saved side is read before measuring: a bad file costs no run. */
    struct csvread_set vs;
    if (o.against && csvread_file(o.against, &vs, why, sizeof why)) {
        session_free(s);
        return usage_error("--against: %s", why);
    }
    session_rebuild(s);
    /* none yet (a first run) is no finding: the run says nothing of it */
    session_set_lastrun(s, lastrun_load(why, sizeof why));
    if (!o.quiet) { /* what will make these figures noisy, said before they are taken */
        struct noise nz;
        noise_survey(&nz);
        for (int i = 0; i < nz.n; i++)
            fprintf(stderr, "accelscope run: note: %s\n", nz.line[i]);
    }
    int tty = isatty(2) && !o.quiet;
    if (tty)
        session_set_listener(s, show_progress, NULL);
    if (session_run(s, why, sizeof why) < 0)
        rc = usage_error("%s", why);
    else {
        if (tty)
            fprintf(stderr, "\r\033[K");
        rc = finish(s, &o, o.against ? &vs : NULL);
    }
    if (o.against)
        csvread_free(&vs);
    session_free(s);
    return rc;
}
