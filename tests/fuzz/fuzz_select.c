/* libFuzzer harness: the command-line lists and values `run` and the TUI's pickers parse
 * (src/select.c). The first byte picks the parser; the rest is the text. */
#include "fuzz.h"
#include "select.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    char *text = fuzz_text(data, size);
    static struct selection s;
    select_defaults(&s);
    char why[512];
    size_t one;
    int rc = 0;
    switch (data[0] % 9) {
    case 0: rc = select_algs(&s, text, why, sizeof why); break;
    case 1: rc = select_sizes(&s, text, why, sizeof why); break;
    case 2: rc = select_paths(&s, text, why, sizeof why); break;
    case 3: rc = select_impls(&s, text, why, sizeof why); break;
    case 4: rc = select_excludes(&s, text, why, sizeof why); break;
    case 5: rc = select_threads(&s, text, 64, why, sizeof why); break;
    case 6: rc = select_time(&s, text, why, sizeof why); break;
    case 7: rc = select_parse_size(text, &one, why, sizeof why); break;
    default:
        rc = select_sizes(&s, text, why, sizeof why) || select_check(&s, why, sizeof why);
        break;
    }
    if (rc == 0) { /* what was accepted is within the documented bounds */
        if (s.nalgs < 0 || s.nalgs > SELECT_MAX || s.nsizes < 0 || s.nsizes > SELECT_MAX ||
            s.nimpls < 0 || s.nimpls > SELECT_MAX || s.nexcl < 0 || s.nexcl > SELECT_MAX)
            abort();
        /* No repeats, each within 1..16 MiB. (select.h says "ascending", but select_sizes
         * keeps the order given; only the TUI's picker sorts: reported, not asserted.) */
        for (int i = 0; i < s.nsizes; i++) {
            if (s.sizes[i] < 1 || s.sizes[i] > 16u << 20)
                abort();
            for (int j = 0; j < i; j++)
                if (s.sizes[j] == s.sizes[i])
                    abort();
        }
        if (!(s.seconds >= SELECT_MIN_TIME && s.seconds <= SELECT_MAX_TIME))
            abort();
    } else if (!memchr(why, 0, sizeof why)) {
        abort();
    }
    free(text);
    return 0;
}
