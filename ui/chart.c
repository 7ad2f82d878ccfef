/* What the chart views share: one bar row per cell (its figures and derived figures come from
 * the session: cell->d), the legend, the details of the selected cell, navigation, the
 * silicon's ceiling marker, and the folding of a reason shared by a whole path. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define LABEL_W 9
#define VALUE_W 24

const char *chart_direction(const struct algo *a)
{
    if (a->kind != ALGO_CIPHER && a->kind != ALGO_AEAD)
        return "";
    return app_sel()->decrypt ? " decrypt" : " encrypt";
}

/* The core's short status, with the UI's glyphs for cells still to come. */
const char *chart_status_short(const struct result *r)
{
    switch (r->status) {
    case RES_PENDING: return ui_glyph(G_DOT);
    case RES_RUNNING: return ui_glyph(G_ELLIPSIS);
    default: return result_status_short(r->status);
    }
}

static int has_figure(const struct result *r)
{
    return (r->status == RES_OK || r->status == RES_RUNNING) && r->mb_per_s > 0;
}

void chart_group_scale(struct chart_row *rows, size_t from, size_t to)
{
    double lo = 0, hi = 0;
    for (size_t i = from; i < to; i++) {
        const struct cell *c = rows[i].cell;
        if (!c || !has_figure(&c->r))
            continue;
        double v = c->r.mb_per_s;
        if (v > hi)
            hi = v;
        if (lo == 0 || v < lo)
            lo = v;
    }
    /* The silicon's ceiling joins the scale when the bars stay readable beside it. */
    double ceil = 0;
    for (size_t i = from; i < to; i++)
        if (rows[i].cell && rows[i].cell->impl->path == PATH_HW && rows[i].cell->limit_mb_per_s > ceil)
            ceil = rows[i].cell->limit_mb_per_s;
    if (ceil > hi && hi > 0 && ceil <= 3 * hi)
        hi = ceil;
    for (size_t i = from; i < to; i++) {
        rows[i].lo = lo;
        rows[i].hi = hi;
    }
}

static int status_role(enum res_status s)
{
    switch (s) {
    case RES_WRONG: case RES_CRASHED: case RES_TIMEOUT: case RES_ERROR: return ROLE_ERROR;
    case RES_CANCELLED: return ROLE_WARN;
    default: return ROLE_DIM;
    }
}

void chart_cell_row(int y, int x, int w, const struct chart_row *row, int selected)
{
    const struct cell *c = row->cell;
    if (!c) {
        ui_text(y, x, w, row->attr ? row->attr : (int)(A_BOLD | A_UNDERLINE), row->text);
        return;
    }
    const struct result *r = &c->r;
    /* An ENGINE row whose work stayed in libcrypto is drawn as the software it was: in the
     * colour of libcrypto's own code, never the kernel's (src/offload.h). */
    int soft = r->fallback && (r->status == RES_OK || r->status == RES_RUNNING);
    int pr = ui_attr(ui_path_role(soft ? PATH_HW : c->impl->path));
    if (selected)
        ui_text(y, x, 2, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
    int name_w = w >= 118 ? 27 : 18; /* wide terminals show driver names whole */
    ui_text(y, x + 2, LABEL_W - 1, pr, soft ? "software" : path_label[c->impl->path]);
    ui_textf(y, x + 2 + LABEL_W, name_w - 1, selected ? ui_attr(ROLE_CURSOR) : 0,
             c->threads > 1 ? "%s %dt" : "%s", c->impl->name, c->threads);
    int bx = x + 2 + LABEL_W + name_w, bw = w - (bx - x) - VALUE_W;
    char st[48], rate[32];
    if (!has_figure(r)) {
        char msg[300];
        const char *txt = result_status_text(r, st, sizeof st);
        if (r->status == RES_PENDING)
            snprintf(msg, sizeof msg, "%s not measured yet", ui_glyph(G_DOT));
        else if (r->status == RES_RUNNING)
            snprintf(msg, sizeof msg, "%s verifying", ui_glyph(G_ELLIPSIS));
        else if (r->reason[0] && strcmp(r->reason, txt))
            snprintf(msg, sizeof msg, "%s: %s", txt, r->reason);
        else
            snprintf(msg, sizeof msg, "%s", txt);
        ui_text(y, bx, w - (bx - x), ui_attr(status_role(r->status)), msg);
        return;
    }
    if (c->d.same_as && r->status == RES_OK) {
        /* Not a second bar for one code: the difference would be noise (cell.h). */
        ui_textf(y, bx, w - (bx - x), ui_attr(ROLE_DIM), "%s same code as %s %s: %s",
                 ui_algo_rate(algo_find(c->impl->alg), r->mb_per_s, rate, sizeof rate), path_id[c->d.same_as->path],
                 c->d.same_as->name, c->d.same_why);
        return;
    }
    double f = ui_scale(r->mb_per_s, row->lo, row->hi);
    ui_bar(y, bx, bw, f, pr);
    /* The ceiling where it falls on the scale; the heading names it when it is beyond. */
    if (c->impl->path == PATH_HW && c->limit_mb_per_s > 0 && c->limit_mb_per_s <= row->hi) {
        int mx = bx + (int)(ui_scale(c->limit_mb_per_s, row->lo, row->hi) * (bw - 1));
        ui_text(y, mx, 1, ui_attr(ROLE_WARN), ui_glyph(G_MARK));
    }
    int vx = bx + bw + 1;
    ui_text(y, vx, 10, A_BOLD, ui_algo_rate(algo_find(c->impl->alg), r->mb_per_s, rate,
                                            sizeof rate));
    vx++;
    if (r->status == RES_RUNNING) {
        ui_textf(y, vx + 10, VALUE_W - 12, ui_attr(ROLE_DIM), "%s %d/%d", ui_glyph(G_ELLIPSIS),
                 r->samples, r->samples_wanted * (r->threads ? r->threads : 1));
        return;
    }
    if (soft) { /* not the engine's figure: no claim for it */
        ui_text(y, vx + 10, VALUE_W - 12, ui_attr(ROLE_WARN), "fell back");
        return;
    }
    if (r->process_apart) { /* each of its processes read a figure of its own */
        ui_text(y, vx + 10, 12, ui_attr(ROLE_WARN), "~procs");
        return;
    }
    if (c->d.spell && c->d.noisy) { /* narrow intervals, yet taken while the machine moved */
        ui_text(y, vx + 10, 12, ui_attr(ROLE_WARN), "~spell");
        return;
    }
    if (c->d.noisy) { /* a figure, never a claim: no xN, no star; the interval where it is
                       * why (noisy for rounds retaken, beside busy programs, or a slowest row
                       * no quiet row stands on, it may be narrow: then it would mislead) */
        double pm = c->d.speedup_ci_pct > 0 ? c->d.speedup_ci_pct : r->ci_pct;
        if (pm > STATS_NOISY_CI_PCT) /* never so for an unbacked row: its figure is quiet */
            ui_textf(y, vx + 10, 12, ui_attr(ROLE_WARN), "~noisy %s%.0f%%", ui_glyph(G_PM), pm);
        else
            ui_text(y, vx + 10, 12, ui_attr(ROLE_WARN), "~noisy");
        return;
    }
    if (c->d.speedup > 0) /* over the slowest of the same algorithm, size and direction */
        ui_textf(y, vx + 10, 7, ui_attr(ROLE_KEY), "%s%.1f%s", ui_glyph(G_TIMES), c->d.speedup,
                 c->d.tie ? "=" : "");
    if (r->spread_pct > 5)
        ui_textf(y, vx + 17, 5, ui_attr(ROLE_WARN), "%s%.0f%%", ui_glyph(G_PM), r->spread_pct);
}

void chart_legend(int y, int x, int w)
{
    int cx = x;
    for (int p = 0; p < PATH_COUNT; p++) {
        ui_bar(y, cx, 1, 1.0, ui_attr(ui_path_role((enum path)p)));
        ui_text(y, cx + 2, w - (cx + 2 - x), A_NORMAL, path_label[p]);
        cx += 3 + (int)strlen(path_label[p]);
    }
    if (w - (cx - x) >= 72)
        ui_textf(y, cx, w - (cx - x), ui_attr(ROLE_DIM),
                 " %s scale %s (l) %s %sN vs slowest (= tie) %s %s spread >5%% %s %s ceiling",
                 ui_glyph(G_DOT), ui.log_scale ? "log" : "linear", ui_glyph(G_DOT),
                 ui_glyph(G_TIMES), ui_glyph(G_DOT), ui_glyph(G_PM), ui_glyph(G_DOT), ui_glyph(G_MARK));
    else /* 80 columns: the short form; ? explains it */
        ui_textf(y, cx, w - (cx - x), ui_attr(ROLE_DIM), "scale %s(l) %s:slowest %s:spread %s:ceiling",
                 ui.log_scale ? "log" : "lin", ui_glyph(G_TIMES), ui_glyph(G_PM), ui_glyph(G_MARK));
}

void chart_details(int y, int w, const struct cell *c)
{
    ui_fill(y, 0, w, A_NORMAL);
    if (!c) {
        ui_text(y, 1, w - 2, ui_attr(ROLE_DIM), "no cell selected: arrows or a click select a bar");
        return;
    }
    const struct result *r = &c->r;
    const struct algo *al = algo_find(c->impl->alg);
    char sz[32], a[32], lo[32], hi[32], st[48];
    char head[160];
    snprintf(head, sizeof head, "%s %s %s/%s %s %s", c->impl->alg, ui_glyph(G_DOT),
             path_label[c->impl->path], c->impl->name, ui_glyph(G_DOT),
             ui_algo_size(al, c->bytes, sz, sizeof sz));
    if (r->status == RES_OK) {
        char cyc[48] = "";
        if (r->cycles_per_byte > 0) /* public-key ops count one "byte" an op */
            snprintf(cyc, sizeof cyc, " %s %.2f cycles/%s (%s)", ui_glyph(G_DOT),
                     r->cycles_per_byte, algo_sized(al) ? "B" : "op", r->cycle_clock);
        /* A tie is said as one: the samples of the tied cells overlap (cell.h). */
        char apart[96], p0[32], p1[32];
        snprintf(apart, sizeof apart, ", ~procs %s vs %s", /* its two worker processes */
                 ui_algo_rate(al, r->process_mb[0], p0, sizeof p0),
                 ui_algo_rate(al, r->process_mb[1], p1, sizeof p1));
        const char *rank = r->process_apart ? apart
                         : c->d.tie ? ", tie for best" : c->d.best ? ", best"
                         : c->d.spell && c->d.noisy
                             ? ", noisy: its column was measured in a turbulent spell"
                         : c->d.unbacked ? ", noisy: the slowest, no quiet row over it"
                         : c->d.noisy ? ", noisy: no claim" : "";
        if (r->fallback) { /* what the figure really is comes first */
            ui_textf(y, 1, w - 2, ui_attr(ROLE_WARN), "%s: %s %s fallback: %s", head,
                     ui_rate(r->mb_per_s, a, sizeof a), ui_glyph(G_DOT), r->fallback_why);
            return;
        }
        ui_textf(y, 1, w - 2, A_NORMAL,
                 "%s: %s%s (%s..%s, %s%.1f%%) %s %d samples%s %s cpu %.2f %s verified vs %s%s%s",
                 head, ui_algo_rate(al, r->mb_per_s, a, sizeof a), rank,
                 ui_algo_rate(al, r->mb_min, lo, sizeof lo), ui_algo_rate(al, r->mb_max, hi, sizeof hi), ui_glyph(G_PM), r->spread_pct,
                 ui_glyph(G_DOT), r->samples, cyc, ui_glyph(G_DOT), r->cpu_util,
                 ui_glyph(G_DOT), r->reference[0] ? r->reference : "?",
                 c->impl->note ? (ui.utf8 ? " \u2014 " : " - ") : "",
                 c->impl->note ? c->impl->note : "");
    } else {
        const char *text = result_status_text(r, st, sizeof st); /* no "cancelled: cancelled" */
        const char *why = strcmp(r->reason, text) ? r->reason : "";
        ui_textf(y, 1, w - 2, ui_attr(status_role(r->status)), "%s: %s%s%s", head, text,
                 why[0] ? ": " : "", why);
    }
}

/* Computed here from session_cell() data, as session.h has no such figure yet; `run` could
 * use it too, and then it belongs in the session.
 * What the reasons of a path's cells share: all of it, or its leading "what: " parts up to
 * where they differ ("AF_ALG not in this kernel (EAFNOSUPPORT): needs CONFIG_..._HASH" and
 * "..._AEAD" share "AF_ALG not in this kernel (EAFNOSUPPORT)"). 0 when nothing is shared. */
static size_t shared_reason(char *common, size_t len, const char *reason)
{
    size_t i = 0;
    while (i < len && common[i] == reason[i])
        i++;
    if (i == len && (!reason[i] || !strncmp(reason + i, ": ", 2)))
        return len;
    while (i >= 2 && strncmp(common + i - 2, ": ", 2))
        i--;
    return i >= 2 ? i - 2 : 0;
}

/* Up to this many reasons said on a folded path's line: the kernel path here has AF_ALG
 * missing (the AF_ALG rows and the afalg engine) and the devcrypto engine missing. */
#define FOLD_REASONS 3

int chart_folded(enum path p, char *why, size_t n)
{
    if (ui.show_unavail)
        return 0;
    char common[FOLD_REASONS][sizeof ((struct result *)0)->reason];
    size_t count = 0, len[FOLD_REASONS], groups = 0;
    for (size_t i = 0; i < session_ncells(ui.s); i++) {
        const struct cell *c = session_cell(ui.s, i);
        if (c->impl->path != p)
            continue;
        if (c->r.status != RES_UNAVAILABLE)
            return 0;
        count++;
        size_t g = 0, l = 0;
        while (g < groups && !(l = shared_reason(common[g], len[g], c->r.reason)))
            g++;
        if (g < groups) {
            len[g] = l;
        } else if (groups < FOLD_REASONS) {
            snprintf(common[groups], sizeof common[groups], "%s", c->r.reason);
            len[groups] = strlen(common[groups]);
            groups++;
        } else {
            return 0;
        }
    }
    if (count < 2 || count == groups) /* one row says it as briefly as one line */
        return 0;
    size_t off = 0;
    why[0] = 0;
    for (size_t g = 0; g < groups && off < n; g++)
        off += (size_t)snprintf(why + off, n - off, "%s%.*s", g ? "; " : "", (int)len[g],
                                common[g]);
    return 1;
}

void chart_fold(struct chart_row *rows, size_t *n)
{
    char why[200];
    int fold[PATH_COUNT], lines = 0;
    for (int p = 0; p < PATH_COUNT; p++)
        lines += fold[p] = chart_folded((enum path)p, why, sizeof why);
    if (!lines)
        return;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (!rows[i].cell || !fold[rows[i].cell->impl->path])
            rows[k++] = rows[i];
    memmove(rows + lines, rows, k * sizeof *rows);
    for (int p = 0, j = 0; p < PATH_COUNT; p++) {
        if (!fold[p])
            continue;
        struct chart_row *r = &rows[j++];
        *r = (struct chart_row){ .attr = ui_attr(ROLE_ABSENT) };
        chart_folded((enum path)p, why, sizeof why);
        snprintf(r->text, sizeof r->text, "%s: every row unavailable (u shows them): %s",
                 path_label[p], why);
    }
    *n = k + (size_t)lines;
}

/* Moves the cursor over rows that hold a cell; headings are skipped by the callers' rows. */
static int ncells[V_COUNT];

/* Draws a list of headings and cell rows in r: legend on top, details of the selected cell
 * at the bottom, the cursor kept in sight. */
void chart_list_draw(struct rect r, struct chart_row *rows, size_t nrows, int view)
{
    chart_legend(r.y, 1, r.w - 2);
    int h = r.h - 2;
    int n = 0, cur_row = -1;
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].cell)
            n++;
    ncells[view] = n;
    if (ui.cursor[view] >= n)
        ui.cursor[view] = n ? n - 1 : 0;
    for (size_t i = 0, k = 0; i < nrows; i++)
        if (rows[i].cell && (int)k++ == ui.cursor[view])
            cur_row = (int)i;
    int *top = &ui.top[view];
    if (cur_row >= 0) {
        /* Keep the heading of the selected row in sight when there is room. */
        int want = cur_row > 0 && !rows[cur_row - 1].cell ? cur_row - 1 : cur_row;
        if (want < *top)
            *top = want;
        if (cur_row >= *top + h)
            *top = cur_row - h + 1;
    }
    if (*top > (int)nrows - h)
        *top = (int)nrows - h;
    if (*top < 0)
        *top = 0;
    int k = 0;
    for (int i = 0; i < *top; i++)
        k += rows[i].cell != NULL;
    for (int i = *top, y = r.y + 1; i < (int)nrows && y < r.y + 1 + h; i++, y++) {
        chart_cell_row(y, 1, r.w - 2, &rows[i], i == cur_row);
        if (rows[i].cell)
            hit_add(y, 0, r.w, chart_select_hit, k++);
    }
    if (*top > 0)
        ui_text(r.y + 1, r.w - 1, 1, ui_attr(ROLE_KEY), "^");
    if (*top + h < (int)nrows)
        ui_text(r.y + h, r.w - 1, 1, ui_attr(ROLE_KEY), "v");
    chart_details(r.y + r.h - 1, r.w, cur_row >= 0 ? rows[cur_row].cell : NULL);
}

/* < and > (or , and .) step *idx through [0, n). */
int chart_step_key(int ch, int *idx, int n)
{
    if (ch == '<' || ch == ',') {
        if (*idx > 0)
            (*idx)--;
        return 1;
    }
    if (ch == '>' || ch == '.') {
        if (*idx < n - 1)
            (*idx)++;
        return 1;
    }
    return 0;
}

int chart_list_key(int ch, int view)
{
    return chart_key_nav(ch, view, ncells[view]);
}

/* A growing buffer of rows, reused by every draw. */
struct chart_row *chart_rows(size_t need)
{
    static struct chart_row *buf;
    static size_t cap;
    if (need > cap) {
        cap = need + 64;
        buf = realloc(buf, cap * sizeof *buf);
        if (!buf)
            abort();
    }
    return buf;
}

int chart_key_nav(int ch, int view, int nrows)
{
    int *cur = &ui.cursor[view];
    switch (ch) {
    case KEY_UP: case 'k': (*cur)--; break;
    case KEY_DOWN: case 'j': (*cur)++; break;
    case KEY_PPAGE: *cur -= 10; break;
    case KEY_NPAGE: *cur += 10; break;
    case KEY_HOME: case 'g': *cur = 0; break;
    case KEY_END: case 'G': *cur = nrows - 1; break;
    default: return 0;
    }
    if (*cur >= nrows)
        *cur = nrows - 1;
    if (*cur < 0)
        *cur = 0;
    return 1;
}

void chart_select_hit(int arg, int y, int x)
{
    (void)y;
    (void)x;
    ui.cursor[ui.view] = arg;
}
