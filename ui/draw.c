/* Drawing helpers shared by every screen: clipped text, bars, units, the status line. */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "app.h"
#include "report.h"

/* Bytes of s that fit in w columns (UTF-8 aware). */
static size_t fit(const char *s, int w, int *cols)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t off = 0, len = strlen(s);
    int c = 0;
    while (off < len) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s + off, len - off, &st);
        if (k == (size_t)-1 || k == (size_t)-2) {
            k = 1;
            wc = '?';
        } else if (k == 0) {
            break;
        }
        int cw = wcwidth(wc);
        if (cw < 0)
            cw = 1;
        if (c + cw > w)
            break;
        c += cw;
        off += k;
    }
    if (cols)
        *cols = c;
    return off;
}

void ui_text(int y, int x, int w, int attr, const char *s)
{
    if (w <= 0 || y < 0 || y >= ui.rows)
        return;
    int cols;
    size_t k = fit(s, w, &cols);
    attrset(attr);
    mvaddnstr(y, x, s, (int)k);
    attrset(A_NORMAL);
}

void ui_textf(int y, int x, int w, int attr, const char *fmt, ...)
{
    char b[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    ui_text(y, x, w, attr, b);
}

void ui_fill(int y, int x, int w, int attr)
{
    if (w <= 0)
        return;
    attrset(attr);
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
}

void ui_bar(int y, int x, int w, double frac, int attr)
{
    if (w <= 0 || !(frac > 0))
        return;
    if (frac > 1)
        frac = 1;
    int eighths = (int)lround(frac * w * 8);
    if (eighths < 1)
        eighths = 1; /* a measured figure is never invisible */
    int full = eighths / 8, part = eighths % 8;
    if (!ui.utf8) {
        attrset(attr);
        if (full)
            mvhline(y, x, '#', full);
        if (part >= 4 || (!full && part))
            mvaddch(y, x + full, '=');
        attrset(A_NORMAL);
        return;
    }
    static const wchar_t blocks[8] = { L' ', L'\u258f', L'\u258e', L'\u258d',
                                       L'\u258c', L'\u258b', L'\u258a', L'\u2589' };
    cchar_t cc;
    wchar_t s[2] = { L'\u2588', 0 };
    short pair = (short)PAIR_NUMBER(attr);
    attr_t a = (attr_t)attr & ~A_COLOR;
    setcchar(&cc, s, a, pair, NULL);
    if (full)
        mvhline_set(y, x, &cc, full);
    if (part) {
        s[0] = blocks[part];
        setcchar(&cc, s, a, pair, NULL);
        mvadd_wch(y, x + full, &cc);
    }
}

/* v in units of u[1], shown in u[0] (x1000), u[1] or u[2] (/1000): ten columns at most. */
static const char *rate_in(double v, const char *const u[3], char *buf, size_t n)
{
    if (v < 1)
        snprintf(buf, n, "%.0f %s", v * 1000, u[0]);
    else if (v < 10)
        snprintf(buf, n, "%.2f %s", v, u[1]);
    else if (v < 1000)
        snprintf(buf, n, "%.1f %s", v, u[1]);
    else if (v < 10000)
        snprintf(buf, n, "%.2f %s", v / 1000, u[2]);
    else
        snprintf(buf, n, "%.1f %s", v / 1000, u[2]);
    return buf;
}

const char *ui_rate(double mb, char *buf, size_t n)
{
    static const char *const u[3] = { "kB/s", "MB/s", "GB/s" };
    return rate_in(mb, u, buf, n);
}

const char *ui_algo_rate(const struct algo *a, double mb, char *buf, size_t n)
{
    static const char *const u[3] = { "op/s", "kop/s", "Mop/s" };
    if (!a || algo_sized(a))
        return ui_rate(mb, buf, n);
    return rate_in(algo_rate(a, mb) / 1000, u, buf, n);
}

const char *ui_algo_size(const struct algo *a, size_t bytes, char *buf, size_t n)
{
    return report_cell_size(a, bytes, buf, n);
}

const char *ui_size(size_t bytes, char *buf, size_t n)
{
    return report_size(bytes, buf, n);
}

double ui_scale(double v, double lo, double hi)
{
    if (!(v > 0) || !(hi > 0))
        return 0;
    if (!ui.log_scale || !(lo > 0) || lo >= hi)
        return v / hi;
    double base = lo / 4; /* the slowest bar keeps a visible length */
    return log(v / base) / log(hi / base);
}

void ui_set_status(int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui.status, sizeof ui.status, fmt, ap);
    va_end(ap);
    ui.status_err = err;
}
