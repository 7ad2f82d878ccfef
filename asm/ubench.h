/* The instruction microbenchmark loops of asm/x86_64/ubench.S, with the calling convention of
 * direct.h (System V AMD64). A loop runs on any CPU with its instructions; which may run is
 * decided in C (src/silicon.c, from CPUID and the deny list). Plain declarations: compiles
 * everywhere, only x86_64 builds assemble the loops. */
#ifndef ACCELSCOPE_ASM_UBENCH_H
#define ACCELSCOPE_ASM_UBENCH_H

#include <stdint.h>

/* Each loop, timed by backends/microbench.c for src/silicon.c, runs iters iterations of an
 * unrolled body of UBENCH_UNROLL instructions of one kind, either one dependent chain (_lat: each
 * instruction waits for the last) or independent chains (_tp: enough in flight to fill the
 * units); the caller times them with RDTSC. */
#define UBENCH_UNROLL 24
void ubench_add_lat(uint64_t iters); /* dependent 64-bit adds: one core cycle each */
void ubench_aesenc_lat(uint64_t iters);
void ubench_aesenc_tp(uint64_t iters);
void ubench_vaesenc_lat(uint64_t iters); /* VAES on ymm */
void ubench_vaesenc_tp(uint64_t iters);
void ubench_pclmul_lat(uint64_t iters);
void ubench_pclmul_tp(uint64_t iters);
void ubench_vpclmul_lat(uint64_t iters); /* VPCLMULQDQ on ymm */
void ubench_vpclmul_tp(uint64_t iters);
void ubench_sha256rnds2_lat(uint64_t iters);
void ubench_sha256rnds2_tp(uint64_t iters);
void ubench_sha1rnds4_lat(uint64_t iters);
void ubench_sha1rnds4_tp(uint64_t iters);
/* Mixed bodies: 18 AESENC and 6 PCLMULQDQ, independent chains interleaved (GCM's mix, about
 * 10 to 3 a block); the time per body against each instruction's own throughput says whether
 * the AES unit and the carry-less multiplier issue in parallel. */
void ubench_aes_clmul_mix(uint64_t iters);
void ubench_vaes_vclmul_mix(uint64_t iters); /* VAESENC and VPCLMULQDQ on ymm */
/* The same on zmm (EVEX.512, AVX512F): VAESENC, VPCLMULQDQ, and their mix */
void ubench_vaesenc512_lat(uint64_t iters);
void ubench_vaesenc512_tp(uint64_t iters);
void ubench_vpclmul512_lat(uint64_t iters);
void ubench_vpclmul512_tp(uint64_t iters);
void ubench_vaes512_vclmul512_mix(uint64_t iters);
/* GCM's least-mix loops (ubench.S GCMMIX, GCMLOOP), UBENCH_GCM_REGS registers of blocks a
 * body, throughput only: ubench_gcm_<loop> for each loop src/silicon.h's SILICON_GCM_LOOPS
 * names (declared from that list in backends/microbench.c). */
#define UBENCH_GCM_REGS 4

#endif
