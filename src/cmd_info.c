/* `accelscope info`: everything accelscope knows of the machine, fast (no timing unless
 * --clock asks for the core clock). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <openssl/crypto.h>

#include "algo.h"
#include "clock.h"
#include "cmd.h"
#include "cpu.h"
#include "env.h"
#include "silicon.h"
#include "osslcap.h"
#include "registry.h"

static void cpu_section(FILE *o)
{
    const struct cpu_info *c = cpu_get();
    fprintf(o, "CPU\n");
    fprintf(o, "  architecture: %s\n", c->arch);
    fprintf(o, "  vendor: %s\n", c->vendor);
    fprintf(o, "  brand: %s\n", c->brand);
    fprintf(o, "  codename: %s\n", c->codename[0] ? c->codename
                                   : c->codename_note[0] ? c->codename_note : "(unknown)");
    fprintf(o, "  family/model/stepping: %d/%d/%d (0x%x/0x%x/0x%x)\n", c->family, c->model,
            c->stepping, c->family, c->model, c->stepping);
    fprintf(o, "  cores/threads: %d/%d\n", c->cores, c->threads);
    fprintf(o, "  caches: L1d %d KiB, L2 %d KiB, L3 %d KiB\n", c->l1d_kb, c->l2_kb, c->l3_kb);
}

static void features_section(FILE *o)
{
    uint64_t w[2];
    int nw = osslcap_parse(OpenSSL_version(OPENSSL_CPU_INFO), w);
    uint64_t deny[2];
    char missed[256];
    int denied = osslcap_deny_bits(deny) && !osslcap_deny_missed(missed, sizeof missed);
    fprintf(o, "\nCrypto features (cpu: usable by accelscope; openssl: enabled in libcrypto's vector%s)\n",
            denied ? ", less what ACCELSCOPE_DENY takes from its workers" : "");
    for (int k = 0; denied && k < nw; k++)
        w[k] &= ~deny[k];
    for (int f = 0; f < FEAT_COUNT; f++) {
        const struct feature_desc *d = &feature_table[f];
        if (d->arch != feature_host_arch())
            continue;
        char why[160] = "";
        int ok = cpu_feature_status((enum feature)f, why, sizeof why);
        int os = osslcap_has(w, nw, (enum feature)f);
        fprintf(o, "  %-13s %-13s cpu:%-3s openssl:%-3s %s\n", d->label, d->key, ok ? "yes" : "no",
                os < 0 ? "-" : os ? "yes" : "no", ok ? d->where : why);
    }
}

static void openssl_section(FILE *o)
{
    fprintf(o, "\nOpenSSL\n");
    fprintf(o, "  version: %s\n", OpenSSL_version(OPENSSL_VERSION));
    fprintf(o, "  capability vector: %s\n", OpenSSL_version(OPENSSL_CPU_INFO));
    char buf[OSSLCAP_ENV_MAX], why[256];
    const char *hw = osslcap_worker_env(NULL, buf, sizeof buf);
    if (osslcap_deny_missed(why, sizeof why))
        fprintf(o, "  ACCELSCOPE_DENY does not reach OpenSSL's hw rows: %s\n", why);
    else if (hw == buf)
        fprintf(o, "  hw rows' workers get (ACCELSCOPE_DENY): %s\n", hw);
}

static void clock_section(FILE *o, int measure, int limits)
{
    char why[200];
    fprintf(o, "\nClocks\n");
    const char *counter;
    double mhz = clock_counter_mhz(&counter, why, sizeof why);
    if (mhz > 0)
        fprintf(o, "  %s: %.1f MHz (%s)\n", counter, mhz, why);
    else
        fprintf(o, "  %s: none: %s\n", counter, why);
    if (measure) {
        double core = clock_core_mhz(why, sizeof why);
        if (core > 0)
            fprintf(o, "  core clock: %.0f MHz (dependent-add chain, fastest of 101 runs)\n", core);
        else
            fprintf(o, "  core clock: unknown: %s\n", why);
    } else {
        fprintf(o, "  core clock: not measured (accelscope info --clock)\n");
    }
    if (limits) {
        fprintf(o, "\nSilicon limits\n");
        silicon_measure_tries(SILICON_TRIES); /* the ceilings a run shows */
        silicon_describe(o);
    }
    int pmu = clock_pmu_status(why, sizeof why);
    fprintf(o, "  hardware cycle counters: %s%s\n", pmu ? "readable " : "no: ", why);
}

static void impl_section(FILE *o)
{
    fprintf(o, "\nImplementations\n");
    for (size_t a = 0; a < algo_count; a++) {
        int heading = 0; /* none for an algorithm without rows here (RDRAND off x86) */
        for (size_t i = 0; i < registry_count(); i++) {
            const struct impl *im = registry_get(i);
            if (strcmp(im->alg, algo_table[a].id))
                continue;
            if (!heading++)
                fprintf(o, "  %s\n", algo_table[a].id);
            char why[256] = "";
            int ok = im->check(im, why, sizeof why) == 0;
            /* An available row may still have a caveat: an ENGINE that does not claim the
             * algorithm leaves it to software. */
            fprintf(o, "    %-6s %-28s %s%s\n", path_id[im->path], im->name,
                    ok ? why[0] ? "available, but " : "available" : "unavailable: ", why);
            if (im->note && ok)
                fprintf(o, "    %-6s %-28s   (%s)\n", "", "", im->note);
        }
    }
}

static void backend_section(FILE *o)
{
    const struct backend *const *b;
    size_t n = registry_backends(&b);
    for (size_t i = 0; i < n; i++) {
        if (!b[i]->describe)
            continue;
        /* A backend with nothing to say on this architecture gets no heading. */
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (!m)
            abort();
        b[i]->describe(m);
        fclose(m);
        if (len)
            fprintf(o, "\nBackend %s\n%s", b[i]->name, text);
        free(text);
    }
}

int cmd_info(int argc, char **argv)
{
    static const struct option longs[] = {
        { "clock", no_argument, 0, 'c' }, { "limits", no_argument, 0, 'l' },
        { "help", no_argument, 0, 'h' },  { 0, 0, 0, 0 },
    };
    int clock = 0, limits = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "clh", longs, NULL)) != -1) {
        if (c == 'c')
            clock = 1;
        else if (c == 'l')
            limits = 1;
        else if (c == 'h') {
            cmd_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "accelscope info: unknown option '%s'; accepted: --clock, --limits\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "accelscope info: unexpected argument '%s'; accepted: --clock, --limits\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    char why[512];
    if (env_check(why, sizeof why)) {
        fprintf(stderr, "accelscope info: %s\n", why);
        return EXIT_USAGE;
    }
    registry_discover();
    FILE *o = stdout;
    struct utsname u;
    cpu_section(o);
    features_section(o);
    openssl_section(o);
    fprintf(o, "\nKernel\n  release: %s\n", uname(&u) == 0 ? u.release : "?");
    clock_section(o, clock, limits);
    impl_section(o);
    backend_section(o);
    return 0;
}
