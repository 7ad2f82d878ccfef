/* x86 feature detection straight from CPUID (Intel SDM vol. 2A, "CPUID"; AMD APM vol. 3,
 * appendix E; VIA PadLock Programming Guide for leaf 0xC0000001). libcpuid, where present,
 * adds only identity: codename, cores, caches. */
#include "cpu_probe.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>
#include <stdint.h>

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
    if (cpu_codename_trusted(c->vendor, c->family, c->model, cpuid_lib_version(),
                             c->codename_note, sizeof c->codename_note))
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
    set(c, FEAT_AVX512BW, ebx7 >> 30 & 1, zmm);
    set(c, FEAT_AVX512VL, ebx7 >> 31 & 1, zmm);
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

/* What libcpuid 0.6.2 (Debian 12) has tables for, from its recog_amd.c and recog_intel.c:
 * AMD families 0x0F-0x19 (0x19: Milan, Vermeer, Rembrandt, Cezanne, Raphael; not Genoa,
 * Phoenix or Bergamo), Hygon family 0x18, Intel families 5, 15 and the family 6 models below
 * (up to Alder Lake and Raptor Lake-S; not Sapphire Rapids, Meteor Lake or later). Outside
 * them libcpuid still answers, with the nearest entry it has. */
static const unsigned char intel6_known[] = {
    0x01, 0x03, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0d, 0x0e, 0x0f, 0x16, 0x17, 0x1a,
    0x1c, 0x1d, 0x1e, 0x1f, 0x25, 0x26, 0x27, 0x2a, 0x2c, 0x2d, 0x2e, 0x2f, 0x35, 0x36, 0x37,
    0x3a, 0x3c, 0x3d, 0x3e, 0x3f, 0x45, 0x46, 0x47, 0x4a, 0x4c, 0x4d, 0x4e, 0x4f, 0x55, 0x56,
    0x5a, 0x5c, 0x5d, 0x5e, 0x5f, 0x66, 0x6a, 0x6c, 0x7a, 0x7d, 0x7e, 0x8c, 0x8d, 0x8e, 0x97,
    0x9a, 0x9e, 0xa5, 0xa6, 0xa7, 0xb7,
};

static int amd_known(int family, int model)
{
    if (family < 0x0f || family > 0x19)
        return 0;
    if (family != 0x19)
        return 1;
    return model <= 0x0f || (model >= 0x20 && model <= 0x2f) || (model >= 0x40 && model <= 0x6f);
}

static int intel_known(int family, int model)
{
    if (family == 5 || family == 15)
        return 1;
    if (family != 6)
        return 0;
    for (size_t i = 0; i < sizeof intel6_known; i++)
        if (intel6_known[i] == model)
            return 1;
    return 0;
}

/* 1 when version a.b.c is newer than 0.6.2, whose tables the lists above describe. */
static int newer_than_062(const char *v)
{
    int a = 0, b = 0, c = 0;
    if (!v || sscanf(v, "%d.%d.%d", &a, &b, &c) < 2)
        return 0;
    return a > 0 || b > 6 || (b == 6 && c > 2);
}

int cpu_codename_trusted(const char *vendor, int family, int model, const char *libver,
                         char *note, size_t n)
{
    int known;
    if (!strcmp(vendor, "AuthenticAMD"))
        known = amd_known(family, model);
    else if (!strcmp(vendor, "HygonGenuine"))
        known = family == 0x18;
    else if (!strcmp(vendor, "GenuineIntel"))
        known = intel_known(family, model);
    else
        known = 0; /* VIA, Zhaoxin, ...: libcpuid's tables for them are thin */
    /* A libcpuid newer than 0.6.2 has tables the lists above do not describe: its answer
     * is taken. */
    if (known || newer_than_062(libver)) {
        note[0] = 0;
        return 1;
    }
    snprintf(note, n, "unknown to libcpuid %s (family 0x%x model 0x%x)", libver ? libver : "?",
             (unsigned)family, (unsigned)model);
    return 0;
}
