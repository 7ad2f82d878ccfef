#!/bin/sh
# What the zmm GCM kernel's instructions cost beside each other, without its dependencies
# (issue 15: why aes-gcm-vaes512.S stays well under the AES+VPCLMULQDQ ceiling of silicon.c).
#  1. interference: eight independent VAESENC zmm chains with 4 or 8 other instructions of one
#     kind spread between them, as a multiple of the VAESENC alone (x1.00: the other kind runs
#     on other ports; more: it takes the AES units' issue slots);
#  2. the mix of one 32-block group (80 VAESENC, 26 VPCLMULQDQ, 12 shuffles, 50 XORs, 10
#     VPSHUFD, the kernel's counts for AES-128), built up kind by kind, in core cycles a group
#     (at the dependent-add clock): the bound that instruction count sets, against the
#     multiplier's 26 x its reciprocal throughput that the ceiling model takes.
# Needs VAES, VPCLMULQDQ and AVX-512F (else UNAVAILABLE), cc and python3.
#   sh tests/bench/gcm_mix.sh
set -eu
case $(uname -m) in
x86_64) ;;
*) echo "UNAVAILABLE: zmm instructions are x86-64, this is $(uname -m)"; exit 0 ;;
esac
for f in vaes vpclmulqdq avx512f; do
    grep -qw "$f" /proc/cpuinfo || { echo "UNAVAILABLE: this CPU lacks $f"; exit 0; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
other = {  # one instruction of a kind, writing zmm20..27 from zmm28..31 (independent)
    'vpxorq': 'vpxorq %zmm{a}, %zmm{b}, %zmm{d}',
    'vpternlogq': 'vpternlogq $0x96, %zmm{a}, %zmm{b}, %zmm{d}',
    'vpaddd': 'vpaddd %zmm{a}, %zmm{b}, %zmm{d}',
    'vpshufd': 'vpshufd $0x4e, %zmm{a}, %zmm{d}',
    'vpshufb': 'vpshufb %zmm{a}, %zmm{b}, %zmm{d}',
    'vpslldq': 'vpslldq $8, %zmm{a}, %zmm{d}',
    'vextracti64x4': 'vextracti64x4 $1, %zmm{a}, %ymm{d}',
    'vpclmulqdq': 'vpclmulqdq $0x00, %zmm{a}, %zmm{b}, %zmm{d}',
    'load': 'vmovdqu64 (%rsi), %zmm{d}',
}
mixes = [('aes', (80, 0, 0, 0, 0)), ('clmul', (0, 26, 0, 0, 0)), ('aes+clmul', (80, 26, 0, 0, 0)),
         ('+12 shuffles', (80, 26, 12, 0, 0)), ('+50 xors', (80, 26, 12, 50, 0)),
         ('+10 vpshufd', (80, 26, 12, 50, 10))]
asm, names = ['.text'], []
def fn(name, body):
    asm.extend([f'.globl {name}', f'{name}:', '1:'] + body +
               ['dec %rdi', 'jnz 1b', 'vzeroupper', 'ret'])
    names.append(name)
fn('i_none_0', [f'vaesenc %zmm16, %zmm{i}, %zmm{i}' for i in range(8)] * 4)
for kind, op in other.items():
    for k in (4, 8):
        body = []
        for i in range(8):
            body.append(f'vaesenc %zmm16, %zmm{i}, %zmm{i}')
            for j in range(i * k // 8, (i + 1) * k // 8):
                body.append(op.format(a=28 + j % 4, b=28 + (j + 1) % 4, d=20 + j % 8))
        fn(f'i_{kind}_{k}', body * 4)
templ = {'a': 'vaesenc %zmm16, %zmm{r}, %zmm{r}', 'c': 'vpclmulqdq $0x00, %zmm17, %zmm18, %zmm{r}',
         's': 'vpshufb %zmm20, %zmm21, %zmm{r}', 'x': 'vpxorq %zmm22, %zmm23, %zmm{r}',
         'd': 'vpshufd $0x4e, %zmm21, %zmm{r}'}
regs = {'a': range(0, 8), 'c': range(8, 12), 's': (12, 13), 'x': range(24, 28), 'd': (14, 15)}
for m, (label, counts) in enumerate(mixes):
    total, done, body = sum(counts), dict.fromkeys('acsxd', 0), []
    for t in range(total):  # each kind spread evenly over the group
        k = max((n * (t + 1) / total - done[k], k) for k, n in zip('acsxd', counts) if n)[1]
        r = regs[k][done[k] % len(regs[k])]
        done[k] += 1
        body.append(templ[k].format(r=r))
    fn(f'm_{m}', body)
open(f'{work}/mix.S', 'w').write('\n'.join(asm) + '\n.section .note.GNU-stack,"",@progbits\n')
open(f'{work}/names.h', 'w').write(' '.join(f'V({n})' for n in names) + '\n')
open(f'{work}/labels.h', 'w').write(', '.join(f'"{l}"' for l, _ in mixes) + '\n')
PY
cat >"$work/mix.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>
#define V(n) void n(long, void *);
#include "names.h"
#undef V
#define V(n) { #n, n },
static const struct { const char *name; void (*f)(long, void *); } fs[] = {
#include "names.h"
};
static const char *labels[] = {
#include "labels.h"
};
/* TSC cycles per dependent add (8 chained a loop pass): the core clock's ratio to the TSC.
 * A register addend: Golden Cove and later fold add-immediate chains (src/clock.c). */
static volatile unsigned long addend = 1;
static double add_tsc(void)
{
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        uint64_t t0 = __rdtsc();
        unsigned long x = 0, step = addend;
        for (int i = 0; i < 200000; i++)
            __asm__ volatile("add %1,%0\n add %1,%0\n add %1,%0\n add %1,%0\n"
                             "add %1,%0\n add %1,%0\n add %1,%0\n add %1,%0" : "+r"(x) : "r"(step));
        double t = (double)(__rdtsc() - t0) / 1.6e6;
        best = t < best ? t : best;
    }
    return best;
}
int main(void)
{
    static char buf[4096] __attribute__((aligned(64)));
    enum { N = sizeof fs / sizeof fs[0], ITERS = 20000 };
    double best[N];
    for (int v = 0; v < N; v++)
        best[v] = 1e30;
    for (int r = 0; r < 7; r++) /* interleaved, fastest of 7: what the units can do */
        for (int v = 0; v < N; v++) {
            uint64_t t0 = __rdtsc();
            fs[v].f(ITERS, buf);
            double t = (double)(__rdtsc() - t0) / ITERS;
            best[v] = t < best[v] ? t : best[v];
        }
    double add = add_tsc();
    printf("interference: 32 VAESENC zmm (8 chains) with other instructions, x the VAESENC alone\n");
    for (int v = 1; v < N && !strncmp(fs[v].name, "i_", 2); v++)
        printf("  %-22s x%.2f\n", fs[v].name + 2, best[v] / best[0]);
    printf("one 32-block group's instructions, independent, core cycles (%.2f TSC a core cycle)\n",
           add);
    for (int v = 0, m = 0; v < N; v++)
        if (!strncmp(fs[v].name, "m_", 2))
            printf("  %-14s %6.1f\n", labels[m++], best[v] / add);
    return 0;
}
EOF
cc -O2 -I"$work" -o "$work/mix" "$work/mix.c" "$work/mix.S"
"$work/mix"
