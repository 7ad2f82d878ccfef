/* The TUI's single entry point; everything curses lives behind it in ui/. */
#ifndef ACCELSCOPE_UI_H
#define ACCELSCOPE_UI_H

/* Runs the interactive explorer (demo = 1: stage demo mode). Returns the exit status. */
int ui_main(int demo);

#endif
