/* The program's backends, composed here so the core names none of them. Order matters only
 * for listing: within a path, implementations read in this order. The fault backend lists
 * nothing unless ACCELSCOPE_TEST_FAULTS is set (tests only). */
#include "all.h"
#include "registry.h"

const struct backend *const backend_all[] = {
    &backend_portable, &backend_portable_pk, &backend_openssl, &backend_openssl_pk,
    &backend_direct,   &backend_direct_arm,  &backend_padlock, &backend_rng,
    &backend_afalg,    &backend_keyctl,      &backend_ossl_engine, &backend_fault,
};
const size_t backend_all_count = sizeof backend_all / sizeof backend_all[0];
