/* Did an ENGINE row's work go where the row says? `openssl speed -engine afalg` quietly
 * leaves every algorithm the engine does not claim to libcrypto's software, and its figure
 * then reads as an offload figure. The worker gathers the evidence (the engine's own answer
 * for its context, the kernel descriptors open once it is set up, and user and system CPU
 * time of the timed windows); offload_judge() decides. */
#ifndef ACCELSCOPE_OFFLOAD_H
#define ACCELSCOPE_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

/* Below this share of the timed windows' CPU time in the kernel, a kernel-path engine row
 * did its work in user space: AF_ALG or /dev/crypto spends most of it in system time (a
 * syscall per operation and the kernel's cipher), software little beyond interrupts. In the
 * kernel VM (tests/kernel, TCG) the afalg engine's AES-CBC rows spent 77-100 %, software
 * SHA-256 through the same engine row 0.6-6.6 %: the line sits well clear of both. */
#define OFFLOAD_MIN_SYS_PCT 30.0
/* Less CPU time than this says nothing either way: getrusage splits a process's run time
 * into user and system by timer ticks (1-10 ms), so a verdict needs tens of them. */
#define OFFLOAD_MIN_CPU_NS 100000000ull

struct offload_evidence {
    int kernel;       /* the row is on the kernel path (AF_ALG or /dev/crypto engine) */
    int claimed;      /* the context runs the engine's code (impl->offload returned 0) */
    int kfds;         /* AF_ALG sockets and /dev/crypto descriptors open once set up */
    uint64_t user_ns; /* CPU time of the timed windows, all workers */
    uint64_t sys_ns;
};

/* 1 when the work stayed in libcrypto's software, with the reason in why ("afalg engine
 * does not handle sha256: libcrypto software did the work"); 0 when it went to the engine. */
int offload_judge(const struct offload_evidence *ev, const char *engine, const char *alg,
                  char *why, size_t n);

/* System time in % of the CPU time, -1 when there was too little CPU time to tell. */
double offload_sys_pct(uint64_t user_ns, uint64_t sys_ns);

/* AF_ALG sockets and /dev/crypto descriptors this process has open. */
int offload_kernel_fds(void);

#endif
