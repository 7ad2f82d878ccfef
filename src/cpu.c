/* CPU identity and features: the architecture-neutral half. The detectors live in
 * cpu_x86.c and cpu_arm.c; each is a no-op on the other architectures. */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "cpu_probe.h"

static struct cpu_info info;
static int probed;
static unsigned char denied[FEAT_COUNT];
/* the ACCELSCOPE_DENY word that took each denied feature: itself, or one it needs */
static unsigned char denied_by[FEAT_COUNT];

/* Features whose instructions no CPU has, or cannot run, without another's: the V forms of
 * AES-NI and PCLMULQDQ, and everything VEX- or EVEX-encoded, which needs AVX's state; AVX-512
 * comes only with AVX2, BW and VL only with F. */
static const struct {
    enum feature need, by;
} hw_needs[] = {
    { FEAT_AESNI, FEAT_VAES },     { FEAT_PCLMULQDQ, FEAT_VPCLMULQDQ }, { FEAT_AVX, FEAT_AVX2 },
    { FEAT_AVX, FEAT_VAES },       { FEAT_AVX, FEAT_VPCLMULQDQ },       { FEAT_AVX2, FEAT_AVX512F },
    { FEAT_AVX512F, FEAT_AVX512BW }, { FEAT_AVX512F, FEAT_AVX512VL },
};

/* Marks in off what hw_needs says goes with what off marks, to the closure; with by, each
 * newly marked feature takes the word its need was marked by. */
static int close_needs(unsigned char off[FEAT_COUNT], unsigned char *by)
{
    int any = 0;
    for (int grew = 1; grew;) {
        grew = 0;
        for (size_t i = 0; i < sizeof hw_needs / sizeof hw_needs[0]; i++)
            if (off[hw_needs[i].need] && !off[hw_needs[i].by]) {
                off[hw_needs[i].by] = 1, grew = any = 1;
                if (by)
                    by[hw_needs[i].by] = by[hw_needs[i].need];
            }
    }
    return any;
}

int cpu_deny_close(unsigned char off[FEAT_COUNT])
{
    return close_needs(off, NULL);
}

/* ACCELSCOPE_DENY: comma/space separated feature keys, of any length. Marks the known words
 * denied when apply; 0, or -1 and the first unknown word with the accepted ones in why. */
static int walk_deny(int apply, char *why, size_t n)
{
    const char *env = getenv("ACCELSCOPE_DENY");
    if (!env)
        return 0;
    char *buf = strdup(env);
    if (!buf)
        abort();
    int rc = 0;
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        int f = feature_by_key(w);
        if (f >= 0 && apply)
            denied[f] = 1, denied_by[f] = (unsigned char)f;
        if (f >= 0 || rc)
            continue;
        rc = -1;
        int off = snprintf(why, n, "ACCELSCOPE_DENY: unknown feature '%s'; accepted:", w);
        for (int k = 0; k < FEAT_COUNT && off > 0 && (size_t)off < n; k++)
            off += snprintf(why + off, n - (size_t)off, " %s", feature_table[k].key);
    }
    free(buf);
    return rc;
}

int cpu_deny_check(char *why, size_t n)
{
    return walk_deny(0, why, n);
}

/* Sizes from sysfs work on every architecture; libcpuid may refine them on x86. */
static int cache_kb(int level, const char *type)
{
    for (int i = 0; i < 8; i++) {
        char p[96], buf[32];
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(p, "r");
        if (!f)
            return 0;
        int lv = 0;
        if (fscanf(f, "%d", &lv) != 1)
            lv = -1;
        fclose(f);
        if (lv != level)
            continue;
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!(f = fopen(p, "r")))
            continue;
        int match = fgets(buf, sizeof buf, f) && strncmp(buf, type, strlen(type)) == 0;
        fclose(f);
        if (!match)
            continue;
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(p, "r")))
            continue;
        int kb = 0;
        if (fscanf(f, "%dK", &kb) != 1)
            kb = 0;
        fclose(f);
        return kb;
    }
    return 0;
}

const struct cpu_info *cpu_get(void)
{
    if (probed)
        return &info;
    probed = 1;
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(info.arch, sizeof info.arch, "%s", u.machine);
    long on = sysconf(_SC_NPROCESSORS_ONLN);
    info.threads = on > 0 ? (int)on : 1;
    info.l1d_kb = cache_kb(1, "Data");
    info.l2_kb = cache_kb(2, "Unified");
    info.l3_kb = cache_kb(3, "Unified");
    cpu_probe_x86(&info);
    cpu_probe_arm(&info);
    if (!info.cores)
        info.cores = info.threads;
    char ignored[8]; /* unknown words: cpu_deny_check() lets the front ends refuse them */
    walk_deny(1, ignored, sizeof ignored);
    close_needs(denied, denied_by);
    return &info;
}

int cpu_denied(enum feature f)
{
    cpu_get();
    return denied[f];
}

int cpu_feature_status(enum feature f, char *why, size_t n)
{
    const struct cpu_info *c = cpu_get();
    const struct feature_desc *d = &feature_table[f];
    char dummy[8];
    if (!why) {
        why = dummy;
        n = sizeof dummy;
    }
    if (!c->present[f]) {
        snprintf(why, n, "CPU lacks %s (%s)", d->label, d->where);
        return 0;
    }
    if (!c->enabled[f]) {
        if (f >= FEAT_PL_RNG && f <= FEAT_PL_PMM)
            snprintf(why, n, "%s present but not enabled (%s)", d->label, d->where);
        else
            snprintf(why, n, "%s present but the OS does not save its registers (XCR0)",
                     d->label);
        return 0;
    }
    if (denied[f] && denied_by[f] == f) {
        snprintf(why, n, "%s denied by ACCELSCOPE_DENY", d->label);
        return 0;
    }
    if (denied[f]) {
        snprintf(why, n, "%s denied by ACCELSCOPE_DENY (%s, which it needs)", d->label,
                 feature_table[denied_by[f]].key);
        return 0;
    }
    return 1;
}

int cpu_has(enum feature f)
{
    return cpu_feature_status(f, NULL, 0);
}
