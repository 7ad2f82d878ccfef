#include "compare.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "csv.h"
#include "export.h"
#include "text.h"
#include "impl.h"
#include "report.h"
#include "stats.h"

/* One row of a file, with its side and sort ranks. */
struct ent {
    const struct csvread_row *r;
    unsigned side;
    int alg, path, dir; /* ranks: algorithm table order, path order, encrypt before decrypt */
};

static int alg_rank(const char *id)
{
    const struct algo *a = algo_find(id);
    return a ? (int)(a - algo_table) : (int)algo_count;
}

static int path_rank(const char *id)
{
    int p = path_by_id(id);
    return p < 0 ? PATH_COUNT : p;
}

static int ent_cmp_key(const struct ent *a, const struct ent *b, int by_impl)
{
    int d;
    if ((d = a->alg - b->alg) || (d = strcmp(a->r->algorithm, b->r->algorithm)))
        return d;
    if ((d = a->dir - b->dir))
        return d;
    if (a->r->bytes != b->r->bytes)
        return a->r->bytes < b->r->bytes ? -1 : 1;
    if ((d = a->r->threads - b->r->threads))
        return d;
    if ((d = a->path - b->path) || (d = strcmp(a->r->path, b->r->path)))
        return d;
    return by_impl ? strcmp(a->r->implementation, b->r->implementation) : 0;
}

static int sort_by_impl;
static int ent_cmp(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    int d = ent_cmp_key(a, b, sort_by_impl);
    if (d)
        return d;
    return a < b ? -1 : a > b; /* stable enough: input order breaks ties */
}

/* Same machine, same run: strings of one set are interned, so pointers compare. */
static int same_run(const struct compare_side *s, const struct csvread_row *r)
{
    return s->host == r->host && s->cpu == r->cpu && s->kernel == r->kernel &&
           s->openssl == r->openssl && s->timestamp == r->timestamp;
}

static unsigned side_of(struct compare_table *t, size_t first, const struct csvread_set *set,
                        const struct csvread_row *r)
{
    for (size_t k = t->nsides; k-- > first;)
        if (same_run(&t->sides[k], r))
            return (unsigned)k;
    t->sides = realloc(t->sides, (t->nsides + 1) * sizeof *t->sides);
    if (!t->sides)
        abort();
    struct compare_side *s = &t->sides[t->nsides];
    memset(s, 0, sizeof *s);
    static const char letters[] = COMPARE_LETTERS;
    s->letter = t->nsides < sizeof letters - 1 ? letters[t->nsides] : '*';
    s->file = set->name;
    s->host = r->host;
    s->cpu = r->cpu;
    s->kernel = r->kernel;
    s->openssl = r->openssl;
    s->timestamp = r->timestamp;
    s->capabilities = "";
    return (unsigned)t->nsides++;
}

/* The vector OpenSSL runs with unmasked: rows of the asm path carry a masked one. */
static void side_caps(struct compare_side *s, const struct csvread_row *r)
{
    if (*r->capabilities && !strstr(r->capabilities, "env:") &&
        (!*s->capabilities || strstr(s->capabilities, "env:")))
        s->capabilities = r->capabilities;
    else if (!*s->capabilities)
        s->capabilities = r->capabilities;
}

static int differ(const char *a, const char *b)
{
    return strcmp(a, b) != 0;
}

/* Labels: the host, then what tells a side from the others sharing its host. */
static void label(struct compare_table *t)
{
    for (size_t i = 0; i < t->nsides; i++) {
        struct compare_side *s = &t->sides[i];
        int cpu = 0, kern = 0, ossl = 0, ts = 0, file = 0;
        for (size_t j = 0; j < t->nsides; j++) {
            const struct compare_side *o = &t->sides[j];
            if (j == i || differ(s->host, o->host))
                continue;
            if (differ(s->cpu, o->cpu)) {
                cpu = 1;
                continue;
            }
            kern |= differ(s->kernel, o->kernel);
            ossl |= differ(s->openssl, o->openssl);
            if (!differ(s->kernel, o->kernel) && !differ(s->openssl, o->openssl))
                ts |= 1, file |= !differ(s->timestamp, o->timestamp);
        }
        size_t k = (size_t)snprintf(s->label, sizeof s->label, "%s", *s->host ? s->host : "?");
#define ADD(cond, ...)                                                                        \
    if ((cond) && k < sizeof s->label)                                                        \
        k += (size_t)snprintf(s->label + k, sizeof s->label - k, __VA_ARGS__)
        ADD(cpu, " / %s", s->cpu);
        ADD(kern, " / kernel %s", s->kernel);
        ADD(ossl, " / %s", s->openssl);
        ADD(ts, " / %s", *s->timestamp ? s->timestamp : "no time");
        ADD(file, " / %s", s->file);
        /* what the CSV says is shown on terminals: no control character gets through */
        text_clean(s->label, sizeof s->label);
        /* The same file given twice: only its place tells them apart. */
        for (size_t j = 0; j < i; j++)
            if (!strcmp(t->sides[j].label, s->label)) {
                if (i < COMPARE_MAX_LETTERED) {
                    ADD(1, " (%c)", s->letter);
                } else {
                    ADD(1, " (side %zu)", i + 1);
                }
                break;
            }
#undef ADD
    }
}

/* Sides, and the rows in key order. */
static struct ent *collect(struct compare_table *t, const struct csvread_set *sets,
                           size_t nsets, size_t *nent)
{
    size_t total = 0;
    for (size_t i = 0; i < nsets; i++)
        total += sets[i].n;
    struct ent *e = malloc((total ? total : 1) * sizeof *e);
    if (!e)
        abort();
    size_t n = 0;
    for (size_t i = 0; i < nsets; i++) {
        size_t first = t->nsides;
        for (size_t j = 0; j < sets[i].n; j++) {
            const struct csvread_row *r = &sets[i].rows[j];
            unsigned s = side_of(t, first, &sets[i], r);
            t->sides[s].rows++;
            side_caps(&t->sides[s], r);
            e[n++] = (struct ent){ r, s, alg_rank(r->algorithm), path_rank(r->path),
                                   !strcmp(r->direction, "decrypt") };
        }
    }
    sort_by_impl = t->by_impl;
    qsort(e, n, sizeof *e, ent_cmp);
    *nent = n;
    return e;
}

static void take(struct compare_fig *f, const struct csvread_row *r)
{
    /* An ENGINE row whose work stayed in libcrypto's software is no figure of its path. */
    if (r->ok && *r->fallback && !sort_by_impl) {
        f->status = *f->status ? f->status : "fallback";
        return;
    }
    if (r->ok) {
        if (r->mb_per_s > f->mb_per_s || strcmp(f->status, "ok")) {
            if (r->mb_per_s > f->mb_per_s) {
                f->mb_per_s = r->mb_per_s;
                f->noisy = !strcmp(r->quality, "noisy") ||
                           (!*r->quality && r->spread_pct > STATS_NOISY_CI_PCT);
                f->same_code_as = r->same_code_as;
            }
            f->status = "ok";
        }
    } else if (!*f->status) {
        f->status = *r->status ? r->status : "no figure";
    }
}

int compare_build(const struct csvread_set *sets, size_t nsets, int by_impl,
                  struct compare_table *t, char *why, size_t n)
{
    memset(t, 0, sizeof *t);
    t->by_impl = by_impl;
    size_t ne;
    struct ent *e = collect(t, sets, nsets, &ne);
    if (!ne) {
        free(e);
        snprintf(why, n, "no measurement to compare: the files have a header and no rows");
        return -1;
    }
    size_t groups = 0;
    for (size_t i = 0; i < ne; i++)
        groups += !i || ent_cmp_key(&e[i - 1], &e[i], by_impl);
    t->rows = calloc(groups, sizeof *t->rows);
    t->figs = calloc(groups * t->nsides, sizeof *t->figs);
    if (!t->rows || !t->figs)
        abort();
    struct compare_row *row = NULL;
    for (size_t i = 0; i < ne; i++) {
        const struct csvread_row *r = e[i].r;
        if (!i || ent_cmp_key(&e[i - 1], &e[i], by_impl)) {
            row = &t->rows[t->nrows];
            *row = (struct compare_row){ r->algorithm, r->direction, r->path,
                                         by_impl ? r->implementation : "", r->bytes,
                                         r->threads, &t->figs[t->nrows * t->nsides] };
            for (size_t k = 0; k < t->nsides; k++)
                row->fig[k].status = "", row->fig[k].same_code_as = "";
            t->nrows++;
        }
        take(&row->fig[e[i].side], r);
    }
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t k = 0; k < t->nsides; k++)
            if (t->rows[i].fig[0].mb_per_s > 0)
                t->rows[i].fig[k].ratio = t->rows[i].fig[k].mb_per_s / t->rows[i].fig[0].mb_per_s;
    free(e);
    label(t);
    return 0;
}

void compare_only(struct compare_table *t, size_t side)
{
    size_t k = 0;
    for (size_t i = 0; side < t->nsides && i < t->nrows; i++)
        if (*t->rows[i].fig[side].status)
            t->rows[k++] = t->rows[i];
    t->nrows = k;
}

void compare_free(struct compare_table *t)
{
    free(t->sides);
    free(t->rows);
    free(t->figs);
    memset(t, 0, sizeof *t);
}

const char *compare_status_short(const char *s)
{
    static const struct { const char *prefix, *shown; } map[] = {
        { "ok", "ok" }, { "unavailable", "n/a" }, { "wrong", "WRONG" }, { "crashed", "CRASHED" },
        { "timed out", "TIMEOUT" }, { "error", "ERROR" }, { "cancelled", "cancelled" },
        { "pending", "-" },
    };
    if (!*s)
        return "-";
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strncmp(s, map[i].prefix, strlen(map[i].prefix)))
            return map[i].shown;
    return "?";
}

/* ---- Writers ---- */

static const char *path_shown(const char *id)
{
    int p = path_by_id(id);
    return p < 0 ? id : path_label[p];
}

/* b of path_cell: room for the shown path and its thread count */
#define PATH_CELL 96

/* "hardware", or "hardware 2t" for a row of 2 workers. */
static const char *path_cell(const struct compare_row *r, char *b, size_t n)
{
    char safe[64];
    const char *p = text_shown(path_shown(r->path), safe, sizeof safe);
    if (r->threads > 1)
        snprintf(b, n, "%s %dt", p, r->threads);
    else
        snprintf(b, n, "%s", p);
    return b;
}

static int block_start(const struct compare_table *t, size_t i)
{
    return !i || strcmp(t->rows[i].algorithm, t->rows[i - 1].algorithm) ||
           strcmp(t->rows[i].direction, t->rows[i - 1].direction);
}

/* x12.3, x1.42, x0.043: three significant digits where it matters. */
static const char *ratio_text(double r, const char *x, char *buf, size_t n)
{
    if (r <= 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, r >= 10 ? "%s%.1f" : r >= 0.1 ? "%s%.2f" : "%s%.3f", x, r);
    return buf;
}

/* A public-key row's figures are operations per second (algo.h: algo_rate). */
static const struct algo *row_algo(const struct compare_row *r)
{
    return algo_find(r->algorithm);
}

static int row_pk(const struct compare_row *r)
{
    return row_algo(r) && !algo_sized(row_algo(r));
}

static void fig_text(FILE *f, const struct compare_row *r, const struct compare_fig *g, int w)
{
    if (g->mb_per_s > 0)
        fprintf(f, " %*.1f", w, algo_rate(row_algo(r), g->mb_per_s));
    else
        fprintf(f, " %*s", w, compare_status_short(g->status));
}

/* Said once, where public-key rows are present: their unit. */
static void pk_legend(FILE *f, const struct compare_table *t)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (row_pk(&t->rows[i])) {
            fputs("Public-key operations: operations per second (ops/s), at their key size.\n", f);
            return;
        }
}

static void write_sides_text(FILE *f, const struct compare_table *t)
{
    for (size_t k = 0; k < t->nsides; k++) {
        const struct compare_side *s = &t->sides[k];
        char b[5][256];
        fprintf(f, "%c  %s\n   cpu %s; kernel %s; %s; run %s; %s (%zu rows)\n", s->letter,
                s->label, *s->cpu ? text_shown(s->cpu, b[0], sizeof b[0]) : "?",
                *s->kernel ? text_shown(s->kernel, b[1], sizeof b[1]) : "?",
                *s->openssl ? text_shown(s->openssl, b[2], sizeof b[2]) : "OpenSSL ?",
                *s->timestamp ? text_shown(s->timestamp, b[3], sizeof b[3]) : "?",
                text_shown(s->file, b[4], sizeof b[4]), s->rows);
    }
    fprintf(f, "\nBest verified MB/s (10^6 bytes/s) of each %s; %c/A: the figure over A's.\n",
            t->by_impl ? "implementation" : "path", t->nsides > 1 ? 'B' : 'A');
    pk_legend(f, t);
}

static void write_text(FILE *f, const struct compare_table *t)
{
    char b[32];
    write_sides_text(f, t);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct compare_row *r = &t->rows[i];
        char sa[64], sd[32], si[64];
        if (block_start(t, i)) {
            fprintf(f, "\n%-16s %-7s %-9s %-8s", text_shown(r->algorithm, sa, sizeof sa),
                    text_shown(r->direction, sd, sizeof sd), "size", "path");
            if (t->by_impl)
                fprintf(f, " %-24s", "implementation");
            for (size_t k = 0; k < t->nsides; k++)
                fprintf(f, " %*c %s", row_pk(r) ? 4 : 5, t->sides[k].letter,
                        algo_unit(row_algo(r)));
            for (size_t k = 1; k < t->nsides; k++)
                fprintf(f, "  %c/A   ", t->sides[k].letter);
            fputc('\n', f);
        }
        char pb[PATH_CELL];
        fprintf(f, "  %-22s %-9s %-8s", "", report_cell_size(row_algo(r), r->bytes, b, sizeof b),
                path_cell(r, pb, sizeof pb));
        if (t->by_impl)
            fprintf(f, " %-24s", text_shown(r->implementation, si, sizeof si));
        for (size_t k = 0; k < t->nsides; k++)
            fig_text(f, r, &r->fig[k], 10);
        for (size_t k = 1; k < t->nsides; k++)
            fprintf(f, "  %-7s", ratio_text(r->fig[k].ratio, "x", b, sizeof b));
        fputc('\n', f);
    }
}

static void csv_field(FILE *f, const char *s, int last)
{
    char q[1024];
    csv_quote(s, q, sizeof q);
    fputs(q, f);
    fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, const char *fmt, double v, int last)
{
    char b[64] = "";
    if (v > 0)
        snprintf(b, sizeof b, fmt, v);
    csv_field(f, b, last);
}

/* One row per comparison row and side: every side's identity on its own row, for a
 * spreadsheet's pivot or a script. */
static void write_csv(FILE *f, const struct compare_table *t)
{
    fputs("algorithm,direction,bytes,path,implementation,side,label,host,cpu,kernel,openssl,"
          "timestamp,file,mb_per_s,status,ratio,ops_per_s,threads\n", f);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct compare_row *r = &t->rows[i];
        for (size_t k = 0; k < t->nsides; k++) {
            const struct compare_side *s = &t->sides[k];
            char b[32], side[2] = { s->letter, 0 };
            snprintf(b, sizeof b, "%zu", r->bytes);
            const char *text[] = { r->algorithm, r->direction, b, r->path, r->implementation,
                                   side, s->label, s->host, s->cpu, s->kernel, s->openssl,
                                   s->timestamp, s->file };
            for (size_t j = 0; j < sizeof text / sizeof text[0]; j++)
                csv_field(f, text[j], 0);
            int pk = row_pk(r);
            csv_num(f, "%.3f", pk ? 0 : r->fig[k].mb_per_s, 0);
            csv_field(f, r->fig[k].status, 0);
            csv_num(f, "%.4f", r->fig[k].ratio, 0);
            csv_num(f, "%.1f", pk ? r->fig[k].mb_per_s * 1e6 : 0, 0);
            csv_num(f, "%.0f", r->threads > 0 ? r->threads : 1, 1);
        }
    }
}

static void write_markdown(FILE *f, const struct compare_table *t)
{
    char b[32];
    fputs("| Side | Machine | CPU | Kernel | OpenSSL | Run | File |\n"
          "|---|---|---|---|---|---|---|\n", f);
    for (size_t k = 0; k < t->nsides; k++) {
        const struct compare_side *s = &t->sides[k];
        fprintf(f, "| %c | ", s->letter);
        const char *cols[] = { s->host, s->cpu, s->kernel, s->openssl, s->timestamp, s->file };
        for (size_t j = 0; j < sizeof cols / sizeof cols[0]; j++) {
            export_md_text(f, cols[j]);
            fputs(" |", f);
            fputs(j + 1 < sizeof cols / sizeof cols[0] ? " " : "\n", f);
        }
    }
    fprintf(f, "\nBest verified MB/s (10^6 bytes/s) of each %s; ~: a noisy figure (no claim "
            "rests on it).\n", t->by_impl ? "implementation" : "path");
    pk_legend(f, t);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct compare_row *r = &t->rows[i];
        if (block_start(t, i)) {
            char sa[64], sd[32];
            fprintf(f, "\n### %s%s%s\n\n| Size | Path |%s", text_shown(r->algorithm, sa, sizeof sa),
                    *r->direction ? " " : "", text_shown(r->direction, sd, sizeof sd),
                    t->by_impl ? " Implementation |" : "");
            for (size_t k = 0; k < t->nsides; k++)
                fprintf(f, " %c %s |", t->sides[k].letter, algo_unit(row_algo(r)));
            for (size_t k = 1; k < t->nsides; k++)
                fprintf(f, " %c vs A |", t->sides[k].letter);
            fprintf(f, "\n|---:|---|%s", t->by_impl ? "---|" : "");
            for (size_t k = 1; k < 2 * t->nsides; k++)
                fputs("---:|", f);
            fputc('\n', f);
        }
        char pb[PATH_CELL];
        fprintf(f, "| %s | ", report_cell_size(row_algo(r), r->bytes, b, sizeof b));
        export_md_text(f, path_cell(r, pb, sizeof pb));
        fputs(" |", f);
        if (t->by_impl) {
            fputc(' ', f);
            export_md_text(f, r->implementation);
            fputs(" |", f);
        }
        for (size_t k = 0; k < t->nsides; k++) {
            fig_text(f, r, &r->fig[k], 0);
            fputs(r->fig[k].mb_per_s > 0 && r->fig[k].noisy ? "~ |" : " |", f);
        }
        for (size_t k = 1; k < t->nsides; k++)
            fprintf(f, " %s |", ratio_text(r->fig[k].ratio, "×", b, sizeof b));
        fputc('\n', f);
    }
}

static void json_num(FILE *f, const char *key, double v, const char *fmt)
{
    fprintf(f, "\"%s\": ", key);
    if (v > 0)
        fprintf(f, fmt, v);
    else
        fputs("null", f);
}

static void write_json(FILE *f, const struct compare_table *t)
{
    fprintf(f, "{\n  \"by\": \"%s\",\n  \"sides\": [", t->by_impl ? "implementation" : "path");
    for (size_t k = 0; k < t->nsides; k++) {
        const struct compare_side *s = &t->sides[k];
        fprintf(f, "%s\n    {\"side\": \"%c\", \"rows\": %zu", k ? "," : "", s->letter, s->rows);
        const char *keys[] = { "label", "host", "cpu", "kernel", "openssl", "capabilities",
                               "timestamp", "file" };
        const char *vals[] = { s->label, s->host, s->cpu, s->kernel, s->openssl,
                               s->capabilities, s->timestamp, s->file };
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++) {
            fprintf(f, ", \"%s\": ", keys[j]);
            export_json_string(f, vals[j]);
        }
        fputc('}', f);
    }
    fputs("\n  ],\n  \"rows\": [", f);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct compare_row *r = &t->rows[i];
        fprintf(f, "%s\n    {\"algorithm\": ", i ? "," : "");
        export_json_string(f, r->algorithm);
        fputs(", \"direction\": ", f);
        export_json_string(f, r->direction);
        fprintf(f, ", \"bytes\": %zu, \"threads\": %d, \"path\": ", r->bytes,
                r->threads > 0 ? r->threads : 1);
        export_json_string(f, r->path);
        if (t->by_impl) {
            fputs(", \"implementation\": ", f);
            export_json_string(f, r->implementation);
        }
        fputs(", \"figures\": [", f);
        for (size_t k = 0; k < t->nsides; k++) {
            fprintf(f, "%s{\"side\": \"%c\", ", k ? ", " : "", t->sides[k].letter);
            int pk = row_pk(r);
            json_num(f, pk ? "ops_per_s" : "mb_per_s",
                     pk ? r->fig[k].mb_per_s * 1e6 : r->fig[k].mb_per_s, pk ? "%.1f" : "%.3f");
            fputs(", \"status\": ", f);
            export_json_string(f, r->fig[k].status);
            fputs(", ", f);
            json_num(f, "ratio", r->fig[k].ratio, "%.4f");
            fprintf(f, ", \"noisy\": %s}", r->fig[k].mb_per_s > 0 && r->fig[k].noisy ? "true"
                                                                                : "false");
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n}\n", f);
}

int compare_write(FILE *f, const struct compare_table *t, enum compare_format fmt)
{
    switch (fmt) {
    case COMPARE_TEXT: write_text(f, t); break;
    case COMPARE_CSV: write_csv(f, t); break;
    case COMPARE_MARKDOWN: write_markdown(f, t); break;
    case COMPARE_JSON: write_json(f, t); break;
    }
    return ferror(f) ? -1 : 0;
}

int compare_check_letters(const struct compare_table *t, int lettered, char *why, size_t n)
{
    if (!lettered || t->nsides <= COMPARE_MAX_LETTERED)
        return 0;
    snprintf(why, n, "%zu sides: letters tell %zu apart (A-Z, a-z, 0-9); CSV and JSON name each "
             "by its file and label", t->nsides, (size_t)COMPARE_MAX_LETTERED);
    return -1;
}
