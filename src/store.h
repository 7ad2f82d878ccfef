/* Saved runs: every finished run is kept as a CSV in the `run --csv` schema under
 * $XDG_DATA_HOME/accelscope/results/ (default ~/.local/share/accelscope/results/), named by
 * host and time (vm-20261130T221530Z.csv; -2, -3... when that name is taken), written
 * atomically and never over another file. */
#ifndef ACCELSCOPE_STORE_H
#define ACCELSCOPE_STORE_H

#include <stddef.h>
#include <time.h>

#include "cell.h"

/* The results folder into buf (not created). 0, or -1 and why (no XDG_DATA_HOME and no
 * HOME). */
int store_dir(char *buf, size_t n, char *why, size_t wn);

/* Saves cells (a finished run, plan order) as a new file in the results folder, creating
 * the folder. The file's name goes to path_out. 0, or -1 and why (nothing left behind). */
int store_save(const struct cell *cells, size_t n, char *path_out, size_t pn, char *why,
               size_t wn);

/* The file name store_save() proposes for host at time t ("-" and "/" in the host kept
 * safe), with suffix k > 1 as "-k". */
void store_name(const char *host, time_t t, unsigned k, char *buf, size_t n);

/* A saved run as a list shows it (the TUI's open dialog). */
struct store_entry {
    char path[4096];
    time_t mtime;           /* the file's modification time: the list is newest first */
    int ok;                 /* 1: its first row says what follows; 0: why says what is wrong */
    char host[256], cpu[160], timestamp[32]; /* as struct machine holds them */
    char why[256];
};

/* The runs saved in the results folder and the *.csv files of folder extra (NULL: none;
 * "." for the working folder), newest first, each with the host, CPU and time of its first
 * row (files are not read whole). A file that cannot be read is listed with why, not left
 * out. Returns the count; *out is malloc'd (the caller frees; NULL when none). A folder that
 * does not exist lists nothing. */
size_t store_list(const char *extra, struct store_entry **out);

#endif
