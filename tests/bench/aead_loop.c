/* The per-message AEAD loop `openssl speed -aead` documents (apps/speed.c, OpenSSL 3.0:
 * re-init with the IV, 13 bytes of AAD, the payload, final), plus fetching the tag, which a
 * seal returns and speed.c leaves in the context. It is the yardstick for the AEADs whose
 * loop the openssl binary does not apply: Debian's openssl 3.0 speed runs ChaCha20-Poly1305
 * through its streaming loop even with -aead (no EVP_EncryptInit_ex in its timed loop, seen
 * under gdb), which is not what one AEAD operation means.
 *   aead_loop CIPHER BYTES SECONDS  ->  prints MB/s (10^6 bytes/s) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <openssl/evp.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: aead_loop CIPHER BYTES SECONDS\n");
        return 2;
    }
    int len = atoi(argv[2]);
    double secs = atof(argv[3]);
    static unsigned char key[32] = { 1 }, iv[12] = { 2 }, aad[13] = { 0xcc }, buf[1 << 20];
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, argv[1], NULL);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!c || !x || len < 1 || len > (int)sizeof buf - 16 ||
        !EVP_CipherInit_ex(x, c, NULL, key, iv, 1)) {
        fprintf(stderr, "aead_loop: cannot set up %s\n", argv[1]);
        return 1;
    }
    long ops = 0;
    int outl, bad = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 256; i++) {
            bad |= !EVP_EncryptInit_ex(x, NULL, NULL, NULL, iv);
            bad |= !EVP_EncryptUpdate(x, NULL, &outl, aad, sizeof aad);
            bad |= !EVP_EncryptUpdate(x, buf, &outl, buf, len);
            bad |= !EVP_EncryptFinal_ex(x, buf + len, &outl);
            bad |= !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, buf + len);
        }
        ops += 256;
        t = now() - t0;
    } while (t < secs);
    if (bad) {
        fprintf(stderr, "aead_loop: an EVP call failed\n");
        return 1;
    }
    printf("%.3f\n", (double)ops * len / t / 1e6);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return 0;
}
