#include "report.h"

#include <string.h>

#include "algo.h"

const char *report_size(size_t b, char *buf, size_t n)
{
    if (b >= 1024 * 1024 && b % (1024 * 1024) == 0)
        snprintf(buf, n, "%zu MiB", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, n, "%zu KiB", b >> 10);
    else
        snprintf(buf, n, "%zu B", b);
    return buf;
}

/* The first of a row's n cells whose ENGINE work fell back to software, or NULL. */
static const struct result *fell_back(const struct cell *c, size_t n)
{
    for (size_t z = 0; z < n; z++)
        if (c[z].r.status == RES_OK && c[z].r.fallback)
            return &c[z].r;
    return NULL;
}

/* The cells [from, to) of one algorithm; sizes repeat per implementation in plan order. */
static void block(FILE *out, const struct cell *cells, size_t from, size_t to)
{
    const struct cell *c0 = &cells[from];
    size_t nsz = 0;
    while (from + nsz < to && cells[from + nsz].impl == c0->impl)
        nsz++;
    char b[32];
    const struct algo *a = algo_find(c0->impl->alg);
    int directed = a && algo_has_direction(a);
    fprintf(out, "%-16s %-7s%-22s", c0->impl->alg, directed && c0->decrypt ? "decrypt" : "", "");
    for (size_t z = 0; z < nsz; z++)
        fprintf(out, " %10s", report_size(cells[from + z].bytes, b, sizeof b));
    fprintf(out, "  vs slowest");
    if (c0->limit_mb_per_s > 0)
        fprintf(out, "  (silicon ceiling %.0f MB/s)", c0->limit_mb_per_s);
    fputc('\n', out);

    for (size_t row = from; row < to; row += nsz) {
        const struct impl *im = cells[row].impl;
        const struct result *soft = fell_back(&cells[row], nsz);
        /* An ENGINE row whose work stayed in libcrypto is a software figure, not its path's. */
        fprintf(out, "  %-7s %-36s", soft ? "soft" : path_id[im->path], im->name);
        const struct result *bad = NULL;
        const struct cell *same = NULL;
        for (size_t z = 0; z < nsz; z++) {
            const struct cell *c = &cells[row + z];
            const struct result *r = &c->r;
            same = same ? same : c->d.same_as ? c : NULL;
            if (r->status == RES_OK) /* ~: noisy, a figure but no claim */
                fprintf(out, " %9.1f%c", r->mb_per_s, c->d.noisy ? '~' : ' ');
            else {
                fprintf(out, " %10s", result_status_short(r->status));
                if (!bad && r->status != RES_PENDING && r->status != RES_CANCELLED)
                    bad = r;
            }
        }
        if (!soft && cells[row + nsz - 1].d.speedup > 0 && !cells[row + nsz - 1].d.noisy)
            fprintf(out, "  x%.2f", cells[row + nsz - 1].d.speedup);
        if (soft)
            fprintf(out, "  fallback: %s", soft->fallback_why);
        else if (bad)
            fprintf(out, "  %s", bad->reason);
        else if (same)
            fprintf(out, "  same code as %s %s: %s", path_id[same->d.same_as->path],
                     same->d.same_as->name, same->d.same_why);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* What the marks mean, once, under the table. */
static void legend(FILE *out, const struct cell *cells, size_t n)
{
    size_t noisy = 0;
    for (size_t i = 0; i < n; i++)
        noisy += cells[i].d.noisy;
    if (noisy)
        fprintf(out, "~ noisy (%zu cells): the 95%% interval of the speed-up over the slowest row "
                     "(its rounds paired with that row's) stayed wider than +-5%%; no speed-up "
                     "is claimed from them.\n", noisy);
}

void report_table(FILE *out, const struct cell *cells, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && !strcmp(cells[j].impl->alg, cells[i].impl->alg))
            j++;
        block(out, cells, i, j);
        i = j;
    }
    legend(out, cells, n);
}
