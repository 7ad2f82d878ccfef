/* ARM feature detection from the kernel's hwcaps (Linux Documentation/arch/arm64/
 * elf_hwcaps.rst): the kernel has already checked ID_AA64ISAR0_EL1 for us. */
#include "cpu_probe.h"

#if defined(__aarch64__)

#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

/* HWCAP bits from arch/arm64/include/uapi/asm/hwcap.h */
enum {
    HW_ASIMD = 1 << 1, HW_AES = 1 << 3, HW_PMULL = 1 << 4, HW_SHA1 = 1 << 5,
    HW_SHA2 = 1 << 6, HW_SHA3 = 1 << 17, HW_SM3 = 1 << 18, HW_SM4 = 1 << 19,
    HW_SHA512 = 1 << 21,
};

static const struct { enum feature f; unsigned long bit; } hw[] = {
    { FEAT_NEON, HW_ASIMD }, { FEAT_ARM_AES, HW_AES }, { FEAT_PMULL, HW_PMULL },
    { FEAT_SHA1, HW_SHA1 },  { FEAT_SHA2, HW_SHA2 },   { FEAT_SHA3, HW_SHA3 },
    { FEAT_SM3, HW_SM3 },    { FEAT_SM4, HW_SM4 },     { FEAT_SHA512, HW_SHA512 },
};

/* /proc/cpuinfo gives implementer and part numbers; a model name only on some kernels. */
static void identity(struct cpu_info *c)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    unsigned impl = 0, part = 0;
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "CPU implementer : %x", &impl);
        sscanf(line, "CPU part : %x", &part);
        if (!c->brand[0] && sscanf(line, "model name : %95[^\n]", c->brand) == 1)
            continue;
    }
    fclose(f);
    snprintf(c->vendor, sizeof c->vendor, "ARM implementer 0x%02x", impl);
    if (!c->brand[0])
        snprintf(c->brand, sizeof c->brand, "implementer 0x%02x part 0x%03x", impl, part);
    c->model = (int)part;
}

void cpu_probe_arm(struct cpu_info *c)
{
    unsigned long caps = getauxval(AT_HWCAP);
    for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
        c->present[hw[i].f] = (caps & hw[i].bit) != 0;
        c->enabled[hw[i].f] = c->present[hw[i].f];
    }
    identity(c);
}

#else

void cpu_probe_arm(struct cpu_info *c)
{
    (void)c;
}

#endif
