/* The TUI's shared state and the small interface every screen and widget follows.
 * Only ui/ includes curses; the core (src/) is driven through session.h. */
#ifndef ACCELSCOPE_UI_APP_H
#define ACCELSCOPE_UI_APP_H

#include <poll.h>
#include <stddef.h>

#include "impl.h"
#include "result.h"
#include "session.h"

#define UI_MIN_COLS 80
#define UI_MIN_LINES 24

/* Colour roles; ui_attr() maps each to a colour pair, or to a plain attribute without colour. */
enum ui_role {
    ROLE_NORMAL,
    ROLE_PATH_C, ROLE_PATH_ASM, ROLE_PATH_HW, ROLE_PATH_KERNEL, /* bars, by path (path order) */
    ROLE_OK, ROLE_ABSENT, ROLE_WARN, ROLE_TITLE, ROLE_TAB, ROLE_TAB_ON, ROLE_KEY, ROLE_DIM, ROLE_BEST, ROLE_ERROR,
    ROLE_CURSOR, ROLE_DEMO, ROLE_DEMO_BIG,
    ROLE_COUNT
};

/* Glyphs with a UTF-8 and an ASCII form; see term.c. */
enum ui_glyph { G_YES, G_NO, G_PART, G_CURSOR, G_TIMES, G_PM, G_DOT, G_ELLIPSIS, G_MARK,
                G_LEFT, G_RIGHT, G_ARROW, G_COUNT };

enum ui_view { V_PATHS, V_SIZES, V_MATRIX, V_MACHINE, V_SETUP, V_SCALING, V_COUNT };

struct rect { int y, x, h, w; };

struct app {
    /* What is measured: the selection, its cells and their figures (src/session.h). The
     * stage demo holds a session of its own (demo.c). */
    struct session *s;

    /* What the user sees. */
    int view;
    int size_idx, alg_idx;   /* the size of the paths/matrix views; the algorithm of sizes */
    int log_scale;
    int show_unavail;        /* u: rows folded into their path's one reason, shown again */
    int cursor[V_COUNT], top[V_COUNT], left[V_COUNT];
    int help, demo, standalone_demo;
    char status[512];
    int status_err;
    int dirty;               /* something changed outside a key: draw again */

    /* The terminal. */
    int utf8, color;
    int quit;
    int rows, cols;

    /* `accelscope info --clock` output, read from a child in the background (view_machine.c). */
    char *info;
    size_t info_len;
    int info_fd, info_pid, info_done;
};

extern struct app ui;

/* term.c: the terminal, signals, colours and glyphs. */
int term_open(void); /* 0, or the exit status: 2 refused (message said), 1 failed */
void term_close(void);
int term_signal_pending(void); /* returns the signal number to exit with, or 0 */
int term_sigfd(void);          /* readable when a signal arrived */
void term_drain_sigfd(void);
int ui_attr(enum ui_role r);
int ui_path_role(enum path p);
const char *ui_glyph(enum ui_glyph g);
double ui_now(void);

/* draw.c: small drawing helpers shared by the screens. */
void ui_text(int y, int x, int w, int attr, const char *s); /* clipped to w columns */
void ui_textf(int y, int x, int w, int attr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void ui_fill(int y, int x, int w, int attr);
void ui_bar(int y, int x, int w, double frac, int attr); /* eighth blocks, ASCII fallback */
const char *ui_rate(double mb_per_s, char *buf, size_t n);  /* auto units */
/* ui_rate(), or operations per second for a public-key algorithm (algo.h: algo_rate). */
const char *ui_algo_rate(const struct algo *a, double mb_per_s, char *buf, size_t n);
const char *ui_size(size_t bytes, char *buf, size_t n);
const char *ui_algo_size(const struct algo *a, size_t bytes, char *buf, size_t n); /* "2048-bit" */
/* Length in [0, 1] of a bar for v on the current scale (linear or log) with maximum hi and
 * smallest positive value lo. */
double ui_scale(double v, double lo, double hi);
void ui_set_status(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hit.c: clickable regions, registered while drawing. */
typedef void (*ui_hit_fn)(int arg, int y, int x);
void hit_clear(void);
void hit_add(int y, int x, int w, ui_hit_fn fn, int arg);
int hit_click(int y, int x); /* 1 when a region took it */

/* app.c: the TUI's hold on its session. */
void app_init(void);
const struct selection *app_sel(void);
/* The selection to edit, or NULL (and the status line says why) while a run is going. */
struct selection *app_sel_edit(void);
void app_rebuild(void);                 /* after an edit: the plan follows, cursors stay valid */
size_t app_cur_size(void);
const struct algo *app_cur_alg(void);
int app_avail(const struct impl *im, char *why, size_t n);
void app_show_cmdline(void);            /* the `c` key */

/* run.c: measuring from the TUI. */
void run_key(void);                     /* r: start or cancel */
int run_cancel_key(void);               /* Esc: 1 when it cancelled something */
void run_progress_draw(int y, int w);
void run_event(enum session_event ev);  /* from the session's listener */

/* Screens and widgets: each has draw and key (1 = the key was used). */
void header_draw(struct rect r);      /* features.c: header + features strip */
int header_lines(int cols);
const char *header_cpu(char *buf, size_t n);
void footer_draw(int y);
void paths_view_draw(struct rect r);   int paths_view_key(int ch);
int view_size_key(int ch);
void sizes_view_draw(struct rect r);   int sizes_view_key(int ch);
int sizes_view_has(const struct algo *a, const struct algo *x); /* x's cells in a's view */
void matrix_view_draw(struct rect r);  int matrix_view_key(int ch);
void machine_view_init(void);
void machine_view_draw(struct rect r); int machine_view_key(int ch);
int machine_view_pollfd(struct pollfd *fd);
void machine_view_input(void);
void machine_view_end(void);
int machine_view_wait(void);          /* blocks until the info child is done; for bench.c */
void setup_view_draw(struct rect r);   int setup_view_key(int ch);   /* view_setup.c */
int setup_view_editing(void);
void scaling_view_draw(struct rect r); int scaling_view_key(int ch); /* view_scaling.c */
int panel_impls_init(void);            /* panel_impls.c: builds the items, returns how many */
void panel_impls_draw(struct rect r, int cursor, int top, ui_hit_fn hit, int hitbase);
void panel_impls_toggle(struct selection *sel, int k); /* space, Enter or a click on item k */
void panel_impls_all(struct selection *sel, int on);
void panel_impls_detail(int k, char *buf, size_t n);
void help_draw(void);                  int help_key(int ch);
int export_active(void);
void export_begin(void);
void export_draw(int y);               int export_key(int ch);
void demo_begin(int standalone);
void demo_draw(void);                  int demo_key(int ch);
int demo_pollfds(struct pollfd *fds, int max);
int demo_timeout_ms(void);
void demo_step(void);
void demo_end(void);

/* lineedit.c: a one-line text field. */
struct lineedit {
    char text[512];
    size_t len, pos;
};
void lineedit_set(struct lineedit *l, const char *s);
int lineedit_key(struct lineedit *l, int ch); /* 1 = used */
void lineedit_draw(const struct lineedit *l, int y, int x, int w, int attr);

/* Chart helpers shared by the three chart views (chart.c). */
struct chart_row {
    const struct cell *cell; /* NULL for a line of text */
    char text[256];          /* the line, when cell is NULL */
    int attr;                /* its attribute; 0 = a heading's (bold, underlined) */
    double lo, hi;              /* the scale of its group */
};
void chart_cell_row(int y, int x, int w, const struct chart_row *row, int selected);
void chart_legend(int y, int x, int w);
void chart_details(int y, int w, const struct cell *c);
void chart_group_scale(struct chart_row *rows, size_t from, size_t to);
const char *chart_direction(const struct algo *a);
const char *chart_status_short(const struct result *r);
/* A reason shared by every cell of a path (say AF_ALG missing: every kernel cell) is said
 * once: chart_folded() gives it (0 when the path is not folded, or u shows every row), and
 * chart_fold() drops the path's rows from rows[0..*n) and puts one line per folded path
 * first (rows must have room for PATH_COUNT more). */
int chart_folded(enum path p, char *why, size_t n);
void chart_fold(struct chart_row *rows, size_t *n);
int chart_key_nav(int ch, int view, int nrows);
void chart_select_hit(int arg, int y, int x);
void chart_list_draw(struct rect r, struct chart_row *rows, size_t nrows, int view);
int chart_list_key(int ch, int view);
int chart_step_key(int ch, int *idx, int n);
struct chart_row *chart_rows(size_t need);

/* view_compare.c: saved runs beside this one, one bar per machine and path (compare.h). */
struct compare_table;
int cmpv_load(const char *path, char *why, size_t n); /* another side; shows the view */
size_t cmpv_nfiles(void);
const char *cmpv_file(size_t i);
int cmpv_showing(void);                 /* the compare view stands in for the current view */
void cmpv_show(int on);                 /* on only when a file is open */
void cmpv_invalidate(void);             /* this run's figures changed */
const struct compare_table *cmpv_table(void); /* what the view shows; NULL when nothing */
size_t cmpv_size(void);                 /* the block size it shows */
void cmpv_draw(struct rect r);     int cmpv_key(int ch);
/* open.c: the `o` dialog listing saved runs. */
int open_active(void);
void open_begin(void);
void open_draw(void);                  int open_key(int ch);
/* demo_vs.c: demo --against, a saved board beside this one on stage. */
int demo_vs_active(void);
size_t demo_vs_algs(const char **out, size_t max); /* the saved file's algorithms known here */
double demo_vs_hi(const char *alg, size_t bytes);
void demo_vs_lane(int y, int x, int bw, int vw, double hi, const char *alg, enum path p,
                  size_t bytes, int bg);
void demo_vs_headline(int y, int w, const char *alg, size_t bytes, const struct cell *cells,
                      size_t n, int running, int bg);
/* run.c: whether a finished run is saved (store.h); on unless turned off. */
extern int ui_save_runs;
void run_save_toggle(void);

/* bench.c: hidden redraw timing (ACCELSCOPE_TUI_BENCH=N). */
int bench_maybe(void);
void ui_draw(void);

#endif
