/* Every implementation of every backend, in one list. */
#ifndef ACCELSCOPE_REGISTRY_H
#define ACCELSCOPE_REGISTRY_H

#include "impl.h"

/* Every backend of the program, in listing order: composed in backends/all.c. */
extern const struct backend *const backend_all[];
extern const size_t backend_all_count;

/* Lets the backends that find implementations at run time look for them (AF_ALG drivers:
 * reads /proc/crypto and binds sockets), once; later calls do nothing. Before it, the lookups
 * below see only the implementations compiled in, and never discover anything themselves. */
void registry_discover(void);

size_t registry_count(void);
const struct impl *registry_get(size_t i);
const struct impl *registry_find(const char *alg, const char *name);

/* The implementation a worker checks im's output against: the first available of the
 * portable C and OpenSSL implementations that belongs to another backend; NULL if none. */
const struct impl *registry_reference(const struct impl *im);

/* The backends themselves, for their describe() hooks. */
size_t registry_backends(const struct backend *const **out);

#endif
