/* libFuzzer harness for the CSV reader (src/csvread.c): any bytes as a result file. The
 * reader must return rows or an error naming a line, and never crash, leak or read out of
 * bounds; what it read is then compared against itself (src/compare.c), as `compare` does
 * with two files, in the format the first byte picks. `make fuzz` builds and runs it, with
 * tests/fuzz/corpus/csvread and the result files of tests/data as seeds. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "compare.h"
#include "csvread.h"

/* Reads the bytes as a file named name into s; 0, or -1 (s empty) after checking the error. */
static int read_set(const uint8_t *data, size_t size, const char *name, struct csvread_set *s)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        abort();
    char why[512], want[64];
    *s = (struct csvread_set){ 0 };
    int rc = csvread_stream(f, name, s, why, sizeof why);
    fclose(f);
    snprintf(want, sizeof want, "%s: line ", name);
    if (rc && (!strstr(why, want) || s->n))
        abort(); /* every error names its line and leaves the set empty */
    for (size_t i = 0; !rc && i < s->n; i++)
        if (!s->rows[i].algorithm[0] || !s->rows[i].bytes ||
            (s->rows[i].ok && !s->rows[i].has_figure))
            abort(); /* a row the reader promised never to give */
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) /* fmemopen refuses a size of 0 */
        return 0;
    struct csvread_set sets[2];
    if (read_set(data, size, "fuzz.csv", &sets[0]) == 0) {
        if (read_set(data, size, "again.csv", &sets[1]) || sets[1].n != sets[0].n)
            abort(); /* the same bytes read the same way twice */
        struct compare_table t;
        char why[512];
        if (compare_build(sets, 2, data[0] & 1, &t, why, sizeof why) == 0) {
            static FILE *null;
            if (!null && !(null = fopen("/dev/null", "w")))
                abort();
            compare_write(null, &t, (enum compare_format)(data[0] >> 1 & 3));
            compare_free(&t);
        }
        csvread_free(&sets[1]);
    }
    csvread_free(&sets[0]);
    return 0;
}
