/* `?`: every key, in a box over the current view, and how to read the figures (ties
 * included: see "Reading the charts"). */
#include <curses.h>
#include <string.h>

#include "app.h"

static const char *const lines[] = {
    "Everywhere",
    "  r            measure the selection; r again or Esc cancels",
    "  1 2 3 4 5 6  paths, sizes, matrix, machine, setup, scaling views",
    "  Tab S-Tab    next / previous view (a click on a tab too)",
    "  s            setup: algorithms, sizes, paths, threads, time",
    "  l            linear / log scale",
    "  c            the selection as the 'accelscope run' line that measures it",
    "  u            rows whose path shares one reason: folded into one line / shown",
    "  e            export the rows of this view: .csv .md .json .svg (by the name)",
    "  o            open a saved run beside this one (the compare view); O: the list",
    "  d            stage demo (any key pauses, q leaves it)",
    "  ?            this help (any key closes it)",
    "  Ctrl-L       redraw the screen",
    "  Esc          cancel a run, a dialog or a custom size being typed",
    "  mouse        click a tab, a picker item or a bar; the wheel scrolls",
    "  q            quit (cancels a running measurement)",
    "Charts (paths, sizes, matrix)",
    "  Up Down j k  select a bar (or click it); details below",
    "  PgUp PgDn    page; Home End first / last",
    "  < > , .      paths and matrix: block size; sizes: algorithm",
    "  Left Right   matrix: select a column",
    "Scaling view (with two or more thread counts)",
    "  < > [ ]      block size; algorithm",
    "  each row's MB/s at N threads, | = single-core ceiling x N (to reach),",
    "  efficiency = figure(N) / (N x figure(1)); off by more than 10 %: why",
    "  (noisy, shared unit, memory bound); overlap = N windows at once",
    "Compare view (o)",
    "  one bar per machine and path; xN over side A (this run, else the",
    "  first file); ~ = noisy figure, no claim; Up Down scroll; < > size;",
    "  x closes the file opened last; Esc or 1-6 back to the views",
    "Open list (o)",
    "  saved runs and *.csv here, newest first; Enter opens; Esc closes",
    "Machine view",
    "  Up Down PgUp PgDn Home End   scroll",
    "Setup",
    "  Left Right   column: algorithms, sizes and run, paths",
    "  Up Down      move; space or Enter toggles (or click)",
    "  + -          threads (the largest), time per cell; Enter on direction",
    "               flips it; Enter on threads types a list (1,2,4,all)",
    "  a n          all / none in this column",
    "  save runs    on: every finished run is kept (status line says where)",
    "  Enter on [+] type a custom size (e.g. 100, 4k, 1M)",
    "Export dialog",
    "  typing edits the name; Enter writes; Esc cancels; y/n to overwrite",
    "Reading the charts",
    "  bar colour = path; xN = speed-up over the slowest verified row of the",
    "  same algorithm, size and direction (never across sizes);",
    "  best of a column: * in the matrix, 'best' in the details line;",
    "  a tie (the 95% intervals of the fastest rows overlap, so neither is",
    "  known to be faster): = on each tied cell (matrix, and after xN) and",
    "  'tie for best' in the details line; the sizes view says which tie;",
    "  ~noisy = the figure or its xN never settled (interval wider than",
    "  +-5%, most samples disturbed, or the slowest row's two worker",
    "  processes read it apart; the slowest row when no other row's xN",
    "  over it is quiet): shown, but no xN and no star (matrix: ~);",
    "  ~spell = the column was measured in a turbulent spell (a quarter of",
    "  its rounds retaken), measured again after the rest and still so:",
    "  no xN, no star;",
    "  ~procs = the two worker processes that took the cell's rounds in",
    "  turn read it over 3% apart (and beyond their intervals): the",
    "  figure depends on the process; no xN, no star (matrix: ~); the",
    "  details line gives both;",
    "  'same code as asm openssl-simd' = a hardware row whose CPU lacks the",
    "  algorithm's crypto instructions: one code, one bar (matrix: ^);",
    "  'software' (matrix: s) = an engine row whose work libcrypto's own",
    "  software did (the engine does not handle it): never its path's figure;",
    "  +-N% = the samples' spread where it exceeds 5%; | = the silicon's",
    "  ceiling where known. A reason every row of a path shares (AF_ALG",
    "  missing) is said once for the path; u shows its rows. Features:",
    "  check = usable, half = present but not usable (denied or not",
    "  enabled), cross = absent.",
};

static int top;

void help_draw(void)
{
    int n = (int)(sizeof lines / sizeof lines[0]);
    int w = 74, h = n + 2;
    if (h > ui.rows - 2)
        h = ui.rows - 2;
    int y0 = (ui.rows - h) / 2, x0 = (ui.cols - w) / 2;
    if (top > n - (h - 2))
        top = n - (h - 2);
    if (top < 0)
        top = 0;
    for (int y = 0; y < h; y++)
        ui_fill(y0 + y, x0, w, A_NORMAL);
    attrset(ui_attr(ROLE_KEY));
    mvaddch(y0, x0, ACS_ULCORNER);
    mvhline(y0, x0 + 1, ACS_HLINE, w - 2);
    mvaddch(y0, x0 + w - 1, ACS_URCORNER);
    mvvline(y0 + 1, x0, ACS_VLINE, h - 2);
    mvvline(y0 + 1, x0 + w - 1, ACS_VLINE, h - 2);
    mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
    mvhline(y0 + h - 1, x0 + 1, ACS_HLINE, w - 2);
    mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
    attrset(A_NORMAL);
    ui_text(y0, x0 + 2, w - 4, A_BOLD, " Keys (any key closes; arrows scroll) ");
    for (int i = 0; i < h - 2 && top + i < n; i++) {
        const char *s = lines[top + i];
        ui_text(y0 + 1 + i, x0 + 2, w - 4, s[0] != ' ' ? A_BOLD | A_UNDERLINE : A_NORMAL, s);
    }
}

int help_key(int ch)
{
    if (ch == KEY_DOWN || ch == 'j')
        top++;
    else if (ch == KEY_UP || ch == 'k')
        top--;
    else if (ch != KEY_MOUSE && ch != KEY_RESIZE)
        ui.help = 0;
    return 1;
}
