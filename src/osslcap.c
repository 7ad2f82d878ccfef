#include "osslcap.h"

#include <stdio.h>
#include <string.h>

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
