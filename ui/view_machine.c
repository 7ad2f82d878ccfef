/* The machine view: everything `accelscope info --clock --limits` knows (CPU, features with
 * reasons, OpenSSL, kernel, clocks including the measured core clock, implementations, the
 * backends' own facts such as the /proc/crypto driver table, the silicon's limits),
 * scrollable. `info --clock` runs as a child once the session's ceilings are known (never
 * beside their microbenchmarks), so its probing never blocks a frame; the limits block is
 * the session's own measurement, printed in-process (silicon_describe prints what the
 * ceilings child measured, it does not measure again). */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"
#include "silicon.h"
#include "spawn.h"

void machine_view_init(void)
{
    ui.info_fd = -1;
    char why[200];
    char *argv[] = { "accelscope", "info", "--clock", NULL };
    pid_t pid = spawn_piped("/proc/self/exe", argv, NULL, &ui.info_fd, why, sizeof why);
    if (pid < 0) {
        ui.info_done = 1;
        ui_set_status(1, "machine view: cannot run 'accelscope info': %s", why);
        return;
    }
    ui.info_pid = pid;
}

int machine_view_pollfd(struct pollfd *fd)
{
    if (ui.info_fd < 0)
        return 0;
    *fd = (struct pollfd){ .fd = ui.info_fd, .events = POLLIN };
    return 1;
}

void machine_view_input(void)
{
    char b[4096];
    for (;;) {
        ssize_t k = read(ui.info_fd, b, sizeof b);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN)
            return;
        if (k <= 0) {
            close(ui.info_fd);
            ui.info_fd = -1;
            int st;
            waitpid(ui.info_pid, &st, 0);
            ui.info_done = 1;
            return;
        }
        char *n = realloc(ui.info, ui.info_len + (size_t)k + 1);
        if (!n)
            abort();
        ui.info = n;
        memcpy(ui.info + ui.info_len, b, (size_t)k);
        ui.info_len += (size_t)k;
        ui.info[ui.info_len] = 0;
    }
}

void machine_view_end(void)
{
    if (ui.info_fd < 0)
        return;
    kill(ui.info_pid, SIGKILL);
    waitpid(ui.info_pid, NULL, 0);
    close(ui.info_fd);
    ui.info_fd = -1;
}

int machine_view_wait(void)
{
    while (!ui.info_done && ui.info_fd >= 0) {
        struct pollfd fd = { .fd = ui.info_fd, .events = POLLIN };
        poll(&fd, 1, 1000);
        machine_view_input();
    }
    return ui.info_done;
}

/* The limits block, printed once from the session's measurement. */
static const char *limits_text(void)
{
    static char *text;
    if (text || !session_ceilings_ready(ui.s))
        return text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    fputs("\nSilicon limits\n", f);
    silicon_describe(f);
    if (fclose(f))
        abort();
    return text;
}

/* What the view shows: the child's `info --clock` with the limits block after the clock
 * lines, where `info --clock --limits` prints it. Rebuilt when either grows. */
static const char *shown_text(void)
{
    static char *text;
    static size_t had_len = (size_t)-1;
    static const char *had_limits;
    const char *lim = limits_text();
    if (text && had_len == ui.info_len && had_limits == lim)
        return text;
    free(text);
    const char *info = ui.info ? ui.info : "";
    const char *at = strstr(info, "  core clock:");
    size_t cut = at && strchr(at, '\n') ? (size_t)(strchr(at, '\n') + 1 - info) : strlen(info);
    if (asprintf(&text, "%.*s%s%s", (int)cut, info, lim ? lim : "",
                 info + cut) < 0)
        abort();
    had_len = ui.info_len;
    had_limits = lim;
    return text;
}

/* Lines of the info text (tabs and trailing blanks of libcpuid's brand string tidied). */
static int nlines_last;

static int line_role(const char *s, size_t len)
{
    if (len && s[0] != ' ')
        return A_BOLD | A_UNDERLINE;
    if (memmem(s, len, "core clock:", 11))
        return ui_attr(ROLE_OK);
    if (memmem(s, len, "unavailable", 11) || memmem(s, len, "cpu:no", 6) ||
        memmem(s, len, "cannot load", 11)) /* an ENGINE libcrypto cannot load */
        return ui_attr(ROLE_DIM);
    return A_NORMAL;
}

/* The value after "key:" on the info line that holds it, into buf. */
static const char *fact(const char *key, char *buf, size_t n)
{
    const char *s = ui.info ? strstr(ui.info, key) : NULL;
    if (!s) {
        snprintf(buf, n, "%s", ui.info_done ? "?" : "measuring");
        return buf;
    }
    s += strlen(key);
    size_t len = strcspn(s, "\n(");
    while (len && s[len - 1] == ' ')
        len--;
    snprintf(buf, n, "%.*s", (int)len, s);
    return buf;
}

static int draw_lines(struct rect r, const char *text, int top, int h)
{
    int n = 0;
    for (const char *s = text; *s; n++) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int y = r.y + 1 + n - top;
        if (n >= top && y < r.y + 1 + h) {
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), s);
            for (char *t = line; *t; t++)
                if (*t == '\t')
                    *t = ' ';
            ui_text(y, 1, r.w - 2, line_role(s, len), line);
        }
        s = e ? e + 1 : s + len;
    }
    return n;
}

void machine_view_draw(struct rect r)
{
    char core[64], tsc[64], key[24];
    /* info names the fixed-rate counter of its architecture (src/clock.h) */
    const char *counter = ui.info && strstr(ui.info, "generic timer: ") ? "generic timer" : "TSC";
    snprintf(key, sizeof key, "%s: ", counter);
    ui_textf(r.y, 1, r.w - 2, ui_attr(ROLE_OK) | A_BOLD,
             "core clock: %s %s %s: %s %s from accelscope info --clock --limits; arrows, PgUp/PgDn scroll",
             fact("core clock: ", core, sizeof core), ui_glyph(G_DOT), counter,
             fact(key, tsc, sizeof tsc), ui_glyph(G_DOT));
    int h = r.h - 1, *top = &ui.top[V_MACHINE];
    if (!ui.info_len) {
        ui_textf(r.y + 2, 2, r.w - 4, ui_attr(ROLE_WARN), "%s%s",
                 session_ceilings_ready(ui.s) ? "reading the machine (accelscope info --clock)"
                                              : "measuring the silicon's limits first",
                 ui_glyph(G_ELLIPSIS));
        return;
    }
    nlines_last = draw_lines(r, shown_text(), *top, h);
    if (!ui.info_done)
        ui_textf(r.y + r.h - 1, r.w - 30, 29, ui_attr(ROLE_WARN), "measuring the core clock%s",
                 ui_glyph(G_ELLIPSIS));
    if (*top > 0)
        ui_text(r.y + 1, r.w - 1, 1, ui_attr(ROLE_KEY), "^");
    if (*top + h < nlines_last)
        ui_text(r.y + h, r.w - 1, 1, ui_attr(ROLE_KEY), "v");
}

static int count_lines(void)
{
    int n = 0;
    for (const char *s = ui.info ? shown_text() : NULL; s && *s; s++)
        n += *s == '\n';
    return n;
}

int machine_view_key(int ch)
{
    int *top = &ui.top[V_MACHINE], page = ui.rows - 4 - header_lines(ui.cols);
    nlines_last = count_lines();
    switch (ch) {
    case KEY_UP: case 'k': (*top)--; break;
    case KEY_DOWN: case 'j': (*top)++; break;
    case KEY_PPAGE: *top -= page; break;
    case KEY_NPAGE: case ' ': *top += page; break;
    case KEY_HOME: case 'g': *top = 0; break;
    case KEY_END: case 'G': *top = nlines_last - page; break;
    default: return 0;
    }
    if (*top > nlines_last - page)
        *top = nlines_last - page;
    if (*top < 0)
        *top = 0;
    return 1;
}
