/* See env.h. A word the program does not understand is never ignored: a misspelt deny word
 * would otherwise measure what the user meant to switch off. */
#include "env.h"

#include "cpu.h"
#include "registry.h"

int env_check(char *why, size_t n)
{
    if (cpu_deny_check(why, n))
        return -1;
    const struct backend *const *b;
    size_t nb = registry_backends(&b);
    for (size_t i = 0; i < nb; i++)
        if (b[i]->check_env && b[i]->check_env(why, n))
            return -1;
    return 0;
}
