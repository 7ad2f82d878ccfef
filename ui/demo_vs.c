/* `accelscope demo --against FILE.csv`: the stage demo with a saved board beside this one.
 * Each path's lane gets the saved board's bar under this board's, on one scale, and a line
 * says "this board x3.1 faster at AES-256-GCM than <the saved CPU>": each board's best
 * verified figure at the demo's size, from compare.c's table of the saved file. The claim is
 * made only when both figures are quiet (else the line says they are noisy), and a hardware
 * row that ran SIMD code is called SIMD code, on either board (cell.h same_as; the CSV's
 * same_code_as). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "compare.h"
#include "ui.h"

static struct csvread_set saved;
static struct compare_table table;
static int active;
static char cpu[160];

int ui_demo_against(const char *path)
{
    char why[600];
    if (csvread_file(path, &saved, why, sizeof why)) {
        fprintf(stderr, "accelscope demo: --against: %s\n", why);
        return 2;
    }
    if (compare_build(&saved, 1, 0, &table, why, sizeof why)) {
        fprintf(stderr, "accelscope demo: --against %s: %s\n", path, why);
        csvread_free(&saved);
        return 2;
    }
    snprintf(cpu, sizeof cpu, "%s", *table.sides[0].cpu ? table.sides[0].cpu
                                    : *table.sides[0].host ? table.sides[0].host : path);
    active = 1;
    int rc = ui_main(1);
    compare_free(&table);
    csvread_free(&saved);
    active = 0;
    return rc;
}

int demo_vs_active(void)
{
    return active;
}

size_t demo_vs_algs(const char **out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; active && i < table.nrows && k < max; i++) {
        const char *id = table.rows[i].algorithm;
        if (algo_find(id) && (!k || strcmp(out[k - 1], id))) /* rows come grouped by algorithm */
            out[k++] = algo_find(id)->id;
    }
    return k;
}

/* The saved board's best figure of alg on path at bytes (encrypt for ciphers); NULL if none.
 * The demo's size first, else the nearest size the file has (said where it is shown). */
static const struct compare_fig *saved_fig(const char *alg, const char *path, size_t bytes,
                                           size_t *at)
{
    const struct compare_fig *best = NULL;
    size_t dist = (size_t)-1;
    for (size_t i = 0; i < table.nrows; i++) {
        const struct compare_row *r = &table.rows[i];
        if (strcmp(r->algorithm, alg) || !strcmp(r->direction, "decrypt") ||
            (*path && strcmp(r->path, path)) || !(r->fig[0].mb_per_s > 0))
            continue;
        size_t d = r->bytes > bytes ? r->bytes - bytes : bytes - r->bytes;
        if (d < dist || (d == dist && best && r->fig[0].mb_per_s > best->mb_per_s)) {
            best = &r->fig[0];
            dist = d;
            *at = r->bytes;
        }
    }
    return best;
}

double demo_vs_hi(const char *alg, size_t bytes)
{
    size_t at;
    const struct compare_fig *f = active ? saved_fig(alg, "", bytes, &at) : NULL;
    return f ? f->mb_per_s : 0;
}

void demo_vs_lane(int y, int x, int bw, int vw, double hi, const char *alg, enum path p,
                  size_t bytes, int bg)
{
    size_t at = 0;
    const struct compare_fig *f = saved_fig(alg, path_id[p], bytes, &at);
    char rate[32], sz[40] = "", b[32];
    if (!f) {
        ui_textf(y, x, bw + vw, bg | A_DIM, "%.40s: no figure there", cpu);
        return;
    }
    ui_bar(y, x, bw, hi > 0 ? f->mb_per_s / hi : 0, ui_attr(ui_path_role(p)) | A_DIM);
    if (at != bytes)
        snprintf(sz, sizeof sz, " at %s", ui_size(at, b, sizeof b));
    ui_textf(y, x + bw + 2, vw, bg, "%s%s%s %.24s%s", ui_rate(f->mb_per_s, rate, sizeof rate),
             f->noisy ? "~" : "", *f->same_code_as ? " SIMD code" : "", cpu, sz);
}

/* What a path's figure is called on stage: never "hardware" for SIMD code. */
static const char *called(const char *path, int simd)
{
    int p = path_by_id(path);
    return simd ? "SIMD code" : p >= 0 ? path_label[p] : path;
}

/* This board's best verified figure among cells. */
static const struct cell *best_here(const struct cell *cells, size_t n)
{
    const struct cell *b = NULL;
    for (size_t i = 0; i < n; i++)
        if (cells[i].r.status == RES_OK && (!b || cells[i].r.mb_per_s > b->r.mb_per_s))
            b = &cells[i];
    return b;
}

void demo_vs_headline(int y, int w, const char *alg, size_t bytes, const struct cell *cells,
                      size_t n, int running, int bg)
{
    size_t at = 0;
    const struct compare_fig *f = saved_fig(alg, "", bytes, &at);
    const struct cell *h = best_here(cells, n);
    char up[64], a[32], b[32];
    size_t k = 0;
    for (; alg[k] && k + 1 < sizeof up; k++)
        up[k] = (char)(alg[k] >= 'a' && alg[k] <= 'z' ? alg[k] - 32 : alg[k]);
    up[k] = 0;
    if (!f) {
        ui_textf(y, 2, w - 4, bg, "%s: not measured on %s", up, cpu);
        return;
    }
    if (!h || running) {
        ui_textf(y, 2, w - 4, bg, "vs %s: %s there%s", cpu, ui_rate(f->mb_per_s, a, sizeof a),
                 ui_glyph(G_ELLIPSIS));
        return;
    }
    const char *mine = called(path_id[h->impl->path], h->d.same_as != NULL);
    const char *theirs = called(table.rows[0].path, 0);
    for (size_t i = 0; i < table.nrows; i++) /* the path the saved figure came from */
        if (&table.rows[i].fig[0] == f)
            theirs = called(table.rows[i].path, *f->same_code_as != 0);
    double r = h->r.mb_per_s / f->mb_per_s;
    if (h->r.quality == RESULT_NOISY || f->noisy) {
        ui_textf(y, 2, w - 4, ui_attr(ROLE_DEMO_BIG), "noisy figures, no claim: this board %s "
                 "(%s) vs %s (%s) on %s", ui_rate(h->r.mb_per_s, a, sizeof a), mine,
                 ui_rate(f->mb_per_s, b, sizeof b), theirs, cpu);
        return;
    }
    ui_textf(y, 2, w - 4, ui_attr(ROLE_DEMO_BIG), r >= 1 ? "this board %s%.1f faster at %s than "
             "%s (%s %s vs %s %s)" : "this board %s%.2f (slower) at %s than %s (%s %s vs %s %s)",
             ui_glyph(G_TIMES), r, up, cpu, mine, ui_rate(h->r.mb_per_s, a, sizeof a), theirs,
             ui_rate(f->mb_per_s, b, sizeof b));
}
