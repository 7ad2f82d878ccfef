/* libFuzzer harness: the /proc/crypto parser (src/kcrypto.c) over arbitrary text, then the
 * look-ups the AF_ALG backend makes on what it parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "kcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("proc-crypto", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        setenv("ACCELSCOPE_PROC_CRYPTO", path, 1);
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    char why[256];
    kcrypto_reload(why, sizeof why);
    static const char *const names[][2] = {
        { "cbc(aes)", "skcipher" }, { "gcm(aes)", "aead" }, { "sha256", "hash" },
        { "rfc7539(chacha20,poly1305)", "aead" }, { "md5", "hash" }, { "x", "rng" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        for (const struct kcrypto_driver *d = kcrypto_next(names[i][0], names[i][1], NULL); d;
             d = kcrypto_next(names[i][0], names[i][1], d))
            if (!kcrypto_by_driver(d->driver))
                abort(); /* every listed driver is found again by its name */
        kcrypto_default(names[i][0], names[i][1]);
    }
    return 0;
}
