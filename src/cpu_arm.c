/* ARM feature detection from the kernel's hwcaps (Linux Documentation/arch/arm64/
 * elf_hwcaps.rst): the kernel has already checked ID_AA64ISAR0_EL1 for us. */
#include "cpu_probe.h"

#include <stdio.h>
#include <string.h>

/* Every architecture: the parser is fuzzed where the fuzzer runs (tests/fuzz). */
unsigned long cpu_arm_cpuinfo_midr(FILE *f)
{
    char line[256];
    unsigned impl = 0, part = 0, var = 0, rev = 0;
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "CPU implementer : %x", &impl);
        sscanf(line, "CPU variant : %x", &var);
        sscanf(line, "CPU part : %x", &part);
        sscanf(line, "CPU revision : %u", &rev);
    }
    return (unsigned long)(impl & 0xff) << 24 | (unsigned long)(var & 0xf) << 20 |
           (part & 0xfff) << 4 | (rev & 0xf);
}

#if defined(__aarch64__)

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

/* MIDR_EL1 fields (Arm ARM D19.2.100): implementer [31:24], variant [23:20], part [15:4],
 * revision [3:0]. */
static const struct { unsigned impl; const char *name; } implementers[] = {
    { 0x41, "Arm" },    { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x48, "HiSilicon" },
    { 0x4e, "NVIDIA" }, { 0x51, "Qualcomm" }, { 0x61, "Apple" },  { 0xc0, "Ampere" },
};

static const struct { unsigned impl, part; const char *name; } parts[] = {
    { 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" }, { 0x41, 0xd05, "Cortex-A55" },
    { 0x41, 0xd07, "Cortex-A57" }, { 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
    { 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" }, { 0x41, 0xd0c, "Neoverse-N1" },
    { 0x41, 0xd0d, "Cortex-A77" }, { 0x41, 0xd40, "Neoverse-V1" }, { 0x41, 0xd41, "Cortex-A78" },
    { 0x41, 0xd44, "Cortex-X1" },  { 0x41, 0xd46, "Cortex-A510" }, { 0x41, 0xd47, "Cortex-A710" },
    { 0x41, 0xd48, "Cortex-X2" },  { 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4f, "Neoverse-V2" },
};

#define HWCAP_CPUID_BIT (1ul << 11) /* the kernel emulates MRS of ID registers at EL0 */

/* The MIDR as the kernel (or qemu-user, which emulates the guest CPU's) reports it. Under
 * qemu-user /proc/cpuinfo is the host's, so it is only the fallback. */
static unsigned long read_midr(void)
{
    unsigned long v = 0;
    if (getauxval(AT_HWCAP) & HWCAP_CPUID_BIT) {
        __asm__ volatile("mrs %0, midr_el1" : "=r"(v));
        return v;
    }
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    v = cpu_arm_cpuinfo_midr(f);
    fclose(f);
    return v;
}

static void identity(struct cpu_info *c)
{
    unsigned long m = read_midr();
    unsigned impl = (m >> 24) & 0xff, part = (m >> 4) & 0xfff;
    const char *vendor = NULL, *name = NULL;
    for (size_t i = 0; i < sizeof implementers / sizeof implementers[0]; i++)
        if (implementers[i].impl == impl)
            vendor = implementers[i].name;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].impl == impl && parts[i].part == part)
            name = parts[i].name;
    if (vendor)
        snprintf(c->vendor, sizeof c->vendor, "%s", vendor);
    else
        snprintf(c->vendor, sizeof c->vendor, "implementer 0x%02x", impl);
    if (name)
        snprintf(c->brand, sizeof c->brand, "%s %s", vendor ? vendor : "", name);
    else
        snprintf(c->brand, sizeof c->brand, "%s part 0x%03x", c->vendor, part);
    c->family = (int)impl;
    c->model = (int)part;
    c->stepping = (int)(((m >> 20) & 0xf) << 4 | (m & 0xf));
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
