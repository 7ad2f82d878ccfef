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

/* Public-key operations: the capability bits OpenSSL 3.0's big-number and curve code reads
 * on x86 (OPENSSL_ia32cap word 2): BMI2+ADX select the mulx/adcx/adox Montgomery code of
 * x86_64-mont.pl, x86_64-mont5.pl, rsaz-x86_64.pl, ecp_nistz256-x86_64.pl and
 * x25519-x86_64.pl (x25519_fe64_eligible); AVX2 selects rsaz-avx2.pl (RSA-2048's 1024-bit
 * halves, only without BMI2+ADX) and ecp_nistz256's table lookups; AVX-512 F/DQ/VL/IFMA
 * select rsaz_exp_x2.c (AVX-512 IFMA, RSA-2048). On Arm, OpenSSL 3.0's armv8-mont.pl and
 * ecp_nistz256-armv8.pl read no capability bit: no instruction to list. */
#define BN_ACCEL .accel = { FEAT_BMI2, FEAT_ADX, FEAT_AVX2, FEAT_AVX512F }, .naccel = 4
#define MULX_ACCEL .accel = { FEAT_BMI2, FEAT_ADX }, .naccel = 2
#define NISTZ_ACCEL .accel = { FEAT_BMI2, FEAT_ADX, FEAT_AVX2 }, .naccel = 3
/* Ed25519's field code is fe51 asm, read no bit; its SHA-512 picks AVX2+BMI2 code. */
#define ED_ACCEL .accel = { FEAT_BMI2, FEAT_AVX2 }, .naccel = 2
#define PK(name, fam, op, bits, evpname, grp, dflt, ...)                                      \
    { .id = name, .kind = ALGO_PKEY, .block = 1, .pk_type = evpname, .family = fam,              \
      .pk_op = op, .key_bits = bits, .group = grp, .in_default = dflt, __VA_ARGS__ }
#define RSA(bits, dflt)                                                                       \
    PK("rsa" #bits "-sign", "rsa", PK_SIGN, bits, "RSA", NULL, dflt, BN_ACCEL),              \
    PK("rsa" #bits "-verify", "rsa", PK_VERIFY, bits, "RSA", NULL, dflt, BN_ACCEL)
#define ECDSA(crv, bits, grp, acc)                                                            \
    PK("ecdsa-" crv "-sign", "ecdsa", PK_SIGN, bits, "EC", grp, 0, acc),                     \
    PK("ecdsa-" crv "-verify", "ecdsa", PK_VERIFY, bits, "EC", grp, 0, acc)

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
    /* Public-key operations: opt-in (`-a pk`), as a sign at RSA-4096 lasts milliseconds and
     * the default run must stay within 90 s. */
    RSA(2048, 0), RSA(3072, 0), RSA(4096, 0), RSA(1024, 0),
    ECDSA("p256", 256, "P-256", NISTZ_ACCEL), ECDSA("p384", 384, "P-384", MULX_ACCEL),
    PK("ed25519-sign", "ed25519", PK_SIGN, 255, "ED25519", NULL, 0, ED_ACCEL),
    PK("ed25519-verify", "ed25519", PK_VERIFY, 255, "ED25519", NULL, 0, ED_ACCEL),
    PK("x25519", "x25519", PK_DERIVE, 255, "X25519", NULL, 0, MULX_ACCEL),
    PK("ecdh-p256", "ecdh", PK_DERIVE, 256, "EC", "P-256", 0, NISTZ_ACCEL),
    PK("dsa2048-sign", "dsa", PK_SIGN, 2048, "DSA", NULL, 0, MULX_ACCEL),
    PK("dsa2048-verify", "dsa", PK_VERIFY, 2048, "DSA", NULL, 0, MULX_ACCEL),
    /* The NIST post-quantum schemes (OpenSSL 3.5 and later); size: the parameter set. */
    PK("mlkem768-keygen", "ml-kem", PK_KEYGEN, 768, "ML-KEM-768", NULL, 0),
    PK("mlkem768-encaps", "ml-kem", PK_ENCAPS, 768, "ML-KEM-768", NULL, 0),
    PK("mlkem768-decaps", "ml-kem", PK_DECAPS, 768, "ML-KEM-768", NULL, 0),
    PK("mldsa65-sign", "ml-dsa", PK_SIGN, 65, "ML-DSA-65", NULL, 0),
    PK("mldsa65-verify", "ml-dsa", PK_VERIFY, 65, "ML-DSA-65", NULL, 0),
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
    if (!algo_sized(a)) {
        if (len == a->key_bits)
            return 0;
        snprintf(why, n, "size %zu does not apply to %s: a public-key operation is measured at "
                 "its key size, %u bits", len, a->id, a->key_bits);
        return -1;
    }
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

int algo_sized(const struct algo *a)
{
    return a->kind != ALGO_PKEY;
}

size_t algo_cell_size(const struct algo *a, size_t size)
{
    return algo_sized(a) ? size : a->key_bits;
}

size_t algo_op_bytes(const struct algo *a, size_t len)
{
    return algo_sized(a) ? len : 1;
}

double algo_rate(const struct algo *a, double mb_per_s)
{
    return a && !algo_sized(a) ? mb_per_s * 1e6 : mb_per_s;
}

const char *algo_unit(const struct algo *a)
{
    return a && !algo_sized(a) ? "ops/s" : "MB/s";
}

size_t algo_buf_len(const struct algo *a, size_t len)
{
    return algo_sized(a) ? len + ALGO_MAX_OUT_EXTRA : ALGO_PK_BUF;
}

const char *algo_pk_op_name(enum algo_pk_op op)
{
    static const char *const names[] = { "", "sign", "verify", "derive", "keygen", "encaps",
                                         "decaps" };
    return op < sizeof names / sizeof names[0] ? names[op] : "";
}

const struct algo *algo_pk_sibling(const struct algo *a, enum algo_pk_op op)
{
    for (size_t i = 0; a->family && i < algo_count; i++) {
        const struct algo *b = &algo_table[i];
        if (b->family && !strcmp(b->family, a->family) && b->key_bits == a->key_bits &&
            b->pk_op == op && (!a->group == !b->group) &&
            (!a->group || !strcmp(a->group, b->group)))
            return b;
    }
    return NULL;
}

const char *const algo_groups = "pk, rsa, ecdsa, eddsa, kex, pq";

int algo_in_group(const char *name, const struct algo *a)
{
    int pk = a->kind == ALGO_PKEY, rsa1024 = pk && !strcmp(a->family, "rsa") && a->key_bits < 2048;
    if (!strcmp(name, "pk"))
        return pk && !rsa1024;
    if (!strcmp(name, "rsa") || !strcmp(name, "ecdsa"))
        return pk && !rsa1024 && !strcmp(a->family, name);
    if (!strcmp(name, "eddsa"))
        return pk && !strcmp(a->family, "ed25519");
    if (!strcmp(name, "kex"))
        return pk && a->pk_op == PK_DERIVE;
    if (!strcmp(name, "pq"))
        return pk && (!strcmp(a->family, "ml-kem") || !strcmp(a->family, "ml-dsa"));
    return -1;
}

size_t algo_pk_put(uint8_t *p, size_t cap, const uint8_t *data, size_t len)
{
    if (len > 0xffff || len + 2 > cap)
        return 0;
    p[0] = (uint8_t)(len >> 8);
    p[1] = (uint8_t)len;
    if (len && p + 2 != data)
        memmove(p + 2, data, len);
    return len + 2;
}

size_t algo_pk_get(const uint8_t *p, size_t cap, const uint8_t **data, size_t *len)
{
    if (cap < 2)
        return 0;
    size_t l = (size_t)p[0] << 8 | p[1];
    if (l + 2 > cap)
        return 0;
    *data = p + 2;
    *len = l;
    return l + 2;
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
