/* x86 feature detection straight from CPUID (Intel SDM vol. 2A, "CPUID"; AMD APM vol. 3,
 * appendix E; VIA PadLock Programming Guide for leaf 0xC0000001). libcpuid, where present,
 * adds only identity: codename, cores, caches. */
#include "cpu_probe.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_LIBCPUID
#include <libcpuid.h>
#endif

static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

/* XCR0 says which register state the OS saves on context switch (SDM 13.3). */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static void set(struct cpu_info *c, enum feature f, int present, int enabled)
{
    c->present[f] = present != 0;
    c->enabled[f] = present && enabled;
}

static void identity(struct cpu_info *c, unsigned max)
{
    unsigned r[4];
    cpuid(0, 0, r);
    memcpy(c->vendor, &r[1], 4);
    memcpy(c->vendor + 4, &r[3], 4);
    memcpy(c->vendor + 8, &r[2], 4);
    c->vendor[12] = 0;
    if (max >= 1) {
        cpuid(1, 0, r);
        unsigned fam = (r[0] >> 8) & 0xf, mod = (r[0] >> 4) & 0xf;
        if (fam == 0xf)
            fam += (r[0] >> 20) & 0xff;
        if (fam == 0x6 || fam >= 0xf)
            mod |= ((r[0] >> 16) & 0xf) << 4;
        c->family = (int)fam;
        c->model = (int)mod;
        c->stepping = (int)(r[0] & 0xf);
    }
    cpuid(0x80000000, 0, r);
    if (r[0] >= 0x80000004) {
        char b[49] = { 0 };
        for (unsigned i = 0; i < 3; i++) {
            cpuid(0x80000002 + i, 0, r);
            memcpy(b + 16 * i, r, 16);
        }
        /* The brand string is padded with blanks on either side in some CPUs and VMs. */
        const char *s = b;
        while (*s == ' ')
            s++;
        snprintf(c->brand, sizeof c->brand, "%s", s);
        for (size_t k = strlen(c->brand); k && c->brand[k - 1] == ' '; k--)
            c->brand[k - 1] = 0;
    }
}

static void libcpuid_identity(struct cpu_info *c)
{
#ifdef HAVE_LIBCPUID
    struct cpu_raw_data_t raw;
    struct cpu_id_t id;
    if (!cpuid_present() || cpuid_get_raw_data(&raw) < 0 || cpu_identify(&raw, &id) < 0)
        return;
    snprintf(c->codename, sizeof c->codename, "%s", id.cpu_codename);
    if (id.num_cores > 0)
        c->cores = id.num_cores;
    /* sysfs may be bare in a VM; libcpuid reads CPUID's cache leaves instead. */
    if (!c->l1d_kb && id.l1_data_cache > 0)
        c->l1d_kb = id.l1_data_cache;
    if (!c->l2_kb && id.l2_cache > 0)
        c->l2_kb = id.l2_cache;
    if (!c->l3_kb && id.l3_cache > 0)
        c->l3_kb = id.l3_cache;
#else
    (void)c;
#endif
}

void cpu_probe_x86(struct cpu_info *c)
{
    unsigned r[4], max;
    cpuid(0, 0, r);
    max = r[0];
    identity(c, max);

    unsigned ecx1 = 0, ebx7 = 0, ecx7 = 0;
    if (max >= 1) {
        cpuid(1, 0, r);
        ecx1 = r[2];
    }
    if (max >= 7) {
        cpuid(7, 0, r);
        ebx7 = r[1];
        ecx7 = r[2];
    }
    /* CPUID.1:ECX[27] OSXSAVE: XGETBV is usable. XCR0 bits 1,2 = SSE/AVX state; 5,6,7 =
     * AVX-512 opmask and upper ZMM state. */
    uint64_t xcr0 = (ecx1 >> 27) & 1 ? xgetbv0() : 0;
    int ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xe6) == 0xe6;

    set(c, FEAT_AESNI, ecx1 >> 25 & 1, 1);
    set(c, FEAT_PCLMULQDQ, ecx1 >> 1 & 1, 1);
    set(c, FEAT_SSSE3, ecx1 >> 9 & 1, 1);
    set(c, FEAT_AVX, ecx1 >> 28 & 1, ymm);
    set(c, FEAT_RDRAND, ecx1 >> 30 & 1, 1);
    set(c, FEAT_SHA, ebx7 >> 29 & 1, 1);
    set(c, FEAT_AVX2, ebx7 >> 5 & 1, ymm);
    set(c, FEAT_AVX512F, ebx7 >> 16 & 1, zmm);
    set(c, FEAT_BMI2, ebx7 >> 8 & 1, 1);
    set(c, FEAT_ADX, ebx7 >> 19 & 1, 1);
    set(c, FEAT_RDSEED, ebx7 >> 18 & 1, 1);
    set(c, FEAT_GFNI, ecx7 >> 8 & 1, 1);
    /* VAES/VPCLMULQDQ work on ymm (VEX) at least: they need AVX state saved. */
    set(c, FEAT_VAES, ecx7 >> 9 & 1, ymm);
    set(c, FEAT_VPCLMULQDQ, ecx7 >> 10 & 1, ymm);

    /* Centaur leaves: VIA and Zhaoxin only. EDX of 0xC0000001 holds each unit's
     * present bit and, one above it, its enabled bit. */
    if (!strcmp(c->vendor, "CentaurHauls") || !strcmp(c->vendor, "  Shanghai  ")) {
        cpuid(0xC0000000, 0, r);
        if (r[0] >= 0xC0000001) {
            cpuid(0xC0000001, 0, r);
            unsigned d = r[3];
            set(c, FEAT_PL_RNG, d >> 2 & 1, d >> 3 & 1);
            set(c, FEAT_PL_ACE, d >> 6 & 1, d >> 7 & 1);
            set(c, FEAT_PL_ACE2, d >> 8 & 1, d >> 9 & 1);
            set(c, FEAT_PL_PHE, d >> 10 & 1, d >> 11 & 1);
            set(c, FEAT_PL_PMM, d >> 12 & 1, d >> 13 & 1);
        }
    }
    libcpuid_identity(c);
}

#else

void cpu_probe_x86(struct cpu_info *c)
{
    (void)c;
}

#endif
