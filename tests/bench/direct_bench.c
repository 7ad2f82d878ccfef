/* Side-by-side speed of the direct backend (asm/x86_64 kernels) against OpenSSL's hw path
 * (the "openssl" impl, no capability mask), in one process, through the same impl init/op the
 * engine times; then every measured path's distance from the silicon's ceiling (src/silicon.h).
 * Batches alternate between the contenders, ~MS ms each; a ratio is the median of the
 * per-repeat ratios, a speed the median of its repeats (thread CPU time, so a busy shared
 * machine hurts less).
 *
 *   direct_bench [-r REPEATS] [-m MS] [ALG[/dec][@IMPL]:SIZE[:TARGET] ...]
 * Exit 1 when a ratio misses its target. Default jobs: the targets of issue 6. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "bench/bench.h"
#include "silicon.h"
#include "registry.h"

struct job {
    const char *alg;
    int decrypt;
    const char *impl; /* the direct impl's name */
    size_t size;
    double target;    /* minimum direct/openssl ratio; 0 = report only */
};

static const struct job defaults[] = {
    { "aes-128-ctr", 0, "direct", 16384, 0.9 },
    { "aes-128-ctr", 0, "direct-vaes", 16384, 0.9 },
    { "aes-256-cbc", 0, "direct", 16384, 0.95 },
    { "aes-256-cbc", 1, "direct", 16384, 0.9 },
    { "sha256", 0, "direct", 16384, 0.95 },
    { "sha1", 0, "direct", 16384, 0.95 },
    { "aes-128-gcm", 0, "direct", 16384, 0.6 },
    { "aes-128-gcm", 0, "direct-vaes", 16384, 0.6 },
    { "aes-128-cbc", 0, "direct", 16384, 0 },
    { "aes-128-cbc", 1, "direct", 16384, 0 },
    { "aes-256-ctr", 0, "direct", 16384, 0 },
    { "aes-256-gcm", 0, "direct", 16384, 0 },
    { "aes-256-gcm", 0, "direct-vaes", 16384, 0 },
    { "aes-128-gcm", 1, "direct", 16384, 0 },
};

/* MB/s over one batch of ~ms milliseconds of CPU time; *clk = the core clock around it. */
static double batch(struct bench_side *s, size_t size, double ms, double *clk)
{
    double c0 = silicon_core_mhz_now();
    size_t ops = 0;
    double t0 = bench_now_cpu(), t;
    do {
        for (int i = 0; i < 16; i++)
            if (s->im->op(s->ctx, s->out, s->in, size) != 0)
                return -1;
        ops += 16;
        t = bench_now_cpu() - t0;
    } while (t < ms / 1e3);
    *clk = (c0 + silicon_core_mhz_now()) / 2;
    return (double)ops * size / t / 1e6;
}

/* 1 = met or report-only, 0 = missed, -1 = could not run. */
static int run_job(const struct job *j, int reps, double ms)
{
    const struct impl *d = registry_find(j->alg, j->impl), *o = registry_find(j->alg, "openssl");
    char why[300] = "";
    const char *dir = j->decrypt ? "decrypt" : "encrypt";
    if (!d || !o || d->check(d, why, sizeof why) || o->check(o, why, sizeof why)) {
        printf("%-12s %-7s %-11s %6zu  UNAVAILABLE: %s\n", j->alg, dir, j->impl, j->size,
               !d ? "no such direct impl" : !o ? "no openssl impl" : why);
        return -1;
    }
    struct bench_side sd = { 0 }, so = { 0 };
    if (bench_agree(d, o, j->size, j->decrypt)) {
        printf("%-12s %-7s %-11s %6zu  WRONG OUTPUT: no figure\n", j->alg, dir, j->impl, j->size);
        return 0; /* counts as missed */
    }
    if (bench_side_init(&sd, d, j->size, j->decrypt) || bench_side_init(&so, o, j->size, j->decrypt)) {
        bench_side_free(&sd), bench_side_free(&so);
        return -1;
    }
    double rd[64], ro[64], ratio[64], cd[64], co[64], kd[64], ko[64];
    for (int r = 0; r < reps; r++) {
        /* alternate which goes first so frequency drift favours neither */
        if (r % 2) {
            ro[r] = batch(&so, j->size, ms, &co[r]);
            rd[r] = batch(&sd, j->size, ms, &cd[r]);
        } else {
            rd[r] = batch(&sd, j->size, ms, &cd[r]);
            ro[r] = batch(&so, j->size, ms, &co[r]);
        }
        ratio[r] = ro[r] > 0 ? rd[r] / ro[r] : 0;
    }
    double ceil = 0, base = silicon_get()->core_mhz;
    int hasceil = silicon_ceiling(j->alg, j->decrypt, &ceil, why, sizeof why) == 0;
    for (int r = 0; r < reps && hasceil; r++) { /* % of the ceiling at the clock of the batch */
        kd[r] = 100 * rd[r] / (ceil * cd[r] / base);
        ko[r] = 100 * ro[r] / (ceil * co[r] / base);
    }
    double bd = 0, bo = 0; /* best batches: the machine least disturbed */
    for (int r = 0; r < reps; r++)
        bd = rd[r] > bd ? rd[r] : bd, bo = ro[r] > bo ? ro[r] : bo;
    double md = bench_median(rd, reps), mo = bench_median(ro, reps), mr = bench_median(ratio, reps);
    int met = j->target <= 0 || mr >= j->target;
    printf("%-12s %-7s %-11s %6zu  %9.0f %9.0f  %6.3f", j->alg, dir, j->impl, j->size, md, mo,
           mr);
    if (j->target > 0)
        printf(" (>= %.2f %s)", j->target, met ? "ok" : "MISSED");
    else
        printf("              ");
    if (hasceil)
        printf("  ceiling %6.0f: direct %5.1f%% (%5.1f%%, best %5.1f%%), openssl %5.1f%% "
               "(%5.1f%%, best %5.1f%%)", ceil, 100 * md / ceil, bench_median(kd, reps),
               100 * bd / ceil, 100 * mo / ceil, bench_median(ko, reps), 100 * bo / ceil);
    printf("\n");
    bench_side_free(&sd), bench_side_free(&so);
    return met;
}

int main(int argc, char **argv)
{
    int reps = 5;
    double ms = 60;
    struct job jobs[64];
    size_t nj = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            ms = atof(argv[++i]);
        } else if (nj < 64) {
            static char bufs[64][64];
            char *s = bufs[nj], *p;
            snprintf(s, 64, "%s", argv[i]);
            struct job j = { .impl = "direct", .size = 16384 };
            if ((p = strchr(s, ':'))) {
                *p++ = 0;
                j.size = strtoul(p, &p, 10);
                if (*p == ':')
                    j.target = atof(p + 1);
            }
            if ((p = strchr(s, '@')))
                *p++ = 0, j.impl = p;
            if ((p = strstr(s, "/dec")))
                *p = 0, j.decrypt = 1;
            j.alg = s;
            jobs[nj++] = j;
        }
    }
    if (reps < 3 || reps > 64) {
        fprintf(stderr, "direct_bench: -r takes 3 to 64 repeats\n");
        return 2;
    }
    if (!nj) {
        nj = sizeof defaults / sizeof defaults[0];
        memcpy(jobs, defaults, sizeof defaults);
    }
    silicon_measure();
    silicon_describe(stdout);
    printf("\n%d repeats of ~%.0f ms each side, thread CPU time; MB/s = 10^6 B/s; share of the "
           "ceiling: median (median at the core clock seen around each batch, best batch)\n",
           reps, ms);
    printf("%-12s %-7s %-11s %6s  %9s %9s  %6s\n", "algorithm", "dir", "direct", "bytes",
           "direct", "openssl", "ratio");
    int missed = 0;
    for (size_t i = 0; i < nj; i++)
        missed += run_job(&jobs[i], reps, ms) == 0;
    printf("%s\n", missed ? "some targets MISSED" : "all targets met");
    return missed ? 1 : 0;
}
