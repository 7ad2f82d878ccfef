#include "export.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>

#include "algo.h"
#include "clock.h"
#include "cpu.h"
#include "csv.h"
#include "text.h"
#include "machine.h"
#include "report.h"
#include "stats.h"
#include "scaling.h"

static const struct {
    const char *ext;
    enum export_format fmt;
} formats[] = {
    { ".csv", EXPORT_CSV }, { ".md", EXPORT_MD }, { ".json", EXPORT_JSON }, { ".svg", EXPORT_SVG },
};

int export_format_of(const char *path, enum export_format *fmt, char *why, size_t n)
{
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base + 1 : path, '.');
    for (size_t i = 0; dot && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcasecmp(dot, formats[i].ext)) {
            *fmt = formats[i].fmt;
            return 0;
        }
    snprintf(why, n, "cannot tell what to write to '%s' from its extension: accepted .csv "
             "(as --csv), .md (Markdown tables), .json (figures and machine), .svg (chart)",
             path);
    return -1;
}

int export_check_dest(const char *path, int force, char *why, size_t n)
{
    enum export_format fmt;
    if (export_format_of(path, &fmt, why, n))
        return -1;
    return csv_check_dest(path, force, why, n);
}

void export_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const char *p = s; *p;) {
        unsigned cp;
        size_t len = text_utf8_char(p, &cp);
        if (!len) /* JSON is UTF-8 (RFC 8259 8.1): a stray byte becomes U+FFFD */
            fputs("\\ufffd", f), len = 1;
        else if (cp == '"' || cp == '\\')
            fprintf(f, "\\%c", (int)cp);
        else if (text_control(cp)) /* C1 and DEL too: the JSON may be printed */
            fprintf(f, "\\u%04x", cp);
        else
            fwrite(p, 1, len, f);
        p += len;
    }
    fputc('"', f);
}

void export_md_text(FILE *f, const char *s)
{
    while (*s) {
        unsigned cp;
        size_t len = text_utf8_char(s, &cp);
        if (len && (cp == '\n' || cp == '\r' || cp == '\t'))
            fputc(' ', f); /* a reason's line break reads as a space */
        else if (!len || text_control(cp))
            fputc('?', f), len = len ? len : 1;
        else if (cp == '|')
            fputs("\\|", f);
        else
            fwrite(s, 1, len, f);
        s += len;
    }
}

/* ---- Blocks: the cells of one algorithm in one direction, as the TUI shows them. ---- */

#define MAX_SIZES 64

struct block {
    const struct cell *c; /* the block's cells */
    size_t n;
    size_t size[MAX_SIZES]; /* distinct sizes, ascending */
    size_t nsz;
};

/* The block starting at cells[0]; returns its cell count. */
static size_t block_at(const struct cell *cells, size_t n, struct block *b)
{
    size_t j = 1;
    while (j < n && !strcmp(cells[j].impl->alg, cells[0].impl->alg) &&
           cells[j].decrypt == cells[0].decrypt)
        j++;
    b->c = cells;
    b->n = j;
    b->nsz = 0;
    for (size_t i = 0; i < j; i++) {
        size_t k = 0, s = cells[i].bytes;
        while (k < b->nsz && b->size[k] < s)
            k++;
        if ((k < b->nsz && b->size[k] == s) || b->nsz == MAX_SIZES)
            continue;
        memmove(&b->size[k + 1], &b->size[k], (b->nsz - k) * sizeof b->size[0]);
        b->size[k] = s;
        b->nsz++;
    }
    return j;
}

/* 1 when cell i is the first of its implementation and thread count in the block: a row. */
static int row_start(const struct block *b, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (b->c[k].impl == b->c[i].impl && b->c[k].threads == b->c[i].threads)
            return 0;
    return 1;
}

/* The cell of row's implementation and thread count at bytes. */
static const struct cell *cell_at(const struct block *b, const struct cell *row, size_t bytes)
{
    for (size_t k = 0; k < b->n; k++)
        if (b->c[k].impl == row->impl && b->c[k].threads == row->threads && b->c[k].bytes == bytes)
            return &b->c[k];
    return NULL;
}

static int measured(const struct cell *c)
{
    return c && c->r.status == RES_OK && c->r.mb_per_s > 0;
}

static int threads(const struct cell *cells, size_t n)
{
    int t = 1;
    for (size_t i = 0; i < n; i++)
        if (cells[i].r.threads > t)
            t = cells[i].r.threads;
    return t;
}

static void stamp(char *ts, size_t n)
{
    csv_timestamp(time(NULL), ts, n);
}

/* ---- Markdown ---- */

/* A cell's figure in its algorithm's unit (public-key: ops/s) and that unit. */
static double rate(const struct cell *c)
{
    return algo_rate(algo_find(c->impl->alg), c->r.mb_per_s);
}

static const char *unit(const struct cell *c)
{
    return algo_unit(algo_find(c->impl->alg));
}

static void md_cell(FILE *f, const struct cell *c)
{
    if (measured(c)) {
        fprintf(f, " %.1f", rate(c));
        if (c->d.noisy) /* a figure, never a claim */
            fprintf(f, " ~noisy");
        else if (c->d.speedup > 0)
            fprintf(f, " ×%.2f", c->d.speedup);
    } else {
        fprintf(f, " %s", c ? result_status_short(c->r.status) : "–");
    }
    fputs(" |", f);
}

static void md_block(FILE *f, const struct block *b)
{
    char sz[32];
    fprintf(f, "\n## %s%s\n\n| Path | Implementation |", b->c->impl->alg,
            *csv_direction(b->c) ? (b->c->decrypt ? " decrypt" : " encrypt") : "");
    for (size_t k = 0; k < b->nsz; k++)
        fprintf(f, " %s |", report_cell_size(algo_find(b->c->impl->alg), b->size[k], sz,
                                             sizeof sz));
    fputs("\n|---|---|", f);
    for (size_t k = 0; k < b->nsz; k++)
        fputs("---:|", f);
    fputc('\n', f);
    int notes = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (!row_start(b, i))
            continue;
        const struct impl *im = b->c[i].impl;
        int soft = b->c[i].r.status == RES_OK && b->c[i].r.fallback; /* src/offload.h */
        fprintf(f, "| %s | ", soft ? "software" : path_label[im->path]);
        export_md_text(f, im->name);
        if (b->c[i].threads > 1)
            fprintf(f, ", %d threads", b->c[i].threads);
        fputs(" |", f);
        for (size_t k = 0; k < b->nsz; k++)
            md_cell(f, cell_at(b, &b->c[i], b->size[k]));
        fputc('\n', f);
        notes |= (b->c[i].r.status != RES_OK && b->c[i].r.reason[0]) || soft;
    }
    if (!notes)
        return;
    fputc('\n', f);
    for (size_t i = 0; i < b->n; i++)
        if (row_start(b, i) && ((b->c[i].r.status != RES_OK && b->c[i].r.reason[0]) ||
                                (b->c[i].r.status == RES_OK && b->c[i].r.fallback))) {
            fprintf(f, "- %s %s: ", path_label[b->c[i].impl->path], b->c[i].impl->name);
            const struct result *r = &b->c[i].r;
            export_md_text(f, r->status == RES_OK ? r->fallback_why : r->reason);
            fputc('\n', f);
        }
}

static void write_md(FILE *f, const struct cell *cells, size_t n)
{
    const struct machine *m = machine_get();
    char ts[32];
    stamp(ts, sizeof ts);
    fputs("# accelscope: ", f);
    export_md_text(f, m->cpu);
    fputs("\n\n", f);
    export_md_text(f, m->host);
    fputs(" · kernel ", f);
    export_md_text(f, m->kernel);
    fputs(" · ", f);
    export_md_text(f, m->openssl);
    int th = threads(cells, n);
    char thr[64];
    snprintf(thr, sizeof thr, scaling_multi(cells, n) ? "threads as each row says, summed"
                              : th > 1 ? "%d threads, summed" : "%d thread", th);
    fprintf(f, " · accelscope %s · %s\n\nMB/s = 10^6 bytes per second (%s). ×N: over the "
            "slowest verified implementation at the same size and thread count. A cell that "
            "failed shows its status, never a figure.\n", ACCELSCOPE_VERSION, ts, thr);
    for (size_t i = 0; i < n; i++)
        if (!algo_sized(algo_find(cells[i].impl->alg))) {
            fputs("\nPublic-key operations: operations per second (ops/s), at their key size.\n",
                  f);
            break;
        }
    struct block b;
    for (size_t i = 0; i < n;) {
        i += block_at(cells + i, n - i, &b);
        md_block(f, &b);
    }
}

/* ---- JSON ---- */

static void json_kv(FILE *f, const char *indent, const char *key, const char *val, int comma)
{
    fprintf(f, "%s\"%s\": ", indent, key);
    export_json_string(f, val);
    fputs(comma ? ",\n" : "\n", f);
}

static void json_num(FILE *f, const char *key, const char *fmt, double v, int have)
{
    fprintf(f, ", \"%s\": ", key);
    if (have)
        fprintf(f, fmt, v);
    else
        fputs("null", f);
}

/* One line of a /sys file, or "" where the machine has none. */
static const char *sys_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    if (f) {
        if (fgets(buf, (int)n, f))
            buf[strcspn(buf, "\n")] = 0;
        fclose(f);
    }
    return buf;
}

static void json_machine(FILE *f, const struct cell *cells, size_t n)
{
    const struct machine *m = machine_get();
    const struct cpu_info *c = cpu_get();
    char b[256], why[160];
    fputs("  \"machine\": {\n", f);
    json_kv(f, "    ", "host", m->host, 1);
    json_kv(f, "    ", "cpu", m->cpu, 1);
    json_kv(f, "    ", "vendor", c->vendor, 1);
    json_kv(f, "    ", "arch", c->arch, 1);
    fprintf(f, "    \"family\": %d, \"model\": %d, \"stepping\": %d, \"cores\": %d, "
            "\"threads\": %d,\n    \"features\": {", c->family, c->model, c->stepping, c->cores,
            c->threads);
    for (int i = 0, k = 0; i < FEAT_COUNT; i++)
        if (feature_table[i].arch == feature_host_arch())
            fprintf(f, "%s\"%s\": %s", k++ ? ", " : "", feature_table[i].key,
                    cpu_has((enum feature)i) ? "true" : "false");
    fputs("},\n", f);
    json_kv(f, "    ", "kernel", m->kernel, 1);
    json_kv(f, "    ", "openssl", m->openssl, 1);
    json_kv(f, "    ", "openssl_capabilities", OpenSSL_version(OPENSSL_CPU_INFO), 1);
    const char *clock = "none";
    for (size_t i = 0; i < n; i++)
        if (cells[i].r.status == RES_OK && cells[i].r.cycle_clock[0])
            clock = cells[i].r.cycle_clock;
    json_kv(f, "    ", "cycle_clock", clock, 1);
    double tsc = clock_tsc_mhz(why, sizeof why);
    fprintf(f, tsc > 0 ? "    \"tsc_mhz\": %.1f,\n" : "    \"tsc_mhz\": null,\n", tsc);
    static const char *const sys[][2] = {
        { "cpufreq_governor", "scaling_governor" },
        { "cpufreq_driver", "scaling_driver" },
        { "cpufreq_max_khz", "cpuinfo_max_freq" },
    };
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++) {
        snprintf(why, sizeof why, "/sys/devices/system/cpu/cpu0/cpufreq/%s", sys[i][1]);
        fprintf(f, "    \"%s\": ", sys[i][0]);
        if (*sys_line(why, b, sizeof b)) /* a VM often has no cpufreq: null */
            export_json_string(f, b);
        else
            fputs("null", f);
        fputs(i + 1 < sizeof sys / sizeof sys[0] ? ",\n" : "\n", f);
    }
    fputs("  },\n", f);
}

static void json_cell(FILE *f, const struct cell *c)
{
    const struct result *r = &c->r;
    int ok = r->status == RES_OK;
    char st[48];
    fputs("    {\"algorithm\": ", f);
    export_json_string(f, c->impl->alg);
    const char *text[][2] = { { "direction", csv_direction(c) },
                              { "path", path_id[c->impl->path] },
                              { "implementation", c->impl->name },
                              { "backend", c->impl->backend },
                              { "status", result_status_text(r, st, sizeof st) },
                              { "reason", ok ? "" : r->reason },
                              { "verified_against", r->reference },
                              { "capabilities", r->capvec },
                              { "cycle_clock", ok ? r->cycle_clock : "" },
                              { "fallback", ok && r->fallback ? r->fallback_why : "" } };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        fprintf(f, ", \"%s\": ", text[i][0]);
        export_json_string(f, text[i][1]);
    }
    fprintf(f, ", \"bytes\": %zu, \"threads\": %d, \"samples\": %d", c->bytes, r->threads,
            ok ? r->samples : 0);
    int pk = !algo_sized(algo_find(c->impl->alg)); /* public-key: ops_per_s instead */
    json_num(f, "mb_per_s", "%.3f", r->mb_per_s, ok && !pk);
    json_num(f, "mb_per_s_min", "%.3f", r->mb_min, ok && !pk);
    json_num(f, "mb_per_s_max", "%.3f", r->mb_max, ok && !pk);
    json_num(f, "ops_per_s", "%.1f", r->mb_per_s * 1e6, ok && pk);
    json_num(f, "spread_pct", "%.2f", r->spread_pct, ok);
    json_num(f, pk ? "cycles_per_op" : "cycles_per_byte", "%.4f", r->cycles_per_byte,
             ok && r->cycles_per_byte > 0); /* public-key ops count one byte an op */
    json_num(f, "cpu_utilisation", "%.3f", r->cpu_util, ok);
    json_num(f, "sys_pct", "%.1f", r->sys_pct, ok && r->sys_pct >= 0);
    /* the second of the two worker processes that took the rounds in turn, against the first */
    json_num(f, "processes_pct", "%.2f",
             r->process_mb[0] > 0 ? (r->process_mb[1] / r->process_mb[0] - 1) * 100 : 0,
             ok && r->process_mb[0] > 0 && r->process_mb[1] > 0);
    json_num(f, "clock_mhz", "%.0f", r->clock_mhz, ok && r->clock_mhz > 0);
    json_num(f, "clock_ref_mhz", "%.0f", r->clock_ref_mhz, ok && r->clock_ref_mhz > 0);
    json_num(f, "last_mb_per_s", "%.3f", r->last_mb_per_s, ok && !pk && r->last_mb_per_s > 0);
    json_num(f, "last_ops_per_s", "%.1f", r->last_mb_per_s * 1e6, ok && pk && r->last_mb_per_s > 0);
    json_num(f, "limit_mb_per_s", "%.1f", c->limit_mb_per_s, c->limit_mb_per_s > 0);
    json_num(f, "speedup_vs_slowest", "%.4f", c->d.speedup, c->d.speedup > 0);
    json_num(f, "speedup_ci_pct", "%.2f", c->d.speedup_ci_pct, c->d.speedup_ci_pct > 0);
    fprintf(f, ", \"best\": %s, \"tie\": %s, \"noisy\": %s", c->d.best ? "true" : "false",
            c->d.tie ? "true" : "false", c->d.noisy ? "true" : "false");
    fputs(", \"retaken\": {", f); /* disturbed rounds by reason (result.h) */
    for (int k = 0, first = 1; ok && k < RESULT_RETAKEN_COUNT; k++)
        if (r->retaken[k] > 0) {
            fprintf(f, "%s\"%s\": %d", first ? "" : ", ", result_retaken_key(k), r->retaken[k]);
            first = 0;
        }
    fputs("}", f);
    fprintf(f, ", \"quality\": \"%s\", \"absolute\": \"%s\"}",
            r->status != RES_OK ? "" : r->quality == RESULT_NOISY ? "noisy"
                                     : r->quality == RESULT_QUIET ? "quiet" : "",
            r->status != RES_OK || r->quality == RESULT_UNRATED ? ""
                : stats_absolute_quiet(r) ? "quiet" : "noisy");
}

static void write_json(FILE *f, const struct cell *cells, size_t n)
{
    char ts[32];
    stamp(ts, sizeof ts);
    fputs("{\n", f);
    json_kv(f, "  ", "accelscope", ACCELSCOPE_VERSION, 1);
    json_kv(f, "  ", "generated", ts, 1);
    json_kv(f, "  ", "units", "mb_per_s: 10^6 bytes per second, summed over threads; "
            "ops_per_s (public-key operations): operations per second, summed over threads", 1);
    json_machine(f, cells, n);
    fputs("  \"cells\": [\n", f);
    for (size_t i = 0; i < n; i++) {
        json_cell(f, &cells[i]);
        fputs(i + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ]\n}\n", f);
}

/* ---- SVG: the paths chart ---- */

/* The TUI's path colours: no-asm red, asm yellow, hardware green, kernel cyan. */
const char *const export_path_colour[PATH_COUNT] = { "#d62728", "#e8b100", "#2ca02c",
                                                     "#17becf" };

enum { SVG_W = 960, BAR_X = 290, BAR_W = 480, ROW_H = 26, BLOCK_GAP = 44, TOP = 118 };

void export_svg_text(FILE *f, const char *s, size_t max)
{
    for (size_t k = 0; *s && k < max; s++, k++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
        }
    }
}

static size_t svg_rows(const struct block *b)
{
    size_t r = 0;
    for (size_t i = 0; i < b->n; i++)
        r += (size_t)row_start(b, i);
    return r;
}

static void svg_bar(FILE *f, const struct cell *c, const struct impl *im, double top, int y)
{
    /* An ENGINE row that fell back is drawn as libcrypto's software it was (src/offload.h). */
    int soft = c && c->r.status == RES_OK && c->r.fallback;
    enum path drawn = soft ? PATH_HW : im->path;
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\">", BAR_X - 10, y + 14);
    export_svg_text(f, im->name, 40);
    if (c && c->threads > 1)
        fprintf(f, ", %d threads", c->threads);
    fprintf(f, " <tspan class=\"p\">%s</tspan></text>\n", soft ? "software" : path_label[im->path]);
    if (!measured(c)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"s\">%s", BAR_X + 4, y + 14,
                c ? result_status_short(c->r.status) : "not measured");
        if (c && c->r.reason[0]) {
            fputs(": ", f);
            export_svg_text(f, c->r.reason, 70);
        }
        fputs("</text>\n", f);
        return;
    }
    double w = top > 0 ? c->r.mb_per_s / top * BAR_W : 0;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>\n", BAR_X,
            y + 1, w < 1 ? 1 : w, export_path_colour[drawn]);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"v\">%.1f %s", BAR_X + (w < 1 ? 1 : w) + 6,
            y + 14, rate(c), unit(c));
    if (soft)
        fputs("  fell back to software", f);
    else if (c->d.noisy)
        fputs("  ~noisy", f);
    else if (c->d.speedup > 0)
        fprintf(f, "  ×%.2f", c->d.speedup);
    fputs("</text>\n", f);
}

/* One algorithm: a bar per implementation at the block's largest size, on its own scale.
 * Returns the height drawn. */
static int svg_block(FILE *f, const struct block *b, int y)
{
    char sz[32];
    size_t big = b->size[b->nsz - 1];
    double top = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->c[i].bytes == big && measured(&b->c[i]) && b->c[i].r.mb_per_s > top)
            top = b->c[i].r.mb_per_s;
    fprintf(f, "<text x=\"20\" y=\"%d\" class=\"h\">", y);
    export_svg_text(f, b->c->impl->alg, 40);
    fprintf(f, "%s, %s</text>\n", *csv_direction(b->c) ? (b->c->decrypt ? " decrypt" : " encrypt")
            : "", report_cell_size(algo_find(b->c->impl->alg), big, sz, sizeof sz));
    int row = 0;
    for (size_t i = 0; i < b->n; i++)
        if (row_start(b, i))
            svg_bar(f, cell_at(b, &b->c[i], big), b->c[i].impl, top, y + 10 + ROW_H * row++);
    return 10 + ROW_H * row + BLOCK_GAP - 20;
}

static void svg_head(FILE *f, int h)
{
    const struct machine *m = machine_get();
    char ts[32];
    stamp(ts, sizeof ts);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<style>text{font-family:'DejaVu "
            "Sans',Verdana,Arial,sans-serif;font-size:14px;fill:#222}.t{font-size:24px;font-weight:"
            "bold}.h{font-size:17px;font-weight:bold}.l{text-anchor:end}.p{fill:#777;font-size:12px}"
            ".s{fill:#888;font-style:italic}.v{font-size:13px}</style>\n<rect width=\"100%%\" "
            "height=\"100%%\" fill=\"#ffffff\"/>\n<text x=\"20\" y=\"40\" class=\"t\">", SVG_W, h,
            SVG_W, h);
    export_svg_text(f, m->cpu, 90);
    fputs("</text>\n<text x=\"20\" y=\"66\">", f);
    export_svg_text(f, m->host, 40);
    fputs(" · kernel ", f);
    export_svg_text(f, m->kernel, 40);
    fputs(" · ", f);
    export_svg_text(f, m->openssl, 40);
    fprintf(f, " · %s · accelscope %s</text>\n", ts, ACCELSCOPE_VERSION);
    for (int p = 0; p < PATH_COUNT; p++)
        fprintf(f, "<rect x=\"%d\" y=\"80\" width=\"16\" height=\"16\" fill=\"%s\"/><text x=\"%d\" "
                "y=\"93\">%s</text>\n", 20 + 150 * p, export_path_colour[p], 42 + 150 * p, path_label[p]);
    fprintf(f, "<text x=\"%d\" y=\"93\" class=\"p\">MB/s = 10^6 bytes/s; ×N over the slowest</text>\n",
            20 + 150 * PATH_COUNT);
}

static void write_svg(FILE *f, const struct cell *cells, size_t n)
{
    struct block b;
    int h = TOP + 20;
    for (size_t i = 0; i < n;) {
        i += block_at(cells + i, n - i, &b);
        h += 10 + ROW_H * (int)svg_rows(&b) + BLOCK_GAP - 20 + 24;
    }
    svg_head(f, h);
    int y = TOP + 20;
    for (size_t i = 0; i < n;) {
        i += block_at(cells + i, n - i, &b);
        y += svg_block(f, &b, y) + 24;
    }
    fputs("</svg>\n", f);
}

int export_write_stream(FILE *f, enum export_format fmt, const struct cell *cells, size_t n)
{
    switch (fmt) {
    case EXPORT_CSV: return csv_write_stream(f, cells, n);
    case EXPORT_MD: write_md(f, cells, n); break;
    case EXPORT_JSON: write_json(f, cells, n); break;
    case EXPORT_SVG: write_svg(f, cells, n); break;
    }
    return ferror(f) ? -1 : 0;
}

struct fill_arg {
    enum export_format fmt;
    const struct cell *cells;
    size_t n;
};

static int fill(FILE *f, void *arg)
{
    const struct fill_arg *a = arg;
    return export_write_stream(f, a->fmt, a->cells, a->n);
}

int export_write_file(const char *path, int force, const struct cell *cells, size_t n,
                      char *why, size_t wn)
{
    struct fill_arg a = { EXPORT_CSV, cells, n };
    if (export_format_of(path, &a.fmt, why, wn))
        return -1;
    return csv_write_atomic(path, force, fill, &a, why, wn);
}
