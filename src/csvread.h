/* Reading CSV files in the schema of `run --csv` (csv.h) back: hostile input.
 *
 * RFC 4180 (quoted fields, doubled quotes, CRLF or LF, newlines inside quotes), header-driven:
 * columns are found by name, unknown ones are ignored, and a file of an older schema loads
 * with what it has (only algorithm, bytes and mb_per_s are required). The file is streamed
 * record by record, never read whole; a file over CSVREAD_MAX_BYTES or CSVREAD_MAX_ROWS is
 * refused. A malformed file gives an error naming its line and column; it never crashes. */
#ifndef ACCELSCOPE_SRC_CSVREAD_H
#define ACCELSCOPE_SRC_CSVREAD_H

#include <stddef.h>
#include <stdio.h>

#include "cell.h"

#define CSVREAD_MAX_BYTES (64u << 20)
#define CSVREAD_MAX_ROWS 1000000u
#define CSVREAD_MAX_FIELD 65536u /* bytes in one field */
#define CSVREAD_MAX_NUMBER 1e12   /* a figure column's largest value (MB/s, ops/s, MHz...) */
#define CSVREAD_MAX_COLS 256u

/* One measurement read back. Strings are never NULL ("" when the column is absent or
 * empty) and live as long as the set (interned: equal strings share one copy). */
struct csvread_row {
    const char *timestamp, *host, *cpu, *kernel, *openssl, *capabilities;
    const char *algorithm, *direction, *path, *implementation;
    const char *cycle_clock, *verified_against, *status, *reason;
    const char *quality;    /* "quiet", "noisy", or "" (not rated, or an older schema) */
    const char *same_code_as; /* "asm/openssl-simd": a hardware row that ran that row's code */
    const char *absolute;   /* "quiet": the row's MB/s claimed to repeat within 3 %; else "" */
    const char *fallback;   /* an ENGINE row whose work stayed in software: why; else "" */
    size_t bytes;
    int threads;            /* 1 when absent */
    int has_figure;         /* mb_per_s was given */
    int ok;                 /* verified: status "ok" (or, without a status column, a figure) */
    double mb_per_s, mb_min, mb_max, spread_pct, cycles_per_byte, cpu_utilisation;
    double limit_mb_per_s;  /* 0 = none */
    double sys_pct;         /* -1 when absent or empty */
    double clock_mhz;       /* the core clock the cell ran at; 0 when absent or empty */
    double ci_pct;          /* its 95 % interval, half-width in % of it; 0 when absent */
    /* Public-key rows: their figure (ops_per_s, us_per_op columns); mb_per_s then holds
     * ops_per_s / 10^6, the rate the comparisons divide (algo.h: algo_rate). */
    double ops_per_s, us_per_op;
    unsigned line;          /* where the record starts in its file */
};

struct csvread_set {
    char *name;             /* the file's name as given ("-" for standard input) */
    struct csvread_row *rows;
    size_t n, cap;
    unsigned missing;       /* bit per optional column (enum csvread_col) the file lacked */
    struct csvread_pool *pool;
};

/* The columns the reader knows. */
enum csvread_col {
    CSVREAD_TIMESTAMP, CSVREAD_HOST, CSVREAD_CPU, CSVREAD_KERNEL, CSVREAD_OPENSSL,
    CSVREAD_CAPABILITIES, CSVREAD_ALGORITHM, CSVREAD_DIRECTION, CSVREAD_PATH,
    CSVREAD_IMPLEMENTATION, CSVREAD_BYTES, CSVREAD_THREADS, CSVREAD_MB_PER_S,
    CSVREAD_MB_PER_S_MIN, CSVREAD_MB_PER_S_MAX, CSVREAD_SPREAD_PCT, CSVREAD_CYCLES_PER_BYTE,
    CSVREAD_CYCLE_CLOCK, CSVREAD_CPU_UTILISATION, CSVREAD_LIMIT_MB_PER_S,
    CSVREAD_VERIFIED_AGAINST, CSVREAD_STATUS, CSVREAD_REASON, CSVREAD_QUALITY,
    CSVREAD_SAME_CODE_AS, CSVREAD_SYS_PCT, CSVREAD_FALLBACK, CSVREAD_OPS_PER_S,
    CSVREAD_US_PER_OP, CSVREAD_CLOCK_MHZ, CSVREAD_ABSOLUTE, CSVREAD_CI_PCT,
    CSVREAD_NCOLS
};
extern const char *const csvread_col_name[CSVREAD_NCOLS];

/* Reads path ("-" = standard input) into set (zeroed by the caller or a fresh one). 0, or -1
 * and why ("x.csv: line 7, column 14 (mb_per_s): 'fast' is not a decimal number from 0 to
 * 10^12"); on error set is left empty. */
int csvread_file(const char *path, struct csvread_set *set, char *why, size_t n);
/* Only the header and the first max_rows rows, checked as csvread_file() checks them: what
 * a list of files shows (host, CPU, time of each) without reading them whole. */
int csvread_head(const char *path, size_t max_rows, struct csvread_set *set, char *why,
                 size_t n);
/* The same from an open stream; name is used in messages. */
int csvread_stream(FILE *f, const char *name, struct csvread_set *set, char *why, size_t n);
void csvread_free(struct csvread_set *set);

/* A session's cells as rows, in memory, stamped with this machine (machine.h) and now, as
 * the CSV would hold them: the live side of a comparison. */
int csvread_from_cells(const struct cell *cells, size_t n, const char *name,
                       struct csvread_set *set);

#endif
