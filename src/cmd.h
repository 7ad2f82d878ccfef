/* The commands behind main(): each returns the process exit status. */
#ifndef ACCELSCOPE_CMD_H
#define ACCELSCOPE_CMD_H

#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
void cmd_usage(FILE *out);

#define EXIT_USAGE 2

#endif
