/* The silicon's limits: see silicon.h for the model. Timing uses the TSC around the
 * instruction loops of microbench.h (defined in backends/). Runs are converted to core cycles
 * at the clock of dependent-add samples taken beside them, because the clock moves (boost, a
 * busy host), and the median of several such windows is kept (core_per_insn); ceilings are
 * quoted at the fastest clock seen. */
#include "silicon.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "algo.h"
#include "clock.h"
#include "cpu.h"
#include "microbench.h"

static struct silicon lim;
static int measured;

#define WINDOWS 7
#define PAIRS 5

static const struct probe {
    const char *name;
    enum feature need[5];
    int nneed;
    int mix; /* a mixed loop: throughput only */
    enum silicon_insn part[2]; /* a mixed loop's AES and carry-less multiply, run beside it */
    /* GCM's least-mix loops (silicon.h SILICON_GCM_LOOPS): throughput only, per register */
    int gcm;                 /* one of them */
    int gcm_blocks, gcm_rounds, gcm_mult, gcm_alu4; /* as SILICON_GCM_LOOPS names them */
} probes[SIL_COUNT] = {
    [SIL_AESENC] = { "AESENC", { FEAT_AESNI }, 1 },
    [SIL_VAESENC] = { "VAESENC ymm", { FEAT_VAES, FEAT_AVX2 }, 2 },
    [SIL_PCLMULQDQ] = { "PCLMULQDQ", { FEAT_PCLMULQDQ }, 1 },
    [SIL_VPCLMULQDQ] = { "VPCLMULQDQ ymm", { FEAT_VPCLMULQDQ, FEAT_AVX2 }, 2 },
    [SIL_SHA256RNDS2] = { "SHA256RNDS2", { FEAT_SHA }, 1 },
    [SIL_SHA1RNDS4] = { "SHA1RNDS4", { FEAT_SHA }, 1 },
    [SIL_MIX] = { "AESENC+PCLMULQDQ mix", { FEAT_AESNI, FEAT_PCLMULQDQ }, 2, 1,
                  { SIL_AESENC, SIL_PCLMULQDQ } },
    [SIL_VMIX] = { "VAESENC+VPCLMULQDQ ymm mix", { FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX2 }, 3,
                   1, { SIL_VAESENC, SIL_VPCLMULQDQ } },
    /* EVEX.512 needs AVX512F (with ZMM state in XCR0); VAES and VPCLMULQDQ give the zmm forms */
    [SIL_VAESENC_Z] = { "VAESENC zmm", { FEAT_VAES, FEAT_AVX512F }, 2 },
    [SIL_VPCLMULQDQ_Z] = { "VPCLMULQDQ zmm", { FEAT_VPCLMULQDQ, FEAT_AVX512F }, 2 },
    [SIL_VMIX_Z] = { "VAESENC+VPCLMULQDQ zmm mix", { FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX512F },
                     3, 1, { SIL_VAESENC_Z, SIL_VPCLMULQDQ_Z } },
    /* The VEX instructions of GCM's loops need AVX on xmm, AVX2 on ymm; VPTERNLOGQ and VPXORQ
     * on xmm and ymm are EVEX (AVX512F, AVX512VL); VPSHUFB zmm is AVX512BW */
#define GCM_NEED_x0 .need = { FEAT_AESNI, FEAT_PCLMULQDQ, FEAT_AVX }, .nneed = 3
#define GCM_NEED_x1                                                                            \
    .need = { FEAT_AESNI, FEAT_PCLMULQDQ, FEAT_AVX, FEAT_AVX512F, FEAT_AVX512VL }, .nneed = 5
#define GCM_NEED_y0 .need = { FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX2 }, .nneed = 3
#define GCM_NEED_y1                                                                            \
    .need = { FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX2, FEAT_AVX512F, FEAT_AVX512VL }, .nneed = 5
#define GCM_NEED_z1 .need = { FEAT_VAES, FEAT_VPCLMULQDQ, FEAT_AVX512F, FEAT_AVX512BW }, .nneed = 4
#define GCM_PROBE(ID, loop, w, blocks, rounds, mult, alu4, tern, label)                        \
    [SIL_GCM_##ID] = { .name = label, GCM_NEED_##w##tern, .gcm = 1, .gcm_blocks = blocks,      \
                       .gcm_rounds = rounds, .gcm_mult = mult, .gcm_alu4 = alu4 },
    SILICON_GCM_LOOPS(GCM_PROBE)
#undef GCM_PROBE
#undef GCM_NEED_x0
#undef GCM_NEED_x1
#undef GCM_NEED_y0
#undef GCM_NEED_y1
#undef GCM_NEED_z1
};

/* The mixed loops' bodies (asm/ubench.h): this many of each per UBENCH_UNROLL instructions. */
#define MIX_AES 18
#define MIX_CLMUL 6
/* Blocks per GHASH reduction (two carry-less multiplies by the field's constant): 16 on xmm,
 * 64 on ymm (32 pairs) and on zmm (16 quads), the fewest the direct kernels do (the xmm ones
 * reduce each two groups of 8; aes-gcm-vaes512.S each pair of groups of 32, aes-gcm-vaes.S's
 * EVEX form each four of 16 while four are left). Until 2026-12-07 this said 32 on ymm and
 * zmm, as those kernels did before they took more powers: a reduction a 64 blocks more than
 * they do, which put the wide ceilings under theirs, where GHASH bounds them by 2 x PCLMULQDQ
 * / 64 a block: on the Zen 5 VM (PCLMULQDQ and VPCLMULQDQ 2.01-2.02 cycles) ymm's GHASH
 * 3.14 -> 3.08 cycles per 16 B (2 %), zmm's 1.64 -> 1.58 (4 %). The VEX ymm form (CPUs
 * without AVX-512VL) reduces each two groups: its ceiling now counts one reduction fewer
 * than it does, about 1 % (a bound it is to approach, not its own structure). */
static int reduce_blocks(int blocks)
{
    return blocks > 1 ? 64 : 16;
}

/* The loop core_per_insn() times: an instruction's, or the dependent adds' (ADDS). */
#define ADDS SIL_COUNT

static double fastest_add = 1e30; /* fewest TSC cycles per dependent add seen: top clock */
static double add_slowdown = 1;   /* silicon_test_slow_adds */

void silicon_test_slow_adds(double factor)
{
    add_slowdown = factor;
}

/* TSC cycles per instruction of one run of iters iterations of loop insn. */
static double tsc_run(int insn, int tp, uint64_t iters)
{
    return insn == ADDS ? microbench_add(iters) : microbench_insn(insn, tp, iters);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Cycles per instruction. Runs alternate with dependent-add samples in windows of PAIRS;
 * within a window (~0.5 ms, too short for the clock to move much) the fastest run and the
 * fastest add sample are taken, which drops interruptions of either, and their ratio is the
 * instruction's time in core cycles at that window's clock. The median over WINDOWS windows
 * is kept (a constant of the silicon, whatever the clock did between windows; on a shared
 * host either half can be slowed for longer than a window, so neither extreme is trusted;
 * measure() keeps it as the raw figure, tp_raw or lat_raw, then floors it with silicon_floor
 * once the fastest clock is known).
 * *tsc is the fastest run in TSC cycles.
 *
 * A mixed loop (part non-NULL) also runs its two parts in the same windows, and *speedup is
 * the median of the windows' s = (A + P) / t (silicon.h): parts and mix measured moments
 * apart disagreed on this VM kind, whose host slows vector code for a spell of 100 ms or more
 * (the mix read 0.59 core cycles an instruction in most runs and 0.73-0.87 in a spell, with
 * its parts unchanged, which moved the GCM ceiling by 40 %). */
static double core_per_insn(int insn, int tp, uint64_t iters, double *tsc,
                            const enum silicon_insn *part, double *speedup)
{
    double core[WINDOWS], s[WINDOWS], best_tsc = 1e30;
    tsc_run(insn, tp, iters / 8 + 1); /* warm up: caches, the unit's power state */
    for (int w = 0; w < WINDOWS; w++) {
        double add = 1e30, t = 1e30, pa = 1e30, pp = 1e30;
        for (int r = 0; r < PAIRS; r++) {
            double a = microbench_add(4000) * add_slowdown, x = tsc_run(insn, tp, iters);
            add = a < add ? a : add;
            t = x < t ? x : t;
            if (part) {
                double xa = tsc_run(part[0], 1, iters), xp = tsc_run(part[1], 1, iters);
                pa = xa < pa ? xa : pa;
                pp = xp < pp ? xp : pp;
            }
        }
        if (add < fastest_add)
            fastest_add = add;
        if (t < best_tsc)
            best_tsc = t;
        core[w] = t / add;
        s[w] = part ? (MIX_AES * pa + MIX_CLMUL * pp) / ((MIX_AES + MIX_CLMUL) * t) : 0;
    }
    *tsc = best_tsc;
    qsort(core, WINDOWS, sizeof core[0], cmpd);
    if (part) {
        qsort(s, WINDOWS, sizeof s[0], cmpd);
        *speedup = s[WINDOWS / 2];
    }
    return core[WINDOWS / 2];
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Large buffers on transparent huge pages where the kernel allows: first touch of 4 KiB
 * pages costs more than the copies in a VM (~0.5 s for 128 MiB in this VM). */
static void *big_alloc(size_t bytes)
{
    const size_t huge = 2u << 20;
    if (bytes < huge || bytes % huge)
        return malloc(bytes);
    void *p = aligned_alloc(huge, bytes);
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

/* Best MB/s of memcpy over bytes-sized buffers; the call goes through a volatile pointer so
 * the copies cannot be elided. */
static double memcpy_mb_s(size_t bytes, int reps)
{
    void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
    uint8_t *a = big_alloc(bytes), *b = big_alloc(bytes);
    double best = 0;
    if (!a || !b)
        goto out_free;
    memset(a, 1, bytes), memset(b, 2, bytes);
    size_t inner = bytes >= (1u << 20) ? 1 : (4u << 20) / bytes;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (size_t i = 0; i < inner; i++)
            cpy(i & 1 ? a : b, i & 1 ? b : a, bytes);
        double dt = now_s() - t0;
        double mbs = dt > 0 ? (double)bytes * inner / dt / 1e6 : 0;
        if (mbs > best)
            best = mbs;
    }
out_free:
    free(a);
    free(b);
    return best;
}

static int need(const struct silicon *l, enum silicon_insn i, char *why, size_t n)
{
    if (l->insn[i].ok)
        return 1;
    snprintf(why, n, "%s not measured: %.96s", l->insn[i].name, l->insn[i].why);
    return 0;
}

/* The GCM model of silicon.h from l's figures on one register width: aes, clmul and their
 * mixed loop, blocks 16-byte blocks per register (1, 2, 4). 0, or -1 and m->why. */
static int gcm_width(const struct silicon *l, enum silicon_insn aes, enum silicon_insn clmul,
                     enum silicon_insn mix, int blocks, struct silicon_gcm *m)
{
    if (!need(l, aes, m->why, sizeof m->why) || !need(l, clmul, m->why, sizeof m->why) ||
        !need(l, mix, m->why, sizeof m->why))
        return -1;
    const struct silicon_insn_result *a = &l->insn[aes], *p = &l->insn[clmul];
    double s = l->insn[mix].speedup;
    m->speedup = s < 1 ? 1 : s > 2 ? 2 : s;
    m->aes = m->rounds * a->tp_core / blocks;
    /* three multiplies a register, two more (PCLMULQDQ xmm) per reduction's blocks */
    m->ghash = 3 * p->tp_core / blocks +
               2 * l->insn[SIL_PCLMULQDQ].tp_core / reduce_blocks(blocks);
    double hi = m->aes > m->ghash ? m->aes : m->ghash, both = (m->aes + m->ghash) / m->speedup;
    m->cycles = both > hi ? both : hi;
    /* m: the fastest of the width's least-mix loops for these rounds, where measured (none
     * for 12 rounds: AES-192-GCM has no model) */
    m->mix = 0;
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct probe *q = &probes[i];
        const struct silicon_insn_result *g = &l->insn[i];
        if (q->gcm && g->ok && q->gcm_blocks == blocks && q->gcm_rounds == m->rounds &&
            (m->mix == 0 || g->tp_core / blocks < m->mix))
            m->mix = g->tp_core / blocks, m->mix_mult = q->gcm_mult,
            m->mix_alu = q->gcm_alu4 / 4.0;
    }
    /* within 5 %, m is a's, g's or theirs to say: the loops' own noise (the zmm one read
     * 1.00-1.04 a on this VM) must not lower the ceiling */
    if (m->mix > m->cycles * 1.05) {
        snprintf(m->bound, sizeof m->bound, "the vector issue ports (GCM's mix: %d x %s, %d x "
                 "%s, %g ALU a register)", m->rounds, a->name, m->mix_mult, p->name, m->mix_alu);
        m->cycles = m->mix;
    } else if (both > hi * 1.02)
        snprintf(m->bound, sizeof m->bound, "%s and %s (shared issue)", a->name, p->name);
    else
        snprintf(m->bound, sizeof m->bound, "%s", m->aes >= m->ghash ? a->name : p->name);
    m->blocks = blocks;
    m->ok = 1;
    return 0;
}

/* The instructions of one register width: AES, carry-less multiply, their mix, blocks. */
static const struct width_insns {
    enum silicon_insn aes, clmul, mix;
    int blocks;
} widths[] = {
    [SILICON_XMM] = { SIL_AESENC, SIL_PCLMULQDQ, SIL_MIX, 1 },
    [SILICON_YMM] = { SIL_VAESENC, SIL_VPCLMULQDQ, SIL_VMIX, 2 },
    [SILICON_ZMM] = { SIL_VAESENC_Z, SIL_VPCLMULQDQ_Z, SIL_VMIX_Z, 4 },
};

static int gcm_of(const struct silicon *l, enum silicon_width w, struct silicon_gcm *m)
{
    return gcm_width(l, widths[w].aes, widths[w].clmul, widths[w].mix, widths[w].blocks, m);
}

/* The GCM model for rounds on width: xmm, ymm, zmm, or the fastest that was measured (xmm
 * must be: the reduction's figure is PCLMULQDQ's). */
static int gcm_model(const struct silicon *l, int rounds, enum silicon_width width,
                     struct silicon_gcm *m)
{
    *m = (struct silicon_gcm){ .rounds = rounds };
    if (!need(l, SIL_PCLMULQDQ, m->why, sizeof m->why))
        return -1;
    if (width != SILICON_BEST)
        return gcm_of(l, width, m);
    if (gcm_of(l, SILICON_XMM, m) != 0)
        return -1;
    for (enum silicon_width w = SILICON_YMM; w <= SILICON_ZMM; w++) {
        struct silicon_gcm x = { .rounds = rounds };
        if (gcm_of(l, w, &x) == 0 && x.cycles < m->cycles)
            *m = x;
    }
    return 0;
}

/* The mixed loops again, some ms later: a limit is what the silicon showed it can do, and
 * the host slows only the mixed loop at times, never speeds it up. With a second mixed loop
 * on the other vCPU of this VM, s fell from 1.48 to 0.92-1.10 while its parts, run beside it
 * in the same windows, kept 0.50 and 2.00 cycles; on an idle VM about one measurement in
 * ten read 1.0-1.2. The try with the highest s is kept; the lowest is shown beside it. */
static void remix(void)
{
    for (int i = 0; i < SIL_COUNT; i++) {
        struct silicon_insn_result *r = &lim.insn[i];
        if (probes[i].gcm && r->ok) { /* the fastest the silicon showed, as for s */
            double tsc, t = core_per_insn(i, 1, 1000, &tsc, NULL, NULL);
            if (t < r->tp_core)
                r->tp_core = t, r->tp_tsc = tsc;
        }
        if (!probes[i].mix || !r->ok)
            continue;
        double tsc, s, t = core_per_insn(i, 1, 4000, &tsc, probes[i].part, &s);
        if (s < r->speedup_low)
            r->speedup_low = s;
        if (s > r->speedup)
            r->speedup = s, r->tp_core = t, r->tp_tsc = tsc;
    }
}

static void measure(void)
{
    char why[128] = "";
    for (int i = 0; i < SIL_COUNT; i++)
        lim.insn[i].name = probes[i].name;
    if (microbench_check(lim.why, sizeof lim.why) != 0) {
        for (int i = 0; i < SIL_COUNT; i++)
            snprintf(lim.insn[i].why, sizeof lim.insn[i].why, "%s", lim.why);
        return;
    }
    double t0 = now_s();
    lim.tsc_mhz = clock_tsc_mhz(why, sizeof why);
    if (lim.tsc_mhz <= 0) {
        snprintf(lim.why, sizeof lim.why, "%s", why);
        return;
    }
    double unused;
    core_per_insn(ADDS, 0, 8000, &unused, NULL, NULL); /* the clock settles */
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct probe *p = &probes[i];
        struct silicon_insn_result *r = &lim.insn[i];
        int ok = 1;
        for (int k = 0; k < p->nneed && ok; k++)
            ok = cpu_feature_status(p->need[k], r->why, sizeof r->why);
        if (!ok)
            continue;
        if (!p->mix && !p->gcm)
            r->lat_core = core_per_insn(i, 0, 2000, &r->lat_tsc, NULL, NULL);
        else if (p->mix && (!lim.insn[p->part[0]].ok || !lim.insn[p->part[1]].ok)) {
            snprintf(r->why, sizeof r->why, "its parts were not measured");
            continue;
        }
        /* a GCM body is some 90 instructions, not 24: fewer iterations for as long a run */
        r->tp_core = core_per_insn(i, 1, p->gcm ? 1000 : 4000, &r->tp_tsc,
                                   p->mix ? p->part : NULL, &r->speedup);
        r->speedup_low = r->speedup;
        r->ok = 1;
    }
    lim.memcpy_l1_mb_s = memcpy_mb_s(16384, 5);
    remix();
    lim.memcpy_ram_mb_s = memcpy_mb_s(16u << 20, 3);
    remix();
    for (int i = 0; i < SIL_COUNT; i++)
        lim.insn[i].tp_raw = lim.insn[i].tp_core, lim.insn[i].lat_raw = lim.insn[i].lat_core;
    lim.core_mhz = lim.tsc_mhz / fastest_add; /* one add per core cycle, at the top clock */
    silicon_floor(&lim, lim.core_mhz, lim.tsc_mhz); /* the final top clock; the models too */
    lim.ok = 1;
    lim.measure_ms = (now_s() - t0) * 1e3;
    lim.tries = 1;
}

double silicon_core_mhz_now(void)
{
    if (silicon_measure() != 0)
        return 0;
    double add = 1e30;
    for (int r = 0; r < 3; r++) {
        double c = microbench_add(4000);
        if (c < add)
            add = c;
    }
    return lim.tsc_mhz / add;
}

int silicon_measure(void)
{
    if (!measured) {
        measure();
        measured = 1;
    }
    return lim.ok ? 0 : -1;
}

const struct silicon *silicon_get(void)
{
    silicon_measure();
    return &lim;
}

/* MB/s from bytes per core cycles. */
static double rate(double bytes, double cycles)
{
    return bytes / cycles * lim.core_mhz;
}

/* CTR: AES-NI xmm, VAES ymm, VAES zmm, or the fastest that was measured (AES-NI must be). */
static int ctr_ceiling(int rounds, enum silicon_width width, double *mbs, char *why, size_t n)
{
    enum silicon_width lo = width == SILICON_BEST ? SILICON_XMM : width;
    enum silicon_width hi = width == SILICON_BEST ? SILICON_ZMM : width;
    if (!need(&lim, widths[lo].aes, why, n))
        return -1;
    double best = 0;
    for (enum silicon_width w = lo; w <= hi; w++) {
        const struct silicon_insn_result *a = &lim.insn[widths[w].aes];
        double bytes = 16.0 * widths[w].blocks;
        if (!a->ok || rate(bytes, rounds * a->tp_core) <= best)
            continue;
        best = rate(bytes, rounds * a->tp_core);
        snprintf(why, n, "%.0f B per %d x %s recip. throughput %.2f core cycles", bytes, rounds,
                 a->name, a->tp_core);
    }
    *mbs = best;
    return 0;
}

/* CBC: encrypt is one chain (latency), decrypt runs blocks in parallel (throughput). */
static int cbc_ceiling(int r, int decrypt, double *mbs, char *model, size_t n)
{
    if (!need(&lim, SIL_AESENC, model, n))
        return -1;
    const struct silicon_insn_result *a = &lim.insn[SIL_AESENC];
    if (decrypt) {
        *mbs = rate(16, r * a->tp_core);
        snprintf(model, n, "16 B per %d x AESENC recip. throughput %.2f core "
                 "cycles (AESDEC taken as AESENC)", r, a->tp_core);
    } else {
        *mbs = rate(16, r * a->lat_core);
        snprintf(model, n, "16 B per %d x AESENC latency %.2f core cycles", r, a->lat_core);
    }
    return 0;
}

/* GCM: the model of silicon.h, per 16-byte block. */
static int gcm_ceiling(int r, enum silicon_width width, double *mbs, char *model, size_t n)
{
    struct silicon_gcm m;
    if (gcm_model(&lim, r, width, &m) != 0)
        return snprintf(model, n, "%s", m.why), -1;
    const struct width_insns *w = &widths[m.blocks == 4 ? SILICON_ZMM : m.blocks == 2
                                                                           ? SILICON_YMM
                                                                           : SILICON_XMM];
    const char *aes = lim.insn[w->aes].name, *clmul = lim.insn[w->clmul].name;
    char per[40] = "";
    if (m.blocks > 1)
        snprintf(per, sizeof per, " (%d blocks per instruction)", m.blocks);
    *mbs = rate(16, m.cycles);
    char mix[48] = "";
    if (m.mix > 0)
        snprintf(mix, sizeof mix, "; GCM's least mix %.2f", m.mix);
    snprintf(model, n, "per 16 B: AES %d x %s = %.2f core cycles, GHASH 3 x %s + reduction = "
             "%.2f%s; "
             "together %.2fx faster than one after the other (mixed loop)%s: %.2f cycles, "
             "bound by %s", r, aes, m.aes, clmul, m.ghash, per,
             m.speedup, mix, m.cycles,
             m.bound);
    return 0;
}

/* SHA: one 64-byte block per rounds x the round instruction's latency (one chain). */
static int sha_ceiling(enum silicon_insn insn, int rounds, double *mbs, char *model, size_t n)
{
    if (!need(&lim, insn, model, n))
        return -1;
    *mbs = rate(64, rounds * lim.insn[insn].lat_core);
    snprintf(model, n, "64 B per %d x %s latency %.2f core cycles", rounds, lim.insn[insn].name,
             lim.insn[insn].lat_core);
    return 0;
}

/* The algorithms the model covers: AES (rounds is nonzero for AES alone) in CBC, CTR or GCM,
 * SHA-1, SHA-256. */
static int modelled(const struct algo *a)
{
    if (!a)
        return 0;
    if (a->rounds)
        return a->mode == ALGO_MODE_CBC || a->mode == ALGO_MODE_CTR || a->mode == ALGO_MODE_GCM;
    return !strcmp(a->id, "sha256") || !strcmp(a->id, "sha1");
}

int silicon_ceiling(const char *alg, int decrypt, double *mb_per_s, char *why, size_t n)
{
    return silicon_ceiling_width(alg, decrypt, SILICON_BEST, mb_per_s, why, n);
}

int silicon_ceiling_width(const char *alg, int decrypt, enum silicon_width width,
                          double *mb_per_s, char *why, size_t n)
{
    const struct algo *a = algo_find(alg);
    char model[400];
    double mbs = 0;
    *mb_per_s = 0;
    /* Decided before measuring, so a run of md5 alone never pays for microbenchmarks. */
    if (!modelled(a)) {
        snprintf(why, n, "no ceiling model for %s%s", alg,
                 a && a->mode == ALGO_MODE_CHACHA20_POLY1305
                     ? ": no crypto instruction carries it (vector adds, XORs, rotates and "
                       "64-bit multiplies, which these microbenchmarks do not measure)"
                     : "");
        return -1;
    }
    if (silicon_measure() != 0) {
        snprintf(why, n, "no limits: %s", lim.why);
        return -1;
    }
    int r = (int)a->rounds, e;
    if (a->rounds && a->mode == ALGO_MODE_CBC)
        e = cbc_ceiling(r, decrypt, &mbs, model, sizeof model);
    else if (a->rounds && a->mode == ALGO_MODE_CTR)
        e = ctr_ceiling(r, width, &mbs, model, sizeof model);
    else if (a->rounds)
        e = gcm_ceiling(r, width, &mbs, model, sizeof model);
    else if (!strcmp(a->id, "sha256"))
        e = sha_ceiling(SIL_SHA256RNDS2, 32, &mbs, model, sizeof model);
    else
        e = sha_ceiling(SIL_SHA1RNDS4, 20, &mbs, model, sizeof model);
    if (e != 0)
        return snprintf(why, n, "%s", model), -1;
    *mb_per_s = mbs;
    snprintf(why, n, "%s at %.0f MHz core", model, lim.core_mhz);
    return 0;
}

static void describe_gcm(FILE *out, const struct silicon_gcm *m)
{
    if (!m->ok)
        fprintf(out, "limits gcm %d rounds: no model: %s\n", m->rounds, m->why);
    else
    {
        char mix[32] = "not measured";
        if (m->mix > 0)
            snprintf(mix, sizeof mix, "%.2f", m->mix);
        fprintf(out, "limits gcm %d rounds: %s, per 16 B AES %.2f, GHASH %.2f, together %.2fx, "
                "GCM's least mix %s: %.2f cycles, bound by %s\n", m->rounds,
                m->blocks == 4 ? "zmm" : m->blocks == 2 ? "ymm" : "xmm", m->aes,
                m->ghash, m->speedup, mix, m->cycles, m->bound);
    }
}

void silicon_describe(FILE *out)
{
    if (silicon_measure() != 0) {
        fprintf(out, "limits: %s\n", lim.why);
        return;
    }
    fprintf(out, "limits clock: core %.0f MHz (dependent adds), TSC %.0f MHz; cycles below "
            "are core cycles, TSC cycles in brackets\n", lim.core_mhz, lim.tsc_mhz);
    for (int i = 0; i < SIL_COUNT; i++) {
        const struct silicon_insn_result *r = &lim.insn[i];
        if (!r->ok)
            fprintf(out, "limits %s: not measured: %s\n", r->name, r->why);
        else if (probes[i].gcm)
            fprintf(out, "limits %s: %.2f [%.2f] a register (%d x AES, %d x carry-less "
                    "multiply, %g vector ALU instructions)\n", r->name, r->tp_core, r->tp_tsc,
                    probes[i].gcm_rounds, probes[i].gcm_mult, probes[i].gcm_alu4 / 4.0);
        else if (probes[i].mix)
            fprintf(out, "limits %s: %.2f [%.2f] per instruction (%d + %d a body), "
                    "%.2fx its parts' sum beside it (best of 3 tries, lowest %.2fx)\n", r->name,
                    r->tp_core, r->tp_tsc, MIX_AES, MIX_CLMUL, r->speedup, r->speedup_low);
        else
            fprintf(out, "limits %s: latency %.2f [%.2f], reciprocal throughput %.2f [%.2f]\n",
                    r->name, r->lat_core, r->lat_tsc, r->tp_core, r->tp_tsc);
    }
    describe_gcm(out, &lim.gcm128);
    describe_gcm(out, &lim.gcm256);
    fprintf(out, "limits memcpy: %.0f MB/s (16 KiB), %.0f MB/s (16 MiB)\n", lim.memcpy_l1_mb_s,
            lim.memcpy_ram_mb_s);
    for (size_t i = 0; i < algo_count; i++) {
        const struct algo *a = &algo_table[i];
        char why[300];
        double enc, dec;
        if (!modelled(a))
            continue;
        if (silicon_ceiling(a->id, 0, &enc, why, sizeof why) != 0) {
            fprintf(out, "limits ceiling %s: none: %s\n", a->id, why);
            continue;
        }
        if (a->mode == ALGO_MODE_CBC && silicon_ceiling(a->id, 1, &dec, why, sizeof why) == 0)
            fprintf(out, "limits ceiling %s: encrypt %.0f MB/s, decrypt %.0f MB/s\n", a->id,
                    enc, dec);
        else
            fprintf(out, "limits ceiling %s: %.0f MB/s\n", a->id, enc);
    }
    fprintf(out, "limits measured in: %.0f ms (%d %s%s)\n", lim.measure_ms, lim.tries,
            lim.tries == 1 ? "measurement" : "measurements",
            lim.tries > 1 ? ", each figure the fastest of them" : "");
}

/* The figures measured by another process of this same program (the session's ceilings
 * child, a fork: its string pointers are valid here too, the image is the same). */
void silicon_adopt(const struct silicon *l)
{
    lim = *l;
    measured = 1;
}

/* *x = the fewer of *x and y, cycles, a missing figure (0) not counted; 1 when y was taken. */
static int fewer(double *x, double y)
{
    if (!(y > 0 && (!(*x > 0) || y < *x)))
        return 0;
    *x = y;
    return 1;
}

/* One figure of an instruction: the faster of the one held (*x, *xt: core and TSC cycles) and
 * the try's (y, yt). */
static void faster(double *x, double *xt, double y, double yt)
{
    if (fewer(x, y))
        *xt = yt;
}

/* The GCM models of l worked out again from its figures. */
static void models(struct silicon *l)
{
    gcm_model(l, 10, SILICON_BEST, &l->gcm128);
    gcm_model(l, 14, SILICON_BEST, &l->gcm256);
}

void silicon_floor(struct silicon *l, double core_mhz, double tsc_mhz)
{
    double f = tsc_mhz > 0 ? core_mhz / tsc_mhz : 0;
    for (int i = 0; i < SIL_COUNT; i++) {
        struct silicon_insn_result *r = &l->insn[i];
        if (r->tp_tsc * f > r->tp_core)
            r->tp_core = r->tp_tsc * f;
        if (r->lat_tsc * f > r->lat_core)
            r->lat_core = r->lat_tsc * f;
    }
    models(l);
}

void silicon_unfloor(struct silicon *l)
{
    for (int i = 0; i < SIL_COUNT; i++) {
        struct silicon_insn_result *r = &l->insn[i];
        if (r->tp_raw > 0)
            r->tp_core = r->tp_raw;
        if (r->lat_raw > 0)
            r->lat_core = r->lat_raw;
    }
    models(l);
}

void silicon_merge(const struct silicon *l)
{
    measured = 1;
    if (!lim.ok) { /* l alone, its reason too when it failed */
        lim = *l;
        return;
    }
    if (!l->ok)
        return;
    for (int i = 0; i < SIL_COUNT; i++) {
        struct silicon_insn_result *r = &lim.insn[i];
        const struct silicon_insn_result *t = &l->insn[i];
        if (!t->ok)
            continue;
        if (!r->ok) {
            *r = *t;
            continue;
        }
        faster(&r->lat_core, &r->lat_tsc, t->lat_core, t->lat_tsc);
        fewer(&r->lat_raw, t->lat_raw);
        if (probes[i].mix) { /* the try with the highest s, its time with it (as remix) */
            if (t->speedup > r->speedup)
                r->speedup = t->speedup, r->tp_core = t->tp_core, r->tp_tsc = t->tp_tsc,
                r->tp_raw = t->tp_raw;
            if (t->speedup_low < r->speedup_low)
                r->speedup_low = t->speedup_low;
        } else {
            faster(&r->tp_core, &r->tp_tsc, t->tp_core, t->tp_tsc);
            fewer(&r->tp_raw, t->tp_raw);
        }
    }
    if (l->core_mhz > lim.core_mhz) /* one try's pair: silicon_core_mhz_now scales by it */
        lim.core_mhz = l->core_mhz, lim.tsc_mhz = l->tsc_mhz;
    silicon_floor(&lim, lim.core_mhz, lim.tsc_mhz); /* one try's figures, another's clock;
                                                       the models worked out again */
    if (l->memcpy_l1_mb_s > lim.memcpy_l1_mb_s)
        lim.memcpy_l1_mb_s = l->memcpy_l1_mb_s;
    if (l->memcpy_ram_mb_s > lim.memcpy_ram_mb_s)
        lim.memcpy_ram_mb_s = l->memcpy_ram_mb_s;
    lim.measure_ms += l->measure_ms;
    lim.tries += l->tries;
}

int silicon_measure_tries(int n)
{
    int rc = silicon_measure();
    for (int t = 1; t < n && rc == 0; t++)
        silicon_measure_again(NULL);
    return rc;
}

int silicon_measure_again(struct silicon *this_try)
{
    if (!measured) {
        int rc = silicon_measure();
        if (this_try)
            *this_try = lim;
        return rc;
    }
    struct silicon held = lim;
    memset(&lim, 0, sizeof lim);
    measure();
    struct silicon fresh = lim;
    lim = held;
    silicon_merge(&fresh);
    if (this_try)
        *this_try = fresh;
    return fresh.ok ? 0 : -1;
}

void silicon_adopt_failure(const char *why)
{
    memset(&lim, 0, sizeof lim);
    snprintf(lim.why, sizeof lim.why, "%s", why);
    measured = 1;
}

int silicon_has_model(const char *alg)
{
    return modelled(algo_find(alg));
}
