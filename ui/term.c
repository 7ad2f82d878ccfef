/* The terminal: curses set-up, colours or their monochrome stand-ins, glyphs with an ASCII
 * fallback, and signals. Whatever ends the program (q, Ctrl-C, Ctrl-\\, SIGTERM, SIGHUP, any
 * other signal that would end it, a crash) gives the terminal back as it was. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "cmd.h"
#include "env.h"

static struct termios saved_tio;
static int have_tio;
static int sigpipe_fd[2] = { -1, -1 };
static volatile sig_atomic_t pending_sig;
static int open_;

/* Strings the crash handler writes: fetched from terminfo while it is safe to. */
static char restore_seq[256];
static size_t restore_len;

double ui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_cap(const char *name)
{
    const char *s = tigetstr(name);
    if (!s || s == (char *)-1)
        return;
    size_t k = strlen(s);
    if (restore_len + k < sizeof restore_seq) {
        memcpy(restore_seq + restore_len, s, k);
        restore_len += k;
    }
}

/* The escapes that undo what curses did to the screen: mouse reporting, attributes, the
 * alternate screen, the hidden cursor. */
static void build_restore(void)
{
    static const char mouse_off[] = "\033[?1006l\033[?1002l\033[?1000l";
    const char *km = tigetstr("kmous");
    if (km && km != (char *)-1 && restore_len + sizeof mouse_off < sizeof restore_seq) {
        memcpy(restore_seq, mouse_off, sizeof mouse_off - 1);
        restore_len = sizeof mouse_off - 1;
    }
    add_cap("sgr0");
    add_cap("rmkx");
    add_cap("rmcup");
    add_cap("cnorm");
}

/* Async-signal-safe: termios back, screen back, then die by the same signal. */
static void on_crash(int sig)
{
    if (have_tio)
        tcsetattr(0, TCSANOW, &saved_tio);
    if (restore_len && write(1, restore_seq, restore_len) < 0) {
        /* nothing more can be done from here */
    }
    static const char msg[] = "\naccelscope: the interface crashed; the terminal was restored\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_stop_signal(int sig)
{
    int saved = errno;
    pending_sig = sig;
    if (sigpipe_fd[1] >= 0 && write(sigpipe_fd[1], "s", 1) < 0) {
    }
    errno = saved;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop_signal;
    /* Every signal whose default would end the program with the terminal left raw: the
     * ones a user sends (Ctrl-C, Ctrl-\\, kill) and the ones limits and timers send. */
    static const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR,
#ifdef SIGSTKFLT
                                SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
        sigaction(stop[i], &sa, NULL);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        sigaction(sig, &sa, NULL);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND;
    static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
        sigaction(crash[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int term_sigfd(void)
{
    return sigpipe_fd[0];
}

void term_drain_sigfd(void)
{
    char b[16];
    while (read(sigpipe_fd[0], b, sizeof b) > 0) {
    }
}

int term_signal_pending(void)
{
    return pending_sig;
}

static void init_colors(void)
{
    const char *nc = getenv("NO_COLOR");
    ui.color = has_colors() && !(nc && *nc);
    if (!ui.color)
        return;
    start_color();
    use_default_colors();
    init_pair(ROLE_PATH_C, COLOR_RED, -1);
    init_pair(ROLE_PATH_ASM, COLOR_YELLOW, -1);
    init_pair(ROLE_PATH_HW, COLOR_GREEN, -1);
    init_pair(ROLE_PATH_KERNEL, COLOR_CYAN, -1);
    init_pair(ROLE_OK, COLOR_GREEN, -1);
    init_pair(ROLE_ABSENT, COLOR_RED, -1);
    init_pair(ROLE_WARN, COLOR_YELLOW, -1);
    init_pair(ROLE_TITLE, COLOR_WHITE, COLOR_BLUE);
    init_pair(ROLE_TAB, -1, -1);
    init_pair(ROLE_TAB_ON, COLOR_BLACK, COLOR_CYAN);
    init_pair(ROLE_KEY, COLOR_CYAN, -1);
    init_pair(ROLE_DIM, -1, -1);
    init_pair(ROLE_BEST, COLOR_BLACK, COLOR_GREEN);
    init_pair(ROLE_ERROR, COLOR_WHITE, COLOR_RED);
    init_pair(ROLE_CURSOR, -1, -1);
    init_pair(ROLE_DEMO, COLOR_WHITE, COLOR_BLACK);
    init_pair(ROLE_DEMO_BIG, COLOR_YELLOW, COLOR_BLACK);
}

int ui_attr(enum ui_role r)
{
    static const int mono[ROLE_COUNT] = {
        [ROLE_OK] = A_BOLD, [ROLE_ABSENT] = A_DIM, [ROLE_WARN] = A_BOLD, [ROLE_TITLE] = A_REVERSE | A_BOLD,
        [ROLE_TAB_ON] = A_REVERSE | A_BOLD, [ROLE_KEY] = A_BOLD, [ROLE_DIM] = A_DIM,
        [ROLE_BEST] = A_REVERSE | A_BOLD, [ROLE_ERROR] = A_BOLD | A_UNDERLINE, [ROLE_CURSOR] = A_REVERSE,
        [ROLE_DEMO] = A_BOLD, [ROLE_DEMO_BIG] = A_BOLD,
    };
    static const int extra[ROLE_COUNT] = {
        [ROLE_OK] = A_BOLD, [ROLE_TITLE] = A_BOLD, [ROLE_TAB_ON] = A_BOLD, [ROLE_KEY] = A_BOLD,
        [ROLE_DIM] = A_DIM, [ROLE_BEST] = A_BOLD, [ROLE_ERROR] = A_BOLD, [ROLE_CURSOR] = A_REVERSE,
        [ROLE_DEMO] = A_BOLD, [ROLE_DEMO_BIG] = A_BOLD, [ROLE_PATH_HW] = A_BOLD,
    };
    if (r == ROLE_NORMAL)
        return A_NORMAL;
    if (!ui.color)
        return mono[r];
    return (int)COLOR_PAIR(r) | extra[r];
}

int ui_path_role(enum path p)
{
    return ROLE_PATH_C + (int)p;
}

const char *ui_glyph(enum ui_glyph g)
{
    static const char *const utf8[G_COUNT] = {
        [G_YES] = "\u2714", [G_NO] = "\u2718", [G_PART] = "\u25d0", [G_CURSOR] = "\u25b6",
        [G_TIMES] = "\u00d7", [G_PM] = "\u00b1", [G_DOT] = "\u00b7", [G_ELLIPSIS] = "\u2026",
        [G_MARK] = "\u2502", [G_LEFT] = "\u25c0", [G_RIGHT] = "\u25b6", [G_ARROW] = "\u2192",
    };
    static const char *const ascii[G_COUNT] = {
        [G_YES] = "+", [G_NO] = "-", [G_PART] = "~", [G_CURSOR] = ">", [G_TIMES] = "x",
        [G_PM] = "~", [G_DOT] = ".", [G_ELLIPSIS] = ".", [G_MARK] = "|", [G_LEFT] = "<",
        [G_RIGHT] = ">", [G_ARROW] = "*",
    };
    return ui.utf8 ? utf8[g] : ascii[g];
}

/* What the TUI cannot work without, checked before the terminal is touched: the same
 * environment `run` accepts, a terminal on stdin and stdout, and a TERM whose terminfo can
 * move the cursor (TERM=dumb draws one unusable line). 0, or -1 and why. */
static int refuse(char *why, size_t n)
{
    char env[512];
    if (env_check(env, sizeof env)) {
        snprintf(why, n, "%s", env);
        return -1;
    }
    if (!isatty(0) || !isatty(1)) {
        snprintf(why, n, "the interactive explorer needs a terminal on standard input and "
                 "output");
        return -1;
    }
    const char *t = getenv("TERM");
    int err = 0;
    if (!t || !*t || setupterm(NULL, 1, &err) != OK) {
        snprintf(why, n, "TERM=%s is %s", t ? t : "", !t || !*t ? "not set" :
                 "not a terminal type this system's terminfo knows");
        return -1;
    }
    const char *cup = tigetstr("cup");
    int ok = cup && cup != (char *)-1;
    del_curterm(cur_term);
    if (!ok) {
        snprintf(why, n, "TERM=%s cannot move the cursor, which the explorer needs", t);
        return -1;
    }
    return 0;
}

int term_open(void)
{
    setlocale(LC_ALL, "");
    /* The character set from the user's locale, numbers from C's: the TUI writes figures to
     * files (CSV, JSON) and to its workers' command lines, which read them with '.' (a
     * locale's "1234,5" is refused there) */
    setlocale(LC_NUMERIC, "C");
    const char *cs = nl_langinfo(CODESET);
    ui.utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    char why[600];
    if (refuse(why, sizeof why)) {
        fprintf(stderr, "accelscope: %s; use 'accelscope run' (or 'accelscope info') "
                "instead\n", why);
        return EXIT_USAGE;
    }
    have_tio = tcgetattr(0, &saved_tio) == 0;
    if (pipe2(sigpipe_fd, O_CLOEXEC | O_NONBLOCK))
        return 1;
    install_signals();
    set_escdelay(25);
    if (!initscr())
        return 1;
    open_ = 1;
    build_restore();
    cbreak(); /* not raw: Ctrl-C stays a signal, handled like SIGTERM */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              , NULL);
    mouseinterval(0);
    init_colors();
    getmaxyx(stdscr, ui.rows, ui.cols);
    return 0;
}

void term_close(void)
{
    if (!open_)
        return;
    open_ = 0;
    mousemask(0, NULL);
    endwin();
    if (have_tio)
        tcsetattr(0, TCSANOW, &saved_tio);
}
