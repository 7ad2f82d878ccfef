/* The comparison as a chart for a slide: per algorithm, one bar per path and side on one
 * scale, coloured by path, with the figure and its ratio to side A; the sides named in the
 * title block as their CSVs name them. Self-contained SVG (export.c's colours and escaping). */
#include <string.h>

#include "algo.h"
#include "compare.h"
#include "export.h"
#include "impl.h"
#include "report.h"

enum { W = 980, LABEL_X = 300, BAR_X = 310, BAR_W = 460, ROW_H = 24, HEAD_H = 34, GAP = 16 };

static int shown(const struct compare_table *t, size_t i, size_t bytes)
{
    return bytes ? t->rows[i].bytes == bytes : 1;
}

/* The size a block shows: bytes (a public-key operation's key size, whatever bytes), or the
 * algorithm's largest when bytes is 0. */
static size_t block_bytes(const struct compare_table *t, size_t i, size_t bytes)
{
    const struct algo *a = algo_find(t->rows[i].algorithm);
    if (bytes)
        return a ? algo_cell_size(a, bytes) : bytes;
    size_t big = 0;
    for (size_t j = i; j < t->nrows && !strcmp(t->rows[j].algorithm, t->rows[i].algorithm) &&
                       !strcmp(t->rows[j].direction, t->rows[i].direction); j++)
        if (t->rows[j].bytes > big)
            big = t->rows[j].bytes;
    return big;
}

static int new_block(const struct compare_table *t, size_t i)
{
    return !i || strcmp(t->rows[i].algorithm, t->rows[i - 1].algorithm) ||
           strcmp(t->rows[i].direction, t->rows[i - 1].direction);
}

/* Whether the block starting at row i has a row of that size. */
static int has_rows(const struct compare_table *t, size_t i, size_t bytes)
{
    for (size_t j = i; j < t->nrows && (j == i || !new_block(t, j)); j++)
        if (t->rows[j].bytes == bytes)
            return 1;
    return 0;
}

static void bar(FILE *f, const struct compare_table *t, size_t i, size_t k, double top, int y)
{
    const struct compare_row *r = &t->rows[i];
    const struct compare_fig *g = &r->fig[k];
    int p = path_by_id(r->path);
    const struct algo *a = algo_find(r->algorithm);
    char th[16] = "";
    if (r->threads > 1)
        snprintf(th, sizeof th, " %dt", r->threads);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\"><tspan class=\"p\">%s%s</tspan> %c ",
            LABEL_X, y + 14, p >= 0 ? path_label[p] : r->path, th, t->sides[k].letter);
    export_svg_text(f, t->sides[k].label, 26);
    fputs("</text>\n", f);
    if (!(g->mb_per_s > 0)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\">%s</text>\n", BAR_X + 4, y + 14,
                compare_status_short(g->status));
        return;
    }
    double w = top > 0 ? g->mb_per_s / top * BAR_W : 0;
    if (w < 1)
        w = 1;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"17\" fill=\"%s\"%s/>\n", BAR_X,
            y + 1, w, p >= 0 ? export_path_colour[p] : "#888888",
            k ? " fill-opacity=\"0.6\"" : "");
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"v\">%.1f %s%s", BAR_X + w + 6, y + 14,
            algo_rate(a, g->mb_per_s), algo_unit(a), g->noisy ? "~" : "");
    if (k && g->ratio > 0)
        fprintf(f, g->ratio >= 10 ? "  ×%.1f%s" : g->ratio >= 0.1 ? "  ×%.2f%s" : "  ×%.3f%s",
                g->ratio, g->noisy || r->fig[0].noisy ? "~" : "");
    if (*g->same_code_as)
        fprintf(f, "  (same code as %s)", g->same_code_as);
    fputs("</text>\n", f);
}

/* One algorithm from row i at its size; returns the height drawn. */
static int block(FILE *f, const struct compare_table *t, size_t i, size_t bytes, int y)
{
    char sz[32];
    double top = 0;
    size_t end = i + 1;
    while (end < t->nrows && !new_block(t, end))
        end++;
    for (size_t j = i; j < end; j++)
        for (size_t k = 0; k < t->nsides && shown(t, j, bytes); k++)
            if (t->rows[j].fig[k].mb_per_s > top)
                top = t->rows[j].fig[k].mb_per_s;
    fprintf(f, "<text x=\"20\" y=\"%d\" class=\"h\">", y + 20);
    export_svg_text(f, t->rows[i].algorithm, 40);
    fprintf(f, "%s%s, %s</text>\n", *t->rows[i].direction ? " " : "", t->rows[i].direction,
            report_cell_size(algo_find(t->rows[i].algorithm), bytes, sz, sizeof sz));
    int h = HEAD_H;
    for (size_t j = i; j < end; j++)
        for (size_t k = 0; k < t->nsides && shown(t, j, bytes); k++)
            if (*t->rows[j].fig[k].status) {
                bar(f, t, j, k, top, y + h);
                h += ROW_H;
            }
    return h + GAP;
}

static int height(const struct compare_table *t, size_t bytes)
{
    int h = 110 + 22 * (int)t->nsides;
    for (size_t i = 0; i < t->nrows; i++) {
        if (new_block(t, i) && has_rows(t, i, block_bytes(t, i, bytes)))
            h += HEAD_H + GAP;
        for (size_t k = 0; k < t->nsides && t->rows[i].bytes == block_bytes(t, i, bytes); k++)
            h += *t->rows[i].fig[k].status ? ROW_H : 0;
    }
    return h;
}

static void head(FILE *f, const struct compare_table *t, int h)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/"
            "svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<style>text{font-family:"
            "'DejaVu Sans',Verdana,Arial,sans-serif;font-size:14px;fill:#222}.t{font-size:22px;"
            "font-weight:bold}.h{font-size:17px;font-weight:bold}.l{text-anchor:end}.p{fill:#777;"
            "font-size:12px}.s{fill:#888;font-style:italic}.v{font-size:13px}</style>\n<rect "
            "width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n<text x=\"20\" y=\"36\" "
            "class=\"t\">accelscope: ", W, h, W, h);
    for (size_t k = 0; k < t->nsides && k < 3; k++) { /* "EPYC vs Westmere" */
        fputs(k ? " vs " : "", f);
        export_svg_text(f, *t->sides[k].cpu ? t->sides[k].cpu : t->sides[k].label, 26);
    }
    fputs(t->nsides > 3 ? " vs …</text>\n" : "</text>\n", f);
    int y = 60;
    for (size_t k = 0; k < t->nsides; k++, y += 22) {
        const struct compare_side *s = &t->sides[k];
        fprintf(f, "<text x=\"20\" y=\"%d\"><tspan font-weight=\"bold\">%c</tspan> ", y, s->letter);
        const char *parts[] = { s->host, s->cpu, s->kernel, s->openssl, s->timestamp };
        for (size_t j = 0; j < sizeof parts / sizeof parts[0]; j++) {
            fputs(j ? " · " : "", f);
            export_svg_text(f, *parts[j] ? parts[j] : "?", 70);
        }
        fputs("</text>\n", f);
    }
    for (int p = 0; p < PATH_COUNT; p++)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"%s\"/><text x=\"%d\" "
                "y=\"%d\">%s</text>\n", 20 + 130 * p, y - 6, export_path_colour[p], 42 + 130 * p,
                y + 7, path_label[p]);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"p\">MB/s = 10^6 bytes/s · ×N over side A · ~ "
            "noisy: no claim</text>\n", 20 + 130 * PATH_COUNT, y + 7);
}

int compare_write_svg(FILE *f, const struct compare_table *t, size_t bytes)
{
    int h = height(t, bytes);
    head(f, t, h);
    int y = 110 + 22 * (int)t->nsides - 20;
    for (size_t i = 0; i < t->nrows; i++)
        if (new_block(t, i) && has_rows(t, i, block_bytes(t, i, bytes)))
            y += block(f, t, i, block_bytes(t, i, bytes), y);
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}
