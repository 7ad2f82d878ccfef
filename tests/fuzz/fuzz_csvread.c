/* libFuzzer harness for the CSV reader (src/csvread.c): any bytes as a result file. The
 * reader must return rows or an error naming a line, and never crash, leak or read out of
 * bounds. Built with clang, the reader instrumented, the rest from the core library (`make`):
 *   clang -std=gnu11 -D_GNU_SOURCE -DACCELSCOPE_VERSION='"fuzz"' -g -O1 \
 *       -fsanitize=fuzzer,address,undefined -iquote src tests/fuzz/fuzz_csvread.c \
 *       src/csvread.c build/native/libaccelscope.a \
 *       $(pkg-config --libs libcrypto ncursesw libcpuid) -lpthread -lm -o fuzz_csvread
 * and run on the result files in tests/data as seeds (copied: libFuzzer adds to its corpus):
 *   mkdir corpus && cp tests/data/\*.csv corpus && ./fuzz_csvread -max_len=4096 corpus */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size ? size : 1, "r");
    if (!f)
        return 0;
    if (!size)
        fgetc(f); /* fmemopen refuses a size of 0: read the one byte away */
    struct csvread_set s;
    char why[512];
    if (csvread_stream(f, "fuzz.csv", &s, why, sizeof why) == 0) {
        for (size_t i = 0; i < s.n; i++)
            if (!s.rows[i].algorithm[0] || !s.rows[i].bytes || (s.rows[i].ok && !s.rows[i].has_figure))
                abort(); /* a row the reader promised never to give */
        csvread_free(&s);
    } else if (!strstr(why, "fuzz.csv: line ")) {
        abort(); /* every error names its line */
    }
    fclose(f);
    return 0;
}
