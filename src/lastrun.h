/* The core clock this machine's last saved run ran at, beside which a new run's absolute
 * figures are judged.
 *
 * An absolute figure (MB/s) follows the core clock, and between runs the clock moves more
 * than a cell's interval can see: on the Zen 5 VM (family 0x1a, 2026-12-05, trust.sh) two
 * back-to-back default runs ran their cells at 3876..4234 MHz, each run steady within
 * itself; quiet cells agreed within 3 % on 81-83 % raw, 96-99 % per clock. A run cannot
 * know the next one's clock, but it can know the last one's: every run is saved (store.h).
 * A cell whose clock differs from that run's by more than STATS_CLOCK_REF_PCT no longer
 * claims that its MB/s repeats (CSV `absolute`: noisy, stats_absolute_quiet); its
 * comparisons (paired rounds, one clock) stand. */
#ifndef ACCELSCOPE_LASTRUN_H
#define ACCELSCOPE_LASTRUN_H

#include <stddef.h>

#include "cell.h"

struct lastrun;

/* The newest saved run of this host and CPU (machine.h) that has clocks (of the eight newest
 * of this machine at most), its quiet verified rows of this host and CPU. NULL and why ("no
 * saved run of this machine has clocks") when there is none. */
struct lastrun *lastrun_load(char *why, size_t n);
/* The same from one CSV in the `run --csv` schema, whatever machine it is from. */
struct lastrun *lastrun_from_file(const char *path, char *why, size_t n);
void lastrun_free(struct lastrun *c);

/* The clock, MHz, the reference ran c's cell at (same algorithm, direction, path,
 * implementation, size, threads); else the median of that implementation's clocks at the
 * same thread count, else of every cell's at that count; 0 when none (or c is NULL): the
 * cell is not judged by the clock. */
double lastrun_clock_for(const struct lastrun *c, const struct cell *cell);
double lastrun_clock_median(const struct lastrun *c); /* of every usable row */
/* The reference's MB/s for the same cell where that row claimed it repeats (absolute quiet)
 * and ran the same code (capability vector, OpenSSL version); 0 when none. */
double lastrun_mb_for(const struct lastrun *c, const struct cell *cell);
const char *lastrun_path(const struct lastrun *c);

#endif
