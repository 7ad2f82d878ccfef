/* The comparison table behind `accelscope compare`, `run --against` and the TUI's compare
 * view: per algorithm, direction, size and path (or implementation), the best verified figure
 * of each side, and its ratio to the first side.
 *
 * A side is one run of one machine: the rows of one file (or of the live session) with the
 * same host, CPU, kernel, OpenSSL and timestamp. Machines are told apart by what the CSV says;
 * two runs of one machine are two sides, labelled by what changed between them (kernel,
 * OpenSSL, else the time), as before/after an upgrade. */
#ifndef ACCELSCOPE_COMPARE_H
#define ACCELSCOPE_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

/* The sides' letters, in order; a table of more sides cannot tell the rest apart by letter. */
#define COMPARE_LETTERS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define COMPARE_MAX_LETTERED (sizeof COMPARE_LETTERS - 1)

struct compare_side {
    char letter;            /* 'A'..'Z', 'a'..'z', '0'..'9' (COMPARE_LETTERS), then '*' */
    char label[200];        /* host, and what tells it from the other sides */
    const char *file;       /* the set's name */
    const char *host, *cpu, *kernel, *openssl, *timestamp;
    const char *capabilities; /* OpenSSL's vector, unmasked (a row without an "env:" mask) */
    size_t rows;            /* rows of the file in this side */
};

struct compare_fig {
    double mb_per_s;        /* best verified figure; 0 = none */
    double ratio;           /* mb_per_s over the first side's; 0 = either has none */
    const char *status;     /* "ok"; or the status of a row without figure; "" = not measured */
    int noisy;              /* the figure never settled (its row's quality; in a file without
                             * that column, a spread over 5 %): shown, never claimed from */
    const char *same_code_as; /* a hardware figure that ran this row's code ("asm/openssl-simd") */
};

struct compare_row {
    const char *algorithm, *direction, *path;
    const char *implementation; /* "" unless by implementation */
    size_t bytes;
    int threads;                /* workers: a -t 1,2 run has a row per count */
    struct compare_fig *fig;    /* one per side */
};

struct compare_table {
    int by_impl;
    size_t nsides, nrows;
    struct compare_side *sides;
    struct compare_row *rows;
    struct compare_fig *figs;
};

/* Builds the table from sets (files as read, or csvread_from_cells), in that order: the first
 * set's first side is the reference of the ratios. The sets must outlive the table. by_impl:
 * one row per implementation instead of per path. 0, or -1 and why (no side has a row). */
int compare_build(const struct csvread_set *sets, size_t nsets, int by_impl,
                  struct compare_table *t, char *why, size_t n);
void compare_free(struct compare_table *t);
/* Keeps only the rows side measured (or tried to): a live run beside a fuller saved one. */
void compare_only(struct compare_table *t, size_t side);

enum compare_format { COMPARE_TEXT, COMPARE_CSV, COMPARE_MARKDOWN, COMPARE_JSON };

/* 0 when an output can tell the table's sides apart: one that names them by letter
 * (lettered: text, Markdown, SVG) up to COMPARE_MAX_LETTERED, CSV and JSON (by file and
 * label) any number; else -1 and why. */
int compare_check_letters(const struct compare_table *t, int lettered, char *why, size_t n);

/* The table in a format; 0 or -1 on a write error. */
int compare_write(FILE *f, const struct compare_table *t, enum compare_format fmt);

/* The table as a self-contained SVG chart (compare_svg.c): per algorithm, one bar per path and
 * side at bytes (0: each algorithm's largest size), coloured by path, xN over side A. 0 or -1
 * on a write error. */
int compare_write_svg(FILE *f, const struct compare_table *t, size_t bytes);

/* "n/a", "WRONG", "CRASHED"...: a CSV status in a number's width; "-" when not measured. */
const char *compare_status_short(const char *status);

#endif
