/* The comparison table (compare.h) on two real results from two CPUs (tests/data: this
 * EPYC Milan and a Westmere under qemu-x86_64): sides, labels, the best verified figure of
 * each path recomputed here from the rows, ratios to the first file, runs of one machine
 * told apart by what changed, --impl rows, and the writers' shapes. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../src/csvread.h"
#include "check.h"
#include "compare.h"
#include "fakecells.h"

static struct csvread_set sets[3];

/* The best verified figure of path (or implementation) in a set, by brute force. */
static double best(const struct csvread_set *s, const char *alg, size_t bytes, const char *path,
                   const char *impl, int *failed)
{
    double b = 0;
    *failed = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct csvread_row *r = &s->rows[i];
        if (strcmp(r->algorithm, alg) || r->bytes != bytes || strcmp(r->path, path) ||
            (impl && strcmp(r->implementation, impl)))
            continue;
        if (r->ok && r->mb_per_s > b)
            b = r->mb_per_s;
        *failed |= !r->ok;
    }
    return b;
}

static void check_figures(const struct compare_table *t)
{
    size_t bad = 0, ratios = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const struct compare_row *r = &t->rows[i];
        for (size_t k = 0; k < 2; k++) {
            int failed;
            double want = best(&sets[k], r->algorithm, r->bytes, r->path,
                               t->by_impl ? r->implementation : NULL, &failed);
            const struct compare_fig *g = &r->fig[k];
            if (g->mb_per_s != want || (want > 0 && strcmp(g->status, "ok")) ||
                (!want && failed && !strcmp(g->status, "ok")))
                bad++, printf("  row %zu side %zu: %g want %g (%s)\n", i, k, g->mb_per_s, want,
                              g->status);
        }
        double want = r->fig[0].mb_per_s > 0 ? r->fig[1].mb_per_s / r->fig[0].mb_per_s : 0;
        /* Relative, not exact: x87 (i686) keeps the quotient in 80 bits until it is stored. */
        if (fabs(r->fig[1].ratio - want) > 1e-12 * want ||
            r->fig[0].ratio != (r->fig[0].mb_per_s > 0 ? 1 : 0))
            bad++;
        ratios += r->fig[1].ratio > 0;
    }
    CHECK(bad == 0, "%s: every figure is the best verified one of its side, every ratio B/A "
          "(%zu wrong)", t->by_impl ? "by implementation" : "by path", bad);
    CHECK(ratios >= t->nrows / 3, "ratios where both sides measured: %zu of %zu", ratios,
          t->nrows);
}

static void test_two_machines(void)
{
    struct compare_table t;
    char why[256];
    CHECK(compare_build(sets, 2, 0, &t, why, sizeof why) == 0, "build: %s", why);
    CHECK(t.nsides == 2, "two sides: %zu", t.nsides);
    /* 4 algorithms x 2 sizes x 4 paths; aes-128-cbc and aes-256-gcm encrypt only. */
    CHECK(t.nrows == 32, "32 rows (algorithm, size, path): %zu", t.nrows);
    if (t.nsides == 2) {
        CHECK(strstr(t.sides[0].label, "EPYC") && strstr(t.sides[1].label, "Westmere"),
              "same host: labels name the CPUs: '%s' '%s'", t.sides[0].label, t.sides[1].label);
        CHECK(t.sides[0].letter == 'A' && t.sides[1].letter == 'B' && t.sides[0].rows == 60,
              "letters and row counts");
        CHECK(strstr(t.sides[1].capabilities, "OPENSSL_ia32cap=0x82982203478bfffd") &&
              !strstr(t.sides[1].capabilities, "env:"), "unmasked capability vector: %s",
              t.sides[1].capabilities);
        check_figures(&t);
    }
    CHECK(t.nrows && !strcmp(t.rows[0].algorithm, "aes-128-cbc") && t.rows[0].bytes == 16 &&
          !strcmp(t.rows[0].path, "c") && !strcmp(t.rows[3].path, "kernel") &&
          !strcmp(t.rows[4].path, "c") && t.rows[4].bytes == 16384,
          "order: algorithm table, size, then c asm hw kernel");
    CHECK(t.nrows > 3 && !strcmp(t.rows[3].fig[0].status, "unavailable") &&
          !strcmp(compare_status_short(t.rows[3].fig[0].status), "n/a"),
          "a path without a figure keeps its status");
    compare_free(&t);

    CHECK(compare_build(sets, 2, 1, &t, why, sizeof why) == 0, "build --impl: %s", why);
    CHECK(t.nrows == 60, "by implementation: one row per row of a file (60): %zu", t.nrows);
    check_figures(&t);
    compare_free(&t);
}

/* The same machine after an upgrade: a kernel changed, or only the time. */
static char *written(const struct compare_table *t, enum compare_format fmt);

static void test_runs_of_one_machine(void)
{
    struct csvread_set again = sets[0], later = sets[0];
    struct csvread_row *r1 = malloc(sets[0].n * sizeof *r1), *r2 = malloc(sets[0].n * sizeof *r2);
    memcpy(r1, sets[0].rows, sets[0].n * sizeof *r1);
    memcpy(r2, sets[0].rows, sets[0].n * sizeof *r2);
    for (size_t i = 0; i < sets[0].n; i++) {
        r1[i].kernel = "6.19.0-upgraded"; /* one string for all: still one run */
        r1[i].timestamp = "2026-12-01T09:00:00Z";
        r2[i].timestamp = "2026-12-02T09:00:00Z";
        r2[i].mb_per_s *= 2;
    }
    again.rows = r1;
    again.name = "after-kernel.csv";
    later.rows = r2;
    later.name = "later.csv";
    struct csvread_set three[3] = { sets[0], again, later };
    struct compare_table t;
    char why[256];
    CHECK(compare_build(three, 3, 0, &t, why, sizeof why) == 0, "build: %s", why);
    CHECK(t.nsides == 3, "three runs of one machine, three sides: %zu", t.nsides);
    if (t.nsides == 3) {
        CHECK(strstr(t.sides[1].label, "kernel 6.19.0-upgraded") &&
              strstr(t.sides[0].label, "kernel 6.18"), "a kernel upgrade labels by kernel: "
              "'%s' / '%s'", t.sides[0].label, t.sides[1].label);
        CHECK(strstr(t.sides[2].label, "2026-12-02T09:00:00Z") &&
              strcmp(t.sides[0].label, t.sides[2].label), "same software: labels by time: '%s'",
              t.sides[2].label);
        int twice = 1;
        for (size_t i = 0; i < t.nrows; i++)
            if (t.rows[i].fig[0].mb_per_s > 0 && (t.rows[i].fig[2].ratio < 1.999 ||
                                                  t.rows[i].fig[2].ratio > 2.001))
                twice = 0;
        CHECK(twice, "a run twice as fast: x2 everywhere against the first file");
    }
    compare_free(&t);

    /* A -t 1,2 run: the 2-worker rows are rows of their own, never the path's best. */
    struct csvread_set both = sets[0];
    struct csvread_row *rt = malloc(2 * sets[0].n * sizeof *rt);
    memcpy(rt, sets[0].rows, sets[0].n * sizeof *rt);
    memcpy(rt + sets[0].n, sets[0].rows, sets[0].n * sizeof *rt);
    for (size_t i = 0; i < sets[0].n; i++) {
        rt[i].threads = 1;
        rt[sets[0].n + i].threads = 2;
        rt[sets[0].n + i].mb_per_s *= 1.9;
    }
    both.rows = rt;
    both.n = 2 * sets[0].n;
    struct compare_table one;
    CHECK(compare_build(&sets[0], 1, 0, &one, why, sizeof why) == 0 &&
              compare_build(&both, 1, 0, &t, why, sizeof why) == 0,
          "build one and two thread counts: %s", why);
    int ones = 0, twos = 0;
    for (size_t i = 0; i < t.nrows; i++) {
        ones += t.rows[i].threads == 1;
        twos += t.rows[i].threads == 2;
    }
    CHECK(ones == (int)one.nrows && twos == (int)one.nrows,
          "a row per thread count: %d and %d rows, %zu with one count", ones, twos, one.nrows);
    char *md = written(&t, COMPARE_MARKDOWN);
    CHECK(md && strstr(md, " 2t |"), "Markdown names the 2-worker rows");
    free(md);
    compare_free(&one);
    compare_free(&t);
    free(rt);

    struct csvread_set same[2] = { sets[0], sets[0] };
    CHECK(compare_build(same, 2, 0, &t, why, sizeof why) == 0 && t.nsides == 2 &&
          strcmp(t.sides[0].label, t.sides[1].label), "one file given twice: two sides");
    compare_free(&t);
    free(r1);
    free(r2);
}

static char *written(const struct compare_table *t, enum compare_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(compare_write(f, t, fmt) == 0, "write format %d", fmt);
    fclose(f);
    return buf;
}

static void test_writers(void)
{
    struct compare_table t;
    char why[256];
    if (compare_build(sets, 2, 0, &t, why, sizeof why))
        return;
    char *md = written(&t, COMPARE_MARKDOWN), *csv = written(&t, COMPARE_CSV),
         *txt = written(&t, COMPARE_TEXT), *json = written(&t, COMPARE_JSON);
    CHECK(lines_starting(md, "| Size | Path | A MB/s | B MB/s | B vs A |") == 4,
          "Markdown: a table header per algorithm");
    CHECK(lines_starting(md, "| 16 B |") + lines_starting(md, "| 16 KiB |") == 32,
          "Markdown: 32 rows");
    CHECK(lines_starting(md, "| A | vm | AMD EPYC") == 1 && lines_starting(md, "| B | vm | Westmere") == 1,
          "Markdown: the sides table");
    CHECK(strstr(md, "| 16 B | kernel | n/a | n/a | - |") != NULL, "Markdown: no figure, status");
    CHECK(lines_starting(csv, "aes-") + lines_starting(csv, "sha256,") + lines_starting(csv, "md5,") == 64,
          "CSV: a row per row and side (64)");
    CHECK(!strncmp(csv, "algorithm,direction,bytes,path,implementation,side,label,", 57),
          "CSV header");
    CHECK(strstr(txt, "B/A") && strstr(txt, "Westmere") && lines_starting(txt, "aes-128-cbc") == 1,
          "text: sides and blocks");
    CHECK(json && json[0] == '{' && strstr(json, "\"sides\": [") && strstr(json, "\"ratio\": "),
          "JSON shape (parsed by python3 in t_cli)");
    free(md);
    free(csv);
    free(txt);
    free(json);
    compare_free(&t);

    struct csvread_set empty[1] = { { .name = "empty.csv" } };
    CHECK(compare_build(empty, 1, 0, &t, why, sizeof why) == -1 && strstr(why, "no rows"),
          "no rows: refused: %s", why);
}

/* Bytes a terminal may act on: C0 but the line feed, DEL, and C1 written as UTF-8. */
static size_t controls(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p < 0x20 && *p != '\n') || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
    return n;
}

static size_t lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* CSVs travel between machines: a field that holds an escape sequence, a line break or a C1
 * control reaches the terminal (text) and Markdown as '?', other UTF-8 as it is; the same
 * table's shape as with plain fields. */
static void test_hostile_strings(void)
{
    struct csvread_set bad = sets[0];
    struct csvread_row *r = malloc(sets[0].n * sizeof *r);
    memcpy(r, sets[0].rows, sets[0].n * sizeof *r);
    for (size_t i = 0; i < sets[0].n; i++) {
        r[i].host = "evil\x1b[31mRED\nline";
        r[i].cpu = "Ryzen\xe2\x84\xa2 \xc2\x9b" "2J \x9b\x7f";
        r[i].kernel = "6.18\r";
        char *im = NULL; /* one name per implementation still, so as many rows */
        if (*r[i].implementation && asprintf(&im, "\x1b]0;t\x07%s", r[i].implementation) > 0)
            r[i].implementation = im;
    }
    bad.rows = r;
    bad.name = "hostile\x1b[2J.csv";
    struct csvread_set two[2] = { bad, sets[1] }, plain[2] = { sets[0], sets[1] };
    struct compare_table t, p;
    char why[256];
    for (int by_impl = 0; by_impl < 2; by_impl++) {
        if (compare_build(two, 2, by_impl, &t, why, sizeof why) ||
            compare_build(plain, 2, by_impl, &p, why, sizeof why)) {
            CHECK(0, "build: %s", why);
            break;
        }
        for (int fmt = COMPARE_TEXT; fmt <= COMPARE_MARKDOWN; fmt += COMPARE_MARKDOWN) {
            char *w = written(&t, fmt), *q = written(&p, fmt);
            CHECK(w && controls(w) == 0, "%s%s: no control character reaches it (%zu)",
                  fmt == COMPARE_TEXT ? "text" : "Markdown", by_impl ? " --impl" : "",
                  controls(w));
            /* by implementation, A's renamed ones are rows of their own */
            CHECK(by_impl || (w && q && lines(w) == lines(q)), "%s: as many lines as with plain "
                  "fields (%zu, %zu)", fmt == COMPARE_TEXT ? "text" : "Markdown", lines(w),
                  lines(q));
            /* a Markdown cell reads a line break as a space */
            CHECK(w && strstr(w, fmt == COMPARE_TEXT ? "evil?[31mRED?line" : "evil?[31mRED line") &&
                  strstr(w, "Ryzen\xe2\x84\xa2 ?2J ??") && strstr(w, "hostile?[2J.csv"),
                  "the fields shown with '?' for each control, UTF-8 kept");
            free(w);
            free(q);
        }
        compare_free(&t);
        compare_free(&p);
    }
    for (size_t i = 0; i < sets[0].n; i++)
        if (r[i].implementation != sets[0].rows[i].implementation)
            free((char *)r[i].implementation);
    free(r);
}

int main(void)
{
    char why[512];
    const char *files[] = { "tests/data/epyc-milan.csv", "tests/data/westmere-qemu.csv" };
    for (int i = 0; i < 2; i++)
        if (csvread_file(files[i], &sets[i], why, sizeof why)) {
            CHECK(0, "%s", why);
            return check_done();
        }
    test_two_machines();
    test_runs_of_one_machine();
    test_writers();
    test_hostile_strings();
    csvread_free(&sets[0]);
    csvread_free(&sets[1]);
    return check_done();
}
