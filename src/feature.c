#include "feature.h"

#include <string.h>

const struct feature_desc feature_table[FEAT_COUNT] = {
#define X(id, lab, k, ar, w, b, wh) \
    [FEAT_##id] = { .label = lab, .key = k, .arch = ar, .capw = w, .capb = b, .where = wh },
    CPU_FEATURES(X)
#undef X
};

int feature_by_key(const char *key)
{
    for (int f = 0; f < FEAT_COUNT; f++)
        if (strcmp(feature_table[f].key, key) == 0)
            return f;
    return -1;
}

enum feature_arch feature_host_arch(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return ARCH_X86;
#else
    return ARCH_ARM;
#endif
}
