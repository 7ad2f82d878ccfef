/* Placeholder until the TUI lands. */
#include <stdio.h>

#include "ui.h"

int ui_main(int demo)
{
    (void)demo;
    fprintf(stderr, "accelscope: the TUI is not built yet; use 'accelscope info' or 'accelscope run'\n");
    return 1;
}
