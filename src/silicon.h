/* The silicon's limits: latency and reciprocal throughput of the crypto instructions, from
 * microbenchmarks (asm/x86_64/ubench.S), in TSC cycles and in core cycles (the core clock
 * estimated with a chain of dependent adds, as libgcrypt's bench-slope --cpu-mhz auto; this
 * kind of VM has no PMU; never fewer than the fastest run took at the fastest clock the adds
 * showed, as a host can slow the adds alone: silicon_floor), the memcpy bandwidth, and from
 * them a speed ceiling per algorithm.
 *
 * Ceiling model (MB/s = 10^6 bytes/s; core cycles at the measured core clock):
 *   CBC encrypt  16 B per rounds x AESENC latency (one dependency chain)
 *   CBC decrypt  16 B per rounds x AESENC reciprocal throughput (AESDEC taken as AESENC)
 *   CTR          the best of 16 B per rounds x AESENC recip. throughput and, with VAES,
 *                32 B per rounds x VAESENC ymm recip. throughput and (AVX-512) 64 B per
 *                rounds x VAESENC zmm recip. throughput
 *   GCM          per block, the AES rounds on the AES unit, a = rounds x AESENC recip.
 *                throughput, and on theirs GHASH's three carry-less multiplies (Karatsuba)
 *                and its reduction (two PCLMULQDQ per 16 blocks, per 64 on ymm and zmm:
 *                the fewest the direct kernels do), g = (3 + 2 / 16) x PCLMULQDQ recip.
 *                throughput on xmm; the two issue together as
 *                well as a mixed loop shows (18 AESENC and 6 PCLMULQDQ, GCM's mix): with A
 *                and P its two parts' times alone and t its time, s = (A + P) / t in [1, 2]
 *                (1: one shared issue; separate units give t = max(A, P); the parts run in
 *                the same short windows as the mix; s is the highest of three tries'
 *                medians, and of every measurement merged (silicon_merge): a busy host
 *                only slows the mix); a block takes
 *                max(a, g, (a + g) / s, m), bound by the AES unit (a), the carry-less
 *                multiplier (g), both (shared issue, the third term: Zen 3, where PCLMULQDQ
 *                takes an AES pipe), or the vector issue ports (m): the time a register of
 *                a loop of GCM's least instruction mix takes (asm/x86_64/ubench.S GCMMIX:
 *                the rounds, a product's carry-less multiplies, 4 schoolbook or 3 Karatsuba,
 *                and the vector ALU work no stitched GCM goes without: the XOR with the data,
 *                the byte swap of the block hashed, Karatsuba's half-sums (two registers'
 *                by two unpacks and one XOR), the products added into the sums, by
 *                VPTERNLOGQ where the CPU has it at that width; the counter
 *                and round key 0 can be made in general registers and loaded, as OpenSSL's
 *                aesni_ctr32_encrypt_blocks does, so they are not counted), over the blocks a
 *                register; the fastest of the four forms, and only where it is over 1.05 x the
 *                rest (m about a is a's to say: a slow try must not lower the ceiling). On
 *                Intel's Golden Cove (the Sapphire Rapids VM of 2026-12-03) three vector ports
 *                take AES, multiplies and ALU alike on xmm and ymm, and m bounds them; at 512
 *                bits m = a. Per 16 B on xmm, per 32 B with
 *                VAESENC and VPCLMULQDQ on ymm and their own loops, or per 64 B with the
 *                zmm ones and theirs, whichever is fastest. The reduction and the folding of
 *                lanes are not counted (a kernel's distance).
 *   SHA-256      64 B per 32 x SHA256RNDS2 latency (the state is one chain)
 *   SHA-1        64 B per 20 x SHA1RNDS4 latency
 * rounds = 10, 12, 14 for 128-, 192-, 256-bit keys. ChaCha20-Poly1305 has no model: no
 * crypto instruction carries it (ChaCha20 is vector adds, XORs and rotates, Poly1305 scalar
 * 64-bit multiplies), so its limit is the generic SIMD and multiplier throughput, which these
 * single-instruction loops do not measure. Instructions the CPU lacks or that
 * ACCELSCOPE_DENY denies are not run, and algorithms needing them have no ceiling. */
#ifndef ACCELSCOPE_SILICON_H
#define ACCELSCOPE_SILICON_H

#include <stddef.h>
#include <stdio.h>

/* GCM's least-mix loops (asm/x86_64/ubench.S GCMMIX, the model's m above), each named once:
 * X(ID, loop, w, blocks, rounds, mult, alu4, tern, label): SIL_GCM_<ID> and the function
 * ubench_gcm_<loop>; the width (x, y, z: xmm, ymm, zmm) and its 16-byte blocks a register; AES
 * rounds; carry-less multiplies a register (4 schoolbook, 3 Karatsuba); the vector ALU
 * instructions in a body of four registers; VPTERNLOGQ (EVEX: on xmm and ymm AVX512F and VL). */
#define SILICON_GCM_LOOPS(X)                                                                \
    X(X10S, x10s, x, 1, 10, 4, 24, 0, "GCM mix xmm 10 rounds schoolbook")                  \
    X(X10ST, x10st, x, 1, 10, 4, 16, 1, "GCM mix xmm 10 rounds schoolbook VPTERNLOGQ")     \
    X(X10K, x10k, x, 1, 10, 3, 26, 0, "GCM mix xmm 10 rounds Karatsuba")                   \
    X(X10KT, x10kt, x, 1, 10, 3, 20, 1, "GCM mix xmm 10 rounds Karatsuba VPTERNLOGQ")      \
    X(X14S, x14s, x, 1, 14, 4, 24, 0, "GCM mix xmm 14 rounds schoolbook")                  \
    X(X14ST, x14st, x, 1, 14, 4, 16, 1, "GCM mix xmm 14 rounds schoolbook VPTERNLOGQ")     \
    X(X14K, x14k, x, 1, 14, 3, 26, 0, "GCM mix xmm 14 rounds Karatsuba")                   \
    X(X14KT, x14kt, x, 1, 14, 3, 20, 1, "GCM mix xmm 14 rounds Karatsuba VPTERNLOGQ")      \
    X(Y10S, y10s, y, 2, 10, 4, 24, 0, "GCM mix ymm 10 rounds schoolbook")                  \
    X(Y10ST, y10st, y, 2, 10, 4, 16, 1, "GCM mix ymm 10 rounds schoolbook VPTERNLOGQ")     \
    X(Y10K, y10k, y, 2, 10, 3, 26, 0, "GCM mix ymm 10 rounds Karatsuba")                   \
    X(Y10KT, y10kt, y, 2, 10, 3, 20, 1, "GCM mix ymm 10 rounds Karatsuba VPTERNLOGQ")      \
    X(Y14S, y14s, y, 2, 14, 4, 24, 0, "GCM mix ymm 14 rounds schoolbook")                  \
    X(Y14ST, y14st, y, 2, 14, 4, 16, 1, "GCM mix ymm 14 rounds schoolbook VPTERNLOGQ")     \
    X(Y14K, y14k, y, 2, 14, 3, 26, 0, "GCM mix ymm 14 rounds Karatsuba")                   \
    X(Y14KT, y14kt, y, 2, 14, 3, 20, 1, "GCM mix ymm 14 rounds Karatsuba VPTERNLOGQ")      \
    X(Z10ST, z10st, z, 4, 10, 4, 16, 1, "GCM mix zmm 10 rounds schoolbook")                \
    X(Z10KT, z10kt, z, 4, 10, 3, 20, 1, "GCM mix zmm 10 rounds Karatsuba")                 \
    X(Z14ST, z14st, z, 4, 14, 4, 16, 1, "GCM mix zmm 14 rounds schoolbook")                \
    X(Z14KT, z14kt, z, 4, 14, 3, 20, 1, "GCM mix zmm 14 rounds Karatsuba")

enum silicon_insn {
    SIL_AESENC, SIL_VAESENC, SIL_PCLMULQDQ, SIL_VPCLMULQDQ, SIL_SHA256RNDS2, SIL_SHA1RNDS4,
    SIL_MIX, SIL_VMIX, /* GCM's mixed loops (xmm, ymm): throughput only, per instruction */
    SIL_VAESENC_Z, SIL_VPCLMULQDQ_Z, SIL_VMIX_Z, /* the same three on zmm (AVX-512) */
#define SIL_GCM_ID(ID, loop, w, blocks, rounds, mult, alu4, tern, label) SIL_GCM_##ID,
    SILICON_GCM_LOOPS(SIL_GCM_ID) /* GCM's least-mix loops: throughput only, a register */
#undef SIL_GCM_ID
    SIL_COUNT
};

struct silicon_insn_result {
    const char *name;     /* "AESENC" */
    int ok;               /* measured */
    char why[128];        /* when not */
    double lat_tsc, tp_tsc;   /* TSC cycles per instruction: latency, reciprocal throughput */
    double lat_core, tp_core; /* the same in core cycles, floored (silicon_floor) */
    double lat_raw, tp_raw;   /* the same before the floor raised them: the median of the
                               * windows' instruction-over-adds ratios, at each window's clock
                               * (GCM's least-mix loops: the fewest of remix's medians; a
                               * mixed loop: the higher s's; a merge: the fewest of the
                               * tries', a mixed loop's the higher s's); silicon_unfloor */
    double speedup;           /* a mixed loop: s = (A + P) / t, its parts run beside it; */
    double speedup_low;       /* the best and the worst of three tries (silicon.c remix),
                               * of every try of every measurement merged */
};

/* The GCM model for one key size (see above), in core cycles per 16-byte block. */
struct silicon_gcm {
    int ok;
    int rounds;
    int blocks;           /* blocks per register of the faster width: 1 xmm, 2 ymm, 4 zmm */
    double aes, ghash;    /* a and g per 16 B */
    double speedup;       /* s of the mixed loop */
    double mix;           /* m: GCM's least instruction mix, its fastest loop's time a register
                           * over the blocks a register, per 16 B; 0 when not measured */
    int mix_mult;         /* that loop's carry-less multiplies a register: 4 or 3 */
    double mix_alu;       /* and its vector ALU instructions a register */
    double cycles;        /* the model's time per 16 B */
    char bound[96];       /* which unit bounds it: "AESENC", "PCLMULQDQ", "... (shared issue)",
                           * "the vector issue ports (GCM's instruction mix)" */
    char why[128];        /* when not ok */
};

struct silicon {
    int ok;               /* the clocks could be measured */
    char why[128];
    double tsc_mhz, core_mhz; /* core: the fastest clock the add chains saw */
    double memcpy_l1_mb_s;   /* 16 KiB buffers (the size of the default job) */
    double memcpy_ram_mb_s;  /* 16 MiB buffers, the largest job size */
    double measure_ms;       /* what the measurements took, all tries */
    int tries;               /* measurements merged (silicon_merge), 1 for one */
    struct silicon_insn_result insn[SIL_COUNT];
    struct silicon_gcm gcm128, gcm256; /* the GCM model for AES-128 and AES-256 */
};

/* Runs the microbenchmarks once (~100-300 ms), later calls return the cached result (which
 * silicon_measure_again can improve on). 0 when the clocks were measured; -1 otherwise (see
 * silicon_get()->why). */
int silicon_measure(void);

/* The measured figures (silicon_measure() first, which this calls). */
const struct silicon *silicon_get(void);

/* 0 and the ceiling of alg (algo id) in the given direction, with the model and figures used
 * in why; nonzero and the reason in why when there is no model or no measurement. */
int silicon_ceiling(const char *alg, int decrypt, double *mb_per_s, char *why, size_t n);

/* The core clock now, from a ~1 ms dependent-add sample (0 where unmeasured): ceilings are
 * quoted at the clock silicon_measure() saw; scale by now / silicon_get()->core_mhz to compare
 * with a run made while the clock was lower (turbo, a busy host). The sample is a chain of
 * adds, which a host can slow alone (silicon_floor): scaled down, a ceiling may then read low
 * for the vector code; tests/bench/direct_bench.c scales down only where a vector probe,
 * read beside, says the clock fell, and from raw figures (silicon_unfloor). */
double silicon_core_mhz_now(void);

/* Which registers CTR and GCM ceilings may assume: the best measured, or one width (the
 * ceiling of a kernel of that width; no ceiling where that width was not measured). */
enum silicon_width { SILICON_BEST, SILICON_XMM, SILICON_YMM, SILICON_ZMM };
int silicon_ceiling_width(const char *alg, int decrypt, enum silicon_width width,
                          double *mb_per_s, char *why, size_t n);

/* Whether alg has a ceiling model at all (decided without measuring anything). */
int silicon_has_model(const char *alg);

/* Takes the figures silicon_measure() gave in a forked child of this program (session.c),
 * or the reason there are none, as if measured here: later calls do not measure again.
 * Tests use it to check the ceiling model against figures worked out by hand. */
void silicon_adopt(const struct silicon *l);
void silicon_adopt_failure(const char *why);

/* Measures again and keeps, figure by figure, the fastest of all tries (silicon_merge): a
 * limit is what the silicon showed it can do, and a host that slows vector code in spells of
 * 100 ms and more can hold one whole measurement down (the Zen 5 VM's zmm AES-128-GCM
 * ceiling read 31133 MB/s in one process and 36705 in another, minutes apart). 0, or -1 when
 * this try failed (the figures held stand). *this_try, when not NULL, gets this try's own
 * figures: over many tries each figure's fastest is a composite no try measured, so a bench
 * judges against the best whole try instead (tests/bench/direct_bench.c). */
int silicon_measure_again(struct silicon *this_try);

/* Raises every cycle figure of l (throughput, latency) to at least its fastest run's TSC time
 * at the clock pair core_mhz/tsc_mhz, the fastest clock the dependent adds showed. A window's
 * add-to-run ratio reads low when the host slows the adds alone: on the Zen 4 VM (family
 * 0x19) a spell of a minute or more slowed them ~1.55x and not the vector units (a host
 * thread on the SMT sibling, presumably), and every try of a process read AESENC 0.32 cycles
 * (latency 2.5), SHA256RNDS2 0.65, PCLMULQDQ 1.3 against 0.50 (4.0), 1.0, 2.0 before and
 * after: AES ceilings ~1.55x what the units allow. After it, no ceiling is above what the
 * instructions' own loop ran at. The price: a clock that falls during a measurement (boost
 * decay, a slowed host) reads as more cycles, so a ceiling may be lower than the silicon's.
 * silicon_measure and silicon_merge apply it with their clock pair; a bench that compares
 * tries applies the fastest pair of all (tests/bench/direct_bench.c). Works l's GCM models
 * out again from the raised figures. */
void silicon_floor(struct silicon *l, double core_mhz, double tsc_mhz);

/* Sets l's cycle figures back to those silicon_floor raised them from (tp_raw, lat_raw) and
 * works its GCM models out again: cycles counted against the adds of the same windows alone.
 * The floor counts a run that went below the top clock the adds showed (over the whole
 * process) as more cycles: right for a ceiling quoted at that clock, wrong for one moved to
 * another clock (tests/bench/direct_bench.c, which quotes each share at the clock read around
 * its slice). Where a host slowed the adds alone, a raw figure reads too few cycles: a
 * ceiling too high. */
void silicon_unfloor(struct silicon *l);

/* Takes the figures l into those held, each the faster of the two (cycles: the fewer, and of
 * the raw ones the fewer; a mixed loop: the try with the higher s, with its time, raw too; the
 * core clock, the higher with its TSC clock; memcpy the higher), and works the GCM models out
 * again; l alone when nothing was held, nothing when l failed. */
void silicon_merge(const struct silicon *l);

/* How many measurements the product's ceilings merge (the TUI's and run's, info --limits):
 * one alone, taken in a slow spell, read the zmm AES-128-GCM ceiling 15 % low on the Zen 5
 * VM, which shows every kernel that much nearer the silicon; each more costs ~0.25 s. */
#define SILICON_TRIES 3

/* silicon_measure(), then silicon_measure_again() until n tries were made; 0 when the
 * figures held are measured (as silicon_measure). */
int silicon_measure_tries(int n);

/* Tests only: every dependent-add sample of the instruction measurements' windows
 * (silicon.c core_per_insn; not silicon_core_mhz_now's) reads factor times its time from now
 * on, as a host that slows the integer adds and not the vector units; 1 undoes it. */
void silicon_test_slow_adds(double factor);

/* The table as "key: value" lines, for `info`. */
void silicon_describe(FILE *out);

#endif
