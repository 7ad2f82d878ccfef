/* The commands behind main(): each returns the process exit status. */
#ifndef ACCELSCOPE_CMD_H
#define ACCELSCOPE_CMD_H

#include <stdio.h>

int cmd_run(int argc, char **argv);

/* What `run` takes besides the selection. */
struct run_opts {
    const char *csv; /* --csv FILE, "-" = stdout, NULL = none */
    const char *out; /* --out FILE: written by its extension (export.h), NULL = none */
    const char *against; /* --against FILE.csv: a saved run compared with this one */
    int no_save;     /* --no-save: do not keep the run in the results folder (store.h) */
    int force;
    int quiet;
};
struct selection;
/* `run`'s arguments (argv[0] = "run") into sel (start from select_defaults) and o: 0, or the
 * exit status after a message on stderr (--help prints and exits 0). */
int run_parse(int argc, char **argv, struct selection *sel, struct run_opts *o);
int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
void cmd_usage(FILE *out);

#define EXIT_USAGE 2

/* A file option (--csv, --out, --against) into *slot; given twice, only one of the two would
 * be written or read, silently: -1 and why then. */
static inline int cmd_once(const char **slot, const char *value, const char *opt, char *why,
                           size_t n)
{
    if (*slot) {
        snprintf(why, n, "%s given twice ('%s' and '%s'): one file", opt, *slot, value);
        return -1;
    }
    *slot = value;
    return 0;
}

#endif
