#include "osslcap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "cpu.h"

int osslcap_parse(const char *s, uint64_t w[2])
{
    unsigned long long a = 0, b = 0;
    const char *eq = s ? strchr(s, '=') : NULL;
    w[0] = w[1] = 0;
    if (!eq)
        return 0;
    int k = sscanf(eq + 1, "0x%llx:0x%llx", &a, &b);
    w[0] = a;
    w[1] = b;
    return k < 0 ? 0 : k;
}

int osslcap_has(const uint64_t w[2], int nwords, enum feature f)
{
    const struct feature_desc *d = &feature_table[f];
    if (d->capw < 0 || d->capw >= nwords)
        return -1;
#if defined(__x86_64__) || defined(__i386__)
    if (d->arch != ARCH_X86)
        return -1;
#elif defined(__aarch64__)
    if (d->arch != ARCH_ARM)
        return -1;
#else
    return -1;
#endif
    return (int)((w[d->capw] >> d->capb) & 1);
}

/* OpenSSL's environment variable for the mask on this architecture, NULL where it has none. */
static const char *mask_name(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return "OPENSSL_ia32cap";
#elif defined(__aarch64__)
    return "OPENSSL_armcap";
#else
    return NULL;
#endif
}

/* Denying a feature also takes from OpenSSL's vector the features no CPU has without it
 * (cpu_deny_close: VAES without AES-NI, AVX2 without AVX...), as OpenSSL's code for those
 * tests their own bit only: 3.1 and later pick the VAES-AVX512 GCM before testing AES-NI
 * (providers' cipher_aes_gcm_hw.c), its AVX2 code does not test AVX. Without these the hw row
 * of a denied AES-NI could still run VAES. And those whose OpenSSL code uses another's
 * instructions without testing its bit, here: */
static const struct {
    enum feature denied, also;
} implied[] = {
    { FEAT_SSSE3, FEAT_AVX },      /* no CPU has AVX without SSSE3 */
    { FEAT_SSSE3, FEAT_AESNI },    { FEAT_SSSE3, FEAT_PCLMULQDQ }, /* its AES-NI, CLMUL GHASH */
    { FEAT_SSSE3, FEAT_SHA },      /* and SHA-NI code use PSHUFB, testing only their own bit */
};

int osslcap_deny_bits_of(const unsigned char denied[FEAT_COUNT], uint64_t d[2])
{
    unsigned char off[FEAT_COUNT];
    int any = 0, grew = 1;
    d[0] = d[1] = 0;
    memcpy(off, denied, sizeof off);
    while (grew) { /* the closure: SSSE3 denied takes AVX, which takes AVX2, then AVX-512 */
        grew = cpu_deny_close(off);
        for (size_t i = 0; i < sizeof implied / sizeof implied[0]; i++)
            if (off[implied[i].denied] && !off[implied[i].also])
                off[implied[i].also] = 1, grew = 1;
    }
    for (int f = 0; f < FEAT_COUNT; f++) {
        const struct feature_desc *fd = &feature_table[f];
        if (fd->arch != feature_host_arch() || fd->capw < 0 || !off[f])
            continue;
        d[fd->capw] |= (uint64_t)1 << fd->capb;
        any = 1;
    }
    return any && mask_name();
}

int osslcap_deny_bits(uint64_t d[2])
{
    unsigned char denied[FEAT_COUNT];
    for (int f = 0; f < FEAT_COUNT; f++)
        denied[f] = (unsigned char)cpu_denied((enum feature)f);
    return osslcap_deny_bits_of(denied, d);
}

/* One word of an OPENSSL_ia32cap value as OpenSSL 3 reads it (crypto/cpuid.c): "~N" clears
 * N from the word it holds, "N" replaces it, "" (word 0 only, before ':') keeps what CPUID
 * found; N is decimal, 0x hex or 0 octal. (A whole word 0 skips CPUID, so word 2 starts
 * at 0 there: a "~N" after it still leaves no bit on that was off.) */
struct word {
    int clear; /* 1: the bits clear from the detected word; 0: the whole word */
    uint64_t v;
};

static int parse_word(const char *s, size_t len, struct word *w, int empty_keeps)
{
    char buf[40], *end;
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    w->clear = buf[0] == '~';
    if (!buf[w->clear]) { /* "~" clears nothing; "" before ':' keeps the word, else is 0 */
        w->v = 0;
        w->clear = w->clear || empty_keeps;
        return 0;
    }
    if (buf[w->clear] < '0' || buf[w->clear] > '9')
        return -1; /* strtoull would take a sign or spaces, which OpenSSL reads as 0 */
    errno = 0;
    w->v = strtoull(buf + w->clear, &end, 0);
    return errno || *end ? -1 : 0;
}

static void put_word(char *b, size_t n, const struct word *w, uint64_t deny)
{
    if (w->clear)
        snprintf(b, n, "~0x%llx", (unsigned long long)(w->v | deny));
    else
        snprintf(b, n, "0x%llx", (unsigned long long)(w->v & ~deny));
}

/* A whole mask value (s, len bytes, without NAME=) as OpenSSL reads it for name: one word for
 * OPENSSL_armcap (crypto/armcap.c: strtoul; never "~"), two for OPENSSL_ia32cap (no ':' zeroes
 * word 2; an empty word 2 is refused, though OpenSSL reads it as 0). 0, or -1. */
static int parse_value(const char *name, const char *s, size_t len, struct word w[2])
{
    w[1] = (struct word){ .clear = 0, .v = 0 };
    if (!strcmp(name, "OPENSSL_armcap"))
        return parse_word(s, len, &w[0], 0) || w[0].clear ? -1 : 0;
    const char *colon = memchr(s, ':', len);
    size_t first = colon ? (size_t)(colon - s) : len;
    if (parse_word(s, first, &w[0], colon != NULL))
        return -1;
    return colon && (first + 1 == len || parse_word(colon + 1, len - first - 1, &w[1], 0)) ? -1
                                                                                        : 0;
}

int osslcap_add_deny(const char *name, const char *base, const uint64_t d[2], char *buf,
                     size_t n)
{
    struct word w[2];
    if (parse_value(name, base, strlen(base), w))
        return -1;
    if (!strcmp(name, "OPENSSL_armcap")) {
        snprintf(buf, n, "%s=0x%llx", name, (unsigned long long)(w[0].v & ~d[0]));
        return 0;
    }
    char a[24], b[24];
    put_word(a, sizeof a, &w[0], d[0]);
    put_word(b, sizeof b, &w[1], d[1]);
    snprintf(buf, n, "%s=%s:%s", name, a, b);
    return 0;
}

/* What a worker of a row whose own mask is row_env (NAME=VALUE, or NULL) is to be given:
 * *out (row_env, or buf). 0 when ACCELSCOPE_DENY reaches OpenSSL there or denies nothing of
 * OpenSSL's; -1 and why when it cannot (the row then runs as it would without the denial). */
static int worker_env(const char *row_env, char *buf, size_t n, const char **out, char *why,
                      size_t wn)
{
    uint64_t d[2];
    const char *name = mask_name();
    *out = row_env;
    if (!osslcap_deny_bits(d))
        return 0;
    size_t len = strlen(name);
    const char *base;
    char detected[40];
    if (row_env && !strncmp(row_env, name, len) && row_env[len] == '=')
        base = row_env + len + 1;
    else if (row_env)
        return 0; /* another variable: nothing of OpenSSL's to add to */
    else if ((base = getenv(name)))
        ; /* the user's own mask, which the row gets as it is */
    else if (!strcmp(name, "OPENSSL_armcap")) { /* a whole value: start from the detected */
        uint64_t w[2];
        if (osslcap_parse(OpenSSL_version(OPENSSL_CPU_INFO), w) < 1) {
            snprintf(why, wn, "libcrypto does not give its capability vector to take the "
                              "denied features from, so they run as the CPU has them");
            return -1;
        }
        snprintf(detected, sizeof detected, "0x%llx", (unsigned long long)w[0]);
        base = detected;
    } else {
        snprintf(buf, n, "%s=~0x%llx:~0x%llx", name, (unsigned long long)d[0],
                 (unsigned long long)d[1]); /* both words as detected, less the denied */
        *out = buf;
        return 0;
    }
    if (osslcap_add_deny(name, base, d, buf, n)) {
        snprintf(why, wn, "your %s=%.40s is not a value accelscope can add the denial to: "
                          "they run with it as it is", name, base);
        return -1;
    }
    *out = buf;
    return 0;
}

int osslcap_env_cleared(const char *capvec, uint64_t c[2])
{
    const char *env = capvec ? strstr(capvec, " env:") : NULL, *name = mask_name();
    struct word w[2];
    c[0] = c[1] = 0;
    if (!env || !name || parse_value(name, env + 5, strcspn(env + 5, " "), w))
        return 0;
    if (!strcmp(name, "OPENSSL_armcap")) {
        c[0] = ~w[0].v & 0xffffffffu;
        return 1;
    }
    for (int k = 0; k < 2; k++)
        c[k] = w[k].clear ? w[k].v : ~w[k].v;
    return 1;
}

const char *osslcap_worker_env(const char *row_env, char *buf, size_t n)
{
    const char *out;
    char why[256];
    worker_env(row_env, buf, n, &out, why, sizeof why);
    return out;
}

int osslcap_deny_missed(char *why, size_t n)
{
    char buf[OSSLCAP_ENV_MAX];
    const char *out;
    return worker_env(NULL, buf, sizeof buf, &out, why, n) ? 1 : 0;
}
