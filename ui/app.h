/* The TUI's shared state and the small interface every screen and widget follows.
 * Only ui/ includes curses; the core (src/) is driven through engine.h, plan.h, select.h. */
#ifndef ACCELSCOPE_UI_APP_H
#define ACCELSCOPE_UI_APP_H

#include <poll.h>
#include <stddef.h>

#include "impl.h"
#include "plan.h"
#include "result.h"
#include "select.h"

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

enum ui_view { V_PATHS, V_SIZES, V_MATRIX, V_MACHINE, V_SETUP, V_COUNT };

struct rect { int y, x, h, w; };

/* A sequential measurement of a list of cells, one engine at a time (measure.c). */
struct runner {
    struct cell *cells; /* not owned */
    size_t n, i;           /* cell count; the one running */
    struct engine *e;      /* NULL when idle */
    int threads, decrypt;
    double seconds;
    double t0, cell_t0;    /* monotonic start of the run and of the cell */
    double busy;           /* seconds spent on cells that really ran */
    size_t ran;            /* how many of those */
    int active, cancelled;
};

struct app {
    /* What the user picked. */
    struct selection sel;
    char off[SELECT_MAX][64]; /* implementations switched off, as "path/name" */
    int noff;
    int decrypt, threads;
    double seconds;

    /* Cells of the current selection, with whatever was measured for them. */
    struct plan plan;
    struct runner run;

    /* What the user sees. */
    int view;
    int size_idx, alg_idx;   /* the size of the paths/matrix views; the algorithm of sizes */
    int log_scale;
    int cursor[V_COUNT], top[V_COUNT], left[V_COUNT];
    int help, demo, standalone_demo;
    char status[512];
    int status_err;

    /* The terminal. */
    int utf8, color;
    int quit;
    int rows, cols;

    /* Availability of every registry entry, probed once after the first frame. */
    int probed;
    unsigned char *avail;    /* registry index -> 1/0 */
    char (*why)[200];        /* registry index -> reason */

    /* `accelscope info` output, read from a child in the background (machine.c). */
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
const char *ui_size(size_t bytes, char *buf, size_t n);
/* Length in [0, 1] of a bar for v on the current scale (linear or log) with maximum hi and
 * smallest positive value lo. */
double ui_scale(double v, double lo, double hi);
void ui_set_status(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hit.c: clickable regions, registered while drawing. */
typedef void (*ui_hit_fn)(int arg, int y, int x);
void hit_clear(void);
void hit_add(int y, int x, int w, ui_hit_fn fn, int arg);
int hit_click(int y, int x); /* 1 when a region took it */

/* model.c: the selection, its plan, and availability. */
void model_init(void);
void model_probe(void);
void model_rebuild(void);               /* plan from selection, keeping matching results */
int model_impl_on(const struct impl *im);
void model_toggle_impl(enum path p, const char *name);
int model_avail(const struct impl *im, char *why, size_t n);
size_t model_cur_size(void);
const struct algo *model_cur_alg(void);
int model_locked(void);                 /* a run is going: the selection cannot change */

/* measure.c */
void runner_start(struct runner *r, struct cell *cells, size_t n, int threads,
                  double seconds, int decrypt);
int runner_pollfds(const struct runner *r, struct pollfd *fds, int max);
int runner_timeout_ms(const struct runner *r);
int runner_step(struct runner *r); /* 1 when a cell changed */
void runner_cancel(struct runner *r);
double runner_eta(const struct runner *r);
void measure_toggle(void);         /* the `r` key */
void measure_progress(int y, int w);

/* Screens and widgets: each has draw and key (1 = the key was used). */
void header_draw(struct rect r);      /* features.c: header + features strip */
int header_lines(int cols);
const char *header_cpu(char *buf, size_t n);
void footer_draw(int y);
void paths_view_draw(struct rect r);   int paths_view_key(int ch);
int view_size_key(int ch);
void sizes_view_draw(struct rect r);   int sizes_view_key(int ch);
void matrix_view_draw(struct rect r);  int matrix_view_key(int ch);
void machine_view_init(void);
void machine_view_draw(struct rect r); int machine_view_key(int ch);
int machine_view_pollfd(struct pollfd *fd);
void machine_view_input(void);
void setup_draw(struct rect r);        int setup_key(int ch);   /* pickers.c */
int setup_editing(void);
int pathspanel_items(void);            /* paths.c */
void pathspanel_draw(struct rect r, int cursor, int top, ui_hit_fn hit, int hitbase);
void pathspanel_activate(int k);
void pathspanel_all(int on);
void pathspanel_detail(int k, char *buf, size_t n);
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
    const struct cell *cell; /* NULL for a heading */
    const char *heading;
    char hbuf[96];
    double lo, hi;              /* the scale of its group */
    double slowest;             /* slowest verified figure in its group, for "xN" */
};
void chart_cell_row(int y, int x, int w, const struct chart_row *row, int selected);
void chart_legend(int y, int x, int w);
void chart_details(int y, int w, const struct cell *c);
void chart_group_scale(struct chart_row *rows, size_t from, size_t to);
const char *chart_direction(const struct algo *a);
const char *chart_status_short(const struct result *r);
double chart_ceiling(const struct cell *c); /* ceiling.c: the silicon's, 0 = unknown */
void ceiling_load(const char *info);
int ceiling_ready_for_run(void);
int ceiling_cancel_wait(void);
int chart_key_nav(int ch, int view, int nrows);
void chart_select_hit(int arg, int y, int x);
void chart_list_draw(struct rect r, struct chart_row *rows, size_t nrows, int view);
int chart_list_key(int ch, int view);
int chart_step_key(int ch, int *idx, int n);
struct chart_row *chart_rows(size_t need);

/* bench.c: hidden redraw timing (ACCELSCOPE_TUI_BENCH=N). */
int bench_maybe(void);
void ui_draw(void);

#endif
