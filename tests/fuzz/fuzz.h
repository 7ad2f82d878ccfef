/* Shared by the libFuzzer harnesses. */
#ifndef ACCELSCOPE_FUZZ_H
#define ACCELSCOPE_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input after its first byte (which picks what to fuzz), as a C string (malloc'd). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size);
    if (!text)
        abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    return text;
}

#endif
