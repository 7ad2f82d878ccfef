#include <string.h>

#include "impl.h"

const char *const path_id[PATH_COUNT] = { "c", "asm", "hw", "kernel" };
const char *const path_label[PATH_COUNT] = { "no-asm", "asm", "hardware", "kernel" };

int path_by_id(const char *id)
{
    for (int p = 0; p < PATH_COUNT; p++)
        if (strcmp(path_id[p], id) == 0)
            return p;
    return -1;
}
