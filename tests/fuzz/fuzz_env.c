/* libFuzzer harness: the environment lists every front end checks (src/env.c):
 * ACCELSCOPE_DENY (src/cpu.c) and ACCELSCOPE_AFALG_DRIVERS (backends/afalg.c). The first
 * byte picks the variable. */
#include "fuzz.h"
#include "env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    char *text = fuzz_text(data, size);
    const char *var = data[0] & 1 ? "ACCELSCOPE_AFALG_DRIVERS" : "ACCELSCOPE_DENY";
    setenv(var, text, 1);
    char why[512];
    why[0] = 0;
    if (env_check(why, sizeof why) && !why[0])
        abort(); /* a refusal always says why */
    unsetenv(var);
    free(text);
    return 0;
}
