/* See env.h. A word the program does not understand is never ignored: a misspelt deny word
 * would otherwise measure what the user meant to switch off. */
#include "env.h"

#include "afalg.h"
#include "cpu.h"

int env_check(char *why, size_t n)
{
    if (cpu_deny_check(why, n) || afalg_env_check(why, n))
        return -1;
    return 0;
}
