/* CPU crypto features, named once.
 *
 * Each X(...) row gives, in order:
 *   id    - enum suffix: FEAT_<id>
 *   label - shown in the UI and in `info`
 *   key   - CSV key and the word accepted by the deny list (ACCELSCOPE_DENY)
 *   arch  - ARCH_X86 or ARCH_ARM: the family whose detector fills it
 *   capw  - OpenSSL capability word (0 or 1 of OPENSSL_ia32cap; 0 of OPENSSL_armcap),
 *           -1 where OpenSSL has no bit for it
 *   capb  - bit number within that word
 *   where - where the hardware says so (CPUID leaf/register/bit or HWCAP name)
 */
#ifndef ACCELSCOPE_FEATURE_H
#define ACCELSCOPE_FEATURE_H

#define CPU_FEATURES(X)                                                                       \
    X(AESNI,      "AES-NI",       "aesni",       ARCH_X86, 0, 57, "CPUID.1:ECX[25]")          \
    X(PCLMULQDQ,  "PCLMULQDQ",    "pclmulqdq",   ARCH_X86, 0, 33, "CPUID.1:ECX[1]")           \
    X(SHA,        "SHA",          "sha",         ARCH_X86, 1, 29, "CPUID.7.0:EBX[29]")        \
    X(VAES,       "VAES",         "vaes",        ARCH_X86, 1, 41, "CPUID.7.0:ECX[9]")         \
    X(VPCLMULQDQ, "VPCLMULQDQ",   "vpclmulqdq",  ARCH_X86, 1, 42, "CPUID.7.0:ECX[10]")        \
    X(GFNI,       "GFNI",         "gfni",        ARCH_X86, 1, 40, "CPUID.7.0:ECX[8]")         \
    X(SSSE3,      "SSSE3",        "ssse3",       ARCH_X86, 0, 41, "CPUID.1:ECX[9]")           \
    X(AVX,        "AVX",          "avx",         ARCH_X86, 0, 60, "CPUID.1:ECX[28]+XCR0")     \
    X(AVX2,       "AVX2",         "avx2",        ARCH_X86, 1, 5,  "CPUID.7.0:EBX[5]+XCR0")    \
    X(AVX512F,    "AVX-512F",     "avx512f",     ARCH_X86, 1, 16, "CPUID.7.0:EBX[16]+XCR0")   \
    X(AVX512BW,   "AVX-512BW",    "avx512bw",    ARCH_X86, 1, 30, "CPUID.7.0:EBX[30]+XCR0")   \
    X(AVX512VL,   "AVX-512VL",    "avx512vl",    ARCH_X86, 1, 31, "CPUID.7.0:EBX[31]+XCR0")   \
    X(BMI2,       "BMI2",         "bmi2",        ARCH_X86, 1, 8,  "CPUID.7.0:EBX[8]")         \
    X(ADX,        "ADX",          "adx",         ARCH_X86, 1, 19, "CPUID.7.0:EBX[19]")        \
    X(RDRAND,     "RDRAND",       "rdrand",      ARCH_X86, 0, 62, "CPUID.1:ECX[30]")          \
    X(RDSEED,     "RDSEED",       "rdseed",      ARCH_X86, 1, 18, "CPUID.7.0:EBX[18]")        \
    X(PL_RNG,     "PadLock RNG",  "padlock-rng", ARCH_X86, -1, 0, "CPUID.C0000001:EDX[2,3]")  \
    X(PL_ACE,     "PadLock ACE",  "padlock-ace", ARCH_X86, -1, 0, "CPUID.C0000001:EDX[6,7]")  \
    X(PL_ACE2,    "PadLock ACE2", "padlock-ace2",ARCH_X86, -1, 0, "CPUID.C0000001:EDX[8,9]")  \
    X(PL_PHE,     "PadLock PHE",  "padlock-phe", ARCH_X86, -1, 0, "CPUID.C0000001:EDX[10,11]")\
    X(PL_PMM,     "PadLock PMM",  "padlock-pmm", ARCH_X86, -1, 0, "CPUID.C0000001:EDX[12,13]")\
    X(NEON,       "NEON",         "neon",        ARCH_ARM, 0, 0,  "HWCAP_ASIMD")              \
    X(ARM_AES,    "AES",          "aes",         ARCH_ARM, 0, 2,  "HWCAP_AES")                \
    X(PMULL,      "PMULL",        "pmull",       ARCH_ARM, 0, 5,  "HWCAP_PMULL")              \
    X(SHA1,       "SHA1",         "sha1",        ARCH_ARM, 0, 3,  "HWCAP_SHA1")               \
    X(SHA2,       "SHA2",         "sha2",        ARCH_ARM, 0, 4,  "HWCAP_SHA2")               \
    X(SHA3,       "SHA3",         "sha3",        ARCH_ARM, 0, 11, "HWCAP_SHA3")               \
    X(SHA512,     "SHA512",       "sha512",      ARCH_ARM, 0, 6,  "HWCAP_SHA512")             \
    X(SM3,        "SM3",          "sm3",         ARCH_ARM, 0, 9,  "HWCAP_SM3")                \
    X(SM4,        "SM4",          "sm4",         ARCH_ARM, 0, 10, "HWCAP_SM4")

enum feature_arch { ARCH_X86, ARCH_ARM };

enum feature {
#define X(id, label, key, arch, capw, capb, where) FEAT_##id,
    CPU_FEATURES(X)
#undef X
    FEAT_COUNT
};

struct feature_desc {
    const char *label;      /* shown to people */
    const char *key;        /* CSV key and deny-list word */
    enum feature_arch arch; /* detector family that fills it */
    int capw;               /* OpenSSL capability word, -1 none */
    int capb;               /* bit within that word */
    const char *where;      /* CPUID leaf/bit or HWCAP name */
};

extern const struct feature_desc feature_table[FEAT_COUNT];

/* Feature named by its key, or -1. */
int feature_by_key(const char *key);

/* The family this build's detector fills (ARCH_X86 on x86, ARCH_ARM elsewhere, where only
 * the ARM detector exists). */
enum feature_arch feature_host_arch(void);

#endif
