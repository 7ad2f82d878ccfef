/* X25519 (RFC 7748 section 5): the Montgomery ladder over u-coordinates, constant time:
 * every scalar bit costs the same operations, and the bit only selects through masks. */
#include "pk.h"

#include <string.h>

#include "bytes.h"
#include "fe25519.h"

/* One ladder step (RFC 7748 section 5): (x2:z2) doubled, (x3:z3) the differential sum. */
static void ladder_step(fe *x2, fe *z2, fe *x3, fe *z3, const fe *x1)
{
    fe a, aa, b, bb, e, c, d, da, cb, t;
    fe_add(&a, x2, z2);
    portable_fe_sq(&aa, &a);
    portable_fe_sub(&b, x2, z2);
    portable_fe_sq(&bb, &b);
    portable_fe_sub(&e, &aa, &bb);
    fe_add(&c, x3, z3);
    portable_fe_sub(&d, x3, z3);
    portable_fe_mul(&da, &d, &a);
    portable_fe_mul(&cb, &c, &b);
    fe_add(&t, &da, &cb);
    portable_fe_sq(x3, &t);
    portable_fe_sub(&t, &da, &cb);
    portable_fe_sq(&t, &t);
    portable_fe_mul(z3, x1, &t);
    portable_fe_mul(x2, &aa, &bb);
    portable_fe_mul_small(&t, &e, 121665); /* a24 = (486662 - 2) / 4 */
    fe_add(&t, &t, &aa);
    portable_fe_mul(z2, &e, &t);
}

void portable_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32])
{
    uint8_t k[32];
    memcpy(k, scalar, 32);
    k[0] &= 248; /* decodeScalar25519: clear the cofactor bits, set bit 254 */
    k[31] &= 127;
    k[31] |= 64;
    fe x1, x2, z2, x3, z3;
    portable_fe_frombytes(&x1, point); /* decodeUCoordinate: bit 255 masked */
    fe_set(&x2, 1);
    fe_set(&z2, 0);
    x3 = x1;
    fe_set(&z3, 1);
    uint64_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t bit = (uint64_t)(k[t >> 3] >> (t & 7)) & 1;
        swap ^= bit;
        portable_fe_cswap(&x2, &x3, swap);
        portable_fe_cswap(&z2, &z3, swap);
        swap = bit;
        ladder_step(&x2, &z2, &x3, &z3, &x1);
    }
    portable_fe_cswap(&x2, &x3, swap);
    portable_fe_cswap(&z2, &z3, swap);
    portable_fe_invert(&z2, &z2);
    portable_fe_mul(&x2, &x2, &z2);
    portable_fe_tobytes(out, &x2);
    wipe(k, sizeof k);
    wipe(&x2, sizeof x2);
    wipe(&x3, sizeof x3);
    wipe(&z2, sizeof z2);
    wipe(&z3, sizeof z3);
}

void portable_x25519_base(uint8_t out[32], const uint8_t scalar[32])
{
    static const uint8_t nine[32] = { 9 }; /* the base point's u (RFC 7748 section 4.1) */
    portable_x25519(out, scalar, nine);
}
