/* Hand-built measurement cells on real implementations (registry.h), with every figure the
 * CSV, the exports and the comparison carry, for tests that need no worker; and the small
 * helpers those tests share. */
#ifndef ACCELSCOPE_FAKECELLS_H
#define ACCELSCOPE_FAKECELLS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "registry.h"

static inline struct cell fake_cell(const char *alg, const char *name, size_t bytes,
                                    enum res_status st, double mb)
{
    registry_discover(); /* the kernel path's "kernel" exists only after it (once) */
    struct cell c = { .impl = registry_find(alg, name), .bytes = bytes };
    if (!c.impl) {
        printf("FAIL: no implementation %s of %s\n", name, alg);
        abort();
    }
    struct result *r = &c.r;
    r->status = st;
    r->threads = 1;
    snprintf(r->capvec, sizeof r->capvec, "CPUINFO: OPENSSL_ia32cap=0x%x:0x0", (unsigned)bytes);
    r->mb_per_s = mb; /* a failed cell may keep the live figure of its last samples */
    if (st != RES_OK) {
        /* A reason with every character RFC 4180 must quote. */
        snprintf(r->reason, sizeof r->reason, "no \"%s\", here,\nsecond line", name);
        return c;
    }
    snprintf(r->reference, sizeof r->reference, "openssl");
    snprintf(r->cycle_clock, sizeof r->cycle_clock, "tsc");
    r->samples = r->samples_wanted = 5;
    r->ops = 1000;
    r->seconds = 0.25;
    r->mb_per_s = mb;
    r->mb_min = mb * 0.98;
    r->mb_max = mb * 1.01;
    r->spread_pct = 1.5;
    r->cpu_util = 0.997;
    r->cycles_per_byte = 2400.0 / mb;
    r->thread_mb[0] = mb;
    c.limit_mb_per_s = 4000;
    return c;
}

/* Lines of text that start with prefix. */
static inline size_t lines_starting(const char *text, const char *prefix)
{
    size_t n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
        n += !strncmp(p, prefix, strlen(prefix));
    return n;
}

/* Removes a test's temporary folder; says so when it cannot. */
static inline void remove_dir(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd))
        printf("could not remove %s\n", dir);
}

#endif
