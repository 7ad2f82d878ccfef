/* The instruction loops of src/microbench.h: asm/x86_64/ubench.S timed with RDTSC, nothing
 * else between the two reads. */
#include "microbench.h"

#include <stdio.h>

#if defined(__x86_64__)

#include "ubench.h"

/* GCM's least-mix loops, named by silicon.h's SILICON_GCM_LOOPS (ubench.S GCMLOOP) */
#define GCM_DECL(ID, loop, w, blocks, rounds, mult, alu4, tern, label) \
    void ubench_gcm_##loop(uint64_t iters);
SILICON_GCM_LOOPS(GCM_DECL)
#undef GCM_DECL

static const struct loops {
    void (*lat)(uint64_t);
    void (*tp)(uint64_t);
    int regs; /* GCM's least-mix loops: registers of blocks a body (timed per register) */
} loops[SIL_COUNT] = {
    [SIL_AESENC] = { ubench_aesenc_lat, ubench_aesenc_tp },
    [SIL_VAESENC] = { ubench_vaesenc_lat, ubench_vaesenc_tp },
    [SIL_PCLMULQDQ] = { ubench_pclmul_lat, ubench_pclmul_tp },
    [SIL_VPCLMULQDQ] = { ubench_vpclmul_lat, ubench_vpclmul_tp },
    [SIL_SHA256RNDS2] = { ubench_sha256rnds2_lat, ubench_sha256rnds2_tp },
    [SIL_SHA1RNDS4] = { ubench_sha1rnds4_lat, ubench_sha1rnds4_tp },
    /* throughput only: no chain runs through both units */
    [SIL_MIX] = { ubench_aes_clmul_mix, ubench_aes_clmul_mix },
    [SIL_VMIX] = { ubench_vaes_vclmul_mix, ubench_vaes_vclmul_mix },
    [SIL_VAESENC_Z] = { ubench_vaesenc512_lat, ubench_vaesenc512_tp },
    [SIL_VPCLMULQDQ_Z] = { ubench_vpclmul512_lat, ubench_vpclmul512_tp },
    [SIL_VMIX_Z] = { ubench_vaes512_vclmul512_mix, ubench_vaes512_vclmul512_mix },
#define GCM_LOOP(ID, loop, w, blocks, rounds, mult, alu4, tern, label)                        \
    [SIL_GCM_##ID] = { ubench_gcm_##loop, ubench_gcm_##loop, UBENCH_GCM_REGS },
    SILICON_GCM_LOOPS(GCM_LOOP)
#undef GCM_LOOP
};

/* TSC cycles per instruction, or per register of a GCM loop (per = its registers a body) */
static double tsc_run(void (*fn)(uint64_t), uint64_t iters, int per)
{
    uint64_t t0 = __builtin_ia32_rdtsc();
    fn(iters);
    uint64_t t1 = __builtin_ia32_rdtsc();
    return (double)(t1 - t0) / ((double)iters * (per ? per : UBENCH_UNROLL));
}

int microbench_check(char *why, size_t n)
{
    (void)why, (void)n;
    return 0;
}

double microbench_add(uint64_t iters)
{
    return tsc_run(ubench_add_lat, iters, 0);
}

double microbench_insn(enum silicon_insn insn, int throughput, uint64_t iters)
{
    return tsc_run(throughput ? loops[insn].tp : loops[insn].lat, iters, loops[insn].regs);
}

#else

int microbench_check(char *why, size_t n)
{
    snprintf(why, n, "no instruction microbenchmarks for this architecture");
    return -1;
}

double microbench_add(uint64_t iters)
{
    (void)iters;
    return 0;
}

double microbench_insn(enum silicon_insn insn, int throughput, uint64_t iters)
{
    (void)insn, (void)throughput, (void)iters;
    return 0;
}

#endif
