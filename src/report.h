/* The plain-text table of `run`: rows are implementations, columns sizes, one block per
 * algorithm, MB/s (10^6 bytes/s), with each row's speed-up over the slowest row. */
#ifndef ACCELSCOPE_REPORT_H
#define ACCELSCOPE_REPORT_H

#include <stdio.h>

#include "cell.h"

/* cells in plan order (session_cell(s, 0) .. n): speed-ups are the cells' derived figures. */
void report_table(FILE *out, const struct cell *cells, size_t n);

/* With more than one thread count: per algorithm, size and direction, each row's figure at
 * each thread count, its efficiency against N x its 1-thread figure and, where that is off
 * by more than 10 %, why (scaling.h). Nothing with one thread count. */
struct scaling_env;
void report_scaling(FILE *out, const struct cell *cells, size_t n, const struct scaling_env *env);

/* Where a run's time went (session_tally's wall, timed, waited, starting and rounds): a run
 * that took long says why. Nothing for a run not ended (wall 0) or that took no round. */
void report_time(FILE *out, double wall, double timed, double waited, double starting,
                 long rounds);

/* The verified cells beside the machine's last saved run (lastrun.h): their clocks
 * (result.clock_ref_mhz) and, where that run's interval let it claim one, their figure
 * (last_mb_per_s). */
struct report_lastrun {
    size_t known;            /* cells with both clocks */
    size_t moved;            /* of those, more than STATS_CLOCK_REF_PCT off */
    double lo_pct, hi_pct;   /* the moved ones' least and most, % (+ = faster now) */
    double lo_mhz, hi_mhz;   /* this run's clocks, all known cells */
    size_t claimed;          /* cells with the last run's claimed figure */
    size_t off;              /* of those, more than STATS_ABSOLUTE_REPEAT_PCT from it */
    size_t off_same_clock;   /* of those, both clocks known and within STATS_CLOCK_REF_PCT */
    size_t off_faster;       /* of those, faster now */
    double off_lo, off_hi;   /* the off ones' least and most distance, % (unsigned) */
    size_t near;             /* of the claimed, within STATS_ABSOLUTE_REPEAT_PCT of it but more
                              * than STATS_ABSOLUTE_KEPT_PCT: that promise kept, this figure
                              * does not make it again */
};
void report_lastrun_of(const struct cell *cells, size_t n, struct report_lastrun *out);
/* Where any cell's clock moved, or its figure did not repeat the last run's claim, or
 * repeated it too loosely to claim again: how many and by how much, and that their MB/s are
 * not claimed to repeat while their speed-ups stand; ref_path names the saved run. Nothing
 * when none happened. Returns the findings: cells moved plus cells off plus cells near (a
 * cell may be moved and off or near). */
size_t report_lastrun(FILE *out, const struct cell *cells, size_t n, const char *ref_path);

/* "16 B", "1 KiB", "16 MiB": the size as people read it. */
const char *report_size(size_t bytes, char *buf, size_t n);

/* A cell's size as people read it: report_size(), or "2048-bit" for a public-key one (its
 * key size). a may be NULL. */
struct algo;
const char *report_cell_size(const struct algo *a, size_t bytes, char *buf, size_t n);

#endif
