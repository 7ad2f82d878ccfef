/* libFuzzer harness: the /proc/cpuinfo reader of the Arm identity (src/cpu_arm.c; built on
 * every architecture so that it is fuzzed where the fuzzer runs). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "cpu_probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        abort();
    unsigned long midr = cpu_arm_cpuinfo_midr(f);
    fclose(f);
    if (midr >> 32)
        abort(); /* MIDR_EL1 is a 32-bit register: fields must not spill */
    return 0;
}
