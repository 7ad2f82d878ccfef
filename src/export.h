/* What a run shows, written for a report by the file's extension: `run --out FILE` and the
 * TUI's export.
 *   .csv   the `run --csv` schema (csv.h)
 *   .md    Markdown, ready for a README or an issue: one table per algorithm, MB/s per
 *          implementation and size with the speed-up over the slowest at that size
 *   .json  every cell's status, reason and figures, with the machine's metadata (CPU,
 *          features, OpenSSL and its capability vector, kernel, clocks, cpufreq governor)
 *   .svg   the paths chart: per algorithm one bar per implementation at the largest size,
 *          coloured by path, with a legend and a title naming the machine; self-contained
 * Every file is written atomically (csv_write_atomic): the old file or the whole new one. */
#ifndef ACCELSCOPE_EXPORT_H
#define ACCELSCOPE_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "cell.h"

enum export_format { EXPORT_CSV, EXPORT_MD, EXPORT_JSON, EXPORT_SVG };

/* The format path's extension asks for (case-insensitive): 0, or -1 and why, naming the
 * accepted extensions. */
int export_format_of(const char *path, enum export_format *fmt, char *why, size_t n);

/* Before measuring: a known extension and a destination csv_check_dest() accepts. 0, or
 * nonzero and why. */
int export_check_dest(const char *path, int force, char *why, size_t n);

/* cells in plan order (derived figures filled). 0 or -1 on a write error. */
int export_write_stream(FILE *f, enum export_format fmt, const struct cell *cells, size_t n);
int export_write_file(const char *path, int force, const struct cell *cells, size_t n,
                      char *why, size_t wn);

/* s as a JSON string, quotes included. */
void export_json_string(FILE *f, const char *s);
/* s as SVG text (XML-escaped, control characters as spaces), at most max bytes. */
void export_svg_text(FILE *f, const char *s, size_t max);
/* The SVG colour of each path (enum path order): the TUI's colours. */
extern const char *const export_path_colour[];
/* s as the text of a Markdown table cell: '|' escaped, line breaks and tabs as spaces, other
 * control characters as '?' (text_shown). */
void export_md_text(FILE *f, const char *s);

#endif
