/* The TUI's single entry point; everything curses lives behind it in ui/. */
#ifndef ACCELSCOPE_UI_H
#define ACCELSCOPE_UI_H

/* Runs the interactive explorer (demo = 1: stage demo mode). Returns the exit status. */
int ui_main(int demo);
/* The stage demo beside a saved run (FILE.csv of `run --csv`): a file that cannot be read is
 * said on stderr and exit status 2, before the terminal is touched. */
int ui_demo_against(const char *path);

#endif
