/* The machine's last saved run, beside which a new run's absolute figures are judged: its
 * clocks and its figures.
 *
 * An absolute figure (MB/s) follows the core clock, and between runs the clock moves more
 * than a cell's interval can see: on the Zen 5 VM (family 0x1a, 2026-12-05, trust.sh) two
 * back-to-back default runs ran their cells at 3876..4234 MHz, each run steady within
 * itself; quiet cells agreed within 3 % on 81-83 % raw, 96-99 % per clock. And the host slows
 * some code where the scalar clock probe sees nothing: quiet cells at clocks within 1.5 % of
 * each other still moved 3-6 % between runs. A run cannot know the next one's clock or speed,
 * but it can know the last one's: every run is saved (store.h). A cell whose clock differs
 * from that run's by more than STATS_CLOCK_REF_PCT, or whose MB/s differs by more than
 * STATS_ABSOLUTE_KEPT_PCT from a figure that run's interval let it claim, no longer claims
 * that its MB/s repeats (CSV `absolute`: noisy, stats_absolute_quiet); its comparisons
 * (paired rounds, one clock) stand. */
#ifndef ACCELSCOPE_LASTRUN_H
#define ACCELSCOPE_LASTRUN_H

#include <stddef.h>

#include "cell.h"

struct lastrun;

/* The newest saved run of this host and CPU (machine.h) that has a quiet verified row (of
 * the eight newest of this machine at most): those rows. NULL and why when there is none. */
struct lastrun *lastrun_load(char *why, size_t n);
void lastrun_free(struct lastrun *c);

/* The clock, MHz, the reference ran c's cell at (same algorithm, direction, path,
 * implementation, size, threads); else the median of that implementation's clocks at the
 * same thread count, else of every cell's at that count; 0 when none (or c is NULL): the
 * cell is not judged by the clock. */
double lastrun_clock_for(const struct lastrun *c, const struct cell *cell);
double lastrun_clock_median(const struct lastrun *c); /* of every usable row */
/* The reference's MB/s (public-key rows: 10^6 ops/s) for the same cell where its interval let
 * it claim the figure repeats (quiet, within STATS_ABSOLUTE_CI_PCT) and it ran the same code
 * (capability vector, OpenSSL version; the kernel for the kernel path); 0 when none. */
double lastrun_mb_for(const struct lastrun *c, const struct cell *cell);
const char *lastrun_path(const struct lastrun *c);

#endif
