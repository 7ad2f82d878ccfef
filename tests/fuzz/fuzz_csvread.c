/* libFuzzer harness: the CSV reader of `accelscope compare` (src/csvread.c), then a
 * comparison of what it read against itself (src/compare.c), as compare does with two files. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "compare.h"
#include "csvread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        abort();
    struct csvread_set sets[2] = { { 0 }, { 0 } };
    char why[512];
    why[0] = 0;
    int rc = csvread_stream(f, "fuzz.csv", &sets[0], why, sizeof why);
    fclose(f);
    if (rc && (!why[0] || sets[0].n))
        abort(); /* an error says why and leaves the set empty */
    if (!rc) {
        f = fmemopen((void *)data, size, "r");
        if (!f || csvread_stream(f, "again.csv", &sets[1], why, sizeof why))
            abort(); /* the same bytes read the same way twice */
        fclose(f);
        struct compare_table t;
        if (compare_build(sets, 2, data[0] & 1, &t, why, sizeof why) == 0) {
            static FILE *null;
            if (!null && !(null = fopen("/dev/null", "w")))
                abort();
            compare_write(null, &t, (enum compare_format)(data[0] >> 1 & 3));
            compare_free(&t);
        }
    }
    csvread_free(&sets[0]);
    csvread_free(&sets[1]);
    return 0;
}
