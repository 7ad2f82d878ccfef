#include "algo.h"

#include <stdio.h>
#include <string.h>

/* AES rounds: AES-NI or VAES on x86, the ARMv8 AES instructions on Arm; GCM adds the
 * carry-less multiplies of GHASH. */
#define AES_ACCEL .accel = { FEAT_AESNI, FEAT_VAES, FEAT_ARM_AES }, .naccel = 3
#define GCM_ACCEL                                                                             \
    .accel = { FEAT_AESNI, FEAT_VAES, FEAT_ARM_AES, FEAT_PCLMULQDQ, FEAT_VPCLMULQDQ, FEAT_PMULL }, \
    .naccel = 6

#define CBC(bits, k)                                                                          \
    { .id = "aes-" #bits "-cbc", .kind = ALGO_CIPHER, .mode = ALGO_MODE_CBC, .rounds = 6 + k / 4, .key_len = k, .iv_len = 16, .block = 16, \
      .evp = "AES-" #bits "-CBC", .kernel = "cbc(aes)", .afalg_type = "skcipher", .in_default = 1, AES_ACCEL }
#define CTR(bits, k)                                                                          \
    { .id = "aes-" #bits "-ctr", .kind = ALGO_CIPHER, .mode = ALGO_MODE_CTR, .rounds = 6 + k / 4, .key_len = k, .iv_len = 16, .block = 1,  \
      .evp = "AES-" #bits "-CTR", .kernel = "ctr(aes)", .afalg_type = "skcipher", .in_default = 1, AES_ACCEL }
#define GCM(bits, k)                                                                          \
    { .id = "aes-" #bits "-gcm", .kind = ALGO_AEAD, .mode = ALGO_MODE_GCM, .rounds = 6 + k / 4, .key_len = k, .iv_len = 12, .block = 1,    \
      .evp = "AES-" #bits "-GCM", .kernel = "gcm(aes)", .afalg_type = "aead", .in_default = 1, GCM_ACCEL }
#define HASH(name, evpname, n, ...)                                                           \
    { .id = name, .kind = ALGO_DIGEST, .block = 1, .out_len = n, .evp = evpname,                \
      .kernel = name, .afalg_type = "hash", .in_default = 1, __VA_ARGS__ }

const struct algo algo_table[] = {
    CBC(128, 16), CBC(192, 24), CBC(256, 32),
    CTR(128, 16), CTR(256, 32),
    GCM(128, 16), GCM(256, 32),
    { .id = "chacha20-poly1305", .kind = ALGO_AEAD, .mode = ALGO_MODE_CHACHA20_POLY1305, .key_len = 32, .iv_len = 12, .block = 1,
      .evp = "ChaCha20-Poly1305", .kernel = "rfc7539(chacha20,poly1305)", .afalg_type = "aead",
      .in_default = 1 },
    HASH("md5", "MD5", 16), /* no CPU has MD5 instructions */
    HASH("sha1", "SHA1", 20, .accel = { FEAT_SHA, FEAT_SHA1 }, .naccel = 2),
    HASH("sha256", "SHA256", 32, .accel = { FEAT_SHA, FEAT_SHA2 }, .naccel = 2),
    HASH("sha512", "SHA512", 64, .accel = { FEAT_SHA512 }, .naccel = 1),
    { .id = "idea-cbc", .kind = ALGO_CIPHER, .mode = ALGO_MODE_CBC, .key_len = 16, .iv_len = 8, .block = 8,
      .evp = "IDEA-CBC", .in_default = 1 },
    /* RNGs fill buffers; nothing to compare them with, so they are opt-in. */
    { .id = "rdrand", .kind = ALGO_RNG, .block = 1 },
    { .id = "rdseed", .kind = ALGO_RNG, .block = 1 },
    { .id = "getrandom", .kind = ALGO_RNG, .block = 1 },
    { .id = "rand-bytes", .kind = ALGO_RNG, .block = 1 },
    { .id = "xstore", .kind = ALGO_RNG, .block = 1 }, /* VIA PadLock RNG */
};
const size_t algo_count = sizeof algo_table / sizeof algo_table[0];

const uint8_t algo_aad[ALGO_AAD_LEN] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x17, 0x03, 0x03, 0x40, 0x00,
};

const struct algo *algo_find(const char *id)
{
    for (size_t i = 0; i < algo_count; i++)
        if (strcmp(algo_table[i].id, id) == 0)
            return &algo_table[i];
    return NULL;
}

size_t algo_out_len(const struct algo *a, size_t len)
{
    switch (a->kind) {
    case ALGO_AEAD: return len + ALGO_TAG_LEN;
    case ALGO_DIGEST: return a->out_len;
    default: return len;
    }
}

int algo_check_size(const struct algo *a, size_t len, char *why, size_t n)
{
    if (len < 1 || len > ALGO_MAX_BYTES) {
        snprintf(why, n, "size %zu out of range: accepted 1 to %u bytes (16 MiB)", len,
                 ALGO_MAX_BYTES);
        return -1;
    }
    if (len % a->block) {
        snprintf(why, n, "size %zu is not a multiple of %s's %u-byte block", len, a->id,
                 a->block);
        return -1;
    }
    return 0;
}

int algo_has_direction(const struct algo *a)
{
    return a->kind == ALGO_CIPHER || a->kind == ALGO_AEAD;
}

void algo_nonce_next(uint8_t nonce[12])
{
    for (int i = 11; i >= 4; i--)
        if (++nonce[i])
            break;
}
