/* Verification of public-key implementations before timing (kat.h): signatures cross
 * between implementations both ways, corrupted ones are refused by every verifier, derived
 * secrets agree, and deterministic operations reproduce known answers. */
#include "kat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "algo.h"
#include "registry.h"

struct pk_kat {
    const char *alg, *source;
    const char *seed, *msg, *peer, *out; /* hex */
    unsigned bits;                       /* only this key size; 0 = any */
    int hashed;                          /* out is SHA-256 of the signature (sign only) */
};

/* RFC 8032 7.1 TEST 1-3 (the secret key is the seed) and RFC 7748 6.1 (Alice's private key,
 * Bob's private key, their shared secret). */
static const struct pk_kat pk_kats[] = {
    { "ed25519", "RFC 8032 7.1 TEST 1",
      "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "", NULL,
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701"
      "cf9b46bd25bf5f0595bbe24655141438e7a100b", 0, 0 },
    { "ed25519", "RFC 8032 7.1 TEST 2",
      "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "72", NULL,
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d"
      "0f11d8c387b2eaeb4302aeeb00d291612bb0c00", 0, 0 },
    { "ed25519", "RFC 8032 7.1 TEST 3",
      "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "af82", NULL,
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f7609"
      "84dc6594a7c15e9716ed28dc027beceea1ec40a", 0, 0 },
    { "x25519", "RFC 7748 6.1",
      "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a", NULL,
      "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
      "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742", 0, 0 },
    /* No standard has a PKCS#1 v1.5 signature of a key made from a seed: this one pins the
     * seeded key generator (backends/pk_keys.c) and the signature, recorded with OpenSSL
     * 3.0.22 and the portable RSA, which agree byte for byte (PKCS#1 v1.5 is deterministic). */
    { "rsa", "seeded RSA-2048 key, PKCS#1 v1.5 SHA-256 signature (recorded)",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf", NULL,
      "2b5100855aebf186b23c43dedc3802c504afe2218b1cc4844aec5b2563028173", 2048, 1 },
    /* Likewise for ECDH P-256 (RFC 5903's keys are not seeds: the tests check those): the
     * seeded keys' secret, recorded with OpenSSL 3.0.22 and the portable code, which agree. */
    { "ecdh", "seeded P-256 keys, ECDH secret (recorded)",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", NULL,
      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      "922d94236cfa4fcfb1580d9988ac67f6f83f8bafdc956357f49aad29ae4cd239", 256, 0 },
};

static size_t unhex(const char *h, uint8_t *out, size_t max)
{
    size_t n = 0;
    for (; h && h[0] && h[1] && n < max; h += 2) {
        unsigned v;
        if (sscanf(h, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* One buffer set for a check: an op's in and out, and a signature kept aside. */
struct bufs {
    uint8_t in[ALGO_PK_BUF], out[ALGO_PK_BUF], sig[ALGO_PK_BUF];
    size_t siglen;
};

/* One op of im with the key of seed. -2 when set-up failed (why says so); else the op's
 * status (0 = ok, nonzero: refused or failed). */
static int run1(const struct impl *im, const uint8_t *seed, const uint8_t *in, uint8_t *out,
                char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    void *ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    uint8_t iv[ALGO_MAX_IV] = { 0 };
    if (!ctx)
        abort();
    int rc = -2;
    if (im->init(im, ctx, seed, iv, 0, why, n) == 0) {
        rc = im->op(ctx, out, in, a->key_bits);
        if (im->cleanup)
            im->cleanup(ctx);
    }
    free(ctx);
    return rc;
}

/* The implementation of alg named name, when it is usable here. */
static const struct impl *usable(const struct algo *a, const char *name)
{
    char why[256];
    const struct impl *im = a ? registry_find(a->id, name) : NULL;
    return im && im->check(im, why, sizeof why) == 0 ? im : NULL;
}

/* The message every check signs: 32 bytes (a SHA-256 digest's length). */
static void message(uint8_t *in, const uint8_t *seed)
{
    uint8_t m[ALGO_PK_MSG_LEN];
    for (int i = 0; i < ALGO_PK_MSG_LEN; i++)
        m[i] = (uint8_t)(seed[i % 32] * 7 + i * 131 + 1);
    algo_pk_put(in, ALGO_PK_BUF, m, sizeof m);
}

/* signer signs; verifier must accept the signature and refuse it with one bit flipped. */
static int cross(const struct impl *signer, const struct impl *verifier, const uint8_t *seed,
                 struct bufs *b, char *why, size_t n)
{
    const uint8_t *sig, *msg;
    size_t mlen, used;
    message(b->in, seed);
    int rc = run1(signer, seed, b->in, b->out, why, n);
    if (rc == -2)
        return -2;
    if (rc || !algo_pk_get(b->out, ALGO_PK_BUF, &sig, &b->siglen)) {
        snprintf(why, n, "%s/%s failed to sign", signer->alg, signer->name);
        return -2;
    }
    memcpy(b->sig, sig, b->siglen);
    used = algo_pk_get(b->in, ALGO_PK_BUF, &msg, &mlen);
    algo_pk_put(b->in + used, ALGO_PK_BUF - used, b->sig, b->siglen);
    rc = run1(verifier, seed, b->in, b->out, why, n);
    if (rc) {
        if (rc != -2)
            snprintf(why, n, "a signature by %s/%s does not verify with %s/%s", signer->alg,
                     signer->name, verifier->alg, verifier->name);
        return rc == -2 ? -2 : -1;
    }
    b->in[used + 2 + b->siglen / 2] ^= 0x10;
    if (run1(verifier, seed, b->in, b->out, why, n) == 0) {
        snprintf(why, n, "%s/%s accepts a corrupted signature by %s/%s", verifier->alg,
                 verifier->name, signer->alg, signer->name);
        return -1;
    }
    return 0;
}

/* Sign and verify rows: every signer of {im's own pair, the reference's} against every
 * verifier of both. Deterministic schemes also sign byte for byte alike. */
static int check_pair(const struct impl *im, const struct impl *ref, const uint8_t *seed,
                      struct bufs *b, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    const struct algo *sa = algo_pk_sibling(a, PK_SIGN), *va = algo_pk_sibling(a, PK_VERIFY);
    /* im itself, not looked up: a test's impostor is in no registry */
    const struct impl *s[2] = { a == sa ? im : usable(sa, im->name),
                                ref ? usable(sa, ref->name) : NULL };
    const struct impl *v[2] = { a == va ? im : usable(va, im->name),
                                ref ? usable(va, ref->name) : NULL };
    int tried = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            /* only the pairs that involve im */
            if (!s[i] || !v[j] || (s[i] != im && v[j] != im))
                continue;
            int rc = cross(s[i], v[j], seed, b, why, n);
            if (rc)
                return rc;
            tried++;
        }
    if (!tried) {
        snprintf(why, n, "no implementation to %s %s's signatures with",
                 a->pk_op == PK_SIGN ? "verify" : "make", im->name);
        return -2;
    }
    int deterministic = !strcmp(a->family, "rsa") || !strcmp(a->family, "ed25519");
    if (deterministic && s[0] && s[1]) {
        uint8_t first[ALGO_PK_BUF];
        message(b->in, seed);
        if (run1(s[0], seed, b->in, first, why, n) || run1(s[1], seed, b->in, b->out, why, n))
            return -2;
        size_t l = (size_t)first[0] << 8 | first[1];
        if (memcmp(first, b->out, l + 2)) {
            snprintf(why, n, "%s signs differently from %s (the scheme is deterministic)",
                     s[0]->name, s[1]->name);
            return -1;
        }
    }
    return 0;
}

static int derive_of(const struct impl *im, const uint8_t *mine, const uint8_t *peer,
                     uint8_t *out, char *why, size_t n)
{
    uint8_t in[2 + 32];
    algo_pk_put(in, sizeof in, peer, 32);
    int rc = run1(im, mine, in, out, why, n);
    if (rc && rc != -2)
        snprintf(why, n, "%s/%s failed to derive", im->alg, im->name);
    return rc ? -2 : 0;
}

/* Derive rows: both sides of one exchange agree, and agree with the reference's. */
static int check_derive(const struct impl *im, const struct impl *ref, const uint8_t *seed,
                        struct bufs *b, char *why, size_t n)
{
    uint8_t peer[32];
    memcpy(peer, seed, 32);
    peer[0] ^= 0x5a;
    if (derive_of(im, seed, peer, b->out, why, n) || derive_of(im, peer, seed, b->sig, why, n))
        return -2;
    size_t l = (size_t)b->out[0] << 8 | b->out[1];
    if (memcmp(b->out, b->sig, l + 2)) {
        snprintf(why, n, "the two sides of one exchange derive different secrets");
        return -1;
    }
    if (ref) {
        if (derive_of(ref, seed, peer, b->sig, why, n))
            return -2;
        if (memcmp(b->out, b->sig, l + 2)) {
            snprintf(why, n, "derives a secret that differs from %s's", ref->name);
            return -1;
        }
    }
    return 0;
}

/* The known answers of im's family: KAT_NONE when none is on file. */
static int check_known(const struct impl *im, struct bufs *b, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    int found = 0;
    for (size_t i = 0; i < sizeof pk_kats / sizeof pk_kats[0]; i++) {
        const struct pk_kat *k = &pk_kats[i];
        uint8_t seed[32], buf[256], want[128];
        if (strcmp(k->alg, a->family) || (k->bits && k->bits != a->key_bits) ||
            (k->hashed && a->pk_op != PK_SIGN))
            continue;
        found = 1;
        unhex(k->seed, seed, sizeof seed);
        size_t wl = unhex(k->out, want, sizeof want), used, ml = unhex(k->msg, buf, sizeof buf);
        if (a->pk_op == PK_DERIVE)
            ml = unhex(k->peer, buf, sizeof buf);
        used = algo_pk_put(b->in, ALGO_PK_BUF, buf, ml);
        if (a->pk_op == PK_VERIFY)
            algo_pk_put(b->in + used, ALGO_PK_BUF - used, want, wl);
        int rc = run1(im, seed, b->in, b->out, why, n);
        if (rc == -2)
            return -2;
        size_t ol = (size_t)b->out[0] << 8 | b->out[1];
        unsigned hl = 0;
        if (!rc && k->hashed) /* the signature's digest in its place */
            rc = EVP_Digest(b->out + 2, ol, b->out + 2, &hl, EVP_sha256(), NULL) != 1, ol = hl;
        int bad = a->pk_op == PK_VERIFY ? rc != 0 : rc || ol != wl || memcmp(b->out + 2, want, wl);
        if (bad) {
            snprintf(why, n, "known answer (%s) does not match", k->source);
            return -1;
        }
    }
    return found ? 0 : KAT_NONE;
}

int kat_pk_verify(const struct impl *im, const uint8_t *seed, char *refname, size_t rn,
                  char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    struct bufs *b = malloc(sizeof *b);
    if (!b)
        abort();
    const struct impl *ref = registry_reference(im);
    int k = check_known(im, b, why, n), rc = k < 0 ? k : 0;
    if (!rc && a->pk_op == PK_DERIVE)
        rc = check_derive(im, ref, seed, b, why, n);
    else if (!rc && (a->pk_op == PK_SIGN || a->pk_op == PK_VERIFY))
        rc = check_pair(im, ref, seed, b, why, n);
    else if (!rc) {
        snprintf(why, n, "no verification for %s operations", algo_pk_op_name(a->pk_op));
        rc = -2;
    }
    snprintf(refname, rn, "%s%s", ref ? ref->name : "own sign/verify pair",
             k == 0 ? "+known answer" : "");
    free(b);
    return rc;
}

int kat_pk_input(const struct impl *im, const uint8_t *seed, uint8_t *in, char *why, size_t n)
{
    const struct algo *a = algo_find(im->alg);
    if (a->pk_op == PK_DERIVE) {
        uint8_t peer[32];
        memcpy(peer, seed, 32);
        peer[0] ^= 0x5a;
        algo_pk_put(in, ALGO_PK_BUF, peer, sizeof peer);
        return 0;
    }
    message(in, seed);
    if (a->pk_op != PK_VERIFY)
        return 0;
    /* A verify row times a valid signature: its own signer's, else the reference's. */
    const struct algo *sa = algo_pk_sibling(a, PK_SIGN);
    const struct impl *ref = registry_reference(im);
    const struct impl *s = usable(sa, im->name);
    s = s ? s : ref ? usable(sa, ref->name) : NULL;
    uint8_t *out = malloc(ALGO_PK_BUF);
    const uint8_t *sig, *msg;
    size_t slen, mlen, used = algo_pk_get(in, ALGO_PK_BUF, &msg, &mlen);
    if (!out)
        abort();
    int rc = s ? run1(s, seed, in, out, why, n) : -2;
    if (!s)
        snprintf(why, n, "no implementation to make a signature for %s to verify", im->name);
    else if (rc || !algo_pk_get(out, ALGO_PK_BUF, &sig, &slen))
        rc = -2;
    else
        algo_pk_put(in + used, ALGO_PK_BUF - used, sig, slen);
    free(out);
    return rc ? -1 : 0;
}
