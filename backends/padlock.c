/* Placeholder until this backend lands: lists no implementations. */
#include "registry.h"

static const struct impl *impls(size_t *count)
{
    *count = 0;
    return NULL;
}

const struct backend backend_padlock = { .name = "padlock", .impls = impls };
