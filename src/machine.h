/* The identity stamped on every exported row: cheap facts only. */
#ifndef ACCELSCOPE_MACHINE_H
#define ACCELSCOPE_MACHINE_H

struct machine {
    char host[256];
    char cpu[160];     /* brand, and codename where known */
    char kernel[128];  /* uname release */
    char openssl[128]; /* OpenSSL_version(OPENSSL_VERSION) */
};

const struct machine *machine_get(void);

#endif
