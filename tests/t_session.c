/* The measurement session, headless: derived figures on hand-built cells, the selection's
 * round trip through a `run` command line, a run with failing cells, cancel, excludes, the
 * thread cap, and the ceilings child. Workers are real (ACCELSCOPE_BIN, default
 * ./accelscope); the faults come from the test-only fault backend. */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "cpupick.h"
#include "derive.h"
#include "engine.h"
#include "feature.h"
#include "registry.h"
#include "session.h"
#include "session_priv.h"
#include "silicon.h"
#include "stats.h"

static struct cell mk(const char *alg, const char *name, size_t bytes, enum res_status st,
                      double mb, double lo, double hi)
{
    struct cell c = { .impl = registry_find(alg, name), .bytes = bytes };
    c.r.status = st;
    c.r.mb_per_s = mb;
    c.r.mb_min = lo;
    c.r.mb_max = hi;
    return c;
}

/* Figures compare only within one algorithm at one size: a 16 KiB cell is never "xN" against
 * a 16 B one (the sizes view once divided by the slowest of any size). */
static void test_derive(void)
{
    struct cell c[] = {
        mk("md5", "portable", 16, RES_OK, 100, 95, 105),
        mk("md5", "portable", 16384, RES_OK, 600, 590, 610),
        mk("md5", "openssl", 16, RES_OK, 50, 49, 51),
        mk("md5", "openssl", 16384, RES_OK, 300, 299, 301),
        mk("md5", "openssl-int", 16, RES_WRONG, 10, 10, 10),    /* failed: never slowest */
        mk("md5", "openssl-int", 16384, RES_OK, 590, 580, 601), /* overlaps the best: tie */
        mk("sha256", "portable", 16, RES_OK, 30, 29, 31),
    };
    size_t n = sizeof c / sizeof c[0];
    for (size_t i = 0; i < n; i++)
        CHECK(c[i].impl, "cell %zu has an implementation", i);
    derive_cells(c, n);
    CHECK(c[0].d.slowest == 50 && c[2].d.slowest == 50, "16 B column: slowest 50, got %g %g",
          c[0].d.slowest, c[2].d.slowest);
    CHECK(c[1].d.slowest == 300, "16 KiB column: slowest of its own size, got %g", c[1].d.slowest);
    CHECK(c[1].d.speedup == 2.0, "16 KiB portable x2 over openssl at 16 KiB, got %g", c[1].d.speedup);
    CHECK(c[0].d.speedup == 2.0 && c[2].d.speedup == 1.0, "16 B speed-ups 2 and 1, got %g %g",
          c[0].d.speedup, c[2].d.speedup);
    CHECK(c[4].d.speedup == 0 && !c[4].d.best, "a wrong cell gets no speed-up and no star");
    CHECK(c[0].d.best && !c[0].d.tie && !c[2].d.best, "16 B: portable best, alone");
    CHECK(c[1].d.best && c[5].d.best && c[1].d.tie && c[5].d.tie && !c[3].d.best,
          "16 KiB: portable and openssl-int tie (ranges overlap), openssl not best");
    CHECK(c[6].d.slowest == 30 && c[6].d.best && c[6].d.speedup == 1.0,
          "another algorithm is its own column");
    c[1].decrypt = 1; /* another direction is another column */
    derive_cells(c, n);
    CHECK(c[1].d.slowest == 600 && c[3].d.slowest == 300 && !c[5].d.tie,
          "decrypt cell in its own column: %g %g", c[1].d.slowest, c[3].d.slowest);
}

/* Rounds taken in turn: the machine's speed swings by half from round to round, alike for
 * both cells; the paired ratio sees through it, the medians alone could not. */
static void test_derive_paired(void)
{
    static const float swing[10] = { 1.0f, 0.6f, 0.9f, 0.5f, 1.0f, 0.7f, 0.55f, 1.0f, 0.8f, 0.6f };
    struct cell c[3] = {
        mk("md5", "portable", 64, RES_OK, 100, 50, 100),
        mk("md5", "openssl-simd", 64, RES_OK, 300, 150, 300),
        mk("md5", "openssl-int", 64, RES_OK, 298, 150, 300),
    };
    for (int i = 0; i < 3; i++) {
        c[i].r.quality = RESULT_NOISY; /* each figure alone: +-30 % */
        c[i].r.nround = c[i].r.rounds = 10; /* ten undisturbed rounds */
    }
    for (int k = 0; k < 10; k++) {
        c[0].r.round_mb[k] = 100 * swing[k];
        c[1].r.round_mb[k] = 300 * swing[k] * (k % 2 ? 1.01f : 0.99f);
        c[2].r.round_mb[k] = 300 * swing[k] * (k % 2 ? 0.99f : 1.01f);
    }
    derive_cells(c, 3);
    CHECK(!c[1].d.noisy && c[1].d.speedup > 2.9 && c[1].d.speedup < 3.1 &&
              c[1].d.speedup_ci_pct < 2,
          "paired: x%.2f +-%.1f%% from noisy figures", c[1].d.speedup, c[1].d.speedup_ci_pct);
    CHECK(c[1].d.best && c[2].d.best && c[1].d.tie && c[2].d.tie,
          "paired ratios 0.98..1.02 hold 1: a tie");
    /* The same pairs, but the reference's rounds were mostly retaken (11 disturbed, the 10
     * kept are what the disturbance spared), then ran beside busy programs: no claim. */
    c[0].r.disturbed = 11;
    c[1].r.rounds = c[2].r.rounds = 30; /* the column's 81 rounds under a quarter retaken */
    derive_cells(c, 3);
    CHECK(c[1].d.noisy && !c[1].d.spell && c[1].d.speedup > 2.9,
          "the reference mostly disturbed: x%.2f, noisy (no spell)", c[1].d.speedup);
    c[1].r.rounds = c[2].r.rounds = 10;
    c[0].r.disturbed = 10;
    derive_cells(c, 3);
    CHECK(c[1].d.noisy && c[1].d.spell && c[2].d.spell,
          "half disturbed: its own rounds would carry, but 10 of the column's 40 retaken is a "
          "spell: noisy");
    c[0].r.disturbed = 6;
    derive_cells(c, 3);
    CHECK(!c[1].d.noisy && !c[1].d.spell,
          "6 of 16 disturbed, 6 of the column's 36: the pairs still carry the claim");
    c[0].r.corun = 1;
    derive_cells(c, 3);
    CHECK(c[1].d.noisy && c[2].d.noisy, "the reference co-run: every xN over it noisy");
    c[0].r.corun = 0;
    c[0].r.disturbed = 0;
    c[1].r.rounds = 4;
    derive_cells(c, 3);
    CHECK(c[1].d.noisy && !c[2].d.noisy, "4 undisturbed rounds on one side: its xN noisy");
    c[1].r.rounds = 10;
    c[0].r.disturbed = 0;
    c[0].r.fallback = 1; /* an engine row whose work software did: no reference, no claim */
    derive_cells(c, 3);
    CHECK(c[0].d.speedup == 0 && !c[0].d.best && c[2].d.speedup == 1.0,
          "a fallback row is out of the comparison: the next slowest is the reference");
    c[0].r.fallback = 0;
    derive_cells(c, 3);
    double q, lo, hi;
    c[1].r.group = 7; /* measured in another group (a column split at -t N): never paired */
    CHECK(derive_paired(&c[1].r, &c[0].r, &q, &lo, &hi) == 0, "rounds of two groups never pair");
    c[1].r.group = 0;
    c[2].r.nround = 3; /* too few pairs: the figures alone, both noisy */
    derive_cells(c, 3);
    CHECK(c[2].d.noisy && !c[2].d.best, "unpaired over a noisy reference: noisy, no claim");
    c[1].r.nround = 3; /* now every faster row is noisy: the slowest must not be crowned */
    derive_cells(c, 3);
    CHECK(!c[0].d.best && !c[1].d.best && !c[2].d.best && c[0].d.speedup == 1.0 &&
              c[0].d.noisy && !c[0].d.unbacked && c[0].r.quality == RESULT_NOISY,
          "faster rows noisy: no best at all, the reference x1.0 noisy by its own figure, "
          "not unbacked (%d %d)",
          c[0].d.noisy, c[0].d.unbacked);
}

/* The paired ratio and the ratio of the figures shown disagree (stats_pair_agrees): the
 * faster cell stopped after 8 rounds, paired with the reference's first 8 at 100 MB/s; the
 * reference went on for 8 more at 140, and its figure, the median of all 16, reads 120 (the
 * SHA-1 column of the Zen 5 VM, 2026-12-05: x1.83 drawn over bars 1.59 apart). Pairs within
 * +-0.5 %, both cells quiet: still no claim. */
static void test_derive_disagree(void)
{
    static const struct {
        float later;   /* the reference's rounds 9..16 */
        double figure; /* its median over all 16 */
        int noisy;
        const char *what;
    } cases[] = {
        { 140, 120, 1, "bars x2.50 apart: noisy, no best" },
        { 104, 102, 0, "bars x2.94 apart, within 3 %: quiet" },
        { 92, 96, 1, "bars x3.13 apart, 4 % over the pairs' x3.00: noisy" },
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        struct cell c[2] = {
            mk("sha1", "openssl-int", 16, RES_OK, cases[t].figure, 99, 141),
            mk("sha1", "portable", 16, RES_OK, 300, 297, 303),
        };
        c[0].r.nround = c[0].r.rounds = 16;
        c[1].r.nround = c[1].r.rounds = 8;
        for (int k = 0; k < 16; k++)
            c[0].r.round_mb[k] = k < 8 ? 100 : cases[t].later;
        for (int k = 0; k < 8; k++)
            c[1].r.round_mb[k] = 300 * (k % 2 ? 1.005f : 0.995f);
        derive_cells(c, 2);
        CHECK(c[1].d.speedup > 2.9 && c[1].d.speedup < 3.1 && c[1].d.noisy == cases[t].noisy &&
                  c[1].d.best == !cases[t].noisy,
              "paired x%.2f over %s (noisy %d, best %d)", c[1].d.speedup, cases[t].what,
              c[1].d.noisy, c[1].d.best);
    }
}

/* Splits a command line at spaces (the names involved have none). */
static int split(char *line, char **argv, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " ", &save); w && n < max;
         w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    return n;
}

static int same_plan(const struct session *a, const struct session *b)
{
    if (session_ncells(a) != session_ncells(b))
        return 0;
    for (size_t i = 0; i < session_ncells(a); i++) {
        const struct cell *x = session_cell(a, i), *y = session_cell(b, i);
        if (x->impl != y->impl || x->bytes != y->bytes || x->decrypt != y->decrypt ||
            x->threads != y->threads)
            return 0;
    }
    return 1;
}

/* The selection printed as a `run` command line, parsed by `run`, gives the same cells. */
static struct cell rated(struct cell c, enum result_quality q, double lo, double hi,
                         const char *capvec)
{
    c.r.quality = q;
    c.r.ci_lo = lo;
    c.r.ci_hi = hi;
    snprintf(c.r.capvec, sizeof c.r.capvec, "%s", capvec);
    return c;
}

/* Noisy figures make no claims; ties come from the 95 % intervals; a hardware row whose
 * vector enables none of the algorithm's crypto instructions is the asm-simd row's code. */
static void test_derive_quality(void)
{
    /* A vector with everything and one without SHA: x86 (SHA is bit 29 of word 2), or Arm
     * (SHA1 bit 3, SHA2 bit 4 of OPENSSL_armcap), as this build reads its own architecture's. */
    int arm = feature_host_arch() == ARCH_ARM;
    if (feature_host_arch() != ARCH_X86 && !arm) {
        UNAVAILABLE("same-code detection", "no OpenSSL capability vector on this architecture");
        return;
    }
    const char *all = arm ? "CPUINFO: OPENSSL_armcap=0x7d"
                          : "CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x40069c219c07ab";
    const char *nosha = arm ? "CPUINFO: OPENSSL_armcap=0x65"
                            : "CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x40069c019c07ab";
    struct cell c[] = {
        rated(mk("sha256", "portable", 64, RES_OK, 100, 90, 110), RESULT_QUIET, 99, 101, ""),
        rated(mk("sha256", "openssl-simd", 64, RES_OK, 200, 150, 250), RESULT_QUIET, 198, 202, nosha),
        rated(mk("sha256", "openssl", 64, RES_OK, 201, 150, 250), RESULT_QUIET, 199, 203, nosha),
        rated(mk("sha256", "openssl-int", 64, RES_OK, 150, 49, 251), RESULT_NOISY, 100, 200, ""),
        rated(mk("sha256", "openssl", 16384, RES_OK, 900, 800, 1000), RESULT_QUIET, 890, 910, all),
        rated(mk("sha256", "openssl-simd", 16384, RES_OK, 400, 390, 410), RESULT_QUIET, 395, 405, all),
        rated(mk("sha256", "portable", 16384, RES_OK, 398, 300, 500), RESULT_QUIET, 396, 401, ""),
    };
    size_t n = sizeof c / sizeof c[0];
    derive_cells(c, n);
    CHECK(c[3].d.noisy && !c[3].d.best && c[0].d.slowest == 100,
          "unpaired, a noisy figure is a noisy comparison: never best (slowest %g)",
          c[0].d.slowest);
    CHECK(c[2].d.same_as == c[1].impl && !c[2].d.best && c[2].d.speedup == 0 &&
              strstr(c[2].d.same_why, "sha256"),
          "without SHA, hw openssl is asm openssl-simd's code: %s", c[2].d.same_why);
    CHECK(c[1].d.best && !c[1].d.tie && c[1].d.speedup == 2.0, "64 B: simd alone best, x2");
    CHECK(c[4].d.same_as == NULL && c[4].d.best, "with SHA, hw openssl is its own code, best");
    /* without SHA but without the SIMD the asm row kept either (a user's OPENSSL_ia32cap=0):
     * other code; with the asm row's mask said (" env:"), only what it cleared may differ */
    const char *bare = arm ? "CPUINFO: OPENSSL_armcap=0x0 env:0"
                           : "CPUINFO: OPENSSL_ia32cap=0x400:0x0 env:0";
    struct cell d[] = { mk("sha256", "openssl-simd", 64, RES_OK, 200, 150, 250),
                        mk("sha256", "openssl", 64, RES_OK, 120, 110, 130) };
    snprintf(d[0].r.capvec, sizeof d[0].r.capvec, "%s", nosha);
    snprintf(d[1].r.capvec, sizeof d[1].r.capvec, "%s", bare);
    derive_cells(d, 2);
    CHECK(d[1].d.same_as == NULL, "hw without SIMD is not the asm-simd row's code");
    snprintf(d[0].r.capvec, sizeof d[0].r.capvec, "%s",
             arm ? "CPUINFO: OPENSSL_armcap=0x1 env:0x1"
                 : "CPUINFO: OPENSSL_ia32cap=0xfdfa3201078bffff:0x40009c019c07ab "
                   "env:~0x200000200000000:~0x60020000000");
    snprintf(d[1].r.capvec, sizeof d[1].r.capvec, "%s",
             arm ? "CPUINFO: OPENSSL_armcap=0x25 env:0x25"
                 : "CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x40069c019c07ab "
                   "env:~0x0:~0x20000000");
    derive_cells(d, 2);
    CHECK(d[1].d.same_as == d[0].impl, "hw differing only in what the asm mask cleared (AES-NI, "
          "PCLMULQDQ; SHA denied): the asm-simd row's code");
    /* padlock-engine is a hw row of the openssl backend too, but runs PadLock: never "same" */
    struct cell pl[] = { mk("aes-128-cbc", "openssl-simd", 64, RES_OK, 200, 190, 210),
                         mk("aes-128-cbc", "padlock-engine", 64, RES_OK, 300, 290, 310) };
    snprintf(pl[0].r.capvec, sizeof pl[0].r.capvec, "%s", d[0].r.capvec);
    if (!pl[0].impl || !pl[1].impl) {
        UNAVAILABLE("padlock-engine same-code check", "no padlock-engine row in this build");
    } else {
        snprintf(pl[1].r.capvec, sizeof pl[1].r.capvec, "%s", d[0].r.capvec); /* no AES-NI */
        derive_cells(pl, 2);
        CHECK(pl[1].d.same_as == NULL, "padlock-engine is never the asm-simd row's code");
    }
    CHECK(c[5].d.tie == 0 && c[6].d.tie == 0, "396..401 and 395..405 overlap but neither is best");
    c[4].r.ci_lo = 380; /* now the best's interval reaches the others' */
    c[4].r.ci_hi = 420;
    c[4].r.mb_per_s = 405;
    derive_cells(c, n);
    CHECK(c[4].d.tie && c[5].d.tie && c[6].d.tie, "overlapping 95 %% intervals: a three-way tie");
    /* The slowest row read apart by its two processes: its x1.0 is no claim, nor is any
     * row's xN over it; a column of that row alone has no best. */
    struct cell one[] = {
        rated(mk("md5", "portable", 64, RES_OK, 100, 90, 110), RESULT_QUIET, 99, 101, ""),
        rated(mk("md5", "openssl", 64, RES_OK, 300, 290, 310), RESULT_QUIET, 298, 302, ""),
    };
    derive_cells(one, 2);
    CHECK(!one[0].d.noisy && one[1].d.best && one[0].d.speedup == 1.0,
          "processes agreeing: the slowest x1.0, openssl best");
    one[0].r.process_apart = 1;
    one[0].r.quality = RESULT_NOISY;
    derive_cells(one, 2);
    CHECK(one[0].d.noisy && one[1].d.noisy && !one[0].d.best && !one[1].d.best,
          "the slowest's processes apart: both noisy, no best (%d %d)", one[0].d.noisy,
          one[1].d.noisy);
    derive_cells(one, 1);
    CHECK(one[0].d.noisy && !one[0].d.best, "alone in its column, apart: noisy, not best");
}

/* A column measured in a spell is noisy, whatever its pairs say, and never best; the spell is
 * the column's: 8 of 25 rounds retaken make one, 5 of 25 do not. */
static void test_derive_spell(void)
{
    struct cell c[] = {
        rated(mk("md5", "portable", 64, RES_OK, 100, 99, 101), RESULT_QUIET, 99, 101, ""),
        rated(mk("md5", "openssl", 64, RES_OK, 300, 299, 301), RESULT_QUIET, 299, 301, ""),
    };
    c[0].r.rounds = c[1].r.rounds = 10;
    c[0].r.disturbed = 5;
    derive_cells(c, 2);
    CHECK(!c[1].d.spell && !c[1].d.noisy && c[1].d.best, "5 of 25 rounds retaken: openssl best");
    c[1].r.rounds = 7;
    c[1].r.disturbed = 3;
    derive_cells(c, 2);
    CHECK(c[0].d.spell && c[0].d.noisy && c[0].d.speedup == 1.0 && c[1].d.spell &&
              c[1].d.noisy && !c[1].d.best && !c[0].d.best,
          "8 of 25 rounds retaken (32 %%): openssl noisy, no best, the reference's x1.0 "
          "noisy too (no quiet row stands on it)");
    c[0].r.rounds = 7;
    c[0].r.disturbed = 3;
    derive_cells(c, 1);
    CHECK(c[0].d.spell && c[0].d.noisy && !c[0].d.unbacked,
          "alone in its column, 3 of 10 rounds retaken: in a spell, noisy (%d %d)", c[0].d.spell,
          c[0].d.noisy);
}

/* The slowest row's x1.0 says "the slowest": it is a claim while another row's quiet ratio
 * stands on it, and not once every other row is noisy (a loaded machine's slowest row is
 * often not the quiet machine's); a column of one row keeps it. */
static void test_derive_reference(void)
{
    struct cell c[] = {
        rated(mk("md5", "portable", 64, RES_OK, 100, 99, 101), RESULT_QUIET, 99, 101, ""),
        rated(mk("md5", "openssl-int", 64, RES_OK, 200, 150, 250), RESULT_NOISY, 150, 250, ""),
        rated(mk("md5", "openssl", 64, RES_OK, 300, 299, 301), RESULT_QUIET, 299, 301, ""),
    };
    derive_cells(c, 3);
    CHECK(!c[0].d.noisy && c[0].d.speedup == 1.0 && c[1].d.noisy && !c[2].d.noisy &&
              c[2].d.best,
          "one row quiet over it: the slowest's x1.0 stands (%d %d %d)", c[0].d.noisy,
          c[1].d.noisy, c[2].d.noisy);
    c[2].r.quality = RESULT_NOISY;
    c[2].r.ci_lo = 200;
    c[2].r.ci_hi = 400;
    derive_cells(c, 3);
    CHECK(c[0].d.noisy && c[0].d.speedup == 1.0 && c[1].d.noisy && c[2].d.noisy &&
              !c[0].d.best && !c[1].d.best && !c[2].d.best,
          "every other row noisy: the slowest's x1.0 claims nothing, no best (%d %d %d)",
          c[0].d.noisy, c[1].d.noisy, c[2].d.noisy);
    CHECK(c[0].d.unbacked && !c[1].d.unbacked, "only the slowest is unbacked");
    derive_cells(c, 1);
    CHECK(!c[0].d.noisy && !c[0].d.unbacked && c[0].d.speedup == 1.0,
          "alone in its column, quiet: x1.0 stands");
    c[0].r.quality = RESULT_NOISY;
    derive_cells(c, 1);
    CHECK(c[0].d.noisy && !c[0].d.unbacked && !c[0].d.best,
          "alone in its column, its figure noisy: noisy, not best (%d)", c[0].d.noisy);
    c[0].r.quality = RESULT_QUIET;
    /* Rows out of the comparison are not rows over it: beside a failed row and one that fell
     * back, the slowest is as alone as above. */
    c[1].r.status = RES_WRONG;
    c[2].r.fallback = 1;
    derive_cells(c, 3);
    CHECK(!c[0].d.noisy && !c[0].d.unbacked && c[0].d.speedup == 1.0,
          "beside a failed row and a fallback: x1.0 stands (%d)", c[0].d.noisy);
}

static void round_trip(const char *label, void (*edit)(struct selection *))
{
    struct session *s = session_new();
    char why[256];
    edit(session_sel_edit(s, why, sizeof why));
    session_rebuild(s);
    char *line = session_cmdline(s);
    CHECK(!strncmp(line, "accelscope run", 14), "%s: '%s' starts as a run command", label, line);
    char copy[4096], *argv[64];
    snprintf(copy, sizeof copy, "%s", line);
    int argc = split(copy, argv, 64);
    struct session *t = session_new();
    struct run_opts o = { 0 };
    int rc = run_parse(argc - 1, argv + 1, session_sel_edit(t, why, sizeof why), &o);
    session_rebuild(t);
    const struct selection *x = session_sel(s), *y = session_sel(t);
    CHECK(rc == 0, "%s: '%s' parses (rc %d)", label, line, rc);
    CHECK(same_plan(s, t) && session_ncells(s) > 0, "%s: '%s' gives the same %zu cells", label,
          line, session_ncells(s));
    CHECK(x->nthreads == y->nthreads && !memcmp(x->threads, y->threads, sizeof x->threads[0] * (size_t)x->nthreads) &&
              x->seconds == y->seconds && x->decrypt == y->decrypt &&
              x->nexcl == y->nexcl && x->nimpls == y->nimpls,
          "%s: threads, time, direction, includes, excludes survive '%s'", label, line);
    free(line);
    session_free(s);
    session_free(t);
}

static void edit_none(struct selection *s) { (void)s; }

static void edit_all(struct selection *s)
{
    char why[512];
    select_algs(s, "sha256,aes-128-cbc,md5", why, sizeof why);
    select_sizes(s, "16k,64,1M", why, sizeof why);
    select_paths(s, "c,hw", why, sizeof why);
    select_excludes(s, "direct", why, sizeof why);
    char list[32];
    snprintf(list, sizeof list, "1,%d", session_max_threads(NULL)); /* 1 alone on one CPU */
    select_threads(s, list, session_max_threads(NULL), why, sizeof why);
    s->seconds = 0.123456789;
    s->decrypt = 1;
}

static void edit_impls(struct selection *s)
{
    char why[512];
    select_algs(s, "md5", why, sizeof why);
    select_impls(s, "portable,openssl", why, sizeof why);
}

struct counts {
    int start, sample, done, run_done;
};

static void count(struct session *s, enum session_event ev, size_t cell, void *arg)
{
    struct counts *c = arg;
    (void)s;
    (void)cell;
    c->start += ev == SESSION_CELL_START;
    c->sample += ev == SESSION_CELL_SAMPLE;
    c->done += ev == SESSION_CELL_DONE;
    c->run_done += ev == SESSION_RUN_DONE;
}

/* A session measuring algs x sizes on the named implementations and paths for seconds. */
static struct session *session_of(const char *algs, const char *sizes, const char *impls,
                                  const char *paths, double seconds)
{
    struct session *s = session_new();
    char why[512];
    struct selection *sel = session_sel_edit(s, why, sizeof why);
    CHECK(!select_algs(sel, algs, why, sizeof why) && !select_sizes(sel, sizes, why, sizeof why) &&
              !select_impls(sel, impls, why, sizeof why) && !select_paths(sel, paths, why, sizeof why),
          "selection %s / %s / %s / %s: %s", algs, sizes, impls, paths, why);
    sel->seconds = seconds;
    session_rebuild(s);
    return s;
}

/* session_of at thread counts 1 and 2. */
static struct session *session_of_1_2(const char *algs, const char *sizes, const char *impls,
                                      const char *paths, double seconds)
{
    struct session *s = session_of(algs, sizes, impls, paths, seconds);
    char why[512];
    struct selection *sel = session_sel_edit(s, why, sizeof why);
    CHECK(sel && !select_threads(sel, "1,2", session_max_threads(NULL), why, sizeof why),
          "threads 1,2: %s", why);
    session_rebuild(s);
    return s;
}

/* CPUs of set the last picks said busy with other programs. */
static int busy_cpus(const cpu_set_t *set)
{
    int said = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        said += CPU_ISSET(c, set) && cpupick_busy(c);
    return said;
}

/* md5 portable verifies; fault-crash traps; fault-wrong lies: the tally says which is which. */
static void test_failing_cells(void)
{
    struct session *s = session_of("md5,sha256", "64", "portable,fault-crash,fault-wrong", "c,hw", 0.02);
    char why[512];
    struct counts c = { 0 };
    session_set_listener(s, count, &c);
    CHECK(session_ncells(s) == 4, "4 cells (md5 portable, sha256 portable + 2 faults), got %zu",
          session_ncells(s));
    double t0 = session_mono();
    CHECK(session_run(s, why, sizeof why) == 0, "run starts: %s", why);
    double t1 = session_mono();
    struct session_tally t;
    session_tally(s, &t);
    CHECK(t.ok == 2 && t.failed == 2 && t.pending == 0 && t.cancelled == 0,
          "2 ok, 2 failed: ok %zu failed %zu pending %zu", t.ok, t.failed, t.pending);
    long rounds = 0, retaken = 0; /* the tally's retaken rounds are the measured cells' */
    for (size_t i = 0; i < session_ncells(s); i++)
        if (session_cell(s, i)->r.status == RES_OK)
            rounds += session_cell(s, i)->r.rounds + session_cell(s, i)->r.disturbed,
                retaken += session_cell(s, i)->r.disturbed;
    CHECK(rounds > 0 && t.retaken.rounds == rounds && t.retaken.retaken == retaken,
          "the tally's rounds: %ld taken, %ld retaken, as the two ok cells' (%ld, %ld)",
          t.retaken.rounds, t.retaken.retaken, rounds, retaken);
    /* Where the time went: parts of the run's wall time, every visit's windows and rounds
     * (a column the machine measured in a spell goes twice: at least the final figures'). */
    double timed = 0;
    for (size_t i = 0; i < session_ncells(s); i++)
        timed += session_cell(s, i)->r.seconds;
    CHECK(t.wall > 0 && t.wall <= t1 - t0 && t.timed >= timed - 1e-9 && timed > 0 &&
              t.starting > 0 && t.waited >= 0 && t.timed + t.waited + t.starting <= t.wall &&
              t.rounds >= rounds,
          "the run's %.3f s (%.3f s around it): %.3f s timed (the cells' %.3f), %.3f waited, "
          "%.3f starting; %ld rounds (the cells' %ld)", t.wall, t1 - t0, t.timed, timed,
          t.waited, t.starting, t.rounds, rounds);
    int again = 0; /* a column the machine measured in a spell goes through twice */
    for (size_t i = 0; i < session_ncells(s); i++)
        again += session_cell(s, i)->again;
    CHECK(c.start == 4 + again && c.done == 4 + again && c.run_done == 1 && c.sample > 0,
          "events: start %d done %d run_done %d sample %d (cells measured anew %d)", c.start,
          c.done, c.run_done, c.sample, again);
    for (size_t i = 0; i < session_ncells(s); i++) {
        const struct cell *x = session_cell(s, i);
        if (!strcmp(x->impl->name, "fault-crash"))
            CHECK(x->r.status == RES_CRASHED && x->d.speedup == 0, "crash: crashed, no figure");
        if (!strcmp(x->impl->name, "fault-wrong"))
            CHECK(x->r.status == RES_WRONG && !x->d.best, "wrong: wrong output, never best");
    }
    session_free(s);
    /* A column none of whose cells timed was all starting (its workers started, verified). */
    s = session_of("sha256", "64", "fault-wrong", "c,hw", 0.02);
    CHECK(session_run(s, why, sizeof why) == 0, "run starts: %s", why);
    session_tally(s, &t);
    CHECK(t.failed == 1 && t.rounds == 0 && t.timed == 0 && t.starting > 0 &&
              t.starting <= t.wall,
          "a column that never timed: %zu failed, %ld rounds, %.3f s timed, %.3f s of %.3f "
          "starting", t.failed, t.rounds, t.timed, t.starting, t.wall);
    session_free(s);
}

/* Spells made by hand: as each cell of a column in `spell` finishes, its rounds are made
 * half retaken, and every other cell's none (visits: how many times each cell finished;
 * calm_after: visits after which its rounds are calm too). */
struct spell_seen {
    const char *spell; /* "md5" or a size in bytes ("64"), NULL: every column */
    int calm_after;
    int visits[16];
    int starts;
    int frozen; /* leave the cells alone from now on */
    int threads; /* only cells of this thread count, 0 any */
};

static int spell_hit(const struct spell_seen *w, const struct cell *x)
{
    char b[24];
    snprintf(b, sizeof b, "%zu", x->bytes);
    return (!w->threads || x->threads == w->threads) &&
           (!w->spell || !strcmp(w->spell, x->impl->alg) || !strcmp(w->spell, b));
}

static void on_spell(struct session *s, enum session_event ev, size_t i, void *arg)
{
    struct spell_seen *w = arg;
    w->starts += ev == SESSION_CELL_START;
    if (ev != SESSION_CELL_DONE || i >= 16 || w->frozen)
        return;
    struct cell *x = (struct cell *)session_cell(s, i); /* before the session reads it */
    if (x->r.status != RES_OK)
        return;
    /* calm by hand too, so that the machine's own spells leave this test alone */
    if (spell_hit(w, x) && w->visits[i]++ < w->calm_after)
        x->r.disturbed = x->r.rounds + 10; /* over half, and over STATS_SPELL_MIN_ROUNDS */
    else
        x->r.disturbed = 0;
}

/* A column measured in a spell goes through once more after the rest, its second figure
 * standing; once only; and only while spells are rare (one column in four, the first few
 * aside): a machine busy throughout gets no second visits. */
static void test_spell_again(void)
{
    static const struct {
        const char *sizes, *spell;
        int calm_after;
        size_t again;  /* cells measured anew */
        int spell_end; /* the spelled column still in a spell at the end */
    } cases[] = {
        { "64", "md5", 1, 2, 0 },   /* calm on the second visit: quiet again */
        { "64", "md5", 9, 2, 1 },   /* a spell twice: measured anew once, noisy */
        { "16,32,48,64,80,96,112,128", NULL, 9, 0, 1 }, /* every column: none anew */
        { "16,32,48,64,80,96,112,128", "64", 9, 1, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int one = strchr(cases[k].sizes, ',') != NULL; /* many columns: md5 portable alone */
        struct session *s = session_of(one ? "md5" : "md5,sha256", cases[k].sizes,
                                       one ? "portable" : "portable,openssl",
                                       one ? "c" : "c,hw", 0.02);
        struct spell_seen w = { .spell = cases[k].spell, .calm_after = cases[k].calm_after };
        char why[512];
        session_set_listener(s, on_spell, &w);
        CHECK(session_ncells(s) <= 16, "case %zu: %zu cells", k, session_ncells(s));
        CHECK(session_run(s, why, sizeof why) == 0, "case %zu: the run: %s", k, why);
        size_t again = 0, cells = session_ncells(s);
        int ok = 1;
        for (size_t i = 0; i < cells; i++) {
            const struct cell *x = session_cell(s, i);
            again += x->again > 0;
            ok &= x->again <= 1 && x->r.status == RES_OK;
            int ref = x->r.mb_per_s == x->d.slowest; /* x1.0: never in a spell */
            if (spell_hit(&w, x)) /* a column not measured anew stays in its spell */
                ok &= x->d.spell == (x->again ? cases[k].spell_end : 1) &&
                      (!x->d.spell || ref || x->d.noisy);
            if (!spell_hit(&w, x))
                ok &= !x->again && !x->d.spell;
        }
        struct session_progress p;
        session_progress(s, &p);
        CHECK(ok && again == cases[k].again && w.starts == (int)(cells + again) &&
                  p.total == cells + again && p.done == p.total,
              "case %zu (%s, spell in %s): %zu cells measured anew (want %zu), %d starts for "
              "%zu cells, progress %zu/%zu, every cell ok and at most once anew: %d",
              k, cases[k].sizes, cases[k].spell ? cases[k].spell : "every column", again,
              cases[k].again, w.starts, cells, p.done, p.total, ok);
        session_free(s);
    }
}

/* Cancelled while its column is measured anew, a cell keeps its first, verified figure (in its
 * spell: noisy), not a cancelled second one. */
static void test_spell_cancel(void)
{
    struct session *s = session_of("md5", "64,1024", "portable,openssl", "c,hw", 0.05);
    struct spell_seen w = { .spell = "64", .calm_after = 1 };
    char why[512];
    double first[16] = { 0 };
    session_set_listener(s, on_spell, &w);
    CHECK(session_start(s, why, sizeof why) == 0, "spell cancel: starts: %s", why);
    struct pollfd fds[8];
    size_t n = session_ncells(s), anew = n;
    while (session_running(s) && anew == n) {
        poll(fds, (nfds_t)session_pollfds(s, fds, 8), 100);
        session_step(s);
        for (size_t i = 0; i < n && i < 16; i++) {
            const struct cell *x = session_cell(s, i);
            if (x->again && x->r.status == RES_RUNNING)
                anew = i;
            else if (!x->again && x->r.status == RES_OK)
                first[i] = x->r.mb_per_s;
        }
    }
    CHECK(anew < n, "a cell of the 64 B column measured anew (cell %zu)", anew);
    w.frozen = 1; /* the figures restored are the first visit's as the session kept them */
    CHECK(session_cancel(s) == 1, "cancelled during the second visit");
    int kept = 1;
    for (size_t i = 0; i < n && i < 16; i++) {
        const struct cell *x = session_cell(s, i);
        if (x->again)
            kept &= x->r.status == RES_OK && x->r.mb_per_s == first[i] &&
                    x->d.spell && (x->r.mb_per_s == x->d.slowest || x->d.noisy);
    }
    struct session_tally t;
    session_tally(s, &t);
    CHECK(anew < n && kept && t.ok == n && t.cancelled == 0,
          "every cell keeps a verified figure (%zu ok of %zu, %zu cancelled); those measured "
          "anew their first, in its spell: %d", t.ok, n, t.cancelled, kept);
    session_free(s);
}

/* A one-worker column measured anew after a -t 2 column, as group_begin orders them, and no
 * CPU said busy for the -t 2 workers' ticks (t_cpupick's test_forget shows the mechanism:
 * this run alone need not reach a verdict that would show it). */
static void test_spell_after_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) || CPU_COUNT(&set) < 2) {
        UNAVAILABLE("a column anew after -t 2", "this process may use one CPU");
        return;
    }
    struct session *s = session_of_1_2("md5", "1024", "portable,openssl", "c,hw", 0.3);
    char why[512];
    struct spell_seen w = { .calm_after = 1, .threads = 1 };
    session_set_listener(s, on_spell, &w);
    CHECK(session_run(s, why, sizeof why) == 0, "the run: %s", why);
    size_t again = 0;
    for (size_t i = 0; i < session_ncells(s); i++)
        again += session_cell(s, i)->threads == 1 && session_cell(s, i)->again == 1;
    int said = busy_cpus(&set);
    CHECK(again == 2 && said == 0, "the one-worker column anew after the -t 2 one (%zu cells), "
          "no CPU said busy for the -t 2 workers' time (%d)", again, said);
    session_free(s);
}

/* What this process's affinity was while one-worker cells took their rounds, and while -t 2
 * cells did: a one-worker group runs on one CPU and the session keeps off it (cpupick.h). */
struct affinity_seen {
    int samples, narrowed, whole;
    int usable, max_whole; /* session_max_threads() while they ran: the whole set's */
    int max_whole_of;
};

static void on_sample_affinity(struct session *s, enum session_event ev, size_t cell, void *arg)
{
    struct affinity_seen *a = arg;
    if (ev != SESSION_CELL_SAMPLE)
        return;
    cpu_set_t now;
    sched_getaffinity(0, sizeof now, &now);
    int one = session_cell(s, cell)->threads == 1;
    a->samples += one;
    a->narrowed += one && CPU_COUNT(&now) == a->usable - 1;
    a->whole += !one && CPU_COUNT(&now) == a->usable;
    a->max_whole += session_max_threads(NULL) == a->max_whole_of;
}

static cpu_set_t start_set; /* this process's affinity when the suite began */

static void test_group_cpu(void)
{
    cpu_set_t before, after;
    sched_getaffinity(0, sizeof before, &before);
    CHECK(CPU_EQUAL(&before, &start_set), "the runs before left this process's set as it was "
          "(%d CPUs, %d at the start)", CPU_COUNT(&before), CPU_COUNT(&start_set));
    before = start_set;
    struct affinity_seen a = { .usable = CPU_COUNT(&before),
                               .max_whole_of = session_max_threads(NULL) };
    if (a.usable < 2) {
        UNAVAILABLE("a group's CPU kept free", "this process may use one CPU");
        return;
    }
    struct session *s = session_of_1_2("md5,sha256", "64,1024", "portable,openssl", "c,hw", 0.3);
    char why[512];
    session_set_listener(s, on_sample_affinity, &a);
    CHECK(session_run(s, why, sizeof why) == 0, "run starts: %s", why);
    int two = 0;
    for (size_t i = 0; i < session_ncells(s); i++)
        two += session_cell(s, i)->threads == 2 && session_cell(s, i)->r.status == RES_OK;
    CHECK(a.samples > 0 && a.narrowed == a.samples, "one-worker rounds: this process kept off "
          "their CPU in %d of %d", a.narrowed, a.samples);
    CHECK(a.max_whole == a.samples + a.whole, "the thread counts accepted meanwhile: still the "
          "whole set's (%d of %d rounds)", a.max_whole, a.samples + a.whole);
    CHECK(two > 0 && a.whole > 0, "-t 2 rounds: its whole set (%d seen, %d cells ok)", a.whole,
          two);
    sched_getaffinity(0, sizeof after, &after);
    CHECK(CPU_EQUAL(&before, &after), "after the run: its set as before (%d of %d CPUs)",
          CPU_COUNT(&after), a.usable);
    /* the columns' own workers kept their CPU busy: that is never another program's work */
    int said = busy_cpus(&before);
    CHECK(said == 0, "no CPU said busy by the workers' own time (%d)", said);
    session_free(s);
}

/* A result of n rounds at mb x (1 + jitter on odd rounds), its own interval ci_pct. */
static struct result rounds_of(double mb, double jitter, int n, double ci_pct, double seconds)
{
    struct result r = { .status = RES_RUNNING, .mb_per_s = mb, .rounds = n, .nround = n,
                        .ci_pct = ci_pct, .seconds = seconds };
    for (int k = 0; k < n; k++)
        r.round_mb[k] = (float)(mb * (k % 2 ? 1 + jitter : 1 - jitter));
    return r;
}

/* The stop rule, each branch made to fire and not to fire with made-up rounds. Seconds and
 * budgets are exact in binary, so "spent" is never a rounding question. */
static void test_stop_rule(void)
{
    /* slow: the column's slowest; steady: 3x it, every pair alike; jumpy: 3x it, pairs
     * +-10 % apart although its own figure has settled (its interval from more rounds) */
    struct result slow = rounds_of(100, 0, 8, 1.0, 0.125),
                  steady = rounds_of(300, 0, 8, 1.0, 0.125),
                  jumpy = rounds_of(300, 0.1, 8, 1.0, 0.125);
    const struct result *rs[4] = { &slow, &steady, &jumpy };
    int alive[4] = { 1, 1, 1, 1 };
    CHECK(sched_stop_rule(rs, alive, 3, 1, 8, 1.0) == 1, "settled pair and median: stops");
    CHECK(sched_stop_rule(rs, alive, 3, 2, 8, 1.0) == 0,
          "median settled, ratio to the slowest not: goes on");
    CHECK(sched_stop_rule(rs, alive, 3, 0, 8, 1.0) == 0,
          "the slowest goes on while a partner pairs with it unsettled");
    alive[2] = 0;
    CHECK(sched_stop_rule(rs, alive, 3, 0, 8, 1.0) == 1,
          "the slowest stops once its partners have stopped or settled");
    alive[2] = 1;
    CHECK(sched_stop_rule(rs, alive, 3, 2, 8, 0.125) == 1, "the column's budget spent: stops");
    CHECK(sched_stop_rule(rs, alive, 3, 2, 8, 0.126) == 0, "just under the budget: goes on");
    /* Waits for slow spells are spent from it too: 3 x 0.126 s less 0.375 s of windows
     * leaves 0.003 s, which 4 ms of one member's waits spend and 2 ms do not. */
    steady.waited_ns = 4000000;
    CHECK(sched_stop_rule(rs, alive, 3, 2, 8, 0.126) == 1,
          "the budget spent in windows and a partner's waits: stops");
    steady.waited_ns = 2000000;
    CHECK(sched_stop_rule(rs, alive, 3, 2, 8, 0.126) == 0,
          "windows and waits just under the budget: goes on");
    steady.waited_ns = 0;
    CHECK(sched_stop_rule(rs, alive, 3, 2, SCHED_ROUND_CAP, 1.0) == 1, "the round cap: stops");

    /* The slowest need not come first. */
    const struct result *back[3] = { &steady, &jumpy, &slow };
    CHECK(sched_stop_rule(back, alive, 3, 1, 8, 1.0) == 0 &&
              sched_stop_rule(back, alive, 3, 0, 8, 1.0) == 1,
          "the slowest found wherever it is in the group");

    /* A crashed member keeps its rounds but is no reference: steady pairs with slow. */
    struct result dead = rounds_of(50, 0.1, 6, 1.0, 0.125);
    dead.status = RES_CRASHED;
    rs[2] = &dead;
    alive[2] = 0;
    CHECK(sched_stop_rule(rs, alive, 3, 1, 8, 1.0) == 1,
          "a crashed member, slower still, is not the reference");

    /* One that never timed (failed verification) has no share of the budget: 3 x 0.125 s
     * timed among the two that did spends their 2 x 0.1875. */
    struct result failed = { .status = RES_WRONG };
    struct result a = rounds_of(100, 0.1, 8, 1.0, 0.1875), b = rounds_of(300, -0.1, 8, 1.0, 0.1875);
    const struct result *withfail[3] = { &a, &b, &failed };
    int live2[3] = { 1, 1, 0 };
    CHECK(sched_stop_rule(withfail, live2, 3, 1, 8, 0.1875) == 1,
          "a member that never timed does not enlarge the budget");

    /* Near-tie for slowest: a member's ratio must have settled against both candidates. */
    struct result twin = rounds_of(101, 0.1, 8, 1.0, 0.125);
    rs[2] = &twin;
    alive[2] = 1;
    CHECK(sched_stop_rule(rs, alive, 3, 1, 8, 1.0) == 0,
          "ratio settled to one possible slowest, not to its near-twin: goes on");

    struct result unsure = rounds_of(300, 0, 8, 3.0, 0.125);
    rs[1] = &unsure;
    CHECK(sched_stop_rule(rs, alive, 3, 1, 8, 1.0) == 0, "its own median unsettled: goes on");
    struct result few = rounds_of(300, 0, 4, 1.0, 0.125);
    rs[1] = &few;
    CHECK(sched_stop_rule(rs, alive, 3, 1, 4, 1.0) == 0, "under 5 rounds: goes on");
    struct result alone = rounds_of(100, 0, 6, 1.0, 0.125);
    rs[0] = &alone;
    CHECK(sched_stop_rule(rs, alive, 1, 0, 6, 1.0) == 1, "a column of one: its median decides");
    /* An ENGINE row settled long before its timed windows held enough CPU time to tell
     * whether the kernel did the work (check-kernel's afalg rows stopped at 0.08 s of 0.4):
     * its verdict keeps it going, to the budget. */
    alone.offload_open = 1;
    CHECK(sched_stop_rule(rs, alive, 1, 0, 6, 1.0) == 0,
          "an ENGINE row whose offload verdict is open: goes on");
    CHECK(sched_stop_rule(rs, alive, 1, 0, 6, 0.125) == 1 &&
              sched_stop_rule(rs, alive, 1, 0, SCHED_ROUND_CAP, 1.0) == 1,
          "an ENGINE row whose offload verdict is open: stops at the budget or the round cap");
    alone.waited_ns = 500000000; /* waits alone spend four budgets */
    CHECK(sched_stop_rule(rs, alive, 1, 0, 6, 0.126) == 0,
          "an ENGINE row whose offload verdict is open: waits are not spent from its budget");
    alone.offload_open = 0;
    CHECK(sched_stop_rule(rs, alive, 1, 0, 6, 0.126) == 1,
          "with its verdict in, the same waits spend the budget");
}

/* A column's cells stop only once their x N is known: each one's paired ratio to the
 * column's slowest within +-2 %, unless the column's budget or the round cap ran out (the
 * rule of session_run.c; before it, the slowest stopped on its own interval and its partners'
 * ratios were left with 5 pairs). Each cell is judged when it stops, on what the rule saw
 * then (the listener's SESSION_CELL_DONE: a stopping cell holds the group's rounds back, so
 * nothing has changed since the rule's decision): the final figures would judge pairs and a
 * slowest that came later, and a budget the other cells spent afterwards. */
struct stop_seen {
    double budget;
    int judged, failed_once;
};

static int settled_pair(const struct result *a, const struct result *b, char *say, size_t n)
{
    double q = 0, lo = 0, hi = 0;
    int pairs = derive_paired(a, b, &q, &lo, &hi);
    snprintf(say, n, "%d pairs, %.3f [%.3f, %.3f]", pairs, q, lo, hi);
    return pairs && (hi - lo) / 2 <= q * STATS_ENOUGH_CI_PCT / 100;
}

static void on_stop(struct session *s, enum session_event ev, size_t k, void *arg)
{
    struct stop_seen *seen = arg;
    if (ev != SESSION_CELL_DONE)
        return;
    const struct cell *c = session_cell(s, k), *slow = NULL;
    if (c->r.status != RES_OK || c->r.nround == 0)
        return; /* ended otherwise than by the rule */
    /* The budget as sched_stop_rule counts it: a share for every member still running or
     * that took rounds, and all their seconds, windows and waits (c is no ENGINE row with
     * its offload verdict open: none runs here). */
    double used = 0;
    size_t shares = 0;
    char cells[1024] = "", say[128] = "";
    for (size_t i = 0; i < session_ncells(s); i++) {
        const struct cell *x = session_cell(s, i);
        size_t len = strlen(cells);
        snprintf(cells + len, sizeof cells - len, " %s:%s/%.3fs/%dr", x->impl->name,
                 result_status_short(x->r.status), x->r.seconds, x->r.nround);
        if (x->r.status == RES_RUNNING || x->r.nround > 0)
            shares++;
        if (x->r.nround > 0)
            used += x->r.seconds + (double)x->r.waited_ns / 1e9;
        if (result_comparable(&x->r) && x->r.nround > 0 && (!slow || x->r.mb_per_s < slow->r.mb_per_s))
            slow = x;
    }
    /* (1 - 1e-9): the rule sums the seconds in another order; a last bit may differ */
    int spent = c->r.nround >= SCHED_ROUND_CAP ||
                used >= seen->budget * (double)shares * (1 - 1e-9);
    int settled = 1;
    if (slow && c != slow)
        settled = settled_pair(&c->r, &slow->r, say, sizeof say);
    else /* the slowest itself: every cell still running has its ratio to it */
        for (size_t i = 0; i < session_ncells(s) && settled; i++) {
            const struct cell *x = session_cell(s, i);
            if (x != c && x->r.status == RES_RUNNING && result_comparable(&x->r) && x->r.nround)
                settled = settled_pair(&x->r, &c->r, say, sizeof say);
        }
    seen->judged++;
    if (!(settled || spent) && !seen->failed_once++)
        CHECK(0, "%s stopped with its ratio to %s unsettled (%s) and the budget not spent "
              "(%.3f of %.3f s); cells:%s", c->impl->name, slow && c != slow ? slow->impl->name
              : "the running cells", say, used, seen->budget * (double)shares, cells);
}

static void test_group_stop(void)
{
    struct stop_seen seen = { .budget = 0.15 };
    struct session *s = session_of("sha256", "1024", "portable,openssl-int,openssl-simd,openssl",
                                   "c,asm,hw", seen.budget);
    char why[512];
    session_set_listener(s, on_stop, &seen);
    CHECK(session_run(s, why, sizeof why) == 0, "run: %s", why);
    CHECK(seen.judged >= 2, "sha256 has at least portable and openssl rows, each judged when "
          "it stopped (%d)", seen.judged);
    CHECK(!seen.failed_once, "every cell stopped by the rule's terms (%d did not)",
          seen.failed_once);
    session_free(s);
}

/* Cancel keeps what was measured, marks the running cell, leaves the rest pending. */
static void test_cancel(void)
{
    struct session *s = session_of("md5", "16,64,256,1024", "portable", "all", 0.05);
    char why[512];
    CHECK(session_start(s, why, sizeof why) == 0, "md5 has no ceiling model: starts at once");
    CHECK(session_sel_edit(s, why, sizeof why) == NULL && strstr(why, "running"),
          "the selection is locked while running: %s", why);
    struct pollfd fds[8];
    while (session_running(s) && session_cell(s, 0)->r.status != RES_OK) {
        poll(fds, (nfds_t)session_pollfds(s, fds, 8), 100);
        session_step(s);
    }
    CHECK(session_cancel(s) == 1 && !session_running(s), "cancelled");
    struct session_tally t;
    session_tally(s, &t);
    CHECK(t.ok == 1 && t.cancelled == 1 && t.pending == 2,
          "one kept, one cancelled, two pending: ok %zu cancelled %zu pending %zu", t.ok,
          t.cancelled, t.pending);
    CHECK(session_cancel(s) == 0, "nothing left to cancel");
    session_free(s);
}

static void test_excludes_and_threads(void)
{
    struct session *s = session_new();
    char why[512];
    struct selection *sel = session_sel_edit(s, why, sizeof why);
    select_algs(sel, "md5", why, sizeof why);
    select_toggle_excluded(sel, "portable");
    session_rebuild(s);
    int has = 0;
    for (size_t i = 0; i < session_ncells(s); i++)
        has |= !strcmp(session_cell(s, i)->impl->name, "portable");
    CHECK(!has && session_ncells(s) > 0, "excluded portable is not in the plan");
    select_toggle_excluded(sel, "portable");
    CHECK(sel->nexcl == 0, "toggled back");
    CHECK(select_excludes(sel, "no-such-impl", why, sizeof why) && strstr(why, "accepted"),
          "unknown exclusion refused with what is accepted");
    cpu_set_t mine;
    long online;
    int max = session_max_threads(&online);
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        CHECK(max == CPU_COUNT(&mine), "thread cap is the affinity: %d", max);
    char big[16];
    snprintf(big, sizeof big, "%d", max + 1);
    CHECK(select_threads(sel, big, max, why, sizeof why) && strstr(why, "accepted"),
          "one thread more than the cap refused: %s", why);
    session_free(s);
}

/* Lists of any length: 146 x "sha256," then md5 selects both (it was cut at 1023 bytes). */
static void test_long_lists(void)
{
    struct selection sel;
    select_defaults(&sel);
    char list[2048] = "", why[512];
    for (int i = 0; i < 146; i++)
        strcat(list, "sha256,");
    strcat(list, "md5");
    CHECK(select_algs(&sel, list, why, sizeof why) == 0 && sel.nalgs == 2 &&
              !strcmp(sel.algs[1]->id, "md5"),
          "long list: %d algorithms, %s", sel.nalgs, why);
}

/* The ceilings come from the child as a struct; every cell's limit agrees with the model. */
static void test_ceilings(void)
{
    struct session *s = session_new();
    char why[512];
    select_algs(session_sel_edit(s, why, sizeof why), "aes-128-cbc,sha256,md5", why, sizeof why);
    session_rebuild(s);
    session_ceilings_start(s);
    struct pollfd fds[4];
    for (int k = 0; k < 100 && !session_ceilings_ready(s); k++) {
        poll(fds, (nfds_t)session_pollfds(s, fds, 4), 100);
        session_step(s);
    }
    CHECK(session_ceilings_ready(s), "ceilings answered within 10 s");
    const struct silicon *l = silicon_get();
    if (!l->ok)
        UNAVAILABLE("ceilings", l->why);
    for (size_t i = 0; i < session_ncells(s); i++) {
        const struct cell *c = session_cell(s, i);
        double mb;
        int has = silicon_ceiling(c->impl->alg, c->decrypt, &mb, why, sizeof why) == 0;
        CHECK(has ? c->limit_mb_per_s == mb && mb > 0 : c->limit_mb_per_s == 0,
              "%s/%s: ceiling %g matches the model's answer (%s)", c->impl->alg, c->impl->name,
              c->limit_mb_per_s, has ? "has one" : why);
    }
    /* A second session (the demo's) adopts them: no second child, ready at once. */
    struct session *t = session_new();
    session_ceilings_start(t);
    CHECK(session_ceilings_ready(t) && session_pollfds(t, fds, 4) == 0,
          "a second session shares the ceilings without measuring again");
    session_free(t);
    session_free(s);
}

/* A fresh, empty counting file for fault.c's process-dependent faults. */
static void count_processes(char *path, size_t n)
{
    snprintf(path, n, "/tmp/accelscope-t_session-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0, "a counting file: %s", fd < 0 ? strerror(errno) : path);
    if (fd >= 0)
        close(fd);
    setenv("ACCELSCOPE_TEST_PROCESSES", path, 1);
}

/* A figure only one process shows: fault-modes runs at a tenth of the speed in every second
 * worker process that runs it (fault.c), and a one-worker cell's rounds are taken in turn by
 * two processes (engine.h job.alternate), so one of them is slow: the cell is noisy,
 * process_apart, never best, and no xN is claimed from it or against it (as the column's
 * slowest its x1.0 claims nothing). The portable sha256 cell beside it has two processes
 * too, each with a median. A cell whose second process crashes has crashed
 * (fault-second-crash), whichever of its two processes counted second. -t 2 cells run their
 * processes at once: no alternation. On a machine so busy that a cell keeps under 2 rounds
 * per process, the processes say nothing, and this says so instead of judging. */
static void test_process_modes(void)
{
    char path[64];
    count_processes(path, sizeof path);
    struct session *s = session_of("sha256", "256", "portable,fault-modes", "c,hw", 0.02);
    char why[512];
    CHECK(session_run(s, why, sizeof why) == 0, "process modes: the run: %s", why);
    const struct cell *m = NULL, *pc = NULL;
    for (size_t i = 0; i < session_ncells(s); i++)
        if (!strcmp(session_cell(s, i)->impl->name, "fault-modes"))
            m = session_cell(s, i);
        else
            pc = session_cell(s, i);
    CHECK(m && pc && m->r.status == RES_OK && pc->r.status == RES_OK, "both cells measured");
    for (int k = 0; m && pc && k < 2; k++) {
        const struct cell *c = k ? pc : m;
        const double *p = c->r.process_mb, *ci = c->r.process_ci_pct;
        double hi = p[0] > p[1] ? p[0] : p[1], lo = p[0] > p[1] ? p[1] : p[0];
        /* Both without a median after 4 kept rounds: the rounds were not alternated. */
        CHECK(lo > 0 || hi > 0 || c->r.rounds < 4, "%s: two processes' medians from %d "
              "rounds (%.0f, %.0f MB/s)", c->impl->name, c->r.rounds, p[0], p[1]);
        if (!(lo > 0)) {
            printf("UNAVAILABLE: %s: a process kept under 2 of the cell's %d undisturbed "
                   "rounds (%d retaken) on this machine now: no median of its own\n",
                   c->impl->name, c->r.rounds, c->r.disturbed);
            continue;
        }
        if (c == pc)
            continue;
        CHECK(hi / lo > 3, "fault-modes: one process at a tenth of the speed: %.0f and %.0f MB/s",
              p[0], p[1]);
        if ((hi / lo - 1) * 100 <= ci[0] + ci[1]) { /* an emulator's timing, say */
            printf("UNAVAILABLE: fault-modes: its processes' intervals (+-%.0f %%, +-%.0f %%) "
                   "wider than their %.0f %% apart on this machine now: no verdict to check\n",
                   ci[0], ci[1], (hi / lo - 1) * 100);
            continue;
        }
        CHECK(c->r.process_apart && c->r.quality == RESULT_NOISY &&
                  (c->d.noisy || c->d.speedup == 1.0) && !c->d.best,
              "fault-modes: processes %.0f and %.0f MB/s (+-%.1f, +-%.1f %%): apart %d, quality "
              "%d, comparison %s", p[0], p[1], ci[0], ci[1], c->r.process_apart, c->r.quality,
              c->d.noisy ? "noisy" : "quiet");
        /* portable may be best, the one quiet row, where fault-modes' paired ratio to it
         * (a median of rounds from both its processes) came out under 1 */
        CHECK(!m->d.best && (pc->d.noisy || pc->d.speedup == 1.0),
              "against a row read apart, no xN (portable %.2f, %s); the row apart never best",
              pc->d.speedup, pc->d.noisy ? "noisy" : "quiet");
    }
    session_free(s);
    unlink(path);

    count_processes(path, sizeof path);
    s = session_of("sha256", "256", "fault-second-crash", "hw", 0.02);
    CHECK(session_run(s, why, sizeof why) == 0, "second crash: the run: %s", why);
    const struct cell *c = session_cell(s, 0);
    CHECK(c->r.status == RES_CRASHED && c->d.speedup == 0 && !c->d.best,
          "fault-second-crash: crashed, no figure (%s)", c->r.reason);
    session_free(s);
    unlink(path);

    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) || CPU_COUNT(&set) < 2) {
        printf("UNAVAILABLE: -t 2 without alternation: this process may run on one CPU only\n");
        unsetenv("ACCELSCOPE_TEST_PROCESSES");
        return;
    }
    count_processes(path, sizeof path);
    s = session_of("sha256", "256", "fault-modes", "hw", 0.02);
    struct selection *sel = session_sel_edit(s, why, sizeof why);
    CHECK(sel && !select_threads(sel, "2", session_max_threads(NULL), why, sizeof why),
          "threads 2: %s", why);
    session_rebuild(s);
    CHECK(session_run(s, why, sizeof why) == 0, "-t 2: the run: %s", why);
    c = session_cell(s, 0);
    CHECK(c->r.status == RES_OK && c->r.process_mb[0] == 0 && !c->r.process_apart,
          "-t 2: no alternation, its two processes in thread_mb: %.0f, %.0f",
          c->r.thread_mb[0], c->r.thread_mb[1]);
    session_free(s);
    unlink(path);
    unsetenv("ACCELSCOPE_TEST_PROCESSES");
}

/* Resume measures only what has no result; a queued run cancelled still ends the run. */
static void test_resume(void)
{
    struct session *s = session_of("md5", "16,64", "portable", "all", 0.02);
    char why[512];
    CHECK(session_run(s, why, sizeof why) == 0, "first run");
    double first = session_cell(s, 0)->r.mb_per_s;
    struct counts c = { 0 };
    session_set_listener(s, count, &c);
    CHECK(session_resume(s, why, sizeof why) == 0, "resume starts");
    struct pollfd fds[8];
    while (session_running(s)) {
        poll(fds, (nfds_t)session_pollfds(s, fds, 8), 100);
        session_step(s);
    }
    CHECK(c.start == 0 && c.run_done == 1 && session_cell(s, 0)->r.mb_per_s == first,
          "nothing left to measure: no cell started (%d), figures kept", c.start);
    session_free(s);
}

int main(void)
{
    setenv("ACCELSCOPE_TEST_FAULTS", "1", 1);
    const char *bin = getenv("ACCELSCOPE_BIN");
    engine_set_exe(bin ? bin : "./accelscope");
    sched_getaffinity(0, sizeof start_set, &start_set);
    test_derive();
    test_derive_quality();
    test_derive_paired();
    test_derive_disagree();
    test_derive_spell();
    test_derive_reference();
    round_trip("defaults", edit_none);
    round_trip("edited", edit_all);
    round_trip("includes", edit_impls);
    test_long_lists();
    test_excludes_and_threads();
    test_failing_cells();
    test_process_modes();
    test_spell_again();
    test_spell_cancel();
    test_spell_after_threads();
    test_group_cpu();
    test_stop_rule();
    test_group_stop();
    test_cancel();
    test_ceilings();
    test_resume();
    cpu_set_t end;
    sched_getaffinity(0, sizeof end, &end);
    CHECK(CPU_EQUAL(&end, &start_set), "after every run, cancel and failure: this process's "
          "set as at the start (%d of %d CPUs)", CPU_COUNT(&end), CPU_COUNT(&start_set));
    return check_done();
}
