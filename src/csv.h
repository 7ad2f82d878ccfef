/* The CSV schema shared by `run --csv` and the TUI's export (RFC 4180, header row, one row
 * per measurement), written atomically and never over an existing file unless forced. */
#ifndef ACCELSCOPE_CSV_H
#define ACCELSCOPE_CSV_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "cell.h"

/* Writes the header and rows to an open stream; 0 or -1 on a write error. */
int csv_write_stream(FILE *f, const struct cell *rows, size_t n);

/* Checks, before any work, that path can be created: a file name (not too long, not ending
 * in '/'), its folder exists and is writable, and the file does not exist unless force.
 * "-" always passes. 0; 1 and why when the only obstacle is an existing regular file and
 * force is 0 (a caller may ask, then pass force); -1 and why when it can never be written. */
int csv_check_dest(const char *path, int force, char *why, size_t wn);

/* 1 when a and b name one file, however spelt: the same inode where either exists, else
 * the same name in the same folder; "-" (standard output) is never a file. */
int csv_same_file(const char *a, const char *b);
/* 1 when writing dest would replace src, a file about to be read: as csv_same_file, and
 * src "-" is the file on standard input (a redirection), if any. */
int csv_same_source(const char *dest, const char *src);

/* Writes to a temporary file beside path and renames it into place: readers see the old
 * file or the whole new one. Without force an existing path is never replaced.
 * "-" writes to stdout. 0, or -1 and why (nothing is left behind). */
int csv_write_file(const char *path, int force, const struct cell *rows, size_t n,
                   char *why, size_t wn);

/* The timestamp column: t as "2026-11-30T22:15:30Z" (UTC). */
void csv_timestamp(time_t t, char *buf, size_t n);
/* The direction column: "encrypt" or "decrypt" for ciphers and AEADs, "" otherwise. */
const char *csv_direction(const struct cell *c);

/* The atomic write behind csv_write_file, for any content: fill(f, arg) writes it (0, or -1
 * on a write error) to a temporary file beside path, renamed into place as above. */
int csv_write_atomic(const char *path, int force, int (*fill)(FILE *f, void *arg), void *arg,
                     char *why, size_t wn);

/* Quotes a field for RFC 4180 into out. */
void csv_quote(const char *in, char *out, size_t n);

#endif
