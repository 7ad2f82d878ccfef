/* The measuring side of a worker process: `accelscope __worker ...`, exec'd by the engine so
 * that capability masks in its environment take effect when libcrypto starts. It verifies the
 * implementation's output against a reference, then takes timed samples when the engine says
 * so, as text lines on stdout (see engine.c for the reader):
 *   hello <pid> <capability vector>
 *   verified <reference>
 *   clock <pmu|pmu-user|tsc|none>
 *   offload <claimed 0|1> <kernel fds> <engine id>   (ENGINE rows only: src/offload.h)
 *   ready                      then it reads commands, one a line, on stdin:
 *     cal  -> calibrated <batch> <steady_ns>  ops between clock reads, a fiftieth of a
 *             sample of SECONDS/SAMPLES (untimed), after the clock is steady (steady(), which
 *             took steady_ns)
 *     cal warm -> the same without waiting for a steady clock (steady_ns 0 on the first
 *             cal): the engine says its CPU has run timed rounds until just now (engine_warm)
 *     pin <cpu> -> (nothing) its rounds from now on run on that CPU (of its starting set; one
 *             not in it, or gone, leaves it where it was)
 *     go [<t0_ns> | wait <lref>] -> sample <ops> <bytes> <wall_ns> <cpu_ns> <cycles> <nivcsw>
 *                    <steal> <t0_ns> <t1_ns> <mhz_before> <mhz_after> <vrate_before>
 *                    <vrate_after> <user_ns> <sys_ns> <others_user> <others_ticks> <moved>
 *                    <sib_user> <sib_ticks> <lrate_before> <lrate_after> <waited_ns>
 *             (calibrating first if no cal came; the window starts at CLOCK_MONOTONIC t0_ns
 *             when given, the engine's start instant for -t N, once every worker of the
 *             cell has reached it where FD:N:I was given (barrier_wait); after a WARM_NS
 *             settle otherwise:
 *             one worker's rounds; with `wait`, that settle goes on while the load probe reads
 *             a slow spell against lref, the run's usual figure, for WAIT_MAX_NS at most)
 *     quit or end of input -> done, exit 0
 * or, instead of a figure: unavailable|wrong|error <reason>.
 * In a sample line: nivcsw = involuntary context switches during it (getrusage); steal =
 * steal ticks of its CPU during it from /proc/stat, -1 where unreadable; t0/t1 = the timed
 * window in CLOCK_MONOTONIC ns (one clock for all workers); mhz = the dependent-add clock
 * probe just before and after the window; vrate the vector unit's rate, in millions of adds a
 * second (0 where not measured); user/sys = user and system CPU time of the window (getrusage);
 * others = /proc/stat ticks the other CPUs spent running programs (user, nice), and all their
 * ticks, during it (-1 -1 where unreadable or the worker changed CPU); moved = 1 when the
 * worker was on another CPU after the sample than before its warm-up (after a wait: before
 * the window); lrate = the load probe's rate (clock.h) before and after; waited = how long
 * the settle waited for a slow spell to pass (then the counters are read again: they are the
 * window's).
 * Paced only when stdin is a socket (the engine's); run by hand, with any other stdin, it
 * takes SAMPLES samples in a row and says done. */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "algo.h"
#include "clock.h"
#include "stats.h"
#include "cycles.h"
#include "kat.h"
#include "offload.h"
#include "procstat.h"
#include "registry.h"
#include "select.h"

static uint64_t now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    sigset_t alrm, old; /* a heartbeat never lands inside a line */
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_BLOCK, &alrm, &old);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A public-key worker makes its keys before it can say `verified`: an RSA-4096 prime search
 * can outlast the engine's watchdog on a slow board. Meanwhile it says `busy` every 2 s (any
 * line is news to the engine). */
static void beat(int sig)
{
    static const char m[] = "busy\n";
    ssize_t k = write(STDOUT_FILENO, m, sizeof m - 1);
    (void)sig, (void)k;
}

static void heartbeat(int on)
{
    struct sigaction sa = { .sa_handler = beat, .sa_flags = SA_RESTART };
    struct itimerval t = { { on * 2, 0 }, { on * 2, 0 } };
    if (on)
        sigaction(SIGALRM, &sa, NULL);
    setitimer(ITIMER_REAL, &t, NULL);
}

/* splitmix64: seeded, repeatable inputs so a mismatch can be replayed. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {
            seed += 0x9e3779b97f4a7c15u;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
            seed ^= z ^ (z >> 31);
        }
        p[i] = (uint8_t)(seed >> (8 * (i % 8)));
    }
}

struct live {
    const struct impl *im;
    void *ctx;
};

static int live_init(struct live *l, const struct impl *im, const uint8_t *key,
                     const uint8_t *iv, int decrypt, char *why, size_t n)
{
    l->im = im;
    l->ctx = calloc(1, im->ctx_size ? im->ctx_size : 1);
    if (!l->ctx)
        abort();
    if (im->init(im, l->ctx, key, iv, decrypt, why, n)) {
        free(l->ctx);
        l->ctx = NULL;
        return -1;
    }
    return 0;
}

static void live_free(struct live *l)
{
    if (l->ctx && l->im->cleanup)
        l->im->cleanup(l->ctx);
    free(l->ctx);
    l->ctx = NULL;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return n;
}

/* Two operations in a row, so chaining and nonce handling are checked, not one call only;
 * encryption's second op runs in place, as the timed loop does. Returns 0 when im agrees
 * with ref, -1 when its output differs (wrong output), -2 when an operation or the set-up
 * failed (an error: e.g. a size the implementation refuses). */
/* The buffers of a verification: one slot each, reused by both ops. */
struct pair {
    uint8_t *pt, *got, *want, *ct;
    size_t len, olen, cap;
};

/* Encryption and digests: two ops, the second in place, each against the reference's. */
static int pair_encrypt(const struct impl *im, const struct impl *ref, struct live *t,
                        struct live *r, const struct pair *p, char *why, size_t n)
{
    size_t len = p->len;
    for (int k = 0; k < 2; k++) {
        if (ref->op(r->ctx, p->want, p->pt, len)) {
            snprintf(why, n, "reference %s failed", ref->name);
            return -2;
        }
        int bad;
        if (k == 0) {
            bad = im->op(t->ctx, p->got, p->pt, len);
        } else {
            memcpy(p->got, p->pt, len);
            bad = im->op(t->ctx, p->got, p->got, len);
        }
        if (bad) {
            snprintf(why, n, "%zu-byte operation %d%s failed", len, k + 1,
                     k ? " (in place)" : "");
            return -2;
        }
        size_t d = first_diff(p->got, p->want, p->olen);
        if (d < p->olen) {
            snprintf(why, n, "%zu-byte op %d%s differs from %s at byte %zu", len, k + 1,
                     k ? " (in place)" : "", ref->name, d);
            return -1;
        }
    }
    return 0;
}

/* Ciphers: decrypt two chained ciphertexts. AEAD: open one sealed message twice (the nonce
 * does not advance on decrypt). */
static int pair_decrypt(const struct algo *a, const struct impl *im, const struct impl *ref,
                        struct live *t, struct live *r, const struct pair *p, char *why,
                        size_t n)
{
    size_t len = p->len;
    int chained = a->kind == ALGO_CIPHER;
    for (int k = 0; k < 2; k++)
        if ((k == 0 || chained) && ref->op(r->ctx, p->ct + k * p->cap, p->pt, len)) {
            snprintf(why, n, "reference %s failed", ref->name);
            return -2;
        }
    for (int k = 0; k < 2; k++) {
        if (im->op(t->ctx, p->got, p->ct + (chained ? k : 0) * p->cap, len)) {
            snprintf(why, n, "%zu-byte decrypt op %d failed: the reference's message was "
                     "refused (tag or transform error)", len, k + 1);
            return -2;
        }
        size_t d = first_diff(p->got, p->pt, len);
        if (d < len) {
            snprintf(why, n, "%zu-byte decrypt op %d differs from plaintext at byte %zu", len,
                     k + 1, d);
            return -1;
        }
    }
    return 0;
}

static int verify_pair(const struct algo *a, const struct impl *im, const struct impl *ref,
                       size_t len, int decrypt, char *why, size_t n)
{
    uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
    int dec = decrypt && algo_has_direction(a);
    struct pair p = { .len = len, .olen = algo_out_len(a, len), .cap = len + ALGO_MAX_OUT_EXTRA };
    /* One slot each, reused by both ops: a 16 MiB job costs 3 x 16 MiB here, not 7. */
    p.pt = malloc(p.cap);
    p.got = calloc(1, p.cap);
    p.want = calloc(1, p.cap);
    p.ct = dec ? malloc(2 * p.cap) : NULL;
    struct live r = { 0 }, t = { 0 };
    if (!p.pt || !p.got || !p.want || (dec && !p.ct))
        abort();
    fill(key, sizeof key, len * 3 + 1);
    fill(iv, sizeof iv, len * 5 + 2);
    fill(p.pt, p.cap, len * 7 + 3);

    int rc = -2; /* set-up failures are errors, not wrong output */
    if (!live_init(&r, ref, key, iv, 0, why, n)) {
        if (!live_init(&t, im, key, iv, dec, why, n)) {
            rc = dec ? pair_decrypt(a, im, ref, &t, &r, &p, why, n)
                     : pair_encrypt(im, ref, &t, &r, &p, why, n);
            live_free(&t);
        }
        live_free(&r);
    }
    free(p.pt);
    free(p.ct);
    free(p.got);
    free(p.want);
    return rc;
}

/* RNGs: nothing to compare with; refuse output that is constant or repeats. */
static int verify_rng(const struct impl *im, size_t len, char *why, size_t n)
{
    struct live t = { 0 };
    size_t m = len < 64 ? 64 : len;
    uint8_t *x = calloc(1, m + ALGO_MAX_OUT_EXTRA), *y = calloc(1, m + ALGO_MAX_OUT_EXTRA);
    int rc = -1;
    if (!x || !y)
        abort();
    if (live_init(&t, im, x, x, 0, why, n))
        goto out;
    if (im->op(t.ctx, x, NULL, m) || im->op(t.ctx, y, NULL, m)) {
        snprintf(why, n, "fill failed");
        goto free_impl;
    }
    size_t same = 0;
    for (size_t i = 1; i < m; i++)
        same += x[i] == x[0];
    if (same == m - 1 || memcmp(x, y, m) == 0) {
        snprintf(why, n, "output is constant or repeats");
        goto free_impl;
    }
    rc = 0;
free_impl:
    live_free(&t);
out:
    free(x);
    free(y);
    return rc;
}

static int verify(const struct algo *a, const struct impl *im, size_t len, int decrypt,
                  char *refname, size_t rn, char *why, size_t n)
{
    if (a->kind == ALGO_RNG) {
        snprintf(refname, rn, "non-repetition");
        return verify_rng(im, len, why, n);
    }
    if (a->kind == ALGO_PKEY) { /* the timed key's seed: a key pair is made once */
        uint8_t seed[ALGO_MAX_KEY];
        fill(seed, sizeof seed, 11);
        return kat_pk_verify(im, seed, refname, rn, why, n);
    }
    int k = kat_check(im, why, n);
    if (k < 0)
        return k;
    const struct impl *ref = registry_reference(im);
    if (!ref) {
        if (k != 0) {
            snprintf(why, n, "no reference implementation or known answer to verify against");
            return -2;
        }
        /* The known answer is one encrypt op; the decrypt direction is checked by a round
         * trip at the job's size, the implementation's own (known-good) encrypt chaining
         * ciphertexts that its decrypt must turn back into the plaintext. */
        if (decrypt && algo_has_direction(a)) {
            snprintf(refname, rn, "known answer+round trip");
            return verify_pair(a, im, im, len, decrypt, why, n);
        }
        snprintf(refname, rn, "known answer");
        return 0;
    }
    snprintf(refname, rn, "%s%s", ref->name, k == 0 ? "+known answer" : "");
    return verify_pair(a, im, ref, len, decrypt, why, n);
}

/* `pin <cpu>`: a CPU id, not an index, of the set the worker started with (the session's
 * choice for a column: cpupick.h). Its next sample's warm-up and probes run there. */
static void pin_to(int cpu, const cpu_set_t *start)
{
    cpu_set_t one;
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, start))
        return;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
}

/* The CPU the engine gave a -t N worker: an id of the set it inherited (engine.c nth_cpu). */
static void pin(int cpu)
{
    cpu_set_t all;
    if (cpu >= 0 && sched_getaffinity(0, sizeof all, &all) == 0)
        pin_to(cpu, &all);
}
/* The ops one batch needs to last about a fiftieth of a sample, from a short warm-up: the
 * timed loop reads the clock after each batch, so a sample ends within about 2% of its target
 * even when the machine's speed changes between the warm-up and the samples. */
static uint64_t calibrate(const struct impl *im, void *ctx, uint8_t *out, const uint8_t *in,
                          size_t len, uint64_t target, int *failed)
{
    uint64_t ops = 0, t0 = now_ns(CLOCK_MONOTONIC), t;
    do {
        if (im->op(ctx, out, in, len)) {
            *failed = 1;
            return 0;
        }
        ops++;
        t = now_ns(CLOCK_MONOTONIC) - t0;
    } while (t < 20000000u && t < target / 50);
    uint64_t per = t / ops ? t / ops : 1;
    uint64_t want = target / 50 / per;
    return want ? want : 1;
}

struct job {
    const struct algo *a;
    const struct impl *im;
    size_t len;
    int decrypt, samples, cpu;
    double seconds;
};

#define MAX_SAMPLES 256 /* the split of SECONDS: a sample lasts SECONDS/SAMPLES */

/* -t N: the start instant alone left a worker descheduled at t0 (the host took its vCPU, a
 * kernel thread ran) starting its window late, the round apart and retaken (trust.sh on the
 * Zen 5 VM: one round of nine 0 % together took a cell's overlap to 88 %). So at t0 each
 * worker writes t0 into its own slot of memory the N workers share, and spins until every
 * slot holds it, BARRIER_MAX_NS at most: the late one still starts late, but the others wait
 * for it. A slot each, not a shared counter: no read-modify-write (which qemu-user need not
 * make atomic between processes), and a worker that misses a round spoils that round only
 * (t0 differs in every round). */
#define BARRIER_MAX_NS 10000000u
_Static_assert(RESULT_MAX_THREADS * sizeof(uint64_t) <= WORKER_BARRIER_BYTES,
               "a slot for every worker");

static _Atomic uint64_t *barrier; /* N slots; NULL: no barrier (one worker, or none given) */
static int barrier_n, barrier_me;

static int barrier_map(long fd, long workers, long me)
{
    struct stat st;
    void *p = MAP_FAILED;
    /* The engine's memfd (a regular file of shmem) and nothing shorter: a short file would
     * end in SIGBUS at the first round. */
    if (fstat((int)fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= WORKER_BARRIER_BYTES)
        p = mmap(NULL, WORKER_BARRIER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    close((int)fd);
    if (p == MAP_FAILED)
        return -1;
    barrier = p;
    barrier_n = (int)workers;
    barrier_me = (int)me;
    return 0;
}

static void barrier_wait(uint64_t start)
{
    if (!barrier)
        return;
    atomic_store(&barrier[barrier_me], start);
    uint64_t give_up = now_ns(CLOCK_MONOTONIC) + BARRIER_MAX_NS;
    for (int i = 0; i < barrier_n && now_ns(CLOCK_MONOTONIC) < give_up;)
        i += atomic_load(&barrier[i]) == start;
}

static int int_arg(const char *text, long lo, long hi, long *out);

/* FD:N:I, each part whole as int_arg has it; 0 once mapped, else -1. */
static int barrier_arg(const char *text)
{
    char buf[64], *n, *i;
    long fd, workers, me;
    if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf || !(n = strchr(buf, ':')) ||
        !(i = strchr(n + 1, ':')))
        return -1;
    *n++ = 0;
    *i++ = 0;
    if (int_arg(buf, 3, INT_MAX, &fd) || int_arg(n, 2, RESULT_MAX_THREADS, &workers) ||
        int_arg(i, 0, workers - 1, &me))
        return -1;
    return barrier_map(fd, workers, me);
}

/* A whole decimal integer in [lo, hi], or -1. */
static int int_arg(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU [FD:N:I], validated as strictly as
 * `run` validates what it passes: the engine is not the only possible caller. 0, or -1 and
 * why. */
static int parse_args(int argc, char **argv, struct job *j, char *why, size_t n)
{
    char sz[200];
    long dec, samples, cpu;
    cpu_set_t all;
    if (argc != 8 && argc != 9)
        return snprintf(why, n, "bad arguments; accepted: __worker ALG IMPL BYTES DECRYPT "
                        "SECONDS SAMPLES CPU [FD:N:I]"), -1;
    if (!(j->a = algo_find(argv[1])))
        return snprintf(why, n, "unknown algorithm '%s'", argv[1]), -1;
    if (!(j->im = registry_find(argv[1], argv[2]))) {
        registry_discover(); /* a kernel driver: found only by looking */
        j->im = registry_find(argv[1], argv[2]);
    }
    if (!j->im)
        return snprintf(why, n, "no implementation %s of %s", argv[2], argv[1]), -1;
    if (select_parse_size(argv[3], &j->len, sz, sizeof sz) ||
        algo_check_size(j->a, j->len, sz, sizeof sz))
        return snprintf(why, n, "%s", sz), -1;
    if (int_arg(argv[4], 0, 1, &dec))
        return snprintf(why, n, "bad direction '%s'; accepted: 0 (encrypt), 1 (decrypt)",
                        argv[4]), -1;
    char *end;
    j->seconds = strtod(argv[5], &end);
    if (!*argv[5] || *end || !(j->seconds >= SELECT_MIN_TIME && j->seconds <= SELECT_MAX_TIME))
        return snprintf(why, n, "bad seconds '%s'; accepted: %g to %g", argv[5],
                        SELECT_MIN_TIME, SELECT_MAX_TIME), -1;
    if (int_arg(argv[6], 1, MAX_SAMPLES, &samples))
        return snprintf(why, n, "bad samples '%s'; accepted: 1 to %d", argv[6], MAX_SAMPLES), -1;
    /* A CPU id in this process's affinity set: they need not be 0..count-1 (taskset -c 1). */
    int known = sched_getaffinity(0, sizeof all, &all) == 0;
    if (int_arg(argv[7], -1, CPU_SETSIZE - 1, &cpu) ||
        (cpu >= 0 && known && !CPU_ISSET((int)cpu, &all)))
        return snprintf(why, n, "bad cpu '%s'; accepted: -1 (any) or a CPU this process may "
                        "use", argv[7]), -1;
    if (argc == 9 && barrier_arg(argv[8]))
        return snprintf(why, n, "bad barrier '%s'; accepted: FD:N:I, a shared memory "
                        "descriptor (above 2) of %d bytes at least, 2 to %d workers, this one's "
                        "index 0 to N-1", argv[8], WORKER_BARRIER_BYTES, RESULT_MAX_THREADS), -1;
    j->decrypt = (int)dec;
    j->samples = (int)samples;
    j->cpu = (int)cpu;
    return 0;
}

/* Everything a timed sample needs, set up once after verification. */
struct timed {
    const struct impl *im;
    struct live t;
    uint8_t *in, *out, *dst;
    size_t len;
    size_t op_bytes;  /* counted per op: len, or 1 for public-key ops (a rate of ops) */
    uint64_t target;  /* ns per sample */
    uint64_t batch;   /* ops between two clock reads; 0 until calibrated */
    uint64_t steady_ns; /* how long calibration waited for a steady clock (0: cal warm) */
    struct cycles cyc;
    int stat_fd;      /* /proc/stat, for steal and the other CPUs; -1 where unreadable */
    char *stat_buf;   /* its text, read around each sample */
    size_t stat_size;
    int sib_cpu;      /* the CPU whose SMT siblings sib[] holds; -1 none looked up yet */
    int sib[PROCSTAT_MAX_SIBLINGS], nsib;
    int taken;        /* samples so far */
    int inject;       /* test only: the sample to report as disturbed, -1 for none */
    int late;         /* test only: come to the -t N start barrier 2 ms late, every round */
    cpu_set_t cpus;   /* the CPUs it may run on as set up: what `pin` accepts */
};

/* The buffers and the implementation's context; 0, or -1 after saying why. */
static int timed_open(struct timed *tm, const struct job *j)
{
    const struct algo *a = j->a;
    const struct impl *im = j->im;
    size_t len = j->len;
    char why[200];
    size_t cap = (algo_buf_len(a, len) + 63) / 64 * 64;
    uint8_t key[ALGO_MAX_KEY], iv[ALGO_MAX_IV];
    memset(tm, 0, sizeof *tm);
    tm->im = im;
    tm->len = len;
    tm->op_bytes = algo_op_bytes(a, len);
    tm->in = aligned_alloc(64, cap);
    tm->out = aligned_alloc(64, cap);
    if (!tm->in || !tm->out)
        abort();
    fill(key, sizeof key, 11);
    fill(iv, sizeof iv, 12);
    fill(tm->in, cap, 13);
    /* For decryption, real ciphertext so AEAD tags verify. */
    int dec = j->decrypt && algo_has_direction(a);
    if (dec) {
        const struct impl *r = registry_reference(im);
        r = r ? r : im;
        struct live e = { 0 };
        if (live_init(&e, r, key, iv, 0, why, sizeof why)) {
            say("error preparing ciphertext: %s", why);
            return -1;
        }
        int bad = r->op(e.ctx, tm->out, tm->in, len);
        live_free(&e);
        if (bad) {
            say("error preparing ciphertext: %s failed to encrypt", r->name);
            return -1;
        }
        memcpy(tm->in, tm->out, algo_out_len(a, len));
    }
    if (a->kind == ALGO_PKEY && kat_pk_input(im, key, tm->in, why, sizeof why)) {
        say("error preparing the input: %s", why);
        return -1;
    }
    if (live_init(&tm->t, im, key, iv, dec, why, sizeof why)) {
        say("error %s", why);
        return -1;
    }
    /* Encryption and digests run in place, as `openssl speed` does (it matters: some
     * libcrypto paths differ in speed between in-place and separate buffers). Decryption
     * keeps the ciphertext intact so every AEAD op opens a message whose tag verifies. */
    tm->dst = dec || a->kind == ALGO_PKEY ? tm->out : tm->in;
    tm->target = (uint64_t)(j->seconds / j->samples * 1e9);
    cycles_open(&tm->cyc);
    tm->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    tm->stat_buf = procstat_buffer(&tm->stat_size);
    tm->sib_cpu = -1;
    if (sched_getaffinity(0, sizeof tm->cpus, &tm->cpus))
        CPU_ZERO(&tm->cpus);
    const char *f = getenv("ACCELSCOPE_TEST_FAULTS"), *d = getenv("ACCELSCOPE_TEST_DISTURB");
    tm->inject = f && !strcmp(f, "1") && d ? atoi(d) : -1;
    const char *l = getenv("ACCELSCOPE_TEST_LATE"); /* a CPU id: that -t N worker is late */
    tm->late = f && !strcmp(f, "1") && l && j->cpu >= 0 && atoi(l) == j->cpu;
    return 0;
}

static void timed_close(struct timed *tm)
{
    cycles_close(&tm->cyc);
    if (tm->stat_fd >= 0)
        close(tm->stat_fd);
    free(tm->stat_buf);
    live_free(&tm->t);
    free(tm->in);
    free(tm->out);
}

/* /proc/stat as seen from `cpu` (procstat.h); everything unknown where unreadable. Its SMT
 * siblings are looked up in sysfs whenever the worker is seen on another CPU than last time
 * (a pinned worker: once; an unpinned one after each move, outside the timed window). */
static void stat_read(struct timed *tm, int cpu, struct procstat *r)
{
    if (cpu != tm->sib_cpu) {
        int n = procstat_siblings(cpu, tm->sib, PROCSTAT_MAX_SIBLINGS);
        tm->nsib = n > 0 ? n : 0;
        tm->sib_cpu = cpu;
    }
    ssize_t k = tm->stat_fd >= 0 ? pread(tm->stat_fd, tm->stat_buf, tm->stat_size - 1, 0) : -1;
    tm->stat_buf[k > 0 ? k : 0] = 0;
    procstat_parse_sib(tm->stat_buf, cpu, tm->sib, tm->nsib, r);
}

/* Where the system stands around a sample: disturbance counters and clock probes. */
struct probe {
    long nivcsw;
    struct procstat st;
    int cpu;
    double mhz, vrate, lrate;
};

/* The counters around a sample; after it (clocks_first), the probes before them. */
static void probe_take(struct timed *tm, struct probe *p, int clocks_first)
{
    struct rusage u;
    if (clocks_first)
        p->mhz = clock_probe_mhz(), p->vrate = clock_probe_vector_rate(),
        p->lrate = clock_probe_load_rate();
    p->cpu = sched_getcpu();
    stat_read(tm, p->cpu, &p->st);
    getrusage(RUSAGE_SELF, &u);
    p->nivcsw = u.ru_nivcsw;
}

/* While a worker waits for `go`, the other cells of its column take their rounds: the core
 * clock drops, and caches, TLB and branch predictors fill with their code. So the operation
 * itself runs, untimed, until a probe's length before the window's start (`go <t0>`: a
 * CLOCK_MONOTONIC instant the engine chose for every worker of the cell, so a late wake-up
 * of one does not shift its window), or for WARM_NS without one; then the clock probes, the
 * last readings before the window. Without the warm-up, interleaved samples read 5-10 % below
 * back-to-back ones on the Zen 3 VM (the default run against the commit before sessions).
 * Not 1 ms: on the Zen 5 VM (2026-12-05, default runs alternated 2 1 2 1 ms) it saved 0.9 ms
 * a round (3.7 -> 2.8 ms of overhead, some 10 s a run), but every size read lower, the
 * medians of the cells quiet in both 0.956 and 0.965 of the 2 ms figures (2 ms against 2 ms:
 * 0.985, 1 ms against 1 ms: 0.999); the speed-ups did not move (median ratio 1.000). */
#define WARM_NS 2000000u
#define PROBE_NS 500000u /* a scalar, a vector and a load probe (~80 us each), with room to spare */
/* A slow spell of the memory path (STATS_SLOW_PHASE) outlasts a round: in one default run on
 * the Zen 5 VM, 1793 of 6339 rounds came back slow, in spells of consecutive rounds over
 * the first minute. Retaken, each still cost a warm-up and a window and counted against its
 * cell (most rounds retaken: noisy). So one worker, told the run's usual figure, goes on
 * warming up in WAIT_STEP_NS steps while its probe reads the spell, and starts its window
 * when the spell ends or after WAIT_MAX_NS (then the round is judged as before). */
#define WAIT_STEP_NS 2000000u
#define WAIT_MAX_NS WORKER_WAIT_MAX_NS

static int settle(struct timed *tm, uint64_t start, double lref, struct probe *p,
                  uint64_t *waited)
{
    uint64_t t = now_ns(CLOCK_MONOTONIC), until = start ? start : t + WARM_NS, op_ns = 0;
    uint64_t first = 0; /* when the window would have started without a wait */
    int failed = 0;
    for (int pass = 0;; pass++) {
        /* One operation at a time, the clock read after each, so neither a long --time (large
         * batches) nor a long operation (16 MiB) makes it skip the warm-up or run past the
         * start; a wait step runs at least one, so a long one keeps the caches warm too. */
        for (int once = pass > 0; !failed && (once || t + op_ns + PROBE_NS < until); once = 0) {
            failed = tm->im->op(tm->t.ctx, tm->dst, tm->in, tm->len) != 0;
            uint64_t t1 = now_ns(CLOCK_MONOTONIC);
            op_ns = t1 - t;
            t = t1;
        }
        p->mhz = clock_probe_mhz();
        p->vrate = clock_probe_vector_rate();
        p->lrate = clock_probe_load_rate();
        t = now_ns(CLOCK_MONOTONIC);
        if (!pass)
            first = t > until ? t : until;
        if (failed || start || t >= first + WAIT_MAX_NS ||
            !stats_load_slow(stats_load_figure(p->lrate, p->mhz), lref))
            break;
        until = t + WAIT_STEP_NS;
    }
    uint64_t begin = t > until ? t : until;
    *waited = begin - first;
    while (now_ns(CLOCK_MONOTONIC) < until)
        ;
    return failed ? -1 : 0;
}

/* Steal during the sample: its CPU's when it stayed on one, else every CPU's (an unpinned
 * worker that moved may have been stolen from on either). */
static long steal_delta(const struct probe *a, const struct probe *b)
{
    if (a->cpu == b->cpu && a->st.steal_mine >= 0 && b->st.steal_mine >= 0)
        return (long)(b->st.steal_mine - a->st.steal_mine);
    if (a->st.steal_all >= 0 && b->st.steal_all >= 0)
        return (long)(b->st.steal_all - a->st.steal_all);
    return -1;
}

/* One timed sample and its `sample` line, its window starting at `start` (0: now, after a
 * short settle); -1 when an operation failed. The counters are read outside the clock
 * probes, so a switch during a probe counts too. */
static uint64_t tv_ns(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static int take_sample(struct timed *tm, uint64_t start, double lref)
{
    struct probe p0, p1;
    struct rusage u0, u1;
    uint64_t waited = 0;
    int failed = 0;
    probe_take(tm, &p0, 0);
    failed = settle(tm, start, lref, &p0, &waited);
    if (waited) /* the counters are the window's, not the wait's (steal is likely in a spell) */
        probe_take(tm, &p0, 0);
    /* After the settle's probes, so the windows start together; inside the counters p0 took,
     * so steal while a partner was late still marks the round (it may be the partner's). */
    if (start && !failed) {
        if (tm->late) { /* test only: as if descheduled at t0 */
            struct timespec nap = { 0, 2000000 };
            nanosleep(&nap, NULL);
        }
        barrier_wait(start);
    }
    getrusage(RUSAGE_SELF, &u0); /* user vs system time: did an engine's work reach the kernel */
    uint64_t ops = 0, w0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    uint64_t y0 = cycles_read(&tm->cyc), w1;
    /* Batches until the sample's share of the time has passed: the timed seconds come out
     * as asked, and the windows of -t N workers, started together, end together. */
    do {
        for (uint64_t i = 0; i < tm->batch && !failed; i++)
            failed = tm->im->op(tm->t.ctx, tm->dst, tm->in, tm->len) != 0;
        ops += tm->batch;
        w1 = now_ns(CLOCK_MONOTONIC);
    } while (!failed && w1 - w0 < tm->target);
    int inject = tm->taken++ == tm->inject;
    if (inject) { /* test only: a sample stretched tenfold that must not reach the figures */
        struct timespec nap = { (time_t)(tm->target * 10 / 1000000000u),
                                (long)(tm->target * 10 % 1000000000u) };
        nanosleep(&nap, NULL);
    }
    uint64_t y1 = cycles_read(&tm->cyc);
    uint64_t c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    getrusage(RUSAGE_SELF, &u1);
    w1 = inject ? now_ns(CLOCK_MONOTONIC) : w1;
    probe_take(tm, &p1, 1);
    if (failed)
        return -1;
    /* The other CPUs are one set only when the worker stayed on its CPU; a move is said
     * as such (for one worker, a disturbance of its own: stats.c). */
    long long ouser = -1, ototal = -1, suser = -1, stotal = -1;
    if (p0.cpu == p1.cpu) {
        procstat_others_delta(&p0.st, &p1.st, &ouser, &ototal);
        procstat_sib_delta(&p0.st, &p1.st, &suser, &stotal);
    }
    say("sample %llu %llu %llu %llu %llu %ld %ld %llu %llu %.1f %.1f %.1f %.1f %llu %llu %lld %lld "
        "%d %lld %lld %.1f %.1f %llu",
        (unsigned long long)ops, (unsigned long long)(ops * tm->op_bytes),
        (unsigned long long)(w1 - w0), (unsigned long long)(c1 - c0),
        (unsigned long long)(y1 - y0), p1.nivcsw - p0.nivcsw + inject, steal_delta(&p0, &p1),
        (unsigned long long)w0, (unsigned long long)w1, p0.mhz, p1.mhz, p0.vrate, p1.vrate,
        (unsigned long long)(tv_ns(u1.ru_utime) - tv_ns(u0.ru_utime)),
        (unsigned long long)(tv_ns(u1.ru_stime) - tv_ns(u0.ru_stime)), ouser, ototal,
        p0.cpu != p1.cpu, suser, stotal, p0.lrate, p1.lrate, (unsigned long long)waited);
    return 0;
}

/* Before the first sample: the operation runs in slices until the core clock is steady, so
 * that a governor ramping the clock up (a board's ondemand/schedutil) or a core waking from
 * idle does not slow the first rounds. Steady: three readings in a row, each within half the
 * disturbed rule's tolerance of the one before, of the clock probe and of cpufreq's clock for
 * this CPU where the kernel has one (on x86 an APERF/MPERF average, so compared with the same
 * tolerance, never for equality); a move to another CPU starts over. STEADY_MAX_NS, then
 * the rounds' own clock rule takes over (an operation longer than that runs once). Not after
 * `cal warm`: its CPU has run the session's rounds until just now, and three slices (6 ms)
 * for each of the two workers of some 450 cells came to about 5.5 s of a default run. */
#define STEADY_SLICE_NS 2000000u
#define STEADY_MAX_NS 100000000u

static int near(double a, double b)
{
    return a > b * (1 - STATS_CLOCK_TOL / 2) && a < b * (1 + STATS_CLOCK_TOL / 2);
}

static int steady(struct timed *tm)
{
    uint64_t t0 = now_ns(CLOCK_MONOTONIC), t = t0;
    double mhz0 = 0;
    long khz0 = clock_cpufreq_khz();
    int cpu0 = sched_getcpu(), calm = 0;
    while (calm < 2 && t - t0 < STEADY_MAX_NS) {
        uint64_t end = t + STEADY_SLICE_NS;
        do {
            if (tm->im->op(tm->t.ctx, tm->dst, tm->in, tm->len))
                return -1;
            t = now_ns(CLOCK_MONOTONIC);
        } while (t < end);
        double mhz = clock_probe_mhz();
        long khz = clock_cpufreq_khz();
        int cpu = sched_getcpu();
        int same = cpu == cpu0 && (mhz <= 0 || (mhz0 > 0 && near(mhz, mhz0))) &&
                   (khz < 0 ? khz0 < 0 : khz0 > 0 && near((double)khz, (double)khz0));
        calm = same ? calm + 1 : 0;
        mhz0 = mhz;
        khz0 = khz;
        cpu0 = cpu;
    }
    return 0;
}

static int timed_calibrate(struct timed *tm, int warm)
{
    int failed = 0;
    if (!tm->batch && !warm) {
        uint64_t t0 = now_ns(CLOCK_MONOTONIC);
        if (steady(tm))
            return -1;
        tm->steady_ns = now_ns(CLOCK_MONOTONIC) - t0;
    }
    if (!tm->batch)
        tm->batch = calibrate(tm->im, tm->t.ctx, tm->dst, tm->in, tm->len, tm->target, &failed);
    return failed ? -1 : 0;
}

/* Paced by the engine through stdin: `cal` or `cal warm` calibrates (answers `calibrated
 * <batch> <steady_ns>`), `go`, `go <t0_ns>` or `go wait <lref>` takes one sample
 * (calibrating first if not yet),
 * `pin <cpu>` moves it to that CPU (no answer; where it cannot, it stays), `quit` or end of
 * input ends. -1 when an operation failed, -2 after saying what else went wrong. */
static int serve(struct timed *tm)
{
    char cmd[64];
    say("ready");
    while (fgets(cmd, sizeof cmd, stdin)) {
        unsigned long long start = 0;
        double lref = 0;
        char extra;
        cmd[strcspn(cmd, "\n")] = 0;
        if (!strcmp(cmd, "quit"))
            break;
        int warm = !strcmp(cmd, "cal warm"), cal = warm || !strcmp(cmd, "cal");
        int cpu;
        /* A CPU gone since the pick (unplugged, a cpuset changed): the worker stays where it
         * may run, as unpinned cells always did; the cell is measured all the same. */
        if (sscanf(cmd, "pin %d %c", &cpu, &extra) == 1) {
            pin_to(cpu, &tm->cpus);
            continue;
        }
        if (!cal && strcmp(cmd, "go") && sscanf(cmd, "go %llu %c", &start, &extra) != 1 &&
            (sscanf(cmd, "go wait %lf %c", &lref, &extra) != 1 || !(lref > 0))) {
            say("error worker: unknown command '%.40s' (accepted: cal, cal warm, go, "
                "go <t0_ns>, go wait <lref>, pin <cpu>, quit)", cmd);
            return -2;
        }
        if (timed_calibrate(tm, warm) || (!cal && take_sample(tm, start, lref)))
            return -1;
        if (cal)
            say("calibrated %llu %llu", (unsigned long long)tm->batch,
                (unsigned long long)tm->steady_ns);
    }
    return 0;
}

/* Run by hand (stdin is not the engine's socket): SAMPLES samples in a row. */
static int stream(struct timed *tm, int samples)
{
    if (timed_calibrate(tm, 0))
        return -1;
    for (int s = 0; s < samples; s++)
        if (take_sample(tm, 0, 0))
            return -1;
    return 0;
}

static int paced_by_engine(void)
{
    struct stat st;
    return fstat(0, &st) == 0 && S_ISSOCK(st.st_mode);
}

int worker_main(int argc, char **argv)
{
    char why[300], ref[64];
    struct job j;
    if (parse_args(argc, argv, &j, why, sizeof why)) {
        say("error worker: %s", why);
        return 2;
    }
    /* A worker must not outlive the program that reads it (killed TUI, SIGKILL'd run). */
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        return 1;
    pin(j.cpu);
    say("hello %d %s", (int)getpid(), OpenSSL_version(OPENSSL_CPU_INFO));
    if (j.im->check(j.im, why, sizeof why) != 0) {
        say("unavailable %s", why);
        return 0;
    }
    heartbeat(j.a->kind == ALGO_PKEY);
    int v = verify(j.a, j.im, j.len, j.decrypt, ref, sizeof ref, why, sizeof why);
    if (v) {
        say("%s %s", v == -1 ? "wrong" : "error", why);
        return 0;
    }
    say("verified %s", ref);
    struct timed tm;
    int bad = timed_open(&tm, &j);
    heartbeat(0);
    if (bad)
        return 0;
    say("clock %s", tm.cyc.name);
    if (j.im->offload) { /* once set up: an engine opens its kernel descriptors in init */
        char id[32] = "";
        int claimed = !j.im->offload(tm.t.ctx, id, sizeof id);
        say("offload %d %d %s", claimed, offload_kernel_fds(), id);
    }
    int rc = paced_by_engine() ? serve(&tm) : stream(&tm, j.samples);
    timed_close(&tm);
    if (rc == -1)
        say("error operation failed while timing");
    else if (!rc)
        say("done");
    return 0;
}
