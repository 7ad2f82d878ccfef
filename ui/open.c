/* `o`: open a saved run beside this one. Lists the runs kept in the results folder (store.h)
 * and the *.csv files of the working folder, newest first, with the host, CPU and date each
 * says (only a file's header and first row are read: store_list). Enter opens the one under
 * the cursor as another side of the compare view (view_compare.c); a file that cannot be read
 * says why and stays listed. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "store.h"

static struct store_entry *list;
static size_t nlist;
static int active, cur, top;
static char where[4096];

int open_active(void)
{
    return active;
}

void open_begin(void)
{
    free(list);
    nlist = store_list(".", &list);
    char why[256];
    if (store_dir(where, sizeof where, why, sizeof why))
        snprintf(where, sizeof where, "(%s)", why);
    active = 1;
    cur = top = 0;
}

static int is_open(const char *path)
{
    for (size_t i = 0; i < cmpv_nfiles(); i++)
        if (!strcmp(cmpv_file(i), path))
            return 1;
    return 0;
}

/* "2026-11-30 22:16": the run's own time, else the file's. */
static const char *when(const struct store_entry *e, char *b, size_t n)
{
    if (e->timestamp[0]) {
        snprintf(b, n, "%.10s %.5s", e->timestamp, strlen(e->timestamp) > 11 ? e->timestamp + 11 : "");
        return b;
    }
    struct tm tm;
    strftime(b, n, "%Y-%m-%d %H:%M", gmtime_r(&e->mtime, &tm));
    return b;
}

/* The file's name, its folder said short: "results/" or "./". */
static const char *shown_name(const char *path, char *b, size_t n)
{
    size_t wl = strlen(where);
    if (!strncmp(path, where, wl) && path[wl] == '/')
        snprintf(b, n, "results/%s", path + wl + 1);
    else
        snprintf(b, n, "%s", path);
    return b;
}

/* The CPU column: up to 36 columns, and the file's name keeps 26 at 80 columns. */
static int cpu_w(void)
{
    int w = ui.cols - 4 - 17 - 15 - 27;
    return w > 36 ? 36 : w < 12 ? 12 : w;
}

static void entry_draw(int y, int x, int w, int i)
{
    const struct store_entry *e = &list[i];
    char d[40], name[4200];
    int sel = i == cur;
    if (sel)
        ui_text(y, x, 2, ui_attr(ROLE_KEY), ui_glyph(G_CURSOR));
    int at = sel ? ui_attr(ROLE_CURSOR) : 0;
    if (!e->ok) {
        ui_textf(y, x + 2, w - 2, at | ui_attr(ROLE_DIM), "%-16s %s", when(e, d, sizeof d),
                 e->why); /* the reader's message names the file */
        return;
    }
    ui_textf(y, x + 2, w - 2, at, "%-16s %-14.14s %-*.*s %s%s", when(e, d, sizeof d), e->host,
             cpu_w(), cpu_w(), e->cpu, shown_name(e->path, name, sizeof name), is_open(e->path) ? "  (open)" : "");
}

void open_draw(void)
{
    int w = ui.cols, h = ui.rows - 6, x0 = 0, y0 = 3;
    for (int y = 0; y < h; y++)
        ui_fill(y0 + y, x0, w, A_NORMAL);
    attrset(ui_attr(ROLE_KEY));
    mvhline(y0, x0, ACS_HLINE, w);
    mvhline(y0 + h - 1, x0, ACS_HLINE, w);
    attrset(A_NORMAL);
    ui_textf(y0, x0 + 2, w - 4, A_BOLD, " Open a saved run (%zu): Enter opens it beside this "
             "one %s Esc closes ", nlist, ui_glyph(G_DOT));
    ui_textf(y0 + 1, x0 + 1, w - 2, ui_attr(ROLE_DIM), "results: %s %s and *.csv here, "
             "newest first", where, ui_glyph(G_DOT));
    int rows = h - 4;
    if (!nlist) {
        ui_text(y0 + 3, x0 + 2, w - 4, A_NORMAL, "no saved run yet: a finished run is saved "
                "there (unless saving is off), and `accelscope run` saves one too");
        return;
    }
    ui_textf(y0 + 2, x0 + 3, w - 4, A_BOLD | A_UNDERLINE, "%-16s %-14s %-*s %s", "date (UTC)",
             "host", cpu_w(), "CPU", "file");
    if (cur < top)
        top = cur;
    if (cur >= top + rows)
        top = cur - rows + 1;
    for (int i = 0; i < rows && top + i < (int)nlist; i++)
        entry_draw(y0 + 3 + i, x0 + 1, w - 2, top + i);
}

static void choose(void)
{
    const struct store_entry *e = &list[cur];
    char why[600];
    if (!e->ok) {
        ui_set_status(1, "%s", e->why);
        return;
    }
    if (cmpv_load(e->path, why, sizeof why)) {
        ui_set_status(1, "%s", why);
        return;
    }
    active = 0;
    ui_set_status(0, "opened %s (%s %s %s): o opens another, x closes it, Esc goes back",
                  e->path, e->host, ui_glyph(G_DOT), e->cpu);
}

int open_key(int ch)
{
    switch (ch) {
    case 27: case 'q': active = 0; return 1;
    case KEY_UP: case 'k': cur--; break;
    case KEY_DOWN: case 'j': cur++; break;
    case KEY_PPAGE: cur -= 10; break;
    case KEY_NPAGE: cur += 10; break;
    case KEY_HOME: case 'g': cur = 0; break;
    case KEY_END: case 'G': cur = (int)nlist - 1; break;
    case '\r': case '\n': case KEY_ENTER:
        if (nlist)
            choose();
        return 1;
    default: return 1;
    }
    if (cur >= (int)nlist)
        cur = (int)nlist - 1;
    if (cur < 0)
        cur = 0;
    return 1;
}
